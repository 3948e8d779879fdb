/* Unit tests of vax/isa/vax_float: decimal to F, D, G and H with values
 * worked out by hand from the formats, the scanner's end pointer and
 * statuses, and the 64 short literals in every format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "vax/isa/vax_float.h"

static int conv(const char *s, int fmt, uint16_t w[8], size_t *used)
{
    const char *end;
    int st = vax_float_from_decimal(s, s + strlen(s), &end, fmt, w);
    *used = (size_t)(end - s);
    return st;
}

/* the words of s in fmt must be want[] */
static void expect_words(const char *s, int fmt, const uint16_t *want)
{
    uint16_t w[8];
    size_t used;
    int st = conv(s, fmt, w, &used);
    if (st != VAX_FLOAT_OK || used != strlen(s))
        fail_msg("%s: status %d, read %zu of %zu", s, st, used, strlen(s));
    for (int i = 0; i < vax_float_size(fmt) / 2; i++)
        if (w[i] != want[i])
            fail_msg("%s in format %d: word %d is %04x, want %04x", s, fmt, i, w[i], want[i]);
}

static void t_values(void **st)
{
    (void)st;
    /* 1.5 = 0.11b * 2^1: exponent bias+1, fraction .1000... */
    expect_words("1.5", VAX_FFMT_F, (const uint16_t[]){0x40c0, 0});
    expect_words("1.5", VAX_FFMT_D, (const uint16_t[]){0x40c0, 0, 0, 0});
    expect_words("1.5", VAX_FFMT_G, (const uint16_t[]){0x4018, 0, 0, 0});
    expect_words("1.5", VAX_FFMT_H, (const uint16_t[]){0x4001, 0x8000, 0, 0, 0, 0, 0, 0});
    expect_words("-1.5", VAX_FFMT_F, (const uint16_t[]){0xc0c0, 0});
    /* 0.1 = 0.1100 1100 ...b * 2^-3; the first dropped bit is 1: round up */
    expect_words("0.1", VAX_FFMT_F, (const uint16_t[]){0x3ecc, 0xcccd});
    expect_words("0.1", VAX_FFMT_D, (const uint16_t[]){0x3ecc, 0xcccc, 0xcccc, 0xcccd});
    expect_words("0.1", VAX_FFMT_G, (const uint16_t[]){0x3fd9, 0x9999, 0x9999, 0x999a});
    expect_words("0.1", VAX_FFMT_H,
                 (const uint16_t[]){0x3ffd, 0x9999, 0x9999, 0x9999, 0x9999, 0x9999, 0x9999, 0x999a});
    /* zero in every spelling, and -0 is 0 (a set sign would be reserved) */
    expect_words("0", VAX_FFMT_F, (const uint16_t[]){0, 0});
    expect_words("-0.0e7", VAX_FFMT_D, (const uint16_t[]){0, 0, 0, 0});
    expect_words(".", VAX_FFMT_G, (const uint16_t[]){0, 0, 0, 0});
    expect_words("", VAX_FFMT_F, (const uint16_t[]){0, 0});
    /* ties round away from zero: 2^24 + 1, -(2^24 + 1), 0.5 + 2^-25 */
    expect_words("16777217", VAX_FFMT_F, (const uint16_t[]){0x4c80, 0x0001});
    expect_words("-16777217", VAX_FFMT_F, (const uint16_t[]){0xcc80, 0x0001});
    expect_words("0.5000000298023223876953125", VAX_FFMT_F, (const uint16_t[]){0x4000, 0x0001});
    /* just below the tie: down */
    expect_words("0.5000000298023223876953124", VAX_FFMT_F, (const uint16_t[]){0x4000, 0x0000});
    /* rounding that carries into the exponent: 1 - 2^-25 is a tie -> 1.0 */
    expect_words("0.999999970197677612304687500", VAX_FFMT_F, (const uint16_t[]){0x4080, 0});
    /* largest and smallest F: (2^24-1) * 2^103 and 2^-128 */
    expect_words("170141173319264429905852091742258462720", VAX_FFMT_F,
                 (const uint16_t[]){0x7fff, 0xffff});
    expect_words("2.93873587705571876992184134305561419454666389193021880377187926569604314863681793212890625e-39",
                 VAX_FFMT_F, (const uint16_t[]){0x0080, 0});
    /* 1.5e-39 is about 0.51 * 2^-128: below the smallest F and D by far more than half an ulp */
    uint16_t w[8];
    size_t used;
    assert_int_equal(conv("1.5e-39", VAX_FFMT_F, w, &used), VAX_FLOAT_UNDERFLOW);
    assert_int_equal(conv("1.5e-39", VAX_FFMT_D, w, &used), VAX_FLOAT_UNDERFLOW);
    assert_int_equal(conv("1.5e-39", VAX_FFMT_G, w, &used), VAX_FLOAT_OK);
    assert_int_equal(conv("1.7014119e38", VAX_FFMT_F, w, &used), VAX_FLOAT_OVERFLOW);
    assert_int_equal(conv("1e308", VAX_FFMT_G, w, &used), VAX_FLOAT_OVERFLOW);
    assert_int_equal(conv("1e308", VAX_FFMT_H, w, &used), VAX_FLOAT_OK);
    assert_int_equal(conv("1e4933", VAX_FFMT_H, w, &used), VAX_FLOAT_OVERFLOW);
    assert_int_equal(conv("1e-4934", VAX_FFMT_H, w, &used), VAX_FLOAT_UNDERFLOW);
    assert_int_equal(conv("1e999999999999", VAX_FFMT_H, w, &used), VAX_FLOAT_OVERFLOW);
    assert_int_equal(conv("-Infinity", VAX_FFMT_F, w, &used), VAX_FLOAT_NOT_FINITE);
    assert_int_equal(used, 9);
    assert_int_equal(conv("nan", VAX_FFMT_D, w, &used), VAX_FLOAT_NOT_FINITE);
    /* more than VAX_FLOAT_MAX_DIGITS significant digits */
    static char big[VAX_FLOAT_MAX_DIGITS + 10];
    memset(big, '1', sizeof big - 1);
    assert_int_equal(conv(big, VAX_FFMT_H, w, &used), VAX_FLOAT_TOO_LONG);
    /* ... but zeros do not count */
    memset(big, '0', sizeof big - 1);
    big[0] = '1';
    big[1] = '.';
    assert_int_equal(conv(big, VAX_FFMT_F, w, &used), VAX_FLOAT_OK);
    assert_int_equal(w[0], 0x4080);
}

