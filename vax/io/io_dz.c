/* The DZ11 (io_dz.h). */
#include "vax/io/io_dz.h"

#include <string.h>

#define CSR_RW (IO_DZCSR_MAINT | IO_DZCSR_MSE | IO_DZCSR_RIE | IO_DZCSR_SAE | IO_DZCSR_TIE)
#define CSR_TLINE(l) ((uint16_t)((l) << 8))
#define SILO_ALARM 16

/* Baud rates of the speed codes, times ten (134.5 baud). */
static const uint32_t baud10[16] = {
    500, 750, 1100, 1345, 1500, 3000, 6000, 12000,
    18000, 20000, 24000, 36000, 48000, 72000, 96000, 192000};

uint64_t io_dz_char_cycles(uint16_t lpr)
{
    unsigned bits = 1 + 5 + ((lpr >> 3) & 3) + ((lpr & 0100) ? 1 : 0) + ((lpr & 040) ? 2 : 1);
    return (uint64_t)bits * IO_CYCLES_PER_SEC * 10 / baud10[(lpr >> 8) & 017];
}

static void update_ints(struct io_dz *dz)
{
    const struct io_unibus *b = dz->bus;
    uint16_t c = dz->csr;
    int rx = (c & IO_DZCSR_RIE) && ((c & IO_DZCSR_SAE) ? (c & IO_DZCSR_SA) : (c & IO_DZCSR_RDONE));
    int tx = (c & IO_DZCSR_TIE) && (c & IO_DZCSR_TRDY);
    if (dz->rx_src >= 0)
        b->request(b->uba, (unsigned)dz->rx_src, rx);
    if (dz->tx_src >= 0)
        b->request(b->uba, (unsigned)dz->tx_src, tx);
}

/* The scanner: offer TRDY for the next enabled, idle line. */
static void scan(struct io_dz *dz)
{
    if (!(dz->csr & IO_DZCSR_MSE) || (dz->csr & IO_DZCSR_TRDY))
        return;
    for (unsigned i = 1; i <= IO_DZ_LINES; i++) {
        unsigned l = (dz->scan + i) % IO_DZ_LINES;
        if ((dz->tcr >> l) & 1 && !dz->line[l].busy) {
            dz->scan = l;
            dz->csr = (uint16_t)((dz->csr & ~03400u) | CSR_TLINE(l) | IO_DZCSR_TRDY);
            return;
        }
    }
}

static void arm(struct io_dz *dz)
{
    uint64_t next = UINT64_MAX;
    for (unsigned l = 0; l < IO_DZ_LINES; l++)
        if (dz->line[l].busy && dz->line[l].done_at < next)
            next = dz->line[l].done_at;
    if (next == UINT64_MAX)
        io_timer_cancel(&dz->timer);
    else
        io_timer_at(&dz->timer, next);
}

/* Characters leave their lines when their time is up. */
static void fire(void *ctx, uint64_t due)
{
    struct io_dz *dz = ctx;
    for (unsigned l = 0; l < IO_DZ_LINES; l++) {
        struct io_dz_line *ln = &dz->line[l];
        if (ln->busy && ln->done_at <= due) {
            ln->busy = 0;
            dz->chars_out++;
            if (dz->output)
                dz->output(dz->output_ctx, l, ln->tx, ln->done_at);
        }
    }
    scan(dz);
    arm(dz);
    update_ints(dz);
}

static void master_clear(struct io_dz *dz)
{
    dz->csr = 0;
    dz->tcr = dz->brk = 0;
    dz->silo_head = dz->silo_n = dz->sa_count = 0;
    dz->overrun = 0;
    for (unsigned l = 0; l < IO_DZ_LINES; l++) {
        dz->line[l].lpr = 0;
        dz->line[l].busy = 0;
    }
    io_timer_cancel(&dz->timer);
}

static uint16_t rbuf_read(struct io_dz *dz)
{
    uint16_t v = 0;
    if (dz->silo_n) {
        v = dz->silo[dz->silo_head];
        dz->silo_head = (dz->silo_head + 1) % IO_DZ_SILO;
        dz->silo_n--;
    }
    dz->sa_count = 0;
    dz->csr &= (uint16_t)~IO_DZCSR_SA;
    if (!dz->silo_n)
        dz->csr &= (uint16_t)~IO_DZCSR_RDONE;
    return v;
}

static void tdr_write(struct io_dz *dz, uint8_t c)
{
    if (!(dz->csr & IO_DZCSR_TRDY))
        return; /* nobody offered a line: the character is lost */
    unsigned l = (dz->csr >> 8) & 7;
    struct io_dz_line *ln = &dz->line[l];
    ln->tx = c;
    ln->busy = 1;
    ln->done_at = io_now(dz->bus->ev) + io_dz_char_cycles(ln->lpr);
    dz->csr &= (uint16_t)~IO_DZCSR_TRDY;
    scan(dz);
    arm(dz);
}

