#include "spam/spam_gnames.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct inode_name {
    uint32_t key; /* major << 24 | minor << 16 | inode <15:0>: what a trace holds */
    uint32_t ino; /* the whole inode number */
    char *path;
};

struct spam_gnames {
    char *syscall[SPAM_GNAMES_CODES];
    char *vector[SPAM_GNAMES_VECTORS];
    struct inode_name *in; /* sorted by key, then ino */
    size_t nin, capin;
};

struct spam_gnames *spam_gnames_new(void) { return calloc(1, sizeof(struct spam_gnames)); }

void spam_gnames_free(struct spam_gnames *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < SPAM_GNAMES_CODES; i++)
        free(g->syscall[i]);
    for (size_t i = 0; i < SPAM_GNAMES_VECTORS; i++)
        free(g->vector[i]);
    for (size_t i = 0; i < g->nin; i++)
        free(g->in[i].path);
    free(g->in);
    free(g);
}

/* A name is printable text without control characters, not empty. */
static int good_name(const char *s)
{
    if (!s || !*s)
        return 0;
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7F)
            return 0;
    return 1;
}

static int replace(char **slot, const char *name)
{
    if (!good_name(name))
        return -1;
    char *c = strdup(name);
    if (!c)
        return -1;
    free(*slot);
    *slot = c;
    return 0;
}

int spam_gnames_set_syscall(struct spam_gnames *g, unsigned code, const char *name)
{
    return code < SPAM_GNAMES_CODES ? replace(&g->syscall[code], name) : -1;
}

int spam_gnames_set_vector(struct spam_gnames *g, unsigned vec, const char *name)
{
    return vec < 4 * SPAM_GNAMES_VECTORS && vec % 4 == 0 ? replace(&g->vector[vec / 4], name) : -1;
}

static uint32_t inode_key(unsigned major, unsigned minor, unsigned ino)
{
    return (uint32_t)major << 24 | (uint32_t)minor << 16 | (ino & 0xFFFFu);
}

