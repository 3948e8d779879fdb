/* Unit tests of the probe language (vax/probe/probe_lang.h, LANGUAGE.md):
 * every construct compiled, verified by the machine's verifier and run by
 * the host executor on a fake machine; every error message with its line
 * and column; the host's blocks and printf's formatting. */
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
#include "vax/probe/probe_install.h"
#include "vax/probe/probe_lang.h"
#include "vax/probe/probe_verify.h"

#include "tests/probe/lang_guest.h"

static struct prb_lang L;
static struct prb_lang_error E;

static int compile_with(const char *text, uint32_t budget, const struct prb_lang_resolver *r)
{
    struct prb_lang_opts o = {.name = "t", .budget = budget, .resolve = r};
    return prb_lang_compile(text, strlen(text), &o, &L, &E);
}

static void good_budget(const char *text, uint32_t budget)
{
    if (compile_with(text, budget, &lang_guest))
        fail_msg("%s\n  in: %s", E.msg, text);
}

static void good(const char *text)
{
    good_budget(text, 0);
}

/* Compiles text, expecting the error msg at line:col. */
static void bad_at(const char *text, unsigned line, unsigned col, const char *msg)
{
    if (compile_with(text, 0, &lang_guest) == 0) {
        prb_lang_free(&L);
        fail_msg("compiled; expected %u:%u: %s\n  in: %s", line, col, msg, text);
    }
    char where[32];
    if (line)
        snprintf(where, sizeof where, "t:%u:%u: ", line, col);
    else
        snprintf(where, sizeof where, "t: ");
    if (E.line != line || E.col != col || strncmp(E.msg, where, strlen(where)) || !strstr(E.msg, msg))
        fail_msg("got '%s' (%u:%u); expected %u:%u: %s\n  in: %s", E.msg, E.line, E.col, line, col,
                 msg, text);
}

/* ---- a fake machine for the executor ---- */

#define RPA 0x00400000u
#define RLEN 0x100000u
static uint8_t *region;
static uint32_t cval[64];                 /* ctx values by selector */
static struct { uint32_t va, v; } fmem[16];
static unsigned nfmem;
static uint32_t rec[32][16], nrecs, notes, watches, watch_probe, watch_cookie;
static uint32_t arms[8], narm, disarms, tron, troff, errs;
static uint32_t code_pa[PRB_MAX_PROBES], map_pa[PRB_MAX_MAPS];

static uint32_t h_value(void *c, unsigned sel)
{
    (void)c;
    return cval[sel];
}

static int h_vread(void *c, uint32_t va, uint32_t *out)
{
    (void)c;
    for (unsigned i = 0; i < nfmem; i++)
        if (fmem[i].va == va) {
            *out = fmem[i].v;
            return 0;
        }
    return -1;
}

static int h_pread(void *c, uint32_t pa, uint32_t *out)
{
    (void)c, (void)pa, (void)out;
    return -1;
}

static void h_record(void *c, uint32_t detail, const uint32_t *v, unsigned n)
{
    (void)c;
    rec[nrecs][0] = detail;
    for (unsigned i = 0; i < n; i++)
        rec[nrecs][1 + i] = v[i];
    nrecs++;
}

static void h_trace(void *c, int on)
{
    (void)c;
    *(on ? &tron : &troff) += 1;
}

static void h_command(void *c, unsigned ipr, uint32_t v, uint32_t arg)
{
    (void)c;
    if (ipr == PRB_IPR_NOTE)
        notes = v;
    else if (ipr == PRB_IPR_WATCH)
        watches++, watch_probe = v, watch_cookie = arg;
    else if (ipr == PRB_IPR_ARM)
        arms[narm++ & 7] = v;
    else if (ipr == PRB_IPR_DISARM)
        disarms++;
    else if (ipr == PRB_IPR_ERR)
        errs++;
}

static struct prb_host fake = {
    .value = h_value, .vread = h_vread, .pread = h_pread, .record = h_record,
    .trace = h_trace, .command = h_command, .region_pa = RPA, .region_len = RLEN,
};

/* Verifies L's program and lays it out in the region: map table first,
 * then each probe's routine, then the maps' slots. */
static void load(void)
{
    struct prb_checked ck;
    struct prb_reject why;
    if (prb_verify(&L.prog, &ck, &why))
        fail_msg("verifier: %s", why.msg);
    if (!region)
        region = malloc(RLEN);
    memset(region, 0, RLEN);
    fake.region = region;
    uint16_t gid[PRB_MAX_PROBES > PRB_MAX_MAPS ? PRB_MAX_PROBES : PRB_MAX_MAPS];
    for (unsigned i = 0; i < sizeof gid / sizeof gid[0]; i++)
        gid[i] = (uint16_t)i;
    uint32_t off = PRB_MAX_MAPS * PRB_MAPDESC_BYTES;
    for (unsigned p = 0; p < L.prog.nprobes; p++) {
        code_pa[p] = RPA + off;
        for (unsigned j = ck.start[p]; j < ck.start[p] + ck.len[p]; j++, off += PRB_INSN_BYTES)
            prb_encode_insn(&ck.code[j], gid, gid, region + off);
    }
    for (unsigned m = 0; m < L.prog.nmaps; m++) {
        map_pa[m] = RPA + off;
        prb_encode_mapdesc(&L.prog.map[m], map_pa[m], region + m * PRB_MAPDESC_BYTES);
        prb_map_init(&L.prog.map[m], region + off);
        off += (uint32_t)((prb_map_bytes(&L.prog.map[m]) + 7) & ~(size_t)7);
        assert_true(off <= RLEN);
    }
    prb_checked_free(&ck);
    nrecs = notes = watches = narm = disarms = tron = troff = errs = 0;
}

static void fire(unsigned probe)
{
    prb_exec(&fake, code_pa[probe], RPA);
}

static int mapno(const char *name)
{
    for (unsigned i = 0; i < L.prog.nmaps; i++)
        if (!strcmp(L.map[i].name, name))
            return (int)i;
    fail_msg("no map %s", name);
    return -1;
}

static struct prb_slot slot_of(const char *name, uint32_t key)
{
    int m = mapno(name);
    struct prb_slot s;
    prb_map_slot(&L.prog.map[m], region + (map_pa[m] - RPA), key, &s);
    return s;
}

static void fresh_ctx(void)
{
    memset(cval, 0, sizeof cval);
    nfmem = 0;
}

static void mem_at(uint32_t va, uint32_t v)
{
    fmem[nfmem].va = va;
    fmem[nfmem++].v = v;
}

/* ---- tests ---- */

