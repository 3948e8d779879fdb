/* The original 4.3BSD: the distribution, the per-user cache of its
 * installation, and `spamctl bsd43` (spamctl_bsd43.h). */
#define _DEFAULT_SOURCE /* flock, utimes */
#include "cli/spamctl_bsd43.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/spamctl_cmds.h"
#include "microcode/hostfile.h"

#ifndef SPAMCTL_BSD43_GUEST
#define SPAMCTL_BSD43_GUEST "vax/guest/bsd43"
#endif
#ifndef SPAMCTL_BSD43_DIST_DEFAULT
#define SPAMCTL_BSD43_DIST_DEFAULT "../shared/bsd43"
#endif
#define KEY_DIGITS 16
#define KEEP_INSTALLS 2 /* the newest installs kept in the cache */

const char *bsd43_guest_dir(void) { return SPAMCTL_BSD43_GUEST; }

/* snprintf for paths: -1 (and an empty buffer) when it does not fit. */
static int pathf(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= len) {
        buf[0] = 0;
        return -1;
    }
    return 0;
}

static int is_dist(const char *dir)
{
    static const char *const need[] = {"SHA256SUMS", "stand.gz", "miniroot.gz", "rootdump.gz"};
    char p[PATH_MAX + 32];
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        pathf(p, sizeof p, "%s/%s", dir, need[i]);
        if (access(p, R_OK) != 0)
            return 0;
    }
    return 1;
}

int bsd43_find_dist(const char *cmd, const char *given, struct bsd43_dist *d)
{
    const char *env = getenv(BSD43_DIST_ENV);
    const char *dir = given ? given : env && *env ? env : SPAMCTL_BSD43_DIST_DEFAULT;
    d->from = given ? "--dist" : env && *env ? BSD43_DIST_ENV : "beside the source tree";
    pathf(d->dir, sizeof d->dir, "%s", dir);
    if (is_dist(dir))
        return 1;
    if (given) {
        fprintf(stderr, "spamctl %s: --dist %s: no 4.3BSD distribution there (SHA256SUMS, stand.gz, "
                        "miniroot.gz, rootdump.gz); get it from %s\n", cmd, given, BSD43_WHERE_TO_GET);
        return -1;
    }
    return 0;
}

static int self_path(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0)
        return -1;
    buf[n] = 0;
    return 0;
}

/* Runs python3 with args; its stdout into out (NULL: inherited).  The
 * exit status, or -1 when it could not run. */
static int run_python(const char *const *args, char *out, size_t outlen)
{
    int fds[2] = {-1, -1};
    if (out && pipe(fds) != 0)
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        if (out) {
            close(fds[0]);
            close(fds[1]);
        }
        return -1;
    }
    if (pid == 0) {
        if (out) {
            dup2(fds[1], STDOUT_FILENO);
            close(fds[0]);
            close(fds[1]);
        }
        execvp("python3", (char *const *)args);
        fprintf(stderr, "python3: %s\n", strerror(errno));
        _exit(127);
    }
    if (out) {
        close(fds[1]);
        size_t n = 0;
        ssize_t k;
        while ((k = read(fds[0], out + n, outlen - 1 - n)) > 0 || (k < 0 && errno == EINTR))
            if (k > 0 && (n += (size_t)k) == outlen - 1)
                break;
        out[n] = 0;
        close(fds[0]);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static int mkdirs(const char *path)
{
    char p[PATH_MAX];
    if (pathf(p, sizeof p, "%s", path) != 0)
        return -1;
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0777) != 0 && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(p, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

int bsd43_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return -1;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char sub[PATH_MAX];
            if (pathf(sub, sizeof sub, "%s/%s", path, e->d_name) != 0)
                continue;
            bsd43_remove_tree(sub);
        }
        if (d)
            closedir(d);
        return rmdir(path);
    }
    return unlink(path);
}

/* Older installs (other keys: an older spamctl) beyond the newest
 * KEEP_INSTALLS go, unless one is in use (its lock taken). */
