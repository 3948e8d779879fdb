/* Shared by spamctl's trace commands: opening a trace (raw or compressed,
 * '-' for stdin), streaming its records with damage reported as
 * "FILE: offset N: message", option parsing, filters. */
#ifndef SPAMCTL_TRACE_H
#define SPAMCTL_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "microcode/hostfile.h"
#include "spam/spam_decode.h"
#include "spam/spam_reader.h"

struct trace_in {
    const char *cmd;
    const char *path;
    int fd;
    int partial;     /* --partial: a short trace is a warning, not an error */
    int interrupted; /* the signal that stopped the reading, or 0 */
    struct spam_reader *r;
    uint64_t damages;
};

/* Opens PATH ('-' = stdin); prints the error and returns 1 on failure. */
int trace_open(struct trace_in *t, const char *cmd, const char *path, int partial);
void trace_close(struct trace_in *t);
/* Next batch of records; damage is printed and counted, reading goes on.
 * Returns the record count, 0 at the end (or when SIGINT/SIGTERM was
 * caught, t->interrupted then set: see spamctl_signal.h). */
size_t trace_next(struct trace_in *t, const struct spam_record **recs);
/* The usage text of --partial, shared by the commands. */
#define TRACE_PARTIAL_USAGE \
"  --partial      Read a trace that holds fewer records than its complete\n" \
"                 header says (a truncated copy) with a warning instead of\n" \
"                 an error.\n"
/* Prints the skipped-records summary after damage; returns the exit
 * status (0 clean, 1 damaged). */
int trace_finish(struct trace_in *t, const char *cmd);

/* "--name VALUE" or "--name=VALUE" at argv[*i]: 1 and *val set (i
 * advanced), 0 if argv[*i] is not this option, -1 if its value is missing. */
int opt_value(int argc, char **argv, int *i, const char *name, const char **val);
/* argv[i] is no option the command knows: it is the trace, if no trace
 * was named yet; otherwise a usage error (printed, -1). */
int trace_path_arg(const char *cmd, const char *arg, const char **path);
/* Parses an unsigned number (C notation); 0 or -1. */
int parse_u64(const char *s, uint64_t *v);

struct event_filter {
    int cls, detail; /* -1 = any */
    int64_t ipl, pid, uid;
    uint64_t from_us, to_us;
};
void filter_init(struct event_filter *f);
/* Handles --class/--event/--vector/--ipl/--pid/--uid/--from/--to: 1 if
 * argv[*i] was one (i advanced), 0 if not, -1 on a bad value (printed). */
int filter_option(struct event_filter *f, const char *cmd, int argc, char **argv, int *i);
int filter_match(const struct event_filter *f, const struct spam_event *e);

/* Decoder options --correct and --gap-us. */
int decode_option(struct spam_decode_opts *o, const char *cmd, int argc, char **argv, int *i);

/* --names FILE (spam/spam_gnames.h): 1 when argv[*i] was it (loaded into
 * *g, i advanced), 0 if not, -1 on a missing value (a usage error), -2 on
 * a bad file (bad input); the message is printed. */
struct spam_gnames;
int names_option(const char *cmd, int argc, char **argv, int *i, struct spam_gnames **g);
#define TRACE_NAMES_USAGE \
"  --names FILE   The guest's names (spamctl names extract): system calls for\n" \
"                 CHMK codes, handlers and devices for SCB vectors, program\n" \
"                 paths for context switches.  Without it, numbers.\n"

/* The same-file rule (spamctl_out.h) for a trace command: the trace and
 * every --names file of argv are its inputs; outs holds nouts pairs of an
 * option and the file it writes (a NULL file: not given), written as
 * `role` (HOSTFILE_OUT, or HOSTFILE_OUT_INPLACE: may replace the trace).
 * 0, or -1 with the message printed (a usage error). */
int trace_files_check(const char *cmd, int argc, char **argv, const char *trace,
                      enum hostfile_role role, const char *const *outs, int nouts);

void print_warning_list(FILE *f, const struct spam_decoder *d);
const char *warning_kind_name(enum spam_warning_kind k);

#endif
