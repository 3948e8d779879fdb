/* gen_prog: seeded random VAX programs for differential testing.
 *
 *   gen_prog --seed N [--groups LIST] [--modes LIST] [--items N] [-o FILE]
 *
 * Writes one program in GNU as syntax for vasm.  Assemble it with
 *   vasm --raw --base 0x1000 -o p.bin p.s
 * and load the 36 KiB image at physical 0x1000.  Memory map:
 *
 *   0x1000-0x7FFF  code: main (ends with HALT), constant pool, subroutines
 *   0x7FFC         .long address just after the final HALT (for the runner)
 *   0x8000-0x8EFF  data sandbox, random initial bytes, written by programs
 *   0x8F00-0x8FFF  pointer table: 64 longwords pointing into the data
 *                  (read only, so deferred modes always yield known addresses)
 *   0x9000-0x9FFF  stack (SP starts at 0x9C00, interrupt stack, kernel mode)
 *
 * The runner compares 0x8000-0x9FFF.  The header comment carries the
 * initial registers ("# set rN=0x...") and PSL ("# psl=0x...") that the
 * runner deposits before starting at 0x1000.
 *
 * Register discipline (so every memory reference is known at generation
 * time to stay inside the sandbox, whatever the random data are):
 *   R0-R5   data: random values, destinations of everything
 *   R6-R9   pointers: always hold a value the generator knows; changed only
 *           by autoincrement/decrement and explicit reloads
 *   R10     index register: a known small value when used
 *   R11     loop counter
 *   AP, FP  procedure frames; SP the stack, tracked exactly
 * Every region that may or may not execute (branch-over, CASE arms, loop
 * bodies, subroutines) restores the pointers and SP before it ends, so the
 * generator's model holds on every path.  No trap is ever enabled (PSL<IV>
 * stays clear), no divisor can be zero, no bit field is reserved.
 *
 * MNEGL sites are written "mnegl A,B ; nop  # mnegl-site" so that the
 * comparator can substitute "subl3 A,$0,B" (the same bytes long, the
 * architectural definition of MNEGL's result and condition codes) to excuse
 * SIMH 3.8.1's MNEGL N-bit deviation precisely.                        */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vax/isa/vax_opcodes.h"

#define DATA_LO 0x8000u
#define DATA_HI 0x8F00u /* writable [DATA_LO, DATA_HI) */
#define TABLE_LO 0x8F00u
#define TABLE_N 64
#define STACK_LO 0x9000u
#define STACK_HI 0xA000u
#define SP_INIT 0x9C00u
#define SP_MIN 0x9300u /* generator keeps SP above this */
#define QUEUE_LO 0x8E00u
#define POOL_N 16

/* ---------- random numbers ---------- */
static uint64_t rng_state;
static uint64_t rnd64(void)
{
    uint64_t x = rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    return x * 0x2545F4914F6CDD1DULL;
}
static uint32_t rnd(uint32_t n) { return n ? (uint32_t)(rnd64() % n) : 0; }
static int chance(int pct) { return (int)rnd(100) < pct; }
static int32_t rrange(int32_t lo, int32_t hi) { return lo + (int32_t)rnd((uint32_t)(hi - lo + 1)); }

static uint32_t edge_value(int size)
{
    uint32_t mask = size >= 4 ? 0xFFFFFFFFu : (1u << (8 * size)) - 1;
    uint32_t sign = size >= 4 ? 0x80000000u : 1u << (8 * size - 1);
    switch (rnd(10)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return mask;             /* -1 */
    case 3: return sign;             /* most negative */
    case 4: return sign - 1;         /* most positive */
    case 5: return rnd(64);
    case 6: return (uint32_t)-(int32_t)rnd(64) & mask;
    case 7: return sign + 1;
    default: return (uint32_t)rnd64() & mask;
    }
}

/* ---------- text buffers ---------- */
typedef struct {
    char *p;
    size_t n, cap;
} Buf;
static void bprintf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bprintf(Buf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0)
            abort();
        if (b->p && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        b->cap = (b->cap + (size_t)k + 256) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p)
            abort();
    }
}
static void bcat(Buf *b, const Buf *c)
{
    if (c->n)
        bprintf(b, "%.*s", (int)c->n, c->p);
}

/* ---------- options ---------- */
enum {
    G_MOV = 1 << 0, G_ARITH = 1 << 1, G_LOGIC = 1 << 2, G_BRANCH = 1 << 3,
    G_LOOP = 1 << 4, G_CALL = 1 << 5, G_STACK = 1 << 6, G_FIELD = 1 << 7,
    G_PSL = 1 << 8, G_QUEUE = 1 << 9, G_STRING = 1 << 10, G_MULDIV = 1 << 11,
    G_BB = 1 << 12, G_JSB = 1 << 13, G_PUSH = 1 << 14,
    /* issue 16: groups whose instructions may fault or trap; they run
     * with the exception catcher (below) and never mix into the fifteen
     * groups above unless asked (so those programs stay as they were) */
    G_FLOATF = 1 << 15, G_FLOATD = 1 << 16, G_FLOATG = 1 << 17, G_FLOATH = 1 << 18,
    G_DECIMAL = 1 << 19, G_EDITPC = 1 << 20, G_STRING2 = 1 << 21, G_IQUEUE = 1 << 22,
};
#define G_OLD 0x7FFFu           /* the fifteen groups of issues 3-8 */
#define G_CATCHING (~G_OLD)      /* groups that need the exception catcher */
static const struct { const char *name; unsigned bit; } group_names[] = {
    {"mov", G_MOV}, {"arith", G_ARITH}, {"muldiv", G_MULDIV}, {"logic", G_LOGIC},
    {"branch", G_BRANCH}, {"loop", G_LOOP}, {"call", G_CALL}, {"stack", G_STACK},
    {"field", G_FIELD}, {"psl", G_PSL}, {"queue", G_QUEUE}, {"string", G_STRING},
    {"bb", G_BB}, {"jsb", G_JSB}, {"push", G_PUSH},
    {"floatf", G_FLOATF}, {"floatd", G_FLOATD}, {"floatg", G_FLOATG}, {"floath", G_FLOATH},
    {"decimal", G_DECIMAL}, {"editpc", G_EDITPC}, {"string2", G_STRING2}, {"iqueue", G_IQUEUE},
};
enum {
    M_REG = 1 << 0, M_DEF = 1 << 1, M_INC = 1 << 2, M_DEC = 1 << 3, M_INCDEF = 1 << 4,
    M_DISP = 1 << 5, M_DISPDEF = 1 << 6, M_IMM = 1 << 7, M_LIT = 1 << 8, M_ABS = 1 << 9,
    M_PCREL = 1 << 10, M_PCRELDEF = 1 << 11, M_INDEX = 1 << 12,
};
static const struct { const char *name; unsigned bit; } mode_names[] = {
    {"reg", M_REG}, {"def", M_DEF}, {"inc", M_INC}, {"dec", M_DEC}, {"incdef", M_INCDEF},
    {"disp", M_DISP}, {"dispdef", M_DISPDEF}, {"imm", M_IMM}, {"lit", M_LIT},
    {"abs", M_ABS}, {"pcrel", M_PCREL}, {"pcreldef", M_PCRELDEF}, {"index", M_INDEX},
};
#define M_MEM (M_DEF | M_INC | M_DEC | M_INCDEF | M_DISP | M_DISPDEF | M_ABS | M_PCREL | M_PCRELDEF)

static unsigned groups = ~0u, modes = ~0u;
static int n_items = 40;

/* ---------- generator state ---------- */
typedef struct {
    int known[16];
    uint32_t val[16]; /* R6-R10, AP, FP known values; SP in val[14] */
    uint32_t floor;   /* SP may not rise above this (return addresses live there) */
    int in_proc;      /* AP/FP usable as read-only bases */
    int depth;        /* nesting of regions */
    int call_depth;
    int in_loop;
} State;

