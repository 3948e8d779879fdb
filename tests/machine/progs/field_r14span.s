# A field in R14 that spills into R15 is a reserved addressing mode (as
# SIMH); one that fits in R14 is fine.
# expect-stop: reserved addressing mode fault
    movl $5, r0
    extzv $8, $8, sp, r1
    extzv $28, $8, sp, r1
    movl $6, r0
    halt
# expect: r0=5
