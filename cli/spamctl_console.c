/* The host side of the console terminal (spamctl_console.h). */
#define _GNU_SOURCE /* fopencookie: the 7-bit filter is a stdio stream */
#include "cli/spamctl_console.h"
#include "cli/spamctl_signal.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define ESCAPE_DEFAULT 0x05 /* Ctrl-E */
#define CYCLE_NS 80         /* one microcycle */
#define PACE_SLACK_NS 2000000
#define PACE_MAX_MS 50

/* The terminal's saved state, for the handlers of fatal and stopping
 * signals and for exit: with spamctl_signal.c's flag, the only global
 * mutable state of spamctl (a signal handler can reach nothing else). */
static struct termios tty_saved;
static volatile sig_atomic_t tty_is_raw;
static int tty_hooked;
static const int fatal_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT};
#define NFATAL (sizeof fatal_sigs / sizeof fatal_sigs[0])
static struct sigaction fatal_old[NFATAL];

static void tty_restore(void)
{
    if (tty_is_raw) {
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &tty_saved);
        tty_is_raw = 0;
    }
}

/* A fatal signal: the terminal back, then whatever was there before us
 * (the default action, or a sanitizer's report) runs. */
static void on_fatal(int sig)
{
    tty_restore();
    for (size_t i = 0; i < NFATAL; i++)
        if (fatal_sigs[i] == sig)
            sigaction(sig, &fatal_old[i], NULL);
    raise(sig);
}

static void hooks_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_fatal;
    /* (an ignored SIGQUIT stays ignored: hooked, it would give the
     * terminal back while the run goes on) */
    for (size_t i = 0; i < NFATAL; i++)
        spamctl_signal_hook(fatal_sigs[i], &sa, &fatal_old[i]);
    if (!tty_hooked)
        atexit(tty_restore);
    tty_hooked = 1;
}

static void hooks_remove(void)
{
    for (size_t i = 0; i < NFATAL; i++)
        sigaction(fatal_sigs[i], &fatal_old[i], NULL);
}

void spamctl_console_init(struct spamctl_console *c)
{
    memset(c, 0, sizeof *c);
    c->escape = ESCAPE_DEFAULT;
}

void spamctl_console_usage(FILE *f)
{
    fprintf(f,
"The console (cli/README.md, \"The console\"):\n"
"  --console-8bit       write the guest's console output as it is; by default\n"
"                       bit 7 is stripped (4.3BSD sets it: even parity)\n"
"  --console-escape C   on a terminal, the character that stops the machine:\n"
"                       ^X (control-X), a single character, or none (default ^E)\n"
"  --throttle           on a terminal, run at the real 8600's pace: emulated time\n"
"                       no faster than the host's clock (the guest's clock keeps\n"
"                       time; an idle guest costs the host little);\n"
"  --no-throttle        flat out (the default; after a configuration file's\n"
"                       'set throttle')\n"
"On a terminal (stdin a tty, no --console-in or --console-script) the run is\n"
"an interactive console: the terminal in raw mode (the guest echoes and edits\n"
"lines itself; Ctrl-C, Ctrl-Z go to the guest), restored at every exit.\n");
}

int spamctl_console_option(struct spamctl_console *c, const char *a, const char *v)
{
    if (!strcmp(a, "--console-8bit")) {
        c->eight_bit = 1;
        return 1;
    }
    if (!strcmp(a, "--throttle") || !strcmp(a, "--no-throttle")) {
        c->throttle = a[2] == 't';
        return 1;
    }
    if (strcmp(a, "--console-escape") != 0)
        return 0;
    if (!v) {
        fprintf(stderr, "spamctl run: --console-escape needs a value (^E, a character, none)\n");
        return -1;
    }
    if (!strcmp(v, "none"))
        c->escape = -1;
    else if (v[0] == '^' && v[1] && !v[2] && ((v[1] | 0x20) >= 'a' && (v[1] | 0x20) <= 'z'))
        c->escape = (v[1] | 0x20) - 'a' + 1;
    else if (v[0] && !v[1] && (unsigned char)v[0] < 0x80)
        c->escape = (unsigned char)v[0];
    else {
        fprintf(stderr, "spamctl run: bad value for --console-escape: '%s' (^E, a character, "
                        "none)\n", v);
        return -1;
    }
    return 2;
}

