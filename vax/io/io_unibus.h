/* The UNIBUS between a DW780 adapter (io_uba.c) and its devices
 * (io_dz.c, later the DEUNA): word registers in the I/O page, interrupt
 * requests at BR4-BR7 with a vector, and DMA through the adapter's map. */
#ifndef VAX_IO_IO_UNIBUS_H
#define VAX_IO_IO_UNIBUS_H

#include "vax/io/io_bus.h"

#define IO_UNIBUS_IOPAGE 0760000u   /* the I/O page: 0760000-0777777 */

struct io_unibus_dev_ops {
    /* ua: the 18-bit UNIBUS address of the word (even); a DATI returns the
     * word, IO_TIMEOUT if the device does not answer at ua */
    enum io_status (*read)(void *dev, uint32_t ua, uint16_t *val);
    /* a DATO (width 2) or DATOB (width 1, ua odd for the high byte) */
    enum io_status (*write)(void *dev, uint32_t ua, int width, uint16_t val);
    void (*init)(void *dev);     /* UNIBUS INIT */
};

/* The adapter as a device sees it. */
struct io_unibus {
    void *uba;
    struct io_events *ev;
    /* a source's request flip-flop (source numbers from io_uba_source) */
    void (*request)(void *uba, unsigned source, int on);
    /* DMA through the adapter's map; each returns the bytes done (fewer
     * when a map entry was invalid or memory non-existent: the adapter
     * records the error, the device reports its own) */
    uint32_t (*dma_read)(void *uba, uint32_t ua, uint8_t *buf, uint32_t n);
    uint32_t (*dma_write)(void *uba, uint32_t ua, const uint8_t *buf, uint32_t n);
};

#endif
