/* spamctl trace commands: the shared plumbing (see spamctl_trace.h). */
#include "cli/spamctl_trace.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/spamctl_cmds.h"
#include "cli/spamctl_out.h"
#include "cli/spamctl_signal.h"
#include "spam/spam_gnames.h"
#include "spam/spam_names.h"

int trace_open(struct trace_in *t, const char *cmd, const char *path, int partial)
{
    memset(t, 0, sizeof *t);
    t->cmd = cmd;
    t->partial = partial;
    t->path = strcmp(path, "-") == 0 ? "<stdin>" : path;
    const char *why = NULL;
    /* a trace file is a regular file, opened without waiting on a FIFO;
     * a pipe comes on stdin ('-') */
    t->fd = strcmp(path, "-") == 0 ? 0 : hostfile_open_regular(path, 0, 0, &why);
    if (t->fd < 0) {
        if (errno == EISDIR)
            fprintf(stderr, "spamctl %s: %s: is a directory, not a trace\n", cmd, t->path);
        else if (errno == EINVAL)
            fprintf(stderr, "spamctl %s: %s: %s; a pipe is read from stdin ('-')\n", cmd, path, why);
        else
            fprintf(stderr, "spamctl %s: %s: cannot open: %s\n", cmd, path, why);
        return 1;
    }
    struct spam_err err;
    t->r = spam_reader_open_fd(t->fd, &err);
    if (!t->r) {
        fprintf(stderr, "spamctl %s: %s: offset %" PRIu64 ": %s\n", cmd, t->path, err.offset, err.msg);
        if (t->fd > 0)
            close(t->fd);
        return 1;
    }
    if (!(spam_reader_header(t->r)->flags & SPAM_FILE_FLAG_COMPLETE))
        fprintf(stderr, "spamctl %s: %s: warning: the run did not finish (header not complete)\n", cmd,
                t->path);
    return 0;
}

void trace_close(struct trace_in *t)
{
    spam_reader_close(t->r);
    if (t->fd > 0)
        close(t->fd);
    t->r = NULL;
}

size_t trace_next(struct trace_in *t, const struct spam_record **recs)
{
    for (;;) {
        if ((t->interrupted = spamctl_signal()) != 0)
            return 0;
        size_t n;
        int rc = spam_reader_next(t->r, recs, &n);
        if (rc == SPAM_READ_RECORDS)
            return n;
        if (rc == SPAM_READ_END)
            return 0;
        const struct spam_err *e = spam_reader_err(t->r);
        int is_short = spam_reader_damage_kind(t->r) == SPAM_DAMAGE_SHORT;
        if (is_short && t->partial) {
            fprintf(stderr, "spamctl %s: %s: warning: %s; --partial: reading what is there\n", t->cmd,
                    t->path, e->msg);
            continue;
        }
        fprintf(stderr, "spamctl: %s: offset %" PRIu64 ": %s%s\n", t->path, e->offset, e->msg,
                is_short ? " (--partial reads what is there)" : "");
        t->damages++;
    }
}

int trace_finish(struct trace_in *t, const char *cmd)
{
    if (!t->damages)
        return SPAMCTL_EXIT_OK;
    fprintf(stderr,
            "spamctl %s: %s: damaged: results cover the %" PRIu64 " records read; skipped %" PRIu64
            " records and %" PRIu64 " bytes\n",
            cmd, t->path, spam_reader_records(t->r), spam_reader_skipped_records(t->r),
            spam_reader_skipped_bytes(t->r));
    return SPAMCTL_EXIT_BAD_INPUT;
}

int trace_path_arg(const char *cmd, const char *arg, const char **path)
{
    if (arg[0] == '-' && arg[1]) {
        fprintf(stderr, "spamctl %s: unknown option '%s'\n", cmd, arg);
        return -1;
    }
    if (*path) {
        fprintf(stderr, "spamctl %s: one trace at a time\n", cmd);
        return -1;
    }
    *path = arg;
    return 0;
}

int opt_value(int argc, char **argv, int *i, const char *name, const char **val)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return 0;
    if (a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (a[n] != 0)
        return 0;
    if (*i + 1 >= argc)
        return -1;
    *val = argv[++*i];
    return 1;
}

int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (!*s || *s == '-')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (*end || errno)
        return -1;
    *v = x;
    return 0;
}

void filter_init(struct event_filter *f)
{
    f->cls = f->detail = -1;
    f->ipl = f->pid = f->uid = -1;
    f->from_us = 0;
    f->to_us = UINT64_MAX;
}

