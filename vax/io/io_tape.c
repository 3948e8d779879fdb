/* SIMH .tap images (io_tape.h). */
#include "vax/io/io_tape.h"
#include "vax/io/io_media.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TAP_EOM 0xFFFFFFFFu
#define TAP_GAP 0xFFFFFFFEu
#define TAP_HALFGAP 0xFFFEFFFFu
#define TAP_ERR 0x80000000u
#define TAP_MAXREC 0x00FFFFFFu /* 16 MB: anything longer is not a tape record */

void io_tape_init(struct io_tape *t)
{
    t->fd = -1;
    t->readonly = 0;
    t->pos = t->size = t->records = t->marks = 0;
    t->path[0] = 0;
    t->health = (struct io_media_health){0};
}

/* A host write failed: remembered and told; the drive sees an I/O error. */
static int host_failed(struct io_tape *t, int err)
{
    io_media_failed(&t->health, t, err);
    return IO_TAPE_IOERR;
}

int io_tape_sync(struct io_tape *t) { return io_media_sync(&t->health, t, t->fd); }

static int rd(int fd, uint64_t off, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

static int wr(int fd, uint64_t off, const void *buf, size_t n)
{
    size_t put = 0;
    while (put < n) {
        ssize_t r = pwrite(fd, (const char *)buf + put, n - put, (off_t)(off + put));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = EIO;
            return -1;
        }
        put += (size_t)r;
    }
    return 0;
}

static int rd32(int fd, uint64_t off, uint32_t *v)
{
    uint8_t b[4];
    if (rd(fd, off, b, 4) < 0)
        return -1;
    *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return 0;
}

static uint64_t padded(uint32_t n) { return (uint64_t)n + (n & 1); }

/* Checks the whole image: every record's two counts agree and fit. */
static int validate(struct io_tape *t, char *err, size_t errlen)
{
    uint64_t off = 0;
    t->records = t->marks = 0;
    while (off < t->size) {
        uint32_t n;
        if (t->size - off < 4 || rd32(t->fd, off, &n) < 0) {
            snprintf(err, errlen, "%s: truncated record header at byte %llu", t->path,
                     (unsigned long long)off);
            return -1;
        }
        if (n == TAP_EOM)
            return 0;
        if (n == 0) {
            t->marks++;
            off += 4;
            continue;
        }
        if (n == TAP_GAP || n == TAP_HALFGAP) {
            off += n == TAP_GAP ? 4 : 2;
            continue;
        }
        uint32_t len = n & ~TAP_ERR;
        uint32_t tail;
        if (len > TAP_MAXREC || off + 8 + padded(len) > t->size ||
            rd32(t->fd, off + 4 + padded(len), &tail) < 0 || tail != n) {
            snprintf(err, errlen, "%s: not a SIMH tape image (bad record at byte %llu)",
                     t->path, (unsigned long long)off);
            return -1;
        }
        t->records++;
        off += 8 + padded(len);
    }
    return 0;
}

int io_tape_attach(struct io_tape *t, const char *path, int readonly, char *err, size_t errlen)
{
    io_tape_detach(t);
    struct stat st;
    int fd = io_media_open(path, readonly, &st, err, errlen);
    if (fd < 0)
        return -1;
    t->fd = fd;
    t->readonly = readonly;
    t->health.written = t->health.host_err = 0;
    t->size = (uint64_t)st.st_size;
    t->pos = 0;
    snprintf(t->path, sizeof t->path, "%s", path);
    if (validate(t, err, errlen) < 0) {
        io_tape_detach(t);
        return -1;
    }
    return 0;
}

void io_tape_detach(struct io_tape *t)
{
    if (t->fd >= 0)
        close(t->fd);
    t->fd = -1;
    t->pos = 0;
}

void io_tape_rewind(struct io_tape *t) { t->pos = 0; }

/* The count at pos, skipping erase gaps forward.  IO_TAPE_OK with *n,
 * or IO_TAPE_EOM. */
