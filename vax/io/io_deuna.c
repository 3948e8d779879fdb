/* The DEUNA (io_deuna.h). */
#include "vax/io/io_deuna.h"

#include <string.h>

#include "microcode/le.h"

#define PCSR0_INTS 0xFF00u
#define CMD_MASK 0x000Fu
#define RESERVED_CMDS 0x7EC0u   /* 6, 7, 9-14: no-ops with DNI */
#define UDB_WORDS 6
#define STATUS_MCAST 10u        /* READ STATUS words 2 and 3 */
#define STATUS_COUNTERS 32u

static const uint8_t broadcast[IO_ETHER_ADDR] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

/* ---- the IEEE 802.3 CRC, four bits at a time ---- */

uint32_t io_ether_crc(const uint8_t *p, uint32_t n)
{
    static const uint32_t nib[16] = {
        0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
        0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
        0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};
    uint32_t c = 0xFFFFFFFFu;
    for (uint32_t i = 0; i < n; i++) {
        c ^= p[i];
        c = (c >> 4) ^ nib[c & 15];
        c = (c >> 4) ^ nib[c & 15];
    }
    return ~c;
}

/* ---- counters ---- */

static int wide(unsigned w)
{
    return w == IO_DE_C_RX_FRAMES || w == IO_DE_C_RX_MFRAMES || w == IO_DE_C_RX_BYTES ||
           w == IO_DE_C_RX_MBYTES || (w >= IO_DE_C_TX_FRAMES && w <= IO_DE_C_TX_MBYTES);
}

static void count(struct io_deuna *d, unsigned w, uint32_t add)
{
    uint32_t max = wide(w) ? 0xFFFFFFFFu : 0xFFFFu;
    d->c32[w] = max - d->c32[w] < add ? max : d->c32[w] + add;
}

void io_deuna_counters(const struct io_deuna *d, uint16_t out[IO_DEUNA_COUNTERS])
{
    memset(out, 0, IO_DEUNA_COUNTERS * sizeof out[0]);
    out[IO_DE_C_LENGTH] = IO_DEUNA_COUNTERS * 2;
    uint64_t secs = (io_now(d->bus->ev) - d->zeroed_at) / IO_CYCLES_PER_SEC;
    out[IO_DE_C_SECONDS] = (uint16_t)(secs > 0xFFFF ? 0xFFFF : secs);
    for (unsigned w = 2; w < IO_DEUNA_COUNTERS; w++) {
        if (wide(w)) {
            out[w] = (uint16_t)d->c32[w];
            out[w + 1] = (uint16_t)(d->c32[w] >> 16);
            w++;
        } else if (w != IO_DE_C_SECONDS) {
            out[w] = (uint16_t)d->c32[w];
        }
    }
}

static void counters_clear(struct io_deuna *d)
{
    memset(d->c32, 0, sizeof d->c32);
    d->zeroed_at = io_now(d->bus->ev);
}

/* ---- interrupts ---- */

/* INTR follows the interrupt bits; the adapter hears of every new bit
 * while INTE is set, and of the request going away. */
static void update_irq(struct io_deuna *d, int new_bits)
{
    int intr = (d->pcsr0 & PCSR0_INTS) != 0;
    d->pcsr0 = (uint16_t)(intr ? d->pcsr0 | IO_DE_INTR : d->pcsr0 & ~IO_DE_INTR);
    int want = intr && (d->pcsr0 & IO_DE_INTE);
    if (d->src >= 0 && ((want && (new_bits || !d->irq)) || (!want && d->irq)))
        d->bus->request(d->bus->uba, (unsigned)d->src, want);
    d->irq = want;
}

static void set_bits(struct io_deuna *d, uint16_t bits)
{
    uint16_t fresh = (uint16_t)(bits & ~d->pcsr0 & PCSR0_INTS);
    d->pcsr0 |= bits;
    update_irq(d, fresh != 0);
}

