/* The DEUNA (vax/io/io_deuna.h) on the rig, driven as 4.3BSD's if_de.c
 * drives it: the probe (reset, the interlock, GET PCBB's interrupt at
 * vector 0120, BR5), the attach (the station address), deinit (ring
 * format, mode, the rings, START), transmit and receive through the
 * rings with wrap-around and data chaining, a full receive ring losing
 * and counting frames, the address filter and multicast list, the
 * counters, loopback and full duplex, the errors a bad address makes
 * (never a host fault), and the timing of commands and frames. */
#include "microcode/le.h"
#include "tests/io/io_rig.h"

#define UBA_CR 0x04u
#define UBA_SR 0x08u
#define UBA_BRRVR5 0x34u
#define UBA_MAP(n) (0x800u + 4u * (n))
#define DE UNIBUS(0774510u)
#define PCSR0 DE
#define PCSR1 (DE + 2)
#define PCSR2 (DE + 4)
#define PCSR3 (DE + 6)
/* UNIBUS addresses of the driver's structures; UNIBUS page i is mapped to
 * physical 0x10000 + 512 i */
#define PA(ua) (0x10000u + (ua))
#define PCB 0x0100u
#define UDB 0x0200u
#define CTRS 0x0300u
#define MLIST 0x0400u
#define TXRING 0x1000u
#define RXRING 0x1100u
#define TXBUF(i) (0x2000u + 0x800u * (i))
#define RXBUF(i) (0x8000u + 0x800u * (i))
#define ELEN 5                    /* words per ring entry, as 4.3BSD's */
#define MAPPED_PAGES 200u

static const uint8_t rom[6] = {0x08, 0x00, 0x2B, 0x47, 0x54, 0x49};
static const uint8_t bcast[6] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

static void m16(struct rig *r, uint32_t ua, uint16_t v) { le_put16(r->mem + PA(ua), v); }
static uint16_t g16(struct rig *r, uint32_t ua) { return le_get16(r->mem + PA(ua)); }

/* ---- a wire that records what the DEUNA sends ---- */

struct wire {
    int n;
    uint8_t f[16][IO_ETHER_MAX];
    uint32_t len[16];
    uint64_t start[16], end[16];
    uint64_t busy_until;              /* the wire is taken until then */
};

static uint64_t wire_tx(void *ctx, const uint8_t *frame, uint32_t len, uint64_t ready)
{
    struct wire *w = ctx;
    uint64_t s = ready > w->busy_until ? ready : w->busy_until;
    uint64_t e = s + io_ether_frame_cycles(len);
    if (w->n < 16) {
        memcpy(w->f[w->n], frame, len);
        w->len[w->n] = len;
        w->start[w->n] = s;
        w->end[w->n] = e;
    }
    w->n++;
    return e;
}

/* ---- the driver's side ---- */

/* Waits for INTR (at most `limit` microcycles); returns PCSR0 and clears
 * its interrupt bits as dewait() does. */
static uint32_t dewait(struct rig *r, uint64_t limit)
{
    if (!RIG_WAIT(r, rd16(r, PCSR0) & IO_DE_INTR, limit))
        return 0;
    uint32_t csr0 = rd16(r, PCSR0);
    wr8(r, PCSR0 + 1, csr0 >> 8);
    return csr0;
}

/* A function through GET CMD, as if_de.c does it (stale interrupt bits
 * cleared first, so that dewait sees this command's). */
static uint32_t getcmd(struct rig *r, uint16_t fc, uint16_t w1, uint16_t w2, uint16_t w3)
{
    wr8(r, PCSR0 + 1, rd16(r, PCSR0) >> 8);
    m16(r, PCB, fc);
    m16(r, PCB + 2, w1);
    m16(r, PCB + 4, w2);
    m16(r, PCB + 6, w3);
    wr8(r, PCSR0, IO_DE_CMD_GETCMD | (rd16(r, PCSR0) & IO_DE_INTE));
    return dewait(r, IO_MS(1));
}

static void map_pages(struct rig *r)
{
    for (unsigned i = 0; i < MAPPED_PAGES; i++)
        wr32(r, UBA + UBA_MAP(i), 0x80000000u | (0x80u + i));
    wr32(r, UBA + UBA_CR, IO_UBACR_IFS | IO_UBACR_BRIE);
}

static void rx_hang(struct rig *r, unsigned i, uint16_t slen)
{
    uint32_t e = RXRING + 2u * ELEN * i;
    m16(r, e, slen);
    m16(r, e + 2, (uint16_t)RXBUF(i));
    m16(r, e + 4, IO_DE_OWN | (RXBUF(i) >> 16));
    m16(r, e + 6, 0);
}

/* 4.3BSD's deinit: PCB, ring format, mode, the entries, START. */
static void de_start(struct rig *r, unsigned ntx, unsigned nrx, uint16_t rxlen, uint16_t mode)
{
    map_pages(r);
    dewait(r, IO_DEUNA_RESET_CYCLES + 1000); /* the power-up reset */
    wr16(r, PCSR2, PCB);
    wr16(r, PCSR3, 0);
    wr8(r, PCSR0, IO_DE_CMD_GETPCBB);
    CHECK((dewait(r, IO_MS(1)) & (IO_DE_DNI | IO_DE_PCEI)) == IO_DE_DNI, "GET PCBB");
    m16(r, UDB, TXRING);
    m16(r, UDB + 2, ELEN << 8);
    m16(r, UDB + 4, (uint16_t)ntx);
    m16(r, UDB + 6, RXRING);
    m16(r, UDB + 8, ELEN << 8);
    m16(r, UDB + 10, (uint16_t)nrx);
    CHECK(!(getcmd(r, IO_DE_FC_WTRING, UDB, 0, 0) & IO_DE_PCEI), "WTRING");
    CHECK(!(getcmd(r, IO_DE_FC_WTMODE, mode, 0, 0) & IO_DE_PCEI), "WTMODE");
    for (unsigned i = 0; i < ntx; i++)
        m16(r, TXRING + 2u * ELEN * i + 4, 0);
    for (unsigned i = 0; i < nrx; i++)
        rx_hang(r, i, rxlen);
    wr8(r, PCSR0, IO_DE_INTE); /* avoid the interlock */
    dewait(r, IO_MS(1));
    wr8(r, PCSR0, IO_DE_CMD_START | IO_DE_INTE);
    CHECK((dewait(r, IO_MS(1)) & (IO_DE_DNI | IO_DE_PCEI)) == IO_DE_DNI, "START");
    CHECK(rd16(r, PCSR1) == IO_DE_STATE_RUNNING, "running: PCSR1 %o", rd16(r, PCSR1));
}

