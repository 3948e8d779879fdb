/* A medium's image file: opening it, and for the lock-step check a private
 * copy and a comparison (io_media.h). */
#include "vax/io/io_media.h"
#include "microcode/hostfile.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

int io_media_open(const char *path, int readonly, struct stat *st, char *err, size_t errlen)
{
    const char *why;
    /* without blocking: a FIFO is refused, never waited on */
    int fd = hostfile_open_regular(path, !readonly, 0, &why);
    if (fd < 0) {
        int e = errno;
        if (!readonly && (e == EACCES || e == EROFS) && access(path, R_OK) == 0)
            snprintf(err, errlen, "%s: not writable (%s); attach it read-only (:ro)", path, why);
        else
            snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    if (fstat(fd, st) < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

int io_media_failed(struct io_media_health *h, const void *medium, int err)
{
    if (!h->host_err) {
        h->host_err = err ? err : EIO;
        if (h->failed)
            h->failed(h->failed_ctx, medium);
    }
    return -1;
}

int io_media_sync(struct io_media_health *h, const void *medium, int fd)
{
    if (fd >= 0 && h->written) {
        h->written = 0;
        if (fsync(fd) != 0)
            io_media_failed(h, medium, errno);
    }
    return h->host_err ? -1 : 0;
}

/* Reads up to n bytes at off; the count, 0 at the end, -1 on an error. */
static ssize_t read_at(int fd, uint8_t *buf, size_t n, off_t off)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, buf + got, n - got, off + (off_t)got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

#define MEDIA_CHUNK 65536u

int io_media_copy(const char *path, char *tmpl, char *err, size_t errlen)
{
    static_assert(MEDIA_CHUNK % 512 == 0, "whole sectors");
    int in = open(path, O_RDONLY | O_NONBLOCK);
    if (in < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    int out = mkstemp(tmpl);
    if (out < 0) {
        snprintf(err, errlen, "a copy of %s in %s: %s", path, tmpl, strerror(errno));
        close(in);
        return -1;
    }
    uint8_t *buf = malloc(MEDIA_CHUNK);
    int rc = buf ? 0 : -1, e = ENOMEM;
    for (off_t off = 0; rc == 0;) {
        ssize_t n = read_at(in, buf, MEDIA_CHUNK, off);
        if (n < 0) {
            rc = -1;
            e = errno;
            break;
        }
        if (n == 0)
            break;
        for (ssize_t put = 0; put < n;) {
            ssize_t w = pwrite(out, buf + put, (size_t)(n - put), off + (off_t)put);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                rc = -1;
                e = w < 0 ? errno : ENOSPC;
                break;
            }
            put += w;
        }
        off += (off_t)n;
    }
    free(buf);
    close(in);
    if (close(out) < 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    if (rc < 0) {
        snprintf(err, errlen, "a copy of %s in %s: %s", path, tmpl, strerror(e));
        unlink(tmpl);
    }
    return rc;
}

int io_media_same(int fa, int fb)
{
    uint8_t *a = malloc(2 * MEDIA_CHUNK);
    if (!a)
        return -1;
    uint8_t *b = a + MEDIA_CHUNK;
    int same = 1;
    for (off_t off = 0; same == 1;) {
        ssize_t na = read_at(fa, a, MEDIA_CHUNK, off), nb = read_at(fb, b, MEDIA_CHUNK, off);
        if (na < 0 || nb < 0)
            same = -1;
        else if (na != nb || memcmp(a, b, (size_t)na))
            same = 0;
        else if (na == 0)
            break;
        off += (off_t)na;
    }
    free(a);
    return same;
}