typedef struct {
    State st;
    unsigned locked; /* registers used by the current instruction */
    Buf pre;         /* instructions emitted before the current one */
    int force_long;  /* PC-relative operands get l` (MNEGL sites) */
} Ins;

static uint8_t image_data[DATA_HI - DATA_LO];
static uint32_t table[TABLE_N];
static uint32_t pool[POOL_N];
static Buf subs;
static int label_no;
static int mnegl_sites;

static int new_label(void) { return ++label_no; }

static const char *rn(int r)
{
    static const char *names[16] = {"%r0", "%r1", "%r2", "%r3", "%r4", "%r5", "%r6", "%r7",
                                    "%r8", "%r9", "%r10", "%r11", "%ap", "%fp", "%sp", "%pc"};
    return names[r];
}

static uint32_t read_table_entry(uint32_t addr) { return table[(addr - TABLE_LO) / 4]; }

/* Load pointer register r with value v, in one of several ways. */
static void emit_load_ptr(Buf *b, State *st, int r, uint32_t v)
{
    switch (rnd(4)) {
    case 0: bprintf(b, "\tmovl\t$0x%x,%s\n", v, rn(r)); break;
    case 1: bprintf(b, "\tmovab\t*$0x%x,%s\n", v, rn(r)); break;
    case 2:
        if (v >= DATA_LO)
            bprintf(b, "\tmovab\tD+0x%x,%s\n", v - DATA_LO, rn(r));
        else
            bprintf(b, "\tmovab\tD-0x%x,%s\n", DATA_LO - v, rn(r));
        break;
    default:
        if (v >= 4 && (groups & G_MOV))
            bprintf(b, "\tmoval\t%d(%s),%s\n", (int32_t)(v - st->val[r]), rn(r), rn(r));
        else
            bprintf(b, "\tmovl\t$0x%x,%s\n", v, rn(r));
        break;
    }
    st->known[r] = 1;
    st->val[r] = v;
}

static void emit_set_index(Buf *b, State *st, int32_t k)
{
    if (k == 0 && chance(30))
        bprintf(b, "\tclrl\t%%r10\n");
    else if (k >= 0 && chance(30))
        bprintf(b, "\tmovzbl\t$%d,%%r10\n", k);
    else if (chance(30))
        bprintf(b, "\tcvtbl\t$%d,%%r10\n", k);
    else
        bprintf(b, "\tmovl\t$%d,%%r10\n", k);
    st->known[10] = 1;
    st->val[10] = (uint32_t)k;
}

/* Restore the pointers, R10 knowledge and SP to a saved state (end of a
 * region that may or may not run, or runs many times). */
static void restore_state(Buf *b, State *cur, const State *want)
{
    for (int r = 6; r <= 9; r++)
        if (cur->val[r] != want->val[r])
            emit_load_ptr(b, cur, r, want->val[r]);
    if (cur->val[14] != want->val[14]) {
        int32_t d = (int32_t)(want->val[14] - cur->val[14]);
        if (chance(50))
            bprintf(b, "\tmovab\t%d(%%sp),%%sp\n", d);
        else if (d > 0)
            bprintf(b, "\taddl2\t$%d,%%sp\n", d);
        else
            bprintf(b, "\tsubl2\t$%d,%%sp\n", -d);
        cur->val[14] = want->val[14];
    }
}
static void merge_index(State *cur, const State *other)
{
    if (!cur->known[10] || !other->known[10] || cur->val[10] != other->val[10])
        cur->known[10] = 0;
}

/* ---------- operand specifiers ---------- */
static const char *disp_prefix(int32_t d)
{
    int r = (int)rnd(4);
    if (r == 0)
        return "";
    if (d >= -128 && d <= 127 && r == 1)
        return "b`";
    if (d >= -32768 && d <= 32767 && r <= 2)
        return "w`";
    return "l`";
}

static int pick_ptr(void)
{
    return 6 + (int)rnd(4);
}

/* A memory operand whose first byte is at an address in [lo, hi-sz] (hi
 * exclusive), with side effects tracked.  allowed: mode mask.  Returns 0
 * on failure (caller tries something else). *addr receives the address. */
static int gen_mem_base(Ins *in, uint32_t lo, uint32_t hi, int sz, int span, unsigned allowed, int wr, char *out,
                        uint32_t *addr)
{
    State *st = &in->st;
    allowed &= modes;
    if (hi < lo + (uint32_t)span)
        return 0;
    for (int tries = 0; tries < 20; tries++) {
        unsigned m = 1u << rnd(12);
        if (!(allowed & m))
            continue;
        uint32_t a = lo + rnd(hi - lo - (uint32_t)span + 1);
        int r = pick_ptr();
        int locked = (in->locked >> r) & 1;
        switch (m) {
        case M_DEF:
        case M_INC:
        case M_DEC: {
            uint32_t v = st->val[r];
            uint32_t want = m == M_DEC ? a + (uint32_t)sz : a;
            uint32_t ea = m == M_DEC ? v - (uint32_t)sz : v;
            if (!(ea >= lo && ea + (uint32_t)span <= hi)) {
                if (locked)
                    continue;
                emit_load_ptr(&in->pre, st, r, want);
                ea = a;
            }
            in->locked |= 1u << r;
            *addr = ea;
            if (m == M_DEF)
                sprintf(out, "(%s)", rn(r));
            else if (m == M_INC) {
                sprintf(out, "(%s)+", rn(r));
                st->val[r] += (uint32_t)sz;
            } else {
                sprintf(out, "-(%s)", rn(r));
                st->val[r] -= (uint32_t)sz;
            }
            return 1;
        }
        case M_INCDEF: {
            uint32_t v = st->val[r];
            int ok = v >= TABLE_LO && v < TABLE_LO + 4 * TABLE_N && (v & 3) == 0;
            uint32_t ea = ok ? read_table_entry(v) : 0;
            if (!ok || ea < lo || ea + (uint32_t)span > hi) {
                if (locked)
                    continue;
                int found = -1;
                for (int k = 0; k < 16 && found < 0; k++) {
                    int i = (int)rnd(TABLE_N);
                    if (table[i] >= lo && table[i] + (uint32_t)span <= hi)
                        found = i;
                }
                if (found < 0)
                    continue;
                emit_load_ptr(&in->pre, st, r, TABLE_LO + 4 * (uint32_t)found);
                ea = table[found];
            }
            in->locked |= 1u << r;
            *addr = ea;
            sprintf(out, "*(%s)+", rn(r));
            st->val[r] += 4;
            return 1;
        }
        case M_DISP: {
            int b = r;
            if (st->in_proc && !wr && chance(30)) {
                /* AP/FP/SP as bases for reads */
                b = 12 + (int)rnd(3);
                uint32_t base = st->val[b];
                if (b == 14 || b == 13) {
                    /* at or above SP: frames and pushed data, read only */
                    uint32_t top = st->floor + 16 < STACK_HI ? st->floor + 16 : STACK_HI;
                    if (top < base + (uint32_t)span)
                        continue;
                    a = base + rnd(top - base - (uint32_t)span + 1);
                } else {
                    a = base + rnd(24);
                    if (a < lo || a + (uint32_t)span > hi)
                        continue;
                }
                if (a < lo || a + (uint32_t)span > hi)
                    continue;
            }
            int32_t d = (int32_t)(a - st->val[b]);
            if (b >= 6 && b <= 9 && (d > 30000 || d < -30000) && !locked && chance(50)) {
                emit_load_ptr(&in->pre, st, b, a - (uint32_t)rrange(-100, 100));
                d = (int32_t)(a - st->val[b]);
            }
            in->locked |= 1u << b;
            *addr = a;
            sprintf(out, "%s%d(%s)", disp_prefix(d), d, rn(b));
            return 1;
        }
        case M_DISPDEF: {
            int i = (int)rnd(TABLE_N);
            if (table[i] < lo || table[i] + (uint32_t)span > hi)
                continue;
            int32_t d = (int32_t)(TABLE_LO + 4 * (uint32_t)i - st->val[r]);
            in->locked |= 1u << r;
            *addr = table[i];
            sprintf(out, "*%s%d(%s)", disp_prefix(d), d, rn(r));
            return 1;
        }
        case M_ABS:
            *addr = a;
            sprintf(out, "*$0x%x", a);
            return 1;
        case M_PCREL:
            *addr = a;
            if (a >= DATA_LO)
                sprintf(out, "%sD+0x%x", in->force_long || chance(50) ? "l`" : "", a - DATA_LO);
            else
                sprintf(out, "%sD-0x%x", in->force_long || chance(50) ? "l`" : "", DATA_LO - a);
            return 1;
        case M_PCRELDEF: {
            int i = (int)rnd(TABLE_N);
            if (table[i] < lo || table[i] + (uint32_t)span > hi)
                continue;
            *addr = table[i];
            sprintf(out, "*%sT+%d", in->force_long || chance(50) ? "l`" : "", 4 * i);
            return 1;
        }
        default:
            continue;
        }
    }
    return 0;
}

