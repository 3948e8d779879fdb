/* A guest gone wild at the I/O registers cannot crash or hang the host
 * (run it under ASan and UBSan: build-san).  The DEUNA is on the network
 * outside the VAX (20,000 frames/s), so frames arrive whatever state the
 * guest leaves it in.  Two parts:
 *
 *  1. every longword, word and byte of every adapter's and device's
 *     registers (the SBIA's, TR3, TR8, TR9, the whole UNIBUS I/O page and
 *     more) gets seeded random values, with random reads between, while
 *     the machine runs on so that the devices' events fire: transfers
 *     through random maps into (mostly non-existent) memory, tape and disk
 *     motion on scratch images, interrupts;
 *  2. a VAX program does the same from the CPU -- random addresses in the
 *     adapters' windows and beyond, random widths and values -- with
 *     handlers for machine checks and every interrupt, twice with the same
 *     seed: the two runs must agree cycle for cycle.
 *
 * argv[1]: rounds of part 1 (default 3); argv[2]: a seed (default fixed,
 * so the suite repeats; others for a soak). */
#include "microcode/le.h"
#include "tests/io/io_rig.h"
#include "vax/asm/vasm.h"
#include "vax/machine/vm.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static char disk_path[64], tape_path[64], ro_path[64];

static struct vax_machine *machine(void)
{
    char err[300];
    struct vm_config cfg = {.memory_mb = 4, .ucode = NULL};
    struct vax_machine *m = vm_new(&cfg, err, sizeof err);
    struct io_netsrc_config net = {.rate = 20000, .seed = 5};
    if (!m || vm_attach(m, "rp0", disk_path, 0, err, sizeof err) < 0 ||
        vm_attach(m, "rp1", ro_path, 1, err, sizeof err) < 0 ||
        vm_attach(m, "tu0", tape_path, 0, err, sizeof err) < 0 ||
        io_system_net_start(vm_io_system(m), &net, NULL, NULL, err, sizeof err) < 0) {
        printf("machine: %s\n", err);
        exit(1);
    }
    return m;
}

/* The DEUNA, one step of a driver's work per call (in order, now and
 * then one at random): GET PCBB; a ring format (mostly sensible);
 * receive buffers and START; frames to send and a polling demand; a
 * random function with random words; now and then a reset (it takes
 * 10 ms: more often, the DEUNA would never finish one).  Its structures
 * live at UNIBUS 0
 * (physical 0x200000), mapped here -- unless the random writes to the
 * map registers unmapped them meanwhile. */
