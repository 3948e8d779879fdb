/* MAP_POPULATE (Linux) needs more than POSIX */
#define _DEFAULT_SOURCE 1
#include "spam/spam_reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "spam/spam_zfmt.h"

#define RAW_CHUNK (1u << 20) /* bytes per read(2) */

struct spam_reader {
    int fd;
    const uint8_t *mem; /* memory source instead of fd */
    size_t mem_len, mem_pos;
    int mapped; /* mem is an mmap of the file */
    int compressed;
    int eof;   /* the source has no more bytes */
    int done;  /* END returned from now on */
    struct spam_header hdr;
    uint8_t hdr_bytes[SPAM_Z_MAX_HEADER];
    size_t hdr_len;
    uint8_t *buf; /* input window: bytes [off, have) are unread */
    size_t cap, have, off;
    uint64_t base; /* file offset of buf[0] */
    struct spam_record *recs; /* decoded records (compressed, big-endian) */
    struct spam_zcodec *zc;
    uint8_t tail[8];
    size_t tail_len;
    uint64_t records, skipped_records, skipped_bytes;
    struct spam_err err;
};

static size_t src_read(struct spam_reader *r, uint8_t *p, size_t n)
{
    if (r->mem) {
        size_t k = r->mem_len - r->mem_pos;
        if (k > n)
            k = n;
        memcpy(p, r->mem + r->mem_pos, k);
        r->mem_pos += k;
        return k;
    }
    for (;;) {
        ssize_t k = read(r->fd, p, n);
        if (k >= 0)
            return (size_t)k;
        if (errno != EINTR)
            return 0;
    }
}

/* Makes at least `need` unread bytes available unless the input ends;
 * returns the number available. */
static size_t ensure(struct spam_reader *r, size_t need)
{
    if (r->have - r->off >= need || r->eof)
        return r->have - r->off;
    if (r->off) {
        memmove(r->buf, r->buf + r->off, r->have - r->off);
        r->base += r->off;
        r->have -= r->off;
        r->off = 0;
    }
    if (need > r->cap) {
        uint8_t *nb = realloc(r->buf, need);
        if (!nb)
            return r->have;
        r->buf = nb;
        r->cap = need;
    }
    while (r->have < need && !r->eof) {
        size_t want = r->cap - r->have;
        if (want > RAW_CHUNK)
            want = RAW_CHUNK;
        if (r->mem && want > need - r->have)
            want = need - r->have; /* a mapping: copy no more than asked (the
                                      records are then read in place) */
        size_t k = src_read(r, r->buf + r->have, want);
        if (k == 0)
            r->eof = 1;
        r->have += k;
    }
    return r->have - r->off;
}

static uint64_t pos(const struct spam_reader *r) { return r->base + r->off; }