static void tx_entry(struct rig *r, unsigned i, uint32_t buf, uint16_t len, uint16_t flags)
{
    uint32_t e = TXRING + 2u * ELEN * i;
    m16(r, e, len);
    m16(r, e + 2, (uint16_t)buf);
    m16(r, e + 6, 0);
    m16(r, e + 4, (uint16_t)(flags | (buf >> 16 & 3)));
}

static void pdmd(struct rig *r) { wr8(r, PCSR0, IO_DE_CMD_PDMD | IO_DE_INTE); }

static void frame(uint8_t *f, const uint8_t *dst, const uint8_t *src, uint16_t type,
                  uint32_t len, uint8_t fill)
{
    memcpy(f, dst, 6);
    memcpy(f + 6, src, 6);
    f[12] = (uint8_t)(type >> 8);
    f[13] = (uint8_t)type;
    for (uint32_t i = 14; i < len; i++)
        f[i] = (uint8_t)(fill + i);
}

static struct rig *rig_with_wire(struct wire *w)
{
    struct rig *r = rig_new(NULL);
    memset(w, 0, sizeof *w);
    struct io_ether_wire iw = {.ctx = w, .transmit = wire_tx};
    io_deuna_set_wire(&r->sys->deuna, &iw);
    return r;
}

/* ---- the tests ---- */

static void probe_attach(void)
{
    struct rig *r = rig_new(NULL);
    map_pages(r);
    CHECK(rd16(r, PCSR1) == IO_DE_STATE_RESET, "power-up: the self test runs");
    dewait(r, IO_DEUNA_RESET_CYCLES + 100);
    CHECK(rd16(r, PCSR1) == IO_DE_STATE_READY, "then ready");
    /* deprobe: RSET, wait for INTR */
    wr16(r, PCSR0, IO_DE_RSET);
    uint64_t t0 = r->now;
    CHECK(rd16(r, PCSR0) == 0 && rd16(r, PCSR1) == IO_DE_STATE_RESET, "reset: nothing pending");
    rig_run(r, IO_DEUNA_RESET_CYCLES - 1);
    CHECK(!(rd16(r, PCSR0) & IO_DE_INTR), "not before the reset time");
    rig_run(r, 1);
    CHECK(rd16(r, PCSR0) == (IO_DE_DNI | IO_DE_INTR), "reset done at %llu: %o",
          (unsigned long long)(r->now - t0), rd16(r, PCSR0));
    /* INTE alone: the interlock sets DNI and interrupts at once */
    wr16(r, PCSR0, IO_DE_INTE);
    CHECK(r->sys->uba.line_on[1], "a request at BR5 (IPL 0x15)");
    wr16(r, PCSR2, 0);
    wr16(r, PCSR3, 0);
    wr16(r, PCSR0, IO_DE_INTE | IO_DE_CMD_GETPCBB);
    CHECK(rd32(r, UBA + UBA_BRRVR5) == 0120, "the vector: 0120");
    CHECK(!r->sys->uba.line_on[1], "taken");
    /* the interlock's DNI cleared, GET PCBB's own comes 20 us after it */
    wr8(r, PCSR0 + 1, rd16(r, PCSR0) >> 8);
    CHECK(!(rd16(r, PCSR0) & IO_DE_INTR), "cleared");
    rig_run(r, IO_DEUNA_CMD_CYCLES - 2);
    CHECK(!(rd16(r, PCSR0) & IO_DE_DNI), "GET PCBB takes its time");
    rig_run(r, 10);
    CHECK(rd16(r, PCSR0) & IO_DE_DNI, "GET PCBB done");
    CHECK(r->sys->uba.line_on[1] && rd32(r, UBA + UBA_BRRVR5) == 0120, "and interrupts again");
    wr8(r, PCSR0 + 1, rd16(r, PCSR0) >> 8);
    /* deattach: reset, PCB, read the station address */
    wr16(r, PCSR0, IO_DE_RSET);
    dewait(r, IO_DEUNA_RESET_CYCLES + 10);
    CHECK(!(rd16(r, PCSR0) & IO_DE_INTE), "reset clears INTE");
    wr16(r, PCSR2, PCB | 1);
    CHECK(rd16(r, PCSR2) == PCB, "PCSR2 bit 0 reads 0");
    wr16(r, PCSR3, 0xFFFC);
    CHECK(rd16(r, PCSR3) == 0, "PCSR3: bits 1:0 only");
    wr8(r, PCSR0, IO_DE_CMD_GETPCBB);
    dewait(r, IO_MS(1));
    uint32_t c = getcmd(r, IO_DE_FC_RDPHYAD, 0, 0, 0);
    CHECK((c & (IO_DE_DNI | IO_DE_PCEI)) == IO_DE_DNI, "read address: %o", c);
    CHECK(!memcmp(r->mem + PA(PCB + 2), rom, 6), "08:00:2b:47:54:49");
    CHECK(!r->sys->uba.line_on[1], "no interrupts with INTE off");
    /* the printed address comes back the same after a new station address */
    static const uint8_t mine[6] = {0xAA, 0x00, 0x04, 0x00, 0x12, 0x34};
    memcpy(r->mem + PA(PCB + 2), mine, 6);
    m16(r, PCB, IO_DE_FC_WTPHYAD);
    wr8(r, PCSR0, IO_DE_CMD_GETCMD);
    CHECK(!(dewait(r, IO_MS(1)) & IO_DE_PCEI), "write address");
    c = getcmd(r, IO_DE_FC_RDPHYAD, 0, 0, 0);
    CHECK(!memcmp(r->mem + PA(PCB + 2), mine, 6), "read back");
    c = getcmd(r, IO_DE_FC_RDDEFAULT, 0, 0, 0);
    CHECK(!memcmp(r->mem + PA(PCB + 2), rom, 6), "the default stays");
    r->mem[PA(PCB + 2)] = 0x01;
    m16(r, PCB, IO_DE_FC_WTPHYAD);
    wr8(r, PCSR0, IO_DE_CMD_GETCMD);
    CHECK((dewait(r, IO_MS(1)) & (IO_DE_DNI | IO_DE_PCEI)) == (IO_DE_DNI | IO_DE_PCEI),
          "a multicast station address: PCEI and DNI");
    getcmd(r, IO_DE_FC_RDPHYAD, 0, 0, 0);
    CHECK(!memcmp(r->mem + PA(PCB + 2), mine, 6), "unchanged");
    /* a reset brings the default address back */
    wr16(r, PCSR0, IO_DE_RSET);
    dewait(r, IO_DEUNA_RESET_CYCLES + 10);
    wr16(r, PCSR2, PCB);
    wr8(r, PCSR0, IO_DE_CMD_GETPCBB);
    dewait(r, IO_MS(1));
    getcmd(r, IO_DE_FC_RDPHYAD, 0, 0, 0);
    CHECK(!memcmp(r->mem + PA(PCB + 2), rom, 6), "the default after a reset");
    /* so does a UNIBUS init (the adapter's) */
    wr32(r, UBA + UBA_CR, IO_UBACR_ADINIT);
    rig_run(r, IO_MS(2));
    CHECK(rd16(r, PCSR1) == IO_DE_STATE_RESET, "UNIBUS init: the DEUNA resets");
    dewait(r, IO_DEUNA_RESET_CYCLES);
    CHECK(rd16(r, PCSR1) == IO_DE_STATE_READY, "and is ready again");
    rig_free(r);
}

