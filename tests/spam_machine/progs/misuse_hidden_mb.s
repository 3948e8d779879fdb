# Misuse: hidden_mb.
    movl *$0x1100000, r0
    halt
# expect-stop: machine check: read of non-existent memory at PA 0x01100000
