/* The network outside the VAX (io_netsrc.h). */
#include "vax/io/io_netsrc.h"
#include "vax/io/io_random.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ETHERTYPE_IP 0x0800u
#define ETHERTYPE_ARP 0x0806u
#define ETHERTYPE_NS 0x0600u
#define IP_TTL 30u
#define RIP_PORT 520u
#define NFS_PORT 2049u
#define ECHO_DATA 56u
#define ECHO_ID(h) (0x0100u + (h))
#define ROUTER 1u
#define HOST0 10u         /* hosts 10-13 */
#define OTHER0 20u        /* other hosts 20-23 */

const char *const io_net_kind_names[IO_NET_KINDS] = {"arp", "echo", "rip", "xns", "other"};
const unsigned io_netsrc_default_mix[IO_NET_KINDS] = {10, 30, 15, 15, 30};
const uint8_t io_netsrc_vax_ip[4] = {192, 168, 1, 2};

static const uint8_t bcast_mac[IO_ETHER_ADDR] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
static const uint8_t bcast_ip[4] = {192, 168, 1, 255};

/* ---- random numbers, exponential times ---- */

static unsigned below(uint64_t *s, unsigned n) { return (unsigned)(io_rand_next(s) % n); }

static uint64_t interarrival(struct io_netsrc *n)
{
    return io_rand_interarrival(&n->rng_time, n->mean, UINT64_C(1000000000000000));
}

/* ---- addresses ---- */

static void host_mac(unsigned h, uint8_t *m)
{
    static const uint8_t base[IO_ETHER_ADDR] = {0x02, 0x00, 0x00, 0x00, 0x01, 0x00};
    memcpy(m, base, IO_ETHER_ADDR);
    m[5] = (uint8_t)h;
}

static void host_ip(unsigned h, uint8_t *ip)
{
    ip[0] = 192;
    ip[1] = 168;
    ip[2] = 1;
    ip[3] = (uint8_t)h;
}

/* The host behind an IP address of this network, or 0. */
static unsigned host_of(const uint8_t *ip)
{
    if (ip[0] != 192 || ip[1] != 168 || ip[2] != 1)
        return 0;
    unsigned h = ip[3];
    return h == ROUTER || (h >= HOST0 && h < HOST0 + 4) || (h >= OTHER0 && h < OTHER0 + 4) ? h : 0;
}

/* ---- frame building ---- */

static void be16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void be32(uint8_t *p, uint32_t v)
{
    be16(p, v >> 16);
    be16(p + 2, v);
}

static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

static uint32_t sum16(const uint8_t *p, uint32_t n, uint32_t s)
{
    for (uint32_t i = 0; i + 1 < n; i += 2)
        s += (uint32_t)p[i] << 8 | p[i + 1];
    if (n & 1)
        s += (uint32_t)p[n - 1] << 8;
    return s;
}

static uint16_t fold(uint32_t s)
{
    while (s >> 16)
        s = (s & 0xFFFF) + (s >> 16);
    return (uint16_t)~s;
}

static uint32_t eth(uint8_t *f, const uint8_t *dst, const uint8_t *src, uint16_t type)
{
    memcpy(f, dst, IO_ETHER_ADDR);
    memcpy(f + 6, src, IO_ETHER_ADDR);
    be16(f + 12, type);
    return IO_ETHER_HDR;
}

static uint32_t arp(uint8_t *f, const uint8_t *dst, unsigned op, const uint8_t *sha,
                    const uint8_t *spa, const uint8_t *tha, const uint8_t *tpa)
{
    uint8_t *a = f + eth(f, dst, sha, ETHERTYPE_ARP);
    be16(a, 1);
    be16(a + 2, ETHERTYPE_IP);
    a[4] = 6;
    a[5] = 4;
    be16(a + 6, op);
    memcpy(a + 8, sha, 6);
    memcpy(a + 14, spa, 4);
    memcpy(a + 18, tha, 6);
    memcpy(a + 24, tpa, 4);
    return IO_ETHER_HDR + 28;
}

