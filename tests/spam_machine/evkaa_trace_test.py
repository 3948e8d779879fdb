#!/usr/bin/env python3
"""EVKAA traced (issue 5): per-vector counts from the trace equal the
machine's own per-vector counters for the same run.

usage: evkaa_trace_test.py SPAMCTL EVKAA.EXE

Runs DEC's hardcore instruction test for one pass (pass 1 ends near 1.6M
microcycles; the budget is 2M) with tracing from power-on and the host
drain (`-o`), then compares `spamctl stat --json` of the trace (interrupt
and exception vectors, CHMx counted at 0x40 + 4 * mode) with the JSON
"events" field of `spamctl run --dump-state` (the machine's counters by SCB
vector).  Also: the pass finished ("done!", no "ERROR"), nothing dropped,
the trace is complete.  A missing EVKAA file is a failure, not a skip.
"""
import json
import os
import subprocess
import sys
import tempfile

CYCLES = 2_000_000


def trace_vectors(stat):
    got = {}
    for v in stat["vectors"]:
        if v["class"] == "chm":
            key = 0x40 + 4 * v["chm_mode"]
        else:
            key = v["vector"]
        got[key] = got.get(key, 0) + v["count"]
    return got


def main():
    spamctl, evkaa = sys.argv[1:3]
    if not os.path.isfile(evkaa):
        print("FAIL: %s is missing (see ../shared/diag/README.md)" % evkaa)
        return 1
    with tempfile.TemporaryDirectory() as work:
        con = os.path.join(work, "console.txt")
        trace = os.path.join(work, "evkaa.spam")
        st = os.path.join(work, "state.json")
        r = subprocess.run(
            [spamctl, "run", "--raw", evkaa, "--load-at", "0", "--start", "0x200",
             "--console-in", "\\r", "--console-out", con, "--max-cycles", str(CYCLES),
             "-o", trace, "--dump-state", st],
            capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            print("FAIL: spamctl run exit %d: %s" % (r.returncode, r.stderr.strip()))
            return 1
        text = open(con, "rb").read().replace(b"\0", b"").decode("latin-1")
        state = json.load(open(st))
        s = subprocess.run([spamctl, "stat", "--json", trace],
                           capture_output=True, text=True, timeout=120)
        if s.returncode != 0:
            print("FAIL: spamctl stat exit %d: %s" % (s.returncode, s.stderr.strip()))
            return 1
        stat = json.loads(s.stdout)
    fails = 0
    if "ERROR" in text or "done!" not in text:
        print("FAIL: EVKAA pass 1 did not finish cleanly:\n" + text[-400:])
        fails += 1
    if not stat["complete"] or stat["dropped"]:
        print("FAIL: trace complete=%s dropped=%d" % (stat["complete"], stat["dropped"]))
        fails += 1
    machine = {int(k, 16): v for k, v in state["events"].items()}
    traced = trace_vectors(stat)
    print("%d microcycles, %d records; vector: machine trace" %
          (state["microcycles"], stat["records"]))
    for vec in sorted(set(machine) | set(traced)):
        m, t = machine.get(vec, 0), traced.get(vec, 0)
        print("  0x%03x: %6d %6d%s" % (vec, m, t, "" if m == t else "  MISMATCH"))
        if m != t:
            fails += 1
    if not machine:
        print("FAIL: the machine counted no events")
        fails += 1
    print("FAIL" if fails else "ok: per-vector counts from the trace equal the machine's")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
