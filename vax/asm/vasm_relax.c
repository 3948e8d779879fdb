/* vasm: gas-compatible relaxation of one section of one file, conversion
 * of relaxed items to bytes, and the linking step (symbol values across
 * files, application of fixups).  Part of the assembler (see vasm_int.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "vasm_int.h"

/* ------------------------------------------------------------------ */
/* relaxation (gas's relax_segment, for one section of one file)        */

struct rtab {
    int32_t fwd, back;
    int len, more;
};
/* indexed [rtype][rlen]; more = next rlen or -1 */
static const struct rtab rtab[6][3] = {
    [RT_PCREL] = {{129, -126, 2, RL_WORD}, {32770, -32765, 3, RL_LONG}, {0, 0, 5, -1}},
    [RT_COND] = {{128, -127, 1, RL_WORD}, {32771, -32764, 4, RL_LONG}, {0, 0, 7, -1}},
    [RT_ALWAYS] = {{128, -127, 1, RL_WORD}, {32769, -32766, 2, RL_LONG}, {0, 0, 5, -1}},
    [RT_COMPLEX] = {{1, 1, 0, -1}, {32769, -32766, 2, RL_LONG}, {0, 0, 10, -1}},
    [RT_HOP] = {{128, -127, 1, RL_WORD}, {32773, -32762, 6, RL_LONG}, {0, 0, 9, -1}},
};

static uint32_t relax_align(uint32_t addr, int p2)
{
    uint32_t mask = (1u << p2) - 1;
    return ((addr + mask) & ~mask) - addr;
}
static uint32_t align_size(const struct item *it, uint32_t addr)
{
    uint32_t off = relax_align(addr, it->p2);
    if (it->max && off > it->max)
        off = 0;
    return off;
}

/* value of a symbol during relaxation: its section offset as known now */
static int64_t relax_symval(struct file *f, sym *s, int64_t *add, int *same_sec,
                            int cur, int *item)
{
    sym *b = vasm_sym_base(s, add);
    *item = -1;
    *same_sec = 0;
    if (b->kind == SK_ABS)
        return b->val;
    if (b->kind == SK_LABEL) {
        *same_sec = b->sec == cur;
        if (*same_sec)
            *item = b->item;
        return (int64_t)f->sec[b->sec].it[b->item].addr + b->off;
    }
    return 0;
}

/* Address arithmetic on expression values wraps modulo 2^64 (an input
 * may hold any value; signed overflow would be undefined in C). */
static inline int64_t wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t wsub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }

/* A .org target, clamped to the 32-bit address space: beyond it the
 * program is too large anyway, which vasm_assemble reports. */
static int64_t org_target(const struct section *s, const struct item *it)
{
    int64_t t = it->target.k;
    if (it->target.nt)
        t = wadd(t, (int64_t)s->it[it->target.t[0].s->item].addr + it->target.t[0].s->off);
    return t < 0 ? 0 : t > (int64_t)UINT32_MAX ? (int64_t)UINT32_MAX : t;
}

void vasm_relax_section(struct file *f, int secno)
{
    struct section *s = &f->sec[secno];
    uint32_t addr = 0;
    int region = 0;
    for (int i = 0; i < s->n; i++) {
        struct item *it = &s->it[i];
        it->addr = addr;
        it->region = region;
        switch (it->kind) {
        case IT_FIXED: it->size = it->n; break;
        case IT_VAR: it->size = (uint32_t)rtab[it->rtype][it->rlen].len; break;
        case IT_ALIGN:
            it->size = align_size(it, addr);
            region++;
            break;
        case IT_ORG:
            it->size = 0; /* grows on the first pass */
            region++;
            break;
        }
        addr += it->size;
    }
    long maxit = (long)s->n * s->n + 10;
    int stretched;
    do {
        int64_t stretch = 0;
        stretched = 0;
        for (int i = 0; i < s->n; i++) {
            struct item *it = &s->it[i];
            uint32_t was = it->addr;
            it->addr = (uint32_t)(it->addr + stretch);
            int64_t growth = 0;
            switch (it->kind) {
            case IT_FIXED: break;
            case IT_ALIGN: {
                uint32_t o = align_size(it, was), nw = align_size(it, it->addr);
                growth = (int64_t)nw - (int64_t)o;
                break;
            }
            case IT_ORG: {
                int64_t after = (int64_t)it->addr + it->size; /* next item, moved */
                it->org = org_target(s, it);
                int64_t g = it->org - after;
                if (it->addr > it->org)
                    g = 0; /* reported at layout */
                growth = g;
                break;
            }
            case IT_VAR: {
                if (!it->relaxable)
                    break;
                int64_t add = it->target.k;
                int same, sitem;
                int64_t target = add;
                int64_t v = relax_symval(f, it->target.t[0].s, &target, &same, secno, &sitem);
                target += v;
                int64_t address = it->addr;
                if (stretch != 0 && same && sitem > i) {
                    /* symbol not reached yet in this pass */
                    if (stretch < 0 || s->it[sitem].region == it->region)
                        target = wadd(target, stretch);
                    else if (target < address)
                        break;
                }
                int64_t aim = wsub(target, address);
                int st = it->rlen, start = st;
                if (aim < 0) {
                    while (rtab[it->rtype][st].more >= 0 && aim < rtab[it->rtype][st].back)
                        st = rtab[it->rtype][st].more;
                } else {
                    while (rtab[it->rtype][st].more >= 0 && aim > rtab[it->rtype][st].fwd)
                        st = rtab[it->rtype][st].more;
                }
                growth = rtab[it->rtype][st].len - rtab[it->rtype][start].len;
                it->rlen = st;
                break;
            }
            }
            if (growth) {
                it->size = (uint32_t)((int64_t)it->size + growth);
                stretch = wadd(stretch, growth);
                stretched = 1;
            }
        }
    } while (stretched && --maxit > 0);
    /* 64-bit, so that several .org items near 4 GB cannot wrap the
     * section's size back to a small number (a fuzzer found one). */
    uint64_t end = 0;
    for (int i = 0; i < s->n; i++) {
        /* final sizes of alignment/org from final addresses */
        struct item *it = &s->it[i];
        it->addr = end < UINT32_MAX ? (uint32_t)end : UINT32_MAX;
        if (it->kind == IT_ALIGN)
            it->size = align_size(it, it->addr);
        if (it->kind == IT_ORG) {
            it->org = org_target(s, it);
            it->size = it->org >= (int64_t)end ? (uint32_t)(it->org - (int64_t)end) : 0;
        }
        end += it->size;
    }
    /* Anything past the largest image is refused at layout (vasm.c);
     * saturate so that refusal sees it. */
    s->size = end > VASM_MAX_IMAGE ? VASM_MAX_IMAGE + 1u : (uint32_t)end;
}

