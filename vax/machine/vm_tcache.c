/* The trace cache's store and its builder (vm_tcache.h): the hash of
 * root traces by physical address, the arena that holds every segment,
 * the recorder that runs words through the interpreter and notes the
 * latches around each, and the builder that turns a recorded path into
 * micro-operations with everything the path fixes resolved. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "vax/machine/vm_hostmem.h"
#include "vax/machine/vm_tcache.h"
#include "vax/machine/vm_tcache_x64.h"
#include "vax/machine/vm_tcache_exec.h"

_Static_assert(sizeof(struct tc_uop) <= 40, "a uop is 40 bytes (x86-64)");

#define TC_HASH0 4096u

struct tc_chunk {
    struct tc_chunk *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
};
/* a chunk's bytes: with its header, one host huge page (vm_hostmem.h) */
#define TC_CHUNK (VM_HOSTMEM_ALIGN - sizeof(struct tc_chunk))

/* The empty trace points at itself: no chaining pointer into the arena
 * outlives a flush. */
static void tc_nil_reset(struct vm_tcache *tc)
{
    tc->nil.pa = TC_NOPA;
    tc->nil.fhp = NULL;
    tc->nil.succ = tc->nil.succ2 = &tc->nil;
    tc->last = &tc->nil;
}

/* cap: the bytes the traces may hold before the whole cache is emptied
 * at the next IRD point (then re-recorded as the program runs on). */
struct vm_tcache *vm_tc_new(size_t cap, unsigned after, int native)
{
    struct vm_tcache *tc = calloc(1, sizeof *tc);
    if (!tc)
        return NULL;
    tc->hash = calloc(TC_HASH0, sizeof *tc->hash);
    tc->rec = malloc(sizeof *tc->rec);
    if (!tc->hash || !tc->rec) {
        vm_tc_free(tc);
        return NULL;
    }
#if TCX_ON
    if (native && !(tc->x = vm_tcx_new())) {
        vm_tc_free(tc);
        return NULL;
    }
#else
    (void)native;
#endif
    tc->hmask = TC_HASH0 - 1;
    tc->cap = cap;
    tc->after = after;
    tc_nil_reset(tc);
    return tc;
}

static void free_chunks(struct vm_tcache *tc)
{
    while (tc->chunks) {
        struct tc_chunk *c = tc->chunks;
        tc->chunks = c->next;
        vm_hostmem_free(c, sizeof *c + c->size);
    }
    tc->used = 0;
}

void vm_tc_free(struct vm_tcache *tc)
{
    if (!tc)
        return;
    free_chunks(tc);
#if TCX_ON
    vm_tcx_free(tc->x);
#endif
    free(tc->hash);
    free(tc->rec);
    free(tc->bs);
    free(tc);
}

/* Empties the cache (between instructions only: nothing may point into
 * the arena afterwards). */
void vm_tc_flush(struct vm_tcache *tc)
{
    free_chunks(tc);
#if TCX_ON
    vm_tcx_reset(tc->x); /* (their code goes with them) */
#endif
    memset(tc->hash, 0, (tc->hmask + 1) * sizeof *tc->hash);
    tc->count = 0;
    tc_nil_reset(tc);
    tc->flush_pending = 0;
    tc->st.flushes++;
    tc->st.traces = 0;
    tc->st.bytes = 0;
}

