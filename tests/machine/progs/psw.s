# BISPSW/BICPSW/MOVPSL.
    movl $0x2000, r10
    bispsw $0x0f
    movpsl r0
    bicpsw $0x05
    movpsl r1
    bispsw $0xe0
    movpsl r2
    bicpsw $0xff
    movpsl r3
    halt