/* Functions, their errors and the command timing. */
static void functions(void)
{
    struct rig *r = rig_new(NULL);
    map_pages(r);
    dewait(r, IO_DEUNA_RESET_CYCLES + 100);
    wr16(r, PCSR2, PCB);
    wr8(r, PCSR0, IO_DE_CMD_GETPCBB);
    dewait(r, IO_MS(1));
    /* GET CMD takes 100 us */
    m16(r, PCB, IO_DE_FC_NOOP);
    uint64_t t0 = r->now;
    wr8(r, PCSR0, IO_DE_CMD_GETCMD);
    RIG_WAIT(r, rd16(r, PCSR0) & IO_DE_INTR, IO_MS(1));
    CHECK(r->now - t0 == IO_DEUNA_GETCMD_CYCLES, "GET CMD: %llu microcycles",
          (unsigned long long)(r->now - t0));
    wr8(r, PCSR0 + 1, rd16(r, PCSR0) >> 8);
    /* mode */
    CHECK(!(getcmd(r, IO_DE_FC_WTMODE, IO_DE_MOD_TPAD | IO_DE_MOD_HDX, 0, 0) & IO_DE_PCEI), "WTMODE");
    m16(r, PCB + 2, 0);
    getcmd(r, IO_DE_FC_RDMODE, 0, 0, 0);
    CHECK(g16(r, PCB + 2) == (IO_DE_MOD_TPAD | IO_DE_MOD_HDX), "RDMODE %04X", g16(r, PCB + 2));
    /* ring format: written, read back */
    static const uint16_t udb[6] = {TXRING, ELEN << 8 | 1, 3, RXRING, ELEN << 8, 7};
    for (int i = 0; i < 6; i++)
        m16(r, UDB + 2 * i, udb[i]);
    CHECK(!(getcmd(r, IO_DE_FC_WTRING, UDB, 0, 0) & IO_DE_PCEI), "WTRING");
    memset(r->mem + PA(UDB + 0x40), 0xEE, 12);
    CHECK(!(getcmd(r, IO_DE_FC_RDRING, UDB + 0x40, 0, 0) & IO_DE_PCEI), "RDRING");
    for (int i = 0; i < 6; i++)
        CHECK(g16(r, UDB + 0x40 + 2 * i) == udb[i], "ring word %d: %04X", i,
              g16(r, UDB + 0x40 + 2 * i));
    /* bad ring formats */
    static const struct { int word; uint16_t v; const char *why; } bad[] = {
        {0, TXRING | 1, "odd transmit ring"}, {1, 3 << 8, "3-word entries"},
        {2, 0, "no transmit entries"}, {4, ELEN << 8 | 0x10, "MBZ bits"},
        {5, 1, "one receive entry"}, {3, RXRING | 1, "odd receive ring"}};
    for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        for (int i = 0; i < 6; i++)
            m16(r, UDB + 2 * i, udb[i]);
        m16(r, UDB + 2 * bad[k].word, bad[k].v);
        CHECK(getcmd(r, IO_DE_FC_WTRING, UDB, 0, 0) & IO_DE_PCEI, "refused: %s", bad[k].why);
    }
    getcmd(r, IO_DE_FC_RDRING, UDB + 0x40, 0, 0);
    CHECK(g16(r, UDB + 0x40 + 4) == 3 && g16(r, UDB + 0x40 + 10) == 7, "the good one stays");
    CHECK(getcmd(r, IO_DE_FC_WTRING, UDB | 1, 0, 0) & IO_DE_PCEI, "odd UDB address");
    /* unknown or unmodelled functions, MBZ, bad addresses */
    static const uint16_t fcs[] = {0x01, 0x03, 0x10, 0x11, 0x12, 0x13, 0x16, 0xFF, 0x0104};
    for (unsigned k = 0; k < sizeof fcs / sizeof fcs[0]; k++)
        CHECK((getcmd(r, fcs[k], 0, 0, 0) & (IO_DE_PCEI | IO_DE_DNI)) == (IO_DE_PCEI | IO_DE_DNI),
              "function %04X: PCEI", fcs[k]);
    /* a PCB the map does not reach: the DEUNA's error and the UBA's */
    wr32(r, UBA + UBA_SR, 0x7FF);
    wr16(r, PCSR2, 0xF000); /* page 0x78 is mapped ... */
    wr16(r, PCSR3, 2);      /* ... but this is page 0x278: past the map */
    wr8(r, PCSR0, IO_DE_CMD_GETPCBB);
    dewait(r, IO_MS(1));
    wr8(r, PCSR0, IO_DE_CMD_GETCMD);
    CHECK(dewait(r, IO_MS(1)) & IO_DE_PCEI, "an unmapped PCB: PCEI");
    CHECK(rd32(r, UBA + UBA_SR) & IO_UBASR_IVMR, "the adapter saw the invalid map register");
    wr32(r, UBA + UBA_SR, 0x7FF);
    wr16(r, PCSR2, PCB);
    wr16(r, PCSR3, 0);
    wr8(r, PCSR0, IO_DE_CMD_GETPCBB);
    dewait(r, IO_MS(1));
    CHECK(getcmd(r, IO_DE_FC_RDCNTS, 0, 3, 0) & IO_DE_PCEI, "counters into an unmapped page");
    /* multicast list */
    static const uint8_t ml[2][6] = {{0x01, 0x00, 0x5E, 0, 0, 1}, {0xAB, 0, 0, 3, 0, 0}};
    memcpy(r->mem + PA(MLIST), ml, sizeof ml);
    CHECK(!(getcmd(r, IO_DE_FC_WTMULTI, MLIST, 2 << 8, 0) & IO_DE_PCEI), "WTMULTI");
    memset(r->mem + PA(MLIST + 0x20), 0, 18);
    getcmd(r, IO_DE_FC_RDMULTI, MLIST + 0x20, 3 << 8, 0);
    CHECK(!memcmp(r->mem + PA(MLIST + 0x20), ml, sizeof ml) &&
          !memcmp(r->mem + PA(MLIST + 0x2C), "\0\0\0\0\0\0", 6), "RDMULTI");
    CHECK(getcmd(r, IO_DE_FC_WTMULTI, MLIST, 11 << 8, 0) & IO_DE_PCEI, "11 addresses");
    r->mem[PA(MLIST)] = 0x02;
    CHECK(getcmd(r, IO_DE_FC_WTMULTI, MLIST, 1 << 8, 0) & IO_DE_PCEI, "not a multicast address");
    CHECK(r->sys->deuna.nmcast == 2, "the list stays");
    /* status, load server */
    getcmd(r, IO_DE_FC_RDSTATUS, 0, 0, 0);
    CHECK(g16(r, PCB + 2) == 0 && g16(r, PCB + 4) == 10 && g16(r, PCB + 6) == 32, "status");
    getcmd(r, IO_DE_FC_WTSERAD, le_get16(ml[1]), le_get16(ml[1] + 2), le_get16(ml[1] + 4));
    memset(r->mem + PA(PCB + 2), 0, 6);
    getcmd(r, IO_DE_FC_RDSERAD, 0, 0, 0);
    CHECK(!memcmp(r->mem + PA(PCB + 2), ml[1], 6), "load server address");
    /* port commands the state refuses; BOOT; reserved ones; NOOP */
    static const struct { unsigned c; int err; } pc[] = {
        {IO_DE_CMD_STOP, 1}, {IO_DE_CMD_PDMD, 1}, {IO_DE_CMD_BOOT, 1}, {6, 0}, {9, 0}, {14, 0}};
    for (unsigned k = 0; k < sizeof pc / sizeof pc[0]; k++) {
        wr8(r, PCSR0, pc[k].c);
        uint32_t c = dewait(r, IO_MS(1));
        CHECK((c & IO_DE_DNI) && !!(c & IO_DE_PCEI) == pc[k].err, "command %u: %o", pc[k].c, c);
    }
    wr8(r, PCSR0, IO_DE_CMD_NOOP);
    rig_run(r, IO_MS(1));
    CHECK(!(rd16(r, PCSR0) & IO_DE_INTR), "NOOP sets nothing");
    /* the interlock: a command written with a change of INTE does not run */
    wr8(r, PCSR0, IO_DE_INTE | IO_DE_CMD_START);
    CHECK(dewait(r, IO_MS(1)) & IO_DE_DNI, "DNI");
    rig_run(r, IO_MS(1));
    CHECK(rd16(r, PCSR1) == IO_DE_STATE_READY && !(rd16(r, PCSR0) & IO_DE_INTR),
          "START did not run");
    /* a command while one runs waits for it; both complete */
    m16(r, PCB, IO_DE_FC_RDMODE);
    wr8(r, PCSR0, IO_DE_INTE | IO_DE_CMD_GETPCBB);
    wr8(r, PCSR0, IO_DE_INTE | IO_DE_CMD_START);
    rig_run(r, IO_DEUNA_CMD_CYCLES);
    CHECK(rd16(r, PCSR1) == IO_DE_STATE_READY, "START waits");
    rig_run(r, IO_DEUNA_CMD_CYCLES);
    CHECK(rd16(r, PCSR1) == IO_DE_STATE_RUNNING, "then runs");
    CHECK(getcmd(r, IO_DE_FC_WTRING, UDB, 0, 0) & IO_DE_PCEI, "no ring format while running");
    wr8(r, PCSR0, IO_DE_INTE | IO_DE_CMD_STOP);
    CHECK(!(dewait(r, IO_MS(1)) & IO_DE_PCEI) && rd16(r, PCSR1) == IO_DE_STATE_READY, "STOP");
    rig_free(r);
}

