#!/usr/bin/env python3
"""vasm's floating conversion against an exact reference (vaxfloat_ref.py),
on the values GNU as cannot be trusted with as well as ordinary ones:
exact ties (which round away from zero), H_floating with large negative
exponents, the smallest and largest value of each format, long digit
strings, and values just out of range (which must be errors).

usage: float_reference.py VASM [COUNT_PER_CLASS] [SEED]"""
import os
import random
import subprocess
import sys
import tempfile
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vaxfloat_ref import FORMATS, encode, exact_decimal, largest, smallest, short_literals  # noqa: E402

RANGE10 = {'f': 38, 'd': 38, 'g': 307, 'h': 4931}


def values(fmt, count, rnd):
    """(class name, decimal text) pairs for one format."""
    nbytes, ebits, prec = FORMATS[fmt]
    out = []
    for t in ['0', '-0', '0.0e55', '.', '-.0']:
        out.append(('zero', t))
    for lit, v in enumerate(short_literals()):
        out.append(('short literal', exact_decimal(v)))
    for v in [largest(fmt), smallest(fmt), -largest(fmt), -smallest(fmt)]:
        out.append(('extreme', dec(v)))
    # the neighbours of the extremes that still round into range
    top = largest(fmt) * (1 + Fraction(1, 2 ** (prec + 1))) * (1 - Fraction(1, 2 ** 200))
    out.append(('extreme', exact_decimal_approx(top)))
    low = smallest(fmt) * (1 - Fraction(1, 2 ** (prec + 1)))
    out.append(('extreme', dec(low)))  # a tie (when exact): rounds up to the smallest
    for _ in range(count):
        # exact ties m + 1/2 ulp, at every magnitude, both signs
        m = rnd.randint(2 ** (prec - 1), 2 ** prec - 1)
        k = rnd.randint(-(1 << (ebits - 1)) + 2, (1 << (ebits - 1)) - 2) if fmt != 'h' else rnd.randint(-400, 400)
        v = Fraction(2 * m + 1, 2 ** (prec + 1)) * Fraction(2) ** k
        if rnd.random() < 0.3:
            v = -v
        out.append(('tie', exact_decimal(v)))
        # random decimals over the whole range, up to 60 digits
        nd = rnd.randint(1, 60)
        digs = ''.join(rnd.choice('0123456789') for _ in range(nd))
        e = rnd.randint(-RANGE10[fmt], RANGE10[fmt])
        out.append(('random', '%s%s.%se%d' % (rnd.choice(['', '-']), rnd.choice('123456789'), digs, e)))
        # ties and near-ties written with many digits
        d = exact_decimal(v)
        out.append(('long', d.replace('e', '000000000000000000000000000000001e') if 'e' in d else d + '.0000000000000000000000000000001'))
    if fmt == 'h':
        for _ in range(count):
            out.append(('H small', '%d.%de-%d' % (rnd.randint(1, 9), rnd.randint(0, 10 ** 9), rnd.randint(21, 4930))))
    return out


def exact_decimal_approx(v):
    """A 70-digit decimal within 10^-69 relative of the Fraction v."""
    neg, v = v < 0, abs(v)
    e = len(str(v.numerator)) - len(str(v.denominator)) - 70
    q = v / Fraction(10) ** e
    return '%s%de%d' % ('-' if neg else '', q.numerator // q.denominator, e)


def dec(v):
    """v's exact decimal, or a 70-digit one when the exact one would be
    longer than the 5,000 significant digits vasm reads (the smallest H
    values need about 11,500)."""
    t = exact_decimal(v)
    return t if len(t) < 4900 else exact_decimal_approx(v)


def assemble(vasm, src, tmp):
    path = os.path.join(tmp, 'f.s')
    out = os.path.join(tmp, 'f.bin')
    open(path, 'w').write(src)
    r = subprocess.run([vasm, '--raw', '--base', '0', '-o', out, path],
                       capture_output=True, text=True)
    return (open(out, 'rb').read() if r.returncode == 0 else None), r.stderr


def main():
    vasm = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    rnd = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    directive = {'f': '.ffloat', 'd': '.dfloat', 'g': '.gfloat', 'h': '.hfloat'}
    total = bad = 0
    by_class = {}
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in 'fdgh':
            size = FORMATS[fmt][0]
            vals = values(fmt, count, rnd)
            want = [encode(t, fmt) for _, t in vals]
            inrange = [(c, t, w) for (c, t), w in zip(vals, want) if w not in ('overflow', 'underflow')]
            src = '\t.data\n' + ''.join('\t%s %s\n' % (directive[fmt], t) for _, t, _ in inrange)
            img, err = assemble(vasm, src, tmp)
            if img is None:
                print('FAIL: vasm rejected in-range values:', err[:2000])
                return 1
            for i, (c, t, w) in enumerate(inrange):
                got = img[i * size:(i + 1) * size].hex()
                total += 1
                by_class[c] = by_class.get(c, 0) + 1
                if got != w:
                    bad += 1
                    if bad <= 20:
                        print('MISMATCH %s %s: vasm %s, exact %s' % (directive[fmt], t, got, w))
            # just out of range: each must be refused, alone
            nbytes, ebits, prec = FORMATS[fmt]
            # largest + half its ulp: a tie, rounds away from zero, out;
            # below the smallest by more than half an ulp: out
            half = Fraction(2) ** ((1 << (ebits - 1)) - 2 - prec)
            over = largest(fmt) + half
            if len(exact_decimal(over)) > 4900:  # H: approximate, off the tie
                over += half / 2
            under = smallest(fmt) * (1 - Fraction(1, 2 ** prec))
            for t, why in [(dec(over), 'too large'), (dec(-over), 'too large'),
                           (dec(under), 'too small'), ('1e%d' % (RANGE10[fmt] + 2), 'too large'),
                           ('1e-%d' % (RANGE10[fmt] + 3), 'too small'), ('1e999999999', 'too large')]:
                assert encode(t, fmt) in ('overflow', 'underflow'), t
                img, err = assemble(vasm, '\t.data\n\t%s %s\n' % (directive[fmt], t), tmp)
                total += 1
                if img is not None or why not in err:
                    bad += 1
                    print('NOT REFUSED %s %s: %s' % (directive[fmt], t[:60], err.strip()[:200]))
    print('float-reference: %d values compared (%s), %d mismatches' %
          (total, ', '.join('%s %d' % kv for kv in sorted(by_class.items())), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
