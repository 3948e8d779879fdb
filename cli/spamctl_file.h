/* A whole (small) input file in memory, for the commands. */
#ifndef SPAMCTL_FILE_H
#define SPAMCTL_FILE_H

#include <stddef.h>

/* The file's bytes with a NUL after them (malloc'd), *len their count;
 * NULL with errno set: the open's or read's, EISDIR for a directory,
 * EFBIG for a file of more than max bytes, ENOMEM. */
char *file_read_all(const char *path, size_t max, size_t *len);

#endif
