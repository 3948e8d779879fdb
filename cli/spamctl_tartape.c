/* Files on a SIMH .tap tape as a tar archive (spamctl_tartape.h). */
#include "cli/spamctl_tartape.h"
#include "microcode/hostfile.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECORD 10240
#define MTIME 518400000 /* June 1986 */

struct tar {
    uint8_t *data;
    size_t n, cap;
};

static int grow(struct tar *t, size_t more)
{
    if (t->n + more <= t->cap)
        return 0;
    size_t cap = t->cap ? t->cap : RECORD;
    while (cap < t->n + more)
        cap *= 2;
    uint8_t *p = realloc(t->data, cap);
    if (!p)
        return -1;
    memset(p + t->cap, 0, cap - t->cap);
    t->data = p;
    t->cap = cap;
    return 0;
}

static void octal(uint8_t *field, size_t width, unsigned long v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%0*lo", (int)width - 1, v);
    memcpy(field, buf, width - 1); /* and a NUL: the field was zero */
}

/* One member: a 512-byte header and the data padded to 512. */
static int add(struct tar *t, const char *name, const uint8_t *data, size_t len)
{
    size_t blocks = (len + 511) / 512;
    if (strlen(name) >= 100 || grow(t, 512 * (blocks + 1)) < 0)
        return -1;
    uint8_t *h = t->data + t->n;
    memcpy(h, name, strlen(name));
    octal(h + 100, 8, 0644);
    octal(h + 108, 8, 0);
    octal(h + 116, 8, 0);
    octal(h + 124, 12, (unsigned long)len);
    octal(h + 136, 12, MTIME);
    h[156] = '0';
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    memcpy(h + 265, "root", 4);
    memcpy(h + 297, "root", 4);
    octal(h + 329, 8, 0);
    octal(h + 337, 8, 0);
    memset(h + 148, ' ', 8);
    unsigned long sum = 0;
    for (int i = 0; i < 512; i++)
        sum += h[i];
    char ck[8];
    snprintf(ck, sizeof ck, "%06lo", sum);
    memcpy(h + 148, ck, 7); /* six digits, a NUL, the space stays */
    memcpy(h + 512, data, len);
    t->n += 512 * (blocks + 1);
    return 0;
}

int tartape_write(const char *tape, const char *const *files, size_t n, char *err, size_t errlen)
{
    struct tar t = {0};
    for (size_t i = 0; i < n; i++) {
        size_t len;
        uint8_t *data;
        const char *why;
        if (hostfile_read(files[i], 16u << 20, 0, &data, &len, &why) != 0) {
            snprintf(err, errlen, "%s: %s", files[i], why);
            free(t.data);
            return -1;
        }
        const char *base = strrchr(files[i], '/');
        int rc = add(&t, base ? base + 1 : files[i], data, len);
        free(data);
        if (rc < 0) {
            snprintf(err, errlen, "%s: cannot add it to the tape", files[i]);
            free(t.data);
            return -1;
        }
    }
    /* the end: two zero blocks, then whole records */
    size_t end = t.n + 1024;
    end += (RECORD - end % RECORD) % RECORD;
    if (grow(&t, end - t.n) < 0) {
        snprintf(err, errlen, "out of memory");
        free(t.data);
        return -1;
    }
    t.n = end;
    FILE *f = fopen(tape, "wb");
    int ok = f != NULL;
    static const uint8_t len_le[4] = {RECORD & 0xFF, RECORD >> 8 & 0xFF, 0, 0};
    static const uint8_t mark[4] = {0, 0, 0, 0};
    for (size_t off = 0; ok && off < t.n; off += RECORD)
        ok = fwrite(len_le, 1, 4, f) == 4 && fwrite(t.data + off, 1, RECORD, f) == RECORD &&
             fwrite(len_le, 1, 4, f) == 4;
    ok = ok && fwrite(mark, 1, 4, f) == 4 && fwrite(mark, 1, 4, f) == 4;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        snprintf(err, errlen, "%s: %s", tape, strerror(errno ? errno : EIO));
    free(t.data);
    return ok ? 0 : -1;
}
