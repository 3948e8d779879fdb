#!/usr/bin/env python3
"""`spamctl demo --os 4.3bsd` (issue 18 item 6): the paper's experiment on
the original 4.3BSD.  spamctl execs this script (its C side only finds it
and passes its own path, the installed disk and the options).

    demo.py --spamctl SPAMCTL --disk INSTALLED.dsk [--net-rate R] [--seed N]
            [--work DIR]

A copy of the installed disk (vax/guest/bsd43/install.py; the test
bsd43-multiuser caches it as build/tests/bsd43/bsd43-work/rp06.dsk) boots
multi-user with the network at R frames/s (default 200, seed 1), traced
with the host drain in tap mode; spamread.script compiles spamread.c with
4.3BSD's cc and runs it for 5 s (spamread_run.py).  Then prints, over the
records the reader consumed: the IPL 12 (SCB 0xB0) service time from the
trace (percentiles, 0.1 ms bins) and from the reader, events per class,
context switches per program (names from the disk: spamctl names
extract), and the reader's CPU share measured from the trace.
Not printed: the perturbation in microcycles of SPAM microcode (the
machine does not count them yet).  Under a minute of wall time.
"""
import argparse
import collections
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import spamread_run as sr  # noqa: E402


def main():
    ap = argparse.ArgumentParser(prog="spamctl demo --os 4.3bsd")
    ap.add_argument("--spamctl", required=True)
    ap.add_argument("--disk", required=True, help="the installed RP06 image (not modified)")
    ap.add_argument("--net-rate", type=float, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", help="keep the run's files here (default: a temporary directory)")
    a = ap.parse_args()
    if a.net_rate < 0 or a.net_rate > 1e6:
        ap.error("--net-rate out of range")
    if not os.path.isfile(a.disk):
        sys.stderr.write(f"spamctl demo --os 4.3bsd: {a.disk}: no installed disk "
                         "(vax/guest/bsd43/install.py DISK, or meson test bsd43-multiuser)\n")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        work = a.work or tmp
        try:
            return report(a, work)
        except sr.RunError as e:
            sys.stderr.write(f"spamctl demo --os 4.3bsd: {e}\n")
            return 1


def report(a, work):
    rate = f"{a.net_rate:g}"
    r = sr.run(a.spamctl, a.disk, work, rate=rate, seed=a.seed)
    bins, (nrec, nsamp, _ck, lost), mean = sr.guest_result(r["console"])
    start = sr.reader_start(a.spamctl, r["trace"])
    print(f"4.3BSD multi-user, network {rate} frames/s (seed {a.seed}); spamread compiled by "
          f"4.3BSD's cc, 5 s: {r['wall']:.1f} s wall")
    print(f"spamread consumed records {start}..{start + nrec - 1} of the trace ({nrec})\n")
    p = subprocess.run([a.spamctl, "hist", "--event", "int:0xB0", "--skip", str(start),
                        "--records", str(nrec), r["trace"]], capture_output=True, text=True)
    if p.returncode != 0:
        raise sr.RunError(f"spamctl hist: {p.stderr.strip()}")
    print("IPL 12 (SCB 0xB0, ipintr) service time, from the trace:")
    print("\n".join(p.stdout.splitlines()[:3]))
    hbins, hcount = sr.host_hist(a.spamctl, r["trace"], start, nrec)
    print(f"\n0.1 ms bins: trace ({hcount}) | reader ({nsamp}, mean {mean} us, lost {lost})")
    for lo in sorted(set(hbins) | set(bins)):
        label = f">= {lo / 1000:.1f} ms" if lo == sr.WIDTH * sr.NBINS else \
            f"{lo / 1000:.1f}-{(lo + sr.WIDTH) / 1000:.1f} ms"
        print(f"  {label:>13}  {hbins.get(lo, 0):6} | {bins.get(lo, 0):6}")
    print("  the reader's histogram equals the trace's" if hbins == bins and hcount == nsamp
          else "  THE READER'S HISTOGRAM DIFFERS FROM THE TRACE'S")
    names = sr.names_file(a.spamctl, r["disk"], os.path.join(work, "names"))
    rows = sr.decode_rows(a.spamctl, r["trace"], names)
    win = [x for x in rows if start <= int(x["index"]) < start + nrec]
    print("\nevents per class (the reader's records):")
    for cls, n in sorted(collections.Counter(x["class"] for x in win).items(), key=lambda t: -t[1]):
        print(f"  {cls:10} {n:7}")
    print("\ncontext switches per program (whole run: boot, rc, login, tar, cc, spamread):")
    sw = collections.Counter((x["path"] or f"pid {x['pid']}") for x in rows if x["class"] == "ldpctx")
    for prog, n in sw.most_common(15):
        print(f"  {n:6}  {prog}")
    acc = sr.cpu_shares(rows, start, nrec)
    span = acc["span"]
    print(f"\ntime of the reader's records ({span} us):")
    for k in ("user", "sys", "interrupt", "other", "idle"):
        print(f"  {k:9} {acc[k]:9} us {100 * acc[k] / span:6.2f}%")
    print(f"spamread (pid {acc['pid']}) CPU share: {100 * (acc['user'] + acc['sys']) / span:.2f}% "
          "(user + its kernel work; the paper's reader: about 5%)")
    print("perturbation (microcycles in SPAM microcode / all): not measured, the machine "
          "does not count them yet")
    return 0


if __name__ == "__main__":
    sys.exit(main())
