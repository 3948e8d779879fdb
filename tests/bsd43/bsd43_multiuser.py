#!/usr/bin/env python3
"""4.3BSD end to end: install from the distribution, boot multi-user, log
in on the console, run commands, halt -- traced with SPAM -- and the same
console session on SIMH's 8600 from the same installed disk.

usage: bsd43_multiuser.py SPAMCTL BSD43_DIR ORACLE WORKDIR

1. vax/guest/bsd43/install.py --reuse --trace builds WORKDIR/rp06.dsk
   (cached: it installs again only when the distribution, the spamctl
   binary -- machine and microcode --, or the installer changed).
2. A copy of the disk boots multi-user on our 8600 (multiuser.script,
   traced with -o): the transcript must hold the autoconfiguration lines,
   a clean fsck -p of / and /usr, `login:`, the commands' output (the
   expected `ls -l` lines, the shell loop) and the halt.
3. SPAM: every class 4.3BSD makes (interrupt, exception, chm, ldpctx, rei)
   appears in the install's traces and the boot's; each process of
   `ps axlw` that runs a program of /bin or /etc has an LDPCTX extended
   record with its pid and uid (ps axl), the program's inode (ls -li) and
   the device of / (ls -l /dev/hp0a).
4. SIMH's vax8600 boots another copy of the installed disk and runs the
   same console script: the output of `ls -li /bin /etc`, the loop,
   `ls -l` and `df` must be the same, ls's dates masked (ps, date and dmesg
   depend on the CPU, the clock and the devices modelled; SIMH's clock is
   the host's).
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
import install  # noqa: E402
from bsd43_cache import cached_install  # noqa: E402
import ufs  # noqa: E402

SCRIPT = os.path.join(GUEST, "multiuser.script")
PROMPT = "myname# "
AUTOCONF = ["SBIA0 at IO adaptor 0 address 0x20080000", "uba0 at tr3",
            "dz0 at uba0 csr 160100 vec 300, ipl 15", "mba0 at tr8",
            "hp0 at mba0 drive 0", "mba1 at tr9", "ht0 at mba1 drive 0"]
EXPECT_LINES = [
    re.compile(r"^/dev/hp0a: \d+ files, \d+ used, \d+ free .*fragmentation\)$"),
    re.compile(r"^/dev/rhp0g: 2 files, 9 used, \d+ free .*fragmentation\)$"),
    re.compile(r"^4\.3 BSD UNIX \(myname\.my\.domain\) \(console\)$"),
    re.compile(r"^-rwxr-xr-x  2 root\s+407552 Jun  6 19:56 /vmunix\*$"),
    re.compile(r"^-rw-r--r--  1 root\s+2174 Jun  6 13:21 /etc/rc$"),
    re.compile(r"^brw-r-----  1 root\s+0,\s+0 .* /dev/hp0a$"),
    re.compile(r"^loop 3 9$"),
    re.compile(r"^halting \(in tight loop\)$"),
]
CLASSES = ("interrupt", "exception", "chm", "ldpctx", "rei")
COMPARED = ("ls -li /bin /etc", "sh -c", "ls -l ", "df")


def lines(text):
    return [ln.rstrip() for ln in text.split("\n")]


def script_steps(path):
    """(expect, send) pairs of a console script, escapes decoded."""
    steps, pending = [], None
    for raw in open(path):
        raw = raw.rstrip("\n")
        if raw.startswith("expect "):
            pending = raw[7:]
        elif raw.startswith("send ") and pending is not None:
            steps.append((pending, raw[5:]))
            pending = None
    dec = lambda s: s.encode().decode("unicode_escape")  # noqa: E731
    return [(dec(e), dec(s)) for e, s in steps]


DATE = re.compile(r"[A-Z][a-z][a-z] [ \d]\d ( \d{4}|\d\d:\d\d)")


def undated(out):
    """Command output with ls's dates masked: they follow the clock, and
    SIMH's 8600 takes its TODR from the host."""
    return [DATE.sub("<date>", ln) for ln in out] if out is not None else None


