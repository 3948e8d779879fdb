# The register fork (MICROARCHITECTURE.md §4): the last non-branch operand
# in a register enters MNEMONIC.REG.  Widths merge into the register's
# high bits, reads ignore them, CC and overflow as the ordinary flows,
# PUSHL SP pushes the old SP, and indexed operands take the ordinary
# specifier flows.
    movl $0x2000, r10
    movl $0xAABBCCDD, r0
    movl $0x11223344, r1
    addb2 r1, r0                 # byte add into the low byte only
    movpsl (r10)
    movl r0, 4(r10)
    movl $0xFFFF7FFF, r2
    incw r2                      # word overflow: V, high word kept
    movpsl 8(r10)
    movl r2, 12(r10)
    movl $0x80000000, r3
    decl r3                      # V, no trap (IV clear)
    movpsl 16(r10)
    movl r3, 20(r10)
    movl $0x123456FF, r4
    movb $0x80, r4               # N set, other bytes kept
    movpsl 24(r10)
    movzbl r4, r5
    movpsl 28(r10)
    movl r5, 32(r10)
    movl $0xFFFF0001, r6
    cmpw r6, $1                  # high word ignored: equal
    movpsl 36(r10)
    cmpb $0x7F, r6
    movpsl 40(r10)
    tstw r6
    movpsl 44(r10)
    bitb $0xFE, r6
    movpsl 48(r10)
    mcoml r6, r7
    mnegl r7, r8
    movpsl 52(r10)
    movl r7, 56(r10)
    movl r8, 60(r10)
    movl $0xCAFEBABE, r9
    clrw r9
    movpsl 64(r10)
    movl r9, 68(r10)
    subw3 $1, $0, r9             # 0 - 1 = 0xFFFF, C
    movpsl 72(r10)
    movl r9, 76(r10)
    addl3 $0x7FFFFFFF, $1, r11   # V
    movpsl 80(r10)
    movl r11, 84(r10)
    bicl3 $0xFF, $0x12345678, r11
    xorl2 $0x0F0F0F0F, r11
    bisl2 $0x80000000, r11
    movpsl 88(r10)
    movl r11, 92(r10)
    movab 96(r10), r1
    movl r1, 96(r10)
    movpsl r2
    movl r2, 100(r10)
    # PUSHL SP pushes SP before the decrement; PUSHL R0 the register
    movl sp, r3
    pushl sp
    pushl r0
    movl (sp)+, 104(r10)
    movl (sp)+, r4
    subl3 r4, r3, 108(r10)       # 0: the old SP was pushed
    cmpl sp, r3
    movpsl 112(r10)
    # SOBGTR / SOBGEQ on a register, taken and not; overflow on SOBGTR
    movl $3, r5
    clrl r6
1:  incl r6
    sobgtr r5, 1b
    movl r6, 116(r10)
    movl r5, 120(r10)
    movl $2, r5
2:  incl r6
    sobgeq r5, 2b
    movl r6, 124(r10)
    movl r5, 128(r10)
    movl $0x80000000, r5
    sobgtr r5, 3f                # V; 0x7FFFFFFF > 0: taken
    movl $1, 132(r10)
3:  movpsl 136(r10)
    movl r5, 140(r10)
    # an indexed operand takes the ordinary flows; a register read after autoincrement
    movl $1, r7
    movl $0x55, 144(r10)[r7]
    addl2 $2, 144(r10)[r7]
    movl $0x2010, r8
    cmpl (r8)+, r8              # r8 read after its autoincrement
    movpsl 152(r10)
    movl r8, 156(r10)
    halt
