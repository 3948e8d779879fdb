/* The small bus interface every adapter and device is written against
 * (vax/io/README.md): register accesses with their width and an outcome,
 * DMA into physical memory through a host-supplied port that checks every
 * address, and interrupt request lines as callbacks.  Nothing in vax/io
 * reaches into the sequencer: the machine (vax/machine/vm_io.c) supplies
 * the memory port and asks the A-bus for requests. */
#ifndef VAX_IO_IO_BUS_H
#define VAX_IO_IO_BUS_H

#include <stddef.h>
#include <stdint.h>

#include "vax/io/io_events.h"

/* The outcome of a register access. */
enum io_status {
    IO_OK = 0,
    IO_TIMEOUT = 1,  /* nobody answered: a read machine-checks, a write
                      * raises the write-timeout interrupt */
    IO_ERRCONF = 2,  /* the target answered with an error confirmation
                      * (a width it does not take): a machine check */
};

/* Physical memory as DMA sees it.  Each call returns 0, or -1 when any
 * byte of the range is non-existent memory (the PAMM says so); then
 * nothing was transferred and the device reports its own error.  A write
 * keeps the cache coherent and tells the machine code may have changed. */
struct io_memory {
    void *ctx;
    int (*read)(void *ctx, uint32_t pa, void *buf, uint32_t n);
    int (*write)(void *ctx, uint32_t pa, const void *buf, uint32_t n);
};

/* An interrupt request line: set(ctx, on).  The receiver (an SBIA slot,
 * a UNIBUS adapter source) knows its level and vector. */
struct io_irq {
    void (*set)(void *ctx, int on);
    void *ctx;
};

static inline void io_irq_set(const struct io_irq *l, int on)
{
    if (l->set)
        l->set(l->ctx, on);
}

/* Merges a byte or word write into a 16-bit register image: registers on
 * the UNIBUS and MASSBUS are words; a byte write at an odd address
 * changes the high byte only. */
static inline uint16_t io_merge16(uint16_t old, uint32_t addr, int width, uint32_t v)
{
    if (width == 1)
        return (addr & 1) ? (uint16_t)((old & 0x00FF) | (v & 0xFF) << 8)
                          : (uint16_t)((old & 0xFF00) | (v & 0xFF));
    return (uint16_t)v;
}

#endif
