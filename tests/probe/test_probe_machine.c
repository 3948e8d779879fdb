/* The probe unit on the machine (issue 30; vax/probe/PROBES.md): return
 * matching (nested, recursive, a longjmp that never returns), the charged
 * and free modes giving the same values and the free one no microcycle,
 * the verified costs never exceeded, probes never changing the guest's
 * registers or memory, the guest's FD06-FD08, SPAM event probes with the
 * process identity, sampling, the mode filter, NOTE, and PC comparators
 * under the trace cache counting what the plain interpreter counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vax/asm/vasm.h"
#include "vax/machine/vm.h"
#include "vax/machine/vm_probe.h"
#include "vax/probe/probe_asm.h"
#include "vax/probe/probe_image.h"
#include "vax/probe/probe_install.h"

#define MEM_MB 16
#define BASE 0x1000u

struct run {
    struct vax_machine *m;
    struct vasm_image img;
    struct prb_program prog;
    int handle;
    struct vm_stats st;
};

static uint32_t sym(const struct vasm_image *img, const char *name)
{
    for (size_t i = 0; i < img->nsyms; i++)
        if (strcmp(img->syms[i].name, name) == 0)
            return img->syms[i].value;
    fail_msg("no symbol %s", name);
    return 0;
}

/* Substitutes "@NAME" in the probe text by the program's symbol NAME. */
static char *subst(const struct vasm_image *img, const char *text)
{
    size_t cap = strlen(text) * 2 + 64, n = 0;
    char *out = malloc(cap);
    for (const char *p = text; *p;) {
        if (*p == '@' && (p[1] == '_' || (p[1] >= 'a' && p[1] <= 'z'))) {
            char name[64];
            size_t k = 0;
            p++;
            while ((*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) && k < 63)
                name[k++] = *p++;
            name[k] = 0;
            n += (size_t)snprintf(out + n, cap - n, "0x%x", sym(img, name));
        } else {
            out[n++] = *p++;
        }
        if (n + 32 >= cap)
            out = realloc(out, cap *= 2);
    }
    out[n] = 0;
    return out;
}

/* Assembles the program at BASE and makes a machine; loads the probes
 * (their @symbols from the program) unless NULL; runs to HALT. */
static void go_sliced(struct run *r, const char *src, const char *probes, int free_mode,
                      int no_tc, uint64_t limit, uint64_t slice)
{
    memset(r, 0, sizeof *r);
    struct vasm_source s = {"prog.s", src, strlen(src)};
    struct vasm_options o = {.base = BASE, .entry_symbol = strstr(src, "_start") ? "_start" : NULL};
    struct vasm_diag d;
    if (vasm_assemble(&s, 1, &o, &r->img, &d))
        fail_msg("vasm: %s", d.text);
    char err[300];
    struct vm_config cfg = {.memory_mb = MEM_MB, .no_tcache = no_tc};
    r->m = vm_new(&cfg, err, sizeof err);
    assert_non_null(r->m);
    assert_int_equal(vm_phys_write(r->m, r->img.base, r->img.bytes, r->img.size), 0);
    vm_set_reg(r->m, 14, 0x8000);
    vm_set_reg(r->m, 15, r->img.entry);
    vm_set_psl(r->m, 0x041F0000);
    vm_console_input(r->m, "", 0);
    r->handle = -1;
    if (probes) {
        char *t = subst(&r->img, probes);
        if (prb_asm(t, strlen(t), "probes", &r->prog, err, sizeof err))
            fail_msg("probes: %s", err);
        free(t);
        if (free_mode)
            vm_probe_set_free(r->m, 1);
        r->handle = vm_probe_load(r->m, &r->prog, err, sizeof err);
        if (r->handle < 0)
            fail_msg("load: %s", err);
    }
    if (slice) { /* as spamctl runs: slices, the mode set before each */
        uint64_t end = limit ? limit : 50000000;
        struct vm_stats st;
        do {
            vm_get_stats(r->m, &st);
            if (free_mode)
                vm_probe_set_free(r->m, 1);
            vm_run(r->m, st.microcycles + slice < end ? st.microcycles + slice : end);
            vm_get_stats(r->m, &st);
        } while (!vm_halted(r->m) && st.microcycles < end);
    } else {
        vm_run(r->m, limit ? limit : 50000000);
    }
    if (!vm_halted(r->m))
        fail_msg("did not halt: %s", vm_stop_reason(r->m));
    vm_get_stats(r->m, &r->st);
}

