/* Column split + delta coding + deflate of one block (TRACE-FORMAT.md §5).
 *
 * Record i of a block is an extended record when record i-1 is an LDPCTX
 * record that is not itself an extended record.  The m event records give
 * five columns:
 *   S0  the second longwords (PSL<31:16>, event id) as indices into a
 *       per-block dictionary of distinct values in order of first use
 *       (index 255 = escape, the value follows in the escape list), then
 *       the dictionary, the escapes and the extended records verbatim;
 *       deflated at the chosen level;
 *   S1, S2  low and high bytes of the microsecond delta;
 *   S3, S4  low and high bytes of the instruction-count delta minus its
 *       prediction: in a repetitive block (a real trace), the delta last
 *       seen in the same context (previous symbol, symbol, microsecond
 *       delta), and all streams are deflated at the level, LZ77 finding
 *       the repeated code paths; otherwise the microsecond delta times a
 *       running IRD rate, and S1..S4 are Huffman-coded only
 *       (Z_HUFFMAN_ONLY): few repeats for LZ77, several times faster. */
#include "spam/spam_zfmt.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "microcode/le.h"
#include "spam/spam_header.h"

struct spam_zcodec {
    int level, def_init[2], inf_init;
    z_stream def[2]; /* 0: S0 at level, 1: Huffman only */
    z_stream inf;
    uint8_t *col; /* uncompressed columns */
    uint16_t last_di[1u << SPAM_Z_CTX_BITS]; /* the instruction-count context predictor */
    uint16_t rres[SPAM_Z_MAX_BLOCK_RECORDS];  /* residuals of the rate predictor */
};

#define COL_BYTES (4u * SPAM_Z_MAX_SYMBOLS + 13u * SPAM_Z_MAX_BLOCK_RECORDS)

struct spam_zcodec *spam_zcodec_new(int level)
{
    struct spam_zcodec *z = calloc(1, sizeof *z);
    if (!z)
        return NULL;
    z->level = level;
    z->col = malloc(COL_BYTES);
    if (!z->col) {
        free(z);
        return NULL;
    }
    return z;
}

void spam_zcodec_free(struct spam_zcodec *z)
{
    if (!z)
        return;
    for (int i = 0; i < 2; i++)
        if (z->def_init[i])
            deflateEnd(&z->def[i]);
    if (z->inf_init)
        inflateEnd(&z->inf);
    free(z->col);
    free(z);
}

size_t spam_zblock_bound(size_t n)
{
    size_t b = SPAM_Z_BLOCK_HDR + SPAM_Z_PAYLOAD_HDR;
    b += compressBound((uLong)(4 * SPAM_Z_MAX_SYMBOLS + 13 * n)); /* S0 */
    b += 4 * compressBound((uLong)n);
    return b;
}

static void put_block_header(uint8_t *out, uint32_t type, uint32_t n, uint32_t len)
{
    le_put32(out, SPAM_Z_BLOCK_MAGIC);
    le_put32(out + 4, type);
    le_put32(out + 8, n);
    le_put32(out + 12, len);
    uLong crc = crc32(0L, out, 16);
    crc = crc32(crc, out + SPAM_Z_BLOCK_HDR, len);
    le_put32(out + 16, (uint32_t)crc);
}

#define RATE0 (3 << 8)
#define RATE_MAX (64 << 8)
static inline uint16_t predict(uint16_t du, int32_t rate) { return (uint16_t)(((uint32_t)du * (uint32_t)rate) >> 8); }
static inline int32_t update_rate(int32_t rate, uint16_t du, uint16_t di)
{
    /* sign LMS: no division on the decoder's dependency chain */
    uint32_t p = ((uint32_t)du * (uint32_t)rate) >> 8;
    rate += 2 * ((di > p) & (rate < RATE_MAX)) - 2 * ((di < p) & (rate >= 2));
    return rate;
}

/* The instruction-count context: the previous event record's symbol, this
 * one's, and the microsecond delta, hashed to SPAM_Z_CTX_BITS bits. */
