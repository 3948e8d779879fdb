# Conversions of F, D and G with hand-computed results: truncation and
# CVTR's rounding half away from zero, integer overflow without a trap
# (PSL<IV> clear: V set, the low bits stored), F rounding of longwords and
# of D and G, exact F to D and F to G.
    movl $0x2000, r10
    cvtfl $0f3.5, (r10)+                # 3
    cvtrfl $0f3.5, (r10)+               # 4
    cvtfl $0xc160, (r10)+               # -3.5 -> -3
    cvtrfl $0xc160, (r10)+              # -3.5 -> -4
    cvtrfl $0f0.5, (r10)+               # 1 (half: away from zero)
    cvtrfl $0x3f80, (r10)+              # 0.25 -> 0
    cvtfb $0x4448, r0                   # 200.0 = .11001 x 2^8: not a byte
    movpsl (r10)+                       # V (and N: the byte 0xC8)
    cvtfw $0x4448, r1                   # 200 fits a word
    cvtfb $0xc400, r2                   # -128 fits a byte
    movpsl (r10)+                       # N
    cvtfl $0x5480, r3                   # 2^40: V, low longword 0
    movpsl (r10)+                       # Z V
    cvtdl $0x0000028000005080, r4       # D 2^32 + 5: V, 5
    cvtrdl $0x0000000000005000, r5     # D 2^31 rounds to itself: V
    cvtrdl $0x000000000000d000, r6      # D -2^31 fits
    cvtlf $0x7fffffff, (r10)+           # 31 ones round up to 2^31
    cvtld $0x7fffffff, (r10)+           # exact in D
    cvtbg $0xff, (r10)+                 # the byte -1 -> G -1.0
    cvtlf $0x01000001, (r10)+           # 2^24 + 1: half an LSB above 2^24, away
    cvtdf $0xffffffffffff407f, (r10)+   # D 1 - 2^-56: rounds to 1.0
    cvtfd $0xffff40c0, (r10)+           # exact, low longword 0
    cvtfg $0f3.5, (r10)+                # G 3.5: exponent 1026, .11
    cvtgf $0x0000000000003390, r7       # G 2^-200 underflows F: 0 (FU clear)
    movpsl (r10)+                       # Z
    cvtdf $0x0000800000004080, r8       # D 1 + 2^-24 exactly: half, away
    cvtgf $0x0000100000004010, r9       # G 1 + 2^-24 exactly: half, away
    halt
# expect: mem 2000=00000003
# expect: mem 2004=00000004
# expect: mem 2008=fffffffd
# expect: mem 200c=fffffffc
# expect: mem 2010=00000001
# expect: mem 2014=00000000
# expect: mem 2018=041f000a
# expect: mem 201c=041f0008
# expect: mem 2020=041f0006
# expect: r0=000000c8
# expect: r1=000000c8
# expect: r2=00000080
# expect: r3=00000000
# expect: r4=00000005
# expect: r5=80000000
# expect: r6=80000000
# expect: mem 2024=00005000
# expect: mem 2028=ffff4fff
# expect: mem 202c=0000fe00
# expect: mem 2030=0000c010
# expect: mem 2034=00000000
# expect: mem 2038=00014c80
# expect: mem 203c=00004080
# expect: mem 2040=ffff40c0
# expect: mem 2044=00000000
# expect: mem 2048=0000402c
# expect: mem 204c=00000000
# expect: mem 2050=041f0004
# expect: r7=00000000
# expect: r8=00014080
# expect: r9=00014080
