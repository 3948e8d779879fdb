/* vasm: the assembler directives (.byte, .align, .org, .set, section
 * switches, ...) and symbol assignment.
 * Part of the assembler split over vasm*.c (see vasm_int.h).            */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vasm_int.h"
#include "vax/isa/vax_float.h"

/* ------------------------------------------------------------------ */
/* directives                                                          */

static const char *const sec_names[NSEC] = {".text", ".data", ".bss"};

static int parse_string(struct as *a, const char **pp, const char *e, uint8_t **buf,
                        uint32_t *len)
{
    const char *p = *pp;
    while (p < e && isspace((unsigned char)*p))
        p++;
    if (p >= e || *p != '"') {
        vasm_err(a, "expected a string");
        return -1;
    }
    p++;
    struct cur c = {p, e};
    uint32_t n = 0, cap = 16;
    uint8_t *b = vasm_xrealloc(NULL, cap);
    for (;;) {
        if (c.p >= c.e) {
            free(b);
            vasm_err(a, "unterminated string");
            return -1;
        }
        int ch = (unsigned char)*c.p++;
        if (ch == '"')
            break;
        if (ch == '\\')
            ch = vasm_parse_escape(&c);
        if (n == cap)
            b = vasm_xrealloc(b, cap *= 2);
        b[n++] = (uint8_t)ch;
    }
    *pp = c.p;
    *buf = b;
    *len = n;
    return 0;
}

static int64_t const_expr(struct as *a, const char *p, const char *e, int *ok)
{
    lin r;
    *ok = 0;
    if (vasm_parse_expr(a, p, e, &r))
        return 0;
    if (r.nt) {
        vasm_err(a, "expression must be absolute and known here: '%.*s'", (int)(e - p), p);
        return 0;
    }
    *ok = 1;
    return r.k;
}

static void data_values(struct as *a, const char *p, const char *e, int size)
{
    const char *ps[1], *pe[1];
    (void)ps;
    (void)pe;
    if (a->f->cursec == SEC_BSS) {
        vasm_err(a, "data in .bss (only .space/.skip/.zero and labels are allowed)");
        return;
    }
    vasm_trim(&p, &e);
    if (p == e)
        return;
    int depth = 0;
    const char *s = p;
    for (const char *q = p; q <= e; q++) {
        if (q == e || (*q == ',' && depth == 0)) {
            lin r;
            const char *xs = s, *xe = q;
            vasm_trim(&xs, &xe);
            if (vasm_parse_expr(a, xs, xe, &r) == 0) {
                if (r.nt == 0 && size < 8) {
                    int64_t lo = -((int64_t)1 << (8 * size - 1));
                    int64_t hi = ((int64_t)1 << (8 * size)) - 1;
                    if (r.k < lo || r.k > hi)
                        vasm_err(a, "value %" PRId64 " does not fit in %d byte%s", r.k, size,
                                 size > 1 ? "s" : "");
                    vasm_emitn(a, (uint64_t)r.k, size);
                } else if (r.nt == 0)
                    vasm_emitn(a, (uint64_t)r.k, size);
                else
                    vasm_emit_expr(a, &r, size, 0, FX_DATA, NULL);
            }
            s = q + 1;
            continue;
        }
        if (*q == '(')
            depth++;
        else if (*q == ')')
            depth--;
        else if (*q == '\'' && q + 1 < e) {
            q++;
            if (*q == '\\' && q + 1 < e)
                q++;
            if (q + 1 < e && q[1] == '\'')
                q++;
        }
    }
}

/* gas's ":hex" floating constant (after the optional 0<letter>): hex
 * digits ('_' ignored), two per byte, filling the datum from its most
 * significant byte down; bytes not given are zero.  F and D only, as in
 * gas (it has no length for G, and a wrong one for H). */
