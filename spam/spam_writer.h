/* Incremental trace-file writer: header first (not complete), records
 * appended and flushed every spam_writer_flush(); close rewrites the header
 * with the final counts and the complete flag when the file is seekable.
 * A killed writer leaves a readable prefix (whole records up to the last
 * flush). */
#ifndef SPAM_WRITER_H
#define SPAM_WRITER_H

#include <stddef.h>

#include "spam/spam_format.h"
#include "spam/spam_header.h"

struct spam_writer;

/* Takes over fd (closed by spam_writer_close).  NULL with err on failure. */
struct spam_writer *spam_writer_open_fd(int fd, const struct spam_header *h, struct spam_err *err);
int spam_writer_append(struct spam_writer *w, const struct spam_record *r, size_t n);
/* Writes buffered records to the file (write(2); no fsync). */
int spam_writer_flush(struct spam_writer *w);
/* Records dropped by the machine, reported in the final header. */
void spam_writer_add_dropped(struct spam_writer *w, uint64_t n);
/* The cause of the first failed write (strerror), or NULL.  After a failed
 * write nothing more is written, and close leaves the header incomplete. */
const char *spam_writer_error(const struct spam_writer *w);
/* Flushes, finalises the header (complete flag, counts, CRC-32), closes.
 * 0 or -1. */
int spam_writer_close(struct spam_writer *w, struct spam_err *err);
/* Closes without finalising (for tests of killed writers). */
void spam_writer_abandon(struct spam_writer *w);

/* Writes all of buf to fd, again after EINTR; 0 or -1 (errno set).  For
 * every trace file writer (this one, the compressor). */
int spam_write_all(int fd, const void *buf, size_t n);

#endif