/* ---- DMA through the adapter's map ---- */

static int dma_rd(struct io_deuna *d, uint32_t ua, void *buf, uint32_t n)
{
    return d->bus->dma_read(d->bus->uba, ua & 0x3FFFFu, buf, n) == n ? 0 : -1;
}

static int dma_wr(struct io_deuna *d, uint32_t ua, const void *buf, uint32_t n)
{
    return d->bus->dma_write(d->bus->uba, ua & 0x3FFFFu, buf, n) == n ? 0 : -1;
}

/* ---- reset ---- */

static void reset(struct io_deuna *d, int keep_inte)
{
    io_timer_cancel(&d->cmd_timer);
    io_timer_cancel(&d->tx_timer);
    d->pcsr0 = (uint16_t)(keep_inte ? d->pcsr0 & IO_DE_INTE : 0);
    d->pcsr2 = d->pcsr3 = 0;
    d->state = IO_DE_STATE_RESET;
    d->resetting = 1;
    d->cmd = d->cmd_next = -1;
    d->tx_busy = 0;
    memcpy(d->addr, d->rom_addr, sizeof d->addr);
    memset(d->mcast, 0, sizeof d->mcast);
    memset(d->load_server, 0, sizeof d->load_server);
    d->nmcast = 0;
    d->mode = d->status = 0;
    d->pcbb = d->tdrb = d->rdrb = 0;
    d->telen = d->relen = d->trlen = d->rrlen = d->txnext = d->rxnext = 0;
    d->rx_suspended = 0;
    counters_clear(d);
    update_irq(d, 0);
    io_timer_after(&d->cmd_timer, IO_DEUNA_RESET_CYCLES);
}

/* ---- rings ---- */

static uint32_t entry_ua(uint32_t base, unsigned len_words, unsigned i)
{
    return (base + 2u * len_words * i) & 0x3FFFFu;
}

static void ring_error(struct io_deuna *d, uint16_t which)
{
    if (d->status & IO_DE_ST_ERRS)
        d->status |= IO_DE_ST_MERR;
    d->status |= IO_DE_ST_ERRS | IO_DE_ST_TMOT | which;
    d->ring_errors++;
    set_bits(d, IO_DE_SERI);
}

struct entry {
    uint32_t ua;
    uint16_t w[4];
};

static int entry_read(struct io_deuna *d, uint32_t ua, struct entry *e)
{
    uint8_t b[8];
    e->ua = ua;
    if (dma_rd(d, ua, b, 8) < 0)
        return -1;
    for (int i = 0; i < 4; i++)
        e->w[i] = le_get16(b + 2 * i);
    return 0;
}

/* Words 2 and 3 back to the host. */
static int entry_write(struct io_deuna *d, const struct entry *e)
{
    uint8_t b[4];
    le_put16(b, e->w[2]);
    le_put16(b + 2, e->w[3]);
    return dma_wr(d, e->ua + 4, b, 4);
}

static uint32_t seg_ua(const struct entry *e) { return (uint32_t)e->w[1] | (e->w[2] & 3u) << 16; }

/* The receive filter; `own`: for MTCH, where promiscuity does not count. */
static int accepts(const struct io_deuna *d, const uint8_t *dst, int own)
{
    if (!own && (d->mode & IO_DE_MOD_PROM))
        return 1;
    if (!memcmp(dst, d->addr, IO_ETHER_ADDR))
        return 1;
    if (!(dst[0] & 1))
        return 0;
    if (!memcmp(dst, broadcast, IO_ETHER_ADDR) || (d->mode & IO_DE_MOD_ENAL))
        return 1;
    for (unsigned i = 0; i < d->nmcast; i++)
        if (!memcmp(dst, d->mcast[i], IO_ETHER_ADDR))
            return 1;
    return 0;
}

/* ---- receive ---- */

