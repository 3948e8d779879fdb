/* vdis: disassemble a VAX ELF executable or a flat binary.
 * Argument parsing and printing only; the work is in vax/dis. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microcode/hostfile.h"
#include "vax/dis/vdis.h"
#include "vax/loader/vax_elf.h"

#define VDIS_VERSION "0.1.0"
#define VDIS_INPUT_MAX (1024u << 20) /* an image larger than this is not one */

static const char usage_text[] =
"Usage: vdis [OPTION]... FILE\n"
"Disassemble VAX machine code into GNU-as-for-VAX syntax.\n"
"\n"
"FILE is an ELF32 EM_VAX executable (the default) whose loadable\n"
"segments (PT_LOAD) are disassembled at their virtual addresses, or, with\n"
"--raw, a flat binary loaded at --base.  FILE \"-\" reads standard input.\n"
"\n"
"Each instruction is printed as one line\n"
"    ADDR:<TAB>BYTES<TAB>INSTRUCTION\n"
"where ADDR is 8 hex digits and BYTES the instruction's bytes in hex.\n"
"With --no-addr only INSTRUCTION is printed, and the output is assembler\n"
"input that vasm reassembles to the same bytes at the same address.\n"
"Bytes that are no instruction (reserved opcodes), reserved or UNPREDICTABLE\n"
"operand specifiers, and instructions cut off by the end of the input\n"
"come out as \".byte 0xNN\" lines of one byte.  The word displacement\n"
"table after a CASEB/CASEW/CASEL with a constant limit is printed as\n"
"\".word\" lines.\n"
"\n"
"Options:\n"
"  --raw            FILE is a flat binary, not ELF\n"
"  --base ADDR      load address of a --raw FILE (default 0)\n"
"  --start ADDR     disassemble from ADDR (default: start of each segment)\n"
"  --length N       disassemble at most N bytes from --start (or from the\n"
"                   start of each segment)\n"
"  --no-addr        print only the instruction text (valid assembler input)\n"
"  --pcrel-disp     print PC-relative operands as \"b`DISP(%pc)\" instead of\n"
"                   the absolute target, the form GNU as reproduces exactly\n"
"  --lenient        print reserved/UNPREDICTABLE specifiers as encoded\n"
"                   instead of as .byte\n"
"  -h, --help       show this help and exit\n"
"  -V, --version    show the version and exit\n"
"\n"
"Numbers (ADDR, N) are decimal, 0x-prefixed hex, or 0-prefixed octal.\n"
"\n"
"Exit status:\n"
"  0  success\n"
"  1  FILE cannot be read or is not a usable ELF32 VAX executable\n"
"  2  usage error (unknown option, bad number, missing FILE)\n"
"\n"
"Examples:\n"
"  vdis guest.elf\n"
"  vdis --raw --base 0x200 --no-addr evkaa.bin > evkaa.s\n"
"  vasm -o guest.elf guest.s && vdis --start 0x1000 --length 64 guest.elf\n";

struct opts {
    int raw, no_addr, have_start, have_length;
    uint32_t base, start, length;
    unsigned flags;
    const char *file;
};

static int parse_num(const char *s, uint32_t *out)
{
    char *end;
    errno = 0;
    if (*s == '-' || *s == '\0')
        return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end != '\0' || v > UINT32_MAX)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "vdis: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'vdis --help' for more information.\n");
    return 2;
}

/* Disassemble bytes [0, len) located at address addr, restricted to the
 * window the options ask for. */
static void dis_range(const struct opts *o, const uint8_t *bytes, size_t len,
                      uint32_t addr)
{
    uint64_t lo = addr, hi = (uint64_t)addr + len;
    if (o->have_start) {
        if (o->start > lo)
            lo = o->start;
    }
    if (o->have_length) {
        uint64_t end = lo + o->length;
        if (end < hi)
            hi = end;
    }
    if (lo >= hi)
        return;
    size_t off = (size_t)(lo - addr), end = (size_t)(hi - addr);
    while (off < end) {
        struct vdis_insn in;
        uint32_t a = (uint32_t)(addr + off);
        int n = vdis_one_ex(bytes + off, end - off, a, o->flags, &in);
        if (o->no_addr) {
            printf("\t%s\n", in.text);
        } else {
            printf("%08x:\t", (unsigned)a);
            for (int i = 0; i < n; i++)
                printf(i ? " %02x" : "%02x", bytes[off + (size_t)i]);
            printf("\t%s\n", in.text);
        }
        off += (size_t)n;
        /* displacement table of a CASE instruction */
        int k = vdis_case_entries(bytes + off - (size_t)n, (size_t)n, &in);
        if (k > 0 && (uint64_t)k * 2 <= end - off) {
            for (int i = 0; i < k; i++, off += 2) {
                unsigned w = bytes[off] | (unsigned)bytes[off + 1] << 8;
                if (o->no_addr)
                    printf("\t.word\t0x%04x\n", w);
                else
                    printf("%08x:\t%02x %02x\t.word\t0x%04x\n",
                           (unsigned)(addr + off), bytes[off], bytes[off + 1],
                           w);
            }
        }
    }
}

