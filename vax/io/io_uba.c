/* The DW780 UNIBUS adapter (io_uba.h). */
#include "vax/io/io_uba.h"

#include <string.h>

#define CNF_CODE 0x28u
#define CNF_W1C 0x00C70000u
#define CNF_RD (0xFC000000u | CNF_W1C)
#define CR_RD 0x7C00007Eu
#define CR_UPF 0x02u
#define CR_DSB(cr) ((((cr) >> 26) & 0x1F) * 16u)  /* map registers disabled */
#define SR_RD 0x0F0007FFu
#define SR_W1C 0x000007FFu
#define SR_SUEF (IO_UBASR_UBSSYNTO | 0x002u)       /* UNIBUS select/sync timeouts */
#define SR_USEF (IO_UBASR_RDTO | 0x3F8u)           /* RDTO, RDS, CRD, CXTER, CXTMO, DPPE, IVMR, MRPF */
#define DR_RD 0xF8000000u
#define DR_WR 0xF0000000u
#define DR_MICOK 0x08000000u
#define DR_DINTR 0x40000000u
#define DPR_BNE 0x80000000u
#define DPR_BTE 0x40000000u
#define DPR_DIR 0x20000000u
#define MAP_VALID 0x80000000u
#define MAP_BO 0x02000000u
#define MAP_DP(e) (((e) >> 21) & 0xF)
#define MAP_PFN 0x001FFFFFu
#define MAP_WR (0x86000000u | 0x01E00000u | MAP_PFN)
#define ADAPTER_INIT_CYCLES IO_US(50)
#define UNIBUS_INIT_CYCLES IO_MS(1)

enum {
    R_CNF = 0x00, R_CR = 0x04, R_SR = 0x08, R_DR = 0x0C, R_FMER = 0x10, R_FUBAR = 0x14,
    R_FMER1 = 0x18, R_FUBAR1 = 0x1C, R_BRSVR = 0x20, R_BRRVR = 0x30, R_DPR = 0x40,
    R_MAP = 0x800,
};

/* The nexus request at each IPL follows the requests of its BR level. */
static void update_lines(struct io_uba *u)
{
    int enabled = !(u->dr & DR_DINTR) && !u->uiip && (u->cr & IO_UBACR_IFS) &&
                  (u->cr & IO_UBACR_BRIE);
    for (int l = 0; l < 4; l++) {
        int on = 0;
        if (enabled)
            for (unsigned i = 0; i < u->nsrc; i++)
                if (u->src[i].pending && u->src[i].br == l + 4)
                    on = 1;
        if (l == 1 && u->adapter_int)
            on = 1;
        if (on != u->line_on[l]) {
            u->line_on[l] = on;
            io_irq_set(&u->line[l], on);
        }
    }
}

/* The adapter's own interrupt: an error or configuration bit set while
 * its enable is (a level: it lasts until software clears the bit, and a
 * BRRVR read that reports it takes it until the next change). */
static void adapter_check(struct io_uba *u)
{
    u->adapter_int = ((u->cr & IO_UBACR_SUEFIE) && (u->sr & SR_SUEF)) ||
                     ((u->cr & IO_UBACR_USEFIE) && (u->sr & SR_USEF)) ||
                     ((u->cr & IO_UBACR_CNFIE) && (u->cnf & CNF_W1C));
    update_lines(u);
}

static void sr_error(struct io_uba *u, uint32_t bit)
{
    if (u->sr & bit)
        u->sr |= IO_UBASR_LEB; /* a second one before software cleared the first */
    u->sr |= bit;
    adapter_check(u);
}

/* A UNIBUS reference nobody answered. */
static void unibus_nxm(struct io_uba *u, uint32_t ua)
{
    u->nxm_refs++;
    if (!(u->sr & IO_UBASR_UBSSYNTO))
        u->fubar = (ua >> 2) & 0xFFFF;
    sr_error(u, IO_UBASR_UBSSYNTO);
}

/* ---- the devices' side ---- */

static void bus_request(void *ctx, unsigned source, int on)
{
    struct io_uba *u = ctx;
    if (source < u->nsrc) {
        u->src[source].pending = on != 0;
        update_lines(u);
    }
}

