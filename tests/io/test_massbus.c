/* The A-bus, the SBIA, the RH780 and its drives, from the register
 * descriptions in 4.3BSD's ioa.h, nexus.h, mbareg.h, hpreg.h, htreg.h and
 * SIMH's models: what 4.3BSD's autoconfiguration and drivers read and
 * write, errors, timing in emulated time, interrupts and their vectors. */
#include "microcode/le.h"
#include "tests/io/io_rig.h"

#define ATTN_VEC(tr) (0x100u + 0x40u + 4u * (tr)) /* IPL 0x15 */

/* ---- the A-bus and the SBIA ---- */

static void abus_sbia(void)
{
    struct io_config cfg = {.dz = 1, .second_sbia = 0};
    struct rig *r = rig_new(&cfg);
    uint32_t v;
    CHECK(rig_rd(r, SBIA_REG(0), 4, &v) == IO_OK && ((v >> 4) & 0xF) == 1 && v == 0x00400010,
          "SBIA CNF 0x%08X: type 1", v);
    CHECK(rig_rd(r, 0x22080000u, 4, &v) == IO_TIMEOUT, "A-bus slot 1 empty: no answer");
    CHECK(rig_rd(r, NEXUS(3), 4, &v) == IO_OK && (v & 0xFF) == 0x28, "TR3: a UBA (0x%08X)", v);
    CHECK(rig_rd(r, NEXUS(8), 4, &v) == IO_OK && v == 0x20, "TR8: an MBA (0x%08X)", v);
    CHECK(rig_rd(r, NEXUS(9), 4, &v) == IO_OK && v == 0x20, "TR9: an MBA");
    /* every other slot times out: 4.3BSD's probenexi skips them */
    int quiet = 1;
    for (unsigned tr = 0; tr < 16; tr++)
        if (tr != 3 && tr != 8 && tr != 9)
            quiet &= rig_rd(r, NEXUS(tr), 4, &v) == IO_TIMEOUT;
    CHECK(quiet, "13 empty slots time out");
    uint32_t er = rd32(r, SBIA_REG(0x34)), ta = rd32(r, SBIA_REG(0x38));
    CHECK((er & IO_SBIER_TMO) && (er & IO_SBIER_MULT), "SBIER 0x%08X: TMO and MULT", er);
    CHECK(ta == NEXUS(0) >> 2, "timeout address of the first: 0x%08X", ta);
    wr32(r, SBIA_REG(0x34), 0x1000); /* 4.3BSD: sbi_error = 0x1000 */
    CHECK((rd32(r, SBIA_REG(0x34)) & (IO_SBIER_TMO | IO_SBIER_MULT)) == 0, "TMO cleared");
    wr32(r, SBIA_REG(0x08), 0xFFFFFFFF); /* errsum = -1, fltsts = 0xc0000 */
    wr32(r, SBIA_REG(0x3C), 0xC0000);
    CHECK(rig_rd(r, SBIA_REG(0xC0), 4, &v) == IO_TIMEOUT, "past the registers");
    CHECK(rig_rd(r, 0x20040000u, 4, &v) == IO_TIMEOUT, "between nexus and registers");
    CHECK(rig_rd(r, UNIBUS(0x40000), 2, &v) == IO_TIMEOUT, "UNIBUS window 1: no UBA 1");
    CHECK(rig_rd(r, SBIA_REG(1), 4, &v) == IO_ERRCONF, "unaligned longword register");
    CHECK(rig_rd(r, SBIA_REG(0), 1, &v) == IO_OK && v == 0x10, "a byte of CNF");
    /* SBI cycles out disabled: every nexus times out */
    wr32(r, SBIA_REG(4), 0);
    CHECK(rig_rd(r, NEXUS(8), 4, &v) == IO_TIMEOUT, "SCOEN off");
    wr32(r, SBIA_REG(4), 0x60000000);
    CHECK(rig_rd(r, NEXUS(8), 4, &v) == IO_OK, "SCOEN on");
    /* a write nobody answers: the write-timeout interrupt */
    CHECK(io_abus_int_eval(&r->sys->abus, &v) == 0, "no request yet");
    CHECK(rig_wr(r, NEXUS(5), 4, 1) == IO_TIMEOUT, "write to an empty slot");
    CHECK(io_abus_int_eval(&r->sys->abus, &v) == IO_WTMO_IPL && v == 0x60, "wtmo 0x%X", v);
    io_abus_int_ack(&r->sys->abus, IO_WTMO_IPL);
    CHECK(io_abus_int_eval(&r->sys->abus, &v) == 0, "taken");
    rig_free(r);

    /* a second SBIA: its nexus interrupts use SCB page 1 */
    cfg.second_sbia = 1;
    r = rig_new(&cfg);
    CHECK(rig_rd(r, 0x22080000u, 4, &v) == IO_OK && v == 0x00400010, "SBIA1 present");
    CHECK(rig_rd(r, 0x22000000u + 0x2000 * 8, 4, &v) == IO_TIMEOUT, "SBIA1 has no nexus");
    struct io_irq l = io_sbia_line(&r->sys->sbia[1], 5, 0x16);
    io_irq_set(&l, 1);
    CHECK(io_abus_int_eval(&r->sys->abus, &v) == 0x16 && v == 0x200u + 0x100 + 0x80 + 20,
          "SBI 1, TR5, IPL 0x16: vector 0x%X", v);
    struct io_irq l0 = io_sbia_line(&r->sys->sbia[0], 2, 0x16);
    io_irq_set(&l0, 1);
    CHECK(io_abus_int_eval(&r->sys->abus, &v) == 0x16 && v == 0x188,
          "SBI 0 first at the same IPL: 0x%X", v);
    io_irq_set(&l0, 0);
    io_irq_set(&l, 0);
    CHECK(io_abus_int_eval(&r->sys->abus, &v) == 0, "lines down");
    rig_free(r);
}