/* An IP header before `len` bytes of protocol data. */
static void ip(struct io_netsrc *n, uint8_t *p, const uint8_t *src, const uint8_t *dst,
               unsigned proto, uint32_t len)
{
    p[0] = 0x45;
    p[1] = 0;
    be16(p + 2, 20 + len);
    be16(p + 4, n->ip_id++);
    be16(p + 6, 0);
    p[8] = IP_TTL;
    p[9] = (uint8_t)proto;
    be16(p + 10, 0);
    memcpy(p + 12, src, 4);
    memcpy(p + 16, dst, 4);
    be16(p + 10, fold(sum16(p, 20, 0)));
}

/* A UDP datagram's checksum, the pseudo header included. */
static void udp_sum(uint8_t *ipp)
{
    uint8_t *u = ipp + 20;
    uint32_t len = get16(u + 4);
    uint32_t s = sum16(ipp + 12, 8, 0) + 17 + len;
    be16(u + 6, 0);
    uint16_t c = fold(sum16(u, len, s));
    be16(u + 6, c ? c : 0xFFFF);
}

static uint32_t echo_packet(struct io_netsrc *n, uint8_t *f, const uint8_t *dst_mac,
                            const uint8_t *src_mac, const uint8_t *src_ip, const uint8_t *dst_ip,
                            unsigned type, unsigned id, unsigned seq, const uint8_t *data)
{
    uint8_t *p = f + eth(f, dst_mac, src_mac, ETHERTYPE_IP);
    ip(n, p, src_ip, dst_ip, 1, 8 + ECHO_DATA);
    uint8_t *c = p + 20;
    c[0] = (uint8_t)type;
    c[1] = 0;
    be16(c + 2, 0);
    be16(c + 4, id);
    be16(c + 6, seq);
    memcpy(c + 8, data, ECHO_DATA);
    be16(c + 2, fold(sum16(c, 8 + ECHO_DATA, 0)));
    return IO_ETHER_HDR + 20 + 8 + ECHO_DATA;
}

/* ping's data: the send time (microcycles, 8 bytes), then 8, 9, ... */
static void echo_data(uint8_t *d, uint64_t when)
{
    be32(d, (uint32_t)(when >> 32));
    be32(d + 4, (uint32_t)when);
    for (unsigned i = 8; i < ECHO_DATA; i++)
        d[i] = (uint8_t)i;
}

static uint32_t rip_response(struct io_netsrc *n, uint8_t *f)
{
    static const uint8_t routes[4][5] = {
        {10, 0, 0, 0, 2}, {172, 16, 0, 0, 3}, {192, 168, 2, 0, 1}, {192, 168, 3, 0, 2}};
    uint8_t mac[6], src[4];
    host_mac(ROUTER, mac);
    host_ip(ROUTER, src);
    uint8_t *p = f + eth(f, bcast_mac, mac, ETHERTYPE_IP);
    uint32_t rip_len = 4 + 20 * 4;
    ip(n, p, src, bcast_ip, 17, 8 + rip_len);
    uint8_t *u = p + 20, *r = u + 8;
    be16(u, RIP_PORT);
    be16(u + 2, RIP_PORT);
    be16(u + 4, 8 + rip_len);
    memset(r, 0, rip_len);
    r[0] = 2; /* response */
    r[1] = 1; /* version */
    for (int i = 0; i < 4; i++) {
        uint8_t *e = r + 4 + 20 * i;
        be16(e, 2); /* AF_INET */
        memcpy(e + 4, routes[i], 4);
        be32(e + 16, routes[i][4]);
    }
    udp_sum(p);
    return IO_ETHER_HDR + 20 + 8 + rip_len;
}

