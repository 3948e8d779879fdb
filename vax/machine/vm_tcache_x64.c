/* The trace compiler (vm_tcache_x64.h): x86-64 code for hot segments of
 * the trace cache (roots and side traces), emitted directly, uop by uop,
 * from the same uops the executor's threaded handlers run; the code
 * memory, whose pages are writable or executable, never both.
 *
 * The code keeps the executor's locals in host registers: m in RBX, the
 * hand-over (struct tcx_state) in R12, r in R13D, s2 in R14D, the
 * reference's host address (mhp) in R15, a in EBP, fl in R10D, psl0 in
 * R11D, the I-stream memo entry in R9, ifast in R8D; RAX, RCX, RDX, RSI
 * and RDI are scratch.  It calls into C only for the ALU's functions it
 * does not write out, the sequencer's generic conditions and the memos'
 * refills (call_c, which keeps R8-R11).  Each uop's code does what its
 * handler's body does (vm_tcache_exec.c, TCB_*), with the uop's cells,
 * offsets and widths as constants; where the handler would take a slow
 * way (a guard off the path, a memo miss the refill cannot serve, a PSL
 * write that moves the IPL or the mode, a loop at the cycle limit) the
 * code leaves before doing anything of that uop, and the executor runs
 * the uop's handler from its start.  Three slow ways are the code's own,
 * out of line: the I-stream read of a specifier byte or operand where
 * the bytes are not known to be the root's, the entry into a side
 * trace's code where a guard fails, and a memo check's refill.  A
 * segment with a uop the compiler does not know is not compiled.  At the
 * segment's end the code takes the IRD point's quick way and the
 * successor check itself and jumps into the successor's code, where it
 * has some, with the locals still in registers: first by a static link to
 * the successor it saw when compiled (compiled with it where warm: the
 * chain), then by the prediction and the table, whose ways are stubs
 * shared by all ends (end_stubs); anything else leaves for tc_run's IRD
 * point. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vax/machine/vm_tcache.h"
#include "vax/machine/vm_tcache_x64.h"

#if TCX_ON

#include <sys/mman.h>
#include <unistd.h>

/* ---- the code memory ---- */

/* the bytes of a root's ifast test (TEST R8D, R8D; JE rel32) */
#define TCX_IFAST_TEST 9

#define TCX_MEM (64u << 20) /* bytes of code: beyond, nothing more is compiled */

/* Code is written into pages that are writable and not executable, a
 * batch of segments at a time; the batch's pages then become executable
 * and not writable (one mprotect), and only then do its segments get
 * their code (xbody, h_native).  One mprotect a segment cost this VM 30
 * µs (0.8 s of system time on the boot to login:). */
#define TCX_BATCH 32

struct vm_tcx {
    uint8_t *mem;      /* TCX_MEM bytes: [0, wlo) read and execute, the rest
                        * read and write (nothing runs from there yet) */
    size_t used;       /* bytes taken (the stubs first) */
    size_t wlo;        /* the first page not made executable */
    size_t pg;         /* the host's page size */
    int broken;        /* the memory could not be had: compile nothing */
    /* the stubs: enter, leave at a uop, leave for the IRD point */
    const uint8_t *enter, *leave;
    /* the ends' shared cold ways (end_stubs) */
    const uint8_t *e_isel, *e_succ, *e_leave, *e_general;
    /* the batch written and not yet executable: the segments, their code */
    struct tc_trace *pend[TCX_BATCH];
    size_t pend_off[TCX_BATCH];
    uint32_t pend_loop[TCX_BATCH]; /* its loop's first uop's code (0: none) */
    int npend;
    const void *native; /* the executor's h_native */
    uint64_t traces, ns;
};

/* ---- an x86-64 encoder: the few forms the uops need ---- */

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15 };
/* condition codes (the low nibble of Jcc and SETcc) */
enum { CC_O = 0, CC_B = 2, CC_AE = 3, CC_E = 4, CC_NE = 5, CC_BE = 6, CC_A = 7, CC_S = 8 };
/* ALU group 1 (the /n of 0x81, and op = n * 8 + 1 for reg, reg) */
enum { G_ADD = 0, G_OR = 1, G_AND = 4, G_SUB = 5, G_XOR = 6, G_CMP = 7 };

struct em {
    uint8_t *p, *end;  /* the code being written (into a scratch buffer) */
    int over;          /* it did not fit */
};

static void b1(struct em *e, unsigned v)
{
    if (e->p < e->end)
        *e->p++ = (uint8_t)v;
    else
        e->over = 1;
}
static void b4(struct em *e, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b1(e, v >> (8 * i));
}
static void b8(struct em *e, uint64_t v)
{
    b4(e, (uint32_t)v);
    b4(e, (uint32_t)(v >> 32));
}
/* REX where needed (w: 64-bit operand; byte: a byte register above BL) */
static void rex(struct em *e, int w, int reg, int index, int base, int byte)
{
    unsigned x = 0x40u | (w ? 8u : 0) | ((reg & 8) ? 4u : 0) | ((index & 8) ? 2u : 0) |
                 ((base & 8) ? 1u : 0);
    if (x != 0x40u || byte)
        b1(e, x);
}
/* ModRM (and SIB) for [base + disp] */
static void mem(struct em *e, int reg, int base, int32_t disp)
{
    unsigned mod = disp == 0 && (base & 7) != RBP ? 0u : disp >= -128 && disp < 128 ? 1u : 2u;
    b1(e, mod << 6 | (unsigned)(reg & 7) << 3 | (unsigned)(base & 7));
    if ((base & 7) == RSP)
        b1(e, 0x24);
    if (mod == 1)
        b1(e, (uint8_t)disp);
    else if (mod == 2)
        b4(e, (uint32_t)disp);
}
/* ModRM and SIB for [base + index * 4 + disp32] */
static void mem_x4(struct em *e, int reg, int base, int index, int32_t disp)
{
    b1(e, 2u << 6 | (unsigned)(reg & 7) << 3 | 4u);
    b1(e, 2u << 6 | (unsigned)(index & 7) << 3 | (unsigned)(base & 7));
    b4(e, (uint32_t)disp);
}
/* ModRM and SIB for [base + index + disp] (base not RBP or R13 with no
 * displacement: always one here) */
static void mem_bi(struct em *e, int reg, int base, int index, int32_t disp)
{
    unsigned mod = disp >= -128 && disp < 128 ? 1u : 2u;
    b1(e, mod << 6 | (unsigned)(reg & 7) << 3 | 4u);
    b1(e, (unsigned)(index & 7) << 3 | (unsigned)(base & 7));
    if (mod == 1)
        b1(e, (uint8_t)disp);
    else
        b4(e, (uint32_t)disp);
}
static void modrr(struct em *e, int reg, int rm)
{
    b1(e, 0xC0u | (unsigned)(reg & 7) << 3 | (unsigned)(rm & 7));
}
/* op reg, [base + disp] (and the other way), 32 or 64 bits */
static void op_rm(struct em *e, int w, unsigned op, int reg, int base, int32_t disp)
{
    rex(e, w, reg, 0, base, 0);
    b1(e, op);
    mem(e, reg, base, disp);
}
/* op reg, [base + index + disp] (and the other way) */
static void op_rmi(struct em *e, int w, unsigned op, int reg, int base, int index, int32_t disp)
{
    rex(e, w, reg, index, base, 0);
    b1(e, op);
    mem_bi(e, reg, base, index, disp);
}
/* op_rmi, or op_rm where index is NOIDX */
#define NOIDX (-1)
static void op_rmx(struct em *e, int w, unsigned op, int reg, int base, int index, int32_t disp)
{
    if (index == NOIDX)
        op_rm(e, w, op, reg, base, disp);
    else
        op_rmi(e, w, op, reg, base, index, disp);
}
#define LD32(e, r, b, d) op_rm(e, 0, 0x8B, r, b, d)
#define ST32(e, b, d, r) op_rm(e, 0, 0x89, r, b, d)
#define LD64(e, r, b, d) op_rm(e, 1, 0x8B, r, b, d)
#define ST64(e, b, d, r) op_rm(e, 1, 0x89, r, b, d)
/* op dst, src (register to register: 0x01 ADD, 0x09 OR, 0x21 AND, 0x29
 * SUB, 0x31 XOR, 0x39 CMP, 0x85 TEST, 0x89 MOV) */
static void op_rr(struct em *e, int w, unsigned op, int dst, int src)
{
    rex(e, w, src, 0, dst, 0);
    b1(e, op);
    modrr(e, src, dst);
}
#define MOV32(e, d, s) op_rr(e, 0, 0x89, d, s)
/* group 1 with an immediate: reg, or [base + disp] */
static void g1_ri(struct em *e, int w, unsigned g, int reg, int32_t imm)
{
    rex(e, w, 0, 0, reg, 0);
    if (imm >= -128 && imm < 128) {
        b1(e, 0x83);
        modrr(e, (int)g, reg);
        b1(e, (uint8_t)imm);
    } else {
        b1(e, 0x81);
        modrr(e, (int)g, reg);
        b4(e, (uint32_t)imm);
    }
}
static void g1_mi(struct em *e, int w, unsigned g, int base, int32_t disp, int32_t imm)
{
    rex(e, w, 0, 0, base, 0);
    if (imm >= -128 && imm < 128) {
        b1(e, 0x83);
        mem(e, (int)g, base, disp);
        b1(e, (uint8_t)imm);
    } else {
        b1(e, 0x81);
        mem(e, (int)g, base, disp);
        b4(e, (uint32_t)imm);
    }
}
/* TEST reg, imm32 */
static void test_ri(struct em *e, int reg, uint32_t imm)
{
    rex(e, 0, 0, 0, reg, 0);
    if (reg == RAX) {
        b1(e, 0xA9);
    } else {
        b1(e, 0xF7);
        modrr(e, 0, reg);
    }
    b4(e, imm);
}
static void mov_ri(struct em *e, int reg, uint32_t imm)
{
    rex(e, 0, 0, 0, reg, 0);
    b1(e, 0xB8u + (unsigned)(reg & 7));
    b4(e, imm);
}
static void mov_ri64(struct em *e, int reg, uint64_t imm)
{
    rex(e, 1, 0, 0, reg, 0);
    b1(e, 0xB8u + (unsigned)(reg & 7));
    b8(e, imm);
}
/* MOV dword [base + disp], imm32 */
static void st32_i(struct em *e, int base, int32_t disp, uint32_t imm)
{
    rex(e, 0, 0, 0, base, 0);
    b1(e, 0xC7);
    mem(e, 0, base, disp);
    b4(e, imm);
}
/* MOV qword [base + disp], imm32 (sign-extended) */
static void st64_i(struct em *e, int base, int32_t disp, int32_t imm)
{
    rex(e, 1, 0, 0, base, 0);
    b1(e, 0xC7);
    mem(e, 0, base, disp);
    b4(e, (uint32_t)imm);
}
/* MOV word [base + disp], imm16 */
static void st16_i(struct em *e, int base, int32_t disp, uint16_t imm)
{
    b1(e, 0x66);
    rex(e, 0, 0, 0, base, 0);
    b1(e, 0xC7);
    mem(e, 0, base, disp);
    b1(e, imm & 0xFF);
    b1(e, imm >> 8);
}
/* shifts by an immediate (/4 SHL, /5 SHR, /7 SAR, /0 ROL) or by CL */
static void shift_ri(struct em *e, unsigned g, int reg, unsigned n)
{
    rex(e, 0, 0, 0, reg, 0);
    b1(e, 0xC1);
    modrr(e, (int)g, reg);
    b1(e, n);
}
static void shift_rcl(struct em *e, unsigned g, int reg)
{
    rex(e, 0, 0, 0, reg, 0);
    b1(e, 0xD3);
    modrr(e, (int)g, reg);
}
static void not_r(struct em *e, int reg)
{
    rex(e, 0, 0, 0, reg, 0);
    b1(e, 0xF7);
    modrr(e, 2, reg);
}
/* MOVZX / MOVSX dst, the low byte or word of src */
static void ext_rr(struct em *e, unsigned op2, int dst, int src)
{
    rex(e, 0, dst, 0, src, op2 == 0xB6 || op2 == 0xBE ? src >= 4 : 0);
    b1(e, 0x0F);
    b1(e, op2);
    modrr(e, dst, src);
}
/* MOVZX dst, byte (n 1) or word (n 2) [base + disp] */
static void ldzx(struct em *e, int dst, int base, int32_t disp, unsigned n)
{
    rex(e, 0, dst, 0, base, 0);
    b1(e, 0x0F);
    b1(e, n == 1 ? 0xB6 : 0xB7);
    mem(e, dst, base, disp);
}
static void setcc(struct em *e, unsigned cc, int reg)
{
    rex(e, 0, 0, 0, reg, reg >= 4);
    b1(e, 0x0F);
    b1(e, 0x90u + cc);
    modrr(e, 0, reg);
}
/* LEA dst32, [base + index * scale] */
static void lea_x(struct em *e, int dst, int base, int index, unsigned scale_log)
{
    rex(e, 0, dst, index, base, 0);
    b1(e, 0x8D);
    b1(e, 0x04u | (unsigned)(dst & 7) << 3);
    b1(e, scale_log << 6 | (unsigned)(index & 7) << 3 | (unsigned)(base & 7));
    if ((base & 7) == RBP) /* (needs a displacement: none here) */
        e->over = 1;
}
/* a forward jump: its rel32's place, patched by `here` */
static uint8_t *jcc_fwd(struct em *e, unsigned cc)
{
    b1(e, 0x0F);
    b1(e, 0x80u + cc);
    uint8_t *at = e->p;
    b4(e, 0);
    return at;
}
static uint8_t *jmp_fwd(struct em *e)
{
    b1(e, 0xE9);
    uint8_t *at = e->p;
    b4(e, 0);
    return at;
}
/* the rel32 at `at`, in e's buffer, whose code runs `off` bytes from
 * where it is written, to run address `to` */
static void rel_to(struct em *e, uint8_t *at, uint64_t off, const uint8_t *to)
{
    if (!at || e->over || at + 4 > e->end)
        return;
    int32_t rel = (int32_t)((uint64_t)(uintptr_t)to - ((uint64_t)(uintptr_t)(at + 4) + off));
    memcpy(at, &rel, 4);
}
static void patch_to(struct em *e, uint8_t *at, const uint8_t *to)
{
    rel_to(e, at, 0, to);
}
static void here(struct em *e, uint8_t *at)
{
    patch_to(e, at, e->p);
}
/* a jump to code already written at `to` (rel32; the scratch buffer is
 * copied whole, so distances inside it hold) */
static void jmp_to(struct em *e, const uint8_t *to)
{
    patch_to(e, jmp_fwd(e), to);
}
/* CALL rel32, to be patched (as jmp_fwd) */
static uint8_t *call_fwd(struct em *e)
{
    uint8_t *at = jmp_fwd(e);
    if (!e->over)
        at[-1] = 0xE8;
    return at;
}
/* JMP reg (below R8) */
static void jmp_r(struct em *e, int reg)
{
    b1(e, 0xFF);
    modrr(e, 4, reg);
}
static void push_r(struct em *e, int reg)
{
    rex(e, 0, 0, 0, reg, 0);
    b1(e, 0x50u + (unsigned)(reg & 7));
}
static void pop_r(struct em *e, int reg)
{
    rex(e, 0, 0, 0, reg, 0);
    b1(e, 0x58u + (unsigned)(reg & 7));
}

/* ---- the locals' registers and the hand-over ---- */

enum { RM = RBX, RST = R12, RR = R13, RS2 = R14, RMHP = R15, RA = RBP, RFL = R10,
       RPSL0 = R11, RMI = R9, RIF = R8 };
