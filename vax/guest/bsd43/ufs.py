"""A read-only reader of the 4.2/4.3BSD fast file system in a raw RP06
image, enough for the host to check an installation and take /boot from it:
the superblock 8192 bytes into the partition, inodes through the cylinder
groups, directories as 4.2BSD entries (inode, record length, name length,
name), direct, single and double indirect blocks.  Offsets from 4.3BSD's
<sys/fs.h>, <sys/inode.h> and <sys/dir.h>; a damaged image raises
UfsError, never anything worse.

    fs = Ufs.open(DISK, partition="a")
    fs.read("/boot")              # bytes
    fs.stat("/etc/init")          # Inode: number, mode, nlink, uid, size, mtime
    fs.listdir("/dev")            # {name: inode number}
"""
import struct

SECTOR = 512
# RP06 partitions (first sector, sectors) that the installation uses, from
# 4.3BSD's rp06_sizes in vaxmba/hp.c (418 sectors a cylinder): a = cylinders
# 0-37 (root), b = 38-117 (swap, the mini-root), g = 118-814 (/usr).
RP06_PARTS = {"a": (0, 15884), "b": (15884, 33440), "g": (49324, 291280)}
SB_OFF = 8192
FS_MAGIC = 0x011954
ROOT_INO = 2
DINODE = 128
NDADDR = 12
IFMT, IFDIR, IFREG, IFLNK = 0o170000, 0o040000, 0o100000, 0o120000
IFCHR, IFBLK = 0o020000, 0o060000


class UfsError(Exception):
    pass


class Inode:
    def __init__(self, number, raw):
        self.number = number
        (self.mode, self.nlink, self.uid, self.gid) = struct.unpack_from("<HHHH", raw, 0)
        # a quad whose high longword the VAX kernel ignores (restore can
        # leave garbage there): the size is the low longword
        self.size, self.size_hi = struct.unpack_from("<II", raw, 8)
        self.atime, _, self.mtime, _, self.ctime, _ = struct.unpack_from("<6i", raw, 16)
        self.db = list(struct.unpack_from("<12I", raw, 40))
        self.ib = list(struct.unpack_from("<3I", raw, 88))
        # a device's number is kept in the first block pointer
        self.rdev = self.db[0] & 0xFFFF

    def kind(self):
        return self.mode & IFMT


class Ufs:
    def __init__(self, f, start, length):
        self.f, self.start, self.length = f, start, length
        sb = self._read(SB_OFF, 1536)
        if struct.unpack_from("<I", sb, 1372)[0] != FS_MAGIC:
            raise UfsError("no 4.2BSD file system (bad superblock magic)")
        self.iblkno = struct.unpack_from("<I", sb, 16)[0]
        (self.cgoffset, self.cgmask) = struct.unpack_from("<Ii", sb, 24)
        self.time = struct.unpack_from("<i", sb, 32)[0]
        (self.ncg, self.bsize, self.fsize, self.frag) = struct.unpack_from("<IIII", sb, 44)
        (self.nindir, self.inopb) = struct.unpack_from("<II", sb, 116)
        (self.ipg, self.fpg) = struct.unpack_from("<II", sb, 184)
        ok = (self.bsize in (4096, 8192, 16384, 32768, 65536)
              and self.fsize in (512, 1024, 2048, 4096, 8192)
              and self.fsize <= self.bsize and self.frag == self.bsize // self.fsize
              and self.ipg and self.fpg and 0 < self.ncg < 100000
              and self.inopb == self.bsize // DINODE and self.nindir == self.bsize // 4)
        if not ok:
            raise UfsError("superblock fields out of range")

    @classmethod
    def open(cls, path, partition="a"):
        if partition not in RP06_PARTS:
            raise UfsError(f"no partition {partition}")
        first, count = RP06_PARTS[partition]
        return cls(open(path, "rb"), first * SECTOR, count * SECTOR)

    def _read(self, off, n):
        if off < 0 or off + n > self.length:
            raise UfsError(f"read past the partition's end (byte {off})")
        self.f.seek(self.start + off)
        data = self.f.read(n)
        return data + bytes(n - len(data))  # a short image reads zeros

    def inode(self, ino):
        if not 0 < ino < self.ipg * self.ncg:
            raise UfsError(f"inode {ino} out of range")
        cg = ino // self.ipg
        cgstart = self.fpg * cg + self.cgoffset * (cg & ~self.cgmask)
        blk = cgstart + self.iblkno + (ino % self.ipg) // self.inopb * self.frag
        return Inode(ino, self._read(blk * self.fsize + (ino % self.inopb) * DINODE, DINODE))

    def _bmap(self, ip, lbn):
        if lbn < NDADDR:
            return ip.db[lbn]
        lbn -= NDADDR
        if lbn < self.nindir:
            return self._indirect(ip.ib[0], lbn)
        lbn -= self.nindir
        if lbn < self.nindir * self.nindir:
            return self._indirect(self._indirect(ip.ib[1], lbn // self.nindir),
                                  lbn % self.nindir)
        raise UfsError(f"inode {ip.number}: file too large for this reader")

    def _indirect(self, blk, i):
        if not blk:
            return 0
        return struct.unpack_from("<I", self._read(blk * self.fsize + 4 * i, 4))[0]

    def data(self, ip):
        out = bytearray()
        for lbn in range((ip.size + self.bsize - 1) // self.bsize):
            n = min(self.bsize, ip.size - lbn * self.bsize)
            addr = self._bmap(ip, lbn)
            out += self._read(addr * self.fsize, n) if addr else bytes(n)
        return bytes(out)

    def entries(self, ip):
        """A directory's entries in order: (name, inode number)."""
        if ip.kind() != IFDIR:
            raise UfsError(f"inode {ip.number} is not a directory")
        d, out = self.data(ip), []
        for blk in range(0, len(d), 512):
            o = 0
            while o + 8 <= min(512, len(d) - blk):
                ino, reclen, namlen = struct.unpack_from("<IHH", d, blk + o)
                if reclen < 8 or o + reclen > 512 or namlen + 8 > reclen:
                    raise UfsError(f"directory inode {ip.number}: damaged entry")
                if ino:
                    out.append((d[blk + o + 8:blk + o + 8 + namlen].decode("latin-1"), ino))
                o += reclen
        return out

    def lookup(self, path):
        ip = self.inode(ROOT_INO)
        for part in [p for p in path.split("/") if p]:
            found = dict(self.entries(ip)).get(part)
            if not found:
                raise UfsError(f"no {path}")
            ip = self.inode(found)
        return ip

    def stat(self, path):
        return self.lookup(path)

    def listdir(self, path):
        return dict(self.entries(self.lookup(path)))

    def read(self, path):
        ip = self.lookup(path)
        if ip.kind() != IFREG:
            raise UfsError(f"{path} is not a regular file")
        return self.data(ip)
