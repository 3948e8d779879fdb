/* Unit tests of the F-box (vax/machine/vm_fbox.c) against values worked
 * out by hand from the VAX formats (comments give the working):
 *   F: word 0 = sign<15> exponent<14:7> (excess 128) fraction<6:0>,
 *      word 1 = the next 16 fraction bits; value 0.1fff x 2^(exp-128);
 *      a longword holds word 0 in bits 15:0.
 *   D: F plus two more words of fraction; G: exponent<14:4> (excess
 *      1024), fraction<3:0> then three words.                          */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "microcode/uword.h"
#include "vax/machine/vm_fbox.h"

/* a few F constants */
#define F_0_5 0x00004000u  /* exp 128, .1 */
#define F_0_75 0x00004040u /* exp 128, .11 */
#define F_1 0x00004080u    /* exp 129, .1 */
#define F_M1 0x0000C080u
#define F_1_5 0x000040C0u /* exp 129, .11 */
#define F_2 0x00004100u   /* exp 130 */
#define F_3 0x00004140u   /* exp 130, .11 */
#define F_3_5 0x00004160u /* exp 130, .111 */
#define F_4_5 0x00004190u /* exp 131, .1001 */
#define F_MAX 0xFFFF7FFFu /* exp 255, all ones */
#define F_MIN 0x00000080u /* exp 1, .1: 2^-128 */

static struct vm_fbox fb;

static int setup(void **state)
{
    (void)state;
    vm_fbox_reset(&fb);
    return 0;
}

static unsigned op(unsigned fop, uint32_t a, uint32_t b) { return vm_fbox_op(&fb, fop, a, b); }

/* FR <- a OP b in F (a on the A bus: FA), rounded to F */
static uint32_t f2(unsigned fop, uint32_t a, uint32_t b)
{
    op(UF_LDFAB, a, b);
    op(fop, 0, 0);
    op(UF_RNDF, 0, 0);
    return fb.fbl;
}

static void add_sub_mul_div_f(void **state)
{
    (void)state;
    assert_int_equal(f2(UF_ADD, F_1, F_2), F_3);
    assert_int_equal(fb.exc, 0);
    assert_int_equal(f2(UF_SUB, F_1, F_1_5), F_0_5);       /* FB - FA */
    assert_int_equal(f2(UF_SUB, F_1_5, F_1), 0x0000C000u); /* -0.5 */
    assert_int_equal(f2(UF_ADD, F_1, F_M1), 0);            /* exact zero */
    /* 1.5 x 1.5 = 2.25 = .1001 x 2^2: exp 130, fraction bits 001 */
    assert_int_equal(f2(UF_MUL, F_1_5, F_1_5), 0x00004110u);
    assert_int_equal(f2(UF_MUL, F_1_5, F_M1), 0x0000C0C0u);
    /* 1/3 = .101010... x 2^-1: exp 127 (0x3F80); 24 bits 0xAAAAAA, the
     * 25th is 1: rounds up to 0xAAAAAB; fraction 0x2AAAAB */
    assert_int_equal(f2(UF_DIV, F_3, F_1), 0xAAAB3FAAu);
    assert_int_equal(f2(UF_DIV, F_2, F_3), F_1_5); /* FB / FA = 3/2 */
}

static void rounding_f(void **state)
{
    (void)state;
    /* 2^-24 = .1 x 2^-23: exp 105 = 0x69 -> 0x3480.  1 + 2^-24 is half
     * an LSB of 1.0 (LSB 2^-23): rounds away from zero to 1 + 2^-23,
     * whose last fraction bit is word 1 bit 0. */
    assert_int_equal(f2(UF_ADD, F_1, 0x00003480u), 0x00014080u);
    assert_int_equal(f2(UF_ADD, F_M1, 0x0000B480u), 0x0001C080u);
    /* 1 + 2^-25 (exp 104 = 0x68 -> 0x3400): below half: 1.0 */
    assert_int_equal(f2(UF_ADD, F_1, 0x00003400u), F_1);
    /* 1 - 2^-25: 24 ones then a one: rounds up to 1.0 */
    assert_int_equal(f2(UF_SUB, 0x00003400u, F_1), F_1);
}

