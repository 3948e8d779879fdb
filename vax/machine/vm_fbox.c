/* The F-box (vm_fbox.h, MICROARCHITECTURE.md §12): unpacked registers,
 * an adder, a multiplier, a divider, a normalizer and the round-and-pack
 * logic for F, D and G.  The arithmetic is wide enough that every
 * rounded result is the exact result rounded (the truncations it makes
 * are all finer than the rounding bit: floor(floor(x, fine), coarse) =
 * floor(x, coarse), and rounding half up looks only at the round bit). */
#include "vax/machine/vm_fbox.h"

#include <string.h>

#include "microcode/uword.h"

__extension__ typedef unsigned __int128 u128;

#define TOP ((u128)1 << 127)

static u128 frac_of(const struct vm_fbreg *r) { return ((u128)r->fhi << 64) | r->flo; }

static void set_frac(struct vm_fbreg *r, u128 f)
{
    r->fhi = (uint64_t)(f >> 64);
    r->flo = (uint64_t)f;
}

static void set_zero(struct vm_fbreg *r)
{
    r->fhi = r->flo = 0;
    r->exp = 0;
    r->sign = 0;
}

static unsigned clz128(u128 f)
{
    uint64_t hi = (uint64_t)(f >> 64), lo = (uint64_t)f;
    if (hi)
        return (unsigned)__builtin_clzll(hi);
    return 64 + (unsigned)__builtin_clzll(lo);
}

/* Shift the fraction left until bit 127 is set; a zero fraction is a
 * true zero (sign and exponent 0). */
static void normalize(struct vm_fbreg *r)
{
    u128 f = frac_of(r);
    if (f == 0) {
        set_zero(r);
        return;
    }
    unsigned s = clz128(f);
    set_frac(r, f << s);
    r->exp -= (int32_t)s;
}

/* ---- formats ----------------------------------------------------------
 * In memory (and on the buses) the first 16-bit word holds sign<15>, the
 * exponent and the high fraction bits; each further word holds 16 less
 * significant fraction bits.  A longword carries two words, the earlier
 * one in bits 15:0. */
struct fmt {
    unsigned ebits, fbits; /* exponent width; fraction bits with the hidden one */
    int32_t bias;
};
static const struct fmt fmts[] = {
    [VM_FB_F] = {8, 24, 128},
    [VM_FB_D] = {8, 56, 128},
    [VM_FB_G] = {11, 53, 1024},
};

/* The fraction bits of the two longwords as one 64-bit number, most
 * significant word first (hidden bit and exponent not yet separated). */
static uint64_t words(uint32_t x, uint32_t y)
{
    return (uint64_t)(x & 0xFFFFu) << 48 | (uint64_t)(x >> 16) << 32 |
           (uint64_t)(y & 0xFFFFu) << 16 | (y >> 16);
}

/* Unpack x (and y for D and G) into r; returns 1 for a reserved operand
 * (sign 1, exponent 0), which loads as zero. */
static int unpack(struct vm_fbreg *r, unsigned fmt, uint32_t x, uint32_t y)
{
    const struct fmt *t = &fmts[fmt];
    unsigned eshift = 15 - t->ebits;
    uint32_t e = (x >> eshift) & ((1u << t->ebits) - 1);
    unsigned sign = (x >> 15) & 1;
    r->fmt = (uint8_t)fmt;
    r->dz = 0;
    if (e == 0) {
        set_zero(r);
        return sign;
    }
    if (fmt == VM_FB_F)
        y = 0;
    /* bits 63:48 of w are the first word: sign, exponent, fraction */
    uint64_t w = words(x, y);
    uint64_t m = w & ((UINT64_C(1) << (48 + eshift)) - 1); /* fraction below the exponent */
    m |= UINT64_C(1) << (48 + eshift);                      /* the hidden bit */
    set_frac(r, (u128)m << (64 + 15 - eshift));            /* hidden bit to bit 127 */
    r->exp = (int32_t)e - t->bias;
    r->sign = (uint8_t)sign;
    return 0;
}

