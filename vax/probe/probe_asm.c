/* The probe programs' text form: assembler and listing (probe_asm.h;
 * the syntax is PROBES.md, "Text form"). */
#include "vax/probe/probe_asm.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define TOK_MAX 24
#define LABEL_MAX 256

struct tok {
    char s[64];
    unsigned col;
};

struct fix {          /* a reference resolved at the end */
    unsigned insn;    /* the instruction */
    char name[PRB_NAME];
    unsigned line, col;
    int kind;         /* 0: a label (skip), 1: a probe (imm), 2: a map (imm) */
    int probe;        /* labels: the probe they belong to */
};

struct asmst {
    const char *name;
    struct prb_program *p;
    char *err;
    size_t errlen;
    unsigned line;
    int cur;                        /* the probe being assembled, -1: none */
    struct { char name[PRB_NAME]; unsigned at; } label[LABEL_MAX];
    unsigned nlabel;
    unsigned loop_at[8], nloop;
    struct fix *fix;
    size_t nfix, capfix;
    prb_resolve_fn resolve;
    void *rctx;
};

static int fail(struct asmst *a, unsigned col, const char *fmt, ...)
{
    int n = snprintf(a->err, a->errlen, "%s:%u:%u: ", a->name, a->line, col);
    if (n < 0 || (size_t)n >= a->errlen)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->err + n, a->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static int word_char(int c)
{
    return isalnum(c) || c == '_' || c == '.' || c == '$' || c == '@';
}

/* Splits a line into tokens: words and numbers, and the punctuation
 * , [ ] + - : one character each. */
static int tokenize(struct asmst *a, const char *s, size_t n, struct tok *t, unsigned *nt)
{
    *nt = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c == '#' || c == ';')
            break;
        if (isspace(c)) {
            i++;
            continue;
        }
        if (*nt == TOK_MAX)
            return fail(a, (unsigned)i + 1, "too many words on one line");
        struct tok *k = &t[(*nt)++];
        k->col = (unsigned)i + 1;
        if (strchr(",[]+-:", c)) {
            k->s[0] = (char)c;
            k->s[1] = 0;
            i++;
            continue;
        }
        if (!word_char(c))
            return fail(a, (unsigned)i + 1, "unexpected character '%c'", isprint(c) ? c : '?');
        size_t j = 0;
        while (i < n && word_char((unsigned char)s[i])) {
            if (j + 1 >= sizeof k->s)
                return fail(a, k->col, "a word longer than %zu characters", sizeof k->s - 1);
            k->s[j++] = s[i++];
        }
        k->s[j] = 0;
    }
    return 0;
}

/* A name known to fit (name_ok, add_fix) into a PRB_NAME buffer. */
static void set_name(char *dst, const char *src)
{
    size_t n = strnlen(src, PRB_NAME - 1);
    memcpy(dst, src, n);
    dst[n] = 0;
}

static int eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

