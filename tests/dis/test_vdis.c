/* Unit tests of the disassembler (vax/dis): exact text for known byte
 * sequences in every operand-specifier mode, the SPAM opcodes, reserved
 * opcodes, invalid specifiers, truncation, and never reading past the
 * buffer (every buffer here is heap-allocated at its exact size, so ASan
 * reports any overrun). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vax/dis/vdis.h"
#include "vax/isa/vax_opcodes.h"

struct tcase {
    uint32_t addr;
    const char *hex;  /* bytes as hex pairs, spaces ignored */
    int len;          /* expected length of the first instruction */
    const char *text; /* expected text                        */
    unsigned flags;
};

static size_t parse_hex(const char *hex, uint8_t *out, size_t max)
{
    size_t n = 0;
    while (*hex) {
        if (*hex == ' ') {
            hex++;
            continue;
        }
        unsigned v;
        if (sscanf(hex, "%2x", &v) != 1 || n == max)
            fail_msg("bad hex in test table: %s", hex);
        out[n++] = (uint8_t)v;
        hex += 2;
    }
    return n;
}

/* Disassemble from a heap buffer of exactly n bytes. */
static int dis_exact(const uint8_t *bytes, size_t n, uint32_t addr,
                     unsigned flags, struct vdis_insn *in)
{
    uint8_t *buf = malloc(n ? n : 1);
    assert_non_null(buf);
    memcpy(buf, bytes, n);
    int len = vdis_one_ex(buf, n, addr, flags, in);
    free(buf);
    return len;
}

static void run_cases(const struct tcase *tc, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        uint8_t b[64];
        size_t n = parse_hex(tc[i].hex, b, sizeof b);
        struct vdis_insn in;
        int len = dis_exact(b, n, tc[i].addr, tc[i].flags, &in);
        if (strcmp(in.text, tc[i].text) != 0 || len != tc[i].len ||
            in.len != len)
            fail_msg("bytes %s at 0x%x: got \"%s\" (len %d), expected "
                     "\"%s\" (len %d)", tc[i].hex, (unsigned)tc[i].addr,
                     in.text, len, tc[i].text, tc[i].len);
        if (strncmp(tc[i].text, ".byte", 5) == 0)
            assert_null(in.name);
        else
            assert_non_null(in.name);
        assert_int_equal(in.addr, tc[i].addr);
    }
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_known_sequences(void **state)
{
    (void)state;
    static const struct tcase tc[] = {
        /* the dossier's examples */
        {0, "d0 8f 78 56 34 12 52", 7, "movl\t$0x12345678,%r2", 0},
        {0, "d0 9f 78 56 34 12 52", 7, "movl\t*$0x12345678,%r2", 0},
        {0, "d0 41 60 52", 4, "movl\t(%r0)[%r1],%r2", 0},
        {0x10F0, "d0 af 10 52", 4, "movl\tb`0x1103,%r2", 0},
        {0, "00", 1, "halt", 0},
        {0, "01", 1, "nop", 0},
        {0, "02", 1, "rei", 0},
        {0, "fc", 1, "xfc", 0},
        {0, "04", 1, "ret", 0},
    };
    run_cases(tc, N(tc));
}

