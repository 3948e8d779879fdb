/* The RH780 MASSBUS adapter: an SBI nexus (type 0x20) with 8 drives.
 * Its 8 KB (4.3BSD's mba_regs, SIMH's vax7x0_mba.c): 0x000 internal
 * registers (configuration, control, status, virtual address, byte count,
 * diagnostic, selected map, command), 0x400 + 0x80 * drive the drives'
 * registers (32 longwords each, 16 bits of data; a read returns the
 * status register's upper half above them), 0x800 the 256 map registers
 * (valid bit 31, page frame <20:0>).  Longword references only; anything
 * else is an error confirmation.
 *
 * A data transfer: the driver loads the map, VA and the negative byte
 * count, then writes a drive's CS1 with a transfer function and GO; the
 * adapter goes busy, the drive moves the data through the data channel
 * when its timing says so (the map, then physical memory through the
 * machine's checked port), and ends it: DTCMP (with MBEXC and DTABT if
 * the drive reports an error; INVMAP, RDTIMO for a map or memory fault;
 * WCKUP/WCKLWR for a write-check mismatch).  Status changes that
 * interrupt (DTCMP, DTABT, ATTN, NED, PGE, ...) raise the nexus request at
 * IPL 0x15 when CR<IE> is set and no transfer is busy; the request drops
 * when the CPU takes it or IE is cleared. */
#ifndef VAX_IO_IO_MBA_H
#define VAX_IO_IO_MBA_H

#include "vax/io/io_bus.h"
#include "vax/io/io_massbus.h"
#include "vax/io/io_sbia.h"

#define IO_MBA_TYPE 0x20u
#define IO_MBA_IPL 0x15
#define IO_MBA_MAPS 256

/* status register bits (mbareg.h) */
#define IO_MBSR_DTBUSY 0x80000000u
#define IO_MBSR_PGE 0x00080000u
#define IO_MBSR_NED 0x00040000u
#define IO_MBSR_ATTN 0x00010000u
#define IO_MBSR_DTCMP 0x00002000u
#define IO_MBSR_DTABT 0x00001000u
#define IO_MBSR_WCKUP 0x00000400u
#define IO_MBSR_WCKLWR 0x00000200u
#define IO_MBSR_MBEXC 0x00000080u
#define IO_MBSR_INVMAP 0x00000010u
#define IO_MBSR_RDTIMO 0x00000001u
#define IO_MBCR_INIT 0x1u
#define IO_MBCR_ABORT 0x2u
#define IO_MBCR_IE 0x4u

struct io_mba {
    uint32_t cnf, cr, sr, va, bc, dr, smr;
    uint32_t map[IO_MBA_MAPS];
    const struct io_mb_drive_ops *ops[IO_MB_DRIVES];
    void *drv[IO_MB_DRIVES];
    struct io_mb_channel channel;          /* handed to the drives */
    const struct io_memory *mem;
    struct io_irq irq;                     /* the nexus request line */
    int irq_pending;
    uint64_t transfers, bytes;             /* statistics */
};

extern const struct io_nexus_ops io_mba_nexus_ops;

void io_mba_init(struct io_mba *a, const struct io_memory *mem, struct io_irq irq);
void io_mba_attach_drive(struct io_mba *a, unsigned n, const struct io_mb_drive_ops *ops,
                         void *drv);
/* Adapter init (CR<INIT>, power-up): registers and drives; the map stays. */
void io_mba_reset(struct io_mba *a);

#endif