/* A number: decimal or 0x hex, optionally after a "-" token. */
static int number(struct asmst *a, const struct tok *t, unsigned nt, unsigned *i, int64_t lo,
                  int64_t hi, int64_t *out)
{
    if (*i >= nt)
        return fail(a, nt ? t[nt - 1].col : 1, "a number is missing");
    int neg = 0;
    unsigned col = t[*i].col;
    if (t[*i].s[0] == '-' && !t[*i].s[1]) {
        neg = 1;
        if (++*i >= nt)
            return fail(a, col, "a number is missing after '-'");
    }
    const char *s = t[*i].s;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (!isdigit((unsigned char)s[0]) && a->resolve && !neg &&
        (isalpha((unsigned char)s[0]) || s[0] == '_')) {
        /* a symbol, and an offset from it */
        uint32_t sv;
        if (a->resolve(a->rctx, s, &sv))
            return fail(a, t[*i].col, "unknown symbol '%s'", s);
        (*i)++;
        int64_t x = sv;
        if (*i + 1 < nt && (strcmp(t[*i].s, "+") == 0 || strcmp(t[*i].s, "-") == 0) &&
            isdigit((unsigned char)t[*i + 1].s[0])) {
            int minus = t[*i].s[0] == '-';
            (*i)++;
            errno = 0;
            unsigned long long o = strtoull(t[*i].s, &end, 0);
            if (*end || errno || o > 0xFFFFFFFFull)
                return fail(a, t[*i].col, "'%s' is not a number", t[*i].s);
            x += minus ? -(int64_t)o : (int64_t)o;
            (*i)++;
        }
        if (x < lo || x > hi)
            return fail(a, col, "%s is out of range", s);
        *out = x;
        return 0;
    }
    if (!a->resolve && !neg && (isalpha((unsigned char)s[0]) || s[0] == '_'))
        return fail(a, t[*i].col, "'%s': a symbol, but there is no symbol table (numbers only)",
                    s);
    if (!isdigit((unsigned char)s[0]) || *end || errno)
        return fail(a, t[*i].col, "'%s' is not a number", s);
    if (v > 0xFFFFFFFFull + (neg ? 1 : 0))
        return fail(a, col, "%s%s does not fit 32 bits", neg ? "-" : "", s);
    int64_t x = neg ? -(int64_t)v : (int64_t)v;
    /* an offset: NUMBER + N, NUMBER - N (after an address) */
    if (*i + 2 < nt + 1 && *i + 2 <= nt && *i + 1 < nt &&
        (strcmp(t[*i + 1].s, "+") == 0 || strcmp(t[*i + 1].s, "-") == 0) && *i + 2 < nt &&
        isdigit((unsigned char)t[*i + 2].s[0])) {
        errno = 0;
        unsigned long long o = strtoull(t[*i + 2].s, &end, 0);
        if (!*end && !errno && o <= 0xFFFFFFFFull) {
            x += t[*i + 1].s[0] == '-' ? -(int64_t)o : (int64_t)o;
            *i += 2;
        }
    }
    if (x < lo || x > hi)
        return fail(a, col, "%s%s is out of range (%lld to %lld)", neg ? "-" : "", s,
                    (long long)lo, (long long)hi);
    (*i)++;
    *out = x;
    return 0;
}

static int expect(struct asmst *a, const struct tok *t, unsigned nt, unsigned *i, const char *p)
{
    if (*i >= nt || strcmp(t[*i].s, p) != 0)
        return fail(a, *i < nt ? t[*i].col : (nt ? t[nt - 1].col + 1 : 1), "'%s' expected", p);
    (*i)++;
    return 0;
}

static int reg(struct asmst *a, const struct tok *t, unsigned nt, unsigned *i, uint8_t *out)
{
    if (*i >= nt)
        return fail(a, nt ? t[nt - 1].col + 1 : 1, "a register (p0-p15) expected");
    const char *s = t[*i].s;
    char *end;
    if ((s[0] != 'p' && s[0] != 'P') || !isdigit((unsigned char)s[1]))
        return fail(a, t[*i].col, "'%s' is not a register (p0-p15)", s);
    long v = strtol(s + 1, &end, 10);
    if (*end || v > 15)
        return fail(a, t[*i].col, "'%s' is not a register (p0-p15)", s);
    *out = (uint8_t)v;
    (*i)++;
    return 0;
}

static int comma(struct asmst *a, const struct tok *t, unsigned nt, unsigned *i)
{
    return expect(a, t, nt, i, ",");
}

static int add_fix(struct asmst *a, const struct tok *k, int kind)
{
    if (a->nfix == a->capfix) {
        size_t n = a->capfix ? a->capfix * 2 : 64;
        struct fix *f = realloc(a->fix, n * sizeof *f);
        if (!f)
            return fail(a, k->col, "out of memory");
        a->fix = f;
        a->capfix = n;
    }
    if (strlen(k->s) >= PRB_NAME)
        return fail(a, k->col, "the name '%s' is longer than %d characters", k->s, PRB_NAME - 1);
    struct fix *f = &a->fix[a->nfix++];
    set_name(f->name, k->s);
    f->insn = a->p->ncode;
    f->line = a->line;
    f->col = k->col;
    f->kind = kind;
    f->probe = a->cur;
    return 0;
}