/* Maps a UNIBUS address: 0 and the physical address, or -1 after
 * recording an invalid (or disabled) map register. */
static int map_addr(struct io_uba *u, uint32_t ua, uint32_t *pa, unsigned *dp)
{
    uint32_t blk = (ua >> 9) & 0x1FF;
    if (blk >= IO_UBA_MAPS || blk < CR_DSB(u->cr) || !(u->map[blk] & MAP_VALID)) {
        if (!(u->sr & IO_UBASR_IVMR))
            u->fmer = blk;
        sr_error(u, IO_UBASR_IVMR);
        return -1;
    }
    uint32_t e = u->map[blk];
    *dp = MAP_DP(e);
    *pa = (e & MAP_PFN) << 9 | (ua & 0x1FF);
    if (*dp && (e & MAP_BO))
        *pa += 1; /* a buffered path's byte offset */
    return 0;
}

static void note_dpr(struct io_uba *u, unsigned dp, uint32_t ua, int to_mem)
{
    if (!dp)
        return;
    u->dpr[dp] = (u->dpr[dp] & ~(0xFFFFu | DPR_DIR)) | ((ua >> 2) & 0xFFFF) |
                 (to_mem ? DPR_DIR | DPR_BNE : 0);
}

static uint32_t dma(struct io_uba *u, uint32_t ua, uint8_t *buf, uint32_t n, int to_mem)
{
    uint32_t done = 0;
    while (done < n) {
        uint32_t a = (ua + done) & 0x3FFFF, pa;
        unsigned dp;
        if (map_addr(u, a, &pa, &dp) < 0)
            break;
        uint32_t chunk = 512 - (a & 0x1FF);
        if (chunk > n - done)
            chunk = n - done;
        int rc = to_mem ? u->mem->write(u->mem->ctx, pa, buf + done, chunk)
                        : u->mem->read(u->mem->ctx, pa, buf + done, chunk);
        if (rc < 0) {
            sr_error(u, IO_UBASR_RDTO); /* non-existent memory */
            break;
        }
        done += chunk;
        note_dpr(u, dp, a + chunk - 1, to_mem);
    }
    u->dma_bytes += done;
    return done;
}

static uint32_t bus_dma_read(void *ctx, uint32_t ua, uint8_t *buf, uint32_t n)
{
    return dma(ctx, ua, buf, n, 0);
}

static uint32_t bus_dma_write(void *ctx, uint32_t ua, const uint8_t *buf, uint32_t n)
{
    return dma(ctx, ua, (uint8_t *)buf, n, 1);
}

/* ---- init sequencing ---- */

static void unibus_init_devices(struct io_uba *u)
{
    for (unsigned i = 0; i < u->ndev; i++)
        if (u->dev[i].ops->init)
            u->dev[i].ops->init(u->dev[i].dev);
    for (unsigned i = 0; i < u->nsrc; i++)
        u->src[i].pending = 0;
}

static void init_step(void *ctx, uint64_t due)
{
    struct io_uba *u = ctx;
    if (u->aiip) {
        u->aiip = 0;
        io_timer_at(&u->timer, due + UNIBUS_INIT_CYCLES);
        return;
    }
    u->uiip = 0;
    u->cnf = (u->cnf & ~IO_UBACNF_UBPDN) | IO_UBACNF_UBIC;
    adapter_check(u);
}

static void registers_reset(struct io_uba *u)
{
    u->cr = u->sr = u->dr = u->fmer = u->fubar = 0;
    memset(u->brsvr, 0, sizeof u->brsvr);
    memset(u->dpr, 0, sizeof u->dpr);
    memset(u->map, 0, sizeof u->map);
    u->adapter_int = 0;
}

void io_uba_reset(struct io_uba *u)
{
    io_timer_cancel(&u->timer);
    registers_reset(u);
    u->aiip = u->uiip = 0;
    u->cnf = IO_UBACNF_UBIC;
    unibus_init_devices(u);
    update_lines(u);
}

/* CR<ADINIT>: the adapter resets, then the UNIBUS goes through power
 * down and init; only CNF and DR answer meanwhile. */
