/* Little-endian loads and stores of 16, 32 and 64 bits at any address:
 * the VAX's byte order and that of every file format we read or write
 * (microcode images, trace files, SIMH's disk and tape images, a.out,
 * pcap).  Header-only, and here because microcode/ depends on nothing
 * else of ours: every folder may include it (microcode/README.md). */
#ifndef MICROCODE_LE_H
#define MICROCODE_LE_H

#include <stdint.h>
#include <string.h>

/* Inlined by force: the machine's memory references use them in the
 * trace cache's executor, a function GCC stops inlining into long before
 * its end (vax/machine/vm_hint.h). */
#if defined(__GNUC__)
#define LE_INLINE __attribute__((always_inline)) static inline
#else
#define LE_INLINE static inline
#endif

/* On a little-endian host one load or store (memcpy: any alignment); on
 * another, byte by byte. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LE_HOST 1
#else
#define LE_HOST 0
#endif

LE_INLINE uint16_t le_get16(const uint8_t *p)
{
    if (LE_HOST) {
        uint16_t x;
        memcpy(&x, p, 2);
        return x;
    }
    return (uint16_t)(p[0] | p[1] << 8);
}

LE_INLINE uint32_t le_get32(const uint8_t *p)
{
    if (LE_HOST) {
        uint32_t x;
        memcpy(&x, p, 4);
        return x;
    }
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

LE_INLINE uint64_t le_get64(const uint8_t *p)
{
    if (LE_HOST) {
        uint64_t x;
        memcpy(&x, p, 8);
        return x;
    }
    return le_get32(p) | (uint64_t)le_get32(p + 4) << 32;
}

LE_INLINE void le_put16(uint8_t *p, uint16_t v)
{
    if (LE_HOST) {
        memcpy(p, &v, 2);
        return;
    }
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

LE_INLINE void le_put32(uint8_t *p, uint32_t v)
{
    if (LE_HOST) {
        memcpy(p, &v, 4);
        return;
    }
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

LE_INLINE void le_put64(uint8_t *p, uint64_t v)
{
    if (LE_HOST) {
        memcpy(p, &v, 8);
        return;
    }
    le_put32(p, (uint32_t)v);
    le_put32(p + 4, (uint32_t)(v >> 32));
}

#endif
