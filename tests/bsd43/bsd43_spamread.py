#!/usr/bin/env python3
"""Issue 18 item 3: the paper's in-guest reader on the original 4.3BSD.

usage: bsd43_spamread.py SPAMCTL BSD43_DIR WORKDIR

The installed disk (vax/guest/bsd43/install.py --reuse, the same cache as
bsd43-multiuser) boots multi-user under network load (--net-rate 200,
seed 1, de0 up); spamread.c and spamrd.s come off a tar tape, 4.3BSD's
cc/as/ld compile them and `spamread 5` reads the SPAM buffer with
READ_BUFFER in user mode (vax/guest/bsd43/spamread_run.py).  Checks:
 - tar, cc and the reader ran (no guest program died), it read records
   and measured IPL 12 (SCB 0xB0) service times;
 - its histogram (100 us bins, open last bin) equals, bin for bin, the
   host's `spamctl hist --event int:0xB0 --skip M --records R --linear
   100:50` over the records it consumed (M: its ENABLE's marker);
 - its CPU share, measured from the trace (spamread_run.cpu_shares), is
   above 0 and below 50%, and the time accounted adds up to the span.
"""
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GUEST = os.path.join(HERE, "..", "..", "vax", "guest", "bsd43")
sys.path.insert(0, GUEST)
import install  # noqa: E402
import spamread_run  # noqa: E402


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    spamctl, dist, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    disk = os.path.join(work, "rp06.dsk")
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, os.path.join(GUEST, "install.py"), "--dist", dist,
                        "--spamctl", spamctl, "--trace", "--reuse", disk],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL install: {p.stderr.strip()}")
    print(f"install (cached unless the machine changed): {time.monotonic() - t0:.1f} s wall")
    run_dir = os.path.join(work, "spamread")
    shutil.rmtree(run_dir, ignore_errors=True)
    fails = []
    try:
        r = spamread_run.run(spamctl, disk, run_dir)
        print(f"boot, compile, spamread 5, halt: {r['wall']:.1f} s wall")
        text = r["console"]
        session = text[text.find("login: root"):]  # rc's syslogd misses /usr/adm: not ours
        for bad in install.GUEST_DEATHS + ("No such file", "not found", "rror"):
            if bad in session:
                fails.append(f"console shows {bad!r}")
        for want in ("x spamread.c", "x spamrd.s", "spamread: reading the SPAM trace buffer"):
            if want not in text:
                fails.append(f"console lacks {want!r}")
        bins, (nrec, nsamp, _cksum, lost), mean = spamread_run.guest_result(text)
        print(f"spamread: {nrec} records, {nsamp} service times, mean {mean} us, lost {lost}")
        if nrec < 1000 or nsamp < 50:
            fails.append(f"spamread read {nrec} records, {nsamp} samples: too few to mean anything")
        start = spamread_run.reader_start(spamctl, r["trace"])
        hbins, hcount = spamread_run.host_hist(spamctl, r["trace"], start, nrec)
        print(f"host: records {start}..{start + nrec - 1}: {hcount} service times")
        if hbins != bins or hcount != nsamp:
            fails.append(f"histograms differ: guest {sorted(bins.items())} ({nsamp}), "
                         f"host {sorted(hbins.items())} ({hcount})")
        _, whole = spamread_run.host_hist(spamctl, r["trace"], 0, start + nrec)
        if whole <= hcount:  # --skip must matter: boot, rc and cc ran before
            fails.append(f"hist without --skip counts {whole}, with it {hcount}")
        names = spamread_run.names_file(spamctl, r["disk"], os.path.join(run_dir, "names"))
        rows = spamread_run.decode_rows(spamctl, r["trace"], names)
        acc = spamread_run.cpu_shares(rows, start, nrec)
        span = acc["span"]
        parts = {k: acc[k] for k in ("user", "sys", "interrupt", "other", "idle")}
        print("time of the records (us): " + ", ".join(
            f"{k} {v} ({100 * v / span:.2f}%)" for k, v in parts.items()))
        share = 100 * (acc["user"] + acc["sys"]) / span
        print(f"spamread (pid {acc['pid']}): CPU share {share:.2f}% of {span} us")
        if sum(parts.values()) != span:
            fails.append(f"accounted {sum(parts.values())} us of {span}")
        if not 0 < share < 50:
            fails.append(f"reader's share {share:.2f}% out of (0, 50)")
    except spamread_run.RunError as e:
        fails.append(str(e))
    for f in fails:
        print("FAIL " + f)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
