#!/usr/bin/env python3
"""Writes the seeds of the UFS walker's fuzz target (fuzz_ufs_walk.c):
small 4.2BSD file systems as `spamctl names extract` and the console's
boot read them (vax/io/io_bootfile.c), and the damaged trees of issue 33's
tests (tests/cli/nothing_lost2.sh, tests/io/test_media.c): a directory
entry pointing back at the root, a root directory 16 MB long, a
superblock claiming more than the medium holds.

    make_ufs_seeds.py OUTDIR

Layout: 512-byte fragments, 4096-byte blocks, one cylinder group of 32
inodes (the table at fragment 24), a fragment per directory or file from
fragment 32 on: /, /bin, /bin/sh, /etc, /etc/init, /vmunix, /a/b/c/deep.
"""
import os
import struct
import sys

FSIZE, BSIZE, IBLKNO, IPG, DATA = 512, 4096, 24, 32, 32


def image(tree_hook=None, nfrags=None):
    files = {}  # path -> (ino, kind, content)
    names = ["/", "/bin", "/bin/sh", "/etc", "/etc/init", "/vmunix", "/a", "/a/b", "/a/b/c",
             "/a/b/c/deep"]
    dirs = {"/", "/bin", "/etc", "/a", "/a/b", "/a/b/c"}
    ino = {p: 2 + i for i, p in enumerate(names)}
    frag = {p: DATA + i for i, p in enumerate(names)}
    size = DATA + len(names) + 2
    img = bytearray(size * FSIZE)
    # the superblock
    sb = 8192
    for off, v in ((16, IBLKNO), (24, 0), (28, 0xFFFFFFFF), (36, nfrags or size),
                   (40, (nfrags or size) - DATA), (44, 1), (48, BSIZE), (52, FSIZE),
                   (56, BSIZE // FSIZE), (116, BSIZE // 4), (120, BSIZE // 128), (184, IPG),
                   (188, size), (1372, 0x011954)):
        struct.pack_into("<I", img, sb + off, v)

    def dinode(i):
        return IBLKNO * FSIZE + i * 128

    for p in names:
        if p in dirs:
            kids = [(".", ino[p]), ("..", ino[os.path.dirname(p) if p != "/" else "/"])]
            kids += [(os.path.basename(q), ino[q]) for q in names
                     if q != "/" and os.path.dirname(q) == p]
            blk = bytearray()
            for k, (n, i) in enumerate(kids):
                rec = 8 + (len(n) + 4) // 4 * 4
                if k == len(kids) - 1:
                    rec = 512 - len(blk)
                blk += struct.pack("<IHH", i, rec, len(n)) + n.encode()
                blk += bytes(rec - 8 - len(n))
            content, mode = bytes(blk), 0o40755
        else:
            content, mode = (b"\x08\x01" + p.encode() * 3)[:200], 0o100755
        img[frag[p] * FSIZE:frag[p] * FSIZE + len(content)] = content
        d = dinode(ino[p])
        struct.pack_into("<HH", img, d, mode, 2 if p in dirs else 1)
        struct.pack_into("<I", img, d + 8, len(content))
        struct.pack_into("<I", img, d + 40, frag[p])
    if tree_hook:
        tree_hook(img, ino, frag, dinode)
    return bytes(img)


def loop(img, ino, frag, dinode):  # /a/b/c/deep's entry points at the root
    at = frag["/a/b/c"] * FSIZE
    o = 0
    while o < 512:
        i, rec, nl = struct.unpack_from("<IHH", img, at + o)
        if img[at + o + 8:at + o + 8 + nl] == b"deep":
            struct.pack_into("<I", img, at + o, 2)
        o += rec


def big_root(img, ino, frag, dinode):  # the root directory 16 MB long
    struct.pack_into("<I", img, dinode(2) + 8, 16 << 20)
    loop(img, ino, frag, dinode)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = {"tree": image(), "loop": image(loop), "big-root": image(big_root),
             "past-medium": image(nfrags=100000)}
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
