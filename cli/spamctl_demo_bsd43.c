/* spamctl demo --os 4.3bsd: the paper's experiment on the original 4.3BSD
 * (vax/guest/bsd43/README.md).  Copies of the installed disk (the
 * per-user cache's, spamctl_bsd43.h, or --disk) boot multi-user at once,
 * one machine a thread, with the same inputs: the network at --net-rate,
 * the DZ11 on BR4 (its interrupts through SCB 0x10C, the DEUNA's alone
 * through 0x14C), a benchmark user on tty00 and --users shell users.  The
 * console (demo.script) brings de0 up, starts routed and XNSrouted,
 * compiles the in-guest reader with 4.3BSD's cc, tells the benchmark user
 * to start its job and runs the reader for --duration seconds.  The first
 * run is traced (host drain in tap mode, so the reader sees every record
 * too); the second traced the same way with the console sleeping where
 * the first reads; the third untraced.  Then the trace of the first is
 * analysed with libspam over the records the reader consumed. */
#include "cli/spamctl_bsd43.h"
#include "cli/spamctl_cmds.h"
#include "cli/spamctl_console.h"
#include "cli/spamctl_cpu.h"
#include "cli/spamctl_demo.h"
#include "cli/spamctl_out.h"
#include "cli/spamctl_io.h"
#include "cli/spamctl_pcap.h"
#include "cli/spamctl_progress.h"
#include "cli/spamctl_signal.h"
#include "cli/spamctl_spam.h"
#include "cli/spamctl_tartape.h"
#include "microcode/hostfile.h"
#include "spam/spam_cpu.h"
#include "spam/spam_decode.h"
#include "spam/spam_gnames.h"
#include "spam/spam_names.h"
#include "spam/spam_reader.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MEMORY_MB 8             /* install.py's MEMORY_MB */
#define BOOT_TODR "1637875456"  /* install.py's BOOT_TODR: June 8, 12:00 */
#define DZ_BR "4"
#define READER "/tmp/spamread"  /* where demo.script compiles it */
#define READER_LINE "send echo go-''bench > /dev/tty00; ./spamread 5\\r\n"
#define VEC_DEUNA 0x14C
#define VEC_NET 0xB0
#define NRUNS 3
#define MAX_PROGS 256

struct run {
    const struct demo_args *a;
    const char *name;
    int traced, reader;
    char dsk[PATH_MAX], tap[PATH_MAX], script[PATH_MAX], log[PATH_MAX], spam[PATH_MAX],
        pcap[PATH_MAX];
    char att_rp[PATH_MAX + 8], att_tu[PATH_MAX + 8], dz[8][PATH_MAX + 8];
    struct vax_machine *m; /* while it runs (its own thread's) */
    _Atomic uint64_t cycles, instructions;
    _Atomic int done;
    int failed, interrupted;
    struct vm_stats st;
    double job_s;
    int job_ok;
    char why[700];
};

struct prog_count {
    char name[96];
    uint64_t n;
};

/* What the trace says over the reader's records. */
struct window {
    uint64_t start, records, t_lo, t_hi, events;
    int found;
    uint64_t by_class[16];
    struct spam_hist incl, excl;
    uint64_t lin[DEMO_LIN_N + 1];
    struct prog_count progs[MAX_PROGS];
    size_t nprogs;
    struct spam_cpu *cpu;
};

/* The reader's own report on the console. */
struct reader_out {
    uint64_t bins[DEMO_LIN_N + 1];
    uint64_t records, samples, lost, mean;
    int have_end, have_mean;
};

