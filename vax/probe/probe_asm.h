/* The text form of probe programs (PROBES.md, "Text form"): an assembler
 * for `spamctl run --probes FILE` and the tests, and the reverse, a
 * listing of a program in the same syntax (the two round-trip). */
#ifndef VAX_PROBE_PROBE_ASM_H
#define VAX_PROBE_PROBE_ASM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vax/probe/probe_isa.h"

/* Assembles text (len bytes; NUL bytes are an error) into *p.  0, or -1
 * with "NAME:LINE:COL: message" in err. */
int prb_asm(const char *text, size_t len, const char *name, struct prb_program *p, char *err,
            size_t errlen);
/* The same, where a number may also be a symbol (with an optional
 * "+ N" or "- N"): resolve(ctx, name, &value) returns 0 with its value,
 * or -1 (an unknown symbol is an error naming it). */
typedef int (*prb_resolve_fn)(void *ctx, const char *name, uint32_t *value);
int prb_asm_syms(const char *text, size_t len, const char *name, prb_resolve_fn resolve,
                 void *ctx, struct prb_program *p, char *err, size_t errlen);

/* Writes p as text that prb_asm reads back to the same program.  0, or
 * -1 when the stream failed. */
int prb_disasm(const struct prb_program *p, FILE *f);

#endif
