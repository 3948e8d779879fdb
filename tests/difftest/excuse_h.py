"""SIMH 3.8.1 deviations of the floath group, excused precisely
(README.md, "Known SIMH deviations"; difftest.py calls this module).

EMODH whose product exponent exceeds 128 (an integer part of more than 128
bits).  The architecture: int receives the low-order 32 bits of the
integer part of the product (the product of muld and the extended mulr,
truncated to a 128-bit fraction before normalisation), V is set, fract is
0.  For exponents 129..159 those bits are the fraction's lowest bits
shifted up and are usually nonzero.  SIMH 3.8.1 stores int = 0 there;
open-simh fixed it (vax_octa.c, 15-Sep-11: "Fixed integer overflow bug in
EMODH") and open-simh 4.1's vax8600 stores the architectural value, as our
machine does.  Minimal program (tests/machine/progs/hfloat_emod_big.s checks
our answer by hand):

    emodh $0h1.0, $0, $0x12345678000000000000000045554081, r0, r4

(muld = 0.1f... * 2^129 with fraction bits 31:16 = 0x5678 and 15:0 =
0x1234 in its last longword; the product is muld itself, e = 129, whose
integer part ends in fraction bits 15:0 followed by 16 zeros): vax780
r0 = 0, vax8600 and ours r0 = 0x12340000, all three V = 1.

A mismatch is excused only when (a) SIMH 3.8.1's own instruction history
shows an EMODH whose operands, as it read them, make a product with an
exponent above 128, and (b) open-simh 4.1 (the vax8600 reference) running
the same program agrees with ours in every compared field."""
import os


def _swap(x):
    return ((x << 16) | (x >> 16)) & 0xFFFFFFFF


def _frac128(w, ext=0):
    """The 128-bit unpacked fraction (hidden bit at 127) of an H datum
    given as four longwords, the EMOD extension's bits 15:1 below it."""
    f = (w[0] >> 16) << 96 | _swap(w[1]) << 64 | _swap(w[2]) << 32 | _swap(w[3])
    return ((1 << 112) | f) << 15 | (ext >> 1)


def emodh_exponent(mulr, ext, muld):
    """The unbiased exponent of EMODH's normalised product, or None for a
    zero or reserved operand."""
    ea, eb = mulr[0] & 0x7FFF, muld[0] & 0x7FFF
    if ea == 0 or eb == 0:
        return None
    top = (_frac128(mulr, ext) * _frac128(muld)) >> 128
    return (ea - 16384) + (eb - 16384) - (0 if top >> 127 else 1)


def emodh_history_evidence(hist):
    """PCs of EMODHs in SIMH's history whose product exponent is > 128.
    Each EMODH line is followed by four lines of operand longwords:
    mulr, mulrx, muld, int, fract on the first, the other longwords of
    mulr and muld on the next three."""
    ev = []
    for i, line in enumerate(hist):
        if "| EMODH " not in line or i + 4 >= len(hist):
            continue
        try:
            rows = [hist[i + k].split() for k in range(1, 5)]
            mulr = [int(rows[0][0], 16)] + [int(rows[k][0], 16) for k in range(1, 4)]
            muld = [int(rows[0][2], 16)] + [int(rows[k][1], 16) for k in range(1, 4)]
            ext = int(rows[0][1], 16) & 0xFFFF
        except (IndexError, ValueError):
            continue
        e = emodh_exponent(mulr, ext, muld)
        if e is not None and e > 128:
            ev.append(line.split("|")[0].split()[0])
    return ev


def try_excuse(prog, ours, run_simh, compare, oracle_8600):
    """The reason the program's mismatch is a known SIMH 3.8.1 deviation
    of this group, or None.  oracle_8600: open-simh's vax8600."""
    if "emodh" not in prog.text or not os.access(oracle_8600, os.X_OK):
        return None
    ev = emodh_history_evidence(run_simh([prog], history=True)[prog.idx].get("history", []))
    if not ev:
        return None
    ref = run_simh([prog], binary=oracle_8600)[prog.idx]
    if compare(ref, ours, prog):
        return None
    return ("SIMH 3.8.1 EMODH integer part beyond 128 bits stored as 0: EMODH at PC " +
            ", ".join(sorted(set(ev))) + "; open-simh 4.1 (vax8600) agrees with ours")