/* A message into a buffer (cut short if it must be). */
static void msgf(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

static int fmt_path(char *buf, size_t len, const char *dir, const char *name, const char *ext)
{
    int n = snprintf(buf, len, "%s/%s%s", dir, name, ext);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

static void run_progress(void *ctx, uint64_t cycles, uint64_t max)
{
    struct run *r = ctx;
    (void)max;
    struct vm_stats st;
    vm_get_stats(r->m, &st);
    atomic_store(&r->cycles, cycles);
    atomic_store(&r->instructions, st.instructions);
}

/* One boot of a copy of the installed disk, in its own thread. */
static void *run_thread(void *arg)
{
    struct run *r = arg;
    const struct demo_args *a = r->a;
    struct vm_config cfg = {.memory_mb = MEMORY_MB, .dz_br = (unsigned)(DZ_BR[0] - '0')};
    char err[400];
    struct vax_machine *m = vm_new(&cfg, err, sizeof err);
    if (!m) {
        msgf(r->why, sizeof r->why, "%s", err);
        r->failed = 1;
        atomic_store(&r->done, 1);
        return NULL;
    }
    r->m = m;
    vm_console_input(m, "", 0); /* the console script types; never stdin */
    struct spamctl_io io;
    spamctl_io_init(&io);
    snprintf(r->att_rp, sizeof r->att_rp, "rp0=%s", r->dsk);
    snprintf(r->att_tu, sizeof r->att_tu, "tu0:ro=%s", r->tap);
    char rate[32], seed[32];
    snprintf(rate, sizeof rate, "%.17g", a->net_rate);
    snprintf(seed, sizeof seed, "%" PRIu64, a->seed);
    const char *opts[40];
    int n = 0;
#define OPT(k, v) (opts[n++] = (k), opts[n++] = (v))
    OPT("--attach", r->att_rp);
    OPT("--attach", r->att_tu);
    OPT("--boot", "rp0");
    OPT("--todr", BOOT_TODR);
    OPT("--expect-timeout", "120");
    OPT("--console-script", r->script);
    OPT("--dz-br", DZ_BR);
    snprintf(r->dz[0], sizeof r->dz[0], "0=%s/users/bench.script", bsd43_guest_dir());
    OPT("--dz-script", r->dz[0]);
    for (int l = 1; l <= a->users; l++) {
        snprintf(r->dz[l], sizeof r->dz[l], "%d=%s/users/shell.script", l, bsd43_guest_dir());
        OPT("--dz-script", r->dz[l]);
    }
    if (r->traced && r->reader)
        OPT("--pcap", r->pcap);
#undef OPT
    int bad = 0;
    for (int i = 0; i < n && !bad; i += 2)
        bad = spamctl_io_option(&io, opts[i], opts[i + 1]) < 0;
    struct spamctl_spam s;
    spamctl_spam_init(&s);
    s.cmd = "demo";
    s.trace = r->traced ? r->spam : NULL;
    s.tap = 1; /* the in-guest reader must not lose the records the host takes */
    bad = bad || spamctl_spam_option(&s, "--net-rate", rate) < 0 ||
          spamctl_spam_option(&s, "--seed", seed) < 0;
    io.net_rate = s.net_rate;
    io.net_seed = s.seed;
    io.seed = s.seed;
    s.progress = run_progress;
    s.progress_ctx = r;
    FILE *log = NULL;
    struct spamctl_console con;
    spamctl_console_init(&con);
    if (bad || spamctl_io_setup(&io, m) < 0) {
        msgf(r->why, sizeof r->why, "the machine could not be set up (above)");
        r->failed = 1;
    } else if (spamctl_spam_setup(&s, m) < 0 || !(log = fopen(r->log, "wb")) ||
               !spamctl_console_output(&con, log)) {
        msgf(r->why, sizeof r->why, "%s: %s", r->log, log ? strerror(errno) : "cannot start");
        spamctl_io_abort(&io);
        r->failed = 1;
    } else {
        vm_console_output(m, con.out); /* 7-bit: the parity bit stripped */
        int ran = spamctl_spam_run(&s, m, 0, "rp0", NULL);
        spamctl_console_end(&con);
        r->interrupted = ran > 0 ? ran : 0;
        if (spamctl_io_media_check(&io, m)) {
            snprintf(r->why, sizeof r->why, "a disk or tape image could not be written (above)");
            r->failed = 1;
        }
        if (spamctl_io_finish(&io, m) && !r->interrupted) {
            msgf(r->why, sizeof r->why, "a console or user script failed (above)");
            r->failed = 1;
        }
        if (ran < 0) {
            msgf(r->why, sizeof r->why, "the trace could not be written (above)");
            r->failed = 1;
        }
        struct vm_user_info ui;
        if (vm_dz_script_state(m, 0, &ui) != VM_SCRIPT_NONE && ui.nround_end == 1) {
            r->job_s = (double)(ui.round_end[0] - ui.loop_at) / 12.5e6;
            r->job_ok = 1;
        }
        vm_get_stats(m, &r->st);
    }
    if (log)
        fclose(log);
    vm_free(m);
    atomic_store(&r->done, 1);
    return NULL;
}

/* A text file without its CRs and NULs (a console log). */
static char *slurp_text(const char *path)
{
    size_t n;
    uint8_t *data;
    const char *why;
    char *b = hostfile_read(path, 64u << 20, 0, &data, &n, &why) == 0 ? (char *)data : NULL;
    if (b) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (b[i] != '\r' && b[i] != 0)
                b[k++] = b[i];
        b[k] = 0;
    }
    return b;
}

/* The console script: demo.script with the reader's line for N seconds,
 * or a sleep as long. */
static int write_script(const char *out, int reader, int seconds, char *err, size_t errlen)
{
    char src[PATH_MAX];
    snprintf(src, sizeof src, "%s/demo.script", bsd43_guest_dir());
    char *text = slurp_text(src);
    char *at = text ? strstr(text, READER_LINE) : NULL;
    if (!at) {
        msgf(err, errlen, "%s: %s", src, text ? "no reader line to replace" : strerror(errno));
        free(text);
        return -1;
    }
    FILE *f = fopen(out, "w");
    if (!f) {
        msgf(err, errlen, "%s: %s", out, strerror(errno));
        free(text);
        return -1;
    }
    fprintf(f, "%.*s", (int)(at - text), text);
    if (reader)
        fprintf(f, "send echo go-''bench > /dev/tty00; ./spamread %d\\r\n", seconds);
    else
        fprintf(f, "send echo go-''bench > /dev/tty00; sleep %d; echo spamread-''end\\r\n", seconds);
    fputs(at + strlen(READER_LINE), f);
    free(text);
    if (fclose(f) != 0) {
        msgf(err, errlen, "%s: %s", out, strerror(errno));
        return -1;
    }
    return 0;
}

static int parse_reader(const char *con, struct reader_out *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    for (const char *l = con; l && *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), l);
        char *p = line;
        while (*p == ' ')
            p++;
        unsigned long long r, s, lost, mean;
        unsigned ck;
        char tail;
        if (!strncmp(p, "spamread-bins ", 14)) {
            for (char *tok = strtok(p + 14, " "); tok; tok = strtok(NULL, " ")) {
                unsigned long long lo, cnt;
                if (sscanf(tok, "%llu:%llu%c", &lo, &cnt, &tail) != 2 || lo % DEMO_LIN_W ||
                    lo > DEMO_LIN_W * DEMO_LIN_N || !cnt) {
                    msgf(err, errlen, "the reader printed a bad bin: %s", tok);
                    return -1;
                }
                o->bins[lo / DEMO_LIN_W] += cnt;
            }
        } else if (sscanf(p, "spamread-end %llu %llu %8x %llu%c", &r, &s, &ck, &lost, &tail) == 4) {
            o->records = r;
            o->samples = s;
            o->lost = lost;
            o->have_end = 1;
        } else if (sscanf(p, "spamread: min %*u us, mean %llu us, max %*u us%c", &mean, &tail) == 1) {
            o->mean = mean;
            o->have_mean = 1;
        }
        l = e ? e + 1 : l + n;
    }
    if (!o->have_end) {
        msgf(err, errlen, "no spamread-end line on the traced run's console");
        return -1;
    }
    return 0;
}

