/* The microword interpreter (vm_interp.h; MICROARCHITECTURE.md §2-§4):
 * one loop iteration = one microword = one 80 ns microcycle.  A word's
 * sources and destinations through the register file and the general
 * multiplexer, its ALU and condition codes (vm_datapath.h), its memory
 * request (vm_mem_fast.h), its MISC function, the microtrap abort state,
 * and the sequencer's choice of the next micro-address, IRD (vm_ird.h)
 * among them, where an engine above the sequencer (the trace cache) may
 * take over (vm_interp.h).  This file knows the microword's fields; it knows no VAX
 * instruction. */
#include <stdio.h>
#include <string.h>

#include "vax/machine/vm_interp.h"

static void stop(struct vax_machine *m, const char *why)
{
    if (m->stop)
        return;
    m->stop = VM_STOPPED;
    snprintf(m->reason, sizeof m->reason, "%s", why);
}

/* DISPATCH ACC: the access-class tail (R M W A V), +5 after an index. */
static inline uint16_t disp_acc(const struct vax_machine *m, const struct uword *w)
{
    return (uint16_t)(w->next + m->cur->acc[m->lat[LAT_SPEC]] + (m->idx ? 5 : 0));
}

/* ---- data path ---- */

static inline unsigned cur_width(const struct vax_machine *m)
{
    return m->wdl[UDL_CUR];
}

