/* The machine's state (private to vax/machine). */
#ifndef VAX_MACHINE_VM_INTERNAL_H
#define VAX_MACHINE_VM_INTERNAL_H

#include "vax/machine/vm.h"
#include "vax/machine/vm_fbox.h"
#include "vax/machine/vm_mem.h"
#include "vax/machine/vm_net.h"

#include <stddef.h>

struct vm_io;

/* Access classes of operand descriptors, in ACC-dispatch order. */
enum { ACC_R, ACC_M, ACC_W, ACC_A, ACC_V, ACC_B };

/* Operand variants: how the specifier flows treat an operand beyond its
 * access class (MICROARCHITECTURE.md §4): integer, F/D floating (their
 * short literals expand alike), G floating, octaword, H floating. */
enum { VAR_INT, VAR_F, VAR_G, VAR_O, VAR_H, VAR_N };
#define SPEC_CLASSES (5 * VAR_N) /* access class R M W A V x variant */

struct drom_entry {      /* one opcode's decode-ROM word */
    uint16_t entry;      /* execute entry point */
    uint8_t defined;     /* 0: reserved instruction */
    uint8_t n;           /* number of operands */
    uint8_t acc[6];      /* ACC_* */
    uint8_t sc[6];       /* specifier class: acc * VAR_N + variant */
    uint8_t dt[8];       /* 0 B, 1 W, 2 L, 3 Q, 4 O; L beyond the operands */
    uint8_t size[8];     /* dt's byte counts (SIZE) */
    uint8_t last;        /* the last operand (0 if none) */
    uint8_t wd0;         /* the first operand's width (L if none) */
    /* the register fork (MICROARCHITECTURE.md §4): when specifier `fork`
     * is register mode Rn (n < 15, no index), the SPECMODE dispatch enters
     * reg_entry (the label MNEMONIC.REG) instead of SPEC.X.REG; fork is
     * 0xFF when the microcode has no such label */
    uint8_t fork;
    uint16_t reg_entry;
    /* the memory fork: when operand mfork (the same operand, modify or
     * write) is in memory, SPECNEXT after the last specifier enters
     * mem_entry (MNEMONIC.MEM) instead of entry; 0xFF: no such label */
    uint8_t mfork;
    uint16_t mem_entry;
};

/* A microword pre-decoded when the control store is loaded (vm.c): the
 * word itself plus facts the sequencer would otherwise work out from its
 * fields every microcycle.  Nothing here changes what the word does. */
struct vm_pword {
    struct uword u;
    uint8_t fl;          /* PW_* */
    /* the bus selectors resolved to the register file (rf below): a
     * source reads rf[sel + lat[kind]]; kind PK_SLOW goes through the
     * general multiplexer with the field's own code */
    uint8_t sa, ka, sb, kb, ss, ks;
    uint8_t sd, kd, sd2, kd2;        /* destinations: PK_GPR, PK_RN, ... */
};
#define PW_XLATE 1u      /* may make a translated reference (snapshot) */
#define PW_SEQFETCH 2u   /* its sequencing fetches (IRD, SPECMODE) */
#define PW_MEM 4u        /* has a memory request */
#define PW_MISC 8u       /* has a MISC function */
#define PW_DP 16u        /* uses the data path (sources, ALU, results, flags) */
#define PW_S2 32u        /* uses S2/D2 (a second result, or an S2 side effect) */
#define PW_FL 64u        /* something looks at the ALU flags */
#define PW_SLOWSRC 128u  /* a source through the general multiplexer (IB...) */
/* selector kinds: 0-4 index lat[]; destinations add these */
#define PK_GPR 8         /* a general register: byte/word writes merge */
#define PK_RN 9          /* R[RN], logged for UNDO */
#define PK_OPR 10        /* R[OPA[OPK]] */
#define PK_RES 11        /* RES: MDR, and R[OPA[OPK]] for a register operand */
#define PK_IB 14         /* source IB: the I-stream, read inline */
#define PK_SLOW 15       /* the general multiplexer (src_slow, dst_slow) */
#define PK_SPECIAL(k) ((k) >= PK_IB) /* a source with side effects or traps */

