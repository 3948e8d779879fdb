/* The SBIA (io_sbia.h). */
#include "vax/io/io_sbia.h"

#include <string.h>

#define CNF_VALUE 0x00400010u    /* adapter power-up, type 1 (SBIA) */
#define CSR_WR 0xE0000000u       /* MIE, SBI cycles out, SBI cycles in */
#define CSR_SCOEN 0x40000000u
#define CSR_SCIEN 0x20000000u
#define ER_RD 0x0000FDFEu
#define ER_WR IO_SBIER_CRDIE
#define ER_W1C 0x000070C0u
#define ER_TMO_GROUP (IO_SBIER_TMO | IO_SBIER_STA | IO_SBIER_CNF | IO_SBIER_MULT)
#define FS_RD 0xFF1F0000u
#define FS_WR 0x03140000u
#define FS_W1C 0x00080000u
#define SC_RD 0xFFFF0000u
#define SC_WR 0x7FFF0000u
#define MT_RD 0xFFFFFF00u
#define MT_WR 0xFFFFF900u
#define REG_END 0xC0u            /* registers 0x00-0xBC */

enum {
    R_CNF = 0x00, R_CSR = 0x04, R_ERRSUM = 0x08, R_DCTL = 0x0C,
    R_ERROR = 0x34, R_TIMO = 0x38, R_FLTSTS = 0x3C, R_SILCMP = 0x40,
    R_MAINT = 0x44, R_UNJAM = 0x48, R_QCLR = 0x4C, R_IV = 0x80,
};

static void line_set(void *ctx, int on)
{
    struct io_sbia_line *l = ctx;
    uint16_t bit = (uint16_t)(1u << l->tr);
    if (on) {
        if (!(l->s->req[l->lvl] & bit) && l->s->wake)
            *l->s->wake = 1;
        l->s->req[l->lvl] |= bit;
    } else
        l->s->req[l->lvl] &= (uint16_t)~bit;
}

void io_sbia_init(struct io_sbia *s, unsigned number)
{
    memset(s, 0, sizeof *s);
    s->number = number;
    for (unsigned tr = 0; tr < IO_SBIA_SLOTS; tr++)
        for (unsigned l = 0; l < 4; l++)
            s->lines[tr][l] = (struct io_sbia_line){.s = s, .tr = (uint8_t)tr, .lvl = (uint8_t)l};
    io_sbia_reset(s);
}

void io_sbia_reset(struct io_sbia *s)
{
    s->csr = CSR_SCOEN | CSR_SCIEN;
    s->errsum = s->dctl = s->er = s->timo = s->fs = s->sc = s->mt = 0;
    memset(s->iv, 0, sizeof s->iv);
}

void io_sbia_plug(struct io_sbia *s, unsigned tr, const struct io_nexus_ops *ops, void *dev)
{
    if (tr < IO_SBIA_SLOTS) {
        s->ops[tr] = ops;
        s->dev[tr] = dev;
    }
}

void io_sbia_plug_unibus(struct io_sbia *s, unsigned n, const struct io_nexus_ops *ops, void *dev)
{
    if (n < 4) {
        s->ub_ops[n] = ops;
        s->ub_dev[n] = dev;
    }
}

struct io_irq io_sbia_line(struct io_sbia *s, unsigned tr, int ipl)
{
    struct io_irq l = {0};
    if (tr < IO_SBIA_SLOTS && ipl >= IO_NEXUS_IPL_MIN && ipl <= IO_NEXUS_IPL_MAX) {
        l.set = line_set;
        l.ctx = &s->lines[tr][ipl - IO_NEXUS_IPL_MIN];
    }
    return l;
}

/* An SBI timeout: the first one latches its address, later ones MULT. */
static enum io_status timeout(struct io_sbia *s, uint32_t off)
{
    s->timeouts++;
    if (s->er & IO_SBIER_TMO) {
        s->er |= IO_SBIER_MULT;
    } else {
        s->er |= IO_SBIER_TMO;
        /* the SBI longword address: the window's A-bus base + offset */
        s->timo = (0x20000000u + s->number * 0x2000000u + off) >> 2;
    }
    return IO_TIMEOUT;
}

static uint32_t reg_read(struct io_sbia *s, uint32_t r)
{
    switch (r) {
    case R_CNF: return CNF_VALUE;
    case R_CSR: return s->csr;
    case R_ERRSUM: return s->errsum;
    case R_DCTL: return s->dctl;
    case R_ERROR: return s->er & ER_RD;
    case R_TIMO: return s->timo;
    case R_FLTSTS: return s->fs & FS_RD;
    case R_SILCMP: return s->sc & SC_RD;
    case R_MAINT: return s->mt & MT_RD;
    default:
        if (r >= R_IV && r < R_IV + 4 * 15)
            return s->iv[(r - R_IV) / 4];
        return 0; /* DMA registers, silo, unjam, queue clear, spares */
    }
}

