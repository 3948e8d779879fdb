/* The VAX opcode table (see vax_opcodes.h).  Floating point, packed
 * decimal, EDITPC and the octaword forms are deliberately absent: they are
 * outside the project's subset (DESIGN.md §3.2).                         */
#include "vax_opcodes.h"

#include <string.h>

const struct vax_opcode vax_opcodes[] = {
    {"halt", 0x00, "", VAX_CLASS_PRIV},
    {"nop", 0x01, "", VAX_CLASS_INTEGER},
    {"rei", 0x02, "", VAX_CLASS_PRIV},
    {"bpt", 0x03, "", VAX_CLASS_PRIV},
    {"ret", 0x04, "", VAX_CLASS_INTEGER},
    {"rsb", 0x05, "", VAX_CLASS_INTEGER},
    {"ldpctx", 0x06, "", VAX_CLASS_PRIV},
    {"svpctx", 0x07, "", VAX_CLASS_PRIV},
    {"index", 0x0A, "rlrlrlrlrlwl", VAX_CLASS_INTEGER},
    {"crc", 0x0B, "abrlrwab", VAX_CLASS_INTEGER},
    {"prober", 0x0C, "rbrwab", VAX_CLASS_PRIV},
    {"probew", 0x0D, "rbrwab", VAX_CLASS_PRIV},
    {"insque", 0x0E, "abab", VAX_CLASS_INTEGER},
    {"remque", 0x0F, "abwl", VAX_CLASS_INTEGER},
    {"bsbb", 0x10, "bb", VAX_CLASS_INTEGER},
    {"brb", 0x11, "bb", VAX_CLASS_INTEGER},
    {"bneq", 0x12, "bb", VAX_CLASS_INTEGER},
    {"bnequ", 0x12, "bb", VAX_CLASS_INTEGER},
    {"beql", 0x13, "bb", VAX_CLASS_INTEGER},
    {"beqlu", 0x13, "bb", VAX_CLASS_INTEGER},
    {"bgtr", 0x14, "bb", VAX_CLASS_INTEGER},
    {"bleq", 0x15, "bb", VAX_CLASS_INTEGER},
    {"jsb", 0x16, "ab", VAX_CLASS_INTEGER},
    {"jmp", 0x17, "ab", VAX_CLASS_INTEGER},
    {"bgeq", 0x18, "bb", VAX_CLASS_INTEGER},
    {"blss", 0x19, "bb", VAX_CLASS_INTEGER},
    {"bgtru", 0x1A, "bb", VAX_CLASS_INTEGER},
    {"blequ", 0x1B, "bb", VAX_CLASS_INTEGER},
    {"bvc", 0x1C, "bb", VAX_CLASS_INTEGER},
    {"bvs", 0x1D, "bb", VAX_CLASS_INTEGER},
    {"bgequ", 0x1E, "bb", VAX_CLASS_INTEGER},
    {"bcc", 0x1E, "bb", VAX_CLASS_INTEGER},
    {"blssu", 0x1F, "bb", VAX_CLASS_INTEGER},
    {"bcs", 0x1F, "bb", VAX_CLASS_INTEGER},
    {"movc3", 0x28, "rwabab", VAX_CLASS_INTEGER},
    {"cmpc3", 0x29, "rwabab", VAX_CLASS_INTEGER},
    {"scanc", 0x2A, "rwababrb", VAX_CLASS_INTEGER},
    {"spanc", 0x2B, "rwababrb", VAX_CLASS_INTEGER},
    {"movc5", 0x2C, "rwabrbrwab", VAX_CLASS_INTEGER},
    {"cmpc5", 0x2D, "rwabrbrwab", VAX_CLASS_INTEGER},
    {"movtc", 0x2E, "rwabrbabrwab", VAX_CLASS_INTEGER},
    {"movtuc", 0x2F, "rwabrbabrwab", VAX_CLASS_INTEGER},
    {"bsbw", 0x30, "bw", VAX_CLASS_INTEGER},
    {"brw", 0x31, "bw", VAX_CLASS_INTEGER},
    {"cvtwl", 0x32, "rwwl", VAX_CLASS_INTEGER},
    {"cvtwb", 0x33, "rwwb", VAX_CLASS_INTEGER},
    {"matchc", 0x39, "rwabrwab", VAX_CLASS_INTEGER},
    {"locc", 0x3A, "rbrwab", VAX_CLASS_INTEGER},
    {"skpc", 0x3B, "rbrwab", VAX_CLASS_INTEGER},
    {"movzwl", 0x3C, "rwwl", VAX_CLASS_INTEGER},
    {"acbw", 0x3D, "rwrwmwbw", VAX_CLASS_INTEGER},
    {"movaw", 0x3E, "awwl", VAX_CLASS_INTEGER},
    {"pushaw", 0x3F, "aw", VAX_CLASS_INTEGER},
    {"adawi", 0x58, "rwmw", VAX_CLASS_INTEGER},
    {"insqhi", 0x5C, "abaq", VAX_CLASS_INTEGER},
    {"insqti", 0x5D, "abaq", VAX_CLASS_INTEGER},
    {"remqhi", 0x5E, "aqwl", VAX_CLASS_INTEGER},
    {"remqti", 0x5F, "aqwl", VAX_CLASS_INTEGER},
    {"ashl", 0x78, "rbrlwl", VAX_CLASS_INTEGER},
    {"ashq", 0x79, "rbrqwq", VAX_CLASS_INTEGER},
    {"emul", 0x7A, "rlrlrlwq", VAX_CLASS_INTEGER},
    {"ediv", 0x7B, "rlrqwlwl", VAX_CLASS_INTEGER},
    {"clrq", 0x7C, "wq", VAX_CLASS_INTEGER},
    {"movq", 0x7D, "rqwq", VAX_CLASS_INTEGER},
    {"movaq", 0x7E, "aqwl", VAX_CLASS_INTEGER},
    {"pushaq", 0x7F, "aq", VAX_CLASS_INTEGER},
    {"addb2", 0x80, "rbmb", VAX_CLASS_INTEGER},
    {"addb3", 0x81, "rbrbwb", VAX_CLASS_INTEGER},
    {"subb2", 0x82, "rbmb", VAX_CLASS_INTEGER},
    {"subb3", 0x83, "rbrbwb", VAX_CLASS_INTEGER},
    {"mulb2", 0x84, "rbmb", VAX_CLASS_INTEGER},
    {"mulb3", 0x85, "rbrbwb", VAX_CLASS_INTEGER},
    {"divb2", 0x86, "rbmb", VAX_CLASS_INTEGER},
    {"divb3", 0x87, "rbrbwb", VAX_CLASS_INTEGER},
    {"bisb2", 0x88, "rbmb", VAX_CLASS_INTEGER},
    {"bisb3", 0x89, "rbrbwb", VAX_CLASS_INTEGER},
    {"bicb2", 0x8A, "rbmb", VAX_CLASS_INTEGER},
    {"bicb3", 0x8B, "rbrbwb", VAX_CLASS_INTEGER},
    {"xorb2", 0x8C, "rbmb", VAX_CLASS_INTEGER},
    {"xorb3", 0x8D, "rbrbwb", VAX_CLASS_INTEGER},
    {"mnegb", 0x8E, "rbwb", VAX_CLASS_INTEGER},
    {"caseb", 0x8F, "rbrbrb", VAX_CLASS_INTEGER},
    {"movb", 0x90, "rbwb", VAX_CLASS_INTEGER},
    {"cmpb", 0x91, "rbrb", VAX_CLASS_INTEGER},
    {"mcomb", 0x92, "rbwb", VAX_CLASS_INTEGER},
    {"bitb", 0x93, "rbrb", VAX_CLASS_INTEGER},
    {"clrb", 0x94, "wb", VAX_CLASS_INTEGER},
    {"tstb", 0x95, "rb", VAX_CLASS_INTEGER},
    {"incb", 0x96, "mb", VAX_CLASS_INTEGER},
    {"decb", 0x97, "mb", VAX_CLASS_INTEGER},
    {"cvtbl", 0x98, "rbwl", VAX_CLASS_INTEGER},
    {"cvtbw", 0x99, "rbww", VAX_CLASS_INTEGER},
    {"movzbl", 0x9A, "rbwl", VAX_CLASS_INTEGER},
    {"movzbw", 0x9B, "rbww", VAX_CLASS_INTEGER},
    {"rotl", 0x9C, "rbrlwl", VAX_CLASS_INTEGER},
    {"acbb", 0x9D, "rbrbmbbw", VAX_CLASS_INTEGER},
    {"movab", 0x9E, "abwl", VAX_CLASS_INTEGER},
    {"pushab", 0x9F, "ab", VAX_CLASS_INTEGER},
    {"addw2", 0xA0, "rwmw", VAX_CLASS_INTEGER},
    {"addw3", 0xA1, "rwrwww", VAX_CLASS_INTEGER},
    {"subw2", 0xA2, "rwmw", VAX_CLASS_INTEGER},
    {"subw3", 0xA3, "rwrwww", VAX_CLASS_INTEGER},
    {"mulw2", 0xA4, "rwmw", VAX_CLASS_INTEGER},
    {"mulw3", 0xA5, "rwrwww", VAX_CLASS_INTEGER},
    {"divw2", 0xA6, "rwmw", VAX_CLASS_INTEGER},
    {"divw3", 0xA7, "rwrwww", VAX_CLASS_INTEGER},
    {"bisw2", 0xA8, "rwmw", VAX_CLASS_INTEGER},
    {"bisw3", 0xA9, "rwrwww", VAX_CLASS_INTEGER},
    {"bicw2", 0xAA, "rwmw", VAX_CLASS_INTEGER},
    {"bicw3", 0xAB, "rwrwww", VAX_CLASS_INTEGER},
    {"xorw2", 0xAC, "rwmw", VAX_CLASS_INTEGER},
    {"xorw3", 0xAD, "rwrwww", VAX_CLASS_INTEGER},
    {"mnegw", 0xAE, "rwww", VAX_CLASS_INTEGER},
    {"casew", 0xAF, "rwrwrw", VAX_CLASS_INTEGER},
    {"movw", 0xB0, "rwww", VAX_CLASS_INTEGER},
    {"cmpw", 0xB1, "rwrw", VAX_CLASS_INTEGER},
    {"mcomw", 0xB2, "rwww", VAX_CLASS_INTEGER},
    {"bitw", 0xB3, "rwrw", VAX_CLASS_INTEGER},
    {"clrw", 0xB4, "ww", VAX_CLASS_INTEGER},
    {"tstw", 0xB5, "rw", VAX_CLASS_INTEGER},
    {"incw", 0xB6, "mw", VAX_CLASS_INTEGER},
    {"decw", 0xB7, "mw", VAX_CLASS_INTEGER},
    {"bispsw", 0xB8, "rw", VAX_CLASS_INTEGER},
    {"bicpsw", 0xB9, "rw", VAX_CLASS_INTEGER},
    {"popr", 0xBA, "rw", VAX_CLASS_INTEGER},
    {"pushr", 0xBB, "rw", VAX_CLASS_INTEGER},
    {"chmk", 0xBC, "rw", VAX_CLASS_PRIV},
    {"chme", 0xBD, "rw", VAX_CLASS_PRIV},
    {"chms", 0xBE, "rw", VAX_CLASS_PRIV},
    {"chmu", 0xBF, "rw", VAX_CLASS_PRIV},
    {"addl2", 0xC0, "rlml", VAX_CLASS_INTEGER},
    {"addl3", 0xC1, "rlrlwl", VAX_CLASS_INTEGER},
    {"subl2", 0xC2, "rlml", VAX_CLASS_INTEGER},
    {"subl3", 0xC3, "rlrlwl", VAX_CLASS_INTEGER},
    {"mull2", 0xC4, "rlml", VAX_CLASS_INTEGER},
    {"mull3", 0xC5, "rlrlwl", VAX_CLASS_INTEGER},
    {"divl2", 0xC6, "rlml", VAX_CLASS_INTEGER},
    {"divl3", 0xC7, "rlrlwl", VAX_CLASS_INTEGER},
    {"bisl2", 0xC8, "rlml", VAX_CLASS_INTEGER},
    {"bisl3", 0xC9, "rlrlwl", VAX_CLASS_INTEGER},
    {"bicl2", 0xCA, "rlml", VAX_CLASS_INTEGER},
    {"bicl3", 0xCB, "rlrlwl", VAX_CLASS_INTEGER},
    {"xorl2", 0xCC, "rlml", VAX_CLASS_INTEGER},
    {"xorl3", 0xCD, "rlrlwl", VAX_CLASS_INTEGER},
    {"mnegl", 0xCE, "rlwl", VAX_CLASS_INTEGER},
    {"casel", 0xCF, "rlrlrl", VAX_CLASS_INTEGER},
    {"movl", 0xD0, "rlwl", VAX_CLASS_INTEGER},
    {"cmpl", 0xD1, "rlrl", VAX_CLASS_INTEGER},
    {"mcoml", 0xD2, "rlwl", VAX_CLASS_INTEGER},
    {"bitl", 0xD3, "rlrl", VAX_CLASS_INTEGER},
    {"clrl", 0xD4, "wl", VAX_CLASS_INTEGER},
    {"tstl", 0xD5, "rl", VAX_CLASS_INTEGER},
    {"incl", 0xD6, "ml", VAX_CLASS_INTEGER},
    {"decl", 0xD7, "ml", VAX_CLASS_INTEGER},
    {"adwc", 0xD8, "rlml", VAX_CLASS_INTEGER},
    {"sbwc", 0xD9, "rlml", VAX_CLASS_INTEGER},
    {"mtpr", 0xDA, "rlrl", VAX_CLASS_PRIV},
    {"mfpr", 0xDB, "rlwl", VAX_CLASS_PRIV},
    {"movpsl", 0xDC, "wl", VAX_CLASS_INTEGER},
    {"pushl", 0xDD, "rl", VAX_CLASS_INTEGER},
    {"moval", 0xDE, "alwl", VAX_CLASS_INTEGER},
    {"pushal", 0xDF, "al", VAX_CLASS_INTEGER},
    {"bbs", 0xE0, "rlvbbb", VAX_CLASS_INTEGER},
    {"bbc", 0xE1, "rlvbbb", VAX_CLASS_INTEGER},
    {"bbss", 0xE2, "rlvbbb", VAX_CLASS_INTEGER},
    {"bbcs", 0xE3, "rlvbbb", VAX_CLASS_INTEGER},
    {"bbsc", 0xE4, "rlvbbb", VAX_CLASS_INTEGER},
    {"bbcc", 0xE5, "rlvbbb", VAX_CLASS_INTEGER},
    {"bbssi", 0xE6, "rlvbbb", VAX_CLASS_INTEGER},
    {"bbcci", 0xE7, "rlvbbb", VAX_CLASS_INTEGER},
    {"blbs", 0xE8, "rlbb", VAX_CLASS_INTEGER},
    {"blbc", 0xE9, "rlbb", VAX_CLASS_INTEGER},
    {"ffs", 0xEA, "rlrbvbwl", VAX_CLASS_INTEGER},
    {"ffc", 0xEB, "rlrbvbwl", VAX_CLASS_INTEGER},
    {"cmpv", 0xEC, "rlrbvbrl", VAX_CLASS_INTEGER},
    {"cmpzv", 0xED, "rlrbvbrl", VAX_CLASS_INTEGER},
    {"extv", 0xEE, "rlrbvbwl", VAX_CLASS_INTEGER},
    {"extzv", 0xEF, "rlrbvbwl", VAX_CLASS_INTEGER},
    {"insv", 0xF0, "rlrlrbvb", VAX_CLASS_INTEGER},
    {"acbl", 0xF1, "rlrlmlbw", VAX_CLASS_INTEGER},
    {"aoblss", 0xF2, "rlmlbb", VAX_CLASS_INTEGER},
    {"aobleq", 0xF3, "rlmlbb", VAX_CLASS_INTEGER},
    {"sobgeq", 0xF4, "mlbb", VAX_CLASS_INTEGER},
    {"sobgtr", 0xF5, "mlbb", VAX_CLASS_INTEGER},
    {"cvtlb", 0xF6, "rlwb", VAX_CLASS_INTEGER},
    {"cvtlw", 0xF7, "rlww", VAX_CLASS_INTEGER},
    {"callg", 0xFA, "abab", VAX_CLASS_INTEGER},
    {"calls", 0xFB, "rlab", VAX_CLASS_INTEGER},
    {"xfc", 0xFC, "", VAX_CLASS_PRIV},
    {"getstat", 0xFD00, "", VAX_CLASS_SPAM},
    {"pamminit", 0xFD01, "", VAX_CLASS_SPAM},
    {"enable", 0xFD02, "", VAX_CLASS_SPAM},
    {"disable", 0xFD03, "", VAX_CLASS_SPAM},
    {"readbuf", 0xFD04, "", VAX_CLASS_SPAM},
    {"setptrs", 0xFD05, "", VAX_CLASS_SPAM},
};
const size_t vax_opcode_count = sizeof vax_opcodes / sizeof vax_opcodes[0];

const struct vax_opcode *vax_opcode_by_name(const char *name)
{
    for (size_t i = 0; i < vax_opcode_count; i++)
        if (strcmp(vax_opcodes[i].name, name) == 0)
            return &vax_opcodes[i];
    return NULL;
}

const struct vax_opcode *vax_opcode_by_code(uint16_t code)
{
    /* The first entry with a code is its primary name. */
    for (size_t i = 0; i < vax_opcode_count; i++)
        if (vax_opcodes[i].code == code)
            return &vax_opcodes[i];
    return NULL;
}

int vax_opcode_noperands(const struct vax_opcode *op)
{
    return (int)(strlen(op->operands) / 2);
}

struct vax_operand_desc vax_opcode_operand(const struct vax_opcode *op, int i)
{
    struct vax_operand_desc d = {op->operands[2 * i], op->operands[2 * i + 1]};
    return d;
}

int vax_dtype_size(char dtype)
{
    switch (dtype) {
    case VAX_DT_BYTE: return 1;
    case VAX_DT_WORD: return 2;
    case VAX_DT_LONG: return 4;
    case VAX_DT_QUAD: return 8;
    default: return 0;
    }
}
