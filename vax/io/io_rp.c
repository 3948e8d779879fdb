/* The RP06 drive (io_rp.h). */
#include "vax/io/io_rp.h"

#include <string.h>

#define CS1_GO 01u
#define CS1_FN 076u
#define CS1_DVA 04000u
#define DA_MBZ 0140300u
#define OF_MBZ 0161400u
#define DC_MBZ 0176000u
#define DT_RP06 020022u

enum {
    F_NOP = 000, F_UNLOAD = 001, F_SEEK = 002, F_RECAL = 003, F_DCLR = 004,
    F_RELEASE = 005, F_OFFSET = 006, F_RETURN = 007, F_PRESET = 010, F_PACK = 011,
    F_SEARCH = 014, F_WCHK = 024, F_WRITE = 030, F_WRITEH = 031, F_READ = 034,
    F_READH = 035,
};

enum {
    R_CS1, R_DS, R_ER1, R_MR, R_AS, R_DA, R_DT, R_LA, R_SN, R_OF, R_DC, R_CC,
    R_ER2, R_ER3, R_EC1, R_EC2,
};

static uint64_t now(const struct io_rp *d) { return io_now(d->ev); }

static void attention(struct io_rp *d)
{
    d->ds |= IO_RPDS_ATA;
    d->ch->attention(d->ch->mba);
}

static void error(struct io_rp *d, uint16_t er1)
{
    d->er1 |= er1;
    attention(d);
}

static uint16_t status(const struct io_rp *d)
{
    uint16_t ds = d->ds & (IO_RPDS_ATA | IO_RPDS_LST | IO_RPDS_VV | IO_RPDS_OM | IO_RPDS_PIP);
    ds |= IO_RPDS_DPR;
    if (d->online)
        ds |= IO_RPDS_MOL | (d->disk.readonly ? IO_RPDS_WRL : 0);
    if (d->fn < 0)
        ds |= IO_RPDS_DRY;
    if (d->er1 | d->er2 | d->er3)
        ds |= IO_RPDS_ERR;
    return ds;
}

uint64_t io_rp_seek_cycles(unsigned dist)
{
    if (dist == 0)
        return 0;
    if (dist > IO_RP06_CYL - 1)
        dist = IO_RP06_CYL - 1;
    /* 6 ms + 44 ms * sqrt(dist / 814), in integers */
    uint32_t x = dist * 65536u / (IO_RP06_CYL - 1), r = 0;
    while ((r + 1) * (r + 1) <= x)
        r++;
    return IO_MS(6) + IO_MS(44) * r / 256;
}

/* The microcycle at which sector `sec` next starts under the heads, at
 * or after time t. */
static uint64_t sector_start(uint64_t t, unsigned sec)
{
    uint64_t cur = t / IO_RP_SECTOR_CYCLES + 1; /* the next boundary */
    uint64_t at = cur % IO_RP06_SEC;
    uint64_t wait = (sec + IO_RP06_SEC - at) % IO_RP06_SEC;
    return (cur + wait) * IO_RP_SECTOR_CYCLES;
}

static int address_bad(const struct io_rp *d, unsigned cyl)
{
    return cyl >= IO_RP06_CYL || ((d->da >> 8) & 037) >= IO_RP06_TRK ||
           (d->da & 037) >= IO_RP06_SEC;
}

