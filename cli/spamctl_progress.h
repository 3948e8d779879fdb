/* A progress line on a terminal for a long run of the machine: the stage,
 * the emulated seconds so far and the instructions per second of wall
 * time, rewritten in place on stderr a few times a second, and cleared at
 * the end.  Nothing when stderr is no terminal. */
#ifndef SPAMCTL_PROGRESS_H
#define SPAMCTL_PROGRESS_H

#include <stdint.h>
#include <time.h>

#include "vax/machine/vm.h"

struct spamctl_progress {
    const char *label;
    struct vax_machine *m;
    struct timespec t0, last;
    int tty, shown;
};

void spamctl_progress_start(struct spamctl_progress *p, const char *label, struct vax_machine *m);
/* spamctl_spam's progress callback (ctx: the struct spamctl_progress). */
void spamctl_progress_cb(void *ctx, uint64_t microcycles, uint64_t max_cycles);
/* Clears the line. */
void spamctl_progress_done(struct spamctl_progress *p);
/* Formats "LABEL: 12.3 s emulated, 5.2 M instructions/s" for a run of
 * `microcycles` and `instructions` in `wall` seconds. */
void spamctl_progress_format(char *buf, size_t len, const char *label, uint64_t microcycles,
                             uint64_t instructions, double wall);

#endif
