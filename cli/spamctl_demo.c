/* spamctl demo: the paper's experiment.  On the original 4.3BSD when its
 * distribution is found (spamctl_demo_bsd43.c), else -- saying where to
 * get it -- on the bundled guest system (here; the runs in
 * spamctl_demo_run.c).  One option vocabulary for both; argument parsing
 * and printing only. */
#include "cli/spamctl_demo.h"
#include "cli/spamctl_bsd43.h"
#include "cli/spamctl_cmds.h"
#include "cli/spamctl_cpu.h"
#include "cli/spamctl_demo_run.h"
#include "cli/spamctl_hist_json.h"
#include "cli/spamctl_out.h"
#include "cli/spamctl_signal.h"
#include "cli/spamctl_svg.h"
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
"Usage: spamctl demo [--os 4.3bsd|ours] [OPTIONS]\n"
"\n"
"The paper's experiment (Melvin and Patt, MICRO-20, 1987): an operating\n"
"system runs on the emulated 8600 under network load, traced by SPAM, and\n"
"the service time of the IPL 12 network software interrupt (SCB 0xB0) comes\n"
"out as a histogram -- their Figure 4 -- with where the time went and what\n"
"tracing cost.\n"
"\n"
"  --os 4.3bsd  the original 4.3BSD, unmodified (the default when its\n"
"               distribution is found: --dist, $" BSD43_DIST_ENV ",\n"
"               ../shared/bsd43 beside the source tree).  The first use\n"
"               installs it, by its own programs, into a per-user cache\n"
"               (spamctl bsd43 --help).  Copies of the installed disk boot\n"
"               multi-user with the network at R frames/s, routed and\n"
"               XNSrouted, a benchmark user and shell users on DZ11 lines;\n"
"               4.3BSD's cc compiles the paper's reader, which reads the\n"
"               trace buffer with READ_BUFFER for --duration seconds.  Over\n"
"               the reader's records: the IPL 12 service time from the trace\n"
"               beside the reader's own histogram, events per class, context\n"
"               switches per program, where the time went, the network's cost\n"
"               per frame and XNSrouted's per XNS packet, the reader's CPU\n"
"               share, and the perturbation: SPAM's own microcycles and the\n"
"               benchmark job's time untraced, traced, and traced with the\n"
"               reader (three runs at once).  About 40 s of wall time on an\n"
"               idle two-core machine once installed, a minute or more when\n"
"               the cores are shared.\n"
"  --os ours    the bundled guest system (vax/guest: a 4.3BSD-shaped kernel,\n"
"               CPU-bound and system-call-heavy programs, a routing daemon,\n"
"               an in-guest reader): one traced boot of --duration seconds;\n"
"               the histogram, events per class, context switches and CPU\n"
"               per process, SPAM's own microcycles.  About a second.\n"
"Without the distribution, the demo says where to get it and runs ours.\n"
"\n"
"Options (both):\n"
"  -o FILE           the traced run's trace (default demo.spam)\n"
"  --json FILE       every figure printed, as JSON ('-': on stdout, instead of\n"
"                    the text); its \"hist\" member is what 'spamctl hist\n"
"                    --merge' adds up over many runs\n"
"  --svg FILE        the IPL 12 histogram drawn as the paper's Figure 4\n"
"  --seed N          the network's seed (arrivals and contents; default %d)\n"
"  --net-rate R      frames (packets) per second of VAX time (default %.0f)\n"
"  --duration S      4.3bsd: whole seconds the reader reads (default 5);\n"
"                    ours: VAX seconds until the guest shuts down (default %.0f)\n"
"4.3bsd only:\n"
"  --dist DIR        the distribution (installed into the cache on first use)\n"
"  --disk FILE       an installed RP06 disk to use instead of the cache's\n"
"  --users N         shell users on tty01.. (0-7; default 3)\n"
"  --no-perturbation only the traced run with the reader (no job times)\n"
"  --work DIR        keep the runs' files here: disks, consoles (7-bit),\n"
"                    traces, the capture (default: a temporary folder in\n"
"                    TMPDIR, else /tmp)\n"
"ours only:\n"
"  --image FILE      the guest kernel image (default: the built kernel.bin)\n"
"  --net-size MIN:MAX  packet sizes in bytes (default 64:1500)\n"
"\n"
"A sweep is a job array of demos, one seed each, merged afterwards:\n"
"  parallel spamctl demo --seed {} --json out-{}.json -o run-{}.spam ::: 1 2 3 4\n"
"  spamctl hist --merge out-*.json       (README.md: GNU parallel, Slurm)\n"
"A progress line shows on a terminal.  SIGINT/SIGTERM/SIGHUP stop the runs\n"
"cleanly (the traces completed).\n"
"Exit status: 0 success, 1 bad input (no distribution with --dist or\n"
"--os 4.3bsd, a guest that does not run) or a failed run, 2 usage error,\n"
"130/143/129 stopped by SIGINT/SIGTERM/SIGHUP.\n", DEF_SEED, DEF_RATE, DEF_SECONDS);
}

