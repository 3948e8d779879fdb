# LDPCTX from a PCB at 0x2000 (inside the compared window), REI into the
# loaded context (user mode), CHMK back, SVPCTX into the same PCB.
    movl $0x3000, r9
    mtpr r9, $0x11
    moval chmk_h, 0x40(r9)
    moval ast_h, 0x88(r9)        # AST delivery (software level 2)
    movl $0x2000, r10
    movl $0x6000, (r10)+         # KSP
    movl $0x6100, (r10)+         # ESP
    movl $0x6200, (r10)+         # SSP
    movl $0x6300, (r10)+         # USP
    movl $1, r0
1:  movl r0, (r10)+              # R0..R13 = 1..14
    aobleq $14, r0, 1b
    moval user, (r10)+           # PC
    movl $0x03c00000, (r10)+     # PSL: user
    movl $0x80000000, (r10)+     # P0BR
    movl $0x03000010, (r10)+     # ASTLVL 3, P0LR 16
    movl $0x80000000, (r10)+     # P1BR
    movl $0x00000020, (r10)+     # P1LR
    mtpr $0x2000, $0x10          # PCBB
    ldpctx
    movl sp, r12
    rei
user:
    addl2 $0x100, r1
    chmk $7
    halt
    .align 2
ast_h:
    mfpr $0x15, 0x20f0           # SISR: bit 2 already cleared
    movpsl 0x20f4
    movl 4(sp), 0x20f8           # the user PSL
    mtpr $4, $0x13               # ASTLVL <- none, or REI delivers it again
    rei
    .align 2
chmk_h:
    movl (sp)+, r11              # code
    svpctx
    movl $0x2070, r10
    movl sp, (r10)+
    movpsl (r10)+
    mfpr $0x13, (r10)+
    mfpr $0x15, (r10)+
    halt
