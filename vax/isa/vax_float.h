/* The four VAX floating formats as bit patterns: decimal text to F, D, G
 * or H, and the 6-bit floating short literals.  Used by the assembler for
 * floating literals (0f1.5, .double ...); tests use it for expected values.
 *
 * A VAX floating datum is a sequence of 16-bit words, stored little-endian
 * word by word in memory.  Word 0 holds the sign (bit 15), the biased
 * exponent and the most significant fraction bits; each following word
 * holds the next 16 fraction bits.  The value is 0.1fff...(binary) times
 * 2^(exponent - bias): the leading 1 is not stored.  Exponent 0 with sign
 * 0 is zero; exponent 0 with sign 1 is the reserved operand.
 *
 *   format  bytes  exponent bits  bias   fraction bits (+ hidden)
 *   F         4         8          128        23
 *   D         8         8          128        55
 *   G         8        11         1024        52
 *   H        16        15        16384       112
 *
 * Nothing here prints, exits or keeps state. */
#ifndef VAX_FLOAT_H
#define VAX_FLOAT_H

#include <stdint.h>

enum vax_ffmt { VAX_FFMT_F, VAX_FFMT_D, VAX_FFMT_G, VAX_FFMT_H };

/* The format of a data type or literal letter (f d g h, either case), or
 * -1 if the letter names none. */
int vax_float_format(int letter);
/* Size in bytes (4, 8, 8, 16) and in 16-bit words of a format. */
int vax_float_size(int fmt);

enum vax_float_status {
    VAX_FLOAT_OK = 0,
    VAX_FLOAT_OVERFLOW,   /* larger than the format's largest value     */
    VAX_FLOAT_UNDERFLOW,  /* not zero, but below the smallest value     */
    VAX_FLOAT_NOT_FINITE, /* "inf" or "nan": the VAX has no encoding     */
    VAX_FLOAT_TOO_LONG,   /* more than VAX_FLOAT_MAX_DIGITS significant digits */
};
#define VAX_FLOAT_MAX_DIGITS 5000

/* Reads a decimal floating constant at [p, e) as GNU as reads one:
 *   [+|-] digits [. digits] [(e|E) [+|-] digits]
 * (every part optional; no digits at all reads as zero), or inf, infinity,
 * nan (any case, after the optional sign).  *end is set past what was read
 * (to p when not even a sign or digit was there).  On VAX_FLOAT_OK, words
 * (vax_float_size(fmt)/2 of them) hold the value in format fmt, rounded to
 * nearest with ties away from zero, the rounding the architecture uses;
 * the conversion is exact, however many digits the text has.  A zero,
 * negative or not, is all zero words. */
int vax_float_from_decimal(const char *p, const char *e, const char **end,
                           int fmt, uint16_t words[8]);

/* The short literal 0..63 whose value is exactly words (format fmt), or
 * -1 when there is none.  A literal's bits 5:3 are an exponent e and bits
 * 2:0 a fraction f: the value is (8 + f) / 16 * 2^e, from 0.5 to 120. */
int vax_float_short_literal(int fmt, const uint16_t words[8]);

/* The value of short literal lit (0..63) in format fmt. */
void vax_float_of_short_literal(int fmt, int lit, uint16_t words[8]);

/* words as the bytes of memory, lowest address first. */
void vax_float_to_bytes(int fmt, const uint16_t words[8], uint8_t bytes[16]);

#endif
