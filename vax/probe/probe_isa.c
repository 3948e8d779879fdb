/* The probe instruction set's tables: names, forms and the worst-case
 * cost of each instruction in microcode/probe.mic (PROBES.md, "Costs"). */
#include "vax/probe/probe_isa.h"

#include <ctype.h>
#include <string.h>

static const char *const op_names[128] = {
    [PRB_EXIT] = "exit", [PRB_LDI] = "ldi", [PRB_MOV] = "mov", [PRB_CTX] = "ctx",
    [PRB_LDV] = "ldv", [PRB_LDP] = "ldp", [PRB_REC] = "rec", [PRB_AGG] = "agg",
    [PRB_WATCH] = "watch", [PRB_ARM] = "arm", [PRB_DISARM] = "disarm",
    [PRB_TRON] = "tron", [PRB_TROFF] = "troff", [PRB_JMP] = "jmp", [PRB_LDVA] = "ldva",
    [PRB_NOTE] = "note", [PRB_LDM] = "ldm", [PRB_STM] = "stm",
    [PRB_ADD] = "add", [PRB_SUB] = "sub", [PRB_AND] = "and", [PRB_OR] = "or",
    [PRB_XOR] = "xor", [PRB_SHL] = "shl", [PRB_SHR] = "shr", [PRB_SAR] = "sar",
    [PRB_MUL] = "mul", [PRB_DIV] = "div", [PRB_MOD] = "mod",
    [PRB_ADD + PRB_IMM] = "addi", [PRB_SUB + PRB_IMM] = "subi", [PRB_AND + PRB_IMM] = "andi",
    [PRB_OR + PRB_IMM] = "ori", [PRB_XOR + PRB_IMM] = "xori", [PRB_SHL + PRB_IMM] = "shli",
    [PRB_SHR + PRB_IMM] = "shri", [PRB_SAR + PRB_IMM] = "sari", [PRB_MUL + PRB_IMM] = "muli",
    [PRB_DIV + PRB_IMM] = "divi", [PRB_MOD + PRB_IMM] = "modi",
    [PRB_BEQ] = "beq", [PRB_BNE] = "bne", [PRB_BLT] = "blt", [PRB_BLE] = "ble",
    [PRB_BGT] = "bgt", [PRB_BGE] = "bge", [PRB_BLTU] = "bltu", [PRB_BLEU] = "bleu",
    [PRB_BGTU] = "bgtu", [PRB_BGEU] = "bgeu",
    [PRB_BEQ + PRB_BIMM] = "beqi", [PRB_BNE + PRB_BIMM] = "bnei", [PRB_BLT + PRB_BIMM] = "blti",
    [PRB_BLE + PRB_BIMM] = "blei", [PRB_BGT + PRB_BIMM] = "bgti", [PRB_BGE + PRB_BIMM] = "bgei",
    [PRB_BLTU + PRB_BIMM] = "bltui", [PRB_BLEU + PRB_BIMM] = "bleui",
    [PRB_BGTU + PRB_BIMM] = "bgtui", [PRB_BGEU + PRB_BIMM] = "bgeui",
    [PRB_LOOP] = "loop",
};

enum prb_form prb_form(unsigned op)
{
    if (op >= 128 || !op_names[op])
        return PRB_F_BAD;
    switch (op) {
    case PRB_EXIT: case PRB_TRON: case PRB_TROFF: return PRB_F_NONE;
    case PRB_LDI: return PRB_F_RI;
    case PRB_MOV: return PRB_F_RR;
    case PRB_CTX: return PRB_F_CTX;
    case PRB_LDV: case PRB_LDP: return PRB_F_MEM;
    case PRB_LDVA: return PRB_F_ABS;
    case PRB_REC: return PRB_F_REC;
    case PRB_AGG: return PRB_F_AGG;
    case PRB_WATCH: return PRB_F_WATCH;
    case PRB_ARM: case PRB_DISARM: return PRB_F_PROBE;
    case PRB_NOTE: return PRB_F_NOTE;
    case PRB_LDM: return PRB_F_LDM;
    case PRB_STM: return PRB_F_STM;
    case PRB_JMP: return PRB_F_JMP;
    case PRB_LOOP: return PRB_F_LOOP;
    default: break;
    }
    if (op >= PRB_ADD && op <= PRB_MOD)
        return PRB_F_RR;
    if (op >= PRB_ADD + PRB_IMM && op <= PRB_MOD + PRB_IMM)
        return PRB_F_RI;
    if (op >= PRB_BEQ && op <= PRB_BGEU)
        return PRB_F_BRR;
    return PRB_F_BRI; /* PRB_BEQ + PRB_BIMM .. */
}

