/* Memory: array boards behind the PAMM, the write-back cache, and the
 * IPR port (MICROARCHITECTURE.md §5, §7).  The cache keeps tags, valid and
 * dirty bits and LRU state for timing and counting; the data themselves
 * live in the memory array (nothing else observes memory, so a write-back
 * cache that holds data would be indistinguishable). */
#include <stdio.h>
#include <string.h>

#include "vax/machine/vm_internal.h"

#define PA_MASK 0x3FFFFFFFu

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

/* A reference to non-existent memory.  With the machine-check flow in the
 * control store this is a microtrap (§10): FVA latches the address, the
 * rest of the microword is abandoned and the sequencer goes to
 * MACHINE_CHECK.  A second one before the next IRD (the flow itself hit
 * non-existent memory), or no flow at all, stops the machine. */
static void machine_check(struct vax_machine *m, uint32_t pa, int write)
{
    if (m->stop || m->utrap)
        return;
    m->fva = pa;
    m->fva_write = write;
    if (m->l_mchk && !m->mchk_active) {
        m->mchk_active = 1;
        m->utrap = 1;
        m->utrap_upc = m->l_mchk;
        return;
    }
    m->stop = VM_STOPPED;
    snprintf(m->reason, sizeof m->reason,
             "machine check: %s of non-existent memory at PA 0x%08X%s",
             write ? "write" : "read", pa,
             m->mchk_active ? " (in the machine-check flow)" : "");
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

