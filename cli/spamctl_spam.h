/* spamctl run's SPAM options and the host drain loop (cli/README.md). */
#ifndef SPAMCTL_SPAM_H
#define SPAMCTL_SPAM_H

#include <stdint.h>

#include "vax/machine/vm.h"

struct spamctl_spam {
    const char *trace;     /* -o / --trace FILE: trace from power-on, drain */
    int kernel_only;       /* --spam-priv kernel */
    int no_xlate;          /* --no-cache-xlate */
    int no_rei;            /* --no-rei-trace */
    uint64_t drain_every;  /* microcycles between drains */
};

void spamctl_spam_init(struct spamctl_spam *s);
/* One command-line word: 0 not ours, 1 a flag, 2 an option and its value,
 * -1 bad (message printed). */
int spamctl_spam_option(struct spamctl_spam *s, const char *a, const char *v);
/* Machine options; with a trace, the console setup (PAMMINIT, SET_PTRS,
 * ENABLE).  0 or -1 (message printed). */
int spamctl_spam_setup(const struct spamctl_spam *s, struct vax_machine *m);
/* vm_run to max_cycles; with a trace, in slices of drain_every microcycles,
 * draining the buffer into the trace file after each.  0 or -1. */
int spamctl_spam_run(const struct spamctl_spam *s, struct vax_machine *m,
                     uint64_t max_cycles, const char *guest,
                     const char *ucode_path);

#endif
