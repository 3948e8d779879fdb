/* The guest's names for spamctl probe (spamctl_guest.h). */
#include "cli/spamctl_guest.h"

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/spamctl_names.h"
#include "microcode/hostfile.h"
#include "vax/io/io_bootfile.h"

/* The RP06 partitions 4.3BSD's hp driver knows (vaxmba/hp.c rp06_sizes):
 * a is the root, g holds /usr. */
#define PART_A_SECTORS 15884u
#define PART_G_START 49324u
#define PART_G_SECTORS 291280u

/* A partition of the disk image: bytes [start, start + size) of f. */
struct file_part {
    FILE *f;
    uint64_t start, size;
};

static int file_part_read(void *ctx, uint64_t off, void *buf, uint32_t n)
{
    struct file_part *p = ctx;
    if (off + n > p->size || fseeko(p->f, (off_t)(p->start + off), SEEK_SET) != 0)
        return -1;
    return fread(buf, 1, n, p->f) == n ? 0 : -1;
}

/* ---- the disk's files ---- */

struct walk {
    struct guest *g;
    const char *prefix;
    uint32_t dev;
    int oom;
};

static int walk_fn(void *ctx, const char *path, uint32_t ino, uint16_t mode)
{
    struct walk *w = ctx;
    struct guest *g = w->g;
    if (w->prefix[0] && !strcmp(path, "/"))
        return 0; /* the mount point is the other file system's */
    if (g->nfile == g->capfile) {
        size_t cap = g->capfile ? g->capfile * 2 : 256;
        struct guest_file *nf = realloc(g->file, cap * sizeof *nf);
        if (!nf) {
            w->oom = 1;
            return 1;
        }
        g->file = nf;
        g->capfile = cap;
    }
    size_t n = strlen(w->prefix) + strlen(path) + 1;
    char *p = malloc(n);
    if (!p) {
        w->oom = 1;
        return 1;
    }
    snprintf(p, n, "%s%s", w->prefix, w->prefix[0] && !strcmp(path, "/") ? "" : path);
    g->file[g->nfile++] = (struct guest_file){.path = p, .prog = w->dev << 16 | (ino & 0xFFFF),
                                              .mode = mode};
    return 0;
}

static int by_path(const void *x, const void *y)
{
    return strcmp(((const struct guest_file *)x)->path, ((const struct guest_file *)y)->path);
}

static const struct guest_file *file_at(const struct guest *g, const char *path)
{
    struct guest_file key = {.path = (char *)path};
    return g->nfile ? bsearch(&key, g->file, g->nfile, sizeof key, by_path) : NULL;
}

static int executable(const struct guest_file *f)
{
    return (f->mode & 0170000) == 0100000 && (f->mode & 0111);
}

/* A comm key (probe_lang.h) under which no two executables collide (a
 * file's other links are the same program). */
static void choose_comm_key(struct guest *g)
{
    size_t nx = 0;
    for (size_t i = 0; i < g->nfile; i++)
        nx += executable(&g->file[i]);
    uint32_t *owner = calloc(65536, sizeof *owner);
    g->comm_mul = 1;
    g->comm_mod = 4093;
    if (!owner)
        return;
    for (uint32_t mod = nx * 2 > 1021 ? (uint32_t)nx * 2 : 1021; mod <= 65521; mod++) {
        for (uint32_t mul = 1; mul <= 7; mul += 2) {
            memset(owner, 0, mod * sizeof *owner);
            int clash = 0;
            for (size_t i = 0; i < g->nfile && !clash; i++) {
                if (!executable(&g->file[i]))
                    continue;
                uint32_t p = g->file[i].prog, k = ((p & 0xFFFF) + (p >> 16) * mul) % mod;
                clash = owner[k] && owner[k] != p + 1;
                owner[k] = p + 1;
            }
            if (!clash) {
                g->comm_mul = mul;
                g->comm_mod = mod;
                free(owner);
                return;
            }
        }
    }
    free(owner);
}

/* ---- the kernel ---- */

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* The kernel's JSB targets (JSB with a longword-relative or absolute
 * operand) and its SCB's handlers: entered without an entry mask. */
