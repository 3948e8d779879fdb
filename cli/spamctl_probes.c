/* spamctl run's probes: options, loading with the kernel's symbols, and
 * the report (spamctl_probes.h). */
#include "cli/spamctl_probes.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/spamctl_out.h"
#include "cli/spamctl_probe_session.h"
#include "microcode/hostfile.h"
#include "spam/spam_aout.h"
#include "vax/io/io_bootfile.h"
#include "vax/io/io_disk.h"
#include "vax/machine/vm.h"
#include "vax/machine/vm_probe.h"
#include "vax/probe/probe_asm.h"
#include "vax/probe/probe_install.h"
#include "vax/probe/probe_verify.h"

/* A whole file (a text, or a kernel image): its bytes, NUL after them,
 * or NULL with the message printed. */
static char *read_file(const char *path, size_t *len)
{
    uint8_t *data;
    const char *why;
    if (hostfile_read(path, (size_t)64 << 20, 0, &data, len, &why) != 0) {
        fprintf(stderr, "spamctl run: %s: %s\n", path, why);
        return NULL;
    }
    return (char *)data;
}

int probes_option(struct probes_opts *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (strcmp(a, "--probes-free") == 0) {
        o->free_mode = 1;
        return 1;
    }
    if (strcmp(a, "--probes") && strcmp(a, "--probes-at") && strcmp(a, "--probe-kernel") &&
        strcmp(a, "--probe-json") && strcmp(a, "--probe") && strcmp(a, "--probe-file") &&
        strcmp(a, "--probe-svg") && strcmp(a, "--probe-budget") && strcmp(a, "--probe-top"))
        return 0;
    if (!v) {
        fprintf(stderr, "spamctl run: %s needs a value\n", a);
        return -1;
    }
    (*i)++;
    if (!strcmp(a, "--probe") || !strcmp(a, "--probe-file")) {
        if (o->nlang == PROBES_MAX_FILES) {
            fprintf(stderr, "spamctl run: at most %d probe-language programs\n", PROBES_MAX_FILES);
            return -1;
        }
        o->lang_text[o->nlang] = a[7] ? NULL : v;
        o->lang_file[o->nlang++] = a[7] ? v : NULL;
        return 1;
    }
    if (!strcmp(a, "--probe-top")) { /* spamctl top's (its value: the program) */
        if (o->nlang) {
            fprintf(stderr, "spamctl run: --probe-top is spamctl top's, alone\n");
            return -1;
        }
        o->top = 1;
        o->free_mode = 1;
        o->lang_text[o->nlang] = v;
        o->lang_file[o->nlang++] = NULL;
        return 1;
    }
    if (!strcmp(a, "--probe-svg")) {
        o->svg = v;
        return 1;
    }
    if (!strcmp(a, "--probe-budget")) {
        char *end;
        errno = 0;
        unsigned long b = strtoul(v, &end, 0);
        if (*end || errno || b < 1 || b > PRB_MAX_BUDGET || v[0] == '-') {
            fprintf(stderr, "spamctl run: --probe-budget needs microcycles, 1 to %u\n",
                    PRB_MAX_BUDGET);
            return -1;
        }
        o->budget = (uint32_t)b;
        return 1;
    }
    if (strcmp(a, "--probe-kernel") == 0) {
        o->kernel = v;
        return 1;
    }
    if (strcmp(a, "--probe-json") == 0) {
        o->json = v;
        return 1;
    }
    if (o->nfile == PROBES_MAX_FILES) {
        fprintf(stderr, "spamctl run: at most %d probe programs\n", PROBES_MAX_FILES);
        return -1;
    }
    uint64_t at = 0;
    const char *file = v;
    if (strcmp(a, "--probes-at") == 0) {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(v, &end, 0);
        if (end == v || *end != ':' || errno || !end[1] || v[0] == '-') {
            fprintf(stderr, "spamctl run: --probes-at %s: CYCLES:FILE expected\n", v);
            return -1;
        }
        at = x;
        file = end + 1;
    }
    o->file[o->nfile] = file;
    o->at[o->nfile++] = at;
    return 1;
}