static void count_prog(struct window *w, const char *name)
{
    for (size_t i = 0; i < w->nprogs; i++)
        if (!strcmp(w->progs[i].name, name)) {
            w->progs[i].n++;
            return;
        }
    if (w->nprogs < MAX_PROGS) {
        snprintf(w->progs[w->nprogs].name, sizeof w->progs[0].name, "%s", name);
        w->progs[w->nprogs++].n = 1;
    }
}

static void window_event(struct window *w, const struct spam_event *e, const struct spam_gnames *g,
                         int *oom)
{
    if (!w->events++)
        w->t_lo = e->t_us;
    w->t_hi = e->t_us;
    w->by_class[e->cls & 15]++;
    if (spam_cpu_event(w->cpu, e) != 0)
        *oom = 1;
    if (e->cls == SPAM_CLASS_REI && !(e->flags & SPAM_EVF_UNMATCHED) &&
        e->open_ev == SPAM_EVENT(SPAM_CLASS_INTERRUPT, VEC_NET)) {
        spam_hist_record(&w->incl, e->incl_us);
        spam_hist_record(&w->excl, e->excl_us);
        uint64_t b = e->incl_us / DEMO_LIN_W;
        w->lin[b < DEMO_LIN_N ? b : DEMO_LIN_N]++;
    } else if (e->cls == SPAM_CLASS_LDPCTX) {
        const char *path = e->flags & SPAM_EVF_CUTOFF ? NULL
                                                      : spam_gnames_path(g, e->major, e->minor, e->inode);
        char pid[32];
        snprintf(pid, sizeof pid, "pid %d", (int)e->pid);
        count_prog(w, path ? path : pid);
    }
}

/* The records the reader consumed: from the "tracing enabled" marker its
 * ENABLE wrote (the trace's second: the console writes the first at
 * power-on), as many as it read.  One decoder over the whole trace. */
static int analyse(const char *trace, uint64_t records, const struct spam_gnames *g, struct window *w,
                   char *err, size_t errlen)
{
    spam_hist_init(&w->incl);
    spam_hist_init(&w->excl);
    w->records = records;
    if (!(w->cpu = spam_cpu_new())) {
        msgf(err, errlen, "out of memory");
        return -1;
    }
    int fd = open(trace, O_RDONLY);
    struct spam_err e;
    struct spam_reader *rd = fd < 0 ? NULL : spam_reader_open_fd(fd, &e);
    if (!rd) {
        msgf(err, errlen, "%s: %s", trace, fd < 0 ? strerror(errno) : e.msg);
        if (fd >= 0)
            close(fd);
        return -1;
    }
    struct spam_decode_opts o = {0};
    struct spam_decoder *d = spam_decoder_new(spam_reader_header(rd), &o);
    const uint16_t enabled = SPAM_EVENT(SPAM_CLASS_MARKER, SPAM_MARKER_ENABLED);
    int markers = 0, rc = d ? 0 : -1, oom = 0, st;
    const struct spam_record *recs;
    size_t n;
    while (rc == 0 && (st = spam_reader_next(rd, &recs, &n)) != SPAM_READ_END) {
        if (st == SPAM_READ_DAMAGE) {
            msgf(err, errlen, "%s: %s", trace, spam_reader_err(rd)->msg);
            rc = -1;
            break;
        }
        for (size_t i = 0; i < n; i++) {
            struct spam_event ev;
            if (!spam_decode_step(d, recs[i], &ev))
                continue;
            if (!w->found && ev.cls == SPAM_CLASS_MARKER && ev.ev == enabled && ++markers == 2) {
                w->found = 1;
                w->start = ev.index;
            }
            if (w->found && ev.index >= w->start && ev.index < w->start + records)
                window_event(w, &ev, g, &oom);
        }
    }
    struct spam_event ev;
    if (rc == 0 && spam_decoder_finish(d, &ev) && w->found && ev.index < w->start + records)
        window_event(w, &ev, g, &oom);
    spam_cpu_finish(w->cpu);
    if (rc == 0 && !d)
        msgf(err, errlen, "out of memory");
    else if (rc == 0 && oom) {
        msgf(err, errlen, "out of memory");
        rc = -1;
    } else if (rc == 0 && !w->found) {
        msgf(err, errlen, "%s: no 'tracing enabled' marker from the reader", trace);
        rc = -1;
    } else if (rc == 0 && w->events < 2) {
        msgf(err, errlen, "%s: the reader's window holds no events", trace);
        rc = -1;
    }
    spam_decoder_free(d);
    spam_reader_close(rd);
    close(fd);
    return rc;
}

