# Packed decimal edge cases, values computed by hand (PSL<DV> clear, so
# no trap): overflow of 31 nines + 1, 31-digit times 31-digit, DIVP signs,
# CVTLP/CVTPL of the most negative longword, ASHP rounding and overflow,
# a zero difference, -0 = +0, and EDITPC building "  $1,234.56-".
    movl    $0x2000, r10
    movc3   $16, nines, (r10)
    addp4   $1, one, $31, (r10)         # 10^31: 31 zero digits left, V, Z
    movpsl  0x10(r10)
    movl    r3, 0x14(r10)
    mulp    $31, nines, $31, nines, $31, 0x20(r10)  # low 31 digits of
    movpsl  0x30(r10)                   # 10^62 - 2*10^31 + 1: ...0001, V
    divp    $1, two, $1, m7, $1, 0x34(r10)      # -7 / 2 = -3
    divp    $1, m2, $1, m7, $1, 0x35(r10)       # -7 / -2 = +3
    divp    $1, two, $1, m1, $1, 0x36(r10)      # -1 / 2 = +0 (Z)
    movpsl  0x38(r10)
    cvtlp   $0x80000000, $10, 0x3c(r10)  # 2147483648-: 02 14 74 83 64 8D
    movpsl  0x44(r10)
    cvtlp   $0x80000000, $9, 0x48(r10)   # 147483648- and V
    movpsl  0x50(r10)
    cvtpl   $10, 0x3c(r10), r6           # back to 0x80000000, N
    movpsl  r7
    cvtpl   $10, plus2g, r8              # +2147483648 does not fit: V
    movpsl  r9
    ashp    $-2, $5, n12355, $5, $5, 0x54(r10)  # 123.55 rounds to 124
    ashp    $3, $5, n12345, $0, $5, 0x58(r10)   # 12345000: 45000, V
    movpsl  0x5c(r10)
    subp6   $3, n555, $3, n555, $3, 0x60(r10)   # 0: +, Z
    movpsl  0x64(r10)
    cmpp3   $1, mzero, pzero             # -0 = +0
    movpsl  0x68(r10)
    editpc  $8, price, pattern, 0x70(r10)
    movpsl  0x7c(r10)
    movl    r3, 0x80(r10)
    movl    r5, 0x84(r10)
    halt
nines:  .byte 0x99,0x99,0x99,0x99,0x99,0x99,0x99,0x99
        .byte 0x99,0x99,0x99,0x99,0x99,0x99,0x99,0x9c
one:    .byte 0x1c
two:    .byte 0x2c
m2:     .byte 0x2d
m7:     .byte 0x7d
m1:     .byte 0x1b                       # alternate minus sign
plus2g: .byte 0x02,0x14,0x74,0x83,0x64,0x8f  # alternate plus sign
n12355: .byte 0x12,0x35,0x5c
n12345: .byte 0x12,0x34,0x5a
n555:   .byte 0x55,0x5c
mzero:  .byte 0x0d
pzero:  .byte 0x0c
price:  .byte 0x00,0x01,0x23,0x45,0x6d   # -00123456 (1234.56-)
pattern: .byte 0x41,0x24                 # LOAD_SIGN '$'
        .byte 0xa3                       # FLOAT 3: "  $1"
        .byte 0x44,0x2c                  # INSERT ','
        .byte 0x93                       # MOVE 3: "234"
        .byte 0x44,0x2e                  # INSERT '.'
        .byte 0x92                       # MOVE 2: "56"
        .byte 0x43,0x2d                  # LOAD_MINUS '-'
        .byte 0x04                       # STORE_SIGN
patend: .byte 0x00                       # END
# expect: mem 0x2000=00000000
# expect: mem 0x2004=00000000
# expect: mem 0x2008=00000000
# expect: mem 0x200c=0c000000
# expect: mem 0x2010=041f0006
# expect: mem 0x2014=00002000
# expect: mem 0x2020=00000000
# expect: mem 0x2024=00000000
# expect: mem 0x2028=00000000
# expect: mem 0x202c=1c000000
# expect: mem 0x2030=041f0002
# expect: mem 0x2034=000c3c3d
# expect: mem 0x2038=041f0004
# expect: mem 0x203c=83741402
# expect: mem 0x2044=041f0008
# expect: mem 0x2048=64837414
# expect: mem 0x2050=041f000a
# expect: r6=80000000
# expect: r7=041f0008
# expect: r8=80000000
# expect: r9=041f000a
# expect: mem 0x2054=004c1200
# expect: mem 0x2058=000c0045
# expect: mem 0x205c=041f0002
# expect: mem 0x2060=00000c00
# expect: mem 0x2064=041f0004
# expect: mem 0x2068=041f0004
# expect: mem 0x2070=31242020
# expect: mem 0x2074=3433322c
# expect: mem 0x2078=2d36352e
# expect: mem 0x207c=041f0009
# expect: mem 0x2084=0000207c
