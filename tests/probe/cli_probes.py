#!/usr/bin/env python3
"""spamctl run --probes end to end (issue 30) on progs/fact_chmk.s.

usage: cli_probes.py VASM SPAMCTL PROGDIR WORKDIR GUEST_KERNEL

A PC probe at fact's entry watches its return; the return probe counts
and sums the durations by the argument and writes a record (tag 5).  The
same program runs without probes, charged, free (--probes-free), charged
under --no-tcache and under --tcache-check (the interpreter in lock step),
free under --tcache-check, and with the probes loaded part-way
(--probes-at).  Checked against counts independent of the probes:
 - 250 entries and returns (50 calls of fact(5)), 50 per argument;
 - the free run's microcycles are the probe-free run's, and its trace less
   the probe records is that run's trace, record for record;
 - the charged run costs more; the interpreter and the trace cache agree
   on its microcycles and maps; every probe's worst firing is within its
   verified cost, and the report prints each probe's microcycles and
   share;
 - durations are the same in both modes (no interrupt meanwhile) and grow
   with the argument;
 - decode (text, JSON, CSV, the probe:5 selector), stat, CTF through
   babeltrace2 and the Chrome export carry the 250 records;
 - a program loaded at a microcycle fires only after it;
 - bad probe files (syntax, a refusal, a symbol with no symbol table, a
   missing file, a bad --probes-at) exit 1 with one line and no trace;
 - a routine's `note 1` (exit()) ends a run of the bundled guest at the
   end of the slice it came in.
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_records import records, without_probe_records  # noqa: E402

PROBES = """\
# cli_probes.py: fact's returns by argument
map n count keys 8
map d sum keys 8
probe fin pc {fact}
    ctx p0, ap
    ldv p1, [p0 + 4], 4
    watch fret, p1
    exit
probe fret ret
    ctx p0, cookie
    ctx p1, dur
    agg n, p0, p0
    agg d, p0, p1
    rec 5, p0, 2
    exit
