/* Machine configuration files (spamctl_config.h): each line a command,
 *
 *   memory MB                     --memory MB ("8", "8m")
 *   load FILE                     the ELF image to run (run's IMAGE.elf)
 *   attach [-r] DEV FILE          --attach DEV[:ro]=FILE
 *   boot DEV[:PROGRAM]            --boot DEV[:PROGRAM]
 *   todr fixed|host|N             --todr
 *   net KEY=VALUE...              rate, seed, mix, size, pcap: --net-rate ...
 *   dz N KEY=VALUE...             script, log: --dz-script N=FILE, --dz-log N=FILE
 *   dz KEY=VALUE...               br, report: --dz-br, --dz-report
 *   set NAME [VALUE]              --NAME [VALUE]: any other option of run
 *
 * '#' or ';' starting a word starts a comment; words are separated by
 * blanks, "double quotes" keep blanks in one (\" and \\ inside); the
 * command words are case-insensitive. */
#include "cli/spamctl_config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_WORDS 64
#define MAX_FILE (1u << 20)

struct builder {
    struct spamctl_config *c;
    int cap;
    const char *file;
    unsigned line;
    const char *where; /* "FILE:LINE" for this line's words */
};

static char *own(struct spamctl_config *c, char *s)
{
    if (!s)
        return NULL;
    char **o = realloc(c->owned, (size_t)(c->nowned + 1) * sizeof *o);
    if (!o) {
        free(s);
        return NULL;
    }
    c->owned = o;
    c->owned[c->nowned++] = s;
    return s;
}

static int push(struct builder *b, const char *word, const char *where)
{
    struct spamctl_config *c = b->c;
    if (c->argc + 2 > b->cap) {
        int ncap = b->cap ? b->cap * 2 : 64;
        char **na = realloc(c->argv, (size_t)ncap * sizeof *na);
        if (!na)
            return -1;
        c->argv = na;
        const char **nw = realloc(c->where, (size_t)ncap * sizeof *nw);
        if (!nw)
            return -1;
        c->where = nw;
        b->cap = ncap;
    }
    c->argv[c->argc] = (char *)word;
    c->where[c->argc] = where;
    c->argc++;
    c->argv[c->argc] = NULL;
    return 0;
}

static char *concat(const char *a, const char *b, const char *d)
{
    size_t n = strlen(a) + strlen(b) + strlen(d) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", a, b, d);
    return s;
}

static int opt(struct builder *b, const char *name, const char *value)
{
    char *o = own(b->c, concat("--", name, ""));
    if (!o || push(b, o, b->where) < 0)
        return -1;
    return value ? push(b, value, b->where) : 0;
}

static int err(const struct builder *b, const char *fmt, const char *arg)
{
    fprintf(stderr, "spamctl run: %s:%u: ", b->file, b->line);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return -1;
}

/* Splits a line into words in place; returns the count, -1 on a bad quote. */
static int split(char *s, char **w, int max)
{
    int n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r')
            s++;
        if (!*s || *s == '#' || *s == ';')
            return n;
        if (n == max)
            return -2;
        if (*s == '"') {
            char *out = ++s;
            w[n++] = out;
            while (*s != '"') {
                if (!*s)
                    return -1;
                if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
                    s++;
                *out++ = *s++;
            }
            s++;
            *out = 0;
            if (*s && *s != ' ' && *s != '\t' && *s != '\r')
                return -1;
            if (*s)
                s++;
            continue;
        }
        w[n++] = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r')
            s++;
        if (*s)
            *s++ = 0;
    }
}

/* "KEY=VALUE" against names: the option for KEY, its value in *val. */
static const char *keyval(const char *word, const char *const *keys, const char *const *opts,
                          const char **val)
{
    const char *eq = strchr(word, '=');
    if (!eq || eq == word)
        return NULL;
    for (int i = 0; keys[i]; i++)
        if (strlen(keys[i]) == (size_t)(eq - word) && !strncasecmp(word, keys[i], (size_t)(eq - word))) {
            *val = eq + 1;
            return opts[i];
        }
    return NULL;
}

