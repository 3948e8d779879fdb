/* The probe language's insides, shared by its parser
 * (probe_lang_parse.c), code generator (probe_lang_gen.c) and host side
 * (probe_lang_host.c): tokens, the syntax tree, the arena that holds it. */
#ifndef VAX_PROBE_PROBE_LANG_INT_H
#define VAX_PROBE_PROBE_LANG_INT_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "vax/probe/probe_lang.h"

/* ---- the arena: every node and string of one compilation ---- */
struct lang_arena;
void *lang_alloc(struct lang_arena **a, size_t n);   /* zeroed; NULL: no memory */
char *lang_strdup(struct lang_arena **a, const char *s, size_t n);
void lang_arena_free(struct lang_arena *a);

/* ---- the syntax tree ---- */
enum nkind {
    /* expressions */
    E_INT,      /* ival */
    E_STR,      /* s */
    E_IDENT,    /* s: a builtin */
    E_SVAR,     /* s: $name */
    E_MAP,      /* s: @name; a: the keys (a list), nkeys */
    E_CALL,     /* s: the function; a: the arguments (a list), nargs */
    E_BIN,      /* op; a, b */
    E_UN,       /* op; a */
    E_TERN,     /* a ? b : c */
    /* statements */
    S_EXPR,     /* a: a call */
    S_SVAR,     /* $s op= a (op: '=', '+', '-', or 'i'/'d' for ++/--) */
    S_MAP,      /* the map in a, op as for S_SVAR, b the value */
    S_IF,       /* a cond, b then, c else */
    S_UNROLL,   /* ival times, b the body */
};

/* binary and unary operators beyond single characters */
enum {
    OP_EQ = 256, OP_NE, OP_LE, OP_GE, OP_SHL, OP_SHR, OP_AND, OP_OR,
};

struct node {
    enum nkind k;
    int op;
    int64_t ival;
    const char *s;
    struct node *a, *b, *c;
    struct node *next;   /* lists: arguments, keys, statements */
    unsigned n;          /* list lengths: keys, arguments */
    unsigned line, col;
    unsigned end_col;    /* the column after the construct, on its first line */
};

/* One attach point as written. */
struct attach {
    const char *text;     /* "kretprobe:ipintr" */
    unsigned line, col;
    struct attach *next;
};

/* A probe block: attach points, predicate, body. */
struct pblock {
    struct attach *ap;
    struct node *pred;    /* NULL: none */
    struct node *body;    /* statements */
    unsigned line, col;
    struct pblock *next;
};

/* The parser's result and its state. */
struct lang_ctx {
    const char *text;
    size_t len;
    const char *name;
    struct lang_arena *arena;
    struct prb_lang_error *err;
    jmp_buf fail;         /* errors unwind to prb_lang_compile */
    struct pblock *blocks;
};

/* Reports an error at line:col and unwinds (never returns). */
#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 4, 5)))
#endif
void lang_fail(struct lang_ctx *c, unsigned line, unsigned col, const char *fmt, ...);
void *lang_new(struct lang_ctx *c, size_t n);   /* lang_alloc or lang_fail */

/* Parses the whole text into c->blocks (or unwinds with an error). */
void lang_parse(struct lang_ctx *c);

/* Generates the program (or unwinds with an error). */
void lang_generate(struct lang_ctx *c, const struct prb_lang_opts *o, struct prb_lang *out);

/* The source text of a node's line from col to end_col, for labels. */
void lang_node_text(const struct lang_ctx *c, const struct node *n, char *buf, size_t len);

#endif
