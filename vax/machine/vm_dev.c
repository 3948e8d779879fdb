/* The devices behind the IPR port and the interrupt request logic
 * (MICROARCHITECTURE.md §5, §10): the interval clock and TODR (derived
 * from the microcycle count, so every run is exactly repeatable), the
 * console terminal (RXCS/RXDB/TXCS/TXDB, 8600 TXCS line model), the
 * software interrupt registers SIRR/SISR, SID, the PAMM registers and the
 * other 8600 registers.  Everything a VAX instruction *means* (stack
 * pointer selection, IPL, ASTLVL checks, the exception frames) is
 * microcode; this file is only what the registers do by themselves. */
#include <stdio.h>
#include <string.h>

#include "vax/machine/vm_dev.h"
#include "vax/machine/vm_io.h"
#include "vax/machine/vm_mem_fast.h"
#include "vax/machine/vm_probe_unit.h"
#include "vax/machine/vm_spam.h"

#define SID_8600 0x040704D2u

enum {
    IPR_SIRR = 0x14, IPR_SISR = 0x15, IPR_ICCS = 0x18, IPR_NICR = 0x19,
    IPR_ICR = 0x1A, IPR_TODR = 0x1B, IPR_RXCS = 0x20, IPR_RXDB = 0x21,
    IPR_TXCS = 0x22, IPR_TXDB = 0x23, IPR_ACCS = 0x28, IPR_MAPEN = 0x38,
    IPR_TBIA = 0x39, IPR_TBIS = 0x3A, IPR_PME = 0x3D, IPR_SID = 0x3E,
    IPR_TBCHK = 0x3F, IPR_PAMACC = 0x40, IPR_PAMLOC = 0x41, IPR_CSWP = 0x42,
    IPR_MDCTL = 0x45, IPR_MERG = 0x47, IPR_CRBT = 0x48, IPR_EHSR = 0x4A,
    IPR_STXCS = 0x4C, IPR_STXDB = 0x4D, IPR_ESPA = 0x4E, IPR_ESPD = 0x4F,
};

/* Which IPR numbers exist, for reading (R) and writing (W); every other
 * number (and any number above 0xFF) sets IPR.BAD.  As SIMH's 8600. */
static int ipr_exists(uint32_t n, int write)
{
    if (n > 0x4F)
        return 0;
    switch (n) {
    case 0x00: case 0x01: case 0x02: case 0x03: case 0x04: /* stack ptrs */
    case 0x08: case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D:
    case 0x10: case 0x11: case 0x12: case 0x13: case IPR_SISR:
    case IPR_ICCS: case IPR_NICR: case IPR_TODR: case IPR_RXCS:
    case IPR_TXCS: case IPR_ACCS: case IPR_MAPEN: case IPR_PME:
    case IPR_PAMACC: case IPR_PAMLOC: case IPR_CSWP: case IPR_MDCTL:
    case IPR_MERG: case IPR_EHSR: case IPR_STXCS: case IPR_STXDB:
    case IPR_ESPA: case IPR_ESPD:
        return 1;
    case IPR_SIRR: case IPR_TXDB: case IPR_TBIA: case IPR_TBIS:
    case IPR_TBCHK: case IPR_CRBT:
        return write;
    case IPR_ICR: case IPR_RXDB: case IPR_SID:
        return !write || n == IPR_SID; /* SID: writes ignored */
    default:
        return 0;
    }
}

/* ---- interval clock: ICR + 1 every 12.5 microcycles (1 us) ---- */

#define ICCS_RUN 0x1u
#define ICCS_XFR 0x10u
#define ICCS_SGL 0x20u
#define ICCS_IE 0x40u
#define ICCS_INT 0x80u
#define ICCS_ERR 0x80000000u
#define CYCLES_PER_TODR 125000u /* 10 ms */
#define TTO_DELAY 100           /* microcycles from TXDB to READY */
#define RX_QUIET 20000          /* console quiet time before input arrives */
#define RX_POLLS 1000              /* RXCS reads that show a program waiting */

