/* The microcode trace cache (README.md, "Speed"): the sequencer's memory
 * of the microword paths instructions took, replayed by handlers
 * specialised for each word.  Private to vax/machine.
 *
 * A trace is recorded by the interpreter itself (vm_word_step, one word
 * at a time) from an IRD point: the opcode, its physical address (the
 * key), the decode, and every word executed until the next IRD point,
 * with the sequencer's latches (SPEC, OPK, RN, the widths...) before
 * each.  Along one path those latches are constants, so the builder
 * (vm_tcache.c) turns each word into a few micro-operations (uops) with
 * its register selectors resolved to cells of the machine, its widths,
 * literals and sizes as constants and its memory request bound to a
 * memo; the executor (vm_tcache_exec.c) runs them.  Whatever a path's
 * outcome depends on at run time is checked where the interpreter
 * decides it: every specifier byte against the recorded one, every
 * conditional micro-branch and data dispatch against the recorded
 * outcome (a guard).  A guard that fails leaves the trace at that very
 * word: the interpreter's own sequencing logic finishes the word, and a
 * side trace recorded from there (or the interpreter) continues.  Since
 * the bytes are checked where they are consumed, a trace never needs
 * invalidating when code is written (by the guest, a device or the
 * host): a stale one fails its first byte check.  A word the builder
 * does not specialise, and one whose memory reference misses the memo,
 * runs through the interpreter (vm_word_step) and the trace goes on.
 *
 * Nothing about the machine changes: every word still executes, every
 * cache and TB reference updates the same counters and LRU, microcycles
 * are added at the points where anything reads them, and the latches
 * the trace keeps as constants are written back to the machine
 * ("materialised") wherever the interpreter or the host could look:
 * at every exit from a trace and every generic word. */
#ifndef VAX_MACHINE_VM_TCACHE_H
#define VAX_MACHINE_VM_TCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "vax/machine/vm_interp.h"

/* The sequencer's latches at one point of a path: what a trace keeps
 * as constants.  The RN group (RN, SPECB, the literal) and RX are
 * recorded only once the path itself has set them (rn_def, rx_def):
 * before that they belong to the previous instruction. */
struct tc_latch {
    const struct drom_entry *cur;
    uint32_t lat_spec, lat_opk, lat_last, wdl_cur, wdl_opk, rf_size;
    uint32_t spec, idx, opk;
    uint32_t rn, specb, rf_lit, rx;
    uint16_t opc;
    uint8_t rn_def, rx_def;
};

/* The micro-operations (vm_tcache_exec.c).  TC_ALU_FNS are the ALU
 * functions with specialised handlers: at widths B, W, L; each without
 * flags, with flags, or with flags and one of the CC controls ARITH to
 * NZVC0 (TC_ALU_VARS); each also stores its result to the cell at byte
 * offset k of the machine (a plain destination, or the sink).  Every
 * other function goes through ALU_GEN. */
#define TC_ALU_FNS(X) X(PASSA) X(PASSB) X(ADD) X(SUB) X(AND) X(OR) X(XOR) X(BIC) \
    X(ZEXT) X(SEXT) X(SHL) X(SHR) X(SAR) X(ROTL) X(MASK) X(PACK)
#define TC_UOPS(X)                                                              \
    /* control */                                                              \
    X(END) X(EXIT) X(LOOP) X(SYNC) X(GEN) X(MOV) X(MOV2) X(KR)                 \
    /* sources a handler computes into m->tc_tmp[y] */                          \
    X(IB) X(RXS) X(SOPR) X(SLS)                                                 \
    X(S2) X(PSL0) X(LDA) X(ALU_GEN)                                             \
    /* destinations: _R the ALU result, _S the second bus */                   \
    X(ST_R) X(ST_S) X(STW_R) X(STW_S) X(STRN_R) X(STRN_S) X(STRES_R)            \
    X(STOPR_R) X(STOPR_S) X(STPSL_R) X(STPSL_S) X(STLS_R) X(STLS_S)             \
    /* condition codes */                                                      \
    X(CC_ARITH) X(CC_LOGIC) X(CC_TEST) X(CC_CMP) X(CC_NZV) X(CC_NZVC0)          \
    X(CC_QUAD)                                                                 \
    /* memory: the memo check before any result is written, the reference */  \
    X(MCK_R) X(MCK_S) X(MCK_P) X(RD) X(RDOP) X(WR) X(WROP)                      \
    /* MISC */                                                                 \
    X(SETREG) X(SETMEM) X(CLRLOG) X(EVCNT) X(INEXC) X(TRACEWR) X(TRACEHK)                  \
    /* sequencing: micro-stack, guards, the specifier byte */                  \
    X(PUSH) X(POP) X(G_COND) X(G_PSL_Z) X(G_PSL_N) X(G_PSL_V) X(G_PSL_C)       \
    X(G_PSL_NZ) X(G_PSL_CZ) X(G_IOVT) X(G_ALU_Z) X(G_ALU_N) X(G_ALU_V)          \
    X(G_ALU_C) X(G_ALU_LT) X(G_ALU_LE) X(G_ALU_CZ) X(G_OPREG) X(G_OPREG_NOVT)   \
    X(G_NOVT)                                                                  \
    X(G_SC_Z) X(G_A_B0) X(G_A_B31) X(G_A_Z) X(G_PSL_KERN)                       \
    X(GD_A4) X(GD_A2) X(GD_OPREG) X(GD_SPM) X(GD_MFORK) X(SPEC)                \
    /* SPEC and IB where a root's bytes go on into the next cache line of   \
     * the page: the first reference there (iscan) */                        \
    X(SPECL) X(IBL)

#define TC_ENUM_ITEM(n) TU_##n,
enum tc_uop_code {
    TC_UOPS(TC_ENUM_ITEM)
    TU_ALU_BASE /* + (fn * 3 + width) * TC_ALU_VARS + variant */
};
#undef TC_ENUM_ITEM
#define TC_ENUM_ITEM(n) TCF_##n,
enum { TC_ALU_FNS(TC_ENUM_ITEM) TCF__N };
#undef TC_ENUM_ITEM
/* variants: 0 no flags, 1 flags, 2 + (CC - UCC_ARITH) flags and CC */
#define TC_ALU_VARS 8
#define TCA(F, W, V) (TU_ALU_BASE + (TCF_##F * 3 + (W)) * TC_ALU_VARS + (V))
/* Some of them again at L with operand A the executor's own r (ALUR):
 * the builder uses these where A's cell holds the last ALU result, just
 * stored there, so that the value does not make a round trip through
 * memory from one word to the next (a push's MAR - 4, a mask rotated
 * four bits at a time). */
