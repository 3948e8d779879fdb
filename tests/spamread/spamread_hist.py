#!/usr/bin/env python3
"""Issue 6's acceptance: the in-guest spamread histogram equals the host's
offline histogram of the same run, bin for bin.

Boots the bundled guest on our 8600 with SPAM tracing and the host drain in
tap mode (the host copies every record without consuming it, so spamread,
reading the same buffer with READ_BUFFER, sees every record too), then
compares spamread's console lines (vax/guest/README.md, "spamread's
output")

    spamread-bins LO:COUNT ...   the non-empty bins, 100 us wide (5000: >= 5000)
    spamread-end R N CHECKSUM LOST

with `spamctl hist --event int:0xB0 --records R --linear 100:50` on the
trace file: spamread stops reading half a second before the shutdown, so
the host takes the same R records (the checksum, the sum of all their
longwords mod 2^32, shows they are the same records).

usage: spamread_hist.py SPAMCTL KERNEL.BIN
"""
import os
import struct
import subprocess
import sys
import tempfile

# the parsers of spamread's lines and of `spamctl hist` (shared with the
# 4.3BSD demo's test: the same output format)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spamread_out as spamread_run  # noqa: E402
# (net rate, seed): the demo's defaults, and a heavier load with more nesting
RUNS = [(200, 1), (500, 2)]


def run_guest(spamctl, kernel, rate, seed, d):
    trace = os.path.join(d, f"r{rate}s{seed}.spam")
    con = os.path.join(d, f"r{rate}s{seed}.con")
    p = subprocess.run([spamctl, "run", "--raw", kernel, "--load-at", "0", "--start", "0",
                        "--memory", "8", "--console-in", "", "--console-out", con,
                        "--net-rate", str(rate), "--seed", str(seed), "--drain-tap",
                        "-o", trace], capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError(f"spamctl run exit {p.returncode}: {p.stderr}")
    with open(con, encoding="latin-1") as f:
        return trace, f.read()


def checksum(trace, records):
    with open(trace, "rb") as f:
        hdr = f.read(128)
        hsize = struct.unpack_from("<H", hdr, 10)[0]
        f.seek(hsize)
        data = f.read(8 * records)
    if len(data) < 8 * records:
        return None
    return sum(struct.unpack(f"<{2 * records}I", data)) & 0xFFFFFFFF


def main():
    spamctl, kernel = sys.argv[1], sys.argv[2]
    fail = 0
    with tempfile.TemporaryDirectory() as d:
        for rate, seed in RUNS:
            tag = f"net {rate}/s seed {seed}"
            trace, con = run_guest(spamctl, kernel, rate, seed, d)
            try:
                gb, end, _ = spamread_run.guest_result(con)
            except spamread_run.RunError as e:
                print(f"FAIL {tag}: {e}; console:\n{con}")
                fail = 1
                continue
            recs, nsamp, ck, lost = end
            hb, hcount = spamread_run.host_hist(spamctl, trace, 0, recs)
            hck = checksum(trace, recs)
            problems = []
            if hck != ck:
                problems.append(f"spamread's {recs} records are not the trace's first "
                                f"{recs} (checksum {ck:08x}, host {hck if hck is None else f'{hck:08x}'})")
            if lost:
                problems.append(f"spamread's stack table overflowed {lost} times")
            if nsamp == 0:
                problems.append("no IPL 12 service times at all")
            if sum(gb.values()) != nsamp:
                problems.append(f"spamread's bins hold {sum(gb.values())}, its count is {nsamp}")
            if hcount != nsamp:
                problems.append(f"count: spamread {nsamp}, host {hcount}")
            for lo in sorted(set(gb) | set(hb)):
                if gb.get(lo, 0) != hb.get(lo, 0):
                    problems.append(f"bin {lo}: spamread {gb.get(lo, 0)}, host {hb.get(lo, 0)}")
            if problems:
                fail = 1
                for p in problems:
                    print(f"FAIL {tag}: {p}")
            else:
                print(f"{tag}: {recs} records, {nsamp} IPL 12 service times, "
                      f"{len(gb)} non-empty bins: equal bin for bin")
    if not fail:
        print("spamread: the in-guest histogram equals the host's")
    return fail


if __name__ == "__main__":
    sys.exit(main())
