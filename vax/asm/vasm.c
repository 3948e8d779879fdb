/* vasm: a VAX assembler and linker in one, byte-compatible with GNU as
 * for VAX followed by `ld -N -Ttext BASE`.  See README.md in this
 * directory for the accepted syntax and the deviations from gas.
 *
 * Structure.  Each source file is assembled on its own, in one pass over
 * the text, into three sections (.text, .data, .bss).  A section is a
 * list of items: fixed bytes (with fixups), relaxable ("variable") items,
 * alignment items and .org items, mirroring the frags of gas because the
 * sizes gas chooses depend on what it knew at each point of its single
 * pass.  After a file is read, undefined-at-the-time references are
 * resolved the way gas's size estimate resolves them, and each section is
 * relaxed with gas's algorithm (grow-only, "stretch" propagation to
 * symbols not yet reached in the pass, alignment regions).  Finally all
 * files are laid out like ld -N and fixups are applied.
 *
 * This file holds the public entry points, statement dispatch and the
 * listing; the rest is in vasm_sym.c (symbols, items), vasm_expr.c,
 * vasm_operand.c, vasm_insn.c, vasm_directive.c and vasm_relax.c.       */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vasm.h"
#include "vasm_int.h"
#include "vax/isa/vax_opcodes.h"

/* ------------------------------------------------------------------ */
/* statements                                                          */

static void statement(struct as *a, const char *p, const char *e, int *ended)
{
    for (;;) {
        vasm_trim(&p, &e);
        if (p == e)
            return;
        /* label? */
        const char *q = p;
        if (vasm_is_sym1((unsigned char)*q)) {
            while (q < e && vasm_is_symc((unsigned char)*q))
                q++;
            const char *r = q;
            while (r < e && (*r == ' ' || *r == '\t'))
                r++;
            if (r < e && *r == ':') {
                char *nm = vasm_xstrndup(p, (size_t)(q - p));
                sym *s = vasm_sym_get(a, nm);
                free(nm);
                vasm_define_label(a, s, 0);
                p = r + 1;
                continue;
            }
            if (r < e && *r == '=' && (r + 1 >= e || r[1] != '=')) {
                vasm_set_symbol(a, p, (size_t)(q - p), r + 1, e);
                return;
            }
            /* mnemonic or directive */
            char mn[64];
            size_t n = (size_t)(q - p);
            if (*p == '.') {
                *ended = vasm_directive(a, p, n, q, e);
                return;
            }
            if (n >= sizeof mn) {
                vasm_err(a, "unknown instruction '%.*s'", (int)n, p);
                return;
            }
            memcpy(mn, p, n);
            mn[n] = 0;
            if (q < e && !isspace((unsigned char)*q)) {
                vasm_err(a, "junk after instruction name '%s'", mn);
                return;
            }
            vasm_assemble_insn(a, mn, q, e);
            return;
        }
        if (isdigit((unsigned char)*q)) {
            while (q < e && isdigit((unsigned char)*q))
                q++;
            const char *r = q;
            while (r < e && (*r == ' ' || *r == '\t'))
                r++;
            if (r < e && *r == ':') {
                long num = strtol(p, NULL, 10);
                struct numlab *nl = vasm_numlab(a->f, num);
                nl->count++;
                char buf[48];
                vasm_numlab_name(buf, sizeof buf, num, nl->count);
                sym *s = vasm_sym_get(a, buf);
                vasm_define_label(a, s, 1);
                p = r + 1;
                continue;
            }
        }
        vasm_err(a, "syntax error: '%.*s'", (int)(e - p), p);
        return;
    }
}

static void listing_record(struct as *a, int line, int sec, int it0, uint32_t off0,
                           const char *src, size_t srclen)
{
    struct file *f = a->f;
    if (f->nlr == f->caplr) {
        f->caplr = f->caplr ? f->caplr * 2 : 64;
        f->lr = vasm_xrealloc(f->lr, f->caplr * sizeof *f->lr);
    }
    struct lrec *l = &f->lr[f->nlr++];
    l->line = line;
    l->sec = sec;
    l->it0 = it0;
    l->off0 = off0;
    struct section *s = &f->sec[sec];
    l->it1 = s->n;
    l->off1 = 0;
    l->src = src;
    l->srclen = srclen;
}

