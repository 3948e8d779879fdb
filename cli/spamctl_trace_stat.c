/* spamctl stat: a summary of a trace. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/spamctl_cmds.h"
#include "cli/spamctl_trace.h"
#include "spam/spam_gnames.h"
#include "spam/spam_names.h"

static void usage(FILE *f)
{
    fprintf(f,
"Usage: spamctl stat [OPTIONS] TRACE\n"
"\n"
"Summarise a SPAM trace (raw or compressed; '-' reads stdin): records, the\n"
"reconstructed time span, events per class, per vector (interrupts and\n"
"exceptions), per CHM code, per IPL and per process, records dropped by the\n"
"machine (from the header), and every place where reconstruction is\n"
"uncertain (gaps longer than the counters can span, REIs without an open\n"
"event, a cut-off LDPCTX, re-enabled tracing).\n"
"\n"
"Options:\n"
"  --json         One JSON object instead of text.\n"
"  --correct      The paper's correction: count entry points, not IRD states\n"
"                 (one less instruction per hardware interrupt).\n"
"  --gap-us N     A step between records longer than N us is reported as\n"
"                 ambiguous (default 1.5 timer periods = 15000).\n"
TRACE_PARTIAL_USAGE
TRACE_NAMES_USAGE
"                 (per code and vector: the names; per process: the program\n"
"                 it last switched to; JSON: name, program)\n"
"  -h, --help     This text.\n"
"\n"
"Damaged input (a torn last record, a corrupt compressed block) is reported\n"
"as 'FILE: offset N: message'; the summary then covers what could be read.\n"
"\n"
"Exit status: 0 success, 1 bad or damaged input, 2 usage error.\n");
}

struct stat_acc {
    uint64_t records, events, cls[16], ipl[32];
    /* by event id, i.e. by class (a row of 4096) and detail: [1] interrupts,
     * [2] exceptions, [3] CHM; the per-class counts are the rows' sums */
    uint64_t vec[16][4096];
    uint64_t pid[65537];
    uint32_t prog[65537]; /* per pid + 1: major << 24 | minor << 16 | inode, +1 (0 none) */
    const struct spam_gnames *g;
    uint64_t first_t, last_t, first_ic, last_ic;
    int any;
};

/* The streaming part: three counters an event (events and classes are
 * counted afterwards, from spam_decode_run()'s return and the rows). */
static inline void stat_fn(void *ctx, const struct spam_event *e)
{
    struct stat_acc *s = ctx;
    (&s->vec[0][0])[e->ev]++; /* ev = class << 12 | detail */
    s->ipl[spam_psl_ipl(e->psl_hi)]++;
    s->pid[e->pid + 1]++;
    if (__builtin_expect(e->cls == SPAM_CLASS_LDPCTX, 0) && !(e->flags & SPAM_EVF_CUTOFF))
        s->prog[e->pid + 1] = ((uint32_t)e->major << 24 | (uint32_t)e->minor << 16 | e->inode) + 1;
}

/* The program a process last switched to, by name (NULL if unknown). */
static const char *program(const struct stat_acc *s, unsigned p)
{
    uint32_t k = s->prog[p];
    return k ? spam_gnames_path(s->g, (k - 1) >> 24, (k - 1) >> 16 & 0xFF, (k - 1) & 0xFFFF) : NULL;
}

/* Every event, the first included (it is not on the streaming path). */
static void account(struct stat_acc *s, const struct spam_event *e)
{
    s->events++;
    stat_fn(s, e);
    s->last_t = e->t_us;
    s->last_ic = e->icount;
    if (!s->any) {
        s->any = 1;
        s->first_t = e->t_us;
        s->first_ic = e->icount;
    }
}

static void first_fn(void *ctx, const struct spam_event *e) { account(ctx, e); }

static void count_classes(struct stat_acc *s)
{
    for (unsigned c = 0; c < 16; c++) {
        uint64_t n = 0;
        for (unsigned v = 0; v < 4096; v++)
            n += s->vec[c][v];
        s->cls[c] = n;
    }
}

