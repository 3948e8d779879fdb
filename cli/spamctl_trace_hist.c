/* spamctl hist: service-time histograms, syscall latency, where the CPU's
 * time went, and the merge of many traces or results into one histogram. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/spamctl_cmds.h"
#include "cli/spamctl_cpu.h"
#include "cli/spamctl_hist_json.h"
#include "cli/spamctl_out.h"
#include "cli/spamctl_svg.h"
#include "cli/spamctl_trace.h"
#include "spam/spam_cpu.h"
#include "spam/spam_gnames.h"
#include "spam/spam_hist.h"
#include "spam/spam_names.h"

static void usage(FILE *f)
{
    fprintf(f,
"Usage: spamctl hist [OPTIONS] TRACE\n"
"       spamctl hist --merge [OPTIONS] TRACE|RESULT.json...\n"
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
"  --cpu          Where the time went (spam/spam_cpu.h): each process's user\n"
"                 and kernel time, each interrupt vector's (nested ones\n"
"                 excluded), and idle (after a system call or exception that\n"
"                 sleeps: its REI comes after a context switch), with shares\n"
"                 of the span and context switches to each process.\n"
"  --merge        Any number of inputs into one set of histograms: traces\n"
"                 (each decoded on its own: --skip/--records apply to each)\n"
"                 and JSON results of 'hist --json' or 'demo --json' (their\n"
"                 buckets are added: the merge equals the histogram of all\n"
"                 the events together, percentiles included).  A sweep's\n"
"                 runs: spamctl hist --merge --event int:0xB0 run-*.spam\n"
"\n"
"Output:\n"
"  (default)      Tables (us) and, for a single group, log2 bars.\n"
"  --bars         Bars for every group.\n"
"  --csv          CSV: group,kind,count,min,mean,p50,p90,p99,p99_9,max.\n"
"  --json         One JSON object (not with --csv; each histogram with its\n"
"                 buckets, so that --merge can add it to others).\n"
"  --svg FILE     Also write an SVG plot of the distributions (log2 bins; with\n"
"                 --linear W:N the linear bins, percent of events, as the\n"
"                 paper's Figure 4: --event int:0xB0 --linear 100:50).\n"
"  --linear W:N   Instead of the tables: each group's inclusive times in N\n"
"                 bins W us wide and an open last bin, one line a bin,\n"
"                 'bin LO COUNT' (all N+1 bins), after a line\n"
"                 '# GROUP: count C'.  What spamread in the bundled guest\n"
"                 prints (vax/guest/README.md) with 100:50.  With --json,\n"
"                 the groups gain \"linear\": {\"width\": W, \"bins\": [...]}.\n"
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
static const char *const by_name[] = {"event", "ipl", "class"};

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
    const struct spam_gnames *names;
    int oom;
    uint64_t lin_w, lin_n;
    uint32_t nkeys, keys[65536]; /* the groups made, in order of creation */
    /* groups are carved from blocks of GROUPS_PER_BLOCK, each large enough
     * to be mapped fresh: the pages of buckets never used stay untouched */
    struct group *blocks[65536 / GROUPS_PER_BLOCK + 1];
    uint32_t nblocks, block_left;
    struct spam_cpu *cpu; /* --cpu */
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
    if (e->cls != SPAM_CLASS_REI || (e->flags & SPAM_EVF_UNMATCHED) || !a->want[e->open_ev])
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

static void cpu_fn(void *ctx, const struct spam_event *e)
{
    struct hist_acc *a = ctx;
    if (spam_cpu_event(a->cpu, e) != 0)
        a->oom = 1;
}

/* A group of a JSON result (--merge): added to ours. */
static int add_json_group(void *ctx, const struct hist_json_group *jg)
{
    struct hist_acc *a = ctx;
    if (a->by == BY_EVENT && !a->want[jg->key])
        return 0;
    if (a->lin_w && (!jg->lin || jg->lin_w != a->lin_w || jg->lin_n != a->lin_n)) {
        char nm[160];
        fprintf(stderr, "spamctl hist: a result's group %s has no --linear %llu:%llu bins (make it "
                        "with them)\n", key_name(a, jg->key, nm, sizeof nm),
                (unsigned long long)a->lin_w, (unsigned long long)a->lin_n);
        return -1;
    }
    struct group *g = a->g[jg->key];
    if (!g && !(g = new_group(a, jg->key))) {
        a->oom = 1;
        return -1;
    }
    spam_hist_add(&g->incl, &jg->incl);
    spam_hist_add(&g->excl, &jg->excl);
    for (uint64_t b = 0; a->lin_w && b <= a->lin_n; b++)
        g->lin[b] += jg->lin[b];
    return 0;
}

static const double pct[] = {50, 90, 99, 99.9};

