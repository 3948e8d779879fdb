#!/usr/bin/env python3
"""Installs the original 4.3BSD (June 1986) on an RP06 disk image, on our
microcode 8600, from the distribution files -- the manual's procedure,
every step done by 4.3BSD's own programs:

  1. the distribution tape (SIMH .tap) from stand.gz, miniroot.gz and
     rootdump.gz, their SHA-256 sums checked against SHA256SUMS; an empty
     RP06 image;
  2. copy.script:     the tape's standalone `copy`: the mini-root to hp0b;
  3. miniroot.script: the tape's `boot` loads hp(0,1)vmunix, root on hp0b;
     the mini-root's `xtr` makes hp0a (newfs), restores the root dump from
     tape file 3 and checks it (fsck);
  4. single.script:   the new root's /boot, single-user (R11 = RB_SINGLE):
     /etc/fstab from fstab.rp06, `MAKEDEV std dz0 pty0`, newfs of the
     (empty) /usr on hp0g, /etc/halt;
  5. the host reads the finished file system and checks it.

Each step is one `spamctl run` with a console script from this directory,
in emulated time with the fixed TODR: the same inputs give the same disk
and the same transcripts.  The disk boots multi-user with
`spamctl run --boot rp0 --attach rp0=DISK` (README.md).

usage: install.py [--dist DIR] [--spamctl PATH] [--work DIR] [--trace]
                  [--reuse] [--quiet] [--progress] DISK
       install.py [--dist DIR] [--spamctl PATH] [--trace] --key

--dist DIR   the distribution files (default ../shared/bsd43 beside the
             source tree)
--spamctl P  the spamctl to run (default: build/cli/spamctl of this source
             tree, else the one on PATH)
--work DIR   the tape, console transcripts, traces (default DISK.work)
--trace      trace every step with SPAM: WORK/STEP.spam
--reuse      keep DISK when it was made from the same inputs (the
             distribution's sums, the spamctl binary -- machine and
             microcode --, these scripts, the options), as DISK.inputs
             records; else install anew
--quiet      no progress lines
--progress   each step's spamctl run shows a progress line on the
             terminal (stage, emulated seconds, instructions per second;
             its stderr is then the terminal's, not this script's message)
--key        print what --reuse compares (a SHA-256 of the inputs) and
             exit: `spamctl demo` and `spamctl bsd43` keep the installed
             disk in $XDG_CACHE_HOME/spamctl/bsd43/KEY/ (its first 16 digits)

Exit status 0 installed (or reused), 1 an error (named), 2 usage.
"""
import argparse
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)
import mkdist  # noqa: E402
import ufs  # noqa: E402

MEMORY_MB = 8  # as SIMH's reference runs: "real mem = 8388608"
# The TODR of each step's power-on: spamctl's `fixed` (12:00 on June 7,
# 1986: 2^28 + hundredths of a second since January 1) plus an hour per
# step, so the clock never runs backwards from one boot to the next: fsck
# -p rewrites a cylinder group whose time is later than its own clock
# ("SUMMARY INFORMATION BAD (SALVAGED)", then rc reboots).  A later boot
# of the installed disk uses BOOT_TODR (June 8) or `--todr host`.
TODR_FIXED = (1 << 28) + ((31 + 28 + 31 + 30 + 31 + 6) * 86400 + 12 * 3600) * 100
TODR_HOUR = 3600 * 100
BOOT_TODR = TODR_FIXED + 24 * TODR_HOUR
# what a guest program prints when it dies (the machine is wrong then)
GUEST_DEATHS = ("core dumped", "Memory fault", "Bus error", "Illegal instruction",
                "Segmentation fault", "panic:")
STEPS = (
    # name, --boot, --boot-flags, script, attach the tape, expect timeout (s)
    ("copy", "tu0:copy", 0, "copy.script", True, 120),
    ("miniroot", "tu0", 0, "miniroot.script", True, 900),
    ("single", "rp0", 2, "single.script", False, 600),
)


class InstallError(Exception):
    pass


def default_spamctl():
    built = os.path.join(SOURCE_ROOT, "build", "cli", "spamctl")
    return built if os.access(built, os.X_OK) else shutil.which("spamctl") or built


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def inputs_digest(dist_sums, spamctl, trace):
    """What the installed disk depends on."""
    parts = {"dist": dist_sums, "spamctl": file_sha256(spamctl), "trace": trace,
             "memory": MEMORY_MB}
    for name in ("install.py", "mkdist.py") + tuple(s[3] for s in STEPS):
        parts[name] = file_sha256(os.path.join(HERE, name))
    return parts


