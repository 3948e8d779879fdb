/* The network interface (vax/guest/NETDEV.md; API in vm_net.h).
 *
 * Arrivals: a Poisson process in emulated time.  Interarrival times are
 * exponential with mean 12.5e6 / rate microcycles, drawn from a
 * splitmix64 stream seeded by the seed alone; sizes and contents come
 * from a second stream, so the arrival times do not depend on the size
 * options.  The logarithm is computed here with + - * / only (IEEE
 * arithmetic, no libm), so the times are the same on every host.
 *
 * Delivery: an arrival with RUN = 1 and DONE = 0 writes the packet
 * (truncated to NIBS) into physical memory at NIBA longword by longword
 * through the memory system (the cache allocates and dirties the lines
 * and charges its miss penalties, as a DMA that shares the memory bus
 * would), then sets NIRL and DONE.  With DONE = 1 the packet is dropped:
 * ERR, NIDROP + 1.  A buffer outside memory drops the packet the same
 * way (a device cannot machine-check the CPU). */
#include <stdio.h>
#include <string.h>

#include "vax/machine/vm_internal.h"
#include "vax/machine/vm_net.h"
#include "vax/io/io_random.h"

/* One exponential interarrival time in microcycles (at least 1). */
static uint64_t interarrival(uint64_t *rng, double mean)
{
    return io_rand_interarrival(rng, mean, UINT64_C(1000000000000000000));
}

static void seed_streams(uint64_t seed, uint64_t *t, uint64_t *d)
{
    *t = seed ^ 0x6E65742D74696D65ull; /* "net-time" */
    *d = seed ^ 0x6E65742D64617461ull; /* "net-data" */
}

static double mean_of(const struct vm_net_config *c)
{
    return VM_NET_CYCLES_PER_SEC / c->rate;
}

int vm_net_setup(struct vax_machine *m, const struct vm_net_config *c, char *err,
                 size_t errlen)
{
    struct vm_net *d = &m->net;
    if (!c || c->rate == 0.0) {
        memset(d, 0, sizeof *d);
        return 0;
    }
    uint32_t lo = c->size_min, hi = c->size_max;
    if (lo == 0 && hi == 0) {
        lo = 64;
        hi = 1500;
    }
    if (!(c->rate > 0.0) || c->rate > 1e6) {
        snprintf(err, errlen, "network rate %g out of range (0 < rate <= 1000000 packets/s)",
                 c->rate);
        return -1;
    }
    if (lo < VM_NET_MIN_PACKET || hi > VM_NET_MAX_PACKET || lo > hi) {
        snprintf(err, errlen, "packet sizes %u:%u out of range (%u <= min <= max <= %u)",
                 lo, hi, VM_NET_MIN_PACKET, VM_NET_MAX_PACKET);
        return -1;
    }
    memset(d, 0, sizeof *d);
    d->present = 1;
    d->mean_cycles = mean_of(c);
    d->size_min = lo;
    d->size_max = hi;
    seed_streams(c->seed, &d->rng_time, &d->rng_data);
    d->next_at = m->st.microcycles + interarrival(&d->rng_time, d->mean_cycles);
    m->int_dirty = 1; /* IRD's interrupt check: a new event source */
    return 0;
}

void vm_net_get_stats(const struct vax_machine *m, struct vm_net_stats *s)
{
    *s = m->net.st;
}

void vm_net_arrivals(const struct vm_net_config *c, uint64_t *out, size_t n)
{
    uint64_t t, dd, at = 0;
    seed_streams(c->seed, &t, &dd);
    for (size_t i = 0; i < n; i++) {
        at += interarrival(&t, mean_of(c));
        out[i] = at;
    }
}

