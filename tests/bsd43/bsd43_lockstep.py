#!/usr/bin/env python3
"""The trace cache's lock-step check (`spamctl run --tcache-check`) on the
original 4.3BSD booted from its disk: the second machine, the plain
interpreter, gets a private copy of the writable disk (made in TMPDIR and
removed once open) and the two are compared after every instruction,
their I/O counts and next device event with them, and their disks
wherever a run returns after the guest wrote.

usage: bsd43_lockstep.py SPAMCTL BSD43_DIR WORKDIR

The cached install boots single-user to the shell's first prompt (a
console script that expects it, then halts: 27.7 M instructions, 110 M
microcycles) in lock step: the run must end at the script's halt with no
difference, the trace cache must have done the work, the copy must be
gone from TMPDIR, and the disk and the state at the end must be a run's
without the check.  The same boot without the check is compared with
the plain interpreter's (--no-tcache): the same state at the halt (the
request logic's stop comes before the next fetch in both).  Then it
boots multi-user to `login:` in lock step (180 M instructions, 817 M
microcycles, the trace cache's arena of 24 MB emptied on the way: twice
since it records an instruction after eight runs, six times when it
recorded at the second: about a minute in the normal build).  Both lock
steps record after eight runs (--tcache-after 8), not the default's 24:
more traces to check."""
import filecmp
import os
import re
import shutil
import subprocess
import sys

from bsd43_cache import cached_install

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "vax", "guest", "bsd43"))
sys.path.insert(0, os.path.join(HERE, "..", "tcache"))
import install  # noqa: E402
from tcache_check_test import check, report  # noqa: E402  (the lock step's other test)


def boot(spamctl, disk, work, extra, flags=2, until="erase ^?, kill ^U, intr ^C"):
    script = os.path.join(work, "lockstep.script")
    with open(script, "w") as f:
        f.write("expect %s\nhalt\n" % until)
    tmp = os.path.join(work, "tmp")
    os.makedirs(tmp, exist_ok=True)
    cmd = [spamctl, "run", "--boot", "rp0", "--boot-flags", str(flags), "--attach", "rp0=" + disk,
           "--memory", str(install.MEMORY_MB), "--todr", str(install.BOOT_TODR),
           "--max-cycles", "unlimited", "--console-script", script,
           "--console-out", os.path.join(work, "lockstep-con.txt"), "--tcache-stats",
           "--dump-state", "-"] + extra
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=1800,
                       env=dict(os.environ, TMPDIR=tmp))
    m = re.search(r'"reason": "([^"]*)"', p.stdout)
    return p, (m.group(1) if m else None), tmp


def main():
    spamctl, dist, work = sys.argv[1:4]
    disk, _ = cached_install(spamctl, dist, work, quiet=True)
    a, b = os.path.join(work, "lockstep-a.dsk"), os.path.join(work, "lockstep-b.dsk")
    shutil.copyfile(disk, a)
    shutil.copyfile(disk, b)
    # (recording after eight runs, not the default 24: more traces checked)
    p, reason, tmp = boot(spamctl, a, work, ["--tcache-check", "--tcache-after", "8"])
    check(reason is not None and reason.startswith("console script")
          and "halt" in reason,
          "the boot runs to the shell's prompt in lock step (stop: %s)" % reason,
          p.stderr[-800:])
    m = re.search(r"tcache: (\d+) lookups, (\d+) hits .*?(\d+) traces recorded", p.stderr)
    check(m is not None and int(m.group(2)) > int(m.group(1)) * 9 // 10
          and int(m.group(3)) > 5000,
          "the trace cache did the work (%s)" % (m and m.group(0)))
    check(os.listdir(tmp) == [], "the second machine's copy of the disk is gone from TMPDIR "
          "(%s)" % os.listdir(tmp))
    q, reason2, _ = boot(spamctl, b, work, [])
    check(reason2 == reason and filecmp.cmp(a, b, shallow=False),
          "the disk is the one a run without the check leaves (stop: %s)" % reason2)
    check(q.stdout != "" and q.stdout == p.stdout,
          "the state at the halt is the one without the check",
          "%s\n%s" % (p.stdout[:600], q.stdout[:600]))
    shutil.copyfile(disk, b)
    r, reason3, _ = boot(spamctl, b, work, ["--no-tcache"])
    check(r.stdout != "" and r.stdout == q.stdout,
          "the plain interpreter halts in the same state (stop: %s)" % reason3,
          "%s\n%s" % (q.stdout[:600], r.stdout[:600]))
    shutil.copyfile(disk, a)
    # (an arena of 24 MB, not the default: it fills on the way)
    p, reason, tmp = boot(spamctl, a, work, ["--tcache-check", "--tcache-mb", "24",
                                             "--tcache-after", "8"], 0, "login: ")
    m = re.search(r"tcache: .*?(\d+) traces recorded.*?(\d+) flushes", p.stderr)
    check(reason is not None and reason.startswith("console script") and "halt" in reason
          and m is not None and int(m.group(2)) > 0,
          "the multi-user boot runs to login: in lock step, its arena emptied on the way "
          "(stop: %s; %s)" % (reason, m and m.group(0)), p.stderr[-800:])
    os.remove(a)
    os.remove(b)
    return report()


if __name__ == "__main__":
    sys.exit(main())
