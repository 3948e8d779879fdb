/* bench_machine: speed of the microcoded machine on a few loops.
 * Prints, per loop, microcycles per second, VAX instructions per second
 * and cycles per instruction (CPI), plus the cache counters.
 *
 *   bench_machine [SECONDS_PER_LOOP]      (default 1)                   */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vax/asm/vasm.h"
#include "vax/machine/vm.h"

static const struct {
    const char *name;
    const char *src;
} loops[] = {
    {"register-alu",
     "    movl $2000000000, r0\n"
     "1:  addl2 r1, r2\n"
     "    xorl2 r2, r3\n"
     "    incl r4\n"
     "    bicl3 $0xff, r3, r5\n"
     "    sobgtr r0, 1b\n"
     "    halt\n"},
    {"memory-copy",
     "    movl $2000000000, r0\n"
     "2:  movab buf, r1\n"
     "    movab buf+4096, r2\n"
     "    movl $256, r3\n"
     "1:  movl (r1)+, (r2)+\n"
     "    movl (r1)+, (r2)+\n"
     "    addl2 -8(r1), r4\n"
     "    sobgtr r3, 1b\n"
     "    sobgtr r0, 2b\n"
     "    halt\n"
     "buf: .space 8192\n"},
    {"calls-and-branches",
     "    movl $2000000000, r0\n"
     "1:  bsbb sub\n"
     "    cmpl r1, $100\n"
     "    blss 2f\n"
     "    clrl r1\n"
     "2:  movab 8(r1)[r2], r3\n"
     "    sobgtr r0, 1b\n"
     "    halt\n"
     "sub: incl r1\n"
     "    pushl r1\n"
     "    movl (sp)+, r2\n"
     "    rsb\n"},
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 1.0;
    if (seconds <= 0)
        seconds = 1.0;
    printf("%-20s %14s %14s %8s %10s %10s\n", "loop", "ucycles/s",
           "instr/s", "CPI", "hit-rate", "emul-MHz");
    int rc = 0;
    for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++) {
        struct vasm_source s = {loops[i].name, loops[i].src, strlen(loops[i].src)};
        struct vasm_options o = {.base = 0x1000, .entry_symbol = NULL};
        struct vasm_image img;
        struct vasm_diag d;
        memset(&d, 0, sizeof d);
        if (vasm_assemble(&s, 1, &o, &img, &d) < 0) {
            fprintf(stderr, "%s", d.text);
            return 1;
        }
        char err[200];
        struct vm_config cfg = {.memory_mb = 16, .ucode = NULL};
        struct vax_machine *m = vm_new(&cfg, err, sizeof err);
        if (!m) {
            fprintf(stderr, "bench_machine: %s\n", err);
            return 1;
        }
        vm_phys_write(m, img.base, img.bytes, img.size);
        vm_set_reg(m, 14, 0x8000);
        vm_set_reg(m, 15, img.base);
        /* run in slices until the time is up */
        uint64_t limit = 0;
        double t0 = now(), t;
        do {
            limit += 2000000;
            vm_run(m, limit);
            t = now() - t0;
        } while (!vm_halted(m) && t < seconds);
        struct vm_stats st;
        vm_get_stats(m, &st);
        if (vm_halted(m)) {
            fprintf(stderr, "%s: stopped early: %s\n", loops[i].name,
                    vm_stop_reason(m));
            rc = 1;
        }
        double refs = (double)(st.cache_hits + st.cache_misses);
        printf("%-20s %14.0f %14.0f %8.2f %9.4f%% %10.2f\n", loops[i].name,
               (double)st.microcycles / t, (double)st.instructions / t,
               (double)st.microcycles / (double)st.instructions,
               refs > 0 ? 100.0 * (double)st.cache_hits / refs : 0.0,
               (double)st.microcycles / t / 1e6);
        vm_free(m);
        vasm_image_free(&img);
    }
    printf("(the real 8600 runs 12.5 M microcycles/s; emul-MHz is ours)\n");
    return rc;
}
