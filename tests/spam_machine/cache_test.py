#!/usr/bin/env python3
"""Cache-set address translation (microcode/spam.mic TRACE.XLATE): the
extra cache misses tracing causes in a workload whose working set fits the
cache, and the number of distinct cache sets the trace records went to,
with translation on and off.  Prints the numbers; fails unless translation
keeps every run of 1024 consecutive records in one set and causes fewer
extra misses than no translation.

usage: cache_test.py VASM SPAMCTL PROGDIR"""
import json
import os
import subprocess
import sys
import tempfile


def xlate(a):
    return (a & 0xFFF0003F) | ((a >> 13 & 0x7F) << 6) | ((a >> 6 & 0x7F) << 13)


def main():
    vasm, spamctl, progdir = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as td:
        binf = os.path.join(td, "w.bin")
        subprocess.run([vasm, "--raw", "--base", "0x1000", "-o", binf,
                        os.path.join(progdir, "cache_work.s")], check=True)

        def run(r1, *extra):
            out = os.path.join(td, "t.spam")
            r = subprocess.run([spamctl, "run", "--raw", binf, "--load-at", "0x1000",
                                "-o", out, "--set", "r1=%d" % r1, "--dump-state", "-"]
                               + list(extra), capture_output=True, text=True, check=True)
            d = json.loads(r.stdout)
            assert d["reason"] == "HALT instruction", d["reason"]
            n = (os.path.getsize(out) - 128) // 8
            return d["cache"]["misses"], d["microcycles"], n

        base, cyc0, _ = run(0)
        on, cyc1, n = run(1)
        off, cyc2, n2 = run(1, "--no-cache-xlate")
    start = 16 << 20    # the console's buffer: the hidden megabyte of 16 MB
    sets_on = {(xlate(start + 8 * i) >> 6) & 127 for i in range(n)}
    sets_off = {((start + 8 * i) >> 6) & 127 for i in range(n)}
    runs_ok = all(len({(xlate(start + 8 * i) >> 6) & 127 for i in range(k, min(k + 1024, n))}) == 1
                  for k in range(0, n, 1024))
    print("records %d; workload misses: untraced %d, traced+xlate %d (+%d), "
          "traced no-xlate %d (+%d)" % (n, base, on, on - base, off, off - base))
    print("distinct cache sets written: xlate %d (one per 1024 records), no-xlate %d"
          % (len(sets_on), len(sets_off)))
    print("microcycles: untraced %d, xlate %d, no-xlate %d" % (cyc0, cyc1, cyc2))
    ok = runs_ok and n == n2 and on - base < off - base
    print("cache_test: %s" % ("ok" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
