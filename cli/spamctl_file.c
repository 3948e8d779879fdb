/* Whole input files in memory (spamctl_file.h). */
#include "cli/spamctl_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

char *file_read_stream(FILE *f, size_t max, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *b = malloc(cap + 1);
    while (b) {
        n += fread(b + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *nb = cap < max ? realloc(b, cap * 2 + 1) : NULL;
        if (!nb) {
            int e = cap < max ? ENOMEM : EFBIG;
            free(b);
            errno = e;
            return NULL;
        }
        b = nb;
        cap *= 2;
    }
    if (!b) {
        errno = ENOMEM;
        return NULL;
    }
    if (ferror(f)) {
        free(b);
        errno = EIO;
        return NULL;
    }
    if (n > max) {
        free(b);
        errno = EFBIG;
        return NULL;
    }
    b[n] = 0;
    *len = n;
    return b;
}

char *file_read(const char *path, size_t max, size_t *len)
{
    if (!strcmp(path, "-"))
        return file_read_stream(stdin, max, len);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b = file_read_stream(f, max, len);
    int e = errno;
    fclose(f);
    errno = e;
    return b;
}

int file_part_read(void *ctx, uint64_t off, void *buf, uint32_t n)
{
    struct file_part *p = ctx;
    if (off + n > p->size || fseeko(p->f, (off_t)(p->start + off), SEEK_SET) != 0)
        return -1;
    return fread(buf, 1, n, p->f) == n ? 0 : -1;
}