/* The adder truncates toward minus infinity, and CHOP keeps bits of the
 * unnormalized sum.  1.0 - 2^-128: the subtrahend lies wholly below the
 * 128-bit frame of 1.0 (.1 x 2^1), so the difference is .0111...1 x 2^1;
 * its top 24 bits are 0 and 23 ones: normalized, 1 - 2^-23 = .11...10
 * x 2^0 (22 ones then 0 after the hidden bit: words 0x407F, 0xFFFE).
 * A truncating adder would have left 1.0. */
static void subtraction_floor(void **state)
{
    (void)state;
    op(UF_LDFAB, F_MIN, F_1);
    op(UF_SUB, 0, 0);
    op(UF_CHOP, 0, 24);
    op(UF_RNDF, 0, 0);
    assert_int_equal(fb.fbl, 0xFFFE407Fu);
    /* 1.0 - 2^-100 (.1 x 2^-99: exp 29 -> 0x0E80) is inside the frame:
     * .0111...1 (99 ones) followed by zeros: the same 24 bits */
    op(UF_LDFAB, 0x00000E80u, F_1);
    op(UF_SUB, 0, 0);
    op(UF_CHOP, 0, 24);
    op(UF_RNDF, 0, 0);
    assert_int_equal(fb.fbl, 0xFFFE407Fu);
    /* and unchopped it rounds back up to 1.0 */
    op(UF_LDFAB, 0x00000E80u, F_1);
    op(UF_SUB, 0, 0);
    op(UF_RNDF, 0, 0);
    assert_int_equal(fb.fbl, F_1);
}

static void overflow_underflow(void **state)
{
    (void)state;
    f2(UF_MUL, F_MAX, F_2);
    assert_int_equal(fb.exc, 1);
    assert_int_equal(fb.v, 1);
    assert_int_equal(fb.fbl, 0);
    f2(UF_MUL, F_MIN, F_0_5); /* 2^-129: exponent 0 */
    assert_int_equal(fb.exc, 1);
    assert_int_equal(fb.v, 0);
    assert_int_equal(fb.fbl, 0);
    f2(UF_MUL, F_MIN, F_1); /* 2^-128 itself is fine */
    assert_int_equal(fb.exc, 0);
    assert_int_equal(fb.fbl, F_MIN);
    /* the largest F plus its half LSB rounds out of range */
    op(UF_LDDA, 0xFFFF7FFFu, 0xFFFFFFFFu); /* D: 56 ones at exp 255 */
    op(UF_RNDF, 0, 0);
    assert_int_equal(fb.v, 1);
    op(UF_RNDD, 0, 0);
    assert_int_equal(fb.exc, 0);
    assert_int_equal(fb.fbl, 0xFFFF7FFFu);
    assert_int_equal(fb.fbh, 0xFFFFFFFFu);
}

static void divide_by_zero(void **state)
{
    (void)state;
    f2(UF_DIV, 0, F_1); /* 1.0 / 0 */
    assert_int_equal(fb.dz, 1);
    assert_int_equal(fb.exc, 1);
    f2(UF_DIV, 0x0000007Fu, F_1); /* a dirty zero divides by zero too */
    assert_int_equal(fb.dz, 1);
    assert_int_equal(f2(UF_DIV, F_1, 0), 0); /* 0 / 1.0 */
    assert_int_equal(fb.exc, 0);
    assert_int_equal(fb.dz, 0);
}

static void reserved_and_zeros(void **state)
{
    (void)state;
    op(UF_LDFA, 0x00008000u, 0);
    assert_int_equal(fb.rsv, 1);
    op(UF_LDFA, F_1, 0);
    assert_int_equal(fb.rsv, 0);
    op(UF_LDFB, 0, 0x0000807Fu); /* sign 1, exponent 0, fraction != 0 */
    assert_int_equal(fb.rsv, 1); /* a B load adds to it */
    op(UF_LDFAB, 0x1234007Fu, F_1); /* dirty zero (sign 0): zero */
    assert_int_equal(fb.rsv, 0);
    op(UF_ADD, 0, 0);
    op(UF_RNDF, 0, 0);
    assert_int_equal(fb.fbl, F_1);
    op(UF_LDGA, 0x00008000u, 0);
    assert_int_equal(fb.rsv, 1);
    op(UF_LDGA, 0x0000800Fu, 0); /* G exponent<14:4> = 0, sign 1 */
    assert_int_equal(fb.rsv, 1);
    op(UF_LDGA, 0x00008010u, 0); /* exponent 1 */
    assert_int_equal(fb.rsv, 0);
}

