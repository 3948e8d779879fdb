/* The event queue (io_events.h).  A handful of timers (one per drive,
 * multiplexer, adapter and script), so a linear scan after each change is
 * cheaper than any heap; the earliest due time is kept for the sequencer's
 * question at IRD, which must be one compare. */
#include "vax/io/io_events.h"

#include <stddef.h>

/* A guest can make a device re-arm itself at once only through a defect
 * in a device; never loop forever on one call. */
#define MAX_FIRINGS_PER_RUN 100000u

void io_events_init(struct io_events *q, const uint64_t *now)
{
    q->now = now;
    q->wake = NULL;
    q->timers = NULL;
    q->next_due = UINT64_MAX;
    q->seq = 0;
    q->fired = 0;
}

static void recompute(struct io_events *q)
{
    uint64_t next = UINT64_MAX;
    for (struct io_timer *t = q->timers; t; t = t->next)
        if (t->armed && t->due < next)
            next = t->due;
    q->next_due = next;
}

void io_timer_init(struct io_events *q, struct io_timer *t, io_timer_fn fire, void *ctx)
{
    t->q = q;
    t->fire = fire;
    t->ctx = ctx;
    t->due = 0;
    t->seq = 0;
    t->armed = 0;
    t->next = q->timers;
    q->timers = t;
}

void io_timer_remove(struct io_timer *t)
{
    struct io_events *q = t->q;
    if (!q)
        return;
    for (struct io_timer **p = &q->timers; *p; p = &(*p)->next)
        if (*p == t) {
            *p = t->next;
            break;
        }
    t->q = NULL;
    recompute(q);
}

void io_timer_at(struct io_timer *t, uint64_t due)
{
    t->due = due;
    t->seq = t->q->seq++;
    t->armed = 1;
    if (due < t->q->next_due) {
        t->q->next_due = due;
        io_events_wake(t->q);
    } else {
        recompute(t->q);
    }
}

void io_timer_after(struct io_timer *t, uint64_t delay)
{
    io_timer_at(t, *t->q->now + delay);
}

void io_timer_cancel(struct io_timer *t)
{
    if (!t->armed)
        return;
    t->armed = 0;
    if (t->due == t->q->next_due)
        recompute(t->q);
}

unsigned io_events_run(struct io_events *q)
{
    unsigned n = 0;
    uint64_t now = *q->now;
    while (q->next_due <= now && n < MAX_FIRINGS_PER_RUN) {
        struct io_timer *best = NULL;
        for (struct io_timer *t = q->timers; t; t = t->next)
            if (t->armed && t->due <= now &&
                (!best || t->due < best->due || (t->due == best->due && t->seq < best->seq)))
                best = t;
        if (!best)
            break;
        best->armed = 0;
        recompute(q);
        n++;
        q->fired++;
        best->fire(best->ctx, best->due);
    }
    return n;
}
