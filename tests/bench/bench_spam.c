/* bench_spam: throughput of the trace tools on a synthetic trace in the
 * page cache, one core, and compression against gzip -9 and xz -9; then the
 * same on real traces of the emulated machine: a 30-second 'spamctl demo'
 * run made at benchmark time (skipped with a note when the demo cannot
 * run) and any trace files named after MILLION_RECORDS.
 *
 *   bench_spam SPAMCTL GEN_TRACE WORKDIR [MILLION_RECORDS [REAL_TRACE...]]
 *
 * Prints records/s of 'spamctl stat' and 'spamctl hist' run on the trace
 * (the commands end to end, spawned without a shell, per CPU second of the
 * process, best of runs totalling 0.5 s), of the library loops alone (reader +
 * decoder + the accounting), the compressed size against
 * gzip -9 and xz -9 of the same raw file, and compress / decompress MB/s
 * (of raw trace bytes). */
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "spam/spam_compress.h"
#include "spam/spam_decode.h"
#include "spam/spam_hist.h"
#include "spam/spam_reader.h"

/* CPU seconds of this process plus its waited-for children: rates are
 * per CPU second on one core, so a loaded machine skews them less than
 * wall-clock time would. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 + (double)ru.ru_utime.tv_sec +
           (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static uint64_t fsize(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static struct spam_reader *open_trace(const char *p, int *fd)
{
    struct spam_err err;
    *fd = open(p, O_RDONLY);
    struct spam_reader *r = *fd < 0 ? NULL : spam_reader_open_fd(*fd, &err);
    if (!r) {
        fprintf(stderr, "bench: %s: cannot read\n", p);
        exit(1);
    }
    return r;
}

struct counts {
    uint64_t cls[16], ipl[32], vec[3][4096], pid[65537];
};

static inline void stat_fn(void *ctx, const struct spam_event *e)
{
    struct counts *c = ctx;
    c->cls[e->cls]++;
    c->vec[e->cls % 3][e->ev & 0xFFF]++;
    c->ipl[spam_psl_ipl(e->psl_hi)]++;
    c->pid[e->pid + 1]++;
}

struct hctx {
    struct spam_hist **g;
    uint64_t matched;
};

static inline void hist_fn(void *ctx, const struct spam_event *e)
{
    struct hctx *h = ctx;
    if (e->cls != SPAM_CLASS_REI || (e->flags & SPAM_EVF_UNMATCHED))
        return;
    struct spam_hist *x = h->g[e->open_ev];
    if (!x) {
        x = h->g[e->open_ev] = malloc(2 * sizeof *x);
        spam_hist_init(&x[0]);
        spam_hist_init(&x[1]);
    }
    spam_hist_record(&x[0], e->incl_us);
    spam_hist_record(&x[1], e->excl_us);
    h->matched++;
}

/* The stat loop: decode (with service times) and count per class, vector,
 * IPL and process. */
static uint64_t run_stat(const char *p, uint64_t *events)
{
    int fd;
    struct spam_reader *r = open_trace(p, &fd);
    struct spam_decoder *d = spam_decoder_new(spam_reader_header(r), NULL);
    struct counts *c = calloc(1, sizeof *c);
    const struct spam_record *recs;
    size_t n;
    uint64_t total = 0;
    while (spam_reader_next(r, &recs, &n) == SPAM_READ_RECORDS) {
        total += n;
        spam_decode_run(d, recs, n, stat_fn, c);
    }
    *events = 0;
    for (int k = 0; k < 16; k++)
        *events += c->cls[k];
    free(c);
    spam_decoder_free(d);
    spam_reader_close(r);
    close(fd);
    return total;
}

/* The hist loop: decode, and record inclusive and exclusive service time
 * of every matched REI in its event's histograms. */