/* ---- the RH780 and the RP06 ---- */

static char disk_path[64];

static void make_disk(void)
{
    static uint8_t img[200 * IO_SECTOR];
    for (unsigned s = 0; s < 200; s++)
        for (unsigned i = 0; i < IO_SECTOR; i++)
            img[s * IO_SECTOR + i] = (uint8_t)(s * 3 + i);
    rig_tempfile(disk_path, sizeof disk_path, img, sizeof img);
}

static void map_pages(struct rig *r, uint32_t mba, unsigned first, uint32_t pfn, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        wr32(r, mba + MBA_MAP(first + i), 0x80000000u | (pfn + i));
}

/* Starts an RP06 data transfer the way 4.3BSD's mbastart and hpstart do. */
static void rp_start(struct rig *r, unsigned drive, unsigned cyl, unsigned trk, unsigned sec,
                     uint32_t bytes, uint32_t va, unsigned fn)
{
    wr32(r, MBA0 + MBA_SR, 0xFFFFFFFF);
    wr32(r, MBA0 + MBA_DRV(drive, 10), cyl);
    wr32(r, MBA0 + MBA_DRV(drive, 5), trk << 8 | sec);
    wr32(r, MBA0 + MBA_BC, (uint32_t)-(int32_t)bytes);
    wr32(r, MBA0 + MBA_VA, va);
    wr32(r, MBA0 + MBA_DRV(drive, 0), fn | 1);
}

static int sector_ok(const uint8_t *p, unsigned s)
{
    for (unsigned i = 0; i < IO_SECTOR; i++)
        if (p[i] != (uint8_t)(s * 3 + i))
            return 0;
    return 1;
}

