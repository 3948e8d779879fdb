/* vasm: linear expressions (constant + symbol terms), lexical helpers
 * (registers, escapes, symbol characters) and the expression parser.
 * Part of the assembler split over vasm*.c (see vasm_int.h).            */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "vasm_int.h"
#include "vax/isa/vax_float.h"

/* ------------------------------------------------------------------ */
/* linear expressions                                                  */

void vasm_lin_const(lin *e, int64_t k)
{
    e->k = k;
    e->nt = 0;
}

/* Expression arithmetic wraps modulo 2^64, as an assembler's must: an
 * input may overflow, and signed overflow would be undefined in C. */
static inline int64_t wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t wmul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static inline int64_t wneg(int64_t a) { return (int64_t)(0 - (uint64_t)a); }

static int lin_addterm(struct as *a, lin *e, sym *s, int64_t c)
{
    for (int i = 0; i < e->nt; i++)
        if (e->t[i].s == s) {
            e->t[i].c = wadd(e->t[i].c, c);
            if (e->t[i].c == 0) {
                e->t[i] = e->t[--e->nt];
            }
            return 0;
        }
    if (c == 0)
        return 0;
    if (e->nt == MAXTERMS) {
        vasm_err(a, "expression too complex");
        return -1;
    }
    e->t[e->nt].s = s;
    e->t[e->nt].c = c;
    e->nt++;
    return 0;
}

/* Reduce label differences whose distance is already vasm_fixed (same section,
 * no variable-size item between): gas folds those into constants. */
static void lin_fold(lin *e)
{
    for (int i = 0; i < e->nt; i++) {
        sym *s = e->t[i].s;
        if (s->kind != SK_LABEL)
            continue;
        int64_t csum = 0;
        for (int j = 0; j < e->nt; j++) {
            sym *u = e->t[j].s;
            if (u->kind == SK_LABEL && u->sec == s->sec && u->epoch == s->epoch)
                csum = wadd(csum, e->t[j].c);
        }
        if (csum != 0)
            continue;
        int64_t k = 0;
        for (int j = 0; j < e->nt;) {
            sym *u = e->t[j].s;
            if (u->kind == SK_LABEL && u->sec == s->sec && u->epoch == s->epoch) {
                k = wadd(k, wmul(e->t[j].c, (int64_t)u->epoff));
                e->t[j] = e->t[--e->nt];
            } else
                j++;
        }
        e->k = wadd(e->k, k);
        i = -1;
    }
}

static int lin_add(struct as *a, lin *r, const lin *x, int64_t sign)
{
    r->k = wadd(r->k, wmul(sign, x->k));
    for (int i = 0; i < x->nt; i++)
        if (lin_addterm(a, r, x->t[i].s, wmul(sign, x->t[i].c)))
            return -1;
    lin_fold(r);
    return 0;
}

/* ------------------------------------------------------------------ */
/* lexical helpers                                                     */

static void skipws(struct cur *c)
{
    while (c->p < c->e && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r' ||
                           *c->p == '\f' || *c->p == '\v'))
        c->p++;
}
int vasm_is_sym1(int ch) { return isalpha(ch) || ch == '_' || ch == '.'; }
int vasm_is_symc(int ch) { return isalnum(ch) || ch == '_' || ch == '.' || ch == '$'; }

/* Register name at p (with or without '%'); returns length or 0. */
int vasm_parse_reg(const char *p, const char *e, int *reg)
{
    const char *q = p;
    if (q < e && *q == '%')
        q++;
    const char *s = q;
    while (q < e && isalnum((unsigned char)*q))
        q++;
    size_t n = (size_t)(q - s);
    if (q < e && vasm_is_symc((unsigned char)*q))
        return 0;
    char buf[8];
    if (n == 0 || n >= sizeof buf)
        return 0;
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)tolower((unsigned char)s[i]);
    buf[n] = 0;
    int r = -1;
    if (buf[0] == 'r' && n >= 2 && n <= 3 && isdigit((unsigned char)buf[1]) &&
        (n == 2 || isdigit((unsigned char)buf[2]))) {
        r = atoi(buf + 1);
        if (r > 15 || (n == 3 && buf[1] == '0'))
            r = -1;
    } else if (!strcmp(buf, "ap"))
        r = 12;
    else if (!strcmp(buf, "fp"))
        r = 13;
    else if (!strcmp(buf, "sp"))
        r = 14;
    else if (!strcmp(buf, "pc"))
        r = 15;
    if (r < 0)
        return 0;
    *reg = r;
    return (int)(q - p);
}

