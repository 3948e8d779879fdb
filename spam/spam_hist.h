/* An HDR-style log-linear histogram of non-negative integers (microseconds):
 * values below 256 are exact; above, every power-of-two range is split
 * into 128 equal sub-buckets, so a bucket's width is at most 1/128 (0.8 %)
 * of its values.  Count, sum, min and max are exact.  Fixed size, no
 * allocation after creation, O(1) recording. */
#ifndef SPAM_HIST_H
#define SPAM_HIST_H

#include <stddef.h>
#include <stdint.h>

#define SPAM_HIST_LINEAR 256u
#define SPAM_HIST_SUB 128u
#define SPAM_HIST_MAX_LOG2 40u /* values >= 2^40 are clamped into the last bucket */
#define SPAM_HIST_BUCKETS (SPAM_HIST_LINEAR + (SPAM_HIST_MAX_LOG2 - 8u) * SPAM_HIST_SUB)

struct spam_hist {
    uint64_t count, sum, min, max;
    uint64_t counts[SPAM_HIST_BUCKETS];
};

void spam_hist_init(struct spam_hist *h);

static inline size_t spam_hist_index(uint64_t v)
{
    /* branch-free: the top bit's position, at least 7 (below 256 the
     * shift is 0 and the index is v) */
    unsigned sh = (63u - (unsigned)__builtin_clzll(v | 0xFF)) - 7u;
    size_t i = (size_t)sh * SPAM_HIST_SUB + (size_t)(v >> sh);
    return i < SPAM_HIST_BUCKETS ? i : SPAM_HIST_BUCKETS - 1;
}

static inline void spam_hist_record(struct spam_hist *h, uint64_t v)
{
    h->counts[spam_hist_index(v)]++;
    h->count++;
    h->sum += v;
    if (v < h->min)
        h->min = v;
    if (v > h->max)
        h->max = v;
}

/* Lowest and highest value a bucket holds. */
uint64_t spam_hist_bucket_lo(size_t i);
uint64_t spam_hist_bucket_hi(size_t i);

/* The value at percentile p (0..100]: the highest value equivalent to the
 * bucket holding the ceil(p% * count)-th value, capped at max; 0 if empty. */
uint64_t spam_hist_percentile(const struct spam_hist *h, double p);
double spam_hist_mean(const struct spam_hist *h);
void spam_hist_add(struct spam_hist *to, const struct spam_hist *from);

#endif
