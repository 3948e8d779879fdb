/* The decode ROMs (vm_drom.c; MICROARCHITECTURE.md §4): the opcode ROM,
 * one word per opcode (its execute entry, operand descriptors, widths and
 * the register and memory forks), and the specifier-mode ROM, built when
 * the control store is loaded from vax/isa's opcode table and the
 * microcode's labels. */
#ifndef VAX_MACHINE_VM_DROM_H
#define VAX_MACHINE_VM_DROM_H

#include <stddef.h>
#include <stdint.h>

#include "microcode/uasm.h"

struct vax_machine;

/* Access classes of operand descriptors, in ACC-dispatch order. */
enum { ACC_R, ACC_M, ACC_W, ACC_A, ACC_V, ACC_B };

/* Operand variants: how the specifier flows treat an operand beyond its
 * access class (MICROARCHITECTURE.md §4): integer, F/D floating (their
 * short literals expand alike), G floating, octaword, H floating. */
enum { VAR_INT, VAR_F, VAR_G, VAR_O, VAR_H, VAR_N };
#define SPEC_CLASSES (5 * VAR_N) /* access class R M W A V x variant */

struct drom_entry {      /* one opcode's decode-ROM word */
    uint16_t entry;      /* execute entry point */
    uint8_t defined;     /* 0: reserved instruction */
    uint8_t n;           /* number of operands */
    uint8_t acc[6];      /* ACC_* */
    uint8_t sc[6];       /* specifier class: acc * VAR_N + variant */
    uint8_t dt[8];       /* 0 B, 1 W, 2 L, 3 Q, 4 O; L beyond the operands */
    uint8_t size[8];     /* dt's byte counts (SIZE) */
    uint8_t last;        /* the last operand (0 if none) */
    uint8_t wd0;         /* the first operand's width (L if none) */
    /* the register fork (MICROARCHITECTURE.md §4): when specifier `fork`
     * is register mode Rn (n < 15, no index), the SPECMODE dispatch enters
     * reg_entry (the label MNEMONIC.REG) instead of SPEC.X.REG; fork is
     * 0xFF when the microcode has no such label */
    uint8_t fork;
    uint16_t reg_entry;
    /* the memory fork: when operand mfork (the same operand, modify or
     * write) is in memory, SPECNEXT after the last specifier enters
     * mem_entry (MNEMONIC.MEM) instead of entry; 0xFF: no such label */
    uint8_t mfork;
    uint16_t mem_entry;
};

/* Builds m's decode ROMs (drom, spec_tab, spec_b) and the entry points
 * the sequencer jumps to by itself (RESERVED_INSTRUCTION, INTERRUPT,
 * MACHINE_CHECK, TB_MISS, TRACE_PENDING) from img's labels.  0, or -1
 * with a message (labels missing, out of memory). */
int vm_drom_build(struct vax_machine *m, const struct ucode_image *img, char *err,
                  size_t errlen);

#endif
