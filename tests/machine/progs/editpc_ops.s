# EDITPC with every pattern operator; outputs and condition codes computed
# by hand from the SRM's definitions (PSL<DV> clear).
    movl    $0x2000, r10
    # +000305 through ADJUST_INPUT 8 (two zeros supplied): "*******+3,05+"
    editpc  $6, src305, patA, (r10)
    movpsl  0x30(r10)
    movl    r0, 0x40(r10)
    movl    r5, 0x44(r10)
    movl    r2, 0x48(r10)
    movl    r4, 0x4c(r10)
    # zero, significance set, BLANK_ZERO 3: "   ", Z C
    editpc  $3, zero3, patB, 0x10(r10)
    movpsl  0x34(r10)
    # -0: STORE_SIGN writes '-', REPLACE_SIGN 1 blanks it; N cleared by Z
    editpc  $1, mzero, patC, 0x18(r10)
    movpsl  0x38(r10)
    # ADJUST_INPUT 3 drops the nonzero 1 and 2: "345", V C
    editpc  $5, src12345, patD, 0x20(r10)
    movpsl  0x3c(r10)
    halt
src305:   .byte 0x00,0x00,0x30,0x5c
zero3:    .byte 0x00,0x0c
mzero:    .byte 0x0d
src12345: .byte 0x12,0x34,0x5c
patA:   .byte 0x40,0x2a                 # LOAD_FILL '*'
        .byte 0x42,0x2b                 # LOAD_PLUS '+' (N clear: loaded)
        .byte 0x43,0x2d                 # LOAD_MINUS '-' (N clear: ignored)
        .byte 0x47,0x08                 # ADJUST_INPUT 8
        .byte 0x82                      # FILL 2      "**"
        .byte 0x94                      # MOVE 4      "****"
        .byte 0x02                      # CLEAR_SIGNIF
        .byte 0xa2                      # FLOAT 2     "*+3"
        .byte 0x44,0x2c                 # INSERT ','  ","
        .byte 0x92                      # MOVE 2      "05"
        .byte 0x03                      # SET_SIGNIF
        .byte 0x01                      # END_FLOAT (significance set: nothing)
        .byte 0x04                      # STORE_SIGN  "+"
        .byte 0x45,0x02                 # BLANK_ZERO 2 (not zero: nothing)
        .byte 0x46,0x01                 # REPLACE_SIGN 1 (not zero: nothing)
        .byte 0x00                      # END
patB:   .byte 0x03,0x93,0x45,0x03,0x00  # SET_SIGNIF, MOVE 3, BLANK_ZERO 3
patC:   .byte 0x91,0x04,0x46,0x01,0x00  # MOVE 1, STORE_SIGN, REPLACE_SIGN 1
patD:   .byte 0x47,0x03,0x93,0x00       # ADJUST_INPUT 3, MOVE 3
# expect: mem 0x2000=2a2a2a2a
# expect: mem 0x2004=2b2a2a2a
# expect: mem 0x2008=35302c33
# expect: mem 0x200c=0000002b
# expect: mem 0x2010=00202020
# expect: mem 0x2018=00002020
# expect: mem 0x2020=00353433
# expect: mem 0x2030=041f0001
# expect: mem 0x2034=041f0005
# expect: mem 0x2038=041f0004
# expect: mem 0x203c=041f0003
# expect: mem 0x2040=00000006
# expect: mem 0x2044=0000200d
# expect: mem 0x2048=00000000
# expect: mem 0x204c=00000000
