#!/usr/bin/env python3
"""`spamctl demo --os 4.3bsd` (issue 18 item 6): the paper's experiment on
the original 4.3BSD.  spamctl execs this script (its C side only checks
the options, finds it and the installed disk and passes its own path).

    demo.py --spamctl SPAMCTL --disk INSTALLED.dsk [--net-rate R] [--seed N]
            [--users N] [--svg FILE] [--no-perturbation] [--work DIR]

Three copies of the installed disk (vax/guest/bsd43/install.py; the test
bsd43-multiuser caches it as build/tests/bsd43/bsd43-work/rp06.dsk) boot
multi-user at once, on the host's cores, with the same inputs: the network
at R frames/s (default 200, seed 1), a benchmark user on tty00 and N
shell users on tty01.. (users/, default 3; think times seeded), the DZ11
on BR4 so that the trace tells its interrupts (0x10C) from the DEUNA's
(0x14C).  The console (demo.script) brings de0 up, starts routed and
XNSrouted, compiles the in-guest reader with 4.3BSD's cc, tells the
benchmark user to start its job and runs the reader for 5 s.

The first run is traced (host drain in tap mode, so the reader sees every
record too).  The second is traced the same way but the console sleeps
where the first reads; the third has tracing off too: the workload without
the instrument.  --no-perturbation runs only the first.  Over the records the reader consumed
the report gives the IPL 12 (SCB 0xB0) service time from the trace and
from the reader (0.1 ms bins, the paper's Figure 4; --svg draws it), events
per class, context switches per program, where the time went (idle,
interrupts by vector, programs), the network's cost per packet
(the DEUNA's interrupts, the IPL 12 protocol code, routed, XNSrouted: the
paper's planned next step), the reader's CPU share, and the perturbation:
SPAM's own microcycles and the benchmark job's time with and without it.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import install  # noqa: E402
import pcapcount  # noqa: E402
import spamread_run as sr  # noqa: E402
import tartape  # noqa: E402
import timeacct  # noqa: E402

SCRIPT = os.path.join(HERE, "demo.script")
BENCH = os.path.join(HERE, "users", "bench.script")
SHELL = os.path.join(HERE, "users", "shell.script")
READER_LINE = "send echo go-''bench > /dev/tty00; ./spamread 5\\r\n"
SLEEP_LINE = "send echo go-''bench > /dev/tty00; sleep 5; echo spamread-''end\\r\n"
DZ_BR = 4
VEC_DEUNA, VEC_DZ, VEC_NET, VEC_CLOCK = 0x14C, 0x10C, 0xB0, 0xC0


def main():
    ap = argparse.ArgumentParser(prog="spamctl demo --os 4.3bsd")
    ap.add_argument("--spamctl", required=True)
    ap.add_argument("--disk", required=True, help="the installed RP06 image (not modified)")
    ap.add_argument("--net-rate", type=float, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--users", type=int, default=3, help="shell users on tty01.. (0-7)")
    ap.add_argument("--svg", help="also draw the IPL 12 histogram (Figure 4) here")
    ap.add_argument("--no-perturbation", action="store_true",
                    help="only the traced run with the reader (no job times to compare)")
    ap.add_argument("--work", help="keep the run's files here (default: a temporary directory)")
    a = ap.parse_args()
    if a.net_rate < 0 or a.net_rate > 1e6:
        ap.error("--net-rate out of range")
    if not 0 <= a.users <= 7:
        ap.error("--users: 0-7")
    if not os.path.isfile(a.disk):
        sys.stderr.write(f"spamctl demo --os 4.3bsd: {a.disk}: no installed disk "
                         "(vax/guest/bsd43/install.py DISK, or meson test bsd43-multiuser)\n")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        work = a.work or tmp
        os.makedirs(work, exist_ok=True)
        try:
            return report(a, work)
        except (sr.RunError, pcapcount.PcapError) as e:
            sys.stderr.write(f"spamctl demo --os 4.3bsd: {e}\n")
            return 1


def start(a, work, name, traced, reader=True):
    """Starts one run in the background: (Popen, its files).  traced: with
    SPAM tracing from power-on and the host drain; reader: the console runs
    the in-guest reader (else it sleeps as long)."""
    f = {k: os.path.join(work, f"{name}.{k}") for k in
         ("dsk", "tap", "script", "log", "spam", "pcap", "users", "out", "err")}
    shutil.copyfile(a.disk, f["dsk"])
    tartape.write_tape(f["tap"], sr.SOURCES)
    with open(SCRIPT) as s:
        text = s.read()
    if READER_LINE not in text:
        raise sr.RunError(f"{SCRIPT}: no reader line to replace")
    with open(f["script"], "w") as s:
        s.write(text if reader else text.replace(READER_LINE, SLEEP_LINE))
    cmd = [a.spamctl, "run", "--boot", "rp0", "--attach", f"rp0={f['dsk']}",
           "--attach", f"tu0:ro={f['tap']}", "--memory", str(install.MEMORY_MB),
           "--todr", str(install.BOOT_TODR), "--max-cycles", "unlimited",
           "--expect-timeout", "120", "--console-script", f["script"],
           "--console-out", f["log"], "--net-rate", f"{a.net_rate:g}", "--seed", str(a.seed),
           "--dz-br", str(DZ_BR), "--dz-script", f"0={BENCH}", "--dz-report", f["users"]]
    for line in range(1, a.users + 1):
        cmd += ["--dz-script", f"{line}={SHELL}"]
    if traced:
        cmd += ["-o", f["spam"], "--drain-tap", "--pcap", f["pcap"]]
    out, err = open(f["out"], "w"), open(f["err"], "w")
    return subprocess.Popen(cmd, stdout=out, stderr=err), f


def finish(p, f):
    rc = p.wait()
    with open(f["out"]) as o, open(f["err"]) as e:
        out, err = o.read(), e.read()
    text = install.console_text(f["log"]) if os.path.exists(f["log"]) else ""
    if rc != 0:
        raise sr.RunError(f"spamctl run exit {rc}: {err.strip()}\n{text[-2000:]}")
    with open(f["users"]) as u:
        users = json.load(u)
    return {**f, "stdout": out, "console": text, "users": users}


def job_seconds(users):
    """The benchmark user's one round (tty00): seconds of VAX time."""
    for u in users["users"]:
        if u["line"] == 0:
            if len(u["round_end"]) != 1:
                raise sr.RunError(f"the benchmark user did not finish its job ({u['state']}, "
                                  f"script line {u['at_line']})")
            return (u["round_end"][0] - u["loop_at"]) / users["cycles_per_second"]
    raise sr.RunError("no benchmark user in the users' report")


