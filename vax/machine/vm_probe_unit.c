/* The probe unit (issue 30; vax/probe/PROBES.md, MICROARCHITECTURE.md
 * §15): the hardware beside the I-box that watches the checkpoints (PC
 * comparators, the frame comparator on RET, the SPAM hooks, a sampling
 * timer), hands microcode/probe.mic the routines to run at an IRD point,
 * counts each probe's microcycles, and keeps the interrupt nesting the
 * exclusive durations need; the loader that verifies programs into the
 * probe megabyte.  In the zero-perturbation mode the same requests go to
 * the host's executor (vm_probe_free.c) instead of microcode. */
#include "vax/machine/vm_probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microcode/le.h"
#include "vax/machine/vm_internal.h"
#include "vax/machine/vm_mem_fast.h"
#include "vax/machine/vm_probe_unit.h"
#include "vax/machine/vm_spam.h"
#include "vax/probe/probe_exec.h"
#include "vax/probe/probe_image.h"
#include "vax/probe/probe_verify.h"
#include "vax/probe/probe_install.h"

#define FRAMES 256
#define DEPTHS 8
#define MB (1u << 20)
#define MAPTAB (PRB_MAX_MAPS * PRB_MAPDESC_BYTES) /* the map table, at the megabyte's start */
#define STAGE_BYTES 0x10000u                      /* PRBLOAD's staging area, at its end */
#define PSL_IS_BIT 0x04000000u

enum { Q_PC, Q_RET, Q_EVENT, Q_SAMPLE };

struct slot {
    int used, armed, prog;
    struct prb_probe_desc d;
    uint32_t code_pa;
    uint64_t next;                  /* a sampling probe's next time */
    struct vm_probe_info info;
};

struct frame {
    uint32_t fp, key, cookie;
    uint8_t is, id, depth;
    uint64_t vt0, x0;
};

struct qent {
    uint8_t id, kind;
    uint32_t dur, durx, cookie;
};

struct vm_probe {
    int free_mode;
    uint32_t base;                  /* the probe megabyte's physical address */
    int mapped;
    uint32_t brk;                   /* the next free byte for code and slots */
    struct slot slot[PRB_MAX_PROBES];
    struct {
        int used;
        unsigned nprobes, nmaps;
        uint8_t probe[PRB_MAX_PROBES], map[PRB_MAX_MAPS];
    } prog[VM_PROBE_PROGRAMS];
    struct {
        int used;
        struct prb_map_desc d;
        uint32_t pa;
    } map[PRB_MAX_MAPS];
    /* the comparators (armed probes) */
    uint32_t pc_va[PRB_MAX_PROBES];
    uint8_t pc_id[PRB_MAX_PROBES];
    unsigned npc;
    /* the frame comparator */
    struct frame frame[FRAMES];
    unsigned nframe;
    /* interrupt nesting (the exclusive durations), in probe-free time */
    unsigned depth;
    uint64_t deep[DEPTHS + 2], deep_vt;
    /* the current process */
    uint32_t pid, uid, progid;
    /* the SPAM hook in its window */
    uint16_t l_excint, l_chm, l_rei, l_ldp, l_event;
    uint32_t hook_event;
    int hook_sel, hook_ldp;
    /* a request in service */
    struct qent q[2 * PRB_MAX_PROBES];
    unsigned nq, qi;
    struct qent ret[PRB_MAX_PROBES]; /* returns found by FRMW (free mode) */
    unsigned nret;
    int ident, event_pending;
    vm_probe_sink_fn *sink;
    void *sink_ctx;
    uint32_t event, arg;
    uint64_t win_t0, mark;
    int cur;                        /* the running probe; -1 none, -2 the identity walk */
    struct qent curq;
    /* the guest's interface (FD06-FD08) */
    uint32_t g_result, g_why, g_handle, g_map, g_key, g_op, g_word;
    unsigned notes;
    uint32_t note;
    struct vm_probe_totals tot;
};

/* ---- small helpers ---- */

/* Time without the probes' own microcycles (durations exclude them). */
static uint64_t vt_now(const struct vax_machine *m)
{
    const struct vm_probe *p = m->prb;
    uint64_t t = m->spam_window >= 3 ? p->win_t0 : m->st.microcycles;
    return t - p->tot.cycles;
}

static void deep_update(struct vm_probe *p, uint64_t vt)
{
    for (unsigned k = 1; k <= p->depth && k <= DEPTHS; k++)
        p->deep[k] += vt - p->deep_vt;
    p->deep_vt = vt;
}

/* Probe-free microcycles spent at nesting depth >= k so far. */
static uint64_t deep_now(const struct vm_probe *p, unsigned k, uint64_t vt)
{
    if (k < 1 || k > DEPTHS)
        return 0;
    return p->deep[k] + (p->depth >= k ? vt - p->deep_vt : 0);
}

/* The hardware filters (pid, program, mode). */
static int filters_pass(const struct vax_machine *m, const struct slot *s)
{
    const struct vm_probe *p = m->prb;
    if ((s->d.flags & PRB_PF_PID) && p->pid != s->d.pid)
        return 0;
    if ((s->d.flags & PRB_PF_PROG) && p->progid != s->d.prog)
        return 0;
    if ((s->d.flags & PRB_PF_UID) && p->uid != s->d.uid)
        return 0;
    if (s->d.flags & PRB_PF_IPL) {
        unsigned ipl = (m->psl >> 16) & 31;
        if (ipl < s->d.ipl_lo || ipl > s->d.ipl_hi)
            return 0;
    }
    if (s->d.modes && !(s->d.modes & (1u << ((m->psl >> 24) & 3))))
        return 0;
    return 1;
}

