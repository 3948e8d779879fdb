/* A TM03 tape formatter on the MASSBUS (drive 0 of its adapter) with up
 * to 8 slave transports; ours are TU77s (TE16 and TU45 are the same
 * formatter with another type code).  Registers (htreg.h, SIMH's
 * pdp11_tu.c): 0 CS1 (function <5:1>, GO, which stays set while the
 * formatter is busy), 1 FS (formatter status), 2 ER, 3 MR, 5 FC (frame
 * count), 6 DT (the selected slave's type: 0142054 for a TU77), 7 CC,
 * 8 SN, 9 TC (slave <2:0>, format <7:4> (only 014, PDP-11 normal, is
 * implemented: others are a format error), density <10:8>, FCS, SAC).
 * Functions: NOP, REWIND OFFLINE, REWIND, DRIVE CLEAR, READ-IN PRESET,
 * ERASE, WRITE TAPE MARK, SPACE FORWARD/REVERSE (FC = -records; a tape
 * mark stops it with TM and FCE), WRITE CHECK F/R, WRITE, READ F/R (a
 * record shorter than the byte count sets FCE, a tape mark TM + FCE and
 * a MASSBUS exception, reading past the last record OPI, as SIMH).  The
 * image is SIMH's .tap (io_tape.h).  Timing at 125 in/s and 1600 bpi:
 * 4.8 ms of gap and start per record plus 5 us per byte; rewind at
 * 440 in/s from the current position. */
#ifndef VAX_IO_IO_TM03_H
#define VAX_IO_IO_TM03_H

#include "vax/io/io_massbus.h"
#include "vax/io/io_tape.h"

#define IO_TM03_SLAVES 8
#define IO_TM03_MAXREC 65536u

/* FS and ER bits (htreg.h) */
#define IO_TMFS_ATA 0100000u
#define IO_TMFS_ERR 0040000u
#define IO_TMFS_PIP 0020000u
#define IO_TMFS_MOL 0010000u
#define IO_TMFS_WRL 0004000u
#define IO_TMFS_EOT 0002000u
#define IO_TMFS_DPR 0000400u
#define IO_TMFS_DRY 0000200u
#define IO_TMFS_SSC 0000100u
#define IO_TMFS_PES 0000040u
#define IO_TMFS_ID 0000010u
#define IO_TMFS_TM 0000004u
#define IO_TMFS_BOT 0000002u
#define IO_TMFS_SLA 0000001u
#define IO_TMER_OPI 0020000u
#define IO_TMER_NEF 0004000u
#define IO_TMER_FCE 0001000u
#define IO_TMER_CRC 0000200u
#define IO_TMER_VPE 0000100u
#define IO_TMER_FMT 0000020u
#define IO_TMER_RMR 0000004u
#define IO_TMER_ILR 0000002u
#define IO_TMER_ILF 0000001u
#define IO_TMER_UNS 0040000u

struct io_tm03;

struct io_tu77 {
    struct io_tm03 *fmt;
    unsigned slave;
    int present;              /* a transport is cabled here */
    int online;               /* a tape is mounted and not unloaded */
    int rewinding, unload;
    int pe;                   /* density known to be 1600 bpi */
    struct io_tape tape;
    struct io_timer timer;    /* rewinds run on their own */
};

struct io_tm03 {
    uint16_t cs1, fc, fs, er, cc, mr, tc;
    int fn;                   /* the motion in progress (-1: none) */
    int op_st;                /* its tape outcome (io_tape_status) ... */
    uint32_t op_len;          /* ... and record length, until it ends */
    uint16_t op_fc;           /* frame count after a space */
    struct io_tu77 slave[IO_TM03_SLAVES];
    struct io_timer timer;    /* the formatter's current operation */
    const struct io_mb_channel *ch;
    struct io_events *ev;
    uint8_t buf[IO_TM03_MAXREC];
    uint64_t records_read, records_written; /* statistics */
};

extern const struct io_mb_drive_ops io_tm03_ops;

/* `slaves`: how many TU77s are cabled (slaves 0 .. slaves-1). */
void io_tm03_init(struct io_tm03 *f, unsigned slaves, struct io_events *ev,
                  const struct io_mb_channel *ch);
void io_tm03_free(struct io_tm03 *f);
int io_tm03_attach(struct io_tm03 *f, unsigned slave, const char *path, int readonly,
                   char *err, size_t errlen);
void io_tm03_detach(struct io_tm03 *f, unsigned slave);

#endif
