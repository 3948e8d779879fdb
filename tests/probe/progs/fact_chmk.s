# cli_probes.py's guest: fact(5) called 50 times (each call nests 5 deep), a
# CHMK after each; SPAM traces the CHMKs and their REIs.
        .globl _start
_start: movl $0x8000, sp
        movl $0x3000, r9
        mtpr r9, $0x11              # SCBB
        moval chmk_h, 0x40(r9)
        mtpr $0x9000, $0            # KSP: leave the interrupt stack
        pushl $0                    # PSL: kernel, IPL 0
        pushab go
        rei
go:     movl $50, r6
loop:   pushl $5
        calls $1, fact
        addl2 r0, r7
        chmk $3
        sobgtr r6, loop
        halt
fact:   .word 0x4
        movl 4(ap), r2
        cmpl r2, $1
        bleq 1f
        subl3 $1, r2, -(sp)
        calls $1, fact
        mull2 r2, r0
        ret
1:      movl $1, r0
        ret
        .align 2
chmk_h: tstl (sp)+
        rei
