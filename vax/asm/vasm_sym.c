/* vasm: diagnostics, allocation helpers, the symbol table, and the
 * section/item store that the assembler emits bytes, fixups and labels
 * into.  Part of the assembler split over vasm*.c (see vasm_int.h).    */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vasm_int.h"

/* ------------------------------------------------------------------ */
/* diagnostics                                                         */

void vasm_diag_add(struct vasm_diag *d, const char *file, int line,
                   const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    d->nerrors++;
    size_t used = strlen(d->text);
    char buf[700];
    if (file && line > 0)
        snprintf(buf, sizeof buf, "%s:%d: %s\n", file, line, msg);
    else if (file)
        snprintf(buf, sizeof buf, "%s: %s\n", file, msg);
    else
        snprintf(buf, sizeof buf, "%s\n", msg);
    size_t bl = strlen(buf);
    if (used + bl < VASM_DIAG_MAX)
        memcpy(d->text + used, buf, bl + 1);
}

void vasm_err(struct as *a, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    a->errs_in_stmt++;
    vasm_diag_add(a->diag, a->f ? a->f->name : NULL, a->line, "%s", msg);
}

void vasm_errat(struct as *a, struct file *f, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    vasm_diag_add(a->diag, f ? f->name : NULL, line, "%s", msg);
}

void *vasm_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        abort(); /* out of memory: nothing sensible to report */
    return q;
}
char *vasm_xstrndup(const char *s, size_t n)
{
    char *p = vasm_xrealloc(NULL, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

/* ------------------------------------------------------------------ */
/* symbols                                                             */

static unsigned hash(const char *s)
{
    unsigned h = 5381;
    while (*s)
        h = h * 33 + (unsigned char)*s++;
    return h % NHASH;
}

sym *vasm_sym_find(struct file *f, const char *name)
{
    for (sym *s = f->htab[hash(name)]; s; s = s->hnext)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

sym *vasm_sym_get(struct as *a, const char *name)
{
    struct file *f = a->f;
    sym *s = vasm_sym_find(f, name);
    if (s)
        return s;
    s = vasm_xrealloc(NULL, sizeof *s);
    memset(s, 0, sizeof *s);
    s->name = vasm_xstrndup(name, strlen(name));
    s->kind = SK_UNDEF;
    s->line = a->line;
    unsigned h = hash(name);
    s->hnext = f->htab[h];
    f->htab[h] = s;
    s->anext = f->all;
    f->all = s;
    return s;
}

/* Follow aliases; returns the final symbol and accumulates the offset. */
sym *vasm_sym_base(sym *s, int64_t *add)
{
    int guard = 0;
    while (s->kind == SK_ALIAS && guard++ < 100) {
        *add += s->aoff;
        s = s->alias;
    }
    return s;
}

/* ------------------------------------------------------------------ */
/* section items                                                       */

struct section *vasm_cursec(struct as *a) { return &a->f->sec[a->f->cursec]; }

struct item *vasm_new_item(struct as *a, int kind)
{
    struct section *s = vasm_cursec(a);
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 16;
        s->it = vasm_xrealloc(s->it, s->cap * sizeof *s->it);
    }
    struct item *it = &s->it[s->n++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->line = a->line;
    if (kind != IT_FIXED)
        s->epoch++;
    return it;
}

/* The open fixed item of the current section (creates one if needed). */
struct item *vasm_fixed(struct as *a)
{
    struct section *s = vasm_cursec(a);
    if (s->n && s->it[s->n - 1].kind == IT_FIXED)
        return &s->it[s->n - 1];
    return vasm_new_item(a, IT_FIXED);
}

static uint32_t epoff_now(struct as *a)
{
    /* bytes since the last non-fixed item */
    struct section *s = vasm_cursec(a);
    uint32_t n = 0;
    for (int i = s->n - 1; i >= 0 && s->it[i].kind == IT_FIXED; i--)
        n += s->it[i].n;
    return n;
}

void vasm_emit_bytes(struct item *it, const void *p, uint32_t n)
{
    if (n == 0) /* .ascii "": nothing to add, and it->b may still be NULL */
        return;
    if (it->n + n > it->cap) {
        while (it->n + n > it->cap)
            it->cap = it->cap ? it->cap * 2 : 64;
        it->b = vasm_xrealloc(it->b, it->cap);
    }
    memcpy(it->b + it->n, p, n);
    it->n += n;
}
void vasm_emit1(struct as *a, unsigned v)
{
    uint8_t b = (uint8_t)v;
    vasm_emit_bytes(vasm_fixed(a), &b, 1);
}
/* n bytes of v, little-endian; beyond 8 bytes, v's sign bit repeats */
void vasm_emitn(struct as *a, uint64_t v, int n)
{
    uint8_t b[16];
    if (n > 16)
        n = 16;
    for (int i = 0; i < n; i++)
        b[i] = i < 8 ? (uint8_t)(v >> (8 * i)) : (v >> 63) ? 0xff : 0;
    vasm_emit_bytes(vasm_fixed(a), b, (uint32_t)n);
}
void vasm_add_fixup(struct item *it, uint32_t off, int size, int pcrel,
                    int kind, const lin *e, int line, const char *mn)
{
    if (it->nfx == it->capfx) {
        it->capfx = it->capfx ? it->capfx * 2 : 8;
        it->fx = vasm_xrealloc(it->fx, it->capfx * sizeof *it->fx);
    }
    struct fixup *x = &it->fx[it->nfx++];
    x->off = off;
    x->size = size;
    x->pcrel = pcrel;
    x->kind = kind;
    x->e = *e;
    x->line = line;
    x->mn = mn;
}
/* emit a field of n bytes whose value is the expression e */
void vasm_emit_expr(struct as *a, const lin *e, int n, int pcrel, int kind,
                    const char *mn)
{
    struct item *it = vasm_fixed(a);
    uint32_t off = it->n;
    vasm_emitn(a, 0, n);
    vasm_add_fixup(it, off, n, pcrel, kind, e, a->line, mn);
}

/* Define a label at the current position of the current section. */
void vasm_define_label(struct as *a, sym *s, int hidden)
{
    if (s->kind != SK_UNDEF) {
        vasm_err(a, "symbol '%s' is already defined", s->name);
        return;
    }
    struct item *it = vasm_fixed(a);
    struct section *sec = vasm_cursec(a);
    s->kind = SK_LABEL;
    s->sec = a->f->cursec;
    s->item = (int)(it - sec->it);
    s->off = it->n;
    s->epoch = sec->epoch;
    s->epoff = epoff_now(a);
    s->hidden = hidden;
    s->line = a->line;
}

sym *vasm_dot_symbol(struct as *a)
{
    char name[32];
    snprintf(name, sizeof name, "\002dot%d", a->f->ndots++);
    sym *s = vasm_sym_get(a, name);
    vasm_define_label(a, s, 1);
    return s;
}

/* numeric local labels: N: defines "N\001k", Nb/Nf refer to them */
struct numlab *vasm_numlab(struct file *f, long n)
{
    for (int i = 0; i < f->nnl; i++)
        if (f->nl[i].num == n)
            return &f->nl[i];
    if (f->nnl == f->capnl) {
        f->capnl = f->capnl ? f->capnl * 2 : 8;
        f->nl = vasm_xrealloc(f->nl, f->capnl * sizeof *f->nl);
    }
    f->nl[f->nnl].num = n;
    f->nl[f->nnl].count = 0;
    return &f->nl[f->nnl++];
}
void vasm_numlab_name(char *buf, size_t sz, long n, int k)
{
    snprintf(buf, sz, "%ld\001%d", n, k);
}