static void reg_write(struct io_sbia *s, uint32_t r, uint32_t v)
{
    switch (r) {
    case R_CSR: s->csr = v & CSR_WR; break;
    case R_ERRSUM: s->errsum &= ~v; break; /* write one to clear */
    case R_DCTL: s->dctl = v; break;
    case R_ERROR:
        s->er = (s->er & ~ER_WR) | (v & ER_WR);
        s->er &= ~(v & ER_W1C);
        if (v & IO_SBIER_TMO)
            s->er &= ~ER_TMO_GROUP;
        break;
    case R_FLTSTS:
        s->fs = (s->fs & ~FS_WR) | (v & FS_WR);
        s->fs &= ~(v & FS_W1C);
        break;
    case R_SILCMP: s->sc = (s->sc & ~SC_WR) | (v & SC_WR); break;
    case R_MAINT: s->mt = (s->mt & ~MT_WR) | (v & MT_WR); break;
    case R_UNJAM: case R_QCLR: break;
    default:
        if (r >= R_IV && r < R_IV + 4 * 15)
            s->iv[(r - R_IV) / 4] = v;
        break;
    }
}

/* The registers take longwords; a narrower reference sees its bytes. */
static enum io_status regs(struct io_sbia *s, uint32_t off, int width, uint32_t *rv, uint32_t wv,
                           int write)
{
    uint32_t r = off & ~3u, sh = (off & 3) * 8;
    if (width == 4 && (off & 3))
        return IO_ERRCONF;
    if (!write) {
        uint32_t v = reg_read(s, r) >> sh;
        *rv = width == 4 ? v : width == 2 ? v & 0xFFFF : v & 0xFF;
        return IO_OK;
    }
    if (width != 4) { /* a partial write merges into the register's value */
        uint32_t mask = (width == 2 ? 0xFFFFu : 0xFFu) << sh;
        wv = (reg_read(s, r) & ~mask) | ((wv << sh) & mask);
    }
    reg_write(s, r, wv);
    return IO_OK;
}

static enum io_status access(struct io_sbia *s, uint32_t off, int width, uint32_t *rv,
                             uint32_t wv, int write)
{
    const struct io_nexus_ops *ops = NULL;
    void *dev = NULL;
    uint32_t sub = 0;
    if (off < IO_SBIA_SLOTS * IO_SBIA_NEXUS_SIZE) {
        ops = s->ops[off / IO_SBIA_NEXUS_SIZE];
        dev = s->dev[off / IO_SBIA_NEXUS_SIZE];
        sub = off % IO_SBIA_NEXUS_SIZE;
    } else if (off >= IO_SBIA_REGS && off < IO_SBIA_REGS + REG_END) {
        return regs(s, off - IO_SBIA_REGS, width, rv, wv, write);
    } else if (off >= IO_SBIA_UNIBUS && off < IO_SBIA_UNIBUS + 4 * IO_SBIA_UNIBUS_SIZE) {
        unsigned n = (off - IO_SBIA_UNIBUS) / IO_SBIA_UNIBUS_SIZE;
        ops = s->ub_ops[n];
        dev = s->ub_dev[n];
        sub = (off - IO_SBIA_UNIBUS) % IO_SBIA_UNIBUS_SIZE;
    }
    if (!ops || !(s->csr & CSR_SCOEN))
        return timeout(s, off);
    enum io_status st = write ? ops->write(dev, sub, width, wv) : ops->read(dev, sub, width, rv);
    if (st == IO_TIMEOUT)
        return timeout(s, off);
    if (st == IO_ERRCONF)
        s->er |= (s->er & IO_SBIER_CNF) ? IO_SBIER_MULT : IO_SBIER_CNF;
    return st;
}

enum io_status io_sbia_read(struct io_sbia *s, uint32_t off, int width, uint32_t *val)
{
    *val = 0;
    return access(s, off, width, val, 0, 0);
}

enum io_status io_sbia_write(struct io_sbia *s, uint32_t off, int width, uint32_t val)
{
    return access(s, off, width, NULL, val, 1);
}

int io_sbia_int_eval(const struct io_sbia *s, uint32_t *vec)
{
    for (int l = 3; l >= 0; l--) {
        uint16_t r = s->req[l];
        if (!r)
            continue;
        unsigned tr = (unsigned)__builtin_ctz(r);
        *vec = 0x100u + (unsigned)l * 0x40u + 4u * tr + 0x200u * s->number;
        return IO_NEXUS_IPL_MIN + l;
    }
    *vec = 0;
    return 0;
}

void io_sbia_int_ack(struct io_sbia *s, int ipl)
{
    if (ipl < IO_NEXUS_IPL_MIN || ipl > IO_NEXUS_IPL_MAX)
        return;
    uint16_t r = s->req[ipl - IO_NEXUS_IPL_MIN];
    if (!r)
        return;
    unsigned tr = (unsigned)__builtin_ctz(r);
    if (s->ops[tr] && s->ops[tr]->int_ack)
        s->ops[tr]->int_ack(s->dev[tr], ipl);
}
