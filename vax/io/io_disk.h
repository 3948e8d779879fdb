/* A disk image: a raw file of 512-byte sectors in order, as SIMH reads
 * and writes them (so an image made on SIMH works here and the other way
 * round).  A file shorter than the drive reads as zeros past its end and
 * grows when written (SIMH writes images lazily); a longer one, or one
 * that is not a whole number of sectors, is refused at attach. */
#ifndef VAX_IO_IO_DISK_H
#define VAX_IO_IO_DISK_H

#include <stddef.h>
#include <stdint.h>

#include "vax/io/io_media.h"

#define IO_SECTOR 512u

struct io_disk {
    int fd;                   /* -1: nothing attached */
    int readonly;
    uint32_t sectors;         /* the drive's capacity */
    char path[256];
    struct io_media_health health; /* a failed host write (io_media.h) */
};

void io_disk_init(struct io_disk *d);
/* Opens `path` for a drive of `sectors` sectors (read-only if asked).
 * Returns 0, or -1 with a message: missing, unreadable, not writable
 * (attach it read-only), wrongly sized. */
int io_disk_attach(struct io_disk *d, const char *path, uint32_t sectors, int readonly,
                   char *err, size_t errlen);
void io_disk_detach(struct io_disk *d);
static inline int io_disk_attached(const struct io_disk *d) { return d->fd >= 0; }
/* Sector transfers; 0, or -1 on a host I/O error (the drive reports a
 * parity/data error).  Reads past the end of a short file give zeros. */
int io_disk_read(struct io_disk *d, uint32_t sector, uint8_t *buf, uint32_t count);
int io_disk_write(struct io_disk *d, uint32_t sector, const uint8_t *buf, uint32_t count);
/* Flushes what the guest wrote to the host's disk (fsync): 0, or -1 with
 * health.host_err set. */
int io_disk_sync(struct io_disk *d);

#endif
