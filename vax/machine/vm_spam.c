/* SPAM hardware (vm_spam.h): the hidden trace megabyte, the private IPR
 * window, the console setup and the host drain.  The tracing itself is
 * microcode (microcode/spam.mic); this file only does what a console and
 * a hybrid monitor on the memory bus would do. */
#include <stdio.h>
#include <string.h>

#include "microcode/le.h"
#include "vax/machine/vm_dev.h"
#include "vax/machine/vm_mem_fast.h"
#include "vax/machine/vm_spam.h"

/* Reset: the trace megabyte is the second one above memory, absent from
 * the PAMM until PAMMINIT.  The megabyte between stays absent for good: an
 * operating system sizes memory by probing upward until the first
 * machine check, so it stops at that hole and never finds the trace
 * megabyte even when the console maps it before the first instruction
 * (spamctl run -o).  None on a machine of 511 MB or more (MB 512 is I/O
 * space). */
void vm_spam_reset(struct vax_machine *m)
{
    uint32_t mb = m->mem_size >> 20;
    for (uint32_t n = VM_SPAM_IPR_FIRST; n <= VM_SPAM_IPR_LAST; n++)
        m->ipr[n] = 0;
    m->ipr[VM_SPAM_MB] = m->mem_alloc > m->mem_size ? mb + 1 : 0xFFFFFFFFu;
    m->ipr[VM_SPAM_MASK] = VM_SPAM_DEFAULT_MASK;
}

void vm_spam_get(struct vax_machine *m, struct vm_spam_state *s)
{
    const uint32_t *r = m->ipr;
    s->start = r[VM_SPAM_START];
    s->end = r[VM_SPAM_END];
    s->rd = r[VM_SPAM_RD];
    s->wr = r[VM_SPAM_WR];
    s->stat = r[VM_SPAM_STAT];
    s->mask = r[VM_SPAM_MASK];
    s->count = r[VM_SPAM_COUNT];
    s->size = r[VM_SPAM_SIZE];
    s->mb = r[VM_SPAM_MB];
    s->drops = r[VM_SPAM_DROPS];
}

void vm_spam_options(struct vax_machine *m, uint32_t opts, uint32_t mask)
{
    uint32_t o = VM_SPAM_ST_KONLY | VM_SPAM_ST_NOXLATE;
    m->ipr[VM_SPAM_STAT] = (m->ipr[VM_SPAM_STAT] & ~o) | (opts & o);
    m->ipr[VM_SPAM_MASK] = mask;
}

static uint32_t buf_addr(const struct vax_machine *m, uint32_t a)
{
    return m->ipr[VM_SPAM_STAT] & VM_SPAM_ST_NOXLATE ? a : vm_spam_xlate(a);
}

static void put64(struct vax_machine *m, uint32_t pa, uint32_t w0, uint32_t w1)
{
    uint8_t b[8];
    le_put32(b, w0);
    le_put32(b + 4, w1);
    vm_mem_host_write(m, pa, b, sizeof b);
}

int vm_spam_enable(struct vax_machine *m, uint32_t slot, uint32_t start, uint32_t end,
                   char *err, size_t errlen)
{
    uint32_t *r = m->ipr;
    uint32_t mb = r[VM_SPAM_MB];
    if (mb == 0xFFFFFFFFu) {
        snprintf(err, errlen, "no hidden trace megabyte on a %u MB machine",
                 m->mem_size >> 20);
        return -1;
    }
    if (start == 0 && end == 0) {
        start = mb << 20;
        end = start + (1u << 20);
    }
    if ((start | end) & 7 || start >= end || start >> 20 != mb ||
        (end - 1) >> 20 != mb) {
        snprintf(err, errlen, "trace buffer 0x%08X-0x%08X is not inside the "
                 "trace megabyte %u or not 8-byte aligned", start, end, mb);
        return -1;
    }
    /* PAMMINIT */
    m->pamm[mb] = (uint8_t)(slot & 7);
    vm_memo_flush(m); /* the memory path's memos */
    r[VM_SPAM_STAT] |= VM_SPAM_ST_MAPPED;
    /* SET_PTRS */
    r[VM_SPAM_START] = r[VM_SPAM_RD] = r[VM_SPAM_WR] = start;
    r[VM_SPAM_END] = end;
    r[VM_SPAM_SIZE] = (end - start) / 8;
    r[VM_SPAM_COUNT] = 0;
    r[VM_SPAM_STAT] = (r[VM_SPAM_STAT] & ~VM_SPAM_ST_FULL) | VM_SPAM_ST_PTRS;
    /* ENABLE, with its marker (the buffer is empty, so there is room) */
    r[VM_SPAM_STAT] |= VM_SPAM_ST_ON;
    uint32_t icr = vm_ipr_read(m, 0x1A);
    put64(m, buf_addr(m, start), (icr & 0xFFFF) << 16 | (m->icnt & 0xFFFF),
          (m->psl & 0xFFFF0000u) | 0x6001);
    r[VM_SPAM_WR] = start + 8 == end ? start : start + 8;
    r[VM_SPAM_COUNT] = 1;
    return 0;
}

int vm_spam_busy(const struct vax_machine *m) { return m->spam_window; }

size_t vm_spam_take(struct vax_machine *m, uint32_t *out, size_t max)
{
    uint32_t *r = m->ipr;
    size_t n = 0;
    while (n < max && r[VM_SPAM_COUNT] > 0) {
        uint8_t b[8];
        if (vm_phys_read(m, buf_addr(m, r[VM_SPAM_RD]), b, sizeof b) < 0)
            break;
        out[2 * n] = le_get32(b);
        out[2 * n + 1] = le_get32(b + 4);
        n++;
        r[VM_SPAM_RD] += 8;
        if (r[VM_SPAM_RD] == r[VM_SPAM_END])
            r[VM_SPAM_RD] = r[VM_SPAM_START];
        r[VM_SPAM_COUNT]--;
    }
    return n;
}