/* The comparators and the sampling timer from the armed probes. */
static void rebuild(struct vax_machine *m)
{
    struct vm_probe *p = m->prb;
    p->npc = 0;
    memset(m->prb_iline, 0, sizeof m->prb_iline);
    uint64_t next = UINT64_MAX;
    for (unsigned i = 0; i < PRB_MAX_PROBES; i++) {
        struct slot *s = &p->slot[i];
        if (!s->used || !s->armed)
            continue;
        if (s->d.kind == PRB_K_PC) {
            p->pc_va[p->npc] = s->d.addr;
            p->pc_id[p->npc++] = (uint8_t)i;
            unsigned b = (s->d.addr >> 6) & 4095;
            m->prb_iline[b / 64] |= 1ull << (b % 64);
            /* an instruction that straddles into the next line starts
             * in this one: the I-stream memo entry is per line */
        }
        if (s->d.kind == PRB_K_SAMPLE && s->next < next)
            next = s->next;
    }
    m->prb_npc = p->npc;
    m->prb_next = next;
    /* the I-stream memo must not hold a comparator's line (IRD's quick
     * ways need a memo hit), nor keep one it held */
    vm_memo_flush(m);
}

/* ---- reads that never fault (the free mode's PRB.VREAD and PRB.PREAD,
 * and the identity walk's TRACE.VREAD and TRACE.PREAD) ---- */

int vm_probe_pread(struct vax_machine *m, uint32_t pa, uint32_t *out)
{
    pa &= 0x3FFFFFFFu;
    if (m->pamm[(pa >> 20) & 0x3FF] & 0x18)
        return -1;
    if (pa > m->mem_alloc - 4 || (pa & 3))
        return -1;
    *out = le_get32(m->mem + pa);
    return 0;
}

/* the physical address of S0 address va (SBR/SLR), or -1 */
static int sxl(struct vax_machine *m, uint32_t va, uint32_t *pa)
{
    uint32_t vpn = (va >> 9) & 0x1FFFFF, pte;
    if (vpn >= m->ipr[0x0D])
        return -1;
    if (vm_probe_pread(m, m->ipr[0x0C] + 4 * vpn, &pte) || !(pte & 0x80000000u))
        return -1;
    *pa = (pte & 0x1FFFFF) << 9 | (va & 0x1FF);
    return 0;
}

int vm_probe_vread(struct vax_machine *m, uint32_t va, uint32_t *out)
{
    if (!(m->ipr[0x38] & 1))
        return vm_probe_pread(m, va & 0x3FFFFFFFu, out);
    uint32_t vpn = (va >> 9) & 0x1FFFFF, pa, pte, ptepa;
    switch (va >> 30) {
    case 2:
        if (sxl(m, va, &pa))
            return -1;
        return vm_probe_pread(m, pa, out);
    case 0:
        if (vpn >= m->ipr[0x09])
            return -1;
        if (sxl(m, m->ipr[0x08] + 4 * vpn, &ptepa))
            return -1;
        break;
    case 1:
        if (vpn < m->ipr[0x0B])
            return -1;
        if (sxl(m, m->ipr[0x0A] + 4 * vpn, &ptepa))
            return -1;
        break;
    default:
        return -1;
    }
    if (vm_probe_pread(m, ptepa, &pte) || !(pte & 0x80000000u))
        return -1;
    return vm_probe_pread(m, (pte & 0x1FFFFF) << 9 | (va & 0x1FF), out);
}

/* TRACE.VREAD: the longword at kernel address ptr + off, 0 behind a null
 * pointer or an address that does not translate (S0 only). */
static uint32_t ext_vread(struct vax_machine *m, uint32_t ptr, uint32_t off)
{
    uint32_t v = 0, pa;
    if (!ptr)
        return 0;
    uint32_t va = ptr + off;
    if (!(m->ipr[0x38] & 1)) {
        vm_probe_pread(m, va & 0x3FFFFFFFu, &v);
        return v;
    }
    if (va >> 30 != 2 || sxl(m, va, &pa))
        return 0;
    if (vm_probe_pread(m, pa, &v))
        return 0;
    return v;
}

/* The process identity, as PRB.IDENT reads it (TRACE-FORMAT.md §1's chain). */
static void ident_walk(struct vax_machine *m)
{
    struct vm_probe *p = m->prb;
    uint32_t pcbb = m->ipr[0x10], w = 0, procp = 0;
    if (vm_probe_pread(m, pcbb + 0x100, &w))
        w = 0;
    p->uid = w >> 16;
    if (vm_probe_pread(m, pcbb + 0x80, &procp))
        procp = 0;
    p->pid = ext_vread(m, procp, 0x34) & 0xFFFF;
    uint32_t textp = ext_vread(m, procp, 0x64);
    uint32_t iptr = ext_vread(m, textp, 0x44);
    p->progid = ext_vread(m, iptr, 0x0C) << 16 | (ext_vread(m, iptr, 0x14) & 0xFFFF);
    p->tot.ident_walks++;
}

/* ---- the frame comparator ---- */

static uint32_t frame_key(const struct vax_machine *m, uint8_t *is)
{
    *is = (m->psl & PSL_IS_BIT) != 0;
    return *is ? 0 : m->ipr[0x10]; /* the interrupt stack: one process of its own */
}

