/* What `spamctl names` extracts from a guest's kernel, for the other
 * commands that name things (spamctl probe): system calls and SCB
 * vectors. */
#ifndef SPAMCTL_NAMES_H
#define SPAMCTL_NAMES_H

#include "spam/spam_aout.h"
#include "spam/spam_gnames.h"

/* The kernel k's system calls (named by 4.3BSD's sys/syscalls.c when the
 * build has it, else by their handlers) and SCB vectors into g.  0, or
 * -1 with the message printed. */
int spamctl_names_kernel(const struct spam_aout *k, const char *kernel_path,
                         struct spam_gnames *g);

#endif
