/* spamctl decode: one line per event. */
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
"Usage: spamctl decode [OPTIONS] TRACE\n"
"\n"
"Print one line per event of a SPAM trace (raw or compressed; '-' reads\n"
"stdin), with reconstructed absolute time (us) and instruction count, the\n"
"process it belongs to, and for each REI the event it returns from and its\n"
"service time.  An LDPCTX and its extended record make one event.\n"
"\n"
"Output:\n"
"  (default)      Readable text.\n"
"  --csv          CSV with a header line (not with --json).\n"
"  --json         JSON lines, a stable contract: one object per event with\n"
"                 index, t_us, icount, class (interrupt|exception|chm|ldpctx|\n"
"                 rei|marker|invalid|reserved), event, psl_hi, ipl, mode\n"
"                 (0 kernel .. 3 user), pid, uid (-1 unknown), flags; by class\n"
"                 vector (interrupt, exception), code and chm_mode (chm),\n"
"                 pid, uid, major, minor, inode (ldpctx), rei_ipl, rei_mode\n"
"                 and, when matched, open_index, open_event, service_us,\n"
"                 exclusive_us (rei).  Integers are JSON numbers.\n"
"\n"
"Filters (all must hold):\n"
"  --class C      interrupt|int, exception|exc, chm, ldpctx, rei, marker.\n"
"  --event C:D    A class and its detail: int:0xB0, chm:4 (CHM code).\n"
"  --vector V     Detail only (SCB vector, or CHM code with --class chm).\n"
"  --ipl N        IPL after the event (PSL<20:16>).\n"
"  --pid N, --uid N   The process the event belongs to.\n"
"  --from US, --to US Time window in reconstructed microseconds.\n"
"\n"
"Decoding:\n"
"  --correct      The paper's correction: count entry points, not IRD states\n"
"                 (one less instruction per hardware interrupt).\n"
"  --gap-us N     Steps longer than N us are flagged ambiguous (default 15000).\n"
TRACE_PARTIAL_USAGE
TRACE_NAMES_USAGE
"                 Text: \"chmk 3 (read)\", \"interrupt 0xC0 (Xhardclock)\",\n"
"                 \"inode 19 (/etc/init)\"; JSON: name (interrupt, exception,\n"
"                 chm), path (ldpctx), open_name (rei); CSV: two more\n"
"                 columns, name and path.\n"
"  -h, --help     This text.\n"
"\n"
"Flags: gap (reconstruction ambiguous before this record), unmatched (REI\n"
"with no open event), cutoff (LDPCTX without its extended record), unknown\n"
"(invalid/reserved record), resync (tracing re-enabled), overflow.\n"
"\n"
"Exit status: 0 success, 1 bad or damaged input, 2 usage error.\n");
}

enum fmt { TEXT, CSV, JSON };

static void flags_str(unsigned fl, char *buf, size_t len)
{
    static const char *const n[] = {"gap", "unmatched", "cutoff", "unknown", "resync", "overflow"};
    buf[0] = 0;
    size_t k = 0;
    for (unsigned i = 0; i < 6; i++)
        if (fl & (1u << i))
            k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? "|" : "", n[i]);
}

static void json_text(const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", *s);
        else
            putchar(*s);
    }
}

