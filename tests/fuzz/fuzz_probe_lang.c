/* libFuzzer target: the probe language (vax/probe/probe_lang.h) on
 * arbitrary script text against a made-up guest.  A script either
 * compiles, and then every routine is one the machine's verifier accepts
 * (the compiler checks) and the host executor runs it on a fake machine
 * within the region, and the host's blocks and printf's formats run; or
 * it is refused with a message that carries the script's name. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/probe/lang_guest.h"
#include "vax/probe/probe_exec.h"
#include "vax/probe/probe_install.h"
#include "vax/probe/probe_lang.h"
#include "vax/probe/probe_verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REGION (1u << 20)

struct fake {
    uint32_t seed;
    unsigned steps;
};

static uint32_t f_value(void *c, unsigned sel)
{
    struct fake *f = c;
    f->seed = f->seed * 1103515245u + 12345u + sel;
    return f->seed;
}

static int f_read(void *c, uint32_t a, uint32_t *out)
{
    (void)c;
    if (a & 0x100)
        return -1;
    *out = a * 2654435761u;
    return 0;
}

static void f_record(void *c, uint32_t d, const uint32_t *v, unsigned n)
{
    (void)c, (void)d, (void)v;
    if (n > 14)
        __builtin_trap();
}

static void f_trace(void *c, int on)
{
    (void)c, (void)on;
}

static void f_command(void *c, unsigned ipr, uint32_t v, uint32_t arg)
{
    (void)c, (void)ipr, (void)v, (void)arg;
}

static int64_t h_map(void *c, unsigned m, uint32_t k)
{
    (void)c;
    return (int64_t)m * 7 + k;
}

static uint64_t h_now(void *c)
{
    (void)c;
    return 1000000;
}

static void h_print(void *c, unsigned m, unsigned top, unsigned div)
{
    (void)c, (void)m, (void)top, (void)div;
}

static void h_clear(void *c, unsigned m)
{
    (void)c, (void)m;
}

static void h_out(void *c, const char *t)
{
    (void)c;
    if (!t)
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct prb_lang l;
    static uint8_t *region;
    if (!region && !(region = malloc(REGION)))
        return 0;
    struct prb_lang_opts o = {.name = "fuzz", .resolve = &lang_guest};
    struct prb_lang_error e;
    if (prb_lang_compile((const char *)data, size, &o, &l, &e) != 0) {
        if (strncmp(e.msg, "fuzz", 4) != 0 || !memchr(e.msg, 0, sizeof e.msg))
            __builtin_trap();
        return 0;
    }
    struct prb_checked ck;
    struct prb_reject why;
    if (l.prog.nprobes && prb_verify(&l.prog, &ck, &why) != 0)
        __builtin_trap(); /* the compiler returned a program the machine refuses */
    if (l.prog.nprobes) {
        /* map table, routines, slots; as much of it as fits the region */
        memset(region, 0, REGION);
        uint16_t gid[PRB_MAX_PROBES];
        for (unsigned i = 0; i < PRB_MAX_PROBES; i++)
            gid[i] = (uint16_t)i;
        uint32_t at = PRB_MAX_MAPS * PRB_MAPDESC_BYTES, code[PRB_MAX_PROBES];
        for (unsigned p = 0; p < l.prog.nprobes; p++) {
            code[p] = at;
            for (unsigned j = 0; j < ck.len[p]; j++, at += PRB_INSN_BYTES)
                prb_encode_insn(&ck.code[ck.start[p] + j], gid, gid, region + at);
        }
        int fits = 1;
        for (unsigned m = 0; m < l.prog.nmaps && fits; m++) {
            size_t n = (prb_map_bytes(&l.prog.map[m]) + 7) & ~(size_t)7;
            if (at + n > REGION) {
                fits = 0;
                break;
            }
            prb_encode_mapdesc(&l.prog.map[m], at, region + m * PRB_MAPDESC_BYTES);
            prb_map_init(&l.prog.map[m], region + at);
            at += (uint32_t)n;
        }
        struct fake f = {.seed = (uint32_t)size};
        struct prb_host h = {.ctx = &f, .value = f_value, .vread = f_read, .pread = f_read,
                             .record = f_record, .trace = f_trace, .command = f_command,
                             .region = region, .region_pa = 0, .region_len = REGION};
        for (unsigned p = 0; fits && p < l.prog.nprobes; p++)
            if (prb_exec(&h, code[p], 0) > ck.len[p])
                __builtin_trap(); /* more instructions than the routine has */
        prb_checked_free(&ck);
    }
    struct prb_lang_host hh = {.map_value = h_map, .now_us = h_now, .print_map = h_print,
                               .clear_map = h_clear, .out = h_out};
    for (unsigned b = 0; b < l.nblock; b++)
        prb_lang_host_run(&l, b, &hh);
    uint32_t v[14] = {1, 2, 3, 0x80000000u, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
    char buf[512];
    for (unsigned t = 0; t < l.nfmt; t++)
        prb_lang_format_record(&l, t, v, l.fmt[t].nargs, &hh, buf, sizeof buf);
    for (unsigned m = 0; m < l.prog.nmaps; m++)
        prb_lang_key_text(&l, m, 3, &hh, buf, sizeof buf);
    prb_lang_free(&l);
    return 0;
}
