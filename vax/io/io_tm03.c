/* The TM03 formatter and its TU77 transports (io_tm03.h). */
#include "vax/io/io_tm03.h"

#include <stdio.h>
#include <string.h>

#define CS1_GO 01u
#define CS1_RW 077u
#define CS1_DVA 04000u
#define TC_SLAVE 07u
#define TC_FMT(tc) (((tc) >> 4) & 017)
#define TC_DEN(tc) (((tc) >> 8) & 07)
#define TC_SAC 020000u
#define TC_FCS 040000u
#define TC_RW 013777u
#define TC_RIP 01700u          /* 800 bpi, PDP-11 normal */
#define FMT_PDP11 014
#define DEN_1600 4
#define DT_BASE 0140040u       /* not sector addressed, tape, TM03 */
#define DT_PRESENT 02014u      /* slave present, TU77 */
#define DT_OFF 010u
#define GAP_CYCLES IO_US(4800)
#define STICKY (IO_TMFS_ATA | IO_TMFS_TM | IO_TMFS_ID | IO_TMFS_SSC | IO_TMFS_SLA)

enum {
    F_NOP = 000, F_UNLOAD = 001, F_REWIND = 003, F_DCLR = 004, F_RIP = 010, F_ERASE = 012,
    F_WEOF = 013, F_SPF = 014, F_SPR = 015, F_WCHKF = 024, F_WCHKR = 027, F_WRITE = 030,
    F_READF = 034, F_READR = 037,
};

enum { R_CS1, R_FS, R_ER, R_MR, R_AS, R_FC, R_DT, R_CC, R_SN, R_TC };

static uint64_t record_cycles(uint32_t bytes) { return GAP_CYCLES + (uint64_t)bytes * 125 / 2; }

static struct io_tu77 *selected(struct io_tm03 *f) { return &f->slave[f->tc & TC_SLAVE]; }

static void attention(struct io_tm03 *f, uint16_t also)
{
    f->fs |= IO_TMFS_ATA | also;
    f->ch->attention(f->ch->mba);
}

static void error(struct io_tm03 *f, uint16_t er)
{
    f->er |= er;
    attention(f, 0);
}

static uint16_t status(struct io_tm03 *f)
{
    const struct io_tu77 *s = selected(f);
    uint16_t fs = (f->fs & STICKY) | IO_TMFS_DPR;
    int busy = f->fn >= 0 || s->rewinding;
    if (s->present && s->online) {
        fs |= IO_TMFS_MOL;
        if (s->tape.readonly)
            fs |= IO_TMFS_WRL;
        if (s->pe)
            fs |= IO_TMFS_PES;
        if (s->rewinding || f->fn == F_SPF || f->fn == F_SPR)
            fs |= IO_TMFS_PIP;
        if (!busy && io_tape_bot(&s->tape))
            fs |= IO_TMFS_BOT;
    }
    if (f->er)
        fs |= IO_TMFS_ERR;
    if (!busy)
        fs |= IO_TMFS_DRY;
    return fs;
}

/* A tape outcome as the formatter reports it; returns 1 for a MASSBUS
 * exception (only data transfers raise one). */
static int map_status(struct io_tm03 *f, int st, int data)
{
    switch (st) {
    case IO_TAPE_OK: case IO_TAPE_BOT: return 0;
    case IO_TAPE_MARK:
        f->fs |= IO_TMFS_TM;
        if (data)
            error(f, IO_TMER_FCE);
        return data;
    case IO_TAPE_EOM: error(f, IO_TMER_OPI); return data;
    case IO_TAPE_RECERR: error(f, IO_TMER_CRC); return data;
    case IO_TAPE_WRP: error(f, IO_TMER_NEF); return data;
    default: error(f, IO_TMER_VPE); return data;
    }
}

/* ---- rewinds, each transport on its own ---- */

static void rewind_done(void *ctx, uint64_t due)
{
    (void)due;
    struct io_tu77 *s = ctx;
    io_tape_rewind(&s->tape);
    s->rewinding = 0;
    if (s->unload)
        s->online = 0;
    s->unload = 0;
    attention(s->fmt, IO_TMFS_SSC);
}

