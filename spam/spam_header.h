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


#endif
