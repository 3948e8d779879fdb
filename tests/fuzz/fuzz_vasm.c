/* libFuzzer target: the assembler (vax/asm) on arbitrary source text. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vax/asm/vasm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct vasm_source src = {"fuzz.s", (const char *)data, size};
    struct vasm_options opt;
    memset(&opt, 0, sizeof opt);
    opt.base = 0x1000;
    struct vasm_image img;
    memset(&img, 0, sizeof img);
    /* vasm_diag is 4 KB; keep it off the fuzzer's stack frame budget */
    static struct vasm_diag diag;
    memset(&diag, 0, sizeof diag);
    if (vasm_assemble(&src, 1, &opt, &img, &diag) == 0) {
        if (img.size > img.memsize)
            __builtin_trap();
        vasm_image_free(&img);
    } else if (diag.nerrors < 1 ||
               memchr(diag.text, '\0', sizeof diag.text) == NULL) {
        __builtin_trap();
    }
    return 0;
}
