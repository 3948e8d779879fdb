/* spamctl names: the guest's names for the trace tools (spam/spam_gnames.h),
 * extracted from its kernel image and its disk. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/spamctl_cmds.h"
#include "cli/spamctl_out.h"
#include "cli/spamctl_trace.h"
#include "spam/spam_aout.h"
#include "spam/spam_gnames.h"
#include "vax/io/io_bootfile.h"
#include "vax/io/io_deuna.h"
#include "vax/io/io_dz.h"
#include "vax/io/io_system.h"

#define NAMES_INPUT_MAX (64u << 20) /* a kernel image or sys/syscalls.c */

#ifndef SPAMCTL_BSD43_SYSCALLS
#define SPAMCTL_BSD43_SYSCALLS ""
#endif

static void usage(FILE *f)
{
    fprintf(f,
"Usage: spamctl names extract [--kernel FILE] [--disk FILE [--partition P]]\n"
"                             [--dev MAJOR,MINOR] [--syscalls FILE | --handlers]\n"
"                             [--dz-br N]\n"
"                             -o NAMES\n"
"       spamctl names show NAMES\n"
"\n"
"extract: write a names file for 'stat', 'decode', 'hist' and 'export'\n"
"(--names NAMES) from a 4.3BSD guest:\n"
"  system calls   CHMK code -> name: the kernel's sysent table (its length,\n"
"                 its handlers) named by 4.3BSD's sys/syscalls.c (--syscalls;\n"
"                 the build extracts it from ../shared/bsd43/srcsys.tar.gz);\n"
"                 without that file, by the handlers' symbols (rexit, obreak).\n"
"  SCB vectors    the kernel's _scb as the image holds it, named by its\n"
"                 symbol table (0xC0 Xhardclock, 0x40 Xsyscall), and the nexus\n"
"                 vectors autoconf sets up at boot (setscbnex: the adapter at\n"
"                 TR n takes 0x100 + 0x40 (IPL - 0x14) + 4n) for this machine's\n"
"                 adapters -- uba0 at TR %d, mba0 at TR %d, mba1 at TR %d -- with\n"
"                 the handlers from the kernel's ubaintv/mbaintv and, for the\n"
"                 UNIBUS, the devices at each BR from its ubdinit table\n"
"                 with their handlers (0x14C: \"Xua0int: uba0 BR5: dz0\n"
"                 (Xdzrint0 Xdzxint0), de0 (Xdeintr0)\").\n"
"  programs       (device, inode) -> path: every name of the disk's file\n"
"                 system (the LDPCTX extended records carry the executable's\n"
"                 device and inode).\n"
"\n"
"  --kernel FILE  The kernel image (a VAX a.out); default /vmunix of --disk.\n"
"  --disk FILE    A raw disk image (SIMH's RP06: 512-byte sectors) or a\n"
"                 file system image (the distribution's mini-root).\n"
"  --partition P  The RP06 partition holding the file system: a (default;\n"
"                 also a bare file system image), b or g.\n"
"  --dev M,N      Its device as the guest numbers it (default: hp0, major 0,\n"
"                 minor = the partition: a 0, b 1, g 6).\n"
"  --syscalls FILE  4.3BSD's sys/syscalls.c.\n"
"  --handlers     Name system calls by their handlers' symbols instead.\n"
"  --dz-br N      dz0's bus request level as the run had it (spamctl run\n"
"                 --dz-br; default 5): on 4 its interrupts are 0x10C's.\n"
"  -o NAMES       The names file to write ('-' = stdout).\n"
"\n"
"show: check a names file and print what it holds.\n"
"\n"
"Exit status: 0 success, 1 bad input or an unwritable output, 2 usage error.\n",
            IO_TR_UBA, IO_TR_MBA0, IO_TR_MBA1);
}

