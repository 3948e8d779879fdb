# tbmiss.s: string instructions whose references miss the TB in the middle
# of their traces.  Each of 200 passes empties the TB (TBIA), so MOVC3,
# MOVC5 and CMPC3 over 0x500-0x600 bytes meet a TB-miss microtrap at every
# page they enter: the trace cache runs the TB-miss flow and goes on with
# the trace at the trapped word (vm_tc_trap_flow), and records through
# the flow.  Every 16th pass the MOVC3's destination page 0x2f is not
# valid: a fault in the middle, whose handler repairs the page, and the
# instruction starts again.  At the HALT: R6 = the sum of CMPC3's R0
# (0x500 - R9 for R9 = 200 down to 1) = 235900, R7 = 12 faults, R8 = the
# sum of the fill's bytes (R9's) = 20100.
# Tables as tests/machine/progs/mm_strings.s: system page table at
# 0x10000, P0 at 0x4400, both mapping pages 0-63 to themselves.
    movl $0x3000, r9
    mtpr r9, $0x11               # SCBB
    moval h_tnv, 0x24(r9)        # translation not valid
    movl $0x10000, r1
    clrl r2
1:  bisl3 $0x94000000, r2, (r1)+
    aoblss $64, r2, 1b
    movl $0x4400, r1
    clrl r2
1:  bisl3 $0x94000000, r2, (r1)+
    aoblss $64, r2, 1b
    mtpr $0x10000, $0x0c         # SBR
    mtpr $0x4000, $0x0d          # SLR
    mtpr $0x80004400, $0x08      # P0BR
    mtpr $64, $0x09              # P0LR
    mtpr $0x80000000, $0x0a      # P1BR
    mtpr $0x1fffff, $0x0b        # P1LR
    movl $0x5000, r1             # the source, 0x5000-0x55ff: bytes 0, 1, ...
    clrl r2
1:  movb r2, (r1)+
    aoblss $0x600, r2, 1b
    clrq r6
    clrl r8
    movl $200, r9
    mtpr $1, $0x38               # MAPEN
2:  mtpr $0, $0x39               # TBIA
    bitl $15, r9
    bneq 3f
    bicl2 $0x80000000, *$0x800044bc  # page 0x2f (0x5e00-0x5fff) not valid
3:  movc3 $0x600, *$0x5000, *$0x5a00
    addl3 $1, r9, r2             # one byte of the copy changed
    movb r2, 0x5b00(r9)
    cmpc3 $0x600, *$0x5000, *$0x5a00
    addl2 r0, r6
    movc5 $0, *$0x5000, r9, $0x500, *$0x6000
    movzbl *$0x64ff, r2
    addl2 r2, r8
    sobgtr r9, 2b
    mtpr $0, $0x38
    halt
    .align 2
h_tnv:
    incl r7
    addl2 $8, sp                 # the fault parameter and the VA
    bisl2 $0x80000000, *$0x800044bc
    rei