/* gas's md_estimate_size_before_relax: decide forward references */
void vasm_estimate(struct file *f, int secno)
{
    struct section *s = &f->sec[secno];
    for (int i = 0; i < s->n; i++) {
        struct item *it = &s->it[i];
        if (it->kind != IT_VAR || !it->undf)
            continue;
        int64_t add = 0;
        sym *b = vasm_sym_base(it->target.t[0].s, &add);
        if (b->kind == SK_LABEL && b->sec == secno && !b->global &&
            !it->target.t[0].s->global) {
            it->rlen = it->rtype == RT_COMPLEX ? RL_WORD : RL_BYTE;
        } else {
            it->rlen = RL_LONG;
            it->relaxable = 0;
        }
        it->undf = 0;
    }
}

/* turn a relaxed variable item into bytes and fixups */
void vasm_convert_var(struct section *s, struct item *it)
{
    uint8_t b[12];
    int n = 0, fxoff = 0, fxsize = 0, kind = FX_BRANCH;
    uint8_t *opb = it->rtype == RT_PCREL ? NULL : &s->it[it->op_item].b[it->op_off];
    switch (it->rtype) {
    case RT_PCREL:
        kind = FX_DISP;
        b[n++] = (uint8_t)((it->rlen == RL_BYTE ? 0xaf : it->rlen == RL_WORD ? 0xcf : 0xef) |
                           it->at);
        fxoff = 1;
        fxsize = it->rlen == RL_BYTE ? 1 : it->rlen == RL_WORD ? 2 : 4;
        break;
    case RT_COND:
        if (it->rlen == RL_BYTE) {
            fxsize = 1;
        } else if (it->rlen == RL_WORD) {
            *opb ^= 1;
            b[n++] = 3;
            b[n++] = 0x31;
            fxoff = 2;
            fxsize = 2;
        } else {
            *opb ^= 1;
            b[n++] = 6;
            b[n++] = 0x17;
            b[n++] = 0xef;
            fxoff = 3;
            fxsize = 4;
        }
        break;
    case RT_ALWAYS:
        if (it->rlen == RL_BYTE)
            fxsize = 1;
        else if (it->rlen == RL_WORD) {
            *opb = (uint8_t)(*opb + 0x20);
            fxsize = 2;
        } else {
            *opb = (uint8_t)(*opb + 6);
            b[n++] = 0xef;
            fxoff = 1;
            fxsize = 4;
        }
        break;
    case RT_COMPLEX:
        if (it->rlen == RL_WORD)
            fxsize = 2;
        else {
            static const uint8_t seq[] = {2, 0, 0x11, 6, 0x17, 0xef};
            memcpy(b, seq, sizeof seq);
            n = 6;
            fxoff = 6;
            fxsize = 4;
        }
        break;
    case RT_HOP:
        if (it->rlen == RL_BYTE)
            fxsize = 1;
        else if (it->rlen == RL_WORD) {
            static const uint8_t seq[] = {2, 0x11, 3, 0x31};
            memcpy(b, seq, sizeof seq);
            n = 4;
            fxoff = 4;
            fxsize = 2;
        } else {
            static const uint8_t seq[] = {2, 0x11, 6, 0x17, 0xef};
            memcpy(b, seq, sizeof seq);
            n = 5;
            fxoff = 5;
            fxsize = 4;
        }
        break;
    }
    memset(b + n, 0, (size_t)fxsize);
    it->n = 0;
    vasm_emit_bytes(it, b, (uint32_t)(n + fxsize));
    vasm_add_fixup(it, (uint32_t)fxoff, fxsize, 1, kind, &it->target, it->line, it->mn);
}