static void test_every_mode(void **state)
{
    (void)state;
    static const struct tcase tc[] = {
        /* short literal, 0..63, decimal */
        {0, "d0 00 50", 3, "movl\ts`$0,%r0", 0},
        {0, "d0 3f 50", 3, "movl\ts`$63,%r0", 0},
        {0, "d0 15 5b", 3, "movl\ts`$21,%r11", 0},
        /* register, all names */
        {0, "d0 5c 5d", 3, "movl\t%ap,%fp", 0},
        {0, "d0 5e 5a", 3, "movl\t%sp,%r10", 0},
        /* register deferred, autodecrement, autoincrement, deferred */
        {0, "d0 63 52", 3, "movl\t(%r3),%r2", 0},
        {0, "d0 7e 52", 3, "movl\t-(%sp),%r2", 0},
        {0, "d0 8e 52", 3, "movl\t(%sp)+,%r2", 0},
        {0, "d0 93 52", 3, "movl\t*(%r3)+,%r2", 0},
        /* immediate sized by the operand type; 0..63 as I^ */
        {0, "90 8f ff 52", 4, "movb\t$0xff,%r2", 0},
        {0, "b0 8f 34 12 52", 5, "movw\t$0x1234,%r2", 0},
        {0, "d0 8f ff ff ff ff 50", 7, "movl\t$0xffffffff,%r0", 0},
        {0, "d0 8f 05 00 00 00 50", 7, "movl\tI^$5,%r0", 0},
        {0, "d0 8f 40 00 00 00 50", 7, "movl\t$0x40,%r0", 0},
        {0, "90 8f 3f 52", 4, "movb\tI^$63,%r2", 0},
        {0, "7d 8f 88 77 66 55 44 33 22 11 52", 11,
         "movq\t$0x1122334455667788,%r2", 0},
        {0, "7d 8f 07 00 00 00 00 00 00 00 52", 11, "movq\tI^$7,%r2", 0},
        {0, "7d 8f 07 00 00 00 01 00 00 00 52", 11,
         "movq\t$0x100000007,%r2", 0},
        {0, "78 8f 40 50 51", 5, "ashl\t$0x40,%r0,%r1", 0},
        /* byte/word/long displacement and deferred, signed */
        {0, "d0 a1 04 52", 4, "movl\tb`0x4(%r1),%r2", 0},
        {0, "d0 a1 fc 52", 4, "movl\tb`-0x4(%r1),%r2", 0},
        {0, "d0 b1 04 52", 4, "movl\t*b`0x4(%r1),%r2", 0},
        {0, "d0 c1 04 00 52", 5, "movl\tw`0x4(%r1),%r2", 0},
        {0, "d0 cd 00 80 52", 5, "movl\tw`-0x8000(%fp),%r2", 0},
        {0, "d0 d1 ff 7f 52", 5, "movl\t*w`0x7fff(%r1),%r2", 0},
        {0, "d0 e1 04 00 00 00 52", 7, "movl\tl`0x4(%r1),%r2", 0},
        {0, "d0 ec 00 00 00 80 52", 7, "movl\tl`-0x80000000(%ap),%r2", 0},
        {0, "d0 f1 78 56 34 12 52", 7, "movl\t*l`0x12345678(%r1),%r2", 0},
        /* PC-relative: target = address after the displacement + disp */
        {0x1000, "d0 af fc 52", 4, "movl\tb`0xfff,%r2", 0},
        {0x1000, "d0 bf 10 52", 4, "movl\t*b`0x1013,%r2", 0},
        {0x1000, "d0 cf 00 01 52", 5, "movl\tw`0x1104,%r2", 0},
        {0x1000, "d0 df 00 01 52", 5, "movl\t*w`0x1104,%r2", 0},
        {0x1000, "d0 ef 00 00 01 00 52", 7, "movl\tl`0x11006,%r2", 0},
        {0x1000, "d0 ff fa ef ff ff 52", 7, "movl\t*l`0x0,%r2", 0},
        {0x1000, "d0 52 af 10", 4, "movl\t%r2,b`0x1014", 0},
        /* PC-relative as raw displacement (GNU-as form) */
        {0x1000, "d0 af fc 52", 4, "movl\tb`-0x4(%pc),%r2",
         VDIS_PCREL_AS_DISP},
        {0x1000, "d0 ff 10 00 00 00 52", 7, "movl\t*l`0x10(%pc),%r2",
         VDIS_PCREL_AS_DISP},
        /* address wraps around 2^32 */
        {0xFFFFFFF0, "d0 af 7f 52", 4, "movl\tb`0x72,%r2", 0},
        /* index mode with every base mode that allows it */
        {0, "d0 41 60 52", 4, "movl\t(%r0)[%r1],%r2", 0},
        {0, "d0 42 73 52", 4, "movl\t-(%r3)[%r2],%r2", 0},
        {0, "d0 42 83 52", 4, "movl\t(%r3)+[%r2],%r2", 0},
        {0, "d0 42 93 52", 4, "movl\t*(%r3)+[%r2],%r2", 0},
        {0, "d0 42 a1 fc 53", 5, "movl\tb`-0x4(%r1)[%r2],%r3", 0},
        {0, "d0 4b b1 04 53", 5, "movl\t*b`0x4(%r1)[%r11],%r3", 0},
        {0, "d0 4c c1 04 00 53", 6, "movl\tw`0x4(%r1)[%ap],%r3", 0},
        {0, "d0 4e f1 04 00 00 00 53", 8, "movl\t*l`0x4(%r1)[%sp],%r3", 0},
        {0, "d0 44 9f 00 10 00 00 53", 8, "movl\t*$0x1000[%r4],%r3", 0},
        {0x2000, "d0 44 af 00 53", 5, "movl\tb`0x2004[%r4],%r3", 0},
        {0, "d4 41 60", 3, "clrl\t(%r0)[%r1]", 0},
        /* address operands */
        {0, "9e ef 00 00 00 00 50", 7, "movab\tl`0x6,%r0", 0},
        {0, "df 8f 78 56 34 12", 6, "pushal\t$0x12345678", 0},
        {0, "16 b1 08", 3, "jsb\t*b`0x8(%r1)", 0},
        {0, "17 9f 00 02 00 00", 6, "jmp\t*$0x200", 0},
        /* bit-field base may be a register */
        {0, "ef 00 08 51 52", 5, "extzv\ts`$0,s`$8,%r1,%r2", 0},
    };
    run_cases(tc, N(tc));
}

