/* The verifier: checks a probe program against the rules of PROBES.md
 * ("Verification"), unrolls its loops and computes each routine's
 * worst-case cost (probe_verify.h). */
#include "vax/probe/probe_verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reject(struct prb_reject *why, const struct prb_program *p, int probe, int insn,
                  const char *fmt, ...)
{
    why->probe = probe;
    why->insn = insn;
    why->line = insn >= 0 && (unsigned)insn < p->ncode ? p->line[insn]
                : probe >= 0 ? p->probe_line[probe] : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why->msg, sizeof why->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static int check_probe(const struct prb_program *p, unsigned i, struct prb_reject *why)
{
    const struct prb_probe_desc *d = &p->probe[i];
    if (!prb_kind_name(d->kind))
        return reject(why, p, (int)i, -1, "unknown checkpoint kind %u", d->kind);
    if (d->flags & ~(PRB_PF_DISARMED | PRB_PF_PID | PRB_PF_PROG | PRB_PF_UID | PRB_PF_IPL))
        return reject(why, p, (int)i, -1, "unknown flag bits 0x%02x", d->flags);
    if (d->modes > 0xF)
        return reject(why, p, (int)i, -1, "mode mask 0x%02x names modes beyond 3", d->modes);
    if (!(d->flags & PRB_PF_PID) && d->pid)
        return reject(why, p, (int)i, -1, "a pid without the pid filter flag");
    if (!(d->flags & PRB_PF_PROG) && d->prog)
        return reject(why, p, (int)i, -1, "a program without the program filter flag");
    if (!(d->flags & PRB_PF_UID) && d->uid)
        return reject(why, p, (int)i, -1, "a uid without the uid filter flag");
    if (!(d->flags & PRB_PF_IPL) && (d->ipl_lo || d->ipl_hi))
        return reject(why, p, (int)i, -1, "an IPL range without the IPL filter flag");
    if ((d->flags & PRB_PF_IPL) && (d->ipl_lo > d->ipl_hi || d->ipl_hi > 31))
        return reject(why, p, (int)i, -1, "IPL range %u-%u: 0 to 31, the lower first",
                      d->ipl_lo, d->ipl_hi);
    if (d->budget > PRB_MAX_BUDGET)
        return reject(why, p, (int)i, -1, "budget %u microcycles is above the limit %u",
                      d->budget, PRB_MAX_BUDGET);
    switch (d->kind) {
    case PRB_K_PC:
        if (d->mask)
            return reject(why, p, (int)i, -1, "a pc checkpoint has no mask");
        break;
    case PRB_K_RET:
        if (d->addr || d->mask)
            return reject(why, p, (int)i, -1,
                          "a ret checkpoint has no address: a WATCH names it");
        break;
    case PRB_K_EVENT:
        if (d->mask > 0xFFFF || (d->addr & ~d->mask))
            return reject(why, p, (int)i, -1,
                          "event 0x%x under mask 0x%x: events are 16 bits, and the value "
                          "may only have bits the mask has", d->addr, d->mask);
        break;
    case PRB_K_SAMPLE:
        if (d->addr < PRB_MIN_PERIOD || d->mask)
            return reject(why, p, (int)i, -1,
                          "sampling period %u microcycles: the least is %u", d->addr,
                          PRB_MIN_PERIOD);
        break;
    }
    if (d->len == 0 || (unsigned)d->code + d->len > p->ncode)
        return reject(why, p, (int)i, -1, "code %u+%u lies outside the program's %u instructions",
                      d->code, d->len, p->ncode);
    return 0;
}

static int check_map(const struct prb_program *p, unsigned i, struct prb_reject *why)
{
    const struct prb_map_desc *d = &p->map[i];
    if (!prb_map_kind_name(d->kind))
        return reject(why, p, -1, -1, "map %u: unknown kind %u", i, d->kind);
    if (d->keys < 1 || d->keys > PRB_MAX_KEYS)
        return reject(why, p, -1, -1, "map %u: %u keys (1 to %d)", i, d->keys, PRB_MAX_KEYS);
    if (d->kind == PRB_M_LHIST) {
        if (d->lstep < 1 || d->lstep > 0x7FFFFFFFu || d->lbuckets < 1 ||
            d->lbuckets > PRB_MAX_LBUCKETS)
            return reject(why, p, -1, -1, "map %u: a linear histogram needs a step of 1 to "
                          "2^31-1 and 1 to %d buckets", i, PRB_MAX_LBUCKETS);
    } else if (d->lmin || d->lstep || d->lbuckets) {
        return reject(why, p, -1, -1, "map %u: linear histogram fields on a %s map", i,
                      prb_map_kind_name(d->kind));
    }
    return 0;
}

/* The fields one instruction may use, and their ranges. */
static int check_insn(const struct prb_program *p, unsigned pi, unsigned j,
                      struct prb_reject *why)
{
    const struct prb_insn *in = &p->code[j];
    const struct prb_probe_desc *d = &p->probe[pi];
    enum prb_form f = prb_form(in->op);
    int ui = (int)j, up = (int)pi;
    int ua = 0, ub = 0, usize = 0, uimm = 0, uskip = 0;
    switch (f) {
    case PRB_F_BAD: return reject(why, p, up, ui, "opcode 0x%02x is not an instruction", in->op);
    case PRB_F_NONE: break;
    case PRB_F_RI: ua = uimm = 1; break;
    case PRB_F_RR: ua = ub = 1; break;
    case PRB_F_CTX:
        ua = uimm = 1;
        if (!prb_ctx_name(in->imm))
            return reject(why, p, up, ui, "context selector %u does not exist", in->imm);
        if ((in->imm == PRB_C_DUR || in->imm == PRB_C_DURX || in->imm == PRB_C_COOKIE) &&
            d->kind != PRB_K_RET)
            return reject(why, p, up, ui, "%s is known only in a ret probe",
                          prb_ctx_name(in->imm));
        if (in->imm == PRB_C_EVENT && d->kind != PRB_K_EVENT)
            return reject(why, p, up, ui, "event is known only in an event probe");
        break;
    case PRB_F_MEM: {
        ua = ub = usize = uimm = 1;
        int32_t off = (int32_t)in->imm;
        if (off < -0x800000 || off > 0x7FFFFF)
            return reject(why, p, up, ui, "offset %d does not fit 24 bits", off);
        break;
    }
    case PRB_F_ABS: ua = usize = uimm = 1; break;
    case PRB_F_REC:
        ua = usize = uimm = 1;
        if (in->imm > 255)
            return reject(why, p, up, ui, "record tag %u: 0 to 255", in->imm);
        if (in->size > PRB_MAX_REC || (unsigned)in->a + in->size > 16)
            return reject(why, p, up, ui, "a record of %u values from p%u: at most %d, "
                          "within p0-p15", in->size, in->a, PRB_MAX_REC);
        break;
    case PRB_F_AGG:
        ua = ub = uimm = 1;
        if (in->imm >= p->nmaps)
            return reject(why, p, up, ui, "map %u does not exist (the program has %u)", in->imm,
                          p->nmaps);
        break;
    case PRB_F_LDM: case PRB_F_STM:
        ua = ub = uimm = 1;
        if (in->imm >= p->nmaps)
            return reject(why, p, up, ui, "map %u does not exist (the program has %u)", in->imm,
                          p->nmaps);
        if (p->map[in->imm].kind != PRB_M_COUNT && p->map[in->imm].kind != PRB_M_SUM)
            return reject(why, p, up, ui, "%s needs a count or sum map", prb_op_name(in->op));
        break;
    case PRB_F_WATCH:
        ua = uimm = 1;
        if (d->kind != PRB_K_PC)
            return reject(why, p, up, ui, "watch is allowed only in a pc probe (a procedure's entry)");
        if (in->imm >= p->nprobes || p->probe[in->imm].kind != PRB_K_RET)
            return reject(why, p, up, ui, "watch names probe %u, which is not a ret probe",
                          in->imm);
        break;
    case PRB_F_PROBE:
        uimm = 1;
        if (in->imm >= p->nprobes)
            return reject(why, p, up, ui, "probe %u does not exist (the program has %u)",
                          in->imm, p->nprobes);
        break;
    case PRB_F_NOTE:
        uimm = 1;
        if (in->imm < 1 || in->imm > 255)
            return reject(why, p, up, ui, "note %u: 1 to 255", in->imm);
        break;
    case PRB_F_JMP: uskip = 1; break;
    case PRB_F_BRR: ua = ub = uskip = 1; break;
    case PRB_F_BRI: ua = uimm = uskip = 1; break;
    case PRB_F_LOOP:
        uimm = uskip = 1;
        if (in->imm < 1 || in->imm > PRB_MAX_LOOP)
            return reject(why, p, up, ui, "loop count %u: 1 to %d", in->imm, PRB_MAX_LOOP);
        if (in->skip < 1)
            return reject(why, p, up, ui, "a loop needs a body");
        break;
    }
    if ((ua && in->a > 15) || (ub && in->b > 15))
        return reject(why, p, up, ui, "register p%u does not exist (p0-p15)",
                      ua && in->a > 15 ? in->a : in->b);
    if (usize && in->op != PRB_REC && in->size != 1 && in->size != 2 && in->size != 4)
        return reject(why, p, up, ui, "size %u: 1, 2 or 4 bytes", in->size);
    if ((!ua && in->a) || (!ub && in->b) || (!usize && in->size) || (!uimm && in->imm) ||
        (!uskip && in->skip))
        return reject(why, p, up, ui, "%s: a field it does not use is not zero",
                      prb_op_name(in->op));
    return 0;
}

static int is_branch(unsigned op)
{
    enum prb_form f = prb_form(op);
    return f == PRB_F_JMP || f == PRB_F_BRR || f == PRB_F_BRI;
}

/* Registers an instruction reads (bit n: pn). */
static uint32_t reads(const struct prb_insn *in)
{
    switch (prb_form(in->op)) {
    case PRB_F_RI: return in->op == PRB_LDI ? 0 : 1u << in->a;
    case PRB_F_RR: return (in->op == PRB_MOV ? 0 : 1u << in->a) | 1u << in->b;
    case PRB_F_MEM: return 1u << in->b;
    case PRB_F_REC: return in->size ? ((1u << in->size) - 1) << in->a : 0;
    case PRB_F_AGG: case PRB_F_STM: return 1u << in->a | 1u << in->b;
    case PRB_F_LDM: return 1u << in->b;
    case PRB_F_WATCH: return 1u << in->a;
    case PRB_F_BRR: return 1u << in->a | 1u << in->b;
    case PRB_F_BRI: return 1u << in->a;
    default: return 0;
    }
}

static uint32_t writes(const struct prb_insn *in)
{
    switch (prb_form(in->op)) {
    case PRB_F_RI: case PRB_F_RR: case PRB_F_CTX: case PRB_F_MEM: case PRB_F_ABS: case PRB_F_LDM:
        return 1u << in->a;
    default: return 0;
    }
}

/* Unrolls probe pi's routine into out->code (from out->ncode), with the
 * skips counted in unrolled instructions. */
static int expand(const struct prb_program *p, unsigned pi, struct prb_checked *out,
                  size_t *cap, struct prb_reject *why)
{
    const struct prb_probe_desc *d = &p->probe[pi];
    unsigned base = d->code, n = d->len;
    unsigned pos[PRB_MAX_CODE + 1];
    /* loop bodies: body_of[j] = the LOOP's index + 1 for j inside one, else 0 */
    unsigned body_of[PRB_MAX_CODE];
    memset(body_of, 0, n * sizeof body_of[0]);
    unsigned e = 0;
    for (unsigned j = 0; j < n; j++) {
        const struct prb_insn *in = &p->code[base + j];
        pos[j] = e;
        if (body_of[j]) {
            if (in->op == PRB_LOOP)
                return reject(why, p, (int)pi, (int)(base + j), "loops may not nest");
            continue;
        }
        if (in->op == PRB_LOOP) {
            if (j + in->skip >= n)
                return reject(why, p, (int)pi, (int)(base + j),
                              "the loop's body of %u runs past the routine's last instruction",
                              in->skip);
            for (unsigned k = 1; k <= in->skip; k++)
                body_of[j + k] = j + 1;
            e += in->imm * in->skip;
        } else {
            e++;
        }
        if (e > PRB_MAX_ROUTINE)
            return reject(why, p, (int)pi, (int)(base + j),
                          "the routine unrolls to more than %d instructions", PRB_MAX_ROUTINE);
    }
    pos[n] = e;
    if (p->code[base + n - 1].op != PRB_EXIT || body_of[n - 1])
        return reject(why, p, (int)pi, (int)(base + n - 1),
                      "the routine's last instruction must be exit (outside any loop)");
    /* branch targets */
    for (unsigned j = 0; j < n; j++) {
        const struct prb_insn *in = &p->code[base + j];
        if (!is_branch(in->op))
            continue;
        uint64_t t = (uint64_t)j + 1 + in->skip;
        if (t >= n)
            return reject(why, p, (int)pi, (int)(base + j),
                          "the branch skips past the routine's end");
        if (body_of[j]) { /* within its body, or to the body's end */
            unsigned k = body_of[j] - 1, end = k + p->code[base + k].skip;
            if (t > end + 1)
                return reject(why, p, (int)pi, (int)(base + j),
                              "a branch inside a loop may go at most to the body's end");
        } else if (body_of[t]) {
            return reject(why, p, (int)pi, (int)(base + j), "a branch into a loop's body");
        }
    }
    if (out->ncode + e > *cap) {
        size_t nc = *cap ? *cap * 2 : 1024;
        while (nc < out->ncode + e)
            nc *= 2;
        struct prb_insn *c = realloc(out->code, nc * sizeof *c);
        if (!c)
            return reject(why, p, (int)pi, -1, "out of memory");
        out->code = c;
        *cap = nc;
    }
    struct prb_insn *o = out->code + out->ncode;
    unsigned w = 0;
    for (unsigned j = 0; j < n; j++) {
        const struct prb_insn *in = &p->code[base + j];
        if (body_of[j])
            continue;
        if (in->op != PRB_LOOP) {
            o[w] = *in;
            if (is_branch(in->op))
                o[w].skip = pos[j + 1 + in->skip] - pos[j] - 1;
            w++;
            continue;
        }
        for (unsigned c = 0; c < in->imm; c++)
            for (unsigned k = 1; k <= in->skip; k++)
                o[w++] = p->code[base + j + k]; /* (skips inside a body stand) */
    }
    out->start[pi] = out->ncode;
    out->len[pi] = e;
    out->ncode += e;
    return 0;
}

/* Registers defined before use, and the worst-case cost, over the
 * unrolled routine (a graph whose edges all go forward). */
static int flow(const struct prb_program *p, unsigned pi, struct prb_checked *out,
                struct prb_reject *why)
{
    const struct prb_insn *c = out->code + out->start[pi];
    unsigned n = out->len[pi];
    uint32_t *def = malloc(n * sizeof *def);
    uint64_t *cost = malloc(n * sizeof *cost);
    if (!def || !cost) {
        free(def);
        free(cost);
        return reject(why, p, (int)pi, -1, "out of memory");
    }
    for (unsigned i = 0; i < n; i++)
        def[i] = 0xFFFFFFFFu;
    def[0] = 0;
    int rc = 0;
    for (unsigned i = 0; i < n && !rc; i++) {
        uint32_t r = reads(&c[i]) & ~def[i];
        if (r) {
            unsigned reg = (unsigned)__builtin_ctz(r);
            rc = reject(why, p, (int)pi, -1, "instruction %u of the routine (%s) reads p%u, "
                        "which is not written on every path before it", i,
                        prb_op_name(c[i].op), reg);
            break;
        }
        uint32_t o = def[i] | writes(&c[i]);
        if (c[i].op == PRB_EXIT)
            continue;
        if (is_branch(c[i].op))
            def[i + 1 + c[i].skip] &= o;
        if (c[i].op != PRB_JMP)
            def[i + 1] &= o; /* (the verifier put an exit last: i + 1 < n) */
    }
    if (!rc) {
        for (unsigned i = n; i-- > 0;) {
            uint64_t k = prb_insn_cost(&c[i], p->map, p->nmaps), next = 0;
            if (c[i].op != PRB_EXIT) {
                if (c[i].op != PRB_JMP)
                    next = cost[i + 1];
                if (is_branch(c[i].op) && cost[i + 1 + c[i].skip] > next)
                    next = cost[i + 1 + c[i].skip];
            }
            cost[i] = k + next;
        }
        uint64_t total = PRB_COST_ROUTINE + cost[0];
        uint32_t budget = p->probe[pi].budget ? p->probe[pi].budget : PRB_DEFAULT_BUDGET;
        out->cost[pi] = total > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)total;
        out->budget[pi] = budget;
        if (total > budget)
            rc = reject(why, p, (int)pi, -1, "worst case %llu microcycles exceeds the budget "
                        "of %u", (unsigned long long)total, budget);
    }
    free(def);
    free(cost);
    return rc;
}

