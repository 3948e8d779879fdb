/* An RP06 disk drive on the MASSBUS: 815 cylinders x 19 tracks x 22
 * sectors of 512 bytes (340,670 sectors), 3600 rpm.  Registers (hpreg.h,
 * SIMH's pdp11_rp.c): 0 CS1 (function <5:1>, GO; DVA reads 1), 1 DS, 2 ER1,
 * 3 MR, 5 DA (track <12:8>, sector <4:0>), 6 DT (020022), 7 LA (the sector
 * under the heads <10:6>), 8 SN, 9 OF, 10 DC, 11 CC, 12 ER2, 13 ER3, 14/15
 * EC1/EC2.  Functions: NOP, UNLOAD, SEEK, RECAL, DCLR, RELEASE, OFFSET,
 * RETURN, PRESET, PACK ACK, SEARCH, WRITE CHECK, WRITE (+HEADER), READ
 * (+HEADER); anything else is ILF.  Timing from the geometry, in emulated
 * time: a seek of d cylinders takes 6 ms + 44 ms * sqrt(d / 814) (7.5 ms
 * to 50 ms), the platters turn continuously (757.6 us per sector), a
 * transfer starts when its first sector comes under the heads and takes a
 * sector time per sector; the data move through the adapter's channel at
 * the end.  Errors: an address beyond the disk (IAE), a transfer running
 * off its end (AOE), a write to a write-locked drive (WLE), no medium
 * (UNS), a command while ERR is set (ILF), a register written while the
 * drive is busy (RMR), an unknown register (ILR), a host I/O error (PAR);
 * each sets ATA (attention).  Seeks, searches, recalibrate and offset
 * commands end with ATA. */
#ifndef VAX_IO_IO_RP_H
#define VAX_IO_IO_RP_H

#include "vax/io/io_disk.h"
#include "vax/io/io_massbus.h"

#define IO_RP06_CYL 815u
#define IO_RP06_TRK 19u
#define IO_RP06_SEC 22u
#define IO_RP06_SECTORS (IO_RP06_CYL * IO_RP06_TRK * IO_RP06_SEC)
#define IO_RP_SECTOR_CYCLES 9470u    /* 757.6 us: 1/22 of a 16.67 ms turn */
#define IO_RP_MAXXFER 65536u

/* DS and ER1 bits (hpreg.h) */
#define IO_RPDS_ATA 0100000u
#define IO_RPDS_ERR 0040000u
#define IO_RPDS_PIP 0020000u
#define IO_RPDS_MOL 0010000u
#define IO_RPDS_WRL 0004000u
#define IO_RPDS_LST 0002000u
#define IO_RPDS_DPR 0000400u
#define IO_RPDS_DRY 0000200u
#define IO_RPDS_VV 0000100u
#define IO_RPDS_OM 0000001u
#define IO_RPER1_WLE 0004000u
#define IO_RPER1_IAE 0002000u
#define IO_RPER1_AOE 0001000u
#define IO_RPER1_PAR 0000010u
#define IO_RPER1_RMR 0000004u
#define IO_RPER1_ILR 0000002u
#define IO_RPER1_ILF 0000001u
#define IO_RPER1_UNS 0040000u

struct io_rp {
    unsigned unit;
    struct io_disk disk;
    int online;                 /* medium loaded (attached and not unloaded) */
    uint16_t cs1, ds, er1, er2, er3, mr, da, dc, of, ec1, ec2, hr;
    uint16_t cyl;               /* where the heads are */
    int fn;                     /* the function in progress (-1: none) */
    struct io_timer timer;
    const struct io_mb_channel *ch;
    struct io_events *ev;
    uint8_t buf[IO_RP_MAXXFER];
    uint64_t seeks, sectors_read, sectors_written; /* statistics */
};

extern const struct io_mb_drive_ops io_rp_ops;

void io_rp_init(struct io_rp *d, unsigned unit, struct io_events *ev,
                const struct io_mb_channel *ch);
void io_rp_free(struct io_rp *d);
/* Attaches an image (io_disk.h's checks); the drive comes online with
 * attention, as when a pack spins up. */
int io_rp_attach(struct io_rp *d, const char *path, int readonly, char *err, size_t errlen);
void io_rp_detach(struct io_rp *d);
/* Seek time for a move of d cylinders, in microcycles. */
uint64_t io_rp_seek_cycles(unsigned d);

#endif
