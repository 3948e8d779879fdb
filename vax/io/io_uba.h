/* The DW780 UNIBUS adapter: an SBI nexus (type 0x28 + n for UNIBUS
 * address space n) and a 256 KB window of UNIBUS address space in the
 * SBIA.  Registers (ubareg.h, SIMH's vax780_uba.c), longwords only:
 * 0x00 configuration (adapter code, UNIBUS init complete/power down),
 * 0x04 control (adapter init, UNIBUS power fail, the interrupt enables,
 * map register disable), 0x08 status (write one to clear: UNIBUS slave
 * sync timeout for a reference nobody answered, invalid map register,
 * read data timeout for DMA to non-existent memory, lost error), 0x0C
 * diagnostic, 0x10/0x14 failed map entry and UNIBUS address, 0x20-0x2C
 * BRSVR, 0x30-0x3C BRRVR (reading BRRVR n takes the highest-priority
 * request at BR n+4 and returns its vector, bit 31 for the adapter's own
 * interrupt, 0 if none), 0x40-0x7C the 16 data path registers (0 direct,
 * 1-15 buffered: reading shows the last UNIBUS address and direction,
 * writing BNE purges), 0x800-0xFBC the 496 map registers (valid, byte
 * offset, data path, page frame).
 *
 * The UNIBUS window: bytes and aligned words (DATI/DATO(B)); a longword
 * or odd word is an error confirmation.  A UNIBUS address nobody answers
 * sets UBASR<UBSSYNTO> and reads 0 -- not a machine check: 4.3BSD's
 * autoconfiguration probes about 30 addresses this way and skips a
 * device when UBASR is non-zero after its badaddr.  Interrupts: a device
 * source's request at BR4-BR7 raises the adapter's nexus request at IPL
 * 0x14-0x17 while CR<IFS> and CR<BRIE> are set; adapter errors (with
 * SUEFIE/USEFIE) and configuration changes (CNFIE) at BR5.  Adapter init
 * takes 50 us, the UNIBUS init after it 1 ms (CNF<UBIC> then). */
#ifndef VAX_IO_IO_UBA_H
#define VAX_IO_IO_UBA_H

#include "vax/io/io_sbia.h"
#include "vax/io/io_unibus.h"

#define IO_UBA_MAPS 496
#define IO_UBA_DEVICES 16
#define IO_UBA_SOURCES 32

#define IO_UBASR_UBSSYNTO 0x001u
#define IO_UBASR_LEB 0x004u
#define IO_UBASR_IVMR 0x010u
#define IO_UBASR_RDTO 0x400u
#define IO_UBACR_ADINIT 0x01u
#define IO_UBACR_CNFIE 0x04u
#define IO_UBACR_SUEFIE 0x08u
#define IO_UBACR_USEFIE 0x10u
#define IO_UBACR_BRIE 0x20u
#define IO_UBACR_IFS 0x40u
#define IO_UBACNF_UBIC 0x00010000u
#define IO_UBACNF_UBPDN 0x00020000u

struct io_uba_device {
    uint32_t lo, hi;                 /* UNIBUS addresses answered (lo <= ua < hi) */
    const struct io_unibus_dev_ops *ops;
    void *dev;
};

struct io_uba_source {
    int br;                          /* 4-7 */
    uint16_t vector;
    int pending;
};

struct io_uba {
    unsigned number;                 /* UNIBUS address space n: nexus type 0x28 + n */
    uint32_t cnf, cr, sr, dr, fmer, fubar, brsvr[4], dpr[16];
    uint32_t map[IO_UBA_MAPS];
    int adapter_int;                 /* the adapter's own request (BR5) */
    int aiip, uiip;                  /* adapter / UNIBUS init in progress */
    struct io_uba_device dev[IO_UBA_DEVICES];
    unsigned ndev;
    struct io_uba_source src[IO_UBA_SOURCES];
    unsigned nsrc;
    struct io_irq line[4];           /* nexus requests at IPL 0x14-0x17 */
    int line_on[4];
    struct io_timer timer;           /* init sequencing */
    struct io_unibus bus;            /* handed to the devices */
    const struct io_memory *mem;
    struct io_events *ev;
    uint64_t nxm_refs, dma_bytes;    /* statistics */
};

extern const struct io_nexus_ops io_uba_nexus_ops;     /* the registers */
extern const struct io_nexus_ops io_uba_unibus_ops;    /* the UNIBUS window */

/* lines: the SBIA slot's requests at IPL 0x14, 0x15, 0x16, 0x17. */
void io_uba_init(struct io_uba *u, unsigned number, struct io_events *ev,
                 const struct io_memory *mem, const struct io_irq lines[4]);
void io_uba_free(struct io_uba *u);
/* Power-up / adapter init, at once (no init sequence). */
void io_uba_reset(struct io_uba *u);
/* A device answering UNIBUS addresses [lo, hi).  0, or -1 if full. */
int io_uba_add_device(struct io_uba *u, uint32_t lo, uint32_t hi,
                      const struct io_unibus_dev_ops *ops, void *dev);
/* An interrupt source at BR br (4-7) with its vector; its number, or -1. */
int io_uba_source(struct io_uba *u, int br, uint16_t vector);

#endif