static uint32_t xns_response(uint8_t *f)
{
    static const uint8_t nets[3][2] = {{43, 1}, {44, 2}, {45, 3}};
    uint8_t mac[6];
    host_mac(ROUTER, mac);
    uint8_t *p = f + eth(f, bcast_mac, mac, ETHERTYPE_NS);
    uint32_t len = 30 + 2 + 6 * 3;
    be16(p, 0xFFFF); /* no checksum */
    be16(p + 2, len);
    p[4] = 0;        /* transport control */
    p[5] = 1;        /* routing information */
    be32(p + 6, IO_NETSRC_XNS_NET);
    memcpy(p + 10, bcast_mac, 6);
    be16(p + 16, 1);
    be32(p + 18, IO_NETSRC_XNS_NET);
    memcpy(p + 22, mac, 6);
    be16(p + 28, 1);
    be16(p + 30, 2); /* response */
    for (int i = 0; i < 3; i++) {
        be32(p + 32 + 6 * i, nets[i][0]);
        be16(p + 36 + 6 * i, nets[i][1]);
    }
    return IO_ETHER_HDR + len;
}

/* Traffic between two other hosts. */
static uint32_t other_frame(struct io_netsrc *n, uint8_t *f)
{
    unsigned a = OTHER0 + below(&n->rng_data, 4);
    unsigned b = OTHER0 + (a - OTHER0 + 1 + below(&n->rng_data, 3)) % 4;
    uint8_t amac[6], bmac[6], aip[4], bip[4], zero[6] = {0};
    host_mac(a, amac);
    host_mac(b, bmac);
    host_ip(a, aip);
    host_ip(b, bip);
    if (below(&n->rng_data, 2) == 0)
        return arp(f, bcast_mac, 1, amac, aip, zero, bip);
    uint32_t len = IO_ETHER_MIN + below(&n->rng_data, IO_ETHER_MAX - IO_ETHER_MIN + 1);
    uint8_t *p = f + eth(f, bmac, amac, ETHERTYPE_IP);
    uint32_t udp_len = len - IO_ETHER_HDR - 20;
    ip(n, p, aip, bip, 17, udp_len);
    uint8_t *u = p + 20;
    be16(u, 1023);
    be16(u + 2, NFS_PORT);
    be16(u + 4, udp_len);
    for (uint32_t i = 8; i < udp_len; i++)
        u[i] = (uint8_t)(i * 7);
    udp_sum(p);
    return len;
}

static uint32_t build(struct io_netsrc *n, int kind, uint8_t *f, uint64_t when)
{
    uint8_t mac[6], hip[4], zero[6] = {0};
    unsigned i = below(&n->rng_data, IO_NETSRC_HOSTS), h = HOST0 + i;
    host_mac(h, mac);
    host_ip(h, hip);
    switch (kind) {
    case IO_NET_ARP:
        return arp(f, bcast_mac, 1, mac, hip, zero, io_netsrc_vax_ip);
    case IO_NET_ECHO: {
        uint8_t d[ECHO_DATA];
        echo_data(d, when);
        return echo_packet(n, f, n->vax_mac, mac, hip, io_netsrc_vax_ip, 8, ECHO_ID(h),
                           n->echo_seq[i]++, d);
    }
    case IO_NET_RIP:
        return rip_response(n, f);
    case IO_NET_XNS:
        return xns_response(f);
    default:
        return other_frame(n, f);
    }
}

/* ---- the queue and the wire ---- */

static int slot_get(struct io_netsrc *n)
{
    for (int s = 0; s <= IO_NETSRC_QUEUE; s++)
        if (!n->used[s]) {
            n->used[s] = 1;
            return s;
        }
    return -1;
}

/* Queues slot s by its ready time, after those ready at the same time. */
static void enqueue(struct io_netsrc *n, int s)
{
    unsigned k = n->nq;
    while (k > 0 && n->slot[n->order[k - 1]].ready > n->slot[s].ready)
        k--;
    memmove(n->order + k + 1, n->order + k, n->nq - k);
    n->order[k] = (uint8_t)s;
    n->nq++;
}

static void arm(struct io_netsrc *n)
{
    uint64_t next = n->mean > 0 ? n->next_arrival : UINT64_MAX;
    if (n->inflight >= 0 && n->inflight_end < next)
        next = n->inflight_end;
    if (n->inflight < 0 && n->nq) {
        uint64_t r = n->slot[n->order[0]].ready;
        if (r < n->wire_free)
            r = n->wire_free;
        if (r < next)
            next = r;
    }
    if (next == UINT64_MAX)
        io_timer_cancel(&n->timer);
    else
        io_timer_at(&n->timer, next);
}

