# H floating exceptions, by hand.  Floating divide by zero, overflow and
# underflow (with PSL<FU>) are faults through SCB 0x34 with codes 9, 8
# and 0xA: the PC of the instruction, the PSL (condition codes too) as it
# was before it, the destination unchanged, autoincrement undone.  A
# reserved operand (sign 1, exponent 0) faults through 0x18.  CVTHL and
# EMODH integer overflow with PSL<IV> trap (code 1) after storing.  The
# handlers store code, PC - r12 (r12: the PC expected), PSL at (r10)+ and
# continue at r11.
    movl $0x2000, r10
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h_arith, 0x34(r9)
    moval h_rsv, 0x18(r9)
    movl $0x20c0, r6
    movq $-1, (r6)
    movq $-1, 8(r6)
    # divide by zero, with N Z C set before it
    moval 1f, r11
    moval 2f, r12
    bispsw $0x0d
2:  divh2 I^$0, (r6)
1:  bicpsw $0x0f
    # overflow: the largest number doubled
    moval 1f, r11
    moval 2f, r12
2:  addh3 $0xffffffffffffffffffffffffffff7fff, $0xffffffffffffffffffffffffffff7fff, (r6)
    # underflow with PSL<FU>: the smallest number halved
1:  moval 1f, r11
    moval 2f, r12
    bispsw $0x40
2:  mulh3 I^$0x00000000000000000000000000000001, $0h0.5, (r6)
    # reserved operand
1:  moval 1f, r11
    moval 2f, r12
2:  addh3 I^$0x8000, $0h1.0, (r6)
    # the fault undoes (r7)+
1:  movl $0x20c0, r7
    moval 1f, r11
    moval 2f, r12
2:  divh3 I^$0, (r7)+, r0
1:  movl r7, (r10)+
    # CVTHL 2^31 with PSL<IV>: stored, then the integer overflow trap
    moval 1f, r11
    moval 1f, r12
    bispsw $0x20
    cvthl $0x00000000000000000000000000004020, r8
1:  bicpsw $0x20
    movl r8, (r10)+
    # EMODH 1.0 * 2^40: int 2^40 does not fit (low bits 0), fract 0
    moval 1f, r11
    moval 1f, r12
    bispsw $0x20
    emodh $0h1.0, $0, $0x00000000000000000000000000004029, r8, 16(r6)
1:  bicpsw $0x20
    movl r8, (r10)+
    halt
    .align 2
h_arith:
    movl (sp)+, (r10)+           # code
    subl3 r12, (sp)+, (r10)+     # PC - the expected PC
    movl (sp)+, (r10)+           # PSL
    jmp (r11)
    .align 2
h_rsv:
    movl $0x18, (r10)+
    subl3 r12, (sp)+, (r10)+
    movl (sp)+, (r10)+
    jmp (r11)
# expect: mem 2000=00000009
# expect: mem 2004=00000000
# expect: mem 2008=041f000d
# expect: mem 200c=00000008
# expect: mem 2010=00000000
# expect: mem 2014=041f0000
# expect: mem 2018=0000000a
# expect: mem 201c=00000000
# expect: mem 2020=041f0040
# expect: mem 2024=00000018
# expect: mem 2028=00000000
# expect: mem 202c=041f0000
# expect: mem 2030=00000009
# expect: mem 2034=00000000
# expect: mem 2038=041f0000
# expect: mem 203c=000020c0
# expect: mem 2040=00000001
# expect: mem 2044=00000000
# expect: mem 2048=041f002a
# expect: mem 204c=80000000
# expect: mem 2050=00000001
# expect: mem 2054=00000000
# expect: mem 2058=041f0026
# expect: mem 205c=00000000
# expect: mem 20c0=ffffffff
# expect: mem 20cc=ffffffff
# expect: mem 20d0=00000000
# expect: mem 20dc=00000000