/* A whole file in memory: 0, or -1 with the message printed. */
static int slurp(const char *path, uint8_t **data, size_t *len)
{
    const char *why;
    if (hostfile_read(path, NAMES_INPUT_MAX, 0, data, len, &why) != 0) {
        fprintf(stderr, "spamctl names: %s: %s\n", path, why);
        return -1;
    }
    return 0;
}

/* ---- the disk ---- */

struct disk {
    int fd;               /* -1: none */
    uint64_t start, size; /* the partition, bytes */
};

static int disk_read(void *ctx, uint64_t off, void *buf, uint32_t n)
{
    struct disk *d = ctx;
    if (off > d->size || n > d->size - off)
        return -1;
    for (uint32_t got = 0; got < n;) {
        ssize_t r = pread(d->fd, (uint8_t *)buf + got, n - got, (off_t)(d->start + off + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0) { /* past the end of a short image: zeros, as the RP06 reads them */
            memset((uint8_t *)buf + got, 0, n - got);
            break;
        }
        got += (uint32_t)r;
    }
    return 0;
}

struct walk_ctx {
    struct spam_gnames *g;
    unsigned major, minor;
    unsigned long files, skipped;
    int oom;
};

static int walk_fn(void *ctx, const char *path, uint32_t ino, uint16_t mode)
{
    struct walk_ctx *w = ctx;
    (void)mode;
    w->files++;
    /* the first name wins: a file's other links are other names of it */
    if (spam_gnames_path(w->g, w->major, w->minor, ino)) {
        w->skipped++;
        return 0;
    }
    if (spam_gnames_set_inode(w->g, w->major, w->minor, ino, path) != 0) {
        for (const char *p = path; *p; p++) /* a name with control characters */
            if ((unsigned char)*p < 0x20 || *p == 0x7F) {
                w->skipped++;
                return 0;
            }
        w->oom = 1;
        return 1;
    }
    return 0;
}

/* ---- system calls ---- */

/* The conditionals of the source: the lines of a branch not taken become
 * blanks.  Defined: `vax` only (GENERIC's options do not include TRACE);
 * #ifdef, #ifndef, #else and #endif, nested.  0, or -1 if unbalanced. */
static int preprocess(uint8_t *src, size_t len)
{
    unsigned depth = 0;
    uint64_t skip = 0; /* bit d: the branch at depth d is not taken */
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && src[e] != '\n')
            e++;
        const char *l = (const char *)src + i;
        size_t n = e - i;
        int directive = n && l[0] == '#', on = !(skip & ((2ull << depth) - 1));
        if (directive && n > 7 && (!strncmp(l, "#ifdef ", 7) || !strncmp(l, "#ifndef ", 8))) {
            int neg = l[3] == 'n';
            const char *m = l + (neg ? 8 : 7);
            size_t ml = n - (size_t)(m - l);
            while (ml && (m[ml - 1] == ' ' || m[ml - 1] == '\t' || m[ml - 1] == '\r'))
                ml--;
            int defined = ml == 3 && !memcmp(m, "vax", 3);
            if (++depth > 62)
                return -1;
            skip = (skip & ~(1ull << depth)) | (uint64_t)(defined == neg) << depth;
        } else if (directive && n >= 5 && !strncmp(l, "#else", 5)) {
            if (!depth)
                return -1;
            skip ^= 1ull << depth;
        } else if (directive && n >= 6 && !strncmp(l, "#endif", 6)) {
            if (!depth)
                return -1;
            skip &= ~(1ull << depth);
            depth--;
        }
        if (directive || !on)
            memset(src + i, ' ', n);
        i = e + 1;
    }
    return depth ? -1 : 0;
}

/* The string literals of syscallnames[] in 4.3BSD's sys/syscalls.c, in
 * order; the count, or -1 (message printed). */
