/* The 8600's I/O configuration (io_system.h). */
#include "vax/io/io_system.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const uint8_t io_deuna_default_addr[IO_ETHER_ADDR] = {0x08, 0x00, 0x2B, 0x47, 0x54, 0x49};

static const char *const rp_names[IO_RP_UNITS] = {"rp0", "rp1", "rp2", "rp3"};
static const char *const tu_names[IO_TU_UNITS] = {"tu0", "tu1"};

/* A medium's host file failed: the machine stops at once, the tool says
 * why (io_system_media_error). */
static void media_failed(void *ctx, const void *medium)
{
    struct io_system *s = ctx;
    const char *unit = "a medium";
    for (unsigned u = 0; u < IO_RP_UNITS; u++)
        if (medium == &s->rp[u].disk)
            unit = rp_names[u];
    for (unsigned u = 0; u < IO_TU_UNITS; u++)
        if (medium == &s->tm03.slave[u].tape)
            unit = tu_names[u];
    char why[64];
    snprintf(why, sizeof why, "host write error on %s", unit);
    io_system_request_stop(s, why);
    io_events_wake(&s->ev);
}

struct io_system *io_system_new(const uint64_t *now, int *wake, const struct io_memory *mem,
                                const struct io_config *cfg)
{
    struct io_system *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->mem = *mem;
    io_events_init(&s->ev, now);
    s->ev.wake = wake;
    io_abus_init(&s->abus);
    s->abus.wake = wake;
    io_sbia_init(&s->sbia[0], 0);
    s->sbia[0].wake = wake;
    s->abus.slot[0] = &s->sbia[0];
    if (cfg && cfg->second_sbia) {
        io_sbia_init(&s->sbia[1], 1);
        s->sbia[1].wake = wake;
        s->abus.slot[1] = &s->sbia[1];
    }
    struct io_sbia *sb = &s->sbia[0];

    /* MASSBUS adapters, their drives */
    static const unsigned mba_tr[2] = {IO_TR_MBA0, IO_TR_MBA1};
    for (unsigned i = 0; i < 2; i++) {
        io_mba_init(&s->mba[i], &s->mem, io_sbia_line(sb, mba_tr[i], IO_MBA_IPL));
        io_sbia_plug(sb, mba_tr[i], &io_mba_nexus_ops, &s->mba[i]);
    }
    for (unsigned u = 0; u < IO_RP_UNITS; u++) {
        io_rp_init(&s->rp[u], u, &s->ev, &s->mba[0].channel);
        io_mba_attach_drive(&s->mba[0], u, &io_rp_ops, &s->rp[u]);
    }
    io_tm03_init(&s->tm03, IO_TU_UNITS, &s->ev, &s->mba[1].channel);
    io_mba_attach_drive(&s->mba[1], 0, &io_tm03_ops, &s->tm03);
    for (unsigned u = 0; u < IO_RP_UNITS; u++) {
        s->rp[u].disk.health.failed = media_failed;
        s->rp[u].disk.health.failed_ctx = s;
    }
    for (unsigned u = 0; u < IO_TU_UNITS; u++) {
        s->tm03.slave[u].tape.health.failed = media_failed;
        s->tm03.slave[u].tape.health.failed_ctx = s;
    }

    /* the UNIBUS adapter and its DZ11s */
    struct io_irq lines[4];
    for (int l = 0; l < 4; l++)
        lines[l] = io_sbia_line(sb, IO_TR_UBA, IO_NEXUS_IPL_MIN + l);
    io_uba_init(&s->uba, 0, &s->ev, &s->mem, lines);
    io_sbia_plug(sb, IO_TR_UBA, &io_uba_nexus_ops, &s->uba);
    io_sbia_plug_unibus(sb, 0, &io_uba_unibus_ops, &s->uba);
    s->ndz = cfg ? cfg->dz : 1;
    if (s->ndz > IO_DZ_MAX)
        s->ndz = IO_DZ_MAX;
    for (unsigned n = 0; n < s->ndz; n++) {
        uint32_t base = IO_DZ_BASE + 010 * n;
        uint16_t vec = (uint16_t)(IO_DZ_VECTOR + 010 * n);
        int br = cfg && cfg->dz_br >= 4 && cfg->dz_br <= 7 ? (int)cfg->dz_br : IO_DZ_BR;
        int rx = io_uba_source(&s->uba, br, vec);
        int tx = io_uba_source(&s->uba, br, (uint16_t)(vec + 4));
        io_dz_init(&s->dz[n], base, &s->uba.bus, rx, tx);
        io_uba_add_device(&s->uba, base, base + 8, &io_dz_ops, &s->dz[n]);
    }
    s->has_deuna = !(cfg && cfg->no_deuna);
    if (s->has_deuna) {
        int src = io_uba_source(&s->uba, IO_DEUNA_BR, IO_DEUNA_VECTOR);
        io_deuna_init(&s->deuna, IO_DEUNA_CSR, &s->uba.bus, src, io_deuna_default_addr);
        io_uba_add_device(&s->uba, IO_DEUNA_CSR, IO_DEUNA_CSR + 8, &io_deuna_ops, &s->deuna);
    }
    io_system_reset(s);
    return s;
}

