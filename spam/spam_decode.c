/* The decoder's rare paths: first record, gaps, LDPCTX pairing and process
 * switching, markers, unknown classes. */
#include "spam/spam_decode.h"

#include <stdlib.h>
#include <string.h>

#define NPID 65537

struct spam_decoder *spam_decoder_new(const struct spam_header *h, const struct spam_decode_opts *o)
{
    struct spam_decoder *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->saved = calloc(NPID, sizeof *d->saved);
    if (!d->saved) {
        free(d);
        return NULL;
    }
    if (o)
        d->opts = *o;
    int64_t period = h && h->nicr < 0 ? -(int64_t)h->nicr : 10000;
    if (period > 65536)
        period = 65536; /* a longer interval wraps the low word first */
    d->wrap_gap = (uint16_t)(65536 - period);
    if (d->opts.gap_us == 0) {
        d->opts.gap_us = (uint32_t)(period + period / 2);
        if (d->opts.gap_us > 65535)
            d->opts.gap_us = 65535;
    }
    d->pid = SPAM_PID_UNKNOWN;
    d->uid = -1;
    d->saved[0] = calloc(1, sizeof **d->saved);
    d->pid_hi = 1;
    d->cur = d->saved[0] ? d->saved[0] : &d->spare;
    return d;
}

void spam_decoder_free(struct spam_decoder *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->pid_hi; i++)
        free(d->saved[i]);
    free(d->saved);
    free(d);
}

void spam__decode_warn(struct spam_decoder *d, enum spam_warning_kind k, uint64_t index, uint64_t t,
                       uint32_t value)
{
    d->counts[k]++;
    if (d->nwarnings < SPAM_MAX_WARNINGS)
        d->warnings[d->nwarnings++] = (struct spam_warning){k, index, t, value};
}

static void fill_common(struct spam_decoder *d, struct spam_record r, struct spam_event *e, uint64_t idx)
{
    memset(e, 0, sizeof *e);
    e->index = idx;
    e->t_us = d->t_us;
    e->ev = spam_rec_event(r);
    e->psl_hi = spam_rec_psl_hi(r);
    e->cls = (uint8_t)(e->ev >> 12);
    e->pid = d->pid;
    e->uid = d->uid;
}

static void forget_all(struct spam_decoder *d)
{
    d->spare.depth = 0;
    for (size_t i = 0; i < d->pid_hi; i++)
        if (d->saved[i])
            d->saved[i]->depth = 0;
}

int spam__decode_slow(struct spam_decoder *d, struct spam_record r, uint32_t dus)
{
    struct spam_event *e = &d->slow;
    uint16_t flags = 0;
    uint64_t idx = d->index;
    if (!d->started) {
        d->started = 1;
        /* time starts at the beginning of the first record's ICR period */
        uint16_t us = spam_rec_usec(r);
        d->t_us = us >= d->wrap_gap ? (uint16_t)(us - d->wrap_gap) : us;
        d->icount = spam_rec_icount(r);
    } else if (dus > d->opts.gap_us) {
        flags |= SPAM_EVF_GAP;
        spam__decode_warn(d, SPAM_W_GAP, idx, d->t_us, dus);
    }
    unsigned cls = spam_event_class(spam_rec_event(r));
    if (cls == SPAM_CLASS_LDPCTX || (cls == SPAM_CLASS_PROBE && spam_probe_ext(spam_rec_event(r)))) {
        d->index++;
        d->pending_ldp = cls == SPAM_CLASS_LDPCTX ? 1 : 2;
        d->prb_left = spam_probe_ext(spam_rec_event(r));
        d->prb_got = 0;
        d->ldp_index = idx;
        d->ldp_t = d->t_us;
        d->ldp_ic = d->icount;
        d->ldp_psl = spam_rec_psl_hi(r);
        d->ldp_ev = spam_rec_event(r);
        d->ldp_flags = flags;
        return 0;
    }
    if (cls >= SPAM_CLASS_INTERRUPT && cls <= SPAM_CLASS_REI) {
        /* the fast path handles it; it must not see the first-record or
         * gap condition again */
        uint32_t save = d->opts.gap_us;
        d->opts.gap_us = UINT32_MAX;
        /* last_us/last_ic already hold this record's fields: no advance */
        int rc = spam_decode_step(d, r, e);
        d->opts.gap_us = save;
        e->flags |= flags;
        return rc;
    }
    d->index++;
    fill_common(d, r, e, idx);
    if (cls == SPAM_CLASS_PROBE) { /* a record without values */
        e->vals = d->prb_vals;
        e->nvals = 0;
    } else if (cls == SPAM_CLASS_MARKER) {
        if (spam_event_detail(e->ev) == SPAM_MARKER_ENABLED) {
            flags |= SPAM_EVF_RESYNC;
            spam__decode_warn(d, SPAM_W_RESYNC, idx, d->t_us, e->ev);
            /* Tracing was off for an unknown time: whole ICR periods and
             * instruction-counter wraps may be missing before this. */
            if (idx > 0 && !(flags & SPAM_EVF_GAP)) {
                flags |= SPAM_EVF_GAP;
                spam__decode_warn(d, SPAM_W_GAP, idx, d->t_us, 0);
            }
            forget_all(d);
            d->pid = SPAM_PID_UNKNOWN;
            d->uid = -1;
            e->pid = d->pid;
            e->uid = d->uid;
        }
    } else {
        flags |= SPAM_EVF_UNKNOWN;
        spam__decode_warn(d, SPAM_W_UNKNOWN, idx, d->t_us, e->ev);
    }
    e->flags = flags;
    e->depth = (uint8_t)d->cur->depth;
    e->icount = d->opts.correct_icount ? d->icount - d->hw_interrupts : d->icount;
    return 1;
}

