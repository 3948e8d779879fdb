/* spamctl's output files: nothing lost, every error reported.
 *
 * An output that is a regular file (or does not exist yet) is written to a
 * temporary file in the same directory and renamed over PATH only when
 * everything was written: a command can then never truncate its own input
 * (`spamctl compress t.spam t.spam` works in place) nor leave a half
 * written file where a good one was.  A device or FIFO (/dev/null,
 * /dev/full) is written directly; '-' is stdout.  Every write, the flush
 * and the close are checked, and a failure is one line on stderr,
 * "spamctl CMD: PATH: cause".  These are for whole outputs made at the
 * end of a command; a trace written while the machine runs (run -o) goes
 * straight to its file, so that a killed run leaves a readable prefix. */
#ifndef SPAMCTL_OUT_H
#define SPAMCTL_OUT_H

#include <stdio.h>

#include "microcode/hostfile.h"

struct out_file {
    const char *cmd;  /* "compress", ... for messages */
    const char *path; /* as given */
    char *target;     /* what the temporary file is renamed to */
    char *tmp;        /* the temporary file, NULL when written directly */
    int fd;           /* 1 for stdout */
    FILE *f;          /* with out_open_stream */
};

/* Opens PATH for writing ('-' = stdout).  0, or -1 with the message
 * printed. */
int out_open(struct out_file *o, const char *cmd, const char *path);
/* The same with a stdio stream in o->f. */
int out_open_stream(struct out_file *o, const char *cmd, const char *path);
/* Flushes, checks, closes and renames into place: 0, or -1 with the
 * message printed (the temporary file is removed, PATH is untouched). */
int out_close(struct out_file *o);
/* Gives up: closes and removes the temporary file; PATH is untouched. */
void out_abort(struct out_file *o);
/* Prints "spamctl CMD: PATH: cause" for a failed write (errno `err`). */
void out_error(const char *cmd, const char *path, int err);

/* The folder for temporary files: TMPDIR, or /tmp where it is unset or
 * empty. */
const char *out_tmpdir(void);
/* Makes a private working directory out_tmpdir()/PREFIX.XXXXXX and puts
 * its path into dir (len bytes; PATH_MAX holds any).  0, or -1 with
 * errno: ENAMETOOLONG where the path would not fit, else mkdtemp's. */
int out_mkdtemp(const char *prefix, char *dir, size_t len);

/* The errno of a failed write on a stream (after flushing it), or 0. */
int stream_error(FILE *f);

/* The same-file rule for a command (microcode/hostfile.h: no output
 * names an input, an attached medium or another output; a writable
 * medium is attached once): every command puts every file it reads and
 * writes into one set and calls this before it opens any.  0, or -1 with
 * "spamctl CMD: ..." printed (a usage error, exit status 2). */
int out_check_files(const char *cmd, const struct hostfile_set *s);

/* A write stream that remembers the cause of its first failed write:
 * stdio forgets it (a failed flush empties the buffer, and a later flush
 * then succeeds), so "<stdout>: No space left on device" needs it.
 * sink_open wraps fd (not closed by the sink); sink_close flushes, closes
 * the stream and returns the errno of the first failure, or 0.  The sink
 * lives in the caller's frame. */
struct out_sink {
    FILE *f;
    FILE *orig; /* stdout_capture: the stdout it replaced */
    int fd;
    int err;
};
FILE *sink_open(struct out_sink *s, int fd);
int sink_close(struct out_sink *s);
/* spamctl's main: stdout through a sink during a command, then the check
 * (flush and close); returns the errno of the first failure, or 0. */
void stdout_capture(struct out_sink *s);
int stdout_release(struct out_sink *s);

#endif
