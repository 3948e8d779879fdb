/* Unit tests of the probe programs (vax/probe): the text form and its
 * listing, the image, every one of the verifier's rejections, the cost
 * model's longest path, and the host executor's semantics of every
 * instruction and map kind (PROBES.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vax/probe/probe_asm.h"
#include "vax/probe/probe_exec.h"
#include "vax/probe/probe_image.h"
#include "vax/probe/probe_install.h"
#include "vax/probe/probe_verify.h"

static struct prb_program prog, prog2;
static char err[300];

static int as(const char *text)
{
    return prb_asm(text, strlen(text), "t", &prog, err, sizeof err);
}

/* assembles text, which must verify; returns the checked form */
static void ok(const char *text, struct prb_checked *c)
{
    if (as(text))
        fail_msg("assembler: %s", err);
    struct prb_reject why;
    if (prb_verify(&prog, c, &why))
        fail_msg("verifier: %s (probe %d insn %d line %u)", why.msg, why.probe, why.insn,
                 why.line);
}

/* assembles text and expects the verifier to refuse it, with a reason
 * containing `what` */
static void refused(const char *text, const char *what)
{
    if (as(text))
        fail_msg("assembler: %s", err);
    struct prb_checked c;
    struct prb_reject why;
    if (prb_verify(&prog, &c, &why) == 0) {
        prb_checked_free(&c);
        fail_msg("accepted, expected a rejection naming '%s'", what);
    }
    if (!strstr(why.msg, what))
        fail_msg("rejected for '%s', expected '%s'", why.msg, what);
}

/* ---- the text form ---- */

static const char sample[] =
    "# a sample of everything\n"
    "map cnt count keys 16\n"
    "map lat hist\n"
    "map lin lhist keys 4 lhist -10 5 20\n"
    "map st stats keys 2\n"
    "probe entry pc 0x80001234 modes kernel, exec budget 3000\n"
    "    ctx p0, fp\n"
    "    watch done, p0\n"
    "    ldv p1, [p0 + 16], 4\n"
    "    ldv p2, [p0 - 4], 2\n"
    "    ldva p3, [0x80000010], 1\n"
    "    ldp p4, [p3 + 0], 4\n"
    "    beqi p1, 0, skip\n"
    "    addi p1, 1\n"
    "skip:\n"
    "    loop 3\n"
    "      addi p1, 2\n"
    "      bnei p1, 7, next\n"
    "      mov p2, p1\n"
    "next:\n"
    "    endloop\n"
    "    rec 5, p1, 2\n"
    "    agg cnt, p1, p2\n"
    "    arm later\n"
    "    exit\n"
    "probe done ret\n"
    "    ctx p0, dur\n"
    "    ctx p1, durx\n"
    "    ldi p2, 0\n"
    "    agg lat, p2, p0\n"
    "    agg lin, p2, p1\n"
    "    agg st, p2, p0\n"
    "    exit\n"
    "probe later event 0x1000 mask 0xf000 disarmed pid 7\n"
    "    ctx p0, event\n"
    "    disarm later\n"
    "    tron\n"
    "    troff\n"
    "    exit\n"
    "probe tick sample 12500 prog 0x10013 uid 3 ipl 0 20\n"
    "    ctx p0, pc\n"
    "    jmp end\n"
    "    ldi p0, 1\n"
    "end:\n"
    "    exit\n";

static void test_asm_roundtrip(void **state)
{
    (void)state;
    if (as(sample))
        fail_msg("%s", err);
    assert_int_equal(prog.nprobes, 4);
    assert_int_equal(prog.nmaps, 4);
    assert_int_equal(prog.probe[0].kind, PRB_K_PC);
    assert_int_equal(prog.probe[0].addr, 0x80001234u);
    assert_int_equal(prog.probe[0].modes, 3);
    assert_int_equal(prog.probe[0].budget, 3000);
    assert_int_equal(prog.probe[2].mask, 0xF000);
    assert_int_equal(prog.probe[2].flags, PRB_PF_DISARMED | PRB_PF_PID);
    assert_int_equal(prog.probe[3].flags, PRB_PF_PROG | PRB_PF_UID | PRB_PF_IPL);
    assert_int_equal(prog.probe[3].uid, 3);
    assert_int_equal(prog.probe[3].ipl_lo, 0);
    assert_int_equal(prog.probe[3].ipl_hi, 20);
    assert_int_equal(prog.map[2].lmin, -10);
    assert_int_equal(prog.map[2].lbuckets, 20);
    /* watch names the ret probe, agg the map, arm a later probe */
    assert_int_equal(prog.code[1].op, PRB_WATCH);
    assert_int_equal(prog.code[1].imm, 1);
    assert_int_equal((int32_t)prog.code[3].imm, -4);
    /* the loop's body is 3 instructions, its branch skips 1 */
    int loop = -1;
    for (unsigned i = 0; i < prog.ncode; i++)
        if (prog.code[i].op == PRB_LOOP)
            loop = (int)i;
    assert_true(loop > 0);
    assert_int_equal(prog.code[loop].skip, 3);
    assert_int_equal(prog.code[loop + 2].skip, 1);
    /* the listing reads back to the same program */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(prb_disasm(&prog, f), 0);
    fclose(f);
    if (prb_asm(buf, len, "listing", &prog2, err, sizeof err))
        fail_msg("%s in\n%s", err, buf);
    free(buf);
    assert_int_equal(prog2.nprobes, prog.nprobes);
    assert_int_equal(prog2.nmaps, prog.nmaps);
    assert_int_equal(prog2.ncode, prog.ncode);
    assert_memory_equal(prog2.code, prog.code, prog.ncode * sizeof prog.code[0]);
    assert_memory_equal(prog2.probe, prog.probe, prog.nprobes * sizeof prog.probe[0]);
    assert_memory_equal(prog2.map, prog.map, prog.nmaps * sizeof prog.map[0]);
}

