# callret.s: CALLS/RET, PUSHR/POPR and CALLS's quadword pushes with the
# stack at every byte offset of a cache line (64 bytes), so that a push or
# pop run meets the line's ends at every distance, aligned or not: the SEQ
# runs (vm_tcache.h) must take the line of the reference before them only
# where the new bytes are in it.  Three rounds, so that the traces recorded
# in the first replay in the others.  At the HALT: R0 = 3 * (0 + ... + 63)
# = 6048 (F12 adds its argument, the offset), R1 = F2's sum of R0 + 1.
    clrq r0
    movl $3, r9
0:  clrl r8
1:  addl3 r8, $0x7000, sp
    pushl r8
    calls $1, f12
    pushr $0x3f3f
    popr $0x3f3f
    calls $0, f2
    aoblss $64, r8, 1b
    sobgtr r9, 0b
    halt
f12: .word 0x0ffc
    movl 4(ap), r11
    addl2 r11, r0
    ret
f2: .word 0x000c
    movl r0, r3
    incl r3
    addl2 r3, r1
    ret
