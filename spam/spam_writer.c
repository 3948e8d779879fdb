#include "spam/spam_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "microcode/le.h"

#define WBUF_RECORDS 8192

struct spam_writer {
    int fd;
    struct spam_header h;
    uint32_t crc;     /* CRC-32 of the record bytes written so far */
    uint64_t written; /* records in the file */
    int failed;       /* errno of the first failed write, 0 while none */
    size_t nbuf;
    uint8_t buf[WBUF_RECORDS * SPAM_RECORD_BYTES];
};

int spam_write_all(int fd, const void *buf, size_t n)
{
    const uint8_t *p = buf;
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

struct spam_writer *spam_writer_open_fd(int fd, const struct spam_header *h, struct spam_err *err)
{
    struct spam_writer *w = calloc(1, sizeof *w);
    if (!w) {
        spam_err_set(err, 0, "out of memory");
        return NULL;
    }
    w->fd = fd;
    w->h = *h;
    w->h.version = SPAM_FILE_VERSION;
    w->h.flags &= ~SPAM_FILE_FLAG_COMPLETE;
    w->h.records = 0;
    w->h.crc = 0;
    w->crc = (uint32_t)crc32(0L, Z_NULL, 0);
    uint8_t hb[SPAM_FILE_HEADER_BYTES];
    spam_header_encode(&w->h, hb);
    if (spam_write_all(fd, hb, sizeof hb) != 0) {
        spam_err_set(err, 0, "cannot write header: %s", strerror(errno));
        free(w);
        return NULL;
    }
    return w;
}

int spam_writer_flush(struct spam_writer *w)
{
    if (w->failed)
        return -1; /* the file is already short: write nothing after the hole */
    if (w->nbuf && spam_write_all(w->fd, w->buf, w->nbuf * SPAM_RECORD_BYTES) != 0) {
        w->failed = errno ? errno : EIO;
    } else if (w->nbuf) {
        w->crc = (uint32_t)crc32(w->crc, w->buf, (uInt)(w->nbuf * SPAM_RECORD_BYTES));
        w->written += w->nbuf;
    }
    w->nbuf = 0;
    return w->failed ? -1 : 0;
}

int spam_writer_append(struct spam_writer *w, const struct spam_record *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (w->nbuf == WBUF_RECORDS && spam_writer_flush(w) != 0)
            return -1;
        uint8_t *p = w->buf + w->nbuf++ * SPAM_RECORD_BYTES;
        le_put32(p, r[i].w0);
        le_put32(p + 4, r[i].w1);
    }
    return w->failed ? -1 : 0;
}

void spam_writer_add_dropped(struct spam_writer *w, uint64_t n) { w->h.dropped += n; }

const char *spam_writer_error(const struct spam_writer *w)
{
    return w->failed ? strerror(w->failed) : NULL;
}

int spam_writer_close(struct spam_writer *w, struct spam_err *err)
{
    int rc = spam_writer_flush(w);
    if (rc != 0)
        spam_err_set(err, 0, "write failed: %s", strerror(w->failed));
    /* a failed write leaves the header incomplete: readers then say the
     * run did not finish rather than trust counts the file does not hold */
    if (rc == 0 && lseek(w->fd, 0, SEEK_SET) == 0) {
        w->h.flags |= SPAM_FILE_FLAG_COMPLETE;
        w->h.records = w->written;
        uint8_t hb[SPAM_FILE_HEADER_BYTES];
        spam_header_encode(&w->h, hb);
        w->h.crc = (uint32_t)crc32_combine(spam_header_crc_start(hb, sizeof hb), w->crc,
                                           (z_off_t)(w->written * SPAM_RECORD_BYTES));
        spam_header_encode(&w->h, hb);
        if (spam_write_all(w->fd, hb, sizeof hb) != 0) {
            spam_err_set(err, 0, "cannot rewrite header: %s", strerror(errno));
            rc = -1;
        }
    }
    if (close(w->fd) != 0 && rc == 0) {
        spam_err_set(err, 0, "close failed: %s", strerror(errno));
        rc = -1;
    }
    free(w);
    return rc;
}

void spam_writer_abandon(struct spam_writer *w)
{
    spam_writer_flush(w);
    close(w->fd);
    free(w);
}
