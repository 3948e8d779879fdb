/* The host's executor of installed routines (probe_exec.h): probe.mic's
 * interpreter, instruction by instruction, in C. */
#include "microcode/le.h"
#include "vax/probe/probe_exec.h"

#include "vax/probe/probe_install.h"
#include "vax/probe/probe_isa.h"

#include <string.h>

/* The region's bytes at [pa, pa + n), or NULL outside it. */
static uint8_t *at(const struct prb_host *h, uint32_t pa, uint32_t n)
{
    if (pa < h->region_pa || pa - h->region_pa > h->region_len ||
        h->region_len - (pa - h->region_pa) < n)
        return NULL;
    return h->region + (pa - h->region_pa);
}

static int32_t sdiv(int32_t a, int32_t b, int *ok)
{
    if (b == 0 || (a == INT32_MIN && b == -1)) {
        *ok = 0;
        return 0;
    }
    *ok = 1;
    return a / b;
}

static int32_t smod(int32_t a, int32_t b)
{
    if (b == 0 || (a == INT32_MIN && b == -1))
        return 0;
    return a % b;
}

static uint32_t alu(unsigned f, uint32_t a, uint32_t b)
{
    int ok;
    switch (f) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a & b;
    case 3: return a | b;
    case 4: return a ^ b;
    case 5: return (b & 63) >= 32 ? 0 : a << (b & 31);
    case 6: return (b & 63) >= 32 ? 0 : a >> (b & 31);
    case 7: return (uint32_t)((int32_t)a >> ((b & 63) > 31 ? 31 : (b & 63)));
    case 8: return (uint32_t)((int64_t)(int32_t)a * (int32_t)b);
    case 9: return (uint32_t)sdiv((int32_t)a, (int32_t)b, &ok);
    default: return (uint32_t)smod((int32_t)a, (int32_t)b);
    }
}

/* The branch conditions after SUB(a, b), as the ALU flags give them. */
static int cond(unsigned c, uint32_t a, uint32_t b)
{
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    switch (c) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return sa < sb;
    case 3: return sa <= sb;
    case 4: return sa > sb;
    case 5: return sa >= sb;
    case 6: return a < b;
    case 7: return a <= b;
    case 8: return a > b;
    default: return a >= b;
    }
}

/* A 64-bit little-endian add at p (a count or a sum). */
static void add64(uint8_t *p, int64_t v)
{
    uint64_t x = le_get32(p) | (uint64_t)le_get32(p + 4) << 32;
    x += (uint64_t)v;
    le_put32(p, (uint32_t)x);
    le_put32(p + 4, (uint32_t)(x >> 32));
}

/* AGG: the map whose descriptor is at maps_pa + x, slot key, value v. */
static int agg(const struct prb_host *h, uint32_t maps_pa, uint32_t x, uint32_t key, uint32_t v)
{
    const uint8_t *dsc = at(h, maps_pa + x, PRB_MAPDESC_BYTES);
    if (!dsc)
        return -1;
    uint32_t base = le_get32(dsc), keys = le_get32(dsc + 4), kind = le_get32(dsc + 8);
    uint32_t slotb = le_get32(dsc + 12);
    if (key >= keys)
        key = keys;
    uint32_t sa = base + (uint32_t)((int32_t)key * (int32_t)slotb);
    uint8_t *s;
    int32_t sv = (int32_t)v;
    switch (kind) {
    case PRB_M_COUNT:
        if (!(s = at(h, sa, 8)))
            return -1;
        add64(s, 1);
        return 0;
    case PRB_M_SUM:
        if (!(s = at(h, sa, 8)))
            return -1;
        add64(s, sv);
        return 0;
    case PRB_M_MIN: case PRB_M_MAX: {
        if (!(s = at(h, sa, 8)))
            return -1;
        uint32_t n = le_get32(s);
        int32_t cur = (int32_t)le_get32(s + 4);
        le_put32(s, n + 1);
        if (n == 0 || (kind == PRB_M_MIN ? sv < cur : sv > cur))
            le_put32(s + 4, v);
        return 0;
    }
    case PRB_M_STATS:
        if (!(s = at(h, sa, 24)))
            return -1;
        add64(s, 1);
        add64(s + 8, sv);
        if (sv < (int32_t)le_get32(s + 16))
            le_put32(s + 16, v);
        if (sv > (int32_t)le_get32(s + 20))
            le_put32(s + 20, v);
        return 0;
    case PRB_M_HIST: {
        uint32_t b = v ? 32u - (uint32_t)__builtin_clz(v) : 0;
        if (!(s = at(h, sa + 4 * b, 4)))
            return -1;
        le_put32(s, le_get32(s) + 1);
        return 0;
    }
    case PRB_M_LHIST: {
        int32_t lmin = (int32_t)le_get32(dsc + 16);
        uint32_t step = le_get32(dsc + 20), nb = le_get32(dsc + 24), b;
        if ((int64_t)sv < lmin) {
            b = 0;
        } else {
            uint32_t q = step ? (v - (uint32_t)lmin) / step : 0;
            b = (q < nb ? q : nb) + 1;
        }
        if (!(s = at(h, sa + 4 * b, 4)))
            return -1;
        le_put32(s, le_get32(s) + 1);
        return 0;
    }
    default: return -1;
    }
}

