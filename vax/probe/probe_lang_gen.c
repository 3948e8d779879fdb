/* The probe language's code generator (LANGUAGE.md): the syntax tree to
 * machine probes, their routines in the probe instruction set, the maps
 * with their keys' meaning, printf's formats, and the host's blocks.
 * Every instruction keeps the line and column of what made it, so the
 * verifier's refusals point into the script. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vax/probe/probe_lang_int.h"
#include "vax/probe/probe_install.h"
#include "vax/probe/probe_verify.h"

#define CYCLES_PER_SEC 12500000u  /* 80 ns microcycles */
#define PID_KEYS 30000u           /* 4.3BSD's pids are below 30000 (kern_fork.c) */
#define NOREG 0xFF

/* Where a routine runs. */
enum rctx {
    R_KPROBE, R_KRET, R_UPROBE, R_URET, R_EVENT, R_SAMPLE, R_HOST,
};

/* What a value is: its type, unit, signedness and range (for keys). */
struct vty {
    enum prb_lang_type t;
    enum prb_lang_unit u;
    int uns;
    int known;         /* lo..hi holds every value */
    int64_t lo, hi;
};

struct mapinfo {
    const char *name;
    int defined;           /* its kind is known (an aggregation or an assignment) */
    enum prb_lang_agg agg;
    unsigned nkey;
    struct vty kt[PRB_LANG_MAX_KEYS];
    struct vty vt;          /* values (VAR maps: their union) */
    int vt_set;
    int32_t lmin, lmax, lstep;
    unsigned line, col;     /* where its kind was set */
    unsigned uline, ucol;   /* where it is first used */
    int read;               /* read as a value */
    int keyed_use;          /* seen with keys (1) or without (0) */
    int key_seen;
    char what[96], where[96];
};

struct label {
    int pos;                /* -1: not placed yet */
};

struct svar {
    const char *name;
    uint8_t reg;
    int needs_init;     /* some path reads it unassigned: 0 at the start */
    int assigned;       /* an assignment was generated before this point */
};

struct armfix {         /* ARM/DISARM of a script probe, patched at the end */
    unsigned insn, sprobe, on, line, col;
};

struct gen {
    struct lang_ctx *c;
    const struct prb_lang_opts *o;
    struct prb_lang *out;
    struct prb_program *p;
    struct mapinfo map[PRB_MAX_MAPS];
    unsigned nmap;
    int self_map;           /* duration_self's sums, or -1 */
    uint32_t ktext_lo, ktext_hi;
    int ktext_known;
    uint32_t comm_mul, comm_mod;
    unsigned nsprobe_total;
    /* the routine being generated */
    enum rctx rc;
    int sprobe;             /* the script probe */
    uint32_t func_addr;     /* kprobe/uprobe: the function */
    int func_jsb;           /* entered by JSB (the return PC on the stack) */
    int evclass;            /* event probes: the class (1 interrupt, 2 exception, 3 chm...) */
    int cookie_arg;         /* kret: the argument the cookie carries, -1 */
    uint8_t self_reg;       /* kret with duration_self: its value (cycles) */
    struct prb_insn code[PRB_MAX_ROUTINE];
    unsigned line[PRB_MAX_ROUTINE], col[PRB_MAX_ROUTINE];
    int lab[PRB_MAX_ROUTINE]; /* a branch's label, -1 */
    uint8_t armref[PRB_MAX_ROUTINE]; /* an ARM/DISARM naming a script probe */
    struct armfix armfix[PRB_MAX_CODE];
    unsigned narmfix;
    unsigned n;
    struct label label[PRB_MAX_ROUTINE];
    unsigned nlabel;
    uint16_t busy;          /* registers in use */
    struct svar svar[16];
    unsigned nsvar;
    uint32_t defined;       /* svars assigned on every path here */
    int in_loop;
    struct { const char *name; struct vty t; } svt[16]; /* $variables' types */
    unsigned nsvt;
    unsigned cur_line, cur_col;
    int pass;               /* 1: maps and types only; 2: code */
};

