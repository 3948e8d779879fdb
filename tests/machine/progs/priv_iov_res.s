# The result register RES (MICROARCHITECTURE.md §3.1): an execute flow
# writes a register result in the word that computes it and IRDs there,
# unless the operand is in memory or an overflow trap is due.  Every side:
# register and memory destinations, with and without PSL<IV>, overflowing
# and not, and SOBGTR/AOBLSS/ACBL with a memory index.  Each trap handler
# stores code, PC and PSL at (r10)+ and continues at r11 with IV set.
    movl $0x2000, r10
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h_par, 0x34(r9)        # arithmetic trap: one parameter
    movl $0x20c0, r6             # memory operands at 0x20c0..
    # IV clear: overflow sets V, no trap, both destinations
    movl $0x7fffffff, r2
    addl2 $1, r2
    movpsl (r10)+
    movl $0x7fffffff, (r6)
    addl2 $1, (r6)
    movpsl (r10)+
    # IV set: register destination, no overflow, then overflow
    bispsw $0x20
    movl $5, r3
    subl3 $2, r3, r4
    movl r4, (r10)+
    moval 1f, r11
    movl $0x7fffffff, r2
    incl r2
1:  movl r2, (r10)+
    # IV set: memory destination overflows (stored, then the trap)
    moval 1f, r11
    movl $0x80000000, 4(r6)
    decl 4(r6)
1:  moval 1f, r11
    addl3 $0x40000000, $0x40000000, 8(r6)
1:  moval 1f, r11
    movw $0x7fff, 12(r6)
    addw2 $1, 12(r6)             # word width: only the low word changes
1:  moval 1f, r11
    movl $0x12345678, r7
    addb2 $0x7f, r7              # byte into a register: the rest kept
1:  movl r7, (r10)+
    bicpsw $0x20
    # logic and moves into memory and registers
    movl $0xf0f0f0f0, 16(r6)
    xorl2 $0xffffffff, 16(r6)
    bicl3 $0xff, 16(r6), r8
    movl r8, (r10)+
    mcoml r8, 20(r6)
    # loops with the index in memory
    movl $3, 24(r6)
    clrl r5
2:  incl r5
    sobgtr 24(r6), 2b
    movl $0, 28(r6)
3:  incl r5
    aoblss $4, 28(r6), 3b
    movl $0, 32(r6)
4:  incl r5
    acbl $9, $3, 32(r6), 4b
    movl r5, (r10)+
    halt
    .align 2
h_par:
    movl (sp)+, (r10)+           # code
    movl (sp)+, (r10)+           # PC
    movl (sp)+, (r10)+           # PSL
    bispsw $0x20                 # the trap's new PSL has IV clear
    jmp (r11)
