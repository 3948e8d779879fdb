#!/usr/bin/env python3
"""The trace cache in lock step with the plain interpreter on whole
workloads: `spamctl run --tcache-check` stops the machine at the first
instruction after which the two differ in any state (vax/machine/
vm_tcache_check.c), so a clean run to the expected end is the check.

usage: tcache_check_test.py SPAMCTL EVKAA.EXE KERNEL.BIN VASM SELFMOD.S TBIT_IPL.S
       CALLRET.S CALLPTR.S FOLD.S TBMISS.S CROSS.S MISSES.S

  * EVKAA (DEC's instruction test) for 40 M microcycles: pass 1 and some
    fifty passes after it, every opcode group, guards failing into side
    traces;
  * the bundled guest kernel booted to its shutdown (memory management,
    exceptions, interrupts, context switches, user mode), with an arena
    of 1 MB (--tcache-mb) which it fills, recording what runs a second
    time (--tcache-after 1), so that the cache empties itself on the way
    and records again;
  * selfmod.s, a loop that rewrites its own literals, opcodes and branch
    displacements while its traces replay: a trace is recognised by its
    bytes, so every stale one must be left at the changed byte;
  * tbit_ipl.s, a loop that sets and clears PSL<T> and moves the IPL
    under a pending software interrupt inside its traces: the trace
    faults and the interrupt must come at the interpreter's IRD points;
  * callret.s, CALLS/RET and PUSHR/POPR with the stack at every byte
    offset of a cache line: a push or pop that takes the line of the
    reference before it (a SEQ run) must do so only where it is in it;
  * callptr.s, one CALLS site calling four procedures with other entry
    masks and PUSHR/POPR with masks from a register: where the mask
    scan's guard fails, the micro-stack is pushed once, not twice;
  * fold.s, MTPR, EXTZV, ASHL and BBS with short literal operands, whose
    microcode's tests of them the builder decides (KR);
  * tbmiss.s, MOVC3, MOVC5 and CMPC3 meeting TB misses in the middle of
    their traces (the TB emptied before each), and a fault among them:
    the trace goes on after the TB-miss flow (vm_tc_trap_flow), so most
    microwords must still run in traces, and where the trace compiler is
    built the loop goes back into its code (TC_LOOP_NATIVE);
  * cross.s, references across two cache lines of a page, and one across
    two pages: the compiled code makes the first kind itself
    (vm_memo_cross), so at most 12% of the microwords go through the
    interpreter as generic words (7.6%; 18% when every one did);
  * misses.s, references that miss the cache at every line (write-backs
    among them, and the loop's own code evicted), a branch that goes the
    other way every pass, and an instruction at a page's last two bytes
    with MAPEN clear: where the trace compiler is built its code makes the
    misses itself and the branch's other way is a side segment's end, so
    at most 1% of the microwords are generic (15.7% when each miss went
    through the interpreter) and side traces are entered.

Each must also show that the cache did the work (--tcache-stats): most
lookups hit and side traces were entered, or the check proved nothing.
A missing EVKAA image is a failure, not a skip."""
import os
import re
import struct
import subprocess
import sys
import tempfile

STATS = re.compile(r"tcache: (\d+) lookups, (\d+) hits .*?(\d+) side entries, (\d+) exits")
FAILS = []


def check(ok, what, detail=""):
    print("%s: %s" % ("ok" if ok else "FAIL", what))
    if not ok:
        FAILS.append(what)
        if detail:
            print(detail)


def report():
    """The end of a test made of checks: its exit status."""
    if FAILS:
        print("%d check(s) failed" % len(FAILS))
        return 1
    print("all checks passed")
    return 0


def run(cmd, con):
    r = subprocess.run(cmd + ["--tcache-check", "--tcache-stats", "--console-out", con,
                              "--dump-state", "-"],
                       capture_output=True, text=True, timeout=1200)
    m = STATS.search(r.stderr)
    reason = re.search(r'"reason": "([^"]*)"', r.stdout)
    text = open(con, "rb").read().replace(b"\0", b"").decode("latin-1") \
        if os.path.exists(con) else ""
    return r, (reason.group(1) if reason else None), m, text