static void rx_lost(struct io_deuna *d)
{
    count(d, IO_DE_C_LOST_USERBUF, 1);
    d->rx_nobuf++;
    d->rx_suspended = 1;
    set_bits(d, IO_DE_RCBI);
}

/* A frame (padded, CRC appended: n bytes) into the owned entries from
 * rxnext on.  Each entry is returned when the next one is secured or the
 * frame ends, so the last one filled can still take ENP and an error. */
static enum io_ether_rx rx_store(struct io_deuna *d, const uint8_t *f, uint32_t n)
{
    struct entry prev = {0}, e;
    int have_prev = 0;
    uint32_t pos = 0;
    unsigned idx = d->rxnext;
    enum io_ether_rx rc = IO_ETHER_RX_OK;
    for (unsigned k = 0;; k++) {
        if (k == d->rrlen) { /* every entry and still more frame: too long */
            prev.w[2] |= IO_DE_ERRS | IO_DE_ENP;
            prev.w[3] |= IO_DE_BUFL;
            count(d, IO_DE_C_RX_ERRORS, 1);
            rc = IO_ETHER_RX_ERROR;
            break;
        }
        if (entry_read(d, entry_ua(d->rdrb, d->relen, idx), &e) < 0) {
            count(d, IO_DE_C_LOST_SYSBUF, 1);
            ring_error(d, IO_DE_ST_RRNG);
            d->rx_errors++;
            if (have_prev && entry_write(d, &prev) < 0)
                ring_error(d, IO_DE_ST_RRNG);
            d->rxnext = idx;
            return IO_ETHER_RX_ERROR;
        }
        if (!(e.w[2] & IO_DE_OWN)) {
            if (have_prev) { /* the frame does not fit the buffers there are */
                prev.w[2] |= IO_DE_ERRS | IO_DE_ENP;
                prev.w[3] |= IO_DE_BUFL;
                if (entry_write(d, &prev) < 0)
                    ring_error(d, IO_DE_ST_RRNG);
                d->rxnext = idx;
                set_bits(d, IO_DE_RXI);
            }
            rx_lost(d);
            return IO_ETHER_RX_NOBUF;
        }
        if (have_prev && entry_write(d, &prev) < 0) {
            ring_error(d, IO_DE_ST_RRNG);
            d->rxnext = idx;
            return IO_ETHER_RX_ERROR;
        }
        e.w[2] = (uint16_t)(e.w[2] & ~(IO_DE_OWN | IO_DE_ERRS | 0x3C00u | IO_DE_STP | IO_DE_ENP));
        e.w[3] = 0;
        if (pos == 0)
            e.w[2] |= IO_DE_STP;
        uint32_t take = n - pos < e.w[0] ? n - pos : e.w[0];
        int chain_off = (d->mode & IO_DE_MOD_DRDC) && take < n - pos;
        idx = (idx + 1) % d->rrlen;
        if (take && dma_wr(d, seg_ua(&e), f + pos, take) < 0) {
            e.w[2] |= IO_DE_ERRS | IO_DE_ENP;
            e.w[3] |= IO_DE_UBTO;
            count(d, IO_DE_C_RX_ERRORS, 1);
            prev = e;
            rc = IO_ETHER_RX_ERROR;
            break;
        }
        pos += take;
        prev = e;
        have_prev = 1;
        if (chain_off) { /* DRDC: the rest of the frame is lost */
            prev.w[2] |= IO_DE_ERRS | IO_DE_OFLO | IO_DE_ENP;
            prev.w[3] |= IO_DE_NCHN | (uint16_t)(n & IO_DE_MLEN);
            count(d, IO_DE_C_RX_ERRORS, 1);
            rc = IO_ETHER_RX_ERROR;
            break;
        }
        if (pos == n) {
            prev.w[2] |= IO_DE_ENP;
            prev.w[3] |= (uint16_t)(n & IO_DE_MLEN);
            break;
        }
    }
    if (entry_write(d, &prev) < 0)
        ring_error(d, IO_DE_ST_RRNG);
    d->rxnext = idx;
    set_bits(d, IO_DE_RXI);
    if (rc != IO_ETHER_RX_OK)
        d->rx_errors++;
    return rc;
}

