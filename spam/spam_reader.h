/* Streaming trace reader, constant memory.  Reads a raw trace
 * (TRACE-FORMAT.md §4) or a compressed one (§5), told apart by the magic.
 *
 *   r = spam_reader_open_fd(fd, &err);        // NULL: err says why
 *   while ((rc = spam_reader_next(r, &recs, &n)) != SPAM_READ_END)
 *       if (rc == SPAM_READ_DAMAGE) report(spam_reader_err(r)); else use(recs, n);
 *
 * Damage (a truncated last record, a corrupt compressed block) is reported
 * once where it is met; reading then continues with what follows it, when
 * anything can be recovered.  Where the input ends, one more damage may be
 * reported: a read error, a file that shrank while it was read, and for a
 * complete trace (header flag) a record count other than the header's or a
 * CRC-32 mismatch (version 2).  The file is read, never mapped. */
#ifndef SPAM_READER_H
#define SPAM_READER_H

#include <stddef.h>
#include <stdint.h>

#include "spam/spam_format.h"
#include "spam/spam_header.h"

enum { SPAM_READ_END = 0, SPAM_READ_RECORDS = 1, SPAM_READ_DAMAGE = -1 };

struct spam_reader;

/* Reads the header from fd (not closed by the reader). */
struct spam_reader *spam_reader_open_fd(int fd, struct spam_err *err);
/* Reads from memory (the buffer must outlive the reader). */
struct spam_reader *spam_reader_open_mem(const void *data, size_t len, struct spam_err *err);
void spam_reader_close(struct spam_reader *r);

const struct spam_header *spam_reader_header(const struct spam_reader *r);
/* The original header bytes, exactly as in the raw file. */
const uint8_t *spam_reader_header_bytes(const struct spam_reader *r, size_t *len);
int spam_reader_is_compressed(const struct spam_reader *r);

int spam_reader_next(struct spam_reader *r, const struct spam_record **recs, size_t *n);

/* The last damage: offset and message. */
const struct spam_err *spam_reader_err(const struct spam_reader *r);
/* What the last damage was: a short trace (complete header, fewer records:
 * the caller may choose to accept what is there), a CRC mismatch, or any
 * other damage. */
enum spam_damage_kind { SPAM_DAMAGE_DATA = 0, SPAM_DAMAGE_SHORT = 1, SPAM_DAMAGE_CRC = 2 };
int spam_reader_damage_kind(const struct spam_reader *r);
/* Records lost to damage so far (compressed blocks skipped), and bytes. */
uint64_t spam_reader_skipped_records(const struct spam_reader *r);
uint64_t spam_reader_skipped_bytes(const struct spam_reader *r);
/* Records delivered so far. */
uint64_t spam_reader_records(const struct spam_reader *r);
/* Bytes of a truncated last record (0..7), valid once END was returned. */
const uint8_t *spam_reader_tail(const struct spam_reader *r, size_t *len);

#endif
