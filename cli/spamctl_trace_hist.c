/* spamctl hist: service-time histograms, syscall latency, CPU per process. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/spamctl_cmds.h"
#include "cli/spamctl_out.h"
#include "cli/spamctl_trace.h"
#include "spam/spam_gnames.h"
#include "spam/spam_hist.h"
#include "spam/spam_names.h"

static void usage(FILE *f)
{
    fprintf(f,
"Usage: spamctl hist [OPTIONS] TRACE\n"
"\n"
"Service time of each event (from its record to the REI that returns from\n"
"it), per event (class and vector, or CHM code), per IPL or per class, both\n"
"inclusive and exclusive of nested traced events (exclusive time leaves out\n"
"the events that interrupted it and the time its process was switched out,\n"
"the Multics metering rule).  Percentiles come from a log-linear (HDR-style)\n"
"histogram: exact below 256 us, within 0.8 %% above; count, min, max and\n"
"mean are exact.  Needs a trace taken with REI tracing on.\n"
"\n"
"What:\n"
"  (default)      Service time per event.\n"
"  --by KEY       Group by event (default), ipl or class.\n"
"  --event C[:D]  Only this event, e.g. int:0xB0, chm:4, ldpctx; also draws\n"
"                 its distribution.\n"
"  --syscalls     System-call latency per CHMK code (inclusive = latency).\n"
"  --cpu          CPU time per process, from context switch to context switch.\n"
"\n"
"Output:\n"
"  (default)      Tables (us) and, for a single group, log2 bars.\n"
"  --bars         Bars for every group.\n"
"  --csv          CSV: group,kind,count,min,mean,p50,p90,p99,p99_9,max.\n"
"  --json         One JSON object (not with --csv).\n"
"  --svg FILE     Also write an SVG plot of the distributions (log2 bins; with\n"
"                 --linear W:N the linear bins, percent of events, as the\n"
"                 paper's Figure 4: --event int:0xB0 --linear 100:50).\n"
"  --linear W:N   Instead of the tables: each group's inclusive times in N\n"
"                 bins W us wide and an open last bin, one line a bin,\n"
"                 'bin LO COUNT' (all N+1 bins), after a line\n"
"                 '# GROUP: count C'.  What spamread in the bundled guest\n"
"                 prints (vax/guest/README.md) with 100:50.\n"
"\n"
"Decoding:\n"
"  --correct, --gap-us N   As for 'spamctl decode'.\n"
"  --records N    Only the first N records of the trace (extended records\n"
"                 count), e.g. the ones an in-guest reader consumed.\n"
"  --skip N       Decode from record N on (0-based; the first N records,\n"
"                 extended records included, are not read into the\n"
"                 decoder, which starts there as on a new trace): where an\n"
"                 in-guest reader began consuming.  --records counts after it.\n"
TRACE_PARTIAL_USAGE
TRACE_NAMES_USAGE
"                 (groups named \"chmk 3 (read)\", \"interrupt 0xC0\n"
"                 (Xhardclock)\"; --cpu: each process's program)\n"
"  -h, --help     This text.\n"
"\n"
"Exit status: 0 success, 1 bad or damaged input, 2 usage error.\n");
}

enum by { BY_EVENT, BY_IPL, BY_CLASS };
enum fmt { TEXT, CSV, JSON };

struct group {
    struct spam_hist incl, excl;
    uint64_t *lin; /* --linear: lin_n + 1 bins of inclusive time */
};

#define GROUPS_PER_BLOCK 16u

struct hist_acc {
    enum by by;
    int syscalls, cls, detail;
    uint8_t want[65536]; /* by event id of the opening event */
    struct group *g[65536];
    uint64_t cpu[65537], switches[65537];
    uint32_t prog[65537]; /* per pid + 1: major << 24 | minor << 16 | inode, +1 (0 none) */
    const struct spam_gnames *names;
    uint64_t last_switch;
    int32_t last_pid;
    int seen_switch, oom;
    uint64_t lin_w, lin_n;
    uint32_t nkeys, keys[65536]; /* the groups made, in order of creation */
    /* groups are carved from blocks of GROUPS_PER_BLOCK, each large enough
     * to be mapped fresh: the pages of buckets never used stay untouched */
    struct group *blocks[65536 / GROUPS_PER_BLOCK + 1];
    uint32_t nblocks, block_left;
};