static void start(struct io_netsrc *n, uint64_t now)
{
    int s = n->order[0];
    memmove(n->order, n->order + 1, --n->nq);
    struct io_netsrc_frame *f = &n->slot[s];
    if (f->len < IO_ETHER_MIN) {
        memset(f->data + f->len, 0, IO_ETHER_MIN - f->len);
        f->len = IO_ETHER_MIN;
    }
    if (now > f->ready)
        n->st.deferred++;
    if (f->kind >= 0)
        n->st.sent[f->kind]++;
    else
        n->st.answers++;
    n->st.bytes_out += f->len;
    if (n->tap)
        n->tap(n->tap_ctx, f->data, f->len, now, 0);
    n->inflight = s;
    n->inflight_end = now + io_ether_frame_cycles(f->len);
    n->wire_free = n->inflight_end + IO_ETHER_GAP_CYCLES;
}

static void deliver(struct io_netsrc *n)
{
    struct io_netsrc_frame *f = &n->slot[n->inflight];
    enum io_ether_rx r = n->station.receive ? n->station.receive(n->station.ctx, f->data, f->len)
                                            : IO_ETHER_RX_STOPPED;
    switch (r) {
    case IO_ETHER_RX_OK: n->st.delivered++; break;
    case IO_ETHER_RX_FILTERED: n->st.filtered++; break;
    case IO_ETHER_RX_STOPPED: n->st.stopped++; break;
    case IO_ETHER_RX_NOBUF: n->st.nobuf++; break;
    default: n->st.errors++; break;
    }
    n->used[n->inflight] = 0;
    n->inflight = -1;
}

static int pick_kind(struct io_netsrc *n)
{
    unsigned r = below(&n->rng_kind, n->mix_total), k = 0;
    while (r >= n->mix[k])
        r -= n->mix[k++];
    return (int)k;
}

static void fire(void *ctx, uint64_t due)
{
    struct io_netsrc *n = ctx;
    if (n->inflight >= 0 && n->inflight_end <= due)
        deliver(n);
    while (n->mean > 0 && n->next_arrival <= due) {
        uint64_t at = n->next_arrival;
        n->next_arrival += interarrival(n);
        int kind = pick_kind(n);
        int s = slot_get(n);
        if (s < 0 || n->nq >= IO_NETSRC_QUEUE) {
            if (s >= 0)
                n->used[s] = 0;
            n->st.overrun++;
            continue;
        }
        struct io_netsrc_frame *f = &n->slot[s];
        f->ready = at;
        f->kind = kind;
        f->len = build(n, kind, f->data, at);
        enqueue(n, s);
    }
    if (n->inflight < 0 && n->nq && n->slot[n->order[0]].ready <= due && n->wire_free <= due)
        start(n, due);
    arm(n);
}

/* ---- what the VAX sends ---- */

static void answer(struct io_netsrc *n, uint64_t ready, const uint8_t *frame, uint32_t len)
{
    int s = slot_get(n);
    if (s < 0 || n->nq >= IO_NETSRC_QUEUE) {
        if (s >= 0)
            n->used[s] = 0;
        n->st.overrun++;
        return;
    }
    struct io_netsrc_frame *f = &n->slot[s];
    f->ready = ready;
    f->kind = -1;
    f->len = len;
    memcpy(f->data, frame, len);
    enqueue(n, s);
}