static void adapter_init(struct io_uba *u)
{
    registers_reset(u);
    u->aiip = u->uiip = 1;
    u->cnf = (u->cnf & ~IO_UBACNF_UBIC) | IO_UBACNF_UBPDN;
    unibus_init_devices(u);
    update_lines(u);
    io_timer_after(&u->timer, ADAPTER_INIT_CYCLES);
}

/* ---- the registers ---- */

static uint32_t brrvr(struct io_uba *u, int l)
{
    uint32_t v = 0;
    if (l == 1 && u->adapter_int) {
        v = 0x80000000u;
        u->adapter_int = 0;
    }
    if (!(u->dr & DR_DINTR) && !u->uiip && (u->cr & IO_UBACR_IFS) && (u->cr & IO_UBACR_BRIE))
        for (unsigned i = 0; i < u->nsrc; i++)
            if (u->src[i].pending && u->src[i].br == l + 4) {
                u->src[i].pending = 0; /* the device's vector is taken */
                v |= u->src[i].vector & 0x1FCu;
                break;
            }
    update_lines(u);
    return v;
}

static enum io_status reg_read(void *ctx, uint32_t off, int width, uint32_t *val)
{
    struct io_uba *u = ctx;
    if (width != 4 || (off & 3))
        return IO_ERRCONF;
    if (u->aiip && off != R_CNF && off != R_DR)
        return IO_TIMEOUT;
    if (off >= R_MAP) {
        uint32_t i = (off - R_MAP) / 4;
        if (i >= IO_UBA_MAPS)
            return IO_TIMEOUT;
        *val = u->map[i];
        return IO_OK;
    }
    switch (off) {
    case R_CNF: *val = (u->cnf & CNF_RD) | (CNF_CODE + u->number); break;
    case R_CR: *val = u->cr & CR_RD; break;
    case R_SR: *val = u->sr & SR_RD; break;
    case R_DR: *val = (u->dr & DR_RD) | DR_MICOK | (CNF_CODE + u->number); break;
    case R_FMER: case R_FMER1: *val = u->fmer & 0x1FF; break;
    case R_FUBAR: case R_FUBAR1: *val = u->fubar & 0xFFFF; break;
    default:
        if (off >= R_BRSVR && off < R_BRSVR + 16)
            *val = u->brsvr[(off - R_BRSVR) / 4];
        else if (off >= R_BRRVR && off < R_BRRVR + 16)
            *val = brrvr(u, (int)(off - R_BRRVR) / 4);
        else if (off >= R_DPR && off < R_DPR + 64)
            *val = off == R_DPR ? 0 : u->dpr[(off - R_DPR) / 4] & 0xE07FFFFFu;
        else
            return IO_TIMEOUT;
    }
    return IO_OK;
}

static enum io_status reg_write(void *ctx, uint32_t off, int width, uint32_t v)
{
    struct io_uba *u = ctx;
    if (width != 4 || (off & 3))
        return IO_ERRCONF;
    if (u->aiip && off != R_CNF && off != R_DR && off != R_CR && off != R_SR)
        return IO_TIMEOUT;
    if (off >= R_MAP) {
        uint32_t i = (off - R_MAP) / 4;
        if (i >= IO_UBA_MAPS)
            return IO_TIMEOUT;
        u->map[i] = v & MAP_WR;
        return IO_OK;
    }
    switch (off) {
    case R_CNF: u->cnf &= ~(v & CNF_W1C); adapter_check(u); break;
    case R_CR: {
        uint32_t old = u->cr;
        if (v & IO_UBACR_ADINIT) {
            adapter_init(u);
            old = 0;
        }
        if ((v & CR_UPF) && !(old & CR_UPF) && !u->uiip) { /* UNIBUS power fail */
            u->uiip = 1;
            u->cnf = (u->cnf & ~IO_UBACNF_UBIC) | IO_UBACNF_UBPDN;
            unibus_init_devices(u);
            io_timer_after(&u->timer, UNIBUS_INIT_CYCLES);
        }
        u->cr = v & CR_RD;
        adapter_check(u);
        break;
    }
    case R_SR: u->sr &= ~(v & SR_W1C); adapter_check(u); break;
    case R_DR:
        u->dr = (u->dr & ~DR_WR) | (v & DR_WR);
        u->cnf &= ~(v & CNF_W1C);
        adapter_check(u);
        break;
    case R_FMER: case R_FUBAR: case R_FMER1: case R_FUBAR1: break;
    default:
        if (off >= R_BRSVR && off < R_BRSVR + 16)
            u->brsvr[(off - R_BRSVR) / 4] = v;
        else if (off >= R_BRRVR && off < R_BRRVR + 16)
            ; /* read only */
        else if (off >= R_DPR && off < R_DPR + 64) {
            if (off != R_DPR) /* purge: the buffer empties at once */
                u->dpr[(off - R_DPR) / 4] &= ~(v & (DPR_BNE | DPR_BTE));
        } else
            return IO_TIMEOUT;
    }
    return IO_OK;
}