static int parse_syscalls_c(const char *path, char *names[SPAM_GNAMES_CODES])
{
    uint8_t *src;
    size_t len;
    if (slurp(path, &src, &len) != 0)
        return -1;
    if (preprocess(src, len) != 0) {
        fprintf(stderr, "spamctl names: %s: unbalanced #ifdef/#else/#endif\n", path);
        free(src);
        return -1;
    }
    const char *s = (const char *)src, *end = s + len;
    const char *p = NULL;
    for (const char *q = s; q + 14 <= end; q++)
        if (!memcmp(q, "syscallnames[]", 14)) {
            p = q + 14;
            break;
        }
    while (p && p < end && *p != '{')
        p++;
    int n = 0;
    if (p && p < end) {
        for (p++; p < end && *p != '}';) {
            if (p + 1 < end && p[0] == '/' && p[1] == '*') {
                const char *c = p + 2;
                while (c + 1 < end && !(c[0] == '*' && c[1] == '/'))
                    c++;
                p = c + 2;
            } else if (*p == '"') {
                const char *q = ++p;
                while (q < end && *q != '"' && *q != '\n')
                    q++;
                if (q >= end || *q != '"' || n == SPAM_GNAMES_CODES)
                    break;
                names[n] = malloc((size_t)(q - p) + 1);
                if (!names[n])
                    break;
                memcpy(names[n], p, (size_t)(q - p));
                names[n++][q - p] = 0;
                p = q + 1;
            } else {
                p++;
            }
        }
    }
    int ok = p && p < end && *p == '}' && n > 0;
    free(src);
    if (!ok) {
        fprintf(stderr, "spamctl names: %s: no syscallnames[] table (4.3BSD's sys/syscalls.c expected)\n",
                path);
        for (int i = 0; i < n; i++)
            free(names[i]);
        return -1;
    }
    return n;
}

struct extract {
    const char *kernel_path;
    struct spam_aout k;
    struct spam_gnames *g;
    unsigned nsys, nsys_named, nvec;
    const char *syscalls_note;
    unsigned dz_br;            /* dz0's bus request level (spamctl run --dz-br) */
};

static int read_sym32(const struct spam_aout *a, const char *sym, uint32_t index, uint32_t *v)
{
    const struct spam_aout_sym *s = spam_aout_lookup(a, sym);
    return s && spam_aout_read32(a, s->value + 4 * index, v) == 0 ? 0 : -1;
}

static int extract_syscalls(struct extract *x, const char *syscalls_path)
{
    const struct spam_aout *a = &x->k;
    const struct spam_aout_sym *sysent = spam_aout_lookup(a, "_sysent");
    uint32_t nsysent;
    if (!sysent || read_sym32(a, "_nsysent", 0, &nsysent) != 0 || nsysent == 0 ||
        nsysent > SPAM_GNAMES_CODES) {
        fprintf(stderr, "spamctl names: %s: no sysent table (_sysent and _nsysent; a 4.3BSD kernel?)\n",
                x->kernel_path);
        return -1;
    }
    char *src[SPAM_GNAMES_CODES] = {0};
    int nsrc = -1;
    if (syscalls_path && *syscalls_path) {
        if ((nsrc = parse_syscalls_c(syscalls_path, src)) < 0)
            return -1;
        if ((uint32_t)nsrc != nsysent)
            fprintf(stderr, "spamctl names: warning: %s names %d system calls, the kernel's sysent has %u\n",
                    syscalls_path, nsrc, nsysent);
        x->syscalls_note = syscalls_path;
    } else {
        x->syscalls_note = NULL;
    }
    int rc = 0;
    for (uint32_t i = 0; i < nsysent && !rc; i++) {
        uint32_t call;
        char hb[128];
        if (spam_aout_read32(a, sysent->value + 8 * i + 4, &call) != 0) {
            fprintf(stderr, "spamctl names: %s: sysent[%u] is not in the image\n", x->kernel_path, i);
            rc = -1;
            break;
        }
        const char *handler = spam_aout_names_at(a, call, hb, sizeof hb);
        const char *name = (int)i < nsrc ? src[i] : handler;
        if (!name)
            continue;
        x->nsys++;
        if ((int)i < nsrc)
            x->nsys_named++;
        if (spam_gnames_set_syscall(x->g, i, name) != 0)
            rc = -1;
    }
    for (int i = 0; i < nsrc; i++)
        free(src[i]);
    return rc;
}