static void test_branches(void **state)
{
    (void)state;
    static const struct tcase tc[] = {
        {0x1000, "11 fe", 2, "brb\t0x1000", 0},
        {0x1000, "11 7f", 2, "brb\t0x1081", 0},
        {0x1000, "11 80", 2, "brb\t0xf82", 0},
        {0x1000, "31 00 80", 3, "brw\t0xffff9003", 0},
        {0x1000, "31 fd ff", 3, "brw\t0x1000", 0},
        {0x1000, "30 10 00", 3, "bsbw\t0x1013", 0},
        {0x1000, "12 00", 2, "bneq\t0x1002", 0},
        {0x1000, "1e 00", 2, "bgequ\t0x1002", 0},
        {0x1000, "1f 00", 2, "blssu\t0x1002", 0},
        {0x1000, "e0 01 50 05", 4, "bbs\ts`$1,%r0,0x1009", 0},
        {0x1000, "e8 50 fd", 3, "blbs\t%r0,0x1000", 0},
        {0x1000, "f1 01 02 50 f9 ff", 6, "acbl\ts`$1,s`$2,%r0,0xfff", 0},
        {0x1000, "3d 01 02 50 00 00", 6, "acbw\ts`$1,s`$2,%r0,0x1006", 0},
        {0x1000, "9d 01 02 50 00 00", 6, "acbb\ts`$1,s`$2,%r0,0x1006", 0},
        {0x1000, "f2 0a 50 fc", 4, "aoblss\ts`$10,%r0,0x1000", 0},
        {0x1000, "f5 50 fd", 3, "sobgtr\t%r0,0x1000", 0},
        {0x1000, "cf 50 00 02", 4, "casel\t%r0,s`$0,s`$2", 0},
        {0x1000, "fb 02 ef 00 00 00 00", 7, "calls\ts`$2,l`0x1007", 0},
        {0x1000, "bc 8f 01 01", 4, "chmk\t$0x101", 0},
        {0x1000, "da 01 12", 3, "mtpr\ts`$1,s`$18", 0},
        {0x1000, "db 12 50", 3, "mfpr\ts`$18,%r0", 0},
        {0x1000, "0a 50 01 0a 04 51 52", 7,
         "index\t%r0,s`$1,s`$10,s`$4,%r1,%r2", 0},
    };
    run_cases(tc, N(tc));
}

