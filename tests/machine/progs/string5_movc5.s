# MOVC5: longer destination (fill), shorter destination (R0 = unmoved),
# equal lengths, zero lengths, overlap both ways, and the condition codes.
    movl $0x2000, r10
    movc5 $12, src, $0x2a, $20, (r10)  # fill 8 bytes
    movl r0, 160(r10)
    movl r1, 164(r10)
    movl r3, 168(r10)
    movpsl 172(r10)
    movc5 $12, src, $0x2a, $5, 32(r10) # short dst: R0 = 7
    movl r0, 176(r10)
    movl r1, 180(r10)
    movl r3, 184(r10)
    movpsl 188(r10)
    movc5 $0, src, $0x41, $6, 40(r10)  # fill only
    movpsl 192(r10)
    movc5 $4, src, $0x41, $0, 48(r10)  # nothing moved: R0 = 4
    movl r0, 196(r10)
    movpsl 200(r10)
    movc5 $12, (r10), $0x2e, $14, 3(r10)   # overlap, dst above: backwards
    movl r1, 204(r10)
    movl r3, 208(r10)
    movc5 $10, 5(r10), $0x2d, $12, 1(r10)  # overlap, dst below: forwards
    movl r1, 212(r10)
    movl r3, 216(r10)
    movpsl 220(r10)
    movc5 $0x8000, src, $0x20, $1, 64(r10) # srclen negative as a word: N 1, C 0
    movpsl 224(r10)
    movl r0, 228(r10)
    movc5 $1, src, $0x20, $0x8000, 80(r10) # ... and the other way (long fill, 32 KB)
    movpsl 232(r10)
    movl r3, 236(r10)
    movc3 $12, (r10), 1(r10)           # MOVC3 overlap (backwards)
    movpsl 240(r10)
    halt
src:  .ascii "hhello world"
