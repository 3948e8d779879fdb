/* SPAM hardware seen from the host (microcode/spam.mic does the tracing):
 * the microcode-private IPRs that hold the trace-buffer state, the hidden
 * trace megabyte, the console operations that set tracing up before the
 * first instruction (what PAMMINIT, SET_PTRS and ENABLE do), and the host
 * drain, which moves records out of the buffer through the memory back
 * door (no microcycles, no cache effect).  MICROARCHITECTURE.md §5, §7;
 * the record layout is spam/TRACE-FORMAT.md.  Nothing here prints.
 * A public header: vm_spam.c defines its calls but those that change the
 * machine (vm_spam_set_options, vm_spam_console_enable, vm_spam_drain:
 * vm_host.c, on vm_spam.c's own, "inside vax/machine" below). */
#ifndef VAX_MACHINE_VM_SPAM_H
#define VAX_MACHINE_VM_SPAM_H

#include <stddef.h>
#include <stdint.h>

#include "vax/machine/vm.h"

/* Microcode-private IPR numbers (the .equ names of microcode/spam.mic).
 * The IPR port answers IPR.BAD for 0xE0-0xEF except between the SPAM
 * microorder TRACEWR and the next IRD (only spam.mic issues it);
 * vm_ipr()/vm_set_ipr() reach them from the host.  0xE0-0xE8 are also
 * the data-path register bank SPSTRT..SPSIZE (same storage, same order). */
enum {
    VM_SPAM_IPR_FIRST = 0xE0,
    VM_SPAM_START = 0xE0, /* physical address of the first slot */
    VM_SPAM_END = 0xE1,   /* end + 1 */
    VM_SPAM_RD = 0xE2,    /* read pointer (untranslated) */
    VM_SPAM_WR = 0xE3,    /* write pointer (untranslated) */
    VM_SPAM_STAT = 0xE4,  /* VM_SPAM_ST_* */
    VM_SPAM_DROPS = 0xE5, /* records dropped on a full buffer */
    VM_SPAM_MASK = 0xE6,  /* bit n = event class n traced */
    VM_SPAM_COUNT = 0xE7, /* records in the buffer */
    VM_SPAM_SIZE = 0xE8,  /* buffer size in records */
    VM_SPAM_MB = 0xE9,    /* the hidden megabyte's number (or ~0: none) */
    VM_SPAM_IPR_LAST = 0xEF,
};

#define VM_SPAM_ST_ON 0x1u        /* tracing enabled */
#define VM_SPAM_ST_FULL 0x2u      /* stopped itself on a full buffer */
#define VM_SPAM_ST_PTRS 0x4u      /* SET_PTRS done */
#define VM_SPAM_ST_MAPPED 0x8u    /* PAMMINIT done */
#define VM_SPAM_ST_KONLY 0x100u   /* option: FD00-FD05 kernel mode only */
#define VM_SPAM_ST_NOXLATE 0x200u /* option: cache-set translation off */

/* Default event classes: interrupt, exception, CHM, LDPCTX, REI, marker. */
#define VM_SPAM_DEFAULT_MASK 0x7Eu

static inline int vm_spam_ipr_private(uint32_t n)
{
    return n >= VM_SPAM_IPR_FIRST && n <= VM_SPAM_IPR_LAST;
}

/* The cache-set address translation (the SPXLATE microorder's swizzle on
 * the READP/WRITEP address path, MICROARCHITECTURE.md §11): swaps
 * address bits <12:6> and <19:13>.  Its own inverse. */
static inline uint32_t vm_spam_xlate(uint32_t a)
{
    return (a & 0xFFF0003Fu) | ((a >> 13 & 0x7F) << 6) | ((a >> 6 & 0x7F) << 13);
}

struct vm_spam_state {
    uint32_t start, end, rd, wr, stat, mask, count, size, mb;
    uint32_t drops;
};
void vm_spam_get(struct vax_machine *m, struct vm_spam_state *s);

/* Machine options (before or between runs): VM_SPAM_ST_KONLY and
 * VM_SPAM_ST_NOXLATE bits of `opts`, and the event-class mask. */
void vm_spam_set_options(struct vax_machine *m, uint32_t opts, uint32_t mask);

/* The console's power-on setup, exactly what PAMMINIT (the hidden
 * megabyte into the PAMM, array slot code `slot`), SET_PTRS (the buffer
 * [start, end)) and ENABLE (tracing on, an "enabled" marker record) do.
 * start = end = 0 means the whole hidden megabyte.  Returns 0, or -1 with
 * a message (no hidden megabyte, bad pointers). */
int vm_spam_console_enable(struct vax_machine *m, uint32_t slot, uint32_t start,
                           uint32_t end, char *err, size_t errlen);

/* 1 while SPAM microcode is between its TRACEWR and the next IRD, i.e.
 * in the middle of updating the buffer state: the host must not drain
 * then (step the machine on until this is 0). */
int vm_spam_busy(const struct vax_machine *m);

/* Host drain (call only when vm_spam_busy() is 0): moves up to `max` of the oldest records out of the buffer
 * into out[] (w0, w1 per record), advancing the read pointer as
 * READ_BUFFER would, through the back door.  Returns the number moved. */
size_t vm_spam_drain(struct vax_machine *m, uint32_t *out, size_t max);

/* ---- inside vax/machine ---- */
/* Power-up: the private IPRs cleared, the hidden megabyte named, the
 * default event classes. */
void vm_spam_reset(struct vax_machine *m);
/* The work of vm_spam_set_options, vm_spam_console_enable and
 * vm_spam_drain on one machine (vm_host.c does them to the lock-step
 * check's second machine too, and compares the records drained). */
void vm_spam_options(struct vax_machine *m, uint32_t opts, uint32_t mask);
int vm_spam_enable(struct vax_machine *m, uint32_t slot, uint32_t start, uint32_t end,
                   char *err, size_t errlen);
size_t vm_spam_take(struct vax_machine *m, uint32_t *out, size_t max);

#endif
