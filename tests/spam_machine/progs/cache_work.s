# Cache workload for the cache-set translation measurement: 3000 rounds of
# reading one longword of each line of a 12 KB array (192 lines: the whole
# working set fits the 16 KB two-way cache), with a DISABLE/ENABLE pair
# (two trace records) every 16 lines when R1 = 1.  Run with -o.
    movl $3000, r0
1:  movl $0x20000, r2
    movl $192, r4
2:  movl (r2), r3
    addl2 $64, r2
    bitl $15, r4
    bneq 3f
    tstl r1
    beql 3f
    disable
    enable
3:  sobgtr r4, 2b
    sobgtr r0, 1b
    halt