static inline uint32_t ic_ctx(uint8_t prev, uint8_t s, uint16_t du)
{
    uint32_t k = ((uint32_t)prev << 8 | s) * 0x9E3779B1u ^ (uint32_t)du * 0x85EBCA77u;
    return (k ^ k >> 15) * 0x2C1B3C6Du >> (32 - SPAM_Z_CTX_BITS);
}

/* Deflates in[0..len) with stream k; returns the compressed size or 0. */
static size_t zput(struct spam_zcodec *z, int k, const uint8_t *in, size_t len, uint8_t *out, size_t cap)
{
    z_stream *s = &z->def[k];
    if (!z->def_init[k]) {
        int lv = k == 0 ? z->level : 1;
        if (deflateInit2(s, lv, Z_DEFLATED, -15, 8, k == 0 ? Z_DEFAULT_STRATEGY : Z_HUFFMAN_ONLY) != Z_OK)
            return 0;
        z->def_init[k] = 1;
    } else if (deflateReset(s) != Z_OK) {
        return 0;
    }
    s->next_in = (Bytef *)(uintptr_t)in;
    s->avail_in = (uInt)len;
    s->next_out = out;
    s->avail_out = (uInt)cap;
    if (deflate(s, Z_FINISH) != Z_STREAM_END)
        return 0;
    return cap - s->avail_out;
}

static int zget(struct spam_zcodec *z, const uint8_t *in, size_t len, uint8_t *out, size_t want)
{
    z_stream *s = &z->inf;
    if (!z->inf_init) {
        if (inflateInit2(s, -15) != Z_OK)
            return -1;
        z->inf_init = 1;
    } else if (inflateReset(s) != Z_OK) {
        return -1;
    }
    s->next_in = (Bytef *)(uintptr_t)in;
    s->avail_in = (uInt)len;
    s->next_out = out;
    s->avail_out = (uInt)want;
    int rc = inflate(s, Z_FINISH);
    return rc == Z_STREAM_END && s->avail_out == 0 && s->avail_in == 0 ? 0 : -1;
}

