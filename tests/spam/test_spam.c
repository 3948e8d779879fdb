/* libspam unit tests: decoder against the generator's ground truth
 * (counter wraps, nesting, context switches, drops, a cut-off final pair),
 * reader errors, the writer's killed-run prefix, compression round trip
 * and corrupt blocks, the histogram; the file CRC, short traces, a file
 * shrinking under its reader, a failing writer (issue 20).
 *
 *   test_spam GEN_TRACE WORKDIR */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include "microcode/le.h"
#include "spam/spam_compress.h"
#include "spam/spam_decode.h"
#include "spam/spam_hist.h"
#include "spam/spam_reader.h"
#include "spam/spam_writer.h"
#include "spam/spam_zfmt.h"

static const char *gen_path, *work;

struct truth_rec {
    int present, ext;
    uint64_t t, ic, icc;
    unsigned pid;
};
struct truth_ev {
    int present;
    int64_t open;
    unsigned ev;
    uint64_t incl, excl;
};
struct truth {
    size_t n;
    struct truth_rec *r;
    struct truth_ev *e; /* indexed by REI record index */
    uint64_t dropped;
    int64_t cut;
    size_t nevents;
};

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

static void generate(const char *opts, const char *name, struct truth *t)
{
    char cmd[2048], tp[512], tr[512];
    snprintf(tr, sizeof tr, "%s/%s.trace", work, name);
    snprintf(tp, sizeof tp, "%s/%s.truth", work, name);
    snprintf(cmd, sizeof cmd, "'%s' %s --truth '%s' '%s'", gen_path, opts, tp, tr);
    assert_int_equal(system(cmd), 0);
    memset(t, 0, sizeof *t);
    t->cut = -1;
    FILE *f = fopen(tp, "r");
    assert_non_null(f);
    size_t cap = 1 << 16;
    t->r = calloc(cap, sizeof *t->r);
    t->e = calloc(cap, sizeof *t->e);
    char line[256];
    while (fgets(line, sizeof line, f)) {
        long long a, b;
        unsigned long long x, y, z;
        unsigned u;
        if (line[0] == 'D') {
            sscanf(line + 2, "%llu", &x);
            t->dropped = x;
            continue;
        }
        if (line[0] == 'C') {
            sscanf(line + 2, "%lld", &a);
            t->cut = a;
            continue;
        }
        sscanf(line + 2, "%lld", &a);
        while ((size_t)a >= cap) {
            t->r = realloc(t->r, 2 * cap * sizeof *t->r);
            t->e = realloc(t->e, 2 * cap * sizeof *t->e);
            memset(t->r + cap, 0, cap * sizeof *t->r);
            memset(t->e + cap, 0, cap * sizeof *t->e);
            cap *= 2;
        }
        if ((size_t)a + 1 > t->n)
            t->n = (size_t)a + 1;
        if (line[0] == 'R') {
            assert_int_equal(sscanf(line + 2, "%lld %llu %llu %llu %u", &a, &x, &y, &z, &u), 5);
            t->r[a] = (struct truth_rec){1, 0, x, y, z, u};
        } else if (line[0] == 'X') {
            t->r[a] = (struct truth_rec){1, 1, 0, 0, 0, 0};
        } else if (line[0] == 'E') {
            assert_int_equal(sscanf(line + 2, "%lld %lld %u %llu %llu", &a, &b, &u, &x, &y), 5);
            if ((size_t)b >= cap)
                fail_msg("E line beyond records");
            t->e[b] = (struct truth_ev){1, a, u, x, y};
            t->nevents++;
        }
    }
    fclose(f);
}

static void free_truth(struct truth *t)
{
    free(t->r);
    free(t->e);
}

struct result {
    uint64_t events, matched, checked_excl, gaps;
};

/* Decodes NAME and checks every event against the truth.  exact: compare
 * icount and exclusive time everywhere (no drops). */
