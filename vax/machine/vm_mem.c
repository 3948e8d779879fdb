/* Memory: array boards behind the PAMM, the write-back cache, and the
 * IPR port (MICROARCHITECTURE.md §5, §7).  The cache keeps tags, valid and
 * dirty bits and LRU state for timing and counting; the data themselves
 * live in the memory array (nothing else observes memory, so a write-back
 * cache that holds data would be indistinguishable). */
#include <stdio.h>
#include <string.h>

#include "vax/machine/vm_mem.h"
#include "vax/machine/vm_mem_fast.h"

#define PA_MASK 0x3FFFFFFFu

/* Is pa (30 bits) in an I/O adapter's window (PAMM code 0x18-0x1B)? */
static inline int adapter_space(const struct vax_machine *m, uint32_t pa)
{
    uint8_t c = m->pamm[(pa >> 20) & 0x3FF];
    return c >= 0x18 && c <= 0x1B;
}

void vm_pamm_reset(struct vax_machine *m)
{
    uint32_t mb = m->mem_size >> 20;
    uint32_t board = mb <= 128 ? 16 : 64; /* MS86-C or MS86-D boards */
    for (uint32_t i = 0; i < 1024; i++) {
        if (i < mb)
            m->pamm[i] = (uint8_t)(i / board);
        else if (i >= 512 && i < 640) /* I/O adapters 0-3, 32 MB each */
            m->pamm[i] = (uint8_t)(0x18 + (i - 512) / 32);
        else
            m->pamm[i] = 0x1F;
    }
    vm_memo_flush(m);
}

/* A reference to non-existent memory.  With the machine-check flow in the
 * control store this is a microtrap (§10): FVA latches the address, the
 * rest of the microword is abandoned and the sequencer goes to
 * MACHINE_CHECK.  A second one before the next IRD (the flow itself hit
 * non-existent memory), or no flow at all, stops the machine. */
void vm_machine_check(struct vax_machine *m, uint32_t pa, int write)
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
             "machine check: %s of non-existent %s at PA 0x%08X%s",
             write ? "write" : "read", adapter_space(m, pa) ? "I/O address" : "memory", pa,
             m->mchk_active ? " (in the machine-check flow)" : "");
}


/* The way of set s that holds the line of tag `tag`, or -1. */
static inline int cache_way(const struct cache_set *s, uint32_t tag)
{
    for (int w = 0; w < VM_CACHE_WAYS; w++)
        if (s->valid[w] && s->tag[w] == tag)
            return w;
    return -1;
}

/* One reference to one cache line; returns the way.  A fill evicts a
 * line a memo (vm_mem_fast.h) may point at. */
static inline int cache_ref(struct vax_machine *m, uint32_t pa, int write)
{
    uint32_t line = pa / VM_CACHE_LINE;
    struct cache_set *s = &m->cache[line % VM_CACHE_SETS];
    int w = cache_way(s, line / VM_CACHE_SETS);
    if (w >= 0) {
        m->st.cache_hits++;
        s->lru = (uint32_t)(w ^ 1);
        if (write)
            s->dirty[w] = 1;
        return w;
    }
    w = (int)s->lru;
    vm_memo_evict(m, s, (unsigned)w);
    m->st.cache_misses++;
    m->st.stall_cycles += VM_MISS_PENALTY;
    m->st.microcycles += VM_MISS_PENALTY;
    if (s->valid[w] && s->dirty[w]) {
        m->st.cache_writebacks++;
        m->st.stall_cycles += VM_WRITEBACK_PENALTY;
        m->st.microcycles += VM_WRITEBACK_PENALTY;
    }
    s->valid[w] = 1;
    s->tag[w] = line / VM_CACHE_SETS;
    s->dirty[w] = (uint32_t)write;
    s->lru = (uint32_t)(w ^ 1);
    return w;
}

static inline int present(struct vax_machine *m, uint32_t pa, uint32_t n)
{
    if (m->pamm[pa >> 20] >= 8 || m->pamm[(pa + n - 1) >> 20 & 0x3FF] >= 8)
        return 0;
    return pa + n <= m->mem_alloc && pa + n > pa;
}