def spam_cycles(stdout):
    """(hook, instruction, all) microcycles from spamctl run's summary:
    "...; T microcycles, I instructions" and "SPAM microcode: H microcycles
    in the traced flows' trace microroutine (P% of all), N in the SPAM
    instructions (Q%)"."""
    total = hook = insn = None
    for line in stdout.splitlines():
        m = re.search(r"; (\d+) microcycles, \d+ instructions$", line)
        if m:
            total = int(m.group(1))
        m = re.match(r"SPAM microcode: (\d+) microcycles .*\), (\d+) in the SPAM instructions", line)
        if m:
            hook, insn = int(m.group(1)), int(m.group(2))
    if total is None:
        raise sr.RunError("no cycle count in spamctl run's summary")
    return hook or 0, insn or 0, total


def pct(x, y):
    return 100.0 * x / y if y else 0.0


def report(a, work):
    t0 = time.monotonic()
    runs = [start(a, work, "traced", True)]
    if not a.no_perturbation:
        runs.append(start(a, work, "drain", True, reader=False))
        runs.append(start(a, work, "untraced", False, reader=False))
    try:
        res = [finish(p, f) for p, f in runs]
    finally:
        for p, _ in runs:
            if p.poll() is None:
                p.kill()
    r = res[0]
    wall = time.monotonic() - t0
    trace = r["spam"]
    bins, (nrec, nsamp, _ck, lost), mean = sr.guest_result(r["console"])
    start_rec = sr.reader_start(a.spamctl, trace)
    names = sr.names_file(a.spamctl, r["dsk"], os.path.join(work, "names"), "--dz-br", str(DZ_BR))
    rate = f"{a.net_rate:g}"
    print(f"4.3BSD multi-user, network {rate} frames/s (seed {a.seed}), routed and XNSrouted, "
          f"a benchmark user and {a.users} shell user{'s' if a.users != 1 else ''} on DZ11 "
          f"lines; the reader compiled by 4.3BSD's cc reads for 5 s ({wall:.1f} s wall"
          f"{', three runs at once' if len(res) > 1 else ''})")
    print(f"spamread consumed records {start_rec}..{start_rec + nrec - 1} of the trace ({nrec})\n")

    # ---- Figure 4: IPL 12 service time, the trace's and the reader's ----
    cmd = [a.spamctl, "hist", "--event", "int:0xB0", "--skip", str(start_rec), "--records",
           str(nrec), trace]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise sr.RunError(f"spamctl hist: {p.stderr.strip()}")
    print("IPL 12 (SCB 0xB0, ipintr: the network's protocol code) service time, from the trace:")
    print("\n".join(p.stdout.splitlines()[:3]))
    if a.svg:
        q = subprocess.run(cmd + ["--linear", f"{sr.WIDTH}:{sr.NBINS}", "--svg", a.svg],
                           capture_output=True, text=True)
        if q.returncode != 0:
            raise sr.RunError(f"spamctl hist --svg: {q.stderr.strip()}")
    hbins, hcount = sr.host_hist(a.spamctl, trace, start_rec, nrec)
    print(f"\n0.1 ms bins: trace ({hcount}) | reader ({nsamp}, mean {mean} us, lost {lost})")
    for lo in sorted(set(hbins) | set(bins)):
        label = f">= {lo / 1000:.1f} ms" if lo == sr.WIDTH * sr.NBINS else \
            f"{lo / 1000:.1f}-{(lo + sr.WIDTH) / 1000:.1f} ms"
        print(f"  {label:>13}  {hbins.get(lo, 0):6} | {bins.get(lo, 0):6}")
    print("  the reader's histogram equals the trace's" if hbins == bins and hcount == nsamp
          else "  THE READER'S HISTOGRAM DIFFERS FROM THE TRACE'S")

    # ---- the reader's window: events, switches, where the time went ----
    rows = sr.decode_rows(a.spamctl, trace, names)
    win = [x for x in rows if start_rec <= int(x["index"]) < start_rec + nrec]
    if len(win) < 2:
        raise sr.RunError("the reader's window holds no events")
    t_lo, t_hi = int(win[0]["t_us"]), int(win[-1]["t_us"])
    print(f"\nevents per class (the reader's records, {(t_hi - t_lo) / 1e6:.2f} s):")
    for cls, n in sorted(collections.Counter(x["class"] for x in win).items(),
                         key=lambda t: -t[1]):
        print(f"  {cls:10} {n:7}")
    print("\ncontext switches per program (the reader's records):")
    sw = collections.Counter((x["path"] or f"pid {x['pid']}") for x in win
                             if x["class"] == "ldpctx")
    for prog, n in sw.most_common(12):
        print(f"  {n:6}  {prog}")
    w = timeacct.account(rows, start_rec, nrec)
    span = w.span
    vname = {VEC_DEUNA: "de0 (DEUNA)", VEC_DZ: "dz0 (DZ11)", VEC_NET: "IPL 12 network",
             VEC_CLOCK: "interval clock", 0x160: "mba0 (RP06)", 0x88: "IPL 2 (AST)",
             0xA0: "IPL 8 (softclock)", 0xFC: "console transmit", 0xF8: "console receive"}
    print(f"\nwhere the time went ({span} us):")
    print(f"  idle                      {w.idle:9} us {pct(w.idle, span):6.2f}%")
    for v, t in w.intr.most_common(6):
        nm = vname.get(v, f"vector 0x{v:X}")
        print(f"  interrupt {nm:16}{t:9} us {pct(t, span):6.2f}%  ({w.intr_count[v]})")
    progs = sorted(w.by_program().items(), key=lambda t: -(t[1][0] + t[1][1]))
    for prog, (u, s, n) in progs[:8]:
        print(f"  {prog[:25]:25} {u + s:9} us {pct(u + s, span):6.2f}%  (user {u}, kernel {s})")

    # ---- the network's cost per packet ----
    rx, tx = pcapcount.count(r["pcap"], t_lo, t_hi)
    nrx = sum(rx.values())
    xns = rx.get("xns", 0)

    def prog_cpu(path):
        return sum(w.cpu(pid) for pid in w.pids_of(path))
    dev, net = w.intr[VEC_DEUNA], w.intr[VEC_NET]
    routed, xnsr = prog_cpu("/etc/routed"), prog_cpu("/etc/XNSrouted")
    kinds = ", ".join(f"{k} {rx[k]}" for k in sorted(rx))
    print(f"\nthe network in the reader's window: {nrx} frames taken by de0 ({kinds}), "
          f"{tx} sent; {w.intr_count[VEC_NET]} IPL 12 events")
    if nrx:
        print("  cost per frame taken:")
        for what, t in (("de0's interrupts (0x14C)", dev), ("IPL 12 protocol code", net),
                        ("routed", routed), ("XNSrouted", xnsr)):
            print(f"    {what:26} {t / nrx:8.1f} us")
        total = dev + net + routed + xnsr
        print(f"    {'total network overhead':26} {total / nrx:8.1f} us  "
              f"({pct(total, span):.2f}% of the CPU)")
    if xns:
        print(f"  XNSrouted: {xnsr} us of CPU for {xns} XNS routing packets: "
              f"{xnsr / xns:.0f} us a packet (the paper's next step); "
              f"{xnsr / max(w.intr_count[VEC_NET], 1):.0f} us per IPL 12 event")

    # ---- the reader and the perturbation ----
    acc = sr.cpu_shares(rows, start_rec, nrec, window=w)
    print(f"\nspamread (pid {acc['pid']}) CPU share: "
          f"{pct(acc['user'] + acc['sys'], acc['span']):.2f}% (user {pct(acc['user'], acc['span']):.2f}%, "
          f"kernel {pct(acc['sys'], acc['span']):.2f}%; the paper's reader: about 5%)")
    hook, insn, total = spam_cycles(r["stdout"])
    print("perturbation:")
    print(f"  SPAM microcode: {hook} of {total} microcycles ({pct(hook, total):.3f}%) in the trace "
          f"microroutine the traced flows ran instead of IRD (whole run, idle included; the host's "
          f"drain costs the VAX none); the reader's SPAM instructions {insn} more "
          f"({pct(insn, total):.3f}%)")
    if len(res) == 3:
        jr, jd, ju = (job_seconds(x["users"]) for x in res)
        hu, _, tu = spam_cycles(res[2]["stdout"])
        print(f"  the benchmark user's job (tty00, started with the reader): {ju:.3f} s with tracing "
              f"off; {jd:.3f} s traced, drained by the host: {pct(jd - ju, ju):+.2f}%; {jr:.3f} s "
              f"traced with the reader reading: {pct(jr - ju, ju):+.2f}% (tracing off still costs "
              f"each traced event its hook's one microcycle: {pct(hu, tu):.3f}% of that run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