static int name_ok(struct asmst *a, const struct tok *k)
{
    if (strlen(k->s) >= PRB_NAME)
        return fail(a, k->col, "the name '%s' is longer than %d characters", k->s, PRB_NAME - 1);
    if (!isalpha((unsigned char)k->s[0]) && k->s[0] != '_' && k->s[0] != '@')
        return fail(a, k->col, "'%s' is not a name", k->s);
    return 0;
}

/* The probe being assembled is complete: its labels and loops. */
static int end_probe(struct asmst *a)
{
    if (a->cur < 0)
        return 0;
    struct prb_probe_desc *d = &a->p->probe[a->cur];
    if (a->nloop)
        return fail(a, 1, "a loop in probe '%s' has no endloop", a->p->probe_name[a->cur]);
    d->len = (uint16_t)(a->p->ncode - d->code);
    for (size_t f = 0; f < a->nfix; f++) {
        struct fix *x = &a->fix[f];
        if (x->kind != 0 || x->probe != a->cur)
            continue;
        unsigned l;
        for (l = 0; l < a->nlabel && strcmp(a->label[l].name, x->name) != 0; l++)
            ;
        a->line = x->line;
        if (l == a->nlabel)
            return fail(a, x->col, "no label '%s' in probe '%s'", x->name,
                        a->p->probe_name[a->cur]);
        if (a->label[l].at <= x->insn)
            return fail(a, x->col, "label '%s' is not ahead: branches go forward only", x->name);
        a->p->code[x->insn].skip = a->label[l].at - x->insn - 1;
        x->kind = -1; /* done */
    }
    a->nlabel = 0;
    return 0;
}

static int probe_line(struct asmst *a, const struct tok *t, unsigned nt)
{
    struct prb_program *p = a->p;
    if (end_probe(a))
        return -1;
    if (nt < 3)
        return fail(a, t[0].col, "probe NAME KIND ... expected");
    if (p->nprobes == PRB_MAX_PROBES)
        return fail(a, t[0].col, "more than %d probes", PRB_MAX_PROBES);
    if (name_ok(a, &t[1]))
        return -1;
    for (unsigned i = 0; i < p->nprobes; i++)
        if (strcmp(p->probe_name[i], t[1].s) == 0)
            return fail(a, t[1].col, "probe '%s' is defined twice", t[1].s);
    int kind = prb_kind_lookup(t[2].s);
    if (kind < 0)
        return fail(a, t[2].col, "'%s' is not a checkpoint kind (pc, ret, event, sample)", t[2].s);
    a->cur = (int)p->nprobes++;
    struct prb_probe_desc *d = &p->probe[a->cur];
    memset(d, 0, sizeof *d);
    set_name(p->probe_name[a->cur], t[1].s);
    p->probe_line[a->cur] = a->line;
    d->kind = (uint8_t)kind;
    d->code = (uint16_t)p->ncode;
    unsigned i = 3;
    int64_t v;
    if (kind != PRB_K_RET) {
        if (number(a, t, nt, &i, kind == PRB_K_EVENT ? 0 : 1, 0xFFFFFFFF, &v))
            return -1;
        d->addr = (uint32_t)v;
        if (kind == PRB_K_EVENT)
            d->mask = 0xFFFF;
    }
    while (i < nt) {
        const struct tok *k = &t[i++];
        if (eq(k->s, "mask") && kind == PRB_K_EVENT) {
            if (number(a, t, nt, &i, 0, 0xFFFF, &v))
                return -1;
            d->mask = (uint32_t)v;
        } else if (eq(k->s, "pid")) {
            if (number(a, t, nt, &i, 0, 0xFFFFFFFF, &v))
                return -1;
            d->pid = (uint32_t)v;
            d->flags |= PRB_PF_PID;
        } else if (eq(k->s, "prog")) {
            if (number(a, t, nt, &i, 0, 0xFFFFFFFF, &v))
                return -1;
            d->prog = (uint32_t)v;
            d->flags |= PRB_PF_PROG;
        } else if (eq(k->s, "uid")) {
            if (number(a, t, nt, &i, 0, 0xFFFF, &v))
                return -1;
            d->uid = (uint16_t)v;
            d->flags |= PRB_PF_UID;
        } else if (eq(k->s, "ipl")) {
            if (number(a, t, nt, &i, 0, 31, &v))
                return -1;
            d->ipl_lo = (uint8_t)v;
            if (number(a, t, nt, &i, 0, 31, &v))
                return -1;
            d->ipl_hi = (uint8_t)v;
            d->flags |= PRB_PF_IPL;
        } else if (eq(k->s, "budget")) {
            if (number(a, t, nt, &i, 1, PRB_MAX_BUDGET, &v))
                return -1;
            d->budget = (uint32_t)v;
        } else if (eq(k->s, "disarmed")) {
            d->flags |= PRB_PF_DISARMED;
        } else if (eq(k->s, "modes")) {
            static const char *const mn[4] = {"kernel", "exec", "super", "user"};
            do {
                if (i >= nt)
                    return fail(a, k->col, "a mode (kernel, exec, super, user) expected");
                unsigned m;
                for (m = 0; m < 4 && !eq(t[i].s, mn[m]); m++)
                    ;
                if (m == 4)
                    return fail(a, t[i].col, "'%s' is not a mode (kernel, exec, super, user)",
                                t[i].s);
                d->modes |= (uint8_t)(1u << m);
                i++;
            } while (i < nt && strcmp(t[i].s, ",") == 0 && ++i);
        } else {
            return fail(a, k->col, "unknown probe option '%s'", k->s);
        }
    }
    return 0;
}

