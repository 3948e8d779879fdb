# A full buffer: tracing stops itself (status 0), the record that did not
# fit is dropped (the host sees drops = 1), READ_BUFFER still returns the
# records; ENABLE after emptying resumes.  Wrap-around of both pointers.
    movl $17, r11
    movl $1, r10
    pamminit
    movl $0x11ffff0, r11         # the last two slots of the megabyte
    movl $0x1200000, r10
    setptrs
    enable                       # marker 1 (slot 0)
    disable                      # marker 2 (slot 1): full
    enable                       # no room: stops itself at once
    getstat
    movl r10, r0                 # 0: tracing stopped
    movl r7, r1                  # 2 records
    movl r8, r2                  # write pointer wrapped to start
    readbuf
    movl r10, r3                 # marker 1
    readbuf
    movl r10, r12                # marker 2
    enable                       # room again: marker 1 at slot 0
    getstat
    movl r10, r5                 # -1
    movl r7, r6                  # 1 record
    readbuf
    movl r10, r7
    movl r9, r8                  # 0: OK
    halt
# expect: r0=00000000
# expect: r1=00000002
# expect: r2=011ffff0
# expect: r3=041f6001
# expect: r12=041f6002
# expect: r5=ffffffff
# expect: r6=00000001
# expect: r7=041f6001
# expect: r8=00000000