static struct spam_decoder *check(const char *name, const struct truth *t, int correct, int exact,
                                  struct result *res)
{
    char tr[512];
    snprintf(tr, sizeof tr, "%s/%s.trace", work, name);
    size_t len;
    uint8_t *data = slurp(tr, &len);
    struct spam_err err;
    struct spam_reader *r = spam_reader_open_mem(data, len, &err);
    assert_non_null(r);
    struct spam_decode_opts o = {.correct_icount = correct};
    struct spam_decoder *d = spam_decoder_new(spam_reader_header(r), &o);
    memset(res, 0, sizeof *res);
    const struct spam_record *recs;
    size_t n;
    int rc;
    struct spam_event e;
    int64_t seg_base = -1; /* after a gap, compare icount differences */
    uint64_t seg_ic = 0, seg_truth = 0, seg_t = 0, seg_truth_t = 0;
    while ((rc = spam_reader_next(r, &recs, &n)) != SPAM_READ_END) {
        for (size_t i = 0; i < n; i++) {
            if (!spam_decode_step(d, recs[i], &e))
                continue;
            res->events++;
            assert_true(e.index < t->n);
            const struct truth_rec *tr0 = &t->r[e.index];
            assert_true(tr0->present && !tr0->ext);
            uint64_t want = correct ? tr0->icc : tr0->ic;
            if (e.flags & SPAM_EVF_GAP) {
                /* A gap longer than the counters span loses whole ICR
                 * periods and 65536-instruction wraps: from here on only
                 * differences within the segment are exact. */
                res->gaps++;
                seg_base = (int64_t)e.index;
                seg_ic = e.icount;
                seg_truth = want;
                seg_t = e.t_us;
                seg_truth_t = tr0->t;
            }
            if (seg_base < 0) {
                assert_int_equal(e.t_us, tr0->t);
                assert_int_equal(e.icount, want);
            } else {
                assert_int_equal(e.t_us - seg_t, tr0->t - seg_truth_t);
                assert_int_equal(e.icount - seg_ic, want - seg_truth);
            }
            if (e.cls != SPAM_CLASS_LDPCTX && e.pid >= 0)
                assert_int_equal((unsigned)e.pid, tr0->pid);
            if (e.cls == SPAM_CLASS_REI && !(e.flags & SPAM_EVF_UNMATCHED)) {
                res->matched++;
                const struct truth_ev *te = &t->e[e.index];
                if (!te->present)
                    fail_msg("record %llu: REI matched to %llu, truth has no such event",
                             (unsigned long long)e.index, (unsigned long long)e.open_index);
                assert_int_equal(e.open_index, (uint64_t)te->open);
                assert_int_equal(e.open_ev, te->ev);
                assert_int_equal(e.incl_us, te->incl);
                if (exact) {
                    assert_int_equal(e.excl_us, te->excl);
                    res->checked_excl++;
                }
            }
        }
    }
    if (spam_decoder_finish(d, &e)) {
        assert_true(e.flags & SPAM_EVF_CUTOFF);
        assert_int_equal((int64_t)e.index, t->cut);
        res->events++;
    } else {
        assert_int_equal(t->cut, -1);
    }
    assert_int_equal(spam_reader_header(r)->dropped, t->dropped);
    spam_reader_close(r);
    free(data);
    return d;
}

static void test_truth_clean(void **state)
{
    (void)state;
    for (int seed = 1; seed <= 4; seed++) {
        char opts[64], name[32];
        snprintf(opts, sizeof opts, "--seed %d --ms 3000", seed);
        snprintf(name, sizeof name, "clean%d", seed);
        struct truth t;
        generate(opts, name, &t);
        for (int correct = 0; correct < 2; correct++) {
            struct result res;
            struct spam_decoder *d = check(name, &t, correct, 1, &res);
            /* every completed event is matched, exactly */
            assert_int_equal(res.matched, t.nevents);
            assert_int_equal(res.checked_excl, t.nevents);
            assert_int_equal(res.gaps, 0);
            for (int k = 0; k < SPAM_W_KINDS; k++)
                assert_int_equal(d->counts[k], 0);
            /* the trace spans many wraps of both counters */
            assert_true(d->t_us > 40 * 65536ull);
            assert_true(d->icount > 100 * 65536ull);
            spam_decoder_free(d);
        }
        free_truth(&t);
    }
}

