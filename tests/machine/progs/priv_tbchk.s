# TBCHK (IPR 0x3F): V <- 1 if the VA's page is in the TB (SIMH), N Z from
# the VA, C unchanged.  A page just read is in it, after TBIS it is not, a
# page never touched is not.  Page tables as mm_paging.s (1:1 P0, 64 pages).
    movl $0x10000, r1            # system page table
    clrl r2
1:  bisl3 $0x94000000, r2, (r1)+ # V, KW, M, PFN = VPN
    aoblss $64, r2, 1b
    movl $0x4400, r1             # P0 page table
    clrl r2
1:  bisl3 $0x94000000, r2, (r1)+
    aoblss $64, r2, 1b
    mtpr $0x10000, $0x0c         # SBR
    mtpr $64, $0x0d              # SLR
    mtpr $0x80004400, $0x08      # P0BR
    mtpr $64, $0x09              # P0LR
    movl $0x2000, r10
    mtpr $1, $0x38               # MAPEN
    movl *$0x5000, r3            # page 0x28 in the TB
    mtpr $0x5004, $0x3f
    movpsl (r10)+                # V
    bispsw $1
    mtpr $0x5800, $0x3f          # never touched
    movpsl (r10)+                # C kept, no V
    mtpr $0x5000, $0x3a          # TBIS
    mtpr $0x5000, $0x3f
    movpsl (r10)+
    movl *$0x80005000, r3        # S0 page 0x28
    mtpr $0x80005010, $0x3f
    movpsl (r10)+
    halt