/* Memory operand, possibly indexed. */
static int gen_mem(Ins *in, uint32_t lo, uint32_t hi, int sz, int span, int wr, char *out, uint32_t *addr)
{
    State *st = &in->st;
    if ((modes & M_INDEX) && chance(20)) {
        int32_t k;
        if (in->locked & (1u << 10)) {
            if (!st->known[10])
                goto plain;
            k = (int32_t)st->val[10];
        } else if (st->known[10] && chance(50)) {
            k = (int32_t)st->val[10];
        } else {
            k = rrange(-4, 12);
            emit_set_index(&in->pre, st, k);
        }
        if (k < -64 || k > 64)
            goto plain;
        int64_t off = (int64_t)k * sz;
        char base[96];
        uint32_t ba;
        if (!gen_mem_base(in, (uint32_t)((int64_t)lo - off), (uint32_t)((int64_t)hi - off), sz, span, M_MEM, wr, base,
                          &ba))
            goto plain;
        in->locked |= 1u << 10;
        *addr = ba + (uint32_t)off;
        sprintf(out, "%s[%%r10]", base);
        return 1;
    }
plain:
    return gen_mem_base(in, lo, hi, sz, span, M_MEM, wr, out, addr);
}

static void fmt_imm(char *out, uint64_t v, int sz)
{
    if (sz == 8)
        sprintf(out, "$0x%" PRIx64, v);
    else if (chance(30) && sz == 4 && (int32_t)v < 0 && (int32_t)v > -1000)
        sprintf(out, "$%d", (int32_t)v);
    else
        sprintf(out, "$0x%" PRIx64, v);
}

/* A data operand: acc 'r' (read), 'w' (write), 'm' (modify); dt b/w/l/q. */
static int gen_data(Ins *in, char acc, char dt, char *out)
{
    int sz = vax_dtype_size(dt);
    uint32_t a;
    for (int tries = 0; tries < 20; tries++) {
        int k = (int)rnd(10);
        if (k < 3 && (modes & M_REG)) {
            if (acc == 'r' && dt != 'q') {
                int r = chance(80) ? (int)rnd(6) : 6 + (int)rnd(6);
                if (in->st.in_proc && chance(10))
                    r = 12 + (int)rnd(3);
                sprintf(out, "%s", rn(r));
                return 1;
            }
            int r = dt == 'q' ? 2 * (int)rnd(3) : (int)rnd(6);
            sprintf(out, "%s", rn(r));
            return 1;
        }
        if (k == 3 && acc == 'r' && (modes & M_LIT)) {
            sprintf(out, "$%u", rnd(64));
            return 1;
        }
        if (k == 4 && acc == 'r' && (modes & M_IMM)) {
            uint64_t v = edge_value(sz > 4 ? 4 : sz);
            if (sz == 8)
                v = (uint64_t)edge_value(4) << 32 | edge_value(4);
            if (v < 64 && sz != 8 && chance(50))
                sprintf(out, "i`$%" PRIu64, v); /* gas makes this a literal too */
            else
                fmt_imm(out, v, sz);
            return 1;
        }
        if (k == 5 && acc == 'r' && (modes & M_PCREL)) {
            int i = (int)rnd(POOL_N - 2);
            sprintf(out, "%sK+%d", in->force_long ? "l`" : "", 4 * i);
            return 1;
        }
        if (k >= 5) {
            uint32_t hi = acc == 'r' ? STACK_HI : DATA_HI;
            if (gen_mem(in, DATA_LO, hi, sz, sz, acc != 'r', out, &a))
                return 1;
        }
    }
    if (acc == 'r' && (modes & M_LIT)) {
        sprintf(out, "$%u", rnd(64));
        return 1;
    }
    if (modes & M_REG) {
        sprintf(out, "%s", rn(dt == 'q' ? 0 : (int)rnd(6)));
        return 1;
    }
    return 0;
}

/* A read operand whose value is v (known at generation time). */
static int gen_known(Ins *in, char dt, uint32_t v, char *out)
{
    int sz = vax_dtype_size(dt);
    uint32_t mask = sz >= 4 ? 0xFFFFFFFFu : (1u << (8 * sz)) - 1;
    v &= mask;
    if (v < 64 && (modes & M_LIT) && chance(60)) {
        sprintf(out, "$%u", v);
        return 1;
    }
    {
        int32_t k = sz == 1 ? (int8_t)v : sz == 2 ? (int16_t)v : (int32_t)v;
        if ((modes & M_REG) && k >= -8 && k <= 64 && chance(20)) {
            if (!in->st.known[10] || in->st.val[10] != (uint32_t)k) {
                if (in->locked & (1u << 10))
                    goto imm;
                emit_set_index(&in->pre, &in->st, k);
            }
            in->locked |= 1u << 10;
            sprintf(out, "%%r10");
            return 1;
        }
    }
imm:
    if (modes & M_IMM) {
        sprintf(out, "I^$0x%x", v);
        return 1;
    }
    if (v < 64 && (modes & M_LIT)) {
        sprintf(out, "$%u", v);
        return 1;
    }
    return 0;
}

/* A nonzero divisor. */
static int gen_divisor_ex(Ins *in, char dt, char *out, int no_min);
static int gen_divisor(Ins *in, char dt, char *out)
{
    return gen_divisor_ex(in, dt, out, 0);
}

/* no_min: never the most negative longword.  EDIV by -2^31 is the one
 * divisor SIMH 3.8.1 gets wrong (README.md, "SIMH deviations"); the
 * machine's answer for it is checked against the architecture in
 * tests/machine/progs/ediv_min_divisor.s instead. */
static int gen_divisor_ex(Ins *in, char dt, char *out, int no_min)
{
    int sz = vax_dtype_size(dt);
    if (!no_min && (modes & M_PCREL) && chance(30)) {
        sprintf(out, "%sK+%d", in->force_long ? "l`" : "", 4 * (int)rnd(POOL_N - 2));
        return 1;
    }
    uint32_t v;
    do
        v = edge_value(sz);
    while (v == 0 || (no_min && v == 0x80000000u));
    if (chance(20))
        v = sz == 4 ? 0xFFFFFFFFu : (1u << (8 * sz)) - 1; /* -1: overflow cases */
    return gen_known(in, dt, v, out);
}

/* An address operand (access 'a'): any mode yielding an address in range. */
static int gen_addr(Ins *in, uint32_t lo, uint32_t hi, int sz, int span, int wr, char *out, uint32_t *addr)
{
    return gen_mem(in, lo, hi, sz, span, wr, out, addr);
}

/* ---------- instruction emission ---------- */
typedef struct {
    Buf *out;
    State *st;
} Ctx;

static void ins_begin(Ins *in, const State *st)
{
    in->st = *st;
    in->locked = 0;
    in->pre.n = 0;
    in->force_long = 0;
}
static void ins_commit(Ctx *c, Ins *in, const char *text)
{
    bcat(c->out, &in->pre);
    bprintf(c->out, "%s", text);
    *c->st = in->st;
}

