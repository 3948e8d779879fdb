/* The installed form of verified routines and maps in the probe region
 * (PROBES.md, "Installed form"): what microcode/probe.mic reads, what the
 * host executor (probe_exec.h) reads in the zero-perturbation mode, and
 * what the host reads back to print the maps. */
#ifndef VAX_PROBE_PROBE_INSTALL_H
#define VAX_PROBE_PROBE_INSTALL_H

#include <stddef.h>
#include <stdint.h>

#include "vax/probe/probe_isa.h"

#define PRB_LS_BASE 0xF0u   /* probe register n is scratchpad longword 0xF0 + n */
#define PRB_INSN_BYTES 8u
#define PRB_MAPDESC_BYTES 32u

/* One unrolled instruction in its installed form: the probe's and the
 * map's global numbers (the unit's slots) replace the program's
 * indexes. */
void prb_encode_insn(const struct prb_insn *in, const uint16_t *probe_gid,
                     const uint16_t *map_gid, uint8_t out[PRB_INSN_BYTES]);
/* The map descriptor the AGG flow reads: its slots at base_pa. */
void prb_encode_mapdesc(const struct prb_map_desc *d, uint32_t base_pa,
                        uint8_t out[PRB_MAPDESC_BYTES]);
/* The bytes of the map's slots, the overflow slot included. */
size_t prb_map_bytes(const struct prb_map_desc *d);
/* The slots as a load leaves them (zero; a stats slot's min and max at
 * INT32_MAX and INT32_MIN). */
void prb_map_init(const struct prb_map_desc *d, uint8_t *slots);

/* One key's slot, read back.  count: the number of updates (all kinds;
 * the sum and the histogram kinds count nothing themselves: count is
 * then the histogram's total, or 0 for sum).  buckets: the histogram's
 * counts (NULL for the other kinds), nbuckets of them. */
struct prb_slot {
    uint64_t count;
    int64_t sum;
    int32_t min, max;
    const uint8_t *buckets; /* little-endian u32s in the region */
    unsigned nbuckets;
};
void prb_map_slot(const struct prb_map_desc *d, const uint8_t *slots, uint32_t key,
                  struct prb_slot *out);
/* bucket i's count (d's kind is a histogram) */
uint32_t prb_slot_bucket(const struct prb_slot *s, unsigned i);

/* Decoding an installed instruction (the executor's and the tests'). */
struct prb_decoded {
    unsigned op, la, lb, x;
    uint32_t hi;
};
void prb_decode_installed(const uint8_t in[PRB_INSN_BYTES], struct prb_decoded *out);

#endif
