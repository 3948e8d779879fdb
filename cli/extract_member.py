#!/usr/bin/env python3
"""Copies one member of a tar archive to a file: extract_member.py ARCHIVE MEMBER OUT.
The build uses it to take 4.3BSD's sys/syscalls.c from the distribution's
kernel source (../shared/bsd43/srcsys.tar.gz) for `spamctl names extract`."""
import sys
import tarfile

if len(sys.argv) != 4:
    sys.exit(__doc__)
archive, member, out = sys.argv[1:]
with tarfile.open(archive) as t:
    for m in t.getmembers():
        if m.name.lstrip("./") == member and m.isfile():
            data = t.extractfile(m).read()
            break
    else:
        sys.exit(f"{archive}: no {member}")
with open(out, "wb") as f:
    f.write(data)