const struct io_nexus_ops io_uba_nexus_ops = {.read = reg_read, .write = reg_write};

/* ---- the UNIBUS window ---- */

static struct io_uba_device *find(struct io_uba *u, uint32_t ua)
{
    if (u->uiip)
        return NULL;
    for (unsigned i = 0; i < u->ndev; i++)
        if (ua >= u->dev[i].lo && ua < u->dev[i].hi)
            return &u->dev[i];
    return NULL;
}

static enum io_status ub_read(void *ctx, uint32_t off, int width, uint32_t *val)
{
    struct io_uba *u = ctx;
    if (!(width == 1 || (width == 2 && !(off & 1))))
        return IO_ERRCONF;
    uint32_t ua = off & 0x3FFFF;
    struct io_uba_device *d = find(u, ua & ~1u);
    uint16_t w = 0;
    if (!d || d->ops->read(d->dev, ua & ~1u, &w) != IO_OK) {
        unibus_nxm(u, ua);
        *val = 0;
        return IO_OK;
    }
    *val = width == 2 ? w : (ua & 1) ? (uint32_t)(w >> 8) : (uint32_t)(w & 0xFF);
    update_lines(u);
    return IO_OK;
}

static enum io_status ub_write(void *ctx, uint32_t off, int width, uint32_t val)
{
    struct io_uba *u = ctx;
    if (!(width == 1 || (width == 2 && !(off & 1))))
        return IO_ERRCONF;
    uint32_t ua = off & 0x3FFFF;
    struct io_uba_device *d = find(u, ua & ~1u);
    if (!d || d->ops->write(d->dev, ua, width, (uint16_t)val) != IO_OK)
        unibus_nxm(u, ua);
    update_lines(u);
    return IO_OK;
}

const struct io_nexus_ops io_uba_unibus_ops = {.read = ub_read, .write = ub_write};

/* ---- construction ---- */

void io_uba_init(struct io_uba *u, unsigned number, struct io_events *ev,
                 const struct io_memory *mem, const struct io_irq lines[4])
{
    memset(u, 0, sizeof *u);
    u->number = number;
    u->ev = ev;
    u->mem = mem;
    for (int l = 0; l < 4; l++)
        u->line[l] = lines[l];
    u->bus = (struct io_unibus){.uba = u, .ev = ev, .request = bus_request,
                                .dma_read = bus_dma_read, .dma_write = bus_dma_write};
    io_timer_init(ev, &u->timer, init_step, u);
    io_uba_reset(u);
}

void io_uba_free(struct io_uba *u) { io_timer_remove(&u->timer); }

int io_uba_add_device(struct io_uba *u, uint32_t lo, uint32_t hi,
                      const struct io_unibus_dev_ops *ops, void *dev)
{
    if (u->ndev >= IO_UBA_DEVICES)
        return -1;
    u->dev[u->ndev++] = (struct io_uba_device){.lo = lo, .hi = hi, .ops = ops, .dev = dev};
    return 0;
}

int io_uba_source(struct io_uba *u, int br, uint16_t vector)
{
    if (u->nsrc >= IO_UBA_SOURCES || br < 4 || br > 7)
        return -1;
    u->src[u->nsrc] = (struct io_uba_source){.br = br, .vector = vector, .pending = 0};
    return (int)u->nsrc++;
}
