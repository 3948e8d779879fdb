/* spamctl run --config FILE: a machine described in a small SIMH-like
 * text file (cli/README.md, "Configuration files").  The file's lines
 * become run's own options, so a file says nothing a command line could
 * not, and the command line's options come after the file's (the last of
 * a repeated option wins). */
#ifndef SPAMCTL_CONFIG_H
#define SPAMCTL_CONFIG_H

struct spamctl_config {
    int argc;
    char **argv;        /* the new argument vector (NULL-terminated) */
    const char **where; /* per word: "FILE:LINE" it came from, or NULL */
    char **owned;       /* what to free */
    int nowned;
};

/* When argv (run's, argv[0] = "run") holds --config FILE: reads FILE and
 * builds the vector argv[0], the file's options, the other words of
 * argv.  Without --config, the vector is argv itself.  0, or -1 with a
 * message printed ("spamctl run: FILE:LINE: ..."; exit status 2), or -2
 * when the file cannot be read (message printed; exit status 1). */
int spamctl_config_expand(int argc, char **argv, struct spamctl_config *c);
void spamctl_config_free(struct spamctl_config *c);

#endif