void io_system_free(struct io_system *s)
{
    if (!s)
        return;
    for (unsigned u = 0; u < IO_RP_UNITS; u++)
        io_rp_free(&s->rp[u]);
    io_tm03_free(&s->tm03);
    for (unsigned n = 0; n < s->ndz; n++)
        io_dz_free(&s->dz[n]);
    if (s->net) {
        io_netsrc_free(s->net);
        free(s->net);
    }
    if (s->has_deuna)
        io_deuna_free(&s->deuna);
    io_uba_free(&s->uba);
    free(s);
}

void io_system_reset(struct io_system *s)
{
    for (unsigned i = 0; i < IO_ABUS_SLOTS; i++)
        if (s->abus.slot[i])
            io_sbia_reset(s->abus.slot[i]);
    s->abus.wtmo = 0;
    io_mba_reset(&s->mba[0]);
    io_mba_reset(&s->mba[1]);
    io_uba_reset(&s->uba);
}

/* rpN / tuN: the unit number, or -1. */
static int unit_of(const char *dev, const char *kind, unsigned max)
{
    size_t k = strlen(kind);
    if (strncmp(dev, kind, k) != 0 || dev[k] < '0' || dev[k] > '9' || dev[k + 1])
        return -1;
    unsigned u = (unsigned)(dev[k] - '0');
    return u < max ? (int)u : -1;
}

int io_system_attach(struct io_system *s, const char *dev, const char *path, int readonly,
                     char *err, size_t errlen)
{
    int u;
    if ((u = unit_of(dev, "rp", IO_RP_UNITS)) >= 0)
        return io_rp_attach(&s->rp[u], path, readonly, err, errlen);
    if ((u = unit_of(dev, "tu", IO_TU_UNITS)) >= 0)
        return io_tm03_attach(&s->tm03, (unsigned)u, path, readonly, err, errlen);
    snprintf(err, errlen, "no device '%s' (rp0-rp3: RP06 on MBA 0, tu0-tu1: TU77 on MBA 1)",
             dev);
    return -1;
}

int io_system_net_start(struct io_system *s, const struct io_netsrc_config *c,
                        io_netsrc_tap_fn tap, void *tap_ctx, char *err, size_t errlen)
{
    if (!s->has_deuna || s->net) {
        snprintf(err, errlen, s->net ? "the network is already connected"
                                     : "no DEUNA to connect the network to");
        return -1;
    }
    struct io_netsrc *n = calloc(1, sizeof *n);
    if (!n) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    struct io_netsrc_config cfg = *c;
    memcpy(cfg.vax_mac, s->deuna.addr, sizeof cfg.vax_mac);
    struct io_ether_station st = io_deuna_station(&s->deuna);
    if (io_netsrc_init(n, &s->ev, &cfg, &st, err, errlen) < 0) {
        free(n);
        return -1;
    }
    io_netsrc_set_tap(n, tap, tap_ctx);
    struct io_ether_wire w = io_netsrc_wire(n);
    io_deuna_set_wire(&s->deuna, &w);
    s->net = n;
    return 0;
}

int io_system_media_sync(struct io_system *s)
{
    int rc = 0;
    for (unsigned u = 0; u < IO_RP_UNITS; u++)
        if (io_disk_sync(&s->rp[u].disk) < 0)
            rc = -1;
    for (unsigned u = 0; u < IO_TU_UNITS; u++)
        if (io_tape_sync(&s->tm03.slave[u].tape) < 0)
            rc = -1;
    return rc;
}

int io_system_media_error(const struct io_system *s, const char **unit, const char **path)
{
    for (unsigned u = 0; u < IO_RP_UNITS; u++)
        if (s->rp[u].disk.health.host_err) {
            *unit = rp_names[u];
            *path = s->rp[u].disk.path;
            return s->rp[u].disk.health.host_err;
        }
    for (unsigned u = 0; u < IO_TU_UNITS; u++)
        if (s->tm03.slave[u].tape.health.host_err) {
            *unit = tu_names[u];
            *path = s->tm03.slave[u].tape.path;
            return s->tm03.slave[u].tape.health.host_err;
        }
    return 0;
}

struct io_disk *io_system_disk(struct io_system *s, const char *dev)
{
    int u = unit_of(dev, "rp", IO_RP_UNITS);
    return u >= 0 && io_disk_attached(&s->rp[u].disk) ? &s->rp[u].disk : NULL;
}

struct io_tape *io_system_tape(struct io_system *s, const char *dev)
{
    int u = unit_of(dev, "tu", IO_TU_UNITS);
    return u >= 0 && io_tape_attached(&s->tm03.slave[u].tape) ? &s->tm03.slave[u].tape : NULL;
}