/* ---- what both demos print and write ---- */

void demo_print_pct(FILE *f, const char *name, const struct spam_hist *h)
{
    fprintf(f, "  %-9s n=%-5" PRIu64 " min %" PRIu64 "  mean %.0f  p50 %" PRIu64 "  p90 %" PRIu64
               "  p99 %" PRIu64 "  max %" PRIu64 " us\n",
            name, h->count, h->count ? h->min : 0, spam_hist_mean(h), spam_hist_percentile(h, 50),
            spam_hist_percentile(h, 90), spam_hist_percentile(h, 99), h->max);
}

void demo_print_bars(FILE *f, const uint64_t *lin)
{
    enum { NB = 20 }; /* 0.1 ms bins to 2 ms, then one */
    uint64_t bins[NB + 1] = {0};
    for (int i = 0; i <= DEMO_LIN_N; i++)
        bins[i < NB ? i : NB] += lin[i];
    uint64_t top = 1;
    for (int i = 0; i <= NB; i++)
        top = bins[i] > top ? bins[i] : top;
    for (int i = 0; i <= NB; i++) {
        char label[32];
        if (i < NB)
            snprintf(label, sizeof label, "%4d-%4d us", i * DEMO_LIN_W, i * DEMO_LIN_W + DEMO_LIN_W - 1);
        else
            snprintf(label, sizeof label, "  >= %4d us", NB * DEMO_LIN_W);
        int len = (int)(bins[i] * 50 / top);
        fprintf(f, "  %s %6" PRIu64 " ", label, bins[i]);
        for (int k = 0; k < len; k++)
            fputc('#', f);
        fputc('\n', f);
    }
}

json_t *demo_hist_json(const struct spam_hist *incl, const struct spam_hist *excl,
                       const uint64_t *lin)
{
    json_t *h = json_object(), *gs = json_array();
    json_t *g = hist_json_group("event", SPAM_EVENT(SPAM_CLASS_INTERRUPT, 0xB0),
                                "interrupt 0xB0 (software 12)", incl, excl, lin, DEMO_LIN_W,
                                DEMO_LIN_N);
    if (!h || !gs || !g) {
        json_decref(h);
        json_decref(gs);
        json_decref(g);
        return NULL;
    }
    json_array_append_new(gs, g);
    json_object_set_new(h, "unit", json_string("us"));
    json_object_set_new(h, "by", json_string("event"));
    json_object_set_new(h, "groups", gs);
    return h;
}

int demo_write_svg(const char *path, const struct spam_hist *incl, const uint64_t *lin)
{
    struct out_file so;
    if (out_open_stream(&so, "demo", path) != 0)
        return -1;
    struct svg_hist h = {"IPL 12 (SCB 0xB0, the network's protocol code)", incl, lin, DEMO_LIN_W,
                         DEMO_LIN_N};
    svg_write(so.f, &h, 1);
    return out_close(&so);
}

int demo_write_json(const struct demo_args *a, json_t *doc)
{
    if (!doc) {
        fprintf(stderr, "spamctl demo: out of memory\n");
        return -1;
    }
    struct out_file o;
    if (out_open_stream(&o, "demo", a->json) != 0) {
        json_decref(doc);
        return -1;
    }
    json_dumpf(doc, o.f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
    fputc('\n', o.f);
    json_decref(doc);
    return out_close(&o);
}

/* ---- the bundled guest ---- */

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
    if (phase == 2)
        fprintf(stderr, "\r%-60s\r", "  analysing the trace ...");
    else
        fprintf(stderr, "\r  the traced run: %.2f / %.2f s of VAX time ", (double)now / 12.5e6,
                p->seconds);
    fflush(stderr);
}

