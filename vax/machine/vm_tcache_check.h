/* The trace cache's lock-step check (vm_tcache_check.c): a second
 * machine running the plain interpreter beside this one, compared at
 * every instruction. */
#ifndef VAX_MACHINE_VM_TCACHE_CHECK_H
#define VAX_MACHINE_VM_TCACHE_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "vax/machine/vm.h"

/* Makes m's second machine (cfg without the trace cache).  0, or -1 with
 * a message (vm_check_detach then frees what was made). */
int vm_check_attach(struct vax_machine *m, const struct vm_config *cfg, char *err,
                    size_t errlen);
void vm_check_detach(struct vax_machine *m);
/* The second machine, to which the host's calls go too (vm_host.c);
 * NULL: m is not checked. */
struct vax_machine *vm_check_twin(const struct vax_machine *m);
/* A host read that gave the two machines different answers. */
void vm_check_note(struct vax_machine *m, const char *what);
/* vm_run for a checked machine: both step an instruction at a time and
 * are compared; the first difference stops m with a reason naming it. */
enum vm_stop vm_check_run(struct vax_machine *m, uint64_t max_cycles);

#endif
