/* Where a trace's time went: each process's user and kernel time, each
 * interrupt vector's time (exclusive of interrupts nested in it), and
 * idle -- the one per-process CPU accounting of the trace tools
 * (`spamctl hist --cpu`, both demos).
 *
 * Fed the decoder's events in order; the time from one event to the next
 * belongs to the state the first leaves:
 * - inside an interrupt (from its record to the REI that closes it), to
 *   that vector; nested interrupts stack, the innermost gets the time;
 * - otherwise to the current process (the pid of the last LDPCTX): in
 *   user mode after an REI to user mode (of any event: a process
 *   preempted inside an interrupt returns to user mode through that
 *   interrupt's REI), in its kernel after a system call, an exception, an
 *   REI of one of them to kernel mode, and after the LDPCTX until it
 *   returns (an interrupt's REI to kernel mode goes back to the state
 *   before the interrupt);
 * - except after a system call or exception that sleeps, i.e. whose REI
 *   comes after a context switch: the time from it to the switch is idle
 *   (interrupts aside), since an idle loop that writes no records (4.3BSD's)
 *   follows the sleep.  The kernel's path from the call into the idle loop
 *   goes to idle with it (a few tens of microseconds a sleep): a process's
 *   kernel time is a little low, never high.  A call whose REI never comes
 *   (exit, or the end of the events) counts as kernel time.
 * An LDPCTX also forgets the interrupt stack (a switch happens at the
 * bottom of the kernel). */
#ifndef SPAM_CPU_H
#define SPAM_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "spam/spam_decode.h"

#define SPAM_CPU_VECTORS 1024 /* SCB offset / 4 */
#define SPAM_CPU_PIDS 65537   /* pid + 1 (0: unknown) */

struct spam_cpu_proc {
    int32_t pid;          /* -1: events before the first context switch */
    int32_t uid;
    uint64_t user_us, sys_us;
    uint64_t switches;    /* LDPCTX records that switched to it */
    int have_prog;        /* its last LDPCTX had an extended record: */
    uint8_t major, minor; /* the program's device and inode */
    uint16_t inode;
};

struct spam_cpu_vec {
    uint64_t us;    /* exclusive of nested interrupts */
    uint64_t count; /* interrupts taken */
};

struct spam_cpu;

/* NULL when out of memory. */
struct spam_cpu *spam_cpu_new(void);
void spam_cpu_free(struct spam_cpu *c);
/* The next event (in trace order).  0, or -1 when out of memory (the
 * accounting is then incomplete). */
int spam_cpu_event(struct spam_cpu *c, const struct spam_event *e);
/* After the last event: settles the calls still open (kernel time). */
void spam_cpu_finish(struct spam_cpu *c);

/* Results (after spam_cpu_finish): from the first event to the last. */
uint64_t spam_cpu_span(const struct spam_cpu *c);
uint64_t spam_cpu_idle(const struct spam_cpu *c);
/* Per vector (SCB offset / 4); NULL for an index out of range. */
const struct spam_cpu_vec *spam_cpu_vector(const struct spam_cpu *c, unsigned vec);
/* The processes seen, in order of pid (-1 first); *n set. */
const struct spam_cpu_proc *spam_cpu_procs(const struct spam_cpu *c, size_t *n);

#endif
