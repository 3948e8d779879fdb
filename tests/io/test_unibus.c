/* The DW780 and the DZ11, from ubareg.h, dzreg.h, 4.3BSD's uba.c, dz.c
 * and autoconf.c: UNIBUS references and UBASR for the addresses nobody
 * answers, map registers and DMA, buffered data paths, BRRVR and the
 * interrupt lines, adapter init; the DZ11's probe, transmit timing at the
 * programmed speed, the silo, its interrupts and vectors; and the
 * scripted terminal user (vax/io/io_script.h). */
#include "tests/io/io_rig.h"
#include "vax/io/io_script.h"

#define UBA_CR 0x04u
#define UBA_SR 0x08u
#define UBA_FUBAR 0x14u
#define UBA_BRRVR(l) (0x30u + 4u * (l))
#define UBA_DPR(n) (0x40u + 4u * (n))
#define UBA_MAP(n) (0x800u + 4u * (n))
#define IOPAGE(ua) UNIBUS(ua)   /* ua: 18 bits, the I/O page 0760000-0777777 */
#define DZ_CSR IOPAGE(0760100u)
#define DZ_RBUF (DZ_CSR + 2)
#define DZ_TCR (DZ_CSR + 4)
#define DZ_TDR (DZ_CSR + 6)

/* The CSR addresses 4.3BSD's GENERIC probes (ubdinit/ubminit), most of
 * which answer nothing here. */
static const uint32_t generic_csrs[] = {
    0776700, 0774400, 0776300, 0775400, 0777440, 0772410, 0772440, 0777514, 0772150,
    0774500, 0772520, 0772600, 0760020, 0760040, 0760060, 0760100, 0760110, 0760120,
    0760130, 0764000, 0772000, 0776500, 0776540, 0776560, 0777160, 0764330, 0764340,
    0774510, 0764370, 0767600, 0774440, 0770460, 0766000};

