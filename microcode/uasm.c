/* The microassembler: microcode source (MICROARCHITECTURE.md §6) to a
 * control-store image.  Two passes: parse every word, then resolve labels. */
#include "uasm.h"
#include "microcode/hostfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define UASM_SOURCE_MAX (64u << 20) /* no microcode source is larger */

#define MAX_ERRORS 50

struct pending {      /* a word whose NEXT names a label */
    uint16_t addr;
    char *label;
    char *pos;
};

struct equ {
    char *name;
    int64_t value;
};

struct asm_state {
    struct ucode_image *img;
    char *errs;
    size_t errlen, errcap;
    int nerrs;
    uint32_t pc;
    struct pending *pend;
    size_t npend, cappend;
    struct equ *equs;
    size_t nequs, capequs;
    const char *file;
    int line;
};

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static void err(struct asm_state *st, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    st->nerrs++;
    if (st->nerrs > MAX_ERRORS)
        return;
    char line[700];
    int n = snprintf(line, sizeof line, "%s:%d: %s\n", st->file, st->line, msg);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof line)
        n = sizeof line - 1;
    if (st->errlen + (size_t)n + 1 > st->errcap) {
        size_t cap = st->errcap ? st->errcap * 2 : 1024;
        while (cap < st->errlen + (size_t)n + 1)
            cap *= 2;
        char *p = realloc(st->errs, cap);
        if (!p)
            return;
        st->errs = p;
        st->errcap = cap;
    }
    memcpy(st->errs + st->errlen, line, (size_t)n + 1);
    st->errlen += (size_t)n;
}

