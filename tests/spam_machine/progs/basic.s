# PAMMINIT, SET_PTRS, ENABLE, DISABLE, GETSTAT, READ_BUFFER: the markers
# in the buffer with the right layout, the status registers, empty read.
    movl $17, r11                # the hidden megabyte of a 16 MB machine (MB 16 is a hole)
    movl $1, r10                 # array slot 1
    pamminit
    movl $0x1100000, r11
    movl $0x1100040, r10         # 8 records
    setptrs
    getstat
    movl r10, *$0x4000           # status before ENABLE: 0
    movl r7, *$0x4004            # records: 0
    movl r6, *$0x4008            # size: 8
    enable
    getstat
    movl r10, *$0x400c           # -1
    disable
    getstat                      # R11 = instruction count
    movl r11, r0
    movl r9, r1                  # read pointer: start
    movl r8, r2                  # write pointer: start + 16
    movl r7, r3                  # 2 records
    movl r5, *$0x4010            # start
    movl r4, *$0x4014            # end
    movl r10, r12                # 0: off
    readbuf
    movl r11, *$0x4018
    movl r10, *$0x401c           # PSL<31:16> 041F, marker 1
    movl r9, *$0x4020            # 0: OK
    movl r8, *$0x4024            # status 0
    readbuf
    movl r10, *$0x4028           # marker 2
    readbuf
    movl r9, *$0x402c            # -1: no data
    movl r11, *$0x4030           # 0
    getstat
    movl r9, *$0x4034            # read pointer caught up: start + 16
    movl r7, *$0x4038            # 0 records
    halt
# expect: r0=0000000e
# expect: r1=01100000
# expect: r2=01100010
# expect: r3=00000002
# expect: r12=00000000
# expect-mem: 0x4000=00000000 00000000 00000008 ffffffff 01100000 01100040
# expect-mem: 0x4018=0000000a 041f6001 00000000 00000000 041f6002 ffffffff
# expect-mem: 0x4030=00000000 01100010 00000000
