/* The trace cache's executor (vm_tcache.h): from an IRD point, look the
 * instruction up by the physical address of its opcode and run its
 * trace's micro-operations, one handler each, chained by threaded
 * dispatch; leave for the interpreter where the path ends or diverges.
 *
 * Invariants while a trace runs:
 * - microcycles: m->st.microcycles lags by the static count of the words
 *   run since the last sync point (tc_word.pend); every point that can
 *   leave, or call the interpreter, adds it first;
 * - latches: the machine's SPEC/OPK/RN/width latches hold the values of
 *   the last point where they were written back; the trace's current
 *   values are its images (tc_word.pre/mid/seq), written back
 *   (tc_latch_apply) before anything else can look;
 * - the locals fl, a, psl0 hold the current word's ALU flags, A bus and
 *   starting PSL where its uops computed them (TW_FL, TW_A, TW_PSL0). */
#include <string.h>

#include "vax/machine/vm_datapath.h"
#include "vax/machine/vm_mem_fast.h"
#include "vax/machine/vm_spam.h"
#include "vax/machine/vm_tcache.h"

/* A memo hit's bookkeeping (vm_read_fast's fast lane, the check done). */
static inline void memo_count(struct vax_machine *m, struct vm_memo *mo, int mapen)
{
    if (mapen) /* (a memo filled with MAPEN off counts no TB hit) */
        m->st.tb_hits += mo->tb;
    m->st.cache_hits++;
    mo->set->lru = mo->way ^ 1u;
}

/* The values a word's IRD point or sequencing fetch needs for its abort
 * state: the interpreter's, where the trace did not compute them. */
static inline void word_vals(const struct vax_machine *m, const struct tc_word *w,
                             unsigned *fl, uint32_t *a, uint32_t *psl0)
{
    if (!w)
        return;
    if (!(w->flags & TW_FL))
        *fl = 0;
    if (!(w->flags & TW_A))
        *a = 0;
    if (!(w->flags & TW_PSL0))
        *psl0 = m->psl;
}

/* Hangs side trace t off word w, entered at micro-address upc. */
static void attach_side(struct vm_tcache *tc, struct tc_word *w, unsigned upc,
                        struct tc_trace *t)
{
    struct tc_side *s = vm_tc_alloc(tc, sizeof *s);
    if (!s)
        return;
    s->upc = (uint16_t)upc;
    s->t = t;
    s->next = w->side;
    w->side = s;
    w->nside++;
}

#if defined(__GNUC__)
#define TC_THREADED 1
#else
#define TC_THREADED 0
#endif

#define TC_NAME tc_run0
#define TC_MAPEN 0
#include "vax/machine/vm_tcache_run.h"
#define TC_NAME tc_run1
#define TC_MAPEN 1
#include "vax/machine/vm_tcache_run.h"

int vm_tc_run(struct vax_machine *m, uint64_t limit, int mapen, int snapped, unsigned *pupc)
{
    return mapen ? tc_run1(m, limit, snapped, pupc) : tc_run0(m, limit, snapped, pupc);
}
