#include "spam/spam_compress.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "microcode/le.h"
#include "spam/spam_header.h"
#include "spam/spam_writer.h"
#include "spam/spam_zfmt.h"

struct spam_compressor {
    int fd, level;
    int prev_ldp; /* the last record taken is an LDPCTX awaiting its extended record */
    size_t n;
    uint64_t total, bytes;
    struct spam_record *blk;
    struct spam_zcodec *zc;
    uint8_t *out;
};

struct spam_compressor *spam_compressor_new(int fd, const uint8_t *hdr, size_t hdr_len, int level,
                                            struct spam_err *err)
{
    struct spam_compressor *c = calloc(1, sizeof *c);
    if (c) {
        c->blk = malloc(SPAM_Z_MAX_BLOCK_RECORDS * sizeof *c->blk);
        c->zc = spam_zcodec_new(level);
        c->out = malloc(spam_zblock_bound(SPAM_Z_MAX_BLOCK_RECORDS));
    }
    if (!c || !c->blk || !c->zc || !c->out || hdr_len > SPAM_Z_MAX_HEADER) {
        spam_err_set(err, 0, c ? "out of memory or header too large" : "out of memory");
        if (c) {
            free(c->blk);
            spam_zcodec_free(c->zc);
            free(c->out);
            free(c);
        }
        return NULL;
    }
    c->fd = fd;
    c->level = level;
    uint8_t fixed[SPAM_Z_FILE_FIXED];
    memcpy(fixed, SPAM_Z_MAGIC, 8);
    le_put16(fixed + 8, SPAM_Z_VERSION);
    le_put16(fixed + 10, 0);
    le_put32(fixed + 12, (uint32_t)hdr_len);
    uLong crc = crc32(crc32(0L, fixed, 16), hdr, (uInt)hdr_len);
    le_put32(fixed + 16, (uint32_t)crc);
    if (spam_write_all(fd, fixed, sizeof fixed) != 0 || spam_write_all(fd, hdr, hdr_len) != 0) {
        spam_err_set(err, 0, "write failed: %s", strerror(errno));
        free(c->blk);
        spam_zcodec_free(c->zc);
        free(c->out);
        free(c);
        return NULL;
    }
    c->bytes = sizeof fixed + hdr_len;
    return c;
}

static int flush_block(struct spam_compressor *c, struct spam_err *err)
{
    if (c->n == 0)
        return 0;
    size_t len = spam_zblock_encode(c->zc, c->blk, c->n, c->out, spam_zblock_bound(SPAM_Z_MAX_BLOCK_RECORDS));
    if (len == 0) {
        spam_err_set(err, c->bytes, "block encoding failed");
        return -1;
    }
    if (spam_write_all(c->fd, c->out, len) != 0) {
        spam_err_set(err, c->bytes, "write failed: %s", strerror(errno));
        return -1;
    }
    c->bytes += len;
    c->total += c->n;
    c->n = 0;
    return 0;
}

int spam_compressor_add(struct spam_compressor *c, const struct spam_record *r, size_t n,
                        struct spam_err *err)
{
    for (size_t i = 0; i < n; i++) {
        if (c->n >= SPAM_Z_BLOCK_RECORDS && !c->prev_ldp && flush_block(c, err) != 0)
            return -1;
        c->blk[c->n++] = r[i];
        c->prev_ldp = !c->prev_ldp && spam_event_class(spam_rec_event(r[i])) == SPAM_CLASS_LDPCTX;
    }
    return 0;
}

int spam_compressor_finish(struct spam_compressor *c, const uint8_t *tail, size_t tail_len,
                           uint64_t *out_bytes, struct spam_err *err)
{
    int rc = flush_block(c, err);
    if (rc == 0) {
        uint8_t end[SPAM_Z_BLOCK_HDR + 16];
        size_t len = spam_zblock_encode_end(c->total, tail, tail_len > 7 ? 7 : tail_len, end);
        if (spam_write_all(c->fd, end, len) != 0) {
            spam_err_set(err, c->bytes, "write failed: %s", strerror(errno));
            rc = -1;
        }
        c->bytes += len;
    }
    if (out_bytes)
        *out_bytes = c->bytes;
    free(c->blk);
    spam_zcodec_free(c->zc);
    free(c->out);
    free(c);
    return rc;
}
