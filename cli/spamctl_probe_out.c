/* The probe language's output: text, JSON lines and SVG
 * (spamctl_probe_out.h). */
#include "cli/spamctl_probe_out.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "vax/probe/probe_install.h"

/* One printed entry: the slots whose keys read the same, merged. */
struct entry {
    char key[200];
    uint32_t first;          /* the first slot's key (for the order) */
    uint64_t count;
    int64_t sum;
    int32_t min, max;
    uint64_t *buckets;       /* histograms */
    int64_t v;               /* the value it sorts by */
};

struct table {
    struct entry *e;
    size_t n;
    unsigned nb;             /* buckets */
};

static int by_key(const void *x, const void *y)
{
    return strcmp(((const struct entry *)x)->key, ((const struct entry *)y)->key);
}

static int by_first(const void *x, const void *y)
{
    uint32_t a = ((const struct entry *)x)->first, b = ((const struct entry *)y)->first;
    return a < b ? -1 : a > b;
}

/* The scalar a map prints for an entry. */
static int64_t scalar(enum prb_lang_agg a, const struct entry *e)
{
    switch (a) {
    case PRB_A_COUNT: return (int64_t)e->count;
    case PRB_A_MIN: return e->min;
    case PRB_A_MAX: return e->max;
    case PRB_A_AVG: return e->count ? e->sum / (int64_t)e->count : 0;
    default: return e->sum;
    }
}

static int by_value(const void *x, const void *y)
{
    const struct entry *a = x, *b = y;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    return a->first < b->first ? -1 : a->first > b->first;
}

static void table_free(struct table *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->e[i].buckets);
    free(t->e);
    memset(t, 0, sizeof *t);
}

/* The map's non-empty slots as entries, merged by key text; 0 or -1 (no
 * memory). */
static int table(const struct prb_lang *l, unsigned m, const uint8_t *slots,
                 const struct prb_lang_host *h, struct table *t)
{
    const struct prb_map_desc *d = &l->prog.map[m];
    const struct prb_lang_map *lm = &l->map[m];
    memset(t, 0, sizeof *t);
    size_t cap = 0;
    for (uint32_t k = 0; k <= d->keys; k++) {
        struct prb_slot s;
        prb_map_slot(d, slots, k, &s);
        if (!s.count && !s.sum)
            continue;
        if (t->n == cap) {
            cap = cap ? cap * 2 : 64;
            struct entry *ne = realloc(t->e, cap * sizeof *ne);
            if (!ne) {
                table_free(t);
                return -1;
            }
            t->e = ne;
        }
        struct entry *e = &t->e[t->n++];
        memset(e, 0, sizeof *e);
        prb_lang_key_text(l, m, k, h, e->key, sizeof e->key);
        e->first = k;
        e->count = s.count;
        e->sum = s.sum;
        e->min = s.min;
        e->max = s.max;
        if (s.nbuckets) {
            t->nb = s.nbuckets;
            e->buckets = calloc(s.nbuckets, sizeof *e->buckets);
            if (!e->buckets) {
                table_free(t);
                return -1;
            }
            for (unsigned b = 0; b < s.nbuckets; b++)
                e->buckets[b] = prb_slot_bucket(&s, b);
        }
    }
    if (!lm->nkey || t->n < 2)
        return 0;
    /* merge entries of the same text (a function's buckets, comm keys) */
    qsort(t->e, t->n, sizeof *t->e, by_key);
    size_t w = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (w && !strcmp(t->e[w - 1].key, t->e[i].key)) {
            struct entry *a = &t->e[w - 1], *b = &t->e[i];
            if ((lm->agg == PRB_A_MIN && b->min < a->min) || !a->count)
                a->min = b->min;
            if ((lm->agg == PRB_A_MAX && b->max > a->max) || !a->count)
                a->max = b->max;
            if (lm->agg == PRB_A_STATS || lm->agg == PRB_A_AVG) {
                a->min = b->min < a->min ? b->min : a->min;
                a->max = b->max > a->max ? b->max : a->max;
            }
            a->count += b->count;
            a->sum += b->sum;
            for (unsigned k = 0; a->buckets && k < t->nb; k++)
                a->buckets[k] += b->buckets[k];
            a->first = a->first < b->first ? a->first : b->first;
            free(b->buckets);
            continue;
        }
        t->e[w++] = t->e[i];
    }
    t->n = w;
    return 0;
}