static void watch(struct vax_machine *m, unsigned id, uint32_t cookie)
{
    struct vm_probe *p = m->prb;
    if (id >= PRB_MAX_PROBES || !p->slot[id].used || p->slot[id].d.kind != PRB_K_RET)
        return;
    if (p->nframe == FRAMES) { /* the oldest goes */
        memmove(&p->frame[0], &p->frame[1], (FRAMES - 1) * sizeof p->frame[0]);
        p->nframe--;
        p->tot.frames_dropped++;
    }
    struct frame *f = &p->frame[p->nframe++];
    uint64_t vt = vt_now(m);
    f->fp = m->r[13];
    f->key = frame_key(m, &f->is);
    f->id = (uint8_t)id;
    f->cookie = cookie;
    f->depth = (uint8_t)(p->depth > 255 ? 255 : p->depth);
    f->vt0 = vt;
    f->x0 = deep_now(p, p->depth + 1, vt);
    p->tot.frames_watched++;
    m->prb_frames = p->nframe;
}

/* Does a RET popping frame fp concern a watched frame (this one, or one
 * below it that a longjmp left)? */
static int frames_hit(const struct vax_machine *m, uint32_t fp)
{
    const struct vm_probe *p = m->prb;
    uint8_t is;
    uint32_t key = frame_key(m, &is);
    for (unsigned i = 0; i < p->nframe; i++)
        if (p->frame[i].key == key && p->frame[i].is == is && p->frame[i].fp <= fp)
            return 1;
    return 0;
}

/* The RET that popped frame fp: its return probes into out[], the frames
 * below it dropped as unwound. */
static unsigned frames_pop(struct vax_machine *m, uint32_t fp, struct qent *out, unsigned max)
{
    struct vm_probe *p = m->prb;
    uint8_t is;
    uint32_t key = frame_key(m, &is);
    uint64_t vt = vt_now(m);
    unsigned n = 0, w = 0;
    for (unsigned i = 0; i < p->nframe; i++) {
        struct frame *f = &p->frame[i];
        if (f->key != key || f->is != is || f->fp > fp) {
            p->frame[w++] = *f;
            continue;
        }
        if (f->fp < fp) {
            p->tot.frames_unwound++;
            continue;
        }
        p->tot.frames_returned++;
        if (n < max) {
            uint64_t dur = vt - f->vt0, x = deep_now(p, f->depth + 1u, vt) - f->x0;
            out[n].id = f->id;
            out[n].kind = Q_RET;
            out[n].dur = dur > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)dur;
            out[n].durx = x >= dur ? 0 : dur - x > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)(dur - x);
            out[n].cookie = f->cookie;
            n++;
        }
    }
    p->nframe = w;
    m->prb_frames = w;
    return n;
}

/* ---- commands (the IPRs 0xEA-0xEF, and the host executor's) ---- */

static void set_armed(struct vax_machine *m, unsigned id, int on)
{
    struct vm_probe *p = m->prb;
    if (id >= PRB_MAX_PROBES || !p->slot[id].used || p->slot[id].armed == on)
        return;
    struct slot *s = &p->slot[id];
    s->armed = on;
    s->info.armed = on;
    if (on && s->d.kind == PRB_K_SAMPLE)
        s->next = m->st.microcycles + s->d.addr;
    rebuild(m);
}

static void command(struct vax_machine *m, unsigned ipr, uint32_t v, uint32_t arg)
{
    struct vm_probe *p = m->prb;
    struct slot *cur = p->cur >= 0 ? &p->slot[p->cur] : NULL;
    switch (ipr) {
    case PRB_IPR_ERR:
        if (cur)
            cur->info.errors++;
        break;
    case PRB_IPR_NOREC:
        if (cur)
            cur->info.norec++;
        break;
    case PRB_IPR_RETCHK: {
        struct qent r[PRB_MAX_PROBES];
        unsigned n = frames_pop(m, v, r, PRB_MAX_PROBES);
        for (unsigned i = 0; i < n; i++)
            if (p->nq < sizeof p->q / sizeof p->q[0])
                p->q[p->nq++] = r[i];
        break;
    }
    case PRB_IPR_ARM: set_armed(m, v, 1); break;
    case PRB_IPR_DISARM: set_armed(m, v, 0); break;
    case PRB_IPR_WATCH: watch(m, v, arg); break;
    case PRB_IPR_NOTE:
        p->notes++;
        p->note = v;
        break;
    default: break;
    }
}

/* ---- loading ---- */

static struct vm_probe *unit(struct vax_machine *m, char *err, size_t errlen)
{
    if (m->prb)
        return m->prb;
    if (m->l_prbreq == 0) {
        snprintf(err, errlen, "this control store has no probe flows (PRB.REQ)");
        return NULL;
    }
    uint32_t smb = m->ipr[VM_SPAM_MB];
    if (smb == 0xFFFFFFFFu || ((smb + 1) << 20) + MB > m->mem_alloc) {
        snprintf(err, errlen, "no probe megabyte on a %u MB machine (at most 509 MB)",
                 m->mem_size >> 20);
        return NULL;
    }
    struct vm_probe *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    p->base = (smb + 1) << 20;
    p->brk = MAPTAB;
    p->cur = -1;
    p->l_excint = m->l_hook_excint;
    p->l_chm = m->l_hook_chm;
    p->l_rei = m->l_hook_rei;
    p->l_ldp = m->l_hook_ldp;
    p->l_event = m->l_hook_event;
    m->prb = p;
    m->prb_next = UINT64_MAX;
    m->prb_epoch++; /* the trace cache builds anew with the unit present */
    ident_walk(m); /* the process running now, as the next LDPCTX would find it */
    p->tot.ident_walks = 0;
    return p;
}