static void mba_rp(void)
{
    struct rig *r = rig_new(NULL);
    char err[300];
    CHECK(io_system_attach(r->sys, "rp0", disk_path, 0, err, sizeof err) == 0, "attach %s", err);
    uint32_t v;
    /* 4.3BSD's mbafind: drive type and presence */
    uint32_t dt = rd32(r, MBA0 + MBA_DRV(0, 6)) & 0xFFFF;
    CHECK(dt == 020022, "RP06 drive type %o", dt);
    uint32_t ds = rd32(r, MBA0 + MBA_DRV(0, 1));
    CHECK((ds & IO_RPDS_DPR) && (ds & IO_RPDS_MOL) && (ds & IO_RPDS_DRY) && !(ds & IO_RPDS_VV),
          "DS %o: present, on line, ready, volume not yet valid", ds & 0xFFFF);
    ds = rd32(r, MBA0 + MBA_DRV(1, 1));
    CHECK((ds & IO_RPDS_DPR) && !(ds & IO_RPDS_MOL), "hp1: present, no medium (%o)", ds & 0xFFFF);
    wr32(r, MBA0 + MBA_SR, IO_MBSR_NED);
    rd32(r, MBA0 + MBA_DRV(5, 6));
    CHECK(rd32(r, MBA0 + MBA_SR) & IO_MBSR_NED, "drive 5: non-existent drive");
    /* the external register read carries SR's upper half */
    CHECK((rd32(r, MBA0 + MBA_DRV(0, 6)) >> 16) == (rd32(r, MBA0 + MBA_SR) >> 16),
          "SR<31:16> above drive registers");
    wr32(r, MBA0 + MBA_CR, IO_MBCR_INIT);
    CHECK(rd32(r, MBA0 + MBA_SR) == 0, "init clears SR");
    wr32(r, MBA0 + MBA_CR, IO_MBCR_IE);
    /* drive clear, preset: volume valid */
    wr32(r, MBA0 + MBA_DRV(0, 0), 010 | 1);
    wr32(r, MBA0 + MBA_DRV(0, 0), 020 | 1);
    CHECK(rd32(r, MBA0 + MBA_DRV(0, 1)) & IO_RPDS_VV, "PRESET sets VV");
    CHECK((rd32(r, MBA0 + MBA_DRV(0, 4)) & 0xFF) == 0, "no attention after DCLR/PRESET");

    /* a read of 3 sectors from cylinder 0, track 1, sector 20 (blocks
     * 42-44) into pages 16-17 at a byte offset, through the map */
    map_pages(r, MBA0, 4, 16, 4); /* 1536 bytes from offset 100 touch 4 pages */
    uint32_t va = 4 * 512 + 100;
    uint64_t t0 = r->now;
    rp_start(r, 0, 0, 1, 20, 3 * IO_SECTOR, va, 070);
    CHECK(rd32(r, MBA0 + MBA_SR) & IO_MBSR_DTBUSY, "busy");
    CHECK(!(rd32(r, MBA0 + MBA_DRV(0, 1)) & IO_RPDS_DRY), "drive not ready meanwhile");
    /* registers refused while busy: RMR */
    wr32(r, MBA0 + MBA_DRV(0, 5), 0);
    CHECK(RIG_WAIT(r, !(rd32(r, MBA0 + MBA_SR) & IO_MBSR_DTBUSY), IO_MS(100)), "done");
    uint64_t took = r->now - t0;
    /* no seek; rotational latency below one turn; three sector times */
    CHECK(took >= 3 * IO_RP_SECTOR_CYCLES && took <= 25 * IO_RP_SECTOR_CYCLES,
          "transfer took %llu microcycles", (unsigned long long)took);
    uint32_t sr = rd32(r, MBA0 + MBA_SR);
    CHECK((sr & IO_MBSR_DTCMP) && !(sr & IO_MBSR_MBEXC), "DTCMP, no exception (SR 0x%08X)", sr);
    CHECK(sector_ok(r->mem + 16 * 512 + 100, 42) && sector_ok(r->mem + 16 * 512 + 612, 43) &&
          sector_ok(r->mem + 16 * 512 + 1124, 44), "the data in memory");
    CHECK((rd32(r, MBA0 + MBA_BC) & 0xFFFF) == 0 && rd32(r, MBA0 + MBA_VA) == va + 1536,
          "BC counted up to 0, VA advanced");
    /* the register write during the transfer was refused: RMR */
    uint32_t er1 = rd32(r, MBA0 + MBA_DRV(0, 2)) & 0xFFFF;
    CHECK(er1 & IO_RPER1_RMR, "RMR (ER1 %o)", er1);
    CHECK(rd32(r, MBA0 + MBA_DRV(0, 4)) & 1, "RMR raised attention");
    CHECK(io_abus_int_eval(&r->sys->abus, &v) == 0x15 && v == ATTN_VEC(8),
          "MBA0 interrupt vector 0x%X", v);
    io_abus_int_ack(&r->sys->abus, 0x15);
    CHECK(io_abus_int_eval(&r->sys->abus, &v) == 0, "the MBA's request drops when taken");
    uint32_t da = rd32(r, MBA0 + MBA_DRV(0, 5)) & 0xFFFF, dc = rd32(r, MBA0 + MBA_DRV(0, 10));
    CHECK(da == (2u << 8 | 1) && (dc & 0xFFFF) == 0, "DA moved past the transfer: %o", da);
    /* a transfer while ERR is set: ILF; drive clear */
    rp_start(r, 0, 0, 0, 0, 512, 0, 070);
    er1 = rd32(r, MBA0 + MBA_DRV(0, 2)) & 0xFFFF;
    CHECK(er1 & IO_RPER1_ILF, "ILF with ERR set (%o)", er1);
    CHECK(!(rd32(r, MBA0 + MBA_SR) & IO_MBSR_DTBUSY), "refused: not busy");
    wr32(r, MBA0 + MBA_DRV(0, 0), 010 | 1);
    wr32(r, MBA0 + MBA_DRV(0, 4), 0xFF); /* clear attention */
    CHECK(!(rd32(r, MBA0 + MBA_DRV(0, 1)) & IO_RPDS_ERR), "DCLR clears ERR");

    /* a write, then a write check that matches and one that does not */
    memset(r->mem + 16 * 512, 0x5A, 1024);
    map_pages(r, MBA0, 0, 16, 2);
    rp_start(r, 0, 2, 3, 4, 1024, 0, 060);
    CHECK(RIG_WAIT(r, !(rd32(r, MBA0 + MBA_SR) & IO_MBSR_DTBUSY), IO_MS(200)), "write done");
    CHECK(rd32(r, MBA0 + MBA_SR) & IO_MBSR_DTCMP, "write complete");
    /* the seek to cylinder 2 was timed: at least 6 ms */
    rp_start(r, 0, 2, 3, 4, 1024, 0, 050);
    CHECK(RIG_WAIT(r, !(rd32(r, MBA0 + MBA_SR) & IO_MBSR_DTBUSY), IO_MS(200)), "check done");
    CHECK(!(rd32(r, MBA0 + MBA_SR) & (IO_MBSR_WCKUP | IO_MBSR_WCKLWR)), "write check matches");
    r->mem[16 * 512 + 601] = 0;
    rp_start(r, 0, 2, 3, 4, 1024, 0, 050);
    CHECK(RIG_WAIT(r, !(rd32(r, MBA0 + MBA_SR) & IO_MBSR_DTBUSY), IO_MS(200)), "check 2 done");
    sr = rd32(r, MBA0 + MBA_SR);
    CHECK((sr & IO_MBSR_WCKUP) && (sr & IO_MBSR_DTABT), "mismatch at an odd byte: WCKUP (0x%08X)",
          sr);

    /* an invalid map entry and memory that does not exist */
    wr32(r, MBA0 + MBA_MAP(0), 0);
    rp_start(r, 0, 0, 0, 0, 512, 0, 070);
    CHECK(RIG_WAIT(r, !(rd32(r, MBA0 + MBA_SR) & IO_MBSR_DTBUSY), IO_MS(200)), "ended");
    CHECK(rd32(r, MBA0 + MBA_SR) & IO_MBSR_INVMAP, "INVMAP");
    wr32(r, MBA0 + MBA_MAP(0), 0x80000000u | 0x1FFFFF); /* page 0x1FFFFF: no memory */
    rp_start(r, 0, 0, 0, 0, 512, 0, 070);
    CHECK(RIG_WAIT(r, !(rd32(r, MBA0 + MBA_SR) & IO_MBSR_DTBUSY), IO_MS(200)), "ended");
    CHECK(rd32(r, MBA0 + MBA_SR) & IO_MBSR_RDTIMO, "non-existent memory: RDTIMO");

    /* addresses: past the last cylinder (IAE), running off the pack (AOE) */
    wr32(r, MBA0 + MBA_DRV(0, 0), 010 | 1);
    map_pages(r, MBA0, 0, 16, 4);
    rp_start(r, 0, 815, 0, 0, 512, 0, 070);
    er1 = rd32(r, MBA0 + MBA_DRV(0, 2)) & 0xFFFF;
    CHECK(er1 & IO_RPER1_IAE, "cylinder 815: IAE (%o)", er1);
    wr32(r, MBA0 + MBA_DRV(0, 0), 010 | 1);
    rp_start(r, 0, 814, 18, 21, 2048, 0, 070);
    CHECK(RIG_WAIT(r, !(rd32(r, MBA0 + MBA_SR) & IO_MBSR_DTBUSY), IO_MS(200)), "ended");
    er1 = rd32(r, MBA0 + MBA_DRV(0, 2)) & 0xFFFF;
    sr = rd32(r, MBA0 + MBA_SR);
    CHECK((er1 & IO_RPER1_AOE) && (sr & IO_MBSR_MBEXC), "off the end: AOE, MBEXC (%o, 0x%08X)",
          er1, sr);
    CHECK(rd32(r, MBA0 + MBA_DRV(0, 1)) & IO_RPDS_LST, "last sector transferred");
    /* an unknown function, an unknown register */
    wr32(r, MBA0 + MBA_DRV(0, 0), 010 | 1);
    wr32(r, MBA0 + MBA_DRV(0, 0), 016 * 2 + 1);
    CHECK(rd32(r, MBA0 + MBA_DRV(0, 2)) & IO_RPER1_ILF, "function 016: ILF");
    wr32(r, MBA0 + MBA_DRV(0, 0), 010 | 1);
    rd32(r, MBA0 + MBA_DRV(0, 20));
    CHECK(rd32(r, MBA0 + MBA_DRV(0, 2)) & IO_RPER1_ILR, "register 20: ILR");
    wr32(r, MBA0 + MBA_DRV(0, 0), 010 | 1);

    /* a seek: positioning, then attention; the time grows with distance */
    wr32(r, MBA0 + MBA_DRV(0, 0), 006 | 1); /* recalibrate: to cylinder 0 */
    CHECK(RIG_WAIT(r, rd32(r, MBA0 + MBA_DRV(0, 4)) & 1, IO_MS(100)), "recalibrated");
    CHECK((rd32(r, MBA0 + MBA_DRV(0, 11)) & 0xFFFF) == 0, "at cylinder 0");
    io_abus_int_ack(&r->sys->abus, 0x15);
    wr32(r, MBA0 + MBA_DRV(0, 4), 0xFF);
    wr32(r, MBA0 + MBA_DRV(0, 10), 800);
    t0 = r->now;
    wr32(r, MBA0 + MBA_DRV(0, 0), 004 | 1);
    CHECK(rd32(r, MBA0 + MBA_DRV(0, 1)) & IO_RPDS_PIP, "PIP while seeking");
    CHECK(RIG_WAIT(r, rd32(r, MBA0 + MBA_DRV(0, 4)) & 1, IO_MS(100)), "attention at the end");
    took = r->now - t0;
    CHECK(took >= io_rp_seek_cycles(780) && took <= io_rp_seek_cycles(814),
          "long seek %llu", (unsigned long long)took);
    CHECK((rd32(r, MBA0 + MBA_DRV(0, 11)) & 0xFFFF) == 800, "current cylinder 800");
    CHECK(rd32(r, MBA0 + MBA_SR) & IO_MBSR_ATTN, "SR<ATTN>");
    CHECK(io_abus_int_eval(&r->sys->abus, &v) == 0x15, "attention interrupt");
    io_abus_int_ack(&r->sys->abus, 0x15);
    wr32(r, MBA0 + MBA_DRV(0, 4), 1);
    CHECK(!(rd32(r, MBA0 + MBA_SR) & IO_MBSR_ATTN), "AS write clears the drive's attention");
    CHECK(io_rp_seek_cycles(1) < io_rp_seek_cycles(100) &&
          io_rp_seek_cycles(100) < io_rp_seek_cycles(814) && io_rp_seek_cycles(0) == 0 &&
          io_rp_seek_cycles(814) == IO_MS(50), "seek times");
    /* the look-ahead register follows the platter */
    uint32_t la1 = (rd32(r, MBA0 + MBA_DRV(0, 7)) >> 6) & 31;
    rig_run(r, IO_RP_SECTOR_CYCLES);
    uint32_t la2 = (rd32(r, MBA0 + MBA_DRV(0, 7)) >> 6) & 31;
    CHECK(la2 == (la1 + 1) % 22, "LA %u then %u", la1, la2);
    /* a data transfer while another is busy: programming error */
    rp_start(r, 0, 0, 0, 0, 512, 0, 070);
    wr32(r, MBA0 + MBA_DRV(0, 0), 070 | 1);
    CHECK(rd32(r, MBA0 + MBA_SR) & IO_MBSR_PGE, "PGE");
    CHECK(RIG_WAIT(r, !(rd32(r, MBA0 + MBA_SR) & IO_MBSR_DTBUSY), IO_MS(200)), "ended");
    /* the MBA's own registers: VA is 17 bits, longwords only */
    wr32(r, MBA0 + MBA_VA, 0xFFFFFFFF);
    CHECK(rd32(r, MBA0 + MBA_VA) == 0x1FFFF, "VA mask");
    CHECK(rig_rd(r, MBA0 + MBA_SR, 2, &v) == IO_ERRCONF, "a word reference");
    CHECK(rig_rd(r, MBA0 + 0xC00, 4, &v) == IO_TIMEOUT, "past the map");
    rig_free(r);

    /* a write-locked pack */
    r = rig_new(NULL);
    CHECK(io_system_attach(r->sys, "rp1", disk_path, 1, err, sizeof err) == 0, "attach ro");
    CHECK(rd32(r, MBA0 + MBA_DRV(1, 1)) & IO_RPDS_WRL, "WRL");
    map_pages(r, MBA0, 0, 16, 1);
    rp_start(r, 1, 0, 0, 0, 512, 0, 060);
    CHECK(RIG_WAIT(r, !(rd32(r, MBA0 + MBA_SR) & IO_MBSR_DTBUSY), IO_MS(200)), "ended");
    CHECK((rd32(r, MBA0 + MBA_DRV(1, 2)) & IO_RPER1_WLE) && (rd32(r, MBA0 + MBA_SR) &
          IO_MBSR_MBEXC), "WLE and exception");
    /* a drive without a pack: UNS */
    rp_start(r, 2, 0, 0, 0, 512, 0, 070);
    CHECK(rd32(r, MBA0 + MBA_DRV(2, 2)) & IO_RPER1_UNS, "no medium: UNS");
    rig_free(r);
}