static void prune(const char *root, const char *keep)
{
    DIR *d = opendir(root);
    if (!d)
        return;
    struct old {
        char name[64];
        time_t t;
    } v[64];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < 64) {
        /* installs only: folders named by a key (not the keys file) */
        if (strlen(e->d_name) != KEY_DIGITS || strspn(e->d_name, "0123456789abcdef") != KEY_DIGITS ||
            !strcmp(e->d_name, keep))
            continue;
        char p[PATH_MAX];
        struct stat st;
        pathf(p, sizeof p, "%s/%s/rp06.dsk.inputs", root, e->d_name);
        snprintf(v[n].name, sizeof v[n].name, "%s", e->d_name);
        v[n++].t = stat(p, &st) == 0 ? st.st_mtime : 0;
    }
    closedir(d);
    for (size_t i = 0; i < n; i++) { /* newest first */
        size_t newer = 0;
        for (size_t j = 0; j < n; j++)
            newer += v[j].t > v[i].t || (v[j].t == v[i].t && j < i);
        if (newer + 1 < KEEP_INSTALLS)
            continue;
        char p[PATH_MAX];
        if (pathf(p, sizeof p, "%s/%s/rp06.dsk.lock", root, v[i].name) != 0)
            continue;
        int fd = open(p, O_RDWR | O_CREAT, 0666);
        if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0) {
            close(fd);
            continue;
        }
        if (pathf(p, sizeof p, "%s/%s", root, v[i].name) == 0)
            bsd43_remove_tree(p);
        if (fd >= 0)
            close(fd);
    }
}

/* What install.py --key digests, as the files are now: this spamctl, the
 * distribution's SHA256SUMS, the installer and its scripts, each by
 * device, inode, size and modification time (a rebuild or an edit changes
 * it).  0, or -1 when a file cannot be looked at. */