static struct spam_reader *open_common(struct spam_reader *r, struct spam_err *err)
{
    r->cap = 2 * RAW_CHUNK;
    r->buf = malloc(r->cap);
    if (!r->buf) {
        spam_err_set(err, 0, "out of memory");
        goto fail;
    }
    size_t n = ensure(r, SPAM_FILE_HEADER_BYTES);
    const uint8_t *b = r->buf;
    if (n >= 8 && memcmp(b, SPAM_Z_MAGIC, 8) == 0) {
        r->compressed = 1;
        n = ensure(r, SPAM_Z_FILE_FIXED);
        if (n < SPAM_Z_FILE_FIXED) {
            spam_err_set(err, n, "truncated compressed-trace header");
            goto fail;
        }
        if (spam_get16(b + 8) != SPAM_Z_VERSION) {
            spam_err_set(err, 8, "unknown compressed-trace version %u (this reader knows version %u)",
                        spam_get16(b + 8), SPAM_Z_VERSION);
            goto fail;
        }
        size_t h = spam_get32(b + 12);
        if (h < SPAM_FILE_HEADER_BYTES || h > SPAM_Z_MAX_HEADER) {
            spam_err_set(err, 12, "bad original header length %zu", h);
            goto fail;
        }
        n = ensure(r, SPAM_Z_FILE_FIXED + h);
        b = r->buf;
        if (n < SPAM_Z_FILE_FIXED + h) {
            spam_err_set(err, n, "truncated compressed-trace header");
            goto fail;
        }
        uLong crc = crc32(crc32(0L, b, 16), b + SPAM_Z_FILE_FIXED, (uInt)h);
        if ((uint32_t)crc != spam_get32(b + 16)) {
            spam_err_set(err, 16, "compressed-trace header CRC mismatch");
            goto fail;
        }
        struct spam_err e2;
        if (spam_header_decode(b + SPAM_Z_FILE_FIXED, h, &r->hdr, &e2) != 0) {
            spam_err_set(err, SPAM_Z_FILE_FIXED + e2.offset, "%s", e2.msg);
            goto fail;
        }
        memcpy(r->hdr_bytes, b + SPAM_Z_FILE_FIXED, h);
        r->hdr_len = h;
        r->off = SPAM_Z_FILE_FIXED + h;
        r->recs = malloc(SPAM_Z_MAX_BLOCK_RECORDS * sizeof *r->recs);
        r->zc = spam_zcodec_new(6);
        if (!r->recs || !r->zc) {
            spam_err_set(err, 0, "out of memory");
            goto fail;
        }
        return r;
    }
    if (spam_header_decode(b, n, &r->hdr, err) != 0)
        goto fail;
    size_t h = r->hdr.header_size;
    if (h > SPAM_Z_MAX_HEADER) {
        spam_err_set(err, 10, "header size %zu too large", h);
        goto fail;
    }
    n = ensure(r, h);
    if (n < h) {
        spam_err_set(err, n, "truncated header (%zu of %zu bytes)", n, h);
        goto fail;
    }
    memcpy(r->hdr_bytes, r->buf, h);
    r->hdr_len = h;
    r->off = h;
#if !(defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
    r->recs = malloc(RAW_CHUNK);
    if (!r->recs) {
        spam_err_set(err, 0, "out of memory");
        goto fail;
    }
#endif
    return r;
fail:
    spam_reader_close(r);
    return NULL;
}

struct spam_reader *spam_reader_open_fd(int fd, struct spam_err *err)
{
    struct spam_reader *r = calloc(1, sizeof *r);
    if (!r) {
        spam_err_set(err, 0, "out of memory");
        return NULL;
    }
    r->fd = fd;
    /* a regular file is mapped: records are then read in place, no copy */
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size <= (uint64_t)SIZE_MAX) {
        /* a trace of up to 64 MiB is populated: its page tables are filled
         * in one call, not a page fault per 64 KiB as the records are read
         * (the mapping shares the page cache; nothing is copied).  A larger
         * one streams, so as not to read it all before starting. */
#ifdef MAP_POPULATE
        const int populate = st.st_size <= ((off_t)64 << 20) ? MAP_POPULATE : 0;
#else
        const int populate = 0;
#endif
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | populate, fd, 0);
        if (m != MAP_FAILED) {
            posix_madvise(m, (size_t)st.st_size, POSIX_MADV_SEQUENTIAL);
            r->mem = m;
            r->mem_len = (size_t)st.st_size;
            r->mapped = 1;
        }
    }
    return open_common(r, err);
}

struct spam_reader *spam_reader_open_mem(const void *data, size_t len, struct spam_err *err)
{
    struct spam_reader *r = calloc(1, sizeof *r);
    if (!r) {
        spam_err_set(err, 0, "out of memory");
        return NULL;
    }
    r->fd = -1;
    r->mem = len ? data : (const uint8_t *)"";
    r->mem_len = len;
    return open_common(r, err);
}

void spam_reader_close(struct spam_reader *r)
{
    if (!r)
        return;
    if (r->mapped)
        munmap((void *)(uintptr_t)r->mem, r->mem_len);
    free(r->buf);
    free(r->recs);
    spam_zcodec_free(r->zc);
    free(r);
}

