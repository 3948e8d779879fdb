/* The control store (vm_cstore.c): the microprogram's words, each
 * pre-decoded once when it is loaded, so that the sequencer never works
 * out from a word's fields what is the same every microcycle. */
#ifndef VAX_MACHINE_VM_CSTORE_H
#define VAX_MACHINE_VM_CSTORE_H

#include <stdint.h>

#include "microcode/uword.h"

struct vax_machine;

/* A microword pre-decoded when the control store is loaded: the
 * word itself plus facts the sequencer would otherwise work out from its
 * fields every microcycle.  Nothing here changes what the word does. */
struct vm_pword {
    struct uword u;
    uint8_t fl;          /* PW_* */
    /* the bus selectors resolved to the register file (rf below): a
     * source reads rf[sel + lat[kind]]; kind PK_SLOW goes through the
     * general multiplexer with the field's own code */
    uint8_t sa, ka, sb, kb, ss, ks;
    uint8_t sd, kd, sd2, kd2;        /* destinations: PK_GPR, PK_RN, ... */
};
#define PW_XLATE 1u      /* may make a translated reference (snapshot) */
#define PW_SEQFETCH 2u   /* its sequencing fetches (IRD, SPECMODE) */
#define PW_MEM 4u        /* has a memory request */
#define PW_MISC 8u       /* has a MISC function */
#define PW_DP 16u        /* uses the data path (sources, ALU, results, flags) */
#define PW_S2 32u        /* uses S2/D2 (a second result, or an S2 side effect) */
#define PW_FL 64u        /* something looks at the ALU flags */
#define PW_SLOWSRC 128u  /* a source through the general multiplexer (IB...) */
/* selector kinds: 0-4 index lat[]; destinations add these */
#define PK_GPR 8         /* a general register: byte/word writes merge */
#define PK_RN 9          /* R[RN], logged for UNDO */
#define PK_OPR 10        /* R[OPA[OPK]] */
#define PK_RES 11        /* RES: MDR, and R[OPA[OPK]] for a register operand */
#define PK_IB 14         /* source IB: the I-stream, read inline */
#define PK_SLOW 15       /* the general multiplexer (src_slow, dst_slow) */
#define PK_SPECIAL(k) ((k) >= PK_IB) /* a source with side effects or traps */

/* Loads m's control store (m->cs, UCS_SIZE words) from words,
 * pre-decoding each. */
void vm_cstore_load(struct vax_machine *m, const struct uword *words);

#endif
