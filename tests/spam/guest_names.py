#!/usr/bin/env python3
"""The trace tools with a 4.3BSD guest's names (spamctl names; issue 18).

usage: guest_names.py SPAMCTL BSD43_DIR WORKDIR

- `spamctl names extract --disk miniroot` (the distribution's tape file 2,
  a 4.3BSD file system with the GENERIC /vmunix) names CHMK codes from the
  kernel's sysent and sys/syscalls.c (read=3, write=4, sigvec=108), SCB
  vectors from its _scb and symbol table (0xC0 Xhardclock, 0x40 Xsyscall)
  and the nexus vector of de0's interrupts (uba0 at TR 3, BR5: 0x14C, whose
  handler the kernel takes from ubaintv, its devices and their handlers --
  Xdeintr0 -- from ubdinit),
  and paths by inode (/etc/init is inode 19, /vmunix 4, as 4.3BSD's own
  directories in that image say -- also read by the bsd43 branch's Python
  reader);
- without sys/syscalls.c the names are the handlers' (exit -> rexit);
- stat, decode, hist and export (CTF, LTTng, Chrome) print those names on
  a trace holding those events, and numbers without --names (unchanged);
- bad inputs: a damaged names file, a kernel that is not an a.out, a disk
  without a file system, usage errors.
"""
import gzip
import json
import os
import struct
import subprocess
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    spamctl, bsd43, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    fails = []

    def check(cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            fails.append(what)

    def run(*args):
        p = subprocess.run([spamctl, *args], capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    mini = f"{work}/miniroot.img"
    with gzip.open(f"{bsd43}/miniroot.gz") as f, open(mini, "wb") as o:
        o.write(f.read())
    names = f"{work}/names.txt"
    rc, out, err = run("names", "extract", "--disk", mini, "-o", names)
    check(rc == 0, f"names extract --disk miniroot: exit {rc} {err.strip()}")
    lines = set(open(names).read().splitlines())
    for want in ("syscall 3 read", "syscall 4 write", "syscall 108 sigvec", "syscall 1 exit",
                 "vector 0x0C0 Xhardclock", "vector 0x040 Xsyscall", "vector 0x0A0 Xsoftclock",
                 "vector 0x0B0 Xnetintr", "vector 0x0F8 Xcnrint",
                 "vector 0x14C Xua0int: uba0 BR5: dz0 (Xdzrint0 Xdzxint0), de0 (Xdeintr0)",
                 "vector 0x160 Xmba0int: mba0 BR5",
                 "inode 0,0 19 /etc/init", "inode 0,0 4 /vmunix", "inode 0,0 5 /bin"):
        check(want in lines, f"names: '{want}'")
    check(not any(l.startswith("syscall 151 ") for l in lines), "no code past nsysent (151)")
    check(not any(l.startswith("vector 0x038 ") or l.startswith("vector 0x000 ") for l in lines),
          "stray vectors left unnamed")

    # the handlers' names without sys/syscalls.c (an empty file is refused)
    empty = f"{work}/empty.c"
    open(empty, "w").close()
    rc, _, err = run("names", "extract", "--disk", mini, "--syscalls", empty, "-o", f"{work}/n2.txt")
    check(rc == 1 and "no syscallnames[] table" in err, f"--syscalls without the table: exit {rc}")

    rc, _, err = run("names", "extract", "--disk", mini, "--handlers", "-o", f"{work}/n2.txt")
    n2 = set(open(f"{work}/n2.txt").read().splitlines()) if rc == 0 else set()
    check({"syscall 1 rexit", "syscall 3 read", "syscall 17 obreak", "syscall 108 sigvec",
           "syscall 45 nosys"} <= n2, f"--handlers: the handlers' names: exit {rc} {err.strip()}")

    # --partition b of an RP06 image holding the mini-root there, as the
    # installation leaves it (device hp0b = 0,1)
    rp = f"{work}/rp06.dsk"
    with open(rp, "wb") as o:
        o.truncate(15884 * 512)
        o.seek(15884 * 512)
        o.write(open(mini, "rb").read())
    rc, _, err = run("names", "extract", "--disk", rp, "--partition", "b", "-o", f"{work}/n3.txt")
    n3 = open(f"{work}/n3.txt").read().splitlines() if rc == 0 else []
    check(rc == 0 and "inode 0,1 19 /etc/init" in n3 and "syscall 108 sigvec" in n3,
          f"--partition b: exit {rc} {err.strip()}")
    rc, _, err = run("names", "extract", "--disk", rp, "-o", f"{work}/n4.txt")
    check(rc == 1 and "no 4.2BSD superblock" in err, f"partition a of that disk is empty: {err.strip()}")

    # a trace with those events (version 1 header, complete, REI traced)
    recs = []
    us, ic = 0xD900, 100

    def rec(ev, psl):
        nonlocal us, ic
        us += 7
        ic += 3
        recs.append(struct.pack("<II", (us << 16) | ic, (psl << 16) | ev))

    rec(0x6001, 0x041F)                     # marker: tracing enabled
    rec(0x4000, 0x041F)                     # ldpctx
    recs.append(struct.pack("<II", (5 << 16) | 0, (0 << 24) | (0 << 16) | 19))  # pid 5, /etc/init
    rec(0x3003, 0x0000)                     # chmk 3 (read)
    rec(0x5000 | (3 << 5), 0x03C0)          # rei to user
    rec(0x306C, 0x0000)                     # chmk 108 (sigvec)
    rec(0x5000 | (3 << 5), 0x03C0)
    rec(0x10C0, 0x0418)                     # interrupt 0xC0
    rec(0x5000 | (3 << 5), 0x03C0)
    rec(0x114C, 0x0415)                     # interrupt 0x14C (de0's)
    rec(0x5000 | (3 << 5), 0x03C0)
    rec(0x4000, 0x041F)                     # ldpctx: pid 6, /vmunix (switches pid 5 out)
    recs.append(struct.pack("<II", (6 << 16) | 0, 4))
    hdr = bytearray(128)
    struct.pack_into("<8sHHIIiII", hdr, 0, b"SPAMTRC\0", 1, 128, 1 | 2, 80000, -10000, 131072, 0x7E)
    struct.pack_into("<QQ", hdr, 48, 0, len(recs))
    hdr[64:64 + 6] = b"4.3BSD"
    trace = f"{work}/t.spam"
    open(trace, "wb").write(bytes(hdr) + b"".join(recs))

    rc, out, err = run("stat", "--names", names, trace)
    check(rc == 0, f"stat --names: exit {rc} {err.strip()}")
    for want in ("chmk 3 (read)", "chmk 108 (sigvec)", "interrupt 0xC0 (Xhardclock)",
                 "interrupt 0x14C (Xua0int: uba0 BR5: dz0 (Xdzrint0 Xdzxint0), de0 (Xdeintr0))", "/etc/init"):
        check(want in out, f"stat: '{want}'")
    rc, plain, _ = run("stat", trace)
    check(rc == 0 and "chmk 3 " in plain and "(read)" not in plain and "interrupt 0xC0 (interval timer)"
          in plain and "/etc/init" not in plain, "stat without --names: numbers, as before")
    rc, out, _ = run("stat", "--json", "--names", names, trace)
    j = json.loads(out)
    byname = {(v["class"], v.get("code", v.get("vector"))): v.get("name") for v in j["vectors"]}
    check(byname.get(("chm", 3)) == "read" and byname.get(("chm", 108)) == "sigvec" and
          byname.get(("interrupt", 0xC0)) == "Xhardclock" and j["programs"] == {"5": "/etc/init", "6": "/vmunix"},
          f"stat --json: names {byname}, programs {j.get('programs')}")

    rc, out, _ = run("decode", "--names", names, trace)
    check(rc == 0 and "chmk 3 (read)" in out and "inode 19 (/etc/init)" in out and
          "<- chmk 108 (sigvec) after" in out, "decode: names in the text")
    rc, out, _ = run("decode", "--json", "--names", names, trace)
    ev = [json.loads(l) for l in out.splitlines()]
    check([e.get("name") for e in ev if e["class"] == "chm"] == ["read", "sigvec"] and
          [e.get("path") for e in ev if e["class"] == "ldpctx"] == ["/etc/init", "/vmunix"] and
          [e.get("open_name") for e in ev if e["class"] == "rei"] ==
          ["read", "sigvec", "Xhardclock",
           "Xua0int: uba0 BR5: dz0 (Xdzrint0 Xdzxint0), de0 (Xdeintr0)"], "decode --json: name, path, open_name")
    rc, out, _ = run("decode", "--csv", "--names", names, trace)
    rows = out.splitlines()
    check(rows[0].endswith(",flags,values,name,path") and any(r.endswith(',"read",') for r in rows) and
          any(r.endswith(',"/etc/init"') for r in rows), "decode --csv: name and path columns")
    rc, out, _ = run("decode", "--csv", trace)
    check(out.splitlines()[0].endswith(",flags,values"), "decode --csv without names: the old columns")

    rc, out, _ = run("hist", "--names", names, "--syscalls", trace)
    check(rc == 0 and "chmk 3 (read)" in out and "chmk 108 (sigvec)" in out, "hist --syscalls: names")
    rc, out, _ = run("hist", "--names", names, "--cpu", trace)
    check(rc == 0 and "/etc/init" in out, "hist --cpu: the program")

    ctf = f"{work}/ctf"
    rc, _, err = run("export", "--names", names, "--ctf", ctf, trace)
    bt = subprocess.run(["babeltrace2", ctf], capture_output=True, text=True)
    check(rc == 0 and bt.returncode == 0 and 'name = "read"' in bt.stdout and
          'name = "Xhardclock"' in bt.stdout and 'path = "/etc/init"' in bt.stdout,
          f"export --ctf: babeltrace2 reads the names ({bt.stderr.strip()[:200]})")
    rc, _, _ = run("export", "--names", names, "--ctf", f"{work}/lt", "--lttng", trace)
    bt = subprocess.run(["babeltrace2", f"{work}/lt"], capture_output=True, text=True)
    check(rc == 0 and 'name = "Xhardclock"' in bt.stdout, "export --lttng: the irq's name")
    rc, _, _ = run("export", "--names", names, "--chrome", f"{work}/c.json", trace)
    cj = json.load(open(f"{work}/c.json"))["traceEvents"]
    nm = {e["name"] for e in cj}
    check(rc == 0 and "chmk 3 (read)" in nm and "ldpctx /etc/init" in nm and
          "interrupt 0xC0 (Xhardclock)" in nm, "export --chrome: slice names")

    # bad input
    bad = f"{work}/bad.txt"
    open(bad, "w").write("syscall 3 read\nvector 0x0C1 odd\n")
    rc, _, err = run("stat", "--names", bad, trace)
    check(rc == 1 and "line 2" in err, f"a damaged names file: exit {rc}, {err.strip()}")
    rc, _, err = run("decode", "--names", trace)
    check(rc == 1 and "line 1" in err, f"a trace as names file: exit {rc}, {err.strip()}")
    rc, _, err = run("names", "extract", "--kernel", trace, "-o", f"{work}/n5.txt")
    check(rc == 1 and "not a VAX a.out" in err, f"a kernel that is not an a.out: {err.strip()}")
    rc, _, err = run("names", "extract", "--disk", trace, "-o", f"{work}/n6.txt")
    check(rc == 1, f"a disk without a file system: {err.strip()}")
    rc, _, err = run("names", "extract", "--disk", mini, "-o", mini)
    check(rc == 2, "-o onto the disk: usage error")
    rc, _, err = run("names", "extract", "-o", f"{work}/n7.txt")
    check(rc == 2, "no kernel and no disk: usage error")
    rc, out, _ = run("names", "show", names)
    check(rc == 0 and "151 system calls" in out, f"names show: {out.splitlines()[0] if out else ''}")

    print(f"{len(fails)} failed")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