/* The register file: every bus register the microword selects by number
 * lives at a fixed index, so a selector is an index plus a latch offset. */
enum {
    RF_T = 0, RF_R = 16, RF_OPV = 32, RF_OPH = 38, RF_OPA = 44,
    RF_OPX = 50, RF_OPY = 56,
    RF_PSL = 62, RF_MAR, RF_MDR, RF_Q, RF_SC, RF_ICNT,
    RF_ZERO, RF_K, RF_LIT, RF_SINK, RF_SIZE, RF_LA, RF_LB, RF_N = 76
};
#define VM_LS_WORDS 256 /* the E-box scratchpad (LSA, LSB; ESPA/ESPD) */
/* lat[] offsets: 0 none, 1 SPEC mod 6, 2 OPK, 3 RN, 4 the last operand,
 * 5 RN + 1 (mod 16) */
enum { LAT_0, LAT_SPEC, LAT_OPK, LAT_RN, LAT_LAST, LAT_RN1, LAT_N };

struct vax_machine {
    /* data path */
    union {
        uint32_t rf[RF_N];
        struct {
            uint32_t t[16], r[16];
            uint32_t opv[6], oph[6], opa[6];
            uint32_t opx[6], opy[6]; /* bits 95:64, 127:96 of an octaword */
            uint32_t psl, mar, mdr, q, sc, icnt;
            uint32_t rf_zero, rf_k, rf_lit, rf_sink;
            uint32_t rf_size;   /* SIZE: the current operand's bytes */
            uint32_t la, lb;    /* scratchpad addresses (LSA, LSB) */
        };
    };
    uint32_t ls[VM_LS_WORDS];   /* the E-box scratchpad */
    uint32_t espa;              /* its address for the IPR port (ESPA) */
    struct vm_fbox fbox;        /* the F-box (vm_fbox.h) */
    uint32_t lat[LAT_N];        /* selector offsets from the latches */
    /* The latches are words, not bytes: a byte store may alias anything
     * to the compiler, which then reloads the machine's state after each
     * one in the microcycle loop. */
    uint32_t wdl[7];            /* DL field -> width; [4] CUR, [5] OPK, [6] O */
    uint32_t opreg[6];
    uint32_t rn, rx, specb, spec, idx, opk;
    uint16_t opc;
    const struct drom_entry *cur;
    /* sequencer */
    uint16_t upc;
    uint16_t ustack[USTACK_DEPTH];
    int usp;
    int started;
    struct vm_pword *cs;        /* the control store, pre-decoded */
    /* decode ROMs */
    struct drom_entry drom[512];
    /* [indexed][specifier class][specifier byte]: mode and RN = PC or not */
    uint16_t spec_tab[2][SPEC_CLASSES][256];
    uint16_t spec_b;                /* branch displacement entry */
    uint16_t l_rsvinsn;
    /* memory */
    uint8_t *mem;
    uint32_t mem_size;
    uint32_t mem_alloc;         /* array bytes: memory + the SPAM megabyte */
    uint8_t pamm[1024];
    uint32_t pamloc;
    struct cache_set cache[VM_CACHE_SETS];
    struct vm_abus_port abus;   /* adapter space (vm_mem.h) */
    /* the memos of the current access mode, and those the other modes
     * left (vm_memo_mode) */
    struct vm_memoset memo;
    struct vm_memoset memo_saved[4];
    /* IPRs */
    uint32_t ipr[256];
    int ipr_bad;
    /* exception hardware (MICROARCHITECTURE.md §10) */
    uint32_t fpc;               /* FPC: PC of the current opcode (IRD latch) */
    uint32_t fva;               /* FVA: address of the failing reference */
    int fva_write;              /* ... and whether it was a write */
    uint32_t log_n;             /* register-change log (CLRLOG / UNDO) */
    /* (IRD clears these three with log_n: neighbours, fewer stores) */
    int mchk_active;            /* between a machine-check microtrap and IRD */
    int in_exc;                 /* INEXC latch: exception pushes .. IRD (KSNV) */
    int mm_active;              /* between a TB-miss microtrap and UTRET/UTABORT */
    uint32_t log_reg[16];
    uint32_t log_val[16];
    int utrap;                  /* a microtrap is pending this cycle */
    uint16_t utrap_upc;
    int spam_window;            /* TRACEWR .. IRD: SPAM's private IPRs open;
                                 * 1 opened by TRACEWR, 2 by TRACEHK */
    uint64_t spam_t0;           /* the microcycle the window opened at */
    unsigned dz_br;             /* dz0's bus request level (vm_config) */
    uint16_t l_mchk, l_intr;    /* MACHINE_CHECK, INTERRUPT (0: absent) */
    /* memory management (MICROARCHITECTURE.md §11): the translation
     * buffer, the MMACC latch, and the microtrap abort state */
    struct vm_tbent tb[2][VM_TB_SETS]; /* [0] process half, [1] system half */
    uint32_t mmacc;             /* MMACC: <1:0> access mode, <2> write intent */
    uint32_t fcc;               /* PSL<3:0> latched by IRD (UTABORT restores it) */
    uint16_t l_tbmiss;          /* TB_MISS (0: absent) */
    uint16_t l_trace;           /* TRACE_PENDING (0: absent: no tracing) */
    struct vm_snap {            /* the data path at the start of the trapped word */
        uint32_t rf[RF_N], fpc;
        uint32_t opreg[6], rn, rx, specb, spec, idx, opk;
        uint16_t opc, upc;
        const struct drom_entry *cur;
        uint16_t ustack[USTACK_DEPTH];
        int usp;
        uint32_t log_n, log_reg[16];
        uint32_t log_val[16];
        uint64_t instructions;
        int seq;                /* trapped in the sequencing phase (IRD, SPECMODE) */
        unsigned fl;            /* ... with this word's ALU flags, PSL and A */
        uint32_t psl0, a;
    } snap;
    /* IRD's interrupt check is skipped while nothing could have raised a
     * deliverable request: no device event due (int_next), the IPL the
     * same, no IPR access or acknowledge since (int_dirty) */
    uint64_t int_next;
    uint32_t int_ipl;           /* (in place: PSL & PSL_IPL_BITS) */
    int int_dirty;
    /* interrupt request lines */
    uint32_t sisr;              /* software interrupt summary <15:1> */
    int tmr_int, tti_int, tto_int;
    /* interval clock and TODR */
    uint32_t iccs, nicr, icr;
    uint64_t clk_last;          /* microcycle count at the last update */
    uint32_t clk_frac;          /* half-microcycles toward the next ICR tick */
    uint32_t todr_base;
    uint64_t todr_t0;
    /* console terminal */
    uint32_t rxcs, rxdb, txcs;
    uint64_t tto_done_at;       /* microcycle the transmitter becomes ready */
    uint64_t con_quiet_since;   /* last console activity */
    const uint8_t *con_in;      /* scripted input (NULL: host stdin) */
    size_t con_in_len, con_in_pos;
    int con_in_eof;
    int rx_polls;               /* RXCS reads without DONE since the last char */
    void *con_out;              /* FILE * (NULL: stdout) */
    /* 8600 registers */
    uint32_t cswp, ehsr, mdctl;
    /* events per SCB vector (MISC EVCNT) */
    uint64_t scb_count[128];
    /* the network interface (vm_net.c; all zero: absent) */
    struct vm_net net;
    /* the 8600's I/O: adapters, devices, their events (vm_io.c, vax/io) */
    struct vm_io *io;
    vm_utrace_fn utrace;
    void *utrace_ctx;
    /* the microcode trace cache (vm_tcache.c; NULL: off) and its scratch
     * cells: sources a handler computes (IB, RXS, ...) before the ALU */
    struct vm_tcache *tc;
    uint32_t tc_tmp[3];
    /* the executor's counts kept behind until it returns (vm_tcache_exec.c):
     * memory, not locals, which would take the registers its handlers need */
    uint64_t tc_refs, tc_interp, tc_decodes;
    /* an IRD point left pending (vm_ird_pending): an instruction step
     * ended there, or MAPEN changed in the word that ends an instruction */
    int step_ird;               /* stop at the next IRD point */
    int stepped;                /* ... and it did (vm_run returned there) */
    int pend_ird, pend_mapen;
    unsigned pend_fl;
    uint32_t pend_psl0, pend_a;
    /* the lockstep check (vm_tcache_check.c): a second machine running
     * the plain interpreter beside this one; NULL: none */
    struct vax_machine *shadow;
    struct vm_tc_check *check;
    int con_discard;            /* console output goes nowhere (the shadow) */
    /* accounting and status */
    struct vm_stats st;
    enum vm_stop stop;
    char reason[160];
};

