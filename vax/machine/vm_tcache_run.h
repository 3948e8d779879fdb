/* The executor's body (vm_tcache_exec.c), included once per MAPEN state
 * with TC_NAME and TC_MAPEN defined, so that each copy knows whether
 * references count TB hits and fetches may need the abort state. */
static int TC_NAME(struct vax_machine *m, uint64_t limit, int snapped, unsigned *pupc)
{
    const int mapen = TC_MAPEN;
    struct vm_tcache *tc = m->tc;
    /* a segment may start only below this many microcycles: its words
     * (at most TC_MAX_WORDS + 1 to its end or loop) then cannot pass the
     * cycle limit, which the interpreter checks before every word */
    const uint64_t lim2 = limit > TC_MAX_WORDS + 2 ? limit - (TC_MAX_WORDS + 2) : 0;
#if TC_THREADED
#define TC_LABEL(n) &&h_##n,
#define TC_ALU_LABW(F, W) &&h_alu_##F##_##W##_0, &&h_alu_##F##_##W##_1, &&h_alu_##F##_##W##_2, \
    &&h_alu_##F##_##W##_3, &&h_alu_##F##_##W##_4, &&h_alu_##F##_##W##_5, &&h_alu_##F##_##W##_6, \
    &&h_alu_##F##_##W##_7,
#define TC_ALU_LABELS(F) TC_ALU_LABW(F, 0) TC_ALU_LABW(F, 1) TC_ALU_LABW(F, 2)
    static const void *const tab[TU__COUNT] = {TC_UOPS(TC_LABEL) TC_ALU_FNS(TC_ALU_LABELS)};
#undef TC_LABEL
#undef TC_ALU_LABELS
#undef TC_ALU_LABW
#define OP(n) h_##n:
#define OPALU(F, W, FL) h_alu_##F##_##W##_##FL:
#define DISPATCH() goto *tab[u->op]
#else
#define OP(n) case TU_##n:
#define OPALU(F, W, FL) case TU_ALU_BASE + (TCF_##F * 3 + W) * TC_ALU_VARS + FL:
#define DISPATCH() goto dispatch
#endif
#define NEXTU() do { u++; DISPATCH(); } while (0)
    const struct tc_uop *u = NULL;
    struct tc_trace *t = NULL, *seg = NULL, *last = NULL;
    const struct tc_latch *fin = NULL; /* latches not yet written back */
    struct tc_word *lw = NULL;         /* the word of this IRD point (NULL: exact values) */
    struct tc_word *dw = NULL;         /* a diverging word */
    uint32_t r = 0, s2 = 0, a = 0, psl0 = 0, key = 0, op = 0;
    unsigned fl = 0, next = 0;
    int rs;
    struct vm_wstep si;
    struct vm_memo *mo = NULL; /* the memo entry MCK found for the reference */
    int irdsnap = snapped;     /* the IRD point took the abort state */
    struct vm_memo *mi_cur = m->memo.i; /* the I-stream memo entry last used */
    goto entry;

ird_point:
    /* The IRD point of word lw (microcycles exact; latches as `fin`). */
    irdsnap = 0;
    if (UNLIKELY(m->step_ird) || (mapen && !vm_istream_safe(m, 3))) {
        word_vals(m, lw, &fl, &a, &psl0);
        if (fin)
            tc_latch_apply(m, fin);
        fin = NULL;
        if (lw)
            m->upc = lw->upc;
        if (m->step_ird) { /* an instruction step ends here */
            vm_ird_pending(m, mapen, fl, psl0, a);
            return IRDP_RETURN;
        }
        /* the fetch may microtrap: the abort state, as vm.c's ird_point */
        irdsnap = vm_seq_abort_state(m, mapen, 3, fl, psl0, a);
    }

entry: {
    /* at an IRD point that needs no abort state */
    unsigned x = ird_pre(m, 1);
    if (x != IRD_FETCH) { /* an interrupt or a trace fault */
        if (fin)
            tc_latch_apply(m, fin);
        *pupc = x;
        return IRDP_CONT;
    }
    uint32_t pc = m->r[15];
    struct vm_memo *mi = mi_cur;
    const uint8_t *hp;
    if (UNLIKELY(!vm_memo_hit(mi, pc, 1)))
        mi_cur = mi = vm_memo_isel(m, pc);
    if (LIKELY(vm_memo_hit(mi, pc, 1))) {
        memo_count(m, mi, mapen);
        hp = mi->host + (pc - mi->base);
        op = *hp;
        m->r[15] = pc + 1;
    } else {
        op = vm_istream(m, 1);
        if (UNLIKELY(m->stop | m->utrap))
            goto fetch_trap;
        if (!vm_memo_hit(mi, pc, 1)) { /* the memo was not filled: no key */
            t = NULL;
            key = 0xFFFFFFFFu;
            goto decode;
        }
        hp = mi->host + (pc - mi->base);
    }
    key = (uint32_t)(hp - m->mem);
    if (UNLIKELY(op == 0xFD)) {
        pc = m->r[15];
        mi = vm_memo_isel(m, pc);
        if (vm_memo_hit(mi, pc, 1)) {
            memo_count(m, mi, mapen);
            op = 0x100 | mi->host[pc - mi->base];
            m->r[15] = pc + 1;
        } else {
            op = 0x100 | vm_istream(m, 1);
            if (UNLIKELY(m->stop | m->utrap))
                goto fetch_trap;
        }
    }
    uint64_t k64 = TC_KEY(key, op);
    t = last ? last->succ : NULL;
    if (UNLIKELY(!t || t->key != k64)) {
        t = last ? last->succ2 : NULL;
        if (!t || t->key != k64) {
            t = vm_tc_find(tc, key);
            if (!t || t->key != k64)
                goto miss;
        }
        if (last) {
            last->succ2 = last->succ;
            last->succ = t;
        }
    }
    if (UNLIKELY(m->st.microcycles >= lim2))
        goto miss;
    tc->st.hits++;
    m->st.instructions++;
    if (fin && !t->spec0 && fin->rn_def) { /* the RN group outlives IRD */
        m->rn = fin->rn;
        m->specb = fin->specb;
        m->rf_lit = fin->rf_lit;
        m->lat[LAT_RN] = fin->rn;
        m->lat[LAT_RN1] = (fin->rn + 1u) & 15;
    }
    if (fin && fin->rx_def)
        m->rx = fin->rx;
    fin = NULL;
    seg = t;
    u = t->uops;
    DISPATCH();
}

fetch_trap: /* the opcode fetch microtrapped or stopped (ird_point in vm.c) */
    if (fin)
        tc_latch_apply(m, fin);
    if (m->stop)
        return IRDP_RETURN;
    if (mapen && !irdsnap) {
        vm_ucode_error(m, "internal: I-stream microtrap without abort state");
        return IRDP_RETURN;
    }
    m->utrap = 0;
    m->usp = 0;
    *pupc = m->utrap_upc;
    return IRDP_CONT;

miss:
    tc->st.lookups++; /* (the misses; vm_tcache_stats adds the hits) */
    if (t && t->key != TC_KEY(key, op)) { /* another instruction lives there now */
        vm_tc_drop(tc, t);
        t = NULL;
    }
decode: {
    if (fin)
        tc_latch_apply(m, fin);
    fin = NULL;
    if (UNLIKELY(tc->flush_pending)) { /* nothing points into the arena now */
        last = NULL;
        t = NULL;
        vm_tc_flush(tc);
    }
    uint8_t *seen = &tc->seen[(key * 0x9E3779B1u >> 20) % TC_SEEN];
    int rec_ok = !t && *seen;
    *seen = 1;
    next = vm_ird_decode(m, op);
    if (UNLIKELY(m->stop | m->utrap))
        goto fetch_trap;
    if (!rec_ok || key == 0xFFFFFFFFu) {
        *pupc = next;
        return IRDP_CONT;
    }
    struct tc_rec *rec = tc->rec;
    const struct drom_entry *e = m->cur;
    rec->root = 1;
    rec->key = key;
    rec->opc = (uint16_t)op;
    rec->spec0 = e->defined && e->n && e->acc[0] != ACC_B;
    rec->byte0 = (uint8_t)m->specb;
    rec->entry = (uint16_t)next;
    vm_tc_latch_get(m, &rec->decode, 0, 0);
    m->upc = (uint16_t)next;
    rs = vm_tc_record(m, limit, mapen, rec, rec->spec0, 0, &si, &t);
    goto recorded;
}

recorded: /* the recorder ran the path through the interpreter */
    switch (rs) {
    case TC_REC_IRD:
        fl = si.fl;
        a = si.a;
        psl0 = si.psl0;
        lw = NULL;
        last = t;
        goto ird_point;
    case TC_REC_STOP:
        return IRDP_RETURN;
    case TC_REC_REMAP:
        if (si.status == VM_WS_IRD) {
            vm_ird_pending(m, mapen, si.fl, si.psl0, si.a);
            *pupc = m->upc;
        } else {
            *pupc = si.next;
        }
        return IRDP_REMAP;
    default: /* MID, LIMIT: the interpreter goes on at m->upc */
        *pupc = m->upc;
        return IRDP_CONT;
    }

bail: /* a specialised word cannot go the fast way: the interpreter runs it */
    dw = u->w;
    goto generic;

diverge: {
    /* a guard failed: word dw's sequencing differs from the recorded one */
    dw = u->w;
    if (LIKELY(u->k2 != TC_ALT_SEQ)) { /* the path fixes the other way */
        m->st.microcycles += dw->pend;
        tc->st.words += dw->pend;
        if (u->k2 == TC_ALT_IRD) {
            lw = dw;
            fin = dw->seq;
            last = NULL;
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
    m->st.microcycles += dw->pend;
    tc->st.words += dw->pend;
    if (m->stop)
        return IRDP_RETURN;
    if (next == VM_SEQ_IRD) {
        lw = dw;
        fin = NULL;
        last = NULL;
        goto ird_point;
    }
    goto side;
}

side_lazy: /* the same, the latches still dw->seq's */
    if (dw->flags & TW_SIDEOK) {
        struct tc_side *s;
        for (s = dw->side; s; s = s->next)
            if (s->upc == next)
                break;
        if (s && m->st.microcycles < lim2) {
            tc->st.side_entries++;
            seg = s->t;
            u = seg->uops;
            DISPATCH();
        }
    }
    tc_latch_apply(m, dw->seq);
    m->upc = dw->upc;
    goto side;

side: /* word dw went on to `next`, off the path; latches and microcycles exact */
    if (dw->flags & TW_SIDEOK) {
        struct tc_side *s;
        for (s = dw->side; s; s = s->next)
            if (s->upc == next)
                break;
        if (s) {
            if (m->st.microcycles < lim2) {
                tc->st.side_entries++;
                seg = s->t;
                u = seg->uops;
                DISPATCH();
            }
        } else if (dw->nside < 4 && !tc->flush_pending) {
            struct tc_rec *rec = tc->rec;
            rec->root = 0;
            rec->key = 0;
            rec->opc = 0;
            rec->spec0 = 0;
            m->upc = (uint16_t)next;
            rs = vm_tc_record(m, limit, mapen, rec, dw->seq->rn_def, dw->seq->rx_def, &si, &t);
            if (t)
                attach_side(tc, dw, next, t);
            goto recorded;
        }
    }
    tc->st.exits++;
    *pupc = next;
    return IRDP_CONT;

generic: { /* word dw through the interpreter */
    tc_latch_apply(m, dw->pre);
    m->upc = dw->upc;
    m->st.microcycles += dw->pend_pre;
    tc->st.words += dw->pend_pre;
    vm_word_step(m, limit, mapen, &si);
    tc->st.generic++;
    switch (si.status) {
    case VM_WS_STOP:
        return IRDP_RETURN;
    case VM_WS_LIMIT:
        *pupc = dw->upc;
        return IRDP_CONT;
    case VM_WS_IRD:
        fl = si.fl;
        a = si.a;
        psl0 = si.psl0;
        if (si.remap) {
            vm_ird_pending(m, mapen, fl, psl0, a);
            *pupc = dw->upc;
            return IRDP_REMAP;
        }
        lw = NULL;
        if (dw->flags & TW_IRD) {
            /* on to the trace's end (END adds the word's count back) */
            m->st.microcycles -= dw->pend;
            tc->st.words -= dw->pend;
            u = dw->after;
            DISPATCH();
        }
        fin = NULL;
        last = NULL;
        goto ird_point;
    default:
        break;
    }
    next = si.next;
    if (si.remap) {
        *pupc = next;
        return IRDP_REMAP;
    }
    if (si.trapped) {
        tc->st.exits++;
        *pupc = next;
        return IRDP_CONT;
    }
    if (next == dw->next && !(dw->flags & TW_IRD) &&
        (!(dw->flags & TW_SPEC) || m->specb == dw->byte)) {
        if (m->st.microcycles + dw->rem >= limit) {
            *pupc = next;
            return IRDP_CONT;
        }
        m->st.microcycles -= dw->pend;
        tc->st.words -= dw->pend;
        u = dw->after;
        DISPATCH();
    }
    if (dw->flags & TW_SPEC) { /* another specifier byte: no side trace */
        tc->st.exits++;
        *pupc = next;
        return IRDP_CONT;
    }
    goto side;
}

spec_diverge: /* a specifier byte other than the recorded one; latches exact */
    if (u->w) {
        m->st.microcycles += u->w->pend;
        tc->st.words += u->w->pend;
    }
    tc->st.exits++;
    if (++seg->bad > 8 && seg->key != TC_NOKEY) /* the code changed: record it again */
        vm_tc_drop(tc, seg);
    *pupc = next;
    return IRDP_CONT;

#if !TC_THREADED
dispatch:
    switch (u->op) {
#else
    DISPATCH();
#endif
    /* ---- control ---- */
    OP(END) {
        lw = u->w;
        m->st.microcycles += lw->pend;
        tc->st.words += lw->pend;
        last = (struct tc_trace *)(void *)u->p1;
        fin = last->fin; /* written back where needed (entry, exits) */
        goto ird_point;
    }
    OP(LOOP) {
        const struct tc_word *hw = (const struct tc_word *)(const void *)u->p2;
        m->st.microcycles += u->w->pend;
        tc->st.words += u->w->pend;
        if (UNLIKELY(m->st.microcycles >= lim2)) {
            tc_latch_apply(m, hw->pre);
            *pupc = hw->upc;
            return IRDP_CONT;
        }
        u = (const struct tc_uop *)(const void *)u->p1;
        DISPATCH();
    }
    OP(EXIT) {
        if (u->w) {
            m->st.microcycles += u->w->pend;
            tc->st.words += u->w->pend;
        }
        tc_latch_apply(m, (const struct tc_latch *)(const void *)u->p2);
        tc->st.exits++;
        *pupc = u->k;
        return IRDP_CONT;
    }
    OP(SYNC) {
        m->st.microcycles += u->k;
        tc->st.words += u->k;
        NEXTU();
    }
    OP(GEN) {
        dw = u->w;
        goto generic;
    }
    /* ---- sources ---- */
    OP(IB) {
        uint32_t pc = m->r[15];
        struct vm_memo *mi = mi_cur;
        if (UNLIKELY(!vm_memo_hit(mi, pc, u->x))) {
            mi_cur = mi = vm_memo_isel(m, pc);
            if (!vm_memo_hit(mi, pc, u->x))
                goto bail;
        }
        memo_count(m, mi, mapen);
        m->tc_tmp[u->y] = (uint32_t)vm_load_le(mi->host + (pc - mi->base), u->x);
        m->r[15] = pc + u->x;
        NEXTU();
    }
    OP(RXS) {
        m->tc_tmp[u->y] = *u->p1 << u->x;
        NEXTU();
    }
    OP(SOPR) {
        m->tc_tmp[u->y] = m->r[(m->opa[u->k] + u->x) & 15];
        NEXTU();
    }
    OP(SLS) {
        m->tc_tmp[u->y] = m->ls[*u->p1 % VM_LS_WORDS];
        NEXTU();
    }
    OP(S2) {
        s2 = *u->p1;
        NEXTU();
    }
    OP(PSL0) {
        psl0 = m->psl;
        NEXTU();
    }
    OP(LDA) {
        a = *u->p1;
        NEXTU();
    }
    /* ---- the ALU ---- */
    OP(ALU_GEN) {
        a = *u->p1;
        r = alu(m, u->k2, a, *u->p2, u->x, &fl);
        NEXTU();
    }
#define TC_ALU_H(F, W, V)                                                      \
    OPALU(F, W, V) {                                                           \
        a = *u->p1;                                                            \
        if (V)                                                                 \
            r = alu(m, UA_##F, a, *u->p2, W, &fl);                             \
        else                                                                   \
            r = alu_nofl(m, UA_##F, a, *u->p2, W);                             \
        TC_CELL(m, u->k) = r;                                                  \
        if (V >= 2)                                                            \
            set_cc(m, UCC_ARITH + (V - 2), fl, r);                             \
        NEXTU();                                                               \
    }
#define TC_ALU_HW(F, W) TC_ALU_H(F, W, 0) TC_ALU_H(F, W, 1) TC_ALU_H(F, W, 2) \
    TC_ALU_H(F, W, 3) TC_ALU_H(F, W, 4) TC_ALU_H(F, W, 5) TC_ALU_H(F, W, 6)    \
    TC_ALU_H(F, W, 7)
#define TC_ALU_HS(F) TC_ALU_HW(F, 0) TC_ALU_HW(F, 1) TC_ALU_HW(F, 2)
    TC_ALU_FNS(TC_ALU_HS)
#undef TC_ALU_HS
#undef TC_ALU_HW
#undef TC_ALU_H
    OP(MOV) {
        TC_CELL(m, u->k) = *u->p1;
        NEXTU();
    }
    OP(MOV2) {
        uint32_t v1 = *u->p1, v2 = *u->p2;
        TC_CELL(m, u->k) = v1;
        TC_CELL(m, u->k2) = v2;
        NEXTU();
    }
    /* ---- destinations ---- */
    OP(ST_R) { *u->p1 = r; NEXTU(); }
    OP(ST_S) { *u->p1 = s2; NEXTU(); }
    OP(STW_R) { gpr_write(u->p1, r, u->x); NEXTU(); }
    OP(STW_S) { gpr_write(u->p1, s2, u->x); NEXTU(); }
    OP(STRN_R) {
        if (m->log_n < 16) { /* the specifier's change, for UNDO */
            m->log_reg[m->log_n] = u->k;
            m->log_val[m->log_n++] = *u->p1;
        }
        gpr_write(u->p1, r, u->x);
        NEXTU();
    }
    OP(STRN_S) {
        if (m->log_n < 16) {
            m->log_reg[m->log_n] = u->k;
            m->log_val[m->log_n++] = *u->p1;
        }
        gpr_write(u->p1, s2, u->x);
        NEXTU();
    }
    OP(STRES_R) {
        m->mdr = r;
        if (m->opreg[u->k])
            gpr_write(&m->r[m->opa[u->k] & 15], r, u->x);
        NEXTU();
    }
    OP(STOPR_R) { gpr_write(&m->r[(m->opa[u->k] + u->y) & 15], r, u->x); NEXTU(); }
    OP(STOPR_S) { gpr_write(&m->r[(m->opa[u->k] + u->y) & 15], s2, u->x); NEXTU(); }
    OP(STPSL_R) {
        vm_memo_mode(m, m->psl, r); /* the mode selects the memos */
        m->psl = r;
        NEXTU();
    }
    OP(STPSL_S) {
        vm_memo_mode(m, m->psl, s2);
        m->psl = s2;
        NEXTU();
    }
    OP(STLS_R) { m->ls[*u->p1 % VM_LS_WORDS] = r; NEXTU(); }
    OP(STLS_S) { m->ls[*u->p1 % VM_LS_WORDS] = s2; NEXTU(); }
    /* ---- condition codes ---- */
    OP(CC_ARITH) { set_cc(m, UCC_ARITH, fl, r); NEXTU(); }
    OP(CC_LOGIC) { set_cc(m, UCC_LOGIC, fl, r); NEXTU(); }
    OP(CC_TEST) { set_cc(m, UCC_TEST, fl, r); NEXTU(); }
    OP(CC_CMP) { set_cc(m, UCC_CMP, fl, r); NEXTU(); }
    OP(CC_NZV) { set_cc(m, UCC_NZV, fl, r); NEXTU(); }
    OP(CC_NZVC0) { set_cc(m, UCC_NZVC0, fl, r); NEXTU(); }
    OP(CC_QUAD) { set_cc(m, UCC_QUAD, fl, r); NEXTU(); }
    /* ---- memory ---- */
    OP(MCK_R) {
        mo = vm_memo_sel((struct vm_memo *)(void *)u->p2, r);
        if (LIKELY(vm_memo_hit(mo, r, u->x)))
            NEXTU();
        goto bail;
    }
    OP(MCK_S) {
        mo = vm_memo_sel((struct vm_memo *)(void *)u->p2, s2);
        if (LIKELY(vm_memo_hit(mo, s2, u->x)))
            NEXTU();
        goto bail;
    }
    OP(MCK_P) {
        mo = vm_memo_sel((struct vm_memo *)(void *)u->p2, *u->p1);
        if (LIKELY(vm_memo_hit(mo, *u->p1, u->x)))
            NEXTU();
        goto bail;
    }
    OP(RD) {
        memo_count(m, mo, mapen);
        uint64_t v = vm_load_le(mo->host + (m->mar - mo->base), u->x);
        m->mdr = (uint32_t)v;
        if (u->x == 8)
            m->q = (uint32_t)(v >> 32);
        NEXTU();
    }
    OP(RDOP) {
        memo_count(m, mo, mapen);
        uint64_t v = vm_load_le(mo->host + (m->mar - mo->base), u->x);
        m->opv[u->k] = (uint32_t)v;
        m->oph[u->k] = (uint32_t)(v >> 32);
        NEXTU();
    }
    OP(WR) {
        memo_count(m, mo, mapen);
        mo->set->dirty[mo->way] = 1;
        vm_store_le(mo->host + (m->mar - mo->base), u->x, (uint64_t)m->q << 32 | m->mdr);
        NEXTU();
    }
    OP(WROP) {
        memo_count(m, mo, mapen);
        mo->set->dirty[mo->way] = 1;
        vm_store_le(mo->host + (m->opa[u->k] - mo->base), u->x,
                    (uint64_t)m->q << 32 | m->mdr);
        NEXTU();
    }
    /* ---- MISC ---- */
    OP(SETREG) {
        m->opreg[u->k] = 1;
        m->opa[u->k] = u->x;
        NEXTU();
    }
    OP(SETMEM) { m->opreg[u->k] = 0; NEXTU(); }
    OP(CLRLOG) { m->log_n = 0; NEXTU(); }
    OP(EVCNT) { m->scb_count[(a >> 2) & 127]++; NEXTU(); }
    OP(INEXC) { m->in_exc = 1; NEXTU(); }
    OP(TRACEWR) { m->spam_window = 1; NEXTU(); }
    /* ---- sequencing ---- */
    OP(PUSH) {
        m->ustack[u->x] = (uint16_t)u->k;
        m->usp = u->x + 1;
        NEXTU();
    }
    OP(POP) { m->usp = u->x; NEXTU(); }
#define GUARD(c)                                                               \
    do {                                                                       \
        if (LIKELY((unsigned)(c) == u->x))                                     \
            NEXTU();                                                           \
        goto diverge;                                                          \
    } while (0)
#define GPSL (u->y ? psl0 : m->psl)
    OP(G_COND) GUARD(!!vm_cond(m, u->k, fl, GPSL, a, &u->w->pw->u));
    OP(G_PSL_Z) GUARD((GPSL & PSL_Z) != 0);
    OP(G_PSL_N) GUARD((GPSL & PSL_N) != 0);
    OP(G_PSL_V) GUARD((GPSL & PSL_V) != 0);
    OP(G_PSL_C) GUARD((GPSL & PSL_C) != 0);
    OP(G_PSL_NZ) GUARD((GPSL & (PSL_N | PSL_Z)) != 0);
    OP(G_PSL_CZ) GUARD((GPSL & (PSL_C | PSL_Z)) != 0);
    OP(G_IOVT) GUARD((GPSL & (PSL_V | PSL_IV)) == (PSL_V | PSL_IV));
    OP(G_ALU_Z) GUARD((fl & F_Z) != 0);
    OP(G_ALU_N) GUARD((fl & F_N) != 0);
    OP(G_ALU_V) GUARD((fl & F_V) != 0);
    OP(G_ALU_C) GUARD((fl & F_C) != 0);
    OP(G_ALU_LT) GUARD(!(fl & F_N) != !(fl & F_V));
    OP(G_ALU_LE) GUARD((!(fl & F_N) != !(fl & F_V)) || (fl & F_Z));
    OP(G_ALU_CZ) GUARD((fl & (F_C | F_Z)) != 0);
    OP(G_OPREG) GUARD(m->opreg[u->k] != 0);
    OP(G_OPREG_NOVT) GUARD(m->opreg[u->k] && !((fl & F_V) && (GPSL & PSL_IV)));
    OP(G_NOVT) GUARD(!((fl & F_V) && (GPSL & PSL_IV)));
    OP(G_SC_Z) GUARD(m->sc == 0);
    OP(G_A_B0) GUARD(a & 1);
    OP(G_A_B31) GUARD(a >> 31);
    OP(G_A_Z) GUARD(a == 0);
    OP(G_PSL_KERN) GUARD((GPSL & 0x03000000u) == 0);
    OP(GD_A4) GUARD(a & 15);
    OP(GD_A2) GUARD(a & 3);
    OP(GD_OPREG) GUARD(m->opreg[u->k]);
    OP(GD_MFORK) GUARD(m->opreg[u->k] != 0);
    OP(GD_SPM) {
        uint32_t st = m->ipr[VM_SPAM_STAT];
        unsigned i = !(m->ipr[VM_SPAM_MASK] >> (a >> 12 & 15) & 1) ||
                             !(st & (VM_SPAM_ST_ON | VM_SPAM_ST_FULL))
                         ? 0
                         : st & VM_SPAM_ST_ON ? 1 : 2;
        GUARD(i);
    }
#undef GPSL
#undef GUARD
    OP(SPEC) {
        /* the specifier byte: consumed here, checked against the path's */
        uint32_t pc = m->r[15];
        struct vm_memo *mi = mi_cur;
        uint32_t bb;
        if (UNLIKELY(!vm_memo_hit(mi, pc, 1)))
            mi_cur = mi = vm_memo_isel(m, pc);
        if (LIKELY(vm_memo_hit(mi, pc, 1))) { /* cannot microtrap */
            bb = mi->host[pc - mi->base];
            memo_count(m, mi, mapen);
            m->r[15] = pc + 1;
            if (LIKELY(bb == (u->k & 0xFF)))
                NEXTU();
            if (u->y == 2) {
                tc_latch_apply(m, (const struct tc_latch *)(const void *)u->p2);
            } else {
                tc_latch_apply(m, u->w->seq);
                if (u->y == 1)
                    vm_spec_advance(m);
            }
            next = vm_spec_decode(m, bb);
            goto spec_diverge;
        }
        /* the interpreter's way: the abort state (not for IRD's byte,
         * whose IRD point took care of it), the fetch, the decode */
        int snap = irdsnap;
        if (u->y == 2) {
            tc_latch_apply(m, (const struct tc_latch *)(const void *)u->p2);
        } else {
            struct tc_word *sw = u->w;
            tc_latch_apply(m, sw->seq);
            m->upc = sw->upc;
            word_vals(m, sw, &fl, &a, &psl0);
            snap = vm_seq_abort_state(m, mapen, 1, fl, psl0, a);
            if (u->y == 1)
                vm_spec_advance(m);
        }
        bb = vm_istream(m, 1);
        if (UNLIKELY(m->stop | m->utrap)) {
            if (u->w) {
                m->st.microcycles += u->w->pend;
                tc->st.words += u->w->pend;
            }
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
        next = vm_spec_decode(m, bb);
        if (bb == (u->k & 0xFF) && next == u->k >> 16)
            NEXTU(); /* the machine's latches are the trace's now */
        goto spec_diverge;
    }
#if !TC_THREADED
    default:
        NOT_REACHED();
    }
#endif
    return IRDP_RETURN; /* not reached */
#undef OP
#undef OPALU
#undef DISPATCH
#undef NEXTU
}


#undef TC_NAME
#undef TC_MAPEN