const char *vasm_reg_name(int r)
{
    static const char *const n[16] = {"%r0", "%r1", "%r2", "%r3", "%r4", "%r5",
                                      "%r6", "%r7", "%r8", "%r9", "%r10", "%r11",
                                      "%ap", "%fp", "%sp", "%pc"};
    return n[r & 15];
}

/* character escapes shared by strings and character constants */
int vasm_parse_escape(struct cur *c)
{
    /* c->p points after the backslash */
    if (c->p >= c->e)
        return '\\';
    int ch = (unsigned char)*c->p++;
    switch (ch) {
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'v': return '\v';
    case 'a': return 7;
    case 'x':
    case 'X': {
        unsigned v = 0; /* \x takes every hex digit; the low byte counts */
        while (c->p < c->e && isxdigit((unsigned char)*c->p)) {
            int d = *c->p++;
            v = (v * 16 + (unsigned)(isdigit(d) ? d - '0' : (tolower(d) - 'a' + 10))) & 0xff;
        }
        return (int)v;
    }
    default:
        if (ch >= '0' && ch <= '7') {
            int v = ch - '0';
            for (int i = 0; i < 2 && c->p < c->e && *c->p >= '0' && *c->p <= '7'; i++)
                v = v * 8 + (*c->p++ - '0');
            return v & 0xff;
        }
        return ch;
    }
}

/* ------------------------------------------------------------------ */
/* expression parser: gas precedence (high: * / % << >>; mid: | & ^ !;  */
/* low: + -), unary - ~ + !                                            */

static int expr_low(struct as *a, struct cur *c, lin *r);

static int need_const(struct as *a, const lin *x)
{
    if (x->nt) {
        vasm_err(a, "expression too complex: operator needs absolute operands");
        return -1;
    }
    return 0;
}

static int expr_primary(struct as *a, struct cur *c, lin *r)
{
    skipws(c);
    vasm_lin_const(r, 0);
    if (c->p >= c->e) {
        vasm_err(a, "missing expression");
        return -1;
    }
    int ch = (unsigned char)*c->p;
    if ((ch == '(' || ch == '-' || ch == '~' || ch == '+' || ch == '!') &&
        a->expr_depth >= VASM_MAX_EXPR_DEPTH) {
        vasm_err(a, "expression nested too deeply (more than %d parentheses or unary operators)",
                 VASM_MAX_EXPR_DEPTH);
        return -1;
    }
    if (ch == '(') {
        c->p++;
        a->expr_depth++;
        int bad = expr_low(a, c, r);
        a->expr_depth--;
        if (bad)
            return -1;
        skipws(c);
        if (c->p >= c->e || *c->p != ')') {
            vasm_err(a, "missing ')' in expression");
            return -1;
        }
        c->p++;
        return 0;
    }
    if (ch == '-' || ch == '~' || ch == '+' || ch == '!') {
        c->p++;
        a->expr_depth++;
        int bad = expr_primary(a, c, r);
        a->expr_depth--;
        if (bad)
            return -1;
        if (ch == '-') {
            r->k = wneg(r->k);
            for (int i = 0; i < r->nt; i++)
                r->t[i].c = wneg(r->t[i].c);
        } else if (ch == '~' || ch == '!') {
            if (need_const(a, r))
                return -1;
            r->k = ch == '~' ? ~r->k : !r->k;
        }
        return 0;
    }
    if (ch == '\'') {
        c->p++;
        if (c->p >= c->e) {
            vasm_err(a, "bad character constant");
            return -1;
        }
        int v;
        if (*c->p == '\\') {
            c->p++;
            v = vasm_parse_escape(c);
        } else
            v = (unsigned char)*c->p++;
        if (c->p < c->e && *c->p == '\'') /* accept 'c' as well as 'c */
            c->p++;
        r->k = v;
        return 0;
    }
    if (isdigit(ch)) {
        const char *s = c->p;
        const char *fend;
        uint16_t fw[8];
        int fst;
        if (vasm_float_literal(s, c->e, &fend, fw, &fst)) {
            vasm_err(a, "floating-point literal '%.*s' where an integer is needed "
                        "(only a whole $ operand may be one)", (int)(fend - s), s);
            return -1;
        }
        /* numeric local label reference: digits followed by b or f */
        const char *q = s;
        while (q < c->e && isdigit((unsigned char)*q))
            q++;
        if (q < c->e && (*q == 'b' || *q == 'f' || *q == 'B' || *q == 'F') &&
            (q + 1 >= c->e || !vasm_is_symc((unsigned char)q[1])) &&
            !(q - s == 1 && *s == '0' && q + 1 < c->e && isxdigit((unsigned char)q[1]))) {
            long n = strtol(s, NULL, 10);
            struct numlab *nl = vasm_numlab(a->f, n);
            int fwd = tolower((unsigned char)*q) == 'f';
            if (!fwd && nl->count == 0) {
                vasm_err(a, "local label %ldb is not defined", n);
                return -1;
            }
            char buf[48];
            vasm_numlab_name(buf, sizeof buf, n, fwd ? nl->count + 1 : nl->count);
            sym *sy = vasm_sym_get(a, buf);
            sy->hidden = 1;
            c->p = q + 1;
            r->nt = 1;
            r->t[0].s = sy;
            r->t[0].c = 1;
            return 0;
        }
        uint64_t v = 0;
        int base = 10;
        const char *p = s;
        if (*p == '0' && p + 1 < c->e && (p[1] == 'x' || p[1] == 'X')) {
            base = 16;
            p += 2;
        } else if (*p == '0' && p + 1 < c->e && (p[1] == 'b' || p[1] == 'B')) {
            base = 2;
            p += 2;
        } else if (*p == '0')
            base = 8;
        const char *digits = p;
        while (p < c->e && isalnum((unsigned char)*p)) {
            int d = tolower((unsigned char)*p);
            int dv = isdigit(d) ? d - '0' : (d >= 'a' && d <= 'f') ? d - 'a' + 10 : 99;
            if (dv >= base) {
                vasm_err(a, "bad digit '%c' in number", *p);
                return -1;
            }
            v = v * (uint64_t)base + (uint64_t)dv;
            p++;
        }
        if (base == 16 && p == digits) {
            vasm_err(a, "bad hexadecimal number");
            return -1;
        }
        c->p = p;
        r->k = (int64_t)v;
        return 0;
    }
    if (vasm_is_sym1(ch) || ch == '%') {
        const char *s = c->p;
        if (ch == '%') {
            int reg;
            if (vasm_parse_reg(c->p, c->e, &reg)) {
                vasm_err(a, "register %s used in an expression", vasm_reg_name(reg));
                return -1;
            }
            vasm_err(a, "unexpected '%%' in expression");
            return -1;
        }
        const char *q = s + 1;
        while (q < c->e && vasm_is_symc((unsigned char)*q))
            q++;
        c->p = q;
        if (q - s == 1 && *s == '.') {
            sym *d = vasm_dot_symbol(a);
            r->nt = 1;
            r->t[0].s = d;
            r->t[0].c = 1;
            return 0;
        }
        char *name = vasm_xstrndup(s, (size_t)(q - s));
        sym *sy = vasm_sym_get(a, name);
        free(name);
        int64_t add = 0;
        sym *b = vasm_sym_base(sy, &add);
        if (b->kind == SK_ABS) {
            r->k = b->val + add;
            return 0;
        }
        r->k = add;
        r->nt = 1;
        r->t[0].s = b;
        r->t[0].c = 1;
        return 0;
    }
    vasm_err(a, "junk '%c' in expression", ch);
    return -1;
}

