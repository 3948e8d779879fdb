#!/usr/bin/env python3
"""Issue 30: probes on the original 4.3BSD, each checked against an
independent count of the same run.

usage: bsd43_probes.py SPAMCTL BSD43_DIR WORKDIR

The installed disk (the cached install of bsd43-multiuser) boots
multi-user under network load (--net-rate 200, seed 1) with probes.script
(root logs in, de0 up, ls, sleep, halt), traced with the host drain, three
times: with the probes charged (microcode), with the same probes free (the
host runs them), and without probes.  The probes (kernel symbols from the
disk's /vmunix):
 - _syscall's entry counts: as many as the trace's CHMK records;
 - _hardclock's entry counts: as many as interval-timer interrupts (SCB
   0xC0), and records the kernel's `time`: it advances by exactly one tick
   (10,000 us) from one entry to the next, but once, where inittodr sets
   the date from the TODR;
 - _ipintr entry to return (watch / ret): as many returns as entries, no
   frame unwound, each duration within the IPL 12 (SCB 0xB0) interrupt the
   trace shows it in, the exclusive one no longer;
 - a 1 kHz sampling probe filtered on /bin/ls's inode fires only while an
   ls process runs (the trace's LDPCTX extended records say which and
   when).
The free run's trace, less the probe records, is the probe-free run's,
record for record, and its microcycles are the same: no guest cost.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GUEST = os.path.join(HERE, "..", "..", "vax", "guest", "bsd43")
sys.path.insert(0, GUEST)
sys.path.insert(0, os.path.join(HERE, "..", "probe"))
import install  # noqa: E402
from bsd43_cache import cached_install  # noqa: E402
from trace_records import records, without_probe_records  # noqa: E402

SCRIPT = os.path.join(HERE, "probes.script")
TICK_US = 10000
CYCLES_PER_US = 12.5

PROBES = """\
# issue 30's test probes (tests/bsd43/bsd43_probes.py)
map sc count
map hc count
map lsn count
map ipd hist
probe sys pc _syscall + 2
    ldi p0, 0
    agg sc, p0, p0
    exit
probe hck pc _hardclock + 2
    ldi p0, 0
    agg hc, p0, p0
    ldva p1, [_time], 4
    ldva p2, [_time + 4], 4
    rec 1, p1, 2
    exit
probe ipe pc _ipintr + 2
    ldi p0, 0
    watch ipr, p0
    exit
probe ipr ret
    ctx p0, dur
    ctx p1, durx
    rec 2, p0, 2
    ldi p2, 0
    agg ipd, p2, p0
    exit
probe lsp sample 12500 prog {prog}
    ctx p0, pid
    rec 3, p0, 1
    ldi p1, 0
    agg lsn, p1, p1
    exit
