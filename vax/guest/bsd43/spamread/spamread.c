/*
 * spamread.c: the paper's in-guest trace reader, for the original 4.3BSD
 * (K&R C for its cc; no /usr/include on the installed root, so what it
 * uses is declared here).  It reads the SPAM buffer with READ_BUFFER
 * (spamrd.s) for SECONDS seconds and keeps the histogram of the inclusive
 * service time of the IPL 12 software interrupt (SCB 0xB0, event 0x10B0:
 * 4.3BSD's network input, ipintr), 0.1 ms bins, as the paper did.
 *
 * It reads the buffer dry, then sleeps a clock tick (select), as a
 * reader that leaves the CPU to the system it watches.
 *
 * Where it starts: it reads the buffer dry (those records are old), then
 * ENABLE puts the marker "tracing enabled" (0x6001) in; it discards up to
 * that marker and counts from it, so the host finds the same records in
 * its trace (spamctl hist --skip INDEX-OF-THE-MARKER --records R).
 *
 * It pairs events with REIs by the host decoder's rules, as the bundled
 * guest's spamread (vax/guest/user/spamread.s) does: time from the
 * records' microsecond field (ICR's low word, period 10000 us), the
 * extended record after an LDPCTX is no event; a stack of open events per
 * process (pid of the last extended record; "unknown" first), at most 32
 * deep; interrupts, exceptions and CHMx push, LDPCTX pushes on the new
 * process's stack, REI pops the current one's top, a "tracing enabled"
 * marker forgets every stack.  Output (as spamread.s's):
 *   spamread: R records, N IPL 12 (SCB 0xB0) service times
 *   spamread: min A us, mean B us, max C us
 *   spamread-bins LO:COUNT ...        (non-empty bins, 8 a line)
 *   spamread-end R N CHECKSUM LOST
 */
struct timeval { long tv_sec; long tv_usec; };
long time();
int select();
int printf();
int atoi();
int spamrd();
int spamon();

#define NBIN	50
#define BINW	100
#define PERIOD	10000
#define MAXDEP	32
#define NSTK	32
#define ISR	0x10B0
#define CHUNK	256

long	buf[2 * CHUNK];
long	key[NSTK];		/* a stack's process: pid, -1 unknown */
int	depth[NSTK];
long	opent[NSTK][MAXDEP];	/* open event's time <30:0> */
char	isisr[NSTK][MAXDEP];	/* it is the IPL 12 interrupt */
long	hist[NBIN + 1];
long	nrec, nsamp, sum, mx, mn = -1, cksum, lost, nold, nwait;
long	now, last;		/* reconstructed time, last us field */
int	cur, skip;

/* the stack of process k: its own, else an empty one, else the last */
findstk(k)
long k;
{
	int i;

	for (i = 0; i < NSTK; i++)
		if (key[i] == k)
			return (i);
	for (i = 0; i < NSTK; i++)
		if (depth[i] == 0)
			break;
	if (i == NSTK) {
		i = NSTK - 1;
		depth[i] = 0;
		lost++;
	}
	key[i] = k;
	return (i);
}

push(s, t, isr)
int s, isr;
long t;
{
	if (depth[s] >= MAXDEP)
		return;
	opent[s][depth[s]] = t & 0x7fffffff;
	isisr[s][depth[s]] = isr;
	depth[s]++;
}

sample(d)
long d;
{
	long b;

	nsamp++;
	sum += d;
	if (d > mx)
		mx = d;
	if (mn < 0 || d < mn)
		mn = d;
	b = d / BINW;
	if (b > NBIN)
		b = NBIN;
	hist[b]++;
}

record(r11, r10)
long r11, r10;
{
	long us, step, cls, ev;
	int i;

	nrec++;
	cksum += r11 + r10;
	if (skip) {		/* the extended record of an LDPCTX */
		skip = 0;
		cur = findstk((r11 >> 16) & 0xffff);
		push(cur, now, 0);
		return;
	}
	us = (r11 >> 16) & 0xffff;
	step = us - last;
	if (step < 0) {
		step += PERIOD;
		if (step < 0)
			step = 0;
	}
	now += step;
	last = us;
	ev = r10 & 0xffff;
	cls = (ev >> 12) & 0xf;
	if (cls >= 1 && cls <= 3)
		push(cur, now, ev == ISR);
	else if (cls == 4)
		skip = 1;
	else if (cls == 5) {
		if (depth[cur] == 0)
			return;
		depth[cur]--;
		if (isisr[cur][depth[cur]])
			sample((now - opent[cur][depth[cur]]) & 0x7fffffff);
	} else if (ev == 0x6001) {
		for (i = 0; i < NSTK; i++)
			depth[i] = 0;
		cur = findstk(-1L);
	}
}

/* wait a clock tick */
tick()
{
	struct timeval tv;

	tv.tv_sec = 0;
	tv.tv_usec = 10000;
	select(0, (long *)0, (long *)0, (long *)0, &tv);
}

main(argc, argv)
int argc;
char **argv;
{
	long end;
	int n, i, started;

	if (argc != 2 || atoi(argv[1]) <= 0) {
		printf("usage: spamread SECONDS\n");
		exit(2);
	}
	for (i = 0; i < NSTK; i++)
		key[i] = -2;
	while ((n = spamrd(buf, CHUNK)) > 0)	/* old records */
		nold += n;
	spamon();
	printf("spamread: reading the SPAM trace buffer (%ld old records skipped)\n", nold);
	end = time((long *)0) + atoi(argv[1]);
	started = 0;
	for (;;) {
		n = spamrd(buf, CHUNK);
		if (n == 0) {
			if (!skip && started && time((long *)0) >= end)
				break;
			nwait++;
			tick();
			continue;
		}
		for (i = 0; i < n; i++) {
			if (!started) {	/* up to the marker ENABLE wrote */
				if ((buf[2 * i + 1] & 0xffff) != 0x6001) {
					nold++;
					continue;
				}
				started = 1;
			}
			record(buf[2 * i], buf[2 * i + 1]);
		}
		if (!skip && started && time((long *)0) >= end)
			break;
		if (n < CHUNK) {	/* read it dry: wait a tick */
			nwait++;
			tick();
		}
	}
	printf("spamread: %ld records, %ld IPL 12 (SCB 0xB0) service times\n", nrec, nsamp);
	if (nsamp)
		printf("spamread: min %ld us, mean %ld us, max %ld us\n", mn, sum / nsamp, mx);
	n = 0;
	for (i = 0; i <= NBIN; i++) {
		if (hist[i] == 0)
			continue;
		if (n == 0)
			printf("spamread-bins");
		printf(" %d:%ld", i * BINW, hist[i]);
		if (++n == 8) {
			printf("\n");
			n = 0;
		}
	}
	if (n)
		printf("\n");
	printf("spamread-end %ld %ld %08lx %ld\n", nrec, nsamp, cksum, lost);
	printf("spamread: %ld waits for records\n", nwait);
	exit(0);
}
