#!/usr/bin/env python3
"""Every opcode of the opcode table has a microcode flow (issue 16).

For each opcode in vax/isa/vax_opcodes.c, run a one-instruction image on
`spamctl run` (the opcode, then zero bytes: short literal 0 for every
operand, a zero branch displacement) and require that the machine does
not stop with "not implemented in microcode".  Whatever else happens
(HALT, a reserved addressing mode fault on a literal destination, a
reserved operand, an exception through an empty vector) shows that the
decode ROM entered a flow of the opcode's own.  Aliases (BNEQU = BNEQ ...)
share their opcode's entry and are run once.

usage: isa_complete.py SPAMCTL OPCODES_C
"""
import os
import re
import subprocess
import sys
import tempfile


def main():
    spamctl, table = sys.argv[1], sys.argv[2]
    codes = {}
    for name, code in re.findall(r'\{"([a-z0-9]+)",\s*(0x[0-9A-Fa-f]+)', open(table).read()):
        codes.setdefault(int(code, 16), name)
    if len(codes) < 300:
        print(f"FAIL: only {len(codes)} opcodes read from {table}")
        return 1
    bad = []
    with tempfile.TemporaryDirectory() as d:
        img = os.path.join(d, "op.bin")
        for code, name in sorted(codes.items()):
            op = bytes([code >> 8, code & 0xFF]) if code > 0xFF else bytes([code])
            with open(img, "wb") as f:
                f.write(op + bytes(40))
            r = subprocess.run([spamctl, "run", "--raw", img, "--load-at", "0x1000",
                                "--max-cycles", "20000"],
                               capture_output=True, text=True, timeout=60)
            out = r.stdout + r.stderr
            if "not implemented" in out or r.returncode not in (0, 1):
                bad.append(f"{name} ({code:02X}): exit {r.returncode}: {out.strip()[:160]}")
    for b in bad:
        print("FAIL:", b)
    print(f"{len(codes)} opcodes run, {len(bad)} without a microcode flow")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
