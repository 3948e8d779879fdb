/* The VAX instruction table shared by the assembler, the disassembler and
 * the decode ROM generator (vax/machine/vm_drom.c).  Facts only: mnemonics,
 * opcode values and operand access/data types as the VAX Architecture
 * defines them, for the whole base instruction set with F, D, G and H
 * floating point, packed decimal, EDITPC and the octaword instructions.
 * Absent on purpose: the 0xFE/0xFF pages (reserved; GNU as's BUGL/BUGW at
 * FF FD/FF FE always fault) and the post-1987 vector instructions.      */
#ifndef VAX_OPCODES_H
#define VAX_OPCODES_H

#include <stddef.h>
#include <stdint.h>

#define VAX_MAX_OPERANDS 6

/* Operand access type (the SRM's "access.type" notation). */
enum vax_access {
    VAX_ACC_READ = 'r',   /* r: read                                  */
    VAX_ACC_WRITE = 'w',  /* w: write                                 */
    VAX_ACC_MODIFY = 'm', /* m: read-modify-write                     */
    VAX_ACC_ADDR = 'a',   /* a: address only                          */
    VAX_ACC_VFIELD = 'v', /* v: bit-field base (register or address)  */
    VAX_ACC_BRANCH = 'b', /* b: branch displacement, not a specifier  */
};

/* Operand data type. */
enum vax_dtype {
    VAX_DT_BYTE = 'b',
    VAX_DT_WORD = 'w',
    VAX_DT_LONG = 'l',
    VAX_DT_QUAD = 'q',
    VAX_DT_OCTA = 'o',    /* octaword, 16 bytes                        */
    VAX_DT_FFLOAT = 'f',  /* F_floating, 4 bytes                       */
    VAX_DT_DFLOAT = 'd',  /* D_floating, 8 bytes                       */
    VAX_DT_GFLOAT = 'g',  /* G_floating, 8 bytes                       */
    VAX_DT_HFLOAT = 'h',  /* H_floating, 16 bytes                      */
};

/* Instruction classes, so tools can tell the subset apart. */
enum vax_opclass {
    VAX_CLASS_INTEGER,    /* non-privileged integer, string, queue, bit field,
                             octaword (and their F/D/G/H aliases: CLRF...)  */
    VAX_CLASS_PRIV,       /* privileged architecture                          */
    VAX_CLASS_SPAM,       /* FD00-FD05 and our extensions from FD06 up        */
    VAX_CLASS_FLOAT,      /* F, D, G and H floating point                     */
    VAX_CLASS_DECIMAL,    /* packed decimal and EDITPC                        */
};

struct vax_opcode {
    const char *name;     /* lower-case mnemonic                            */
    uint16_t code;        /* one byte 0x00-0xFC, or 0xFDxx for two bytes     */
    const char *operands; /* pairs of (access, type), e.g. "rlwl"            */
    enum vax_opclass cls;
};

struct vax_operand_desc {
    char access; /* enum vax_access */
    char dtype;  /* enum vax_dtype  */
};

/* The whole table, in opcode order; aliases (bnequ, bcc...) follow their
 * primary entry and have the same code. */
extern const struct vax_opcode vax_opcodes[];
extern const size_t vax_opcode_count;

/* Lookups.  Return NULL when absent.  by_code returns the primary name. */
const struct vax_opcode *vax_opcode_by_name(const char *name);
const struct vax_opcode *vax_opcode_by_code(uint16_t code);

/* Number of operands of an entry. */
int vax_opcode_noperands(const struct vax_opcode *op);
/* Operand i (0-based) of an entry. */
struct vax_operand_desc vax_opcode_operand(const struct vax_opcode *op, int i);
/* Size in bytes of a data type letter (1, 2, 4, 8, 16), 0 if unknown. */
int vax_dtype_size(char dtype);
/* Number of opcode bytes: 1, or 2 for the 0xFD page. */
static inline int vax_opcode_len(uint16_t code) { return code > 0xFF ? 2 : 1; }

#endif
