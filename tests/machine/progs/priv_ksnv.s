# Kernel stack not valid (SCB 0x08): the kernel stack's page is invalid;
# a BPT's push faults (TNV) and the abort goes on the interrupt stack at
# IPL 31 with the BPT's PC and the PSL the BPT fault had built; KSP
# unchanged.  The KSNV handler stores PC, PSL, SP, KSP at (r10)+ and
# continues at r11 on the IS.  (An interrupt whose push faults gives the
# same frame on both, PSL 00010000 for level 1; but SIMH 3.8.1 then takes
# the stale interrupt again at IPL 31 in the KSNV handler's first
# instruction, so that case is not compared here.)
    movl $0x10000, r1            # system page table
    clrl r2
1:  bisl3 $0x94000000, r2, (r1)+
    aoblss $64, r2, 1b
    movl $0x4400, r1             # P0 page table, 1:1
    clrl r2
1:  bisl3 $0x94000000, r2, (r1)+
    aoblss $64, r2, 1b
    movl $0x10000030, *$0x44c0   # P0 page 0x30 (0x6000): not valid
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h_ksnv, 0x08(r9)
    moval h_bpt, 0x2c(r9)
    moval h_bpt, 0x84(r9)        # software level 1
    mtpr $0x10000, $0x0c         # SBR
    mtpr $64, $0x0d              # SLR
    mtpr $0x80004400, $0x08      # P0BR
    mtpr $64, $0x09              # P0LR
    movl $0x2000, r10
    mtpr $0x6100, $0             # KSP in the invalid page
    mtpr $1, $0x38               # MAPEN
    moval 1f, r11
    pushl $0x00030004            # kernel, IPL 3, off the IS, Z
    pushab 2f
    rei
2:  bpt
1:  mfpr $0, (r10)+
    halt
    .align 2
h_ksnv:
    movl (sp), (r10)+            # PC
    movl 4(sp), (r10)+           # PSL
    movl sp, (r10)+
    mfpr $0, (r10)+              # KSP
    jmp (r11)
    .align 2
h_bpt:
    halt