static const char *hex_float(struct as *a, const char *p, const char *e, int fmt, uint8_t b[16])
{
    int len = vax_float_size(fmt);
    memset(b, 0, 16);
    if (fmt != VAX_FFMT_F && fmt != VAX_FFMT_D) {
        vasm_err(a, "':' hexadecimal floating constants exist for F and D only");
        return NULL;
    }
    int i = 0;
    while (p < e && (isxdigit((unsigned char)*p) || *p == '_')) {
        if (*p == '_') {
            p++;
            continue;
        }
        if (i >= len) {
            vasm_err(a, "hexadecimal floating constant longer than %d bytes", len);
            return NULL;
        }
        int hi = isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10;
        int lo = 0;
        p++;
        while (p < e && *p == '_')
            p++;
        if (p < e && isxdigit((unsigned char)*p)) {
            lo = isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10;
            p++;
        }
        b[len - 1 - i++] = (uint8_t)(hi << 4 | lo);
    }
    return p;
}

/* .float .double .ffloat ... : comma-separated decimal constants in one
 * format, each optionally preceded by 0 and any letter (gas skips it
 * without looking: ".float 0d1.5" is F_floating), or ":hex". */
static void float_values(struct as *a, const char *p, const char *e, int fmt)
{
    if (a->f->cursec == SEC_BSS) {
        vasm_err(a, "data in .bss (only .space/.skip/.zero and labels are allowed)");
        return;
    }
    vasm_trim(&p, &e);
    if (p == e)
        return;
    for (;;) {
        while (p < e && isspace((unsigned char)*p))
            p++;
        if (e - p >= 2 && p[0] == '0' && isalpha((unsigned char)p[1]))
            p += 2;
        uint8_t b[16];
        const char *q;
        if (p < e && *p == ':') {
            q = hex_float(a, p + 1, e, fmt, b);
            if (!q)
                return;
        } else {
            uint16_t w[8];
            int st = vax_float_from_decimal(p, e, &q, fmt, w);
            if (st != VAX_FLOAT_OK) {
                static const char *const why[] = {
                    [VAX_FLOAT_OVERFLOW] = "is too large for",
                    [VAX_FLOAT_UNDERFLOW] = "is too small (but not zero) for",
                    [VAX_FLOAT_NOT_FINITE] = "has no encoding in",
                    [VAX_FLOAT_TOO_LONG] = "has too many digits for"};
                int n = (int)(q - p); /* quote at most 40 characters of it */
                vasm_err(a, "floating constant '%.*s%s' %s %c_floating", n > 40 ? 40 : n, p,
                         n > 40 ? "..." : "", why[st], "FDGH"[fmt]);
                return;
            }
            vax_float_to_bytes(fmt, w, b);
        }
        vasm_emit_bytes(vasm_fixed(a), b, (uint32_t)vax_float_size(fmt));
        p = q;
        while (p < e && isspace((unsigned char)*p))
            p++;
        if (p >= e)
            return;
        if (*p != ',') {
            vasm_err(a, "junk in floating constant list: '%.*s'", (int)(e - p), p);
            return;
        }
        p++;
    }
}

/* .octa: comma-separated 128-bit numbers (constants only) */
static void octa_values(struct as *a, const char *p, const char *e)
{
    if (a->f->cursec == SEC_BSS) {
        vasm_err(a, "data in .bss (only .space/.skip/.zero and labels are allowed)");
        return;
    }
    const char *ps[256], *pe[256];
    int n = vasm_split_operands(p, e, ps, pe, 256);
    if (n > 256) {
        vasm_err(a, "more than 256 values in one .octa");
        return;
    }
    for (int i = 0; i < n; i++) {
        uint64_t v[2];
        int r = vasm_parse_number128(ps[i], pe[i], v);
        if (r == 1) {
            lin x;
            if (vasm_parse_expr(a, ps[i], pe[i], &x))
                return;
            if (x.nt) {
                vasm_err(a, ".octa values must be constants");
                return;
            }
            v[0] = (uint64_t)x.k;
            v[1] = x.k < 0 ? ~(uint64_t)0 : 0;
        } else if (r < 0) {
            vasm_err(a, "constant '%.*s' does not fit in 128 bits", (int)(pe[i] - ps[i]), ps[i]);
            return;
        }
        vasm_emitn(a, v[0], 8);
        vasm_emitn(a, v[1], 8);
    }
}

