/* The probe unit as hardware (MICROARCHITECTURE.md §15): what the
 * sequencer, the condition logic, the IPR port, the memory path and the
 * trace cache ask of it.  Each hook costs nothing while no program is
 * loaded (m->prb is NULL); vm_probe_unit.c implements them. */
#ifndef VAX_MACHINE_VM_PROBE_HW_H
#define VAX_MACHINE_VM_PROBE_HW_H

#include <stdint.h>

#include "vax/machine/vm_probe.h"

struct vax_machine;

/* requests pending at the next IRD point (m->prb_req) */
#define VM_PRQ_EVENT 1u  /* a SPAM hook's event the unit selected */
#define VM_PRQ_IDENT 2u  /* LDPCTX: the process identity changed */
#define VM_PRQ_RET 4u    /* a watched frame returned (the free mode) */
#define VM_PRQ_FETCH 8u  /* a PC probe's flow ends: the IRD fetches at once */

/* The IRD point, after the count, before the interrupt check (requests,
 * samples due, and the PC probe's own fetch): the probe flow's micro-
 * address (PRB.REQ), VM_PRB_FETCH (fetch now), VM_PRB_FREE (the free
 * mode: the queue is ready for vm_probe_run_free) or VM_PRB_GO (carry
 * on). */
#define VM_PRB_GO 0xFFFDu
#define VM_PRB_FREE 0xFFFEu
#define VM_PRB_FETCH 0xFFFFu
unsigned vm_probe_ird(struct vax_machine *m);
/* The IRD point, after the trace-fault logic, before the fetch: the PC
 * comparators (called while m->prb_npc is not 0).  PRB.REQ, VM_PRB_FREE
 * or VM_PRB_GO. */
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
/* The probe unit's IPR numbers: the guest's interface 0xD0-0xD8, the
 * commands 0xEA-0xEF (in SPAM's reserved private numbers), the registers
 * 0xF0-0xFF; the port reaches them only in a private window (TRACEWR's,
 * or the probe window). */
static inline int vm_probe_ipr(uint32_t n)
{
    return (n >= 0xD0 && n <= 0xD8) || (n >= 0xEA && n <= 0xEF) || (n >= 0xF0 && n <= 0xFF);
}
/* The IPR port for those: 0, or -1 (no such register: IPR.BAD). */
int vm_probe_ipr_read(struct vax_machine *m, uint32_t n, uint32_t *v);
int vm_probe_ipr_write(struct vax_machine *m, uint32_t n, uint32_t v);
/* The unit's memory and state go with the machine. */
void vm_probe_destroy(struct vax_machine *m);

/* ---- the host's changes (vm_host.c routes vm_probe.h's calls here, and
 * to the lock-step check's second machine) ---- */
int vm_prb_load(struct vax_machine *m, const struct prb_program *p, char *err, size_t errlen);
int vm_prb_load_image(struct vax_machine *m, const uint8_t *img, size_t len, char *err,
                      size_t errlen);
int vm_prb_unload(struct vax_machine *m, int handle);
int vm_prb_arm_all(struct vax_machine *m, int handle, int on);
void vm_prb_set_free(struct vax_machine *m, int on);
int vm_prb_map_clear(struct vax_machine *m, int handle, unsigned map);

/* ---- for the free mode's executor (vm_probe_free.c) ---- */
/* The queue of a request, one entry at a time: the routine's address and
 * its context made current (0: none left).  The identity walk, when the
 * request asked for it, is done first. */
uint32_t vm_probe_free_next(struct vax_machine *m);
/* The value of a context selector, the reads probe.mic makes (0, or -1:
 * it does not translate or is not memory), a command (the IPR numbers of
 * probe_exec.h), and the probe region. */
uint32_t vm_probe_value(struct vax_machine *m, unsigned sel);
int vm_probe_vread(struct vax_machine *m, uint32_t va, uint32_t *out);
int vm_probe_pread(struct vax_machine *m, uint32_t pa, uint32_t *out);
void vm_probe_command(struct vax_machine *m, unsigned ipr, uint32_t v, uint32_t arg);
void vm_probe_region(struct vax_machine *m, uint8_t **host, uint32_t *pa, uint32_t *len);
/* The running probe counts a record not written, an error. */
void vm_probe_count_norec(struct vax_machine *m);
void vm_probe_count_error(struct vax_machine *m);
/* The host's record sink (vm_probe.h vm_probe_set_sink): NULL if none. */
void vm_probe_sink(struct vax_machine *m, vm_probe_sink_fn **fn, void **ctx);

#endif
