# spamread.s: the paper's in-guest trace reader.  Executes READ_BUFFER
# (FD04: R11, R10 = the record, R9 = 0 OK / -1 no data, R8 = tracing
# status) in a loop and builds the histogram of the network software
# interrupt's inclusive service time (IPL 12, SCB 0xB0): from its
# interrupt record (identifier 0x10B0) to the REI that returns from it.
#
# It pairs events with REIs exactly as the host decoder does
# (spam/spam_decode.[ch]), so that its histogram equals the host's
# `spamctl hist --event int:0xB0 --records R --linear 100:50` of the
# same run bin for bin (tests/spamread/):
#  - time: the records' microsecond field is ICR's low word, which runs
#    0xD8F0..0xFFFF (NICR = -10000): a backward step spans 10000 us, so
#    the step is (us - last) mod 65536, minus 65536 - 10000 when the
#    field went down; a step that still comes out above 0xFFFF (a field
#    outside ICR's range) counts as 0.  The extended record does not
#    advance time.
#  - a stack of open events per process (keyed by the pid of the last
#    LDPCTX's extended record; "unknown" before the first one), at most
#    32 deep (a push beyond is dropped): interrupts, exceptions and CHMx
#    push; LDPCTX pushes onto the new process's stack; an REI pops the
#    top of the current process's stack (none: unmatched, ignored); a
#    "tracing enabled" marker forgets every stack and the process.
#  - the histogram: 50 bins of 100 us (bin k holds k*100 .. k*100+99 us)
#    and an open last bin (>= 5000 us).
# Half a second before the system's shutdown it stops reading, prints the
# summary and the bins (vax/guest/README.md, "spamread's output") and
# exits.
# On a machine without the SPAM microcode the first READ_BUFFER takes a
# reserved-instruction fault; the onfault handler prints
# "no SPAM microcode" and exits.

	DATA	= 0x8100		# r7 points here while reading
	NREC	= 0			# records read (extended records too)
	NSAMP	= 4			# service times measured
	SKIP	= 8			# next record is an extended record
	SUM	= 12
	MAX	= 16
	MIN	= 20
	END	= 24			# tick to stop at
	CUR	= 28			# the current process's stack
	CKSUM	= 32			# sum of all longwords read, mod 2^32
	LOST	= 36			# stack table full: a stack was forgotten
	HIST	= 0x8200		# NBIN+1 counters
	NBIN	= 50
	BINW	= 100
	PERIOD	= 10000			# |NICR|: ICR's reload period, us
	MAXDEP	= 32
	# stacks: NSTK entries of SSZ bytes: key (pid, -1 unknown), depth,
	# then MAXDEP frames: the open event's time <30:0>, bit 31 set for
	# the IPL 12 interrupt
	STACKS	= 0x8300
	NSTK	= 32
	SSZ	= 8 + 4 * MAXDEP
	ISR	= 0x10B0		# interrupt, SCB 0xB0

# While reading: r7 = DATA, r6 = reconstructed time (us), r5 = the
# previous record's microsecond field; r0-r4 scratch.  (The system calls
# preserve r2-r11.)

	.text
	.align	9
	.globl	prog_spamread, prog_spamread_end
prog_spamread:
	movc5	$0, (%sp), $0, $NSTK*SSZ, *$STACKS	# empty stacks
	movc5	$0, (%sp), $0, $HIST+4*NBIN+4-DATA, *$DATA
	movl	$DATA, %r7
	mnegl	$1, MIN(%r7)
	mnegl	$1, %r0			# the unknown process
	jsb	findstk
	movl	%r1, CUR(%r7)
	calls	$0, *$L_time
	subl3	$100, %r1, END(%r7)	# stop a second before the shutdown
	pushab	nospam
	calls	$1, *$L_onfault
	readbuf				# FD04: faults without SPAM microcode
	movq	%r10, %r2		# keep the record (r2 = R10, r3 = R11)
	movl	%r9, %r4
	clrl	-(%sp)			# the opcode exists: no handler now
	calls	$1, *$L_onfault
	pushab	m_start
	calls	$1, *$L_puts
	calls	$0, *$L_flush
	movq	%r2, %r10
	movl	%r4, %r9
	clrq	%r5			# r5 = previous field, r6 = time
	brw	have

