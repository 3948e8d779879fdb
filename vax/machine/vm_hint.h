/* Compiler hints for the machine's hot paths: branch expectations, cold
 * paths, and inlining by force (GCC and clang; nothing elsewhere). */
#ifndef VAX_MACHINE_VM_HINT_H
#define VAX_MACHINE_VM_HINT_H

#if defined(__GNUC__)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define NOT_REACHED() __builtin_unreachable()
#define COLD __attribute__((cold, noinline))
/* Inlined by force: the data path's parts in the sequencer's loops, and
 * the small helpers the trace cache's handlers use.  tc_run is one
 * function of some 20,000 lines once its handlers are expanded; GCC's
 * inliner stops growing it long before, and then calls even nz() out of
 * line, spilling the handler's registers around each call (37 calls in
 * the profile-guided build). */
#define ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define COLD
#define ALWAYS_INLINE inline
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#define NOT_REACHED() ((void)0)
#endif

#endif
