# fold.s: instructions whose microcode tests a short literal operand
# (MTPR's register number, EXTZV's position and size, ASHL's count, BBS's
# bit number), in a loop whose traces decide those tests when they are
# built (vm_tcache.c, fold_consts: KR).  At the HALT, for R9 = 200 down to
# 1: R0 = the sum of R9<11:4> = 1164, R1 = the sum of R9 * 8 = 160800,
# R4 = how many have R9<1> clear = 100, and the IPL is 31 again.
    movl $200, r9
    clrq r0
    clrl r4
1:  mtpr $0, $0x12
    mtpr $31, $0x12
    extzv $4, $8, r9, r2
    addl2 r2, r0
    ashl $3, r9, r3
    addl2 r3, r1
    bbs $1, r9, 2f
    incl r4
2:  sobgtr r9, 1b
    halt