#define SOFF(f) ((int32_t)offsetof(struct tcx_state, f))
#define MOFF(f) ((int32_t)offsetof(struct vax_machine, f))

/* ---- the compiler's view of one trace ---- */

struct cx {
    struct em e;
    const struct vax_machine *m;
    const struct tc_trace *t;
    const void *const *tab;
    const uint8_t *base;  /* where the code will run: e's buffer maps onto it */
    const uint8_t *leave; /* the stub that leaves at a uop (rax u, rdx h) */
    uint8_t *ubeg;        /* the scratch buffer's start */
    /* exits: the uop, and the jumps that go to its exit */
    struct xit {
        int i;
        uint8_t *at;
    } *x;
    int nx, capx;
    uint8_t **lab;        /* each uop's code (NULL: not compiled) */
    /* the other ways of SPEC and IB, written after the body */
    struct cold {
        int i, side;          /* side: 1 a guard's other way (side_cold), 2 a
                               * memo refill (refill_cold), 0 a byte (ibyte_cold) */
        uint8_t *at;
        const uint8_t *back;
        int32_t to;           /* refill: the memo table's offset, n bytes, */
        unsigned n, w;        /* a write (w); back: after the check */
    } *cold;
    int ncold;
    /* the segments compiled together with this one (linkable: their code
     * will be in this batch), and the static links of the ends to a
     * successor's code, resolved once every piece is written */
    struct chain *ch;        /* (and in it, the code memory: the end stubs) */
    /* the UNDO log's count where the code is (log_n), known: a root's
     * code starts at an IRD point, which leaves it 0, and only its STRN
     * and CLRLOG change it (-1: not known, a side segment's or where a
     * LOOP goes round; log_known) */
    int logn;
    /* the cache set of the I-stream memo entry in R9 has its LRU as a
     * reference through it leaves it, and nothing else referred to the
     * cache since: another I-stream reference through R9 need not write
     * it again (lru_fresh) */
    int fresh;
    /* the segment's code runs only with ifast set (a root whose bytes are
     * known at entry, without a loop: the code tests it first), so that
     * its SPEC and IB uops need no test of their own */
    int ifast;
    /* R9 is the I-stream memo entry the code was entered with, that of
     * the opcode's line (whose host address the IRD point that entered
     * this root compared), and nothing since moved R9 or emptied that
     * entry: a root without a LOOP whose bytes all lie in that line (no
     * SPECL or IBL) and whose I-stream reads take no slow way
     * (ibyte_cold); a memo refill keeps R9's line (vm_memo_refill_miss),
     * and any other way the memos change leaves the code first (end_x:
     * a successor in the same line) */
    int r9line;
    /* R8D (ifast) is 1 here: the code of a root that runs only with it
     * set (ifast) and wrote no memory since (WR clears it) */
    int rif1;
    /* the code ends at kst_at with the store of constant kst_v to the
     * cell at byte offset kst_k, uop kst_i's (a KR's) */
    const uint8_t *kst_at;
    uint32_t kst_k, kst_v;
    int kst_i;
    int head; /* a LOOP's first uop, which its end jumps to (-1: none) */
};

/* The segments of one compile: the one that came due and the successors
 * that followed it, warm, each with code of its own (vm_tcx_compile), and
 * each end's static link: a JMP (rel32 at `at`) into the code of the
 * successor `to` that its end recognised when it was compiled, or, where
 * that successor ends up with no code, to the end's dynamic way (`dyn`). */
#define TCX_CHAIN 8
struct chain {
    const struct vm_tcx *x;
    struct tc_trace *seg[TCX_CHAIN];
    uint8_t *code[TCX_CHAIN]; /* each one's code in the buffer (NULL: none) */
    uint8_t *loop[TCX_CHAIN]; /* its loop's first uop's code (NULL: none) */
    int n;
    struct lnk {
        uint8_t *chk, *at, *dyn; /* (chk: the static check's first byte) */
        const struct tc_trace *to;
    } lnk[TCX_CHAIN];
    int nlnk;
};

/* where the code at scratch address p will run */
static uint64_t run_off(const struct cx *c)
{
    return (uint64_t)(uintptr_t)c->base - (uint64_t)(uintptr_t)c->ubeg;
}

/* JMP to code outside the buffer, at run address `to` (the stubs) */
static void jmp_run(struct cx *c, const uint8_t *to)
{
    rel_to(&c->e, jmp_fwd(&c->e), run_off(c), to);
}

/* a jump (condition cc, or always: cc < 0) to the exit at uop i, written
 * out of line after the body */
static void exit_if(struct cx *c, int cc, int i)
{
    uint8_t *at = cc < 0 ? jmp_fwd(&c->e) : jcc_fwd(&c->e, (unsigned)cc);
    if (c->nx == c->capx) {
        c->e.over = 1;
        return;
    }
    c->x[c->nx].i = i;
    c->x[c->nx].at = at;
    c->nx++;
}

/* a cell's byte offset in the machine, or -1 where it is not in it (a
 * trace's constant) */
static int64_t moff(const struct cx *c, const void *p)
{
    const char *q = p, *b = (const char *)c->m;
    if (q >= b && q + 4 <= b + sizeof *c->m)
        return q - b;
    return -1;
}
/* reg = *p (a cell outside the machine is one of the trace's constants,
 * which nothing writes once the trace is built: its value goes in the
 * code) */
static void ld_cell(struct cx *c, int reg, const uint32_t *p)
{
    int64_t o = moff(c, p);
    if (o >= 0)
        LD32(&c->e, reg, RM, (int32_t)o);
    else
        mov_ri(&c->e, reg, *p);
}
/* *p = reg (reg is not RSI; a destination is a cell of the machine) */
static void st_cell(struct cx *c, const uint32_t *p, int reg)
{
    int64_t o = moff(c, p);
    if (o >= 0) {
        ST32(&c->e, RM, (int32_t)o, reg);
        return;
    }
    mov_ri64(&c->e, RSI, (uint64_t)(uintptr_t)p);
    ST32(&c->e, RSI, 0, reg);
}
/* the cell at byte offset k of the machine = reg, a uop's destination;
 * nothing where it is the sink, which no uop or handler reads (a bus
 * latch, not state: the lock-step checker leaves it out too) */
static void st_k(struct em *e, uint32_t k, int reg)
{
    if (k != MOFF(rf_sink))
        ST32(e, RM, (int32_t)k, reg);
}
/* the same with a value known when compiled */
static void st_k_i(struct em *e, uint32_t k, uint32_t v)
{
    if (k != MOFF(rf_sink))
        st32_i(e, RM, (int32_t)k, v);
}
/* gpr_write's merge for a byte or word (wd 0, 1): dst's other bytes
 * and src's low ones (through EDX) */
static void merge_x(struct em *e, int dst, int src, unsigned wd)
{
    uint32_t mask = wd == 0 ? 0xFFu : 0xFFFFu;
    g1_ri(e, 0, G_AND, dst, (int32_t)~mask);
    MOV32(e, RDX, src);
    g1_ri(e, 0, G_AND, RDX, (int32_t)mask);
    op_rr(e, 0, 0x09, dst, RDX);
}
/* gpr_write(p, v, wd): v in reg (not RCX, RDX, RSI) */
static void gpr_write_x(struct cx *c, const uint32_t *p, int reg, unsigned wd)
{
    if (wd >= 2) {
        st_cell(c, p, reg);
        return;
    }
    ld_cell(c, RCX, p);
    merge_x(&c->e, RCX, reg, wd);
    st_cell(c, p, RCX);
}

/* fl (R10D) from the host's flags just set: C, V, Z, N as F_C.. F_N
 * (MOV leaves the flags alone, so the registers are cleared after); cmp:
 * ESI also the CC that CMP sets from them (N xor V, Z, C: cc_x's way
 * with nz 2) */
static void flags_to_fl(struct em *e, int cmp)
{
    mov_ri(e, RDX, 0);
    mov_ri(e, RCX, 0);
    mov_ri(e, RSI, 0);
    mov_ri(e, RDI, 0);
    setcc(e, CC_B, RDX);
    setcc(e, CC_O, RCX);
    setcc(e, CC_E, RSI);
    setcc(e, CC_S, RDI);
    if (cmp) {
        _Static_assert(F_C == 1 && F_V == 2 && F_Z == 4 && F_N == 8, "the CC bits");
        lea_x(e, RDX, RDX, RSI, 2); /* C + Z */
        lea_x(e, RSI, RDX, RCX, 1); /* + V */
        lea_x(e, RFL, RSI, RDI, 3); /* + N: fl */
        op_rr(e, 0, 0x31, RDI, RCX); /* N xor V */
        lea_x(e, RSI, RDX, RDI, 3);
        return;
    }
    lea_x(e, RDX, RDX, RCX, 1);
    lea_x(e, RDX, RDX, RSI, 2);
    lea_x(e, RFL, RDX, RDI, 3);
}

/* The same where the function leaves C and V clear (a pass, a logical
 * function, an extension, a shift: so do the host's flags): N and Z. */
static void flags_nz_to_fl(struct em *e)
{
    mov_ri(e, RDX, 0);
    mov_ri(e, RFL, 0);
    setcc(e, CC_E, RDX);
    setcc(e, CC_S, RFL);
    lea_x(e, RFL, RDX, RFL, 1); /* Z + 2N */
    shift_ri(e, 4, RFL, 2);
}

/* PSL's cell with its bits clr cleared and those of reg set, through
 * ECX: one load and one store (the host stores at most two a cycle,
 * and the compiled code has many: two AND and OR in place on the cell
 * cost a store more) */
static void psl_cc_x(struct em *e, uint32_t clr, int reg)
{
    LD32(e, RCX, RM, MOFF(psl));
    g1_ri(e, 0, G_AND, RCX, (int32_t)~clr);
    op_rr(e, 0, 0x09, RCX, reg);
    ST32(e, RM, MOFF(psl), RCX);
}

/* set_cc(m, cc, fl, r) for CC controls ARITH .. NZVC0; nz: fl holds N
 * and Z alone (flags_nz_to_fl), or, 2 with CMP, ESI holds its CC
 * (flags_to_fl's cmp).  (Clobbers RCX, RDX.) */
static int cc_x(struct em *e, unsigned cc, int nz)
{
    uint32_t clr, keep;
    if (nz == 2 && cc == UCC_CMP) {
        psl_cc_x(e, 0xF, RSI);
        return 0;
    }
    switch (cc) {
    case UCC_ARITH: clr = 0xF; keep = 0xF; break;
    case UCC_LOGIC: clr = 0xE; keep = F_N | F_Z; break;
    case UCC_TEST: clr = 0xF; keep = F_N | F_Z; break;
    case UCC_CMP: clr = 0xF; keep = F_Z | F_C; break;
    case UCC_NZV: clr = 0xE; keep = F_N | F_Z | F_V; break;
    case UCC_NZVC0: clr = 0xF; keep = F_N | F_Z | F_V; break;
    default: return -1;
    }
    if (nz && (keep & (F_N | F_Z)) == (F_N | F_Z) && cc != UCC_CMP) {
        psl_cc_x(e, clr, RFL); /* (nothing else in fl to mask) */
        return 0;
    }
    MOV32(e, RDX, RFL);
    g1_ri(e, 0, G_AND, RDX, (int32_t)keep);
    if (cc == UCC_CMP) { /* N: N xor V */
        MOV32(e, RCX, RFL);
        shift_ri(e, 4, RCX, 2);
        op_rr(e, 0, 0x31, RCX, RFL);
        g1_ri(e, 0, G_AND, RCX, F_N);
        op_rr(e, 0, 0x09, RDX, RCX);
    }
    psl_cc_x(e, clr, RDX);
    return 0;
}

/* The ALU: function f at width wd on a (EBP, already loaded) and the
 * cell b; the result to EAX, fl to R10D where fl.  0, or -1 where the
 * compiler does not know this function in this form. */
static int alu_x(struct cx *c, unsigned f, unsigned wd, int fl, int cmp, const uint32_t *pb)
{
    struct em *e = &c->e;
    unsigned sh = wd == 0 ? 24 : wd == 1 ? 16 : 0; /* flags at the width: at the top */
    if (wd > 2)
        return -1;
    switch (f) {
    case UA_PASSA: case UA_PASSB: case UA_ADD: case UA_SUB: case UA_AND: case UA_OR:
    case UA_XOR: case UA_BIC:
        if (f != UA_PASSA)
            ld_cell(c, RCX, pb);
        MOV32(e, RAX, f == UA_PASSB ? RCX : RA);
        if (f == UA_BIC)
            not_r(e, RCX);
        if (sh) {
            shift_ri(e, 4, RAX, sh);
            if (f != UA_PASSA && f != UA_PASSB)
                shift_ri(e, 4, RCX, sh);
        }
        switch (f) {
        case UA_ADD: op_rr(e, 0, 0x01, RAX, RCX); break;
        case UA_SUB: op_rr(e, 0, 0x29, RAX, RCX); break;
        case UA_AND: case UA_BIC: op_rr(e, 0, 0x21, RAX, RCX); break;
        case UA_OR: op_rr(e, 0, 0x09, RAX, RCX); break;
        case UA_XOR: op_rr(e, 0, 0x31, RAX, RCX); break;
        default: op_rr(e, 0, 0x85, RAX, RAX); break; /* (PASS: the flags) */
        }
        if (fl && (f == UA_ADD || f == UA_SUB))
            flags_to_fl(e, cmp);
        else if (fl)
            flags_nz_to_fl(e);
        if (sh)
            shift_ri(e, 5, RAX, sh);
        return 0;
    case UA_SEXT: case UA_ZEXT:
        if (wd == 2)
            MOV32(e, RAX, RA);
        else
            ext_rr(e, f == UA_SEXT ? (wd == 0 ? 0xBE : 0xBF) : (wd == 0 ? 0xB6 : 0xB7), RAX, RA);
        if (fl) {
            op_rr(e, 0, 0x85, RAX, RAX);
            flags_nz_to_fl(e);
        }
        return 0;
    case UA_PACK: /* A's low half above B's */
        if (wd != 2)
            return -1;
        ld_cell(c, RCX, pb);
        MOV32(e, RAX, RA);
        shift_ri(e, 4, RAX, 16);
        ext_rr(e, 0xB7, RCX, RCX);
        op_rr(e, 0, 0x09, RAX, RCX);
        if (fl)
            flags_nz_to_fl(e);
        return 0;
    case UA_SHL: case UA_SHR: case UA_ROTL: case UA_SAR: case UA_MASK: {
        if (wd != 2)
            return -1;
        ld_cell(c, RCX, pb);
        if (f == UA_MASK) { /* 2^n - 1, all ones from 32 */
            mov_ri(e, RAX, 1);
            shift_rcl(e, 4, RAX);
            g1_ri(e, 0, G_SUB, RAX, 1);
        } else {
            MOV32(e, RAX, RA);
            if (f == UA_SAR) { /* counts past 31: 31 */
                g1_ri(e, 0, G_AND, RCX, 63);
                g1_ri(e, 0, G_CMP, RCX, 31);
                uint8_t *j = jcc_fwd(e, CC_BE);
                mov_ri(e, RCX, 31);
                here(e, j);
            }
            shift_rcl(e, f == UA_SHL ? 4 : f == UA_SHR ? 5 : f == UA_SAR ? 7 : 0, RAX);
        }
        if (f == UA_SHL || f == UA_SHR || f == UA_MASK) { /* a count of 32 to 63 */
            test_ri(e, RCX, 32);
            uint8_t *j = jcc_fwd(e, CC_E);
            mov_ri(e, RAX, f == UA_MASK ? 0xFFFFFFFFu : 0);
            here(e, j);
        }
        if (fl) { /* N and Z of the result, V and C clear */
            op_rr(e, 0, 0x85, RAX, RAX);
            flags_nz_to_fl(e);
        }
        return 0;
    }
    default:
        return -1;
    }
}

