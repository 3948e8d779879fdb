/* The network outside the VAX (vax/io/io_netsrc.h) with a stand-in
 * station: the same seed gives the same frames at the same microcycles
 * and another seed other ones; the arrivals are Poisson at the rate; the
 * mix is the one asked for; every frame is well formed (checksums,
 * lengths); the hosts answer the VAX's ARP and echo requests and the
 * source counts what the VAX sends; the two directions defer to each
 * other on the wire; an overloaded wire loses arrivals, counted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vax/io/io_netsrc.h"

#include "io_check.h"

struct rec {
    uint64_t when;
    uint32_t len, sum;
    int from_vax;
    uint8_t head[64];
};

struct world {
    uint64_t now;
    struct io_events ev;
    struct io_netsrc net;
    struct rec *r;
    size_t n, cap;
    uint64_t received;          /* frames the stand-in station was given */
    int refuse;                 /* the station filters every frame */
    uint64_t last_rx;
};

static void tap(void *ctx, const uint8_t *f, uint32_t len, uint64_t when, int from_vax)
{
    struct world *w = ctx;
    if (w->n == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 4096;
        w->r = realloc(w->r, w->cap * sizeof *w->r);
    }
    struct rec *r = &w->r[w->n++];
    r->when = when;
    r->len = len;
    r->from_vax = from_vax;
    r->sum = 0;
    for (uint32_t i = 0; i < len; i++)
        r->sum = r->sum * 31 + f[i];
    memset(r->head, 0, sizeof r->head);
    memcpy(r->head, f, len < 64 ? len : 64);
}

static enum io_ether_rx station(void *ctx, const uint8_t *f, uint32_t len)
{
    struct world *w = ctx;
    (void)f;
    (void)len;
    w->received++;
    w->last_rx = w->now;
    return w->refuse ? IO_ETHER_RX_FILTERED : IO_ETHER_RX_OK;
}

static const uint8_t vax_mac[6] = {0x08, 0x00, 0x2B, 0x47, 0x54, 0x49};

static struct world *world_new(double rate, uint64_t seed, const unsigned *mix)
{
    struct world *w = calloc(1, sizeof *w);
    io_events_init(&w->ev, &w->now);
    struct io_netsrc_config c = {.rate = rate, .seed = seed};
    memcpy(c.vax_mac, vax_mac, 6);
    if (mix)
        memcpy(c.mix, mix, sizeof c.mix);
    struct io_ether_station st = {.ctx = w, .receive = station};
    char err[200];
    if (io_netsrc_init(&w->net, &w->ev, &c, &st, err, sizeof err) < 0) {
        printf("io_netsrc_init: %s\n", err);
        exit(1);
    }
    io_netsrc_set_tap(&w->net, tap, w);
    return w;
}

static void world_free(struct world *w)
{
    io_netsrc_free(&w->net);
    free(w->r);
    free(w);
}

static void run_to(struct world *w, uint64_t t)
{
    while (io_events_next(&w->ev) <= t) {
        w->now = io_events_next(&w->ev);
        io_events_run(&w->ev);
    }
    w->now = t;
}

/* ---- checking frames ---- */

static uint16_t g16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

static uint16_t csum(const uint8_t *p, uint32_t n, uint32_t s)
{
    for (uint32_t i = 0; i + 1 < n; i += 2)
        s += (uint32_t)p[i] << 8 | p[i + 1];
    if (n & 1)
        s += (uint32_t)p[n - 1] << 8;
    while (s >> 16)
        s = (s & 0xFFFF) + (s >> 16);
    return (uint16_t)s;
}