/* ---- the translation buffer (MICROARCHITECTURE.md §11) ----
 * Two halves of VM_TB_SETS direct-mapped entries: [1] system space
 * (VA<31> = 1), [0] process space (P0 and P1), indexed by VPN<7:0> with
 * the tag VA<31:9>.  An entry holds the PTE the microcode filled.  The
 * hit logic includes the protection ROM (PTE<30:27> x mode x read/write:
 * the SRM's table); a hit therefore means "access allowed" and, for a
 * write, "M already set".  Anything else -- no entry, a protection
 * failure, a first write to a clean page -- is a TB-miss microtrap to
 * TB_MISS, and the microcode walks the page tables and decides: fill,
 * set M, ACV or TNV.  The TB never faults by itself. */

/* Protection ROM: for each PROT code, (highest mode that may write + 1)
 * << 4 | (highest mode that may read + 1); 0 = nobody. K=0 E=1 S=2 U=3. */
static const uint8_t prot_rom[16] = {
    0x00, 0x00, 0x11, 0x01, 0x44, 0x22, 0x12, 0x02,
    0x33, 0x23, 0x13, 0x03, 0x34, 0x24, 0x14, 0x04};

#define PTE_V 0x80000000u
#define PTE_M 0x04000000u

void vm_tb_flush(struct vax_machine *m, int all)
{
    vm_memo_flush(m);
    for (int i = 0; i < VM_TB_SETS; i++) {
        m->tb[0][i].valid = 0;
        if (all)
            m->tb[1][i].valid = 0;
    }
}

void vm_tb_inval(struct vax_machine *m, uint32_t va)
{
    struct vm_tbent *e = &m->tb[va >> 31][(va >> 9) % VM_TB_SETS];
    if (e->tag == va >> 9)
        e->valid = 0;
    vm_memo_evict_tb(m, va);
}

/* MISC=TBWR: the entry for the VA in MAR gets the PTE in MDR. */
void vm_tb_write(struct vax_machine *m, uint32_t va, uint32_t pte)
{
    struct vm_tbent *e = &m->tb[va >> 31][(va >> 9) % VM_TB_SETS];
    e->tag = va >> 9;
    e->pte = pte;
    e->valid = 1;
    vm_memo_evict_tb(m, va);
}

/* TBCHK's question: is the VA in the TB? */
int vm_tb_check(const struct vax_machine *m, uint32_t va)
{
    const struct vm_tbent *e = &m->tb[va >> 31][(va >> 9) % VM_TB_SETS];
    return e->valid && e->tag == va >> 9;
}

/* A TB hit for an access to va in the current mode (MAPEN set): 1 and
 * the physical address, or 0 (nothing counted). */
static inline int tb_hit(const struct vax_machine *m, uint32_t va, int write, uint32_t *pa)
{
    unsigned mode = (m->psl >> 24) & 3;
    const struct vm_tbent *e = &m->tb[va >> 31][(va >> 9) % VM_TB_SETS];
    unsigned lim = write ? prot_rom[(e->pte >> 27) & 15] >> 4
                         : prot_rom[(e->pte >> 27) & 15] & 15;
    if (!e->valid || e->tag != va >> 9 || mode >= lim || (write && !(e->pte & PTE_M)))
        return 0;
    *pa = ((e->pte & 0x1FFFFFu) << 9 | (va & 0x1FF)) & PA_MASK;
    return 1;
}

/* Translates the page of va for an access in the current mode.  0 and the
 * physical address, or -1 after raising the TB-miss microtrap. */
static inline int xlate(struct vax_machine *m, uint32_t va, int write, uint32_t *pa)
{
    if (!(m->ipr[0x38] & 1)) {
        *pa = va & PA_MASK;
        return 0;
    }
    if (tb_hit(m, va, write, pa)) {
        m->st.tb_hits++;
        return 0;
    }
    unsigned mode = (m->psl >> 24) & 3;
    if (m->stop || m->utrap)
        return -1;
    m->st.tb_misses++;
    if (!m->l_tbmiss || m->mm_active) {
        m->stop = VM_STOPPED;
        snprintf(m->reason, sizeof m->reason, "TB miss at VA 0x%08X %s",
                 va, m->mm_active ? "in the TB-miss flow" : "without a TB_MISS flow");
        return -1;
    }
    m->fva = va;
    m->fva_write = write;
    m->mmacc = mode | (write ? 4u : 0u);
    m->mm_active = 1;
    m->utrap = 1;
    m->utrap_upc = m->l_tbmiss;
    return -1;
}

