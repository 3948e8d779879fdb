/* uasm: the microassembler's command line.  Argument parsing and printing
 * only; the work is in uasm.c.  Every output is checked (write, flush,
 * close): a failure is one line "uasm: PATH: cause" and exit status 1. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microcode/hostfile.h"
#include "microcode/uasm.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: uasm [-o IMAGE] [--listing FILE|-] [--emit-c SYMBOL] FILE.mic...\n"
            "Assembles E-box microcode (see microcode/MICROARCHITECTURE.md).\n"
            "  -o IMAGE         write the control-store image (default: none)\n"
            "  --listing F      write a listing with addresses and fields ('-' = stdout)\n"
            "  --emit-c SYMBOL  with -o, write the image as a C array named SYMBOL\n"
            "                   (a C identifier, not a keyword)\n"
            "  --labels         print the exported labels and their addresses\n"
            "Errors are printed as FILE:LINE: message; exit status 1 on errors or\n"
            "an output that cannot be written, 2 on a usage error.\n");
}

/* A C identifier that is not a keyword: the name of the emitted array. */
static int c_symbol(const char *s)
{
    static const char *const kw[] = {
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
        "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
        "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
        "typedef", "union", "unsigned", "void", "volatile", "while", "_Alignas", "_Alignof",
        "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
        "_Static_assert", "_Thread_local"};
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_') || strlen(s) > 200)
        return 0;
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_'))
            return 0;
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (strcmp(s, kw[i]) == 0)
            return 0;
    return 1;
}

/* Flushes and (unless stdout) closes f; 0, or -1 with the message.
 * `werr` is the errno a failed write left (stdio forgets it once a failed
 * flush has emptied the buffer), or 0. */
static int finish(FILE *f, const char *path, int werr)
{
    errno = 0;
    int err = fflush(f) != 0 || ferror(f) ? (werr ? werr : errno ? errno : EIO) : 0;
    if (f != stdout) {
        errno = 0;
        if (fclose(f) != 0 && !err)
            err = errno ? errno : EIO;
    }
    if (err) {
        fprintf(stderr, "uasm: %s: %s\n", f == stdout ? "<stdout>" : path, strerror(err));
        if (f == stdout)
            clearerr(f); /* reported once */
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *out = NULL, *listing = NULL, *csym = NULL;
    int labels = 0;
    const char **files = calloc((size_t)argc, sizeof *files);
    int nfiles = 0;
    if (!files)
        return 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            free(files);
            return 0;
        } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(argv[i], "--listing") == 0 && i + 1 < argc) {
            listing = argv[++i];
        } else if (strcmp(argv[i], "--emit-c") == 0 && i + 1 < argc) {
            csym = argv[++i];
        } else if (strcmp(argv[i], "--labels") == 0) {
            labels = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "uasm: unknown option '%s'\n", argv[i]);
            usage(stderr);
            free(files);
            return 2;
        } else {
            files[nfiles++] = argv[i];
        }
    }
    if (nfiles == 0 || (csym && !out)) {
        usage(stderr);
        free(files);
        return 2;
    }
    if (csym && !c_symbol(csym)) {
        fprintf(stderr, "uasm: --emit-c '%s' is not a C identifier\n", csym);
        free(files);
        return 2;
    }
    /* no output overwrites an input or another output (hostfile.h) */
    const char *outs[] = {"-o", out, "--listing", listing};
    char msg[700];
    if (hostfile_check_files(files, nfiles, outs, 2, msg, sizeof msg) != 0) {
        fprintf(stderr, "uasm: %s\n", msg);
        free(files);
        return 2;
    }
    struct ucode_image img;
    char *errs = NULL;
    if (uasm_assemble_files(files, nfiles, &img, &errs) < 0) {
        fputs(errs ? errs : "uasm: failed\n", stderr);
        free(errs);
        free(files);
        return 1;
    }
    free(files);
    int rc = 0;
    if (listing) {
        char *l = ucode_listing(&img);
        FILE *f = strcmp(listing, "-") == 0 ? stdout : fopen(listing, "w");
        if (!f || !l) {
            fprintf(stderr, "uasm: %s: %s\n", listing, l ? strerror(errno) : "out of memory");
            if (f && f != stdout)
                fclose(f);
            rc = 1;
        } else {
            errno = 0;
            int werr = fputs(l, f) == EOF ? errno : 0;
            if (finish(f, listing, werr) != 0)
                rc = 1;
        }
        free(l);
    }
    int werr = 0;
    errno = 0;
    if (labels)
        for (size_t i = 0; i < img.nlabels; i++)
            if (printf("%04X %s\n", img.labels[i].addr, img.labels[i].name) < 0 && !werr)
                werr = errno;
    if (out) {
        size_t len;
        uint8_t *buf = ucode_image_serialize(&img, &len);
        FILE *f = buf ? fopen(out, "wb") : NULL;
        if (!buf || !f) {
            fprintf(stderr, "uasm: %s: %s\n", out, buf ? strerror(errno) : "out of memory");
            rc = 1;
        } else if (csym) {
            errno = 0;
            fprintf(f, "/* generated by uasm from the microcode sources; do not edit */\n"
                       "#include <stddef.h>\n"
                       "const unsigned char %s[] = {\n", csym);
            for (size_t i = 0; i < len; i++)
                fprintf(f, "%s0x%02x,%s", i % 16 ? "" : "  ", buf[i],
                        i % 16 == 15 || i + 1 == len ? "\n" : " ");
            fprintf(f, "};\nconst size_t %s_len = %zu;\n", csym, len);
        } else {
            errno = 0;
            fwrite(buf, 1, len, f);
        }
        if (f && finish(f, out, f && ferror(f) ? errno : 0) != 0)
            rc = 1;
        free(buf);
    }
    ucode_image_free(&img);
    if (finish(stdout, "-", werr) != 0) /* --labels, --listing - */
        rc = 1;
    return rc;
}
