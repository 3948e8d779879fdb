/* The network interface (vax/machine/vm_net.c, vax/guest/NETDEV.md):
 * deterministic Poisson arrivals, delivery into memory with a correct
 * checksum, the interrupt at IPL 0x15 through SCB 0x140, drop counting,
 * and a machine without the device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vax/machine/vm.h"
#include "vax/machine/vm_net.h"

static int fails;
#define CHECK(c, ...)                                                  \
    do {                                                               \
        if (!(c)) {                                                    \
            fails++;                                                   \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                \
            printf(__VA_ARGS__);                                       \
            printf("\n");                                              \
        }                                                              \
    } while (0)

static struct vax_machine *machine(double rate, uint64_t seed)
{
    char err[200];
    struct vm_config cfg = {.memory_mb = 1, .ucode = NULL};
    struct vax_machine *m = vm_new(&cfg, err, sizeof err);
    if (!m) {
        printf("vm_new: %s\n", err);
        exit(1);
    }
    struct vm_net_config nc = {.rate = rate, .size_min = 64, .size_max = 1500, .seed = seed};
    if (vm_net_configure(m, &nc, err, sizeof err) < 0) {
        printf("vm_net_configure: %s\n", err);
        exit(1);
    }
    return m;
}

static void arrivals(void)
{
    enum { N = 20000 };
    static uint64_t a[N], b[N], c[N];
    struct vm_net_config x = {.rate = 1000, .seed = 7}, y = x, z = x;
    z.seed = 8;
    y.size_min = y.size_max = 100; /* sizes do not move the arrival times */
    vm_net_arrivals(&x, a, N);
    vm_net_arrivals(&y, b, N);
    vm_net_arrivals(&z, c, N);
    CHECK(memcmp(a, b, sizeof a) == 0, "same seed, same arrivals");
    CHECK(memcmp(a, c, sizeof a) != 0, "another seed, other arrivals");
    double mean = (double)a[N - 1] / N, want = VM_NET_CYCLES_PER_SEC / 1000;
    CHECK(mean > want * 0.97 && mean < want * 1.03, "mean interarrival %.0f, want %.0f", mean, want);
    /* exponential: about 1/e of the gaps are longer than the mean */
    int longer = 0;
    for (int i = 1; i < N; i++)
        longer += (double)(a[i] - a[i - 1]) > want;
    CHECK(longer > N * 0.34 && longer < N * 0.40, "%d of %d gaps above the mean", longer, N);
}

/* A program at 0x1000: BRB . at IPL 31; the SCB at 0x2000 sends 0x140 to
 * a HALT at 0x3000. */
static void load_loop(struct vax_machine *m, uint32_t ipl)
{
    uint8_t loop[] = {0x11, 0xFE}, halt[] = {0x00};
    vm_phys_write(m, 0x1000, loop, 2);
    vm_phys_write(m, 0x3000, halt, 1);
    uint32_t h = 0x3000;
    vm_phys_write(m, 0x2000 + VM_NET_VECTOR, &h, 4);
    vm_set_ipr(m, 0x11, 0x2000); /* SCBB */
    vm_set_ipr(m, 0x04, 0x8000); /* ISP */
    vm_set_reg(m, 14, 0x7000);
    vm_set_reg(m, 15, 0x1000);
    vm_set_psl(m, ipl << 16);
}