/* A power of two as bpftrace writes it: 512, 1K, 2M, 4G. */
static void pow2(char *b, size_t n, uint64_t v)
{
    static const char suf[] = " KMGT";
    unsigned s = 0;
    while (v >= 1024 && v % 1024 == 0 && s < 4) {
        v /= 1024;
        s++;
    }
    if (s)
        snprintf(b, n, "%" PRIu64 "%c", v, suf[s]);
    else
        snprintf(b, n, "%" PRIu64, v);
}

static void bucket_label(const struct prb_lang *l, unsigned m, unsigned b, char *buf, size_t n)
{
    const struct prb_map_desc *d = &l->prog.map[m];
    if (d->kind == PRB_M_HIST) {
        char lo[24], hi[24];
        if (b <= 1) {
            snprintf(buf, n, "[%u]", b);
            return;
        }
        pow2(lo, sizeof lo, 1ull << (b - 1));
        pow2(hi, sizeof hi, 1ull << b);
        snprintf(buf, n, "[%s, %s)", lo, hi);
        return;
    }
    int64_t lo = (int64_t)d->lmin + (int64_t)(b - 1) * d->lstep;
    if (b == 0)
        snprintf(buf, n, "(..., %d)", d->lmin);
    else if (b == d->lbuckets + 1)
        snprintf(buf, n, "[%" PRId64 ", ...)", lo);
    else
        snprintf(buf, n, "[%" PRId64 ", %" PRId64 ")", lo, lo + d->lstep);
}

static int is_hist(const struct prb_lang *l, unsigned m)
{
    return l->prog.map[m].kind == PRB_M_HIST || l->prog.map[m].kind == PRB_M_LHIST;
}

static void print_hist(FILE *f, const struct prb_lang *l, unsigned m, const struct entry *e,
                       unsigned nb)
{
    unsigned lo = nb, hi = 0;
    uint64_t top = 0;
    for (unsigned b = 0; b < nb; b++)
        if (e->buckets[b]) {
            lo = b < lo ? b : lo;
            hi = b;
            top = e->buckets[b] > top ? e->buckets[b] : top;
        }
    for (unsigned b = lo; b <= hi && lo < nb; b++) {
        char lab[64], bar[53];
        bucket_label(l, m, b, lab, sizeof lab);
        unsigned w = top ? (unsigned)(e->buckets[b] * 52 / top) : 0;
        memset(bar, '@', w);
        memset(bar + w, ' ', 52 - w);
        bar[52] = 0;
        fprintf(f, "%-16s %8" PRIu64 " |%s|\n", lab, e->buckets[b], bar);
    }
}

void probe_print_map(FILE *f, const struct prb_lang *l, unsigned m, const uint8_t *slots,
                     const struct prb_lang_host *h, unsigned top, unsigned div)
{
    const struct prb_lang_map *lm = &l->map[m];
    struct table t;
    if (lm->hidden)
        return;
    if (table(l, m, slots, h, &t)) {
        fprintf(f, "%s: (out of memory)\n", lm->name);
        return;
    }
    if (!div)
        div = 1;
    if (is_hist(l, m)) {
        if (t.n) /* (qsort takes no NULL array) */
            qsort(t.e, t.n, sizeof *t.e, by_first);
        for (size_t i = 0; i < t.n; i++) {
            if (lm->nkey)
                fprintf(f, "%s[%s]:\n", lm->name, t.e[i].key);
            else
                fprintf(f, "%s:\n", lm->name);
            print_hist(f, l, m, &t.e[i], t.nb);
            fputc('\n', f);
        }
        table_free(&t);
        return;
    }
    for (size_t i = 0; i < t.n; i++)
        t.e[i].v = scalar(lm->agg, &t.e[i]);
    if (t.n)
        qsort(t.e, t.n, sizeof *t.e, by_value);
    size_t from = top && t.n > top ? t.n - top : 0;
    for (size_t i = from; i < t.n; i++) {
        const struct entry *e = &t.e[i];
        char head[240];
        if (lm->nkey)
            snprintf(head, sizeof head, "%s[%s]", lm->name, e->key);
        else
            snprintf(head, sizeof head, "%s", lm->name);
        if (lm->agg == PRB_A_STATS) {
            fprintf(f, "%s: count %" PRIu64 ", average %" PRId64 ", total %" PRId64 "\n", head,
                    e->count, (e->count ? e->sum / (int64_t)e->count : 0) / div, e->sum / div);
        } else if (lm->agg == PRB_A_VAR) {
            char v[160];
            prb_lang_value_text(lm->vtype, scalar(lm->agg, e) / div, h, v, sizeof v);
            fprintf(f, "%s: %s\n", head, v);
        } else {
            fprintf(f, "%s: %" PRId64 "\n", head, scalar(lm->agg, e) / div);
        }
    }
    if (t.n)
        fputc('\n', f);
    table_free(&t);
}