const char *prb_op_name(unsigned op)
{
    return op < 128 ? op_names[op] : NULL;
}

static int name_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

int prb_op_lookup(const char *name)
{
    for (unsigned i = 0; i < 128; i++)
        if (op_names[i] && name_eq(op_names[i], name))
            return (int)i;
    return -1;
}

static const char *const ctx_names[PRB_C_LAST + 1] = {
    "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11",
    "r12", "r13", "r14", "r15", [PRB_C_PSL] = "psl", [PRB_C_PCBB] = "pcbb",
    [PRB_C_ICNT] = "icnt", [PRB_C_ID] = "id", [PRB_C_EVENT] = "event",
    [PRB_C_DUR] = "dur", [PRB_C_DURX] = "durx", [PRB_C_COOKIE] = "cookie",
    [PRB_C_PID] = "pid", [PRB_C_UID] = "uid", [PRB_C_PROG] = "prog",
    [PRB_C_CYCLO] = "cycles", [PRB_C_CYCHI] = "cycleshi", [PRB_C_USEC] = "usecs",
    [PRB_C_CMISS] = "cachemiss", [PRB_C_TBMISS] = "tbmiss",
};

const char *prb_ctx_name(unsigned sel)
{
    return sel <= PRB_C_LAST ? ctx_names[sel] : NULL;
}

int prb_ctx_lookup(const char *name)
{
    for (unsigned i = 0; i <= PRB_C_LAST; i++)
        if (ctx_names[i] && name_eq(ctx_names[i], name))
            return (int)i;
    if (name_eq(name, "pc"))
        return 15;
    if (name_eq(name, "sp"))
        return 14;
    if (name_eq(name, "fp"))
        return 13;
    if (name_eq(name, "ap"))
        return 12;
    return -1;
}

static const char *const map_kind_names[PRB_M_NKINDS] = {
    "count", "sum", "min", "max", "stats", "hist", "lhist",
};

const char *prb_map_kind_name(unsigned kind)
{
    return kind < PRB_M_NKINDS ? map_kind_names[kind] : NULL;
}

int prb_map_kind_lookup(const char *name)
{
    for (unsigned i = 0; i < PRB_M_NKINDS; i++)
        if (name_eq(map_kind_names[i], name))
            return (int)i;
    return -1;
}

static const char *const kind_names[] = {
    [PRB_K_PC] = "pc", [PRB_K_RET] = "ret", [PRB_K_EVENT] = "event", [PRB_K_SAMPLE] = "sample",
};

const char *prb_kind_name(unsigned kind)
{
    return kind >= PRB_K_PC && kind <= PRB_K_SAMPLE ? kind_names[kind] : NULL;
}

int prb_kind_lookup(const char *name)
{
    for (unsigned i = PRB_K_PC; i <= PRB_K_SAMPLE; i++)
        if (name_eq(kind_names[i], name))
            return (int)i;
    return -1;
}

uint32_t prb_map_slot_bytes(const struct prb_map_desc *d)
{
    switch (d->kind) {
    case PRB_M_COUNT: case PRB_M_SUM: case PRB_M_MIN: case PRB_M_MAX: return 8;
    case PRB_M_STATS: return 24;
    case PRB_M_HIST: return 136;                     /* 33 longwords, padded */
    case PRB_M_LHIST: return ((d->lbuckets + 2) * 4 + 7) & ~7u;
    default: return 0;
    }
}

/* The costs: W microwords + R references on the worst path (each
 * reference up to PRB_COST_REF stall cycles).  FETCH and DEC are 2 words
 * and 1 reference for every instruction.  Counted from probe.mic; the
 * test tests/probe/ runs each one with the cache made to miss and dirty
 * and checks that no run exceeds it. */
