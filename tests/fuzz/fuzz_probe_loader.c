/* libFuzzer target: random probe programs to the machine's loader (issue
 * 30), the verifier's soundness.  An input is either a program image
 * (what PRBLOAD hands the machine; decoded as the machine decodes it) or,
 * when it is not one, the bytes that choose a program's probes, maps and
 * instructions (struct prb_program built field by field, PC checkpoints
 * on the guest's own instructions so that they fire).  Every program the
 * verifier accepts is loaded into a machine running a small guest
 * (CALLS and RET, CHMK, memory writes) three times beside a run without
 * probes: charged (microcode), charged under the plain interpreter, and
 * free (the host).  A bug is: a guest register, PSL or byte of guest
 * memory that differs from the probe-free run's (the routines wrote the
 * guest), a firing that took more microcycles than the verifier's worst
 * case, a free run whose microcycles differ, a load the verifier accepted
 * but the machine refused (other than for room), or a crash or sanitizer
 * report. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vax/asm/vasm.h"
#include "vax/machine/vm.h"
#include "vax/machine/vm_probe.h"
#include "vax/probe/probe_image.h"
#include "vax/probe/probe_isa.h"
#include "vax/probe/probe_verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MEM_MB 4
#define BASE 0x1000u
#define LIMIT 40000000u

/* The guest: every instruction's address is a PC checkpoint a program
 * may name (the listing's, found by assembling it). */
static const char guest_src[] =
    "        .globl _start\n"
    "_start: movl $0x8000, sp\n"
    "        movl $0x3000, r9\n"
    "        mtpr r9, $0x11\n"
    "        moval chmk_h, 0x40(r9)\n"
    "        mtpr $0x9000, $0\n"
    "        pushl $0\n"
    "        pushab go\n"
    "        rei\n"
    "go:     movl $6, r6\n"
    "        moval buf, r8\n"
    "loop:   pushl r6\n"
    "        calls $1, f\n"
    "        movl r0, (r8)+\n"
    "        chmk $7\n"
    "        movc3 $12, data, (r8)\n"
    "        addl2 $12, r8\n"
    "        sobgtr r6, loop\n"
    "        halt\n"
    "f:      .word 0x4\n"
    "        movl 4(ap), r2\n"
    "        cmpl r2, $2\n"
    "        bleq 1f\n"
    "        subl3 $2, r2, -(sp)\n"
    "        calls $1, f\n"
    "        addl2 r2, r0\n"
    "        ret\n"
    "1:      movl r2, r0\n"
    "        ret\n"
    "        .align 2\n"
    "chmk_h: addl2 (sp)+, r11\n"
    "        rei\n"
    "data:   .ascii \"probe fuzz!!\"\n"
    "        .align 2\n"
    "buf:    .space 256\n";

struct guest {
    int ready;
    struct vasm_image img;
    uint32_t pc[64];
    unsigned npc;
};

/* The harness's one assembled guest (assembled on the first input). */
static struct guest g;

static void guest_init(void)
{
    if (g.ready)
        return;
    struct vasm_source s = {"guest.s", guest_src, sizeof guest_src - 1};
    struct vasm_options o = {.base = BASE, .entry_symbol = "_start"};
    struct vasm_diag d;
    if (vasm_assemble(&s, 1, &o, &g.img, &d))
        __builtin_trap();
    /* the instruction addresses: the code's labels (f's after its entry
     * mask) */
    static const char *const labels[] = {"go", "loop", "f", "chmk_h", "_start"};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        for (size_t k = 0; k < g.img.nsyms; k++)
            if (strcmp(g.img.syms[k].name, labels[i]) == 0)
                g.pc[g.npc++] = g.img.syms[k].value + (strcmp(labels[i], "f") == 0 ? 2 : 0);
    if (g.npc != 5)
        __builtin_trap();
    g.ready = 1;
}

struct state {
    int halted;
    uint64_t microcycles, instructions;
    uint32_t r[16], psl;
    uint8_t *mem;
};

