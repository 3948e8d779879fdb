/* The F-box: the 8600's floating-point unit beside the E-box, for the F,
 * D and G formats (MICROARCHITECTURE.md §12).  Microcode drives it with
 * the FOP field: a function reads this cycle's A and B buses and the
 * unit's own registers, leaves its result on FBL/FBH and its status on
 * the FB.* conditions, and costs the microcycles the unit takes.  The
 * unit knows no VAX instruction; everything around the arithmetic
 * (operands, special cases, exceptions, condition codes) is microcode. */
#ifndef VAX_MACHINE_VM_FBOX_H
#define VAX_MACHINE_VM_FBOX_H

#include <stdint.h>

struct vm_fbox {
    uint32_t fbl, fbh;   /* the result bus (sources FBL, FBH) */
};

/* Performs F-box function fop (enum uw_fop, not NONE) on the A and B
 * bus values; returns the stall microcycles beyond the word's own. */
unsigned vm_fbox_op(struct vm_fbox *f, unsigned fop, uint32_t a, uint32_t b);

void vm_fbox_reset(struct vm_fbox *f);

#endif
