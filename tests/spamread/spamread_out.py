"""The tests' parsers of the in-guest reader's console lines (the bundled
guest's spamread and 4.3BSD's, the same format: vax/guest/README.md) and
of `spamctl hist --linear`: an independent reading of both sides."""
import re
import subprocess

WIDTH, NBINS = 100, 50


class RunError(Exception):
    pass


def guest_result(console):
    """The reader's bins {lo: count}, its end line (R, N, checksum, lost)
    and its mean (us, or None)."""
    bins, end, mean = {}, None, None
    for line in console.splitlines():
        line = line.strip()
        if line.startswith("spamread-bins "):
            for pair in line.split()[1:]:
                m = re.fullmatch(r"(\d+):(\d+)", pair)
                if not m:
                    raise RunError(f"bad bins line: {line}")
                lo, n = int(m.group(1)), int(m.group(2))
                if lo in bins or lo % WIDTH or lo > WIDTH * NBINS or n == 0:
                    raise RunError(f"bad bin {pair}: {line}")
                bins[lo] = n
        m = re.fullmatch(r"spamread-end (\d+) (\d+) ([0-9a-f]{8}) (\d+)", line)
        if m:
            end = (int(m.group(1)), int(m.group(2)), int(m.group(3), 16), int(m.group(4)))
        m = re.fullmatch(r"spamread: min \d+ us, mean (\d+) us, max \d+ us", line)
        if m:
            mean = int(m.group(1))
    if end is None:
        raise RunError("no spamread-end line on the console")
    return bins, end, mean


def host_hist(spamctl, trace, skip, records):
    """`spamctl hist --event int:0xB0 --skip --records --linear 100:50`:
    ({lo: count} non-empty, count)."""
    p = subprocess.run([spamctl, "hist", "--event", "int:0xB0", "--skip", str(skip),
                        "--records", str(records), "--linear", f"{WIDTH}:{NBINS}", trace],
                       capture_output=True, text=True)
    if p.returncode != 0 or p.stderr.strip():
        raise RunError(f"spamctl hist exit {p.returncode}: {p.stderr.strip()}")
    bins, count = {}, 0
    for line in p.stdout.splitlines():
        m = re.fullmatch(r"# .*: count (\d+)", line)
        if m:
            count = int(m.group(1))
        m = re.fullmatch(r"bin (\d+) (\d+)", line)
        if m and int(m.group(2)):
            bins[int(m.group(1))] = int(m.group(2))
    return bins, count
