#include "spam/spam_reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "microcode/le.h"
#include "spam/spam_zfmt.h"

#define RAW_CHUNK (1u << 20) /* bytes per read(2) */

struct spam_reader {
    int fd;
    const uint8_t *mem; /* memory source instead of fd */
    size_t mem_len, mem_pos;
    int compressed;
    int eof;   /* the source has no more bytes */
    int done;  /* the records are over; the end checks come next */
    int ended; /* END returned from now on */
    int read_errno;   /* a read(2) failed: its errno */
    int damaged;      /* damage other than a torn last record was reported */
    int damage_kind;  /* of the last damage (enum spam_damage_kind) */
    uint64_t src_bytes;   /* bytes read from fd */
    uint64_t size_at_open; /* st_size of a regular file when opened, else 0 */
    uint32_t crc;         /* CRC-32 of the header and the records delivered */
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
        if (k >= 0) {
            r->src_bytes += (uint64_t)k;
            return (size_t)k;
        }
        if (errno != EINTR) {
            r->read_errno = errno; /* reported where the input ends */
            return 0;
        }
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
            want = need - r->have; /* memory: copy no more than asked (the
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
    r->crc = (uint32_t)crc32(0L, Z_NULL, 0);
    if (n >= 8 && memcmp(b, SPAM_Z_MAGIC, 8) == 0) {
        r->compressed = 1;
        n = ensure(r, SPAM_Z_FILE_FIXED);
        if (n < SPAM_Z_FILE_FIXED) {
            spam_err_set(err, n, "truncated compressed-trace header");
            goto fail;
        }
        if (le_get16(b + 8) != SPAM_Z_VERSION) {
            spam_err_set(err, 8, "unknown compressed-trace version %u (this reader knows version %u)",
                        le_get16(b + 8), SPAM_Z_VERSION);
            goto fail;
        }
        size_t h = le_get32(b + 12);
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
        if ((uint32_t)crc != le_get32(b + 16)) {
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
        r->crc = spam_header_crc_start(r->hdr_bytes, h);
        r->off = SPAM_Z_FILE_FIXED + h;
        r->recs = malloc(SPAM_Z_MAX_BLOCK_RECORDS * sizeof *r->recs);
        r->zc = spam_zcodec_new(6);
        if (!r->recs || !r->zc) {
            spam_err_set(err, 0, "out of memory");
            goto fail;
        }
        return r;
    }
    if (r->read_errno && n < SPAM_FILE_HEADER_BYTES) {
        spam_err_set(err, n, "cannot read: %s", strerror(r->read_errno));
        goto fail;
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
    r->crc = spam_header_crc_start(r->hdr_bytes, h);
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
    /* The file is read with read(2), never mapped: a mapped file that
     * another process truncates kills its reader with SIGBUS.  A file that
     * shrinks while it is read is reported where the input ends. */
    struct stat st;
    if (fstat(fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            spam_err_set(err, 0, "is a directory");
            free(r);
            return NULL;
        }
        if (S_ISREG(st.st_mode) && st.st_size > 0)
            r->size_at_open = (uint64_t)st.st_size;
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
            r->crc = (uint32_t)crc32(r->crc, r->mem + r->mem_pos, (uInt)(k * SPAM_RECORD_BYTES));
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
    r->crc = (uint32_t)crc32(r->crc, p, (uInt)(k * SPAM_RECORD_BYTES));
    r->off += k * SPAM_RECORD_BYTES;
    r->records += k;
    *n = k;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    *recs = (const struct spam_record *)(const void *)p; /* buf is malloc-aligned, off % 8 == 0 */
#else
    for (size_t i = 0; i < k; i++) {
        r->recs[i].w0 = le_get32(p + 8 * i);
        r->recs[i].w1 = le_get32(p + 8 * i + 4);
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
            if (le_get32(p + i) == SPAM_Z_BLOCK_MAGIC)
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
        uint32_t magic = le_get32(b), type = le_get32(b + 4), cnt = le_get32(b + 8);
        uint32_t len = le_get32(b + 12);
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
        if ((uint32_t)crc != le_get32(b + 16) ||
            (type == SPAM_Z_BLOCK_DATA &&
             spam_zblock_decode(r->zc, b + SPAM_Z_BLOCK_HDR, len, cnt, r->recs) != 0)) {
            if (type == SPAM_Z_BLOCK_DATA)
                r->skipped_records += cnt;
            spam_err_set(&r->err, at, "%s block (%u records): skipped",
                         (uint32_t)crc != le_get32(b + 16) ? "CRC mismatch in" : "corrupt", cnt);
            resync(r, at);
            return SPAM_READ_DAMAGE;
        }
        r->off += SPAM_Z_BLOCK_HDR + len;
        if (type == SPAM_Z_BLOCK_END) {
            r->tail_len = cnt;
            memcpy(r->tail, b + SPAM_Z_BLOCK_HDR + 8, cnt);
            r->done = 1;
            if (cnt) {
                spam_err_set(&r->err, r->hdr_len + 8 * le_get64(b + SPAM_Z_BLOCK_HDR),
                             "truncated last record (%u of 8 bytes) in the original, skipped", cnt);
                return SPAM_READ_DAMAGE;
            }
            return SPAM_READ_END;
        }
        r->records += cnt;
        *recs = r->recs;
        *n = cnt;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        r->crc = (uint32_t)crc32(r->crc, (const uint8_t *)r->recs, (uInt)(cnt * SPAM_RECORD_BYTES));
#else
        for (uint32_t i = 0; i < cnt; i++) {
            uint8_t rb[8];
            le_put32(rb, r->recs[i].w0);
            le_put32(rb + 4, r->recs[i].w1);
            r->crc = (uint32_t)crc32(r->crc, rb, 8);
        }
#endif
        return SPAM_READ_RECORDS;
    }
}

/* Where the input ends: a read error, a file that shrank while it was
 * read, and for a complete trace the record count and the CRC-32 of the
 * header.  Returns 1 with r->err set when something is wrong. */
static int end_checks(struct spam_reader *r)
{
    const struct spam_header *h = &r->hdr;
    uint64_t at = pos(r), held = r->records + r->skipped_records;
    r->damage_kind = SPAM_DAMAGE_DATA;
    if (r->read_errno) {
        spam_err_set(&r->err, at, "read error: %s", strerror(r->read_errno));
        return 1;
    }
    if (r->size_at_open && r->src_bytes < r->size_at_open) {
        spam_err_set(&r->err, at, "the file shrank while it was read (%llu of %llu bytes)",
                     (unsigned long long)r->src_bytes, (unsigned long long)r->size_at_open);
        return 1;
    }
    if (!(h->flags & SPAM_FILE_FLAG_COMPLETE))
        return 0;
    if (held < h->records) {
        r->damage_kind = SPAM_DAMAGE_SHORT;
        spam_err_set(&r->err, at, "short trace: the header says %llu records, the file holds %llu",
                     (unsigned long long)h->records, (unsigned long long)held);
        return 1;
    }
    if (held > h->records) {
        spam_err_set(&r->err, at, "the header says %llu records, the file holds %llu",
                     (unsigned long long)h->records, (unsigned long long)held);
        return 1;
    }
    if (h->version >= 2 && !r->damaged && r->crc != h->crc) {
        r->damage_kind = SPAM_DAMAGE_CRC;
        spam_err_set(&r->err, at,
                     "CRC-32 mismatch: the header says 0x%08X, its bytes and the records give "
                     "0x%08X (the trace is corrupt)",
                     h->crc, r->crc);
        return 1;
    }
    return 0;
}

int spam_reader_next(struct spam_reader *r, const struct spam_record **recs, size_t *n)
{
    *n = 0;
    if (r->ended)
        return SPAM_READ_END;
    if (!r->done) {
        int rc = r->compressed ? next_compressed(r, recs, n) : next_raw(r, recs, n);
        if (rc == SPAM_READ_DAMAGE) {
            r->damage_kind = SPAM_DAMAGE_DATA;
            /* a torn last record leaves the whole records checkable */
            if (r->tail_len == 0)
                r->damaged = 1;
        }
        if (rc != SPAM_READ_END)
            return rc;
    }
    r->ended = 1;
    return end_checks(r) ? SPAM_READ_DAMAGE : SPAM_READ_END;
}

int spam_reader_damage_kind(const struct spam_reader *r) { return r->damage_kind; }