static void icr_overflow(struct vax_machine *m)
{
    m->icr = m->nicr;
    if (m->iccs & ICCS_INT)
        m->iccs |= ICCS_ERR;
    else
        m->iccs |= ICCS_INT;
    if (m->iccs & ICCS_IE)
        m->tmr_int = 1;
}

static void clock_update(struct vax_machine *m)
{
    uint64_t now = m->st.microcycles;
    uint64_t d = now - m->clk_last;
    m->clk_last = now;
    if (!(m->iccs & ICCS_RUN)) {
        m->clk_frac = 0;
        return;
    }
    uint64_t half = d * 2 + m->clk_frac; /* 25 half-cycles per tick */
    uint64_t ticks = half / 25;
    m->clk_frac = (uint32_t)(half % 25);
    while (ticks) {
        uint64_t room = 0x100000000ull - m->icr;
        if (ticks < room) {
            m->icr += (uint32_t)ticks;
            break;
        }
        ticks -= room;
        icr_overflow(m);
    }
}

static void iccs_write(struct vax_machine *m, uint32_t v)
{
    clock_update(m);
    m->iccs &= ~(v & (ICCS_INT | ICCS_ERR));              /* W1C */
    m->iccs = (m->iccs & ~(ICCS_IE | ICCS_RUN)) | (v & (ICCS_IE | ICCS_RUN));
    if (v & ICCS_XFR)
        m->icr = m->nicr;
    if (!(v & ICCS_RUN) && (v & ICCS_SGL)) {
        m->icr++;
        if (m->icr == 0)
            icr_overflow(m);
    }
    if ((m->iccs & (ICCS_INT | ICCS_IE)) != (ICCS_INT | ICCS_IE))
        m->tmr_int = 0;
}

/* ---- console terminal ---- */

#define CSR_DONE 0x80u
#define CSR_IE 0x40u
#define TXCS_WMN 0x8000u
#define LC_REBOOT 0x02u        /* logical console function: boot the CPU */
#define TXCS_TEN 0xF0000u

static void con_putc(struct vax_machine *m, int c)
{
    if (!m->con_discard) { /* (the lock-step check's second machine prints nothing) */
        FILE *f = m->con_out ? (FILE *)m->con_out : stdout;
        fputc(c, f);
        fflush(f);
    }
    vm_io_console_output(m, (uint8_t)c); /* a console script watches (the second
                                           * machine's too: it types the same) */
}

/* A character arrives in the receiver (a console script typing it):
 * RXDB holds one; one arriving before the program read the last replaces
 * it, as the 4.3BSD README says the hardware loses it. */
void vm_console_receive(struct vax_machine *m, uint8_t c)
{
    m->rxdb = c;
    m->rxcs |= CSR_DONE;
    m->rx_polls = 0;
    if (m->rxcs & CSR_IE)
        m->tti_int = 1;
    m->int_dirty = 1;
}

static int con_getc(struct vax_machine *m)
{
    if (m->con_in) {
        if (m->con_in_pos < m->con_in_len)
            return m->con_in[m->con_in_pos++];
        return -1;
    }
    if (m->con_in_eof)
        return -1;
    int c = getchar();
    if (c == EOF)
        m->con_in_eof = 1;
    return c == EOF ? -1 : c;
}

/* The 8600 transmitter: TXCS<11:8> names the line the next TXDB write
 * goes to (the first enabled line of logical console, EMM, remote
 * services, console terminal; 0xF if none is enabled). */
static void txcs_update_id(struct vax_machine *m)
{
    uint32_t en = (m->txcs >> 16) & 0xF, id = 0xF;
    if (en & 8) id = 3;
    else if (en & 4) id = 2;
    else if (en & 2) id = 1;
    else if (en & 1) id = 0;
    m->txcs = (m->txcs & ~0xF00u) | (id << 8);
}