static int lookup(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

static int is_ident_char(int c)
{
    return isalnum(c) || c == '_' || c == '.' || c == '$';
}

static int valid_ident(const char *s)
{
    if (!*s || isdigit((unsigned char)*s))
        return 0;
    for (; *s; s++)
        if (!is_ident_char((unsigned char)*s))
            return 0;
    return 1;
}

int ucode_label(const struct ucode_image *img, const char *name)
{
    for (size_t i = 0; i < img->nlabels; i++)
        if (strcmp(img->labels[i].name, name) == 0)
            return img->labels[i].addr;
    return -1;
}

static int add_label(struct asm_state *st, const char *name, uint16_t addr)
{
    struct ucode_image *img = st->img;
    if (ucode_label(img, name) >= 0) {
        err(st, "duplicate label '%s'", name);
        return -1;
    }
    struct ulabel *p = realloc(img->labels, (img->nlabels + 1) * sizeof *p);
    if (!p)
        return -1;
    img->labels = p;
    p[img->nlabels].name = xstrdup(name);
    p[img->nlabels].addr = addr;
    img->nlabels++;
    return 0;
}

static int parse_number(struct asm_state *st, const char *s, int64_t *v)
{
    for (size_t i = 0; i < st->nequs; i++)
        if (strcmp(st->equs[i].name, s) == 0) {
            *v = st->equs[i].value;
            return 0;
        }
    for (int i = 0; i < USTOP__COUNT; i++)
        if (strcmp(uw_stop_names[i], s) == 0) {
            *v = i;
            return 0;
        }
    const char *p = s;
    int neg = 0;
    if (*p == '-') {
        neg = 1;
        p++;
    }
    if (!isdigit((unsigned char)*p))
        return -1;
    char *end;
    errno = 0;
    unsigned long long u = strtoull(p, &end, 0);
    if (*end || errno)
        return -1;
    if (u > 0xFFFFFFFFull)
        return -2;
    *v = neg ? -(int64_t)u : (int64_t)u;
    return 0;
}

/* Everything one line's microorders say, before it becomes a word. */
struct wordbuild {
    struct uword w;
    int k_set;
    int seq_set;
    char *label; /* NEXT target */
    struct assign {
        int dst;
        int func; /* -1: plain source */
        int a, b; /* sources (-1 = none) */
    } as[4];
    int nas;
    int bare_func; /* index in as[] of a function without destination, or -1 */
    int dl_set, cc_set, mem_set, opk_set, misc_set, fop_set;
};

static int set_k(struct asm_state *st, struct wordbuild *wb, int64_t v)
{
    if (v < -2147483648LL || v > 0xFFFFFFFFLL) {
        err(st, "literal %lld out of range (32 bits)", (long long)v);
        return -1;
    }
    uint32_t k = (uint32_t)v;
    if (wb->k_set && wb->w.k != k) {
        err(st, "field conflict: K is already 0x%X, cannot also be 0x%X",
            wb->w.k, k);
        return -1;
    }
    wb->w.k = k;
    wb->k_set = 1;
    return 0;
}

/* A source operand: a register name or #literal.  Returns the enum or -1. */
static int parse_source(struct asm_state *st, struct wordbuild *wb, char *s)
{
    s = trim(s);
    if (*s == '#') {
        int64_t v;
        int r = parse_number(st, trim(s + 1), &v);
        if (r == -2) {
            err(st, "literal '%s' out of range (32 bits)", s + 1);
            return -1;
        }
        if (r < 0) {
            err(st, "bad literal '%s'", s);
            return -1;
        }
        if (set_k(st, wb, v) < 0)
            return -1;
        return UR_K;
    }
    int r = lookup(uw_reg_names, UR__COUNT, s);
    if (r < 0 || r == UR_NONE) {
        err(st, "unknown source '%s'", s);
        return -1;
    }
    return r;
}

static int writable(int r)
{
    switch (r) {
    case UR_NONE: case UR_ICNT: case UR_ZERO: case UR_K: case UR_IB:
    case UR_LIT: case UR_RXS: case UR_SIZE: case UR_OPCODE: case UR_IPR:
    case UR_ALU: case UR_OPVL: case UR_FPC: case UR_IVEC: case UR_IIPL:
    case UR_FVA: case UR_MMACC: case UR_FBL: case UR_FBH:
        return 0;
    default:
        return 1;
    }
}

/* "FUNC(a, b)" or "FUNC(a)" or "a".  Fills an assign (dst set by caller). */
static int parse_expr(struct asm_state *st, struct wordbuild *wb, char *s,
                      struct assign *as)
{
    s = trim(s);
    as->func = -1;
    as->a = as->b = -1;
    char *lp = strchr(s, '(');
    if (lp) {
        char *rp = strrchr(s, ')');
        if (!rp || rp < lp || *trim(rp + 1)) {
            err(st, "malformed expression '%s'", s);
            return -1;
        }
        *lp = 0;
        *rp = 0;
        char *fn = trim(s);
        int f = lookup(uw_alu_names, UA__COUNT, fn);
        if (f < 0) {
            err(st, "unknown ALU function '%s'", fn);
            return -1;
        }
        as->func = f;
        char *args = lp + 1;
        char *comma = strchr(args, ',');
        if (comma)
            *comma = 0;
        as->a = parse_source(st, wb, args);
        if (as->a < 0)
            return -1;
        if (comma) {
            as->b = parse_source(st, wb, comma + 1);
            if (as->b < 0)
                return -1;
        }
        return 0;
    }
    as->a = parse_source(st, wb, s);
    return as->a < 0 ? -1 : 0;
}

static int set_seq(struct asm_state *st, struct wordbuild *wb, int seq)
{
    if (wb->seq_set) {
        err(st, "field conflict: two sequencing microorders in one word");
        return -1;
    }
    wb->seq_set = 1;
    wb->w.seq = (uint8_t)seq;
    return 0;
}

static int set_label(struct asm_state *st, struct wordbuild *wb, char *s)
{
    s = trim(s);
    if (!valid_ident(s)) {
        err(st, "bad label '%s'", s);
        return -1;
    }
    wb->label = xstrdup(s);
    return 0;
}

static int parse_cond(struct asm_state *st, struct wordbuild *wb, char **pp)
{
    char *p = trim(*pp);
    int neg = 0;
    if (strncmp(p, "NOT ", 4) == 0) {
        neg = 1;
        p = trim(p + 4);
    }
    char *sp = p;
    while (*sp && !isspace((unsigned char)*sp))
        sp++;
    char save = *sp;
    *sp = 0;
    int c = lookup(uw_cond_names, UC__COUNT, p);
    if (c < 0) {
        err(st, "unknown condition '%s'", p);
        return -1;
    }
    *sp = save;
    wb->w.cond = (uint8_t)(c | (neg ? UC_NOT : 0));
    *pp = sp;
    return 0;
}

static int set_enum_field(struct asm_state *st, int *setflag, uint8_t *field,
                          const char *fname, const char *const *names, int n,
                          const char *v)
{
    int x = lookup(names, n, v);
    if (x < 0) {
        err(st, "unknown %s value '%s'", fname, v);
        return -1;
    }
    if (*setflag && *field != x) {
        err(st, "field conflict: %s given twice", fname);
        return -1;
    }
    *setflag = 1;
    *field = (uint8_t)x;
    return 0;
}

static int parse_order(struct asm_state *st, struct wordbuild *wb, char *o)
{
    o = trim(o);
    if (!*o) {
        err(st, "empty microorder");
        return -1;
    }
    char *arrow = strstr(o, "<-");
    if (arrow) {
        *arrow = 0;
        char *d = trim(o);
        int dst = lookup(uw_reg_names, UR__COUNT, d);
        if (dst < 0) {
            err(st, "unknown destination '%s'", d);
            return -1;
        }
        if (!writable(dst)) {
            err(st, "'%s' is not a writable destination", d);
            return -1;
        }
        if (wb->nas >= 3) {
            err(st, "field conflict: too many transfers in one word");
            return -1;
        }
        struct assign *as = &wb->as[wb->nas];
        as->dst = dst;
        if (parse_expr(st, wb, arrow + 2, as) < 0)
            return -1;
        wb->nas++;
        return 0;
    }
    if (strncmp(o, "IF ", 3) == 0) {
        char *p = o + 3;
        if (parse_cond(st, wb, &p) < 0)
            return -1;
        p = trim(p);
        if (strncmp(p, "GOTO ", 5) == 0) {
            if (set_seq(st, wb, US_BRANCH) < 0)
                return -1;
            return set_label(st, wb, p + 5);
        }
        if (strncmp(p, "CALL ", 5) == 0) {
            if (set_seq(st, wb, US_BCALL) < 0)
                return -1;
            return set_label(st, wb, p + 5);
        }
        err(st, "expected GOTO or CALL after the condition in '%s'", o);
        return -1;
    }
    if (strncmp(o, "IRD IF ", 7) == 0) {
        char *p = o + 7;
        if (parse_cond(st, wb, &p) < 0)
            return -1;
        p = trim(p);
        if (strncmp(p, "ELSE ", 5) != 0) {
            err(st, "expected ELSE label in '%s'", o);
            return -1;
        }
        if (set_seq(st, wb, US_IRDIF) < 0)
            return -1;
        p = trim(p + 5);
        if (strncmp(p, "DISPATCH OPREG ", 15) == 0) { /* else: NEXT + OPREG */
            wb->w.disp = UD_OPREG;
            p += 15;
        }
        return set_label(st, wb, p);
    }
    if (strncmp(o, "GOTO ", 5) == 0) {
        if (set_seq(st, wb, US_JUMP) < 0)
            return -1;
        return set_label(st, wb, o + 5);
    }
    if (strncmp(o, "CALL ", 5) == 0) {
        if (set_seq(st, wb, US_CALL) < 0)
            return -1;
        return set_label(st, wb, o + 5);
    }
    if (strcmp(o, "RET") == 0)
        return set_seq(st, wb, US_RET);
    if (strcmp(o, "IRD") == 0)
        return set_seq(st, wb, US_IRD);
    if (strcmp(o, "SPECNEXT") == 0)
        return set_seq(st, wb, US_SPECNEXT);
    if (strncmp(o, "DISPATCH ", 9) == 0 || strncmp(o, "DCALL ", 6) == 0) {
        int call = o[1] == 'C';
        char *p = trim(o + (call ? 6 : 9));
        char *sp = p;
        while (*sp && !isspace((unsigned char)*sp))
            sp++;
        if (!*sp) {
            err(st, "DISPATCH needs a kind and a table label");
            return -1;
        }
        *sp = 0;
        int d = lookup(uw_disp_names, UD__COUNT, p);
        if (d <= 0) {
            err(st, "unknown dispatch '%s'", p);
            return -1;
        }
        if (set_seq(st, wb, call ? US_DCALL : US_DISPATCH) < 0)
            return -1;
        wb->w.disp = (uint8_t)d;
        return set_label(st, wb, sp + 1);
    }
    if (strncmp(o, "STOP", 4) == 0 && (o[4] == ' ' || o[4] == '(')) {
        char *p = trim(o + 4);
        size_t n = strlen(p);
        if (*p == '(' && n > 1 && p[n - 1] == ')') {
            p[n - 1] = 0;
            p = trim(p + 1);
        }
        int r = lookup(uw_stop_names, USTOP__COUNT, p);
        if (r <= 0) {
            err(st, "unknown stop reason '%s'", p);
            return -1;
        }
        if (set_enum_field(st, &wb->misc_set, &wb->w.misc, "MISC",
                           uw_misc_names, UX__COUNT, "STOP") < 0)
            return -1;
        return set_k(st, wb, r);
    }
    char *eq = strchr(o, '=');
    if (eq) {
        *eq = 0;
        char *key = trim(o), *val = trim(eq + 1);
        if (strcmp(key, "DL") == 0)
            return set_enum_field(st, &wb->dl_set, &wb->w.dl, "DL",
                                  uw_dl_names, UDL__COUNT, val);
        if (strcmp(key, "CC") == 0)
            return set_enum_field(st, &wb->cc_set, &wb->w.cc, "CC",
                                  uw_cc_names, UCC__COUNT, val);
        if (strcmp(key, "MEM") == 0)
            return set_enum_field(st, &wb->mem_set, &wb->w.mem, "MEM",
                                  uw_mem_names, UM__COUNT, val);
        if (strcmp(key, "MISC") == 0)
            return set_enum_field(st, &wb->misc_set, &wb->w.misc, "MISC",
                                  uw_misc_names, UX__COUNT, val);
        if (strcmp(key, "FOP") == 0)
            return set_enum_field(st, &wb->fop_set, &wb->w.fop, "FOP",
                                  uw_fop_names, UF__COUNT, val);
        if (strcmp(key, "OPK") == 0) {
            int64_t v;
            if (parse_number(st, val, &v) < 0 || v < 0 || v > 5) {
                err(st, "OPK value '%s' out of range (0-5)", val);
                return -1;
            }
            if (wb->opk_set && wb->w.opk != v) {
                err(st, "field conflict: OPK given twice");
                return -1;
            }
            wb->opk_set = 1;
            wb->w.opk = (uint8_t)v;
            return 0;
        }
        err(st, "unknown field '%s'", key);
        return -1;
    }
    if (lookup(uw_misc_names, UX__COUNT, o) > 0)
        return set_enum_field(st, &wb->misc_set, &wb->w.misc, "MISC",
                              uw_misc_names, UX__COUNT, o);
    if (strchr(o, '(')) { /* ALU function without a destination */
        if (wb->nas >= 3) {
            err(st, "field conflict: too many transfers in one word");
            return -1;
        }
        struct assign *as = &wb->as[wb->nas];
        as->dst = UR_NONE;
        if (parse_expr(st, wb, o, as) < 0)
            return -1;
        if (as->func < 0) {
            err(st, "expected an ALU function in '%s'", o);
            return -1;
        }
        wb->nas++;
        return 0;
    }
    err(st, "unknown microorder '%s'", o);
    return -1;
}

/* Allocate the transfers to the ALU path and the second bus; check the
 * rules of MICROARCHITECTURE.md §3. */
static int finish_word(struct asm_state *st, struct wordbuild *wb)
{
    struct uword *w = &wb->w;
    int alu_i = -1, bus_i = -1;
    for (int i = 0; i < wb->nas; i++)
        if (wb->as[i].func >= 0) {
            if (alu_i >= 0) {
                err(st, "field conflict: two ALU functions in one word");
                return -1;
            }
            alu_i = i;
        }
    for (int i = 0; i < wb->nas; i++) {
        if (wb->as[i].func >= 0)
            continue;
        if (alu_i < 0 && wb->as[i].a != UR_ALU)
            alu_i = i;
        else if (bus_i < 0)
            bus_i = i;
        else {
            err(st, "field conflict: more than one transfer on the second bus");
            return -1;
        }
    }
    if (alu_i >= 0) {
        struct assign *as = &wb->as[alu_i];
        w->dst = (uint8_t)as->dst;
        w->alu = (uint8_t)(as->func >= 0 ? as->func : UA_PASSA);
        w->a = (uint8_t)as->a;
        if (as->b >= 0)
            w->b = (uint8_t)as->b;
        if (as->a == UR_ALU || as->b == UR_ALU) {
            err(st, "ALU is a source only for the second bus");
            return -1;
        }
        if (as->b == UR_IB) {
            err(st, "IB can only be read on the A bus");
            return -1;
        }
    }
    if (bus_i >= 0) {
        struct assign *as = &wb->as[bus_i];
        w->d2 = (uint8_t)as->dst;
        w->s2 = (uint8_t)as->a;
        if (as->a == UR_IB) {
            err(st, "IB can only be read on the A bus");
            return -1;
        }
        if (as->a == UR_ALU && alu_i < 0) {
            err(st, "second bus reads ALU but the word has no ALU function");
            return -1;
        }
        if (w->d2 == w->dst && w->dst != UR_NONE) {
            err(st, "field conflict: both buses write %s", uw_reg_names[w->dst]);
            return -1;
        }
    }
    if ((w->mem == UM_READ || w->mem == UM_READP || w->mem == UM_READB ||
         w->mem == UM_READM || w->mem == UM_READMB) &&
        (w->dst == UR_MDR || w->d2 == UR_MDR)) {
        err(st, "field conflict: MEM=%s loads MDR, which the word also writes",
            uw_mem_names[w->mem]);
        return -1;
    }
    if (w->misc == UX_IPRRD && (w->dst == UR_MDR || w->d2 == UR_MDR ||
                                w->mem == UM_READ || w->mem == UM_READP)) {
        err(st, "field conflict: IPRRD loads MDR, which the word also writes");
        return -1;
    }
    const char *rule = uword_rule(w);
    if (rule) {
        err(st, "field conflict: %s", rule);
        return -1;
    }
    if (wb->label && !wb->seq_set) {
        err(st, "internal: label without sequencing");
        return -1;
    }
    if (w->seq == US_IRDIF || w->seq == US_BRANCH || w->seq == US_BCALL) {
        if ((w->cond & ~UC_NOT) == UC_TRUE && !(w->cond & UC_NOT) &&
            w->seq == US_IRDIF) {
            /* IRD IF TRUE is just IRD; allowed. */
        }
    }
    return 0;
}

static void emit_word(struct asm_state *st, struct wordbuild *wb,
                      const char *text)
{
    struct ucode_image *img = st->img;
    if (st->pc >= UCS_SIZE) {
        err(st, "micro-address 0x%X out of range (control store is %d words)",
            st->pc, UCS_SIZE);
        free(wb->label);
        return;
    }
    char pos[300];
    snprintf(pos, sizeof pos, "%s:%d", st->file, st->line);
    if (img->words[st->pc].valid) {
        err(st, "duplicate micro-address 0x%04X (already used at %s)", st->pc,
            img->src_pos[st->pc] ? img->src_pos[st->pc] : "?");
        free(wb->label);
        return;
    }
    img->words[st->pc] = wb->w;
    img->src_text[st->pc] = xstrdup(text);
    img->src_pos[st->pc] = xstrdup(pos);
    if (wb->label) {
        if (st->npend == st->cappend) {
            size_t cap = st->cappend ? st->cappend * 2 : 256;
            struct pending *p = realloc(st->pend, cap * sizeof *p);
            if (!p) {
                free(wb->label);
                return;
            }
            st->pend = p;
            st->cappend = cap;
        }
        st->pend[st->npend].addr = (uint16_t)st->pc;
        st->pend[st->npend].label = wb->label;
        st->pend[st->npend].pos = xstrdup(pos);
        st->npend++;
    }
    st->pc++;
    if (st->pc > img->used)
        img->used = st->pc;
}

/* Split at top-level commas (not inside parentheses). */
static int split_orders(char *s, char **out, int max)
{
    int n = 0, depth = 0;
    char *start = s;
    for (char *p = s;; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        else if ((*p == ',' && depth == 0) || *p == 0) {
            int end = *p == 0;
            *p = 0;
            if (n < max)
                out[n++] = start;
            start = p + 1;
            if (end)
                break;
        }
    }
    return n;
}

static void do_line(struct asm_state *st, char *line)
{
    char *sc = strchr(line, ';');
    if (sc)
        *sc = 0;
    char *s = trim(line);
    if (!*s)
        return;
    if (*s == '.') {
        char *sp = s;
        while (*sp && !isspace((unsigned char)*sp))
            sp++;
        char save = *sp;
        *sp = 0;
        if (strcmp(s, ".org") == 0) {
            int64_t v;
            char *arg = trim(sp + (save ? 1 : 0));
            if (parse_number(st, arg, &v) < 0 || v < 0 || v >= UCS_SIZE) {
                err(st, ".org address '%s' out of range (0-0x%X)", arg,
                    UCS_SIZE - 1);
                return;
            }
            st->pc = (uint32_t)v;
            return;
        }
        if (strcmp(s, ".equ") == 0) {
            char *arg = trim(sp + (save ? 1 : 0));
            char *nm = arg;
            while (*arg && !isspace((unsigned char)*arg))
                arg++;
            if (*arg)
                *arg++ = 0;
            int64_t v;
            if (!valid_ident(nm) || parse_number(st, trim(arg), &v) < 0) {
                err(st, "malformed .equ (expected .equ NAME VALUE)");
                return;
            }
            for (size_t i = 0; i < st->nequs; i++)
                if (strcmp(st->equs[i].name, nm) == 0) {
                    err(st, "duplicate .equ '%s'", nm);
                    return;
                }
            if (st->nequs == st->capequs) {
                size_t cap = st->capequs ? st->capequs * 2 : 32;
                struct equ *p = realloc(st->equs, cap * sizeof *p);
                if (!p)
                    return;
                st->equs = p;
                st->capequs = cap;
            }
            st->equs[st->nequs].name = xstrdup(nm);
            st->equs[st->nequs].value = v;
            st->nequs++;
            return;
        }
        if (strcmp(s, ".table") == 0 || strcmp(s, ".endtable") == 0)
            return; /* documentation only: a table is consecutive words */
        err(st, "unknown directive '%s'", s);
        return;
    }
    /* labels */
    for (;;) {
        char *p = s;
        while (*p && is_ident_char((unsigned char)*p))
            p++;
        if (p > s && *p == ':' && p[1] != '=') {
            *p = 0;
            if (!valid_ident(s))
                err(st, "bad label '%s'", s);
            else if (st->pc >= UCS_SIZE)
                err(st, "label '%s' beyond the control store", s);
            else
                add_label(st, s, (uint16_t)st->pc);
            s = trim(p + 1);
            continue;
        }
        break;
    }
    if (!*s)
        return;
    char text[1024];
    snprintf(text, sizeof text, "%s", s);
    struct wordbuild wb;
    memset(&wb, 0, sizeof wb);
    wb.w = uword_default();
    wb.bare_func = -1;
    char *orders[24];
    int n = split_orders(s, orders, 24);
    int bad = 0;
    for (int i = 0; i < n && !bad; i++)
        if (parse_order(st, &wb, orders[i]) < 0)
            bad = 1;
    if (!bad && finish_word(st, &wb) < 0)
        bad = 1;
    if (bad) {
        free(wb.label);
        /* keep addresses stable after an error */
        st->pc++;
        return;
    }
    emit_word(st, &wb, text);
}

static void do_text(struct asm_state *st, const char *name, const char *text)
{
    st->file = name;
    st->line = 0;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char *line = malloc(n + 1);
        if (!line)
            return;
        memcpy(line, p, n);
        line[n] = 0;
        st->line++;
        do_line(st, line);
        free(line);
        p += n;
        if (*p == '\n')
            p++;
    }
}

