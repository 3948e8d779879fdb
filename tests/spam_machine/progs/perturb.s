# Perturbation workload (tests/bench/bench_perturb.c): interrupt- and
# system-call-heavy, a fixed amount of work, then HALT.  The interval clock
# interrupts every 1000 us (NICR = -1000, SCB 0xC0, on the interrupt
# stack); kernel mode on the kernel stack at IPL 0 runs 20000 iterations
# of CHMK #1 (the handler pops the code and REIs) plus a short inner loop
# of 8 ADDL2s.  Each iteration makes 2 records (CHMK, REI), each clock
# tick 2 (interrupt, REI).  R7 = clock ticks seen, R6 = R0 checksum.
    movl $0x3000, r9
    mtpr r9, $0x11               # SCBB
    moval chmk_h, 0x40(r9)
    moval clk_h, r0
    bisl3 $1, r0, 0xc0(r9)       # interval clock: on the interrupt stack
    movl $0x9000, sp             # ISP (we start on the interrupt stack)
    mtpr $0x8000, $0             # KSP
    clrl r7
    clrl r6
    mtpr $-1000, $0x19           # NICR: 1000 us
    mtpr $0x51, $0x18            # ICCS: RUN | XFR | IE
    pushl $0                     # kernel, kernel stack, IPL 0
    pushab main
    rei
main:
    movl $20000, r5
1:  chmk $1
    movl $8, r4
2:  addl2 r4, r6
    sobgtr r4, 2b
    sobgtr r5, 1b
    mtpr $0x1f, $0x12            # IPL 31
    mtpr $0x80, $0x18            # clock off
    halt
    .align 2
chmk_h:
    tstl (sp)+
    rei
    .align 2
clk_h:
    mtpr $0xc1, $0x18            # clear INT, keep RUN | IE
    incl r7
    rei