static uint64_t run_hist(const char *p, uint64_t *matched)
{
    int fd;
    struct spam_reader *r = open_trace(p, &fd);
    struct spam_decoder *d = spam_decoder_new(spam_reader_header(r), NULL);
    struct spam_hist **g = calloc(65536, sizeof *g);
    struct hctx h = {g, 0};
    const struct spam_record *recs;
    size_t n;
    uint64_t total = 0;
    while (spam_reader_next(r, &recs, &n) == SPAM_READ_RECORDS) {
        total += n;
        spam_decode_run(d, recs, n, hist_fn, &h);
    }
    *matched = h.matched;
    for (size_t k = 0; k < 65536; k++)
        free(g[k]);
    free(g);
    spam_decoder_free(d);
    spam_reader_close(r);
    close(fd);
    return total;
}

static uint64_t run_compress(const char *in, const char *out, int level)
{
    int fd;
    struct spam_reader *r = open_trace(in, &fd);
    int ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    struct spam_err err;
    size_t hl;
    const uint8_t *hb = spam_reader_header_bytes(r, &hl);
    struct spam_compressor *c = spam_compressor_new(ofd, hb, hl, level, &err);
    const struct spam_record *recs;
    size_t n;
    while (spam_reader_next(r, &recs, &n) == SPAM_READ_RECORDS)
        spam_compressor_add(c, recs, n, &err);
    uint64_t bytes = 0;
    spam_compressor_finish(c, NULL, 0, &bytes, &err);
    close(ofd);
    spam_reader_close(r);
    close(fd);
    return bytes;
}

static uint64_t run_read(const char *p)
{
    int fd;
    struct spam_reader *r = open_trace(p, &fd);
    const struct spam_record *recs;
    size_t n;
    uint64_t total = 0, x = 0;
    while (spam_reader_next(r, &recs, &n) == SPAM_READ_RECORDS) {
        total += n;
        for (size_t i = 0; i < n; i++) /* touch every record */
            x += recs[i].w0 ^ recs[i].w1;
    }
    spam_reader_close(r);
    close(fd);
    if (x == 42)
        fputc(' ', stderr); /* keep the sum */
    return total;
}

/* Best CPU time of fn over repeated runs totalling at least 0.5 s (small
 * real traces finish in milliseconds). */
static double timed(uint64_t (*fn)(const char *, const char *, int), const char *a, const char *b, int lv,
                    uint64_t *res)
{
    double best = 1e9, total = 0;
    for (int i = 0; i < 3 || total < 0.5; i++) {
        double t0 = now();
        *res = fn(a, b, lv);
        double dt = now() - t0;
        total += dt;
        best = dt < best ? dt : best;
    }
    return best;
}

static uint64_t t_compress(const char *a, const char *b, int lv) { return run_compress(a, b, lv); }
static uint64_t t_read(const char *a, const char *b, int lv) { (void)b, (void)lv; return run_read(a); }
static uint64_t t_stat(const char *a, const char *b, int lv)
{
    (void)b, (void)lv;
    uint64_t ev;
    return run_stat(a, &ev);
}
static uint64_t t_hist(const char *a, const char *b, int lv)
{
    (void)b, (void)lv;
    uint64_t m;
    return run_hist(a, &m);
}

/* One run of 'spamctl CMD --json FILE >/dev/null', spawned directly (no
 * shell, whose start-up would be charged to the command); exits on failure. */
static void spamctl_once(const char *spamctl, const char *cmd, const char *file)
{
    extern char **environ;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    char *args[] = {(char *)spamctl, (char *)cmd, "--json", (char *)file, NULL};
    pid_t pid;
    int st = 0;
    if (posix_spawn(&pid, spamctl, &fa, NULL, args, environ) != 0 || waitpid(pid, &st, 0) != pid ||
        !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "bench: '%s %s --json %s' failed\n", spamctl, cmd, file);
        exit(1);
    }
    posix_spawn_file_actions_destroy(&fa);
}

/* The command end to end: best CPU time (user + system of the process, its
 * start-up included) over runs totalling at least 0.5 s, at least 3. */
static double timed_cmd(const char *spamctl, const char *cmd, const char *file)
{
    double best = 1e9, total = 0;
    for (int i = 0; i < 3 || total < 0.5; i++) {
        double t0 = now();
        spamctl_once(spamctl, cmd, file);
        double dt = now() - t0;
        total += dt;
        best = dt < best ? dt : best;
    }
    return best;
}

