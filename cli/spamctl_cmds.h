/* spamctl's commands, one source file each (or one per family), and the
 * helpers they share.  Every command gets argc/argv with argv[0] = its
 * name, and returns the process exit status. */
#ifndef SPAMCTL_CMDS_H
#define SPAMCTL_CMDS_H

enum {
    SPAMCTL_EXIT_OK = 0,
    SPAMCTL_EXIT_BAD_INPUT = 1,
    SPAMCTL_EXIT_USAGE = 2,
    SPAMCTL_EXIT_NOT_IMPLEMENTED = 3,
};

int spamctl_cmd_demo(int argc, char **argv);     /* spamctl_demo.c  */
int spamctl_cmd_run(int argc, char **argv);      /* spamctl_run.c   */
int spamctl_cmd_boot(int argc, char **argv);     /* spamctl_run.c: run --config FILE */
int spamctl_cmd_stat(int argc, char **argv);     /* spamctl_trace.c */
int spamctl_cmd_decode(int argc, char **argv);
int spamctl_cmd_hist(int argc, char **argv);
int spamctl_cmd_compress(int argc, char **argv);
int spamctl_cmd_decompress(int argc, char **argv);
int spamctl_cmd_export(int argc, char **argv);
int spamctl_cmd_names(int argc, char **argv);     /* spamctl_names.c */
int spamctl_cmd_probe(int argc, char **argv);     /* spamctl_probe.c */
int spamctl_cmd_top(int argc, char **argv);       /* spamctl_probe.c */
int spamctl_cmd_bsd43(int argc, char **argv);     /* spamctl_bsd43.c */

/* Prints "spamctl CMD: not implemented yet: WAITING_FOR" and returns 3. */
int spamctl_not_yet(const char *cmd, const char *waiting_for);

#endif
