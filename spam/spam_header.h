/* The 128-byte trace-file header (TRACE-FORMAT.md §4): decode and encode. */
#ifndef SPAM_HEADER_H
#define SPAM_HEADER_H

#include <stddef.h>
#include <stdint.h>

#include "spam/spam_err.h"

struct spam_header {
    uint16_t version;
    uint16_t header_size;
    uint32_t flags;
    uint32_t cycle_ps;
    int32_t nicr;
    uint32_t buffer_records;
    uint32_t class_mask;
    uint64_t seed;
    uint32_t ucode_crc;
    uint32_t ucode_len;
    uint64_t dropped;
    uint64_t records;
    char guest[33]; /* NUL-terminated */
    /* version 2, complete files: CRC-32 of the header (this field as 0)
     * and every whole record (TRACE-FORMAT.md §4) */
    uint32_t crc;
};

/* Defaults of the machine: version 2, 128 bytes, 80 ns, NICR -10000,
 * 131072 records, all classes traced, REI tracing on. */
void spam_header_init(struct spam_header *h);

/* Decodes the first n bytes of a file.  Returns 0, or -1 with err set
 * (bad magic, unknown version, bad header size, truncated header). */
int spam_header_decode(const uint8_t *b, size_t n, struct spam_header *h, struct spam_err *err);

/* Writes the 128 bytes of a header (header_size is forced to 128; the
 * CRC field only for version 2 and later). */
void spam_header_encode(const struct spam_header *h, uint8_t out[128]);

/* The CRC-32 (zlib) of header bytes b[0..len) with the CRC field taken as
 * zero: where a complete trace's CRC starts (then the records follow). */
uint32_t spam_header_crc_start(const uint8_t *b, size_t len);

/* Little-endian helpers shared by the library. */
static inline uint16_t spam_get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t spam_get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t spam_get64(const uint8_t *p) { return spam_get32(p) | (uint64_t)spam_get32(p + 4) << 32; }
static inline void spam_put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void spam_put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline void spam_put64(uint8_t *p, uint64_t v)
{
    spam_put32(p, (uint32_t)v);
    spam_put32(p + 4, (uint32_t)(v >> 32));
}

#endif
