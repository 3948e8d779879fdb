/* spamctl run: runs a VAX image on the emulated machine.  The machine
 * arrives with the microcode-machine issue (3). */
#include "cli/spamctl_cmds.h"

int spamctl_cmd_run(int argc, char **argv)
{
    (void)argc;
    return spamctl_not_yet(argv[0], "the microcode machine (issue 3)");
}