void probe_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void json_hist(FILE *f, const struct prb_lang *l, unsigned m, const struct entry *e,
                      unsigned nb)
{
    const struct prb_map_desc *d = &l->prog.map[m];
    fputc('[', f);
    int first = 1;
    for (unsigned b = 0; b < nb; b++) {
        if (!e->buckets[b])
            continue;
        fprintf(f, "%s{", first ? "" : ", ");
        first = 0;
        if (d->kind == PRB_M_HIST) {
            uint64_t lo = b ? 1ull << (b - 1) : 0, hi = b ? (1ull << b) - 1 : 0;
            fprintf(f, "\"min\": %" PRIu64 ", \"max\": %" PRIu64, lo, hi);
        } else {
            int64_t lo = (int64_t)d->lmin + (int64_t)(b - 1) * d->lstep;
            if (b == 0)
                fprintf(f, "\"max\": %" PRId64, (int64_t)d->lmin - 1);
            else if (b == d->lbuckets + 1)
                fprintf(f, "\"min\": %" PRId64, lo);
            else
                fprintf(f, "\"min\": %" PRId64 ", \"max\": %" PRId64, lo, lo + d->lstep - 1);
        }
        fprintf(f, ", \"count\": %" PRIu64 "}", e->buckets[b]);
    }
    fputc(']', f);
}

void probe_json_map(FILE *f, const struct prb_lang *l, unsigned m, const uint8_t *slots,
                    const struct prb_lang_host *h)
{
    const struct prb_lang_map *lm = &l->map[m];
    struct table t;
    if (lm->hidden || table(l, m, slots, h, &t))
        return;
    const char *type = is_hist(l, m) ? "hist" : lm->agg == PRB_A_STATS ? "stats" : "map";
    fprintf(f, "{\"type\": \"%s\", \"unit\": ", type);
    probe_json_str(f, prb_lang_unit_name(lm->unit));
    fprintf(f, ", \"what\": ");
    probe_json_str(f, lm->what);
    fprintf(f, ", \"probes\": ");
    probe_json_str(f, lm->where);
    fprintf(f, ", \"data\": {");
    probe_json_str(f, lm->name);
    fprintf(f, ": ");
    if (lm->nkey)
        fputc('{', f);
    if (t.n)
        qsort(t.e, t.n, sizeof *t.e, by_first);
    for (size_t i = 0; i < t.n; i++) {
        const struct entry *e = &t.e[i];
        if (lm->nkey) {
            if (i)
                fprintf(f, ", ");
            probe_json_str(f, e->key);
            fprintf(f, ": ");
        }
        if (is_hist(l, m))
            json_hist(f, l, m, e, t.nb);
        else if (lm->agg == PRB_A_STATS)
            fprintf(f, "{\"count\": %" PRIu64 ", \"average\": %" PRId64 ", \"total\": %" PRId64
                       ", \"min\": %d, \"max\": %d}",
                    e->count, e->count ? e->sum / (int64_t)e->count : 0, e->sum, e->min, e->max);
        else
            fprintf(f, "%" PRId64, scalar(lm->agg, e));
    }
    if (!lm->nkey && !t.n)
        fprintf(f, is_hist(l, m) ? "[]" : "0");
    if (lm->nkey)
        fputc('}', f);
    fprintf(f, "}}\n");
    table_free(&t);
}

/* ---- SVG ---- */

