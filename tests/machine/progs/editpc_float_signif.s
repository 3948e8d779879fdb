# EDITPC's EO$FLOAT with significance already set: a nonzero digit still
# clears Z (the SRM: Z <- source EQL 0, N <- source LSS 0).  SET_SIGNIF,
# FLOAT 3 on +123 gives "123" with N 0 Z 0 C 1; on -123 N 1 Z 0 C 1.
# no-simh: both SIMHs (3.8.1 and open-simh 4.1) clear Z only where FLOAT
# inserts the sign, so they leave Z set here (PSL 041F0005 for both
# sources: N is then cleared because Z is set); difftest's generator
# writes no FLOAT after SET_SIGNIF/END_FLOAT for that reason.
    movl    $0x2000, r10
    editpc  $3, p123, pat, (r10)
    movpsl  0x10(r10)
    editpc  $3, m123, pat, 4(r10)
    movpsl  0x14(r10)
    halt
p123:   .byte 0x12,0x3c
m123:   .byte 0x12,0x3d
pat:    .byte 0x03,0xa3,0x00            # SET_SIGNIF, FLOAT 3, END
# expect: mem 0x2000=00333231
# expect: mem 0x2004=00333231
# expect: mem 0x2010=041f0001
# expect: mem 0x2014=041f0009