/* ---- round and pack -------------------------------------------------- */
static void round_pack(struct vm_fbox *f, unsigned fmt)
{
    const struct fmt *t = &fmts[fmt];
    struct vm_fbreg x = f->fr, *r = &x; /* FR itself is left as it was */
    f->fbl = f->fbh = 0;
    f->v = 0;
    f->dz = r->dz;
    f->exc = r->dz;
    if (r->dz)
        return;
    normalize(r);
    u128 m = frac_of(r);
    if (m == 0)
        return;
    u128 half = (u128)1 << (127 - t->fbits);
    u128 q = m + half;
    if (q < m) { /* the carry ran out of the top: 0.111..1 became 1.0 */
        q = TOP;
        r->exp++;
    }
    q &= ~((half << 1) - 1);
    int32_t e = r->exp + t->bias;
    if (e > (int32_t)((1u << t->ebits) - 1)) {
        f->v = f->exc = 1; /* overflow: packs as 0 */
        return;
    }
    if (e < 1) {
        f->exc = 1; /* underflow: packs as 0 */
        return;
    }
    unsigned eshift = 15 - t->ebits;
    uint64_t w = (uint64_t)(q >> (64 + 15 - eshift)); /* hidden bit at 48 + eshift */
    w &= (UINT64_C(1) << (48 + eshift)) - 1;
    w |= (uint64_t)e << (48 + eshift) | (uint64_t)r->sign << 63;
    uint32_t w0 = (uint32_t)(w >> 48), w1 = (uint32_t)(w >> 32) & 0xFFFF;
    uint32_t w2 = (uint32_t)(w >> 16) & 0xFFFF, w3 = (uint32_t)w & 0xFFFF;
    f->fbl = w0 | w1 << 16;
    if (fmt != VM_FB_F)
        f->fbh = w2 | w3 << 16;
}

/* ---- arithmetic ------------------------------------------------------- */
static uint8_t wider(uint8_t a, uint8_t b) { return a > b ? a : b; }

/* Magnitude compare of two normalized registers: <0, 0, >0. */
static int cmp_mag(const struct vm_fbreg *x, const struct vm_fbreg *y)
{
    u128 fx = frac_of(x), fy = frac_of(y);
    if (fx == 0 || fy == 0)
        return (fx != 0) - (fy != 0);
    if (x->exp != y->exp)
        return x->exp < y->exp ? -1 : 1;
    return (fx > fy) - (fx < fy);
}

/* FR <- p + q (p's sign already flipped for a subtraction). */
static void add(struct vm_fbox *f, struct vm_fbreg p, struct vm_fbreg q)
{
    struct vm_fbreg *r = &f->fr;
    uint8_t tag = wider(p.fmt, q.fmt);
    normalize(&p);
    normalize(&q);
    if (frac_of(&p) == 0 || frac_of(&q) == 0) {
        *r = frac_of(&p) == 0 ? q : p;
    } else {
        const struct vm_fbreg *big = &p, *small = &q;
        if (cmp_mag(&p, &q) < 0) {
            big = &q;
            small = &p;
        }
        unsigned e = (unsigned)(big->exp - small->exp);
        u128 bf = frac_of(big), sf = frac_of(small);
        u128 s = e >= 128 ? 0 : sf >> e;
        r->sign = big->sign;
        r->exp = big->exp;
        if (big->sign == small->sign) {
            u128 sum = bf + s; /* truncated alignment: floor */
            if (sum < bf) {    /* carry out: shift it back in */
                sum = sum >> 1 | TOP;
                r->exp++;
            }
            set_frac(r, sum);
        } else {
            /* floor(big - small/2^e) = big - ceil(small/2^e) */
            int sticky = e >= 128 ? sf != 0 : e > 0 && (sf & (((u128)1 << e) - 1)) != 0;
            u128 d = bf - s - (u128)sticky;
            set_frac(r, d);
            if (d == 0)
                set_zero(r);
        }
    }
    r->fmt = tag;
    r->dz = 0;
}

static void mul(struct vm_fbox *f)
{
    struct vm_fbreg x = f->fa, y = f->fb, *r = &f->fr;
    normalize(&x);
    normalize(&y);
    r->fmt = wider(x.fmt, y.fmt);
    r->dz = 0;
    if (x.fhi == 0 || y.fhi == 0) {
        set_zero(r);
        return;
    }
    r->sign = x.sign ^ y.sign;
    r->exp = x.exp + y.exp;
    set_frac(r, (u128)x.fhi * y.fhi); /* 64 x 64: the exact product, unnormalized */
}