static ssize_t filter_write(void *cookie, const char *buf, size_t n)
{
    struct spamctl_console *c = cookie;
    char tmp[512];
    size_t done = 0;
    while (done < n) {
        size_t k = n - done < sizeof tmp ? n - done : sizeof tmp;
        for (size_t i = 0; i < k; i++)
            tmp[i] = c->eight_bit ? buf[done + i] : (char)(buf[done + i] & 0x7F);
        if (fwrite(tmp, 1, k, c->dest) != k)
            return done ? (ssize_t)done : -1;
        done += k;
    }
    if (fflush(c->dest) != 0)
        return -1;
    return (ssize_t)n;
}

FILE *spamctl_console_output(struct spamctl_console *c, FILE *dest)
{
    cookie_io_functions_t fns = {.write = filter_write};
    c->dest = dest;
    c->out = fopencookie(c, "w", fns);
    return c->out;
}

void spamctl_console_start(struct spamctl_console *c, struct vax_machine *m, int interactive)
{
    c->interactive = 0;
    c->escaped = 0;
    c->ntyped = c->at = 0;
    clock_gettime(CLOCK_MONOTONIC, &c->t0);
    struct vm_stats st;
    vm_get_stats(m, &st);
    c->cycles0 = st.microcycles;
    /* only the terminal's foreground job may set it (else SIGTTOU) */
    if (!interactive || !isatty(STDIN_FILENO) || tcgetpgrp(STDIN_FILENO) != getpgrp() ||
        tcgetattr(STDIN_FILENO, &tty_saved) != 0)
        return;
    struct termios tty_raw = tty_saved;
    tty_raw.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
    tty_raw.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    tty_raw.c_cc[VMIN] = 1;
    tty_raw.c_cc[VTIME] = 0;
    hooks_install();
    if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &tty_raw) != 0) {
        hooks_remove();
        return;
    }
    tty_is_raw = 1;
    c->interactive = 1;
    vm_console_input(m, "", 0); /* the machine never reads stdin itself */
}

/* What has been typed since the last look, without waiting longer than
 * wait_ms (0: not at all).  1 when the escape came. */
static int read_typed(struct spamctl_console *c, int wait_ms)
{
    if (c->at == c->ntyped)
        c->at = c->ntyped = 0;
    if (c->ntyped == sizeof c->typed)
        return 0;
    struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
    if (poll(&p, 1, wait_ms) <= 0 || !(p.revents & POLLIN))
        return 0;
    ssize_t n = read(STDIN_FILENO, c->typed + c->ntyped, sizeof c->typed - c->ntyped);
    for (ssize_t i = 0; i < n; i++)
        if (c->escape >= 0 && c->typed[c->ntyped + (size_t)i] == c->escape) {
            c->escaped = 1;
            return 1;
        }
    if (n > 0)
        c->ntyped += (size_t)n;
    return 0;
}

int spamctl_console_slice(void *ctx, struct vax_machine *m)
{
    struct spamctl_console *c = ctx;
    if (!c->interactive)
        return 0;
    if (read_typed(c, 0))
        return 1;
    if (c->at < c->ntyped && vm_console_type(m, c->typed[c->at]) == 0)
        c->at++;
    if (!c->throttle)
        return 0;
    /* no faster than the 8600: wait (for a key, at most) until the clock
     * catches up with emulated time */
    struct vm_stats st;
    vm_get_stats(m, &st);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t wall = (int64_t)(now.tv_sec - c->t0.tv_sec) * 1000000000 + (now.tv_nsec - c->t0.tv_nsec);
    int64_t emu = (int64_t)((st.microcycles - c->cycles0) * CYCLE_NS);
    if (emu - wall > PACE_SLACK_NS) {
        int64_t ms = (emu - wall) / 1000000;
        if (read_typed(c, (int)(ms < PACE_MAX_MS ? ms : PACE_MAX_MS)))
            return 1;
    }
    return 0;
}

void spamctl_console_end(struct spamctl_console *c)
{
    if (c->interactive) {
        tty_restore();
        hooks_remove();
        c->interactive = 0;
    }
    if (c->out) {
        fclose(c->out);
        c->out = NULL;
    }
}
