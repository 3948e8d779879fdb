#!/usr/bin/env python3
"""The in-guest SPAM reader on 4.3BSD (issue 18): run it and read its
results, for tests/bsd43/bsd43_spamread.py and demo.py.

run(): a copy of the installed disk boots multi-user with the network at
RATE frames/s (--net-rate, seed SEED), traced with the host drain in tap
mode (so the guest's READ_BUFFER sees every record too); spamread.script
logs in, makes the tape's devices, brings de0 up, takes spamread.c and
spamrd.s off a tar tape on tu0 (tartape.py), compiles them with 4.3BSD's
cc and runs `spamread 5`, then halts.

The records spamread consumed start at the "tracing enabled" marker its
ENABLE wrote (the trace's second one: the console writes the first at
power-on) and are as many as it prints (spamread-end R ...), so the
host's `spamctl hist --skip M --records R` decodes exactly them.
"""
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import install  # noqa: E402
import tartape  # noqa: E402
import timeacct  # noqa: E402

SCRIPT = os.path.join(HERE, "spamread.script")
SOURCES = [os.path.join(HERE, "spamread", f) for f in ("spamread.c", "spamrd.s")]
READER = "/tmp/spamread"  # where spamread.script compiles it
WIDTH, NBINS = 100, 50
ENABLED = 0x6001


class RunError(Exception):
    pass


def run(spamctl, installed_disk, work, rate=200, seed=1):
    """Boot a copy of the disk with spamread; returns a dict: console
    text, trace, disk (the copy, after the run), wall seconds, stdout."""
    os.makedirs(work, exist_ok=True)
    disk, tape = os.path.join(work, "spamread.dsk"), os.path.join(work, "spamread.tap")
    trace, log = os.path.join(work, "spamread.spam"), os.path.join(work, "spamread.log")
    shutil.copyfile(installed_disk, disk)
    tartape.write_tape(tape, SOURCES)
    cmd = [spamctl, "run", "--boot", "rp0", "--attach", f"rp0={disk}",
           "--attach", f"tu0:ro={tape}", "--memory", str(install.MEMORY_MB),
           "--todr", str(install.BOOT_TODR), "--max-cycles", "unlimited",
           "--expect-timeout", "120", "--console-script", SCRIPT, "--console-out", log,
           "-o", trace, "--drain-tap", "--net-rate", str(rate), "--seed", str(seed)]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    text = install.console_text(log) if os.path.exists(log) else ""
    if p.returncode != 0:
        raise RunError(f"spamctl run exit {p.returncode}: {p.stderr.strip()}\n{text[-2000:]}")
    return {"console": text, "trace": trace, "disk": disk, "wall": wall, "stdout": p.stdout}


def guest_result(console):
    """spamread's bins {lo: count} and its end line (R, N, checksum, lost),
    mean (us) or None."""
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


def decode_rows(spamctl, trace, names=None, *filters):
    cmd = [spamctl, "decode", "--csv"] + (["--names", names] if names else []) + list(filters) + [trace]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RunError(f"spamctl decode exit {p.returncode}: {p.stderr.strip()}")
    return list(csv.DictReader(io.StringIO(p.stdout)))


def reader_start(spamctl, trace):
    """Index of the record spamread began with: the second 'enabled' marker."""
    marks = [int(r["index"]) for r in decode_rows(spamctl, trace, None, "--class", "marker")
             if int(r["event"]) == ENABLED]
    if len(marks) < 2:
        raise RunError(f"no 'tracing enabled' marker from spamread in the trace ({marks})")
    return marks[1]


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


def names_file(spamctl, disk, out, *extra):
    """`spamctl names extract --disk DISK [EXTRA...] -o OUT`; returns OUT."""
    p = subprocess.run([spamctl, "names", "extract", "--disk", disk, *extra, "-o", out],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RunError(f"spamctl names extract exit {p.returncode}: {p.stderr.strip()}")
    return out


def cpu_shares(rows, start, records, reader=READER, window=None):
    """Where the time of the records [start, start+records) went
    (timeacct.py's accounting, or `window` when the caller has it): the
    reader's user mode, its kernel work (system calls, faults, resuming it),
    interrupts (any process), other processes, idle."""
    w = window or timeacct.account(rows, start, records)
    if not w.span:
        raise RunError("no events in spamread's records")
    pids = w.pids_of(reader)
    if len(pids) != 1:
        raise RunError(f"the reader {reader} is not one process in the records: pids {pids}")
    pid = pids.pop()
    others = sum(w.cpu(p) for p in set(w.user) | set(w.sys) if p != pid)
    return {"user": w.user[pid], "sys": w.sys[pid], "interrupt": sum(w.intr.values()),
            "other": others, "idle": w.idle, "span": w.span, "pid": pid}