# The reading loop.  The hot path (loop .. the end of the push) falls
# back to `next`; the rare cases sit around it, within byte branches.
stop:	tstl	SKIP(%r7)		# (never between LDPCTX and its extended record)
	bneq	loop
	calls	$0, *$L_time
	cmpl	%r0, END(%r7)
	blss	loop
	brw	report
empty:	pushl	$1			# nothing to read: wait a tick
	calls	$1, *$L_sleep
	calls	$0, *$L_time
	cmpl	%r0, END(%r7)
	blss	loop
	tstl	SKIP(%r7)
	bneq	loop
	brw	report

# REI: pop the top of the current stack
rei:	movl	CUR(%r7), %r1
	movl	4(%r1), %r0
	beql	next			# no open event: unmatched
	decl	%r0
	movl	%r0, 4(%r1)
	movl	8(%r1)[%r0], %r4
	bgeq	next			# not the IPL 12 interrupt
	brw	sample

next:	bitl	$0x3F, (%r7)		# every 64 records: time to stop?
	beql	stop
loop:	readbuf
have:	tstl	%r9
	bneq	empty
	incl	(%r7)			# NREC
	addl2	%r11, CKSUM(%r7)
	addl2	%r10, CKSUM(%r7)
	tstl	SKIP(%r7)
	bneq	ext
	extzv	$16, $16, %r11, %r4	# r4 = microseconds <15:0>
	subl3	%r5, %r4, %r3		# forward: the step
	bgeq	1f
	addl2	$PERIOD, %r3		# backward: ICR reloaded once
	bgeq	1f
	clrl	%r3			# a field outside ICR's range: no step
1:	addl2	%r3, %r6
	movl	%r4, %r5
	extzv	$12, $4, %r10, %r3	# r3 = class
	cmpl	%r3, $5
	beql	rei
	cmpl	%r3, $3
	bgtr	other
	tstl	%r3
	beql	next			# invalid
	movl	CUR(%r7), %r1		# interrupt, exception, CHMx: push
	movl	4(%r1), %r0
	cmpl	%r0, $MAXDEP
	bgequ	next			# full: not tracked
	cmpw	%r10, $ISR
	beql	pushisr
	bicl3	$0x80000000, %r6, 8(%r1)[%r0]
	incl	4(%r1)
	brb	next

# LDPCTX: its extended record follows; a marker
other:	cmpl	%r3, $4
	bneq	marker
	movl	$1, SKIP(%r7)
	brw	next
marker:	cmpw	%r10, $0x6001		# "tracing enabled": forget every
	beql	forget			# stack and the process
	brw	next

# push the IPL 12 interrupt: its time with bit 31 set
pushisr:
	bisl3	$0x80000000, %r6, 8(%r1)[%r0]
	incl	4(%r1)
	brw	next

# the extended record: switch to the new process's stack (by p_pid) and
# push the LDPCTX onto it, at the LDPCTX's time
ext:	clrl	SKIP(%r7)
	extzv	$16, $16, %r11, %r0	# p_pid
	jsb	findstk
	movl	%r1, CUR(%r7)
	movl	4(%r1), %r0
	cmpl	%r0, $MAXDEP
	bgequ	1f
	bicl3	$0x80000000, %r6, 8(%r1)[%r0]
	incl	4(%r1)
1:	brw	next

# the REI of an IPL 12 interrupt opened at r4 <30:0>
sample:	subl3	%r4, %r6, %r4
	bicl2	$0x80000000, %r4	# r4 = inclusive service time, us
	incl	NSAMP(%r7)
	addl2	%r4, SUM(%r7)
	cmpl	%r4, MAX(%r7)
	blequ	5f
	movl	%r4, MAX(%r7)
5:	cmpl	%r4, MIN(%r7)
	bgequ	6f
	movl	%r4, MIN(%r7)
6:	divl3	$BINW, %r4, %r2
	cmpl	%r2, $NBIN
	blequ	7f
	movl	$NBIN, %r2
7:	incl	*$HIST[%r2]
	brw	next

# a "tracing enabled" marker: tracing was off, open events are unknown
forget:	movl	$STACKS+4, %r1
	movl	$NSTK, %r3
4:	clrl	(%r1)
	addl2	$SSZ, %r1
	sobgtr	%r3, 4b
	mnegl	$1, %r0
	jsb	findstk
	movl	%r1, CUR(%r7)
	brw	next

