# misses.s: a loop whose references miss the cache (16 KB: 128 sets of
# two 64-byte lines) at every line, whose conditional branch goes the
# other way every pass, and which calls an instruction at a page's last
# two bytes.  Each of 200 passes reads a longword in each line of 32 KB
# at 0x10000 and writes one in each line of 32 KB at 0x20000, so every
# reference misses, the lines written are dirty when they are evicted
# (write-backs), and the loop's own code is evicted on the way (its
# opcode fetches miss).  The trace compiler's code makes such misses
# itself where the line is a TB hit (vm_memo_refill_miss, and at an end
# vm_memo_irefill_miss) with the full path's stall and counts; BLBS's
# other way is the IRD point, which a side segment of its own ends
# (vm_tc_ird_side); the INCL at 0x11fe is fetched with MAPEN clear, so
# the quick IRD way takes it though its page ends two bytes after it.
# At the HALT: R6 = the sum of the longwords read, 200 passes of
# 16 * (0 + 1 + ... + 511) = 0x18f38000; R7 = 100 (the even passes);
# R8 = 200 (the calls).
    movl $0x10000, r1            # 0x10000-0x17fff: longword i is i
    clrl r2
1:  movl r2, (r1)+
    aoblss $0x2000, r2, 1b
    clrq r6
    clrl r8
    movl $200, r9
2:  movl $0x10000, r1
    movl $0x20000, r3
    movl $512, r2                # 512 lines of 64 bytes: 32 KB
3:  addl2 (r1), r6               # a read that misses
    movl r6, (r3)                # a write that misses (and dirties the line)
    addl2 $64, r1
    addl2 $64, r3
    sobgtr r2, 3b
    blbs r9, 4f                  # every other pass
    incl r7
4:  jsb edge
    sobgtr r9, 2b
    halt
    .org 0x1fe                   # 0x11fe: the page's last two bytes
edge:
    incl r8                      # D6 58
    rsb