/* LDM, STM: the first quadword of a count or sum map's slot. */
static uint8_t *var_slot(const struct prb_host *h, uint32_t maps_pa, uint32_t x, uint32_t key)
{
    const uint8_t *dsc = at(h, maps_pa + x, PRB_MAPDESC_BYTES);
    if (!dsc)
        return NULL;
    uint32_t base = le_get32(dsc), keys = le_get32(dsc + 4), slotb = le_get32(dsc + 12);
    if (key >= keys)
        key = keys;
    return at(h, base + (uint32_t)((int32_t)key * (int32_t)slotb), 8);
}

unsigned prb_exec(const struct prb_host *h, uint32_t code_pa, uint32_t maps_pa)
{
    uint32_t ls[256];
    memset(ls, 0, sizeof ls);
    uint32_t pc = code_pa;
    for (unsigned n = 0;; n++) {
        const uint8_t *ip = at(h, pc, PRB_INSN_BYTES);
        if (!ip || n > 65536) { /* (a verified routine never gets here) */
            h->command(h->ctx, PRB_IPR_ERR, 0, 0);
            return n;
        }
        struct prb_decoded d;
        prb_decode_installed(ip, &d);
        pc += PRB_INSN_BYTES;
        uint32_t *ra = &ls[d.la], rb = ls[d.lb];
        enum prb_form f = prb_form(d.op);
        switch (f) {
        case PRB_F_NONE:
            if (d.op == PRB_EXIT)
                return n + 1;
            h->trace(h->ctx, d.op == PRB_TRON);
            continue;
        case PRB_F_RI:
            *ra = d.op == PRB_LDI ? d.hi : alu(d.op - PRB_ADD - PRB_IMM, *ra, d.hi);
            continue;
        case PRB_F_RR:
            *ra = d.op == PRB_MOV ? rb : alu(d.op - PRB_ADD, *ra, rb);
            continue;
        case PRB_F_CTX: {
            unsigned sel = d.hi & 0x7F;
            if (!prb_ctx_name(sel))
                break;
            *ra = h->value(h->ctx, sel);
            continue;
        }
        case PRB_F_MEM: case PRB_F_ABS: {
            uint32_t addr = f == PRB_F_ABS ? d.hi : rb + (uint32_t)((int32_t)d.hi >> 8);
            uint32_t size = d.x, w;
            if (size != 1 && size != 2 && size != 4)
                break;
            int rc = (addr & (size - 1)) ? -1
                     : d.op == PRB_LDP ? h->pread(h->ctx, addr & 0x3FFFFFFCu, &w)
                                       : h->vread(h->ctx, addr & ~3u, &w);
            if (rc) {
                *ra = 0;
                h->command(h->ctx, PRB_IPR_ERR, 0, 0);
                continue;
            }
            w >>= (addr & 3) * 8;
            *ra = size == 4 ? w : w & (size == 1 ? 0xFFu : 0xFFFFu);
            continue;
        }
        case PRB_F_REC: {
            unsigned cnt = d.x & 0xF, first = d.la;
            uint32_t v[16];
            for (unsigned i = 0; i < cnt; i++)
                v[i] = ls[(first + i) & 0xFF];
            h->record(h->ctx, d.x & 0xFFF, v, cnt);
            continue;
        }
        case PRB_F_AGG:
            if (agg(h, maps_pa, d.x, *ra, rb))
                break;
            continue;
        case PRB_F_LDM: case PRB_F_STM: {
            uint8_t *s = var_slot(h, maps_pa, d.x, rb);
            if (!s)
                break;
            if (f == PRB_F_LDM) {
                *ra = le_get32(s);
            } else {
                le_put32(s, *ra);
                le_put32(s + 4, (uint32_t)((int32_t)*ra >> 31));
            }
            continue;
        }
        case PRB_F_WATCH:
            h->command(h->ctx, PRB_IPR_WATCH, d.x, *ra);
            continue;
        case PRB_F_PROBE:
            h->command(h->ctx, d.op == PRB_ARM ? PRB_IPR_ARM : PRB_IPR_DISARM, d.x, 0);
            continue;
        case PRB_F_NOTE:
            h->command(h->ctx, PRB_IPR_NOTE, d.hi, 0);
            continue;
        case PRB_F_JMP:
            pc += d.x;
            continue;
        case PRB_F_BRR: case PRB_F_BRI: {
            uint32_t b = f == PRB_F_BRR ? rb : d.hi;
            if (cond(((d.op & 0x1F) >> 1), *ra, b))
                pc += d.x;
            continue;
        }
        default:
            break;
        }
        /* an instruction probe.mic's PRB.BAD ends */
        h->command(h->ctx, PRB_IPR_ERR, 0, 0);
        return n + 1;
    }
}