static void assemble_file(struct as *a, const struct vasm_source *src)
{
    const char *p = src->text, *end = src->text + src->len;
    int in_comment = 0;
    int ended = 0;
    a->line = 0;
    char *buf = NULL;
    size_t bufcap = 0;
    while (p < end && !ended) {
        const char *le = memchr(p, '\n', (size_t)(end - p));
        if (!le)
            le = end;
        a->line++;
        /* strip comments into a scratch copy; split at ';' */
        size_t n = (size_t)(le - p);
        if (n + 1 > bufcap) {
            bufcap = n + 1;
            buf = vasm_xrealloc(buf, bufcap);
        }
        size_t o = 0;
        int instr = 0;
        for (size_t i = 0; i < n; i++) {
            char ch = p[i];
            if (in_comment) {
                if (ch == '*' && i + 1 < n && p[i + 1] == '/') {
                    in_comment = 0;
                    i++;
                    buf[o++] = ' ';
                }
                continue;
            }
            if (instr) {
                buf[o++] = ch;
                if (ch == '\\' && i + 1 < n)
                    buf[o++] = p[++i];
                else if (ch == '"')
                    instr = 0;
                continue;
            }
            if (ch == '"') {
                instr = 1;
                buf[o++] = ch;
                continue;
            }
            if (ch == '\'') { /* character constant: copy it verbatim */
                buf[o++] = ch;
                if (i + 1 < n) {
                    buf[o++] = p[++i];
                    if (p[i] == '\\' && i + 1 < n)
                        buf[o++] = p[++i];
                    if (i + 1 < n && p[i + 1] == '\'')
                        buf[o++] = p[++i];
                }
                continue;
            }
            if (ch == '/' && i + 1 < n && p[i + 1] == '*') {
                in_comment = 1;
                i++;
                continue;
            }
            if (ch == '#')
                break;
            if (ch == ';')
                ch = '\n'; /* statement separator */
            buf[o++] = ch;
        }
        const char *s = buf, *se = buf + o;
        while (s <= se && !ended) {
            const char *t = memchr(s, '\n', (size_t)(se - s));
            if (!t)
                t = se;
            a->errs_in_stmt = 0;
            int sec0 = a->f->cursec;
            struct section *sc = &a->f->sec[sec0];
            int it0 = sc->n;
            uint32_t off0 = 0;
            if (sc->n && sc->it[sc->n - 1].kind == IT_FIXED) {
                it0 = sc->n - 1;
                off0 = sc->it[sc->n - 1].n;
            }
            statement(a, s, t, &ended);
            if (a->want_listing && a->f->cursec == sec0)
                listing_record(a, a->line, sec0, it0, off0, p, n);
            s = t + 1;
        }
        p = le + 1;
    }
    free(buf);
}

static uint32_t align_up(uint32_t v, int p2)
{
    uint32_t m = (1u << p2) - 1;
    return (v + m) & ~m;
}

static void lst_append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 1 > *cap) {
        while (*len + n + 1 > *cap)
            *cap = *cap ? *cap * 2 : 4096;
        *buf = vasm_xrealloc(*buf, *cap);
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = 0;
}

static void make_listing(struct as *a, const struct vasm_image *img, char **out)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (int fi = 0; fi < a->nfiles; fi++) {
        struct file *f = &a->files[fi];
        char line[256];
        int n = snprintf(line, sizeof line, "; %s\n", f->name);
        lst_append(&buf, &len, &cap, line, (size_t)n);
        for (int i = 0; i < f->nlr; i++) {
            struct lrec *l = &f->lr[i];
            struct section *sc = &f->sec[l->sec];
            /* start and end addresses */
            uint32_t start = sc->base + (l->it0 < sc->n ? sc->it[l->it0].addr + l->off0
                                                         : sc->size);
            uint32_t end = start;
            if (i + 1 < f->nlr && f->lr[i + 1].sec == l->sec) {
                struct lrec *m = &f->lr[i + 1];
                end = sc->base +
                      (m->it0 < sc->n ? sc->it[m->it0].addr + m->off0 : sc->size);
            } else {
                /* up to the end of what this statement created */
                uint32_t e2 = sc->base + sc->size;
                for (int j = i + 1; j < f->nlr; j++)
                    if (f->lr[j].sec == l->sec) {
                        struct lrec *m = &f->lr[j];
                        e2 = sc->base + (m->it0 < sc->n ? sc->it[m->it0].addr + m->off0
                                                        : sc->size);
                        break;
                    }
                end = e2;
            }
            if (end < start)
                end = start;
            char hex[64];
            int hl = 0;
            for (uint32_t p = start; p < end && hl < 24 * 3 - 3 && p - start < 8; p++) {
                int b = 0;
                if (p >= img->base && p < img->base + img->size)
                    b = img->bytes[p - img->base];
                hl += snprintf(hex + hl, sizeof hex - (size_t)hl, "%02x ", b);
            }
            if (end - start > 8)
                hl += snprintf(hex + hl, sizeof hex - (size_t)hl, "..");
            hex[hl] = 0;
            size_t sl = l->srclen;
            while (sl && (l->src[sl - 1] == '\r'))
                sl--;
            n = snprintf(line, sizeof line, "%08" PRIx32 "  %-27s %5d  ", start, hex, l->line);
            lst_append(&buf, &len, &cap, line, (size_t)n);
            lst_append(&buf, &len, &cap, l->src, sl);
            lst_append(&buf, &len, &cap, "\n", 1);
        }
    }
    if (!buf)
        lst_append(&buf, &len, &cap, "", 0);
    *out = buf;
}