/* 0 if the frame is well formed, else what is wrong. */
static const char *malformed(const uint8_t *f, uint32_t len)
{
    if (len < 60 || len > 1514)
        return "length";
    uint16_t type = g16(f + 12);
    if (type == 0x0806)
        return g16(f + 14) == 1 && g16(f + 16) == 0x0800 && f[18] == 6 && f[19] == 4 &&
                       !memcmp(f + 6, f + 22, 6) ? NULL : "ARP";
    if (type == 0x0600) {
        uint16_t l = g16(f + 16);
        return g16(f + 14) == 0xFFFF && l >= 30 && 14u + l <= len && f[19] == 1 &&
                       g16(f + 30) == 1 && (l - 32) % 6 == 0 ? NULL : "IDP";
    }
    if (type != 0x0800)
        return "ethertype";
    const uint8_t *ip = f + 14;
    uint16_t tot = g16(ip + 2);
    if (ip[0] != 0x45 || 14u + tot > len || csum(ip, 20, 0) != 0xFFFF)
        return "IP header";
    const uint8_t *d = ip + 20;
    uint32_t dl = tot - 20u;
    if (ip[9] == 1)
        return csum(d, dl, 0) == 0xFFFF ? NULL : "ICMP checksum";
    if (ip[9] == 17) {
        uint32_t s = csum(ip + 12, 8, 0) + 17 + dl;
        return g16(d + 4) == dl && csum(d, dl, s) == 0xFFFF ? NULL : "UDP checksum";
    }
    return "IP protocol";
}

/* The kind of a frame the source sent (its own classification). */
static int kind_of(const uint8_t *f)
{
    uint16_t type = g16(f + 12);
    if (type == 0x0600)
        return IO_NET_XNS;
    if (type == 0x0806)
        return f[41] == 2 ? IO_NET_ARP : IO_NET_OTHER; /* who has 192.168.1.2? */
    if (f[23] == 1)
        return IO_NET_ECHO;
    return g16(f + 36) == 520 ? IO_NET_RIP : IO_NET_OTHER;
}

/* ---- the tests ---- */

static void determinism(void)
{
    struct world *a = world_new(5000, 7, NULL), *b = world_new(5000, 7, NULL),
                 *c = world_new(5000, 8, NULL);
    run_to(a, IO_CYCLES_PER_SEC);
    run_to(b, IO_CYCLES_PER_SEC);
    run_to(c, IO_CYCLES_PER_SEC);
    int same = a->n == b->n, diff = 0;
    for (size_t i = 0; same && i < a->n; i++)
        same = a->r[i].when == b->r[i].when && a->r[i].len == b->r[i].len &&
               a->r[i].sum == b->r[i].sum;
    for (size_t i = 0; i < a->n && i < c->n; i++)
        diff += a->r[i].when != c->r[i].when || a->r[i].sum != c->r[i].sum;
    CHECK(a->n > 4500 && same, "seed 7 twice: %zu and %zu frames, the same times and bytes",
          a->n, b->n);
    CHECK(diff > (int)a->n / 2, "seed 8: other frames (%d of %zu differ)", diff, a->n);
    CHECK(!memcmp(&a->net.st, &b->net.st, sizeof a->net.st), "the same counts");
    int bad = 0;
    for (size_t i = 1; i < a->n; i++)
        bad += a->r[i].when < a->r[i - 1].when;
    CHECK(!bad, "times in order");
    world_free(a);
    world_free(b);
    world_free(c);
}

/* Every frame the source sends, checked whole. */
static int wf_bad, wf_n;
static const char *wf_why;
static void wf_tap(void *ctx, const uint8_t *f, uint32_t len, uint64_t when, int from_vax)
{
    (void)ctx;
    (void)when;
    if (from_vax)
        return;
    wf_n++;
    const char *w = malformed(f, len);
    if (w) {
        wf_bad++;
        wf_why = w;
    }
}

static void wellformed(void)
{
    struct world *w = world_new(4000, 3, NULL);
    io_netsrc_set_tap(&w->net, wf_tap, w);
    run_to(w, 2 * IO_CYCLES_PER_SEC);
    CHECK(wf_n > 7000 && !wf_bad, "%d frames, %d malformed (%s)", wf_n, wf_bad,
          wf_why ? wf_why : "-");
    world_free(w);
}

