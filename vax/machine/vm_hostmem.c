/* Zeroed, huge-page-advised host memory (vm_hostmem.h).  Anonymous
 * mappings come zeroed and are only given pages when touched, as calloc's
 * large blocks were; on Linux each is advised for transparent huge pages
 * (where the host's policy is "madvise", the default on Debian), aligned
 * to 2 MB so that whole huge pages fit it.  Elsewhere: calloc. */
#define _DEFAULT_SOURCE /* (MAP_ANONYMOUS, madvise) */
#include "vax/machine/vm_hostmem.h"

#include <stdint.h>
#include <stdlib.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#define HUGE_PAGE ((size_t)2 << 20)

#if defined(__linux__) && defined(MADV_HUGEPAGE)
/* The mapping behind p: n rounded up to whole huge pages. */
static size_t span(size_t n)
{
    return (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

void *vm_host_alloc(size_t n)
{
    size_t len = span(n);
    /* one huge page more, then the slack before the boundary and after
     * the end given back */
    char *raw = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    char *p = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    if (p + len < raw + len + HUGE_PAGE)
        munmap(p + len, (size_t)(raw + len + HUGE_PAGE - (p + len)));
    (void)madvise(p, len, MADV_HUGEPAGE); /* (advice: refused, it is 4 KB pages) */
    return p;
}

void vm_host_free(void *p, size_t n)
{
    if (p)
        munmap(p, span(n));
}
#else
void *vm_host_alloc(size_t n)
{
    return calloc(1, n);
}

void vm_host_free(void *p, size_t n)
{
    (void)n;
    free(p);
}
#endif
