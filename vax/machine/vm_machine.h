/* The machine's lifecycle and run loop (vm_machine.c); its calls in
 * vm.h: vm_step_instruction, the registers' and counters' accessors
 * (vm_reg, vm_psl, vm_halted, vm_stop_reason, vm_get_stats,
 * vm_set_utrace).  vm_new, vm_free and vm_run are vm_host.c's, on these. */
#ifndef VAX_MACHINE_VM_MACHINE_H
#define VAX_MACHINE_VM_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "vax/machine/vm.h"

/* A machine at power-up as cfg says (its lock-step check aside: vm_new
 * attaches that), or NULL with a message. */
struct vax_machine *vm_machine_new(const struct vm_config *cfg, char *err, size_t errlen);
void vm_machine_free(struct vax_machine *m);
/* The PSL as the console sets it (the memos emptied, the request logic
 * looked at again). */
void vm_machine_set_psl(struct vax_machine *m, uint32_t v);
/* vm_run without the lock-step check: continue after a cycle limit,
 * start at R15 the first time (the console's START: an IRD with no
 * instruction counted), then the microcycle loop until the machine stops
 * or max_cycles microcycles have passed in total (0: no limit). */
enum vm_stop vm_run_plain(struct vax_machine *m, uint64_t max_cycles);

#endif
