/* Seeded random numbers for the emulated world outside the CPU (network
 * arrivals and contents): splitmix64 streams and exponential
 * interarrival times computed with + - * / only (no libm), so the same
 * seed gives the same times on every host. */
#ifndef VAX_IO_IO_RANDOM_H
#define VAX_IO_IO_RANDOM_H

#include <stdint.h>

/* The next 64 bits of the stream whose state is *s. */
uint64_t io_rand_next(uint64_t *s);

/* An exponential time with the given mean (in any unit), rounded to the
 * nearest integer and held to [1, cap]. */
uint64_t io_rand_interarrival(uint64_t *s, double mean, uint64_t cap);

#endif
