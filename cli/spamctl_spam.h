/* spamctl run's SPAM options and the host drain loop (cli/README.md). */
#ifndef SPAMCTL_SPAM_H
#define SPAMCTL_SPAM_H

#include <stdint.h>

#include "vax/machine/vm.h"

struct probes_opts;

struct spamctl_spam {
    const char *cmd;       /* for messages: "run" (the default), "demo" */
    const char *trace;     /* -o / --trace FILE: trace from power-on, drain */
    int kernel_only;       /* --spam-priv kernel */
    int no_xlate;          /* --no-cache-xlate */
    int no_rei;            /* --no-rei-trace */
    uint64_t drain_every;  /* microcycles between drains */
    /* the network interface (vax/machine/vm_net.h): --net-rate (0: no
     * device), --net-size MIN:MAX, --seed (also the trace header's) */
    double net_rate;
    uint32_t net_min, net_max;
    uint64_t seed;
    /* called after every slice of drain_every microcycles (NULL: none;
     * without a trace the run is then sliced too) */
    void (*progress)(void *ctx, uint64_t microcycles, uint64_t max_cycles);
    void *progress_ctx;
    /* also called after every slice, before the drain (NULL: none; the
     * run is then sliced too): nonzero stops the run there, at the next
     * instruction boundary, as a caught signal does (the interactive
     * console's escape, spamctl_console.h) */
    int (*slice)(void *ctx, struct vax_machine *m);
    void *slice_ctx;
    /* the drain as a tap: the host copies every record the machine wrote
     * (its own read pointer) and consumes records only when the buffer
     * is a quarter full, so an in-guest READ_BUFFER reader sees them too */
    int tap;
    /* --drain=guest: trace from power-on as -o does, but no host drain
     * and no file: the guest retrieves records with READ_BUFFER (FD04),
     * as in the paper (tracing stops itself when the buffer fills) */
    int guest_drain;
    /* probe programs (cli/spamctl_probes.h): loaded when the run reaches
     * their microcycle, at a slice's end; a routine's NOTE 1 (the
     * language's exit()) ends the run after its slice; in the free mode
     * their records go into the trace here, after the buffer's (NULL:
     * none) */
    struct probes_opts *probes;
};

void spamctl_spam_init(struct spamctl_spam *s);
/* One command-line word: 0 not ours, 1 a flag, 2 an option and its value,
 * -1 bad (message printed). */
int spamctl_spam_option(struct spamctl_spam *s, const char *a, const char *v);
/* Machine options; with a trace or --drain=guest, the console setup (PAMMINIT, SET_PTRS,
 * ENABLE).  0 or -1 (message printed). */
int spamctl_spam_setup(const struct spamctl_spam *s, struct vax_machine *m);
/* vm_run to max_cycles (0: no limit) in slices of drain_every microcycles;
 * with a trace, the buffer is drained into the trace file after each.  A
 * SIGINT/SIGTERM caught (spamctl_signal.h) stops the machine after the
 * slice at the next instruction boundary, and the trace is completed.
 * Returns SPAMCTL_RUN_OK, SPAMCTL_RUN_FAILED (the trace file could not be
 * written: message printed, the machine stopped at once, the header left
 * incomplete), SPAMCTL_RUN_NOT_STARTED (the trace file could not be
 * created: message printed, the machine not run) or the number of the
 * signal that stopped the run; with probes also SPAMCTL_RUN_PROBE_EXIT (a
 * routine asked to end the run: not an error) and
 * SPAMCTL_RUN_PROBE_REFUSED (a program due during the run was refused:
 * message printed, the run stopped there). */
enum { SPAMCTL_RUN_OK = 0, SPAMCTL_RUN_FAILED = -1, SPAMCTL_RUN_NOT_STARTED = -2,
       SPAMCTL_RUN_PROBE_EXIT = -3, SPAMCTL_RUN_PROBE_REFUSED = -4 };
int spamctl_spam_run(const struct spamctl_spam *s, struct vax_machine *m,
                     uint64_t max_cycles, const char *guest,
                     const char *ucode_path);

#endif