static void test_spam_opcodes(void **state)
{
    (void)state;
    static const struct tcase tc[] = {
        {0, "fd 00", 2, "getstat", 0},
        {0, "fd 01", 2, "pamminit", 0},
        {0, "fd 02", 2, "enable", 0},
        {0, "fd 03", 2, "disable", 0},
        {0, "fd 04", 2, "readbuf", 0},
        {0, "fd 05", 2, "setptrs", 0},
        {0, "fd 06", 2, "prbload", 0}, /* the probe unit's (PROBES.md) */
        {0, "fd 07", 2, "prbctl", 0},
        {0, "fd 08", 2, "prbread", 0},
        {0, "fd 09", 1, ".byte\t0xfd", 0},
        {0, "fd 7d 50 52", 4, "movo\t%r0,%r2", 0}, /* the FD page's own opcodes */
        {0, "fd", 1, ".byte\t0xfd", 0},          /* truncated */
    };
    run_cases(tc, N(tc));
    struct vdis_insn in;
    static const uint8_t b[] = {0xFD, 0x04};
    dis_exact(b, 2, 0, 0, &in);
    assert_int_equal(in.opcode, 0xFD04);
    assert_string_equal(in.name, "readbuf");
}

static void test_reserved_opcodes(void **state)
{
    (void)state;
    static const char *const rsvd[] = {"57", "59", "5a", "5b", "77", "fe",
                                       "ff", "ff fd 50", "ff fe 50",
                                       "fd 09 50", "fd 31 50", "fd 34 50",
                                       "fd 57 50", "fd 77 50", "fd 7b 50",
                                       "fd 80 50", "fd 97 50", "fd 9a 50",
                                       "fd f5 50", "fd f8 50", "fd fd 50",
                                       "fd ff 50"};
    for (size_t i = 0; i < N(rsvd); i++) {
        uint8_t b[8];
        size_t n = parse_hex(rsvd[i], b, sizeof b);
        struct vdis_insn in;
        char want[32];
        snprintf(want, sizeof want, ".byte\t0x%02x", b[0]);
        assert_int_equal(dis_exact(b, n, 0, 0, &in), 1);
        assert_string_equal(in.text, want);
        assert_null(in.name);
    }
}

static void test_invalid_specifiers(void **state)
{
    (void)state;
    static const struct tcase tc[] = {
        /* PC in register, register deferred, autodecrement modes */
        {0, "d0 5f 52", 1, ".byte\t0xd0", 0},
        {0, "d0 6f 52", 1, ".byte\t0xd0", 0},
        {0, "d0 7f 52", 1, ".byte\t0xd0", 0},
        /* literal as a destination / address / field base */
        {0, "d0 52 05", 1, ".byte\t0xd0", 0},
        {0, "d4 05", 1, ".byte\t0xd4", 0},
        {0, "9f 05", 1, ".byte\t0x9f", 0},
        {0, "ef 00 08 05 52", 1, ".byte\t0xef", 0},
        /* register as an address operand */
        {0, "9f 50", 1, ".byte\t0x9f", 0},
        {0, "17 51", 1, ".byte\t0x17", 0},
        /* quadword register pair running into the PC */
        {0, "7d 5e 50", 1, ".byte\t0x7d", 0},
        {0, "7d 50 5e", 1, ".byte\t0x7d", 0},
        /* immediate as a destination */
        {0, "d4 8f 00 00 00 00", 1, ".byte\t0xd4", 0},
        /* index prefix: PC as index, literal/register/index base,
         * immediate base, autoincrement of the index register */
        {0, "d0 4f 60 52", 1, ".byte\t0xd0", 0},
        {0, "d0 41 05 52", 1, ".byte\t0xd0", 0},
        {0, "d0 41 52 52", 1, ".byte\t0xd0", 0},
        {0, "d0 41 42 60 52", 1, ".byte\t0xd0", 0},
        {0, "d0 41 8f 00 00 00 00 52", 1, ".byte\t0xd0", 0},
        {0, "d0 41 81 52", 1, ".byte\t0xd0", 0},
        {0, "d0 41 71 52", 1, ".byte\t0xd0", 0},
        /* lenient mode prints what has a syntax */
        {0, "d0 5f 52", 3, "movl\t%pc,%r2", VDIS_LENIENT},
        {0, "d4 05", 2, "clrl\ts`$5", VDIS_LENIENT},
        {0, "9f 50", 2, "pushab\t%r0", VDIS_LENIENT},
        {0, "d0 41 52 53", 4, "movl\t%r2[%r1],%r3", VDIS_LENIENT},
        {0, "d0 41 42 60 52", 1, ".byte\t0xd0", VDIS_LENIENT},
    };
    run_cases(tc, N(tc));
}

