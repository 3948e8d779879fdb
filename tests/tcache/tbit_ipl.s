# PSL<T> and the IPL changed inside replayed traces (vm_tcache_exec.c:
# IRD's quick way leaves the request logic and the trace bits to `ev`,
# which every STPSL that changes them, and every way into the interpreter,
# zeroes).  Each pass of the loop: a REI sets T, so that the instructions
# after it fault to a handler that counts (r8: 2 a pass, BICPSW itself
# traced); a software interrupt is requested at IPL 4 and a REI to IPL 2
# lets it in before the next instruction, and another, requested at IPL
# 2, comes right after its MTPR (r7: 2 a pass).  REI writes the PSL in a
# microword of its own, which the traces replay; MTPR goes through the
# interpreter.
    movl $0x3000, r9
    mtpr r9, $0x11               # SCBB
    moval h_tp, 0x28(r9)         # trace fault
    moval h_sw, 0x8c(r9)         # software level 3
    clrl r7
    clrl r8
    mtpr $0x7000, $0             # KSP; leave the interrupt stack
    pushl $0x00040000            # kernel, IPL 4
    pushab 3f
    rei
3:  movl $200, r0
1:  pushl $0x00040010            # kernel, IPL 4, T
    pushab 2f
    rei                          # T from here
2:  incl r1
    bicpsw $0x10
    incl r2
    mtpr $3, $0x14               # SIRR 3: pending at IPL 4
    pushl $0x00020000            # kernel, IPL 2
    pushab 4f
    rei                          # the interrupt comes before incl r3
4:  incl r3
    mtpr $3, $0x14               # at IPL 2: taken at once, before incl r4
    incl r4
    mtpr $4, $0x12
    sobgtr r0, 1b
    halt
    .align 2
h_tp: incl r8
    rei
    .align 2
h_sw: incl r7
    rei
