# A field in a register must start at pos <= 31.
# expect-stop: reserved operand fault
    movl $5, r0
    extzv $32, $1, r2, r3
    movl $6, r0
    halt
# expect: r0=5
