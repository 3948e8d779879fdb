# Every event class with the right identifier (issue 5 "Tests"): the
# interval clock (hardware interrupt 0xC0), software interrupts (levels 2
# and 8: 0x88, 0xA0), the exceptions reachable without memory management
# (reserved/privileged instruction 0x10, XFC 0x14, reserved operand 0x18,
# reserved addressing mode 0x1C, BPT 0x2C, integer-overflow trap 0x34 with
# PSL<IV>), CHMK/CHME/CHMS/CHMU with codes (mode in id bits 11:10), LDPCTX
# whose extended record has p_textp = NULL (zeros for dev and inode), and
# REI.  ACV/TNV need memory management and are left to the guest boot.
#
# The process runs in user mode (LDPCTX + REI) so each CHMx reaches its
# own mode; the exception handlers resume at the address in R8.  At the
# end (CHMK #2) the guest empties the buffer with READ_BUFFER, storing the
# second longword (PSL<31:16> | id) of record i at 0x4000 + 4i and the
# first longword at 0x5000 + 4i (the clock runs, so only the extended
# record's first longword is checked).
    movl $0x3000, r9
    mtpr r9, $0x11               # SCBB
    moval rsvd_h, 0x10(r9)       # reserved (privileged) instruction
    moval xfc_h, 0x14(r9)
    moval rsvd_h, 0x18(r9)       # reserved operand
    moval rsvd_h, 0x1c(r9)       # reserved addressing mode
    moval rsvd_h, 0x2c(r9)       # BPT
    moval arith_h, 0x34(r9)
    moval chmk_h, 0x40(r9)
    moval chmx_h, 0x44(r9)       # CHME, CHMS, CHMU: each in its own mode
    moval chmx_h, 0x48(r9)
    moval chmx_h, 0x4c(r9)
    moval sw_h, 0x88(r9)         # software level 2
    moval sw_h, 0xa0(r9)         # software level 8
    moval clk_h, 0xc0(r9)        # interval clock
    # u-area (PCB) at 0x10000, proc at 0x11000, p_textp = NULL
    movl $0x10000, r10
    movl $0x7000, (r10)+         # KSP
    movl $0x6c00, (r10)+         # ESP
    movl $0x6800, (r10)+         # SSP
    movl $0x6000, (r10)+         # USP
    movl $0x10048, r10
    moval user, (r10)+           # PC
    movl $0x03c00000, (r10)+     # PSL: user, IPL 0
    movl $0x80000000, (r10)+     # P0BR
    movl $0x04000000, (r10)+     # ASTLVL 4
    movl $0x80000000, (r10)+     # P1BR
    clrl (r10)+                  # P1LR
    movl $0x80011000, *$0x10080  # u_procp
    movw $0x0077, *$0x10102      # u_uid
    movw $0x0033, *$0x11034      # p_pid
    clrl *$0x11064               # p_textp = NULL
    clrl *$0x6f00                # clock flag
    # SPAM on
    movl $17, r11
    movl $1, r10
    pamminit
    movl $0x1100000, r11
    movl $0x1200000, r10
    setptrs
    enable
    mtpr $0x10000, $0x10         # PCBB
    ldpctx
    rei                          # into the user process
user:
    chmk $0x155                  # 0x3155
    chme $0x6                    # 0x3406
    chms $0x207                  # 0x3a07
    chmu $0x3ff                  # 0x3fff
    moval 1f, r8
    halt                         # privileged in user mode: 0x10
1:  moval 1f, r8
    .byte 0xfc                   # XFC: 0x14
1:  moval 1f, r8
    pushl $0                     # REI to kernel from user: reserved operand 0x18
    pushab 1f
    rei
1:  moval 1f, r8
    .byte 0xd0, 0x51, 0x01       # MOVL R1, S^#1: reserved addressing mode 0x1C
1:  moval 1f, r8
    bpt                          # 0x2C
1:  bispsw $0x20                 # IV
    addl3 $0x7fffffff, $1, r0    # integer overflow trap 0x34
    chmk $9                      # software interrupts 8 then 2
    chmk $10                     # one interval-clock interrupt
    chmk $2                      # read the buffer and halt
    halt                         # not reached
    .align 2
rsvd_h:
    movl r8, (sp)                # resume at R8
    rei
    .align 2
xfc_h:
    movl r8, (sp)
    rei
    .align 2
arith_h:
    tstl (sp)+                   # the trap code
    rei
    .align 2
chmx_h:
    tstl (sp)+                   # the code
    rei
    .align 2
sw_h:
    rei
    .align 2
clk_h:
    mtpr $0x80, $0x18            # ICCS: clear INT, stop the clock
    incl *$0x6f00
    rei
    .align 2
chmk_h:
    movl (sp)+, r0
    cmpl r0, $9
    bneq 1f
    mtpr $0x1f, $0x12            # IPL 31
    mtpr $2, $0x14               # SIRR 2
    mtpr $8, $0x14               # SIRR 8
    mtpr $0, $0x12               # IPL 0: level 8 first, then level 2
    rei
1:  cmpl r0, $10
    bneq 2f
    mtpr $-200, $0x19            # NICR
    mtpr $0x51, $0x18            # ICCS: RUN | XFR | IE
3:  tstl *$0x6f00
    beql 3b
    rei
2:  cmpl r0, $2
    beql 4f
    rei
4:  disable
    movl $0x4000, r5
    movl $0x5000, r4
    clrl r6
5:  readbuf
    tstl r9
    bneq 6f
    movl r10, (r5)+
    movl r11, (r4)+
    incl r6
    brb 5b
6:  halt

# The 36 records' second longwords, in order: ENABLE marker; LDPCTX and
# its extended record (second longword 0: p_textp NULL), REI into user
# mode; CHMK #0x155 (kernel), CHME #6 (PSL exec), CHMS #0x207 (supervisor),
# CHMU #0x3FF (user), each with its REI (mode left in bits 6:5); the
# exceptions 0x10, 0x14, 0x18, 0x1C, 0x2C, 0x34, each with its REI;
# CHMK #9, software interrupt level 8 (IPL 8), its REI, level 2, its REI,
# the CHMK's REI; CHMK #10, the interval clock (IPL 0x18), REI, REI;
# CHMK #2; DISABLE marker.  The extended record's first longword: pid 0x33,
# uid 0x77.
# expect: r6=00000024
# expect-mem: 0x4000=041f6001 001f4000 00000000 03c0501f 00c03155 03c05000 01c03406 03c05020 02c03a07 03c05040 03c03fff 03c05060
# expect-mem: 0x4030=00c02010 03c05000 00c02014 03c05000 00c02018 03c05000 00c0201c 03c05000 00c0202c 03c05000 00c02034 03c05000
# expect-mem: 0x4060=00c03009 000810a0 00c05008 00021088 00c05002 03c05000 00c0300a 001810c0 00c05018 03c05000 00c03002 00c06002
# expect-mem: 0x5008=00330077