static void console_update(struct vax_machine *m)
{
    uint64_t now = m->st.microcycles;
    if (!(m->txcs & CSR_DONE) && now >= m->tto_done_at) {
        m->txcs |= CSR_DONE;
        txcs_update_id(m);
        if (m->txcs & CSR_IE)
            m->tto_int = 1;
    }
    /* Input arrives one character at a time, when the receiver is empty,
     * the transmitter idle and the console has been quiet for RX_QUIET
     * microcycles: a typist answering a prompt.  Deterministic. */
    if (!(m->rxcs & CSR_DONE) && (m->txcs & CSR_DONE) &&
        ((m->rxcs & CSR_IE) || m->rx_polls >= RX_POLLS) &&
        now - m->con_quiet_since >= RX_QUIET &&
        !(m->con_in ? m->con_in_pos >= m->con_in_len : m->con_in_eof)) {
        int c = con_getc(m);
        if (c >= 0) {
            m->rxdb = (uint32_t)c & 0xFF;
            m->rxcs |= CSR_DONE;
            m->rx_polls = 0;
            if (m->rxcs & CSR_IE)
                m->tti_int = 1;
        }
    }
}

static void dev_update(struct vax_machine *m)
{
    clock_update(m);
    console_update(m);
    vm_net_update(m);
    vm_io_update(m);
}

/* ---- interrupt request logic ---- */

/* The request sources, in the order that decides between equal IPLs. */
enum { SRC_NONE, SRC_IO, SRC_TMR, SRC_NET, SRC_TTI, SRC_TTO, SRC_SW };

static int int_select(struct vax_machine *m, uint32_t *vec, int *src)
{
    uint32_t ipl = (m->psl >> 16) & 0x1F;
    int best = 0;
    uint32_t bv = 0;
    *src = SRC_NONE;
#define CANDIDATE(lvl, v, s)                                  \
    do {                                                      \
        if ((lvl) > best && (uint32_t)(lvl) > ipl) {          \
            best = (lvl);                                     \
            bv = (v);                                         \
            *src = (s);                                       \
        }                                                     \
    } while (0)
    dev_update(m);
    uint32_t iov;
    int iol = vm_io_int_eval(m, &iov); /* adapters: 0x14-0x17, write timeout 0x1D */
    CANDIDATE(iol, iov, SRC_IO);
    if (m->tmr_int)
        CANDIDATE(0x18, 0xC0u, SRC_TMR);
    if (vm_net_irq(&m->net)) /* vm_net.c: a level */
        CANDIDATE(VM_NET_IPL, (uint32_t)VM_NET_VECTOR, SRC_NET);
    if (m->tti_int)
        CANDIDATE(0x14, 0xF8u, SRC_TTI);
    if (m->tto_int)
        CANDIDATE(0x14, 0xFCu, SRC_TTO);
    for (uint32_t i = 15; i > ipl && i > (uint32_t)best; i--)
        if (m->sisr >> i & 1) {
            CANDIDATE((int)i, 0x80 + 4 * i, SRC_SW);
            break;
        }
#undef CANDIDATE
    *vec = bv;
    return best;
}

/* The highest request above the current IPL: returns its IPL (0: none)
 * and its SCB vector offset in *vec. */
int vm_int_eval(struct vax_machine *m, uint32_t *vec)
{
    int src;
    return int_select(m, vec, &src);
}

/* The earliest microcycle at which a device could raise a request by
 * itself (the ICR overflowing with interrupts enabled, the transmitter
 * becoming ready, console input arriving, a packet arriving).  IRD skips
 * the interrupt check until then unless the IPL changed or an IPR was
 * touched (vm.c); an early answer only costs a check. */
uint64_t vm_dev_next_event(const struct vax_machine *m)
{
    uint64_t next = UINT64_MAX;
    if ((m->iccs & ICCS_RUN) && (m->iccs & ICCS_IE)) {
        uint64_t half = (0x100000000ull - m->icr) * 25 - m->clk_frac;
        uint64_t t = m->clk_last + half / 2;
        if (t < next)
            next = t;
    }
    if (!(m->txcs & CSR_DONE) && m->tto_done_at < next)
        next = m->tto_done_at;
    if (!(m->rxcs & CSR_DONE) && (m->txcs & CSR_DONE) &&
        ((m->rxcs & CSR_IE) || m->rx_polls >= RX_POLLS) &&
        !(m->con_in ? m->con_in_pos >= m->con_in_len : m->con_in_eof) &&
        m->con_quiet_since + RX_QUIET < next)
        next = m->con_quiet_since + RX_QUIET;
    if (m->net.present && m->net.next_at < next)
        next = m->net.next_at;
    uint64_t io = vm_io_next_event(m);
    if (io < next)
        next = io;
    return next;
}

