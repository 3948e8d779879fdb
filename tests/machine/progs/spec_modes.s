# Every specifier mode, for read, modify, write and address access.
    movl $0x2000, r10          # window base
    movl $0x11223344, (r10)    # (Rn) write, immediate read
    movl (r10), r0             # (Rn) read
    movl $0x2010, r1
    movl r0, -(r1)             # -(Rn) write: 0x200C
    movl (r1)+, r2             # (Rn)+ read
    movab 0x20(r10), r3
    movl $0x55667788, 4(r10)   # byte displacement write
    movl 4(r10), r4            # byte displacement read
    movl $0x99, 0x104(r3)      # word displacement: 0x2124? (outside window, read back)
    movl 0x104(r3), r5
    movl $0x1234, l`0x40(r10)  # long displacement
    movl l`0x40(r10), r6
    movl $0x2000, 0x50(r10)    # pointer at 0x2050
    movl *0x50(r10), r7        # byte disp deferred
    movl $0x2004, 0x54(r10)
    movl *w`0x54(r10), r8      # word disp deferred
    movl *l`0x50(r10), r9      # long disp deferred
    movab 0x50(r10), r11
    movl *(r11)+, r12          # autoinc deferred: (0x2050) -> 0x2000
    movl *$0x2040, r13         # absolute
    addl2 $5, *$0x2040         # absolute modify
    movl $3, r1
    movl (r10)[r1], r2         # indexed: 0x2000 + 12
    movb $0x7f, 1(r10)[r1]     # indexed byte: 0x2001 + 3
    movw $0x4142, (r10)[r1]    # indexed word: 0x2006
    movaq 8(r10)[r1], r4       # address of quad: 0x2008 + 24
    movl $0x2060, r5
    clrq (r5)+[r1]             # indexed autoincrement: 0x2060 + 24, r5 += 8
    movl pcdata, r0            # PC-relative
    movl pcdata[r1], r3        # PC-relative indexed (beyond data, read something)
    incl pcdata
    movl pcdata, r1
    movq $0x0102030405060708, r6
    movq r6, 0x80(r10)
    movq 0x80(r10), r8
    halt
pcdata: .long 0xcafef00d, 1, 2, 3, 4
