/* The microword interpreter (vm_interp.c): the sequencer executing one
 * microword a microcycle -- its data path, memory request, MISC and
 * sequencing, the microtrap abort state -- in the microcycle loop, and
 * the IRD point that ends an instruction.
 *
 * This header is also the sequencer's port for the layers above it (the
 * trace cache, vm_tcache*.c; a compiler of traces next): they include it
 * and nothing else of the machine's, and reach the sequencer only through
 * what it declares and includes: the machine (vm_internal.h), the data
 * path's parts (vm_datapath.h), IRD's parts (vm_ird.h), the memory's fast
 * lane (vm_mem_fast.h), SPAM's registers (vm_spam.h), and the
 * interpreter's parts below. */
#ifndef VAX_MACHINE_VM_INTERP_H
#define VAX_MACHINE_VM_INTERP_H

#include <stdint.h>

#include "vax/machine/vm_datapath.h"
#include "vax/machine/vm_internal.h"
#include "vax/machine/vm_ird.h"
#include "vax/machine/vm_mem_fast.h"
#include "vax/machine/vm_spam.h"

/* Runs the microcycle loop (one per MAPEN state, and a general one for
 * micro-tracing) until the machine stops or the cycle limit is reached;
 * the machine has been started (vm_run_plain). */
void vm_interp_run(struct vax_machine *m, uint64_t limit);

/* ---- the interpreter's parts for the layers above ---- */

/* One microword through the interpreter (vm_word_step): what it did. */
enum { VM_WS_NEXT, VM_WS_IRD, VM_WS_STOP, VM_WS_LIMIT };
struct vm_wstep {
    int status;          /* VM_WS_* */
    unsigned next;       /* NEXT: the next micro-address */
    int trapped;         /* NEXT: it microtrapped (next is the trap flow) */
    int remap;           /* an IPR write changed MAPEN */
    unsigned fl;         /* IRD: the word's ALU flags, PSL at its start and */
    uint32_t psl0, a;    /* A bus, for the IRD point's abort state */
    int utret;           /* it was UTRET: 1 the trapped word next, 2 its
                          * sequencing done again (0: not UTRET) */
};
/* Executes the word at m->upc, stopping before an IRD point (the trace
 * cache's generic handler and recorder). */
void vm_word_step(struct vax_machine *m, uint64_t limit, int mapen, struct vm_wstep *si);
/* Executes words from m->upc (MAPEN on) while the TB-miss flow is active:
 * through the word that ends it (UTRET, UTABORT) or, as vm_word_step
 * does, before an IRD or the cycle limit; *si describes the last word. */
void vm_flow_step(struct vax_machine *m, uint64_t limit, struct vm_wstep *si);
/* Leaves an IRD point pending (an instruction step ends there, or MAPEN
 * changed in the word that ends the instruction): the loop resumes it
 * with the word's flags, PSL and A, and the MAPEN its abort state saw. */
void vm_ird_pending(struct vax_machine *m, int mapen, unsigned fl, uint32_t psl0,
                    uint32_t a);
/* The sequencing phase's abort state (IRD, SPECMODE; ird = 1 for IRD):
 * taken, 1, unless MAPEN is off or the fetch of n bytes cannot microtrap. */
int vm_seq_abort_state(struct vax_machine *m, int mapen, unsigned n, unsigned fl,
                       uint32_t psl0, uint32_t a, int ird);
/* The sequencing of a word whose outcome differed from the one a trace
 * recorded (a branch, a data dispatch, IRDIF, SPECNEXT to the memory
 * fork): never an I-stream fetch; m->upc is the word.  VM_SEQ_IRD: the
 * word does IRD. */
#define VM_SEQ_IRD 0xFFFFu
unsigned vm_seq_resolve(struct vax_machine *m, const struct uword *w, unsigned fl,
                        uint32_t psl0, uint32_t a, unsigned wd);
/* A microbranch condition (§3.6) of word w with its flags, PSL and A. */
int vm_cond(const struct vax_machine *m, unsigned c, unsigned fl, uint32_t psl,
            uint32_t a, const struct uword *w);
/* Stops the machine with "microcode error: what at micro-address ...". */
void vm_ucode_error(struct vax_machine *m, const char *what);

/* ---- the dispatch interface: the one way the sequencer calls up ---- */

/* The machine's `engine` (vm_internal.h), when not NULL, is called at
 * every IRD point the interpreter reaches (not while micro-tracing), as
 *     int engine(m, limit, mapen, snapped, &upc)
 * with the abort state for the opcode fetch taken if `snapped`; it runs
 * the machine from there, as far as it can, and returns where the loop
 * goes on: IRDP_CONT at *upc, IRDP_RETURN from the loop (stopped, or an
 * instruction step ended), IRDP_REMAP for the other MAPEN's loop.  The
 * trace cache's is vm_tc_run (vm_tcache_exec.h). */
enum { IRDP_CONT, IRDP_RETURN, IRDP_REMAP };

#endif
