# Misuse: pamminit_nomem.
    movl $100, r11; movl $1, r10; pamminit
    halt
# expect-stop: reserved operand fault
