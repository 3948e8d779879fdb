# callptr.s: one CALLS site that calls four procedures with other entry
# masks (through a register, as a kernel's function pointers do), and
# PUSHR/POPR whose mask comes from a register.  Their traces scan the
# mask four bits at a time with a dispatching micro-call (DCALL) whose
# guard meets another nibble than the recorded one: the micro-stack must
# be pushed once, by the interpreter's sequencing, not by the trace too
# (the lock-step check compares it after every instruction).  At the
# HALT: R0 = 100 * (1 + 2 + 3 + 4) = 1000, R1 = 100 * 4 = 400.
    clrq r0
    movl $100, r9
0:  clrl r8
1:  movl tab[r8], r6
    calls $0, (r6)
    movl masks[r8], r5
    pushr r5
    popr r5
    aoblss $4, r8, 1b
    incl r1
    incl r1
    incl r1
    incl r1
    sobgtr r9, 0b
    halt
f1: .word 0x0000
    incl r0
    ret
f2: .word 0x0ff0
    addl2 $2, r0
    ret
f3: .word 0x0c3c
    addl2 $3, r0
    ret
f4: .word 0x0ffc
    addl2 $4, r0
    ret
    .align 2
tab:   .long f1, f2, f3, f4
masks: .long 0x0000, 0x3ff0, 0x0f0c, 0x3ffc
