/* The control store (vm_cstore.h): loading the microprogram pre-decodes
 * every word -- its bus selectors resolved to the register file and a
 * latch offset, and the facts the sequencer would otherwise work out from
 * its fields every microcycle (does it use its data path, its flags, a
 * memory request, MISC, may it translate, does its sequencing fetch).
 * Nothing here changes what a word does. */
#include "vax/machine/vm_cstore.h"
#include "vax/machine/vm_internal.h"

static inline int may_translate(const struct uword *w)
{
    return (w->mem != UM_NONE && w->mem != UM_READP && w->mem != UM_WRITEP) ||
           w->a == UR_IB || w->b == UR_IB || w->s2 == UR_IB;
}

static inline int seq_fetches(const struct uword *w)
{
    return w->seq == US_IRD || w->seq == US_IRDIF || w->seq == US_SPECNEXT ||
           ((w->seq == US_DISPATCH || w->seq == US_DCALL) && w->disp == UD_SPECMODE);
}

/* The selectors that name a register-file cell the same way as source
 * and as destination: 1 and its index and latch kind, else 0. */
static int map_cell(unsigned code, unsigned *s, unsigned *k)
{
    *k = LAT_0;
    if (code <= UR_T15)
        *s = RF_T + (code - UR_T0);
    else if (code <= UR_R15)
        *s = RF_R + (code - UR_R0);
    else if (code >= UR_OPV0 && code <= UR_OPV5)
        *s = RF_OPV + (code - UR_OPV0);
    else if (code >= UR_OPH0 && code <= UR_OPH5)
        *s = RF_OPH + (code - UR_OPH0);
    else if (code >= UR_OPA0 && code <= UR_OPA5)
        *s = RF_OPA + (code - UR_OPA0);
    else
        switch (code) {
        case UR_OPX: *s = RF_OPX; *k = LAT_SPEC; break;
        case UR_OPY: *s = RF_OPY; *k = LAT_SPEC; break;
        case UR_OPXK: *s = RF_OPX; *k = LAT_OPK; break;
        case UR_OPYK: *s = RF_OPY; *k = LAT_OPK; break;
        case UR_LA: *s = RF_LA; break;
        case UR_LB: *s = RF_LB; break;
        case UR_MAR: *s = RF_MAR; break;
        case UR_MDR: *s = RF_MDR; break;
        case UR_Q: *s = RF_Q; break;
        case UR_SC: *s = RF_SC; break;
        case UR_OPV: *s = RF_OPV; *k = LAT_SPEC; break;
        case UR_OPH: *s = RF_OPH; *k = LAT_SPEC; break;
        case UR_OPA: *s = RF_OPA; *k = LAT_SPEC; break;
        case UR_OPVK: *s = RF_OPV; *k = LAT_OPK; break;
        case UR_OPHK: *s = RF_OPH; *k = LAT_OPK; break;
        case UR_OPAK: *s = RF_OPA; *k = LAT_OPK; break;
        default: return 0;
        }
    return 1;
}

/* A source selector as a register-file index and latch kind (vm_pword). */
static void map_src(unsigned code, uint8_t *sel, uint8_t *kind)
{
    unsigned s = RF_ZERO, k = LAT_0;
    if (!map_cell(code, &s, &k))
        switch (code) {
        case UR_NONE: case UR_ZERO: case UR_ALU: s = RF_ZERO; break;
        case UR_RN: s = RF_R; k = LAT_RN; break;
        case UR_RN1: s = RF_R; k = LAT_RN1; break;
        case UR_PSL: s = RF_PSL; break;
        case UR_ICNT: s = RF_ICNT; break;
        case UR_K: s = RF_K; break;
        case UR_LIT: s = RF_LIT; break;
        case UR_SIZE: s = RF_SIZE; break;
        case UR_OPVL: s = RF_OPV; k = LAT_LAST; break;
        case UR_IB: s = code; k = PK_IB; break;
        default: s = code; k = PK_SLOW; /* IPR, RX, OPR, ... */
        }
    *sel = (uint8_t)s;
    *kind = (uint8_t)k;
}

/* A destination selector; the codes that name no writable register
 * (ZERO, K, ...) write nowhere, as in dst_slow. */
