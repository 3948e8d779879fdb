/* Host files for the tools: reading a whole input without hanging on a
 * FIFO, telling whether two names are one file, and the rule that no
 * output of a command overwrites one of its inputs, another output or an
 * attached medium.  The one home of these helpers for uasm, vasm, vdis and
 * spamctl: microcode/ is the lowest layer, and uasm needs them as cli/
 * does (microcode/README.md).  Nothing here prints or exits. */
#ifndef MICROCODE_HOSTFILE_H
#define MICROCODE_HOSTFILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- reading a whole file ---- */

/* hostfile_read's flags */
#define HOSTFILE_STDIN 1u   /* "-" is the standard input */

/* Reads all of PATH into a malloc'd buffer with a NUL after its *len bytes
 * (so text can be used as a string).  The file is opened without blocking
 * (a FIFO nobody writes to reads as empty instead of hanging) and read
 * sequentially, so FIFOs and character devices work; a directory is
 * refused.  More than `max` bytes is an error (EFBIG).  0, or -1 with the
 * cause in *why (a static string: strerror's text, or "is a directory"). */
int hostfile_read(const char *path, size_t max, unsigned flags, uint8_t **data, size_t *len,
                  const char **why);

/* Opens PATH for reading (O_RDWR when `write`) without blocking on a
 * FIFO, then checks its type: a regular file, or (with `block_ok`) a
 * block device.  The descriptor (blocking again), or -1 with the cause in
 * *why ("not a regular file (a FIFO)", strerror's text...) and errno set
 * (EISDIR for a directory, EINVAL for another kind of file). */
int hostfile_open_regular(const char *path, int write, int block_ok, const char **why);

/* ---- one file under two names ---- */

/* What a name refers to: an existing file by device and inode (symbolic
 * and hard links lead to the same), or, for a name that does not exist
 * yet, its directory's device and inode and its last component (after
 * following a dangling symbolic link), so that two outputs not yet made
 * are still told apart or found equal. */
struct hostfile_id {
    int exists;      /* 1 existing, 0 not yet, -1 unknowable (no directory) */
    dev_t dev;
    ino_t ino;
    mode_t mode;     /* an existing file's type */
    char name[256];  /* a new file's last component */
};
void hostfile_id(const char *path, struct hostfile_id *id);
/* 1 if the two identities are one file. */
int hostfile_id_same(const struct hostfile_id *a, const struct hostfile_id *b);
/* 1 if a and b name the same file (existing, or both to be made). */
int hostfile_same(const char *a, const char *b);

/* ---- the same-file rule ---- */

enum hostfile_role {
    HOSTFILE_IN,          /* read (an image, a script, a trace, --names...) */
    HOSTFILE_MEDIUM_RO,   /* an attached medium, write-locked */
    HOSTFILE_MEDIUM_RW,   /* an attached medium the guest may write */
    HOSTFILE_OUT,         /* written */
    HOSTFILE_OUT_INPLACE, /* written to a temporary file and renamed over
                           * PATH when complete: it may name its input
                           * (compress t.spam t.spam) */
};

#define HOSTFILE_SET_MAX 64

/* Every file a command reads and writes, each with the option that named
 * it ("-o", "--attach rp0", "" for a positional argument). */
struct hostfile_set {
    struct hostfile_use {
        enum hostfile_role role;
        const char *opt;
        const char *path;
        struct hostfile_id id;
    } use[HOSTFILE_SET_MAX];
    int n;
};

void hostfile_set_init(struct hostfile_set *s);
/* Adds a file (NULL, "" and "-" -- stdin or stdout -- are left out).
 * The strings must outlive the set.  0, or -1 when the set is full. */
int hostfile_set_add(struct hostfile_set *s, enum hostfile_role role, const char *opt,
                     const char *path);
/* The rule: no output names an input, an attached medium or another
 * output, and a writable medium is attached to one unit only; outputs
 * that are character devices (/dev/null) are exempt.  0, or -1 with one
 * line in msg ("-o D would overwrite the input D (--attach rp0)"). */
int hostfile_set_check(const struct hostfile_set *s, char *msg, size_t len);

/* The rule for a tool whose inputs are its positional arguments and whose
 * outputs are nouts pairs of an option and a file (a NULL file: not
 * given): uasm, vasm.  0, or -1 with the message in msg. */
int hostfile_check_files(const char *const *ins, int nin, const char *const *outs, int nouts,
                         char *msg, size_t len);

#endif
