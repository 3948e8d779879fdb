/* bench_perturb: SPAM's perturbation (issue 5, "Measurements"): the
 * microcycles the machine needs for a fixed amount of work with tracing
 * off and on, with the host drain (which costs the guest nothing).
 *
 *   bench_perturb PERTURB.BIN KERNEL.BIN [TICKS]
 *
 * PERTURB.BIN: tests/spam_machine/progs/perturb.s assembled at 0x1000, an
 * interrupt- and syscall-heavy loop of fixed length that HALTs: the metric
 * is microcycles to HALT, off against on (end to end: the trace microcode,
 * its cache misses and any work the workload loses to them).
 *
 * KERNEL.BIN: the bundled guest (vax/guest), shut down at a fixed tick
 * (default 300; cfg_netsim 2 so the IPL 12 handler runs).  Its run length
 * is fixed by the clock, not by the work, so end-to-end microcycles say
 * nothing; the metric is the microcycles the machine spends in the trace
 * microcode (spam.mic's TRACE.* words, stall cycles included, attributed
 * per microword through the utrace hook) relative to everything else it
 * did in the same ticks: the fraction by which tracing slows the guest's
 * work.  As a cross-check the instructions retired in the fixed ticks are
 * compared too (that one also contains the change in behaviour of the
 * guest's own reader, spamread, which reads records only when tracing is
 * on).  With tracing off each hook costs one microcycle where a machine
 * without SPAM would have done IRD in the flow's last word; that is printed
 * separately. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microcode/uasm.h"
#include "vax/machine/vm.h"
#include "vax/machine/vm_spam.h"

enum { CAT_OTHER, CAT_TRACE, CAT_INSN, NCAT };

static uint8_t cat_of[UCS_SIZE];
static int put_upc = -1; /* TRACE.PUT: entered once per record written */

struct attr {
    uint64_t last;
    uint16_t prev;
    int have;
    uint64_t cyc[NCAT];
    uint64_t written; /* records the microcode wrote (TRACE.PUT entries) */
};

/* Every microcycle (stalls included) is charged to the microword that
 * was executing: the cycles between two calls belong to the earlier word. */
static void attribute(void *ctx, const struct vax_machine *m, uint16_t upc)
{
    struct attr *a = ctx;
    struct vm_stats s;
    vm_get_stats(m, &s);
    if (a->have)
        a->cyc[cat_of[a->prev]] += s.microcycles - a->last;
    a->last = s.microcycles;
    a->written += upc == put_upc;
    a->prev = upc;
    a->have = 1;
}

static void classify(void)
{
    struct ucode_image img;
    char err[200];
    if (ucode_default_image(&img, err, sizeof err) < 0) {
        fprintf(stderr, "bench_perturb: %s\n", err);
        exit(1);
    }
    /* every word belongs to the nearest label at or below it; spam.mic's
     * labels are TRACE.* (the trace routine) and the six instructions */
    static const char *const insn[] = {"SPAM", "GETSTAT", "PAMMINIT", "SETPTRS",
                                       "ENABLE", "DISABLE", "READBUF"};
    for (uint32_t u = 0; u < UCS_SIZE; u++) {
        int best = -1;
        const char *name = "";
        for (size_t i = 0; i < img.nlabels; i++)
            if (img.labels[i].addr <= u && (int)img.labels[i].addr > best) {
                best = img.labels[i].addr;
                name = img.labels[i].name;
            }
        cat_of[u] = CAT_OTHER;
        if (strncmp(name, "TRACE.", 6) == 0)
            cat_of[u] = CAT_TRACE;
        for (size_t k = 0; k < sizeof insn / sizeof *insn; k++)
            if (strncmp(name, insn[k], strlen(insn[k])) == 0 &&
                (name[strlen(insn[k])] == 0 || name[strlen(insn[k])] == '.'))
                cat_of[u] = CAT_INSN;
    }
    put_upc = ucode_label(&img, "TRACE.PUT");
    ucode_image_free(&img);
}

static uint8_t *slurp(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    if (!f) {
        perror(p);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*n ? *n : 1);
    if (!b || fread(b, 1, *n, f) != *n) {
        perror(p);
        exit(1);
    }
    fclose(f);
    return b;
}

struct result {
    struct vm_stats st;
    struct attr a;
    uint64_t records;
    int halted;
};

/* One run to HALT (or max_cycles): traced = the console setup of
 * `spamctl run -o` and a host drain every 262144 microcycles. */