/* ---- the TM03 and its TU77s ---- */

static char tape_path[64];

static size_t put_rec(uint8_t *p, uint8_t fill, uint32_t n)
{
    le_put32(p, n);
    for (uint32_t i = 0; i < n; i++)
        p[4 + i] = (uint8_t)(fill + i);
    size_t k = 4 + n + (n & 1);
    if (n & 1)
        p[4 + n] = 0;
    le_put32(p + k, n);
    return k + 4;
}

static void make_tape(void)
{
    static uint8_t img[16384];
    size_t n = 0;
    n += put_rec(img + n, 1, 512);
    n += put_rec(img + n, 2, 512);
    le_put32(img + n, 0);
    n += 4;
    n += put_rec(img + n, 3, 1000);
    n += put_rec(img + n, 4, 300);
    le_put32(img + n, 0);
    n += 4;
    le_put32(img + n, 0);
    n += 4;
    rig_tempfile(tape_path, sizeof tape_path, img, n);
}

#define TU(reg) (MBA1 + MBA_DRV(0, reg))

static void tm_go(struct rig *r, unsigned fn) { wr32(r, TU(0), fn | 1); }
static int tm_ready(struct rig *r) { return (rd32(r, TU(1)) & IO_TMFS_DRY) != 0; }

static void tm_read(struct rig *r, uint32_t bytes)
{
    wr32(r, MBA1 + MBA_SR, 0xFFFFFFFF);
    wr32(r, MBA1 + MBA_BC, (uint32_t)-(int32_t)bytes);
    wr32(r, MBA1 + MBA_VA, 0);
    tm_go(r, 070);
}

