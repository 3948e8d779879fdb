/* The machine's side of the 8600's I/O (vm_io.h): the CPU's references
 * to adapter space go to the A-bus uncached (memory's adapter port,
 * vm_mem.h), DMA reaches the memory array through a port that checks the
 * PAMM and keeps the cache coherent, and the adapters' requests and the
 * devices' events join the request logic (vm_dev.c).  The scripted users
 * (vm_users.c) run on the same event queue. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vax/io/io_media.h"
#include "vax/machine/vm_io.h"
#include "vax/machine/vm_mem_fast.h"

/* ---- DMA: the memory port ---- */

static int dma_read(void *ctx, uint32_t pa, void *buf, uint32_t n)
{
    struct vax_machine *m = ctx;
    if (!vm_dma_present(m, pa, n))
        return -1;
    memcpy(buf, m->mem + pa, n);
    m->io->dma_reads++;
    m->io->dma_bytes += n;
    return 0;
}

static int dma_write(void *ctx, uint32_t pa, const void *buf, uint32_t n)
{
    struct vax_machine *m = ctx;
    if (!vm_dma_present(m, pa, n))
        return -1;
    memcpy(m->mem + pa, buf, n);
    m->io->dma_writes++;
    m->io->dma_bytes += n;
    m->io->dma_invalidated += vm_dma_wrote(m, pa, n);
    return 0;
}

/* ---- CPU references: memory's adapter port (vm_mem.h) ---- */

static void charge(struct vax_machine *m)
{
    m->st.microcycles += VM_IO_REF_CYCLES;
    m->st.stall_cycles += VM_IO_REF_CYCLES;
    m->io->refs++;
    m->int_dirty = 1; /* a register access may change a request */
    io_events_run(&m->io->sys->ev); /* the device's state as of now */
}

static int abus_read(struct vax_machine *m, uint32_t pa, unsigned n, uint64_t *out)
{
    charge(m);
    unsigned slot = m->pamm[(pa >> 20) & 0x3FF] - 0x18u;
    enum io_status st;
    uint32_t lo = 0, hi = 0;
    if (n == 1 || n == 2 || n == 4) {
        st = io_abus_read(&m->io->sys->abus, slot, pa, (int)n, &lo);
    } else if (n == 8 && !(pa & 7)) { /* a quadword: two longword cycles */
        st = io_abus_read(&m->io->sys->abus, slot, pa, 4, &lo);
        if (st == IO_OK)
            st = io_abus_read(&m->io->sys->abus, slot, pa + 4, 4, &hi);
    } else {
        st = IO_ERRCONF;
    }
    if (st != IO_OK) {
        vm_machine_check(m, pa, 0);
        return -1;
    }
    *out = (uint64_t)hi << 32 | lo;
    return 0;
}

static int abus_write(struct vax_machine *m, uint32_t pa, unsigned n, uint64_t v)
{
    charge(m);
    unsigned slot = m->pamm[(pa >> 20) & 0x3FF] - 0x18u;
    enum io_status st;
    if (n == 1 || n == 2 || n == 4) {
        st = io_abus_write(&m->io->sys->abus, slot, pa, (int)n, (uint32_t)v);
    } else if (n == 8 && !(pa & 7)) {
        st = io_abus_write(&m->io->sys->abus, slot, pa, 4, (uint32_t)v);
        if (st == IO_OK)
            st = io_abus_write(&m->io->sys->abus, slot, pa + 4, 4, (uint32_t)(v >> 32));
    } else {
        st = IO_ERRCONF;
    }
    if (st == IO_ERRCONF) {
        vm_machine_check(m, pa, 1);
        return -1;
    }
    return 0; /* a timeout is the write-timeout interrupt, later */
}

/* ---- set up ---- */

void vm_io_setup(struct vax_machine *m)
{
    if (m->io) {
        io_system_reset(m->io->sys);
        return;
    }
    struct vm_io *io = calloc(1, sizeof *io);
    if (!io)
        return; /* no I/O: every reference to adapter space machine-checks */
    struct io_memory mem = {.ctx = m, .read = dma_read, .write = dma_write};
    struct io_config cfg = {.dz = 1, .dz_br = m->dz_br};
    io->sys = io_system_new(&m->st.microcycles, &m->int_dirty, &mem, &cfg);
    if (!io->sys) {
        free(io);
        return;
    }
    m->io = io;
    m->abus = (struct vm_abus_port){.read = abus_read, .write = abus_write};
}

