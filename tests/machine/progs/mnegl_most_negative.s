# MNEGL of the most negative number: result 0x80000000, N=1 V=1 C=1.
# no-simh: SIMH 3.8.1 clears N here (its MNEGL condition codes are the
# known deviation that fails EVKAA test 9), so the architecture is checked.
    mnegl $0x80000000, r0
    movpsl r1
    mnegb $0x80, r2
    movpsl r3
    mnegw $0x8000, r4
    movpsl r5
    halt
# expect: r0=80000000
# expect: r1=041f000b
# expect: r2=00000080
# expect: r3=041f000b
# expect: r4=00008000
# expect: r5=041f000b
