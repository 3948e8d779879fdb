# CMPC5: fill extends the shorter string; differences in the strings and
# against the fill; zero lengths; CC of the differing bytes (signed N,
# unsigned C).
    movl $0x2000, r10
    cmpc5 $5, s1, $0x20, $8, s2        # "hello" + fill vs "hello   ": equal
    movpsl (r10)
    movl r0, 4(r10)
    movl r1, 8(r10)
    movl r2, 12(r10)
    movl r3, 16(r10)
    cmpc5 $5, s1, $0x21, $8, s2        # fill 0x21 vs ' ': differs after s1
    movpsl 20(r10)
    movl r0, 24(r10)
    movl r1, 28(r10)
    movl r2, 32(r10)
    movl r3, 36(r10)
    cmpc5 $8, s2, $0x20, $3, s1        # s2 longer
    movpsl 40(r10)
    movl r0, 44(r10)
    movl r2, 48(r10)
    cmpc5 $0, s1, $0x00, $0, s2        # both empty
    movpsl 52(r10)
    cmpc5 $0, s1, $0x80, $2, s3        # fill 0x80 vs 0x01: N 1 (signed), C 0
    movpsl 56(r10)
    movl r2, 60(r10)
    movl r3, 64(r10)
    cmpc5 $2, s3, $0x00, $1, s3        # 0x01 vs fill 0
    movpsl 68(r10)
    movl r0, 72(r10)
    movl r2, 76(r10)
    cmpc5 $4, s1, $0x20, $4, s4        # "hell" vs "help"
    movpsl 80(r10)
    movl r0, 84(r10)
    movl r1, 88(r10)
    halt
s1: .ascii "hello"
s2: .ascii "hello   "
s3: .byte 1, 0x80
s4: .ascii "help"
