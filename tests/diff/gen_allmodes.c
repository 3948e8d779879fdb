/* gen_allmodes: writes an assembler source that uses every opcode of the
 * table with every legal operand-specifier mode in every operand position
 * (the other operands held at a plain form), in GNU-as-for-VAX syntax.
 * Literal and immediate forms include floating literals ($0f1.5 ...) for
 * floating operands and 128-bit constants for octaword and H operands.
 *
 *   gen_allmodes [--gas] [--spam-only]
 *
 * --gas leaves out what GNU as cannot assemble (the SPAM opcodes and
 * DEC's I^ forced-immediate form), so the same file goes through both
 * assemblers; without it, the output is for vasm alone.  --spam-only
 * writes just the SPAM opcodes.  Every instruction is preceded by a local
 * label "1:" so PC-relative and branch operands have a near target.    */
#include "vax/isa/vax_opcodes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mode {
    const char *text;  /* %R is the base register, %X an index register */
    const char *accs;  /* access letters that may use it                */
    const char *dtypes;/* data types it suits; NULL = all               */
    int gas;           /* GNU as assembles it to the same bytes          */
};

/* Register-independent operand forms.  "1b" is the label on the current
 * instruction, "far" a label at the end of the file. */
static const struct mode modes[] = {
    {"$5", "r", NULL, 1},                /* short literal, automatic    */
    {"s`$0x3f", "r", NULL, 1},           /* short literal, forced       */
    {"$0x40", "r", NULL, 1},             /* immediate, automatic        */
    {"$-1", "r", NULL, 1},               /* immediate: negatives are not literals */
    {"$0x7f", "r", "b", 1},
    {"$0x7fff", "r", "w", 1},
    {"$0x12345678", "r", "l", 1},
    {"$0x100000002", "r", "qdg", 1},
    {"$0x123456789abcdef0fedcba9876543210", "r", "oh", 1}, /* 128 bits */
    {"$0x10000000000000005", "r", "oh", 1}, /* low half < 64: still no literal */
    {"$0f1.5", "r", "f", 1},             /* floating: short literal     */
    {"$0f3.3", "r", "f", 1},             /* floating: immediate         */
    {"$-0f2.5e-3", "r", "f", 1},
    {"$0f120", "r", "f", 1},
    {"s`$0f0.75", "r", "f", 1},
    {"i`$0f0.75", "r", "f", 1},          /* forced immediate            */
    {"I^$0f4", "r", "f", 0},
    {"$0d1.5", "r", "d", 1},
    {"$0d3.3", "r", "d", 1},
    {"$-0d1e-30", "r", "d", 1},
    {"$0g1.5", "r", "g", 1},
    {"$0g3.3e100", "r", "g", 1},
    {"$-0g0.1", "r", "g", 1},
    {"$0h4", "r", "h", 1},               /* H: literal only if fraction 0 */
    {"$0h1.5", "r", "h", 1},             /* gas: immediate; so vasm      */
    {"$0h3.3e1000", "r", "h", 1},
    {"$-0h0.1", "r", "h", 1},
    {"S^$0h1.5", "r", "h", 0},           /* forced: the literal          */
    {"i`$9", "r", NULL, 1},              /* gas makes this a short literal */
    {"I^$9", "r", NULL, 0},              /* vasm: a genuine immediate   */
    {"%R", "rmwv", NULL, 1},             /* register                    */
    {"(%R)", "rmwav", NULL, 1},
    {"-(%R)", "rmwav", NULL, 1},
    {"(%R)+", "rmwav", NULL, 1},
    {"*(%R)+", "rmwav", NULL, 1},
    {"4(%R)", "rmwav", NULL, 1},         /* automatic: byte             */
    {"-0x80(%R)", "rmwav", NULL, 1},
    {"0x80(%R)", "rmwav", NULL, 1},      /* automatic: word             */
    {"-0x8000(%R)", "rmwav", NULL, 1},
    {"0x8000(%R)", "rmwav", NULL, 1},    /* automatic: long             */
    {"0x12345678(%R)", "rmwav", NULL, 1},
    {"b`4(%R)", "rmwav", NULL, 1},
    {"w`4(%R)", "rmwav", NULL, 1},
    {"l`4(%R)", "rmwav", NULL, 1},
    {"B^-4(%R)", "rmwav", NULL, 0},      /* DEC prefixes: vasm only     */
    {"W^4(%R)", "rmwav", NULL, 0},
    {"L^4(%R)", "rmwav", NULL, 0},
    {"*4(%R)", "rmwav", NULL, 1},
    {"*0x100(%R)", "rmwav", NULL, 1},
    {"*0x10000(%R)", "rmwav", NULL, 1},
    {"*b`4(%R)", "rmwav", NULL, 1},
    {"*w`4(%R)", "rmwav", NULL, 1},
    {"*l`4(%R)", "rmwav", NULL, 1},
    {"@4(%R)", "rmwav", NULL, 0},        /* DEC @ for deferred: vasm only */
    {"*$0x1234", "rmwav", NULL, 1},      /* absolute                     */
    {"1b", "rmwav", NULL, 1},            /* PC-relative, automatic       */
    {"far", "rmwav", NULL, 1},
    {"b`1b", "rmwav", NULL, 1},
    {"w`1b", "rmwav", NULL, 1},
    {"l`1b", "rmwav", NULL, 1},
    {"*1b", "rmwav", NULL, 1},           /* PC-relative deferred         */
    {"*w`far", "rmwav", NULL, 1},
    {"(%R)[%X]", "rmwav", NULL, 1},      /* indexed forms                */
    {"-(%R)[%X]", "rmwav", NULL, 1},
    {"(%R)+[%X]", "rmwav", NULL, 1},
    {"*(%R)+[%X]", "rmwav", NULL, 1},
    {"4(%R)[%X]", "rmwav", NULL, 1},
    {"0x1234(%R)[%X]", "rmwav", NULL, 1},
    {"l`4(%R)[%X]", "rmwav", NULL, 1},
    {"*4(%R)[%X]", "rmwav", NULL, 1},
    {"*$0x1234[%X]", "rmwav", NULL, 1},
    {"1b[%X]", "rmwav", NULL, 1},
    {"*far[%X]", "rmwav", NULL, 1},
};