static void do_align(struct as *a, int p2, int fill, uint32_t max)
{
    struct section *s = vasm_cursec(a);
    if (p2 > 16) {
        vasm_err(a, "alignment too large");
        return;
    }
    struct item *it = vasm_new_item(a, IT_ALIGN);
    it->p2 = p2;
    /* gas pads code with NOPs (0x01) unless a fill is given */
    it->fill = fill >= 0 ? fill : (a->f->cursec == SEC_TEXT ? 0x01 : 0);
    it->max = max;
    if (p2 > s->align_p2)
        s->align_p2 = p2;
}

void vasm_set_symbol(struct as *a, const char *name, size_t nlen, const char *p,
                     const char *e)
{
    char *nm = vasm_xstrndup(name, nlen);
    sym *s = vasm_sym_get(a, nm);
    free(nm);
    lin r;
    if (vasm_parse_expr(a, p, e, &r))
        return;
    if (s->kind == SK_LABEL) {
        vasm_err(a, "symbol '%s' is already defined as a label", s->name);
        return;
    }
    if (r.nt == 0) {
        s->kind = SK_ABS;
        s->val = r.k;
    } else if (r.nt == 1 && r.t[0].c == 1 && r.t[0].s != s) {
        s->kind = SK_ALIAS;
        s->alias = r.t[0].s;
        s->aoff = r.k;
    } else {
        vasm_err(a, "cannot set '%s' to a complex expression", s->name);
        return;
    }
    s->line = a->line;
}

static int dirname_is(const char *d, size_t n, const char *s)
{
    return strlen(s) == n && strncasecmp(d, s, n) == 0;
}

