/* gen_trace: a seeded synthetic SPAM trace with its ground truth.
 *
 * A small OS-like simulation: 10 ms clock interrupts (IPL 0x18, vector
 * 0xC0), network interrupts (IPL 0x15, vector 0x120) at random times that
 * post an IPL 12 software interrupt (vector 0xB0), CHMK system calls from
 * user mode, some of which block and switch process (LDPCTX + extended
 * record), preemption at clock ticks through an AST (software level 2,
 * vector 0x88); every event closes with an REI, nested as on a VAX.
 *
 *   gen_trace [--seed N] [--ms N] [--drops] [--cut] [--trunc N]
 *             [--truth FILE] OUT.trace
 *
 * --drops: tracing stops for 30 ms once (buffer full), then a "tracing
 * enabled" marker; the header counts the records lost.  --cut: the trace
 * ends with an LDPCTX whose extended record is missing.  --trunc N: N
 * stray bytes (a torn last record) after the records.
 *
 * Truth lines: "R idx t_us icount icount_corrected pid" per event record
 * (pid: the process running when it was written; for LDPCTX the old one),
 * "X idx" per extended record, "E open_idx rei_idx ev incl_us excl_us"
 * per completed event whose records both survived, "D n" dropped records,
 * "C idx" for the cut-off LDPCTX. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spam/spam_format.h"
#include "spam/spam_writer.h"

#define NPROC 5
#define MAXF 32

struct frame {
    uint16_t ev, psl;
    unsigned ipl;
    int64_t remaining, switch_at, work;
    int64_t entry_idx; /* -1: record dropped */
    uint64_t entry_t;
    int kind; /* 0 other, 1 net, 2 clock, 3 blocking chmk, 4 ast */
};

struct proc {
    uint16_t pid, uid, inode;
    uint8_t major, minor;
    int depth;
    struct frame f[MAXF];
    uint64_t blocked_until;
};

struct gen {
    uint64_t rng;
    uint64_t now, ic, hw;
    int64_t idx; /* records written */
    uint64_t dropped;
    uint64_t drop_start, drop_end;
    int in_drop;
    struct spam_writer *w;
    FILE *truth;
    struct proc p[NPROC];
    int cur;
};

static uint64_t rnd(struct gen *g)
{
    g->rng ^= g->rng >> 12;
    g->rng ^= g->rng << 25;
    g->rng ^= g->rng >> 27;
    return g->rng * 0x2545F4914F6CDD1DULL;
}
static uint64_t urange(struct gen *g, uint64_t lo, uint64_t hi) { return lo + rnd(g) % (hi - lo + 1); }
static uint64_t expo(struct gen *g, uint64_t mean)
{
    /* cheap exponential: -mean * ln(u) by repeated halving */
    uint64_t u = rnd(g) >> 11;
    double x = (double)(u + 1) / 9007199254740993.0, l = 0;
    while (x < 0.5) {
        x *= 2;
        l += 0.6931471805599453;
    }
    l += (1 - x) + (1 - x) * (1 - x) / 2 + (1 - x) * (1 - x) * (1 - x) / 3;
    return (uint64_t)(l * (double)mean);
}

static int64_t emit(struct gen *g, uint16_t ev, uint16_t psl, uint32_t w0_override, int is_ext)
{
    if (g->in_drop) {
        g->dropped++;
        return -1;
    }
    struct spam_record r;
    /* The microsecond field is ICR's low word: NICR = -10000 reloads ICR
     * every 10 ms, so it runs 0xD8F0..0xFFFF (TRACE-FORMAT.md §3). */
    uint32_t icr_lo = (uint32_t)(0x10000 - 10000 + g->now % 10000);
    r.w0 = is_ext ? w0_override : (icr_lo << 16 | (g->ic & 0xFFFF));
    r.w1 = (uint32_t)psl << 16 | ev;
    spam_writer_append(g->w, &r, 1);
    if (g->truth) {
        if (is_ext)
            fprintf(g->truth, "X %lld\n", (long long)g->idx);
        else
            fprintf(g->truth, "R %lld %llu %llu %llu %u\n", (long long)g->idx, (unsigned long long)g->now,
                    (unsigned long long)g->ic, (unsigned long long)(g->ic - g->hw), g->p[g->cur].pid);
    }
    return g->idx++;
}

static uint16_t psl_kernel(unsigned ipl, int is) { return (uint16_t)(ipl | (is ? 1u << 10 : 0)); }
static uint16_t psl_user(void) { return (uint16_t)(3u << 8 | 3u << 6); }

static struct proc *curp(struct gen *g) { return &g->p[g->cur]; }

static void push_psl(struct gen *g, uint16_t ev, unsigned ipl, uint16_t psl, int64_t work,
                     int64_t switch_at, int kind);