static int binop(struct as *a, lin *l, const lin *r, const char *op)
{
    if (need_const(a, l) || need_const(a, r))
        return -1;
    int64_t x = l->k, y = r->k;
    switch (op[0]) {
    case '*': l->k = (int64_t)((uint64_t)x * (uint64_t)y); break;
    case '/':
    case '%':
        if (y == 0) {
            vasm_err(a, "division by zero");
            return -1;
        }
        if (x == INT64_MIN && y == -1)
            l->k = op[0] == '/' ? x : 0;
        else
            l->k = op[0] == '/' ? x / y : x % y;
        break;
    case '<': l->k = (y >= 64 || y < 0) ? 0 : (int64_t)((uint64_t)x << y); break;
    case '>': l->k = (y >= 64 || y < 0) ? 0 : (int64_t)((uint64_t)x >> y); break;
    case '|': l->k = x | y; break;
    case '&': l->k = x & y; break;
    case '^': l->k = x ^ y; break;
    case '!': l->k = x | ~y; break;
    }
    return 0;
}

static int expr_high(struct as *a, struct cur *c, lin *r)
{
    if (expr_primary(a, c, r))
        return -1;
    for (;;) {
        skipws(c);
        if (c->p >= c->e)
            return 0;
        const char *op;
        if (*c->p == '*')
            op = "*";
        else if (*c->p == '/')
            op = "/";
        else if (*c->p == '%')
            op = "%";
        else if (c->e - c->p >= 2 && c->p[0] == '<' && c->p[1] == '<')
            op = "<<";
        else if (c->e - c->p >= 2 && c->p[0] == '>' && c->p[1] == '>')
            op = ">>";
        else
            return 0;
        c->p += strlen(op);
        lin y;
        if (expr_primary(a, c, &y) || binop(a, r, &y, op))
            return -1;
    }
}

