/* Streaming compressor into the block format of TRACE-FORMAT.md §5.
 * Feed records in order; blocks are written as they fill. */
#ifndef SPAM_COMPRESS_H
#define SPAM_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

#include "spam/spam_err.h"
#include "spam/spam_format.h"

struct spam_compressor;

/* Writes the file header (carrying the original header bytes) to fd. */
struct spam_compressor *spam_compressor_new(int fd, const uint8_t *hdr, size_t hdr_len, int level,
                                            struct spam_err *err);
int spam_compressor_add(struct spam_compressor *c, const struct spam_record *r, size_t n,
                        struct spam_err *err);
/* Writes the last block and the end block (with the 0..7 bytes of a
 * truncated last record), frees c.  Does not close fd.  Bytes written go
 * to *out_bytes when not NULL. */
int spam_compressor_finish(struct spam_compressor *c, const uint8_t *tail, size_t tail_len,
                           uint64_t *out_bytes, struct spam_err *err);

#endif
