/* Out-of-line copies of IRD's inline parts (vm_ird.h), for the callers
 * that want a call rather than the code: the trace cache's cold paths
 * (a miss's decode, a specifier byte the memo cannot give). */
#include "vax/machine/vm_ird.h"

uint16_t vm_ird_decode(struct vax_machine *m, uint32_t op) { return ird_decode(m, op); }
uint16_t vm_spec_decode(struct vax_machine *m, uint32_t b) { return spec_decode(m, b); }

void vm_spec_advance(struct vax_machine *m)
{
    m->spec++;
    m->idx = 0;
    relatch_spec(m);
}

uint32_t vm_istream(struct vax_machine *m, unsigned n) { return istream(m, n); }