/* ---- SCB vectors ---- */

/* Adds a vector name (the SCB entry's handler): 0 or -1. */
static int set_vec(struct extract *x, unsigned vec, const char *name)
{
    x->nvec++;
    return spam_gnames_set_vector(x->g, vec, name);
}

/* A C string of the image at va: 0, or -1 (not there, too long, not
 * printable). */
static int image_str(const struct spam_aout *a, uint32_t va, char *out, size_t len)
{
    for (size_t n = 0; n + 1 < len; n++) {
        uint32_t w;
        if (spam_aout_read32(a, va + (uint32_t)(n & ~3u), &w) != 0)
            return -1;
        char c = (char)(w >> (8 * (n & 3)));
        out[n] = c;
        if (!c)
            return n ? 0 : -1;
        if ((unsigned char)c < 0x20 || (unsigned char)c > 0x7E)
            return -1;
    }
    return -1;
}

/* The UNIBUS devices of this machine at BR br as the kernel's ubdinit
 * table knows the units at their CSRs, with their interrupt handlers:
 * "dz0 (Xdzrint0 Xdzxint0), de0 (Xdeintr0)". */
static void unibus_devices(const struct spam_aout *a, unsigned br, unsigned dz_br, char *out,
                           size_t len)
{
    struct { uint32_t csr; unsigned br; } dev[] = {
        {IO_DZ_BASE, dz_br}, /* spamctl run's machine: one DZ11 */
        {IO_DEUNA_CSR, IO_DEUNA_BR},
    };
    const struct spam_aout_sym *ub = spam_aout_lookup(a, "_ubdinit");
    size_t k = 0;
    out[0] = 0;
    if (!ub)
        return;
    /* struct uba_device (4.3BSD vaxuba/ubavar.h): 48 bytes; ui_driver at
     * 0, ui_unit at 4 (short), ui_intr at 12 (a 0-ended array of
     * handlers), ui_addr at 16; the driver's ud_dname at 20 */
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t e = ub->value + 48 * i, drv, unit, intr, addr, dname;
        if (spam_aout_read32(a, e, &drv) != 0 || drv == 0)
            break;
        if (spam_aout_read32(a, e + 4, &unit) != 0 || spam_aout_read32(a, e + 12, &intr) != 0 ||
            spam_aout_read32(a, e + 16, &addr) != 0 || spam_aout_read32(a, drv + 20, &dname) != 0)
            break;
        for (size_t d = 0; d < sizeof dev / sizeof dev[0]; d++) {
            char nm[16], h[160] = "";
            if (dev[d].br != br || addr == 0 || (addr & 0xFFFF) != (dev[d].csr & 0xFFFF) ||
                image_str(a, dname, nm, sizeof nm) != 0)
                continue;
            size_t hk = 0;
            for (uint32_t j = 0, fn; intr && j < 8 && spam_aout_read32(a, intr + 4 * j, &fn) == 0 && fn; j++) {
                char hb[64];
                const char *hn = spam_aout_names_at(a, fn, hb, sizeof hb);
                int wr = hn ? snprintf(h + hk, sizeof h - hk, "%s%s", hk ? " " : "", hn) : 0;
                if (wr > 0 && (size_t)wr < sizeof h - hk)
                    hk += (size_t)wr;
            }
            int wr = snprintf(out + k, len - k, "%s%s%u%s%s%s", k ? ", " : "", nm, unit & 0xFFFF, hk ? " (" : "",
                              h, hk ? ")" : "");
            if (wr > 0 && (size_t)wr < len - k)
                k += (size_t)wr;
        }
    }
}

