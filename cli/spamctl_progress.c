/* A progress line on a terminal (spamctl_progress.h). */
#include "cli/spamctl_progress.h"

#include <stdio.h>
#include <unistd.h>

#define EVERY_NS 250000000 /* a quarter of a second */

static double seconds_since(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

void spamctl_progress_format(char *buf, size_t len, const char *label, uint64_t microcycles,
                             uint64_t instructions, double wall)
{
    snprintf(buf, len, "%s: %.1f s emulated, %.1f M instructions/s", label,
             (double)microcycles * 80e-9, wall > 0 ? (double)instructions / wall / 1e6 : 0.0);
}

void spamctl_progress_start(struct spamctl_progress *p, const char *label, struct vax_machine *m)
{
    p->label = label;
    p->m = m;
    p->tty = label && isatty(STDERR_FILENO);
    p->shown = 0;
    clock_gettime(CLOCK_MONOTONIC, &p->t0);
    p->last = p->t0;
}

void spamctl_progress_cb(void *ctx, uint64_t microcycles, uint64_t max_cycles)
{
    struct spamctl_progress *p = ctx;
    (void)max_cycles;
    if (!p->tty)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if ((now.tv_sec - p->last.tv_sec) * 1000000000L + (now.tv_nsec - p->last.tv_nsec) < EVERY_NS)
        return;
    p->last = now;
    struct vm_stats st;
    vm_get_stats(p->m, &st);
    char line[200];
    spamctl_progress_format(line, sizeof line, p->label, microcycles, st.instructions,
                            seconds_since(&p->t0, &now));
    fprintf(stderr, "\r%-78.78s", line);
    fflush(stderr);
    p->shown = 1;
}

void spamctl_progress_done(struct spamctl_progress *p)
{
    if (p->shown) {
        fprintf(stderr, "\r%78s\r", "");
        fflush(stderr);
    }
    p->shown = 0;
}