static void find_jsb(struct guest *g)
{
    const struct spam_aout *a = &g->k;
    size_t cap = 256;
    g->jsb = malloc(cap * sizeof *g->jsb);
    if (!g->jsb)
        return;
    const uint8_t *t = a->image + a->text_off;
    for (uint32_t i = 0; i + 6 <= a->text; i++) {
        if (t[i] != 0x16 || (t[i + 1] != 0xEF && t[i + 1] != 0x9F))
            continue;
        uint32_t d = (uint32_t)t[i + 2] | (uint32_t)t[i + 3] << 8 | (uint32_t)t[i + 4] << 16 |
                     (uint32_t)t[i + 5] << 24;
        uint32_t target = t[i + 1] == 0xEF ? a->text_va + i + 6 + d : d;
        if (g->njsb == cap) {
            uint32_t *n = realloc(g->jsb, cap * 2 * sizeof *n);
            if (!n)
                break;
            g->jsb = n;
            cap *= 2;
        }
        g->jsb[g->njsb++] = target;
    }
    const struct spam_aout_sym *scb = spam_aout_lookup(a, "_scb");
    for (uint32_t v = 0; scb && v < 0x200; v += 4) {
        uint32_t e;
        if (spam_aout_read32(a, scb->value + v, &e) != 0 || g->njsb == cap)
            break;
        g->jsb[g->njsb++] = e & ~3u;
    }
    qsort(g->jsb, g->njsb, sizeof *g->jsb, cmp_u32);
}

/* Where a probe at a procedure's entry goes: 2 (after the entry mask) or
 * 0 (a JSB routine, an SCB handler, or a word that is no mask). */
static uint32_t entry_of(const struct spam_aout *a, const uint32_t *jsb, size_t njsb,
                         uint32_t va)
{
    if (jsb && bsearch(&va, jsb, njsb, sizeof va, cmp_u32))
        return 0;
    uint32_t w;
    if (spam_aout_read32(a, va & ~3u, &w) == 0) {
        if (va & 2) {
            uint32_t w2;
            w = w >> 16 | (spam_aout_read32(a, va + 2, &w2) == 0 ? w2 << 16 : 0);
        }
        if (w & 0x3000) /* bits 12 and 13 of an entry mask must be zero */
            return 0;
    }
    return 2;
}

static const struct spam_aout_sym *sym_named(const struct spam_aout *a, const char *name)
{
    const struct spam_aout_sym *y = NULL;
    if (name[0] != '_') {
        char b[128];
        snprintf(b, sizeof b, "_%s", name);
        y = spam_aout_lookup(a, b);
    }
    return y ? y : spam_aout_lookup(a, name);
}

