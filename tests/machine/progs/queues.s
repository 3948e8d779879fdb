# INSQUE/REMQUE on an absolute queue: empty, one, two entries.
    movl $0x2000, r10
    movab (r10), r1               # header at 0x2000
    movl r1, (r1)
    movl r1, 4(r1)
    movab 16(r10), r2             # entry A
    movab 32(r10), r3             # entry B
    insque (r2), (r1)
    movpsl 64(r10)
    insque (r3), (r2)
    movpsl 68(r10)
    remque (r2), r4
    movpsl 72(r10)
    remque (r3), r5
    movpsl 76(r10)
    halt
