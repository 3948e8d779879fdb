# HALT outside kernel mode is a reserved-instruction fault.
# expect-stop: reserved instruction fault
# psl: 03c00000
    halt