static void poisson_and_mix(void)
{
    /* a light load: the wire rarely makes a frame wait */
    struct world *w = world_new(500, 11, NULL);
    run_to(w, 40 * IO_CYCLES_PER_SEC);
    double n = (double)w->n, mean = (double)(w->r[w->n - 1].when - w->r[0].when) / (n - 1);
    double var = 0;
    for (size_t i = 1; i < w->n; i++) {
        double d = (double)(w->r[i].when - w->r[i - 1].when) - mean;
        var += d * d;
    }
    double cv = sqrt(var / (n - 2)) / mean;
    double want = IO_CYCLES_PER_SEC / 500.0;
    CHECK(fabs(mean / want - 1) < 0.03, "mean interarrival %.0f microcycles (want %.0f)", mean,
          want);
    CHECK(cv > 0.95 && cv < 1.05, "exponential: coefficient of variation %.3f", cv);
    unsigned by[IO_NET_KINDS] = {0};
    for (size_t i = 0; i < w->n; i++)
        by[kind_of(w->r[i].head)]++;
    printf("500 frames/s for 40 s: %zu frames, mean interarrival %.0f microcycles (%.0f), "
           "c.v. %.3f; arp %u echo %u rip %u xns %u other %u\n", w->n, mean, want, cv, by[0],
           by[1], by[2], by[3], by[4]);
    for (int k = 0; k < IO_NET_KINDS; k++) {
        double share = by[k] / n, target = io_netsrc_default_mix[k] / 100.0;
        CHECK(fabs(share - target) < 0.015 && by[k] == w->net.st.sent[k],
              "%s: %.3f of %zu frames (target %.2f; the source counted %llu)",
              io_net_kind_names[k], share, w->n, target, (unsigned long long)w->net.st.sent[k]);
    }
    CHECK(w->net.st.delivered == w->received && w->received == w->n, "all given to the station");
    world_free(w);
    /* another mix */
    unsigned mix[IO_NET_KINDS];
    char err[200];
    CHECK(io_netsrc_parse_mix("xns=1,arp=3", mix, err, sizeof err) == 0, "parse: %s", err);
    w = world_new(2000, 1, mix);
    run_to(w, 2 * IO_CYCLES_PER_SEC);
    double arp = (double)w->net.st.sent[IO_NET_ARP] / (double)w->n;
    CHECK(w->net.st.sent[IO_NET_ECHO] + w->net.st.sent[IO_NET_RIP] + w->net.st.sent[IO_NET_OTHER] == 0 &&
          fabs(arp - 0.75) < 0.02, "arp=3,xns=1: arp share %.3f", arp);
    world_free(w);
    static const char *badmix[] = {"", "arp", "arp=", "arp=x", "ping=3", "arp=1,arp=2",
                                   "arp=0,xns=0", "arp=1;xns=2", "arp=2000000", "arp=-1"};
    for (unsigned i = 0; i < sizeof badmix / sizeof badmix[0]; i++)
        CHECK(io_netsrc_parse_mix(badmix[i], mix, err, sizeof err) < 0 && err[0],
              "'%s' refused", badmix[i]);
}

/* An ICMP echo message from the VAX to 192.168.1.h, as ping's. */
static void echo(uint8_t *e, unsigned type, unsigned h, unsigned id, unsigned seq)
{
    static const uint8_t mac[6] = {0x08, 0x00, 0x2B, 0x00, 0x00, 0x77};
    memset(e, 0, 98);
    memcpy(e, vax_mac, 6);
    memcpy(e + 6, mac, 6);
    e[12] = 8;
    e[14] = 0x45, e[17] = 84, e[22] = 30, e[23] = 1;
    memcpy(e + 26, io_netsrc_vax_ip, 4);
    e[30] = 192, e[31] = 168, e[32] = 1, e[33] = (uint8_t)h;
    uint16_t s = (uint16_t)~csum(e + 14, 20, 0);
    e[24] = (uint8_t)(s >> 8), e[25] = (uint8_t)s;
    e[34] = (uint8_t)type;
    e[38] = (uint8_t)(id >> 8), e[39] = (uint8_t)id, e[40] = (uint8_t)(seq >> 8), e[41] = (uint8_t)seq;
    for (int i = 8; i < 56; i++)
        e[42 + i] = (uint8_t)i;
    s = (uint16_t)~csum(e + 34, 64, 0);
    e[36] = (uint8_t)(s >> 8), e[37] = (uint8_t)s;
}

