/* The decoder: one record in, at most one event out.
 *
 * It rebuilds absolute microseconds and the 64-bit IRD count from the
 * 16-bit fields (monotonic unwrapping: a backward step of the
 * microsecond field adds |NICR|, ICR's reload period; of the instruction
 * field, 65536),
 * flags gaps too long for that to be certain, pairs each LDPCTX record
 * with its extended record, attributes every event to the process of the
 * last context switch, and matches each REI with the event it returns
 * from (a stack of open events per process, since a process can be
 * switched out inside a system call), giving inclusive and exclusive
 * service times.  Exclusive time leaves out nested traced events and the
 * time the owning process was switched out.
 *
 * spam_decode_step() is inline so streaming consumers run at memory speed;
 * the rare cases are out of line in spam_decode.c. */
#ifndef SPAM_DECODE_H
#define SPAM_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "spam/spam_format.h"
#include "spam/spam_header.h"

#define SPAM_MAX_DEPTH 32
#define SPAM_MAX_WARNINGS 16
#define SPAM_PID_UNKNOWN (-1)

/* Event flags. */
enum {
    SPAM_EVF_GAP = 1u << 0,       /* gap before this record too long: reconstruction ambiguous */
    SPAM_EVF_UNMATCHED = 1u << 1, /* REI with no open event */
    SPAM_EVF_CUTOFF = 1u << 2,    /* LDPCTX whose extended record (or a probe record whose
                                   * values) the trace ends without */
    SPAM_EVF_UNKNOWN = 1u << 3,   /* invalid (all-zero) or reserved class */
    SPAM_EVF_RESYNC = 1u << 4,    /* tracing re-enabled: open events forgotten */
    SPAM_EVF_OVERFLOW = 1u << 5,  /* nesting deeper than SPAM_MAX_DEPTH: not tracked */
};

struct spam_event {
    uint64_t index; /* record index in the trace (0-based) */
    uint64_t t_us;  /* reconstructed absolute microseconds */
    uint64_t icount;
    uint16_t ev, psl_hi;
    uint8_t cls;
    uint8_t depth; /* open events (of the current process) after this one */
    uint16_t flags;
    int32_t pid; /* current process; for LDPCTX the new one; -1 unknown */
    int32_t uid;
    uint8_t major, minor;
    uint16_t inode;
    /* REI matched with the event it returns from: */
    uint64_t open_index, open_t_us, incl_us, excl_us;
    uint16_t open_ev, open_psl;
    /* a probe record (class 7): its values, valid until the next step */
    const uint32_t *vals;
    uint8_t nvals;
};

struct spam_decode_opts {
    int correct_icount; /* the paper's correction: count entry points, not IRDs */
    int no_service;     /* keep only nesting depths: no open_*, incl/excl (faster; for counting) */
    uint32_t gap_us;    /* a step longer than this is ambiguous (0: 1.5 x |NICR|) */
};

enum spam_warning_kind { SPAM_W_GAP, SPAM_W_UNMATCHED, SPAM_W_CUTOFF, SPAM_W_UNKNOWN,
                         SPAM_W_RESYNC, SPAM_W_OVERFLOW, SPAM_W_KINDS };

struct spam_warning {
    enum spam_warning_kind kind;
    uint64_t index, t_us;
    uint32_t value; /* gap length in us, or the event id */
};

struct spam_frame {
    uint64_t index, t_us, child_us;
    uint16_t ev, psl;
};

struct spam_stack {
    uint32_t depth;
    uint64_t off_since; /* when the process was switched out */
    struct spam_frame f[SPAM_MAX_DEPTH + 1]; /* + a spare slot for the branch-free push */
};

struct spam_decoder {
    struct spam_decode_opts opts;
    uint64_t index, t_us, icount;
    uint64_t hw_interrupts; /* kept only as far as opts.correct_icount needs it
                               (spam_decode_run() skips it without) */
    uint16_t last_us, last_ic;
    /* ICR's low word runs from 0x10000 - |NICR| up to 0xFFFF and then
     * reloads, so a backward step spans |NICR| microseconds, not 65536:
     * the 16-bit difference is corrected by wrap_gap = 65536 - |NICR|. */
    uint16_t wrap_gap;
    int started;
    int pending_ldp;           /* 1: an LDPCTX waits for its extended record;
                                * 2: a probe record for its values */
    uint64_t ldp_index, ldp_t, ldp_ic;
    uint16_t ldp_psl, ldp_ev;
    uint16_t ldp_flags;
    unsigned prb_left, prb_got;        /* the probe record's value records */
    uint32_t prb_vals[SPAM_PROBE_MAX_VALUES + 1];
    int32_t pid, uid;
    uint8_t major, minor;
    uint16_t inode;
    struct spam_stack *cur;    /* the current process's stack: one of saved[], or spare */
    struct spam_stack **saved; /* per pid + 1 (0 = unknown), allocated lazily */
    uint32_t pid_hi;           /* above every pid + 1 seen (and every saved[] in use) */
    struct spam_stack spare;   /* when allocating one fails */
    struct spam_event slow; /* the rare paths fill this; the inline step copies it, so the
                               caller's event never escapes and can live in registers */
    uint64_t counts[SPAM_W_KINDS];
    struct spam_warning warnings[SPAM_MAX_WARNINGS];
    unsigned nwarnings;
};