static void print_text(const struct stat_acc *s, const struct spam_header *h, const struct spam_decoder *d,
                       const char *path, int compressed)
{
    char buf[160];
    printf("trace        %s (%s)\n", path, compressed ? "compressed" : "raw");
    printf("guest        %s, seed %" PRIu64 ", microcode crc 0x%08X\n", h->guest, h->seed, h->ucode_crc);
    printf("header       %s; REI tracing %s; cycle %u ps; NICR %d\n",
           h->flags & SPAM_FILE_FLAG_COMPLETE ? "complete" : "NOT complete (run did not finish)",
           h->flags & SPAM_FILE_FLAG_REI ? "on" : "off", h->cycle_ps, h->nicr);
    printf("records      %" PRIu64 "\n", s->records);
    if ((h->flags & SPAM_FILE_FLAG_COMPLETE) && h->records != s->records)
        printf("             (the header says %" PRIu64 ")\n", h->records);
    printf("events       %" PRIu64 "\n", s->events);
    printf("dropped      %" PRIu64 " (by the machine, buffer full)\n", h->dropped);
    if (s->any) {
        printf("time         %" PRIu64 " .. %" PRIu64 " us (span %" PRIu64 " us)\n", s->first_t, s->last_t,
               s->last_t - s->first_t);
        printf("instructions %" PRIu64 " .. %" PRIu64 " (%" PRIu64 ")\n", s->first_ic, s->last_ic,
               s->last_ic - s->first_ic);
    }
    printf("\nper class\n");
    for (unsigned c = 0; c < 16; c++)
        if (s->cls[c])
            printf("  %-12s %12" PRIu64 "\n", spam_class_name(c), s->cls[c]);
    printf("\nper vector / code\n");
    for (unsigned k = 0; k < 3; k++)
        for (unsigned v = 0; v < 4096; v++)
            if (s->vec[k + 1][v])
                printf("  %-36s %12" PRIu64 "\n",
                       spam_event_describe_g(SPAM_EVENT(k + 1, v), s->g, buf, sizeof buf), s->vec[k + 1][v]);
    printf("\nper IPL (after the event)\n");
    for (unsigned i = 0; i < 32; i++)
        if (s->ipl[i])
            printf("  0x%02X %12" PRIu64 "\n", i, s->ipl[i]);
    printf("\nper process\n");
    for (unsigned p = 0; p < d->pid_hi; p++) /* no pid above: untouched pages stay unread */
        if (s->pid[p]) {
            if (p == 0)
                printf("  %-8s %12" PRIu64 "\n", "unknown", s->pid[p]);
            else if (program(s, p))
                printf("  %-8u %12" PRIu64 "  %s\n", p - 1, s->pid[p], program(s, p));
            else
                printf("  %-8u %12" PRIu64 "\n", p - 1, s->pid[p]);
        }
    printf("\nreconstruction\n");
    uint64_t total = 0;
    for (int k = 0; k < SPAM_W_KINDS; k++)
        if (d->counts[k]) {
            printf("  %-44s %8" PRIu64 "\n", warning_kind_name((enum spam_warning_kind)k), d->counts[k]);
            total += d->counts[k];
        }
    printf("  %-44s %8" PRIu64 "\n", "events still open at the end", spam_decoder_open_events(d));
    if (!total)
        printf("  no warnings\n");
    else
        print_warning_list(stdout, d);
}

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", *s);
        else
            putchar(*s);
    }
    putchar('"');
}

static void print_json(const struct stat_acc *s, const struct spam_header *h, const struct spam_decoder *d,
                       const struct trace_in *t)
{
    printf("{\"records\":%" PRIu64 ",\"events\":%" PRIu64 ",\"dropped\":%" PRIu64 ",\"complete\":%s,"
           "\"compressed\":%s,\"guest\":",
           s->records, s->events, h->dropped, h->flags & SPAM_FILE_FLAG_COMPLETE ? "true" : "false",
           spam_reader_is_compressed(t->r) ? "true" : "false");
    json_str(h->guest);
    printf(",\"seed\":%" PRIu64 ",\"first_us\":%" PRIu64 ",\"last_us\":%" PRIu64 ",\"span_us\":%" PRIu64
           ",\"first_icount\":%" PRIu64 ",\"last_icount\":%" PRIu64,
           h->seed, s->first_t, s->last_t, s->last_t - s->first_t, s->first_ic, s->last_ic);
    printf(",\"classes\":{");
    int first = 1;
    for (unsigned c = 0; c < 16; c++)
        if (s->cls[c]) {
            printf("%s\"%s\":%" PRIu64, first ? "" : ",", spam_class_name(c), s->cls[c]);
            first = 0;
        }
    static const char *const kn[3] = {"interrupt", "exception", "chm"};
    printf("},\"vectors\":[");
    first = 1;
    for (unsigned k = 0; k < 3; k++)
        for (unsigned v = 0; v < 4096; v++)
            if (s->vec[k + 1][v]) {
                printf("%s{\"class\":\"%s\",\"%s\":%u,", first ? "" : ",", kn[k],
                       k == 2 ? "code" : "vector", k == 2 ? v & 0x3FF : v);
                if (k == 2)
                    printf("\"chm_mode\":%u,", v >> 10);
                const char *nm = k < 2 ? spam_gnames_vector(s->g, v)
                                 : (v >> 10) == 0 ? spam_gnames_syscall(s->g, v & 0x3FF) : NULL;
                if (nm) {
                    printf("\"name\":");
                    json_str(nm);
                    putchar(',');
                }
                printf("\"count\":%" PRIu64 "}", s->vec[k + 1][v]);
                first = 0;
            }
    printf("],\"ipl\":{");
    first = 1;
    for (unsigned i = 0; i < 32; i++)
        if (s->ipl[i]) {
            printf("%s\"%u\":%" PRIu64, first ? "" : ",", i, s->ipl[i]);
            first = 0;
        }
    printf("},\"processes\":{");
    first = 1;
    for (unsigned p = 0; p < d->pid_hi; p++) /* no pid above: untouched pages stay unread */
        if (s->pid[p]) {
            if (p == 0)
                printf("%s\"unknown\":%" PRIu64, first ? "" : ",", s->pid[p]);
            else
                printf("%s\"%u\":%" PRIu64, first ? "" : ",", p - 1, s->pid[p]);
            first = 0;
        }
    printf("}");
    if (s->g) {
        printf(",\"programs\":{");
        first = 1;
        for (unsigned p = 1; p < d->pid_hi; p++)
            if (s->pid[p] && program(s, p)) {
                printf("%s\"%u\":", first ? "" : ",", p - 1);
                json_str(program(s, p));
                first = 0;
            }
        printf("}");
    }
    printf(",\"warnings\":{");
    static const char *const wn[SPAM_W_KINDS] = {"gap", "unmatched_rei", "cutoff", "unknown", "resync",
                                                 "overflow"};
    for (int k = 0; k < SPAM_W_KINDS; k++)
        printf("%s\"%s\":%" PRIu64, k ? "," : "", wn[k], d->counts[k]);
    printf("},\"header_records\":%" PRIu64 ",\"open_at_end\":%" PRIu64 ",\"damaged\":%s,\"skipped_records\":%" PRIu64
           ",\"skipped_bytes\":%" PRIu64 "}\n",
           h->records, spam_decoder_open_events(d), t->damages ? "true" : "false", spam_reader_skipped_records(t->r),
           spam_reader_skipped_bytes(t->r));
}

