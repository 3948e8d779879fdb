# With PSL<IV> set, an overflowing ADDL2 stores its result, sets V and
# takes the integer-overflow trap; until the exception flows exist the
# machine stops there, naming the trap.
# expect-stop: integer overflow trap
    bispsw $0x20
    movl $0x7fffffff, r0
    addl2 $1, r0
    halt
# expect: r0=80000000
# expect: psl=041f002a
