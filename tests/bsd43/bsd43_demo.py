#!/usr/bin/env python3
"""Issue 18 item 6: `spamctl demo --os 4.3bsd` on the cached install.

usage: bsd43_demo.py SPAMCTL BSD43_DIR WORKDIR

Runs the demo (vax/guest/bsd43/demo.py behind spamctl) on the install the
bsd43 tests cache (install.py --reuse) and checks its report: exit 0, the
trace's and the reader's IPL 12 histograms agree, every section is there
with numbers (percentile table, bins, classes, the reader, routed and
XNSrouted and the users' programs among the programs switched to, the
time by interrupt vector with de0 and dz0 apart, the network's cost per
frame and XNSrouted's per XNS packet, a CPU share in (0, 50)%, SPAM's
microcycles and the benchmark job's three times), the Figure 4 SVG, the
VAX's echo replies in the run's capture (tcpdump -r), the
disk is not modified, and within the brief's minute of wall time (twice
that on a loaded machine).  Bad options are usage errors (exit 2), a
missing disk exit 1.
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GUEST = os.path.join(HERE, "..", "..", "vax", "guest", "bsd43")


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
    disk = os.path.join(work, "rp06.dsk")
    p = subprocess.run([sys.executable, os.path.join(GUEST, "install.py"), "--dist", dist,
                        "--spamctl", spamctl, "--trace", "--reuse", disk],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL install: {p.stderr.strip()}")
    fails = []
    before = sha(disk)
    t0 = time.monotonic()
    svg = os.path.join(work, "fig4.svg")
    runs = os.path.join(work, "demo-runs")
    shutil.rmtree(runs, ignore_errors=True)
    p = subprocess.run([spamctl, "demo", "--os", "4.3bsd", "--disk", disk, "--svg", svg,
                        "--work", runs], capture_output=True, text=True)
    wall = time.monotonic() - t0
    out = p.stdout
    print(out)
    print(f"demo: {wall:.1f} s wall")
    if p.returncode != 0:
        fails.append(f"exit {p.returncode}: {p.stderr.strip()}")
    if wall > 120:
        fails.append(f"{wall:.0f} s of wall time")
    wants = [r"^interrupt 0xB0 \(software 12\)\s+inclusive\s+(\d+)\s",
             r"^\s+0\.\d-0\.\d ms\s+\d+ \|\s+\d+$",
             r"^  the reader's histogram equals the trace's$",
             r"^  interrupt\s+\d+$", r"^  chm\s+\d+$", r"^  ldpctx\s+\d+$",
             r"^\s+\d+\s+/tmp/spamread$", r"^\s+\d+\s+/lib/ccom$",
             r"^\s+\d+\s+/etc/XNSrouted$", r"^\s+\d+\s+/etc/routed$", r"^\s+\d+\s+/bin/ls$",
             r"^  idle\s+\d+ us\s+\d+\.\d\d%$",
             r"^  interrupt de0 \(DEUNA\)\s+\d+ us\s+\d+\.\d\d%  \(\d+\)$",
             r"^  interrupt dz0 \(DZ11\)\s+\d+ us\s+\d+\.\d\d%  \(\d+\)$",
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
        elif w.startswith("^interrupt") and int(m.group(1)) < 50:
            fails.append(f"only {m.group(1)} IPL 12 service times")
        elif "frames taken" in w and int(m.group(1)) < 100:
            fails.append(f"only {m.group(1)} frames in the window")
        elif "XNSrouted:" in w and (int(m.group(1)) < 20 or not 0 < int(m.group(2)) < 100000):
            fails.append(f"XNSrouted's cost: {m.group(0)}")
        elif "SPAM microcode" in w and not 0 < float(m.group(1)) < 10:
            fails.append(f"SPAM's share {m.group(1)}% out of (0, 10)")
        elif "benchmark" in w and not all(0.5 < float(x) < 30 for x in m.groups()):
            fails.append(f"job times out of range: {m.groups()}")
    try:
        import xml.etree.ElementTree as E
        bars = [r for r in E.parse(svg).iter("{http://www.w3.org/2000/svg}rect")
                if r.get("class") == "bin"]
        if len(bars) != 51 or not any(int(b.get("height")) > 0 for b in bars):
            fails.append(f"{svg}: {len(bars)} bars")
    except (OSError, E.ParseError) as e:
        fails.append(f"{svg}: {e}")
    # the VAX answered the hosts' pings: echo replies from 192.168.1.2 on the wire
    q = subprocess.run(["tcpdump", "-n", "-r", os.path.join(runs, "traced.pcap"), "icmp"],
                       capture_output=True, text=True)
    replies = [ln for ln in q.stdout.splitlines()
               if "192.168.1.2 > " in ln and "ICMP echo reply" in ln]
    if q.returncode != 0 or len(replies) < 50:
        fails.append(f"tcpdump: exit {q.returncode}, {len(replies)} echo replies from the VAX")
    if sha(disk) != before:
        fails.append("the demo modified the installed disk")
    for args, rc in ((["--os", "4.2bsd"], 2), (["--os", "4.3bsd", "--duration", "3"], 2),
                     (["--os", "4.3bsd", "--net-rate", "-1"], 2),
                     (["--os", "4.3bsd", "--users", "8"], 2),
                     (["--os", "4.3bsd", "--disk", os.path.join(work, "none.dsk")], 1)):
        q = subprocess.run([spamctl, "demo"] + args, capture_output=True, text=True)
        if q.returncode != rc or not q.stderr.strip():
            fails.append(f"demo {' '.join(args)}: exit {q.returncode} (want {rc} and a message)")
    for f in fails:
        print("FAIL " + f)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
