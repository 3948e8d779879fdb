# LDPCTX accepts P1BR = 0x7F800000 (open-simh's rule: P1BR + 0x800000 must
# be a system address; 4.3BSD builds such values) and rejects 0x7F7FFFFC.
# no-simh: SIMH 3.8.1 rejects any P1BR below 0x80000000 (reserved operand)
# expect: r0=7f800000
# expect: r1=00000018
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h, 0x18(r9)            # reserved operand
    movl $0x2000, r10
    movl $0x6000, (r10)          # KSP
    movl $0x80000000, 0x50(r10)  # P0BR
    movl $0x04000000, 0x54(r10)  # no AST, P0LR 0
    movl $0x7f800000, 0x58(r10)  # P1BR: accepted
    movl $0x00200000, 0x5c(r10)  # P1LR
    mtpr r10, $0x10
    ldpctx
    mfpr $0x0a, r0
    movl $0x2000, r10            # (LDPCTX loaded R10 from the PCB)
    movl $0x7f7ffffc, 0x58(r10)  # P1BR + 0x800000 = 0x7FFFFFFC: P0 space
    clrl r1
    ldpctx
    halt
    .align 2
h:  movl $0x18, r1
    halt
