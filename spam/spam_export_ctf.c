/* CTF 1.8 export (see spam_export.h and the tested examples described in
 * ../shared/reference/ctf-example/). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "microcode/le.h"
#include "spam/spam_export.h"
#include "spam/spam_gnames.h"
#include "spam/spam_names.h"

#define PACKET 65536u
#define NSTREAMS 32

struct pkt {
    FILE *f;
    char name[32];
    uint8_t buf[PACKET];
    size_t len;
    uint64_t t_begin, t_end, seq;
    int any;
};

struct spam_ctf {
    int lttng;
    const struct spam_gnames *names; /* NULL: the fields without names */
    char *dir;
    uint64_t dropped, count;
    uint64_t t_first, t_last; /* of the whole trace: every stream spans it */
    int seen;
    size_t ctx_bytes;
    struct pkt *s[NSTREAMS];
    int failed;
    int fail_errno;      /* of the first failure */
    char fail_name[32];  /* the file it was in */
};

static void fail(struct spam_ctf *c, const char *name)
{
    if (!c->failed) {
        c->fail_errno = errno ? errno : EIO;
        snprintf(c->fail_name, sizeof c->fail_name, "%s", name);
    }
    c->failed = 1;
}

static const char *const meta_common =
    "/* CTF 1.8 */\n\n"
    "typealias integer { size = 8;  align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
    "typealias integer { size = 16; align = 8; signed = false; base = 16; } := hex16_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 32; align = 8; signed = true;  } := int32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n\n"
    "trace {\n    major = 1;\n    minor = 8;\n    byte_order = le;\n"
    "    packet.header := struct { uint32_t magic; uint32_t stream_id; };\n};\n\n";

static const char *const meta_plain =
    "env {\n    tracer_name = \"spamctl\";\n    domain = \"spam\";\n};\n\n"
    "clock { name = spam_clock; description = \"reconstructed VAX 8600 ICR microseconds\"; freq = 1000000; };\n\n"
    "typealias integer { size = 64; align = 8; signed = false; map = clock.spam_clock.value; } := spam_ts_t;\n\n"
    "stream {\n    id = 0;\n    packet.context := struct {\n"
    "        spam_ts_t timestamp_begin;\n        spam_ts_t timestamp_end;\n"
    "        uint64_t content_size;\n        uint64_t packet_size;\n"
    "        uint64_t packet_seq_num;\n        uint64_t events_discarded;\n    };\n"
    "    event.header := struct { uint16_t id; spam_ts_t timestamp; };\n};\n\n"
    "event { name = \"spam:interrupt\"; id = 0; stream_id = 0; fields := struct {\n"
    "    uint64_t icount; hex16_t psl_hi; uint8_t ipl; hex16_t vector; int32_t pid; }; };\n"
    "event { name = \"spam:exception\"; id = 1; stream_id = 0; fields := struct {\n"
    "    uint64_t icount; hex16_t psl_hi; uint8_t ipl; hex16_t vector; int32_t pid; }; };\n"
    "event { name = \"spam:chm\"; id = 2; stream_id = 0; fields := struct {\n"
    "    uint64_t icount; hex16_t psl_hi; uint8_t ipl; uint8_t chm_mode; uint16_t code; int32_t pid; }; };\n"
    "event { name = \"spam:ldpctx\"; id = 3; stream_id = 0; fields := struct {\n"
    "    uint64_t icount; hex16_t psl_hi; uint8_t ipl; int32_t pid; int32_t uid;\n"
    "    uint8_t major; uint8_t minor; uint16_t inode; }; };\n"
    "event { name = \"spam:rei\"; id = 4; stream_id = 0; fields := struct {\n"
    "    uint64_t icount; hex16_t psl_hi; uint8_t ipl; uint8_t rei_ipl; uint8_t rei_mode; int32_t pid;\n"
    "    uint8_t matched; hex16_t open_event; uint64_t service_us; uint64_t exclusive_us; }; };\n"
    "event { name = \"spam:marker\"; id = 5; stream_id = 0; fields := struct {\n"
    "    uint64_t icount; hex16_t psl_hi; uint8_t ipl; uint16_t code; int32_t pid; }; };\n"
    "event { name = \"spam:unknown\"; id = 6; stream_id = 0; fields := struct {\n"
    "    uint64_t icount; hex16_t psl_hi; hex16_t event_id; }; };\n"
    "event { name = \"spam:probe\"; id = 7; stream_id = 0; fields := struct {\n"
    "    uint64_t icount; hex16_t psl_hi; uint8_t ipl; uint8_t tag; int32_t pid;\n"
    "    uint8_t nvals; uint32_t values[nvals]; }; };\n";

