/* spamctl demo --os ours's work, without printing: boot the bundled guest
 * traced with the host drain and analyse the trace with libspam. */
#ifndef SPAMCTL_DEMO_RUN_H
#define SPAMCTL_DEMO_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "spam/spam_cpu.h"
#include "spam/spam_hist.h"
#include "vax/machine/vm.h"
#include "vax/machine/vm_net.h"

#define DEMO_MAX_PROCS 32

struct demo_opts {
    const char *image;     /* kernel.bin (flat from physical 0) */
    const char *trace;     /* the trace file to write */
    uint32_t ticks;        /* the kernel's shutdown tick (10 ms each) */
    uint64_t seed;
    double net_rate;       /* packets per second of VAX time (0: no device) */
    uint32_t net_min, net_max;
    /* progress: phase 0 the run, 2 analysing */
    void (*progress)(void *ctx, int phase, uint64_t now, uint64_t max);
    void *progress_ctx;
};

struct demo_proc {
    int32_t pid, uid;
    uint8_t major, minor;
    uint16_t inode;
    uint64_t switches;     /* LDPCTX records switching to it */
    uint64_t user_us, sys_us; /* spam_cpu's accounting of the trace */
    char cmd[16];          /* from the guest's shutdown report ("?" if none) */
    /* the guest kernel's own count in its shutdown report: clock ticks it
     * charged the process, those in user mode, system calls (-1: not
     * reported) */
    long ticks, user, syscalls;
};

struct demo_run_stats {
    int halted;
    char reason[64];
    uint64_t microcycles, instructions;
    uint64_t clock_ticks;  /* interval-timer interrupts taken (SCB 0xC0) */
    uint64_t spam_hook_cycles, spam_insn_cycles; /* SPAM's own microcycles */
    int interrupted;       /* the SIGINT/SIGTERM that stopped the run, or 0 */
};

struct demo_result {
    struct demo_run_stats traced;
    struct vm_net_stats net;
    uint64_t records, dropped;       /* in the trace file */
    uint64_t by_class[16];           /* decoded events per class */
    uint64_t unmatched;              /* REIs without an open event */
    struct spam_hist isr_incl, isr_excl; /* SCB 0xB0, microseconds */
    uint64_t isr_lin[51];            /* its inclusive times in 0.1 ms bins, the last open */
    struct spam_cpu *cpu;            /* where the time went */
    struct demo_proc procs[DEMO_MAX_PROCS];
    int nprocs;
    uint64_t trace_us;               /* reconstructed span of the trace */
    char *console;                   /* the guest's console output (malloc) */
};

/* Finds the bundled kernel image: `given` if not NULL, else next to the
 * build's spamctl or at the path compiled in.  Returns a path, or NULL. */
const char *demo_find_image(const char *given, const char *argv0, char *buf, size_t len);

/* Runs the demo; 0, or -1 with a message in err (empty when it was
 * printed already).  A SIGINT/SIGTERM caught (spamctl_signal.h) stops the
 * run cleanly (the trace completed); r->traced.interrupted says so.  A
 * guest that halts before its first clock tick is an error: the image is
 * not a working kernel. */
int demo_run(const struct demo_opts *o, struct demo_result *r, char *err, size_t errlen);
void demo_result_free(struct demo_result *r);

#endif
