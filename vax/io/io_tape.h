/* A magnetic tape image in SIMH's .tap format: each record is a 32-bit
 * little-endian byte count n, n data bytes (padded to an even number),
 * and n again; a count of 0 is a tape mark; 0xFFFFFFFF marks the end of
 * the medium (so does the end of the file); counts with bit 31 set are a
 * record in error (its data follow as usual) and 0xFFFFFFFE / 0xFFFEFFFF
 * are erase gaps, skipped.  The whole file is checked at attach, so a
 * corrupt image is refused before the run.  Writing a record or a tape
 * mark erases everything after it, as on a real tape. */
#ifndef VAX_IO_IO_TAPE_H
#define VAX_IO_IO_TAPE_H

#include <stddef.h>
#include <stdint.h>

#include "vax/io/io_media.h"

enum io_tape_status {
    IO_TAPE_OK = 0,
    IO_TAPE_MARK,     /* a tape mark was read or spaced over */
    IO_TAPE_EOM,      /* end of medium: nothing more to read */
    IO_TAPE_BOT,      /* reverse motion at the beginning of tape */
    IO_TAPE_RECERR,   /* a record flagged in error (data still returned) */
    IO_TAPE_IOERR,    /* the host file failed */
    IO_TAPE_WRP,      /* write to a write-locked tape */
};

struct io_tape {
    int fd;           /* -1: nothing attached */
    int readonly;
    uint64_t pos;     /* byte offset of the next record */
    uint64_t size;    /* file size */
    uint64_t records; /* data records found at attach */
    uint64_t marks;   /* tape marks found at attach */
    char path[256];
    struct io_media_health health; /* a failed host write (io_media.h) */
};

void io_tape_init(struct io_tape *t);
int io_tape_attach(struct io_tape *t, const char *path, int readonly, char *err, size_t errlen);
void io_tape_detach(struct io_tape *t);
static inline int io_tape_attached(const struct io_tape *t) { return t->fd >= 0; }
static inline int io_tape_bot(const struct io_tape *t) { return t->pos == 0; }
void io_tape_rewind(struct io_tape *t);

/* Reads the next record into buf (at most max bytes; *len is the full
 * record length, which may be larger).  Reverse reading returns the data
 * in forward order, positioned before the record. */
int io_tape_read_fwd(struct io_tape *t, uint8_t *buf, uint32_t max, uint32_t *len);
int io_tape_read_rev(struct io_tape *t, uint8_t *buf, uint32_t max, uint32_t *len);
/* Spacing moves over one record or tape mark (which it reports). */
int io_tape_space_fwd(struct io_tape *t, uint32_t *len);
int io_tape_space_rev(struct io_tape *t, uint32_t *len);
int io_tape_write(struct io_tape *t, const uint8_t *buf, uint32_t len);
int io_tape_write_mark(struct io_tape *t);
/* Flushes what the guest wrote (fsync): 0, or -1 with health.host_err set. */
int io_tape_sync(struct io_tape *t);

#endif