/* ---- calls into C from the code: functions the compiler does not
 * write out (the ALU's other functions, the sequencer's conditions) ---- */

/* the ALU function f at width wd (fw = wd << 16 | f): the result, and
 * the flags above it */
static uint64_t tcx_alu(struct vax_machine *m, uint32_t fw, uint32_t a, uint32_t b)
{
    unsigned fl = 0;
    uint32_t r = alu(m, fw & 0xFFFF, a, b, fw >> 16, &fl);
    return (uint64_t)fl << 32 | r;
}

/* a memo check's refill (refill_cold): vm_memo_refill_cross's answer,
 * else, for a line that is a cache miss, 1 where vm_memo_refill_miss
 * takes it (below the hand-over's lim2; not evicting the I-stream line
 * of entry keep, R9, which the code may read without a check) */
static uintptr_t tcx_refill(struct vax_machine *m, struct vm_memo *tab, uint32_t va,
                            uint32_t nw, const struct tcx_state *s, const struct vm_memo *keep)
{
    uintptr_t r = vm_memo_refill_cross(m, tab, va, nw);
    if (r)
        return r;
    uint64_t c0 = m->st.microcycles;
    r = (uintptr_t)vm_memo_refill_miss(m, tab, va, nw & 15, (int)(nw >> 4), s->lim2, keep);
    m->tc_interp += m->st.microcycles - c0; /* (the stall: no word of a trace's) */
    return r;
}

/* an end's opcode fetch whose line is not in its memo entry (e_isel):
 * refilled where it is a cache and TB hit (vm_memo_irefill), else, a
 * cache miss, made as the fetch makes it below the hand-over's ev
 * (vm_memo_irefill_miss); 0: neither */
static int tcx_ifill(struct vax_machine *m, uint32_t pc, const struct tcx_state *s)
{
    if (vm_memo_irefill(m, pc))
        return 1;
    uint64_t c0 = m->st.microcycles;
    int r = vm_memo_irefill_miss(m, pc, s->ev);
    m->tc_interp += m->st.microcycles - c0; /* (the stall: no word of a trace's) */
    return r;
}

/* the micro-branch condition c of word w: 0 or 1 */
static uint64_t tcx_cond(struct vax_machine *m, uint32_t c, uint32_t fl, uint32_t psl,
                         uint32_t a, const struct uword *w)
{
    return vm_cond(m, c, fl, psl, a, w) != 0;
}

/* a call of fn (its arguments in RDI, RSI, RDX, RCX, R8, R9 as set by
 * `args` after R8-R11 are saved): the locals in R8-R11 are the caller's
 * to keep; the stack stays aligned (six pushes at the entry, four here,
 * and eight bytes) */
static void call_c_pad(struct em *e, const void *fn, int pad)
{
    mov_ri64(e, RAX, (uint64_t)(uintptr_t)fn);
    if (pad)
        g1_ri(e, 1, G_SUB, RSP, pad);
    b1(e, 0xFF); /* call rax */
    modrr(e, 2, RAX);
    if (pad)
        g1_ri(e, 1, G_ADD, RSP, pad);
    pop_r(e, R11);
    pop_r(e, R10);
    pop_r(e, R9);
    pop_r(e, R8);
}
static void call_c(struct em *e, const void *fn)
{
    call_c_pad(e, fn, 8);
}
static void save_r8_r11(struct em *e)
{
    push_r(e, R8);
    push_r(e, R9);
    push_r(e, R10);
    push_r(e, R11);
}


/* The usual ALU uop, at L and without flags, written in r (R13D)
 * itself, B from its cell or as an immediate (a already in EBP, and in
 * r for ALUR): 1 where f is one it writes so, else 0 with nothing
 * written.  Shifts and rotates only by a count the trace knows, with
 * alu()'s rules: SHL and SHR by 32 to 63 give 0, SAR shifts 31 at most,
 * ROTL counts modulo 32. */
static int alu_in_r(struct cx *c, const struct tc_uop *u, unsigned f, int alur)
{
    struct em *e = &c->e;
    int64_t ob = moff(c, u->p2); /* B's cell, or -1: a constant of the trace */
    unsigned g;
    switch (f) {
    case UA_ADD: g = G_ADD; break;
    case UA_SUB: g = G_SUB; break;
    case UA_AND: g = G_AND; break;
    case UA_OR: g = G_OR; break;
    case UA_XOR: g = G_XOR; break;
    case UA_PASSA:
        if (!alur)
            MOV32(e, RR, RA);
        return 1;
    case UA_PASSB:
        ld_cell(c, RR, u->p2);
        return 1;
    case UA_BIC: /* r = a & ~b */
        if (ob < 0) {
            if (!alur)
                MOV32(e, RR, RA);
            g1_ri(e, 0, G_AND, RR, (int32_t)~*u->p2);
        } else {
            ld_cell(c, RR, u->p2);
            not_r(e, RR);
            op_rr(e, 0, 0x21, RR, RA); /* and r, a */
        }
        return 1;
    case UA_SHL: case UA_SHR: case UA_SAR: case UA_ROTL: {
        if (ob >= 0)
            return 0;
        unsigned n = *u->p2 & 63, gs = f == UA_SHL ? 4 : f == UA_SHR ? 5 : f == UA_SAR ? 7 : 0;
        if (f == UA_SAR && n > 31)
            n = 31;
        if (f == UA_ROTL)
            n &= 31;
        if (n >= 32) {
            mov_ri(e, RR, 0);
            return 1;
        }
        if (!alur)
            MOV32(e, RR, RA);
        if (n)
            shift_ri(e, gs, RR, n);
        return 1;
    }
    default:
        return 0;
    }
    if (!alur)
        MOV32(e, RR, RA);
    if (ob >= 0) /* op r, [m + ob]: the reg <- r/m form, 8 * g + 3 */
        op_rm(e, 0, 8u * g + 3u, RR, RM, (int32_t)ob);
    else
        g1_ri(e, 0, g, RR, (int32_t)*u->p2);
    return 1;
}

/* Which of the locals a (1), r (2) and fl (4) the uop at j sets before
 * it reads any of them, with no way out of the code before (KR; an ALU
 * uop of TU_ALU_BASE's, which loads a from its cell and computes r, and
 * fl where it has flags): the uop before it, with no way out either,
 * need not set those. */
static unsigned sets_first(const struct cx *c, int j)
{
    if (j >= (int)c->t->nuops)
        return 0;
    unsigned op = c->t->op0[j];
    if (op == TU_KR)
        return 1u | 2u | (tc_uops(c->t)[j].x ? 4u : 0u);
    if (op >= TU_ALU_BASE && op < TU_ALUR_BASE)
        return 1u | 2u | ((op - TU_ALU_BASE) % TC_ALU_VARS >= 1 ? 4u : 0u);
    return 0;
}
/* the ALU uop: ALU (f, wd, v) with a from the cell p1 (or r: ALUR), the
 * result to the cell at k (and r), the flags, the CC control */
static int alu_uop(struct cx *c, const struct tc_uop *u, unsigned f, unsigned wd, unsigned v,
                   int alur, unsigned dead)
{
    struct em *e = &c->e;
    if (alur)
        MOV32(e, RA, RR);
    else
        ld_cell(c, RA, u->p1);
    if (v == 0 && wd == 2 && alu_in_r(c, u, f, alur)) {
        st_k(e, u->k, RR);
        return 0;
    }
    int cmp = v == 2 + (UCC_CMP - UCC_ARITH) && (f == UA_ADD || f == UA_SUB);
    if (alu_x(c, f, wd, v >= 1, cmp, u->p2))
        return -1;
    if (!(dead & 2))
        MOV32(e, RR, RAX);
    st_k(e, u->k, RAX);
    if (v >= 2 && cc_x(e, UCC_ARITH + (v - 2), cmp ? 2 : f != UA_ADD && f != UA_SUB))
        return -1;
    return 0;
}

/* the ALU function codes of TC_ALU_FNS, TC_ALUR_FNS */
static const uint8_t alu_fns[] = {
#define TCX_UA(n) UA_##n,
    TC_ALU_FNS(TCX_UA)
};
static const uint8_t alur_fns[] = {TC_ALUR_FNS(TCX_UA)};
#undef TCX_UA

/* TC_GPSL: the word's starting PSL (y) or the PSL, into EAX */
static void gpsl(struct cx *c, const struct tc_uop *u)
{
    if (u->y)
        MOV32(&c->e, RAX, RPSL0);
    else
        LD32(&c->e, RAX, RM, MOFF(psl));
}
/* the host's flags of a test of TC_GPSL's bits imm, where they lie */
static void gpsl_test(struct cx *c, const struct tc_uop *u, uint32_t imm)
{
    struct em *e = &c->e;
    if (u->y) {
        test_ri(e, RPSL0, imm);
        return;
    }
    rex(e, 0, 0, 0, RM, 0); /* test dword [rbx + psl], imm */
    b1(e, 0xF7);
    mem(e, 0, RM, MOFF(psl));
    b4(e, imm);
}
/* leave at uop i unless the condition the host's flags hold (cc true:
 * the guard's value 1) is the recorded way u->x */
static void guard_cc(struct cx *c, const struct tc_uop *u, int i, unsigned cc)
{
    const struct tc_word *w = TC_UWNZ(u);
    unsigned off = u->x ? cc ^ 1u : cc;
    if (u->k2 == TC_ALT_SEQ || (u->k2 != TC_ALT_IRD && !(w->flags & TW_SIDEOK)) ||
        c->ncold == c->capx) {
        exit_if(c, (int)off, i);
        return;
    }
    /* off the path where it fixes the other way: into that side trace's
     * code, out of line (side_cold) */
    c->cold[c->ncold].i = i;
    c->cold[c->ncold].side = 1;
    c->cold[c->ncold++].at = jcc_fwd(&c->e, off);
}
/* RSI = vm_memo_isel(m, ECX): the I-stream memo entry of PC's line */
static void isel_x(struct em *e)
{
    MOV32(e, RSI, RCX);
    shift_ri(e, 5, RSI, 6 - 5); /* (the line's number times an entry's 32 bytes) */
    g1_ri(e, 0, G_AND, RSI, (VM_IMEMO_N - 1) << 5);
    b1(e, 0x48); /* lea rsi, [rbx + rsi + memo.i] */
    b1(e, 0x8D);
    b1(e, 0xB4);
    b1(e, 0x33);
    b4(e, (uint32_t)MOFF(memo.i));
}
/* vm_memo_hit for n bytes at the VA in register va, the entry at
 * [ent + idx + off] (idx NOIDX: none): leaves EDX = va - base
 * (zero-extended) and the host's flags: above, a miss (clobbers EDI and
 * tmp) */
static void memo_hit_x(struct em *e, int ent, int idx, int32_t off, int va, unsigned n, int tmp)
{
    MOV32(e, RDX, va);
    op_rmx(e, 0, 0x2B, RDX, ent, idx, off + (int32_t)offsetof(struct vm_memo, base));
    op_rmx(e, 0, 0x8B, RDI, ent, idx, off + (int32_t)offsetof(struct vm_memo, span));
    op_rm(e, 1, 0x8D, tmp, RDX, (int32_t)n); /* tmp = rdx + n */
    op_rr(e, 1, 0x39, tmp, RDI);
}
/* n bytes at PC from the I-stream memo: the entry last used, else PC's
 * line's own (which becomes the one used, R9), else, for 2 or 4 bytes,
 * the jump returned (to istream_cross_x's way: bytes across two lines),
 * or leave at uop i before anything is done; then ECX = PC and RSI =
 * their host address */
static uint8_t *istream_x(struct cx *c, int i, unsigned n)
{
    struct em *e = &c->e;
    LD32(e, RCX, RM, MOFF(r[15]));
    memo_hit_x(e, RMI, NOIDX, 0, RCX, n, RSI);
    uint8_t *hit = jcc_fwd(e, CC_BE);
    isel_x(e);
    memo_hit_x(e, RSI, NOIDX, 0, RCX, n, RAX);
    uint8_t *cross = NULL;
    if (n > 1)
        cross = jcc_fwd(e, CC_A);
    else
        exit_if(c, CC_A, i);
    op_rr(e, 1, 0x89, RMI, RSI);
    here(e, hit);
    LD64(e, RSI, RMI, (int32_t)offsetof(struct vm_memo, host));
    op_rr(e, 1, 0x01, RSI, RDX);
    return cross;
}
/* istream_x's other way, as the handler's (TCB_IB): PC's line's own
 * entry (RSI) becomes the one used, and the n bytes at PC (ECX) across
 * two cache lines of a page, both hits (vm_memo_cross: the lines' LRU,
 * the second's hit counted), else leave at uop i; then ECX = PC and RSI
 * = their host address */
static void istream_cross_x(struct cx *c, int i, unsigned n)
{
    struct em *e = &c->e;
    op_rr(e, 1, 0x89, RMI, RSI);
    save_r8_r11(e);
    op_rr(e, 1, 0x89, RDI, RM);
    op_rr(e, 0, 0x31, RSI, RSI); /* (the I-stream's: no table) */
    MOV32(e, RDX, RCX);
    mov_ri(e, RCX, n);
    op_rr(e, 0, 0x31, R8, R8); /* (a read) */
    call_c(e, (const void *)(uintptr_t)vm_memo_cross);
    op_rr(e, 1, 0x85, RAX, RAX);
    exit_if(c, CC_E, i);
    op_rr(e, 1, 0x89, RSI, RAX);
    LD32(e, RCX, RM, MOFF(r[15]));
}
/* a memo check of n bytes, a write (w), at the address in EAX, through
 * the memo table at tab (in the machine): mhp, the line's bookkeeping */
static int mck_x(struct cx *c, int i, const struct vm_memo *tab, unsigned n, unsigned w)
{
    struct em *e = &c->e;
    int64_t to = moff(c, tab);
    if (to < 0 || n < 1 || n > 8)
        return -1;
    MOV32(e, RCX, RAX);
    _Static_assert(sizeof(struct vm_memo) == 32, "a memo entry is 32 bytes");
    shift_ri(e, 5, RCX, 6 - 5); /* (the line's number times 32) */
    g1_ri(e, 0, G_AND, RCX, (VM_MEMO_N - 1) << 5);
    /* (the entry: [rbx + rcx + tab's offset]) */
#define MO(f) ((int32_t)to + (int32_t)offsetof(struct vm_memo, f))
    memo_hit_x(e, RM, RCX, (int32_t)to, RAX, n, RSI);
    c->cold[c->ncold].i = i; /* (a miss: refill_cold) */
    c->cold[c->ncold].side = 2;
    c->cold[c->ncold].to = (int32_t)to;
    c->cold[c->ncold].n = n;
    c->cold[c->ncold].w = w;
    struct cold *k = &c->cold[c->ncold];
    c->cold[c->ncold++].at = jcc_fwd(e, CC_A);
    op_rmi(e, 1, 0x8B, RSI, RM, RCX, MO(set));
    op_rmi(e, 0, 0x8B, RDI, RM, RCX, MO(lru_next));
    ST32(e, RSI, (int32_t)offsetof(struct cache_set, lru), RDI);
    if (w) {
        /* movzx edi, byte [rbx + rcx + way] */
        rex(e, 0, RDI, RCX, RM, 0);
        b1(e, 0x0F);
        b1(e, 0xB6);
        mem_bi(e, RDI, RM, RCX, MO(way));
        /* mov dword [rsi + rdi*4 + dirty], 1 */
        rex(e, 0, 0, RDI, RSI, 0);
        b1(e, 0xC7);
        mem_x4(e, 0, RSI, RDI, (int32_t)offsetof(struct cache_set, dirty));
        b4(e, 1);
    }
    op_rmi(e, 1, 0x8B, RMHP, RM, RCX, MO(host));
    op_rr(e, 1, 0x01, RMHP, RDX);
    k->back = e->p;
#undef MO
    return 0;
}
/* A memo check's miss at uop i (the address in EAX), out of line: as
 * the executor's `refill`, where the memo can be refilled (a TB and
 * cache hit: vm_memo_refill) the uop runs again from its start, which
 * computed the address and nothing else, and its check hits; where the
 * reference crosses two cache lines of a page, both hits (vm_memo_cross:
 * no memo entry holds it, and the executor's way is the interpreter's),
 * on after the check with mhp its bytes; else leave at it (the executor
 * tries the same, and the interpreter runs the word). */
