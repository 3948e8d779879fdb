/* Microword name tables and the 128-bit image packing (see uword.h). */
#include "uword.h"

#include <string.h>

#define NAME_ITEM(n) #n,
const char *const uw_reg_names[UR__COUNT] = {UW_REGS(NAME_ITEM)};
const char *const uw_alu_names[UA__COUNT] = {UW_ALUS(NAME_ITEM)};
const char *const uw_dl_names[UDL__COUNT] = {UW_DLS(NAME_ITEM)};
const char *const uw_cc_names[UCC__COUNT] = {UW_CCS(NAME_ITEM)};
const char *const uw_mem_names[UM__COUNT] = {UW_MEMS(NAME_ITEM)};
const char *const uw_seq_names[US__COUNT] = {UW_SEQS(NAME_ITEM)};
const char *const uw_cond_names[UC__COUNT] = {UW_CONDS(NAME_ITEM)};
const char *const uw_disp_names[UD__COUNT] = {UW_DISPS(NAME_ITEM)};
const char *const uw_misc_names[UX__COUNT] = {UW_MISCS(NAME_ITEM)};
const char *const uw_fop_names[UF__COUNT] = {UW_FOPS(NAME_ITEM)};
#undef NAME_ITEM
#define STOP_NAME(n, s) #n,
const char *const uw_stop_names[USTOP__COUNT] = {UW_STOPS(STOP_NAME)};
#undef STOP_NAME
#define STOP_REASON(n, s) s,
const char *const uw_stop_reasons[USTOP__COUNT] = {UW_STOPS(STOP_REASON)};
#undef STOP_REASON

struct uword uword_default(void)
{
    struct uword w;
    memset(&w, 0, sizeof w);
    w.a = w.b = w.s2 = w.dst = w.d2 = UR_NONE;
    w.alu = UA_PASSA;
    w.dl = UDL_L;
    w.cc = UCC_NONE;
    w.mem = UM_NONE;
    w.seq = US_NEXT;
    w.cond = UC_TRUE;
    w.disp = UD_NONE;
    w.misc = UX_NONE;
    w.fop = UF_NONE;
    w.opk = UOPK_KEEP;
    w.valid = 1;
    return w;
}

const char *uword_rule(const struct uword *w)
{
    if (w->a == UR_RES || w->b == UR_RES || w->s2 == UR_RES || w->d2 == UR_RES)
        return "RES is a destination of the ALU bus (DST) only";
    /* RES may write a general register: a word that can microtrap would
     * need both it and MDR in its abort state, so it has no reference */
    if (w->dst == UR_RES && (w->mem != UM_NONE || w->a == UR_IB || w->b == UR_IB))
        return "RES in a word with a memory request or an IB source";
    if (w->seq == US_IRDIF && w->disp != UD_NONE && w->disp != UD_OPREG)
        return "IRD IF ... ELSE DISPATCH: only the OPREG dispatch";
    /* the scratchpad and the F-box keep no abort state (§10): a word that
     * can microtrap and be re-executed must not change them */
    int traps = (w->mem != UM_NONE && w->mem != UM_READP && w->mem != UM_WRITEP) ||
                w->a == UR_IB || w->b == UR_IB || w->s2 == UR_IB;
    if (traps && (w->dst == UR_LSA || w->dst == UR_LSB || w->d2 == UR_LSA ||
                  w->d2 == UR_LSB))
        return "a scratchpad write in a word with a virtual memory request or an IB source";
    if (traps && w->fop != UF_NONE)
        return "an F-box function in a word with a virtual memory request or an IB source";
    return NULL;
}

/* Field layout in the 128-bit word: {offset, width}; every bit is used. */
enum { F_VALID, F_A, F_B, F_S2, F_DST, F_D2, F_ALU, F_DL, F_CC, F_MEM, F_OPK,
       F_SEQ, F_COND, F_DISP, F_MISC, F_NEXT, F_K, F_FOP, F__N };
static const struct { unsigned off, width; } layout[F__N] = {
    {0, 1}, {1, 7}, {8, 7}, {15, 7}, {22, 7}, {29, 7}, {36, 6}, {42, 3},
    {45, 4}, {49, 4}, {53, 3}, {56, 4}, {60, 7}, {67, 4}, {71, 5}, {76, 14},
    {90, 32}, {122, 6},
};

static void put(uint8_t *b, unsigned off, unsigned width, uint32_t v)
{
    for (unsigned i = 0; i < width; i++)
        if (v >> i & 1)
            b[(off + i) / 8] |= (uint8_t)(1u << ((off + i) % 8));
}

static uint32_t get(const uint8_t *b, unsigned off, unsigned width)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < width; i++)
        if (b[(off + i) / 8] >> ((off + i) % 8) & 1)
            v |= 1u << i;
    return v;
}

void uword_pack(const struct uword *w, uint8_t out[16])
{
    const uint32_t v[F__N] = {w->valid, w->a, w->b, w->s2, w->dst, w->d2,
                              w->alu, w->dl, w->cc, w->mem, w->opk, w->seq,
                              w->cond, w->disp, w->misc, w->next, w->k,
                              w->fop};
    memset(out, 0, 16);
    for (int f = 0; f < F__N; f++)
        put(out, layout[f].off, layout[f].width, v[f]);
}

int uword_unpack(const uint8_t in[16], struct uword *w)
{
    uint32_t v[F__N];
    for (int f = 0; f < F__N; f++)
        v[f] = get(in, layout[f].off, layout[f].width);
    w->valid = (uint8_t)v[F_VALID];
    w->a = (uint8_t)v[F_A];
    w->b = (uint8_t)v[F_B];
    w->s2 = (uint8_t)v[F_S2];
    w->dst = (uint8_t)v[F_DST];
    w->d2 = (uint8_t)v[F_D2];
    w->alu = (uint8_t)v[F_ALU];
    w->dl = (uint8_t)v[F_DL];
    w->cc = (uint8_t)v[F_CC];
    w->mem = (uint8_t)v[F_MEM];
    w->opk = (uint8_t)v[F_OPK];
    w->seq = (uint8_t)v[F_SEQ];
    w->cond = (uint8_t)v[F_COND];
    w->disp = (uint8_t)v[F_DISP];
    w->misc = (uint8_t)v[F_MISC];
    w->next = (uint16_t)v[F_NEXT];
    w->k = v[F_K];
    w->fop = (uint8_t)v[F_FOP];
    if (!w->valid) {
        *w = uword_default();
        w->valid = 0;
        return 0;
    }
    if (w->a >= UR__COUNT || w->b >= UR__COUNT || w->s2 >= UR__COUNT ||
        w->dst >= UR__COUNT || w->d2 >= UR__COUNT || w->alu >= UA__COUNT ||
        w->dl >= UDL__COUNT || w->cc >= UCC__COUNT || w->mem >= UM__COUNT ||
        (w->opk > 5 && w->opk != UOPK_KEEP) || w->seq >= US__COUNT ||
        (w->cond & ~UC_NOT) >= UC__COUNT || w->disp >= UD__COUNT ||
        w->misc >= UX__COUNT || w->fop >= UF__COUNT)
        return -1;
    return uword_rule(w) ? -1 : 0;
}
