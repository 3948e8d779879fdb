/* A probe-language program in a run (issue 31): compiled with the
 * guest's names, loaded into the machine's probe unit, its host side
 * (BEGIN, interval, END, exit(), printf's records) run between the
 * machine's slices, and at the end its maps printed as bpftrace prints
 * them (or as JSON lines), its histograms drawn (SVG), and what each
 * probe cost the guest. */
#ifndef SPAMCTL_PROBE_SESSION_H
#define SPAMCTL_PROBE_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/spamctl_guest.h"
#include "spam/spam_format.h"
#include "vax/probe/probe_lang.h"

struct vax_machine;

struct probe_session {
    /* set by the caller */
    const char *cmd;          /* "run", "probe", "demo": for messages */
    const char *text;         /* the program */
    size_t len;
    int owned;                /* text is the session's to free */
    const char *name;         /* its name in messages ("-e", a file) */
    const char *kernel, *disk;/* the guest's names (either may be NULL) */
    uint32_t budget;          /* 0: the default */
    int free_mode;            /* the zero-perturbation mode */
    int json;                 /* maps and printf as JSON lines */
    const char *svg;          /* histograms drawn into this file */
    FILE *out;                /* stdout */
    int top;                  /* spamctl top: a screen every emulated second */
    int tty;                  /* the screen redrawn in place */
    /* the session's own */
    struct guest g;
    struct prb_lang *l;
    int handle;               /* the probe unit's, -1: not loaded */
    uint64_t next_us[PRB_LANG_MAX_BLOCKS];
    int exited;               /* exit() ran (in a probe or the host) */
    struct vax_machine *m;    /* while the host's side runs */
    struct {                  /* a probe record from the drain, with its values */
        uint32_t detail, vals[16];
        unsigned have, want;
        int open;
    } rec;
    uint64_t printed, cut;    /* records printed; groups cut off */
    void *top_prev;           /* spamctl top's last snapshot (struct top_snap) */
    uint64_t top_next_us;
};

/* Compiles the program (errors printed with their line and a caret):
 * 0, or -1. */
int probe_session_prepare(struct probe_session *s);
/* Whether the program writes records (printf, record): the run must trace
 * then. */
int probe_session_needs_trace(const struct probe_session *s);
/* Loads the program into the machine and runs BEGIN: 0, or -1 with the
 * machine's refusal printed. */
int probe_session_load(struct probe_session *s, struct vax_machine *m);
/* Between two slices: due interval blocks.  1 when one called exit() and
 * the run should stop, else 0.  (A probe's exit() is NOTE 1, which the run
 * loop reads.) */
int probe_session_slice(struct probe_session *s, struct vax_machine *m);
/* Records the host drained from the trace buffer: the probe records'
 * printf lines are printed. */
void probe_session_records(struct probe_session *s, const struct spam_record *r, size_t n);
/* END, the maps, the SVG, the probes' cost: 0, or -1 (an output failed). */
int probe_session_end(struct probe_session *s, struct vax_machine *m);
void probe_session_free(struct probe_session *s);

#endif