static void go(struct run *r, const char *src, const char *probes, int free_mode, int no_tc,
               uint64_t limit)
{
    go_sliced(r, src, probes, free_mode, no_tc, limit, 0);
}

static void done(struct run *r)
{
    vm_free(r->m);
    vasm_image_free(&r->img);
}

static struct vm_probe_info info(struct run *r, unsigned probe)
{
    struct vm_probe_info in;
    assert_int_equal(vm_probe_info(r->m, r->handle, probe, &in), 0);
    return in;
}

static struct prb_slot slot(struct run *r, unsigned map, uint32_t key)
{
    const struct prb_map_desc *d;
    const uint8_t *slots;
    assert_int_equal(vm_probe_map(r->m, r->handle, map, &d, &slots), 0);
    struct prb_slot s;
    prb_map_slot(d, slots, key, &s);
    return s;
}

/* ---- nested and recursive returns ---- */

static const char fact_src[] =
    "        .globl _start\n"
    "_start: pushl $6\n"
    "        calls $1, fact\n"
    "        movl r0, r7\n"
    "        calls $0, outer\n"
    "        halt\n"
    "fact:   .word 0x4\n"
    "        movl 4(ap), r2\n"
    "        cmpl r2, $1\n"
    "        bleq 1f\n"
    "        subl3 $1, r2, -(sp)\n"
    "        calls $1, fact\n"
    "        mull2 r2, r0\n"
    "        ret\n"
    "1:      movl $1, r0\n"
    "        ret\n"
    "outer:  .word 0\n"
    "        calls $0, inner\n"
    "        ret\n"
    "inner:  .word 0\n"
    "        ret\n";

static const char fact_probes[] =
    "map n count keys 8\n"       /* returns by argument */
    "map v sum keys 8\n"         /* the value returned, by argument */
    "map d sum keys 8\n"         /* the duration, by argument */
    "map x sum keys 8\n"         /* the exclusive one */
    "probe fin pc @fact + 2\n"
    "    ctx p0, ap\n"
    "    ldv p1, [p0 + 4], 4\n"  /* arg0 */
    "    watch fret, p1\n"
    "    exit\n"
    "probe fret ret\n"
    "    ctx p0, cookie\n"
    "    ctx p1, r0\n"
    "    ctx p2, dur\n"
    "    ctx p3, durx\n"
    "    ldi p4, 0\n"
    "    agg n, p0, p4\n"
    "    agg v, p0, p1\n"
    "    agg d, p0, p2\n"
    "    agg x, p0, p3\n"
    "    exit\n"
    "probe oin pc @outer + 2\n"
    "    ldi p0, 0\n"
    "    watch oret, p0\n"
    "    exit\n"
    "probe oret ret\n"
    "    exit\n"
    "probe iin pc @inner + 2\n"
    "    ldi p0, 0\n"
    "    watch iret, p0\n"
    "    exit\n"
    "probe iret ret\n"
    "    exit\n";

static void check_fact(struct run *r)
{
    static const int f[7] = {1, 1, 2, 6, 24, 120, 720};
    assert_int_equal(vm_reg(r->m, 7), 720);
    int64_t last = 0;
    for (unsigned k = 1; k <= 6; k++) {
        struct prb_slot n = slot(r, 0, k), v = slot(r, 1, k), d = slot(r, 2, k), x = slot(r, 3, k);
        assert_int_equal(n.count, 1);
        assert_int_equal(v.sum, f[k]);
        /* fact(k) contains fact(k-1): longer, inclusive of it */
        assert_true(d.sum > last);
        assert_int_equal(x.sum, d.sum); /* no interrupt meanwhile */
        last = d.sum;
    }
    assert_int_equal(info(r, 1).fires, 6);
    assert_int_equal(info(r, 3).fires, 1);
    assert_int_equal(info(r, 5).fires, 1);
    struct vm_probe_totals t;
    vm_probe_totals(r->m, &t);
    assert_int_equal(t.frames_watched, 8);
    assert_int_equal(t.frames_returned, 8);
    assert_int_equal(t.frames_unwound, 0);
}