static void consume_arp(struct io_netsrc *n, const uint8_t *f, uint32_t len, uint64_t end)
{
    const uint8_t *a = f + IO_ETHER_HDR;
    if (len < IO_ETHER_HDR + 28 || get16(a) != 1 || a[4] != 6 || a[5] != 4) {
        n->st.vax_other++;
        return;
    }
    uint16_t pro = get16(a + 2), op = get16(a + 6);
    if (op == 2) {
        n->st.vax_arp_replies++;
        return;
    }
    if (op != 1) {
        n->st.vax_other++;
        return;
    }
    n->st.vax_arp_requests++;
    unsigned h = host_of(a + 24);
    if (!h || pro != ETHERTYPE_IP)
        return; /* our hosts do not use trailers: they answer IP requests only */
    uint8_t r[IO_ETHER_MAX], mac[6], hip[4];
    host_mac(h, mac);
    host_ip(h, hip);
    answer(n, end + IO_NETSRC_ANSWER_CYCLES, r, arp(r, a + 8, 2, mac, hip, a + 8, a + 14));
}

static void consume_ip(struct io_netsrc *n, const uint8_t *f, uint32_t len, uint64_t end)
{
    const uint8_t *p = f + IO_ETHER_HDR;
    if (len < IO_ETHER_HDR + 20 || (p[0] >> 4) != 4 || (p[0] & 15) < 5) {
        n->st.vax_other++;
        return;
    }
    uint32_t hl = (p[0] & 15) * 4u, tot = get16(p + 2);
    if (tot < hl || IO_ETHER_HDR + tot > len || (get16(p + 6) & 0x3FFF)) {
        n->st.vax_other++; /* short, or a fragment */
        return;
    }
    const uint8_t *d = p + hl;
    uint32_t dl = tot - hl;
    if (p[9] == 17 && dl >= 8 && get16(d + 2) == RIP_PORT) {
        n->st.vax_rip++;
        return;
    }
    if (p[9] != 1 || dl < 8) {
        n->st.vax_other++;
        return;
    }
    unsigned h = host_of(p + 16);
    if (d[0] == 0) {
        n->st.vax_echo_replies++;
        uint8_t want[ECHO_DATA];
        unsigned i = h - HOST0, seq = get16(d + 6);
        if (h >= HOST0 && h < HOST0 + IO_NETSRC_HOSTS && get16(d + 4) == ECHO_ID(h) &&
            dl == 8 + ECHO_DATA && seq < n->echo_seq[i] && fold(sum16(d, dl, 0)) == 0) {
            echo_data(want, 0);
            if (!memcmp(d + 16, want + 8, ECHO_DATA - 8))
                n->st.vax_echo_matched++;
        }
        return;
    }
    if (d[0] != 8) {
        n->st.vax_other++;
        return;
    }
    n->st.vax_echo_requests++;
    if (!h || dl != 8 + ECHO_DATA)
        return; /* ours answer ping's requests only */
    uint8_t r[IO_ETHER_MAX], mac[6];
    host_mac(h, mac);
    uint32_t rl = echo_packet(n, r, f + 6, mac, p + 16, p + 12, 0, get16(d + 4), get16(d + 6),
                              d + 8);
    answer(n, end + IO_NETSRC_ANSWER_CYCLES, r, rl);
}

static void consume(struct io_netsrc *n, const uint8_t *f, uint32_t len, uint64_t end)
{
    n->st.from_vax++;
    n->st.bytes_in += len;
    if (len < IO_ETHER_HDR) {
        n->st.vax_other++;
        return;
    }
    if (!(f[6] & 1))
        memcpy(n->vax_mac, f + 6, IO_ETHER_ADDR);
    uint16_t type = get16(f + 12);
    if (type == ETHERTYPE_ARP)
        consume_arp(n, f, len, end);
    else if (type == ETHERTYPE_IP)
        consume_ip(n, f, len, end);
    else if (type == ETHERTYPE_NS && len >= IO_ETHER_HDR + 30 && f[IO_ETHER_HDR + 5] == 1 &&
             get16(f + IO_ETHER_HDR + 16) == 1)
        n->st.vax_xns++;
    else
        n->st.vax_other++;
}