static double pct(uint64_t x, uint64_t y)
{
    return y ? 100.0 * (double)x / (double)y : 0.0;
}

static void print_report(FILE *f, const struct demo_opts *o, const struct demo_result *r, double wall)
{
    const struct demo_run_stats *t = &r->traced;
    fprintf(f, "guest: %.2f s of VAX time, %s%s, %" PRIu64 " instructions, %" PRIu64 " microcycles\n",
            (double)t->microcycles / 12.5e6, t->interrupted ? "stopped: " : "", t->reason,
            t->instructions, t->microcycles);
    fprintf(f, "network: %.0f packets/s (seed %" PRIu64 "): %" PRIu64 " arrived, %" PRIu64
               " delivered, %" PRIu64 " dropped by the device, %" PRIu64 " before the driver ran\n",
            o->net_rate, o->seed, r->net.arrivals, r->net.delivered, r->net.dropped, r->net.ignored);
    fprintf(f, "trace: %s, %" PRIu64 " records (%" PRIu64 " dropped), %.2f s\n\n", o->trace,
            r->records, r->dropped, (double)r->trace_us / 1e6);

    fprintf(f, "IPL 12 network protocol service time (software interrupt, SCB 0xB0):\n");
    demo_print_pct(f, "inclusive", &r->isr_incl);
    demo_print_pct(f, "exclusive", &r->isr_excl);
    fprintf(f, "  (inclusive: from the interrupt to its REI; exclusive leaves out the\n"
               "   nested device and clock interrupts)\n");
    demo_print_bars(f, r->isr_lin);

    fprintf(f, "\nevents per class:\n");
    for (unsigned c = 1; c < 16; c++)
        if (r->by_class[c])
            fprintf(f, "  %-10s %8" PRIu64 "\n", spam_class_name(c), r->by_class[c]);
    if (r->by_class[0])
        fprintf(f, "  %-10s %8" PRIu64 "\n", spam_class_name(0), r->by_class[0]);

    fprintf(f, "\nprocesses (context switches from LDPCTX and its extended record; CPU from the\n"
               "trace, spam/spam_cpu.h, beside the guest kernel's own count of clock ticks):\n");
    fprintf(f, "    pid    uid  command   dev  inode  switches  user ms  kernel ms  guest ticks (user)\n");
    for (int i = 0; i < r->nprocs; i++) {
        const struct demo_proc *p = &r->procs[i];
        fprintf(f, "  %5d  %5d  %-8s %2u/%-2u %5u  %8" PRIu64 "  %7.1f  %9.1f", p->pid, p->uid, p->cmd,
                p->major, p->minor, p->inode, p->switches, (double)p->user_us / 1000.0,
                (double)p->sys_us / 1000.0);
        if (p->ticks >= 0)
            fprintf(f, "  %6ld (%ld)", p->ticks, p->user);
        fputc('\n', f);
    }
    fprintf(f, "\nwhere the time went (%.3f s):\n", (double)spam_cpu_span(r->cpu) / 1e6);
    cpu_print_text(f, r->cpu, NULL, "  ", 6, 0);
    fprintf(f, "\nperturbation (counted by the machine): %" PRIu64 " of %" PRIu64 " microcycles "
               "(%.3f%%) in SPAM's trace microroutine,\nwhich the traced flows ran instead of IRD; "
               "%" PRIu64 " (%.3f%%) in the SPAM instructions of the\nin-guest reader; the host's "
               "drain costs the VAX nothing\n",
            t->spam_hook_cycles, t->microcycles, pct(t->spam_hook_cycles, t->microcycles),
            t->spam_insn_cycles, pct(t->spam_insn_cycles, t->microcycles));
    fprintf(f, "\nwall time %.1f s.  More: spamctl stat %s; spamctl hist --event int:0xB0 %s\n", wall,
            o->trace, o->trace);
}

