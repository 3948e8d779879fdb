# Memory management (issue 4): S0/P0/P1 translation, TNV with recovery
# (the handler validates the PTE, TBIS, REI re-executes), ACV for
# protection, length (P0 and P1) and no-access pages with the parameter
# and VA, the modify bit, PROBER/PROBEW, an autoincrement undone by a TNV.
# System page table at 0x10000 (0x4000 entries: pages 0-63 1:1 KW, page
# 0x3FFF -> 0x35, the rest invalid), P0 table at 0x4400 (S0 0x80004400, 64
# pages 1:1), P1BR = 0x80000000 (SIMH 3.8.1 rejects lower values), so the
# PTE of P1 VA 0x7FFFFE00 is at S0 0x807FFFFC = physical 0x6BFC.
# The ACV/TNV handler stores param, VA, PC, PSL at (r10)+; with r11 = 0 it
# repairs page 0x30 and REIs, else it drops the frame and jumps to r11.
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h_mm, 0x20(r9)
    moval h_mm, 0x24(r9)
    movl $0x10000, r1            # system page table
    clrl r2
1:  bisl3 $0x94000000, r2, (r1)+ # V, KW, M, PFN = VPN
    aoblss $64, r2, 1b
    movl $0x4400, r1             # P0 page table
    clrl r2
1:  bisl3 $0x94000000, r2, (r1)+
    aoblss $64, r2, 1b
    movl $0x10000030, *$0x44c0   # P0 page 0x30: not valid (KW)
    movl $0x98000031, *$0x44c4   # P0 page 0x31: KR
    movl $0x90000032, *$0x44c8   # P0 page 0x32: KW, M clear
    movl $0x80000033, *$0x44cc   # P0 page 0x33: no access
    movl $0x94000035, *$0x1fffc  # S0 page 0x3FFF -> page 0x35
    movl $0x94000034, *$0x6bfc   # P1 VA 0x7FFFFE00 -> page 0x34
    movl $0x11223344, *$0x6800   # in page 0x34
    movl $0x55667788, *$0x6000   # in page 0x30
    mtpr $0x10000, $0x0c         # SBR
    mtpr $0x4000, $0x0d          # SLR
    mtpr $0x80004400, $0x08      # P0BR
    mtpr $64, $0x09              # P0LR
    mtpr $0x80000000, $0x0a      # P1BR
    mtpr $0x1fffff, $0x0b        # P1LR
    movl $0x2000, r10
    mtpr $1, $0x38               # MAPEN
    movl *$0x80002ff0, r3        # S0 alias of 0x2ff0 (0)
    movl *$0x7ffffe00, (r10)+    # P1
    clrl r11
    movl *$0x6000, (r10)+        # TNV, repaired, re-executed
    moval 1f, r11
    movl r3, *$0x6200            # ACV: write to KR (param 4)
1:  moval 1f, r11
    movl *$0x8000, r3            # ACV: P0 length (param 1)
1:  moval 1f, r11
    movl *$0x7ffffc00, r3        # ACV: P1 length (param 1)
1:  moval 1f, r11
    incl *$0x6600                # ACV: no access, modify (param 4)
1:  moval 1f, r11
    movl *$0x80008000, r3        # TNV: S0 page 64 invalid
1:  moval 1f, r11
    movl *$0x80800000, r3        # ACV: S0 length
1:  movl $7, *$0x6400            # sets M in page 0x32's PTE
    movl *$0x44c8, (r10)+
    prober $0, $4, *$0x6200      # KR: readable
    movpsl (r10)+
    probew $0, $4, *$0x6200      # KR: not writable
    movpsl (r10)+
    probew $0, $0x200, *$0x6400  # last byte in the KR page? no: 0x65ff
    movpsl (r10)+
    prober $0, $0x201, *$0x6400  # last byte in page 0x33: no access
    movpsl (r10)+
    prober $0, $4, *$0x6000      # page 0x30 repaired
    movpsl (r10)+
    movl $0x1ffffff, *$0x44c0    # invalid again (and M)
    mtpr $0x6000, $0x3a          # TBIS
    prober $0, $4, *$0x6000      # not valid: PROBE does not care
    movpsl (r10)+
    moval 1f, r11
    movl $0x5ff8, r5
    movq (r5)+, r6               # second longword in page 0x30: TNV
1:  movl r5, (r10)+              # autoincrement undone: 0x5ff8
    mtpr $0, $0x38
    halt
    .align 2
h_mm:
    movl (sp)+, (r10)+           # parameter
    movl (sp)+, (r10)+           # VA
    movl (sp), (r10)+            # PC
    movl 4(sp), (r10)+           # PSL
    tstl r11
    beql 1f
    addl2 $8, sp
    jmp (r11)
1:  bisl2 $0x80000000, *$0x800044c0
    mtpr $0x6000, $0x3a          # TBIS
    rei