static void refill_cold(struct cx *c, const struct cold *k)
{
    struct em *e = &c->e;
    save_r8_r11(e);
    MOV32(e, RDX, RAX);
    op_rr(e, 1, 0x89, RDI, RM);
    op_rm(e, 1, 0x8D, RSI, RM, k->to);
    mov_ri(e, RCX, k->n | k->w << 4);
    op_rr(e, 1, 0x89, R8, RST); /* (R9: the I-stream's entry) */
    call_c(e, (const void *)(uintptr_t)tcx_refill);
    g1_ri(e, 1, G_CMP, RAX, 1);
    patch_to(e, jcc_fwd(e, CC_E), c->lab[k->i]); /* refilled: the uop again */
    op_rr(e, 1, 0x85, RAX, RAX);
    exit_if(c, CC_E, k->i);
    op_rr(e, 1, 0x89, RMHP, RAX); /* crossed: on after the check */
    jmp_to(e, k->back);
}
/* EAX (RAX for 8) = the n bytes at [base]; -1 for another size */
static int load_at(struct em *e, int base, unsigned n)
{
    if (n == 1 || n == 2) {
        ldzx(e, RAX, base, 0, n);
    } else if (n == 4) {
        LD32(e, RAX, base, 0);
    } else if (n == 8) {
        LD64(e, RAX, base, 0);
    } else {
        return -1;
    }
    return 0;
}
/* reg = reg >> 32 (64 bits) */
static void shift64_r(struct em *e, int reg)
{
    rex(e, 1, 0, 0, reg, 0);
    b1(e, 0xC1);
    modrr(e, 5, reg);
    b1(e, 32);
}
/* ECX = (opa[k] + d) & 15: a register operand's number */
static void opr_index(struct em *e, uint32_t k, uint32_t d)
{
    LD32(e, RCX, RM, MOFF(opa) + 4 * (int32_t)k);
    if (d)
        g1_ri(e, 0, G_ADD, RCX, (int32_t)d);
    g1_ri(e, 0, G_AND, RCX, 15);
}
/* MOV reg, r[ECX] (op 0x8B) or r[ECX], reg (0x89) */
static void opr_rm(struct em *e, unsigned op, int reg)
{
    rex(e, 0, reg, RCX, RM, 0);
    b1(e, op);
    mem_x4(e, reg, RM, RCX, MOFF(r));
}
/* gpr_write(&m->r[ECX], reg, wd) */
static void opr_write(struct em *e, int reg, unsigned wd)
{
    if (wd < 2) {
        opr_rm(e, 0x8B, RAX);
        merge_x(e, RAX, reg, wd);
        reg = RAX;
    }
    opr_rm(e, 0x89, reg);
}
/* the I-stream memo entry's bookkeeping (a byte taken from it) */
static void ilru(struct em *e, int t1, int t2)
{
    LD64(e, t1, RMI, (int32_t)offsetof(struct vm_memo, set));
    LD32(e, t2, RMI, (int32_t)offsetof(struct vm_memo, lru_next));
    ST32(e, t1, (int32_t)offsetof(struct cache_set, lru), t2);
}
/* m's 64-bit counter at off += n */
static void add_cnt(struct em *e, int32_t off, uint32_t n)
{
    if (n == 0)
        return;
    if (n < 0x80000000u) {
        g1_mi(e, 1, G_ADD, RM, off, (int32_t)n);
    } else {
        mov_ri(e, RAX, n);
        op_rm(e, 1, 0x01, RAX, RM, off);
    }
}
/* TC_SYNC(cyc, refs) */
static void sync_x(struct em *e, uint32_t cyc, uint32_t refs)
{
    add_cnt(e, MOFF(st.microcycles), cyc);
    add_cnt(e, MOFF(tc_refs), refs);
}

/* Word w's counts (TC_SYNC of its pend and rpend) where a segment may
 * start after them: the microcycles with them below lim2 (the cycle
 * limit cannot be passed inside it); else leave at uop i before they
 * are added.  (Clobbers RAX, RCX.) */
static void lim2_sync_x(struct cx *c, const struct tc_word *w, int i)
{
    struct em *e = &c->e;
    LD64(e, RAX, RM, MOFF(st.microcycles));
    mov_ri(e, RCX, w->pend);
    op_rr(e, 1, 0x01, RAX, RCX);
    op_rm(e, 1, 0x3B, RAX, RST, SOFF(lim2));
    exit_if(c, CC_AE, i);
    sync_x(e, w->pend, w->rpend);
}

/* EDX = PC (ECX) - the base of the I-stream memo entry at [ent], and
 * the host's flags of its compare with the entry's span (64, or 0:
 * empty): below, PC's byte is in it */
static void memo_pc_x(struct em *e, int ent)
{
    MOV32(e, RDX, RCX);
    op_rm(e, 0, 0x2B, RDX, ent, (int32_t)offsetof(struct vm_memo, base));
    op_rm(e, 0, 0x3B, RDX, ent, (int32_t)offsetof(struct vm_memo, span));
}
/* RDX = (the 8 bytes at [RDI + at] ^ successor RSI's bytes ib) & its
 * mask im: zero (ZF) where the bytes that count are the trace's */
static void bytes8_x(struct em *e, int32_t at, size_t ib, size_t im)
{
    LD64(e, RDX, RDI, at);
    op_rm(e, 1, 0x33, RDX, RSI, (int32_t)ib);
    op_rm(e, 1, 0x23, RDX, RSI, (int32_t)im);
}

/* Does uop u name a cell in the machine's bytes [lo, lo + n)? */
static int names_cells(const struct tc_uop *u, const void *lo, size_t n)
{
    const char *b = lo, *p1 = (const char *)u->p1, *p2 = (const char *)u->p2;
    return (p1 >= b && p1 < b + n) || (p2 >= b && p2 < b + n);
}

/* Which of IRD's latches (ird_clear_latches) may be set at the end of
 * segment t: bit 0 the UNDO log's count (log_n, with mchk_active beside
 * it), bit 1 in_exc (with mm_active), bit 2 the micro-stack pointer.  A
 * root was entered at an IRD point (tc_run's, or a compiled end's),
 * which cleared them all, and only its own code ran since (anything else
 * leaves it), its uops in their order (a LOOP repeats some; the last
 * writer in the order still writes last): the count is clear where no
 * STRN follows the last CLRLOG, in_exc where there is no INEXC, the
 * pointer where the last PUSH or POP is a POP to 0; no uop writes
 * mchk_active or mm_active, and no uop's cell may be one of them.  A side
 * segment starts inside an instruction that may have set any of them. */
static unsigned latches_set_at_end(const struct vax_machine *m, const struct tc_trace *t)
{
    if (t->pa == TC_NOPA)
        return 7;
    size_t nl = (size_t)((const char *)(&m->mm_active + 1) - (const char *)&m->log_n);
    unsigned set = 0;
    for (uint32_t i = 0; i < t->nuops; i++) {
        const struct tc_uop *u = &tc_uops(t)[i];
        switch (t->op0[i]) {
        case TU_STRN_R: case TU_STRN_S: set |= 1; break;
        case TU_CLRLOG: set &= ~1u; break;
        case TU_INEXC: set |= 2; break;
        case TU_PUSH: set |= 4; break;
        case TU_POP: set = u->x ? set | 4 : set & ~4u; break;
        default: break;
        }
        if (names_cells(u, &m->log_n, nl) || names_cells(u, &m->usp, sizeof m->usp))
            return 7;
    }
    return set;
}

/* The successor the end of segment lt links to statically: the one that
 * followed it last (lt->succ), where it is recognised by its host address
 * and bytes alone (fhp) and its code is, or will be, in code memory when
 * this segment's code runs: compiled already, waiting in this batch, or
 * compiled with this segment (the chain).  Any root whose bytes at that
 * host address are its own may be entered there, whichever the prediction
 * says (a dropped root's code too: it checks what its path needs), so the
 * link stays right as the predictions move on; NULL: none. */
/* segment t's place in the batch waiting to be made executable, or -1 */
static int pend_at(const struct vm_tcx *x, const struct tc_trace *t)
{
    for (int k = 0; k < x->npend; k++)
        if (x->pend[k] == t)
            return k;
    return -1;
}
/* segment t's place in chain ch, or -1 */
static int chain_at(const struct chain *ch, const struct tc_trace *t)
{
    for (int k = 0; k < ch->n; k++)
        if (ch->seg[k] == t)
            return k;
    return -1;
}
static const struct tc_trace *link_target(const struct cx *c, const struct tc_trace *lt)
{
    const struct tc_trace *sb = lt->succ;
    struct chain *ch = c->ch;
    if (!ch || ch->nlnk == TCX_CHAIN || !sb || sb->pa == TC_NOPA || !sb->fhp ||
        sb->ilen == 0 || sb->ilen > 8)
        return NULL;
    return sb->xbody || chain_at(ch, sb) >= 0 || pend_at(ch->x, sb) >= 0 ? sb : NULL;
}
/* the flags of a compare of the 8 bytes at [RDI] under mask im with ib
 * (ZF: the bytes that count are ib's); clobbers RDX, RAX */
static void bytes_k_x(struct em *e, uint64_t ib, uint64_t im)
{
    ib &= im;
    if (im == 0xFF) {
        ldzx(e, RDX, RDI, 0, 1);
        g1_ri(e, 0, G_CMP, RDX, (int32_t)ib);
    } else if (im == 0xFFFF) {
        ldzx(e, RDX, RDI, 0, 2);
        g1_ri(e, 0, G_CMP, RDX, (int32_t)ib);
    } else if (im <= 0xFFFFFFFFu) {
        LD32(e, RDX, RDI, 0);
        if (im != 0xFFFFFFFFu)
            g1_ri(e, 0, G_AND, RDX, (int32_t)(uint32_t)im);
        g1_ri(e, 0, G_CMP, RDX, (int32_t)(uint32_t)ib);
    } else {
        LD64(e, RDX, RDI, 0);
        /* (a mask of the low 5 to 8 bytes, the usual one: the bytes
         * above it shifted out, no AND) */
        unsigned sh = 0;
        while (sh < 24 && im != ~0ull >> sh)
            sh += 8;
        if (im == ~0ull >> sh) {
            if (sh) {
                rex(e, 1, 0, 0, RDX, 0);
                b1(e, 0xC1);
                modrr(e, 4, RDX); /* shl rdx, sh */
                b1(e, sh);
            }
            ib <<= sh;
        } else {
            mov_ri64(e, RAX, im);
            op_rr(e, 1, 0x21, RDX, RAX); /* and rdx, rax */
        }
        if ((uint64_t)(int64_t)(int32_t)ib == ib) {
            g1_ri(e, 1, G_CMP, RDX, (int32_t)ib);
        } else {
            mov_ri64(e, RAX, ib);
            op_rr(e, 1, 0x39, RAX, RDX); /* cmp rdx, rax */
        }
    }
}
/* An end's way into its successor (RCX PC, RDI the opcode's host address,
 * R9 PC's memo entry, ifast set): the IRD point's latches, the opcode's
 * byte, the RN group and RX carried where they outlive IRD, and the jump:
 * into sb's code (a static link, resolved with the chain), or, sb NULL,
 * into that of the successor in RSI (RDX its code). */
/* The IRD point's latches as its quick way leaves them (of those
 * latches_set_at_end names, the ones in `set` cleared), and the opcode's
 * byte taken (RCX PC, R9 its memo entry) and counted; clobbers RAX, RDI */
static void end_ird_x(struct em *e, unsigned set, int fresh)
{
    g1_mi(e, 0, G_ADD, RM, MOFF(icnt), 1);
    _Static_assert(offsetof(struct vax_machine, mchk_active) ==
                           offsetof(struct vax_machine, log_n) + 4 &&
                       offsetof(struct vax_machine, in_exc) ==
                           offsetof(struct vax_machine, log_n) + 8 &&
                       offsetof(struct vax_machine, mm_active) ==
                           offsetof(struct vax_machine, log_n) + 12,
                   "ird_clear_latches' four neighbours");
    if (set & 1)
        st64_i(e, RM, MOFF(log_n), 0);
    if (set & 2)
        st64_i(e, RM, MOFF(in_exc), 0);
    if (set & 4)
        st32_i(e, RM, MOFF(usp), 0);
    ST32(e, RM, MOFF(fpc), RCX);
    LD32(e, RAX, RM, MOFF(psl));
    ST32(e, RM, MOFF(fcc), RAX);
    if (!fresh) /* (the slow way may take no reference: not fresh there) */
        ilru(e, RAX, RDI);
    op_rm(e, 0, 0x8D, RAX, RCX, 1);
    ST32(e, RM, MOFF(r[15]), RAX);
    g1_mi(e, 1, G_ADD, RM, MOFF(st.instructions), 1);
}
/* latch image fin's RN group into the machine (tc_latch_rn), constants */
static void carry_rn_k(struct em *e, const struct tc_latch *fin)
{
    st32_i(e, RM, MOFF(rn), fin->rn);
    st32_i(e, RM, MOFF(specb), fin->specb);
    st32_i(e, RM, MOFF(rf_lit), fin->rf_lit);
    st32_i(e, RM, MOFF(lat) + 4 * LAT_RN, fin->rn);
    st32_i(e, RM, MOFF(lat) + 4 * LAT_RN1, (fin->rn + 1u) & 15);
}
static void end_taken_x(struct cx *c, const struct tc_trace *lt, const struct tc_trace *sb,
                        int fresh)
{
    struct em *e = &c->e;
    end_ird_x(e, latches_set_at_end(c->m, c->t), fresh); /* (RSI: the successor, below) */
    const struct tc_latch *fin = lt->fin;
    if (fin && lt->finm && (fin->rn_def || fin->rx_def)) {
        /* the end's RN group and RX outlive IRD where the successor does
         * not set them at once (tc_carry_latches) */
        if (sb) { /* (the successor's smask and spec0 known: tc_carry_latches
                   * decided here) */
            if (sb->smask & lt->finm) {
                if (fin->rn_def && !sb->spec0)
                    carry_rn_k(e, fin);
                if (fin->rx_def)
                    st32_i(e, RM, MOFF(rx), fin->rx);
            }
        } else {
            rex(e, 0, 0, 0, RSI, 0);
            b1(e, 0xF6);
            mem(e, 0, RSI, (int32_t)offsetof(struct tc_trace, smask));
            b1(e, lt->finm); /* test byte [rsi + smask], finm */
            uint8_t *jn = jcc_fwd(e, CC_E);
            ldzx(e, RAX, RSI, (int32_t)offsetof(struct tc_trace, spec0), 1);
            uint8_t *jn2 = NULL;
            if (!fin->rx_def) {
                op_rr(e, 0, 0x85, RAX, RAX);
                jn2 = jcc_fwd(e, CC_NE);
            }
            if (fin->rn_def) {
                uint8_t *js = NULL;
                if (fin->rx_def) { /* (else spec0 is 0 here: tested above) */
                    op_rr(e, 0, 0x85, RAX, RAX);
                    js = jcc_fwd(e, CC_NE);
                }
                carry_rn_k(e, fin);
                here(e, js);
            }
            if (fin->rx_def)
                st32_i(e, RM, MOFF(rx), fin->rx);
            here(e, jn);
            here(e, jn2);
        }
    }
    if (sb) {
        struct lnk *l = &c->ch->lnk[c->ch->nlnk++];
        l->at = jmp_fwd(e);
        l->to = sb;
        l->dyn = NULL;
    } else {
        jmp_r(e, RDX);
    }
}

