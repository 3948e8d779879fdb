/* The 8600 console's boot (vm.h, vm_console_boot): what the console
 * subsystem does before the CPU runs a single instruction of the guest.
 * It reads the standalone `boot` from the boot medium on its own (here:
 * the host reads the image; no guest cycles pass), loads it at physical
 * 0, sets R10 and R11 and starts it at PC 2 with mapping off and IPL 31
 * (../shared/bsd43/README.md).  From there on every instruction is the
 * guest's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microcode/le.h"
#include "vax/io/io_bootfile.h"
#include "vax/machine/vm.h"
#include "vax/machine/vm_io.h"

#define TAPE_BOOT_BLOCKS 7u       /* tape boot blocks before the tp archive */
#define TAPE_FILE_MAX (4u << 20)
#define BOOT_PC 2u
#define BOOT_PSL 0x041F0000u      /* kernel, IPL 31, interrupt stack */
#define R10_HP 0u                 /* major device numbers (stand/boot.c) */
#define R10_HT 1u
#define B_UNITSHIFT 16

/* The tape's first file, record by record, into one buffer; the tape is
 * left at its load point. */
static int read_first_file(struct io_tape *t, uint8_t **out, size_t *len, char *err,
                           size_t errlen)
{
    uint8_t *buf = malloc(TAPE_FILE_MAX);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t n = 0;
    io_tape_rewind(t);
    for (;;) {
        uint32_t rl;
        int st = io_tape_read_fwd(t, buf + n, (uint32_t)(TAPE_FILE_MAX - n), &rl);
        if (st == IO_TAPE_MARK || st == IO_TAPE_EOM)
            break;
        if (st != IO_TAPE_OK || rl > TAPE_FILE_MAX - n) {
            io_tape_rewind(t);
            free(buf);
            snprintf(err, errlen, "%.200s: %s in the first tape file", t->path,
                     st == IO_TAPE_OK ? "more data than a boot tape holds" : "a bad record");
            return -1;
        }
        n += rl;
    }
    io_tape_rewind(t);
    *out = buf;
    *len = n;
    return 0;
}