/* Base registers cycle through these (never PC); index registers too. */
static const char *const bases[] = {"r0", "r1", "r2", "r3", "r4", "r5",
    "r6", "r7", "r8", "r9", "r10", "r11", "ap", "fp", "sp"};
static const char *const indexes[] = {"r4", "r7", "r10", "r11", "ap", "fp"};

static unsigned counter;

static void expand(const char *tmpl, char *out, size_t outlen, char dtype)
{
    const char *base = bases[counter % (sizeof bases / sizeof bases[0])];
    const char *index = indexes[counter % (sizeof indexes / sizeof indexes[0])];
    /* An index register equal to the base of (Rn)+ or -(Rn) is
     * UNPREDICTABLE, and vasm rejects it: keep them apart everywhere. */
    if (strcmp(index, base) == 0)
        index = indexes[(counter + 1) % (sizeof indexes / sizeof indexes[0])];
    /* An 8-byte register operand names a pair, a 16-byte one four
     * registers: keep them clear of pc. */
    if (vax_dtype_size(dtype) > 4 && strcmp(tmpl, "%R") == 0 &&
        (strcmp(base, "fp") == 0 || strcmp(base, "sp") == 0 ||
         (vax_dtype_size(dtype) > 8 && strcmp(base, "ap") == 0)))
        base = "r6";
    counter++;
    size_t n = 0;
    for (const char *p = tmpl; *p && n + 8 < outlen; p++) {
        if (p[0] == '%' && (p[1] == 'R' || p[1] == 'X')) {
            n += (size_t)snprintf(out + n, outlen - n, "%%%s",
                                  p[1] == 'R' ? base : index);
            p++;
        } else {
            out[n++] = *p;
        }
    }
    out[n] = 0;
}

/* The plain form of an operand, used while another one is varied. */
static const char *plain(struct vax_operand_desc d, int i)
{
    static const char *const regs[] = {"%r1", "%r2", "%r3", "%r6", "%r8", "%r9"};
    switch (d.access) {
    case 'a': return "(%r3)";
    case 'b': return "1b";
    default: return regs[i];
    }
}