static void deuna_step(struct vax_machine *m, struct io_abus *ab, unsigned *step)
{
    const uint32_t csr = 0x2013F948u, phys = 0x200000u;
    unsigned s = rnd() % 8 == 0 ? rnd() % 6 : 1 + (*step)++ % 5;
    uint8_t b[512];
    for (unsigned i = 0; i < 16; i++)
        io_abus_write(ab, 0, 0x20006800u + 4 * i, 4, 0x80000000u | ((phys >> 9) + i));
    switch (s) {
    case 0:
        io_abus_write(ab, 0, csr, 2, 0x20);                          /* RSET */
        break;
    case 1:
        io_abus_write(ab, 0, csr + 4, 2, rnd() % 4 ? 0 : rnd());      /* PCSR2 */
        io_abus_write(ab, 0, csr + 6, 2, rnd() % 4 ? 0 : rnd());
        io_abus_write(ab, 0, csr, 1, rnd() % 2 ? 0x41 : 0x01);        /* GET PCBB */
        break;
    case 2: {
        /* PCB at 0, UDB at 0x10: rings at 0x40 and 0x80, entries at most 8 */
        uint16_t w[10] = {9, 0x10, 0, 0, 0x40, 0x500, (uint16_t)(1 + rnd() % 8), 0x80, 0x500,
                          (uint16_t)(2 + rnd() % 7)};
        if (rnd() % 4 == 0)
            w[4 + rnd() % 6] = (uint16_t)rnd();
        for (unsigned i = 0; i < 10; i++)
            le_put16(b + (i < 4 ? 2 * i : 0x10 + 2 * (i - 4)), w[i]);
        vm_phys_write(m, phys, b, 0x20);
        io_abus_write(ab, 0, csr, 1, 0x02);                          /* GET CMD */
        break;
    }
    case 3:
        for (unsigned i = 0; i < 8; i++) {                          /* receive entries */
            le_put16(b + 10 * i, (uint16_t)(rnd() % 4 ? 1518 : rnd() % 2000));
            le_put16(b + 10 * i + 2, (uint16_t)(0x400 + 0x600 * (i % 4)));
            le_put16(b + 10 * i + 4, rnd() % 8 ? 0x8000 : (uint16_t)rnd());
            le_put16(b + 10 * i + 6, 0);
        }
        vm_phys_write(m, phys + 0x80, b, 80);
        io_abus_write(ab, 0, csr, 1, rnd() % 2 ? 0x44 : 0x04);        /* START */
        break;
    case 4:
        for (unsigned i = 0; i < 8; i++) {                          /* frames to send */
            le_put16(b + 10 * i, (uint16_t)(rnd() % 4 ? 60 + rnd() % 1455 : rnd()));
            le_put16(b + 10 * i + 2, (uint16_t)(rnd() % 4 ? 0x400 : rnd()));
            le_put16(b + 10 * i + 4, (uint16_t)(0x8000 | (rnd() % 4 ? 0x300 : rnd() & 0x3FF)));
            le_put16(b + 10 * i + 6, 0);
        }
        vm_phys_write(m, phys + 0x40, b, 80);
        io_abus_write(ab, 0, csr, 1, rnd() % 2 ? 0x48 : 0x08);        /* PDMD */
        break;
    default:
        for (unsigned i = 0; i < 4; i++)
            le_put16(b + 2 * i, (uint16_t)(i ? rnd() : rnd() % 0x18));
        vm_phys_write(m, phys, b, 8);
        io_abus_write(ab, 0, csr, 1, rnd() % 16);                    /* anything */
        break;
    }
}

static void make_media(void)
{
    static uint8_t d[64 * 512];
    for (unsigned i = 0; i < sizeof d; i++)
        d[i] = (uint8_t)rnd();
    rig_tempfile(disk_path, sizeof disk_path, d, sizeof d);
    rig_tempfile(ro_path, sizeof ro_path, d, sizeof d);
    uint8_t t[2 * (512 + 8) + 4];
    size_t n = 0;
    for (int r = 0; r < 2; r++) {
        le_put32(t + n, 512);
        memcpy(t + n + 4, d + 512 * r, 512);
        le_put32(t + n + 516, 512);
        n += 520;
    }
    le_put32(t + n, 0);
    rig_tempfile(tape_path, sizeof tape_path, t, n + 4);
}

/* The register windows: base, length. */
static const uint32_t windows[][2] = {
    {0x20080000u, 0x100},          /* SBIA registers and beyond */
    {0x20006000u, 0x2000},         /* TR3: the UBA */
    {0x20010000u, 0x2000},         /* TR8: MBA 0 and its RP06s */
    {0x20012000u, 0x2000},         /* TR9: MBA 1, the TM03 */
    {0x2013E000u, 0x2000},         /* the UNIBUS I/O page */
};

/* Random commands with a chance to run: a drive clear first, maps that
 * point at memory or past it, counts and addresses at random. */