static int expr_mid(struct as *a, struct cur *c, lin *r)
{
    if (expr_high(a, c, r))
        return -1;
    for (;;) {
        skipws(c);
        if (c->p >= c->e)
            return 0;
        char ch = *c->p;
        if (ch != '|' && ch != '&' && ch != '^' && ch != '!')
            return 0;
        c->p++;
        char op[2] = {ch, 0};
        lin y;
        if (expr_high(a, c, &y) || binop(a, r, &y, op))
            return -1;
    }
}

static int expr_low(struct as *a, struct cur *c, lin *r)
{
    if (expr_mid(a, c, r))
        return -1;
    lin_fold(r);
    for (;;) {
        skipws(c);
        if (c->p >= c->e)
            return 0;
        char ch = *c->p;
        if (ch != '+' && ch != '-')
            return 0;
        c->p++;
        lin y;
        if (expr_mid(a, c, &y))
            return -1;
        if (lin_add(a, r, &y, ch == '+' ? 1 : -1))
            return -1;
    }
}

/* Parse a whole expression occupying [p,e). */
int vasm_parse_expr(struct as *a, const char *p, const char *e, lin *r)
{
    struct cur c = {p, e};
    if (expr_low(a, &c, r))
        return -1;
    skipws(&c);
    if (c.p != c.e) {
        vasm_err(a, "junk at end of expression: '%.*s'", (int)(c.e - c.p), c.p);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* floating literals and wide numbers                                  */

/* A floating literal at p as GNU as reads one: 0 then one of f d g h
 * (either case) then a decimal number (vax_float_from_decimal).  "0f"
 * is also local label 0's forward reference: like gas, it is a literal
 * only if a number follows that is more than a sign and is not followed
 * by 'f' or 'b'.  Returns the lower-case letter (and sets *end past the
 * literal, w to its value, *status to the conversion's status), or 0. */
int vasm_float_literal(const char *p, const char *e, const char **end, uint16_t w[8],
                       int *status)
{
    if (e - p < 2 || p[0] != '0')
        return 0;
    int letter = (unsigned char)p[1];
    int fmt = vax_float_format(letter);
    if (fmt < 0)
        return 0;
    const char *q;
    int st = vax_float_from_decimal(p + 2, e, &q, fmt, w);
    if (letter == 'f' &&
        (q == p + 2 || (q == p + 3 && (p[2] == '+' || p[2] == '-')) ||
         (q < e && (*q == 'f' || *q == 'b'))))
        return 0;
    *end = q;
    *status = st;
    return tolower(letter);
}

/* The text [p,e) as one integer literal with an optional sign (decimal,
 * 0x hex, 0b binary, 0 octal), in 128 bits, two's complement, v[0] the low
 * half.  Returns 0, 1 when the text is not a single number, -1 when the
 * number does not fit in 128 bits. */
int vasm_parse_number128(const char *p, const char *e, uint64_t v[2])
{
    vasm_trim(&p, &e);
    int neg = 0;
    if (p < e && (*p == '-' || *p == '+')) {
        neg = *p == '-';
        p++;
    }
    if (p >= e || !isdigit((unsigned char)*p))
        return 1;
    int base = 10;
    if (*p == '0' && e - p >= 2 && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    } else if (*p == '0' && e - p >= 2 && (p[1] == 'b' || p[1] == 'B')) {
        base = 2;
        p += 2;
    } else if (*p == '0')
        base = 8;
    if (p >= e)
        return 1;
    uint32_t d[4] = {0, 0, 0, 0}; /* least significant first */
    for (; p < e; p++) {
        int ch = tolower((unsigned char)*p);
        int dv = isdigit(ch) ? ch - '0' : (ch >= 'a' && ch <= 'f') ? ch - 'a' + 10 : 99;
        if (dv >= base)
            return 1;
        uint64_t carry = (uint64_t)dv;
        for (int i = 0; i < 4; i++) {
            uint64_t t = (uint64_t)d[i] * (uint64_t)base + carry;
            d[i] = (uint32_t)t;
            carry = t >> 32;
        }
        if (carry)
            return -1;
    }
    v[0] = (uint64_t)d[1] << 32 | d[0];
    v[1] = (uint64_t)d[3] << 32 | d[2];
    if (neg) {
        if (v[1] >> 63 && (v[1] != (uint64_t)1 << 63 || v[0] != 0))
            return -1; /* below -2^127 */
        v[0] = ~v[0] + 1;
        v[1] = ~v[1] + (v[0] == 0);
    }
    return 0;
}