static inline unsigned dl_width(const struct vax_machine *m, const struct uword *w)
{
    return m->wdl[w->dl];
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static uint32_t src_slow(struct vax_machine *m, unsigned s, const struct uword *w,
                         unsigned wd)
{
    switch (s) {
    case UR_NONE: case UR_ZERO: return 0;
    case UR_RN: return m->r[m->rn];
    case UR_RN1: return m->r[(m->rn + 1) & 15];
    case UR_RX: return m->r[m->rx];
    case UR_OPR: return m->r[m->opa[m->opk] & 15];
    case UR_OPR1: return m->r[(m->opa[m->opk] + 1) & 15];
    case UR_PSL: return m->psl;
    case UR_MAR: return m->mar;
    case UR_MDR: return m->mdr;
    case UR_Q: return m->q;
    case UR_SC: return m->sc;
    case UR_ICNT: return m->icnt;
    case UR_K: return w->k;
    case UR_IB: return istream(m, width_size[wd] > 4 ? 4 : width_size[wd]);
    case UR_LIT: return m->specb & 0x3F;
    case UR_RXS: return m->r[m->rx] << width_log[cur_width(m)];
    case UR_SIZE: return width_size[cur_width(m)];
    case UR_OPCODE: return m->opc;
    case UR_IPR: return vm_ipr_read(m, m->mar);
    case UR_FPC: return m->fpc;
    case UR_FVA: return m->fva;
    case UR_MMACC: return m->mmacc;
    case UR_IVEC: case UR_IIPL: {
        uint32_t vec;
        int lvl = vm_int_eval(m, &vec);
        return s == UR_IVEC ? vec : (uint32_t)lvl;
    }
    case UR_OPVL: return m->opv[m->cur->n ? m->cur->n - 1 : 0];
    case UR_OPV: return m->opv[m->spec % 6];
    case UR_OPH: return m->oph[m->spec % 6];
    case UR_OPA: return m->opa[m->spec % 6];
    case UR_OPVK: return m->opv[m->opk];
    case UR_OPHK: return m->oph[m->opk];
    case UR_OPAK: return m->opa[m->opk];
    case UR_OPX: return m->opx[m->spec % 6];
    case UR_OPY: return m->opy[m->spec % 6];
    case UR_OPXK: return m->opx[m->opk];
    case UR_OPYK: return m->opy[m->opk];
    case UR_RN2: return m->r[(m->rn + 2) & 15];
    case UR_RN3: return m->r[(m->rn + 3) & 15];
    case UR_OPR2: return m->r[(m->opa[m->opk] + 2) & 15];
    case UR_OPR3: return m->r[(m->opa[m->opk] + 3) & 15];
    case UR_LA: return m->la;
    case UR_LB: return m->lb;
    case UR_LSA: return m->ls[m->la % VM_LS_WORDS];
    case UR_LSB: return m->ls[m->lb % VM_LS_WORDS];
    case UR_FBL: return m->fbox.fbl;
    case UR_FBH: return m->fbox.fbh;
    default:
        if (s >= UR_OPV0 && s <= UR_OPV5) return m->opv[s - UR_OPV0];
        if (s >= UR_OPH0 && s <= UR_OPH5) return m->oph[s - UR_OPH0];
        if (s >= UR_OPA0 && s <= UR_OPA5) return m->opa[s - UR_OPA0];
        if (s >= UR_SPSTRT && s <= UR_SPSIZE) /* SPAM bank = IPRs 0xE0-0xE8 */
            return m->ipr[0xE0 + (s - UR_SPSTRT)];
        return 0;
    }
}

/* A source: one register-file load, or the general multiplexer. */
static inline uint32_t src(struct vax_machine *m, unsigned sel, unsigned kind,
                           unsigned code, const struct uword *w, unsigned wd)
{
    if (LIKELY(kind < PK_GPR))
        return m->rf[sel + m->lat[kind]];
    if (kind == PK_IB)
        return istream(m, width_size[wd] > 4 ? 4 : width_size[wd]);
    return src_slow(m, code, w, wd);
}

/* R[RN] <- v: the specifier flows' register changes are logged for UNDO. */
static inline void write_rn(struct vax_machine *m, uint32_t v, unsigned wd)
{
    if (m->log_n < 16) {
        m->log_reg[m->log_n] = m->rn;
        m->log_val[m->log_n++] = m->r[m->rn];
    }
    gpr_write(&m->r[m->rn], v, wd);
}

/* RES, the result of an execute flow: MDR (for the memory store that
 * may follow), and at once the register when operand OPK is one -- the
 * 8600's E-box wrote a register result in the cycle that made it. */
static inline void write_res(struct vax_machine *m, uint32_t v, unsigned wd)
{
    m->mdr = v;
    if (m->opreg[m->opk])
        gpr_write(&m->r[m->opa[m->opk] & 15], v, wd);
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void dst_slow(struct vax_machine *m, unsigned d, uint32_t v, unsigned wd)
{
    switch (d) {
    case UR_NONE: return;
    case UR_RN: write_rn(m, v, wd); return;
    case UR_RN1: gpr_write(&m->r[(m->rn + 1) & 15], v, wd); return;
    case UR_RX: gpr_write(&m->r[m->rx], v, wd); return;
    case UR_OPR: gpr_write(&m->r[m->opa[m->opk] & 15], v, wd); return;
    case UR_OPR1: gpr_write(&m->r[(m->opa[m->opk] + 1) & 15], v, wd); return;
    case UR_RES: write_res(m, v, wd); return;
    case UR_PSL:
        vm_memo_mode(m, m->psl, v); /* the mode selects the memos */
        m->psl = v;
        return;
    case UR_MAR: m->mar = v; return;
    case UR_MDR: m->mdr = v; return;
    case UR_Q: m->q = v; return;
    case UR_SC: m->sc = v; return;
    case UR_OPV: m->opv[m->spec % 6] = v; return;
    case UR_OPH: m->oph[m->spec % 6] = v; return;
    case UR_OPA: m->opa[m->spec % 6] = v; return;
    case UR_OPVK: m->opv[m->opk] = v; return;
    case UR_OPHK: m->oph[m->opk] = v; return;
    case UR_OPAK: m->opa[m->opk] = v; return;
    case UR_OPX: m->opx[m->spec % 6] = v; return;
    case UR_OPY: m->opy[m->spec % 6] = v; return;
    case UR_OPXK: m->opx[m->opk] = v; return;
    case UR_OPYK: m->opy[m->opk] = v; return;
    case UR_RN2: gpr_write(&m->r[(m->rn + 2) & 15], v, wd); return;
    case UR_RN3: gpr_write(&m->r[(m->rn + 3) & 15], v, wd); return;
    case UR_OPR2: gpr_write(&m->r[(m->opa[m->opk] + 2) & 15], v, wd); return;
    case UR_OPR3: gpr_write(&m->r[(m->opa[m->opk] + 3) & 15], v, wd); return;
    case UR_LA: m->la = v; return;
    case UR_LB: m->lb = v; return;
    case UR_LSA: m->ls[m->la % VM_LS_WORDS] = v; return;
    case UR_LSB: m->ls[m->lb % VM_LS_WORDS] = v; return;
    default:
        if (d >= UR_OPV0 && d <= UR_OPV5) m->opv[d - UR_OPV0] = v;
        else if (d >= UR_OPH0 && d <= UR_OPH5) m->oph[d - UR_OPH0] = v;
        else if (d >= UR_OPA0 && d <= UR_OPA5) m->opa[d - UR_OPA0] = v;
        else if (d >= UR_SPSTRT && d <= UR_SPSIZE) /* SPAM bank */
            m->ipr[0xE0 + (d - UR_SPSTRT)] = v;
        return;
    }
}

/* A destination: a register-file store (a general register merges a byte
 * or word), R[RN] with its UNDO log entry, or the general demultiplexer. */
static ALWAYS_INLINE void dst(struct vax_machine *m, unsigned sel, unsigned kind,
                       unsigned code, uint32_t v, unsigned wd)
{
    if (kind < PK_GPR) {
        m->rf[sel + m->lat[kind]] = v;
        return;
    }
    if (kind == PK_GPR) {
        gpr_write(&m->rf[sel], v, wd);
        return;
    }
    if (kind == PK_OPR) {
        gpr_write(&m->r[m->opa[m->opk] & 15], v, wd);
        return;
    }
    if (kind == PK_RN) {
        write_rn(m, v, wd);
        return;
    }
    if (kind == PK_RES) {
        write_res(m, v, wd);
        return;
    }
    dst_slow(m, code, v, wd);
}



static ALWAYS_INLINE int cond(const struct vax_machine *m, unsigned c, unsigned fl,
                       uint32_t psl, uint32_t a, const struct uword *w)
{
    int r;
    switch (c & ~UC_NOT) {
    case UC_TRUE: r = 1; break;
    case UC_ALU_Z: r = (fl & F_Z) != 0; break;
    case UC_ALU_N: r = (fl & F_N) != 0; break;
    case UC_ALU_V: r = (fl & F_V) != 0; break;
    case UC_ALU_C: r = (fl & F_C) != 0; break;
    case UC_ALU_LT: r = !(fl & F_N) != !(fl & F_V); break;
    case UC_ALU_LE: r = (!(fl & F_N) != !(fl & F_V)) || (fl & F_Z); break;
    case UC_ALU_CZ: r = (fl & (F_C | F_Z)) != 0; break;
    case UC_PSL_N: r = (psl & PSL_N) != 0; break;
    case UC_PSL_Z: r = (psl & PSL_Z) != 0; break;
    case UC_PSL_V: r = (psl & PSL_V) != 0; break;
    case UC_PSL_C: r = (psl & PSL_C) != 0; break;
    case UC_PSL_NZ: r = (psl & (PSL_N | PSL_Z)) != 0; break;
    case UC_PSL_CZ: r = (psl & (PSL_C | PSL_Z)) != 0; break;
    case UC_PSL_IV: r = (psl & PSL_IV) != 0; break;
    case UC_PSL_T: r = (psl & PSL_T) != 0; break;
    case UC_PSL_KERN: r = (psl & PSL_CUR_BITS) == 0; break;
    case UC_IOVT: r = (psl & (PSL_V | PSL_IV)) == (PSL_V | PSL_IV); break;
    case UC_OPREG: r = m->opreg[m->opk]; break;
    case UC_SC_Z: r = m->sc == 0; break;
    case UC_A_B0: r = a & 1; break;
    case UC_A_B31: r = a >> 31; break;
    case UC_DLQ: r = dl_width(m, w) == 3; break;
    case UC_RN_PC: r = m->rn == 15; break;
    case UC_INTPEND: {
        uint32_t vec;
        r = vm_int_eval((struct vax_machine *)m, &vec) > 0;
        break;
    }
    case UC_PSL_IS: r = (psl & 0x04000000u) != 0; break;
    case UC_INEXC: r = m->in_exc; break;
    case UC_SPON: /* SPAM: STAT<1:0> (ON or FULL) != 0 */
        r = (m->ipr[VM_SPAM_STAT] & (VM_SPAM_ST_ON | VM_SPAM_ST_FULL)) != 0;
        break;
    case UC_SPEV: /* SPON, or the probe unit selected the hook's event (§15) */
        r = (m->ipr[VM_SPAM_STAT] & (VM_SPAM_ST_ON | VM_SPAM_ST_FULL)) != 0 ||
            (m->prb && vm_probe_spev(m));
        break;
    case UC_FRMW: /* the frame comparator on T8, RET's popped frame (§15) */
        r = m->prb_frames && vm_probe_frmw((struct vax_machine *)m);
        break;
    case UC_IDX: r = m->idx; break;
    case UC_IPR_BAD: r = m->ipr_bad; break;
    case UC_A_Z: r = a == 0; break;
    case UC_OPREG_NOVT: /* RES went to a register, no overflow trap due */
        r = m->opreg[m->opk] && !((fl & F_V) && (psl & PSL_IV));
        break;
    case UC_PSL_FU: r = (psl & PSL_FU) != 0; break;
    case UC_PSL_DV: r = (psl & PSL_DV) != 0; break;
    case UC_A_B15: r = (a >> 15) & 1; break; /* a floating datum's sign */
    case UC_MAPEN: r = m->ipr[0x38] & 1; break;
    case UC_FB_RSV: r = m->fbox.rsv; break;  /* the F-box's status latches */
    case UC_FB_EXC: r = m->fbox.exc; break;
    case UC_FB_DZ: r = m->fbox.dz; break;
    case UC_FB_V: r = m->fbox.v; break;
    case UC_FB_IOV: r = m->fbox.iov; break;
    default: r = 0;
    }
    return (c & UC_NOT) ? !r : r;
}

COLD static void ucode_error(struct vax_machine *m, const char *what)
{
    char buf[160];
    snprintf(buf, sizeof buf, "microcode error: %s at micro-address 0x%04X",
             what, m->upc);
    stop(m, buf);
}

COLD static void do_stop(struct vax_machine *m, uint32_t code)
{
    char buf[160];
    if (code == USTOP_SC) /* the exception flows name the reason in SC */
        code = m->sc;
    const char *r = code < USTOP__COUNT ? uw_stop_reasons[code] : "stop";
    if (code == USTOP_MCHK)
        snprintf(buf, sizeof buf, "machine check: %s of non-existent memory "
                 "at PA 0x%08X", m->fva_write ? "write" : "read", m->fva);
    else if (code == USTOP_RSVINSN || code == USTOP_UNIMPL)
        snprintf(buf, sizeof buf, "%s (opcode %s%02X)", r,
                 m->opc > 0xFF ? "FD" : "", m->opc & 0xFF);
    else
        snprintf(buf, sizeof buf, "%s", r);
    stop(m, buf);
}

/* ---- the microtrap abort state (MICROARCHITECTURE.md §11) ----
 * With MAPEN = 1 the hardware keeps a copy of the data path as it was at
 * the start of every microword that can make a translated reference (a
 * virtual memory request, an IB read, IRD, a SPECMODE dispatch); for a
 * reference made in the sequencing phase (IRD, SPECMODE) the copy is taken
 * again just before the sequencing.  UTRET restores it all and re-executes
 * the trapped word (or only its sequencing); UTABORT restores the general
 * registers, the PSL and the register-change log only, for a fault. */
static void snap_save(struct vax_machine *m, struct vm_snap *s)
{
    memcpy(s->rf, m->rf, sizeof s->rf);
    s->fpc = m->fpc;
    memcpy(s->opreg, m->opreg, sizeof s->opreg);
    s->rn = m->rn; s->rx = m->rx; s->specb = m->specb; s->spec = m->spec;
    s->idx = m->idx; s->opk = m->opk; s->opc = m->opc; s->upc = m->upc;
    s->cur = m->cur;
    memcpy(s->ustack, m->ustack, sizeof s->ustack);
    s->usp = m->usp;
    s->log_n = m->log_n;
    memcpy(s->log_reg, m->log_reg, m->log_n * sizeof m->log_reg[0]);
    memcpy(s->log_val, m->log_val, m->log_n * sizeof(uint32_t));
    s->instructions = m->st.instructions;
}

/* Everything but the general registers and the PSL. */
static void snap_restore(struct vax_machine *m, const struct vm_snap *s)
{
    memcpy(&m->rf[RF_T], &s->rf[RF_T], 16 * sizeof(uint32_t));
    memcpy(&m->rf[RF_OPV], &s->rf[RF_OPV], (RF_PSL - RF_OPV) * sizeof(uint32_t));
    memcpy(&m->rf[RF_MAR], &s->rf[RF_MAR], (RF_N - RF_MAR) * sizeof(uint32_t));
    m->fpc = s->fpc;
    memcpy(m->opreg, s->opreg, sizeof s->opreg);
    m->rn = s->rn; m->rx = s->rx; m->specb = s->specb; m->spec = s->spec;
    m->idx = s->idx; m->opk = s->opk; m->opc = s->opc; m->upc = s->upc;
    m->cur = s->cur;
    memcpy(m->ustack, s->ustack, sizeof s->ustack);
    m->usp = s->usp;
    m->st.instructions = s->instructions;
    relatch(m);
}

/* UTABORT and UTRET: the architectural part. */
static void snap_restore_regs(struct vax_machine *m, const struct vm_snap *s)
{
    memcpy(&m->rf[RF_R], &s->rf[RF_R], 16 * sizeof(uint32_t));
    vm_memo_mode(m, m->psl, s->rf[RF_PSL]);
    m->psl = s->rf[RF_PSL];
    m->log_n = s->log_n;
    memcpy(m->log_reg, s->log_reg, s->log_n * sizeof s->log_reg[0]);
    memcpy(m->log_val, s->log_val, s->log_n * sizeof(uint32_t));
}

/* IRDIF's other side: NEXT, or with DISP=OPREG the OPREG table entry. */
static inline uint16_t irdif_else(const struct vax_machine *m, const struct uword *w)
{
    return (uint16_t)(w->next + (w->disp == UD_OPREG ? m->opreg[m->opk] : 0));
}

/* The sequencer's choice of the next micro-address (§3.5). */
static ALWAYS_INLINE uint16_t sequence(struct vax_machine *m, const struct uword *w,
                                unsigned fl, uint32_t psl0, uint32_t a, unsigned wd)
{
    uint16_t next = (uint16_t)(m->upc + 1);
    switch (w->seq) {
    case US_NEXT: break;
    case US_JUMP: next = w->next; break;
    case US_CALL: case US_BCALL: case US_DCALL:
        if (w->seq == US_BCALL && !cond(m, w->cond, fl, psl0, a, w))
            break;
        if (m->usp >= USTACK_DEPTH) {
            ucode_error(m, "micro-stack overflow");
            break;
        }
        m->ustack[m->usp++] = next;
        if (w->seq != US_DCALL) {
            next = w->next;
            break;
        }
        /* fall through: DCALL dispatches */
        /* FALLTHROUGH */
    case US_DISPATCH:
        switch (w->disp) {
        case UD_SPECMODE: next = spec_dispatch(m); break;
        case UD_ACC: next = disp_acc(m, w); break;
        case UD_DL: next = (uint16_t)(w->next + wd); break;
        case UD_A4: next = (uint16_t)(w->next + (a & 15)); break;
        case UD_A2: next = (uint16_t)(w->next + (a & 3)); break;
        case UD_A7: next = (uint16_t)(w->next + (a & 127)); break;
        case UD_OPREG: next = (uint16_t)(w->next + m->opreg[m->opk]); break;
        case UD_SPM: { /* SPAM: class A<15:12> not traced or off 0, ON 1, else 2 */
            uint32_t st = m->ipr[VM_SPAM_STAT];
            unsigned i = !(m->ipr[VM_SPAM_MASK] >> (a >> 12 & 15) & 1) ||
                                 !(st & (VM_SPAM_ST_ON | VM_SPAM_ST_FULL))
                             ? 0
                             : st & VM_SPAM_ST_ON ? 1 : 2;
            next = (uint16_t)(w->next + i);
            break;
        }
        default: next = w->next;
        }
        break;
    case US_RET:
        if (m->usp == 0) {
            ucode_error(m, "micro-stack underflow");
            break;
        }
        next = m->ustack[--m->usp];
        break;
    case US_BRANCH:
        if (cond(m, w->cond, fl, psl0, a, w))
            next = w->next;
        break;
    case US_IRD:
        next = ird(m, 1);
        break;
    case US_IRDIF:
        next = cond(m, w->cond, fl, psl0, a, w) ? ird(m, 1) : irdif_else(m, w);
        break;
    case US_SPECNEXT:
        next = spec_next(m);
        break;
    }
    return next;
}

/* READP/WRITEP address: MAR, or with the SPAM microorder SPXLATE MAR
 * through the cache-set swizzle (vm_spam_xlate) unless SPAM_STAT<9>
 * (NOXLATE) is set: a mux on the physical address path. */
static inline uint32_t spam_addr(const struct vax_machine *m, const struct uword *w)
{
    if (w->misc == UX_SPXLATE && !(m->ipr[VM_SPAM_STAT] & VM_SPAM_ST_NOXLATE))
        return vm_spam_xlate(m->mar);
    return m->mar;
}

/* An F-box function on this cycle's A and B buses (§12): the unit's time
 * beyond the word's own microcycle is a stall. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void fbox(struct vax_machine *m, unsigned fop, uint32_t a, uint32_t b)
{
    unsigned stall = vm_fbox_op(&m->fbox, fop, a, b);
    m->st.microcycles += stall;
    m->st.stall_cycles += stall;
}


/* The word's memory request (MEM field). */
static ALWAYS_INLINE void mem_request(struct vax_machine *m, const struct uword *w, unsigned wd)
{
    /* READ/WRITE/READP/WRITEP move at most 8 bytes (Q:MDR); octawords
     * move only between memory and the operand file (READOP, WRITEOP) */
    unsigned n = width_size[wd > 3 ? 3 : wd];
    uint64_t v;
    switch (w->mem) {
    case UM_NONE: break;
    case UM_READP:
        if (vm_mem_readp(m, spam_addr(m, w), n, &v) == 0) {
            m->mdr = (uint32_t)v;
            if (n == 8)
                m->q = (uint32_t)(v >> 32);
        }
        break;
    case UM_WRITEP:
        vm_mem_writep(m, spam_addr(m, w), n, mdr_q(m, n));
        break;
    case UM_READ: case UM_READB: case UM_READM: case UM_READMB:
        if (w->mem == UM_READB || w->mem == UM_READMB)
            n = 1;
        /* READM(B): a read with write intent (the write check of a
         * modify access, the M bit), as a modify operand's READOP */
        if (vm_read_tab(m, w->mem >= UM_READM ? m->memo.m : m->memo.r, m->mar, n,
                         &v) == 0) {
            m->mdr = (uint32_t)v;
            if (n == 8)
                m->q = (uint32_t)(v >> 32);
        }
        break;
    case UM_READOP: /* the operand's own width */
        /* a modify operand's read carries write intent (the protection
         * check and the M bit, as SIMH's READ with WA) */
        {
            unsigned sp = m->lat[LAT_SPEC];
            int wr = m->cur->acc[sp] == ACC_M;
            if (UNLIKELY(m->rf_size == 16)) { /* an octaword: OPV OPH OPX OPY */
                uint32_t o[4];
                if (vm_mem_read16(m, m->mar, wr, o) == 0) {
                    m->opv[sp] = o[0];
                    m->oph[sp] = o[1];
                    m->opx[sp] = o[2];
                    m->opy[sp] = o[3];
                }
                break;
            }
            if (vm_read_tab(m, wr ? m->memo.m : m->memo.r,
                             m->mar, m->rf_size, &v) == 0) {
                m->opv[sp] = (uint32_t)v;
                m->oph[sp] = (uint32_t)(v >> 32);
            }
        }
        break;
    case UM_WRITE: case UM_WRITEB:
        vm_write_fast(m, m->memo.w, m->mar, w->mem == UM_WRITEB ? 1 : n,
                      mdr_q(m, w->mem == UM_WRITEB ? 1 : n));
        break;
    case UM_WRITEOP: /* operand OPK's own width */
        if (UNLIKELY(m->wdl[UDL_OPK] == 4)) { /* an octaword: from OPV..OPY[OPK] */
            unsigned k = m->opk;
            const uint32_t o[4] = {m->opv[k], m->oph[k], m->opx[k], m->opy[k]};
            vm_mem_write16(m, m->opa[k], o);
            break;
        }
        vm_write_fast(m, m->memo.w, m->opa[m->opk], width_size[m->wdl[UDL_OPK]],
                      mdr_q(m, width_size[m->wdl[UDL_OPK]]));
        break;
    }
}

/* The abort state of a word that makes a translated reference is taken
 * lazily: before the word, only what its data path can change is noted
 * (its two destination registers, PSL, Q, PC -- an IB source -- and the
 * register-change log); only when it does microtrap is the full state
 * copied and those values put back.  The result is the state at the
 * start of the word, as the hardware's copy would hold. */
struct undo {
    uint32_t *d1, *d2;
    uint32_t v1, v2, psl, q, pc;
    uint32_t log_n;
};

/* The register a destination selector will write (NULL: none in the
 * abort state, e.g. the SPAM bank). */
static inline uint32_t *dst_cell(struct vax_machine *m, unsigned sel, unsigned kind,
                                 unsigned code)
{
    if (kind < PK_GPR)
        return &m->rf[sel + m->lat[kind]];
    switch (kind) {
    case PK_GPR: return &m->rf[sel];
    case PK_RN: return &m->r[m->rn];
    case PK_OPR: return &m->r[m->opa[m->opk] & 15];
    case PK_RES: return NULL; /* never in a translating word (uword_rule) */
    default:
        switch (code) {
        case UR_RN1: return &m->r[(m->rn + 1) & 15];
        case UR_RN2: return &m->r[(m->rn + 2) & 15];
        case UR_RN3: return &m->r[(m->rn + 3) & 15];
        case UR_RX: return &m->r[m->rx];
        case UR_OPR1: return &m->r[(m->opa[m->opk] + 1) & 15];
        case UR_OPR2: return &m->r[(m->opa[m->opk] + 2) & 15];
        case UR_OPR3: return &m->r[(m->opa[m->opk] + 3) & 15];
        default: return NULL; /* LSA/LSB never in such a word (uword_rule) */
        }
    }
}

static inline void undo_note(struct vax_machine *m, const struct vm_pword *pw,
                             struct undo *u)
{
    u->d1 = dst_cell(m, pw->sd, pw->kd, pw->u.dst);
    u->d2 = dst_cell(m, pw->sd2, pw->kd2, pw->u.d2);
    u->v1 = u->d1 ? *u->d1 : 0;
    u->v2 = u->d2 ? *u->d2 : 0;
    u->psl = m->psl;
    u->q = m->q;
    u->pc = m->r[15];
    u->log_n = m->log_n;
}

COLD static void snap_lazy(struct vax_machine *m, const struct undo *u)
{
    snap_save(m, &m->snap);
    m->snap.seq = 0;
    if (u->d2)
        m->snap.rf[u->d2 - m->rf] = u->v2;
    if (u->d1)
        m->snap.rf[u->d1 - m->rf] = u->v1;
    m->snap.rf[RF_PSL] = u->psl;
    m->snap.rf[RF_Q] = u->q;
    m->snap.rf[RF_R + 15] = u->pc;
    m->snap.log_n = u->log_n;
}

/* The sequencing phase of a word that fetches (IRD, SPECMODE): with
 * MAPEN the abort state is taken again just before it (§11), unless the
 * fetch of n bytes cannot microtrap (vm_istream_safe).  For IRD (ird = 1)
 * the previous instruction is complete: the abort state's register-change
 * log is empty, as IRD leaves it, so a fault on the next opcode or its
 * first specifier byte (a TNV on the next page) does not UNDO the previous
 * instruction's register writes or autoincrements. */
static inline int seq_abort_state(struct vax_machine *m, int mapen, unsigned n,
                                  unsigned fl, uint32_t psl0, uint32_t a, int ird)
{
    if (!mapen || vm_istream_safe(m, n))
        return 0;
    snap_save(m, &m->snap);
    if (ird)
        m->snap.log_n = 0;
    m->snap.seq = 1;
    m->snap.fl = fl;
    m->snap.psl0 = psl0;
    m->snap.a = a;
    return 1; /* taken */
}

/* The IRD point (§4): the sequencing of a word that ends an instruction,
 * after its data path, memory request and MISC.  With MAPEN the abort
 * state is taken just before the fetch unless it cannot microtrap; then
 * the engine above the sequencer (the trace cache) when there is one and
 * the loop lets it (use_engine: the loop's MAPEN is the machine's), else
 * the IRD hardware.  `step` 0 skips the instruction-step stop (a resumed
 * IRD point). */
static ALWAYS_INLINE int ird_point(struct vax_machine *m, uint64_t limit, int mapen,
                                   int use_engine, int step, unsigned fl, uint32_t psl0,
                                   uint32_t a, unsigned *upc)
{
    if (UNLIKELY(m->step_ird) && step) {
        vm_ird_pending(m, mapen, fl, psl0, a);
        return IRDP_RETURN;
    }
    int seqsnap = seq_abort_state(m, mapen, 3, fl, psl0, a, 1);
    if (use_engine && m->engine)
        return m->engine(m, limit, mapen, seqsnap, upc);
    uint16_t next = ird(m, 1);
    if (UNLIKELY(m->stop | m->utrap)) {
        if (m->stop)
            return IRDP_RETURN;
        if (mapen && !seqsnap) { /* vm_istream_safe was wrong: a defect */
            ucode_error(m, "internal: I-stream microtrap without abort state");
            return IRDP_RETURN;
        }
        m->utrap = 0;
        m->usp = 0;
        next = m->utrap_upc;
    }
    *upc = next & (UCS_SIZE - 1);
    return IRDP_CONT;
}

/* Leaves an IRD point pending (an instruction step ends there, or MAPEN
 * changed in the word that ends the instruction): run_loop resumes it
 * with the word's flags, PSL and A, and the MAPEN its abort state saw. */
void vm_ird_pending(struct vax_machine *m, int mapen, unsigned fl, uint32_t psl0,
                    uint32_t a)
{
    m->pend_ird = 1;
    m->pend_mapen = mapen;
    m->pend_fl = fl;
    m->pend_psl0 = psl0;
    m->pend_a = a;
    if (m->step_ird) {
        m->step_ird = 0;
        m->stepped = 1;
        m->stop = VM_CYCLE_LIMIT;
        snprintf(m->reason, sizeof m->reason, "instruction step");
    }
}

/* The microcycle loop.  `tracing` and `mapmode` (0 MAPEN off, 1 on, 2
 * read every cycle) are constants at each call site, so the compiler
 * builds one loop per case; a loop for a fixed MAPEN returns to vm_run
 * when an MTPR changes it.  With `si` (single) it executes one word and
 * describes it in *si, stopping before an IRD (vm_word_step: the trace
 * cache's generic handler and recorder); single 2 goes on while the
 * TB-miss flow is active (vm_flow_step). */
static ALWAYS_INLINE void run_loop(struct vax_machine *m, uint64_t limit, int tracing,
                            int mapmode, int single, struct vm_wstep *si)
{
    int remap = 0; /* MAPEN changed: back to vm_run for the other loop */
    /* upc lives in a host register: the next word's address depends on
     * this one, so that chain should not go through memory; m->upc is
     * kept up to date for everything that reads it */
    unsigned upc = m->upc;
    int use_engine = mapmode != 2; /* (not while micro-tracing) */
    if (single) {
        si->status = VM_WS_STOP;
        si->trapped = 0;
        si->remap = 0;
        si->utret = 0;
    } else if (UNLIKELY(m->pend_ird)) { /* an IRD point left pending */
        m->pend_ird = 0;
        /* (the engine only for the MAPEN this loop runs) */
        int rc = ird_point(m, limit, m->pend_mapen, use_engine && m->pend_mapen == (mapmode == 1),
                           0, m->pend_fl, m->pend_psl0, m->pend_a, &upc);
        if (rc == IRDP_RETURN)
            return;
        if (rc == IRDP_REMAP) {
            remap = 1;
            limit = 0;
        }
    }
/* the word is done: the next one, or back to the caller with one word */
#define NEXT_WORD()                                                       \
    if (single == 1 || (single == 2 && (!m->mm_active || remap))) {      \
        m->upc = (uint16_t)upc;                                           \
        si->status = VM_WS_NEXT;                                          \
        si->next = upc;                                                   \
        si->remap = remap;                                                \
        return;                                                           \
    } else                                                                \
        continue
    for (;;) {
        m->upc = (uint16_t)upc;
        if (UNLIKELY(m->st.microcycles >= limit)) {
            if (mapmode != 2 && remap)
                return; /* not the cycle limit: MAPEN changed */
            if (single) {
                si->status = VM_WS_LIMIT;
                return;
            }
            m->stop = VM_CYCLE_LIMIT;
            snprintf(m->reason, sizeof m->reason, "cycle limit");
            return;
        }
        const struct vm_pword *pw = &m->cs[upc];
        const struct uword *w = &pw->u;
        /* an unused word (valid = 0) has no data path, memory or MISC
         * function, and its pre-decoded SEQ, US__COUNT, stops below;
         * the micro-tracer must not see it first */
        if (tracing) {
            if (UNLIKELY(!w->valid)) {
                ucode_error(m, "unused micro-address executed");
                return;
            }
            m->utrace(m->utrace_ctx, m, (uint16_t)upc);
        }
        m->st.microcycles++;
        if (w->opk != UOPK_KEEP) {
            m->opk = w->opk;
            relatch_opk(m);
        }
        unsigned wd = m->wdl[w->dl];
        uint32_t psl0 = m->psl;
        unsigned pfl = pw->fl;
        int mapen = mapmode == 2 ? (int)(m->ipr[0x38] & 1) : mapmode;
        struct undo undo;
        int lazy = (pfl & PW_XLATE) && mapen;
        if (UNLIKELY(lazy))
            undo_note(m, pw, &undo);
        int seqsnap = 0; /* the abort state was taken for the sequencing */
        /* the data path: sources (in bus order: an IB source consumes the
         * I-stream), ALU, destinations */
        uint32_t a = 0;
        unsigned fl = 0;
        if (pfl & PW_DP) {
            m->rf_k = w->k;
            a = src(m, pw->sa, pw->ka, w->a, w, wd);
            uint32_t b = src(m, pw->sb, pw->kb, w->b, w, wd);
            uint32_t r;
            if (pfl & PW_S2) {
                uint32_t s2 = src(m, pw->ss, pw->ks, w->s2, w, wd); /* ALU, NONE: 0 */
                if (pfl & PW_FL)
                    r = alu(m, w->alu, a, b, wd, &fl);
                else
                    r = alu_nofl(m, w->alu, a, b, wd);
                dst(m, pw->sd, pw->kd, w->dst, r, wd);
                dst(m, pw->sd2, pw->kd2, w->d2, w->s2 == UR_ALU ? r : s2, wd);
            } else {
                if (pfl & PW_FL)
                    r = alu(m, w->alu, a, b, wd, &fl);
                else
                    r = alu_nofl(m, w->alu, a, b, wd);
                dst(m, pw->sd, pw->kd, w->dst, r, wd);
            }
            if ((pfl & PW_SLOWSRC) && UNLIKELY(m->stop | m->utrap)) {
                if (m->stop) /* a machine check during an I-stream read */
                    return;
                goto microtrap;
            }
            if (w->cc != UCC_NONE)
                set_cc(m, w->cc, fl, r);
            if (UNLIKELY(w->fop != UF_NONE))
                fbox(m, w->fop, a, b);
        }
        if (pfl & (PW_MEM | PW_MISC)) {
            if (pfl & PW_MEM) {
                mem_request(m, w, wd);
                if (UNLIKELY(m->stop | m->utrap)) {
                    if (m->stop)
                        return;
                    goto microtrap;
                }
            }
            if (pfl & PW_MISC)
            switch (w->misc) {
            case UX_NONE: break;
            case UX_LATCHRX: m->rx = m->rn; m->idx = 1; break;
            case UX_SETREG:
                m->opreg[m->lat[LAT_SPEC]] = 1;
                m->opa[m->lat[LAT_SPEC]] = m->rn;
                break;
            case UX_SETMEM: m->opreg[m->lat[LAT_SPEC]] = 0; break;
            case UX_STOP: do_stop(m, w->k); return;
            case UX_IPRRD: m->mdr = vm_ipr_read(m, m->mar); break;
            case UX_IPRWR:
                vm_ipr_write(m, m->mar, m->mdr);
                /* a loop for a fixed MAPEN leaves for the other one; the
                 * general loop (mapmode 2) reads MAPEN every cycle */
                if (mapmode != 2 && (int)(m->ipr[0x38] & 1) != mapen) {
                    remap = 1;
                    limit = 0; /* leave at the top of the next cycle */
                }
                break;
            case UX_CLRLOG: m->log_n = 0; break;
            case UX_UNDO: /* restore the logged registers, newest first */
                while (m->log_n) {
                    m->log_n--;
                    m->r[m->log_reg[m->log_n]] = m->log_val[m->log_n];
                }
                break;
            case UX_INTACK: vm_int_ack(m); break;
            case UX_EVCNT: m->scb_count[(a >> 2) & 127]++; break;
            case UX_TBWR: vm_tb_write(m, m->mar, m->mdr); break;
            case UX_UTABORT: /* a fault: the registers as at the start of the word */
                snap_restore_regs(m, &m->snap);
                m->psl = (m->psl & ~0xFu) | (m->fcc & 0xFu); /* CC as before the instruction */
                m->mm_active = 0;
                break;
            case UX_UTRET: { /* re-execute the trapped word (or its sequencing) */
                if (single)
                    si->utret = m->snap.seq ? 2 : 1;
                snap_restore_regs(m, &m->snap);
                snap_restore(m, &m->snap);
                m->mm_active = 0;
                upc = m->upc;
                if (!m->snap.seq) {
                    NEXT_WORD(); /* upc = the trapped word */
                }
                const struct uword *tw = &m->cs[m->upc].u;
                uint16_t nx = sequence(m, tw, m->snap.fl, m->snap.psl0, m->snap.a,
                                       dl_width(m, tw));
                if (m->stop)
                    return;
                if (m->utrap) {
                    lazy = 0; /* the restored abort state stands */
                    seqsnap = 1;
                    goto seqtrap;
                }
                upc = nx & (UCS_SIZE - 1);
                NEXT_WORD();
            }
            case UX_TRACEWR: /* SPAM: vm_spam.h; this word's cycle counted */
            case UX_TRACEHK:
                vm_spam_open(m, m->st.microcycles - 1, w->misc == UX_TRACEHK, upc);
                break;
            case UX_PRBOPEN: /* the probe window, in PRB.RETURN (§15) */
                vm_probe_open(m, m->st.microcycles - 1);
                break;
            case UX_INEXC: m->in_exc = 1; break; /* exception pushes: KSNV */
            default: break;
            }
            if (m->stop)
                return;
        }
        /* sequencing (§3.5) */
        uint16_t next;
        switch (w->seq) {
        case US_NEXT:
            upc = (upc + 1) & (UCS_SIZE - 1);
            NEXT_WORD();
        case US_JUMP:
            upc = w->next & (UCS_SIZE - 1);
            NEXT_WORD();
        case US_BRANCH:
            upc = (cond(m, w->cond, fl, psl0, a, w) ? w->next : upc + 1) &
                  (UCS_SIZE - 1);
            NEXT_WORD();
        case US_RET:
            if (m->usp == 0) {
                ucode_error(m, "micro-stack underflow");
                return;
            }
            upc = m->ustack[--m->usp] & (UCS_SIZE - 1);
            NEXT_WORD();
        case US_IRD: /* at most 3 bytes: opcode, FD opcode, specifier */
            goto ird_now;
        case US_IRDIF:
            if (!cond(m, w->cond, fl, psl0, a, w)) {
                upc = irdif_else(m, w) & (UCS_SIZE - 1);
                NEXT_WORD();
            }
            goto ird_now;
        case US_SPECNEXT:
            seqsnap = seq_abort_state(m, mapen, 1, fl, psl0, a, 0);
            next = spec_next(m);
            break;
        case US_DISPATCH:
            switch (w->disp) {
            case UD_SPECMODE:
                seqsnap = seq_abort_state(m, mapen, 1, fl, psl0, a, 0);
                next = spec_dispatch(m);
                break;
            case UD_OPREG: next = (uint16_t)(w->next + m->opreg[m->opk]); break;
            case UD_ACC:
                next = disp_acc(m, w);
                break;
            default: next = sequence(m, w, fl, psl0, a, wd);
            }
            break;
        case US_CALL: case US_BCALL: case US_DCALL:
            if (pfl & PW_SEQFETCH) /* DCALL SPECMODE: one byte */
                seqsnap = seq_abort_state(m, mapen, 1, fl, psl0, a, 0);
            next = sequence(m, w, fl, psl0, a, wd);
            break;
        case US__COUNT: /* an unused word (predecode) */
            m->st.microcycles--; /* it never ran */
            ucode_error(m, "unused micro-address executed");
            return;
        default:
            NOT_REACHED();
            next = 0;
        }
        if (UNLIKELY(m->stop | m->utrap)) {
            if (m->stop)
                return;
            goto seqtrap; /* an I-stream reference in IRD or SPECMODE */
        }
        upc = next & (UCS_SIZE - 1);
        NEXT_WORD();
    ird_now:
        if (single) { /* the caller does the IRD point */
            si->status = VM_WS_IRD;
            si->fl = fl;
            si->psl0 = psl0;
            si->a = a;
            si->remap = remap;
            return;
        } else {
            int rc = ird_point(m, limit, mapen, use_engine && !remap, 1, fl, psl0, a, &upc);
            if (rc == IRDP_RETURN)
                return;
            if (rc == IRDP_REMAP) {
                remap = 1;
                limit = 0;
            }
            continue;
        }
    seqtrap:
        if (mapen && !seqsnap) { /* vm_istream_safe was wrong: a defect */
            ucode_error(m, "internal: I-stream microtrap without abort state");
            return;
        }
        lazy = 0;
    microtrap:
        if (lazy)
            snap_lazy(m, &undo);
        /* The microword is abandoned at the failing reference: its memory
         * request, MISC and sequencing do not happen; the micro-stack is
         * emptied and the trap flow starts (§10). */
        m->utrap = 0;
        m->usp = 0;
        upc = m->utrap_upc;
        if (single)
            si->trapped = 1;
        NEXT_WORD();
    }
#undef NEXT_WORD
}

/* The loop for the machine's state: one per MAPEN state (the off one
 * carries no abort-state logic), and a general one for micro-tracing;
 * a loop for a fixed MAPEN returns when an MTPR changes it. */
void vm_interp_run(struct vax_machine *m, uint64_t limit)
{
    while (!m->stop) {
        if (m->utrace)
            run_loop(m, limit, 1, 2, 0, NULL);
        else if (m->ipr[0x38] & 1)
            run_loop(m, limit, 0, 1, 0, NULL);
        else
            run_loop(m, limit, 0, 0, 0, NULL);
    }
}

/* ---- the interpreter's parts for the layers above (vm_interp.h) ---- */

void vm_word_step(struct vax_machine *m, uint64_t limit, int mapen, struct vm_wstep *si)
{
    if (mapen)
        run_loop(m, limit, 0, 1, 1, si);
    else
        run_loop(m, limit, 0, 0, 1, si);
}

void vm_flow_step(struct vax_machine *m, uint64_t limit, struct vm_wstep *si)
{
    run_loop(m, limit, 0, 1, 2, si);
}

int vm_seq_abort_state(struct vax_machine *m, int mapen, unsigned n, unsigned fl,
                       uint32_t psl0, uint32_t a, int ird)
{
    return seq_abort_state(m, mapen, n, fl, psl0, a, ird);
}
int vm_cond(const struct vax_machine *m, unsigned c, unsigned fl, uint32_t psl,
            uint32_t a, const struct uword *w)
{
    return cond(m, c, fl, psl, a, w);
}
void vm_ucode_error(struct vax_machine *m, const char *what) { ucode_error(m, what); }

unsigned vm_seq_resolve(struct vax_machine *m, const struct uword *w, unsigned fl,
                        uint32_t psl0, uint32_t a, unsigned wd)
{
    if (w->seq == US_IRDIF)
        return cond(m, w->cond, fl, psl0, a, w) ? VM_SEQ_IRD : irdif_else(m, w);
    return sequence(m, w, fl, psl0, a, wd);
}
