/* spamctl demo.  Today the machine does not exist yet (it arrives with the
 * microcode-machine issue), so the demo does the most complete honest
 * thing the tree can do and says so: it loads the bundled guest image with
 * the ELF loader and disassembles it. */
#include "cli/spamctl_cmds.h"
#include "vax/dis/vdis.h"
#include "vax/loader/vax_elf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SPAMCTL_GUEST_ELF
#define SPAMCTL_GUEST_ELF "vax/guest/hello.elf"
#endif

struct flat_mem {
    uint8_t *bytes;
    uint32_t size;
};

static int flat_write(void *ctx, uint32_t pa, const void *buf, size_t n)
{
    struct flat_mem *m = ctx;
    if (pa > m->size || n > m->size - pa)
        return -1;
    memcpy(m->bytes + pa, buf, n);
    return 0;
}

int spamctl_cmd_demo(int argc, char **argv)
{
    const char *image = SPAMCTL_GUEST_ELF;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--image") == 0 && i + 1 < argc)
            image = argv[++i];
        else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("Usage: spamctl demo [--image FILE]\n");
            return 0;
        } else {
            fprintf(stderr, "spamctl demo: unknown option '%s'\n", argv[i]);
            return SPAMCTL_EXIT_USAGE;
        }
    }
    printf("spamctl demo: the VAX 8600 machine, its microcode and SPAM are not\n"
           "built yet, so nothing is executed or traced.  What exists is the guest\n"
           "toolchain: the bundled guest was assembled by vasm at build time; here\n"
           "it is loaded into 1 MB of physical memory by the ELF loader and\n"
           "disassembled by vdis.\n\n");
    struct flat_mem mem = {calloc(1, 1u << 20), 1u << 20};
    if (!mem.bytes) {
        fprintf(stderr, "spamctl demo: out of memory\n");
        return 1;
    }
    struct vax_load_target t = {flat_write, &mem, mem.size, 0};
    struct vax_load_result r;
    char err[256];
    if (vax_elf_load_file(image, &t, &r, err, sizeof err) != 0) {
        fprintf(stderr, "spamctl demo: %s\n", err);
        free(mem.bytes);
        return 1;
    }
    printf("image %s: %d segment(s), physical 0x%08X-0x%08X, entry 0x%08X\n\n",
           image, r.nsegments, r.lowest, r.highest, r.entry);
    uint32_t pc = r.entry;
    int halted = 0;
    while (pc < r.highest && !halted) {
        struct vdis_insn in;
        int n = vdis_one(mem.bytes + pc, r.highest - pc, pc, &in);
        printf("  %08X:  %s\n", pc, in.text);
        halted = in.name && strcmp(in.name, "halt") == 0;
        pc += (uint32_t)n;
    }
    if (pc < r.highest)
        printf("  %08X:  (%u bytes of data follow)\n", pc, r.highest - pc);
    free(mem.bytes);
    return 0;
}