static enum io_ether_rx rx_frame(struct io_deuna *d, const uint8_t *frame, uint32_t len,
                                 int loop)
{
    if (d->state != IO_DE_STATE_RUNNING || d->rrlen == 0) {
        d->rx_stopped++;
        return IO_ETHER_RX_STOPPED;
    }
    if (len < IO_ETHER_HDR || len > IO_ETHER_MAX) { /* not a frame: the wire's error */
        count(d, IO_DE_C_RX_ERRORS, 1);
        d->rx_errors++;
        return IO_ETHER_RX_ERROR;
    }
    if (!loop && !accepts(d, frame, 0)) {
        d->rx_filtered++;
        return IO_ETHER_RX_FILTERED;
    }
    if (d->rx_suspended) {
        rx_lost(d);
        return IO_ETHER_RX_NOBUF;
    }
    uint32_t n = len < IO_ETHER_MIN ? IO_ETHER_MIN : len;
    memcpy(d->rx_buf, frame, len);
    memset(d->rx_buf + len, 0, n - len);
    le_put32(d->rx_buf + n, io_ether_crc(d->rx_buf, n));
    enum io_ether_rx rc = rx_store(d, d->rx_buf, n + IO_ETHER_FCS);
    if (rc == IO_ETHER_RX_OK) {
        d->frames_in++;
        count(d, IO_DE_C_RX_FRAMES, 1);
        count(d, IO_DE_C_RX_BYTES, n - IO_ETHER_HDR);
        if (frame[0] & 1) {
            count(d, IO_DE_C_RX_MFRAMES, 1);
            count(d, IO_DE_C_RX_MBYTES, n - IO_ETHER_HDR);
        }
    }
    return rc;
}

enum io_ether_rx io_deuna_receive(struct io_deuna *d, const uint8_t *frame, uint32_t len)
{
    return rx_frame(d, frame, len, 0);
}

static enum io_ether_rx station_receive(void *ctx, const uint8_t *frame, uint32_t len)
{
    return rx_frame(ctx, frame, len, 0);
}

struct io_ether_station io_deuna_station(struct io_deuna *d)
{
    return (struct io_ether_station){.ctx = d, .receive = station_receive};
}

/* ---- transmit ---- */

/* Gathers the next frame from the transmit ring and puts it on the wire
 * (or finds an error); the entries go back when its last bit has left. */
