/* Host files for the tools (hostfile.h). */
#define _GNU_SOURCE 1 /* O_CLOEXEC with -std=c17 */
#include "microcode/hostfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- reading ---- */

static void blocking(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0 && (fl & O_NONBLOCK))
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
}

int hostfile_read(const char *path, size_t max, unsigned flags, uint8_t **data, size_t *len,
                  const char **why)
{
    int own = !((flags & HOSTFILE_STDIN) && strcmp(path, "-") == 0);
    int fd = own ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : 0;
    if (fd < 0) {
        *why = strerror(errno);
        return -1;
    }
    struct stat st;
    size_t cap = 1 << 16;
    if (fstat(fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            if (own)
                close(fd);
            errno = EISDIR;
            *why = strerror(EISDIR);
            return -1;
        }
        if (S_ISREG(st.st_mode) && st.st_size >= 0 && (uint64_t)st.st_size < max)
            cap = (size_t)st.st_size + 1; /* one read more sees the end */
    }
    if (own)
        blocking(fd); /* opened: from here a FIFO reads like a pipe */
    if (cap > max + 1)
        cap = max + 1;
    if (cap == 0)
        cap = 1;
    size_t n = 0;
    uint8_t *buf = malloc(cap + 1);
    int err = buf ? 0 : ENOMEM;
    while (!err) {
        if (n == cap) {
            if (cap > max) {
                err = EFBIG;
                break;
            }
            size_t nc = cap > max / 2 ? max + 1 : cap * 2;
            uint8_t *p = realloc(buf, nc + 1);
            if (!p) {
                err = ENOMEM;
                break;
            }
            buf = p;
            cap = nc;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            err = errno;
        else if (r == 0)
            break;
        else
            n += (size_t)r;
    }
    if (!err && n > max)
        err = EFBIG;
    if (own)
        close(fd);
    if (err) {
        free(buf);
        errno = err;
        *why = strerror(err);
        return -1;
    }
    buf[n] = 0;
    *data = buf;
    *len = n;
    return 0;
}

int hostfile_open_regular(const char *path, int write, int block_ok, const char **why)
{
    int fd = open(path, (write ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *why = strerror(errno);
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        *why = strerror(e);
        return -1;
    }
    if (!S_ISREG(st.st_mode) && !(block_ok && S_ISBLK(st.st_mode))) {
        mode_t m = st.st_mode;
        close(fd);
        errno = S_ISDIR(m) ? EISDIR : EINVAL;
        *why = S_ISDIR(m) ? "not a regular file (a directory)"
             : S_ISFIFO(m) ? "not a regular file (a FIFO)"
             : S_ISCHR(m) ? "not a regular file (a character device)"
             : S_ISBLK(m) ? "not a regular file (a block device)"
             : S_ISSOCK(m) ? "not a regular file (a socket)" : "not a regular file";
        return -1;
    }
    blocking(fd);
    return fd;
}

/* ---- identity ---- */

void hostfile_id(const char *path, struct hostfile_id *id)
{
    memset(id, 0, sizeof *id);
    struct stat st;
    if (stat(path, &st) == 0) {
        id->exists = 1;
        id->dev = st.st_dev;
        id->ino = st.st_ino;
        id->mode = st.st_mode;
        return;
    }
    /* not there yet: where it will be made, through dangling links */
    char cur[PATH_MAX];
    if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur) {
        id->exists = -1;
        return;
    }
    for (int hops = 0; hops < 40; hops++) {
        struct stat lst;
        char target[PATH_MAX];
        if (lstat(cur, &lst) != 0 || !S_ISLNK(lst.st_mode))
            break;
        ssize_t k = readlink(cur, target, sizeof target - 1);
        if (k <= 0)
            break;
        target[k] = 0;
        char *slash = strrchr(cur, '/');
        if (target[0] == '/' || !slash) {
            memcpy(cur, target, (size_t)k + 1);
        } else {
            size_t dl = (size_t)(slash - cur) + 1;
            if (dl + (size_t)k >= sizeof cur)
                break;
            memcpy(cur + dl, target, (size_t)k + 1);
        }
    }
    size_t l = strlen(cur);
    while (l > 1 && cur[l - 1] == '/')
        cur[--l] = 0;
    char *slash = strrchr(cur, '/');
    const char *base = slash ? slash + 1 : cur;
    snprintf(id->name, sizeof id->name, "%s", base);
    int rc;
    if (!slash) {
        rc = stat(".", &st);
    } else if (slash == cur) {
        rc = stat("/", &st);
    } else {
        *slash = 0;
        rc = stat(cur, &st);
    }
    if (rc != 0) {
        id->exists = -1;
        return;
    }
    id->exists = 0;
    id->dev = st.st_dev;
    id->ino = st.st_ino;
}

int hostfile_id_same(const struct hostfile_id *a, const struct hostfile_id *b)
{
    if (a->exists < 0 || a->exists != b->exists || a->dev != b->dev || a->ino != b->ino)
        return 0;
    return a->exists || strcmp(a->name, b->name) == 0;
}

int hostfile_same(const char *a, const char *b)
{
    if (!a || !b || !*a || !*b || !strcmp(a, "-") || !strcmp(b, "-"))
        return 0;
    struct hostfile_id ia, ib;
    hostfile_id(a, &ia);
    hostfile_id(b, &ib);
    return hostfile_id_same(&ia, &ib);
}

/* ---- the rule ---- */

void hostfile_set_init(struct hostfile_set *s) { s->n = 0; }

int hostfile_set_add(struct hostfile_set *s, enum hostfile_role role, const char *opt,
                     const char *path)
{
    if (!path || !*path || strcmp(path, "-") == 0)
        return 0;
    if (s->n == HOSTFILE_SET_MAX)
        return -1;
    struct hostfile_use *u = &s->use[s->n++];
    u->role = role;
    u->opt = opt ? opt : "";
    u->path = path;
    hostfile_id(path, &u->id);
    return 0;
}

static int is_out(enum hostfile_role r) { return r == HOSTFILE_OUT || r == HOSTFILE_OUT_INPLACE; }
static int is_medium(enum hostfile_role r)
{
    return r == HOSTFILE_MEDIUM_RO || r == HOSTFILE_MEDIUM_RW;
}

/* "PATH (OPT)" or "PATH" */
static void name(char *out, size_t len, const struct hostfile_use *u)
{
    snprintf(out, len, *u->opt ? "%s (%s)" : "%s", u->path, u->opt);
}

int hostfile_set_check(const struct hostfile_set *s, char *msg, size_t len)
{
    for (int i = 0; i < s->n; i++) {
        const struct hostfile_use *a = &s->use[i];
        /* a device takes any number of writers (/dev/null, /dev/full) */
        if (is_out(a->role) && a->id.exists == 1 && S_ISCHR(a->id.mode))
            continue;
        for (int j = 0; j < s->n; j++) {
            const struct hostfile_use *b = &s->use[j];
            if (j == i || !hostfile_id_same(&a->id, &b->id))
                continue;
            if (!is_out(b->role) && b->id.exists != 1)
                continue; /* a missing input is its own error */
            char an[300], bn[300];
            name(an, sizeof an, a);
            name(bn, sizeof bn, b);
            if (is_out(a->role) && !is_out(b->role)) {
                if (a->role == HOSTFILE_OUT_INPLACE && b->role == HOSTFILE_IN)
                    continue; /* replaced whole when complete */
                snprintf(msg, len, "%s %s would overwrite the %s %s", *a->opt ? a->opt : "output",
                         a->path, is_medium(b->role) ? "attached medium" : "input", bn);
                return -1;
            }
            if (is_out(a->role) && is_out(b->role) && j > i) {
                snprintf(msg, len, "%s and %s name the same file", an, bn);
                return -1;
            }
            if (a->role == HOSTFILE_MEDIUM_RW && is_medium(b->role) && j > i) {
                snprintf(msg, len, "%s and %s are the same image: a writable image is attached "
                         "to one unit only", an, bn);
                return -1;
            }
            if (a->role == HOSTFILE_MEDIUM_RO && b->role == HOSTFILE_MEDIUM_RW && j > i) {
                snprintf(msg, len, "%s and %s are the same image: a writable image is attached "
                         "to one unit only", bn, an);
                return -1;
            }
        }
    }
    return 0;
}

int hostfile_check_files(const char *const *ins, int nin, const char *const *outs, int nouts,
                         char *msg, size_t len)
{
    struct hostfile_set *s = malloc(sizeof *s);
    if (!s) {
        snprintf(msg, len, "out of memory");
        return -1;
    }
    hostfile_set_init(s);
    for (int i = 0; i < nin; i++)
        hostfile_set_add(s, HOSTFILE_IN, "", ins[i]);
    for (int k = 0; k < nouts; k++)
        hostfile_set_add(s, HOSTFILE_OUT, outs[2 * k], outs[2 * k + 1]);
    int rc = hostfile_set_check(s, msg, len);
    free(s);
    return rc;
}