static void push(struct gen *g, uint16_t ev, unsigned ipl, int is, int64_t work, int64_t switch_at, int kind)
{
    push_psl(g, ev, ipl, psl_kernel(ipl, is), work, switch_at, kind);
}
static void push_psl(struct gen *g, uint16_t ev, unsigned ipl, uint16_t psl, int64_t work,
                     int64_t switch_at, int kind)
{
    struct proc *p = curp(g);
    if (p->depth == MAXF)
        abort();
    struct frame *f = &p->f[p->depth++];
    f->ev = ev;
    f->ipl = ipl;
    f->psl = psl;
    f->remaining = f->work = work;
    f->switch_at = switch_at;
    f->kind = kind;
    f->entry_t = g->now;
    f->entry_idx = emit(g, ev, f->psl, 0, 0);
}

static void advance(struct gen *g, uint64_t dt)
{
    if (!dt)
        return;
    g->now += dt;
    g->ic += dt * 3 + rnd(g) % (dt / 2 + 1);
    struct proc *p = curp(g);
    if (p->depth)
        p->f[p->depth - 1].remaining -= (int64_t)dt;
}

static uint16_t cur_psl(struct gen *g)
{
    struct proc *p = curp(g);
    return p->depth ? p->f[p->depth - 1].psl : psl_user();
}

static int pick_next(struct gen *g)
{
    for (int k = 1; k < NPROC; k++) {
        int c = (g->cur + k) % NPROC;
        if (g->p[c].blocked_until <= g->now)
            return c;
    }
    return -1;
}

static void context_switch(struct gen *g, int to)
{
    int64_t li = emit(g, SPAM_EVENT(SPAM_CLASS_LDPCTX, 0), psl_kernel(0x18, 0), 0, 0);
    struct proc *n = &g->p[to];
    emit(g, n->inode, (uint16_t)(n->minor << 8 | n->major), (uint32_t)n->pid << 16 | n->uid, 1);
    /* ext record: w1 = minor<<24 | major<<16 | inode; emit() put psl<<16|ev */
    g->cur = to;
    struct proc *p = curp(g);
    if (p->depth == MAXF)
        abort();
    struct frame *f = &p->f[p->depth++];
    f->ev = SPAM_EVENT(SPAM_CLASS_LDPCTX, 0);
    f->ipl = 0x18;
    f->psl = psl_kernel(0x18, 0);
    f->remaining = f->work = (int64_t)urange(g, 5, 15);
    f->switch_at = 0;
    f->kind = 0;
    f->entry_t = g->now;
    f->entry_idx = li;
}

