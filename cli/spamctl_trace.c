/* spamctl's trace commands: stat, decode, hist, compress, decompress,
 * export.  They arrive with the trace-tools issue (7). */
#include "cli/spamctl_cmds.h"

#define NOT_YET(fn)                                                        \
    int fn(int argc, char **argv)                                          \
    {                                                                      \
        (void)argc;                                                        \
        return spamctl_not_yet(argv[0], "the trace tools (issue 7)");      \
    }
NOT_YET(spamctl_cmd_stat)
NOT_YET(spamctl_cmd_decode)
NOT_YET(spamctl_cmd_hist)
NOT_YET(spamctl_cmd_compress)
NOT_YET(spamctl_cmd_decompress)
NOT_YET(spamctl_cmd_export)