/* The probe megabyte into the PAMM (array slot 0), once. */
static int ensure_mapped(struct vax_machine *m, char *err, size_t errlen)
{
    struct vm_probe *p = unit(m, err, errlen);
    if (!p)
        return -1;
    if (!p->mapped) {
        m->pamm[p->base >> 20] = 0;
        p->mapped = 1;
        vm_memo_flush(m);
    }
    return 0;
}

/* ---- the context, for the IPR port and the free mode ---- */

uint32_t vm_probe_value(struct vax_machine *m, unsigned sel)
{
    struct vm_probe *p = m->prb;
    if (sel < 16)
        return m->r[sel];
    switch (sel) {
    case PRB_C_PSL: return m->psl;
    case PRB_C_PCBB: return m->ipr[0x10];
    case PRB_C_ICNT: return m->icnt;
    case PRB_C_ID: return p->cur >= 0 ? (uint32_t)p->cur : 0;
    case PRB_C_EVENT: return p->event;
    case PRB_C_DUR: return p->curq.dur;
    case PRB_C_DURX: return p->curq.durx;
    case PRB_C_COOKIE: return p->curq.cookie;
    case PRB_C_PID: return p->pid;
    case PRB_C_UID: return p->uid;
    case PRB_C_PROG: return p->progid;
    case PRB_C_CYCLO: return (uint32_t)m->st.microcycles;
    case PRB_C_CYCHI: return (uint32_t)(m->st.microcycles >> 32);
    case PRB_C_USEC: return (uint32_t)(m->st.microcycles * 2 / 25);
    case PRB_C_CMISS: return (uint32_t)m->st.cache_misses;
    case PRB_C_TBMISS: return (uint32_t)m->st.tb_misses;
    default: return 0;
    }
}


void vm_probe_command(struct vax_machine *m, unsigned ipr, uint32_t v, uint32_t arg)
{
    command(m, ipr, v, arg);
}

void vm_probe_region(struct vax_machine *m, uint8_t **host, uint32_t *pa, uint32_t *len)
{
    *host = m->mem + m->prb->base;
    *pa = m->prb->base;
    *len = MB - STAGE_BYTES;
}

void vm_probe_count_norec(struct vax_machine *m)
{
    if (m->prb->cur >= 0)
        m->prb->slot[m->prb->cur].info.norec++;
}

void vm_probe_count_error(struct vax_machine *m)
{
    if (m->prb->cur >= 0)
        m->prb->slot[m->prb->cur].info.errors++;
}

void vm_probe_set_sink(struct vax_machine *m, vm_probe_sink_fn *fn, void *ctx)
{
    char e[80];
    struct vm_probe *p = unit(m, e, sizeof e);
    if (p) {
        p->sink = fn;
        p->sink_ctx = ctx;
    }
}

void vm_probe_sink(struct vax_machine *m, vm_probe_sink_fn **fn, void **ctx)
{
    *fn = m->prb->sink;
    *ctx = m->prb->sink_ctx;
}

/* ---- the requests at an IRD point ---- */

static void queue(struct vm_probe *p, unsigned id, unsigned kind)
{
    if (p->nq < sizeof p->q / sizeof p->q[0]) {
        p->q[p->nq] = (struct qent){.id = (uint8_t)id, .kind = (uint8_t)kind};
        p->nq++;
    }
}

/* The event probes an event id selects. */
static void queue_events(struct vax_machine *m, uint32_t id)
{
    struct vm_probe *p = m->prb;
    for (unsigned i = 0; i < PRB_MAX_PROBES; i++) {
        const struct slot *s = &p->slot[i];
        if (s->used && s->armed && s->d.kind == PRB_K_EVENT && (id & s->d.mask) == s->d.addr)
            queue(p, i, Q_EVENT);
    }
}

/* Sampling probes due now (their filters decide at once). */
static void queue_samples(struct vax_machine *m)
{
    struct vm_probe *p = m->prb;
    uint64_t now = m->st.microcycles, next = UINT64_MAX;
    for (unsigned i = 0; i < PRB_MAX_PROBES; i++) {
        struct slot *s = &p->slot[i];
        if (!s->used || !s->armed || s->d.kind != PRB_K_SAMPLE)
            continue;
        if (s->next <= now) {
            if (filters_pass(m, s))
                queue(p, i, Q_SAMPLE);
            else
                s->info.filtered++;
            while (s->next <= now)
                s->next += s->d.addr;
        }
        if (s->next < next)
            next = s->next;
    }
    m->prb_next = next;
}

static unsigned open_request(struct vax_machine *m)
{
    struct vm_probe *p = m->prb;
    m->spam_window = 3;
    p->win_t0 = p->mark = m->st.microcycles;
    p->cur = -1;
    p->qi = 0;
    p->tot.requests++;
    return m->l_prbreq;
}

unsigned vm_probe_ird(struct vax_machine *m)
{
    struct vm_probe *p = m->prb;
    uint32_t req = m->prb_req;
    m->prb_req = 0;
    if (req & VM_PRQ_FETCH) /* the PC probe's flow ends: the instruction is fetched */
        return VM_PRB_FETCH;
    p->nq = p->qi = 0;
    if (req & VM_PRQ_RET) {
        for (unsigned i = 0; i < p->nret && p->nq < sizeof p->q / sizeof p->q[0]; i++)
            p->q[p->nq++] = p->ret[i];
        p->nret = 0;
    }
    if (m->st.microcycles >= m->prb_next)
        queue_samples(m);
    p->ident = (req & VM_PRQ_IDENT) != 0;
    p->event_pending = (req & VM_PRQ_EVENT) != 0;
    if (p->free_mode) {
        if (p->event_pending) { /* the hook's id, as the tap read it */
            p->event = p->hook_event;
            queue_events(m, p->hook_event);
            p->event_pending = 0;
        }
        if (!p->nq && !p->ident)
            return VM_PRB_GO;
        p->tot.requests++;
        return VM_PRB_FREE;
    }
    if (!p->nq && !p->ident && !p->event_pending)
        return VM_PRB_GO;
    return open_request(m);
}

