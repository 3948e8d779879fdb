/* Fuzz target: the trace reader (raw and compressed, by magic) and the
 * decoder behind it, on arbitrary bytes.  Must never crash, hang or read
 * out of bounds; every damage must carry a message. */
#include <stdint.h>
#include <stdlib.h>

#include "spam/spam_decode.h"
#include "spam/spam_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct spam_err err;
    struct spam_reader *r = spam_reader_open_mem(data, size, &err);
    if (!r) {
        if (!err.msg[0])
            abort();
        return 0;
    }
    struct spam_decoder *d = spam_decoder_new(spam_reader_header(r), NULL);
    if (!d) {
        spam_reader_close(r);
        return 0;
    }
    const struct spam_record *recs;
    size_t n;
    int rc, guard = 0;
    struct spam_event e;
    while ((rc = spam_reader_next(r, &recs, &n)) != SPAM_READ_END) {
        if (rc == SPAM_READ_DAMAGE && !spam_reader_err(r)->msg[0])
            abort();
        if (rc == SPAM_READ_DAMAGE && ++guard > 1000000)
            abort(); /* no progress */
        for (size_t i = 0; i < n; i++)
            spam_decode_step(d, recs[i], &e);
    }
    spam_decoder_finish(d, &e);
    spam_decoder_free(d);
    spam_reader_close(r);
    return 0;
}