static int mode_fits(const struct mode *m, struct vax_operand_desc d)
{
    if (!strchr(m->accs, d.access))
        return 0;
    if (m->dtypes && !strchr(m->dtypes, d.dtype))
        return 0;
    return 1;
}

static int is_case(const struct vax_opcode *op)
{
    return strncmp(op->name, "case", 4) == 0;
}

/* The value of a literal or immediate operand text, -1 if it is not one
 * (or is too large to be a CASE limit followed by its table here). */
static long constant_of(const char *text)
{
    const char *p = strchr(text, '$');
    if (!p || strchr(text, '(') || strchr(text, '['))
        return -1;
    long v = strtol(p + 1, NULL, 0);
    return v >= 0 && v <= 0x100 ? v : -1;
}

static void emit(const struct vax_opcode *op, int vary, const char *text)
{
    int n = vax_opcode_noperands(op);
    printf("1:\t%s", op->name);
    for (int i = 0; i < n; i++) {
        struct vax_operand_desc d = vax_opcode_operand(op, i);
        printf("%s%s", i ? "," : "\t", i == vary ? text : plain(d, i));
    }
    printf("\n");
    /* A CASE with a constant limit is followed by its displacement table,
     * as in real code: limit+1 words.  Zero words decode as HALTs, one
     * byte each, so a linear disassembler that does not know about case
     * tables (SIMH's) falls back into step right after the table. */
    if (is_case(op) && vary == 2) {
        long limit = constant_of(text);
        for (long k = 0; k <= limit; k++)
            printf("\t.word\t0\n");
    }
}

int main(int argc, char **argv)
{
    int gas_only = 0, spam_only = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--gas") == 0)
            gas_only = 1;
        else if (strcmp(argv[i], "--spam-only") == 0)
            spam_only = 1;
        else {
            fprintf(stderr, "usage: gen_allmodes [--gas] [--spam-only]\n");
            return 2;
        }
    }
    printf("# Generated by tests/diff/gen_allmodes%s: every opcode, every mode.\n",
           gas_only ? " --gas" : "");
    printf("\t.text\n");
    for (size_t k = 0; k < vax_opcode_count; k++) {
        const struct vax_opcode *op = &vax_opcodes[k];
        if (k > 0 && vax_opcodes[k - 1].code == op->code)
            continue; /* aliases encode the same */
        int spam = op->cls == VAX_CLASS_SPAM;
        if ((gas_only && spam) || (spam_only && !spam))
            continue;
        int n = vax_opcode_noperands(op);
        if (n == 0) {
            emit(op, -1, NULL);
            continue;
        }
        for (int i = 0; i < n; i++) {
            struct vax_operand_desc d = vax_opcode_operand(op, i);
            if (d.access == 'b') {
                emit(op, i, "1b");
                emit(op, i, "1f");
                continue;
            }
            for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
                char text[64];
                if (!mode_fits(&modes[m], d) || (gas_only && !modes[m].gas))
                    continue;
                /* A CASE limit that is a constant must be small enough for
                 * its table to be written out (see emit()). */
                if (is_case(op) && i == 2 && strchr(modes[m].text, '$') &&
                    !strchr(modes[m].text, '(') &&
                    !strchr(modes[m].text, '[') &&
                    constant_of(modes[m].text) < 0)
                    continue;
                /* GNU as 2.40 writes the address of absolute mode (*$addr)
                 * with the operand's size instead of 4 bytes, so it gets
                 * only longword operands right: the one form excused. */
                if (gas_only && strncmp(modes[m].text, "*$", 2) == 0 &&
                    d.dtype != 'l')
                    continue;
                /* GNU as zero-extends a negative constant to 16 bytes
                 * ($-1 gives 0x0000000000000000ffffffffffffffff); vasm
                 * sign-extends it: excused in the byte comparison. */
                if (gas_only && strcmp(modes[m].text, "$-1") == 0 &&
                    vax_dtype_size(d.dtype) == 16)
                    continue;
                expand(modes[m].text, text, sizeof text, d.dtype);
                emit(op, i, text);
            }
        }
    }
    printf("1:\tnop\n\t.space\t0x200\nfar:\thalt\n");
    return 0;
}
