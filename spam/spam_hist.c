#include "spam/spam_hist.h"

#include <string.h>

void spam_hist_init(struct spam_hist *h)
{
    memset(h, 0, sizeof *h);
    h->min = UINT64_MAX;
}

uint64_t spam_hist_bucket_lo(size_t i)
{
    if (i < SPAM_HIST_LINEAR)
        return i;
    size_t k = i - SPAM_HIST_LINEAR;
    unsigned e = (unsigned)(k / SPAM_HIST_SUB) + 8u;
    uint64_t sub = k % SPAM_HIST_SUB + SPAM_HIST_SUB;
    return sub << (e - 7u);
}

uint64_t spam_hist_bucket_hi(size_t i)
{
    if (i + 1 >= SPAM_HIST_BUCKETS)
        return UINT64_MAX;
    return spam_hist_bucket_lo(i + 1) - 1;
}

uint64_t spam_hist_percentile(const struct spam_hist *h, double p)
{
    if (h->count == 0)
        return 0;
    double t = p / 100.0 * (double)h->count;
    uint64_t target = t < 1 ? 1 : (uint64_t)t;
    if ((double)target < t)
        target++;
    if (target > h->count)
        target = h->count;
    uint64_t cum = 0;
    for (size_t i = 0; i < SPAM_HIST_BUCKETS; i++) {
        cum += h->counts[i];
        if (cum >= target) {
            uint64_t v = spam_hist_bucket_hi(i);
            if (v > h->max)
                v = h->max;
            if (v < h->min)
                v = h->min;
            return v;
        }
    }
    return h->max;
}

double spam_hist_mean(const struct spam_hist *h)
{
    return h->count ? (double)h->sum / (double)h->count : 0.0;
}

void spam_hist_add(struct spam_hist *to, const struct spam_hist *from)
{
    for (size_t i = 0; i < SPAM_HIST_BUCKETS; i++)
        to->counts[i] += from->counts[i];
    to->count += from->count;
    to->sum += from->sum;
    if (from->min < to->min)
        to->min = from->min;
    if (from->max > to->max)
        to->max = from->max;
}