static uint32_t key_of(const struct hist_acc *a, const struct spam_event *e)
{
    switch (a->by) {
    case BY_IPL:
        return spam_psl_ipl(e->open_psl);
    case BY_CLASS:
        return e->open_ev >> 12;
    default:
        return e->open_ev;
    }
}

static const char *key_name(const struct hist_acc *a, uint32_t k, char *buf, size_t len)
{
    if (a->by == BY_IPL)
        snprintf(buf, len, "ipl 0x%02X", k);
    else if (a->by == BY_CLASS)
        snprintf(buf, len, "%s", spam_class_name(k));
    else
        spam_event_describe_g((uint16_t)k, a->names, buf, len);
    return buf;
}

static int wanted(const struct hist_acc *a, uint16_t ev)
{
    unsigned cls = ev >> 12;
    if (a->syscalls && (cls != SPAM_CLASS_CHM || spam_chm_mode(ev) != 0))
        return 0;
    if (a->cls >= 0 && (int)cls != a->cls)
        return 0;
    if (a->detail >= 0) {
        int det = (int)spam_event_select_detail(ev);
        if (det != a->detail)
            return 0;
    }
    return 1;
}

static __attribute__((noinline)) void account_switch(struct hist_acc *a, const struct spam_event *e)
{
    uint64_t t = e->t_us;
    int32_t pid = e->pid;
    if (!(e->flags & SPAM_EVF_CUTOFF))
        a->prog[pid + 1] = ((uint32_t)e->major << 24 | (uint32_t)e->minor << 16 | e->inode) + 1;
    if (a->seen_switch) {
        a->cpu[a->last_pid + 1] += t - a->last_switch;
        a->switches[a->last_pid + 1]++;
    }
    a->seen_switch = 1;
    a->last_switch = t;
    a->last_pid = pid;
}

static __attribute__((noinline)) struct group *new_group(struct hist_acc *a, uint32_t k)
{
    /* not spam_hist_init(): the block is fresh zeroed memory, and only the
     * pages of buckets used are ever touched */
    if (!a->block_left) {
        if (a->nblocks == sizeof a->blocks / sizeof *a->blocks ||
            !(a->blocks[a->nblocks] = calloc(GROUPS_PER_BLOCK, sizeof(struct group))))
            return NULL;
        a->nblocks++;
        a->block_left = GROUPS_PER_BLOCK;
    }
    struct group *g = a->g[k] = &a->blocks[a->nblocks - 1][GROUPS_PER_BLOCK - a->block_left--];
    g->incl.min = g->excl.min = UINT64_MAX;
    a->keys[a->nkeys++] = k;
    g->lin = NULL;
    if (a->lin_w && !(g->lin = calloc(a->lin_n + 1, sizeof *g->lin)))
        g = a->g[k] = NULL;
    return g;
}

/* Inlined into the loop so the event stays in registers. */
static inline __attribute__((always_inline)) int account_by(struct hist_acc *a, const struct spam_event *e,
                                                             const enum by by)
{
    if (e->cls != SPAM_CLASS_REI) {
        if (__builtin_expect(e->cls == SPAM_CLASS_LDPCTX, 0))
            account_switch(a, e);
        return 0;
    }
    if ((e->flags & SPAM_EVF_UNMATCHED) || !a->want[e->open_ev])
        return 0;
    uint32_t k = by == BY_EVENT ? e->open_ev : key_of(a, e);
    struct group *g = a->g[k];
    if (__builtin_expect(!g, 0) && !(g = new_group(a, k)))
        return -1;
    spam_hist_record(&g->incl, e->incl_us);
    spam_hist_record(&g->excl, e->excl_us);
    if (a->lin_w) {
        uint64_t b = e->incl_us / a->lin_w;
        g->lin[b < a->lin_n ? b : a->lin_n]++;
    }
    return 0;
}