def inputs_key(inputs):
    """The inputs as one hex digest (install.py --key)."""
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()


def console_text(path):
    """A console transcript as text: bit 7 (parity) stripped, no CRs."""
    raw = open(path, "rb").read() if os.path.exists(path) else b""
    return bytes(b & 0x7F for b in raw).decode("ascii").replace("\r", "")


def run_step(spamctl, index, step, tape, disk, work, trace, log, progress=False):
    name, boot, flags, script, with_tape, timeout = step
    cmd = [spamctl, "run", "--boot", boot, "--boot-flags", str(flags),
           "--todr", str(TODR_FIXED + index * TODR_HOUR),
           "--attach", f"rp0={disk}", "--memory", str(MEMORY_MB),
           "--max-cycles", "unlimited", "--expect-timeout", str(timeout),
           "--console-script", os.path.join(HERE, script),
           "--console-out", os.path.join(work, f"{name}.log"),
           "--dump-state", os.path.join(work, f"{name}.state.json")]
    if with_tape:
        cmd += ["--attach", f"tu0:ro={tape}"]
    if trace:
        cmd += ["-o", os.path.join(work, f"{name}.spam")]
    if progress:
        cmd += ["--progress", f"installing 4.3BSD, step {index + 1}/{len(STEPS)} ({name})"]
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=None if progress else subprocess.PIPE,
                       text=True)
    wall = time.monotonic() - t0
    text = console_text(os.path.join(work, f"{name}.log"))
    if p.returncode != 0:
        raise InstallError(f"step {name}: spamctl exit {p.returncode}: "
                           f"{(p.stderr or p.stdout).strip()}\n--- console, last lines ---\n"
                           + "\n".join(text.splitlines()[-12:]))
    for death in GUEST_DEATHS:
        if death in text:
            line = next(ln for ln in text.splitlines() if death in ln)
            raise InstallError(f"step {name}: a guest program died: {line.strip()!r} "
                               f"(console in {work}/{name}.log)")
    st = json.load(open(os.path.join(work, f"{name}.state.json")))
    row = {"step": name, "wall_s": round(wall, 2), "instructions": st["instructions"],
           "microcycles": st["microcycles"],
           "emulated_s": round(st["microcycles"] * 80e-9, 2)}
    log(f"  {name:9} {row['emulated_s']:8.1f} s emulated  {row['instructions']:>12,} "
        f"instructions  {wall:6.1f} s wall")
    return row


def check_disk(disk):
    """The installed root as the host reads it."""
    try:
        fs = ufs.Ufs.open(disk, "a")
        if fs.read("/etc/fstab") != fs.read("/etc/fstab.rp06"):
            raise InstallError("/etc/fstab is not /etc/fstab.rp06")
        dev = fs.listdir("/dev")
        for want in ["console", "drum", "mem", "kmem", "null", "tty"] + \
                [f"tty0{i}" for i in range(8)] + ["ttyp0", "ptyp0"]:
            if want not in dev:
                raise InstallError(f"/dev/{want} missing (MAKEDEV)")
        for f in ("/vmunix", "/boot", "/etc/init", "/etc/rc", "/bin/sh", "/bin/csh"):
            if fs.stat(f).kind() != ufs.IFREG:
                raise InstallError(f"{f} is not a regular file")
        usr = ufs.Ufs.open(disk, "g")
        if sorted(usr.listdir("/")) != [".", "..", "lost+found"]:
            raise InstallError("hp0g is not the new, empty /usr")
    except ufs.UfsError as e:
        raise InstallError(f"the installed disk: {e}") from None


