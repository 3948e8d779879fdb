#!/usr/bin/env python3
"""The console's host side (issue 32): spamctl run's console terminal.

usage: console_tty.py SPAMCTL ECHO.elf WORKDIR

ECHO.elf (console_echo.s) prints a banner with bit 7 set on every
character and echoes what is typed, again with bit 7 set; '!' halts.
Checked:
 - the 7-bit filter: to a pipe, to --console-out FILE, and raw 8 bits with
   --console-8bit;
 - on a terminal (a pty, python3-pexpect): clean text; the terminal in raw
   mode during the run (no ICANON, no ECHO: typed characters reach the
   guest one by one, unechoed by the host); Ctrl-E stops the machine
   cleanly (exit 0, "console escape", the trace complete) and the terminal
   is as it was (`stty -g` before and after); --console-escape ^X and none;
 - SIGTERM and SIGHUP during an interactive run: exit 143 and 129, the
   terminal restored, the trace complete;
 - SIGQUIT (a fatal signal, not caught): the terminal restored before its
   default action kills the run; ignored by spamctl's parent, it stays
   ignored and the terminal raw;
 - --throttle on a terminal: emulated time no ahead of wall time.
"""
import atexit
import os
import re
import signal
import subprocess
import sys
import termios
import time

import pexpect

fails = []
spawned = []  # the spamctls wrapped() started: none outlives the test


@atexit.register
def _reap():
    for c, pid in spawned:
        if pid is not None:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass  # (ended already)
        c.close(force=True)


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        fails.append(what)


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def tty_attrs(pid):
    """The termios of the terminal on pid's stdin, read from its slave."""
    fd = os.open(os.readlink(f"/proc/{pid}/fd/0"), os.O_RDWR | os.O_NOCTTY)
    try:
        return termios.tcgetattr(fd)
    finally:
        os.close(fd)


def raw(a):
    return not (a[3] & termios.ICANON) and not (a[3] & termios.ECHO) and not (a[3] & termios.ISIG)


def wrapped(spamctl, args, work, pre=""):
    """spamctl under sh in a pty (sh runs `pre` first), stty -g before and
    after: (child, pid of spamctl)."""
    cmd = (pre + "stty -g > before.txt; " + " ".join([spamctl] + args) +
           "; echo rc=$?; stty -g > after.txt")
    c = pexpect.spawn("/bin/sh", ["-c", cmd], cwd=work, timeout=60)
    c.expect("console echo ready")
    kids = []
    for _ in range(50):
        kids = children(c.pid)
        if kids:
            break
        time.sleep(0.05)
    spawned.append((c, kids[0] if kids else None))
    return spawned[-1]


def same_tty(work):
    b = open(os.path.join(work, "before.txt")).read().strip()
    a = open(os.path.join(work, "after.txt")).read().strip()
    return a == b and b != ""