static void test_truth_drops_and_cut(void **state)
{
    (void)state;
    struct truth t;
    generate("--seed 7 --ms 3000 --drops --cut", "drops", &t);
    assert_true(t.dropped > 0);
    assert_true(t.cut >= 0);
    struct result res;
    struct spam_decoder *d = check("drops", &t, 0, 0, &res);
    assert_int_equal(d->counts[SPAM_W_RESYNC], 1);
    assert_int_equal(d->counts[SPAM_W_CUTOFF], 1);
    assert_true(res.gaps >= 1);
    assert_true(res.matched > t.nevents * 9 / 10);
    spam_decoder_free(d);
    free_truth(&t);
}

/* spam_decode_run (streaming, state in registers) must give exactly the
 * events of spam_decode_step, in both modes. */
struct collect {
    struct spam_event *ev;
    size_t n, cap;
};

static void collect_fn(void *ctx, const struct spam_event *e)
{
    struct collect *c = ctx;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 1024;
        c->ev = realloc(c->ev, c->cap * sizeof *c->ev);
        assert_non_null(c->ev);
    }
    c->ev[c->n++] = *e;
}

static void same_event(const struct spam_event *a, const struct spam_event *b, int service)
{
    assert_int_equal(a->index, b->index);
    assert_int_equal(a->t_us, b->t_us);
    assert_int_equal(a->icount, b->icount);
    assert_int_equal(a->ev, b->ev);
    assert_int_equal(a->psl_hi, b->psl_hi);
    assert_int_equal(a->cls, b->cls);
    assert_int_equal(a->depth, b->depth);
    assert_int_equal(a->flags, b->flags);
    assert_int_equal(a->pid, b->pid);
    assert_int_equal(a->uid, b->uid);
    if (service && a->cls == SPAM_CLASS_REI && !(a->flags & SPAM_EVF_UNMATCHED)) {
        assert_int_equal(a->open_index, b->open_index);
        assert_int_equal(a->open_t_us, b->open_t_us);
        assert_int_equal(a->open_ev, b->open_ev);
        assert_int_equal(a->open_psl, b->open_psl);
        assert_int_equal(a->incl_us, b->incl_us);
        assert_int_equal(a->excl_us, b->excl_us);
    }
    if (a->cls == SPAM_CLASS_LDPCTX) {
        assert_int_equal(a->major, b->major);
        assert_int_equal(a->minor, b->minor);
        assert_int_equal(a->inode, b->inode);
    }
}

static void test_run_equals_step(void **state)
{
    (void)state;
    struct truth t;
    generate("--seed 13 --ms 4000 --drops --cut", "runstep", &t);
    free_truth(&t);
    char tr[512];
    snprintf(tr, sizeof tr, "%s/runstep.trace", work);
    size_t len;
    uint8_t *data = slurp(tr, &len);
    for (int mode = 0; mode < 4; mode++) {
        struct spam_decode_opts o = {.correct_icount = mode & 1, .no_service = mode >> 1};
        struct spam_err err;
        struct spam_reader *r1 = spam_reader_open_mem(data, len, &err);
        struct spam_reader *r2 = spam_reader_open_mem(data, len, &err);
        struct spam_decoder *d1 = spam_decoder_new(spam_reader_header(r1), &o);
        struct spam_decoder *d2 = spam_decoder_new(spam_reader_header(r2), &o);
        struct collect a = {0}, b = {0};
        const struct spam_record *recs;
        size_t n;
        struct spam_event e;
        while (spam_reader_next(r1, &recs, &n) == SPAM_READ_RECORDS)
            for (size_t i = 0; i < n; i++)
                if (spam_decode_step(d1, recs[i], &e))
                    collect_fn(&a, &e);
        /* odd batch sizes, so batches split LDPCTX pairs */
        while (spam_reader_next(r2, &recs, &n) == SPAM_READ_RECORDS)
            for (size_t i = 0; i < n; i += 777)
                spam_decode_run(d2, recs + i, n - i < 777 ? n - i : 777, collect_fn, &b);
        if (spam_decoder_finish(d1, &e))
            collect_fn(&a, &e);
        if (spam_decoder_finish(d2, &e))
            collect_fn(&b, &e);
        assert_int_equal(a.n, b.n);
        assert_true(a.n > 1000);
        for (size_t i = 0; i < a.n; i++)
            same_event(&a.ev[i], &b.ev[i], !o.no_service);
        for (int k = 0; k < SPAM_W_KINDS; k++)
            assert_int_equal(d1->counts[k], d2->counts[k]);
        assert_int_equal(spam_decoder_open_events(d1), spam_decoder_open_events(d2));
        free(a.ev);
        free(b.ev);
        spam_decoder_free(d1);
        spam_decoder_free(d2);
        spam_reader_close(r1);
        spam_reader_close(r2);
    }
    free(data);
}

