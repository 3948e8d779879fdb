/* Scripted users (vm_users.c): the host side of the console terminal and
 * of dz0's eight lines (vm.h: vm_console_script, vm_dz_script, vm_dz_log
 * and their states). */
#ifndef VAX_MACHINE_VM_USERS_H
#define VAX_MACHINE_VM_USERS_H

#include <stddef.h>
#include <stdint.h>

struct vax_machine;

/* After the I/O's power-up (vm_io_setup): dz0's output goes to its lines'
 * users and logs. */
void vm_users_setup(struct vax_machine *m);
/* Before the I/O goes (vm_io_free): the users and their scripts. */
void vm_users_free(struct vax_machine *m);
/* The host's side (vm_host.c's vm_console_script, vm_dz_script): a
 * user starts, as vm.h says. */
int vm_users_console_script(struct vax_machine *m, const char *text, size_t len,
                            const char *name, double timeout_s, char *err, size_t errlen);
int vm_users_dz_script(struct vax_machine *m, unsigned line, const char *text, size_t len,
                       const char *name, double timeout_s, uint64_t seed, char *err,
                       size_t errlen);

#endif
