# CMP/BIT/TST and every conditional branch, taken and not taken.
    movl $0x2000, r10
    clrl r0
    cmpl $1, $2
    movpsl (r10)
    cmpl $-1, $1
    movpsl 4(r10)
    cmpb $0x80, $0x7f
    movpsl 8(r10)
    cmpw $5, $5
    movpsl 12(r10)
    bitl $0x80000000, $0xffffffff
    movpsl 16(r10)
    bitb $1, $2
    movpsl 20(r10)
# record one bit per branch in r0 (taken = 1)
    cmpl $1, $2                # N=1 Z=0 C=1 (1 <u 2)
    bneq 1f
    brb 2f
1:  bisl2 $1, r0
2:  beql 3f
    brb 4f
3:  bisl2 $2, r0
4:  bgtr 5f
    brb 6f
5:  bisl2 $4, r0
6:  bleq 7f
    brb 8f
7:  bisl2 $8, r0
8:  bgeq 9f
    brb 10f
9:  bisl2 $16, r0
10: blss 11f
    brb 12f
11: bisl2 $32, r0
12: cmpl $1, $2
    bgtru 13f
    brb 14f
13: bisl2 $64, r0
14: blequ 15f
    brb 16f
15: bisl2 $128, r0
16: bvc 17f
    brb 18f
17: bisl2 $256, r0
18: bvs 19f
    brb 20f
19: bisl2 $512, r0
20: cmpl $1, $2
    bgequ 21f
    brb 22f
21: bisl2 $1024, r0
22: blssu 23f
    brb 24f
23: bisl2 $2048, r0
24: cmpl $3, $3
    beql 25f
    brb 26f
25: bisl2 $4096, r0
26: bgeq 27f
    brb 28f
27: bisl2 $8192, r0
28: bleq 29f
    brb 30f
29: bisl2 $16384, r0
30: bgequ 31f
    brb 32f
31: bisl2 $32768, r0
32: addl3 $0x7fffffff, $1, r1
    bvs 33f
    brw 34f
33: bisl2 $0x10000, r0
34: blbs $3, 35f
    brb 36f
35: bisl2 $0x20000, r0
36: blbc $3, 37f
    brb 38f
37: bisl2 $0x40000, r0
38: blbc $2, 39f
    brb 40f
39: bisl2 $0x80000, r0
40: halt