static json_t *report_json(const struct demo_opts *o, const struct demo_result *r, double seconds,
                           double wall)
{
    const struct demo_run_stats *t = &r->traced;
    json_t *d = json_object(), *cls = json_object(), *ps = json_array();
    if (!d || !cls || !ps) {
        json_decref(d);
        json_decref(cls);
        json_decref(ps);
        return NULL;
    }
    json_object_set_new(d, "os", json_string("ours"));
    json_object_set_new(d, "seed", json_integer((json_int_t)o->seed));
    json_object_set_new(d, "net_rate", json_real(o->net_rate));
    json_object_set_new(d, "duration_s", json_real(seconds));
    json_object_set_new(d, "trace", json_string(o->trace));
    json_object_set_new(d, "records", json_integer((json_int_t)r->records));
    json_object_set_new(d, "dropped", json_integer((json_int_t)r->dropped));
    json_object_set_new(d, "trace_span_us", json_integer((json_int_t)r->trace_us));
    json_object_set_new(d, "stopped", json_string(t->reason));
    json_object_set_new(d, "machine",
                        json_pack("{s:I, s:I, s:I, s:I, s:f, s:f}", "microcycles",
                                  (json_int_t)t->microcycles, "instructions",
                                  (json_int_t)t->instructions, "spam_hook_cycles",
                                  (json_int_t)t->spam_hook_cycles, "spam_insn_cycles",
                                  (json_int_t)t->spam_insn_cycles, "spam_hook_pct",
                                  pct(t->spam_hook_cycles, t->microcycles), "spam_insn_pct",
                                  pct(t->spam_insn_cycles, t->microcycles)));
    json_object_set_new(d, "network",
                        json_pack("{s:I, s:I, s:I, s:I}", "arrived", (json_int_t)r->net.arrivals,
                                  "delivered", (json_int_t)r->net.delivered, "dropped",
                                  (json_int_t)r->net.dropped, "before_driver",
                                  (json_int_t)r->net.ignored));
    json_object_set_new(d, "hist", demo_hist_json(&r->isr_incl, &r->isr_excl, r->isr_lin));
    for (unsigned c = 0; c < 16; c++)
        if (r->by_class[c])
            json_object_set_new(cls, spam_class_name(c), json_integer((json_int_t)r->by_class[c]));
    json_object_set_new(d, "classes", cls);
    for (int i = 0; i < r->nprocs; i++) {
        const struct demo_proc *p = &r->procs[i];
        json_t *e = json_pack("{s:i, s:i, s:s, s:i, s:i, s:i, s:I, s:I, s:I}", "pid", p->pid, "uid",
                              p->uid, "command", p->cmd, "major", p->major, "minor", p->minor,
                              "inode", p->inode, "switches", (json_int_t)p->switches, "user_us",
                              (json_int_t)p->user_us, "kernel_us", (json_int_t)p->sys_us);
        if (e && p->ticks >= 0) {
            json_object_set_new(e, "guest_ticks", json_integer(p->ticks));
            json_object_set_new(e, "guest_user_ticks", json_integer(p->user));
            json_object_set_new(e, "guest_syscalls", json_integer(p->syscalls));
        }
        json_array_append_new(ps, e);
    }
    json_object_set_new(d, "processes", ps);
    json_object_set_new(d, "cpu", cpu_json(r->cpu, NULL));
    json_object_set_new(d, "wall_s", json_real(wall));
    return d;
}