/* Both pages of a reference of n bytes: all checks before any access. */
static int xlate2(struct vax_machine *m, uint32_t va, unsigned n, int write,
                  uint32_t *pa1, uint32_t *pa2, unsigned *split)
{
    if (xlate(m, va, write, pa1) < 0)
        return -1;
    *split = n;
    if (((va & 0x1FF) + n > 0x200) && (m->ipr[0x38] & 1)) {
        *split = 0x200 - (va & 0x1FF);
        if (xlate(m, (va + n - 1) & ~0x1FFu, write, pa2) < 0)
            return -1;
    }
    return 0;
}

/* Points the memo at the line of pa (a reference inside one line that
 * just completed in way w). */
static inline void memo_fill(struct vax_machine *m, struct vm_memo *mo, uint32_t va,
                             uint32_t pa, int w)
{
    unsigned ln = (va >> 6) & 4095;
    if (UNLIKELY(m->prb_npc) && mo < m->memo.i + VM_IMEMO_N && mo >= m->memo.i &&
        (m->prb_iline[ln / 64] >> (ln % 64) & 1))
        return; /* a PC comparator's line: every IRD in it takes the full way (§15) */
    mo->base = va & ~63u;
    mo->span = 64;
    mo->tb = (uint8_t)(m->ipr[0x38] & 1);
    mo->host = m->mem + (pa & ~63u);
    mo->set = &m->cache[pa / VM_CACHE_LINE % VM_CACHE_SETS];
    mo->way = (uint8_t)w;
    mo->lru_next = (uint32_t)w ^ 1u;
    unsigned j = vm_memo_index(&m->memo, mo); /* (mo is one of m->memo's) */
    m->memo.filled[j / 64] |= 1ull << (j % 64);
    if (j < VM_IMEMO_N) { /* the I-stream's */
        m->memo.ipage = va >> 9;
        m->memo.ipage_ok = 1;
    }
}

/* A reference to adapter space: through the I/O's port (vm_mem.h). */
static int adapter_read(struct vax_machine *m, uint32_t pa, unsigned n, uint64_t *out)
{
    if (!m->abus.read) {
        vm_machine_check(m, pa, 0);
        return -1;
    }
    return m->abus.read(m, pa, n, out);
}

static int adapter_write(struct vax_machine *m, uint32_t pa, unsigned n, uint64_t v)
{
    if (!m->abus.write) {
        vm_machine_check(m, pa, 1);
        return -1;
    }
    return m->abus.write(m, pa, n, v);
}

/* n bytes at pa through the cache; a reference inside one line points
 * the memo mo (if any) at that line, va being its virtual address. */
static inline int phys_read(struct vax_machine *m, uint32_t pa, unsigned n, uint64_t *out,
                            struct vm_memo *mo, uint32_t va)
{
    if (!present(m, pa, n)) {
        if (adapter_space(m, pa)) /* adapter space: the A-bus, uncached */
            return adapter_read(m, pa, n, out);
        vm_machine_check(m, pa, 0);
        return -1;
    }
    int w = cache_ref(m, pa, 0);
    if ((pa % VM_CACHE_LINE) + n > VM_CACHE_LINE)
        cache_ref(m, pa + n - 1, 0);
    else if (mo)
        memo_fill(m, mo, va, pa, w);
    *out = vm_load_le(m->mem + pa, n);
    return 0;
}

static inline int phys_write(struct vax_machine *m, uint32_t pa, unsigned n, uint64_t v,
                             struct vm_memo *mo, uint32_t va)
{
    if (!present(m, pa, n)) {
        if (adapter_space(m, pa))
            return adapter_write(m, pa, n, v);
        vm_machine_check(m, pa, 1);
        return -1;
    }
    int w = cache_ref(m, pa, 1);
    if ((pa % VM_CACHE_LINE) + n > VM_CACHE_LINE)
        cache_ref(m, pa + n - 1, 1);
    else if (mo)
        memo_fill(m, mo, va, pa, w);
    vm_store_le(m->mem + pa, n, v);
    return 0;
}

/* The physical address of n bytes at va (in one page) for a reference
 * through memo table tab (the write intent of memo.m and memo.w; NULL:
 * the I-stream's, none), where it is a TB hit (MAPEN set) in memory: 1,
 * else 0 */
static inline int memo_pa(struct vax_machine *m, const struct vm_memo *tab, uint32_t va,
                          unsigned n, uint32_t *pa)
{
    *pa = va & PA_MASK;
    if ((m->ipr[0x38] & 1) &&
        !tb_hit(m, va, tab && (tab == m->memo.m || tab == m->memo.w), pa))
        return 0;
    return present(m, *pa, n);
}