static void uba(void)
{
    struct rig *r = rig_new(NULL);
    uint32_t v;
    CHECK((rd32(r, UBA) & 0xFF) == 0x28 && (rd32(r, UBA) & IO_UBACNF_UBIC), "CNF: UBA 0, UBIC");
    /* autoconfiguration: probe every GENERIC address; the DZ and the DEUNA
     * answer */
    wr32(r, UBA + UBA_CR, IO_UBACR_IFS | IO_UBACR_BRIE);
    int answered = 0, quiet = 0;
    for (unsigned i = 0; i < sizeof generic_csrs / sizeof generic_csrs[0]; i++) {
        uint32_t a = generic_csrs[i];
        wr32(r, UBA + UBA_SR, rd32(r, UBA + UBA_SR)); /* uba_sr = uba_sr */
        CHECK(rig_rd(r, IOPAGE(a), 2, &v) == IO_OK, "badaddr succeeds for %o", a);
        if (rd32(r, UBA + UBA_SR))
            quiet++;
        else
            answered++;
    }
    CHECK(answered == 2 && quiet == 31, "%d answered, %d set UBASR", answered, quiet);
    wr32(r, UBA + UBA_SR, 0x7FF);
    rig_rd(r, IOPAGE(0777440), 2, &v);
    CHECK((rd32(r, UBA + UBA_SR) & IO_UBASR_UBSSYNTO) && v == 0, "hk: slave sync timeout");
    CHECK(rd32(r, UBA + UBA_FUBAR) == (((0777440u) >> 2) & 0xFFFF), "FUBAR %o",
          rd32(r, UBA + UBA_FUBAR));
    rig_rd(r, IOPAGE(0777514), 2, &v);
    CHECK(rd32(r, UBA + UBA_SR) & IO_UBASR_LEB, "a second one: lost error");
    wr32(r, UBA + UBA_SR, 0x7FF);
    CHECK(rd32(r, UBA + UBA_SR) == 0, "write one to clear");
    CHECK(rig_rd(r, IOPAGE(0760100), 4, &v) == IO_ERRCONF, "longword: error confirmation");
    CHECK(rig_rd(r, IOPAGE(0760101), 2, &v) == IO_ERRCONF, "odd word: error confirmation");
    CHECK(rig_rd(r, UBA + UBA_SR, 2, &v) == IO_ERRCONF, "registers: longwords only");
    CHECK(rig_rd(r, UBA + UBA_MAP(496), 4, &v) == IO_TIMEOUT, "no map register 496");
    /* the adapter's error interrupt (SUEFIE), vector bit 31 at BR5 */
    wr32(r, UBA + UBA_CR, IO_UBACR_IFS | IO_UBACR_BRIE | IO_UBACR_SUEFIE);
    rig_rd(r, IOPAGE(0777440), 2, &v);
    CHECK(io_abus_int_eval(&r->sys->abus, &v) == 0x15 && v == 0x100 + 0x40 + 12,
          "UBA request at IPL 0x15 through 0x14C (0x%X)", v);
    io_abus_int_ack(&r->sys->abus, 0x15);
    CHECK(rd32(r, UBA + UBA_BRRVR(1)) == 0x80000000u, "BRRVR: the adapter's interrupt");
    wr32(r, UBA + UBA_SR, 0x7FF);
    CHECK(io_abus_int_eval(&r->sys->abus, &v) == 0, "cleared");
    CHECK(rd32(r, UBA + UBA_BRRVR(1)) == 0, "passive release: 0");

    /* the map: DMA through it, a buffered path with byte offset */
    wr32(r, UBA + UBA_MAP(0), 0x80000000u | 100);
    wr32(r, UBA + UBA_MAP(1), 0x80000000u | (3u << 21) | 0x02000000u | 101);
    CHECK(rd32(r, UBA + UBA_MAP(1)) == (0x80000000u | (3u << 21) | 0x02000000u | 101),
          "map register reads back");
    uint8_t buf[600], back[600];
    for (unsigned i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i ^ 0x5A);
    const struct io_unibus *b = &r->sys->uba.bus;
    CHECK(b->dma_write(b->uba, 0, buf, 600) == 600, "DMA write across two map entries");
    CHECK(!memcmp(r->mem + 100 * 512, buf, 512) && !memcmp(r->mem + 101 * 512 + 1, buf + 512, 88),
          "page 101 through the byte offset");
    uint32_t dpr = rd32(r, UBA + UBA_DPR(3));
    CHECK((dpr & 0x80000000u) && (dpr & 0x20000000u), "BDP 3: buffer not empty, to memory");
    wr32(r, UBA + UBA_DPR(3), 0x80000000u);
    CHECK(!(rd32(r, UBA + UBA_DPR(3)) & 0x80000000u), "purge empties it");
    CHECK(b->dma_read(b->uba, 0, back, 600) == 600 && !memcmp(back, buf, 600), "DMA read");
    CHECK(b->dma_read(b->uba, 2 * 512, back, 10) == 0 &&
          (rd32(r, UBA + UBA_SR) & IO_UBASR_IVMR) && rd32(r, UBA + 0x10) == 2,
          "invalid map register 2: IVMR, FMER");
    wr32(r, UBA + UBA_SR, 0x7FF);
    wr32(r, UBA + UBA_MAP(2), 0x80000000u | 0xFFFFF);
    CHECK(b->dma_read(b->uba, 2 * 512, back, 10) == 0 && (rd32(r, UBA + UBA_SR) & IO_UBASR_RDTO),
          "non-existent memory: RDTO");
    wr32(r, UBA + UBA_SR, 0x7FF);
    wr32(r, UBA + UBA_CR, IO_UBACR_IFS | IO_UBACR_BRIE | (1u << 26)); /* maps 0-15 disabled */
    CHECK(b->dma_read(b->uba, 0, back, 10) == 0 && (rd32(r, UBA + UBA_SR) & IO_UBASR_IVMR),
          "map register disable");

    /* adapter init: only CNF answers, UBIC comes back after the UNIBUS init */
    uint64_t t0 = r->now;
    wr32(r, UBA + UBA_CR, IO_UBACR_ADINIT);
    CHECK(!(rd32(r, UBA) & IO_UBACNF_UBIC), "UBIC drops");
    CHECK(rig_rd(r, UBA + UBA_SR, 4, &v) == IO_TIMEOUT, "SR silent during adapter init");
    CHECK(RIG_WAIT(r, rd32(r, UBA) & IO_UBACNF_UBIC, IO_MS(10)), "UBIC returns");
    CHECK(r->now - t0 >= IO_MS(1), "after the UNIBUS init (%llu)", (unsigned long long)(r->now - t0));
    CHECK(rd32(r, UBA + UBA_MAP(0)) == 0, "the map is cleared");
    rig_free(r);
}