/* INTACK: the microcode has taken the request vm_int_eval names. */
void vm_int_ack(struct vax_machine *m)
{
    m->int_dirty = 1;
    uint32_t vec;
    int src, lvl = int_select(m, &vec, &src);
    switch (src) {
    case SRC_IO: vm_io_int_ack(m, lvl); break;
    case SRC_TMR: m->tmr_int = 0; break;
    case SRC_TTI: m->tti_int = 0; break;
    case SRC_TTO: m->tto_int = 0; break;
    case SRC_SW: m->sisr &= ~(1u << lvl); break;
    default: break; /* the network's level clears at its CSR */
    }
    if (m->prb) /* the probe unit counts interrupt nesting */
        vm_probe_int_ack(m);
}

void vm_dev_reset(struct vax_machine *m)
{
    m->txcs = (1u << 16) | CSR_DONE; /* console terminal enabled, ready */
    txcs_update_id(m);
    m->todr_base = 0;
    vm_io_setup(m);
}

/* ---- the IPR port ---- */

/* SPAM's private numbers (vm_spam.h) exist only between a TRACEWR
 * microorder and the next IRD.  Only spam.mic issues TRACEWR, so the MTPR
 * and MFPR flows (and with them every VAX program) never reach them. */
static int spam_port_refuses(const struct vax_machine *m, uint32_t n)
{
    return vm_spam_ipr_private(n) && !m->spam_window;
}

/* Registers whose access changes no interrupt request and no device's
 * next event: the stack pointers, the base and length registers, PCBB,
 * SCBB and ASTLVL (and, read, SISR).  The exception, interrupt and REI
 * flows read and write them through the port, and the IRD after them
 * need not ask the request logic again (int_dirty): what a device raises
 * by itself in dev_update is at its next event or later, which IRD
 * watches anyway (int_next). */
static int ipr_quiet(uint32_t n, int write)
{
    return n <= 0x04 || (n >= 0x08 && n <= 0x0D) || n == 0x10 || n == 0x11 || n == 0x13 ||
           (!write && n == IPR_SISR);
}

uint32_t vm_ipr_read(struct vax_machine *m, uint32_t n)
{
    if (!ipr_quiet(n, 0))
        m->int_dirty = 1; /* a read may clear a request (RXDB) */
    if (vm_probe_ipr(n)) { /* the probe unit's, in a private window (vm_probe_unit.h) */
        uint32_t v = 0;
        m->ipr_bad = !m->spam_window || vm_probe_ipr_read(m, n, &v) < 0;
        return m->ipr_bad ? 0 : v;
    }
    m->ipr_bad = !ipr_exists(n, 0);
    if (vm_spam_ipr_private(n)) { /* SPAM's private window (vm_spam.h) */
        m->ipr_bad = spam_port_refuses(m, n);
        return m->ipr_bad ? 0 : m->ipr[n];
    }
    if (vm_net_ipr(n)) /* the network interface (vm_net.c), if present */
        return vm_net_ipr_read(m, n);
    if (m->ipr_bad)
        return 0;
    dev_update(m);
    switch (n) {
    case IPR_SISR: return m->sisr & 0xFFFE;
    case IPR_ICCS: return m->iccs & (ICCS_ERR | ICCS_INT | ICCS_IE | ICCS_RUN);
    case IPR_NICR: return m->nicr;
    case IPR_ICR: return m->icr;
    case IPR_TODR:
        return m->todr_base + (uint32_t)((m->st.microcycles - m->todr_t0) / CYCLES_PER_TODR);
    case IPR_RXCS:
        if (!(m->rxcs & CSR_DONE) && m->rx_polls < RX_POLLS)
            m->rx_polls++; /* the program is polling for input */
        return m->rxcs & (CSR_DONE | CSR_IE);
    case IPR_RXDB: {
        uint32_t t = m->rxdb;
        if (m->rxcs & CSR_DONE) {
            t |= 0xDu << 16; /* carrier on LC, EMM and CT lines (SIMH) */
            m->rxcs &= ~CSR_DONE;
            m->tti_int = 0;
        }
        m->con_quiet_since = m->st.microcycles;
        return t;
    }
    case IPR_TXCS: return m->txcs & (CSR_DONE | CSR_IE | TXCS_TEN | 0xF00u);
    case IPR_ACCS: return 0;
    case IPR_MAPEN: return m->ipr[n] & 1;
    case IPR_SID: return SID_8600;
    case IPR_PAMLOC: return m->pamloc;
    case IPR_PAMACC: return (m->pamloc & 0x3FF00000u) | m->pamm[m->pamloc >> 20];
    case IPR_CSWP: return m->cswp & 0xF;
    case IPR_MDCTL: return m->mdctl & 0x6F0F;
    case IPR_MERG: return m->ipr[IPR_MERG];
    case IPR_EHSR: return m->ehsr & 0x20;
    /* the E-box scratchpad the microcode also uses (LSA, LSB) */
    case IPR_ESPA: return m->espa;
    case IPR_ESPD: return m->ls[m->espa % VM_LS_WORDS];
    default: return m->ipr[n];
    }
}

