/* Seeded random numbers (io_random.h). */
#include "vax/io/io_random.h"

uint64_t io_rand_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* -ln(x) for x in (0, 1]: x = f 2^e with f in [1, 2), ln f by the atanh
 * series (|z| <= 1/3: 20 terms are far below double precision). */
static double neg_ln(double x)
{
    int e = 0;
    while (x < 1.0) {
        x *= 2.0;
        e--;
    }
    double z = (x - 1.0) / (x + 1.0), z2 = z * z, term = z, sum = 0.0;
    for (int k = 1; k < 40; k += 2) {
        sum += term / k;
        term *= z2;
    }
    return -(2.0 * sum + e * 0.69314718055994530942);
}

uint64_t io_rand_interarrival(uint64_t *s, double mean, uint64_t cap)
{
    double u = (double)(io_rand_next(s) >> 11) * 0x1p-53; /* [0, 1) */
    double t = neg_ln(1.0 - u) * mean + 0.5;
    if (t < 1.0)
        return 1;
    if (t > (double)cap)
        return cap;
    return (uint64_t)t;
}
