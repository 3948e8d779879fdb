/* Opening a medium's image file (io_media.h). */
#include "vax/io/io_media.h"
#include "microcode/hostfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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