const struct spam_header *spam_reader_header(const struct spam_reader *r) { return &r->hdr; }
const uint8_t *spam_reader_header_bytes(const struct spam_reader *r, size_t *len)
{
    *len = r->hdr_len;
    return r->hdr_bytes;
}
int spam_reader_is_compressed(const struct spam_reader *r) { return r->compressed; }
const struct spam_err *spam_reader_err(const struct spam_reader *r) { return &r->err; }
uint64_t spam_reader_skipped_records(const struct spam_reader *r) { return r->skipped_records; }
uint64_t spam_reader_skipped_bytes(const struct spam_reader *r) { return r->skipped_bytes; }
uint64_t spam_reader_records(const struct spam_reader *r) { return r->records; }
const uint8_t *spam_reader_tail(const struct spam_reader *r, size_t *len)
{
    *len = r->tail_len;
    return r->tail;
}

static int next_raw(struct spam_reader *r, const struct spam_record **recs, size_t *n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* in place: the buffered bytes are used up first, then the mapping */
    if (r->mem && r->have == r->off && (uintptr_t)(r->mem + r->mem_pos) % 8 == 0) {
        size_t k = (r->mem_len - r->mem_pos) / SPAM_RECORD_BYTES;
        if (k > RAW_CHUNK / SPAM_RECORD_BYTES)
            k = RAW_CHUNK / SPAM_RECORD_BYTES;
        if (k) {
            *recs = (const struct spam_record *)(const void *)(r->mem + r->mem_pos);
            r->mem_pos += k * SPAM_RECORD_BYTES;
            r->base += k * SPAM_RECORD_BYTES;
            r->records += k;
            *n = k;
            return SPAM_READ_RECORDS;
        }
    }
#endif
    size_t avail = r->have - r->off;
    if (!(r->mem && avail >= SPAM_RECORD_BYTES)) /* a memory source: drain the buffer first */
        avail = ensure(r, RAW_CHUNK);
    size_t k = avail / SPAM_RECORD_BYTES;
    if (k == 0) {
        r->done = 1;
        if (avail == 0)
            return SPAM_READ_END;
        r->tail_len = avail;
        memcpy(r->tail, r->buf + r->off, avail);
        spam_err_set(&r->err, pos(r), "truncated last record (%zu of 8 bytes), skipped", avail);
        r->skipped_bytes += avail;
        r->off += avail;
        return SPAM_READ_DAMAGE;
    }
    const uint8_t *p = r->buf + r->off;
    r->off += k * SPAM_RECORD_BYTES;
    r->records += k;
    *n = k;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    *recs = (const struct spam_record *)(const void *)p; /* buf is malloc-aligned, off % 8 == 0 */
#else
    for (size_t i = 0; i < k; i++) {
        r->recs[i].w0 = spam_get32(p + 8 * i);
        r->recs[i].w1 = spam_get32(p + 8 * i + 4);
    }
    *recs = r->recs;
#endif
    return SPAM_READ_RECORDS;
}

/* After a bad block at `at`: skip to the next block magic after it. */
static void resync(struct spam_reader *r, uint64_t at)
{
    (void)at;
    r->off += 1;
    r->skipped_bytes += 1;
    for (;;) {
        size_t avail = ensure(r, 4);
        if (avail < 4) {
            r->skipped_bytes += avail;
            r->off += avail;
            return;
        }
        const uint8_t *p = r->buf + r->off;
        const uint8_t *q = NULL;
        for (size_t i = 0; i + 4 <= avail && !q; i++)
            if (spam_get32(p + i) == SPAM_Z_BLOCK_MAGIC)
                q = p + i;
        if (q) {
            r->skipped_bytes += (size_t)(q - p);
            r->off += (size_t)(q - p);
            return;
        }
        r->skipped_bytes += avail - 3;
        r->off += avail - 3;
    }
}

