/* Reading a whole input file into memory, for the commands that parse
 * one (spamctl probe's scripts and the guest's kernel image). */
#ifndef SPAMCTL_FILE_H
#define SPAMCTL_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* All of f, at most max bytes: a malloc'd buffer with a NUL byte after
 * the data and its length in *len, or NULL with errno (EFBIG beyond max,
 * EIO on a read error, ENOMEM). */
char *file_read_stream(FILE *f, size_t max, size_t *len);
/* The same for a path ("-": stdin). */
char *file_read(const char *path, size_t max, size_t *len);

/* A partition of a disk image (for io_bootfile.h's readers): bytes
 * [start, start + size) of f. */
struct file_part {
    FILE *f;
    uint64_t start, size;
};
/* io_read_fn over a struct file_part: 0, or -1 beyond it or on a read
 * error. */
int file_part_read(void *ctx, uint64_t off, void *buf, uint32_t n);

#endif
