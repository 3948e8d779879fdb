/* The host's memory for the machine's large, hot blocks: zeroed, aligned
 * to a huge page, offered to transparent huge pages (vm_hostmem.h). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, madvise with -std=c17 */
#include "vax/machine/vm_hostmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#ifndef VM_HOSTMEM_PLAIN
static size_t rounded(size_t n)
{
    return (n + VM_HOSTMEM_ALIGN - 1) & ~(VM_HOSTMEM_ALIGN - 1);
}
#endif

void *vm_hostmem_alloc(size_t n)
{
    if (n == 0 || n > SIZE_MAX / 2)
        return NULL;
#ifdef VM_HOSTMEM_PLAIN
    return calloc(1, n);
#else
    size_t size = rounded(n), span = size + VM_HOSTMEM_ALIGN;
    void *m = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    /* the aligned block inside the span; the rest goes back */
    uintptr_t base = (uintptr_t)m;
    uintptr_t p = (base + VM_HOSTMEM_ALIGN - 1) & ~(uintptr_t)(VM_HOSTMEM_ALIGN - 1);
    size_t head = p - base, tail = span - head - size;
    if (head)
        munmap(m, head);
    if (tail)
        munmap((void *)(p + size), tail);
#ifdef MADV_HUGEPAGE
    (void)madvise((void *)p, size, MADV_HUGEPAGE); /* (advice: may be refused) */
#endif
    return (void *)p;
#endif
}

void vm_hostmem_free(void *p, size_t n)
{
    if (!p)
        return;
#ifdef VM_HOSTMEM_PLAIN
    (void)n;
    free(p);
#else
    munmap(p, rounded(n));
#endif
}