static uint16_t counter(struct rig *r, unsigned w)
{
    uint16_t c[IO_DEUNA_COUNTERS];
    io_deuna_counters(&r->sys->deuna, c);
    return c[w];
}

static void transmit(void)
{
    static struct wire w;
    struct rig *r = rig_with_wire(&w);
    de_start(r, 3, 4, 1518, IO_DE_MOD_TPAD | IO_DE_MOD_HDX);
    /* an ARP request: 42 bytes, broadcast */
    uint8_t f[1600];
    frame(f, bcast, (const uint8_t *)"\0\0\0\0\0\0", 0x0806, 42, 1);
    memcpy(r->mem + PA(TXBUF(0)), f, 42);
    tx_entry(r, 0, TXBUF(0), 42, IO_DE_OWN | IO_DE_STP | IO_DE_ENP);
    pdmd(r);
    uint64_t t0 = r->now;
    RIG_WAIT(r, w.n == 1, IO_MS(1));
    CHECK(w.n == 1 && w.len[0] == 60 && w.start[0] == t0 + IO_DEUNA_CMD_CYCLES,
          "on the wire after the polling demand: %d frames, %u bytes", w.n, w.len[0]);
    CHECK(!memcmp(w.f[0] + 6, rom, 6), "the DEUNA filled in its address");
    CHECK(!memcmp(w.f[0] + 14, f + 14, 28) && w.f[0][42] == 0 && w.f[0][59] == 0, "padded");
    CHECK(g16(r, TXRING + 4) & IO_DE_OWN, "the entry is the port's while the frame is sent");
    RIG_WAIT(r, rd16(r, PCSR0) & IO_DE_TXI, IO_MS(1));
    CHECK(r->now == w.end[0] && w.end[0] - w.start[0] == io_ether_frame_cycles(60),
          "TXI when the last bit left: %llu microcycles (57.6 us)",
          (unsigned long long)(w.end[0] - w.start[0]));
    uint16_t w2 = g16(r, TXRING + 4);
    CHECK(!(w2 & IO_DE_OWN) && (w2 & IO_DE_MTCH) && !(w2 & IO_DE_ERRS) &&
          (w2 & (IO_DE_STP | IO_DE_ENP)) == (IO_DE_STP | IO_DE_ENP),
          "returned, MTCH for a broadcast in half duplex: %04X", w2);
    dewait(r, 10);
    /* seven frames through a three-entry ring: the driver refills as they go */
    static const uint8_t other[6] = {0x02, 0, 0, 0, 1, 0x0A};
    unsigned sent = 0, queued = 0, xfree = 1, xindex = 1;
    while (sent < 7) {
        while (queued - sent < 3 && queued < 7) {
            uint32_t len = 100 + 100 * queued;
            frame(f, other, rom, 0x0800, len, (uint8_t)queued);
            memcpy(r->mem + PA(TXBUF(xfree)), f, len);
            tx_entry(r, xfree, TXBUF(xfree), (uint16_t)len, IO_DE_OWN | IO_DE_STP | IO_DE_ENP);
            xfree = (xfree + 1) % 3;
            queued++;
        }
        pdmd(r);
        if (!dewait(r, IO_MS(3)))
            break;
        while (!(g16(r, TXRING + 2u * ELEN * xindex + 4) & IO_DE_OWN) && sent < queued) {
            CHECK(!(g16(r, TXRING + 2u * ELEN * xindex + 4) & (IO_DE_MTCH | IO_DE_ERRS)),
                  "unicast to another station: no MTCH");
            xindex = (xindex + 1) % 3;
            sent++;
        }
    }
    CHECK(sent == 7 && w.n == 8, "seven more frames, the ring wrapped twice: %u, wire %d", sent,
          w.n);
    int order = 1;
    for (int i = 1; i < 8 && i < w.n; i++)
        order &= w.len[i] == 100u * i && w.f[i][14] == (uint8_t)(i - 1 + 14) &&
                 w.start[i] >= w.end[i - 1];
    CHECK(order, "in ring order, one at a time");
    CHECK(r->sys->deuna.txnext == 2, "the port's next entry: %u", r->sys->deuna.txnext);
    /* a frame in three segments */
    frame(f, other, rom, 0x0800, 1000, 9);
    memcpy(r->mem + PA(TXBUF(0)), f, 300);
    memcpy(r->mem + PA(TXBUF(1)), f + 300, 600);
    memcpy(r->mem + PA(TXBUF(2)), f + 900, 100);
    tx_entry(r, 2, TXBUF(0), 300, IO_DE_OWN | IO_DE_STP);
    pdmd(r);
    rig_run(r, IO_MS(1));
    CHECK(w.n == 8, "not while the chain is incomplete");
    tx_entry(r, 0, TXBUF(1), 600, IO_DE_OWN);
    tx_entry(r, 1, TXBUF(2), 100, IO_DE_OWN | IO_DE_ENP);
    pdmd(r);
    RIG_WAIT(r, rd16(r, PCSR0) & IO_DE_TXI, IO_MS(3));
    CHECK(w.n == 9 && w.len[8] == 1000 && !memcmp(w.f[8] + 12, f + 12, 988),
          "data chaining: one frame of 1000 bytes");
    CHECK(!(g16(r, TXRING + 4) & IO_DE_OWN) && !(g16(r, TXRING + 14) & IO_DE_OWN) &&
          !(g16(r, TXRING + 24) & IO_DE_OWN), "all three returned");
    dewait(r, 10);
    /* errors: a giant, a segment past the map, a runt without TPAD */
    frame(f, other, rom, 0x0800, 1514, 0);
    memcpy(r->mem + PA(TXBUF(0)), f, 1514);
    tx_entry(r, 2, TXBUF(0), 1600, IO_DE_OWN | IO_DE_STP | IO_DE_ENP);
    pdmd(r);
    RIG_WAIT(r, rd16(r, PCSR0) & IO_DE_TXI, IO_MS(3));
    CHECK(w.n == 9 && (g16(r, TXRING + 24) & IO_DE_ERRS) && (g16(r, TXRING + 26) & IO_DE_BUFL),
          "1600 bytes: BUFL, not sent");
    dewait(r, 10);
    wr32(r, UBA + UBA_SR, 0x7FF);
    tx_entry(r, 0, 0x3F000, 100, IO_DE_OWN | IO_DE_STP | IO_DE_ENP);
    pdmd(r);
    RIG_WAIT(r, rd16(r, PCSR0) & IO_DE_TXI, IO_MS(3));
    CHECK(w.n == 9 && (g16(r, TXRING + 4) & IO_DE_ERRS) && (g16(r, TXRING + 6) & IO_DE_UBTO),
          "a segment past the map: UBTO, not sent");
    CHECK(rd32(r, UBA + UBA_SR) & IO_UBASR_IVMR, "the adapter's invalid map register");
    CHECK(counter(r, IO_DE_C_TX_ABORTED) == 2, "aborted: %u", counter(r, IO_DE_C_TX_ABORTED));
    dewait(r, 10);
    /* deferral: the wire is busy for another 100 us */
    w.busy_until = r->now + IO_DEUNA_CMD_CYCLES + IO_US(100);
    frame(f, other, rom, 0x0800, 100, 0);
    memcpy(r->mem + PA(TXBUF(1)), f, 100);
    tx_entry(r, 1, TXBUF(1), 100, IO_DE_OWN | IO_DE_STP | IO_DE_ENP);
    pdmd(r);
    RIG_WAIT(r, rd16(r, PCSR0) & IO_DE_TXI, IO_MS(3));
    CHECK(w.n == 10 && w.start[9] == w.busy_until && (g16(r, TXRING + 14) & IO_DE_DEF) &&
          counter(r, IO_DE_C_TX_DEFERRED) == 1, "deferred: DEF");
    dewait(r, 10);
    /* a transmit ring the map does not reach: a ring error */
    m16(r, UDB, 0xF000);
    m16(r, UDB + 2, ELEN << 8 | 3);
    CHECK(counter(r, IO_DE_C_TX_FRAMES) == 10, "frames sent: %u", counter(r, IO_DE_C_TX_FRAMES));
    CHECK(counter(r, IO_DE_C_TX_MFRAMES) == 1, "multicast frames sent: %u",
          counter(r, IO_DE_C_TX_MFRAMES));
    wr8(r, PCSR0, IO_DE_INTE | IO_DE_CMD_STOP);
    dewait(r, IO_MS(1));
    m16(r, UDB + 4, 3);
    m16(r, UDB + 6, RXRING);
    m16(r, UDB + 8, ELEN << 8);
    m16(r, UDB + 10, 4);
    getcmd(r, IO_DE_FC_WTRING, UDB, 0, 0);
    wr8(r, PCSR0, IO_DE_INTE | IO_DE_CMD_START);
    uint32_t c = dewait(r, IO_MS(1));
    if (!(c & IO_DE_SERI))
        c |= dewait(r, IO_MS(1));
    CHECK(c & IO_DE_SERI, "SERI: %o", c);
    getcmd(r, IO_DE_FC_RCSTATUS, 0, 0, 0);
    uint16_t st = g16(r, PCB + 2);
    CHECK((st & (IO_DE_ST_ERRS | IO_DE_ST_TMOT | IO_DE_ST_TRNG)) ==
          (IO_DE_ST_ERRS | IO_DE_ST_TMOT | IO_DE_ST_TRNG), "status: transmit ring error %04X", st);
    getcmd(r, IO_DE_FC_RDSTATUS, 0, 0, 0);
    CHECK(g16(r, PCB + 2) == 0, "read and clear status");
    rig_free(r);
}

