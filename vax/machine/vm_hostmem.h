/* The host's memory for the machine's large, hot blocks (the machine
 * itself, the guest's memory array, the trace cache's arena): zeroed,
 * aligned to a huge page and offered to the host's transparent huge
 * pages, so that the host's data TLB covers them (vm_hostmem.c). */
#ifndef VM_HOSTMEM_H
#define VM_HOSTMEM_H

#include <stddef.h>

/* defined under AddressSanitizer, where a block is a plain calloc (not
 * aligned), so that its overruns are still caught */
#if defined(__SANITIZE_ADDRESS__)
#define VM_HOSTMEM_PLAIN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VM_HOSTMEM_PLAIN 1
#endif
#endif

/* the host's huge page (x86-64's 2 MB); a block is rounded up to it */
#define VM_HOSTMEM_ALIGN ((size_t)2 << 20)

/* n zeroed bytes (pages are made as they are first touched) at an
 * address aligned to VM_HOSTMEM_ALIGN, or NULL.  Speed only: where the
 * host has no huge pages they are ordinary pages (and where
 * VM_HOSTMEM_PLAIN, a calloc). */
void *vm_hostmem_alloc(size_t n);
/* releases block p of n bytes from vm_hostmem_alloc (NULL: nothing) */
void vm_hostmem_free(void *p, size_t n);

#endif
