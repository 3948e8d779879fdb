# Misuse: mtpr_private.
    mtpr $1, $0xe4
    halt
# expect-stop: reserved operand fault