def cache_worked(name, m, min_hit):
    check(m is not None, name + ": trace cache counters printed")
    if not m:
        return
    lookups, hits, side, _ = (int(x) for x in m.groups())
    rate = hits / lookups if lookups else 0.0
    print("  %s: %d lookups, %.2f%% hits, %d side entries" % (name, lookups, 100 * rate, side))
    check(rate >= min_hit, "%s: at least %.0f%% of IRD lookups hit" % (name, 100 * min_hit))
    check(side > 0, name + ": side traces entered (guards left traces)")


def evkaa(spamctl, image, work):
    if not os.path.isfile(image):
        check(False, "EVKAA image present (%s, see ../shared/diag/README.md)" % image)
        return
    con = os.path.join(work, "evkaa.txt")
    r, reason, m, text = run([spamctl, "run", "--raw", image, "--load-at", "0",
                              "--start", "0x200", "--console-in", "\\r",
                              "--max-cycles", "40000000"], con)
    check(r.returncode == 0, "EVKAA: spamctl exit 0", r.stderr[-500:])
    check(reason == "cycle limit", "EVKAA: runs to the cycle limit in lock step "
          "(stop: %s)" % reason)
    check("done!" in text and "ERROR" not in text, "EVKAA: pass 1 done, no error",
          text[-400:])
    cache_worked("EVKAA", m, 0.95)


def guest_image(kernel, work):
    """The bundled guest set to shut down at tick 300, without the
    simulated network: its image's path in work."""
    img = bytearray(open(kernel, "rb").read())
    struct.pack_into("<I", img, 0x14, 300)  # ticks to shutdown
    struct.pack_into("<I", img, 0x1C, 0)    # no simulated network
    binf = os.path.join(work, "kernel.bin")
    with open(binf, "wb") as f:
        f.write(img)
    return binf


def guest(spamctl, kernel, work):
    binf = guest_image(kernel, work)
    con = os.path.join(work, "guest.txt")
    r, reason, m, text = run([spamctl, "run", "--raw", binf, "--load-at", "0",
                              "--start", "0", "--memory", "8", "--console-in", "",
                              "--max-cycles", str(300 * 125000 * 3), "--tcache-mb", "1",
                              "--tcache-after", "1"],
                             con)
    check(r.returncode == 0, "guest: spamctl exit 0", r.stderr[-500:])
    fl = re.search(r"(\d+) flushes", r.stderr)
    check(fl is not None and int(fl.group(1)) > 0,
          "guest: its 1 MB arena was emptied on the way (%s)" % (fl and fl.group(0)))
    check(reason == "HALT instruction", "guest: boots to its HALT in lock step "
          "(stop: %s)" % reason)
    check("shutdown at tick 300" in text and "1229 primes below 10000" in text,
          "guest: its programs ran and it shut down", text[-600:])
    cache_worked("guest", m, 0.95)


def loop_cmd(spamctl, vasm, source, work, name):
    """Assembles a loop program at 0x1000; the command that runs it to its
    HALT (SP 0x8000), recording what runs a second time (--tcache-after 1),
    or None if it does not assemble."""
    binf = os.path.join(work, name + ".bin")
    a = subprocess.run([vasm, "--raw", "--base", "0x1000", "-o", binf, source],
                       capture_output=True, text=True)
    check(a.returncode == 0, name + ": assembles", a.stderr[-500:])
    if a.returncode:
        return None
    return [spamctl, "run", "--raw", binf, "--load-at", "0x1000", "--set", "r14=8000",
            "--max-cycles", "unlimited", "--tcache-after", "1"]


def selfmod(spamctl, vasm, source, work):
    cmd = loop_cmd(spamctl, vasm, source, work, "selfmod")
    if cmd is None:
        return
    con = os.path.join(work, "selfmod.txt")
    r, reason, m, _ = run(cmd + ["--console-in", ""], con)
    check(r.returncode == 0 and reason == "HALT instruction",
          "selfmod: runs to its HALT in lock step (stop: %s)" % reason, r.stderr[-500:])
    plain = subprocess.run(cmd + ["--no-tcache", "--console-in", "", "--dump-state", "-"],
                           capture_output=True, text=True, timeout=120)
    regs = re.compile(r'"r": \[[^]]*\]')
    got, want = regs.search(r.stdout), regs.search(plain.stdout)
    check(got is not None and want is not None and got.group(0) == want.group(0),
          "selfmod: the registers at HALT are the plain interpreter's",
          "%s\n%s" % (got and got.group(0), want and want.group(0)))
    check(m is not None and int(m.group(2)) > 0 and int(m.group(4)) > 0,
          "selfmod: traces were entered and left at changed bytes (hits and exits)")