static uint64_t tool_size(const char *cmd, const char *file, double *secs)
{
    char c[1024];
    snprintf(c, sizeof c, "%s -c '%s' | wc -c", cmd, file);
    double t0 = now();
    FILE *p = popen(c, "r");
    unsigned long long v = 0;
    if (!p || fscanf(p, "%llu", &v) != 1)
        v = 0;
    if (p)
        pclose(p);
    *secs = now() - t0;
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_spam SPAMCTL GEN_TRACE WORKDIR [MILLION_RECORDS]\n");
        return 2;
    }
    const char *spamctl = argv[1], *gen = argv[2], *work = argv[3];
    double mrec = argc > 4 ? atof(argv[4]) : 32;
    char big[512], small[512], cmd[2048], zf[600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", work);
    if (system(cmd) != 0)
        return 1;
    /* the generator writes about 2360 records per simulated second */
    uint64_t ms = (uint64_t)(mrec * 1e6 / 2.36);
    snprintf(big, sizeof big, "%s/bench-%.0fM.trace", work, mrec);
    snprintf(small, sizeof small, "%s/bench-ratio.trace", work);
    if (fsize(big) == 0) {
        snprintf(cmd, sizeof cmd, "'%s' --seed 42 --ms %" PRIu64 " '%s'", gen, ms, big);
        if (system(cmd) != 0)
            return 1;
    }
    if (fsize(small) == 0) {
        snprintf(cmd, sizeof cmd, "'%s' --seed 43 --ms 1800000 '%s'", gen, small); /* 30 min, ~34 MB */
        if (system(cmd) != 0)
            return 1;
    }
    run_read(big); /* into the page cache */
    printf("trace: %s, %.1f MB, in the page cache; rates per CPU second (user + system)\n", big,
           (double)fsize(big) / 1e6);
    double best_s = 1e9, best_h = 1e9, best_r = 1e9;
    uint64_t recs = 0, events = 0, matched = 0;
    for (int i = 0; i < 3; i++) {
        double t0 = now();
        run_read(big);
        double t1 = now();
        recs = run_stat(big, &events);
        double t2 = now();
        run_hist(big, &matched);
        double t3 = now();
        best_r = t1 - t0 < best_r ? t1 - t0 : best_r;
        best_s = t2 - t1 < best_s ? t2 - t1 : best_s;
        best_h = t3 - t2 < best_h ? t3 - t2 : best_h;
    }
    double cs = timed_cmd(spamctl, "stat", big), ch = timed_cmd(spamctl, "hist", big);
    printf("spamctl stat %7.1f M records/s  (the command end to end, per CPU second; target >= 100)\n",
           (double)recs / cs / 1e6);
    printf("spamctl hist %7.1f M records/s  (the command end to end, per CPU second; target >= 100)\n",
           (double)recs / ch / 1e6);
    printf("read only   %8.1f M records/s\n", (double)recs / best_r / 1e6);
    printf("stat loop   %8.1f M records/s  (%" PRIu64 " records, %" PRIu64 " events; with service times)\n",
           (double)recs / best_s / 1e6, recs, events);
    printf("hist loop   %8.1f M records/s  (%" PRIu64 " service times)\n",
           (double)recs / best_h / 1e6, matched);

    uint64_t raw = fsize(small);
    run_read(small);
    double tg, tx;
    uint64_t gz = tool_size("gzip -9", small, &tg);
    uint64_t xz = tool_size("xz -9 -T1", small, &tx);
    printf("\ncompression of %s (%.1f MB raw)\n", small, (double)raw / 1e6);
    printf("  gzip -9           %10" PRIu64 " bytes  %5.2fx  %6.1f MB/s\n", gz, (double)raw / (double)gz,
           (double)raw / tg / 1e6);
    printf("  xz -9             %10" PRIu64 " bytes  %5.2fx  %6.1f MB/s\n", xz, (double)raw / (double)xz,
           (double)raw / tx / 1e6);
    int levels[] = {1, 3, 6, 9};
    for (unsigned k = 0; k < 4; k++) {
        snprintf(zf, sizeof zf, "%s.z%d", small, levels[k]);
        double bc = 1e9, bd = 1e9;
        uint64_t zb = 0;
        for (int i = 0; i < 3; i++) {
            double t0 = now();
            zb = run_compress(small, zf, levels[k]);
            double t1 = now();
            run_read(zf);
            double t2 = now();
            bc = t1 - t0 < bc ? t1 - t0 : bc;
            bd = t2 - t1 < bd ? t2 - t1 : bd;
        }
        printf("  spamctl -%d        %10" PRIu64 " bytes  %5.2fx  compress %6.1f MB/s, decompress %6.1f MB/s;"
               " %.2fx smaller than gzip -9, %.2fx than xz -9%s\n",
               levels[k], zb, (double)raw / (double)zb, (double)raw / bc / 1e6, (double)raw / bd / 1e6,
               (double)gz / (double)zb, (double)xz / (double)zb, levels[k] == 3 ? " (default)" : "");
    }

    /* Real traces: the demo (targets: >= 3x smaller than gzip -9, >= 2x
     * than xz -9, compress >= 100 MB/s, decompress >= 300 MB/s). */
    char demo[600];
    snprintf(demo, sizeof demo, "%s/demo-30s.spam", work);
    if (fsize(demo) == 0) {
        snprintf(cmd, sizeof cmd, "'%s' demo --os ours --duration 30 -o '%s' >/dev/null 2>&1", spamctl,
                 demo);
        if (system(cmd) != 0 || fsize(demo) == 0)
            printf("\n(spamctl demo did not run: no real demo trace; %s)\n", cmd);
    }
    const char *real[64];
    int nreal = 0;
    if (fsize(demo) > 0)
        real[nreal++] = demo;
    for (int a = 5; a < argc && nreal < 64; a++)
        real[nreal++] = argv[a];
    for (int k = 0; k < nreal; k++) {
        const char *f = real[k];
        raw = fsize(f);
        if (raw == 0) {
            printf("\n%s: missing\n", f);
            continue;
        }
        run_read(f);
        gz = tool_size("gzip -9", f, &tg);
        xz = tool_size("xz -9 -T1", f, &tx);
        snprintf(zf, sizeof zf, "%s/real-%d.spz", work, k);
        uint64_t zb = 0, nrec = 0;
        double bc = timed(t_compress, f, zf, 3, &zb);
        double bd = timed(t_read, zf, NULL, 0, &nrec);
        double bs = timed(t_stat, f, NULL, 0, &nrec);
        double bh = timed(t_hist, f, NULL, 0, &nrec);
        double cs2 = timed_cmd(spamctl, "stat", f), ch2 = timed_cmd(spamctl, "hist", f);
        printf("\nreal trace %s (%.2f MB raw, %" PRIu64 " records)\n", f, (double)raw / 1e6, nrec);
        printf("  gzip -9 %" PRIu64 ", xz -9 %" PRIu64 ", spamctl %" PRIu64 " bytes (%.2fx raw)\n", gz, xz, zb,
               (double)raw / (double)zb);
        printf("  spamctl is %.2fx smaller than gzip -9 (target >= 3), %.2fx than xz -9 (target >= 2)\n",
               (double)gz / (double)zb, (double)xz / (double)zb);
        printf("  compress %.1f MB/s (target >= 100), decompress %.1f MB/s (target >= 300), %.1f M records/s\n",
               (double)raw / bc / 1e6, (double)raw / bd / 1e6, (double)nrec / bd / 1e6);
        printf("  spamctl stat %.1f M records/s, spamctl hist %.1f M records/s (the commands end to end,\n"
               "  per CPU second, start-up included; target >= 100)\n",
               (double)nrec / cs2 / 1e6, (double)nrec / ch2 / 1e6);
        printf("  stat loop %.1f M records/s, hist loop %.1f M records/s (raw, in the page cache)\n",
               (double)nrec / bs / 1e6, (double)nrec / bh / 1e6);
    }
    return 0;
}