static enum io_mb_result go(struct io_rp *d)
{
    int fn = (d->cs1 >> 1) & 037;
    d->ds &= ~IO_RPDS_ATA;
    if (fn != F_DCLR && (d->er1 | d->er2 | d->er3)) {
        error(d, IO_RPER1_ILF);
        return IO_MB_GOERR;
    }
    switch (fn) {
    case F_NOP: return IO_MB_OK;
    case F_DCLR: case F_RELEASE:
        d->er1 = d->er2 = d->er3 = d->ec1 = d->ec2 = 0;
        return IO_MB_OK;
    case F_PRESET:
        d->dc = d->da = d->of = 0;
        /* fall through */
    case F_PACK:
        if (d->online)
            d->ds |= IO_RPDS_VV;
        return IO_MB_OK;
    default: break;
    }
    int known = fn == F_UNLOAD || fn == F_SEEK || fn == F_RECAL || fn == F_OFFSET ||
                fn == F_RETURN || fn == F_SEARCH || fn == F_WCHK || fn == F_WRITE ||
                fn == F_WRITEH || fn == F_READ || fn == F_READH;
    if (!known) {
        error(d, IO_RPER1_ILF);
        return IO_MB_GOERR;
    }
    if (!d->online) {
        error(d, IO_RPER1_UNS);
        return IO_MB_GOERR;
    }
    uint64_t t = now(d), due;
    switch (fn) {
    case F_UNLOAD: /* the pack spins down: the drive goes off line */
        d->online = 0;
        d->ds &= ~(IO_RPDS_VV | IO_RPDS_OM);
        attention(d);
        return IO_MB_OK;
    case F_OFFSET: case F_RETURN:
        d->ds |= IO_RPDS_PIP;
        due = t + IO_MS(5);
        break;
    case F_RECAL:
        d->ds |= IO_RPDS_PIP;
        due = t + io_rp_seek_cycles(d->cyl) + IO_MS(10);
        break;
    case F_SEEK: case F_SEARCH:
        if (address_bad(d, d->dc)) {
            error(d, IO_RPER1_IAE);
            return IO_MB_GOERR;
        }
        d->ds |= IO_RPDS_PIP;
        due = t + io_rp_seek_cycles(d->dc > d->cyl ? d->dc - d->cyl : d->cyl - d->dc);
        if (fn == F_SEARCH)
            due = sector_start(due, d->da & 037);
        d->seeks++;
        break;
    default: { /* a data transfer: implied seek, the first sector, then each */
        if (address_bad(d, d->dc)) {
            error(d, IO_RPER1_IAE);
            return IO_MB_GOERR;
        }
        uint32_t bytes = d->ch->count(d->ch->mba);
        uint64_t n = (bytes + IO_SECTOR - 1) / IO_SECTOR;
        due = t + io_rp_seek_cycles(d->dc > d->cyl ? d->dc - d->cyl : d->cyl - d->dc);
        due = sector_start(due, d->da & 037) + n * IO_RP_SECTOR_CYCLES;
        d->cyl = d->dc;
        break;
    }
    }
    d->fn = fn;
    io_timer_at(&d->timer, due);
    return fn >= F_WCHK ? IO_MB_XFER : IO_MB_OK;
}

/* The data of a transfer, at its end. */
static void transfer(struct io_rp *d)
{
    const struct io_mb_channel *ch = d->ch;
    uint32_t lba = ((uint32_t)d->dc * IO_RP06_TRK + ((d->da >> 8) & 037)) * IO_RP06_SEC +
                   (d->da & 037);
    uint32_t bytes = ch->count(ch->mba);
    uint32_t n = (bytes + IO_SECTOR - 1) / IO_SECTOR;
    int exc = 0;
    if (n > IO_RP06_SECTORS - lba) { /* runs off the end of the pack */
        d->er1 |= IO_RPER1_AOE;
        n = IO_RP06_SECTORS - lba;
        bytes = n * IO_SECTOR;
        exc = 1;
    }
    if (d->fn == F_WRITE || d->fn == F_WRITEH) {
        if (d->disk.readonly) {
            error(d, IO_RPER1_WLE);
            ch->done(ch->mba, 1);
            return;
        }
        uint32_t got = ch->from_mem(ch->mba, d->buf, bytes);
        uint32_t ns = (got + IO_SECTOR - 1) / IO_SECTOR;
        memset(d->buf + got, 0, ns * IO_SECTOR - got);
        if (ns && io_disk_write(&d->disk, lba, d->buf, ns) < 0) {
            d->er1 |= IO_RPER1_PAR;
            exc = 1;
        }
        d->sectors_written += ns;
        n = ns;
    } else if (n) {
        if (io_disk_read(&d->disk, lba, d->buf, n) < 0) {
            d->er1 |= IO_RPER1_PAR;
            exc = 1;
        } else if (d->fn == F_WCHK) {
            ch->check(ch->mba, d->buf, bytes);
        } else {
            ch->to_mem(ch->mba, d->buf, bytes);
        }
        d->sectors_read += n;
    }
    /* the disk address moves past the sectors transferred */
    uint32_t next = lba + n;
    if (next >= IO_RP06_SECTORS)
        d->ds |= IO_RPDS_LST;
    if (next > IO_RP06_SECTORS - 1)
        next = IO_RP06_SECTORS - 1;
    d->da = (uint16_t)((next / IO_RP06_SEC % IO_RP06_TRK) << 8 | next % IO_RP06_SEC);
    d->dc = d->cyl = (uint16_t)(next / (IO_RP06_SEC * IO_RP06_TRK));
    if (exc)
        attention(d);
    ch->done(ch->mba, exc);
}

