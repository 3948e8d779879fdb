/* Fuzz target: the compressed-block decoder on arbitrary payloads, and a
 * round trip: any records that decode must re-encode and decode to the
 * same records.  Input: 4 bytes record count (mod the block limit), then
 * the payload. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "microcode/le.h"
#include "spam/spam_header.h"
#include "spam/spam_zfmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    size_t n = le_get32(data) % SPAM_Z_MAX_BLOCK_RECORDS + 1;
    if (n > 4096)
        n = n % 4096 + 1;
    struct spam_zcodec *z = spam_zcodec_new(3);
    struct spam_record *out = malloc(n * sizeof *out), *again = malloc(n * sizeof *again);
    uint8_t *enc = malloc(spam_zblock_bound(n));
    if (!z || !out || !again || !enc)
        abort();
    if (spam_zblock_decode(z, data + 4, size - 4, n, out) == 0) {
        size_t len = spam_zblock_encode(z, out, n, enc, spam_zblock_bound(n));
        if (len == 0 || spam_zblock_decode(z, enc + SPAM_Z_BLOCK_HDR, len - SPAM_Z_BLOCK_HDR, n, again) != 0 ||
            memcmp(out, again, n * sizeof *out) != 0)
            abort();
    }
    /* and raw bytes as records: encode/decode must round trip */
    size_t k = (size - 4) / 8;
    if (k > 0 && k <= SPAM_Z_MAX_BLOCK_RECORDS) {
        struct spam_record *r = malloc(k * sizeof *r), *b = malloc(k * sizeof *b);
        uint8_t *e2 = malloc(spam_zblock_bound(k));
        if (!r || !b || !e2)
            abort();
        for (size_t i = 0; i < k; i++) {
            r[i].w0 = le_get32(data + 4 + 8 * i);
            r[i].w1 = le_get32(data + 8 + 8 * i);
        }
        size_t len = spam_zblock_encode(z, r, k, e2, spam_zblock_bound(k));
        if (len == 0 || spam_zblock_decode(z, e2 + SPAM_Z_BLOCK_HDR, len - SPAM_Z_BLOCK_HDR, k, b) != 0 ||
            memcmp(r, b, k * sizeof *r) != 0)
            abort();
        free(r);
        free(b);
        free(e2);
    }
    free(out);
    free(again);
    free(enc);
    spam_zcodec_free(z);
    return 0;
}