static int map_line(struct asmst *a, const struct tok *t, unsigned nt)
{
    struct prb_program *p = a->p;
    if (nt < 3)
        return fail(a, t[0].col, "map NAME KIND [keys N] [lhist MIN STEP BUCKETS] expected");
    if (p->nmaps == PRB_MAX_MAPS)
        return fail(a, t[0].col, "more than %d maps", PRB_MAX_MAPS);
    if (name_ok(a, &t[1]))
        return -1;
    for (unsigned i = 0; i < p->nmaps; i++)
        if (strcmp(p->map_name[i], t[1].s) == 0)
            return fail(a, t[1].col, "map '%s' is defined twice", t[1].s);
    int kind = prb_map_kind_lookup(t[2].s);
    if (kind < 0)
        return fail(a, t[2].col, "'%s' is not a map kind (count, sum, min, max, stats, hist, "
                    "lhist)", t[2].s);
    struct prb_map_desc *d = &p->map[p->nmaps];
    memset(d, 0, sizeof *d);
    d->kind = (uint8_t)kind;
    d->keys = 1;
    unsigned i = 3;
    int64_t v;
    /* map NAME lhist MIN STEP BUCKETS ... (PROBES.md), or the option's
     * form: map NAME lhist ... lhist MIN STEP BUCKETS */
    int direct = kind == PRB_M_LHIST && i < nt && !eq(t[i].s, "keys") && !eq(t[i].s, "lhist");
    while (i < nt) {
        const struct tok *k = direct ? &t[i - 1] : &t[i++];
        direct = 0;
        if (eq(k->s, "keys")) {
            if (number(a, t, nt, &i, 1, PRB_MAX_KEYS, &v))
                return -1;
            d->keys = (uint32_t)v;
        } else if (eq(k->s, "lhist") && kind == PRB_M_LHIST) {
            if (number(a, t, nt, &i, INT32_MIN, INT32_MAX, &v))
                return -1;
            d->lmin = (int32_t)v;
            if (number(a, t, nt, &i, 1, INT32_MAX, &v))
                return -1;
            d->lstep = (uint32_t)v;
            if (number(a, t, nt, &i, 1, PRB_MAX_LBUCKETS, &v))
                return -1;
            d->lbuckets = (uint32_t)v;
        } else {
            return fail(a, k->col, "unknown map option '%s'", k->s);
        }
    }
    if (kind == PRB_M_LHIST && !d->lstep)
        return fail(a, t[2].col, "a linear histogram needs 'lhist MIN STEP BUCKETS'");
    set_name(p->map_name[p->nmaps], t[1].s);
    p->nmaps++;
    return 0;
}