static void test_parse_errors(void **state)
{
    (void)state;
    bad_at("", 1, 1, "no probe in the program");
    bad_at("kprobe:ipintr", 1, 14, "'{' expected after the probe");
    bad_at("kprobe:ipintr { @x = count() ", 1, 30, "';' or '}' expected, not the end of the program");
    bad_at("kprobe:ipintr { @x = count();", 1, 30, "'}' expected before the end");
    bad_at("kprobe:ipintr { @x = count() @y = count(); }", 1, 30, "';' or '}' expected");
    bad_at("kprobe:ipintr {\n  $x = 1 +;\n}", 2, 11, "an expression expected, not ';'");
    bad_at("kprobe:ipintr { $x = 3 # 4; }", 1, 24, "unexpected character '#'");
    bad_at("kprobe:ipintr { printf(\"abc); }", 1, 24, "a string that never ends");
    bad_at("kprobe:ipintr { printf(\"\\q\"); }", 1, 25, "unknown escape");
    bad_at("kprobe:ipintr { $x = 0x1FFFFFFFF; }", 1, 22, "does not fit 32 bits");
    bad_at("kprobe:ipintr { $x = 12ab; }", 1, 22, "'12ab' is not a number");
    bad_at("kprobe:ipintr { /* never closed }", 1, 17, "a comment that never ends");
    bad_at("kprobe:ipintr // {\n", 2, 1, "'{' expected after the probe, not the end");
    bad_at("kprobe:ipintr / / { }", 1, 17, "an empty predicate");
    bad_at("kprobe:ipintr /pid == 1 { }", 1, 25, "'/' closing the predicate expected");
    bad_at("kprobe:ipintr { 3 = 4; }", 1, 19, "only a $variable or an @map can be assigned");
    bad_at("kprobe:ipintr { pid; }", 1, 17, "a statement is an assignment or a call");
    bad_at("kprobe:ipintr { @x[] = count(); }", 1, 19, "a map key expected between [ and ]");
    bad_at("kprobe:ipintr { else { } }", 1, 17, "else without if");
    bad_at("kprobe:ipintr { unroll(0) { } }", 1, 24, "unroll count 0");
    bad_at("kprobe:ipintr { unroll(n) { } }", 1, 24, "unroll needs a constant count");
    bad_at("kprobe:ipintr { $ = 1; }", 1, 17, "'$' must start a variable's name");
    bad_at("kprobe:ipintr { ++$x; }", 1, 17, "++ and -- go after a variable");
    bad_at("{ }", 1, 1, "a probe (kprobe:FUNC, BEGIN, ...) expected");
    bad_at("kprobe:ipintr { $x = (1 + 2; }", 1, 28, "')' expected");
    bad_at("kprobe:ipintr { $x = 1 ? 2; }", 1, 27, "':' of ?: expected");
    bad_at("kprobe:ipintr { if pid { } }", 1, 20, "'(' after if expected");
    static const char nul[] = "kprobe:ipintr { \0 }";
    struct prb_lang_opts o = {.name = "t", .resolve = &lang_guest};
    assert_int_equal(prb_lang_compile(nul, sizeof nul - 1, &o, &L, &E), -1);
    assert_non_null(strstr(E.msg, "t:1:17: a NUL byte"));
}

static void test_probe_errors(void **state)
{
    (void)state;
    bad_at("kprobe:nosuch { }", 1, 1, "no kernel symbol 'nosuch'");
    bad_at("\n  kprobe:ipintr+1 { }", 2, 3, "inside ipintr's entry mask");
    bad_at("kprobe:ipintr+x { }", 1, 1, "'x' is not an offset");
    bad_at("kprobe:ip* { }", 1, 1, "wildcards are not supported");
    bad_at("kretprobe:Copyin { }", 1, 1, "Copyin is not a CALLS procedure");
    bad_at("kretprobe:ipintr+4 { }", 1, 1, "kretprobe takes a function, not an offset");
    bad_at("kprobe { }", 1, 1, "kprobe:FUNC expected");
    bad_at("uprobe:/bin/ls { }", 1, 1, "uprobe:PATH:FUNC expected");
    bad_at("uprobe:/bin/sh:main { }", 1, 1, "no program '/bin/sh' on the disk");
    bad_at("uprobe:/bin/ls:nomain { }", 1, 1, "/bin/ls has no symbol 'nomain'");
    bad_at("spam:syscall:nosys { }", 1, 1, "no system call 'nosys'");
    bad_at("spam:interrupt:clock { }", 1, 1, "no vector 'clock'");
    bad_at("spam:interrupt:0xC1 { }", 1, 1, "a multiple of 4");
    bad_at("spam:syscall:2000 { }", 1, 1, "system call 2000: 0 to 1023");
    bad_at("spam:bogus:1 { }", 1, 1, "'bogus' is not a spam event");
    bad_at("spam:syscall { }", 1, 1, "spam:interrupt:V, spam:exception:V");
    bad_at("profile:hz:20000 { }", 1, 1, "every 1,000 (12,500 hz)");
    bad_at("profile:hz:0 { }", 1, 1, "'0' is not a positive count");
    bad_at("profile:days:1 { }", 1, 1, "'days' is not a unit of profile");
    bad_at("interval:hz:1 { }", 1, 1, "'hz' is not a unit of interval");
    bad_at("interval:s { }", 1, 1, "interval:UNIT:N expected");
    bad_at("BEGIN:x { }", 1, 1, "BEGIN takes nothing after it");
    bad_at("tracepoint:x:y { }", 1, 1, "'tracepoint' is not a probe");
    bad_at("END /pid == 1/ { }", 1, 6, "END takes no predicate");
    struct prb_lang_resolver none = {0};
    if (compile_with("kprobe:ipintr { }", 0, &none) == 0)
        fail_msg("compiled without a kernel");
    assert_non_null(strstr(E.msg, "t:1:1: kernel symbols need the guest's kernel"));
    if (compile_with("spam:syscall:read { }", 0, &none) == 0)
        fail_msg("compiled without names");
    assert_non_null(strstr(E.msg, "system call names need"));
}

