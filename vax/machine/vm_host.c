/* The host's hand on the machine: the calls of vm.h, vm_spam.h and vm_net.h
 * with which the host makes, runs and changes a machine between runs.
 * This is the one place the lock-step check (vm_tcache_check.c) hangs on:
 * vm_new attaches it, vm_run hands it the run, and every change the host
 * makes here goes to its second machine too (vm_check_twin), whose answers
 * to the host's reads are compared.  Each call's work on one machine is
 * its room's (vm_machine.c, vm_dev.c, vm_mem.c, vm_io.c, vm_users.c,
 * vm_net.c, vm_spam.c); the rooms know nothing of the check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vax/io/io_media.h"
#include "vax/machine/vm.h"
#include "vax/machine/vm_dev.h"
#include "vax/machine/vm_internal.h"
#include "vax/machine/vm_io.h"
#include "vax/machine/vm_machine.h"
#include "vax/machine/vm_net.h"
#include "vax/machine/vm_probe.h"
#include "vax/machine/vm_probe_unit.h"
#include "vax/machine/vm_spam.h"
#include "vax/machine/vm_tcache_check.h"
#include "vax/machine/vm_users.h"

/* ---- making, freeing and running ---- */

struct vax_machine *vm_new(const struct vm_config *cfg, char *err, size_t errlen)
{
    if (cfg && cfg->tcache_check && cfg->no_tcache) {
        snprintf(err, errlen, "the lock-step check needs the trace cache");
        return NULL;
    }
    struct vax_machine *m = vm_machine_new(cfg, err, errlen);
    if (m && cfg && cfg->tcache_check && vm_check_attach(m, cfg, err, errlen) < 0) {
        vm_free(m);
        return NULL;
    }
    return m;
}

void vm_free(struct vax_machine *m)
{
    if (!m)
        return;
    vm_check_detach(m);
    vm_machine_free(m);
}

enum vm_stop vm_run(struct vax_machine *m, uint64_t max_cycles)
{
    if (m->check)
        return vm_check_run(m, max_cycles);
    return vm_run_plain(m, max_cycles);
}

/* ---- the host's changes, done to the second machine too ---- */

void vm_set_reg(struct vax_machine *m, int n, uint32_t v)
{
    m->r[n & 15] = v;
    struct vax_machine *t = vm_check_twin(m);
    if (t)
        t->r[n & 15] = v;
}

void vm_set_psl(struct vax_machine *m, uint32_t v)
{
    struct vax_machine *t = vm_check_twin(m);
    if (t)
        vm_machine_set_psl(t, v);
    vm_machine_set_psl(m, v);
}

uint32_t vm_ipr(struct vax_machine *m, int n)
{
    uint32_t v = vm_dev_host_ipr_read(m, n);
    struct vax_machine *t = vm_check_twin(m);
    if (t && vm_dev_host_ipr_read(t, n) != v) /* (a read may change a device) */
        vm_check_note(m, "a host read of an IPR");
    return v;
}

void vm_set_ipr(struct vax_machine *m, int n, uint32_t v)
{
    struct vax_machine *t = vm_check_twin(m);
    if (t)
        vm_dev_host_ipr_write(t, n, v);
    vm_dev_host_ipr_write(m, n, v);
}

void vm_console_input(struct vax_machine *m, const void *buf, size_t n)
{
    struct vax_machine *t = vm_check_twin(m);
    if (t)
        vm_dev_console_input(t, buf, n);
    vm_dev_console_input(m, buf, n);
}

int vm_phys_write(struct vax_machine *m, uint32_t pa, const void *buf, size_t n)
{
    struct vax_machine *t = vm_check_twin(m);
    if (t)
        vm_mem_host_write(t, pa, buf, n);
    return vm_mem_host_write(m, pa, buf, n);
}

/* (The second machine's errors are the first's: the same call on the
 * same configuration.) */
int vm_console_script(struct vax_machine *m, const char *text, size_t len, const char *name,
                      double timeout_s, char *err, size_t errlen)
{
    struct vax_machine *t = vm_check_twin(m);
    if (t) /* the same typist */
        vm_users_console_script(t, text, len, name, timeout_s, err, errlen);
    return vm_users_console_script(m, text, len, name, timeout_s, err, errlen);
}

int vm_dz_script(struct vax_machine *m, unsigned line, const char *text, size_t len,
                 const char *name, double timeout_s, uint64_t seed, char *err, size_t errlen)
{
    struct vax_machine *t = vm_check_twin(m);
    if (t) /* the same user */
        vm_users_dz_script(t, line, text, len, name, timeout_s, seed, err, errlen);
    return vm_users_dz_script(m, line, text, len, name, timeout_s, seed, err, errlen);
}

/* The second machine's medium: the same file when read-only, else a
 * private copy of it (in TMPDIR, removed once open), so that the two
 * machines write nothing in common; the check compares the two at its
 * end (vm_io_media_differ). */