/* The receive entry i: its flags, its length word, its data. */
static uint16_t rx_w2(struct rig *r, unsigned i) { return g16(r, RXRING + 2u * ELEN * i + 4); }
static uint16_t rx_w3(struct rig *r, unsigned i) { return g16(r, RXRING + 2u * ELEN * i + 6); }

static void receive(void)
{
    uint16_t st;
    static struct wire w;
    struct rig *r = rig_with_wire(&w);
    struct io_deuna *d = &r->sys->deuna;
    static const uint8_t peer[6] = {0x02, 0, 0, 0, 1, 0x0A};
    uint8_t f[1600];
    frame(f, rom, peer, 0x0800, 98, 3);
    CHECK(io_deuna_receive(d, f, 98) == IO_ETHER_RX_STOPPED, "not running: not received");
    de_start(r, 3, 4, 1518, IO_DE_MOD_TPAD | IO_DE_MOD_HDX);
    /* a short frame: padded, the CRC after it, MLEN with the CRC */
    frame(f, rom, peer, 0x0806, 42, 5);
    CHECK(io_deuna_receive(d, f, 42) == IO_ETHER_RX_OK, "received");
    CHECK(!(rx_w2(r, 0) & IO_DE_OWN) && (rx_w2(r, 0) & 0xFF00) == (IO_DE_STP | IO_DE_ENP) &&
          (rx_w3(r, 0) & IO_DE_MLEN) == 64, "entry 0: %04X %04X", rx_w2(r, 0), rx_w3(r, 0));
    const uint8_t *b = r->mem + PA(RXBUF(0));
    CHECK(!memcmp(b, f, 42) && b[42] == 0 && b[59] == 0, "the data, padded");
    CHECK(le_get32(b + 60) == io_ether_crc(b, 60) && io_ether_crc(b, 64) == 0x2144DF1Cu,
          "the CRC (the 802.3 residue over data and CRC)");
    uint32_t c = dewait(r, 10);
    CHECK((c & IO_DE_RXI) && !(c & IO_DE_RCBI), "RXI");
    /* the address filter */
    static const uint8_t stranger[6] = {0x02, 0, 0, 0, 1, 0x17}, mc[6] = {0x01, 0, 0x5E, 0, 0, 9},
                         mc2[6] = {0xAB, 0, 0, 4, 0, 0};
    frame(f, stranger, peer, 0x0800, 60, 0);
    CHECK(io_deuna_receive(d, f, 60) == IO_ETHER_RX_FILTERED, "another station's: filtered");
    frame(f, mc, peer, 0x0800, 60, 0);
    CHECK(io_deuna_receive(d, f, 60) == IO_ETHER_RX_FILTERED, "a multicast not listed: filtered");
    frame(f, bcast, peer, 0x0806, 60, 0);
    CHECK(io_deuna_receive(d, f, 60) == IO_ETHER_RX_OK, "broadcast: received");
    memcpy(r->mem + PA(MLIST), mc, 6);
    getcmd(r, IO_DE_FC_WTMULTI, MLIST, 1 << 8, 0);
    frame(f, mc, peer, 0x0800, 60, 0);
    CHECK(io_deuna_receive(d, f, 60) == IO_ETHER_RX_OK, "listed multicast: received");
    frame(f, mc2, peer, 0x6003, 60, 0);
    CHECK(io_deuna_receive(d, f, 60) == IO_ETHER_RX_FILTERED, "another multicast: filtered");
    getcmd(r, IO_DE_FC_WTMODE, IO_DE_MOD_TPAD | IO_DE_MOD_HDX | IO_DE_MOD_ENAL, 0, 0);
    CHECK(io_deuna_receive(d, f, 60) == IO_ETHER_RX_OK, "all multicast (ENAL): received");
    frame(f, stranger, peer, 0x0800, 60, 0);
    CHECK(io_deuna_receive(d, f, 60) == IO_ETHER_RX_FILTERED, "ENAL is not PROM");
    getcmd(r, IO_DE_FC_WTMODE, IO_DE_MOD_TPAD | IO_DE_MOD_HDX | IO_DE_MOD_PROM, 0, 0);
    /* entries 0-3 are the host's now: the ring is full.  Frames are lost
     * and counted, RCBI; more are lost until a polling demand */
    CHECK(io_deuna_receive(d, f, 60) == IO_ETHER_RX_NOBUF, "promiscuous: taken (no buffer left)");
    CHECK(counter(r, IO_DE_C_LOST_USERBUF) == 1 && (rd16(r, PCSR0) & IO_DE_RCBI), "RCBI, counted");
    getcmd(r, IO_DE_FC_WTMODE, IO_DE_MOD_TPAD | IO_DE_MOD_HDX, 0, 0);
    frame(f, rom, peer, 0x0800, 200, 0);
    for (unsigned i = 0; i < 4; i++)
        rx_hang(r, i, 1518);
    CHECK(io_deuna_receive(d, f, 200) == IO_ETHER_RX_NOBUF, "suspended until PDMD");
    CHECK(counter(r, IO_DE_C_LOST_USERBUF) == 2, "lost: %u", counter(r, IO_DE_C_LOST_USERBUF));
    c = dewait(r, 10);
    if (c & IO_DE_RCBI) /* deintr: buffer unavailable */
        pdmd(r);
    dewait(r, IO_MS(1));
    /* eleven frames through the four entries, the driver re-hanging each */
    unsigned got = 0, rindex = 0;
    int ok = 1;
    for (unsigned k = 0; k < 11; k++) {
        frame(f, rom, peer, 0x0800, 100 + 50 * k, (uint8_t)k);
        ok &= io_deuna_receive(d, f, 100 + 50 * k) == IO_ETHER_RX_OK;
        rig_run(r, IO_US(100));
        while (!(rx_w2(r, rindex) & IO_DE_OWN)) {
            uint32_t len = (rx_w3(r, rindex) & IO_DE_MLEN) - 4;
            ok &= len == 100 + 50 * got && r->mem[PA(RXBUF(rindex)) + 14] == (uint8_t)(got + 14);
            rx_hang(r, rindex, 1518);
            rindex = (rindex + 1) % 4;
            got++;
        }
    }
    CHECK(ok && got == 11, "eleven frames through a ring of four, in order: %u", got);
    CHECK(counter(r, IO_DE_C_LOST_USERBUF) == 2, "none lost");
    /* a full ring: the driver does not keep up; six frames, four taken */
    dewait(r, 10);
    unsigned lost = 0;
    for (unsigned k = 0; k < 6; k++)
        lost += io_deuna_receive(d, f, 100) == IO_ETHER_RX_NOBUF;
    CHECK(lost == 2 && counter(r, IO_DE_C_LOST_USERBUF) == 4 && (rd16(r, PCSR0) & IO_DE_RCBI),
          "two lost and counted in the DEUNA's counters (%u), RCBI",
          counter(r, IO_DE_C_LOST_USERBUF));
    for (unsigned i = 0; i < 4; i++)
        rx_hang(r, i, 1518);
    dewait(r, 10);
    pdmd(r);
    dewait(r, IO_MS(1));
    /* data chaining: 200-byte buffers, a 500-byte frame takes three */
    for (unsigned i = 0; i < 4; i++)
        rx_hang(r, i, 200);
    rindex = r->sys->deuna.rxnext;
    frame(f, rom, peer, 0x0800, 500, 7);
    CHECK(io_deuna_receive(d, f, 500) == IO_ETHER_RX_OK, "a frame in three buffers");
    unsigned i0 = rindex, i1 = (rindex + 1) % 4, i2 = (rindex + 2) % 4;
    CHECK((rx_w2(r, i0) & 0xFF00) == IO_DE_STP && (rx_w2(r, i1) & 0xFF00) == 0 &&
          (rx_w2(r, i2) & 0xFF00) == IO_DE_ENP && (rx_w3(r, i2) & IO_DE_MLEN) == 504 &&
          (rx_w2(r, (rindex + 3) % 4) & IO_DE_OWN), "STP, -, ENP with MLEN 504");
    CHECK(!memcmp(r->mem + PA(RXBUF(i0)), f, 200) && !memcmp(r->mem + PA(RXBUF(i1)), f + 200, 200) &&
          !memcmp(r->mem + PA(RXBUF(i2)), f + 400, 100), "the data in order");
    /* a frame longer than the buffers left: BUFL in the last, then lost */
    frame(f, rom, peer, 0x0800, 1000, 8);
    CHECK(io_deuna_receive(d, f, 1000) == IO_ETHER_RX_NOBUF, "1000 bytes, 200 of buffer");
    unsigned i3 = (rindex + 3) % 4;
    CHECK((rx_w2(r, i3) & (IO_DE_ERRS | IO_DE_STP | IO_DE_ENP | IO_DE_OWN)) ==
          (IO_DE_ERRS | IO_DE_STP | IO_DE_ENP) && (rx_w3(r, i3) & IO_DE_BUFL), "BUFL");
    for (unsigned i = 0; i < 4; i++)
        rx_hang(r, i, 200);
    dewait(r, 10);
    pdmd(r);
    dewait(r, IO_MS(1));
    /* no chaining (DRDC): the frame is cut, NCHN */
    getcmd(r, IO_DE_FC_WTMODE, IO_DE_MOD_TPAD | IO_DE_MOD_HDX | IO_DE_MOD_DRDC, 0, 0);
    rindex = r->sys->deuna.rxnext;
    CHECK(io_deuna_receive(d, f, 500) == IO_ETHER_RX_ERROR, "DRDC");
    CHECK((rx_w2(r, rindex) & IO_DE_ERRS) && (rx_w3(r, rindex) & IO_DE_NCHN) &&
          (rx_w2(r, (rindex + 1) % 4) & IO_DE_OWN), "NCHN, one entry");
    getcmd(r, IO_DE_FC_WTMODE, IO_DE_MOD_TPAD | IO_DE_MOD_HDX, 0, 0);
    /* a receive buffer past the map: UBTO; a ring past it: a ring error */
    rindex = r->sys->deuna.rxnext;
    m16(r, RXRING + 2u * ELEN * rindex + 4, IO_DE_OWN | 3);
    CHECK(io_deuna_receive(d, f, 100) == IO_ETHER_RX_ERROR &&
          (rx_w3(r, rindex) & IO_DE_UBTO) && (rx_w2(r, rindex) & IO_DE_ERRS), "UBTO");
    /* a receive ring the map does not reach: a ring error (SERI, status
     * RRNG), the frame lost and counted (system buffer unavailable); the
     * port goes on once the map is back */
    dewait(r, 10);
    uint32_t lost_sys = counter(r, IO_DE_C_LOST_SYSBUF);
    uint64_t rerr = d->ring_errors;
    wr32(r, UBA + UBA_MAP(RXRING / 512), 0);
    frame(f, rom, peer, 0x0800, 100, 0);
    CHECK(io_deuna_receive(d, f, 100) == IO_ETHER_RX_ERROR, "a ring past the map: not received");
    c = dewait(r, 10);
    CHECK((c & IO_DE_SERI) && !(c & IO_DE_RXI), "SERI, no RXI: %o", c);
    CHECK(counter(r, IO_DE_C_LOST_SYSBUF) == lost_sys + 1 && d->ring_errors == rerr + 1,
          "lost and counted: %u", counter(r, IO_DE_C_LOST_SYSBUF));
    wr32(r, UBA + UBA_MAP(RXRING / 512), 0x80000000u | (0x80u + RXRING / 512));
    wr32(r, UBA + UBA_SR, 0x7FF);
    getcmd(r, IO_DE_FC_RCSTATUS, 0, 0, 0);
    st = g16(r, PCB + 2);
    CHECK((st & (IO_DE_ST_ERRS | IO_DE_ST_TMOT | IO_DE_ST_RRNG)) ==
          (IO_DE_ST_ERRS | IO_DE_ST_TMOT | IO_DE_ST_RRNG) && !(st & IO_DE_ST_TRNG),
          "status: receive ring error %04X", st);
    /* the station address changes: the filter follows */
    static const uint8_t mine[6] = {0xAA, 0x00, 0x04, 0x00, 0x12, 0x34};
    getcmd(r, IO_DE_FC_WTPHYAD, le_get16(mine), le_get16(mine + 2), le_get16(mine + 4));
    for (unsigned i = 0; i < 4; i++)
        rx_hang(r, i, 1518);
    frame(f, rom, peer, 0x0800, 100, 0);
    CHECK(io_deuna_receive(d, f, 100) == IO_ETHER_RX_FILTERED, "the old address: filtered");
    frame(f, mine, peer, 0x0800, 100, 0);
    CHECK(io_deuna_receive(d, f, 100) == IO_ETHER_RX_OK, "the new one: received");
    CHECK(counter(r, IO_DE_C_RX_FRAMES) == 21 && counter(r, IO_DE_C_RX_MFRAMES) == 3,
          "frames received %u, multicast %u", counter(r, IO_DE_C_RX_FRAMES),
          counter(r, IO_DE_C_RX_MFRAMES));
    /* the counter block through READ AND CLEAR COUNTERS */
    rig_run(r, 3 * IO_CYCLES_PER_SEC);
    memset(r->mem + PA(CTRS), 0xEE, 80);
    CHECK(!(getcmd(r, IO_DE_FC_RCCNTS, CTRS, 0, 0) & IO_DE_PCEI), "RCCNTS");
    CHECK(g16(r, CTRS) == 68 && g16(r, CTRS + 2) == 3 && g16(r, CTRS + 4) == 21 &&
          g16(r, CTRS + 2 * IO_DE_C_LOST_USERBUF) == 5 && g16(r, CTRS + 68) == 0xEEEE,
          "the block: length %u, %u s, %u frames, %u lost", g16(r, CTRS), g16(r, CTRS + 2),
          g16(r, CTRS + 4), g16(r, CTRS + 2 * IO_DE_C_LOST_USERBUF));
    CHECK(counter(r, IO_DE_C_RX_FRAMES) == 0 && counter(r, IO_DE_C_SECONDS) == 0, "cleared");
    memset(r->mem + PA(CTRS), 0xEE, 80);
    getcmd(r, IO_DE_FC_RDCNTS, CTRS, 0, 4);
    CHECK(g16(r, CTRS + 6) == 0 && g16(r, CTRS + 8) == 0xEEEE, "a shorter block when asked");
    /* STOP: nothing received */
    wr8(r, PCSR0, IO_DE_INTE | IO_DE_CMD_STOP);
    dewait(r, IO_MS(1));
    CHECK(io_deuna_receive(d, f, 100) == IO_ETHER_RX_STOPPED, "stopped");
    rig_free(r);
}

