/* The horizontal microword of the E-box (see MICROARCHITECTURE.md §3).
 *
 * Shared by the microassembler (microcode/) and the machine (vax/machine/).
 * Every field is a small enum; the name tables below (X-macros) are the
 * spelling the microassembler accepts and the listing prints.  The control
 * store image stores each microword packed in 128 bits (uword_pack); the
 * machine keeps them unpacked (struct uword), so the sequencer never
 * decodes bits at run time.                                               */
#ifndef MICROCODE_UWORD_H
#define MICROCODE_UWORD_H

#include <stdint.h>

#define UCS_SIZE 16384 /* micro-addresses: NEXT is 14 bits */
#define USTACK_DEPTH 8

/* Bus sources and destinations (A, B, S2; DST, D2).  7 bits. */
#define UW_REGS(X)                                                        \
    X(T0) X(T1) X(T2) X(T3) X(T4) X(T5) X(T6) X(T7)                       \
    X(T8) X(T9) X(T10) X(T11) X(T12) X(T13) X(T14) X(T15)                 \
    X(R0) X(R1) X(R2) X(R3) X(R4) X(R5) X(R6) X(R7)                       \
    X(R8) X(R9) X(R10) X(R11) X(R12) X(R13) X(R14) X(R15)                 \
    X(NONE) X(RN) X(RN1) X(RX) X(OPR) X(OPR1) X(PSL) X(MAR) X(MDR)        \
    X(Q) X(SC) X(ICNT) X(ZERO) X(K) X(IB) X(LIT) X(RXS) X(SIZE)           \
    X(OPCODE) X(IPR) X(ALU) X(OPVL)                                       \
    X(OPV) X(OPH) X(OPA) X(OPVK) X(OPHK) X(OPAK)                          \
    X(OPV0) X(OPV1) X(OPV2) X(OPV3) X(OPV4) X(OPV5)                       \
    X(OPH0) X(OPH1) X(OPH2) X(OPH3) X(OPH4) X(OPH5)                       \
    X(OPA0) X(OPA1) X(OPA2) X(OPA3) X(OPA4) X(OPA5)                       \
    X(FPC) X(IVEC) X(IIPL) X(FVA) X(MMACC)                                \
    X(SPSTRT) X(SPEND) X(SPRD) X(SPWR) X(SPST) X(SPDRP) X(SPMSK)          \
    X(SPCNT) X(SPSIZE) X(RES)                                             \
    X(OPX) X(OPY) X(OPXK) X(OPYK) X(RN2) X(RN3) X(OPR2) X(OPR3)           \
    X(LA) X(LB) X(LSA) X(LSB) X(FBL) X(FBH)

/* ALU functions.  6 bits. */
#define UW_ALUS(X)                                                        \
    X(PASSA) X(PASSB) X(ADD) X(ADC) X(SUB) X(SBC) X(AND) X(OR) X(XOR)     \
    X(BIC) X(NOT) X(SEXT) X(ZEXT) X(TRUNC) X(MUL) X(MULU) X(DIV)          \
    X(SHL) X(SHR) X(SAR) X(SHLQ) X(SHRQ) X(ASH) X(ASHQ) X(ROTL) X(MASK)   \
    X(FFS) X(FFC) X(BIT) X(HMRG) X(PACK) X(CLZ)                           \
    X(DSHL) X(DSHR)

/* Data length of the cycle.  3 bits.  O (octaword, 16 bytes) is an
 * operand size: the ALU works at L in such a cycle (§3.2). */
#define UW_DLS(X) X(L) X(B) X(W) X(Q) X(CUR) X(OPK) X(O)

/* Condition-code control.  4 bits. */
#define UW_CCS(X) X(NONE) X(ARITH) X(LOGIC) X(TEST) X(CMP) X(NZV) X(NZVC0) X(QUAD)

/* Memory requests.  4 bits. */
#define UW_MEMS(X)                                                        \
    X(NONE) X(READ) X(WRITE) X(READOP) X(WRITEOP) X(READP) X(WRITEP)   \
    X(READB) X(WRITEB) X(READM) X(READMB)

/* Sequencing.  4 bits. */
#define UW_SEQS(X)                                                        \
    X(NEXT) X(JUMP) X(CALL) X(RET) X(BRANCH) X(BCALL) X(DISPATCH)         \
    X(DCALL) X(IRD) X(IRDIF) X(SPECNEXT)

