/* Errors and warnings from libspam: an offset into the input and a message.
 * The library never prints; callers format "FILE: offset N: message". */
#ifndef SPAM_ERR_H
#define SPAM_ERR_H

#include <stdint.h>

struct spam_err {
    uint64_t offset; /* byte offset in the input the message is about */
    char msg[200];
};

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void spam_err_set(struct spam_err *e, uint64_t offset, const char *fmt, ...);

#endif
