# 70000 DISABLE/ENABLE pairs: 140000 marker records after the console's
# "enabled" marker, more than the 131072-record buffer holds, so the trace
# file is complete only if the host drain works.  (Run with -o.)
    movl $70000, r0
1:  disable
    enable
    sobgtr r0, 1b
    halt
