# String instructions meeting a page fault in the middle (issue 16): with
# register operands, a restart must not see registers the instruction had
# already advanced.  Page 0x30 (0x6000-0x61FF) is made invalid before each
# instruction; the TNV handler records the fault parameter, repairs the
# page and REIs, and the instruction must finish exactly as if no fault
# had happened (SIMH resumes with PSL<FPD>; our microcode probes the pages
# of a writing instruction first and keeps the state of a searching one in
# temporaries, so it restarts from the beginning).
# Tables as mm_paging.s: system page table at 0x10000, P0 at 0x4400.
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h_mm, 0x20(r9)
    moval h_mm, 0x24(r9)
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
    movl $0x2000, r10
    movl $0x5e00, r1             # fill 0x5e00-0x63ff with a pattern
    clrl r2
1:  movb r2, (r1)+
    aoblss $0x600, r2, 1b
    mtpr $1, $0x38               # MAPEN
    # MOVC3 with its operands in R0, R1, R3, source across the bad page
    bsbw invalidate
    movl $0x300, r0
    movl $0x5f80, r1
    movl $0x5200, r3
    movc3 r0, (r1), (r3)
    movl r0, (r10)+
    movl r1, (r10)+
    movl r3, (r10)+
    movl *$0x5400, (r10)+        # a byte copied from the bad page
    # MOVC3 overlapping, destination across the bad page
    bsbw invalidate
    movl $0x5fc0, r1
    movl $0x100, r0
    movc3 r0, (r1), 0x10(r1)
    movl r1, (r10)+
    movl *$0x6000, (r10)+
    # MOVC5 with a fill into the bad page
    bsbw invalidate
    movl $0x5ff0, r3
    movc5 $4, (r10), $0x77, $0x40, (r3)
    movl r3, (r10)+
    movl *$0x6008, (r10)+
    # MOVTC translating in place, across the bad page
    bsbw invalidate
    movl $0x5ff0, r5
    movtc $0x20, (r5), $0, *$0x5e00, $0x20, (r5)
    movl r5, (r10)+
    movl *$0x6004, (r10)+
    # LOCC searching into the bad page, operands in R0/R1
    bsbw invalidate
    movl $0x5f00, r1
    movl $0x400, r0
    locc $0x20, r0, (r1)         # first 0x20 byte past 0x5f00: in page 0x30
    movl r0, (r10)+
    movl r1, (r10)+
    # CMPC3 across it
    bsbw invalidate
    movl $0x5f00, r1
    movl $0x5f00, r3
    movl $0x200, r0
    cmpc3 r0, (r1), (r3)
    movl r0, (r10)+
    movl r1, (r10)+
    movl r3, (r10)+
    mtpr $0, $0x38
    halt
invalidate:                      # page 0x30 not valid
    bicl2 $0x80000000, *$0x800044c0
    mtpr $0x6000, $0x3a          # TBIS
    rsb
    .align 2
h_mm:
    movl (sp)+, (r10)+           # the fault parameter
    addl2 $4, sp                 # the VA (ours and SIMH touch different bytes)
    bisl2 $0x80000000, *$0x800044c0
    mtpr $0x6000, $0x3a          # TBIS
    rei