def main():
    spamctl, echo, work = sys.argv[1:]
    spamctl, echo, work = os.path.abspath(spamctl), os.path.abspath(echo), os.path.abspath(work)
    os.makedirs(work, exist_ok=True)
    os.chdir(work)
    # spamctl keeps a signal ignored by whoever started it (as a shell's
    # background job ignores SIGINT and SIGQUIT); the checks below are of
    # a terminal that hangs up and of signals that reach it, so its
    # spamctl must not inherit them ignored (`nohup tests/run-all.sh`
    # ignores SIGHUP, `tests/run-all.sh &` in a script SIGQUIT)
    for sig in (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)

    # ---- the 7-bit filter (no terminal) ----
    p = subprocess.run([spamctl, "run", echo, "--console-in", "ab!"], capture_output=True)
    check(p.returncode == 0 and p.stdout.startswith(b"console echo ready\r\nab")
          and all(b < 0x80 for b in p.stdout), "7-bit console output on a pipe")
    p = subprocess.run([spamctl, "run", echo, "--console-in", "ab!", "--console-out", "con.txt"],
                       capture_output=True)
    data = open("con.txt", "rb").read()
    check(p.returncode == 0 and data == b"console echo ready\r\nab", f"7-bit --console-out: {data!r}")
    p = subprocess.run([spamctl, "run", echo, "--console-in", "ab!", "--console-8bit",
                        "--console-out", "con8.txt"], capture_output=True)
    data = open("con8.txt", "rb").read()
    check(data == bytes(b | 0x80 for b in b"console echo ready\r\nab"), "--console-8bit: raw bytes")

    # ---- interactive: raw mode, echo by the guest, Ctrl-E ----
    c, pid = wrapped(spamctl, ["run", echo, "--max-cycles", "unlimited", "-o", "esc.spam",
                               "--throttle"], work)
    check(pid is not None, "spamctl runs under the shell")
    banner = c.before + c.after
    check(all(b < 0x80 for b in banner), "the banner reaches the terminal 7-bit")
    c.send("hello")  # no Enter: a cooked terminal would hold it back
    c.expect("hello")
    check(True, "typed characters reach the guest one by one and come back")
    a = tty_attrs(pid)
    check(raw(a), "the terminal is raw during the run")
    time.sleep(1.0)
    c.send("\x05")
    c.expect(r"rc=(\d+)")
    rc = int(c.match.group(1))
    out = c.before.decode("ascii", "replace")
    c.expect(pexpect.EOF)
    check(rc == 0 and "stopped: console escape" in out, f"Ctrl-E: exit {rc}, {out.strip()[-120:]!r}")
    check(same_tty(work), "the terminal after Ctrl-E is as before (stty -g)")
    st = subprocess.run([spamctl, "stat", "esc.spam"], capture_output=True, text=True)
    check(st.returncode == 0 and not st.stderr, f"the trace is complete after Ctrl-E: {st.stderr.strip()}")
    m = re.search(r"; (\d+) microcycles", out)
    emulated = int(m.group(1)) * 80e-9 if m else 1e9
    check(emulated < 4.0, f"--throttle: {emulated:.2f} s emulated in about a second of wall time")

    # ---- another escape, and none ----
    c, pid = wrapped(spamctl, ["run", echo, "--max-cycles", "unlimited", "--console-escape", "^X"],
                     work)
    c.send("\x05q")  # Ctrl-E is the guest's now: echoed (with bit 7, stripped)
    c.expect("q")
    check(c.before.endswith(b"\x05"), "with ^X, Ctrl-E goes to the guest")
    c.send("\x18")
    c.expect(r"rc=(\d+)")
    check(int(c.match.group(1)) == 0 and b"console escape" in c.before, "--console-escape ^X stops")
    c.expect(pexpect.EOF)
    c, pid = wrapped(spamctl, ["run", echo, "--max-cycles", "unlimited", "--console-escape", "none"],
                     work)
    c.send("\x05!")  # '!' halts the guest
    c.expect(r"rc=(\d+)")
    check(int(c.match.group(1)) == 0 and b"HALT instruction" in c.before,
          "--console-escape none: the guest halts by itself")
    c.expect(pexpect.EOF)

    # ---- SIGTERM: stopped cleanly, terminal restored ----
    c, pid = wrapped(spamctl, ["run", echo, "--max-cycles", "unlimited", "-o", "term.spam"], work)
    check(raw(tty_attrs(pid)), "raw before SIGTERM")
    os.kill(pid, signal.SIGTERM)
    c.expect(r"rc=(\d+)")
    rc = int(c.match.group(1))
    c.expect(pexpect.EOF)
    check(rc == 143, f"SIGTERM: exit {rc} (143)")
    check(same_tty(work), "the terminal after SIGTERM is as before (stty -g)")
    st = subprocess.run([spamctl, "stat", "term.spam"], capture_output=True, text=True)
    check(st.returncode == 0 and not st.stderr, f"the trace is complete after SIGTERM: {st.stderr.strip()}")

    # ---- SIGHUP (the terminal hangs up): stopped cleanly too ----
    c, pid = wrapped(spamctl, ["run", echo, "--max-cycles", "unlimited", "-o", "hup.spam"], work)
    os.kill(pid, signal.SIGHUP)
    c.expect(r"rc=(\d+)")
    rc = int(c.match.group(1))
    c.expect(pexpect.EOF)
    check(rc == 129 and same_tty(work), f"SIGHUP: exit {rc} (129), the terminal restored")
    st = subprocess.run([spamctl, "stat", "hup.spam"], capture_output=True, text=True)
    check(st.returncode == 0 and not st.stderr, "the trace is complete after SIGHUP")

    # ---- a fatal signal: the terminal restored before it kills ----
    c, pid = wrapped(spamctl, ["run", echo, "--max-cycles", "unlimited"], work)
    check(raw(tty_attrs(pid)), "raw before SIGQUIT")
    os.kill(pid, signal.SIGQUIT)
    c.expect(r"rc=(\d+)")
    rc = int(c.match.group(1))
    c.expect(pexpect.EOF)
    check(rc == 128 + signal.SIGQUIT and same_tty(work),
          f"SIGQUIT: exit {rc} ({128 + signal.SIGQUIT}: killed by it), the terminal restored")

    # ---- SIGQUIT ignored by the parent (a background job): it stays
    # ignored, and the run keeps its raw terminal ----
    c, pid = wrapped(spamctl, ["run", echo, "--max-cycles", "unlimited"], work, pre="trap '' QUIT; ")
    os.kill(pid, signal.SIGQUIT)
    time.sleep(0.5)
    alive = os.path.exists(f"/proc/{pid}") and children(c.pid) == [pid]
    check(alive and raw(tty_attrs(pid)), "SIGQUIT ignored by the parent: the run goes on, still raw")
    os.kill(pid, signal.SIGTERM)
    c.expect(r"rc=(\d+)")
    rc = int(c.match.group(1))
    c.expect(pexpect.EOF)
    check(rc == 143 and same_tty(work), f"then SIGTERM: exit {rc} (143), the terminal restored")

    print(f"{len(fails)} failed" if fails else "console: all checks passed")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