/* Microbranch conditions.  6 bits plus NOT. */
#define UW_CONDS(X)                                                       \
    X(TRUE) X(ALU.Z) X(ALU.N) X(ALU.V) X(ALU.C) X(ALU.LT) X(ALU.LE)       \
    X(ALU.CZ) X(PSL.N) X(PSL.Z) X(PSL.V) X(PSL.C) X(PSL.NZ) X(PSL.CZ)     \
    X(PSL.IV) X(PSL.T) X(PSL.KERN) X(IOVT) X(OPREG) X(SC.Z) X(A.B0)       \
    X(A.B31) X(DLQ) X(RN.PC) X(INTPEND) X(IDX) X(IPR.BAD) X(A.Z)          \
    X(PSL.IS) X(INEXC) X(SPON) X(OPREG.NOVT) X(PSL.FU) X(PSL.DV) X(A.B15)  \
    X(MAPEN) X(FB.RSV) X(FB.EXC) X(FB.DZ) X(FB.V) X(FB.IOV) X(SPEV) X(FRMW)

/* Dispatches.  4 bits. */
#define UW_DISPS(X) X(NONE) X(SPECMODE) X(ACC) X(DL) X(A4) X(A2) X(OPREG) X(SPM) X(A7)

/* F-box functions (FOP field, 6 bits; MICROARCHITECTURE.md §12 and
 * vax/machine/vm_fbox.h): the floating-point unit beside the E-box, for
 * F, D and G.  NONE: idle. */
#define UW_FOPS(X)                                                        \
    X(NONE) X(LDFA) X(LDFB) X(LDFAB) X(LDDA) X(LDDB) X(LDGA) X(LDGB)      \
    X(LDI) X(EXT) X(RTOA) X(ADD) X(SUB) X(MUL) X(DIV) X(FCMP) X(CHOP)     \
    X(SPLIT) X(RNDF) X(RNDD) X(RNDG) X(CVTI) X(CVTRI)

/* Special microorders.  5 bits. */
#define UW_MISCS(X)                                                       \
    X(NONE) X(LATCHRX) X(CLRLOG) X(UNDO) X(SETREG) X(SETMEM) X(STOP)      \
    X(IPRRD) X(IPRWR) X(TRACEWR) X(INTACK) X(EVCNT) X(TRACEHK)         \
    X(TBWR) X(UTRET) X(UTABORT) X(INEXC) X(SPXLATE) X(PRBOPEN)

/* Reasons the machine stops (the K literal of MISC=STOP names one). */
#define UW_STOPS(X)                                                       \
    X(NONE, "running")                                                    \
    X(HALT, "HALT instruction")                                           \
    X(IOV, "integer overflow trap")                                       \
    X(IDVZ, "integer divide-by-zero trap")                                \
    X(RSVOPND, "reserved operand fault")                                  \
    X(RSVADDR, "reserved addressing mode fault")                          \
    X(RSVINSN, "reserved instruction fault")                              \
    X(PRIVINSN, "privileged instruction fault")                           \
    X(MCHK, "machine check")                                              \
    X(BPT, "breakpoint fault")                                            \
    X(UNIMPL, "not implemented in microcode")                             \
    X(UERR, "microcode error")                                            \
    X(CYCLES, "cycle limit")                                              \
    X(SC, "stop: reason code in SC")                                      \
    X(XFC, "customer reserved instruction fault")                         \
    X(CHM, "change-mode trap")                                            \
    X(CHMIS, "CHMx on the interrupt stack")                               \
    X(VECBAD, "SCB vector with bits 1:0 = 2 or 3")                        \
    X(INTR, "interrupt through an empty SCB vector")                      \
    X(SUBRNG, "subscript range trap")                                     \
    X(TRACE, "trace fault")                                              \
    X(ACV, "access control violation fault")                              \
    X(TNV, "translation not valid fault")                                 \
    X(KSNV, "kernel stack not valid abort")                               \
    X(ISNV, "interrupt stack not valid")                                  \
    X(DECOVF, "decimal overflow trap")                                    \
    X(DECDVZ, "decimal divide-by-zero trap")                              \
    X(FLTOVF, "floating overflow fault")                                  \
    X(FLTDVZ, "floating divide-by-zero fault")                            \
    X(FLTUNF, "floating underflow fault")