#define TC_ALUR_FNS(X) X(ADD) X(SUB) X(AND) X(OR) X(XOR) X(BIC) X(SHL) X(SHR) X(ROTL)
#define TC_ENUM_ITEM(n) TCR_##n,
enum { TC_ALUR_FNS(TC_ENUM_ITEM) TCR__N };
#undef TC_ENUM_ITEM
#define TU_ALUR_BASE (TU_ALU_BASE + TCF__N * 3 * TC_ALU_VARS)
#define TCR(F, V) (TU_ALUR_BASE + TCR_##F * TC_ALU_VARS + (V))
/* ALUM: the ALU at L without flags (variant 0), or its ALUR form, and the
 * MOV after it in one handler: a word whose second bus moves a value to a
 * plain destination besides its ALU result (vm_tcache.c, s2mov) -- CALLS
 * and RET are made of such words. */
#define TU_ALUM_BASE (TU_ALUR_BASE + TCR__N * TC_ALU_VARS)
#define TCM(F) (TU_ALUM_BASE + TCF_##F)
#define TCRM(F) (TU_ALUM_BASE + TCF__N + TCR_##F)

/* Pairs of uops frequent enough to have one handler for both (the
 * builder fuses them where they are adjacent): name, the first uop's
 * code and body, the second's (bodies: vm_tcache_exec.c).  Chosen from
 * counts on EVKAA, the bundled guest and the benchmark loops. */