/* FR <- FB / FA. */
static void divide(struct vm_fbox *f)
{
    struct vm_fbreg x = f->fa, y = f->fb, *r = &f->fr;
    normalize(&x);
    normalize(&y);
    r->fmt = wider(x.fmt, y.fmt);
    r->dz = 0;
    if (x.fhi == 0) {
        set_zero(r);
        r->dz = 1;
        return;
    }
    if (y.fhi == 0) {
        set_zero(r);
        return;
    }
    r->sign = x.sign ^ y.sign;
    /* floor(y/x * 2^64) < 2^65: at least 64 quotient bits */
    u128 q = ((u128)y.fhi << 64) / x.fhi;
    r->exp = y.exp - x.exp + 2;
    set_frac(r, q << 62);
    normalize(r);
}

/* FR's integer part (of the magnitude, truncated or rounded half away
 * from zero): returns its low 64 bits; *big if it is 2^64 or more. */
static uint64_t int_part(const struct vm_fbreg *r, int rnd, int *big)
{
    u128 m = frac_of(r);
    *big = 0;
    if (m == 0 || r->exp < 0)
        return 0;
    if (r->exp >= 128) {
        *big = 1;
        return r->exp - 128 >= 128 ? 0 : (uint64_t)(m << (r->exp - 128));
    }
    u128 t = m >> (127 - r->exp); /* floor(2x) */
    u128 i = rnd ? (t >> 1) + (t & 1) : t >> 1;
    *big = (i >> 64) != 0;
    return (uint64_t)i;
}

/* Does the signed integer (magnitude i, sign s) not fit in w bits? */
static int int_ovf(uint64_t i, int big, unsigned s, unsigned w)
{
    return big || i > ((UINT64_C(1) << (w - 1)) - 1 + s);
}

static unsigned width(uint32_t b)
{
    unsigned w = b & 0x3F;
    return w == 0 || w > 32 ? 32 : w;
}

static void cvt_int(struct vm_fbox *f, uint32_t b, int rnd)
{
    struct vm_fbreg *r = &f->fr;
    normalize(r);
    int big;
    uint64_t i = int_part(r, rnd, &big);
    f->iov = (uint8_t)int_ovf(i, big, r->sign, width(b));
    f->fbl = r->sign ? (uint32_t)-(uint32_t)i : (uint32_t)i;
    f->fbh = 0;
}

/* SPLIT: FBL <- integer part (truncated), FR <- the fraction part. */
static void split(struct vm_fbox *f)
{
    struct vm_fbreg *r = &f->fr;
    normalize(r);
    int big;
    uint64_t i = int_part(r, 0, &big);
    f->iov = (uint8_t)int_ovf(i, big, r->sign, 32);
    f->fbl = r->sign ? (uint32_t)-(uint32_t)i : (uint32_t)i;
    f->fbh = 0;
    if (r->exp > 0) {
        u128 m = frac_of(r);
        set_frac(r, r->exp >= 128 ? 0 : m << r->exp);
        r->exp = 0;
        normalize(r);
    }
}

static void load_int(struct vm_fbox *f, uint32_t a, uint32_t b)
{
    unsigned w = width(b);
    int64_t v = (int64_t)(int32_t)(a << (32 - w)) >> (32 - w);
    struct vm_fbreg *r = &f->fa;
    r->fmt = VM_FB_I;
    r->dz = 0;
    r->sign = v < 0;
    uint64_t mag = v < 0 ? (uint64_t)-v : (uint64_t)v;
    set_frac(r, (u128)mag << 96);
    r->exp = 32;
    normalize(r);
    f->fr = *r;
    f->rsv = 0;
}