/* The first entry not below (key, ino). */
static size_t lower_bound(const struct spam_gnames *g, uint32_t key, uint32_t ino)
{
    size_t lo = 0, hi = g->nin;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct inode_name *e = &g->in[mid];
        if (e->key < key || (e->key == key && e->ino < ino))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int spam_gnames_set_inode(struct spam_gnames *g, unsigned major, unsigned minor, unsigned ino,
                          const char *path)
{
    if (major > 0xFF || minor > 0xFF || !good_name(path))
        return -1;
    uint32_t key = inode_key(major, minor, ino);
    size_t at = lower_bound(g, key, ino);
    if (at < g->nin && g->in[at].key == key && g->in[at].ino == ino)
        return replace(&g->in[at].path, path);
    if (g->nin == g->capin) {
        size_t cap = g->capin ? 2 * g->capin : 256;
        struct inode_name *n = realloc(g->in, cap * sizeof *n);
        if (!n)
            return -1;
        g->in = n;
        g->capin = cap;
    }
    char *c = strdup(path);
    if (!c)
        return -1;
    memmove(&g->in[at + 1], &g->in[at], (g->nin - at) * sizeof *g->in);
    g->in[at] = (struct inode_name){key, ino, c};
    g->nin++;
    return 0;
}

const char *spam_gnames_syscall(const struct spam_gnames *g, unsigned code)
{
    return g && code < SPAM_GNAMES_CODES ? g->syscall[code] : NULL;
}

const char *spam_gnames_vector(const struct spam_gnames *g, unsigned vec)
{
    return g && vec < 4 * SPAM_GNAMES_VECTORS && vec % 4 == 0 ? g->vector[vec / 4] : NULL;
}

const char *spam_gnames_path(const struct spam_gnames *g, unsigned major, unsigned minor, unsigned ino)
{
    if (!g || !g->nin)
        return NULL;
    /* a trace holds inode <15:0>: the smallest whole number that fits */
    uint32_t key = inode_key(major & 0xFF, minor & 0xFF, ino);
    size_t at = lower_bound(g, key, 0);
    return at < g->nin && g->in[at].key == key ? g->in[at].path : NULL;
}

void spam_gnames_counts(const struct spam_gnames *g, size_t *syscalls, size_t *vectors, size_t *inodes)
{
    size_t s = 0, v = 0;
    for (size_t i = 0; i < SPAM_GNAMES_CODES; i++)
        s += g->syscall[i] != NULL;
    for (size_t i = 0; i < SPAM_GNAMES_VECTORS; i++)
        v += g->vector[i] != NULL;
    *syscalls = s;
    *vectors = v;
    *inodes = g->nin;
}

int spam_gnames_write(const struct spam_gnames *g, FILE *f)
{
    for (unsigned i = 0; i < SPAM_GNAMES_CODES; i++)
        if (g->syscall[i])
            fprintf(f, "syscall %u %s\n", i, g->syscall[i]);
    for (unsigned i = 0; i < SPAM_GNAMES_VECTORS; i++)
        if (g->vector[i])
            fprintf(f, "vector 0x%03X %s\n", 4 * i, g->vector[i]);
    for (size_t i = 0; i < g->nin; i++)
        fprintf(f, "inode %u,%u %u %s\n", g->in[i].key >> 24, g->in[i].key >> 16 & 0xFF, g->in[i].ino,
                g->in[i].path);
    return ferror(f) ? -1 : 0;
}

/* A number in C notation at *s, followed by a space or the end; advances *s. */
static int number(const char **s, unsigned long max, unsigned long *v, int sep)
{
    char *end;
    if (**s < '0' || **s > '9')
        return -1;
    errno = 0;
    unsigned long x = strtoul(*s, &end, 0);
    if (errno || x > max || end == *s || *end != sep)
        return -1;
    *v = x;
    *s = end + (sep ? 1 : 0);
    return 0;
}

int spam_gnames_parse_line(struct spam_gnames *g, const char *line, char *msg, size_t msglen)
{
    while (*line == ' ' || *line == '\t')
        line++;
    if (!*line || *line == '#')
        return 0;
    unsigned long a = 0, b = 0, c = 0;
    const char *p;
    if (strncmp(line, "syscall ", 8) == 0) {
        p = line + 8;
        if (number(&p, SPAM_GNAMES_CODES - 1, &a, ' ') != 0) {
            snprintf(msg, msglen, "syscall: a code 0..%d and a name", SPAM_GNAMES_CODES - 1);
            return -1;
        }
        if (spam_gnames_set_syscall(g, (unsigned)a, p) != 0) {
            snprintf(msg, msglen, "syscall %lu: a name without control characters", a);
            return -1;
        }
    } else if (strncmp(line, "vector ", 7) == 0) {
        p = line + 7;
        if (number(&p, 4 * SPAM_GNAMES_VECTORS - 4, &a, ' ') != 0 || a % 4) {
            snprintf(msg, msglen, "vector: an SCB offset 0..0x%X (a multiple of 4) and a name",
                     4 * SPAM_GNAMES_VECTORS - 4);
            return -1;
        }
        if (spam_gnames_set_vector(g, (unsigned)a, p) != 0) {
            snprintf(msg, msglen, "vector 0x%lX: a name without control characters", a);
            return -1;
        }
    } else if (strncmp(line, "inode ", 6) == 0) {
        p = line + 6;
        if (number(&p, 255, &a, ',') != 0 || number(&p, 255, &b, ' ') != 0 ||
            number(&p, 0xFFFFFFFFul, &c, ' ') != 0) {
            snprintf(msg, msglen, "inode: MAJOR,MINOR (0..255) INODE PATH");
            return -1;
        }
        if (spam_gnames_set_inode(g, (unsigned)a, (unsigned)b, (unsigned)c, p) != 0) {
            snprintf(msg, msglen, "inode %lu: a path without control characters", c);
            return -1;
        }
    } else {
        snprintf(msg, msglen, "unknown entry (syscall, vector or inode)");
        return -1;
    }
    return 0;
}

struct spam_gnames *spam_gnames_load(const char *path, struct spam_err *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        spam_err_set(err, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct spam_gnames *g = spam_gnames_new();
    char *line = NULL;
    size_t cap = 0;
    uint64_t off = 0;
    unsigned long lineno = 0;
    ssize_t n;
    if (!g)
        spam_err_set(err, 0, "out of memory");
    while (g && (n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        char msg[160];
        if ((size_t)n != strlen(line)) {
            spam_err_set(err, off, "line %lu: a NUL byte (not a names file?)", lineno);
        } else {
            if (n && line[n - 1] == '\n')
                line[--n] = 0;
            if (n && line[n - 1] == '\r')
                line[--n] = 0;
            if (spam_gnames_parse_line(g, line, msg, sizeof msg) == 0) {
                off += (uint64_t)n + 1;
                continue;
            }
            spam_err_set(err, off, "line %lu: %s", lineno, msg);
        }
        spam_gnames_free(g);
        g = NULL;
    }
    if (g && ferror(f)) {
        spam_err_set(err, off, "read error: %s", strerror(errno));
        spam_gnames_free(g);
        g = NULL;
    }
    free(line);
    fclose(f);
    return g;
}
