/* The probe unit's zero-perturbation mode (vm_probe_free.c): the host runs
 * a request's routines between two microcycles, where the charged mode
 * dispatches to microcode/probe.mic. */
#ifndef VAX_MACHINE_VM_PROBE_FREE_H
#define VAX_MACHINE_VM_PROBE_FREE_H

struct vax_machine;

/* Runs the routines the IRD point's request queued (vm_probe_ird or
 * vm_probe_ird_pc answered VM_PRB_FREE). */
void vm_probe_run_free(struct vax_machine *m);

#endif