static void test_semantic_errors(void **state)
{
    (void)state;
    bad_at("kprobe:ipintr { @x = duration; }", 1, 22, "duration is known in kretprobe and uretprobe");
    bad_at("kretprobe:ipintr { @x = nargs; }", 1, 25, "nargs is known in kprobe and uprobe");
    bad_at("profile:hz:100 { @x = arg0; }", 1, 23, "arg0 is known in kprobe, uprobe");
    bad_at("kprobe:ipintr { @x = vector; }", 1, 22, "vector is known in spam");
    bad_at("spam:syscall:read { @x = vector; }", 1, 26, "vector is known in spam:interrupt");
    bad_at("spam:interrupt:hardclock { @x = sysno; }", 1, 33, "sysno is known in spam:syscall");
    bad_at("spam:interrupt:hardclock { @x = vaddr; }", 1, 33, "vaddr is known in spam:exception");
    bad_at("kprobe:ipintr { @x = bogus; }", 1, 22, "unknown identifier 'bogus'");
    bad_at("kprobe:ipintr { @x = $y; }", 1, 22, "$y is used before it is assigned");
    bad_at("kprobe:ipintr { $y++; }", 1, 17, "$y is used before it is assigned");
    bad_at("kprobe:ipintr { @x = nosuch(1); }", 1, 22, "unknown function nosuch()");
    bad_at("kprobe:ipintr { @x = count() + 1; }", 1, 22, "count() is an aggregation");
    bad_at("kprobe:ipintr { count(); }", 1, 17, "count() is an aggregation");
    bad_at("kprobe:ipintr { @x = printf(\"a\"); }", 1, 22, "printf() is a statement");
    bad_at("kprobe:ipintr { @x = count(); }\nkprobe:namei { @x = sum(1); }", 2, 16,
           "@x is count() at line 1; it cannot also be sum()");
    bad_at("kprobe:ipintr { @x[1] = count(); }\nkprobe:namei { @x[1, 2] = count(); }", 2, 16,
           "@x is used with 2 keys here and 1 elsewhere");
    bad_at("kprobe:ipintr { @x = hist(1); @y = @x; }", 1, 36, "@x is hist(): only count(), sum()");
    bad_at("kprobe:ipintr { @y = @x; }", 1, 22, "@x is used but never assigned");
    bad_at("kprobe:ipintr { @x = sum(); }", 1, 22, "sum() takes 1 argument");
    bad_at("kprobe:ipintr { @x = lhist(arg0, 0, 100); }", 1, 22, "lhist() takes 4 arguments");
    bad_at("kprobe:ipintr { @x = lhist(arg0, 10, 5, 1); }", 1, 38, "not above the minimum");
    bad_at("kprobe:ipintr { @x = lhist(arg0, 0, 100000, 1); }", 1, 45, "100000 buckets; at most 1024");
    bad_at("kprobe:ipintr { @x = lhist(arg0, 0, 10, pid); }", 1, 41, "needs a constant step");
    bad_at("kprobe:ipintr { printf(\"%d %d\\n\", 1); }", 1, 17, "format has 2 conversions and 1 value");
    bad_at("kprobe:ipintr { printf(\"%q\", 1); }", 1, 24, "'%q' is not a conversion");
    bad_at("kprobe:ipintr { printf(3); }", 1, 17, "printf's first argument is its format");
    bad_at("kprobe:ipintr { printf(\"%d\", \"s\"); }", 1, 30, "a string value");
    bad_at("kprobe:ipintr { print(@x); }", 1, 17, "print() runs in the host");
    bad_at("kprobe:ipintr { @x = count(); }\nEND { print(@y); }", 2, 13, "no map @y");
    bad_at("kprobe:ipintr { @x = count(); }\nEND { print(@x[1]); }", 2, 13, "print() takes a whole map");
    bad_at("END { @x = count(); }", 1, 7, "maps are updated by the machine's probes");
    bad_at("END { enable(); }", 1, 7, "enable() does not run in BEGIN, END");
    bad_at("END { printf(\"%d\", kvar(\"hz\")); }", 1, 20, "kvar() is not known in BEGIN, END");
    bad_at("END { printf(\"%d\", pid); }", 1, 20, "pid is known in the machine's probes");
    bad_at("kprobe:ipintr { enable(\"kprobe:nosuch\"); }", 1, 24, "no probe \"kprobe:nosuch\"");
    bad_at("kprobe:ipintr { enable(\"END\"); }\nEND { }", 1, 24, "END runs in the host");
    bad_at("kprobe:ipintr { delete(@x[1]); }", 1, 24, "@x is used but never assigned");
    bad_at("kprobe:ipintr { @x[1] = hist(2); delete(@x[1]); }", 1, 41, "delete() works on count()");
    bad_at("kprobe:ipintr { @x = kvar(\"nosuch\"); }", 1, 27, "no kernel symbol 'nosuch'");
    bad_at("kprobe:ipintr { @x = kvar(\"hz\", 0, 3); }", 1, 36, "kvar() size 3");
    bad_at("kprobe:ipintr { @x = kvar(hz); }", 1, 27, "kvar() needs a kernel variable's name");
    bad_at("kprobe:ipintr { @x = reg(\"r99\"); }", 1, 26, "reg() needs a register's name");
    bad_at("kprobe:ipintr { @x = 5 / 0; }", 1, 26, "division by zero");
    bad_at("kprobe:ipintr { @x = comm == 3 ? \"a\" : 1; }", 1, 34, "a string is a value only");
    bad_at("kprobe:ipintr { @x = pid == \"ls\"; }", 1, 29, "a string compares only with comm");
    bad_at("kprobe:ipintr /comm == \"nothere\"/ { }", 1, 24, "no program 'nothere'");
    bad_at("kprobe:ipintr /mode == user/ { }", 1, 1, "the predicate's mode can never hold");
    bad_at("kretprobe:ipintr { @x = arg0 + arg1; }", 1, 1, "at most one argument");
    bad_at("kretprobe:ipintr { @x = arg0 + duration_self; }", 1, 1, "none with duration_self");
    bad_at("kprobe:ipintr { unroll(2) { unroll(2) { } } }", 1, 29, "unroll inside unroll");
    bad_at("kprobe:ipintr { @x[pid] = hist(1); }", 0, 0, "");
    assert_non_null(strstr(E.msg, "the maps and code take"));
    bad_at("kprobe:ipintr { @x[arg0 & 0xFFFFF] = count(); }", 1, 17, "takes 1048576 values");
    bad_at("kprobe:ipintr { @x[pid, uid] = count(); }", 1, 17, "takes 1966080000 combinations");
    bad_at("kprobe:ipintr { @x[\"a\"] = count(); }", 1, 20, "a string cannot be a map key");
    bad_at("kprobe:ipintr { @x = \"a\"; }", 1, 22, "a map holds numbers, not strings");
    /* the machine's verifier, at the script's place */
    if (compile_with("kprobe:ipintr {\n  @a = count(); @b = count(); @c = count();\n}", 100, &lang_guest) == 0)
        fail_msg("compiled within a budget of 100");
    assert_int_equal(E.line, 1);
    assert_int_equal(E.col, 1);
    assert_non_null(strstr(E.msg, "t:1:1: the machine refuses kprobe:ipintr: worst case"));
    assert_non_null(strstr(E.msg, "exceeds the budget of 100"));
}

