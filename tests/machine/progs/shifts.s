# ASHL/ASHQ/ROTL: both directions, counts at and past the width, overflow.
    movl $0x2000, r10
    ashl $4, $0x12345678, r0
    movpsl (r10)
    ashl $-4, $0x87654321, r1
    movpsl 4(r10)
    ashl $1, $0x40000000, r2
    movpsl 8(r10)
    ashl $32, $1, r3
    movpsl 12(r10)
    ashl $-40, $-5, r4
    movpsl 16(r10)
    ashl $0, $0, r5
    movpsl 20(r10)
    movq $0x0123456789abcdef, r6
    ashq $8, r6, r8
    movpsl 24(r10)
    ashq $-36, r6, 28(r10)
    movpsl 36(r10)
    rotl $8, $0x12345678, r11
    rotl $-1, $1, r12
    movpsl 40(r10)
    rotl $33, $0x80000001, 44(r10)
    halt
