# H floating by hand: POLYH of degree 3 (R0-R5 and the condition codes),
# POLYH of a dirty zero, ACBH loops up and down, EMODH's integer and
# fraction of both signs, conversions from D and G and to D (1/3 rounded
# up in its last place), MOVH of a dirty zero (the true zero, C kept),
# MNEGH and TSTH.  1.0 = 0x00004001, 2.0 = 0x00004002, 3.0 = 0x80004002,
# 4.0 = 0x00004003 (lw0; the other longwords 0).
    movl $0x2000, r10
    moval tbl, r6
    polyh $0h2.0, $3, (r6)              # ((1*2 + 2)*2 + 3)*2 + 4 = 26
    movpsl r7
    subl3 r6, r5, r8                    # 16 * (3 + 1)
    movq r0, (r10)+
    movq r2, (r10)+
    movl r4, (r10)+
    movl r7, (r10)+
    movl r8, (r10)+
    polyh $0h2.0, $0, dirty             # degree 0: C[0], a dirty zero, is 0
    movpsl r7
    movl r0, (r10)+
    movl r7, (r10)+
    # ACBH: index 0.0 up by 1.0 while <= 4.0: five trips
    clro 0x20c0
    clrl r8
1:  incl r8
    acbh $0h4.0, $0h1.0, 0x20c0, 1b
    movpsl r7
    movl r8, (r10)+
    movl r7, (r10)+
    # index 2.0 down by -1.0 while >= 0.5: two trips, ends 0 (Z)
    movh $0h2.0, 0x20d0
    clrl r8
1:  incl r8
    acbh $0h0.5, $0x0000000000000000000000000000c001, 0x20d0, 1b
    movpsl r7
    movl r8, (r10)+
    movl r7, (r10)+
    # EMODH 1.5 * 2.75 = 4.125: int 4, fract 0.125; and of -1.5
    emodh $0h1.5, $0, $0h2.75, r0, r2
    movpsl r7
    movl r0, (r10)+
    movl r2, (r10)+
    movl r7, (r10)+
    emodh $0x0000000000000000000000008000c001, $0, $0h2.75, r0, r2
    movpsl r7
    movl r0, (r10)+
    movl r2, (r10)+
    movl r7, (r10)+
    cvtdh $0x00000000000040c0, r0       # D 1.5
    movl r0, (r10)+
    cvtgh $0x0000000000004018, r0       # G 1.5
    movl r0, (r10)+
    divh3 $0h3.0, $0h1.0, r0            # 1/3
    cvthd r0, r4                        # D: the 56th bit rounds up
    movq r4, (r10)+
    bispsw $1                           # C set: MOVH keeps it
    movh I^$0x00000000000000000000000012340000, r0
    movpsl r7
    movl r0, (r10)+
    movl r7, (r10)+
    mnegh $0h1.0, r0                    # N, C cleared
    movpsl r7
    movl r0, (r10)+
    movl r7, (r10)+
    tsth $0x0000000000000000000000000000c002
    movpsl (r10)+
    halt
    .align 2
tbl:
    .long 0x00004001, 0, 0, 0
    .long 0x00004002, 0, 0, 0
    .long 0x80004002, 0, 0, 0
    .long 0x00004003, 0, 0, 0
dirty:
    .long 0x56780000, 1, 2, 3
# expect: mem 2000=a0004005
# expect: mem 2004=00000000
# expect: mem 200c=00000000
# expect: mem 2010=00000000
# expect: mem 2014=041f0000
# expect: mem 2018=00000040
# expect: mem 201c=00000000
# expect: mem 2020=041f0004
# expect: mem 2024=00000005
# expect: mem 2028=041f0000
# expect: mem 202c=00000002
# expect: mem 2030=041f0004
# expect: mem 2034=00000004
# expect: mem 2038=00003ffe
# expect: mem 203c=041f0000
# expect: mem 2040=fffffffc
# expect: mem 2044=0000bffe
# expect: mem 2048=041f0008
# expect: mem 204c=80004001
# expect: mem 2050=80004001
# expect: mem 2054=aaaa3faa
# expect: mem 2058=aaabaaaa
# expect: mem 205c=00000000
# expect: mem 2060=041f0005
# expect: mem 2064=0000c001
# expect: mem 2068=041f0008
# expect: mem 206c=041f0008
# expect: mem 20c0=40004003
# expect: mem 20d0=00000000