int main(int argc, char **argv)
{
    uint64_t seed = 1, ms = 2000;
    int drops = 0, cut = 0, trunc = 0;
    const char *truth = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--ms") && i + 1 < argc)
            ms = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--truth") && i + 1 < argc)
            truth = argv[++i];
        else if (!strcmp(argv[i], "--trunc") && i + 1 < argc)
            trunc = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--drops"))
            drops = 1;
        else if (!strcmp(argv[i], "--cut"))
            cut = 1;
        else
            out = argv[i];
    }
    if (!out) {
        fprintf(stderr, "usage: gen_trace [--seed N] [--ms N] [--drops] [--cut] [--trunc N] [--truth F] OUT\n");
        return 2;
    }
    struct gen G;
    memset(&G, 0, sizeof G);
    struct gen *g = &G;
    g->rng = seed * 0x9E3779B97F4A7C15ULL + 1;
    /* start inside the first 10 ms ICR period: the decoder's time origin */
    g->now = 1000 + rnd(g) % 8000;
    g->ic = 0xF000 + rnd(g) % 0x800;
    for (int i = 0; i < NPROC; i++) {
        g->p[i].pid = (uint16_t)(100 + i);
        g->p[i].uid = (uint16_t)(i == 0 ? 0 : 1000 + i);
        g->p[i].inode = (uint16_t)(2000 + 37 * i);
        g->p[i].major = 3;
        g->p[i].minor = (uint8_t)i;
    }
    uint64_t start = g->now, end = start + ms * 1000;
    g->drop_start = drops ? start + (end - start) / 2 : UINT64_MAX;
    g->drop_end = g->drop_start + 30000;
    struct spam_header h;
    spam_header_init(&h);
    h.seed = seed;
    snprintf(h.guest, sizeof h.guest, "synthetic");
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    struct spam_err err;
    g->w = fd < 0 ? NULL : spam_writer_open_fd(fd, &h, &err);
    if (!g->w) {
        perror(out);
        return 1;
    }
    if (truth && !(g->truth = fopen(truth, "w"))) {
        perror(truth);
        return 1;
    }
    uint64_t next_clock = (start / 10000 + 1) * 10000, next_net = start + expo(g, 3000) + 1;
    uint64_t next_sys = start + expo(g, 1500) + 1;
    int pend_clock = 0, pend_net = 0, pend_soft = 0, pend_ast = 0;
    /* process 0 starts in user mode; the first LDPCTX names it */
    context_switch(g, 0);
    while (g->now < end) {
        if (g->now >= g->drop_start && !g->in_drop && g->now < g->drop_end)
            g->in_drop = 1;
        if (g->in_drop && g->now >= g->drop_end) {
            g->in_drop = 0;
            emit(g, SPAM_EVENT(SPAM_CLASS_MARKER, SPAM_MARKER_ENABLED), cur_psl(g), 0, 0);
        }
        struct proc *p = curp(g);
        unsigned ipl = p->depth ? p->f[p->depth - 1].ipl : 0;
        if (pend_clock && ipl < 0x18) {
            pend_clock = 0;
            g->ic++, g->hw++;
            push(g, SPAM_EVENT(SPAM_CLASS_INTERRUPT, 0xC0), 0x18, 1, (int64_t)urange(g, 20, 60), 0, 2);
            continue;
        }
        if (pend_net && ipl < 0x15) {
            pend_net = 0;
            g->ic++, g->hw++;
            push(g, SPAM_EVENT(SPAM_CLASS_INTERRUPT, 0x120), 0x15, 1, (int64_t)urange(g, 50, 500), 0, 1);
            continue;
        }
        if (pend_soft && ipl < 12) {
            pend_soft = 0;
            push(g, SPAM_EVENT(SPAM_CLASS_INTERRUPT, 0xB0), 12, 0, (int64_t)urange(g, 100, 2000), 0, 0);
            continue;
        }
        if (pend_ast && p->depth == 0) {
            pend_ast = 0;
            int64_t w = (int64_t)urange(g, 10, 20);
            push(g, SPAM_EVENT(SPAM_CLASS_INTERRUPT, 0x88), 2, 0, w, pick_next(g) >= 0 ? w / 2 : 0, 4);
            continue;
        }
        uint64_t t = next_clock < next_net ? next_clock : next_net;
        if (p->depth) {
            struct frame *f = &p->f[p->depth - 1];
            uint64_t te = g->now + (uint64_t)(f->remaining - f->switch_at);
            if (te < t)
                t = te;
        } else if (next_sys < t) {
            t = next_sys < g->now ? g->now : next_sys;
        }
        if (t < g->now)
            t = g->now;
        if (g->now < g->drop_start && t > g->drop_start)
            t = g->drop_start;
        if (g->in_drop && t > g->drop_end)
            t = g->drop_end;
        advance(g, t - g->now);
        if (g->now == next_clock) {
            pend_clock = 1;
            next_clock += 10000;
            continue;
        }
        if (g->now == next_net) {
            pend_net = 1;
            next_net = g->now + 1 + expo(g, 3000);
            continue;
        }
        p = curp(g);
        if (p->depth) {
            struct frame *f = &p->f[p->depth - 1];
            if (f->remaining == f->switch_at && f->switch_at > 0) {
                f->switch_at = 0;
                if (f->kind == 3)
                    p->blocked_until = g->now + 1000 + expo(g, 8000);
                int to = pick_next(g);
                if (to >= 0)
                    context_switch(g, to);
                continue;
            }
            if (f->remaining <= 0) {
                struct frame fr = *f;
                p->depth--;
                uint16_t rei = SPAM_EVENT(SPAM_CLASS_REI, fr.ipl | (fr.psl >> 10 & 1) << 7);
                int64_t ri = emit(g, rei, cur_psl(g), 0, 0);
                if (g->truth && ri >= 0 && fr.entry_idx >= 0)
                    fprintf(g->truth, "E %lld %lld %u %llu %lld\n", (long long)fr.entry_idx,
                            (long long)ri, fr.ev, (unsigned long long)(g->now - fr.entry_t),
                            (long long)fr.work);
                if (fr.kind == 1)
                    pend_soft = 1;
                if (fr.kind == 2 && p->depth == 0 && rnd(g) % 10 < 3)
                    pend_ast = 1;
                if (p->depth == 0)
                    next_sys = g->now + 20 + expo(g, 1500);
                continue;
            }
            continue;
        }
        if (g->now >= next_sys) {
            static const unsigned codes[] = {3, 4, 5, 6, 17, 20, 54, 116};
            unsigned code = codes[rnd(g) % 8];
            int64_t w = (int64_t)urange(g, 10, 300);
            int block = g->cur != 0 && rnd(g) % 4 == 0;
            push_psl(g, SPAM_EVENT(SPAM_CLASS_CHM, code), 0, (uint16_t)(3u << 6), w, block ? w / 2 : 0,
                     block ? 3 : 0);
            next_sys = UINT64_MAX;
            continue;
        }
    }
    if (cut) {
        int64_t li = emit(g, SPAM_EVENT(SPAM_CLASS_LDPCTX, 0), psl_kernel(0x18, 0), 0, 0);
        if (g->truth)
            fprintf(g->truth, "C %lld\n", (long long)li);
    }
    spam_writer_add_dropped(g->w, g->dropped);
    if (g->truth) {
        fprintf(g->truth, "D %llu\n", (unsigned long long)g->dropped);
        fclose(g->truth);
    }
    if (spam_writer_close(g->w, &err) != 0) {
        fprintf(stderr, "%s: %s\n", out, err.msg);
        return 1;
    }
    if (trunc > 0) {
        FILE *f = fopen(out, "ab");
        for (int i = 0; i < trunc && f; i++)
            fputc(0xA5, f);
        if (f)
            fclose(f);
    }
    return 0;
}
