# Misuse: pamminit_ordinary.
    movl $3, r11; movl $0, r10; pamminit
    halt
# expect-stop: reserved operand fault