# findstk: r1 = the stack of process r0 (a key): its own, else any empty
# one (an empty stack is as good as a new one); uses r3
findstk:
	movl	$STACKS, %r1
	movl	$NSTK, %r3
1:	cmpl	(%r1), %r0
	beql	9f
	addl2	$SSZ, %r1
	sobgtr	%r3, 1b
	movl	$STACKS, %r1
	movl	$NSTK, %r3
2:	tstl	4(%r1)
	beql	8f
	addl2	$SSZ, %r1
	sobgtr	%r3, 2b
	subl2	$SSZ, %r1		# all in use: forget the last one
	clrl	4(%r1)
	incl	LOST(%r7)
8:	movl	%r0, (%r1)
9:	rsb

report:	pushab	m_r1			# "spamread: R records, N ... service times"
	calls	$1, *$L_puts
	pushl	NREC(%r7)
	calls	$1, *$L_putdec
	pushab	m_r2
	calls	$1, *$L_puts
	pushl	NSAMP(%r7)
	calls	$1, *$L_putdec
	pushab	m_r3
	calls	$1, *$L_puts
	tstl	NSAMP(%r7)
	beql	3f
	pushab	m_min			# min / mean / max
	calls	$1, *$L_puts
	pushl	MIN(%r7)
	calls	$1, *$L_putdec
	pushab	m_mean
	calls	$1, *$L_puts
	divl3	NSAMP(%r7), SUM(%r7), -(%sp)
	calls	$1, *$L_putdec
	pushab	m_max
	calls	$1, *$L_puts
	pushl	MAX(%r7)
	calls	$1, *$L_putdec
	pushab	m_us
	calls	$1, *$L_puts
3:	clrl	%r6			# "spamread-bins LO:COUNT ...": the
	clrl	%r9			# non-empty bins, 8 a line (few writes:
4:	movl	*$HIST[%r6], %r8	# a starved reader must finish in time)
	beql	8f
	tstl	%r9
	bneq	5f
	pushab	m_bins
	calls	$1, *$L_puts
5:	pushab	m_sp
	calls	$1, *$L_puts
	mull3	$BINW, %r6, -(%sp)
	calls	$1, *$L_putdec
	pushab	m_colon
	calls	$1, *$L_puts
	pushl	%r8
	calls	$1, *$L_putdec
	aoblss	$8, %r9, 8f
	clrl	%r9
	pushab	m_nl
	calls	$1, *$L_puts
8:	aobleq	$NBIN, %r6, 4b
	tstl	%r9
	beql	9f
	pushab	m_nl
	calls	$1, *$L_puts
9:
	pushab	m_end			# "spamread-end R N CHECKSUM LOST"
	calls	$1, *$L_puts
	pushl	NREC(%r7)
	calls	$1, *$L_putdec
	pushab	m_sp
	calls	$1, *$L_puts
	pushl	NSAMP(%r7)
	calls	$1, *$L_putdec
	pushab	m_sp
	calls	$1, *$L_puts
	pushl	CKSUM(%r7)
	calls	$1, *$L_puthex
	pushab	m_sp
	calls	$1, *$L_puts
	pushl	LOST(%r7)
	calls	$1, *$L_putdec
	pushab	m_nl
	calls	$1, *$L_puts
	pushl	$0
	calls	$1, *$L_exit

# reserved-instruction fault on the first READ_BUFFER: no SPAM here
nospam:	pushab	m_nospam
	calls	$1, *$L_puts
	pushl	$1
	calls	$1, *$L_exit

m_start: .asciz	"spamread: reading the SPAM trace buffer\n"
m_nospam: .asciz "spamread: no SPAM microcode\n"
m_r1:	.asciz	"spamread: "
m_r2:	.asciz	" records, "
m_r3:	.asciz	" IPL 12 (SCB 0xB0) service times\n"
m_min:	.asciz	"spamread: min "
m_mean:	.asciz	" us, mean "
m_max:	.asciz	" us, max "
m_us:	.asciz	" us\n"
m_bins:	.asciz	"spamread-bins"
m_colon: .asciz	":"
m_end:	.asciz	"spamread-end "
m_sp:	.asciz	" "
m_nl:	.asciz	"\n"

	.align	9
prog_spamread_end:
