/* IRD and the specifier phase's sequencing (MICROARCHITECTURE.md §4,
 * §10), inline, as the microword interpreter (vm_interp.c) and the trace
 * cache run them: IRD's interrupt check, which evaluates the request
 * logic only when a request could have appeared; SPAM's window, which IRD
 * closes; IRD's part before the opcode fetch (count, clear, the interrupt
 * and the trace fault); the latches that follow SPEC, OPK, RN and the
 * decode; the I-stream read; the SPECMODE dispatch, SPECNEXT; the decode.
 * vm_ird.c has out-of-line copies of some for the trace cache's cold
 * paths.  The decode ROMs these read are vm_drom.c's. */
#ifndef VAX_MACHINE_VM_IRD_H
#define VAX_MACHINE_VM_IRD_H

#include <stdint.h>

#include "vax/machine/vm_datapath.h"
#include "vax/machine/vm_dev.h"
#include "vax/machine/vm_internal.h"
#include "vax/machine/vm_mem_fast.h"
#include "vax/machine/vm_probe_free.h"
#include "vax/machine/vm_probe_unit.h"

/* IRD's interrupt check (§9): only when a request could have appeared
 * since the last one -- a device event due, the IPL changed, an IPR or
 * the host touched the devices -- is the request logic evaluated.
 * int_unchanged: no IPR access, acknowledge or host touch since, and the
 * IPL the same; int_quiet: that, and no device event due. */
static inline int int_unchanged(const struct vax_machine *m)
{
    return !(m->int_dirty | ((m->psl & PSL_IPL_BITS) ^ m->int_ipl));
}

static inline int int_quiet(const struct vax_machine *m)
{
    return int_unchanged(m) && m->st.microcycles < m->int_next;
}

/* The evaluation itself (it may run the devices' pending events). */
static inline int int_eval(struct vax_machine *m)
{
    uint32_t vec, ipl = m->psl & PSL_IPL_BITS;
    if (vm_int_eval(m, &vec) > 0)
        return 1;
    m->int_dirty = 0;
    m->int_ipl = ipl;
    m->int_next = vm_dev_next_event(m);
    return 0;
}

static inline int int_request(struct vax_machine *m)
{
    if (LIKELY(int_quiet(m)))
        return 0;
    return int_eval(m);
}

/* SPAM's window opens (MISC TRACEWR, or TRACEHK in a traced flow's hook
 * at micro-address upc, which the probe unit watches): t0 is the
 * microcycle count before the word that opens it. */
static inline void vm_spam_open(struct vax_machine *m, uint64_t t0, int hook, unsigned upc)
{
    if (!m->spam_window) {
        m->spam_t0 = t0;
        m->spam_window = hook ? 2 : 1;
        if (hook && UNLIKELY(m->prb != NULL))
            vm_probe_hook(m, upc);
    }
}

/* IRD (§4), the part before the opcode fetch: count, clear, check for
 * an interrupt request and a trace fault; IRD_FETCH: go on to the fetch
 * (ird_decode below then latches the opcode). */
#define IRD_FETCH 0xFFFFu
/* Its first part: count and clear (ird_clear_latches: the latches it
 * clears, for a caller that knows SPAM's window is closed). */
static ALWAYS_INLINE void ird_clear_latches(struct vax_machine *m)
{
    m->log_n = 0; /* (these four are neighbours: two stores) */
    m->mchk_active = 0;
    m->in_exc = 0;
    m->mm_active = 0;
    m->usp = 0;
}
static ALWAYS_INLINE void ird_clear(struct vax_machine *m, int count)
{
    if (count)
        m->icnt++;
    ird_clear_latches(m);
    if (UNLIKELY(m->spam_window)) { /* SPAM's microcycles, this IRD's word included */
        if (m->spam_window >= 3) { /* the probe window (vm_probe_unit.h) */
            vm_probe_close(m);
        } else {
            uint64_t *c = m->spam_window == 2 ? &m->st.spam_hook_cycles
                                              : &m->st.spam_insn_cycles;
            *c += m->st.microcycles - m->spam_t0;
            if (m->spam_window == 2 && m->prb)
                vm_probe_hook_close(m, m->st.microcycles - m->spam_t0, c);
        }
        m->spam_window = 0;
    }
}

