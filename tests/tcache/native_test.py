#!/usr/bin/env python3
"""The trace compiler (vax/machine/vm_tcache_x64.c) against the trace
cache's handlers and the plain interpreter: the same programs run free
three ways -- compiled (the default), --no-tcache-native, --no-tcache --
must end in the same whole state (`--dump-state`), and where the build has
the compiler the first run must show that roots were compiled
(`--tcache-stats`: "compiled: N segments"), or the comparison proved nothing.
Free runs matter here: the lock-step check (`tcache_check_test.py`, which
runs compiled too) steps an instruction at a time, so the compiled code's
own IRD points, which go from one root's code into the next, run only
free.

usage: native_test.py SPAMCTL VASM EVKAA.EXE KERNEL.BIN BUILT(0|1) LOOP.S...

  * the benchmark's three loops (ALU, memory copy, CALLS/RET) and the
    tcache suite's loops (LOOP.S: self-modifying code, PSL<T> and the IPL,
    pushes and pops at every offset of a line, entry masks, folded tests);
  * EVKAA for 60 M microcycles (exceptions, every opcode group, guards
    failing in compiled code);
  * the bundled guest to its shutdown with a 1 MB arena, emptied on the
    way: the compiled code goes with the traces and is compiled again.
A missing EVKAA image is a failure, not a skip."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tcache_check_test import check, guest_image, report  # noqa: E402

COMPILED = re.compile(r"compiled: (\d+) segments")
FLUSHES = re.compile(r"(\d+) flushes")

LOOPS = [
    ("alu", "    movl $20000, r0\n"
            "1:  addl2 r1, r2\n    xorl2 r2, r3\n    incl r4\n"
            "    bicl3 $0xff, r3, r5\n    sobgtr r0, 1b\n    halt\n"),
    ("memcopy", "    movl $20, r0\n"
                "2:  movab buf, r5\n    movab buf+2048, r7\n    movl $256, r3\n"
                "1:  movl (r5)+, r6\n    movl r6, (r7)+\n    sobgtr r3, 1b\n"
                "    sobgtr r0, 2b\n    halt\nbuf: .space 4096\n"),
    ("calls-ret", "    movl $5000, r0\n"
                  "1:  pushl r0\n    calls $1, sub\n    sobgtr r0, 1b\n    halt\n"
                  "sub: .word 0x000c\n    movl 4(ap), r2\n    addl2 r2, r3\n    ret\n"),
]


def three_ways(name, cmd, built, min_compiled=1):
    """cmd run compiled, with the handlers alone, and interpreted: the
    same final state; roots compiled where the build has the compiler."""
    states = {}
    stats = ""
    for mode, extra in (("compiled", ["--tcache-stats"]), ("handlers", ["--no-tcache-native"]),
                        ("plain", ["--no-tcache"])):
        r = subprocess.run(cmd + extra + ["--dump-state", "-"], capture_output=True,
                           text=True, timeout=600)
        check(r.returncode == 0, "%s %s: spamctl exit 0" % (name, mode), r.stderr[-400:])
        try:
            states[mode] = json.loads(r.stdout)
        except ValueError:
            states[mode] = None
        if mode == "compiled":
            stats = r.stderr
    ok = states["compiled"] is not None and \
        states["compiled"] == states["handlers"] == states["plain"]
    check(ok, name + ": compiled, handlers and interpreter end in the same state",
          "" if ok else "%s\n%s" % (str(states["compiled"])[:500], str(states["plain"])[:500]))
    m = COMPILED.search(stats)
    n = int(m.group(1)) if m else -1
    if built:
        check(n >= min_compiled, "%s: %d segments compiled (at least %d)" % (name, n, min_compiled))
    else:
        check(n == 0, "%s: nothing compiled (the build has no compiler)" % name)
    return stats


def loops(spamctl, vasm, sources, work, built):
    progs = [(n, s) for n, s in LOOPS]
    for path in sources:
        progs.append((os.path.splitext(os.path.basename(path))[0], open(path).read()))
    for name, src in progs:
        s = os.path.join(work, name + ".s")
        b = os.path.join(work, name + ".bin")
        with open(s, "w") as f:
            f.write(src)
        a = subprocess.run([vasm, "--raw", "--base", "0x1000", "-o", b, s],
                           capture_output=True, text=True)
        check(a.returncode == 0, name + ": assembles", a.stderr[-400:])
        if a.returncode:
            continue
        three_ways(name, [spamctl, "run", "--raw", b, "--load-at", "0x1000", "--set",
                          "r14=8000", "--max-cycles", "unlimited", "--console-in", "",
                          "--tcache-after", "1"], built)


def evkaa(spamctl, image, built):
    if not os.path.isfile(image):
        check(False, "EVKAA image present (%s, see ../shared/diag/README.md)" % image)
        return
    three_ways("EVKAA", [spamctl, "run", "--raw", image, "--load-at", "0", "--start",
                         "0x200", "--console-in", "\\r", "--console-out", os.devnull,
                         "--max-cycles", "60000000"], built, 100)


def guest(spamctl, kernel, work, built):
    binf = guest_image(kernel, work)
    stats = three_ways("guest", [spamctl, "run", "--raw", binf, "--load-at", "0", "--start",
                                 "0", "--memory", "8", "--console-in", "", "--console-out",
                                 os.devnull, "--max-cycles", str(300 * 125000 * 3),
                                 "--tcache-mb", "1", "--tcache-after", "1"], built, 100)
    fl = FLUSHES.search(stats)
    check(fl is not None and int(fl.group(1)) > 0,
          "guest: its 1 MB arena, and the code with it, emptied on the way (%s)"
          % (fl and fl.group(0)))


def main():
    spamctl, vasm, image, kernel, built = sys.argv[1:6]
    built = built == "1"
    with tempfile.TemporaryDirectory() as work:
        loops(spamctl, vasm, sys.argv[6:], work, built)
        evkaa(spamctl, image, built)
        guest(spamctl, kernel, work, built)
    return report()


if __name__ == "__main__":
    sys.exit(main())
