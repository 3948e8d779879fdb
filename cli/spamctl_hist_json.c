/* The histograms' JSON, written and read back (spamctl_hist_json.h). */
#include "cli/spamctl_hist_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "spam/spam_format.h"
#include "spam/spam_names.h"

static const double pct[] = {50, 90, 99, 99.9};
static const char *const pct_name[] = {"p50", "p90", "p99", "p99_9"};

json_t *hist_json_hist(const struct spam_hist *h)
{
    json_t *o = json_object(), *b = json_array();
    if (!o || !b) {
        json_decref(o);
        json_decref(b);
        return NULL;
    }
    json_object_set_new(o, "count", json_integer((json_int_t)h->count));
    json_object_set_new(o, "sum", json_integer((json_int_t)h->sum));
    json_object_set_new(o, "min", json_integer((json_int_t)(h->count ? h->min : 0)));
    /* three decimals, as the text and CSV print it */
    json_object_set_new(o, "mean", json_real((double)(int64_t)(spam_hist_mean(h) * 1000 + 0.5) / 1000));
    for (unsigned i = 0; i < 4; i++)
        json_object_set_new(o, pct_name[i], json_integer((json_int_t)spam_hist_percentile(h, pct[i])));
    json_object_set_new(o, "max", json_integer((json_int_t)h->max));
    for (size_t i = 0; i < SPAM_HIST_BUCKETS; i++)
        if (h->counts[i])
            json_array_append_new(b, json_pack("[I, I]", (json_int_t)spam_hist_bucket_lo(i),
                                               (json_int_t)h->counts[i]));
    json_object_set_new(o, "buckets", b);
    return o;
}

json_t *hist_json_group(const char *by, uint32_t key, const char *name,
                        const struct spam_hist *incl, const struct spam_hist *excl,
                        const uint64_t *lin, uint64_t lin_w, uint64_t lin_n)
{
    json_t *g = json_object();
    if (!g)
        return NULL;
    json_object_set_new(g, "group", json_string(name));
    json_object_set_new(g, "key", json_integer(key));
    if (!strcmp(by, "event")) {
        unsigned cls = key >> 12;
        json_object_set_new(g, "class", json_string(spam_class_name(cls)));
        if (cls == SPAM_CLASS_CHM) {
            json_object_set_new(g, "code", json_integer(spam_chm_code((uint16_t)key)));
            json_object_set_new(g, "chm_mode", json_integer(spam_chm_mode((uint16_t)key)));
        } else if (cls != SPAM_CLASS_LDPCTX) {
            json_object_set_new(g, "vector", json_integer(key & 0xFFF));
        }
    } else if (!strcmp(by, "ipl")) {
        json_object_set_new(g, "ipl", json_integer(key));
    }
    json_object_set_new(g, "inclusive", hist_json_hist(incl));
    json_object_set_new(g, "exclusive", hist_json_hist(excl));
    if (lin) {
        json_t *bins = json_array();
        for (uint64_t i = 0; bins && i <= lin_n; i++)
            json_array_append_new(bins, json_integer((json_int_t)lin[i]));
        json_object_set_new(g, "linear", json_pack("{s:I, s:o}", "width", (json_int_t)lin_w, "bins",
                                                   bins));
    }
    return g;
}

int hist_json_print(const char *cmd, FILE *f, json_t *v)
{
    if (!v) {
        fprintf(stderr, "spamctl %s: out of memory\n", cmd);
        return -1;
    }
    json_dumpf(v, f, JSON_COMPACT | JSON_REAL_PRECISION(12));
    fputc('\n', f);
    json_decref(v);
    return 0;
}

int hist_json_is_json(const char *path)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : NULL;
    if (!f)
        return 0;
    int c;
    while ((c = fgetc(f)) == ' ' || c == '\t' || c == '\n' || c == '\r')
        ;
    fclose(f);
    return c == '{';
}

/* An integer >= 0 from o[key]; -1 when missing or not one. */
static int get_u64(const json_t *o, const char *key, uint64_t *v)
{
    json_t *x = json_object_get(o, key);
    if (!json_is_integer(x) || json_integer_value(x) < 0)
        return -1;
    *v = (uint64_t)json_integer_value(x);
    return 0;
}

/* A histogram as hist_json_hist writes it, checked: every bucket's LO a
 * bucket's lowest value, their counts adding up to count. */