/* A memory operand: [pB], [pB + N], [pB - N] (mem) or [N] (abs). */
static int memop(struct asmst *a, const struct tok *t, unsigned nt, unsigned *i, int abs,
                 struct prb_insn *in)
{
    if (expect(a, t, nt, i, "["))
        return -1;
    int64_t v;
    if (abs) {
        if (number(a, t, nt, i, INT32_MIN, 0xFFFFFFFF, &v))
            return -1;
        in->imm = (uint32_t)v;
    } else {
        if (reg(a, t, nt, i, &in->b))
            return -1;
        if (*i < nt && (strcmp(t[*i].s, "+") == 0 || strcmp(t[*i].s, "-") == 0)) {
            int neg = t[*i].s[0] == '-';
            (*i)++;
            if (number(a, t, nt, i, 0, neg ? 0x800000 : 0x7FFFFF, &v))
                return -1;
            in->imm = (uint32_t)(neg ? -v : v);
        }
    }
    return expect(a, t, nt, i, "]");
}

static int insn_line(struct asmst *a, const struct tok *t, unsigned nt)
{
    struct prb_program *p = a->p;
    if (a->cur < 0)
        return fail(a, t[0].col, "an instruction before the first probe");
    /* a label */
    if (nt >= 2 && strcmp(t[1].s, ":") == 0) {
        if (name_ok(a, &t[0]))
            return -1;
        for (unsigned l = 0; l < a->nlabel; l++)
            if (strcmp(a->label[l].name, t[0].s) == 0)
                return fail(a, t[0].col, "label '%s' is defined twice", t[0].s);
        if (a->nlabel == LABEL_MAX)
            return fail(a, t[0].col, "more than %d labels in one probe", LABEL_MAX);
        set_name(a->label[a->nlabel].name, t[0].s);
        a->label[a->nlabel++].at = p->ncode;
        if (nt == 2)
            return 0;
        t += 2;
        nt -= 2;
    }
    if (eq(t[0].s, "endloop")) {
        if (!a->nloop)
            return fail(a, t[0].col, "endloop without loop");
        unsigned at = a->loop_at[--a->nloop];
        p->code[at].skip = p->ncode - at - 1;
        return nt == 1 ? 0 : fail(a, t[1].col, "endloop takes nothing");
    }
    int op = prb_op_lookup(t[0].s);
    if (op < 0)
        return fail(a, t[0].col, "'%s' is not an instruction", t[0].s);
    if (p->ncode == PRB_MAX_CODE)
        return fail(a, t[0].col, "more than %d instructions", PRB_MAX_CODE);
    struct prb_insn *in = &p->code[p->ncode];
    memset(in, 0, sizeof *in);
    in->op = (uint8_t)op;
    p->line[p->ncode] = a->line;
    unsigned i = 1;
    int64_t v;
    switch (prb_form((unsigned)op)) {
    case PRB_F_NONE: break;
    case PRB_F_RI:
        if (reg(a, t, nt, &i, &in->a) || comma(a, t, nt, &i) ||
            number(a, t, nt, &i, INT32_MIN, 0xFFFFFFFF, &v))
            return -1;
        in->imm = (uint32_t)v;
        break;
    case PRB_F_RR:
        if (reg(a, t, nt, &i, &in->a) || comma(a, t, nt, &i) || reg(a, t, nt, &i, &in->b))
            return -1;
        break;
    case PRB_F_CTX: {
        if (reg(a, t, nt, &i, &in->a) || comma(a, t, nt, &i))
            return -1;
        int sel = i < nt ? prb_ctx_lookup(t[i].s) : -1;
        if (sel < 0)
            return fail(a, i < nt ? t[i].col : t[nt - 1].col + 1,
                        "a context value expected (r0-r15, psl, pcbb, icnt, id, event, dur, "
                        "durx, cookie, pid, uid, prog, cycles, cycleshi, usecs, cachemiss, tbmiss)");
        in->imm = (uint32_t)sel;
        i++;
        break;
    }
    case PRB_F_MEM: case PRB_F_ABS:
        if (reg(a, t, nt, &i, &in->a) || comma(a, t, nt, &i) ||
            memop(a, t, nt, &i, prb_form((unsigned)op) == PRB_F_ABS, in))
            return -1;
        in->size = 4;
        if (i < nt) {
            if (comma(a, t, nt, &i) || number(a, t, nt, &i, 1, 4, &v))
                return -1;
            in->size = (uint8_t)v;
        }
        break;
    case PRB_F_REC:
        if (number(a, t, nt, &i, 0, 255, &v))
            return -1;
        in->imm = (uint32_t)v;
        if (i < nt) {
            if (comma(a, t, nt, &i) || reg(a, t, nt, &i, &in->a) || comma(a, t, nt, &i) ||
                number(a, t, nt, &i, 0, PRB_MAX_REC, &v))
                return -1;
            in->size = (uint8_t)v;
        }
        break;
    case PRB_F_AGG:
        if (i >= nt)
            return fail(a, t[0].col, "agg MAP, pKEY, pVALUE expected");
        if (add_fix(a, &t[i++], 2) || comma(a, t, nt, &i) || reg(a, t, nt, &i, &in->a) ||
            comma(a, t, nt, &i) || reg(a, t, nt, &i, &in->b))
            return -1;
        break;
    case PRB_F_LDM:
        if (reg(a, t, nt, &i, &in->a) || comma(a, t, nt, &i))
            return -1;
        if (i >= nt)
            return fail(a, t[0].col, "ldm pA, MAP, pKEY expected");
        if (add_fix(a, &t[i++], 2) || comma(a, t, nt, &i) || reg(a, t, nt, &i, &in->b))
            return -1;
        break;
    case PRB_F_STM:
        if (i >= nt)
            return fail(a, t[0].col, "stm MAP, pKEY, pVALUE expected");
        if (add_fix(a, &t[i++], 2) || comma(a, t, nt, &i) || reg(a, t, nt, &i, &in->b) ||
            comma(a, t, nt, &i) || reg(a, t, nt, &i, &in->a))
            return -1;
        break;
    case PRB_F_WATCH:
        if (i >= nt)
            return fail(a, t[0].col, "watch PROBE, pCOOKIE expected");
        if (add_fix(a, &t[i++], 1) || comma(a, t, nt, &i) || reg(a, t, nt, &i, &in->a))
            return -1;
        break;
    case PRB_F_PROBE:
        if (i >= nt)
            return fail(a, t[0].col, "a probe's name expected");
        if (add_fix(a, &t[i++], 1))
            return -1;
        break;
    case PRB_F_NOTE:
        if (number(a, t, nt, &i, 1, 255, &v))
            return -1;
        in->imm = (uint32_t)v;
        break;
    case PRB_F_JMP:
        if (i >= nt)
            return fail(a, t[0].col, "a label expected");
        if (add_fix(a, &t[i++], 0))
            return -1;
        break;
    case PRB_F_BRR: case PRB_F_BRI:
        if (reg(a, t, nt, &i, &in->a) || comma(a, t, nt, &i))
            return -1;
        if (prb_form((unsigned)op) == PRB_F_BRR) {
            if (reg(a, t, nt, &i, &in->b))
                return -1;
        } else {
            if (number(a, t, nt, &i, INT32_MIN, 0xFFFFFFFF, &v))
                return -1;
            in->imm = (uint32_t)v;
        }
        if (comma(a, t, nt, &i))
            return -1;
        if (i >= nt)
            return fail(a, t[nt - 1].col + 1, "a label expected");
        if (add_fix(a, &t[i++], 0))
            return -1;
        break;
    case PRB_F_LOOP:
        if (number(a, t, nt, &i, 1, PRB_MAX_LOOP, &v))
            return -1;
        in->imm = (uint32_t)v;
        if (a->nloop == 8)
            return fail(a, t[0].col, "loops nested too deep");
        a->loop_at[a->nloop++] = p->ncode;
        break;
    case PRB_F_BAD: break;
    }
    if (i < nt)
        return fail(a, t[i].col, "unexpected '%s'", t[i].s);
    p->ncode++;
    return 0;
}

