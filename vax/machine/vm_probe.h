/* The probe unit seen from the host (issue 30; vax/probe/PROBES.md):
 * loading verified programs into the probe megabyte, the zero-
 * perturbation mode, and reading back what the probes counted.  The
 * hardware itself (comparators, the frame table, the requests at IRD)
 * is vm_probe_unit.h.  Nothing here prints. */
#ifndef VAX_MACHINE_VM_PROBE_H
#define VAX_MACHINE_VM_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "vax/machine/vm.h"
#include "vax/probe/probe_isa.h"
#include "vax/probe/probe_verify.h"

#define VM_PROBE_PROGRAMS 16

/* Loads program p: verified (a rejection is -1 with the verifier's
 * reason in err, prefixed by the probe's name or number), installed in
 * the probe megabyte (mapped into the PAMM on the first load), its probes
 * armed unless they say disarmed.  Returns the program's handle (0..15).
 * Between vm_run slices or before the first. */
int vm_probe_load(struct vax_machine *m, const struct prb_program *p, char *err, size_t errlen);
/* The same for an image (probe_image.h): what PRBLOAD (FD06) does. */
int vm_probe_load_image(struct vax_machine *m, const uint8_t *img, size_t len, char *err,
                        size_t errlen);
/* Disarms and removes a program.  0, or -1 when there is none. */
int vm_probe_unload(struct vax_machine *m, int handle);
/* Arms (1) or disarms (0) every probe of a program. */
int vm_probe_arm_all(struct vax_machine *m, int handle, int on);

/* The zero-perturbation mode: the routines run in the host (probe_exec.h)
 * at the same checkpoints, costing the guest nothing.  Before the run. */
void vm_probe_set_free(struct vax_machine *m, int on);
int vm_probe_free(const struct vax_machine *m);
/* Where the free mode's probe records (and the markers of its TRON and
 * TROFF) go: not into the trace buffer, which the guest sees, but to the
 * host, in order: the sink first takes the buffer's records written
 * before (the host drain), then the n records given (w0, w1 each).
 * Without a sink they count as not recorded. */
typedef void vm_probe_sink_fn(void *ctx, struct vax_machine *m, const uint32_t *recs,
                              unsigned n);
void vm_probe_set_sink(struct vax_machine *m, vm_probe_sink_fn *fn, void *ctx);

/* One probe's counts. */
struct vm_probe_info {
    int kind;
    int armed;
    uint32_t cost, budget;          /* the verifier's worst case, the budget */
    uint64_t fires;                 /* routines run */
    uint64_t cycles;                /* microcycles charged (0 in the free mode) */
    uint32_t max_cycles;            /* the most one firing took */
    uint64_t errors;                /* reads that failed, bad instructions */
    uint64_t norec;                 /* records not written (tracing off) */
    uint64_t filtered;              /* checkpoint reached, a filter said no */
};
int vm_probe_info(const struct vax_machine *m, int handle, unsigned probe,
                  struct vm_probe_info *out);

/* The unit's totals. */
struct vm_probe_totals {
    uint64_t cycles;                /* every microcycle of the probe windows */
    uint64_t requests;              /* flows entered (charged) or host calls (free) */
    uint64_t ident_walks;           /* process identities read after LDPCTX */
    uint64_t frames_watched, frames_returned, frames_unwound, frames_dropped;
    uint64_t hook_cycles;           /* SPAM hook words run only because of probes */
};
void vm_probe_totals(const struct vax_machine *m, struct vm_probe_totals *out);

/* The notes routines gave the host (the NOTE instruction) since the last
 * call, and the last one's code in *last. */
unsigned vm_probe_notes(struct vax_machine *m, uint32_t *last);
/* Empties a map (slots as a load leaves them).  0, or -1. */
int vm_probe_map_clear(struct vax_machine *m, int handle, unsigned map);

/* A map's descriptor and its slots (read-only; prb_map_slot reads one),
 * or -1 when the program or the map does not exist. */
int vm_probe_map(const struct vax_machine *m, int handle, unsigned map,
                 const struct prb_map_desc **d, const uint8_t **slots);

#endif