/* the host's flags of a test of I-stream memo entry R9's tb (the MAPEN
 * it was filled with): Z where it is clear */
static void tb_clear_x(struct em *e)
{
    rex(e, 0, 0, 0, RMI, 0);
    b1(e, 0xF6);
    mem(e, 0, RMI, (int32_t)offsetof(struct vm_memo, tb));
    b1(e, 1); /* test byte [r9 + tb], 1 */
}

/* An end's way into its successor's code, for the ends without a static
 * link and e_general (RAX the segment; the code runs `off` bytes from
 * where it is written): the quick way (vm_memo_ird_hit: PC's byte in the
 * memo, the entry last used, else e_isel, and the two after it in its
 * page; the cycle limit and the next event far: ev), then the successor
 * (TC_FETCH_SUCC, then `fetched`): the prediction recognised by its host
 * address and bytes (ifast), else e_succ (end_succ_tail_x, from the jumps
 * jf); its code in RDX (none: e_leave).  Returns where e_succ comes
 * back. */
static const uint8_t *end_succ_x(struct em *e, uint64_t off, const struct vm_tcx *x,
                                 uint8_t *jf[2])
{
    LD32(e, RCX, RM, MOFF(r[15]));
    memo_pc_x(e, RMI);
    uint8_t *jhit = jcc_fwd(e, CC_B);
    rel_to(e, call_fwd(e), off, x->e_isel);
    here(e, jhit);
    /* (the page: only a line's last two bytes can have the two after
     * them in the next one) */
    g1_ri(e, 0, G_CMP, RDX, 61);
    uint8_t *jin = jcc_fwd(e, CC_BE);
    MOV32(e, RSI, RCX);
    g1_ri(e, 0, G_AND, RSI, 0x1FF);
    g1_ri(e, 0, G_CMP, RSI, 0x1FD);
    uint8_t *jin2 = jcc_fwd(e, CC_BE);
    tb_clear_x(e); /* (MAPEN clear: the page does not matter) */
    rel_to(e, jcc_fwd(e, CC_NE), off, x->e_leave);
    here(e, jin);
    here(e, jin2);
    LD64(e, RSI, RM, MOFF(st.microcycles));
    op_rm(e, 1, 0x3B, RSI, RST, SOFF(ev));
    rel_to(e, jcc_fwd(e, CC_AE), off, x->e_leave);
    LD64(e, RDI, RMI, (int32_t)offsetof(struct vm_memo, host));
    op_rr(e, 1, 0x01, RDI, RDX); /* hp */
    LD64(e, RSI, RAX, (int32_t)offsetof(struct tc_trace, succ));
    mov_ri(e, RIF, 1);
    op_rm(e, 1, 0x3B, RDI, RSI, (int32_t)offsetof(struct tc_trace, fhp));
    jf[0] = jcc_fwd(e, CC_NE);
    bytes8_x(e, 0, offsetof(struct tc_trace, ib0), offsetof(struct tc_trace, im0));
    jf[1] = jcc_fwd(e, CC_NE);
    const uint8_t *got = e->p;
    LD64(e, RDX, RSI, (int32_t)offsetof(struct tc_trace, xbody));
    op_rr(e, 1, 0x85, RDX, RDX);
    rel_to(e, jcc_fwd(e, CC_E), off, x->e_leave);
    return got;
}
/* (after the way in: the prediction not the successor, e_succ, then back
 * to got) */
static void end_succ_tail_x(struct em *e, uint64_t off, const struct vm_tcx *x,
                            uint8_t *jf[2], const uint8_t *got)
{
    here(e, jf[0]);
    here(e, jf[1]);
    rel_to(e, call_fwd(e), off, x->e_succ);
    jmp_to(e, got);
}

/* END: the counts, the trace's end, and the IRD point's quick way into
 * the successor's code where it has some; else the IRD point of tc_run */
static void end_x(struct cx *c, const struct tc_uop *u)
{
    struct em *e = &c->e;
    const struct tc_trace *lt = (const struct tc_trace *)(const void *)u->p1;
    /* (the counts: the opcode's byte taken on the quick way counted with
     * the end's references, and taken back where the code leaves) */
    sync_x(e, u->k, u->k2 + 1);
    /* the successor this end saw when it was compiled, where it will have
     * code (link_target): its line's I-stream memo entry, and where its
     * opcode sits in its page, are the physical address's (a page is 512
     * bytes: the entry is chosen by bits 6..8), so the quick way needs
     * only that entry's test (vm_memo_ird_hit: no page test where the two
     * bytes after the opcode are in its page); it is recognised by its
     * host address and bytes, constants here (no load from its trace),
     * and entered by a direct jump.  Anything else: the way below. */
    const struct tc_trace *sb = link_target(c, lt);
    /* (the successor's opcode at its page's last two bytes: the link only
     * where MAPEN is clear, tb_clear_x; its page offset is the PC's) */
    int pagex = sb && (sb->pa & 0x1FFu) > 0x1FDu;
    uint8_t *jsb[5] = {NULL, NULL, NULL, NULL, NULL}, *chk = e->p;
    if (sb) {
        /* a successor in this root's own line, whose entry R9 still is
         * (r9line): its host address is R9's line at sb's offset, so the
         * PC's offset in that entry is the whole test (the entry's span
         * and host address are those the root was entered with) */
        int same = !pagex && c->r9line && (sb->pa ^ c->t->pa) < VM_CACHE_LINE;
        LD32(e, RCX, RM, MOFF(r[15])); /* (with the next: room for a JMP) */
        if (same) {
            int32_t off = (int32_t)(sb->pa & (VM_CACHE_LINE - 1));
            if (off) { /* PC - off the entry's base: cmp (rcx - off), [r9 + base] */
                op_rm(e, 0, 0x8D, RDX, RCX, -off);
                op_rm(e, 0, 0x3B, RDX, RMI, (int32_t)offsetof(struct vm_memo, base));
            } else {
                op_rm(e, 0, 0x3B, RCX, RMI, (int32_t)offsetof(struct vm_memo, base));
            }
            jsb[0] = jcc_fwd(e, CC_NE);
        } else {
            /* (R9 becomes that entry at once: where the checks fail, the
             * dynamic way finds PC's entry from it as from any other) */
            op_rm(e, 1, 0x8D, RMI, RM,
                  MOFF(memo.i) + (int32_t)(((sb->pa >> 6) & (VM_IMEMO_N - 1)) *
                                           sizeof(struct vm_memo))); /* lea */
            memo_pc_x(e, RMI);
            jsb[0] = jcc_fwd(e, CC_AE);
            if (pagex) {
                tb_clear_x(e);
                jsb[4] = jcc_fwd(e, CC_NE);
            }
        }
        LD64(e, RDI, RM, MOFF(st.microcycles));
        op_rm(e, 1, 0x3B, RDI, RST, SOFF(ev));
        jsb[1] = jcc_fwd(e, CC_AE);
        if (same) {
            mov_ri64(e, RDI, (uint64_t)(uintptr_t)sb->fhp);
        } else {
            LD64(e, RDI, RMI, (int32_t)offsetof(struct vm_memo, host));
            op_rr(e, 1, 0x01, RDI, RDX); /* hp */
            mov_ri64(e, RAX, (uint64_t)(uintptr_t)sb->fhp);
            op_rr(e, 1, 0x39, RAX, RDI); /* cmp rdi, rax */
            jsb[2] = jcc_fwd(e, CC_NE);
        }
        bytes_k_x(e, sb->ib0, sb->im0);
        jsb[3] = jcc_fwd(e, CC_NE);
        if (!c->rif1)
            mov_ri(e, RIF, 1);
        /* (in the same line the fetch refers to R9's line: its set's LRU
         * is as the fetch leaves it where nothing else referred to the
         * cache since, fresh) */
        end_taken_x(c, lt, sb, same && c->fresh);
        for (int k = 0; k < 5; k++)
            here(e, jsb[k]);
        c->ch->lnk[c->ch->nlnk - 1].chk = chk; /* (end_taken_x's link) */
        c->ch->lnk[c->ch->nlnk - 1].dyn = e->p;
    }
    /* (the segment, the executor's `last`, whose successor it predicts:
     * the static link leaves it as it was, since only the executor reads
     * it -- where an end leaves, which sets it here, and after a way out
     * inside the successor's code, where at worst the prediction of a
     * root passed before is moved) */
    mov_ri64(e, RAX, (uint64_t)(uintptr_t)lt);
    ST64(e, RST, SOFF(last), RAX);
    /* (the way in, end_succ_x; the ways out are e_leave, shared by the
     * ends: the end's uop is the last of its segment lt, END's p1) */
    if (sb) { /* (the static link's end seldom goes this way: shared) */
        jmp_run(c, c->ch->x->e_general);
        return;
    }
    uint8_t *jf[2];
    const uint8_t *got = end_succ_x(e, run_off(c), c->ch->x, jf);
    end_taken_x(c, lt, NULL, 0);
    end_succ_tail_x(e, run_off(c), c->ch->x, jf, got);
}

/* The root at host address hp (an opcode's byte) after segment lt, where
 * lt's prediction is another, as at tc_run's IRD point (`fetched`:
 * vm_tc_guess, which moves the predictions).  NULL: none (or a two-byte
 * opcode, which tc_run reads). */
static struct tc_trace *tcx_find(struct vax_machine *m, struct tc_trace *lt,
                                 const uint8_t *hp)
{
    unsigned op = *hp;
    if (op == 0xFD || !tc_may_have_root(m->tc, (uint32_t)(hp - m->mem)))
        return NULL;
    struct tc_trace *t = vm_tc_guess(m->tc, lt, (uint32_t)(hp - m->mem), op);
    return t && t->opc == op ? t : NULL;
}

/* The ends' shared cold ways, called or jumped to from an end's code with
 * RAX its segment (lt), whose last uop is the END:
 * - e_leave (jumped to): the end leaves for tc_run's IRD point: the
 *   opcode's byte taken back, the IRD point's word (the END's), fin and
 *   finm of the end, and the way out (no uop, no handler);
 * - e_isel (called, RCX PC, R9 the entry last used, which does not hold
 *   PC's byte): PC's line's own entry, refilled where it is a cache and TB
 *   hit, or filled by the fetch's miss (tcx_ifill); returns with R9 that
 *   entry and EDX PC's offset in it, else leaves;
 * - e_succ (called, RSI the successor, RDI PC's host address, whose bytes
 *   are not the successor's quick check's): its physical address and
 *   opcode, ifast then from its bytes' compare (ilen 0: none; over 8: both
 *   words); returns where they are the successor's, else leaves. */
static void end_stubs(struct em *e, struct vm_tcx *x)
{
    /* e_leave */
    x->e_leave = e->p;
    op_rm(e, 1, 0x8D, RDX, RAX, (int32_t)TC_SEG_HEAD); /* lea: its uops */
    LD32(e, RCX, RAX, (int32_t)offsetof(struct tc_trace, nuops));
    b1(e, 0x48); /* lea rcx, [rcx + rcx*4] */
    b1(e, 0x8D);
    b1(e, 0x0C);
    b1(e, 0x89);
    b1(e, 0x48); /* lea rdx, [rdx + rcx*8 - 40]: the END */
    b1(e, 0x8D);
    b1(e, 0x54);
    b1(e, 0xCA);
    b1(e, (uint8_t)-(int)sizeof(struct tc_uop));
    b1(e, 0x48); /* movsxd rcx, dword [rdx + wo] */
    b1(e, 0x63);
    mem(e, RCX, RDX, (int32_t)offsetof(struct tc_uop, wo));
    op_rr(e, 1, 0x01, RCX, RDX); /* its word */
    ST64(e, RST, SOFF(lw), RCX);
    LD64(e, RCX, RAX, (int32_t)offsetof(struct tc_trace, fin));
    ST64(e, RST, SOFF(fin), RCX);
    ldzx(e, RCX, RAX, (int32_t)offsetof(struct tc_trace, finm), 1);
    ST32(e, RST, SOFF(finm), RCX);
    g1_mi(e, 1, G_SUB, RM, MOFF(tc_refs), 1);
    mov_ri(e, RAX, 0);
    mov_ri(e, RDX, 0);
    patch_to(e, jmp_fwd(e), x->leave);
    /* e_isel */
    x->e_isel = e->p;
    isel_x(e);
    memo_pc_x(e, RSI);
    uint8_t *jm = jcc_fwd(e, CC_AE);
    op_rr(e, 1, 0x89, RMI, RSI); /* the entry used from now on */
    b1(e, 0xC3);
    here(e, jm);
    push_r(e, RAX);
    save_r8_r11(e);
    op_rr(e, 1, 0x89, RDI, RM);
    MOV32(e, RSI, RCX);
    op_rr(e, 1, 0x89, RDX, RST);
    /* (the return address and five pushes: call_c's eight bytes) */
    call_c(e, (const void *)(uintptr_t)tcx_ifill);
    op_rr(e, 0, 0x85, RAX, RAX);
    pop_r(e, RAX);
    LD32(e, RCX, RM, MOFF(r[15]));
    patch_to(e, jcc_fwd(e, CC_NE), x->e_isel); /* filled: the entry again */
    g1_ri(e, 1, G_ADD, RSP, 8);
    patch_to(e, jmp_fwd(e), x->e_leave);
    /* e_succ */
    x->e_succ = e->p;
    push_r(e, RAX);
    mov_ri(e, RIF, 0);
    op_rr(e, 1, 0x89, RDX, RDI); /* rdx = hp */
    op_rm(e, 1, 0x2B, RDX, RM, MOFF(mem)); /* the key: hp - m->mem */
    op_rm(e, 0, 0x3B, RDX, RSI, (int32_t)offsetof(struct tc_trace, pa));
    uint8_t *j3 = jcc_fwd(e, CC_NE);
    ldzx(e, RDX, RDI, 0, 1);
    ldzx(e, RAX, RSI, (int32_t)offsetof(struct tc_trace, opc), 2);
    op_rr(e, 0, 0x39, RAX, RDX); /* (an FD-page opcode never equals a byte) */
    uint8_t *j4 = jcc_fwd(e, CC_NE);
    const uint8_t *bytes = e->p;
    ldzx(e, RAX, RSI, (int32_t)offsetof(struct tc_trace, ilen), 1);
    op_rr(e, 0, 0x85, RAX, RAX);
    uint8_t *jz = jcc_fwd(e, CC_E);
    bytes8_x(e, 0, offsetof(struct tc_trace, ib0), offsetof(struct tc_trace, im0));
    uint8_t *jb0 = jcc_fwd(e, CC_NE);
    g1_ri(e, 0, G_CMP, RAX, 8);
    uint8_t *js = jcc_fwd(e, CC_BE);
    bytes8_x(e, 8, offsetof(struct tc_trace, ib1), offsetof(struct tc_trace, im1));
    uint8_t *jb1 = jcc_fwd(e, CC_NE);
    here(e, js);
    mov_ri(e, RIF, 1);
    here(e, jz);
    here(e, jb0);
    here(e, jb1);
    pop_r(e, RAX);
    b1(e, 0xC3);
    /* not the prediction: the second guess, else the table (tcx_find, which
     * moves the predictions as tc_run's IRD point does), and its bytes;
     * none: the way out */
    here(e, j3);
    here(e, j4);
    op_rr(e, 1, 0x89, RSI, RAX); /* lt */
    op_rr(e, 1, 0x89, RDX, RDI); /* hp */
    push_r(e, RDI);
    save_r8_r11(e);
    op_rr(e, 1, 0x89, RDI, RM);
    /* (the return address, RAX, RDI and these: RSP on 16 already) */
    call_c_pad(e, (const void *)(uintptr_t)tcx_find, 0);
    pop_r(e, RDI);
    LD32(e, RCX, RM, MOFF(r[15]));
    op_rr(e, 1, 0x85, RAX, RAX);
    uint8_t *jno = jcc_fwd(e, CC_E);
    op_rr(e, 1, 0x89, RSI, RAX);
    patch_to(e, jmp_fwd(e), bytes);
    here(e, jno);
    pop_r(e, RAX);
    g1_ri(e, 1, G_ADD, RSP, 8);
    patch_to(e, jmp_fwd(e), x->e_leave);
    /* e_general (jumped to): the whole of an end's way where the end has
     * a static link (end_x), which leaves this way rarely: the quick way,
     * the successor, and into its code with the IRD point's latches all
     * cleared and the RN group and RX carried as the executor's enter
     * does (tc_carry_latches), from the segment's fin and finm */
    x->e_general = e->p;
    uint8_t *jf[2];
    const uint8_t *got = end_succ_x(e, 0, x, jf);
    /* the carry: RAX the segment, RSI the successor */
    ldzx(e, RDI, RSI, (int32_t)offsetof(struct tc_trace, smask), 1);
    /* (and edi, dword [rax + finm]: the byte finm and three after it,
     * against smask's byte) */
    op_rm(e, 0, 0x23, RDI, RAX, (int32_t)offsetof(struct tc_trace, finm));
    uint8_t *jc0 = jcc_fwd(e, CC_E);
    LD64(e, RAX, RAX, (int32_t)offsetof(struct tc_trace, fin));
    op_rr(e, 1, 0x85, RAX, RAX);
    uint8_t *jc1 = jcc_fwd(e, CC_E);
    ldzx(e, RDI, RAX, (int32_t)offsetof(struct tc_latch, rn_def), 1);
    op_rr(e, 0, 0x85, RDI, RDI);
    uint8_t *jc2 = jcc_fwd(e, CC_E);
    ldzx(e, RDI, RSI, (int32_t)offsetof(struct tc_trace, spec0), 1);
    op_rr(e, 0, 0x85, RDI, RDI);
    uint8_t *jc3 = jcc_fwd(e, CC_NE);
    LD32(e, RDI, RAX, (int32_t)offsetof(struct tc_latch, rn));
    ST32(e, RM, MOFF(rn), RDI);
    ST32(e, RM, MOFF(lat) + 4 * LAT_RN, RDI);
    g1_ri(e, 0, G_ADD, RDI, 1);
    g1_ri(e, 0, G_AND, RDI, 15);
    ST32(e, RM, MOFF(lat) + 4 * LAT_RN1, RDI);
    LD32(e, RDI, RAX, (int32_t)offsetof(struct tc_latch, specb));
    ST32(e, RM, MOFF(specb), RDI);
    LD32(e, RDI, RAX, (int32_t)offsetof(struct tc_latch, rf_lit));
    ST32(e, RM, MOFF(rf_lit), RDI);
    here(e, jc2);
    here(e, jc3);
    ldzx(e, RDI, RAX, (int32_t)offsetof(struct tc_latch, rx_def), 1);
    op_rr(e, 0, 0x85, RDI, RDI);
    uint8_t *jc4 = jcc_fwd(e, CC_E);
    LD32(e, RDI, RAX, (int32_t)offsetof(struct tc_latch, rx));
    ST32(e, RM, MOFF(rx), RDI);
    here(e, jc0);
    here(e, jc1);
    here(e, jc4);
    /* the IRD point's latches (all: those not set are 0 already) */
    end_ird_x(e, 7, 0);
    jmp_r(e, RDX);
    end_succ_tail_x(e, 0, x, jf, got);
}