static int img_alloc(struct ucode_image *img)
{
    memset(img, 0, sizeof *img);
    img->words = calloc(UCS_SIZE, sizeof *img->words);
    img->src_text = calloc(UCS_SIZE, sizeof *img->src_text);
    img->src_pos = calloc(UCS_SIZE, sizeof *img->src_pos);
    if (!img->words || !img->src_text || !img->src_pos)
        return -1;
    for (int i = 0; i < UCS_SIZE; i++) {
        img->words[i] = uword_default();
        img->words[i].valid = 0;
    }
    return 0;
}

void ucode_image_free(struct ucode_image *img)
{
    if (!img)
        return;
    for (size_t i = 0; i < img->nlabels; i++)
        free(img->labels[i].name);
    free(img->labels);
    if (img->src_text)
        for (int i = 0; i < UCS_SIZE; i++) {
            free(img->src_text[i]);
            free(img->src_pos[i]);
        }
    free(img->src_text);
    free(img->src_pos);
    free(img->words);
    memset(img, 0, sizeof *img);
}

static int finish(struct asm_state *st, char **errs)
{
    st->file = "(link)";
    for (size_t i = 0; i < st->npend; i++) {
        int a = ucode_label(st->img, st->pend[i].label);
        if (a < 0) {
            /* report at the word's own position */
            char *pos = st->pend[i].pos;
            char *colon = strrchr(pos, ':');
            if (colon) {
                *colon = 0;
                st->file = pos;
                st->line = atoi(colon + 1);
            }
            err(st, "undefined label '%s'", st->pend[i].label);
        } else {
            st->img->words[st->pend[i].addr].next = (uint16_t)a;
        }
        free(st->pend[i].label);
        free(st->pend[i].pos);
    }
    free(st->pend);
    for (size_t i = 0; i < st->nequs; i++)
        free(st->equs[i].name);
    free(st->equs);
    if (st->nerrs > MAX_ERRORS) {
        st->file = "uasm";
        st->line = 0;
        int n = st->nerrs;
        st->nerrs = 0;
        err(st, "%d more errors not shown", n - MAX_ERRORS);
        st->nerrs = n;
    }
    if (st->nerrs) {
        *errs = st->errs;
        ucode_image_free(st->img);
        return -1;
    }
    free(st->errs);
    *errs = NULL;
    return 0;
}

