/* The probe instruction set (issue 30; vax/probe/PROBES.md): opcodes,
 * operand forms, context selectors, map and checkpoint kinds, the
 * portable program (struct prb_program) that the assembler makes, the
 * image carries and the verifier checks, and the worst-case microcycle
 * cost of each instruction as microcode/probe.mic executes it. */
#ifndef VAX_PROBE_PROBE_ISA_H
#define VAX_PROBE_PROBE_ISA_H

#include <stddef.h>
#include <stdint.h>

/* Opcodes: the installed form's <6:0>, the probe.mic dispatch table. */
enum prb_op {
    PRB_EXIT = 0x00, PRB_LDI = 0x01, PRB_MOV = 0x02, PRB_CTX = 0x03,
    PRB_LDV = 0x04, PRB_LDP = 0x05, PRB_REC = 0x06, PRB_AGG = 0x07,
    PRB_WATCH = 0x08, PRB_ARM = 0x09, PRB_DISARM = 0x0A, PRB_TRON = 0x0B,
    PRB_TROFF = 0x0C, PRB_JMP = 0x0D, PRB_LDVA = 0x0E, PRB_NOTE = 0x0F,
    PRB_ADD = 0x10, PRB_SUB, PRB_AND, PRB_OR, PRB_XOR, PRB_SHL, PRB_SHR,
    PRB_SAR, PRB_MUL, PRB_DIV, PRB_MOD, /* 0x10-0x1A: a <- a op b */
    PRB_IMM = 0x10,                     /* + this: a <- a op imm (0x20-0x2A) */
    PRB_LDM = 0x30, PRB_STM = 0x31,     /* a count or sum map's slot as a variable */
    PRB_BEQ = 0x40, PRB_BNE = 0x42, PRB_BLT = 0x44, PRB_BLE = 0x46,
    PRB_BGT = 0x48, PRB_BGE = 0x4A, PRB_BLTU = 0x4C, PRB_BLEU = 0x4E,
    PRB_BGTU = 0x50, PRB_BGEU = 0x52,   /* compare a with b */
    PRB_BIMM = 0x20,                    /* + this: compare a with imm (0x60-0x72) */
    PRB_LOOP = 0x7F,                    /* image only: the loader unrolls it */
};

/* Operand forms (what the assembler parses and the verifier checks). */
enum prb_form {
    PRB_F_BAD,   /* not an opcode */
    PRB_F_NONE,  /* EXIT TRON TROFF */
    PRB_F_RI,    /* a, imm: LDI, ALU-imm */
    PRB_F_RR,    /* a, b: MOV, ALU */
    PRB_F_CTX,   /* a, selector */
    PRB_F_MEM,   /* a, [b + off], size: LDV LDP */
    PRB_F_ABS,   /* a, [imm], size: LDVA */
    PRB_F_REC,   /* tag, a, n */
    PRB_F_AGG,   /* map, key a, value b */
    PRB_F_LDM,   /* a <- map[b] */
    PRB_F_STM,   /* map[b] <- a */
    PRB_F_WATCH, /* ret probe, cookie a */
    PRB_F_PROBE, /* probe: ARM DISARM */
    PRB_F_NOTE,  /* imm: NOTE (tells the host; 1-255) */
    PRB_F_JMP,   /* skip */
    PRB_F_BRR,   /* a, b, skip */
    PRB_F_BRI,   /* a, imm, skip */
    PRB_F_LOOP,  /* count, body length */
};

/* One instruction of a program as the assembler makes it and the image
 * carries it (12 bytes there).  Registers a and b are 0-15; which of the
 * other fields mean something depends on the form:
 *   imm  immediate, CTX selector, LDV/LDP offset (signed, 24 bits), LDVA
 *        address, REC tag (0-255), AGG/LDM/STM map index, WATCH/ARM/DISARM probe
 *        index, LOOP count, NOTE code (1-255)
 *   size LDV/LDP/LDVA bytes (1, 2, 4), REC values (0-14)
 *   skip branches and JMP: instructions skipped when taken; LOOP: the
 *        body's length */
struct prb_insn {
    uint8_t op, a, b, size;
    uint32_t imm;
    uint32_t skip;
};

/* Context selectors (CTX).  0-15 the general registers (R15: the address
 * of the next instruction), then the rest; 32-44 are the unit's own
 * registers (IPR 0xF0 + selector - 32). */
enum prb_ctx {
    PRB_C_R0 = 0, PRB_C_PSL = 16, PRB_C_PCBB = 17, PRB_C_ICNT = 18,
    PRB_C_ID = 32, PRB_C_EVENT, PRB_C_DUR, PRB_C_DURX, PRB_C_COOKIE,
    PRB_C_PID, PRB_C_UID, PRB_C_PROG, PRB_C_CYCLO, PRB_C_CYCHI,
    PRB_C_USEC, PRB_C_CMISS, PRB_C_TBMISS,
    PRB_C_LAST = PRB_C_TBMISS,
};

