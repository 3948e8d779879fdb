/* vasm: command-line front end of the VAX assembler (vax/asm/vasm.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microcode/hostfile.h"
#include "vax/asm/vasm.h"

#define VASM_VERSION "0.1.0"
#define VASM_SOURCE_MAX (256u << 20) /* bytes of one source */

static const char usage_text[] =
    "Usage: vasm [OPTION]... FILE.s...\n"
    "Assemble and link VAX sources (GNU as syntax) into one image.\n"
    "\n"
    "The sources are assembled one by one and laid out as `ld -N -Ttext BASE`\n"
    "would lay out the objects GNU as makes of them: all .text in command-line\n"
    "order, then all .data, then all .bss.  The bytes are those GNU as and\n"
    "ld would produce.  A FILE of '-' means standard input.\n"
    "\n"
    "Options:\n"
    "  -o OUT           write the output to OUT (default: a.out)\n"
    "  --raw            write the loaded image as flat bytes starting at the\n"
    "                   base address (.text and .data, no .bss) instead of an\n"
    "                   ELF32 VAX executable\n"
    "  --base ADDR      link address of .text (default 0); ADDR is decimal,\n"
    "  -Ttext ADDR      0x-hexadecimal or 0-octal\n"
    "  -e SYMBOL        entry point (default: _start, else start, else ADDR)\n"
    "  --listing        print a listing (address, bytes, line, source) to\n"
    "                   standard output\n"
    "  -h, --help       show this help and exit\n"
    "  --version        show the version and exit\n"
    "\n"
    "Syntax: registers %r0-%r11 %ap %fp %sp %pc ('%' optional); $ immediate,\n"
    "* (or @) deferred, (rn) -(rn) (rn)+ *(rn)+ disp(rn) [rx] index; b` w` l`\n"
    "force a displacement length, s` i` as in gas, DEC B^ W^ L^ S^ I^ too\n"
    "(I^$n always gives a real immediate).  '#' starts a comment.  The jXXX\n"
    "pseudo-branches of gas are supported.  See vax/asm/README.md.\n"
    "\n"
    "Exit status: 0 on success, 1 on assembly errors (one 'file:line: message'\n"
    "line each on standard error), 2 on usage errors.\n";

static int usage_error(const char *msg, const char *arg)
{
    if (arg)
        fprintf(stderr, "vasm: %s '%s'\n", msg, arg);
    else
        fprintf(stderr, "vasm: %s\n", msg);
    fprintf(stderr, "Try 'vasm --help' for more information.\n");
    return 2;
}

static int parse_addr(const char *s, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end || v > 0xffffffffull || s[0] == '-')
        return -1;
    *out = (uint32_t)v;
    return 0;
}

int main(int argc, char **argv)
{
    const char *out = "a.out";
    int raw = 0, listing = 0;
    struct vasm_options opt = {0, NULL};
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    int nfiles = 0;
    if (!files)
        return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            free(files);
            return 0;
        }
        if (!strcmp(a, "--version")) {
            printf("vasm " VASM_VERSION "\n");
            free(files);
            return 0;
        }
        if (!strcmp(a, "-o") || !strcmp(a, "--base") || !strcmp(a, "-Ttext") ||
            !strcmp(a, "-e")) {
            if (i + 1 >= argc) {
                free(files);
                return usage_error("option needs an argument:", a);
            }
            const char *v = argv[++i];
            if (!strcmp(a, "-o"))
                out = v;
            else if (!strcmp(a, "-e"))
                opt.entry_symbol = v;
            else if (parse_addr(v, &opt.base)) {
                free(files);
                return usage_error("bad address", v);
            }
            continue;
        }
        if (!strncmp(a, "--base=", 7) || !strncmp(a, "-Ttext=", 7)) {
            if (parse_addr(a + 7, &opt.base)) {
                free(files);
                return usage_error("bad address", a + 7);
            }
            continue;
        }
        if (!strncmp(a, "-o", 2) && a[2]) {
            out = a + 2;
            continue;
        }
        if (!strcmp(a, "--raw")) {
            raw = 1;
            continue;
        }
        if (!strcmp(a, "--listing")) {
            listing = 1;
            continue;
        }
        if (a[0] == '-' && a[1]) {
            free(files);
            return usage_error("unknown option", a);
        }
        files[nfiles++] = a;
    }
    if (nfiles <= 0) {
        free(files);
        return usage_error("no input files", NULL);
    }
    /* no output overwrites an input or another output (hostfile.h) */
    const char *outs[] = {"-o", out};
    char msg[700];
    if (hostfile_check_files(files, nfiles, outs, 1, msg, sizeof msg) != 0) {
        fprintf(stderr, "vasm: %s\n", msg);
        free(files);
        return 2;
    }
    struct vasm_source *srcs = calloc((size_t)nfiles, sizeof *srcs);
    char **bufs = calloc((size_t)nfiles, sizeof *bufs);
    int rc = 0, stdin_used = 0;
    if (!srcs || !bufs)
        return 1;
    for (int i = 0; i < nfiles && rc == 0; i++) {
        if (!strcmp(files[i], "-") && stdin_used++) {
            rc = usage_error("standard input given twice", NULL);
            break;
        }
        srcs[i].name = strcmp(files[i], "-") ? files[i] : "<stdin>";
        const char *why;
        uint8_t *text;
        if (hostfile_read(files[i], VASM_SOURCE_MAX, HOSTFILE_STDIN, &text, &srcs[i].len,
                          &why) != 0) {
            fprintf(stderr, "vasm: %s: %s\n", srcs[i].name, why);
            rc = 1;
            break;
        }
        bufs[i] = (char *)text;
        srcs[i].text = bufs[i];
    }
    if (rc == 0) {
        struct vasm_image img;
        struct vasm_diag *diag = calloc(1, sizeof *diag);
        char *lst = NULL;
        if (!diag)
            return 1;
        if (vasm_assemble_listing(srcs, (size_t)nfiles, &opt, &img, diag,
                                  listing ? &lst : NULL) != 0) {
            fputs(diag->text, stderr);
            int shown = 0;
            for (const char *p = diag->text; *p; p++)
                shown += *p == '\n';
            if (diag->nerrors > shown)
                fprintf(stderr, "vasm: %d more errors not shown\n", diag->nerrors - shown);
            rc = 1;
        } else {
            if (lst && (fputs(lst, stdout) == EOF || fflush(stdout) != 0)) {
                fprintf(stderr, "vasm: <stdout>: %s\n", strerror(errno ? errno : EIO));
                rc = 1;
            }
            int w = raw ? vasm_write_raw(&img, out, diag) : vasm_write_elf(&img, out, diag);
            if (w != 0) {
                fputs(diag->text, stderr);
                rc = 1;
            }
            vasm_image_free(&img);
        }
        free(lst);
        free(diag);
    }
    for (int i = 0; i < nfiles; i++)
        free(bufs[i]);
    free(bufs);
    free(srcs);
    free(files);
    return rc;
}
