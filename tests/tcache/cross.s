# cross.s: references across two cache lines (64 bytes) of a page, which
# no memo entry holds: reads, a modify, a write and quadwords, 1000 times,
# and one across two pages.  The trace compiler's code (from the 129th
# pass) makes the ones inside a page itself where both lines are cache
# hits (vm_memo_cross), with the full path's counts and bookkeeping; the
# page-crossing one goes through the interpreter.  At the HALT: R6 = the
# sum of the longwords read at 0x503e and 0x513c, R7 = the sum of the
# quadword's high half, R8 = the modified longword at 0x507d, R10 = the
# sum of the longword at 0x51fe.
    movl $0x5000, r1             # 0x5000-0x52ff: bytes 0, 1, ...
    clrl r2
1:  movb r2, (r1)+
    aoblss $0x300, r2, 1b
    clrq r6
    clrl r10
    movl $1000, r9
2:  movl *$0x503e, r0            # 0x503e-0x5041: lines 0x5000 and 0x5040
    addl2 r0, r6
    addl2 r9, *$0x507d           # 0x507d-0x5080: a modify across 0x5080
    movq *$0x50fc, r2            # 0x50fc-0x5103: across 0x5100
    addl2 r3, r7
    movl r9, *$0x513e            # a write across 0x5140
    movl *$0x513c, r4
    addl2 r4, r6
    movl *$0x51fe, r5            # across the page at 0x5200
    addl2 r5, r10
    incl *$0x51fe
    sobgtr r9, 2b
    movl *$0x507d, r8
    halt
