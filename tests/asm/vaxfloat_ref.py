"""An independent reference for VAX floating encodings, in exact rational
arithmetic (Python's Fraction): decimal text to the F, D, G or H bytes as
they lie in memory, rounded to nearest with ties away from zero.  Used by
float_reference.py to check vasm, and by gen_floats.py to classify values.
It shares nothing with vax/isa/vax_float.c but the formats' definition."""
import re
import sys
from fractions import Fraction

# H_floating's extremes have about 5,000 decimal digits
if hasattr(sys, 'set_int_max_str_digits'):
    sys.set_int_max_str_digits(0)

# bytes, exponent bits, precision (fraction bits with the hidden 1)
FORMATS = {'f': (4, 8, 24), 'd': (8, 8, 56), 'g': (8, 11, 53), 'h': (16, 15, 113)}


def to_fraction(text):
    """The value of a decimal constant as GNU as's syntax allows it:
    [+-] digits [. digits] [e [+-] digits], every part optional."""
    m = re.fullmatch(r'([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d*))?', text)
    if not m:
        raise ValueError('not a decimal constant: %r' % text)
    sign, ip, fp, ex = m.group(1), m.group(2), m.group(3) or '', m.group(4) or ''
    digits = int(ip + fp) if ip + fp else 0
    e10 = (int(ex) if ex not in ('', '+', '-') else 0) - len(fp)
    if digits and abs(e10) > 20000:
        # far outside every format (H spans 10^-4933..10^4932): keep
        # the number small, on the same side of the range
        e10 = 20000 if e10 > 0 else -20000 - len(str(digits))
    v = Fraction(digits) * (Fraction(10) ** e10)
    return -v if sign == '-' else v


def parts(value, fmt):
    """(sign, biased exponent, rounded mantissa, exact mantissa) of a
    nonzero Fraction; the mantissa has prec bits, hidden bit included."""
    nbytes, ebits, prec = FORMATS[fmt]
    neg = value < 0
    v = abs(value)
    k = v.numerator.bit_length() - v.denominator.bit_length()
    while Fraction(2) ** k <= v:
        k += 1
    while Fraction(2) ** (k - 1) > v:
        k -= 1
    exact = v / Fraction(2) ** k * 2 ** prec  # in [2^(prec-1), 2^prec)
    m = exact.numerator // exact.denominator
    if exact - m >= Fraction(1, 2):
        m += 1
        if m == 2 ** prec:
            m //= 2
            k += 1
    return neg, k + (1 << (ebits - 1)), m, exact


def is_tie(text, fmt):
    """True if the decimal lies exactly halfway between two neighbours."""
    v = to_fraction(text)
    if v == 0:
        return False
    exact = parts(v, fmt)[3]
    return exact - exact.numerator // exact.denominator == Fraction(1, 2)


def encode(text, fmt):
    """Memory bytes (hex) of the decimal text in fmt, or 'overflow' /
    'underflow' when it is out of the format's range."""
    nbytes, ebits, prec = FORMATS[fmt]
    v = to_fraction(text)
    if v == 0:
        return '00' * nbytes
    neg, exp, m, _ = parts(v, fmt)
    if exp >= 1 << ebits:
        return 'overflow'
    if exp < 1:
        return 'underflow'
    nw = nbytes // 2
    bits = (int(neg) << (16 * nw - 1)) | (exp << (prec - 1)) | (m - 2 ** (prec - 1))
    words = [(bits >> (16 * (nw - 1 - i))) & 0xFFFF for i in range(nw)]
    return ''.join('%02x%02x' % (w & 0xFF, w >> 8) for w in words)


def exact_decimal(value):
    """The exact decimal text of a Fraction whose denominator is a power
    of two (every VAX floating value is one)."""
    num, den = value.numerator, value.denominator
    assert den & (den - 1) == 0
    k = den.bit_length() - 1
    return '%de-%d' % (num * 5 ** k, k) if k else str(num)


def largest(fmt):
    nbytes, ebits, prec = FORMATS[fmt]
    return Fraction(2 ** prec - 1) * Fraction(2) ** ((1 << (ebits - 1)) - 1 - prec)


def smallest(fmt):
    nbytes, ebits, prec = FORMATS[fmt]
    return Fraction(1, 2) * Fraction(2) ** (1 - (1 << (ebits - 1)))


def short_literals():
    """The 64 values of the floating short literals, literal order."""
    return [Fraction(8 + (lit & 7), 16) * 2 ** (lit >> 3) for lit in range(64)]