static inline __attribute__((always_inline)) int account(struct hist_acc *a, const struct spam_event *e)
{
    return account_by(a, e, a->by);
}

static inline void hist_fn(void *ctx, const struct spam_event *e)
{
    struct hist_acc *a = ctx;
    if (__builtin_expect(account(a, e) != 0, 0))
        a->oom = 1;
}

/* The default grouping, by event, with the key known at compile time. */
static inline void hist_fn_event(void *ctx, const struct spam_event *e)
{
    struct hist_acc *a = ctx;
    if (__builtin_expect(account_by(a, e, BY_EVENT) != 0, 0))
        a->oom = 1;
}

static const double pct[] = {50, 90, 99, 99.9};

static void row_text(const char *name, const char *kind, const struct spam_hist *h)
{
    printf("%-34s %-9s %9" PRIu64 " %8" PRIu64 " %10.1f", name, kind, h->count, h->min, spam_hist_mean(h));
    for (unsigned i = 0; i < 4; i++)
        printf(" %8" PRIu64, spam_hist_percentile(h, pct[i]));
    printf(" %8" PRIu64 "\n", h->max);
}

static void bars(const struct spam_hist *h)
{
    uint64_t b[64] = {0}, top = 0;
    int lo = 64, hi = -1;
    for (size_t i = 0; i < SPAM_HIST_BUCKETS; i++)
        if (h->counts[i]) {
            uint64_t v = spam_hist_bucket_lo(i);
            int k = v ? 64 - __builtin_clzll(v) : 0;
            b[k] += h->counts[i];
            lo = k < lo ? k : lo;
            hi = k > hi ? k : hi;
        }
    for (int k = lo; k <= hi; k++)
        top = b[k] > top ? b[k] : top;
    printf("  %21s : %-9s distribution\n", "us", "count");
    for (int k = lo; k <= hi; k++) {
        uint64_t from = k ? 1ull << (k - 1) : 0, to = k ? (1ull << k) - 1 : 0;
        int w = top ? (int)(40 * b[k] / top) : 0;
        printf("  %10" PRIu64 " -> %-8" PRIu64 " : %-9" PRIu64 " |%-40.*s|\n", from, to, b[k], w,
               "****************************************");
    }
}

/* With --linear W:N, as the paper's Figure 4 draws IPL 12's service
 * times: per group, the share of its events (y, percent) in each W us bin
 * of inclusive service time (x, microseconds), the last bin open. */