static void commands(struct io_abus *ab)
{
    uint32_t mba = rnd() & 1 ? 0x20012000u : 0x20010000u;
    unsigned drv = rnd() % 4;
    io_abus_write(ab, 0, mba + 0x400 + 0x80 * drv, 4, 011);            /* DCLR */
    io_abus_write(ab, 0, mba + 0x410, 4, 0xFF);                          /* AS */
    for (unsigned i = 0; i < 4; i++)
        io_abus_write(ab, 0, mba + 0x800 + 4 * (rnd() % 256), 4,
                      0x80000000u | (rnd() % 3 ? rnd() % 0x2000 : rnd()));
    io_abus_write(ab, 0, mba + 0x10, 4, rnd());                          /* BC */
    io_abus_write(ab, 0, mba + 0x0C, 4, rnd());                          /* VA */
    int ok = rnd() % 4 != 0; /* mostly addresses and formats that work */
    io_abus_write(ab, 0, mba + 0x400 + 0x80 * drv + 0x14, 4,             /* DA / FC */
                  ok ? (rnd() % 19) << 8 | rnd() % 22 : rnd() % 0x10000);
    io_abus_write(ab, 0, mba + 0x400 + 0x80 * drv + 0x28, 4, ok ? rnd() % 815 : rnd());
    io_abus_write(ab, 0, mba + 0x400 + 0x80 * drv + 0x24, 4,             /* OF / TC */
                  ok && mba == 0x20012000u ? 02300u | (rnd() & 1) : rnd());
    io_abus_write(ab, 0, mba + 0x04, 4, rnd() & 4);                      /* CR: IE or not */
    io_abus_write(ab, 0, mba + 0x400 + 0x80 * drv, 4, (rnd() & 076) | 1);
    /* the DZ: scanner on, a fast line, characters */
    io_abus_write(ab, 0, 0x20006004u, 4, 0x60 | (rnd() & 0x1C));         /* UBA CR */
    io_abus_write(ab, 0, 0x2013E040u, 2, 0x4060 | (rnd() & 0x1000));
    io_abus_write(ab, 0, 0x2013E042u, 2, (rnd() & 0x1F3F) | (14u << 8));
    io_abus_write(ab, 0, 0x2013E044u, 2, rnd());
    for (unsigned i = 0; i < 4; i++)
        io_abus_write(ab, 0, 0x2013E046u, 1, rnd());
}

static void host_part(int rounds)
{
    struct vax_machine *m = machine();
    /* a guest that only waits: BRB . at IPL 31 */
    static const uint8_t loop[] = {0x11, 0xFE};
    vm_phys_write(m, 0x1000, loop, 2);
    vm_set_reg(m, 15, 0x1000);
    vm_set_psl(m, 0x041F0000);
    struct io_system *sys = vm_io_system(m);
    struct vm_stats vs;
    uint64_t accesses = 0, timeouts = 0, errconf = 0;
    unsigned step = 0;
    for (int round = 0; round < rounds; round++) {
        for (unsigned k = 0; k < 4 * sizeof windows / sizeof windows[0]; k++) {
            unsigned w = k < sizeof windows / sizeof windows[0]
                             ? k : rnd() % (sizeof windows / sizeof windows[0]);
            /* most references the way drivers make them (longwords on
             * the SBI side, words on the UNIBUS), the rest anything */
            int natural = windows[w][0] == 0x2013E000u ? 2 : 4;
            for (uint32_t off = 0; off < windows[w][1]; off++) {
                uint32_t pa = windows[w][0] + off;
                int width = 1 << (rnd() % 3);
                if (off % (uint32_t)natural == 0 && rnd() % 8 != 0)
                    width = natural;
                else if (rnd() % 4 != 0)
                    continue;
                uint32_t v = rnd(), got;
                if (rnd() % 8 == 0)
                    v &= 0xFFFF; /* small values start more commands */
                enum io_status st = rnd() % 3 == 0
                    ? io_abus_read(&sys->abus, 0, pa, width, &got)
                    : io_abus_write(&sys->abus, 0, pa, width, v);
                if (w == 0) /* keep SBI cycles enabled, or nothing else is reached */
                    io_abus_write(&sys->abus, 0, 0x20080004u, 4, 0x60000000u | (rnd() & 1) << 31);
                accesses++;
                timeouts += st == IO_TIMEOUT;
                errconf += st == IO_ERRCONF;
                if (off % 64 == 0) { /* let time pass: events fire */
                    commands(&sys->abus);
                    deuna_step(m, &sys->abus, &step);
                    vm_get_stats(m, &vs);
                    vm_run(m, vs.microcycles + 1 + rnd() % 20000);
                }
                if (rnd() % 4096 == 0) { /* now and then take a request */
                    uint32_t vec;
                    int l = io_abus_int_eval(&sys->abus, &vec);
                    if (l)
                        io_abus_int_ack(&sys->abus, l);
                }
                if (rnd() % 512 == 0) /* a DZ user types */
                    io_dz_receive(&sys->dz[0], rnd() % 8, (uint8_t)rnd());
            }
        }
        vm_get_stats(m, &vs);
        vm_run(m, vs.microcycles + IO_MS(200)); /* long motions finish */
    }
    struct vm_io_stats st;
    vm_io_get_stats(m, &st);
    printf("host part: %llu accesses (%llu timeouts, %llu error confirmations), %llu events, "
           "%llu DMA bytes, %llu sectors read, %llu written, %llu tape records read\n",
           (unsigned long long)accesses, (unsigned long long)timeouts,
           (unsigned long long)errconf, (unsigned long long)st.events,
           (unsigned long long)st.dma_bytes, (unsigned long long)st.disk_sectors_read,
           (unsigned long long)st.disk_sectors_written, (unsigned long long)st.tape_records_read);
    CHECK(st.events > 100, "devices did things: %llu events", (unsigned long long)st.events);
    CHECK(st.dma_bytes > 0 && st.disk_sectors_read > 0, "transfers ran");
    CHECK(timeouts > 0 && errconf > 0, "both kinds of error seen");
    const struct io_deuna *de = &sys->deuna;
    const struct io_netsrc_stats *ns = &sys->net->st;
    printf("DEUNA: %llu port commands (%llu refused), %llu ring errors, %llu frames sent, "
           "%llu received, %llu lost for buffers; the network sent %llu, delivered %llu\n",
           (unsigned long long)de->commands, (unsigned long long)de->cmd_errors,
           (unsigned long long)de->ring_errors, (unsigned long long)de->frames_out,
           (unsigned long long)de->frames_in, (unsigned long long)de->rx_nobuf,
           (unsigned long long)(ns->sent[0] + ns->sent[1] + ns->sent[2] + ns->sent[3] + ns->sent[4]),
           (unsigned long long)ns->delivered);
    CHECK(de->commands > 100 && de->cmd_errors > 0 && de->frames_out > 0 && de->frames_in > 0 &&
          de->rx_nobuf > 0, "the DEUNA worked and failed in every way");
    CHECK(!vm_halted(m), "the waiting guest still runs: %s", vm_stop_reason(m));
    vm_free(m);
}

