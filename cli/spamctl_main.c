/* spamctl: the user's front end to the VAX 8600 + SPAM emulator.
 * Argument parsing and printing only; the work is done by the libraries.
 *
 * Today the machine itself does not exist yet (it arrives with the
 * microcode-machine issue), so `spamctl demo` does the most complete
 * honest thing the tree can do and says so; every other command names
 * the piece of work it is waiting for and exits with status 3.          */
#include "vax/dis/vdis.h"
#include "vax/loader/vax_elf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SPAMCTL_GUEST_ELF
#define SPAMCTL_GUEST_ELF "vax/guest/hello.elf"
#endif
#define SPAMCTL_VERSION "0.1.0"

enum { EXIT_USAGE = 2, EXIT_NOT_IMPLEMENTED = 3 };

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

static void usage(FILE *f)
{
    fprintf(f,
"Usage: spamctl COMMAND [OPTIONS]\n"
"\n"
"Run a microcode-level VAX 8600 with SPAM tracing and work with its traces.\n"
"\n"
"Commands:\n"
"  demo [--image FILE]   Today: load the bundled guest image with the ELF\n"
"                        loader and disassemble it (the machine that will\n"
"                        boot it and trace it is not built yet; see below).\n"
"  run, stat, decode, hist, compress, decompress, export\n"
"                        Not implemented yet: each says which piece of\n"
"                        work it is waiting for and exits with status 3.\n"
"  help                  This text.\n"
"\n"
"Options:\n"
"  -h, --help            This text.\n"
"  --version             Print the version.\n"
"\n"
"Exit status: 0 success, 1 bad input, 2 usage error, 3 not implemented yet.\n");
}

static int cmd_demo(int argc, char **argv)
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
            return EXIT_USAGE;
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

static int not_yet(const char *cmd, const char *waiting_for)
{
    fprintf(stderr, "spamctl %s: not implemented yet: %s\n", cmd, waiting_for);
    return EXIT_NOT_IMPLEMENTED;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("spamctl %s\n", SPAMCTL_VERSION);
        return 0;
    }
    if (strcmp(cmd, "demo") == 0)
        return cmd_demo(argc - 1, argv + 1);
    if (strcmp(cmd, "run") == 0)
        return not_yet(cmd, "the microcode machine (issue 3)");
    if (strcmp(cmd, "stat") == 0 || strcmp(cmd, "decode") == 0 ||
        strcmp(cmd, "hist") == 0 || strcmp(cmd, "compress") == 0 ||
        strcmp(cmd, "decompress") == 0 || strcmp(cmd, "export") == 0)
        return not_yet(cmd, "the trace tools (issue 7)");
    fprintf(stderr, "spamctl: unknown command '%s' (try 'spamctl --help')\n", cmd);
    return EXIT_USAGE;
}