#define TC_FUSED(X)                                                            \
    X(SPEC_MOV2, TU_SPEC, TCB_SPEC, TU_MOV2, TCB_MOV2)                          \
    X(SPEC_S2, TU_SPEC, TCB_SPEC, TU_S2, TCB_S2)                                \
    X(SPEC_SPEC, TU_SPEC, TCB_SPEC, TU_SPEC, TCB_SPEC)                          \
    X(SPEC_MOV, TU_SPEC, TCB_SPEC, TU_MOV, TCB_MOV)                             \
    X(SPEC_IB, TU_SPEC, TCB_SPEC, TU_IB, TCB_IB)                                \
    X(SPEC_SETREG, TU_SPEC, TCB_SPEC, TU_SETREG, TCB_SETREG)                    \
    X(SPEC_CMPL, TU_SPEC, TCB_SPEC, TCA(SUB, 2, 5), TCB_ALU(SUB, 2, 5))          \
    X(SPEC_CMPB, TU_SPEC, TCB_SPEC, TCA(SUB, 0, 5), TCB_ALU(SUB, 0, 5))          \
    X(SPEC_MOVL, TU_SPEC, TCB_SPEC, TCA(PASSA, 2, 3), TCB_ALU(PASSA, 2, 3))      \
    X(SPEC_ADDL, TU_SPEC, TCB_SPEC, TCA(ADD, 2, 2), TCB_ALU(ADD, 2, 2))          \
    X(SPEC_ADD, TU_SPEC, TCB_SPEC, TCA(ADD, 2, 0), TCB_ALU(ADD, 2, 0))           \
    X(SPEC_SUBNZV, TU_SPEC, TCB_SPEC, TCA(SUB, 2, 6), TCB_ALU(SUB, 2, 6))        \
    X(MOV2_SPEC, TU_MOV2, TCB_MOV2, TU_SPEC, TCB_SPEC)                          \
    X(MOV2_SETREG, TU_MOV2, TCB_MOV2, TU_SETREG, TCB_SETREG)                    \
    X(MOV_SPEC, TU_MOV, TCB_MOV, TU_SPEC, TCB_SPEC)                             \
    X(MOV_RXS, TU_MOV, TCB_MOV, TU_RXS, TCB_RXS)                                \
    X(IB_SEXTB, TU_IB, TCB_IB, TCA(SEXT, 0, 0), TCB_ALU(SEXT, 0, 0))             \
    X(IB_SEXTW, TU_IB, TCB_IB, TCA(SEXT, 1, 0), TCB_ALU(SEXT, 1, 0))             \
    X(IB_PASSL, TU_IB, TCB_IB, TCA(PASSA, 2, 0), TCB_ALU(PASSA, 2, 0))           \
    X(SEXTB_GZ, TCA(SEXT, 0, 0), TCB_ALU(SEXT, 0, 0), TU_G_PSL_Z, TCB_G_PSL_Z)   \
    X(SEXTB_GNZ, TCA(SEXT, 0, 0), TCB_ALU(SEXT, 0, 0), TU_G_PSL_NZ, TCB_G_PSL_NZ) \
    X(SEXTB_ADD, TCA(SEXT, 0, 0), TCB_ALU(SEXT, 0, 0), TCA(ADD, 2, 0), TCB_ALU(ADD, 2, 0)) \
    X(SEXTB_ADDNZV, TCA(SEXT, 0, 0), TCB_ALU(SEXT, 0, 0), TCA(ADD, 2, 6), TCB_ALU(ADD, 2, 6)) \
    X(S2_ADD, TU_S2, TCB_S2, TCA(ADD, 2, 0), TCB_ALU(ADD, 2, 0))                 \
    X(S2_SUB, TU_S2, TCB_S2, TCA(SUB, 2, 0), TCB_ALU(SUB, 2, 0))                 \
    X(S2_AND, TU_S2, TCB_S2, TCA(AND, 2, 0), TCB_ALU(AND, 2, 0))                 \
    X(S2_BIC, TU_S2, TCB_S2, TCA(BIC, 2, 0), TCB_ALU(BIC, 2, 0))                 \
    X(S2_PASSA, TU_S2, TCB_S2, TCA(PASSA, 2, 0), TCB_ALU(PASSA, 2, 0))           \
    X(S2_GEN, TU_S2, TCB_S2, TU_ALU_GEN, TCB_ALU_GEN)                           \
    X(ADD_END, TCA(ADD, 2, 0), TCB_ALU(ADD, 2, 0), TU_END, TCB_END)              \
    X(ADD_MCKP, TCA(ADD, 2, 0), TCB_ALU(ADD, 2, 0), TU_MCK_P, TCB_MCK_P)         \
    X(ADD_MCKR, TCA(ADD, 2, 0), TCB_ALU(ADD, 2, 0), TU_MCK_R, TCB_MCK_R)         \
    X(ADD_MCKS, TCA(ADD, 2, 0), TCB_ALU(ADD, 2, 0), TU_MCK_S, TCB_MCK_S)         \
    X(SUB_MCKR, TCA(SUB, 2, 0), TCB_ALU(SUB, 2, 0), TU_MCK_R, TCB_MCK_R)         \
    X(ADD_GIOVT, TCA(ADD, 2, 0), TCB_ALU(ADD, 2, 0), TU_G_IOVT, TCB_G_IOVT)      \
    X(CMPL_END, TCA(SUB, 2, 5), TCB_ALU(SUB, 2, 5), TU_END, TCB_END)             \
    X(CMPB_END, TCA(SUB, 0, 5), TCB_ALU(SUB, 0, 5), TU_END, TCB_END)             \
    X(MOVL_STRN, TCA(PASSA, 2, 3), TCB_ALU(PASSA, 2, 3), TU_STRN_R, TCB_STRN_R)  \
    X(ADDL_STRN, TCA(ADD, 2, 2), TCB_ALU(ADD, 2, 2), TU_STRN_R, TCB_STRN_R)      \
    X(SUBNZV_STRN, TCA(SUB, 2, 6), TCB_ALU(SUB, 2, 6), TU_STRN_R, TCB_STRN_R)    \
    X(S2_SUBR, TU_S2, TCB_S2, TCR(SUB, 0), TCB_ALUR(SUB, 0))                      \
    X(S2_ADDR, TU_S2, TCB_S2, TCR(ADD, 0), TCB_ALUR(ADD, 0))                      \
    X(XORL_STRN, TCA(XOR, 2, 3), TCB_ALU(XOR, 2, 3), TU_STRN_R, TCB_STRN_R)      \
    X(BICL_STRN, TCA(BIC, 2, 3), TCB_ALU(BIC, 2, 3), TU_STRN_R, TCB_STRN_R)      \
    X(ANDF_GZ, TCA(AND, 2, 1), TCB_ALU(AND, 2, 1), TU_G_ALU_Z, TCB_G_ALU_Z)      \
    X(PASSA_STOPR, TCA(PASSA, 2, 0), TCB_ALU(PASSA, 2, 0), TU_STOPR_R, TCB_STOPR_R) \
    X(STRN_END, TU_STRN_R, TCB_STRN_R, TU_END, TCB_END)                         \
    X(STRN_SETREG, TU_STRN_R, TCB_STRN_R, TU_SETREG, TCB_SETREG)                \
    X(STPSL_END, TU_STPSL_R, TCB_STPSL_R, TU_END, TCB_END)                      \
    X(GOPNOVT_END, TU_G_OPREG_NOVT, TCB_G_OPREG_NOVT, TU_END, TCB_END)          \
    X(GIOVT_END, TU_G_IOVT, TCB_G_IOVT, TU_END, TCB_END)                        \
    X(GNOVT_END, TU_G_NOVT, TCB_G_NOVT, TU_END, TCB_END)                        \
    X(GZ_END, TU_G_PSL_Z, TCB_G_PSL_Z, TU_END, TCB_END)                         \
    X(GZ_ADD, TU_G_PSL_Z, TCB_G_PSL_Z, TCA(ADD, 2, 0), TCB_ALU(ADD, 2, 0))       \
    X(GNZ_ADD, TU_G_PSL_NZ, TCB_G_PSL_NZ, TCA(ADD, 2, 0), TCB_ALU(ADD, 2, 0))    \
    X(GEN_STRES, TU_ALU_GEN, TCB_ALU_GEN, TU_STRES_R, TCB_STRES_R)              \
    X(GEN_ST, TU_ALU_GEN, TCB_ALU_GEN, TU_ST_R, TCB_ST_R)                       \
    X(STRES_NZVC0, TU_STRES_R, TCB_STRES_R, TU_CC_NZVC0, TCB_CC_NZVC0)          \
    X(NZVC0_GOPNOVT, TU_CC_NZVC0, TCB_CC_NZVC0, TU_G_OPREG_NOVT, TCB_G_OPREG_NOVT) \
    X(SETREG_GEN, TU_SETREG, TCB_SETREG, TU_ALU_GEN, TCB_ALU_GEN)               \
    X(SETREG_GNOVT, TU_SETREG, TCB_SETREG, TU_G_NOVT, TCB_G_NOVT)               \
    X(SETREG_IB, TU_SETREG, TCB_SETREG, TU_IB, TCB_IB)                          \
    X(SETREG_END, TU_SETREG, TCB_SETREG, TU_END, TCB_END)                       \
    X(LDA_GAZ, TU_LDA, TCB_LDA, TU_G_A_Z, TCB_G_A_Z)                            \
    X(GAZ_GEN, TU_G_A_Z, TCB_G_A_Z, TU_ALU_GEN, TCB_ALU_GEN)                    \
    X(RDOP_SPEC, TU_RDOP, TCB_RDOP, TU_SPEC, TCB_SPEC)                          \
    X(MCKP_RDOP, TU_MCK_P, TCB_MCK_P, TU_RDOP, TCB_RDOP)                        \
    X(MCKR_ST, TU_MCK_R, TCB_MCK_R, TU_ST_R, TCB_ST_R)                          \
    X(MCKS_STRN, TU_MCK_S, TCB_MCK_S, TU_STRN_R, TCB_STRN_R)                    \
    X(ST_ST, TU_ST_R, TCB_ST_R, TU_ST_S, TCB_ST_S)                              \
    X(ST_WR, TU_ST_S, TCB_ST_S, TU_WR, TCB_WR)                                  \
    X(STS_RDOP, TU_ST_S, TCB_ST_S, TU_RDOP, TCB_RDOP)                           \
    X(STS_RD, TU_ST_S, TCB_ST_S, TU_RD, TCB_RD)                                 \
    X(RXS_ADD, TU_RXS, TCB_RXS, TCA(ADD, 2, 0), TCB_ALU(ADD, 2, 0))             \
    /* (counted on the 4.3BSD boot, mostly its idle loop, and EVKAA) */       \
    X(SUBF_GZ, TCA(SUB, 2, 1), TCB_ALU(SUB, 2, 1), TU_G_ALU_Z, TCB_G_ALU_Z)      \
    X(SUBF_GC, TCA(SUB, 2, 1), TCB_ALU(SUB, 2, 1), TU_G_ALU_C, TCB_G_ALU_C)      \
    X(SUBF_GLE, TCA(SUB, 2, 1), TCB_ALU(SUB, 2, 1), TU_G_ALU_LE, TCB_G_ALU_LE)   \
    X(ST_RDOP, TU_ST_R, TCB_ST_R, TU_RDOP, TCB_RDOP)                            \
    X(RDOP_PASSA4, TU_RDOP, TCB_RDOP, TCA(PASSA, 2, 4), TCB_ALU(PASSA, 2, 4))    \
    X(PASSA4_END, TCA(PASSA, 2, 4), TCB_ALU(PASSA, 2, 4), TU_END, TCB_END)       \
    X(PASSA3_END, TCA(PASSA, 2, 3), TCB_ALU(PASSA, 2, 3), TU_END, TCB_END)       \
    X(OR_STPSL, TCA(OR, 2, 0), TCB_ALU(OR, 2, 0), TU_STPSL_R, TCB_STPSL_R)       \
    X(BIC_STPSL, TCA(BIC, 2, 0), TCB_ALU(BIC, 2, 0), TU_STPSL_R, TCB_STPSL_R)    \
    X(MOV_GKERN, TU_MOV, TCB_MOV, TU_G_PSL_KERN, TCB_G_PSL_KERN)                \
    X(STRES_GOPREG, TU_STRES_R, TCB_STRES_R, TU_G_OPREG, TCB_G_OPREG)           \
    X(MOV_END, TU_MOV, TCB_MOV, TU_END, TCB_END)                                \
    X(WR_END, TU_WR, TCB_WR, TU_END, TCB_END)                                   \
    X(RD_MOV, TU_RD, TCB_RD, TU_MOV, TCB_MOV)                                   \
    /* (CALLS and RET: the entry mask scanned four bits at a time) */         \
    X(ROTLR_GDA4, TCR(ROTL, 0), TCB_ALUR(ROTL, 0), TU_GD_A4, TCB_GD_A4)          \
    X(ROTL_GDA4, TCA(ROTL, 2, 0), TCB_ALU(ROTL, 2, 0), TU_GD_A4, TCB_GD_A4)      \
    X(GDA4_PUSH, TU_GD_A4, TCB_GD_A4, TU_PUSH, TCB_PUSH)                        \
    X(ANDR_GAB31, TCR(AND, 0), TCB_ALUR(AND, 0), TU_G_A_B31, TCB_G_A_B31)        \
    X(S2_ANDW, TU_S2, TCB_S2, TCA(AND, 1, 0), TCB_ALU(AND, 1, 0))                \
    X(MCKS_STST, TU_MCK_S, TCB_MCK_S, TU_ST_R, TCB_ST_R)                        \
    /* (KR: a guard on its flags, decided when the trace was built, is not \
     * looked at: fold_consts makes sure it goes the recorded way) */        \
    X(KR_GZ, TU_KR, TCB_KR, TU_G_ALU_Z, (void)0)                                \
    X(KR_GC, TU_KR, TCB_KR, TU_G_ALU_C, (void)0)                                \
    X(KR_GN, TU_KR, TCB_KR, TU_G_ALU_N, (void)0)                                \
    X(KR_GLT, TU_KR, TCB_KR, TU_G_ALU_LT, (void)0)                              \
    X(KR_GLE, TU_KR, TCB_KR, TU_G_ALU_LE, (void)0)                              \
    X(KR_GCZ, TU_KR, TCB_KR, TU_G_ALU_CZ, (void)0)                              \
    X(KR_KR, TU_KR, TCB_KR, TU_KR, TCB_KR)