static int key_stamp(const char *self, const char *dist, char *out, size_t len)
{
    static const char *const guest[] = {"install.py", "mkdist.py", "copy.script",
                                        "miniroot.script", "single.script"};
    char p[PATH_MAX + 64];
    size_t n = 0;
    for (size_t i = 0; i < 2 + sizeof guest / sizeof guest[0]; i++) {
        if (i == 0)
            pathf(p, sizeof p, "%s", self);
        else if (i == 1)
            pathf(p, sizeof p, "%s/SHA256SUMS", dist);
        else
            pathf(p, sizeof p, "%s/%s", SPAMCTL_BSD43_GUEST, guest[i - 2]);
        struct stat st;
        char real[PATH_MAX];
        if (!p[0] || stat(p, &st) != 0 || !realpath(p, real))
            return -1;
        int k = snprintf(out + n, len - n, "%s:%llu:%llu:%lld:%lld.%09ld|", real,
                         (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
                         (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
        if (k < 0 || (size_t)k >= len - n)
            return -1;
        n += (size_t)k;
    }
    return 0;
}

/* ROOT/keys (a text file; NULL when there is none). */
static char *read_keys(const char *path)
{
    uint8_t *data;
    size_t n;
    const char *why;
    return hostfile_read(path, 1u << 20, 0, &data, &n, &why) == 0 ? (char *)data : NULL;
}

/* ROOT/keys: "STAMP<tab>KEY" lines, the newest first. */
static int key_recall(const char *root, const char *stamp, char *key, size_t len)
{
    char p[PATH_MAX + 16];
    if (pathf(p, sizeof p, "%s/keys", root) != 0)
        return -1;
    char *text = read_keys(p), *line = text;
    int rc = -1;
    while (line && *line && rc != 0) {
        char *nl = strchr(line, '\n'), *tab = strchr(line, '\t');
        if (nl)
            *nl = 0;
        if (tab && (size_t)(tab - line) == strlen(stamp) && !strncmp(line, stamp, strlen(stamp)) &&
            strlen(tab + 1) == KEY_DIGITS && KEY_DIGITS < len) {
            snprintf(key, len, "%s", tab + 1);
            rc = 0;
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    return rc;
}

static void key_remember(const char *root, const char *stamp, const char *key)
{
    char p[PATH_MAX + 16], tmp[PATH_MAX + 32];
    if (pathf(p, sizeof p, "%s/keys", root) || pathf(tmp, sizeof tmp, "%s/keys.%ld", root, (long)getpid()))
        return;
    char *old = read_keys(p);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        free(old);
        return;
    }
    fprintf(f, "%s\t%s\n", stamp, key);
    int kept = 0;
    for (char *line = old; line && *line && kept < 15;) { /* the 15 newest others */
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        if (strchr(line, '\t') && strncmp(line, stamp, strlen(stamp)) != 0) {
            fprintf(f, "%s\n", line);
            kept++;
        }
        line = nl ? nl + 1 : NULL;
    }
    free(old);
    if (fclose(f) != 0 || rename(tmp, p) != 0)
        unlink(tmp);
}

int bsd43_installed(const char *cmd, const struct bsd43_dist *d, char *disk, size_t len)
{
    char self[PATH_MAX], installer[PATH_MAX], key[200];
    if (self_path(self, sizeof self) != 0) {
        fprintf(stderr, "spamctl %s: cannot find spamctl itself (/proc/self/exe)\n", cmd);
        return -1;
    }
    pathf(installer, sizeof installer, "%s/install.py", SPAMCTL_BSD43_GUEST);
    if (access(installer, R_OK) != 0) {
        fprintf(stderr, "spamctl %s: %s: %s (the installer of the source tree this spamctl was "
                        "built from)\n", cmd, installer, strerror(errno));
        return -1;
    }
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char root[PATH_MAX] = "", dir[PATH_MAX + 32], inputs[PATH_MAX + 64];
    if (xdg && xdg[0] == '/')
        pathf(root, sizeof root, "%s/spamctl/bsd43", xdg);
    else if (home && *home)
        pathf(root, sizeof root, "%s/.cache/spamctl/bsd43", home);
    if (!root[0]) {
        fprintf(stderr, "spamctl %s: no cache: set XDG_CACHE_HOME or HOME\n", cmd);
        return -1;
    }
    /* the key: remembered for these very files (no Python then), else
     * what install.py --key says */
    char stamp[4 * PATH_MAX];
    int stamped = key_stamp(self, d->dir, stamp, sizeof stamp) == 0;
    int rc = 0;
    if (!stamped || key_recall(root, stamp, key, sizeof key) != 0) {
        const char *kargs[] = {"python3", installer, "--dist", d->dir, "--spamctl", self, "--key", NULL};
        rc = run_python(kargs, key, sizeof key);
        key[strcspn(key, "\n")] = 0;
        if (rc != 0 || strlen(key) < KEY_DIGITS) {
            fprintf(stderr, "spamctl %s: %s --key failed (exit %d)\n", cmd, installer, rc);
            return -1;
        }
        key[KEY_DIGITS] = 0;
        if (stamped && mkdirs(root) == 0)
            key_remember(root, stamp, key);
    }
    if (pathf(dir, sizeof dir, "%s/%s", root, key) || pathf(disk, len, "%s/rp06.dsk", dir) ||
        pathf(inputs, sizeof inputs, "%s.inputs", disk)) {
        fprintf(stderr, "spamctl %s: %s: the cache's path is too long\n", cmd, root);
        return -1;
    }
    if (access(inputs, R_OK) == 0) {
        utimes(inputs, NULL); /* used: the newest */
        return 0;
    }
    if (mkdirs(dir) != 0) {
        fprintf(stderr, "spamctl %s: %s: %s\n", cmd, dir, strerror(errno));
        return -1;
    }
    printf("Installing 4.3BSD from %s (%s) into %s,\nonce for this spamctl: its own "
           "programs do it on the emulated 8600 (about 490 M instructions).\n",
           d->dir, d->from, dir);
    fflush(stdout);
    int tty = isatty(STDERR_FILENO);
    const char *iargs[] = {"python3", installer, "--dist", d->dir, "--spamctl", self, "--reuse",
                           tty ? "--progress" : "--reuse", disk, NULL};
    rc = run_python(iargs, NULL, 0);
    if (rc != 0 || access(inputs, R_OK) != 0) {
        fprintf(stderr, "spamctl %s: installing 4.3BSD failed (%s exit %d; transcripts in %s.work)\n",
                cmd, installer, rc, disk);
        return -1;
    }
    prune(root, key);
    return 0;
}

int bsd43_copy_disk(const char *cmd, const char *from, const char *to)
{
    /* a shared lock on the cache's disk while it is read: no installer
     * or pruning of the cache replaces it meanwhile */
    char lock[PATH_MAX + 8];
    pathf(lock, sizeof lock, "%s.lock", from);
    int lk = open(lock, O_RDWR | O_CREAT, 0666);
    if (lk >= 0)
        flock(lk, LOCK_SH);
    int in = open(from, O_RDONLY);
    if (in < 0) {
        fprintf(stderr, "spamctl %s: %s: %s\n", cmd, from, strerror(errno));
        if (lk >= 0)
            close(lk);
        return -1;
    }
    int out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (out < 0) {
        fprintf(stderr, "spamctl %s: %s: %s\n", cmd, to, strerror(errno));
        close(in);
        if (lk >= 0)
            close(lk);
        return -1;
    }
    enum { BLOCK = 65536 };
    static const char zero[BLOCK];
    char *buf = malloc(BLOCK);
    off_t size = 0;
    ssize_t n = 0;
    int rc = buf ? 0 : -1;
    while (rc == 0 && (n = read(in, buf, BLOCK)) > 0) {
        if (memcmp(buf, zero, (size_t)n) == 0) {
            if (lseek(out, n, SEEK_CUR) < 0)
                rc = -1;
        } else {
            for (ssize_t put = 0; put < n && rc == 0;) {
                ssize_t k = write(out, buf + put, (size_t)(n - put));
                if (k <= 0)
                    rc = -1;
                else
                    put += k;
            }
        }
        size += n;
    }
    if (n < 0 || (rc == 0 && ftruncate(out, size) != 0))
        rc = -1;
    int e = errno;
    if (close(out) != 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    close(in);
    if (lk >= 0)
        close(lk);
    free(buf);
    if (rc != 0) {
        fprintf(stderr, "spamctl %s: copying %s to %s: %s\n", cmd, from, to, strerror(e ? e : EIO));
        unlink(to);
    }
    return rc;
}

static void usage(FILE *f)
{
    fprintf(f,
"Usage: spamctl bsd43 [--dist DIR] [-o DISK [--force]]\n"
"\n"
"The original 4.3BSD (June 1986), installed from its distribution by its own\n"
"programs on the emulated 8600 (vax/guest/bsd43/install.py, about 490 M\n"
"instructions, a minute and a half), once for this spamctl: the installed\n"
"RP06 disk is kept in $XDG_CACHE_HOME/spamctl/bsd43/KEY/ (default\n"
"~/.cache), KEY a digest of what made it (the distribution's sums, this\n"
"spamctl binary, the installer), and used again as long as those do not\n"
"change; `spamctl demo` uses the same cache.  Prints the disk's path.\n"
"\n"
"  --dist DIR   the distribution (default: $" BSD43_DIST_ENV ", else\n"
"               ../shared/bsd43 beside the source tree); from\n"
"               " BSD43_WHERE_TO_GET "\n"
"  -o DISK      also copy the installed disk to DISK: a system of your own\n"
"               to boot and change (spamctl run --config\n"
"               vax/guest/bsd43/43bsd.conf in DISK's folder, named 43bsd.dsk)\n"
"  --force      replace an existing DISK\n"
"\n"
"Exit status: 0 installed (or found in the cache), 1 no distribution, a\n"
"failed install or copy, 2 usage error.\n");
}

int spamctl_cmd_bsd43(int argc, char **argv)
{
    const char *dist = NULL, *out = NULL;
    int force = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return SPAMCTL_EXIT_OK;
        } else if (!strcmp(a, "--force")) {
            force = 1;
        } else if ((!strcmp(a, "--dist") || !strcmp(a, "-o")) && i + 1 < argc) {
            *(a[1] == 'o' ? &out : &dist) = argv[++i];
        } else {
            fprintf(stderr, "spamctl bsd43: %s '%s'\n",
                    !strcmp(a, "--dist") || !strcmp(a, "-o") ? "a value is missing after"
                                                             : "unknown option", a);
            usage(stderr);
            return SPAMCTL_EXIT_USAGE;
        }
    }
    struct bsd43_dist d;
    int found = bsd43_find_dist("bsd43", dist, &d);
    if (found < 0)
        return SPAMCTL_EXIT_BAD_INPUT;
    if (!found) {
        fprintf(stderr, "spamctl bsd43: no 4.3BSD distribution in %s (%s); get it from %s, "
                        "then give --dist DIR or set " BSD43_DIST_ENV "\n", d.dir, d.from,
                BSD43_WHERE_TO_GET);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    if (out && !force && access(out, F_OK) == 0) {
        fprintf(stderr, "spamctl bsd43: -o %s exists (a disk of yours?): --force replaces it\n", out);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    char disk[PATH_MAX + 64];
    if (bsd43_installed("bsd43", &d, disk, sizeof disk) != 0)
        return SPAMCTL_EXIT_BAD_INPUT;
    if (out) {
        if (bsd43_copy_disk("bsd43", disk, out) != 0)
            return SPAMCTL_EXIT_BAD_INPUT;
        printf("%s: a copy of the installed 4.3BSD (boot it: spamctl run --config "
               "%s/43bsd.conf in its folder, as 43bsd.dsk)\n", out, SPAMCTL_BSD43_GUEST);
    } else {
        printf("%s\n", disk);
    }
    return SPAMCTL_EXIT_OK;
}