static struct vax_machine *machine(int no_tc)
{
    char err[300];
    struct vm_config cfg = {.memory_mb = MEM_MB, .no_tcache = no_tc};
    struct vax_machine *m = vm_new(&cfg, err, sizeof err);
    if (!m)
        __builtin_trap();
    if (vm_phys_write(m, g.img.base, g.img.bytes, g.img.size))
        __builtin_trap();
    vm_set_reg(m, 15, g.img.entry);
    vm_set_psl(m, 0x041F0000);
    vm_console_input(m, "", 0);
    return m;
}

static void finish(struct vax_machine *m, struct state *s)
{
    vm_run(m, LIMIT);
    struct vm_stats st;
    vm_get_stats(m, &st);
    s->halted = vm_halted(m);
    s->microcycles = st.microcycles;
    s->instructions = st.instructions;
    for (int i = 0; i < 16; i++)
        s->r[i] = vm_reg(m, i);
    s->psl = vm_psl(m);
    s->mem = malloc((size_t)MEM_MB << 20);
    if (!s->mem || vm_phys_read(m, 0, s->mem, (size_t)MEM_MB << 20))
        __builtin_trap();
}

static void same_guest(const struct state *a, const struct state *b)
{
    if (a->halted != b->halted || a->instructions != b->instructions || a->psl != b->psl ||
        memcmp(a->r, b->r, sizeof a->r) || memcmp(a->mem, b->mem, (size_t)MEM_MB << 20))
        __builtin_trap();
}

/* ---- a program from the bytes ---- */

struct bytes {
    const uint8_t *p;
    size_t n;
};

static uint32_t take(struct bytes *b, unsigned k)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < k; i++) {
        v = v << 8 | (b->n ? *b->p : 0);
        if (b->n) {
            b->p++;
            b->n--;
        }
    }
    return v;
}

static const uint8_t ops[] = {
    PRB_EXIT, PRB_LDI, PRB_MOV, PRB_CTX, PRB_LDV, PRB_LDP, PRB_REC, PRB_AGG, PRB_WATCH,
    PRB_ARM, PRB_DISARM, PRB_TRON, PRB_TROFF, PRB_JMP, PRB_LDVA, PRB_NOTE, PRB_ADD, PRB_SUB,
    PRB_MUL, PRB_DIV, PRB_MOD, PRB_SHL, PRB_SAR, PRB_ADD + PRB_IMM, PRB_DIV + PRB_IMM,
    PRB_MOD + PRB_IMM, PRB_SHR + PRB_IMM, PRB_LDM, PRB_STM, PRB_BEQ, PRB_BLTU, PRB_BGE,
    PRB_BEQ + PRB_BIMM, PRB_BGTU + PRB_BIMM, PRB_LOOP,
};

