/* The trace compiler (vm_tcache_x64.c): hot segments of the trace cache
 * turned into x86-64 code that does what their uops do, where the
 * executor's threaded handlers (vm_tcache_exec.c) would, and hands back
 * to them at a uop whose slow way is theirs.  Private to vax/machine. */
#ifndef VAX_MACHINE_VM_TCACHE_X64_H
#define VAX_MACHINE_VM_TCACHE_X64_H

#include <stddef.h>
#include <stdint.h>

struct vax_machine;
struct vm_tcache;
struct tc_trace;
struct tc_uop;
struct tc_word;
struct tc_latch;
struct vm_memo;

/* Built where the host is x86-64 and GCC's threaded dispatch is there
 * (meson defines VM_TCX); elsewhere the trace cache runs alone. */
#if defined(VM_TCX) && VM_TCX
#define TCX_ON 1
#else
#define TCX_ON 0
#endif

/* A segment is compiled after it has been entered this many times
 * through the executor (the count runs down in tc_trace.xhot, in the
 * executor's handler TU_H_COUNT, which stands for the segment's first
 * uop's until then). */
#define TCX_HOT 128
/* ... and a segment whose code waits for its batch, this many more
 * before the batch is made executable for it */
#define TCX_WAIT 32
/* the executor's handlers past the uops' (vm_tc_handlers): counting a
 * segment's entries, and running its code */
#define TU_H_COUNT TU__COUNT
#define TU_H_NATIVE (TU__COUNT + 1)

/* The executor's locals that compiled code reads and writes: tc_run
 * hands them over when it calls a trace's code, and takes them back
 * with where to go on (h: the handler of the uop returned, or NULL for
 * the IRD point with lw, fin and finm of the end that led there). */
struct tcx_state {
    const void *h;
    struct tc_trace *last;
    struct tc_word *lw;
    const struct tc_latch *fin;
    struct vm_memo *mi;
    uint8_t *mhp;
    uint64_t ev;
    uint64_t lim2;
    uint32_t r, a, s2, fl, psl0, finm;
    int32_t ifast;
};

#if TCX_ON
/* The compiler's code memory: never writable and executable at once. */
struct vm_tcx;
struct vm_tcx *vm_tcx_new(void);
void vm_tcx_free(struct vm_tcx *x);
/* Every trace is gone (the cache was flushed): their code too. */
void vm_tcx_reset(struct vm_tcx *x);
/* Compiles segment t of machine m's cache (tab: the executor's
 * handlers, vm_tc_handlers).  Its code is written in a batch and runs
 * once the batch is made executable: then t->xbody is its entry and its
 * first uop's handler is tab[TU_H_NATIVE].  0: t's code runs now; 1: it
 * waits for its batch (called again for t, the batch is made executable
 * at once); -1: not compiled, where t has a uop the compiler does not
 * know, there is no room or the code memory cannot be had. */
int vm_tcx_compile(struct vm_tcx *x, struct vax_machine *m, struct tc_trace *t,
                   const void *const *tab);
/* Runs compiled code from body (a trace's xbody) with the executor's
 * locals in s; returns the uop where the executor goes on (s->h). */
const struct tc_uop *vm_tcx_enter(struct vm_tcx *x, struct vax_machine *m,
                                  struct tcx_state *s, const void *body);
/* Where a segment that ends in a LOOP has code, its LOOP uop's k2 is the
 * offset of the loop's first uop's code in the code memory (0: none),
 * set with its xbody: the executor goes round the loop there (the code's
 * own LOOP arrives at that place with the same locals).  This is the
 * address of that offset. */
const void *vm_tcx_at(const struct vm_tcx *x, uint32_t off);
/* What it holds: traces compiled, code bytes, host nanoseconds spent. */
void vm_tcx_stats(const struct vm_tcx *x, uint64_t *traces, uint64_t *bytes, uint64_t *ns);
#endif

#endif