/* ---- the DZ11 ---- */

struct capture {
    char text[256];
    unsigned n;
    uint64_t last;
};

static void capture(void *ctx, unsigned line, uint8_t c, uint64_t when)
{
    struct capture *cp = ctx;
    if (line == 2 && cp->n < sizeof cp->text - 1)
        cp->text[cp->n++] = (char)c;
    cp->last = when;
}

static void dz(void)
{
    struct rig *r = rig_new(NULL);
    struct io_dz *dz = &r->sys->dz[0];
    uint32_t v;
    wr32(r, UBA + UBA_CR, IO_UBACR_IFS | IO_UBACR_BRIE);
    /* dzprobe: TIE|MSE|DZ_32; DZ_32 reads back 0 (not a DZ32); tcr = 1 */
    wr16(r, DZ_CSR, IO_DZCSR_TIE | IO_DZCSR_MSE | 1);
    CHECK(!(rd16(r, DZ_CSR) & 1), "bit 0 reads 0: a DZ11");
    wr8(r, DZ_TCR, 1);
    uint32_t csr = rd16(r, DZ_CSR);
    CHECK((csr & IO_DZCSR_TRDY) && ((csr >> 8) & 7) == 0, "TRDY for line 0 (%o)", csr);
    CHECK(io_abus_int_eval(&r->sys->abus, &v) == 0x15 && v == 0x14C, "UBA nexus request 0x%X",
          v);
    io_abus_int_ack(&r->sys->abus, 0x15);
    CHECK(rd32(r, UBA + UBA_BRRVR(1)) == 0304, "BRRVR: the transmit vector 0304");
    wr16(r, DZ_CSR, IO_DZCSR_CLR);
    CHECK(rd16(r, DZ_CSR) == 0 && rd16(r, DZ_TCR) == 0, "master clear");

    /* transmit on line 2 at 9600 baud, 8 bits, no parity: 10 bits a char */
    struct capture cp = {0};
    io_dz_set_output(dz, capture, &cp);
    wr16(r, DZ_RBUF, (14u << 8) | 030 | 2 | IO_DZLPR_RXON);
    CHECK(io_dz_char_cycles((14u << 8) | 030) == 10 * IO_CYCLES_PER_SEC / 9600,
          "a character at 9600 baud: %llu", (unsigned long long)io_dz_char_cycles((14u << 8) | 030));
    CHECK(io_dz_char_cycles((7u << 8) | 020 | 0100 | 040) == 11 * IO_CYCLES_PER_SEC / 1200,
          "7 bits, parity, 2 stop bits at 1200 baud");
    wr16(r, DZ_CSR, IO_DZCSR_MSE | IO_DZCSR_TIE);
    wr8(r, DZ_TCR, 1u << 2);
    const char *msg = "login: ";
    uint64_t t0 = r->now;
    for (const char *p = msg; *p; p++) {
        CHECK(RIG_WAIT(r, rd16(r, DZ_CSR) & IO_DZCSR_TRDY, IO_MS(5)), "TRDY");
        CHECK(((rd16(r, DZ_CSR) >> 8) & 7) == 2, "TLINE 2");
        wr8(r, DZ_TDR, (uint8_t)*p);
        CHECK(!(rd16(r, DZ_CSR) & IO_DZCSR_TRDY), "the line is busy");
    }
    rig_run(r, IO_MS(5));
    CHECK(!strcmp(cp.text, msg), "the line printed '%s'", cp.text);
    uint64_t want = 7 * io_dz_char_cycles((14u << 8) | 030);
    CHECK(cp.last - t0 >= want && cp.last - t0 < want + IO_US(10),
          "7 characters took %llu, the line time %llu", (unsigned long long)(cp.last - t0),
          (unsigned long long)want);
    /* disabling the line drops TRDY */
    CHECK(rd16(r, DZ_CSR) & IO_DZCSR_TRDY, "ready again");
    wr8(r, DZ_TCR, 0);
    CHECK(!(rd16(r, DZ_CSR) & IO_DZCSR_TRDY), "no enabled line");

    /* receive: silo, RDONE, the receive interrupt (vector 0300) */
    wr16(r, DZ_CSR, IO_DZCSR_MSE | IO_DZCSR_RIE);
    io_abus_int_ack(&r->sys->abus, 0x15);
    (void)rd32(r, UBA + UBA_BRRVR(1));
    CHECK(io_dz_receive(dz, 3, 'x') < 0, "line 3 receiver off: lost");
    CHECK(io_dz_receive(dz, 2, 'a') == 0 && io_dz_receive(dz, 2, 'b' | 0x80) == 0, "typed");
    CHECK(rd16(r, DZ_CSR) & IO_DZCSR_RDONE, "RDONE");
    CHECK(io_abus_int_eval(&r->sys->abus, &v) == 0x15, "receive request");
    io_abus_int_ack(&r->sys->abus, 0x15);
    CHECK(rd32(r, UBA + UBA_BRRVR(1)) == 0300, "the receive vector 0300");
    v = rd16(r, DZ_RBUF);
    CHECK(v == (IO_DZRBUF_DVAL | 2u << 8 | 'a'), "RBUF %o", v);
    v = rd16(r, DZ_RBUF);
    CHECK(v == (IO_DZRBUF_DVAL | 2u << 8 | ('b' | 0x80)), "8 bits kept: %o", v);
    CHECK(!(rd16(r, DZ_RBUF) & IO_DZRBUF_DVAL) && !(rd16(r, DZ_CSR) & IO_DZCSR_RDONE),
          "silo empty");
    /* 7-bit lines drop bit 7; the silo alarm after 16; overrun */
    wr16(r, DZ_RBUF, (14u << 8) | 020 | 2 | IO_DZLPR_RXON);
    wr16(r, DZ_CSR, IO_DZCSR_MSE | IO_DZCSR_RIE | IO_DZCSR_SAE);
    for (int i = 0; i < 15; i++)
        io_dz_receive(dz, 2, (uint8_t)('A' + i));
    CHECK(!(rd16(r, DZ_CSR) & IO_DZCSR_SA), "15: no alarm yet");
    io_dz_receive(dz, 2, 0xC1);
    CHECK(rd16(r, DZ_CSR) & IO_DZCSR_SA, "16: silo alarm");
    for (int i = 0; i < 48; i++)
        io_dz_receive(dz, 2, 'z');
    CHECK(io_dz_receive(dz, 2, '!') < 0, "65th character: the silo is full");
    unsigned n = 0, ovrn = 0, last = 0;
    while ((v = rd16(r, DZ_RBUF)) & IO_DZRBUF_DVAL) {
        if (n == 15)
            last = v & 0xFF;
        n++;
    }
    CHECK(n == 64 && last == 0x41, "64 in the silo, 7 bits (%u, %o)", n, last);
    io_dz_receive(dz, 2, 'q');
    v = rd16(r, DZ_RBUF);
    ovrn = v & IO_DZRBUF_OVRN;
    CHECK(ovrn && (v & 0xFF) == 'q', "the next one carries OVRN");
    /* modem status: carrier for a line, DTR as the driver set it */
    io_dz_set_carrier(dz, 5, 1);
    wr8(r, DZ_TCR + 1, 1u << 5);
    uint32_t msr = 0;
    rig_rd(r, DZ_TDR + 1, 1, &msr); /* dzmsr: the byte at offset 7 */
    CHECK(msr == (1u << 5) && io_dz_dtr(dz, 5) && !io_dz_dtr(dz, 4), "carrier, DTR");
    /* UNIBUS init clears the DZ */
    wr32(r, UBA + UBA_CR, IO_UBACR_ADINIT);
    rig_run(r, IO_MS(2));
    CHECK(rd16(r, DZ_CSR) == 0, "INIT cleared it");
    rig_free(r);
}

