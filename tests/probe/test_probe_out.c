/* Unit tests of spamctl probe's output (cli/spamctl_probe_out.h): maps in
 * bpftrace's layout, merged keys, JSON lines, the SVG's axes and title,
 * over slots written here as the probe megabyte holds them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/spamctl_probe_out.h"
#include "cli/spamctl_top.h"
#include "tests/probe/lang_guest.h"
#include "vax/probe/probe_install.h"
#include "vax/probe/probe_lang.h"

static struct prb_lang L;
static uint8_t *slots[PRB_MAX_MAPS];

static void compile(const char *text)
{
    struct prb_lang_opts o = {.name = "t", .resolve = &lang_guest};
    struct prb_lang_error e;
    if (prb_lang_compile(text, strlen(text), &o, &L, &e))
        fail_msg("%s", e.msg);
    for (unsigned m = 0; m < L.prog.nmaps; m++) {
        slots[m] = calloc(1, prb_map_bytes(&L.prog.map[m]));
        prb_map_init(&L.prog.map[m], slots[m]);
    }
}

static void done(void)
{
    for (unsigned m = 0; m < L.prog.nmaps; m++) {
        free(slots[m]);
        slots[m] = NULL;
    }
    prb_lang_free(&L);
}

static int map_of(const char *name)
{
    for (unsigned m = 0; m < L.prog.nmaps; m++)
        if (!strcmp(L.map[m].name, name))
            return (int)m;
    fail_msg("no map %s", name);
    return -1;
}

static void put64(const char *map, uint32_t key, unsigned word, uint64_t v)
{
    int m = map_of(map);
    uint8_t *p = slots[m] + (size_t)key * prb_map_slot_bytes(&L.prog.map[m]) + 8 * word;
    for (unsigned i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void bucket(const char *map, uint32_t key, unsigned b, uint32_t v)
{
    int m = map_of(map);
    uint8_t *p = slots[m] + (size_t)key * prb_map_slot_bytes(&L.prog.map[m]) + 4 * b;
    for (unsigned i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static const char *names(void *ctx, enum prb_lang_type t, uint32_t v, char *buf, size_t len)
{
    (void)ctx;
    if (t == PRB_T_KFUNC)
        return v < 0x80001000u ? "low" : "high"; /* two functions */
    if ((t == PRB_T_COMMKEY || t == PRB_T_COMM) && v == 0x42)
        return "/bin/ls";
    if (t == PRB_T_COMMKEY && v == 0x43)
        return "/bin/sh";
    (void)buf, (void)len;
    return NULL;
}

static const struct prb_lang_host host = {.name = names};

/* What a print function wrote. */
static char *out_of(void (*fn)(FILE *), size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    fn(f);
    fclose(f);
    if (len)
        *len = n;
    return buf;
}

/* fn's output must be want. */
static void expect_out(void (*fn)(FILE *), const char *want)
{
    char *t = out_of(fn, NULL);
    if (strcmp(t, want))
        fail_msg("got:\n%s\nexpected:\n%s", t, want);
    free(t);
}

static void print_all(FILE *f)
{
    for (unsigned m = 0; m < L.prog.nmaps; m++)
        probe_print_map(f, &L, m, slots[m], &host, 0, 0);
}

static void json_all(FILE *f)
{
    for (unsigned m = 0; m < L.prog.nmaps; m++)
        probe_json_map(f, &L, m, slots[m], &host);
}

static void svg_all(FILE *f)
{
    probe_svg(f, &L, (const uint8_t *const *)slots, &host);
}

static void test_text(void **state)
{
    (void)state;
    compile("profile:hz:100 { @[comm] = count(); @s = sum(pid); @f[kfunc(pc)] = count();"
            " @v[pid] = usecs; @st = stats(pid); }");
    put64("@", 0x42, 0, 7);
    put64("@", 0x43, 0, 30);
    put64("@", 1020, 0, 2); /* a key no program has */
    put64("@s", 0, 0, (uint64_t)-5);
    /* kfunc: buckets 0x80000000 and 0x80000008 are "low", 0x80001000 "high" */
    put64("@f", 0, 0, 3);
    put64("@f", 1, 0, 4);
    put64("@f", 0x1000 >> 3, 0, 5);
    put64("@f", L.prog.map[map_of("@f")].keys, 0, 9); /* outside the text */
    put64("@v", 12, 0, 123456);
    put64("@st", 0, 0, 4);
    put64("@st", 0, 1, 100);
    expect_out(print_all,
        "@[comm #1020]: 2\n@[/bin/ls]: 7\n@[/bin/sh]: 30\n\n"
        "@s: -5\n\n"
        "@f[high]: 5\n@f[low]: 7\n@f[outside the kernel's text]: 9\n\n"
        "@v[12]: 123456\n\n"
        "@st: count 4, average 25, total 100\n\n");
    /* top and div */
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    probe_print_map(f, &L, (unsigned)map_of("@"), slots[map_of("@")], &host, 2, 2);
    fclose(f);
    assert_string_equal(buf, "@[/bin/ls]: 3\n@[/bin/sh]: 15\n\n");
    free(buf);
    done();
}

