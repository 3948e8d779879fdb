/* Memory (vm_mem.c; MICROARCHITECTURE.md §7, §11): the array boards
 * behind the PAMM, the write-back cache, the translation buffer, the
 * references the sequencer makes through them, and the ports others use:
 * the host's back door (vm.h) and the DMA port of the I/O (vm_io.c).  The
 * references' fast lane, the memos, is vm_mem_fast.h. */
#ifndef VAX_MACHINE_VM_MEM_H
#define VAX_MACHINE_VM_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "vax/machine/vm.h"

struct vax_machine;

/* One-line memo of the memory path (vm_mem_fast.h): the last line a
 * stream used.  Valid (span 64) until something could change the outcome
 * of a reference to it -- a cache fill, a TB or PAMM change, MAPEN or the
 * current mode changing -- which empties every memo (vm_memo_flush). */
struct vm_memo {
    uint32_t base;       /* the line's VA */
    uint32_t span;       /* 64, or 0: empty */
    uint8_t *host;       /* the line's bytes */
    struct cache_set *set;
    uint8_t way;
    uint8_t tb;          /* 1: MAPEN (a reference counts a TB hit) */
    uint32_t lru_next;   /* the set's LRU after a reference: the other way */
};

#define VM_MEMO_N 64
#define VM_IMEMO_N 8
/* The memos of one access mode: I-stream, data read, read with write
 * intent, write, each a small table of lines indexed by VA<11:6> (the
 * I-stream VA<8:6>).  VA<8:6> is PA<8:6>, so a line of cache set s can
 * only be in the entries whose index is s mod 8 in those bits
 * (vm_memo_sel, vm_memo_evict).  Callgrind host instructions per VAX
 * instruction on EVKAA: 8 data entries and 4 I-stream ones 274, 16 and 8
 * 249 (then; 211.2 now), 32 data entries 209.5, 64 204.9, 128 (and 32
 * I-stream ones) 205.1; 16 I-stream entries do not help.  A mode change
 * copies the memos (vm_memo_mode): 4.3BSD's boot to login: makes 17 K. */
_Static_assert(VM_MEMO_N % 8 == 0 && VM_IMEMO_N % 8 == 0,
               "vm_memoset_evict visits the filled entries of index s mod 8 in each table");
#define VM_MEMO_ALL (VM_IMEMO_N + 3 * VM_MEMO_N)
struct vm_memoset {
    struct vm_memo i[VM_IMEMO_N];
    struct vm_memo r[VM_MEMO_N], m[VM_MEMO_N], w[VM_MEMO_N];
    uint32_t ipage;             /* the I-stream's page (VA >> 9) translated ... */
    int ipage_ok;               /* ... with no TB/PAMM/MAPEN change since */
    /* the entries filled since they were last emptied, one bit each in
     * the order i, r, m, w (vm_memo_at): emptying and evicting visit only
     * those (4.3BSD's boot to login: 1.0 M evictions, 215 K flushes) */
    uint64_t filled[(VM_MEMO_ALL + 63) / 64];
};

struct cache_set {
    uint32_t tag[VM_CACHE_WAYS];
    uint8_t valid[VM_CACHE_WAYS];
    uint32_t dirty[VM_CACHE_WAYS]; /* words: see the latches below */
    uint32_t lru; /* way to replace next */
};

struct vm_tbent {        /* a TB entry */
    uint32_t tag;           /* VA<31:9> */
    uint32_t pte;           /* the PTE as filled (V, PROT, M, PFN) */
    uint8_t valid;
};

/* Adapter space (PAMM codes 0x18-0x1B, the I/O adapters' windows): the
 * CPU's references there go uncached to the A-bus through the port the
 * I/O installs at power-up (vm_io.c); without one they machine-check.  A
 * reference returns 0, or -1 after the machine check it caused. */
struct vm_abus_port {
    int (*read)(struct vax_machine *m, uint32_t pa, unsigned n, uint64_t *out);
    int (*write)(struct vax_machine *m, uint32_t pa, unsigned n, uint64_t v);
};

/* The PAMM as at power-up: memory boards, the I/O adapters' windows,
 * the rest non-existent; the memos emptied. */
void vm_pamm_reset(struct vax_machine *m);
/* A reference to non-existent memory at pa: the machine-check microtrap
 * (or, without its flow or inside it, the machine stops). */
void vm_machine_check(struct vax_machine *m, uint32_t pa, int write);

/* The translation buffer (MICROARCHITECTURE.md §11): flush (all = 0: the
 * process half only), invalidate VA's entry, fill it (MISC TBWR), and
 * TBCHK's question.  Each empties the memos. */
void vm_tb_flush(struct vax_machine *m, int all);
void vm_tb_inval(struct vax_machine *m, uint32_t va);
void vm_tb_write(struct vax_machine *m, uint32_t va, uint32_t pte);
int vm_tb_check(const struct vax_machine *m, uint32_t va);

