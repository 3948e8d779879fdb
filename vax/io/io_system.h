/* The 8600's I/O as one configuration (the machine holds one of these):
 *
 *   A-bus slot 0: SBIA 0 (slot 1 empty)
 *     TR 3: DW780 UNIBUS adapter 0 (UNIBUS window at 0x20100000)
 *             DZ11s at 0760100 + 010 n, vectors 0300 + 010 n, BR5
 *             DEUNA at 0774510, vector 0120, BR5 (de0 in GENERIC), station
 *             address 08:00:2b:47:54:49 (the reference transcript's)
 *     TR 8: RH780 MASSBUS adapter 0: RP06 drives 0-3 (rp0-rp3)
 *     TR 9: RH780 MASSBUS adapter 1: TM03 formatter (drive 0) with TU77
 *             transports 0 and 1 (tu0, tu1)
 *
 * the slots SIMH's 8600 uses, so 4.3BSD prints the same autoconfiguration
 * lines for them ("uba0 at tr3", "mba0 at tr8", "mba1 at tr9").  One
 * event queue in emulated time serves every device.  Device names for
 * attach: rp0-rp3, tu0, tu1. */
#ifndef VAX_IO_IO_SYSTEM_H
#define VAX_IO_IO_SYSTEM_H

#include "vax/io/io_abus.h"
#include "vax/io/io_deuna.h"
#include "vax/io/io_dz.h"
#include "vax/io/io_mba.h"
#include "vax/io/io_netsrc.h"
#include "vax/io/io_rp.h"
#include "vax/io/io_tm03.h"
#include "vax/io/io_uba.h"

#define IO_TR_UBA 3
#define IO_TR_MBA0 8
#define IO_TR_MBA1 9
#define IO_RP_UNITS 4
#define IO_TU_UNITS 2
#define IO_DZ_MAX 4
#define IO_DZ_BASE 0760100u
#define IO_DZ_VECTOR 0300u
#define IO_DEUNA_CSR 0774510u
#define IO_DEUNA_VECTOR 0120u

struct io_config {
    unsigned dz;           /* DZ11s on the UNIBUS, 0-4 (default 1) */
    unsigned dz_br;        /* their bus request level, 4-7 (0: IO_DZ_BR, 5) */
    int second_sbia;       /* tests: an SBIA in A-bus slot 1 too, with no nexus */
    int no_deuna;          /* tests: no DEUNA on the UNIBUS */
};

/* The DEUNA's default station address (its ROM). */
extern const uint8_t io_deuna_default_addr[IO_ETHER_ADDR];

struct io_system {
    struct io_events ev;
    struct io_memory mem;
    struct io_abus abus;
    struct io_sbia sbia[IO_ABUS_SLOTS];
    struct io_mba mba[2];
    struct io_rp rp[IO_RP_UNITS];
    struct io_tm03 tm03;
    struct io_uba uba;
    struct io_dz dz[IO_DZ_MAX];
    unsigned ndz;
    struct io_deuna deuna;
    int has_deuna;
    struct io_netsrc *net;   /* the network outside the VAX, when started */
    /* a host-side component (a console script) asks the machine to stop */
    char stop_reason[256];
    int stop_requested;
};

/* now: the machine's microcycle counter; mem: its checked memory port;
 * wake: set whenever the I/O could raise a request sooner than the
 * machine last asked (a timer armed earlier, a request line rising), or
 * NULL.  NULL if out of memory. */
struct io_system *io_system_new(const uint64_t *now, int *wake, const struct io_memory *mem,
                                const struct io_config *cfg);
void io_system_free(struct io_system *s);
/* Power-up: every adapter and device to its initial state (media stay). */
void io_system_reset(struct io_system *s);
/* dev: rp0-rp3, tu0, tu1.  0, or -1 with a message. */
int io_system_attach(struct io_system *s, const char *dev, const char *path, int readonly,
                     char *err, size_t errlen);
/* Connects the DEUNA to the network outside the VAX (io_netsrc.h), its
 * frames to `tap` (NULL: none).  Once, before the run.  0, or -1 with a
 * message. */
int io_system_net_start(struct io_system *s, const struct io_netsrc_config *c,
                        io_netsrc_tap_fn tap, void *tap_ctx, char *err, size_t errlen);
/* The medium behind a device name (NULL if none or not attached). */
struct io_disk *io_system_disk(struct io_system *s, const char *dev);
struct io_tape *io_system_tape(struct io_system *s, const char *dev);

/* Media whose host file failed: a failed write or sync of an attached
 * image stops the machine ("host write error on rp0"; the guest's drive
 * reports its own error too).  io_system_media_sync flushes what the guest
 * wrote (fsync; the tool calls it after the run); io_system_media_error
 * gives the first failure: its errno, unit and image path, or 0. */
int io_system_media_sync(struct io_system *s);
int io_system_media_error(const struct io_system *s, const char **unit, const char **path);

static inline void io_system_request_stop(struct io_system *s, const char *why)
{
    if (!s->stop_requested) {
        s->stop_requested = 1;
        size_t i = 0;
        for (; why[i] && i + 1 < sizeof s->stop_reason; i++)
            s->stop_reason[i] = why[i];
        s->stop_reason[i] = 0;
    }
}

#endif
