# Faults and traps with their parameters and PCs: reserved operand
# (BISPSW), reserved instruction, BPT, divide-by-zero and overflow traps
# (arithmetic code), reserved addressing mode with an autoincrement undone.
# Each handler stores the frame at (r10)+ and continues at r11.
    movl $0x2000, r10
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h_par, 0x34(r9)        # arithmetic: one parameter
    moval h_nopar, 0x18(r9)      # reserved operand
    moval h_nopar, 0x10(r9)      # reserved instruction
    moval h_nopar, 0x2c(r9)      # BPT
    moval h_nopar, 0x1c(r9)      # reserved addressing mode
    moval 1f, r11
    bispsw $0x100
1:  moval 1f, r11
    .byte 0xff, 0xff             # reserved instruction
1:  moval 1f, r11
    bpt
1:  moval 1f, r11
    clrl r0
    divl2 r0, r1
1:  moval 1f, r11
    bispsw $0x20
    movl $0x7fffffff, r2
    addl2 $1, r2
1:  moval 1f, r11
    movl $0x2080, r5
    .byte 0xd0, 0x85, 0x03       # movl (r5)+, S^#3: reserved addressing mode
1:  movl r5, (r10)+
    halt
    .align 2
h_par:
    movl (sp)+, (r10)+           # code
    brb h_nopar
    .align 2
h_nopar:
    movl (sp)+, (r10)+           # PC
    movl (sp)+, (r10)+           # PSL
    movpsl (r10)+
    jmp (r11)
