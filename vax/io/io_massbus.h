/* The MASSBUS between an RH780 adapter (io_mba.c) and its drives
 * (io_rp.c, io_tm03.c): the drive's registers (16 bits, numbered 0-31),
 * its attention line, and the data channel a transfer uses.  Register 4
 * (attention summary) belongs to the bus: the adapter answers it from
 * every drive's attention line. */
#ifndef VAX_IO_IO_MASSBUS_H
#define VAX_IO_IO_MASSBUS_H

#include <stdint.h>

#include "vax/io/io_events.h"

#define IO_MB_AS 4        /* attention summary register */
#define IO_MB_DRIVES 8

/* A drive's answer to a register write. */
enum io_mb_result {
    IO_MB_OK = 0,
    IO_MB_XFER,          /* a data transfer command started: the adapter is busy */
    IO_MB_GOERR,         /* the command was refused (the drive set its error) */
};

struct io_mb_drive_ops {
    /* reg 0-31 except 4; an unknown register sets the drive's ILR error */
    uint16_t (*read)(void *drv, unsigned reg);
    enum io_mb_result (*write)(void *drv, unsigned reg, uint16_t v);
    int (*ata)(void *drv);                 /* the attention line */
    void (*clear_ata)(void *drv);          /* AS written with the drive's bit */
    void (*init)(void *drv);               /* MASSBUS INIT (adapter init/abort) */
};

/* The data channel of the adapter, as the drive sees it. */
struct io_mb_channel {
    void *mba;
    /* bytes the adapter wants moved (its byte count register) */
    uint32_t (*count)(void *mba);
    /* move n bytes: into memory (a read), out of memory (a write), or
     * compare with memory (write check); each returns the bytes done --
     * fewer when the map or memory failed, which the adapter records */
    uint32_t (*to_mem)(void *mba, const uint8_t *buf, uint32_t n);
    uint32_t (*from_mem)(void *mba, uint8_t *buf, uint32_t n);
    uint32_t (*check)(void *mba, const uint8_t *buf, uint32_t n);
    /* the transfer is over; exception: the drive found an error */
    void (*done)(void *mba, int exception);
    /* a drive's attention line rose */
    void (*attention)(void *mba);
};

#endif
