/* The machine's lifecycle and run loop (vm_machine.c); its calls in
 * vm.h: vm_new, vm_free, vm_run, vm_step_instruction, the registers' and
 * counters' accessors. */
#ifndef VAX_MACHINE_VM_MACHINE_H
#define VAX_MACHINE_VM_MACHINE_H

#include <stdint.h>

#include "vax/machine/vm.h"

/* vm_run without the lock-step check: continue after a cycle limit,
 * start at R15 the first time (the console's START: an IRD with no
 * instruction counted), then the microcycle loop until the machine stops
 * or max_cycles microcycles have passed in total (0: no limit). */
enum vm_stop vm_run_plain(struct vax_machine *m, uint64_t max_cycles);

#endif