/* A pc probe counting by pid, with its filters in the hardware. */
static void test_filters(void **state)
{
    (void)state;
    good("kprobe:ipintr /pid == 5 && comm == \"/bin/ls\" && mode == kernel/ { @n = count(); }");
    assert_int_equal(L.prog.nprobes, 1);
    const struct prb_probe_desc *d = &L.prog.probe[0];
    assert_int_equal(d->kind, PRB_K_PC);
    assert_int_equal(d->addr, 0x80012346u); /* after the entry mask */
    assert_int_equal(d->flags, PRB_PF_PID | PRB_PF_PROG);
    assert_int_equal(d->pid, 5);
    assert_int_equal(d->prog, 0x42);
    assert_int_equal(d->modes, 1);
    /* the whole predicate went to the hardware: ldi key, agg, exit */
    assert_int_equal(d->len, 3);
    prb_lang_free(&L);
    /* uid and the IPL range go to the hardware too; ipl's comparisons
     * narrow one range (a constant on the left read the other way) */
    good("profile:hz:100 /uid == 3 && ipl >= 4 && 20 > ipl && ipl != 7/ { @n = count(); }");
    d = &L.prog.probe[0];
    assert_int_equal(d->flags, PRB_PF_UID | PRB_PF_IPL);
    assert_int_equal(d->uid, 3);
    assert_int_equal(d->ipl_lo, 4);
    assert_int_equal(d->ipl_hi, 19);
    assert_true(d->len > 3); /* ipl != 7 stays code */
    prb_lang_free(&L);
    good("spam:interrupt:hardclock /ipl == 24/ { @n = count(); }");
    d = &L.prog.probe[0];
    assert_int_equal(d->flags, PRB_PF_IPL);
    assert_int_equal(d->ipl_lo, 24);
    assert_int_equal(d->ipl_hi, 24);
    assert_int_equal(d->len, 3);
    prb_lang_free(&L);
    /* a kretprobe's predicate may be tested at the return, where uid and
     * the IPL can differ (setuid, splnet): they stay code */
    good("kretprobe:ipintr /uid == 0 && ipl > 3/ { @n = count(); }");
    assert_int_equal(L.prog.probe[0].flags, 0);
    prb_lang_free(&L);
    bad_at("profile:hz:100 /ipl > 10 && ipl < 5/ { @n = count(); }", 1, 29,
        "the predicate's IPL range is empty");
    good("kprobe:Copyin { @n = count(); }");
    assert_int_equal(L.prog.probe[0].addr, 0x80001000u); /* a JSB routine: its first byte */
    prb_lang_free(&L);
    good("kprobe:ipintr+0x10 { @n = count(); }");
    assert_int_equal(L.prog.probe[0].addr, 0x80012354u);
    prb_lang_free(&L);
    good("uprobe:/bin/ls:main /mode != kernel/ { @n = count(); }");
    d = &L.prog.probe[0];
    assert_int_equal(d->addr, 0x102);
    assert_int_equal(d->flags, PRB_PF_PROG);
    assert_int_equal(d->prog, 0x42);
    assert_int_equal(d->modes, 8);
    prb_lang_free(&L);
    good("spam:syscall:read, spam:syscall:*, spam:interrupt:hardclock, spam:interrupt:0x14C,"
         " spam:exception:tnv, spam:ldpctx, spam:rei { @n[probe] = count(); }");
    static const uint32_t want[][2] = {{0x3003, 0xFFFF}, {0x3000, 0xFC00}, {0x10C0, 0xFFFF},
                                       {0x114C, 0xFFFF}, {0x2024, 0xFFFF}, {0x4000, 0xF000},
                                       {0x5000, 0xF000}};
    assert_int_equal(L.prog.nprobes, 7);
    for (unsigned i = 0; i < 7; i++) {
        assert_int_equal(L.prog.probe[i].kind, PRB_K_EVENT);
        assert_int_equal(L.prog.probe[i].addr, want[i][0]);
        assert_int_equal(L.prog.probe[i].mask, want[i][1]);
    }
    assert_int_equal(L.prog.map[0].keys, 7);
    prb_lang_free(&L);
    good("profile:hz:100 { @n = count(); } profile:ms:2 { @n = count(); } profile:us:100 { @n = count(); }");
    assert_int_equal(L.prog.probe[0].kind, PRB_K_SAMPLE);
    assert_int_equal(L.prog.probe[0].addr, 125000);
    assert_int_equal(L.prog.probe[1].addr, 25000);
    assert_int_equal(L.prog.probe[2].addr, 1250);
    prb_lang_free(&L);
}

static void test_count_by_pid(void **state)
{
    (void)state;
    good("kprobe:ipintr { @c[pid] = count(); @s[pid] = sum(arg1); @lo = min(arg1); @hi = max(arg1);"
         " @a = avg(arg1); @st = stats(arg1); }");
    load();
    fresh_ctx();
    cval[PRB_C_PID] = 7;
    cval[12] = 0x7FFF0000u; /* AP */
    mem_at(0x7FFF0008u, 40);
    fire(0);
    fmem[0].v = 2;
    fire(0);
    cval[PRB_C_PID] = 29999;
    fire(0);
    cval[PRB_C_PID] = 30000;  /* beyond 4.3BSD's pids: the overflow slot */
    fire(0);
    assert_int_equal(errs, 0);
    assert_int_equal(slot_of("@c", 7).count, 2);
    assert_int_equal(slot_of("@c", 29999).count, 1);
    assert_int_equal(L.prog.map[mapno("@c")].keys, 30000);
    assert_int_equal(slot_of("@c", 30000).count, 1);
    assert_int_equal(slot_of("@s", 7).sum, 42);
    assert_int_equal(slot_of("@lo", 0).min, 2);
    assert_int_equal(slot_of("@hi", 0).max, 40);
    struct prb_slot a = slot_of("@a", 0);
    assert_int_equal(a.count, 4);
    assert_int_equal(a.sum, 40 + 2 + 2 + 2);
    assert_int_equal(L.map[mapno("@a")].agg, PRB_A_AVG);
    assert_int_equal(L.map[mapno("@st")].agg, PRB_A_STATS);
    prb_lang_free(&L);
}

/* The values of a record the last firing wrote (its values from 1). */
static uint32_t recval(unsigned r, unsigned i)
{
    assert_true(r < nrecs);
    return rec[r][1 + i];
}

/* Arithmetic, comparisons, conditions, through records. */