static void tx_poll(struct io_deuna *d, uint64_t now)
{
    if (d->state != IO_DE_STATE_RUNNING || d->tx_busy || d->trlen == 0)
        return;
    struct entry e;
    unsigned idx = d->txnext, k;
    uint32_t len = 0;
    uint16_t err = 0;
    int end = 0;
    for (k = 0; k < d->trlen && !end; k++) {
        if (entry_read(d, entry_ua(d->tdrb, d->telen, idx), &e) < 0) {
            ring_error(d, IO_DE_ST_TRNG);
            return;
        }
        if (!(e.w[2] & IO_DE_OWN))
            return; /* nothing more, or a frame not complete yet: wait */
        uint32_t n = e.w[0];
        if (len + n > IO_ETHER_MAX) {
            err |= IO_DE_BUFL;
            n = len < IO_ETHER_MAX ? IO_ETHER_MAX - len : 0;
        }
        if (n && !(err & IO_DE_UBTO) && dma_rd(d, seg_ua(&e), d->tx_frame + len, n) < 0)
            err |= IO_DE_UBTO;
        len += n;
        end = (e.w[2] & IO_DE_ENP) != 0;
        idx = (idx + 1) % d->trlen;
    }
    if (!end) /* the whole ring and no end of packet */
        err |= IO_DE_BUFL;
    d->tx_first = d->txnext;
    d->tx_count = k;
    d->tx_flags = 0;
    d->tx_self = 0;
    d->tx_len = len;
    uint64_t done = now;
    if (len < IO_ETHER_MIN) {
        if ((d->mode & IO_DE_MOD_TPAD) && len >= IO_ETHER_HDR) {
            memset(d->tx_frame + len, 0, IO_ETHER_MIN - len);
            d->tx_len = len = IO_ETHER_MIN;
        } else {
            err |= IO_DE_BUFL;
        }
    }
    if (!err) {
        memcpy(d->tx_frame + IO_ETHER_ADDR, d->addr, IO_ETHER_ADDR);
        uint64_t t = io_ether_frame_cycles(len);
        if (d->mode & IO_DE_MOD_LOOP) {
            d->tx_self = 1;
            done = now + t;
        } else {
            done = d->wire.transmit ? d->wire.transmit(d->wire.ctx, d->tx_frame, len, now)
                                    : now + t;
            if (done > now + t) {
                d->tx_flags |= IO_DE_DEF;
                count(d, IO_DE_C_TX_DEFERRED, 1);
            }
            if (accepts(d, d->tx_frame, 1)) {
                if (d->mode & IO_DE_MOD_HDX)
                    d->tx_flags |= IO_DE_MTCH;
                else
                    d->tx_self = 1;
            }
        }
        d->frames_out++;
        count(d, IO_DE_C_TX_FRAMES, 1);
        count(d, IO_DE_C_TX_BYTES, len - IO_ETHER_HDR);
        if (d->tx_frame[0] & 1) {
            count(d, IO_DE_C_TX_MFRAMES, 1);
            count(d, IO_DE_C_TX_MBYTES, len - IO_ETHER_HDR);
        }
    } else {
        d->tx_flags |= IO_DE_ERRS;
        count(d, IO_DE_C_TX_ABORTED, 1);
    }
    d->tx_err = err;
    d->tx_busy = 1;
    io_timer_at(&d->tx_timer, done);
}

static void tx_done(void *ctx, uint64_t due)
{
    struct io_deuna *d = ctx;
    if (!d->tx_busy)
        return;
    d->tx_busy = 0;
    d->txnext = (d->tx_first + d->tx_count) % d->trlen;
    struct entry e;
    for (unsigned k = 0; k < d->tx_count; k++) {
        unsigned idx = (d->tx_first + k) % d->trlen;
        if (entry_read(d, entry_ua(d->tdrb, d->telen, idx), &e) < 0) {
            ring_error(d, IO_DE_ST_TRNG);
            return;
        }
        e.w[2] = (uint16_t)((e.w[2] & ~(IO_DE_OWN | IO_DE_ERRS | IO_DE_MTCH | 0x1C00u)) |
                            d->tx_flags);
        e.w[3] = d->tx_err;
        if (entry_write(d, &e) < 0) {
            ring_error(d, IO_DE_ST_TRNG);
            return;
        }
    }
    set_bits(d, IO_DE_TXI);
    if (d->tx_self)
        rx_frame(d, d->tx_frame, d->tx_len, 1);
    tx_poll(d, due);
}

/* ---- GET CMD: the port control block's function ---- */

static uint32_t udb_ua(const uint16_t *pcb) { return (uint32_t)pcb[1] | (pcb[2] & 3u) << 16; }

static int put_words(struct io_deuna *d, uint32_t ua, const uint16_t *w, unsigned n)
{
    uint8_t b[2 * IO_DEUNA_COUNTERS];
    for (unsigned i = 0; i < n; i++)
        le_put16(b + 2 * i, w[i]);
    return dma_wr(d, ua, b, 2 * n);
}

