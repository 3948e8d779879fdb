/* The probe language's entry point (probe_lang.h): parse, generate,
 * verify with the machine's verifier, and map a refusal back to the
 * script's line and column. */
#include "vax/probe/probe_lang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vax/probe/probe_install.h"
#include "vax/probe/probe_lang_int.h"
#include "vax/probe/probe_verify.h"

static void set_err(struct prb_lang_error *e, const char *name, unsigned line, unsigned col,
                    const char *msg)
{
    e->line = line;
    e->col = col;
    int n = line ? snprintf(e->msg, sizeof e->msg, "%s:%u:%u: ", name, line, col)
                 : snprintf(e->msg, sizeof e->msg, "%s: ", name);
    if (n > 0 && (size_t)n < sizeof e->msg)
        snprintf(e->msg + n, sizeof e->msg - (size_t)n, "%.*s", (int)(sizeof e->msg - (size_t)n - 1),
                 msg);
}

int prb_lang_compile(const char *text, size_t len, const struct prb_lang_opts *o,
                     struct prb_lang *out, struct prb_lang_error *err)
{
    memset(out, 0, sizeof *out);
    memset(err, 0, sizeof *err);
    const char *name = o->name ? o->name : "-";
    struct lang_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        set_err(err, name, 0, 0, "out of memory");
        return -1;
    }
    c->text = text;
    c->len = len;
    c->name = name;
    c->err = err;
    if (setjmp(c->fail)) {
        out->arena = c->arena;
        free(c);
        prb_lang_free(out);
        return -1;
    }
    lang_parse(c);
    lang_generate(c, o, out);
    out->arena = c->arena;
    free(c);
    /* the machine's verifier, with its refusal at the script's place */
    if (out->prog.nprobes) {
        struct prb_checked chk;
        struct prb_reject why;
        if (prb_verify(&out->prog, &chk, &why)) {
            unsigned line = 0, col = 0;
            if (why.insn >= 0 && (unsigned)why.insn < out->prog.ncode) {
                line = out->prog.line[why.insn];
                col = out->col[why.insn];
            } else if (why.probe >= 0) {
                line = out->prog.probe_line[why.probe];
                col = out->probe_col[why.probe];
            }
            char m[400];
            snprintf(m, sizeof m, "the machine refuses %s: %s%s",
                     why.probe >= 0 ? out->prog.probe_name[why.probe] : "the program", why.msg,
                     strstr(why.msg, "exceeds the budget")
                         ? " (a bigger budget, --budget; or fewer reads: an argument read once "
                           "into a $variable)"
                         : "");
            set_err(err, name, line, col, m);
            prb_lang_free(out);
            return -1;
        }
        uint64_t bytes = (uint64_t)out->bytes + (uint64_t)chk.ncode * PRB_INSN_BYTES;
        prb_checked_free(&chk);
        uint32_t space = o->space ? o->space : PRB_LANG_SPACE;
        if (bytes > space) {
            char m[240];
            snprintf(m, sizeof m, "the maps and code take %llu bytes of the probe megabyte; "
                     "%u are there (smaller keys: %% or &, fewer histograms)",
                     (unsigned long long)bytes, space);
            set_err(err, name, 0, 0, m);
            prb_lang_free(out);
            return -1;
        }
        out->bytes = (uint32_t)bytes;
    }
    return 0;
}

void prb_lang_free(struct prb_lang *l)
{
    for (unsigned i = 0; i < 256; i++) {
        free(l->fmt[i].fmt);
        l->fmt[i].fmt = NULL;
    }
    lang_arena_free(l->arena);
    l->arena = NULL;
}