static void row_text(const char *name, const char *kind, const struct spam_hist *h)
{
    printf("%-34s %-9s %9" PRIu64 " %8" PRIu64 " %10.1f", name, kind, h->count, h->count ? h->min : 0,
           spam_hist_mean(h));
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

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
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

static int print_json(const struct hist_acc *a, const uint32_t *keys, size_t nk)
{
    char nm[160];
    json_t *o = json_object(), *gs = json_array();
    if (!o || !gs) {
        json_decref(o);
        json_decref(gs);
        return hist_json_print("hist", stdout, NULL);
    }
    for (size_t i = 0; i < nk; i++) {
        const struct group *g = a->g[keys[i]];
        json_t *x = hist_json_group(by_name[a->by], keys[i], key_name(a, keys[i], nm, sizeof nm),
                                    &g->incl, &g->excl, g->lin, a->lin_w, a->lin_n);
        if (!x || json_array_append_new(gs, x) != 0) {
            json_decref(o);
            json_decref(gs);
            return hist_json_print("hist", stdout, NULL);
        }
    }
    json_object_set_new(o, "unit", json_string("us"));
    json_object_set_new(o, "by", json_string(by_name[a->by]));
    json_object_set_new(o, "groups", gs);
    return hist_json_print("hist", stdout, o);
}

static void print_groups(const struct hist_acc *a, enum fmt f, int all_bars, const uint32_t *keys, size_t nk)
{
    char nm[160];
    if (f == CSV)
        printf("group,kind,count,min,mean,p50,p90,p99,p99_9,max\n");
    else if (f != JSON)
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
        } else {
            row_text(nm, "inclusive", &g->incl);
            row_text("", "exclusive", &g->excl);
        }
    }
    if (f == TEXT && (all_bars || nk == 1))
        for (size_t i = 0; i < nk; i++) {
            printf("\n%s, inclusive:\n", key_name(a, keys[i], nm, sizeof nm));
            bars(&a->g[keys[i]]->incl);
        }
}

/* One trace into the histograms (or --cpu's accounting): 0, or the exit
 * status of a failure (message printed). */
static int read_trace(struct hist_acc *a, const char *path, int partial, const struct spam_decode_opts *o,
                      uint64_t skip, int limited, uint64_t limit, int *no_rei)
{
    struct trace_in t;
    if (trace_open(&t, "hist", path, partial) != 0)
        return SPAMCTL_EXIT_BAD_INPUT;
    struct spam_decoder *d = spam_decoder_new(spam_reader_header(t.r), o);
    const struct spam_record *recs;
    size_t n;
    struct spam_event e;
    if (!d)
        a->oom = 1;
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
        if (a->cpu)
            spam_decode_run(d, recs, n, cpu_fn, a);
        else if (a->by == BY_EVENT)
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
    if (!a->oom && spam_decoder_finish(d, &e)) {
        if (a->cpu)
            cpu_fn(a, &e);
        else
            account(a, &e);
    }
    if (!(spam_reader_header(t.r)->flags & SPAM_FILE_FLAG_REI))
        *no_rei = 1;
    int rc = a->oom ? SPAMCTL_EXIT_OK : trace_finish(&t, "hist");
    spam_decoder_free(d);
    trace_close(&t);
    return rc;
}

