/* The RH780 MASSBUS adapter (io_mba.h). */
#include "vax/io/io_mba.h"

#include <string.h>

#define CNF_W1C 0x00C00000u
#define CR_RD (IO_MBCR_IE | 0x8u)          /* IE, maintenance */
#define SR_RD 0xE08F7FFFu
#define SR_W1C 0x608F7FFFu
#define SR_ABORTS 0x00000FFFu              /* errors that abort a transfer */
#define SR_INTR 0x000F7000u                /* changes that interrupt */
#define VA_MASK 0x0001FFFFu
#define DR_WR 0xFFC00000u
#define MAP_VALID 0x80000000u
#define MAP_PFN 0x001FFFFFu

enum { R_CNF, R_CR, R_SR, R_VA, R_BC, R_DR, R_SMR, R_CMD };

static int any_ata(const struct io_mba *a)
{
    for (unsigned d = 0; d < IO_MB_DRIVES; d++)
        if (a->ops[d] && a->ops[d]->ata(a->drv[d]))
            return 1;
    return 0;
}

static void raise(struct io_mba *a)
{
    if (!a->irq_pending) {
        a->irq_pending = 1;
        io_irq_set(&a->irq, 1);
    }
}

static void drop(struct io_mba *a)
{
    if (a->irq_pending) {
        a->irq_pending = 0;
        io_irq_set(&a->irq, 0);
    }
}

/* Sets status bits: an abort condition ends the transfer, and a change
 * that interrupts does so while no transfer is busy. */
static void sr_set(struct io_mba *a, uint32_t set)
{
    if (set & SR_ABORTS)
        set |= IO_MBSR_DTCMP | IO_MBSR_DTABT;
    if (set & (IO_MBSR_DTCMP | IO_MBSR_DTABT))
        a->sr &= ~IO_MBSR_DTBUSY;
    a->sr |= set;
    if ((set & SR_INTR) && (a->cr & IO_MBCR_IE) && !(a->sr & IO_MBSR_DTBUSY))
        raise(a);
}

/* ---- the data channel ---- */

static uint32_t ch_count(void *ctx)
{
    const struct io_mba *a = ctx;
    return 0x10000u - (a->bc & 0xFFFF);
}

/* Translates the VA through the map: 0 and the physical address, or -1
 * after recording an invalid map entry. */
static int map(struct io_mba *a, uint32_t va, uint32_t *pa)
{
    uint32_t e = a->map[(va >> 9) & 0xFF];
    a->smr = e;
    if (!(e & MAP_VALID)) {
        sr_set(a, IO_MBSR_INVMAP);
        return -1;
    }
    *pa = (e & MAP_PFN) << 9 | (va & 0x1FF);
    return 0;
}

/* Moves n bytes page by page: dir 0 into memory, 1 out of memory, 2
 * compare; returns the bytes done. */
static uint32_t move(struct io_mba *a, uint8_t *buf, uint32_t n, int dir)
{
    uint32_t done = 0, limit = ch_count(a);
    if (n > limit)
        n = limit;
    while (done < n) {
        uint32_t va = (a->va + done) & VA_MASK, pa;
        if (map(a, va, &pa) < 0)
            break;
        uint32_t chunk = 512 - (va & 0x1FF);
        if (chunk > n - done)
            chunk = n - done;
        int rc;
        if (dir == 0) {
            rc = a->mem->write(a->mem->ctx, pa, buf + done, chunk);
        } else if (dir == 1) {
            rc = a->mem->read(a->mem->ctx, pa, buf + done, chunk);
        } else {
            uint8_t tmp[512];
            rc = a->mem->read(a->mem->ctx, pa, tmp, chunk);
            if (rc == 0) {
                uint32_t i = 0;
                while (i < chunk && tmp[i] == buf[done + i])
                    i++;
                if (i < chunk) { /* the byte lane of the first mismatch */
                    done += i;
                    sr_set(a, ((va + i) & 1) ? IO_MBSR_WCKUP : IO_MBSR_WCKLWR);
                    break;
                }
            }
        }
        if (rc < 0) {
            sr_set(a, IO_MBSR_RDTIMO); /* non-existent memory */
            break;
        }
        done += chunk;
    }
    a->va = (a->va + done) & VA_MASK;
    a->bc = (a->bc + done) & 0xFFFF;
    a->bytes += done;
    return done;
}

