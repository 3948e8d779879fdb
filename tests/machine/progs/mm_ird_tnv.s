# An instruction whose opcode is the last byte of a valid page and whose
# first specifier byte is on a page that is not valid: the TNV is taken
# in IRD's fetch, after the previous instruction completed.  The fault must
# not undo that instruction's autodecrement or autoincrement (4.3BSD's
# restore died of this: a CALLS straddling two text pages after an ASHL
# to -(sp) re-executed with SP 4 too high, so malloc read the wrong
# argument).  P0 pages 0x30 (0x6000) and 0x32 (0x6400) are not valid;
# the handler validates the faulting one and REIs.  Case 1 faults on the opcode, case
# 2 on the first specifier byte; r3-r6 and the fault count are stored.
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h_tnv, 0x24(r9)
    movl $0x10000, r1            # system page table: 64 pages 1:1
    clrl r2
1:  bisl3 $0x94000000, r2, (r1)+
    aoblss $64, r2, 1b
    movl $0x4400, r1             # P0 page table: 64 pages 1:1
    clrl r2
1:  bisl3 $0x94000000, r2, (r1)+
    aoblss $64, r2, 1b
    movl $0x14000030, *$0x44c0   # P0 page 0x30: not valid
    movl $0x14000032, *$0x44c8   # P0 page 0x32: not valid
    mtpr $0x10000, $0x0c
    mtpr $0x4000, $0x0d
    mtpr $0x80004400, $0x08
    mtpr $64, $0x09
    mtpr $0x80000000, $0x0a
    mtpr $0x1fffff, $0x0b
    movl $0x2000, r10
    clrl r7
    movl $0x2100, r6
    movl $0x2200, r5
    movl $0x11, *$0x2200
    movl $0x22, *$0x2204
    mtpr $1, $0x38
    jmp *$case1
    .align 2
h_tnv:
    incl r7
    movl 4(sp), (r10)+           # the VA
    cmpl 4(sp), $0x6400
    bgequ 1f
    bisl2 $0x80000000, *$0x800044c0
    brb 2f
1:  bisl2 $0x80000000, *$0x800044c8
2:  mtpr 4(sp), $0x3a            # TBIS
    addl2 $8, sp
    rei
    .org 0x4ff6
case1:                           # 0x5FF6: the opcode at 0x6000
    movl r6, -(r6)               # d0 56 76: r6 = 0x20FC
    movl (r5)+, r4               # d0 85 54: r5 = 0x2204
    movl $5, r3                  # d0 05 53: 0x5FFC-0x5FFE
    .byte 0x01                   # 0x5FFF: nop
    movl r2, r1                  # 0x6000: TNV on the opcode
    movl r6, (r10)+
    movl r5, (r10)+
    movl r4, (r10)+
    movl r3, (r10)+
    jmp *$case2
    .org 0x53f6
case2:                           # 0x63F6: the specifier at 0x6400
    movl r6, -(r6)               # r6 = 0x20F8
    movl (r5)+, r4               # r5 = 0x2208
    movl $6, r3                  # 0x63FC-0x63FE
    .byte 0xd0                   # 0x63FF: movl r2, r1 (opcode)
    .byte 0x52, 0x51             # 0x6400: its specifiers: TNV
    movl r6, (r10)+
    movl r5, (r10)+
    movl r4, (r10)+
    movl r3, (r10)+
    movl r7, (r10)+              # 2 faults
    mtpr $0, $0x38
    halt