static void tm03(void)
{
    struct rig *r = rig_new(NULL);
    char err[300];
    uint32_t v;
    CHECK(io_system_attach(r->sys, "tu0", tape_path, 0, err, sizeof err) == 0, "attach %s", err);
    CHECK((rd32(r, TU(6)) & 0xFFFF) == 0142054, "DT: TM03 with a TU77 (%o)", rd32(r, TU(6)) &
          0xFFFF);
    wr32(r, TU(9), 1); /* slave 1: present, no tape */
    CHECK((rd32(r, TU(6)) & 02000) && !(rd32(r, TU(1)) & IO_TMFS_MOL), "tu1: present, off line");
    wr32(r, TU(9), 2);
    CHECK(!(rd32(r, TU(6)) & 02000), "slave 2 absent");
    CHECK((rd32(r, TU(9)) & 020000), "SAC after a slave change");
    wr32(r, TU(9), 02300); /* 1600 bpi, PDP-11 format, slave 0 */
    uint32_t fs = rd32(r, TU(1));
    CHECK((fs & IO_TMFS_MOL) && (fs & IO_TMFS_BOT) && (fs & IO_TMFS_DRY), "FS %o", fs & 0xFFFF);
    wr32(r, MBA1 + MBA_CR, IO_MBCR_IE);
    for (unsigned i = 0; i < 16; i++)
        wr32(r, MBA1 + MBA_MAP(i), 0x80000000u | (32 + i));
    /* read forward a 512-byte record, exactly */
    uint64_t t0 = r->now;
    tm_read(r, 512);
    CHECK(rd32(r, MBA1 + MBA_SR) & IO_MBSR_DTBUSY, "busy");
    CHECK(rd32(r, TU(0)) & 1, "GO held while busy");
    CHECK(RIG_WAIT(r, tm_ready(r), IO_MS(50)), "record read");
    uint64_t took = r->now - t0;
    CHECK(took >= IO_US(4800) + 512 * 62 && took < IO_US(4800) + 513 * 63,
          "a record at 125 in/s took %llu", (unsigned long long)took);
    CHECK(r->mem[32 * 512] == 1 && r->mem[32 * 512 + 511] == (uint8_t)(1 + 511), "data");
    CHECK((rd32(r, TU(5)) & 0xFFFF) == 512 && !(rd32(r, TU(2)) & 0xFFFF), "FC 512, no error");
    fs = rd32(r, TU(1));
    CHECK((fs & IO_TMFS_PES) && !(fs & IO_TMFS_BOT), "PE, off BOT (%o)", fs & 0xFFFF);
    CHECK(rd32(r, MBA1 + MBA_SR) & IO_MBSR_DTCMP, "DTCMP");
    CHECK(io_abus_int_eval(&r->sys->abus, &v) == 0x15 && v == ATTN_VEC(9),
          "MBA1 vector 0x%X", v);
    io_abus_int_ack(&r->sys->abus, 0x15);
    /* a request longer than the record: FCE (a short record) */
    tm_read(r, 1024);
    CHECK(RIG_WAIT(r, tm_ready(r), IO_MS(50)), "record 2");
    CHECK((rd32(r, TU(2)) & IO_TMER_FCE) && (rd32(r, TU(5)) & 0xFFFF) == 512, "short: FCE");
    tm_go(r, 010); /* drive clear */
    /* the tape mark: TM, FCE and a MASSBUS exception */
    tm_read(r, 512);
    CHECK(RIG_WAIT(r, tm_ready(r), IO_MS(50)), "mark");
    CHECK((rd32(r, TU(1)) & IO_TMFS_TM) && (rd32(r, MBA1 + MBA_SR) & IO_MBSR_MBEXC),
          "TM and MBEXC");
    tm_go(r, 010);
    /* space forward 5 records: stops at the second file's mark, FCE */
    wr32(r, TU(5), (uint32_t)-5 & 0xFFFF);
    tm_go(r, 030);
    CHECK(rd32(r, TU(1)) & IO_TMFS_PIP, "PIP while spacing");
    CHECK(RIG_WAIT(r, tm_ready(r), IO_MS(100)), "spaced");
    CHECK((rd32(r, TU(1)) & IO_TMFS_TM) && (rd32(r, TU(2)) & IO_TMER_FCE) &&
          (rd32(r, TU(5)) & 0xFFFF) == 0xFFFE, "three moves, the last a mark (FC %o)",
          rd32(r, TU(5)) & 0xFFFF);
    CHECK(rd32(r, TU(4)) & 1, "attention at the end of a space");
    tm_go(r, 010);
    wr32(r, TU(4), 1);
    /* space reverse 1: back over that mark */
    wr32(r, TU(5), 0xFFFF);
    tm_go(r, 032);
    CHECK(RIG_WAIT(r, tm_ready(r), IO_MS(100)), "reverse");
    CHECK(rd32(r, TU(1)) & IO_TMFS_TM, "over the mark backwards");
    tm_go(r, 010);
    /* read reverse the 300-byte record: bytes stored last first */
    wr32(r, MBA1 + MBA_SR, 0xFFFFFFFF);
    wr32(r, MBA1 + MBA_BC, (uint32_t)-300);
    wr32(r, MBA1 + MBA_VA, 0);
    tm_go(r, 076);
    CHECK(RIG_WAIT(r, tm_ready(r), IO_MS(100)), "read reverse");
    CHECK(r->mem[32 * 512] == (uint8_t)(4 + 299) && r->mem[32 * 512 + 299] == 4, "reversed");
    /* rewind: the formatter is free at once, the transport rewinds */
    t0 = r->now;
    tm_go(r, 006);
    CHECK(!(rd32(r, TU(0)) & 1) && (rd32(r, TU(1)) & IO_TMFS_PIP), "rewinding");
    CHECK(RIG_WAIT(r, rd32(r, TU(4)) & 1, IO_MS(1000)), "rewound");
    CHECK((rd32(r, TU(1)) & IO_TMFS_BOT) && (rd32(r, TU(1)) & IO_TMFS_SSC), "BOT, SSC");
    CHECK(r->now - t0 >= IO_MS(1), "a rewind takes time");
    /* writes are refused on a write-locked tape */
    rig_free(r);
    r = rig_new(NULL);
    CHECK(io_system_attach(r->sys, "tu0", tape_path, 1, err, sizeof err) == 0, "attach ro");
    wr32(r, TU(9), 02300);
    CHECK(rd32(r, TU(1)) & IO_TMFS_WRL, "WRL");
    wr32(r, TU(5), 0xFE00);
    tm_go(r, 060);
    CHECK(rd32(r, TU(2)) & IO_TMER_NEF, "write on a locked tape: NEF");
    tm_go(r, 010);
    wr32(r, TU(9), 02301);
    tm_go(r, 070);
    CHECK(rd32(r, TU(2)) & IO_TMER_UNS, "tu1 without a tape: UNS");
    tm_go(r, 010);
    wr32(r, TU(9), 00000); /* format 0: not implemented */
    tm_go(r, 070);
    CHECK(rd32(r, TU(2)) & IO_TMER_FMT, "format 0: FMT");
    tm_go(r, 010);
    rd32(r, TU(12));
    CHECK(rd32(r, TU(2)) & IO_TMER_ILR, "register 12: ILR");
    rig_free(r);

    /* write, tape mark, read back; reading past the end: OPI */
    r = rig_new(NULL);
    CHECK(io_system_attach(r->sys, "tu0", tape_path, 0, err, sizeof err) == 0, "attach rw");
    wr32(r, TU(9), 02300);
    wr32(r, MBA1 + MBA_MAP(0), 0x80000000u | 40);
    for (unsigned i = 0; i < 80; i++)
        r->mem[40 * 512 + i] = (uint8_t)(0xC0 + i);
    wr32(r, MBA1 + MBA_BC, (uint32_t)-80);
    wr32(r, MBA1 + MBA_VA, 0);
    wr32(r, TU(5), (uint32_t)-80 & 0xFFFF);
    tm_go(r, 060);
    CHECK(RIG_WAIT(r, tm_ready(r), IO_MS(100)), "written");
    CHECK(!(rd32(r, TU(2)) & 0xFFFF) && (rd32(r, MBA1 + MBA_SR) & IO_MBSR_DTCMP), "no error");
    tm_go(r, 026);
    CHECK(RIG_WAIT(r, tm_ready(r), IO_MS(100)), "mark written");
    CHECK(rd32(r, TU(4)) & 1, "attention after the mark");
    wr32(r, TU(4), 1);
    tm_go(r, 006);
    CHECK(RIG_WAIT(r, rd32(r, TU(4)) & 1, IO_MS(100)), "rewound");
    memset(r->mem + 40 * 512, 0, 512);
    wr32(r, MBA1 + MBA_BC, (uint32_t)-80);
    wr32(r, MBA1 + MBA_VA, 0);
    tm_go(r, 070);
    CHECK(RIG_WAIT(r, tm_ready(r), IO_MS(100)), "read back");
    CHECK(r->mem[40 * 512] == 0xC0 && r->mem[40 * 512 + 79] == (uint8_t)(0xC0 + 79), "the record");
    tm_read(r, 512);
    CHECK(RIG_WAIT(r, tm_ready(r), IO_MS(100)), "the mark");
    tm_go(r, 010);
    tm_read(r, 512);
    CHECK(RIG_WAIT(r, tm_ready(r), IO_MS(100)), "past the end");
    CHECK(rd32(r, TU(2)) & IO_TMER_OPI, "end of medium: OPI");
    rig_free(r);
}

int main(void)
{
    abus_sbia();
    make_disk();
    mba_rp();
    unlink(disk_path);
    make_tape();
    tm03();
    unlink(tape_path);
    return rig_report("io-massbus");
}