static void test_returns(void **state)
{
    (void)state;
    struct run r;
    go(&r, fact_src, fact_probes, 0, 0, 0);
    check_fact(&r);
    /* every firing within its verified cost */
    for (unsigned i = 0; i < r.prog.nprobes; i++) {
        struct vm_probe_info in = info(&r, i);
        if (in.max_cycles > in.cost)
            fail_msg("probe %u: %u microcycles, verified cost %u", i, in.max_cycles, in.cost);
    }
    done(&r);
}

/* the same values in the free mode, the microcycles of a run without
 * probes, and the same guest state as that run */
static void test_free_mode(void **state)
{
    (void)state;
    struct run none, fr, ch;
    go(&none, fact_src, NULL, 0, 0, 0);
    go(&fr, fact_src, fact_probes, 1, 0, 0);
    go(&ch, fact_src, fact_probes, 0, 0, 0);
    check_fact(&fr);
    assert_int_equal(fr.st.microcycles, none.st.microcycles);
    assert_int_equal(fr.st.cache_misses, none.st.cache_misses);
    assert_true(ch.st.microcycles > none.st.microcycles);
    assert_int_equal(ch.st.instructions, none.st.instructions);
    for (unsigned k = 1; k <= 6; k++) {
        assert_int_equal(slot(&fr, 1, k).sum, slot(&ch, 1, k).sum);
        assert_int_equal(slot(&fr, 0, k).count, slot(&ch, 0, k).count);
    }
    /* free durations are the probe-free ones; charged ones exclude the
     * probes' own cycles, within what the probes' cache footprint costs */
    for (unsigned k = 1; k <= 6; k++) {
        int64_t a = slot(&fr, 2, k).sum, b = slot(&ch, 2, k).sum;
        assert_true(b >= a && b <= a + 12 * 40 * (int64_t)k);
    }
    struct vm_probe_info in;
    assert_int_equal(vm_probe_info(fr.m, fr.handle, 1, &in), 0);
    assert_int_equal(in.cycles, 0);
    done(&none);
    done(&fr);
    done(&ch);
}

/* ---- a longjmp past watched frames ---- */

static void test_longjmp(void **state)
{
    (void)state;
    static const char src[] =
        "        .globl _start\n"
        "_start: calls $0, a\n"
        "        halt\n"
        "a:      .word 0\n"
        "        movl fp, r6\n"
        "        movl sp, r7\n"
        "        calls $0, b\n"
        "back:   ret\n"
        "b:      .word 0\n"
        "        calls $0, c\n"
        "        ret\n"
        "c:      .word 0\n"
        "        movl r6, fp\n"
        "        movl r7, sp\n"
        "        jmp back\n";
    static const char probes[] =
        "probe ain pc @a + 2\n    ldi p0, 1\n    watch ret, p0\n    exit\n"
        "probe bin pc @b + 2\n    ldi p0, 2\n    watch ret, p0\n    exit\n"
        "probe cin pc @c + 2\n    ldi p0, 3\n    watch ret, p0\n    exit\n"
        "probe ret ret\n    ctx p0, cookie\n    rec 0, p0, 1\n    exit\n";
    struct run r;
    go(&r, src, probes, 0, 0, 0);
    struct vm_probe_totals t;
    vm_probe_totals(r.m, &t);
    assert_int_equal(t.frames_watched, 3);
    assert_int_equal(t.frames_returned, 1);
    assert_int_equal(t.frames_unwound, 2);
    assert_int_equal(info(&r, 3).fires, 1);
    done(&r);
}

/* ---- costs: every instruction with the cache made to miss ---- */