static double pct(double x, double y)
{
    return y ? 100.0 * x / y : 0.0;
}

/* CPU of the processes running a program. */
static uint64_t prog_cpu(const struct spam_cpu *c, const struct spam_gnames *g, const char *path,
                         int32_t *pid, int *npids)
{
    size_t n;
    const struct spam_cpu_proc *p = spam_cpu_procs(c, &n);
    uint64_t t = 0;
    *npids = 0;
    for (size_t i = 0; i < n; i++) {
        const char *pr = cpu_program(&p[i], g);
        if (pr && !strcmp(pr, path)) {
            t += p[i].user_us + p[i].sys_us;
            *pid = p[i].pid;
            ++*npids;
        }
    }
    return t;
}

static int by_count(const void *x, const void *y)
{
    const struct prog_count *a = x, *b = y;
    return a->n < b->n ? 1 : a->n > b->n ? -1 : strcmp(a->name, b->name);
}

struct report {
    const struct demo_args *a;
    struct run *runs;
    int nruns;
    double wall;
    struct window *w;
    struct reader_out *rd;
    uint64_t to_vax[IO_NET_KINDS], from_vax;
    const struct spam_gnames *g;
};

static int report(const struct report *R)
{
    const struct demo_args *a = R->a;
    const struct window *w = R->w;
    const struct reader_out *rd = R->rd;
    const struct run *t = &R->runs[0];
    FILE *f = a->out;
    int seconds = a->duration_set ? (int)a->duration : 5;
    uint64_t span = spam_cpu_span(w->cpu);
    int equal = !memcmp(rd->bins, w->lin, sizeof w->lin) && rd->samples == w->incl.count;
    uint64_t nrx = 0;
    for (int k = 0; k < IO_NET_KINDS; k++)
        nrx += R->to_vax[k];
    uint64_t dev = spam_cpu_vector(w->cpu, VEC_DEUNA / 4)->us, net = spam_cpu_vector(w->cpu, VEC_NET / 4)->us;
    uint64_t nnet = spam_cpu_vector(w->cpu, VEC_NET / 4)->count;
    int32_t rpid = -1, xpid = -1, spid = -1;
    int nr, nx, ns;
    uint64_t routed = prog_cpu(w->cpu, R->g, "/etc/routed", &rpid, &nr);
    uint64_t xnsr = prog_cpu(w->cpu, R->g, "/etc/XNSrouted", &xpid, &nx);
    prog_cpu(w->cpu, R->g, READER, &spid, &ns);
    uint64_t s_user = 0, s_sys = 0;
    size_t np;
    const struct spam_cpu_proc *procs = spam_cpu_procs(w->cpu, &np);
    for (size_t i = 0; i < np; i++)
        if (ns == 1 && procs[i].pid == spid) {
            s_user = procs[i].user_us;
            s_sys = procs[i].sys_us;
        }
    uint64_t hook = t->st.spam_hook_cycles, insn = t->st.spam_insn_cycles, total = t->st.microcycles;
    struct prog_count progs[MAX_PROGS];
    memcpy(progs, w->progs, w->nprogs * sizeof *progs);
    qsort(progs, w->nprogs, sizeof *progs, by_count);
    static const char *const kind[IO_NET_KINDS] = {"arp", "echo", "rip", "xns", "other"};
    if (f) {
        fprintf(f, "4.3BSD multi-user, network %g frames/s (seed %" PRIu64 "), routed and XNSrouted, "
                   "a benchmark user and %d shell user%s on DZ11 lines; the reader compiled by "
                   "4.3BSD's cc reads for %d s (%.1f s wall%s)\n",
                a->net_rate, a->seed, a->users, a->users == 1 ? "" : "s", seconds, R->wall,
                R->nruns > 1 ? ", three runs at once" : "");
        fprintf(f, "spamread consumed records %" PRIu64 "..%" PRIu64 " of the trace %s (%" PRIu64
                   ")\n\n", w->start, w->start + w->records - 1, a->trace, w->records);
        fprintf(f, "IPL 12 (SCB 0xB0, ipintr: the network's protocol code) service time, from the "
                   "trace:\n");
        demo_print_pct(f, "inclusive", &w->incl);
        demo_print_pct(f, "exclusive", &w->excl);
        demo_print_bars(f, w->lin);
        fprintf(f, "\n0.1 ms bins: trace (%" PRIu64 ") | reader (%" PRIu64 ", mean %" PRIu64
                   " us, lost %" PRIu64 ")\n", w->incl.count, rd->samples, rd->mean, rd->lost);
        for (int b = 0; b <= DEMO_LIN_N; b++) {
            if (!w->lin[b] && !rd->bins[b])
                continue;
            char label[32];
            if (b == DEMO_LIN_N)
                snprintf(label, sizeof label, ">= %.1f ms", b / 10.0);
            else
                snprintf(label, sizeof label, "%.1f-%.1f ms", b / 10.0, (b + 1) / 10.0);
            fprintf(f, "  %13s  %6" PRIu64 " | %6" PRIu64 "\n", label, w->lin[b], rd->bins[b]);
        }
        fprintf(f, equal ? "  the reader's histogram equals the trace's\n"
                         : "  THE READER'S HISTOGRAM DIFFERS FROM THE TRACE'S\n");
        fprintf(f, "\nevents per class (the reader's records, %.2f s):\n", (double)span / 1e6);
        for (unsigned c = 0; c < 16; c++)
            if (w->by_class[c])
                fprintf(f, "  %-10s %7" PRIu64 "\n", spam_class_name(c), w->by_class[c]);
        fprintf(f, "\ncontext switches per program (the reader's records):\n");
        for (size_t i = 0; i < w->nprogs && i < 12; i++)
            fprintf(f, "  %6" PRIu64 "  %s\n", progs[i].n, progs[i].name);
        fprintf(f, "\nwhere the time went (spam/spam_cpu.h; the reader's records):\n");
        cpu_print_text(f, w->cpu, R->g, "  ", 6, 8);
        fprintf(f, "\nthe network in the reader's window: %" PRIu64 " frames taken by de0 (", nrx);
        for (int k = 0; k < IO_NET_KINDS - 1; k++)
            fprintf(f, "%s%s %" PRIu64, k ? ", " : "", kind[k], R->to_vax[k]);
        fprintf(f, "), %" PRIu64 " sent; %" PRIu64 " IPL 12 events\n", R->from_vax, nnet);
        if (nrx) {
            fprintf(f, "  cost per frame taken:\n");
            fprintf(f, "    %-26s %8.1f us\n", "de0's interrupts (0x14C)", (double)dev / (double)nrx);
            fprintf(f, "    %-26s %8.1f us\n", "IPL 12 protocol code", (double)net / (double)nrx);
            fprintf(f, "    %-26s %8.1f us\n", "routed", (double)routed / (double)nrx);
            fprintf(f, "    %-26s %8.1f us\n", "XNSrouted", (double)xnsr / (double)nrx);
            fprintf(f, "    %-26s %8.1f us  (%.2f%% of the CPU)\n", "total network overhead",
                    (double)(dev + net + routed + xnsr) / (double)nrx,
                    pct((double)(dev + net + routed + xnsr), (double)span));
        }
        if (R->to_vax[IO_NET_XNS])
            fprintf(f, "  XNSrouted: %" PRIu64 " us of CPU for %" PRIu64 " XNS routing packets: %.0f us "
                       "a packet (the paper's next step); %.0f us per IPL 12 event\n",
                    xnsr, R->to_vax[IO_NET_XNS], (double)xnsr / (double)R->to_vax[IO_NET_XNS],
                    (double)xnsr / (double)(nnet ? nnet : 1));
        if (ns == 1)
            fprintf(f, "\nspamread (pid %d) CPU share: %.2f%% (user %.2f%%, kernel %.2f%%; the paper's "
                       "reader: about 5%%)\n", (int)spid, pct((double)(s_user + s_sys), (double)span),
                    pct((double)s_user, (double)span), pct((double)s_sys, (double)span));
        else
            fprintf(f, "\nspamread: %d processes ran %s in the window\n", ns, READER);
        fprintf(f, "perturbation:\n");
        fprintf(f, "  SPAM microcode: %" PRIu64 " of %" PRIu64 " microcycles (%.3f%%) in the trace "
                   "microroutine the traced flows ran instead of IRD (whole run, idle included; the "
                   "host's drain costs the VAX none); the reader's SPAM instructions %" PRIu64
                   " more (%.3f%%)\n",
                hook, total, pct((double)hook, (double)total), insn, pct((double)insn, (double)total));
        if (R->nruns == NRUNS && R->runs[1].job_ok && R->runs[2].job_ok && t->job_ok) {
            double jr = t->job_s, jd = R->runs[1].job_s, ju = R->runs[2].job_s;
            const struct vm_stats *u = &R->runs[2].st;
            fprintf(f, "  the benchmark user's job (tty00, started with the reader): %.3f s with "
                       "tracing off; %.3f s traced, drained by the host: %+.2f%%; %.3f s traced with "
                       "the reader reading: %+.2f%% (tracing off still costs each traced event its "
                       "hook's one microcycle: %.3f%% of that run)\n",
                    ju, jd, pct(jd - ju, ju), jr, pct(jr - ju, ju),
                    pct((double)u->spam_hook_cycles, (double)u->microcycles));
        }
        fprintf(f, "\nMore: spamctl hist --event int:0xB0 --skip %" PRIu64 " --records %" PRIu64 " %s\n",
                w->start, w->records, a->trace);
    }
    int rc = 0;
    if (a->svg && demo_write_svg(a->svg, &w->incl, w->lin) != 0)
        rc = -1;
    if (!a->json)
        return rc;
    json_t *d = json_object(), *cls = json_object(), *sw = json_array(), *rb = json_array(),
           *kinds = json_object();
    for (unsigned c = 0; cls && c < 16; c++)
        if (w->by_class[c])
            json_object_set_new(cls, spam_class_name(c), json_integer((json_int_t)w->by_class[c]));
    for (size_t i = 0; sw && i < w->nprogs; i++)
        json_array_append_new(sw, json_pack("{s:s, s:I}", "program", progs[i].name, "switches",
                                            (json_int_t)progs[i].n));
    for (int b = 0; rb && b <= DEMO_LIN_N; b++)
        json_array_append_new(rb, json_integer((json_int_t)rd->bins[b]));
    for (int k = 0; kinds && k < IO_NET_KINDS; k++)
        json_object_set_new(kinds, kind[k], json_integer((json_int_t)R->to_vax[k]));
    if (d) {
        json_object_set_new(d, "os", json_string("4.3bsd"));
        json_object_set_new(d, "seed", json_integer((json_int_t)a->seed));
        json_object_set_new(d, "net_rate", json_real(a->net_rate));
        json_object_set_new(d, "duration_s", json_integer(seconds));
        json_object_set_new(d, "users", json_integer(a->users));
        json_object_set_new(d, "trace", json_string(a->trace));
        json_object_set_new(d, "window", json_pack("{s:I, s:I, s:I, s:I}", "first_record",
                                                   (json_int_t)w->start, "records",
                                                   (json_int_t)w->records, "t_us",
                                                   (json_int_t)w->t_lo, "span_us", (json_int_t)span));
        json_object_set_new(d, "hist", demo_hist_json(&w->incl, &w->excl, w->lin));
        json_object_set_new(d, "reader", json_pack("{s:I, s:I, s:I, s:I, s:o, s:b}", "records",
                                                   (json_int_t)rd->records, "samples",
                                                   (json_int_t)rd->samples, "mean_us",
                                                   (json_int_t)rd->mean, "lost", (json_int_t)rd->lost,
                                                   "bins", rb, "equals_trace", equal));
        json_object_set_new(d, "classes", cls);
        json_object_set_new(d, "switches", sw);
        json_object_set_new(d, "cpu", cpu_json(w->cpu, R->g));
        json_t *nw = json_pack("{s:o, s:I, s:I, s:I, s:I, s:I, s:I}", "frames_to_vax", kinds,
                               "frames_from_vax", (json_int_t)R->from_vax, "ipl12_events",
                               (json_int_t)nnet, "de0_us", (json_int_t)dev, "ipl12_us",
                               (json_int_t)net, "routed_us", (json_int_t)routed, "xnsrouted_us",
                               (json_int_t)xnsr);
        if (nw && nrx)
            json_object_set_new(nw, "us_per_frame",
                                json_real((double)(dev + net + routed + xnsr) / (double)nrx));
        if (nw && R->to_vax[IO_NET_XNS])
            json_object_set_new(nw, "xnsrouted_us_per_xns_packet",
                                json_real((double)xnsr / (double)R->to_vax[IO_NET_XNS]));
        json_object_set_new(d, "network", nw);
        if (ns == 1)
            json_object_set_new(d, "reader_cpu",
                                json_pack("{s:i, s:I, s:I, s:f}", "pid", (int)spid, "user_us",
                                          (json_int_t)s_user, "kernel_us", (json_int_t)s_sys,
                                          "share_pct", pct((double)(s_user + s_sys), (double)span)));
        json_t *pt = json_pack("{s:I, s:I, s:I, s:f, s:f}", "microcycles", (json_int_t)total,
                               "spam_hook_cycles", (json_int_t)hook, "spam_insn_cycles",
                               (json_int_t)insn, "spam_hook_pct", pct((double)hook, (double)total),
                               "spam_insn_pct", pct((double)insn, (double)total));
        if (pt && R->nruns == NRUNS && R->runs[1].job_ok && R->runs[2].job_ok && t->job_ok)
            json_object_set_new(pt, "job_s", json_pack("{s:f, s:f, s:f}", "untraced", R->runs[2].job_s,
                                                       "traced", R->runs[1].job_s, "reader", t->job_s));
        json_object_set_new(d, "perturbation", pt);
        json_object_set_new(d, "wall_s", json_real(R->wall));
    } else {
        json_decref(cls);
        json_decref(sw);
        json_decref(rb);
        json_decref(kinds);
    }
    return demo_write_json(a, d) != 0 ? -1 : rc;
}