int prb_verify(const struct prb_program *p, struct prb_checked *out, struct prb_reject *why)
{
    memset(out, 0, sizeof *out);
    memset(why, 0, sizeof *why);
    why->probe = why->insn = -1;
    if (p->nprobes == 0)
        return reject(why, p, -1, -1, "the program has no probes");
    if (p->nprobes > PRB_MAX_PROBES || p->nmaps > PRB_MAX_MAPS || p->ncode > PRB_MAX_CODE)
        return reject(why, p, -1, -1, "too many probes, maps or instructions");
    for (unsigned i = 0; i < p->nmaps; i++)
        if (check_map(p, i, why))
            return -1;
    size_t cap = 0;
    for (unsigned i = 0; i < p->nprobes; i++) {
        if (check_probe(p, i, why))
            goto fail;
        const struct prb_probe_desc *d = &p->probe[i];
        for (unsigned j = d->code; j < (unsigned)d->code + d->len; j++)
            if (check_insn(p, i, j, why))
                goto fail;
        if (expand(p, i, out, &cap, why) || flow(p, i, out, why))
            goto fail;
    }
    return 0;
fail:
    prb_checked_free(out);
    return -1;
}

void prb_checked_free(struct prb_checked *c)
{
    free(c->code);
    c->code = NULL;
    c->ncode = 0;
}

void prb_reject_text(const struct prb_program *p, const struct prb_reject *why, char *buf,
                     size_t len)
{
    char where[PRB_NAME + 24] = "";
    if (why->probe >= 0 && (unsigned)why->probe < PRB_MAX_PROBES) {
        if (p->probe_name[why->probe][0])
            snprintf(where, sizeof where, "probe %s: ", p->probe_name[why->probe]);
        else
            snprintf(where, sizeof where, "probe %d: ", why->probe);
    }
    if (why->line)
        snprintf(buf, len, "line %u: %s%s", why->line, where, why->msg);
    else
        snprintf(buf, len, "%s%s", where, why->msg);
}
