/* The machine's state (private to vax/machine): struct vax_machine, with
 * the types of its parts from the rooms that own them. */
#ifndef VAX_MACHINE_VM_INTERNAL_H
#define VAX_MACHINE_VM_INTERNAL_H

#include <stddef.h>

#include "vax/machine/vm.h"
#include "vax/machine/vm_cstore.h"
#include "vax/machine/vm_drom.h"
#include "vax/machine/vm_fbox.h"
#include "vax/machine/vm_mem.h"
#include "vax/machine/vm_net.h"
#include "vax/machine/vm_regs.h"

struct vm_io;
struct vm_probe;

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
                                 * 1 opened by TRACEWR, 2 by TRACEHK; the
                                 * probe window: 3 opened by an IRD's
                                 * request, 4 by PRBOPEN (vm_probe_unit.h) */
    uint64_t spam_t0;           /* the microcycle the window opened at */
    unsigned dz_br;             /* dz0's bus request level (vm_config) */
    uint16_t l_mchk, l_intr;    /* MACHINE_CHECK, INTERRUPT (0: absent) */
    /* memory management (MICROARCHITECTURE.md §11): the translation
     * buffer, the MMACC latch, and the microtrap abort state */
    struct vm_tbent tb[2][VM_TB_SETS]; /* [0] process half, [1] system half */
    uint32_t mmacc;             /* MMACC: <1:0> access mode, <2> write intent */
    uint32_t fcc;               /* the PSL latched by IRD: UTABORT restores its
                                 * CC, <3:0> (the whole PSL: one store less) */
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
    /* the engine above the sequencer that runs from its IRD points (the
     * dispatch interface, vm_interp.h: the trace cache's vm_tc_run; NULL:
     * none) */
    int (*engine)(struct vax_machine *m, uint64_t limit, int mapen, int snapped,
                  unsigned *upc);
    /* the lockstep check (vm_tcache_check.c): a second machine running
     * the plain interpreter beside this one; NULL: none */
    struct vm_tc_check *check;
    int con_discard;            /* console output goes nowhere (the check's
                                 * second machine) */
    /* accounting and status */
    struct vm_stats st;
    enum vm_stop stop;
    char reason[160];
    /* adapter space: memory's port to the I/O (vm_mem.h) */
    struct vm_abus_port abus;
    /* the probe unit (vm_probe_unit.c, MICROARCHITECTURE.md §15; NULL: no
     * program was ever loaded) and what the sequencer tests of it, all 0
     * (prb_next UINT64_MAX) without one: requests for the next IRD point
     * (VM_PRQ_*), the armed PC comparators, the watched frames, the next
     * sampling time; prb_epoch counts the loads and unloads, after which
     * the trace cache builds anew; the probe flows' entry and the SPAM
     * hooks' words the unit recognises */
    struct vm_probe *prb;
    uint32_t prb_req, prb_npc, prb_frames, prb_epoch;
    uint64_t prb_next;
    uint16_t l_prbreq;
    uint16_t l_hook_excint, l_hook_chm, l_hook_rei, l_hook_ldp, l_hook_event;
    /* the lines the PC comparators' addresses fall in, bit (VA >> 6) mod
     * 4096: the I-stream memo does not hold them (memory, vm_mem.c) */
    uint64_t prb_iline[64];
};

_Static_assert(offsetof(struct vax_machine, psl) ==
               offsetof(struct vax_machine, rf) + 4 * RF_PSL, "rf layout");
_Static_assert(offsetof(struct vax_machine, rf_sink) ==
               offsetof(struct vax_machine, rf) + 4 * RF_SINK, "rf layout");
_Static_assert(offsetof(struct vax_machine, opx) ==
               offsetof(struct vax_machine, rf) + 4 * RF_OPX, "rf layout");
_Static_assert(offsetof(struct vax_machine, lb) ==
               offsetof(struct vax_machine, rf) + 4 * RF_LB, "rf layout");

#endif