static void build(struct bytes *b, struct prb_program *p)
{
    memset(p, 0, sizeof *p);
    p->nprobes = 1 + take(b, 1) % 4;
    p->nmaps = take(b, 1) % 4;
    for (unsigned i = 0; i < p->nmaps; i++) {
        struct prb_map_desc *d = &p->map[i];
        d->kind = (uint8_t)(take(b, 1) % PRB_M_NKINDS);
        d->keys = 1 + take(b, 1) % 16;
        if (d->kind == PRB_M_LHIST) {
            d->lmin = (int8_t)take(b, 1);
            d->lstep = 1 + take(b, 1) % 64;
            d->lbuckets = 1 + take(b, 1) % 32;
        }
    }
    unsigned at = 0;
    for (unsigned i = 0; i < p->nprobes; i++) {
        struct prb_probe_desc *d = &p->probe[i];
        unsigned x = take(b, 1);
        d->kind = (uint8_t)(1 + x % 4);
        d->flags = (uint8_t)(x >> 2 & 1); /* disarmed at times */
        d->modes = (uint8_t)(take(b, 1) & 0xF);
        uint32_t y = take(b, 2);
        switch (d->kind) {
        case PRB_K_PC: d->addr = g.pc[y % g.npc]; break;
        case PRB_K_EVENT:
            d->addr = (1 + y % 5) << 12;
            d->mask = 0xF000;
            break;
        case PRB_K_SAMPLE: d->addr = PRB_MIN_PERIOD + y % 4000; break;
        default: break;
        }
        d->budget = take(b, 1) % 2 ? 0 : 50 + take(b, 2) % 4000;
        d->code = (uint16_t)at;
        d->len = (uint16_t)(1 + take(b, 1) % 12);
        at += d->len;
    }
    if (at > PRB_MAX_CODE)
        at = PRB_MAX_CODE;
    p->ncode = at;
    int raw = take(b, 1) % 8 == 0;
    for (unsigned k = 0; k < p->ncode; k++) {
        struct prb_insn *in = &p->code[k];
        uint32_t w = take(b, 4);
        in->op = ops[(w >> 24) % sizeof ops];
        in->a = (uint8_t)(w >> 20 & 15);
        in->b = (uint8_t)(w >> 16 & 15);
        static const uint8_t sizes[] = {1, 2, 4, 4};
        in->size = sizes[w >> 14 & 3];
        unsigned how = w >> 12 & 3;
        in->imm = how == 0 ? (w & 0xFF) % (PRB_C_LAST + 1)
                : how == 1 ? (w & 0xFFF)
                : how == 2 ? take(b, 4)
                           : (w & 3) % 4;
        in->skip = (w >> 8 & 3);
        if (raw)
            continue; /* one program in eight as the bytes say */
        /* the rest in the form the verifier asks (fields it does not use
         * zero, registers mostly p0-p3, indexes that exist), so that
         * most programs reach the machine */
        in->a &= 3;
        in->b &= 3;
        unsigned nm = p->nmaps ? p->nmaps : 1;
        switch (prb_form(in->op)) {
        case PRB_F_NONE: in->a = in->b = in->size = 0; in->imm = in->skip = 0; break;
        case PRB_F_RI: in->b = in->size = 0; in->skip = 0; break;
        case PRB_F_RR: in->size = 0; in->imm = in->skip = 0; break;
        case PRB_F_CTX:
            in->b = in->size = 0;
            in->skip = 0;
            in->imm = (w & 0xFF) % (PRB_C_LAST + 1);
            break;
        case PRB_F_MEM: in->skip = 0; in->imm = (uint32_t)((int32_t)(w & 0xFF) - 128); break;
        case PRB_F_ABS:
            in->b = 0;
            in->skip = 0;
            in->imm = w & 1 ? BASE + (w & 0x3FC) : in->imm;
            break;
        case PRB_F_REC:
            in->b = 0;
            in->skip = 0;
            in->imm &= 0xFF;
            in->size = (uint8_t)(w & 3);
            break;
        case PRB_F_AGG: case PRB_F_LDM: case PRB_F_STM:
            in->size = 0;
            in->skip = 0;
            in->imm = (w & 0xFF) % nm;
            break;
        case PRB_F_WATCH: in->b = in->size = 0; in->skip = 0; in->imm = (w & 0xFF) % p->nprobes; break;
        case PRB_F_PROBE:
            in->a = in->b = in->size = 0;
            in->skip = 0;
            in->imm = (w & 0xFF) % p->nprobes;
            break;
        case PRB_F_NOTE: in->a = in->b = in->size = 0; in->skip = 0; in->imm = 1 + (w & 0xFF) % 255; break;
        case PRB_F_JMP: in->a = in->b = in->size = 0; in->imm = 0; break;
        case PRB_F_BRR: in->size = 0; in->imm = 0; break;
        case PRB_F_BRI: in->b = in->size = 0; break;
        case PRB_F_LOOP:
            in->a = in->b = in->size = 0;
            in->imm = 1 + (w & 7);
            in->skip = 1 + (w >> 3 & 3);
            break;
        default: break;
        }
    }
    /* registers written before they are read, mostly: a routine's first
     * instructions load p0-p3 */
    for (unsigned i = 0; i < p->nprobes; i++)
        if (take(b, 1) % 4)
            for (unsigned k = 0; k < 4 && k + 1u < p->probe[i].len; k++)
                if (p->probe[i].code + k < p->ncode)
                    p->code[p->probe[i].code + k] =
                        (struct prb_insn){.op = PRB_LDI, .a = (uint8_t)k, .imm = take(b, 1)};
    /* each routine ends with EXIT, mostly (the verifier's rule) */
    for (unsigned i = 0; i < p->nprobes; i++) {
        unsigned last = p->probe[i].code + p->probe[i].len - 1u;
        if (last < p->ncode && take(b, 1) % 8)
            p->code[last] = (struct prb_insn){.op = PRB_EXIT};
    }
}

