# --spam-priv kernel: a SPAM instruction outside kernel mode is the
# privileged-instruction fault (reserved instruction), nothing changed.
# args: --spam-priv kernel
    movl $17, r11
    movl $1, r10
    pamminit                     # kernel mode: allowed
    movl $0x8000, sp
    mtpr $0x7000, $3             # USP
    pushl $0x03c00000
    pushab user
    rei
user:
    getstat
    halt
# expect-stop: reserved instruction fault (opcode FD00)
# expect: r11=00000011