/* Generic instruction from the opcode table. */
static int gen_generic(Ctx *c, const char *name)
{
    const struct vax_opcode *op = vax_opcode_by_name(name);
    if (!op)
        return 0;
    Ins in;
    memset(&in, 0, sizeof in);
    ins_begin(&in, c->st);
    int mneg = strcmp(name, "mnegl") == 0;
    in.force_long = mneg;
    char text[512], spec[128];
    int n = snprintf(text, sizeof text, "\t%s\t", op->name);
    int nops = vax_opcode_noperands(op);
    int isdiv = strncmp(name, "div", 3) == 0;
    for (int i = 0; i < nops; i++) {
        struct vax_operand_desc d = vax_opcode_operand(op, i);
        int ok;
        if (isdiv && i == 0)
            ok = gen_divisor(&in, d.dtype, spec);
        else if (d.access == 'a') {
            uint32_t a;
            ok = gen_addr(&in, DATA_LO, STACK_HI, vax_dtype_size(d.dtype), vax_dtype_size(d.dtype), 0, spec, &a);
        } else
            ok = gen_data(&in, d.access, d.dtype, spec);
        if (!ok) {
            free(in.pre.p);
            return 0;
        }
        n += sprintf(text + n, "%s%s", i ? "," : "", spec);
    }
    if (mneg) {
        sprintf(text + n, " ; nop  # mnegl-site\n");
        mnegl_sites++;
    } else
        sprintf(text + n, "\n");
    ins_commit(c, &in, text);
    free(in.pre.p);
    return 1;
}

static const char *pick(const char *const *list, size_t n) { return list[rnd((uint32_t)n)]; }
#define PICK(a) pick(a, sizeof a / sizeof a[0])

/* ---------- the exception catcher (groups that may fault or trap) ----------
 * The program points SCB vectors 0x18 (reserved operand), 0x1C (reserved
 * addressing mode) and 0x34 (arithmetic trap/fault) at handlers that
 * record the event in the catcher cells and resume at the address in
 * CATCH_RESUME.  A risky instruction is bracketed by risky_begin (stores
 * its continuation there) and risky_end (the continuation label, then
 * every pointer register the instruction may have changed is reloaded
 * with an immediate: a fault undoes autoincrement, success does not).
 * The cells lie at 0x9000-0x901F: below the lowest SP (SP_MIN) minus an
 * exception frame, above every writable sandbox address, compared like
 * the rest of memory.  SCBB is 0 on both machines; the vectors at 0x18..
 * are in zeroed memory outside the image. */
#define CATCH_RESUME 0x9000u  /* continuation of the current risky instruction */
#define CATCH_NRSV 0x9004u    /* reserved operand / addressing mode faults */
#define CATCH_NARITH 0x9008u  /* arithmetic traps and faults */
#define CATCH_CODE 0x900Cu    /* the last arithmetic code */
#define CATCH_PC 0x9010u      /* the last exception's saved PC */
#define CATCH_PSL 0x9014u     /* ... and saved PSL */

static void catch_setup(Buf *b)
{
    bprintf(b, "\tmtpr\t$0,$0x11\n"          /* SCBB */
               "\tmovab\tHrsv,*$0x18\n"
               "\tmovab\tHrsv,*$0x1c\n"
               "\tmovab\tHarith,*$0x34\n");
    /* the saved PSL's FPD is cleared before REI: SIMH sets it when it
     * faults in the middle of an instruction it can resume, and the
     * handler does not resume that instruction but the next one */
    bprintf(&subs, "\t.align 2\nHrsv:\tincl\t*$0x%x\n"
                   "\tmovl\t(%%sp),*$0x%x\n\tmovl\t4(%%sp),*$0x%x\n"
                   "\tbicl2\t$0x08000000,4(%%sp)\n"
                   "\tmovl\t*$0x%x,(%%sp)\n\trei\n",
            CATCH_NRSV, CATCH_PC, CATCH_PSL, CATCH_RESUME);
    bprintf(&subs, "\t.align 2\nHarith:\tincl\t*$0x%x\n\tmovl\t(%%sp)+,*$0x%x\n"
                   "\tmovl\t(%%sp),*$0x%x\n\tmovl\t4(%%sp),*$0x%x\n"
                   "\tbicl2\t$0x08000000,4(%%sp)\n"
                   "\tmovl\t*$0x%x,(%%sp)\n\trei\n",
            CATCH_NARITH, CATCH_CODE, CATCH_PC, CATCH_PSL, CATCH_RESUME);
}

/* Before a risky instruction: its continuation label (returned). */
__attribute__((unused)) static int risky_begin(Buf *b)
{
    int lab = new_label();
    bprintf(b, "\tmovab\tLr%d,*$0x%x\n", lab, CATCH_RESUME);
    return lab;
}

/* After it: the continuation, and every known pointer made certain
 * again.  (All of them, not only those that differ from `before`: the
 * code written just before the instruction may itself have loaded the
 * value that the instruction's autoincrement then restores.) */
__attribute__((unused)) static void risky_end(Buf *b, State *after, const State *before, int lab)
{
    (void)before;
    bprintf(b, "Lr%d:\n", lab);
    for (int r = 6; r <= 10; r++)
        if (after->known[r])
            bprintf(b, "\tmovl\t$0x%x,%s\n", after->val[r], rn(r));
}

/* The groups of issue 16, one file each (their owners' code). */
#include "gen_float.inc"
#include "gen_decimal.inc"
#include "gen_string2.inc"


static const char *const mov_ops[] = {
    "movb", "movw", "movl", "movq", "movzbw", "movzbl", "movzwl", "cvtbw", "cvtbl", "cvtwb",
    "cvtwl", "cvtlb", "cvtlw", "clrb", "clrw", "clrl", "clrq", "mcomb", "mcomw", "mcoml",
    "mnegb", "mnegw", "mnegl", "tstb", "tstw", "tstl", "cmpb", "cmpw", "cmpl", "movab",
    "movaw", "moval", "movaq", "nop",
};
static const char *const arith_ops[] = {
    "addb2", "addw2", "addl2", "addb3", "addw3", "addl3", "subb2", "subw2", "subl2", "subb3",
    "subw3", "subl3", "incb", "incw", "incl", "decb", "decw", "decl", "adwc", "sbwc",
};
static const char *const muldiv_ops[] = {
    "mulb2", "mulw2", "mull2", "mulb3", "mulw3", "mull3", "divb2", "divw2", "divl2",
    "divb3", "divw3", "divl3", "emul",
};
static const char *const logic_ops[] = {
    "bisb2", "bisw2", "bisl2", "bisb3", "bisw3", "bisl3", "bicb2", "bicw2", "bicl2", "bicb3",
    "bicw3", "bicl3", "xorb2", "xorw2", "xorl2", "xorb3", "xorw3", "xorl3", "bitb", "bitw",
    "bitl", "ashl", "ashq", "rotl",
};

/* EDIV: divisor nonzero. */
static int gen_ediv(Ctx *c)
{
    Ins in;
    memset(&in, 0, sizeof in);
    ins_begin(&in, c->st);
    char a[128], b[128], q[128], r[128], text[600];
    if (!gen_divisor_ex(&in, 'l', a, 1) || !gen_data(&in, 'r', 'q', b) || !gen_data(&in, 'w', 'l', q) ||
        !gen_data(&in, 'w', 'l', r)) {
        free(in.pre.p);
        return 0;
    }
    sprintf(text, "\tediv\t%s,%s,%s,%s\n", a, b, q, r);
    ins_commit(c, &in, text);
    free(in.pre.p);
    return 1;
}

/* A bit-field base: register (data register; pos+size within Rn,Rn+1) or
 * memory.  pos/size known. */