static void delivery(void)
{
    struct vax_machine *m = machine(2000, 1);
    load_loop(m, 31);
    vm_set_ipr(m, VM_NET_NIBA, 0x10001); /* bits 1:0 ignored */
    vm_set_ipr(m, VM_NET_NIBS, 1536);
    vm_set_ipr(m, VM_NET_NICSR, 0x80C1);
    CHECK(vm_ipr(m, VM_NET_NIBA) == 0x10000, "NIBA aligned");
    vm_run(m, 200000); /* ~2.5 expected arrivals in 16 ms?  no: 200000 cycles = 16 ms */
    struct vm_net_stats st;
    vm_net_get_stats(m, &st);
    uint32_t csr = vm_ipr(m, VM_NET_NICSR);
    CHECK(st.arrivals >= 1 && st.delivered == 1, "arrivals %llu delivered %llu",
          (unsigned long long)st.arrivals, (unsigned long long)st.delivered);
    CHECK(csr & VM_NET_CSR_DONE, "DONE set (csr %x)", csr);
    CHECK(st.dropped == st.arrivals - 1 && vm_ipr(m, VM_NET_NIDROP) == st.dropped,
          "drops %llu, NIDROP %u", (unsigned long long)st.dropped, vm_ipr(m, VM_NET_NIDROP));
    CHECK(st.dropped == 0 || (csr & VM_NET_CSR_ERR), "ERR with drops");
    uint32_t len = vm_ipr(m, VM_NET_NIRL);
    CHECK(len >= 64 && len <= 1500, "length %u", len);
    uint8_t p[1536];
    vm_phys_read(m, 0x10000, p, len);
    CHECK((uint32_t)(p[8] | p[9] << 8) == len, "length field");
    uint32_t sum = 0;
    for (uint32_t i = 0; i < len; i += 2)
        sum += p[i] | (i + 1 < len ? p[i + 1] << 8 : 0);
    while (sum >> 16)
        sum = (sum & 0xFFFF) + (sum >> 16);
    CHECK(sum == 0xFFFF, "checksum sums to 0x%x", sum);
    /* ack: DONE and ERR clear, NIDROP cleared by a write */
    vm_set_ipr(m, VM_NET_NICSR, 0x80C1);
    vm_set_ipr(m, VM_NET_NIDROP, 0);
    CHECK((vm_ipr(m, VM_NET_NICSR) & 0x8080) == 0, "acknowledged");
    CHECK(vm_ipr(m, VM_NET_NIDROP) == 0, "NIDROP cleared");
    uint64_t cnt[128];
    vm_scb_counts(m, cnt);
    CHECK(cnt[VM_NET_VECTOR / 4] == 0, "no interrupt at IPL 31");
    vm_free(m);

    /* at IPL 0 the first delivery interrupts through 0x140 */
    m = machine(2000, 1);
    load_loop(m, 0);
    vm_set_ipr(m, VM_NET_NIBA, 0x10000);
    vm_set_ipr(m, VM_NET_NIBS, 1536);
    vm_set_ipr(m, VM_NET_NICSR, 0x80C1);
    vm_run(m, 10000000);
    vm_scb_counts(m, cnt);
    CHECK(vm_halted(m) && strcmp(vm_stop_reason(m), "HALT instruction") == 0, "halt: %s",
          vm_stop_reason(m));
    CHECK(cnt[VM_NET_VECTOR / 4] == 1, "one interrupt through 0x140 (%llu)",
          (unsigned long long)cnt[VM_NET_VECTOR / 4]);
    CHECK((vm_psl(m) >> 16 & 0x1F) == VM_NET_IPL, "handler at IPL 0x15 (psl %08x)", vm_psl(m));
    vm_free(m);
}

static void determinism(void)
{
    uint8_t a[1536], b[1536];
    struct vm_net_stats sa, sb;
    for (int k = 0; k < 2; k++) {
        struct vax_machine *m = machine(5000, 42);
        load_loop(m, 31);
        vm_set_ipr(m, VM_NET_NIBA, 0x10000);
        vm_set_ipr(m, VM_NET_NIBS, 1536);
        vm_set_ipr(m, VM_NET_NICSR, 0x80C1);
        vm_run(m, 3000000);
        vm_net_get_stats(m, k ? &sb : &sa);
        vm_phys_read(m, 0x10000, k ? b : a, sizeof a);
        vm_free(m);
    }
    CHECK(memcmp(&sa, &sb, sizeof sa) == 0 && memcmp(a, b, sizeof a) == 0,
          "same seed: same arrivals, drops and bytes");
    CHECK(sa.dropped > 0 && sa.dropped == sa.arrivals - sa.ignored - sa.delivered,
          "drops counted");
}

static void absent(void)
{
    struct vax_machine *m = machine(0, 0);
    (void)vm_ipr(m, VM_NET_NICSR);
    struct vm_net_stats st;
    vm_net_get_stats(m, &st);
    CHECK(st.arrivals == 0, "no device, no arrivals");
    char err[200];
    struct vm_net_config bad = {.rate = 10, .size_min = 5, .size_max = 4};
    CHECK(vm_net_configure(m, &bad, err, sizeof err) < 0, "bad sizes refused");
    vm_free(m);
}

int main(void)
{
    arrivals();
    delivery();
    determinism();
    absent();
    if (!fails)
        printf("net device: all checks passed\n");
    return fails ? 1 : 0;
}
