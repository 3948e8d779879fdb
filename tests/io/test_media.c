/* vax/io's foundations: the event queue (order, ties, cancel, re-arm),
 * the disk and tape containers (SIMH formats, checks at attach, reads
 * past the end, write-locks, erasing after a write), the lock-step
 * check's copies of an image, and the console
 * boot's readers (tp archive, 4.2BSD file system) on synthetic media and
 * on the real distribution files (argv[1]: ../shared/bsd43). */
#include <fcntl.h>
#include <sys/stat.h>
#include <zlib.h>

#include "microcode/le.h"
#include "tests/io/io_rig.h"
#include "vax/io/io_bootfile.h"
#include "vax/io/io_media.h"

/* ---- events ---- */

static int order[16], norder;
static void note(void *ctx, uint64_t due)
{
    (void)due;
    order[norder++] = (int)(intptr_t)ctx;
}

static void events(void)
{
    uint64_t now = 0;
    struct io_events q;
    struct io_timer t[4];
    io_events_init(&q, &now);
    for (int i = 0; i < 4; i++)
        io_timer_init(&q, &t[i], note, (void *)(intptr_t)i);
    CHECK(io_events_next(&q) == UINT64_MAX, "empty queue");
    io_timer_at(&t[0], 100);
    io_timer_at(&t[1], 50);
    io_timer_at(&t[2], 100); /* ties fire in arming order */
    io_timer_at(&t[3], 70);
    io_timer_cancel(&t[3]);
    CHECK(io_events_next(&q) == 50, "next %llu", (unsigned long long)io_events_next(&q));
    now = 49;
    CHECK(io_events_run(&q) == 0 && norder == 0, "nothing due at 49");
    now = 100;
    CHECK(io_events_run(&q) == 3, "three due by 100");
    CHECK(norder == 3 && order[0] == 1 && order[1] == 0 && order[2] == 2,
          "order %d %d %d", order[0], order[1], order[2]);
    CHECK(io_events_next(&q) == UINT64_MAX && !io_timer_armed(&t[3]), "all done");
    io_timer_at(&t[0], 300);
    io_timer_at(&t[0], 200); /* re-arming moves it */
    CHECK(io_events_next(&q) == 200, "moved");
    io_timer_remove(&t[0]);
    CHECK(io_events_next(&q) == UINT64_MAX, "removed");
    for (int i = 1; i < 4; i++)
        io_timer_remove(&t[i]);
}

/* ---- disk images ---- */

static void disks(void)
{
    char path[64], err[300];
    uint8_t data[3 * IO_SECTOR];
    for (unsigned i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7 + 1);
    rig_tempfile(path, sizeof path, data, sizeof data);
    struct io_disk d;
    io_disk_init(&d);
    CHECK(io_disk_attach(&d, path, 4, 0, err, sizeof err) == 0, "attach: %s", err);
    uint8_t buf[2 * IO_SECTOR];
    CHECK(io_disk_read(&d, 2, buf, 2) == 0, "read across the end of a short file");
    CHECK(!memcmp(buf, data + 2 * IO_SECTOR, IO_SECTOR), "sector 2");
    int zero = 1;
    for (unsigned i = IO_SECTOR; i < 2 * IO_SECTOR; i++)
        zero &= buf[i] == 0;
    CHECK(zero, "sector 3 beyond the file reads as zeros");
    CHECK(io_disk_read(&d, 4, buf, 1) < 0, "sector 4 is past the drive");
    memset(buf, 0xA5, IO_SECTOR);
    CHECK(io_disk_write(&d, 3, buf, 1) == 0, "write extends the file");
    io_disk_detach(&d);
    CHECK(io_disk_attach(&d, path, 4, 1, err, sizeof err) == 0, "attach read-only");
    CHECK(io_disk_read(&d, 3, buf + IO_SECTOR, 1) == 0 && buf[IO_SECTOR] == 0xA5, "written");
    CHECK(io_disk_write(&d, 0, buf, 1) < 0, "read-only refuses a write");
    io_disk_detach(&d);
    CHECK(io_disk_attach(&d, path, 3, 0, err, sizeof err) < 0 && strstr(err, "not a disk image"),
          "too large for the drive: %s", err);
    CHECK(io_disk_attach(&d, "/nonexistent/x.img", 4, 0, err, sizeof err) < 0 &&
          strstr(err, "No such file"), "missing: %s", err);
    unlink(path);
    rig_tempfile(path, sizeof path, data, 100); /* not whole sectors */
    CHECK(io_disk_attach(&d, path, 4, 0, err, sizeof err) < 0, "100 bytes refused");
    if (geteuid() != 0) { /* root may write anything: the check is moot */
        chmod(path, 0444);
        CHECK(io_disk_attach(&d, path, 4, 0, err, sizeof err) < 0 && strstr(err, "read-only"),
              "unwritable: %s", err);
    }
    unlink(path);
}