static int gen_field_base(Ins *in, int32_t pos, int size, int wr, int allow_reg, char *out)
{
    if (allow_reg && (modes & M_REG) && pos >= 0 && pos <= 31 && chance(30)) {
        int r = (int)rnd(pos + size > 32 ? 5 : 6);
        sprintf(out, "%s", rn(r));
        return 1;
    }
    int32_t lob = pos < 0 ? (pos - 7) / 8 : pos / 8;
    int32_t hib = (pos + size + 7) / 8 + 1;
    uint32_t lo = DATA_LO - (uint32_t)lob;
    uint32_t hi = (wr ? DATA_HI : TABLE_LO) - (uint32_t)hib;
    uint32_t a;
    return gen_mem(in, lo, hi, 1, 1, wr, out, &a);
}

static int gen_field(Ctx *c)
{
    static const char *const ops[] = {"extv", "extzv", "insv", "cmpv", "cmpzv", "ffs", "ffc"};
    const char *name = PICK(ops);
    Ins in;
    memset(&in, 0, sizeof in);
    ins_begin(&in, c->st);
    int size = (int)rnd(33);
    int32_t pos = chance(70) ? (int32_t)rnd(32) : rrange(-16, 40);
    char ps[128], ss[128], bs[128], xs[128], text[700];
    int ok = 1;
    int wr = strcmp(name, "insv") == 0;
    if (wr)
        ok = gen_data(&in, 'r', 'l', xs);
    if (ok)
        ok = gen_known(&in, 'l', (uint32_t)pos, ps) && gen_known(&in, 'b', (uint32_t)size, ss) &&
             gen_field_base(&in, pos, size, wr, 1, bs);
    if (ok) {
        if (!strcmp(name, "extv") || !strcmp(name, "extzv")) {
            ok = gen_data(&in, 'w', 'l', xs);
            sprintf(text, "\t%s\t%s,%s,%s,%s\n", name, ps, ss, bs, xs);
        } else if (!strcmp(name, "insv"))
            sprintf(text, "\t%s\t%s,%s,%s,%s\n", name, xs, ps, ss, bs);
        else if (!strcmp(name, "cmpv") || !strcmp(name, "cmpzv")) {
            ok = gen_data(&in, 'r', 'l', xs);
            sprintf(text, "\t%s\t%s,%s,%s,%s\n", name, ps, ss, bs, xs);
        } else {
            ok = gen_data(&in, 'w', 'l', xs);
            sprintf(text, "\t%s\t%s,%s,%s,%s\n", name, ps, ss, bs, xs);
        }
    }
    if (ok)
        ins_commit(c, &in, text);
    free(in.pre.p);
    return ok;
}

static int gen_string(Ctx *c)
{
    static const char *const ops[] = {"movc3", "movc5", "cmpc3", "cmpc5", "locc", "skpc"};
    const char *name = PICK(ops);
    Ins in;
    memset(&in, 0, sizeof in);
    ins_begin(&in, c->st);
    char a[128], b[128], d[128], e[128], f[128], text[800];
    int l1 = (int)rnd(chance(20) ? 300 : 40), l2 = (int)rnd(chance(20) ? 300 : 40);
    uint32_t x;
    int ok = 0;
    if (!strcmp(name, "movc3")) {
        ok = gen_known(&in, 'w', (uint32_t)l1, a) && gen_addr(&in, DATA_LO, STACK_HI, 1, l1, 0, b, &x) &&
             gen_addr(&in, DATA_LO, DATA_HI, 1, l1, 1, d, &x);
        sprintf(text, "\tmovc3\t%s,%s,%s\n", a, b, d);
    } else if (!strcmp(name, "cmpc3")) {
        ok = gen_known(&in, 'w', (uint32_t)l1, a) && gen_addr(&in, DATA_LO, STACK_HI, 1, l1, 0, b, &x) &&
             gen_addr(&in, DATA_LO, STACK_HI, 1, l1, 0, d, &x);
        sprintf(text, "\tcmpc3\t%s,%s,%s\n", a, b, d);
    } else if (!strcmp(name, "movc5") || !strcmp(name, "cmpc5")) {
        int w = name[1] == 'o';
        ok = gen_known(&in, 'w', (uint32_t)l1, a) && gen_addr(&in, DATA_LO, STACK_HI, 1, l1, 0, b, &x) &&
             gen_data(&in, 'r', 'b', d) && gen_known(&in, 'w', (uint32_t)l2, e) &&
             gen_addr(&in, DATA_LO, w ? DATA_HI : STACK_HI, 1, l2, w, f, &x);
        sprintf(text, "\t%s\t%s,%s,%s,%s,%s\n", name, a, b, d, e, f);
    } else {
        ok = gen_data(&in, 'r', 'b', a) && gen_known(&in, 'w', (uint32_t)l1, b) &&
             gen_addr(&in, DATA_LO, STACK_HI, 1, l1, 0, d, &x);
        sprintf(text, "\t%s\t%s,%s,%s\n", name, a, b, d);
    }
    if (ok)
        ins_commit(c, &in, text);
    free(in.pre.p);
    return ok;
}

static int gen_psl(Ctx *c)
{
    Ins in;
    memset(&in, 0, sizeof in);
    ins_begin(&in, c->st);
    char a[128], text[300];
    int ok;
    switch (rnd(3)) {
    case 0:
        ok = gen_data(&in, 'w', 'l', a);
        sprintf(text, "\tmovpsl\t%s\n", a);
        break;
    case 1: /* never T (bit 4) or IV (bit 5) */
        ok = gen_known(&in, 'w', rnd(256) & 0xCF, a);
        sprintf(text, "\tbispsw\t%s\n", a);
        break;
    default:
        ok = gen_known(&in, 'w', rnd(256), a);
        sprintf(text, "\tbicpsw\t%s\n", a);
        break;
    }
    if (ok)
        ins_commit(c, &in, text);
    free(in.pre.p);
    return ok;
}

static int sp_room(const State *st, int bytes) { return st->val[14] - (uint32_t)bytes >= SP_MIN; }

static int gen_stack(Ctx *c)
{
    State *st = c->st;
    Ins in;
    memset(&in, 0, sizeof in);
    ins_begin(&in, st);
    char a[128], text[300];
    int ok = 1;
    int k = (int)rnd(4);
    if (!(groups & G_STACK))
        k = 2 + (int)rnd(2);
    if (!(groups & G_PUSH))
        k = (int)rnd(2);
    switch (k) {
    case 0: /* pushr: any of R0-R14 */
    {
        uint32_t mask = rnd(0x8000);
        int n = __builtin_popcount(mask);
        if (!sp_room(st, 4 * n))
            ok = 0;
        else {
            ok = gen_known(&in, 'w', mask, a);
            sprintf(text, "\tpushr\t%s\n", a);
            in.st.val[14] -= 4 * (uint32_t)n;
        }
        break;
    }
    case 1: /* popr: data registers only, not above the floor */
    {
        uint32_t mask = rnd(64);
        int n = __builtin_popcount(mask);
        if (st->val[14] + 4 * (uint32_t)n > st->floor)
            ok = 0;
        else {
            ok = gen_known(&in, 'w', mask, a);
            sprintf(text, "\tpopr\t%s\n", a);
            in.st.val[14] += 4 * (uint32_t)n;
        }
        break;
    }
    case 2:
        if (!sp_room(st, 4))
            ok = 0;
        else {
            ok = gen_data(&in, 'r', 'l', a);
            sprintf(text, "\tpushl\t%s\n", a);
            in.st.val[14] -= 4;
        }
        break;
    default: {
        static const char *const pa[] = {"pushab", "pushaw", "pushal", "pushaq"};
        const char *nm = PICK(pa);
        uint32_t x;
        if (!sp_room(st, 4))
            ok = 0;
        else {
            ok = gen_addr(&in, DATA_LO, STACK_HI, vax_dtype_size(nm[5]), 8, 0, a, &x);
            sprintf(text, "\t%s\t%s\n", nm, a);
            in.st.val[14] -= 4;
        }
        break;
    }
    }
    if (ok)
        ins_commit(c, &in, text);
    free(in.pre.p);
    return ok;
}