int uasm_assemble_text(const char *name, const char *text,
                       struct ucode_image *out, char **errs)
{
    struct asm_state st;
    memset(&st, 0, sizeof st);
    if (img_alloc(out) < 0) {
        *errs = xstrdup("uasm: out of memory\n");
        return -1;
    }
    st.img = out;
    do_text(&st, name, text);
    return finish(&st, errs);
}

int uasm_assemble_files(const char *const *paths, int npaths,
                        struct ucode_image *out, char **errs)
{
    struct asm_state st;
    memset(&st, 0, sizeof st);
    if (img_alloc(out) < 0) {
        *errs = xstrdup("uasm: out of memory\n");
        return -1;
    }
    st.img = out;
    for (int i = 0; i < npaths; i++) {
        uint8_t *text;
        size_t len;
        const char *why;
        if (hostfile_read(paths[i], UASM_SOURCE_MAX, 0, &text, &len, &why) != 0) {
            st.file = paths[i];
            st.line = 0;
            err(&st, "cannot read: %s", why);
            continue;
        }
        do_text(&st, paths[i], (const char *)text);
        free(text);
    }
    return finish(&st, errs);
}

/* ---- the binary image ---- */

static const char MAGIC[8] = {'V', 'A', 'X', 'U', 'C', 'S', '0', '2'};

