/* The machine's side of the 8600's I/O (vm_io.c; private to
 * vax/machine): memory's adapter port (physical references to adapter
 * space), the memory port DMA uses, interrupts and events into the
 * request logic, and the state of the scripted users on the I/O's event
 * queue (vm_users.c).  The I/O hardware itself is vax/io.  Its calls in
 * vm.h: vm_attach, vm_io_system, vm_ether_start, vm_io_get_stats. */
#ifndef VAX_MACHINE_VM_IO_H
#define VAX_MACHINE_VM_IO_H

#include "vax/io/io_script.h"
#include "vax/io/io_system.h"
#include "vax/machine/vm_internal.h"

/* Microcycles an I/O register reference keeps the E-box waiting: the
 * A-bus, the SBIA and the SBI, about a microsecond. */
#define VM_IO_REF_CYCLES 12

struct vm_io {
    struct io_system *sys;
    /* the scripted users (vm_users.c): the console's (--console-script) */
    struct io_script con_script;
    struct io_term_user con_user;
    int con_user_on;
    /* ... and those on dz0's lines */
    struct vm_dz_port {
        struct vax_machine *m;
        unsigned line;
    } dz_port[IO_DZ_LINES];             /* a user's typing context */
    struct io_script dz_script[IO_DZ_LINES];
    struct io_term_user dz_user[IO_DZ_LINES];
    int dz_user_on[IO_DZ_LINES];
    void *dz_log[IO_DZ_LINES];          /* FILE *: what the line printed */
    int dz_log_failed[IO_DZ_LINES];
    /* statistics */
    uint64_t refs, dma_reads, dma_writes, dma_bytes, dma_invalidated;
};

/* Power-up (from vm_dev_reset): the I/O system, the DMA port, memory's
 * adapter port; and its end. */
void vm_io_setup(struct vax_machine *m);
void vm_io_free(struct vax_machine *m);
/* The request logic's view (vm_dev.c). */
void vm_io_update(struct vax_machine *m);       /* run the events due */
uint64_t vm_io_next_event(const struct vax_machine *m);
int vm_io_int_eval(const struct vax_machine *m, uint32_t *vec);
void vm_io_int_ack(struct vax_machine *m, int ipl);
/* The console terminal printed c (its script watches). */
void vm_io_console_output(struct vax_machine *m, uint8_t c);
/* The host's side (vm_host.c's vm_attach, vm_ether_start): a medium
 * attached to a drive, the DEUNA connected to the network outside. */
int vm_io_attach(struct vax_machine *m, const char *dev, const char *path, int readonly,
                 char *err, size_t errlen);
/* For the lock-step check (vm_tcache_check.c): the first drive whose
 * medium holds other bytes in machine b than in a, named for its reason
 * ("rp0's medium"), or NULL. */
const char *vm_io_media_differ(const struct vax_machine *a, const struct vax_machine *b);
int vm_io_ether_start(struct vax_machine *m, const struct io_netsrc_config *c,
                      io_netsrc_tap_fn tap, void *tap_ctx, char *err, size_t errlen);

#endif