static void test_costs(void **state)
{
    (void)state;
    /* the guest sweeps 64 KB between calls, so the probes' lines miss */
    static const char src[] =
        "        .globl _start\n"
        "_start: movl $30, r6\n"
        "1:      movl $0x20000, r2\n"
        "        movl $1024, r3\n"
        "2:      movl r3, (r2)\n"
        "        addl2 $64, r2\n"
        "        sobgtr r3, 2b\n"
        "        pushl r6\n"
        "        calls $1, f\n"
        "        sobgtr r6, 1b\n"
        "        halt\n"
        "f:      .word 0\n"
        "        movl 4(ap), r0\n"
        "        ret\n";
    static const char probes[] =
        "map c count keys 4\nmap s sum keys 4\nmap mn min keys 4\nmap mx max keys 4\n"
        "map st stats keys 4\nmap h hist keys 4\nmap l lhist keys 4 lhist -5 3 7\n"
        "map v sum keys 4\n"
        "probe p1 pc @f + 2\n"
        "    ctx p0, ap\n    ldv p1, [p0 + 4], 4\n    ldva p2, [0x20000], 2\n"
        "    ldp p3, [p0 - 4], 1\n    andi p1, 3\n"
        "    agg c, p1, p1\n    agg s, p1, p1\n    agg mn, p1, p1\n    agg mx, p1, p1\n"
        "    agg st, p1, p1\n    agg h, p1, p2\n    agg l, p1, p1\n"
        "    ldm p4, v, p1\n    addi p4, 1\n    stm v, p1, p4\n"
        "    rec 3, p0, 5\n    watch p2r, p4\n"
        "    ldi p5, 7\n    divi p5, 2\n    modi p5, 3\n    mul p5, p5\n"
        "    bltu p5, p1, x\n    addi p5, 1\nx:\n    ctx p6, cycles\n    note 9\n"
        "    tron\n    troff\n    exit\n"
        "probe p2r ret\n    ctx p0, dur\n    ctx p1, durx\n    ctx p2, cookie\n"
        "    sub p0, p1\n    exit\n";
    struct run r;
    go(&r, src, probes, 0, 0, 0);
    for (unsigned i = 0; i < r.prog.nprobes; i++) {
        struct vm_probe_info in = info(&r, i);
        assert_int_equal(in.fires, 30);
        if (in.max_cycles > in.cost || in.max_cycles == 0)
            fail_msg("probe %u: worst firing %u microcycles, verified cost %u", i,
                     in.max_cycles, in.cost);
        /* p1's TRON comes before any SET_PTRS: an error each time */
        assert_int_equal(in.errors, i == 0 ? 30 : 0);
    }
    uint32_t code;
    assert_int_equal(vm_probe_notes(r.m, &code), 30);
    assert_int_equal(code, 9);
    assert_int_equal(slot(&r, 7, 1).sum, 8); /* ldm/stm: keys 1..3 from 30..1 & 3 */
    done(&r);
}

/* ---- probes write nothing of the guest ---- */

static uint64_t mem_sum(struct vax_machine *m)
{
    static uint8_t buf[1 << 16];
    uint64_t h = 1469598103934665603ull;
    for (uint32_t pa = 0; pa < (uint32_t)MEM_MB << 20; pa += sizeof buf) {
        vm_phys_read(m, pa, buf, sizeof buf);
        for (size_t i = 0; i < sizeof buf; i++)
            h = (h ^ buf[i]) * 1099511628211ull;
    }
    return h;
}

static void test_guest_untouched(void **state)
{
    (void)state;
    struct run none, ch;
    go(&none, fact_src, NULL, 0, 0, 0);
    go(&ch, fact_src, fact_probes, 0, 0, 0);
    for (int i = 0; i < 16; i++)
        assert_int_equal(vm_reg(none.m, i), vm_reg(ch.m, i));
    assert_int_equal(vm_psl(none.m), vm_psl(ch.m));
    assert_true(mem_sum(none.m) == mem_sum(ch.m));
    done(&none);
    done(&ch);
}

/* ---- the guest's own interface: PRBLOAD, PRBREAD, PRBCTL ---- */