/* `spamctl names extract` on the disk (programs by inode, the vectors
 * with the DZ11 on BR4), its summary line kept off the report: what it
 * says goes to stderr only when it fails. */
static int extract_names(const char *disk, const char *out)
{
    char *argv[] = {(char *)"names", (char *)"extract", (char *)"--disk", (char *)disk,
                    (char *)"--dz-br", (char *)DZ_BR, (char *)"-o", (char *)out, NULL};
    FILE *said = tmpfile();
    int saved = said ? dup(STDERR_FILENO) : -1;
    fflush(stderr);
    if (saved >= 0)
        dup2(fileno(said), STDERR_FILENO);
    int rc = spamctl_cmd_names(8, argv);
    fflush(stderr);
    if (saved >= 0) {
        dup2(saved, STDERR_FILENO);
        close(saved);
    }
    if (said && rc != 0) {
        char buf[512];
        size_t n;
        rewind(said);
        while ((n = fread(buf, 1, sizeof buf, said)) > 0)
            fwrite(buf, 1, n, stderr);
    }
    if (said)
        fclose(said);
    return rc;
}

/* The runs' files in work, their scripts and tapes. */
static int prepare(struct run *r, const char *work, const char *disk, char *err, size_t errlen)
{
    const struct demo_args *a = r->a;
    int seconds = a->duration_set ? (int)a->duration : 5;
    if (fmt_path(r->dsk, sizeof r->dsk, work, r->name, ".dsk") ||
        fmt_path(r->tap, sizeof r->tap, work, r->name, ".tap") ||
        fmt_path(r->script, sizeof r->script, work, r->name, ".script") ||
        fmt_path(r->log, sizeof r->log, work, r->name, ".log") ||
        fmt_path(r->spam, sizeof r->spam, work, r->name, ".spam") ||
        fmt_path(r->pcap, sizeof r->pcap, work, r->name, ".pcap")) {
        msgf(err, errlen, "%s: the path is too long", work);
        return -1;
    }
    if (r->traced && r->reader)
        snprintf(r->spam, sizeof r->spam, "%s", a->trace);
    char src[2][PATH_MAX];
    snprintf(src[0], sizeof src[0], "%s/spamread/spamread.c", bsd43_guest_dir());
    snprintf(src[1], sizeof src[1], "%s/spamread/spamrd.s", bsd43_guest_dir());
    const char *files[2] = {src[0], src[1]};
    if (write_script(r->script, r->reader, seconds, err, errlen) < 0 ||
        tartape_write(r->tap, files, 2, err, errlen) < 0)
        return -1;
    if (bsd43_copy_disk("demo", disk, r->dsk) < 0) {
        msgf(err, errlen, "%s", "");
        return -1;
    }
    return 0;
}