static struct result run(const uint8_t *img, size_t n, uint32_t load, uint32_t mb,
                         int traced, uint64_t max_cycles)
{
    struct result r;
    memset(&r, 0, sizeof r);
    char err[200];
    struct vm_config cfg = {.memory_mb = mb, .ucode = NULL};
    struct vax_machine *m = vm_new(&cfg, err, sizeof err);
    if (!m || vm_phys_write(m, load, img, n) < 0) {
        fprintf(stderr, "bench_perturb: %s\n", m ? "image does not fit" : err);
        exit(1);
    }
    vm_set_reg(m, 15, load);
    vm_set_psl(m, 0x041F0000);
    FILE *devnull = fopen("/dev/null", "w");
    vm_console_output(m, devnull);
    vm_console_input(m, "", 0);
    if (traced) {
        struct vm_spam_state s;
        vm_spam_set_options(m, 0, VM_SPAM_DEFAULT_MASK);
        vm_spam_get(m, &s);
        if (vm_spam_console_enable(m, s.mb / (s.mb <= 128 ? 16 : 64) & 7, 0, 0, err,
                                   sizeof err) < 0) {
            fprintf(stderr, "bench_perturb: %s\n", err);
            exit(1);
        }
    }
    vm_set_utrace(m, attribute, &r.a);
    static uint32_t buf[2 * 4096];
    for (;;) {
        vm_get_stats(m, &r.st);
        uint64_t until = r.st.microcycles + 262144;
        if (until > max_cycles)
            until = max_cycles;
        enum vm_stop why = vm_run(m, until);
        while (why == VM_CYCLE_LIMIT && vm_spam_busy(m)) {
            vm_get_stats(m, &r.st);
            why = vm_run(m, r.st.microcycles + 1);
        }
        size_t k;
        while ((k = vm_spam_drain(m, buf, 4096)) > 0)
            r.records += k;
        vm_get_stats(m, &r.st);
        if (why != VM_CYCLE_LIMIT || r.st.microcycles >= max_cycles)
            break;
    }
    if (r.a.have)
        r.a.cyc[cat_of[r.a.prev]] += r.st.microcycles - r.a.last;
    r.halted = vm_halted(m);
    vm_free(m);
    fclose(devnull);
    return r;
}

static void show(const char *what, const struct result *r)
{
    printf("  %-4s %10" PRIu64 " microcycles %9" PRIu64 " instructions %6" PRIu64
           " records (%6" PRIu64 " host-drained); TRACE.* %8" PRIu64 ", FD00-FD05 %7" PRIu64
           " microcycles; cache misses %6" PRIu64 "%s\n",
           what, r->st.microcycles, r->st.instructions, r->a.written, r->records, r->a.cyc[CAT_TRACE],
           r->a.cyc[CAT_INSN], r->st.cache_misses, r->halted ? "" : " (NOT HALTED)");
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_perturb PERTURB.BIN KERNEL.BIN [TICKS]\n");
        return 2;
    }
    uint32_t ticks = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : 300;
    classify();
    int bad = 0;

    size_t n;
    uint8_t *p = slurp(argv[1], &n);
    struct result off = run(p, n, 0x1000, 16, 0, 100000000);
    struct result on = run(p, n, 0x1000, 16, 1, 100000000);
    free(p);
    printf("perturb.s (20000 x CHMK + 1 ms clock, fixed work): microcycles to HALT\n");
    show("off", &off);
    show("on", &on);
    double e2e = 100.0 * ((double)on.st.microcycles - (double)off.st.microcycles) /
                 (double)off.st.microcycles;
    printf("  perturbation (end to end, microcycles to finish): %.2f%%\n", e2e);
    printf("  trace microcode per record: %.1f microcycles; hooks with tracing off: %" PRIu64
           " microcycles (%.2f%% of the run)\n",
           (double)(on.a.cyc[CAT_TRACE] - off.a.cyc[CAT_TRACE]) / (double)(on.a.written ? on.a.written : 1),
           off.a.cyc[CAT_TRACE], 100.0 * (double)off.a.cyc[CAT_TRACE] / (double)off.st.microcycles);
    bad |= !off.halted || !on.halted;

    uint8_t *k = slurp(argv[2], &n);
    if (n >= 0x20) {
        memcpy(k + 0x14, &ticks, 4); /* cfg_ticks (little-endian host) */
        uint32_t netsim = 2;
        memcpy(k + 0x1C, &netsim, 4);
    }
    uint64_t max = (uint64_t)ticks * 125000 * 3;
    struct result goff = run(k, n, 0, 8, 0, max);
    struct result gon = run(k, n, 0, 8, 1, max);
    free(k);
    printf("guest kernel, %u ticks (fixed time): microcycles spent in the trace microcode\n", ticks);
    show("off", &goff);
    show("on", &gon);
    uint64_t extra = gon.a.cyc[CAT_TRACE]; /* the 2-cycle hooks included */
    double g = 100.0 * (double)extra / (double)(gon.st.microcycles - extra);
    printf("  perturbation (TRACE.* microcycles / the rest of the run): %.2f%%"
           " (%.1f records per tick, %.1f microcycles per record)\n",
           g, (double)gon.a.written / ticks,
           (double)extra / (double)(gon.a.written ? gon.a.written : 1));
    printf("  cross-check, instructions retired in the same ticks: off %" PRIu64 ", on %" PRIu64
           " (%.2f%% fewer; includes spamread's reading)\n",
           goff.st.instructions, gon.st.instructions,
           100.0 * ((double)goff.st.instructions - (double)gon.st.instructions) /
               (double)goff.st.instructions);
    bad |= !goff.halted || !gon.halted;
    return bad;
}