/* LOOP: the frame comes back inside; full duplex: a broadcast comes back
 * from the wire too. */
static void loopback(void)
{
    static struct wire w;
    struct rig *r = rig_with_wire(&w);
    de_start(r, 2, 4, 1518, IO_DE_MOD_TPAD | IO_DE_MOD_LOOP);
    static const uint8_t other[6] = {0x02, 0, 0, 0, 1, 0x0A};
    uint8_t f[200];
    frame(f, other, rom, 0x0800, 150, 4);
    memcpy(r->mem + PA(TXBUF(0)), f, 150);
    tx_entry(r, 0, TXBUF(0), 150, IO_DE_OWN | IO_DE_STP | IO_DE_ENP);
    pdmd(r);
    RIG_WAIT(r, rd16(r, PCSR0) & IO_DE_RXI, IO_MS(1));
    CHECK(w.n == 0 && !(rx_w2(r, 0) & IO_DE_OWN) && (rx_w3(r, 0) & IO_DE_MLEN) == 154 &&
          !memcmp(r->mem + PA(RXBUF(0)) + 12, f + 12, 138), "looped back, not on the wire");
    wr8(r, PCSR0, IO_DE_INTE | IO_DE_CMD_STOP);
    dewait(r, IO_MS(1));
    getcmd(r, IO_DE_FC_WTMODE, IO_DE_MOD_TPAD, 0, 0);
    wr8(r, PCSR0, IO_DE_INTE | IO_DE_CMD_START);
    dewait(r, IO_MS(1));
    rx_hang(r, 0, 1518);
    frame(f, bcast, rom, 0x0806, 60, 4);
    memcpy(r->mem + PA(TXBUF(0)), f, 60);
    tx_entry(r, 0, TXBUF(0), 60, IO_DE_OWN | IO_DE_STP | IO_DE_ENP);
    tx_entry(r, 1, TXBUF(0), 60, 0);
    frame(f, other, rom, 0x0800, 60, 4);
    pdmd(r);
    RIG_WAIT(r, rd16(r, PCSR0) & IO_DE_RXI, IO_MS(1));
    CHECK(w.n == 1 && !(g16(r, TXRING + 4) & IO_DE_MTCH) && !(rx_w2(r, 0) & IO_DE_OWN),
          "full duplex: on the wire and received, no MTCH");
    rig_free(r);
}

int main(void)
{
    probe_attach();
    functions();
    transmit();
    receive();
    loopback();
    return rig_report("io-deuna");
}
