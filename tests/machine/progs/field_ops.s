# EXTV/EXTZV/CMPV/CMPZV/FFS/FFC/INSV: register bases (fields spilling into
# Rn+1, pos 31, size 32, size 0), memory bases (negative and large
# positions, fields spanning five bytes and two longwords).
    movl $0x2000, r10
    movl $0x12345678, r2
    movl $0x9abcdef0, r3
    extv $28, $8, r2, r0               # spills into r3
    extzv $28, $8, r2, r1
    movl r0, (r10)
    movl r1, 4(r10)
    movpsl 8(r10)
    movl $0x87654321, 64(r10)
    movl $0xfedcba98, 68(r10)
    movl $0x0f1e2d3c, 72(r10)
    extv $-5, $12, 70(r10), 12(r10)    # starts one byte below the base
    extzv $13, $32, 64(r10), 16(r10)   # five bytes
    extv $31, $32, r2, 92(r10)         # pos 31, size 32: r3<30:0>'r2<31>
    movpsl 96(r10)
    cmpv $4, $8, r2, $0x67
    movpsl 20(r10)
    cmpv $24, $8, r3, $-101            # 0x9a sign-extended
    movpsl 100(r10)
    cmpzv $4, $8, 64(r10), $0x32
    movpsl 24(r10)
    cmpzv $0, $0, r2, $0               # size 0: field 0
    movpsl 104(r10)
    ffs $3, $20, r2, 28(r10)
    movpsl 32(r10)
    ffc $3, $20, 64(r10), 36(r10)
    movpsl 40(r10)
    ffs $0, $0, r2, 44(r10)            # size 0: startpos, Z
    movpsl 48(r10)
    clrl 80(r10)
    ffs $100, $32, 78(r10), 52(r10)    # none found: startpos + size, Z
    movpsl 56(r10)
    mnegl $1, 84(r10)
    ffc $-3, $12, 85(r10), 60(r10)     # none clear
    movpsl 108(r10)
    insv $0xabcd, $28, $16, r2         # spills into r3
    insv $0x5a5a5, $-3, $20, 66(r10)
    insv $0xffffffff, $31, $32, 72(r10) # spans two longwords
    insv $0x7, $40, $0, r2             # size 0: nothing, even pos > 31
    bisl2 $0, r0                       # CC from here ...
    insv $0, $0, $3, r3                # ... unchanged by INSV
    movpsl 112(r10)
    extv $0, $0, r2, r7
    extzv $37, $0, r4, r8              # size 0, pos > 31 on a register: 0
    movl r2, 116(r10)
    movl r3, 120(r10)
    halt
