/* spamctl's SIGINT/SIGTERM/SIGHUP handling, and the rule for installing
 * any handler (spamctl_signal.h).  The flag is the
 * one piece of global mutable state in spamctl: a signal handler can reach
 * nothing else. */
#define _POSIX_C_SOURCE 200809L
#include "cli/spamctl_signal.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t caught;
static struct sigaction saved_int, saved_term, saved_hup;
static int installed;

static void on_signal(int sig)
{
    if (!caught)
        caught = sig;
}

void spamctl_signals_catch(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; /* writes in progress complete */
    caught = 0;
    if (installed)
        return;
    spamctl_signal_hook(SIGINT, &sa, &saved_int);
    spamctl_signal_hook(SIGTERM, &sa, &saved_term);
    spamctl_signal_hook(SIGHUP, &sa, &saved_hup); /* a terminal that hangs up */
    installed = 1;
}

void spamctl_signals_restore(void)
{
    if (!installed)
        return;
    sigaction(SIGINT, &saved_int, NULL);
    sigaction(SIGTERM, &saved_term, NULL);
    sigaction(SIGHUP, &saved_hup, NULL);
    installed = 0;
}

int spamctl_signal(void) { return caught; }

int spamctl_signal_status(int sig) { return 128 + sig; }

void spamctl_signal_hook(int sig, const struct sigaction *sa, struct sigaction *old)
{
    sigaction(sig, NULL, old);
    if (old->sa_handler != SIG_IGN)
        sigaction(sig, sa, NULL);
}