/* ---- the kernel's symbols ---- */

struct syms {
    uint8_t *image;
    struct spam_aout aout;
    int ok;
};

static int resolve(void *ctx, const char *name, uint32_t *value)
{
    struct syms *s = ctx;
    if (!s->ok)
        return -1;
    const struct spam_aout_sym *y = spam_aout_lookup(&s->aout, name);
    if (!y && name[0] != '_') { /* C names: with or without the underscore */
        char b[128];
        snprintf(b, sizeof b, "_%s", name);
        y = spam_aout_lookup(&s->aout, b);
    }
    if (!y)
        return -1;
    *value = y->value;
    return 0;
}

static int disk_read(void *ctx, uint64_t off, void *buf, uint32_t n)
{
    FILE *f = ctx;
    if (fseeko(f, (off_t)off, SEEK_SET) != 0 || fread(buf, 1, n, f) != n)
        return -1;
    return 0;
}

/* The kernel: --probe-kernel, or /vmunix of partition a of the disk. */
static int load_syms(struct probes_opts *o, struct syms *s, int needed)
{
    memset(s, 0, sizeof *s);
    if (!o->kernel && !o->disk)
        return 0; /* numbers only */
    size_t len = 0;
    char err[200];
    if (o->kernel) {
        s->image = (uint8_t *)read_file(o->kernel, &len);
        if (!s->image)
            return -1;
    } else {
        FILE *f = fopen(o->disk, "rb");
        uint32_t n = 0;
        if (!f)
            return needed ? (fprintf(stderr, "spamctl run: %s: %s\n", o->disk, strerror(errno)), -1)
                          : 0;
        int rc = io_ufs_read(disk_read, f, "/vmunix", &s->image, &n, err, sizeof err);
        fclose(f);
        if (rc) {
            if (!needed)
                return 0; /* (a disk without a kernel: numbers only) */
            fprintf(stderr, "spamctl run: %s: /vmunix: %s\n", o->disk, err);
            return -1;
        }
        len = n;
    }
    struct spam_err e;
    if (spam_aout_parse(&s->aout, s->image, len, &e) != 0) {
        fprintf(stderr, "spamctl run: %s: %s\n", o->kernel ? o->kernel : "/vmunix", e.msg);
        free(s->image);
        s->image = NULL;
        return -1;
    }
    s->ok = 1;
    return 0;
}

/* The language's programs compiled with the guest's names. */
static int prepare_lang(struct probes_opts *o)
{
    for (unsigned i = 0; i < o->nlang; i++) {
        struct probe_session *s = calloc(1, sizeof *s);
        o->sess[i] = s;
        if (!s) {
            fprintf(stderr, "spamctl run: out of memory\n");
            return -1;
        }
        s->cmd = "run";
        s->out = o->out ? o->out : stdout;
        s->kernel = o->kernel;
        s->disk = o->kernel ? NULL : o->disk;
        s->budget = o->budget;
        s->free_mode = o->free_mode;
        s->json = o->json != NULL;
        s->svg = o->svg;
        s->top = o->top;
        s->tty = o->top && isatty(fileno(s->out));
        if (o->lang_file[i]) {
            s->name = o->lang_file[i];
            s->text = read_file(o->lang_file[i], &s->len);
            if (!s->text)
                return -1;
            s->owned = 1;
        } else {
            s->name = "--probe";
            s->text = o->lang_text[i];
            s->len = strlen(s->text);
        }
        if (probe_session_prepare(s) != 0)
            return -1;
    }
    return 0;
}

int probes_any(const struct probes_opts *o)
{
    return o->nfile || o->nlang;
}