#define UW_ENUM_ITEM(n) UR_##n,
enum uw_reg { UW_REGS(UW_ENUM_ITEM) UR__COUNT };
#undef UW_ENUM_ITEM
#define UW_ENUM_ITEM(n) UA_##n,
enum uw_alu { UW_ALUS(UW_ENUM_ITEM) UA__COUNT };
#undef UW_ENUM_ITEM
#define UW_ENUM_ITEM(n) UDL_##n,
enum uw_dl { UW_DLS(UW_ENUM_ITEM) UDL__COUNT };
#undef UW_ENUM_ITEM
#define UW_ENUM_ITEM(n) UCC_##n,
enum uw_cc { UW_CCS(UW_ENUM_ITEM) UCC__COUNT };
#undef UW_ENUM_ITEM
#define UW_ENUM_ITEM(n) UM_##n,
enum uw_mem { UW_MEMS(UW_ENUM_ITEM) UM__COUNT };
#undef UW_ENUM_ITEM
#define UW_ENUM_ITEM(n) US_##n,
enum uw_seq { UW_SEQS(UW_ENUM_ITEM) US__COUNT };
#undef UW_ENUM_ITEM
#define UW_ENUM_ITEM(n) UD_##n,
enum uw_disp { UW_DISPS(UW_ENUM_ITEM) UD__COUNT };
#undef UW_ENUM_ITEM
#define UW_ENUM_ITEM(n) UX_##n,
enum uw_misc { UW_MISCS(UW_ENUM_ITEM) UX__COUNT };
#undef UW_ENUM_ITEM
#define UW_ENUM_ITEM(n) UF_##n,
enum uw_fop { UW_FOPS(UW_ENUM_ITEM) UF__COUNT };
#undef UW_ENUM_ITEM
#define UW_ENUM_ITEM(n, s) USTOP_##n,
enum uw_stop { UW_STOPS(UW_ENUM_ITEM) USTOP__COUNT };
#undef UW_ENUM_ITEM

/* Conditions: names contain dots, so the enum is spelled out. */
enum uw_cond {
    UC_TRUE, UC_ALU_Z, UC_ALU_N, UC_ALU_V, UC_ALU_C, UC_ALU_LT, UC_ALU_LE,
    UC_ALU_CZ, UC_PSL_N, UC_PSL_Z, UC_PSL_V, UC_PSL_C, UC_PSL_NZ, UC_PSL_CZ,
    UC_PSL_IV, UC_PSL_T, UC_PSL_KERN, UC_IOVT, UC_OPREG, UC_SC_Z, UC_A_B0,
    UC_A_B31, UC_DLQ, UC_RN_PC, UC_INTPEND, UC_IDX, UC_IPR_BAD, UC_A_Z,
    UC_PSL_IS, UC_INEXC, UC_SPON, UC_OPREG_NOVT, UC_PSL_FU, UC_PSL_DV,
    UC_A_B15, UC_MAPEN,
    UC_FB_RSV, UC_FB_EXC, UC_FB_DZ, UC_FB_V, UC_FB_IOV, /* the F-box's status */
    UC_SPEV, UC_FRMW, /* the probe unit (MICROARCHITECTURE.md §15) */
    UC__COUNT
};
#define UC_NOT 0x40 /* bit 6 of COND negates */
#define UOPK_KEEP 7 /* OPK field default: keep the OPK latch */

/* One unpacked microword.  `valid` is 0 for an unused control-store
 * address (executing one stops the machine with a microcode error). */
struct uword {
    uint32_t k;    /* literal */
    uint16_t next; /* target micro-address */
    uint8_t a, b, s2, dst, d2; /* enum uw_reg */
    uint8_t alu;   /* enum uw_alu  */
    uint8_t dl;    /* enum uw_dl   */
    uint8_t cc;    /* enum uw_cc   */
    uint8_t mem;   /* enum uw_mem  */
    uint8_t opk;   /* 0..5 load the OPK latch; UOPK_KEEP */
    uint8_t seq;   /* enum uw_seq  */
    uint8_t cond;  /* enum uw_cond | UC_NOT */
    uint8_t disp;  /* enum uw_disp */
    uint8_t misc;  /* enum uw_misc */
    uint8_t fop;   /* enum uw_fop  */
    uint8_t valid;
};

/* Name tables (index = enum value). */
extern const char *const uw_reg_names[UR__COUNT];
extern const char *const uw_alu_names[UA__COUNT];
extern const char *const uw_dl_names[UDL__COUNT];
extern const char *const uw_cc_names[UCC__COUNT];
extern const char *const uw_mem_names[UM__COUNT];
extern const char *const uw_seq_names[US__COUNT];
extern const char *const uw_cond_names[UC__COUNT];
extern const char *const uw_disp_names[UD__COUNT];
extern const char *const uw_misc_names[UX__COUNT];
extern const char *const uw_fop_names[UF__COUNT];
extern const char *const uw_stop_names[USTOP__COUNT];   /* symbols  */
extern const char *const uw_stop_reasons[USTOP__COUNT]; /* for humans */

/* A word with every field at its default (NONE, NEXT, DL=L, ...). */
struct uword uword_default(void);

/* The rules a word's fields must keep beyond their ranges (RES, the
 * IRD-else dispatch): NULL, or what the word breaks. */
const char *uword_rule(const struct uword *w);

/* 128-bit image form: 16 little-endian bytes. */
void uword_pack(const struct uword *w, uint8_t out[16]);
/* Returns 0, or -1 if a field is out of range. */
int uword_unpack(const uint8_t in[16], struct uword *w);

#endif
