# EDIV by the most negative divisor, -2^31.  The quotient of any dividend
# with |divd| < 2^31 is 0 and fits, so there is no overflow: quo = 0,
# rem = divd, V = 0 (VAX Architecture: EDIV overflows only when the
# quotient does not fit a longword).
# no-simh: SIMH 3.8.1 negates the divisor as a C int32 (undefined for
# -2^31, like its MNEGL) and reports overflow: quo = divd<31:0>, rem = 0,
# V = 1.  tests/difftest excuses exactly this case (README.md there).
    movl    $0x3e803fb8, r0         # divd = 0x000000003e803fb8
    clrl    r1
    ediv    I^$0x80000000, r0, r2, r3
    movpsl  r4
    movl    $-5, r6                 # divd = -5
    movl    $-1, r7
    ediv    I^$0x80000000, r6, r8, r9
    movpsl  r10
    halt
# expect: r2=00000000
# expect: r3=3e803fb8
# expect: r4=041f0004
# expect: r8=00000000
# expect: r9=fffffffb
# expect: r10=041f0004
