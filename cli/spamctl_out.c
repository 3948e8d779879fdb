/* spamctl's output files (spamctl_out.h). */
#define _GNU_SOURCE 1 /* mkstemp, realpath, fchmod, fopencookie */
#include "cli/spamctl_out.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void out_error(const char *cmd, const char *path, int err)
{
    fprintf(stderr, "spamctl %s: %s: %s\n", cmd, path, strerror(err ? err : EIO));
}

int stream_error(FILE *f)
{
    errno = 0;
    int rc = fflush(f); /* after an error glibc retries the buffer: errno is the cause */
    if (rc == 0 && !ferror(f))
        return 0;
    return errno ? errno : EIO;
}

int out_check_files(const char *cmd, const struct hostfile_set *s)
{
    char msg[700];
    if (hostfile_set_check(s, msg, sizeof msg) == 0)
        return 0;
    fprintf(stderr, "spamctl %s: %s\n", cmd, msg);
    return -1;
}

int out_open(struct out_file *o, const char *cmd, const char *path)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->path = path;
    o->fd = -1;
    if (strcmp(path, "-") == 0) {
        o->fd = 1;
        return 0;
    }
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "spamctl %s: %s: is a directory\n", cmd, path);
        return -1;
    }
    if (exists && !S_ISREG(st.st_mode)) { /* a device or a FIFO: write it directly */
        o->fd = open(path, O_WRONLY | O_TRUNC);
        if (o->fd < 0) {
            fprintf(stderr, "spamctl %s: %s: cannot open: %s\n", cmd, path, strerror(errno));
            return -1;
        }
        return 0;
    }
    /* a symbolic link stays one: its target is replaced */
    struct stat lst;
    char *real = exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) ? realpath(path, NULL) : NULL;
    o->target = real ? real : strdup(path);
    const char *slash = o->target ? strrchr(o->target, '/') : NULL;
    size_t dl = slash ? (size_t)(slash - o->target) + 1 : 0;
    o->tmp = o->target ? malloc(dl + 32) : NULL;
    if (!o->tmp) {
        fprintf(stderr, "spamctl %s: out of memory\n", cmd);
        free(o->target);
        o->target = NULL;
        return -1;
    }
    memcpy(o->tmp, o->target, dl);
    strcpy(o->tmp + dl, ".spamctl-out.XXXXXX");
    o->fd = mkstemp(o->tmp);
    if (o->fd < 0) {
        fprintf(stderr, "spamctl %s: %s: cannot create: %s\n", cmd, path, strerror(errno));
        free(o->tmp);
        free(o->target);
        o->tmp = o->target = NULL;
        return -1;
    }
    mode_t mode;
    if (exists) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    (void)!fchmod(o->fd, mode); /* not fatal: the data matters more */
    return 0;
}

int out_open_stream(struct out_file *o, const char *cmd, const char *path)
{
    if (out_open(o, cmd, path) != 0)
        return -1;
    if (o->fd == 1) {
        o->f = stdout;
        return 0;
    }
    o->f = fdopen(o->fd, "w");
    if (!o->f) {
        fprintf(stderr, "spamctl %s: %s: %s\n", cmd, path, strerror(errno));
        out_abort(o);
        return -1;
    }
    return 0;
}

static void release(struct out_file *o)
{
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
    o->f = NULL;
    o->fd = -1;
}

int out_close(struct out_file *o)
{
    int err = 0;
    if (o->f) {
        err = stream_error(o->f);
        if (o->f != stdout) {
            errno = 0;
            if (fclose(o->f) != 0 && !err)
                err = errno ? errno : EIO;
        }
    } else if (o->fd > 1) {
        if (close(o->fd) != 0)
            err = errno;
    }
    if (!err && o->tmp && rename(o->tmp, o->target) != 0)
        err = errno;
    if (err) {
        out_error(o->cmd, o->path, err);
        if (o->tmp)
            unlink(o->tmp);
        release(o);
        return -1;
    }
    release(o);
    return 0;
}

void out_abort(struct out_file *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    else if (!o->f && o->fd > 1)
        close(o->fd);
    if (o->tmp)
        unlink(o->tmp);
    release(o);
}

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
    struct out_sink *s = cookie;
    size_t done = 0;
    while (done < n) {
        ssize_t k = write(s->fd, buf + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (!s->err)
                s->err = k < 0 ? errno : EIO;
            return done ? (ssize_t)done : -1;
        }
        done += (size_t)k;
    }
    return (ssize_t)n;
}

FILE *sink_open(struct out_sink *s, int fd)
{
    s->err = 0;
    s->fd = fd;
    cookie_io_functions_t fns = {.write = sink_write};
    s->f = fopencookie(s, "w", fns);
    if (s->f)
        setvbuf(s->f, NULL, isatty(fd) ? _IOLBF : _IOFBF, 1 << 16);
    return s->f;
}

int sink_close(struct out_sink *s)
{
    int err = stream_error(s->f);
    if (fclose(s->f) != 0 && !err)
        err = EIO;
    s->f = NULL;
    return s->err ? s->err : err;
}

void stdout_capture(struct out_sink *s)
{
    s->orig = stdout;
    fflush(stdout);
    if (sink_open(s, 1))
        stdout = s->f; /* else stdout stays: errors are still detected */
}

int stdout_release(struct out_sink *s)
{
    int err = 0;
    if (s->f && stdout == s->f) {
        err = sink_close(s);
        stdout = s->orig;
    }
    int e2 = stream_error(stdout);
    errno = 0;
    if (fclose(stdout) != 0 && !e2)
        e2 = errno ? errno : EIO;
    return err ? err : e2;
}

const char *out_tmpdir(void)
{
    const char *td = getenv("TMPDIR");
    return td && *td ? td : "/tmp";
}

int out_mkdtemp(const char *prefix, char *dir, size_t len)
{
    int n = snprintf(dir, len, "%s/%s.XXXXXX", out_tmpdir(), prefix);
    if (n < 0 || (size_t)n >= len) {
        if (len)
            dir[0] = 0;
        errno = ENAMETOOLONG;
        return -1;
    }
    return mkdtemp(dir) ? 0 : -1;
}