static void xml(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

/* A round step (1, 2 or 5 times a power of ten) giving at most 5 ticks. */
static uint64_t tick_step(uint64_t top)
{
    uint64_t p = 1;
    for (;;) {
        for (unsigned m = 1; m <= 5; m += m == 1 ? 1 : 3)
            if (top / (p * m) <= 5)
                return p * m;
        p *= 10;
    }
}

enum { SVG_W = 780, PANEL_H = 300, X0 = 70, PLOT_W = 680, PLOT_H = 190 };

static void svg_panel(FILE *f, const struct prb_lang *l, unsigned m, const struct entry *e,
                      unsigned nb, int y0)
{
    const struct prb_lang_map *lm = &l->map[m];
    unsigned lo = nb, hi = 0;
    uint64_t top = 1, total = 0;
    for (unsigned b = 0; b < nb; b++)
        if (e->buckets[b]) {
            lo = b < lo ? b : lo;
            hi = b;
            top = e->buckets[b] > top ? e->buckets[b] : top;
            total += e->buckets[b];
        }
    if (lo == nb)
        lo = hi = 0;
    const char *unit = prb_lang_unit_name(lm->unit);
    /* the title: the map, what it measures, where, its key */
    fprintf(f, "<text x=\"10\" y=\"%d\" font-weight=\"bold\">", y0 + 16);
    xml(f, lm->name);
    if (e->key[0]) {
        fputc('[', f);
        xml(f, e->key);
        fputc(']', f);
    }
    fputs(": ", f);
    xml(f, lm->what);
    if (*unit)
        fprintf(f, " (%s)", unit);
    if (lm->where[0]) {
        fputs(" at ", f);
        xml(f, lm->where);
    }
    fprintf(f, ", %" PRIu64 " values</text>\n", total);
    int base = y0 + 30 + PLOT_H;
    uint64_t step = tick_step(top), ymax = (top + step - 1) / step * step;
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", X0, base,
            X0 + PLOT_W, base);
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", X0, base, X0,
            base - PLOT_H);
    for (uint64_t v = 0; v <= ymax; v += step) {
        int y = base - (int)((double)PLOT_H * (double)v / (double)ymax + 0.5);
        if (v)
            fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#dddddd\"/>\n", X0, y,
                    X0 + PLOT_W, y);
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%" PRIu64 "</text>\n", X0 - 5, y + 4,
                v);
    }
    unsigned n = hi - lo + 1;
    double bw = (double)PLOT_W / n;
    unsigned every = n > 16 ? (n + 15) / 16 : 1;
    for (unsigned b = lo; b <= hi; b++) {
        double x = X0 + (b - lo) * bw;
        int bh = (int)((double)PLOT_H * (double)e->buckets[b] / (double)ymax + 0.5);
        char lab[64];
        bucket_label(l, m, b, lab, sizeof lab);
        fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#4a7ab5\">"
                   "<title>", x + 1, base - bh, bw > 3 ? bw - 2 : bw, bh);
        xml(f, lab);
        fprintf(f, ": %" PRIu64 "</title></rect>\n", e->buckets[b]);
        if (e->buckets[b] && bw >= 24)
            fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" text-anchor=\"middle\">%" PRIu64
                       "</text>\n", x + bw / 2, base - bh - 3, e->buckets[b]);
        if ((b - lo) % every == 0) {
            fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" text-anchor=\"end\" "
                       "transform=\"rotate(-35 %.1f %d)\">", x + bw / 2, base + 12, x + bw / 2,
                    base + 12);
            xml(f, lab);
            fputs("</text>\n", f);
        }
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", X0 + PLOT_W / 2, base + 62);
    xml(f, lm->what);
    fprintf(f, "%s%s%s</text>\n", *unit ? " (" : "", unit, *unit ? ")" : "");
    fprintf(f, "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\">"
               "count</text>\n", base - PLOT_H / 2, base - PLOT_H / 2);
}

#define SVG_MAX_PANELS 24

unsigned probe_svg(FILE *f, const struct prb_lang *l, const uint8_t *const *slots,
                   const struct prb_lang_host *h)
{
    struct table t[PRB_MAX_MAPS];
    unsigned panels = 0;
    memset(t, 0, sizeof t);
    for (unsigned m = 0; m < l->prog.nmaps; m++) {
        if (!slots[m] || !is_hist(l, m) || l->map[m].hidden || table(l, m, slots[m], h, &t[m]))
            continue;
        if (t[m].n)
            qsort(t[m].e, t[m].n, sizeof *t[m].e, by_first);
        panels += (unsigned)t[m].n;
    }
    if (panels > SVG_MAX_PANELS)
        panels = SVG_MAX_PANELS;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n", SVG_W,
            (panels ? panels : 1) * PANEL_H + 10);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    unsigned k = 0;
    for (unsigned m = 0; m < l->prog.nmaps; m++) {
        for (size_t i = 0; i < t[m].n && k < panels; i++, k++)
            svg_panel(f, l, m, &t[m].e[i], t[m].nb, (int)(k * PANEL_H) + 4);
        table_free(&t[m]);
    }
    if (!panels)
        fprintf(f, "<text x=\"10\" y=\"20\">no histogram holds a value</text>\n");
    fprintf(f, "</svg>\n");
    return panels;
}