static void write_svg_linear(FILE *f, const struct hist_acc *a, const uint32_t *keys, size_t nk)
{
    const int W = 760, rowh = 260, x0 = 60, plotw = 660, ploth = 180;
    size_t n = nk > 12 ? 12 : nk;
    uint64_t nb = a->lin_n + 1;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n", W, n * rowh + 10);
    for (size_t r = 0; r < n; r++) {
        const struct group *g = a->g[keys[r]];
        uint64_t total = g->incl.count ? g->incl.count : 1, top = 1;
        for (uint64_t b = 0; b < nb; b++)
            top = g->lin[b] > top ? g->lin[b] : top;
        /* the tallest bar leaves room above it for its count: the axis
         * reaches 20 px higher, ymax percent */
        const int barh = ploth - 20;
        double ymax = 100.0 * (double)top / (double)total * ploth / barh;
        char nm[160];
        int y0 = (int)(r * rowh) + 20, base = y0 + 20 + ploth;
        fputs("<text x=\"10\" y=\"", f);
        fprintf(f, "%d\">", y0);
        for (const char *c = key_name(a, keys[r], nm, sizeof nm); *c; c++)
            fputs(*c == '<' ? "&lt;" : *c == '>' ? "&gt;" : *c == '&' ? "&amp;" : (char[2]){*c, 0}, f);
        fprintf(f, ": inclusive service time, %" PRIu64 " events, bins of %" PRIu64 " us, p50 %" PRIu64
                   " us, p99 %" PRIu64 " us</text>\n",
                g->incl.count, a->lin_w, spam_hist_percentile(&g->incl, 50), spam_hist_percentile(&g->incl, 99));
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", x0, base, x0 + plotw, base);
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", x0, base, x0,
                base - ploth);
        /* the y axis: ticks and light grid lines at a round step (1, 2 or 5
         * times a power of ten) that gives at most six of them */
        double step = 1e-3;
        for (double p10 = 1e-3; ymax / step > 6; p10 *= 10)
            for (int m = 1; m <= 5 && (step = m * p10, ymax / step > 6); m += m == 1 ? 1 : 3)
                ;
        for (double t = step; t <= ymax * 1.0001; t += step) {
            int y = base - (int)((double)ploth * t / ymax + 0.5);
            fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#dddddd\"/>\n"
                       "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%g%%</text>\n",
                    x0, y, x0 + plotw, y, x0 - 4, y + 4, t);
        }
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n", x0 - 4, base + 4);
        double bw = (double)plotw / (double)nb;
        uint64_t every = nb > 10 ? (nb + 9) / 10 : 1;
        for (uint64_t b = 0; b < nb; b++) {
            int h = (int)((double)barh * (double)g->lin[b] / (double)top + 0.5);
            double bx = x0 + b * bw, cx = bx + bw / 2;
            fprintf(f, "<rect class=\"bin\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#4a7ab5\">"
                       "<title>%" PRIu64 " us: %" PRIu64 "</title></rect>\n",
                    bx, base - h, bw > 2 ? bw - 1 : bw, h, b * a->lin_w, g->lin[b]);
            /* each bar's count above it (upright when it fits, else turned) */
            if (g->lin[b] && bw >= 16)
                fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" text-anchor=\"middle\">%" PRIu64 "</text>\n",
                        cx, base - h - 3, g->lin[b]);
            else if (g->lin[b] && bw >= 7)
                fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" transform=\"rotate(-90 %.1f %d)\">%"
                           PRIu64 "</text>\n", cx + 3, base - h - 3, cx + 3, base - h - 3, g->lin[b]);
            /* bin labels: every `every`th bin and the open last one, never two
             * that would run into each other */
            if ((b % every == 0 && (b + every / 2 < nb - 1 || every == 1)) || b == nb - 1)
                fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s%" PRIu64 "</text>\n",
                        cx, base + 14, b == nb - 1 ? "&#8805;" : "", b * a->lin_w);
        }
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">service time (us)</text>\n", x0 + plotw / 2,
                base + 30);
        fprintf(f, "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">"
                   "%% of events</text>\n", base - ploth / 2, base - ploth / 2);
    }
    fprintf(f, "</svg>\n");
}

static void write_svg(FILE *f, const struct hist_acc *a, const uint32_t *keys, size_t nk)
{
    if (a->lin_w) {
        write_svg_linear(f, a, keys, nk);
        return;
    }
    const int W = 720, rowh = 180;
    size_t n = nk > 12 ? 12 : nk;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n", W, n * rowh + 20);
    for (size_t r = 0; r < n; r++) {
        const struct spam_hist *h = &a->g[keys[r]]->incl;
        uint64_t b[64] = {0}, top = 1;
        for (size_t i = 0; i < SPAM_HIST_BUCKETS; i++)
            if (h->counts[i]) {
                uint64_t v = spam_hist_bucket_lo(i);
                b[v ? 64 - __builtin_clzll(v) : 0] += h->counts[i];
            }
        for (int k = 0; k < 40; k++)
            top = b[k] > top ? b[k] : top;
        char nm[160];
        int y0 = (int)(r * rowh) + 20;
        fprintf(f, "<text x=\"10\" y=\"%d\">%s: inclusive service time (us), n=%" PRIu64 ", p50=%" PRIu64
                   " p99=%" PRIu64 " max=%" PRIu64 "</text>\n",
                y0, key_name(a, keys[r], nm, sizeof nm), h->count, spam_hist_percentile(h, 50),
                spam_hist_percentile(h, 99), h->max);
        for (int k = 0; k < 40; k++) {
            int bh = (int)(120 * b[k] / top), x = 40 + k * 16;
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"%d\" fill=\"#4a7ab5\"/>\n", x,
                    y0 + 140 - bh, bh);
            if (k % 4 == 0)
                fprintf(f, "<text x=\"%d\" y=\"%d\">2^%d</text>\n", x, y0 + 155, k);
        }
    }
    fprintf(f, "</svg>\n");
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

