/* The compressed trace format (TRACE-FORMAT.md §5): constants and the
 * in-memory block codec.  A block holds up to SPAM_Z_BLOCK_RECORDS records
 * (one more when it would otherwise end between an LDPCTX record and its
 * extended record), split into columns, delta-coded and deflated. */
#ifndef SPAM_ZFMT_H
#define SPAM_ZFMT_H

#include <stddef.h>
#include <stdint.h>

#include "spam/spam_format.h"

#define SPAM_Z_MAGIC "SPAMTRZ" /* 8 bytes with the NUL */
#define SPAM_Z_VERSION 2u
#define SPAM_Z_FILE_FIXED 20u          /* magic, version, reserved, H, CRC */
#define SPAM_Z_BLOCK_MAGIC 0x425A5053u /* "SPZB" */
#define SPAM_Z_BLOCK_HDR 20u
#define SPAM_Z_BLOCK_DATA 1u
#define SPAM_Z_BLOCK_END 2u
#define SPAM_Z_BLOCK_RECORDS 65536u
#define SPAM_Z_MAX_BLOCK_RECORDS (SPAM_Z_BLOCK_RECORDS + 1u)
#define SPAM_Z_MAX_HEADER 4096u /* largest original header accepted */
#define SPAM_Z_STREAMS 5u       /* deflate streams in a data block */
#define SPAM_Z_PAYLOAD_HDR (16u + 4u * SPAM_Z_STREAMS)
#define SPAM_Z_MODE_CONTEXT 1u /* payload mode bit 0: context predictor of the IRD delta */
#define SPAM_Z_MAX_SYMBOLS 255u /* dictionary entries; index 255 = escape */
#define SPAM_Z_CTX_BITS 16u     /* instruction-count predictor: 2^16 contexts */

/* Codec state (zlib streams and scratch), reused from block to block. */
struct spam_zcodec;
struct spam_zcodec *spam_zcodec_new(int level);
void spam_zcodec_free(struct spam_zcodec *z);

/* Upper bound of an encoded data block (header + payload) of n records. */
size_t spam_zblock_bound(size_t n);

/* Encodes n records (1..SPAM_Z_MAX_BLOCK_RECORDS) as one data block, header
 * included, into out (cap >= spam_zblock_bound(n)).  Returns the bytes
 * written, 0 on failure. */
size_t spam_zblock_encode(struct spam_zcodec *z, const struct spam_record *r, size_t n, uint8_t *out,
                          size_t cap);

/* Decodes the payload of a data block of n records.  0 or -1 (corrupt). */
int spam_zblock_decode(struct spam_zcodec *z, const uint8_t *payload, size_t len, size_t n,
                       struct spam_record *out);

/* Encodes the end block: total records and the 0..7 bytes of a truncated
 * last record.  Returns the bytes written (out must hold 36). */
size_t spam_zblock_encode_end(uint64_t total, const uint8_t *tail, size_t tail_len, uint8_t *out);

#endif
