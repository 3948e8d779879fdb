/* vasm internals shared by the assembler's source files (vasm.c and
 * vasm_*.c) and the output writers (vasm_out.c).  Not a public interface. */
#ifndef VASM_INT_H
#define VASM_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "vasm.h"

/* The largest image vasm builds: the 8600's largest memory, 512 MB. */
#define VASM_MAX_IMAGE (512u << 20)

/* Append one "file:line: message" line to a diagnostics buffer. */
void vasm_diag_add(struct vasm_diag *d, const char *file, int line,
                   const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* ------------------------------------------------------------------ */
/* assembler state                                                     */

enum { SEC_TEXT, SEC_DATA, SEC_BSS, NSEC };
typedef struct sym sym;
struct term {
    sym *s;
    int64_t c;
};
#define MAXTERMS 6
typedef struct {
    int64_t k;
    int nt;
    struct term t[MAXTERMS];
} lin;

enum symkind { SK_UNDEF, SK_ABS, SK_LABEL, SK_ALIAS };
struct sym {
    char *name;
    enum symkind kind;
    int sec, item;
    uint32_t off;
    int epoch;       /* number of non-fixed items before the label */
    uint32_t epoff;  /* bytes since the last non-fixed item         */
    int64_t val;     /* SK_ABS                                      */
    sym *alias;      /* SK_ALIAS: value is alias + aoff             */
    int64_t aoff;
    int global, hidden, line, reported, resolving;
    sym *hnext, *anext;
};

enum { IT_FIXED, IT_VAR, IT_ALIGN, IT_ORG };
enum { FX_DATA, FX_DISP, FX_BRANCH, FX_IMM };
struct fixup {
    uint32_t off;
    int size, pcrel, kind, line;
    lin e;
    const char *mn;
};
/* relaxation types (gas's relax states) and lengths */
enum { RT_PCREL = 1, RT_COND, RT_ALWAYS, RT_COMPLEX, RT_HOP };
enum { RL_BYTE, RL_WORD, RL_LONG };
struct item {
    int kind;
    uint8_t *b;
    uint32_t n, cap;
    struct fixup *fx;
    int nfx, capfx;
    /* IT_VAR */
    int rtype, rlen, relaxable, undf, at, op_item, line;
    uint32_t op_off;
    lin target;
    const char *mn;
    /* IT_ALIGN / IT_ORG */
    int p2, fill;
    uint32_t max;
    int64_t org;
    /* layout */
    uint32_t addr, size;
    int region;
};
struct section {
    struct item *it;
    int n, cap;
    int align_p2;
    int epoch;
    uint32_t base;
    uint32_t size;
};
struct numlab {
    long num;
    int count;
};
struct lrec { /* one listing line */
    int line, sec, it0, it1;
    uint32_t off0, off1;
    const char *src;
    size_t srclen;
};
#define NHASH 256
struct file {
    const char *name;
    struct section sec[NSEC];
    sym *htab[NHASH];
    sym *all;
    int cursec;
    struct numlab *nl;
    int nnl, capnl;
    int ndots;
    struct lrec *lr;
    int nlr, caplr;
};
struct as {
    struct vasm_diag *diag;
    struct file *files;
    int nfiles;
    struct file *f;
    int line;
    int errs_in_stmt;
    int want_listing;
    /* bytes asked for by .space/.skip/.zero/.fill so far, all files: the
     * only directives whose output is not bounded by the source's length,
     * so the only ones that could exhaust memory before layout */
    uint64_t fill_bytes;
    /* nesting of the expression being parsed (parentheses, unary
     * operators): deeper than VASM_MAX_EXPR_DEPTH is an error, not a stack
     * overflow (vasm_expr.c) */
    int expr_depth;
};
#define VASM_MAX_EXPR_DEPTH 256

/* lexical cursor */
struct cur {
    const char *p, *e;
};

/* a parsed general operand */
enum { OM_REG, OM_DEF, OM_AINC, OM_ADEC, OM_IMM, OM_ABS, OM_DISP, OM_REL };
struct opnd {
    int mode, reg, at, idx;
    int force; /* 0, 'b','w','l' (length), 's','i' (gas backquote), 'S','I' (DEC) */
    lin e;
    const char *txt;
    int txtlen;
    /* OM_IMM only */
    int flt;          /* a floating literal ($0f1.5): its letter f/d/g/h, else 0 */
    uint16_t fw[8];   /* ... and its value in that format                      */
    int num;          /* the text after '$' is one number: its 128-bit value   */
    uint64_t nv[2];   /* (two's complement, low half first) is in nv           */
};

/* classification of an expression at this point of the pass */
enum { EC_ABS, EC_SAME, EC_OTHER, EC_UNDEF, EC_BAD };

/* diagnostics, allocation, symbols, items and emission (vasm_sym.c) */
void vasm_err(struct as *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void vasm_errat(struct as *a, struct file *f, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void *vasm_xrealloc(void *p, size_t n);
char *vasm_xstrndup(const char *s, size_t n);
sym *vasm_sym_find(struct file *f, const char *name);
sym *vasm_sym_get(struct as *a, const char *name);
sym *vasm_sym_base(sym *s, int64_t *add);
struct section *vasm_cursec(struct as *a);
struct item *vasm_new_item(struct as *a, int kind);
struct item *vasm_fixed(struct as *a);
void vasm_emit_bytes(struct item *it, const void *p, uint32_t n);
void vasm_emit1(struct as *a, unsigned v);
void vasm_emitn(struct as *a, uint64_t v, int n);
void vasm_add_fixup(struct item *it, uint32_t off, int size, int pcrel,
                    int kind, const lin *e, int line, const char *mn);
void vasm_emit_expr(struct as *a, const lin *e, int n, int pcrel, int kind,
                    const char *mn);
void vasm_define_label(struct as *a, sym *s, int hidden);
sym *vasm_dot_symbol(struct as *a);
struct numlab *vasm_numlab(struct file *f, long n);
void vasm_numlab_name(char *buf, size_t sz, long n, int k);

/* linear expressions, lexing, expression parsing (vasm_expr.c) */
void vasm_lin_const(lin *e, int64_t k);
int vasm_is_sym1(int ch);
int vasm_is_symc(int ch);
int vasm_parse_reg(const char *p, const char *e, int *reg);
const char *vasm_reg_name(int r);
int vasm_parse_escape(struct cur *c);
int vasm_parse_expr(struct as *a, const char *p, const char *e, lin *r);
int vasm_float_literal(const char *p, const char *e, const char **end, uint16_t w[8],
                       int *status);
int vasm_parse_number128(const char *p, const char *e, uint64_t v[2]);

/* operand specifiers (vasm_operand.c) */
void vasm_trim(const char **p, const char **e);
int vasm_parse_operand(struct as *a, const char *p, const char *e, struct opnd *o);
int vasm_classify(struct as *a, const lin *e, sym **sp);
void vasm_encode_operand(struct as *a, const struct opnd *o, int acc, int dt,
                         int opno, const char *mn);

/* instructions (vasm_insn.c) */
int vasm_split_operands(const char *p, const char *e, const char **ps, const char **pe,
                        int max);
void vasm_assemble_insn(struct as *a, const char *mn, const char *p, const char *e);

/* directives (vasm_directive.c) */
void vasm_set_symbol(struct as *a, const char *name, size_t nlen, const char *p,
                     const char *e);
int vasm_directive(struct as *a, const char *d, size_t dn, const char *p, const char *e);

/* relaxation and linking (vasm_relax.c) */
void vasm_relax_section(struct file *f, int secno);
void vasm_estimate(struct file *f, int secno);
void vasm_convert_var(struct section *s, struct item *it);
int vasm_sym_value(struct as *a, struct file *f, sym *s, int64_t *v, int line);
int vasm_apply_fixups(struct as *a, struct file *f, struct section *sc, uint8_t *img,
                      uint32_t imgbase);
void vasm_free_file(struct file *f);

#endif
