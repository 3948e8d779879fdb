/* Chrome / Perfetto trace-event JSON export (see spam_export.h). */
#include <inttypes.h>
#include <stdlib.h>

#include "spam/spam_export.h"
#include "spam/spam_gnames.h"
#include "spam/spam_names.h"

struct spam_chrome {
    FILE *f;
    int first;
    uint8_t named_ipl[32];
    uint8_t *named_pid; /* 65537 flags */
    const struct spam_gnames *names;
};

void spam_chrome_set_names(struct spam_chrome *c, const struct spam_gnames *g) { c->names = g; }

/* s as the inside of a JSON string. */
static void json_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
}

#define PID_MACHINE 1
#define TID_SCHED 99
#define TID_PROC(pid) (1000 + (pid))

static void sep(struct spam_chrome *c)
{
    fputs(c->first ? "\n" : ",\n", c->f);
    c->first = 0;
}

static void name_thread(struct spam_chrome *c, int tid, const char *fmt, int v)
{
    sep(c);
    fprintf(c->f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"", PID_MACHINE,
            tid);
    fprintf(c->f, fmt, v);
    fputs("\"}}", c->f);
    sep(c);
    fprintf(c->f, "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%d,\"tid\":%d,\"args\":{\"sort_index\":%d}}",
            PID_MACHINE, tid, tid < 32 ? 32 - tid : tid);
}

struct spam_chrome *spam_chrome_open(FILE *f, const struct spam_header *h)
{
    struct spam_chrome *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->named_pid = calloc(65537, 1);
    if (!c->named_pid) {
        free(c);
        return NULL;
    }
    c->f = f;
    c->first = 1;
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"spamctl\",\"guest\":\"", f);
    for (const char *s = h ? h->guest : ""; *s; s++)
        if (*s >= 0x20 && *s != '"' && *s != '\\')
            fputc(*s, f);
    fprintf(f, "\",\"dropped\":%" PRIu64 "},\"traceEvents\":[", h ? h->dropped : 0);
    sep(c);
    fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":\"VAX 8600 (SPAM)\"}}",
            PID_MACHINE);
    name_thread(c, TID_SCHED, "context switches%.0d", 0);
    return c;
}

void spam_chrome_event(struct spam_chrome *c, const struct spam_event *e)
{
    char d[160];
    if (e->cls == SPAM_CLASS_PROBE) { /* an instant on the machine's track, with its values */
        sep(c);
        fputs("{\"ph\":\"i\",\"s\":\"t\",\"name\":\"", c->f);
        fputs(spam_event_describe(e->ev, d, sizeof d), c->f);
        fprintf(c->f, "\",\"cat\":\"probe\",\"ts\":%" PRIu64 ",\"pid\":%d,\"tid\":%d,"
                "\"args\":{\"tag\":%u,\"pid\":%d,\"values\":[", e->t_us, PID_MACHINE, TID_SCHED,
                spam_probe_tag(e->ev), e->pid);
        for (unsigned i = 0; i < e->nvals; i++)
            fprintf(c->f, "%s%u", i ? "," : "", e->vals[i]);
        fputs("]}}", c->f);
        return;
    }
    if (e->cls == SPAM_CLASS_LDPCTX || e->cls == SPAM_CLASS_MARKER) {
        const char *prog = e->cls == SPAM_CLASS_LDPCTX && !(e->flags & SPAM_EVF_CUTOFF)
                               ? spam_gnames_path(c->names, e->major, e->minor, e->inode)
                               : NULL;
        sep(c);
        fputs("{\"ph\":\"i\",\"s\":\"t\",\"name\":\"", c->f);
        if (e->cls != SPAM_CLASS_LDPCTX)
            fputs(spam_event_describe(e->ev, d, sizeof d), c->f);
        else if (prog) {
            fputs("ldpctx ", c->f);
            json_text(c->f, prog);
        } else
            fputs("ldpctx", c->f);
        fprintf(c->f, "\",\"cat\":\"%s\",\"ts\":%" PRIu64 ",\"pid\":%d,\"tid\":%d,\"args\":{\"pid\":%d,\"uid\":%d",
                spam_class_name(e->cls), e->t_us, PID_MACHINE, TID_SCHED, e->pid, e->uid);
        if (prog) {
            fputs(",\"program\":\"", c->f);
            json_text(c->f, prog);
            fputc('"', c->f);
        }
        fputs("}}", c->f);
        return;
    }
    if (e->cls != SPAM_CLASS_REI || (e->flags & SPAM_EVF_UNMATCHED))
        return;
    unsigned cls = e->open_ev >> 12;
    int tid;
    /* interrupts at IPL >= 0x14 run on the interrupt stack and never span
     * a context switch: one track per IPL.  Everything else runs on the
     * process's kernel stack, where events nest strictly: its track. */
    if (cls != SPAM_CLASS_INTERRUPT || spam_psl_ipl(e->open_psl) < 0x14) {
        tid = TID_PROC(e->pid);
        if (!c->named_pid[e->pid + 1]) {
            c->named_pid[e->pid + 1] = 1;
            name_thread(c, tid, "process %d", e->pid);
        }
    } else {
        unsigned ipl = spam_psl_ipl(e->open_psl);
        tid = (int)ipl;
        if (!c->named_ipl[ipl]) {
            c->named_ipl[ipl] = 1;
            name_thread(c, tid, "IPL %d", (int)ipl);
        }
    }
    sep(c);
    fputs("{\"ph\":\"X\",\"name\":\"", c->f);
    json_text(c->f, spam_event_describe_g(e->open_ev, c->names, d, sizeof d));
    fprintf(c->f,
            "\",\"cat\":\"%s\",\"ts\":%" PRIu64 ",\"dur\":%" PRIu64
            ",\"pid\":%d,\"tid\":%d,\"args\":{\"exclusive_us\":%" PRIu64 ",\"pid\":%d}}",
            spam_class_name(cls), e->open_t_us, e->incl_us, PID_MACHINE, tid, e->excl_us, e->pid);
}

int spam_chrome_close(struct spam_chrome *c)
{
    fputs("\n]}\n", c->f);
    int rc = ferror(c->f) ? -1 : 0;
    free(c->named_pid);
    free(c);
    return rc;
}