/* The lock-step check's private copy of a medium and its comparison
 * (io_media.h): a copy holds the same bytes (more than one chunk), a
 * changed byte or another length differs, a missing image is refused
 * and leaves no file behind. */
static void copies(void)
{
    enum { N = 65536 * 2 + 3 * IO_SECTOR };
    static uint8_t data[N];
    for (unsigned i = 0; i < N; i++)
        data[i] = (uint8_t)(i * 13 + 5);
    char path[64], err[300], tmpl[64], tmpl2[64];
    rig_tempfile(path, sizeof path, data, N);
    snprintf(tmpl, sizeof tmpl, "/tmp/io-media-copy-XXXXXX");
    CHECK(io_media_copy(path, tmpl, err, sizeof err) == 0, "copy: %s", err);
    int fa = open(path, O_RDWR), fb = open(tmpl, O_RDONLY);
    CHECK(fa >= 0 && fb >= 0, "both open");
    CHECK(io_media_same(fa, fb) == 1, "the copy holds the same bytes");
    uint8_t x = (uint8_t)(data[N - 7] ^ 1);
    CHECK(pwrite(fa, &x, 1, N - 7) == 1, "change a byte");
    CHECK(io_media_same(fa, fb) == 0, "a changed byte near the end differs");
    CHECK(pwrite(fa, &data[N - 7], 1, N - 7) == 1 && io_media_same(fa, fb) == 1, "put back");
    CHECK(ftruncate(fa, N - IO_SECTOR) == 0 && io_media_same(fa, fb) == 0,
          "a shorter image differs");
    close(fa);
    close(fb);
    unlink(tmpl);
    unlink(path);
    snprintf(tmpl2, sizeof tmpl2, "/tmp/io-media-copy-XXXXXX");
    CHECK(io_media_copy("/nonexistent/x.img", tmpl2, err, sizeof err) < 0 &&
          strstr(err, "No such file"), "a missing image: %s", err);
    CHECK(strcmp(tmpl2, "/tmp/io-media-copy-XXXXXX") == 0 || access(tmpl2, F_OK) != 0,
          "no copy left behind");
}

/* ---- tape images ---- */

static size_t put_rec(uint8_t *p, const uint8_t *data, uint32_t n)
{
    le_put32(p, n);
    memcpy(p + 4, data, n);
    size_t k = 4 + n;
    if (n & 1)
        p[k++] = 0;
    le_put32(p + k, n);
    return k + 4;
}