/* Every table opcode decodes with register operands (or zero branch
 * displacements), gives its primary name and consumes exactly its bytes;
 * every proper prefix of it is a one-byte .byte. */
/* Floating, octaword and decimal instructions: floating immediates are
 * printed as their bits (SIMH's ex -m shows them so), 16-byte ones as one
 * 128-bit number; 8- and 16-byte register operands must leave out PC. */
static void test_float_octa_decimal(void **state)
{
    (void)state;
    static const struct tcase tc[] = {
        {0, "50 0c 50", 3, "movf\ts`$12,%r0", 0},                 /* 1.5 */
        {0, "50 8f c0 40 00 00 50", 7, "movf\t$0x40c0,%r0", 0},   /* 1.5 */
        {0, "70 8f 53 41 33 33 33 33 33 33 50", 11,
         "movd\t$0x3333333333334153,%r0", 0},                      /* 3.3 */
        {0, "fd 50 8f 2a 40 66 66 66 66 66 66 50", 12,
         "movg\t$0x666666666666402a,%r0", 0},
        {0, "fd 70 8f 01 40 00 80 00 00 00 00 00 00 00 00 00 00 00 00 50", 20,
         "movh\t$0x80004001,%r0", 0},
        {0, "fd 7d 8f 10 32 54 76 98 ba dc fe ef cd ab 89 67 45 23 01 52", 20,
         "movo\t$0x123456789abcdeffedcba9876543210,%r2", 0},
        {0, "fd 7d 8f 05 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 52", 20,
         "movo\tI^$5,%r2", 0},
        {0, "fd 7d 8f 05 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 52", 20,
         "movo\t$0x10000000000000005,%r2", 0},
        {0, "fd 7d 5b 52", 4, "movo\t%r11,%r2", 0},
        {0, "fd 7d 5c 52", 1, ".byte\t0xfd", 0},  /* ap..pc */
        {0, "fd 7d 52 5c", 1, ".byte\t0xfd", 0},
        {0, "fd 7c 5b", 3, "clro\t%r11", 0},
        {0, "7c 5d", 2, "clrq\t%fp", 0},
        {0, "70 5e 50", 1, ".byte\t0x70", 0},     /* D in sp, pc */
        {0, "fd 98 52 5b", 4, "cvtfh\t%r2,%r11", 0},
        {0, "fd 33 8f 00 00 00 00 00 00 00 00 50", 12,
         "cvtgf\tI^$0,%r0", 0},
        {0, "fd 32 5e 50", 1, ".byte\t0xfd", 0},  /* CVTDH from sp:pc */
        {0x100, "4f 8f 20 41 00 00 0c 51 f6 ff", 10,
         "acbf\t$0x4120,s`$12,%r1,0x100", 0},
        {0, "54 51 8f ff 52 53 54", 7, "emodf\t%r1,$0xff,%r2,%r3,%r4", 0},
        {0, "fd 54 51 8f ff 00 52 53 54", 9, "emodg\t%r1,$0xff,%r2,%r3,%r4", 0},
        {0, "75 50 06 63", 4, "polyd\t%r0,s`$6,(%r3)", 0},
        {0, "20 04 61 06 62", 5, "addp4\ts`$4,(%r1),s`$6,(%r2)", 0},
        {0, "38 04 61 62 63", 5, "editpc\ts`$4,(%r1),(%r2),(%r3)", 0},
        {0, "f8 8f fe 1f 61 05 1f 62", 8, "ashp\t$0xfe,s`$31,(%r1),s`$5,s`$31,(%r2)", 0},
        {0, "f9 50 1f 63", 4, "cvtlp\t%r0,s`$31,(%r3)", 0},
        {0, "09 05 61 1f 62", 5, "cvtsp\ts`$5,(%r1),s`$31,(%r2)", 0},
        {0, "38 04 51 62 63", 1, ".byte\t0x38", 0}, /* a register is no address */
    };
    run_cases(tc, N(tc));
}

