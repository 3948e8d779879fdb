# EMODH with a product exponent above 128: int gets the low 32 bits of
# the integer part, V, fract 0.  muld = 0.1f... * 2^129 (exponent 0x4081)
# with fraction<31:16> = 0x5678 and <15:0> = 0x1234 (its last longword,
# word-swapped: 0x12345678); times 1.0 it is itself, and its integer
# part ends with fraction<15:0> followed by 129 - 113 = 16 zero bits:
# 0x12340000.  At exponent 161 the fraction's last bit lands at 2^48: 0.
# no-simh: SIMH 3.8.1 stores int = 0 here (fixed in open-simh, whose
# vax8600 agrees with these values; tests/difftest/excuse_h.py)
    emodh $0h1.0, $0, $0x12345678000000000000000045554081, r0, r4
    movpsl r8
    emodh $0h1.0, $0, $0x123456780000000000000000c55540a1, r1, r4
    movpsl r9
    halt
# expect: r0=12340000
# expect: r1=00000000
# expect: r4=00000000
# expect: r5=00000000
# expect: r6=00000000
# expect: r7=00000000
# expect: r8=041f0006
# expect: r9=041f0006