static int extract_vectors(struct extract *x)
{
    const struct spam_aout *a = &x->k;
    const struct spam_aout_sym *scb = spam_aout_lookup(a, "_scb");
    if (!scb) {
        fprintf(stderr, "spamctl names: %s: no _scb symbol (a 4.3BSD VAX kernel?)\n", x->kernel_path);
        return -1;
    }
    /* SCB page 0 as the image holds it (low bits: the stack to use) */
    for (unsigned v = 0; v < 0x200; v += 4) {
        uint32_t ent;
        char nb[128];
        if (spam_aout_read32(a, scb->value + v, &ent) != 0) {
            fprintf(stderr, "spamctl names: %s: the SCB at 0x%08X is not in the image\n", x->kernel_path,
                    scb->value);
            return -1;
        }
        const char *n = spam_aout_names_at(a, ent & ~3u, nb, sizeof nb);
        if (n && strcmp(n, "Xstray") != 0 && set_vec(x, v, n) != 0)
            return -1;
    }
    /* the nexus vectors autoconf fills in at boot (setscbnex) */
    struct { const char *tab, *name; unsigned index, tr; } nexus[] = {
        {"_ubaintv", "uba", 0, IO_TR_UBA},
        {"_mbaintv", "mba", 0, IO_TR_MBA0},
        {"_mbaintv", "mba", 1, IO_TR_MBA1},
    };
    for (size_t i = 0; i < sizeof nexus / sizeof nexus[0]; i++) {
        uint32_t fn;
        char hb[96];
        if (read_sym32(a, nexus[i].tab, nexus[i].index, &fn) != 0)
            continue; /* a kernel without this adapter type */
        const char *h = spam_aout_names_at(a, fn, hb, sizeof hb);
        if (!h)
            continue;
        for (unsigned br = 4; br <= 7; br++) {
            char name[400], devs[300] = "";
            if (nexus[i].name[0] == 'u')
                unibus_devices(a, br, x->dz_br, devs, sizeof devs);
            snprintf(name, sizeof name, "%s: %s%u BR%u%s%s", h, nexus[i].name, nexus[i].index, br,
                     devs[0] ? ": " : "", devs);
            if (set_vec(x, 0x100 + 0x40 * (br - 4) + 4 * nexus[i].tr, name) != 0)
                return -1;
        }
    }
    return 0;
}

/* ---- the command ---- */