static void tapes(void)
{
    uint8_t img[4096], rec[600], buf[1024];
    for (unsigned i = 0; i < sizeof rec; i++)
        rec[i] = (uint8_t)i;
    size_t n = 0;
    n += put_rec(img + n, rec, 512);
    n += put_rec(img + n, rec + 1, 101); /* odd: padded */
    le_put32(img + n, 0); /* tape mark */
    n += 4;
    le_put32(img + n, 0xFFFFFFFEu); /* an erase gap */
    n += 4;
    n += put_rec(img + n, rec + 2, 6);
    le_put32(img + n, 0);
    n += 4;
    char path[64], err[300];
    rig_tempfile(path, sizeof path, img, n);
    struct io_tape t;
    io_tape_init(&t);
    CHECK(io_tape_attach(&t, path, 0, err, sizeof err) == 0, "attach: %s", err);
    CHECK(t.records == 3 && t.marks == 2, "scan: %llu records %llu marks",
          (unsigned long long)t.records, (unsigned long long)t.marks);
    uint32_t len;
    CHECK(io_tape_bot(&t), "at BOT");
    CHECK(io_tape_read_fwd(&t, buf, sizeof buf, &len) == IO_TAPE_OK && len == 512 &&
          !memcmp(buf, rec, 512), "record 1");
    CHECK(io_tape_read_fwd(&t, buf, 50, &len) == IO_TAPE_OK && len == 101 &&
          !memcmp(buf, rec + 1, 50), "record 2 into a short buffer keeps its length");
    CHECK(io_tape_read_fwd(&t, buf, sizeof buf, &len) == IO_TAPE_MARK, "tape mark");
    CHECK(io_tape_read_fwd(&t, buf, sizeof buf, &len) == IO_TAPE_OK && len == 6 &&
          buf[0] == 2, "across the gap");
    CHECK(io_tape_space_fwd(&t, &len) == IO_TAPE_MARK, "second mark");
    CHECK(io_tape_read_fwd(&t, buf, sizeof buf, &len) == IO_TAPE_EOM, "end of medium");
    CHECK(io_tape_space_rev(&t, &len) == IO_TAPE_MARK, "reverse over the mark");
    CHECK(io_tape_read_rev(&t, buf, sizeof buf, &len) == IO_TAPE_OK && len == 6 && buf[0] == 2,
          "read reverse: data in forward order");
    CHECK(io_tape_space_rev(&t, &len) == IO_TAPE_MARK, "reverse: the gap, then the mark");
    io_tape_rewind(&t);
    CHECK(io_tape_space_rev(&t, &len) == IO_TAPE_BOT, "reverse at BOT");
    /* writing erases what followed */
    CHECK(io_tape_space_fwd(&t, &len) == IO_TAPE_OK, "over record 1");
    CHECK(io_tape_write(&t, rec + 3, 33) == IO_TAPE_OK, "write");
    CHECK(io_tape_write_mark(&t) == IO_TAPE_OK, "write a mark");
    CHECK(io_tape_read_fwd(&t, buf, sizeof buf, &len) == IO_TAPE_EOM, "nothing after");
    io_tape_rewind(&t);
    io_tape_space_fwd(&t, &len);
    CHECK(io_tape_read_fwd(&t, buf, sizeof buf, &len) == IO_TAPE_OK && len == 33 &&
          buf[0] == 3, "the written record");
    io_tape_detach(&t);
    CHECK(io_tape_attach(&t, path, 1, err, sizeof err) == 0 &&
          io_tape_write_mark(&t) == IO_TAPE_WRP, "write-locked");
    io_tape_detach(&t);
    /* a corrupt image is refused at attach */
    img[4 + 512 + 2] ^= 1; /* record 1's trailing count */
    unlink(path);
    rig_tempfile(path, sizeof path, img, n);
    CHECK(io_tape_attach(&t, path, 1, err, sizeof err) < 0 && strstr(err, "not a SIMH tape"),
          "corrupt: %s", err);
    unlink(path);
    rig_tempfile(path, sizeof path, img, 3);
    CHECK(io_tape_attach(&t, path, 1, err, sizeof err) < 0 && strstr(err, "truncated"),
          "truncated: %s", err);
    unlink(path);
}

/* ---- the console boot's readers ---- */

static void tp_entry(uint8_t *e, const char *name, uint32_t size, uint16_t addr)
{
    memset(e, 0, 64);
    strcpy((char *)e, name);
    e[37] = (uint8_t)(size >> 16);
    le_put16(e + 38, size & 0xFFFF);
    le_put16(e + 44, addr);
    uint16_t sum = 0;
    for (unsigned i = 0; i < 62; i += 2)
        sum = (uint16_t)(sum + le_get16(e + i));
    le_put16(e + 62, (uint16_t)-sum);
}

static void tp(void)
{
    static uint8_t a[70 * 512];
    memset(a, 0, sizeof a);
    tp_entry(a + 512, "boot", 1000, 63);
    tp_entry(a + 512 + 64, "copy", 70000, 66); /* longer than the archive */
    tp_entry(a + 512 + 128, "bad", 10, 63);
    a[512 + 128 + 40] ^= 1; /* checksum broken: ignored */
    size_t off, size;
    char err[200];
    CHECK(io_tp_find(a, sizeof a, "boot", &off, &size, err, sizeof err) == 0 &&
          off == 63 * 512 && size == 1000, "boot found");
    CHECK(io_tp_find(a, sizeof a, "copy", &off, &size, err, sizeof err) < 0 &&
          strstr(err, "runs past"), "copy too long: %s", err);
    CHECK(io_tp_find(a, sizeof a, "bad", &off, &size, err, sizeof err) < 0, "bad checksum");
    CHECK(io_tp_find(a, 100, "boot", &off, &size, err, sizeof err) < 0, "truncated archive");
}

static uint8_t *gunzip(const char *path, size_t *len)
{
    gzFile g = gzopen(path, "rb");
    if (!g)
        return NULL;
    size_t cap = 1 << 20, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (n == cap)
            buf = realloc(buf, cap *= 2);
        int r = gzread(g, buf + n, (unsigned)(cap - n));
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    gzclose(g);
    *len = n;
    return buf;
}

