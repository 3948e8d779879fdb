/* Zeroed host memory for the machine's large arrays (the guest's memory,
 * the trace cache's arena), in regions the host kernel may back with
 * 2 MB pages: EVKAA's traces and data span some 1,500 4 KB pages, more
 * than the host's TLB holds. */
#ifndef VAX_MACHINE_VM_HOSTMEM_H
#define VAX_MACHINE_VM_HOSTMEM_H

#include <stddef.h>

/* n bytes, zeroed, at a 64-byte boundary at least; NULL when the host has
 * no memory.  Freed by vm_host_free with the same n. */
void *vm_host_alloc(size_t n);
void vm_host_free(void *p, size_t n);

#endif
