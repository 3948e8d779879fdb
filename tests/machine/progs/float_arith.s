# F, D and G arithmetic, moves, compares and ACB at the edges, with the
# results worked out by hand from the formats (MICROARCHITECTURE.md §12,
# tests/fbox/test_fbox.c: F word 0 = sign<15> exponent<14:7> excess 128,
# fraction<6:0>, then 16 more fraction bits; value 0.1fff x 2^(e-128)).
    movl $0x2000, r10
    addf3 $0f1.0, $0f2.0, (r10)+        # 3.0 = .11 x 2^2
    subf3 $0f1.5, $0f1.0, (r10)+        # 1.0 - 1.5 = -0.5
    mulf3 $0f1.5, $0f1.5, (r10)+        # 2.25 = .1001 x 2^2
    divf3 $0f3.0, $0f1.0, (r10)+        # 1/3: 0xAAAAAA and a one: rounds up
    addf3 $0x3480, $0f1.0, (r10)+       # 1 + 2^-24: half an LSB, away from 0
    mnegf $0f1.0, r0
    addf3 $0xb480, r0, (r10)+           # -(1 + 2^-24): away from 0 too
    addf3 $0x3400, $0f1.0, (r10)+       # 1 + 2^-25: below half: 1.0
    subf3 $0x3400, $0f1.0, (r10)+       # 1 - 2^-25: 24 ones, then a one: 1.0
    movpsl (r10)+                       # N Z V C = 0
    subf3 $0f1.0, $0f1.0, (r10)+        # a true zero
    movpsl (r10)+                       # Z
    mulf3 $0x80, $0f1.0, (r10)+         # 2^-128, the smallest F
    mulf3 $0x80, $0f0.5, (r10)+         # 2^-129 underflows: FU clear, 0
    movpsl (r10)+                       # Z, and no fault
    addf3 $0x1234007f, $0f1.0, (r10)+   # a dirty zero is zero
    divd3 $0d3.0, $0d1.0, (r10)+        # D 1/3: 56 bits 0xAAAA...AB
    divg3 $0g3.0, $0g1.0, (r10)+        # G 1/3: 53 bits 0x15555555555555
    addg3 $0x3cc0, $0g1.0, (r10)+       # G 1 + 2^-53: rounds to 1 + 2^-52
    movd $0d1.5, r2
    muld2 $0d2.0, r2                    # r2:r3 = 3.0
    movf $0x5555007f, r4                # a dirty zero moves as a true zero
    movpsl (r10)+                       # Z (C kept: 0)
    mnegd $0d1.5, r6                    # r6:r7 = -1.5
    cmpf $0f1.0, $0f2.0
    movpsl (r10)+                       # N
    cmpd $5, $0d0.5                     # the literal 5 is the float .1101 x 2^1
    movpsl (r10)+                       # 1.625 > 0.5: all clear
    cmpd $0x0000000100000005, $0        # dirty zero (imm) = zero (the literal 0 is 0.5!)
    movpsl (r10)+                       # 0 < 0.5: N
    tstg $0x8010                        # G -1.0 (exponent 1025, sign)
    movpsl (r10)+                       # N
    # ACBF up: index 1, 2, 3, 4 run the body, 5 falls out
    movf $0f1.0, r9
    clrl r8
1:  incl r8
    acbf $0f4.0, $0f1.0, r9, 1b
    # ACBF down by -1.0: 3, 2, 1 run the body, 0 falls out
    mnegf $0f1.0, r1
    movf $0f3.0, r11
    clrl r5
2:  incl r5
    acbf $0f1.0, r1, r11, 2b
    halt
# expect: mem 2000=00004140
# expect: mem 2004=0000c000
# expect: mem 2008=00004110
# expect: mem 200c=aaab3faa
# expect: mem 2010=00014080
# expect: mem 2014=0001c080
# expect: mem 2018=00004080
# expect: mem 201c=00004080
# expect: mem 2020=041f0000
# expect: mem 2024=00000000
# expect: mem 2028=041f0004
# expect: mem 202c=00000080
# expect: mem 2030=00000000
# expect: mem 2034=041f0004
# expect: mem 2038=00004080
# expect: mem 203c=aaaa3faa
# expect: mem 2040=aaabaaaa
# expect: mem 2044=55553ff5
# expect: mem 2048=55555555
# expect: mem 204c=00004010
# expect: mem 2050=00010000
# expect: mem 2054=041f0004
# expect: mem 2058=041f0008
# expect: mem 205c=041f0000
# expect: mem 2060=041f0008
# expect: mem 2064=041f0008
# expect: r2=00004140
# expect: r3=00000000
# expect: r4=00000000
# expect: r6=0000c0c0
# expect: r7=00000000
# expect: r8=00000004
# expect: r9=000041a0
# expect: r5=00000003
# expect: r11=00000000