/* A microsecond field outside ICR's range (0xD8F0..0xFFFF with NICR =
 * -10000), as written while the clock is not running, must not make time
 * jump by ~2^32: the step is unknown, flagged as a gap, and time stays. */
static void test_usec_out_of_range(void **state)
{
    (void)state;
    struct spam_header h;
    spam_header_init(&h);
    struct spam_decoder *d = spam_decoder_new(&h, NULL);
    assert_non_null(d);
    struct spam_record recs[3] = {
        {0xD9000001u, 0x00186001u},                       /* marker, first */
        {0xE0000002u, (uint32_t)0x0018 << 16 | 0x10C0u},  /* +1792 us */
        {0x00100003u, (uint32_t)0x0018 << 16 | 0x10C0u},  /* usec 0x0010: out of range */
    };
    struct spam_event e;
    uint64_t t1 = 0;
    for (int i = 0; i < 3; i++) {
        if (!spam_decode_step(d, recs[i], &e))
            continue;
        if (i == 1) {
            t1 = e.t_us;
            assert_int_equal(t1, 0xE000 - 0xD8F0);
        }
        if (i == 2) {
            assert_true(e.flags & SPAM_EVF_GAP);
            assert_int_equal(e.t_us, t1);
        }
    }
    spam_decoder_free(d);
}

static void test_truncated_record(void **state)
{
    (void)state;
    struct truth t;
    generate("--seed 9 --ms 500 --trunc 5", "torn", &t);
    char tr[512];
    snprintf(tr, sizeof tr, "%s/torn.trace", work);
    size_t len;
    uint8_t *data = slurp(tr, &len);
    struct spam_err err;
    struct spam_reader *r = spam_reader_open_mem(data, len, &err);
    assert_non_null(r);
    const struct spam_record *recs;
    size_t n, total = 0;
    int rc, damages = 0;
    while ((rc = spam_reader_next(r, &recs, &n)) != SPAM_READ_END) {
        if (rc == SPAM_READ_DAMAGE) {
            damages++;
            assert_int_equal(spam_reader_err(r)->offset, len - 5);
            assert_non_null(strstr(spam_reader_err(r)->msg, "truncated last record"));
        }
        total += n;
    }
    assert_int_equal(damages, 1);
    assert_int_equal(total, t.n);
    assert_int_equal(total, spam_reader_header(r)->records);
    spam_reader_close(r);
    free(data);
    free_truth(&t);
}

static void test_bad_headers(void **state)
{
    (void)state;
    uint8_t h[128];
    struct spam_header hd;
    spam_header_init(&hd);
    spam_header_encode(&hd, h);
    struct spam_err err;
    struct spam_reader *r = spam_reader_open_mem(h, sizeof h, &err);
    assert_non_null(r);
    spam_reader_close(r);
    uint8_t b[128];
    memcpy(b, h, 128);
    b[0] = 'X';
    assert_null(spam_reader_open_mem(b, 128, &err));
    assert_int_equal(err.offset, 0);
    assert_non_null(strstr(err.msg, "magic"));
    memcpy(b, h, 128);
    b[8] = 3;
    assert_null(spam_reader_open_mem(b, 128, &err));
    assert_int_equal(err.offset, 8);
    assert_non_null(strstr(err.msg, "version"));
    memcpy(b, h, 128);
    b[10] = 100;
    assert_null(spam_reader_open_mem(b, 128, &err));
    assert_int_equal(err.offset, 10);
    assert_null(spam_reader_open_mem(h, 60, &err));
    assert_int_equal(err.offset, 60);
    assert_non_null(strstr(err.msg, "truncated header"));
    assert_null(spam_reader_open_mem(h, 0, &err));
}