static int load(struct vax_machine *m, const struct prb_program *p, int free_mode)
{
    char err[300];
    if (free_mode)
        vm_probe_set_free(m, 1);
    int h = vm_probe_load(m, p, err, sizeof err);
    if (h < 0)
        __builtin_trap(); /* the verifier accepted it; one program fits */
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    guest_init();
    struct prb_program *p = malloc(sizeof *p);
    if (!p)
        return 0;
    char err[300];
    if (prb_image_decode(data, size, p, err, sizeof err) != 0) {
        struct bytes b = {data, size};
        build(&b, p);
    }
    /* PC checkpoints on the guest's instructions (an image's too) */
    for (unsigned i = 0; i < p->nprobes && i < PRB_MAX_PROBES; i++)
        if (p->probe[i].kind == PRB_K_PC) {
            unsigned k;
            for (k = 0; k < g.npc && g.pc[k] != p->probe[i].addr; k++)
                ;
            if (k == g.npc)
                p->probe[i].addr = g.pc[p->probe[i].addr % g.npc];
        }
    struct prb_checked c;
    struct prb_reject why;
    if (prb_verify(p, &c, &why) != 0) {
        prb_reject_text(p, &why, err, sizeof err);
        if (!err[0])
            __builtin_trap(); /* a rejection names its reason */
        free(p);
        return 0;
    }
    /* the image round trip: the machine decodes what PRBLOAD hands it */
    size_t isz = prb_image_size(p);
    uint8_t *img = malloc(isz);
    struct prb_program *q = malloc(sizeof *q);
    if (!img || !q)
        __builtin_trap();
    prb_image_encode(p, img);
    if (prb_image_decode(img, isz, q, err, sizeof err) != 0)
        __builtin_trap();
    free(img);

    struct state none, ch, plain, fr;
    struct vax_machine *m = machine(0);
    finish(m, &none);
    vm_free(m);

    m = machine(0);
    int h = load(m, q, 0);
    finish(m, &ch);
    for (unsigned i = 0; i < p->nprobes; i++) {
        struct vm_probe_info in;
        if (vm_probe_info(m, h, i, &in) || in.max_cycles > c.cost[i] || in.cycles > in.fires * (uint64_t)c.cost[i])
            __builtin_trap(); /* a firing beyond its verified worst case */
    }
    vm_free(m);

    m = machine(1);
    load(m, q, 0);
    finish(m, &plain);
    vm_free(m);

    m = machine(0);
    load(m, q, 1);
    finish(m, &fr);
    vm_free(m);

    if (!none.halted)
        __builtin_trap(); /* the guest halts by itself */
    /* a charged run may not halt within the limit only if it is slow */
    if (ch.halted) {
        same_guest(&none, &ch);
        if (ch.microcycles < none.microcycles)
            __builtin_trap();
    }
    if (ch.halted != plain.halted || ch.microcycles != plain.microcycles)
        __builtin_trap(); /* the trace cache and the interpreter disagree */
    if (ch.halted)
        same_guest(&ch, &plain);
    same_guest(&none, &fr);
    if (fr.microcycles != none.microcycles)
        __builtin_trap();
    free(none.mem);
    free(ch.mem);
    free(plain.mem);
    free(fr.mem);
    prb_checked_free(&c);
    free(p);
    free(q);
    return 0;
}
