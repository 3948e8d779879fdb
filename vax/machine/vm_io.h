/* The machine's side of the 8600's I/O (private to vax/machine): physical
 * references to adapter space, the memory port DMA uses, interrupts and
 * events into the request logic, the console's host side (scripts).
 * The I/O hardware itself is vax/io. */
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
    struct io_script con_script;        /* --console-script */
    struct io_term_user con_user;
    int con_user_on;
    /* scripted users on dz0's lines (vm_dzusers.c) */
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

/* Is pa (30 bits) in an I/O adapter's window (PAMM code 0x18-0x1B)? */
static inline int vm_io_space(const struct vax_machine *m, uint32_t pa)
{
    uint8_t c = m->pamm[(pa >> 20) & 0x3FF];
    return c >= 0x18 && c <= 0x1B;
}

/* A CPU reference of n bytes at pa in I/O space: 0, or -1 after the
 * machine check (vm_machine_check) it caused. */
int vm_io_read_ref(struct vax_machine *m, uint32_t pa, unsigned n, uint64_t *out);
int vm_io_write_ref(struct vax_machine *m, uint32_t pa, unsigned n, uint64_t v);

/* The request logic's view (vm_dev.c). */
void vm_io_setup(struct vax_machine *m);        /* at power-up */
void vm_io_free(struct vax_machine *m);
void vm_io_update(struct vax_machine *m);       /* run the events due */
uint64_t vm_io_next_event(const struct vax_machine *m);
int vm_io_int_eval(const struct vax_machine *m, uint32_t *vec);
void vm_io_int_ack(struct vax_machine *m, int ipl);
/* The console terminal printed c (its script watches). */
void vm_io_console_output(struct vax_machine *m, uint8_t c);
/* vm_dzusers.c: dz0's output to its lines' users and logs (installed at
 * power-up); the users' teardown. */
void vm_dz_users_setup(struct vax_machine *m);
void vm_dz_users_free(struct vax_machine *m);
/* A scripted user, the console's or a DZ11 line's: checks the expect
 * timeout, parses the script into *s and starts *u on the machine's event
 * queue with cfg (its timeout and stop filled in here).  0, or -1 with a
 * message (nothing is left allocated). */
int vm_io_user_start(struct vax_machine *m, struct io_script *s, struct io_term_user *u,
                     const char *text, size_t len, const char *name, double timeout_s,
                     struct io_user_cfg *cfg, char *err, size_t errlen);
/* A started user's state, its failure message and the script line it is at. */
enum vm_script_state vm_io_user_state(const struct io_term_user *u, const char **msg,
                                      unsigned *line);

#endif