/* vm_memo_refill's test: the n bytes at va in one cache line, a TB hit
 * (MAPEN set) with the write intent of memo table tab's stream (NULL:
 * the I-stream's, none), in memory and a cache hit; 1 and the line's
 * physical address and way, or 0 */
static inline int memo_refillable(struct vax_machine *m, const struct vm_memo *tab, uint32_t va,
                                  unsigned n, uint32_t *pa, int *way)
{
    if ((va % VM_CACHE_LINE) + n > VM_CACHE_LINE || !memo_pa(m, tab, va, n, pa))
        return 0;
    uint32_t line = *pa / VM_CACHE_LINE; /* cache_ref's hit, without its counts */
    *way = cache_way(&m->cache[line % VM_CACHE_SETS], line / VM_CACHE_SETS);
    return *way >= 0;
}

int vm_memo_refill(struct vax_machine *m, struct vm_memo *tab, uint32_t va, unsigned n)
{
    uint32_t pa;
    int w;
    if (!memo_refillable(m, tab, va, n, &pa, &w))
        return 0;
    struct vm_memo *mo = vm_memo_sel(tab, va);
    memo_fill(m, mo, va, pa, w);
    return vm_memo_hit(mo, va, n);
}

uint8_t *vm_memo_cross(struct vax_machine *m, const struct vm_memo *tab, uint32_t va,
                       unsigned n, int write)
{
    if ((va % VM_CACHE_LINE) + n <= VM_CACHE_LINE || (va & 0x1FF) + n > 0x200)
        return NULL; /* one line (the memo's way), or two pages */
    uint32_t pa;
    if (!memo_pa(m, tab, va, n, &pa))
        return NULL;
    uint32_t l0 = pa / VM_CACHE_LINE, l1 = l0 + 1;
    struct cache_set *s0 = &m->cache[l0 % VM_CACHE_SETS], *s1 = &m->cache[l1 % VM_CACHE_SETS];
    int w0 = cache_way(s0, l0 / VM_CACHE_SETS), w1 = cache_way(s1, l1 / VM_CACHE_SETS);
    if (w0 < 0 || w1 < 0)
        return NULL;
    /* phys_read's and phys_write's two cache_ref hits (the first one's
     * count is the caller's, as a memo hit's; the TB hit's too) */
    s0->lru = (uint32_t)(w0 ^ 1);
    s1->lru = (uint32_t)(w1 ^ 1);
    if (write) {
        s0->dirty[w0] = 1;
        s1->dirty[w1] = 1;
    }
    m->st.cache_hits++;
    return m->mem + pa;
}

/* A miss's stall in set s (its victim's write-back too), or 0 where s
 * holds the line of tag `tag` */
static uint64_t miss_stall(const struct cache_set *s, uint32_t tag)
{
    if (cache_way(s, tag) >= 0)
        return 0;
    unsigned v = s->lru; /* cache_ref's victim */
    return VM_MISS_PENALTY + (s->valid[v] && s->dirty[v] ? VM_WRITEBACK_PENALTY : 0);
}

int vm_memo_refill_miss(struct vax_machine *m, struct vm_memo *tab, uint32_t va, unsigned n,
                        int write, uint64_t lim, const struct vm_memo *keep)
{
    uint32_t pa;
    if ((va % VM_CACHE_LINE) + n > VM_CACHE_LINE || !memo_pa(m, tab, va, n, &pa))
        return 0;
    uint32_t line = pa / VM_CACHE_LINE;
    struct cache_set *s = &m->cache[line % VM_CACHE_SETS];
    uint64_t stall = miss_stall(s, line / VM_CACHE_SETS);
    if (!stall || m->st.microcycles + stall >= lim)
        return 0;
    unsigned v = s->lru; /* (the victim's line: not keep's) */
    if (keep && s->valid[v] &&
        (!keep->span || (uint32_t)((keep->host - m->mem) / VM_CACHE_LINE) ==
                            s->tag[v] * VM_CACHE_SETS + line % VM_CACHE_SETS))
        return 0;
    if (m->ipr[0x38] & 1) /* (xlate's hit) */
        m->st.tb_hits++;
    m->tc_refs--;
    int w = cache_ref(m, pa, write);
    memo_fill(m, vm_memo_sel(tab, va), va, pa, w);
    return 1;
}