def loop_both_ways(spamctl, vasm, source, work, name):
    """A loop program (loop_cmd) run to its HALT in lock step, where most
    IRD lookups must hit, and then free with the trace cache and with the
    plain interpreter, whose whole states at the end must be the same (the
    lock step returns from the executor after every instruction, so IRD's
    quick way runs only in a free run).  Returns the registers R0-R15 of
    that state, or None (a failed check)."""
    cmd = loop_cmd(spamctl, vasm, source, work, name)
    if cmd is None:
        return None
    cmd += ["--console-in", ""]
    r, reason, m, _ = run(cmd, os.path.join(work, name + ".txt"))
    check(r.returncode == 0 and reason == "HALT instruction",
          "%s: runs to its HALT in lock step (stop: %s)" % (name, reason), r.stderr[-500:])
    check(m is not None and int(m.group(2)) > int(m.group(1)) * 9 // 10,
          "%s: most lookups hit (%s)" % (name, m and m.group(0)))
    dumps = {}
    for mode, extra in (("cache", []), ("plain", ["--no-tcache"])):
        p = subprocess.run(cmd + extra + ["--dump-state", "-"], capture_output=True,
                           text=True, timeout=120)
        dumps[mode] = p.stdout
    check(dumps["cache"] != "" and dumps["cache"] == dumps["plain"],
          name + ": a free run with the trace cache ends in the plain interpreter's state",
          "%s\n%s" % (dumps["cache"][:600], dumps["plain"][:600]))
    regs = re.search(r'"r": \[([^]]*)\]', dumps["cache"])
    check(regs is not None, name + ": registers in the state dump")
    if regs is None:
        return None
    return [int(x.strip().strip('"'), 16) for x in regs.group(1).split(",")]


def tbit_ipl(spamctl, vasm, source, work):
    """PSL<T> and the IPL moved inside traces (IRD's quick way, where `ev`
    stands for the trace bits and the request logic)."""
    rv = loop_both_ways(spamctl, vasm, source, work, "tbit_ipl")
    if rv:
        check(rv[8] == 400 and rv[7] == 400,
              "tbit_ipl: 400 trace faults and 400 software interrupts, as SIMH vax780 "
              "counts them (r8 %d, r7 %d)" % (rv[8], rv[7]))


def callret(spamctl, vasm, source, work):
    """The push and pop runs against every place in a cache line (SEQ runs,
    vm_tcache.h)."""
    rv = loop_both_ways(spamctl, vasm, source, work, "callret")
    if rv:
        check(rv[:2] == [6048, 518304],
              "callret: R0 and R1 at HALT are the sums the program computes (%s)" % rv[:2])


def callptr(spamctl, vasm, source, work):
    """One CALLS site calling procedures with other entry masks, PUSHR and
    POPR with masks from a register: the mask scan's dispatching
    micro-call meets other nibbles than its trace recorded."""
    rv = loop_both_ways(spamctl, vasm, source, work, "callptr")
    if rv:
        check(rv[:2] == [1000, 400],
              "callptr: R0 and R1 at HALT are the sums the program computes (%s)" % rv[:2])


def fold(spamctl, vasm, source, work):
    """Tests of short literal operands that the builder decides (KR)."""
    rv = loop_both_ways(spamctl, vasm, source, work, "fold")
    if rv:
        check([rv[0], rv[1], rv[4]] == [1164, 160800, 100],
              "fold: R0, R1 and R4 at HALT are what the program computes (%s)"
              % [rv[0], rv[1], rv[4]])