def install(args, log):
    dist_sums = mkdist.check(args.dist)  # before anything else
    if not os.access(args.spamctl, os.X_OK):
        raise InstallError(f"{args.spamctl}: no spamctl there (build the tree, or --spamctl)")
    want = inputs_digest(dist_sums, args.spamctl, args.trace)
    record = args.disk + ".inputs"
    if args.reuse and os.path.exists(args.disk) and os.path.exists(record):
        try:
            had = json.load(open(record))
        except (OSError, ValueError):
            had = None
        if had and had.get("inputs") == want:
            log(f"install: {args.disk} reused (made from the same inputs)")
            return had
    args.made_work = not os.path.isdir(args.work)
    os.makedirs(args.work, exist_ok=True)
    # what an earlier (perhaps failed) install left is replaced, not mixed in
    for stale in [record, args.disk, os.path.join(args.work, "dist.tap")] + \
            [os.path.join(args.work, s[0] + ext) for s in STEPS
             for ext in (".log", ".state.json", ".spam")]:
        if os.path.exists(stale):
            os.remove(stale)
    tape = os.path.join(args.work, "dist.tap")
    partial = args.disk + ".partial"
    mkdist.build_tape(args.dist, tape)
    mkdist.new_rp06(partial)
    args.partial = partial
    log(f"install: 4.3BSD from {args.dist} onto {args.disk} (transcripts in {args.work})")
    rows = [run_step(args.spamctl, i, s, tape, partial, args.work, args.trace, log, args.progress)
            for i, s in enumerate(STEPS)]
    check_disk(partial)
    os.replace(partial, args.disk)
    done = {"inputs": want, "steps": rows, "boot_todr": BOOT_TODR}
    with open(record + ".tmp", "w") as f:
        json.dump(done, f, indent=1)
    os.replace(record + ".tmp", record)
    total = sum(r["wall_s"] for r in rows)
    log(f"install: done in {total:.1f} s wall; {args.disk} boots multi-user: "
        f"spamctl run --boot rp0 --attach rp0={args.disk} --todr {BOOT_TODR} "
        f"--max-cycles unlimited")
    return done


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="See vax/guest/bsd43/README.md.")
    ap.add_argument("disk", metavar="DISK", nargs="?")
    ap.add_argument("--dist", default=os.path.join(os.path.dirname(SOURCE_ROOT),
                                                   "shared", "bsd43"))
    ap.add_argument("--spamctl", default=None)
    ap.add_argument("--work", default=None)
    ap.add_argument("--trace", action="store_true")
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--key", action="store_true")
    args = ap.parse_args()
    if args.key:
        try:
            sums = mkdist.check(args.dist)
            spamctl = os.path.abspath(args.spamctl or default_spamctl())
            if not os.access(spamctl, os.X_OK):
                raise InstallError(f"{spamctl}: no spamctl there (build the tree, or --spamctl)")
            print(inputs_key(inputs_digest(sums, spamctl, args.trace)))
        except (InstallError, mkdist.DistError, OSError) as e:
            print(f"install.py: {e}", file=sys.stderr)
            sys.exit(1)
        return
    if not args.disk:
        ap.error("give the DISK to install onto (or --key)")
    args.spamctl = os.path.abspath(args.spamctl or default_spamctl())
    args.work = args.work or args.disk + ".work"
    log = (lambda s: None) if args.quiet else (lambda s: print(s, flush=True))
    parent = os.path.dirname(os.path.abspath(args.disk))
    if not os.path.isdir(parent):  # as any tool: a missing directory is the user's to make
        print(f"install.py: {parent}: no such directory (make it first)", file=sys.stderr)
        sys.exit(1)
    args.partial = None
    try:
        with lock_file(args.disk + ".lock"):
            install(args, log)
    except (InstallError, mkdist.DistError, OSError) as e:
        # an OSError without a file name (a full disk) says what was written
        msg = str(e) if not isinstance(e, OSError) or e.filename else \
            f"{args.disk} and {args.work}: {e.strerror}"
        print(f"install.py: {msg}{cleanup(args)}", file=sys.stderr)
        sys.exit(1)


def cleanup(args):
    """After a failure: the half-made disk goes; the work directory stays
    only for the transcripts it holds.  What the message should add."""
    if args.partial and os.path.exists(args.partial):
        os.remove(args.partial)
    logs = [s[0] + ".log" for s in STEPS
            if os.path.exists(os.path.join(args.work, s[0] + ".log"))]
    if logs:
        return f" (the transcripts are kept in {args.work}; the next install replaces them)"
    tape = os.path.join(args.work, "dist.tap")
    if os.path.exists(tape):
        os.remove(tape)
    if getattr(args, "made_work", False) and os.path.isdir(args.work) and \
            not os.listdir(args.work):
        os.rmdir(args.work)
    return ""


class lock_file:
    """One installer per disk at a time (tests may start together); the
    lock file is removed when done, whatever happened.  A waiter that
    acquired a lock whose file was removed meanwhile takes the new one."""

    def __init__(self, path):
        self.path = path

    def __enter__(self):
        while True:
            f = open(self.path, "w")
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                same = os.stat(self.path).st_ino == os.fstat(f.fileno()).st_ino
            except FileNotFoundError:
                same = False
            if same:
                self.f = f
                return self
            f.close()

    def __exit__(self, *exc):
        try:
            os.remove(self.path)
        except FileNotFoundError:
            pass
        self.f.close()
        return False


if __name__ == "__main__":
    main()