int filter_option(struct event_filter *f, const char *cmd, int argc, char **argv, int *i)
{
    static const char *const names[] = {"--class", "--event", "--vector", "--ipl",
                                        "--pid",   "--uid",   "--from",   "--to"};
    for (unsigned k = 0; k < sizeof names / sizeof names[0]; k++) {
        const char *v;
        int rc = opt_value(argc, argv, i, names[k], &v);
        if (rc == 0)
            continue;
        if (rc < 0) {
            fprintf(stderr, "spamctl %s: %s needs a value\n", cmd, names[k]);
            return -1;
        }
        uint64_t x = 0;
        int bad = 0;
        switch (k) {
        case 0:
            f->cls = spam_class_parse(v);
            bad = f->cls < 0;
            break;
        case 1:
            bad = spam_event_spec_parse(v, &f->cls, &f->detail) != 0;
            break;
        case 2:
            bad = parse_u64(v, &x) != 0 || x > 0xFFF;
            f->detail = (int)x;
            break;
        case 3:
            bad = parse_u64(v, &x) != 0 || x > 31;
            f->ipl = (int64_t)x;
            break;
        case 4:
            bad = parse_u64(v, &x) != 0 || x > 0xFFFF;
            f->pid = (int64_t)x;
            break;
        case 5:
            bad = parse_u64(v, &x) != 0 || x > 0xFFFF;
            f->uid = (int64_t)x;
            break;
        case 6:
            bad = parse_u64(v, &f->from_us) != 0;
            break;
        case 7:
            bad = parse_u64(v, &f->to_us) != 0;
            break;
        }
        if (bad) {
            fprintf(stderr, "spamctl %s: bad value for %s: '%s'\n", cmd, names[k], v);
            return -1;
        }
        return 1;
    }
    return 0;
}

int filter_match(const struct event_filter *f, const struct spam_event *e)
{
    if (f->cls >= 0 && e->cls != f->cls)
        return 0;
    if (f->detail >= 0) {
        int det = e->cls == SPAM_CLASS_CHM ? (int)spam_chm_code(e->ev) : (int)spam_event_detail(e->ev);
        if (det != f->detail)
            return 0;
    }
    if (f->ipl >= 0 && spam_psl_ipl(e->psl_hi) != (unsigned)f->ipl)
        return 0;
    if (f->pid >= 0 && e->pid != f->pid)
        return 0;
    if (f->uid >= 0 && e->uid != f->uid)
        return 0;
    return e->t_us >= f->from_us && e->t_us <= f->to_us;
}

int decode_option(struct spam_decode_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    if (strcmp(argv[*i], "--correct") == 0) {
        o->correct_icount = 1;
        return 1;
    }
    const char *v;
    int rc = opt_value(argc, argv, i, "--gap-us", &v);
    if (rc == 0)
        return 0;
    uint64_t x;
    if (rc < 0 || parse_u64(v, &x) != 0 || x == 0 || x > 65535) {
        fprintf(stderr, "spamctl %s: --gap-us needs a number 1..65535\n", cmd);
        return -1;
    }
    o->gap_us = (uint32_t)x;
    return 1;
}

int trace_files_check(const char *cmd, int argc, char **argv, const char *trace,
                      enum hostfile_role role, const char *const *outs, int nouts)
{
    struct hostfile_set *s = malloc(sizeof *s);
    if (!s) {
        fprintf(stderr, "spamctl %s: out of memory\n", cmd);
        return -1;
    }
    hostfile_set_init(s);
    hostfile_set_add(s, HOSTFILE_IN, "", trace);
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (opt_value(argc, argv, &i, "--names", &v) > 0)
            hostfile_set_add(s, HOSTFILE_IN, "--names", v);
    }
    for (int k = 0; k < nouts; k++)
        hostfile_set_add(s, role, outs[2 * k], outs[2 * k + 1]);
    int rc = out_check_files(cmd, s);
    free(s);
    return rc;
}

const char *warning_kind_name(enum spam_warning_kind k)
{
    static const char *const n[SPAM_W_KINDS] = {
        "ambiguous gap", "REI without an open event", "LDPCTX cut off (no extended record)",
        "invalid or reserved record", "tracing re-enabled (open events forgotten)",
        "nesting too deep"};
    return n[k];
}

void print_warning_list(FILE *f, const struct spam_decoder *d)
{
    for (unsigned i = 0; i < d->nwarnings; i++) {
        const struct spam_warning *w = &d->warnings[i];
        fprintf(f, "  record %" PRIu64 " (t=%" PRIu64 " us): %s", w->index, w->t_us,
                warning_kind_name(w->kind));
        if (w->kind == SPAM_W_GAP)
            fprintf(f, ": %u us without a record; time and instruction count may be off by "
                       "a multiple of 65536 after it",
                    w->value);
        else
            fprintf(f, " (event 0x%04X)", w->value);
        fputc('\n', f);
    }
}

int names_option(const char *cmd, int argc, char **argv, int *i, struct spam_gnames **g)
{
    const char *v;
    int rc = opt_value(argc, argv, i, "--names", &v);
    if (rc == 0)
        return 0;
    if (rc < 0 || !*v) {
        fprintf(stderr, "spamctl %s: --names needs a file\n", cmd);
        return -1;
    }
    if (*g) {
        fprintf(stderr, "spamctl %s: one --names file\n", cmd);
        return -1;
    }
    struct spam_err e;
    if (!(*g = spam_gnames_load(v, &e))) {
        fprintf(stderr, "spamctl %s: %s: %s\n", cmd, v, e.msg);
        return -2;
    }
    return 1;
}