int guest_open(struct guest *g, const char *cmd, const char *kernel, const char *disk)
{
    memset(g, 0, sizeof *g);
    g->disk_path = disk;
    g->kernel_path = kernel ? kernel : "/vmunix";
    g->comm_mul = 1;
    g->comm_mod = 4093;
    size_t klen = 0;
    char err[200];
    struct file_part pa = {0};
    if (disk) {
        pa.f = fopen(disk, "rb");
        struct stat st;
        if (!pa.f || fstat(fileno(pa.f), &st) != 0) {
            fprintf(stderr, "spamctl %s: %s: %s\n", cmd, disk, strerror(errno));
            if (pa.f)
                fclose(pa.f);
            return -1;
        }
        pa.size = (uint64_t)st.st_size < PART_A_SECTORS * 512ull ? (uint64_t)st.st_size
                                                                 : PART_A_SECTORS * 512ull;
        g->disk = pa.f;
        struct walk w = {.g = g, .prefix = "", .dev = 0};
        if (io_ufs_walk(file_part_read, &pa, walk_fn, &w, err, sizeof err) != 0 || w.oom) {
            fprintf(stderr, "spamctl %s: %s: %s\n", cmd, disk, w.oom ? "out of memory" : err);
            guest_close(g);
            return -1;
        }
        /* /usr on partition g (hp0g, minor 6), when it holds a file system */
        struct file_part pg = {.f = pa.f, .start = PART_G_START * 512ull};
        if ((uint64_t)st.st_size > pg.start) {
            pg.size = (uint64_t)st.st_size - pg.start;
            if (pg.size > PART_G_SECTORS * 512ull)
                pg.size = PART_G_SECTORS * 512ull;
            struct walk wg = {.g = g, .prefix = "/usr", .dev = 6};
            size_t before = g->nfile;
            if (io_ufs_walk(file_part_read, &pg, walk_fn, &wg, err, sizeof err) != 0 || wg.oom) {
                for (size_t i = before; i < g->nfile; i++)
                    free(g->file[i].path);
                g->nfile = before; /* (no file system there) */
            }
        }
        qsort(g->file, g->nfile, sizeof *g->file, by_path);
        choose_comm_key(g);
    }
    if (kernel) {
        const char *why;
        if (hostfile_read(kernel, IO_BOOTFILE_MAX, 0, &g->kimage, &klen, &why) != 0) {
            fprintf(stderr, "spamctl %s: %s: %s\n", cmd, kernel, why);
            guest_close(g);
            return -1;
        }
    } else if (disk) {
        uint32_t n;
        pa.start = 0;
        if (io_ufs_read(file_part_read, &pa, "/vmunix", &g->kimage, &n, err, sizeof err) != 0) {
            fprintf(stderr, "spamctl %s: %s: /vmunix: %s\n", cmd, disk, err);
            guest_close(g);
            return -1;
        }
        klen = n;
    }
    if (g->kimage) {
        struct spam_err e;
        if (spam_aout_parse(&g->k, g->kimage, klen, &e) != 0) {
            fprintf(stderr, "spamctl %s: %s: %s\n", cmd, g->kernel_path, e.msg);
            guest_close(g);
            return -1;
        }
        g->kok = 1;
        find_jsb(g);
        g->names = spam_gnames_new();
        if (!g->names || spamctl_names_kernel(&g->k, g->kernel_path, g->names) != 0) {
            guest_close(g);
            return -1;
        }
    }
    return 0;
}

void guest_close(struct guest *g)
{
    if (g->kok)
        spam_aout_free(&g->k);
    free(g->kimage);
    free(g->jsb);
    for (size_t i = 0; i < g->nfile; i++)
        free(g->file[i].path);
    free(g->file);
    spam_gnames_free(g->names);
    if (g->disk)
        fclose(g->disk);
    memset(g, 0, sizeof *g);
}

/* ---- the resolver ---- */

static int r_ksym(void *ctx, const char *name, uint32_t *v, uint32_t *entry, char *err, size_t n)
{
    struct guest *g = ctx;
    if (!g->kok) {
        snprintf(err, n, "kernel symbols need the guest's kernel (--kernel FILE or --disk FILE)");
        return -1;
    }
    const struct spam_aout_sym *y = sym_named(&g->k, name);
    if (!y) {
        snprintf(err, n, "%s has no symbol '%s' (nor '_%s')", g->kernel_path, name, name);
        return -1;
    }
    *v = y->value;
    *entry = entry_of(&g->k, g->jsb, g->njsb, y->value);
    return 0;
}

static int r_ktext(void *ctx, uint32_t *lo, uint32_t *hi, char *err, size_t n)
{
    struct guest *g = ctx;
    if (!g->kok) {
        snprintf(err, n, "no kernel");
        return -1;
    }
    *lo = g->k.text_va;
    *hi = g->k.text_va + g->k.text;
    return 0;
}

static const char *const search[] = {"/bin", "/usr/bin", "/usr/ucb", "/etc", "/usr/local",
                                     "/usr/games", "/lib", "/usr/lib"};

/* A path, or a bare name searched as a shell would. */
static const struct guest_file *find_prog(const struct guest *g, const char *path)
{
    if (path[0] == '/')
        return file_at(g, path);
    for (size_t i = 0; i < sizeof search / sizeof search[0]; i++) {
        char b[300];
        snprintf(b, sizeof b, "%s/%s", search[i], path);
        const struct guest_file *f = file_at(g, b);
        if (f && executable(f))
            return f;
    }
    return NULL;
}

