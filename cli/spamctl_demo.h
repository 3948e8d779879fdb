/* spamctl demo: the paper's experiment, on the original 4.3BSD
 * (spamctl_demo_bsd43.c) or on the bundled guest (spamctl_demo.c), with
 * one option vocabulary; what both print and write the same way. */
#ifndef SPAMCTL_DEMO_H
#define SPAMCTL_DEMO_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "spam/spam_hist.h"

#define DEMO_LIN_W 100 /* Figure 4's bins: 0.1 ms */
#define DEMO_LIN_N 50  /* and an open last bin from 5 ms */

struct demo_args {
    const char *trace;   /* -o FILE: the traced run's trace (default demo.spam) */
    const char *json;    /* --json FILE: every figure ('-': stdout, no text report) */
    const char *svg;     /* --svg FILE: Figure 4 */
    uint64_t seed;       /* --seed N (default 1) */
    double net_rate;     /* --net-rate R (default 200) */
    double duration;     /* --duration S */
    int duration_set;
    /* 4.3BSD's */
    const char *dist, *disk, *work;
    int users;           /* --users N (default 3) */
    int no_perturbation; /* --no-perturbation */
    /* the bundled guest's */
    const char *image;
    uint32_t net_min, net_max;
    FILE *out;           /* the text report: stdout, or NULL with --json - */
};

int spamctl_demo_bsd43(const struct demo_args *a);

/* The IPL 12 histogram as text: 0.1 ms bins up to 2 ms, then one open
 * bin, bars of '#' (lin: DEMO_LIN_N + 1 bins of DEMO_LIN_W us). */
void demo_print_bars(FILE *f, const uint64_t *lin);
/* "  inclusive n=.. min .. mean .. p50 .. p90 .. p99 .. max .. us" */
void demo_print_pct(FILE *f, const char *name, const struct spam_hist *h);
/* The "hist" member of a demo's JSON (`spamctl hist --merge` reads it):
 * the IPL 12 group (SCB 0xB0) with its linear bins. */
json_t *demo_hist_json(const struct spam_hist *incl, const struct spam_hist *excl,
                       const uint64_t *lin);
/* Figure 4 as SVG (spamctl_svg.h).  0, or -1 after a message. */
int demo_write_svg(const char *path, const struct spam_hist *incl, const uint64_t *lin);
/* Writes the JSON document to a->json ('-': stdout); frees it.  0, or -1
 * after a message. */
int demo_write_json(const struct demo_args *a, json_t *doc);

#endif
