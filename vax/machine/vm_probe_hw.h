/* The probe unit as hardware (MICROARCHITECTURE.md §15): what the
 * sequencer, the condition logic, the IPR port, the memory path and the
 * trace cache ask of it.  Each hook costs nothing while no program is
 * loaded (m->prb is NULL); vm_probe.c implements them. */
#ifndef VAX_MACHINE_VM_PROBE_HW_H
#define VAX_MACHINE_VM_PROBE_HW_H

#include <stdint.h>

struct vax_machine;

/* requests pending at the next IRD point (m->prb_req) */
#define VM_PRQ_EVENT 1u  /* a SPAM hook's event the unit selected */
#define VM_PRQ_IDENT 2u  /* LDPCTX: the process identity changed */
#define VM_PRQ_RET 4u    /* a watched frame returned (the free mode) */

/* The IRD point, after the count, before the interrupt check (requests,
 * samples due, and the PC probe's own fetch): the probe flow's micro-
 * address (PRB.REQ), VM_PRB_FETCH (fetch now: the fault latches are
 * set), or VM_PRB_GO (carry on). */
#define VM_PRB_GO 0xFFFEu
#define VM_PRB_FETCH 0xFFFFu
unsigned vm_probe_ird(struct vax_machine *m);
/* The IRD point, after the trace-fault logic, before the fetch: the PC
 * comparators (called while m->prb_npc is not 0).  PRB.REQ or
 * VM_PRB_GO. */
unsigned vm_probe_ird_pc(struct vax_machine *m);
/* The probe window closes (the IRD ending PRB.REQ or PRB.RETURN). */
void vm_probe_close(struct vax_machine *m);
/* MISC PRBOPEN (PRB.RETURN's first word): t0 the microcycle before it. */
void vm_probe_open(struct vax_machine *m, uint64_t t0);
/* A SPAM hook's TRACEHK at micro-address upc (it decides SPEV) and the
 * IRD that closes its window (hook_cycles: the window's microcycles). */
void vm_probe_hook(struct vax_machine *m, unsigned upc);
void vm_probe_hook_close(struct vax_machine *m, uint64_t hook_cycles, uint64_t *spam_cycles);
/* MISC INTACK: an interrupt is delivered (the nesting count). */
void vm_probe_int_ack(struct vax_machine *m);
/* The conditions SPEV and FRMW (a FRMW that finds a frame in the free
 * mode queues its return probes and answers 0). */
int vm_probe_spev(const struct vax_machine *m);
int vm_probe_frmw(struct vax_machine *m);
/* The IPR port for 0xEA-0xEF and 0xF0-0xFF while the probe window is
 * open: 0, or -1 (no such register: IPR.BAD). */
int vm_probe_ipr_read(struct vax_machine *m, uint32_t n, uint32_t *v);
int vm_probe_ipr_write(struct vax_machine *m, uint32_t n, uint32_t v);
/* The I-stream memo does not hold a line with a PC comparator in it. */
int vm_probe_iline(const struct vax_machine *m, uint32_t va);
/* The unit's memory and state go with the machine. */
void vm_probe_destroy(struct vax_machine *m);

#endif