int spamctl_demo_bsd43(const struct demo_args *a)
{
    char disk[PATH_MAX + 64];
    if (a->disk) {
        if (access(a->disk, R_OK) != 0) {
            fprintf(stderr, "spamctl demo: --disk %s: %s\n", a->disk, strerror(errno));
            return SPAMCTL_EXIT_BAD_INPUT;
        }
        snprintf(disk, sizeof disk, "%s", a->disk);
    } else {
        struct bsd43_dist d;
        int found = bsd43_find_dist("demo", a->dist, &d);
        if (found <= 0) {
            if (!found)
                fprintf(stderr, "spamctl demo: --os 4.3bsd: no 4.3BSD distribution in %s (%s); get it "
                                "from %s (or --os ours: the bundled guest)\n", d.dir, d.from,
                        BSD43_WHERE_TO_GET);
            return SPAMCTL_EXIT_BAD_INPUT;
        }
        if (bsd43_installed("demo", &d, disk, sizeof disk) != 0)
            return SPAMCTL_EXIT_BAD_INPUT;
    }
    char tmp[PATH_MAX] = "", work[PATH_MAX];
    if (a->work) {
        if (mkdir(a->work, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "spamctl demo: --work %s: %s\n", a->work, strerror(errno));
            return SPAMCTL_EXIT_BAD_INPUT;
        }
        snprintf(work, sizeof work, "%s", a->work);
    } else {
        if (out_mkdtemp("spamctl-demo", tmp, sizeof tmp) != 0) {
            fprintf(stderr, "spamctl demo: a working directory in %s: %s\n", out_tmpdir(),
                    strerror(errno));
            return SPAMCTL_EXIT_BAD_INPUT;
        }
        snprintf(work, sizeof work, "%s", tmp);
    }
    static const char *const names[NRUNS] = {"traced", "drain", "untraced"};
    struct run *runs = calloc(NRUNS, sizeof *runs);
    struct window *w = calloc(1, sizeof *w);
    struct reader_out *rd = calloc(1, sizeof *rd);
    int nruns = a->no_perturbation ? 1 : NRUNS, rc = SPAMCTL_EXIT_OK;
    char err[700] = "";
    if (!runs || !w || !rd) {
        fprintf(stderr, "spamctl demo: out of memory\n");
        rc = SPAMCTL_EXIT_BAD_INPUT;
    }
    for (int i = 0; rc == 0 && i < nruns; i++) {
        runs[i].a = a;
        runs[i].name = names[i];
        runs[i].traced = i < 2;
        runs[i].reader = i == 0;
        if (prepare(&runs[i], work, disk, err, sizeof err) < 0) {
            if (err[0])
                fprintf(stderr, "spamctl demo: %s\n", err);
            rc = SPAMCTL_EXIT_BAD_INPUT;
        }
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t th[NRUNS];
    int started = 0;
    if (rc == 0) {
        if (a->out) {
            fprintf(a->out, "spamctl demo: 4.3BSD, %d run%s on copies of %s (work in %s)\n", nruns,
                    nruns > 1 ? "s at once" : "", disk, work);
            fflush(a->out);
        }
        spamctl_signals_catch();
        for (; started < nruns; started++)
            if (pthread_create(&th[started], NULL, run_thread, &runs[started]) != 0) {
                fprintf(stderr, "spamctl demo: cannot start a run: %s\n", strerror(errno));
                rc = SPAMCTL_EXIT_BAD_INPUT;
                break;
            }
        /* a progress line while they run: each run's VAX seconds */
        int tty = isatty(STDERR_FILENO), shown = 0;
        for (;;) {
            int done = 1;
            for (int i = 0; i < started; i++)
                done &= atomic_load(&runs[i].done);
            if (done)
                break;
            struct timespec nap = {0, 250000000};
            nanosleep(&nap, NULL);
            if (!tty)
                continue;
            char line[200];
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            double wall = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9;
            uint64_t ins = 0;
            int k = snprintf(line, sizeof line, "  4.3BSD, emulated:");
            for (int i = 0; i < started && k > 0 && (size_t)k < sizeof line; i++) {
                ins += atomic_load(&runs[i].instructions);
                k += snprintf(line + k, sizeof line - (size_t)k, " %s %.1f s,", runs[i].name,
                              (double)atomic_load(&runs[i].cycles) * 80e-9);
            }
            if (k > 0 && (size_t)k < sizeof line)
                snprintf(line + k, sizeof line - (size_t)k, " %.1f M instructions/s",
                         wall > 0 ? (double)ins / wall / 1e6 : 0.0);
            fprintf(stderr, "\r%-78.78s", line);
            shown = 1;
        }
        if (shown)
            fprintf(stderr, "\r%78s\r", "");
        for (int i = 0; i < started; i++)
            pthread_join(th[i], NULL);
        spamctl_signals_restore();
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int sig = 0;
    for (int i = 0; i < started; i++) {
        if (runs[i].interrupted)
            sig = runs[i].interrupted;
        else if (runs[i].failed && rc == 0) {
            char *con = slurp_text(runs[i].log);
            const char *tail = con ? con + strlen(con) : "";
            for (int lines = 0; con && tail > con && lines < 13; tail--)
                lines += tail[-1] == '\n';
            fprintf(stderr, "spamctl demo: the %s run failed: %s\n--- its console, last lines "
                            "(%s) ---\n%s\n", runs[i].name, runs[i].why, runs[i].log, tail);
            free(con);
            rc = SPAMCTL_EXIT_BAD_INPUT;
        }
    }
    if (sig && rc == 0) {
        fprintf(stderr, "spamctl demo: interrupted (the traces are complete; the runs' files in %s)\n",
                work);
        rc = spamctl_signal_status(sig);
        tmp[0] = 0; /* keep them */
    }
    struct spam_gnames *g = NULL;
    struct report R = {a, runs, nruns, 0, w, rd, {0}, 0, NULL};
    R.wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    if (rc == 0) {
        char *con = slurp_text(runs[0].log), names[PATH_MAX];
        if (!con || parse_reader(con, rd, err, sizeof err) < 0) {
            fprintf(stderr, "spamctl demo: %s\n", con ? err : strerror(errno));
            rc = SPAMCTL_EXIT_BAD_INPUT;
        }
        free(con);
        /* the guest's names: programs by inode, vectors with the DZ11 on BR4 */
        if (rc == 0 && fmt_path(names, sizeof names, work, "names", "") == 0) {
            struct spam_err e;
            if (extract_names(runs[0].dsk, names) != 0 || !(g = spam_gnames_load(names, &e))) {
                fprintf(stderr, "spamctl demo: the guest's names could not be read from %s\n",
                        runs[0].dsk);
                rc = SPAMCTL_EXIT_BAD_INPUT;
            }
        }
        R.g = g;
        if (rc == 0 && analyse(a->trace, rd->records, g, w, err, sizeof err) < 0) {
            fprintf(stderr, "spamctl demo: %s\n", err);
            rc = SPAMCTL_EXIT_BAD_INPUT;
        }
        if (rc == 0 && spamctl_pcap_count(runs[0].pcap, w->t_lo, w->t_hi, R.to_vax, &R.from_vax, err,
                                          sizeof err) < 0) {
            fprintf(stderr, "spamctl demo: %s\n", err);
            rc = SPAMCTL_EXIT_BAD_INPUT;
        }
        if (rc == 0 && report(&R) < 0)
            rc = SPAMCTL_EXIT_BAD_INPUT;
    }
    if (tmp[0] && rc == 0)
        bsd43_remove_tree(tmp);
    else if (tmp[0])
        fprintf(stderr, "spamctl demo: the runs' files are in %s\n", tmp);
    spam_gnames_free(g);
    if (w)
        spam_cpu_free(w->cpu);
    free(w);
    free(rd);
    free(runs);
    return rc;
}