/* The VAX's side: what it sends is consumed, answered where a host
 * would answer. */
static void vax_side(void)
{
    struct world *w = world_new(0, 1, NULL);
    struct io_ether_wire wire = io_netsrc_wire(&w->net);
    uint8_t f[128] = {0};
    static const uint8_t bc[6] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    static const uint8_t mac2[6] = {0x08, 0x00, 0x2B, 0x00, 0x00, 0x77};
    /* an ARP request for 192.168.1.11 (a host), from a new station address */
    memcpy(f, bc, 6);
    memcpy(f + 6, mac2, 6);
    f[12] = 0x08, f[13] = 0x06, f[14] = 0, f[15] = 1, f[16] = 8, f[17] = 0, f[18] = 6, f[19] = 4;
    f[21] = 1;
    memcpy(f + 22, mac2, 6);
    memcpy(f + 28, io_netsrc_vax_ip, 4);
    f[38] = 192, f[39] = 168, f[40] = 1, f[41] = 11;
    w->now = 1000;
    uint64_t end = wire.transmit(wire.ctx, f, 60, 1000);
    CHECK(end == 1000 + io_ether_frame_cycles(60), "sent at once on a free wire");
    CHECK(w->n == 1 && w->r[0].from_vax && w->r[0].when == 1000, "tapped at its first bit");
    run_to(w, end + IO_NETSRC_ANSWER_CYCLES + 2000);
    CHECK(w->n == 2 && !w->r[1].from_vax && w->r[1].when == end + IO_NETSRC_ANSWER_CYCLES,
          "the host answers 200 us after the request");
    const uint8_t *a = w->r[1].head;
    CHECK(!memcmp(a, mac2, 6) && g16(a + 20) == 2 && a[31] == 11 && !memcmp(a + 32, mac2, 6) &&
          !memcmp(a + 38, io_netsrc_vax_ip, 4) && !memcmp(a + 6, a + 22, 6),
          "an ARP reply from 192.168.1.11 to the VAX");
    CHECK(w->received == 1 && w->net.st.vax_arp_requests == 1 && w->net.st.answers == 1,
          "counted");
    CHECK(!memcmp(w->net.vax_mac, mac2, 6), "the VAX's address learnt");
    /* an ARP request for a stranger: not answered */
    f[41] = 99;
    w->now += 10000;
    wire.transmit(wire.ctx, f, 60, w->now);
    run_to(w, w->now + IO_MS(1));
    CHECK(w->n == 3 && w->net.st.answers == 1, "192.168.1.99 is nobody");
    /* the VAX's echo reply to host .10's request 0 (sent: echo_seq 1) */
    w->net.echo_seq[0] = 1;
    uint8_t e[98];
    echo(e, 0, 10, 0x010A, 0);
    w->now += 10000;
    wire.transmit(wire.ctx, e, 98, w->now);
    CHECK(w->net.st.vax_echo_replies == 1 && w->net.st.vax_echo_matched == 1,
          "an echo reply to the host's request");
    echo(e, 0, 10, 0x010A, 5);
    wire.transmit(wire.ctx, e, 98, w->now);
    CHECK(w->net.st.vax_echo_replies == 2 && w->net.st.vax_echo_matched == 1,
          "a sequence number never sent: not matched");
    /* the VAX pings the router: the router answers */
    echo(e, 8, 1, 0x7777, 3);
    size_t before = w->n;
    w->now += 10000;
    wire.transmit(wire.ctx, e, 98, w->now);
    run_to(w, w->now + IO_MS(1));
    CHECK(w->net.st.vax_echo_requests == 1 && w->n == before + 2 &&
          w->r[before + 1].head[34] == 0 && w->r[before + 1].head[29] == 1 &&
          g16(w->r[before + 1].head + 38) == 0x7777 && g16(w->r[before + 1].head + 40) == 3,
          "the router's echo reply");
    uint64_t deferred = w->net.st.deferred;
    /* the VAX's RIP, XNS and something else */
    uint8_t u[60] = {0};
    memcpy(u, bc, 6);
    u[12] = 8, u[14] = 0x45, u[17] = 46, u[23] = 17, u[36] = 0x02, u[37] = 0x08;
    wire.transmit(wire.ctx, u, 60, w->now);
    u[12] = 6, u[13] = 0, u[19] = 1, u[30] = 0, u[31] = 1;
    wire.transmit(wire.ctx, u, 60, w->now);
    u[12] = 0x60, u[13] = 0x03;
    wire.transmit(wire.ctx, u, 60, w->now);
    CHECK(w->net.st.vax_rip == 1 && w->net.st.vax_xns == 1 && w->net.st.vax_other == 1,
          "RIP %llu, XNS %llu, other %llu", (unsigned long long)w->net.st.vax_rip,
          (unsigned long long)w->net.st.vax_xns, (unsigned long long)w->net.st.vax_other);
    CHECK(w->net.st.deferred - deferred == 2, "the last two waited for the wire: %llu",
          (unsigned long long)(w->net.st.deferred - deferred));
    CHECK(w->r[w->n - 1].when == w->r[w->n - 2].when + io_ether_frame_cycles(60) +
          IO_ETHER_GAP_CYCLES, "one after the other, with the gap");
    world_free(w);
}

