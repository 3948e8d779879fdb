/* Raw sector images (io_disk.h). */
#include "vax/io/io_disk.h"
#include "vax/io/io_media.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void io_disk_init(struct io_disk *d)
{
    d->fd = -1;
    d->readonly = 0;
    d->sectors = 0;
    d->path[0] = 0;
    d->health = (struct io_media_health){0};
}

int io_disk_attach(struct io_disk *d, const char *path, uint32_t sectors, int readonly,
                   char *err, size_t errlen)
{
    io_disk_detach(d);
    struct stat st;
    int fd = io_media_open(path, readonly, &st, err, errlen);
    if (fd < 0)
        return -1;
    uint64_t cap = (uint64_t)sectors * IO_SECTOR;
    if ((uint64_t)st.st_size > cap || st.st_size % IO_SECTOR) {
        snprintf(err, errlen, "%s: %lld bytes is not a disk image of this drive "
                 "(at most %llu bytes, a whole number of %u-byte sectors)",
                 path, (long long)st.st_size, (unsigned long long)cap, IO_SECTOR);
        close(fd);
        return -1;
    }
    d->fd = fd;
    d->readonly = readonly;
    d->sectors = sectors;
    d->health.written = d->health.host_err = 0;
    snprintf(d->path, sizeof d->path, "%s", path);
    return 0;
}

void io_disk_detach(struct io_disk *d)
{
    if (d->fd >= 0)
        close(d->fd);
    d->fd = -1;
}

int io_disk_read(struct io_disk *d, uint32_t sector, uint8_t *buf, uint32_t count)
{
    if (d->fd < 0 || sector > d->sectors || count > d->sectors - sector)
        return -1;
    size_t want = (size_t)count * IO_SECTOR, got = 0;
    off_t off = (off_t)sector * IO_SECTOR;
    while (got < want) {
        ssize_t r = pread(d->fd, buf + got, want - got, off + (off_t)got);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (r == 0)
            break; /* a short image: zeros from here */
        got += (size_t)r;
    }
    memset(buf + got, 0, want - got);
    return 0;
}

int io_disk_write(struct io_disk *d, uint32_t sector, const uint8_t *buf, uint32_t count)
{
    if (d->fd < 0 || d->readonly || sector > d->sectors || count > d->sectors - sector)
        return -1;
    size_t want = (size_t)count * IO_SECTOR, put = 0;
    off_t off = (off_t)sector * IO_SECTOR;
    while (put < want) {
        ssize_t r = pwrite(d->fd, buf + put, want - put, off + (off_t)put);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return io_media_failed(&d->health, d, r < 0 ? errno : EIO);
        put += (size_t)r;
    }
    d->health.written = 1;
    return 0;
}

int io_disk_sync(struct io_disk *d) { return io_media_sync(&d->health, d, d->fd); }
