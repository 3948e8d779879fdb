/* tp archives and 4.2BSD file systems for the console's boot
 * (io_bootfile.h). */
#include "vax/io/io_bootfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* ---- tp ---- */

#define TP_BLOCK 512u
#define TP_DIR_FIRST 1u
#define TP_DIR_BLOCKS 62u
#define TP_ENTRY 64u

int io_tp_find(const uint8_t *archive, size_t len, const char *name, size_t *off,
               size_t *size, char *err, size_t errlen)
{
    size_t end = (size_t)(TP_DIR_FIRST + TP_DIR_BLOCKS) * TP_BLOCK;
    if (len < end)
        end = len - len % TP_ENTRY;
    for (size_t e = TP_DIR_FIRST * TP_BLOCK; e + TP_ENTRY <= end; e += TP_ENTRY) {
        const uint8_t *p = archive + e;
        if (!p[0])
            continue;
        uint16_t sum = 0; /* every entry's 32 words add up to zero */
        for (unsigned i = 0; i < TP_ENTRY; i += 2)
            sum = (uint16_t)(sum + le16(p + i));
        if (sum != 0)
            continue;
        size_t nl = strnlen((const char *)p, 32);
        if (nl != strlen(name) || memcmp(p, name, nl) != 0)
            continue;
        uint32_t fsize = (uint32_t)p[37] << 16 | le16(p + 38);
        size_t at = (size_t)le16(p + 44) * TP_BLOCK;
        if (at > len || fsize > len - at) {
            snprintf(err, errlen, "tp archive: %s (%u bytes at block %u) runs past the "
                     "archive's %zu bytes", name, fsize, le16(p + 44), len);
            return -1;
        }
        *off = at;
        *size = fsize;
        return 0;
    }
    snprintf(err, errlen, "tp archive: no file '%s' in its directory", name);
    return -1;
}

/* ---- the fast file system ---- */

#define SB_OFF 8192u
#define SB_LEN 1536u
#define FS_MAGIC 0x011954u
#define ROOT_INO 2u
#define NDADDR 12u
#define DINODE 128u
#define IFMT 0170000u
#define IFDIR 0040000u
#define IFREG 0100000u
#define DIRBLK 512u

struct ufs {
    io_read_fn rd;
    void *ctx;
    uint32_t iblkno, cgoffset, cgmask, bsize, fsize, frag, nindir, inopb, ipg, fpg, ncg;
    uint32_t size, dsize;   /* fragments in all, of them data */
    char *err;
    size_t errlen;
};

struct inode {
    uint16_t mode;
    uint32_t size;
    uint32_t db[NDADDR], ib[3];
};

static int fail(struct ufs *u, const char *what)
{
    snprintf(u->err, u->errlen, "file system: %s", what);
    return -1;
}

static int pow2(uint32_t x) { return x && !(x & (x - 1)); }

static int load_super(struct ufs *u)
{
    uint8_t sb[SB_LEN];
    if (u->rd(u->ctx, SB_OFF, sb, SB_LEN) < 0)
        return fail(u, "cannot read the superblock");
    if (le32(sb + 1372) != FS_MAGIC)
        return fail(u, "no 4.2BSD superblock (bad magic number)");
    u->iblkno = le32(sb + 16);
    u->cgoffset = le32(sb + 24);
    u->cgmask = le32(sb + 28);
    u->size = le32(sb + 36);
    u->dsize = le32(sb + 40);
    u->ncg = le32(sb + 44);
    u->bsize = le32(sb + 48);
    u->fsize = le32(sb + 52);
    u->frag = le32(sb + 56);
    u->nindir = le32(sb + 116);
    u->inopb = le32(sb + 120);
    u->ipg = le32(sb + 184);
    u->fpg = le32(sb + 188);
    if (!pow2(u->bsize) || u->bsize < 4096 || u->bsize > 65536 || !pow2(u->fsize) ||
        u->fsize < 512 || u->fsize > u->bsize || u->frag != u->bsize / u->fsize ||
        u->nindir != u->bsize / 4 || u->inopb != u->bsize / DINODE || !u->ipg ||
        !u->fpg || !u->ncg || u->ncg > 100000 || u->cgoffset > u->fpg || u->iblkno > u->fpg ||
        !u->dsize || u->dsize > u->size)
        return fail(u, "superblock values out of range");
    /* the medium holds all of it: a crafted size cannot make the reader
     * walk more than there is */
    uint8_t last;
    if (u->rd(u->ctx, (uint64_t)u->size * u->fsize - 1, &last, 1) < 0)
        return fail(u, "the file system is larger than its medium");
    return 0;
}

