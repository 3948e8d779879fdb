# MUL/DIV/EMUL/EDIV at the edges (no zero divisors: those trap).
    movl $0x2000, r10
    mull3 $0x10000, $0x10000, r0
    movpsl (r10)
    mull3 $-3, $7, r1
    movpsl 4(r10)
    mulb3 $16, $8, r2
    movpsl 8(r10)
    mulw3 $-2, $0x4000, r3
    movpsl 12(r10)
    divl3 $7, $-100, r4
    movpsl 16(r10)
    divl3 $-1, $0x80000000, r5
    movpsl 20(r10)
    divb3 $3, $0x81, r6
    movpsl 24(r10)
    movl $1000, r7
    divl2 $10, r7
    emul $0x12345678, $0x100, $-1, r8
    movpsl 28(r10)
    emul $-2, $3, $0, 32(r10)
    movpsl 40(r10)
    movq $100000000000, r2
    ediv $7, r2, 44(r10), 48(r10)
    movpsl 52(r10)
    movq $-100, r2
    ediv $7, r2, r11, r12
    movpsl 56(r10)
    halt