/* Its last part, after the interrupt check: the fault PC and CCs, and
 * the trace fault (§10): a pending trace faults before the fetch; else
 * T -> TP. */
static ALWAYS_INLINE void ird_fault_latches(struct vax_machine *m)
{
    m->fpc = m->r[15];
    m->fcc = m->psl;
}
static ALWAYS_INLINE unsigned ird_trace(struct vax_machine *m)
{
    ird_fault_latches(m);
    if (UNLIKELY(m->psl & (PSL_T | PSL_TP)) && m->l_trace) {
        if (m->psl & PSL_TP)
            return m->l_trace;
        m->psl |= PSL_TP;
    }
    return IRD_FETCH;
}

/* The probe unit's requests (MICROARCHITECTURE.md §15): before the
 * interrupt check, what came due after the last instruction (a SPAM
 * event, a return, a sample, the process identity) and the end of a PC
 * probe's flow; after the trace-fault logic, the PC comparators.  Both
 * tests are on fields that stay 0 (and prb_next UINT64_MAX) while no
 * probe program is loaded.  In the free mode the host runs the routines
 * (vm_probe_free.c) and the IRD goes on. */
static ALWAYS_INLINE unsigned ird_pre(struct vax_machine *m, int count)
{
    ird_clear(m, count);
    if (UNLIKELY(m->prb_req | (m->st.microcycles >= m->prb_next))) {
        unsigned x = vm_probe_ird(m);
        if (x == VM_PRB_FREE) {
            vm_probe_run_free(m);
        } else if (x == VM_PRB_FETCH) { /* the PC probe's flow is done */
            ird_fault_latches(m);
            return IRD_FETCH;
        } else if (x != VM_PRB_GO) {
            return x;
        }
    }
    if (m->l_intr && int_request(m))
        return m->l_intr; /* the interrupt flow, before any fetch */
    unsigned t = ird_trace(m);
    if (UNLIKELY(m->prb_npc) && t == IRD_FETCH) {
        unsigned x = vm_probe_ird_pc(m);
        if (x == VM_PRB_FREE)
            vm_probe_run_free(m);
        else if (x != VM_PRB_GO)
            return x;
    }
    return t;
}

/* ---- latches ----
 * lat[] and wdl[] follow SPEC, OPK, RN and the decoded opcode, so that a
 * selector or a DL of CUR/OPK is one indexed load in the loop. */

static inline void relatch_spec(struct vax_machine *m)
{
    const struct drom_entry *e = m->cur;
    unsigned sp = m->spec;
    if (LIKELY(sp < 6)) {
        m->lat[LAT_SPEC] = (uint8_t)sp;
        m->wdl[UDL_CUR] = e->dt[sp];
        m->rf_size = e->size[sp];
        return;
    }
    m->lat[LAT_SPEC] = sp % 6;
    m->wdl[UDL_CUR] = 2;
    m->rf_size = 4;
}

static inline void relatch_opk(struct vax_machine *m)
{
    const struct drom_entry *e = m->cur;
    m->lat[LAT_OPK] = m->opk;
    m->wdl[UDL_OPK] = e->dt[m->opk & 7];
}

static inline void relatch(struct vax_machine *m)
{
    m->lat[LAT_0] = 0;
    m->lat[LAT_RN] = m->rn;
    m->lat[LAT_RN1] = (m->rn + 1u) & 15;
    m->lat[LAT_LAST] = m->cur->n ? m->cur->n - 1u : 0;
    m->rf_lit = m->specb & 0x3F;
    m->wdl[UDL_L] = 2;
    m->wdl[UDL_B] = 0;
    m->wdl[UDL_W] = 1;
    m->wdl[UDL_Q] = 3;
    m->wdl[UDL_O] = 4;
    relatch_spec(m);
    relatch_opk(m);
}

/* ---- I-stream ---- */

static inline uint32_t istream(struct vax_machine *m, unsigned n)
{
    uint64_t v = 0;
    if (vm_read_fast(m, vm_memo_isel(m, m->r[15]), m->r[15], n, &v) < 0)
        return 0;
    m->r[15] += n;
    return (uint32_t)v;
}

