#!/usr/bin/env python3
"""The host drain and the trace file (spam/TRACE-FORMAT.md §4).

usage: trace_test.py VASM SPAMCTL PROGDIR

- markers.s with -o: header fields, 140001 marker records (longer than the
  buffer), alternating enabled/disabled, instruction counter stepping,
  PSL<31:16>, no drops; the same run twice is byte-identical;
- --no-rei-trace / --no-cache-xlate in the header flags and class mask;
- no drain between slices (--drain-every beyond the run): the buffer fills,
  tracing stops itself, drops are counted in the header.
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib


def header(b):
    assert b[:8] == b"SPAMTRC\0", b[:8]
    f = {}
    (f["version"], f["hsize"], f["flags"], f["cycle_ps"], f["nicr"], f["bufrec"],
     f["mask"], f["seed"], f["crc"], f["ulen"], f["dropped"], f["records"]) = \
        struct.unpack_from("<HHIIiIIQIIQQ", b, 8)
    f["guest"] = b[64:96].rstrip(b"\0").decode()
    return f


def records(b):
    return [struct.unpack_from("<II", b, o) for o in range(128, len(b), 8)]


def main():
    vasm, spamctl, progdir = sys.argv[1:4]
    fails = []

    def check(cond, what):
        if not cond:
            fails.append(what)

    with tempfile.TemporaryDirectory() as td:
        binf = os.path.join(td, "markers.bin")
        subprocess.run([vasm, "--raw", "--base", "0x1000", "-o", binf,
                        os.path.join(progdir, "markers.s")], check=True)

        def run(name, *extra):
            out = os.path.join(td, name)
            r = subprocess.run([spamctl, "run", "--raw", binf, "--load-at", "0x1000",
                                "-o", out, "--max-cycles", "50000000"] + list(extra),
                               capture_output=True, text=True)
            check(r.returncode == 0, "%s: exit %d %s" % (name, r.returncode, r.stderr))
            check(r.stdout.startswith("halted: HALT instruction"), "%s: %s" % (name, r.stdout))
            return open(out, "rb").read()

        a = run("a.spam")
        h = header(a)
        recs = records(a)
        check(h["version"] == 2 and h["hsize"] == 128, "version/size %r" % h)
        # version 2: CRC-32 of the header (its CRC field as zero) and the records
        crc = struct.unpack_from("<I", a, 96)[0]
        check(crc == zlib.crc32(a[:96] + bytes(4) + a[100:]), "file CRC %#x" % crc)
        check(h["flags"] == 0x7, "flags %#x (complete, REI, xlate)" % h["flags"])
        check(h["cycle_ps"] == 80000 and h["nicr"] == -10000, "timing %r" % h)
        check(h["bufrec"] == 131072, "buffer records %d" % h["bufrec"])
        check(h["mask"] == 0x7E, "class mask %#x" % h["mask"])
        check(h["crc"] != 0 and h["ulen"] > 0, "microcode digest %r" % h)
        check(h["guest"] == "markers.bin", "guest name %r" % h["guest"])
        check(h["dropped"] == 0, "dropped %d" % h["dropped"])
        check(len(recs) == 140001 == h["records"], "records %d / %d" % (len(recs), h["records"]))
        bad = 0
        for i, (w0, w1) in enumerate(recs):
            want = 0x6001 if i % 2 == 0 else 0x6002
            if w1 != (0x041F0000 | want):
                bad += 1
            # ICNT: the loop is DISABLE, ENABLE, SOBGTR (3 IRDs per pair)
            if i >= 1 and (w0 & 0xFFFF) != (1 + 3 * ((i - 1) // 2) + (i - 1) % 2) & 0xFFFF:
                bad += 1
        check(bad == 0, "%d malformed marker records" % bad)
        b = run("b.spam")
        check(a == b, "same run twice: traces differ")

        c = header(run("c.spam", "--no-rei-trace", "--no-cache-xlate"))
        check(c["flags"] == 0x1 and c["mask"] == 0x5E, "options: flags %#x mask %#x" % (c["flags"], c["mask"]))
        d = run("d.spam", "--no-cache-xlate")
        check(records(d) == recs, "translation off: different records")

        e = run("e.spam", "--drain-every", "1000000000")
        he = header(e)
        check(len(records(e)) == 131072, "full buffer: %d records" % len(records(e)))
        check(he["dropped"] > 0, "full buffer: no drops counted")
    for f in fails:
        print("FAIL", f)
    print("trace_test: %s" % ("FAIL" if fails else "ok"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