static int boot_from_tape(struct io_tape *t, const char *name, uint8_t **data, uint32_t *len,
                          char *err, size_t errlen)
{
    uint8_t *file;
    size_t n, off, size;
    if (read_first_file(t, &file, &n, err, errlen) < 0)
        return -1;
    size_t skip = (size_t)TAPE_BOOT_BLOCKS * 512;
    if (n <= skip) {
        free(file);
        snprintf(err, errlen, "%.200s: the first tape file (%zu bytes) holds no tp archive after "
                 "the boot blocks", t->path, n);
        return -1;
    }
    char e[200];
    if (io_tp_find(file + skip, n - skip, name, &off, &size, e, sizeof e) < 0) {
        free(file);
        snprintf(err, errlen, "%.80s: %.150s", t->path, e);
        return -1;
    }
    *data = malloc(size ? size : 1);
    if (!*data) {
        free(file);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(*data, file + skip + off, size);
    *len = (uint32_t)size;
    free(file);
    return 0;
}

/* Byte reads of a disk's partition a (sector 0 on). */
static int disk_read(void *ctx, uint64_t off, void *buf, uint32_t n)
{
    struct io_disk *d = ctx;
    uint8_t sec[IO_SECTOR];
    uint8_t *out = buf;
    while (n) {
        uint64_t s = off / IO_SECTOR;
        uint32_t in = (uint32_t)(off % IO_SECTOR), k = IO_SECTOR - in;
        if (k > n)
            k = n;
        if (s >= d->sectors || io_disk_read(d, (uint32_t)s, sec, 1) < 0)
            return -1;
        memcpy(out, sec + in, k);
        out += k;
        off += k;
        n -= k;
    }
    return 0;
}

/* Puts the program at physical 0: a raw image as the tape's (started at
 * byte 2, after its entry mask), or an a.out as a disk's /boot (magic
 * 0407, 0410 or 0413: text at 0, data after it -- page aligned for 0410
 * and 0413 -- bss cleared, started at a_entry + 2, as 4.3BSD's boot
 * blocks do). */
static int load_image(struct vax_machine *m, const uint8_t *d, uint32_t len, uint32_t *pc,
                      char *err, size_t errlen)
{
    uint32_t mem = vm_memory_size(m);
    uint32_t magic = len >= 32 ? le_get16(d) : 0;
    if (magic != 0407 && magic != 0410 && magic != 0413) {
        if (len <= BOOT_PC || len > mem) {
            snprintf(err, errlen, "%u bytes: %s", len, len <= BOOT_PC ? "too small"
                                                                      : "larger than memory");
            return -1;
        }
        vm_phys_write(m, 0, d, len);
        *pc = BOOT_PC;
        return 0;
    }
    uint32_t text = le_get32(d + 4), data = le_get32(d + 8), bss = le_get32(d + 12);
    uint32_t entry = le_get32(d + 20) & 0x7FFFFFFFu;
    uint32_t off = magic == 0413 ? 1024 : 32;
    uint32_t dat = magic == 0407 ? text : (text + 1023) & ~1023u;
    if (off > len || text > len - off || data > len - off - text || dat > mem ||
        data > mem - dat || bss > mem - dat - data || entry > mem - 4) {
        snprintf(err, errlen, "an a.out whose text (%u), data (%u) or bss (%u) do not fit",
                 text, data, bss);
        return -1;
    }
    static const uint8_t zero[4096];
    vm_phys_write(m, 0, d + off, text);
    for (uint32_t a = text; a < dat; a++)
        vm_phys_write(m, a, zero, 1);
    vm_phys_write(m, dat, d + off + text, data);
    for (uint32_t a = dat + data, end = dat + data + bss; a < end;) {
        uint32_t k = end - a < sizeof zero ? end - a : (uint32_t)sizeof zero;
        vm_phys_write(m, a, zero, k);
        a += k;
    }
    *pc = entry + 2;
    return 0;
}

int vm_console_boot(struct vax_machine *m, const char *spec, uint32_t flags, char *err,
                    size_t errlen)
{
    if (!m->io) {
        snprintf(err, errlen, "the machine has no I/O system");
        return -1;
    }
    /* DEV or DEV:PROGRAM: the console loads any standalone program of
     * its medium (the installation loads copy this way) */
    char dev[8];
    const char *colon = strchr(spec, ':');
    size_t dl = colon ? (size_t)(colon - spec) : strlen(spec);
    const char *prog = colon && colon[1] ? colon + 1 : "boot";
    if (dl >= sizeof dev || strlen(prog) > 200) {
        snprintf(err, errlen, "boot %.40s: give DEV or DEV:PROGRAM (devices tu0, tu1, rp0-rp3)",
                 spec);
        return -1;
    }
    memcpy(dev, spec, dl);
    dev[dl] = 0;
    uint8_t *data = NULL;
    uint32_t len = 0, r10;
    char e[300];
    struct io_tape *t = io_system_tape(m->io->sys, dev);
    struct io_disk *d = io_system_disk(m->io->sys, dev);
    if (t) {
        if (boot_from_tape(t, prog, &data, &len, e, sizeof e) < 0) {
            snprintf(err, errlen, "boot %s: %s", dev, e);
            return -1;
        }
        r10 = R10_HT;
    } else if (d) {
        char path[210];
        snprintf(path, sizeof path, "%s%s", prog[0] == '/' ? "" : "/", prog);
        if (io_ufs_read(disk_read, d, path, &data, &len, e, sizeof e) < 0) {
            snprintf(err, errlen, "boot %s: %.100s: partition a: %s", dev, d->path, e);
            return -1;
        }
        r10 = R10_HP | (uint32_t)(dev[2] - '0') << B_UNITSHIFT;
    } else {
        snprintf(err, errlen, "boot %s: no medium attached there (boot devices: tu0, tu1, "
                 "rp0-rp3)", dev);
        return -1;
    }
    uint32_t pc = BOOT_PC;
    if (load_image(m, data, len, &pc, e, sizeof e) < 0) {
        free(data);
        snprintf(err, errlen, "boot %s: %s: %s", dev, prog, e);
        return -1;
    }
    free(data);
    for (int i = 0; i < 15; i++)
        vm_set_reg(m, i, 0);
    vm_set_reg(m, 10, r10);
    vm_set_reg(m, 11, flags);
    vm_set_reg(m, 15, pc);
    vm_set_ipr(m, 0x38, 0); /* MAPEN off */
    vm_set_psl(m, BOOT_PSL);
    return 0;
}