/* One microword through the interpreter (vm_word_step): what it did. */
enum { VM_WS_NEXT, VM_WS_IRD, VM_WS_STOP, VM_WS_LIMIT };
struct vm_wstep {
    int status;          /* VM_WS_* */
    unsigned next;       /* NEXT: the next micro-address */
    int trapped;         /* NEXT: it microtrapped (next is the trap flow) */
    int remap;           /* an IPR write changed MAPEN */
    unsigned fl;         /* IRD: the word's ALU flags, PSL at its start and */
    uint32_t psl0, a;    /* A bus, for the IRD point's abort state */
};
/* vm.c, for the trace cache */
void vm_word_step(struct vax_machine *m, uint64_t limit, int mapen, struct vm_wstep *si);
void vm_ird_pending(struct vax_machine *m, int mapen, unsigned fl, uint32_t psl0,
                    uint32_t a);
#define VM_IRD_FETCH 0xFFFFu   /* vm_ird_pre: go on to the opcode fetch */
#define VM_SEQ_IRD 0xFFFFu     /* vm_seq_resolve: the word does IRD */
int vm_int_eval(struct vax_machine *m, uint32_t *vec);
uint64_t vm_dev_next_event(const struct vax_machine *m);
void vm_spec_advance(struct vax_machine *m);
uint16_t vm_ird_decode(struct vax_machine *m, uint32_t op);
uint16_t vm_spec_decode(struct vax_machine *m, uint32_t b);
uint32_t vm_istream(struct vax_machine *m, unsigned n);
int vm_seq_abort_state(struct vax_machine *m, int mapen, unsigned n, unsigned fl,
                       uint32_t psl0, uint32_t a, int ird);