static int line_cmd(struct builder *b, char **w, int n)
{
    const char *cmd = w[0];
    if (!strcasecmp(cmd, "memory")) {
        if (n != 2)
            return err(b, "memory: give the size in MB (memory 8)%s", "");
        size_t l = strlen(w[1]);
        if (l > 1 && (w[1][l - 1] == 'm' || w[1][l - 1] == 'M'))
            w[1][l - 1] = 0;
        return opt(b, "memory", w[1]);
    }
    if (!strcasecmp(cmd, "load")) {
        if (n != 2 || w[1][0] == '-')
            return err(b, "load: give an ELF image (load guest.elf)%s", "");
        return push(b, w[1], b->where);
    }
    if (!strcasecmp(cmd, "attach")) {
        int ro = n == 4 && !strcmp(w[1], "-r");
        if (n != 3 + ro)
            return err(b, "attach: give [-r] DEV FILE (attach rp0 43bsd.dsk)%s", "");
        char *v = own(b->c, concat(w[1 + ro], ro ? ":ro=" : "=", w[2 + ro]));
        return v ? opt(b, "attach", v) : -1;
    }
    if (!strcasecmp(cmd, "boot") || !strcasecmp(cmd, "todr")) {
        if (n != 2)
            return err(b, !strcasecmp(cmd, "boot") ? "boot: give the device (boot rp0)%s"
                                                   : "todr: give fixed, host or a number%s", "");
        return opt(b, !strcasecmp(cmd, "boot") ? "boot" : "todr", w[1]);
    }
    if (!strcasecmp(cmd, "net")) {
        static const char *const keys[] = {"rate", "seed", "mix", "size", "pcap", NULL};
        static const char *const opts[] = {"net-rate", "net-seed", "net-mix", "net-size", "pcap"};
        if (n < 2)
            return err(b, "net: give KEY=VALUE settings (rate, seed, mix, size, pcap)%s", "");
        for (int i = 1; i < n; i++) {
            const char *val, *o = keyval(w[i], keys, opts, &val);
            if (!o)
                return err(b, "net: '%s' is no KEY=VALUE of rate, seed, mix, size, pcap", w[i]);
            if (opt(b, o, val) < 0)
                return -1;
        }
        return 0;
    }
    if (!strcasecmp(cmd, "dz")) {
        int line = n >= 2 && isdigit((unsigned char)w[1][0]) && !w[1][1];
        static const char *const lkeys[] = {"script", "log", NULL};
        static const char *const lopts[] = {"dz-script", "dz-log"};
        static const char *const keys[] = {"br", "report", NULL};
        static const char *const opts[] = {"dz-br", "dz-report"};
        if (n < 2 + line)
            return err(b, "dz: give LINE script=FILE log=FILE, or br=N report=FILE%s", "");
        for (int i = 1 + line; i < n; i++) {
            const char *val, *o = keyval(w[i], line ? lkeys : keys, line ? lopts : opts, &val);
            if (!o)
                return err(b, line ? "dz LINE: '%s' is no KEY=VALUE of script, log"
                                   : "dz: '%s' is no KEY=VALUE of br, report (or give a line first)",
                           w[i]);
            char *v = line ? own(b->c, concat(w[1], "=", val)) : (char *)val;
            if (!v || opt(b, o, v) < 0)
                return -1;
        }
        return 0;
    }
    if (!strcasecmp(cmd, "set")) {
        if (n < 2 || n > 3 || w[1][0] == '-')
            return err(b, "set: give an option of spamctl run without its dashes, and its value "
                          "(set max-cycles unlimited)%s", "");
        if (!strcmp(w[1], "config"))
            return err(b, "set: a configuration file cannot name another%s", "");
        return opt(b, w[1], n == 3 ? w[2] : NULL);
    }
    return err(b, "unknown command '%s' (attach, boot, dz, load, memory, net, set, todr)", cmd);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(MAX_FILE + 1);
    size_t n = buf ? fread(buf, 1, MAX_FILE + 1, f) : 0;
    int bad = !buf || ferror(f);
    fclose(f);
    if (bad || n > MAX_FILE) {
        free(buf);
        errno = bad ? (errno ? errno : EIO) : EFBIG;
        return NULL;
    }
    buf[n] = 0;
    if (memchr(buf, 0, n)) {
        free(buf);
        errno = EINVAL;
        return NULL;
    }
    return buf;
}

int spamctl_config_expand(int argc, char **argv, struct spamctl_config *c)
{
    memset(c, 0, sizeof *c);
    const char *file = NULL;
    int at = -1;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--config")) {
            if (file || i + 1 >= argc) {
                fprintf(stderr, file ? "spamctl run: one --config a run\n"
                                     : "spamctl run: --config needs a file\n");
                return -1;
            }
            file = argv[i + 1];
            at = i++;
        }
    struct builder b = {.c = c, .file = file};
    if (push(&b, argv[0], NULL) < 0)
        goto oom;
    if (file) {
        char *text = read_all(file);
        if (!text) {
            fprintf(stderr, "spamctl run: --config %s: %s\n", file,
                    errno == EINVAL ? "not a text file" : strerror(errno));
            spamctl_config_free(c);
            return -2;
        }
        if (!own(c, text))
            goto oom;
        char *p = text;
        for (b.line = 1; *p; b.line++) {
            char *nl = strchr(p, '\n');
            if (nl)
                *nl = 0;
            char *w[MAX_WORDS];
            int n = split(p, w, MAX_WORDS);
            if (n == -1 || n == -2) {
                err(&b, n == -1 ? "a quote is not closed%s" : "too many words%s", "");
                spamctl_config_free(c);
                return -1;
            }
            if (n > 0) {
                char where[64];
                snprintf(where, sizeof where, ":%u", b.line);
                b.where = own(c, concat(file, where, ""));
                if (!b.where || line_cmd(&b, w, n) < 0) {
                    if (!b.where)
                        fprintf(stderr, "spamctl run: out of memory\n");
                    spamctl_config_free(c);
                    return -1;
                }
            }
            if (!nl)
                break;
            p = nl + 1;
        }
    }
    for (int i = 1; i < argc; i++)
        if (i != at && i != at + 1 && push(&b, argv[i], NULL) < 0)
            goto oom;
    return 0;
oom:
    fprintf(stderr, "spamctl run: out of memory\n");
    spamctl_config_free(c);
    return -1;
}

void spamctl_config_free(struct spamctl_config *c)
{
    for (int i = 0; i < c->nowned; i++)
        free(c->owned[i]);
    free(c->owned);
    free(c->argv);
    free(c->where);
    memset(c, 0, sizeof *c);
}