/* Reads n bytes at fragment address `frag` + byte offset. */
static int read_frag(struct ufs *u, uint32_t frag, uint32_t off, void *buf, uint32_t n)
{
    return u->rd(u->ctx, (uint64_t)frag * u->fsize + off, buf, n);
}

static int load_inode(struct ufs *u, uint32_t ino, struct inode *ip)
{
    if (ino >= (uint64_t)u->ipg * u->ncg)
        return fail(u, "inode number out of range");
    uint32_t cg = ino / u->ipg;
    uint64_t start = (uint64_t)u->fpg * cg + (uint64_t)u->cgoffset * (cg & ~u->cgmask);
    uint64_t blk = start + u->iblkno + (uint64_t)((ino % u->ipg) / u->inopb) * u->frag;
    uint8_t d[DINODE];
    if (blk > 0xFFFFFFFFu ||
        read_frag(u, (uint32_t)blk, (ino % u->inopb) * DINODE, d, DINODE) < 0)
        return fail(u, "cannot read an inode");
    ip->mode = le16(d);
    if (le32(d + 12) != 0) /* the size's high longword */
        return fail(u, "file too large");
    ip->size = le32(d + 8);
    for (unsigned i = 0; i < NDADDR; i++)
        ip->db[i] = le32(d + 40 + 4 * i);
    for (unsigned i = 0; i < 3; i++)
        ip->ib[i] = le32(d + 88 + 4 * i);
    return 0;
}

/* The fragment address of logical block lbn (0: a hole). */
static int bmap(struct ufs *u, const struct inode *ip, uint32_t lbn, uint32_t *addr)
{
    if (lbn < NDADDR) {
        *addr = ip->db[lbn];
        return 0;
    }
    lbn -= NDADDR;
    uint8_t p[4];
    if (lbn < u->nindir) {
        if (!ip->ib[0]) {
            *addr = 0;
            return 0;
        }
        if (read_frag(u, ip->ib[0], lbn * 4, p, 4) < 0)
            return fail(u, "cannot read an indirect block");
        *addr = le32(p);
        return 0;
    }
    lbn -= u->nindir;
    if ((uint64_t)lbn >= (uint64_t)u->nindir * u->nindir)
        return fail(u, "file too large");
    if (!ip->ib[1]) {
        *addr = 0;
        return 0;
    }
    if (read_frag(u, ip->ib[1], (lbn / u->nindir) * 4, p, 4) < 0)
        return fail(u, "cannot read an indirect block");
    uint32_t ind = le32(p);
    if (!ind) {
        *addr = 0;
        return 0;
    }
    if (read_frag(u, ind, (lbn % u->nindir) * 4, p, 4) < 0)
        return fail(u, "cannot read an indirect block");
    *addr = le32(p);
    return 0;
}

static int read_data(struct ufs *u, const struct inode *ip, uint8_t **out)
{
    if (ip->size > IO_BOOTFILE_MAX)
        return fail(u, "file too large");
    uint8_t *buf = malloc(ip->size ? ip->size : 1);
    if (!buf)
        return fail(u, "out of memory");
    for (uint32_t done = 0, lbn = 0; done < ip->size; lbn++) {
        uint32_t n = ip->size - done < u->bsize ? ip->size - done : u->bsize, addr;
        if (bmap(u, ip, lbn, &addr) < 0) {
            free(buf);
            return -1;
        }
        if (!addr)
            memset(buf + done, 0, n);
        else if (read_frag(u, addr, 0, buf + done, n) < 0) {
            free(buf);
            return fail(u, "cannot read a data block");
        }
        done += n;
    }
    *out = buf;
    return 0;
}

/* A directory's size within the file system's own limits: no larger
 * than its data area (a crafted size cannot make a reader walk or hold
 * more than the medium has). */
static int dir_ok(struct ufs *u, const struct inode *ip)
{
    if ((uint64_t)ip->size > (uint64_t)u->dsize * u->fsize)
        return fail(u, "a directory larger than the file system");
    return 0;
}

