# EMOD and POLY with hand-computed results: EMOD's integer and fraction
# parts and its extension bits (below 24 bits of F, below 53 of G where
# the 64-bit truncation before normalization drops the last one), and
# POLY's registers and its truncation of each product to 31 (F) or 63
# (D) bits before it is added (a full-precision product would leave 2^-46
# and 2^-110 where the architecture's gives 0).
    movl $0x2000, r10
    emodf $0f0.75, $0, $0x4190, r0, (r10)+     # 0.75 x 4.5 = 3.375
    movpsl (r10)+                               # fraction .375 = .11 x 2^-1
    movl r0, (r10)+                             # 3
    mnegf $0f0.75, r1
    emodf r1, $0, $0x4190, r0, (r10)+          # -3 and -0.375
    movpsl (r10)+                               # N
    movl r0, (r10)+
    emodf $0f1.0, $0x80, $0x4c80, r0, (r10)+   # (1 + 2^-24) x 2^24 = 2^24 + 1
    movpsl (r10)+                               # Z
    movl r0, (r10)+
    emodd $0d1.5, $0, $0d10.0, r0, (r10)+      # 15, fraction 0
    movl r0, (r10)+
    emodg $0g1.0, $0xffe0, $0x4400, r0, (r10)+ # x 2^63: 2^63 + 2046, V
    movpsl (r10)+                               # Z V
    movl r0, (r10)+
    polyf $0f2.0, $2, tf                        # (1 x 2 + 2) x 2 + 3 = 11
    movq r0, (r10)+
    movq r2, (r10)+
    polyd $0d0.5, $1, td                        # 2 x 0.5 + 1 = 2
    movq r0, (r10)+
    movq r2, (r10)+
    movq r4, (r10)+
    polyf $0x00014080, $1, tf2                  # (1 + 2^-23)^2 - (1 + 2^-22)
    movl r0, (r10)+
    movpsl (r10)+                               # Z
    polyd $0x0001000000004080, $1, td2          # (1 + 2^-55)^2 - (1 + 2^-54)
    movq r0, (r10)+
    polyf $0f1.0, $0, tz                        # degree 0: C0, a dirty zero: 0
    movl r0, (r10)+
    halt
    .align 2
tf: .long 0x4080, 0x4100, 0x4140              # 1, 2, 3
td: .long 0x4100, 0, 0x4080, 0                # 2, 1
tf2: .long 0x00014080, 0x0002c080             # 1 + 2^-23, -(1 + 2^-22)
td2: .long 0x4080, 0x00010000, 0xc080, 0x00020000
tz: .long 0x0000007f
# expect: mem 2000=00003fc0
# expect: mem 2004=041f0000
# expect: mem 2008=00000003
# expect: mem 200c=0000bfc0
# expect: mem 2010=041f0008
# expect: mem 2014=fffffffd
# expect: mem 2018=00000000
# expect: mem 201c=041f0004
# expect: mem 2020=01000001
# expect: mem 2024=00000000
# expect: mem 2028=00000000
# expect: mem 202c=0000000f
# expect: mem 2030=00000000
# expect: mem 2034=00000000
# expect: mem 2038=041f0006
# expect: mem 203c=000007fe
# expect: mem 2040=00004230
# expect: mem 2044=00000000
# expect: mem 2048=00000000
# expect: mem 2050=00004100
# expect: mem 2054=00000000
# expect: mem 2058=00000000
# expect: mem 2060=00000000
# expect: mem 2064=00000000
# expect: mem 2068=00000000
# expect: mem 206c=041f0004
# expect: mem 2070=00000000
# expect: mem 2074=00000000
# expect: mem 2078=00000000