static void test_hist_text(void **state)
{
    (void)state;
    compile("kretprobe:ipintr { @us = hist(duration); @l[arg1 % 2] = lhist(duration, 0, 100, 25); }");
    bucket("@us", 0, 7, 4);   /* [64, 128) */
    bucket("@us", 0, 9, 2);   /* [256, 512) */
    bucket("@us", 0, 11, 1);  /* [1K, 2K) */
    bucket("@l", 1, 0, 1);    /* below 0 */
    bucket("@l", 1, 2, 2);    /* [25, 50) */
    bucket("@l", 1, 5, 1);    /* 100 and above */
    expect_out(print_all,
        "@us:\n"
        "[64, 128)               4 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
        "[128, 256)              0 |                                                    |\n"
        "[256, 512)              2 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
        "[512, 1K)               0 |                                                    |\n"
        "[1K, 2K)                1 |@@@@@@@@@@@@@                                       |\n"
        "\n"
        "@l[1]:\n"
        "(..., 0)                1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
        "[0, 25)                 0 |                                                    |\n"
        "[25, 50)                2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
        "[50, 75)                0 |                                                    |\n"
        "[75, 100)               0 |                                                    |\n"
        "[100, ...)              1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
        "\n");
    expect_out(json_all,
        "{\"type\": \"hist\", \"unit\": \"us\", \"what\": \"duration\", \"probes\": \"kretprobe:ipintr\","
        " \"data\": {\"@us\": [{\"min\": 64, \"max\": 127, \"count\": 4}, {\"min\": 256, \"max\": 511,"
        " \"count\": 2}, {\"min\": 1024, \"max\": 2047, \"count\": 1}]}}\n"
        "{\"type\": \"hist\", \"unit\": \"us\", \"what\": \"duration\", \"probes\": \"kretprobe:ipintr\","
        " \"data\": {\"@l\": {\"1\": [{\"max\": -1, \"count\": 1}, {\"min\": 25, \"max\": 49, \"count\": 2},"
        " {\"min\": 100, \"count\": 1}]}}}\n");
    size_t n;
    char *t = out_of(svg_all, &n);
    /* two panels: the titles name the map, what it measures, its unit and
     * the probe; axes, ticks and both axis titles */
    assert_non_null(strstr(t, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_non_null(strstr(t, ">@us: duration (us) at kretprobe:ipintr, 7 values</text>"));
    assert_non_null(strstr(t, ">@l[1]: duration (us) at kretprobe:ipintr, 4 values</text>"));
    assert_non_null(strstr(t, ">duration (us)</text>"));
    assert_non_null(strstr(t, ">count</text>"));
    assert_non_null(strstr(t, ">[1K, 2K)</text>"));
    assert_non_null(strstr(t, "<title>[64, 128): 4</title>"));
    assert_non_null(strstr(t, "</svg>\n"));
    free(t);
    done();
}

static void test_json_scalars(void **state)
{
    (void)state;
    compile("profile:hz:100 { @c[comm] = count(); @n = count(); @a = avg(pid); @e[pid] = count(); }");
    put64("@c", 0x42, 0, 5);
    put64("@n", 0, 0, 9);
    put64("@a", 0, 0, 2);
    put64("@a", 0, 1, 10);
    expect_out(json_all,
        "{\"type\": \"map\", \"unit\": \"\", \"what\": \"count\", \"probes\": \"profile:hz:100\", "
        "\"data\": {\"@c\": {\"/bin/ls\": 5}}}\n"
        "{\"type\": \"map\", \"unit\": \"\", \"what\": \"count\", \"probes\": \"profile:hz:100\", "
        "\"data\": {\"@n\": 9}}\n"
        "{\"type\": \"map\", \"unit\": \"\", \"what\": \"pid\", \"probes\": \"profile:hz:100\", "
        "\"data\": {\"@a\": 5}}\n"
        "{\"type\": \"map\", \"unit\": \"\", \"what\": \"count\", \"probes\": \"profile:hz:100\", "
        "\"data\": {\"@e\": {}}}\n");
    done();
}

/* spamctl top's screen from two snapshots a second apart. */
static void test_top(void **state)
{
    (void)state;
    char text[2048];
    compile(top_program(NULL, text, sizeof text));
    struct top_snap prev = {0}, cur = {0};
    assert_int_equal(top_snap_take(&prev, &L, (const uint8_t *const *)slots, 1000000), 0);
    put64("@cpu", 5, 0, 250000);          /* a quarter of the second */
    put64("@prog", 5, 0, 0x42);
    put64("@intr", 0xC0, 0, 100);
    put64("@sys", 3, 0, 45);
    put64("@kfunc", 0, 0, 30);            /* low */
    put64("@kfunc", 1, 0, 10);            /* low */
    put64("@kfunc", 0x1000 >> 3, 0, 5);   /* high */
    put64("@user", 0, 0, 55);
    bucket("@hist", 0, 7, 4);
    assert_int_equal(top_snap_take(&cur, &L, (const uint8_t *const *)slots, 2000000), 0);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    top_render(f, &L, &prev, &cur, &host, 1, 10, "spamctl top");
    fclose(f);
    static const char *const want[] = {
        "\033[H\033[2J", "spamctl top: 2.0 s of emulated time; the last 1.00 s\n",
        "       5  /bin/ls                        250000  25.0%\n",
        "  interrupts/s: 100 (0xc0 100)\n", "  system calls/s: 45 (3 45)\n",
        "kernel functions (1 kHz samples: 45 kernel, 55 user)\n",
        "  low                              40  40.0%\n", "  high                              5   5.0%\n",
        "  kretprobe:ipintr: duration (us)\n", "  [64, 128)              4 |@@@@",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(buf, want[i]))
            fail_msg("no '%s' in:\n%s", want[i], buf);
    free(buf);
    top_snap_free(&prev);
    top_snap_free(&cur);
    done();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text), cmocka_unit_test(test_hist_text),
        cmocka_unit_test(test_json_scalars), cmocka_unit_test(test_top),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
