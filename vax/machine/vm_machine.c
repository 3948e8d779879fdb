/* The machine's lifecycle and its run loop (vm_machine.h), the wiring of
 * the rooms: making a machine -- the memory array, the control store and
 * decode ROMs from the microcode, the trace cache as the sequencer's
 * engine, the rooms at power-up -- and freeing it; the host's view of its
 * registers and counters; running it (the console's START, then the
 * microcycle loop, vm_interp.c) until it stops, reaches a cycle limit or
 * ends an instruction step.  The host's calls that change it, and the
 * lock-step check, are vm_host.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vax/machine/vm_dev.h"
#include "vax/machine/vm_hostmem.h"
#include "vax/machine/vm_interp.h"
#include "vax/machine/vm_io.h"
#include "vax/machine/vm_machine.h"
#include "vax/machine/vm_probe_unit.h"
#include "vax/machine/vm_tcache.h"
#include "vax/machine/vm_tcache_exec.h"
#include "vax/machine/vm_users.h"

struct vax_machine *vm_machine_new(const struct vm_config *cfg, char *err, size_t errlen)
{
    uint32_t mb = cfg && cfg->memory_mb ? cfg->memory_mb : 16;
    if (mb > 512) {
        snprintf(err, errlen, "memory size %u MB too large (at most 512)", mb);
        return NULL;
    }
    uint32_t tc_mb = cfg && cfg->tcache_mb ? cfg->tcache_mb : VM_TCACHE_MB;
    if (tc_mb > VM_TCACHE_MB_MAX) {
        snprintf(err, errlen, "trace cache of %u MB too large (at most %u)", tc_mb,
                 VM_TCACHE_MB_MAX);
        return NULL;
    }
    unsigned tc_after = cfg && cfg->tcache_after ? cfg->tcache_after : VM_TCACHE_AFTER;
    if (tc_after > VM_TCACHE_AFTER_MAX) {
        snprintf(err, errlen, "trace cache threshold %u too large (at most %u)", tc_after,
                 VM_TCACHE_AFTER_MAX);
        return NULL;
    }
    unsigned dz_br = cfg && cfg->dz_br ? cfg->dz_br : 5;
    if (dz_br < 4 || dz_br > 7) {
        snprintf(err, errlen, "DZ11 bus request level %u (4-7)", dz_br);
        return NULL;
    }
    struct vax_machine *m = vm_hostmem_alloc(sizeof *m);
    if (!m) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    m->mem_size = mb << 20;
    m->dz_br = dz_br;
    /* more megabytes of array: a hole, then SPAM's trace megabyte,
     * hidden from the PAMM until PAMMINIT (vm_spam.c), then the probe
     * megabyte, hidden until the probe unit maps it (vm_probe_unit.c); none
     * when they would reach I/O space */
    m->mem_alloc = m->mem_size + (mb < 510 ? 3u << 20 : mb < 511 ? 2u << 20 : 0);
    m->prb_next = UINT64_MAX; /* (no sampling probe) */
    /* (16 bytes more: the trace cache compares an instruction's bytes
     * in whole quadwords, vm_tcache_exec.c) */
    m->mem = vm_hostmem_alloc(m->mem_alloc + 16);
    m->cs = calloc(UCS_SIZE, sizeof *m->cs);
    if (!m->mem || !m->cs) {
        snprintf(err, errlen, "out of memory for %u MB", mb);
        vm_machine_free(m);
        return NULL;
    }
    struct ucode_image def;
    const struct ucode_image *img = cfg ? cfg->ucode : NULL;
    int own = 0;
    if (!img) {
        if (ucode_default_image(&def, err, errlen) < 0) {
            vm_machine_free(m);
            return NULL;
        }
        img = &def;
        own = 1;
    }
    vm_cstore_load(m, img->words);
    int rc = vm_drom_build(m, img, err, errlen);
    if (own)
        ucode_image_free(&def);
    if (rc < 0) {
        vm_machine_free(m);
        return NULL;
    }
    m->cur = &m->drom[0];
    if (!cfg || !cfg->no_tcache) {
        m->tc = vm_tc_new((size_t)tc_mb << 20, tc_after, !cfg || !cfg->no_tcache_native);
        if (!m->tc) {
            snprintf(err, errlen, "out of memory for the trace cache");
            vm_machine_free(m);
            return NULL;
        }
        m->engine = vm_tc_run;
    }
    vm_fbox_reset(&m->fbox);
    relatch(m);
    m->int_dirty = 1;
    vm_pamm_reset(m);
    vm_dev_reset(m);
    vm_users_setup(m);
    vm_spam_reset(m);
    m->psl = 0x041F0000;
    m->ipr[0x38] = 0; /* MAPEN */
    m->ipr[0x13] = 4; /* ASTLVL: no AST pending */
    return m;
}

void vm_machine_free(struct vax_machine *m)
{
    if (!m)
        return;
    vm_tc_free(m->tc);
    vm_probe_destroy(m);
    vm_users_free(m);
    vm_io_free(m);
    vm_hostmem_free(m->mem, m->mem_alloc + 16);
    free(m->cs);
    vm_hostmem_free(m, sizeof *m);
}

uint32_t vm_reg(const struct vax_machine *m, int n) { return m->r[n & 15]; }
uint32_t vm_psl(const struct vax_machine *m) { return m->psl; }

void vm_machine_set_psl(struct vax_machine *m, uint32_t v)
{
    m->psl = v;
    vm_memo_flush(m);
    m->int_dirty = 1;
}

int vm_halted(const struct vax_machine *m) { return m->stop == VM_STOPPED; }

enum vm_stop vm_step_instruction(struct vax_machine *m, uint64_t max_cycles)
{
    m->step_ird = 1;
    enum vm_stop r = vm_run_plain(m, max_cycles); /* (a checked machine: unchecked) */
    m->step_ird = 0;
    return r;
}

const char *vm_stop_reason(const struct vax_machine *m)
{
    return m->stop ? m->reason : "running";
}

void vm_get_stats(const struct vax_machine *m, struct vm_stats *s)
{
    *s = m->st;
}

void vm_set_utrace(struct vax_machine *m, vm_utrace_fn fn, void *ctx)
{
    m->utrace = fn;
    m->utrace_ctx = ctx;
}

enum vm_stop vm_run_plain(struct vax_machine *m, uint64_t max_cycles)
{
    m->stepped = 0;
    if (m->stop == VM_CYCLE_LIMIT)
        m->stop = VM_RUNNING;
    if (m->stop)
        return m->stop;
    if (!m->started) {
        m->started = 1;
        m->upc = ird(m, 0);
        if (m->utrap) {
            m->utrap = 0;
            m->upc = m->utrap_upc;
        }
        if (m->stop)
            return m->stop;
    }
    vm_interp_run(m, max_cycles ? max_cycles : UINT64_MAX);
    return m->stop;
}