static void gfail(struct gen *g, const struct node *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((noreturn, format(printf, 3, 4)))
#endif
    ;

static void gfail(struct gen *g, const struct node *n, const char *fmt, ...)
{
    char b[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    lang_fail(g->c, n ? n->line : g->cur_line, n ? n->col : g->cur_col, "%s", b);
}

/* ---- builtins ---- */

enum bi {
    B_PID, B_TID, B_UID, B_COMM, B_MODE, B_IPL, B_PSL, B_PC, B_SP, B_FP, B_AP,
    B_ARG0, B_ARG1, B_ARG2, B_ARG3, B_ARG4, B_ARG5, B_NARGS, B_RETVAL,
    B_DUR, B_DURX, B_SELF, B_DURC, B_DURXC, B_SELFC,
    B_NSECS, B_USECS, B_CYCLES, B_CMISS, B_TBMISS, B_CALLER, B_PROBE, B_FUNC,
    B_EVENT, B_VECTOR, B_SYSNO, B_VADDR, B_CPU,
    B_KERNEL, B_EXEC, B_SUPER, B_USER,
    B_N
};

#define M_KP (1u << R_KPROBE)
#define M_KR (1u << R_KRET)
#define M_UP (1u << R_UPROBE)
#define M_UR (1u << R_URET)
#define M_EV (1u << R_EVENT)
#define M_SA (1u << R_SAMPLE)
#define M_HO (1u << R_HOST)
#define M_MACH (M_KP | M_KR | M_UP | M_UR | M_EV | M_SA)
#define M_ENTRY (M_KP | M_UP)
#define M_RET (M_KR | M_UR)
#define M_FUNC (M_ENTRY | M_RET)
#define M_ALL (M_MACH | M_HO)

static const struct {
    const char *name;
    unsigned where;
    enum prb_lang_type t;
    enum prb_lang_unit u;
    int uns;
    int64_t lo, hi;           /* hi < lo: unknown */
    const char *needs;        /* the message when used elsewhere */
} bi[B_N] = {
    [B_PID] = {"pid", M_MACH, PRB_T_INT, 0, 0, 0, PID_KEYS - 1, NULL},
    [B_TID] = {"tid", M_MACH, PRB_T_INT, 0, 0, 0, PID_KEYS - 1, NULL},
    [B_UID] = {"uid", M_MACH, PRB_T_INT, 0, 0, 0, 65535, NULL},
    [B_COMM] = {"comm", M_MACH, PRB_T_COMM, 0, 1, 0, -1, NULL},
    [B_MODE] = {"mode", M_MACH, PRB_T_MODE, 0, 0, 0, 3, NULL},
    [B_IPL] = {"ipl", M_MACH, PRB_T_INT, 0, 0, 0, 31, NULL},
    [B_PSL] = {"psl", M_MACH, PRB_T_UINT, 0, 1, 0, -1, NULL},
    [B_PC] = {"pc", M_MACH, PRB_T_KADDR, 0, 1, 0, -1, NULL},
    [B_SP] = {"sp", M_MACH, PRB_T_UINT, 0, 1, 0, -1, NULL},
    [B_FP] = {"fp", M_MACH, PRB_T_UINT, 0, 1, 0, -1, NULL},
    [B_AP] = {"ap", M_MACH, PRB_T_UINT, 0, 1, 0, -1, NULL},
    [B_ARG0] = {"arg0", M_FUNC, PRB_T_UINT, 0, 1, 0, -1, "kprobe, uprobe (and, one of them, kretprobe)"},
    [B_ARG1] = {"arg1", M_FUNC, PRB_T_UINT, 0, 1, 0, -1, "kprobe, uprobe (and, one of them, kretprobe)"},
    [B_ARG2] = {"arg2", M_FUNC, PRB_T_UINT, 0, 1, 0, -1, "kprobe, uprobe (and, one of them, kretprobe)"},
    [B_ARG3] = {"arg3", M_FUNC, PRB_T_UINT, 0, 1, 0, -1, "kprobe, uprobe (and, one of them, kretprobe)"},
    [B_ARG4] = {"arg4", M_FUNC, PRB_T_UINT, 0, 1, 0, -1, "kprobe, uprobe (and, one of them, kretprobe)"},
    [B_ARG5] = {"arg5", M_FUNC, PRB_T_UINT, 0, 1, 0, -1, "kprobe, uprobe (and, one of them, kretprobe)"},
    [B_NARGS] = {"nargs", M_ENTRY, PRB_T_INT, 0, 0, 0, 255, "kprobe and uprobe"},
    [B_RETVAL] = {"retval", M_RET, PRB_T_INT, 0, 0, 0, -1, "kretprobe and uretprobe"},
    [B_DUR] = {"duration", M_RET, PRB_T_UINT, PRB_U_US, 1, 0, -1, "kretprobe and uretprobe"},
    [B_DURX] = {"duration_excl", M_RET, PRB_T_UINT, PRB_U_US, 1, 0, -1, "kretprobe and uretprobe"},
    [B_SELF] = {"duration_self", M_RET, PRB_T_UINT, PRB_U_US, 1, 0, -1, "kretprobe and uretprobe"},
    [B_DURC] = {"duration_cyc", M_RET, PRB_T_UINT, PRB_U_CYCLES, 1, 0, -1, "kretprobe and uretprobe"},
    [B_DURXC] = {"duration_excl_cyc", M_RET, PRB_T_UINT, PRB_U_CYCLES, 1, 0, -1, "kretprobe and uretprobe"},
    [B_SELFC] = {"duration_self_cyc", M_RET, PRB_T_UINT, PRB_U_CYCLES, 1, 0, -1, "kretprobe and uretprobe"},
    [B_NSECS] = {"nsecs", M_ALL, PRB_T_UINT, PRB_U_NS, 1, 0, -1, NULL},
    [B_USECS] = {"usecs", M_ALL, PRB_T_UINT, PRB_U_US, 1, 0, -1, NULL},
    [B_CYCLES] = {"cycles", M_MACH, PRB_T_UINT, PRB_U_CYCLES, 1, 0, -1, NULL},
    [B_CMISS] = {"cachemiss", M_MACH, PRB_T_UINT, 0, 1, 0, -1, NULL},
    [B_TBMISS] = {"tbmiss", M_MACH, PRB_T_UINT, 0, 1, 0, -1, NULL},
    [B_CALLER] = {"caller", M_FUNC, PRB_T_KADDR, 0, 1, 0, -1, "kprobe, kretprobe, uprobe and uretprobe"},
    [B_PROBE] = {"probe", M_MACH, PRB_T_PROBE, 0, 0, 0, 0, NULL},
    [B_FUNC] = {"func", M_FUNC, PRB_T_KFUNC, 0, 1, 0, -1, "kprobe, kretprobe, uprobe and uretprobe"},
    [B_EVENT] = {"event", M_EV, PRB_T_UINT, 0, 0, 0, 65535, "spam probes"},
    [B_VECTOR] = {"vector", M_EV, PRB_T_VECTOR, 0, 0, 0, 0xFFF, "spam:interrupt and spam:exception"},
    [B_SYSNO] = {"sysno", M_EV, PRB_T_SYSCALL, 0, 0, 0, 1023, "spam:syscall"},
    [B_VADDR] = {"vaddr", M_EV, PRB_T_UINT, 0, 1, 0, -1, "spam:exception (tnv, acv: the faulting address)"},
    [B_CPU] = {"cpu", M_ALL, PRB_T_INT, 0, 0, 0, 0, NULL},
    [B_KERNEL] = {"kernel", M_ALL, PRB_T_MODE, 0, 0, 0, 0, NULL},
    [B_EXEC] = {"executive", M_ALL, PRB_T_MODE, 0, 0, 1, 1, NULL},
    [B_SUPER] = {"supervisor", M_ALL, PRB_T_MODE, 0, 0, 2, 2, NULL},
    [B_USER] = {"user", M_ALL, PRB_T_MODE, 0, 0, 3, 3, NULL},
};

static int builtin(const char *s)
{
    for (int i = 0; i < B_N; i++)
        if (!strcmp(bi[i].name, s))
            return i;
    return -1;
}

static const char *rctx_name(enum rctx r)
{
    static const char *const n[] = {"kprobe", "kretprobe", "uprobe", "uretprobe", "spam",
                                    "profile", "BEGIN, END and interval"};
    return n[r];
}

/* ---- emitting ---- */

static unsigned emit(struct gen *g, const struct node *at_, uint8_t op, uint8_t a, uint8_t b,
                     uint8_t size, uint32_t imm)
{
    if (g->n == PRB_MAX_ROUTINE)
        gfail(g, at_, "the probe's routine is longer than %d instructions", PRB_MAX_ROUTINE);
    unsigned i = g->n++;
    g->code[i] = (struct prb_insn){.op = op, .a = a, .b = b, .size = size, .imm = imm};
    g->line[i] = at_ ? at_->line : g->cur_line;
    g->col[i] = at_ ? at_->col : g->cur_col;
    g->lab[i] = -1;
    g->armref[i] = 0;
    return i;
}

static int new_label(struct gen *g)
{
    if (g->nlabel == PRB_MAX_ROUTINE)
        gfail(g, NULL, "too many branches in one probe");
    g->label[g->nlabel].pos = -1;
    return (int)g->nlabel++;
}

static void place(struct gen *g, int l)
{
    g->label[l].pos = (int)g->n;
}

static void branch(struct gen *g, const struct node *at_, uint8_t op, uint8_t a, uint8_t b,
                   uint32_t imm, int l)
{
    unsigned i = emit(g, at_, op, a, b, 0, imm);
    g->lab[i] = l;
}

/* ---- registers ---- */

static uint8_t reg_get(struct gen *g, const struct node *at_)
{
    for (uint8_t r = 0; r < 16; r++)
        if (!(g->busy & (1u << r))) {
            g->busy |= (uint16_t)(1u << r);
            return r;
        }
    gfail(g, at_, "this needs more than the probe unit's 16 registers (fewer $variables, or "
                  "simpler expressions)");
}

static void reg_put(struct gen *g, uint8_t r)
{
    if (r < 16)
        g->busy &= (uint16_t)~(1u << r);
}

/* A value in a register: temp = 1 when the caller owns it. */
struct val {
    uint8_t r;
    int temp;
    struct vty ty;
};

static void val_put(struct gen *g, struct val *v)
{
    if (v->temp)
        reg_put(g, v->r);
    v->temp = 0;
}

/* A register the caller may change, holding v (v consumed). */
static uint8_t own(struct gen *g, const struct node *at_, struct val *v)
{
    if (v->temp) {
        v->temp = 0;
        return v->r;
    }
    uint8_t r = reg_get(g, at_);
    emit(g, at_, PRB_MOV, r, v->r, 0, 0);
    return r;
}

/* ---- types ---- */

static struct vty ty_unknown(enum prb_lang_type t, int uns)
{
    return (struct vty){.t = t, .uns = uns};
}

static struct vty ty_const(int64_t v)
{
    struct vty t = {.t = v > 0x7FFFFFFF ? PRB_T_UINT : PRB_T_INT, .uns = v > 0x7FFFFFFF,
                    .known = 1, .lo = v, .hi = v};
    return t;
}

static struct vty ty_range(struct vty t, int64_t lo, int64_t hi)
{
    t.known = 1;
    t.lo = lo;
    t.hi = hi;
    return t;
}

/* ---- constants ---- */

static int resolver_ksym(struct gen *g, const struct node *at_, const char *name, uint32_t *v,
                         uint32_t *entry)
{
    const struct prb_lang_resolver *r = g->o->resolve;
    char e[160] = "";
    if (!r || !r->ksym)
        gfail(g, at_, "kernel symbols need the guest's kernel (--kernel FILE or --disk FILE)");
    uint32_t ent = 2;
    if (r->ksym(r->ctx, name, v, &ent, e, sizeof e))
        gfail(g, at_, "%s", e[0] ? e : "no such kernel symbol");
    if (entry)
        *entry = ent;
    return 0;
}

static uint32_t resolve_prog(struct gen *g, const struct node *at_, const char *path)
{
    const struct prb_lang_resolver *r = g->o->resolve;
    char e[160] = "";
    uint32_t v;
    if (!r || !r->prog)
        gfail(g, at_, "program names need the guest's disk (--disk FILE)");
    if (r->prog(r->ctx, path, &v, e, sizeof e))
        gfail(g, at_, "%s", e[0] ? e : "no such program");
    return v;
}

static int const_eval(struct gen *g, const struct node *n, int64_t *out);

static int bin_const(int op, int64_t a, int64_t b, int uns, int64_t *out)
{
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    int32_t sa = (int32_t)ua, sb = (int32_t)ub;
    uint32_t r;
    switch (op) {
    case '+': r = ua + ub; break;
    case '-': r = ua - ub; break;
    case '*': r = ua * ub; break;
    case '/':
        if (!ub)
            return -1;
        r = uns ? ua / ub : (sb == -1 ? (uint32_t)-(int64_t)sa : (uint32_t)(sa / sb));
        break;
    case '%':
        if (!ub)
            return -1;
        r = uns ? ua % ub : (sb == -1 ? 0 : (uint32_t)(sa % sb));
        break;
    case '&': r = ua & ub; break;
    case '|': r = ua | ub; break;
    case '^': r = ua ^ ub; break;
    case OP_SHL: r = ub >= 32 ? 0 : ua << ub; break;
    case OP_SHR: r = ub >= 32 ? (uns ? 0 : (uint32_t)(sa >> 31)) : uns ? ua >> ub : (uint32_t)(sa >> ub); break;
    case OP_EQ: r = ua == ub; break;
    case OP_NE: r = ua != ub; break;
    case '<': r = uns ? ua < ub : sa < sb; break;
    case '>': r = uns ? ua > ub : sa > sb; break;
    case OP_LE: r = uns ? ua <= ub : sa <= sb; break;
    case OP_GE: r = uns ? ua >= ub : sa >= sb; break;
    case OP_AND: r = ua && ub; break;
    case OP_OR: r = ua || ub; break;
    default: return -1;
    }
    *out = uns || r > 0x7FFFFFFFu ? (int64_t)r : (int64_t)(int32_t)r;
    if (!uns && (op == '<' || op == '>' || op == OP_LE || op == OP_GE || op == OP_EQ || op == OP_NE))
        *out = r;
    return 0;
}

static struct vty type_of(struct gen *g, const struct node *n);

/* A compile-time constant: 1 with its value, else 0. */
static int const_eval(struct gen *g, const struct node *n, int64_t *out)
{
    int64_t a, b;
    switch (n->k) {
    case E_INT: *out = n->ival; return 1;
    case E_IDENT: {
        int id = builtin(n->s);
        if (id >= B_KERNEL && id <= B_USER) {
            *out = bi[id].lo;
            return 1;
        }
        if (id == B_CPU) {
            *out = 0;
            return 1;
        }
        if (id == B_PROBE && g->rc != R_HOST && g->sprobe >= 0) {
            *out = g->sprobe;
            return 1;
        }
        if (id == B_FUNC && (g->rc == R_KPROBE || g->rc == R_KRET || g->rc == R_UPROBE ||
                             g->rc == R_URET)) {
            *out = g->func_addr;
            return 1;
        }
        return 0;
    }
    case E_CALL:
        if (!strcmp(n->s, "kaddr") && n->n == 1 && n->a->k == E_STR) {
            uint32_t v;
            resolver_ksym(g, n->a, n->a->s, &v, NULL);
            *out = v;
            return 1;
        }
        return 0;
    case E_UN:
        if (!const_eval(g, n->a, &a))
            return 0;
        switch (n->op) {
        case '-': *out = (int64_t)(int32_t)(0u - (uint32_t)a); return 1;
        case '~': *out = (int64_t)(int32_t)~(uint32_t)a; return 1;
        case '!': *out = !(uint32_t)a; return 1;
        default: return 0;
        }
    case E_BIN: {
        if (!const_eval(g, n->a, &a) || !const_eval(g, n->b, &b))
            return 0;
        int uns = type_of(g, n->a).uns || type_of(g, n->b).uns;
        if (bin_const(n->op, a, b, uns, out))
            gfail(g, n->b, "division by zero");
        return 1;
    }
    case E_TERN:
        if (!const_eval(g, n->a, &a))
            return 0;
        return const_eval(g, a ? n->b : n->c, out);
    default: return 0;
    }
}

/* ---- maps ---- */

static struct mapinfo *map_find(struct gen *g, const char *name)
{
    for (unsigned i = 0; i < g->nmap; i++)
        if (!strcmp(g->map[i].name, name))
            return &g->map[i];
    return NULL;
}

static struct mapinfo *map_get(struct gen *g, const struct node *at_, const char *name)
{
    struct mapinfo *m = map_find(g, name);
    if (m)
        return m;
    if (g->nmap == PRB_MAX_MAPS)
        gfail(g, at_, "more than %d maps", PRB_MAX_MAPS);
    m = &g->map[g->nmap++];
    memset(m, 0, sizeof *m);
    m->name = name;
    if (at_) {
        m->uline = at_->line;
        m->ucol = at_->col;
    }
    return m;
}

static int map_index(struct gen *g, const struct mapinfo *m)
{
    return (int)(m - g->map);
}

static const char *agg_name(enum prb_lang_agg a)
{
    static const char *const n[] = {"count()", "sum()", "min()", "max()", "avg()", "stats()",
                                    "hist()", "lhist()", "an assigned value"};
    return n[a];
}

/* A type joined with another (the union of ranges). */
static struct vty ty_join(struct vty a, struct vty b)
{
    struct vty r = a;
    if (a.t != b.t)
        r.t = a.t == PRB_T_INT && b.t == PRB_T_UINT ? PRB_T_UINT
              : b.t == PRB_T_INT && a.t == PRB_T_UINT ? PRB_T_UINT : a.t;
    r.uns = a.uns || b.uns;
    if (a.u != b.u)
        r.u = PRB_U_NONE;
    r.known = a.known && b.known;
    if (r.known) {
        r.lo = a.lo < b.lo ? a.lo : b.lo;
        r.hi = a.hi > b.hi ? a.hi : b.hi;
    }
    return r;
}

/* Notes the keys a map is used with (pass 1), checking they agree. */
static void map_keys(struct gen *g, struct mapinfo *m, const struct node *mn)
{
    unsigned nk = mn->n;
    if (m->key_seen && nk != m->nkey)
        gfail(g, mn, "%s is used with %u key%s here and %u elsewhere", m->name, nk,
              nk == 1 ? "" : "s", m->nkey);
    if (nk > PRB_LANG_MAX_KEYS)
        gfail(g, mn, "a key of more than %d components", PRB_LANG_MAX_KEYS);
    unsigned i = 0;
    for (const struct node *k = mn->a; k; k = k->next, i++) {
        struct vty t = type_of(g, k);
        if (k->k == E_STR)
            gfail(g, k, "a string cannot be a map key (numbers, comm, kfunc(), ...)");
        if (!m->key_seen) {
            m->kt[i] = t;
        } else {
            int a = m->kt[i].t, b = t.t;
            int ka = a == PRB_T_KADDR || a == PRB_T_KFUNC, kb = b == PRB_T_KADDR || b == PRB_T_KFUNC;
            if (a != b && !(ka && kb) && !(a <= PRB_T_UINT && b <= PRB_T_UINT))
                gfail(g, k, "%s's key %u has another type elsewhere", m->name, i + 1);
            enum prb_lang_type keep = m->kt[i].t;
            m->kt[i] = ty_join(m->kt[i], t);
            if (ka && kb)
                m->kt[i].t = keep == PRB_T_KFUNC || b == PRB_T_KFUNC ? PRB_T_KFUNC : PRB_T_KADDR;
        }
    }
    m->nkey = nk;
    m->key_seen = 1;
}

static void set_where(struct gen *g, struct mapinfo *m)
{
    if (g->rc == R_HOST || g->sprobe < 0)
        return;
    const char *t = g->out->sprobe[g->sprobe].text;
    if (strstr(m->where, t))
        return;
    size_t n = strlen(m->where);
    if (n + strlen(t) + 3 < sizeof m->where)
        snprintf(m->where + n, sizeof m->where - n, "%s%s", n ? ", " : "", t);
    else if (n + 5 < sizeof m->where && !strstr(m->where, "..."))
        snprintf(m->where + n, sizeof m->where - n, ", ...");
}

/* The map's kind from an assignment (pass 1). */
static void map_define(struct gen *g, struct mapinfo *m, enum prb_lang_agg agg,
                       const struct node *at_)
{
    if (m->defined && m->agg != agg)
        gfail(g, at_, "%s is %s at line %u; it cannot also be %s", m->name, agg_name(m->agg),
              m->line, agg_name(agg));
    if (!m->defined) {
        m->line = at_->line;
        m->col = at_->col;
    }
    m->defined = 1;
    m->agg = agg;
    set_where(g, m);
}

/* ---- types of expressions ---- */

static int is_kaddr(enum prb_lang_type t)
{
    return t == PRB_T_KADDR || t == PRB_T_KFUNC;
}

static const struct node *arg_n(const struct node *call, unsigned i)
{
    const struct node *a = call->a;
    while (a && i--)
        a = a->next;
    return a;
}

static struct vty type_of(struct gen *g, const struct node *n)
{
    switch (n->k) {
    case E_INT: return ty_const(n->ival);
    case E_STR: return ty_unknown(PRB_T_INT, 0);
    case E_IDENT: {
        int id = builtin(n->s);
        if (id < 0)
            return ty_unknown(PRB_T_INT, 0);
        struct vty t = {.t = bi[id].t, .u = bi[id].u, .uns = bi[id].uns};
        if (bi[id].hi >= bi[id].lo)
            t = ty_range(t, bi[id].lo, bi[id].hi);
        if (id == B_PROBE)
            t = ty_range(t, 0, g->nsprobe_total ? g->nsprobe_total - 1 : 0);
        if ((id == B_PC || id == B_CALLER || id == B_FUNC) && (g->rc == R_UPROBE || g->rc == R_URET))
            t.t = id == B_FUNC ? PRB_T_UADDR : PRB_T_UADDR;
        if (id == B_COMM)
            t.t = PRB_T_COMM;
        return t;
    }
    case E_SVAR:
        for (unsigned i = 0; i < g->nsvt; i++)
            if (!strcmp(g->svt[i].name, n->s))
                return g->svt[i].t;
        return ty_unknown(PRB_T_INT, 0);
    case E_MAP: {
        struct mapinfo *m = map_find(g, n->s);
        if (m && m->vt_set)
            return m->vt;
        if (m && (m->agg == PRB_A_COUNT))
            return ty_unknown(PRB_T_UINT, 1);
        return ty_unknown(PRB_T_INT, 0);
    }
    case E_CALL: {
        const char *f = n->s;
        if (!strcmp(f, "kfunc") || !strcmp(f, "ksym")) {
            struct vty t = n->a ? type_of(g, n->a) : ty_unknown(PRB_T_UINT, 1);
            t.t = f[1] == 'f' ? PRB_T_KFUNC : PRB_T_KADDR;
            t.uns = 1;
            return t;
        }
        if (!strcmp(f, "sysname")) {
            struct vty t = n->a ? type_of(g, n->a) : ty_unknown(PRB_T_INT, 0);
            t.t = PRB_T_SYSCALL;
            if (!t.known)
                t = ty_range(t, 0, 1023);
            return t;
        }
        if (!strcmp(f, "kaddr"))
            return ty_unknown(PRB_T_KADDR, 1);
        if (!strcmp(f, "kvar") || !strcmp(f, "mem")) {
            const struct node *sz = arg_n(n, !strcmp(f, "kvar") ? 2 : 1);
            int64_t s;
            if (sz && const_eval(g, sz, &s) && (s == 1 || s == 2))
                return ty_range(ty_unknown(PRB_T_UINT, 1), 0, s == 1 ? 255 : 65535);
            return ty_unknown(PRB_T_UINT, 1);
        }
        if (!strcmp(f, "reg"))
            return ty_unknown(PRB_T_UINT, 1);
        return ty_unknown(PRB_T_INT, 0);
    }
    case E_UN: {
        struct vty a = type_of(g, n->a);
        if (n->op == '!')
            return ty_range(ty_unknown(PRB_T_INT, 0), 0, 1);
        a.known = 0;
        a.u = n->op == '-' ? a.u : PRB_U_NONE;
        a.t = n->op == '-' ? PRB_T_INT : a.t <= PRB_T_UINT ? a.t : PRB_T_UINT;
        a.uns = n->op == '-' ? 0 : a.uns;
        return a;
    }
    case E_BIN: {
        struct vty a = type_of(g, n->a), b = type_of(g, n->b), r;
        int uns = a.uns || b.uns;
        int64_t cb;
        int bconst = const_eval(g, n->b, &cb);
        switch (n->op) {
        case OP_EQ: case OP_NE: case '<': case '>': case OP_LE: case OP_GE: case OP_AND: case OP_OR:
            return ty_range(ty_unknown(PRB_T_INT, 0), 0, 1);
        default: break;
        }
        r = ty_unknown(uns ? PRB_T_UINT : PRB_T_INT, uns);
        r.u = a.u == b.u || b.u == PRB_U_NONE ? a.u : PRB_U_NONE;
        if (n->op != '+' && n->op != '-' && n->op != '*' && n->op != '/')
            r.u = PRB_U_NONE;
        if (is_kaddr(a.t) && (n->op == '+' || n->op == '-') && !is_kaddr(b.t))
            r.t = a.t;
        int64_t ca;
        if (const_eval(g, n, &ca))
            return ty_const(ca);
        if (bconst && cb > 0) {
            int nonneg = uns || (a.known && a.lo >= 0);
            switch (n->op) {
            case '%':
                return nonneg ? ty_range(r, 0, cb - 1) : ty_range(r, -(cb - 1), cb - 1);
            case '&':
                return ty_range(r, 0, cb);
            case OP_SHR:
                if (cb < 32 && nonneg)
                    return ty_range(r, a.known ? a.lo >> cb : 0,
                                    a.known ? a.hi >> cb : (int64_t)(0xFFFFFFFFu >> cb));
                break;
            case '/':
                if (a.known && a.lo >= 0)
                    return ty_range(r, a.lo / cb, a.hi / cb);
                if (uns)
                    return ty_range(r, 0, 0xFFFFFFFFll / cb);
                break;
            case '+': case '-':
                if (a.known) {
                    int64_t d = n->op == '+' ? cb : -cb;
                    return ty_range(r, a.lo + d, a.hi + d);
                }
                break;
            case '*':
                if (a.known && a.lo >= 0 && a.hi * cb <= 0x7FFFFFFF)
                    return ty_range(r, a.lo * cb, a.hi * cb);
                break;
            default: break;
            }
        }
        if (n->op == '&' && a.known && a.lo >= 0)
            return ty_range(r, 0, a.hi);
        return r;
    }
    case E_TERN: {
        struct vty b = type_of(g, n->b), c = type_of(g, n->c);
        return ty_join(b, c);
    }
    default: return ty_unknown(PRB_T_INT, 0);
    }
}

/* A $variable's type after an assignment s (the union of its values). */
static void svar_typed(struct gen *g, const struct node *s)
{
    struct vty t = s->op == '=' ? type_of(g, s->b) : ty_unknown(PRB_T_INT, 0);
    unsigned i;
    for (i = 0; i < g->nsvt && strcmp(g->svt[i].name, s->a->s); i++)
        ;
    if (i == g->nsvt) {
        if (i == 16)
            return;
        g->svt[g->nsvt].name = s->a->s;
        g->svt[g->nsvt++].t = t;
        return;
    }
    if (s->op == '=') {
        g->svt[i].t = ty_join(g->svt[i].t, t);
    } else {
        g->svt[i].t.known = 0;
        if (s->b && type_of(g, s->b).u != g->svt[i].t.u)
            g->svt[i].t.u = PRB_U_NONE;
    }
}

/* ---- expressions ---- */

static struct val gen_expr(struct gen *g, const struct node *n);
static void jump_if(struct gen *g, const struct node *n, int sense, int l);

static struct val tmp_val(uint8_t r, struct vty t)
{
    return (struct val){.r = r, .temp = 1, .ty = t};
}

static struct val ldi(struct gen *g, const struct node *at_, uint32_t v, struct vty t)
{
    uint8_t r = reg_get(g, at_);
    emit(g, at_, PRB_LDI, r, 0, 0, v);
    return tmp_val(r, t);
}

static struct val ctx(struct gen *g, const struct node *at_, unsigned sel, struct vty t)
{
    uint8_t r = reg_get(g, at_);
    emit(g, at_, PRB_CTX, r, 0, 0, sel);
    return tmp_val(r, t);
}

/* r = r op imm */
static void alu_i(struct gen *g, const struct node *at_, unsigned op, uint8_t r, uint32_t imm)
{
    emit(g, at_, (uint8_t)(op + PRB_IMM), r, 0, 0, imm);
}

/* A microcycle count to microseconds (exact up to 2^30 cycles, 85 s). */
static void to_us(struct gen *g, const struct node *at_, uint8_t r)
{
    alu_i(g, at_, PRB_MUL, r, 2);
    alu_i(g, at_, PRB_DIV, r, 25);
}

/* A procedure argument at AP + 4 + 4k. */
static struct val arg_val(struct gen *g, const struct node *at_, unsigned k, struct vty t)
{
    if (g->rc == R_KRET || g->rc == R_URET) {
        if (g->cookie_arg != (int)k)
            gfail(g, at_, "internal: arg%u is not the cookie", k);
        return ctx(g, at_, PRB_C_COOKIE, t);
    }
    struct val v = ctx(g, at_, PRB_C_R0 + 12, t);
    emit(g, at_, PRB_LDV, v.r, v.r, 4, 4 + 4 * k);
    return v;
}

/* The checks a builtin needs where it is used. */
static void bi_allowed(struct gen *g, const struct node *n, int id)
{
    if (!(bi[id].where & (1u << g->rc)))
        gfail(g, n, "%s is known in %s, not in %s", bi[id].name,
              bi[id].needs ? bi[id].needs : "the machine's probes", rctx_name(g->rc));
    if (id == B_VECTOR && g->evclass != 1 && g->evclass != 2)
        gfail(g, n, "vector is known in spam:interrupt and spam:exception probes");
    if (id == B_SYSNO && g->evclass != 3)
        gfail(g, n, "sysno is known in spam:syscall probes");
    if (id == B_VADDR && g->evclass != 2)
        gfail(g, n, "vaddr is known in spam:exception probes (the faulting address of tnv, acv)");
}

static struct val gen_builtin(struct gen *g, const struct node *n, int id)
{
    struct vty t = type_of(g, n);
    bi_allowed(g, n, id);
    int64_t cv;
    if (const_eval(g, n, &cv))
        return ldi(g, n, (uint32_t)cv, t);
    struct val v;
    switch (id) {
    case B_PID: case B_TID: return ctx(g, n, PRB_C_PID, t);
    case B_UID: return ctx(g, n, PRB_C_UID, t);
    case B_COMM: return ctx(g, n, PRB_C_PROG, t);
    case B_MODE:
        v = ctx(g, n, PRB_C_PSL, t);
        alu_i(g, n, PRB_SHR, v.r, 24);
        alu_i(g, n, PRB_AND, v.r, 3);
        return v;
    case B_IPL:
        v = ctx(g, n, PRB_C_PSL, t);
        alu_i(g, n, PRB_SHR, v.r, 16);
        alu_i(g, n, PRB_AND, v.r, 31);
        return v;
    case B_PSL: return ctx(g, n, PRB_C_PSL, t);
    case B_PC: return ctx(g, n, PRB_C_R0 + 15, t);
    case B_SP: return ctx(g, n, PRB_C_R0 + 14, t);
    case B_FP: return ctx(g, n, PRB_C_R0 + 13, t);
    case B_AP: return ctx(g, n, PRB_C_R0 + 12, t);
    case B_ARG0: case B_ARG1: case B_ARG2: case B_ARG3: case B_ARG4: case B_ARG5:
        return arg_val(g, n, (unsigned)(id - B_ARG0), t);
    case B_NARGS:
        v = ctx(g, n, PRB_C_R0 + 12, t);
        emit(g, n, PRB_LDV, v.r, v.r, 1, 0);
        return v;
    case B_RETVAL: return ctx(g, n, PRB_C_R0, t);
    case B_DUR: case B_DURC:
        v = ctx(g, n, PRB_C_DUR, t);
        if (id == B_DUR)
            to_us(g, n, v.r);
        return v;
    case B_DURX: case B_DURXC:
        v = ctx(g, n, PRB_C_DURX, t);
        if (id == B_DURX)
            to_us(g, n, v.r);
        return v;
    case B_SELF: case B_SELFC: {
        uint8_t r = reg_get(g, n);
        emit(g, n, PRB_MOV, r, g->self_reg, 0, 0);
        if (id == B_SELF)
            to_us(g, n, r);
        return tmp_val(r, t);
    }
    case B_NSECS:
        v = ctx(g, n, PRB_C_CYCLO, t);
        alu_i(g, n, PRB_MUL, v.r, 80);
        return v;
    case B_USECS: return ctx(g, n, PRB_C_USEC, t);
    case B_CYCLES: return ctx(g, n, PRB_C_CYCLO, t);
    case B_CMISS: return ctx(g, n, PRB_C_CMISS, t);
    case B_TBMISS: return ctx(g, n, PRB_C_TBMISS, t);
    case B_CALLER:
        if (g->rc == R_KRET || g->rc == R_URET)
            return ctx(g, n, PRB_C_R0 + 15, t); /* RET's return address */
        if (g->func_jsb) {                       /* JSB: the return PC on the stack */
            v = ctx(g, n, PRB_C_R0 + 14, t);
            emit(g, n, PRB_LDV, v.r, v.r, 4, 0);
            return v;
        }
        v = ctx(g, n, PRB_C_R0 + 13, t);         /* CALLS: the frame's saved PC */
        emit(g, n, PRB_LDV, v.r, v.r, 4, 16);
        return v;
    case B_EVENT: return ctx(g, n, PRB_C_EVENT, t);
    case B_VECTOR:
        v = ctx(g, n, PRB_C_EVENT, t);
        alu_i(g, n, PRB_AND, v.r, 0xFFF);
        return v;
    case B_SYSNO:
        v = ctx(g, n, PRB_C_EVENT, t);
        alu_i(g, n, PRB_AND, v.r, 0x3FF);
        return v;
    case B_VADDR:
        v = ctx(g, n, PRB_C_R0 + 14, t);
        emit(g, n, PRB_LDV, v.r, v.r, 4, 4);
        return v;
    default: gfail(g, n, "internal: builtin %s", bi[id].name);
    }
}

static int64_t const_arg(struct gen *g, const struct node *call, unsigned i, const char *what,
                         int64_t lo, int64_t hi)
{
    const struct node *a = arg_n(call, i);
    int64_t v;
    if (!a || !const_eval(g, a, &v))
        gfail(g, a ? a : call, "%s() needs a constant %s", call->s, what);
    if (v < lo || v > hi)
        gfail(g, a, "%s() %s %lld: %lld to %lld", call->s, what, (long long)v, (long long)lo,
              (long long)hi);
    return v;
}

static void nargs_check(struct gen *g, const struct node *call, unsigned lo, unsigned hi)
{
    if (call->n < lo || call->n > hi) {
        if (lo == hi)
            gfail(g, call, "%s() takes %u argument%s", call->s, lo, lo == 1 ? "" : "s");
        gfail(g, call, "%s() takes %u to %u arguments", call->s, lo, hi);
    }
}

static int is_agg_fn(const char *s)
{
    static const char *const a[] = {"count", "sum", "min", "max", "avg", "stats", "hist", "lhist"};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
        if (!strcmp(a[i], s))
            return 1;
    return 0;
}

static int is_stmt_fn(const char *s)
{
    static const char *const a[] = {"printf", "record", "print", "clear", "zero", "delete",
                                    "exit", "enable", "disable"};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
        if (!strcmp(a[i], s))
            return 1;
    return 0;
}

static struct val gen_call(struct gen *g, const struct node *n)
{
    const char *f = n->s;
    struct vty t = type_of(g, n);
    if (is_agg_fn(f))
        gfail(g, n, "%s() is an aggregation: assign it to a map (@x = %s(...))", f, f);
    if (is_stmt_fn(f))
        gfail(g, n, "%s() is a statement, not a value", f);
    if (!strcmp(f, "kfunc") || !strcmp(f, "ksym") || !strcmp(f, "sysname")) {
        nargs_check(g, n, 1, 1);
        struct val v = gen_expr(g, n->a);
        v.ty = t;
        return v;
    }
    if (!strcmp(f, "kaddr")) {
        nargs_check(g, n, 1, 1);
        if (n->a->k != E_STR)
            gfail(g, n->a, "kaddr() needs a kernel symbol's name in quotes");
        int64_t v;
        const_eval(g, n, &v);
        return ldi(g, n, (uint32_t)v, t);
    }
    if (!strcmp(f, "kvar")) {
        nargs_check(g, n, 1, 3);
        if (g->rc == R_HOST)
            gfail(g, n, "kvar() reads the guest's memory: it works in the machine's probes, not in %s",
                  rctx_name(g->rc));
        if (n->a->k != E_STR)
            gfail(g, n->a, "kvar() needs a kernel variable's name in quotes");
        uint32_t addr;
        resolver_ksym(g, n->a, n->a->s, &addr, NULL);
        int64_t off = n->n > 1 ? const_arg(g, n, 1, "offset", -0x800000, 0x7FFFFF) : 0;
        int64_t size = n->n > 2 ? const_arg(g, n, 2, "size", 1, 4) : 4;
        if (size == 3)
            gfail(g, arg_n(n, 2), "kvar() size 3: 1, 2 or 4 bytes");
        uint8_t r = reg_get(g, n);
        emit(g, n, PRB_LDVA, r, 0, (uint8_t)size, addr + (uint32_t)off);
        return tmp_val(r, t);
    }
    if (!strcmp(f, "mem")) {
        nargs_check(g, n, 1, 2);
        if (g->rc == R_HOST)
            gfail(g, n, "mem() reads the guest's memory: it works in the machine's probes");
        int64_t size = n->n > 1 ? const_arg(g, n, 1, "size", 1, 4) : 4;
        if (size == 3)
            gfail(g, arg_n(n, 1), "mem() size 3: 1, 2 or 4 bytes");
        int64_t c;
        if (const_eval(g, n->a, &c)) {
            uint8_t r = reg_get(g, n);
            emit(g, n, PRB_LDVA, r, 0, (uint8_t)size, (uint32_t)c);
            return tmp_val(r, t);
        }
        struct val a = gen_expr(g, n->a);
        uint8_t r = own(g, n, &a);
        emit(g, n, PRB_LDV, r, r, (uint8_t)size, 0);
        return tmp_val(r, t);
    }
    if (!strcmp(f, "reg")) {
        nargs_check(g, n, 1, 1);
        if (g->rc == R_HOST)
            gfail(g, n, "reg() reads the guest's registers: it works in the machine's probes");
        int sel = n->a->k == E_STR ? prb_ctx_lookup(n->a->s) : -1;
        if (sel < 0 || sel > 16)
            gfail(g, n->a, "reg() needs a register's name: \"r0\"-\"r11\", \"ap\", \"fp\", \"sp\", "
                           "\"pc\" or \"psl\"");
        return ctx(g, n, (unsigned)sel, t);
    }
    gfail(g, n, "unknown function %s()", f);
}

static struct val gen_map_read(struct gen *g, const struct node *n);

/* Unsigned a / b or a % b with the signed divider: halves, then fixes:
 * q = ((a >> 1) / b) << 1, r = a - q * b, and once more if r >= b.  A
 * divisor of 2^31 or more: q = (a >= b).  A zero divisor gives 0, as
 * the signed divide does. */
static void udiv(struct gen *g, const struct node *at_, uint8_t a, uint8_t b, int mod)
{
    int big = new_label(g), done = new_label(g), fix = new_label(g);
    uint8_t q = reg_get(g, at_), r = reg_get(g, at_);
    emit(g, at_, PRB_LDI, q, 0, 0, 0);
    emit(g, at_, PRB_LDI, r, 0, 0, 0);
    branch(g, at_, PRB_BEQ + PRB_BIMM, b, 0, 0, done);
    branch(g, at_, PRB_BLT + PRB_BIMM, b, 0, 0, big);
    emit(g, at_, PRB_MOV, q, a, 0, 0);
    alu_i(g, at_, PRB_SHR, q, 1);
    emit(g, at_, PRB_DIV, q, b, 0, 0);
    alu_i(g, at_, PRB_SHL, q, 1);
    emit(g, at_, PRB_MOV, r, q, 0, 0);
    emit(g, at_, PRB_MUL, r, b, 0, 0);
    emit(g, at_, PRB_SUB, r, a, 0, 0);          /* q*b - a */
    alu_i(g, at_, PRB_XOR, r, 0xFFFFFFFFu);
    alu_i(g, at_, PRB_ADD, r, 1);               /* a - q*b */
    branch(g, at_, PRB_BLTU, r, b, 0, fix);
    alu_i(g, at_, PRB_ADD, q, 1);
    emit(g, at_, PRB_SUB, r, b, 0, 0);
    place(g, fix);
    branch(g, at_, PRB_JMP, 0, 0, 0, done);
    place(g, big);
    emit(g, at_, PRB_MOV, r, a, 0, 0);
    branch(g, at_, PRB_BLTU, a, b, 0, done);
    emit(g, at_, PRB_LDI, q, 0, 0, 1);
    emit(g, at_, PRB_SUB, r, b, 0, 0);
    place(g, done);
    emit(g, at_, PRB_MOV, a, mod ? r : q, 0, 0);
    reg_put(g, q);
    reg_put(g, r);
}

/* The same by a constant 1 < c (not a power of two), in fewer
 * registers. */
static void udiv_const(struct gen *g, const struct node *at_, uint8_t a, uint32_t c, int mod)
{
    uint8_t q = reg_get(g, at_);
    int done = new_label(g);
    if (c >= 0x80000000u) {
        emit(g, at_, PRB_LDI, q, 0, 0, 0);
        branch(g, at_, PRB_BLTU + PRB_BIMM, a, 0, c, done);
        emit(g, at_, PRB_LDI, q, 0, 0, 1);
        alu_i(g, at_, PRB_SUB, a, c);
        place(g, done);
        if (!mod)
            emit(g, at_, PRB_MOV, a, q, 0, 0);
        reg_put(g, q);
        return;
    }
    emit(g, at_, PRB_MOV, q, a, 0, 0);
    alu_i(g, at_, PRB_SHR, q, 1);
    alu_i(g, at_, PRB_DIV, q, c);
    alu_i(g, at_, PRB_SHL, q, 1);
    if (mod) {
        alu_i(g, at_, PRB_MUL, q, c);
        emit(g, at_, PRB_SUB, a, q, 0, 0);             /* a - q*c, below 2c */
        branch(g, at_, PRB_BLTU + PRB_BIMM, a, 0, c, done);
        alu_i(g, at_, PRB_SUB, a, c);
    } else {
        uint8_t t = reg_get(g, at_);
        emit(g, at_, PRB_MOV, t, q, 0, 0);
        alu_i(g, at_, PRB_MUL, t, c);
        emit(g, at_, PRB_SUB, a, t, 0, 0);
        reg_put(g, t);
        emit(g, at_, PRB_MOV, t, a, 0, 0);             /* (t is free again: a's copy) */
        emit(g, at_, PRB_MOV, a, q, 0, 0);
        branch(g, at_, PRB_BLTU + PRB_BIMM, t, 0, c, done);
        alu_i(g, at_, PRB_ADD, a, 1);
    }
    place(g, done);
    reg_put(g, q);
}

static const uint8_t alu_op[] = {
    ['+'] = PRB_ADD, ['-'] = PRB_SUB, ['*'] = PRB_MUL, ['/'] = PRB_DIV, ['%'] = PRB_MOD,
    ['&'] = PRB_AND, ['|'] = PRB_OR, ['^'] = PRB_XOR,
};

static int is_cmp(int op)
{
    return op == OP_EQ || op == OP_NE || op == '<' || op == '>' || op == OP_LE || op == OP_GE;
}

static struct val gen_bin(struct gen *g, const struct node *n)
{
    struct vty t = type_of(g, n);
    if (is_cmp(n->op) || n->op == OP_AND || n->op == OP_OR) {
        int f = new_label(g);
        uint8_t r = reg_get(g, n);
        emit(g, n, PRB_LDI, r, 0, 0, 0);
        jump_if(g, n, 0, f);
        emit(g, n, PRB_LDI, r, 0, 0, 1);
        place(g, f);
        return tmp_val(r, t);
    }
    struct vty ta = type_of(g, n->a), tb = type_of(g, n->b);
    int uns = ta.uns || tb.uns;
    int64_t cb;
    struct val a = gen_expr(g, n->a);
    uint8_t r = own(g, n, &a);
    int bconst = const_eval(g, n->b, &cb);
    unsigned op;
    switch (n->op) {
    case OP_SHL: op = PRB_SHL; break;
    case OP_SHR: op = uns ? PRB_SHR : PRB_SAR; break;
    default: op = alu_op[n->op]; break;
    }
    if ((n->op == '/' || n->op == '%') && bconst && cb == 0)
        gfail(g, n->b, "division by zero");
    if ((n->op == '/' || n->op == '%') && uns) {
        if (bconst && cb > 0 && !(cb & (cb - 1))) {
            /* a power of two: a shift or a mask */
            if (n->op == '/')
                alu_i(g, n, PRB_SHR, r, (uint32_t)__builtin_ctzll((unsigned long long)cb));
            else
                alu_i(g, n, PRB_AND, r, (uint32_t)cb - 1);
            return tmp_val(r, t);
        }
        if (bconst) {
            udiv_const(g, n, r, (uint32_t)cb, n->op == '%');
            return tmp_val(r, t);
        }
        struct val b = gen_expr(g, n->b);
        uint8_t rb = b.r;
        udiv(g, n, r, rb, n->op == '%');
        val_put(g, &b);
        return tmp_val(r, t);
    }
    if (bconst) {
        alu_i(g, n, op, r, (uint32_t)cb);
    } else {
        struct val b = gen_expr(g, n->b);
        emit(g, n, (uint8_t)op, r, b.r, 0, 0);
        val_put(g, &b);
    }
    return tmp_val(r, t);
}

static uint32_t comm_value(struct gen *g, const struct node *s)
{
    return resolve_prog(g, s, s->s);
}

static struct val gen_expr(struct gen *g, const struct node *n)
{
    int64_t cv;
    g->cur_line = n->line;
    g->cur_col = n->col;
    switch (n->k) {
    case E_INT: return ldi(g, n, (uint32_t)n->ival, type_of(g, n));
    case E_STR:
        gfail(g, n, "a string is a value only where a program is compared with comm "
                    "(comm == \"/bin/ls\") or in printf's format");
    case E_IDENT: {
        int id = builtin(n->s);
        if (id < 0)
            gfail(g, n, "unknown identifier '%s'", n->s);
        return gen_builtin(g, n, id);
    }
    case E_SVAR:
        for (unsigned i = 0; i < g->nsvar; i++)
            if (!strcmp(g->svar[i].name, n->s) && g->svar[i].assigned) {
                if (!(g->defined & (1u << i)))
                    g->svar[i].needs_init = 1;
                return (struct val){.r = g->svar[i].reg, .temp = 0, .ty = ty_unknown(PRB_T_INT, 0)};
            }
        gfail(g, n, "%s is used before it is assigned", n->s);
    case E_MAP: return gen_map_read(g, n);
    case E_CALL: return gen_call(g, n);
    case E_UN: {
        if (const_eval(g, n, &cv))
            return ldi(g, n, (uint32_t)cv, type_of(g, n));
        if (n->op == '!') {
            int f = new_label(g);
            uint8_t r = reg_get(g, n);
            emit(g, n, PRB_LDI, r, 0, 0, 0);
            jump_if(g, n->a, 1, f);
            emit(g, n, PRB_LDI, r, 0, 0, 1);
            place(g, f);
            return tmp_val(r, type_of(g, n));
        }
        struct val a = gen_expr(g, n->a);
        uint8_t r = own(g, n, &a);
        if (n->op == '~') {
            alu_i(g, n, PRB_XOR, r, 0xFFFFFFFFu);
        } else { /* -a = ~a + 1 */
            alu_i(g, n, PRB_XOR, r, 0xFFFFFFFFu);
            alu_i(g, n, PRB_ADD, r, 1);
        }
        return tmp_val(r, type_of(g, n));
    }
    case E_BIN:
        if (const_eval(g, n, &cv))
            return ldi(g, n, (uint32_t)cv, type_of(g, n));
        if (n->op == OP_EQ || n->op == OP_NE) {
            if ((n->a->k == E_STR) != (n->b->k == E_STR)) {
                const struct node *s = n->a->k == E_STR ? n->a : n->b;
                const struct node *o = s == n->a ? n->b : n->a;
                if (type_of(g, o).t != PRB_T_COMM)
                    gfail(g, s, "a string compares only with comm");
            }
        }
        return gen_bin(g, n);
    case E_TERN: {
        if (const_eval(g, n->a, &cv))
            return gen_expr(g, cv ? n->b : n->c);
        int f = new_label(g), end = new_label(g);
        uint8_t r = reg_get(g, n);
        jump_if(g, n->a, 0, f);
        struct val b = gen_expr(g, n->b);
        emit(g, n, PRB_MOV, r, b.r, 0, 0);
        val_put(g, &b);
        branch(g, n, PRB_JMP, 0, 0, 0, end);
        place(g, f);
        struct val c = gen_expr(g, n->c);
        emit(g, n, PRB_MOV, r, c.r, 0, 0);
        val_put(g, &c);
        place(g, end);
        return tmp_val(r, type_of(g, n));
    }
    default: gfail(g, n, "not an expression");
    }
}

/* Conditions: branches to l when n's truth is sense, else falls through. */
static const uint8_t cmp_br[][2] = {
    /* signed, unsigned */
    [0] = {PRB_BEQ, PRB_BEQ}, [1] = {PRB_BNE, PRB_BNE}, [2] = {PRB_BLT, PRB_BLTU},
    [3] = {PRB_BLE, PRB_BLEU}, [4] = {PRB_BGT, PRB_BGTU}, [5] = {PRB_BGE, PRB_BGEU},
};

static int cmp_index(int op, int sense)
{
    int i;
    switch (op) {
    case OP_EQ: i = 0; break;
    case OP_NE: i = 1; break;
    case '<': i = 2; break;
    case OP_LE: i = 3; break;
    case '>': i = 4; break;
    default: i = 5; break;
    }
    if (!sense) {
        static const int inv[] = {1, 0, 5, 4, 3, 2};
        i = inv[i];
    }
    return i;
}

static void jump_if(struct gen *g, const struct node *n, int sense, int l)
{
    int64_t cv;
    if (const_eval(g, n, &cv)) {
        if ((cv != 0) == sense)
            branch(g, n, PRB_JMP, 0, 0, 0, l);
        return;
    }
    if (n->k == E_UN && n->op == '!') {
        jump_if(g, n->a, !sense, l);
        return;
    }
    if (n->k == E_BIN && (n->op == OP_AND || n->op == OP_OR)) {
        int and = n->op == OP_AND;
        if (and != sense) { /* && false, || true: either side decides */
            jump_if(g, n->a, sense, l);
            jump_if(g, n->b, sense, l);
        } else {
            int skip = new_label(g);
            jump_if(g, n->a, !sense, skip);
            jump_if(g, n->b, sense, l);
            place(g, skip);
        }
        return;
    }
    if (n->k == E_BIN && is_cmp(n->op)) {
        const struct node *a = n->a, *b = n->b;
        int op = n->op;
        /* comm == "path": the program's value */
        int64_t cb;
        int bconst;
        uint32_t sval = 0;
        if (a->k == E_STR || b->k == E_STR) {
            const struct node *s = a->k == E_STR ? a : b, *o = s == a ? b : a;
            if (a->k == E_STR && b->k == E_STR)
                gfail(g, n, "two strings compared");
            if (type_of(g, o).t != PRB_T_COMM)
                gfail(g, s, "a string compares only with comm");
            if (op != OP_EQ && op != OP_NE)
                gfail(g, n, "comm compares with a program by == or !=");
            sval = comm_value(g, s);
            a = o;
            b = s;
            bconst = 1;
            cb = sval;
        } else {
            bconst = const_eval(g, b, &cb);
            int64_t ca;
            if (!bconst && const_eval(g, a, &ca)) { /* constant first: swap */
                const struct node *t = a;
                a = b;
                b = t;
                cb = ca;
                bconst = 1;
                static const int sw[] = {[0] = 0};
                (void)sw;
                op = op == '<' ? '>' : op == '>' ? '<' : op == OP_LE ? OP_GE : op == OP_GE ? OP_LE : op;
            }
        }
        struct vty ta = type_of(g, a), tb = b->k == E_STR ? ty_unknown(PRB_T_UINT, 1) : type_of(g, b);
        int uns = ta.uns || tb.uns;
        int ci = cmp_index(op, sense);
        struct val va = gen_expr(g, a);
        if (bconst) {
            branch(g, n, (uint8_t)(cmp_br[ci][uns] + PRB_BIMM), va.r, 0, (uint32_t)cb, l);
        } else {
            struct val vb = gen_expr(g, b);
            branch(g, n, cmp_br[ci][uns], va.r, vb.r, 0, l);
            val_put(g, &vb);
        }
        val_put(g, &va);
        return;
    }
    struct val v = gen_expr(g, n);
    branch(g, n, sense ? PRB_BNE + PRB_BIMM : PRB_BEQ + PRB_BIMM, v.r, 0, 0, l);
    val_put(g, &v);
}

/* ---- map keys ---- */

/* The key's components' layout (fixed after pass 1). */
static uint32_t part_range(const struct prb_lang_keypart *k)
{
    return k->range;
}

/* The comm key of a prog value in register r. */
static void comm_key(struct gen *g, const struct node *at_, uint8_t r)
{
    uint8_t d = reg_get(g, at_);
    emit(g, at_, PRB_MOV, d, r, 0, 0);
    alu_i(g, at_, PRB_SHR, d, 16);
    alu_i(g, at_, PRB_MUL, d, g->comm_mul);
    alu_i(g, at_, PRB_AND, r, 0xFFFF);
    emit(g, at_, PRB_ADD, r, d, 0, 0);
    alu_i(g, at_, PRB_MOD, r, g->comm_mod);
    reg_put(g, d);
}

/* One component's key value (0..range-1, or beyond: out of range). */
static uint8_t key_part(struct gen *g, const struct node *k, const struct prb_lang_keypart *kp)
{
    struct val v = gen_expr(g, k);
    uint8_t r = own(g, k, &v);
    switch (kp->type) {
    case PRB_T_KADDR: case PRB_T_KFUNC:
        alu_i(g, k, PRB_SUB, r, kp->base);
        if (kp->shift)
            alu_i(g, k, PRB_SHR, r, kp->shift);
        break;
    case PRB_T_COMMKEY: comm_key(g, k, r); break;
    default:
        if (kp->lo)
            alu_i(g, k, PRB_SUB, r, (uint32_t)kp->lo);
        break;
    }
    return r;
}

/* The slot's key for map m from the key list (NULL: key 0). */
static uint8_t gen_key(struct gen *g, const struct node *mn, const struct prb_lang_map *lm)
{
    if (!lm->nkey) {
        uint8_t r = reg_get(g, mn);
        emit(g, mn, PRB_LDI, r, 0, 0, 0);
        return r;
    }
    const struct node *k = mn->a;
    uint8_t acc = key_part(g, k, &lm->key[0]);
    if (lm->nkey == 1)
        return acc; /* the unit clamps a key beyond the map to its overflow slot */
    uint32_t total = 1;
    for (unsigned i = 0; i < lm->nkey; i++)
        total *= part_range(&lm->key[i]);
    int ovf = new_label(g), done = new_label(g);
    branch(g, k, PRB_BGEU + PRB_BIMM, acc, 0, part_range(&lm->key[0]), ovf);
    unsigned i = 1;
    for (k = k->next; k; k = k->next, i++) {
        uint8_t r = key_part(g, k, &lm->key[i]);
        branch(g, k, PRB_BGEU + PRB_BIMM, r, 0, part_range(&lm->key[i]), ovf);
        alu_i(g, k, PRB_MUL, acc, part_range(&lm->key[i]));
        emit(g, k, PRB_ADD, acc, r, 0, 0);
        reg_put(g, r);
    }
    branch(g, mn, PRB_JMP, 0, 0, 0, done);
    place(g, ovf);
    emit(g, mn, PRB_LDI, acc, 0, 0, total);
    place(g, done);
    return acc;
}

/* The map n reads, which must hold a number a slot (count, sum, a value). */
static struct mapinfo *readable_map(struct gen *g, const struct node *n)
{
    struct mapinfo *m = map_find(g, n->s);
    if (!m || !m->defined)
        gfail(g, n, "%s is read but never assigned", n->s);
    if (m->agg != PRB_A_COUNT && m->agg != PRB_A_SUM && m->agg != PRB_A_VAR)
        gfail(g, n, "%s is %s: only count(), sum() and assigned maps can be read", n->s,
              agg_name(m->agg));
    return m;
}

static struct val gen_map_read(struct gen *g, const struct node *n)
{
    struct mapinfo *m = readable_map(g, n);
    int mi = map_index(g, m);
    if (g->rc == R_HOST)
        gfail(g, n, "internal: host map read");
    uint8_t k = gen_key(g, n, &g->out->map[mi]);
    emit(g, n, PRB_LDM, k, k, 0, (uint32_t)mi);
    return tmp_val(k, m->vt_set ? m->vt : ty_unknown(PRB_T_INT, 0));
}

/* ---- statements ---- */

static void gen_block(struct gen *g, const struct node *s);

static int svar_find(struct gen *g, const char *name)
{
    for (unsigned i = 0; i < g->nsvar; i++)
        if (!strcmp(g->svar[i].name, name))
            return (int)i;
    return -1;
}

static void gen_svar(struct gen *g, const struct node *s)
{
    const struct node *v = s->a;
    int i = svar_find(g, v->s);
    if (i < 0 || (!g->svar[i].assigned && s->op != '='))
        gfail(g, v, "%s is used before it is assigned", v->s);
    uint8_t r = g->svar[i].reg;
    if (s->op == '=') {
        struct val e = gen_expr(g, s->b);
        emit(g, s, PRB_MOV, r, e.r, 0, 0);
        val_put(g, &e);
    } else {
        if (!(g->defined & (1u << i)))
            g->svar[i].needs_init = 1;
        if (s->op == 'i' || s->op == 'd') {
            alu_i(g, s, s->op == 'i' ? PRB_ADD : PRB_SUB, r, 1);
        } else {
            struct val e = gen_expr(g, s->b);
            emit(g, s, s->op == '+' ? PRB_ADD : PRB_SUB, r, e.r, 0, 0);
            val_put(g, &e);
        }
    }
    g->svar[i].assigned = 1;
    g->defined |= 1u << i;
    svar_typed(g, s);
}

static void gen_map_assign(struct gen *g, const struct node *s)
{
    const struct node *mn = s->a;
    struct mapinfo *m = map_find(g, mn->s);
    int mi = map_index(g, m);
    const struct prb_lang_map *lm = &g->out->map[mi];
    const struct node *v = s->b;
    if (s->op == '=' && v->k == E_CALL && is_agg_fn(v->s)) {
        const char *f = v->s;
        uint8_t key = gen_key(g, mn, lm);
        if (!strcmp(f, "count")) {
            emit(g, s, PRB_AGG, key, key, 0, (uint32_t)mi);
        } else {
            struct val x = gen_expr(g, v->a);
            emit(g, s, PRB_AGG, key, x.r, 0, (uint32_t)mi);
            val_put(g, &x);
        }
        reg_put(g, key);
        return;
    }
    uint8_t key = gen_key(g, mn, lm);
    if (s->op == '=') {
        struct val x = gen_expr(g, v);
        emit(g, s, PRB_STM, x.r, key, 0, (uint32_t)mi);
        val_put(g, &x);
    } else {
        uint8_t t = reg_get(g, s);
        emit(g, s, PRB_LDM, t, key, 0, (uint32_t)mi);
        if (s->op == 'i' || s->op == 'd') {
            alu_i(g, s, s->op == 'i' ? PRB_ADD : PRB_SUB, t, 1);
        } else {
            struct val x = gen_expr(g, v);
            emit(g, s, s->op == '+' ? PRB_ADD : PRB_SUB, t, x.r, 0, 0);
            val_put(g, &x);
        }
        emit(g, s, PRB_STM, t, key, 0, (uint32_t)mi);
        reg_put(g, t);
    }
    reg_put(g, key);
}

/* printf's format: its conversions' count, checked. */
static unsigned fmt_convs(struct gen *g, const struct node *at_, const char *f)
{
    unsigned n = 0;
    for (const char *p = f; *p; p++) {
        if (*p != '%')
            continue;
        p++;
        if (*p == '%')
            continue;
        while (*p && strchr("-+ #0", *p))
            p++;
        while (isdigit((unsigned char)*p))
            p++;
        if (*p == '.') {
            p++;
            while (isdigit((unsigned char)*p))
                p++;
        }
        while (*p == 'l' || *p == 'h' || *p == 'z')
            p++;
        if (!*p || !strchr("diuxXocsp", *p))
            gfail(g, at_, "printf: '%%%c' is not a conversion (%%d %%u %%x %%X %%o %%c %%s %%p %%%%)",
                  *p ? *p : '?');
        n++;
    }
    return n;
}

/* The machine probes of the script probe whose text is s. */
static int sprobe_by_text(struct gen *g, const char *s)
{
    for (unsigned i = 0; i < g->nsprobe_total; i++)
        if (!strcmp(g->out->sprobe[i].text, s))
            return (int)i;
    return -1;
}

static void gen_stmt_call(struct gen *g, const struct node *s)
{
    const struct node *c = s->a;
    const char *f = c->s;
    if (!strcmp(f, "printf") || !strcmp(f, "record")) {
        int pf = f[0] == 'p';
        const struct node *a = c->a;
        unsigned nv = c->n;
        if (pf) {
            if (!a || a->k != E_STR)
                gfail(g, c, "printf's first argument is its format, a string");
            unsigned conv = fmt_convs(g, a, a->s);
            if (conv != c->n - 1)
                gfail(g, c, "printf's format has %u conversion%s and %u value%s follow", conv,
                      conv == 1 ? "" : "s", c->n - 1, c->n == 2 ? "" : "s");
            a = a->next;
            nv--;
        }
        if (nv > PRB_LANG_MAX_ARGS)
            gfail(g, c, "%s() with %u values: a record holds at most %d", f, nv,
                  PRB_LANG_MAX_ARGS);
        if (g->out->nfmt == 256)
            gfail(g, c, "more than 256 printf() and record() calls");
        unsigned tag = g->out->nfmt;
        if (g->pass == 2) {
            struct prb_lang_fmt *fm = &g->out->fmt[tag];
            fm->nargs = nv;
            fm->probe = g->sprobe;
            if (pf) {
                fm->fmt = strdup(c->a->s);
                if (!fm->fmt)
                    gfail(g, c, "out of memory");
            }
            unsigned i = 0;
            for (const struct node *x = a; x; x = x->next, i++)
                fm->type[i] = type_of(g, x).t;
        }
        g->out->nfmt++;
        g->out->uses_records = 1;
        if (g->rc == R_HOST)
            return; /* the host formats it itself */
        /* nv consecutive registers */
        int base = -1;
        for (int r = 0; r + (int)nv <= 16 && base < 0; r++) {
            int ok = 1;
            for (unsigned k = 0; k < nv; k++)
                if (g->busy & (1u << (r + (int)k)))
                    ok = 0;
            if (ok)
                base = r;
        }
        if (base < 0)
            gfail(g, c, "%s() with %u values needs %u free registers in a row", f, nv, nv);
        /* each value into its register; the run's later registers serve
         * as temporaries until their value comes */
        unsigned k = 0;
        for (const struct node *x = a; x; x = x->next, k++) {
            if (x->k == E_STR)
                gfail(g, x, "a string value: write it into the format");
            struct val v = gen_expr(g, x);
            if (v.r != base + (int)k)
                emit(g, x, PRB_MOV, (uint8_t)(base + (int)k), v.r, 0, 0);
            val_put(g, &v);
            g->busy |= (uint16_t)(1u << (base + (int)k));
        }
        emit(g, c, PRB_REC, nv ? (uint8_t)base : 0, 0, (uint8_t)nv, tag);
        for (k = 0; k < nv; k++)
            reg_put(g, (uint8_t)(base + (int)k));
        return;
    }
    if (!strcmp(f, "exit")) {
        nargs_check(g, c, 0, 0);
        if (g->rc != R_HOST)
            emit(g, c, PRB_NOTE, 0, 0, 0, 1);
        return;
    }
    if (!strcmp(f, "enable") || !strcmp(f, "disable")) {
        int on = f[0] == 'e';
        nargs_check(g, c, 0, 1);
        if (g->rc == R_HOST)
            gfail(g, c, "%s() works in the machine's probes, not in %s", f, rctx_name(g->rc));
        if (!c->n) {
            emit(g, c, on ? PRB_TRON : PRB_TROFF, 0, 0, 0, 0);
            g->out->uses_tracing = 1;
            return;
        }
        if (c->a->k != E_STR)
            gfail(g, c->a, "%s() names a probe of this script in quotes, as written "
                           "(enable(\"kprobe:namei\")), or nothing: tracing", f);
        int sp = sprobe_by_text(g, c->a->s);
        if (sp < 0)
            gfail(g, c->a, "no probe \"%s\" in this script", c->a->s);
        unsigned k = emit(g, c->a, on ? PRB_ARM : PRB_DISARM, 0, 0, 0, (uint32_t)sp);
        g->armref[k] = 1;
        return;
    }
    if (!strcmp(f, "delete")) {
        nargs_check(g, c, 1, 1);
        if (c->a->k != E_MAP)
            gfail(g, c->a, "delete() takes a map's slot: delete(@x[key])");
        if (g->rc == R_HOST)
            gfail(g, c, "delete() works in the machine's probes (use clear(@x) in %s)",
                  rctx_name(g->rc));
        struct mapinfo *m = map_find(g, c->a->s);
        if (!m || !m->defined)
            gfail(g, c->a, "%s is never assigned", c->a->s);
        if (m->agg != PRB_A_COUNT && m->agg != PRB_A_SUM && m->agg != PRB_A_VAR)
            gfail(g, c->a, "delete() works on count(), sum() and assigned maps; %s is %s",
                  m->name, agg_name(m->agg));
        int mi = map_index(g, m);
        uint8_t k = gen_key(g, c->a, &g->out->map[mi]);
        uint8_t z = reg_get(g, c);
        emit(g, c, PRB_LDI, z, 0, 0, 0);
        emit(g, c, PRB_STM, z, k, 0, (uint32_t)mi);
        reg_put(g, z);
        reg_put(g, k);
        return;
    }
    if (!strcmp(f, "print") || !strcmp(f, "clear") || !strcmp(f, "zero")) {
        if (g->rc != R_HOST)
            gfail(g, c, "%s() runs in the host: use it in BEGIN, END or interval probes", f);
        return; /* (host blocks are not generated) */
    }
    if (is_agg_fn(f))
        gfail(g, c, "%s() is an aggregation: assign it to a map (@x = %s(...))", f, f);
    gfail(g, c, "%s() is not a statement (printf, record, print, clear, zero, delete, exit, "
                "enable, disable)", f);
}

static void gen_stmt(struct gen *g, const struct node *s)
{
    g->cur_line = s->line;
    g->cur_col = s->col;
    switch (s->k) {
    case S_EXPR: gen_stmt_call(g, s); return;
    case S_SVAR: gen_svar(g, s); return;
    case S_MAP: gen_map_assign(g, s); return;
    case S_IF: {
        int f = new_label(g);
        jump_if(g, s->a, 0, f);
        uint32_t before = g->defined;
        gen_block(g, s->b);
        uint32_t after_then = g->defined;
        if (s->c) {
            int end = new_label(g);
            branch(g, s, PRB_JMP, 0, 0, 0, end);
            place(g, f);
            g->defined = before;
            if (s->c->k == S_IF)
                gen_stmt(g, s->c);
            else
                gen_block(g, s->c);
            place(g, end);
            g->defined &= after_then;
        } else {
            place(g, f);
            g->defined = before;
        }
        return;
    }
    case S_UNROLL: {
        if (g->in_loop)
            gfail(g, s, "unroll inside unroll: the probe unit's loops do not nest");
        unsigned at_ = emit(g, s, PRB_LOOP, 0, 0, 0, (uint32_t)s->ival);
        g->in_loop = 1;
        gen_block(g, s->b);
        g->in_loop = 0;
        g->code[at_].skip = g->n - at_ - 1;
        if (g->code[at_].skip == 0)
            g->n--; /* an empty body: nothing */
        return;
    }
    default: gfail(g, s, "not a statement");
    }
}

static void gen_block(struct gen *g, const struct node *s)
{
    for (; s; s = s->next)
        gen_stmt(g, s);
}

/* ---- pass 1: maps and their kinds ---- */

static void scan_expr(struct gen *g, const struct node *n);

static void scan_map_use(struct gen *g, const struct node *mn)
{
    struct mapinfo *m = map_get(g, mn, mn->s);
    map_keys(g, m, mn);
    for (const struct node *k = mn->a; k; k = k->next)
        scan_expr(g, k);
}

static void scan_expr(struct gen *g, const struct node *n)
{
    if (!n)
        return;
    switch (n->k) {
    case E_MAP: {
        scan_map_use(g, n);
        struct mapinfo *m = map_find(g, n->s);
        m->read = 1;
        return;
    }
    case E_CALL:
        for (const struct node *a = n->a; a; a = a->next)
            if (a->k == E_MAP && (!strcmp(n->s, "print") || !strcmp(n->s, "clear") ||
                                  !strcmp(n->s, "zero"))) {
                continue; /* (checked with the host's blocks) */
            } else if (a->k == E_MAP && !strcmp(n->s, "delete")) {
                scan_map_use(g, a);
            } else {
                scan_expr(g, a);
            }
        return;
    case E_BIN: case E_TERN: case E_UN:
        scan_expr(g, n->a);
        scan_expr(g, n->b);
        scan_expr(g, n->c);
        return;
    default: return;
    }
}

static void scan_assign(struct gen *g, const struct node *s)
{
    const struct node *mn = s->a, *v = s->b;
    struct mapinfo *m = map_get(g, mn, mn->s);
    if (s->op == '=' && v->k == E_CALL && is_agg_fn(v->s)) {
        static const struct { const char *f; enum prb_lang_agg a; unsigned lo, hi; } t[] = {
            {"count", PRB_A_COUNT, 0, 0}, {"sum", PRB_A_SUM, 1, 1}, {"min", PRB_A_MIN, 1, 1},
            {"max", PRB_A_MAX, 1, 1}, {"avg", PRB_A_AVG, 1, 1}, {"stats", PRB_A_STATS, 1, 1},
            {"hist", PRB_A_HIST, 1, 1}, {"lhist", PRB_A_LHIST, 4, 4},
        };
        size_t i = 0;
        while (strcmp(t[i].f, v->s))
            i++;
        nargs_check(g, v, t[i].lo, t[i].hi);
        if (t[i].a == PRB_A_LHIST) {
            int64_t lo = const_arg(g, v, 1, "minimum", INT32_MIN, INT32_MAX);
            int64_t hi = const_arg(g, v, 2, "maximum", INT32_MIN, INT32_MAX);
            int64_t st = const_arg(g, v, 3, "step", 1, INT32_MAX);
            if (hi <= lo)
                gfail(g, arg_n(v, 2), "lhist(): the maximum %lld is not above the minimum %lld",
                      (long long)hi, (long long)lo);
            int64_t nb = (hi - lo + st - 1) / st;
            if (nb > PRB_MAX_LBUCKETS)
                gfail(g, arg_n(v, 3), "lhist(): %lld buckets; at most %d", (long long)nb,
                      PRB_MAX_LBUCKETS);
            if (m->defined && m->agg == PRB_A_LHIST &&
                (m->lmin != lo || m->lmax != hi || m->lstep != st))
                gfail(g, v, "%s is an lhist() with other bounds at line %u", m->name, m->line);
            m->lmin = (int32_t)lo;
            m->lmax = (int32_t)hi;
            m->lstep = (int32_t)st;
        }
        map_define(g, m, t[i].a, s);
        if (v->a) {
            struct vty vt = type_of(g, v->a);
            if (v->a->k == E_STR)
                gfail(g, v->a, "%s() of a string", v->s);
            if (!m->vt_set) {
                m->vt = vt;
                m->vt_set = 1;
                lang_node_text(g->c, v->a, m->what, sizeof m->what);
            } else if (m->vt.u != vt.u) {
                m->vt.u = PRB_U_NONE;
            }
            scan_expr(g, v->a);
        } else if (!m->what[0]) {
            snprintf(m->what, sizeof m->what, "count");
        }
    } else {
        if (v && v->k == E_CALL && is_stmt_fn(v->s))
            gfail(g, v, "%s() is a statement, not a value", v->s);
        map_define(g, m, PRB_A_VAR, s);
        if (v) {
            if (v->k == E_STR)
                gfail(g, v, "a map holds numbers, not strings");
            struct vty vt = s->op == '=' ? type_of(g, v) : ty_unknown(PRB_T_INT, 0);
            if (s->op != '=')
                vt.u = type_of(g, v).u;
            m->vt = m->vt_set ? ty_join(m->vt, vt) : vt;
            if (!m->what[0])
                lang_node_text(g->c, v, m->what, sizeof m->what);
            scan_expr(g, v);
        } else {
            m->vt = m->vt_set ? ty_join(m->vt, ty_unknown(PRB_T_INT, 0)) : ty_unknown(PRB_T_INT, 0);
        }
        if (s->op != '=')
            m->vt.known = 0;
        m->vt_set = 1;
    }
    map_keys(g, m, mn);
    for (const struct node *k = mn->a; k; k = k->next)
        scan_expr(g, k);
}

static void scan_stmts(struct gen *g, const struct node *s)
{
    for (; s; s = s->next) {
        switch (s->k) {
        case S_EXPR: scan_expr(g, s->a); break;
        case S_SVAR:
            scan_expr(g, s->b);
            svar_typed(g, s);
            break;
        case S_MAP: scan_assign(g, s); break;
        case S_IF:
            scan_expr(g, s->a);
            scan_stmts(g, s->b);
            if (s->c && s->c->k == S_IF)
                scan_stmts(g, s->c);
            else
                scan_stmts(g, s->c);
            break;
        case S_UNROLL: scan_stmts(g, s->b); break;
        default: break;
        }
    }
}

/* Builtins a tree uses (bit per enum bi). */
static uint64_t uses(const struct node *n)
{
    uint64_t u = 0;
    for (; n; n = n->next) {
        if (n->k == E_IDENT) {
            int id = builtin(n->s);
            if (id >= 0)
                u |= 1ull << id;
        }
        u |= uses(n->a) | uses(n->b) | uses(n->c);
        if (n->k == E_CALL || n->k == E_MAP) {
            /* (arguments and keys are lists in a) */
        }
    }
    return u;
}

/* ---- attach points ---- */

struct spec {
    enum rctx rc;
    int kind;             /* PRB_K_* of the main probe */
    uint32_t addr, mask;
    uint32_t prog;        /* uprobe: the program */
    int has_prog;
    uint32_t func;        /* kprobe/uprobe: the function's symbol value */
    int jsb;
    int evclass;
    int host;             /* BEGIN END interval */
    enum prb_lang_block hk;
    uint64_t period_us;
    uint8_t modes;
};

static const struct { const char *name; uint32_t vec; } exc_names[] = {
    {"machchk", 0x04}, {"kspnv", 0x08}, {"powerfail", 0x0C}, {"privinstr", 0x10}, {"xfc", 0x14},
    {"resop", 0x18}, {"resaddr", 0x1C}, {"acv", 0x20}, {"tnv", 0x24}, {"trace", 0x28},
    {"bpt", 0x2C}, {"compat", 0x30}, {"arith", 0x34},
};

static int parse_num(const char *s, uint64_t *v)
{
    if (!isdigit((unsigned char)*s))
        return -1;
    char *e;
    unsigned long long x = strtoull(s, &e, 0);
    if (*e || x > 0xFFFFFFFFull)
        return -1;
    *v = x;
    return 0;
}

/* Splits "a:b:c" into at most 4 fields (in place, in buf). */
static unsigned fields(char *buf, char *f[4])
{
    unsigned n = 0;
    f[n++] = buf;
    for (char *p = buf; *p && n < 4; p++)
        if (*p == ':') {
            *p = 0;
            f[n++] = p + 1;
        }
    return n;
}

/* FUNC[+OFF] */
static void func_off(struct gen *g, const struct attach *a, char *fn, int *has_off, uint64_t *off)
{
    char *plus = strchr(fn, '+');
    *has_off = 0;
    *off = 0;
    if (plus) {
        *plus = 0;
        if (parse_num(plus + 1, off))
            lang_fail(g->c, a->line, a->col, "'%s' is not an offset (FUNC+OFFSET)", plus + 1);
        *has_off = 1;
    }
    if (!*fn)
        lang_fail(g->c, a->line, a->col, "a function's name expected in %s", a->text);
    if (strchr(fn, '*') || strchr(fn, '?') || strchr(fn, '['))
        lang_fail(g->c, a->line, a->col, "wildcards are not supported in %s: name each function "
                                         "(the probe unit has %d probes)", a->text, PRB_MAX_PROBES);
}

/* FUNC[+OFF] of the kernel (path NULL) or of the program path: the
 * probe's address, after the checks. */
static void func_spec(struct gen *g, const struct attach *a, struct spec *sp, int ret,
                      const char *path, char *fn)
{
    const struct prb_lang_resolver *r = g->o->resolve;
    int has_off;
    uint64_t off;
    char e[160] = "";
    func_off(g, a, fn, &has_off, &off);
    uint32_t val, entry = 2;
    if (path ? r->usym(r->ctx, path, fn, &val, &entry, e, sizeof e)
             : r->ksym(r->ctx, fn, &val, &entry, e, sizeof e))
        lang_fail(g->c, a->line, a->col, "%s", e[0] ? e : "no such symbol");
    if (ret && has_off)
        lang_fail(g->c, a->line, a->col, "%s takes a function, not an offset",
                  path ? "uretprobe" : "kretprobe");
    if (ret && entry != 2)
        lang_fail(g->c, a->line, a->col, "%s is not a CALLS procedure (a JSB routine or a "
                  "label): its return has no frame the probe unit can match", fn);
    if (has_off && off < entry)
        lang_fail(g->c, a->line, a->col, "%s+%llu is inside %s's entry mask, never executed "
                  "(without +OFF the probe is at its first instruction, +%u)", fn,
                  (unsigned long long)off, fn, entry);
    sp->rc = path ? (ret ? R_URET : R_UPROBE) : (ret ? R_KRET : R_KPROBE);
    sp->kind = PRB_K_PC;
    sp->func = val;
    sp->jsb = entry == 0;
    sp->addr = val + (uint32_t)(has_off ? off : entry);
    sp->modes = path ? 8 : 1; /* user, kernel mode */
}

static void parse_spec(struct gen *g, const struct attach *a, struct spec *sp)
{
    char buf[256];
    memset(sp, 0, sizeof *sp);
    if (strlen(a->text) >= sizeof buf)
        lang_fail(g->c, a->line, a->col, "a probe of more than %zu characters", sizeof buf - 1);
    strcpy(buf, a->text);
    char *f[4];
    unsigned nf = fields(buf, f);
    const struct prb_lang_resolver *r = g->o->resolve;
    char e[160] = "";
    uint64_t v;
    if (!strcmp(f[0], "BEGIN") || !strcmp(f[0], "END")) {
        if (nf != 1)
            lang_fail(g->c, a->line, a->col, "%s takes nothing after it", f[0]);
        sp->host = 1;
        sp->rc = R_HOST;
        sp->hk = f[0][0] == 'B' ? PRB_B_BEGIN : PRB_B_END;
        return;
    }
    if (!strcmp(f[0], "interval") || !strcmp(f[0], "profile")) {
        static const struct { const char *u; uint64_t ns; } units[] = {
            {"s", 1000000000ull}, {"ms", 1000000ull}, {"us", 1000ull}, {"hz", 0},
        };
        if (nf != 3)
            lang_fail(g->c, a->line, a->col, "%s:UNIT:N expected (units s, ms, us%s)", f[0],
                      f[0][0] == 'p' ? ", hz" : "");
        size_t u;
        for (u = 0; u < 4 && strcmp(units[u].u, f[1]); u++)
            ;
        if (u == 4 || (u == 3 && f[0][0] == 'i'))
            lang_fail(g->c, a->line, a->col, "'%s' is not a unit of %s (s, ms, us%s)", f[1], f[0],
                      f[0][0] == 'p' ? ", hz" : "");
        if (parse_num(f[2], &v) || v == 0)
            lang_fail(g->c, a->line, a->col, "'%s' is not a positive count", f[2]);
        uint64_t ns = u == 3 ? 1000000000ull / v : units[u].ns * v;
        if (f[0][0] == 'i') {
            sp->host = 1;
            sp->rc = R_HOST;
            sp->hk = PRB_B_INTERVAL;
            sp->period_us = ns / 1000 ? ns / 1000 : 1;
            return;
        }
        uint64_t cyc = u == 3 ? CYCLES_PER_SEC / v : ns / 80;
        if (cyc < PRB_MIN_PERIOD || cyc > 0xFFFFFFFFull)
            lang_fail(g->c, a->line, a->col, "%s: a sampling period of %llu microcycles; the "
                      "machine samples every 1,000 (12,500 hz) to 2^32 microcycles", a->text,
                      (unsigned long long)cyc);
        sp->rc = R_SAMPLE;
        sp->kind = PRB_K_SAMPLE;
        sp->addr = (uint32_t)cyc;
        return;
    }
    if (!strcmp(f[0], "kprobe") || !strcmp(f[0], "kretprobe")) {
        if (nf != 2)
            lang_fail(g->c, a->line, a->col, "%s:FUNC expected", f[0]);
        if (!r || !r->ksym)
            lang_fail(g->c, a->line, a->col,
                      "kernel symbols need the guest's kernel (--kernel FILE or --disk FILE)");
        func_spec(g, a, sp, f[0][1] == 'r', NULL, f[1]);
        return;
    }
    if (!strcmp(f[0], "uprobe") || !strcmp(f[0], "uretprobe")) {
        if (nf != 3 || !f[1][0])
            lang_fail(g->c, a->line, a->col, "%s:PATH:FUNC expected", f[0]);
        if (!r || !r->usym || !r->prog)
            lang_fail(g->c, a->line, a->col, "uprobes need the guest's disk (--disk FILE)");
        if (r->prog(r->ctx, f[1], &sp->prog, e, sizeof e))
            lang_fail(g->c, a->line, a->col, "%s", e[0] ? e : "no such program");
        sp->has_prog = 1;
        func_spec(g, a, sp, f[0][1] == 'r', f[1], f[2]);
        return;
    }
    if (!strcmp(f[0], "spam")) {
        sp->rc = R_EVENT;
        sp->kind = PRB_K_EVENT;
        if (nf == 2 && (!strcmp(f[1], "ldpctx") || !strcmp(f[1], "rei"))) {
            sp->evclass = f[1][0] == 'l' ? 4 : 5;
            sp->addr = (uint32_t)sp->evclass << 12;
            sp->mask = 0xF000;
            return;
        }
        if (nf != 3)
            lang_fail(g->c, a->line, a->col, "spam:interrupt:V, spam:exception:V, "
                      "spam:syscall:N, spam:ldpctx or spam:rei expected");
        int cls = !strcmp(f[1], "interrupt") ? 1 : !strcmp(f[1], "exception") ? 2
                  : !strcmp(f[1], "syscall") ? 3 : 0;
        if (!cls)
            lang_fail(g->c, a->line, a->col, "'%s' is not a spam event (interrupt, exception, "
                      "syscall, ldpctx, rei)", f[1]);
        sp->evclass = cls;
        if (!strcmp(f[2], "*")) {
            sp->addr = (uint32_t)cls << 12;
            sp->mask = cls == 3 ? 0xFC00 : 0xF000; /* syscall: CHMK only */
            return;
        }
        uint32_t code;
        if (!parse_num(f[2], &v)) {
            code = (uint32_t)v;
        } else if (cls == 3) {
            if (!r || !r->syscall)
                lang_fail(g->c, a->line, a->col, "system call names need the guest's kernel "
                          "(--kernel or --disk); or give the number");
            if (r->syscall(r->ctx, f[2], &code, e, sizeof e))
                lang_fail(g->c, a->line, a->col, "%s", e[0] ? e : "no such system call");
        } else {
            size_t i;
            for (i = 0; cls == 2 && i < sizeof exc_names / sizeof exc_names[0]; i++)
                if (!strcmp(exc_names[i].name, f[2]))
                    break;
            if (cls == 2 && i < sizeof exc_names / sizeof exc_names[0]) {
                code = exc_names[i].vec;
            } else {
                if (!r || !r->vector)
                    lang_fail(g->c, a->line, a->col, "vector names need the guest's kernel "
                              "(--kernel or --disk); or give the SCB offset");
                if (r->vector(r->ctx, f[2], &code, e, sizeof e))
                    lang_fail(g->c, a->line, a->col, "%s", e[0] ? e : "no such vector");
            }
        }
        if (cls == 3 ? code > 1023 : (code > 0xFFC || (code & 3)))
            lang_fail(g->c, a->line, a->col, cls == 3 ? "system call %u: 0 to 1023"
                                                      : "vector 0x%x: a multiple of 4 up to 0xFFC",
                      code);
        sp->addr = (uint32_t)cls << 12 | code;
        sp->mask = 0xFFFF;
        return;
    }
    lang_fail(g->c, a->line, a->col, "'%s' is not a probe (kprobe, kretprobe, uprobe, uretprobe, "
              "spam, profile, interval, BEGIN, END)", f[0]);
}

/* ---- hardware filters from the predicate ---- */

struct filt {
    int pid_set, prog_set, uid_set, ipl_set;
    uint32_t pid, prog, uid;
    uint8_t modes;      /* 0: any */
    uint8_t ipl_lo, ipl_hi;
    int entry_only;     /* a kretprobe: uid and ipl may change before the return */
};

/* Takes what the hardware can check out of pred's top-level &&s; returns
 * what is left (NULL: nothing). */
static const struct node *filters(struct gen *g, const struct node *n, struct filt *f)
{
    if (!n)
        return NULL;
    if (n->k == E_BIN && n->op == OP_AND) {
        const struct node *a = filters(g, n->a, f), *b = filters(g, n->b, f);
        if (a == n->a && b == n->b)
            return n;
        if (!a)
            return b;
        if (!b)
            return a;
        struct node *m = lang_new(g->c, sizeof *m);
        *m = *n;
        m->a = (struct node *)a;
        m->b = (struct node *)b;
        return m;
    }
    if (n->k != E_BIN || (n->op != OP_EQ && n->op != OP_NE && n->op != OP_LE &&
                          n->op != OP_GE && n->op != '<' && n->op != '>'))
        return n;
    const struct node *x = n->a, *y = n->b;
    int64_t c;
    if (x->k == E_STR || (x->k != E_IDENT && const_eval(g, x, &c))) {
        const struct node *t = x;
        x = y;
        y = t;
    }
    int swapped = x != n->a;
    if (x->k != E_IDENT)
        return n;
    int id = builtin(x->s);
    if (id == B_IPL && n->op != OP_NE && !f->entry_only && const_eval(g, y, &c)) {
        /* ipl OP C narrows the range of PSL<20:16> (C OP ipl is read the
         * other way round) */
        int op = n->op;
        if (swapped)
            op = op == '<' ? '>' : op == '>' ? '<' : op == OP_LE ? OP_GE : op == OP_GE ? OP_LE : op;
        int64_t lo = f->ipl_set ? f->ipl_lo : 0, hi = f->ipl_set ? f->ipl_hi : 31;
        int64_t from = op == '>' ? c + 1 : op == OP_GE || op == OP_EQ ? c : 0;
        int64_t to = op == '<' ? c - 1 : op == OP_LE || op == OP_EQ ? c : 31;
        lo = from > lo ? from : lo;
        hi = to < hi ? to : hi;
        if (lo > hi)
            gfail(g, n, "the predicate's IPL range is empty");
        f->ipl_set = 1;
        f->ipl_lo = (uint8_t)lo;
        f->ipl_hi = (uint8_t)hi;
        return NULL;
    }
    if (n->op != OP_EQ && n->op != OP_NE)
        return n;
    if (id == B_UID && n->op == OP_EQ && !f->entry_only && !f->uid_set && const_eval(g, y, &c) &&
        c >= 0 && c <= 0xFFFF) {
        f->uid_set = 1;
        f->uid = (uint32_t)c;
        return NULL;
    }
    if (id == B_PID && n->op == OP_EQ && !f->pid_set && const_eval(g, y, &c)) {
        f->pid_set = 1;
        f->pid = (uint32_t)c;
        return NULL;
    }
    if (id == B_COMM && n->op == OP_EQ && !f->prog_set && y->k == E_STR) {
        f->prog_set = 1;
        f->prog = comm_value(g, y);
        return NULL;
    }
    if (id == B_MODE && const_eval(g, y, &c) && c >= 0 && c <= 3) {
        uint8_t m = n->op == OP_EQ ? (uint8_t)(1u << c) : (uint8_t)(0xF & ~(1u << c));
        f->modes = f->modes ? f->modes & m : m;
        if (!f->modes)
            gfail(g, n, "the predicate's modes exclude every mode");
        return NULL;
    }
    return n;
}

/* ---- one routine ---- */

static void routine_start(struct gen *g, enum rctx rc, int sprobe)
{
    g->rc = rc;
    g->sprobe = sprobe;
    g->n = 0;
    g->nlabel = 0;
    g->busy = 0;
    g->nsvar = 0;
    g->defined = 0;
    g->in_loop = 0;
    g->nsvt = 0;
}

/* Ends the routine (an exit, the labels resolved, variables that some
 * path reads unassigned set to 0 first) into the program as probe pi. */
static void routine_end(struct gen *g, int pi, const struct node *at_)
{
    emit(g, at_, PRB_EXIT, 0, 0, 0, 0);
    unsigned ninit = 0;
    for (unsigned i = 0; i < g->nsvar; i++)
        ninit += g->svar[i].needs_init;
    struct prb_program *p = g->p;
    if (p->ncode + g->n + ninit > PRB_MAX_CODE)
        gfail(g, at_, "the program is longer than %d instructions", PRB_MAX_CODE);
    unsigned base = p->ncode;
    p->probe[pi].code = (uint16_t)base;
    for (unsigned i = 0; i < g->nsvar; i++)
        if (g->svar[i].needs_init) {
            p->code[p->ncode] = (struct prb_insn){.op = PRB_LDI, .a = g->svar[i].reg};
            p->line[p->ncode] = at_->line;
            g->out->col[p->ncode] = at_->col;
            p->ncode++;
        }
    for (unsigned i = 0; i < g->n; i++) {
        struct prb_insn in = g->code[i];
        if (g->lab[i] >= 0) {
            int t = g->label[g->lab[i]].pos;
            if (t <= (int)i)
                gfail(g, NULL, "internal: a branch backwards");
            in.skip = (uint32_t)(t - (int)i - 1);
        }
        if (g->armref[i])
            g->armfix[g->narmfix++] = (struct armfix){.insn = p->ncode, .sprobe = in.imm,
                                                      .on = in.op == PRB_ARM,
                                                      .line = g->line[i], .col = g->col[i]};
        p->code[p->ncode] = in;
        p->line[p->ncode] = g->line[i];
        g->out->col[p->ncode] = g->col[i];
        p->ncode++;
    }
    p->probe[pi].len = (uint16_t)(p->ncode - base);
}

static int new_probe(struct gen *g, const struct attach *a, const char *suffix)
{
    struct prb_program *p = g->p;
    if (p->nprobes == PRB_MAX_PROBES)
        lang_fail(g->c, a->line, a->col, "more than %d machine probes (a kretprobe takes two)",
                  PRB_MAX_PROBES);
    int i = (int)p->nprobes++;
    memset(&p->probe[i], 0, sizeof p->probe[i]);
    snprintf(p->probe_name[i], PRB_NAME, "%.*s%s", (int)(PRB_NAME - 1 - strlen(suffix)),
             a->text, suffix);
    p->probe_line[i] = a->line;
    g->out->probe_col[i] = a->col;
    p->probe[i].budget = g->o->budget;
    return i;
}

static void apply_filters(struct gen *g, int pi, const struct filt *f, const struct spec *sp)
{
    struct prb_probe_desc *d = &g->p->probe[pi];
    if (f->pid_set) {
        d->flags |= PRB_PF_PID;
        d->pid = f->pid;
    }
    if (f->uid_set) {
        d->flags |= PRB_PF_UID;
        d->uid = (uint16_t)f->uid;
    }
    if (f->ipl_set) {
        d->flags |= PRB_PF_IPL;
        d->ipl_lo = f->ipl_lo;
        d->ipl_hi = f->ipl_hi;
    }
    if (sp->has_prog && f->prog_set && f->prog != sp->prog)
        gfail(g, NULL, "the predicate's comm is not the uprobe's program");
    if (sp->has_prog || f->prog_set) {
        d->flags |= PRB_PF_PROG;
        d->prog = sp->has_prog ? sp->prog : f->prog;
    }
    uint8_t m = sp->modes;
    if (f->modes)
        m = m ? m & f->modes : f->modes;
    if ((sp->modes || f->modes) && !m)
        lang_fail(g->c, g->cur_line, g->cur_col, "the predicate's mode can never hold at %s",
                  g->out->sprobe[g->sprobe].text);
    d->modes = m == 0xF ? 0 : m;
}

/* The body of a block with its predicate (the part left after filters). */
static void body(struct gen *g, const struct node *pred, const struct node *stmts, int exit_l)
{
    if (pred)
        jump_if(g, pred, 0, exit_l);
    gen_block(g, stmts);
}

/* $variables: a register each for the whole routine, from the top (the
 * temporaries take them from the bottom). */
static void collect_svars(struct gen *g, const struct node *s)
{
    for (; s; s = s->next) {
        if (s->k == S_SVAR && svar_find(g, s->a->s) < 0) {
            int r;
            for (r = 15; r >= 0 && (g->busy & (1u << r)); r--)
                ;
            if (r < 0 || g->nsvar == 16)
                gfail(g, s->a, "no register left for %s (the probe unit has 16)", s->a->s);
            g->busy |= (uint16_t)(1u << r);
            g->svar[g->nsvar++] = (struct svar){.name = s->a->s, .reg = (uint8_t)r};
        }
        if (s->k == S_IF) {
            collect_svars(g, s->b);
            collect_svars(g, s->c);
        }
        if (s->k == S_UNROLL)
            collect_svars(g, s->b);
    }
}

/* ---- the host's blocks: checked here, run by probe_lang_host.c ---- */

static void check_hexpr(struct gen *g, const struct node *n)
{
    switch (n->k) {
    case E_INT: return;
    case E_STR: gfail(g, n, "a string is not a value");
    case E_IDENT: {
        int id = builtin(n->s);
        if (id < 0)
            gfail(g, n, "unknown identifier '%s'", n->s);
        bi_allowed(g, n, id);
        return;
    }
    case E_SVAR:
        for (unsigned i = 0; i < g->nsvar; i++)
            if (!strcmp(g->svar[i].name, n->s) && g->svar[i].assigned)
                return;
        gfail(g, n, "%s is used before it is assigned", n->s);
    case E_MAP:
        readable_map(g, n);
        for (const struct node *k = n->a; k; k = k->next)
            check_hexpr(g, k);
        return;
    case E_CALL:
        if (!strcmp(n->s, "kfunc") || !strcmp(n->s, "ksym") || !strcmp(n->s, "sysname")) {
            nargs_check(g, n, 1, 1);
            check_hexpr(g, n->a);
            return;
        }
        if (!strcmp(n->s, "kaddr")) {
            int64_t v;
            nargs_check(g, n, 1, 1);
            if (n->a->k != E_STR)
                gfail(g, n->a, "kaddr() needs a kernel symbol's name in quotes");
            const_eval(g, n, &v);
            ((struct node *)n)->ival = v; /* for the host */
            return;
        }
        if (is_agg_fn(n->s))
            gfail(g, n, "%s() is an aggregation: assign it to a map in a machine probe", n->s);
        gfail(g, n, "%s() is not known in %s", n->s, rctx_name(R_HOST));
    case E_BIN:
        if ((n->op == '/' || n->op == '%')) {
            int64_t c;
            if (const_eval(g, n->b, &c) && c == 0)
                gfail(g, n->b, "division by zero");
        }
        check_hexpr(g, n->a);
        check_hexpr(g, n->b);
        return;
    case E_UN: check_hexpr(g, n->a); return;
    case E_TERN:
        check_hexpr(g, n->a);
        check_hexpr(g, n->b);
        check_hexpr(g, n->c);
        return;
    default: gfail(g, n, "not an expression");
    }
}

static void check_host(struct gen *g, const struct node *s)
{
    for (; s; s = s->next) {
        g->cur_line = s->line;
        g->cur_col = s->col;
        switch (s->k) {
        case S_EXPR: {
            struct node *c = s->a;
            const char *f = c->s;
            if (!strcmp(f, "printf")) {
                if (!c->a || c->a->k != E_STR)
                    gfail(g, c, "printf's first argument is its format, a string");
                unsigned conv = fmt_convs(g, c->a, c->a->s);
                if (conv != c->n - 1)
                    gfail(g, c, "printf's format has %u conversion%s and %u value%s follow", conv,
                          conv == 1 ? "" : "s", c->n - 1, c->n == 2 ? "" : "s");
                if (c->n - 1 > PRB_LANG_MAX_ARGS)
                    gfail(g, c, "printf() with %u values: at most %d", c->n - 1, PRB_LANG_MAX_ARGS);
                if (g->out->nfmt == 256)
                    gfail(g, c, "more than 256 printf() and record() calls");
                struct prb_lang_fmt *fm = &g->out->fmt[g->out->nfmt];
                c->ival = g->out->nfmt++;
                fm->fmt = strdup(c->a->s);
                if (!fm->fmt)
                    gfail(g, c, "out of memory");
                fm->nargs = c->n - 1;
                fm->probe = g->sprobe;
                unsigned i = 0;
                for (const struct node *x = c->a->next; x; x = x->next, i++) {
                    check_hexpr(g, x);
                    fm->type[i] = type_of(g, x).t;
                }
            } else if (!strcmp(f, "print") || !strcmp(f, "clear") || !strcmp(f, "zero")) {
                nargs_check(g, c, 1, f[0] == 'p' ? 3 : 1);
                if (c->a->k != E_MAP || c->a->n)
                    gfail(g, c->a, "%s() takes a whole map: %s(@name)", f, f);
                struct mapinfo *m = map_find(g, c->a->s);
                if (!m || !m->defined)
                    gfail(g, c->a, "no map %s", c->a->s);
                c->ival = map_index(g, m);
                if (c->n > 1)
                    c->a->next->ival = const_arg(g, c, 1, "count of entries", 0, 65536);
                if (c->n > 2)
                    c->a->next->next->ival = const_arg(g, c, 2, "divisor", 1, INT32_MAX);
            } else if (!strcmp(f, "exit")) {
                nargs_check(g, c, 0, 0);
            } else if (is_agg_fn(f)) {
                gfail(g, c, "%s() is an aggregation: assign it to a map in a machine probe", f);
            } else {
                gfail(g, c, "%s() does not run in %s (printf, print, clear, zero, exit)", f,
                      rctx_name(R_HOST));
            }
            break;
        }
        case S_SVAR: {
            int i = svar_find(g, s->a->s);
            if (s->op != '=' && (i < 0 || !g->svar[i].assigned))
                gfail(g, s->a, "%s is used before it is assigned", s->a->s);
            if (s->b)
                check_hexpr(g, s->b);
            if (i < 0) {
                if (g->nsvar == 16)
                    gfail(g, s->a, "more than 16 $variables in one probe");
                i = (int)g->nsvar++;
                g->svar[i] = (struct svar){.name = s->a->s};
            }
            g->svar[i].assigned = 1;
            break;
        }
        case S_IF:
            check_hexpr(g, s->a);
            check_host(g, s->b);
            check_host(g, s->c);
            break;
        case S_MAP:
            gfail(g, s, "maps are updated by the machine's probes, not in %s", rctx_name(R_HOST));
        case S_UNROLL:
            check_host(g, s->b);
            break;
        default: gfail(g, s, "not a statement");
        }
    }
}

static void gen_attach(struct gen *g, const struct pblock *b, const struct attach *a, int sp_i)
{
    struct spec sp;
    parse_spec(g, a, &sp);
    g->cur_line = a->line;
    g->cur_col = a->col;
    struct prb_lang_probe *q = &g->out->sprobe[sp_i];
    struct node here = {.line = a->line, .col = a->col};
    const struct node *at_ = &here;
    routine_start(g, sp.rc, sp_i);
    if (sp.host) {
        if (b->pred)
            lang_fail(g->c, b->pred->line, b->pred->col, "%s takes no predicate", a->text);
        if (g->pass == 1) {
            scan_stmts(g, b->body);
            return;
        }
        if (g->out->nblock == PRB_LANG_MAX_BLOCKS)
            lang_fail(g->c, a->line, a->col, "more than %d BEGIN, END and interval probes",
                      PRB_LANG_MAX_BLOCKS);
        struct prb_lang_hblock *h = &g->out->block[g->out->nblock++];
        h->kind = sp.hk;
        h->period_us = sp.period_us;
        h->body = (struct prb_lang_hnode *)b->body;
        h->line = a->line;
        h->col = a->col;
        check_host(g, b->body);
        return;
    }
    g->func_addr = sp.func;
    g->func_jsb = sp.jsb;
    g->evclass = sp.evclass;
    g->cookie_arg = -1;
    if (g->pass == 1) {
        scan_expr(g, b->pred);
        scan_stmts(g, b->body);
        return;
    }
    int is_ret = sp.rc == R_KRET || sp.rc == R_URET;
    struct filt f = {.entry_only = is_ret};
    const struct node *pred = filters(g, b->pred, &f);
    uint64_t used = uses(pred) | uses(b->body);
    int pi = new_probe(g, a, is_ret ? "/entry" : "");
    struct prb_probe_desc *d = &g->p->probe[pi];
    d->kind = (uint8_t)sp.kind;
    d->addr = sp.addr;
    d->mask = sp.mask;
    apply_filters(g, pi, &f, &sp);
    q->entry = pi;
    if (!is_ret) {
        collect_svars(g, b->body);
        int ex = new_label(g);
        body(g, pred, b->body, ex);
        place(g, ex);
        routine_end(g, pi, at_);
        return;
    }
    /* kretprobe: the entry watches the frame; the rest runs at the return */
    uint64_t ret_only = 1ull << B_RETVAL | 1ull << B_DUR | 1ull << B_DURX | 1ull << B_SELF |
                        1ull << B_DURC | 1ull << B_DURXC | 1ull << B_SELFC;
    uint64_t args = 0;
    for (int k = 0; k < 6; k++)
        if (used & (1ull << (B_ARG0 + k)))
            args |= 1ull << k;
    int self = (used & (1ull << B_SELF | 1ull << B_SELFC)) != 0;
    if (__builtin_popcountll(args) > 1 || (args && self))
        lang_fail(g->c, a->line, a->col, "a kretprobe sees at most one argument of the entry "
                  "(carried to the return as the frame's cookie)%s",
                  self ? ", and none with duration_self (which uses the cookie)" : "");
    int pred_at_entry = pred && !(uses(pred) & ret_only);
    int rp = new_probe(g, a, "/ret");
    g->p->probe[rp].kind = PRB_K_RET;
    q->ret = rp;
    /* the entry */
    int ex = new_label(g);
    if (pred_at_entry)
        jump_if(g, pred, 0, ex);
    uint8_t ck = reg_get(g, at_);
    if (self) {
        uint8_t pid = reg_get(g, at_);
        emit(g, at_, PRB_CTX, pid, 0, 0, PRB_C_PID);
        emit(g, at_, PRB_LDM, ck, pid, 0, (uint32_t)g->self_map);
        reg_put(g, pid);
    } else if (args) {
        int k = __builtin_ctzll(args);
        uint8_t apr = reg_get(g, at_);
        emit(g, at_, PRB_CTX, apr, 0, 0, PRB_C_R0 + 12);
        emit(g, at_, PRB_LDV, ck, apr, 4, 4 + 4 * (uint32_t)k);
        reg_put(g, apr);
    } else {
        emit(g, at_, PRB_LDI, ck, 0, 0, 0);
    }
    emit(g, at_, PRB_WATCH, ck, 0, 0, (uint32_t)rp);
    place(g, ex);
    routine_end(g, pi, at_);
    /* the return */
    routine_start(g, sp.rc, sp_i);
    g->func_addr = sp.func;
    g->func_jsb = 0;
    g->cookie_arg = args ? __builtin_ctzll(args) : -1;
    if (self) {
        g->self_reg = 15;
        g->busy |= 1u << 15;
    }
    collect_svars(g, b->body);
    if (self) {
        /* self = dur - (S[pid] - cookie); S[pid] += self */
        uint8_t pid = reg_get(g, at_), s = reg_get(g, at_), t = reg_get(g, at_);
        emit(g, at_, PRB_CTX, pid, 0, 0, PRB_C_PID);
        emit(g, at_, PRB_LDM, s, pid, 0, (uint32_t)g->self_map);
        emit(g, at_, PRB_CTX, t, 0, 0, PRB_C_COOKIE);
        emit(g, at_, PRB_SUB, t, s, 0, 0);             /* cookie - S = -(nested) */
        emit(g, at_, PRB_CTX, 15, 0, 0, PRB_C_DUR);
        emit(g, at_, PRB_ADD, 15, t, 0, 0);            /* self */
        emit(g, at_, PRB_ADD, s, 15, 0, 0);
        emit(g, at_, PRB_STM, s, pid, 0, (uint32_t)g->self_map);
        reg_put(g, pid);
        reg_put(g, s);
        reg_put(g, t);
    }
    int ex2 = new_label(g);
    body(g, pred_at_entry ? NULL : pred, b->body, ex2);
    place(g, ex2);
    routine_end(g, rp, at_);
}

/* ---- maps' layout ---- */

static uint32_t ksize_shift(struct gen *g, uint32_t size, uint32_t slot, uint32_t cap)
{
    (void)g;
    uint32_t s = 0;
    while ((((uint64_t)size - 1) >> s) + 1 > PRB_MAX_KEYS ||
           ((((uint64_t)size - 1) >> s) + 2) * slot > cap)
        s++;
    return s;
}

static void layout_maps(struct gen *g)
{
    struct prb_lang *out = g->out;
    struct prb_program *p = g->p;
    uint32_t dk = g->o->default_keys ? g->o->default_keys : 1024;
    for (unsigned i = 0; i < g->nmap; i++) {
        struct mapinfo *m = &g->map[i];
        struct prb_lang_map *lm = &out->map[i];
        struct prb_map_desc *d = &p->map[i];
        if (!m->defined)
            lang_fail(g->c, m->uline, m->ucol, "%s is used but never assigned", m->name);
        memset(lm, 0, sizeof *lm);
        snprintf(lm->name, sizeof lm->name, "%s", m->name);
        lm->agg = m->agg;
        lm->nkey = m->nkey;
        lm->vtype = m->vt_set ? m->vt.t : PRB_T_UINT;
        if (m->agg == PRB_A_COUNT)
            lm->vtype = PRB_T_UINT;
        lm->unit = m->vt_set ? m->vt.u : PRB_U_NONE;
        snprintf(lm->what, sizeof lm->what, "%s", m->what);
        snprintf(lm->where, sizeof lm->where, "%s", m->where);
        lm->lmin = m->lmin;
        lm->lmax = m->lmax;
        lm->lstep = m->lstep;
        lm->hidden = m->name[1] == '$';
        static const uint8_t kinds[] = {
            [PRB_A_COUNT] = PRB_M_COUNT, [PRB_A_SUM] = PRB_M_SUM, [PRB_A_MIN] = PRB_M_MIN,
            [PRB_A_MAX] = PRB_M_MAX, [PRB_A_AVG] = PRB_M_STATS, [PRB_A_STATS] = PRB_M_STATS,
            [PRB_A_HIST] = PRB_M_HIST, [PRB_A_LHIST] = PRB_M_LHIST, [PRB_A_VAR] = PRB_M_SUM,
        };
        memset(d, 0, sizeof *d);
        d->kind = kinds[m->agg];
        if (m->agg == PRB_A_LHIST) {
            d->lmin = m->lmin;
            d->lstep = (uint32_t)m->lstep;
            d->lbuckets = (uint32_t)(((int64_t)m->lmax - m->lmin + m->lstep - 1) / m->lstep);
        }
        snprintf(p->map_name[i], PRB_NAME, "%s", m->name[1] ? m->name + 1 : "_");
        uint32_t slot = prb_map_slot_bytes(d);
        uint64_t total = 1;
        for (unsigned k = 0; k < m->nkey; k++) {
            struct prb_lang_keypart *kp = &lm->key[k];
            struct vty t = m->kt[k];
            kp->type = t.t;
            if (is_kaddr(t.t)) {
                if (!g->ktext_known)
                    lang_fail(g->c, m->line, m->col, "%s: kernel addresses as keys need the "
                              "kernel's text (--kernel or --disk)", m->name);
                uint32_t size = g->ktext_hi - g->ktext_lo;
                kp->base = g->ktext_lo;
                kp->shift = ksize_shift(g, size ? size : 1, slot, 512u << 10);
                kp->range = ((size - 1) >> kp->shift) + 1;
            } else if (t.t == PRB_T_COMM) {
                kp->type = PRB_T_COMMKEY;
                kp->range = g->comm_mod;
            } else if (t.known && t.hi - t.lo + 1 <= PRB_MAX_KEYS) {
                kp->lo = (int32_t)t.lo;
                kp->range = (uint32_t)(t.hi - t.lo + 1);
            } else if (t.known) {
                lang_fail(g->c, m->line, m->col, "%s's key %u takes %lld values: a map has at "
                          "most %d keys (narrow it with %% or &)", m->name, k + 1,
                          (long long)(t.hi - t.lo + 1), PRB_MAX_KEYS);
            } else {
                kp->range = dk;
            }
            total *= kp->range;
        }
        if (total > PRB_MAX_KEYS)
            lang_fail(g->c, m->line, m->col, "%s's key takes %llu combinations: a map has at "
                      "most %d keys (narrow the components with %% or &)", m->name,
                      (unsigned long long)total, PRB_MAX_KEYS);
        d->keys = (uint32_t)total;
    }
    p->nmaps = g->nmap;
}

/* ---- the whole program ---- */

static unsigned count_sprobes(struct lang_ctx *c)
{
    unsigned n = 0;
    for (const struct pblock *b = c->blocks; b; b = b->next)
        for (const struct attach *a = b->ap; a; a = a->next)
            if (++n > PRB_LANG_MAX_SPROBES)
                lang_fail(c, a->line, a->col, "more than %d probes", PRB_LANG_MAX_SPROBES);
    return n;
}

static void walk(struct gen *g)
{
    unsigned i = 0;
    for (const struct pblock *b = g->c->blocks; b; b = b->next)
        for (const struct attach *a = b->ap; a; a = a->next, i++)
            gen_attach(g, b, a, (int)i);
}

static int any_self(const struct lang_ctx *c)
{
    for (const struct pblock *b = c->blocks; b; b = b->next)
        if ((uses(b->pred) | uses(b->body)) & (1ull << B_SELF | 1ull << B_SELFC))
            return 1;
    return 0;
}

void lang_generate(struct lang_ctx *c, const struct prb_lang_opts *o, struct prb_lang *out)
{
    struct gen *g = lang_new(c, sizeof *g);
    g->c = c;
    g->o = o;
    g->out = out;
    g->p = &out->prog;
    g->self_map = -1;
    const struct prb_lang_resolver *r = o->resolve;
    g->comm_mul = r && r->comm_mul ? r->comm_mul : 1;
    g->comm_mod = r && r->comm_mod ? r->comm_mod : 4093;
    out->comm_mul = g->comm_mul;
    out->comm_mod = g->comm_mod;
    if (g->comm_mod > PRB_MAX_KEYS)
        lang_fail(c, 0, 0, "the resolver's comm modulus %u is above %d", g->comm_mod,
                  PRB_MAX_KEYS);
    if (r && r->ktext) {
        char e[160];
        if (r->ktext(r->ctx, &g->ktext_lo, &g->ktext_hi, e, sizeof e) == 0 &&
            g->ktext_hi > g->ktext_lo)
            g->ktext_known = 1;
    }
    unsigned ns = count_sprobes(c);
    g->nsprobe_total = ns;
    out->nsprobe = ns;
    unsigned i = 0;
    for (const struct pblock *b = c->blocks; b; b = b->next)
        for (const struct attach *a = b->ap; a; a = a->next, i++) {
            snprintf(out->sprobe[i].text, sizeof out->sprobe[i].text, "%s", a->text);
            out->sprobe[i].line = a->line;
            out->sprobe[i].col = a->col;
            out->sprobe[i].entry = out->sprobe[i].ret = -1;
        }
    /* pass 1 (twice: a map's value type may come from a later line) */
    if (any_self(c)) {
        struct mapinfo *m = map_get(g, NULL, "@$self");
        m->defined = 1;
        m->agg = PRB_A_VAR;
        m->nkey = 1;
        m->key_seen = 1;
        m->kt[0] = ty_range(ty_unknown(PRB_T_INT, 0), 0, PID_KEYS - 1);
        m->vt = ty_unknown(PRB_T_UINT, 1);
        m->vt.u = PRB_U_CYCLES;
        m->vt_set = 1;
        snprintf(m->what, sizeof m->what, "nested metered time by pid (duration_self)");
        g->self_map = 0;
    }
    for (int k = 0; k < 2; k++) {
        g->pass = 1;
        walk(g);
        /* the keys again, now that every map's values have a type */
        for (unsigned i = 0; k == 0 && i < g->nmap; i++)
            if (g->map[i].name[1] != '$')
                g->map[i].key_seen = 0;
    }
    layout_maps(g);
    g->pass = 2;
    out->nfmt = 0;
    walk(g);
    /* enable("probe"), disable("probe"): the machine probes, known now */
    for (unsigned k = 0; k < g->narmfix; k++) {
        const struct armfix *x = &g->armfix[k];
        const struct prb_lang_probe *q = &out->sprobe[x->sprobe];
        if (q->entry < 0)
            lang_fail(c, x->line, x->col, "%s runs in the host: it cannot be armed or disarmed",
                      q->text);
        g->p->code[x->insn].imm = (uint32_t)q->entry;
        if (x->on)
            g->p->probe[q->entry].flags |= PRB_PF_DISARMED;
    }
    /* the space: code and maps */
    uint64_t bytes = 0;
    for (unsigned k = 0; k < g->p->nmaps; k++)
        bytes += (prb_map_bytes(&g->p->map[k]) + 7) & ~(size_t)7;
    out->bytes = (uint32_t)(bytes > 0xFFFFFFFFu ? 0xFFFFFFFFu : bytes);
    if (!g->p->nprobes && !out->nblock)
        lang_fail(c, 0, 0, "no probe in the program");
}