/* The two directions share the wire; an overloaded one loses arrivals. */
static void sharing(void)
{
    struct world *w = world_new(3000, 5, NULL);
    struct io_ether_wire wire = io_netsrc_wire(&w->net);
    uint8_t f[1514] = {0};
    f[0] = 0x02, f[12] = 0x60, f[13] = 0x04;
    /* the VAX sends a long frame every 2 ms */
    uint64_t deferred = 0, t = 0;
    for (int i = 0; i < 500; i++) {
        t += IO_MS(2);
        run_to(w, t);
        uint64_t end = wire.transmit(wire.ctx, f, 1514, t);
        deferred += end > t + io_ether_frame_cycles(1514);
    }
    run_to(w, t + IO_MS(10));
    int overlap = 0;
    for (size_t i = 1; i < w->n; i++)
        overlap += w->r[i].when < w->r[i - 1].when + io_ether_frame_cycles(w->r[i - 1].len) +
                                      IO_ETHER_GAP_CYCLES;
    CHECK(!overlap, "never two frames on the wire at once (%zu frames)", w->n);
    CHECK(deferred > 0 && w->net.st.deferred > deferred, "both sides deferred: the VAX %llu, "
          "in all %llu", (unsigned long long)deferred, (unsigned long long)w->net.st.deferred);
    world_free(w);
    w = world_new(200000, 5, NULL);
    w->refuse = 1;
    run_to(w, IO_CYCLES_PER_SEC / 10);
    CHECK(w->net.st.overrun > 10000 && w->net.nq <= IO_NETSRC_QUEUE,
          "200000 frames/s: %llu arrivals lost, %zu sent", (unsigned long long)w->net.st.overrun,
          w->n);
    CHECK(w->net.st.filtered == w->received && w->received > 0, "the station's answers counted");
    world_free(w);
    /* rate 0: silence */
    w = world_new(0, 5, NULL);
    run_to(w, IO_CYCLES_PER_SEC);
    CHECK(w->n == 0 && io_events_next(&w->ev) == UINT64_MAX, "no arrivals, nothing armed");
    world_free(w);
    struct io_events ev;
    uint64_t now = 0;
    io_events_init(&ev, &now);
    struct io_netsrc n;
    struct io_netsrc_config c = {.rate = -1};
    struct io_ether_station st = {0};
    char err[200];
    CHECK(io_netsrc_init(&n, &ev, &c, &st, err, sizeof err) < 0, "rate -1 refused");
    c.rate = 2e6;
    CHECK(io_netsrc_init(&n, &ev, &c, &st, err, sizeof err) < 0, "rate 2e6 refused");
    c.rate = NAN;
    CHECK(io_netsrc_init(&n, &ev, &c, &st, err, sizeof err) < 0, "NaN refused");
}

int main(void)
{
    determinism();
    wellformed();
    poisson_and_mix();
    vax_side();
    sharing();
    printf("io-netsrc: %d checks, %d failed\n", checks, fails);
    return fails ? 1 : 0;
}
