# The paper's users ran the SPAM instructions from ordinary programs: by
# default (--spam-priv any) they work in user mode.
    movl $0x8000, sp
    mtpr $0x7000, $3             # USP
    pushl $0x03c00000
    pushab user
    rei
user:
    movl $17, r11
    movl $1, r10
    pamminit
    movl $0x1100000, r11
    movl $0x1100100, r10
    setptrs
    enable
    getstat
    movl r10, r0
    movl r6, r1
    halt                         # user mode: a reserved-instruction stop
# expect-stop: reserved instruction fault (opcode 00)
# expect: r0=ffffffff
# expect: r1=00000020