#define WR(w, r) ((uint32_t)(w) + PRB_COST_REF * (uint32_t)(r))
#define FD WR(2, 1)
/* PRB.PREAD's reading path: PAMLOC, T5, PAMLOC<-, PAMACC, the test, PAMLOC
 * back, READP, T7 and RET */
#define PREAD WR(8, 1)
/* PRB.SXL: 7 words, PRB.PREAD, 5 words */
#define SXL (WR(12, 0) + PREAD)
/* PRB.VREAD through P0 or P1: 4 words, the region's table entry, 5
 * words, then PRB.VPX: 2, SXL, 2, PRB.PREAD (the PTE), 5, PRB.PREAD (the
 * datum) */
#define VREAD (WR(4 + 1 + 5 + 2, 0) + SXL + WR(2, 0) + PREAD + WR(5, 0) + PREAD)
/* PRB.RDX: 6 words */
#define RDX WR(6, 0)
/* TRACE.PUT called (SC != 0): the WRITEP, three words and RET */
#define PUT WR(4, 1)

uint32_t prb_insn_cost(const struct prb_insn *in, const struct prb_map_desc *maps,
                       unsigned nmaps)
{
    unsigned op = in->op;
    switch (prb_form(op)) {
    case PRB_F_NONE:
        if (op == PRB_EXIT)
            return FD + WR(1, 0);
        /* TRON: the slot, 7 words, TRACE.PUT, GOTO; TROFF: the slot, 5
         * words, TRACE.PUT, 1 */
        return FD + (op == PRB_TRON ? WR(9, 0) + PUT : WR(7, 0) + PUT);
    case PRB_F_RI: case PRB_F_RR:
        if ((op & 0x0F) == (PRB_DIV & 0x0F) || (op & 0x0F) == (PRB_MOD & 0x0F))
            return FD + WR(3, 0);             /* the slot, the divide, the result */
        return FD + WR(1, 0);
    case PRB_F_CTX: return FD + WR(3, 0);     /* slot, entry, PRB.CTX.MDR */
    case PRB_F_MEM:
        if (op == PRB_LDP)                    /* slot, 5 words + CALL, PREAD, GOTO, RDX */
            return FD + WR(7, 0) + PREAD + RDX;
        return FD + WR(6, 0) + VREAD + RDX;   /* slot, PRB.LDV, LDV1 (4 words) */
    case PRB_F_ABS: return FD + WR(5, 0) + VREAD + RDX;
    case PRB_F_REC: {
        /* slot + 10 words around the head's TRACE.PUT; a pair of values 5
         * words and a TRACE.PUT; the end 1 word, or a single value 3 and
         * a TRACE.PUT */
        uint32_t n = in->size, c = FD + WR(11, 0) + PUT;
        c += (n / 2) * (WR(5, 0) + PUT);
        c += (n & 1) ? WR(3, 0) + PUT : WR(1, 0);
        return c;
    }
    case PRB_F_AGG: {
        /* slot, descriptor reads and the slot's address: 8 words, 2
         * references; then the kind's flow */
        uint32_t c = FD + WR(8, 2);
        unsigned kind = in->imm < nmaps ? maps[in->imm].kind : PRB_M_STATS;
        switch (kind) {
        case PRB_M_COUNT: return c + WR(4, 2);
        case PRB_M_SUM: return c + WR(6, 2);
        case PRB_M_MIN: case PRB_M_MAX: return c + WR(5, 2);
        case PRB_M_STATS: return c + WR(16, 6);
        case PRB_M_HIST: return c + WR(5, 2);
        default: return c + WR(11, 4);        /* PRB_M_LHIST */
        }
    }
    /* the slot, a CALL, PRB.SLOT (5 words, 2 references), 2 words and the
     * slot's reference */
    case PRB_F_LDM: case PRB_F_STM: return FD + WR(9, 3);
    case PRB_F_WATCH: return FD + WR(3, 0);
    case PRB_F_PROBE: return FD + WR(2, 0);
    case PRB_F_NOTE: return FD + WR(1, 0);
    case PRB_F_JMP: return FD + WR(2, 0);
    case PRB_F_BRR: case PRB_F_BRI: return FD + WR(3, 0); /* taken: compare, SKIP, SKIP1 */
    case PRB_F_LOOP: return 0;                /* unrolled: its body is counted */
    default: return 0;
    }
}