static void map_dst(unsigned code, uint8_t *sel, uint8_t *kind)
{
    unsigned s = RF_SINK, k = LAT_0;
    if (map_cell(code, &s, &k)) {
        if (code >= UR_R0 && code <= UR_R15)
            k = PK_GPR;
    } else {
        switch (code) {
        case UR_RN: s = RF_R; k = PK_RN; break;
        case UR_OPR: s = RF_R; k = PK_OPR; break;
        case UR_RES: s = RF_MDR; k = PK_RES; break;
        case UR_PSL: /* a mode change: dst_slow */
        case UR_RN1: case UR_RX: case UR_OPR1:
        case UR_RN2: case UR_RN3: case UR_OPR2: case UR_OPR3:
        case UR_LSA: case UR_LSB:
            s = code; k = PK_SLOW; break;
        default:
            s = RF_SINK;
            if (code >= UR_SPSTRT && code <= UR_SPSIZE) { /* SPAM bank */
                s = code;
                k = PK_SLOW;
            }
        }
    }
    *sel = (uint8_t)s;
    *kind = (uint8_t)k;
}

/* Conditions that read the word's own ALU flags. */
static int cond_reads_flags(unsigned c)
{
    return (c >= UC_ALU_Z && c <= UC_ALU_CZ) || c == UC_OPREG_NOVT;
}

/* Does the word use its data path?  Not when no result goes anywhere,
 * no condition codes change, no source or ALU function has a side effect
 * and neither the sequencer nor MISC looks at the ALU flags or A. */
static int uses_data_path(const struct uword *w, const struct vm_pword *p)
{
    unsigned c = w->cond & ~UC_NOT;
    int cond_seq = w->seq == US_BRANCH || w->seq == US_BCALL || w->seq == US_IRDIF;
    int disp_seq = w->seq == US_DISPATCH || w->seq == US_DCALL;
    return w->dst != UR_NONE || w->d2 != UR_NONE || w->cc != UCC_NONE ||
           PK_SPECIAL(p->ka) || PK_SPECIAL(p->kb) || PK_SPECIAL(p->ks) ||
           w->alu == UA_MUL || w->alu == UA_MULU || w->alu == UA_DIV ||
           w->alu == UA_SHLQ || w->alu == UA_SHRQ || w->alu == UA_ASHQ ||
           (cond_seq && (cond_reads_flags(c) || c == UC_A_B0 || c == UC_A_B31 ||
                         c == UC_A_Z || c == UC_A_B15)) ||
           (disp_seq && (w->disp == UD_A4 || w->disp == UD_A2 || w->disp == UD_SPM ||
                         w->disp == UD_A7)) ||
           w->misc == UX_EVCNT || w->fop != UF_NONE;
}

/* Does anything look at the word's ALU flags (CC, a condition -- also
 * when UTRET re-executes an IRDIF from the abort state, which keeps them)? */
static int uses_flags(const struct uword *w)
{
    unsigned c = w->cond & ~UC_NOT;
    return w->cc != UCC_NONE ||
           ((w->seq == US_BRANCH || w->seq == US_BCALL || w->seq == US_IRDIF) &&
            cond_reads_flags(c));
}

void vm_cstore_load(struct vax_machine *m, const struct uword *words)
{
    for (unsigned i = 0; i < UCS_SIZE; i++) {
        struct vm_pword *p = &m->cs[i];
        p->u = words[i];
        const struct uword *w = &p->u;
        p->fl = (uint8_t)((may_translate(w) ? PW_XLATE : 0) |
                          (seq_fetches(w) ? PW_SEQFETCH : 0) |
                          (w->mem != UM_NONE ? PW_MEM : 0) |
                          (w->misc != UX_NONE ? PW_MISC : 0));
        if (!w->valid) /* the sequencer's switch stops on it (run_loop) */
            p->u.seq = US__COUNT;
        map_src(w->a, &p->sa, &p->ka);
        map_src(w->b, &p->sb, &p->kb);
        map_src(w->s2, &p->ss, &p->ks);
        map_dst(w->dst, &p->sd, &p->kd);
        map_dst(w->d2, &p->sd2, &p->kd2);
        if (uses_data_path(w, p))
            p->fl |= PW_DP;
        if (w->d2 != UR_NONE || PK_SPECIAL(p->ks))
            p->fl |= PW_S2;
        if (PK_SPECIAL(p->ka) || PK_SPECIAL(p->kb) || PK_SPECIAL(p->ks))
            p->fl |= PW_SLOWSRC;
        if (uses_flags(w))
            p->fl |= PW_FL;
    }
}
