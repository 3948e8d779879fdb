/* The histograms' JSON (`spamctl hist --json`, the demos' --json): every
 * non-empty bucket of the log-linear histogram goes with the percentiles,
 * so that `spamctl hist --merge` adds results exactly, and reads them
 * back. */
#ifndef SPAMCTL_HIST_JSON_H
#define SPAMCTL_HIST_JSON_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "spam/spam_hist.h"

/* {"count", "sum", "min", "mean", "p50", "p90", "p99", "p99_9", "max",
 * "buckets": [[LO, COUNT], ...]} (LO: the bucket's lowest value). */
json_t *hist_json_hist(const struct spam_hist *h);
/* One group of `hist --json`'s "groups": {"group": NAME, "key": KEY,
 * ("class", "vector" | "code", "chm_mode" when by event; "ipl" when by
 * ipl), "inclusive", "exclusive", and with lin "linear": {"width": W,
 * "bins": [N + 1 counts]}}. */
json_t *hist_json_group(const char *by, uint32_t key, const char *name,
                        const struct spam_hist *incl, const struct spam_hist *excl,
                        const uint64_t *lin, uint64_t lin_w, uint64_t lin_n);
/* Prints a JSON value (compact, one line) and a newline; frees it.
 * -1 when it could not be made (out of memory: message printed). */
int hist_json_print(const char *cmd, FILE *f, json_t *v);

struct hist_json_group {
    uint32_t key;
    struct spam_hist incl, excl;
    const uint64_t *lin; /* NULL when the group has no linear bins */
    uint64_t lin_w, lin_n;
};
/* Reads a document holding groups -- `hist --json`'s output, or a
 * demo's --json (its "hist") -- made grouped `by` (event, ipl, class),
 * and calls add for each group (its data live during the call); add
 * returns 0 or -1 (stop).  0, or -1 with a message "spamctl CMD: PATH:
 * ..." printed. */
int hist_json_read(const char *cmd, const char *path, const char *by,
                   int (*add)(void *ctx, const struct hist_json_group *g), void *ctx);
/* 1 if the file's first non-blank byte is '{' (a JSON document, not a
 * trace). */
int hist_json_is_json(const char *path);

#endif
