#!/usr/bin/env python3
"""Builds 4.3BSD's distribution tape as a SIMH .tap image from the three
tape files of the distribution directory (../shared/bsd43, or one given),
after checking their SHA-256 sums against the directory's SHA256SUMS:
file 1 stand (512-byte records), file 2 miniroot and file 3 rootdump
(10240-byte records), each followed by a tape mark, and a second tape mark
at the end.  Optionally creates an empty RP06 image.

    mkdist.py DIST_DIR OUT.tap [--rp06 DISK.img]

As a module: check(dist) -> {name: sha256}, build_tape(dist, out),
new_rp06(path), tp_file(stand_bytes, name).
"""
import gzip
import hashlib
import os
import struct
import sys

RP06_BYTES = 815 * 19 * 22 * 512
TAPE_FILES = (("stand.gz", 512), ("miniroot.gz", 10240), ("rootdump.gz", 10240))
TAPE_BOOT_BLOCKS = 7


class DistError(Exception):
    pass


def read_sums(dist):
    path = os.path.join(dist, "SHA256SUMS")
    try:
        with open(path, "rb") as f:
            lines = f.read().decode("utf-8").splitlines()
    except OSError as e:
        raise DistError(f"{path}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise DistError(f"{path}: not a text file (byte {e.start} is not UTF-8)") from None
    table = {}
    for n, line in enumerate(lines, 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 2 or len(parts[0]) != 64:
            raise DistError(f"{path}:{n}: not 'SHA256 NAME'")
        table[parts[1].lstrip("*")] = parts[0].lower()
    return table


def check(dist):
    """The three tape files' SHA-256 sums, checked against SHA256SUMS."""
    want, got = read_sums(dist), {}
    for name, _ in TAPE_FILES:
        path = os.path.join(dist, name)
        if name not in want:
            raise DistError(f"{dist}/SHA256SUMS: no sum for {name}")
        try:
            raw = open(path, "rb").read()
        except OSError as e:
            raise DistError(f"{path}: {e.strerror}") from None
        h = hashlib.sha256(raw).hexdigest()
        if h != want[name]:
            raise DistError(f"{path}: SHA-256 does not match SHA256SUMS")
        got[name] = h
    return got


def _tape_file(out, data, recsize):
    for i in range(0, len(data), recsize):
        rec = data[i:i + recsize]
        hdr = struct.pack("<I", len(rec))
        out.write(hdr + rec + (b"\0" if len(rec) & 1 else b"") + hdr)
    out.write(struct.pack("<I", 0))


def build_tape(dist, tap):
    check(dist)
    files = []
    for name, rec in TAPE_FILES:
        try:
            files.append((gzip.decompress(open(os.path.join(dist, name), "rb").read()), rec))
        except (OSError, EOFError, gzip.BadGzipFile) as e:
            raise DistError(f"{dist}/{name}: {e}") from None
    try:  # a write error names the tape (a full disk says only "No space")
        with open(tap, "wb") as out:
            for data, rec in files:
                _tape_file(out, data, rec)
            out.write(struct.pack("<I", 0))
    except OSError as e:
        raise DistError(f"{tap}: {e.strerror}") from None


def new_rp06(path):
    try:
        with open(path, "wb") as d:
            d.truncate(RP06_BYTES)
    except OSError as e:
        raise DistError(f"{path}: {e.strerror}") from None


def tp_file(stand, name):
    """A file of the tp archive after the first tape file's boot blocks."""
    arch = stand[TAPE_BOOT_BLOCKS * 512:]
    for e in range(512, 63 * 512, 64):
        ent = arch[e:e + 64]
        if len(ent) == 64 and ent[0] and ent[:32].split(b"\0")[0] == name.encode():
            size = ent[37] << 16 | ent[38] | ent[39] << 8
            addr = ent[44] | ent[45] << 8
            return arch[addr * 512:addr * 512 + size]
    raise DistError(f"no {name} in the tp archive")


def main():
    if len(sys.argv) not in (3, 5) or (len(sys.argv) == 5 and sys.argv[3] != "--rp06"):
        sys.exit(__doc__)
    try:
        build_tape(sys.argv[1], sys.argv[2])
    except (DistError, OSError) as e:
        sys.exit(f"mkdist: {e}")
    if len(sys.argv) == 5:
        new_rp06(sys.argv[4])


if __name__ == "__main__":
    main()
