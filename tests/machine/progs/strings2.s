# MOVTC (forward, fill, in place, backward overlap), MOVTUC (escape, end of
# either string), SCANC, SPANC, MATCHC (found, not found, empty object),
# CRC, ADAWI.  Results are stored in the window at 0x2000.
    movl $0x2000, r10
    # MOVTC: translate "abcdef" through the upper-case table into 0x2000,
    # dstlen 8: two fill bytes '*'
    movtc $6, src, $0x2a, upper, $8, (r10)
    movl r0, 0x40(r10)              # expect 0 (srclen 6 <= dstlen 8)
    movl r1, 0x44(r10)
    movl r5, 0x48(r10)
    movpsl 0x4c(r10)                # CMPW 6,8: N C
    # srclen > dstlen: R0 = 2
    movtc $6, src, $0x2a, upper, $4, 8(r10)
    movl r0, 0x50(r10)
    movpsl 0x54(r10)
    # in place (src = dst): lower-case the first 4 bytes back
    movtc $4, (r10), $0, lower, $4, (r10)
    # overlapping, src < dst: backward
    movtc $6, (r10), $0x2e, upper, $6, 2(r10)
    # MOVTUC with escape 'D' (translated): stops at 'd'
    movtuc $6, src, $0x44, upper, $10, 0x10(r10)
    movl r0, 0x58(r10)
    movl r1, 0x5c(r10)
    movl r4, 0x60(r10)
    movl r5, 0x64(r10)
    movpsl 0x68(r10)                # V set
    # MOVTUC: destination shorter, no escape
    movtuc $6, src, $0x21, upper, $3, 0x18(r10)
    movl r0, 0x6c(r10)
    movl r4, 0x70(r10)
    movpsl 0x74(r10)
    # SCANC for a digit (class bit 1), SPANC over letters (bit 0)
    scanc $10, text, ctype, $2
    movl r0, 0x78(r10)
    movl r1, 0x7c(r10)
    movpsl 0x80(r10)
    spanc $10, text, ctype, $1
    movl r0, 0x84(r10)
    movl r1, 0x88(r10)
    scanc $3, text, ctype, $2       # not found: R0 = 0
    movl r0, 0x8c(r10)
    movpsl 0x90(r10)
    # MATCHC
    matchc $2, pat, $10, text
    movl r0, 0x94(r10)
    movl r1, 0x98(r10)
    movl r2, 0x9c(r10)
    movl r3, 0xa0(r10)
    movpsl 0xa4(r10)
    matchc $3, nopat, $10, text
    movl r0, 0xa8(r10)
    movl r2, 0xac(r10)
    movl r3, 0xb0(r10)
    movpsl 0xb4(r10)
    matchc $0, pat, $10, text
    movl r2, 0xb8(r10)
    movpsl 0xbc(r10)
    # CRC-16 (x^16+x^15+x^2+1, reflected 0xA001) of "123456789", initial 0
    crc crctab, $0, $9, digits
    movl r0, 0xc0(r10)              # expect BB3D
    movl r3, 0xc4(r10)
    movpsl 0xc8(r10)
    # ADAWI: register and aligned memory; overflow sets V
    movl $0x7ffe, r6
    adawi $5, r6
    movl r6, 0xcc(r10)
    movpsl 0xd0(r10)
    movw $0x1234, 0xd4(r10)
    adawi $-4, 0xd4(r10)
    movpsl 0xd8(r10)
    halt
src:    .ascii "abcdef"
text:   .ascii "ab+cd7e9fg"
pat:    .ascii "cd"
nopat:  .ascii "xyz"
digits: .ascii "123456789"
    .align 2
crctab: .long 0x0000,0xCC01,0xD801,0x1400,0xF001,0x3C00,0x2800,0xE401
        .long 0xA001,0x6C00,0x7800,0xB401,0x5000,0x9C01,0x8801,0x4400
upper:  .byte 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
        .byte 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        .ascii " !\"#$%&'()*+,-./0123456789:;<=>?"
        .ascii "@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_"
        .ascii "`ABCDEFGHIJKLMNOPQRSTUVWXYZ{|}~"
        .byte 127
        .fill 128,1,0x3f
lower:  .byte 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
        .byte 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        .ascii " !\"#$%&'()*+,-./0123456789:;<=>?"
        .ascii "@abcdefghijklmnopqrstuvwxyz[\\]^_"
        .ascii "`abcdefghijklmnopqrstuvwxyz{|}~"
        .byte 127
        .fill 128,1,0x3f
ctype:  .fill 48,1,0
        .fill 10,1,2                # digits
        .fill 7,1,0
        .fill 26,1,1                # upper
        .fill 6,1,0
        .fill 26,1,1                # lower
        .fill 133,1,0
# expect: mem 2040=00000000
# expect: mem 20c0=0000BB3D