static void test_writer_killed(void **state)
{
    (void)state;
    char p[512];
    snprintf(p, sizeof p, "%s/killed.trace", work);
    int fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
    struct spam_header h;
    spam_header_init(&h);
    struct spam_err err;
    struct spam_writer *w = spam_writer_open_fd(fd, &h, &err);
    assert_non_null(w);
    struct spam_record rec[100];
    for (int i = 0; i < 100; i++)
        rec[i] = (struct spam_record){(uint32_t)i << 16 | (uint32_t)i, SPAM_EVENT(SPAM_CLASS_CHM, i)};
    spam_writer_append(w, rec, 100);
    assert_int_equal(spam_writer_flush(w), 0);
    spam_writer_append(w, rec, 50); /* not flushed: lost with the writer */
    /* the file as a killed run leaves it (before the next flush) */
    size_t len;
    uint8_t *data = slurp(p, &len);
    assert_int_equal(len, 128 + 800);
    struct spam_reader *r = spam_reader_open_mem(data, len, &err);
    assert_non_null(r);
    assert_false(spam_reader_header(r)->flags & SPAM_FILE_FLAG_COMPLETE);
    const struct spam_record *recs;
    size_t n;
    assert_int_equal(spam_reader_next(r, &recs, &n), SPAM_READ_RECORDS);
    assert_int_equal(n, 100);
    assert_memory_equal(recs, rec, sizeof rec);
    spam_reader_close(r);
    free(data);
    assert_int_equal(spam_writer_close(w, &err), 0);
    data = slurp(p, &len);
    r = spam_reader_open_mem(data, len, &err);
    assert_true(spam_reader_header(r)->flags & SPAM_FILE_FLAG_COMPLETE);
    assert_int_equal(spam_reader_header(r)->records, 150);
    spam_reader_close(r);
    free(data);
}