static const char *const meta_lttng =
    "env {\n    domain = \"kernel\";\n    tracer_name = \"spamctl\";\n    hostname = \"vax8600\";\n};\n\n"
    "clock { name = monotonic; freq = 1000000; };\n\n"
    "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := "
    "uint64_clock_monotonic_t;\n\n"
    "stream {\n    id = 0;\n    packet.context := struct {\n"
    "        uint64_clock_monotonic_t timestamp_begin;\n        uint64_clock_monotonic_t timestamp_end;\n"
    "        uint64_t content_size;\n        uint64_t packet_size;\n"
    "        uint64_t packet_seq_num;\n        uint64_t events_discarded;\n"
    "        uint32_t cpu_id; /* the IPL: interrupts at one IPL never nest */\n    };\n"
    "    event.header := struct { uint32_t id; uint64_clock_monotonic_t timestamp; };\n};\n\n"
    "event { name = \"irq_handler_entry\"; id = 0; stream_id = 0;\n"
    "        fields := struct { int32_t irq; string name; }; };\n"
    "event { name = \"irq_handler_exit\";  id = 1; stream_id = 0;\n"
    "        fields := struct { int32_t irq; int32_t ret; }; };\n";

/* v as n (2, 4 or 8) little-endian bytes */
static void put(uint8_t *p, uint64_t v, int n)
{
    if (n == 2)
        le_put16(p, (uint16_t)v);
    else if (n == 4)
        le_put32(p, (uint32_t)v);
    else
        le_put64(p, v);
}

/* A CTF string (NUL-terminated, at most 1024 bytes with the NUL); "" for
 * NULL.  Returns the bytes written. */
static size_t put_str(uint8_t *p, const char *s)
{
    size_t l = s ? strnlen(s, 1023) : 0;
    if (l)
        memcpy(p, s, l);
    p[l] = 0;
    return l + 1;
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* The plain metadata; named, the events' field lists gain the names'
 * strings (an event's declaration ends with its line ending "}; };"). */
static void put_meta_plain(FILE *mf, int named)
{
    const char *field = NULL;
    for (const char *p = meta_plain; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        if (!strncmp(p, "event { name = \"spam:", 21)) {
            const char *ev = p + 21;
            field = !strncmp(ev, "interrupt\"", 10) || !strncmp(ev, "exception\"", 10) ||
                            !strncmp(ev, "chm\"", 4)
                        ? "name"
                    : !strncmp(ev, "ldpctx\"", 7) ? "path"
                                                  : NULL;
        }
        if (named && field && n >= 6 && !memcmp(p + n - 6, "}; };\n", 6)) {
            fwrite(p, 1, n - 6, mf);
            fprintf(mf, "string %s; }; };\n", field);
            field = NULL;
        } else {
            fwrite(p, 1, n, mf);
        }
        p += n;
    }
}

struct spam_ctf *spam_ctf_open(const char *dir, int lttng, const struct spam_header *h, struct spam_err *err)
{
    return spam_ctf_open_named(dir, lttng, h, NULL, err);
}

struct spam_ctf *spam_ctf_open_named(const char *dir, int lttng, const struct spam_header *h,
                                     const struct spam_gnames *g, struct spam_err *err)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        spam_err_set(err, 0, "cannot create directory %s: %s", dir, strerror(errno));
        return NULL;
    }
    struct spam_ctf *c = calloc(1, sizeof *c);
    char *mp = join(dir, "metadata");
    c = c && mp ? c : NULL;
    FILE *mf = mp ? fopen(mp, "w") : NULL;
    free(mp);
    if (!c || !mf) {
        spam_err_set(err, 0, "%s/metadata: %s", dir, strerror(errno));
        if (mf)
            fclose(mf);
        free(c);
        return NULL;
    }
    fputs(meta_common, mf);
    if (lttng)
        fputs(meta_lttng, mf);
    else
        put_meta_plain(mf, g != NULL);
    errno = 0;
    if (fclose(mf) != 0) {
        spam_err_set(err, 0, "%s/metadata: %s", dir, strerror(errno ? errno : EIO));
        free(c);
        return NULL;
    }
    c->lttng = lttng;
    c->names = g;
    c->dir = join(dir, "");
    c->dropped = h ? h->dropped : 0;
    c->ctx_bytes = 8 + 48 + (lttng ? 4 : 0);
    return c;
}

