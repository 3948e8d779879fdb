# Decimal exceptions (hand-computed): reserved operand faults of EDITPC
# (undefined operator, repeat count 0, source left over or used up,
# ADJUST_INPUT 32), of a length over 31 and of a bad CVTSP character
# (PC of the instruction, PSL<FPD> clear, CC as before); the decimal
# overflow trap (code 6, PC after) with PSL<DV> for ADDP4 and EDITPC; DIVP
# by zero (code 4, PC after); CVTPL overflow with PSL<IV> (code 1).  The
# handlers store (code,) PC and PSL at (r10)+ and continue at r11; each
# saved PC is then made relative to the label it must equal (0 = right).
# no-simh: SIMH takes EDITPC's reserved operands with PSL<FPD> set and
# its registers packed mid-instruction (the SRM leaves R0-R5 UNPREDICTABLE
# after the abort), so the saved PSLs differ by design.
    movl $0x2000, r10
    movl $0x3000, r9
    mtpr r9, $0x11
    moval h_rsv, 0x18(r9)
    moval h_arith, 0x34(r9)
    movl $0x2080, r8             # destinations
    moval 1f, r11
f1: editpc $3, n123, p_undef, (r8)
1:  moval f1, r0
    subl2 r0, -8(r10)
    moval 1f, r11
f2: editpc $3, n123, p_rpt0, (r8)
1:  moval f2, r0
    subl2 r0, -8(r10)
    moval 1f, r11
f3: editpc $3, n123, p_left, (r8)
1:  moval f3, r0
    subl2 r0, -8(r10)
    moval 1f, r11
f4: editpc $3, n123, p_short, (r8)
1:  moval f4, r0
    subl2 r0, -8(r10)
    moval 1f, r11
f5: editpc $3, n123, p_adj32, (r8)
1:  moval f5, r0
    subl2 r0, -8(r10)
    moval 1f, r11
f6: addp4 $32, n123, $3, (r8)
1:  moval f6, r0
    subl2 r0, -8(r10)
    moval 1f, r11
f7: cvtsp $3, badsp, $3, (r8)
1:  moval f7, r0
    subl2 r0, -8(r10)
    # traps: PC after the instruction
    movc3 $2, n999, 0x10(r8)
    bispsw $0x80
    moval 1f, r11
    addp4 $1, n1, $3, 0x10(r8)   # 999 + 1 = 1000: 000 stored, V, trap 6
1:  moval 1b, r0
    subl2 r0, -8(r10)
    bispsw $0x80
    moval 1f, r11
    editpc $3, n123, p_drop, 0x20(r8)   # drops the nonzero 1: V, trap 6
1:  moval 1b, r0
    subl2 r0, -8(r10)
    moval 1f, r11
    divp $1, zero, $3, n123, $3, 0x30(r8)   # divide by zero: trap 4
1:  moval 1b, r0
    subl2 r0, -8(r10)
    bispsw $0x20
    moval 1f, r11
    cvtpl $11, big, r6           # 12345678901 does not fit: trap 1
1:  moval 1b, r0
    subl2 r0, -8(r10)
    movl r6, (r10)+
    halt
    .align 2
h_rsv:
    movl (sp)+, (r10)+           # PC
    movl (sp)+, (r10)+           # PSL
    jmp (r11)
    .align 2
h_arith:
    movl (sp)+, (r10)+           # code
    movl (sp)+, (r10)+           # PC
    movl (sp)+, (r10)+           # PSL
    jmp (r11)
n123:    .byte 0x12,0x3c
n999:    .byte 0x99,0x9c
n1:      .byte 0x1c
zero:    .byte 0x0c
big:     .byte 0x12,0x34,0x56,0x78,0x90,0x1c
badsp:   .ascii "+1x3"
p_undef: .byte 0x93,0x05,0x00        # MOVE 3, operator 05
p_rpt0:  .byte 0x90,0x00             # MOVE 0
p_left:  .byte 0x91,0x00             # MOVE 1 of 3, END
p_short: .byte 0x94,0x00             # MOVE 4 of 3
p_adj32: .byte 0x47,0x20,0x93,0x00   # ADJUST_INPUT 32
p_drop:  .byte 0x47,0x02,0x92,0x00   # ADJUST_INPUT 2 (drops the 1), MOVE 2
# expect: mem 0x2000=00000000
# expect: mem 0x2004=041f0000
# expect: mem 0x2008=00000000
# expect: mem 0x200c=041f0000
# expect: mem 0x2010=00000000
# expect: mem 0x2014=041f0000
# expect: mem 0x2018=00000000
# expect: mem 0x201c=041f0000
# expect: mem 0x2020=00000000
# expect: mem 0x2024=041f0000
# expect: mem 0x2028=00000000
# expect: mem 0x202c=041f0000
# expect: mem 0x2030=00000000
# expect: mem 0x2034=041f0000
# expect: mem 0x2038=00000006
# expect: mem 0x203c=00000000
# expect: mem 0x2040=041f0086
# expect: mem 0x2044=00000006
# expect: mem 0x2048=00000000
# expect: mem 0x204c=041f0083
# expect: mem 0x2050=00000004
# expect: mem 0x2054=00000000
# expect: mem 0x2058=041f0000
# expect: mem 0x205c=00000001
# expect: mem 0x2060=00000000
# expect: mem 0x2064=041f002a
# expect: mem 0x2068=dfdc1c35
# expect: mem 0x2090=00000c00
