# MOVC3 (forward, backward overlap, zero length), LOCC, SKPC, CMPC3.
    movl $0x2000, r10
    movc3 $12, src, (r10)
    movl r1, 96(r10)
    movl r3, 100(r10)
    movpsl 104(r10)
    movc3 $8, (r10), 2(r10)          # overlap: backward
    movc3 $0, (r10), 40(r10)
    locc $0x6f, $12, src             # 'o'
    movl r0, 16(r10)
    movl r1, 20(r10)
    movpsl 24(r10)
    locc $0x7a, $12, src             # not found
    movl r0, 28(r10)
    movpsl 32(r10)
    skpc $0x68, $12, src             # skip 'h'
    movl r0, 36(r10)
    movl r1, 44(r10)
    cmpc3 $12, src, src2
    movpsl 48(r10)
    movl r0, 52(r10)
    movl r2, 56(r10)
    movl r3, 60(r10)
    cmpc3 $5, src, src
    movpsl 64(r10)
    halt
src:  .ascii "hhello world"
src2: .ascii "hhello wxrld"