int vasm_assemble_listing(const struct vasm_source *srcs, size_t nsrcs,
                          const struct vasm_options *opt, struct vasm_image *out,
                          struct vasm_diag *diag, char **listing)
{
    struct as A;
    struct as *a = &A;
    memset(a, 0, sizeof A);
    memset(out, 0, sizeof *out);
    diag->text[0] = 0;
    diag->nerrors = 0;
    a->diag = diag;
    a->want_listing = listing != NULL;
    if (listing)
        *listing = NULL;
    uint32_t base = opt ? opt->base : 0;
    if (nsrcs == 0) {
        vasm_diag_add(diag, NULL, 0, "no input files");
        return -1;
    }
    a->files = vasm_xrealloc(NULL, nsrcs * sizeof *a->files);
    memset(a->files, 0, nsrcs * sizeof *a->files);
    a->nfiles = (int)nsrcs;
    for (size_t i = 0; i < nsrcs; i++) {
        a->f = &a->files[i];
        a->f->name = srcs[i].name ? srcs[i].name : "<input>";
        a->f->cursec = SEC_TEXT;
        assemble_file(a, &srcs[i]);
        a->line = 0;
        for (int s = 0; s < NSEC; s++) {
            vasm_estimate(a->f, s);
            vasm_relax_section(a->f, s);
        }
        /* a global defined twice */
        for (sym *s = a->f->all; s; s = s->anext) {
            if (!s->global || s->kind == SK_UNDEF)
                continue;
            for (size_t j = 0; j < i; j++) {
                sym *t = vasm_sym_find(&a->files[j], s->name);
                if (t && t->global && t->kind != SK_UNDEF)
                    vasm_errat(a, a->f, s->line, "symbol '%s' is also defined in %s", s->name,
                               a->files[j].name);
            }
        }
    }
    a->f = NULL;
    int ok = diag->nerrors == 0;
    /* layout: all .text, then all .data, then all .bss */
    uint32_t addr = base;
    uint32_t sec_start[NSEC], sec_end[NSEC];
    for (int s = 0; s < NSEC; s++) {
        int maxal = 0;
        for (int i = 0; i < a->nfiles; i++)
            if (a->files[i].sec[s].align_p2 > maxal)
                maxal = a->files[i].sec[s].align_p2;
        addr = align_up(addr, maxal);
        sec_start[s] = addr;
        for (int i = 0; i < a->nfiles; i++) {
            struct section *sc = &a->files[i].sec[s];
            addr = align_up(addr, sc->align_p2);
            sc->base = addr;
            addr += sc->size;
        }
        sec_end[s] = addr;
    }
    /* .org going backwards */
    for (int i = 0; i < a->nfiles && ok; i++)
        for (int s = 0; s < NSEC; s++)
            for (int k = 0; k < a->files[i].sec[s].n; k++) {
                struct item *it = &a->files[i].sec[s].it[k];
                if (it->kind == IT_ORG && it->addr > it->org) {
                    vasm_errat(a, &a->files[i], it->line, "attempt to move .org backwards");
                    ok = 0;
                }
            }
    /* A program larger than the biggest VAX 8600 memory is a mistake (a
     * stray .org or .space), and must not make vasm allocate gigabytes. */
    uint64_t total = 0;
    for (int i = 0; i < a->nfiles; i++)
        for (int s = 0; s < NSEC; s++)
            total += (uint64_t)a->files[i].sec[s].size + (1u << a->files[i].sec[s].align_p2);
    if (ok && (total > VASM_MAX_IMAGE || (uint64_t)base + total > 0x100000000ull)) {
        /* (a section's size saturates just past the limit, so the sum is
         * a lower bound, not the exact need) */
        vasm_diag_add(diag, a->nfiles ? a->files[0].name : "vasm", 0,
                      "the program needs more than the %u MB a VAX 8600 can hold at base "
                      "0x%x (a stray .org or .space?)",
                      VASM_MAX_IMAGE >> 20, base);
        ok = 0;
    }
    uint32_t imgend = sec_end[SEC_DATA] > sec_start[SEC_DATA] ? sec_end[SEC_DATA]
                                                              : sec_end[SEC_TEXT];
    uint32_t size = imgend - base;
    uint8_t *img = NULL;
    if (ok) {
        img = vasm_xrealloc(NULL, size);
        memset(img, 0, size);
        for (int i = 0; i < a->nfiles; i++) {
            for (int s = 0; s < NSEC; s++) {
                struct section *sc = &a->files[i].sec[s];
                /* ld pads between input .text sections with NOPs */
                if (s == SEC_TEXT && i + 1 < a->nfiles) {
                    uint32_t nb = a->files[i + 1].sec[s].base;
                    for (uint32_t p = sc->base + sc->size; p < nb; p++)
                        img[p - base] = 0x01;
                }
                for (int k = 0; k < sc->n; k++) {
                    struct item *it = &sc->it[k];
                    if (it->kind == IT_VAR)
                        vasm_convert_var(sc, it);
                }
                if (s == SEC_BSS)
                    continue;
                for (int k = 0; k < sc->n; k++) {
                    struct item *it = &sc->it[k];
                    uint8_t *p = img + (sc->base + it->addr - base);
                    if (it->kind == IT_FIXED || it->kind == IT_VAR) {
                        if (it->n)
                            memcpy(p, it->b, it->n);
                    }
                    else
                        memset(p, it->fill, it->size);
                }
            }
        }
        for (int i = 0; i < a->nfiles; i++)
            for (int s = 0; s < NSEC; s++)
                if (vasm_apply_fixups(a, &a->files[i], &a->files[i].sec[s],
                                      s == SEC_BSS ? NULL : img, base))
                    ok = 0;
    }
    /* symbols */
    struct vasm_image im;
    memset(&im, 0, sizeof im);
    if (ok) {
        size_t cap = 0;
        for (int i = 0; i < a->nfiles; i++)
            for (sym *s = a->files[i].all; s; s = s->anext) {
                if (s->hidden || s->kind == SK_UNDEF || s->name[0] == '\002')
                    continue;
                int64_t v;
                a->f = &a->files[i];
                if (vasm_sym_value(a, &a->files[i], s, &v, s->line)) {
                    ok = 0;
                    continue;
                }
                if (im.nsyms == cap) {
                    cap = cap ? cap * 2 : 64;
                    im.syms = vasm_xrealloc(im.syms, cap * sizeof *im.syms);
                }
                im.syms[im.nsyms].name = vasm_xstrndup(s->name, strlen(s->name));
                im.syms[im.nsyms].value = (uint32_t)v;
                im.syms[im.nsyms].global = s->global;
                im.nsyms++;
            }
        a->f = NULL;
    }
    if (ok) {
        im.base = base;
        im.bytes = img;
        img = NULL;
        im.size = size;
        im.memsize = sec_end[SEC_BSS] - base;
        im.text_addr = sec_start[SEC_TEXT];
        im.text_size = sec_end[SEC_TEXT] - sec_start[SEC_TEXT];
        im.data_addr = sec_start[SEC_DATA];
        im.data_size = sec_end[SEC_DATA] - sec_start[SEC_DATA];
        im.bss_addr = sec_start[SEC_BSS];
        im.bss_size = sec_end[SEC_BSS] - sec_start[SEC_BSS];
        im.entry = base;
        const char *es = opt ? opt->entry_symbol : NULL;
        int found = 0;
        const char *cands[2] = {"_start", "start"};
        for (int c = 0; c < (es ? 1 : 2) && !found; c++) {
            const char *want = es ? es : cands[c];
            for (size_t k = 0; k < im.nsyms && !found; k++)
                if (!strcmp(im.syms[k].name, want) && im.syms[k].global) {
                    im.entry = im.syms[k].value;
                    found = 1;
                }
            for (size_t k = 0; k < im.nsyms && !found; k++)
                if (!strcmp(im.syms[k].name, want)) {
                    im.entry = im.syms[k].value;
                    found = 1;
                }
        }
        if (es && !found) {
            vasm_diag_add(diag, NULL, 0, "entry symbol '%s' is not defined", es);
            ok = 0;
        }
    }
    if (ok && listing)
        make_listing(a, &im, listing);
    free(img);
    for (int i = 0; i < a->nfiles; i++)
        vasm_free_file(&a->files[i]);
    free(a->files);
    if (!ok) {
        vasm_image_free(&im);
        if (diag->nerrors == 0)
            vasm_diag_add(diag, NULL, 0, "assembly failed");
        return -1;
    }
    *out = im;
    return 0;
}

int vasm_assemble(const struct vasm_source *srcs, size_t nsrcs,
                  const struct vasm_options *opt, struct vasm_image *out,
                  struct vasm_diag *diag)
{
    return vasm_assemble_listing(srcs, nsrcs, opt, out, diag, NULL);
}

void vasm_image_free(struct vasm_image *img)
{
    if (!img)
        return;
    free(img->bytes);
    for (size_t i = 0; i < img->nsyms; i++)
        free(img->syms[i].name);
    free(img->syms);
    memset(img, 0, sizeof *img);
}