/* Any version is an image (so an old one is refused by name, not read
 * as microcode source); ucode_image_parse takes only the current one. */
int ucode_is_image(const uint8_t *buf, size_t len)
{
    return len >= 8 && memcmp(buf, MAGIC, 6) == 0;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* The image ends with the CRC-32 (zlib) of every byte before it, so that
 * a damaged image is refused instead of run (ucode_image_parse). */
#define IMAGE_CRC_BYTES 4u

uint8_t *ucode_image_serialize(const struct ucode_image *img, size_t *len)
{
    size_t n = 16 + (size_t)img->used * 16 + IMAGE_CRC_BYTES;
    for (size_t i = 0; i < img->nlabels; i++)
        n += 4 + strlen(img->labels[i].name);
    uint8_t *buf = calloc(1, n);
    if (!buf)
        return NULL;
    memcpy(buf, MAGIC, 8);
    put32(buf + 8, img->used);
    put32(buf + 12, (uint32_t)img->nlabels);
    uint8_t *p = buf + 16;
    for (uint32_t a = 0; a < img->used; a++, p += 16)
        uword_pack(&img->words[a], p);
    for (size_t i = 0; i < img->nlabels; i++) {
        size_t l = strlen(img->labels[i].name);
        p[0] = (uint8_t)img->labels[i].addr;
        p[1] = (uint8_t)(img->labels[i].addr >> 8);
        p[2] = (uint8_t)l;
        p[3] = (uint8_t)(l >> 8);
        memcpy(p + 4, img->labels[i].name, l);
        p += 4 + l;
    }
    put32(p, (uint32_t)crc32(0L, buf, (uInt)(n - IMAGE_CRC_BYTES)));
    *len = n;
    return buf;
}

uint32_t ucode_image_crc(const uint8_t *buf, size_t len)
{
    return len >= IMAGE_CRC_BYTES ? get32(buf + len - IMAGE_CRC_BYTES) : 0;
}

int ucode_image_parse(const uint8_t *buf, size_t len, struct ucode_image *out,
                      char *errbuf, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!ucode_is_image(buf, len)) {
        snprintf(errbuf, errlen, "not a control-store image (bad magic)");
        return -1;
    }
    if (memcmp(buf, MAGIC, 8) != 0) {
        snprintf(errbuf, errlen, "control-store image version %c%c: this machine "
                 "reads version %c%c (the microword layout changed; assemble the "
                 "source again with uasm)", isprint(buf[6]) ? buf[6] : '?',
                 isprint(buf[7]) ? buf[7] : '?', MAGIC[6], MAGIC[7]);
        return -1;
    }
    if (len < 16 + IMAGE_CRC_BYTES) {
        snprintf(errbuf, errlen, "control-store image truncated (%zu bytes)", len);
        return -1;
    }
    len -= IMAGE_CRC_BYTES;
    uint32_t crc = (uint32_t)crc32(0L, buf, (uInt)len);
    if (crc != get32(buf + len)) {
        snprintf(errbuf, errlen,
                 "control-store image damaged: CRC-32 0x%08X, the image says 0x%08X", crc,
                 get32(buf + len));
        return -1;
    }
    uint32_t used = get32(buf + 8), nl = get32(buf + 12);
    if (used > UCS_SIZE || 16 + (size_t)used * 16 > len) {
        snprintf(errbuf, errlen, "control-store image truncated or too large");
        return -1;
    }
    out->words = calloc(UCS_SIZE, sizeof *out->words);
    if (!out->words) {
        snprintf(errbuf, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < UCS_SIZE; i++) {
        out->words[i] = uword_default();
        out->words[i].valid = 0;
    }
    out->used = used;
    const uint8_t *p = buf + 16, *end = buf + len;
    for (uint32_t a = 0; a < used; a++, p += 16)
        if (uword_unpack(p, &out->words[a]) < 0) {
            snprintf(errbuf, errlen, "control-store word 0x%04X has a field out of range", a);
            ucode_image_free(out);
            return -1;
        }
    for (uint32_t i = 0; i < nl; i++) {
        if (end - p < 4) {
            snprintf(errbuf, errlen, "control-store image: label table truncated");
            ucode_image_free(out);
            return -1;
        }
        uint16_t addr = (uint16_t)(p[0] | p[1] << 8);
        size_t l = (size_t)(p[2] | p[3] << 8);
        if ((size_t)(end - p) < 4 + l || addr >= UCS_SIZE) {
            snprintf(errbuf, errlen, "control-store image: bad label entry");
            ucode_image_free(out);
            return -1;
        }
        struct ulabel *lp = realloc(out->labels, (out->nlabels + 1) * sizeof *lp);
        char *name = malloc(l + 1);
        if (!lp || !name) {
            free(name);
            if (lp)
                out->labels = lp;
            ucode_image_free(out);
            snprintf(errbuf, errlen, "out of memory");
            return -1;
        }
        out->labels = lp;
        memcpy(name, p + 4, l);
        name[l] = 0;
        lp[out->nlabels].name = name;
        lp[out->nlabels].addr = addr;
        out->nlabels++;
        p += 4 + l;
    }
    if (p != end) {
        snprintf(errbuf, errlen, "control-store image: %zu bytes after the label table",
                 (size_t)(end - p));
        ucode_image_free(out);
        return -1;
    }
    return 0;
}

/* ---- listing ---- */

static void cat(char *buf, size_t len, const char *fmt, ...)
{
    size_t n = strlen(buf);
    if (n >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, len - n, fmt, ap);
    va_end(ap);
}

void uword_describe(const struct uword *w, char *buf, size_t len)
{
    buf[0] = 0;
    if (!w->valid) {
        cat(buf, len, "(unused)");
        return;
    }
    struct uword d = uword_default();
    if (w->dst != d.dst || w->alu != d.alu || w->a != d.a || w->b != d.b)
        cat(buf, len, "DST=%s ALU=%s A=%s B=%s ", uw_reg_names[w->dst],
            uw_alu_names[w->alu], uw_reg_names[w->a], uw_reg_names[w->b]);
    if (w->d2 != d.d2 || w->s2 != d.s2)
        cat(buf, len, "D2=%s S2=%s ", uw_reg_names[w->d2], uw_reg_names[w->s2]);
    if (w->k)
        cat(buf, len, "K=0x%X ", w->k);
    if (w->dl != d.dl)
        cat(buf, len, "DL=%s ", uw_dl_names[w->dl]);
    if (w->cc != d.cc)
        cat(buf, len, "CC=%s ", uw_cc_names[w->cc]);
    if (w->mem != d.mem)
        cat(buf, len, "MEM=%s ", uw_mem_names[w->mem]);
    if (w->opk != UOPK_KEEP)
        cat(buf, len, "OPK=%u ", w->opk);
    if (w->misc != d.misc)
        cat(buf, len, "MISC=%s ", uw_misc_names[w->misc]);
    if (w->fop != d.fop)
        cat(buf, len, "FOP=%s ", uw_fop_names[w->fop]);
    cat(buf, len, "SEQ=%s", uw_seq_names[w->seq]);
    if (w->seq == US_BRANCH || w->seq == US_BCALL || w->seq == US_IRDIF)
        cat(buf, len, " COND=%s%s", (w->cond & UC_NOT) ? "NOT " : "",
            uw_cond_names[w->cond & ~UC_NOT]);
    if (w->seq == US_DISPATCH || w->seq == US_DCALL ||
        (w->seq == US_IRDIF && w->disp != UD_NONE))
        cat(buf, len, " DISP=%s", uw_disp_names[w->disp]);
    if (w->seq == US_JUMP || w->seq == US_CALL || w->seq == US_BRANCH ||
        w->seq == US_BCALL || w->seq == US_DISPATCH || w->seq == US_DCALL ||
        w->seq == US_IRDIF)
        cat(buf, len, " NEXT=%04X", w->next);
}

char *ucode_listing(const struct ucode_image *img)
{
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    out[0] = 0;
    for (uint32_t a = 0; a < img->used; a++) {
        const struct uword *w = &img->words[a];
        if (!w->valid)
            continue;
        char line[2048], fields[600], labels[400];
        labels[0] = 0;
        for (size_t i = 0; i < img->nlabels; i++)
            if (img->labels[i].addr == a)
                cat(labels, sizeof labels, "%s: ", img->labels[i].name);
        uword_describe(w, fields, sizeof fields);
        int l = snprintf(line, sizeof line, "%04X  %s\n      %s\n      ; %s  %s\n",
                         a, labels, fields,
                         img->src_pos && img->src_pos[a] ? img->src_pos[a] : "",
                         img->src_text && img->src_text[a] ? img->src_text[a] : "");
        if (l < 0)
            continue;
        if ((size_t)l >= sizeof line)
            l = sizeof line - 1;
        if (n + (size_t)l + 1 > cap) {
            while (n + (size_t)l + 1 > cap)
                cap *= 2;
            char *p = realloc(out, cap);
            if (!p) {
                free(out);
                return NULL;
            }
            out = p;
        }
        memcpy(out + n, line, (size_t)l + 1);
        n += (size_t)l;
    }
    return out;
}
