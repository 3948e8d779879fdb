/* The trace cache's lock-step check (vm_config.tcache_check): a second
 * machine, the shadow, runs the plain microword interpreter beside the
 * one with the trace cache.  Both stop at every instruction boundary
 * (the IRD point, vm_step_instruction's stop) and their whole state is
 * compared: data path, latches, micro-stack, register-change log,
 * counters (microcycles, stalls, instructions, cache and TB hits and
 * misses), devices (the I/O's counts and its next event among them);
 * every 64 instructions the cache tags, dirty and LRU bits, the TB, the
 * IPRs and the scratchpad; every 4096 and at the end all of memory; and
 * where a run returns after the guest wrote, the media (the second
 * machine writes its own copy of each: vm_host.c's vm_attach).  What the host does to the machine between runs
 * (loading memory, registers, IPRs, console input, SPAM and network
 * setup, the trace drain) is done to both: vm_host.c, where the check
 * hangs on (vm_new, vm_run, vm_check_twin), does it.  The first difference
 * stops the machine with a reason naming the field and the instruction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vax/machine/vm.h"
#include "vax/machine/vm_internal.h"
#include "vax/machine/vm_io.h"
#include "vax/machine/vm_machine.h"
#include "vax/machine/vm_tcache_check.h"

struct vm_tc_check {
    struct vax_machine *shadow; /* the second machine */
    uint64_t steps;
    uint64_t writes;    /* media writes when the media were last compared */
    char bad[120];      /* a difference found outside a step (host reads) */
};

/* Where a run returns: the media the two machines wrote, compared again
 * when the guest wrote since the last time (their I/O counts, compared
 * at every step, are the same). */
static const char *media_differ(struct vm_tc_check *c, const struct vax_machine *m)
{
    struct vm_io_stats io;
    vm_io_get_stats(m, &io);
    uint64_t w = io.disk_sectors_written + io.tape_records_written;
    if (w == c->writes)
        return NULL;
    c->writes = w;
    return vm_io_media_differ(m, c->shadow);
}

int vm_check_attach(struct vax_machine *m, const struct vm_config *cfg, char *err,
                    size_t errlen)
{
    struct vm_config c = *cfg;
    c.no_tcache = 1;
    c.tcache_check = 0;
    m->check = calloc(1, sizeof *m->check);
    if (!m->check) {
        snprintf(err, errlen, "out of memory for the lock-step check");
        return -1;
    }
    m->check->shadow = vm_machine_new(&c, err, errlen);
    if (!m->check->shadow)
        return -1;
    m->check->shadow->con_discard = 1;
    return 0;
}

void vm_check_detach(struct vax_machine *m)
{
    if (!m->check)
        return;
    vm_machine_free(m->check->shadow);
    free(m->check);
    m->check = NULL;
}

struct vax_machine *vm_check_twin(const struct vax_machine *m)
{
    return m->check ? m->check->shadow : NULL;
}

/* A host read that gave the two machines different answers. */
void vm_check_note(struct vax_machine *m, const char *what)
{
    if (m->check && !m->check->bad[0])
        snprintf(m->check->bad, sizeof m->check->bad, "%s", what);
}

#define CK(f)                                                                  \
    do {                                                                       \
        if (memcmp(&a->f, &b->f, sizeof a->f))                                 \
            return #f;                                                         \
    } while (0)