static void test_every_opcode_and_truncation(void **state)
{
    (void)state;
    int checked = 0;
    for (size_t i = 0; i < vax_opcode_count; i++) {
        const struct vax_opcode *op = &vax_opcodes[i];
        if (vax_opcode_by_code(op->code) != op)
            continue; /* alias */
        uint8_t b[32];
        size_t n = 0;
        if (op->code > 0xFF)
            b[n++] = 0xFD;
        b[n++] = (uint8_t)op->code;
        int nop = vax_opcode_noperands(op);
        for (int k = 0; k < nop; k++) {
            struct vax_operand_desc od = vax_opcode_operand(op, k);
            if (od.access == 'b') {
                for (int j = 0; j < vax_dtype_size(od.dtype); j++)
                    b[n++] = 0;
            } else if (od.access == 'a') {
                b[n++] = 0x62; /* (r2) */
            } else {
                b[n++] = 0x52; /* r2 */
            }
        }
        struct vdis_insn in;
        int len = dis_exact(b, n, 0x4000, 0, &in);
        if (len != (int)n || in.name == NULL ||
            strcmp(in.name, op->name) != 0 ||
            strncmp(in.text, op->name, strlen(op->name)) != 0)
            fail_msg("opcode 0x%x (%s): got \"%s\" len %d, want len %zu",
                     op->code, op->name, in.text, len, n);
        assert_int_equal(in.opcode, op->code);
        for (size_t cut = 1; cut < n; cut++) {
            struct vdis_insn t;
            char want[32];
            snprintf(want, sizeof want, ".byte\t0x%02x", b[0]);
            assert_int_equal(dis_exact(b, cut, 0x4000, 0, &t), 1);
            assert_string_equal(t.text, want);
            assert_null(t.name);
        }
        checked++;
    }
    assert_true(checked > 290);
}

static void test_truncated_specifiers(void **state)
{
    (void)state;
    static const char *const full[] = {
        "d0 8f 78 56 34 12 52", "d0 9f 78 56 34 12 52",
        "d0 ef 00 00 00 00 52", "d0 41 e1 00 00 00 00 52",
        "7d 8f 88 77 66 55 44 33 22 11 52", "31 00 10",
        "f1 01 02 50 f9 ff",
    };
    for (size_t i = 0; i < N(full); i++) {
        uint8_t b[32];
        size_t n = parse_hex(full[i], b, sizeof b);
        struct vdis_insn in;
        assert_int_equal(dis_exact(b, n, 0, 0, &in), (int)n);
        for (size_t cut = 1; cut < n; cut++) {
            assert_int_equal(dis_exact(b, cut, 0, 0, &in), 1);
            assert_string_equal(strncmp(in.text, ".byte", 5) == 0 ? "y" : "n",
                                "y");
        }
    }
    struct vdis_insn in;
    assert_int_equal(vdis_one(NULL, 0, 0x10, &in), 0);
    assert_string_equal(in.text, "");
}