int spamctl_cmd_hist(int argc, char **argv)
{
    const char *svg = NULL;
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    size_t npaths = 0;
    enum fmt f = TEXT;
    int cpu = 0, all_bars = 0, partial = 0, merge = 0;
    uint64_t limit = 0, skip = 0;
    int limited = 0;
    struct spam_decode_opts o = {0};
    struct spam_gnames *names = NULL;
    struct hist_acc *a = calloc(1, sizeof *a);
    if (!a || !paths) {
        fprintf(stderr, "spamctl hist: out of memory\n");
        free(a);
        free(paths);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    a->cls = a->detail = -1;
    int rc = SPAMCTL_EXIT_OK;
    for (int i = 1; i < argc; i++) /* --merge may follow the inputs */
        if (strcmp(argv[i], "--merge") == 0)
            merge = 1;
    for (int i = 1; i < argc && rc == SPAMCTL_EXIT_OK; i++) {
        const char *v;
        int r2;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            free(a);
            free(paths);
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
        } else if (strcmp(argv[i], "--merge") == 0) {
            merge = 1;
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
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "spamctl hist: unknown option '%s'\n", argv[i]);
            rc = SPAMCTL_EXIT_USAGE;
        } else if (npaths && !merge) {
            fprintf(stderr, "spamctl hist: one trace at a time (--merge adds several)\n");
            rc = SPAMCTL_EXIT_USAGE;
        } else {
            paths[npaths++] = argv[i];
        }
    }
    if (rc == SPAMCTL_EXIT_OK && !npaths) {
        usage(stderr);
        rc = SPAMCTL_EXIT_USAGE;
    }
    if (rc == SPAMCTL_EXIT_OK && merge && cpu) {
        fprintf(stderr, "spamctl hist: --merge adds histograms; --cpu's processes belong to one "
                        "trace each\n");
        rc = SPAMCTL_EXIT_USAGE;
    }
    if (!a->syscalls && a->cls < 0 && a->detail < 0)
        memset(a->want, 1, sizeof a->want); /* every event */
    else
        for (uint32_t ev = 0; ev < 65536; ev++)
            a->want[ev] = (uint8_t)wanted(a, (uint16_t)ev);
    for (size_t k = 0; rc == SPAMCTL_EXIT_OK && k < npaths; k++)
        if (trace_files_check("hist", argc, argv, paths[k], HOSTFILE_OUT,
                              (const char *const[]){"--svg", svg}, 1) != 0)
            rc = SPAMCTL_EXIT_USAGE;
    a->names = names;
    if (rc == SPAMCTL_EXIT_OK && cpu && !(a->cpu = spam_cpu_new())) {
        fprintf(stderr, "spamctl hist: out of memory\n");
        rc = SPAMCTL_EXIT_BAD_INPUT;
    }
    int no_rei = 0;
    for (size_t k = 0; rc == SPAMCTL_EXIT_OK && k < npaths && !a->oom; k++) {
        if (merge && strcmp(paths[k], "-") != 0 && hist_json_is_json(paths[k])) {
            if (hist_json_read("hist", paths[k], by_name[a->by], add_json_group, a) != 0)
                rc = SPAMCTL_EXIT_BAD_INPUT;
        } else {
            int r = read_trace(a, paths[k], partial, &o, skip, limited, limit, &no_rei);
            if (r != SPAMCTL_EXIT_OK)
                rc = r;
        }
    }
    uint32_t *keys = NULL;
    if (a->oom) {
        fprintf(stderr, "spamctl hist: out of memory\n");
        rc = SPAMCTL_EXIT_BAD_INPUT;
    } else if (rc != SPAMCTL_EXIT_OK) {
        /* the failure is told */
    } else if (cpu) {
        spam_cpu_finish(a->cpu);
        if (f == JSON)
            rc = hist_json_print("hist", stdout, cpu_json(a->cpu, names)) ? SPAMCTL_EXIT_BAD_INPUT : rc;
        else if (f == CSV)
            cpu_print_csv(stdout, a->cpu, names);
        else
            cpu_print_text(stdout, a->cpu, names, "", 0, 0);
    } else if (no_rei && !a->nkeys) {
        fprintf(stderr, "spamctl hist: %s: REI tracing was off in this run: service time is not available\n",
                npaths == 1 ? paths[0] : "a trace");
    } else if (!(keys = malloc(65536 * sizeof *keys))) {
        fprintf(stderr, "spamctl hist: out of memory\n");
        rc = SPAMCTL_EXIT_BAD_INPUT;
    } else {
        size_t nk = 0;
        for (uint32_t i = 0; i < a->nkeys; i++)
            if (a->g[a->keys[i]])
                keys[nk++] = a->keys[i];
        qsort(keys, nk, sizeof *keys, cmp_u32);
        if (f == JSON) {
            if (print_json(a, keys, nk) != 0)
                rc = SPAMCTL_EXIT_BAD_INPUT;
        } else if (a->lin_w) {
            print_linear(a, keys, nk);
        } else {
            print_groups(a, f, all_bars, keys, nk);
        }
        struct out_file so;
        struct svg_hist *sh = svg ? calloc(nk ? nk : 1, sizeof *sh) : NULL;
        char (*nm)[160] = svg ? calloc(nk ? nk : 1, sizeof *nm) : NULL;
        if (svg && (!sh || !nm)) {
            fprintf(stderr, "spamctl hist: out of memory\n");
            rc = SPAMCTL_EXIT_BAD_INPUT;
        } else if (svg && out_open_stream(&so, "hist", svg) != 0) {
            rc = SPAMCTL_EXIT_BAD_INPUT;
        } else if (svg) {
            for (size_t i = 0; i < nk; i++) {
                const struct group *g = a->g[keys[i]];
                sh[i] = (struct svg_hist){key_name(a, keys[i], nm[i], sizeof nm[i]), &g->incl, g->lin,
                                          a->lin_w, a->lin_n};
            }
            svg_write(so.f, sh, nk);
            if (out_close(&so) != 0)
                rc = SPAMCTL_EXIT_BAD_INPUT;
        }
        free(sh);
        free(nm);
        free(keys);
    }
    fflush(stdout);
    for (size_t i = 0; i < a->nkeys; i++)
        if (a->g[a->keys[i]])
            free(a->g[a->keys[i]]->lin);
    for (size_t i = 0; i < a->nblocks; i++)
        free(a->blocks[i]);
    spam_cpu_free(a->cpu);
    free(a);
    free(paths);
    spam_gnames_free(names);
    return rc;
}
