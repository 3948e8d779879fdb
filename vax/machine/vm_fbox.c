/* The F-box (vm_fbox.h, MICROARCHITECTURE.md §12). */
#include "vax/machine/vm_fbox.h"

#include <string.h>

#include "microcode/uword.h"

unsigned vm_fbox_op(struct vm_fbox *f, unsigned fop, uint32_t a, uint32_t b)
{
    (void)a;
    (void)b;
    switch (fop) {
    case UF_NONE:
    default:
        (void)f;
        return 0;
    }
}

void vm_fbox_reset(struct vm_fbox *f) { memset(f, 0, sizeof *f); }
