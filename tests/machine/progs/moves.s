# MOV/MOVZ/CVT/MCOM/MNEG/CLR/TST and their condition codes.
    movl $0x2000, r10
    movb $0x80, r0
    movpsl r1
    movw $0, r2
    movpsl r3
    movzbl $0x80, r4
    movzbw $0xff, r5
    movzwl $0x8000, r6
    cvtbl $0x80, r7
    cvtwb $0x0180, r8
    movpsl r9
    cvtlw $0x12345678, r11
    movpsl (r10)
    cvtlb $-128, r12
    movpsl 4(r10)
    cvtwl $-1, r13
    mcoml r13, 8(r10)
    movpsl 12(r10)
    mnegl $0x7fffffff, 16(r10)
    movpsl 20(r10)
    mnegb $1, 24(r10)
    movpsl 28(r10)
    mnegw $0, 32(r10)
    movpsl 36(r10)
    clrw 40(r10)
    movpsl 44(r10)
    tstb $0x80
    movpsl 48(r10)
    tstl $0
    movpsl 52(r10)
    clrq 56(r10)
    movpsl 64(r10)
    movq $-1, 72(r10)
    movpsl 80(r10)
    movb $-1, 84(r10)
    mcomb 84(r10), 85(r10)
    movpsl 88(r10)
    halt
