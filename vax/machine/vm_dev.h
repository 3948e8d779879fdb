/* The IPR port, the devices behind it and the interrupt request logic
 * (vm_dev.c; MICROARCHITECTURE.md §5, §10): the interval clock, TODR, the
 * console terminal, SIRR/SISR, the 8600's registers; the network device
 * (vm_net.c) and the 8600's I/O (vm_io.c) join the request logic here. */
#ifndef VAX_MACHINE_VM_DEV_H
#define VAX_MACHINE_VM_DEV_H

#include <stddef.h>
#include <stdint.h>

struct vax_machine;

/* The IPR port (MISC IPRRD/IPRWR, the IPR source): the register numbered
 * n, setting IPR.BAD for a number that does not exist. */
uint32_t vm_ipr_read(struct vax_machine *m, uint32_t n);
void vm_ipr_write(struct vax_machine *m, uint32_t n, uint32_t v);
/* The highest request above the current IPL: its IPL (0: none) and its
 * SCB vector offset in *vec.  It runs the devices' pending events. */
int vm_int_eval(struct vax_machine *m, uint32_t *vec);
/* The earliest microcycle at which a device could raise a request by
 * itself (IRD's interrupt check is skipped until then). */
uint64_t vm_dev_next_event(const struct vax_machine *m);
/* INTACK: the microcode has taken the request vm_int_eval names. */
void vm_int_ack(struct vax_machine *m);
/* Power-up: the console terminal ready, TODR, the I/O (vm_io_setup). */
void vm_dev_reset(struct vax_machine *m);
/* A character arrives in the console receiver (RXDB): a console script
 * typing it. */
void vm_console_receive(struct vax_machine *m, uint8_t c);

/* The host's side (vm_host.c's vm_ipr, vm_set_ipr, vm_console_input): an
 * IPR read and written as the console does, SPAM's private ones without
 * the gate; the console terminal's input (scripted: buf, n; the buffer
 * must outlive the run). */
uint32_t vm_dev_host_ipr_read(struct vax_machine *m, int n);
void vm_dev_host_ipr_write(struct vax_machine *m, int n, uint32_t v);
void vm_dev_console_input(struct vax_machine *m, const void *buf, size_t n);

#endif