void vm_ipr_write(struct vax_machine *m, uint32_t n, uint32_t v)
{
    if (!ipr_quiet(n, 1))
        m->int_dirty = 1;
    if (vm_probe_ipr(n)) {
        m->ipr_bad = !m->spam_window || vm_probe_ipr_write(m, n, v) < 0;
        return;
    }
    m->ipr_bad = !ipr_exists(n, 1);
    if (vm_spam_ipr_private(n)) {
        m->ipr_bad = spam_port_refuses(m, n);
        if (!m->ipr_bad)
            m->ipr[n] = v;
        return;
    }
    if (vm_net_ipr(n)) {
        vm_net_ipr_write(m, n, v);
        return;
    }
    if (m->ipr_bad)
        return;
    dev_update(m);
    switch (n) {
    case IPR_SIRR:
        if (v & 0xF)
            m->sisr |= 1u << (v & 0xF);
        break;
    case IPR_SISR: m->sisr = v & 0xFFFE; break;
    case IPR_ICCS: iccs_write(m, v); break;
    case IPR_NICR: m->nicr = v; break;
    case IPR_TODR:
        m->todr_base = v;
        m->todr_t0 = m->st.microcycles;
        break;
    case IPR_RXCS:
        if (!(v & CSR_IE))
            m->tti_int = 0;
        else if ((m->rxcs & (CSR_DONE | CSR_IE)) == CSR_DONE)
            m->tti_int = 1;
        m->rxcs = (m->rxcs & ~CSR_IE) | (v & CSR_IE);
        break;
    case IPR_TXCS:
        m->txcs = (m->txcs & ~CSR_IE) | (v & CSR_IE);
        if (v & TXCS_WMN) {
            m->txcs = (m->txcs & ~TXCS_TEN) | (v & TXCS_TEN);
            txcs_update_id(m);
            if (m->txcs & CSR_DONE && m->txcs & CSR_IE)
                m->tto_int = 1;
        }
        if (!(m->txcs & CSR_IE))
            m->tto_int = 0;
        else if (m->txcs & CSR_DONE)
            m->tto_int = 1;
        break;
    case IPR_TXDB: {
        uint32_t id = (m->txcs >> 8) & 0xF;
        if (id <= 3) {
            m->txcs &= ~CSR_DONE;
            m->tto_int = 0;
            m->tto_done_at = m->st.microcycles + TTO_DELAY;
            m->con_quiet_since = m->st.microcycles;
            m->rx_polls = 0;
            if (id == 0)
                con_putc(m, (int)(v & 0xFF));
            else if (id == 3 && (v & 0xFF) == LC_REBOOT && !m->stop) {
                /* the logical console's reboot (4.3BSD's boot() after a
                 * halt or panic): the console would boot the default
                 * device again; this machine stops and says so */
                m->stop = VM_STOPPED;
                snprintf(m->reason, sizeof m->reason,
                         "reboot requested through the logical console");
            }
            /* other lines and logical console functions are absorbed */
        }
        break;
    }
    case IPR_SID: case IPR_ACCS: case IPR_CRBT: break;
    /* MERG, the M-box error generator: its controls read back as written
     * (4.3BSD clears and sets <10>, the CRD inhibit); none makes errors
     * here.  The machine-check frame reports it (exc.mic). */
    case IPR_MERG: m->ipr[IPR_MERG] = v; break;
    case IPR_MAPEN: m->ipr[n] = v & 1; vm_tb_flush(m, 1); break;
    /* the translation buffer (MICROARCHITECTURE.md §11): TBIA and a write
     * of SBR/SLR or MAPEN flush it; a write of P0BR..P1LR (MTPR, LDPCTX)
     * flushes the process half; TBIS invalidates the VA's entry */
    case IPR_TBIA: vm_tb_flush(m, 1); break;
    case IPR_TBIS: vm_tb_inval(m, v); break;
    /* TBCHK's answer comes back on the port's BAD line: set = in the TB
     * (priv.mic MTPR.BAD turns it into PSL<V>) */
    case IPR_TBCHK: m->ipr_bad = vm_tb_check(m, v); break;
    case 0x08: case 0x09: case 0x0A: case 0x0B:
        m->ipr[n] = v;
        vm_tb_flush(m, 0);
        break;
    case 0x0C: case 0x0D:
        m->ipr[n] = v;
        vm_tb_flush(m, 1);
        break;
    case IPR_PAMLOC: m->pamloc = v & 0x3FF00000u; break;
    case IPR_PAMACC: /* our extension (SIMH ignores it): load the entry */
        m->pamm[m->pamloc >> 20] = (uint8_t)(v & 0x1F);
        vm_memo_flush(m);
        break;
    case IPR_CSWP: m->cswp = v & 0xF; break;
    case IPR_MDCTL: m->mdctl = v & 0x6F0F; break;
    case IPR_EHSR: m->ehsr = v & 0x20; break;
    case IPR_ESPA: m->espa = v & (VM_LS_WORDS - 1); break;
    case IPR_ESPD: m->ls[m->espa % VM_LS_WORDS] = v; break;
    default: m->ipr[n] = v;
    }
}