/* Longer runs, made of a fused run already in place (its code and the
 * number of uops it covers) and the run after it: name, the two codes,
 * the first run's length, the bodies in order separated by u++.  Applied
 * after the pairs, in this order (a later entry may extend an earlier).
 * The memory words of CALLS, RET, PUSHR and POPR: MAR +- 4, the memo
 * check, MAR, MDR and the reference. */
#define TC_FUSED_MORE(X)                                                       \
    X(S2SUBR_MCKR, TU_F_S2_SUBR, TU_F_MCKR_ST, 2,                              \
      TCB_S2; u++; TCB_ALUR(SUB, 0); u++; TCB_MCK_R; u++; TCB_ST_R)             \
    X(S2ADDR_MCKR, TU_F_S2_ADDR, TU_F_MCKR_ST, 2,                              \
      TCB_S2; u++; TCB_ALUR(ADD, 0); u++; TCB_MCK_R; u++; TCB_ST_R)             \
    X(MCKR_ST_WR, TU_F_MCKR_ST, TU_F_ST_WR, 2,                                 \
      TCB_MCK_R4W; u++; TCB_ST_R; u++; TCB_ST_S; u++; TCB_WR4)                  \
    X(MCKR_ST_RD, TU_F_MCKR_ST, TU_F_STS_RD, 2,                                \
      TCB_MCK_R4R; u++; TCB_ST_R; u++; TCB_ST_S; u++; TCB_RD4)                  \
    X(PUSHMEM, TU_F_S2SUBR_MCKR, TU_F_ST_WR, 4,                                \
      TCB_S2; u++; TCB_ALUR_SINK(SUB); u++; TCB_MCK_R4W; u++; TCB_ST_R; u++;   \
      TCB_ST_S; u++; TCB_WR4)                                                  \
    X(POPMEM, TU_F_S2ADDR_MCKR, TU_F_STS_RD, 4,                                \
      TCB_S2; u++; TCB_ALUR_SINK(ADD); u++; TCB_MCK_R4R; u++; TCB_ST_R; u++;   \
      TCB_ST_S; u++; TCB_RD4)                                                  \
    /* (counted on the 4.3BSD boot and EVKAA) */                              \
    X(IBSEXTB_GZEND, TU_F_IB_SEXTB, TU_F_GZ_END, 2,                            \
      TCB_IB; u++; TCB_ALU(SEXT, 0, 0); u++; TCB_G_PSL_Z; u++; TCB_END)         \
    X(IBSEXTB_ADDEND, TU_F_IB_SEXTB, TU_F_ADD_END, 2,                          \
      TCB_IB; u++; TCB_ALU(SEXT, 0, 0); u++; TCB_ALU(ADD, 2, 0); u++; TCB_END)  \
    X(IBSEXTB_GZADD, TU_F_IB_SEXTB, TU_F_GZ_ADD, 2,                            \
      TCB_IB; u++; TCB_ALU(SEXT, 0, 0); u++; TCB_G_PSL_Z; u++;                  \
      TCB_ALU(ADD, 2, 0))                                                      \
    X(IBSEXTB_GNZADD, TU_F_IB_SEXTB, TU_F_GNZ_ADD, 2,                          \
      TCB_IB; u++; TCB_ALU(SEXT, 0, 0); u++; TCB_G_PSL_NZ; u++;                 \
      TCB_ALU(ADD, 2, 0))                                                      \
    X(ADDMCKR_ST, TU_F_ADD_MCKR, TU_ST_R, 2,                                   \
      TCB_ALU(ADD, 2, 0); u++; TCB_MCK_R; u++; TCB_ST_R)                        \
    X(SPECIB_MOV, TU_F_SPEC_IB, TU_MOV, 2, TCB_SPEC; u++; TCB_IB; u++; TCB_MOV) \
    X(SPECMOV2_SPECMOV2, TU_F_SPEC_MOV2, TU_F_SPEC_MOV2, 2,                    \
      TCB_SPEC; u++; TCB_MOV2; u++; TCB_SPEC; u++; TCB_MOV2)                   \
    /* (CALLS and RET: the frame's pushes and pops whose MAR +- 4 is not     \
     * the last ALU result, and the words around them) */                    \
    X(S2SUB_MCKRSTWR, TU_F_S2_SUB, TU_F_MCKR_ST_WR, 2,                         \
      TCB_S2; u++; TCB_ALU_SINK(SUB); u++; TCB_MCK_R4W; u++; TCB_ST_R; u++;    \
      TCB_ST_S; u++; TCB_WR4)                                                  \
    X(S2ADD_MCKRSTRD, TU_F_S2_ADD, TU_F_MCKR_ST_RD, 2,                         \
      TCB_S2; u++; TCB_ALU_SINK(ADD); u++; TCB_MCK_R4R; u++; TCB_ST_R; u++;    \
      TCB_ST_S; u++; TCB_RD4)                                                  \
    X(ADDMCKRST_RD, TU_F_ADDMCKR_ST, TU_RD, 3,                                 \
      TCB_ALU_SINK(ADD); u++; TCB_MCK_R4R; u++; TCB_ST_R; u++; TCB_RD4)        \
    X(SUBMCKR_ST, TU_F_SUB_MCKR, TU_ST_R, 2,                                   \
      TCB_ALU(SUB, 2, 0); u++; TCB_MCK_R; u++; TCB_ST_R)                        \
    X(SUBMCKRST_WR, TU_F_SUBMCKR_ST, TU_WR, 3,                                 \
      TCB_ALU_SINK(SUB); u++; TCB_MCK_R4W; u++; TCB_ST_R; u++; TCB_WR4)        \
    X(MCKSSTST_RD, TU_F_MCKS_STST, TU_F_STS_RD, 2,                             \
      TCB_MCK_S4R; u++; TCB_ST_R; u++; TCB_ST_S; u++; TCB_RD4)                  \
    /* (CALLS: the quadword pushes, where the runs above do not apply) */     \
    X(PUSHMEM8, TU_F_S2SUBR_MCKR, TU_F_ST_WR, 4,                               \
      TCB_S2; u++; TCB_ALUR_SINK(SUB); u++; TCB_MCK_R8W; u++; TCB_ST_R; u++;   \
      TCB_ST_S; u++; TCB_WR8)                                                  \
    X(SUBMCKRST_WR8, TU_F_SUBMCKR_ST, TU_WR, 3,                                \
      TCB_ALU_SINK(SUB); u++; TCB_MCK_R8W; u++; TCB_ST_R; u++; TCB_WR8)