static int extract(int argc, char **argv)
{
    const char *kernel = NULL, *disk = NULL, *out = NULL, *syscalls = SPAMCTL_BSD43_SYSCALLS;
    int part = 'a', dev_given = 0;
    unsigned major = 0, minor = 0;
    int syscalls_given = 0, handlers = 0;
    unsigned dz_br = IO_DZ_BR;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int rc;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return SPAMCTL_EXIT_OK;
        } else if ((rc = opt_value(argc, argv, &i, "--kernel", &v)) != 0) {
            kernel = rc > 0 ? v : "";
        } else if ((rc = opt_value(argc, argv, &i, "--disk", &v)) != 0) {
            disk = rc > 0 ? v : "";
        } else if ((rc = opt_value(argc, argv, &i, "--syscalls", &v)) != 0) {
            syscalls = rc > 0 ? v : "";
            syscalls_given = 1;
        } else if (strcmp(argv[i], "--handlers") == 0) {
            handlers = 1;
        } else if ((rc = opt_value(argc, argv, &i, "--dz-br", &v)) != 0) {
            if (rc < 0 || v[0] < '4' || v[0] > '7' || v[1]) {
                fprintf(stderr, "spamctl names: --dz-br needs a bus request level, 4-7\n");
                return SPAMCTL_EXIT_USAGE;
            }
            dz_br = (unsigned)(v[0] - '0');
        } else if ((rc = opt_value(argc, argv, &i, "-o", &v)) != 0) {
            out = rc > 0 ? v : "";
        } else if ((rc = opt_value(argc, argv, &i, "--partition", &v)) != 0) {
            if (rc < 0 || strlen(v) != 1 || !strchr("abg", v[0])) {
                fprintf(stderr, "spamctl names: --partition needs a, b or g\n");
                return SPAMCTL_EXIT_USAGE;
            }
            part = v[0];
        } else if ((rc = opt_value(argc, argv, &i, "--dev", &v)) != 0) {
            char extra;
            if (rc < 0 || sscanf(v, "%u,%u%c", &major, &minor, &extra) != 2 || major > 255 || minor > 255) {
                fprintf(stderr, "spamctl names: --dev needs MAJOR,MINOR (0..255 each)\n");
                return SPAMCTL_EXIT_USAGE;
            }
            dev_given = 1;
        } else {
            fprintf(stderr, "spamctl names extract: unknown argument '%s'\n", argv[i]);
            return SPAMCTL_EXIT_USAGE;
        }
    }
    if ((kernel && !*kernel) || (disk && !*disk) || (syscalls_given && !*syscalls) || (out && !*out)) {
        fprintf(stderr, "spamctl names extract: an option needs a file\n");
        return SPAMCTL_EXIT_USAGE;
    }
    if (!out || (!kernel && !disk)) {
        fprintf(stderr, "spamctl names extract: give --kernel or --disk (or both) and -o NAMES\n");
        return SPAMCTL_EXIT_USAGE;
    }
    struct hostfile_set *files = malloc(sizeof *files);
    if (!files) {
        fprintf(stderr, "spamctl names: out of memory\n");
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    hostfile_set_init(files);
    hostfile_set_add(files, HOSTFILE_IN, "--kernel", kernel);
    hostfile_set_add(files, HOSTFILE_IN, "--disk", disk);
    hostfile_set_add(files, HOSTFILE_IN, "--syscalls", syscalls_given ? syscalls : NULL);
    hostfile_set_add(files, HOSTFILE_OUT, "-o", out);
    int clash = out_check_files("names extract", files);
    free(files);
    if (clash)
        return SPAMCTL_EXIT_USAGE;
    if (handlers && syscalls_given) {
        fprintf(stderr, "spamctl names extract: --handlers or --syscalls, not both\n");
        return SPAMCTL_EXIT_USAGE;
    }
    if (handlers)
        syscalls = "";
    else if (!syscalls_given && *syscalls) {
        struct stat st;
        if (stat(syscalls, &st) != 0)
            syscalls = ""; /* the build had no 4.3BSD source: handler names */
    }
    static const struct { char p; uint64_t start, sectors; unsigned minor; } parts[] = {
        {'a', 0, 15884, 0}, {'b', 15884, 33440, 1}, {'g', 49324, 291280, 6}, /* vaxmba/hp.c rp06_sizes */
    };
    if (!dev_given)
        for (size_t i = 0; i < 3; i++)
            if (parts[i].p == part)
                minor = parts[i].minor;

    struct extract x = {.g = spam_gnames_new(), .dz_br = dz_br};
    struct disk d = {.fd = -1};
    struct walk_ctx w = {0};
    uint8_t *image = NULL;
    size_t ilen = 0;
    int rc = SPAMCTL_EXIT_BAD_INPUT, parsed = 0;
    char err[200];
    if (!x.g) {
        fprintf(stderr, "spamctl names: out of memory\n");
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    if (disk) {
        const char *why;
        /* a file system image or a disk (a block device), never waited on */
        if ((d.fd = hostfile_open_regular(disk, 0, 1, &why)) < 0) {
            fprintf(stderr, "spamctl names: %s: %s\n", disk, why);
            goto done;
        }
        struct stat st;
        off_t end = lseek(d.fd, 0, SEEK_END);
        if (fstat(d.fd, &st) != 0 || end < 0) {
            fprintf(stderr, "spamctl names: %s: %s\n", disk, strerror(errno));
            goto done;
        }
        st.st_size = end; /* a block device's size too */
        for (size_t i = 0; i < 3; i++)
            if (parts[i].p == part) {
                d.start = parts[i].start * 512;
                d.size = parts[i].sectors * 512;
            }
        if ((uint64_t)st.st_size <= d.start) {
            fprintf(stderr, "spamctl names: %s: no partition %c (%" PRIu64 " bytes)\n", disk, part,
                    (uint64_t)st.st_size);
            goto done;
        }
        /* a shorter image reads zeros to the partition's end, as SIMH's
         * and our RP06 do (a bare file system image: to its own size) */
    }
    if (kernel) {
        if (slurp(kernel, &image, &ilen) != 0)
            goto done;
        x.kernel_path = kernel;
    } else {
        uint32_t n;
        if (io_ufs_read(disk_read, &d, "/vmunix", &image, &n, err, sizeof err) != 0) {
            fprintf(stderr, "spamctl names: %s (partition %c): /vmunix: %s\n", disk, part, err);
            goto done;
        }
        ilen = n;
        x.kernel_path = "/vmunix";
    }
    struct spam_err e;
    if (spam_aout_parse(&x.k, image, ilen, &e) != 0) {
        fprintf(stderr, "spamctl names: %s: %s\n", x.kernel_path, e.msg);
        goto done;
    }
    parsed = 1;
    if (extract_syscalls(&x, syscalls) != 0 || extract_vectors(&x) != 0)
        goto done;
    if (disk) {
        w = (struct walk_ctx){.g = x.g, .major = major, .minor = minor};
        if (io_ufs_walk(disk_read, &d, walk_fn, &w, err, sizeof err) != 0 || w.oom) {
            fprintf(stderr, "spamctl names: %s (partition %c): %s\n", disk, part, w.oom ? "out of memory" : err);
            goto done;
        }
    }
    struct out_file o;
    if (out_open_stream(&o, "names", out) != 0)
        goto done;
    fprintf(o.f, "# spamctl names extract: the names of a 4.3BSD guest (spam/spam_gnames.h)\n");
    fprintf(o.f, "# kernel %s%s%s: %u system calls (sysent), %s; %u SCB vectors\n", kernel ? kernel : disk,
            kernel ? "" : ":", kernel ? "" : x.kernel_path, x.nsys,
            x.syscalls_note ? "named by sys/syscalls.c" : "named by their handlers (no sys/syscalls.c)", x.nvec);
    if (disk)
        fprintf(o.f, "# disk %s partition %c as device %u,%u: %lu names, %lu files\n", disk, part, major, minor,
                w.files, w.files - w.skipped);
    spam_gnames_write(x.g, o.f);
    rc = out_close(&o) == 0 ? SPAMCTL_EXIT_OK : SPAMCTL_EXIT_BAD_INPUT;
    if (rc == SPAMCTL_EXIT_OK)
        fprintf(stderr, "spamctl names: %u system calls, %u vectors, %lu programs and files -> %s\n", x.nsys,
                x.nvec, w.files - w.skipped, out);
done:
    if (parsed)
        spam_aout_free(&x.k);
    free(image);
    if (d.fd >= 0)
        close(d.fd);
    spam_gnames_free(x.g);
    return rc;
}

static int show(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
            usage(stdout);
            return SPAMCTL_EXIT_OK;
        }
        fprintf(stderr, "spamctl names show: one names file\n");
        return SPAMCTL_EXIT_USAGE;
    }
    struct spam_err e;
    struct spam_gnames *g = spam_gnames_load(argv[1], &e);
    if (!g) {
        fprintf(stderr, "spamctl names: %s: %s\n", argv[1], e.msg);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    size_t s, v, n;
    spam_gnames_counts(g, &s, &v, &n);
    printf("# %s: %zu system calls, %zu vectors, %zu inodes\n", argv[1], s, v, n);
    spam_gnames_write(g, stdout);
    spam_gnames_free(g);
    return SPAMCTL_EXIT_OK;
}

int spamctl_cmd_names(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "extract") == 0)
        return extract(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "show") == 0)
        return show(argc - 1, argv + 1);
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout);
        return SPAMCTL_EXIT_OK;
    }
    usage(stderr);
    return SPAMCTL_EXIT_USAGE;
}
