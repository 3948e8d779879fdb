/* spamctl top's program and screen (spamctl_top.h). */
#include "cli/spamctl_top.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "vax/probe/probe_install.h"

/* The maps the screen reads, by name. */
static const char top_text[] =
    "// spamctl top (4.3BSD): per-process CPU (from the context switch that\n"
    "// gives a process the CPU to its call of Swtch, which gives it up: the\n"
    "// idle loop is nobody's), interrupts and system calls, kernel\n"
    "// functions sampled at 1 kHz, one procedure's durations.\n"
    "spam:ldpctx { @since = usecs; @prog[pid] = comm; }\n"
    "kprobe:Swtch { @cpu[pid] += usecs - @since; }\n"
    "spam:interrupt:* { @intr[vector] = count(); }\n"
    "spam:syscall:* { @sys[sysno] = count(); }\n"
    "profile:hz:1000 /mode == kernel/ { @kfunc[kfunc(pc)] = count(); }\n"
    "profile:hz:1000 /mode != kernel/ { @user = count(); }\n"
    "%s { @hist = hist(duration); }\n";

const char *top_program(const char *hist_probe, char *buf, size_t len)
{
    snprintf(buf, len, top_text, hist_probe ? hist_probe : "kretprobe:ipintr");
    return buf;
}

static int map_named(const struct prb_lang *l, const char *name)
{
    for (unsigned m = 0; m < l->prog.nmaps; m++)
        if (!strcmp(l->map[m].name, name))
            return (int)m;
    return -1;
}

int top_snap_take(struct top_snap *s, const struct prb_lang *l, const uint8_t *const *slots,
                  uint64_t us)
{
    top_snap_free(s);
    s->us = us;
    for (unsigned m = 0; m < l->prog.nmaps; m++) {
        if (!slots[m])
            continue;
        size_t n = prb_map_bytes(&l->prog.map[m]);
        if (!(s->slots[m] = malloc(n)))
            return -1;
        memcpy(s->slots[m], slots[m], n);
    }
    return 0;
}

void top_snap_free(struct top_snap *s)
{
    for (unsigned m = 0; m < PRB_MAX_MAPS; m++) {
        free(s->slots[m]);
        s->slots[m] = NULL;
    }
}

/* A slot's number (a count, or a sum/value) in a snapshot; 0 without one. */
static int64_t val(const struct prb_lang *l, const struct top_snap *s, int m, uint32_t key)
{
    if (m < 0 || !s->slots[m])
        return 0;
    struct prb_slot v;
    prb_map_slot(&l->prog.map[m], s->slots[m], key, &v);
    return l->map[m].agg == PRB_A_COUNT ? (int64_t)v.count : v.sum;
}

struct row {
    uint32_t key;
    int64_t v;
};

static int by_v(const void *x, const void *y)
{
    const struct row *a = x, *b = y;
    return a->v != b->v ? (a->v < b->v ? 1 : -1) : (a->key > b->key) - (a->key < b->key);
}

/* The keys of map m whose value grew from prev to cur, largest first. */
static size_t growth(const struct prb_lang *l, int m, const struct top_snap *prev,
                     const struct top_snap *cur, struct row **out)
{
    *out = NULL;
    if (m < 0 || !cur->slots[m])
        return 0;
    uint32_t keys = l->prog.map[m].keys;
    struct row *r = malloc((keys + 1) * sizeof *r);
    size_t n = 0;
    for (uint32_t k = 0; r && k <= keys; k++) {
        int64_t d = val(l, cur, m, k) - val(l, prev, m, k);
        if (d > 0)
            r[n++] = (struct row){k, d};
    }
    if (r)
        qsort(r, n, sizeof *r, by_v);
    *out = r;
    return n;
}