static void compare(void **state)
{
    (void)state;
    op(UF_LDFAB, F_M1, F_1);
    op(UF_FCMP, 0, 0);
    assert_int_equal(fb.fbl, 0xFFFFFFFFu);
    op(UF_LDFAB, F_1, F_M1);
    op(UF_FCMP, 0, 0);
    assert_int_equal(fb.fbl, 1);
    op(UF_LDFAB, 0x00000000u, 0x5555007Fu); /* zero, dirty zero */
    op(UF_FCMP, 0, 0);
    assert_int_equal(fb.fbl, 0);
    op(UF_LDFAB, 0x0000C100u, F_M1); /* -2 < -1 */
    op(UF_FCMP, 0, 0);
    assert_int_equal(fb.fbl, 0xFFFFFFFFu);
    op(UF_LDFAB, 0x00014080u, F_1); /* 1 + 2^-23 > 1 */
    op(UF_FCMP, 0, 0);
    assert_int_equal(fb.fbl, 1);
}

static uint32_t cvt(unsigned fop, uint32_t x, unsigned w)
{
    op(UF_LDFA, x, 0);
    op(fop, 0, w);
    return fb.fbl;
}

static void to_integer(void **state)
{
    (void)state;
    assert_int_equal(cvt(UF_CVTI, F_3_5, 32), 3);
    assert_int_equal(cvt(UF_CVTRI, F_3_5, 32), 4);
    assert_int_equal(cvt(UF_CVTI, 0x0000C160u, 32), 0xFFFFFFFDu); /* -3.5 */
    assert_int_equal(cvt(UF_CVTRI, 0x0000C160u, 32), 0xFFFFFFFCu);
    assert_int_equal(cvt(UF_CVTI, F_0_5, 32), 0);
    assert_int_equal(cvt(UF_CVTRI, F_0_5, 32), 1);  /* half: away from zero */
    assert_int_equal(cvt(UF_CVTRI, 0x00003F80u, 32), 0); /* 0.25 */
    assert_int_equal(cvt(UF_CVTRI, 0x00004120u, 32), 3); /* 2.5 = .101 x 2^2 */
    /* 200.0 = .11001 x 2^8: exp 136 = 0x4400, fraction 1001 -> 0x48 */
    assert_int_equal(cvt(UF_CVTI, 0x00004448u, 8), 200);
    assert_int_equal(fb.iov, 1);
    assert_int_equal(cvt(UF_CVTI, 0x00004448u, 16), 200);
    assert_int_equal(fb.iov, 0);
    cvt(UF_CVTI, 0x0000C400u, 8); /* -128 fits a byte */
    assert_int_equal(fb.iov, 0);
    cvt(UF_CVTI, 0x00004400u, 8); /* +128 does not */
    assert_int_equal(fb.iov, 1);
    /* 2^40 = .1 x 2^41: exp 169 = 0xA9 -> 0x5480; low longword 0 */
    assert_int_equal(cvt(UF_CVTI, 0x00005480u, 32), 0);
    assert_int_equal(fb.iov, 1);
    /* D 2^32 + 5: .1000...0101 x 2^33, exp 161 = 0xA1 -> 0x5080; the
     * 2^2 and 2^0 are bits 25 and 23 of the 55-bit fraction (bit 54 is
     * 2^31): word 2 (fraction bits 31:16) = 0x0280 */
    op(UF_LDDA, 0x00005080u, 0x00000280u);
    op(UF_CVTI, 0, 32);
    assert_int_equal(fb.fbl, 5);
    assert_int_equal(fb.iov, 1);
    /* -2^31 fits; 2^31 does not */
    assert_int_equal(cvt(UF_CVTI, 0x0000D000u, 32), 0x80000000u);
    assert_int_equal(fb.iov, 0);
    cvt(UF_CVTI, 0x00005000u, 32);
    assert_int_equal(fb.iov, 1);
}