/* The SPECMODE dispatch after the fetch of specifier byte b. */
static inline uint16_t spec_decode(struct vax_machine *m, uint32_t b)
{
    const struct drom_entry *e = m->cur;
    m->specb = (uint8_t)b;
    m->rn = b & 15;
    m->lat[LAT_RN] = m->rn;
    m->lat[LAT_RN1] = (m->rn + 1u) & 15;
    m->rf_lit = b & 0x3F;
    /* the register fork (§4): register mode Rn, n < 15, no index */
    if ((b & 0xF0) == 0x50 && m->spec == e->fork && (b & 15) != 15 && !m->idx)
        return e->reg_entry;
    return m->spec_tab[m->idx][e->sc[m->spec]][b & 0xFF];
}

/* The SPECMODE dispatch: consume the specifier byte (or, for a branch
 * displacement, nothing), latch RN, pick the entry. */
static inline uint16_t spec_dispatch(struct vax_machine *m)
{
    const struct drom_entry *e = m->cur;
    unsigned acc = e->acc[m->spec];
    if (acc == ACC_B)
        return m->spec_b;
    return spec_decode(m, istream(m, 1));
}

/* SPECNEXT: the next specifier, or the execute flow after the last. */
static ALWAYS_INLINE uint16_t spec_next(struct vax_machine *m)
{
    m->spec++;
    m->idx = 0;
    relatch_spec(m);
    const struct drom_entry *e = m->cur;
    if (m->spec < e->n)
        return spec_dispatch(m);
    /* the memory fork (§4): the fork operand is in memory */
    if (e->mfork != 0xFF && !m->opreg[e->mfork])
        return e->mem_entry;
    return e->entry;
}

/* IRD's last part: latch the opcode and its decode, then the first
 * specifier's SPECMODE dispatch or the execute entry.  (IRD is in three
 * parts, ird_pre, the fetch and this, so that the trace cache can put its
 * lookup between the opcode fetch and the decode.) */
static ALWAYS_INLINE uint16_t ird_decode(struct vax_machine *m, uint32_t op)
{
    m->opc = (uint16_t)op;
    m->st.instructions++;
    const struct drom_entry *e = &m->drom[op];
    m->cur = e;
    m->spec = 0;
    m->idx = 0;
    m->opk = 0;
    m->lat[LAT_LAST] = e->last;
    m->lat[LAT_SPEC] = 0;
    m->lat[LAT_OPK] = 0;
    m->wdl[UDL_CUR] = m->wdl[UDL_OPK] = e->wd0;
    m->rf_size = e->size[0];
    if (UNLIKELY(!e->defined))
        return m->l_rsvinsn;
    if (e->n == 0)
        return e->entry;
    return spec_dispatch(m);
}

/* IRD: count, check for interrupts, fetch and decode the opcode.  A stop
 * the request logic's devices raised (a console script's `halt`) comes
 * before the fetch; a fetch that microtraps (or stops the machine)
 * decodes nothing: the instruction has not begun, and the caller goes to
 * the trap, whose UTRET fetches again.  (The trace cache's fetch does
 * the same.)
 * (Inlined into the microcycle loop: it ends nearly every instruction.) */
static ALWAYS_INLINE uint16_t ird(struct vax_machine *m, int count)
{
    unsigned t = ird_pre(m, count);
    if (t != IRD_FETCH)
        return (uint16_t)t;
    if (UNLIKELY(m->stop)) /* (the request logic ran a device that stopped it) */
        return 0;
    uint32_t op = istream(m, 1);
    if (UNLIKELY(op == 0xFD) && LIKELY(!(m->utrap | m->stop)))
        op = 0x100 | istream(m, 1);
    if (UNLIKELY(m->utrap | m->stop))
        return 0;
    return ird_decode(m, op);
}

/* ---- vm_ird.c: out-of-line copies, for the trace cache's cold paths ---- */
uint16_t vm_ird_decode(struct vax_machine *m, uint32_t op);
uint16_t vm_spec_decode(struct vax_machine *m, uint32_t b);
/* SPECNEXT's latch part, before its dispatch */
void vm_spec_advance(struct vax_machine *m);
uint32_t vm_istream(struct vax_machine *m, unsigned n);

#endif
