# Software interrupts: SIRR requests, taken highest first when IPL drops,
# on the interrupt stack or the kernel stack as the vector says; SISR.
    movl $0x2000, r10
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h5, 0x94(r9)
    bisl2 $1, 0x94(r9)           # level 5: interrupt stack
    moval h3, 0x8c(r9)           # level 3: kernel stack
    mtpr $0x7000, $0             # KSP slot
    mtpr $0x7800, $4             # ISP slot (we are on the IS: the live SP)
    pushl $0x001f0000            # kernel, IPL 31, leave the IS
    pushab k
    rei
k:  movl sp, (r10)+
    mtpr $3, $0x14               # SIRR
    mtpr $5, $0x14
    mfpr $0x15, (r10)+           # SISR
    mtpr $4, $0x12               # IPL 4: level 5 is taken
    mfpr $0x15, (r10)+
    mtpr $0, $0x12               # IPL 0: level 3
    mfpr $0x15, (r10)+
    movpsl (r10)+
    halt
    .align 2
h5: movl sp, (r10)+
    movpsl (r10)+
    movl (sp), (r10)+
    movl 4(sp), (r10)+
    rei
    .align 2
h3: movl sp, (r10)+
    movpsl (r10)+
    movl 4(sp), (r10)+
    rei