static void print_cpu(const struct hist_acc *a, enum fmt f)
{
    uint64_t total = 0;
    for (size_t p = 0; p < 65537; p++)
        total += a->cpu[p];
    if (f == CSV)
        printf("pid,cpu_us,share,switched_out%s\n", a->names ? ",program" : "");
    else if (f == JSON)
        printf("{\"unit\":\"us\",\"processes\":[");
    else
        printf("%-8s %14s %7s %12s\n", "pid", "cpu us", "share", "switches");
    int first = 1;
    for (size_t p = 0; p < 65537; p++) {
        if (!a->switches[p])
            continue;
        double share = total ? 100.0 * (double)a->cpu[p] / (double)total : 0;
        char pid[24]; /* room for any size_t: the PGO build's range analysis insists */
        snprintf(pid, sizeof pid, p ? "%zu" : "unknown", p - 1);
        uint32_t k = a->prog[p];
        const char *prog = k ? spam_gnames_path(a->names, (k - 1) >> 24, (k - 1) >> 16 & 0xFF, (k - 1) & 0xFFFF)
                             : NULL;
        if (f == CSV) {
            printf("%s,%" PRIu64 ",%.3f,%" PRIu64, pid, a->cpu[p], share, a->switches[p]);
            if (a->names) {
                putchar(',');
                if (prog) {
                    putchar('"');
                    for (const char *c = prog; *c; c++)
                        printf(*c == '"' ? "\"\"" : "%c", *c);
                    putchar('"');
                }
            }
            putchar('\n');
        } else if (f == JSON) {
            printf("%s{\"pid\":%d,\"cpu_us\":%" PRIu64 ",\"share\":%.3f,\"switched_out\":%" PRIu64,
                   first ? "" : ",", (int)p - 1, a->cpu[p], share, a->switches[p]);
            if (prog) {
                printf(",\"program\":\"");
                for (const char *c = prog; *c; c++)
                    printf(*c == '"' || *c == '\\' ? "\\%c" : (unsigned char)*c < 0x20 ? "?" : "%c", *c);
                putchar('"');
            }
            putchar('}');
        } else {
            printf("%-8s %14" PRIu64 " %6.2f%% %12" PRIu64, pid, a->cpu[p], share, a->switches[p]);
            if (prog)
                printf("  %s", prog);
            putchar('\n');
        }
        first = 0;
    }
    if (f == JSON)
        printf("]}\n");
}

static void hist_json(const char *kind, const struct spam_hist *h)
{
    printf("\"%s\":{\"count\":%" PRIu64 ",\"min\":%" PRIu64 ",\"mean\":%.3f,\"p50\":%" PRIu64
           ",\"p90\":%" PRIu64 ",\"p99\":%" PRIu64 ",\"p99_9\":%" PRIu64 ",\"max\":%" PRIu64 "}",
           kind, h->count, h->count ? h->min : 0, spam_hist_mean(h), spam_hist_percentile(h, 50),
           spam_hist_percentile(h, 90), spam_hist_percentile(h, 99), spam_hist_percentile(h, 99.9), h->max);
}

static void print_linear(const struct hist_acc *a, const uint32_t *keys, size_t nk)
{
    char nm[160];
    for (size_t i = 0; i < nk; i++) {
        const struct group *g = a->g[keys[i]];
        printf("# %s: count %" PRIu64 "\n", key_name(a, keys[i], nm, sizeof nm), g->incl.count);
        for (uint64_t b = 0; b <= a->lin_n; b++)
            printf("bin %" PRIu64 " %" PRIu64 "\n", b * a->lin_w, g->lin[b]);
    }
}