void vm_io_free(struct vax_machine *m)
{
    if (!m->io)
        return;
    io_system_free(m->io->sys);
    free(m->io);
    m->io = NULL;
}

/* ---- events and interrupts ---- */

void vm_io_update(struct vax_machine *m)
{
    if (!m->io)
        return;
    io_events_run(&m->io->sys->ev);
    if (m->io->sys->stop_requested && !m->stop) {
        m->stop = VM_STOPPED;
        snprintf(m->reason, sizeof m->reason, "%.159s", m->io->sys->stop_reason);
    }
}

uint64_t vm_io_next_event(const struct vax_machine *m)
{
    return m->io ? io_events_next(&m->io->sys->ev) : UINT64_MAX;
}

int vm_io_int_eval(const struct vax_machine *m, uint32_t *vec)
{
    if (!m->io) {
        *vec = 0;
        return 0;
    }
    return io_abus_int_eval(&m->io->sys->abus, vec);
}

void vm_io_int_ack(struct vax_machine *m, int ipl)
{
    if (m->io)
        io_abus_int_ack(&m->io->sys->abus, ipl);
}

/* ---- the console's host side ---- */

void vm_io_console_output(struct vax_machine *m, uint8_t c)
{
    if (m->io && m->io->con_user_on)
        io_term_user_output(&m->io->con_user, c);
}

/* ---- attaching media ---- */

int vm_io_attach(struct vax_machine *m, const char *dev, const char *path, int readonly,
                 char *err, size_t errlen)
{
    if (!m->io) {
        snprintf(err, errlen, "the machine has no I/O system");
        return -1;
    }
    return io_system_attach(m->io->sys, dev, path, readonly, err, errlen);
}

struct io_system *vm_io_system(struct vax_machine *m) { return m->io ? m->io->sys : NULL; }

/* Whether two drives' media differ: one attached and the other not, or
 * other bytes (or a host read error). */
static int media_differ(int fa, int fb)
{
    return (fa < 0) != (fb < 0) || (fa >= 0 && io_media_same(fa, fb) != 1);
}

const char *vm_io_media_differ(const struct vax_machine *a, const struct vax_machine *b)
{
    static const char *const rp[] = {"rp0's medium", "rp1's medium", "rp2's medium",
                                     "rp3's medium"};
    static const char *const tu[] = {"tu0's medium", "tu1's medium", "tu2's medium",
                                     "tu3's medium", "tu4's medium", "tu5's medium",
                                     "tu6's medium", "tu7's medium"};
    _Static_assert(IO_RP_UNITS == 4 && IO_TM03_SLAVES == 8, "the drives' names");
    if (!a->io || !b->io)
        return NULL;
    const struct io_system *x = a->io->sys, *y = b->io->sys;
    for (unsigned u = 0; u < IO_RP_UNITS; u++)
        if (media_differ(x->rp[u].disk.fd, y->rp[u].disk.fd))
            return rp[u];
    for (unsigned u = 0; u < IO_TM03_SLAVES; u++)
        if (media_differ(x->tm03.slave[u].tape.fd, y->tm03.slave[u].tape.fd))
            return tu[u];
    return NULL;
}

int vm_io_ether_start(struct vax_machine *m, const struct io_netsrc_config *c,
                      io_netsrc_tap_fn tap, void *tap_ctx, char *err, size_t errlen)
{
    if (!m->io) {
        snprintf(err, errlen, "the machine has no I/O system");
        return -1;
    }
    return io_system_net_start(m->io->sys, c, tap, tap_ctx, err, errlen);
}

void vm_io_get_stats(const struct vax_machine *m, struct vm_io_stats *s)
{
    memset(s, 0, sizeof *s);
    if (!m->io)
        return;
    const struct io_system *sys = m->io->sys;
    s->refs = m->io->refs;
    s->dma_bytes = m->io->dma_bytes;
    s->dma_invalidated = m->io->dma_invalidated;
    s->events = sys->ev.fired;
    for (unsigned u = 0; u < IO_RP_UNITS; u++) {
        s->disk_sectors_read += sys->rp[u].sectors_read;
        s->disk_sectors_written += sys->rp[u].sectors_written;
    }
    s->tape_records_read = sys->tm03.records_read;
    s->tape_records_written = sys->tm03.records_written;
    for (unsigned i = 0; i < IO_ABUS_SLOTS; i++)
        if (sys->abus.slot[i])
            s->sbi_timeouts += sys->abus.slot[i]->timeouts;
    s->unibus_nxm = sys->uba.nxm_refs;
}
