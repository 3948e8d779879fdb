/* The probe unit's zero-perturbation mode: the routines of a request run
 * in the host (vax/probe/probe_exec.c, the same installed bytes probe.mic
 * interprets) at the IRD point where the charged mode would enter
 * PRB.REQ, with no microcycle spent.  What a routine reads is the
 * machine's state as the microcode would read it (vm_probe_unit.c's reads
 * that never fault); its records, and the markers of TRON and TROFF, go
 * to the host's sink in order instead of into the trace buffer, which
 * the guest sees. */
#include "vax/machine/vm_probe_free.h"

#include "vax/machine/vm_dev.h"
#include "vax/machine/vm_internal.h"
#include "vax/machine/vm_probe_unit.h"
#include "vax/machine/vm_spam.h"
#include "vax/probe/probe_exec.h"

static uint32_t h_value(void *ctx, unsigned sel) { return vm_probe_value(ctx, sel); }
static int h_vread(void *ctx, uint32_t va, uint32_t *out) { return vm_probe_vread(ctx, va, out); }
static int h_pread(void *ctx, uint32_t pa, uint32_t *out) { return vm_probe_pread(ctx, pa, out); }

static void h_command(void *ctx, unsigned ipr, uint32_t v, uint32_t arg)
{
    vm_probe_command(ctx, ipr, v, arg);
}

/* A record's first longword as the microcode stamps it: ICR<15:0>, ICNT<15:0>. */
static uint32_t stamp(struct vax_machine *m)
{
    return (vm_dev_host_ipr_read(m, 0x1A) & 0xFFFF) << 16 | (m->icnt & 0xFFFF);
}

/* n records to the host's sink, if tracing is on (the group as a whole:
 * as TRACE.PUT would, but in the host's file only). */
static int to_sink(struct vax_machine *m, const uint32_t *recs, unsigned n)
{
    vm_probe_sink_fn *fn;
    void *sctx;
    vm_probe_sink(m, &fn, &sctx);
    if (!fn || !(m->ipr[VM_SPAM_STAT] & VM_SPAM_ST_ON))
        return -1;
    fn(sctx, m, recs, n);
    return 0;
}

static void h_record(void *ctx, uint32_t detail, const uint32_t *v, unsigned n)
{
    struct vax_machine *m = ctx;
    uint32_t recs[2 * (1 + 8)];
    unsigned k = 0;
    recs[k++] = stamp(m);
    recs[k++] = (m->psl & 0xFFFF0000u) | 0x7000u | (detail & 0xFFF);
    for (unsigned i = 0; i < n; i += 2) {
        recs[k++] = v[i];
        recs[k++] = i + 1 < n ? v[i + 1] : 0;
    }
    if (to_sink(m, recs, k / 2) < 0)
        vm_probe_count_norec(m);
}

/* TRON, TROFF: SPAM's status as ENABLE and DISABLE leave it, the marker
 * to the sink. */
static void h_trace(void *ctx, int on)
{
    struct vax_machine *m = ctx;
    uint32_t *st = &m->ipr[VM_SPAM_STAT];
    if (on) {
        if (!(*st & VM_SPAM_ST_PTRS)) {
            vm_probe_count_error(m);
            return;
        }
        if (*st & VM_SPAM_ST_ON)
            return;
        *st = (*st & ~VM_SPAM_ST_FULL) | VM_SPAM_ST_ON;
    } else if (!(*st & (VM_SPAM_ST_ON | VM_SPAM_ST_FULL))) {
        return;
    }
    uint32_t mark[2] = {stamp(m), (m->psl & 0xFFFF0000u) | (on ? 0x6001u : 0x6002u)};
    int was_on = (*st & VM_SPAM_ST_ON) != 0;
    if (was_on)
        to_sink(m, mark, 1);
    if (!on)
        *st &= ~(VM_SPAM_ST_ON | VM_SPAM_ST_FULL);
}

void vm_probe_run_free(struct vax_machine *m)
{
    struct prb_host h = {
        .ctx = m, .value = h_value, .vread = h_vread, .pread = h_pread, .record = h_record,
        .trace = h_trace, .command = h_command,
    };
    vm_probe_region(m, &h.region, &h.region_pa, &h.region_len);
    uint32_t code;
    while ((code = vm_probe_free_next(m)) != 0)
        prb_exec(&h, code, h.region_pa);
}
