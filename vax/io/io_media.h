/* Opening a medium's image file, shared by the disk and tape containers. */
#ifndef VAX_IO_IO_MEDIA_H
#define VAX_IO_IO_MEDIA_H

#include <stddef.h>
#include <sys/stat.h>

/* Opens path read-only or read-write and checks it is a regular file,
 * without blocking on a FIFO (microcode/hostfile.h).
 * Returns the descriptor with *st filled, or -1 with a message in err
 * (a file that exists but cannot be written says to attach it :ro). */
int io_media_open(const char *path, int readonly, struct stat *st, char *err, size_t errlen);

#endif
