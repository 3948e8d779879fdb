/* The SBIA: the 8600's A-bus to SBI adapter.  Its 32 MB A-bus window
 * (offsets from the adapter's base, 0x20000000 + n * 0x2000000):
 *
 *   0x000000-0x01FFFF  SBI nexus space: 16 slots ("TR" 0-15) of 8 KB
 *   0x080000-0x0800BF  the SBIA's own registers (4.3BSD's sbia_regs)
 *   0x100000-0x1FFFFF  UNIBUS address space of UNIBUS adapters 0-3,
 *                      256 KB each, answered by the adapter of that number
 *
 * Anything else, an empty slot, or a slot that does not answer, is an SBI
 * timeout: SBIER<TMO> and the timeout address latch, and the A-bus turns
 * it into a machine check (read) or the write-timeout interrupt (write).
 * Registers (SIMH's 8600 model and 4.3BSD's autoconf.c): CNF reads
 * 0x00400010 (A-bus adapter type 1 in <7:4>: an SBIA); CSR <31:29>;
 * error summary, SBIER (W1C error bits, writing TMO clears the timeout
 * group), timeout address, fault status, silo comparator, maintenance,
 * the interrupt vector registers; the DMA registers read as zero.
 *
 * Interrupts: each slot has request lines at IPL 0x14-0x17 (levels, held
 * by the device); the SBIA presents the highest, lowest slot first, with
 * the vector 0x100 + (IPL - 0x14) * 0x40 + 4 * TR + 0x200 * n, page n of
 * the SCB for SBI n.  When the CPU takes a request the slot's device is
 * told (int_ack), so an edge-style device (the MBA) can drop its line. */
#ifndef VAX_IO_IO_SBIA_H
#define VAX_IO_IO_SBIA_H

#include "vax/io/io_bus.h"

#define IO_SBIA_SLOTS 16
#define IO_SBIA_NEXUS_SIZE 0x2000u
#define IO_SBIA_REGS 0x80000u
#define IO_SBIA_UNIBUS 0x100000u
#define IO_SBIA_UNIBUS_SIZE 0x40000u
#define IO_NEXUS_IPL_MIN 0x14
#define IO_NEXUS_IPL_MAX 0x17

/* SBIER bits */
#define IO_SBIER_CRDIE 0x00008000u
#define IO_SBIER_TMO 0x00001000u
#define IO_SBIER_STA 0x00000C00u
#define IO_SBIER_CNF 0x00000100u
#define IO_SBIER_MULT 0x00000004u

/* What a nexus (an adapter in an SBI slot) answers. */
struct io_nexus_ops {
    /* off: the offset in the slot's 8 KB (or in the UNIBUS window); width
     * 1, 2 or 4 (the CPU's reference may be unaligned). */
    enum io_status (*read)(void *dev, uint32_t off, int width, uint32_t *val);
    enum io_status (*write)(void *dev, uint32_t off, int width, uint32_t val);
    void (*int_ack)(void *dev, int ipl);   /* the CPU took this slot's request */
};

struct io_sbia;

struct io_sbia_line {
    struct io_sbia *s;
    uint8_t tr, lvl;
};

struct io_sbia {
    unsigned number;                        /* SBI n: SCB page n */
    const struct io_nexus_ops *ops[IO_SBIA_SLOTS];
    void *dev[IO_SBIA_SLOTS];
    const struct io_nexus_ops *ub_ops[4];   /* UNIBUS windows 0-3 */
    void *ub_dev[4];
    uint16_t req[4];                        /* request lines: [IPL - 0x14] bit TR */
    struct io_sbia_line lines[IO_SBIA_SLOTS][4];
    uint32_t csr, errsum, dctl, er, timo, fs, sc, mt, iv[15];
    int *wake;                              /* a rising request wakes the CPU's check */
    uint64_t timeouts;                      /* statistics */
};

void io_sbia_init(struct io_sbia *s, unsigned number);
void io_sbia_reset(struct io_sbia *s);
/* Plugs a nexus into slot tr. */
void io_sbia_plug(struct io_sbia *s, unsigned tr, const struct io_nexus_ops *ops, void *dev);
/* Gives UNIBUS window n (0-3) to a UNIBUS adapter. */
void io_sbia_plug_unibus(struct io_sbia *s, unsigned n, const struct io_nexus_ops *ops, void *dev);
/* The request line of slot tr at an IPL 0x14-0x17. */
struct io_irq io_sbia_line(struct io_sbia *s, unsigned tr, int ipl);

/* An A-bus reference at offset off of the adapter's window. */
enum io_status io_sbia_read(struct io_sbia *s, uint32_t off, int width, uint32_t *val);
enum io_status io_sbia_write(struct io_sbia *s, uint32_t off, int width, uint32_t val);

/* The highest request (IPL, 0 if none) and its SCB vector. */
int io_sbia_int_eval(const struct io_sbia *s, uint32_t *vec);
/* The CPU took the request at ipl: the slot io_sbia_int_eval named. */
void io_sbia_int_ack(struct io_sbia *s, int ipl);

#endif
