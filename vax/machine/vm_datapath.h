/* The data path's parts (MICROARCHITECTURE.md §3.2, §3.3), inline: the
 * ALU and shifter, the condition-code control, the register file's
 * byte/word write enables, the widths.  The microword interpreter
 * (vm_interp.c) and the trace cache's handlers (vm_tcache_exec.c, which
 * instantiate them with constant functions and widths) share them. */
#ifndef VAX_MACHINE_VM_DATAPATH_H
#define VAX_MACHINE_VM_DATAPATH_H

#include <stdint.h>

#include "vax/machine/vm_hint.h"
#include "vax/machine/vm_internal.h"

/* (Field values out of range never reach the sequencer: uword_unpack
 * rejects such an image, so the switches below need no range checks.) */

#define PSL_C 1u
#define PSL_V 2u
#define PSL_Z 4u
#define PSL_N 8u
#define PSL_T 0x10u
#define PSL_IV 0x20u
#define PSL_FU 0x40u
#define PSL_DV 0x80u
#define PSL_TP 0x40000000u
#define PSL_IPL_BITS 0x001F0000u /* PSL<20:16> */
#define PSL_CUR_BITS 0x03000000u /* PSL<25:24>, the current mode */

enum { F_C = 1, F_V = 2, F_Z = 4, F_N = 8 };

/* Widths 0-4: B W L Q O.  The ALU works at L for Q and O (§3.2). */
static const uint32_t width_mask[5] = {0xFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF};
static const uint32_t width_sign[5] = {0x80, 0x8000, 0x80000000, 0x80000000, 0x80000000};
static const unsigned width_size[5] = {1, 2, 4, 8, 16};
static const unsigned width_log[5] = {0, 1, 2, 3, 4};

static ALWAYS_INLINE void gpr_write(uint32_t *r, uint32_t v, unsigned wd)
{
    if (wd == 0)
        *r = (*r & ~0xFFu) | (v & 0xFF);
    else if (wd == 1)
        *r = (*r & ~0xFFFFu) | (v & 0xFFFF);
    else
        *r = v;
}

/* The value a write of n bytes takes from MDR (with Q above it for 8).
 * Each is read as its own 4 bytes: GCC would otherwise load MDR and Q,
 * neighbours in rf[], as one 8-byte word, and a word that has just
 * stored MDR (4 bytes) then waits for that store to reach the host's
 * cache, since a load wider than the store before it cannot take its
 * data from the store buffer (every push of CALLS did, 7% of its time). */
static ALWAYS_INLINE uint64_t mdr_q(const struct vax_machine *m, unsigned n)
{
    uint32_t lo = m->mdr;
    if (n <= 4)
        return lo;
#if defined(__GNUC__)
    __asm__("" : "+r"(lo)); /* (not one load with Q's) */
#endif
    return (uint64_t)m->q << 32 | lo;
}

static ALWAYS_INLINE unsigned nz(uint32_t r, uint32_t sign)
{
    return (r & sign ? F_N : 0) | (r == 0 ? F_Z : 0);
}

static ALWAYS_INLINE uint32_t sext(uint32_t v, unsigned wd)
{
    if (wd == 0) return (uint32_t)(int32_t)(int8_t)v;
    if (wd == 1) return (uint32_t)(int32_t)(int16_t)v;
    return v;
}

