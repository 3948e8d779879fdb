# Pushes whose write takes a TNV (4.3BSD's restore died of this: a PUSHL
# onto a fresh stack page left SP 4 too low after the re-execution and a
# called malloc read its argument from the wrong slot).  In user mode on
# the P0 page 0x30, made invalid by CHMK 1; the TNV handler validates it
# and REIs, the instruction re-executes.  Each case stores SP (and the
# pushed value) at (r10)+: ASHL and MOVL to -(sp), PUSHL, ADDL3 to -(sp),
# ASHL to -(r6), BSBB, JSB, PUSHAL; SP must be 0x61FC after each.
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h_mm, 0x20(r9)
    moval h_mm, 0x24(r9)
    movl $0x10000, r1            # system page table
    clrl r2
1:  bisl3 $0xa4000000, r2, (r1)+
    aoblss $64, r2, 1b
    movl $0x4400, r1             # P0 page table
    clrl r2
1:  bisl3 $0xa4000000, r2, (r1)+
    aoblss $64, r2, 1b
    mtpr $0x10000, $0x0c
    mtpr $0x4000, $0x0d
    mtpr $0x80004400, $0x08
    mtpr $64, $0x09
    mtpr $0x80000000, $0x0a
    mtpr $0x1fffff, $0x0b
    moval h_chmk, 0x40(r9)
    movl $0x2000, r10
    clrl r7
    mtpr $0x7000, $0             # KSP
    mtpr $1, $0x38
    pushl $0x03c00000            # user PSL
    pushal user
    rei
user:
    # 1: ashl to -(sp)
    chmk $1
    movl $0x6200, sp
    movl $32, r1
    ashl $10, r1, -(sp)
    movl sp, (r10)+
    movl (sp), (r10)+
    # 2: movl to -(sp)
    chmk $1
    movl $0x6200, sp
    movl $0x1234, -(sp)
    movl sp, (r10)+
    movl (sp), (r10)+
    # 3: pushl
    chmk $1
    movl $0x6200, sp
    pushl $0x5678
    movl sp, (r10)+
    movl (sp), (r10)+
    # 4: addl3 to -(sp)
    chmk $1
    movl $0x6200, sp
    addl3 $1, r1, -(sp)
    movl sp, (r10)+
    movl (sp), (r10)+
    # 5: ashl to -(r6) not sp
    chmk $1
    movl $0x6200, r6
    ashl $10, r1, -(r6)
    movl r6, (r10)+
    movl (r6), (r10)+
    # 6: bsbb: the return PC pushed
    chmk $1
    movl $0x6200, sp
    bsbb sub1
    movl sp, (r10)+
    # 7: jsb
    chmk $1
    movl $0x6200, sp
    jsb sub1
    movl sp, (r10)+
    # 8: pushal
    chmk $1
    movl $0x6200, sp
    pushal (r10)
    movl sp, (r10)+
    movl (sp), (r10)+
    movl r7, (r10)+              # faults taken
    chmk $0
sub1:
    movl sp, (r10)+
    subl3 (sp), $ret0, (r10)+    # 0 for the bsbb, jsb return points
    rsb
ret0:
    .align 2
h_chmk:                          # chmk 0: halt; chmk 1: page 0x30 invalid
    tstl (sp)
    bneq 1f
    mtpr $0, $0x38
    halt
1:  movl $0x20000030, *$0x800044c0
    mtpr $0x6000, $0x3a
    addl2 $4, sp
    rei
    .align 2
h_mm:
    incl r7
    bisl2 $0x80000000, *$0x800044c0
    mtpr $0x6000, $0x3a
    addl2 $8, sp
    rei
