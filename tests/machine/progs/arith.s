# ADD/SUB/INC/DEC/ADWC/SBWC at the edges of each width; CC after each.
    movl $0x2000, r10
    addb3 $0x7f, $1, r0
    movpsl (r10)
    addb3 $0xff, $1, r1
    movpsl 4(r10)
    addw3 $0x7fff, $0x7fff, r2
    movpsl 8(r10)
    addl3 $0xffffffff, $0xffffffff, r3
    movpsl 12(r10)
    subl3 $1, $0, r4
    movpsl 16(r10)
    subl3 $0x80000000, $0x7fffffff, r5
    movpsl 20(r10)
    subb3 $1, $0x80, r6
    movpsl 24(r10)
    movl $0x7fffffff, r7
    incl r7
    movpsl 28(r10)
    movw $0, r8
    decw r8
    movpsl 32(r10)
    movl $0xffffffff, r9
    addl2 $1, r9
    adwc $0, r9
    movpsl 36(r10)
    movl $5, r11
    subl2 $6, r11
    sbwc $0, r11
    movpsl 40(r10)
    addl2 $3, 44(r10)
    subw2 $1, 48(r10)
    movpsl 52(r10)
    movl $0x0f0f0f0f, r12
    bisl3 $0xf0000000, r12, r13
    movpsl 56(r10)
    bicl2 $0x0f000000, r12
    xorb2 $0xff, r12
    movpsl 60(r10)
    bisw2 $0x8000, 64(r10)
    movpsl 68(r10)
    xorl3 r13, r12, 72(r10)
    bicb3 $0xf0, $0xff, 76(r10)
    movpsl 80(r10)
    incb 84(r10)
    decb 85(r10)
    movpsl 88(r10)
    addl3 $0x7fffffff, $1, 92(r10)
    movpsl 96(r10)
    halt