static void test_arith_values(void **state)
{
    (void)state;
    good_budget("kprobe:ipintr {\n"
         "  $c = -arg0;\n"
         "  printf(\"%d %d %d %u %u %u %d %u %d %d %d %d %u\", (3 + 4) * 2 - 1, arg0 * 3 - 10, $c,"
         " arg1 / 10, arg1 % 7, arg1 / arg0, $c / 2, arg1 >> 28, $c >> 1,"
         " (arg0 == 7) + (arg0 != 7) * 2 + (arg1 > arg0) * 4 + ($c < 0) * 8,"
         " arg0 > 5 && arg1 < 3 ? 100 : 200, !arg0 | ~arg0 & 0xFF ^ 1 << 4, arg1 / 0x80000001);\n"
         "  printf(\"%u %u %d %d\", arg1 % 16, arg1 % arg0, 10 / -3, arg0 / 0x10);\n"
         "}\n", 20000);
    load();
    fresh_ctx();
    cval[12] = 0x7FFF0000u;
    mem_at(0x7FFF0004u, 7);
    mem_at(0x7FFF0008u, 0xFFFFFFF6u);
    fire(0);
    assert_int_equal(errs, 0);
    assert_int_equal(nrecs, 2);
    uint32_t a0 = 7, a1 = 0xFFFFFFF6u;
    int32_t c = -7;
    uint32_t want[] = {13, 11, (uint32_t)-7, a1 / 10, a1 % 7, a1 / a0, (uint32_t)(c / 2),
                       a1 >> 28, (uint32_t)(c >> 1), 1 + 4 + 8, 200,
                       (uint32_t)((!a0) | ((~a0 & 0xFF) ^ (1 << 4))), a1 / 0x80000001u};
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++)
        if (recval(0, i) != want[i])
            fail_msg("value %u: 0x%x, expected 0x%x", i, recval(0, i), want[i]);
    assert_int_equal(recval(1, 0), a1 % 16);
    assert_int_equal(recval(1, 1), a1 % a0);
    assert_int_equal(recval(1, 2), (uint32_t)-3);
    assert_int_equal(recval(1, 3), 0);
    /* the record's detail: tag 0 with 13 values, tag 1 with 4 */
    assert_int_equal(rec[0][0], 0u << 4 | 13);
    assert_int_equal(rec[1][0], 1u << 4 | 4);
    prb_lang_free(&L);
}

/* Unsigned division by registers on its edge cases. */
static void test_udiv(void **state)
{
    (void)state;
    good("kprobe:ipintr { printf(\"%u %u\", arg0 / arg1, arg0 % arg1); }");
    load();
    static const uint32_t cases[][2] = {
        {0xFFFFFFFFu, 1}, {0xFFFFFFFFu, 3}, {0xFFFFFFFFu, 0x80000000u}, {0x7FFFFFFFu, 0x80000000u},
        {5, 0}, {0, 7}, {0x80000000u, 0xFFFFFFFFu}, {0xFFFFFFFEu, 0xFFFFFFFFu}, {1000000007u, 13},
        {0xDEADBEEFu, 0x10001u}, {3, 0x7FFFFFFFu},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fresh_ctx();
        cval[12] = 0x7FFF0000u;
        mem_at(0x7FFF0004u, cases[i][0]);
        mem_at(0x7FFF0008u, cases[i][1]);
        nrecs = 0;
        fire(0);
        uint32_t a = cases[i][0], b = cases[i][1];
        if (recval(0, 0) != (b ? a / b : 0) || recval(0, 1) != (b ? a % b : 0))
            fail_msg("%u / %u: %u %u", a, b, recval(0, 0), recval(0, 1));
    }
    prb_lang_free(&L);
}

/* if/else, unroll, variables assigned on one path only, ternary. */
static void test_control(void **state)
{
    (void)state;
    good("kprobe:ipintr {\n"
         "  if (arg0 > 3) { $x = 1; } else if (arg0 == 3) { $x = 2; $y = 5; } else { $x = 3; }\n"
         "  $n = 0;\n"
         "  unroll (5) { $n += arg0; if ($n > 12) { $n++; } }\n"
         "  printf(\"%d %d %d %d\", $x, $y, $n, arg0 ? 9 : 8);\n"
         "}\n");
    load();
    for (uint32_t a = 2; a <= 4; a++) {
        fresh_ctx();
        cval[12] = 0x7FFF0000u;
        mem_at(0x7FFF0004u, a);
        nrecs = 0;
        fire(0);
        int32_t n = 0;
        for (int k = 0; k < 5; k++) {
            n += (int32_t)a;
            if (n > 12)
                n++;
        }
        assert_int_equal(recval(0, 0), a > 3 ? 1 : a == 3 ? 2 : 3);
        assert_int_equal(recval(0, 1), a == 3 ? 5 : 0); /* 0 where it was never set */
        assert_int_equal(recval(0, 2), (uint32_t)n);
        assert_int_equal(recval(0, 3), 9);
    }
    prb_lang_free(&L);
}

/* kretprobe: the entry watches the frame with a cookie; the return
 * measures.  duration is microseconds (80 ns microcycles). */
static void test_kretprobe(void **state)
{
    (void)state;
    good("kretprobe:ipintr /retval == 0/ { @us = hist(duration); @x = lhist(duration_excl, 0, 100, 10);"
         " @c = sum(duration_cyc); @a[arg1 % 4] = count(); }");
    assert_int_equal(L.prog.nprobes, 2);
    assert_int_equal(L.prog.probe[0].kind, PRB_K_PC);
    assert_int_equal(L.prog.probe[1].kind, PRB_K_RET);
    assert_int_equal(L.sprobe[0].entry, 0);
    assert_int_equal(L.sprobe[0].ret, 1);
    assert_int_equal(L.map[mapno("@us")].unit, PRB_U_US);
    assert_int_equal(L.map[mapno("@c")].unit, PRB_U_CYCLES);
    assert_string_equal(L.map[mapno("@us")].what, "duration");
    assert_string_equal(L.map[mapno("@us")].where, "kretprobe:ipintr");
    assert_int_equal(L.prog.map[mapno("@x")].lbuckets, 10);
    load();
    fresh_ctx();
    cval[12] = 0x7FFF0000u;
    mem_at(0x7FFF0008u, 6); /* arg1 */
    fire(0);
    assert_int_equal(watches, 1);
    assert_int_equal(watch_probe, 1);
    assert_int_equal(watch_cookie, 6);
    cval[PRB_C_COOKIE] = watch_cookie;
    cval[PRB_C_DUR] = 1250;  /* 100 us */
    cval[PRB_C_DURX] = 1000; /* 80 us */
    cval[0] = 0;             /* retval */
    fire(1);
    cval[0] = 1; /* filtered at the return */
    fire(1);
    struct prb_slot h = slot_of("@us", 0);
    assert_int_equal(h.count, 1);
    assert_int_equal(prb_slot_bucket(&h, 7), 1); /* 100: [64, 128) */
    struct prb_slot l = slot_of("@x", 0);
    assert_int_equal(prb_slot_bucket(&l, 1 + 8), 1); /* 80: [80, 90) */
    assert_int_equal(slot_of("@c", 0).sum, 1250);
    assert_int_equal(slot_of("@a", 2).count, 1);
    prb_lang_free(&L);
}

