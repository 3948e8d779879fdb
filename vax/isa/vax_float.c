/* VAX floating formats (see vax_float.h).  Decimal to binary is done
 * exactly with big integers: value = M * 10^E is scaled by a power of two
 * into an integer quotient with one bit more than the format's precision,
 * whose last bit decides the rounding.                                   */
#include "vax/isa/vax_float.h"

#include <ctype.h>
#include <string.h>

struct ffmt {
    int bytes, ebits, prec; /* prec: fraction bits including the hidden 1 */
};
static const struct ffmt fmts[4] = {
    [VAX_FFMT_F] = {4, 8, 24},
    [VAX_FFMT_D] = {8, 8, 56},
    [VAX_FFMT_G] = {8, 11, 53},
    [VAX_FFMT_H] = {16, 15, 113},
};

int vax_float_format(int letter)
{
    switch (tolower(letter)) {
    case 'f': return VAX_FFMT_F;
    case 'd': return VAX_FFMT_D;
    case 'g': return VAX_FFMT_G;
    case 'h': return VAX_FFMT_H;
    default: return -1;
    }
}

int vax_float_size(int fmt)
{
    return fmt >= 0 && fmt < 4 ? fmts[fmt].bytes : 0;
}

/* ------------------------------------------------------------------ */
/* unsigned big integers, 32-bit limbs, least significant first        */

/* Enough for 10^(VAX_FLOAT_MAX_DIGITS + the 4940 of H's range) times
 * 2^(H's precision + 2): 33,100 bits and a little slack. */
#define BN_LIMBS 1060
struct bn {
    int n; /* limbs in use; d[n-1] != 0 unless n == 0 */
    uint32_t d[BN_LIMBS];
};

static void bn_set(struct bn *a, uint32_t v)
{
    a->n = v != 0;
    a->d[0] = v;
}

static void bn_trim(struct bn *a)
{
    while (a->n > 0 && a->d[a->n - 1] == 0)
        a->n--;
}

/* a = a * m + add; 0, or -1 if it would not fit */
static int bn_muladd(struct bn *a, uint32_t m, uint32_t add)
{
    uint64_t carry = add;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->d[i] * m + carry;
        a->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry) {
        if (a->n == BN_LIMBS)
            return -1;
        a->d[a->n++] = (uint32_t)carry;
    }
    return 0;
}

static int bn_mulpow10(struct bn *a, int k)
{
    for (; k >= 9; k -= 9)
        if (bn_muladd(a, 1000000000u, 0))
            return -1;
    uint32_t m = 1;
    while (k-- > 0)
        m *= 10;
    return bn_muladd(a, m, 0);
}

static int bn_bitlen(const struct bn *a)
{
    if (a->n == 0)
        return 0;
    int b = 32 * (a->n - 1);
    for (uint32_t t = a->d[a->n - 1]; t; t >>= 1)
        b++;
    return b;
}

static int bn_shl(struct bn *a, int bits)
{
    if (a->n == 0 || bits == 0)
        return 0;
    int limbs = bits / 32, sh = bits % 32;
    int n = a->n + limbs + 1;
    if (n > BN_LIMBS)
        return -1;
    for (int i = n - 1; i >= 0; i--) {
        int s = i - limbs;
        uint32_t hi = s >= 0 && s < a->n ? a->d[s] : 0;
        uint32_t lo = s - 1 >= 0 && s - 1 < a->n ? a->d[s - 1] : 0;
        a->d[i] = sh ? (hi << sh) | (lo >> (32 - sh)) : hi;
    }
    a->n = n;
    bn_trim(a);
    return 0;
}

static void bn_shr1(struct bn *a)
{
    for (int i = 0; i < a->n; i++)
        a->d[i] = (a->d[i] >> 1) | (i + 1 < a->n ? a->d[i + 1] << 31 : 0);
    bn_trim(a);
}

static int bn_cmp(const struct bn *a, const struct bn *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i])
            return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

/* a -= b, with a >= b */
static void bn_sub(struct bn *a, const struct bn *b)
{
    int64_t borrow = 0;
    for (int i = 0; i < a->n; i++) {
        int64_t t = (int64_t)a->d[i] - (i < b->n ? b->d[i] : 0) - borrow;
        borrow = t < 0;
        a->d[i] = (uint32_t)(t + (borrow ? ((int64_t)1 << 32) : 0));
    }
    bn_trim(a);
}

/* ------------------------------------------------------------------ */
/* scanning                                                            */

/* The scanned constant: its significant digits (no leading or trailing
 * zeros), as text between first and last (a '.' may lie between), and
 * the power of ten that makes their integer the value. */
