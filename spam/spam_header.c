#include "spam/spam_header.h"

#include <string.h>
#include <zlib.h>

#include "microcode/le.h"
#include "spam/spam_format.h"

void spam_header_init(struct spam_header *h)
{
    memset(h, 0, sizeof *h);
    h->version = SPAM_FILE_VERSION;
    h->header_size = SPAM_FILE_HEADER_BYTES;
    h->flags = SPAM_FILE_FLAG_REI;
    h->cycle_ps = SPAM_DEFAULT_CYCLE_PS;
    h->nicr = SPAM_DEFAULT_NICR;
    h->buffer_records = SPAM_DEFAULT_BUFFER_RECORDS;
    h->class_mask = 0x7E;
}

int spam_header_decode(const uint8_t *b, size_t n, struct spam_header *h, struct spam_err *err)
{
    memset(h, 0, sizeof *h);
    size_t m = n < 8 ? n : 8;
    if (memcmp(b, SPAM_FILE_MAGIC, m) != 0 || (n >= 8 && b[7] != 0)) {
        spam_err_set(err, 0, "not a SPAM trace (bad magic)");
        return -1;
    }
    if (n < 12) {
        spam_err_set(err, n, "truncated header (%zu of %u bytes)", n, SPAM_FILE_HEADER_BYTES);
        return -1;
    }
    h->version = le_get16(b + 8);
    if (h->version < SPAM_FILE_VERSION_MIN || h->version > SPAM_FILE_VERSION) {
        spam_err_set(err, 8, "unknown trace version %u (this reader knows %u to %u)", h->version,
                     SPAM_FILE_VERSION_MIN, SPAM_FILE_VERSION);
        return -1;
    }
    h->header_size = le_get16(b + 10);
    if (h->header_size < SPAM_FILE_HEADER_BYTES || h->header_size % 8 != 0) {
        spam_err_set(err, 10, "bad header size %u (at least 128, a multiple of 8)", h->header_size);
        return -1;
    }
    if (n < SPAM_FILE_HEADER_BYTES) {
        spam_err_set(err, n, "truncated header (%zu of %u bytes)", n, h->header_size);
        return -1;
    }
    h->flags = le_get32(b + 12);
    h->cycle_ps = le_get32(b + 16);
    h->nicr = (int32_t)le_get32(b + 20);
    h->buffer_records = le_get32(b + 24);
    h->class_mask = le_get32(b + 28);
    h->seed = le_get64(b + 32);
    h->ucode_crc = le_get32(b + 40);
    h->ucode_len = le_get32(b + 44);
    h->dropped = le_get64(b + 48);
    h->records = le_get64(b + 56);
    memcpy(h->guest, b + 64, 32);
    h->guest[32] = 0;
    if (h->version >= 2)
        h->crc = le_get32(b + SPAM_FILE_CRC_OFFSET);
    return 0;
}

void spam_header_encode(const struct spam_header *h, uint8_t out[128])
{
    memset(out, 0, SPAM_FILE_HEADER_BYTES);
    memcpy(out, SPAM_FILE_MAGIC, 8);
    le_put16(out + 8, h->version);
    le_put16(out + 10, SPAM_FILE_HEADER_BYTES);
    le_put32(out + 12, h->flags);
    le_put32(out + 16, h->cycle_ps);
    le_put32(out + 20, (uint32_t)h->nicr);
    le_put32(out + 24, h->buffer_records);
    le_put32(out + 28, h->class_mask);
    le_put64(out + 32, h->seed);
    le_put32(out + 40, h->ucode_crc);
    le_put32(out + 44, h->ucode_len);
    le_put64(out + 48, h->dropped);
    le_put64(out + 56, h->records);
    size_t gl = strnlen(h->guest, 32);
    memcpy(out + 64, h->guest, gl);
    if (h->version >= 2)
        le_put32(out + SPAM_FILE_CRC_OFFSET, h->crc);
}

uint32_t spam_header_crc_start(const uint8_t *b, size_t len)
{
    static const uint8_t zero[4];
    uLong c = crc32(0L, Z_NULL, 0);
    if (len <= SPAM_FILE_CRC_OFFSET)
        return (uint32_t)crc32(c, b, (uInt)len);
    c = crc32(c, b, SPAM_FILE_CRC_OFFSET);
    c = crc32(c, zero, 4);
    return (uint32_t)crc32(c, b + SPAM_FILE_CRC_OFFSET + 4, (uInt)(len - SPAM_FILE_CRC_OFFSET - 4));
}