unsigned vm_seq_resolve(struct vax_machine *m, const struct uword *w, unsigned fl,
                        uint32_t psl0, uint32_t a, unsigned wd);
int vm_cond(const struct vax_machine *m, unsigned c, unsigned fl, uint32_t psl,
            uint32_t a, const struct uword *w);
void vm_ucode_error(struct vax_machine *m, const char *what);
/* vm.c: vm_run without the lock-step check; vm_tcache_check.c: the check */
enum vm_stop vm_run_plain(struct vax_machine *m, uint64_t max_cycles);
int vm_check_attach(struct vax_machine *m, const struct vm_config *cfg, char *err,
                    size_t errlen);
void vm_check_detach(struct vax_machine *m);
void vm_check_note(struct vax_machine *m, const char *what);
enum vm_stop vm_check_run(struct vax_machine *m, uint64_t max_cycles);
/* vm_tcache_exec.c: the IRD point with the trace cache on (`snapped`: the
 * abort state for its fetch is taken): continue at *upc, return from
 * run_loop (stopped, or an instruction step ended), or MAPEN changed (the
 * other loop) */
enum { IRDP_CONT, IRDP_RETURN, IRDP_REMAP };
int vm_tc_run(struct vax_machine *m, uint64_t limit, int mapen, int snapped,
              unsigned *upc);

_Static_assert(offsetof(struct vax_machine, psl) ==
               offsetof(struct vax_machine, rf) + 4 * RF_PSL, "rf layout");
_Static_assert(offsetof(struct vax_machine, rf_sink) ==
               offsetof(struct vax_machine, rf) + 4 * RF_SINK, "rf layout");
_Static_assert(offsetof(struct vax_machine, opx) ==
               offsetof(struct vax_machine, rf) + 4 * RF_OPX, "rf layout");
_Static_assert(offsetof(struct vax_machine, lb) ==
               offsetof(struct vax_machine, rf) + 4 * RF_LB, "rf layout");

#endif