int vm_memo_irefill_miss(struct vax_machine *m, uint32_t pc, uint64_t lim)
{
    uint32_t pa;
    if (((pc & 0x1FF) > 0x1FD && (m->ipr[0x38] & 1)) || m->prb_npc ||
        !memo_pa(m, NULL, pc, 1, &pa))
        return 0;
    uint32_t line = pa / VM_CACHE_LINE;
    uint64_t stall = miss_stall(&m->cache[line % VM_CACHE_SETS], line / VM_CACHE_SETS);
    if (!stall || m->st.microcycles + stall >= lim)
        return 0;
    m->st.cache_hits--;
    int w = cache_ref(m, pa, 0);
    struct vm_memo *mo = vm_memo_isel(m, pc);
    memo_fill(m, mo, pc, pa, w);
    return 1;
}

uintptr_t vm_memo_refill_cross(struct vax_machine *m, struct vm_memo *tab, uint32_t va,
                               unsigned nw)
{
    unsigned n = nw & 15;
    if (vm_memo_refill(m, tab, va, n))
        return 1;
    return (uintptr_t)vm_memo_cross(m, tab, va, n, (int)(nw >> 4));
}

int vm_memo_irefill(struct vax_machine *m, uint32_t pc)
{
    uint32_t pa;
    int w;
    if (!memo_refillable(m, NULL, pc, 1, &pa, &w))
        return 0;
    struct vm_memo *mo = vm_memo_isel(m, pc);
    memo_fill(m, mo, pc, pa, w);
    return vm_memo_hit(mo, pc, 1);
}

/* READP / WRITEP: physical (PA = address<29:0>), never translated. */
int vm_mem_readp(struct vax_machine *m, uint32_t pa, unsigned n, uint64_t *out)
{
    return phys_read(m, pa & PA_MASK, n, out, NULL, 0);
}

int vm_mem_writep(struct vax_machine *m, uint32_t pa, unsigned n, uint64_t v)
{
    return phys_write(m, pa & PA_MASK, n, v, NULL, 0);
}

/* Reads n (1..8) bytes at virtual va, little endian, zero-extended;
 * `write` is the write intent of a modify operand's read.  Returns 0, or
 * -1 after a microtrap (TB miss, machine check). */
int vm_mem_read_memo(struct vax_machine *m, uint32_t va, unsigned n, int write,
                     uint64_t *out, struct vm_memo *mo)
{
    uint32_t pa1, pa2;
    unsigned split;
    if (!(m->ipr[0x38] & 1) || (va & 0x1FF) + n <= 0x200) { /* one page */
        if (xlate(m, va, write, &pa1) < 0)
            return -1;
        return phys_read(m, pa1, n, out, mo, va);
    }
    if (xlate2(m, va, n, write, &pa1, &pa2, &split) < 0)
        return -1;
    if (split == n)
        return phys_read(m, pa1, n, out, NULL, 0);
    uint64_t lo, hi;
    if (phys_read(m, pa1, split, &lo, NULL, 0) < 0 ||
        phys_read(m, pa2, n - split, &hi, NULL, 0) < 0)
        return -1;
    *out = lo | hi << (8 * split);
    return 0;
}

int vm_mem_write_memo(struct vax_machine *m, uint32_t va, unsigned n, uint64_t v,
                      struct vm_memo *mo)
{
    uint32_t pa1, pa2;
    unsigned split;
    if (xlate2(m, va, n, 1, &pa1, &pa2, &split) < 0)
        return -1;
    if (split == n)
        return phys_write(m, pa1, n, v, mo, va);
    if (!present(m, pa1, split) || !present(m, pa2, n - split)) {
        if (adapter_space(m, pa1) || adapter_space(m, pa2)) { /* adapter space: part by part */
            if (phys_write(m, pa1, split, v, NULL, 0) < 0)
                return -1;
            return phys_write(m, pa2, n - split, v >> (8 * split), NULL, 0);
        }
        return phys_write(m, present(m, pa1, split) ? pa2 : pa1, 1, 0, NULL, 0);
    }
    phys_write(m, pa1, split, v, NULL, 0);
    return phys_write(m, pa2, n - split, v >> (8 * split), NULL, 0);
}

/* An octaword (READOP/WRITEOP of an H or O operand): both pages are
 * translated and both addresses checked before any data moves, as for
 * any reference; within one cache line it is one cache reference, across
 * a line two, as the wider M-box path would make them. */