unsigned vm_probe_ird_pc(struct vax_machine *m)
{
    struct vm_probe *p = m->prb;
    uint32_t pc = m->r[15];
    unsigned b = (pc >> 6) & 4095;
    if (!(m->prb_iline[b / 64] & (1ull << (b % 64))))
        return VM_PRB_GO;
    p->nq = p->qi = 0;
    for (unsigned i = 0; i < p->npc; i++) {
        if (p->pc_va[i] != pc)
            continue;
        struct slot *s = &p->slot[p->pc_id[i]];
        if (filters_pass(m, s))
            queue(p, p->pc_id[i], Q_PC);
        else
            s->info.filtered++;
    }
    if (!p->nq)
        return VM_PRB_GO;
    p->ident = p->event_pending = 0;
    if (p->free_mode) {
        p->tot.requests++;
        return VM_PRB_FREE;
    }
    m->prb_req |= VM_PRQ_FETCH;
    return open_request(m);
}

/* The next queued request whose probe is armed and passes its filters
 * (counted as a firing; the others as filtered): its routine's physical
 * address, or 0 when the queue is done.  Both modes walk it so. */
static uint32_t queue_next(struct vax_machine *m)
{
    struct vm_probe *p = m->prb;
    while (p->qi < p->nq) {
        const struct qent *e = &p->q[p->qi++];
        struct slot *s = &p->slot[e->id];
        if (!s->used || !s->armed)
            continue;
        if (e->kind == Q_EVENT && !filters_pass(m, s)) {
            s->info.filtered++;
            continue;
        }
        p->cur = e->id;
        p->curq = *e;
        s->info.fires++;
        return s->code_pa;
    }
    return 0;
}

/* The free mode's walk through the queue (vm_probe_free.c), as PRB_NEXT
 * hands it to the microcode. */
uint32_t vm_probe_free_next(struct vax_machine *m)
{
    struct vm_probe *p = m->prb;
    p->cur = -1;
    if (p->ident) {
        p->ident = 0;
        ident_walk(m);
    }
    uint32_t pa = queue_next(m);
    if (!pa)
        p->nq = p->qi = 0;
    return pa;
}

/* The microcycles of the routine (or walk) that ran until now. */
static void charge(struct vax_machine *m, uint64_t end)
{
    struct vm_probe *p = m->prb;
    uint64_t c = end - p->mark;
    if (p->cur >= 0) {
        struct vm_probe_info *in = &p->slot[p->cur].info;
        in->cycles += c;
        if (c > in->max_cycles)
            in->max_cycles = (uint32_t)(c > 0xFFFFFFFFu ? 0xFFFFFFFFu : c);
    }
    p->mark = end;
    p->cur = -1;
}

void vm_probe_close(struct vax_machine *m)
{
    struct vm_probe *p = m->prb;
    if (p->cur != -1)
        charge(m, m->st.microcycles);
    p->tot.cycles += m->st.microcycles - p->win_t0;
    if (m->spam_window == 3)
        m->icnt--; /* the IRD that dispatched here counted this boundary */
    p->nq = p->qi = 0;
    p->ident = p->event_pending = 0;
}

void vm_probe_open(struct vax_machine *m, uint64_t t0)
{
    struct vm_probe *p = m->prb;
    if (!p || m->spam_window)
        return;
    m->spam_window = 4;
    p->win_t0 = p->mark = t0;
    p->cur = -1;
    p->nq = p->qi = 0;
    p->tot.requests++;
}

/* PRB_NEXT: the next routine's address; 1: the identity walk; 2: done. */
static uint32_t next_routine(struct vax_machine *m)
{
    struct vm_probe *p = m->prb;
    /* the routine before ends at the start of this word */
    charge(m, m->st.microcycles - 1);
    if (p->ident) { /* PRB.IDENT: the microcode's walk */
        p->ident = 0;
        p->cur = -2;
        p->tot.ident_walks++;
        return 1;
    }
    uint32_t pa = queue_next(m);
    if (pa)
        return pa;
    return 2;
}

/* ---- the hooks and conditions ---- */

/* The event id the hook at upc records, from the flow's inputs (the
 * formulas of spam.mic's hooks: what its words compute into T11). */
static int hook_event(const struct vax_machine *m, unsigned upc, uint32_t *id, int *ldp)
{
    const struct vm_probe *p = m->prb;
    const uint32_t *t = m->t;
    *ldp = 0;
    if (upc == p->l_excint) {
        uint32_t sh = t[9] & 63;
        *id = (sh >= 32 ? 0 : 0x2000u >> sh) | t[10];
    } else if (upc == p->l_chm) {
        *id = ((t[10] << 8) ^ 0x7000u) | (t[12] & 0x3FF);
    } else if (upc == p->l_rei) {
        *id = (((t[9] >> 19) & 0xE0) | 0x5000) | ((t[9] >> 16) & 0x1F);
    } else if (upc == p->l_ldp) {
        *id = 0x4000;
        *ldp = 1;
    } else if (upc == p->l_event) {
        *id = t[11];
    } else {
        return -1;
    }
    *id &= 0xFFFF;
    return 0;
}