/* Guard uop i failed, the other way fixed (k2): as the executor's
 * side_lazy, where the word's first side trace starts there, has code,
 * and the cycle limit is far, the counts and into it; else leave at the
 * guard, which fails again in its handler. */
static void side_cold(struct cx *c, int i)
{
    struct em *e = &c->e;
    const struct tc_uop *u = &tc_uops(c->t)[i];
    const struct tc_word *w = TC_UWNZ(u);
    mov_ri64(e, RAX, (uint64_t)(uintptr_t)&w->side);
    LD64(e, RAX, RAX, 0);
    op_rr(e, 1, 0x85, RAX, RAX);
    exit_if(c, CC_E, i);
    b1(e, 0x66); /* cmp word [rax + upc], k2 */
    b1(e, 0x81);
    mem(e, 7, RAX, (int32_t)offsetof(struct tc_side, upc));
    b1(e, u->k2 & 0xFF);
    b1(e, (u->k2 >> 8) & 0xFF);
    exit_if(c, CC_NE, i);
    LD64(e, RSI, RAX, (int32_t)offsetof(struct tc_side, t));
    LD64(e, RDX, RSI, (int32_t)offsetof(struct tc_trace, xbody));
    op_rr(e, 1, 0x85, RDX, RDX);
    exit_if(c, CC_E, i);
    lim2_sync_x(c, w, i);
    mov_ri64(e, RAX, (uint64_t)(uintptr_t)&c->m->tc->st.side_entries);
    g1_mi(e, 1, G_ADD, RAX, 0, 1);
    mov_ri(e, RIF, 0);
    jmp_r(e, RDX);
}
/* ALU_GEN's functions written out (the rest call alu()), a in EBP: 1
 * where u's is one of them, r and fl set; else 0 with nothing written.
 * SHLQ, SHRQ at L: Q:A shifted by B & 63 (the host's own count at 64
 * bits), Q the high half, fl N and Z of the low.  FFS, FFC: the first set
 * (clear) bit of A below n = B & 63, at most 32: its number, else n with
 * fl Z. */
static int alu_gen_x(struct cx *c, const struct tc_uop *u)
{
    struct em *e = &c->e;
    unsigned fn = u->k2 & 0xFFFF;
    if ((fn == UA_SHRQ || fn == UA_SHLQ) && u->x == 2) {
        LD32(e, RAX, RM, MOFF(q));
        rex(e, 1, 0, 0, RAX, 0);
        b1(e, 0xC1);
        modrr(e, 4, RAX); /* shl rax, 32 */
        b1(e, 32);
        MOV32(e, RDX, RA);
        op_rr(e, 1, 0x09, RAX, RDX);
        ld_cell(c, RCX, u->p2);
        rex(e, 1, 0, 0, RAX, 0);
        b1(e, 0xD3);
        modrr(e, fn == UA_SHLQ ? 4 : 5, RAX); /* shl/shr rax, cl */
        op_rr(e, 1, 0x89, RDX, RAX);
        shift64_r(e, RDX);
        ST32(e, RM, MOFF(q), RDX);
        MOV32(e, RR, RAX);
        op_rr(e, 0, 0x85, RAX, RAX);
        flags_nz_to_fl(e);
        return 1;
    }
    if (fn == UA_FFS || fn == UA_FFC) {
        MOV32(e, RAX, RA);
        if (fn == UA_FFC)
            not_r(e, RAX);
        ld_cell(c, RCX, u->p2);
        g1_ri(e, 0, G_AND, RCX, 63);
        g1_ri(e, 0, G_CMP, RCX, 32);
        uint8_t *jle = jcc_fwd(e, CC_BE);
        mov_ri(e, RCX, 32);
        here(e, jle);
        rex(e, 0, RDX, 0, RAX, 0);
        b1(e, 0x0F);
        b1(e, 0xBC);
        modrr(e, RDX, RAX); /* bsf edx, eax (ZF: none set) */
        uint8_t *jnz = jcc_fwd(e, CC_NE);
        mov_ri(e, RDX, 32);
        here(e, jnz);
        mov_ri(e, RFL, 0);
        op_rr(e, 0, 0x39, RDX, RCX); /* cmp edx, ecx */
        rex(e, 0, RDX, 0, RCX, 0);
        b1(e, 0x0F);
        b1(e, 0x43);
        modrr(e, RDX, RCX); /* cmovae edx, ecx */
        setcc(e, CC_AE, RFL);
        shift_ri(e, 4, RFL, 2); /* F_Z */
        MOV32(e, RR, RDX);
        return 1;
    }
    return 0;
}

/* The other way of a SPEC or IB uop i (n bytes) whose instruction's bytes
 * are not known to be the root's: from the I-stream memo (the entry last
 * used, else PC's line's own), a specifier byte checked against the
 * path's; then back into the body at `back`. */
static void ibyte_cold(struct cx *c, int i, const uint8_t *back)
{
    struct em *e = &c->e;
    const struct tc_uop *u = &tc_uops(c->t)[i];
    unsigned op = c->t->op0[i], n = op == TU_IB ? u->x : 1;
    uint8_t *cross = istream_x(c, i, n);
    for (int k = 0; k < 2; k++) {
        if (k) { /* (across two lines: no entry's LRU, vm_memo_cross did theirs) */
            if (!cross)
                break;
            here(e, cross);
            istream_cross_x(c, i, n);
        }
        load_at(e, RSI, n);
        if (op == TU_SPEC) { /* the byte the path took, or leave */
            g1_ri(e, 0, G_CMP, RAX, (int32_t)(u->k & 0xFF));
            exit_if(c, CC_NE, i);
        } else {
            ST32(e, RM, MOFF(tc_tmp) + 4 * (int32_t)u->y, RAX);
        }
        if (!k)
            ilru(e, RSI, RDI);
        op_rm(e, 0, 0x8D, RAX, RCX, (int32_t)n);
        ST32(e, RM, MOFF(r[15]), RAX);
        jmp_to(e, back);
    }
}

/* One uop (or, for KR and a guard it decided, two): 1 where it was
 * compiled and the next is i + 1, 2 where i + 1 was too, 0 where the
 * compiled part ends at it, -1 when the code does not fit. */