static void from_integer(void **state)
{
    (void)state;
    op(UF_LDI, 0xFFFFFFFFu, 32);
    op(UF_RNDF, 0, 0);
    assert_int_equal(fb.fbl, F_M1);
    op(UF_LDI, 0x000000FFu, 8); /* a byte: -1 */
    op(UF_RNDF, 0, 0);
    assert_int_equal(fb.fbl, F_M1);
    /* 0x7FFFFFFF: 31 ones, rounded to 24 bits carries to 2^31 = .1 x
     * 2^32: exp 160 = 0xA0 -> 0x5000 */
    op(UF_LDI, 0x7FFFFFFFu, 32);
    op(UF_RNDF, 0, 0);
    assert_int_equal(fb.fbl, 0x00005000u);
    /* in D it is exact: .111..1 (31 ones) x 2^31, exp 159 = 0x4F80 */
    op(UF_LDI, 0x7FFFFFFFu, 32);
    op(UF_RNDD, 0, 0);
    assert_int_equal(fb.fbl, 0xFFFF4FFFu);
    assert_int_equal(fb.fbh, 0x0000FE00u); /* fraction bits 31:25 in word 2 */
    op(UF_LDI, 0, 32);
    op(UF_RNDG, 0, 0);
    assert_int_equal(fb.fbl, 0);
    assert_int_equal(fb.exc, 0);
}

static void d_and_g(void **state)
{
    (void)state;
    /* D 1/3: 56-bit mantissa 0xAAAAAAAAAAAAAB (rounded up), fraction
     * 0x2AAAAAAAAAAAAB: words 0x3FAA 0xAAAA 0xAAAA 0xAAAB */
    op(UF_LDDA, 0x00004140u, 0); /* 3.0 */
    op(UF_LDDB, 0x00004080u, 0); /* 1.0 */
    op(UF_DIV, 0, 0);
    op(UF_RNDD, 0, 0);
    assert_int_equal(fb.fbl, 0xAAAA3FAAu);
    assert_int_equal(fb.fbh, 0xAAABAAAAu);
    /* G 1/3: exp 1023 = 0x3FF0; 53-bit mantissa 1 0101...0101, the 54th
     * bit 0: fraction 0x5555555555555 */
    op(UF_LDGA, 0x00004028u, 0); /* 3.0 = .11 x 2^2: exp 1026 = 0x4020, then 0x8 */
    op(UF_LDGB, 0x00004010u, 0); /* 1.0: exp 1025 */
    op(UF_DIV, 0, 0);
    op(UF_RNDG, 0, 0);
    assert_int_equal(fb.fbl, 0x55553FF5u);
    assert_int_equal(fb.fbh, 0x55555555u);
    /* G 1 + 2^-53 (2^-53 = .1 x 2^-52: exp 972 = 0x3CC0): half an LSB,
     * rounds away to 1 + 2^-52: word 3 = 1 */
    op(UF_LDGA, 0x00003CC0u, 0);
    op(UF_LDGB, 0x00004010u, 0);
    op(UF_ADD, 0, 0);
    op(UF_RNDG, 0, 0);
    assert_int_equal(fb.fbl, 0x00004010u);
    assert_int_equal(fb.fbh, 0x00010000u);
    /* F -> G exactly, G -> F with underflow: 2^-200 (exp 825 = 0x3390) */
    op(UF_LDFA, F_3_5, 0);
    op(UF_RNDG, 0, 0);
    assert_int_equal(fb.fbl, 0x0000402Cu); /* 3.5: exp 1026, fraction .11 -> 0xC */
    op(UF_LDGA, 0x00003390u, 0);
    op(UF_RNDF, 0, 0);
    assert_int_equal(fb.exc, 1);
    assert_int_equal(fb.v, 0);
}