static void csv_text(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static void print_event(enum fmt f, const struct spam_event *e, const struct spam_gnames *g)
{
    char d[160], fl[64], od[160];
    const char *path = e->cls == SPAM_CLASS_LDPCTX && !(e->flags & SPAM_EVF_CUTOFF)
                           ? spam_gnames_path(g, e->major, e->minor, e->inode)
                           : NULL;
    const char *name = NULL;
    if (e->cls == SPAM_CLASS_INTERRUPT || e->cls == SPAM_CLASS_EXCEPTION)
        name = spam_gnames_vector(g, spam_event_detail(e->ev));
    else if (e->cls == SPAM_CLASS_CHM && spam_chm_mode(e->ev) == 0)
        name = spam_gnames_syscall(g, spam_chm_code(e->ev));
    unsigned ipl = spam_psl_ipl(e->psl_hi), mode = spam_psl_cur_mode(e->psl_hi);
    unsigned det = spam_event_detail(e->ev);
    int matched = e->cls == SPAM_CLASS_REI && !(e->flags & SPAM_EVF_UNMATCHED);
    flags_str(e->flags, fl, sizeof fl);
    if (f == TEXT) {
        printf("%12" PRIu64 " us  ic %12" PRIu64 "  pid %5d  %-32s ipl 0x%02X %-10s", e->t_us, e->icount,
               e->pid, spam_event_describe_g(e->ev, g, d, sizeof d), ipl, spam_mode_name(mode));
        if (e->cls == SPAM_CLASS_LDPCTX && !(e->flags & SPAM_EVF_CUTOFF))
            printf(" -> pid %d uid %d dev %u,%u inode %u", e->pid, e->uid, e->major, e->minor, e->inode);
        if (path)
            printf(" (%s)", path);
        if (matched)
            printf(" <- %s after %" PRIu64 " us (exclusive %" PRIu64 ")",
                   spam_event_describe_g(e->open_ev, g, od, sizeof od), e->incl_us, e->excl_us);
        if (fl[0])
            printf(" [%s]", fl);
        putchar('\n');
    } else if (f == CSV) {
        printf("%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s,%u,%u,%u,%u,", e->index, e->t_us, e->icount,
               spam_class_name(e->cls), e->ev, e->psl_hi, ipl, mode);
        if (e->cls == SPAM_CLASS_INTERRUPT || e->cls == SPAM_CLASS_EXCEPTION)
            printf("%u,,,", det);
        else if (e->cls == SPAM_CLASS_CHM)
            printf(",%u,%u,", spam_chm_code(e->ev), spam_chm_mode(e->ev));
        else
            printf(",,,");
        printf("%d,%d,", e->pid, e->uid);
        if (e->cls == SPAM_CLASS_LDPCTX && !(e->flags & SPAM_EVF_CUTOFF))
            printf("%u,%u,%u,", e->major, e->minor, e->inode);
        else
            printf(",,,");
        if (matched)
            printf("%" PRIu64 ",%u,%" PRIu64 ",%" PRIu64, e->open_index, e->open_ev, e->incl_us, e->excl_us);
        else
            printf(",,,");
        printf(",%s", fl);
        if (g) {
            putchar(',');
            if (name)
                csv_text(name);
            putchar(',');
            if (path)
                csv_text(path);
        }
        putchar('\n');
    } else {
        printf("{\"index\":%" PRIu64 ",\"t_us\":%" PRIu64 ",\"icount\":%" PRIu64
               ",\"class\":\"%s\",\"event\":%u,\"psl_hi\":%u,\"ipl\":%u,\"mode\":%u,\"pid\":%d,\"uid\":%d",
               e->index, e->t_us, e->icount, spam_class_name(e->cls), e->ev, e->psl_hi, ipl, mode, e->pid,
               e->uid);
        if (e->cls == SPAM_CLASS_INTERRUPT || e->cls == SPAM_CLASS_EXCEPTION)
            printf(",\"vector\":%u", det);
        else if (e->cls == SPAM_CLASS_CHM)
            printf(",\"code\":%u,\"chm_mode\":%u", spam_chm_code(e->ev), spam_chm_mode(e->ev));
        else if (e->cls == SPAM_CLASS_LDPCTX && !(e->flags & SPAM_EVF_CUTOFF))
            printf(",\"major\":%u,\"minor\":%u,\"inode\":%u", e->major, e->minor, e->inode);
        else if (e->cls == SPAM_CLASS_REI) {
            printf(",\"rei_ipl\":%u,\"rei_mode\":%u", spam_rei_ipl(e->ev), spam_rei_mode(e->ev));
            if (matched)
                printf(",\"open_index\":%" PRIu64 ",\"open_event\":%u,\"service_us\":%" PRIu64
                       ",\"exclusive_us\":%" PRIu64,
                       e->open_index, e->open_ev, e->incl_us, e->excl_us);
            const char *on = NULL;
            if (matched && (e->open_ev >> 12) == SPAM_CLASS_CHM && spam_chm_mode(e->open_ev) == 0)
                on = spam_gnames_syscall(g, spam_chm_code(e->open_ev));
            else if (matched && ((e->open_ev >> 12) == SPAM_CLASS_INTERRUPT ||
                                 (e->open_ev >> 12) == SPAM_CLASS_EXCEPTION))
                on = spam_gnames_vector(g, e->open_ev & 0xFFF);
            if (on) {
                printf(",\"open_name\":\"");
                json_text(on);
                putchar('"');
            }
        } else if (e->cls == SPAM_CLASS_MARKER)
            printf(",\"marker\":%u", det);
        if (name || path) {
            printf(",\"%s\":\"", name ? "name" : "path");
            json_text(name ? name : path);
            putchar('"');
        }
        printf(",\"flags\":\"%s\"}\n", fl);
    }
}

int spamctl_cmd_decode(int argc, char **argv)
{
    const char *path = NULL;
    int partial = 0;
    enum fmt f = TEXT;
    struct spam_decode_opts o = {0};
    struct event_filter flt;
    struct spam_gnames *g = NULL;
    filter_init(&flt);
    for (int i = 1; i < argc; i++) {
        int rc;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            spam_gnames_free(g);
            return SPAMCTL_EXIT_OK;
        } else if ((rc = names_option("decode", argc, argv, &i, &g)) != 0) {
            if (rc < 0)
                return rc == -2 ? SPAMCTL_EXIT_BAD_INPUT : SPAMCTL_EXIT_USAGE;
        } else if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "--csv") == 0) {
            enum fmt want = argv[i][2] == 'j' ? JSON : CSV;
            if (f != TEXT && f != want) {
                fprintf(stderr, "spamctl decode: --csv and --json exclude each other\n");
                spam_gnames_free(g);
                return SPAMCTL_EXIT_USAGE;
            }
            f = want;
        } else if (strcmp(argv[i], "--partial") == 0) {
            partial = 1;
        } else if ((rc = decode_option(&o, "decode", argc, argv, &i)) != 0 ||
                   (rc = filter_option(&flt, "decode", argc, argv, &i)) != 0) {
            if (rc < 0) {
                spam_gnames_free(g);
                return SPAMCTL_EXIT_USAGE;
            }
        } else if (trace_path_arg("decode", argv[i], &path) != 0) {
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
    if (trace_open(&t, "decode", path, partial) != 0) {
        spam_gnames_free(g);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    struct spam_decoder *d = spam_decoder_new(spam_reader_header(t.r), &o);
    if (!d) {
        fprintf(stderr, "spamctl decode: out of memory\n");
        trace_close(&t);
        spam_gnames_free(g);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    if (f == CSV)
        printf("index,t_us,icount,class,event,psl_hi,ipl,mode,vector,code,chm_mode,pid,uid,major,minor,"
               "inode,open_index,open_event,service_us,exclusive_us,flags%s\n", g ? ",name,path" : "");
    const struct spam_record *recs;
    size_t n;
    struct spam_event e;
    /* an unwritable stdout stops the work early (spamctl's main reports it) */
    while (!ferror(stdout) && (n = trace_next(&t, &recs)) != 0)
        for (size_t i = 0; i < n; i++)
            if (spam_decode_step(d, recs[i], &e) && filter_match(&flt, &e))
                print_event(f, &e, g);
    if (spam_decoder_finish(d, &e) && filter_match(&flt, &e))
        print_event(f, &e, g);
    fflush(stdout);
    int rc = trace_finish(&t, "decode");
    spam_decoder_free(d);
    trace_close(&t);
    spam_gnames_free(g);
    return rc;
}