int spamctl_cmd_stat(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0, partial = 0;
    struct spam_decode_opts o = {0};
    struct spam_gnames *g = NULL;
    for (int i = 1; i < argc; i++) {
        int rc;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            spam_gnames_free(g);
            return SPAMCTL_EXIT_OK;
        } else if ((rc = names_option("stat", argc, argv, &i, &g)) != 0) {
            if (rc < 0)
                return rc == -2 ? SPAMCTL_EXIT_BAD_INPUT : SPAMCTL_EXIT_USAGE;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--partial") == 0) {
            partial = 1;
        } else if ((rc = decode_option(&o, "stat", argc, argv, &i)) != 0) {
            if (rc < 0) {
                spam_gnames_free(g);
                return SPAMCTL_EXIT_USAGE;
            }
        } else if (trace_path_arg("stat", argv[i], &path) != 0) {
            spam_gnames_free(g);
            return SPAMCTL_EXIT_USAGE;
        }
    }
    if (!path) {
        usage(stderr);
        spam_gnames_free(g);
        return SPAMCTL_EXIT_USAGE;
    }
    struct trace_in t;
    if (trace_open(&t, "stat", path, partial) != 0) {
        spam_gnames_free(g);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    struct stat_acc *s = calloc(1, sizeof *s);
    if (s)
        s->g = g;
    o.no_service = 1; /* stat counts; it needs nesting depths, not service times */
    struct spam_decoder *d = spam_decoder_new(spam_reader_header(t.r), &o);
    if (!s || !d) {
        fprintf(stderr, "spamctl stat: out of memory\n");
        free(s);
        spam_decoder_free(d);
        trace_close(&t);
        spam_gnames_free(g);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    const struct spam_record *recs;
    size_t n;
    struct spam_event e;
    while ((n = trace_next(&t, &recs)) != 0) {
        s->records += n;
        /* one record at a time up to the first event, then streaming */
        for (; n && !s->any; recs++, n--)
            spam_decode_run(d, recs, 1, first_fn, s);
        size_t got = n ? spam_decode_run(d, recs, n, stat_fn, s) : 0;
        if (got) {
            /* the last event's time and count are the decoder's: every
             * record ends an event but an LDPCTX, whose event (from its
             * extended record, or spam_decoder_finish()) has them too */
            s->events += got;
            s->last_t = d->t_us;
            s->last_ic = d->icount - (o.correct_icount ? d->hw_interrupts : 0);
        }
    }
    if (spam_decoder_finish(d, &e))
        account(s, &e);
    count_classes(s);
    if (json)
        print_json(s, spam_reader_header(t.r), d, &t);
    else
        print_text(s, spam_reader_header(t.r), d, t.path, spam_reader_is_compressed(t.r));
    int rc = trace_finish(&t, "stat");
    free(s);
    spam_decoder_free(d);
    trace_close(&t);
    spam_gnames_free(g);
    return rc;
}
