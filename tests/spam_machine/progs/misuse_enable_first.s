# Misuse: enable_first.
    enable
    halt
# expect-stop: reserved operand fault