/* Push/pop through SP-based modes in generic data operands would break the
 * floor discipline, so SP appears only as d(SP) reads (in procedures) and
 * through explicit pushes here. */

static int gen_simple(Ctx *c);
static void gen_block(Ctx *c, int items);

/* A queue snippet: init a header, then inserts and removes with tracking. */
static int gen_queue(Ctx *c)
{
    uint32_t node[9];
    uint32_t base = QUEUE_LO + rnd(8);
    for (int i = 0; i < 9; i++)
        node[i] = base + 24 * (uint32_t)i;
    int ring[9], nring = 1; /* ring order, ring[0] = header index 0 */
    int inq[9] = {1};
    ring[0] = 0;
    Buf b = {0};
    State s = *c->st;
    bprintf(&b, "\tmoval\t*$0x%x,*$0x%x\n\tmoval\t*$0x%x,*$0x%x\n", node[0], node[0], node[0], node[0] + 4);
    int steps = 2 + (int)rnd(6);
    for (int k = 0; k < steps; k++) {
        Ins in;
        memset(&in, 0, sizeof in);
        ins_begin(&in, &s);
        char x[128], y[128], text[300];
        int ok;
        if (nring < 9 && (nring == 1 || chance(60))) {
            int e;
            do
                e = 1 + (int)rnd(8);
            while (inq[e]);
            int pi = (int)rnd((uint32_t)nring);
            uint32_t a1, a2;
            uint32_t ea = node[e], pa = node[ring[pi]];
            ok = gen_addr(&in, ea, ea + 8, 1, 8, 1, x, &a1) && gen_addr(&in, pa, pa + 8, 1, 8, 1, y, &a2);
            if (ok && (a1 != ea || a2 != pa))
                ok = 0;
            if (ok) {
                sprintf(text, "\tinsque\t%s,%s\n", x, y);
                memmove(ring + pi + 2, ring + pi + 1, sizeof(int) * (size_t)(nring - pi - 1));
                ring[pi + 1] = e;
                nring++;
                inq[e] = 1;
            }
        } else {
            int pi = 1 + (int)rnd((uint32_t)nring - 1);
            uint32_t a1, ea = node[ring[pi]];
            ok = gen_addr(&in, ea, ea + 8, 1, 8, 1, x, &a1) && a1 == ea;
            sprintf(y, "%s", rn((int)rnd(6)));
            if (ok) {
                sprintf(text, "\tremque\t%s,%s\n", x, y);
                inq[ring[pi]] = 0;
                memmove(ring + pi, ring + pi + 1, sizeof(int) * (size_t)(nring - pi - 1));
                nring--;
            }
        }
        if (ok) {
            bcat(&b, &in.pre);
            bprintf(&b, "%s", text);
            s = in.st;
        }
        free(in.pre.p);
    }
    bcat(c->out, &b);
    *c->st = s;
    free(b.p);
    return 1;
}

/* Address into a code label, for JMP/JSB: several modes. */
static void code_target(Buf *pre, State *st, int lab, char *out)
{
    (void)st;
    switch (rnd(4)) {
    case 0: sprintf(out, "l`L%d", lab); break;
    case 1: sprintf(out, "*$L%d", lab); break;
    case 2: {
        int r = (int)rnd(6);
        bprintf(pre, "\tmovab\tL%d,%s\n", lab, rn(r));
        sprintf(out, "(%s)", rn(r));
        break;
    }
    default:
        bprintf(&subs, "P%d:\t.long\tL%d\n", lab, lab);
        sprintf(out, "*l`P%d", lab);
        break;
    }
}

static const char *const cond_br[] = {
    "jneq", "jeql", "jgtr", "jleq", "jgeq", "jlss", "jgtru", "jlequ", "jvc", "jvs", "jgequ", "jlssu",
};

/* Region that may be skipped: a forward branch over a small block. */
static void gen_branch_over(Ctx *c)
{
    State save = *c->st;
    int lab = new_label();
    Ins in;
    memset(&in, 0, sizeof in);
    ins_begin(&in, c->st);
    char text[400], a[128], p[128];
    int items = 1 + (int)rnd(4);
    int k = (int)rnd(7);
    if (k == 4 && !(groups & G_BB))
        k = 0;
    int ok = 1;
    if (k <= 2)
        sprintf(text, "\t%s\tL%d\n", PICK(cond_br), lab);
    else if (k == 3) {
        ok = gen_data(&in, 'r', 'l', a);
        sprintf(text, "\t%s\t%s,L%d\n", chance(50) ? "jlbs" : "jlbc", a, lab);
    } else if (k == 4) {
        static const char *const bb[] = {"jbs", "jbc", "jbss", "jbcs", "jbsc", "jbcc", "jbssi", "jbcci"};
        const char *nm = PICK(bb);
        int32_t pos = chance(70) ? (int32_t)rnd(32) : rrange(-16, 60);
        int reg_ok = nm[strlen(nm) - 1] != 'i';
        ok = gen_known(&in, 'l', (uint32_t)pos, p) && gen_field_base(&in, pos, 1, nm[3] != 0, reg_ok, a);
        sprintf(text, "\t%s\t%s,%s,L%d\n", nm, p, a, lab);
    } else if (k == 5) {
        char tgt[128];
        code_target(&in.pre, &in.st, lab, tgt);
        sprintf(text, "\tjmp\t%s\n", tgt);
    } else
        sprintf(text, "\t%s\tL%d\n", chance(60) ? "jbr" : "brw", lab);
    if (!ok) {
        free(in.pre.p);
        return;
    }
    ins_commit(c, &in, text);
    free(in.pre.p);
    save = *c->st; /* state at the branch */
    c->st->depth++;
    gen_block(c, items);
    c->st->depth--;
    restore_state(c->out, c->st, &save);
    merge_index(c->st, &save);
    bprintf(c->out, "L%d:\n", lab);
}

static void gen_case(Ctx *c)
{
    static const char *const cs[] = {"caseb", "casew", "casel"};
    const char *nm = PICK(cs);
    Ins in;
    memset(&in, 0, sizeof in);
    ins_begin(&in, c->st);
    char s[128], b[128], l[128], text[500];
    int limit = (int)rnd(4);
    char dt = nm[4];
    if (!gen_data(&in, 'r', dt, s) || !gen_known(&in, dt, rnd(4) == 0 ? edge_value(4) : rnd(3), b) ||
        !gen_known(&in, dt, (uint32_t)limit, l)) {
        free(in.pre.p);
        return;
    }
    int tab = new_label(), end = new_label();
    int arms[8];
    sprintf(text, "\t%s\t%s,%s,%s\nL%d:\n", nm, s, b, l, tab);
    ins_commit(c, &in, text);
    free(in.pre.p);
    for (int i = 0; i <= limit; i++) {
        arms[i] = new_label();
        bprintf(c->out, "\t.word\tL%d-L%d\n", arms[i], tab);
    }
    State save = *c->st, merged = save;
    c->st->depth++;
    for (int i = -1; i <= limit; i++) {
        *c->st = save;
        if (i >= 0)
            bprintf(c->out, "L%d:\n", arms[i]);
        gen_block(c, (int)rnd(3));
        restore_state(c->out, c->st, &save);
        merge_index(&merged, c->st);
        if (i < limit)
            bprintf(c->out, "\tjbr\tL%d\n", end);
    }
    *c->st = merged;
    c->st->depth--;
    bprintf(c->out, "L%d:\n", end);
}