static void asm_err(const char *text, const char *where, const char *what)
{
    if (as(text) == 0)
        fail_msg("assembled; expected %s", what);
    if (!strstr(err, where) || !strstr(err, what))
        fail_msg("'%s': expected %s and %s", err, where, what);
}

static void test_asm_errors(void **state)
{
    (void)state;
    asm_err("probe a pc 1\n    exit\n    bogus p0\n", "t:3:5:", "not an instruction");
    asm_err("probe a pc 1\n    ldi p16, 1\n    exit\n", "t:2:9:", "not a register");
    asm_err("probe a pc 1\n    ldi p0 1\n    exit\n", "t:2:12:", "',' expected");
    asm_err("probe a pc 1\n    beq p0, p0, back\n    exit\n", "t:2:17:", "no label 'back'");
    asm_err("probe a pc 1\nback:\n    beq p0, p0, back\n    exit\n", "t:3:17:",
            "branches go forward only");
    asm_err("probe a pc 1\n    agg nomap, p0, p0\n    exit\n", "t:2:9:", "no map 'nomap'");
    asm_err("probe a pc 1\n    arm nobody\n    exit\n", "t:2:9:", "no probe 'nobody'");
    asm_err("probe a bogus 1\n    exit\n", "t:1:9:", "not a checkpoint kind");
    asm_err("probe a pc 1\n    exit\nprobe a pc 2\n    exit\n", "t:3:7:", "defined twice");
    asm_err("map m count keys 0\n", "t:1:18:", "out of range");
    asm_err("map m lhist\n", "t:1:7:", "needs 'lhist MIN STEP BUCKETS'");
    asm_err("map m lhist 0 4\n", "t:1:15:", "a number is missing");
    {
        /* PROBES.md's form: the three numbers right after the kind */
        static struct prb_program q;
        static const char t2[] = "map m lhist -3 4 16 keys 2\nprobe a pc 1\n    exit\n";
        char e2[200];
        assert_int_equal(prb_asm(t2, sizeof t2 - 1, "t", &q, e2, sizeof e2), 0);
        assert_int_equal(q.map[0].lmin, -3);
        assert_int_equal(q.map[0].lstep, 4);
        assert_int_equal(q.map[0].lbuckets, 16);
        assert_int_equal(q.map[0].keys, 2);
    }
    asm_err("    exit\n", "t:1:5:", "before the first probe");
    asm_err("probe a pc 1\n    loop 2\n    exit\n", "t:", "no endloop");
    asm_err("probe a pc 1\n    ldi p0, 0x100000000\n    exit\n", "t:2:13:", "does not fit");
    asm_err("probe a pc 1\n    ldi p0, 1 %\n    exit\n", "t:2:15:", "unexpected character");
    asm_err("map x count\n", "t:", "no probe");
    asm_err("probe a pc 1 colour blue\n    exit\n", "t:1:14:", "unknown probe option");
    asm_err("probe a pc 1\n    ldv p0, [p1 + 0x800001]\n    exit\n", "t:2:19:", "out of range");
    assert_int_equal(prb_asm("probe a pc 1\n\0exit\n", 19, "t", &prog, err, sizeof err), -1);
    assert_non_null(strstr(err, "NUL"));
}

static int resolve(void *ctx, const char *name, uint32_t *v)
{
    (void)ctx;
    if (strcmp(name, "_ipintr") == 0) {
        *v = 0x80012344u;
        return 0;
    }
    if (strcmp(name, "_time") == 0) {
        *v = 0x80030000u;
        return 0;
    }
    return -1;
}

