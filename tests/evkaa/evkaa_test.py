#!/usr/bin/env python3
"""EVKAA end to end: DEC's hardcore instruction test on our microcode.

usage: evkaa_test.py SPAMCTL EVKAA.EXE

Loads the raw image at physical 0, starts at 0x200 in kernel mode with
memory management off, answers "Hit any key to continue" with a carriage
return on the console, and runs until the cycle budget; the console must
show "done!" at least twice (the first pass and pass 0xA0) and no
"ERROR".  A missing EVKAA file is a failure, not a skip.  On failure the
message carries the console tail (with the failing test number).
"""
import os
import subprocess
import sys
import tempfile

CYCLES = 200_000_000   # pass 1 ends near 1.6M microcycles, pass 0xA0 near 126M


def main():
    spamctl, evkaa = sys.argv[1:3]
    if not os.path.isfile(evkaa):
        print("FAIL: %s is missing (see ../shared/diag/README.md)" % evkaa)
        return 1
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "console.txt")
        r = subprocess.run(
            [spamctl, "run", "--raw", evkaa, "--load-at", "0", "--start", "0x200",
             "--console-in", "\\r", "--console-out", out,
             "--max-cycles", str(CYCLES)],
            capture_output=True, text=True, timeout=600)
        text = open(out, "rb").read().replace(b"\0", b"").decode("latin-1")
    summary = r.stdout.strip()
    tail = "\n".join(text.replace("\r", "").splitlines()[-8:])
    print(summary)
    if r.returncode != 0:
        print("FAIL: spamctl exit %d: %s" % (r.returncode, r.stderr.strip()))
        return 1
    if "ERROR" in text:
        print("FAIL: EVKAA reported an error:\n" + tail)
        return 1
    n = text.count("done!")
    if n < 2:
        print("FAIL: %d 'done!' lines (want 2); console tail:\n%s" % (n, tail))
        return 1
    print("ok: EVKAA printed 'done!' %d times; console tail:\n%s" % (n, tail))
    return 0


if __name__ == "__main__":
    sys.exit(main())
