/* The memory path's fast lane (MICROARCHITECTURE.md §5, "Speed" in
 * README.md).  Each stream -- I-stream, data reads, data writes -- keeps a
 * memo of the last cache line it used: its virtual line, the context
 * (MAPEN, current mode, write intent), the cache set and way and the
 * line's bytes.  A reference inside that line, in the same context, with
 * no cache fill, TB change or PAMM change since (m->mgen), has exactly
 * the outcome the full path would compute: the same TB hit, the same
 * cache hit in the same way.  The fast lane therefore does exactly what
 * the full path does on that outcome -- count the TB and cache hits,
 * update LRU (and the dirty bit for a write), move the data -- and every
 * other reference takes the full path, which refills the memo. */
#ifndef VAX_MACHINE_VM_MEM_FAST_H
#define VAX_MACHINE_VM_MEM_FAST_H

#include <string.h>

#include "microcode/le.h"
#include "vax/machine/vm_hint.h"
#include "vax/machine/vm_internal.h"

/* n bytes at p, little endian (microcode/le.h): whole loads for the
 * common sizes.  (Always inlined: in the trace cache's executor, a call
 * each for the sizes other than 4 cost CALLS/RET 2.5% of its host
 * instructions.) */
static ALWAYS_INLINE uint64_t vm_load_le(const uint8_t *p, unsigned n)
{
    switch (n) {
    case 1: return p[0];
    case 2: return le_get16(p);
    case 4: return le_get32(p);
    case 8: return le_get64(p);
    default: break;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static ALWAYS_INLINE void vm_store_le(uint8_t *p, unsigned n, uint64_t v)
{
    switch (n) {
    case 1: p[0] = (uint8_t)v; return;
    case 2: le_put16(p, (uint16_t)v); return;
    case 4: le_put32(p, (uint32_t)v); return;
    case 8: le_put64(p, v); return;
    default: break;
    }
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Entry j of a memo set, counting through i, r, m, w (the filled bits). */
static inline struct vm_memo *vm_memo_at(struct vm_memoset *ms, unsigned j)
{
    if (j < VM_IMEMO_N)
        return &ms->i[j];
    j -= VM_IMEMO_N;
    return j < VM_MEMO_N ? &ms->r[j] : j < 2 * VM_MEMO_N ? &ms->m[j - VM_MEMO_N]
                                                          : &ms->w[j - 2 * VM_MEMO_N];
}

/* Its index there (mo is an entry of ms). */
static inline unsigned vm_memo_index(const struct vm_memoset *ms, const struct vm_memo *mo)
{
    if (mo < ms->r)
        return (unsigned)(mo - ms->i);
    if (mo < ms->m)
        return VM_IMEMO_N + (unsigned)(mo - ms->r);
    if (mo < ms->w)
        return VM_IMEMO_N + VM_MEMO_N + (unsigned)(mo - ms->m);
    return VM_IMEMO_N + 2 * VM_MEMO_N + (unsigned)(mo - ms->w);
}

static inline void vm_memoset_clear(struct vm_memoset *ms)
{
    for (unsigned k = 0; k < sizeof ms->filled / sizeof ms->filled[0]; k++) {
        for (uint64_t b = ms->filled[k]; b; b &= b - 1)
            vm_memo_at(ms, 64 * k + (unsigned)__builtin_ctzll(b))->span = 0;
        ms->filled[k] = 0;
    }
    ms->ipage_ok = 0;
}

/* The entries that may hold a line of cache set x: VA<8:6> is PA<8:6>,
 * so those whose index is x mod 8 in every table, which (each table's
 * length a multiple of 8) are the filled bits j with j mod 8 = x mod 8. */
static inline void vm_memoset_evict(struct vm_memoset *ms, const struct cache_set *s,
                                    unsigned w, unsigned x)
{
    const uint64_t cls = 0x0101010101010101ull << (x % 8);
    for (unsigned k = 0; k < sizeof ms->filled / sizeof ms->filled[0]; k++)
        for (uint64_t b = ms->filled[k] & cls; b; b &= b - 1) {
            unsigned j = 64 * k + (unsigned)__builtin_ctzll(b);
            struct vm_memo *mo = vm_memo_at(ms, j);
            if (mo->set == s && mo->way == w) {
                mo->span = 0;
                ms->filled[k] &= ~(1ull << (j % 64));
            }
        }
}

/* Way w of set s no longer holds its line (a cache fill replaced it, DMA
 * invalidated it): the memos of that line go, in every mode's set.  Only
 * the entries of index s mod N can hold it. */
static inline void vm_memo_evict(struct vax_machine *m, const struct cache_set *s, unsigned w)
{
    unsigned x = (unsigned)(s - m->cache);
    vm_memoset_evict(&m->memo, s, w, x);
    for (int i = 0; i < 4; i++)
        vm_memoset_evict(&m->memo_saved[i], s, w, x);
}

/* The current mode changes from PSL<25:24> old to new: each mode keeps
 * its own memos (a protection check's outcome depends on the mode; no
 * translation changed), so the new mode finds its memos where it left
 * them. */
static inline void vm_memo_mode(struct vax_machine *m, uint32_t old_psl, uint32_t new_psl)
{
    if (!((old_psl ^ new_psl) & 0x03000000u)) /* PSL<25:24>, the mode */
        return;
    unsigned o = (old_psl >> 24) & 3, n = (new_psl >> 24) & 3;
    m->memo_saved[o] = m->memo;
    m->memo = m->memo_saved[n];
}

/* The I-stream memo's entry for the byte at va. */
static inline struct vm_memo *vm_memo_isel(struct vax_machine *m, uint32_t va)
{
    return &m->memo.i[(va >> 6) & (VM_IMEMO_N - 1)];
}

/* The entry of a data stream's memo table for virtual address va. */
static inline struct vm_memo *vm_memo_sel(struct vm_memo *tab, uint32_t va)
{
    return &tab[(va >> 6) & (VM_MEMO_N - 1)];
}

/* TB entry (half, index) changed (a fill, TBIS): the memos of the pages
 * it translated go, in every mode's set, and the I-stream's page if it is
 * one; a memo of another page used another entry, so it still holds.  (A
 * memo's line lies in one page.)  Only entries whose index agrees with
 * the TB index in the VA bits both take can hold such a page: the
 * I-stream's eight (VA<8:6>, none shared) and eight of each data table's
 * (VA<11:6>: VA<11:9>), the filled bits in `cls`.
 * Callgrind, -O3, 4.3BSD's boot to login: (191 K fills): every memo
 * emptied at a fill, 34.20 G host instructions; only these, 34.05 G
 * looking at every filled entry, 33.75 G at those of the class.  (Keeping
 * the system space's memos at a write of P0BR..P1LR, LDPCTX's four, as
 * well cost 0.15 G more than it saved: each write looked at them again.) */
_Static_assert(VM_IMEMO_N == 8 && VM_MEMO_N % 64 == 0 && VM_MEMO_N / 8 <= VM_TB_SETS,
               "vm_memoset_evict_tb's classes: the data tables' index above VA<8:6>");
static inline void vm_memoset_evict_tb(struct vm_memoset *ms, const uint64_t *cls,
                                       unsigned half, unsigned index)
{
    for (unsigned k = 0; k < sizeof ms->filled / sizeof ms->filled[0]; k++)
        for (uint64_t b = ms->filled[k] & cls[k]; b; b &= b - 1) {
            unsigned j = 64 * k + (unsigned)__builtin_ctzll(b);
            struct vm_memo *mo = vm_memo_at(ms, j);
            if (mo->base >> 31 == half && (mo->base >> 9) % VM_TB_SETS == index) {
                mo->span = 0;
                ms->filled[k] &= ~(1ull << (j % 64));
            }
        }
    if (ms->ipage >> 22 == half && ms->ipage % VM_TB_SETS == index)
        ms->ipage_ok = 0;
}
static inline void vm_memo_evict_tb(struct vax_machine *m, uint32_t va)
{
    unsigned half = va >> 31, index = (va >> 9) % VM_TB_SETS;
    uint64_t cls[(VM_MEMO_ALL + 63) / 64] = {0xFF}; /* the I-stream's, then r, m, w */
    for (unsigned t = 0; t < 3; t++) {
        unsigned j = VM_IMEMO_N + t * VM_MEMO_N + 8 * (index % (VM_MEMO_N / 8));
        cls[j / 64] |= 0xFFull << (j % 64); /* (j % 8 == 0: in one word) */
    }
    vm_memoset_evict_tb(&m->memo, cls, half, index);
    for (int i = 0; i < 4; i++)
        vm_memoset_evict_tb(&m->memo_saved[i], cls, half, index);
}

/* A TB, PAMM or MAPEN change: translations may differ, in every mode. */
static inline void vm_memo_flush(struct vax_machine *m)
{
    vm_memoset_clear(&m->memo);
    for (int i = 0; i < 4; i++)
        vm_memoset_clear(&m->memo_saved[i]);
}

static inline int vm_memo_hit(const struct vm_memo *mo, uint32_t va, unsigned n)
{
    return (uint64_t)(uint32_t)(va - mo->base) + n <= mo->span;
}

/* Can an I-stream read of n bytes at PC not microtrap?  Yes when they lie
 * in the page the I-stream last translated, with no TB, PAMM, MAPEN or
 * mode change since: the TB lookup and the PAMM check would give the
 * same answer.  (The sequencer then needs no abort state for the fetch;
 * vm_interp.c.) */
static inline int vm_istream_safe(const struct vax_machine *m, unsigned n)
{
    uint32_t pc = m->r[15];
    if ((pc + n - 1) >> 9 != pc >> 9)
        return 0;
    if (m->memo.ipage_ok && pc >> 9 == m->memo.ipage)
        return 1;
    /* a memo of the page holds: nothing changed translations since */
    const struct vm_memo *mo = &m->memo.i[(pc >> 6) & (VM_IMEMO_N - 1)];
    return vm_memo_hit(mo, pc, 1);
}

/* IRD's quick test: PC's byte is in I-stream memo mo (PC's line's entry,
 * the only one that can hold it) and the two after it lie in PC's page,
 * so that the fetch cannot microtrap: vm_istream_safe(m, 3) holds, and
 * the opcode comes from the memo.  (Three bytes in the memo asked more:
 * an instruction at a line's last two bytes missed it, and on EVKAA
 * those were 96 % of the IRD points the trace cache's quick way, and the
 * compiled code's, left to the slow one.)  With MAPEN clear (the entry
 * filled so: a MAPEN write empties the memos) the page does not matter:
 * nothing is translated, and the IRD point takes no abort state. */
static inline int vm_memo_ird_hit(const struct vm_memo *mo, uint32_t pc)
{
    return vm_memo_hit(mo, pc, 1) && ((pc & 0x1FFu) <= 0x1FDu || !mo->tb);
}

/* A read of n (1..8) bytes at virtual va, through memo mo (the I-stream)
 * or memo table tab (memo_r; memo_m for a read with write intent: a
 * modify operand, READM).  0, or -1 after a microtrap. */
static inline int vm_read_fast(struct vax_machine *m, struct vm_memo *mo, uint32_t va,
                               unsigned n, uint64_t *out)
{
    if (LIKELY(vm_memo_hit(mo, va, n))) {
        m->st.tb_hits += mo->tb;
        m->st.cache_hits++;
        mo->set->lru = mo->lru_next;
        *out = vm_load_le(mo->host + (va - mo->base), n);
        return 0;
    }
    return vm_mem_read_memo(m, va, n, 0, out, mo);
}

static inline int vm_read_tab(struct vax_machine *m, struct vm_memo *tab, uint32_t va,
                              unsigned n, uint64_t *out)
{
    struct vm_memo *mo = vm_memo_sel(tab, va);
    if (LIKELY(vm_memo_hit(mo, va, n))) {
        m->st.tb_hits += mo->tb;
        m->st.cache_hits++;
        mo->set->lru = mo->lru_next;
        *out = vm_load_le(mo->host + (va - mo->base), n);
        return 0;
    }
    return vm_mem_read_memo(m, va, n, tab == m->memo.m, out, mo);
}

static inline int vm_write_fast(struct vax_machine *m, struct vm_memo *tab, uint32_t va,
                                unsigned n, uint64_t v)
{
    struct vm_memo *mo = vm_memo_sel(tab, va);
    if (LIKELY(vm_memo_hit(mo, va, n))) {
        m->st.tb_hits += mo->tb;
        m->st.cache_hits++;
        mo->set->lru = mo->lru_next;
        mo->set->dirty[mo->way] = 1;
        vm_store_le(mo->host + (va - mo->base), n, v);
        return 0;
    }
    return vm_mem_write_memo(m, va, n, v, mo);
}

#endif
