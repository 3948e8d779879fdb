#!/usr/bin/env python3
"""Run small VAX programs on our machine (spamctl run) and on SIMH's vax780
and compare R0-R15, the PSL and the memory window 0x2000-0x20FF.

usage: simh_compare.py VASM SPAMCTL VAX780 PROG.s...

Each program starts at 0x1000 in kernel mode (PSL 041F0000) with SP =
0x8000 and ends with HALT.  A line '# expect-stop: TEXT' in a program says
that our machine stops with that reason instead (a trap whose exception
flow does not exist yet); such programs are checked against the text and
not run on SIMH.  A line '# no-simh: WHY' skips SIMH.  Lines
'# expect: rN=HEX', '# expect: psl=HEX' and '# expect: mem ADDR=HEX' (a
longword in the window) are hand-computed values checked on our machine
in every case, beside the comparison with SIMH when it runs.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

BASE = 0x1000
WIN = (0x2000, 0x100)


def ours(spamctl, binf, psl="041F0000"):
    out = subprocess.run(
        [spamctl, "run", "--raw", binf, "--load-at", hex(BASE), "--psl", psl,
         "--set", "r14=8000", "--max-cycles", "2000000",
         "--dump-mem", "%#x:%d" % WIN, "--dump-state", "-"],
        capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def simh(vax780, binf, work):
    ini = os.path.join(work, "s.ini")
    with open(ini, "w") as f:
        f.write("set cpu 16m\nload -o %s %x\ndep pc %x\ndep psl 041F0000\n"
                "dep sp 8000\ngo\nex r0,r1,r2,r3,r4,r5,r6,r7,r8,r9,r10,r11,"
                "r12,r13,r14,pc,psl\nex -l %x-%x\nexit\n"
                % (binf, BASE, BASE, WIN[0], WIN[0] + WIN[1] - 1))
    out = subprocess.run([vax780, ini], capture_output=True, text=True,
                         timeout=30, cwd=work).stdout
    regs, mem, msg = {}, {}, ""
    for line in out.splitlines():
        m = re.match(r"^(R\d+|PC|PSL):\s+([0-9A-F]+)$", line.strip())
        if m:
            regs[m.group(1)] = int(m.group(2), 16)
            continue
        m = re.match(r"^([0-9A-F]+):\s+([0-9A-F]+)$", line.strip())
        if m:
            mem[int(m.group(1), 16)] = int(m.group(2), 16)
            continue
        if "instruction" in line or "trap" in line.lower() or "halt" in line.lower():
            msg += line.strip() + " "
    return regs, mem, msg


def mem_long(o, addr):
    hexmem = o["mem"]["0x%08x" % WIN[0]]
    off = (addr - WIN[0]) * 2
    return int("".join(reversed([hexmem[off + 2 * k:off + 2 * k + 2] for k in range(4)])), 16)


def check_expect(o, text):
    """The program's hand-computed '# expect:' values: a list of misses."""
    bad = []
    for r, v in re.findall(r"#\s*expect:\s*r(\d+)=([0-9a-fA-F]+)", text):
        if int(o["r"][int(r)], 16) != int(v, 16):
            bad.append("r%s=%s (want %s)" % (r, o["r"][int(r)], v))
    for v in re.findall(r"#\s*expect:\s*psl=([0-9a-fA-F]+)", text):
        if int(o["psl"], 16) != int(v, 16):
            bad.append("psl=%s (want %s)" % (o["psl"], v))
    for a, v in re.findall(r"#\s*expect:\s*mem\s+(?:0x)?([0-9a-fA-F]+)=([0-9a-fA-F]+)", text):
        a = int(a, 16)
        if not WIN[0] <= a <= WIN[0] + WIN[1] - 4:
            bad.append("mem %X outside the window" % a)
        elif mem_long(o, a) != int(v, 16):
            bad.append("mem %X=%08X (want %s)" % (a, mem_long(o, a), v))
    return bad


def main():
    vasm, spamctl, vax780 = sys.argv[1:4]
    failures = 0
    for prog in sys.argv[4:]:
        name = os.path.basename(prog)
        text = open(prog).read()
        with tempfile.TemporaryDirectory() as work:
            binf = os.path.join(work, "p.bin")
            subprocess.run([vasm, "--raw", "--base", hex(BASE), "-o", binf, prog],
                           check=True)
            pm = re.search(r"#\s*psl:\s*([0-9a-fA-F]+)", text)
            o = ours(spamctl, binf, pm.group(1) if pm else "041F0000")
            stop = re.search(r"#\s*expect-stop:\s*(.+)", text)
            if stop:
                want = stop.group(1).strip()
                if want not in o["reason"]:
                    print("FAIL %s: stopped with '%s', expected '%s'" % (name, o["reason"], want))
                    failures += 1
                    continue
            if stop or re.search(r"#\s*no-simh:", text):
                bad = check_expect(o, text)
                if bad:
                    print("FAIL %s: %s" % (name, ", ".join(bad)))
                    failures += 1
                else:
                    print("ok   %s (%s)" % (name, o["reason"]))
                continue
            if not o["halted"] or o["reason"] != "HALT instruction":
                print("FAIL %s: our machine stopped: %s at pc %s" % (name, o["reason"], o["pc"]))
                failures += 1
                continue
            regs, mem, msg = simh(vax780, binf, work)
            bad = ["expected " + b for b in check_expect(o, text)]
            for i in range(15):
                if regs.get("R%d" % i) != int(o["r"][i], 16):
                    bad.append("R%d ours %s simh %08X" % (i, o["r"][i], regs.get("R%d" % i, -1)))
            if regs.get("PC") != int(o["pc"], 16):
                bad.append("PC ours %s simh %08X (%s)" % (o["pc"], regs.get("PC", -1), msg))
            if regs.get("PSL") != int(o["psl"], 16):
                bad.append("PSL ours %s simh %08X" % (o["psl"], regs.get("PSL", -1)))
            for a, v in sorted(mem.items()):
                ov = mem_long(o, a)
                if ov != v:
                    bad.append("mem %X ours %08X simh %08X" % (a, ov, v))
            if bad:
                failures += 1
                print("FAIL %s:\n  %s" % (name, "\n  ".join(bad[:12])))
            else:
                print("ok   %s (%d instructions, %d microcycles)" % (name, o["instructions"], o["microcycles"]))
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