/* The guest part: an LCG picks an address in 0x20000000 + (r & 0x1FFFFF)
 * (all of SBIA 0's window, nexus, registers and UNIBUS space) or, one in
 * 16, the empty slot 1; a width; a value; read or write.  Machine checks
 * resume at the loop; every SCB vector from 0x60 to 0x1FC lands in a
 * handler that reads the UBA's BRRVR for its IPL and returns. */
static const char *guest =
    "    mtpr $0x2000, $0x11\n"
    "    moval mchk, r0\n"
    "    bisl3 $1, r0, *$0x2004\n"
    "    moval intr, r0\n"
    "    bisl2 $1, r0\n"
    "    movl $0x2060, r1\n"
    "1:  movl r0, (r1)+\n"
    "    cmpl r1, $0x2200\n"
    "    blss 1b\n"
    "    mtpr $0, $0x12\n"
    "    movl r11, r6\n"                  /* the seed */
    "    clrl r7\n"
    "loop: mull2 $1103515245, r6\n"
    "    addl2 $12345, r6\n"
    "    extzv $0, $21, r6, r8\n"
    "    bisl2 $0x20000000, r8\n"
    "    bbc $29, r6, 2f\n"
    "    bbc $30, r6, 2f\n"
    "    bbc $31, r6, 2f\n"
    "    bisl2 $0x02000000, r8\n"       /* one in 8: the empty A-bus slot */
    "2:  bbc $26, r6, 5f\n"
    "    bbc $27, r6, 5f\n"
    "    bbc $28, r6, 5f\n"
    "    bicl2 $0xfffffff8, r8\n"        /* one in 8 of them: the DEUNA's PCSRs */
    "    bisl2 $0x2013f948, r8\n"
    "5:  rotl $7, r6, r9\n"               /* the value */
    "    extzv $21, $3, r6, r10\n"        /* the operation */
    "    caseb r10, $0, $7\n"
    "3:  .word 10f-3b, 11f-3b, 12f-3b, 13f-3b, 14f-3b, 15f-3b, 16f-3b, 17f-3b\n"
    "10: movl r9, (r8)\n"
    "    brb next\n"
    "11: movw r9, (r8)\n"
    "    brb next\n"
    "12: movb r9, (r8)\n"
    "    brb next\n"
    "13: movl (r8), r2\n"
    "    brb next\n"
    "14: movzwl (r8), r2\n"
    "    brb next\n"
    "15: movzbl (r8), r2\n"
    "    brb next\n"
    "16: bicl2 $3, r8\n"
    "    movl r9, (r8)\n"
    "    brb next\n"
    "17: bicl2 $1, r8\n"
    "    movw r9, (r8)\n"
    "next: incl r7\n"
    "    cmpl r7, r12\n"
    "    bgeq 6f\n"
    "    brw loop\n"
    "6:  halt\n"
    ".align 2\n"
    "mchk: addl2 (sp)+, sp\n"
    "    moval next, (sp)\n"
    "    incl r3\n"
    "    mtpr $0, $0x4a\n"
    "    rei\n"
    ".align 2\n"
    "intr: incl r4\n"
    "    mfpr $0x12, r5\n"
    "    cmpl r5, $0x14\n"
    "    blss 4f\n"
    "    cmpl r5, $0x17\n"
    "    bgtr 4f\n"
    "    movl *$0x20006030[r5], r2\n"    /* BRRVR of the request's level */
    "    movl $0x10, *$0x2013e040\n"      /* and the DZ cleared */
    "4:  movl $0x1, *$0x20010004\n"       /* MBA inits drop their requests */
    "    movl $0x1, *$0x20012004\n"
    "    rei\n";

