/* Opening a medium's image file (io_media.h). */
#include "vax/io/io_media.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int io_media_open(const char *path, int readonly, struct stat *st, char *err, size_t errlen)
{
    int fd = open(path, readonly ? O_RDONLY : O_RDWR);
    if (fd < 0) {
        int e = errno;
        if (!readonly && (e == EACCES || e == EROFS) && access(path, R_OK) == 0)
            snprintf(err, errlen, "%s: not writable (%s); attach it read-only (:ro)",
                     path, strerror(e));
        else
            snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -1;
    }
    if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        close(fd);
        return -1;
    }
    return fd;
}
