/* The VAX 8600 E-box machine: microsequencer, data path, memory behind the
 * PAMM, the write-back cache, and the IPR port (microcode/MICROARCHITECTURE.md).
 * The behaviour of VAX instructions lives in the microcode, not here.
 * Nothing in this library prints or exits.                               */
#ifndef VAX_MACHINE_VM_H
#define VAX_MACHINE_VM_H

#include <stddef.h>
#include <stdint.h>

#include "microcode/uasm.h"

struct vax_machine;

struct vm_config {
    uint32_t memory_mb;                /* 1..512; default 16 */
    const struct ucode_image *ucode;   /* NULL: the built-in control store */
    /* The microcode trace cache (vax/machine/README.md, Speed): on by
     * default; it changes nothing the machine does, only how fast the
     * host runs it.  no_tcache: the plain microword interpreter.
     * tcache_check: run a second machine with the plain interpreter in
     * lock step and compare the whole state at every instruction; a
     * difference stops the machine with a reason naming it (slow: for
     * tests). */
    int no_tcache;
    int tcache_check;
};

struct vm_stats {
    uint64_t microcycles;   /* microwords executed + stall cycles */
    uint64_t stall_cycles;  /* of which: cache miss / write-back stalls */
    uint64_t instructions;  /* opcodes fetched by IRD */
    uint64_t cache_hits, cache_misses, cache_writebacks;
    uint64_t tb_hits, tb_misses; /* translation buffer (MAPEN = 1 only) */
};

enum vm_stop {
    VM_RUNNING = 0,
    VM_STOPPED,      /* HALT, a trap or fault without its flow, an error */
    VM_CYCLE_LIMIT,
};

/* Cache geometry and penalties (documented in MICROARCHITECTURE.md §7). */
#define VM_CACHE_LINE 64
#define VM_CACHE_SETS 128
#define VM_CACHE_WAYS 2
#define VM_MISS_PENALTY 6
#define VM_WRITEBACK_PENALTY 6
/* Translation buffer: two halves (process, system) of VM_TB_SETS
 * direct-mapped entries indexed by VPN<7:0> (MICROARCHITECTURE.md §11). */
#define VM_TB_SETS 256

struct vax_machine *vm_new(const struct vm_config *cfg, char *err,
                           size_t errlen);
void vm_free(struct vax_machine *m);

/* Physical memory back door (loader, dumps): no cache effects.  Return 0,
 * or -1 if the range is not inside the memory array. */
int vm_phys_write(struct vax_machine *m, uint32_t pa, const void *buf,
                  size_t n);
int vm_phys_read(struct vax_machine *m, uint32_t pa, void *buf, size_t n);
uint32_t vm_memory_size(const struct vax_machine *m);

uint32_t vm_reg(const struct vax_machine *m, int n);
void vm_set_reg(struct vax_machine *m, int n, uint32_t v);
uint32_t vm_psl(const struct vax_machine *m);
void vm_set_psl(struct vax_machine *m, uint32_t v);
uint32_t vm_ipr(struct vax_machine *m, int n);
void vm_set_ipr(struct vax_machine *m, int n, uint32_t v);

/* Start executing at R15 (the console's START: an IRD with no instruction
 * counted) and run until the machine stops or `max_cycles` microcycles
 * have passed in total (0 = no limit).  May be called again to continue. */
enum vm_stop vm_run(struct vax_machine *m, uint64_t max_cycles);

/* Why the machine stopped ("HALT instruction", "cycle limit", ...). */
const char *vm_stop_reason(const struct vax_machine *m);
/* 1 if the machine stopped by itself (anything but the cycle limit). */
int vm_halted(const struct vax_machine *m);
void vm_get_stats(const struct vax_machine *m, struct vm_stats *s);

/* The trace cache's counters (all zero when it is off). */
struct vm_tcache_stats {
    uint64_t lookups;       /* instructions fetched at an IRD point with the cache on */
    uint64_t hits;          /* ... that entered a recorded trace */
    uint64_t recorded;      /* traces recorded: roots (per instruction) and side traces */
    uint64_t side_recorded;
    uint64_t words;         /* microwords run by the trace's specialised handlers */
    uint64_t generic;       /* microwords run inside traces by the interpreter's logic */
    uint64_t side_entries;  /* guards that failed into a side trace */
    uint64_t exits;         /* traces left for the interpreter inside an instruction */
    uint64_t flushes;       /* the whole cache emptied (memory budget) */
    uint64_t traces;        /* segments held now */
    uint64_t bytes;         /* memory they hold */
};
void vm_tcache_stats(const struct vax_machine *m, struct vm_tcache_stats *s);

/* Runs until the next instruction boundary (the IRD point of the word
 * that ends an instruction, before its interrupt check and fetch), then
 * stops as vm_run does at a cycle limit (reason "instruction step");
 * max_cycles as for vm_run.  For lock-step comparisons. */
enum vm_stop vm_step_instruction(struct vax_machine *m, uint64_t max_cycles);

/* Microcycle hook for debugging tools: called before each microword with
 * its micro-address (NULL to turn off).  Slows the machine down. */
typedef void (*vm_utrace_fn)(void *ctx, const struct vax_machine *m,
                             uint16_t upc);
void vm_set_utrace(struct vax_machine *m, vm_utrace_fn fn, void *ctx);

/* Console terminal: scripted input (the buffer must outlive the run; by
 * default the host's stdin) and output (a FILE *; default stdout). */
void vm_console_input(struct vax_machine *m, const void *buf, size_t n);
void vm_console_output(struct vax_machine *m, void *file);
/* Exceptions and interrupts taken, per SCB vector (index = offset / 4). */
void vm_scb_counts(const struct vax_machine *m, uint64_t out[128]);

#endif