static int next_compressed(struct spam_reader *r, const struct spam_record **recs, size_t *n)
{
    for (;;) {
        size_t avail = ensure(r, SPAM_Z_BLOCK_HDR);
        uint64_t at = pos(r);
        if (avail == 0) {
            r->done = 1;
            spam_err_set(&r->err, at, "compressed trace ends without its end block (truncated)");
            return SPAM_READ_DAMAGE;
        }
        const uint8_t *b = r->buf + r->off;
        if (avail < SPAM_Z_BLOCK_HDR) {
            r->done = 1;
            r->skipped_bytes += avail;
            spam_err_set(&r->err, at, "truncated block header (%zu bytes), skipped", avail);
            return SPAM_READ_DAMAGE;
        }
        uint32_t magic = spam_get32(b), type = spam_get32(b + 4), cnt = spam_get32(b + 8);
        uint32_t len = spam_get32(b + 12);
        int plausible = magic == SPAM_Z_BLOCK_MAGIC &&
                        ((type == SPAM_Z_BLOCK_DATA && cnt >= 1 && cnt <= SPAM_Z_MAX_BLOCK_RECORDS &&
                          len <= spam_zblock_bound(cnt)) ||
                         (type == SPAM_Z_BLOCK_END && cnt < 8 && len == 8 + cnt));
        if (!plausible) {
            spam_err_set(&r->err, at, "bad block header, skipping to the next block");
            resync(r, at);
            return SPAM_READ_DAMAGE;
        }
        avail = ensure(r, SPAM_Z_BLOCK_HDR + (size_t)len);
        b = r->buf + r->off;
        if (avail < SPAM_Z_BLOCK_HDR + (size_t)len) {
            r->done = 1;
            r->skipped_bytes += avail;
            if (type == SPAM_Z_BLOCK_DATA)
                r->skipped_records += cnt;
            spam_err_set(&r->err, at, "truncated block (%zu of %u bytes)%s", avail,
                         SPAM_Z_BLOCK_HDR + len,
                         type == SPAM_Z_BLOCK_DATA ? ", its records skipped" : "");
            r->off += avail;
            return SPAM_READ_DAMAGE;
        }
        uLong crc = crc32(crc32(0L, b, 16), b + SPAM_Z_BLOCK_HDR, len);
        if ((uint32_t)crc != spam_get32(b + 16) ||
            (type == SPAM_Z_BLOCK_DATA &&
             spam_zblock_decode(r->zc, b + SPAM_Z_BLOCK_HDR, len, cnt, r->recs) != 0)) {
            if (type == SPAM_Z_BLOCK_DATA)
                r->skipped_records += cnt;
            spam_err_set(&r->err, at, "%s block (%u records): skipped",
                         (uint32_t)crc != spam_get32(b + 16) ? "CRC mismatch in" : "corrupt", cnt);
            resync(r, at);
            return SPAM_READ_DAMAGE;
        }
        r->off += SPAM_Z_BLOCK_HDR + len;
        if (type == SPAM_Z_BLOCK_END) {
            r->tail_len = cnt;
            memcpy(r->tail, b + SPAM_Z_BLOCK_HDR + 8, cnt);
            r->done = 1;
            if (cnt) {
                spam_err_set(&r->err, r->hdr_len + 8 * spam_get64(b + SPAM_Z_BLOCK_HDR),
                             "truncated last record (%u of 8 bytes) in the original, skipped", cnt);
                return SPAM_READ_DAMAGE;
            }
            return SPAM_READ_END;
        }
        r->records += cnt;
        *recs = r->recs;
        *n = cnt;
        return SPAM_READ_RECORDS;
    }
}

int spam_reader_next(struct spam_reader *r, const struct spam_record **recs, size_t *n)
{
    *n = 0;
    if (r->done)
        return SPAM_READ_END;
    return r->compressed ? next_compressed(r, recs, n) : next_raw(r, recs, n);
}
