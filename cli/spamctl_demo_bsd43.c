/* spamctl demo --os 4.3bsd: the paper's experiment on the original 4.3BSD
 * (issue 18 item 6).  The work is a documented script,
 * vax/guest/bsd43/demo.py (boot the cached install multi-user under
 * network load, compile and run the in-guest reader, analyse the trace);
 * this only checks the options, finds the script and the installed disk
 * (paths compiled in by meson) and execs python3 on it. */
#include "cli/spamctl_cmds.h"
#include "cli/spamctl_out.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SPAMCTL_BSD43_DEMO
#define SPAMCTL_BSD43_DEMO "vax/guest/bsd43/demo.py"
#endif
#ifndef SPAMCTL_BSD43_DISK
#define SPAMCTL_BSD43_DISK "tests/bsd43/bsd43-work/rp06.dsk"
#endif

static void usage(FILE *f)
{
    fprintf(f,
"Usage: spamctl demo --os 4.3bsd [--disk FILE] [--net-rate R] [--seed N]\n"
"                    [--users N] [--svg FILE] [--no-perturbation] [--work DIR]\n"
"\n"
"The paper's experiment on the original 4.3BSD.  Copies of the installed\n"
"disk (--disk; default the cache of the bsd43 tests,\n"
SPAMCTL_BSD43_DISK ") boot multi-user\n"
"with the network at R frames/s (default 200, seed 1), routed and XNSrouted\n"
"running, a benchmark user and N shell users (default 3) on DZ11 lines;\n"
"4.3BSD's cc compiles the in-guest reader (vax/guest/bsd43/spamread/), which\n"
"reads the SPAM buffer with READ_BUFFER for 5 s while the benchmark user\n"
"runs its job.  Over the reader's records it prints the IPL 12 service time\n"
"from the trace (percentiles, 0.1 ms bins) and from the reader, events per\n"
"class, context switches per program, where the time went, the network's\n"
"cost per frame (de0's interrupts, IPL 12, routed, XNSrouted) and XNSrouted's\n"
"per XNS packet, the reader's CPU share, and the perturbation: SPAM's own\n"
"microcycles, and the benchmark job's time untraced, traced with the host\n"
"drain, and traced with the reader (three runs at once).\n"
"\n"
"  --users N          shell users on tty01.. (0-7; default 3)\n"
"  --svg FILE         draw the IPL 12 histogram (the paper's Figure 4)\n"
"  --no-perturbation  only the traced run (no job times to compare)\n"
"  --work DIR         keep the runs' files (traces, consoles, pcap)\n"
"\n"
"Runs " SPAMCTL_BSD43_DEMO ".\n"
"Exit status: 0 success, 1 bad input or a failed run, 2 usage error.\n");
}

int spamctl_demo_bsd43(int argc, char **argv)
{
    const char *disk = SPAMCTL_BSD43_DISK, *rate = "200", *seed = "1", *work = NULL;
    const char *users = "3", *svg = NULL;
    int seen_os = 0, no_perturbation = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return SPAMCTL_EXIT_OK;
        }
        if (strcmp(a, "--no-perturbation") == 0) {
            no_perturbation = 1;
            continue;
        }
        int known = strcmp(a, "--os") == 0 || strcmp(a, "--disk") == 0 ||
                    strcmp(a, "--net-rate") == 0 || strcmp(a, "--seed") == 0 ||
                    strcmp(a, "--work") == 0 || strcmp(a, "--users") == 0 ||
                    strcmp(a, "--svg") == 0;
        if (!known) {
            fprintf(stderr, "spamctl demo --os 4.3bsd: unknown option '%s'\n", a);
            usage(stderr);
            return SPAMCTL_EXIT_USAGE;
        }
        if (!v) {
            fprintf(stderr, "spamctl demo: %s needs a value\n", a);
            return SPAMCTL_EXIT_USAGE;
        }
        i++;
        char *end;
        errno = 0;
        if (strcmp(a, "--os") == 0) {
            if (strcmp(v, "4.3bsd") != 0) {
                fprintf(stderr, "spamctl demo: --os: '%s' is not a known system (4.3bsd)\n", v);
                return SPAMCTL_EXIT_USAGE;
            }
            seen_os = 1;
        } else if (strcmp(a, "--disk") == 0) {
            disk = v;
        } else if (strcmp(a, "--work") == 0) {
            work = v;
        } else if (strcmp(a, "--svg") == 0) {
            svg = v;
        } else if (strcmp(a, "--users") == 0) {
            if (v[0] < '0' || v[0] > '7' || v[1]) {
                fprintf(stderr, "spamctl demo: bad value for --users: '%s' (0-7)\n", v);
                return SPAMCTL_EXIT_USAGE;
            }
            users = v;
        } else if (strcmp(a, "--net-rate") == 0) {
            double r = strtod(v, &end);
            if (!*v || *end || errno || !(r >= 0 && r <= 1e6)) {
                fprintf(stderr, "spamctl demo: bad value for --net-rate: '%s'\n", v);
                return SPAMCTL_EXIT_USAGE;
            }
            rate = v;
        } else {
            (void)strtoull(v, &end, 0);
            if (!*v || *end || errno || *v == '-') {
                fprintf(stderr, "spamctl demo: bad value for --seed: '%s'\n", v);
                return SPAMCTL_EXIT_USAGE;
            }
            seed = v;
        }
    }
    if (!seen_os) {
        usage(stderr);
        return SPAMCTL_EXIT_USAGE;
    }
    struct hostfile_set *files = malloc(sizeof *files); /* spamctl_out.h */
    if (!files)
        return SPAMCTL_EXIT_BAD_INPUT;
    hostfile_set_init(files);
    hostfile_set_add(files, HOSTFILE_IN, "--disk", disk);
    hostfile_set_add(files, HOSTFILE_OUT, "--svg", svg);
    int clash = out_check_files("demo", files);
    free(files);
    if (clash)
        return SPAMCTL_EXIT_USAGE;
    if (access(SPAMCTL_BSD43_DEMO, R_OK) != 0) {
        fprintf(stderr, "spamctl demo: %s: %s\n", SPAMCTL_BSD43_DEMO, strerror(errno));
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "spamctl demo: cannot find spamctl itself (/proc/self/exe)\n");
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    self[n] = '\0';
    fflush(stdout);
    char *args[24];
    int k = 0;
    args[k++] = (char *)"python3";
    args[k++] = (char *)SPAMCTL_BSD43_DEMO;
    args[k++] = (char *)"--spamctl";
    args[k++] = self;
    args[k++] = (char *)"--disk";
    args[k++] = (char *)disk;
    args[k++] = (char *)"--net-rate";
    args[k++] = (char *)rate;
    args[k++] = (char *)"--seed";
    args[k++] = (char *)seed;
    args[k++] = (char *)"--users";
    args[k++] = (char *)users;
    if (work) {
        args[k++] = (char *)"--work";
        args[k++] = (char *)work;
    }
    if (svg) {
        args[k++] = (char *)"--svg";
        args[k++] = (char *)svg;
    }
    if (no_perturbation)
        args[k++] = (char *)"--no-perturbation";
    args[k] = NULL;
    execvp("python3", args);
    fprintf(stderr, "spamctl demo: python3: %s\n", strerror(errno));
    return SPAMCTL_EXIT_BAD_INPUT;
}