static int phys16(struct vax_machine *m, uint32_t va, int write, uint32_t pa[2],
                  unsigned *split)
{
    if (xlate2(m, va, 16, write, &pa[0], &pa[1], split) < 0)
        return -1;
    if (*split == 16)
        pa[1] = pa[0] + *split;
    else
        pa[1] -= *split; /* so that byte i of the octaword is at pa[i >= split] + i */
    for (int h = 0; h < 2; h++) {
        uint32_t lo = pa[0], hi = pa[0] + *split - 1;
        if (h) {
            if (*split == 16)
                break;
            lo = pa[1] + *split;
            hi = pa[1] + 15;
        }
        if (!present(m, lo, hi - lo + 1)) {
            vm_machine_check(m, lo, write);
            return -1;
        }
    }
    for (unsigned i = 0; i < 16; i++) /* one reference per line touched */
        if (i == 0 || (pa[i >= *split] + i) % VM_CACHE_LINE == 0)
            cache_ref(m, pa[i >= *split] + i, write);
    return 0;
}

int vm_mem_read16(struct vax_machine *m, uint32_t va, int write, uint32_t out[4])
{
    uint32_t pa[2];
    unsigned split;
    if (phys16(m, va, write, pa, &split) < 0)
        return -1;
    uint8_t b[16];
    for (unsigned i = 0; i < 16; i++)
        b[i] = m->mem[pa[i >= split] + i];
    for (int k = 0; k < 4; k++)
        out[k] = (uint32_t)vm_load_le(b + 4 * k, 4);
    return 0;
}

int vm_mem_write16(struct vax_machine *m, uint32_t va, const uint32_t in[4])
{
    uint32_t pa[2];
    unsigned split;
    if (phys16(m, va, 1, pa, &split) < 0)
        return -1;
    for (unsigned i = 0; i < 16; i++)
        m->mem[pa[i >= split] + i] = (uint8_t)(in[i / 4] >> (8 * (i % 4)));
    return 0;
}

int vm_mem_host_write(struct vax_machine *m, uint32_t pa, const void *buf, size_t n)
{
    if (pa > m->mem_alloc || n > m->mem_alloc - pa)
        return -1;
    memcpy(m->mem + pa, buf, n);
    return 0;
}

int vm_phys_read(struct vax_machine *m, uint32_t pa, void *buf, size_t n)
{
    if (pa > m->mem_alloc || n > m->mem_alloc - pa)
        return -1;
    memcpy(buf, m->mem + pa, n);
    return 0;
}

uint32_t vm_memory_size(const struct vax_machine *m) { return m->mem_size; }

/* ---- DMA (vm_io.h) ---- */

int vm_dma_present(const struct vax_machine *m, uint32_t pa, uint32_t n)
{
    if (n == 0 || pa > PA_MASK || n > PA_MASK + 1 - pa || pa + n > m->mem_alloc)
        return 0;
    for (uint32_t mb = pa >> 20; mb <= (pa + n - 1) >> 20; mb++)
        if (m->pamm[mb] >= 8)
            return 0;
    return 1;
}

/* The M-box keeps DMA coherent: the data are in the array already (the
 * cache keeps only tags), so a line a DMA wrote is invalidated -- the CPU
 * misses on it next time, as on the 8600, where the line was refilled
 * from memory -- and any memo pointing at a line is dropped. */
unsigned vm_dma_wrote(struct vax_machine *m, uint32_t pa, uint32_t n)
{
    unsigned hit = 0;
    for (uint32_t line = pa / VM_CACHE_LINE; line <= (pa + n - 1) / VM_CACHE_LINE; line++) {
        struct cache_set *s = &m->cache[line % VM_CACHE_SETS];
        uint32_t tag = line / VM_CACHE_SETS;
        for (int w = 0; w < VM_CACHE_WAYS; w++)
            if (s->valid[w] && s->tag[w] == tag) {
                s->valid[w] = 0;
                s->dirty[w] = 0;
                vm_memo_evict(m, s, (unsigned)w);
                hit++;
            }
    }
    vm_code_write_notify(m, pa, n);
    return hit;
}

/* A write that may change code.  The trace cache needs nothing here: a
 * trace checks every opcode and specifier byte against the one it
 * recorded, in the microword that consumes it (vm_tcache.h), so code
 * written by DMA, the guest or the host is seen wherever it is run. */
void vm_code_write_notify(struct vax_machine *m, uint32_t pa, uint32_t len)
{
    (void)m;
    (void)pa;
    (void)len;
}

