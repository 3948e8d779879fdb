#!/usr/bin/env python3
"""Builds 4.3BSD's distribution tape as a SIMH .tap image from the three
tape files in ../shared/bsd43 (or a directory given), after checking their
SHA-256 sums: file 1 stand (512-byte records), file 2 miniroot and file 3
rootdump (10240-byte records), each followed by a tape mark, and a second
tape mark at the end.  Optionally creates an empty RP06 image.

    mkdist.py DIST_DIR OUT.tap [--rp06 DISK.img]
"""
import gzip
import hashlib
import struct
import sys

RP06_BYTES = 815 * 19 * 22 * 512


def sums(dist):
    table = {}
    with open(f"{dist}/SHA256SUMS") as f:
        for line in f:
            h, name = line.split()
            table[name] = h
    return table


def tape_file(out, data, recsize):
    for i in range(0, len(data), recsize):
        rec = data[i:i + recsize]
        hdr = struct.pack("<I", len(rec))
        out.write(hdr + rec + (b"\0" if len(rec) & 1 else b"") + hdr)
    out.write(struct.pack("<I", 0))


def main():
    if len(sys.argv) not in (3, 5) or (len(sys.argv) == 5 and sys.argv[3] != "--rp06"):
        sys.exit(__doc__)
    dist, tap = sys.argv[1], sys.argv[2]
    want = sums(dist)
    files = []
    for name, rec in (("stand.gz", 512), ("miniroot.gz", 10240), ("rootdump.gz", 10240)):
        raw = open(f"{dist}/{name}", "rb").read()
        if hashlib.sha256(raw).hexdigest() != want.get(name):
            sys.exit(f"{dist}/{name}: SHA-256 does not match SHA256SUMS")
        files.append((gzip.decompress(raw), rec))
    with open(tap, "wb") as out:
        for data, rec in files:
            tape_file(out, data, rec)
        out.write(struct.pack("<I", 0))
    if len(sys.argv) == 5:
        with open(sys.argv[4], "wb") as d:
            d.truncate(RP06_BYTES)


if __name__ == "__main__":
    main()