/* 0, or -1 for a port command error. */
static int function(struct io_deuna *d)
{
    uint8_t b[8];
    uint16_t pcb[4];
    if (dma_rd(d, d->pcbb, b, 8) < 0)
        return -1;
    for (int i = 0; i < 4; i++)
        pcb[i] = le_get16(b + 2 * i);
    if (pcb[0] & 0xFF00u)
        return -1;
    uint32_t udb = udb_ua(pcb);
    switch (pcb[0]) {
    case IO_DE_FC_NOOP:
        return 0;
    case IO_DE_FC_RDDEFAULT:
        return dma_wr(d, d->pcbb + 2, d->rom_addr, IO_ETHER_ADDR);
    case IO_DE_FC_RDPHYAD:
        return dma_wr(d, d->pcbb + 2, d->addr, IO_ETHER_ADDR);
    case IO_DE_FC_WTPHYAD:
        if (b[2] & 1) /* a multicast address cannot be the station's */
            return -1;
        memcpy(d->addr, b + 2, IO_ETHER_ADDR);
        return 0;
    case IO_DE_FC_RDSERAD:
        return dma_wr(d, d->pcbb + 2, d->load_server, IO_ETHER_ADDR);
    case IO_DE_FC_WTSERAD:
        memcpy(d->load_server, b + 2, IO_ETHER_ADDR);
        return 0;
    case IO_DE_FC_RDMULTI: {
        unsigned n = pcb[2] >> 8;
        if (n > IO_DEUNA_MCAST)
            return -1;
        return n ? dma_wr(d, udb, d->mcast, n * IO_ETHER_ADDR) : 0;
    }
    case IO_DE_FC_WTMULTI: {
        unsigned n = pcb[2] >> 8;
        uint8_t list[IO_DEUNA_MCAST][IO_ETHER_ADDR];
        if (n > IO_DEUNA_MCAST || (n && dma_rd(d, udb, list, n * IO_ETHER_ADDR) < 0))
            return -1;
        for (unsigned i = 0; i < n; i++)
            if (!(list[i][0] & 1))
                return -1; /* not a multicast address */
        memset(d->mcast, 0, sizeof d->mcast);
        memcpy(d->mcast, list, n * IO_ETHER_ADDR);
        d->nmcast = n;
        return 0;
    }
    case IO_DE_FC_RDRING: {
        if ((pcb[1] & 1) || (pcb[2] & 0xFCu))
            return -1;
        uint16_t u[UDB_WORDS] = {
            (uint16_t)(d->tdrb & 0xFFFE), (uint16_t)(d->telen << 8 | (d->tdrb >> 16 & 3)),
            (uint16_t)d->trlen, (uint16_t)(d->rdrb & 0xFFFE),
            (uint16_t)(d->relen << 8 | (d->rdrb >> 16 & 3)), (uint16_t)d->rrlen};
        return put_words(d, udb, u, UDB_WORDS);
    }
    case IO_DE_FC_WTRING: {
        uint8_t ub[2 * UDB_WORDS];
        uint16_t u[UDB_WORDS];
        if ((pcb[1] & 1) || (pcb[2] & 0xFCu) || d->state == IO_DE_STATE_RUNNING ||
            dma_rd(d, udb, ub, sizeof ub) < 0)
            return -1;
        for (int i = 0; i < UDB_WORDS; i++)
            u[i] = le_get16(ub + 2 * i);
        unsigned telen = u[1] >> 8, relen = u[4] >> 8;
        if ((u[0] & 1) || (u[1] & 0xFCu) || (u[3] & 1) || (u[4] & 0xFCu) || telen < 4 ||
            relen < 4 || u[2] < 1 || u[5] < 2)
            return -1;
        d->tdrb = (uint32_t)u[0] | (u[1] & 3u) << 16;
        d->rdrb = (uint32_t)u[3] | (u[4] & 3u) << 16;
        d->telen = telen;
        d->relen = relen;
        d->trlen = u[2];
        d->rrlen = u[5];
        d->txnext = d->rxnext = 0;
        return 0;
    }
    case IO_DE_FC_RDCNTS:
    case IO_DE_FC_RCCNTS: {
        uint16_t c[IO_DEUNA_COUNTERS];
        unsigned n = pcb[3] && pcb[3] < IO_DEUNA_COUNTERS ? pcb[3] : IO_DEUNA_COUNTERS;
        io_deuna_counters(d, c);
        if (put_words(d, udb, c, n) < 0)
            return -1;
        if (pcb[0] == IO_DE_FC_RCCNTS)
            counters_clear(d);
        return 0;
    }
    case IO_DE_FC_RDMODE:
        return put_words(d, d->pcbb + 2, &d->mode, 1);
    case IO_DE_FC_WTMODE:
        d->mode = pcb[1];
        return 0;
    case IO_DE_FC_RDSTATUS:
    case IO_DE_FC_RCSTATUS: {
        uint16_t w[3] = {d->status, STATUS_MCAST, STATUS_COUNTERS};
        if (put_words(d, d->pcbb + 2, w, 3) < 0)
            return -1;
        if (pcb[0] == IO_DE_FC_RCSTATUS)
            d->status &= 0x00FFu;
        return 0;
    }
    default: /* not a DEUNA function, or one this model does not have */
        return -1;
    }
}