/* EXT: the EMOD multiplier extension, just below FA's fraction. */
static void extend(struct vm_fbox *f, uint32_t a)
{
    struct vm_fbreg *r = &f->fa;
    if (frac_of(r) == 0)
        return;
    u128 m = frac_of(r);
    switch (r->fmt) {
    case VM_FB_F: m |= (u128)(a & 0xFF) << 96; break;  /* fraction 127:104 */
    case VM_FB_D: m |= (u128)(a & 0xFF) << 64; break;  /* fraction 127:72 */
    case VM_FB_G: m |= (u128)((a >> 5) & 0x7FF) << 64; break; /* 127:75 */
    default: break;
    }
    set_frac(r, m);
}

static void chop(struct vm_fbox *f, uint32_t b)
{
    unsigned n = b & 0xFF;
    struct vm_fbreg *r = &f->fr;
    if (n < 128) {
        u128 keep = n == 0 ? 0 : ~(((u128)1 << (128 - n)) - 1);
        set_frac(r, frac_of(r) & keep);
    }
    normalize(r);
}

static void compare(struct vm_fbox *f)
{
    struct vm_fbreg x = f->fa, y = f->fb;
    normalize(&x);
    normalize(&y);
    int c;
    if (frac_of(&x) == 0 && frac_of(&y) == 0)
        c = 0;
    else if (x.sign != y.sign)
        c = x.sign ? -1 : 1;
    else {
        c = cmp_mag(&x, &y);
        if (x.sign)
            c = -c;
    }
    f->fbl = (uint32_t)c;
    f->fbh = 0;
}

/* ---- timing ------------------------------------------------------------
 * Microcycles beyond the word's own (MICROARCHITECTURE.md §12 gives the
 * reasoning): add 3 cycles; multiply 3 (F) or 5 (D, G); divide 7 (F),
 * 15 (D), 14 (G); everything else 1. */
static unsigned mul_stall(uint8_t tag) { return tag >= VM_FB_D ? 4 : 2; }
static unsigned div_stall(uint8_t tag)
{
    return tag == VM_FB_D ? 14 : tag == VM_FB_G ? 13 : 6;
}

unsigned vm_fbox_op(struct vm_fbox *f, unsigned fop, uint32_t a, uint32_t b)
{
    struct vm_fbreg t;
    switch (fop) {
    case UF_LDFA:
        f->rsv = (uint8_t)unpack(&f->fa, VM_FB_F, a, 0);
        f->fr = f->fa;
        return 0;
    case UF_LDFB:
        f->rsv |= (uint8_t)unpack(&f->fb, VM_FB_F, b, 0);
        return 0;
    case UF_LDFAB:
        f->rsv = (uint8_t)(unpack(&f->fa, VM_FB_F, a, 0) | unpack(&f->fb, VM_FB_F, b, 0));
        f->fr = f->fa;
        return 0;
    case UF_LDDA:
    case UF_LDGA:
        f->rsv = (uint8_t)unpack(&f->fa, fop == UF_LDDA ? VM_FB_D : VM_FB_G, a, b);
        f->fr = f->fa;
        return 0;
    case UF_LDDB:
    case UF_LDGB:
        f->rsv |= (uint8_t)unpack(&f->fb, fop == UF_LDDB ? VM_FB_D : VM_FB_G, a, b);
        return 0;
    case UF_LDI: load_int(f, a, b); return 0;
    case UF_EXT: extend(f, a); return 0;
    case UF_RTOA: f->fa = f->fr; return 0;
    case UF_ADD: add(f, f->fa, f->fb); return 2;
    case UF_SUB:
        t = f->fa;
        t.sign ^= 1;
        add(f, t, f->fb);
        return 2;
    case UF_MUL: mul(f); return mul_stall(f->fr.fmt);
    case UF_DIV: divide(f); return div_stall(f->fr.fmt);
    case UF_FCMP: compare(f); return 0;
    case UF_CHOP: chop(f, b); return 0;
    case UF_SPLIT: split(f); return 0;
    case UF_RNDF: round_pack(f, VM_FB_F); return 0;
    case UF_RNDD: round_pack(f, VM_FB_D); return 0;
    case UF_RNDG: round_pack(f, VM_FB_G); return 0;
    case UF_CVTI: cvt_int(f, b, 0); return 0;
    case UF_CVTRI: cvt_int(f, b, 1); return 0;
    case UF_NONE:
    default: return 0;
    }
}

void vm_fbox_reset(struct vm_fbox *f) { memset(f, 0, sizeof *f); }
