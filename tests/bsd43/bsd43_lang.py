#!/usr/bin/env python3
"""Issue 31: the probe language's round trips on the original 4.3BSD,
where the answer is known independently in the same run.

usage: bsd43_lang.py SPAMCTL BSD43_DIR WORKDIR

Two boots of a copy of the cached install (as bsd43-multiuser makes it):
 1. root types a small C program (lt.c, below) into /lang, 4.3BSD's cc
    compiles it, /etc/halt.  (A uprobe finds its program by the names on
    the disk read at the start of the run: a program made during the
    probed run would have none.)
 2. root brings de0 up (the network at 200 frames/s), runs `/lang/lt
    1000`, a listing and a sleep under `spamctl probe --free` (the host
    runs the routines: no guest cycles) with:
    - uprobe:/lang/lt:f and uretprobe:/lang/lt:f: f is called N times (N
      from argv; the program prints its own count of calls), so both
      probes must fire exactly N times and the largest return value is N
      (f returns its argument plus one, starting from 0);
    - uprobe:/lang/lt:show: the program reads _hz, _boottime, _physmem and
      _time through /dev/kmem with nlist (as 4.3BSD's own programs do),
      prints them and passes them to show(); at show's first instruction
      the probe reads the same variables with kvar() and prints them.
      hz, boottime and physmem do not change after boot: the probe's
      values must equal the program's.  time advances only in hardclock,
      by one tick (10,000 us; no adjtime runs): the probe reads it later
      than the program, so the difference is a whole number of ticks, 0
      or more, and at most 10 (the process may be preempted between its
      read() and its call; 100 ms is the round-robin quantum);
    - profile:hz:1000 by kernel function beside kretprobes summing the
      exact time (less interrupts) in three leaf functions, clearseg,
      copyseg, in_cksum: each one's samples within 3 standard deviations
      of the count its exact time predicts (printed: the sampling error);
    - a second 1 kHz sampler whose predicate, /ipl >= 20 && uid == 0/,
      becomes the probe unit's IPL and uid filters, counts exactly the
      first sampler's samples with those values.
"""
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GUEST = os.path.join(HERE, "..", "..", "vax", "guest", "bsd43")

N = 1000
TICK_US = 10000
sys.path.insert(0, GUEST)
import install  # noqa: E402
from bsd43_cache import cached_install  # noqa: E402

# The guest's program (K&R C for 4.3BSD's cc), typed into cat on the console.
# The install has an empty /usr (no /usr/include): struct nlist is
# <nlist.h>'s, written out; nlist() is libc's.
LT_C = r"""struct nlist { char *n_name; unsigned char n_type; char n_other; short n_desc;
    unsigned long n_value; };
struct nlist nl[] = { {"_hz"}, {"_boottime"}, {"_physmem"}, {"_time"}, {0} };
int calls;
f(i) { calls++; return i + 1; }
show(hz, bt, pm, ts, tu)
{
    printf("kmem hz %d boottime %d physmem %d time %d.%06d\n", hz, bt, pm, ts, tu);
}
main(c, v) char **v;
{
    int n = atoi(v[1]), i, s = 0, k, x[5];
    for (i = 0; i < n; i++)
    	s = f(s);
    printf("lt called f %d times of %d\n", calls, n);
    if (nlist("/vmunix", nl) < 0 || (k = open("/dev/kmem", 0)) < 0)
    	exit(1);
    for (i = 0; i < 4; i++) {
    	lseek(k, (long)nl[i].n_value, 0);
    	read(k, (char *)&x[i], i == 3 ? 8 : 4);
    }
    show(x[0], x[1], x[2], x[3], x[4]);
    exit(0);
}
"""

PROGRAM = r"""
uprobe:/lang/lt:f { @calls = count(); }
uretprobe:/lang/lt:f { @rets = count(); @maxret = max(retval); }
profile:hz:1000 { @samples[kfunc(pc)] = count(); @all[ipl, uid & 1023] = count(); }
profile:hz:1000 /ipl >= 20 && uid == 0/ { @hw[ipl] = count(); }
kretprobe:clearseg, kretprobe:copyseg, kretprobe:in_cksum {
    @excl[probe] = sum(duration_excl_cyc);
}
uprobe:/lang/lt:show {
    printf("probe hz %d boottime %d physmem %d time %d.%06d\n",
           kvar("hz"), kvar("boottime"), kvar("physmem"), kvar("time"), kvar("time", 4));
}
"""


