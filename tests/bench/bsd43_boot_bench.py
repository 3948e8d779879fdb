#!/usr/bin/env python3
"""4.3BSD boot benchmark: our 8600 against SIMH's 8600 on the same disk,
in one run.

usage: bsd43_boot_bench.py SPAMCTL ORACLE DISK [--dist DIR] [--work DIR]

DISK is an installed 4.3BSD root (vax/guest/bsd43/install.py; the test
bsd43-multiuser leaves one in BUILD/tests/bsd43/bsd43-work/rp06.dsk); when
it is missing or stale, install.py --reuse makes it first (from --dist,
default ../shared/bsd43).
Four boots, each from a fresh copy of DISK:

  single   power-on (the console's boot, R11 = RB_SINGLE) to the
           single-user shell's first prompt
  multi    power-on (R11 = 0) to `login:` (fsck -p, /etc/rc, the daemons)

on our machine (spamctl run with a console script that halts there) and on
SIMH's vax8600 (pexpect; at the same text the simulator is stopped and
`show time` read: SIMH's VAX counts instructions).  For each: wall time,
VAX instructions, instructions per second, and our speed as a fraction of
SIMH's.  Emulated time is ours (80 ns microcycles); SIMH runs as fast as it
can (no idle throttling), so both count the kernel's idle loop.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GUEST = os.path.join(HERE, "..", "..", "vax", "guest", "bsd43")
sys.path.insert(0, GUEST)
import install  # noqa: E402
import ufs  # noqa: E402

BOOTS = (  # name, R11, the texts (in order) whose last ends the measurement
    ("single", 2, ("erase ^?, kill ^U, intr ^C", "# ")),
    ("multi", 0, ("login: ",)),
)


def ours(spamctl, disk, flags, until, work, name):
    script = os.path.join(work, f"{name}.script")
    with open(script, "w") as f:
        for text in until:
            f.write(f"expect {text}\n")
        f.write("halt\n")
    state = os.path.join(work, f"{name}.state.json")
    cmd = [spamctl, "run", "--boot", "rp0", "--boot-flags", str(flags),
           "--attach", f"rp0={disk}", "--memory", str(install.MEMORY_MB),
           "--todr", str(install.BOOT_TODR), "--max-cycles", "unlimited",
           "--expect-timeout", "900", "--console-script", script,
           "--console-out", os.path.join(work, f"{name}.ours.log"), "--dump-state", state]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        raise RuntimeError(f"ours {name}: {(p.stderr or p.stdout).strip()}")
    st = json.load(open(state))
    return wall, st["instructions"], st["microcycles"] * 80e-9


def simh(oracle, disk, flags, until, work, name):
    import pexpect
    boot = ufs.Ufs.open(disk, "a").read("/boot")
    if boot[:4] in (b"\x07\x01\x00\x00", b"\x08\x01\x00\x00"):
        boot = boot[32:]
    with open(os.path.join(work, "boot.raw"), "wb") as f:
        f.write(boot)
    ini = os.path.join(work, f"{name}.ini")
    with open(ini, "w") as f:
        f.write("set cpu 8m\nset tto 7b\nset rl disable\nset rp0 rp06\n"
                f"attach rp0 {disk}\nload -o boot.raw 0\ndep r10 0\ndep r11 {flags}\n"
                "run 2\n")
    t0 = time.monotonic()
    child = pexpect.spawn(oracle, [ini], cwd=work, timeout=900, encoding="latin-1")
    child.logfile_read = open(os.path.join(work, f"{name}.simh.log"), "w")
    try:
        for text in until:
            child.expect_exact(text)
        wall = time.monotonic() - t0
        child.sendcontrol("e")                       # SIMH's stop character
        child.expect_exact("sim>")
        child.sendline("show time")
        child.expect(r"Time:\s+(\d+)")
        n = int(child.match.group(1))
        child.sendline("quit")
    finally:
        child.terminate(force=True)
    return wall, n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spamctl")
    ap.add_argument("oracle")
    ap.add_argument("disk")
    ap.add_argument("--work", default=None)
    ap.add_argument("--dist", default=os.path.join(HERE, "..", "..", "..", "shared", "bsd43"))
    a = ap.parse_args()
    p = subprocess.run([sys.executable, os.path.join(GUEST, "install.py"), "--quiet",
                        "--reuse", "--dist", a.dist, "--spamctl", a.spamctl, a.disk])
    if p.returncode != 0:
        sys.exit("bsd43_boot_bench.py: no installed disk")
    work = a.work or tempfile.mkdtemp(prefix="bsd43-bench-")
    os.makedirs(work, exist_ok=True)
    print(f"4.3BSD boot on the same disk ({a.disk}); work files in {work}")
    print(f"{'boot':8} {'machine':6} {'wall s':>8} {'instructions':>14} "
          f"{'M instr/s':>10} {'emulated s':>10}")
    for name, flags, until in BOOTS:
        d1 = os.path.join(work, f"{name}.ours.dsk")
        d2 = os.path.join(work, f"{name}.simh.dsk")
        shutil.copyfile(a.disk, d1)
        shutil.copyfile(a.disk, d2)
        w1, n1, emu = ours(a.spamctl, d1, flags, until, work, name)
        print(f"{name:8} {'ours':6} {w1:8.1f} {n1:14,} {n1 / w1 / 1e6:10.2f} {emu:10.1f}")
        w2, n2 = simh(a.oracle, d2, flags, until, work, name)
        print(f"{name:8} {'SIMH':6} {w2:8.1f} {n2:14,} {n2 / w2 / 1e6:10.2f}")
        print(f"{name:8} ours/SIMH instructions per second: {(n1 / w1) / (n2 / w2):.3f}")
        for d in (d1, d2):
            os.remove(d)


if __name__ == "__main__":
    main()
