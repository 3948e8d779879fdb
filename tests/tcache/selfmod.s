# Code that rewrites itself while the trace cache replays it: an ADDL2's
# literal changes every pass, its opcode flips between ADDL2 and SUBL2
# every fourth pass, and a branch's displacement is patched.
    movl $200, r0
    clrl r1
    clrl r2
1:  addl2 $1, r1
2:  movl r1, r3
    incb 1b+1
    bicb2 $0xc0, 1b+1
    bitl $3, r0
    bneq 3f
    xorb2 $2, 1b
3:  sobgtr r0, 1b
    movl $50, r0
4:  incl r2
5:  brb 6f
    incl r2
6:  xorb2 $2, 5b+1
    sobgtr r0, 4b
    halt