static int r_prog(void *ctx, const char *path, uint32_t *prog, char *err, size_t n)
{
    struct guest *g = ctx;
    if (!g->nfile) {
        snprintf(err, n, "program names need the guest's disk (--disk FILE)");
        return -1;
    }
    const struct guest_file *f = find_prog(g, path);
    if (!f) {
        snprintf(err, n, path[0] == '/' ? "no %s on %s" : "no program '%s' in /bin, /usr/bin, "
                 "/usr/ucb, /etc ... of %s", path, g->disk_path);
        return -1;
    }
    if (!executable(f)) {
        snprintf(err, n, "%s on %s is not an executable file", f->path, g->disk_path);
        return -1;
    }
    *prog = f->prog;
    return 0;
}

static int r_usym(void *ctx, const char *path, const char *name, uint32_t *v, uint32_t *entry,
                  char *err, size_t n)
{
    struct guest *g = ctx;
    const struct guest_file *f = g->disk ? find_prog(g, path) : NULL;
    if (!f) {
        snprintf(err, n, "no program '%s' on the disk", path);
        return -1;
    }
    struct file_part p = {.f = g->disk};
    const char *fp = f->path;
    if ((f->prog >> 16) == 6) {
        p.start = PART_G_START * 512ull;
        p.size = PART_G_SECTORS * 512ull;
        fp += 4; /* the path within /usr */
    } else {
        p.size = PART_A_SECTORS * 512ull;
    }
    uint8_t *img;
    uint32_t len;
    char e[200];
    if (io_ufs_read(file_part_read, &p, fp, &img, &len, e, sizeof e) != 0) {
        snprintf(err, n, "%s: %s", f->path, e);
        return -1;
    }
    struct spam_aout a;
    struct spam_err se;
    int rc = -1;
    if (spam_aout_parse(&a, img, len, &se) != 0) {
        snprintf(err, n, "%s: %s", f->path, se.msg);
    } else {
        const struct spam_aout_sym *y = sym_named(&a, name);
        if (!y) {
            snprintf(err, n, "%s has no symbol '%s' (a stripped program has none)", f->path, name);
        } else {
            *v = y->value;
            *entry = entry_of(&a, NULL, 0, y->value);
            rc = 0;
        }
        spam_aout_free(&a);
    }
    free(img);
    return rc;
}

static int r_syscall(void *ctx, const char *name, uint32_t *code, char *err, size_t n)
{
    struct guest *g = ctx;
    for (unsigned c = 0; g->names && c < SPAM_GNAMES_CODES; c++) {
        const char *s = spam_gnames_syscall(g->names, c);
        if (s && !strcmp(s, name)) {
            *code = c;
            return 0;
        }
    }
    snprintf(err, n, g->names ? "the kernel has no system call '%s'"
                              : "system call names need the guest's kernel (--kernel or --disk)",
             name);
    return -1;
}

/* A vector's name: its handler (Xhardclock, or hardclock), or a device
 * behind the adapter vector (de0, dz0). */
static int vec_matches(const char *full, const char *name)
{
    size_t n = strlen(name);
    size_t h = strcspn(full, ": /");
    if ((h == n && !strncmp(full, name, n)) ||
        (full[0] == 'X' && h == n + 1 && !strncmp(full + 1, name, n)))
        return 1;
    for (const char *p = full; (p = strstr(p, name)); p += n) {
        int start = p == full || p[-1] == ' ' || p[-1] == '(' || p[-1] == ',';
        int end = p[n] == 0 || p[n] == ' ' || p[n] == ',' || p[n] == ')';
        if (start && end && p > full + h)
            return 1;
    }
    return 0;
}

static int r_vector(void *ctx, const char *name, uint32_t *vec, char *err, size_t n)
{
    struct guest *g = ctx;
    for (unsigned v = 0; g->names && v < SPAM_GNAMES_VECTORS * 4; v += 4) {
        const char *s = spam_gnames_vector(g->names, v);
        if (s && vec_matches(s, name)) {
            *vec = v;
            return 0;
        }
    }
    snprintf(err, n, g->names ? "the kernel's SCB has no vector '%s' (a handler such as "
                                "hardclock, or a device such as de0)"
                              : "vector names need the guest's kernel (--kernel or --disk)",
             name);
    return -1;
}