/* A directory's entries, read one DIRBLK block at a time (a hole reads
 * as zeros; a damaged block is skipped from the damage on). */
struct dir_iter {
    struct ufs *u;
    const struct inode *ip;
    uint32_t off, o, end; /* the block's offset, the entry's in it, its length */
    uint8_t b[DIRBLK];
};

static int dir_open(struct dir_iter *it, struct ufs *u, const struct inode *ip)
{
    it->u = u;
    it->ip = ip;
    it->off = it->o = it->end = 0;
    return dir_ok(u, ip);
}

/* The next entry: 1 with its inode number (0: an empty slot), name and
 * length; 0 at the end; -1 with the message. */
static int dir_next(struct dir_iter *it, uint32_t *ino, const uint8_t **name, uint16_t *namlen)
{
    for (;;) {
        if (it->o + 8 <= it->end) {
            const uint8_t *e = it->b + it->o;
            uint16_t reclen = le16(e + 4), nl = le16(e + 6);
            if (reclen >= 8 && reclen <= it->end - it->o && (uint32_t)nl + 8 <= reclen) {
                it->o += reclen;
                *ino = le32(e);
                *name = e + 8;
                *namlen = nl;
                return 1;
            }
        }
        /* the next block */
        if (it->end)
            it->off += DIRBLK;
        if (it->off >= it->ip->size)
            return 0;
        uint32_t n = it->ip->size - it->off < DIRBLK ? it->ip->size - it->off : DIRBLK, addr;
        if (bmap(it->u, it->ip, it->off / it->u->bsize, &addr) < 0)
            return -1;
        if (!addr)
            memset(it->b, 0, n);
        else if (read_frag(it->u, addr, it->off % it->u->bsize, it->b, n) < 0)
            return fail(it->u, "cannot read a directory block");
        it->o = 0;
        it->end = n;
    }
}

/* The inode number of `name` in the directory ip, or 0. */
static int lookup(struct ufs *u, const struct inode *ip, const char *name, size_t nl,
                  uint32_t *ino)
{
    struct dir_iter it;
    uint32_t e;
    const uint8_t *n;
    uint16_t l;
    int r;
    *ino = 0;
    if (dir_open(&it, u, ip) < 0)
        return -1;
    while ((r = dir_next(&it, &e, &n, &l)) > 0)
        if (e && l == nl && !memcmp(n, name, nl)) {
            *ino = e;
            return 0;
        }
    return r;
}

int io_ufs_read(io_read_fn rd, void *ctx, const char *path, uint8_t **data, uint32_t *len,
                char *err, size_t errlen)
{
    struct ufs u = {.rd = rd, .ctx = ctx, .err = err, .errlen = errlen};
    if (load_super(&u) < 0)
        return -1;
    struct inode ip;
    if (load_inode(&u, ROOT_INO, &ip) < 0)
        return -1;
    const char *p = path;
    while (*p) {
        while (*p == '/')
            p++;
        if (!*p)
            break;
        size_t nl = strcspn(p, "/");
        if ((ip.mode & IFMT) != IFDIR) {
            snprintf(err, errlen, "file system: %s: a component is not a directory", path);
            return -1;
        }
        uint32_t ino;
        if (lookup(&u, &ip, p, nl, &ino) < 0)
            return -1;
        if (!ino) {
            snprintf(err, errlen, "file system: no %s", path);
            return -1;
        }
        if (load_inode(&u, ino, &ip) < 0)
            return -1;
        p += nl;
    }
    if ((ip.mode & IFMT) != IFREG) {
        snprintf(err, errlen, "file system: %s is not a regular file", path);
        return -1;
    }
    if (read_data(&u, &ip, data) < 0)
        return -1;
    *len = ip.size;
    return 0;
}

/* The walk's state: the path so far, the callback, how much is left, and
 * the directories met (by inode number: a directory has one name, so one
 * met twice is a loop in a damaged tree). */
struct walk {
    struct ufs *u;
    io_ufs_walk_fn fn;
    void *fctx;
    char path[IO_UFS_PATH_MAX];
    unsigned long left; /* entries still allowed */
    uint64_t dir_left;  /* directory bytes still allowed: all of them fit
                         * in the data area */
    uint32_t *seen;     /* an open-addressed set of directory inode numbers */
    size_t nseen, cap;  /* (0 is no inode: the empty slot) */
};