/* ------------------------------------------------------------------ */
/* linking                                                             */

static sym *find_global(struct as *a, const char *name)
{
    for (int i = 0; i < a->nfiles; i++) {
        sym *s = vasm_sym_find(&a->files[i], name);
        if (s && s->global && s->kind != SK_UNDEF)
            return s;
    }
    return NULL;
}

int vasm_sym_value(struct as *a, struct file *f, sym *s, int64_t *v, int line)
{
    int64_t add = 0;
    sym *b = vasm_sym_base(s, &add);
    struct file *bf = f;
    if (b->kind == SK_UNDEF) {
        sym *g = find_global(a, b->name);
        if (!g || b->resolving) {
            if (!b->reported) {
                b->reported = 1;
                if (b->name[0] >= '0' && b->name[0] <= '9' && strchr(b->name, '\001'))
                    vasm_errat(a, f, line, "undefined local label %.*sf",
                               (int)strcspn(b->name, "\001"), b->name);
                else
                    vasm_errat(a, f, line, "undefined symbol '%s'", b->name);
            }
            return -1;
        }
        /* find the file of g */
        for (int i = 0; i < a->nfiles; i++)
            if (vasm_sym_find(&a->files[i], b->name) == g)
                bf = &a->files[i];
        b->resolving = 1;
        int r = vasm_sym_value(a, bf, g, v, line);
        b->resolving = 0;
        *v += add;
        return r;
    }
    if (b->kind == SK_ABS) {
        *v = b->val + add;
        return 0;
    }
    if (b->kind == SK_LABEL) {
        /* find the file that owns b (labels are per file) */
        struct file *of = f;
        if (vasm_sym_find(f, b->name) != b)
            for (int i = 0; i < a->nfiles; i++)
                if (vasm_sym_find(&a->files[i], b->name) == b)
                    of = &a->files[i];
        struct section *sc = &of->sec[b->sec];
        /* wraps modulo 2^64 like all expression arithmetic (vasm_expr.c) */
        *v = (int64_t)((uint64_t)sc->base + sc->it[b->item].addr + b->off + (uint64_t)add);
        return 0;
    }
    return -1;
}

int vasm_apply_fixups(struct as *a, struct file *f, struct section *sc, uint8_t *img,
                      uint32_t imgbase)
{
    int bad = 0;
    for (int i = 0; i < sc->n; i++) {
        struct item *it = &sc->it[i];
        for (int j = 0; j < it->nfx; j++) {
            struct fixup *x = &it->fx[j];
            int64_t v = x->e.k;
            int ok = 1;
            for (int k = 0; k < x->e.nt; k++) {
                int64_t sv;
                if (vasm_sym_value(a, f, x->e.t[k].s, &sv, x->line)) {
                    ok = 0;
                    break;
                }
                v += x->e.t[k].c * sv;
            }
            if (!ok) {
                bad = 1;
                continue;
            }
            uint32_t where = sc->base + it->addr + x->off;
            if (x->pcrel)
                v = wsub(v, (int64_t)where + x->size);
            if (x->size < 8) {
                int64_t slo = -((int64_t)1 << (8 * x->size - 1));
                int64_t shi = ((int64_t)1 << (8 * x->size - 1)) - 1;
                int64_t uhi = ((int64_t)1 << (8 * x->size)) - 1;
                int signed_only = x->pcrel || x->kind == FX_DISP;
                if (x->size == 4 && !x->pcrel)
                    signed_only = 0, v = (int64_t)(int32_t)(uint32_t)v;
                if (v < slo || v > (signed_only ? shi : uhi)) {
                    if (x->kind == FX_BRANCH)
                        vasm_errat(a, f, x->line,
                                   "branch target out of range for %s (displacement %" PRId64 ")",
                                   x->mn, v);
                    else if (x->kind == FX_DISP)
                        vasm_errat(a, f, x->line,
                                   "displacement %" PRId64 " out of range for a %d-byte field in %s",
                                   v, x->size, x->mn);
                    else
                        vasm_errat(a, f, x->line, "value %" PRId64 " does not fit in %d byte%s", v,
                                   x->size, x->size > 1 ? "s" : "");
                    bad = 1;
                    continue;
                }
            }
            if (sc->base != 0 || img) {
                uint8_t *p = img + (where - imgbase);
                for (int k = 0; k < x->size; k++)
                    p[k] = (uint8_t)((uint64_t)v >> (8 * k));
            }
        }
    }
    return bad;
}

void vasm_free_file(struct file *f)
{
    for (int s = 0; s < NSEC; s++) {
        for (int i = 0; i < f->sec[s].n; i++) {
            free(f->sec[s].it[i].b);
            free(f->sec[s].it[i].fx);
        }
        free(f->sec[s].it);
    }
    for (sym *s = f->all, *n; s; s = n) {
        n = s->anext;
        free(s->name);
        free(s);
    }
    free(f->nl);
    free(f->lr);
}