struct decimal {
    int neg;
    long nd;           /* significant digits                     */
    const char *first; /* where they start (may span the '.')    */
    const char *last;  /* one past the last significant digit    */
    long e10;          /* value = integer(digits) * 10^e10       */
    int special;       /* inf or nan seen                        */
};

static int match_word(const char *p, const char *e, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(e - p) < n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)p[i]) != w[i])
            return 0;
    return 1;
}

static const char *scan(const char *p, const char *e, struct decimal *x)
{
    memset(x, 0, sizeof *x);
    if (p < e && (*p == '+' || *p == '-')) {
        x->neg = *p == '-';
        p++;
    }
    /* GNU as also knows these words; they have no VAX encoding */
    static const char *const words[] = {"infinity", "inf", "snan", "qnan", "nan"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (match_word(p, e, words[i])) {
            x->special = 1;
            return p + strlen(words[i]);
        }
    long before = 0; /* digits left of the point, from the first significant */
    long zeros = 0;  /* zeros right of the point before the first significant */
    long count = 0;  /* digits from the first significant one on */
    int seen = 0, point = 0;
    for (; p < e; p++) {
        if (*p == '.' && !point) {
            point = 1;
            continue;
        }
        if (!isdigit((unsigned char)*p))
            break;
        if (!seen && *p == '0') {
            if (point)
                zeros++;
            continue;
        }
        if (!seen) {
            seen = 1;
            x->first = p;
        }
        if (!point)
            before++;
        count++;
        if (*p != '0') {
            x->nd = count; /* trailing zeros are not significant */
            x->last = p + 1;
        }
    }
    long exp = 0;
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        int eneg = 0;
        if (p < e && (*p == '+' || *p == '-')) {
            eneg = *p == '-';
            p++;
        }
        for (; p < e && isdigit((unsigned char)*p); p++)
            if (exp < 100000000)
                exp = exp * 10 + (*p - '0');
        if (eneg)
            exp = -exp;
    }
    if (x->nd) {
        /* digits d1..dn with `before` of them left of the point (when
         * the first significant digit is left of it), else `zeros`
         * zeros between the point and the first one */
        long intdigits = before > 0 ? before : -zeros;
        x->e10 = exp + intdigits - x->nd;
    }
    return p;
}

/* ------------------------------------------------------------------ */
/* conversion                                                          */

static void pack(int fmt, int neg, long exp, const uint64_t frac[2], uint16_t w[8])
{
    /* frac: the fraction without its hidden bit, prec-1 bits, in
     * frac[1]:frac[0]; word 0 takes its top 15-ebits bits */
    const struct ffmt *f = &fmts[fmt];
    int nw = f->bytes / 2;
    int fbits = f->prec - 1;
    for (int i = 0; i < nw; i++) {
        int lo = fbits - (i == 0 ? 15 - f->ebits : (15 - f->ebits) + 16 * i);
        /* bits [lo, lo + width) of frac */
        int width = i == 0 ? 15 - f->ebits : 16;
        uint32_t v = 0;
        for (int b = 0; b < width; b++) {
            int bit = lo + b;
            if (bit >= 0 && ((frac[bit / 64] >> (bit % 64)) & 1))
                v |= 1u << b;
        }
        w[i] = (uint16_t)v;
    }
    w[0] |= (uint16_t)((uint32_t)exp << (15 - f->ebits));
    if (neg)
        w[0] |= 0x8000;
}

