/* The trace cache's executor (vm_tcache_exec.c; vm_tcache.h): the
 * engine the sequencer calls at its IRD points (vm_interp.h), and the
 * handlers the builder binds the uops to. */
#ifndef VAX_MACHINE_VM_TCACHE_EXEC_H
#define VAX_MACHINE_VM_TCACHE_EXEC_H

#include <stdint.h>

struct vax_machine;

/* The IRD point with the trace cache on: the machine's engine
 * (vm_interp.h: its arguments, IRDP_*). */
int vm_tc_run(struct vax_machine *m, uint64_t limit, int mapen, int snapped,
              unsigned *upc);
/* The executor's handler for each uop code (NULL entries: a switch). */
const void *const *vm_tc_handlers(void);

#endif