static void test_asm_symbols(void **state)
{
    (void)state;
    static const char text[] = "probe a pc _ipintr + 2\n"
                               "    ldva p0, [_time + 4], 4\n"
                               "    ldi p1, _time - 8\n"
                               "    exit\n";
    if (prb_asm_syms(text, sizeof text - 1, "t", resolve, NULL, &prog, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(prog.probe[0].addr, 0x80012346u);
    assert_int_equal(prog.code[0].imm, 0x80030004u);
    assert_int_equal(prog.code[1].imm, 0x8002FFF8u);
    static const char bad[] = "probe a pc _nosuch\n    exit\n";
    assert_int_equal(prb_asm_syms(bad, sizeof bad - 1, "t", resolve, NULL, &prog, err, sizeof err), -1);
    assert_non_null(strstr(err, "t:1:12: unknown symbol '_nosuch'"));
    /* without a resolver a name is a symbol that cannot be looked up */
    assert_int_equal(as("probe a pc _ipintr\n    exit\n"), -1);
    assert_non_null(strstr(err, "'_ipintr': a symbol, but there is no symbol table"));
    assert_int_equal(as("probe a pc 12x\n    exit\n"), -1);
    assert_non_null(strstr(err, "'12x' is not a number"));
}

/* ---- the image ---- */

static void test_image(void **state)
{
    (void)state;
    if (as(sample))
        fail_msg("%s", err);
    size_t n = prb_image_size(&prog);
    uint8_t *img = malloc(n + 1);
    prb_image_encode(&prog, img);
    assert_int_equal(prb_image_decode(img, n, &prog2, err, sizeof err), 0);
    assert_memory_equal(prog2.code, prog.code, prog.ncode * sizeof prog.code[0]);
    assert_memory_equal(prog2.probe, prog.probe, prog.nprobes * sizeof prog.probe[0]);
    assert_memory_equal(prog2.map, prog.map, prog.nmaps * sizeof prog.map[0]);
    /* damage */
    assert_int_equal(prb_image_decode(img, n - 1, &prog2, err, sizeof err), -1);
    assert_non_null(strstr(err, "its counts make"));
    assert_int_equal(prb_image_decode(img, 10, &prog2, err, sizeof err), -1);
    assert_non_null(strstr(err, "truncated"));
    img[0] ^= 1;
    assert_int_equal(prb_image_decode(img, n, &prog2, err, sizeof err), -1);
    assert_non_null(strstr(err, "bad magic"));
    img[0] ^= 1;
    img[8] = 2;
    assert_int_equal(prb_image_decode(img, n, &prog2, err, sizeof err), -1);
    assert_non_null(strstr(err, "version 2"));
    img[8] = 1;
    img[10] = 65; /* 65 probes */
    assert_int_equal(prb_image_decode(img, n, &prog2, err, sizeof err), -1);
    assert_non_null(strstr(err, "the limits"));
    img[10] = (uint8_t)prog.nprobes;
    img[20] = 1;
    assert_int_equal(prb_image_decode(img, n, &prog2, err, sizeof err), -1);
    assert_non_null(strstr(err, "reserved"));
    img[20] = 0;
    img[PRB_IMAGE_HEADER + 3] = 1; /* probe 0's pad byte */
    assert_int_equal(prb_image_decode(img, n, &prog2, err, sizeof err), -1);
    assert_non_null(strstr(err, "probe 0: reserved"));
    free(img);
}

/* ---- the verifier: every rejection ---- */

static void test_verify_accepts(void **state)
{
    (void)state;
    struct prb_checked c;
    ok(sample, &c);
    /* the loop is unrolled: entry's routine has 3 x 3 body instructions */
    unsigned loops = 0;
    for (unsigned i = 0; i < c.len[0]; i++)
        if (c.code[c.start[0] + i].op == PRB_MOV)
            loops++;
    assert_int_equal(loops, 3);
    for (unsigned i = 0; i < c.ncode; i++)
        assert_int_not_equal(c.code[i].op, PRB_LOOP);
    assert_true(c.cost[0] > 0 && c.cost[0] <= 3000);
    assert_int_equal(c.budget[1], PRB_DEFAULT_BUDGET);
    prb_checked_free(&c);
}

/* programs built directly (not through the text form), for the image
 * fields the assembler never writes */
static void refused_prog(const char *what)
{
    struct prb_checked c;
    struct prb_reject why;
    if (prb_verify(&prog, &c, &why) == 0) {
        prb_checked_free(&c);
        fail_msg("accepted, expected '%s'", what);
    }
    if (!strstr(why.msg, what))
        fail_msg("rejected for '%s', expected '%s'", why.msg, what);
}

static void one_probe(unsigned kind, uint32_t addr)
{
    memset(&prog, 0, sizeof prog);
    prog.nprobes = 1;
    prog.probe[0].kind = (uint8_t)kind;
    prog.probe[0].addr = addr;
    prog.probe[0].len = 1;
    prog.ncode = 1;
    prog.code[0].op = PRB_EXIT;
}

static void test_verify_rejects(void **state)
{
    (void)state;
    memset(&prog, 0, sizeof prog);
    refused_prog("no probes");
    one_probe(9, 0);
    refused_prog("unknown checkpoint kind");
    one_probe(PRB_K_PC, 0);
    prog.probe[0].flags = 0x80;
    refused_prog("unknown flag bits");
    one_probe(PRB_K_PC, 0);
    prog.probe[0].modes = 0x10;
    refused_prog("mode mask");
    one_probe(PRB_K_PC, 0);
    prog.probe[0].pid = 3;
    refused_prog("pid without");
    one_probe(PRB_K_PC, 0);
    prog.probe[0].uid = 3;
    refused_prog("a uid without the uid filter flag");
    one_probe(PRB_K_PC, 0);
    prog.probe[0].ipl_hi = 3;
    refused_prog("an IPL range without the IPL filter flag");
    one_probe(PRB_K_PC, 0);
    prog.probe[0].flags = PRB_PF_IPL;
    prog.probe[0].ipl_lo = 5;
    prog.probe[0].ipl_hi = 4;
    refused_prog("IPL range 5-4");
    prog.probe[0].ipl_lo = 5;
    prog.probe[0].ipl_hi = 32;
    refused_prog("IPL range 5-32");
    one_probe(PRB_K_PC, 0);
    prog.probe[0].prog = 3;
    refused_prog("program without");
    one_probe(PRB_K_PC, 0);
    prog.probe[0].budget = PRB_MAX_BUDGET + 1;
    refused_prog("above the limit");
    one_probe(PRB_K_PC, 0);
    prog.probe[0].mask = 1;
    refused_prog("has no mask");
    one_probe(PRB_K_RET, 4);
    refused_prog("a ret checkpoint has no address");
    one_probe(PRB_K_EVENT, 0x1001);
    prog.probe[0].mask = 0xF000;
    refused_prog("only have bits the mask has");
    one_probe(PRB_K_SAMPLE, 999);
    refused_prog("the least is 1000");
    one_probe(PRB_K_PC, 0);
    prog.probe[0].len = 2;
    refused_prog("outside the program");
    one_probe(PRB_K_PC, 0);
    prog.nmaps = 1;
    prog.map[0].kind = 9;
    prog.map[0].keys = 1;
    refused_prog("unknown kind 9");
    prog.map[0].kind = PRB_M_COUNT;
    prog.map[0].keys = 0;
    refused_prog("0 keys");
    prog.map[0].keys = 1;
    prog.map[0].lstep = 1;
    refused_prog("linear histogram fields on a count map");
    prog.map[0].kind = PRB_M_LHIST;
    prog.map[0].lstep = 0;
    prog.map[0].lbuckets = 1;
    refused_prog("a linear histogram needs");
    one_probe(PRB_K_PC, 0);
    prog.code[0].op = 0x41; /* a fetch-copy slot */
    refused_prog("not an instruction");
    one_probe(PRB_K_PC, 0);
    prog.code[0].a = 1; /* a field exit does not use */
    refused_prog("a field it does not use");

    refused("probe a pc 1\n    ctx p0, dur\n    exit\n", "dur is known only in a ret probe");
    refused("probe a pc 1\n    ctx p0, event\n    exit\n", "event is known only in an event");
    refused("probe a ret\n    ldi p0, 0\n    watch a, p0\n    exit\n",
            "watch is allowed only in a pc probe");
    refused("probe a pc 1\n    ldi p0, 0\n    watch a, p0\n    exit\n", "not a ret probe");
    refused("probe a pc 1\n    ldi p15, 1\n    rec 1, p15, 2\n    exit\n", "within p0-p15");
    refused("probe a pc 1\n    loop 2\n    loop 2\n    ldi p0, 1\n    endloop\n    endloop\n"
            "    exit\n", "loops may not nest");
    refused("probe a pc 1\n    ldi p0, 1\n    exit\n    ldi p1, 1\n", "last instruction must be exit");
    refused("probe a pc 1\n    loop 2\n    exit\n    endloop\n", "last instruction must be exit");
    refused("probe a pc 1\n    ldi p0, 0\n    beqi p0, 0, in\n    loop 2\nin:\n    addi p0, 1\n"
            "    endloop\n    exit\n", "a branch into a loop's body");
    refused("probe a pc 1\n    ldi p0, 0\n    loop 2\n    beqi p0, 0, out\n    addi p0, 1\n"
            "    endloop\n    addi p0, 1\nout:\n    exit\n", "at most to the body's end");
    refused("probe a pc 1\n    loop 256\n    loop 256\n    ldi p0, 1\n    endloop\n    endloop\n"
            "    exit\n", "loops may not nest");
    refused("probe a pc 1\n    ldi p0, 0\n    loop 256\n    addi p0, 1\n    addi p0, 1\n"
            "    addi p0, 1\n    addi p0, 1\n    addi p0, 1\n    addi p0, 1\n    addi p0, 1\n"
            "    addi p0, 1\n    addi p0, 1\n    endloop\n    exit\n", "unrolls to more than");
    refused("probe a pc 1\n    addi p3, 1\n    exit\n", "reads p3");
    refused("probe a pc 1\n    ctx p0, pid\n    beqi p0, 1, l\n    ldi p1, 1\nl:\n"
            "    mov p2, p1\n    exit\n", "reads p1");
    refused("probe a pc 1 budget 40\n    ldi p0, 1\n    ldi p0, 1\n    exit\n", "exceeds the budget");
    /* image-level fields the assembler cannot make */
    one_probe(PRB_K_PC, 0);
    prog.ncode = 2;
    prog.probe[0].len = 2;
    prog.code[0] = (struct prb_insn){.op = PRB_LDV, .a = 0, .b = 0, .size = 4, .imm = 0x800000};
    prog.code[1].op = PRB_EXIT;
    refused_prog("does not fit 24 bits");
    prog.code[0] = (struct prb_insn){.op = PRB_LDV, .a = 0, .b = 0, .size = 3};
    refused_prog("size 3");
    prog.code[0] = (struct prb_insn){.op = PRB_REC, .imm = 256};
    refused_prog("record tag 256");
    prog.code[0] = (struct prb_insn){.op = PRB_CTX, .a = 0, .imm = 20};
    refused_prog("selector 20");
    prog.code[0] = (struct prb_insn){.op = PRB_LDI, .a = 16};
    refused_prog("register p16");
    prog.code[0] = (struct prb_insn){.op = PRB_AGG, .a = 0, .b = 0, .imm = 0};
    refused_prog("map 0 does not exist");
    prog.code[0] = (struct prb_insn){.op = PRB_ARM, .imm = 1};
    refused_prog("probe 1 does not exist");
    prog.code[0] = (struct prb_insn){.op = PRB_NOTE, .imm = 0};
    refused_prog("note 0");
    prog.code[0] = (struct prb_insn){.op = PRB_JMP, .skip = 1};
    refused_prog("skips past the routine's end");
    prog.code[0] = (struct prb_insn){.op = PRB_LOOP, .imm = 0, .skip = 1};
    refused_prog("loop count 0");
    prog.code[0] = (struct prb_insn){.op = PRB_LOOP, .imm = 2, .skip = 0};
    refused_prog("needs a body");
    prog.code[0] = (struct prb_insn){.op = PRB_LOOP, .imm = 2, .skip = 2};
    refused_prog("runs past the routine's last");
    one_probe(PRB_K_PC, 0);
    prog.nprobes = PRB_MAX_PROBES + 1;
    refused_prog("too many probes, maps or instructions");
    one_probe(PRB_K_PC, 0);
    prog.nmaps = 1;
    prog.map[0].kind = PRB_M_COUNT;
    prog.map[0].keys = PRB_MAX_KEYS + 1;
    refused_prog("keys (1 to");
    refused("probe a pc 1\n    ldi p14, 1\n    ldi p15, 1\n    rec 1, p14, 3\n    exit\n",
            "a record of 3 values from p14");
}

static void test_cost(void **state)
{
    (void)state;
    struct prb_checked c;
    /* a diamond: the longer side counts */
    ok("map m stats\n"
       "probe a pc 1 budget 100000\n"
       "    ldi p0, 0\n"
       "    beqi p0, 0, cheap\n"
       "    agg m, p0, p0\n"
       "    jmp end\n"
       "cheap:\n"
       "    addi p0, 1\n"
       "end:\n"
       "    exit\n", &c);
    struct prb_insn ldi = {.op = PRB_LDI}, br = {.op = PRB_BEQ + PRB_BIMM}, ag = {.op = PRB_AGG},
                    jmp = {.op = PRB_JMP}, ex = {.op = PRB_EXIT};
    uint32_t want = PRB_COST_ROUTINE + prb_insn_cost(&ldi, prog.map, 1) +
                    prb_insn_cost(&br, prog.map, 1) + prb_insn_cost(&ag, prog.map, 1) +
                    prb_insn_cost(&jmp, prog.map, 1) + prb_insn_cost(&ex, prog.map, 1);
    assert_int_equal(c.cost[0], want);
    prb_checked_free(&c);
    /* the documented costs (PROBES.md §2) */
    struct prb_map_desc maps[7];
    for (unsigned k = 0; k < 7; k++)
        maps[k] = (struct prb_map_desc){.kind = (uint8_t)k, .keys = 1};
    struct { struct prb_insn in; uint32_t cost; } table[] = {
        {{.op = PRB_EXIT}, 15}, {{.op = PRB_LDI}, 15}, {{.op = PRB_ADD}, 15},
        {{.op = PRB_DIV}, 17}, {{.op = PRB_MOD + PRB_IMM}, 17}, {{.op = PRB_CTX}, 17},
        {{.op = PRB_LDV, .size = 4}, 117}, {{.op = PRB_LDVA, .size = 4}, 116},
        {{.op = PRB_LDP, .size = 4}, 47}, {{.op = PRB_REC, .size = 0}, 42},
        {{.op = PRB_REC, .size = 1}, 60}, {{.op = PRB_REC, .size = 2}, 63},
        {{.op = PRB_REC, .size = 14}, 189},
        {{.op = PRB_AGG, .imm = PRB_M_COUNT}, 74}, {{.op = PRB_AGG, .imm = PRB_M_SUM}, 76},
        {{.op = PRB_AGG, .imm = PRB_M_MIN}, 75}, {{.op = PRB_AGG, .imm = PRB_M_STATS}, 134},
        {{.op = PRB_AGG, .imm = PRB_M_HIST}, 75}, {{.op = PRB_AGG, .imm = PRB_M_LHIST}, 105},
        {{.op = PRB_WATCH}, 17}, {{.op = PRB_ARM}, 16}, {{.op = PRB_JMP}, 16},
        {{.op = PRB_BLTU}, 17}, {{.op = PRB_TRON}, 39}, {{.op = PRB_TROFF}, 37},
        {{.op = PRB_NOTE}, 15}, {{.op = PRB_LDM}, 59}, {{.op = PRB_STM}, 59},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (prb_insn_cost(&table[i].in, maps, 7) != table[i].cost)
            fail_msg("%s: cost %u, PROBES.md says %u", prb_op_name(table[i].in.op),
                     prb_insn_cost(&table[i].in, maps, 7), table[i].cost);
}

/* ---- the executor, on a fake machine ---- */

#define REGION_PA 0x01000000u
#define REGION_LEN 0x10000u
static uint8_t region[REGION_LEN];
static uint32_t recs[64][17];
static unsigned nrec, nerr, narm, ndisarm, nwatch, ntron, ntroff;
static uint32_t watch_id, watch_cookie, note_code;
static unsigned nnote;

static uint32_t f_value(void *c, unsigned sel)
{
    (void)c;
    return 0x1000 + sel;
}

static int f_vread(void *c, uint32_t va, uint32_t *out)
{
    (void)c;
    if (va >= 0x80000000u && va < 0x80001000u) {
        *out = va ^ 0x5A5A5A5Au;
        return 0;
    }
    return -1;
}

static int f_pread(void *c, uint32_t pa, uint32_t *out)
{
    (void)c;
    if (pa < 0x1000) {
        *out = pa * 3;
        return 0;
    }
    return -1;
}

static void f_record(void *c, uint32_t detail, const uint32_t *v, unsigned n)
{
    (void)c;
    recs[nrec][0] = detail;
    memcpy(&recs[nrec][1], v, n * 4);
    nrec++;
}

static void f_trace(void *c, int on)
{
    (void)c;
    if (on)
        ntron++;
    else
        ntroff++;
}

static void f_command(void *c, unsigned ipr, uint32_t v, uint32_t arg)
{
    (void)c;
    switch (ipr) {
    case PRB_IPR_ERR: nerr++; break;
    case PRB_IPR_ARM: narm++; break;
    case PRB_IPR_DISARM: ndisarm++; break;
    case PRB_IPR_WATCH: nwatch++; watch_id = v; watch_cookie = arg; break;
    case PRB_IPR_NOTE: nnote++; note_code = v; break;
    default: break;
    }
}

static const struct prb_host host = {
    .value = f_value, .vread = f_vread, .pread = f_pread, .record = f_record, .trace = f_trace,
    .command = f_command, .region = region, .region_pa = REGION_PA, .region_len = REGION_LEN,
};

/* Installs the checked program: map table at 0, code at 0x800, maps after. */
static uint32_t install(const struct prb_checked *c, uint32_t code_at[])
{
    memset(region, 0, sizeof region);
    uint16_t pg[PRB_MAX_PROBES], mg[PRB_MAX_MAPS];
    for (unsigned i = 0; i < PRB_MAX_PROBES; i++)
        pg[i] = (uint16_t)(i + 10);
    for (unsigned i = 0; i < PRB_MAX_MAPS; i++)
        mg[i] = (uint16_t)i;
    uint32_t at = 0x800;
    for (unsigned i = 0; i < prog.nprobes; i++) {
        code_at[i] = REGION_PA + at;
        for (unsigned j = 0; j < c->len[i]; j++, at += 8)
            prb_encode_insn(&c->code[c->start[i] + j], pg, mg, region + at);
    }
    for (unsigned i = 0; i < prog.nmaps; i++) {
        prb_encode_mapdesc(&prog.map[i], REGION_PA + at, region + 32 * i);
        prb_map_init(&prog.map[i], region + at);
        at += (uint32_t)prb_map_bytes(&prog.map[i]);
    }
    assert_true(at <= REGION_LEN);
    nrec = nerr = narm = ndisarm = nwatch = ntron = ntroff = 0;
    return REGION_PA;
}

static void slot(unsigned map, uint32_t key, struct prb_slot *s)
{
    uint8_t *d = region + 32 * map;
    uint32_t base = (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 |
                    (uint32_t)d[3] << 24;
    prb_map_slot(&prog.map[map], region + (base - REGION_PA), key, s);
}

static void test_exec(void **state)
{
    (void)state;
    struct prb_checked c;
    uint32_t code[PRB_MAX_PROBES];
    ok("map cnt count keys 4\n"
       "map sum sum\n"
       "map mn min keys 2\n"
       "map mx max keys 2\n"
       "map st stats\n"
       "map h hist\n"
       "map l lhist lhist -10 5 4\n"
       "probe r ret\n"
       "    exit\n"
       "probe a pc 1 budget 100000\n"
       "    ldi p0, 7\n"
       "    ldi p1, 3\n"
       "    mov p2, p0\n"
       "    sub p2, p1\n"            /* 4 */
       "    ldi p3, 0xFFFFFFF0\n"
       "    sari p3, 2\n"            /* -4 */
       "    ldi p4, 5\n"
       "    shli p4, 33\n"           /* 0 */
       "    ldi p5, -7\n"
       "    divi p5, 2\n"            /* -3 */
       "    ldi p6, -7\n"
       "    modi p6, 2\n"            /* -1 */
       "    ldi p7, 9\n"
       "    divi p7, 0\n"            /* 0 */
       "    ldi p8, 0x10000\n"
       "    muli p8, 0x10000\n"      /* 0 (low 32 bits) */
       "    ctx p9, pid\n"           /* 0x1025 */
       "    ldva p10, [0x80000012], 2\n"   /* (0x80000010 ^ 0x5A5A5A5A) >> 16 & 0xFFFF */
       "    ldva p11, [0x7FFFFFF0], 4\n"   /* fails: 0, an error */
       "    ldva p12, [0x80000011], 2\n"   /* misaligned: 0, an error */
       "    ldi p13, 0x100\n"
       "    ldp p13, [p13 + 8], 4\n"       /* 0x108 * 3 */
       "    rec 9, p0, 3\n"
       "    ldi p14, 2\n"
       "    agg cnt, p14, p0\n"
       "    agg cnt, p14, p0\n"
       "    ldi p15, 99\n"
       "    agg cnt, p15, p0\n"             /* the overflow slot */
       "    agg sum, p14, p3\n"             /* -4 */
       "    agg sum, p14, p0\n"             /* +7 */
       "    agg mn, p14, p0\n"
       "    agg mn, p14, p3\n"
       "    agg mx, p14, p3\n"
       "    agg mx, p14, p0\n"
       "    agg st, p14, p0\n"
       "    agg st, p14, p3\n"
       "    agg h, p14, p0\n"               /* 7: bucket 3 */
       "    agg h, p14, p4\n"               /* 0: bucket 0 */
       "    agg h, p14, p3\n"               /* 0xFFFFFFFC: bucket 32 */
       "    agg l, p14, p0\n"               /* 7: (17 / 5) = 3 -> 4 */
       "    agg l, p14, p3\n"               /* -4: 6 / 5 = 1 -> 2 */
       "    ldi p1, -20\n"
       "    agg l, p14, p1\n"               /* below: 0 */
       "    ldi p1, 100\n"
       "    agg l, p14, p1\n"               /* above: 5 */
       "    ldi p1, 0\n"
       "    bltu p3, p0, no\n"              /* 0xFFFFFFFC < 7 unsigned: no */
       "    addi p1, 1\n"
       "no:\n"
       "    blt p3, p0, yes\n"              /* -4 < 7 signed: yes */
       "    addi p1, 16\n"
       "yes:\n"
       "    loop 4\n"
       "    addi p1, 2\n"
       "    endloop\n"
       "    arm r\n"
       "    disarm r\n"
       "    tron\n"
       "    troff\n"
       "    note 7\n"
       "    exit\n", &c);
    install(&c, code);
    nnote = 0;
    unsigned n = prb_exec(&host, code[1], REGION_PA);
    assert_int_equal(n, c.len[1] - 1); /* (blt skips one) */
    assert_int_equal(nerr, 2);
    assert_int_equal(narm, 1);
    assert_int_equal(ndisarm, 1);
    assert_int_equal(ntron, 1);
    assert_int_equal(ntroff, 1);
    assert_int_equal(nnote, 1);
    assert_int_equal(note_code, 7);
    assert_int_equal(nrec, 1);
    assert_int_equal(recs[0][0], 9u << 4 | 3);
    assert_int_equal(recs[0][1], 7);
    assert_int_equal(recs[0][2], 3);
    assert_int_equal(recs[0][3], 4);
    struct prb_slot s;
    slot(0, 2, &s);
    assert_int_equal(s.count, 2);
    slot(0, 99, &s); /* clamped to the overflow slot 4 */
    assert_int_equal(s.count, 1);
    slot(0, 4, &s);
    assert_int_equal(s.count, 1);
    slot(1, 2, &s);  /* keys 1: the overflow slot */
    assert_int_equal(s.sum, 3);
    slot(2, 2, &s);
    assert_int_equal(s.count, 2);
    assert_int_equal(s.min, -4);
    slot(3, 2, &s);
    assert_int_equal(s.max, 7);
    slot(4, 1, &s);
    assert_int_equal(s.count, 2);
    assert_int_equal(s.sum, 3);
    assert_int_equal(s.min, -4);
    assert_int_equal(s.max, 7);
    slot(5, 1, &s);
    assert_int_equal(s.count, 3);
    assert_int_equal(prb_slot_bucket(&s, 0), 1);
    assert_int_equal(prb_slot_bucket(&s, 3), 1);
    assert_int_equal(prb_slot_bucket(&s, 32), 1);
    slot(6, 1, &s);
    assert_int_equal(s.count, 4);
    assert_int_equal(s.nbuckets, 6);
    assert_int_equal(prb_slot_bucket(&s, 0), 1);
    assert_int_equal(prb_slot_bucket(&s, 2), 1);
    assert_int_equal(prb_slot_bucket(&s, 4), 1);
    assert_int_equal(prb_slot_bucket(&s, 5), 1);
    prb_checked_free(&c);
}

static void test_exec_vars(void **state)
{
    (void)state;
    struct prb_checked c;
    uint32_t code[PRB_MAX_PROBES];
    ok("map v sum keys 8\n"
       "probe a pc 1\n"
       "    ldi p0, 3\n"
       "    ldi p1, -5\n"
       "    stm v, p0, p1\n"      /* v[3] = -5 */
       "    ldm p2, v, p0\n"      /* -5 */
       "    addi p2, 2\n"
       "    stm v, p0, p2\n"      /* v[3] = -3 */
       "    ldi p3, 100\n"
       "    stm v, p3, p0\n"      /* the overflow slot = 3 */
       "    ldm p4, v, p3\n"
       "    rec 2, p2, 3\n"
       "    exit\n", &c);
    install(&c, code);
    prb_exec(&host, code[0], REGION_PA);
    assert_int_equal(nerr, 0);
    assert_int_equal(recs[0][1], (uint32_t)-3);
    assert_int_equal(recs[0][3], 3);
    struct prb_slot s;
    slot(0, 3, &s);
    assert_int_equal(s.sum, -3);
    slot(0, 8, &s);
    assert_int_equal(s.sum, 3);
    prb_checked_free(&c);
    refused("map h hist\nprobe a pc 1\n    ldi p0, 0\n    ldm p1, h, p0\n    exit\n",
            "ldm needs a count or sum map");
}

/* the register results, through a record of all of them */
static void test_exec_values(void **state)
{
    (void)state;
    struct prb_checked c;
    uint32_t code[PRB_MAX_PROBES];
    ok("probe a pc 1\n"
       "    ldi p0, 0xFFFFFFF0\n    sari p0, 2\n"
       "    ldi p1, 5\n    shli p1, 33\n"
       "    ldi p2, -7\n    divi p2, 2\n"
       "    ldi p3, -7\n    modi p3, 2\n"
       "    ldi p4, 9\n    divi p4, 0\n"
       "    ldi p5, 0x10000\n    muli p5, 0x10000\n"
       "    ctx p6, pid\n"
       "    ldva p7, [0x80000012], 2\n"
       "    ldi p8, 0x100\n    ldp p8, [p8 + 8], 4\n"
       "    ldi p9, 0xFF\n    xori p9, 0xF0F\n"
       "    ldi p10, 0xF0\n    ldi p11, 0x3C\n    and p10, p11\n"
       "    ldi p12, 1\n    shri p12, 1\n"
       "    ldi p13, 0x80000000\n    sari p13, 31\n"
       "    rec 1, p0, 14\n"
       "    exit\n", &c);
    install(&c, code);
    prb_exec(&host, code[0], REGION_PA);
    assert_int_equal(nrec, 1);
    uint32_t want[14] = {0xFFFFFFFCu, 0, (uint32_t)-3, (uint32_t)-1, 0, 0, 0x1000 + PRB_C_PID,
                         ((0x80000010u ^ 0x5A5A5A5Au) >> 16) & 0xFFFF, 0x108 * 3, 0xFF ^ 0xF0F,
                         0x30, 0x3C, 0, 0xFFFFFFFFu};
    for (unsigned i = 0; i < 14; i++)
        if (recs[0][1 + i] != want[i])
            fail_msg("p%u = 0x%x, expected 0x%x", i, recs[0][1 + i], want[i]);
    prb_checked_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_asm_roundtrip), cmocka_unit_test(test_asm_errors),
        cmocka_unit_test(test_asm_symbols),
        cmocka_unit_test(test_image), cmocka_unit_test(test_verify_accepts),
        cmocka_unit_test(test_verify_rejects), cmocka_unit_test(test_cost),
        cmocka_unit_test(test_exec), cmocka_unit_test(test_exec_values),
        cmocka_unit_test(test_exec_vars),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
