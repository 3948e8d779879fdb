# Trace (PSL<T>/<TP>, SCB 0x28): BISPSW sets T (BISPSW itself is not
# traced), then each instruction faults after it, including a taken
# branch; a CHMK pushes TP and REI brings it back, so the trace fault
# follows the handler's REI with the PC after the CHMK; a software
# interrupt taken with TP set (the MTPR's) comes first, then the trace;
# T set by a REI'd PSL; BICPSW clears T (itself still traced).
# The trace handler counts in r8 and stores PC, PSL at (r10)+.
    movl $0x2000, r10
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h_tp, 0x28(r9)
    moval h_chmk, 0x40(r9)
    moval h_sw, 0x8c(r9)         # software level 3
    clrl r8
    mtpr $0x7000, $0             # KSP; leave the interrupt stack
    pushl $0x00040000            # kernel, IPL 4
    pushab 3f
    rei
3:  bispsw $0x10                 # T
    incl r1
    brb 1f
    nop
1:  chmk $5
    movl r1, r2
    mtpr $2, $0x12               # IPL 2
    mtpr $3, $0x14               # SIRR 3: taken before the trace
    bicpsw $0x10
    incl r3                      # not traced
    movpsl r4
    pushl $0x00000010            # REI to T set
    pushab 2f
    rei
2:  incl r5
    movl r8, r6
    bicpsw $0x10
    movl r8, (r10)+
    halt
    .align 2
h_tp:
    incl r8
    movl (sp), (r10)+            # PC
    movl 4(sp), (r10)+           # PSL
    rei
    .align 2
h_chmk:
    movl (sp)+, (r10)+           # code
    movl 4(sp), (r10)+           # PSL: TP set
    rei
    .align 2
h_sw:
    movl (sp), (r10)+
    movl 4(sp), (r10)+           # PSL: TP set
    rei