static enum io_status rd(void *ctx, uint32_t ua, uint16_t *val)
{
    struct io_dz *dz = ctx;
    switch ((ua - dz->base) >> 1 & 3) {
    case 0: *val = dz->csr; break;
    case 1: *val = rbuf_read(dz); break;
    case 2: *val = dz->tcr; break;
    default: {
        uint16_t co = 0, ri = 0;
        for (unsigned l = 0; l < IO_DZ_LINES; l++) {
            co |= (uint16_t)((dz->line[l].carrier ? 1u : 0u) << l);
            ri |= (uint16_t)((dz->line[l].ring ? 1u : 0u) << l);
        }
        *val = (uint16_t)(co << 8 | ri);
        break;
    }
    }
    update_ints(dz);
    return IO_OK;
}

static enum io_status wr(void *ctx, uint32_t ua, int width, uint16_t v)
{
    struct io_dz *dz = ctx;
    int hi = width == 1 && (ua & 1), lo = width == 1 && !(ua & 1);
    switch ((ua - dz->base) >> 1 & 3) {
    case 0: {
        uint16_t nv = io_merge16(dz->csr, ua, width, v);
        if (nv & IO_DZCSR_CLR) {
            master_clear(dz);
            break;
        }
        dz->csr = (uint16_t)((dz->csr & ~CSR_RW) | (nv & CSR_RW));
        if (!(dz->csr & IO_DZCSR_MSE))
            dz->csr &= (uint16_t)~(IO_DZCSR_TRDY | IO_DZCSR_RDONE | IO_DZCSR_SA);
        else if (dz->silo_n)
            dz->csr |= IO_DZCSR_RDONE;
        scan(dz);
        break;
    }
    case 1:
        if (!hi) { /* LPR: the line's format and speed */
            uint16_t lpr = lo ? (uint16_t)(v & 0xFF) : v;
            dz->line[lpr & 7].lpr = lpr;
        }
        break;
    case 2: {
        dz->tcr = io_merge16(dz->tcr, ua, width, v);
        unsigned l = (dz->csr >> 8) & 7;
        if ((dz->csr & IO_DZCSR_TRDY) && !((dz->tcr >> l) & 1)) {
            dz->csr &= (uint16_t)~IO_DZCSR_TRDY; /* its line was disabled */
        }
        scan(dz);
        break;
    }
    default:
        if (!hi)
            tdr_write(dz, (uint8_t)v);
        if (!lo)
            dz->brk = hi ? (uint16_t)(v & 0xFF) : (uint16_t)(v >> 8);
        break;
    }
    update_ints(dz);
    return IO_OK;
}

static void init(void *ctx)
{
    struct io_dz *dz = ctx;
    master_clear(dz);
    update_ints(dz);
}

const struct io_unibus_dev_ops io_dz_ops = {.read = rd, .write = wr, .init = init};

void io_dz_init(struct io_dz *dz, uint32_t base, const struct io_unibus *bus, int rx_src,
                int tx_src)
{
    memset(dz, 0, sizeof *dz);
    dz->base = base;
    dz->bus = bus;
    dz->rx_src = rx_src;
    dz->tx_src = tx_src;
    io_timer_init(bus->ev, &dz->timer, fire, dz);
    master_clear(dz);
}

void io_dz_free(struct io_dz *dz) { io_timer_remove(&dz->timer); }

void io_dz_set_output(struct io_dz *dz, io_dz_output_fn fn, void *ctx)
{
    dz->output = fn;
    dz->output_ctx = ctx;
}

int io_dz_receive(struct io_dz *dz, unsigned line, uint8_t c)
{
    if (line >= IO_DZ_LINES || !(dz->csr & IO_DZCSR_MSE) ||
        !(dz->line[line].lpr & IO_DZLPR_RXON)) {
        dz->chars_lost++;
        return -1;
    }
    if (dz->silo_n == IO_DZ_SILO) {
        dz->overrun = 1;
        dz->chars_lost++;
        return -1;
    }
    unsigned bits = 5 + ((dz->line[line].lpr >> 3) & 3);
    uint16_t e = (uint16_t)(IO_DZRBUF_DVAL | line << 8 | (c & ((1u << bits) - 1)));
    if (dz->overrun)
        e |= IO_DZRBUF_OVRN;
    dz->overrun = 0;
    dz->silo[(dz->silo_head + dz->silo_n) % IO_DZ_SILO] = e;
    dz->silo_n++;
    dz->chars_in++;
    dz->csr |= IO_DZCSR_RDONE;
    if ((dz->csr & IO_DZCSR_SAE) && ++dz->sa_count >= SILO_ALARM)
        dz->csr |= IO_DZCSR_SA;
    update_ints(dz);
    return 0;
}

void io_dz_set_carrier(struct io_dz *dz, unsigned line, int on)
{
    if (line < IO_DZ_LINES)
        dz->line[line].carrier = on != 0;
}

int io_dz_dtr(const struct io_dz *dz, unsigned line)
{
    return line < IO_DZ_LINES && ((dz->tcr >> (8 + line)) & 1);
}