/* Adds ino to the directories met: 1 added, 0 met before, -1 no memory. */
static int seen_add(struct walk *w, uint32_t ino)
{
    if (2 * (w->nseen + 1) > w->cap) {
        size_t nc = w->cap ? 2 * w->cap : 256;
        uint32_t *t = calloc(nc, sizeof *t);
        if (!t)
            return -1;
        for (size_t i = 0; i < w->cap; i++)
            if (w->seen[i])
                for (size_t h = (w->seen[i] * 2654435761u) & (nc - 1);; h = (h + 1) & (nc - 1))
                    if (!t[h]) {
                        t[h] = w->seen[i];
                        break;
                    }
        free(w->seen);
        w->seen = t;
        w->cap = nc;
    }
    for (size_t h = (ino * 2654435761u) & (w->cap - 1);; h = (h + 1) & (w->cap - 1)) {
        if (w->seen[h] == ino)
            return 0;
        if (!w->seen[h]) {
            w->seen[h] = ino;
            w->nseen++;
            return 1;
        }
    }
}

/* The entries of directory `dir`, one directory block at a time (memory:
 * a block per level of the real tree). */
static int walk_dir(struct walk *w, const struct inode *dir, size_t plen, unsigned depth)
{
    struct ufs *u = w->u;
    struct dir_iter it;
    if (depth > 64)
        return fail(u, "directories nested too deep");
    if (dir_open(&it, u, dir) < 0)
        return -1;
    if (dir->size > w->dir_left)
        return fail(u, "directories larger than the file system");
    w->dir_left -= dir->size;
    uint32_t ino;
    const uint8_t *name;
    uint16_t namlen;
    int r;
    while ((r = dir_next(&it, &ino, &name, &namlen)) > 0) {
        if (!ino || !namlen || (namlen == 1 && name[0] == '.') ||
            (namlen == 2 && name[0] == '.' && name[1] == '.') || memchr(name, 0, namlen) ||
            memchr(name, '/', namlen))
            continue;
        if (!w->left--)
            return fail(u, "too many directory entries (a loop?)");
        if (plen + 1 + namlen >= sizeof w->path)
            return fail(u, "a path too long");
        w->path[plen] = '/';
        memcpy(w->path + plen + 1, name, namlen);
        w->path[plen + 1 + namlen] = 0;
        struct inode ip;
        if (load_inode(u, ino, &ip) < 0)
            return -1;
        int isdir = (ip.mode & IFMT) == IFDIR, met = isdir ? seen_add(w, ino) : 1;
        if (met < 0)
            return fail(u, "out of memory");
        if (!met) {
            snprintf(u->err, u->errlen, "file system: a directory loop: %.200s is inode %u, "
                     "a directory met before", w->path, ino);
            return -1;
        }
        if (w->fn(w->fctx, w->path, ino, ip.mode) != 0)
            return 1;
        if (isdir && (r = walk_dir(w, &ip, plen + 1 + namlen, depth + 1)) != 0)
            return r;
    }
    return r;
}

int io_ufs_walk(io_read_fn rd, void *ctx, io_ufs_walk_fn fn, void *fctx, char *err, size_t errlen)
{
    struct ufs u = {.rd = rd, .ctx = ctx, .err = err, .errlen = errlen};
    if (load_super(&u) < 0)
        return -1;
    struct inode root;
    if (load_inode(&u, ROOT_INO, &root) < 0)
        return -1;
    if ((root.mode & IFMT) != IFDIR)
        return fail(&u, "the root inode is not a directory");
    struct walk *w = malloc(sizeof *w);
    if (!w)
        return fail(&u, "out of memory");
    *w = (struct walk){.u = &u, .fn = fn, .fctx = fctx, .left = 4000000,
                       .dir_left = (uint64_t)u.dsize * u.fsize};
    w->path[0] = 0;
    int rc = seen_add(w, ROOT_INO) < 0 ? fail(&u, "out of memory") : 0;
    if (rc == 0 && fn(fctx, "/", ROOT_INO, root.mode) == 0)
        rc = walk_dir(w, &root, 0, 0);
    free(w->seen);
    free(w);
    return rc < 0 ? -1 : 0;
}
