# Misuse: setptrs_unmapped.
    movl $0x1000000, r11; movl $0x1000040, r10; setptrs
    halt
# expect-stop: reserved operand fault
