/* A 4.3BSD VAX a.out image (<a.out.h>, <nlist.h>) as the trace tools read a
 * guest's kernel: the 32-byte header (magic 0407, 0410 or 0413; text,
 * data, bss, symbol table sizes, entry, relocation sizes), the text and
 * data as the image holds them, and the symbol table (12-byte nlist
 * entries, then the string table).  Every offset read from the image is
 * checked: a damaged image is an error, never a fault. */
#ifndef SPAM_AOUT_H
#define SPAM_AOUT_H

#include <stddef.h>
#include <stdint.h>

#include "spam/spam_err.h"

#define SPAM_AOUT_N_TEXT 0x04u
#define SPAM_AOUT_N_DATA 0x06u
#define SPAM_AOUT_N_BSS 0x08u
#define SPAM_AOUT_N_EXT 0x01u
#define SPAM_AOUT_N_TYPE 0x1Eu
#define SPAM_AOUT_N_STAB 0xE0u

struct spam_aout_sym {
    const char *name;
    uint8_t type;
    uint32_t value;
};

struct spam_aout {
    uint32_t magic, text, data, bss, syms, entry;
    /* virtual addresses of text and data: a kernel linked at 0x80000000
     * (from _etext and _edata when the image has them) */
    uint32_t text_va, data_va;
    const uint8_t *image;
    size_t len, text_off, data_off;
    struct spam_aout_sym *sym; /* in the image's order */
    size_t nsym;
    struct spam_aout_sym **by_value; /* text and data symbols sorted by value */
    size_t nby_value;
};

/* Parses image[0..len) (kept, not copied: it must outlive the result).
 * 0, or -1 with err. */
int spam_aout_parse(struct spam_aout *a, const uint8_t *image, size_t len, struct spam_err *err);
void spam_aout_free(struct spam_aout *a);
/* The symbol of that name (NULL if none). */
const struct spam_aout_sym *spam_aout_lookup(const struct spam_aout *a, const char *name);
/* The name of the text or data symbol at exactly va, preferring an
 * external one (NULL if none). */
const char *spam_aout_name_at(const struct spam_aout *a, uint32_t va);
/* Every external text or data symbol at exactly va, without the leading
 * '_' of C names, joined by '/' ("Xchme/Xchms/Xchmu"), or else a local
 * one; NULL if none.  buf holds the result. */
const char *spam_aout_names_at(const struct spam_aout *a, uint32_t va, char *buf, size_t len);
/* The longword at virtual address va in the text or data: 0, or -1 (not
 * in the image; bss reads as -1 too). */
int spam_aout_read32(const struct spam_aout *a, uint32_t va, uint32_t *v);

#endif
