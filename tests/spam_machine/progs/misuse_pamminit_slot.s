# Misuse: pamminit_slot.
    movl $17, r11; movl $8, r10; pamminit
    halt
# expect-stop: reserved operand fault