/* NULL when out of memory. */
struct spam_decoder *spam_decoder_new(const struct spam_header *h, const struct spam_decode_opts *o);
void spam_decoder_free(struct spam_decoder *d);
/* At the end of the trace: emits a cut-off LDPCTX, or a probe record
 * missing some of its values, if one is pending (returns 1), else 0. */
int spam_decoder_finish(struct spam_decoder *d, struct spam_event *e);
/* Open events left at the end (all processes). */
uint64_t spam_decoder_open_events(const struct spam_decoder *d);

/* Out of line: */
int spam__decode_slow(struct spam_decoder *d, struct spam_record r, uint32_t dus);
int spam__decode_ext(struct spam_decoder *d, struct spam_record r);
void spam__decode_warn(struct spam_decoder *d, enum spam_warning_kind k, uint64_t index,
                       uint64_t t, uint32_t value);
/* spam_decode_step() out of line, the event (when it returns 1) in d->slow:
 * for the rare records of spam_decode_run(). */
int spam__decode_rare(struct spam_decoder *d, struct spam_record r);
/* The same, for the record at *r (so that the streaming loop need not keep
 * the record's value for the rare path). */
int spam__decode_rare_at(struct spam_decoder *d, const struct spam_record *r);

static inline int spam_vector_is_software(unsigned vec) { return vec >= 0x84 && vec <= 0xBC; }

/* Returns 1 with *e filled when the record completes an event, 0 when it
 * does not (an LDPCTX waiting for its extended record, a probe record
 * for its values).  The open_*,
 * incl_us and excl_us fields are meaningful only for an REI without
 * SPAM_EVF_UNMATCHED.  The common path has no data-dependent branches:
 * pushes and pops are done with conditional moves. */
/* The end of a fast-path event: the new nesting depth, the flag and
 * warning when a push found the stack full or an REI found it empty, the
 * instruction count. */
static inline int spam__decode_finish(struct spam_decoder *d, struct spam_stack *s,
                                      struct spam_event *e, uint32_t dep, unsigned is_rei,
                                      unsigned push, unsigned pop, uint64_t idx, uint64_t t,
                                      uint16_t ev)
{
    dep = dep + push - pop;
    s->depth = dep;
    e->depth = (uint8_t)dep;
    unsigned bad = (is_rei & !pop) | (!is_rei & !push);
    e->flags = (uint16_t)(bad ? (is_rei ? SPAM_EVF_UNMATCHED : SPAM_EVF_OVERFLOW) : 0);
    if (__builtin_expect(bad, 0))
        spam__decode_warn(d, is_rei ? SPAM_W_UNMATCHED : SPAM_W_OVERFLOW, idx, t, ev);
    e->icount = d->icount - (d->opts.correct_icount ? d->hw_interrupts : 0);
    return 1;
}

#define SPAM__FAST_CLASSES ((1u << SPAM_CLASS_INTERRUPT) | (1u << SPAM_CLASS_EXCEPTION) | \
                            (1u << SPAM_CLASS_CHM) | (1u << SPAM_CLASS_REI))
