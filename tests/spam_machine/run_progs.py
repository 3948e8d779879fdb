#!/usr/bin/env python3
"""Run the SPAM instruction test programs on the machine and check them.

usage: run_progs.py VASM SPAMCTL PROG.s...

Each program is assembled at 0x1000 and run with spamctl run (kernel mode,
IPL 31, empty SCB: a fault stops the machine and names itself).  Lines in
the program say what to expect:
  # args: ...                 extra spamctl run options
  # variants: r0=0 r0=1 ...   run once per --set value
  # expect-stop: TEXT         the stop reason (default: HALT instruction)
  # expect: rN=HEX            a register at the end
  # expect-mem: ADDR=L L ...  longwords (hex) at physical ADDR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

BASE = 0x1000


def run(vasm, spamctl, prog):
    text = open(prog).read()
    name = os.path.basename(prog)
    args = []
    m = re.search(r"#\s*args:\s*(.+)", text)
    if m:
        args = m.group(1).split()
    variants = re.findall(r"#\s*variants:\s*(.+)", text)
    variants = variants[0].split() if variants else [None]
    stop = re.search(r"#\s*expect-stop:\s*(.+)", text)
    want_stop = stop.group(1).strip() if stop else "HALT instruction"
    regs = re.findall(r"#\s*expect:\s*r(\d+)=([0-9a-fA-F]+)", text)
    mems = re.findall(r"#\s*expect-mem:\s*(0x[0-9a-fA-F]+)=([0-9a-fA-F ]+)", text)
    fails = 0
    with tempfile.TemporaryDirectory() as td:
        binf = os.path.join(td, "p.bin")
        subprocess.run([vasm, "--raw", "--base", hex(BASE), "-o", binf, prog], check=True)
        for var in variants:
            cmd = [spamctl, "run", "--raw", binf, "--load-at", hex(BASE),
                   "--dump-state", "-"] + args
            if var:
                cmd += ["--set", var]
            for addr, words in mems:
                cmd += ["--dump-mem", "%s:%d" % (addr, 4 * len(words.split()))]
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            d = json.loads(out)
            tag = name + (" [%s]" % var if var else "")
            if d["reason"] != want_stop:
                print("FAIL %s: stopped with '%s', expected '%s'" % (tag, d["reason"], want_stop))
                fails += 1
            for r, v in regs:
                got = int(d["r"][int(r)], 16)
                if got != int(v, 16):
                    print("FAIL %s: r%s = %08x, expected %s" % (tag, r, got, v))
                    fails += 1
            for addr, words in mems:
                raw = bytes.fromhex(d["mem"]["0x%08x" % int(addr, 16)])
                for i, w in enumerate(words.split()):
                    got = int.from_bytes(raw[4 * i:4 * i + 4], "little")
                    if got != int(w, 16):
                        print("FAIL %s: longword at %#x = %08x, expected %s"
                              % (tag, int(addr, 16) + 4 * i, got, w))
                        fails += 1
            if not fails:
                print("ok   %s" % tag)
    return fails


def main():
    vasm, spamctl = sys.argv[1:3]
    fails = sum(run(vasm, spamctl, p) for p in sys.argv[3:])
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
