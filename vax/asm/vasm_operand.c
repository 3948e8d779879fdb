/* vasm: parsing of operand-specifier text and encoding of general
 * (non-branch) operands, including gas's choice of displacement sizes.
 * Part of the assembler split over vasm*.c (see vasm_int.h).            */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "vasm_int.h"
#include "vax/isa/vax_float.h"
#include "vax/isa/vax_opcodes.h"

/* ------------------------------------------------------------------ */
/* operands                                                            */


void vasm_trim(const char **p, const char **e)
{
    while (*p < *e && isspace((unsigned char)**p))
        (*p)++;
    while (*e > *p && isspace((unsigned char)(*e)[-1]))
        (*e)--;
}

static const char *float_status_text(int st)
{
    switch (st) {
    case VAX_FLOAT_OVERFLOW: return "is too large for";
    case VAX_FLOAT_UNDERFLOW: return "is too small (but not zero) for";
    case VAX_FLOAT_NOT_FINITE: return "has no encoding in";
    default: return "has too many digits for";
    }
}

/* A $ operand that is a floating literal ($0f1.5, $-0d2e3): 1 when it is
 * one (o->flt set, or 0 after an error was reported), else 0. */
static int parse_float_immediate(struct as *a, const char *p, const char *e, struct opnd *o)
{
    vasm_trim(&p, &e);
    int neg = 0;
    if (p < e && (*p == '-' || *p == '+')) { /* gas's unary minus */
        neg = *p == '-';
        p++;
        while (p < e && isspace((unsigned char)*p))
            p++;
    }
    const char *end;
    int st;
    int letter = vasm_float_literal(p, e, &end, o->fw, &st);
    if (!letter)
        return 0;
    if (end != e) {
        vasm_err(a, "junk after floating literal: '%.*s'", (int)(e - end), end);
        return 1;
    }
    if (st != VAX_FLOAT_OK) {
        int n = (int)(e - p); /* quote at most 40 characters of it */
        vasm_err(a, "floating literal '%.*s%s' %s %c_floating", n > 40 ? 40 : n, p,
                 n > 40 ? "..." : "", float_status_text(st), toupper(letter));
        return 1;
    }
    if (neg && (o->fw[0] & 0x7fff)) /* zero stays zero: -0 would be the reserved operand */
        o->fw[0] ^= 0x8000;
    o->flt = letter;
    return 1;
}