size_t spam_zblock_encode(struct spam_zcodec *z, const struct spam_record *r, size_t n, uint8_t *out,
                          size_t cap)
{
    if (n == 0 || n > SPAM_Z_MAX_BLOCK_RECORDS || cap < spam_zblock_bound(n))
        return 0;
    size_t m = 0;
    int prev_ldp = 0;
    for (size_t i = 0; i < n; i++) {
        int ext = prev_ldp;
        prev_ldp = !ext && spam_event_class(spam_rec_event(r[i])) == SPAM_CLASS_LDPCTX;
        m += !ext;
    }
    size_t e = n - m;
    /* column layout in z->col: sym[m] | ext[8e] | esc[4m max] | du lo, hi, ic lo, hi [m each] | dict */
    uint8_t *sym = z->col, *ext = sym + m, *esc = ext + 8 * e, *pl = esc + 4 * m;
    uint8_t *dict = pl + 4 * m;
    uint32_t keys[SPAM_Z_MAX_SYMBOLS];
    size_t nsym = 0, nesc = 0;
    uint32_t last_key = 0;
    uint8_t last_sym = 0;
    int have_last = 0;
    uint16_t pu = 0, pi = 0;
    uint8_t prev_s = 0;
    uint16_t *last_di = z->last_di;
    memset(last_di, 0, sizeof z->last_di);
    int32_t rate = RATE0;
    uint16_t *rres = z->rres;
    size_t ctx_hits = 0;
    size_t j = 0;
    prev_ldp = 0;
    for (size_t i = 0; i < n; i++) {
        if (prev_ldp) {
            le_put32(ext, r[i].w0);
            le_put32(ext + 4, r[i].w1);
            ext += 8;
            prev_ldp = 0;
            continue;
        }
        uint32_t key = r[i].w1;
        uint8_t s;
        if (have_last && key == last_key) {
            s = last_sym;
        } else {
            size_t k = 0;
            while (k < nsym && keys[k] != key)
                k++;
            if (k == nsym && nsym < SPAM_Z_MAX_SYMBOLS)
                keys[nsym++] = key;
            if (k < nsym) {
                s = (uint8_t)k;
            } else {
                s = 255;
                le_put32(esc + 4 * nesc++, key);
            }
            if (s != 255) {
                last_key = key;
                last_sym = s;
                have_last = 1;
            }
        }
        sym[j] = s;
        uint16_t us = spam_rec_usec(r[i]), ic = spam_rec_icount(r[i]);
        uint16_t du = (uint16_t)(us - pu), dic = (uint16_t)(ic - pi);
        uint32_t cx = ic_ctx(prev_s, s, du);
        uint16_t res = (uint16_t)(dic - last_di[cx]);
        ctx_hits += res == 0;
        last_di[cx] = dic;
        prev_s = s;
        rres[j] = (uint16_t)(dic - predict(du, rate));
        rate = update_rate(rate, du, dic);
        pu = us;
        pi = ic;
        pl[j] = (uint8_t)du;
        pl[m + j] = (uint8_t)(du >> 8);
        pl[2 * m + j] = (uint8_t)res;
        pl[3 * m + j] = (uint8_t)(res >> 8);
        j++;
        prev_ldp = (key & 0xF000) == (SPAM_CLASS_LDPCTX << 12);
    }
    /* Repetitive blocks (real traces: the same code paths again and again)
     * take the context predictor and LZ77; the others the rate predictor
     * and Huffman coding only, several times faster and as small there. */
    uint32_t mode = ctx_hits * 2 > m ? SPAM_Z_MODE_CONTEXT : 0;
    if (!mode)
        for (size_t k = 0; k < m; k++) {
            pl[2 * m + k] = (uint8_t)rres[k];
            pl[3 * m + k] = (uint8_t)(rres[k] >> 8);
        }
    /* S0 = sym | ext | esc | dict, contiguous: move dict after esc */
    uint8_t *s0_end = esc + 4 * nesc;
    for (size_t k = 0; k < nsym; k++)
        le_put32(dict + 4 * k, keys[k]);
    /* S0 must be contiguous: copy the planes out of the way first */
    uint8_t *p = out + SPAM_Z_BLOCK_HDR;
    le_put32(p, (uint32_t)m);
    le_put32(p + 4, (uint32_t)nsym);
    le_put32(p + 8, (uint32_t)nesc);
    le_put32(p + 12, mode);
    uint8_t *q = p + SPAM_Z_PAYLOAD_HDR, *end = out + cap;
    size_t len[SPAM_Z_STREAMS];
    for (size_t k = 0; k < 4; k++) {
        len[1 + k] = zput(z, mode ? 0 : 1, pl + k * m, m, q, (size_t)(end - q));
        if (m && !len[1 + k])
            return 0;
        q += len[1 + k];
    }
    memmove(s0_end, dict, 4 * nsym);
    size_t s0 = (size_t)(s0_end - sym) + 4 * nsym;
    /* S0 goes after the planes in the file too, so no second copy */
    len[0] = zput(z, 0, sym, s0, q, (size_t)(end - q));
    if (!len[0])
        return 0;
    q += len[0];
    for (size_t k = 0; k < SPAM_Z_STREAMS; k++)
        le_put32(p + 16 + 4 * k, (uint32_t)len[k]);
    size_t total = (size_t)(q - p);
    put_block_header(out, SPAM_Z_BLOCK_DATA, (uint32_t)n, (uint32_t)total);
    return SPAM_Z_BLOCK_HDR + total;
}