/* The runs above whose bodies take their one memory reference to be of
 * a given size and a read (0) or a write (1), and their ALU uop's result
 * to go to the sink (TCB_ALU_SINK: no store); the builder applies one
 * only where that holds (a 4-byte run's pattern around an 8-byte push
 * leaves it to the 8-byte one, or to smaller runs): name, the uops it
 * covers, the direction, the size. */
#define TC_FUSED_MEMN(X)                                                       \
    X(MCKR_ST_WR, 4, 1, 4) X(MCKR_ST_RD, 4, 0, 4) X(PUSHMEM, 6, 1, 4)          \
    X(POPMEM, 6, 0, 4) X(S2SUB_MCKRSTWR, 6, 1, 4) X(S2ADD_MCKRSTRD, 6, 0, 4)   \
    X(ADDMCKRST_RD, 4, 0, 4) X(SUBMCKRST_WR, 4, 1, 4) X(MCKSSTST_RD, 4, 0, 4)  \
    X(PUSHMEM8, 6, 1, 8) X(SUBMCKRST_WR8, 4, 1, 8)

/* The push and pop runs again, for a reference that may lie in the line
 * of the reference just before it (SEQ): the builder applies one where
 * the last reference before it, with nothing but register moves, the ALU
 * and guards in between, went through the same memo table and ended in
 * MAR, so that the run's MAR +- 4 (or +- a cell) starts from that
 * reference's address.  That reference's check did its line's bookkeeping
 * (LRU, dirty bit), which another reference to the line would only
 * repeat, so the body moves the host address along where the new bytes
 * are in the same line (TC_MCKSEQ), and checks the memo as usual where
 * they are not, or where the interpreter ran a word since (mhp NULL).
 * Each in two forms (TC_SEQ_FORMS): where the MAR +- x is by a cell
 * (_SEQ, TC_MCKSEQ), and where it is by the constant d (_SEQK: a cheaper
 * test).  TC_SEQ_RUNS: the run, d with its sign, the reference's size
 * and direction (1: a write), the bodies before and after the check;
 * TC_FUSED_SEQ: name, the run it stands for, d (0: a cell), the body. */
