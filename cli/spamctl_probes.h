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
struct probe_session;
struct spam_record;

#define PROBES_MAX_FILES 8

struct probes_opts {
    const char *file[PROBES_MAX_FILES];  /* --probes, --probes-at */
    uint64_t at[PROBES_MAX_FILES];       /* the microcycle to load it at (0: the start) */
    unsigned nfile;
    int free_mode;                       /* --probes-free */
    const char *kernel;                  /* --probe-kernel: the symbols' a.out */
    const char *disk;                    /* else /vmunix of this disk (rp0) */
    const char *json;                    /* --probe-json FILE */
    /* the probe language (issue 31; vax/probe/LANGUAGE.md): --probe TEXT,
     * --probe-file FILE; their maps printed as bpftrace prints them
     * (--probe-json: as JSON lines), --probe-svg FILE their histograms */
    const char *lang_text[PROBES_MAX_FILES], *lang_file[PROBES_MAX_FILES];
    unsigned nlang;
    const char *svg;
    uint32_t budget;                     /* --probe-budget */
    int top;                             /* spamctl top's screen each emulated second */
    /* loaded */
    struct prb_program *prog[PROBES_MAX_FILES];
    int handle[PROBES_MAX_FILES];
    unsigned next;                       /* the next file to load */
    struct probe_session *sess[PROBES_MAX_FILES];
    int sess_loaded;
    FILE *out;                           /* where maps and printf go (stdout) */
};

/* Any program at all (--probes, --probe, --probe-file). */
int probes_any(const struct probes_opts *o);
/* Whether a program writes records (printf, record): the run must trace. */
int probes_need_trace(const struct probes_opts *o);
/* Between slices: the language's interval blocks; 1 when one called
 * exit() (the run ends), else 0. */
int probes_slice(struct probes_opts *o, struct vax_machine *m);
/* Records the host took from the trace buffer (or the free mode's): the
 * language's printf lines. */
void probes_records(struct probes_opts *o, const struct spam_record *r, size_t n);

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
    "  --probe-json FILE  The probes' counts and maps as JSON (lines).\n"               \
    "  --probe 'PROGRAM'  A program in the probe language (vax/probe/LANGUAGE.md,\n"   \
    "                 spamctl probe --help), names from the guest's disk and\n"        \
    "                 kernel.  Repeatable.\n"                                          \
    "  --probe-file FILE  The same from a file.\n"                                     \
    "  --probe-budget N  Each language routine's budget in microcycles.\n"             \
    "  --probe-svg FILE  The language programs' histograms as SVG.\n"                  \
    "  The report after the run: each probe's firings, microcycles (and share\n"        \
    "  of the run), worst firing against its verified cost, errors; each map.\n"

#endif