int vax_float_from_decimal(const char *p, const char *e, const char **end,
                           int fmt, uint16_t words[8])
{
    memset(words, 0, 8 * sizeof words[0]);
    struct decimal x;
    *end = scan(p, e, &x);
    if (fmt < 0 || fmt > 3)
        return VAX_FLOAT_NOT_FINITE;
    if (x.special)
        return VAX_FLOAT_NOT_FINITE;
    if (x.nd == 0)
        return VAX_FLOAT_OK; /* zero */
    if (x.nd > VAX_FLOAT_MAX_DIGITS)
        return VAX_FLOAT_TOO_LONG;
    /* the value lies in [10^(mag-1), 10^mag); H, the widest format,
     * spans about 10^-4933 to 10^4932 */
    long mag = x.nd + x.e10;
    if (mag > 4940)
        return VAX_FLOAT_OVERFLOW;
    if (mag < -4940)
        return VAX_FLOAT_UNDERFLOW;

    struct bn num, den, sh;
    bn_set(&num, 0);
    for (const char *q = x.first; q < x.last; q++)
        if (isdigit((unsigned char)*q) && bn_muladd(&num, 10, (uint32_t)(*q - '0')))
            return VAX_FLOAT_TOO_LONG;
    bn_set(&den, 1);
    if (x.e10 >= 0 ? bn_mulpow10(&num, (int)x.e10) : bn_mulpow10(&den, (int)-x.e10))
        return VAX_FLOAT_TOO_LONG;

    /* q = floor(num * 2^s / den) gets prec + 1 or prec + 2 bits */
    const struct ffmt *f = &fmts[fmt];
    int prec = f->prec;
    long s = (long)(prec + 1) - (bn_bitlen(&num) - bn_bitlen(&den));
    if (s > 0 ? bn_shl(&num, (int)s) : bn_shl(&den, (int)-s))
        return VAX_FLOAT_TOO_LONG;
    int qbits = prec + 2;
    sh = den;
    if (bn_shl(&sh, qbits))
        return VAX_FLOAT_TOO_LONG;
    uint64_t q[2] = {0, 0};
    for (int i = qbits - 1; i >= 0; i--) {
        bn_shr1(&sh);
        if (bn_cmp(&num, &sh) >= 0) {
            bn_sub(&num, &sh);
            q[i / 64] |= (uint64_t)1 << (i % 64);
        }
    }
    /* value = q * 2^-s = (q / 2^L) * 2^(L - s), q / 2^L in [1/2, 1) */
    int L = (q[(prec + 1) / 64] >> ((prec + 1) % 64)) & 1 ? prec + 2 : prec + 1;
    long exp = (1L << (f->ebits - 1)) + (L - s);
    /* mantissa: the top prec bits of q; round on the next one */
    int drop = L - prec;
    uint64_t m[2];
    m[0] = drop >= 64 ? q[1] >> (drop - 64) : (q[0] >> drop) | (drop ? q[1] << (64 - drop) : 0);
    m[1] = drop >= 64 ? 0 : q[1] >> drop;
    int rbit = drop - 1;
    if ((q[rbit / 64] >> (rbit % 64)) & 1) {
        if (++m[0] == 0)
            m[1]++;
        /* carried out into bit prec: 0.1000... of the next exponent */
        if ((m[prec / 64] >> (prec % 64)) & 1) {
            m[0] = (m[0] >> 1) | (m[1] << 63);
            m[1] >>= 1;
            exp++;
        }
    }
    if (exp >= (1L << f->ebits))
        return VAX_FLOAT_OVERFLOW;
    if (exp < 1)
        return VAX_FLOAT_UNDERFLOW;
    /* clear the hidden bit */
    int hb = prec - 1;
    m[hb / 64] &= ~((uint64_t)1 << (hb % 64));
    pack(fmt, x.neg, exp, m, words);
    return VAX_FLOAT_OK;
}

/* ------------------------------------------------------------------ */
/* short literals                                                      */

int vax_float_short_literal(int fmt, const uint16_t w[8])
{
    if (fmt < 0 || fmt > 3)
        return -1;
    const struct ffmt *f = &fmts[fmt];
    int nw = f->bytes / 2;
    int fb0 = 15 - f->ebits; /* fraction bits in word 0 */
    unsigned exp = (w[0] >> fb0) & ((1u << f->ebits) - 1);
    if ((w[0] & 0x8000) || exp < (1u << (f->ebits - 1)) || exp > (1u << (f->ebits - 1)) + 7)
        return -1;
    /* the top three fraction bits, then nothing */
    uint32_t top = 0, rest;
    if (fb0 >= 3) {
        top = (w[0] >> (fb0 - 3)) & 7;
        rest = w[0] & ((1u << (fb0 - 3)) - 1);
    } else { /* H: word 0 has no fraction bits */
        top = w[1] >> 13;
        rest = w[1] & 0x1FFF;
    }
    for (int i = fb0 >= 3 ? 1 : 2; i < nw; i++)
        rest |= w[i];
    if (rest)
        return -1;
    return (int)((exp - (1u << (f->ebits - 1))) << 3 | top);
}

void vax_float_of_short_literal(int fmt, int lit, uint16_t w[8])
{
    memset(w, 0, 8 * sizeof w[0]);
    if (fmt < 0 || fmt > 3)
        return;
    const struct ffmt *f = &fmts[fmt];
    int fb0 = 15 - f->ebits;
    unsigned exp = (1u << (f->ebits - 1)) + ((unsigned)lit >> 3 & 7);
    unsigned top = (unsigned)lit & 7;
    w[0] = (uint16_t)(exp << fb0);
    if (fb0 >= 3)
        w[0] |= (uint16_t)(top << (fb0 - 3));
    else
        w[1] = (uint16_t)(top << 13);
}

void vax_float_to_bytes(int fmt, const uint16_t w[8], uint8_t b[16])
{
    memset(b, 0, 16);
    int n = vax_float_size(fmt);
    for (int i = 0; i < n / 2; i++) {
        b[2 * i] = (uint8_t)w[i];
        b[2 * i + 1] = (uint8_t)(w[i] >> 8);
    }
}
