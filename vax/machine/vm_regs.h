/* The data path's register file as the machine keeps it (vm_internal.h):
 * the index of every bus register a microword selects by number, and the
 * latch offsets a selector adds (MICROARCHITECTURE.md §2, §3.1). */
#ifndef VAX_MACHINE_VM_REGS_H
#define VAX_MACHINE_VM_REGS_H

/* The register file: every bus register the microword selects by number
 * lives at a fixed index, so a selector is an index plus a latch offset. */
enum {
    RF_T = 0, RF_R = 16, RF_OPV = 32, RF_OPH = 38, RF_OPA = 44,
    RF_OPX = 50, RF_OPY = 56,
    RF_PSL = 62, RF_MAR, RF_MDR, RF_Q, RF_SC, RF_ICNT,
    RF_ZERO, RF_K, RF_LIT, RF_SINK, RF_SIZE, RF_LA, RF_LB, RF_N = 76
};
#define VM_LS_WORDS 256 /* the E-box scratchpad (LSA, LSB; ESPA/ESPD) */
/* lat[] offsets: 0 none, 1 SPEC mod 6, 2 OPK, 3 RN, 4 the last operand,
 * 5 RN + 1 (mod 16) */
enum { LAT_0, LAT_SPEC, LAT_OPK, LAT_RN, LAT_LAST, LAT_RN1, LAT_N };

#endif
