# Floating exceptions (VAX SRM; the 8600 faults on floating overflow,
# divide by zero and underflow): the arithmetic fault's code (8, 9, 0xA),
# the PC of the faulting instruction, nothing stored, specifier side
# effects undone and the condition codes as before; the reserved operand
# fault the same without a code; underflow with PSL<FU> clear gives 0;
# an integer overflow in CVTFL/EMOD with PSL<IV> traps (code 1) after the
# store with the next instruction's PC.  Handlers store code, PC and PSL
# at (r10)+ and continue at r11; the PC is then turned into its distance
# from the label it must equal (0).
    movl $0x2000, r10
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h_par, 0x34(r9)       # arithmetic traps and faults
    moval h_nopar, 0x18(r9)     # reserved operand
    movl $0x20c0, r6
    movl $0x11111111, r2
    # reserved operand through (r7)+: r7 and r2 unchanged, C and Z kept
    movl $0x8000, (r6)
    movl r6, r7
    moval 1f, r11
    bispsw $5
0:  addf3 (r7)+, $0f1.0, r2
1:  moval 0b, r0
    subl2 r0, -8(r10)
    movl r7, (r10)+
    movl r2, (r10)+
    # floating overflow: the largest F times 2; N set before
    moval 1f, r11
    bispsw $8
0:  mulf3 $0xffff7fff, $0f2.0, r2
1:  moval 0b, r0
    subl2 r0, -8(r10)
    # divide by zero (a dirty zero divisor), memory destination kept
    movl $0x1234007f, r3
    movl $0x22222222, 4(r6)
    moval 1f, r11
0:  divf3 r3, $0f1.0, 4(r6)
1:  moval 0b, r0
    subl2 r0, -8(r10)
    movl 4(r6), (r10)+
    # D divide by zero with a register pair destination
    clrq r4
    moval 1f, r11
0:  divd2 r4, r2
1:  moval 0b, r0
    subl2 r0, -8(r10)
    # underflow with FU: the fault; FU is in the saved PSL
    moval 1f, r11
    bispsw $0x40
0:  mulf3 $0x80, $0f0.5, r2
1:  moval 0b, r0
    subl2 r0, -8(r10)
    movl r2, (r10)+
    # G underflow in CVTGF with FU
    moval 1f, r11
    bispsw $0x40
0:  cvtgf $0x0000000000003390, r2
1:  moval 0b, r0
    subl2 r0, -8(r10)
    # CVTFL 2^40 with IV: stored (0), V, then the trap after it
    moval 1f, r11
    bispsw $0x20
    cvtfl $0x5480, r4
1:  moval 1b, r0
    subl2 r0, -8(r10)
    movl r4, (r10)+
    # EMODF with IV: 1.0 x 2^40 has an integer part 2^40: V, trap
    moval 1f, r11
    bispsw $0x20
    emodf $0f1.0, $0, $0x5480, r4, r5
1:  moval 1b, r0
    subl2 r0, -8(r10)
    movl r4, (r10)+
    movl r5, (r10)+
    # POLYF of degree 32: reserved operand, R0-R3 untouched
    movl $0x33333333, r0
    moval 1f, r11
0:  polyf $0f1.0, $32, tbl
1:  moval 0b, r1
    subl2 r1, -8(r10)
    movl r0, (r10)+
    # ACBF overflowing: the index is not written
    movl $0xffff7fff, r8
    moval 1f, r11
0:  acbf $0f1.0, $0xffff7fff, r8, 1f
1:  moval 0b, r1
    subl2 r1, -8(r10)
    movl r8, (r10)+
    halt
    .align 2
h_par:
    movl (sp)+, (r10)+          # code
    brb h_pcpsl
    .align 2
h_nopar:
    clrl (r10)+                 # (no code)
h_pcpsl:
    movl (sp)+, (r10)+          # PC
    movl (sp)+, (r10)+          # PSL
    jmp (r11)
tbl: .long 0x4080
# Each handler stores code (0 for the reserved operand), PC distance, PSL.
# expect: mem 2000=00000000
# expect: mem 2004=00000000
# expect: mem 2008=041f0005
# expect: mem 200c=000020c0
# expect: mem 2010=11111111
# expect: mem 2014=00000008
# expect: mem 2018=00000000
# expect: mem 201c=041f0008
# expect: mem 2020=00000009
# expect: mem 2024=00000000
# expect: mem 2028=041f0000
# expect: mem 202c=22222222
# expect: mem 2030=00000009
# expect: mem 2034=00000000
# expect: mem 2038=041f0000
# expect: mem 203c=0000000a
# expect: mem 2040=00000000
# expect: mem 2044=041f0040
# expect: mem 2048=11111111
# expect: mem 204c=0000000a
# expect: mem 2050=00000000
# expect: mem 2054=041f0040
# expect: mem 2058=00000001
# expect: mem 205c=00000000
# expect: mem 2060=041f0026
# expect: mem 2064=00000000
# expect: mem 2068=00000001
# expect: mem 206c=00000000
# expect: mem 2070=041f0026
# expect: mem 2074=00000000
# expect: mem 2078=00000000
# expect: mem 207c=00000000
# expect: mem 2080=00000000
# expect: mem 2084=041f0000
# expect: mem 2088=33333333
# expect: mem 208c=00000008
# expect: mem 2090=00000000
# expect: mem 2094=041f0000
# expect: mem 2098=ffff7fff