/* duration_self: time in nested metered calls is not charged to the
 * caller (the Multics rule), per process. */
static void test_duration_self(void **state)
{
    (void)state;
    good("kretprobe:namei, kretprobe:bread { @self[probe] = sum(duration_self_cyc);"
         " @all[probe] = sum(duration_cyc); }");
    assert_int_equal(L.prog.nprobes, 4);
    assert_true(L.map[0].hidden);
    load();
    fresh_ctx();
    cval[PRB_C_PID] = 9;
    /* namei enters, bread enters and returns twice inside it, then namei returns */
    fire(L.sprobe[0].entry);
    uint32_t c_namei = watch_cookie;
    for (int k = 0; k < 2; k++) {
        fire(L.sprobe[1].entry);
        cval[PRB_C_COOKIE] = watch_cookie;
        cval[PRB_C_DUR] = 300;
        fire(L.sprobe[1].ret);
    }
    /* another process's metered call meanwhile changes nothing here */
    cval[PRB_C_PID] = 10;
    fire(L.sprobe[1].entry);
    cval[PRB_C_COOKIE] = watch_cookie;
    cval[PRB_C_DUR] = 5000;
    fire(L.sprobe[1].ret);
    cval[PRB_C_PID] = 9;
    cval[PRB_C_COOKIE] = c_namei;
    cval[PRB_C_DUR] = 1000;
    fire(L.sprobe[0].ret);
    assert_int_equal(slot_of("@self", 0).sum, 1000 - 600);
    assert_int_equal(slot_of("@self", 1).sum, 600 + 5000);
    assert_int_equal(slot_of("@all", 0).sum, 1000);
    assert_int_equal(slot_of("@all", 1).sum, 5600);
    prb_lang_free(&L);
}

/* Maps as variables: per-process state (@start[pid] = usecs). */
static void test_var_maps(void **state)
{
    (void)state;
    good("kprobe:ipintr { @start[pid] = usecs; @n++; @t += 5; @t -= 1; }\n"
         "kprobe:namei /@start[pid] != 0/ { @lat = hist(usecs - @start[pid]); delete(@start[pid]);"
         " @m[@n % 3] = count(); }");
    assert_int_equal(L.map[mapno("@start")].agg, PRB_A_VAR);
    prb_lang_free(&L);
    /* a map's value as a key takes the range its assignments give it, even
     * from a later line */
    good("kprobe:ipintr { @c[@r] = count(); } kprobe:namei { @r = pid; }");
    assert_int_equal(L.prog.map[mapno("@c")].keys, 30000);
    prb_lang_free(&L);
    good("kprobe:ipintr { @start[pid] = usecs; @n++; @t += 5; @t -= 1; }\n"
         "kprobe:namei /@start[pid] != 0/ { @lat = hist(usecs - @start[pid]); delete(@start[pid]);"
         " @m[@n % 3] = count(); }");
    load();
    fresh_ctx();
    cval[PRB_C_PID] = 4;
    cval[PRB_C_USEC] = 1000;
    fire(0);
    cval[PRB_C_USEC] = 1300;
    fire(1);
    fire(1); /* deleted: filtered */
    assert_int_equal(slot_of("@start", 4).sum, 0);
    assert_int_equal(slot_of("@n", 0).sum, 1);
    assert_int_equal(slot_of("@t", 0).sum, 4);
    struct prb_slot h = slot_of("@lat", 0);
    assert_int_equal(h.count, 1);
    assert_int_equal(prb_slot_bucket(&h, 9), 1); /* 300: [256, 512) */
    /* @n % 3 may be negative as far as the compiler knows: keys from -2 */
    assert_int_equal(L.map[mapno("@m")].key[0].lo, -2);
    assert_int_equal(slot_of("@m", 3).count, 1);
    char b[32];
    struct prb_lang_host none = {0};
    prb_lang_key_text(&L, (unsigned)mapno("@m"), 3, &none, b, sizeof b);
    assert_string_equal(b, "1");
    prb_lang_free(&L);
}

/* Keys: kernel functions in buckets, comm, composite keys, overflow. */

static void test_keys_values(void **state)
{
    (void)state;
    good("profile:hz:100 { @f[kfunc(pc)] = count(); @c[comm] = count(); @k[mode, ipl] = count();"
         " @g[pc] = count(); @o[pid % 10 - 5, mode] = count(); }");
    const struct prb_lang_map *f = &L.map[mapno("@f")];
    assert_int_equal(f->key[0].type, PRB_T_KFUNC);
    assert_int_equal(f->key[0].base, 0x80000000u);
    assert_int_equal(f->key[0].shift, 3); /* 256 KB in 8-byte buckets: 256 KB of counts */
    assert_int_equal(L.prog.map[mapno("@f")].keys, 32768);
    assert_int_equal(L.map[mapno("@g")].key[0].type, PRB_T_KADDR);
    assert_int_equal(L.map[mapno("@c")].key[0].type, PRB_T_COMMKEY);
    assert_int_equal(L.prog.map[mapno("@c")].keys, 1021);
    assert_int_equal(L.prog.map[mapno("@k")].keys, 4 * 32);
    assert_int_equal(L.prog.map[mapno("@o")].keys, 10 * 4); /* pid % 10 - 5: -5..4 */
    load();
    fresh_ctx();
    cval[15] = 0x80001235u;
    cval[PRB_C_PROG] = 6u << 16 | 0x123;
    cval[PRB_C_PSL] = 0x031F0000u; /* user mode, IPL 31 */
    cval[PRB_C_PID] = 13;
    fire(0);
    cval[15] = 0x00001000u; /* a user PC: outside the kernel's text */
    cval[PRB_C_PID] = 2;
    fire(0);
    assert_int_equal(slot_of("@f", 0x1235 >> 3).count, 1);
    assert_int_equal(slot_of("@f", 32768).count, 1);
    assert_int_equal(slot_of("@c", (0x123 + 6 * 7) % 1021).count, 2);
    assert_int_equal(slot_of("@k", 3 * 32 + 31).count, 2);
    assert_int_equal(slot_of("@o", (-2 + 5) * 4 + 3).count, 1); /* 13 % 10 - 5 = -2 */
    assert_int_equal(slot_of("@o", (-3 + 5) * 4 + 3).count, 1);
    /* the keys' text, with names from the host */
    char b[128];
    struct prb_lang_host h = {0};
    prb_lang_key_text(&L, (unsigned)mapno("@k"), 3 * 32 + 31, &h, b, sizeof b);
    assert_string_equal(b, "user, 31");
    prb_lang_key_text(&L, (unsigned)mapno("@f"), 32768, &h, b, sizeof b);
    assert_string_equal(b, "outside the kernel's text");
    prb_lang_key_text(&L, (unsigned)mapno("@f"), 0x1235 >> 3, &h, b, sizeof b);
    assert_string_equal(b, "0x80001230");
    prb_lang_key_text(&L, (unsigned)mapno("@o"), (-3 + 5) * 4 + 3, &h, b, sizeof b);
    assert_string_equal(b, "-3, user");
    prb_lang_free(&L);
}