static int uop_x(struct cx *c, int i)
{
    struct em *e = &c->e;
    const struct tc_uop *u = &tc_uops(c->t)[i];
    unsigned op = c->t->op0[i];
    if (op >= TU_ALU_BASE && op < TU_ALUR_BASE) {
        unsigned fv = op - TU_ALU_BASE, v = fv % TC_ALU_VARS, fw = fv / TC_ALU_VARS;
        return alu_uop(c, u, alu_fns[fw / 3], fw % 3, v, 0, sets_first(c, i + 1)) ? 0 : 1;
    }
    if (op >= TU_ALUR_BASE && op < TU_ALUM_BASE) {
        unsigned fv = op - TU_ALUR_BASE, v = fv % TC_ALU_VARS;
        return alu_uop(c, u, alur_fns[fv / TC_ALU_VARS], 2, v, 1, sets_first(c, i + 1)) ? 0 : 1;
    }
    if (op >= TU_ALU_BASE)
        return 0;
    switch (op) {
    case TU_END:
        end_x(c, u);
        return 1;
    case TU_SYNC:
        sync_x(e, u->k, u->k2);
        return 1;
    case TU_LOOP: {
        const struct tc_uop *to = (const struct tc_uop *)(const void *)u->p1;
        int ti = (int)(to - tc_uops(c->t));
        if (ti < 0 || ti > i || !c->lab[ti])
            return 0;
        /* the segment goes round only below lim2 */
        lim2_sync_x(c, TC_UWNZ(u), i);
        jmp_to(e, c->lab[ti]);
        return 1;
    }
    case TU_MOV: case TU_MOV2: {
        /* (both loads before the stores: a destination may be the other
         * source; a constant stored as such) */
        int k1 = moff(c, u->p1) < 0, k2 = op == TU_MOV2 && moff(c, u->p2) < 0;
        if (!k1)
            ld_cell(c, RAX, u->p1);
        if (op == TU_MOV2 && !k2)
            ld_cell(c, RCX, u->p2);
        if (k1)
            st_k_i(e, u->k, *u->p1);
        else
            st_k(e, u->k, RAX);
        if (op == TU_MOV2) {
            if (k2)
                st_k_i(e, u->k2, *u->p2);
            else
                st_k(e, u->k2, RCX);
        }
        return 1;
    }
    case TU_KR: {
        /* a guard on its flags decided when the trace was built
         * (TC_FUSED's KR_G..): not looked at, as the handler does */
        int fused = 0;
        switch (tc_uops(c->t)[i].op) {
        case TU_F_KR_GZ: case TU_F_KR_GC: case TU_F_KR_GN: case TU_F_KR_GLT:
        case TU_F_KR_GLE: case TU_F_KR_GCZ:
            fused = 1;
            break;
        default:
            break;
        }
        /* (what the next sets first, this one need not) */
        unsigned dead = sets_first(c, i + 1 + fused);
        if (!(dead & 1))
            ld_cell(c, RA, u->p1);
        if (dead & 2) {
            /* (the same constant to the same cell as the uop just before,
             * whose code ends with that store, and no way into this uop
             * but from there -- a KR is no jump's target but a LOOP's:
             * already there) */
            if (!(c->kst_at == e->p && c->kst_i == i - 1 && c->kst_k == u->k &&
                  c->kst_v == u->k2 && i != c->head))
                st_k_i(e, u->k, u->k2);
            c->kst_at = e->p;
            c->kst_i = i;
            c->kst_k = u->k;
            c->kst_v = u->k2;
        } else {
            mov_ri(e, RR, u->k2);
            st_k(e, u->k, RR);
        }
        if (u->x && !(dead & 4))
            mov_ri(e, RFL, u->y);
        if (fused)
            c->lab[i + 1] = e->p;
        return 1 + fused;
    }
    case TU_S2:
        ld_cell(c, RS2, u->p1);
        return 1;
    case TU_ALU_GEN: { /* r = alu(k2, a = *p1, *p2, x), fl */
        ld_cell(c, RA, u->p1);
        if (alu_gen_x(c, u))
            return 1;
        ld_cell(c, RCX, u->p2);
        save_r8_r11(e);
        op_rr(e, 1, 0x89, RDI, RM);
        mov_ri(e, RSI, (uint32_t)u->x << 16 | (u->k2 & 0xFFFF));
        MOV32(e, RDX, RA);
        call_c(e, (const void *)(uintptr_t)tcx_alu);
        MOV32(e, RR, RAX);
        shift64_r(e, RAX);
        MOV32(e, RFL, RAX);
        return 1;
    }
    case TU_G_COND: { /* vm_cond(k, fl, TC_GPSL, a, the word) against x */
        gpsl(c, u);
        save_r8_r11(e);
        MOV32(e, RCX, RAX);
        op_rr(e, 1, 0x89, RDI, RM);
        mov_ri(e, RSI, u->k);
        MOV32(e, RDX, RFL);
        MOV32(e, R8, RA);
        mov_ri64(e, R9, (uint64_t)(uintptr_t)&TC_UWNZ(u)->pw->u);
        call_c(e, (const void *)(uintptr_t)tcx_cond);
        g1_ri(e, 0, G_CMP, RAX, u->x);
        exit_if(c, CC_NE, i);
        return 1;
    }
    case TU_LDA:
        ld_cell(c, RA, u->p1);
        return 1;
    case TU_PSL0:
        LD32(e, RPSL0, RM, MOFF(psl));
        return 1;
    case TU_IB: case TU_SPEC: case TU_IBL: case TU_SPECL: {
        /* the instruction's bytes are the root's (ifast): the path's value */
        unsigned n = op == TU_IB || op == TU_IBL ? u->x : 1;
        if (n != 1 && n != 2 && n != 4)
            return 0;
        if (op == TU_IBL || op == TU_SPECL) {
            /* the first reference in the root's second line (TC_ILINE):
             * its memo entry becomes R9 where it holds the bytes, else
             * leave (the handler turns ifast off).  Only in a root whose
             * code tests ifast at its start (iscan: no loop) */
            if (!c->ifast)
                return 0;
            LD32(e, RCX, RM, MOFF(r[15]));
            isel_x(e);
            memo_hit_x(e, RSI, NOIDX, 0, RCX, n, RAX);
            uint8_t *in = jcc_fwd(e, CC_BE);
            /* (not in the memo: refilled where the line is a cache and TB
             * hit, as an end's e_isel does; else leave) */
            save_r8_r11(e);
            op_rr(e, 1, 0x89, RDI, RM);
            MOV32(e, RSI, RCX);
            call_c(e, (const void *)(uintptr_t)vm_memo_irefill);
            op_rr(e, 0, 0x85, RAX, RAX);
            exit_if(c, CC_E, i);
            LD32(e, RCX, RM, MOFF(r[15]));
            isel_x(e);
            memo_hit_x(e, RSI, NOIDX, 0, RCX, n, RAX);
            exit_if(c, CC_A, i);
            here(e, in);
            op_rr(e, 1, 0x89, RMI, RSI);
            c->fresh = 0;
            c->r9line = 0;
        }
        if (!c->ifast) { /* (else set: tested at the code's start) */
            c->r9line = 0; /* (ibyte_cold may move R9) */
            op_rr(e, 0, 0x85, RIF, RIF);
            if (c->ncold == c->capx) {
                e->over = 1;
                return -1;
            }
            c->cold[c->ncold].i = i; /* (the other way, out of line: ibyte_cold) */
            c->cold[c->ncold].at = jcc_fwd(e, CC_E);
        }
        if (!c->fresh) /* (the other way writes it itself) */
            ilru(e, RSI, RDI);
        c->fresh = 1;
        if (op == TU_IB || op == TU_IBL)
            st32_i(e, RM, MOFF(tc_tmp) + 4 * (int32_t)u->y, u->k2);
        g1_mi(e, 0, G_ADD, RM, MOFF(r[15]), (int32_t)n);
        if (!c->ifast)
            c->cold[c->ncold++].back = e->p;
        return 1;
    }
    case TU_ST_R: st_cell(c, u->p1, RR); return 1;
    case TU_ST_S: st_cell(c, u->p1, RS2); return 1;
    case TU_STW_R: gpr_write_x(c, u->p1, RR, u->x); return 1;
    case TU_STW_S: gpr_write_x(c, u->p1, RS2, u->x); return 1;
    case TU_STRN_R: case TU_STRN_S: {
        /* the specifier's change, for UNDO */
        if (c->logn >= 0) { /* (the count known: the entry's place too) */
            if (c->logn < 16) {
                st32_i(e, RM, MOFF(log_reg) + 4 * c->logn, u->k);
                ld_cell(c, RCX, u->p1);
                ST32(e, RM, MOFF(log_val) + 4 * c->logn, RCX);
                c->logn++;
                st32_i(e, RM, MOFF(log_n), (uint32_t)c->logn);
            }
            gpr_write_x(c, u->p1, op == TU_STRN_R ? RR : RS2, u->x);
            return 1;
        }
        LD32(e, RAX, RM, MOFF(log_n));
        g1_ri(e, 0, G_CMP, RAX, 16);
        uint8_t *j = jcc_fwd(e, CC_AE);
        rex(e, 0, 0, RAX, RM, 0);
        b1(e, 0xC7);
        mem_x4(e, 0, RM, RAX, MOFF(log_reg));
        b4(e, u->k);
        ld_cell(c, RCX, u->p1);
        rex(e, 0, RCX, RAX, RM, 0);
        b1(e, 0x89);
        mem_x4(e, RCX, RM, RAX, MOFF(log_val));
        g1_ri(e, 0, G_ADD, RAX, 1);
        ST32(e, RM, MOFF(log_n), RAX);
        here(e, j);
        gpr_write_x(c, u->p1, op == TU_STRN_R ? RR : RS2, u->x);
        return 1;
    }
    case TU_STPSL_R: case TU_STPSL_S: {
        int v = op == TU_STPSL_R ? RR : RS2;
        LD32(e, RAX, RM, MOFF(psl));
        op_rr(e, 0, 0x31, RAX, v);
        test_ri(e, RAX, PSL_IPL_BITS | PSL_T | PSL_TP | PSL_CUR_BITS);
        exit_if(c, CC_NE, i);
        ST32(e, RM, MOFF(psl), v);
        return 1;
    }
    case TU_CC_ARITH: return cc_x(e, UCC_ARITH, 0) ? 0 : 1;
    case TU_CC_LOGIC: return cc_x(e, UCC_LOGIC, 0) ? 0 : 1;
    case TU_CC_TEST: return cc_x(e, UCC_TEST, 0) ? 0 : 1;
    case TU_CC_CMP: return cc_x(e, UCC_CMP, 0) ? 0 : 1;
    case TU_CC_NZV: return cc_x(e, UCC_NZV, 0) ? 0 : 1;
    case TU_CC_NZVC0: return cc_x(e, UCC_NZVC0, 0) ? 0 : 1;
    case TU_MCK_R: case TU_MCK_S: case TU_MCK_P:
        if (op == TU_MCK_R)
            MOV32(e, RAX, RR);
        else if (op == TU_MCK_S)
            MOV32(e, RAX, RS2);
        else
            ld_cell(c, RAX, u->p1);
        c->fresh = 0; /* (another set's LRU, maybe the same) */
        return mck_x(c, i, (const struct vm_memo *)(const void *)u->p2, u->x, u->y) ? 0 : 1;
    case TU_RD: case TU_RDOP:
        if (load_at(e, RMHP, u->x))
            return 0;
        if (op == TU_RD) {
            ST32(e, RM, MOFF(mdr), RAX);
            if (u->x == 8) {
                shift64_r(e, RAX);
                ST32(e, RM, MOFF(q), RAX);
            }
        } else {
            ST32(e, RM, MOFF(opv) + 4 * (int32_t)u->k, RAX);
            shift64_r(e, RAX);
            ST32(e, RM, MOFF(oph) + 4 * (int32_t)u->k, RAX);
        }
        return 1;
    case TU_WR: case TU_WROP: {
        unsigned n = u->x;
        if (n != 1 && n != 2 && n != 4 && n != 8)
            return 0;
        mov_ri(e, RIF, 0); /* (it might write the instruction's own bytes) */
        c->rif1 = 0;
        LD32(e, RAX, RM, MOFF(mdr));
        if (n == 1) {
            op_rm(e, 0, 0x88, RAX, RMHP, 0); /* mov [r15], al */
        } else if (n == 2) {
            b1(e, 0x66);
            ST32(e, RMHP, 0, RAX);
        } else {
            ST32(e, RMHP, 0, RAX);
            if (n == 8) {
                LD32(e, RAX, RM, MOFF(q));
                ST32(e, RMHP, 4, RAX);
            }
        }
        return 1;
    }
    case TU_RXS: /* tc_tmp[y] = *p1 << x */
        ld_cell(c, RAX, u->p1);
        if (u->x)
            shift_ri(e, 4, RAX, u->x);
        ST32(e, RM, MOFF(tc_tmp) + 4 * (int32_t)u->y, RAX);
        return 1;
    case TU_SOPR: /* tc_tmp[y] = r[(opa[k] + x) & 15] */
        opr_index(e, u->k, u->x);
        opr_rm(e, 0x8B, RAX);
        ST32(e, RM, MOFF(tc_tmp) + 4 * (int32_t)u->y, RAX);
        return 1;
    case TU_STOPR_R: case TU_STOPR_S: /* gpr_write(&r[(opa[k] + y) & 15], v, x) */
        opr_index(e, u->k, u->y);
        opr_write(e, op == TU_STOPR_R ? RR : RS2, u->x);
        return 1;
    case TU_STRES_R: { /* mdr = r; the register operand too */
        ST32(e, RM, MOFF(mdr), RR);
        g1_mi(e, 0, G_CMP, RM, MOFF(opreg) + 4 * (int32_t)u->k, 0);
        uint8_t *j = jcc_fwd(e, CC_E);
        opr_index(e, u->k, 0);
        opr_write(e, RR, u->x);
        here(e, j);
        return 1;
    }
    case TU_CC_QUAD: /* N from Q, Z from Q and r, V from fl */
        LD32(e, RDX, RM, MOFF(psl));
        g1_ri(e, 0, G_AND, RDX, ~0xE);
        MOV32(e, RCX, RFL);
        g1_ri(e, 0, G_AND, RCX, F_V);
        op_rr(e, 0, 0x09, RDX, RCX);
        LD32(e, RAX, RM, MOFF(q));
        MOV32(e, RCX, RAX);
        shift_ri(e, 5, RCX, 31);
        shift_ri(e, 4, RCX, 3); /* N */
        op_rr(e, 0, 0x09, RDX, RCX);
        op_rr(e, 0, 0x09, RAX, RR);
        mov_ri(e, RCX, 0);
        setcc(e, CC_E, RCX);
        shift_ri(e, 4, RCX, 2); /* Z */
        op_rr(e, 0, 0x09, RDX, RCX);
        ST32(e, RM, MOFF(psl), RDX);
        return 1;
    case TU_SETREG:
        st32_i(e, RM, MOFF(opreg) + 4 * (int32_t)u->k, 1);
        st32_i(e, RM, MOFF(opa) + 4 * (int32_t)u->k, u->x);
        return 1;
    case TU_SETMEM:
        st32_i(e, RM, MOFF(opreg) + 4 * (int32_t)u->k, 0);
        return 1;
    case TU_CLRLOG:
        st32_i(e, RM, MOFF(log_n), 0);
        if (c->logn > 0)
            c->logn = 0;
        return 1;
    case TU_INEXC:
        st32_i(e, RM, MOFF(in_exc), 1);
        return 1;
    case TU_PUSH:
        st16_i(e, RM, MOFF(ustack) + 2 * (int32_t)u->x, (uint16_t)u->k);
        st32_i(e, RM, MOFF(usp), u->x + 1u);
        return 1;
    case TU_POP:
        st32_i(e, RM, MOFF(usp), u->x);
        return 1;
    /* guards */
    case TU_G_PSL_Z: case TU_G_PSL_N: case TU_G_PSL_V: case TU_G_PSL_C: case TU_G_PSL_NZ:
    case TU_G_PSL_CZ: {
        static const uint8_t bits[] = {PSL_Z, PSL_N, PSL_V, PSL_C, PSL_N | PSL_Z, PSL_C | PSL_Z};
        gpsl_test(c, u, bits[op - TU_G_PSL_Z]);
        guard_cc(c, u, i, CC_NE);
        return 1;
    }
    case TU_G_IOVT:
        gpsl(c, u);
        g1_ri(e, 0, G_AND, RAX, PSL_V | PSL_IV);
        g1_ri(e, 0, G_CMP, RAX, PSL_V | PSL_IV);
        guard_cc(c, u, i, CC_E);
        return 1;
    case TU_G_PSL_KERN:
        gpsl_test(c, u, PSL_CUR_BITS);
        guard_cc(c, u, i, CC_E);
        return 1;
    case TU_G_NOVT: /* !(fl.V && PSL.IV) */
        gpsl(c, u);
        MOV32(e, RCX, RFL);
        shift_ri(e, 4, RCX, 4); /* F_V (2) to PSL_IV (0x20) */
        op_rr(e, 0, 0x21, RAX, RCX);
        test_ri(e, RAX, PSL_IV);
        guard_cc(c, u, i, CC_E);
        return 1;
    case TU_G_OPREG_NOVT: /* opreg[k] && !(fl.V && PSL.IV) */
        gpsl(c, u);
        MOV32(e, RCX, RFL);
        shift_ri(e, 4, RCX, 4);
        op_rr(e, 0, 0x21, RAX, RCX);
        test_ri(e, RAX, PSL_IV);
        setcc(e, CC_NE, RDX); /* dl: both */
        g1_mi(e, 0, G_CMP, RM, MOFF(opreg) + 4 * (int32_t)u->k, 0);
        setcc(e, CC_E, RCX); /* cl: no register */
        op_rr(e, 0, 0x08, RDX, RCX); /* or dl, cl: the condition's negation */
        guard_cc(c, u, i, CC_E);
        return 1;
    case TU_G_ALU_Z: case TU_G_ALU_N: case TU_G_ALU_V: case TU_G_ALU_C: case TU_G_ALU_CZ: {
        uint32_t bit = op == TU_G_ALU_Z ? F_Z : op == TU_G_ALU_N ? F_N : op == TU_G_ALU_V ? F_V
                       : op == TU_G_ALU_C ? F_C : F_C | F_Z;
        test_ri(e, RFL, bit);
        guard_cc(c, u, i, CC_NE);
        return 1;
    }
    case TU_G_ALU_LT: case TU_G_ALU_LE:
        MOV32(e, RAX, RFL);
        shift_ri(e, 4, RAX, 2); /* V to N's place */
        op_rr(e, 0, 0x31, RAX, RFL);
        if (op == TU_G_ALU_LE) {
            MOV32(e, RCX, RFL);
            shift_ri(e, 4, RCX, 1); /* Z to N's place */
            op_rr(e, 0, 0x09, RAX, RCX);
        }
        test_ri(e, RAX, F_N);
        guard_cc(c, u, i, CC_NE);
        return 1;
    case TU_G_OPREG: case TU_GD_MFORK:
        g1_mi(e, 0, G_CMP, RM, MOFF(opreg) + 4 * (int32_t)u->k, 0);
        guard_cc(c, u, i, CC_NE);
        return 1;
    case TU_GD_OPREG:
        g1_mi(e, 0, G_CMP, RM, MOFF(opreg) + 4 * (int32_t)u->k, (int32_t)u->x);
        exit_if(c, CC_NE, i);
        return 1;
    case TU_G_A_B0:
        test_ri(e, RA, 1);
        guard_cc(c, u, i, CC_NE);
        return 1;
    case TU_G_A_B31:
        test_ri(e, RA, 0x80000000u);
        guard_cc(c, u, i, CC_NE);
        return 1;
    case TU_G_A_Z:
        op_rr(e, 0, 0x85, RA, RA);
        guard_cc(c, u, i, CC_E);
        return 1;
    case TU_GD_A4: case TU_GD_A2:
        MOV32(e, RAX, RA);
        g1_ri(e, 0, G_AND, RAX, op == TU_GD_A4 ? 15 : 3);
        g1_ri(e, 0, G_CMP, RAX, u->x);
        exit_if(c, CC_NE, i);
        return 1;
    default:
        return 0;
    }
}

/* The stubs at the code memory's start: enter (rdi m, rsi the hand-over,
 * rdx the body) and leave (rax the uop, rdx its handler or 0). */
