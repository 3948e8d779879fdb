# SOB/AOB/ACB loops, JSB/BSB/RSB/JMP, CASE, PUSHL/PUSHA.
    movl $0x2000, r10
    clrl r0
    movl $10, r1
1:  incl r0
    sobgtr r1, 1b
    movl $3, r2
2:  addl2 $2, r0
    sobgeq r2, 2b
    clrl r3
3:  addl2 $3, r0
    aoblss $5, r3, 3b
    clrl r4
4:  incl r0
    aobleq $5, r4, 4b
    clrl r5
5:  incl r0
    acbl $20, $4, r5, 5b
    movl $20, r6
6:  incl r0
    acbw $0, $-3, r6, 6b
    movb $10, r7
7:  incl r0
    acbb $100, $50, r7, 7b
    movl r0, (r10)
    movpsl 4(r10)
    bsbb sub1
    bsbw sub1
    jsb sub1
    movab sub1, r8
    jsb (r8)
    pushl $0x12345678
    pushab (r10)
    movl (sp)+, 8(r10)
    movl (sp)+, 12(r10)
    movl sp, 16(r10)
    clrl r9
    movl $2, r1
    casel r1, $1, $2
9:  .word 10f-9b, 11f-9b, 12f-9b
    movl $99, r9
    brb 13f
10: movl $10, r9
    brb 13f
11: movl $11, r9
    brb 13f
12: movl $12, r9
13: movpsl 20(r10)
    caseb $7, $1, $2
14: .word 10b-14b, 11b-14b, 12b-14b
    movl r9, 24(r10)
    movpsl 28(r10)
    movab 15f, r11
    jmp (r11)
    halt
15: movl $0x77, 32(r10)
    halt
sub1: incl 36(r10)
    rsb
