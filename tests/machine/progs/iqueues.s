# INSQHI/INSQTI/REMQHI/REMQTI on a self-relative queue at 0x2000: empty,
# one, three entries, head and tail, the secondary interlock found set,
# misaligned header and entry (reserved operand faults, recorded by the
# handler at 0x20f0), header = entry, REMQ into a register and memory.
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h_rsv, 0x18(r9)
    clrl r8                      # reserved operand faults
    movl $0x2000, r10            # header
    clrq (r10)
    movab 0x10(r10), r2          # entries A, B, C
    movab 0x20(r10), r3
    movab 0x30(r10), r4
    remqhi (r10), r5             # empty: r5 = header, CC 0110
    movpsl 0x80(r10)
    movl r5, 0x84(r10)
    insqhi (r2), (r10)           # A: Z (was empty)
    movpsl 0x88(r10)
    insqti (r3), (r10)           # A B
    movpsl 0x8c(r10)
    insqhi (r4), (r10)           # C A B
    movpsl 0x90(r10)
    remqti (r10), 0x94(r10)      # B
    movpsl 0x98(r10)
    remqhi (r10), r6             # C
    movpsl 0x9c(r10)
    movl r6, 0xa0(r10)
    bisl2 $1, (r10)              # interlock held elsewhere
    insqti (r3), (r10)           # C, nothing changes
    movpsl 0xa4(r10)
    remqhi (r10), r7             # V C, r7 unchanged
    movpsl 0xa8(r10)
    bicl2 $1, (r10)
    moval 1f, r11
    insqhi 0x44(r10), (r10)      # misaligned entry: fault
1:  moval 1f, r11
    insqhi (r2), 4(r10)          # misaligned header: fault
1:  moval 1f, r11
    insqhi (r10), (r10)          # header = entry: fault
1:  moval 1f, r11
    remqhi (r10), (r10)          # destination = header: fault
1:    remqti (r10), r7             # A: the last one (as REMQHI)
    movpsl 0xac(r10)
    movl r7, 0xb0(r10)
    movl r8, 0xb4(r10)           # 4 faults
    halt
    .align 2
h_rsv:                           # count, resume at r11
    incl r8
    movl r11, (sp)
    rei
# expect: mem 20b4=00000004
# expect: mem 2084=00002000
