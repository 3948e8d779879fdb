# Misuse: setptrs_unmapped.
    movl $0x1100000, r11; movl $0x1100040, r10; setptrs
    halt
# expect-stop: reserved operand fault
