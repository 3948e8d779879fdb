/* Names that belong to the traced guest, not to the trace: system-call
 * names for CHMK codes, handler or device names for SCB vectors, program
 * paths for the (device, inode) pairs of LDPCTX extended records.  They
 * come from a names file (`spamctl names extract` writes one from the
 * guest's kernel image and disk); the trace file itself stays pure data,
 * and every tool works without names, printing numbers.
 *
 * The names file is text, one entry a line, '#' starts a comment line:
 *
 *     syscall CODE NAME          CHMK code (0-1023) -> name, e.g. "syscall 3 read"
 *     vector VEC NAME            SCB offset (0-0xFFC, a multiple of 4) -> name
 *     inode MAJOR,MINOR INO PATH the executable's device and inode -> path
 *
 * Numbers in C notation; NAME and PATH are the rest of the line (spaces
 * allowed, no control characters).  A later line for the same key
 * replaces an earlier one. */
#ifndef SPAM_GNAMES_H
#define SPAM_GNAMES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spam/spam_err.h"

#define SPAM_GNAMES_CODES 1024
#define SPAM_GNAMES_VECTORS 1024 /* SCB offset / 4 */

struct spam_gnames;

struct spam_gnames *spam_gnames_new(void);
void spam_gnames_free(struct spam_gnames *g);
/* Reads a names file; NULL with err (offset = the line's byte offset, the
 * message names the line) on a malformed line, an unreadable file or no
 * memory. */
struct spam_gnames *spam_gnames_load(const char *path, struct spam_err *err);
/* Parses one line (without its newline); 0, or -1 with a message. */
int spam_gnames_parse_line(struct spam_gnames *g, const char *line, char *msg, size_t msglen);

/* Setters (the extractor's): 0, or -1 (bad key, bad name, no memory). */
int spam_gnames_set_syscall(struct spam_gnames *g, unsigned code, const char *name);
int spam_gnames_set_vector(struct spam_gnames *g, unsigned vec, const char *name);
int spam_gnames_set_inode(struct spam_gnames *g, unsigned major, unsigned minor, unsigned ino,
                          const char *path);

/* Lookups: NULL when unknown (g may be NULL: no names). */
const char *spam_gnames_syscall(const struct spam_gnames *g, unsigned code);
const char *spam_gnames_vector(const struct spam_gnames *g, unsigned vec);
const char *spam_gnames_path(const struct spam_gnames *g, unsigned major, unsigned minor, unsigned ino);

/* Counts of each kind, for summaries. */
void spam_gnames_counts(const struct spam_gnames *g, size_t *syscalls, size_t *vectors, size_t *inodes);
/* Writes every entry in the file format (sorted by kind and key); 0 or -1
 * (a failed write: see ferror). */
int spam_gnames_write(const struct spam_gnames *g, FILE *f);

#endif