/* ---- port commands ---- */

static uint64_t cmd_cycles(int c)
{
    return c == IO_DE_CMD_GETCMD ? IO_DEUNA_GETCMD_CYCLES : IO_DEUNA_CMD_CYCLES;
}

static void issue(struct io_deuna *d, int c)
{
    uint32_t operand = (uint32_t)d->pcsr2 | (d->pcsr3 & 3u) << 16;
    d->commands++;
    if (d->cmd >= 0) { /* the port is busy: this one waits (replacing any waiting) */
        d->cmd_next = c;
        d->cmd_next_operand = operand;
        return;
    }
    d->cmd = c;
    d->cmd_operand = operand;
    io_timer_after(&d->cmd_timer, cmd_cycles(c));
}

static void complete(struct io_deuna *d, int c, uint32_t operand, uint64_t now)
{
    int ok = 1;
    switch (c) {
    case IO_DE_CMD_GETPCBB:
        d->pcbb = operand;
        break;
    case IO_DE_CMD_GETCMD:
        ok = function(d) == 0;
        break;
    case IO_DE_CMD_START:
        ok = d->state == IO_DE_STATE_READY;
        if (ok) {
            d->state = IO_DE_STATE_RUNNING;
            d->txnext = d->rxnext = 0;
            d->rx_suspended = 0;
        }
        break;
    case IO_DE_CMD_PDMD:
        ok = d->state == IO_DE_STATE_RUNNING;
        if (ok)
            d->rx_suspended = 0;
        break;
    case IO_DE_CMD_STOP:
        ok = d->state == IO_DE_STATE_RUNNING;
        if (ok) {
            d->state = IO_DE_STATE_READY;
            d->tx_busy = 0;
            io_timer_cancel(&d->tx_timer);
        }
        break;
    case IO_DE_CMD_BOOT: /* a down-line load over the network: not modelled */
        ok = 0;
        break;
    default: /* reserved codes, the sanity timer's: nothing to do */
        ok = ((RESERVED_CMDS >> c) & 1) != 0;
        break;
    }
    if (!ok)
        d->cmd_errors++;
    set_bits(d, (uint16_t)(ok ? IO_DE_DNI : IO_DE_DNI | IO_DE_PCEI));
    if (ok && (c == IO_DE_CMD_START || c == IO_DE_CMD_PDMD))
        tx_poll(d, now);
}

