# MTPR/MFPR: the stack-pointer slots and the live SP, IPL, ASTLVL (and its
# reserved operand), SISR, SCBB, PCBB; condition codes; an IPR that does
# not exist is a reserved operand.
    movl $0x2000, r10
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h, 0x18(r9)
    mfpr $0x11, (r10)+
    mtpr $0x5000, $0             # KSP slot
    mtpr $0x5100, $1
    mtpr $0x5200, $2
    mtpr $0x5300, $3
    mfpr $0, (r10)+
    mfpr $1, (r10)+
    mfpr $2, (r10)+
    mfpr $3, (r10)+
    mfpr $4, (r10)+              # ISP: the live SP
    mtpr $0x7f00, $4             # writes SP
    movl sp, (r10)+
    mtpr $0x18, $0x12            # IPL
    mfpr $0x12, (r10)+
    movpsl (r10)+
    mtpr $0, $0x13               # ASTLVL
    mfpr $0x13, (r10)+
    mtpr $0x8000, $0x10          # PCBB
    mfpr $0x10, (r10)+
    mtpr $0xfffe, $0x15          # SISR
    mfpr $0x15, (r10)+
    mtpr $0, $0x15
    mtpr $-1, $0x15              # CC of MTPR: N
    movpsl (r10)+
    moval 1f, r11
    mtpr $5, $0x13               # ASTLVL 5: reserved operand
1:  moval 1f, r11
    mfpr $0x7f, r0               # no such IPR
1:  mfpr $0x13, (r10)+
    halt
    .align 2
h:  movl (sp)+, (r10)+
    movl (sp)+, (r10)+
    jmp (r11)
