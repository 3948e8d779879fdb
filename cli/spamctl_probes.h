/* spamctl run's probes (issue 30; vax/probe/PROBES.md): --probes FILE
 * (the text form, symbols from the guest kernel's a.out), --probes-at
 * CYCLES:FILE (loaded between slices of the run), --probes-free (the
 * zero-perturbation mode), and the report at the end: each probe's
 * firings and microcycles, then its maps. */
#ifndef SPAMCTL_PROBES_H
#define SPAMCTL_PROBES_H

#include <stdint.h>
#include <stdio.h>

#include "vax/probe/probe_isa.h"

struct vax_machine;

#define PROBES_MAX_FILES 8

struct probes_opts {
    const char *file[PROBES_MAX_FILES];  /* --probes, --probes-at */
    uint64_t at[PROBES_MAX_FILES];       /* the microcycle to load it at (0: the start) */
    unsigned nfile;
    int free_mode;                       /* --probes-free */
    const char *kernel;                  /* --probe-kernel: the symbols' a.out */
    const char *disk;                    /* else /vmunix of this disk (rp0) */
    const char *json;                    /* --probe-json FILE */
    /* loaded */
    struct prb_program *prog[PROBES_MAX_FILES];
    int handle[PROBES_MAX_FILES];
    unsigned next;                       /* the next file to load */
};

/* Parses one of the run's probe options at argv[*i] (advancing *i past
 * its value): 1 taken, 0 not a probe option, -1 a usage error (printed). */
int probes_option(struct probes_opts *o, int argc, char **argv, int *i);
/* Reads and assembles every file (symbols resolved), before the run:
 * 0, or -1 with the message printed (FILE:LINE:COL). */
int probes_prepare(struct probes_opts *o);
/* Loads the files due at the machine's microcycle now: 0, or -1 with
 * the verifier's reason printed. */
int probes_load_due(struct probes_opts *o, struct vax_machine *m);
/* The microcycle of the next load (UINT64_MAX: none). */
uint64_t probes_next_at(const struct probes_opts *o);
/* The report (text to f, and --probe-json), and the files freed. */
int probes_report(struct probes_opts *o, struct vax_machine *m, FILE *f);
void probes_free(struct probes_opts *o);

#define PROBES_USAGE                                                                     \
    "Probes (vax/probe/PROBES.md; measurement routines the machine runs at\n"           \
    "checkpoints, verified before they run):\n"                                         \
    "  --probes FILE  Load the probe program FILE (the text form) before the\n"         \
    "                 first instruction.  Symbols (_ipintr+2, _time) are the\n"         \
    "                 guest kernel's: --probe-kernel, else /vmunix of the disk\n"       \
    "                 attached as rp0.  Repeatable.\n"                                  \
    "  --probes-at CYCLES:FILE  Load FILE when the run reaches that microcycle.\n"      \
    "  --probe-kernel FILE  The a.out the symbols come from.\n"                         \
    "  --probes-free  Run the routines in the host between microcycles (the\n"          \
    "                 zero-perturbation mode) instead of in microcode.\n"               \
    "  --probe-json FILE  The probes' counts and maps as JSON.\n"                       \
    "  The report after the run: each probe's firings, microcycles (and share\n"        \
    "  of the run), worst firing against its verified cost, errors; each map.\n"

#endif
