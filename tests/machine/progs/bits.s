# BB* on registers and memory (positive and negative positions), PUSHR/POPR.
    movl $0x2000, r10
    movl $0x0000f0f0, 64(r10)
    clrl r0
    movl $0x10, r1
    bbs $4, r1, 1f
    bisl2 $1, r0
1:  bbc $4, r1, 2f
    bisl2 $2, r0
2:  bbss $0, r1, 3f
    bisl2 $4, r0
3:  bbcc $4, r1, 4f
    bisl2 $8, r0
4:  bbsc $12, 64(r10), 5f
    bisl2 $16, r0
5:  bbcs $1, 64(r10), 6f
    bisl2 $32, r0
6:  movab 66(r10), r2
    bbss $-9, (r2), 7f
    bisl2 $64, r0
7:  bbssi $31, r1, 8f
    bisl2 $128, r0
8:  bbcci $31, r1, 9f
    bisl2 $256, r0
9:  movl $0x11, r3
    movl $0x22, r4
    movl $0x33, r5
    movl sp, r9
    pushr $0x38
    movl sp, r8
    clrl r3
    clrl r4
    clrl r5
    popr $0x28
    movl r0, (r10)
    movl r1, 4(r10)
    halt