int spam__decode_rare(struct spam_decoder *d, struct spam_record r)
{
    struct spam_event e = {0};
    int rc = spam_decode_step(d, r, &e);
    if (rc)
        d->slow = e;
    return rc;
}

int spam__decode_rare_at(struct spam_decoder *d, const struct spam_record *r)
{
    return spam__decode_rare(d, *r);
}

static struct spam_stack *saved_for(struct spam_decoder *d, int32_t pid)
{
    size_t k = (size_t)(pid + 1);
    if (k >= d->pid_hi)
        d->pid_hi = (uint32_t)k + 1;
    if (!d->saved[k])
        d->saved[k] = calloc(1, sizeof **d->saved); /* NULL: the stack is lost */
    return d->saved[k];
}

/* The probe record whose values are in prb_vals (all, or cut off). */
static void probe_event(struct spam_decoder *d, struct spam_event *e, uint16_t flags)
{
    memset(e, 0, sizeof *e);
    e->index = d->ldp_index;
    e->t_us = d->ldp_t;
    e->ev = d->ldp_ev;
    e->psl_hi = d->ldp_psl;
    e->cls = SPAM_CLASS_PROBE;
    e->flags = flags;
    e->pid = d->pid;
    e->uid = d->uid;
    e->depth = (uint8_t)d->cur->depth;
    e->icount = d->opts.correct_icount ? d->ldp_ic - d->hw_interrupts : d->ldp_ic;
    e->vals = d->prb_vals;
    unsigned n = spam_probe_nvals(d->ldp_ev);
    e->nvals = (uint8_t)(2 * d->prb_got < n ? 2 * d->prb_got : n);
}

int spam__decode_ext(struct spam_decoder *d, struct spam_record r)
{
    struct spam_event *e = &d->slow;
    if (d->pending_ldp == 2) { /* a probe record's values */
        d->index++;
        d->prb_vals[2 * d->prb_got] = r.w0;
        d->prb_vals[2 * d->prb_got + 1] = r.w1;
        d->prb_got++;
        if (--d->prb_left)
            return 0;
        d->pending_ldp = 0;
        probe_event(d, e, d->ldp_flags);
        return 1;
    }
    d->pending_ldp = 0;
    d->index++;
    uint64_t t = d->ldp_t;
    /* switch stacks: the old process's open events stay in its stack */
    d->cur->off_since = t;
    d->pid = spam_ext_pid(r);
    d->uid = spam_ext_uid(r);
    d->major = spam_ext_major(r);
    d->minor = spam_ext_minor(r);
    d->inode = spam_ext_inode(r);
    struct spam_stack *nw = saved_for(d, d->pid);
    if (!nw) {
        nw = &d->spare;
        nw->depth = 0;
    }
    if (nw->depth) /* it was switched out inside its top event */
        nw->f[nw->depth - 1].child_us += t - nw->off_since;
    d->cur = nw;
    memset(e, 0, sizeof *e);
    e->index = d->ldp_index;
    e->t_us = t;
    e->ev = d->ldp_ev;
    e->psl_hi = d->ldp_psl;
    e->cls = SPAM_CLASS_LDPCTX;
    e->flags = d->ldp_flags;
    e->pid = d->pid;
    e->uid = d->uid;
    e->major = d->major;
    e->minor = d->minor;
    e->inode = d->inode;
    if (nw->depth < SPAM_MAX_DEPTH) {
        struct spam_frame *f = &nw->f[nw->depth++];
        *f = (struct spam_frame){d->ldp_index, t, 0, d->ldp_ev, d->ldp_psl};
    }
    e->depth = (uint8_t)nw->depth;
    e->icount = d->opts.correct_icount ? d->ldp_ic - d->hw_interrupts : d->ldp_ic;
    return 1;
}

int spam_decoder_finish(struct spam_decoder *d, struct spam_event *e)
{
    if (!d->pending_ldp)
        return 0;
    if (d->pending_ldp == 2) {
        d->pending_ldp = 0;
        probe_event(d, e, d->ldp_flags | SPAM_EVF_CUTOFF);
        spam__decode_warn(d, SPAM_W_CUTOFF, d->ldp_index, d->ldp_t, d->ldp_ev);
        return 1;
    }
    d->pending_ldp = 0;
    memset(e, 0, sizeof *e);
    e->index = d->ldp_index;
    e->t_us = d->ldp_t;
    e->icount = d->opts.correct_icount ? d->ldp_ic - d->hw_interrupts : d->ldp_ic;
    e->ev = d->ldp_ev;
    e->psl_hi = d->ldp_psl;
    e->cls = SPAM_CLASS_LDPCTX;
    e->flags = d->ldp_flags | SPAM_EVF_CUTOFF;
    e->pid = SPAM_PID_UNKNOWN;
    e->uid = -1;
    e->depth = (uint8_t)d->cur->depth;
    spam__decode_warn(d, SPAM_W_CUTOFF, d->ldp_index, d->ldp_t, d->ldp_ev);
    return 1;
}

uint64_t spam_decoder_open_events(const struct spam_decoder *d)
{
    uint64_t n = d->cur == &d->spare ? d->spare.depth : 0;
    for (size_t i = 0; i < d->pid_hi; i++)
        if (d->saved[i])
            n += d->saved[i]->depth;
    return n;
}