static inline int spam_decode_step(struct spam_decoder *d, struct spam_record r, struct spam_event *e)
{
    if (__builtin_expect(d->pending_ldp, 0)) {
        int rc = spam__decode_ext(d, r);
        *e = d->slow;
        return rc;
    }
    uint16_t us = spam_rec_usec(r), ic = spam_rec_icount(r);
    uint32_t dus = (uint16_t)(us - d->last_us);
    if (us < d->last_us)
        dus -= d->wrap_gap;
    /* A field outside ICR's range (e.g. written while the clock was not
     * running) makes dus wrap around: the step is unknown, so time does
     * not advance and the slow path reports a gap. */
    uint64_t t = d->t_us + (dus > 0xFFFF ? 0 : dus);
    d->t_us = t;
    d->icount += (uint16_t)(ic - d->last_ic);
    d->last_us = us;
    d->last_ic = ic;
    uint16_t ev = spam_rec_event(r);
    unsigned cls = ev >> 12;
    if (__builtin_expect(dus > d->opts.gap_us || !((SPAM__FAST_CLASSES >> cls) & 1u) || !d->started, 0))
    {
        int rc = spam__decode_slow(d, r, dus);
        if (rc)
            *e = d->slow;
        return rc;
    }
    uint64_t idx = d->index++;
    uint16_t psl = spam_rec_psl_hi(r);
    e->index = idx;
    e->t_us = t;
    e->ev = ev;
    e->psl_hi = psl;
    e->cls = (uint8_t)cls;
    e->pid = d->pid;
    e->uid = d->uid;
    struct spam_stack *s = d->cur;
    uint32_t dep = s->depth;
    unsigned is_rei = cls == SPAM_CLASS_REI;
    unsigned vec = ev & 0xFFF;
    d->hw_interrupts += (cls == SPAM_CLASS_INTERRUPT) & !spam_vector_is_software(vec);
    if (d->opts.no_service) {
        unsigned pop = is_rei & (dep != 0), push = !is_rei & (dep < SPAM_MAX_DEPTH);
        return spam__decode_finish(d, s, e, dep, is_rei, push, pop, idx, t, ev);
    }
    /* pop: the top frame (a harmless stale slot when there is none) */
    const struct spam_frame *top = &s->f[(dep - 1) & (SPAM_MAX_DEPTH - 1)];
    uint64_t incl = t - top->t_us;
    e->open_index = top->index;
    e->open_t_us = top->t_us;
    e->open_ev = top->ev;
    e->open_psl = top->psl;
    e->incl_us = incl;
    e->excl_us = incl - top->child_us;
    unsigned pop = is_rei & (dep != 0);
    /* the parent of the popped frame is charged its inclusive time */
    s->f[(dep - 2) & (SPAM_MAX_DEPTH - 1)].child_us += (pop & (dep >= 2)) ? incl : 0;
    /* push: always written; above the top (or in the spare slot when
     * full), so it is harmless when not kept */
    unsigned push = !is_rei & (dep < SPAM_MAX_DEPTH);
    struct spam_frame *f = &s->f[dep < SPAM_MAX_DEPTH ? dep : SPAM_MAX_DEPTH];
    f->index = idx;
    f->t_us = t;
    f->child_us = 0;
    f->ev = ev;
    f->psl = psl;
    return spam__decode_finish(d, s, e, dep, is_rei, push, pop, idx, t, ev);
}

/* The same as calling spam_decode_step() on each of the n records and
 * fn(ctx, &event) for each event, but with the decoder's state in
 * registers: for streaming consumers (stat, hist).  fn should be a static
 * inline function so the compiler inlines it here.  Returns the number of
 * events passed to fn. */
