#!/usr/bin/env python3
"""Issue 31: the probe language's recipes on the original 4.3BSD, each
checked against an independent count of the same run.

usage: bsd43_recipes.py SPAMCTL BSD43_DIR WORKDIR

The cached install (as bsd43-multiuser makes it) runs `spamctl probe --os
4.3bsd` (multi-user, the network at 200 frames/s, routed, XNSrouted, a
listing and 4.3BSD's cc on the console) with:
 - recipes/spectrum.bt: kretprobe:hardclock returns as many times as the
   run took interval-timer interrupts (SCB 0xC0), kretprobe:syscall is
   entered as many times as CHMKs (SCB 0x40), and every one of its
   maps' histograms counts as many values as its probe returned;
 - recipes/pagefaults.bt: page faults by program add up to the run's
   translation-not-valid exceptions (SCB 0x24), and cc's ring holds
   min(n, 256) faults;
 - recipes/ready.bt: a ready line for every exit() the probe saw.
The run's own counts ("events by SCB vector") come from the machine's
exception and interrupt delivery, not from the probes.
"""
import os
import re
import subprocess
import sys

from bsd43_cache import cached_install

HERE = os.path.dirname(os.path.abspath(__file__))
RECIPES = os.path.join(HERE, "..", "..", "vax", "probe", "recipes")


def probe(spamctl, disk, recipe, work):
    # a TMPDIR with a long name: the copy of the disk goes there all the
    # same (not to /tmp), and nothing is left behind
    tmpd = os.path.join(work, "t" * 120)
    os.makedirs(tmpd, exist_ok=True)
    env = dict(os.environ, TMPDIR=tmpd)
    p = subprocess.run([spamctl, "probe", "--os", "4.3bsd", "--disk", disk, "-f",
                        os.path.join(RECIPES, recipe)], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"FAIL {recipe}: exit {p.returncode}: {p.stderr.strip()[-2000:]}")
    if f"(a copy in {tmpd}/spamctl-probe." not in p.stderr or os.listdir(tmpd):
        sys.exit(f"FAIL {recipe}: the working copy not in TMPDIR or left there: "
                 f"{p.stderr.strip()[-600:]} {os.listdir(tmpd)}")
    out = p.stdout
    ev = dict((int(k, 16), int(v)) for k, v in re.findall(r"(0x[0-9A-F]+)=(\d+)",
                                                           out.split("events by SCB vector:")[1].split("\n")[0]))
    fires = dict((m.group(1), int(m.group(2))) for m in
                 re.finditer(r"^  (\S+)\s+(\d+) fires", out, re.M))
    share = re.search(r"^probes \(charged\): \d+ microcycles of \d+ \(([\d.]+)% of the run\)", out, re.M)
    print(f"{recipe}: probes {share.group(1) if share else '?'}% of the run")
    return out, ev, fires


def hist_total(out, name):
    """The counts of every histogram of a map, by key."""
    tot = {}
    for m in re.finditer(r"^" + re.escape(name) + r"\[([^\]]*)\]:\n((?:\[.*\n)+)", out, re.M):
        tot[m.group(1)] = sum(int(x) for x in re.findall(r"\)\s+(\d+) \|", m.group(2)))
    return tot


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    spamctl, dist, work = sys.argv[1:]
    disk, _ = cached_install(spamctl, dist, work)
    fails = []

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            fails.append(what)

    # a TMPDIR too long for any path in it: a clear error, no run
    p = subprocess.run([spamctl, "probe", "--os", "4.3bsd", "--disk", disk, "-e", "BEGIN { }"],
                       capture_output=True, text=True,
                       env=dict(os.environ, TMPDIR="/" + "t" * 4095))
    check(p.returncode == 1 and "a working directory in /ttt" in p.stderr
          and "File name too long" in p.stderr, "a TMPDIR too long is refused: exit %d, %s"
          % (p.returncode, p.stderr.strip()[-200:]))

    out, ev, fires = probe(spamctl, disk, "spectrum.bt", work)
    check(fires.get("kretprobe:hardclock/ret") == ev.get(0xC0),
          f"hardclock returns {fires.get('kretprobe:hardclock/ret')} = interval-timer interrupts {ev.get(0xC0)}")
    check(fires.get("kretprobe:syscall/entry") == ev.get(0x40),
          f"syscall entries {fires.get('kretprobe:syscall/entry')} = CHMKs {ev.get(0x40)}")
    us = hist_total(out, "@us")
    for fn in ("ipintr", "hardclock", "hpstrategy", "hpdtint", "soreceive"):
        got, want = us.get(f"kretprobe:{fn}", 0), fires.get(f"kretprobe:{fn}/ret")
        check(got == want and want, f"@us[kretprobe:{fn}] holds {got} durations, {want} returns")
    sysd = sum(hist_total(out, "@syscall_us").values())
    check(sysd == fires.get("kretprobe:syscall/ret"),
          f"@syscall_us holds {sysd} durations, {fires.get('kretprobe:syscall/ret')} returns")

    out, ev, fires = probe(spamctl, disk, "pagefaults.bt", work)
    faults = sum(int(n) for n in re.findall(r"^@faults\[[^\]]*\]: (\d+)$", out, re.M))
    check(faults == ev.get(0x24), f"page faults by program {faults} = TNV exceptions {ev.get(0x24)}")
    m = re.search(r"^cc took (\d+) page faults; the last (\d+) are kept", out, re.M)
    ring = len(re.findall(r"^@vaddr\[\d+\]: ", out, re.M))
    check(m and int(m.group(2)) == min(int(m.group(1)), 256) and ring <= int(m.group(2)) and
          int(m.group(1)) > 0, f"cc's ring: {m.group(0) if m else 'no END line'}, {ring} addresses")

    out, ev, fires = probe(spamctl, disk, "ready.bt", work)
    lines = re.findall(r"^(.+?) \(pid \d+\): (\d+) us of CPU, (\d+) system calls, (\d+) page faults$",
                       out, re.M)
    check(len(lines) == fires.get("kprobe:exit") and lines,
          f"{len(lines)} ready lines for {fires.get('kprobe:exit')} exits")
    check(any(l[0] == "/bin/cc" for l in lines), "cc's ready line")

    if fails:
        sys.exit(f"{len(fails)} failed")
    print("bsd43-recipes: all passed")


if __name__ == "__main__":
    main()