/* Compresses a file through the library into memory. */
static uint8_t *compress_file(const char *path, size_t *zlen)
{
    size_t len;
    uint8_t *data = slurp(path, &len);
    struct spam_err err;
    struct spam_reader *r = spam_reader_open_mem(data, len, &err);
    assert_non_null(r);
    char zp[600];
    snprintf(zp, sizeof zp, "%s.z", path);
    int fd = open(zp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    size_t hl;
    const uint8_t *hb = spam_reader_header_bytes(r, &hl);
    struct spam_compressor *c = spam_compressor_new(fd, hb, hl, 6, &err);
    assert_non_null(c);
    const struct spam_record *recs;
    size_t n;
    int rc;
    while ((rc = spam_reader_next(r, &recs, &n)) != SPAM_READ_END)
        if (rc == SPAM_READ_RECORDS)
            assert_int_equal(spam_compressor_add(c, recs, n, &err), 0);
    size_t tl;
    const uint8_t *tail = spam_reader_tail(r, &tl);
    assert_int_equal(spam_compressor_finish(c, tail, tl, NULL, &err), 0);
    close(fd);
    spam_reader_close(r);
    free(data);
    return slurp(zp, zlen);
}

static uint64_t t_total(const uint8_t *raw, size_t len)
{
    (void)raw;
    return (len - 128) / 8;
}

/* Decompresses in memory into a raw image; returns damages. */
static int decompress_mem(const uint8_t *z, size_t zlen, uint8_t **out, size_t *olen, uint64_t *skipped)
{
    struct spam_err err;
    struct spam_reader *r = spam_reader_open_mem(z, zlen, &err);
    assert_non_null(r);
    assert_true(spam_reader_is_compressed(r));
    size_t hl, cap = 1 << 20, n;
    const uint8_t *hb = spam_reader_header_bytes(r, &hl);
    uint8_t *b = malloc(cap);
    memcpy(b, hb, hl);
    size_t k = hl;
    const struct spam_record *recs;
    int rc, damages = 0;
    while ((rc = spam_reader_next(r, &recs, &n)) != SPAM_READ_END) {
        if (rc == SPAM_READ_DAMAGE) {
            damages++;
            continue;
        }
        while (k + 8 * n + 8 > cap)
            b = realloc(b, cap *= 2);
        for (size_t i = 0; i < n; i++) {
            for (int j = 0; j < 4; j++) {
                b[k + j] = (uint8_t)(recs[i].w0 >> (8 * j));
                b[k + 4 + j] = (uint8_t)(recs[i].w1 >> (8 * j));
            }
            k += 8;
        }
    }
    size_t tl;
    const uint8_t *tail = spam_reader_tail(r, &tl);
    memcpy(b + k, tail, tl);
    k += tl;
    *skipped = spam_reader_skipped_records(r);
    spam_reader_close(r);
    *out = b;
    *olen = k;
    return damages;
}

static void test_compress_roundtrip(void **state)
{
    (void)state;
    struct truth t;
    generate("--seed 11 --ms 60000 --trunc 3", "zrt", &t); /* > 1 block, torn tail */
    free_truth(&t);
    char p[512];
    snprintf(p, sizeof p, "%s/zrt.trace", work);
    size_t len, zlen, olen;
    uint8_t *raw = slurp(p, &len);
    uint8_t *z = compress_file(p, &zlen);
    assert_true(zlen * 2 < len);
    uint8_t *out;
    uint64_t skipped;
    /* the torn tail is reported but restored */
    assert_int_equal(decompress_mem(z, zlen, &out, &olen, &skipped), 1);
    assert_int_equal(skipped, 0);
    assert_int_equal(olen, len);
    assert_memory_equal(out, raw, len);
    free(out);
    /* corrupt one byte inside the second block's payload: that block is
     * skipped and counted, the others survive */
    size_t hl = le_get32(z + 12), off = SPAM_Z_FILE_FIXED + hl;
    size_t b1 = SPAM_Z_BLOCK_HDR + le_get32(z + off + 12);
    size_t b2 = off + b1;
    uint32_t n2 = le_get32(z + b2 + 8);
    z[b2 + SPAM_Z_BLOCK_HDR + 10] ^= 0x40;
    assert_int_equal(decompress_mem(z, zlen, &out, &olen, &skipped), 2);
    assert_int_equal(skipped, n2);
    assert_int_equal(olen, len - 8 * n2);
    assert_memory_equal(out, raw, off - SPAM_Z_FILE_FIXED + 0); /* header */
    free(out);
    /* truncated compressed file: reported, what precedes kept */
    assert_true(decompress_mem(z, b2 + 5, &out, &olen, &skipped) >= 1);
    assert_int_equal(olen, len - 8 * (uint64_t)(t_total(raw, len) - le_get32(z + off + 8)) - 3);
    free(out);
    free(z);
    free(raw);
}

/* Writes `n` records (a counting pattern) through the writer into path. */
static void write_trace(const char *path, size_t n)
{
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    struct spam_header h;
    spam_header_init(&h);
    struct spam_err err;
    struct spam_writer *w = spam_writer_open_fd(fd, &h, &err);
    assert_non_null(w);
    for (size_t i = 0; i < n; i++) {
        struct spam_record r = {(uint32_t)(i * 0x10003u), SPAM_EVENT(SPAM_CLASS_CHM, i & 0x3FF)};
        assert_int_equal(spam_writer_append(w, &r, 1), 0);
    }
    assert_int_equal(spam_writer_close(w, &err), 0);
}

/* Reads a whole memory image; returns the damages, the last one's kind and
 * message in *kind / msg. */
static int read_all_mem(const uint8_t *data, size_t len, uint64_t *records, int *kind, char *msg)
{
    struct spam_err err;
    struct spam_reader *r = spam_reader_open_mem(data, len, &err);
    assert_non_null(r);
    const struct spam_record *recs;
    size_t n;
    int rc, damages = 0;
    *records = 0;
    while ((rc = spam_reader_next(r, &recs, &n)) != SPAM_READ_END) {
        if (rc == SPAM_READ_DAMAGE) {
            damages++;
            *kind = spam_reader_damage_kind(r);
            snprintf(msg, 200, "%s", spam_reader_err(r)->msg);
        }
        *records += n;
    }
    spam_reader_close(r);
    return damages;
}

/* Version 2: the CRC of a complete trace; a short trace and extra records
 * are damage at the end; version 1 (no CRC) is still read. */
static void test_crc_and_counts(void **state)
{
    (void)state;
    char p[512];
    snprintf(p, sizeof p, "%s/crc.trace", work);
    write_trace(p, 1000);
    size_t len;
    uint8_t *data = slurp(p, &len);
    assert_int_equal(len, 128 + 8000);
    assert_int_equal(le_get16(data + 8), 2);
    uint64_t recs;
    int kind = -1;
    char msg[200] = "";
    assert_int_equal(read_all_mem(data, len, &recs, &kind, msg), 0);
    assert_int_equal(recs, 1000);
    /* every byte but the CRC field itself is covered */
    for (size_t off = 8; off < len; off += 97) {
        if (off >= 96 && off < 100)
            continue;
        data[off] ^= 0x10;
        struct spam_err err;
        struct spam_reader *r = spam_reader_open_mem(data, len, &err);
        if (r) { /* a flipped version or size field may be refused at once */
            spam_reader_close(r);
            int d = read_all_mem(data, len, &recs, &kind, msg);
            assert_true(d >= 1);
            if (off >= 128 || (off >= 64 && off < 96))
                assert_int_equal(kind, SPAM_DAMAGE_CRC);
        }
        data[off] ^= 0x10;
    }
    /* short: whole records missing */
    assert_int_equal(read_all_mem(data, len - 80, &recs, &kind, msg), 1);
    assert_int_equal(kind, SPAM_DAMAGE_SHORT);
    assert_int_equal(recs, 990);
    assert_non_null(strstr(msg, "header says 1000 records, the file holds 990"));
    /* extra records after a complete run */
    uint8_t *more = malloc(len + 16);
    memcpy(more, data, len);
    memset(more + len, 0x5A, 16);
    assert_int_equal(read_all_mem(more, len + 16, &recs, &kind, msg), 1);
    assert_int_equal(kind, SPAM_DAMAGE_DATA);
    assert_non_null(strstr(msg, "the file holds 1002"));
    free(more);
    /* version 1: the same bytes without a CRC field are read clean */
    data[8] = 1;
    memset(data + 96, 0, 4);
    data[200] ^= 1;
    assert_int_equal(read_all_mem(data, len, &recs, &kind, msg), 0);
    free(data);
}

/* The compressed form carries the original header, CRC included, and the
 * reader checks it on the decompressed records. */
static void test_crc_compressed(void **state)
{
    (void)state;
    char p[512];
    snprintf(p, sizeof p, "%s/crcz.trace", work);
    write_trace(p, 70000);
    size_t zlen;
    uint8_t *z = compress_file(p, &zlen);
    uint64_t recs;
    int kind = -1;
    char msg[200] = "";
    assert_int_equal(read_all_mem(z, zlen, &recs, &kind, msg), 0);
    assert_int_equal(recs, 70000);
    free(z);
}

/* A file that shrinks while it is read is an error where the input ends,
 * never a signal (the reader does not map files). */
static void test_reader_shrink(void **state)
{
    (void)state;
    char p[512];
    snprintf(p, sizeof p, "%s/shrink.trace", work);
    write_trace(p, 500000); /* 4 MB: several reads */
    int fd = open(p, O_RDONLY);
    assert_true(fd >= 0);
    struct spam_err err;
    struct spam_reader *r = spam_reader_open_fd(fd, &err);
    assert_non_null(r);
    const struct spam_record *recs;
    size_t n;
    assert_int_equal(spam_reader_next(r, &recs, &n), SPAM_READ_RECORDS);
    assert_int_equal(truncate(p, 1000), 0);
    int rc, damages = 0;
    uint64_t total = n;
    while ((rc = spam_reader_next(r, &recs, &n)) != SPAM_READ_END) {
        if (rc == SPAM_READ_DAMAGE) {
            damages++;
            assert_non_null(strstr(spam_reader_err(r)->msg, "shrank"));
        }
        total += n;
    }
    assert_int_equal(damages, 1);
    assert_true(total < 500000);
    spam_reader_close(r);
    close(fd);
}

/* A directory is refused by name. */
static void test_reader_directory(void **state)
{
    (void)state;
    int fd = open(work, O_RDONLY);
    assert_true(fd >= 0);
    struct spam_err err;
    assert_null(spam_reader_open_fd(fd, &err));
    assert_non_null(strstr(err.msg, "is a directory"));
    close(fd);
}

/* A write that fails (a full disk: the file size limit here) stops the
 * writer: nothing is written after the hole, the cause is kept, the header
 * stays incomplete and the file reads as the prefix it is. */
static void test_writer_fails(void **state)
{
    (void)state;
    char p[512];
    snprintf(p, sizeof p, "%s/efbig.trace", work);
    int fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = 200000;
    void (*xfsz)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    struct spam_header h;
    spam_header_init(&h);
    struct spam_err err;
    struct spam_writer *w = spam_writer_open_fd(fd, &h, &err);
    assert_non_null(w);
    struct spam_record rec[1000];
    memset(rec, 0x11, sizeof rec);
    int failed = 0;
    for (int i = 0; i < 100 && !failed; i++)
        failed = spam_writer_append(w, rec, 1000) != 0;
    assert_true(failed);
    assert_non_null(spam_writer_error(w));
    assert_non_null(strstr(spam_writer_error(w), "too large"));
    assert_int_equal(spam_writer_close(w, &err), -1);
    assert_non_null(strstr(err.msg, "too large"));
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, xfsz);
    size_t len;
    uint8_t *data = slurp(p, &len);
    assert_true(len <= 200000);
    uint64_t recs;
    int kind = -1;
    char msg[200] = "";
    struct spam_reader *r = spam_reader_open_mem(data, len, &err);
    assert_non_null(r);
    assert_false(spam_reader_header(r)->flags & SPAM_FILE_FLAG_COMPLETE);
    spam_reader_close(r);
    read_all_mem(data, len, &recs, &kind, msg);
    assert_int_equal(recs, (len - 128) / 8);
    free(data);
}