static uint32_t ch_to_mem(void *ctx, const uint8_t *buf, uint32_t n)
{
    return move(ctx, (uint8_t *)buf, n, 0);
}

static uint32_t ch_from_mem(void *ctx, uint8_t *buf, uint32_t n) { return move(ctx, buf, n, 1); }

static uint32_t ch_check(void *ctx, const uint8_t *buf, uint32_t n)
{
    return move(ctx, (uint8_t *)buf, n, 2);
}

static void ch_done(void *ctx, int exception)
{
    struct io_mba *a = ctx;
    if (!(a->sr & IO_MBSR_DTBUSY))
        return; /* no transfer (an abort or init already ended it) */
    sr_set(a, exception ? IO_MBSR_MBEXC : 0);
    sr_set(a, IO_MBSR_DTCMP);
}

/* SR<ATTN> is the MASSBUS attention line itself (read live from the
 * drives); its rising interrupts while no transfer is busy. */
static void ch_attention(void *ctx)
{
    struct io_mba *a = ctx;
    if (any_ata(a) && (a->cr & IO_MBCR_IE) && !(a->sr & IO_MBSR_DTBUSY))
        raise(a);
}

/* ---- construction ---- */

void io_mba_init(struct io_mba *a, const struct io_memory *mem, struct io_irq irq)
{
    memset(a, 0, sizeof *a);
    a->mem = mem;
    a->irq = irq;
    a->channel = (struct io_mb_channel){
        .mba = a, .count = ch_count, .to_mem = ch_to_mem, .from_mem = ch_from_mem,
        .check = ch_check, .done = ch_done, .attention = ch_attention};
}

void io_mba_attach_drive(struct io_mba *a, unsigned n, const struct io_mb_drive_ops *ops,
                         void *drv)
{
    if (n < IO_MB_DRIVES) {
        a->ops[n] = ops;
        a->drv[n] = drv;
    }
}

void io_mba_reset(struct io_mba *a)
{
    a->cnf = 0;
    a->cr &= 0x8u; /* maintenance mode survives */
    a->sr = a->va = a->bc = a->dr = a->smr = 0;
    drop(a);
    for (unsigned d = 0; d < IO_MB_DRIVES; d++)
        if (a->ops[d])
            a->ops[d]->init(a->drv[d]);
}

/* ---- the nexus ---- */

static uint32_t internal_read(struct io_mba *a, unsigned r)
{
    switch (r) {
    case R_CNF: return (a->cnf & CNF_W1C) | IO_MBA_TYPE;
    case R_CR: return a->cr & CR_RD;
    case R_SR: return (a->sr | (any_ata(a) ? IO_MBSR_ATTN : 0)) & SR_RD;
    case R_VA: return a->va;
    case R_BC: return (a->bc & 0xFFFF) << 16 | (a->bc & 0xFFFF);
    case R_DR: return a->dr;
    case R_SMR: return a->smr;
    default: return 0; /* R_CMD */
    }
}

static void internal_write(struct io_mba *a, unsigned r, uint32_t v)
{
    switch (r) {
    case R_CNF: a->cnf &= ~(v & CNF_W1C); break;
    case R_CR:
        if (v & IO_MBCR_INIT)
            io_mba_reset(a);
        if ((v & IO_MBCR_ABORT) && (a->sr & IO_MBSR_DTBUSY)) {
            for (unsigned d = 0; d < IO_MB_DRIVES; d++)
                if (a->ops[d])
                    a->ops[d]->init(a->drv[d]);
            sr_set(a, IO_MBSR_DTABT);
        }
        if ((v & 0x8u) && (a->sr & IO_MBSR_DTBUSY)) { /* maintenance while busy */
            sr_set(a, IO_MBSR_PGE);
            v &= ~0x8u;
        }
        a->cr = v & CR_RD;
        if (!(a->cr & IO_MBCR_IE))
            drop(a);
        break;
    case R_SR: a->sr &= ~(v & SR_W1C); break;
    case R_VA:
        if (a->sr & IO_MBSR_DTBUSY)
            sr_set(a, IO_MBSR_PGE);
        else
            a->va = v & VA_MASK;
        break;
    case R_BC:
        if (a->sr & IO_MBSR_DTBUSY)
            sr_set(a, IO_MBSR_PGE);
        else
            a->bc = v & 0xFFFF;
        break;
    case R_DR: a->dr = (a->dr & ~DR_WR) | (v & DR_WR); break;
    default: break;
    }
}