static void t_scan_end(void **st)
{
    (void)st;
    uint16_t w[8];
    size_t used;
    static const struct {
        const char *s;
        size_t used;
    } tc[] = {
        {"1.5,2", 3}, {"1.5e", 4}, {"1.5e+", 5}, {"1.5e+3x", 6}, {"+", 1}, {"-.", 2},
        {"abc", 0},   {"", 0},     {"12 3", 2},  {"1.2.3", 3},   {"e5", 2}, {"0f1", 1},
    };
    for (size_t i = 0; i < sizeof tc / sizeof tc[0]; i++) {
        conv(tc[i].s, VAX_FFMT_F, w, &used);
        if (used != tc[i].used)
            fail_msg("'%s': read %zu, want %zu", tc[i].s, used, tc[i].used);
    }
}

static void t_short_literals(void **st)
{
    (void)st;
    for (int fmt = VAX_FFMT_F; fmt <= VAX_FFMT_H; fmt++)
        for (int lit = 0; lit < 64; lit++) {
            uint16_t w[8], d[8];
            vax_float_of_short_literal(fmt, lit, w);
            assert_int_equal(vax_float_short_literal(fmt, w), lit);
            /* the same value from its decimal (8 + f) / 16 * 2^e */
            char text[32];
            snprintf(text, sizeof text, "%.6f", (8.0 + (lit & 7)) / 16.0 * (1 << (lit >> 3)));
            size_t used;
            assert_int_equal(conv(text, fmt, d, &used), VAX_FLOAT_OK);
            assert_memory_equal(w, d, (size_t)vax_float_size(fmt));
        }
    /* values that are no literal: zero, negative, 121, 0.25, 1 + 2^-16 */
    static const char *const no[] = {"0", "-1", "121", "0.25", "1.0000152587890625", "128", "9.5"};
    for (int fmt = VAX_FFMT_F; fmt <= VAX_FFMT_H; fmt++)
        for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
            uint16_t w[8];
            size_t used;
            assert_int_equal(conv(no[i], fmt, w, &used), VAX_FLOAT_OK);
            if (vax_float_short_literal(fmt, w) != -1)
                fail_msg("%s is a literal in format %d?", no[i], fmt);
        }
    /* the bytes in memory: words little-endian, word 0 first */
    uint16_t w[8] = {0x40c0, 0x1234};
    uint8_t b[16];
    vax_float_to_bytes(VAX_FFMT_F, w, b);
    assert_int_equal(b[0], 0xc0);
    assert_int_equal(b[1], 0x40);
    assert_int_equal(b[2], 0x34);
    assert_int_equal(b[3], 0x12);
    assert_int_equal(b[4], 0);
    assert_int_equal(vax_float_format('G'), VAX_FFMT_G);
    assert_int_equal(vax_float_format('q'), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_values),
        cmocka_unit_test(t_scan_end),
        cmocka_unit_test(t_short_literals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
