#!/usr/bin/env python3
"""Issue 32 (and 18): `spamctl demo` runs the paper's experiment on the
original 4.3BSD by default, installing it on first use into the per-user
cache.

usage: bsd43_demo.py SPAMCTL BSD43_DIR WORKDIR

With XDG_CACHE_HOME in WORKDIR (the tests' own cache):
 - `spamctl bsd43 --dist BSD43_DIR` installs 4.3BSD into
   $XDG_CACHE_HOME/spamctl/bsd43/KEY/rp06.dsk (or finds it there) and
   prints the path; a second call finds it there, saying nothing else;
 - `spamctl demo --dist BSD43_DIR` (no --os: 4.3BSD is the default with a
   distribution) runs the experiment in C, no Python (a python3 first on
   PATH that fails if run: the second `spamctl bsd43` and the demo run
   with it): exit 0; its report
   holds every section with numbers (percentiles, bars, the trace's bins
   beside the reader's and their equality, classes, the reader, routed,
   XNSrouted and the users' programs among the programs switched to, the
   time by interrupt vector with de0 and dz0 apart, the network's cost per
   frame and XNSrouted's per XNS packet, a reader's CPU share in (0, 50)%,
   SPAM's microcycles, the benchmark job's three times);
 - independently of the demo: the reader's histogram, parsed from the
   traced run's console by this test, equals `spamctl hist --skip M
   --records R --linear 100:50` on the -o trace (M, R from --json); the
   JSON's "hist" merged by `spamctl hist --merge` gives the same bins; the
   capture read by tcpdump holds the VAX's echo replies; the console logs
   are 7-bit; the Figure 4 SVG has 51 bars; the cached disk is not
   modified;
 - bad options are usage errors (exit 2), a missing --disk exit 1.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "spamread"))
import spamread_out  # noqa: E402


def sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for blk in iter(lambda: f.read(1 << 20), b""):
            h.update(blk)
    return h.hexdigest()


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    spamctl, dist, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, XDG_CACHE_HOME=os.path.abspath(os.path.join(work, "cache")))
    env.pop("SPAMCTL_BSD43_DIST", None)
    fails = []
    t0 = time.monotonic()
    p = subprocess.run([spamctl, "bsd43", "--dist", dist], capture_output=True, text=True, env=env)
    disk = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    print(f"spamctl bsd43: {time.monotonic() - t0:.1f} s wall: {disk}")
    if p.returncode != 0 or not disk.startswith(env["XDG_CACHE_HOME"] + "/spamctl/bsd43/") \
            or not os.path.isfile(disk):
        sys.exit(f"FAIL spamctl bsd43: exit {p.returncode}: {p.stdout}{p.stderr}")
    # from now on a python3 that fails: the cached path must not need it
    fake = os.path.join(work, "no-python")
    os.makedirs(fake, exist_ok=True)
    with open(os.path.join(fake, "python3"), "w") as f:
        f.write("#!/bin/sh\necho 'python3 was run' >&2\nexit 99\n")
    os.chmod(os.path.join(fake, "python3"), 0o755)
    env["PATH"] = fake + os.pathsep + env.get("PATH", "")
    t0 = time.monotonic()
    q = subprocess.run([spamctl, "bsd43", "--dist", dist], capture_output=True, text=True, env=env)
    again = time.monotonic() - t0
    print(f"spamctl bsd43 again: {again:.1f} s wall")
    if q.returncode != 0 or q.stdout.strip() != disk or q.stderr.strip():
        fails.append(f"second spamctl bsd43 (cached, no Python): exit {q.returncode}, "
                     f"{q.stdout!r} {q.stderr!r}")
    before = sha(disk)

    runs = os.path.join(work, "demo-runs")
    shutil.rmtree(runs, ignore_errors=True)
    trace, js, svg = (os.path.join(work, f) for f in ("demo.spam", "demo.json", "fig4.svg"))
    t0 = time.monotonic()
    p = subprocess.run([spamctl, "demo", "--dist", dist, "-o", trace, "--json", js, "--svg", svg,
                        "--work", runs], capture_output=True, text=True, env=env)
    wall = time.monotonic() - t0
    out = p.stdout
    print(out)
    print(f"demo: {wall:.1f} s wall")
    if p.returncode != 0:
        sys.exit(f"FAIL demo exit {p.returncode}: {p.stderr.strip()}")
    if p.stderr.strip():
        fails.append(f"a successful demo says something on stderr: {p.stderr.strip()[:300]!r}")
    wants = [r"^  inclusive n=(\d+) ",
             r"^ +\d+- +\d+ us +\d+ #+$",
             r"^\s+0\.\d-0\.\d ms\s+\d+ \|\s+\d+$",
             r"^  the reader's histogram equals the trace's$",
             r"^  interrupt\s+\d+$", r"^  chm\s+\d+$", r"^  ldpctx\s+\d+$",
             r"^\s+\d+\s+/tmp/spamread$", r"^\s+\d+\s+/lib/ccom$",
             r"^\s+\d+\s+/etc/XNSrouted$", r"^\s+\d+\s+/etc/routed$", r"^\s+\d+\s+/bin/ls$",
             r"^  idle\s+\d+\s+\d+\.\d\d%$",
             r"^  interrupt 0x14C \(Xua0int: uba0 BR5: de0 .*\s+\d+\s+\d+\.\d\d%\s+\d+$",
             r"^  interrupt 0x10C \(Xua0int: uba0 BR4: dz0 .*\s+\d+\s+\d+\.\d\d%\s+\d+$",
             r"^the network in the reader's window: (\d+) frames taken by de0 \(arp \d+, echo \d+, "
             r"rip \d+, xns \d+\), \d+ sent",
             r"^    total network overhead\s+(\d+\.\d) us",
             r"^  XNSrouted: \d+ us of CPU for (\d+) XNS routing packets: (\d+) us a packet",
             r"CPU share: (\d+\.\d\d)%",
             r"^  SPAM microcode: \d+ of \d+ microcycles \((\d+\.\d+)%\)",
             r"^  the benchmark user's job .*: (\d+\.\d+) s with tracing off; (\d+\.\d+) s "
             r"traced, drained by the host: [-+]\d+\.\d\d%; (\d+\.\d+) s traced with the reader"]
    for w in wants:
        m = re.search(w, out, re.M)
        if not m:
            fails.append(f"no line matching {w!r}")
        elif w.startswith("CPU") and not 0 < float(m.group(1)) < 50:
            fails.append(f"reader's share {m.group(1)}% out of (0, 50)")
        elif "inclusive n=" in w and int(m.group(1)) < 50:
            fails.append(f"only {m.group(1)} IPL 12 service times")
        elif "frames taken" in w and int(m.group(1)) < 100:
            fails.append(f"only {m.group(1)} frames in the window")
        elif "XNSrouted:" in w and (int(m.group(1)) < 20 or not 0 < int(m.group(2)) < 100000):
            fails.append(f"XNSrouted's cost: {m.group(0)}")
        elif "SPAM microcode" in w and not 0 < float(m.group(1)) < 10:
            fails.append(f"SPAM's share {m.group(1)}% out of (0, 10)")
        elif "benchmark" in w and not all(0.5 < float(x) < 30 for x in m.groups()):
            fails.append(f"job times out of range: {m.groups()}")

    # the reader against the trace, read by this test
    d = json.load(open(js))
    start, nrec = d["window"]["first_record"], d["window"]["records"]
    con = open(os.path.join(runs, "traced.log"), "rb").read()
    if any(b >= 0x80 for b in con):
        fails.append("the traced run's console log has bytes with bit 7 set")
    try:
        gbins, (grec, gsamp, _ck, glost), _mean = spamread_out.guest_result(
            con.decode("ascii").replace("\r", ""))
        hbins, hcount = spamread_out.host_hist(spamctl, trace, start, nrec)
        if grec != nrec or gbins != hbins or gsamp != hcount or glost:
            fails.append(f"reader {grec} records {gsamp} samples {gbins}, trace {nrec} {hcount} {hbins}")
        merged = subprocess.run([spamctl, "hist", "--merge", "--linear", "100:50", js],
                                capture_output=True, text=True).stdout
        mb = {int(a): int(b) for a, b in re.findall(r"^bin (\d+) (\d+)$", merged, re.M) if int(b)}
        if mb != hbins:
            fails.append(f"hist --merge of the demo's JSON: {mb}, the trace's {hbins}")
        print(f"reader: {grec} records, {gsamp} service times: equal to the trace's, bin for bin")
    except spamread_out.RunError as e:
        fails.append(str(e))
    if not (d["os"] == "4.3bsd" and d["reader"]["equals_trace"] and
            0 < d["reader_cpu"]["share_pct"] < 50 and d["network"]["us_per_frame"] > 0 and
            set(d["perturbation"]["job_s"]) == {"untraced", "traced", "reader"}):
        fails.append("the JSON lacks figures")
    try:
        import xml.etree.ElementTree as E
        bars = [r for r in E.parse(svg).iter("{http://www.w3.org/2000/svg}rect")
                if r.get("class") == "bin"]
        if len(bars) != 51 or not any(int(b.get("height")) > 0 for b in bars):
            fails.append(f"{svg}: {len(bars)} bars")
    except (OSError, E.ParseError) as e:
        fails.append(f"{svg}: {e}")
    q = subprocess.run(["tcpdump", "-n", "-r", os.path.join(runs, "traced.pcap"), "icmp"],
                       capture_output=True, text=True)
    replies = [ln for ln in q.stdout.splitlines()
               if "192.168.1.2 > " in ln and "ICMP echo reply" in ln]
    if q.returncode != 0 or len(replies) < 50:
        fails.append(f"tcpdump: exit {q.returncode}, {len(replies)} echo replies from the VAX")
    if sha(disk) != before:
        fails.append("the demo modified the cached disk")
    for args, rc in ((["--os", "4.2bsd"], 2), (["--os", "4.3bsd", "--duration", "2.5"], 2),
                     (["--os", "4.3bsd", "--net-rate", "-1"], 2),
                     (["--os", "4.3bsd", "--users", "8"], 2),
                     (["--os", "4.3bsd", "--image", "k.bin"], 2),
                     (["--os", "4.3bsd", "--disk", os.path.join(work, "none.dsk")], 1)):
        q = subprocess.run([spamctl, "demo"] + args, capture_output=True, text=True, env=env)
        if q.returncode != rc or not q.stderr.strip():
            fails.append(f"demo {' '.join(args)}: exit {q.returncode} (want {rc} and a message)")
    # a TMPDIR too long for the demo's working folder: a clear error, no run
    q = subprocess.run([spamctl, "demo", "--dist", dist], capture_output=True, text=True,
                       env=dict(env, TMPDIR="/" + "t" * 4095))
    if q.returncode != 1 or "a working directory in /ttt" not in q.stderr or \
            "File name too long" not in q.stderr:
        fails.append(f"demo with a 4 KB TMPDIR: exit {q.returncode}: {q.stderr.strip()[-200:]}")
    for f in fails:
        print("FAIL " + f)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