static void fire(void *ctx, uint64_t due)
{
    (void)due;
    struct io_rp *d = ctx;
    int fn = d->fn;
    d->ds &= ~IO_RPDS_PIP;
    switch (fn) {
    case F_OFFSET: d->ds |= IO_RPDS_OM; d->fn = -1; attention(d); break;
    case F_RETURN: d->ds &= ~IO_RPDS_OM; d->fn = -1; attention(d); break;
    case F_RECAL: d->cyl = d->dc = 0; d->fn = -1; attention(d); break;
    case F_SEEK: case F_SEARCH: d->cyl = d->dc; d->fn = -1; attention(d); break;
    default:
        if (fn < 0)
            return;
        transfer(d);
        d->fn = -1;
        break;
    }
}

/* ---- the MASSBUS side ---- */

static uint16_t rd(void *ctx, unsigned reg)
{
    struct io_rp *d = ctx;
    switch (reg) {
    case R_CS1: return (uint16_t)((d->cs1 & CS1_FN) | CS1_DVA | (d->fn >= 0 ? CS1_GO : 0));
    case R_DS: return status(d);
    case R_ER1: return d->er1;
    case R_MR: return d->mr;
    case R_DA: return d->da;
    case R_DT: return DT_RP06;
    case R_LA: return (uint16_t)((now(d) / IO_RP_SECTOR_CYCLES % IO_RP06_SEC) << 6);
    case R_SN: return (uint16_t)(020 | (d->unit + 1));
    case R_OF: return d->of;
    case R_DC: return d->dc;
    case R_CC: return d->cyl;
    case R_ER2: return d->er2;
    case R_ER3: return d->er3;
    case R_EC1: return d->ec1;
    case R_EC2: return d->ec2;
    default:
        error(d, IO_RPER1_ILR);
        return 0;
    }
}

static enum io_mb_result wr(void *ctx, unsigned reg, uint16_t v)
{
    struct io_rp *d = ctx;
    if (d->fn >= 0) { /* busy: registers are refused */
        error(d, IO_RPER1_RMR);
        return IO_MB_OK;
    }
    d->hr = v;
    switch (reg) {
    case R_CS1:
        d->cs1 = v & CS1_FN;
        return (v & CS1_GO) ? go(d) : IO_MB_OK;
    case R_MR: d->mr = v; break;
    case R_DA: d->da = v & (uint16_t)~DA_MBZ; break;
    case R_OF: d->of = v & (uint16_t)~OF_MBZ; break;
    case R_DC: d->dc = v & (uint16_t)~DC_MBZ; break;
    case R_DS: case R_ER1: case R_DT: case R_LA: case R_SN: case R_CC:
    case R_ER2: case R_ER3: case R_EC1: case R_EC2:
        break; /* read only */
    default:
        error(d, IO_RPER1_ILR);
        break;
    }
    return IO_MB_OK;
}

static int ata(void *ctx) { return (((struct io_rp *)ctx)->ds & IO_RPDS_ATA) != 0; }
static void clear_ata(void *ctx) { ((struct io_rp *)ctx)->ds &= ~IO_RPDS_ATA; }

static void init(void *ctx)
{
    struct io_rp *d = ctx;
    io_timer_cancel(&d->timer);
    d->fn = -1;
    d->cs1 = d->er1 = d->er2 = d->er3 = d->mr = d->da = d->dc = d->of = 0;
    d->ec1 = d->ec2 = d->hr = 0;
    d->ds &= IO_RPDS_VV;
}

const struct io_mb_drive_ops io_rp_ops = {
    .read = rd, .write = wr, .ata = ata, .clear_ata = clear_ata, .init = init};

void io_rp_init(struct io_rp *d, unsigned unit, struct io_events *ev,
                const struct io_mb_channel *ch)
{
    memset(d, 0, sizeof *d);
    d->unit = unit;
    d->ev = ev;
    d->ch = ch;
    d->fn = -1;
    io_disk_init(&d->disk);
    io_timer_init(ev, &d->timer, fire, d);
}

void io_rp_free(struct io_rp *d)
{
    io_timer_remove(&d->timer);
    io_disk_detach(&d->disk);
}

int io_rp_attach(struct io_rp *d, const char *path, int readonly, char *err, size_t errlen)
{
    if (io_disk_attach(&d->disk, path, IO_RP06_SECTORS, readonly, err, errlen) < 0)
        return -1;
    d->online = 1;
    d->ds &= ~(IO_RPDS_VV | IO_RPDS_OM);
    return 0;
}

void io_rp_detach(struct io_rp *d)
{
    init(d);
    io_disk_detach(&d->disk);
    d->online = 0;
    d->ds &= ~(IO_RPDS_VV | IO_RPDS_OM);
}
