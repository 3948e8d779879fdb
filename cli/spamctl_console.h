/* The host side of the console terminal (cli/README.md, "The console"):
 * what the guest prints goes out 7-bit by default (4.3BSD sets the parity
 * bit; SIMH's console strips it too), and on a terminal `spamctl run` is
 * an interactive console: the terminal in raw mode so that the guest's
 * own echo and line editing work, the typed characters fed to the
 * receiver between slices of the run, an escape character (Ctrl-E, as
 * SIMH's) that stops the machine cleanly, on request the machine paced
 * to the real 8600's clock, and the terminal restored on every exit,
 * signal and error. */
#ifndef SPAMCTL_CONSOLE_H
#define SPAMCTL_CONSOLE_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "vax/machine/vm.h"

struct spamctl_console {
    int eight_bit;  /* --console-8bit: bit 7 passes through */
    int escape;     /* --console-escape: the character that stops (-1: none) */
    int throttle;   /* --throttle: an interactive console at the 8600's pace */
    /* set by spamctl_console_start */
    int interactive; /* stdin is a terminal in raw mode, typed characters fed */
    int escaped;     /* the escape was typed: the run stops */
    FILE *out;       /* what the machine writes to (the filter) */
    FILE *dest;      /* where the filter writes */
    uint8_t typed[512];
    size_t ntyped, at;
    struct timespec t0;
    uint64_t cycles0;
};

void spamctl_console_init(struct spamctl_console *c);
/* One command-line word: 0 not ours, 1 a flag, 2 an option and its value,
 * -1 bad (message printed). */
int spamctl_console_option(struct spamctl_console *c, const char *a, const char *v);
void spamctl_console_usage(FILE *f);
/* The stream to give vm_console_output: the guest's output 7-bit (or as
 * is) into dest, flushed at each character.  NULL with errno when it
 * cannot be made. */
FILE *spamctl_console_output(struct spamctl_console *c, FILE *dest);
/* Before the run: when `interactive` is asked for and stdin is a
 * terminal (and we are its foreground job), puts it in raw mode (restored
 * by spamctl_console_end, at exit, and by a fatal signal's handler before
 * the signal's own action; SIGINT, SIGTERM and SIGHUP stop the run
 * cleanly, spamctl_signal.h) and gives the machine an empty input
 * buffer: spamctl_console_slice then types what arrives. */
void spamctl_console_start(struct spamctl_console *c, struct vax_machine *m, int interactive);
/* After each slice of the run (spamctl_spam's slice hook): types the next
 * character, notices the escape, paces the machine (--throttle).  1 to
 * stop the run. */
int spamctl_console_slice(void *ctx, struct vax_machine *m);
/* After the run: the terminal restored, the filter closed (its
 * destination is the caller's to close). */
void spamctl_console_end(struct spamctl_console *c);

#endif