def command_outputs(text):
    """{command line: its output lines} from a console transcript."""
    out, cmd = {}, None
    for ln in lines(text):
        if ln.startswith(PROMPT):
            cmd = ln[len(PROMPT):]
            out[cmd] = []
        elif cmd is not None:
            out[cmd].append(ln)
    return out


def run_ours(spamctl, disk, work):
    log, trace = os.path.join(work, "multiuser.log"), os.path.join(work, "multiuser.spam")
    cmd = [spamctl, "run", "--boot", "rp0", "--attach", f"rp0={disk}",
           "--memory", str(install.MEMORY_MB), "--todr", str(install.BOOT_TODR),
           "--max-cycles", "unlimited", "--expect-timeout", "600",
           "--console-script", SCRIPT, "--console-out", log, "-o", trace,
           "--dump-state", os.path.join(work, "multiuser.state.json")]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    return p, install.console_text(log), trace, wall


def run_simh(oracle, disk, work):
    """The same console session on SIMH's 8600 (pexpect, typed slowly:
    the kernel holds one input character at a time)."""
    import pexpect
    boot = ufs.Ufs.open(disk, "a").read("/boot")
    if boot[:4] in (b"\x07\x01\x00\x00", b"\x08\x01\x00\x00"):
        boot = boot[32:]  # an a.out header: the console loads the text
    with open(os.path.join(work, "boot.raw"), "wb") as f:
        f.write(boot)
    with open(os.path.join(work, "simh.ini"), "w") as f:
        f.write("set cpu 8m\nset tto 7b\nset rl disable\nset rp0 rp06\n"
                f"attach rp0 {disk}\nload -o boot.raw 0\ndep r10 0\ndep r11 0\n"
                "run 2\nquit\n")
    child = pexpect.spawn(oracle, ["simh.ini"], cwd=work, timeout=300, encoding="latin-1")
    log = open(os.path.join(work, "simh.log"), "w")
    child.logfile_read = log
    try:
        for exp, send in script_steps(SCRIPT):
            child.expect_exact(exp.replace("\r", "").replace("\n", "") or exp)
            for ch in send:
                child.send(ch)
                time.sleep(0.03)
        child.expect_exact("halting (in tight loop)")
    finally:
        child.terminate(force=True)
        log.close()
    return open(os.path.join(work, "simh.log"), encoding="latin-1").read().replace("\r", "")


def ldpctx_records(spamctl, traces):
    recs, classes = set(), set()
    for t in traces:
        p = subprocess.run([spamctl, "decode", "--json", t], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"decode {t}: {p.stderr.strip()}")
        for ln in p.stdout.splitlines():
            ev = json.loads(ln)
            classes.add(ev["class"])
            if ev["class"] == "ldpctx":
                recs.add((ev["pid"], ev["uid"], ev["major"], ev["minor"], ev["inode"]))
    return recs, classes