/* Triggers, tracing, exit. */
static void test_triggers(void **state)
{
    (void)state;
    good("kprobe:namei /comm == \"ls\"/ { enable(\"kprobe:bread\"); enable(); }\n"
         "kprobe:bread { @n = count(); disable(\"kprobe:bread\"); disable(); exit(); }");
    assert_true(L.prog.probe[1].flags & PRB_PF_DISARMED);
    assert_false(L.prog.probe[0].flags & PRB_PF_DISARMED);
    assert_true(L.uses_tracing);
    load();
    fresh_ctx();
    fire(0);
    assert_int_equal(narm, 1);
    assert_int_equal(arms[0], 1);
    assert_int_equal(tron, 1);
    fire(1);
    assert_int_equal(disarms, 1);
    assert_int_equal(troff, 1);
    assert_int_equal(notes, 1);
    prb_lang_free(&L);
}

/* Kernel variables, memory, registers, caller. */
static void test_reads(void **state)
{
    (void)state;
    good("kprobe:ipintr { printf(\"%d %d %d %x %x %d\", kvar(\"time\", 4), kvar(\"hz\", 0, 2),"
         " mem(arg0 + 4, 1), caller, reg(\"r5\"), nargs); }\n"
         "kprobe:Copyin { printf(\"%x\", caller); }\n"
         "spam:exception:tnv { printf(\"%x %d\", vaddr, vector); }");
    load();
    fresh_ctx();
    cval[12] = 0x7FFF0000u; /* AP */
    cval[13] = 0x7FFE0000u; /* FP */
    cval[14] = 0x7FFD0000u; /* SP */
    cval[5] = 0x55;
    cval[PRB_C_EVENT] = 0x2024;
    mem_at(0x80030004u, 123456);
    mem_at(0x80030010u, 0x12340064u); /* hz: 100 in the low word */
    mem_at(0x7FFF0000u, 3);           /* nargs */
    mem_at(0x7FFF0004u, 0x80050000u); /* arg0 */
    mem_at(0x80050004u, 0xAABBCC99u);
    mem_at(0x7FFE0010u, 0x80012000u); /* the frame's saved PC */
    mem_at(0x7FFD0000u, 0x80013000u); /* JSB's return PC */
    mem_at(0x7FFD0004u, 0x00402000u); /* the faulting address */
    fire(0);
    fire(1);
    fire(2);
    assert_int_equal(errs, 0);
    assert_int_equal(recval(0, 0), 123456);
    assert_int_equal(recval(0, 1), 100);
    assert_int_equal(recval(0, 2), 0x99);
    assert_int_equal(recval(0, 3), 0x80012000u);
    assert_int_equal(recval(0, 4), 0x55);
    assert_int_equal(recval(0, 5), 3);
    assert_int_equal(recval(1, 0), 0x80013000u);
    assert_int_equal(recval(2, 0), 0x402000u);
    assert_int_equal(recval(2, 1), 0x24);
    prb_lang_free(&L);
}

/* printf's formats and the names of values. */
static const char *names(void *ctx, enum prb_lang_type t, uint32_t v, char *buf, size_t len)
{
    (void)ctx;
    if (t == PRB_T_COMM && v == 0x42)
        return "/bin/ls";
    if (t == PRB_T_KFUNC || t == PRB_T_KADDR) {
        snprintf(buf, len, "fn_%x", v);
        return buf;
    }
    if (t == PRB_T_SYSCALL && v == 3)
        return "read";
    return NULL;
}

static void test_printf(void **state)
{
    (void)state;
    good("kprobe:ipintr { printf(\"%s ran %-4d|%5u|%x|%s %s %c %% %s\\n\", comm, -3, 7, 255, func,"
         " sysname(3), 65, mode); record(pid, 2); }");
    assert_int_equal(L.nfmt, 2);
    assert_true(L.uses_records);
    uint32_t v[8] = {0x42, (uint32_t)-3, 7, 255, 0x80012344u, 3, 65, 0};
    char buf[200];
    struct prb_lang_host h = {.name = names};
    assert_int_equal(prb_lang_format_record(&L, 0, v, 8, &h, buf, sizeof buf), 0);
    assert_string_equal(buf, "/bin/ls ran -3  |    7|ff|fn_80012344 read A % kernel\n");
    uint32_t w[2] = {12, 2};
    assert_int_equal(prb_lang_format_record(&L, 1, w, 2, &h, buf, sizeof buf), 0);
    assert_string_equal(buf, "record 1 (kprobe:ipintr): 12 2");
    assert_int_equal(prb_lang_format_record(&L, 2, w, 2, &h, buf, sizeof buf), -1);
    prb_lang_free(&L);
    /* %s of probe: the attach point's text, as a map key prints it */
    good("kprobe:ipintr, kprobe:Copyin { printf(\"in %s (%d)\\n\", probe, probe); }");
    uint32_t pv[2] = {1, 1};
    assert_int_equal(prb_lang_format_record(&L, 0, pv, 2, &h, buf, sizeof buf), 0);
    assert_string_equal(buf, "in kprobe:Copyin (1)\n");
    prb_lang_free(&L);
}

/* BEGIN, END and interval: run by the host over the maps. */
static int64_t hv_map(void *ctx, unsigned map, uint32_t key)
{
    (void)ctx;
    return map * 1000 + key;
}

static char hout[1024];
static unsigned hprints, hclears, hprint_top;

static void hv_out(void *ctx, const char *t)
{
    (void)ctx;
    strncat(hout, t, sizeof hout - strlen(hout) - 1);
}

static void hv_print(void *ctx, unsigned map, unsigned top, unsigned div)
{
    (void)ctx, (void)map, (void)div;
    hprints++;
    hprint_top = top;
}

static void hv_clear(void *ctx, unsigned map)
{
    (void)ctx, (void)map;
    hclears++;
}

static uint64_t hv_now(void *ctx)
{
    (void)ctx;
    return 2500000;
}