static void cmd_fire(void *ctx, uint64_t due)
{
    struct io_deuna *d = ctx;
    if (d->resetting) { /* the reset's self test is over */
        d->resetting = 0;
        d->state = IO_DE_STATE_READY;
        set_bits(d, IO_DE_DNI);
        return;
    }
    int c = d->cmd;
    uint32_t operand = d->cmd_operand;
    d->cmd = -1;
    if (c >= 0)
        complete(d, c, operand, due);
    if (d->cmd < 0 && d->cmd_next >= 0 && !d->resetting) {
        d->cmd = d->cmd_next;
        d->cmd_operand = d->cmd_next_operand;
        d->cmd_next = -1;
        io_timer_at(&d->cmd_timer, due + cmd_cycles(d->cmd));
    }
}

/* ---- registers ---- */

static enum io_status rd(void *ctx, uint32_t ua, uint16_t *val)
{
    struct io_deuna *d = ctx;
    switch ((ua - d->base) >> 1 & 3) {
    case 0: *val = d->pcsr0; break;
    case 1: *val = (uint16_t)d->state; break;
    case 2: *val = d->pcsr2; break;
    default: *val = d->pcsr3; break;
    }
    return IO_OK;
}

static void pcsr0_low(struct io_deuna *d, uint8_t lo)
{
    if (lo & IO_DE_RSET) {
        reset(d, 0);
        return;
    }
    if (d->resetting)
        return; /* the port answers nothing but RSET until its self test ends */
    if ((d->pcsr0 ^ lo) & IO_DE_INTE) { /* the interlock: INTE changes, no command */
        d->pcsr0 ^= IO_DE_INTE;
        set_bits(d, IO_DE_DNI);
        return;
    }
    unsigned c = lo & CMD_MASK;
    d->pcsr0 = (uint16_t)((d->pcsr0 & ~CMD_MASK) | c);
    if (c == IO_DE_CMD_STEST) /* a self test: the reset's, INTE kept */
        reset(d, 1);
    else if (c != IO_DE_CMD_NOOP)
        issue(d, (int)c);
}

static enum io_status wr(void *ctx, uint32_t ua, int width, uint16_t v)
{
    struct io_deuna *d = ctx;
    int hi = width == 1 && (ua & 1);
    switch ((ua - d->base) >> 1 & 3) {
    case 0:
        if (width == 2 || hi) { /* the high byte: write one to clear */
            uint16_t clear = (uint16_t)(width == 2 ? v & PCSR0_INTS : (v & 0xFFu) << 8);
            d->pcsr0 &= (uint16_t)~clear;
            update_irq(d, 0);
        }
        if (!hi)
            pcsr0_low(d, (uint8_t)v);
        update_irq(d, 0);
        break;
    case 1:
        break; /* read only */
    case 2:
        d->pcsr2 = (uint16_t)(io_merge16(d->pcsr2, ua, width, v) & 0xFFFEu);
        break;
    default:
        d->pcsr3 = (uint16_t)(io_merge16(d->pcsr3, ua, width, v) & 3u);
        break;
    }
    return IO_OK;
}

static void init(void *ctx) { reset(ctx, 0); }

const struct io_unibus_dev_ops io_deuna_ops = {.read = rd, .write = wr, .init = init};

void io_deuna_init(struct io_deuna *d, uint32_t base, const struct io_unibus *bus, int src,
                   const uint8_t addr[IO_ETHER_ADDR])
{
    memset(d, 0, sizeof *d);
    d->base = base;
    d->bus = bus;
    d->src = src;
    memcpy(d->rom_addr, addr, IO_ETHER_ADDR);
    io_timer_init(bus->ev, &d->cmd_timer, cmd_fire, d);
    io_timer_init(bus->ev, &d->tx_timer, tx_done, d);
    reset(d, 0);
}

void io_deuna_free(struct io_deuna *d)
{
    io_timer_remove(&d->cmd_timer);
    io_timer_remove(&d->tx_timer);
}

void io_deuna_set_wire(struct io_deuna *d, const struct io_ether_wire *w)
{
    d->wire = w ? *w : (struct io_ether_wire){0};
}
