# CALLS/RET/PUSHR/POPR with stack faults under memory management: the
# TNV handler (on the interrupt stack) records the parameter, VA, PC, the
# faulting stack pointer (KSP) and AP/FP, validates the page and REIs, so
# the instruction re-executes; its registers must be as at its start.
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h_tnv, r0
    bisl3 $1, r0, 0x24(r9)       # TNV on the interrupt stack
    movl $0x10000, r1            # system page table: 64 pages 1:1
    clrl r2
1:  bisl3 $0x94000000, r2, (r1)+
    aoblss $64, r2, 1b
    movl $0x4400, r1             # P0 page table: 64 pages 1:1
    clrl r2
1:  bisl3 $0x94000000, r2, (r1)+
    aoblss $64, r2, 1b
    movl $0x14000030, *$0x44c0   # P0 page 0x30: not valid
    mtpr $0x10000, $0x0c         # SBR
    mtpr $0x4000, $0x0d          # SLR
    mtpr $0x80004400, $0x08      # P0BR
    mtpr $64, $0x09              # P0LR
    mtpr $0x80000000, $0x0a      # P1BR
    mtpr $0x1fffff, $0x0b        # P1LR
    movl $0x2000, r10
    mtpr $1, $0x38               # MAPEN
    mtpr $0x6238, $0             # KSP
    pushl $0x001f0000            # kernel stack, IPL 31
    pushab 1f
    rei
1:  movl $0x11, r0
    movl $0x22, r1
    movl $0x33, r2
    movl $0x44, r3
    movl $0x55, r4
    movl $0x66, r5
    movl $0x77, r6
    movl $0x88, r7
    movl $0x99, r8
    movl $0xaa, r9
    movl $0xbb, r11
    movl $0x1234, ap
    movl $0x5678, fp
    calls $0, p1                 # TNV pushing FP (page 0x30); RET: TNV at PC
    movl sp, (r10)+
    movl ap, (r10)+
    movl fp, (r10)+
    movl r11, (r10)+
    movl $0x14000030, *$0x800044c0  # page 0x30 invalid again
    mtpr $0x6000, $0x3a
    movl sp, r9
    movl $0x6220, sp
    pushr $0x7bff                # TNV on the way down
    movl sp, (r10)+
    movl (sp), (r10)+
    movl 0x38(sp), (r10)+
    movl $0x14000030, *$0x800044c0
    mtpr $0x6000, $0x3a
    popr $0x3bff                 # TNV on the first pop
    movl sp, (r10)+
    movl r9, sp
    movl r0, (r10)+
    movl r13, (r10)+
    mtpr $0, $0x38
    halt
p1: .word 0x0bff                # not r10: the record pointer
    movl fp, (r10)+
    movl sp, (r10)+
    movl (fp), (r10)+
    movl 4(fp), (r10)+
    movl $0x14000031, *$0x800044c4  # page 0x31 (the frame's top) invalid
    mtpr $0x6200, $0x3a
    clrl r11
    ret
    .align 2
h_tnv:
    movl (sp), (r10)+            # parameter
    bicl3 $0x1ff, 4(sp), (r10)+  # VA's page (SIMH probes the far end first)
    movl 8(sp), (r10)+           # PC
    mfpr $0, (r10)+              # the faulting SP
    movl ap, (r10)+
    movl fp, (r10)+
    pushl r0
    ashl $-9, 8(sp), r0          # VPN
    bisl2 $0x80000000, *$0x80004400[r0]
    mtpr 8(sp), $0x3a            # TBIS
    movl (sp)+, r0
    addl2 $8, sp
    rei