static void stubs(struct em *e, uint8_t **leave)
{
    static const int saved[] = {RBX, RBP, R12, R13, R14, R15};
    for (int i = 0; i < 6; i++)
        push_r(e, saved[i]);
    op_rr(e, 1, 0x89, RM, RDI);
    op_rr(e, 1, 0x89, RST, RSI);
    LD32(e, RR, RST, SOFF(r));
    LD32(e, RS2, RST, SOFF(s2));
    LD64(e, RMHP, RST, SOFF(mhp));
    LD32(e, RA, RST, SOFF(a));
    LD32(e, RFL, RST, SOFF(fl));
    LD32(e, RPSL0, RST, SOFF(psl0));
    LD64(e, RMI, RST, SOFF(mi));
    LD32(e, RIF, RST, SOFF(ifast));
    jmp_r(e, RDX);
    *leave = e->p;
    ST64(e, RST, SOFF(h), RDX);
    ST32(e, RST, SOFF(r), RR);
    ST32(e, RST, SOFF(s2), RS2);
    ST64(e, RST, SOFF(mhp), RMHP);
    ST32(e, RST, SOFF(a), RA);
    ST32(e, RST, SOFF(fl), RFL);
    ST32(e, RST, SOFF(psl0), RPSL0);
    ST64(e, RST, SOFF(mi), RMI);
    ST32(e, RST, SOFF(ifast), RIF);
    for (int i = 5; i >= 0; i--)
        pop_r(e, saved[i]);
    b1(e, 0xC3);
}

struct vm_tcx *vm_tcx_new(void)
{
    struct vm_tcx *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    long pg = sysconf(_SC_PAGESIZE);
    x->pg = pg > 0 ? (size_t)pg : 4096;
    return x;
}

void vm_tcx_free(struct vm_tcx *x)
{
    if (!x)
        return;
    if (x->mem)
        munmap(x->mem, TCX_MEM);
    free(x);
}

void vm_tcx_reset(struct vm_tcx *x)
{
    /* the memory goes back to the host, and the next compile maps it
     * anew: code is never written where code ran (a tool that translates
     * the host's code, valgrind, forgets what was at an unmapped place) */
    if (x && x->mem) {
        munmap(x->mem, TCX_MEM);
        x->mem = NULL;
        x->used = x->wlo = 0;
        x->npend = 0;
    }
}

/* The batch's pages become executable (and not writable), and its
 * segments get their code.  0, or -1 (the memory is then given up). */
static int tcx_install(struct vm_tcx *x)
{
    size_t hi = (x->used + x->pg - 1) & ~(x->pg - 1);
    if (hi > x->wlo && mprotect(x->mem + x->wlo, hi - x->wlo, PROT_READ | PROT_EXEC)) {
        x->broken = 1;
        x->npend = 0;
        return -1;
    }
    for (int k = 0; k < x->npend; k++) {
        struct tc_trace *s = x->pend[k];
        s->xbody = x->mem + x->pend_off[k];
        tc_uops(s)[0].h = x->native;
        if (x->pend_loop[k]) /* (the LOOP: the segment's last uop) */
            tc_uops(s)[s->nuops - 1].k2 = x->pend_loop[k];
    }
    x->npend = 0;
    x->wlo = x->used = hi; /* (the next batch on pages of its own) */
    return 0;
}

/* the code memory and its stubs, at the first compile */
static int tcx_open(struct vm_tcx *x)
{
    if (x->mem)
        return 0;
    if (x->broken)
        return -1;
    void *p = mmap(NULL, TCX_MEM, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        x->broken = 1;
        return -1;
    }
    x->mem = p;
    x->wlo = 0;
    struct em e = {x->mem, x->mem + 1024, 0};
    uint8_t *lv = NULL;
    stubs(&e, &lv);
    x->enter = x->mem;
    x->leave = lv;
    end_stubs(&e, x);
    x->used = (size_t)(e.p - x->mem);
    x->npend = 0;
    if (e.over || tcx_install(x)) {
        munmap(x->mem, TCX_MEM);
        x->mem = NULL;
        x->broken = 1;
        return -1;
    }
    return 0;
}

/* Is the LRU of the I-stream memo entry's set fresh where segment t's
 * code starts?  A root is entered just after its opcode's fetch (the
 * executor's TC_FETCH_SUCC or the full fetch, or a compiled end's quick
 * way), whose reference through that entry was the last; the code then
 * keeps count of what it does in order, which a LOOP back would upset.
 * A side segment starts after any references. */
static int lru_fresh(const struct tc_trace *t)
{
    if (t->pa == TC_NOPA)
        return 0;
    for (uint32_t i = 0; i < t->nuops; i++)
        if (t->op0[i] == TU_LOOP)
            return 0;
    return 1;
}

/* The UNDO log's count at the start of segment t's code where the code
 * can follow it (struct cx, logn): a root without a LOOP, no uop of which
 * names the count as a cell; else -1. */
static int log_known(const struct vax_machine *m, const struct tc_trace *t)
{
    if (!lru_fresh(t)) /* (a side segment, or a LOOP) */
        return -1;
    size_t n = (size_t)((const char *)&m->log_val[16] - (const char *)&m->log_n);
    for (uint32_t i = 0; i < t->nuops; i++)
        if (names_cells(&tc_uops(t)[i], &m->log_n, n))
            return -1;
    return 0;
}

/* One segment's code, written at e->p (its buffer, from ubeg, runs where the
 * code memory is free: ch->x's used): 0, or -1 where it has a uop the
 * compiler does not know or the code does not fit (e->p is then where it
 * was). */
static int piece(struct em *e, struct vax_machine *m, struct tc_trace *t,
                 const void *const *tab, uint8_t *ubeg, struct chain *ch, uint8_t **loop)
{
    *loop = NULL;
    uint8_t *p0 = e->p;
    int nl0 = ch->nlnk;
    uint8_t **lab = calloc(t->nuops + 1, sizeof *lab);
    struct cold *cold = calloc((size_t)t->nuops * 2 + 8, sizeof *cold);
    struct xit *xs = calloc((size_t)t->nuops * 2 + 8, sizeof *xs);
    int rc = -1;
    if (!lab || !xs || !cold)
        goto out;
    /* a LOOP's first uop is arrived at from its end too (and from the
     * executor, TC_LOOP_NATIVE), after whatever references the loop made:
     * no I-stream LRU is fresh there */
    int head = t->op0[t->nuops - 1] == TU_LOOP
                   ? (int)((const struct tc_uop *)(const void *)tc_uops(t)[t->nuops - 1].p1 -
                           tc_uops(t))
                   : -1;
    struct cx c = {*e, m, t, tab, ch->x->mem + ch->x->used, ch->x->leave, ubeg, xs, 0,
                   (int)t->nuops * 2 + 8, lab, cold, 0, ch, log_known(m, t), lru_fresh(t), 0, 0, 0,
                   NULL, 0, 0, -1, head};
    c.r9line = t->pa != TC_NOPA && head < 0;
    /* a root whose bytes are known at entry is nearly always entered with
     * them its own (a static link checked them, the quick way compared
     * them): its code leaves for the handlers at once where they are not,
     * and reads its I-stream the fast way only */
    t->xifast = 0;
    if (t->pa != TC_NOPA && t->ilen > 0 && head < 0) {
        uint8_t *p0 = c.e.p;
        op_rr(&c.e, 0, 0x85, RIF, RIF);
        exit_if(&c, CC_E, 0);
        if (c.e.p - p0 != TCX_IFAST_TEST)
            c.e.over = 1;
        c.ifast = c.rif1 = 1;
    }
    int i = 0;
    while (i < (int)t->nuops) {
        c.lab[i] = c.e.p;
        if (i == head)
            c.fresh = 0;
        int nx = c.nx;
        int k = uop_x(&c, i);
        if (k <= 0) { /* (what it wrote goes: the handler runs it whole) */
            c.e.p = c.lab[i];
            c.lab[i] = NULL;
            c.nx = nx;
            break;
        }
        i += k;
    }
    if (i < (int)t->nuops) /* a uop it does not know: the root stays the handlers' */
        goto out;
    if (head >= 0) /* (its target has code: TU_LOOP's case) */
        *loop = c.lab[head];
    for (int k = 0; k < c.ncold; k++) {
        here(&c.e, c.cold[k].at);
        if (c.cold[k].side == 2)
            refill_cold(&c, &c.cold[k]);
        else if (c.cold[k].side)
            side_cold(&c, c.cold[k].i);
        else
            ibyte_cold(&c, c.cold[k].i, c.cold[k].back);
    }
    /* the exits: EAX the uop's index, then the segment's way out, which
     * makes it the uop (RAX) and its handler (RDX) for the stub */
    for (int k = 0; k < c.nx; k++) {
        here(&c.e, c.x[k].at);
        mov_ri(&c.e, RAX, (uint32_t)c.x[k].i);
        c.x[k].at = jmp_fwd(&c.e); /* (to the way out, below) */
    }
    if (c.nx) {
        struct em *ce = &c.e;
        _Static_assert(sizeof(struct tc_uop) == 40, "a uop is 40 bytes: 5 * 8");
        for (int k = 0; k < c.nx; k++)
            here(ce, c.x[k].at);
        b1(ce, 0x48); /* lea rax, [rax + rax*4] */
        b1(ce, 0x8D);
        b1(ce, 0x04);
        b1(ce, 0x80);
        mov_ri64(ce, RDX, (uint64_t)(uintptr_t)tc_uops(t));
        b1(ce, 0x48); /* lea rax, [rdx + rax*8] */
        b1(ce, 0x8D);
        b1(ce, 0x04);
        b1(ce, 0xC2);
        ldzx(ce, RCX, RAX, (int32_t)offsetof(struct tc_uop, op), 2);
        mov_ri64(ce, RDX, (uint64_t)(uintptr_t)tab);
        b1(ce, 0x48); /* mov rdx, [rdx + rcx*8] */
        b1(ce, 0x8B);
        b1(ce, 0x14);
        b1(ce, 0xCA);
        jmp_run(&c, c.leave);
    }
    if (c.e.over)
        goto out;
    t->xifast = (uint8_t)c.ifast;
    e->p = c.e.p;
    rc = 0;
out:
    if (rc) {
        e->p = p0;
        ch->nlnk = nl0; /* (its links go with it) */
    }
    free(lab);
    free(cold);
    free(xs);
    return rc;
}

/* May segment s be compiled with the chain ch, ahead of its own count?  A
 * root that followed the last one, warm (entered TCX_CHAIN_WARM times at
 * least), that may be compiled and has no code yet, waiting or written. */
#define TCX_CHAIN_WARM 16
static int chain_ok(const struct vm_tcx *x, const struct chain *ch, const struct tc_trace *s)
{
    if (!s || s->pa == TC_NOPA || s->dead || !s->op0 || s->nuops == 0 || s->xbody ||
        s->xhot == 0 || s->xhot > TCX_HOT - TCX_CHAIN_WARM)
        return 0;
    return chain_at(ch, s) < 0 && pend_at(x, s) < 0;
}

int vm_tcx_compile(struct vm_tcx *x, struct vax_machine *m, struct tc_trace *t,
                   const void *const *tab)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!x || !t->op0 || t->nuops == 0 || tcx_open(x))
        return -1;
    x->native = tab[TU_H_NATIVE];
    if (pend_at(x, t) >= 0) /* written: the batch is made executable now */
        return tcx_install(x);
    /* the chain: t, then the successors that followed it, while warm, so
     * that each end can link to the next one's code (a loop's segments
     * come due together, and the first compiled would find none) */
    struct chain ch = {.x = x, .n = 0, .nlnk = 0};
    ch.seg[ch.n++] = t;
    while (ch.n < TCX_CHAIN && chain_ok(x, &ch, ch.seg[ch.n - 1]->succ))
        ch.seg[ch.n] = ch.seg[ch.n - 1]->succ, ch.n++;
    if (x->npend + ch.n > TCX_BATCH && tcx_install(x)) /* (the chain in one batch) */
        return -1;
    /* (a bound on the code, which `over` checks: a uop's code is at most
     * 224 bytes, the END's with its cold ways about 700; with 256 here a
     * segment of one or two uops -- a NOP, or an instruction whose flow
     * is a word or two -- overflowed and was never compiled, and every
     * compiled end before one left for tc_run: on EVKAA a third of the
     * exits) */
    size_t need = 0;
    for (int k = 0; k < ch.n; k++)
        need += (size_t)ch.seg[k]->nuops * 224 + 1024 + 16;
    size_t room = TCX_MEM - x->used;
    if (room < need) { /* full: what is written runs, nothing more is compiled */
        if (x->npend)
            tcx_install(x);
        return -1;
    }
    uint8_t *buf = malloc(need);
    int rc = -1;
    if (!buf)
        goto out;
    struct em e = {buf, buf + need, 0};
    for (int k = 0; k < ch.n; k++) {
        while ((e.p - buf) & 15) /* (each segment's code on 16 bytes) */
            b1(&e, 0xCC);
        ch.code[k] = e.p;
        if (piece(&e, m, ch.seg[k], tab, buf, &ch, &ch.loop[k]))
            ch.code[k] = NULL;
    }
    /* the static links: into a piece's code, or the code already there;
     * where the successor got none, the static check becomes a jump to the
     * end's dynamic way */
    for (int l = 0; l < ch.nlnk; l++) {
        const struct tc_trace *to = ch.lnk[l].to;
        int kc = chain_at(&ch, to), kp = pend_at(x, to);
        const uint8_t *dest = to->xbody;
        if (kc >= 0)
            dest = ch.code[kc] ? x->mem + x->used + (ch.code[kc] - buf) : NULL;
        else if (kp >= 0)
            dest = x->mem + x->pend_off[kp];
        int32_t rel;
        if (dest) {
            if (to->xifast) /* (the end checked the bytes: ifast is set) */
                dest = (const uint8_t *)dest + TCX_IFAST_TEST;
            rel = (int32_t)((const uint8_t *)dest -
                            (x->mem + x->used + (ch.lnk[l].at + 4 - buf)));
            memcpy(ch.lnk[l].at, &rel, 4);
        } else {
            rel = (int32_t)(ch.lnk[l].dyn - (ch.lnk[l].chk + 5));
            ch.lnk[l].chk[0] = 0xE9;
            memcpy(ch.lnk[l].chk + 1, &rel, 4);
        }
    }
    size_t n = (size_t)(e.p - buf);
    memcpy(x->mem + x->used, buf, n); /* (pages not executable yet) */
    for (int k = 0; k < ch.n; k++) {
        struct tc_trace *s = ch.seg[k];
        if (!ch.code[k]) {
            if (k) { /* (its own count would find the same: its handler back) */
                s->xhot = 0;
                tc_uops(s)[0].h = tab[tc_uops(s)[0].op];
            }
            continue;
        }
        x->pend[x->npend] = s;
        x->pend_loop[x->npend] = ch.loop[k] ? (uint32_t)(x->used + (size_t)(ch.loop[k] - buf)) : 0;
        x->pend_off[x->npend++] = x->used + (size_t)(ch.code[k] - buf);
        x->traces++;
        if (k) /* (entered through the handlers: its batch made executable soon) */
            s->xhot = TCX_WAIT < s->xhot ? TCX_WAIT : s->xhot;
    }
    x->used = (x->used + n + 15) & ~(size_t)15;
    if (!ch.code[0])
        rc = -1;
    else
        rc = x->npend == TCX_BATCH ? tcx_install(x) : 1;
out:
    free(buf);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    x->ns += (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)t1.tv_nsec -
             (uint64_t)t0.tv_nsec;
    return rc;
}

const struct tc_uop *vm_tcx_enter(struct vm_tcx *x, struct vax_machine *m,
                                  struct tcx_state *s, const void *body)
{
    typedef const struct tc_uop *(*fn)(struct vax_machine *, struct tcx_state *,
                                       const void *);
    fn f;
    const void *p = x->enter;
    memcpy(&f, &p, sizeof f);
    return f(m, s, body);
}

const void *vm_tcx_at(const struct vm_tcx *x, uint32_t off)
{
    return x->mem + off;
}

void vm_tcx_stats(const struct vm_tcx *x, uint64_t *traces, uint64_t *bytes, uint64_t *ns)
{
    *traces = x ? x->traces : 0;
    *bytes = x && x->mem ? x->used : 0;
    *ns = x ? x->ns : 0;
}

#endif
