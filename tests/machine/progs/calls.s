# CALLS/CALLG/RET: register save masks, argument lists, unaligned SP,
# IV from the entry mask, CC and PSW after RET.
    movl $0x2000, r10
    movl $0x11, r2
    movl $0x22, r3
    movl $0x33, r11
    pushl $5
    pushl $7
    calls $2, add2
    movl r0, (r10)
    movpsl 4(r10)
    movl sp, 8(r10)
    movab args, r1
    callg (r1), add2
    movl r0, 12(r10)
    subl2 $2, sp                # unaligned SP: saved in SPA
    calls $0, leaf
    movl sp, 16(r10)
    movl r2, 20(r10)
    movl r3, 24(r10)
    movl r11, 28(r10)
    movl r0, 32(r10)
    halt
    .align 1
add2: .word 0x080c             # save r2, r3, r11
    movl 4(ap), r2
    addl3 r2, 8(ap), r0
    clrl r3
    clrl r11
    movpsl 36(r10)
    movl fp, 40(r10)
    movl ap, 44(r10)
    cmpl $1, $2
    ret
leaf: .word 0x4000              # IV on
    movpsl r0
    ret
args: .long 2, 30, 40
