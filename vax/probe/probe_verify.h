/* The verifier (the Informer's rules, PROBES.md "Verification"): a probe
 * program runs only if every operation is valid, control flows forward
 * (loops only with constant bounds, which it unrolls), no register is
 * read before it is written, nothing of the guest can be written,
 * aggregation indexes are bounded and each routine's worst-case
 * microcycles fit its checkpoint's budget.  The machine calls it for
 * the host's programs and for the guest's (PRBLOAD); a rejection names
 * one reason. */
#ifndef VAX_PROBE_PROBE_VERIFY_H
#define VAX_PROBE_PROBE_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "vax/probe/probe_isa.h"

/* A verified program: each probe's routine with its loops unrolled and
 * its skips counted in the unrolled instructions, and its cost. */
struct prb_checked {
    struct prb_insn *code;           /* every routine, one after the other */
    unsigned ncode;
    unsigned start[PRB_MAX_PROBES], len[PRB_MAX_PROBES];
    uint32_t cost[PRB_MAX_PROBES];   /* worst case, PRB_COST_ROUTINE included */
    uint32_t budget[PRB_MAX_PROBES]; /* the budget it was checked against */
};

/* Why a program was refused: the probe and the image instruction (-1:
 * none), that instruction's text line (0: unknown), and the reason. */
struct prb_reject {
    int probe, insn;
    unsigned line;
    char msg[200];
};

/* 0 and *out filled (free it with prb_checked_free), or -1 and *why. */
int prb_verify(const struct prb_program *p, struct prb_checked *out, struct prb_reject *why);
void prb_checked_free(struct prb_checked *c);

/* The rejection as one line: "line N: probe NAME: reason" (the parts
 * known). */
void prb_reject_text(const struct prb_program *p, const struct prb_reject *why, char *buf,
                     size_t len);

#endif