/* The first field in which the two machines differ, or NULL. */
static const char *differ(const struct vax_machine *a, const struct vax_machine *b,
                          int wide, int memory)
{
    for (int i = 0; i < RF_N; i++) /* K and the sink are bus latches, not state */
        if (i != RF_K && i != RF_SINK && a->rf[i] != b->rf[i]) {
            static const char *const names[] = {"T", "R", "OPV", "OPH", "OPA", "OPX", "OPY"};
            if (i < RF_PSL)
                return names[i < 32 ? i / 16 : 2 + (i - 32) / 6];
            return i == RF_PSL ? "PSL" : i == RF_MAR ? "MAR" : i == RF_MDR ? "MDR"
                 : i == RF_Q ? "Q" : i == RF_SC ? "SC" : i == RF_ICNT ? "ICNT"
                 : "the register file";
        }
    CK(st);
    CK(lat);
    CK(wdl);
    CK(opreg);
    CK(rn);
    CK(rx);
    CK(specb);
    CK(spec);
    CK(idx);
    CK(opk);
    CK(opc);
    if (a->cur - a->drom != b->cur - b->drom)
        return "the decoded opcode (cur)";
    CK(upc);
    CK(usp);
    CK(ustack);
    CK(started);
    CK(fpc);
    CK(fva);
    CK(fva_write);
    CK(log_n);
    if (memcmp(a->log_reg, b->log_reg, a->log_n * sizeof a->log_reg[0]) ||
        memcmp(a->log_val, b->log_val, a->log_n * sizeof a->log_val[0]))
        return "the register-change log";
    CK(utrap);
    CK(mchk_active);
    CK(spam_window);
    CK(mmacc);
    CK(fcc);
    CK(in_exc);
    CK(mm_active);
    CK(int_next);
    CK(int_ipl);
    CK(int_dirty);
    CK(sisr);
    CK(tmr_int);
    CK(tti_int);
    CK(tto_int);
    CK(iccs);
    CK(nicr);
    CK(icr);
    CK(clk_last);
    CK(clk_frac);
    CK(todr_base);
    CK(todr_t0);
    CK(rxcs);
    CK(rxdb);
    CK(txcs);
    CK(tto_done_at);
    CK(con_quiet_since);
    CK(con_in_pos);
    CK(con_in_eof);
    CK(rx_polls);
    CK(cswp);
    CK(ehsr);
    CK(mdctl);
    CK(pend_ird);
    if (a->pend_ird) {
        /* the word's flags, PSL and A go into the abort state, where only
         * UTRET's second look at an IRDIF condition reads them: compared
         * as far as that condition can see them */
        CK(pend_mapen);
        const struct uword *w = &a->cs[a->upc].u;
        unsigned c = w->cond & ~UC_NOT;
        if (w->seq == US_IRDIF) {
            if (((c >= UC_ALU_Z && c <= UC_ALU_CZ) || c == UC_OPREG_NOVT) &&
                a->pend_fl != b->pend_fl)
                return "pend_fl";
            if ((c >= UC_PSL_N && c <= UC_IOVT) || c == UC_PSL_IS || c == UC_OPREG_NOVT ||
                c == UC_PSL_FU || c == UC_PSL_DV) {
                uint32_t bits = c == UC_OPREG_NOVT ? 0x20u : 0xFFFFFFFFu;
                if ((a->pend_psl0 ^ b->pend_psl0) & bits)
                    return "pend_psl0";
            }
            if ((c == UC_A_B0 || c == UC_A_B31 || c == UC_A_Z || c == UC_A_B15) &&
                a->pend_a != b->pend_a)
                return "pend_a";
        }
    }
    /* the F-box field by field (its registers have padding bytes) */
    CK(fbox.fbl);
    CK(fbox.fbh);
    CK(fbox.rsv);
    CK(fbox.v);
    CK(fbox.dz);
    CK(fbox.exc);
    CK(fbox.iov);
    const struct vm_fbreg *fa[3] = {&a->fbox.fa, &a->fbox.fb, &a->fbox.fr};
    const struct vm_fbreg *fb[3] = {&b->fbox.fa, &b->fbox.fb, &b->fbox.fr};
    for (int i = 0; i < 3; i++)
        if (fa[i]->fhi != fb[i]->fhi || fa[i]->flo != fb[i]->flo || fa[i]->exp != fb[i]->exp ||
            fa[i]->sign != fb[i]->sign || fa[i]->fmt != fb[i]->fmt || fa[i]->dz != fb[i]->dz)
            return i == 0 ? "the F-box's FA" : i == 1 ? "the F-box's FB" : "the F-box's FR";
    CK(stop);
    if (a->stop && strcmp(a->reason, b->reason))
        return "the stop reason";
    CK(net.present);
    CK(net.csr);
    CK(net.ba);
    CK(net.bs);
    CK(net.rl);
    CK(net.drop);
    CK(net.next_at);
    CK(net.rng_time);
    CK(net.rng_data);
    CK(net.st);
    struct vm_io_stats ia, ib; /* the I/O: its counts and its next event */
    vm_io_get_stats(a, &ia);
    vm_io_get_stats(b, &ib);
    if (memcmp(&ia, &ib, sizeof ia))
        return "the I/O's counts";
    if (vm_io_next_event(a) != vm_io_next_event(b))
        return "the I/O's next event";
    if (wide) {
        CK(cache);
        CK(tb);
        CK(ipr);
        CK(ipr_bad);
        CK(ls);
        CK(espa);
        CK(scb_count);
        CK(pamm);
        CK(pamloc);
    }
    if (memory && memcmp(a->mem, b->mem, a->mem_alloc))
        return "memory";
    return NULL;
}
#undef CK

enum vm_stop vm_check_run(struct vax_machine *m, uint64_t max_cycles)
{
    struct vm_tc_check *c = m->check;
    struct vax_machine *s = c->shadow;
    for (;;) {
        m->stepped = s->stepped = 0;
        m->step_ird = s->step_ird = 1;
        vm_run_plain(m, max_cycles);
        vm_run_plain(s, max_cycles);
        m->step_ird = s->step_ird = 0;
        c->steps++;
        int more = m->stepped && s->stepped;
        const char *d = c->bad[0] ? c->bad
                        : differ(m, s, !more || c->steps % 64 == 0,
                                 !more || c->steps % 4096 == 0);
        if (!d && !more)
            d = media_differ(c, m);
        if (d) {
            m->stop = VM_STOPPED;
            snprintf(m->reason, sizeof m->reason, "tcache check: %.40s differs from the "
                     "plain interpreter's at instruction %llu (PC 0x%08X)", d,
                     (unsigned long long)c->steps, m->r[15]);
            return m->stop;
        }
        if (!more)
            return m->stop;
    }
}