#define TC_SEQ_RUNS(X, G)                                                      \
    G(X, PUSHMEM, -4, 4, 1, TCB_S2; u++; TCB_ALUR_SINK(SUB),                   \
      TCB_ST_R; u++; TCB_ST_S; u++; TCB_WR4)                                   \
    G(X, POPMEM, 4, 4, 0, TCB_S2; u++; TCB_ALUR_SINK(ADD),                     \
      TCB_ST_R; u++; TCB_ST_S; u++; TCB_RD4)                                   \
    G(X, S2SUB_MCKRSTWR, -4, 4, 1, TCB_S2; u++; TCB_ALU_SINK(SUB),             \
      TCB_ST_R; u++; TCB_ST_S; u++; TCB_WR4)                                   \
    G(X, S2ADD_MCKRSTRD, 4, 4, 0, TCB_S2; u++; TCB_ALU_SINK(ADD),              \
      TCB_ST_R; u++; TCB_ST_S; u++; TCB_RD4)                                   \
    G(X, ADDMCKRST_RD, 4, 4, 0, TCB_ALU_SINK(ADD), TCB_ST_R; u++; TCB_RD4)     \
    G(X, SUBMCKRST_WR, -4, 4, 1, TCB_ALU_SINK(SUB), TCB_ST_R; u++; TCB_WR4)    \
    G(X, PUSHMEM8, -8, 8, 1, TCB_S2; u++; TCB_ALUR_SINK(SUB),                  \
      TCB_ST_R; u++; TCB_ST_S; u++; TCB_WR8)                                   \
    G(X, SUBMCKRST_WR8, -8, 8, 1, TCB_ALU_SINK(SUB), TCB_ST_R; u++; TCB_WR8)
