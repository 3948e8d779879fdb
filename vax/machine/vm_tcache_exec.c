/* The trace cache's executor (vm_tcache.h): from an IRD point, look the
 * instruction up by the physical address of its opcode and run its
 * trace's micro-operations, one handler each, chained by threaded
 * dispatch; leave for the interpreter where the path ends or diverges.
 *
 * Invariants while a trace runs:
 * - microcycles: m->st.microcycles lags by the static count of the words
 *   run since the last sync point (tc_word.pend), and so do the cache and
 *   TB hit counters by the words' memo hits (rpend); every point that can
 *   leave, or call the interpreter, adds it first;
 * - latches: the machine's SPEC/OPK/RN/width latches hold the values of
 *   the last point where they were written back; the trace's current
 *   values are its images (tc_word.pre/mid/seq), written back
 *   (tc_latch_apply) before anything else can look;
 * - the locals fl, a, psl0 hold the current word's ALU flags, A bus and
 *   starting PSL where its uops computed them (TW_FL, TW_A, TW_PSL0). */
#include <string.h>

#include "vax/machine/vm_tcache.h"
#include "vax/machine/vm_tcache_exec.h"
#include "vax/machine/vm_tcache_x64.h"

/* A memo hit's bookkeeping (vm_read_fast's fast lane, the check done). */
static inline void memo_count(struct vax_machine *m, struct vm_memo *mo)
{
    m->st.tb_hits += mo->tb;
    m->st.cache_hits++;
    mo->set->lru = mo->lru_next;
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

/* Hangs side trace t off word w, entered at micro-address upc: the
 * side, or NULL where there is no room. */
static struct tc_side *attach_side(struct vm_tcache *tc, struct tc_word *w, unsigned upc,
                                   struct tc_trace *t)
{
    struct tc_side *s = vm_tc_alloc(tc, sizeof *s);
    if (!s)
        return NULL;
    s->upc = (uint16_t)upc;
    s->t = t;
    s->next = w->side;
    w->side = s;
    w->nside++;
    return s;
}


/* The counts a trace keeps behind until a sync point: microcycles, and
 * the memo hits of its references (one cache hit each, and a TB hit with
 * MAPEN: a memo holds only while MAPEN is what it was filled with).
 * Microcycles go into the machine at once (the interrupt check, the
 * devices and the abort state read them); the hit counters and the
 * cache's own statistics, which nothing reads while tc_run runs (a
 * reference made elsewhere only adds to them), wait in the machine's
 * tc_refs until it returns (TC_RET).  The statistics are counted by
 * difference, not per instruction: the trace hits are every instruction
 * tc_run starts but those it decodes (tc_decodes), and the words the
 * traces ran are its microcycles but those the interpreter ran for it
 * (tc_interp, TC_INTERP). */
#define TC_SYNC(cyc, refs)                                                     \
    do {                                                                       \
        m->st.microcycles += (cyc);                                            \
        m->tc_refs += (refs);                                                  \
    } while (0)
#define TC_UNSYNC(cyc, refs)                                                   \
    do {                                                                       \
        m->st.microcycles -= (cyc);                                            \
        m->tc_refs -= (refs);                                                  \
    } while (0)
#define TC_RET(v)                                                              \
    do {                                                                       \
        m->st.cache_hits += m->tc_refs;                                        \
        m->st.tb_hits += m->tc_refs * (unsigned)mapen;                         \
        m->tc->st.words += m->st.microcycles - mc0 - m->tc_interp;             \
        m->tc->st.hits += m->st.instructions - ins0 - m->tc_decodes;           \
        m->tc_refs = m->tc_interp = m->tc_decodes = 0;                         \
        m->tc->last = last;                                                    \
        return (v);                                                            \
    } while (0)
/* a call into the interpreter (or the full memory path) from tc_run: the
 * microcycles it adds are not the traces' words */
#define TC_INTERP(call)                                                        \
    do {                                                                       \
        uint64_t c0_ = m->st.microcycles;                                      \
        call;                                                                  \
        m->tc_interp += m->st.microcycles - c0_;                               \
    } while (0)

/* ---- the uops' bodies (vm_tcache.h) ----
 * Each runs in tc_run with its locals (m, u, r, s2, a, fl, psl0, mhp...)
 * and falls through when its work is done; a fused pair runs two bodies
 * in one handler.  The control bodies (END, LOOP, EXIT, GEN) jump. */
#define TCB_END                                                                \
    do {                                                                       \
        lw = TC_UWNZ(u); /* (its pend and rpend, in k and k2) */               \
        TC_SYNC(u->k, u->k2);                                                  \
        last = (struct tc_trace *)(void *)u->p1;                               \
        fin = last->fin; /* written back where needed (entry, exits) */        \
        finm = last->finm;                                                     \
        goto ird_point;                                                        \
    } while (0)
#define TCB_LOOP                                                               \
    do {                                                                       \
        const struct tc_word *hw = (const struct tc_word *)(const void *)u->p2; \
        TC_SYNC(TC_UWNZ(u)->pend, TC_UWNZ(u)->rpend);                          \
        if (UNLIKELY(m->st.microcycles >= lim2)) {                             \
            tc_latch_apply(m, hw->pre);                                        \
            *pupc = hw->upc;                                                   \
            TC_RET(IRDP_CONT);                                                  \
        }                                                                      \
        TC_LOOP_NATIVE();                                                      \
        u = (const struct tc_uop *)(const void *)u->p1;                        \
        DISPATCH();                                                            \
    } while (0)
#define TCB_EXIT                                                               \
    do {                                                                       \
        if (TC_UW(u))                                                          \
            TC_SYNC(TC_UW(u)->pend, TC_UW(u)->rpend);                          \
        tc_latch_apply(m, (const struct tc_latch *)(const void *)u->p2);       \
        m->tc->st.exits++;                                                     \
        *pupc = u->k;                                                          \
        TC_RET(IRDP_CONT);                                                      \
    } while (0)
#define TCB_SYNC TC_SYNC(u->k, u->k2)
#define TCB_GEN                                                                \
    do {                                                                       \
        dw = TC_UWNZ(u);                                                       \
        goto generic;                                                          \
    } while (0)
/* sources */
#define TCB_IB                                                                 \
    do {                                                                       \
        if (LIKELY(ifast)) { /* the value is the path's */                     \
            mi_cur->set->lru = mi_cur->lru_next;                               \
            m->tc_tmp[u->y] = u->k2;                                           \
            m->r[15] += u->x;                                                  \
            break;                                                             \
        }                                                                      \
        uint32_t pc_ = m->r[15];                                               \
        struct vm_memo *mi_ = mi_cur;                                          \
        if (UNLIKELY(!vm_memo_hit(mi_, pc_, u->x))) {                          \
            mi_cur = mi_ = vm_memo_isel(m, pc_);                               \
            if (!vm_memo_hit(mi_, pc_, u->x)) { /* across two lines? */        \
                const uint8_t *hp_ = vm_memo_cross(m, NULL, pc_, u->x, 0);     \
                if (!hp_)                                                      \
                    goto bail;                                                 \
                m->tc_tmp[u->y] = (uint32_t)vm_load_le(hp_, u->x);             \
                m->r[15] = pc_ + u->x;                                         \
                break;                                                         \
            }                                                                  \
        }                                                                      \
        mi_->set->lru = mi_->lru_next;                                         \
        m->tc_tmp[u->y] = (uint32_t)vm_load_le(mi_->host + (pc_ - mi_->base), u->x); \
        m->r[15] = pc_ + u->x;                                                 \
    } while (0)
#define TCB_RXS m->tc_tmp[u->y] = *u->p1 << u->x
#define TCB_SOPR m->tc_tmp[u->y] = m->r[(m->opa[u->k] + u->x) & 15]
#define TCB_SLS m->tc_tmp[u->y] = m->ls[*u->p1 % VM_LS_WORDS]
#define TCB_S2 s2 = *u->p1
#define TCB_PSL0 psl0 = m->psl
#define TCB_LDA a = *u->p1
/* the ALU */
#define TCB_ALU_GEN                                                            \
    do {                                                                       \
        a = *u->p1;                                                            \
        r = alu(m, u->k2, a, *u->p2, u->x, &fl);                               \
    } while (0)
/* the ALU on operand a (already set), its result to the cell at k */
#define TC_ALU_ON_A(F, W, V)                                                   \
    do {                                                                       \
        if (V)                                                                 \
            r = alu(m, UA_##F, a, *u->p2, W, &fl);                             \
        else                                                                   \
            r = alu_nofl(m, UA_##F, a, *u->p2, W);                             \
        TC_CELL(m, u->k) = r;                                                  \
        if (V >= 2)                                                            \
            set_cc(m, UCC_ARITH + (V - 2), fl, r);                             \
    } while (0)
#define TCB_ALU(F, W, V)                                                       \
    do {                                                                       \
        a = *u->p1;                                                            \
        TC_ALU_ON_A(F, W, V);                                                  \
    } while (0)
#define TCB_ALUR(F, V)                                                         \
    do {                                                                       \
        a = r; /* (the builder knows *u->p1 holds it) */                       \
        TC_ALU_ON_A(F, 2, V);                                                  \
    } while (0)
/* the same at L without flags, where the builder knows the result goes
 * to the sink (TC_FUSED_MEMN: a memory word's MAR +- 4, which ST_R writes
 * after the memo check): no store */
#define TC_ALU_SINK_ON_A(F) (r = alu_nofl(m, UA_##F, a, *u->p2, 2))
#define TCB_ALU_SINK(F) (a = *u->p1, TC_ALU_SINK_ON_A(F))
#define TCB_ALUR_SINK(F) (a = r, TC_ALU_SINK_ON_A(F))
/* an ALU uop whose operands the builder knew (fold_consts): A, the result
 * (k2) stored where the ALU would store it, and the flags (y) where the
 * uop would set them (x) */
#define TCB_KR                                                                 \
    do {                                                                       \
        a = *u->p1;                                                            \
        r = u->k2;                                                             \
        TC_CELL(m, u->k) = r;                                                  \
        if (u->x)                                                              \
            fl = u->y;                                                         \
    } while (0)
#define TCB_MOV TC_CELL(m, u->k) = *u->p1
#define TCB_MOV2                                                               \
    do {                                                                       \
        uint32_t v1_ = *u->p1, v2_ = *u->p2;                                   \
        TC_CELL(m, u->k) = v1_;                                                \
        TC_CELL(m, u->k2) = v2_;                                               \
    } while (0)
/* destinations */
#define TCB_ST_R *u->p1 = r
#define TCB_ST_S *u->p1 = s2
#define TCB_STW_R gpr_write(u->p1, r, u->x)
#define TCB_STW_S gpr_write(u->p1, s2, u->x)
#define TC_STRN(v)                                                             \
    do {                                                                       \
        if (m->log_n < 16) { /* the specifier's change, for UNDO */            \
            m->log_reg[m->log_n] = u->k;                                       \
            m->log_val[m->log_n++] = *u->p1;                                   \
        }                                                                      \
        gpr_write(u->p1, v, u->x);                                             \
    } while (0)
#define TCB_STRN_R TC_STRN(r)
#define TCB_STRN_S TC_STRN(s2)
#define TCB_STRES_R                                                            \
    do {                                                                       \
        m->mdr = r;                                                            \
        if (m->opreg[u->k])                                                    \
            gpr_write(&m->r[m->opa[u->k] & 15], r, u->x);                      \
    } while (0)
#define TCB_STOPR_R gpr_write(&m->r[(m->opa[u->k] + u->y) & 15], r, u->x)
#define TCB_STOPR_S gpr_write(&m->r[(m->opa[u->k] + u->y) & 15], s2, u->x)
/* (a new IPL, T or TP: the next IRD point looks at the request logic
 * and the trace bits, ev) */
#define TC_STPSL(v)                                                            \
    do {                                                                       \
        uint32_t x_ = m->psl ^ (v); /* (one test while none of these moves) */ \
        if (UNLIKELY(x_ & (PSL_IPL_BITS | PSL_T | PSL_TP | PSL_CUR_BITS))) {  \
            if (x_ & (PSL_IPL_BITS | PSL_T | PSL_TP))                          \
                ev = 0;                                                        \
            vm_memo_mode(m, m->psl, v); /* the mode selects the memos */       \
        }                                                                      \
        m->psl = v;                                                            \
    } while (0)
#define TCB_STPSL_R TC_STPSL(r)
#define TCB_STPSL_S TC_STPSL(s2)
#define TCB_STLS_R m->ls[*u->p1 % VM_LS_WORDS] = r
#define TCB_STLS_S m->ls[*u->p1 % VM_LS_WORDS] = s2
/* condition codes */
#define TCB_CC_ARITH set_cc(m, UCC_ARITH, fl, r)
#define TCB_CC_LOGIC set_cc(m, UCC_LOGIC, fl, r)
#define TCB_CC_TEST set_cc(m, UCC_TEST, fl, r)
#define TCB_CC_CMP set_cc(m, UCC_CMP, fl, r)
#define TCB_CC_NZV set_cc(m, UCC_NZV, fl, r)
#define TCB_CC_NZVC0 set_cc(m, UCC_NZVC0, fl, r)
#define TCB_CC_QUAD set_cc(m, UCC_QUAD, fl, r)
/* memory: the memo check (a miss: `refill`, where the memo is refilled
 * if the reference is a TB and a cache hit and the uop runs again; else
 * the interpreter runs the word), then the reference, which cannot miss */
/* the check of a reference of N bytes, a read (W 0) or a write (W 1):
 * the uop's own x and y, or constants where the builder knows them
 * (TC_FUSED_MEMN) */
#define TC_MCKN(addr, N, W)                                                    \
    do {                                                                       \
        uint32_t a_ = (addr);                                                  \
        struct vm_memo *mo_ = vm_memo_sel((struct vm_memo *)(void *)u->p2, a_); \
        if (UNLIKELY(!vm_memo_hit(mo_, a_, N))) {                              \
            rfa = a_;                                                          \
            rfn = (N);                                                         \
            goto refill;                                                       \
        }                                                                      \
        /* the reference's bookkeeping, now: nothing between here and the     \
         * reference (the word's own stores) looks at the cache */             \
        mo_->set->lru = mo_->lru_next;                                         \
        if (W)                                                                 \
            mo_->set->dirty[mo_->way] = 1;                                     \
        mhp = mo_->host + (a_ - mo_->base);                                    \
    } while (0)
#define TC_MCK(addr) TC_MCKN(addr, u->x, u->y)
#define TCB_MCK_R TC_MCK(r)
#define TCB_MCK_S TC_MCK(s2)
#define TCB_MCK_P TC_MCK(*u->p1)
/* The check of an N-byte reference at addr where the reference just
 * before it was at prev, in a SEQ run (vm_tcache.h): where the test SAME
 * says the new bytes lie in prev's line, the host address moves by the
 * difference (that line's bookkeeping is done); else, or when mhp is not
 * that reference's (NULL), the memo check.  TC_MCKSEQ works from the two
 * addresses (the new bytes between prev's line start and 64 - N past
 * it); TC_MCKSEQK from a constant step D = addr - prev, on addr's offset
 * in its line alone: at most 63 + D for D < 0 (which needs N <= -D, so
 * that the new bytes end before prev), between D and 64 - N for D > 0. */
#define TC_MCKSEQ_IF(SAME, DIFF, addr, N, W)                                   \
    do {                                                                       \
        if (LIKELY(mhp != NULL) && LIKELY(SAME)) {                             \
            mhp += (DIFF);                                                     \
            break;                                                             \
        }                                                                      \
        TC_MCKN(addr, N, W);                                                   \
    } while (0)
#define TC_MCKSEQ(addr, prev, N, W)                                            \
    TC_MCKSEQ_IF((addr) - ((prev) & ~63u) <= 64u - (N), (int32_t)((addr) - (prev)), \
                 addr, N, W)
#define TC_MCKSEQK(addr, N, W, D)                                              \
    TC_MCKSEQ_IF((D) < 0 ? ((addr) & 63) <= 63u + (D)                          \
                         : ((addr) & 63) - (D) <= 64u - (N) - (D),             \
                 D, addr, N, W)
#define TCB_MCK_R4R TC_MCKN(r, 4, 0)
#define TCB_MCK_R4W TC_MCKN(r, 4, 1)
#define TCB_MCK_S4R TC_MCKN(s2, 4, 0)
#define TCB_MCK_R8W TC_MCKN(r, 8, 1)
#define TCB_RD4 m->mdr = (uint32_t)vm_load_le(mhp, 4)
/* a write of N bytes of MDR (Q above it, for 8) at the checked address */
#define TC_WRN(N)                                                              \
    do {                                                                       \
        ifast = 0; /* (it might write the instruction's own bytes) */          \
        vm_store_le(mhp, N, mdr_q(m, N));                                      \
    } while (0)
#define TCB_WR4 TC_WRN(4)
#define TCB_WR8 TC_WRN(8)
#define TCB_RD                                                                 \
    do {                                                                       \
        const uint8_t *p_ = mhp;                                               \
        if (LIKELY(u->x == 4)) { /* (the common size: one load) */             \
            TCB_RD4;                                                           \
            break;                                                             \
        }                                                                      \
        uint64_t v_ = vm_load_le(p_, u->x);                                    \
        m->mdr = (uint32_t)v_;                                                 \
        if (u->x == 8)                                                         \
            m->q = (uint32_t)(v_ >> 32);                                       \
    } while (0)
#define TCB_RDOP                                                               \
    do {                                                                       \
        const uint8_t *p_ = mhp;                                               \
        uint64_t v_ = LIKELY(u->x == 4) ? vm_load_le(p_, 4) : vm_load_le(p_, u->x); \
        m->opv[u->k] = (uint32_t)v_;                                           \
        m->oph[u->k] = (uint32_t)(v_ >> 32);                                   \
    } while (0)
#define TCB_WR                                                                 \
    do {                                                                       \
        if (LIKELY(u->x == 4)) /* (the common size: one store) */             \
            TC_WRN(4);                                                         \
        else                                                                   \
            TC_WRN(u->x);                                                      \
    } while (0)
#define TCB_WROP TCB_WR
/* MISC */
#define TCB_SETREG                                                             \
    do {                                                                       \
        m->opreg[u->k] = 1;                                                    \
        m->opa[u->k] = u->x;                                                   \
    } while (0)
#define TCB_SETMEM m->opreg[u->k] = 0
#define TCB_CLRLOG m->log_n = 0
#define TCB_EVCNT m->scb_count[(a >> 2) & 127]++
#define TCB_INEXC m->in_exc = 1
/* the window opens at the start of this word: the microcycles counted
 * behind before it (pend_pre) are not yet in m->st.microcycles */
#define TC_SPAM_OPEN(hook)                                                     \
    do {                                                                       \
        vm_spam_open(m, m->st.microcycles + TC_UWNZ(u)->pend_pre, hook,       \
                     TC_UWNZ(u)->upc);                                         \
        ev = 0; /* (IRD closes the window: not the quick way) */               \
    } while (0)
#define TCB_TRACEWR TC_SPAM_OPEN(0)
#define TCB_TRACEHK TC_SPAM_OPEN(1)
/* sequencing */
#define TCB_PUSH                                                               \
    do {                                                                       \
        m->ustack[u->x] = (uint16_t)u->k;                                      \
        m->usp = u->x + 1;                                                     \
    } while (0)
#define TCB_POP m->usp = u->x
/* a guard: on the recorded way (x), or off the path */
#define TC_GUARD(c)                                                            \
    do {                                                                       \
        if (UNLIKELY((unsigned)(c) != u->x))                                   \
            goto diverge;                                                      \
    } while (0)
#define TC_GPSL (u->y ? psl0 : m->psl)
#define TCB_G_COND                                                             \
    TC_GUARD(!!vm_cond(m, u->k, fl, TC_GPSL, a, &TC_UWNZ(u)->pw->u))
#define TCB_G_PSL_Z TC_GUARD((TC_GPSL & PSL_Z) != 0)
#define TCB_G_PSL_N TC_GUARD((TC_GPSL & PSL_N) != 0)
#define TCB_G_PSL_V TC_GUARD((TC_GPSL & PSL_V) != 0)
#define TCB_G_PSL_C TC_GUARD((TC_GPSL & PSL_C) != 0)
#define TCB_G_PSL_NZ TC_GUARD((TC_GPSL & (PSL_N | PSL_Z)) != 0)
#define TCB_G_PSL_CZ TC_GUARD((TC_GPSL & (PSL_C | PSL_Z)) != 0)
#define TCB_G_IOVT TC_GUARD((TC_GPSL & (PSL_V | PSL_IV)) == (PSL_V | PSL_IV))
#define TCB_G_ALU_Z TC_GUARD(tc_alu_guard(TU_G_ALU_Z, fl))
#define TCB_G_ALU_N TC_GUARD(tc_alu_guard(TU_G_ALU_N, fl))
#define TCB_G_ALU_V TC_GUARD(tc_alu_guard(TU_G_ALU_V, fl))
#define TCB_G_ALU_C TC_GUARD(tc_alu_guard(TU_G_ALU_C, fl))
#define TCB_G_ALU_LT TC_GUARD(tc_alu_guard(TU_G_ALU_LT, fl))
#define TCB_G_ALU_LE TC_GUARD(tc_alu_guard(TU_G_ALU_LE, fl))
#define TCB_G_ALU_CZ TC_GUARD(tc_alu_guard(TU_G_ALU_CZ, fl))
#define TCB_G_OPREG TC_GUARD(m->opreg[u->k] != 0)
#define TCB_G_OPREG_NOVT TC_GUARD(m->opreg[u->k] && !((fl & F_V) && (TC_GPSL & PSL_IV)))
#define TCB_G_NOVT TC_GUARD(!((fl & F_V) && (TC_GPSL & PSL_IV)))
#define TCB_G_SC_Z TC_GUARD(m->sc == 0)
#define TCB_G_A_B0 TC_GUARD(a & 1)
#define TCB_G_A_B31 TC_GUARD(a >> 31)
#define TCB_G_A_Z TC_GUARD(a == 0)
#define TCB_G_PSL_KERN TC_GUARD((TC_GPSL & PSL_CUR_BITS) == 0)
#define TCB_GD_A4 TC_GUARD(a & 15)
#define TCB_GD_A2 TC_GUARD(a & 3)
#define TCB_GD_OPREG TC_GUARD(m->opreg[u->k])
#define TCB_GD_MFORK TC_GUARD(m->opreg[u->k] != 0)
#define TCB_GD_SPM                                                             \
    TC_GUARD(!(m->ipr[VM_SPAM_MASK] >> (a >> 12 & 15) & 1) ||                  \
                     !(m->ipr[VM_SPAM_STAT] & (VM_SPAM_ST_ON | VM_SPAM_ST_FULL)) \
                 ? 0                                                           \
                 : m->ipr[VM_SPAM_STAT] & VM_SPAM_ST_ON ? 1 : 2)
/* the specifier byte: consumed, checked against the path's */
#define TCB_SPEC                                                               \
    do {                                                                       \
        if (LIKELY(ifast)) { /* the byte is the path's */                      \
            mi_cur->set->lru = mi_cur->lru_next;                               \
            m->r[15]++;                                                        \
            break;                                                             \
        }                                                                      \
        uint32_t pc_ = m->r[15];                                               \
        struct vm_memo *mi_ = mi_cur;                                          \
        if (UNLIKELY(!vm_memo_hit(mi_, pc_, 1))) {                             \
            mi_cur = mi_ = vm_memo_isel(m, pc_);                               \
            if (!vm_memo_hit(mi_, pc_, 1))                                     \
                goto spec_slow;                                                \
        }                                                                      \
        sbb = mi_->host[pc_ - mi_->base]; /* (cannot microtrap) */             \
        mi_->set->lru = mi_->lru_next;                                         \
        m->r[15] = pc_ + 1;                                                    \
        if (UNLIKELY(sbb != (u->k & 0xFF)))                                    \
            goto spec_mismatch;                                                \
    } while (0)

/* SPECL, IBL: a root's bytes, known at entry (ifast), go on into the
 * next line of the page, and this is the first reference there: that
 * line's memo entry becomes the one used where it holds the n bytes,
 * else the rest of the root reads its bytes the slow way (ifast off),
 * which refers to the cache as the interpreter does. */
#define TC_ILINE(n)                                                            \
    do {                                                                       \
        if (LIKELY(ifast)) {                                                   \
            struct vm_memo *mi_ = vm_memo_isel(m, m->r[15]);                   \
            if (LIKELY(vm_memo_hit(mi_, m->r[15], (n))))                       \
                mi_cur = mi_;                                                  \
            else                                                               \
                ifast = 0;                                                     \
        }                                                                      \
    } while (0)
#define TCB_SPECL                                                              \
    do {                                                                       \
        TC_ILINE(1);                                                           \
        TCB_SPEC;                                                              \
    } while (0)
#define TCB_IBL                                                                \
    do {                                                                       \
        TC_ILINE(u->x);                                                        \
        TCB_IB;                                                                \
    } while (0)

/* Do the first 8 of trace t's instruction bytes (those its mask counts)
 * match the ones at hp?  (The memory has 16 bytes to spare past its end
 * for such loads.) */
static inline int tc_bytes8(const struct tc_trace *t, const uint8_t *hp)
{
    uint64_t x;
    memcpy(&x, hp, 8);
    return ((x ^ t->ib0) & t->im0) == 0;
}

/* ---- tc_run's pieces ----
 * tc_run itself keeps the hot ways (the IRD point, the fetch and the
 * successor, the entry, the handlers) and the gotos between its ways;
 * what a way does besides jumping is here. */

/* Entering trace t after the one whose end latches are fin: the RN group
 * and RX outlive IRD, so they are the previous instruction's where this
 * one does not set them at once. */
static ALWAYS_INLINE void tc_carry_latches(struct vax_machine *m, const struct tc_latch *fin,
                                           const struct tc_trace *t)
{
    if (fin->rn_def && !t->spec0)
        tc_latch_rn(m, fin);
    if (fin->rx_def)
        m->rx = fin->rx;
}

/* An I-stream reference that microtrapped or stopped the machine (the
 * opcode fetch, a specifier byte): where the loop goes on (IRDP_*), as
 * vm_interp.c's IRD point does it; `snap`: the abort state was taken. */
static ALWAYS_INLINE int tc_istream_trap(struct vax_machine *m, int mapen, int snap,
                                         unsigned *pupc)
{
    if (m->stop)
        return IRDP_RETURN;
    if (mapen && !snap) {
        vm_ucode_error(m, "internal: I-stream microtrap without abort state");
        return IRDP_RETURN;
    }
    m->utrap = 0;
    m->usp = 0;
    *pupc = m->utrap_upc;
    return IRDP_CONT;
}

/* A miss: the interpreter decodes opcode op (fetched from physical
 * address key; 0xFFFFFFFF: none), *next its entry; where the address
 * missed often enough (rec_ok: `after` times before) the recorder then
 * runs the path through the interpreter and builds a root trace (*t,
 * NULL if none; *si as its last word left it).  Returns TC_DEC_TRAP (the
 * decode microtrapped or stopped), TC_DEC_ON (nothing recorded: the
 * interpreter goes on at *next) or the recorder's TC_REC_*. */
enum { TC_DEC_TRAP = -2, TC_DEC_ON = -1 };
static int tc_decode(struct vax_machine *m, uint64_t limit, int mapen, uint32_t key,
                     uint32_t op, int rec_ok, unsigned *next, struct vm_wstep *si,
                     struct tc_trace **t)
{
    m->tc_decodes++; /* (counted in st.instructions: not a hit) */
    TC_INTERP(*next = vm_ird_decode(m, op));
    if (UNLIKELY(m->stop | m->utrap))
        return TC_DEC_TRAP;
    if (!rec_ok || key == 0xFFFFFFFFu)
        return TC_DEC_ON;
    struct tc_rec *rec = m->tc->rec;
    const struct drom_entry *e = m->cur;
    rec->root = 1;
    rec->fpc = m->fpc;
    rec->key = key;
    rec->opc = (uint16_t)op;
    rec->spec0 = e->defined && e->n && e->acc[0] != ACC_B;
    rec->byte0 = (uint8_t)m->specb;
    rec->entry = (uint16_t)*next;
    vm_tc_latch_get(m, &rec->decode, 0, 0);
    m->upc = (uint16_t)*next;
    int rs;
    TC_INTERP(rs = vm_tc_record(m, limit, mapen, rec, rec->spec0, 0, si, t));
    return rs;
}

/* Word dw went on to next, off its path, where no side trace starts yet:
 * the recorder runs the path from there and hangs the side trace it
 * builds (*t) off the word.  Returns the recorder's TC_REC_*. */
static int tc_record_side(struct vax_machine *m, uint64_t limit, int mapen,
                          struct tc_word *dw, unsigned next, struct vm_wstep *si,
                          struct tc_trace **t)
{
    struct tc_rec *rec = m->tc->rec;
    rec->root = 0;
    rec->key = 0;
    rec->opc = 0;
    rec->spec0 = 0;
    m->upc = (uint16_t)next;
    int rs;
    TC_INTERP(rs = vm_tc_record(m, limit, mapen, rec, dw->seq->rn_def, dw->seq->rx_def, si, t));
    if (*t)
        attach_side(m->tc, dw, next, *t);
    return rs;
}

/* The side trace of word dw that starts at micro-address next, if any:
 * any word's (tc_side_find), and where a guard failed into the path's
 * other micro-address only a word whose divergence leaves a known latch
 * state has them (tc_side_at; a guard's way to the IRD point hangs its
 * END off any word, vm_tc_ird_side). */
static ALWAYS_INLINE struct tc_side *tc_side_find(const struct tc_word *dw, unsigned next)
{
    struct tc_side *s;
    for (s = dw->side; s; s = s->next)
        if (s->upc == next)
            break;
    return s;
}
static ALWAYS_INLINE struct tc_side *tc_side_at(const struct tc_word *dw, unsigned next)
{
    return dw->flags & TW_SIDEOK ? tc_side_find(dw, next) : NULL;
}

/* A specifier byte the memo cannot give (SPEC uop u): the interpreter's
 * way, with the abort state (not for IRD's byte, whose IRD point took
 * care of it) and the fetch; *fl, *a, *psl0 as the word left them.  0
 * and the byte in *bb, or the loop's way on (IRDP_*, +1) after a
 * microtrap or a stop. */
static ALWAYS_INLINE int tc_spec_read(struct vax_machine *m, const struct tc_uop *u, int mapen,
                                      int irdsnap, unsigned *fl, uint32_t *a, uint32_t *psl0,
                                      uint32_t *bb, unsigned *pupc)
{
    int snap = irdsnap;
    if (u->y == 2) {
        tc_latch_apply(m, (const struct tc_latch *)(const void *)u->p2);
    } else {
        struct tc_word *sw = TC_UW(u);
        tc_latch_apply(m, sw->seq);
        m->upc = sw->upc;
        word_vals(m, sw, fl, a, psl0);
        snap = vm_seq_abort_state(m, mapen, 1, *fl, *psl0, *a, 0);
        if (u->y == 1)
            vm_spec_advance(m);
    }
    TC_UNSYNC(0, 1); /* the reference counts itself on this way */
    TC_INTERP(*bb = vm_istream(m, 1));
    if (LIKELY(!(m->stop | m->utrap)))
        return 0;
    if (TC_UW(u))
        TC_SYNC(TC_UW(u)->pend, TC_UW(u)->rpend);
    else
        TC_SYNC(0, 1);
    return tc_istream_trap(m, mapen, snap, pupc) + 1;
}

/* GCC gives the handlers' values registers of their own only when told:
 * this function's cold paths make calls, and its allocator otherwise
 * keeps s2 and the reference's host address on the stack, a store and a
 * reload between every two handlers (x86-64; elsewhere GCC chooses) */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define TC_HOSTREG(reg) __asm__(reg)
#else
#define TC_HOSTREG(reg)
#endif

#if defined(__GNUC__)
#define TC_THREADED 1
#else
#define TC_THREADED 0
#endif
/* round the loop in the segment's code where it has some (vm_tcx_at): a
 * long loop the handlers took over (after a TB miss's flow, a generic
 * word) goes back into the code */
#if TCX_ON && TC_THREADED
#define TC_LOOP_NATIVE()                                                       \
    do {                                                                       \
        if (u->k2) {                                                           \
            m->tc->st.loop_entries++;                                          \
            xat = vm_tcx_at(m->tc->x, u->k2);                                  \
            goto native_at;                                                    \
        }                                                                      \
    } while (0)
#else
#define TC_LOOP_NATIVE() do {} while (0)
#endif

/* ---- threaded dispatch ----
 * Each uop's handler is a label in tc_run (OP...); DISPATCH jumps to the
 * uop's (GCC's computed goto), NEXTU to the next uop's.  Without GCC the
 * labels are a switch's cases.  TC_HANDLER_LABELS: the labels' addresses
 * in uop-code order (tc_run's table, vm_tc_handlers); TC_HANDLERS: every
 * handler, one per uop code, from the TCB_ bodies. */
#if TC_THREADED
#define TC_LABEL(n) &&h_##n,
#define TC_ALU_LABW(F, W) &&h_alu_##F##_##W##_0, &&h_alu_##F##_##W##_1, &&h_alu_##F##_##W##_2, \
    &&h_alu_##F##_##W##_3, &&h_alu_##F##_##W##_4, &&h_alu_##F##_##W##_5, &&h_alu_##F##_##W##_6, \
    &&h_alu_##F##_##W##_7,
#define TC_ALU_LABELS(F) TC_ALU_LABW(F, 0) TC_ALU_LABW(F, 1) TC_ALU_LABW(F, 2)
#define TC_ALUR_LABELS(F) &&h_alur_##F##_0, &&h_alur_##F##_1, &&h_alur_##F##_2, \
    &&h_alur_##F##_3, &&h_alur_##F##_4, &&h_alur_##F##_5, &&h_alur_##F##_6, &&h_alur_##F##_7,
#define TC_ALUM_LABEL(F) &&h_alum_##F,
#define TC_ALURM_LABEL(F) &&h_alurm_##F,
#define TC_FLABEL(n, ca, ba, cb, bb) &&hf_##n,
#define TC_FMLABEL(n, ca, cb, len, body) &&hf_##n,
#define TC_FSLABEL(n, base, d, body) &&hf_##n,
#define TC_HANDLER_LABELS                                                      \
    TC_UOPS(TC_LABEL) TC_ALU_FNS(TC_ALU_LABELS) TC_ALUR_FNS(TC_ALUR_LABELS)   \
    TC_ALU_FNS(TC_ALUM_LABEL) TC_ALUR_FNS(TC_ALURM_LABEL) TC_FUSED(TC_FLABEL) \
    TC_FUSED_MORE(TC_FMLABEL) TC_FUSED_SEQ(TC_FSLABEL)
#define OP(n) h_##n:
#define OPALU(F, W, FL) h_alu_##F##_##W##_##FL:
#define OPALUR(F, FL) h_alur_##F##_##FL:
#define OPALUM(F) h_alum_##F:
#define OPALURM(F) h_alurm_##F:
#define OPF(n) hf_##n:
#define DISPATCH() goto *u->h
#else
#define OP(n) case TU_##n:
#define OPALU(F, W, FL) case TU_ALU_BASE + (TCF_##F * 3 + W) * TC_ALU_VARS + FL:
#define OPALUR(F, FL) case TCR(F, FL):
#define OPALUM(F) case TCM(F):
#define OPALURM(F) case TCRM(F):
#define OPF(n) case TU_F_##n:
#define DISPATCH() goto dispatch
#endif
#define NEXTU() do { u++; DISPATCH(); } while (0)

#define TC_SINGLE(n) OP(n) { TCB_##n; NEXTU(); }
#define TC_ALU_H(F, W, V) OPALU(F, W, V) { TCB_ALU(F, W, V); NEXTU(); }
#define TC_ALU_HW(F, W) TC_ALU_H(F, W, 0) TC_ALU_H(F, W, 1) TC_ALU_H(F, W, 2) \
    TC_ALU_H(F, W, 3) TC_ALU_H(F, W, 4) TC_ALU_H(F, W, 5) TC_ALU_H(F, W, 6)    \
    TC_ALU_H(F, W, 7)
#define TC_ALU_HS(F) TC_ALU_HW(F, 0) TC_ALU_HW(F, 1) TC_ALU_HW(F, 2)
#define TC_ALUR_H(F, V) OPALUR(F, V) { TCB_ALUR(F, V); NEXTU(); }
#define TC_ALUR_HS(F) TC_ALUR_H(F, 0) TC_ALUR_H(F, 1) TC_ALUR_H(F, 2) TC_ALUR_H(F, 3) \
    TC_ALUR_H(F, 4) TC_ALUR_H(F, 5) TC_ALUR_H(F, 6) TC_ALUR_H(F, 7)
/* ALUM: the ALU's uop and the MOV after it */
#define TC_ALUM_H(F) OPALUM(F) { TCB_ALU(F, 2, 0); u++; TCB_MOV; NEXTU(); }
#define TC_ALURM_H(F) OPALURM(F) { TCB_ALUR(F, 0); u++; TCB_MOV; NEXTU(); }
/* fused pairs: the second uop's body follows the first's directly */
#define TC_FUSED_H(n, ca, ba, cb, bb) OPF(n) { ba; u++; bb; NEXTU(); }
#define TC_FUSED_MORE_H(n, ca, cb, len, body) OPF(n) { body; NEXTU(); }
#define TC_FUSED_SEQ_H(n, base, d, body) OPF(n) { body; NEXTU(); }
#define TC_HANDLERS                                                            \
    TC_UOPS(TC_SINGLE) TC_ALU_FNS(TC_ALU_HS) TC_ALUR_FNS(TC_ALUR_HS)          \
    TC_ALU_FNS(TC_ALUM_H) TC_ALUR_FNS(TC_ALURM_H) TC_FUSED(TC_FUSED_H)        \
    TC_FUSED_MORE(TC_FUSED_MORE_H) TC_FUSED_SEQ(TC_FUSED_SEQ_H)

/* The executor: one function, so that its handlers are labels one
 * computed goto apart and its state stays in registers.  Its ways, in
 * the order below:
 *   ird_point, ird_cold, entry   an IRD point: the quick way (the memo
 *                                holds the next bytes, nothing to look at:
 *                                ev), else IRD's checks (ird_pre)
 *   fetch ... enter              the opcode fetch, the successor predicted
 *                                (TC_FETCH_SUCC) or looked up, the entry
 *   ird_taken, fetch_trap        an interrupt or trace fault; a microtrap
 *   miss, decode, recorded       no trace: the interpreter decodes
 *                                (tc_decode), perhaps records, goes on
 *   bail, diverge, side_lazy,    a word leaves the path: a guard failed
 *   side, generic                (a side trace, tc_record_side), or the
 *                                interpreter runs the word (generic)
 *   spec_diverge, spec_slow,     a specifier byte other than the path's,
 *   spec_mismatch                or one the memo cannot give (tc_spec_read)
 *   the handlers                 one per uop code, from the TCB_ bodies
 * Every way out goes through TC_RET. */
static int tc_run(struct vax_machine *m, uint64_t limit, int mapen, int snapped, unsigned *pupc,
                  const void *const **table)
{
    /* a segment may start only below this many microcycles: its words
     * (at most TC_MAX_WORDS + 1 to its end or loop) then cannot pass the
     * cycle limit, which the interpreter checks before every word */
    const uint64_t lim2 = limit > TC_MAX_WORDS + 2 ? limit - (TC_MAX_WORDS + 2) : 0;
#if TC_THREADED
#if TCX_ON
    /* and after the uops' handlers, the trace compiler's two (TU_H_COUNT,
     * TU_H_NATIVE: vm_tcache_x64.h) */
    static const void *const tab[TU__COUNT + 2] = {TC_HANDLER_LABELS &&h_count, &&h_native};
#else
    static const void *const tab[TU__COUNT] = {TC_HANDLER_LABELS};
#endif
    if (table) { /* the handlers' addresses, for the builder */
        *table = tab;
        return 0;
    }
#else
    if (table) { /* a switch dispatches */
        *table = NULL;
        return 0;
    }
#endif
    /* (tc: m->tc, loaded where it is used: a local would take a register) */
    const uint64_t ins0 = m->st.instructions; /* (the hits: TC_RET) */
    const uint64_t mc0 = m->st.microcycles;   /* (the words: TC_RET) */
    const struct tc_uop *u = NULL;
    struct tc_trace *t = NULL, *last = m->tc->last; /* (kept between calls) */
    const struct tc_latch *fin = NULL; /* latches not yet written back */
    /* while fin is set, what of it may outlive IRD (END: its trace's finm;
     * 3 where diverge set fin: enter then tests fin itself); stale once
     * fin is cleared, so enter tests fin too */
    unsigned finm = 0;
    struct tc_word *lw = NULL;         /* the word of this IRD point (NULL: exact values) */
    struct tc_word *dw = NULL;         /* a diverging word */
    uint32_t r = 0, a = 0, psl0 = 0, key = 0, op = 0;
    register uint32_t s2 TC_HOSTREG("r14") = 0;
    unsigned fl = 0, next = 0;
    int rs;
    struct vm_wstep si;
    /* the host address of the reference MCK checked: the word's MAR (or
     * OPA) is that address */
    register uint8_t *mhp TC_HOSTREG("r15") = NULL;
    int irdsnap = snapped;     /* the IRD point took the abort state */
    struct vm_memo *mi_cur = m->memo.i; /* the I-stream memo entry last used */
    uint32_t sbb = 0;                  /* a specifier byte other than the path's */
    uint32_t rfa = 0;                  /* a memo check that missed: its address */
    unsigned rfn = 0;                  /* ... and size (refill) */
    /* the nearer of the next device event (while the request logic is
     * quiet) and lim2; the request logic's evaluation moves it, and so
     * does a word that may open SPAM's window: 0 while that window is
     * open or an instruction step is asked for (step_ird changes only as
     * tc_run returns), so that IRD's quick way need not look at either.
     * Also 0 from anything that may have changed the request logic
     * since it was last looked at (int_unchanged): a new IPL (STPSL),
     * and every way into the interpreter (a register access, a device);
     * the uops themselves touch only memory the memos hold.  And 0 while
     * PSL<T> or <TP> is set (ird_trace's trace fault).  IRD's quick way
     * then need not test int_unchanged or the trace bits either. */
#define TC_EV()                                                                \
    (ev = (m->step_ird | m->spam_window | m->prb_req | (m->psl & (PSL_T | PSL_TP))) \
              ? 0                                                              \
          : m->int_next < lim2 ? (m->int_next < m->prb_next ? m->int_next : m->prb_next) \
          : lim2 < m->prb_next ? lim2 : m->prb_next)
    uint64_t ev = 0;
    TC_EV();
#if TCX_ON && TC_THREADED
    const void *xat = NULL; /* where h_native enters compiled code */
#endif
    int ifast = 0; /* the instruction's bytes are the root's, in memo mi_cur, and
                    * nothing but memo hits happened since: no reads needed */
    goto entry;

ird_point:
    /* The IRD point of word lw (microcycles exact; latches as `fin`).  The
     * common case: PC's byte is in an I-stream memo and the two after it
     * in its page, so the fetch cannot microtrap and needs no abort state
     * (vm_memo_ird_hit). */
    irdsnap = 0;
    if (UNLIKELY(!vm_memo_ird_hit(mi_cur, m->r[15]))) {
        /* (another line -- a branch, or the code running on: its own
         * memo entry may hold it) */
        struct vm_memo *mi_ = vm_memo_isel(m, m->r[15]);
        if (vm_memo_ird_hit(mi_, m->r[15]) ||
            (vm_memo_irefill(m, m->r[15]) && vm_memo_ird_hit(mi_, m->r[15])))
            mi_cur = mi_; /* (refilled where it was a cache and TB hit) */
    }
    /* the quick way: the memo holds the bytes, the request logic is quiet
     * (unchanged since it was last looked at), the cycle limit far, no
     * step, no SPAM window: all of it in ev */
    if (LIKELY(vm_memo_ird_hit(mi_cur, m->r[15])) && LIKELY(m->st.microcycles < ev)) {
        m->icnt++;
        ird_clear_latches(m);
        ird_fault_latches(m); /* (ird_trace's test: T and TP are clear, ev) */
        goto fetch_near;
    }
    /* (the line's own memo entry was tried above; with the probe unit
     * present every other IRD takes ird_pre, which serves its requests) */
    if (UNLIKELY(m->step_ird) || UNLIKELY(!vm_memo_ird_hit(mi_cur, m->r[15])) ||
        UNLIKELY(m->prb != NULL))
        goto ird_cold;
    ird_clear(m, 1);
    TC_EV(); /* (ird_clear closes SPAM's window) */
    /* the request logic is quiet (int_quiet) and the cycle limit far:
     * one compare against the nearer of the two (ev) */
    if (LIKELY(int_unchanged(m)) && LIKELY(m->st.microcycles < ev)) {
        next = ird_trace(m);
        if (UNLIKELY(next != IRD_FETCH))
            goto ird_taken;
        goto fetch_near; /* (the memo holds the byte: nothing ran since the check) */
    }
    if (m->l_intr && !int_quiet(m)) {
        /* the evaluation may run the devices: the memo is checked again */
        int taken = int_eval(m);
        TC_EV();
        if (taken) {
            next = m->l_intr;
            goto ird_taken;
        }
        next = ird_trace(m);
        if (next != IRD_FETCH)
            goto ird_taken;
        goto fetch;
    }
    next = ird_trace(m);
    if (UNLIKELY(next != IRD_FETCH))
        goto ird_taken;
    goto fetch_hit;

ird_cold:
    if (UNLIKELY(m->step_ird) || (mapen && !vm_istream_safe(m, 3))) {
        word_vals(m, lw, &fl, &a, &psl0);
        if (fin)
            tc_latch_apply(m, fin);
        fin = NULL;
        if (lw)
            m->upc = lw->upc;
        if (m->step_ird) { /* an instruction step ends here */
            vm_ird_pending(m, mapen, fl, psl0, a);
            TC_RET(IRDP_RETURN);
        }
        /* the fetch may microtrap: the abort state, as vm_interp.c's ird_point */
        irdsnap = vm_seq_abort_state(m, mapen, 3, fl, psl0, a, 1);
    }

entry: {
    /* at an IRD point whose abort state is taken if it was needed */
    if (UNLIKELY(m->prb_epoch != m->tc->prb_epoch)) {
        /* a probe program was loaded or unloaded: the traces built before
         * took SPEV and FRMW as they were; none is entered again (between
         * two instructions nothing points into the arena but these) */
        m->tc->prb_epoch = m->prb_epoch;
        if (fin)
            tc_latch_apply(m, fin);
        fin = NULL;
        last = &m->tc->nil;
        t = NULL;
        vm_tc_flush(m->tc);
    }
    unsigned x = ird_pre(m, 1);
    TC_EV(); /* (the request logic may have been evaluated) */
    if (x != IRD_FETCH) {
        next = x;
        goto ird_taken;
    }
}
fetch: {
    if (UNLIKELY(m->stop)) /* (the request logic ran a device that stopped it) */
        goto fetch_trap;
    uint32_t pc = m->r[15];
    if (LIKELY(vm_memo_hit(mi_cur, pc, 1)))
        goto fetch_hit;
    {
        mi_cur = vm_memo_isel(m, pc);
        if (!vm_memo_hit(mi_cur, pc, 1)) {
            TC_INTERP(op = vm_istream(m, 1));
            ev = 0; /* (a read outside the memos: it may touch a device) */
            if (UNLIKELY(m->stop | m->utrap))
                goto fetch_trap;
            if (!vm_memo_hit(mi_cur, pc, 1)) { /* the memo was not filled: no key */
                t = NULL;
                key = 0xFFFFFFFFu;
                if (op == 0xFD) { /* (as fetched: below) */
                    TC_INTERP(op = 0x100 | vm_istream(m, 1));
                    if (UNLIKELY(m->stop | m->utrap))
                        goto fetch_trap;
                }
                goto decode;
            }
            key = (uint32_t)(mi_cur->host + (pc - mi_cur->base) - m->mem);
            goto fetched;
        }
    }
    goto fetch_hit; /* (not fetch_near: the cycle limit is not known to be far) */
}
    /* The opcode fetch from memo mi_cur, and the common case: the trace
     * that followed the last one last time, recognised by its address and
     * its bytes (the opcode's among them) in one compare (fhp: NULL
     * where that cannot be done). */
#define TC_FETCH_SUCC(near)                                                    \
    do {                                                                       \
        uint32_t pc = m->r[15];                                                \
        const uint8_t *hp = mi_cur->host + (pc - mi_cur->base);                \
        m->tc_refs++; /* memo_count's */                                       \
        mi_cur->set->lru = mi_cur->lru_next;                                   \
        m->r[15] = pc + 1;                                                     \
        t = last->succ;                                                        \
        if (LIKELY(t->fhp == hp) && LIKELY(tc_bytes8(t, hp)) && (near)) {      \
            ifast = 1;                                                         \
            goto enter;                                                        \
        }                                                                      \
        key = (uint32_t)(hp - m->mem);                                         \
        op = *hp;                                                              \
    } while (0)
fetch_near: /* the cycle limit is known to be far (ev) */
    TC_FETCH_SUCC(1);
    goto fetched;
fetch_hit:
    TC_FETCH_SUCC(LIKELY(m->st.microcycles < lim2));
fetched:
    if (UNLIKELY(op == 0xFD)) {
        uint32_t pc = m->r[15];
        struct vm_memo *mi = vm_memo_isel(m, pc);
        if (vm_memo_hit(mi, pc, 1)) {
            memo_count(m, mi);
            op = 0x100 | mi->host[pc - mi->base];
            m->r[15] = pc + 1;
        } else {
            TC_INTERP(op = 0x100 | vm_istream(m, 1));
            ev = 0;
            if (UNLIKELY(m->stop | m->utrap))
                goto fetch_trap;
        }
    }
    /* (last is never NULL: the cache's own empty trace stands in) */
    t = last->succ;
    if (UNLIKELY(t->pa != key || t->opc != op)) {
        if (!tc_may_have_root(m->tc, key)) {
            t = NULL;
            goto miss;
        }
        t = vm_tc_guess(m->tc, last, key, op);
        if (!t || t->opc != op)
            goto miss;
    }
    if (UNLIKELY(m->st.microcycles >= lim2))
        goto miss;
    /* the instruction's bytes, once: its SPEC and IB uops need not look */
    /* (the builder made sure they lie in the opcode's line, which the
     * I-stream memo mi_cur holds) */
    ifast = 0;
    if (t->ilen) {
        const uint8_t *hp0 = m->mem + key;
        ifast = tc_bytes8(t, hp0);
        if (UNLIKELY(t->ilen > 8) && ifast) {
            uint64_t x1;
            memcpy(&x1, hp0 + 8, 8);
            ifast = ((x1 ^ t->ib1) & t->im1) == 0;
        }
    }
enter: /* trace t, at its instruction's IRD; ifast set */
    m->st.instructions++;
    if (UNLIKELY(finm & t->smask) && fin != NULL && (!t->spec0 || fin->rx_def))
        tc_carry_latches(m, fin, t);
    fin = NULL;
    u = tc_uops(t);
    DISPATCH();

ird_taken: /* an interrupt or a trace fault instead of the fetch */
    if (fin)
        tc_latch_apply(m, fin);
    *pupc = next;
    TC_RET(IRDP_CONT);

fetch_trap: /* the opcode fetch microtrapped or stopped (ird_point in vm_interp.c) */
    if (fin)
        tc_latch_apply(m, fin);
    TC_RET(tc_istream_trap(m, mapen, irdsnap, pupc));

miss:
    m->tc->st.lookups++; /* (the misses; vm_tcache_stats adds the hits) */
    if (t && t->opc != op) { /* another instruction lives there now */
        vm_tc_drop(m->tc, t);
        t = NULL;
    }
decode: {
    if (fin)
        tc_latch_apply(m, fin);
    fin = NULL;
    if (UNLIKELY(m->tc->flush_pending)) { /* nothing points into the arena now */
        last = &m->tc->nil;
        t = NULL;
        vm_tc_flush(m->tc);
    }
    uint8_t *seen = tc_seen_at(m->tc, key);
    int rec_ok = !t && *seen >= m->tc->after;
    *seen += *seen < 255;
    unsigned nx;
    struct tc_trace *nt = NULL;
    rs = tc_decode(m, limit, mapen, key, op, rec_ok, &nx, &si, &nt);
    next = nx;
    if (rs == TC_DEC_TRAP)
        goto fetch_trap;
    if (rs == TC_DEC_ON) {
        *pupc = next;
        TC_RET(IRDP_CONT);
    }
    t = nt;
    goto recorded;
}

recorded: /* the recorder ran the path through the interpreter */
    ev = 0; /* (which may have touched the request logic) */
    switch (rs) {
    case TC_REC_IRD:
        fl = si.fl;
        a = si.a;
        psl0 = si.psl0;
        lw = NULL;
        last = t ? t : &m->tc->nil;
        goto ird_point;
    case TC_REC_STOP:
        TC_RET(IRDP_RETURN);
    case TC_REC_REMAP:
        if (si.status == VM_WS_IRD) {
            vm_ird_pending(m, mapen, si.fl, si.psl0, si.a);
            *pupc = m->upc;
        } else {
            *pupc = si.next;
        }
        TC_RET(IRDP_REMAP);
    default: /* MID, LIMIT: the interpreter goes on at m->upc */
        *pupc = m->upc;
        TC_RET(IRDP_CONT);
    }

refill: /* uop u's memo check missed, for rfn bytes at rfa: where the memo
         * can be refilled (a TB and cache hit: vm_memo_refill), u runs
         * again from its start, which the check is (its body before the
         * check only computed), and passes it; else the interpreter runs
         * the word */
    if (vm_memo_refill(m, (struct vm_memo *)(void *)u->p2, rfa, rfn))
        DISPATCH();
bail: /* a specialised word cannot go the fast way: the interpreter runs it */
    dw = TC_UWNZ(u);
    goto generic;

diverge: {
    /* a guard failed: word dw's sequencing differs from the recorded one */
    dw = TC_UWNZ(u);
    if (LIKELY(u->k2 != TC_ALT_SEQ)) { /* the path fixes the other way */
        TC_SYNC(dw->pend, dw->rpend);
        if (u->k2 == TC_ALT_IRD) {
            /* the IRD point through the word's own END (vm_tc_ird_side) */
            struct tc_side *s = tc_side_find(dw, TC_ALT_IRD);
            if (!s && dw->nside < 4 && !m->tc->flush_pending) {
                struct tc_trace *st = vm_tc_ird_side(m->tc, dw);
                if (st)
                    s = attach_side(m->tc, dw, TC_ALT_IRD, st);
            }
            if (s && m->st.microcycles < lim2) {
                m->tc->st.side_entries++;
                ifast = 0;
                u = tc_uops(s->t);
                DISPATCH();
            }
            lw = dw;
            fin = dw->seq;
            finm = 3; /* (enter looks at fin itself) */
            last = &m->tc->nil;
            goto ird_point;
        }
        next = u->k2;
        goto side_lazy;
    }
    tc_latch_apply(m, dw->seq);
    m->upc = dw->upc;
    const struct uword *w = &dw->pw->u;
    word_vals(m, dw, &fl, &a, &psl0);
    next = vm_seq_resolve(m, w, fl, psl0, a, m->wdl[w->dl]);
    TC_SYNC(dw->pend, dw->rpend);
    if (m->stop)
        TC_RET(IRDP_RETURN);
    if (next == VM_SEQ_IRD) {
        lw = dw;
        fin = NULL;
        last = &m->tc->nil;
        goto ird_point;
    }
    goto side;
}

side_lazy: { /* the same, the latches still dw->seq's */
    struct tc_side *s = tc_side_at(dw, next);
    if (s && m->st.microcycles < lim2) {
        m->tc->st.side_entries++;
        ifast = 0;
        u = tc_uops(s->t);
        DISPATCH();
    }
}
    tc_latch_apply(m, dw->seq);
    m->upc = dw->upc;
    goto side;

side: { /* word dw went on to `next`, off the path; latches and microcycles exact */
    struct tc_side *s = tc_side_at(dw, next);
    if (s) {
        if (m->st.microcycles < lim2) {
            m->tc->st.side_entries++;
            ifast = 0;
            u = tc_uops(s->t);
            DISPATCH();
        }
    } else if ((dw->flags & TW_SIDEOK) && dw->nside < 4 && !m->tc->flush_pending) {
        struct tc_trace *nt = NULL;
        rs = tc_record_side(m, limit, mapen, dw, next, &si, &nt);
        t = nt;
        goto recorded;
    }
}
    m->tc->st.exits++;
    *pupc = next;
    TC_RET(IRDP_CONT);

generic: { /* word dw through the interpreter */
    ifast = 0;
    tc_latch_apply(m, dw->pre);
    m->upc = dw->upc;
    TC_SYNC(dw->pend_pre, dw->rpend_pre);
generic_step: /* (m->upc is dw's, the counts exact) */
    TC_INTERP(vm_word_step(m, limit, mapen, &si));
generic_done:
    ev = 0; /* (the word may have opened SPAM's window, or touched the
             * request logic: a register, the IPL) */
    m->tc->st.generic++;
    switch (si.status) {
    case VM_WS_STOP:
        TC_RET(IRDP_RETURN);
    case VM_WS_LIMIT:
        *pupc = dw->upc;
        TC_RET(IRDP_CONT);
    case VM_WS_IRD:
        fl = si.fl;
        a = si.a;
        psl0 = si.psl0;
        if (!si.remap && (dw->flags & TW_IRD)) {
            /* on to the trace's end (END adds the word's count back) */
            lw = NULL;
            TC_UNSYNC(dw->pend, dw->rpend);
            mhp = NULL;
            u = dw->after;
            DISPATCH();
        }
        goto interp_ird;
    default:
        break;
    }
    next = si.next;
    if (si.remap) {
        *pupc = next;
        TC_RET(IRDP_REMAP);
    }
    if (si.trapped) { /* a TB miss: its flow, then the trace goes on */
        int tr;
        TC_INTERP(tr = vm_tc_trap_flow(m, limit, mapen, &si));
        if (tr == TC_TRAP_WORD && si.next == dw->upc)
            goto generic_step; /* the word again, as UTRET says */
        if (tr == TC_TRAP_SEQ)
            goto generic_done; /* the word is done: as after it */
        goto trap_other;
    }
    if (next == dw->next && !(dw->flags & TW_IRD) &&
        (!(dw->flags & TW_SPEC) || m->specb == dw->byte)) {
        if (m->st.microcycles + dw->rem >= limit) {
            *pupc = next;
            TC_RET(IRDP_CONT);
        }
        TC_UNSYNC(dw->pend, dw->rpend);
        if (dw->rcell) /* the value the uops after it expect in r */
            r = *dw->rcell;
        mhp = NULL; /* (not the last reference's host address: TC_MCKSEQ) */
        u = dw->after;
        DISPATCH();
    }
    if (dw->flags & TW_SPEC) { /* another specifier byte: no side trace */
        m->tc->st.exits++;
        *pupc = next;
        TC_RET(IRDP_CONT);
    }
    goto side;
}

trap_other: /* a microtrap that did not come back to the trace's word (not
             * a TB miss; a fault, the limit, a stop in its flow): on from
             * where it left the machine */
    ev = 0;
    m->tc->st.exits++;
    switch (si.status) {
    case VM_WS_STOP:
        TC_RET(IRDP_RETURN);
    case VM_WS_LIMIT:
        *pupc = m->upc;
        TC_RET(IRDP_CONT);
    case VM_WS_IRD:
        fl = si.fl;
        a = si.a;
        psl0 = si.psl0;
        goto interp_ird;
    default:
        *pupc = si.next;
        TC_RET(si.remap ? IRDP_REMAP : IRDP_CONT);
    }

interp_ird: /* a word the interpreter ran stopped before the IRD point (m->upc
             * that word; fl, a, psl0 its), not on to a trace's end */
    if (si.remap) {
        vm_ird_pending(m, mapen, fl, psl0, a);
        *pupc = m->upc;
        TC_RET(IRDP_REMAP);
    }
    lw = NULL;
    fin = NULL;
    last = &m->tc->nil;
    goto ird_point;

spec_diverge: /* a specifier byte other than the recorded one; latches exact */
    if (TC_UW(u))
        TC_SYNC(TC_UW(u)->pend, TC_UW(u)->rpend);
    else
        TC_SYNC(0, 1); /* IRD's byte, counted with the first word */
    m->tc->st.exits++;
    {
        struct tc_trace *seg = (struct tc_trace *)(void *)u->p1; /* (a SPEC uop names it) */
        if (++seg->bad > 8 && !seg->dead && seg->pa != TC_NOPA) /* the code changed: record it again */
            vm_tc_drop(m->tc, seg);
    }
    *pupc = next;
    TC_RET(IRDP_CONT);

#if !TC_THREADED
dispatch:
    switch (u->op) {
#else
    DISPATCH();
#endif
    TC_HANDLERS

#if TCX_ON && TC_THREADED
h_count: { /* segment u's entries, counted down to its compile; then its
            * first uop's handler is h_native (once its code's batch is
            * executable), or its own if the compile did not take it */
    struct tc_trace *sg = tc_seg_of(u);
    if (--sg->xhot == 0) {
        int rc = vm_tcx_compile(m->tc->x, m, sg, tab);
        if (rc > 0) /* its code waits for its batch: counted again */
            sg->xhot = TCX_WAIT;
        else if (rc < 0)
            tc_uops(sg)[0].h = tab[u->op];
        else
            DISPATCH(); /* (h_native now) */
    }
    goto *tab[u->op];
}
h_native: /* segment u's compiled code (vm_tcache_x64.c), with the locals */
    xat = tc_seg_of(u)->xbody;
native_at: { /* (or code at xat inside it: TC_LOOP_NATIVE) */
    /* (field by field: an initialiser zeroes the rest too, a `rep stos`
     * on every entry; the code sets h as it leaves, fin and finm with
     * h NULL) */
    struct tcx_state xs;
    xs.last = last;
    xs.lw = lw;
    xs.mi = mi_cur;
    xs.mhp = mhp;
    xs.ev = ev;
    xs.lim2 = lim2;
    xs.r = r;
    xs.a = a;
    xs.s2 = s2;
    xs.fl = fl;
    xs.psl0 = psl0;
    xs.ifast = ifast;
    uint64_t in0 = m->st.instructions;
    u = vm_tcx_enter(m->tc->x, m, &xs, xat);
    r = xs.r;
    a = xs.a;
    s2 = xs.s2;
    fl = xs.fl;
    psl0 = xs.psl0;
    mhp = xs.mhp;
    mi_cur = xs.mi;
    ifast = xs.ifast;
    last = xs.last;
    lw = xs.lw;
    if (m->st.instructions != in0) /* (it went through IRD points' quick way) */
        irdsnap = 0;
    if (!xs.h) { /* an end: tc_run's IRD point */
        fin = xs.fin;
        finm = xs.finm;
        goto ird_point;
    }
    goto *xs.h;
}
#endif

spec_slow: {
    /* a specifier byte the memo cannot give: the interpreter's way, then
     * the decode */
    uint32_t bb;
    int rc = tc_spec_read(m, u, mapen, irdsnap, &fl, &a, &psl0, &bb, pupc);
    ev = 0;
    if (UNLIKELY(rc))
        TC_RET(rc - 1);
    next = vm_spec_decode(m, bb);
    if (bb == (u->k & 0xFF) && next == u->k >> 16)
        NEXTU(); /* the machine's latches are the trace's now */
    goto spec_diverge;
}

spec_mismatch: /* another specifier byte, sbb, consumed */
    if (u->y == 2) {
        tc_latch_apply(m, (const struct tc_latch *)(const void *)u->p2);
    } else {
        tc_latch_apply(m, TC_UW(u)->seq);
        if (u->y == 1)
            vm_spec_advance(m);
    }
    next = vm_spec_decode(m, sbb);
    goto spec_diverge;

#if !TC_THREADED
    default:
        NOT_REACHED();
    }
#endif
    TC_RET(IRDP_RETURN); /* not reached */
}



int vm_tc_run(struct vax_machine *m, uint64_t limit, int mapen, int snapped, unsigned *pupc)
{
    return tc_run(m, limit, mapen, snapped, pupc, NULL);
}

const void *const *vm_tc_handlers(void)
{
    const void *const *t = NULL;
    tc_run(NULL, 0, 0, 0, NULL, &t);
    return t;
}