void top_render(FILE *f, const struct prb_lang *l, const struct top_snap *prev,
                const struct top_snap *cur, const struct prb_lang_host *h, int tty,
                unsigned rows, const char *title)
{
    double secs = (double)(cur->us - prev->us) / 1e6;
    if (secs <= 0)
        secs = 1;
    if (tty)
        fputs("\033[H\033[2J", f);
    fprintf(f, "%s: %.1f s of emulated time; the last %.2f s\n", title, (double)cur->us / 1e6,
            secs);
    char kb[200], nb[200];
    /* CPU by process */
    struct row *r;
    int cpu = map_named(l, "@cpu"), prog = map_named(l, "@prog");
    size_t n = growth(l, cpu, prev, cur, &r);
    fprintf(f, "\n  %6s  %-28s %8s %6s\n", "PID", "PROGRAM", "CPU us", "CPU%");
    for (size_t i = 0; i < n && i < rows; i++) {
        uint32_t pid = r[i].key;
        prb_lang_value_text(PRB_T_COMM, val(l, cur, prog, pid), h, nb, sizeof nb);
        fprintf(f, "  %6" PRIu32 "  %-28.28s %8" PRId64 " %5.1f%%\n", pid,
                pid == 0 && !val(l, cur, prog, 0) ? "(swapper, idle)" : nb, r[i].v,
                100.0 * (double)r[i].v / (secs * 1e6));
    }
    free(r);
    /* interrupts and system calls per second */
    static const struct { const char *map, *title; } rates[] = {
        {"@intr", "interrupts/s"}, {"@sys", "system calls/s"},
    };
    for (size_t t = 0; t < 2; t++) {
        int m = map_named(l, rates[t].map);
        n = growth(l, m, prev, cur, &r);
        int64_t all = 0;
        for (size_t i = 0; i < n; i++)
            all += r[i].v;
        fprintf(f, "\n  %s: %.0f", rates[t].title, (double)all / secs);
        for (size_t i = 0; i < n && i < rows; i++) {
            prb_lang_key_text(l, (unsigned)m, r[i].key, h, kb, sizeof kb);
            fprintf(f, "%s%s %.0f", i ? ", " : " (", kb, (double)r[i].v / secs);
        }
        fputs(n ? ")\n" : "\n", f);
        free(r);
    }
    /* the hottest kernel functions: a function's buckets summed */
    int kf = map_named(l, "@kfunc"), us = map_named(l, "@user");
    n = growth(l, kf, prev, cur, &r);
    struct hot {
        char name[64];
        int64_t v;
    } hot[32];
    size_t nh = 0;
    int64_t ksamples = 0;
    for (size_t i = 0; i < n; i++) {
        prb_lang_key_text(l, (unsigned)kf, r[i].key, h, kb, sizeof kb);
        ksamples += r[i].v;
        size_t j;
        for (j = 0; j < nh && strcmp(hot[j].name, kb); j++)
            ;
        if (j == nh && nh < sizeof hot / sizeof hot[0]) {
            snprintf(hot[nh].name, sizeof hot[0].name, "%.63s", kb);
            hot[nh++].v = 0;
        }
        if (j < nh)
            hot[j].v += r[i].v;
    }
    free(r);
    int64_t usamples = val(l, cur, us, 0) - val(l, prev, us, 0);
    fprintf(f, "\n  kernel functions (1 kHz samples: %" PRId64 " kernel, %" PRId64 " user)\n",
            ksamples, usamples);
    for (size_t k = 0; k < rows && k < nh; k++) {
        size_t best = k;
        for (size_t j = k + 1; j < nh; j++)
            if (hot[j].v > hot[best].v)
                best = j;
        if (best != k) {
            struct hot t = hot[k];
            hot[k] = hot[best];
            hot[best] = t;
        }
        fprintf(f, "  %-28s %6" PRId64 " %5.1f%%\n", hot[k].name, hot[k].v,
                ksamples + usamples ? 100.0 * (double)hot[k].v / (double)(ksamples + usamples) : 0);
    }
    /* the histogram, over the last interval */
    int hm = map_named(l, "@hist");
    if (hm >= 0 && cur->slots[hm]) {
        struct prb_slot a, b;
        prb_map_slot(&l->prog.map[hm], cur->slots[hm], 0, &a);
        if (prev->slots[hm])
            prb_map_slot(&l->prog.map[hm], prev->slots[hm], 0, &b);
        uint64_t top = 0, d[33] = {0};
        for (unsigned k = 0; k < 33; k++) {
            d[k] = prb_slot_bucket(&a, k) - (prev->slots[hm] ? prb_slot_bucket(&b, k) : 0);
            top = d[k] > top ? d[k] : top;
        }
        fprintf(f, "\n  %s: duration (us)\n", l->map[hm].where);
        for (unsigned k = 0; k < 33; k++) {
            if (!d[k])
                continue;
            uint64_t lo = k ? 1ull << (k - 1) : 0, hi = k ? 1ull << k : 1;
            unsigned w = top ? (unsigned)(d[k] * 40 / top) : 0;
            fprintf(f, "  [%" PRIu64 ", %" PRIu64 ")%*s%8" PRIu64 " |%.*s%*s|\n", lo, hi,
                    (int)(16 - snprintf(NULL, 0, "[%" PRIu64 ", %" PRIu64 ")", lo, hi)), "", d[k],
                    (int)w, "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@", (int)(40 - w), "");
        }
    }
    fflush(f);
}