static int twin_attach(struct vax_machine *t, const char *dev, const char *path, int readonly,
                       char *err, size_t errlen)
{
    if (readonly)
        return vm_io_attach(t, dev, path, 1, err, errlen);
    const char *dir = getenv("TMPDIR");
    char tmpl[4096];
    if (snprintf(tmpl, sizeof tmpl, "%s/spamctl-check-XXXXXX", dir && *dir ? dir : "/tmp") >=
        (int)sizeof tmpl) {
        snprintf(err, errlen, "TMPDIR is too long for the lock-step check's copy of %s", path);
        return -1;
    }
    if (io_media_copy(path, tmpl, err, errlen) < 0)
        return -1;
    int rc = vm_io_attach(t, dev, tmpl, 0, err, errlen);
    unlink(tmpl);
    return rc;
}

int vm_attach(struct vax_machine *m, const char *dev, const char *path, int readonly,
              char *err, size_t errlen)
{
    if (vm_io_attach(m, dev, path, readonly, err, errlen) < 0)
        return -1;
    struct vax_machine *t = vm_check_twin(m);
    if (t && twin_attach(t, dev, path, readonly, err, errlen) < 0)
        return -1;
    return 0;
}

int vm_ether_start(struct vax_machine *m, const struct io_netsrc_config *c,
                   io_netsrc_tap_fn tap, void *tap_ctx, char *err, size_t errlen)
{
    struct vax_machine *t = vm_check_twin(m);
    /* (the second machine's network is an identical one, without the tap) */
    if (t && vm_io_system(m) && vm_io_ether_start(t, c, NULL, NULL, err, errlen) < 0)
        return -1;
    return vm_io_ether_start(m, c, tap, tap_ctx, err, errlen);
}

int vm_net_configure(struct vax_machine *m, const struct vm_net_config *c, char *err,
                     size_t errlen)
{
    struct vax_machine *t = vm_check_twin(m);
    if (t)
        vm_net_setup(t, c, err, errlen);
    return vm_net_setup(m, c, err, errlen);
}

void vm_spam_set_options(struct vax_machine *m, uint32_t opts, uint32_t mask)
{
    struct vax_machine *t = vm_check_twin(m);
    if (t)
        vm_spam_options(t, opts, mask);
    vm_spam_options(m, opts, mask);
}

int vm_spam_console_enable(struct vax_machine *m, uint32_t slot, uint32_t start,
                           uint32_t end, char *err, size_t errlen)
{
    struct vax_machine *t = vm_check_twin(m);
    if (t)
        vm_spam_enable(t, slot, start, end, err, errlen);
    return vm_spam_enable(m, slot, start, end, err, errlen);
}

size_t vm_spam_drain(struct vax_machine *m, uint32_t *out, size_t max)
{
    size_t n = vm_spam_take(m, out, max);
    struct vax_machine *t = vm_check_twin(m);
    if (t) { /* the second machine's records must be the same */
        uint32_t sb[2 * 64];
        for (size_t i = 0; i < n;) {
            size_t k = vm_spam_take(t, sb, n - i < 64 ? n - i : 64);
            if (k == 0 || memcmp(sb, out + 2 * i, k * 2 * sizeof sb[0])) {
                vm_check_note(m, "a SPAM record drained by the host");
                break;
            }
            i += k;
        }
        if (t->ipr[VM_SPAM_COUNT] != m->ipr[VM_SPAM_COUNT])
            vm_check_note(m, "the SPAM record count");
    }
    return n;
}

/* ---- the probe unit (vm_probe.h), on both machines ---- */

int vm_probe_load(struct vax_machine *m, const struct prb_program *p, char *err, size_t errlen)
{
    struct vax_machine *t = vm_check_twin(m);
    if (t && vm_prb_load(t, p, err, errlen) < 0)
        return -1;
    return vm_prb_load(m, p, err, errlen);
}

int vm_probe_load_image(struct vax_machine *m, const uint8_t *img, size_t len, char *err,
                        size_t errlen)
{
    struct vax_machine *t = vm_check_twin(m);
    if (t && vm_prb_load_image(t, img, len, err, errlen) < 0)
        return -1;
    return vm_prb_load_image(m, img, len, err, errlen);
}

int vm_probe_unload(struct vax_machine *m, int handle)
{
    struct vax_machine *t = vm_check_twin(m);
    if (t)
        vm_prb_unload(t, handle);
    return vm_prb_unload(m, handle);
}

int vm_probe_arm_all(struct vax_machine *m, int handle, int on)
{
    struct vax_machine *t = vm_check_twin(m);
    if (t)
        vm_prb_arm_all(t, handle, on);
    return vm_prb_arm_all(m, handle, on);
}

void vm_probe_set_free(struct vax_machine *m, int on)
{
    struct vax_machine *t = vm_check_twin(m);
    if (t)
        vm_prb_set_free(t, on);
    vm_prb_set_free(m, on);
}

int vm_probe_map_clear(struct vax_machine *m, int handle, unsigned map)
{
    struct vax_machine *t = vm_check_twin(m);
    if (t)
        vm_prb_map_clear(t, handle, map);
    return vm_prb_map_clear(m, handle, map);
}
