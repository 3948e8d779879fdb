/* The original 4.3BSD for `spamctl demo` and `spamctl bsd43`: finding its
 * distribution and installing it once into a per-user cache
 * ($XDG_CACHE_HOME/spamctl/bsd43/KEY/rp06.dsk, KEY what
 * vax/guest/bsd43/install.py --reuse compares: the distribution's sums,
 * this spamctl binary, the installer), by running the installer, which
 * stays a script (its own programs do the installing inside the guest). */
#ifndef SPAMCTL_BSD43_H
#define SPAMCTL_BSD43_H

#include <limits.h>
#include <stddef.h>

#define BSD43_DIST_ENV "SPAMCTL_BSD43_DIST"
#define BSD43_WHERE_TO_GET                                                             \
    "the TUHS archive, Distributions/UCB/4.3BSD/ (stand.gz, miniroot.gz, rootdump.gz " \
    "and a SHA256SUMS of them; vax/guest/bsd43/README.md)"

struct bsd43_dist {
    char dir[PATH_MAX];
    const char *from; /* "--dist", BSD43_DIST_ENV, "beside the source tree" */
};

/* Where the distribution is: `given` (--dist) if not NULL, else
 * $SPAMCTL_BSD43_DIST, else ../shared/bsd43 beside the source tree.  1
 * found (the three files and SHA256SUMS are there; the installer checks
 * the sums), 0 not there (d->dir says where it looked), -1 when --dist
 * names no distribution (message printed). */
int bsd43_find_dist(const char *cmd, const char *given, struct bsd43_dist *d);

/* The installed disk for this spamctl and distribution: from the cache,
 * or installed into it now (about 490 M instructions; the installer's
 * step lines on stdout, a progress line on a terminal).  The key is
 * remembered (ROOT/keys) for the files as they are, so that a cached
 * install costs no Python.  disk gets its path.  0, or -1 with a
 * message. */
int bsd43_installed(const char *cmd, const struct bsd43_dist *d, char *disk, size_t len);

/* Copies an image (holes for blocks of zeros).  0, or -1 with a message. */
int bsd43_copy_disk(const char *cmd, const char *from, const char *to);

/* Removes a file or a folder with everything in it: 0 or -1. */
int bsd43_remove_tree(const char *path);

/* The folder of the installer and its scripts (vax/guest/bsd43/). */
const char *bsd43_guest_dir(void);

#endif