int probes_need_trace(const struct probes_opts *o)
{
    for (unsigned i = 0; i < o->nlang; i++)
        if (o->sess[i] && probe_session_needs_trace(o->sess[i]))
            return 1;
    return 0;
}

int probes_slice(struct probes_opts *o, struct vax_machine *m)
{
    int stop = 0;
    for (unsigned i = 0; i < o->nlang; i++)
        if (o->sess[i] && probe_session_slice(o->sess[i], m))
            stop = 1;
    return stop;
}

void probes_records(struct probes_opts *o, const struct spam_record *r, size_t n)
{
    for (unsigned i = 0; i < o->nlang; i++)
        if (o->sess[i])
            probe_session_records(o->sess[i], r, n);
}

int probes_prepare(struct probes_opts *o)
{
    if (o->nlang && prepare_lang(o) != 0)
        return -1;
    if (!o->nfile)
        return 0;
    struct syms s;
    if (load_syms(o, &s, o->kernel != NULL) < 0)
        return -1;
    int rc = 0;
    for (unsigned i = 0; i < o->nfile && !rc; i++) {
        size_t len;
        char *text = read_file(o->file[i], &len);
        if (!text) {
            rc = -1;
            break;
        }
        o->prog[i] = malloc(sizeof *o->prog[i]);
        char err[300];
        if (!o->prog[i] || prb_asm_syms(text, len, o->file[i], s.ok ? resolve : NULL, &s,
                                        o->prog[i], err, sizeof err)) {
            fprintf(stderr, "spamctl run: %s%s\n", o->prog[i] ? err : "out of memory",
                    o->prog[i] && strstr(err, "no symbol table")
                        ? " (--probe-kernel FILE, or a disk on rp0 with /vmunix)"
                        : "");
            rc = -1;
        } else {
            /* the machine verifies again when it loads the program; this
             * refuses it before any output is made */
            struct prb_checked c;
            struct prb_reject why;
            if (prb_verify(o->prog[i], &c, &why) == 0) {
                prb_checked_free(&c);
            } else {
                prb_reject_text(o->prog[i], &why, err, sizeof err);
                fprintf(stderr, "spamctl run: %s: refused: %s\n", o->file[i], err);
                rc = -1;
            }
        }
        free(text);
        o->handle[i] = -1;
    }
    if (s.ok)
        spam_aout_free(&s.aout);
    free(s.image);
    return rc;
}

uint64_t probes_next_at(const struct probes_opts *o)
{
    return o->next < o->nfile ? o->at[o->next] : UINT64_MAX;
}

int probes_load_due(struct probes_opts *o, struct vax_machine *m)
{
    struct vm_stats st;
    vm_get_stats(m, &st);
    if (o->free_mode && probes_any(o))
        vm_probe_set_free(m, 1);
    if (!o->sess_loaded) { /* the language's programs, at the start */
        o->sess_loaded = 1;
        for (unsigned i = 0; i < o->nlang; i++)
            if (probe_session_load(o->sess[i], m) != 0)
                return -1;
    }
    /* in the order given; --probes-at files when their time has come */
    while (o->next < o->nfile && o->at[o->next] <= st.microcycles) {
        unsigned i = o->next++;
        char err[300];
        o->handle[i] = vm_probe_load(m, o->prog[i], err, sizeof err);
        if (o->handle[i] < 0) {
            fprintf(stderr, "spamctl run: %s: refused: %s\n", o->file[i], err);
            return -1;
        }
    }
    return 0;
}

static const char *pname(const struct prb_program *p, unsigned i, char *buf, size_t n)
{
    if (p->probe_name[i][0])
        return p->probe_name[i];
    snprintf(buf, n, "probe%u", i);
    return buf;
}

static const char *mname(const struct prb_program *p, unsigned i, char *buf, size_t n)
{
    if (p->map_name[i][0])
        return p->map_name[i];
    snprintf(buf, n, "map%u", i);
    return buf;
}