/* ---- the scripted terminal user ---- */

struct term {
    struct io_events ev;
    uint64_t now;
    char typed[64];
    uint64_t at[64];
    unsigned n;
    char why[600];
};

static void term_type(void *ctx, uint8_t c)
{
    struct term *t = ctx;
    t->at[t->n] = t->now;
    t->typed[t->n++] = (char)c;
}

static void term_stop(void *ctx, const char *why)
{
    snprintf(((struct term *)ctx)->why, sizeof ((struct term *)ctx)->why, "%s", why);
}

static void run_term(struct term *t, uint64_t to)
{
    while (io_events_next(&t->ev) <= to) {
        t->now = io_events_next(&t->ev);
        io_events_run(&t->ev);
    }
    t->now = to;
}

static void output(struct io_term_user *u, const char *s)
{
    while (*s)
        io_term_user_output(u, (uint8_t)*s++ | 0x80); /* even parity: stripped */
}

static void script(void)
{
    struct io_script s;
    char err[300];
    const char *bad[] = {"expect\n", "send \\q\n", "sleep x\n", "sleep -1\n", "jump 3\n",
                         "halt now\n", "send \\x\n", "think 0\n", "think\n", "repeat\n",
                         "loop x\n", "loop\nloop\n", "loop\nrepeat\n", "loop\nsleep 0\nrepeat\n",
                         "loop\nsend a\nrepeat 0\n", "loop\nsend a\nrepeat 2x\n",
                         "loop\nsend a\nrepeat 99999999999\n",
                         "loop\nsend a\nrepeat 2\nsend b\nrepeat\n"};
    const char *want[] = {"needs a text", "bad escape", "sleep needs", "sleep needs",
                          "unknown command", "halt takes nothing", "bad escape", "think needs",
                          "think needs", "repeat without a loop", "loop takes nothing",
                          "a second loop", "never wait", "never wait", "repeat takes",
                          "repeat takes", "repeat takes", "a second repeat"};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[64];
        snprintf(text, sizeof text, "# a comment\n\n%s", bad[i]);
        unsigned at = 3; /* the error's line: the last of the case */
        for (const char *c = bad[i]; *c; c++)
            at += *c == '\n' && c[1];
        char where[32];
        snprintf(where, sizeof where, "t.script:%u:", at);
        CHECK(io_script_parse(text, strlen(text), "t.script", &s, err, sizeof err) < 0 &&
              strstr(err, where) && strstr(err, want[i]), "'%s': %s", bad[i], err);
    }
    const char *text = "expect login: \r\n"
                       "send root\\r\n"
                       "# comment\n"
                       "sleep 0.5\n"
                       "expect # \n"
                       "send \\x41\\t\n"
                       "expect never\n";
    CHECK(io_script_parse(text, strlen(text), "t.script", &s, err, sizeof err) == 0 && s.n == 6,
          "parse: %s", err);
    CHECK(s.step[1].len == 5 && !memcmp(s.step[1].text, "root\r", 5), "send text unescaped");
    CHECK(s.step[2].cycles == IO_CYCLES_PER_SEC / 2 && s.step[3].line == 5, "sleep, line numbers");
    CHECK(s.step[0].len == 7, "a CRLF line ends before the CR, trailing space kept");

    struct term t = {0};
    io_events_init(&t.ev, &t.now);
    struct io_term_user u;
    struct io_user_cfg cfg = {.type_cycles = 1000, .timeout_cycles = IO_MS(10), .type = term_type,
                              .type_ctx = &t, .stop = term_stop, .stop_ctx = &t};
    io_term_user_start(&u, &t.ev, &s, &cfg);
    run_term(&t, 5000);
    CHECK(t.n == 0, "waits for the prompt");
    output(&u, "\r\nlogin: ");
    CHECK(t.n == 0, "the first character a type interval later");
    run_term(&t, t.now + 10000);
    CHECK(t.n == 5 && !memcmp(t.typed, "root\r", 5) && t.at[1] - t.at[0] == 1000,
          "typed at the pace: %.*s", (int)t.n, t.typed);
    output(&u, "# "); /* before the sleep ends: still counts */
    run_term(&t, t.now + IO_CYCLES_PER_SEC / 2 - 9000);
    CHECK(t.n == 5, "sleeping");
    run_term(&t, t.now + 20000);
    CHECK(t.n == 7 && t.typed[5] == 'A' && t.typed[6] == '\t', "after the sleep and the match");
    CHECK(u.state == IO_USER_RUNNING && !t.why[0], "waiting for 'never'");
    run_term(&t, t.now + IO_MS(11));
    CHECK(u.state == IO_USER_FAILED && strstr(t.why, "t.script:7") && strstr(t.why, "never"),
          "timeout names the line: %s", t.why);
    io_term_user_free(&u);
    io_script_free(&s);

    const char *h = "expect ok\nhalt\nsend x\n";
    CHECK(io_script_parse(h, strlen(h), "h", &s, err, sizeof err) == 0, "parse halt");
    struct term t2 = {0};
    io_events_init(&t2.ev, &t2.now);
    cfg.type_ctx = cfg.stop_ctx = &t2;
    io_term_user_start(&u, &t2.ev, &s, &cfg);
    output(&u, "ok");
    CHECK(u.state == IO_USER_DONE && strstr(t2.why, "h:2: halt"), "halt: %s", t2.why);
    run_term(&t2, IO_MS(20));
    CHECK(t2.n == 0, "nothing typed after halt");
    io_term_user_free(&u);
    io_script_free(&s);
}