/* The ALU and shifter: result at width wd; flags in *fl. */
static ALWAYS_INLINE uint32_t alu(struct vax_machine *m, unsigned f, uint32_t a, uint32_t b,
                    unsigned wd, unsigned *fl)
{
    uint32_t mask = width_mask[wd], sign = width_sign[wd], r;
    unsigned c = 0, v = 0;
    switch (f) {
    case UA_PASSA: r = a & mask; break;
    case UA_PASSB: r = b & mask; break;
    case UA_ADD: case UA_ADC: {
        uint64_t s = (uint64_t)(a & mask) + (b & mask) +
                     (f == UA_ADC ? (m->psl & PSL_C) : 0);
        r = (uint32_t)s & mask;
        c = (unsigned)(s >> (8 * width_size[wd > 2 ? 2 : wd])) & 1;
        v = ((a ^ r) & (b ^ r) & sign) != 0;
        break;
    }
    case UA_SUB: case UA_SBC: {
        uint64_t bb = (uint64_t)(b & mask) + (f == UA_SBC ? (m->psl & PSL_C) : 0);
        r = (uint32_t)((a & mask) - bb) & mask;
        c = (a & mask) < bb;
        v = ((a ^ b) & (a ^ r) & sign) != 0;
        break;
    }
    case UA_AND: r = a & b & mask; break;
    case UA_OR: r = (a | b) & mask; break;
    case UA_XOR: r = (a ^ b) & mask; break;
    case UA_BIC: r = a & ~b & mask; break;
    case UA_NOT: r = ~a & mask; break;
    case UA_SEXT: r = sext(a, wd); *fl = nz(r, 0x80000000u); return r;
    case UA_ZEXT: r = a & mask; *fl = nz(r, 0x80000000u); return r;
    case UA_TRUNC:
        r = a & mask;
        v = sext(r, wd) != a;
        break;
    case UA_MUL: {
        int64_t p = (int64_t)(int32_t)sext(a & mask, wd) *
                    (int64_t)(int32_t)sext(b & mask, wd);
        r = (uint32_t)p & mask;
        m->q = (uint32_t)((uint64_t)p >> 32);
        v = (int64_t)(int32_t)sext(r, wd) != p;
        break;
    }
    case UA_MULU: {
        uint64_t p = (uint64_t)a * b;
        r = (uint32_t)p;
        m->q = (uint32_t)(p >> 32);
        break;
    }
    case UA_DIV:
        if (wd == 3) {
            int64_t dd = (int64_t)((uint64_t)m->q << 32 | a);
            int32_t dv = (int32_t)b;
            if (dv == 0 || (dd == INT64_MIN && dv == -1)) {
                r = a;
                v = 1;
                m->q = 0;
            } else {
                int64_t qu = dd / dv;
                if (qu > INT32_MAX || qu < INT32_MIN) {
                    r = a;
                    v = 1;
                    m->q = 0;
                } else {
                    r = (uint32_t)qu;
                    m->q = (uint32_t)(dd % dv);
                }
            }
            *fl = nz(r, 0x80000000u) | (v ? F_V : 0);
            return r;
        } else {
            int32_t x = (int32_t)sext(a & mask, wd), y = (int32_t)sext(b & mask, wd);
            int32_t minv = (int32_t)sext(sign, wd);
            if (y == 0 || (x == minv && y == -1)) {
                r = a & mask;
                v = 1;
            } else {
                r = (uint32_t)(x / y) & mask;
                m->q = (uint32_t)(x % y);
            }
        }
        break;
    case UA_SHL: r = (b & 63) >= 32 ? 0 : (a << (b & 31)) & mask; break;
    case UA_SHR: r = (b & 63) >= 32 ? 0 : ((a & mask) >> (b & 31)); break;
    case UA_SAR: {
        int32_t x = (int32_t)sext(a & mask, wd);
        unsigned n = b & 63;
        r = (uint32_t)(x >> (n > 31 ? 31 : n)) & mask;
        break;
    }
    case UA_SHLQ: case UA_SHRQ: {
        uint64_t x = (uint64_t)m->q << 32 | a;
        unsigned n = b & 63;
        x = f == UA_SHLQ ? x << n : x >> n;
        r = (uint32_t)x;
        m->q = (uint32_t)(x >> 32);
        break;
    }
    case UA_ASH: {
        int32_t x = (int32_t)a;
        int cnt = (int8_t)(b & 0xFF);
        if (cnt >= 0) {
            r = cnt > 31 ? 0 : (uint32_t)x << cnt;
            v = cnt > 31 ? x != 0 : ((int32_t)r >> cnt) != x;
        } else {
            r = (uint32_t)(x >> (-cnt > 31 ? 31 : -cnt));
        }
        *fl = nz(r, 0x80000000u) | (v ? F_V : 0);
        return r;
    }
    case UA_ASHQ: {
        int64_t x = (int64_t)((uint64_t)m->q << 32 | a), y;
        int cnt = (int8_t)(b & 0xFF);
        if (cnt >= 0) {
            y = cnt > 63 ? 0 : (int64_t)((uint64_t)x << cnt);
            v = cnt > 63 ? x != 0 : (y >> cnt) != x;
        } else {
            y = x >> (-cnt > 63 ? 63 : -cnt);
        }
        r = (uint32_t)y;
        m->q = (uint32_t)((uint64_t)y >> 32);
        *fl = nz(r, 0x80000000u) | (v ? F_V : 0);
        return r;
    }
    case UA_ROTL: {
        unsigned n = b & 31;
        r = n ? (a << n) | (a >> (32 - n)) : a;
        break;
    }
    case UA_MASK: r = (b & 63) >= 32 ? 0xFFFFFFFFu : (1u << (b & 63)) - 1; break;
    case UA_FFS: case UA_FFC: {
        unsigned n = b & 63, i;
        uint32_t x = f == UA_FFS ? a : ~a;
        if (n > 32) n = 32;
        for (i = 0; i < n && !(x >> i & 1); i++)
            ;
        r = i;
        *fl = i == n ? F_Z : 0;
        return r;
    }
    case UA_BIT: r = (a >> (b & 31)) & 1; break;
    case UA_HMRG: r = (a & 0xFFFF0000u) | (b & 0xFFFFu); break;
    case UA_PACK: r = a << 16 | (b & 0xFFFFu); break;
    case UA_CLZ: /* leading zeros of the 32-bit A: the normaliser's count */
        r = a ? (uint32_t)__builtin_clz(a) : 32;
        *fl = a ? 0 : F_Z;
        return r;
    case UA_DSHL: case UA_DSHR: { /* the funnel shifter: A:B by SC<4:0> */
        uint64_t x = (uint64_t)a << 32 | b;
        unsigned n = m->sc & 31;
        r = f == UA_DSHL ? (uint32_t)((x << n) >> 32) : (uint32_t)(x >> n);
        *fl = nz(r, 0x80000000u);
        return r;
    }
    default: NOT_REACHED(); r = 0;
    }
    *fl = nz(r, sign) | (v ? F_V : 0) | (c ? F_C : 0);
    return r;
}

