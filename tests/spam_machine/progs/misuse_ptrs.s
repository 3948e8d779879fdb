# SET_PTRS misuse, each a reserved-operand fault with nothing changed:
# misaligned, start >= end, outside the megabyte, while tracing is on.
# (The program stops at the first; the others are the variants below,
# selected by R0 through --set.)
    movl $17, r11
    movl $1, r10
    pamminit
    casel r0, $0, $3
1:  .word 2f-1b, 3f-1b, 4f-1b, 5f-1b
2:  movl $0x1100004, r11         # misaligned
    movl $0x1100040, r10
    brb 9f
3:  movl $0x1100040, r11         # start >= end
    movl $0x1100040, r10
    brb 9f
4:  movl $0x1100000, r11         # end outside the megabyte
    movl $0x1200008, r10
    brb 9f
5:  movl $0x1100000, r11         # tracing on
    movl $0x1100040, r10
    setptrs
    enable
9:  setptrs
    halt
# variants: r0=0 r0=1 r0=2 r0=3
# expect-stop: reserved operand fault