static void start_rewind(struct io_tu77 *s, int unload)
{
    uint64_t pos = s->tape.pos;
    s->rewinding = 1;
    s->unload = unload;
    /* 440 in/s at 1600 bytes per inch, from where the tape is */
    io_timer_after(&s->timer, IO_MS(1) + pos * IO_CYCLES_PER_SEC / (1600u * 440u));
}

/* ---- the formatter's operations ---- */

static enum io_mb_result refuse(struct io_tm03 *f, uint16_t er)
{
    f->cs1 &= ~CS1_GO;
    error(f, er);
    return IO_MB_GOERR;
}

static enum io_mb_result go(struct io_tm03 *f)
{
    int fn = (f->cs1 >> 1) & 037;
    struct io_tu77 *s = selected(f);
    if (fn != F_DCLR && (f->er || s->rewinding || f->fn >= 0))
        return refuse(f, IO_TMER_ILF);
    f->fs &= ~IO_TMFS_ATA;
    f->tc &= ~TC_SAC;
    uint64_t t = io_now(f->ev);
    int data = fn >= F_WCHKF;
    switch (fn) {
    case F_DCLR:
        f->er = 0;
        f->tc &= ~TC_FCS;
        f->fs &= ~(IO_TMFS_SLA | IO_TMFS_SSC | IO_TMFS_ID);
        if (s->rewinding) { /* clearing the drive stops its motion */
            io_timer_cancel(&s->timer);
            s->rewinding = s->unload = 0;
        }
        /* fall through */
    case F_NOP:
        f->cs1 &= ~CS1_GO;
        return IO_MB_OK;
    case F_RIP:
        f->tc = TC_RIP;
        io_tape_rewind(&f->slave[0].tape);
        f->cs1 &= ~CS1_GO;
        f->fs &= ~IO_TMFS_TM;
        return IO_MB_OK;
    case F_UNLOAD: case F_REWIND:
        if (!s->present || !s->online)
            return refuse(f, IO_TMER_UNS);
        start_rewind(s, fn == F_UNLOAD);
        f->cs1 &= ~CS1_GO;
        f->fs &= ~IO_TMFS_TM;
        return IO_MB_OK;
    case F_SPF: case F_SPR: {
        if (!s->present || !s->online)
            return refuse(f, IO_TMER_UNS);
        if (!(f->tc & TC_FCS) || (fn == F_SPR && io_tape_bot(&s->tape)))
            return refuse(f, IO_TMER_NEF);
        f->fs &= ~(IO_TMFS_TM | IO_TMFS_ID);
        /* the motion is done now, its outcome shown at its end */
        uint64_t cycles = 0;
        uint16_t fc = f->fc;
        int st;
        do {
            uint32_t len;
            fc = (uint16_t)(fc + 1);
            st = fn == F_SPF ? io_tape_space_fwd(&s->tape, &len)
                             : io_tape_space_rev(&s->tape, &len);
            cycles += record_cycles(len);
        } while (st == IO_TAPE_OK && fc != 0);
        f->op_st = st;
        f->op_fc = fc;
        f->fn = fn;
        io_timer_at(&f->timer, t + cycles);
        return IO_MB_OK;
    }
    case F_WCHKR: case F_READR: case F_WCHKF: case F_READF:
    case F_WRITE: case F_WEOF: case F_ERASE:
        break;
    default:
        return refuse(f, IO_TMER_ILF);
    }
    if (!s->present || !s->online)
        return refuse(f, IO_TMER_UNS);
    if ((fn == F_READR || fn == F_WCHKR) && io_tape_bot(&s->tape))
        return refuse(f, IO_TMER_NEF);
    if (fn == F_WRITE && !(f->tc & TC_FCS))
        return refuse(f, IO_TMER_NEF);
    if ((fn == F_WRITE || fn == F_WEOF || fn == F_ERASE) && s->tape.readonly)
        return refuse(f, IO_TMER_NEF);
    if (TC_FMT(f->tc) != FMT_PDP11)
        return refuse(f, IO_TMER_FMT);
    if (io_tape_bot(&s->tape))
        s->pe = TC_DEN(f->tc) == DEN_1600;
    f->fs &= ~(IO_TMFS_TM | IO_TMFS_ID);
    uint64_t cycles = GAP_CYCLES;
    if (fn == F_READF || fn == F_WCHKF || fn == F_READR || fn == F_WCHKR) {
        if (s->pe && io_tape_bot(&s->tape) && fn != F_READR && fn != F_WCHKR)
            f->fs |= IO_TMFS_ID; /* the phase-encoding burst at the load point */
        uint32_t len = 0;
        f->op_st = (fn == F_READF || fn == F_WCHKF)
                       ? io_tape_read_fwd(&s->tape, f->buf, IO_TM03_MAXREC, &len)
                       : io_tape_read_rev(&s->tape, f->buf, IO_TM03_MAXREC, &len);
        f->op_len = len;
        cycles = record_cycles(len);
    } else if (fn == F_WRITE) {
        uint32_t n = f->ch->count(f->ch->mba), fc = 0x10000u - f->fc;
        cycles = record_cycles(n < fc ? n : fc);
    }
    f->fn = fn;
    io_timer_at(&f->timer, t + cycles);
    return data ? IO_MB_XFER : IO_MB_OK;
}