void vm_probe_hook(struct vax_machine *m, unsigned upc)
{
    struct vm_probe *p = m->prb;
    uint32_t id;
    p->hook_sel = 0;
    if (hook_event(m, upc, &id, &p->hook_ldp))
        return;
    p->hook_event = id;
    if (upc == p->l_rei && (m->t[9] & PSL_IS_BIT) && p->depth > 0) {
        /* an REI that leaves the interrupt stack level an interrupt came in on */
        deep_update(p, m->st.microcycles - p->tot.cycles);
        p->depth--;
    }
    for (unsigned i = 0; i < PRB_MAX_PROBES && !p->hook_sel; i++) {
        const struct slot *s = &p->slot[i];
        p->hook_sel = s->used && s->armed && s->d.kind == PRB_K_EVENT &&
                      (id & s->d.mask) == s->d.addr;
    }
}

void vm_probe_hook_close(struct vax_machine *m, uint64_t hook_cycles, uint64_t *spam_cycles)
{
    struct vm_probe *p = m->prb;
    if (p->hook_ldp)
        m->prb_req |= VM_PRQ_IDENT;
    if (!p->hook_sel)
        return;
    m->prb_req |= VM_PRQ_EVENT;
    /* with tracing off the hook's one word is SPAM's; the words after it
     * ran for the probes (SPEV) */
    if (!p->free_mode && !(m->ipr[VM_SPAM_STAT] & (VM_SPAM_ST_ON | VM_SPAM_ST_FULL)) &&
        hook_cycles > 1) {
        *spam_cycles -= hook_cycles - 1;
        p->tot.hook_cycles += hook_cycles - 1;
        p->tot.cycles += hook_cycles - 1;
    }
    p->hook_sel = 0;
}

void vm_probe_int_ack(struct vax_machine *m)
{
    struct vm_probe *p = m->prb;
    deep_update(p, m->st.microcycles - p->tot.cycles);
    p->depth++;
}

int vm_probe_spev(const struct vax_machine *m)
{
    return !m->prb->free_mode && m->prb->hook_sel;
}

int vm_probe_frmw(struct vax_machine *m)
{
    struct vm_probe *p = m->prb;
    if (!p->nframe || !frames_hit(m, m->t[8]))
        return 0;
    if (!p->free_mode)
        return 1;
    /* the free mode: the comparator's match is served at this word's IRD */
    unsigned room = PRB_MAX_PROBES - p->nret;
    unsigned n = frames_pop(m, m->t[8], p->ret + p->nret, room);
    p->nret += n;
    if (n)
        m->prb_req |= VM_PRQ_RET;
    return 0;
}

int vm_prb_load(struct vax_machine *m, const struct prb_program *prog, char *err,
                  size_t errlen)
{
    struct prb_checked c;
    struct prb_reject why;
    if (prb_verify(prog, &c, &why)) {
        prb_reject_text(prog, &why, err, errlen);
        return -1;
    }
    int rc = -1;
    struct vm_probe *p = NULL;
    if (ensure_mapped(m, err, errlen))
        goto out;
    p = m->prb;
    int h;
    for (h = 0; h < VM_PROBE_PROGRAMS && p->prog[h].used; h++)
        ;
    unsigned free_slots = 0, free_maps = 0;
    for (unsigned i = 0; i < PRB_MAX_PROBES; i++)
        free_slots += !p->slot[i].used;
    for (unsigned i = 0; i < PRB_MAX_MAPS; i++)
        free_maps += !p->map[i].used;
    if (h == VM_PROBE_PROGRAMS || free_slots < prog->nprobes || free_maps < prog->nmaps) {
        snprintf(err, errlen, "the probe unit is full (%d programs, %d probes, %d maps)",
                 VM_PROBE_PROGRAMS, PRB_MAX_PROBES, PRB_MAX_MAPS);
        goto out;
    }
    /* memory: the routines, then the maps' slots */
    uint64_t need = (uint64_t)c.ncode * PRB_INSN_BYTES;
    for (unsigned i = 0; i < prog->nmaps; i++)
        need += (prb_map_bytes(&prog->map[i]) + 7) & ~(size_t)7;
    if (p->brk + need > MB - STAGE_BYTES) {
        snprintf(err, errlen, "the probe megabyte is full: the program needs %llu bytes, "
                 "%u are left", (unsigned long long)need, MB - STAGE_BYTES - p->brk);
        goto out;
    }
    uint16_t pg[PRB_MAX_PROBES], mg[PRB_MAX_MAPS];
    unsigned k = 0;
    for (unsigned i = 0; i < prog->nprobes; i++) {
        while (p->slot[k].used)
            k++;
        pg[i] = (uint16_t)k++;
    }
    k = 0;
    for (unsigned i = 0; i < prog->nmaps; i++) {
        while (p->map[k].used)
            k++;
        mg[i] = (uint16_t)k++;
    }
    uint8_t *mb = m->mem + p->base;
    p->prog[h].used = 1;
    p->prog[h].nprobes = prog->nprobes;
    p->prog[h].nmaps = prog->nmaps;
    for (unsigned i = 0; i < prog->nmaps; i++) {
        unsigned g = mg[i];
        p->map[g].used = 1;
        p->map[g].d = prog->map[i];
        p->map[g].pa = p->base + p->brk;
        prb_map_init(&prog->map[i], mb + p->brk);
        prb_encode_mapdesc(&prog->map[i], p->map[g].pa, mb + g * PRB_MAPDESC_BYTES);
        p->brk += (uint32_t)((prb_map_bytes(&prog->map[i]) + 7) & ~(size_t)7);
        p->prog[h].map[i] = (uint8_t)g;
    }
    for (unsigned i = 0; i < prog->nprobes; i++) {
        struct slot *s = &p->slot[pg[i]];
        memset(s, 0, sizeof *s);
        s->used = 1;
        s->prog = h;
        s->d = prog->probe[i];
        s->code_pa = p->base + p->brk;
        for (unsigned j = 0; j < c.len[i]; j++, p->brk += PRB_INSN_BYTES)
            prb_encode_insn(&c.code[c.start[i] + j], pg, mg, mb + p->brk);
        s->info.kind = s->d.kind;
        s->info.cost = c.cost[i];
        s->info.budget = c.budget[i];
        s->armed = s->info.armed = !(s->d.flags & PRB_PF_DISARMED);
        if (s->d.kind == PRB_K_SAMPLE)
            s->next = m->st.microcycles + s->d.addr;
        p->prog[h].probe[i] = (uint8_t)pg[i];
    }
    rebuild(m);
    m->prb_epoch++; /* the trace cache builds anew (SPEV, FRMW: vm_tcache.c) */
    rc = h;
out:
    prb_checked_free(&c);
    return rc;
}