static const char *read_hist(const json_t *o, struct spam_hist *h)
{
    spam_hist_init(h);
    uint64_t count, sum, min, max;
    if (!json_is_object(o) || get_u64(o, "count", &count) || get_u64(o, "sum", &sum) ||
        get_u64(o, "min", &min) || get_u64(o, "max", &max))
        return "a histogram needs count, sum, min and max (made by an older spamctl?)";
    json_t *b = json_object_get(o, "buckets");
    if (!json_is_array(b))
        return "a histogram without buckets (made by an older spamctl?)";
    uint64_t total = 0;
    size_t i;
    json_t *e;
    json_array_foreach(b, i, e) {
        json_t *lo = json_array_get(e, 0), *n = json_array_get(e, 1);
        if (json_array_size(e) != 2 || !json_is_integer(lo) || !json_is_integer(n) ||
            json_integer_value(lo) < 0 || json_integer_value(n) <= 0)
            return "a bucket is not [LO, COUNT]";
        size_t k = spam_hist_index((uint64_t)json_integer_value(lo));
        if (spam_hist_bucket_lo(k) != (uint64_t)json_integer_value(lo))
            return "a bucket's LO is no bucket's lowest value";
        h->counts[k] += (uint64_t)json_integer_value(n);
        total += (uint64_t)json_integer_value(n);
    }
    if (total != count || (count && (min > max)))
        return "the buckets do not add up to the count";
    h->count = count;
    h->sum = sum;
    h->min = count ? min : UINT64_MAX;
    h->max = count ? max : 0;
    return NULL;
}

int hist_json_read(const char *cmd, const char *path, const char *by,
                   int (*add)(void *ctx, const struct hist_json_group *g), void *ctx)
{
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    if (!doc) {
        fprintf(stderr, "spamctl %s: %s: line %d: %s\n", cmd, path, je.line, je.text);
        return -1;
    }
    json_t *top = doc;
    if (json_is_object(json_object_get(doc, "hist")))
        top = json_object_get(doc, "hist"); /* a demo's result */
    json_t *groups = json_object_get(top, "groups");
    const char *had = json_string_value(json_object_get(top, "by"));
    int rc = 0;
    struct hist_json_group *g = malloc(sizeof *g);
    uint64_t *lin = NULL;
    if (!g) {
        fprintf(stderr, "spamctl %s: out of memory\n", cmd);
        json_decref(doc);
        return -1;
    }
    if (!json_is_array(groups) || !had) {
        fprintf(stderr, "spamctl %s: %s: no histograms in it (give traces, or what 'spamctl hist "
                        "--json' or 'spamctl demo --json' wrote)\n", cmd, path);
        rc = -1;
    } else if (strcmp(had, by) != 0) {
        fprintf(stderr, "spamctl %s: %s: grouped by %s, not by %s (--by)\n", cmd, path, had, by);
        rc = -1;
    }
    size_t i;
    json_t *e;
    if (rc == 0)
        json_array_foreach(groups, i, e) {
            uint64_t key = 0;
            const char *why = get_u64(e, "key", &key) || key > 0xFFFF ? "no key" : NULL;
            if (!why)
                why = read_hist(json_object_get(e, "inclusive"), &g->incl);
            if (!why)
                why = read_hist(json_object_get(e, "exclusive"), &g->excl);
            g->key = (uint32_t)key;
            g->lin = NULL;
            json_t *l = json_object_get(e, "linear");
            if (!why && l) {
                json_t *bins = json_object_get(l, "bins");
                size_t nb = json_array_size(bins);
                free(lin);
                lin = nb ? calloc(nb, sizeof *lin) : NULL;
                if (get_u64(l, "width", &g->lin_w) || !g->lin_w || !lin) {
                    why = "bad linear bins";
                } else {
                    g->lin_n = nb - 1;
                    for (size_t k = 0; k < nb && !why; k++) {
                        json_t *x = json_array_get(bins, k);
                        if (!json_is_integer(x) || json_integer_value(x) < 0)
                            why = "bad linear bins";
                        else
                            lin[k] = (uint64_t)json_integer_value(x);
                    }
                    g->lin = lin;
                }
            }
            if (why) {
                fprintf(stderr, "spamctl %s: %s: group %zu: %s\n", cmd, path, i + 1, why);
                rc = -1;
                break;
            }
            if (add(ctx, g) < 0) {
                rc = -1;
                break;
            }
        }
    free(lin);
    free(g);
    json_decref(doc);
    return rc;
}