void guest_resolver(struct guest *g, struct prb_lang_resolver *r)
{
    memset(r, 0, sizeof *r);
    r->ctx = g;
    r->ksym = r_ksym;
    r->ktext = r_ktext;
    r->prog = r_prog;
    r->usym = r_usym;
    r->syscall = r_syscall;
    r->vector = r_vector;
    r->comm_mul = g->comm_mul;
    r->comm_mod = g->comm_mod;
}

/* ---- names for printing ---- */

/* The text symbol at or below va (the external one at equal values). */
static const struct spam_aout_sym *sym_below(const struct spam_aout *a, uint32_t va)
{
    size_t lo = 0, hi = a->nby_value;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (a->by_value[mid]->value <= va)
            lo = mid + 1;
        else
            hi = mid;
    }
    while (lo > 0) {
        const struct spam_aout_sym *s = a->by_value[lo - 1];
        size_t first = lo - 1;
        while (first > 0 && a->by_value[first - 1]->value == s->value)
            first--;
        s = a->by_value[first];
        if ((s->type & SPAM_AOUT_N_TYPE) == SPAM_AOUT_N_TEXT)
            return s;
        lo = first;
    }
    return NULL;
}

const char *guest_name(void *ctx, enum prb_lang_type t, uint32_t v, char *buf, size_t len)
{
    struct guest *g = ctx;
    switch (t) {
    case PRB_T_KFUNC: case PRB_T_KADDR: {
        if (!g->kok || v < g->k.text_va || v >= g->k.text_va + g->k.text)
            return NULL;
        const struct spam_aout_sym *s = sym_below(&g->k, v);
        if (!s)
            return NULL;
        const char *nm = s->name[0] == '_' ? s->name + 1 : s->name;
        if (t == PRB_T_KFUNC || v == s->value)
            snprintf(buf, len, "%s", nm);
        else
            snprintf(buf, len, "%s+0x%" PRIx32, nm, v - s->value);
        return buf;
    }
    case PRB_T_COMM:
        if (v == 0)
            return "(no program)";
        for (size_t i = 0; i < g->nfile; i++)
            if (g->file[i].prog == v && executable(&g->file[i]))
                return g->file[i].path;
        return NULL;
    case PRB_T_COMMKEY: {
        size_t n = 0;
        buf[0] = 0;
        if (v == 0 && !g->nfile)
            return NULL;
        for (size_t i = 0; i < g->nfile; i++) {
            const struct guest_file *f = &g->file[i];
            uint32_t k = ((f->prog & 0xFFFF) + (f->prog >> 16) * g->comm_mul) % g->comm_mod;
            if (k != v || !executable(f))
                continue;
            int w = snprintf(buf + n, len - n, "%s%s", n ? "|" : "", f->path);
            if (w < 0 || (size_t)w >= len - n)
                break;
            n += (size_t)w;
        }
        if (!n && v == 0)
            return "(no program)";
        return n ? buf : NULL;
    }
    case PRB_T_SYSCALL: return g->names ? spam_gnames_syscall(g->names, v) : NULL;
    case PRB_T_VECTOR: {
        const char *s = g->names ? spam_gnames_vector(g->names, v) : NULL;
        if (!s)
            return NULL;
        size_t h = strcspn(s, ":");
        snprintf(buf, len, "%.*s", (int)h, s);
        return buf;
    }
    default: return NULL;
    }
}

void guest_list(struct guest *g, const char *pat,
                void (*fn)(void *ctx, const char *name, uint32_t value, uint32_t entry),
                void *ctx)
{
    if (!g->kok)
        return;
    for (size_t i = 0; i < g->k.nby_value; i++) {
        const struct spam_aout_sym *s = g->k.by_value[i];
        if ((s->type & SPAM_AOUT_N_TYPE) != SPAM_AOUT_N_TEXT || !(s->type & SPAM_AOUT_N_EXT))
            continue;
        const char *nm = s->name[0] == '_' ? s->name + 1 : s->name;
        if (fnmatch(pat, nm, 0) == 0 || fnmatch(pat, s->name, 0) == 0)
            fn(ctx, nm, s->value, entry_of(&g->k, g->jsb, g->njsb, s->value));
    }
}