/* The sequencer's references: READP/WRITEP (physical), n (1..8) bytes at
 * virtual va through the full path, refilling memo mo if given (the fast
 * lane's miss; `write`: a modify operand's write intent), and the
 * octaword references of READOP/WRITEOP.  0, or -1 after a microtrap. */
int vm_mem_readp(struct vax_machine *m, uint32_t pa, unsigned n, uint64_t *out);
int vm_mem_writep(struct vax_machine *m, uint32_t pa, unsigned n, uint64_t v);
int vm_mem_read_memo(struct vax_machine *m, uint32_t va, unsigned n, int write,
                     uint64_t *out, struct vm_memo *mo);
int vm_mem_write_memo(struct vax_machine *m, uint32_t va, unsigned n, uint64_t v,
                      struct vm_memo *mo);
int vm_mem_read16(struct vax_machine *m, uint32_t va, int write, uint32_t out[4]);
int vm_mem_write16(struct vax_machine *m, uint32_t va, const uint32_t in[4]);
/* A memo that missed, refilled without the reference: 1 if the n bytes
 * at va lie in one cache line and the reference would be a TB hit (with
 * the write intent of memo table tab's stream: memo.m, memo.w), allowed,
 * in memory and a cache hit, and tab's entry for va now holds that line
 * (the caller then makes the reference as a memo hit, counts included);
 * 0, with nothing changed, otherwise. */
int vm_memo_refill(struct vax_machine *m, struct vm_memo *tab, uint32_t va, unsigned n);
/* The same for the I-stream memo's entry of the line of pc (IRD's
 * opcode fetch: a read of one byte). */
int vm_memo_irefill(struct vax_machine *m, uint32_t pc);
/* A reference no memo entry can hold: n bytes at va across two cache
 * lines of one page.  Where the page is a TB hit (tab's write intent, as
 * vm_memo_refill) in memory and both lines are cache hits: their
 * bookkeeping as the full path's two references do it (LRU; dirty for a
 * write; the second line's hit counted -- the first's, with the TB's, is
 * the caller's, as for a memo hit), and the bytes' host address; else
 * NULL, with nothing changed. */
uint8_t *vm_memo_cross(struct vax_machine *m, const struct vm_memo *tab, uint32_t va,
                       unsigned n, int write);
/* vm_memo_refill's way for a line that is a cache miss, as the full
 * path's one reference makes it (the trace compiler's code, where the
 * memo's hit that the trace counts for the reference is taken back
 * from tc_refs): the n bytes at va in one line, a TB hit in memory; the
 * miss's stall keeps the microcycles below lim, and the line it evicts
 * is not that of I-stream memo entry keep (NULL: none).  1 (the line
 * filled, its memo entry too, the reference's counts made), else 0 with
 * nothing changed. */
int vm_memo_refill_miss(struct vax_machine *m, struct vm_memo *tab, uint32_t va, unsigned n,
                        int write, uint64_t lim, const struct vm_memo *keep);
/* The same for the I-stream memo's entry of the line of pc at an IRD
 * point (vm_memo_irefill's, where the line is a cache miss), as the
 * opcode fetch's full path makes it; the memo hit that the end counts
 * for the fetch is taken back from the cache's hits.  Only where the two
 * bytes after pc are in its page (or MAPEN is clear: nothing to
 * translate), no probe program watches PCs, and the
 * microcycles stay below lim after the miss's stall (the IRD point's
 * interrupt check, before the fetch, is then the same).  1 (the entry
 * holds the line), else 0 with nothing changed. */
int vm_memo_irefill_miss(struct vax_machine *m, uint32_t pc, uint64_t lim);
/* Both in one call (the trace compiler's code): nw = n | write << 4;
 * 1 refilled, else vm_memo_cross's address (0: neither). */
uintptr_t vm_memo_refill_cross(struct vax_machine *m, struct vm_memo *tab, uint32_t va,
                               unsigned nw);

/* The DMA port: is [pa, pa+n) memory the PAMM names?  DMA wrote [pa,
 * pa+n): the cache lines holding it are invalidated (their data are
 * already the array's), memos pointing at them flushed, and the code hook
 * told; returns the number of lines invalidated. */
int vm_dma_present(const struct vax_machine *m, uint32_t pa, uint32_t n);
unsigned vm_dma_wrote(struct vax_machine *m, uint32_t pa, uint32_t n);
/* The host's back door: vm_phys_write (vm_host.c) writes through this
 * one, vm_phys_read (vm.h) is memory's own.  0, or -1 outside the array. */
int vm_mem_host_write(struct vax_machine *m, uint32_t pa, const void *buf, size_t n);

/* Memory changed under the CPU (DMA); every DMA write calls it.  The trace
 * cache (vm_tcache.h) needs no invalidation: its traces check each code
 * byte where they consume it, so this does nothing. */
void vm_code_write_notify(struct vax_machine *m, uint32_t pa, uint32_t len);

#endif
