/* The installed form: instructions, map descriptors and slots
 * (probe_install.h; the layout probe.mic reads is in PROBES.md). */
#include "microcode/le.h"
#include "vax/probe/probe_install.h"

#include <string.h>

#define LS(r) (PRB_LS_BASE + ((r) & 15u))

void prb_encode_insn(const struct prb_insn *in, const uint16_t *probe_gid,
                     const uint16_t *map_gid, uint8_t out[PRB_INSN_BYTES])
{
    uint32_t a = 0, x = 0, hi = 0;
    switch (prb_form(in->op)) {
    case PRB_F_RI: a = LS(in->a); hi = in->imm; break;
    case PRB_F_RR: a = LS(in->a); hi = LS(in->b); break;
    case PRB_F_CTX: a = LS(in->a); hi = in->imm; break;
    case PRB_F_MEM: a = LS(in->a); x = in->size; hi = in->imm << 8 | LS(in->b); break;
    case PRB_F_ABS: a = LS(in->a); x = in->size; hi = in->imm; break;
    case PRB_F_REC: a = LS(in->a); x = (in->imm & 0xFF) << 4 | in->size; break;
    case PRB_F_AGG: case PRB_F_LDM: case PRB_F_STM:
        a = LS(in->a);
        x = map_gid[in->imm] * PRB_MAPDESC_BYTES;
        hi = LS(in->b);
        break;
    case PRB_F_WATCH: a = LS(in->a); x = probe_gid[in->imm]; break;
    case PRB_F_PROBE: x = probe_gid[in->imm]; break;
    case PRB_F_NOTE: hi = in->imm; break;
    case PRB_F_JMP: x = in->skip * PRB_INSN_BYTES; break;
    case PRB_F_BRR: a = LS(in->a); x = in->skip * PRB_INSN_BYTES; hi = LS(in->b); break;
    case PRB_F_BRI: a = LS(in->a); x = in->skip * PRB_INSN_BYTES; hi = in->imm; break;
    default: break;
    }
    le_put32(out, in->op | a << 8 | (x & 0xFFFF) << 16);
    le_put32(out + 4, hi);
}

void prb_decode_installed(const uint8_t in[PRB_INSN_BYTES], struct prb_decoded *out)
{
    uint32_t lo = le_get32(in);
    out->op = lo & 0x7F;
    out->la = (lo >> 8) & 0xFF;
    out->x = lo >> 16;
    out->hi = le_get32(in + 4);
    out->lb = out->hi & 0xFF;
}

void prb_encode_mapdesc(const struct prb_map_desc *d, uint32_t base_pa,
                        uint8_t out[PRB_MAPDESC_BYTES])
{
    memset(out, 0, PRB_MAPDESC_BYTES);
    le_put32(out, base_pa);
    le_put32(out + 4, d->keys);
    le_put32(out + 8, d->kind);
    le_put32(out + 12, prb_map_slot_bytes(d));
    le_put32(out + 16, (uint32_t)d->lmin);
    le_put32(out + 20, d->lstep);
    le_put32(out + 24, d->lbuckets);
}

size_t prb_map_bytes(const struct prb_map_desc *d)
{
    return (size_t)(d->keys + 1) * prb_map_slot_bytes(d);
}

void prb_map_init(const struct prb_map_desc *d, uint8_t *slots)
{
    size_t n = prb_map_bytes(d);
    memset(slots, 0, n);
    if (d->kind != PRB_M_STATS)
        return;
    for (size_t off = 0; off < n; off += 24) {
        le_put32(slots + off + 16, 0x7FFFFFFFu);
        le_put32(slots + off + 20, 0x80000000u);
    }
}

void prb_map_slot(const struct prb_map_desc *d, const uint8_t *slots, uint32_t key,
                  struct prb_slot *out)
{
    memset(out, 0, sizeof *out);
    if (key > d->keys)
        key = d->keys;
    const uint8_t *s = slots + (size_t)key * prb_map_slot_bytes(d);
    switch (d->kind) {
    case PRB_M_COUNT: out->count = le_get32(s) | (uint64_t)le_get32(s + 4) << 32; break;
    case PRB_M_SUM: out->sum = (int64_t)(le_get32(s) | (uint64_t)le_get32(s + 4) << 32); break;
    case PRB_M_MIN: case PRB_M_MAX:
        out->count = le_get32(s);
        out->min = out->max = (int32_t)le_get32(s + 4);
        break;
    case PRB_M_STATS:
        out->count = le_get32(s) | (uint64_t)le_get32(s + 4) << 32;
        out->sum = (int64_t)(le_get32(s + 8) | (uint64_t)le_get32(s + 12) << 32);
        out->min = (int32_t)le_get32(s + 16);
        out->max = (int32_t)le_get32(s + 20);
        break;
    case PRB_M_HIST: case PRB_M_LHIST:
        out->buckets = s;
        out->nbuckets = d->kind == PRB_M_HIST ? 33 : d->lbuckets + 2;
        for (unsigned i = 0; i < out->nbuckets; i++)
            out->count += le_get32(s + 4 * i);
        break;
    default: break;
    }
}

uint32_t prb_slot_bucket(const struct prb_slot *s, unsigned i)
{
    return i < s->nbuckets ? le_get32(s->buckets + 4 * i) : 0;
}
