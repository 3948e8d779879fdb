/* The host's executor of installed routines (the zero-perturbation mode,
 * PROBES.md "Two modes"): the same installed bytes microcode/probe.mic
 * interprets, with the same results, run by the host between two
 * microcycles, costing the guest nothing.  The machine supplies what
 * the routine reads and does through prb_host. */
#ifndef VAX_PROBE_PROBE_EXEC_H
#define VAX_PROBE_PROBE_EXEC_H

#include <stdint.h>

struct prb_host {
    void *ctx;
    /* the context value of a CTX selector (probe_isa.h enum prb_ctx) */
    uint32_t (*value)(void *ctx, unsigned sel);
    /* the aligned longword at a virtual or physical address: 0, or -1
     * when it does not translate or is not memory (as probe.mic's
     * PRB.VREAD and PRB.PREAD decide) */
    int (*vread)(void *ctx, uint32_t va, uint32_t *out);
    int (*pread)(void *ctx, uint32_t pa, uint32_t *out);
    /* REC: the detail (tag << 4 | n) and its n values; TRON/TROFF; and the
     * unit's commands (the IPR numbers PRB_ERR ... PRB_WATCH of probe.mic,
     * with WATCH's cookie in arg) */
    void (*record)(void *ctx, uint32_t detail, const uint32_t *vals, unsigned n);
    void (*trace)(void *ctx, int on);
    void (*command)(void *ctx, unsigned ipr, uint32_t v, uint32_t arg);
    /* the probe region: code and maps, at physical region_pa */
    uint8_t *region;
    uint32_t region_pa, region_len;
};

/* IPR numbers of the unit's commands (probe.mic's .equ). */
enum { PRB_IPR_ERR = 0xEA, PRB_IPR_NOREC, PRB_IPR_RETCHK, PRB_IPR_ARM, PRB_IPR_DISARM,
       PRB_IPR_WATCH, PRB_IPR_NOTE = 0xD8 };

/* Runs the routine whose first instruction is at physical code_pa, with
 * the map table at maps_pa.  Returns the number of instructions it
 * executed; an instruction probe.mic would not run (a corrupted region)
 * ends the routine with an error command, as PRB.BAD does. */
unsigned prb_exec(const struct prb_host *h, uint32_t code_pa, uint32_t maps_pa);

#endif