"""

fails = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fails.append(what)


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    vasm, spamctl, progdir, work, kernel = sys.argv[1:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    src = os.path.join(progdir, "fact_chmk.s")
    binf = os.path.join(work, "fact.bin")
    subprocess.run([vasm, "--raw", "--base", "0x1000", "-o", binf, src], check=True)
    lst = subprocess.run([vasm, "--raw", "--base", "0x1000", "--listing", "-o", os.devnull, src],
                         check=True, capture_output=True, text=True).stdout
    fact = int(re.search(r"^([0-9a-f]{8}) .*\bfact:", lst, re.M).group(1), 16)
    prb = os.path.join(work, "fact.prb")
    with open(prb, "w") as f:
        f.write(PROBES.format(fact=hex(fact + 2)))  # after the entry mask

    def run(name, *extra, probes=True, expect_rc=0):
        trace, js = os.path.join(work, name + ".spam"), os.path.join(work, name + ".json")
        cmd = [spamctl, "run", "--raw", binf, "--load-at", "0x1000", "-o", trace,
               "--max-cycles", "10000000"]
        if probes:
            cmd += ["--probes", prb, "--probe-json", js]
        p = subprocess.run(cmd + list(extra), capture_output=True, text=True)
        check(p.returncode == expect_rc, f"{name}: exit {p.returncode} {p.stderr.strip()}")
        m = re.search(r"; (\d+) microcycles, (\d+) instructions", p.stdout)
        check(p.stdout.startswith("halted: HALT instruction") and m, f"{name}: halts")
        r = {"out": p.stdout, "trace": trace, "cycles": int(m.group(1)) if m else -1,
             "insns": int(m.group(2)) if m else -1}
        if probes:
            r["json"] = json.load(open(js))
        return r

    none = run("none", probes=False)
    ch = run("charged")
    fr = run("free", "--probes-free")
    plain = run("plain", "--no-tcache")
    lock = run("lockstep", "--tcache-check", "--console-in", "")
    lockf = run("lockstep-free", "--probes-free", "--tcache-check", "--console-in", "")

    def probe(r, name):
        return next(p for p in r["json"]["programs"][0]["probes"] if p["name"] == name)

    def maps(r):
        return {m["name"]: m["slots"] for m in r["json"]["programs"][0]["maps"]}

    for r, tag in ((ch, "charged"), (fr, "free"), (plain, "no-tcache"), (lock, "lock step"),
                   (lockf, "free lock step")):
        n = maps(r)["n"]
        check(probe(r, "fin")["fires"] == 250 and probe(r, "fret")["fires"] == 250,
              f"{tag}: 250 entries and returns ({probe(r, 'fin')['fires']}, "
              f"{probe(r, 'fret')['fires']})")
        check(sorted(n) == ["1", "2", "3", "4", "5"] and all(n[k]["count"] == 50 for k in n),
              f"{tag}: 50 returns for each argument 1..5")
        check(r["insns"] == none["insns"], f"{tag}: the guest's {none['insns']} instructions")
        check(r["json"]["frames"]["unwound"] == 0 and r["json"]["frames"]["dropped"] == 0,
              f"{tag}: no frame unwound or dropped")
    check(fr["cycles"] == none["cycles"] == lockf["cycles"],
          f"free: {fr['cycles']} microcycles, the probe-free run's {none['cycles']}")
    check(ch["cycles"] > none["cycles"], f"charged: {ch['cycles']} microcycles, more")
    check(ch["cycles"] == plain["cycles"] == lock["cycles"] and maps(ch) == maps(plain) == maps(lock),
          "charged: the interpreter and the trace cache agree (microcycles and maps)")
    pc = ch["json"]["probe_cycles"]
    own = sum(probe(ch, p)["cycles"] for p in ("fin", "fret"))
    check(own < pc <= own + 8 * ch["json"]["requests"],
          f"charged: {pc} probe microcycles in all: the routines' {own} and the requests' "
          f"entries ({ch['json']['requests']})")
    check(ch["cycles"] - none["cycles"] >= pc * 0.9,
          f"charged: {ch['cycles'] - none['cycles']} microcycles more than the probe-free run")
    check(fr["json"]["probe_cycles"] == 0, "free: no probe microcycles")
    for p in ("fin", "fret"):
        q = probe(ch, p)
        check(0 < q["max_cycles"] <= q["cost"], f"charged: {p}'s worst firing {q['max_cycles']} "
              f"within its verified cost {q['cost']}")
        line = re.search(rf"^\s+{p}\s+\S+\s+(\d+)\s+(\d+)\s+([\d.]+)%", ch["out"], re.M)
        check(line and int(line.group(2)) == q["cycles"] and
              abs(float(line.group(3)) - 100 * q["cycles"] / ch["cycles"]) < 0.001,
              f"charged: the report prints {p}'s microcycles and share")
    dch, dfr = maps(ch)["d"], maps(fr)["d"]
    check(dch == dfr, "the same durations in both modes")
    sums = [dch[str(k)]["sum"] for k in range(1, 6)]
    check(sums == sorted(sums) and sums[0] > 0, f"durations grow with the argument: {sums}")
    a, b = without_probe_records(records(fr["trace"])), records(none["trace"])
    check(a == b, f"free: the trace less the probe records is the probe-free run's ({len(a)} "
          f"and {len(b)} records)")

    # the tools
    def tool(*args):
        p = subprocess.run([spamctl, *args], capture_output=True, text=True)
        check(p.returncode == 0, f"spamctl {' '.join(args[:2])}: exit {p.returncode} "
              f"{p.stderr.strip()}")
        return p.stdout

    evs = [json.loads(x) for x in tool("decode", "--json", ch["trace"]).splitlines() if x.strip()]
    pr = [e for e in evs if e["class"] == "probe"]
    check(len(pr) == 250 and all(e["tag"] == 5 and len(e["values"]) == 2 for e in pr),
          f"decode --json: {len(pr)} probe records, tag 5, two values")
    by = {}
    for e in pr:
        by.setdefault(e["values"][0], []).append(e["values"][1])
    check({str(k): sum(v) for k, v in by.items()} == {k: s["sum"] for k, s in dch.items()},
          "decode: the records' durations add up to the map's sums")
    text = tool("decode", ch["trace"])
    check(len(re.findall(r"probe tag 5 \(2 values\).*: \d+ \d+$", text, re.M)) == 250,
          "decode: 250 probe lines with their values")
    csv = tool("decode", "--csv", ch["trace"]).splitlines()
    col = csv[0].split(",").index("values") if "values" in csv[0].split(",") else -1
    check(col >= 0 and sum(1 for x in csv[1:] if ",probe," in x) == 250,
          "decode --csv: a values column, 250 probe rows")
    sel = tool("decode", "--json", "--event", "probe:5", ch["trace"])
    check(len([x for x in sel.splitlines() if x.strip()]) == 250, "decode --event probe:5: 250")
    st = tool("stat", ch["trace"])
    check(re.search(r"^\s+probe\s+250$", st, re.M) is not None, "stat: probe 250")
    ctf = os.path.join(work, "ctf")
    tool("export", "--ctf", ctf, ch["trace"])
    bt = subprocess.run(["babeltrace2", ctf], capture_output=True, text=True)
    check(bt.returncode == 0 and bt.stdout.count("spam:probe:") == 250 and
          "tag = 5" in bt.stdout and "values = [" in bt.stdout,
          f"CTF: babeltrace2 reads 250 spam:probe events (exit {bt.returncode})")
    chrome = os.path.join(work, "c.json")
    tool("export", "--chrome", chrome, ch["trace"])
    cj = json.load(open(chrome))
    cev = cj["traceEvents"] if isinstance(cj, dict) else cj
    check(sum(1 for e in cev if e.get("cat") == "probe" and e["args"]["tag"] == 5) == 250,
          "Chrome/Perfetto: 250 probe instants with their tag")

    # loaded part-way: none fires before
    at = none["cycles"] // 2
    late = run("late", "--probes-at", f"{at}:{prb}", probes=False)
    levs = [json.loads(x) for x in tool("decode", "--json", late["trace"]).splitlines()
            if x.strip()]
    lp = [e for e in levs if e["class"] == "probe"]
    m = re.search(r"^\s+fret\s+ret\s+(\d+)", late["out"], re.M)
    check(m and 0 < int(m.group(1)) < 250 and len(lp) == int(m.group(1)),
          f"--probes-at {at}: {m.group(1) if m else '?'} returns, fewer than 250")
    first_ic = min(e["icount"] for e in lp) if lp else 0
    check(first_ic > none["insns"] // 3, f"--probes-at: the first record at instruction {first_ic}")

    # bad input: one line, exit 1, no trace made
    bad = {
        "syntax.prb": ("probe a pc 0x1000\n    bogus p0\n    exit\n",
                       "syntax.prb:2:5: 'bogus' is not an instruction"),
        "budget.prb": ("probe a pc 0x1000 budget 20\n    ldi p0, 1\n    ldi p0, 2\n    exit\n",
                       "budget.prb: refused: line 1: probe a: worst case"),
        "symbol.prb": ("probe a pc _ipintr\n    exit\n",
                       "'_ipintr': a symbol, but there is no symbol table"),
        "missing.prb": (None, "missing.prb: No such file or directory"),
    }
    for name, (body, want) in bad.items():
        path = os.path.join(work, name)
        if body is not None:
            open(path, "w").write(body)
        out = os.path.join(work, "bad.spam")
        p = subprocess.run([spamctl, "run", "--raw", binf, "--load-at", "0x1000", "-o", out,
                            "--probes", path], capture_output=True, text=True)
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 1 and len(lines) == 1 and want in lines[0] and
              not os.path.exists(out), f"{name}: exit {p.returncode}, {lines}")
    p = subprocess.run([spamctl, "run", "--raw", binf, "--load-at", "0x1000", "--probes-at",
                        "soon:" + prb], capture_output=True, text=True)
    check(p.returncode == 2 and "CYCLES:FILE expected" in p.stderr,
          f"--probes-at soon:FILE: exit {p.returncode} (usage), {p.stderr.strip()}")
    # note 1: the run ends
    nprb = os.path.join(work, "note.prb")
    open(nprb, "w").write("probe s sample 100000\n    note 1\n    exit\n")
    p = subprocess.run([spamctl, "run", "--raw", kernel, "--load-at", "0", "--start", "0",
                        "--memory", "8", "--console-in", "", "--console-out", os.devnull,
                        "--max-cycles", "5000000", "--probes", nprb],
                       capture_output=True, text=True)
    m = re.search(r"; (\d+) microcycles", p.stdout)
    check(p.returncode == 0 and p.stdout.startswith("stopped: a probe's exit()") and m and
          100000 <= int(m.group(1)) < 5000000,
          f"note 1 ends the run: exit {p.returncode}, {p.stdout.splitlines()[:1]}")
    print("cli-probes: " + ("%d failed" % len(fails) if fails else "all passed"))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