static void print_groups(const struct hist_acc *a, enum fmt f, int all_bars, const uint32_t *keys, size_t nk)
{
    char nm[160];
    if (f == CSV)
        printf("group,kind,count,min,mean,p50,p90,p99,p99_9,max\n");
    else if (f == JSON)
        printf("{\"unit\":\"us\",\"by\":\"%s\",\"groups\":[",
               a->by == BY_IPL ? "ipl" : a->by == BY_CLASS ? "class" : "event");
    else
        printf("%-34s %-9s %9s %8s %10s %8s %8s %8s %8s %8s\n", a->syscalls ? "syscall" : "event", "(us)",
               "count", "min", "mean", "p50", "p90", "p99", "p99.9", "max");
    for (size_t i = 0; i < nk; i++) {
        const struct group *g = a->g[keys[i]];
        key_name(a, keys[i], nm, sizeof nm);
        if (f == CSV) {
            for (int x = 0; x < 2; x++) {
                const struct spam_hist *h = x ? &g->excl : &g->incl;
                putchar('"');
                for (const char *c = nm; *c; c++)
                    printf(*c == '"' ? "\"\"" : "%c", *c);
                printf("\",%s,%" PRIu64 ",%" PRIu64 ",%.3f", x ? "exclusive" : "inclusive", h->count,
                       h->min, spam_hist_mean(h));
                for (unsigned p = 0; p < 4; p++)
                    printf(",%" PRIu64, spam_hist_percentile(h, pct[p]));
                printf(",%" PRIu64 "\n", h->max);
            }
        } else if (f == JSON) {
            printf("%s{\"group\":\"", i ? "," : "");
            for (const char *c = nm; *c; c++)
                printf(*c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
            printf("\",");
            if (a->by == BY_EVENT) {
                unsigned cls = keys[i] >> 12;
                printf("\"class\":\"%s\",", spam_class_name(cls));
                if (cls == SPAM_CLASS_CHM)
                    printf("\"code\":%u,\"chm_mode\":%u,", spam_chm_code((uint16_t)keys[i]),
                           spam_chm_mode((uint16_t)keys[i]));
                else if (cls != SPAM_CLASS_LDPCTX)
                    printf("\"vector\":%u,", keys[i] & 0xFFF);
            } else if (a->by == BY_IPL) {
                printf("\"ipl\":%u,", keys[i]);
            }
            hist_json("inclusive", &g->incl);
            putchar(',');
            hist_json("exclusive", &g->excl);
            putchar('}');
        } else {
            row_text(nm, "inclusive", &g->incl);
            row_text("", "exclusive", &g->excl);
        }
    }
    if (f == JSON)
        printf("]}\n");
    if (f == TEXT && (all_bars || nk == 1))
        for (size_t i = 0; i < nk; i++) {
            printf("\n%s, inclusive:\n", key_name(a, keys[i], nm, sizeof nm));
            bars(&a->g[keys[i]]->incl);
        }
}

int spamctl_cmd_hist(int argc, char **argv)
{
    const char *path = NULL, *svg = NULL;
    enum fmt f = TEXT;
    int cpu = 0, all_bars = 0, partial = 0;
    uint64_t limit = 0, skip = 0;
    int limited = 0;
    struct spam_decode_opts o = {0};
    struct spam_gnames *names = NULL;
    struct hist_acc *a = calloc(1, sizeof *a);
    if (!a) {
        fprintf(stderr, "spamctl hist: out of memory\n");
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    a->cls = a->detail = -1;
    int rc = SPAMCTL_EXIT_OK;
    for (int i = 1; i < argc && rc == SPAMCTL_EXIT_OK; i++) {
        const char *v;
        int r2;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            free(a);
            spam_gnames_free(names);
            return SPAMCTL_EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "--csv") == 0) {
            enum fmt want = argv[i][2] == 'j' ? JSON : CSV;
            if (f != TEXT && f != want) {
                fprintf(stderr, "spamctl hist: --csv and --json exclude each other\n");
                rc = SPAMCTL_EXIT_USAGE;
            }
            f = want;
        } else if ((r2 = names_option("hist", argc, argv, &i, &names)) != 0) {
            if (r2 < 0)
                rc = r2 == -2 ? SPAMCTL_EXIT_BAD_INPUT : SPAMCTL_EXIT_USAGE;
        } else if (strcmp(argv[i], "--cpu") == 0) {
            cpu = 1;
        } else if (strcmp(argv[i], "--partial") == 0) {
            partial = 1;
        } else if (strcmp(argv[i], "--bars") == 0) {
            all_bars = 1;
        } else if (strcmp(argv[i], "--syscalls") == 0) {
            a->syscalls = 1;
        } else if ((r2 = opt_value(argc, argv, &i, "--svg", &v)) != 0) {
            if (r2 < 0) {
                fprintf(stderr, "spamctl hist: --svg needs a file\n");
                rc = SPAMCTL_EXIT_USAGE;
            } else {
                svg = v;
            }
        } else if ((r2 = opt_value(argc, argv, &i, "--linear", &v)) != 0) {
            unsigned long long w = 0, nb = 0;
            char extra;
            if (r2 < 0 || sscanf(v, "%llu:%llu%c", &w, &nb, &extra) != 2 || w == 0 || nb == 0 ||
                nb > 1000000) {
                fprintf(stderr, "spamctl hist: bad --linear (WIDTH:BINS, e.g. 100:50)\n");
                rc = SPAMCTL_EXIT_USAGE;
            } else {
                a->lin_w = w;
                a->lin_n = nb;
            }
        } else if ((r2 = opt_value(argc, argv, &i, "--records", &v)) != 0) {
            uint64_t nr = 0;
            if (r2 < 0 || parse_u64(v, &nr) != 0) { /* an overflowing value is refused */
                fprintf(stderr, "spamctl hist: bad --records (a number of records, at most %llu)\n",
                        (unsigned long long)UINT64_MAX);
                rc = SPAMCTL_EXIT_USAGE;
            } else {
                limit = nr;
                limited = 1;
            }
        } else if ((r2 = opt_value(argc, argv, &i, "--skip", &v)) != 0) {
            if (r2 < 0 || parse_u64(v, &skip) != 0) {
                fprintf(stderr, "spamctl hist: bad --skip (a number of records, at most %llu)\n",
                        (unsigned long long)UINT64_MAX);
                rc = SPAMCTL_EXIT_USAGE;
            }
        } else if ((r2 = opt_value(argc, argv, &i, "--by", &v)) != 0) {
            if (r2 > 0 && strcmp(v, "event") == 0)
                a->by = BY_EVENT;
            else if (r2 > 0 && strcmp(v, "ipl") == 0)
                a->by = BY_IPL;
            else if (r2 > 0 && strcmp(v, "class") == 0)
                a->by = BY_CLASS;
            else {
                fprintf(stderr, "spamctl hist: --by needs event, ipl or class\n");
                rc = SPAMCTL_EXIT_USAGE;
            }
        } else if ((r2 = opt_value(argc, argv, &i, "--event", &v)) != 0) {
            if (r2 < 0 || spam_event_spec_parse(v, &a->cls, &a->detail) != 0) {
                fprintf(stderr, "spamctl hist: bad --event (CLASS[:DETAIL], e.g. int:0xB0)\n");
                rc = SPAMCTL_EXIT_USAGE;
            }
        } else if ((r2 = decode_option(&o, "hist", argc, argv, &i)) != 0) {
            if (r2 < 0)
                rc = SPAMCTL_EXIT_USAGE;
        } else if (trace_path_arg("hist", argv[i], &path) != 0) {
            rc = SPAMCTL_EXIT_USAGE;
        }
    }
    if (rc == SPAMCTL_EXIT_OK && !path) {
        usage(stderr);
        rc = SPAMCTL_EXIT_USAGE;
    }
    if (!a->syscalls && a->cls < 0 && a->detail < 0)
        memset(a->want, 1, sizeof a->want); /* every event */
    else
        for (uint32_t ev = 0; ev < 65536; ev++)
            a->want[ev] = (uint8_t)wanted(a, (uint16_t)ev);
    if (rc == SPAMCTL_EXIT_OK && trace_files_check("hist", argc, argv, path, HOSTFILE_OUT,
                                                   (const char *const[]){"--svg", svg}, 1) != 0)
        rc = SPAMCTL_EXIT_USAGE;
    struct trace_in t;
    a->names = names;
    if (rc != SPAMCTL_EXIT_OK || trace_open(&t, "hist", path, partial) != 0) {
        free(a);
        spam_gnames_free(names);
        return rc != SPAMCTL_EXIT_OK ? rc : SPAMCTL_EXIT_BAD_INPUT;
    }
    struct spam_decoder *d = spam_decoder_new(spam_reader_header(t.r), &o);
    const struct spam_record *recs;
    size_t n;
    struct spam_event e;
    a->oom = !d;
    uint64_t done = 0, skipped = 0;
    while (!a->oom && !(limited && done >= limit) && (n = trace_next(&t, &recs)) != 0) {
        if (skipped < skip) { /* records before --skip's: not decoded */
            size_t k = n < skip - skipped ? n : (size_t)(skip - skipped);
            skipped += k;
            recs += k;
            n -= k;
            if (n == 0)
                continue;
        }
        if (limited && n > limit - done)
            n = (size_t)(limit - done);
        done += n;
        if (a->by == BY_EVENT)
            spam_decode_run(d, recs, n, hist_fn_event, a);
        else
            spam_decode_run(d, recs, n, hist_fn, a);
    }
    if (skipped < skip)
        fprintf(stderr, "spamctl hist: %s: --skip %" PRIu64 " but the trace has only %" PRIu64 " records\n",
                t.path, skip, skipped);
    if (limited && done < limit)
        fprintf(stderr, "spamctl hist: %s: --records %" PRIu64 " but the trace has only %" PRIu64 "\n",
                t.path, limit, done);
    if (!a->oom && spam_decoder_finish(d, &e))
        account(a, &e);
    int oom = a->oom;
    uint32_t *keys = NULL;
    if (oom) {
        fprintf(stderr, "spamctl hist: out of memory\n");
        rc = SPAMCTL_EXIT_BAD_INPUT;
    } else if (cpu) {
        print_cpu(a, f);
    } else if (!(spam_reader_header(t.r)->flags & SPAM_FILE_FLAG_REI)) {
        fprintf(stderr, "spamctl hist: %s: REI tracing was off in this run: service time is not available\n",
                t.path);
    } else if (!(keys = malloc(65536 * sizeof *keys))) {
        fprintf(stderr, "spamctl hist: out of memory\n");
        rc = SPAMCTL_EXIT_BAD_INPUT;
    } else {
        size_t nk = 0;
        for (uint32_t i = 0; i < a->nkeys; i++)
            if (a->g[a->keys[i]])
                keys[nk++] = a->keys[i];
        qsort(keys, nk, sizeof *keys, cmp_u32);
        if (a->lin_w)
            print_linear(a, keys, nk);
        else
            print_groups(a, f, all_bars, keys, nk);
        struct out_file so;
        if (svg && out_open_stream(&so, "hist", svg) != 0) {
            rc = SPAMCTL_EXIT_BAD_INPUT;
        } else if (svg) {
            write_svg(so.f, a, keys, nk);
            if (out_close(&so) != 0)
                rc = SPAMCTL_EXIT_BAD_INPUT;
        }
        free(keys);
    }
    fflush(stdout);
    if (rc == SPAMCTL_EXIT_OK)
        rc = trace_finish(&t, "hist");
    for (size_t i = 0; i < a->nkeys; i++)
        if (a->g[a->keys[i]])
            free(a->g[a->keys[i]]->lin);
    for (size_t i = 0; i < a->nblocks; i++)
        free(a->blocks[i]);
    free(a);
    spam_decoder_free(d);
    trace_close(&t);
    spam_gnames_free(names);
    return rc;
}
