#!/usr/bin/env python3
"""Issue 32: a person boots 4.3BSD from the checked-in configuration file
and logs in at the console.

usage: bsd43_console.py SPAMCTL BSD43_DIR CONFIG WORKDIR

`spamctl bsd43 -o WORKDIR/console/43bsd.dsk` (the tests' cache, as
bsd43-demo's) gives a disk of one's own; in that folder, on a terminal
(a pty: python3-pexpect), `spamctl run --config CONFIG` boots it
multi-user at the real 8600's pace (the file's `set throttle`): the
output is 7-bit (4.3BSD's parity bit stripped: SIMH's clean text),
`login: root` gets the shell prompt, the guest echoes what is typed (the
terminal is raw: the host echoes nothing) and runs commands, Ctrl-E
stops the machine (exit 0, "stopped: console escape"), and the terminal
is as it was.  The same disk boots again to login -- `spamctl boot
CONFIG --no-throttle --console-8bit`: its clock never ran ahead of the
host's, so fsck -p does not salvage and reboot -- and with
--console-8bit the even parity comes through.
"""
import os
import shutil
import subprocess
import sys
import time

import pexpect


def main():
    spamctl, dist, config, work = sys.argv[1:]
    spamctl, config = os.path.abspath(spamctl), os.path.abspath(config)
    work = os.path.abspath(os.path.join(work, "console"))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ, XDG_CACHE_HOME=os.path.abspath(os.path.join(work, "..", "cache")))
    env.pop("SPAMCTL_BSD43_DIST", None)
    fails = []
    p = subprocess.run([spamctl, "bsd43", "--dist", dist, "-o", os.path.join(work, "43bsd.dsk")],
                       capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"FAIL spamctl bsd43 -o: {p.stdout}{p.stderr}")
    q = subprocess.run([spamctl, "bsd43", "--dist", dist, "-o", os.path.join(work, "43bsd.dsk")],
                       capture_output=True, text=True, env=env)
    if q.returncode != 1 or "--force" not in q.stderr:
        fails.append(f"bsd43 -o onto an existing disk: exit {q.returncode} {q.stderr!r}")

    cmd = f"stty -g > before.txt; {spamctl} run --config {config}; echo rc=$?; stty -g > after.txt"
    t0 = time.monotonic()
    c = pexpect.spawn("/bin/sh", ["-c", cmd], cwd=work, timeout=300, env=env)
    c.expect("login: ")
    print(f"login: after {time.monotonic() - t0:.1f} s")
    boot = c.before
    if any(b >= 0x80 for b in boot):
        fails.append("the boot's console output has bytes with bit 7 set")
    if b"4.3 BSD UNIX (myname.my.domain) (console)" not in boot:
        fails.append(f"no 4.3BSD banner before login: {boot[-300:]!r}")
    c.send("root\r")
    c.expect("myname# ")
    c.send("echo hello from $USER; ls -l /etc/rc\r")
    c.expect("myname# ")
    text = c.before.decode("ascii", "replace")
    print(text)
    if "hello from root" not in text or "2174 Jun  6 13:21 /etc/rc" not in text:
        fails.append(f"the commands' output: {text!r}")
    if "echo hello from $USER" not in text:
        fails.append("the guest did not echo the command line")
    c.send("sync\r")
    c.expect("myname# ")
    c.send("\x05")
    c.expect(r"rc=(\d+)")
    rc = int(c.match.group(1))
    summary = c.before.decode("ascii", "replace")
    c.expect(pexpect.EOF)
    if rc != 0 or "stopped: console escape" not in summary:
        fails.append(f"Ctrl-E: exit {rc}, {summary[-200:]!r}")
    b, a = (open(os.path.join(work, f)).read().strip() for f in ("before.txt", "after.txt"))
    if a != b:
        fails.append(f"the terminal: {b} before, {a} after")

    # the same disk again, spamctl boot FILE, flat out, the raw 8 bits:
    # 4.3BSD's even parity shows
    even = bytes(ch | (0x80 if bin(ch).count("1") % 2 else 0) for ch in b"login: ")
    c = pexpect.spawn(spamctl, ["boot", config, "--no-throttle", "--console-8bit"], cwd=work,
                      timeout=300, env=env)
    i = c.expect([even, b"login: ", pexpect.EOF])
    if i != 0:
        fails.append(f"the second boot with --console-8bit: no login prompt with even parity "
                     f"({i}): {c.before[-300:]!r}")
    c.send("\x05")
    c.expect(pexpect.EOF)
    c.close()
    if c.exitstatus != 0:
        fails.append(f"spamctl boot: exit {c.exitstatus}")
    for f in fails:
        print("FAIL " + f)
    if not fails:
        print("4.3BSD at the console: all checks passed")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
