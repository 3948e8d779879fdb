/* The 8600's A-bus: two I/O adapter slots, each a 32 MB window of
 * physical address space at 0x20000000 + n * 0x2000000 (the PAMM names
 * adapter n with code 0x18 + n; codes 0x1A and 0x1B, and an empty slot,
 * have nobody behind them).  A read nobody answers is a machine check
 * (4.3BSD's badaddr relies on it when it probes the adapters); a write
 * nobody answers sets the write-timeout flip-flop, an interrupt at IPL
 * 0x1D through SCB 0x60 (SIMH's 8600 does the same; 4.3BSD's "wtime").
 * Interrupts: the adapters' requests, highest IPL first, adapter 0
 * before adapter 1 at the same IPL. */
#ifndef VAX_IO_IO_ABUS_H
#define VAX_IO_IO_ABUS_H

#include "vax/io/io_sbia.h"

#define IO_ABUS_SLOTS 2
#define IO_ABUS_BASE 0x20000000u
#define IO_ABUS_WINDOW 0x2000000u
#define IO_WTMO_IPL 0x1D
#define IO_WTMO_VECTOR 0x60u

struct io_abus {
    struct io_sbia *slot[IO_ABUS_SLOTS];   /* NULL: empty */
    int wtmo;                              /* write-timeout request */
    uint32_t wtmo_pa;                      /* address of the first one */
    int *wake;                             /* the write timeout wakes the CPU's check */
};

void io_abus_init(struct io_abus *a);
/* A reference at physical pa (already known to be in A-bus space:
 * slot = PAMM code - 0x18). */
enum io_status io_abus_read(struct io_abus *a, unsigned slot, uint32_t pa, int width,
                            uint32_t *val);
enum io_status io_abus_write(struct io_abus *a, unsigned slot, uint32_t pa, int width,
                             uint32_t val);
int io_abus_int_eval(const struct io_abus *a, uint32_t *vec);
void io_abus_int_ack(struct io_abus *a, int ipl);

#endif