static uint64_t wire_transmit(void *ctx, const uint8_t *frame, uint32_t len, uint64_t ready)
{
    struct io_netsrc *n = ctx;
    uint64_t startt = ready > n->wire_free ? ready : n->wire_free;
    uint64_t end = startt + io_ether_frame_cycles(len);
    if (startt > ready)
        n->st.deferred++;
    n->wire_free = end + IO_ETHER_GAP_CYCLES;
    if (n->tap)
        n->tap(n->tap_ctx, frame, len, startt, 1);
    consume(n, frame, len, end);
    arm(n);
    return end;
}

struct io_ether_wire io_netsrc_wire(struct io_netsrc *n)
{
    return (struct io_ether_wire){.ctx = n, .transmit = wire_transmit};
}

/* ---- set up ---- */

int io_netsrc_parse_mix(const char *s, unsigned mix[IO_NET_KINDS], char *err, size_t errlen)
{
    unsigned m[IO_NET_KINDS] = {0}, seen = 0;
    const char *p = s;
    while (*p) {
        const char *eq = strchr(p, '=');
        size_t kl = eq ? (size_t)(eq - p) : 0;
        int k = -1;
        for (int i = 0; i < IO_NET_KINDS && eq; i++)
            if (strlen(io_net_kind_names[i]) == kl && !strncmp(p, io_net_kind_names[i], kl))
                k = i;
        if (k < 0) {
            snprintf(err, errlen, "'%.40s': give KIND=WEIGHT,... with kinds arp, echo, rip, "
                     "xns, other", p);
            return -1;
        }
        if (seen >> k & 1) {
            snprintf(err, errlen, "%s is given twice", io_net_kind_names[k]);
            return -1;
        }
        seen |= 1u << k;
        char *end;
        unsigned long w = eq[1] >= '0' && eq[1] <= '9' ? strtoul(eq + 1, &end, 10) : 0;
        if (!(eq[1] >= '0' && eq[1] <= '9') || (*end && *end != ',') || w > 1000000) {
            snprintf(err, errlen, "weight of %s: a whole number 0-1000000", io_net_kind_names[k]);
            return -1;
        }
        m[k] = (unsigned)w;
        p = *end ? end + 1 : end;
    }
    unsigned total = 0;
    for (int i = 0; i < IO_NET_KINDS; i++)
        total += m[i];
    if (!total) {
        snprintf(err, errlen, "the weights add up to 0");
        return -1;
    }
    memcpy(mix, m, sizeof m);
    return 0;
}

int io_netsrc_init(struct io_netsrc *n, struct io_events *ev, const struct io_netsrc_config *c,
                   const struct io_ether_station *station, char *err, size_t errlen)
{
    if (!(c->rate >= 0.0) || c->rate > 1e6) {
        snprintf(err, errlen, "network rate %g out of range (0-1000000 frames/s)", c->rate);
        return -1;
    }
    memset(n, 0, sizeof *n);
    n->ev = ev;
    n->station = *station;
    n->inflight = -1;
    memcpy(n->vax_mac, c->vax_mac, IO_ETHER_ADDR);
    for (int i = 0; i < IO_NET_KINDS; i++) {
        n->mix[i] = c->mix[i];
        n->mix_total += c->mix[i];
    }
    if (!n->mix_total)
        for (int i = 0; i < IO_NET_KINDS; i++) {
            n->mix[i] = io_netsrc_default_mix[i];
            n->mix_total += n->mix[i];
        }
    n->rng_time = c->seed ^ 0x65746865722D7469ull; /* "ether-ti" */
    n->rng_kind = c->seed ^ 0x65746865722D6B69ull; /* "ether-ki" */
    n->rng_data = c->seed ^ 0x65746865722D6461ull; /* "ether-da" */
    io_timer_init(ev, &n->timer, fire, n);
    if (c->rate > 0) {
        n->mean = (double)IO_CYCLES_PER_SEC / c->rate;
        n->next_arrival = io_now(ev) + interarrival(n);
        arm(n);
    }
    return 0;
}

void io_netsrc_free(struct io_netsrc *n) { io_timer_remove(&n->timer); }

void io_netsrc_set_tap(struct io_netsrc *n, io_netsrc_tap_fn fn, void *ctx)
{
    n->tap = fn;
    n->tap_ctx = ctx;
}
