/* The network interface (vax/guest/NETDEV.md): five IPRs (0x70-0x74),
 * packets arriving by a seeded Poisson process in emulated time
 * (microcycles), written into the guest's receive buffer through the
 * memory system (the cache sees them), an interrupt at IPL 0x15 through
 * SCB vector 0x140 while DONE and IE are set.  A machine without the
 * device (the default) answers IPR.BAD for 0x70-0x74, so MFPR takes a
 * reserved operand.  Deterministic: the same seed and options give the
 * same arrival microcycles and the same bytes.  Nothing here prints.
 * A public header: vm_net.c defines its calls but vm_net_configure
 * (vm_host.c, on vm_net_setup below). */
#ifndef VAX_MACHINE_VM_NET_H
#define VAX_MACHINE_VM_NET_H

#include <stddef.h>
#include <stdint.h>

struct vax_machine;

enum {
    VM_NET_NICSR = 0x70,
    VM_NET_NIBA = 0x71,
    VM_NET_NIBS = 0x72,
    VM_NET_NIRL = 0x73,
    VM_NET_NIDROP = 0x74,
};

#define VM_NET_CSR_RUN 0x1u
#define VM_NET_CSR_IE 0x40u
#define VM_NET_CSR_DONE 0x80u
#define VM_NET_CSR_ERR 0x8000u
#define VM_NET_IPL 0x15
#define VM_NET_VECTOR 0x140
#define VM_NET_MIN_PACKET 12u
#define VM_NET_MAX_PACKET 65535u
/* microcycles per second of emulated time (80 ns microcycle) */
#define VM_NET_CYCLES_PER_SEC 12500000.0

struct vm_net_config {
    double rate;       /* mean packets per second of emulated time; 0: no device */
    uint32_t size_min; /* packet sizes uniform in [size_min, size_max] bytes */
    uint32_t size_max; /* (12..65535; 0, 0: the default 64..1500) */
    uint64_t seed;
};

struct vm_net_stats {
    uint64_t arrivals;  /* packets the process generated (RUN or not) */
    uint64_t delivered; /* written into the buffer (DONE set) */
    uint64_t dropped;   /* arrived with DONE still set (NIDROP's total) */
    uint64_t ignored;   /* arrived with RUN = 0 */
    uint64_t bytes;     /* delivered bytes (after truncation to NIBS) */
    uint64_t last_at;   /* microcycle of the last arrival (0: none yet) */
};

/* The device's state (inside struct vax_machine; all zero = absent). */
struct vm_net {
    int present;
    uint32_t csr, ba, bs, rl, drop;
    double mean_cycles;    /* mean interarrival time in microcycles */
    uint32_t size_min, size_max;
    uint64_t next_at;      /* microcycle of the next arrival */
    uint64_t rng_time;     /* splitmix64 states: arrival times ... */
    uint64_t rng_data;     /* ... and packet sizes and contents */
    struct vm_net_stats st;
    uint8_t pkt[VM_NET_MAX_PACKET + 1];
};

/* Install (rate > 0) or remove (rate = 0) the device; before the run.
 * Returns 0, or -1 with a message (bad rate or sizes). */
int vm_net_configure(struct vax_machine *m, const struct vm_net_config *c,
                     char *err, size_t errlen);
void vm_net_get_stats(const struct vax_machine *m, struct vm_net_stats *s);

/* The arrival process alone, for tests and tools: the microcycle of the
 * k-th (0-based) arrival for these options, without a machine.  Fills
 * out[0..n-1]. */
void vm_net_arrivals(const struct vm_net_config *c, uint64_t *out, size_t n);

/* ---- inside vax/machine ---- */
/* vm_net_configure's work on one machine (vm_host.c does it to the
 * lock-step check's second machine too). */
int vm_net_setup(struct vax_machine *m, const struct vm_net_config *c, char *err,
                 size_t errlen);
/* Deliver every arrival due by now (from vm_dev_update). */
void vm_net_update(struct vax_machine *m);
/* The IPR port for 0x70-0x74: sets m->ipr_bad when absent or not allowed. */
uint32_t vm_net_ipr_read(struct vax_machine *m, uint32_t n);
void vm_net_ipr_write(struct vax_machine *m, uint32_t n, uint32_t v);
static inline int vm_net_ipr(uint32_t n) { return n >= VM_NET_NICSR && n <= VM_NET_NIDROP; }
/* The interrupt request line (level): DONE and IE. */
static inline int vm_net_irq(const struct vm_net *d)
{
    return (d->csr & (VM_NET_CSR_DONE | VM_NET_CSR_IE)) == (VM_NET_CSR_DONE | VM_NET_CSR_IE);
}

#endif
