#!/usr/bin/env python3
"""A tar archive on a SIMH .tap tape, for handing files to 4.3BSD
(`tar xf /dev/rmt8` on the TU77, tu0/ht0).

    tartape.py OUT.tap FILE...

The archive holds each FILE under its base name (no directories), in the
ustar layout 4.3BSD's tar reads as its own (it ignores the magic); it is
written in 10240-byte tape records (tar's default blocking factor 20),
then two tape marks (mkdist.py's record framing).
"""
import io
import os
import struct
import sys
import tarfile

RECORD = 10240


def tar_bytes(paths):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for p in paths:
            info = tarfile.TarInfo(os.path.basename(p))
            data = open(p, "rb").read()
            info.size, info.mode, info.mtime = len(data), 0o644, 518400000  # June 1986
            info.uid = info.gid = 0
            info.uname = info.gname = "root"
            tar.addfile(info, io.BytesIO(data))
    data = out.getvalue()
    return data + b"\0" * (-len(data) % RECORD)


def write_tape(out_path, paths):
    data = tar_bytes(paths)
    with open(out_path, "wb") as out:
        for i in range(0, len(data), RECORD):
            hdr = struct.pack("<I", RECORD)
            out.write(hdr + data[i:i + RECORD] + hdr)
        out.write(struct.pack("<I", 0) * 2)


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: tartape.py OUT.tap FILE...\n")
        return 2
    try:
        write_tape(sys.argv[1], sys.argv[2:])
    except OSError as e:
        sys.stderr.write(f"tartape.py: {e}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
