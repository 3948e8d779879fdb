#!/usr/bin/env python3
"""Boot the bundled guest kernel on OUR machine (the microcoded 8600 with
memory management in microcode) and check its console with the same
expectations as the SIMH boot (tests/guest/boot_simh.py, imported).

usage: boot_ours.py SPAMCTL KERNEL.BIN

One boot: 8 MB, 300 ticks (the configuration block patched in a copy of
the image, as a loader would).  Differences from SIMH, excused here:
  * our machine has the SPAM microcode, so spamread reads the buffer
    instead of printing "no SPAM microcode";
  * the run stops at HALT, reported by spamctl ("stopped: HALT
    instruction") instead of SIMH's "HALT instruction" message.
The TB hit/miss counts are printed from the JSON state."""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "guest"))
import boot_simh  # noqa: E402
from boot_simh import check, table, FAILS  # noqa: E402


def boot(spamctl, kernel, mb, ticks, netsim=0):
    img = bytearray(open(kernel, "rb").read())
    struct.pack_into("<I", img, 0x14, ticks)
    struct.pack_into("<I", img, 0x1C, netsim)
    with tempfile.TemporaryDirectory() as d:
        bin_ = os.path.join(d, "kernel.bin")
        open(bin_, "wb").write(img)
        con = os.path.join(d, "console.txt")
        st = os.path.join(d, "state.json")
        r = subprocess.run([spamctl, "run", "--raw", bin_, "--load-at", "0",
                            "--start", "0", "--memory", str(mb),
                            "--console-in", "", "--console-out", con,
                            "--max-cycles", str(ticks * 125000 * 3),
                            "--dump-state", st],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=120)
        out = open(con, encoding="latin-1").read().replace("\r", "")
        state = json.load(open(st))
        return out, state, r.stdout.decode("latin-1")


def main():
    spamctl, kernel = sys.argv[1], os.path.abspath(sys.argv[2])
    out, state, rep = boot(spamctl, kernel, 8, 300)
    print(out)
    print(rep)
    print("stop: %s; microcycles %d; instructions %d; TB %s" % (
        state["reason"], state["microcycles"], state["instructions"],
        state.get("tb")))
    check(state["halted"] and state["reason"] == "HALT instruction",
          "stops at HALT", out)
    check("memory: 8192 KB" in out, "memory sizing (8 MB)", out)
    check("no network interface" in out, "network probe", out)
    check("init: started" in out, "init runs", out)
    spawned = re.findall(r"init: spawned pid (\d+) \(program (\d+), uid (\d+)\)", out)
    check(len(spawned) == 8 and [int(p) for p, _, _ in spawned] == list(range(2, 10)),
          "init spawns pids 2..9", out)
    check("syscall: write(7) -> carry set, errno 9" in out, "EBADF via carry", out)
    check("syscall: call 999 -> carry set, errno 22" in out, "EINVAL via carry", out)
    check("routed: no network interface, exiting" in out, "routed without network", out)
    check("spamread: no SPAM microcode" in out or "spamread: reading" in out,
          "spamread runs", out)
    check("pid 7 (crash) killed: reserved instruction at pc" in out, "kill: privileged", out)
    check("pid 8 (crash) killed: access violation at pc" in out, "kill: unmapped", out)
    check("pid 9 (crash) killed: arithmetic trap at pc" in out, "kill: divide by zero", out)
    for inst, pid, uid in ((0, 2, 100), (1, 3, 101)):
        check(re.search(r"cpu #%d pid %d uid %d: \d+ rounds, 1229 primes below 10000"
                        % (inst, pid, uid), out), "cpu #%d reports" % inst, out)
    check(re.search(r"syscall pid 4 uid 102: \d+ calls by tick \d+", out),
          "syscall program reports (getpid/getuid/time)", out)
    check("shutdown at tick 300" in out, "shutdown at the configured tick", out)
    rows = table(out)
    want = {1: (0, 0, "init"), 2: (1, 100, "cpu"), 3: (1, 101, "cpu"),
            4: (1, 102, "syscall"), 5: (1, 1, "routed"), 6: (1, 0, "spamread"),
            7: (1, 103, "crash"), 8: (1, 103, "crash"), 9: (1, 103, "crash")}
    for pid, (ppid, uid, comm) in want.items():
        r = rows.get(pid)
        check(r is not None and r[:3] == (ppid, uid, comm),
              "report line for pid %d (%s)" % (pid, comm), out)
    if len(rows) == 9:
        check(rows[2][4] > 50 and rows[3][4] > 50, "cpu programs get the CPU", out)
        check(rows[2][6] > 5 and rows[3][6] > 5, "cpu programs are preempted", out)
        check(rows[4][7] > 1000, "syscall program makes many calls", out)
        check(rows[5][8] == 1, "routed exit status 1", out)
        check((rows[7][8], rows[8][8], rows[9][8]) == (0x110, 0x120, 0x134),
              "kill statuses carry the vector", out)
    m = re.search(r"context switches: (\d+)  system calls: (\d+)", out)
    check(m and int(m.group(1)) > 50 and int(m.group(2)) > 1000,
          "context switch and system call counts", out)
    check(re.search(r"console interrupts: [1-9]", out), "interrupt-driven console", out)
    check("halted." in out, "clean halt", out)
    tb = state.get("tb")
    check(tb is not None and tb["hits"] > 0 and tb["misses"] > 0,
          "TB counters in the run state", out)
    if FAILS:
        print("%d check(s) failed" % len(FAILS))
        return 1
    print("all guest checks passed on our machine")
    return 0


if __name__ == "__main__":
    sys.exit(main())