/* All one- and two-byte buffers, and a pseudo-random sweep: progress is
 * always made, length never exceeds the buffer, text is terminated. */
static void test_sweep(void **state)
{
    (void)state;
    struct vdis_insn in;
    for (unsigned v = 0; v < 0x10000; v++) {
        uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
        int len = dis_exact(b, 2, v, 0, &in);
        assert_true(len >= 1 && len <= 2);
        len = dis_exact(b, 1, v, 0, &in);
        assert_int_equal(len, 1);
    }
    uint64_t s = 12345;
    uint8_t *buf = malloc(4096);
    assert_non_null(buf);
    for (int iter = 0; iter < 64; iter++) {
        for (int i = 0; i < 4096; i++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            buf[i] = (uint8_t)(s >> 56);
        }
        for (unsigned flags = 0; flags < 4; flags++) {
            size_t off = 0;
            while (off < 4096) {
                int len = vdis_one_ex(buf + off, 4096 - off,
                                      (uint32_t)off, flags, &in);
                assert_true(len >= 1 && (size_t)len <= 4096 - off);
                assert_true(strlen(in.text) < sizeof in.text);
                off += (size_t)len;
            }
        }
    }
    free(buf);
}

/* The longest possible text fits the buffer: six operands of the longest
 * form. */
static void test_longest_text(void **state)
{
    (void)state;
    uint8_t b[64];
    size_t n = 0;
    b[n++] = 0x0A; /* index: 5 x rl, wl */
    for (int k = 0; k < 6; k++) {
        b[n++] = 0x4B; /* [%r11] */
        b[n++] = 0xFA; /* *l`disp(%r10) */
        b[n++] = 0x00; b[n++] = 0x00; b[n++] = 0x00; b[n++] = 0x80;
    }
    struct vdis_insn in;
    assert_int_equal(dis_exact(b, n, 0, 0, &in), (int)n);
    assert_string_equal(in.text,
        "index\t*l`-0x80000000(%r10)[%r11],*l`-0x80000000(%r10)[%r11],"
        "*l`-0x80000000(%r10)[%r11],*l`-0x80000000(%r10)[%r11],"
        "*l`-0x80000000(%r10)[%r11],*l`-0x80000000(%r10)[%r11]");
}

static void test_case_table(void **state)
{
    (void)state;
    static const uint8_t b[] = {0xCF, 0x50, 0x00, 0x02, 0x10, 0x00,
                                0x20, 0x00, 0x30, 0x00};
    struct vdis_insn in;
    assert_int_equal(dis_exact(b, sizeof b, 0, 0, &in), 4);
    assert_int_equal(vdis_case_entries(b, sizeof b, &in), 3);
    static const uint8_t c[] = {0xAF, 0x50, 0x00, 0x8F, 0x04, 0x00};
    assert_int_equal(dis_exact(c, sizeof c, 0, 0, &in), 6);
    assert_int_equal(vdis_case_entries(c, sizeof c, &in), 5);
    static const uint8_t d[] = {0xCF, 0x50, 0x00, 0x51};
    assert_int_equal(dis_exact(d, sizeof d, 0, 0, &in), 4);
    assert_int_equal(vdis_case_entries(d, sizeof d, &in), 0);
    static const uint8_t e[] = {0xD0, 0x50, 0x51};
    assert_int_equal(dis_exact(e, sizeof e, 0, 0, &in), 3);
    assert_int_equal(vdis_case_entries(e, sizeof e, &in), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_sequences),
        cmocka_unit_test(test_every_mode),
        cmocka_unit_test(test_branches),
        cmocka_unit_test(test_spam_opcodes),
        cmocka_unit_test(test_reserved_opcodes),
        cmocka_unit_test(test_float_octa_decimal),
        cmocka_unit_test(test_invalid_specifiers),
        cmocka_unit_test(test_every_opcode_and_truncation),
        cmocka_unit_test(test_truncated_specifiers),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_longest_text),
        cmocka_unit_test(test_case_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