/* Parse the text of one operand (not for branch displacements). */
int vasm_parse_operand(struct as *a, const char *p, const char *e, struct opnd *o)
{
    memset(o, 0, sizeof *o);
    o->idx = -1;
    vasm_trim(&p, &e);
    o->txt = p;
    o->txtlen = (int)(e - p);
    if (p == e) {
        vasm_err(a, "missing operand");
        return -1;
    }
    /* index suffix [rx] */
    if (e[-1] == ']') {
        const char *lb = e - 1;
        while (lb > p && *lb != '[')
            lb--;
        if (*lb != '[') {
            vasm_err(a, "missing '[' in operand '%.*s'", o->txtlen, o->txt);
            return -1;
        }
        const char *rp = lb + 1, *re = e - 1;
        vasm_trim(&rp, &re);
        int rx;
        int n = vasm_parse_reg(rp, re, &rx);
        if (!n || rp + n != re) {
            vasm_err(a, "bad index register '%.*s'", (int)(re - rp), rp);
            return -1;
        }
        o->idx = rx;
        e = lb;
        vasm_trim(&p, &e);
    }
    /* deferral and length prefixes, in either order */
    for (;;) {
        if (p < e && (*p == '*' || *p == '@')) {
            if (o->at) {
                vasm_err(a, "double deferral in operand '%.*s'", o->txtlen, o->txt);
                return -1;
            }
            o->at = 1;
            p++;
            while (p < e && isspace((unsigned char)*p))
                p++;
            continue;
        }
        if (e - p >= 2 && (p[1] == '`' || p[1] == '^') &&
            strchr("bBwWlLsSiI", p[0]) && !o->force) {
            int ch = tolower((unsigned char)p[0]);
            if (p[1] == '^' && (ch == 's' || ch == 'i'))
                ch = toupper(ch); /* DEC S^ / I^ */
            o->force = ch;
            p += 2;
            continue;
        }
        break;
    }
    if (p == e) {
        vasm_err(a, "missing operand");
        return -1;
    }
    if (*p == '$') {
        o->mode = o->at ? OM_ABS : OM_IMM;
        o->reg = 15;
        if (o->mode == OM_IMM && parse_float_immediate(a, p + 1, e, o))
            return o->flt ? 0 : -1;
        if (vasm_parse_expr(a, p + 1, e, &o->e))
            return -1;
        if (o->mode == OM_IMM && o->e.nt == 0) {
            int r = vasm_parse_number128(p + 1, e, o->nv);
            if (r < 0) {
                vasm_err(a, "constant '%.*s' does not fit in 128 bits", (int)(e - p - 1), p + 1);
                return -1;
            }
            o->num = r == 0;
        }
        return 0;
    }
    int reg, n;
    if ((n = vasm_parse_reg(p, e, &reg)) && p + n == e) {
        if (o->at) {
            vasm_err(a, "deferred register '%.*s': write (%s) for register deferred",
                     o->txtlen, o->txt, vasm_reg_name(reg));
            return -1;
        }
        o->mode = OM_REG;
        o->reg = reg;
        return 0;
    }
    /* -(rn) */
    if (*p == '-') {
        const char *q = p + 1;
        while (q < e && isspace((unsigned char)*q))
            q++;
        if (q < e && *q == '(') {
            const char *r = q + 1;
            while (r < e && isspace((unsigned char)*r))
                r++;
            if ((n = vasm_parse_reg(r, e, &reg))) {
                const char *t = r + n;
                while (t < e && isspace((unsigned char)*t))
                    t++;
                if (t + 1 == e && *t == ')') {
                    if (o->at) {
                        vasm_err(a, "autodecrement cannot be deferred: '%.*s'", o->txtlen, o->txt);
                        return -1;
                    }
                    o->mode = OM_ADEC;
                    o->reg = reg;
                    return 0;
                }
            }
        }
    }
    /* ...(rn) or ...(rn)+ */
    const char *end = e;
    int plus = 0;
    if (end[-1] == '+') {
        const char *t = end - 1;
        while (t > p && isspace((unsigned char)t[-1]))
            t--;
        if (t > p && t[-1] == ')') {
            plus = 1;
            end = t;
        }
    }
    if (end[-1] == ')') {
        /* find the matching '(' */
        const char *q = end - 1;
        int depth = 0;
        while (q >= p) {
            if (*q == ')')
                depth++;
            else if (*q == '(' && --depth == 0)
                break;
            q--;
        }
        if (q >= p) {
            const char *r = q + 1, *re = end - 1;
            vasm_trim(&r, &re);
            if ((n = vasm_parse_reg(r, re, &reg)) && r + n == re) {
                const char *dp = p, *de = q;
                vasm_trim(&dp, &de);
                if (plus) {
                    if (dp != de) {
                        vasm_err(a, "displacement not allowed with autoincrement: '%.*s'",
                                 o->txtlen, o->txt);
                        return -1;
                    }
                    o->mode = OM_AINC;
                    o->reg = reg;
                    return 0;
                }
                if (dp == de && !o->at && !o->force) {
                    o->mode = OM_DEF;
                    o->reg = reg;
                    return 0;
                }
                o->mode = OM_DISP;
                o->reg = reg;
                if (dp == de)
                    vasm_lin_const(&o->e, 0); /* *(rn) is *0(rn), like gas */
                else if (vasm_parse_expr(a, dp, de, &o->e))
                    return -1;
                return 0;
            }
        }
        if (plus) {
            vasm_err(a, "bad autoincrement operand '%.*s'", o->txtlen, o->txt);
            return -1;
        }
    }
    o->mode = OM_REL;
    o->reg = 15;
    return vasm_parse_expr(a, p, e, &o->e);
}

