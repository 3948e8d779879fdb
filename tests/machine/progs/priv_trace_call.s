# Trace (PSL<T>/<TP>) across CALLS and RET.  CALLS leaves T alone and
# saves the PSW with T clear; RET loads the PSW from that image, so T is
# clear after it, while the TP that T set at RET's own IRD still faults
# after RET.  The trace handler counts in r8 and stores PC, PSL at (r10)+:
# CALLS, the first instruction of the procedure and RET fault; the
# instructions after RET do not.
    movl $0x2000, r10
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h_tp, 0x28(r9)
    clrl r8
    mtpr $0x7000, $0             # KSP; leave the interrupt stack
    pushl $0x00040000            # kernel, IPL 4
    pushab 3f
    rei
3:  bispsw $0x10                 # T
    calls $0, sub
    incl r3                      # T clear since RET: not traced
    movpsl r4
    movl r8, (r10)+
    halt
sub: .word 0x0004                # saves r2
    incl r2
    ret
    .align 2
h_tp:
    incl r8
    movl (sp), (r10)+            # PC
    movl 4(sp), (r10)+           # PSL
    rei