int prb_asm(const char *text, size_t len, const char *name, struct prb_program *p, char *err,
            size_t errlen)
{
    return prb_asm_syms(text, len, name, NULL, NULL, p, err, errlen);
}

int prb_asm_syms(const char *text, size_t len, const char *name, prb_resolve_fn resolve,
                 void *ctx, struct prb_program *p, char *err, size_t errlen)
{
    struct asmst *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    memset(p, 0, sizeof *p);
    a->name = name;
    a->p = p;
    a->err = err;
    a->errlen = errlen;
    a->cur = -1;
    a->resolve = resolve;
    a->rctx = ctx;
    int rc = 0;
    size_t i = 0;
    while (i < len && !rc) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        a->line++;
        if (memchr(text + i, 0, j - i)) {
            rc = fail(a, 1, "a NUL byte: not a text file");
            break;
        }
        struct tok t[TOK_MAX];
        unsigned nt;
        rc = tokenize(a, text + i, j - i, t, &nt);
        if (!rc && nt) {
            if (eq(t[0].s, "probe"))
                rc = probe_line(a, t, nt);
            else if (eq(t[0].s, "map"))
                rc = map_line(a, t, nt);
            else
                rc = insn_line(a, t, nt);
        }
        i = j + 1;
    }
    if (!rc)
        rc = end_probe(a);
    if (!rc && p->nprobes == 0)
        rc = fail(a, 1, "no probe in the program");
    /* probes and maps by name */
    for (size_t f = 0; !rc && f < a->nfix; f++) {
        struct fix *x = &a->fix[f];
        if (x->kind <= 0)
            continue;
        a->line = x->line;
        unsigned n = x->kind == 1 ? p->nprobes : p->nmaps, k;
        for (k = 0; k < n; k++)
            if (strcmp(x->kind == 1 ? p->probe_name[k] : p->map_name[k], x->name) == 0)
                break;
        if (k == n)
            rc = fail(a, x->col, "no %s '%s'", x->kind == 1 ? "probe" : "map", x->name);
        else
            p->code[x->insn].imm = k;
    }
    free(a->fix);
    free(a);
    return rc;
}