static void fire(void *ctx, uint64_t due)
{
    (void)due;
    struct io_tm03 *f = ctx;
    struct io_tu77 *s = selected(f);
    const struct io_mb_channel *ch = f->ch;
    int fn = f->fn, exc = 0;
    f->fn = -1;
    f->cs1 &= ~CS1_GO;
    switch (fn) {
    case F_SPF: case F_SPR:
        f->fc = f->op_fc;
        map_status(f, f->op_st, 0);
        if (f->fc != 0)
            error(f, IO_TMER_FCE);
        else
            f->tc &= ~TC_FCS;
        attention(f, 0);
        return;
    case F_WEOF:
        map_status(f, io_tape_write_mark(&s->tape), 0);
        attention(f, 0);
        return;
    case F_ERASE:
        attention(f, 0);
        return;
    case F_WRITE: {
        uint32_t n = ch->count(ch->mba), fc = 0x10000u - f->fc;
        if (n > fc)
            n = fc;
        if (n > IO_TM03_MAXREC)
            n = IO_TM03_MAXREC;
        uint32_t got = ch->from_mem(ch->mba, f->buf, n);
        if (got) {
            exc = map_status(f, io_tape_write(&s->tape, f->buf, got), 1);
            if (!exc) {
                f->records_written++;
                f->fc = (uint16_t)(f->fc + got);
                if (f->fc == 0)
                    f->tc &= ~TC_FCS;
            }
        }
        ch->done(ch->mba, exc);
        return;
    }
    case F_READF: case F_WCHKF: case F_READR: case F_WCHKR: {
        uint32_t len = f->op_len;
        if (f->op_st == IO_TAPE_OK || f->op_st == IO_TAPE_RECERR) {
            uint32_t n = len < IO_TM03_MAXREC ? len : IO_TM03_MAXREC;
            if (fn == F_READR || fn == F_WCHKR) /* the bytes arrive last first */
                for (uint32_t i = 0; i < n / 2; i++) {
                    uint8_t x = f->buf[i];
                    f->buf[i] = f->buf[n - 1 - i];
                    f->buf[n - 1 - i] = x;
                }
            if (ch->count(ch->mba) > n) /* a record shorter than asked */
                error(f, IO_TMER_FCE);
            if (fn == F_WCHKF || fn == F_WCHKR)
                ch->check(ch->mba, f->buf, n);
            else
                ch->to_mem(ch->mba, f->buf, n);
            f->fc = (uint16_t)len;
            f->records_read++;
        } else {
            f->fc = 0;
        }
        exc = map_status(f, f->op_st, 1);
        ch->done(ch->mba, exc);
        return;
    }
    default: return;
    }
}

/* ---- the MASSBUS side ---- */

static uint16_t rd(void *ctx, unsigned reg)
{
    struct io_tm03 *f = ctx;
    const struct io_tu77 *s = selected(f);
    switch (reg) {
    case R_CS1: return (uint16_t)((f->cs1 & CS1_RW) | CS1_DVA);
    case R_FS: return status(f);
    case R_ER: return f->er;
    case R_MR: return f->mr;
    case R_FC: return f->fc;
    case R_DT: return (uint16_t)(DT_BASE | (s->present ? DT_PRESENT : DT_OFF));
    case R_CC: return f->cc;
    case R_SN: return (uint16_t)(s->present ? 040 | ((f->tc & TC_SLAVE) + 1) : 0);
    case R_TC: return f->tc;
    default:
        error(f, IO_TMER_ILR);
        return 0;
    }
}

