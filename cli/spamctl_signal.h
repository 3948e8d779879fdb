/* SIGINT, SIGTERM and SIGHUP in spamctl: a handler only notes the signal, and the
 * command stops at its next safe point (for the machine: the next slice
 * boundary, then the next instruction boundary), finishes its output
 * (drain, complete trace header, summary "stopped: interrupted") and exits
 * with 128 + the signal number (130, 143).  The machine library installs
 * no handler and never prints.  SIGKILL cannot be caught: a killed run
 * leaves the trace's flushed prefix, which readers accept. */
#ifndef SPAMCTL_SIGNAL_H
#define SPAMCTL_SIGNAL_H

/* Installs the handlers (again after a previous restore). */
void spamctl_signals_catch(void);
/* Restores the dispositions that were in place before the catch. */
void spamctl_signals_restore(void);
/* The signal received since the catch (SIGINT, SIGTERM, SIGHUP), or 0. */
int spamctl_signal(void);
/* The exit status for a command stopped by `sig`: 128 + sig. */
int spamctl_signal_status(int sig);

/* Sets sig's action to *sa, unless whoever started spamctl left sig
 * ignored (a shell's background job ignores SIGINT and SIGQUIT, nohup
 * SIGHUP): it stays ignored.  *old: the action before, for restoring.
 * The rule for every handler spamctl installs (the console's too). */
struct sigaction;
void spamctl_signal_hook(int sig, const struct sigaction *sa, struct sigaction *old);

#endif