static void flush_packet(struct spam_ctf *c, struct pkt *p, unsigned cpu, uint64_t discarded)
{
    if (!p->any)
        return;
    uint8_t *b = p->buf;
    put(b, 0xC1FC1FC1u, 4);
    put(b + 4, 0, 4);
    /* the first packet of every stream begins with the trace, the last
     * ends with it, so stream intersection (lttng-analyses' default)
     * keeps everything */
    put(b + 8, p->seq == 0 && c->t_first < p->t_begin ? c->t_first : p->t_begin, 8);
    put(b + 16, p->t_end, 8);
    put(b + 24, (uint64_t)p->len * 8, 8);
    put(b + 32, (uint64_t)PACKET * 8, 8);
    put(b + 40, p->seq++, 8);
    put(b + 48, discarded, 8);
    if (c->lttng)
        put(b + 56, cpu, 4);
    memset(b + p->len, 0, PACKET - p->len);
    errno = 0;
    if (fwrite(b, 1, PACKET, p->f) != PACKET)
        fail(c, p->name);
    p->len = 0;
    p->any = 0;
}

static struct pkt *stream(struct spam_ctf *c, unsigned k)
{
    if (c->s[k])
        return c->s[k];
    char name[32];
    if (c->lttng)
        snprintf(name, sizeof name, "channel0_%u", k);
    else
        snprintf(name, sizeof name, "stream_0");
    char *path = join(c->dir, name);
    struct pkt *p = calloc(1, sizeof *p);
    errno = 0;
    if (!path || !p || !(p->f = fopen(path, "wb"))) {
        fail(c, name);
        free(p);
        free(path);
        return NULL;
    }
    snprintf(p->name, sizeof p->name, "%s", name);
    free(path);
    c->s[k] = p;
    return p;
}

/* Appends one event (header + payload) to stream k at time t. */
static void emit(struct spam_ctf *c, unsigned k, uint64_t t, uint32_t id, const uint8_t *pl, size_t n)
{
    struct pkt *p = stream(c, k);
    if (!p)
        return;
    size_t hb = c->lttng ? 12 : 10;
    if (p->any && p->len + hb + n > PACKET)
        flush_packet(c, p, k, 0);
    if (!p->any) {
        p->len = c->ctx_bytes;
        p->t_begin = t;
        p->any = 1;
    }
    put(p->buf + p->len, id, c->lttng ? 4 : 2);
    p->len += c->lttng ? 4 : 2;
    put(p->buf + p->len, t, 8);
    p->len += 8;
    memcpy(p->buf + p->len, pl, n);
    p->len += n;
    p->t_end = t;
    c->count++;
}

