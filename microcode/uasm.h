/* The microassembler and the control-store image (MICROARCHITECTURE.md §6).
 * Nothing here prints or exits: errors come back as text, one
 * "file:line: message" per line.                                         */
#ifndef MICROCODE_UASM_H
#define MICROCODE_UASM_H

#include <stddef.h>
#include <stdint.h>

#include "microcode/uword.h"

struct ulabel {
    char *name;
    uint16_t addr;
};

/* A control store: UCS_SIZE words (unused ones have valid = 0), the
 * exported labels, and (after assembly only) per-word source positions for
 * the listing. */
struct ucode_image {
    struct uword *words;  /* UCS_SIZE entries */
    uint32_t used;        /* highest used address + 1 */
    struct ulabel *labels;
    size_t nlabels;
    char **src_text;      /* per address, or NULL (loaded images) */
    char **src_pos;       /* "file:line" per address, or NULL */
};

/* Assemble source files (one program, one label namespace).  Returns 0, or
 * -1 with the error lines in *errs (malloc'ed, caller frees).  At most
 * max_errors errors are reported. */
int uasm_assemble_files(const char *const *paths, int npaths,
                        struct ucode_image *out, char **errs);
/* Assemble one text held in memory, named `name` in messages. */
int uasm_assemble_text(const char *name, const char *text,
                       struct ucode_image *out, char **errs);

void ucode_image_free(struct ucode_image *img);

/* Label lookup: returns the address, or -1. */
int ucode_label(const struct ucode_image *img, const char *name);

/* The binary image: "VAXUCS02", u32 used, u32 nlabels, used x 16 bytes,
 * then per label u16 addr, u16 len, name bytes, then the CRC-32 (zlib) of
 * all the bytes before it.  Little endian.  ucode_image_serialize returns
 * a malloc'ed buffer; ucode_image_parse refuses an image whose CRC does
 * not match (a damaged image is never run). */
uint8_t *ucode_image_serialize(const struct ucode_image *img, size_t *len);
int ucode_image_parse(const uint8_t *buf, size_t len, struct ucode_image *out,
                      char *err, size_t errlen);
/* The CRC an image carries (its last 4 bytes): the digest of the image. */
uint32_t ucode_image_crc(const uint8_t *buf, size_t len);
/* 1 if buf starts with the image magic. */
int ucode_is_image(const uint8_t *buf, size_t len);

/* The listing: one line per used word, address, labels, fields that differ
 * from the default, source text.  Returns a malloc'ed string. */
char *ucode_listing(const struct ucode_image *img);

/* Describe one word's non-default fields into buf. */
void uword_describe(const struct uword *w, char *buf, size_t len);

/* The default control store built into the library at build time
 * (the .mic sources in microcode/).  Returns 0, or -1 with a message. */
int ucode_default_image(struct ucode_image *out, char *err, size_t errlen);

#endif