static uint32_t drive_read(struct io_mba *a, unsigned d, unsigned reg)
{
    uint32_t v = 0;
    if (reg == IO_MB_AS) {
        for (unsigned i = 0; i < IO_MB_DRIVES; i++)
            if (a->ops[i] && a->ops[i]->ata(a->drv[i]))
                v |= 1u << i;
    } else if (a->ops[d]) {
        v = a->ops[d]->read(a->drv[d], reg);
    } else {
        sr_set(a, IO_MBSR_NED);
    }
    return (v & 0xFFFF) | (a->sr & 0xFFFF0000u);
}

static void drive_write(struct io_mba *a, unsigned d, unsigned reg, uint32_t v)
{
    if (reg == IO_MB_AS) {
        for (unsigned i = 0; i < IO_MB_DRIVES; i++)
            if (((v >> i) & 1) && a->ops[i])
                a->ops[i]->clear_ata(a->drv[i]);
        return;
    }
    if (!a->ops[d]) {
        sr_set(a, IO_MBSR_NED);
        return;
    }
    int xfer = reg == 0 && (v & 1) && (v & 0x3E) >= 0x28;
    if (xfer && (a->sr & IO_MBSR_DTBUSY)) { /* a second transfer while busy */
        sr_set(a, IO_MBSR_PGE);
        return;
    }
    enum io_mb_result r = a->ops[d]->write(a->drv[d], reg, (uint16_t)v);
    if (xfer && r == IO_MB_XFER) { /* the channel is the drive's until done */
        a->sr = (a->sr | IO_MBSR_DTBUSY) & ~SR_W1C;
        a->transfers++;
    }
}

static enum io_status nx_read(void *dev, uint32_t off, int width, uint32_t *val)
{
    struct io_mba *a = dev;
    if (width != 4 || (off & 3))
        return IO_ERRCONF;
    switch ((off >> 10) & 3) {
    case 0:
        if (((off >> 2) & 0xFF) > R_CMD)
            return IO_TIMEOUT;
        *val = internal_read(a, (off >> 2) & 0xFF);
        return IO_OK;
    case 1: *val = drive_read(a, (off >> 7) & 7, (off >> 2) & 0x1F); return IO_OK;
    case 2: *val = a->map[(off >> 2) & 0xFF]; return IO_OK;
    default: return IO_TIMEOUT;
    }
}

static enum io_status nx_write(void *dev, uint32_t off, int width, uint32_t val)
{
    struct io_mba *a = dev;
    if (width != 4 || (off & 3))
        return IO_ERRCONF;
    switch ((off >> 10) & 3) {
    case 0:
        if (((off >> 2) & 0xFF) > R_CMD)
            return IO_TIMEOUT;
        internal_write(a, (off >> 2) & 0xFF, val);
        return IO_OK;
    case 1: drive_write(a, (off >> 7) & 7, (off >> 2) & 0x1F, val); return IO_OK;
    case 2: a->map[(off >> 2) & 0xFF] = val & (MAP_VALID | MAP_PFN); return IO_OK;
    default: return IO_TIMEOUT;
    }
}

static void nx_ack(void *dev, int ipl)
{
    (void)ipl;
    drop(dev);
}

const struct io_nexus_ops io_mba_nexus_ops = {
    .read = nx_read, .write = nx_write, .int_ack = nx_ack};