struct mem_fs {
    const uint8_t *d;
    size_t n;
};

static int mem_read(void *ctx, uint64_t off, void *buf, uint32_t n)
{
    const struct mem_fs *m = ctx;
    if (off > m->n || n > m->n - off)
        return -1;
    memcpy(buf, m->d + off, n);
    return 0;
}

/* ---- the UFS walker on a damaged tree (issue 33) ---- */

struct counting_fs {
    struct mem_fs fs;
    uint64_t bytes; /* read through the callback */
};

static int count_read(void *ctx, uint64_t off, void *buf, uint32_t n)
{
    struct counting_fs *c = ctx;
    c->bytes += n;
    return mem_read(&c->fs, off, buf, n);
}

struct walked {
    unsigned long names;
    int init19; /* /etc/init is inode 19 */
};

static int walked_fn(void *ctx, const char *path, uint32_t ino, uint16_t mode)
{
    struct walked *w = ctx;
    (void)mode;
    w->names++;
    if (!strcmp(path, "/etc/init") && ino == 19)
        w->init19 = 1;
    return 0;
}

/* A dinode's offset in the image (cylinder group 0). */
static size_t dinode_at(const uint8_t *fs, uint32_t ino)
{
    uint32_t iblkno = le_get32(fs + 8192 + 16), fsize = le_get32(fs + 8192 + 52),
             frag = le_get32(fs + 8192 + 56), inopb = le_get32(fs + 8192 + 120);
    return ((size_t)iblkno + ino / inopb * frag) * fsize + ino % inopb * 128;
}

/* The offset of the first entry of directory `ino`'s first block whose
 * name is `name` (NULL: the first that is not . or ..), or 0. */