static inline __attribute__((always_inline)) size_t
spam__decode_run(struct spam_decoder *d, const struct spam_record *recs, size_t n,
                 void (*fn)(void *ctx, const struct spam_event *e), void *ctx, const int service,
                 const int correct)
{
    uint64_t t = d->t_us, icount = d->icount, hw = d->hw_interrupts;
    /* record i's index is base + i (the rare paths may count otherwise) */
    uint64_t base = d->index;
    /* the last record's first word: usec << 16 | icount */
    uint32_t lastw = (uint32_t)d->last_us << 16 | d->last_ic;
    const uint32_t gap = d->opts.gap_us;
    struct spam_stack *s = d->cur;
    uint32_t dep = s->depth;
    int32_t pid = d->pid, uid = d->uid;
    const uint32_t wrap_gap = d->wrap_gap;
    /* one compare finds gaps and the decoder's rare states: lim is -1 while
     * the next record must take the rare path whatever its step */
    int64_t lim = d->pending_ldp || !d->started ? -1 : (int64_t)gap;
    size_t nskip = 0; /* records without an event */
    /* e never escapes (the rare paths fill their own event), so with an
     * inlined fn its fields stay in registers */
    struct spam_event e = {0};
    for (size_t i = 0; i < n; i++) {
        struct spam_record r = recs[i];
        const uint32_t w0 = r.w0;
        uint32_t dus = (uint16_t)((w0 >> 16) - (lastw >> 16));
        if (w0 < (lastw & 0xFFFF0000u)) /* the usec field stepped back */
            dus -= wrap_gap;
        uint16_t ev = spam_rec_event(r);
        unsigned cls = ev >> 12;
        if (__builtin_expect(((int64_t)dus > lim) | !((SPAM__FAST_CLASSES >> cls) & 1u), 0)) {
            /* the rare paths work on the decoder itself */
            d->t_us = t, d->icount = icount, d->index = base + i, d->hw_interrupts = hw;
            d->last_us = (uint16_t)(lastw >> 16), d->last_ic = (uint16_t)lastw;
            s->depth = dep;
            int got = spam__decode_rare_at(d, recs + i);
            t = d->t_us, icount = d->icount, base = d->index - (i + 1), hw = d->hw_interrupts;
            lastw = (uint32_t)d->last_us << 16 | d->last_ic;
            s = d->cur;
            dep = s->depth;
            pid = d->pid, uid = d->uid;
            lim = d->pending_ldp || !d->started ? -1 : (int64_t)gap;
            if (got)
                fn(ctx, &d->slow);
            else
                nskip++;
            continue;
        }
        t += dus;
        icount += (uint16_t)(w0 - lastw);
        lastw = w0;
        const uint64_t idx = base + i;
        uint16_t psl = spam_rec_psl_hi(r);
        e.index = idx;
        e.t_us = t;
        e.ev = ev;
        e.psl_hi = psl;
        e.cls = (uint8_t)cls;
        e.pid = pid;
        e.uid = uid;
        unsigned is_rei = cls == SPAM_CLASS_REI;
        if (correct) { /* hw_interrupts matters only for the correction */
            unsigned vec = ev & 0xFFF;
            hw += (cls == SPAM_CLASS_INTERRUPT) & !spam_vector_is_software(vec);
        }
        /* one deeper for an entry, one less for an REI; outside 0..MAX
         * (unsigned: an REI at depth 0 wraps) is the rare case, an REI
         * with no open event or nesting too deep, where the depth stays */
        uint32_t ndep = dep + 1 - 2 * is_rei;
        e.flags = 0;
        if (__builtin_expect(ndep > SPAM_MAX_DEPTH, 0)) {
            e.flags = is_rei ? SPAM_EVF_UNMATCHED : SPAM_EVF_OVERFLOW;
            spam__decode_warn(d, is_rei ? SPAM_W_UNMATCHED : SPAM_W_OVERFLOW, idx, t, ev);
            ndep = dep;
        }
        if (service && ndep < dep) {
            /* a pop; branches here: REIs and entries mostly alternate,
             * which the predictor learns, and each side does only its
             * own work */
            const struct spam_frame *top = &s->f[dep - 1];
            uint64_t incl = t - top->t_us;
            e.open_index = top->index;
            e.open_t_us = top->t_us;
            e.open_ev = top->ev;
            e.open_psl = top->psl;
            e.incl_us = incl;
            e.excl_us = incl - top->child_us;
            if (dep >= 2)
                s->f[dep - 2].child_us += incl;
        } else {
            e.open_index = e.open_t_us = e.incl_us = e.excl_us = 0;
            e.open_ev = e.open_psl = 0;
            if (service && ndep > dep) {
                struct spam_frame *f = &s->f[dep];
                f->index = idx;
                f->t_us = t;
                f->child_us = 0;
                f->ev = ev;
                f->psl = psl;
            }
        }
        dep = ndep;
        e.depth = (uint8_t)dep;
        e.icount = icount - (correct ? hw : 0);
        fn(ctx, &e);
    }
    d->t_us = t, d->icount = icount, d->index = base + n, d->hw_interrupts = hw;
    d->last_us = (uint16_t)(lastw >> 16), d->last_ic = (uint16_t)lastw;
    s->depth = dep;
    return n - nskip;
}

/* The loop specialised for the options, so none is tested per record. */
static inline __attribute__((always_inline)) size_t
spam_decode_run(struct spam_decoder *d, const struct spam_record *recs, size_t n,
                void (*fn)(void *ctx, const struct spam_event *e), void *ctx)
{
    if (d->opts.no_service)
        return d->opts.correct_icount ? spam__decode_run(d, recs, n, fn, ctx, 0, 1)
                                      : spam__decode_run(d, recs, n, fn, ctx, 0, 0);
    return d->opts.correct_icount ? spam__decode_run(d, recs, n, fn, ctx, 1, 1)
                                  : spam__decode_run(d, recs, n, fn, ctx, 1, 0);
}

#endif
