/* The probe language's output (issue 31): maps printed as bpftrace
 * prints them (count and sum maps sorted by value, histograms with
 * bars), the same as JSON lines (bpftrace's -f json shapes, each map by
 * its name), and histograms as SVG with axes, units and the probe in the
 * title.  Keys that name the same thing (kfunc buckets of one function,
 * comm keys) are merged. */
#ifndef SPAMCTL_PROBE_OUT_H
#define SPAMCTL_PROBE_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "vax/probe/probe_lang.h"

/* Prints map m (its slots as the probe megabyte holds them): at most top
 * entries (0: all; the largest), values divided by div (0 or 1: as
 * they are). */
void probe_print_map(FILE *f, const struct prb_lang *l, unsigned m, const uint8_t *slots,
                     const struct prb_lang_host *h, unsigned top, unsigned div);
/* The same as one JSON line. */
void probe_json_map(FILE *f, const struct prb_lang *l, unsigned m, const uint8_t *slots,
                     const struct prb_lang_host *h);
/* A JSON string (quotes and escapes). */
void probe_json_str(FILE *f, const char *s);
/* Every histogram map (slots[m] for map m; NULL: skipped) as one SVG
 * document; the number of panels drawn. */
unsigned probe_svg(FILE *f, const struct prb_lang *l, const uint8_t *const *slots,
                   const struct prb_lang_host *h);

#endif
