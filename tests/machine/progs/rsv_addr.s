# A short literal as a write operand is a reserved addressing mode.
# expect-stop: reserved addressing mode fault
    .byte 0xd0, 0x01, 0x02     # movl $1, $2
    halt