static const char *mode_list(unsigned m, char *buf)
{
    static const char *const mn[4] = {"kernel", "exec", "super", "user"};
    buf[0] = 0;
    for (unsigned i = 0; i < 4; i++)
        if (m & (1u << i)) {
            if (buf[0])
                strcat(buf, ",");
            strcat(buf, mn[i]);
        }
    return buf;
}

int prb_disasm(const struct prb_program *p, FILE *f)
{
    for (unsigned i = 0; i < p->nmaps; i++) {
        const struct prb_map_desc *d = &p->map[i];
        fprintf(f, "map m%u %s keys %u", i, prb_map_kind_name(d->kind), d->keys);
        if (d->kind == PRB_M_LHIST)
            fprintf(f, " lhist %d %u %u", d->lmin, d->lstep, d->lbuckets);
        fputc('\n', f);
    }
    for (unsigned i = 0; i < p->nprobes; i++) {
        const struct prb_probe_desc *d = &p->probe[i];
        fprintf(f, "probe q%u %s", i, prb_kind_name(d->kind) ? prb_kind_name(d->kind) : "?");
        if (d->kind != PRB_K_RET)
            fprintf(f, " 0x%x", d->addr);
        if (d->kind == PRB_K_EVENT)
            fprintf(f, " mask 0x%x", d->mask);
        if (d->flags & PRB_PF_PID)
            fprintf(f, " pid %u", d->pid);
        if (d->flags & PRB_PF_PROG)
            fprintf(f, " prog 0x%x", d->prog);
        if (d->flags & PRB_PF_UID)
            fprintf(f, " uid %u", d->uid);
        if (d->flags & PRB_PF_IPL)
            fprintf(f, " ipl %u %u", d->ipl_lo, d->ipl_hi);
        if (d->modes) {
            char b[40];
            fprintf(f, " modes %s", mode_list(d->modes, b));
        }
        if (d->budget)
            fprintf(f, " budget %u", d->budget);
        if (d->flags & PRB_PF_DISARMED)
            fprintf(f, " disarmed");
        fputc('\n', f);
        /* labels where branches land; loop ends */
        unsigned end = (unsigned)d->code + d->len;
        for (unsigned j = d->code; j < end && j < p->ncode; j++) {
            for (unsigned k = d->code; k < j; k++) {
                const struct prb_insn *b = &p->code[k];
                enum prb_form bf = prb_form(b->op);
                if (bf == PRB_F_LOOP && k + b->skip + 1 == j)
                    fprintf(f, "    endloop\n");
            }
            int lab = 0;
            for (unsigned k = d->code; k < j; k++) {
                enum prb_form bf = prb_form(p->code[k].op);
                if ((bf == PRB_F_JMP || bf == PRB_F_BRR || bf == PRB_F_BRI) &&
                    k + 1 + p->code[k].skip == j)
                    lab = 1;
            }
            if (lab)
                fprintf(f, "L%u:\n", j);
            const struct prb_insn *in = &p->code[j];
            fprintf(f, "    %s", prb_op_name(in->op) ? prb_op_name(in->op) : "?");
            switch (prb_form(in->op)) {
            case PRB_F_RI: fprintf(f, " p%u, %u", in->a, in->imm); break;
            case PRB_F_RR: fprintf(f, " p%u, p%u", in->a, in->b); break;
            case PRB_F_CTX: fprintf(f, " p%u, %s", in->a, prb_ctx_name(in->imm)); break;
            case PRB_F_MEM:
                fprintf(f, " p%u, [p%u %c %d], %u", in->a, in->b, (int32_t)in->imm < 0 ? '-' : '+',
                        (int32_t)in->imm < 0 ? -(int32_t)in->imm : (int32_t)in->imm, in->size);
                break;
            case PRB_F_ABS: fprintf(f, " p%u, [0x%x], %u", in->a, in->imm, in->size); break;
            case PRB_F_REC: fprintf(f, " %u, p%u, %u", in->imm, in->a, in->size); break;
            case PRB_F_AGG: fprintf(f, " m%u, p%u, p%u", in->imm, in->a, in->b); break;
            case PRB_F_LDM: fprintf(f, " p%u, m%u, p%u", in->a, in->imm, in->b); break;
            case PRB_F_STM: fprintf(f, " m%u, p%u, p%u", in->imm, in->b, in->a); break;
            case PRB_F_WATCH: fprintf(f, " q%u, p%u", in->imm, in->a); break;
            case PRB_F_PROBE: fprintf(f, " q%u", in->imm); break;
            case PRB_F_NOTE: fprintf(f, " %u", in->imm); break;
            case PRB_F_JMP: fprintf(f, " L%u", j + 1 + in->skip); break;
            case PRB_F_BRR: fprintf(f, " p%u, p%u, L%u", in->a, in->b, j + 1 + in->skip); break;
            case PRB_F_BRI: fprintf(f, " p%u, %u, L%u", in->a, in->imm, j + 1 + in->skip); break;
            case PRB_F_LOOP: fprintf(f, " %u", in->imm); break;
            default: break;
            }
            fputc('\n', f);
        }
    }
    return ferror(f) ? -1 : 0;
}