/* A log2 or linear histogram's bucket, as bpftrace labels them. */
static void bucket_label(const struct prb_map_desc *d, unsigned b, char *buf, size_t n)
{
    if (d->kind == PRB_M_HIST) {
        if (b == 0)
            snprintf(buf, n, "[0]");
        else if (b == 1)
            snprintf(buf, n, "[1]");
        else
            snprintf(buf, n, "[%llu, %llu)", 1ull << (b - 1), 1ull << b);
        return;
    }
    int64_t lo = (int64_t)d->lmin + (int64_t)(b - 1) * d->lstep;
    if (b == 0)
        snprintf(buf, n, "(..., %d)", d->lmin);
    else if (b == d->lbuckets + 1)
        snprintf(buf, n, "[%lld, ...)", (long long)lo);
    else
        snprintf(buf, n, "[%lld, %lld)", (long long)lo, (long long)(lo + d->lstep));
}

/* A slot's key as the report and the JSON name it: its number, or
 * "overflow" for the slot of keys at or above the map's keys. */
static void key_text(const struct prb_map_desc *d, uint32_t k, char *buf, size_t n)
{
    if (k == d->keys)
        snprintf(buf, n, "overflow");
    else
        snprintf(buf, n, "%" PRIu32, k);
}

static void print_map(FILE *f, const struct prb_map_desc *d, const uint8_t *slots,
                      const char *name)
{
    for (uint32_t k = 0; k <= d->keys; k++) {
        struct prb_slot s;
        prb_map_slot(d, slots, k, &s);
        if (!s.count && !s.sum)
            continue;
        char key[32];
        key_text(d, k, key, sizeof key);
        switch (d->kind) {
        case PRB_M_COUNT: fprintf(f, "@%s[%s]: %" PRIu64 "\n", name, key, s.count); break;
        case PRB_M_SUM: fprintf(f, "@%s[%s]: %" PRId64 "\n", name, key, s.sum); break;
        case PRB_M_MIN: fprintf(f, "@%s[%s]: %d\n", name, key, s.min); break;
        case PRB_M_MAX: fprintf(f, "@%s[%s]: %d\n", name, key, s.max); break;
        case PRB_M_STATS:
            fprintf(f, "@%s[%s]: count %" PRIu64 ", average %" PRId64 ", total %" PRId64
                       ", min %d, max %d\n",
                    name, key, s.count, s.count ? s.sum / (int64_t)s.count : 0, s.sum, s.min,
                    s.max);
            break;
        default: {
            fprintf(f, "@%s[%s]:\n", name, key);
            uint32_t top = 0;
            unsigned first = s.nbuckets, last = 0;
            for (unsigned b = 0; b < s.nbuckets; b++) {
                uint32_t c = prb_slot_bucket(&s, b);
                if (c > top)
                    top = c;
                if (c && b < first)
                    first = b;
                if (c)
                    last = b;
            }
            for (unsigned b = first; b <= last && first < s.nbuckets; b++) {
                uint32_t c = prb_slot_bucket(&s, b);
                char lab[48], bar[53];
                bucket_label(d, b, lab, sizeof lab);
                unsigned w = top ? (unsigned)((uint64_t)c * 52 / top) : 0;
                memset(bar, '@', w);
                memset(bar + w, ' ', 52 - w);
                bar[52] = 0;
                fprintf(f, "%-20s %8" PRIu32 " |%s|\n", lab, c, bar);
            }
            fputc('\n', f);
        }
        }
    }
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned char)*s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void write_json(FILE *f, struct probes_opts *o, struct vax_machine *m)
{
    struct vm_stats st;
    vm_get_stats(m, &st);
    struct vm_probe_totals t;
    vm_probe_totals(m, &t);
    fprintf(f, "{\"mode\":\"%s\",\"microcycles\":%" PRIu64 ",\"probe_cycles\":%" PRIu64
               ",\"requests\":%" PRIu64 ",\"ident_walks\":%" PRIu64 ",\"frames\":{\"watched\":%"
               PRIu64 ",\"returned\":%" PRIu64 ",\"unwound\":%" PRIu64 ",\"dropped\":%" PRIu64
               "},\"hook_cycles\":%" PRIu64 ",\"programs\":[",
            o->free_mode ? "free" : "charged", st.microcycles, t.cycles, t.requests,
            t.ident_walks, t.frames_watched, t.frames_returned, t.frames_unwound,
            t.frames_dropped, t.hook_cycles);
    for (unsigned i = 0; i < o->nfile; i++) {
        const struct prb_program *p = o->prog[i];
        fprintf(f, "%s{\"file\":", i ? "," : "");
        json_str(f, o->file[i]);
        fprintf(f, ",\"loaded\":%s,\"probes\":[", o->handle[i] >= 0 ? "true" : "false");
        char nb[32];
        for (unsigned k = 0; p && o->handle[i] >= 0 && k < p->nprobes; k++) {
            struct vm_probe_info in;
            vm_probe_info(m, o->handle[i], k, &in);
            fprintf(f, "%s{\"name\":", k ? "," : "");
            json_str(f, pname(p, k, nb, sizeof nb));
            fprintf(f, ",\"kind\":\"%s\",\"armed\":%s,\"fires\":%" PRIu64 ",\"cycles\":%" PRIu64
                       ",\"max_cycles\":%" PRIu32 ",\"cost\":%" PRIu32 ",\"budget\":%" PRIu32
                       ",\"errors\":%" PRIu64 ",\"not_recorded\":%" PRIu64 ",\"filtered\":%" PRIu64
                       "}",
                    prb_kind_name((unsigned)in.kind), in.armed ? "true" : "false", in.fires,
                    in.cycles, in.max_cycles, in.cost, in.budget, in.errors, in.norec, in.filtered);
        }
        fprintf(f, "],\"maps\":[");
        for (unsigned k = 0; p && o->handle[i] >= 0 && k < p->nmaps; k++) {
            const struct prb_map_desc *d;
            const uint8_t *slots;
            if (vm_probe_map(m, o->handle[i], k, &d, &slots))
                continue;
            fprintf(f, "%s{\"name\":", k ? "," : "");
            json_str(f, mname(p, k, nb, sizeof nb));
            fprintf(f, ",\"kind\":\"%s\",\"keys\":%" PRIu32 ",\"slots\":{", prb_map_kind_name(d->kind),
                    d->keys);
            int first = 1;
            for (uint32_t key = 0; key <= d->keys; key++) {
                struct prb_slot s;
                prb_map_slot(d, slots, key, &s);
                if (!s.count && !s.sum)
                    continue;
                char kb[16];
                key_text(d, key, kb, sizeof kb);
                fprintf(f, "%s\"%s\":{\"count\":%" PRIu64 ",\"sum\":%" PRId64 ",\"min\":%d,\"max\":%d",
                        first ? "" : ",", kb, s.count, s.sum, s.min, s.max);
                if (s.nbuckets) {
                    fprintf(f, ",\"buckets\":[");
                    for (unsigned b = 0; b < s.nbuckets; b++)
                        fprintf(f, "%s%" PRIu32, b ? "," : "", prb_slot_bucket(&s, b));
                    fputc(']', f);
                }
                fputc('}', f);
                first = 0;
            }
            fprintf(f, "}}");
        }
        fprintf(f, "]}");
    }
    fprintf(f, "]}\n");
}

