# size > 32 is a reserved operand (memory base too).
# expect-stop: reserved operand fault
    movl $5, r0
    insv r1, $0, $33, 0x2000
    movl $6, r0
    halt
# expect: r0=5
