/* libFuzzer target: the disk-reading side of `spamctl names extract` and
 * of the console's boot (vax/io/io_bootfile.h): an input is a partition
 * holding a 4.2BSD file system.  Every name is walked and /vmunix,
 * /etc/init and /boot are read.  A crash, a sanitizer report, a read
 * outside the input, a path that is not absolute or too long, or a walk
 * that reads far more than the input holds is a bug.  Seeds:
 * make_ufs_seeds.py (a small tree and the damaged ones of issue 33). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vax/io/io_bootfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct part {
    const uint8_t *d;
    size_t n;
    uint64_t read; /* bytes read */
};

static int rd(void *ctx, uint64_t off, void *buf, uint32_t n)
{
    struct part *p = ctx;
    if (off > p->n || n > p->n - off)
        return -1;
    memcpy(buf, p->d + off, n);
    p->read += n;
    return 0;
}

static int name_fn(void *ctx, const char *path, uint32_t ino, uint16_t mode)
{
    (void)mode;
    (void)ino;
    size_t l = strnlen(path, IO_UFS_PATH_MAX);
    if (path[0] != '/' || l >= IO_UFS_PATH_MAX)
        __builtin_trap();
    ++*(unsigned long *)ctx;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct part p = {data, size, 0};
    char err[300];
    unsigned long names = 0;
    if (io_ufs_walk(rd, &p, name_fn, &names, err, sizeof err) != 0 && !memchr(err, 0, sizeof err))
        __builtin_trap();
    /* directories are read once each, a block at a time: together no more
     * than the data area (which lies in the input), plus the superblock,
     * an inode and an indirect block or two per name */
    if (p.read > 4 * (uint64_t)size + 4096 * (uint64_t)(names + 1))
        __builtin_trap();
    static const char *const files[] = {"/vmunix", "/etc/init", "/boot"};
    for (size_t i = 0; i < 3; i++) {
        uint8_t *d = NULL;
        uint32_t n = 0;
        if (io_ufs_read(rd, &p, files[i], &d, &n, err, sizeof err) == 0) {
            if (n > IO_BOOTFILE_MAX)
                __builtin_trap();
            free(d);
        }
    }
    return 0;
}