/* A packet (NETDEV.md "Packet format") of `len` bytes into d->pkt. */
static void make_packet(struct vm_net *d, uint32_t len)
{
    uint8_t *p = d->pkt;
    uint64_t r = io_rand_next(&d->rng_data);
    uint32_t dst, pick = (uint32_t)(r % 100);
    uint32_t low = (uint32_t)(r >> 8);
    if (pick < 80)
        dst = 0x0A0B0000u | (low & 0xFF);        /* 10.11.0.x: the specific routes */
    else if (pick < 90)
        dst = 0x0A0B0000u | (low & 0xFFFF);      /* 10.11/16 */
    else if (pick < 95)
        dst = 0x0A000000u | (low & 0xFFFFFF);    /* 10/8 */
    else
        dst = (uint32_t)(r >> 32);               /* default route */
    uint32_t src = 0x0A0C0000u | (uint32_t)(r >> 40 & 0xFFFF);
    for (uint32_t i = 12; i < len; i += 8) {
        uint64_t x = io_rand_next(&d->rng_data);
        for (uint32_t k = 0; k < 8 && i + k < len; k++)
            p[i + k] = (uint8_t)(x >> (8 * k));
    }
    for (int k = 0; k < 4; k++) {
        p[k] = (uint8_t)(dst >> (8 * k));
        p[4 + k] = (uint8_t)(src >> (8 * k));
    }
    p[8] = (uint8_t)len;
    p[9] = (uint8_t)(len >> 8);
    p[10] = p[11] = 0;
    uint32_t sum = 0;
    for (uint32_t i = 0; i < len; i += 2)
        sum += p[i] | (i + 1 < len ? (uint32_t)p[i + 1] << 8 : 0);
    while (sum >> 16)
        sum = (sum & 0xFFFF) + (sum >> 16);
    uint16_t ck = (uint16_t)~sum;
    p[10] = (uint8_t)ck;
    p[11] = (uint8_t)(ck >> 8);
}

static void arrive(struct vax_machine *m, struct vm_net *d)
{
    uint64_t r = io_rand_next(&d->rng_data);
    uint32_t len = d->size_min + (uint32_t)(r % (d->size_max - d->size_min + 1));
    d->st.arrivals++;
    d->st.last_at = d->next_at;
    if (!(d->csr & VM_NET_CSR_RUN)) {
        d->st.ignored++;
        return;
    }
    make_packet(d, len); /* always drawn: contents do not depend on drops */
    uint32_t n = len < d->bs ? len : d->bs;
    if ((d->csr & VM_NET_CSR_DONE) || d->ba > m->mem_size || n > m->mem_size - d->ba) {
        d->csr |= VM_NET_CSR_ERR;
        d->drop++;
        d->st.dropped++;
        return;
    }
    for (uint32_t i = 0; i < n; i += 4) {
        unsigned k = n - i < 4 ? n - i : 4;
        uint64_t v = 0;
        for (unsigned j = 0; j < k; j++)
            v |= (uint64_t)d->pkt[i + j] << (8 * j);
        vm_mem_writep(m, d->ba + i, k, v);
    }
    d->rl = n;
    d->csr |= VM_NET_CSR_DONE;
    d->st.delivered++;
    d->st.bytes += n;
}

void vm_net_update(struct vax_machine *m)
{
    struct vm_net *d = &m->net;
    while (d->present && m->st.microcycles >= d->next_at) {
        arrive(m, d);
        d->next_at += interarrival(&d->rng_time, d->mean_cycles);
    }
}

uint32_t vm_net_ipr_read(struct vax_machine *m, uint32_t n)
{
    struct vm_net *d = &m->net;
    m->ipr_bad = !d->present;
    if (m->ipr_bad)
        return 0;
    vm_net_update(m);
    switch (n) {
    case VM_NET_NICSR:
        return d->csr & (VM_NET_CSR_RUN | VM_NET_CSR_IE | VM_NET_CSR_DONE | VM_NET_CSR_ERR);
    case VM_NET_NIBA: return d->ba;
    case VM_NET_NIBS: return d->bs;
    case VM_NET_NIRL: return d->rl;
    default: return d->drop;
    }
}

void vm_net_ipr_write(struct vax_machine *m, uint32_t n, uint32_t v)
{
    struct vm_net *d = &m->net;
    m->ipr_bad = !d->present || n == VM_NET_NIRL; /* NIRL is read-only */
    if (m->ipr_bad)
        return;
    vm_net_update(m);
    switch (n) {
    case VM_NET_NICSR:
        d->csr &= ~(v & (VM_NET_CSR_DONE | VM_NET_CSR_ERR)); /* write 1 to clear */
        d->csr = (d->csr & ~(VM_NET_CSR_RUN | VM_NET_CSR_IE)) |
                 (v & (VM_NET_CSR_RUN | VM_NET_CSR_IE));
        break;
    case VM_NET_NIBA: d->ba = v & ~3u; break;
    case VM_NET_NIBS: d->bs = v; break;
    default: d->drop = 0; break; /* NIDROP: any write clears */
    }
}
