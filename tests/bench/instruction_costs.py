#!/usr/bin/env python3
"""Microcycles per instruction for a few instructions of each class
(issue 16: floating F/D/G/H, packed decimal and EDITPC, the string,
queue and interlocked instructions), measured on `spamctl run`.

Each row assembles its setup, then COPIES copies of the instruction,
then HALT; and the same without the copies.  The difference in
microcycles divided by COPIES is the instruction's cost, specifiers
included, with a warm cache (the first copy's misses spread over the
rest).  The rows' operands stay in range over the copies (no traps).

usage: instruction_costs.py SPAMCTL VASM [--copies N] [--json FILE]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

# Registers: F in r1/r9, D and G pairs r2/r4/r6, H quads r0/r4/r8.
F = "\tmovf\t$0f1.5,r1\n\tmovf\t$0f2.0,r9\n"
D = "\tmovd\t$0d1.25,r2\n\tmovd\t$0d3.0,r4\n"
G = "\tmovg\t$0g1.25,r2\n\tmovg\t$0g3.0,r4\n"
H = "\tmovh\t$0h1.25,r0\n\tmovh\t$0h3.0,r4\n"
# Packed operands in the image: a = 10 digits, b = 10 digits, d = 21-digit
# room; s = a string of 64 bytes, t = a 256-byte translation table.
DATA = """
\t.align 2
dpa:\t.byte 0x00,0x12,0x34,0x56,0x78,0x9c
dpb:\t.byte 0x00,0x00,0x00,0x00,0x12,0x3c
dpc:\t.byte 0x12,0x34,0x56,0x78,0x90,0x12,0x34,0x56,0x78,0x90,0x1c
dpd:\t.space 32
pat:\t.byte 0x47,0x0a,0x92,0x44,0x2c,0x93,0x44,0x2c,0x93,0x44,0x2e,0x92,0x04,0x00
out:\t.space 64
src:\t.ascii "the quick brown fox jumps over the lazy dog, again and again!!!"
dst:\t.space 64
tbl:\t.space 256
crct:\t.long 0,0x1db71064,0x3b6e20c8,0x26d930ac,0x76dc4190,0x6b6b51f4,0x4db26158,0x5005713c
\t.long 0xedb88320,0xf00f9344,0xd6d6a3e8,0xcb61b38c,0x9b64c2b0,0x86d3d2d4,0xa00ae278,0xbdbdf21c
\t.align 3
qh:\t.long 0,0
qe:\t.long 0,0
"""

ROWS = [
    # class, instruction as shown, setup, the instruction's text
    ("F floating", "ADDF2 R1,R9", F, "addf2\tr1,r9"),
    ("F floating", "MULF2 R1,R9", F, "mulf2\tr1,r9"),
    ("F floating", "DIVF2 R1,R9", F, "divf2\tr1,r9"),
    ("F floating", "CVTLF R3,R5", F + "\tmovl\t$12345,r3\n", "cvtlf\tr3,r5"),
    ("F floating", "POLYF R1,#3,table", F, "polyf\tr1,$3,ftab"),
    ("D floating", "ADDD3 R2,R4,R6", D, "addd3\tr2,r4,r6"),
    ("D floating", "MULD3 R2,R4,R6", D, "muld3\tr2,r4,r6"),
    ("D floating", "DIVD3 R2,R4,R6", D, "divd3\tr2,r4,r6"),
    ("D floating", "CVTRDL R4,R8", D, "cvtrdl\tr4,r8"),
    ("D floating", "EMODD R2,#0,R4,R8,R6", D, "emodd\tr2,$0,r4,r8,r6"),
    ("G floating", "ADDG3 R2,R4,R6", G, "addg3\tr2,r4,r6"),
    ("G floating", "MULG3 R2,R4,R6", G, "mulg3\tr2,r4,r6"),
    ("G floating", "DIVG3 R2,R4,R6", G, "divg3\tr2,r4,r6"),
    ("H floating", "ADDH3 R0,R4,R8", H, "addh3\tr0,r4,r8"),
    ("H floating", "MULH3 R0,R4,R8", H, "mulh3\tr0,r4,r8"),
    ("H floating", "DIVH3 R0,R4,R8", H, "divh3\tr0,r4,r8"),
    ("H floating", "CVTHL R4,R8", H, "cvthl\tr4,r8"),
    ("decimal", "ADDP4 10 digits + 10 digits", "", "addp4\t$10,dpa,$10,dpb"),
    ("decimal", "MOVP 10 digits", "", "movp\t$10,dpa,dpd"),
    ("decimal", "CMPP3 10 digits", "", "cmpp3\t$10,dpa,dpb"),
    ("decimal", "MULP 10 x 10 -> 21 digits", "", "mulp\t$10,dpa,$10,dpa,$21,dpd"),
    ("decimal", "DIVP 21 / 10 digits", "", "divp\t$10,dpa,$21,dpc,$21,dpd"),
    ("decimal", "CVTLP R3 (9 digits)", "\tmovl\t$123456789,r3\n", "cvtlp\tr3,$10,dpd"),
    ("decimal", "CVTPL 10 digits", "", "cvtpl\t$9,dpa,r3"),
    ("decimal", "EDITPC 10 digits, 10 operators", "", "editpc\t$10,dpa,pat,out"),
    ("string", "MOVC3 64 bytes", "", "movc3\t$64,src,dst"),
    ("string", "MOVTC 64 bytes", "", "movtc\t$64,src,$32,tbl,$64,dst"),
    ("string", "SCANC 64 bytes (no match)", "", "scanc\t$64,src,tbl,$1"),
    ("string", "MATCHC 3 in 64 bytes", "", "matchc\t$3,src+40,$64,src"),
    ("string", "CRC 16 bytes", "", "crc\tcrct,$0,$16,src"),
    ("queue", "INSQHI + REMQHI", "", "insqhi\tqe,qh\n\tremqhi\tqh,r3"),
    ("queue", "ADAWI", "", "adawi\t$1,qe"),
]
FTAB = "\t.align 2\nftab:\t.float 0f0.5,0f1.5,0f2.5,0f3.5\n"


def cycles(spamctl, vasm, work, name, text):
    s = os.path.join(work, name + ".s")
    b = os.path.join(work, name + ".bin")
    with open(s, "w") as f:
        f.write("\t.text\nstart:\n" + text + "\thalt\n" + DATA + FTAB)
    r = subprocess.run([vasm, "--raw", "--base", "0x1000", "-o", b, s],
                       capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"vasm failed on {name}: {r.stderr.strip()[:400]}")
    r = subprocess.run([spamctl, "run", "--raw", b, "--load-at", "0x1000",
                        "--max-cycles", "100000000"], capture_output=True, text=True)
    out = r.stdout + r.stderr
    m = re.search(r"halted: HALT instruction.*?; (\d+) microcycles, (\d+) instructions", out)
    if not m:
        raise SystemExit(f"{name}: did not reach its HALT: {out.strip()[:300]}")
    return int(m.group(1)), int(m.group(2))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("spamctl")
    ap.add_argument("vasm")
    ap.add_argument("--copies", type=int, default=50)
    ap.add_argument("--json", help="also write the rows as JSON to this file")
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for i, (cls, shown, setup, ins) in enumerate(ROWS):
            c0, i0 = cycles(a.spamctl, a.vasm, work, f"r{i}a", setup)
            body = "".join("\t%s\n" % ins for _ in range(a.copies))
            c1, i1 = cycles(a.spamctl, a.vasm, work, f"r{i}b", setup + body)
            n = (i1 - i0)
            per = (c1 - c0) / a.copies
            rows.append({"class": cls, "instruction": shown, "microcycles": round(per, 1),
                         "instructions_per_copy": n // a.copies})
    w = max(len(r["instruction"]) for r in rows)
    print(f"{'class':<11} {'instruction':<{w}} microcycles")
    for r in rows:
        print(f"{r['class']:<11} {r['instruction']:<{w}} {r['microcycles']:>10.1f}")
    print(f"(one 80 ns microcycle each; {a.copies} copies per row, minus the setup alone)")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