/* think, loop and repeat: a Multics-style user's rounds, the same waits
 * for the same seed */
static uint64_t think_run(uint64_t seed, char *typed, uint64_t *rounds, uint64_t *thought)
{
    struct io_script s;
    char err[300];
    const char *text = "send x\nloop\nsend ab\nthink 0.01\nrepeat 3\nsend y\nhalt\n";
    CHECK(io_script_parse(text, strlen(text), "r", &s, err, sizeof err) == 0, "parse: %s", err);
    struct term t = {0};
    io_events_init(&t.ev, &t.now);
    struct io_term_user u;
    struct io_user_cfg cfg = {.type_cycles = 1000, .timeout_cycles = IO_MS(10), .type = term_type,
                              .type_ctx = &t, .stop = term_stop, .stop_ctx = &t, .seed = seed,
                              .who = "dz0 line 5 script"};
    io_term_user_start(&u, &t.ev, &s, &cfg);
    run_term(&t, IO_CYCLES_PER_SEC);
    CHECK(u.state == IO_USER_DONE && strstr(t.why, "dz0 line 5 script r:7: halt"),
          "the rounds end, then halt: %s", t.why);
    memcpy(typed, t.typed, t.n);
    typed[t.n] = 0;
    *rounds = u.rounds;
    *thought = u.thought;
    uint64_t last = t.at[t.n - 1];
    io_term_user_free(&u);
    io_script_free(&s);
    return last;
}

static void rounds(void)
{
    char a[64], b[64], c[64];
    uint64_t ra, rb, rc, ta, tb, tc;
    uint64_t ea = think_run(7, a, &ra, &ta), eb = think_run(7, b, &rb, &tb),
             ec = think_run(8, c, &rc, &tc);
    CHECK(!strcmp(a, "xabababy") && ra == 3, "three rounds: %s, %llu", a,
          (unsigned long long)ra);
    CHECK(ea == eb && ta == tb && !strcmp(a, b), "the same seed, the same times");
    CHECK(ec != ea && tc != ta && !strcmp(c, a), "another seed, other think times");
    /* three exponential waits of mean 10 ms: far from 0 and from a second */
    CHECK(ta > IO_MS(1) && ta < IO_MS(200) && ea == 8 * 1000 + ta,
          "think time %llu cycles, last key at %llu", (unsigned long long)ta,
          (unsigned long long)ea);
}

int main(void)
{
    uba();
    dz();
    script();
    rounds();
    return rig_report("io-unibus");
}
