#include "spam/spam_err.h"

#include <stdarg.h>
#include <stdio.h>

void spam_err_set(struct spam_err *e, uint64_t offset, const char *fmt, ...)
{
    if (!e)
        return;
    e->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
}
