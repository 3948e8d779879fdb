/* spamctl demo: boots the bundled guest system with SPAM tracing and a
 * network load, writes the trace, and prints the paper's experiment (the
 * IPL 12 network service-time histogram), the event counts, the context
 * switches per process and the tracing perturbation.  Argument parsing
 * and printing only; the work is in spamctl_demo_run.c and libspam. */
#include "cli/spamctl_cmds.h"
#include "cli/spamctl_demo_run.h"
#include "cli/spamctl_out.h"
#include "cli/spamctl_signal.h"
#include "spam/spam_names.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEF_SECONDS 5.0
#define DEF_SEED 1
#define DEF_RATE 200.0

static void usage(FILE *f)
{
    fprintf(f,
"Usage: spamctl demo [OPTIONS]\n"
"\n"
"Boots the bundled guest system (vax/guest: a 4.3BSD-shaped kernel, two\n"
"CPU-bound programs, a system-call-heavy one, the routing daemon, the\n"
"in-guest trace reader) on the emulated 8600 with SPAM tracing on and a\n"
"Poisson network load, drains the trace to a file, and prints: the\n"
"service-time histogram of the IPL 12 network software interrupt (SCB\n"
"0xB0) with percentiles, event counts per class, context switches per\n"
"process, and the tracing perturbation (the same guest and seed once more\n"
"with tracing off).\n"
"\n"
"Options:\n"
"  --duration SECONDS  VAX time until the guest shuts down (default %.0f)\n"
"  --seed N            seed of the network arrivals (default %d)\n"
"  --net-rate R        packets per second of VAX time (default %.0f; 0: none)\n"
"  --net-size MIN:MAX  packet sizes in bytes (default 64:1500)\n"
"  -o FILE             the trace file (default demo.spam)\n"
"  --image FILE        the guest kernel image (default: the built kernel.bin)\n"
"  --no-perturbation   skip the untraced comparison run\n"
"  -h, --help          this text\n"
"\n"
"Then: spamctl stat|decode|hist FILE.  SIGINT/SIGTERM stop the run in\n"
"progress cleanly: the trace is completed and the report covers it.\n"
"Exit status: 0 success, 1 bad input (a guest image that does not run to\n"
"its first clock tick) or a failed run, 2 usage error, 130/143 stopped by\n"
"SIGINT/SIGTERM.\n", DEF_SECONDS, DEF_SEED, DEF_RATE);
}

struct prog {
    int tty;
    double seconds;
};

static void progress(void *ctx, int phase, uint64_t now, uint64_t max)
{
    struct prog *p = ctx;
    (void)max;
    if (!p->tty)
        return;
    static const char *what[] = {"traced run", "untraced run", "analysing"};
    if (phase == 2)
        printf("\r%-60s\r", "  analysing the trace ...");
    else
        printf("\r  %s: %.2f / %.2f s of VAX time ", what[phase], (double)now / 12.5e6,
               p->seconds);
    fflush(stdout);
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || *end || errno || !(v >= 0.0))
        return -1;
    *out = v;
    return 0;
}

static void print_hist(const struct spam_hist *h)
{
    /* 100 us bins up to 2 ms, then one open bin */
    enum { NB = 20, W = 100 };
    uint64_t bins[NB + 1] = {0};
    for (size_t i = 0; i < SPAM_HIST_BUCKETS; i++) {
        if (!h->counts[i])
            continue;
        uint64_t v = spam_hist_bucket_lo(i) / W;
        bins[v < NB ? v : NB] += h->counts[i];
    }
    uint64_t top = 1;
    for (int i = 0; i <= NB; i++)
        if (bins[i] > top)
            top = bins[i];
    for (int i = 0; i <= NB; i++) {
        char label[32];
        if (i < NB)
            snprintf(label, sizeof label, "%4d-%4d us", i * W, i * W + W - 1);
        else
            snprintf(label, sizeof label, "  >= %4d us", NB * W);
        int len = (int)(bins[i] * 50 / top);
        printf("  %s %6" PRIu64 " ", label, bins[i]);
        for (int k = 0; k < len; k++)
            putchar('#');
        putchar('\n');
    }
}

static void print_pct(const char *name, const struct spam_hist *h)
{
    printf("  %-9s n=%-5" PRIu64 " min %" PRIu64 "  mean %.0f  p50 %" PRIu64 "  p90 %" PRIu64
           "  p99 %" PRIu64 "  max %" PRIu64 " us\n",
           name, h->count, h->count ? h->min : 0, spam_hist_mean(h),
           spam_hist_percentile(h, 50), spam_hist_percentile(h, 90),
           spam_hist_percentile(h, 99), h->max);
}

