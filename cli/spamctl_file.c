/* A whole (small) input file in memory (spamctl_file.h). */
#include "cli/spamctl_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

char *file_read_all(const char *path, size_t max, size_t *len)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    int e = buf ? 0 : ENOMEM;
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *p = cap <= max ? realloc(buf, cap * 2 + 1) : NULL;
        if (!p) {
            e = cap > max ? EFBIG : ENOMEM;
            free(buf);
            buf = NULL;
        } else {
            buf = p;
            cap *= 2;
        }
    }
    if (buf && ferror(f)) {
        e = errno ? errno : EIO;
        free(buf);
        buf = NULL;
    }
    if (buf && n > max) {
        e = EFBIG;
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (!buf) {
        errno = e;
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}