int vasm_classify(struct as *a, const lin *e, sym **sp)
{
    *sp = NULL;
    if (e->nt == 0)
        return EC_ABS;
    if (e->nt != 1 || e->t[0].c != 1)
        return EC_BAD;
    sym *s = e->t[0].s;
    *sp = s;
    if (s->kind == SK_UNDEF)
        return EC_UNDEF;
    if (s->kind == SK_LABEL)
        return s->sec == a->f->cursec ? EC_SAME : EC_OTHER;
    return EC_BAD;
}

static const char *acc_word(int acc)
{
    switch (acc) {
    case 'w':
    case 'm': return "writable";
    case 'a': return "an address";
    case 'v': return "a bit-field base";
    default: return "valid";
    }
}

/* A floating literal as immediate operand of type dt.  A floating operand
 * takes a literal of its own format only; an integer operand takes the
 * literal's first bytes, as gas does, but never as a short literal (gas
 * would turn $0f1.5 into literal 12 there, which loads 12).           */
static void encode_float_immediate(struct as *a, const struct opnd *o, int dt, int opno,
                                   const char *mn)
{
    int lfmt = vax_float_format(o->flt);
    int lbytes = vax_float_size(lfmt);
    int ofmt = vax_float_format(dt);
    int nbytes = vax_dtype_size((char)dt);
    int forced_short = o->force == 's' || o->force == 'S';
    if (ofmt >= 0 && ofmt != lfmt) {
        vasm_err(a, "operand %d of %s is %c_floating: write the literal as 0%c...", opno, mn,
                 toupper(dt), dt);
        return;
    }
    if (ofmt < 0 && (nbytes > lbytes || forced_short)) {
        vasm_err(a, "operand %d of %s: a %d-byte floating literal cannot be %s of this "
                    "%d-byte integer operand", opno, mn, lbytes,
                 forced_short ? "a short literal" : "the immediate", nbytes);
        return;
    }
    if (ofmt >= 0) {
        int lit = vax_float_short_literal(lfmt, o->fw);
        if (forced_short && lit < 0) {
            vasm_err(a, "operand %d of %s: %.*s is not a short literal value (0.5 to 120 "
                        "with 3 significant bits)", opno, mn, o->txtlen, o->txt);
            return;
        }
        /* gas chooses a short literal itself for every such value except
           H_floating ones with a nonzero fraction (its test is wrong there
           both ways; an immediate of the same value is harmless) */
        int automatic = lit >= 0 && (lfmt != VAX_FFMT_H || (lit & 7) == 0);
        if (forced_short || (automatic && o->force != 'i' && o->force != 'I')) {
            vasm_emit1(a, (unsigned)lit);
            return;
        }
    }
    uint8_t b[16];
    vax_float_to_bytes(lfmt, o->fw, b);
    vasm_emit1(a, 0x8f);
    vasm_emit_bytes(vasm_fixed(a), b, (uint32_t)nbytes);
}

