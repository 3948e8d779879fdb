/* spamctl: the user's front end to the VAX 8600 + SPAM emulator.
 * Argument parsing and printing only; the work is done by the libraries.
 * This file only dispatches: each command lives in its own file (see
 * spamctl_cmds.h). */
#include "cli/spamctl_cmds.h"
#include "cli/spamctl_out.h"
#include "cli/spamctl_signal.h"

#include <stdio.h>
#include <string.h>

#define SPAMCTL_VERSION "0.1.0"

static const struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"demo", spamctl_cmd_demo, "show what the project can do today (see 'spamctl demo --help')"},
    {"run", spamctl_cmd_run, "run a VAX image on the emulated 8600"},
    {"boot", spamctl_cmd_boot, "boot the machine a configuration file describes (run --config FILE)"},
    {"stat", spamctl_cmd_stat, "summarise a trace: records, span, events, drops"},
    {"decode", spamctl_cmd_decode, "one line per event (text, CSV, JSON lines)"},
    {"hist", spamctl_cmd_hist, "service-time histograms and percentiles"},
    {"compress", spamctl_cmd_compress, "compress a trace losslessly"},
    {"decompress", spamctl_cmd_decompress, "restore a compressed trace byte for byte"},
    {"export", spamctl_cmd_export, "export a trace as CTF or Chrome/Perfetto JSON"},
    {"bsd43", spamctl_cmd_bsd43, "the original 4.3BSD, installed once into a per-user cache"},
    {"names", spamctl_cmd_names, "the guest's names (system calls, vectors, programs) for the trace tools"},
    {"probe", spamctl_cmd_probe, "measure the guest with a bpftrace-like program run by the microcode"},
    {"top", spamctl_cmd_top, "a live view of the running guest, at no cost to it"},
};

int spamctl_not_yet(const char *cmd, const char *waiting_for)
{
    fprintf(stderr, "spamctl %s: not implemented yet: %s\n", cmd, waiting_for);
    return SPAMCTL_EXIT_NOT_IMPLEMENTED;
}

static void usage(FILE *f)
{
    fprintf(f,
"Usage: spamctl COMMAND [OPTIONS]\n"
"\n"
"Run a microcode-level VAX 8600 with SPAM tracing and work with its traces.\n"
"\n"
"Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
    fprintf(f,
"\n"
"'spamctl COMMAND --help' describes each command.  Commands whose piece of\n"
"the machine is not built yet say so and exit with status 3.\n"
"\n"
"Options:\n"
"  -h, --help    This text.\n"
"  --version     Print the version.\n"
"\n"
"Exit status: 0 success, 1 bad input, 2 usage error, 3 not implemented yet.\n");
}

/* Runs one command line (main's work: the libFuzzer target of the command
 * line calls it too). */
static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return SPAMCTL_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return SPAMCTL_EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("spamctl %s\n", SPAMCTL_VERSION);
        return SPAMCTL_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "spamctl: unknown command '%s' (try 'spamctl --help')\n", cmd);
    return SPAMCTL_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    struct out_sink sink;
    stdout_capture(&sink);
    int rc = dispatch(argc, argv);
    spamctl_signals_restore();
    /* what the command printed must have reached stdout: checked here
     * once, at the flush and the close (stdout is closed after this) */
    int err = stdout_release(&sink);
    if (err) {
        out_error(argc > 1 ? argv[1] : "", "<stdout>", err);
        if (rc == SPAMCTL_EXIT_OK)
            rc = SPAMCTL_EXIT_BAD_INPUT;
    }
    return rc;
}
