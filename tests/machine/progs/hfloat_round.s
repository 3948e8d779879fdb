# H floating by hand: rounding at the 113th bit (half an LSB rounds away
# from zero), exact cancellation, a product, quotients that round down,
# conversions to and from integers (truncated, rounded, overflowing) and
# to F, the smallest exponent underflowing to zero with PSL<FU> clear,
# MOVO and CLRO condition codes.  H: lw0 = fraction<111:96> << 16 | sign
# << 15 | exponent (excess 16384), lw1..lw3 word-swapped; 1.0 is
# 0.1 * 2^1, so its LSB is 2^-112.
    movl $0x2000, r10
    # 1 + 2^-112: exact (fraction bit 0)
    addh3 $0x00000000000000000000000000004001, $0x00000000000000000000000000003f91, (r10)+
    # 1 + 2^-113: half an LSB, rounded up to 1 + 2^-112
    addh3 $0x00000000000000000000000000004001, $0x00000000000000000000000000003f90, (r10)+
    # 1 + 2^-114: a quarter, rounded down to 1
    addh3 $0x00000000000000000000000000004001, $0x00000000000000000000000000003f8f, (r10)+
    # 1 - 2^-113: 113 ones, exact (exponent 0x4000)
    subh3 $0x00000000000000000000000000003f90, $0x00000000000000000000000000004001, (r10)+
    movpsl (r10)+
    # 1 - 2^-114: 114 ones, rounded up to 1
    subh3 $0x00000000000000000000000000003f8f, $0x00000000000000000000000000004001, (r10)+
    # 1 - 2^-112: 112 ones and a 0
    subh3 $0x00000000000000000000000000003f91, $0x00000000000000000000000000004001, (r10)+
    mulh3 $0h1.5, $0h1.5, (r10)+            # 2.25
    divh3 $0h3.0, $0h1.0, (r10)+            # 1/3: 0.1010... * 2^-1, bit 113 is 0
    divh3 $0h3.0, $0h2.0, (r10)+            # 2/3
    cvtlh $-1, (r10)+
    cvtlh $0x7fffffff, (r10)+               # 31 ones
    cvthf $0x00000000000000000000010000004001, (r10)+   # 1 + 2^-24: F rounds up
    cvthf $0x00000000000000000000008000004001, (r10)+   # 1 + 2^-25: F rounds down
    cmph $0h1.0, $0h2.0
    movpsl (r10)+                           # N
    bicpsw $0x40                            # PSL<FU> clear: underflow gives 0
    mulh3 I^$0x00000000000000000000000000000001, $0h0.5, (r10)+
    movpsl (r10)+                           # Z
    movo $0x80000000000000000000000000000001, (r10)+
    movpsl (r10)+                           # N from bit 127, C kept
    clro (r10)+
    movpsl (r10)+                           # Z
    # to integers
    cvthl $0h2.5, r0                        # 2
    cvtrhl $0h2.5, r1                       # 3: half away from zero
    cvthl $0x0000000000000000000000004000c002, r2    # -2.5 -> -2
    cvtrhl $0x0000000000000000000000004000c002, r3   # -3
    cvtrhl $0h0.5, r4                       # 1
    cvtrhl $0x0000000000000000000000000000c000, r5   # -0.5 -> -1
    cvthl $0x00000000000000000000000000004020, r6    # 2^31: overflows
    movpsl r7                               # N V
    cvtrhl $0x0000000000000000000000010000c020, r8   # -(2^31 + 1/2) -> -(2^31 + 1)
    movpsl r9                               # V; low bits 7FFFFFFF
    halt
# expect: mem 2000=00004001
# expect: mem 2004=00000000
# expect: mem 200c=00010000
# expect: mem 2010=00004001
# expect: mem 201c=00010000
# expect: mem 2020=00004001
# expect: mem 202c=00000000
# expect: mem 2030=ffff4000
# expect: mem 203c=ffffffff
# expect: mem 2040=041f0000
# expect: mem 2044=00004001
# expect: mem 2050=00000000
# expect: mem 2054=ffff4000
# expect: mem 205c=ffffffff
# expect: mem 2060=fffeffff
# expect: mem 2064=20004002
# expect: mem 2074=55553fff
# expect: mem 2080=55555555
# expect: mem 2084=55554000
# expect: mem 2090=55555555
# expect: mem 2094=0000c001
# expect: mem 20a4=ffff401f
# expect: mem 20a8=0000fffc
# expect: mem 20ac=00000000
# expect: mem 20b4=00014080
# expect: mem 20b8=00004080
# expect: mem 20bc=041f0008
# expect: mem 20c0=00000000
# expect: mem 20cc=00000000
# expect: mem 20d0=041f0004
# expect: mem 20d4=00000001
# expect: mem 20e0=80000000
# expect: mem 20e4=041f0008
# expect: mem 20e8=00000000
# expect: mem 20f4=00000000
# expect: mem 20f8=041f0004
# expect: r0=00000002
# expect: r1=00000003
# expect: r2=fffffffe
# expect: r3=fffffffd
# expect: r4=00000001
# expect: r5=ffffffff
# expect: r6=80000000
# expect: r7=041f000a
# expect: r8=7fffffff
# expect: r9=041f0002