/* Encode one general (non-branch) operand. */
void vasm_encode_operand(struct as *a, const struct opnd *o, int acc, int dt,
                         int opno, const char *mn)
{
    int nbytes = vax_dtype_size((char)dt);
    /* access checks */
    if (o->mode == OM_IMM && acc != 'r') {
        vasm_err(a, "operand %d of %s must be %s; %.*s is an immediate", opno, mn,
                 acc_word(acc), o->txtlen, o->txt);
        return;
    }
    if (o->mode == OM_REG && acc == 'a') {
        vasm_err(a, "operand %d of %s must be an address; %.*s is a register", opno,
                 mn, o->txtlen, o->txt);
        return;
    }
    if (o->mode == OM_REG && o->reg == 15) {
        vasm_err(a, "operand %d of %s: register mode with %%pc is unpredictable", opno, mn);
        return;
    }
    /* 8-byte operands use Rn and Rn+1, 16-byte ones Rn..Rn+3: none may be PC */
    if (o->mode == OM_REG && nbytes > 4 && o->reg + nbytes / 4 - 1 >= 15) {
        vasm_err(a, "operand %d of %s: %s register %s would include %%pc: unpredictable",
                 opno, mn, nbytes == 8 ? "8-byte" : "16-byte", vasm_reg_name(o->reg));
        return;
    }
    if ((o->mode == OM_DEF || o->mode == OM_AINC || o->mode == OM_ADEC) && o->reg == 15) {
        if (o->mode == OM_AINC)
            vasm_err(a, "operand %d of %s: (%%pc)+ is immediate mode; write $value", opno, mn);
        else
            vasm_err(a, "operand %d of %s: %s with %%pc is reserved", opno, mn,
                     o->mode == OM_DEF ? "register deferred" : "autodecrement");
        return;
    }
    if (o->force && (o->force == 'b' || o->force == 'w' || o->force == 'l') &&
        (o->mode != OM_DISP && o->mode != OM_REL)) {
        vasm_err(a, "operand %d of %s: length prefix only applies to displacements", opno, mn);
        return;
    }
    if (o->force && strchr("siSI", o->force) && o->mode != OM_IMM) {
        vasm_err(a, "operand %d of %s: S^/I^ prefix only applies to $ immediates", opno, mn);
        return;
    }
    if (o->idx >= 0) {
        if (o->idx == 15) {
            vasm_err(a, "operand %d of %s: index register %%pc is reserved", opno, mn);
            return;
        }
        if (o->mode == OM_REG || o->mode == OM_IMM) {
            vasm_err(a, "operand %d of %s: %s cannot be indexed", opno, mn,
                     o->mode == OM_REG ? "register mode" : "an immediate or literal");
            return;
        }
        if ((o->mode == OM_AINC || o->mode == OM_ADEC) && o->reg == o->idx) {
            vasm_err(a, "operand %d of %s: index register same as base register is unpredictable",
                     opno, mn);
            return;
        }
        vasm_emit1(a, 0x40 | (unsigned)o->idx);
    }
    int at = o->at ? 0x10 : 0;
    sym *s;
    switch (o->mode) {
    case OM_REG: vasm_emit1(a, 0x50 | (unsigned)o->reg); return;
    case OM_DEF: vasm_emit1(a, 0x60 | (unsigned)o->reg); return;
    case OM_ADEC: vasm_emit1(a, 0x70 | (unsigned)o->reg); return;
    case OM_AINC: vasm_emit1(a, (o->at ? 0x90 : 0x80) | (unsigned)o->reg); return;
    case OM_IMM: {
        if (o->flt) {
            encode_float_immediate(a, o, dt, opno, mn);
            return;
        }
        int ec = vasm_classify(a, &o->e, &s);
        if (ec == EC_BAD) {
            vasm_err(a, "operand %d of %s: expression too complex", opno, mn);
            return;
        }
        int shortlit = 0;
        if (ec == EC_ABS && (uint64_t)o->e.k < 64 && o->force != 'I' &&
            !(o->num && o->nv[1] != 0))
            shortlit = 1; /* gas: $0..63 (and i`$n) become short literals */
        if (o->force == 'S' && !shortlit) {
            vasm_err(a, "operand %d of %s: S^ literal must be 0..63", opno, mn);
            return;
        }
        if (shortlit) {
            vasm_emit1(a, (unsigned)o->e.k);
            return;
        }
        if (nbytes == 16 && ec != EC_ABS) {
            vasm_err(a, "operand %d of %s: a 16-byte immediate must be a constant", opno, mn);
            return;
        }
        vasm_emit1(a, 0x8f);
        if (nbytes == 16 && o->num) {
            /* a number: all 128 bits of it (gas zero-extends a negative
               one from 64 bits; see README, Deviations) */
            vasm_emitn(a, o->nv[0], 8);
            vasm_emitn(a, o->nv[1], 8);
        } else if (ec == EC_ABS)
            vasm_emitn(a, (uint64_t)o->e.k, nbytes); /* sign-extended past 8 bytes */
        else
            vasm_emit_expr(a, &o->e, nbytes, 0, FX_IMM, mn);
        return;
    }
    case OM_ABS: {
        int ec = vasm_classify(a, &o->e, &s);
        if (ec == EC_BAD) {
            vasm_err(a, "operand %d of %s: expression too complex", opno, mn);
            return;
        }
        /* Deviation: gas writes an operand-sized address for *$x with
           b/w/q read operands; the address of absolute mode is always 4. */
        vasm_emit1(a, 0x9f);
        if (ec == EC_ABS)
            vasm_emitn(a, (uint64_t)o->e.k, 4);
        else
            vasm_emit_expr(a, &o->e, 4, 0, FX_IMM, mn);
        return;
    }
    case OM_DISP: {
        int ec = vasm_classify(a, &o->e, &s);
        if (ec == EC_BAD) {
            vasm_err(a, "operand %d of %s: expression too complex", opno, mn);
            return;
        }
        int len = o->force == 'b' ? 1 : o->force == 'w' ? 2 : o->force == 'l' ? 4 : 0;
        if (!len) {
            if (ec == EC_ABS) {
                int64_t t = o->e.k;
                if (t < 0)
                    t = ~t;
                len = (t & ~(int64_t)0x7fff) ? 4 : (t & ~(int64_t)0x7f) ? 2 : 1;
            } else
                len = 4; /* gas: any symbolic displacement is a longword */
        }
        unsigned m = len == 1 ? 0xa0 : len == 2 ? 0xc0 : 0xe0;
        vasm_emit1(a, (m | (unsigned)at) | (unsigned)o->reg);
        if (ec == EC_ABS) {
            int64_t v = o->e.k;
            int64_t lo = -((int64_t)1 << (8 * len - 1)), hi = ((int64_t)1 << (8 * len)) - 1;
            if (len < 4 && (v < lo || v > hi)) {
                vasm_err(a, "operand %d of %s: displacement %" PRId64 " does not fit in %d byte%s",
                         opno, mn, v, len, len > 1 ? "s" : "");
                return;
            }
            vasm_emitn(a, (uint64_t)v, len);
        } else
            vasm_emit_expr(a, &o->e, len, 0, FX_DISP, mn);
        return;
    }
    case OM_REL: {
        int ec = vasm_classify(a, &o->e, &s);
        if (ec == EC_BAD) {
            vasm_err(a, "operand %d of %s: expression too complex", opno, mn);
            return;
        }
        int len = o->force == 'b' ? 1 : o->force == 'w' ? 2 : o->force == 'l' ? 4 : 0;
        if (ec == EC_ABS) {
            /* gas: a known absolute address becomes absolute mode @#addr;
               it drops both the length prefix and the '*' deferral */
            vasm_emit1(a, 0x9f);
            vasm_emitn(a, (uint64_t)o->e.k, 4);
            return;
        }
        if (ec == EC_SAME && len) {
            unsigned m = len == 1 ? 0xaf : len == 2 ? 0xcf : 0xef;
            vasm_emit1(a, m | (unsigned)at);
            vasm_emit_expr(a, &o->e, len, 1, FX_DISP, mn);
            return;
        }
        if (ec == EC_OTHER) {
            if (!len)
                len = 4;
            unsigned m = len == 1 ? 0xaf : len == 2 ? 0xcf : 0xef;
            vasm_emit1(a, m | (unsigned)at);
            vasm_emit_expr(a, &o->e, len, 1, FX_DISP, mn);
            return;
        }
        /* same section without length, or undefined so far: relaxable */
        struct item *v = vasm_new_item(a, IT_VAR);
        v->rtype = RT_PCREL;
        v->at = at;
        v->target = o->e;
        v->mn = mn;
        v->relaxable = 1;
        if (len)
            v->rlen = len == 1 ? RL_BYTE : len == 2 ? RL_WORD : RL_LONG;
        else if (ec == EC_SAME && !s->global)
            v->rlen = RL_BYTE;
        else
            v->undf = 1; /* decided at the end of the file, like gas */
        return;
    }
    }
}