static void test_guest_load(void **state)
{
    (void)state;
    static const char probes[] = "map c count\n"
                                 "probe k pc 0x%x\n    ldi p0, 0\n    agg c, p0, p0\n    exit\n";
    /* a first pass only to find the loop's address */
    static const char body[] =
        "        .globl _start\n"
        "_start: moval image, r11\n"
        "        movl $%u, r10\n"
        "        prbload\n"
        "        movl r0, r8\n"           /* the handle */
        "        movl $10, r6\n"
        "loop:   incl r5\n"
        "        sobgtr r6, loop\n"
        "        movl r8, r11\n"
        "        clrl r10\n"
        "        clrl r9\n"
        "        clrl r8\n"
        "        prbread\n"               /* the count's low longword */
        "        movl r0, r4\n"
        "        movl r1, r3\n"
        "        movl r11, r11\n"
        "        clrl r10\n"
        "        prbctl\n"                /* unload */
        "        movl r0, r2\n"
        "        moval bad, r11\n"
        "        movl $36, r10\n"
        "        prbload\n"               /* a damaged image: refused */
        "        movl r0, r7\n"
        "        halt\n"
        "        .align 2\n"
        "bad:    .long 1,2,3,4,5,6,7,8,9\n"
        "image:\n";
    char src[65536];
    struct run r0;
    snprintf(src, sizeof src, body, 1000u); /* (a longword immediate, as the image's length) */
    strcat(src, "        .long 0\n");
    go(&r0, src, NULL, 0, 0, 0);
    uint32_t loop = sym(&r0.img, "loop");
    done(&r0);
    /* the image, for a probe on the loop's INCL */
    char text[256], err[300];
    snprintf(text, sizeof text, probes, loop);
    struct prb_program p;
    assert_int_equal(prb_asm(text, strlen(text), "g", &p, err, sizeof err), 0);
    size_t n = prb_image_size(&p);
    uint8_t *img = malloc(n);
    prb_image_encode(&p, img);
    snprintf(src, sizeof src, body, (unsigned)n);
    for (size_t i = 0; i < n; i++) {
        char line[32];
        snprintf(line, sizeof line, "        .byte %u\n", img[i]);
        strcat(src, line);
    }
    free(img);
    struct run r;
    go(&r, src, NULL, 0, 0, 0);
    assert_int_equal(sym(&r.img, "loop"), loop);
    assert_int_equal(vm_reg(r.m, 4), 10); /* the guest's probe counted its loop */
    assert_int_equal(vm_reg(r.m, 3), 0);
    assert_int_equal(vm_reg(r.m, 2), 0);  /* unloaded */
    assert_int_equal(vm_reg(r.m, 7), 0xFFFFFFFFu); /* the damaged image refused */
    assert_int_equal(vm_reg(r.m, 1), 2);
    done(&r);
}

/* ---- SPAM events and the process identity (the SPAM tests' events.s) ---- */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

static const char *events_path;

static void test_events(void **state)
{
    (void)state;
    static const char probes[] =
        "map chm count keys 16\n"
        "map who sum keys 4\n"
        "map um count keys 1\n"
        "probe sys event 0x3000 mask 0xF000\n"   /* every CHMx */
        "    ctx p0, event\n    andi p0, 15\n    ldi p1, 0\n    agg chm, p0, p1\n"
        "    ctx p2, pid\n    ldi p3, 0\n    agg who, p3, p2\n"
        "    ctx p2, uid\n    ldi p3, 1\n    agg who, p3, p2\n"
        "    ctx p2, prog\n    ldi p3, 2\n    agg who, p3, p2\n"
        "    exit\n"
        "map f count keys 4\n"
        "probe uidok event 0x3000 mask 0xF000 uid 0x1234\n"   /* the process's uid */
        "    ldi p0, 0\n    agg f, p0, p0\n    exit\n"
        "probe uidno event 0x3000 mask 0xF000 uid 0x1235\n"
        "    ldi p0, 1\n    agg f, p0, p0\n    exit\n"
        "probe iplok event 0x3000 mask 0xF000 ipl 0 0\n"   /* CHMK keeps IPL 0 */
        "    ldi p0, 2\n    agg f, p0, p0\n    exit\n"
        "probe iplno event 0x3000 mask 0xF000 ipl 1 31\n"
        "    ldi p0, 3\n    agg f, p0, p0\n    exit\n"
        "probe u sample 1000 modes user\n"
        "    ctx p0, psl\n    shri p0, 24\n    andi p0, 3\n    ldi p1, 0\n"
        "    beqi p0, 3, ok\n    addi p1, 1\nok:\n    agg um, p1, p1\n    exit\n";
    const char *src = slurp(events_path);
    for (int free_mode = 0; free_mode < 2; free_mode++) {
        struct run r;
        go(&r, src, probes, free_mode, 0, 0);
        /* the guest's own checks: twelve records read back */
        assert_int_equal(vm_reg(r.m, 6), 12);
        assert_int_equal(slot(&r, 0, 7).count, 1);
        assert_int_equal(slot(&r, 0, 2).count, 1);
        assert_int_equal(info(&r, 0).fires, 2);
        /* both CHMKs ran in the process LDPCTX loaded: its identity */
        assert_int_equal(slot(&r, 1, 0).sum, 2 * 0x42);
        assert_int_equal(slot(&r, 1, 1).sum, 2 * 0x1234);
        assert_int_equal(slot(&r, 1, 2).sum, 2 * (int64_t)(0x0305u << 16 | 0xabcd));
        /* the mode filter: the user-mode samples only (key 0) */
        assert_int_equal(slot(&r, 2, 1).count, 0);
        /* the uid and IPL filters: both CHMKs pass the right ones only */
        assert_int_equal(slot(&r, 3, 0).count, 2);
        assert_int_equal(slot(&r, 3, 1).count, 0);
        assert_int_equal(slot(&r, 3, 2).count, 2);
        assert_int_equal(slot(&r, 3, 3).count, 0);
        assert_int_equal(info(&r, 2).filtered, 2);
        assert_int_equal(info(&r, 4).filtered, 2);
        done(&r);
    }
}