static void gen_loop(Ctx *c)
{
    if (c->st->in_loop)
        return;
    int n = 1 + (int)rnd(5);
    int top = new_label();
    int k = (int)rnd(6);
    switch (k) {
    case 0: bprintf(c->out, "\tmovl\t$%d,%%r11\n", n); break;
    case 1: bprintf(c->out, "\tmovl\t$%d,%%r11\n", n - 1); break;
    case 2: bprintf(c->out, "\tclrl\t%%r11\n"); break;
    case 3: bprintf(c->out, "\tmovl\t$1,%%r11\n"); break;
    default: bprintf(c->out, "\tmovl\t$%d,%%r11\n", 3 * n); break;
    }
    State save = *c->st;
    c->st->known[10] = 0;
    bprintf(c->out, "L%d:\n", top);
    c->st->in_loop = 1;
    c->st->depth++;
    gen_block(c, 1 + (int)rnd(4));
    c->st->depth--;
    c->st->in_loop = 0;
    State idx = *c->st;
    restore_state(c->out, c->st, &save);
    c->st->known[10] = idx.known[10];
    c->st->val[10] = idx.val[10];
    switch (k) {
    case 0: bprintf(c->out, "\tjsobgtr\t%%r11,L%d\n", top); break;
    case 1: bprintf(c->out, "\tjsobgeq\t%%r11,L%d\n", top); break;
    case 2: bprintf(c->out, "\tjaoblss\t$%d,%%r11,L%d\n", n, top); break;
    case 3: bprintf(c->out, "\tjaobleq\t$%d,%%r11,L%d\n", n, top); break;
    case 4: bprintf(c->out, "\tjacbl\t$1,$-3,%%r11,L%d\n", top); break;
    default:
        if (chance(50))
            bprintf(c->out, "\tjacbw\t$3,I^$0xfffd,%%r11,L%d\n", top);
        else
            bprintf(c->out, "\tjacbb\t$3,$0xfd,%%r11,L%d\n", top);
        break;
    }
}

/* JSB/BSB subroutine (body in the subs buffer, or inline for BSBB). */
static void gen_jsb(Ctx *c)
{
    State *st = c->st;
    if (st->call_depth >= 2 || !sp_room(st, 64))
        return;
    int lab = new_label();
    Ins in;
    memset(&in, 0, sizeof in);
    ins_begin(&in, st);
    char tgt[128], text[300];
    int inl = chance(30);
    if (inl) {
        int over = new_label();
        bprintf(c->out, "\tjbr\tL%d\n", over);
        Buf body = {0};
        State sub = *st;
        sub.val[14] -= 4;
        sub.floor = sub.val[14];
        sub.call_depth++;
        State entry = sub;
        Ctx cc = {&body, &sub};
        bprintf(&body, "L%d:\n", lab);
        gen_block(&cc, 1 + (int)rnd(3));
        restore_state(&body, &sub, &entry);
        bprintf(&body, "\trsb\n");
        bcat(c->out, &body);
        free(body.p);
        bprintf(c->out, "L%d:\n\t%s\tL%d\n", over, chance(50) ? "jbsb" : "bsbw", lab);
        merge_index(st, &sub);
        free(in.pre.p);
        return;
    }
    int k = (int)rnd(3);
    if (k == 0)
        sprintf(text, "\tbsbw\tL%d\n", lab);
    else if (k == 1)
        sprintf(text, "\tjbsb\tL%d\n", lab);
    else {
        code_target(&in.pre, &in.st, lab, tgt);
        sprintf(text, "\tjsb\t%s\n", tgt);
    }
    ins_commit(c, &in, text);
    free(in.pre.p);
    Buf body = {0};
    State sub = *st;
    sub.val[14] -= 4;
    sub.floor = sub.val[14];
    sub.call_depth++;
    State entry = sub;
    Ctx cc = {&body, &sub};
    bprintf(&body, "L%d:\n", lab);
    gen_block(&cc, 2 + (int)rnd(4));
    restore_state(&body, &sub, &entry);
    bprintf(&body, "\trsb\n");
    bcat(&subs, &body);
    free(body.p);
    merge_index(st, &sub);
}

static void gen_call(Ctx *c)
{
    State *st = c->st;
    if (st->call_depth >= 2 || !sp_room(st, 160))
        return;
    int lab = new_label();
    int callg = chance(35);
    unsigned mask = rnd(0x1000) | (chance(20) ? 0x8000 : 0); /* R0-R11, DV; never IV */
    int nsave = __builtin_popcount(mask & 0xFFF);
    uint32_t ap, sp_at;
    int nargs = 0;
    if (!callg) {
        nargs = (int)rnd(4);
        for (int i = 0; i < nargs; i++) {
            Ins in;
            memset(&in, 0, sizeof in);
            ins_begin(&in, st);
            char a[128], text[200];
            if (gen_data(&in, 'r', 'l', a)) {
                sprintf(text, "\tpushl\t%s\n", a);
                in.st.val[14] -= 4;
                ins_commit(c, &in, text);
            } else {
                bprintf(c->out, "\tpushl\t$%d\n", i);
                st->val[14] -= 4;
            }
            free(in.pre.p);
        }
    }
    Ins in;
    memset(&in, 0, sizeof in);
    ins_begin(&in, st);
    char al[128], tgt[128], text[400];
    if (callg) {
        if (!gen_addr(&in, DATA_LO, DATA_HI - 32, 1, 4, 0, al, &ap)) {
            free(in.pre.p);
            return;
        }
    }
    code_target(&in.pre, &in.st, lab, tgt);
    if (callg)
        sprintf(text, "\tcallg\t%s,%s\n", al, tgt);
    else {
        char n[64];
        if (!gen_known(&in, 'l', (uint32_t)nargs, n))
            sprintf(n, "$%d", nargs);
        sprintf(text, "\tcalls\t%s,%s\n", n, tgt);
    }
    ins_commit(c, &in, text);
    free(in.pre.p);
    sp_at = st->val[14];
    State sub = *st;
    if (!callg) {
        ap = sp_at - 4;
        sub.val[14] = (ap & ~3u) - 4 * (uint32_t)nsave - 20;
    } else
        sub.val[14] = (sp_at & ~3u) - 4 * (uint32_t)nsave - 20;
    sub.val[12] = ap;
    sub.val[13] = sub.val[14];
    sub.known[12] = sub.known[13] = 1;
    sub.floor = sub.val[14];
    sub.in_proc = 1;
    sub.call_depth++;
    Buf body = {0};
    Ctx cc = {&body, &sub};
    bprintf(&body, "L%d:\t.word\t0x%x\n", lab, mask);
    gen_block(&cc, 2 + (int)rnd(5));
    State want = *st;
    want.val[14] = sub.val[14];
    for (int r = 6; r <= 9; r++)
        if (mask & (1u << r))
            want.val[r] = sub.val[r];
    restore_state(&body, &sub, &want);
    bprintf(&body, "\tret\n");
    bcat(&subs, &body);
    free(body.p);
    if (!(mask & (1u << 10)))
        merge_index(st, &sub);
    st->val[14] = sp_at + (callg ? 0 : 4 * (uint32_t)nargs);
    /* RET restores SP; the model's SP after the call is exact. */
}

static int gen_simple(Ctx *c)
{
    for (int tries = 0; tries < 50; tries++) {
        switch (rnd(10)) {
        case 0:
        case 1:
            if (groups & G_MOV)
                return gen_generic(c, PICK(mov_ops));
            break;
        case 2:
        case 3:
            if (groups & G_ARITH)
                return gen_generic(c, PICK(arith_ops));
            break;
        case 4:
            if (groups & G_MULDIV) {
                if (chance(15))
                    return gen_ediv(c);
                return gen_generic(c, PICK(muldiv_ops));
            }
            break;
        case 5:
        case 6:
            if (groups & G_LOGIC)
                return gen_generic(c, PICK(logic_ops));
            break;
        case 7:
            if (groups & G_FIELD)
                return gen_field(c);
            break;
        case 8:
            if (groups & G_PSL)
                return gen_psl(c);
            break;
        case 9:
            if (groups & (G_STACK | G_PUSH))
                return gen_stack(c);
            break;
        }
    }
    return 0;
}

