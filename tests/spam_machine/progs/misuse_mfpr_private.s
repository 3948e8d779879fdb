# Misuse: mfpr_private.
    mfpr $0xe9, r0
    halt
# expect-stop: reserved operand fault
