/* vasm internals shared by the assembler core (vasm.c) and the output
 * writers (vasm_out.c).  Not a public interface.                        */
#ifndef VASM_INT_H
#define VASM_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "vasm.h"

/* Append one "file:line: message" line to a diagnostics buffer. */
void vasm_diag_add(struct vasm_diag *d, const char *file, int line,
                   const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