/* Returns 1 if .end was seen. */
int vasm_directive(struct as *a, const char *d, size_t dn, const char *p, const char *e)
{
    vasm_trim(&p, &e);
    int ok;
    if (dirname_is(d, dn, ".text") || dirname_is(d, dn, ".data") ||
        dirname_is(d, dn, ".bss")) {
        if (p != e) {
            int64_t sub = const_expr(a, p, e, &ok);
            if (ok && sub != 0)
                vasm_err(a, "subsections are not supported");
        }
        a->f->cursec = tolower((unsigned char)d[1]) == 't' ? SEC_TEXT
                       : tolower((unsigned char)d[1]) == 'd' ? SEC_DATA : SEC_BSS;
        return 0;
    }
    if (dirname_is(d, dn, ".section")) {
        const char *q = p;
        while (q < e && *q != ',' && !isspace((unsigned char)*q))
            q++;
        size_t n = (size_t)(q - p);
        if (n && p[0] == '"' && q[-1] == '"' && n >= 2) {
            p++;
            n -= 2;
        }
        for (int i = 0; i < NSEC; i++)
            if (strlen(sec_names[i]) == n && !strncmp(p, sec_names[i], n)) {
                a->f->cursec = i;
                return 0;
            }
        vasm_err(a, "unsupported section '%.*s' (only .text, .data and .bss)", (int)n, p);
        return 0;
    }
    if (dirname_is(d, dn, ".byte")) {
        data_values(a, p, e, 1);
        return 0;
    }
    if (dirname_is(d, dn, ".word") || dirname_is(d, dn, ".short") ||
        dirname_is(d, dn, ".hword")) {
        data_values(a, p, e, 2);
        return 0;
    }
    if (dirname_is(d, dn, ".long") || dirname_is(d, dn, ".int")) {
        data_values(a, p, e, 4);
        return 0;
    }
    if (dirname_is(d, dn, ".quad")) {
        data_values(a, p, e, 8);
        return 0;
    }
    if (dirname_is(d, dn, ".octa")) {
        octa_values(a, p, e);
        return 0;
    }
    static const struct {
        const char *name;
        int fmt;
    } floats[] = {
        {".float", VAX_FFMT_F},  {".single", VAX_FFMT_F},     {".ffloat", VAX_FFMT_F},
        {".f_floating", VAX_FFMT_F}, {".double", VAX_FFMT_D}, {".dfloat", VAX_FFMT_D},
        {".d_floating", VAX_FFMT_D}, {".gfloat", VAX_FFMT_G}, {".g_floating", VAX_FFMT_G},
        {".hfloat", VAX_FFMT_H}, {".h_floating", VAX_FFMT_H},
    };
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++)
        if (dirname_is(d, dn, floats[i].name)) {
            float_values(a, p, e, floats[i].fmt);
            return 0;
        }
    if (dirname_is(d, dn, ".ascii") || dirname_is(d, dn, ".asciz") ||
        dirname_is(d, dn, ".string")) {
        int z = !dirname_is(d, dn, ".ascii");
        if (a->f->cursec == SEC_BSS) {
            vasm_err(a, "data in .bss (only .space/.skip/.zero and labels are allowed)");
            return 0;
        }
        const char *q = p;
        for (;;) {
            uint8_t *b;
            uint32_t n;
            if (parse_string(a, &q, e, &b, &n))
                return 0;
            vasm_emit_bytes(vasm_fixed(a), b, n);
            if (z)
                vasm_emit1(a, 0);
            free(b);
            while (q < e && isspace((unsigned char)*q))
                q++;
            if (q >= e)
                break;
            if (*q != ',') {
                vasm_err(a, "junk after string");
                return 0;
            }
            q++;
        }
        return 0;
    }
    if (dirname_is(d, dn, ".space") || dirname_is(d, dn, ".skip") ||
        dirname_is(d, dn, ".zero") || dirname_is(d, dn, ".fill")) {
        const char *ps[3], *pe[3];
        int n = vasm_split_operands(p, e, ps, pe, 3);
        int isfill = dirname_is(d, dn, ".fill");
        int iszero = dirname_is(d, dn, ".zero");
        if (n < 1 || n > (iszero ? 1 : isfill ? 3 : 2)) {
            vasm_err(a, "wrong number of arguments to %.*s", (int)dn, d);
            return 0;
        }
        int64_t cnt = const_expr(a, ps[0], pe[0], &ok);
        if (!ok)
            return 0;
        int64_t size = 1, val = 0;
        if (isfill && n >= 2) {
            size = const_expr(a, ps[1], pe[1], &ok);
            if (!ok)
                return 0;
            if (size < 0 || size > 8) {
                vasm_err(a, ".fill size must be 0..8");
                return 0;
            }
        }
        if (n >= (isfill ? 3 : 2)) {
            val = const_expr(a, ps[isfill ? 2 : 1], pe[isfill ? 2 : 1], &ok);
            if (!ok)
                return 0;
        }
        if (cnt < 0 || cnt > (1 << 28)) {
            vasm_err(a, "bad repeat count %" PRId64, cnt);
            return 0;
        }
        if (a->f->cursec == SEC_BSS && val != 0) {
            vasm_err(a, "non-zero fill in .bss");
            return 0;
        }
        a->fill_bytes += (uint64_t)cnt * (uint64_t)size;
        if (a->fill_bytes > VASM_MAX_IMAGE) {
            vasm_err(a, "%.*s makes the program larger than the %u MB a VAX 8600 can hold",
                     (int)dn, d, VASM_MAX_IMAGE >> 20);
            return 0;
        }
        if (size == 0)
            return 0;
        /* One unit: .space's byte, or .fill's value, of which gas writes
         * 4 bytes at most, then zeros.  Emitted a block of whole units at
         * a time: a unit per call took seconds for a large count. */
        uint8_t unit[8] = {0};
        for (int i = 0; i < size && i < 4; i++)
            unit[i] = (uint8_t)((uint64_t)val >> (8 * i));
        uint8_t block[4096];
        int64_t per = (int64_t)(sizeof block / (size_t)size);
        for (int64_t i = 0; i < per; i++)
            memcpy(block + i * size, unit, (size_t)size);
        for (int64_t left = cnt; left > 0; left -= per) {
            int64_t k = left < per ? left : per;
            vasm_emit_bytes(vasm_fixed(a), block, (uint32_t)(k * size));
        }
        return 0;
    }
    if (dirname_is(d, dn, ".align") || dirname_is(d, dn, ".p2align") ||
        dirname_is(d, dn, ".balign")) {
        const char *ps[3], *pe[3];
        int n = vasm_split_operands(p, e, ps, pe, 3);
        if (n < 1 || n > 3) {
            vasm_err(a, "wrong number of arguments to %.*s", (int)dn, d);
            return 0;
        }
        int64_t v = const_expr(a, ps[0], pe[0], &ok);
        if (!ok)
            return 0;
        int p2 = 0;
        if (dirname_is(d, dn, ".balign")) {
            if (v < 0 || (v & (v - 1))) {
                vasm_err(a, "alignment %" PRId64 " is not a power of 2", v);
                return 0;
            }
            while (v > 1) {
                v >>= 1;
                p2++;
            }
        } else {
            if (v < 0 || v > 16) {
                vasm_err(a, "bad alignment %" PRId64, v);
                return 0;
            }
            p2 = (int)v;
        }
        int fill = -1;
        uint32_t max = 0;
        if (n >= 2) {
            const char *fs = ps[1], *fe = pe[1];
            vasm_trim(&fs, &fe);
            if (fs != fe) {
                fill = (int)(const_expr(a, fs, fe, &ok) & 0xff);
                if (!ok)
                    return 0;
            }
        }
        if (n >= 3) {
            int64_t m = const_expr(a, ps[2], pe[2], &ok);
            if (!ok)
                return 0;
            max = (uint32_t)m;
        }
        do_align(a, p2, fill, max);
        return 0;
    }
    if (dirname_is(d, dn, ".org")) {
        const char *ps[2], *pe[2];
        int n = vasm_split_operands(p, e, ps, pe, 2);
        if (n < 1 || n > 2) {
            vasm_err(a, "wrong number of arguments to .org");
            return 0;
        }
        lin r;
        if (vasm_parse_expr(a, ps[0], pe[0], &r))
            return 0;
        if (r.nt != 0 && !(r.nt == 1 && r.t[0].c == 1 && r.t[0].s->kind == SK_LABEL &&
                           r.t[0].s->sec == a->f->cursec)) {
            vasm_err(a, ".org target must be a constant or a fixed offset in this section");
            return 0;
        }
        int fill = 0;
        if (n == 2) {
            fill = (int)const_expr(a, ps[1], pe[1], &ok);
            if (!ok)
                return 0;
        }
        struct item *it = vasm_new_item(a, IT_ORG);
        it->target = r;
        it->fill = fill & 0xff;
        return 0;
    }
    if (dirname_is(d, dn, ".globl") || dirname_is(d, dn, ".global")) {
        const char *ps[64], *pe[64];
        int n = vasm_split_operands(p, e, ps, pe, 64);
        for (int i = 0; i < n && i < 64; i++) {
            const char *s = ps[i], *t = pe[i];
            vasm_trim(&s, &t);
            if (s == t || !vasm_is_sym1((unsigned char)*s)) {
                vasm_err(a, "bad symbol name in .globl");
                continue;
            }
            char *nm = vasm_xstrndup(s, (size_t)(t - s));
            vasm_sym_get(a, nm)->global = 1;
            free(nm);
        }
        return 0;
    }
    if (dirname_is(d, dn, ".set") || dirname_is(d, dn, ".equ")) {
        const char *c = p;
        while (c < e && *c != ',')
            c++;
        const char *ns = p, *ne = c;
        vasm_trim(&ns, &ne);
        if (c >= e || ns == ne) {
            vasm_err(a, "expected 'symbol, expression'");
            return 0;
        }
        vasm_set_symbol(a, ns, (size_t)(ne - ns), c + 1, e);
        return 0;
    }
    if (dirname_is(d, dn, ".end"))
        return 1;
    /* accepted and ignored: they do not change the loaded bytes */
    static const char *const ignored[] = {".type", ".size", ".file", ".ident"};
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
        if (dirname_is(d, dn, ignored[i]))
            return 0;
    vasm_err(a, "unknown or unsupported directive '%.*s'", (int)dn, d);
    return 0;
}
