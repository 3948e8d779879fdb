/* A medium's image file, shared by the disk and tape containers: opening
 * it, and for the lock-step check a private copy and a comparison. */
#ifndef VAX_IO_IO_MEDIA_H
#define VAX_IO_IO_MEDIA_H

#include <stddef.h>
#include <sys/stat.h>

/* A host write that failed (pwrite, ftruncate, fsync: a full disk) is the
 * host's error, not only the guest's: a medium remembers the first one and
 * calls `failed` (set by io_system: it stops the machine), and the tool
 * running the machine reports it (io_system_media_error). */
typedef void (*io_media_failed_fn)(void *ctx, const void *medium);

struct io_media_health {
    int written;              /* the guest wrote since the last sync */
    int host_err;             /* errno of the first failed host write or sync, 0 */
    io_media_failed_fn failed;
    void *failed_ctx;
};

/* A host write of `medium` failed with err: remembered if it is the first,
 * and told.  Returns -1. */
int io_media_failed(struct io_media_health *h, const void *medium, int err);
/* Flushes fd if written since the last time (fsync): 0, or -1 when a host
 * write of this medium has ever failed (now or before). */
int io_media_sync(struct io_media_health *h, const void *medium, int fd);

/* Opens path read-only or read-write and checks it is a regular file,
 * without blocking on a FIFO (microcode/hostfile.h).
 * Returns the descriptor with *st filled, or -1 with a message in err
 * (a file that exists but cannot be written says to attach it :ro). */
int io_media_open(const char *path, int readonly, struct stat *st, char *err, size_t errlen);

/* A private copy of the image at path, for a second machine that must
 * write nothing the first reads (the trace cache's lock-step check): a
 * new file made from tmpl (mkstemp's template, rewritten in place) with
 * the same bytes.  0, or -1 with a message (the copy is removed). */
int io_media_copy(const char *path, char *tmpl, char *err, size_t errlen);
/* Whether the images open as fa and fb hold the same bytes: 1, 0, or -1
 * on a host read error. */
int io_media_same(int fa, int fb);

#endif