int spam_ctf_event(struct spam_ctf *c, const struct spam_event *e)
{
    uint8_t b[64 + 1100 + 4 * SPAM_PROBE_MAX_VALUES];
    size_t n = 0;
    if (!c->seen) {
        c->seen = 1;
        c->t_first = e->t_us;
    }
    if (e->t_us > c->t_last)
        c->t_last = e->t_us;
    if (c->lttng) {
        if (e->cls != SPAM_CLASS_REI || (e->flags & SPAM_EVF_UNMATCHED) || (e->open_ev >> 12) != SPAM_CLASS_INTERRUPT ||
            spam_vector_is_software(e->open_ev & 0xFFF))
            return c->failed ? -1 : 0;
        unsigned ipl = spam_psl_ipl(e->open_psl), vec = e->open_ev & 0xFFF;
        char name[128];
        spam_guest_vector_name(c->names, vec, name, sizeof name);
        put(b, vec, 4);
        size_t l = strlen(name) + 1;
        memcpy(b + 4, name, l);
        emit(c, ipl, e->open_t_us, 0, b, 4 + l);
        put(b, vec, 4);
        put(b + 4, 1, 4); /* IRQ_HANDLED */
        emit(c, ipl, e->t_us, 1, b, 8);
        return c->failed ? -1 : 0;
    }
    uint32_t id;
    put(b, e->icount, 8);
    put(b + 8, e->psl_hi, 2);
    n = 10;
    unsigned ipl = spam_psl_ipl(e->psl_hi);
    switch (e->cls) {
    case SPAM_CLASS_INTERRUPT:
    case SPAM_CLASS_EXCEPTION:
        id = e->cls == SPAM_CLASS_INTERRUPT ? 0 : 1;
        b[n++] = (uint8_t)ipl;
        put(b + n, e->ev & 0xFFF, 2);
        put(b + n + 2, (uint32_t)e->pid, 4);
        n += 6;
        if (c->names)
            n += put_str(b + n, spam_gnames_vector(c->names, e->ev & 0xFFF));
        break;
    case SPAM_CLASS_CHM:
        id = 2;
        b[n++] = (uint8_t)ipl;
        b[n++] = (uint8_t)spam_chm_mode(e->ev);
        put(b + n, spam_chm_code(e->ev), 2);
        put(b + n + 2, (uint32_t)e->pid, 4);
        n += 6;
        if (c->names)
            n += put_str(b + n, spam_chm_mode(e->ev) == 0 ? spam_gnames_syscall(c->names, spam_chm_code(e->ev))
                                                          : NULL);
        break;
    case SPAM_CLASS_LDPCTX:
        id = 3;
        b[n++] = (uint8_t)ipl;
        put(b + n, (uint32_t)e->pid, 4);
        put(b + n + 4, (uint32_t)e->uid, 4);
        b[n + 8] = e->major;
        b[n + 9] = e->minor;
        put(b + n + 10, e->inode, 2);
        n += 12;
        if (c->names)
            n += put_str(b + n, (e->flags & SPAM_EVF_CUTOFF) ? NULL
                                : spam_gnames_path(c->names, e->major, e->minor, e->inode));
        break;
    case SPAM_CLASS_REI: {
        int m = !(e->flags & SPAM_EVF_UNMATCHED);
        id = 4;
        b[n++] = (uint8_t)ipl;
        b[n++] = (uint8_t)spam_rei_ipl(e->ev);
        b[n++] = (uint8_t)spam_rei_mode(e->ev);
        put(b + n, (uint32_t)e->pid, 4);
        b[n + 4] = (uint8_t)m;
        put(b + n + 5, m ? e->open_ev : 0, 2);
        put(b + n + 7, m ? e->incl_us : 0, 8);
        put(b + n + 15, m ? e->excl_us : 0, 8);
        n += 23;
        break;
    }
    case SPAM_CLASS_MARKER:
        id = 5;
        b[n++] = (uint8_t)ipl;
        put(b + n, e->ev & 0xFFF, 2);
        put(b + n + 2, (uint32_t)e->pid, 4);
        n += 6;
        break;
    case SPAM_CLASS_PROBE:
        id = 7;
        b[n++] = (uint8_t)ipl;
        b[n++] = (uint8_t)spam_probe_tag(e->ev);
        put(b + n, (uint32_t)e->pid, 4);
        n += 4;
        b[n++] = e->nvals;
        for (unsigned i = 0; i < e->nvals; i++, n += 4)
            put(b + n, e->vals[i], 4);
        break;
    default:
        id = 6;
        put(b + n, e->ev, 2);
        n += 2;
    }
    emit(c, 0, e->t_us, id, b, n);
    return c->failed ? -1 : 0;
}

uint64_t spam_ctf_count(const struct spam_ctf *c) { return c->count; }

int spam_ctf_close(struct spam_ctf *c, struct spam_err *err)
{
    for (unsigned k = 0; k < NSTREAMS; k++) {
        struct pkt *p = c->s[k];
        if (!p)
            continue;
        if (c->t_last > p->t_end)
            p->t_end = c->t_last;
        flush_packet(c, p, k, c->lttng ? 0 : c->dropped);
        errno = 0;
        if (fclose(p->f) != 0)
            fail(c, p->name);
        free(p);
    }
    int rc = c->failed ? -1 : 0;
    if (rc)
        spam_err_set(err, 0, "%s%s: %s", c->dir, c->fail_name, strerror(c->fail_errno));
    free(c->dir);
    free(c);
    return rc;
}