def send(line):
    return "send " + line.replace("\\", "\\\\") + "\\r\n"


def script_compile():
    s = "expect login: \n" + send("root") + "expect \\nmyname# \n"
    s += send("mkdir /lang; cat > /lang/lt.c")
    for line in LT_C.splitlines():
        s += send(line)
    s += "send \\x04\n" + "expect myname# \n"  # after ^D, no newline
    s += send("cc -o /lang/lt /lang/lt.c && echo lt-''built") + "expect \\nlt-built\n"
    s += "expect \\nmyname# \n" + send("/etc/halt") + "expect halting (in tight loop)\nhalt\n"
    return s


def script_run():
    s = "expect login: \n" + send("root") + "expect \\nmyname# \n"
    s += send("/etc/ifconfig de0 192.168.1.2 up; /etc/ifconfig de0 ns 42:") + "expect \\nmyname# \n"
    s += send(f"/lang/lt {N}; ls -l /bin /etc > /dev/null; sleep 2") + "expect \\nmyname# \n"
    s += send("/etc/halt") + "expect halting (in tight loop)\nhalt\n"
    return s


def machine(disk, script, log, boot):
    """Boot BOOT (1, 2) of the disk: each an hour after the last, so the
    clock never runs backwards between boots (fsck -p would salvage the
    cylinder groups stamped in its future and rc would reboot)."""
    todr = install.BOOT_TODR + (boot - 1) * install.TODR_HOUR
    return ["--boot", "rp0", "--attach", f"rp0={disk}", "--memory", "8", "--todr", str(todr),
            "--max-cycles", "unlimited", "--expect-timeout", "120",
            "--console-script", script, "--console-out", log]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    spamctl, dist, work = sys.argv[1:]
    cached, _ = cached_install(spamctl, dist, work)
    lw = os.path.join(work, "lang")
    os.makedirs(lw, exist_ok=True)
    disk = os.path.join(lw, "rp06.dsk")
    shutil.copyfile(cached, disk)
    fails = []

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            fails.append(what)

    t0 = time.monotonic()
    s1, log1 = os.path.join(lw, "compile.script"), os.path.join(lw, "compile.log")
    with open(s1, "w") as f:
        f.write(script_compile())
    p = subprocess.run([spamctl, "run"] + machine(disk, s1, log1, 1), capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL boot 1 (compile): exit {p.returncode}: {p.stderr.strip()[-2000:]}")
    print(f"boot 1: lt.c compiled by 4.3BSD's cc ({time.monotonic() - t0:.0f} s wall)")

    t1 = time.monotonic()
    s2, log2 = os.path.join(lw, "run.script"), os.path.join(lw, "run.log")
    with open(s2, "w") as f:
        f.write(script_run())
    p = subprocess.run([spamctl, "probe", "--free", "--disk", disk, "-e", PROGRAM, "--"] +
                       machine(disk, s2, log2, 2) + ["--net-rate", "200", "--seed", "1"],
                       capture_output=True, text=True,
                       env=dict(os.environ, TMPDIR=lw))
    if p.returncode != 0:
        sys.exit(f"FAIL boot 2 (probes): exit {p.returncode}: {p.stderr.strip()[-2000:]}")
    out = p.stdout
    with open(log2, errors="replace") as f:
        con = f.read()
    print(f"boot 2: /lang/lt {N} under the probes ({time.monotonic() - t1:.0f} s wall)")

    m = re.search(r"lt called f (\d+) times of (\d+)", con)
    check(m and int(m.group(1)) == N and int(m.group(2)) == N,
          f"the guest counts {m.group(1) if m else '?'} calls of f")

    def mapval(name):
        m = re.search(r"^@" + name + r": (\d+)$", out, re.M)
        return int(m.group(1)) if m else None

    check(mapval("calls") == N, f"uprobe:/lang/lt:f fired {mapval('calls')} times, N = {N}")
    check(mapval("rets") == N, f"uretprobe:/lang/lt:f fired {mapval('rets')} times, N = {N}")
    check(mapval("maxret") == N, f"uretprobe's largest retval {mapval('maxret')} = N = {N}")

    pat = r"hz (\d+) boottime (\d+) physmem (\d+) time (\d+)\.(\d+)"
    g = re.search(r"^kmem " + pat, con, re.M)
    k = re.search(r"^probe " + pat, out, re.M)
    if not g or not k:
        check(False, f"the guest's line {g and g.group(0)!r}, the probe's {k and k.group(0)!r}")
    else:
        gv, kv = [int(x) for x in g.groups()], [int(x) for x in k.groups()]
        for i, name in enumerate(("hz", "boottime", "physmem")):
            check(gv[i] == kv[i] and gv[i] > 0,
                  f"kvar(\"{name}\") {kv[i]} = the guest's /dev/kmem {gv[i]}")
        d = (kv[3] - gv[3]) * 1000000 + kv[4] - gv[4]
        check(0 <= d <= 10 * TICK_US and d % TICK_US == 0,
              f"kvar(\"time\") {kv[3]}.{kv[4]:06d} - the guest's {gv[3]}.{gv[4]:06d} = {d} us "
              f"(whole ticks, 0 to 10)")
    # Sampling against exact self time: each period's sample lands on the
    # function holding the PC; the exact time in a leaf function that takes
    # no exceptions (locore's clearseg and copyseg, on pages mapped through
    # the system's page table, and in_cksum.c's in_cksum on mbufs, among the
    # kernel's most sampled CALLS procedures here) is its entry-to-return
    # time less the interrupts taken meanwhile (duration_excl).  (Not
    # useracc, also a leaf: its PROBEs can take a translation-not-valid
    # fault on a page of the process's page table, whose handler's time
    # duration_excl keeps and the sampler gives to the handler.)  Samples
    # expected: that time over the mean period (the run's microcycles over
    # the sampler's firings).  Tolerance: 3 standard deviations of a count
    # of that mean, 3 sqrt(expected).
    run = re.search(r"^probes \(free[^)]*\): 0 microcycles of (\d+) ", out, re.M)
    fired = re.search(r"^  profile:hz:1000\s+(\d+) fires", out, re.M)
    check(run and fired, "the run's microcycles and the sampler's firings reported")
    if run and fired:
        period = int(run.group(1)) / int(fired.group(1))
        check(12500 <= period < 12600, f"the sampler's mean period {period:.1f} microcycles "
              "(1 ms is 12,500; the sample waits for the next instruction)")
        for fn in ("clearseg", "copyseg", "in_cksum"):
            m = re.search(r"^@excl\[kretprobe:" + fn + r"\]: (\d+)$", out, re.M)
            sm = re.search(r"^@samples\[" + fn + r"\]: (\d+)$", out, re.M)
            if not m or not sm:
                check(False, f"{fn}: exact time {m and m.group(1)}, samples {sm and sm.group(1)}")
                continue
            exp, got = int(m.group(1)) / period, int(sm.group(1))
            check(exp >= 50 and abs(got - exp) <= 3 * exp ** 0.5,
                  f"{fn}: {got} samples ({100 * got / int(fired.group(1)):.3f}% of the run), "
                  f"exact {int(m.group(1))} microcycles ({100 * exp / int(fired.group(1)):.3f}%: "
                  f"{exp:.1f} samples): sampling error {100 * (got - exp) / exp:+.1f}% "
                  f"(tolerance {300 / exp ** 0.5:.1f}%)")
    # The hardware's uid and IPL filters: a second sampler at the same
    # instants, its predicate the probe unit's filters, counts exactly the
    # first one's samples at IPL 20 or above with uid 0, and nothing else.
    allv = {(int(a), int(b)): int(c)
            for a, b, c in re.findall(r"^@all\[(\d+), (\d+)\]: (\d+)$", out, re.M)}
    hw = {int(a): int(c) for a, c in re.findall(r"^@hw\[(\d+)\]: (\d+)$", out, re.M)}
    want = {i: c for (i, u), c in allv.items() if i >= 20 and u == 0}
    left = sum(c for (i, u), c in allv.items() if i < 20 or u != 0)
    check(hw == want and want and left > 0,
          f"/ipl >= 20 && uid == 0/ in hardware: {sum(hw.values())} samples by IPL {hw}, "
          f"the unfiltered sampler's {want} ({left} others left out)")
    print(f"bsd43-lang: {time.monotonic() - t0:.0f} s wall for both boots")
    if fails:
        sys.exit(f"{len(fails)} failed")
    print("bsd43-lang: all passed")


if __name__ == "__main__":
    main()