void *vm_tc_alloc(struct vm_tcache *tc, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    struct tc_chunk *c = tc->chunks;
    if (!c || c->size - c->used < n) {
        size_t size = n > TC_CHUNK ? n : TC_CHUNK;
        c = vm_hostmem_alloc(sizeof *c + size);
        if (!c)
            return NULL;
        c->size = size;
        c->used = 0;
        c->next = tc->chunks;
        tc->chunks = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    tc->used += n;
    if (tc->used > tc->cap)
        tc->flush_pending = 1;
    return p;
}

static inline uint32_t hash_pa(const struct vm_tcache *tc, uint32_t pa)
{
    return (pa * 0x9E3779B1u >> 12) & tc->hmask;
}

/* The root at physical address pa (whatever its opcode), or NULL. */
struct tc_trace *vm_tc_find(struct vm_tcache *tc, uint32_t pa)
{
    struct tc_trace *t = tc->hash[hash_pa(tc, pa)];
    while (t && t->pa != pa)
        t = t->hnext;
    return t;
}

struct tc_trace *vm_tc_guess(struct vm_tcache *tc, struct tc_trace *last, uint32_t pa,
                             unsigned op)
{
    struct tc_trace *t = last->succ2;
    if (t->pa != pa || t->opc != op) {
        t = vm_tc_find(tc, pa);
        if (!t || t->opc != op)
            return t;
    }
    last->succ2 = last->succ;
    last->succ = t;
    return t;
}

static void tc_grow(struct vm_tcache *tc)
{
    uint32_t n = (tc->hmask + 1) * 2;
    struct tc_trace **h = calloc(n, sizeof *h);
    if (!h)
        return; /* keep the smaller table: only slower */
    struct tc_trace **old = tc->hash;
    uint32_t on = tc->hmask + 1;
    tc->hash = h;
    tc->hmask = n - 1;
    for (uint32_t i = 0; i < on; i++)
        for (struct tc_trace *t = old[i], *nx; t; t = nx) {
            nx = t->hnext;
            uint32_t b = hash_pa(tc, t->pa);
            t->hnext = h[b];
            h[b] = t;
        }
    free(old);
}

static void tc_insert(struct vm_tcache *tc, struct tc_trace *t)
{
    uint32_t pa = t->pa;
    struct tc_trace *old = vm_tc_find(tc, pa);
    if (old)
        vm_tc_drop(tc, old);
    /* (at most one root for every two buckets: a lookup walks about 1.25
     * roots, each a miss of the host's cache where the executor's
     * prediction failed; at two a bucket, the first bound, vm_tc_find
     * was 4% of the boot to login:'s host time for 0.03% of its
     * instructions) */
    if (tc->count >= (tc->hmask + 1) / 2)
        tc_grow(tc);
    uint32_t b = hash_pa(tc, pa);
    t->hnext = tc->hash[b];
    tc->hash[b] = t;
    tc->count++;
}

/* A segment of `body` bytes after its header, from the arena: the header
 * (struct tc_trace) zeroed, its predictions the cache's nil trace, its
 * uops where the header's bytes end (tc_uops); the header's hot line and
 * the first uop's line one aligned pair of host cache lines (128 bytes:
 * the header starts 64 bytes into one); NULL where there is no room. */
static struct tc_trace *seg_alloc(struct vm_tcache *tc, size_t body)
{
    unsigned char *p = vm_tc_alloc(tc, 128 + TC_SEG_HEAD + body);
    if (!p)
        return NULL;
    p += (64 - ((uintptr_t)p & 127)) & 127;
    struct tc_trace *t = (struct tc_trace *)(void *)p;
    memset(t, 0, sizeof *t);
    t->succ = t->succ2 = &tc->nil;
    return t;
}

/* What of latch image fin outlives IRD (tc_trace.finm) */
static uint8_t fin_mask(const struct tc_latch *fin)
{
    return (uint8_t)(fin ? (fin->rn_def ? 1 : 0) | (fin->rx_def ? 2 : 0) : 0);
}

struct tc_trace *vm_tc_ird_side(struct vm_tcache *tc, const struct tc_word *w)
{
    struct tc_trace *t =
        seg_alloc(tc, sizeof(struct tc_uop) + sizeof(struct tc_word) + sizeof(uint16_t));
    if (!t)
        return NULL;
    t->words = (struct tc_word *)(void *)(tc_uops(t) + 1);
    t->words[0] = *w;
    t->words[0].side = NULL;
    t->words[0].nside = 0;
    t->words[0].after = tc_uops(t);
    struct tc_uop *u = tc_uops(t);
    memset(u, 0, sizeof *u);
    u->op = TU_END;
    u->p1 = (uint32_t *)(void *)t; /* (k, k2: the counts, synced at the guard) */
    u->wo = (int32_t)((char *)t->words - (char *)u);
    const void *const *hs = vm_tc_handlers();
    u->h = hs ? hs[TU_END] : NULL;
    if (tc->x) { /* (the compiler may take it: its entries are counted) */
        t->op0 = (uint16_t *)(void *)(t->words + 1);
        t->op0[0] = TU_END;
        t->xhot = TCX_HOT;
#if TCX_ON
        if (hs)
            u->h = hs[TU_H_COUNT];
#endif
    }
    t->nuops = 1;
    t->nwords = 1;
    t->bound = 1;
    t->fin = w->seq;
    t->finm = fin_mask(t->fin);
    t->pa = TC_NOPA;
    t->opc = 0xFFFF;
    t->smask = 3;
    tc->st.traces++;
    tc->st.bytes = tc->used;
    return t;
}

/* Unlinks a root (its memory stays until the next flush: chaining
 * pointers may still name it, and its address, TC_NOPA now, matches no
 * lookup). */
void vm_tc_drop(struct vm_tcache *tc, struct tc_trace *t)
{
    if (t->pa == TC_NOPA)
        return;
    struct tc_trace **pp = &tc->hash[hash_pa(tc, t->pa)];
    while (*pp && *pp != t)
        pp = &(*pp)->hnext;
    if (*pp) {
        *pp = t->hnext;
        tc->count--;
    }
    t->pa = TC_NOPA;
    t->fhp = NULL;
    t->dead = 1;
}

void vm_tc_latch_get(const struct vax_machine *m, struct tc_latch *l, int rn_def,
                     int rx_def)
{
    memset(l, 0, sizeof *l); /* padding too: images are compared whole */
    l->cur = m->cur;
    l->lat_spec = m->lat[LAT_SPEC];
    l->lat_opk = m->lat[LAT_OPK];
    l->lat_last = m->lat[LAT_LAST];
    l->wdl_cur = m->wdl[UDL_CUR];
    l->wdl_opk = m->wdl[UDL_OPK];
    l->rf_size = m->rf_size;
    l->spec = m->spec;
    l->idx = m->idx;
    l->opk = m->opk;
    l->opc = m->opc;
    l->rn_def = (uint8_t)rn_def;
    l->rx_def = (uint8_t)rx_def;
    if (rn_def) {
        l->rn = m->rn;
        l->specb = m->specb;
        l->rf_lit = m->rf_lit;
    }
    if (rx_def)
        l->rx = m->rx;
}

void vm_tcache_stats(const struct vax_machine *m, struct vm_tcache_stats *s)
{
    memset(s, 0, sizeof *s);
    if (m->tc) {
        *s = m->tc->st;
        s->lookups += s->hits; /* (lookups counts the misses) */
        s->bytes = m->tc->used;
#if TCX_ON
        vm_tcx_stats(m->tc->x, &s->compiled, &s->code_bytes, &s->compile_ns);
#endif
    }
}

/* ---- the builder ---- */

/* A uop under construction: its pointers may still name a constant of
 * the trace (c1, c2), a latch image (img2) or a uop (target). */
struct tb_uop {
    struct tc_uop u;
    int wi;               /* its word, or -1 */
    int c1, c2, img2;     /* -1: none */
    int target;           /* LOOP: the uop it jumps to ... */
    int tword;            /* ... and the word there (p2) */
    int seg;              /* END, SPEC: p1 names the segment */
    int ioff;             /* SPEC, IB: the I-stream offset from the opcode (-1: not known) */
};
struct tb_word {
    struct tc_word w;
    int pre, mid, seq;    /* image indices */
    int uop0;             /* its first uop (after a loop head's SYNC) */
    int region;           /* the first uop emitted for it (a loop head's SYNC) */
};
#define TB_MAX_UOPS (TC_MAX_WORDS * 16 + 8)
#define TB_MAX_CONSTS (TC_MAX_WORDS * 4 + 8)
#define TB_MAX_IMGS (TC_MAX_WORDS * 3 + 8)
struct tc_build {
    struct tb_uop u[TB_MAX_UOPS];
    int nu;
    uint16_t op0[TB_MAX_UOPS]; /* the codes before fusing */
    uint32_t c[TB_MAX_CONSTS];
    int nc;
    struct tc_latch img[TB_MAX_IMGS];
    int ni;
    struct tb_word w[TC_MAX_WORDS];
    int count;            /* words since the last sync point */
    int rcount;           /* ... and their memo hits */
    int probes;           /* the probe unit exists (m->prb): SPEV and FRMW
                           * are its business, the words generic; without
                           * it SPEV is SPON and FRMW false */
    int iline;            /* iscan: the first SPEC or IB in the next cache
                           * line (-1: none), SPECL or IBL once built */
};

static struct tb_uop *emit(struct tc_build *b, unsigned op, int wi)
{
    struct tb_uop *t = &b->u[b->nu++];
    memset(t, 0, sizeof *t);
    t->u.op = (uint16_t)op;
    t->wi = wi;
    t->c1 = t->c2 = t->img2 = t->target = t->tword = t->ioff = -1;
    return t;
}

/* The memo check (op: MCK_R, MCK_S, or MCK_P of the address in cell
 * addr) of the reference mop of n bytes through memo; a write's check
 * marks the line dirty (y). */
static void emit_mck(struct tc_build *b, unsigned op, int wi, uint32_t *addr,
                     struct vm_memo *memo, unsigned n, unsigned mop)
{
    struct tb_uop *c = emit(b, op, wi);
    if (op == TU_MCK_P)
        c->u.p1 = addr;
    c->u.p2 = (uint32_t *)(void *)memo;
    c->u.x = (uint8_t)n;
    c->u.y = mop == TU_WR || mop == TU_WROP;
}

static int add_const(struct tc_build *b, uint32_t v)
{
    for (int i = 0; i < b->nc; i++)
        if (b->c[i] == v)
            return i;
    b->c[b->nc] = v;
    return b->nc++;
}

static int add_img(struct tc_build *b, const struct tc_latch *l)
{
    if (b->ni && !memcmp(&b->img[b->ni - 1], l, sizeof *l))
        return b->ni - 1;
    b->img[b->ni] = *l;
    return b->ni++;
}

/* An operand of the data path: a cell of the machine, a constant, or a
 * value a prep uop computes into m->tc_tmp[slot]. */
enum { OPD_BAD, OPD_CELL, OPD_CONST, OPD_PREP };
struct opd {
    int kind;
    uint32_t *cell;
    uint32_t val;
    unsigned prep, px, pk; /* OPD_PREP: uop, its x and k */
    uint32_t *pcell;       /* ... and p1 */
};

/* The latch-dependent selectors resolved for one word (mirrors src() and
 * src_slow() in vm_interp.c; anything not known here makes the word generic). */
static struct opd src_opd(struct vax_machine *m, const struct uword *w, unsigned code,
                          unsigned sel, unsigned kind, const struct tc_latch *l,
                          unsigned wd)
{
    struct opd o = {.kind = OPD_CELL};
    if (kind < PK_GPR) {
        if ((kind == LAT_RN || kind == LAT_RN1) && !l->rn_def)
            return (struct opd){.kind = OPD_BAD};
        unsigned off = kind == LAT_0 ? 0 : kind == LAT_SPEC ? l->lat_spec
                     : kind == LAT_OPK ? l->lat_opk : kind == LAT_RN ? l->rn
                     : kind == LAT_LAST ? l->lat_last : (l->rn + 1u) & 15;
        unsigned c = sel + off;
        /* cells the trace keeps as constants (the latches) */
        if (c == RF_K)
            return (struct opd){.kind = OPD_CONST, .val = w->k};
        if (c == RF_ZERO)
            return (struct opd){.kind = OPD_CONST, .val = 0};
        if (c == RF_SIZE)
            return (struct opd){.kind = OPD_CONST, .val = l->rf_size};
        if (c == RF_LIT) {
            if (!l->rn_def)
                return (struct opd){.kind = OPD_CELL, .cell = &m->rf[RF_LIT]};
            return (struct opd){.kind = OPD_CONST, .val = l->rf_lit};
        }
        if (c >= RF_N)
            return (struct opd){.kind = OPD_BAD};
        o.cell = &m->rf[c];
        return o;
    }
    if (kind == PK_IB) {
        unsigned n = width_size[wd] > 4 ? 4 : width_size[wd];
        return (struct opd){.kind = OPD_PREP, .prep = TU_IB, .px = n};
    }
    switch (code) {
    case UR_RX:
        if (!l->rx_def)
            return (struct opd){.kind = OPD_BAD};
        o.cell = &m->r[l->rx & 15];
        return o;
    case UR_RN2: case UR_RN3:
        if (!l->rn_def)
            return (struct opd){.kind = OPD_BAD};
        o.cell = &m->r[(l->rn + (code == UR_RN2 ? 2u : 3u)) & 15];
        return o;
    case UR_OPR: case UR_OPR1: case UR_OPR2: case UR_OPR3:
        return (struct opd){.kind = OPD_PREP, .prep = TU_SOPR, .pk = l->opk,
                            .px = code == UR_OPR ? 0 : code == UR_OPR1 ? 1
                                : code == UR_OPR2 ? 2 : 3};
    case UR_RXS:
        if (!l->rx_def)
            return (struct opd){.kind = OPD_BAD};
        return (struct opd){.kind = OPD_PREP, .prep = TU_RXS, .pcell = &m->r[l->rx & 15],
                            .px = width_log[l->wdl_cur]};
    case UR_LSA: case UR_LSB:
        return (struct opd){.kind = OPD_PREP, .prep = TU_SLS,
                            .pcell = code == UR_LSA ? &m->la : &m->lb};
    case UR_OPCODE: return (struct opd){.kind = OPD_CONST, .val = l->opc};
    case UR_FPC: o.cell = &m->fpc; return o;
    case UR_FVA: o.cell = &m->fva; return o;
    case UR_MMACC: o.cell = &m->mmacc; return o;
    case UR_FBL: o.cell = &m->fbox.fbl; return o;
    case UR_FBH: o.cell = &m->fbox.fbh; return o;
    default:
        if (code >= UR_SPSTRT && code <= UR_SPSIZE) {
            o.cell = &m->ipr[0xE0 + (code - UR_SPSTRT)];
            return o;
        }
        return (struct opd){.kind = OPD_BAD}; /* IPR, IVEC, IIPL, ... */
    }
}

/* A destination: the store uop (its _R form; _S is +1 where it exists)
 * and its cell, or 0 (none: a sink) / -1 (not known here). */
struct dsel {
    int op;
    uint32_t *cell;
    unsigned k, y;
};
static int dst_sel(struct vax_machine *m, unsigned code, unsigned sel, unsigned kind,
                   const struct tc_latch *l, unsigned wd, struct dsel *d)
{
    memset(d, 0, sizeof *d);
    if (kind < PK_GPR) {
        if ((kind == LAT_RN || kind == LAT_RN1) && !l->rn_def)
            return -1;
        unsigned off = kind == LAT_0 ? 0 : kind == LAT_SPEC ? l->lat_spec
                     : kind == LAT_OPK ? l->lat_opk : kind == LAT_RN ? l->rn
                     : kind == LAT_LAST ? l->lat_last : (l->rn + 1u) & 15;
        unsigned c = sel + off;
        if (c == RF_SINK)
            return 0;
        if (c >= RF_N || c == RF_K || c == RF_ZERO || c == RF_LIT || c == RF_SIZE)
            return -1;
        d->op = TU_ST_R;
        d->cell = &m->rf[c];
        return 1;
    }
    uint32_t *gpr = NULL;
    switch (kind) {
    case PK_GPR: gpr = &m->rf[sel]; break;
    case PK_RN:
        if (!l->rn_def)
            return -1;
        d->op = TU_STRN_R;
        d->cell = &m->r[l->rn & 15];
        d->k = l->rn & 15;
        return 1;
    case PK_OPR:
        d->op = TU_STOPR_R;
        d->k = l->opk;
        return 1;
    case PK_RES:
        d->op = TU_STRES_R;
        d->k = l->opk;
        return 1;
    default:
        switch (code) {
        case UR_PSL: d->op = TU_STPSL_R; return 1;
        case UR_RN1: case UR_RN2: case UR_RN3:
            if (!l->rn_def)
                return -1;
            gpr = &m->r[(l->rn + (code == UR_RN1 ? 1u : code == UR_RN2 ? 2u : 3u)) & 15];
            break;
        case UR_RX:
            if (!l->rx_def)
                return -1;
            gpr = &m->r[l->rx & 15];
            break;
        case UR_OPR1: case UR_OPR2: case UR_OPR3:
            d->op = TU_STOPR_R;
            d->k = l->opk;
            d->y = code == UR_OPR1 ? 1 : code == UR_OPR2 ? 2 : 3;
            return 1;
        case UR_LSA: case UR_LSB:
            d->op = TU_STLS_R;
            d->cell = code == UR_LSA ? &m->la : &m->lb;
            return 1;
        default:
            if (code >= UR_SPSTRT && code <= UR_SPSIZE) {
                d->op = TU_ST_R;
                d->cell = &m->ipr[0xE0 + (code - UR_SPSTRT)];
                return 1;
            }
            return -1;
        }
    }
    d->op = wd < 2 ? TU_STW_R : TU_ST_R;
    d->cell = gpr;
    return 1;
}

/* Does condition c read a PSL bit word w may change before its
 * sequencing (which reads the PSL as it was at the start)? */
static int cond_psl_changed(unsigned c, const struct uword *w)
{
    int cc_bits = (c >= UC_PSL_N && c <= UC_PSL_CZ) || c == UC_IOVT;
    int other = c == UC_PSL_IV || c == UC_PSL_T || c == UC_PSL_KERN || c == UC_IOVT ||
                c == UC_OPREG_NOVT || c == UC_PSL_IS || c == UC_PSL_FU || c == UC_PSL_DV;
    int psl_dst = w->dst == UR_PSL || w->d2 == UR_PSL;
    return (cc_bits && (w->cc != UCC_NONE || psl_dst)) || (other && psl_dst);
}

#define DOFF(m, cell) ((uint32_t)((char *)(cell) - (char *)(m)))
static int cond_a(unsigned c)
{
    return c == UC_A_B0 || c == UC_A_B31 || c == UC_A_Z || c == UC_A_B15;
}
/* Conditions vm_cond evaluates from the word's inputs and the machine's
 * data alone, never from a latch the trace keeps as a constant. */
static int cond_plain(unsigned c)
{
    switch (c) {
    case UC_ALU_Z: case UC_ALU_N: case UC_ALU_V: case UC_ALU_C: case UC_ALU_LT:
    case UC_ALU_LE: case UC_ALU_CZ: case UC_PSL_N: case UC_PSL_Z: case UC_PSL_V:
    case UC_PSL_C: case UC_PSL_NZ: case UC_PSL_CZ: case UC_PSL_IV: case UC_PSL_T:
    case UC_PSL_KERN: case UC_IOVT: case UC_SC_Z: case UC_A_B0: case UC_A_B31:
    case UC_INTPEND: case UC_IPR_BAD: case UC_A_Z: case UC_PSL_IS: case UC_INEXC:
    case UC_SPON: case UC_PSL_FU: case UC_PSL_DV: case UC_A_B15: case UC_MAPEN:
        return 1;
    default:
        return 0;
    }
}

/* The guard of a conditional sequencing: 1 done (emitted or static and
 * agreeing), -1 the word must be generic. */
static int emit_guard(struct tc_build *b, int wi, unsigned cond, int taken,
                      const struct tc_latch *ls, unsigned wd, int psl0, int opreg1)
{
    unsigned c = cond & ~UC_NOT;
    unsigned want = (unsigned)taken ^ ((cond & UC_NOT) ? 1u : 0u);
    int st = -1; /* a condition the path fixes */
    if (c == UC_SPEV && !b->probes)
        c = UC_SPON;
    switch (c) {
    case UC_TRUE: st = 1; break;
    case UC_FRMW: /* the frame comparator: nothing watched without the unit */
        if (!b->probes)
            st = 0;
        break;
    case UC_IDX: st = ls->idx != 0; break;
    case UC_DLQ: st = wd == 3; break;
    case UC_RN_PC:
        if (ls->rn_def)
            st = ls->rn == 15;
        break;
    case UC_OPREG: /* SETREG in this very word set OPREG[OPK] */
        if (opreg1)
            st = 1;
        break;
    default: break;
    }
    if (st >= 0)
        return (unsigned)st == want ? 1 : -1;
    unsigned op;
    switch (c) {
    case UC_PSL_Z: op = TU_G_PSL_Z; break;
    case UC_PSL_N: op = TU_G_PSL_N; break;
    case UC_PSL_V: op = TU_G_PSL_V; break;
    case UC_PSL_C: op = TU_G_PSL_C; break;
    case UC_PSL_NZ: op = TU_G_PSL_NZ; break;
    case UC_PSL_CZ: op = TU_G_PSL_CZ; break;
    case UC_IOVT: op = TU_G_IOVT; break;
    case UC_ALU_Z: op = TU_G_ALU_Z; break;
    case UC_ALU_N: op = TU_G_ALU_N; break;
    case UC_ALU_V: op = TU_G_ALU_V; break;
    case UC_ALU_C: op = TU_G_ALU_C; break;
    case UC_ALU_LT: op = TU_G_ALU_LT; break;
    case UC_ALU_LE: op = TU_G_ALU_LE; break;
    case UC_ALU_CZ: op = TU_G_ALU_CZ; break;
    case UC_OPREG: op = TU_G_OPREG; break;
    case UC_OPREG_NOVT: op = opreg1 ? TU_G_NOVT : TU_G_OPREG_NOVT; break;
    case UC_SC_Z: op = TU_G_SC_Z; break;
    case UC_A_B0: op = TU_G_A_B0; break;
    case UC_A_B31: op = TU_G_A_B31; break;
    case UC_A_Z: op = TU_G_A_Z; break;
    case UC_PSL_KERN: op = TU_G_PSL_KERN; break;
    default:
        if (!cond_plain(c))
            return -1;
        op = TU_G_COND;
    }
    struct tb_uop *t = emit(b, op, wi);
    t->u.x = (uint8_t)want;
    t->u.y = (uint8_t)psl0;
    t->u.k = op == TU_G_COND ? c : ls->opk;
    return 1;
}

/* ---- emit_special: one recorded word as specialised uops ----
 * In five pieces, in the order the executor runs them: what the word is
 * and whether it can be specialised at all (word_plan, with its memory
 * request: mem_plan), its data path (emit_datapath: sources, a plain move,
 * the second bus, the ALU, the memo check, the results, the condition
 * codes), its memory reference, its MISC function and its sequencing
 * (emit_seq: the micro-stack, guards, the specifier byte). */

/* One word as the pieces see it. */
struct wctx {
    struct tc_build *b;
    struct vax_machine *m;
    int wi;
    const struct tc_recw *rw;
    const struct vm_pword *pw;
    const struct uword *w;
    const struct tc_latch *l;   /* the latches during the word */
    const struct tc_latch *ls;  /* ... and at its sequencing */
    unsigned wd;                /* its width */
    int need_a;                 /* the sequencing or MISC reads the A bus */
    int need_psl0;              /* ... the PSL as it was at the word's start */
    int need_fl;                /* something reads the ALU flags */
    int opreg1;                 /* SETREG sets OPREG[OPK] in this very word */
    int has_a;                  /* the uops leave A in the executor's a */
    /* the memory request: mn bytes at *maddr through memo, by the
     * reference uop mop (its k: mk) */
    int mem;
    unsigned mn, mop, mk;
    struct vm_memo *memo;
    uint32_t *maddr;
};

/* The memory request: -1 if it cannot go through a memo. */
static int mem_plan(struct wctx *c)
{
    struct vax_machine *m = c->m;
    const struct tc_latch *l = c->l;
    unsigned wd = c->wd;
    c->maddr = &m->mar;
    switch (c->mem) {
    case UM_NONE: break;
    case UM_READ: case UM_READB: case UM_READM: case UM_READMB:
        c->mn = (c->mem == UM_READB || c->mem == UM_READMB) ? 1 : width_size[wd > 3 ? 3 : wd];
        c->memo = c->mem >= UM_READM ? m->memo.m : m->memo.r;
        c->mop = TU_RD;
        break;
    case UM_READOP:
        if (l->rf_size > 8)
            return -1;
        c->mn = l->rf_size;
        c->mk = l->lat_spec;
        c->memo = l->cur->acc[l->lat_spec] == ACC_M ? m->memo.m : m->memo.r;
        c->mop = TU_RDOP;
        break;
    case UM_WRITE: case UM_WRITEB:
        c->mn = c->mem == UM_WRITEB ? 1 : width_size[wd > 3 ? 3 : wd];
        c->memo = m->memo.w;
        c->mop = TU_WR;
        break;
    case UM_WRITEOP:
        if (l->wdl_opk > 3)
            return -1;
        c->mn = width_size[l->wdl_opk];
        c->mk = l->opk;
        c->memo = m->memo.w;
        c->maddr = &m->opa[l->opk];
        c->mop = TU_WROP;
        break;
    default: /* READP, WRITEP, and what others add */
        return -1;
    }
    if (c->mem != UM_NONE && (c->w->dst == UR_PSL || c->w->d2 == UR_PSL))
        return -1; /* a mode change would change the memo's answer */
    return 0;
}

/* Word wi as the pieces see it; -1 if it cannot be specialised (an
 * unused word, an F-box function, a MISC function the uops do not have,
 * a memory request no memo serves). */
static int word_plan(struct tc_build *b, struct vax_machine *m, const struct tc_rec *rec,
                     int wi, struct wctx *c)
{
    memset(c, 0, sizeof *c);
    c->b = b;
    c->m = m;
    c->wi = wi;
    c->rw = &rec->w[wi];
    c->pw = &m->cs[c->rw->upc];
    const struct uword *w = c->w = &c->pw->u;
    const struct tb_word *tw = &b->w[wi];
    const struct tc_latch *l = c->l = &b->img[tw->mid];
    c->ls = &b->img[tw->seq];
    const unsigned wdl[UDL__COUNT] = {[UDL_L] = 2, [UDL_B] = 0, [UDL_W] = 1, [UDL_Q] = 3,
                                      [UDL_CUR] = l->wdl_cur, [UDL_OPK] = l->wdl_opk,
                                      [UDL_O] = 4};
    c->wd = wdl[w->dl];
    if (!w->valid || w->fop != UF_NONE || w->cc > UCC_QUAD)
        return -1;
    switch (w->misc) {
    case UX_NONE: case UX_SETMEM: case UX_CLRLOG: case UX_EVCNT: case UX_INEXC:
    case UX_TRACEWR: case UX_TRACEHK:
        break;
    case UX_LATCHRX: case UX_SETREG:
        if (!l->rn_def)
            return -1;
        break;
    default:
        return -1;
    }
    unsigned seq = w->seq, disp = w->disp, cnd = w->cond & ~UC_NOT;
    int cond_seq = seq == US_BRANCH || seq == US_BCALL || seq == US_IRDIF;
    int disp_seq = seq == US_DISPATCH || seq == US_DCALL;
    c->need_a = (cond_seq && cond_a(cnd)) ||
                (disp_seq && (disp == UD_A4 || disp == UD_A2 || disp == UD_SPM)) ||
                w->misc == UX_EVCNT;
    c->need_psl0 = cond_seq && cond_psl_changed(cnd, w);
    c->opreg1 = w->misc == UX_SETREG && l->lat_spec == l->opk;
    c->need_fl = (c->pw->fl & PW_FL) != 0;
    c->mem = w->mem;
    return mem_plan(c);
}

/* The data path's operands and results, resolved for the word. */
struct wdp {
    struct opd oa, ob, os;   /* A, B, and the second bus's source */
    int s2alu;               /* the second bus takes the ALU's result */
    struct dsel d1, d2;      /* the destinations ... */
    int hd1, hd2;            /* ... if any */
};

/* The sources (an IB prep reads first: the interpreter reads A, B, S2 in
 * that order, and an IB source advances R15) and the destinations; -1
 * if one is not known here. */
static int dp_resolve(const struct wctx *c, struct wdp *d)
{
    struct vax_machine *m = c->m;
    const struct uword *w = c->w;
    const struct vm_pword *pw = c->pw;
    d->oa = src_opd(m, w, w->a, pw->sa, pw->ka, c->l, c->wd);
    d->ob = src_opd(m, w, w->b, pw->sb, pw->kb, c->l, c->wd);
    d->os = (struct opd){.kind = OPD_CONST, .val = 0};
    d->s2alu = w->s2 == UR_ALU;
    if ((pw->fl & PW_S2) && !d->s2alu)
        d->os = src_opd(m, w, w->s2, pw->ss, pw->ks, c->l, c->wd);
    if (d->oa.kind == OPD_BAD || d->ob.kind == OPD_BAD || d->os.kind == OPD_BAD)
        return -1;
    const struct opd *o3[3] = {&d->oa, &d->ob, &d->os};
    int nib = 0;
    for (int i = 0; i < 3; i++)
        if (o3[i]->kind == OPD_PREP && o3[i]->prep == TU_IB) {
            nib++;
            for (int j = 0; j < i; j++)
                if ((o3[j]->kind == OPD_CELL && o3[j]->cell == &m->r[15]) ||
                    (o3[j]->kind == OPD_PREP && o3[j]->prep == TU_SOPR))
                    return -1;
        }
    if (nib > 1 || (nib && c->mem != UM_NONE))
        return -1;
    if (w->dst != UR_NONE) {
        d->hd1 = dst_sel(m, w->dst, pw->sd, pw->kd, c->l, c->wd, &d->d1);
        if (d->hd1 < 0)
            return -1;
    }
    if (w->d2 != UR_NONE) {
        d->hd2 = dst_sel(m, w->d2, pw->sd2, pw->kd2, c->l, c->wd, &d->d2);
        if (d->hd2 < 0 || d->d2.op == TU_STRES_R)
            return -1;
    }
    return 0;
}

/* The preps, in bus order: a source a handler computes into
 * m->tc_tmp[bus] becomes that cell. */
static void emit_preps(const struct wctx *c, struct wdp *d)
{
    struct opd *o3[3] = {&d->oa, &d->ob, &d->os};
    for (int i = 0; i < 3; i++) {
        struct opd *o = o3[i];
        if (o->kind != OPD_PREP)
            continue;
        struct tb_uop *t = emit(c->b, o->prep, c->wi);
        t->u.x = (uint8_t)o->px;
        t->u.y = (uint8_t)i;
        t->u.k = o->pk;
        t->u.p1 = o->pcell;
        o->kind = OPD_CELL;
        o->cell = &c->m->tc_tmp[i];
    }
}

/* A uop's operand (p1: c1, p2: c2) from a cell or a constant. */
static void set_opd(struct tc_build *b, struct tb_uop *t, int second, const struct opd *o)
{
    if (o->kind == OPD_CONST)
        *(second ? &t->c2 : &t->c1) = add_const(b, o->val);
    else
        *(second ? &t->u.p2 : &t->u.p1) = o->cell;
}

/* A plain move -- the ALU passes a source through unchanged and nothing
 * looks at its flags -- as MOV or MOV2: 1 if the word is one. */
static int emit_move(const struct wctx *c, const struct wdp *d)
{
    unsigned f = c->w->alu;
    int plain1 = d->hd1 && d->d1.op == TU_ST_R, plain2 = d->hd2 && d->d2.op == TU_ST_R;
    int pass = ((f == UA_PASSA || f == UA_PASSB || f == UA_ZEXT || f == UA_SEXT) &&
                c->wd >= 2) && !c->need_fl && c->w->cc == UCC_NONE && c->mem == UM_NONE &&
               !c->need_a;
    if (!(pass && (!d->hd1 || plain1) && (!d->hd2 || plain2) && (d->hd1 || d->hd2)))
        return 0;
    const struct opd *po = f == UA_PASSB ? &d->ob : &d->oa;
    const struct opd *v2 = d->s2alu ? po : &d->os;
    struct tb_uop *t = emit(c->b, d->hd1 && d->hd2 ? TU_MOV2 : TU_MOV, c->wi);
    set_opd(c->b, t, 0, d->hd1 ? po : v2);
    t->u.k = DOFF(c->m, d->hd1 ? d->d1.cell : d->d2.cell);
    if (d->hd1 && d->hd2) {
        set_opd(c->b, t, 1, v2);
        t->u.k2 = DOFF(c->m, d->d2.cell);
    }
    return 1;
}

/* The ALU functions of TC_ALU_FNS, in its order. */
static const unsigned tc_alu_fns[TCF__N] = {UA_PASSA, UA_PASSB, UA_ADD, UA_SUB, UA_AND,
                                            UA_OR, UA_XOR, UA_BIC, UA_ZEXT, UA_SEXT,
                                            UA_SHL, UA_SHR, UA_SAR, UA_ROTL, UA_MASK,
                                            UA_PACK};

/* The ALU's uop: a specialised handler (the result into a plain
 * destination and the condition codes in the uop itself, where no memo
 * check comes between), or ALU_GEN; *st_fused, *cc_fused say what it
 * took over. */
static struct tb_uop *emit_alu(const struct wctx *c, const struct wdp *d, int *st_fused,
                               int *cc_fused)
{
    const struct uword *w = c->w;
    unsigned f = w->alu;
    int fi = -1;
    for (int i = 0; i < TCF__N; i++)
        if (tc_alu_fns[i] == f)
            fi = i;
    if (fi < 0) {
        struct tb_uop *t = emit(c->b, TU_ALU_GEN, c->wi);
        t->u.k2 = f;
        t->u.x = (uint8_t)c->wd;
        t->u.y = (uint8_t)c->need_fl;
        return t;
    }
    unsigned ww = c->wd > 2 ? 2 : c->wd; /* these work alike at L, Q, O */
    int plain1 = d->hd1 && d->d1.op == TU_ST_R;
    int psl_dst = (d->hd1 && d->d1.op == TU_STPSL_R) || (d->hd2 && d->d2.op == TU_STPSL_R);
    *st_fused = plain1 && c->mem == UM_NONE;
    *cc_fused = c->mem == UM_NONE && !psl_dst && w->cc >= UCC_ARITH && w->cc <= UCC_NZVC0;
    unsigned var = *cc_fused ? 2u + (w->cc - UCC_ARITH) : c->need_fl ? 1u : 0u;
    struct tb_uop *t = emit(c->b, TU_ALU_BASE + ((unsigned)fi * 3 + ww) * TC_ALU_VARS + var,
                            c->wi);
    t->u.k = DOFF(c->m, *st_fused ? d->d1.cell : &c->m->rf[RF_SINK]);
    return t;
}

/* A destination's store uop (op: its _R or _S form). */
static void emit_store(const struct wctx *c, unsigned op, const struct dsel *ds)
{
    struct tb_uop *s = emit(c->b, op, c->wi);
    s->u.p1 = ds->cell;
    s->u.k = ds->k;
    s->u.x = (uint8_t)c->wd;
    s->u.y = (uint8_t)ds->y;
}

/* The data path of a word with one: -1 if it cannot be specialised. */
static int emit_datapath(struct wctx *c)
{
    struct vax_machine *m = c->m;
    const struct uword *w = c->w;
    struct wdp d = {0};
    if (dp_resolve(c, &d) < 0)
        return -1;
    emit_preps(c, &d);
    unsigned f = w->alu;
    int side = f == UA_MUL || f == UA_MULU || f == UA_DIV || f == UA_SHLQ ||
               f == UA_SHRQ || f == UA_ASHQ;
    if (side && c->mem != UM_NONE)
        return -1; /* Q would change before the memo check could give up */
    if (emit_move(c, &d))
        return 0;
    int mck_r = c->mem != UM_NONE && d.hd1 && d.d1.cell == c->maddr;
    int mck_s = c->mem != UM_NONE && d.hd2 && d.d2.cell == c->maddr;
    int need_r = d.hd1 || (d.hd2 && d.s2alu) || w->cc != UCC_NONE || c->need_fl || side ||
                 mck_r;
    /* the second bus's source, read before any result is written -- or,
     * where nothing this word writes before its second result is that
     * source (and no memo check could send the word back to the
     * interpreter), moved there when the second result is stored: one uop
     * (MOV) where S2 and ST would be two */
    int s2mov = d.hd2 && !d.s2alu && d.d2.op == TU_ST_R && c->mem == UM_NONE && !side;
    if (s2mov && d.os.kind != OPD_CONST) {
        const uint32_t *sc = d.os.cell;
        int d1known = !d.hd1 || d.d1.op == TU_ST_R || d.d1.op == TU_STW_R ||
                      d.d1.op == TU_STRN_R || d.d1.op == TU_STPSL_R;
        if (!d1known || sc == &m->psl || sc == &m->rf[RF_SINK] || (d.hd1 && sc == d.d1.cell))
            s2mov = 0;
    }
    if (d.hd2 && !d.s2alu && !s2mov)
        set_opd(c->b, emit(c->b, TU_S2, c->wi), 0, &d.os);
    struct tb_uop *t = NULL;
    int st_fused = 0, cc_fused = 0;
    if (need_r) {
        t = emit_alu(c, &d, &st_fused, &cc_fused);
        c->has_a = 1;
    } else if (c->need_a) {
        t = emit(c->b, TU_LDA, c->wi);
        c->has_a = 1;
    }
    if (t) {
        set_opd(c->b, t, 0, &d.oa);
        set_opd(c->b, t, 1, &d.ob);
    }
    /* the memory reference's memo check, before any result is written:
     * a miss runs the whole word through the interpreter */
    if (c->mem != UM_NONE)
        emit_mck(c->b, mck_s ? (d.s2alu ? TU_MCK_R : TU_MCK_S) : mck_r ? TU_MCK_R : TU_MCK_P,
                 c->wi, c->maddr, c->memo, c->mn, c->mop);
    if (d.hd1 && !st_fused)
        emit_store(c, (unsigned)d.d1.op, &d.d1);
    if (s2mov) {
        struct tb_uop *s = emit(c->b, TU_MOV, c->wi);
        set_opd(c->b, s, 0, &d.os);
        s->u.k = DOFF(m, d.d2.cell);
    } else if (d.hd2) {
        emit_store(c, (unsigned)d.d2.op + (d.s2alu ? 0u : 1u), &d.d2); /* _S follows _R */
    }
    if (w->cc != UCC_NONE && !cc_fused)
        emit(c->b, TU_CC_ARITH + (w->cc - UCC_ARITH), c->wi);
    return 0;
}

/* The MISC function (LATCHRX has none: the sequencing's latch image
 * holds RX). */
static void emit_misc(const struct wctx *c)
{
    struct tc_build *b = c->b;
    int wi = c->wi;
    switch (c->w->misc) {
    case UX_SETREG: {
        struct tb_uop *t = emit(b, TU_SETREG, wi);
        t->u.k = c->l->lat_spec;
        t->u.x = (uint8_t)c->l->rn;
        break;
    }
    case UX_SETMEM: emit(b, TU_SETMEM, wi)->u.k = c->l->lat_spec; break;
    case UX_CLRLOG: emit(b, TU_CLRLOG, wi); break;
    case UX_EVCNT: emit(b, TU_EVCNT, wi); break;
    case UX_INEXC: emit(b, TU_INEXC, wi); break;
    case UX_TRACEWR: emit(b, TU_TRACEWR, wi); break;
    case UX_TRACEHK: emit(b, TU_TRACEHK, wi); break;
    default: break; /* NONE; LATCHRX */
    }
}

/* A micro-stack push of the word's following address. */
static void emit_push(const struct wctx *c)
{
    struct tb_uop *t = emit(c->b, TU_PUSH, c->wi);
    t->u.x = c->rw->usp;
    t->u.k = (c->rw->upc + 1u) & (UCS_SIZE - 1);
}

/* The guard of a conditional sequencing that went `taken`, its other way
 * (k2) `alt` where the path fixes it; -1 if the word must be generic. */
static int emit_cond_guard(const struct wctx *c, int taken, unsigned alt)
{
    int nu = c->b->nu;
    if (emit_guard(c->b, c->wi, c->w->cond, taken, c->ls, c->wd, c->need_psl0, c->opreg1) < 0)
        return -1;
    if (c->b->nu > nu)
        c->b->u[c->b->nu - 1].u.k2 = alt;
    return 0;
}

/* The guard of a data dispatch: the recorded table entry. */
static void emit_disp_guard(const struct wctx *c, unsigned op, unsigned x)
{
    struct tb_uop *t = emit(c->b, op, c->wi);
    t->u.x = (uint8_t)x;
    t->u.k = c->ls->opk;
    t->u.k2 = TC_ALT_SEQ;
}

/* The specifier byte the sequencing consumed (y: 0 SPECMODE, 1 SPECNEXT). */
static void emit_spec(const struct wctx *c, unsigned y)
{
    struct tb_uop *t = emit(c->b, TU_SPEC, c->wi);
    t->u.k = c->rw->byte | (uint32_t)c->rw->next << 16;
    t->u.y = (uint8_t)y;
    t->seg = 1;
}

/* The sequencing as the path went: -1 if it cannot be specialised. */
static int emit_seq(const struct wctx *c)
{
    const struct tc_recw *rw = c->rw;
    const struct uword *w = c->w;
    unsigned upc1 = (rw->upc + 1u) & (UCS_SIZE - 1);
    unsigned next = rw->next, disp = w->disp;
    switch (w->seq) {
    case US_NEXT: case US_JUMP:
        break;
    case US_CALL:
        emit_push(c);
        break;
    case US_RET:
        emit(c->b, TU_POP, c->wi)->u.x = (uint8_t)(rw->usp - 1);
        break;
    case US_BRANCH: {
        unsigned tgt = w->next & (UCS_SIZE - 1u);
        if (tgt != upc1 && emit_cond_guard(c, next == tgt, next == tgt ? upc1 : tgt) < 0)
            return -1;
        break;
    }
    case US_BCALL: {
        int taken = rw->usp_post > rw->usp;
        if (emit_cond_guard(c, taken, TC_ALT_SEQ) < 0)
            return -1;
        if (taken)
            emit_push(c);
        break;
    }
    case US_IRD:
        if (!rw->at_ird)
            return -1;
        break;
    case US_IRDIF:
        if (emit_cond_guard(c, rw->at_ird,
                            !rw->at_ird ? TC_ALT_IRD
                            : disp == UD_OPREG ? TC_ALT_SEQ : (w->next & (UCS_SIZE - 1u))) < 0)
            return -1;
        if (!rw->at_ird && disp == UD_OPREG)
            emit_disp_guard(c, TU_GD_OPREG, next - w->next);
        break;
    case US_DISPATCH: case US_DCALL:
        /* (a DCALL's push after its guard: where the guard fails, the
         * interpreter's sequencing pushes and dispatches, as one) */
        switch (disp) {
        case UD_SPECMODE:
            if (rw->spec)
                emit_spec(c, 0);
            break;
        case UD_A4: case UD_A2: case UD_OPREG: case UD_SPM:
            emit_disp_guard(c, disp == UD_A4 ? TU_GD_A4 : disp == UD_A2 ? TU_GD_A2
                                : disp == UD_OPREG ? TU_GD_OPREG : TU_GD_SPM,
                            (next - w->next) & (UCS_SIZE - 1));
            break;
        case UD_ACC: case UD_DL: case UD_NONE:
            break;
        default:
            return -1;
        }
        if (w->seq == US_DCALL)
            emit_push(c);
        break;
    case US_SPECNEXT: {
        const struct drom_entry *e = c->ls->cur;
        if (rw->spec) {
            emit_spec(c, 1);
        } else if (c->ls->spec + 1 >= e->n && e->mfork != 0xFF && e->mem_entry != e->entry) {
            struct tb_uop *t = emit(c->b, TU_GD_MFORK, c->wi);
            t->u.k = e->mfork;
            t->u.x = next == e->mem_entry ? 0 : 1; /* OPREG of the fork operand */
            t->u.k2 = TC_ALT_SEQ;
        }
        break;
    }
    default:
        return -1;
    }
    if (rw->at_ird && w->seq != US_IRD && w->seq != US_IRDIF)
        return -1;
    return 0;
}

/* Emits word wi specialised; -1 if something in it is not handled here
 * (the caller then makes it generic). */
static int emit_special(struct tc_build *b, struct vax_machine *m, const struct tc_rec *rec,
                        int wi)
{
    struct wctx c;
    if (word_plan(b, m, rec, wi, &c) < 0)
        return -1;
    if (c.need_psl0)
        emit(b, TU_PSL0, wi);
    if (c.pw->fl & PW_DP) {
        if (emit_datapath(&c) < 0)
            return -1;
    } else if (c.mem != UM_NONE) {
        emit_mck(b, TU_MCK_P, wi, c.maddr, c.memo, c.mn, c.mop);
    }
    if (c.mem != UM_NONE) { /* the reference itself */
        struct tb_uop *t = emit(b, c.mop, wi);
        t->u.p2 = (uint32_t *)(void *)c.memo;
        t->u.x = (uint8_t)c.mn;
        t->u.k = c.mk;
    }
    emit_misc(&c);
    if (emit_seq(&c) < 0)
        return -1;
    b->w[wi].w.flags = (uint16_t)((c.need_fl ? TW_FL : 0) | (c.has_a ? TW_A : 0) |
                                  (c.need_psl0 ? TW_PSL0 : 0));
    return 0;
}

/* Does word rw, at latches l, consume a specifier byte in its sequencing? */
static int consumes_byte(const struct uword *w, const struct tc_latch *l)
{
    const struct drom_entry *e = l->cur;
    if ((w->seq == US_DISPATCH || w->seq == US_DCALL) && w->disp == UD_SPECMODE)
        return e->acc[l->spec % 8] != ACC_B;
    if (w->seq == US_SPECNEXT)
        return l->spec + 1 < e->n && e->acc[l->spec + 1] != ACC_B;
    return 0;
}

/* A root's I-stream references (SPEC, IB uops) at offsets from the
 * opcode that are the same every time, inside one page (in one cache
 * line, or two: iline): their bytes can be compared once at entry
 * (vm_tcache_exec.c).  The offsets
 * are the same every time when nothing before a reference writes R15 but
 * with R15 plus a constant (immediate and absolute modes).  Returns the
 * length covered (0: not so), with each such uop's ioff and an IB's
 * value (k2) set, and the bytes in by[]. */
#define TC_PAGE 512u /* a VAX page: one translation, its bytes in order */
static int iscan(struct tc_build *b, struct vax_machine *m, const struct tc_rec *rec,
                 uint8_t by[16])
{
    if (rec->opc > 0xFF)
        return 0;
    const uint32_t *pc = &m->r[15];
    const uint32_t pck = (uint32_t)((const char *)pc - (const char *)m);
    int len = 1, unsafe = 0, add_pc_k = 0;
    for (int k = 0; k < b->nu; k++) {
        struct tb_uop *t = &b->u[k];
        unsigned op = t->u.op;
        if (op == TU_SPEC || op == TU_IB) {
            if (unsafe)
                return 0;
            uint32_t off;
            unsigned n = 1;
            if (op == TU_IB) {
                off = rec->w[t->wi].r15 - rec->fpc;
                n = t->u.x;
            } else if (t->u.y == 2) {
                off = 1;
            } else {
                off = rec->w[t->wi].r15_post - 1 - rec->fpc;
            }
            if (off + n > 16)
                return 0;
            t->ioff = (int)off;
            if ((int)(off + n) > len)
                len = (int)(off + n);
            continue;
        }
        if (op >= TU_ALU_BASE) { /* R15 + a constant, or into R15 unsafe */
            unsigned f = (op - TU_ALU_BASE) / (3 * TC_ALU_VARS);
            add_pc_k = (f == TCF_ADD || f == TCF_SUB) && t->u.p1 == pc && t->c2 >= 0;
            if (t->u.k == pck && !add_pc_k)
                unsafe = 1;
            continue;
        }
        switch (op) {
        case TU_GEN: /* the interpreter: the trace checks bytes after it (ifast off) */
            break;
        case TU_ALU_GEN:
            add_pc_k = 0;
            break;
        case TU_ST_R: case TU_STW_R: case TU_STRN_R:
            if (t->u.p1 == pc && !add_pc_k)
                unsafe = 1;
            break;
        case TU_ST_S: case TU_STW_S: case TU_STRN_S:
            if (t->u.p1 == pc)
                unsafe = 1;
            break;
        case TU_MOV:
            if (t->u.k == pck)
                unsafe = 1;
            break;
        case TU_MOV2:
            if (t->u.k == pck || t->u.k2 == pck)
                unsafe = 1;
            break;
        case TU_STRES_R: case TU_STOPR_R: case TU_STOPR_S:
            unsafe = 1; /* a register chosen at run time */
            break;
        default:
            break;
        }
    }
    unsigned lo = rec->key % VM_CACHE_LINE;
    if (lo + (unsigned)len > VM_CACHE_LINE) {
        /* the bytes go on into the next line of the page: known at entry
         * as well (the host's memory holds a page's bytes in order), and
         * the first reference there checks that line's memo entry (SPECL,
         * IBL); not where one reference would span both lines, nor in a
         * loop, which could go back to the first line */
        if ((rec->key % TC_PAGE) + (unsigned)len > TC_PAGE ||
            rec->end == TC_END_LOOP)
            return 0;
        int bnd = (int)(VM_CACHE_LINE - lo);
        for (int k = 0; k < b->nu; k++) {
            unsigned op = b->u[k].u.op;
            if (op != TU_SPEC && op != TU_IB)
                continue;
            int off = b->u[k].ioff, n = op == TU_IB ? b->u[k].u.x : 1;
            if (b->iline < 0 ? off < bnd && off + n > bnd : off < bnd)
                return 0; /* (across, or back in the first line) */
            if (b->iline < 0 && off >= bnd)
                b->iline = k;
        }
    }
    memset(by, 0, 16);
    memcpy(by, m->mem + rec->key, (size_t)len);
    for (int k = 0; k < b->nu; k++) /* IB: the value, known now */
        if (b->u[k].ioff >= 0 && b->u[k].u.op == TU_IB) {
            uint32_t v = 0;
            memcpy(&v, by + b->u[k].ioff, b->u[k].u.x);
            b->u[k].u.k2 = v;
        }
    return len;
}

/* May fused run `code` start at uop i?  A TC_FUSED_MEMN run only where
 * the memory reference among the uops it covers is of its size and goes
 * the way its body takes it to, and where its ALU uop's result goes to
 * the sink (the word's destination is written after the memo check). */
static int memn_ok(const struct tc_build *b, int i, unsigned code)
{
#define TC_MNENT(n, span, w, size) {TU_F_##n, span, w, size},
    static const uint16_t memn[][4] = {TC_FUSED_MEMN(TC_MNENT)};
#undef TC_MNENT
    for (size_t f = 0; f < sizeof memn / sizeof memn[0]; f++) {
        if (memn[f][0] != code)
            continue;
        if (i + memn[f][1] > b->nu)
            return 0;
        for (int k = i; k < i + memn[f][1]; k++) {
            const struct tc_uop *u = &b->u[k].u;
            if (b->op0[k] >= TU_ALU_BASE && b->op0[k] < TU_ALUM_BASE &&
                u->k != offsetof(struct vax_machine, rf_sink))
                return 0; /* (its body leaves the sink alone: TC_ALU_SINK) */
            switch (b->op0[k]) {
            case TU_MCK_R: case TU_MCK_S: case TU_MCK_P:
                if (u->x != memn[f][3] || u->y != memn[f][2])
                    return 0;
                break;
            case TU_RD: case TU_WR: case TU_RDOP: case TU_WROP:
                if (u->x != memn[f][3])
                    return 0;
                break;
            default:
                break;
            }
        }
    }
    return 1;
}

/* Case labels for the uop walks below (forward_r, seq_runs): the guards
 * and dispatches, which leave every cell alone, and the condition-code
 * uops, which write PSL only. */
#define TC_CASE_GUARDS                                                         \
    case TU_G_COND: case TU_G_PSL_Z: case TU_G_PSL_N: case TU_G_PSL_V:         \
    case TU_G_PSL_C: case TU_G_PSL_NZ: case TU_G_PSL_CZ: case TU_G_IOVT:       \
    case TU_G_ALU_Z: case TU_G_ALU_N: case TU_G_ALU_V: case TU_G_ALU_C:        \
    case TU_G_ALU_LT: case TU_G_ALU_LE: case TU_G_ALU_CZ: case TU_G_OPREG:     \
    case TU_G_OPREG_NOVT: case TU_G_NOVT: case TU_G_SC_Z: case TU_G_A_B0:      \
    case TU_G_A_B31: case TU_G_A_Z: case TU_G_PSL_KERN: case TU_GD_A4:         \
    case TU_GD_A2: case TU_GD_OPREG: case TU_GD_SPM: case TU_GD_MFORK
#define TC_CASE_CC                                                             \
    case TU_CC_ARITH: case TU_CC_LOGIC: case TU_CC_TEST: case TU_CC_CMP:       \
    case TU_CC_NZV: case TU_CC_NZVC0: case TU_CC_QUAD

/* SEQ (vm_tcache.h, TC_FUSED_SEQ): turns a push or pop run into its SEQ
 * form where its MAR +- x starts from the last reference's address.
 * Followed from uop to uop (by the codes before fusing): the memo table
 * of the last reference and whether r and MAR still hold its address;
 * any uop but register moves, the ALU, condition codes, guards and the
 * micro-stack forgets the reference (a specifier or I-stream uop touches
 * the cache, a generic word anything), and so does a loop's head. */
static void seq_runs(struct tc_build *b, struct vax_machine *m, const struct tc_rec *rec)
{
#define TC_SQENT(n, base, d, body) {TU_F_##base, TU_F_##n, d},
    static const uint16_t seq[][3] = {TC_FUSED_SEQ(TC_SQENT)};
#undef TC_SQENT
    const int head = rec->end == TC_END_LOOP ? b->w[rec->loop_to].uop0 : -1;
    const uint32_t *tbl = NULL; /* the last reference's memo table; NULL: none */
    int r_addr = 0, mar_addr = 0;  /* r, MAR hold its address */
    const uint32_t *mar = &m->mar;
    for (int i = 0; i < b->nu; i++) {
        if (i == head)
            tbl = NULL;
        for (size_t f = 0; tbl && f < sizeof seq / sizeof seq[0]; f++) {
            if (b->u[i].u.op != seq[f][0])
                continue;
            /* the run's ALU uop (MAR +- D) and its memo check */
            int alu = -1, mck = -1;
            for (int k = i; k < b->nu && mck < 0; k++) {
                unsigned o = b->op0[k];
                if (alu < 0 && o >= TU_ALU_BASE && o < TU_ALUM_BASE)
                    alu = k;
                else if (o == TU_MCK_R)
                    mck = k;
            }
            if (alu < 0 || mck < 0 || b->u[mck].u.p2 != tbl)
                break;
            int alur = b->op0[alu] >= TU_ALUR_BASE;
            if (!(alur ? r_addr : (b->u[alu].u.p1 == mar && mar_addr)))
                break;
            /* the form with the constant (the next entry), where it is one */
            int c2 = b->u[alu].c2;
            if (f + 1 < sizeof seq / sizeof seq[0] && seq[f + 1][0] == seq[f][0] &&
                c2 >= 0 && b->c[c2] == seq[f + 1][2])
                f++;
            b->u[i].u.op = seq[f][1];
            break;
        }
        const struct tc_uop *u = &b->u[i].u;
        unsigned o = b->op0[i];
        if (o >= TU_ALU_BASE && o < TU_ALUM_BASE) {
            r_addr = 0;
            if (&TC_CELL(m, u->k) == mar)
                mar_addr = 0;
            continue;
        }
        switch (o) {
        case TU_MCK_R: case TU_MCK_S: case TU_MCK_P:
            tbl = u->p2;
            r_addr = o == TU_MCK_R;
            mar_addr = 0;
            break;
        case TU_ST_R:
            if (u->p1 == mar)
                mar_addr = r_addr;
            break;
        case TU_ST_S: case TU_STW_S: case TU_STW_R: case TU_STRN_R: case TU_STRN_S:
            if (u->p1 == mar)
                mar_addr = 0;
            break;
        case TU_MOV:
            if (&TC_CELL(m, u->k) == mar)
                mar_addr = 0;
            break;
        case TU_MOV2:
            if (&TC_CELL(m, u->k) == mar || &TC_CELL(m, u->k2) == mar)
                mar_addr = 0;
            break;
        case TU_ALU_GEN:
            r_addr = 0;
            break;
        case TU_RD: case TU_WR: case TU_RDOP: case TU_WROP: /* (the reference's own) */
        case TU_S2: case TU_LDA: case TU_PSL0: case TU_PUSH: case TU_POP:
        TC_CASE_CC:
        TC_CASE_GUARDS:
            break;
        default:
            tbl = NULL;
            break;
        }
    }
}

/* ALUR (vm_tcache.h): the function index of an ALU uop at L, or -1. */
static int alur_index(unsigned fi)
{
#define TC_ALUR_MAP(F) if (fi == TCF_##F) return TCR_##F;
    TC_ALUR_FNS(TC_ALUR_MAP)
#undef TC_ALUR_MAP
    return -1;
}

static int in_cells(const uint32_t *c, const uint32_t *lo, size_t n)
{
    return c >= lo && c < lo + n;
}

/* Follows which cell of the machine holds the executor's r (the last ALU
 * result) from uop to uop, and turns an ALU uop at L whose operand A is
 * that cell into its ALUR form.  A cell holds r after an ALU uop stores
 * its result there or ST_R stores r there, until r or the cell changes;
 * anything not known to leave both alone forgets it.  Where uops are
 * entered other than from the one before, nothing is known: a segment's
 * start and a loop's head; after a word the interpreter ran (a bail, a
 * generic word) the executor reloads r from the cell the word ends with
 * (rend[word]). */
static void forward_r(struct tc_build *b, struct vax_machine *m, const struct tc_rec *rec,
                      const uint32_t **rend)
{
    const uint32_t *rc = NULL;
    int head = rec->end == TC_END_LOOP ? b->w[rec->loop_to].region : -1;
    int wnext = 0; /* the next word whose start is to come */
    for (int i = 0; i <= b->nu; i++) {
        while (wnext < rec->n && (wnext + 1 < rec->n ? b->w[wnext + 1].region : b->nu - 1) <= i) {
            if (wnext + 1 < rec->n && b->w[wnext + 1].region == head)
                rend[wnext] = NULL; /* (the head forgets) */
            else
                rend[wnext] = rc;
            wnext++;
        }
        if (i == head)
            rc = NULL;
        if (i == b->nu)
            break;
        struct tb_uop *t = &b->u[i];
        unsigned op = t->u.op;
        if (op >= TU_ALU_BASE && op < TU_ALUR_BASE) {
            unsigned j = op - TU_ALU_BASE, var = j % TC_ALU_VARS, ww = j / TC_ALU_VARS % 3;
            int rf = alur_index(j / TC_ALU_VARS / 3);
            if (rc && t->c1 < 0 && t->u.p1 == rc && ww == 2 && rf >= 0)
                t->u.op = (uint16_t)(TU_ALUR_BASE + (unsigned)rf * TC_ALU_VARS + var);
            const uint32_t *dst = &TC_CELL(m, t->u.k);
            rc = dst == &m->rf[RF_SINK] ? NULL : dst;
            continue;
        }
        const uint32_t *w1 = NULL, *w2 = NULL; /* cells it writes */
        switch (op) {
        case TU_ST_R:
            rc = t->u.p1;
            continue;
        case TU_S2: case TU_LDA: case TU_PSL0:
        case TU_MCK_R: case TU_MCK_S: case TU_MCK_P: case TU_WR: case TU_WROP:
        case TU_PUSH: case TU_POP:
        TC_CASE_GUARDS:
            continue; /* neither r nor a cell */
        TC_CASE_CC:
            w1 = &m->psl;
            break;
        case TU_ST_S: case TU_STW_S: case TU_STW_R: case TU_STRN_R: case TU_STRN_S:
            w1 = t->u.p1;
            break;
        case TU_MOV:
            w1 = &TC_CELL(m, t->u.k);
            break;
        case TU_MOV2:
            w1 = &TC_CELL(m, t->u.k);
            w2 = &TC_CELL(m, t->u.k2);
            break;
        case TU_RD:
            w1 = &m->mdr;
            w2 = &m->q;
            break;
        case TU_RDOP:
            if (rc && (in_cells(rc, m->opv, 6) || in_cells(rc, m->oph, 6)))
                rc = NULL;
            continue;
        case TU_SPEC:
            w1 = &m->r[15];
            break;
        case TU_IB: case TU_RXS: case TU_SOPR: case TU_SLS:
            w1 = &m->r[15];
            if (rc && in_cells(rc, m->tc_tmp, 3))
                rc = NULL;
            break;
        default: /* r, or cells chosen at run time, or the interpreter */
            rc = NULL;
            continue;
        }
        if (rc && (rc == w1 || rc == w2))
            rc = NULL;
    }
}

/* The cells whose values a trace knows at build time, from one uop to
 * the next (fold_consts). */
#define TC_KNOWN 16
struct tc_known {
    const uint32_t *cell[TC_KNOWN];
    uint32_t val[TC_KNOWN];
    int n;
};

static int known_at(const struct tc_known *k, const uint32_t *c, uint32_t *v)
{
    for (int i = 0; i < k->n; i++)
        if (k->cell[i] == c) {
            *v = k->val[i];
            return 1;
        }
    return 0;
}

static void known_forget_range(struct tc_known *k, const uint32_t *lo, size_t n)
{
    for (int i = 0; i < k->n;)
        if (k->cell[i] >= lo && k->cell[i] < lo + n) {
            k->cell[i] = k->cell[--k->n];
            k->val[i] = k->val[k->n];
        } else {
            i++;
        }
}

static void known_forget(struct tc_known *k, const uint32_t *c) { known_forget_range(k, c, 1); }

/* Cell c was written: with v where is_known, else with what the build
 * cannot tell. */
static void known_store(struct tc_known *k, const uint32_t *c, int is_known, uint32_t v)
{
    known_forget(k, c);
    if (is_known && k->n < TC_KNOWN) {
        k->cell[k->n] = c;
        k->val[k->n++] = v;
    }
}

/* An operand's value where the build knows it: a constant of the trace,
 * or a cell a constant was stored in since. */
static int opd_known(const struct tc_build *b, const struct tc_known *k, int ci,
                     const uint32_t *cell, uint32_t *v)
{
    if (ci >= 0) {
        *v = b->c[ci];
        return 1;
    }
    return cell && known_at(k, cell, v);
}

/* Folds ALU uops whose operands are known when the trace is built (a
 * short literal's specifier moved into OPV, a K constant, a result of
 * such a uop) into KR, which only puts the result, A and the flags where
 * the ALU would: MTPR's tests of its register number, for one.  The
 * values follow the uops in order, as forward_r follows r; where uops are
 * entered other than from the one before (a loop's head), after anything
 * not known to leave the cells alone (a generic word, a source read at
 * run time), nothing is known.  Only words without a memory request, and
 * ALU uops without condition codes: a word whose memo check misses goes
 * through the interpreter whole, which computes the same values. */
static void fold_consts(struct tc_build *b, struct vax_machine *m, const struct tc_rec *rec)
{
    struct tc_known k = {.n = 0};
    int rknown = 0, s2known = 0;
    uint32_t rval = 0, s2val = 0;
    int head = rec->end == TC_END_LOOP ? b->w[rec->loop_to].region : -1;
    uint8_t memw[TC_MAX_WORDS] = {0};
    for (int i = 0; i < b->nu; i++) {
        unsigned op = b->u[i].u.op;
        if ((op == TU_MCK_R || op == TU_MCK_S || op == TU_MCK_P) && b->u[i].wi >= 0)
            memw[b->u[i].wi] = 1;
    }
    for (int i = 0; i < b->nu; i++) {
        if (i == head) {
            k.n = 0;
            rknown = s2known = 0;
        }
        struct tb_uop *t = &b->u[i];
        unsigned op = t->u.op;
        if (op >= TU_ALU_BASE && op < TU_ALUR_BASE) {
            unsigned j = op - TU_ALU_BASE, var = j % TC_ALU_VARS, ww = j / TC_ALU_VARS % 3;
            unsigned f = tc_alu_fns[j / TC_ALU_VARS / 3];
            uint32_t *dst = &TC_CELL(m, t->u.k);
            uint32_t va = 0, vb = 0;
            int fold = var <= 1 && (t->wi < 0 || !memw[t->wi]) &&
                       (f == UA_PASSA || f == UA_PASSB || f == UA_ADD || f == UA_SUB ||
                        f == UA_AND || f == UA_OR || f == UA_XOR || f == UA_BIC ||
                        f == UA_ZEXT || f == UA_SEXT || f == UA_SHL || f == UA_SHR ||
                        f == UA_SAR || f == UA_ROTL) &&
                       opd_known(b, &k, t->c1, t->u.p1, &va) &&
                       opd_known(b, &k, t->c2, t->u.p2, &vb);
            unsigned fl = 0;
            uint32_t rv = fold ? alu(m, f, va, vb, ww, &fl) : 0;
            if (fold && i + 1 < b->nu) { /* a guard on these flags goes the recorded way */
                const struct tb_uop *g = &b->u[i + 1];
                int way = tc_alu_guard(g->u.op, fl);
                if (way >= 0 && (var == 0 || (unsigned)way != g->u.x))
                    fold = 0;
            }
            if (fold) {
                rval = rv;
                rknown = 1;
                t->u.op = TU_KR;
                t->u.k2 = rval;
                t->u.x = (uint8_t)var;
                t->u.y = (uint8_t)fl;
            } else {
                rknown = 0;
            }
            known_store(&k, dst, fold && dst != &m->rf[RF_SINK], rval);
            continue;
        }
        switch (op) {
        case TU_ST_R:
            known_store(&k, t->u.p1, rknown, rval);
            break;
        case TU_S2:
            s2known = opd_known(b, &k, t->c1, t->u.p1, &s2val);
            break;
        case TU_ST_S:
            known_store(&k, t->u.p1, s2known, s2val);
            break;
        case TU_LDA: case TU_PSL0:
        case TU_MCK_R: case TU_MCK_S: case TU_MCK_P: case TU_WR: case TU_WROP:
        case TU_PUSH: case TU_POP:
        TC_CASE_GUARDS:
            break; /* no cell */
        TC_CASE_CC:
            known_forget(&k, &m->psl);
            break;
        case TU_STW_S: case TU_STW_R: case TU_STRN_R: case TU_STRN_S:
            known_forget(&k, t->u.p1);
            break;
        case TU_MOV: {
            uint32_t v = 0;
            int kn = opd_known(b, &k, t->c1, t->u.p1, &v);
            known_store(&k, &TC_CELL(m, t->u.k), kn, v);
            break;
        }
        case TU_MOV2: { /* (both sources read before either is written) */
            uint32_t v1 = 0, v2 = 0;
            int k1 = opd_known(b, &k, t->c1, t->u.p1, &v1);
            int k2 = opd_known(b, &k, t->c2, t->u.p2, &v2);
            known_store(&k, &TC_CELL(m, t->u.k), k1, v1);
            known_store(&k, &TC_CELL(m, t->u.k2), k2, v2);
            break;
        }
        case TU_RD:
            known_forget(&k, &m->mdr);
            known_forget(&k, &m->q);
            break;
        case TU_RDOP:
            known_forget_range(&k, m->opv, 6);
            known_forget_range(&k, m->oph, 6);
            break;
        case TU_SPEC:
            known_forget(&k, &m->r[15]);
            break;
        case TU_IB: case TU_RXS: case TU_SOPR: case TU_SLS:
            known_forget(&k, &m->r[15]);
            known_forget_range(&k, m->tc_tmp, 3);
            break;
        default: /* r, cells chosen at run time, or the interpreter */
            k.n = 0;
            rknown = s2known = 0;
            break;
        }
    }
}

/* Builds the segment the recorder left in rec. */
static struct tc_trace *build(struct vm_tcache *tc, struct vax_machine *m,
                              const struct tc_rec *rec)
{
    if (!tc->bs) {
        tc->bs = malloc(sizeof *tc->bs);
        if (!tc->bs)
            return NULL;
    }
    struct tc_build *b = tc->bs;
    b->nu = b->nc = b->ni = 0;
    b->count = 0;
    b->rcount = 0;
    b->probes = m->prb != NULL;
    int n = rec->n;
    if (rec->root && rec->spec0) { /* the decode's specifier byte */
        struct tb_uop *t = emit(b, TU_SPEC, -1);
        t->u.k = rec->byte0 | (uint32_t)rec->entry << 16;
        t->u.y = 2;
        t->img2 = add_img(b, &rec->decode);
        t->seg = 1;
        b->rcount = 1; /* (counted with the first word) */
    }
    for (int i = 0; i < n; i++) {
        const struct tc_recw *rw = &rec->w[i];
        const struct uword *w = &m->cs[rw->upc].u;
        struct tb_word *tw = &b->w[i];
        memset(tw, 0, sizeof *tw);
        struct tc_latch l = rw->pre;
        tw->pre = add_img(b, &l);
        if (w->opk != UOPK_KEEP) {
            l.opk = w->opk;
            l.lat_opk = w->opk;
            l.wdl_opk = l.cur->dt[w->opk & 7];
        }
        tw->mid = add_img(b, &l);
        if (w->misc == UX_LATCHRX && l.rn_def) {
            l.rx = l.rn;
            l.idx = 1;
            l.rx_def = 1;
        }
        tw->seq = add_img(b, &l);
        tw->w.pw = &m->cs[rw->upc];
        tw->w.upc = rw->upc;
        tw->w.next = rw->next;
        tw->w.byte = rw->byte;
        tw->w.rem = (uint32_t)(n - 1 - i);
        tw->region = b->nu;
        if (rec->end == TC_END_LOOP && i == rec->loop_to && (b->count || b->rcount)) {
            struct tb_uop *t = emit(b, TU_SYNC, -1);
            t->u.k = (uint32_t)b->count;
            t->u.k2 = (uint32_t)b->rcount;
            b->count = b->rcount = 0;
        }
        tw->uop0 = b->nu;
        int nu0 = b->nu, nc0 = b->nc;
        tw->w.pend_pre = (uint32_t)b->count;
        tw->w.rpend_pre = (uint32_t)b->rcount;
        int ok = emit_special(b, m, rec, i) == 0;
        if (!ok) {
            b->nu = nu0;
            b->nc = nc0;
            emit(b, TU_GEN, i);
            tw->w.flags = TW_GENERIC | TW_FL | TW_A | TW_PSL0;
            b->count = b->rcount = 0;
            tw->w.pend = tw->w.rpend = 0;
        } else {
            b->count++;
            for (int k = nu0; k < b->nu; k++) { /* the word's memo hits */
                unsigned op = b->u[k].u.op;
                if (op == TU_SPEC || op == TU_IB || op == TU_RD || op == TU_RDOP ||
                    op == TU_WR || op == TU_WROP)
                    b->rcount++;
            }
            tw->w.pend = (uint32_t)b->count;
            tw->w.rpend = (uint32_t)b->rcount;
        }
        if (rw->at_ird)
            tw->w.flags |= TW_IRD;
        if (rw->spec)
            tw->w.flags |= TW_SPEC;
        else
            tw->w.flags |= TW_SIDEOK;
    }
    /* the end */
    int fin = -1;
    if (rec->end == TC_END_IRD) {
        fin = add_img(b, &rec->w[n - 1].post);
        struct tb_uop *t = emit(b, TU_END, n - 1);
        t->seg = 1;
        /* the last word's counts, here: the END need not read the word */
        t->u.k = b->w[n - 1].w.pend;
        t->u.k2 = b->w[n - 1].w.rpend;
    } else if (rec->end == TC_END_LOOP) {
        struct tb_uop *t = emit(b, TU_LOOP, n - 1);
        t->target = b->w[rec->loop_to].uop0;
        t->tword = rec->loop_to;
        t->u.k = (uint32_t)(n - rec->loop_to);
    } else {
        struct tb_uop *t = emit(b, TU_EXIT, n ? n - 1 : -1);
        t->u.k = rec->exit_upc;
        t->img2 = add_img(b, &rec->exit_pre);
    }
    uint8_t ibytes[16];
    b->iline = -1;
    int ilen = rec->root ? iscan(b, m, rec, ibytes) : 0;
    const uint32_t *rend[TC_MAX_WORDS];
    fold_consts(b, m, rec);
    forward_r(b, m, rec, rend);
    if (ilen && b->iline >= 0)
        b->u[b->iline].u.op = b->u[b->iline].u.op == TU_SPEC ? TU_SPECL : TU_IBL;
    /* fuse adjacent pairs that have a handler of their own; the second
     * uop stays where it is (something may jump to it) */
#define TC_FENT(n, ca, ba, cb, bb) {ca, cb, TU_F_##n},
    static const uint16_t fused[][3] = {TC_FUSED(TC_FENT)};
#undef TC_FENT
    for (int i = 0; i < b->nu; i++)
        b->op0[i] = b->u[i].u.op;
    for (int i = 0; i + 1 < b->nu; i++) {
        size_t f;
        for (f = 0; f < sizeof fused / sizeof fused[0]; f++)
            if (b->u[i].u.op == fused[f][0] && b->u[i + 1].u.op == fused[f][1]) {
                b->u[i].u.op = fused[f][2];
                i++;
                break;
            }
        if (f < sizeof fused / sizeof fused[0] || b->u[i + 1].u.op != TU_MOV)
            continue;
        /* an ALU uop at L without flags, and a MOV: ALUM */
        unsigned op = b->u[i].u.op;
        if (op >= TU_ALU_BASE && op < TU_ALUR_BASE && (op - TU_ALU_BASE) % TC_ALU_VARS == 0 &&
            (op - TU_ALU_BASE) / TC_ALU_VARS % 3 == 2) {
            b->u[i].u.op = (uint16_t)(TU_ALUM_BASE + (op - TU_ALU_BASE) / TC_ALU_VARS / 3);
            i++;
        } else if (op >= TU_ALUR_BASE && op < TU_ALUM_BASE &&
                   (op - TU_ALUR_BASE) % TC_ALU_VARS == 0) {
            b->u[i].u.op = (uint16_t)(TU_ALUM_BASE + TCF__N + (op - TU_ALUR_BASE) / TC_ALU_VARS);
            i++;
        }
    }
#define TC_FMENT(n, ca, cb, len, body) {ca, cb, len, TU_F_##n},
    static const uint16_t more[][4] = {TC_FUSED_MORE(TC_FMENT)};
#undef TC_FMENT
    for (size_t f = 0; f < sizeof more / sizeof more[0]; f++)
        for (int i = 0; i + more[f][2] < b->nu; i++)
            if (b->u[i].u.op == more[f][0] && b->u[i + more[f][2]].u.op == more[f][1] &&
                memn_ok(b, i, more[f][3]))
                b->u[i].u.op = more[f][3];
    seq_runs(b, m, rec);
    /* one arena block, the parts the executor reads at every pass first:
     * the segment (at a host cache line), its uops, constants, images
     * (the end's among them), then the words (guards and slow ways) */
    size_t csz = ((size_t)b->nc * sizeof(uint32_t) + 15) & ~(size_t)15;
    size_t osz = tc->x ? (size_t)b->nu * sizeof(uint16_t) : 0; /* op0 */
    struct tc_trace *t =
        seg_alloc(tc, (size_t)b->nu * sizeof(struct tc_uop) + csz +
                          (size_t)b->ni * sizeof(struct tc_latch) +
                          (size_t)n * sizeof(struct tc_word) + osz);
    if (!t)
        return NULL;
    unsigned char *p = (unsigned char *)(void *)(tc_uops(t) + b->nu);
    uint32_t *consts = (uint32_t *)(void *)p;
    p += csz;
    struct tc_latch *imgs = (struct tc_latch *)(void *)p;
    p += (size_t)b->ni * sizeof(struct tc_latch);
    t->words = (struct tc_word *)(void *)p;
    p += (size_t)n * sizeof(struct tc_word);
    if (osz) { /* (the compiler may take it: its entries are counted) */
        t->op0 = (uint16_t *)(void *)p;
        for (int i = 0; i < b->nu; i++)
            t->op0[i] = (uint16_t)b->op0[i];
        t->xhot = TCX_HOT;
    }
    memcpy(imgs, b->img, (size_t)b->ni * sizeof *imgs);
    memcpy(consts, b->c, (size_t)b->nc * sizeof *consts);
    int end_uop = b->nu - 1; /* END, LOOP or EXIT */
    for (int i = 0; i < n; i++) {
        t->words[i] = b->w[i].w;
        t->words[i].after = &tc_uops(t)[i + 1 < n ? b->w[i + 1].region : end_uop];
        t->words[i].pre = &imgs[b->w[i].pre];
        t->words[i].mid = &imgs[b->w[i].mid];
        t->words[i].seq = &imgs[b->w[i].seq];
        t->words[i].rcell = rend[i];
    }
    const void *const *hs = vm_tc_handlers();
    for (int i = 0; i < b->nu; i++) {
        struct tc_uop *u = &tc_uops(t)[i];
        const struct tb_uop *s = &b->u[i];
        *u = s->u;
        u->h = hs ? hs[u->op] : NULL;
        u->wo = s->wi >= 0 ? (int32_t)((char *)&t->words[s->wi] - (char *)u) : 0;
        if (s->c1 >= 0)
            u->p1 = &consts[s->c1];
        if (s->c2 >= 0)
            u->p2 = &consts[s->c2];
        if (s->img2 >= 0)
            u->p2 = (uint32_t *)(void *)&imgs[s->img2];
        if (s->target >= 0)
            u->p1 = (uint32_t *)(void *)&tc_uops(t)[s->target];
        if (s->tword >= 0)
            u->p2 = (uint32_t *)(void *)&t->words[s->tword];
        if (s->seg)
            u->p1 = (uint32_t *)(void *)t;
    }
#if TCX_ON
    if (t->xhot && hs) /* (its entries counted, to its compile) */
        tc_uops(t)[0].h = hs[TU_H_COUNT];
#endif
    t->nuops = (uint32_t)b->nu;
    t->nwords = (uint32_t)n;
    t->bound = (uint32_t)n + 1;
    t->fin = fin >= 0 ? &imgs[fin] : NULL; /* the latches at the end: after the last word */
    t->ilen = (uint8_t)ilen;
    if (ilen) {
        uint8_t mk[16] = {0};
        memset(mk, 0xFF, (size_t)ilen);
        memcpy(&t->ib0, ibytes, 8);
        memcpy(&t->ib1, ibytes + 8, 8);
        memcpy(&t->im0, mk, 8);
        memcpy(&t->im1, mk + 8, 8);
    }
    t->pa = rec->root ? rec->key : TC_NOPA;
    t->fhp = rec->root && ilen >= 1 && ilen <= 8 ? m->mem + t->pa : NULL;
    t->opc = rec->root ? rec->opc : 0xFFFF;
    t->spec0 = (uint8_t)(rec->root && rec->spec0);
    t->smask = t->spec0 ? 2 : 3;
    t->finm = fin_mask(t->fin);
    tc->st.traces++;
    tc->st.bytes = tc->used;
    return t;
}

/* ---- the recorder ---- */

int vm_tc_trap_flow(struct vax_machine *m, uint64_t limit, int mapen, struct vm_wstep *si)
{
    if (!mapen || si->status != VM_WS_NEXT || si->remap || !m->mm_active)
        return TC_TRAP_OTHER;
    m->upc = (uint16_t)si->next;
    vm_flow_step(m, limit, si);
    if (!si->utret || m->mm_active || si->trapped || si->remap)
        return TC_TRAP_OTHER;
    if (si->utret == 2 && (si->status == VM_WS_NEXT || si->status == VM_WS_IRD))
        return TC_TRAP_SEQ;
    return si->status == VM_WS_NEXT ? TC_TRAP_WORD : TC_TRAP_OTHER;
}

int vm_tc_record(struct vax_machine *m, uint64_t limit, int mapen, struct tc_rec *rec,
                 int rn_def, int rx_def, struct vm_wstep *si, struct tc_trace **out)
{
    struct vm_tcache *tc = m->tc;
    *out = NULL;
    rec->n = 0;
    int status;
    for (;;) {
        if (rec->n == TC_MAX_WORDS) {
            rec->end = TC_END_EXIT;
            rec->exit_upc = m->upc;
            vm_tc_latch_get(m, &rec->exit_pre, rn_def, rx_def);
            status = TC_REC_MID;
            break;
        }
        struct tc_recw *rw = &rec->w[rec->n];
        rw->upc = m->upc;
        rw->r15 = m->r[15];
        vm_tc_latch_get(m, &rw->pre, rn_def, rx_def);
        rw->usp = (uint8_t)m->usp;
        memcpy(rw->ustack, m->ustack, sizeof rw->ustack);
        for (int i = m->usp; i < USTACK_DEPTH; i++)
            rw->ustack[i] = 0;
        /* back at a word already recorded, in the same state: a loop */
        int j;
        for (j = 0; j < rec->n; j++) {
            const struct tc_recw *o = &rec->w[j];
            if (o->upc == rw->upc && o->usp == rw->usp &&
                !memcmp(o->ustack, rw->ustack, sizeof o->ustack) &&
                !memcmp(&o->pre, &rw->pre, sizeof o->pre))
                break;
        }
        if (j < rec->n) {
            rec->end = TC_END_LOOP;
            rec->loop_to = j;
            status = TC_REC_MID;
            break;
        }
        const struct uword *w = &m->cs[rw->upc].u;
        int spec = consumes_byte(w, &rw->pre);
        vm_word_step(m, limit, mapen, si);
        if (si->status == VM_WS_STOP)
            return TC_REC_STOP;
        if (si->status == VM_WS_LIMIT)
            return TC_REC_LIMIT;
        if (si->remap)
            return TC_REC_REMAP;
        if (si->trapped) {
            /* a TB miss: the trap's flow is not the path; where its UTRET
             * starts the word again, the word is recorded from its start
             * (a fault, a trap in the sequencing only, or any other
             * microtrap: nothing recorded) */
            if (vm_tc_trap_flow(m, limit, mapen, si) == TC_TRAP_WORD)
                continue;
            switch (si->status) {
            case VM_WS_STOP: return TC_REC_STOP;
            case VM_WS_LIMIT: return TC_REC_LIMIT;
            default: break;
            }
            if (si->remap)
                return TC_REC_REMAP;
            return si->status == VM_WS_IRD ? TC_REC_IRD : TC_REC_MID;
        }
        if (spec)
            rn_def = 1;
        if (w->misc == UX_LATCHRX && rn_def)
            rx_def = 1;
        vm_tc_latch_get(m, &rw->post, rn_def, rx_def);
        rw->r15_post = m->r[15];
        rw->spec = (uint8_t)spec;
        rw->byte = (uint8_t)m->specb;
        rw->usp_post = (uint8_t)m->usp;
        rw->at_ird = si->status == VM_WS_IRD;
        rw->next = rw->at_ird ? 0 : (uint16_t)si->next;
        rec->n++;
        if (rw->at_ird) {
            rec->end = TC_END_IRD;
            status = TC_REC_IRD;
            break;
        }
    }
    if (!tc->flush_pending) {
        *out = build(tc, m, rec);
        if (*out) {
            tc->st.recorded++;
            if (rec->root)
                tc_insert(tc, *out);
            else
                tc->st.side_recorded++;
        }
    }
    return status;
}