static void print_report(const struct demo_opts *o, const struct demo_result *r, double wall)
{
    printf("guest: %.2f s of VAX time, %s%s, %" PRIu64 " instructions, %" PRIu64 " microcycles\n",
           (double)r->traced.microcycles / 12.5e6, r->traced.interrupted ? "stopped: " : "",
           r->traced.reason, r->traced.instructions, r->traced.microcycles);
    printf("network: %.0f packets/s (seed %" PRIu64 "): %" PRIu64 " arrived, %" PRIu64
           " delivered, %" PRIu64 " dropped by the device, %" PRIu64 " before the driver ran\n",
           o->net_rate, o->seed, r->net.arrivals, r->net.delivered, r->net.dropped,
           r->net.ignored);
    printf("trace: %s, %" PRIu64 " records (%" PRIu64 " dropped), %.2f s\n\n", o->trace,
           r->records, r->dropped, (double)r->trace_us / 1e6);

    printf("IPL 12 network protocol service time (software interrupt, SCB 0xB0):\n");
    print_pct("inclusive", &r->isr_incl);
    print_pct("exclusive", &r->isr_excl);
    printf("  (inclusive: from the interrupt to its REI; exclusive leaves out the\n"
           "   nested device and clock interrupts)\n");
    print_hist(&r->isr_incl);

    printf("\nevents per class:\n");
    for (unsigned c = 1; c < 16; c++)
        if (r->by_class[c])
            printf("  %-10s %8" PRIu64 "\n", spam_class_name(c), r->by_class[c]);
    if (r->by_class[0])
        printf("  %-10s %8" PRIu64 "\n", spam_class_name(0), r->by_class[0]);

    printf("\ncontext switches by process (LDPCTX and its extended record):\n");
    printf("    pid    uid  command   dev  inode  switches  cpu (ms)\n");
    for (int i = 0; i < r->nprocs; i++) {
        const struct demo_proc *p = &r->procs[i];
        printf("  %5d  %5d  %-8s %2u/%-2u %5u  %8" PRIu64 "  %8.1f\n", p->pid, p->uid, p->cmd,
               p->major, p->minor, p->inode, p->switches, (double)p->cpu_us / 1000.0);
    }

    if (r->have_untraced) {
        const struct demo_run_stats *t = &r->traced, *u = &r->untraced;
        printf("\ntracing perturbation (the same guest and seed once more with tracing\n"
               "off, to the same shutdown tick; work each process got done):\n");
        printf("    pid  command   user ticks (traced/untraced)   system calls (traced/untraced)\n");
        for (int i = 0; i < r->nprocs; i++) {
            const struct demo_proc *p = &r->procs[i];
            if (p->user[0] < 0 || p->user[1] < 0)
                continue;
            double d = p->syscalls[1] > 0
                           ? 100.0 * (double)(p->syscalls[0] - p->syscalls[1]) / (double)p->syscalls[1]
                           : 0.0;
            printf("  %5d  %-8s  %6ld / %-6ld                 %7ld / %-7ld (%+.1f %%)\n", p->pid,
                   p->cmd, p->user[0], p->user[1], p->syscalls[0], p->syscalls[1], d);
        }
        printf("  machine: %" PRIu64 " / %" PRIu64 " instructions, %" PRIu64 " / %" PRIu64
               " microcycles\n  (instruction totals are not comparable: without records the\n"
               "  in-guest reader spins on an empty buffer)\n",
               t->instructions, u->instructions, t->microcycles, u->microcycles);
    }
    printf("\nwall time %.1f s.  More: spamctl stat %s; spamctl hist --event int:0xB0 %s\n",
           wall, o->trace, o->trace);
}