static void test_hist(void **state)
{
    (void)state;
    struct spam_hist *h = malloc(sizeof *h);
    spam_hist_init(h);
    for (uint64_t v = 1; v <= 1000; v++)
        spam_hist_record(h, v);
    assert_int_equal(h->count, 1000);
    assert_int_equal(h->min, 1);
    assert_int_equal(h->max, 1000);
    assert_int_equal(spam_hist_percentile(h, 10), 100);
    uint64_t p50 = spam_hist_percentile(h, 50), p99 = spam_hist_percentile(h, 99);
    assert_true(p50 >= 500 && p50 <= 504);
    assert_true(p99 >= 990 && p99 <= 998);
    assert_int_equal(spam_hist_percentile(h, 100), 1000);
    /* bucket boundaries are contiguous and index consistently */
    for (size_t i = 0; i + 1 < SPAM_HIST_BUCKETS; i++) {
        assert_int_equal(spam_hist_bucket_hi(i) + 1, spam_hist_bucket_lo(i + 1));
        assert_int_equal(spam_hist_index(spam_hist_bucket_lo(i)), i);
        assert_int_equal(spam_hist_index(spam_hist_bucket_hi(i)), i);
        uint64_t lo = spam_hist_bucket_lo(i), hi = spam_hist_bucket_hi(i);
        assert_true(lo < 256 ? hi == lo : (hi - lo + 1) * 128 <= lo);
    }
    free(h);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_spam GEN_TRACE WORKDIR\n");
        return 2;
    }
    gen_path = argv[1];
    work = argv[2];
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", work);
    if (system(cmd) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truth_clean),        cmocka_unit_test(test_truth_drops_and_cut),
        cmocka_unit_test(test_run_equals_step),    cmocka_unit_test(test_usec_out_of_range),
        cmocka_unit_test(test_truncated_record),
        cmocka_unit_test(test_bad_headers),
        cmocka_unit_test(test_writer_killed),      cmocka_unit_test(test_compress_roundtrip),
        cmocka_unit_test(test_hist),
        cmocka_unit_test(test_crc_and_counts),     cmocka_unit_test(test_crc_compressed),
        cmocka_unit_test(test_reader_shrink),      cmocka_unit_test(test_reader_directory),
        cmocka_unit_test(test_writer_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