/* EMOD's pieces: extension, product, 32-bit truncation, split. */
static void emod_parts(void **state)
{
    (void)state;
    /* 0.75 x 4.5 = 3.375: integer 3, fraction .375 = .11 x 2^-1 (0x3FC0) */
    op(UF_LDFAB, F_0_75, F_4_5);
    op(UF_EXT, 0, 0);
    op(UF_MUL, 0, 0);
    op(UF_CHOP, 0, 32);
    op(UF_SPLIT, 0, 0);
    assert_int_equal(fb.fbl, 3);
    assert_int_equal(fb.iov, 0);
    op(UF_RNDF, 0, 0);
    assert_int_equal(fb.fbl, 0x00003FC0u);
    /* negative: -3 and -0.375 */
    op(UF_LDFAB, 0x0000C040u, F_4_5);
    op(UF_MUL, 0, 0);
    op(UF_CHOP, 0, 32);
    op(UF_SPLIT, 0, 0);
    assert_int_equal(fb.fbl, 0xFFFFFFFDu);
    op(UF_RNDF, 0, 0);
    assert_int_equal(fb.fbl, 0x0000BFC0u);
    /* 1.0 extended by 0x80 is 1 + 2^-24; times 2^24 (exp 153 = 0x4C80)
     * is 2^24 + 1 exactly, fraction 0 */
    op(UF_LDFAB, F_1, 0x00004C80u);
    op(UF_EXT, 0x80, 0);
    op(UF_MUL, 0, 0);
    op(UF_CHOP, 0, 32);
    op(UF_SPLIT, 0, 0);
    assert_int_equal(fb.fbl, 16777217);
    op(UF_RNDF, 0, 0);
    assert_int_equal(fb.fbl, 0);
    /* integer part 2^31: overflows positive, fits negative */
    op(UF_LDFAB, F_1, 0x00005000u);
    op(UF_MUL, 0, 0);
    op(UF_SPLIT, 0, 0);
    assert_int_equal(fb.fbl, 0x80000000u);
    assert_int_equal(fb.iov, 1);
    op(UF_LDFAB, F_M1, 0x00005000u);
    op(UF_MUL, 0, 0);
    op(UF_SPLIT, 0, 0);
    assert_int_equal(fb.fbl, 0x80000000u);
    assert_int_equal(fb.iov, 0);
    /* the G extension is A<15:5>: 1.0 (.1 x 2^1) extended by 11 ones is
     * 2^-1 + 2^-54 + ... + 2^-64 (times 2^1).  Times 2^63 (.1 x 2^64,
     * exp 1088 = 0x4400) the product's fraction is 2^-2 + 2^-55 + ... +
     * 2^-65: kept to 64 bits before normalizing it loses 2^-65, so the
     * integer is 2^63 + 2^10 + ... + 2^1 = 2^63 + 2046, the fraction 0 */
    op(UF_LDGA, 0x00004010u, 0);
    op(UF_EXT, 0xFFE0u, 0);
    op(UF_LDGB, 0x00004400u, 0);
    op(UF_MUL, 0, 0);
    op(UF_CHOP, 0, 64);
    op(UF_SPLIT, 0, 0);
    assert_int_equal(fb.fbl, 2046);
    assert_int_equal(fb.iov, 1);
    op(UF_RNDG, 0, 0);
    assert_int_equal(fb.fbl, 0);
    assert_int_equal(fb.fbh, 0);
}

static void timing(void **state)
{
    (void)state;
    op(UF_LDFAB, F_1, F_2);
    assert_int_equal(op(UF_ADD, 0, 0), 2);
    assert_int_equal(op(UF_MUL, 0, 0), 2);
    assert_int_equal(op(UF_DIV, 0, 0), 6);
    assert_int_equal(op(UF_RNDF, 0, 0), 0);
    op(UF_LDDA, F_1, 0);
    op(UF_LDDB, F_2, 0);
    assert_int_equal(op(UF_MUL, 0, 0), 4);
    assert_int_equal(op(UF_DIV, 0, 0), 14);
    op(UF_LDGA, 0x00004010u, 0);
    op(UF_LDGB, 0x00004010u, 0);
    assert_int_equal(op(UF_DIV, 0, 0), 13);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(add_sub_mul_div_f, setup),
        cmocka_unit_test_setup(rounding_f, setup),
        cmocka_unit_test_setup(subtraction_floor, setup),
        cmocka_unit_test_setup(overflow_underflow, setup),
        cmocka_unit_test_setup(divide_by_zero, setup),
        cmocka_unit_test_setup(reserved_and_zeros, setup),
        cmocka_unit_test_setup(compare, setup),
        cmocka_unit_test_setup(to_integer, setup),
        cmocka_unit_test_setup(from_integer, setup),
        cmocka_unit_test_setup(d_and_g, setup),
        cmocka_unit_test_setup(emod_parts, setup),
        cmocka_unit_test_setup(timing, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
