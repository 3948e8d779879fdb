/* vdis: a VAX disassembler library for the whole instruction set of
 * vax/isa (floating immediates come out as their bits in hex).
 * Output is GNU-as-for-VAX syntax that vasm (and, apart from the SPAM
 * opcodes, GNU as) reassembles to the very same bytes when assembled at
 * the same address: registers as %rN/%ap/%fp/%sp/%pc, explicit size
 * prefixes (b` w` l` s`) where the encoding is not the one automatic
 * sizing would choose, branch and PC-relative targets as absolute
 * addresses.  Nothing here prints or exits.  See vax/dis/README.md for
 * the exact rules (which specifiers are rejected, immediate syntax...). */
#ifndef VDIS_H
#define VDIS_H

#include <stddef.h>
#include <stdint.h>

struct vdis_insn {
    uint32_t addr;      /* address of the first byte                 */
    int len;            /* bytes consumed                            */
    uint16_t opcode;    /* 0x00-0xFC, or 0xFDxx                      */
    const char *name;   /* mnemonic, NULL if not an instruction     */
    char text[200];     /* "movl\t$0x5,%r0" or ".byte\t0xfe" etc.    */
};

/* Disassemble one instruction from buf (avail bytes, at address addr).
 * Returns the length (>= 1).  Bytes that are not a valid instruction (see
 * README.md), or an instruction cut off by the end of the buffer, come out
 * as a ".byte" line of length 1 and name NULL, so a caller can always make
 * progress.  Never reads past buf + avail.  avail == 0 is allowed: the
 * result is then an empty text with length 0 (the only case of len 0). */
int vdis_one(const uint8_t *buf, size_t avail, uint32_t addr,
             struct vdis_insn *out);

/* Flags for vdis_one_ex (vdis_one is vdis_one_ex with flags 0). */
enum vdis_flags {
    /* PC-relative specifiers as "b`0x10(%pc)" (the raw displacement)
     * instead of the absolute target "b`0x1103".  GNU as turns an
     * absolute numeric operand into absolute mode (9F), so this is the
     * form to use when GNU as has to reproduce the bytes.             */
    VDIS_PCREL_AS_DISP = 1u << 0,
    /* Print specifiers that the architecture makes a reserved addressing
     * mode fault or UNPREDICTABLE (PC in register modes, register as an
     * address operand, literal as a destination, ...) as they are encoded,
     * instead of falling back to ".byte".  Index-of-index and other forms
     * with no assembler syntax still give ".byte".                      */
    VDIS_LENIENT = 1u << 1,
};

int vdis_one_ex(const uint8_t *buf, size_t avail, uint32_t addr,
                unsigned flags, struct vdis_insn *out);

/* If the instruction just decoded (in) is a CASEB/CASEW/CASEL whose limit
 * operand is a literal or an immediate, return the number of word
 * displacements in the table that follows it (limit + 1), else 0. */
int vdis_case_entries(const uint8_t *buf, size_t avail,
                      const struct vdis_insn *in);

#endif