/* The language's programs at the end: END, maps, SVG, costs. */
static int report_lang(struct probes_opts *o, struct vax_machine *m)
{
    int rc = 0;
    struct out_file jo = {0};
    FILE *out = o->out ? o->out : stdout;
    if (o->json && out_open_stream(&jo, "run", o->json) != 0)
        return -1;
    for (unsigned i = 0; i < o->nlang; i++) {
        struct probe_session *s = o->sess[i];
        if (!s)
            continue;
        s->out = o->json ? jo.f : out;
        if (probe_session_end(s, m) != 0)
            rc = -1;
        s->out = out;
    }
    if (o->json && out_close(&jo) != 0)
        rc = -1;
    return rc;
}

int probes_report(struct probes_opts *o, struct vax_machine *m, FILE *f)
{
    if (o->nlang && !o->nfile)
        return report_lang(o, m);
    if (!o->nfile)
        return 0;
    if (o->nlang) { /* both kinds: --probe-json holds the text form's document */
        const char *json = o->json;
        o->json = NULL;
        for (unsigned i = 0; i < o->nlang; i++)
            if (o->sess[i])
                o->sess[i]->json = 0;
        int lrc = report_lang(o, m);
        o->json = json;
        if (lrc)
            return lrc;
    }
    struct vm_stats st;
    vm_get_stats(m, &st);
    struct vm_probe_totals t;
    vm_probe_totals(m, &t);
    double all = st.microcycles ? (double)st.microcycles : 1.0;
    fprintf(f, "probes (%s): %" PRIu64 " microcycles (%.3f%% of the run) in %" PRIu64
               " requests; %" PRIu64 " process identities read; frames: %" PRIu64 " watched, %"
               PRIu64 " returned, %" PRIu64 " unwound, %" PRIu64 " dropped\n",
            o->free_mode ? "free: run by the host, no guest cycles" : "charged",
            t.cycles, 100.0 * (double)t.cycles / all, t.requests, t.ident_walks,
            t.frames_watched, t.frames_returned, t.frames_unwound, t.frames_dropped);
    for (unsigned i = 0; i < o->nfile; i++) {
        const struct prb_program *p = o->prog[i];
        if (!p || o->handle[i] < 0) {
            fprintf(f, "  %s: not loaded (the run ended before microcycle %" PRIu64 ")\n",
                    o->file[i], o->at[i]);
            continue;
        }
        fprintf(f, "  %s:\n", o->file[i]);
        fprintf(f, "    %-16s %-6s %12s %14s %8s %9s %9s %8s %8s %8s\n", "probe", "kind", "fires",
                "microcycles", "share", "worst", "cost", "errors", "norec", "filtered");
        char nb[32];
        for (unsigned k = 0; k < p->nprobes; k++) {
            struct vm_probe_info in;
            vm_probe_info(m, o->handle[i], k, &in);
            fprintf(f, "    %-16s %-6s %12" PRIu64 " %14" PRIu64 " %7.3f%% %9" PRIu32 " %9" PRIu32
                       " %8" PRIu64 " %8" PRIu64 " %8" PRIu64 "\n",
                    pname(p, k, nb, sizeof nb), prb_kind_name((unsigned)in.kind), in.fires,
                    in.cycles, 100.0 * (double)in.cycles / all, in.max_cycles, in.cost, in.errors,
                    in.norec, in.filtered);
        }
        for (unsigned k = 0; k < p->nmaps; k++) {
            const struct prb_map_desc *d;
            const uint8_t *slots;
            if (vm_probe_map(m, o->handle[i], k, &d, &slots) == 0)
                print_map(f, d, slots, mname(p, k, nb, sizeof nb));
        }
    }
    int rc = 0;
    if (o->json) {
        struct out_file jo = {0};
        if (out_open_stream(&jo, "run", o->json) != 0)
            return -1;
        write_json(jo.f, o, m);
        rc = out_close(&jo);
    }
    return rc;
}

void probes_free(struct probes_opts *o)
{
    for (unsigned i = 0; i < o->nlang; i++) {
        if (o->sess[i]) {
            probe_session_free(o->sess[i]);
            free(o->sess[i]);
            o->sess[i] = NULL;
        }
    }
    for (unsigned i = 0; i < o->nfile; i++) {
        free(o->prog[i]);
        o->prog[i] = NULL;
    }
}