static int header_fwd(struct io_tape *t, uint32_t *n)
{
    for (;;) {
        if (t->pos >= t->size || t->size - t->pos < 4)
            return IO_TAPE_EOM;
        if (rd32(t->fd, t->pos, n) < 0)
            return IO_TAPE_IOERR;
        if (*n == TAP_GAP) {
            t->pos += 4;
            continue;
        }
        if (*n == TAP_HALFGAP) {
            t->pos += 2;
            continue;
        }
        return *n == TAP_EOM ? IO_TAPE_EOM : IO_TAPE_OK;
    }
}

static int move_fwd(struct io_tape *t, uint8_t *buf, uint32_t max, uint32_t *len)
{
    uint32_t n;
    *len = 0;
    if (t->fd < 0)
        return IO_TAPE_IOERR;
    int st = header_fwd(t, &n);
    if (st != IO_TAPE_OK)
        return st;
    if (n == 0) {
        t->pos += 4;
        return IO_TAPE_MARK;
    }
    uint32_t l = n & ~TAP_ERR;
    if (buf && rd(t->fd, t->pos + 4, buf, l < max ? l : max) < 0)
        return IO_TAPE_IOERR;
    *len = l;
    t->pos += 8 + padded(l);
    return (n & TAP_ERR) ? IO_TAPE_RECERR : IO_TAPE_OK;
}

static int move_rev(struct io_tape *t, uint8_t *buf, uint32_t max, uint32_t *len)
{
    *len = 0;
    if (t->fd < 0)
        return IO_TAPE_IOERR;
    for (;;) {
        if (t->pos < 4)
            return IO_TAPE_BOT;
        uint32_t n;
        if (rd32(t->fd, t->pos - 4, &n) < 0)
            return IO_TAPE_IOERR;
        if (n == TAP_GAP) {
            t->pos -= 4;
            continue;
        }
        if (n == 0) {
            t->pos -= 4;
            return IO_TAPE_MARK;
        }
        uint32_t l = n & ~TAP_ERR;
        if (n == TAP_EOM || t->pos < 8 + padded(l))
            return IO_TAPE_IOERR;
        t->pos -= 8 + padded(l);
        if (buf && rd(t->fd, t->pos + 4, buf, l < max ? l : max) < 0)
            return IO_TAPE_IOERR;
        *len = l;
        return (n & TAP_ERR) ? IO_TAPE_RECERR : IO_TAPE_OK;
    }
}

int io_tape_read_fwd(struct io_tape *t, uint8_t *buf, uint32_t max, uint32_t *len)
{
    return move_fwd(t, buf, max, len);
}

int io_tape_read_rev(struct io_tape *t, uint8_t *buf, uint32_t max, uint32_t *len)
{
    return move_rev(t, buf, max, len);
}

int io_tape_space_fwd(struct io_tape *t, uint32_t *len) { return move_fwd(t, NULL, 0, len); }
int io_tape_space_rev(struct io_tape *t, uint32_t *len) { return move_rev(t, NULL, 0, len); }

/* Writes at pos and erases the rest of the tape. */
static int put(struct io_tape *t, const uint8_t *data, uint32_t len, int mark)
{
    if (t->fd < 0)
        return IO_TAPE_IOERR;
    if (t->readonly)
        return IO_TAPE_WRP;
    uint8_t h[4] = {(uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16), (uint8_t)(len >> 24)};
    uint64_t at = t->pos;
    t->health.written = 1;
    if (wr(t->fd, at, h, 4) < 0)
        return host_failed(t, errno);
    uint64_t end = at + 4;
    if (!mark) {
        static const uint8_t zero = 0;
        if (wr(t->fd, end, data, len) < 0 || ((len & 1) && wr(t->fd, end + len, &zero, 1) < 0) ||
            wr(t->fd, end + padded(len), h, 4) < 0)
            return host_failed(t, errno);
        end += padded(len) + 4;
    }
    if (ftruncate(t->fd, (off_t)end) < 0)
        return host_failed(t, errno);
    t->pos = t->size = end;
    return IO_TAPE_OK;
}

int io_tape_write(struct io_tape *t, const uint8_t *buf, uint32_t len)
{
    if (len == 0 || len > TAP_MAXREC)
        return IO_TAPE_IOERR;
    return put(t, buf, len, 0);
}

int io_tape_write_mark(struct io_tape *t) { return put(t, NULL, 0, 1); }