int spamctl_cmd_demo(int argc, char **argv)
{
    double seconds = DEF_SECONDS;
    struct demo_opts o = {.trace = "demo.spam", .seed = DEF_SEED, .net_rate = DEF_RATE,
                          .untraced = 1};
    const char *image = NULL;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--os") == 0)
            return spamctl_demo_bsd43(argc, argv); /* the original 4.3BSD */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return SPAMCTL_EXIT_OK;
        }
        if (strcmp(a, "--no-perturbation") == 0) {
            o.untraced = 0;
            continue;
        }
        int known = strcmp(a, "--duration") == 0 || strcmp(a, "--seed") == 0 ||
                    strcmp(a, "--net-rate") == 0 || strcmp(a, "--net-size") == 0 ||
                    strcmp(a, "-o") == 0 || strcmp(a, "--image") == 0;
        if (!known) {
            fprintf(stderr, "spamctl demo: unknown option '%s'\n", a);
            usage(stderr);
            return SPAMCTL_EXIT_USAGE;
        }
        if (!v) {
            fprintf(stderr, "spamctl demo: %s needs a value\n", a);
            return SPAMCTL_EXIT_USAGE;
        }
        i++;
        int bad = 0;
        if (strcmp(a, "--duration") == 0) {
            bad = parse_double(v, &seconds) < 0 || seconds < 0.5 || seconds > 3600;
        } else if (strcmp(a, "--seed") == 0) {
            char *end;
            errno = 0;
            o.seed = strtoull(v, &end, 0);
            bad = !*v || *end || errno || *v == '-';
        } else if (strcmp(a, "--net-rate") == 0) {
            bad = parse_double(v, &o.net_rate) < 0 || o.net_rate > 1e6;
        } else if (strcmp(a, "--net-size") == 0) {
            char *end;
            unsigned long lo = strtoul(v, &end, 0), hi = lo;
            if (*end == ':')
                hi = strtoul(end + 1, &end, 0);
            bad = *end || *v == '-' || lo < VM_NET_MIN_PACKET || hi > VM_NET_MAX_PACKET ||
                  lo > hi;
            o.net_min = (uint32_t)lo;
            o.net_max = (uint32_t)hi;
        } else if (strcmp(a, "-o") == 0) {
            o.trace = v;
        } else {
            image = v;
        }
        if (bad) {
            fprintf(stderr, "spamctl demo: bad value for %s: '%s'\n", a, v);
            return SPAMCTL_EXIT_USAGE;
        }
    }
    struct hostfile_set *files = malloc(sizeof *files); /* spamctl_out.h */
    if (!files)
        return SPAMCTL_EXIT_BAD_INPUT;
    hostfile_set_init(files);
    hostfile_set_add(files, HOSTFILE_IN, "--image", image);
    hostfile_set_add(files, HOSTFILE_OUT, "-o", o.trace);
    int clash = out_check_files("demo", files);
    free(files);
    if (clash)
        return SPAMCTL_EXIT_USAGE;
    char path[4200];
    o.image = demo_find_image(image, argv[0], path, sizeof path);
    if (!o.image) {
        fprintf(stderr, "spamctl demo: cannot find the guest kernel image (kernel.bin); "
                        "build the project or give --image FILE\n");
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    o.ticks = (uint32_t)(seconds * 100.0 + 0.5);
    struct prog p = {isatty(STDOUT_FILENO), seconds};
    o.progress = progress;
    o.progress_ctx = &p;
    struct demo_result *r = malloc(sizeof *r);
    if (!r) {
        fprintf(stderr, "spamctl demo: out of memory\n");
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    printf("spamctl demo: the bundled guest on the emulated VAX 8600 for %.2f s of VAX time,\n"
           "network %.0f packets/s, seed %" PRIu64 ", tracing into %s\n",
           seconds, o.net_rate, o.seed, o.trace);
    fflush(stdout);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char err[512];
    spamctl_signals_catch();
    int rc = demo_run(&o, r, err, sizeof err);
    spamctl_signals_restore();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (p.tty)
        printf("\r%-60s\r", "");
    if (rc < 0) {
        if (err[0])
            fprintf(stderr, "spamctl demo: %s\n", err);
        demo_result_free(r);
        free(r);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    /* the guest's own view: the in-guest reader's summary lines */
    for (const char *l = r->console; l && *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        if (strncmp(l, "spamread: ", 10) == 0 && strstr(l, " us"))
            printf("guest %.*s\n", (int)(n && l[n - 1] == '\r' ? n - 1 : n), l);
        l = e ? e + 1 : l + n;
    }
    print_report(&o, r, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    int sig = r->traced.interrupted ? r->traced.interrupted : r->untraced.interrupted;
    int ok = r->traced.halted && strcmp(r->traced.reason, "HALT instruction") == 0;
    if (!ok && !sig)
        fprintf(stderr, "spamctl demo: the guest did not shut down cleanly: %s\n",
                r->traced.reason);
    demo_result_free(r);
    free(r);
    if (sig)
        return spamctl_signal_status(sig);
    return ok ? SPAMCTL_EXIT_OK : SPAMCTL_EXIT_BAD_INPUT;
}