static size_t entry_at(const uint8_t *fs, uint32_t ino, const char *name)
{
    size_t blk = (size_t)le_get32(fs + dinode_at(fs, ino) + 40) * le_get32(fs + 8192 + 52);
    for (size_t o = 0; o < 512;) {
        const uint8_t *e = fs + blk + o;
        unsigned reclen = e[4] | e[5] << 8, namlen = e[6] | e[7] << 8;
        int dots = (namlen == 1 && e[8] == '.') || (namlen == 2 && e[8] == '.' && e[9] == '.');
        if (reclen == 0)
            break;
        if (name ? namlen == strlen(name) && !memcmp(e + 8, name, namlen) : !dots)
            return blk + o;
        o += reclen;
    }
    return 0;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static void ufs_walk_damage(uint8_t *mr, size_t len)
{
    char err[300] = "";
    struct counting_fs c = {{mr, len}, 0};
    struct walked w = {0};
    CHECK(io_ufs_walk(count_read, &c, walked_fn, &w, err, sizeof err) == 0 && w.init19 &&
              w.names > 200, "the mini-root's tree: %lu names, %s", w.names, err);
    uint64_t intact = c.bytes;
    /* an entry of /etc pointing back at the root: a loop, found by inode */
    size_t etc = entry_at(mr, 2, "etc");
    CHECK(etc != 0, "/etc in the root directory");
    size_t victim = etc ? entry_at(mr, le_get32(mr + etc), NULL) : 0;
    CHECK(victim != 0, "an entry in /etc");
    if (!victim)
        return;
    uint32_t save = le_get32(mr + victim);
    put32(mr + victim, 2);
    c.bytes = 0;
    w = (struct walked){0};
    CHECK(io_ufs_walk(count_read, &c, walked_fn, &w, err, sizeof err) < 0 &&
              strstr(err, "a directory loop: /etc/") && strstr(err, "is inode 2"),
          "a loop back to the root: %s", err);
    CHECK(c.bytes <= intact, "the loop read %llu bytes (the whole tree: %llu)",
          (unsigned long long)c.bytes, (unsigned long long)intact);
    /* and the root's size set to 16 MB (the crafted disk): the
     * size is refused before any of it is read */
    size_t root = dinode_at(mr, 2);
    uint32_t rsize = le_get32(mr + root + 8);
    put32(mr + root + 8, 16u << 20);
    c.bytes = 0;
    CHECK(io_ufs_walk(count_read, &c, walked_fn, &w, err, sizeof err) < 0 &&
              strstr(err, "a directory larger than the file system"),
          "a 16 MB root directory: %s", err);
    CHECK(c.bytes < 4096, "... refused after %llu bytes", (unsigned long long)c.bytes);
    uint8_t *data;
    uint32_t n;
    CHECK(io_ufs_read(mem_read, &c.fs, "/vmunix", &data, &n, err, sizeof err) < 0 &&
              strstr(err, "larger than the file system"), "lookup in it: %s", err);
    put32(mr + victim, save);
    put32(mr + root + 8, rsize);
    /* a superblock claiming more than the medium holds */
    uint32_t fs_size = le_get32(mr + 8192 + 36);
    put32(mr + 8192 + 36, fs_size + 1000);
    put32(mr + 8192 + 40, fs_size + 900); /* dsize within size */
    CHECK(io_ufs_walk(count_read, &c, walked_fn, &w, err, sizeof err) < 0 &&
              strstr(err, "larger than its medium"), "a file system past its medium: %s", err);
    put32(mr + 8192 + 36, fs_size);
    CHECK(io_ufs_walk(count_read, &c, walked_fn, &w, err, sizeof err) < 0 &&
              strstr(err, "out of range"), "dsize above size: %s", err);
}

static void real_files(const char *dir)
{
    char p[512], err[300];
    size_t len, off, size;
    snprintf(p, sizeof p, "%s/stand.gz", dir);
    uint8_t *stand = gunzip(p, &len);
    CHECK(stand && len == 106496, "stand.gz: %zu bytes", stand ? len : 0);
    if (stand) {
        CHECK(io_tp_find(stand + 7 * 512, len - 7 * 512, "boot", &off, &size, err, sizeof err) ==
                      0 && size == 25124 && off == 63 * 512,
              "boot in the tp archive: %s", err);
        /* its first word is the entry mask 0, then MTPR #31,#IPL */
        CHECK(stand[7 * 512 + off] == 0 && stand[7 * 512 + off + 2] == 0xDA,
              "boot's first instruction");
        CHECK(io_tp_find(stand + 7 * 512, len - 7 * 512, "copy", &off, &size, err, sizeof err) ==
                  0 && size == 23936, "copy");
        free(stand);
    }
    snprintf(p, sizeof p, "%s/miniroot.gz", dir);
    uint8_t *mr = gunzip(p, &len);
    CHECK(mr && len == 205 * 10240, "miniroot.gz");
    if (mr) {
        uint32_t dsize = le_get32(mr + 8192 + 40);
        ufs_walk_damage(mr, len);
        put32(mr + 8192 + 40, dsize);
        struct mem_fs fs = {mr, len};
        uint8_t *data;
        uint32_t n;
        CHECK(io_ufs_read(mem_read, &fs, "/vmunix", &data, &n, err, sizeof err) == 0 &&
                  n == 407552 && data[0] == 0x08 && data[1] == 0x01,
              "miniroot /vmunix: %s", err);
        if (n == 407552) /* a.out: text 279844, data 80872, bss 100324 */
            CHECK(le_get32(data + 4) == 279844 && le_get32(data + 8) == 80872 &&
                  le_get32(data + 12) == 100324, "vmunix header");
        free(data);
        CHECK(io_ufs_read(mem_read, &fs, "/etc/nosuchfile", &data, &n, err, sizeof err) < 0 &&
              strstr(err, "no /etc/nosuchfile"), "missing file: %s", err);
        CHECK(io_ufs_read(mem_read, &fs, "/etc", &data, &n, err, sizeof err) < 0 &&
              strstr(err, "not a regular file"), "a directory: %s", err);
        /* damage: a wrong magic number, then nothing at all */
        uint8_t save = mr[8192 + 1372];
        mr[8192 + 1372] ^= 0xFF;
        CHECK(io_ufs_read(mem_read, &fs, "/vmunix", &data, &n, err, sizeof err) < 0 &&
              strstr(err, "magic"), "bad magic: %s", err);
        mr[8192 + 1372] = save;
        mr[8192 + 48] = 0x33; /* bsize no longer a power of two */
        CHECK(io_ufs_read(mem_read, &fs, "/vmunix", &data, &n, err, sizeof err) < 0 &&
              strstr(err, "out of range"), "bad superblock: %s", err);
        fs.n = 9000;
        CHECK(io_ufs_read(mem_read, &fs, "/vmunix", &data, &n, err, sizeof err) < 0,
              "a truncated partition");
        free(mr);
    }
}

int main(int argc, char **argv)
{
    events();
    disks();
    copies();
    tapes();
    tp();
    if (argc > 1)
        real_files(argv[1]);
    else
        CHECK(0, "give the bsd43 distribution directory");
    return rig_report("io-media");
}