static void test_host_blocks(void **state)
{
    (void)state;
    good("BEGIN { printf(\"tracing\\n\"); }\n"
         "kprobe:ipintr { @a[pid] = count(); @b = sum(arg0); }\n"
         "interval:s:1 { print(@a, 10); clear(@a); $t = usecs / 1000000; if ($t >= 2) { exit(); } }\n"
         "END { printf(\"%d %d %d\\n\", @a[7], @b, @b / 2 + (1 << 3)); }");
    assert_int_equal(L.nblock, 3);
    assert_int_equal(L.block[0].kind, PRB_B_BEGIN);
    assert_int_equal(L.block[1].kind, PRB_B_INTERVAL);
    assert_int_equal(L.block[1].period_us, 1000000);
    assert_int_equal(L.block[2].kind, PRB_B_END);
    assert_int_equal(L.prog.nprobes, 1);
    struct prb_lang_host h = {.map_value = hv_map, .now_us = hv_now, .print_map = hv_print,
                              .clear_map = hv_clear, .out = hv_out};
    hout[0] = 0;
    assert_int_equal(prb_lang_host_run(&L, 0, &h), 0);
    assert_int_equal(prb_lang_host_run(&L, 1, &h), 1); /* exit() at 2.5 s */
    assert_int_equal(hprints, 1);
    assert_int_equal(hprint_top, 10);
    assert_int_equal(hclears, 1);
    assert_int_equal(prb_lang_host_run(&L, 2, &h), 0);
    assert_string_equal(hout, "tracing\n7 1000 508\n");
    prb_lang_free(&L);
}

/* The compiled program reads back through the machine's text form. */
static void test_listing(void **state)
{
    (void)state;
    good("kretprobe:ipintr /pid != 0/ { @t[kfunc(caller)] = hist(duration); }\n"
         "spam:syscall:* { @s[sysno] = count(); }");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(prb_disasm(&L.prog, f), 0);
    fclose(f);
    static struct prb_program back;
    char err[300];
    if (prb_asm(buf, len, "listing", &back, err, sizeof err))
        fail_msg("%s in\n%s", err, buf);
    free(buf);
    assert_int_equal(back.ncode, L.prog.ncode);
    assert_memory_equal(back.code, L.prog.code, L.prog.ncode * sizeof L.prog.code[0]);
    prb_lang_free(&L);
}

/* A script of n copies of fmt (with %u for the copy's number). */
static char *repeat(const char *head, const char *fmt, unsigned n, const char *tail)
{
    size_t cap = strlen(head) + strlen(tail) + n * (strlen(fmt) + 12) + 1;
    char *s = malloc(cap);
    size_t k = (size_t)snprintf(s, cap, "%s", head);
    for (unsigned i = 0; i < n; i++)
        k += (size_t)snprintf(s + k, cap - k, fmt, i);
    snprintf(s + k, cap - k, "%s", tail);
    return s;
}

/* The limits: probes, maps, variables, records, routine length, keys,
 * names; and the rarer messages. */
static void test_limits(void **state)
{
    (void)state;
    char *s = repeat("", "profile:hz:%u { }\n", 65, "");
    bad_at(s, 65, 1, "more than 64 probes");
    free(s);
    s = repeat("", "kretprobe:ipintr { @a%u = count(); }\n", 33, "");
    bad_at(s, 33, 1, "more than 64 machine probes (a kretprobe takes two)");
    free(s);
    s = repeat("profile:hz:100 {", " @m%u = count();", 65, " }");
    bad_at(s, 1, (unsigned)(strstr(s, "@m64") - s) + 1, "more than 64 maps");
    free(s);
    s = repeat("profile:hz:100 {", " $v%u = 1;", 17, " }");
    bad_at(s, 1, (unsigned)(strstr(s, "$v16") - s) + 1, "no register left for $v16");
    free(s);
    s = repeat("profile:hz:100 {", " printf(\"%u\");", 257, " }");
    bad_at(s, 1, (unsigned)(strstr(s, "printf(\"256") - s) + 1,
           "more than 256 printf() and record() calls");
    free(s);
    s = repeat("profile:hz:100 { unroll(256) {", " @a = count();", 9, " } }");
    bad_at(s, 1, 18, "unrolls to more than 2048");
    free(s);
    bad_at("profile:hz:100 { @x[1, 2, 3, 4, 5] = count(); }", 1, 18, "a key of more than 4 components");
    bad_at("profile:hz:100 { @x[comm] = count(); @x[pid] = count(); }", 1, 41, "@x's key 1 has another type");
    bad_at("profile:hz:100 { @x = lhist(pid, 0, 10, 1); @x = lhist(pid, 0, 20, 1); }", 1, 50,
           "@x is an lhist() with other bounds at line 1");
    bad_at("profile:hz:100 /mode == user && mode == kernel/ { }", 1, 33,
           "the predicate's modes exclude every mode");
    bad_at("profile:hz:100 { @x = \"a\" == \"b\"; }", 1, 23, "two strings compared");
    bad_at("profile:hz:100 { @x = comm < \"ls\"; }", 1, 23, "comm compares with a program by == or !=");
    bad_at("profile:hz:100 { @x = mem(pc, 3); }", 1, 31, "mem() size 3");
    bad_at("profile:hz:100 { @x = sysname(1, 2); }", 1, 23, "sysname() takes 1 argument");
    bad_at("profile:hz:100 { @x = kaddr(pid); }", 1, 29, "kaddr() needs a kernel symbol's name");
    bad_at("profile:hz:100 { @x = count(); }\nEND { print(@x, 70000); }", 2, 17,
           "print() count of entries 70000: 0 to 65536");
    bad_at("END { delete(@x[1]); }\nprofile:hz:100 { @x[1] = count(); }", 1, 7,
           "delete() does not run in BEGIN, END and interval");
    bad_at("profile:hz:100 { $x = 1234567890123456789012345678901234567890; }", 1, 23,
           "a number of more than 39 characters");
    bad_at("profile:hz:100 { printf(\"\\x\"); }", 1, 26, "\\x needs hex digits");
    bad_at("profile:hz:100 { printf(\"a\\0b\"); }", 1, 27, "a NUL character in a string");
    bad_at("profile:hz:100 { @a234567890123456789012345678901 = count(); }", 1, 18,
           "longer than 31 characters");
    s = repeat("kprobe:ipintr+", "%u", 150, " { }");
    bad_at(s, 1, 1, "a probe of more than 255 characters");
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_errors), cmocka_unit_test(test_probe_errors),
        cmocka_unit_test(test_semantic_errors), cmocka_unit_test(test_filters),
        cmocka_unit_test(test_count_by_pid), cmocka_unit_test(test_arith_values),
        cmocka_unit_test(test_udiv), cmocka_unit_test(test_control),
        cmocka_unit_test(test_kretprobe), cmocka_unit_test(test_duration_self),
        cmocka_unit_test(test_var_maps), cmocka_unit_test(test_keys_values),
        cmocka_unit_test(test_triggers), cmocka_unit_test(test_reads),
        cmocka_unit_test(test_printf), cmocka_unit_test(test_host_blocks),
        cmocka_unit_test(test_listing), cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