int spam_zblock_decode(struct spam_zcodec *z, const uint8_t *payload, size_t len, size_t n,
                       struct spam_record *out)
{
    if (n == 0 || n > SPAM_Z_MAX_BLOCK_RECORDS || len < SPAM_Z_PAYLOAD_HDR)
        return -1;
    size_t m = le_get32(payload), nsym = le_get32(payload + 4), nesc = le_get32(payload + 8);
    uint32_t mode = le_get32(payload + 12);
    if (m > n || nsym > SPAM_Z_MAX_SYMBOLS || nesc > m || (mode & ~SPAM_Z_MODE_CONTEXT))
        return -1;
    size_t e = n - m;
    uint8_t *sym = z->col, *ext = sym + m, *esc = ext + 8 * e, *dict = esc + 4 * nesc;
    uint8_t *pl = dict + 4 * nsym;
    const uint8_t *q = payload + SPAM_Z_PAYLOAD_HDR, *end = payload + len;
    size_t clen[SPAM_Z_STREAMS], sum = 0;
    for (size_t k = 0; k < SPAM_Z_STREAMS; k++) {
        clen[k] = le_get32(payload + 16 + 4 * k);
        sum += clen[k];
        if (clen[k] > len)
            return -1;
    }
    if (sum != (size_t)(end - q))
        return -1;
    for (size_t k = 0; k < 4; k++) {
        if (m && zget(z, q, clen[1 + k], pl + k * m, m) != 0)
            return -1;
        if (!m && clen[1 + k] != 0 && zget(z, q, clen[1 + k], pl, 0) != 0)
            return -1;
        q += clen[1 + k];
    }
    if (zget(z, q, clen[0], sym, m + 8 * e + 4 * nesc + 4 * nsym) != 0)
        return -1;
    const uint8_t *ep = ext, *xp = esc;
    uint16_t pu = 0, pi = 0;
    uint8_t prev_s = 0;
    uint16_t *last_di = z->last_di;
    if (mode)
        memset(last_di, 0, sizeof z->last_di);
    int32_t rate = RATE0;
    size_t j = 0;
    int prev_ldp = 0;
    for (size_t i = 0; i < n; i++) {
        if (prev_ldp) {
            if (ep + 8 > esc)
                return -1;
            out[i].w0 = le_get32(ep);
            out[i].w1 = le_get32(ep + 4);
            ep += 8;
            prev_ldp = 0;
            continue;
        }
        if (j >= m)
            return -1;
        uint8_t s = sym[j];
        uint32_t key;
        if (s == 255) {
            if (xp + 4 > dict)
                return -1;
            key = le_get32(xp);
            xp += 4;
        } else {
            if (s >= nsym)
                return -1;
            key = le_get32(dict + 4 * s);
        }
        uint16_t du = (uint16_t)(pl[j] | pl[m + j] << 8);
        uint16_t res = (uint16_t)(pl[2 * m + j] | pl[3 * m + j] << 8), dic;
        if (mode) {
            uint32_t cx = ic_ctx(prev_s, s, du);
            dic = (uint16_t)(res + last_di[cx]);
            last_di[cx] = dic;
            prev_s = s;
        } else {
            dic = (uint16_t)(res + predict(du, rate));
            rate = update_rate(rate, du, dic);
        }
        pu = (uint16_t)(pu + du);
        pi = (uint16_t)(pi + dic);
        out[i].w0 = (uint32_t)pu << 16 | pi;
        out[i].w1 = key;
        j++;
        prev_ldp = (key & 0xF000) == (SPAM_CLASS_LDPCTX << 12);
    }
    return (j == m && ep == esc && xp == dict) ? 0 : -1;
}

size_t spam_zblock_encode_end(uint64_t total, const uint8_t *tail, size_t tail_len, uint8_t *out)
{
    le_put64(out + SPAM_Z_BLOCK_HDR, total);
    memcpy(out + SPAM_Z_BLOCK_HDR + 8, tail, tail_len);
    put_block_header(out, SPAM_Z_BLOCK_END, (uint32_t)tail_len, (uint32_t)(8 + tail_len));
    return SPAM_Z_BLOCK_HDR + 8 + tail_len;
}
