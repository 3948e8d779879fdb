/* libFuzzer target: disassemble a buffer completely, with every flag
 * combination, checking the API's promises (progress, bounds, text). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vax/dis/vdis.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the first four bytes (if any) choose the address */
    uint32_t addr = 0;
    if (size >= 4) {
        addr = (uint32_t)data[0] | (uint32_t)data[1] << 8 |
               (uint32_t)data[2] << 16 | (uint32_t)data[3] << 24;
        data += 4;
        size -= 4;
    }
    for (unsigned flags = 0; flags < 4; flags++) {
        size_t off = 0;
        while (off < size) {
            struct vdis_insn in;
            int len = vdis_one_ex(data + off, size - off,
                                  addr + (uint32_t)off, flags, &in);
            if (len < 1 || (size_t)len > size - off || in.len != len ||
                memchr(in.text, '\0', sizeof in.text) == NULL ||
                in.text[0] == '\0')
                __builtin_trap();
            if ((in.name == NULL) != (strncmp(in.text, ".byte", 5) == 0))
                __builtin_trap();
            (void)vdis_case_entries(data + off, (size_t)len, &in);
            off += (size_t)len;
        }
    }
    return 0;
}
