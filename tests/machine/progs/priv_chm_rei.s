# CHMK from user mode and REI back: the frame on the kernel stack (code,
# PC, PSL), the saved USP, the PSL in the handler; a second CHMK halts.
    movl $0x2000, r10
    movl $0x3000, r9
    mtpr r9, $0x11               # SCBB
    moval chmk_h, 0x40(r9)       # CHMK vector: kernel stack
    mtpr $0x7000, $0             # KSP slot (we are on the interrupt stack)
    mtpr $0x6000, $3             # USP slot
    pushl $0x03c00000            # user mode, previous user
    pushab user
    rei
user:
    movl $0x11, r1
    chmk $5
    movl r2, (r10)+
    movl r3, (r10)+
    movl r4, (r10)+
    movl r5, (r10)+
    movl r6, (r10)+
    movl sp, (r10)+
    chmk $-2
    halt
    .align 2
chmk_h:
    movl (sp)+, r2               # code (sign-extended)
    movl (sp), r3                # PC after the CHMK
    movl 4(sp), r4               # saved PSL
    mfpr $3, r5                  # USP slot
    movpsl r6
    cmpl r2, $-2
    beql done
    rei
done:
    movl sp, (r10)+
    halt
