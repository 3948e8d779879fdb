/* The probe program's binary image: encode and decode (probe_image.h). */
#include "microcode/le.h"
#include "vax/probe/probe_image.h"

#include <stdio.h>
#include <string.h>

size_t prb_image_size(const struct prb_program *p)
{
    return PRB_IMAGE_HEADER + (size_t)p->nprobes * PRB_IMAGE_PROBE +
           (size_t)p->nmaps * PRB_IMAGE_MAP + (size_t)p->ncode * PRB_IMAGE_INSN;
}

void prb_image_encode(const struct prb_program *p, uint8_t *out)
{
    memset(out, 0, prb_image_size(p));
    memcpy(out, PRB_IMAGE_MAGIC, 8); /* (with its NUL) */
    le_put16(out + 8, PRB_IMAGE_VERSION);
    le_put16(out + 10, p->nprobes);
    le_put16(out + 12, p->nmaps);
    le_put16(out + 14, p->ncode);
    uint8_t *q = out + PRB_IMAGE_HEADER;
    for (unsigned i = 0; i < p->nprobes; i++, q += PRB_IMAGE_PROBE) {
        const struct prb_probe_desc *d = &p->probe[i];
        q[0] = d->kind;
        q[1] = d->flags;
        q[2] = d->modes;
        le_put32(q + 4, d->addr);
        le_put32(q + 8, d->mask);
        le_put32(q + 12, d->pid);
        le_put32(q + 16, d->prog);
        le_put32(q + 20, d->budget);
        le_put16(q + 24, d->code);
        le_put16(q + 26, d->len);
        le_put16(q + 28, d->uid);
        q[30] = d->ipl_lo;
        q[31] = d->ipl_hi;
    }
    for (unsigned i = 0; i < p->nmaps; i++, q += PRB_IMAGE_MAP) {
        const struct prb_map_desc *d = &p->map[i];
        q[0] = d->kind;
        le_put32(q + 4, d->keys);
        le_put32(q + 8, (uint32_t)d->lmin);
        le_put32(q + 12, d->lstep);
        le_put32(q + 16, d->lbuckets);
    }
    for (unsigned i = 0; i < p->ncode; i++, q += PRB_IMAGE_INSN) {
        const struct prb_insn *in = &p->code[i];
        q[0] = in->op;
        q[1] = in->a;
        q[2] = in->b;
        q[3] = in->size;
        le_put32(q + 4, in->imm);
        le_put32(q + 8, in->skip);
    }
}

static int zeros(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

int prb_image_decode(const uint8_t *in, size_t len, struct prb_program *p, char *err,
                     size_t errlen)
{
    memset(p, 0, sizeof *p);
    if (len < PRB_IMAGE_HEADER) {
        snprintf(err, errlen, "probe image truncated: %zu bytes, the header is %d", len,
                 PRB_IMAGE_HEADER);
        return -1;
    }
    if (memcmp(in, PRB_IMAGE_MAGIC, 8) != 0) {
        snprintf(err, errlen, "not a probe image (bad magic)");
        return -1;
    }
    if (le_get16(in + 8) != PRB_IMAGE_VERSION) {
        snprintf(err, errlen, "probe image version %u, this machine reads version %d",
                 le_get16(in + 8), PRB_IMAGE_VERSION);
        return -1;
    }
    p->nprobes = le_get16(in + 10);
    p->nmaps = le_get16(in + 12);
    p->ncode = le_get16(in + 14);
    if (p->nprobes > PRB_MAX_PROBES || p->nmaps > PRB_MAX_MAPS || p->ncode > PRB_MAX_CODE) {
        snprintf(err, errlen, "probe image holds %u probes, %u maps, %u instructions "
                 "(the limits: %d, %d, %d)", p->nprobes, p->nmaps, p->ncode, PRB_MAX_PROBES,
                 PRB_MAX_MAPS, PRB_MAX_CODE);
        return -1;
    }
    if (!zeros(in + 16, PRB_IMAGE_HEADER - 16)) {
        snprintf(err, errlen, "probe image header: reserved bytes not zero");
        return -1;
    }
    size_t need = prb_image_size(p);
    if (len != need) {
        snprintf(err, errlen, "probe image is %zu bytes, its counts make %zu", len, need);
        return -1;
    }
    const uint8_t *q = in + PRB_IMAGE_HEADER;
    for (unsigned i = 0; i < p->nprobes; i++, q += PRB_IMAGE_PROBE) {
        struct prb_probe_desc *d = &p->probe[i];
        if (q[3]) {
            snprintf(err, errlen, "probe %u: reserved bytes not zero", i);
            return -1;
        }
        d->kind = q[0];
        d->flags = q[1];
        d->modes = q[2];
        d->addr = le_get32(q + 4);
        d->mask = le_get32(q + 8);
        d->pid = le_get32(q + 12);
        d->prog = le_get32(q + 16);
        d->budget = le_get32(q + 20);
        d->code = (uint16_t)le_get16(q + 24);
        d->len = (uint16_t)le_get16(q + 26);
        d->uid = (uint16_t)le_get16(q + 28);
        d->ipl_lo = q[30];
        d->ipl_hi = q[31];
    }
    for (unsigned i = 0; i < p->nmaps; i++, q += PRB_IMAGE_MAP) {
        struct prb_map_desc *d = &p->map[i];
        if (!zeros(q + 1, 3) || !zeros(q + 20, 12)) {
            snprintf(err, errlen, "map %u: reserved bytes not zero", i);
            return -1;
        }
        d->kind = q[0];
        d->keys = le_get32(q + 4);
        d->lmin = (int32_t)le_get32(q + 8);
        d->lstep = le_get32(q + 12);
        d->lbuckets = le_get32(q + 16);
    }
    for (unsigned i = 0; i < p->ncode; i++, q += PRB_IMAGE_INSN) {
        struct prb_insn *c = &p->code[i];
        c->op = q[0];
        c->a = q[1];
        c->b = q[2];
        c->size = q[3];
        c->imm = le_get32(q + 4);
        c->skip = le_get32(q + 8);
    }
    return 0;
}
