/* spamctl top's view (issue 31): the probe program it runs in the
 * zero-perturbation mode, and one screen of it from two snapshots of the
 * maps a second apart: CPU by process, interrupts and system calls per
 * second, the hottest kernel functions, one histogram. */
#ifndef SPAMCTL_TOP_H
#define SPAMCTL_TOP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vax/probe/probe_lang.h"

/* The program's text; hist_probe (NULL: kretprobe:ipintr) is the kretprobe
 * or uretprobe whose durations the histogram shows.  buf holds it. */
const char *top_program(const char *hist_probe, char *buf, size_t len);

/* The maps at one moment: each map's slots copied (owned), and the time. */
struct top_snap {
    uint8_t *slots[PRB_MAX_MAPS];
    uint64_t us;         /* emulated microseconds */
};

/* Copies the maps (slots[m] as the machine holds them; NULL: none). 0, or
 * -1 (no memory). */
int top_snap_take(struct top_snap *s, const struct prb_lang *l, const uint8_t *const *slots,
                  uint64_t us);
void top_snap_free(struct top_snap *s);

/* One screen from prev to cur (prev may be empty: since the start):
 * tty clears the screen first; rows limits each table. */
void top_render(FILE *f, const struct prb_lang *l, const struct top_snap *prev,
                const struct top_snap *cur, const struct prb_lang_host *h, int tty,
                unsigned rows, const char *title);

#endif