def check_identities(outs, recs, fails):
    """ps axl's processes against the LDPCTX extended records."""
    inodes = {}
    listing = outs.get("ls -li /bin /etc", [])
    where = None
    for ln in listing:
        if ln.endswith(":") and ln.startswith("/"):
            where = ln[:-1]
            continue
        m = re.match(r"^\s*(\d+) \S+\s+\d+ \S+\s+\d+ .{12} (\S+?)\*?$", ln)
        if m and where:
            inodes[f"{where}/{m.group(2)}"] = int(m.group(1))
    dev = next((ln for ln in outs.get("ls -l /etc/passwd /etc/rc /vmunix /dev/hp0a", [])
                if ln.endswith("/dev/hp0a")), "")
    m = re.search(r"root\s+(\d+),\s+(\d+)", dev)
    if not inodes or not m:
        fails.append("no ls -li listing or /dev/hp0a line to check the extended records with")
        return 0
    major, minor = int(m.group(1)), int(m.group(2))
    checked = 0
    for ln in outs.get("ps axlw", [])[1:]:
        # F UID PID PPID ... WCHAN (may be empty) STAT TT TIME COMMAND
        f, t = ln.split(), re.search(r"\s\d+:\d\d (.*)$", ln)
        if len(f) < 4 or not t or not f[1].isdigit() or not f[2].isdigit():
            continue
        uid, pid, command = int(f[1]), int(f[2]), t.group(1)
        m = re.search(r"\((\w+)\)$", command)
        name = m.group(1) if m else command.split()[0].lstrip("-")
        paths = [name] if name in inodes else \
            [p for p in inodes if p.rsplit("/", 1)[1] == name
             or (name.startswith("/") and p.startswith(name))]  # a cut name
        if len(paths) != 1:
            print(f"  not checked (no single program file): {command!r} -> {paths}")
            continue  # swapper, pagedaemon: no program file
        want = (pid, uid, major, minor, inodes[paths[0]])
        checked += 1
        print(f"  pid {pid:3} uid {uid} {paths[0]:14} inode {want[4]:4} dev {major},{minor}: "
              + ("record found" if want in recs else "NO RECORD"))
        if want not in recs:
            fails.append(f"no LDPCTX extended record {want} for `{ln.strip()}` "
                         f"(records of pid {pid}: {sorted(r for r in recs if r[0] == pid)})")
    if checked < 10:
        fails.append(f"only {checked} processes of ps axl could be checked")
    return checked


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    spamctl, dist, oracle, work = sys.argv[1:]
    fails = []
    t0 = time.monotonic()
    disk, out = cached_install(spamctl, dist, work)
    print(out.strip())
    print(f"install: {time.monotonic() - t0:.1f} s wall")
    run_dir = os.path.join(work, "run")
    shutil.rmtree(run_dir, ignore_errors=True)
    os.makedirs(run_dir)
    ours_disk = os.path.join(run_dir, "ours.dsk")
    shutil.copyfile(disk, ours_disk)
    p, text, trace, wall = run_ours(spamctl, ours_disk, run_dir)
    st = json.load(open(os.path.join(run_dir, "multiuser.state.json"))) \
        if os.path.exists(os.path.join(run_dir, "multiuser.state.json")) else {}
    print(f"multi-user boot, session, halt: {st.get('instructions', 0):,} instructions, "
          f"{st.get('microcycles', 0) * 80e-9:.1f} s emulated, {wall:.1f} s wall")
    if p.returncode != 0:
        fails.append(f"our run: exit {p.returncode}: {(p.stderr or p.stdout).strip()}")
    got = lines(text)
    for want in AUTOCONF:
        if want not in got:
            fails.append(f"autoconfiguration line missing: {want!r}")
    for rx in EXPECT_LINES:
        if not any(rx.match(ln) for ln in got):
            fails.append(f"no line matching {rx.pattern!r}")
    for bad in ("SALVAGED", "BAD", "UNEXPECTED INCONSISTENCY") + install.GUEST_DEATHS:
        if bad in text:
            fails.append(f"the transcript says {bad!r}")
    outs = command_outputs(text)
    traces = [os.path.join(disk + ".work", f"{s[0]}.spam") for s in install.STEPS] + [trace]
    try:
        recs, classes = ldpctx_records(spamctl, traces)
        for c in CLASSES:
            if c not in classes:
                fails.append(f"no {c} event in the traces")
        n = check_identities(outs, recs, fails)
        print(f"SPAM: classes {sorted(classes)}; {len(recs)} distinct LDPCTX identities; "
              f"{n} processes of ps axl checked against them")
    except (RuntimeError, ValueError) as e:
        fails.append(str(e))
    if os.access(oracle, os.X_OK):
        simh_disk = os.path.join(run_dir, "simh.dsk")
        shutil.copyfile(disk, simh_disk)
        try:
            s_outs = command_outputs(run_simh(oracle, simh_disk, run_dir))
            for cmd in outs:
                if cmd.startswith(COMPARED):
                    if undated(outs[cmd]) != undated(s_outs.get(cmd)):
                        fails.append(f"`{cmd}`: ours and SIMH's 8600 differ (see {run_dir})")
                    else:
                        print(f"same as SIMH's 8600: `{cmd}` ({len(outs[cmd])} lines)")
        except Exception as e:  # pexpect's timeouts and EOF name what was awaited
            fails.append(f"SIMH's 8600 session: {type(e).__name__}: {str(e)[:300]}")
    else:
        fails.append(f"{oracle}: SIMH's 8600 is missing (the comparison needs it)")
    for f in fails:
        print("FAIL", f)
    print(f"{len(fails)} failures")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