static void gen_item(Ctx *c)
{
    int d = c->st->depth;
    switch (rnd(20)) {
    case 0:
    case 1:
        if ((groups & G_BRANCH) && d < 3) {
            gen_branch_over(c);
            return;
        }
        break;
    case 2:
        if ((groups & G_BRANCH) && d < 2) {
            gen_case(c);
            return;
        }
        break;
    case 3:
        if ((groups & G_LOOP) && d < 2) {
            gen_loop(c);
            return;
        }
        break;
    case 4:
        if ((groups & (G_CALL | G_JSB)) && d < 3) {
            if ((groups & G_JSB) && (!(groups & G_CALL) || chance(50)))
                gen_jsb(c);
            else
                gen_call(c);
            return;
        }
        break;
    case 5:
        if ((groups & G_STRING) && chance(60)) {
            gen_string(c);
            return;
        }
        break;
    case 6:
        if ((groups & G_QUEUE) && chance(30)) {
            gen_queue(c);
            return;
        }
        break;
    }
    /* the issue-16 groups: tested before any random number is drawn, so
     * programs of the older groups are what they always were */
    if (groups & G_CATCHING) {
        unsigned g = groups & G_CATCHING;
        if (!(groups & G_OLD) || chance(70)) {
            if ((g & (G_FLOATF | G_FLOATD | G_FLOATG | G_FLOATH)) && chance(50) &&
                gen_float_item(c))
                return;
            if ((g & (G_DECIMAL | G_EDITPC)) && chance(50) && gen_decimal_item(c))
                return;
            if ((g & (G_STRING2 | G_IQUEUE)) && gen_string2_item(c))
                return;
            if (!(groups & G_OLD))
                return; /* only new groups: nothing else to write */
        }
    }
    gen_simple(c);
}

static void gen_block(Ctx *c, int items)
{
    for (int i = 0; i < items; i++)
        gen_item(c);
}

/* ---------- main ---------- */
static unsigned parse_list(const char *s, int which)
{
    unsigned m = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        int found = 0;
        if (!strcmp(t, "all"))
            return ~0u;
        if (which == 0) {
            for (size_t i = 0; i < sizeof group_names / sizeof group_names[0]; i++)
                if (!strcmp(t, group_names[i].name))
                    m |= group_names[i].bit, found = 1;
        } else {
            for (size_t i = 0; i < sizeof mode_names / sizeof mode_names[0]; i++)
                if (!strcmp(t, mode_names[i].name))
                    m |= mode_names[i].bit, found = 1;
        }
        if (!found) {
            fprintf(stderr, "gen_prog: unknown %s '%s'\n", which ? "mode" : "group", t);
            exit(2);
        }
    }
    return m;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: gen_prog --seed N [--groups LIST] [--modes LIST] [--items N] [-o FILE]\n"
               "groups: all");
    for (size_t i = 0; i < sizeof group_names / sizeof group_names[0]; i++)
        fprintf(f, ",%s", group_names[i].name);
    fprintf(f, "\nmodes: all");
    for (size_t i = 0; i < sizeof mode_names / sizeof mode_names[0]; i++)
        fprintf(f, ",%s", mode_names[i].name);
    fprintf(f, "\n");
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    const char *outp = NULL, *gs = "all", *ms = "all";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--groups") && i + 1 < argc)
            gs = argv[++i];
        else if (!strcmp(argv[i], "--modes") && i + 1 < argc)
            ms = argv[++i];
        else if (!strcmp(argv[i], "--items") && i + 1 < argc)
            n_items = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            outp = argv[++i];
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    groups = parse_list(gs, 0);
    modes = parse_list(ms, 1);
    if (!(modes & M_REG) || !(modes & (M_LIT | M_IMM))) {
        fprintf(stderr, "gen_prog: --modes needs reg and lit or imm\n");
        return 2;
    }
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 0x1234567;
    if (!rng_state)
        rng_state = 1;
    for (int i = 0; i < 8; i++)
        rnd64();

    /* initial memory */
    for (uint32_t i = 0; i < sizeof image_data; i++) {
        uint32_t a = DATA_LO + i;
        if (a >= 0x8C00 && a < 0x8E00) {
            static const uint8_t alpha[] = {0, 1, 0x20, 0x41, 0xFF, 0x80};
            image_data[i] = alpha[rnd(6)];
        } else
            image_data[i] = (uint8_t)rnd64();
    }
    for (int i = 0; i < TABLE_N; i++) {
        uint32_t v;
        do
            v = DATA_LO + 8 + rnd(DATA_HI - DATA_LO - 16 - 0x100);
        while ((v & 0xFF) == 0);
        table[i] = v;
    }
    for (int i = 0; i < POOL_N; i++) {
        uint32_t v = 0;
        for (int k = 0; k < 4; k++)
            v |= (1 + rnd(255)) << (8 * k);
        pool[i] = v;
    }

    State st;
    memset(&st, 0, sizeof st);
    uint32_t regs[16];
    for (int r = 0; r < 6; r++)
        regs[r] = edge_value(4);
    for (int r = 6; r <= 8; r++)
        regs[r] = DATA_LO + 0x100 + rnd(0xC00);
    regs[9] = TABLE_LO + 4 * rnd(TABLE_N);
    regs[10] = rnd(8);
    regs[11] = edge_value(4);
    regs[12] = DATA_LO + 0x40 + rnd(0x100);
    regs[13] = DATA_LO + 0x40 + rnd(0x100);
    regs[14] = SP_INIT;
    for (int r = 6; r <= 14; r++) {
        st.known[r] = r != 11;
        st.val[r] = regs[r];
    }
    st.floor = STACK_HI - 16;
    uint32_t psl = 0x041F0000u | rnd(16);

    Buf main_b = {0};
    Ctx c = {&main_b, &st};
    if (groups & G_CATCHING)
        catch_setup(&main_b);
    gen_block(&c, n_items);

    FILE *f = outp ? fopen(outp, "w") : stdout;
    if (!f) {
        perror(outp);
        return 1;
    }
    fprintf(f, "# difftest program: gen_prog --seed %" PRIu64 " --groups %s --modes %s --items %d\n", seed, gs,
            ms, n_items);
    for (int r = 0; r < 15; r++)
        fprintf(f, "# set r%d=0x%08x\n", r, regs[r]);
    fprintf(f, "# psl=0x%08x\n", psl);
    fprintf(f, "# mnegl-sites=%d\n", mnegl_sites);
    fprintf(f, "\t.text\nstart:\n");
    if (main_b.n) /* an empty body has no buffer yet */
        fwrite(main_b.p, 1, main_b.n, f);
    fprintf(f, "\thalt\nLhalt_end:\n\t.align 2\nK:\n");
    for (int i = 0; i < POOL_N; i++)
        fprintf(f, "\t.long\t0x%08x\n", pool[i]);
    if (subs.n)
        fwrite(subs.p, 1, subs.n, f);
    fprintf(f, "\t.org\t0x%x\n\t.long\tLhalt_end\nD:\n", 0x7FFC - 0x1000);
    for (uint32_t i = 0; i < sizeof image_data; i += 16) {
        fprintf(f, "\t.byte\t");
        for (int k = 0; k < 16; k++)
            fprintf(f, "%s0x%02x", k ? "," : "", image_data[i + (uint32_t)k]);
        fprintf(f, "\n");
    }
    fprintf(f, "T:\n");
    for (int i = 0; i < TABLE_N; i++)
        fprintf(f, "\t.long\t0x%x\n", table[i]);
    /* stack area: deterministic contents */
    for (uint32_t a = STACK_LO; a < STACK_HI; a += 16)
        fprintf(f, "\t.long\t0x%x,0x%x,0x%x,0x%x\n", a, a ^ 0x5A5A5A5Au, ~a, a * 2654435761u);
    if (outp)
        fclose(f);
    free(main_b.p);
    free(subs.p);
    return 0;
}
