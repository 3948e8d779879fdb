/* The I/O system's one event queue, in emulated time.  Time is the
 * machine's microcycle count (80 ns each); a device arms a timer for a
 * due microcycle and its callback runs when the machine reaches it (the
 * sequencer asks at IRD, vax/machine/vm_dev.c).  Timers due at the same
 * microcycle fire in the order they were armed, so a run is repeatable
 * cycle for cycle.  Nothing here allocates, prints or exits. */
#ifndef VAX_IO_IO_EVENTS_H
#define VAX_IO_IO_EVENTS_H

#include <stdint.h>

/* Emulated time in microcycles (12.5 per microsecond). */
#define IO_CYCLES_PER_SEC 12500000ull
#define IO_US(x) ((uint64_t)(x) * 25u / 2u)     /* microseconds */
#define IO_MS(x) ((uint64_t)(x) * 12500u)       /* milliseconds */

struct io_events;

typedef void (*io_timer_fn)(void *ctx, uint64_t due);

struct io_timer {
    struct io_events *q;
    io_timer_fn fire;         /* called with the microcycle it was due */
    void *ctx;
    uint64_t due, seq;
    int armed;
    struct io_timer *next;    /* every registered timer */
};

struct io_events {
    const uint64_t *now;      /* the machine's microcycle counter */
    int *wake;                /* set when the earliest due time moves earlier
                               * or a request line rises: the sequencer's
                               * cached answer is stale (NULL: nobody asks) */
    struct io_timer *timers;
    uint64_t next_due;        /* UINT64_MAX when nothing is armed */
    uint64_t seq;             /* arming order, for ties */
    uint64_t fired;           /* timers fired in total (statistics) */
};

void io_events_init(struct io_events *q, const uint64_t *now);
static inline void io_events_wake(struct io_events *q)
{
    if (q->wake)
        *q->wake = 1;
}
/* Registers t with the queue (once, at construction). */
void io_timer_init(struct io_events *q, struct io_timer *t, io_timer_fn fire, void *ctx);
/* Removes t from the queue (at destruction). */
void io_timer_remove(struct io_timer *t);
/* Arms t for microcycle `due` (re-arming moves it). */
void io_timer_at(struct io_timer *t, uint64_t due);
/* Arms t `delay` microcycles from now. */
void io_timer_after(struct io_timer *t, uint64_t delay);
void io_timer_cancel(struct io_timer *t);
static inline int io_timer_armed(const struct io_timer *t) { return t->armed; }

static inline uint64_t io_now(const struct io_events *q) { return *q->now; }
/* Runs every timer due by now, earliest first.  Returns how many fired. */
unsigned io_events_run(struct io_events *q);
static inline uint64_t io_events_next(const struct io_events *q) { return q->next_due; }

#endif