int vm_prb_load_image(struct vax_machine *m, const uint8_t *img, size_t len, char *err,
                        size_t errlen)
{
    struct prb_program *prog = malloc(sizeof *prog);
    if (!prog) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = prb_image_decode(img, len, prog, err, errlen) ? -1
             : vm_prb_load(m, prog, err, errlen);
    free(prog);
    return rc;
}

int vm_prb_unload(struct vax_machine *m, int h)
{
    struct vm_probe *p = m->prb;
    if (!p || h < 0 || h >= VM_PROBE_PROGRAMS || !p->prog[h].used)
        return -1;
    for (unsigned i = 0; i < p->prog[h].nprobes; i++) {
        unsigned g = p->prog[h].probe[i];
        p->slot[g].used = p->slot[g].armed = 0;
        /* its frames will not fire */
        unsigned w = 0;
        for (unsigned f = 0; f < p->nframe; f++)
            if (p->frame[f].id != g)
                p->frame[w++] = p->frame[f];
        p->nframe = w;
    }
    m->prb_frames = p->nframe;
    for (unsigned i = 0; i < p->prog[h].nmaps; i++)
        p->map[p->prog[h].map[i]].used = 0;
    p->prog[h].used = 0;
    int any = 0;
    for (unsigned i = 0; i < VM_PROBE_PROGRAMS; i++)
        any |= p->prog[i].used;
    if (!any)
        p->brk = MAPTAB; /* the megabyte's space comes back when nothing is left */
    rebuild(m);
    m->prb_epoch++;
    return 0;
}

int vm_prb_arm_all(struct vax_machine *m, int h, int on)
{
    struct vm_probe *p = m->prb;
    if (!p || h < 0 || h >= VM_PROBE_PROGRAMS || !p->prog[h].used)
        return -1;
    for (unsigned i = 0; i < p->prog[h].nprobes; i++)
        set_armed(m, p->prog[h].probe[i], on);
    return 0;
}

/* PRBLOAD (FD06): the image the microcode copied into the staging area. */
static void guest_load(struct vax_machine *m, uint32_t len)
{
    struct vm_probe *p = m->prb;
    char err[200];
    p->g_result = 0xFFFFFFFFu;
    p->g_why = 1;
    if (len > STAGE_BYTES || len > PRB_IMAGE_MAX)
        return;
    int h = vm_prb_load_image(m, m->mem + p->base + MB - STAGE_BYTES, len, err, sizeof err);
    if (h >= 0) {
        p->g_result = (uint32_t)h;
        p->g_why = 0;
    } else {
        p->g_why = 2; /* refused: the image, or the verifier */
    }
}

/* PRBCTL (FD07) */
static void guest_op(struct vax_machine *m, uint32_t op)
{
    struct vm_probe *p = m->prb;
    int h = (int)p->g_handle, rc = -1;
    if (op == 0)
        rc = vm_prb_unload(m, h);
    else if (op == 1 || op == 2)
        rc = vm_prb_arm_all(m, h, op == 1);
    p->g_op = rc ? 0xFFFFFFFFu : 0;
}

/* PRBREAD (FD08): the physical address of longword g_word of slot g_key
 * of map g_map of program g_handle. */
static int map_word_pa(struct vax_machine *m, uint32_t *pa)
{
    struct vm_probe *p = m->prb;
    const struct prb_map_desc *d;
    const uint8_t *slots;
    if (vm_probe_map(m, (int)p->g_handle, p->g_map, &d, &slots))
        return -1;
    uint32_t sb = prb_map_slot_bytes(d);
    if (p->g_key > d->keys || p->g_word >= sb / 4)
        return -1;
    *pa = p->base + (uint32_t)(slots - (m->mem + p->base)) + p->g_key * sb + 4 * p->g_word;
    return 0;
}

/* ---- the IPR port (0xD0-0xDF the guest's interface, 0xEA-0xEF the
 * commands, 0xF0-0xFF the unit's registers) ---- */