#define TC_SEQ_FORMS(X, base, d, n, w, pre, post)                              \
    X(base##_SEQ, base, 0, pre; u++; TC_MCKSEQ(r, a, n, w); u++; post)         \
    X(base##_SEQK, base, (d) < 0 ? -(d) : (d),                                 \
      pre; u++; TC_MCKSEQK(r, n, w, d); u++; post)
#define TC_FUSED_SEQ(X) TC_SEQ_RUNS(X, TC_SEQ_FORMS)

#define TC_FENUM(n, ca, ba, cb, bb) TU_F_##n,
#define TC_FMENUM(n, ca, cb, len, body) TU_F_##n,
#define TC_FSENUM(n, base, d, body) TU_F_##n,
enum {
    TU_FUSED_BASE_ = TU_ALUM_BASE + TCF__N + TCR__N - 1,
    TC_FUSED(TC_FENUM)
    TC_FUSED_MORE(TC_FMENUM)
    TC_FUSED_SEQ(TC_FSENUM)
    TU__COUNT
};
#undef TC_FENUM
#undef TC_FMENUM
#undef TC_FSENUM

struct tc_word;
struct tc_trace;

/* A guard's other way, when the path fixes it (k2): a micro-address, IRD,
 * or TC_ALT_SEQ: the interpreter's sequencing works it out. */
#define TC_ALT_IRD 0xFFFFu
#define TC_ALT_SEQ 0xFFFEu

/* One micro-operation: 48 bytes. */
struct tc_uop {
    const void *h;     /* its handler (threaded dispatch; vm_tc_handlers) */
    uint16_t op;       /* enum tc_uop_code */
    uint8_t x, y;      /* small parameters (width, size, expected value...) */
    uint32_t k;        /* a constant, or a destination's byte offset in the machine */
    uint32_t *p1, *p2; /* cells of the machine or of the trace's constants */
    uint32_t k2;       /* a second destination offset (MOV2) */
    /* the word it belongs to, as a byte offset from the uop (0: none):
     * 40 bytes a uop instead of 48, and the uops are most of the host
     * cache lines a trace takes (TC_UW) */
    int32_t wo;
};
/* (where the uop is known to have one: END, LOOP, guards, memory checks) */
#define TC_UWNZ(u) ((struct tc_word *)(void *)((char *)(uintptr_t)(u) + (u)->wo))
/* The way a guard on the ALU's flags fl goes (G_ALU_Z ... G_ALU_CZ: 1 the
 * condition holds), or -1 if op is no such guard: the executor's guards,
 * and the builder's where it knows fl (fold_consts). */
static ALWAYS_INLINE int tc_alu_guard(unsigned op, unsigned fl)
{
    int lt = !(fl & F_N) != !(fl & F_V);
    switch (op) {
    case TU_G_ALU_Z: return (fl & F_Z) != 0;
    case TU_G_ALU_N: return (fl & F_N) != 0;
    case TU_G_ALU_V: return (fl & F_V) != 0;
    case TU_G_ALU_C: return (fl & F_C) != 0;
    case TU_G_ALU_LT: return lt;
    case TU_G_ALU_LE: return lt || (fl & F_Z);
    case TU_G_ALU_CZ: return (fl & (F_C | F_Z)) != 0;
    default: return -1;
    }
}
static inline struct tc_word *tc_uop_word(const struct tc_uop *u)
{
    return u->wo ? TC_UWNZ(u) : NULL;
}
#define TC_UW(u) tc_uop_word(u)
/* The cell at byte offset k of the machine (a destination). */
#define TC_CELL(m, k) (*(uint32_t *)(void *)((char *)(m) + (k)))

/* What the executor needs about one recorded word beyond its uops. */
#define TW_GENERIC 1u  /* runs through the interpreter (vm_word_step) */
#define TW_IRD 2u      /* its sequencing was IRD (the trace's last word) */
#define TW_SPEC 4u     /* its sequencing consumed a specifier byte */
#define TW_FL 8u       /* the executor's fl, a, psl0 hold the word's values */
#define TW_A 16u       /*   (else 0, 0 and the PSL as it is: unchanged) */
#define TW_PSL0 32u
#define TW_SIDEOK 64u  /* a divergence here leaves a known latch state */
struct tc_side {       /* a side trace, entered where a guard fails */
    struct tc_side *next;
    uint16_t upc;      /* the micro-address it starts at */
    struct tc_trace *t;
};
struct tc_word {
    const struct vm_pword *pw;
    uint16_t upc, next;      /* its micro-address and the recorded next one */
    uint16_t flags;          /* TW_* */
    uint8_t byte;            /* TW_SPEC: the byte */
    uint8_t nside;
    uint32_t pend_pre, pend; /* words counted since the last sync: before, after it */
    uint32_t rpend_pre, rpend; /* memo hits likewise */
    uint32_t rem;            /* words after it to the end of the segment */
    const struct tc_latch *pre, *mid, *seq; /* latches before it, during it, at its sequencing */
    struct tc_side *side;
    const struct tc_uop *after;  /* the uop after its own: where the trace goes on */
    const uint32_t *rcell;   /* the cell the uops after it take r's value from (ALUR) */
};

/* A segment: a root trace (from an IRD point) or a side trace.  Its last
 * 64 bytes are what the executor reads at every instruction (the
 * successor check, the entry, the end), one line of the host's cache
 * just before the first uop's; the first 64 are for the slow ways. */
struct tc_trace {
    /* (the slow ways: recording, lookup, compiling, the checks) */
    struct tc_trace *succ2;  /* the one before succ */
    struct tc_trace *hnext;  /* hash chain (roots) */
    uint64_t ib1, im1;       /* bytes 8..15 (ilen > 8) */
    struct tc_word *words;
    /* each uop's own code before fusion (the compiler's: a fused handler
     * stands for its first uop's code too) */
    uint16_t *op0;
    uint32_t nuops, nwords;
    uint32_t bound;          /* words to its end or loop: the cycle-limit check */
    uint32_t bad;            /* specifier-byte mismatches */
    /* The fields read at every instruction, on the host cache line just
     * before the uops (TC_TRACE_HOT): an entry reads this line, then the
     * first uop or the compiled code (xbody), and a segment's header is
     * placed so that the two lines are one aligned pair of 128 bytes,
     * which the host's prefetchers fetch together (seg_alloc) */
    struct tc_trace *succ;   /* the root that followed the last time */
    const uint8_t *fhp;      /* the host address of pa where its bytes (ilen 1..8)
                              * say all (the successor's quick check), else NULL */
    /* roots: the instruction's bytes the path consumes, [opcode, +ilen),
     * compared at entry in one go (ilen 0: not this way; vm_tcache_exec.c):
     * the bytes and the mask of those that count, the first 8 here */
    uint64_t ib0, im0;
    const struct tc_latch *fin; /* latches at its end (IRD) */
    /* the compiled code (NULL: none; vm_tcache_x64.h) */
    const void *xbody;
    uint32_t pa;             /* roots: physical address of the opcode; TC_NOPA: none */
    uint16_t opc;            /* roots: the opcode (FD page: 0x100 | byte) */
    uint8_t spec0;           /* roots: it starts with the first specifier byte */
    /* fin's RN group (1) and RX (2) defined: what outlives IRD; and 2 where
     * the trace sets the RN group at once (spec0), else 3.  A trace entered
     * after another needs the other's latches when finm & smask. */
    uint8_t finm, smask;
    uint8_t ilen;
    /* with the trace compiler: entries through the executor left before
     * it compiles this segment, counted by its first uop's handler
     * (h_count; 0: it will not, or did) */
    uint16_t xhot;
    /* its code's first bytes test ifast and leave where it is clear (the
     * code assumes it set: TCX_IFAST_TEST bytes, which a static link,
     * whose end checked the bytes, jumps over) */
    uint8_t xifast;
    uint8_t dead;            /* dropped: no lookup finds it again */
};
#define TC_TRACE_HOT 64 /* the bytes of struct tc_trace read at every instruction */
/* The bytes of the segment before its uops (the builder's layout), the
 * hot line last: the executor finds a root's uops from its header and
 * its header from its first uop. */
#define TC_SEG_HEAD sizeof(struct tc_trace)
#if UINTPTR_MAX > 0xFFFFFFFFu /* (64-bit hosts: with 4-byte pointers both parts are smaller) */
_Static_assert(sizeof(struct tc_trace) == 128 &&
                   offsetof(struct tc_trace, succ) == 128 - TC_TRACE_HOT,
               "a segment's header: a line of the slow ways, then the hot line");
#endif
static inline struct tc_uop *tc_uops(const struct tc_trace *t)
{
    return (struct tc_uop *)(void *)((char *)(uintptr_t)t + TC_SEG_HEAD);
}
static inline struct tc_trace *tc_seg_of(const struct tc_uop *u0)
{
    return (struct tc_trace *)(void *)((char *)(uintptr_t)u0 - TC_SEG_HEAD);
}

/* The recorder's view of one word (vm_tcache.c). */
#define TC_MAX_WORDS 256
struct tc_recw {
    uint16_t upc, next;
    uint8_t at_ird, spec, byte, usp, usp_post;
    uint32_t r15, r15_post;  /* R15 before and after it */
    uint16_t ustack[USTACK_DEPTH];
    struct tc_latch pre, post;
};
struct tc_rec {
    int n;
    int end;                 /* TC_END_* */
    int loop_to;             /* TC_END_LOOP: the word it jumps back to */
    uint16_t exit_upc;       /* TC_END_EXIT: where the interpreter goes on */
    struct tc_latch exit_pre;
    /* roots: the decode */
    int root;
    uint32_t fpc;            /* the opcode's virtual address */
    uint32_t key;
    uint16_t opc;
    int spec0;               /* the decode consumed the first specifier byte */
    uint8_t byte0;
    uint16_t entry;          /* the first word */
    struct tc_latch decode;  /* the latches after the decode, before that byte */
    struct tc_recw w[TC_MAX_WORDS];
};
enum { TC_END_IRD, TC_END_LOOP, TC_END_EXIT };

/* The filter on recording: TC_SEEN counters by address hash; an
 * instruction is recorded once its counter has counted `after`
 * (vm_config.tcache_after) decodes.  A trace costs about 20,000 host
 * instructions to record and build, and saves about 800 each time it runs
 * instead of the interpreter, so code that runs only a few times is
 * cheaper left to the interpreter.  Measured (callgrind, -O3): 4.3BSD's
 * boot to `login:` 34.71 G host instructions with the old filter (4,096
 * one-bit entries, the second sight: the kernel's 40,000 addresses filled
 * it, so nearly everything was recorded at once; 59,288 traces, one
 * flush), at 65,536 entries 34.28 G after 3 decodes, 34.20 G after 8
 * (26,007 traces, no flush), 34.35 G after 32; to the single-user shell
 * 4.91 G -> 4.83 G after 8, with 5,197 traces recorded instead of 11,193.
 * With the trace compiler the traces' memory weighs more than their
 * host instructions (an arena first touched, traces cold in the host's
 * caches): the boot to `login:` after 8, 32 and 64 decodes, 15.42 G,
 * 15.65 G and 16.00 G host instructions, but 27,241, 18,953 and 15,228
 * segments (44.8, 30.8 and 24.6 MB) and on the clock (best of five,
 * -O3) 1.74, 1.62 and 1.62 s (the single-user boot 0.168, 0.158 and
 * 0.156 s; EVKAA's 100 M microcycles the same); the profile-guided
 * build, best of eight, 1.62 s after 32, 1.57 s after 48, 1.56 s after
 * 64 (peak RSS 54 and 47 MB), best of six 1.63 s after 8, 1.55 s after
 * 24, 1.57 s after 64.  But EVKAA's benchmark row (passes 9..145, where
 * code that runs once a pass is interpreted until it has run `after`
 * times) fell from 2.16-2.30x SIMH after 8 to 1.46-2.17x after 64, and
 * stayed at 2.13-2.27x after 16 and 24: 24 since. */
#define TC_SEEN (1u << 16)
struct vm_tcache {
    struct tc_trace **hash;
    uint32_t hmask, count;
    /* the arena: traces live until everything is flushed */
    struct tc_chunk *chunks;
    size_t used, cap;
    int flush_pending;
    uint32_t prb_epoch;      /* the machine's when the traces were built */
    struct tc_rec *rec;
    /* how often an address hash missed, up to 255, and how often it must
     * have before the recorder runs (1..255) */
    uint8_t seen[TC_SEEN];
    unsigned after;
    struct vm_tcache_stats st;
    /* build scratch (vm_tcache.c) */
    struct tc_build *bs;
    /* the empty trace: the executor's "no previous trace", whose
     * successors are itself (address TC_NOPA matches no lookup) */
    struct tc_trace nil;
    /* the executor's last root, kept from one call to the next so that
     * its successor is predicted across them (&nil: none) */
    struct tc_trace *last;
    /* the trace compiler (vm_tcache_x64.h; NULL: not built, or off) */
    struct vm_tcx *x;
};

/* The recording counter of the instruction at physical address key */
static inline uint8_t *tc_seen_at(struct vm_tcache *tc, uint32_t key)
{
    return &tc->seen[(key * 0x9E3779B1u >> 16) % TC_SEEN];
}
/* May a root live at key?  None was ever recorded where the counter is
 * below the threshold (the counters only count up), so a lookup there
 * would miss: it need not read the traces' headers and the hash table,
 * cold in the host's caches, to find out. */
static inline int tc_may_have_root(struct vm_tcache *tc, uint32_t key)
{
    return *tc_seen_at(tc, key) >= tc->after;
}

/* ---- vm_tcache.c: the store, the recorder and the builder ---- */

struct vm_tcache *vm_tc_new(size_t cap, unsigned after, int native);
void vm_tc_free(struct vm_tcache *tc);
void vm_tc_flush(struct vm_tcache *tc);
#define TC_NOPA 0xFFFFFFFFu
struct tc_trace *vm_tc_find(struct vm_tcache *tc, uint32_t pa);
/* After root `last`, whose first guess (succ) is not the instruction at pa
 * with opcode op: its second guess if that is, else the root at pa (any
 * opcode, or NULL); where it is the instruction, it becomes last's first
 * guess and the first its second. */
struct tc_trace *vm_tc_guess(struct vm_tcache *tc, struct tc_trace *last, uint32_t pa,
                             unsigned op);
void vm_tc_drop(struct vm_tcache *tc, struct tc_trace *t);
/* A side segment for word w's guard whose other way is the IRD point
 * (TC_ALT_IRD, hung off w at that micro-address): its one uop an END
 * with the latches at w's sequencing (fin: w->seq) and the END's word a
 * copy of w, so that the instruction that went that way has an end of
 * its own, with its own successor predictions (and, compiled, a static
 * link), instead of the IRD point's guess.  NULL where there is no room. */
struct tc_trace *vm_tc_ird_side(struct vm_tcache *tc, const struct tc_word *w);
void *vm_tc_alloc(struct vm_tcache *tc, size_t n);

/* The recorder: runs words through the interpreter from the machine's
 * upc (a root: just after the decode of `opc` at `key`, the decode
 * having returned `entry`; a side trace: at a divergence, with the
 * RN/RX latches defined as `rn_def`, `rx_def`), until the IRD point, a
 * loop back to a word already recorded, or TC_MAX_WORDS; then builds
 * the segment.  Returns TC_REC_* and the segment (or NULL) in *out; si
 * as vm_word_step left it. */
enum { TC_REC_IRD, TC_REC_MID, TC_REC_STOP, TC_REC_LIMIT, TC_REC_REMAP };
int vm_tc_record(struct vax_machine *m, uint64_t limit, int mapen, struct tc_rec *rec,
                 int rn_def, int rx_def, struct vm_wstep *si, struct tc_trace **out);
void vm_tc_latch_get(const struct vax_machine *m, struct tc_latch *l, int rn_def,
                     int rx_def);
/* After a word's TB-miss microtrap (si as that word left it): runs the
 * trap's flow through the interpreter's own loop (vm_flow_step), recorded
 * by no trace.  Where its UTRET ended it, TC_TRAP_WORD (the trapped word
 * starts again: si's next) or TC_TRAP_SEQ (only the word's sequencing
 * had trapped, and UTRET did it again: si as after the word, NEXT or
 * IRD); else TC_TRAP_OTHER (a fault's UTABORT, the cycle limit, a stop;
 * si as the flow's last word left it).  So the recorder and the executor
 * go on with the trace the trap interrupted, at the trapped word. */
enum { TC_TRAP_OTHER, TC_TRAP_WORD, TC_TRAP_SEQ };
int vm_tc_trap_flow(struct vax_machine *m, uint64_t limit, int mapen, struct vm_wstep *si);

/* Writes latch image l's RN group into the machine. */
static ALWAYS_INLINE void tc_latch_rn(struct vax_machine *m, const struct tc_latch *l)
{
    m->rn = l->rn;
    m->specb = l->specb;
    m->rf_lit = l->rf_lit;
    m->lat[LAT_RN] = l->rn;
    m->lat[LAT_RN1] = (l->rn + 1u) & 15;
}

/* Writes latch image l into the machine. */
static inline void tc_latch_apply(struct vax_machine *m, const struct tc_latch *l)
{
    m->opc = l->opc;
    m->cur = l->cur;
    m->spec = l->spec;
    m->idx = l->idx;
    m->opk = l->opk;
    m->lat[LAT_SPEC] = l->lat_spec;
    m->lat[LAT_OPK] = l->lat_opk;
    m->lat[LAT_LAST] = l->lat_last;
    m->wdl[UDL_CUR] = l->wdl_cur;
    m->wdl[UDL_OPK] = l->wdl_opk;
    m->rf_size = l->rf_size;
    if (l->rn_def)
        tc_latch_rn(m, l);
    if (l->rx_def)
        m->rx = l->rx;
}

#endif