"""


class Fail(Exception):
    pass


def decode(spamctl, trace, *filters):
    p = subprocess.run([spamctl, "decode", "--json", *filters, trace], capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise Fail(f"decode {trace}: {p.stderr.strip()}")
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]


def run(spamctl, disk, work, name, probes=None, free=False):
    os.makedirs(work, exist_ok=True)
    copy = os.path.join(work, f"{name}.dsk")
    shutil.copyfile(disk, copy)
    trace, log = os.path.join(work, f"{name}.spam"), os.path.join(work, f"{name}.log")
    js = os.path.join(work, f"{name}.json")
    cmd = [spamctl, "run", "--boot", "rp0", "--attach", f"rp0={copy}",
           "--memory", str(install.MEMORY_MB), "--todr", str(install.BOOT_TODR),
           "--max-cycles", "unlimited", "--expect-timeout", "120",
           "--console-script", SCRIPT, "--console-out", log, "-o", trace,
           "--net-rate", "200", "--seed", "1"]
    if probes:
        cmd += ["--probes", probes, "--probe-json", js]
    if free:
        cmd += ["--probes-free"]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    text = install.console_text(log) if os.path.exists(log) else ""
    if p.returncode != 0:
        raise Fail(f"{name}: spamctl run exit {p.returncode}: {p.stderr.strip()}\n{text[-1500:]}")
    for death in install.GUEST_DEATHS:
        if death in text:
            raise Fail(f"{name}: a guest program died: {death}")
    m = re.search(r"; (\d+) microcycles, (\d+) instructions", p.stdout)
    if not m:
        raise Fail(f"{name}: no run summary in {p.stdout!r}")
    out = {"trace": trace, "console": text, "stdout": p.stdout, "wall": wall,
           "microcycles": int(m.group(1)), "instructions": int(m.group(2))}
    if probes:
        out["json"] = json.load(open(js))
    print(f"{name}: {wall:.1f} s wall, {out['microcycles']} microcycles")
    return out


def probe(js, name):
    for prog in js["programs"]:
        for p in prog["probes"]:
            if p["name"] == name:
                return p
    raise Fail(f"no probe {name} in the report")


def check_run(spamctl, r, ls_ino, fails, charged):
    tag = "charged" if charged else "free"
    js = r["json"]
    evs = decode(spamctl, r["trace"])
    chmk = sum(1 for e in evs if e["class"] == "chm" and e.get("chm_mode") == 0)
    clock = sum(1 for e in evs if e["class"] == "interrupt" and e.get("vector") == 0xC0)
    sysp, hck = probe(js, "sys"), probe(js, "hck")
    print(f"{tag}: _syscall fired {sysp['fires']}, CHMK records {chmk}; _hardclock fired "
          f"{hck['fires']}, clock interrupts {clock}")
    if sysp["fires"] != chmk or chmk == 0:
        fails.append(f"{tag}: _syscall fired {sysp['fires']} times, the trace has {chmk} CHMKs")
    if hck["fires"] != clock or clock == 0:
        fails.append(f"{tag}: _hardclock fired {hck['fires']} times, {clock} clock interrupts")
    probes_ = [e for e in evs if e["class"] == "probe"]
    times = [e["values"] for e in probes_ if e["tag"] == 1]
    if len(times) != hck["fires"]:
        fails.append(f"{tag}: {len(times)} time records for {hck['fires']} firings")
    steps = [(b[0] - a[0]) * 1000000 + (b[1] - a[1]) for a, b in zip(times, times[1:])]
    # one step may be inittodr's: the clock ticks from boot, counting from
    # 0, before the kernel sets the date from the TODR (1980..2038)
    sets = [(a, b) for a, b in zip(times, times[1:])
            if (b[0] - a[0]) * 1000000 + (b[1] - a[1]) != TICK_US]
    todr = len(sets) == 1 and sets[0][0][0] < 3600 and 315532800 <= sets[0][1][0] < 2**31
    bad = [s for s in steps if s != TICK_US]
    print(f"{tag}: time at {len(times)} ticks, {len(steps) - len(bad)} steps of {TICK_US} us, "
          f"others {[f'{a[0]}.{a[1]:06d} -> {b[0]}.{b[1]:06d}' for a, b in sets[:3]]}")
    if (bad and not todr) or not steps:
        fails.append(f"{tag}: time stepped by {sorted(set(bad))[:5]} (want {TICK_US} every tick "
                     f"but inittodr's)")
    # ipintr: durations inside the IPL 12 interrupts
    ipe, ipr = probe(js, "ipe"), probe(js, "ipr")
    if abs(ipe["fires"] - ipr["fires"]) > 1 or ipr["fires"] < 10:
        fails.append(f"{tag}: _ipintr entered {ipe['fires']} times, returned {ipr['fires']}")
    if js["frames"]["unwound"] or js["frames"]["dropped"]:
        fails.append(f"{tag}: frames unwound {js['frames']['unwound']}, dropped "
                     f"{js['frames']['dropped']}")
    netisr = [(e["t_us"] - e["service_us"], e["t_us"]) for e in evs
              if e["class"] == "rei" and e.get("open_event") == 0x10B0]
    durs = [(e["t_us"], e["values"][0], e["values"][1]) for e in probes_ if e["tag"] == 2]
    outside, longer, ratio = 0, 0, []
    j = 0
    for t, dur, durx in durs:
        us = dur / CYCLES_PER_US
        while j < len(netisr) and netisr[j][1] < t:
            j += 1
        if durx > dur:
            longer += 1
        if j == len(netisr) or not netisr[j][0] <= t <= netisr[j][1]:
            outside += 1
            continue
        service = netisr[j][1] - netisr[j][0]
        if us > service + 1:
            outside += 1
        ratio.append(us / service if service else 1)
    print(f"{tag}: _ipintr {len(durs)} returns; mean {sum(d for _, d, _ in durs) / max(1, len(durs)) / CYCLES_PER_US:.0f} us, "
          f"{len(ratio)} within an IPL 12 interrupt, mean share of it "
          f"{100 * sum(ratio) / max(1, len(ratio)):.0f}%")
    if outside or longer or len(durs) != ipr["fires"]:
        fails.append(f"{tag}: _ipintr: {outside} returns not within an IPL 12 interrupt, "
                     f"{longer} exclusive > inclusive, {len(durs)} records for {ipr['fires']}")
    # the program filter: ls only
    running, cur = [], None
    for e in evs:
        if e["class"] == "ldpctx" and "inode" in e:
            if cur:
                running.append((cur[0], cur[1], e["t_us"]))
            cur = (e["pid"], e["t_us"]) if e["inode"] == ls_ino else None
    if cur:
        running.append((cur[0], cur[1], float("inf")))
    lspids = {p for p, _, _ in running}
    samples = [(e["t_us"], e["values"][0]) for e in probes_ if e["tag"] == 3]
    stray = [(t, pid) for t, pid in samples
             if not any(p == pid and a <= t <= b for p, a, b in running)]
    print(f"{tag}: /bin/ls (inode {ls_ino}) ran as pids {sorted(lspids)}; {len(samples)} samples, "
          f"{len(stray)} outside it")
    if not samples or stray or not lspids:
        fails.append(f"{tag}: ls filter: {len(samples)} samples, stray {stray[:3]}")
    # perturbation reported
    total = js["probe_cycles"]
    if charged and not total:
        fails.append("charged: no probe microcycles counted")
    if not charged and total:
        fails.append(f"free: {total} probe microcycles counted")
    for p in ("sys", "hck", "ipe", "ipr", "lsp"):
        q = probe(js, p)
        if charged and q["fires"] and q["max_cycles"] > q["cost"]:
            fails.append(f"charged: {p} took {q['max_cycles']} microcycles, verified cost {q['cost']}")
        if q["errors"]:
            fails.append(f"{tag}: {p}: {q['errors']} errors")
    print(f"{tag}: probes' microcycles {total} "
          f"({100 * total / r['microcycles']:.3f}% of {r['microcycles']})")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    spamctl, dist, work = sys.argv[1:]
    disk, _ = cached_install(spamctl, dist, work, quiet=True)
    pw = os.path.join(work, "probes")
    shutil.rmtree(pw, ignore_errors=True)
    os.makedirs(pw)
    fails = []
    try:
        names = os.path.join(pw, "names")
        q = subprocess.run([spamctl, "names", "extract", "--disk", disk, "-o", names],
                           capture_output=True, text=True)
        if q.returncode != 0:
            raise Fail(f"names extract: {q.stderr.strip()}")
        ls_ino = None
        for line in open(names):
            f = line.split()
            if len(f) == 4 and f[0] == "inode" and f[3] == "/bin/ls":
                ls_ino = int(f[2])
        if ls_ino is None:
            raise Fail("no /bin/ls in the disk's names")
        pfile = os.path.join(pw, "probes.txt")
        with open(pfile, "w") as f:
            f.write(PROBES.format(prog=ls_ino))  # hp0a: device 0,0
        charged = run(spamctl, disk, pw, "charged", pfile)
        check_run(spamctl, charged, ls_ino, fails, True)
        free = run(spamctl, disk, pw, "free", pfile, free=True)
        check_run(spamctl, free, ls_ino, fails, False)
        none = run(spamctl, disk, pw, "none")
        a, b = without_probe_records(records(free["trace"])), records(none["trace"])
        same = a == b and free["microcycles"] == none["microcycles"]
        print(f"free vs none: {len(a)} and {len(b)} records, microcycles {free['microcycles']} "
              f"and {none['microcycles']}: {'the same' if same else 'DIFFERENT'}")
        if not same:
            k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            fails.append(f"the free mode changed the run: first difference at record {k}")
        over = charged["microcycles"] - none["microcycles"]
        print(f"charged vs none: {over:+d} microcycles ({100 * over / none['microcycles']:+.3f}%)")
    except (Fail, ValueError) as e:
        fails.append(str(e))
    for f in fails:
        print("FAIL " + f)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
