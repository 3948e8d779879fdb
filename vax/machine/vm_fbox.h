/* The F-box: the 8600's floating-point unit beside the E-box, for the F,
 * D and G formats (MICROARCHITECTURE.md §12).  Microcode drives it with
 * the FOP field: a function reads this cycle's A and B buses and the
 * unit's own registers, leaves its result on FBL/FBH and its status on
 * the FB.* conditions, and costs the microcycles the unit takes.  The
 * unit knows no VAX instruction; everything around the arithmetic
 * (operands, special cases, exceptions, condition codes) is microcode.
 *
 * Registers: two operand registers FA and FB and the result register
 * FR, each unpacked: sign, unbiased exponent (value = 0.f x 2^exp) and a
 * 128-bit fraction (the binary point above bit 127; a normalized one has
 * bit 127 set; zero is fraction 0), plus a precision tag (the format the
 * value came in: it sets the multiply and divide times and the width of
 * an extension).  The functions (enum uw_fop, microcode/uword.h):
 *
 *   LDFA LDFB LDFAB   FA <- F(A bus), FB <- F(B bus), both; an A load
 *                     also copies the operand to FR (a conversion rounds
 *                     it from there)
 *   LDDA LDDB         FA or FB <- D(A bus first longword, B bus second)
 *   LDGA LDGB         the same for G
 *   LDI               FA, FR <- the integer on A, sign-extended from bit
 *                     B<5:0>-1 (B = 8, 16 or 32), exactly
 *   EXT               append extension bits below FA's fraction: A<7:0>
 *                     for an F or D operand, A<15:5> for G (EMOD)
 *   RTOA              FA <- FR
 *   ADD SUB           FR <- FA + FB, FB - FA; the sum of the exact values
 *                     truncated toward minus infinity at bit 0 of the
 *                     larger operand's 128-bit frame, a carry shifted
 *                     back, not otherwise normalized
 *   MUL               FR <- FA x FB: the exact product of the top 64
 *                     fraction bits of each, not normalized
 *   DIV               FR <- FB / FA, the quotient truncated at 64 bits;
 *                     a zero FA marks FR "divide by zero"
 *   FCMP              FBL <- -1, 0, +1 as FA <, =, > FB
 *   CHOP              keep the top B<7:0> bits of FR's fraction, then
 *                     normalize FR (POLY's and EMOD's truncations)
 *   SPLIT             FBL <- the low longword of the integer part of FR
 *                     (two's complement, truncated), FR <- the fraction
 *                     part (same sign, normalized); FB.IOV if the integer
 *                     part does not fit a signed longword
 *   RNDF RNDD RNDG    normalize FR, round it to the format (half an LSB
 *                     added to the magnitude, then truncated), pack it to
 *                     FBL (and FBH); a zero, an exponent out of range or
 *                     a divide-by-zero result packs as 0
 *   CVTI CVTRI        FBL <- the low longword of FR's integer part,
 *                     truncated or rounded half away from zero; FB.IOV if
 *                     it does not fit a signed integer of B<5:0> bits
 *
 * Status latches (conditions), each held until a function that sets it:
 *   FB.RSV  an operand load saw sign 1 with exponent 0 (an A load or
 *           LDFAB clears it first, a B load only adds to it)
 *   FB.V    the last round-and-pack overflowed the format's exponent
 *   FB.DZ   the last round-and-pack was of a divide by zero
 *   FB.EXC  the last round-and-pack overflowed, underflowed (exponent
 *           below the format's range) or was of a divide by zero
 *   FB.IOV  the last integer conversion or SPLIT overflowed         */
#ifndef VAX_MACHINE_VM_FBOX_H
#define VAX_MACHINE_VM_FBOX_H

#include <stdint.h>

/* One unpacked register.  fhi:flo is the 128-bit fraction. */
struct vm_fbreg {
    uint64_t fhi, flo;
    int32_t exp;
    uint8_t sign;
    uint8_t fmt; /* precision tag: VM_FB_I, _F, _D, _G */
    uint8_t dz;  /* FR: a divide by zero made it */
};

enum { VM_FB_I, VM_FB_F, VM_FB_D, VM_FB_G };

struct vm_fbox {
    uint32_t fbl, fbh;        /* the result bus (sources FBL, FBH) */
    struct vm_fbreg fa, fb, fr;
    uint8_t rsv, v, dz, exc, iov; /* status latches (FB.* conditions) */
};

/* Performs F-box function fop (enum uw_fop, not NONE) on the A and B
 * bus values; returns the stall microcycles beyond the word's own. */
unsigned vm_fbox_op(struct vm_fbox *f, unsigned fop, uint32_t a, uint32_t b);

void vm_fbox_reset(struct vm_fbox *f);

#endif
