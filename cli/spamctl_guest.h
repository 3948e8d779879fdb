/* The guest's names for the probe language (vax/probe/probe_lang.h):
 * kernel symbols from the 4.3BSD kernel's a.out (--kernel, or /vmunix of
 * the disk), programs' paths and their (device, inode) from the disk's
 * file systems, programs' own symbols (uprobes), system calls and SCB
 * vectors (spamctl names), and the reverse: the name of a kernel address,
 * a program, a system call or a vector when maps and records are
 * printed. */
#ifndef SPAMCTL_GUEST_H
#define SPAMCTL_GUEST_H

#include <stddef.h>
#include <stdint.h>

#include "spam/spam_aout.h"
#include "spam/spam_gnames.h"
#include "vax/probe/probe_lang.h"

struct guest_file {
    char *path;
    uint32_t prog;          /* dev << 16 | inode, as the probe unit has it */
    uint16_t mode;
};

struct guest {
    const char *disk_path, *kernel_path;
    uint8_t *kimage;
    struct spam_aout k;
    int kok;
    uint32_t *jsb;          /* JSB targets and SCB handlers: no entry mask */
    size_t njsb;
    struct spam_gnames *names;
    struct guest_file *file;/* sorted by path */
    size_t nfile, capfile;
    uint32_t comm_mul, comm_mod;
    void *disk;             /* the image, open */
};

/* Opens the guest: kernel (may be NULL: /vmunix of the disk), disk (may
 * be NULL: no paths, no uprobes).  0, or -1 with the message printed
 * (prefixed by cmd). */
int guest_open(struct guest *g, const char *cmd, const char *kernel, const char *disk);
void guest_close(struct guest *g);
/* The resolver over g for prb_lang_compile. */
void guest_resolver(struct guest *g, struct prb_lang_resolver *r);
/* Names for printing (prb_lang_host's name): g is the ctx. */
const char *guest_name(void *ctx, enum prb_lang_type t, uint32_t v, char *buf, size_t len);
/* The kernel's text symbols whose name matches the glob pat (with or
 * without the leading '_'), for `spamctl probe -l`: fn(ctx, name, value,
 * entry) for each. */
void guest_list(struct guest *g, const char *pat,
                void (*fn)(void *ctx, const char *name, uint32_t value, uint32_t entry),
                void *ctx);

#endif