/* ---- sampling and PC comparators under the trace cache ---- */

static void test_sampling_and_pc(void **state)
{
    (void)state;
    static const char src[] =
        "        .globl _start\n"
        "_start: movl $5000, r6\n"
        "loop:   addl2 r6, r5\n"
        "hot:    xorl2 r5, r4\n"
        "        sobgtr r6, loop\n"
        "        halt\n";
    static const char probes[] = "map c count\n"
                                 "probe s sample 1000\n    exit\n"
                                 "probe h pc @hot\n    ldi p0, 0\n    agg c, p0, p0\n    exit\n";
    struct run tc, plain, fr;
    go(&tc, src, probes, 0, 0, 0);
    go(&plain, src, probes, 0, 1, 0);
    go(&fr, src, probes, 1, 0, 0);
    assert_int_equal(slot(&tc, 0, 0).count, 5000);
    assert_int_equal(slot(&plain, 0, 0).count, 5000);
    assert_int_equal(slot(&fr, 0, 0).count, 5000);
    assert_int_equal(tc.st.microcycles, plain.st.microcycles);
    /* one firing per 1000 microcycles of the run (the last may be due) */
    uint64_t want = fr.st.microcycles / 1000;
    assert_true(info(&fr, 0).fires + 1 >= want && info(&fr, 0).fires <= want);
    assert_int_equal(info(&tc, 0).fires, info(&plain, 0).fires);
    /* run in slices with the free mode set again before each (as spamctl
     * does): the same run, and the trace cache keeps its traces (the
     * unit's arrival and the load flush it, a mode it is in does not) */
    struct run sl;
    go_sliced(&sl, src, probes, 1, 0, 0, 500);
    assert_int_equal(sl.st.microcycles, fr.st.microcycles);
    assert_true(sl.st.microcycles > 50 * 500);
    assert_int_equal(slot(&sl, 0, 0).count, 5000);
    assert_int_equal(info(&sl, 0).fires, info(&fr, 0).fires);
    struct vm_tcache_stats ts;
    vm_tcache_stats(sl.m, &ts);
    assert_true(ts.flushes <= 2);
    done(&sl);
    done(&tc);
    done(&plain);
    done(&fr);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_probe_machine EVENTS.S\n");
        return 2;
    }
    events_path = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_returns), cmocka_unit_test(test_free_mode),
        cmocka_unit_test(test_longjmp), cmocka_unit_test(test_costs),
        cmocka_unit_test(test_guest_untouched), cmocka_unit_test(test_guest_load),
        cmocka_unit_test(test_events), cmocka_unit_test(test_sampling_and_pc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