def free_stats(spamctl, vasm, source, work, name):
    """A loop program (loop_cmd) run free to its HALT: what --tcache-stats
    printed, or None (it does not assemble)."""
    cmd = loop_cmd(spamctl, vasm, source, work, name)
    if cmd is None:
        return None
    r = subprocess.run(cmd + ["--console-in", "", "--tcache-stats"], capture_output=True,
                       text=True, timeout=120)
    return r.stderr


def tbmiss(spamctl, vasm, source, work):
    """TB misses in the middle of traces, and a fault among them."""
    rv = loop_both_ways(spamctl, vasm, source, work, "tbmiss")
    if rv:
        check(rv[6:9] == [235900, 12, 20100],
              "tbmiss: R6, R7 and R8 at HALT are what the program computes (%s)" % rv[6:9])
    stats = free_stats(spamctl, vasm, source, work, "tbmiss")
    if stats is None:
        return
    sp = re.search(r"microwords: ([0-9.]+)% specialised", stats)
    check(sp is not None and float(sp.group(1)) >= 80.0,
          "tbmiss: at least 80%% of the microwords run in traces, TB misses and all (%s)"
          % (sp and sp.group(0)))
    cp = re.search(r"compiled: (\d+) segments.*?(\d+) loops back into it", stats)
    if cp and int(cp.group(1)) > 0:  # (a build with the trace compiler)
        check(int(cp.group(2)) > 0, "tbmiss: the string loops the handlers took over "
              "after a TB miss went back into their code (%s)" % cp.group(0))


def cross(spamctl, vasm, source, work):
    """References across cache lines, in the compiled code."""
    loop_both_ways(spamctl, vasm, source, work, "cross")
    stats = free_stats(spamctl, vasm, source, work, "cross")
    if stats is None:
        return
    g = re.search(r"([0-9.]+)% generic in traces", stats)
    check(g is not None and float(g.group(1)) <= 12.0,
          "cross: at most 12%% of the microwords generic: the compiled code makes "
          "references across two lines itself (%s)" % (g and g.group(0)))


def misses(spamctl, vasm, source, work):
    """Cache misses, a branch's other way to IRD, an IRD at a page's end."""
    rv = loop_both_ways(spamctl, vasm, source, work, "misses")
    if rv:
        check(rv[6:9] == [0x18F38000, 100, 200],
              "misses: R6, R7 and R8 at HALT are what the program computes (%s)"
              % [hex(x) for x in rv[6:9]])
    stats = free_stats(spamctl, vasm, source, work, "misses")
    if stats is None:
        return
    parts = re.search(r"microwords: ([0-9.]+)% specialised, ([0-9.]+)% generic in traces, "
                      r"([0-9.]+)% interpreted", stats)
    check(parts is not None and all(0.0 <= float(x) <= 100.0 for x in parts.groups()),
          "misses: the microwords' shares are shares (%s)" % (parts and parts.group(0)))
    cp = re.search(r"compiled: (\d+) segments", stats)
    m = STATS.search(stats)
    if cp and int(cp.group(1)) > 0 and parts:  # (a build with the trace compiler)
        check(float(parts.group(2)) <= 1.0,
              "misses: at most 1%% of the microwords generic: the compiled code makes "
              "the misses itself (%s)" % parts.group(0))
        check(m is not None and int(m.group(3)) > 0,
              "misses: the branch's other way entered its side segment (%s)"
              % (m and m.group(0)))


def main():
    spamctl, image, kernel, vasm, source, tbit, callret_s, callptr_s, fold_s, tbmiss_s, \
        cross_s, misses_s = sys.argv[1:13]
    with tempfile.TemporaryDirectory() as work:
        evkaa(spamctl, image, work)
        guest(spamctl, kernel, work)
        selfmod(spamctl, vasm, source, work)
        tbit_ipl(spamctl, vasm, tbit, work)
        callret(spamctl, vasm, callret_s, work)
        callptr(spamctl, vasm, callptr_s, work)
        fold(spamctl, vasm, fold_s, work)
        tbmiss(spamctl, vasm, tbmiss_s, work)
        cross(spamctl, vasm, cross_s, work)
        misses(spamctl, vasm, misses_s, work)
    return report()


if __name__ == "__main__":
    sys.exit(main())
