/* vdis: VAX disassembler (see vdis.h and README.md for the rules). */
#include "vax/dis/vdis.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vax/isa/vax_opcodes.h"

/* Decoding state for one instruction. */
struct dec {
    const uint8_t *buf;
    size_t avail;
    size_t pos;      /* offset of the next byte to read                  */
    uint32_t addr;   /* address of buf[0]                                */
    unsigned flags;
    char *out;       /* text being built                                 */
    size_t outsz, outlen;
    int overflow;    /* text did not fit                                 */
    /* literal/immediate value of each operand (for CASE tables)         */
    int has_const[VAX_MAX_OPERANDS];
    uint64_t constval[VAX_MAX_OPERANDS];
};

enum { DEC_OK = 0, DEC_TRUNC = -1, DEC_INVALID = -2 };

static const char *const regname[16] = {
    "%r0", "%r1", "%r2", "%r3", "%r4", "%r5", "%r6", "%r7",
    "%r8", "%r9", "%r10", "%r11", "%ap", "%fp", "%sp", "%pc",
};

static void emit(struct dec *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void emit(struct dec *d, const char *fmt, ...)
{
    if (d->overflow)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(d->out + d->outlen, d->outsz - d->outlen, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= d->outsz - d->outlen) {
        d->overflow = 1;
        return;
    }
    d->outlen += (size_t)n;
}

/* Read n (1..8) little-endian bytes; DEC_TRUNC if past the buffer. */
static int get(struct dec *d, int n, uint64_t *v)
{
    if (d->avail - d->pos < (size_t)n || d->pos > d->avail)
        return DEC_TRUNC;
    uint64_t x = 0;
    for (int i = 0; i < n; i++)
        x |= (uint64_t)d->buf[d->pos + (size_t)i] << (8 * i);
    d->pos += (size_t)n;
    *v = x;
    return DEC_OK;
}

static int64_t sext(uint64_t v, int bytes)
{
    int sh = 64 - 8 * bytes;
    return (int64_t)(v << sh) >> sh;
}

/* "0x1f" or "-0x1f" for a signed displacement. */
static void emit_signed(struct dec *d, int64_t v)
{
    if (v < 0)
        emit(d, "-0x%llx", (unsigned long long)(-(uint64_t)v));
    else
        emit(d, "0x%llx", (unsigned long long)v);
}

static char size_letter(int bytes)
{
    return bytes == 1 ? 'b' : bytes == 2 ? 'w' : 'l';
}

/* One operand specifier.  acc/dt are the operand's access and data type;
 * idx is 1 when decoding the base of an index prefix; opno the operand
 * number (for remembering constants). */
static int specifier(struct dec *d, char acc, char dt, int idx, int opno)
{
    const int strict = !(d->flags & VDIS_LENIENT);
    uint64_t b;
    int r = get(d, 1, &b);
    if (r)
        return r;
    int mode = (int)(b >> 4), rn = (int)(b & 15);
    int size = vax_dtype_size(dt);

    switch (mode) {
    case 0: case 1: case 2: case 3:
        /* short literal: read-only operand; never an index base */
        if (idx && strict)
            return DEC_INVALID;
        if (strict && acc != VAX_ACC_READ)
            return DEC_INVALID;
        if (!idx && opno >= 0) {
            d->has_const[opno] = 1;
            d->constval[opno] = b & 63;
        }
        emit(d, "s`$%u", (unsigned)(b & 63));
        return DEC_OK;

    case 4: {
        /* index prefix: never the base of another index */
        if (idx)
            return DEC_INVALID;
        if (strict && rn == 15)
            return DEC_INVALID; /* reserved addressing mode */
        if (d->pos >= d->avail)
            return DEC_TRUNC;
        uint8_t base = d->buf[d->pos];
        int bmode = base >> 4, brn = base & 15;
        if (bmode == 4)
            return DEC_INVALID; /* no syntax for index of index */
        if (strict) {
            if (bmode <= 5)
                return DEC_INVALID; /* literal/register base: reserved */
            if (bmode == 8 && brn == 15)
                return DEC_INVALID; /* immediate indexed */
            if ((bmode == 7 || bmode == 8 || bmode == 9) && brn == rn &&
                brn != 15)
                return DEC_INVALID; /* autoinc/dec of the index register */
        }
        r = specifier(d, acc, dt, 1, opno);
        if (r)
            return r;
        emit(d, "[%s]", regname[rn]);
        return DEC_OK;
    }

    case 5:
        /* an 8-byte operand is Rn and Rn+1, a 16-byte one Rn..Rn+3:
         * UNPREDICTABLE when that takes in PC */
        if (strict && (rn == 15 || acc == VAX_ACC_ADDR ||
                       (size > 4 && rn + size / 4 - 1 >= 15)))
            return DEC_INVALID;
        emit(d, "%s", regname[rn]);
        return DEC_OK;

    case 6:
        if (strict && rn == 15)
            return DEC_INVALID;
        emit(d, "(%s)", regname[rn]);
        return DEC_OK;

    case 7:
        if (strict && rn == 15)
            return DEC_INVALID;
        emit(d, "-(%s)", regname[rn]);
        return DEC_OK;

    case 8:
        if (rn == 15) {
            /* immediate: a constant of the operand's size follows */
            uint64_t v;
            if (strict && (acc == VAX_ACC_WRITE || acc == VAX_ACC_MODIFY))
                return DEC_INVALID; /* UNPREDICTABLE */
            /* floating immediates too come out as their bits in hex,
             * as SIMH's ex -m shows them; 16 bytes as one 128-bit number */
            uint64_t hi = 0;
            r = get(d, size > 8 ? 8 : size, &v);
            if (!r && size > 8)
                r = get(d, size - 8, &hi);
            if (r)
                return r;
            if (!idx && opno >= 0) {
                d->has_const[opno] = 1;
                d->constval[opno] = hi ? UINT64_MAX : v;
            }
            if (hi)
                emit(d, "$0x%llx%016llx", (unsigned long long)hi, (unsigned long long)v);
            else if (v <= 63)
                emit(d, "I^$%u", (unsigned)v);
            else
                emit(d, "$0x%llx", (unsigned long long)v);
            return DEC_OK;
        }
        emit(d, "(%s)+", regname[rn]);
        return DEC_OK;

    case 9:
        if (rn == 15) {
            uint64_t v;
            r = get(d, 4, &v);
            if (r)
                return r;
            emit(d, "*$0x%llx", (unsigned long long)v);
            return DEC_OK;
        }
        emit(d, "*(%s)+", regname[rn]);
        return DEC_OK;

    default: {
        /* A-F: byte/word/long displacement, deferred when mode is odd */
        int nb = mode <= 0xB ? 1 : mode <= 0xD ? 2 : 4;
        int deferred = mode & 1;
        uint64_t v;
        r = get(d, nb, &v);
        if (r)
            return r;
        int64_t disp = sext(v, nb);
        emit(d, "%s%c`", deferred ? "*" : "", size_letter(nb));
        if (rn == 15 && !(d->flags & VDIS_PCREL_AS_DISP)) {
            uint32_t target = d->addr + (uint32_t)d->pos + (uint32_t)disp;
            emit(d, "0x%x", (unsigned)target);
        } else {
            emit_signed(d, disp);
            emit(d, "(%s)", regname[rn]);
        }
        return DEC_OK;
    }
    }
}

/* Decode the instruction at buf; returns DEC_OK, DEC_TRUNC, DEC_INVALID. */
static int decode(struct dec *d, struct vdis_insn *out)
{
    uint64_t b;
    int r = get(d, 1, &b);
    if (r)
        return r;
    uint16_t code = (uint16_t)b;
    if (b == 0xFD) {
        r = get(d, 1, &b);
        if (r)
            return r;
        code = (uint16_t)(0xFD00 | b);
    }
    const struct vax_opcode *op = vax_opcode_by_code(code);
    if (!op)
        return DEC_INVALID;
    out->opcode = code;
    out->name = op->name;
    emit(d, "%s", op->name);
    int n = vax_opcode_noperands(op);
    for (int i = 0; i < n; i++) {
        struct vax_operand_desc od = vax_opcode_operand(op, i);
        emit(d, i == 0 ? "\t" : ",");
        if (od.access == VAX_ACC_BRANCH) {
            int nb = vax_dtype_size(od.dtype);
            uint64_t v;
            r = get(d, nb, &v);
            if (r)
                return r;
            uint32_t target =
                d->addr + (uint32_t)d->pos + (uint32_t)sext(v, nb);
            emit(d, "0x%x", (unsigned)target);
        } else {
            r = specifier(d, od.access, od.dtype, 0, i);
            if (r)
                return r;
        }
    }
    return d->overflow ? DEC_INVALID : DEC_OK;
}

int vdis_one_ex(const uint8_t *buf, size_t avail, uint32_t addr,
                unsigned flags, struct vdis_insn *out)
{
    memset(out, 0, sizeof *out);
    out->addr = addr;
    if (avail == 0 || buf == NULL)
        return 0;
    struct dec d = {0};
    d.buf = buf;
    d.avail = avail;
    d.addr = addr;
    d.flags = flags;
    d.out = out->text;
    d.outsz = sizeof out->text;
    if (decode(&d, out) != DEC_OK) {
        out->name = NULL;
        out->opcode = buf[0];
        snprintf(out->text, sizeof out->text, ".byte\t0x%02x", buf[0]);
        out->len = 1;
        return 1;
    }
    out->len = (int)d.pos;
    return out->len;
}

int vdis_one(const uint8_t *buf, size_t avail, uint32_t addr,
             struct vdis_insn *out)
{
    return vdis_one_ex(buf, avail, addr, 0, out);
}

int vdis_case_entries(const uint8_t *buf, size_t avail,
                      const struct vdis_insn *in)
{
    if (!in->name || (in->opcode != 0x8F && in->opcode != 0xAF &&
                      in->opcode != 0xCF))
        return 0;
    struct vdis_insn tmp;
    struct dec d = {0};
    d.buf = buf;
    d.avail = avail;
    d.addr = in->addr;
    d.flags = VDIS_LENIENT;
    d.out = tmp.text;
    d.outsz = sizeof tmp.text;
    memset(&tmp, 0, sizeof tmp);
    if (decode(&d, &tmp) != DEC_OK || !d.has_const[2])
        return 0;
    uint64_t limit = d.constval[2];
    if (limit >= 0x7FFFFFFF)
        return 0;
    return (int)limit + 1;
}
