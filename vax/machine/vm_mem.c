/* Memory: array boards behind the PAMM, the write-back cache, and the
 * IPR port (MICROARCHITECTURE.md §5, §7).  The cache keeps tags, valid and
 * dirty bits and LRU state for timing and counting; the data themselves
 * live in the memory array (nothing else observes memory, so a write-back
 * cache that holds data would be indistinguishable). */
#include <stdio.h>
#include <string.h>

#include "vax/machine/vm_internal.h"

#define PA_MASK 0x3FFFFFFFu
#define SID_8600 0x040704D2u

enum { IPR_PAMACC = 0x40, IPR_PAMLOC = 0x41, IPR_SID = 0x3E, IPR_MAX = 0x4F };

void vm_pamm_reset(struct vax_machine *m)
{
    uint32_t mb = m->mem_size >> 20;
    uint32_t board = mb <= 128 ? 16 : 64; /* MS86-C or MS86-D boards */
    for (uint32_t i = 0; i < 1024; i++) {
        if (i < mb)
            m->pamm[i] = (uint8_t)(i / board);
        else if (i >= 512 && i < 544)
            m->pamm[i] = (uint8_t)(0x18 + (i - 512) / 8 % 4);
        else
            m->pamm[i] = 0x1F;
    }
}

static void machine_check(struct vax_machine *m, uint32_t pa, int write)
{
    if (m->stop)
        return;
    m->stop = VM_STOPPED;
    snprintf(m->reason, sizeof m->reason,
             "machine check: %s of non-existent memory at PA 0x%08X",
             write ? "write" : "read", pa);
}

/* One reference to one cache line. */
static void cache_ref(struct vax_machine *m, uint32_t pa, int write)
{
    uint32_t line = pa / VM_CACHE_LINE;
    struct cache_set *s = &m->cache[line % VM_CACHE_SETS];
    uint32_t tag = line / VM_CACHE_SETS;
    for (int w = 0; w < VM_CACHE_WAYS; w++)
        if (s->valid[w] && s->tag[w] == tag) {
            m->st.cache_hits++;
            s->lru = (uint8_t)(w ^ 1);
            if (write)
                s->dirty[w] = 1;
            return;
        }
    int w = s->lru;
    m->st.cache_misses++;
    m->st.stall_cycles += VM_MISS_PENALTY;
    m->st.microcycles += VM_MISS_PENALTY;
    if (s->valid[w] && s->dirty[w]) {
        m->st.cache_writebacks++;
        m->st.stall_cycles += VM_WRITEBACK_PENALTY;
        m->st.microcycles += VM_WRITEBACK_PENALTY;
    }
    s->valid[w] = 1;
    s->tag[w] = tag;
    s->dirty[w] = (uint8_t)write;
    s->lru = (uint8_t)(w ^ 1);
}

static int present(struct vax_machine *m, uint32_t pa, uint32_t n)
{
    if (m->pamm[pa >> 20] >= 8 || m->pamm[(pa + n - 1) >> 20 & 0x3FF] >= 8)
        return 0;
    return pa + n <= m->mem_size && pa + n > pa;
}

/* Reads n (1..8) bytes at virtual va (MAPEN = 0: physical = va<29:0>),
 * little endian, zero-extended.  Returns 0, or -1 after a machine check. */
int vm_mem_read(struct vax_machine *m, uint32_t va, unsigned n, uint64_t *out)
{
    uint32_t pa = va & PA_MASK;
    if (!present(m, pa, n)) {
        machine_check(m, pa, 0);
        return -1;
    }
    cache_ref(m, pa, 0);
    if ((pa % VM_CACHE_LINE) + n > VM_CACHE_LINE)
        cache_ref(m, pa + n - 1, 0);
    uint64_t v = 0;
    const uint8_t *p = m->mem + pa;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    *out = v;
    return 0;
}

int vm_mem_write(struct vax_machine *m, uint32_t va, unsigned n, uint64_t v)
{
    uint32_t pa = va & PA_MASK;
    if (!present(m, pa, n)) {
        machine_check(m, pa, 1);
        return -1;
    }
    cache_ref(m, pa, 1);
    if ((pa % VM_CACHE_LINE) + n > VM_CACHE_LINE)
        cache_ref(m, pa + n - 1, 1);
    uint8_t *p = m->mem + pa;
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
    return 0;
}

int vm_phys_write(struct vax_machine *m, uint32_t pa, const void *buf, size_t n)
{
    if (pa > m->mem_size || n > m->mem_size - pa)
        return -1;
    memcpy(m->mem + pa, buf, n);
    return 0;
}

int vm_phys_read(struct vax_machine *m, uint32_t pa, void *buf, size_t n)
{
    if (pa > m->mem_size || n > m->mem_size - pa)
        return -1;
    memcpy(buf, m->mem + pa, n);
    return 0;
}

uint32_t vm_memory_size(const struct vax_machine *m) { return m->mem_size; }

/* The IPR port.  Registers without hardware behaviour are plain storage. */
uint32_t vm_ipr_read(struct vax_machine *m, uint32_t n)
{
    m->ipr_bad = n > IPR_MAX;
    if (m->ipr_bad)
        return 0;
    switch (n) {
    case IPR_SID:
        return SID_8600;
    case IPR_PAMLOC:
        return m->pamloc;
    case IPR_PAMACC:
        return (m->pamloc & 0x3FF00000u) | m->pamm[m->pamloc >> 20];
    default:
        return m->ipr[n];
    }
}

void vm_ipr_write(struct vax_machine *m, uint32_t n, uint32_t v)
{
    m->ipr_bad = n > IPR_MAX;
    if (m->ipr_bad)
        return;
    switch (n) {
    case IPR_SID:
        break;
    case IPR_PAMLOC:
        m->pamloc = v & 0x3FF00000u;
        break;
    case IPR_PAMACC: /* our extension (SIMH ignores it): load the entry */
        m->pamm[m->pamloc >> 20] = (uint8_t)(v & 0x1F);
        break;
    default:
        m->ipr[n] = v;
    }
}

uint32_t vm_ipr(struct vax_machine *m, int n) { return vm_ipr_read(m, (uint32_t)n & 0xFF); }
void vm_set_ipr(struct vax_machine *m, int n, uint32_t v) { vm_ipr_write(m, (uint32_t)n & 0xFF, v); }
