/* bench_dispatch: what threaded dispatch costs on this host, apart from
 * the machine.  The trace cache (vax/machine/vm_tcache_exec.c) runs a
 * recorded path of handlers, each ending in `goto *u->h`; this program
 * runs the same shape on synthetic paths, to tell two suspects apart:
 *
 *   predict   a path of N handlers chosen at random among 12, repeated:
 *             if the host's indirect-branch predictor could not follow it,
 *             each dispatch would cost a misprediction (tens of cycles)
 *   chain     the same path, each handler reading the register the one
 *             before it wrote in a memory-resident register file (as
 *             microwords pass values through `rf[]`): a store-to-load
 *             dependence per handler
 *
 * Prints ns per dispatch for each; no pass or fail.
 * usage: bench_dispatch [DISPATCHES] (default 50 M per case) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct step {
    const void *h; /* the handler */
    unsigned src, dst;
};

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Runs `path` (n steps) `reps` times; returns ns per dispatch. */
static double run(int chain, unsigned n, long reps)
{
    const void *handlers[12];
    struct step *path = calloc(n + 1, sizeof *path);
    unsigned rf[64] = {0};
    if (!path)
        return -1;
    handlers[0] = &&h0, handlers[1] = &&h1, handlers[2] = &&h2, handlers[3] = &&h3;
    handlers[4] = &&h4, handlers[5] = &&h5, handlers[6] = &&h6, handlers[7] = &&h7;
    handlers[8] = &&h8, handlers[9] = &&h9, handlers[10] = &&h10, handlers[11] = &&h11;
    unsigned x = 12345; /* a fixed path: the same run every time */
    for (unsigned i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        path[i].h = handlers[(x >> 16) % 12];
        path[i].src = i % 32;                          /* the step before's dst ... */
        path[i].dst = chain ? (i + 1) % 32 : 32 + i % 32; /* ... or a register no one reads */
    }
    path[n].h = &&end;
    volatile unsigned *v = rf; /* every access is a memory access, as in the machine */
    const struct step *u = path;
    long rep = 0;
    double t0 = now_ns();
    goto *u->h;
#define HANDLER(k) h##k: v[u->dst] = v[u->src] + k; u++; goto *u->h;
    HANDLER(0) HANDLER(1) HANDLER(2) HANDLER(3) HANDLER(4) HANDLER(5)
    HANDLER(6) HANDLER(7) HANDLER(8) HANDLER(9) HANDLER(10) HANDLER(11)
#undef HANDLER
end:
    if (++rep < reps) {
        u = path;
        goto *u->h;
    }
    double ns = now_ns() - t0;
    free(path);
    return ns / ((double)n * (double)reps);
}

int main(int argc, char **argv)
{
    double total = argc > 1 ? atof(argv[1]) : 5e7;
    if (!(total >= 1000)) {
        fprintf(stderr, "usage: bench_dispatch [DISPATCHES >= 1000]\n");
        return 2;
    }
    static const unsigned lengths[] = {56, 1000};
    printf("%-8s %6s %14s\n", "case", "path", "ns/dispatch");
    for (int chain = 0; chain < 2; chain++)
        for (unsigned i = 0; i < 2; i++) {
            unsigned n = lengths[i];
            double ns = run(chain, n, (long)(total / n));
            if (ns < 0) {
                fprintf(stderr, "bench_dispatch: out of memory\n");
                return 1;
            }
            printf("%-8s %6u %14.2f\n", chain ? "chain" : "predict", n, ns);
        }
    return 0;
}
