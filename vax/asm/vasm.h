/* vasm: a VAX assembler library, GNU-as-for-VAX (NetBSD) syntax.
 * Assembles one or more sources into one linked image laid out the way
 * `ld -N -Ttext BASE` lays out the same files: all .text in file order,
 * then all .data, then all .bss, each input section aligned to its own
 * alignment.  Nothing here prints or exits.                             */
#ifndef VASM_H
#define VASM_H

#include <stddef.h>
#include <stdint.h>

struct vasm_source {
    const char *name; /* used in diagnostics: "name:line: message" */
    const char *text; /* need not be NUL-terminated */
    size_t len;
};

struct vasm_options {
    uint32_t base;            /* link address of .text (default 0) */
    const char *entry_symbol; /* NULL: see vasm_assemble()          */
};

struct vasm_symbol {
    char *name;
    uint32_t value;
    int global;
};

struct vasm_image {
    uint32_t base;    /* address of bytes[0] (== text_addr)           */
    uint8_t *bytes;   /* text and data contents, size bytes           */
    uint32_t size;    /* bytes with contents                          */
    uint32_t memsize; /* size plus .bss                               */
    uint32_t entry;
    uint32_t text_addr, text_size;
    uint32_t data_addr, data_size;
    uint32_t bss_addr, bss_size;
    struct vasm_symbol *syms; /* every label and .set/= symbol      */
    size_t nsyms;
};

/* Diagnostics: one "file:line: message" line per error, newline-separated,
 * at most VASM_DIAG_MAX bytes (later errors are counted, not kept). */
#define VASM_DIAG_MAX 4096
struct vasm_diag {
    char text[VASM_DIAG_MAX];
    int nerrors;
};

/* Assemble and link.  Returns 0 and fills *out on success; returns -1 with
 * at least one error in *diag otherwise (out is then left empty).
 * The entry point is entry_symbol if given (an error if undefined),
 * otherwise the symbol "_start" or "start" if defined, otherwise base. */
int vasm_assemble(const struct vasm_source *srcs, size_t nsrcs,
                  const struct vasm_options *opt, struct vasm_image *out,
                  struct vasm_diag *diag);

/* Added by the vasm implementation: like vasm_assemble(), and if listing is
 * not NULL and assembly succeeds, *listing receives a malloc'd NUL-terminated
 * text listing (address, up to 8 bytes, line number, source line), which the
 * caller frees.  *listing is NULL on failure. */
int vasm_assemble_listing(const struct vasm_source *srcs, size_t nsrcs,
                          const struct vasm_options *opt, struct vasm_image *out,
                          struct vasm_diag *diag, char **listing);

void vasm_image_free(struct vasm_image *img);

/* Write the image as an ELF32 EM_VAX (75) little-endian executable with one
 * PT_LOAD segment, section headers for .text/.data/.bss and a symbol table. */
int vasm_write_elf(const struct vasm_image *img, const char *path,
                   struct vasm_diag *diag);
/* Write the loaded image as flat bytes starting at img->base (.bss not
 * included). */
int vasm_write_raw(const struct vasm_image *img, const char *path,
                   struct vasm_diag *diag);

#endif