/* Map kinds (AGG) and their slots in the probe region. */
enum prb_map_kind {
    PRB_M_COUNT,  /* u64 count */
    PRB_M_SUM,    /* s64 sum */
    PRB_M_MIN,    /* u32 count, s32 the least value */
    PRB_M_MAX,    /* u32 count, s32 the greatest */
    PRB_M_STATS,  /* u64 count, s64 sum, s32 min, s32 max */
    PRB_M_HIST,   /* 33 u32: value 0, then [2^(k-1), 2^k) for k = 1..32 */
    PRB_M_LHIST,  /* u32: below lmin, lbuckets of lstep, at or above the end */
    PRB_M_NKINDS
};

/* Checkpoint kinds. */
enum prb_kind {
    PRB_K_PC = 1,     /* the IRD that starts the instruction at virtual addr */
    PRB_K_RET,        /* the RET of a frame a PC probe's WATCH named */
    PRB_K_EVENT,      /* a SPAM event: (id & mask) == addr */
    PRB_K_SAMPLE,     /* every addr microcycles, at the next IRD */
};
#define PRB_PF_DISARMED 1u /* not armed at load (an ARM arms it) */
#define PRB_PF_PID 2u      /* fires only for process pid */
#define PRB_PF_PROG 4u     /* ... only while the executable is prog */
#define PRB_PF_UID 8u      /* ... only for a process of user uid */
#define PRB_PF_IPL 16u     /* ... only at an IPL from ipl_lo to ipl_hi */

struct prb_probe_desc {
    uint8_t kind, flags;
    uint8_t modes;     /* bit n: fires in PSL<25:24> = n; 0: every mode */
    uint32_t addr, mask;
    uint32_t pid, prog;
    uint16_t uid;      /* the process's u_uid (PRB_PF_UID) */
    uint8_t ipl_lo, ipl_hi; /* PSL<20:16> within them (PRB_PF_IPL) */
    uint32_t budget;   /* microcycles; 0: PRB_DEFAULT_BUDGET */
    uint16_t code, len;
};

struct prb_map_desc {
    uint8_t kind;
    uint32_t keys;     /* 1..PRB_MAX_KEYS; a key >= keys goes to slot keys */
    int32_t lmin;      /* PRB_M_LHIST */
    uint32_t lstep, lbuckets;
};

#define PRB_MAX_PROBES 64
#define PRB_MAX_MAPS 64
#define PRB_MAX_CODE 4096        /* instructions in a program's image */
#define PRB_MAX_ROUTINE 2048     /* installed instructions of one routine */
#define PRB_MAX_KEYS 65536
#define PRB_MAX_LBUCKETS 1024
#define PRB_MAX_LOOP 256
#define PRB_MAX_REC 14
#define PRB_DEFAULT_BUDGET 2000u
#define PRB_MAX_BUDGET 1000000u
#define PRB_MIN_PERIOD 1000u     /* a sampling probe's least period, microcycles */
#define PRB_NAME 32

/* A program: probes, the maps they update, their code. */
struct prb_program {
    unsigned nprobes, nmaps, ncode;
    struct prb_probe_desc probe[PRB_MAX_PROBES];
    struct prb_map_desc map[PRB_MAX_MAPS];
    struct prb_insn code[PRB_MAX_CODE];
    /* the text form's names and lines (empty and 0 for an image) */
    char probe_name[PRB_MAX_PROBES][PRB_NAME];
    char map_name[PRB_MAX_MAPS][PRB_NAME];
    unsigned line[PRB_MAX_CODE];
    unsigned probe_line[PRB_MAX_PROBES];
};

/* The opcode's form (PRB_F_BAD: none) and its assembler name. */
enum prb_form prb_form(unsigned op);
const char *prb_op_name(unsigned op);
/* By name (case-insensitive): the opcode, or -1. */
int prb_op_lookup(const char *name);
const char *prb_ctx_name(unsigned sel);   /* NULL: no such selector */
int prb_ctx_lookup(const char *name);
const char *prb_map_kind_name(unsigned kind);
int prb_map_kind_lookup(const char *name);
const char *prb_kind_name(unsigned kind);
int prb_kind_lookup(const char *name);
/* The bytes of one key's slot in the probe region (8-byte multiple). */
uint32_t prb_map_slot_bytes(const struct prb_map_desc *d);

/* Worst-case microcycles (MICROARCHITECTURE.md §15, PROBES.md "Costs"):
 * every microword on the longest path through probe.mic, and 12 stall
 * cycles (a miss and the write-back of a dirty victim) for every
 * memory reference on it.  The instruction's own fetch and decode are
 * included; a routine adds PRB_COST_ROUTINE once. */
#define PRB_COST_REF 12u
#define PRB_COST_ROUTINE 4u      /* PRB_NEXT, its dispatch, PRB_MAPS, T14 */
#define PRB_COST_REQUEST 4u      /* the request's own words: event id, last PRB_NEXT, dispatch, IRD */
uint32_t prb_insn_cost(const struct prb_insn *in, const struct prb_map_desc *maps,
                       unsigned nmaps);

#endif