/* ---- the host's side (vm_host.c: vm_ipr, vm_set_ipr, vm_console_input) ---- */

uint32_t vm_dev_host_ipr_read(struct vax_machine *m, int n)
{
    if (vm_spam_ipr_private((uint32_t)n & 0xFF)) /* the host: no gate */
        return m->ipr[n & 0xFF];
    return vm_ipr_read(m, (uint32_t)n & 0xFF);
}

void vm_dev_host_ipr_write(struct vax_machine *m, int n, uint32_t v)
{
    m->int_dirty = 1;
    if (vm_spam_ipr_private((uint32_t)n & 0xFF))
        m->ipr[n & 0xFF] = v;
    else
        vm_ipr_write(m, (uint32_t)n & 0xFF, v);
}

void vm_dev_console_input(struct vax_machine *m, const void *buf, size_t n)
{
    m->con_in = buf;
    m->con_in_len = n;
    m->con_in_pos = 0;
    m->int_dirty = 1;
}

void vm_console_output(struct vax_machine *m, void *file) { m->con_out = file; }

int vm_console_type(struct vax_machine *m, uint8_t c)
{
    if (m->rxcs & CSR_DONE)
        return -1; /* the receiver still holds the last one */
    vm_console_receive(m, c);
    return 0;
}

void vm_scb_counts(const struct vax_machine *m, uint64_t out[128])
{
    memcpy(out, m->scb_count, sizeof m->scb_count);
}
