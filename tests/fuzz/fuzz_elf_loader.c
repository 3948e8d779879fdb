/* libFuzzer target: the ELF loader on arbitrary bytes, into a small
 * emulated memory.  Any crash, leak or sanitizer report is a bug. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vax/loader/vax_elf.h"

#define FUZZ_MEM 0x10000u

struct fmem {
    uint8_t bytes[FUZZ_MEM];
};

static int fmem_write(void *ctx, uint32_t pa, const void *buf, size_t n)
{
    struct fmem *m = ctx;
    if (pa >= FUZZ_MEM || n > FUZZ_MEM - pa)
        return -1;
    memcpy(m->bytes + pa, buf, n);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct fmem mem; /* scratch only: no state carried between runs */
    struct vax_load_target t = {fmem_write, &mem, FUZZ_MEM, 0};
    struct vax_load_result res;
    char err[256];
    if (vax_elf_load_mem("fuzz", data, size, &t, &res, err, sizeof err) == 0) {
        if (res.entry >= FUZZ_MEM || res.lowest > res.highest ||
            res.highest > FUZZ_MEM)
            __builtin_trap();
    } else if (strncmp(err, "fuzz: ", 6) != 0 || strchr(err, '\n')) {
        __builtin_trap();
    }
    return 0;
}