/* The ALU when nobody looks at its flags: the same result (the compiler
 * drops the flag logic of the inlined copy). */
static ALWAYS_INLINE uint32_t alu_nofl(struct vax_machine *m, unsigned f, uint32_t a, uint32_t b,
                                unsigned wd)
{
    unsigned fl;
    return alu(m, f, a, b, wd, &fl);
}

/* The condition-code control of a word (CC field). */
static ALWAYS_INLINE void set_cc(struct vax_machine *m, unsigned cc, unsigned fl, uint32_t r)
{
    switch (cc) {
    case UCC_NONE: break;
    case UCC_ARITH: m->psl = (m->psl & ~0xFu) | fl; break;
    case UCC_LOGIC: m->psl = (m->psl & ~0xEu) | (fl & (F_N | F_Z)); break;
    case UCC_TEST: m->psl = (m->psl & ~0xFu) | (fl & (F_N | F_Z)); break;
    case UCC_CMP: {
        unsigned lt = !(fl & F_N) != !(fl & F_V);
        m->psl = (m->psl & ~0xFu) | (lt ? F_N : 0) | (fl & (F_Z | F_C));
        break;
    }
    case UCC_NZV: m->psl = (m->psl & ~0xEu) | (fl & (F_N | F_Z | F_V)); break;
    case UCC_NZVC0: m->psl = (m->psl & ~0xFu) | (fl & (F_N | F_Z | F_V)); break;
    case UCC_QUAD:
        m->psl = (m->psl & ~0xEu) | (m->q >> 31 ? F_N : 0) |
                 (m->q == 0 && r == 0 ? F_Z : 0) | (fl & F_V);
        break;
    default: NOT_REACHED();
    }
}

#endif

