# Every event class through the hooks: LDPCTX (with a 4.3BSD-shaped
# u-area, proc, text and inode; MAPEN = 0), REI, CHMK with codes, BPT (an
# exception), a software interrupt, and the ENABLE/DISABLE markers.  The
# guest then empties the buffer with READ_BUFFER into 0x4000 (R6 = records
# read).  NEEDS THE HOOKS WIRED (microcode/README.md "SPAM hooks").
    movl $0x3000, r9
    mtpr r9, $0x11               # SCBB
    moval chmk_h, 0x40(r9)
    moval bpt_h, 0x2c(r9)
    moval sw3_h, 0x8c(r9)        # software level 3
    # u-area (PCB) at 0x10000, proc 0x11000, text 0x12000, inode 0x13000,
    # pointers as S0 addresses (MAPEN = 0: PA = VA<29:0>)
    movl $0x10000, r10
    movl $0x7000, (r10)+         # KSP
    clrl (r10)+
    clrl (r10)+
    movl $0x6000, (r10)+         # USP
    movl $0x10048, r10
    moval user, (r10)+           # PC
    movl $0x03c00000, (r10)+     # PSL: user
    movl $0x80000000, (r10)+     # P0BR
    movl $0x04000000, (r10)+     # ASTLVL 4
    movl $0x80000000, (r10)+     # P1BR
    clrl (r10)+                  # P1LR
    movl $0x80011000, *$0x10080  # u_procp
    movw $0x1234, *$0x10102      # u_uid
    movw $0x42, *$0x11034        # p_pid
    movl $0x80012000, *$0x11064  # p_textp
    movl $0x80013000, *$0x12044  # x_iptr
    movw $0x0305, *$0x1300c      # i_dev: major 3, minor 5
    movl $0x1abcd, *$0x13014     # i_number
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
    chmk $7
    bpt
    chmk $2
    halt                         # not reached
    .align 2
bpt_h:
    incl (sp)                    # past the BPT (a fault)
    rei
    .align 2
sw3_h:
    rei
    .align 2
chmk_h:
    movl (sp)+, r0
    cmpl r0, $2
    beql 1f
    rei
1:  mtpr $3, $0x14               # SIRR: software level 3, taken at once
    disable
    movl $0x4000, r5
    clrl r6
2:  readbuf
    tstl r9
    bneq 3f
    movl r11, (r5)+
    movl r10, (r5)+
    incl r6
    brb 2b
3:  halt

# The twelve records the traced flows wrote, read back with READ_BUFFER
# (R11 then R10 of each; the clock is not running, so usec<15:0> is 0 and
# the first longword is the IRD counter's low word).  In order: ENABLE
# marker, LDPCTX + extended record (pid 0x42, uid 0x1234, dev 5/3, inode
# 0xabcd), REI, CHMK #7, REI, BPT exception, REI, CHMK #2, software
# interrupt level 3, REI, DISABLE marker.
# expect: r6=0000000c
# expect-mem: 0x4000=0000001e 041f6001 00000020 001f4000 00421234 0503abcd 00000021 03c0501f 00000022 00c03007 00000026 03c05000
# expect-mem: 0x4030=00000027 00c0202c 00000029 03c05000 0000002a 00c03002 0000002f 0003108c 00000030 00c05003 00000031 00c06002
