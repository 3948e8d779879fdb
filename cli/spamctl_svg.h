/* SVG plots of service-time histograms (`spamctl hist --svg`, the
 * demos' --svg): log2 bins, or with linear bins the paper's Figure 4. */
#ifndef SPAMCTL_SVG_H
#define SPAMCTL_SVG_H

#include <stdint.h>
#include <stdio.h>

#include "spam/spam_hist.h"

struct svg_hist {
    const char *name;             /* the group, "interrupt 0xB0" */
    const struct spam_hist *incl; /* inclusive service times */
    const uint64_t *lin;          /* lin_n + 1 linear bins (the last open), or NULL */
    uint64_t lin_w, lin_n;        /* the same for every plot of a call */
};

/* One plot a histogram (at most 12); with linear bins (hs[0].lin), the
 * share of the events in each bin as bars, else log2 bins. */
void svg_write(FILE *f, const struct svg_hist *hs, size_t n);

#endif