/* The ELF loader writes each segment's file bytes here; vdis then
 * disassembles them in address order.  Using the loader means vdis accepts
 * and rejects exactly what the machine will. */
struct chunk {
    uint32_t addr;
    size_t len;
    uint8_t *bytes;
};
struct chunks {
    struct chunk *v;
    size_t n;
};

static int collect(void *ctx, uint32_t pa, const void *buf, size_t n)
{
    struct chunks *c = ctx;
    struct chunk *nv = realloc(c->v, (c->n + 1) * sizeof *nv);
    if (!nv)
        return -1;
    c->v = nv;
    uint8_t *copy = malloc(n ? n : 1);
    if (!copy)
        return -1;
    memcpy(copy, buf, n);
    c->v[c->n++] = (struct chunk){pa, n, copy};
    return 0;
}

static int cmp_chunk(const void *a, const void *b)
{
    const struct chunk *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int dis_elf(const struct opts *o, uint8_t *data, size_t len)
{
    const char *name = strcmp(o->file, "-") == 0 ? "<stdin>" : o->file;
    struct chunks c = {NULL, 0};
    struct vax_load_target t = {collect, &c, UINT32_MAX, 1};
    struct vax_load_result r;
    char err[300];
    int rc = 0;
    if (vax_elf_load_mem(name, data, len, &t, &r, err, sizeof err) != 0) {
        fprintf(stderr, "vdis: %s\n", err);
        rc = 1;
    } else {
        qsort(c.v, c.n, sizeof *c.v, cmp_chunk);
        for (size_t i = 0; i < c.n; i++) {
            if (!o->no_addr)
                printf("%s# segment at 0x%08x, 0x%zx bytes%s\n",
                       i ? "\n" : "", (unsigned)c.v[i].addr, c.v[i].len,
                       r.entry >= c.v[i].addr &&
                               r.entry - c.v[i].addr < c.v[i].len
                           ? " (entry point inside)" : "");
            dis_range(o, c.v[i].bytes, c.v[i].len, c.v[i].addr);
        }
    }
    for (size_t i = 0; i < c.n; i++)
        free(c.v[i].bytes);
    free(c.v);
    return rc;
}

int main(int argc, char **argv)
{
    struct opts o = {0};
    int only_files = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_files && a[0] == '-' && a[1] != '\0') {
            const char *val = NULL;
            const char *eq = strchr(a, '=');
            size_t nlen = eq ? (size_t)(eq - a) : strlen(a);
#define IS(s) (nlen == strlen(s) && strncmp(a, s, nlen) == 0)
            if (IS("--")) {
                only_files = 1;
                continue;
            }
            if (IS("--base") || IS("--start") || IS("--length")) {
                if (eq)
                    val = eq + 1;
                else if (i + 1 < argc)
                    val = argv[++i];
                else
                    return usage_error("option '%s' needs a value", a);
                uint32_t v;
                if (parse_num(val, &v) != 0)
                    return usage_error("bad number '%s'", val);
                if (IS("--base")) {
                    o.base = v;
                } else if (IS("--start")) {
                    o.start = v;
                    o.have_start = 1;
                } else {
                    o.length = v;
                    o.have_length = 1;
                }
                continue;
            }
            if (eq)
                return usage_error("option '%s' takes no value", a);
            if (IS("--raw"))
                o.raw = 1;
            else if (IS("--no-addr"))
                o.no_addr = 1;
            else if (IS("--pcrel-disp"))
                o.flags |= VDIS_PCREL_AS_DISP;
            else if (IS("--lenient"))
                o.flags |= VDIS_LENIENT;
            else if (IS("-h") || IS("--help")) {
                fputs(usage_text, stdout);
                return 0;
            } else if (IS("-V") || IS("--version")) {
                printf("vdis (vax8600-spam) " VDIS_VERSION "\n");
                return 0;
            } else
                return usage_error("unknown option '%s'", a);
#undef IS
            continue;
        }
        if (o.file)
            return usage_error("more than one FILE ('%s')", a);
        o.file = a;
    }
    if (!o.file)
        return usage_error("%s", "missing FILE");

    uint8_t *data;
    size_t len;
    const char *why;
    if (hostfile_read(o.file, VDIS_INPUT_MAX, HOSTFILE_STDIN, &data, &len, &why) != 0) {
        fprintf(stderr, "vdis: %s: %s\n", o.file, why);
        return 1;
    }
    int rc = 0;
    if (o.raw) {
        if ((uint64_t)o.base + len > (uint64_t)UINT32_MAX + 1) {
            fprintf(stderr, "vdis: %s: does not fit in the address space "
                            "at base 0x%x\n", o.file, (unsigned)o.base);
            rc = 1;
        } else {
            dis_range(&o, data, len, o.base);
        }
    } else {
        rc = dis_elf(&o, data, len);
    }
    free(data);
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        /* stdio may have forgotten the cause of an earlier failure */
        fprintf(stderr, "vdis: <stdout>: %s\n", errno ? strerror(errno) : "write error");
        rc = 1;
    }
    return rc;
}
