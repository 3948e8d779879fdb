"""The tests' own 4.3BSD install, shared by the scripts of tests/bsd43:
WORKDIR/rp06.dsk made by vax/guest/bsd43/install.py --reuse --trace (it
installs again only when the distribution, the spamctl binary or the
installer changed)."""
import os
import subprocess
import sys

GUEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "vax", "guest",
                     "bsd43")


def cached_install(spamctl, dist, work, quiet=False):
    """WORK/rp06.dsk, installed or reused, and the installer's output; a
    failed install ends the test (FAIL install: its error)."""
    os.makedirs(work, exist_ok=True)
    disk = os.path.join(work, "rp06.dsk")
    p = subprocess.run([sys.executable, os.path.join(GUEST, "install.py"), "--dist", dist,
                        "--spamctl", spamctl, "--trace", "--reuse"] +
                       (["--quiet"] if quiet else []) + [disk],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL install: {p.stderr.strip()}")
    return disk, p.stdout