int vm_probe_ipr_read(struct vax_machine *m, uint32_t n, uint32_t *v)
{
    struct vm_probe *p = m->prb;
    if (n >= 0xD0 && n <= 0xD7) {
        switch (n) {
        case 0xD0: { /* PRBLOAD's staging area */
            char e[80];
            *v = ensure_mapped(m, e, sizeof e) ? 0 : m->prb->base + MB - STAGE_BYTES;
            return 0;
        }
        case 0xD1: *v = p ? p->g_result : 0xFFFFFFFFu; return 0;
        case 0xD2: *v = p ? p->g_why : 0; return 0;
        case 0xD4: *v = p ? p->g_op : 0xFFFFFFFFu; return 0;
        case 0xD7: {
            uint32_t pa;
            *v = p && map_word_pa(m, &pa) == 0 ? pa : 0;
            return 0;
        }
        default: return -1;
        }
    }
    if (!p || m->spam_window < 3)
        return -1;
    switch (n) {
    case 0xF0: *v = p->cur >= 0 ? (uint32_t)p->cur : 0; return 0;
    case 0xF1: *v = p->event; return 0;
    case 0xF2: *v = p->curq.dur; return 0;
    case 0xF3: *v = p->curq.durx; return 0;
    case 0xF4: *v = p->curq.cookie; return 0;
    case 0xF5: *v = p->pid; return 0;
    case 0xF6: *v = p->uid; return 0;
    case 0xF7: *v = p->progid; return 0;
    case 0xF8: *v = (uint32_t)m->st.microcycles; return 0;
    case 0xF9: *v = (uint32_t)(m->st.microcycles >> 32); return 0;
    case 0xFA: *v = (uint32_t)(m->st.microcycles * 2 / 25); return 0;
    case 0xFB: *v = (uint32_t)m->st.cache_misses; return 0;
    case 0xFC: *v = (uint32_t)m->st.tb_misses; return 0;
    case 0xFD: *v = next_routine(m); return 0;
    case 0xFE: *v = p->base; return 0;
    case 0xFF: *v = p->arg; return 0;
    default: return -1;
    }
}

int vm_probe_ipr_write(struct vax_machine *m, uint32_t n, uint32_t v)
{
    struct vm_probe *p = m->prb;
    if (n >= 0xD0 && n <= 0xD7) {
        if (!p)
            return n == 0xD1 || n == 0xD3 || n == 0xD4 || n == 0xD5 || n == 0xD6 || n == 0xD7
                       ? 0 : -1;
        switch (n) {
        case 0xD1: guest_load(m, v); return 0;
        case 0xD3: p->g_handle = v; return 0;
        case 0xD4: guest_op(m, v); return 0;
        case 0xD5: p->g_map = v; return 0;
        case 0xD6: p->g_key = v; return 0;
        case 0xD7: p->g_word = v; return 0; /* the word (PRBREAD) */
        default: return -1;
        }
    }
    if (!p || m->spam_window < 3)
        return -1;
    switch (n) {
    case 0xF1:
        p->event = v & 0xFFFF;
        if (p->event_pending) {
            p->event_pending = 0;
            queue_events(m, p->event);
        }
        return 0;
    case 0xF5: p->pid = v; return 0;
    case 0xF6: p->uid = v; return 0;
    case 0xF7: p->progid = v; return 0;
    case 0xFF: p->arg = v; return 0;
    case PRB_IPR_ERR: case PRB_IPR_NOREC: case PRB_IPR_RETCHK: case PRB_IPR_ARM:
    case PRB_IPR_DISARM:
        command(m, n, v, 0);
        return 0;
    case PRB_IPR_WATCH:
        command(m, n, v, p->arg);
        return 0;
    case PRB_IPR_NOTE:
        command(m, n, v, 0);
        return 0;
    default:
        return -1;
    }
}

/* ---- the host's view ---- */

void vm_prb_set_free(struct vax_machine *m, int on)
{
    char e[80];
    /* (the traces built so far took SPEV and FRMW as the mode made them:
     * a change, and only a change, builds them anew) */
    if (unit(m, e, sizeof e) && m->prb->free_mode != !!on) {
        m->prb->free_mode = !!on;
        m->prb_epoch++;
    }
}

int vm_probe_free(const struct vax_machine *m) { return m->prb && m->prb->free_mode; }

int vm_probe_info(const struct vax_machine *m, int h, unsigned probe,
                  struct vm_probe_info *out)
{
    const struct vm_probe *p = m->prb;
    if (!p || h < 0 || h >= VM_PROBE_PROGRAMS || !p->prog[h].used ||
        probe >= p->prog[h].nprobes)
        return -1;
    *out = p->slot[p->prog[h].probe[probe]].info;
    return 0;
}

void vm_probe_totals(const struct vax_machine *m, struct vm_probe_totals *out)
{
    if (m->prb)
        *out = m->prb->tot;
    else
        memset(out, 0, sizeof *out);
}

int vm_probe_map(const struct vax_machine *m, int h, unsigned map,
                 const struct prb_map_desc **d, const uint8_t **slots)
{
    const struct vm_probe *p = m->prb;
    if (!p || h < 0 || h >= VM_PROBE_PROGRAMS || !p->prog[h].used || map >= p->prog[h].nmaps)
        return -1;
    unsigned g = p->prog[h].map[map];
    *d = &p->map[g].d;
    *slots = m->mem + p->map[g].pa;
    return 0;
}

unsigned vm_probe_notes(struct vax_machine *m, uint32_t *last)
{
    struct vm_probe *p = m->prb;
    if (!p)
        return 0;
    unsigned n = p->notes;
    p->notes = 0;
    *last = p->note;
    return n;
}

int vm_prb_map_clear(struct vax_machine *m, int h, unsigned map)
{
    const struct prb_map_desc *d;
    const uint8_t *slots;
    if (vm_probe_map(m, h, map, &d, &slots))
        return -1;
    prb_map_init(d, m->mem + (slots - m->mem));
    return 0;
}

void vm_probe_destroy(struct vax_machine *m)
{
    free(m->prb);
    m->prb = NULL;
}