static int demo_ours(const struct demo_args *a)
{
    double seconds = a->duration_set ? a->duration : DEF_SECONDS;
    struct demo_opts o = {.trace = a->trace, .seed = a->seed, .net_rate = a->net_rate,
                          .net_min = a->net_min, .net_max = a->net_max};
    char path[4200];
    o.image = demo_find_image(a->image, "spamctl", path, sizeof path);
    if (!o.image) {
        fprintf(stderr, "spamctl demo: cannot find the guest kernel image (kernel.bin); "
                        "build the project or give --image FILE\n");
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    o.ticks = (uint32_t)(seconds * 100.0 + 0.5);
    struct prog p = {isatty(STDERR_FILENO), seconds};
    o.progress = progress;
    o.progress_ctx = &p;
    struct demo_result *r = calloc(1, sizeof *r);
    if (!r) {
        fprintf(stderr, "spamctl demo: out of memory\n");
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    FILE *f = a->out;
    if (f) {
        fprintf(f, "spamctl demo: the bundled guest on the emulated VAX 8600 for %.2f s of VAX time,\n"
                   "network %.0f packets/s, seed %" PRIu64 ", tracing into %s\n",
                seconds, o.net_rate, o.seed, o.trace);
        fflush(f);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char err[512];
    spamctl_signals_catch();
    int rc = demo_run(&o, r, err, sizeof err);
    spamctl_signals_restore();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (p.tty)
        fprintf(stderr, "\r%-60s\r", "");
    if (rc < 0) {
        if (err[0])
            fprintf(stderr, "spamctl demo: %s\n", err);
        demo_result_free(r);
        free(r);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    if (f) {
        /* the guest's own view: the in-guest reader's summary lines */
        for (const char *l = r->console; l && *l;) {
            const char *e = strchr(l, '\n');
            size_t n = e ? (size_t)(e - l) : strlen(l);
            if (strncmp(l, "spamread: ", 10) == 0 && strstr(l, " us"))
                fprintf(f, "guest %.*s\n", (int)(n && l[n - 1] == '\r' ? n - 1 : n), l);
            l = e ? e + 1 : l + n;
        }
        print_report(f, &o, r, wall);
    }
    int out_rc = SPAMCTL_EXIT_OK;
    if (a->svg && demo_write_svg(a->svg, &r->isr_incl, r->isr_lin) != 0)
        out_rc = SPAMCTL_EXIT_BAD_INPUT;
    if (a->json && demo_write_json(a, report_json(&o, r, seconds, wall)) != 0)
        out_rc = SPAMCTL_EXIT_BAD_INPUT;
    int sig = r->traced.interrupted;
    int ok = r->traced.halted && strcmp(r->traced.reason, "HALT instruction") == 0;
    if (!ok && !sig)
        fprintf(stderr, "spamctl demo: the guest did not shut down cleanly: %s\n", r->traced.reason);
    demo_result_free(r);
    free(r);
    if (sig)
        return spamctl_signal_status(sig);
    return !ok ? SPAMCTL_EXIT_BAD_INPUT : out_rc;
}

/* ---- the command ---- */

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

int spamctl_cmd_demo(int argc, char **argv)
{
    struct demo_args a = {.trace = "demo.spam", .seed = DEF_SEED, .net_rate = DEF_RATE, .users = 3,
                          .out = stdout};
    const char *os = NULL, *only_bsd = NULL, *only_ours = NULL;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return SPAMCTL_EXIT_OK;
        }
        if (!strcmp(o, "--no-perturbation")) {
            a.no_perturbation = 1;
            only_bsd = o;
            continue;
        }
        static const char *const valued[] = {"--os", "-o", "--json", "--svg", "--seed", "--net-rate",
                                             "--duration", "--dist", "--disk", "--users", "--work",
                                             "--image", "--net-size", NULL};
        int known = 0;
        for (int k = 0; valued[k]; k++)
            known |= !strcmp(o, valued[k]);
        if (!known) {
            fprintf(stderr, "spamctl demo: unknown option '%s'\n", o);
            usage(stderr);
            return SPAMCTL_EXIT_USAGE;
        }
        if (!v) {
            fprintf(stderr, "spamctl demo: %s needs a value\n", o);
            return SPAMCTL_EXIT_USAGE;
        }
        i++;
        int bad = 0;
        char *end;
        errno = 0;
        if (!strcmp(o, "--os")) {
            if (strcmp(v, "4.3bsd") != 0 && strcmp(v, "ours") != 0) {
                fprintf(stderr, "spamctl demo: --os: '%s' is not a known system (4.3bsd, ours)\n", v);
                return SPAMCTL_EXIT_USAGE;
            }
            os = v;
        } else if (!strcmp(o, "-o")) {
            a.trace = v;
        } else if (!strcmp(o, "--json")) {
            a.json = v;
        } else if (!strcmp(o, "--svg")) {
            a.svg = v;
        } else if (!strcmp(o, "--seed")) {
            a.seed = strtoull(v, &end, 0);
            bad = !*v || *end || errno || *v == '-';
        } else if (!strcmp(o, "--net-rate")) {
            bad = parse_double(v, &a.net_rate) < 0 || a.net_rate > 1e6;
        } else if (!strcmp(o, "--duration")) {
            bad = parse_double(v, &a.duration) < 0 || a.duration < 0.5 || a.duration > 3600;
            a.duration_set = 1;
        } else if (!strcmp(o, "--dist") || !strcmp(o, "--disk") || !strcmp(o, "--work")) {
            *(!strcmp(o, "--dist") ? &a.dist : !strcmp(o, "--disk") ? &a.disk : &a.work) = v;
            only_bsd = o;
        } else if (!strcmp(o, "--users")) {
            bad = v[0] < '0' || v[0] > '7' || v[1];
            a.users = v[0] - '0';
            only_bsd = o;
        } else if (!strcmp(o, "--image")) {
            a.image = v;
            only_ours = o;
        } else {
            unsigned long lo = strtoul(v, &end, 0), hi = lo;
            if (*end == ':')
                hi = strtoul(end + 1, &end, 0);
            bad = *end || *v == '-' || lo < VM_NET_MIN_PACKET || hi > VM_NET_MAX_PACKET || lo > hi;
            a.net_min = (uint32_t)lo;
            a.net_max = (uint32_t)hi;
            only_ours = o;
        }
        if (bad) {
            fprintf(stderr, "spamctl demo: bad value for %s: '%s'\n", o, v);
            return SPAMCTL_EXIT_USAGE;
        }
    }
    if (only_bsd && only_ours) {
        fprintf(stderr, "spamctl demo: %s is for --os 4.3bsd, %s for --os ours\n", only_bsd, only_ours);
        return SPAMCTL_EXIT_USAGE;
    }
    if ((os && !strcmp(os, "ours") && only_bsd) || (os && !strcmp(os, "4.3bsd") && only_ours)) {
        fprintf(stderr, "spamctl demo: %s is for --os %s\n", only_bsd ? only_bsd : only_ours,
                only_bsd ? "4.3bsd" : "ours");
        return SPAMCTL_EXIT_USAGE;
    }
    /* outputs never overwrite an input or each other (spamctl_out.h) */
    struct hostfile_set *files = malloc(sizeof *files);
    if (!files) {
        fprintf(stderr, "spamctl demo: out of memory\n");
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    hostfile_set_init(files);
    hostfile_set_add(files, HOSTFILE_IN, "--image", a.image);
    hostfile_set_add(files, HOSTFILE_IN, "--disk", a.disk);
    hostfile_set_add(files, HOSTFILE_OUT, "-o", a.trace);
    hostfile_set_add(files, HOSTFILE_OUT, "--json", a.json);
    hostfile_set_add(files, HOSTFILE_OUT, "--svg", a.svg);
    int clash = out_check_files("demo", files);
    free(files);
    if (clash)
        return SPAMCTL_EXIT_USAGE;
    if (!strcmp(a.trace, "-")) {
        fprintf(stderr, "spamctl demo: -o needs a file (the trace is written as the machine runs)\n");
        return SPAMCTL_EXIT_USAGE;
    }
    if (a.json && !strcmp(a.json, "-"))
        a.out = NULL; /* the JSON is the output */
    if (!os && only_ours)
        os = "ours";
    if (!os && a.disk)
        os = "4.3bsd";
    if (!os) {
        struct bsd43_dist d;
        int found = bsd43_find_dist("demo", a.dist, &d);
        if (found < 0)
            return SPAMCTL_EXIT_BAD_INPUT;
        if (!found) {
            if (only_bsd) {
                fprintf(stderr, "spamctl demo: %s needs 4.3BSD, whose distribution is not in %s (%s); "
                                "get it from %s\n", only_bsd, d.dir, d.from, BSD43_WHERE_TO_GET);
                return SPAMCTL_EXIT_BAD_INPUT;
            }
            fprintf(stderr, "spamctl demo: the original 4.3BSD's distribution is not in %s (%s): "
                            "get it from %s, and put it there, give --dist DIR or set "
                            BSD43_DIST_ENV ".  Meanwhile, the bundled guest (--os ours):\n",
                    d.dir, d.from, BSD43_WHERE_TO_GET);
            os = "ours";
        } else {
            os = "4.3bsd";
        }
    }
    if (!strcmp(os, "ours"))
        return demo_ours(&a);
    if (a.duration_set && (a.duration != (double)(int)a.duration || a.duration < 1)) {
        fprintf(stderr, "spamctl demo: bad value for --duration: '%g' (4.3bsd: whole seconds)\n",
                a.duration);
        return SPAMCTL_EXIT_USAGE;
    }
    return spamctl_demo_bsd43(&a);
}