struct outcome {
    char reason[160];
    uint32_t r[16];
    uint64_t cycles, instructions, deuna_refs;
};

static void guest_run(uint32_t seed, uint32_t iterations, struct outcome *out)
{
    struct vax_machine *m = machine();
    struct vasm_source s = {.name = "torture.s", .text = guest, .len = strlen(guest)};
    struct vasm_options o = {.base = 0x1000, .entry_symbol = NULL};
    struct vasm_image img;
    struct vasm_diag d;
    if (vasm_assemble(&s, 1, &o, &img, &d) < 0) {
        printf("vasm: %s\n", d.text);
        exit(1);
    }
    vm_phys_write(m, 0x1000, img.bytes, img.size);
    vasm_image_free(&img);
    vm_set_reg(m, 11, seed);
    vm_set_reg(m, 12, iterations);
    vm_set_reg(m, 14, 0x9000);
    vm_set_ipr(m, 4, 0xA000);
    vm_set_reg(m, 15, 0x1000);
    vm_set_psl(m, 0x001F0000);
    vm_run(m, 400000000);
    snprintf(out->reason, sizeof out->reason, "%s", vm_stop_reason(m));
    for (int i = 0; i < 16; i++)
        out->r[i] = vm_reg(m, i);
    struct vm_stats vs;
    vm_get_stats(m, &vs);
    out->cycles = vs.microcycles;
    out->instructions = vs.instructions;
    const struct io_deuna *de = &vm_io_system(m)->deuna;
    out->deuna_refs = de->commands + de->cmd_errors + de->frames_in;
    vm_free(m);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 3;
    if (argc > 2)
        rng = strtoull(argv[2], NULL, 0) | 1;
    make_media();
    host_part(rounds);
    struct outcome a, b;
    uint32_t seed = (uint32_t)rnd();
    guest_run(seed, 20000, &a);
    printf("guest part: %s after %u references, %u machine checks, %u interrupts, "
           "%llu microcycles\n", a.reason, a.r[7], a.r[3], a.r[4], (unsigned long long)a.cycles);
    CHECK(a.r[7] > 1000, "the guest made %u references before: %s", a.r[7], a.reason);
    CHECK(a.r[3] > 0, "machine checks taken and recovered: %u", a.r[3]);
    CHECK(a.deuna_refs > 0, "the DEUNA took commands from the guest");
    guest_run(seed, 20000, &b);
    CHECK(!strcmp(a.reason, b.reason) && a.cycles == b.cycles &&
          a.instructions == b.instructions && !memcmp(a.r, b.r, sizeof a.r) &&
          a.deuna_refs == b.deuna_refs,
          "the same seed, the same run (%llu vs %llu microcycles)",
          (unsigned long long)a.cycles, (unsigned long long)b.cycles);
    unlink(disk_path);
    unlink(ro_path);
    unlink(tape_path);
    return rig_report("io-torture");
}