static enum io_mb_result wr(void *ctx, unsigned reg, uint16_t v)
{
    struct io_tm03 *f = ctx;
    int busy = (f->cs1 & CS1_GO) != 0;
    switch (reg) {
    case R_CS1:
        if (busy) {
            error(f, IO_TMER_RMR);
            return IO_MB_OK;
        }
        f->cs1 = v & CS1_RW;
        return (f->cs1 & CS1_GO) ? go(f) : IO_MB_OK;
    case R_FC:
        if (busy) {
            error(f, IO_TMER_RMR);
            break;
        }
        f->fc = v;
        f->tc |= TC_FCS;
        break;
    case R_MR: f->mr = v; break;
    case R_TC:
        if (busy) {
            error(f, IO_TMER_RMR);
            break;
        }
        f->tc = (uint16_t)((f->tc & ~TC_RW) | (v & TC_RW) | TC_SAC);
        break;
    case R_FS: case R_ER: case R_DT: case R_CC: case R_SN:
        if (busy)
            error(f, IO_TMER_RMR);
        break; /* read only */
    default:
        error(f, IO_TMER_ILR);
        break;
    }
    return IO_MB_OK;
}

static int ata(void *ctx) { return (((struct io_tm03 *)ctx)->fs & IO_TMFS_ATA) != 0; }
static void clear_ata(void *ctx) { ((struct io_tm03 *)ctx)->fs &= ~IO_TMFS_ATA; }

static void init(void *ctx)
{
    struct io_tm03 *f = ctx;
    io_timer_cancel(&f->timer);
    f->fn = -1;
    f->cs1 = f->fc = f->er = 0;
    f->fs = 0;
    f->tc &= ~TC_FCS;
    for (unsigned i = 0; i < IO_TM03_SLAVES; i++) {
        io_timer_cancel(&f->slave[i].timer);
        f->slave[i].rewinding = f->slave[i].unload = 0;
    }
}

const struct io_mb_drive_ops io_tm03_ops = {
    .read = rd, .write = wr, .ata = ata, .clear_ata = clear_ata, .init = init};

void io_tm03_init(struct io_tm03 *f, unsigned slaves, struct io_events *ev,
                  const struct io_mb_channel *ch)
{
    memset(f, 0, sizeof *f);
    f->ev = ev;
    f->ch = ch;
    f->fn = -1;
    io_timer_init(ev, &f->timer, fire, f);
    for (unsigned i = 0; i < IO_TM03_SLAVES; i++) {
        struct io_tu77 *s = &f->slave[i];
        s->fmt = f;
        s->slave = i;
        s->present = i < slaves;
        io_tape_init(&s->tape);
        io_timer_init(ev, &s->timer, rewind_done, s);
    }
}

void io_tm03_free(struct io_tm03 *f)
{
    io_timer_remove(&f->timer);
    for (unsigned i = 0; i < IO_TM03_SLAVES; i++) {
        io_timer_remove(&f->slave[i].timer);
        io_tape_detach(&f->slave[i].tape);
    }
}

int io_tm03_attach(struct io_tm03 *f, unsigned slave, const char *path, int readonly,
                   char *err, size_t errlen)
{
    if (slave >= IO_TM03_SLAVES || !f->slave[slave].present) {
        snprintf(err, errlen, "no tape transport %u", slave);
        return -1;
    }
    struct io_tu77 *s = &f->slave[slave];
    if (io_tape_attach(&s->tape, path, readonly, err, errlen) < 0)
        return -1;
    s->online = 1;
    s->pe = 0;
    return 0;
}

void io_tm03_detach(struct io_tm03 *f, unsigned slave)
{
    if (slave >= IO_TM03_SLAVES)
        return;
    io_timer_cancel(&f->slave[slave].timer);
    f->slave[slave].rewinding = 0;
    io_tape_detach(&f->slave[slave].tape);
    f->slave[slave].online = 0;
}
