/* The I/O from the CPU's side: VAX programs (assembled with vasm) that
 * read adapter registers, take machine checks the way 4.3BSD's badaddr
 * recovers from them (the 8600 frame: byte count, MERG, MEAR), take the
 * write-timeout interrupt, poll an RP06 transfer by DMA into a cached
 * line, take an MBA attention interrupt through SCB 0x160 and a DZ11
 * interrupt through the UBA (SCB 0x14C, BRRVR); the console's boot from a
 * tape's tp archive and from a disk's file system (argv[1]: bsd43). */
#include <zlib.h>

#include "microcode/le.h"
#include "tests/io/io_rig.h"
#include "vax/asm/vasm.h"
#include "vax/machine/vm.h"
#include "vax/machine/vm_hostmem.h"

#define BASE 0x1000u

static struct vax_machine *machine(void)
{
    char err[200];
    struct vm_config cfg = {.memory_mb = 4, .ucode = NULL};
    struct vax_machine *m = vm_new(&cfg, err, sizeof err);
    if (!m) {
        printf("vm_new: %s\n", err);
        exit(1);
    }
    return m;
}

/* Assembles src at BASE into m; starts there in kernel mode, IPL 31, on
 * the kernel stack (REI refuses IPL 0 on the interrupt stack). */
static void load(struct vax_machine *m, const char *src)
{
    struct vasm_source s = {.name = "prog.s", .text = src, .len = strlen(src)};
    struct vasm_options o = {.base = BASE, .entry_symbol = NULL};
    struct vasm_image img;
    struct vasm_diag d;
    if (vasm_assemble(&s, 1, &o, &img, &d) < 0) {
        printf("vasm: %s\n", d.text);
        exit(1);
    }
    vm_phys_write(m, BASE, img.bytes, img.size);
    vasm_image_free(&img);
    vm_set_reg(m, 14, 0x9000);
    vm_set_ipr(m, 4, 0xA000); /* ISP */
    vm_set_reg(m, 15, BASE);
    vm_set_psl(m, 0x001F0000);
}

static void run(struct vax_machine *m, uint64_t cycles)
{
    vm_run(m, cycles);
    CHECK(!strcmp(vm_stop_reason(m), "HALT instruction"), "stopped: %s at PC %08X",
          vm_stop_reason(m), vm_reg(m, 15));
}

/* The host memory of the machine's large blocks (vm_hostmem.h): no block
 * for 0 bytes or an impossible size; a block zeroed to its last byte and
 * writable there, on a huge page boundary (but under AddressSanitizer,
 * where it is a plain calloc so that overruns are caught); and the
 * guest's memory made from it, read as zero at its end in the smallest
 * and the largest machine. */
static void host_memory(void)
{
    CHECK(vm_hostmem_alloc(0) == NULL, "a block of 0 bytes");
    CHECK(vm_hostmem_alloc((size_t)-1) == NULL, "a block of SIZE_MAX bytes");
    size_t n = (3u << 20) + 5;
    unsigned char *p = vm_hostmem_alloc(n);
    CHECK(p != NULL, "a block of %zu bytes", n);
    if (!p)
        return;
    size_t nz = 0;
    for (size_t i = 0; i < n; i++)
        nz += p[i] != 0;
    CHECK(nz == 0, "%zu bytes of a new block not zero", nz);
    p[0] = 1;
    p[n - 1] = 2;
    CHECK(p[0] == 1 && p[n - 1] == 2, "the block's ends written");
    int plain = 0;
#ifdef VM_HOSTMEM_PLAIN
    plain = 1;
#endif
    CHECK(plain || (uintptr_t)p % VM_HOSTMEM_ALIGN == 0, "block at %p: not on a %zu-byte boundary",
          (void *)p, VM_HOSTMEM_ALIGN);
    vm_hostmem_free(p, n);
    vm_hostmem_free(NULL, 0);
    static const uint32_t mbs[] = {1, 512};
    for (unsigned k = 0; k < 2; k++) {
        char err[200];
        struct vm_config cfg = {.memory_mb = mbs[k], .ucode = NULL};
        struct vax_machine *m = vm_new(&cfg, err, sizeof err);
        CHECK(m != NULL, "vm_new with %u MB: %s", mbs[k], err);
        if (!m)
            continue;
        uint32_t end = vm_memory_size(m);
        unsigned char b[16], w[16] = {0};
        CHECK(vm_phys_read(m, end - 16, b, 16) == 0 && !memcmp(b, w, 16),
              "%u MB: the last 16 bytes not zero", mbs[k]);
        memset(w, 0xA5, 16);
        CHECK(vm_phys_write(m, end - 16, w, 16) == 0 && vm_phys_read(m, end - 16, b, 16) == 0 &&
                  !memcmp(b, w, 16),
              "%u MB: the last 16 bytes not written", mbs[k]);
        vm_free(m);
    }
}

/* The configuration's limits: a trace cache above VM_TCACHE_MB_MAX, or
 * a recording threshold above VM_TCACHE_AFTER_MAX, is refused with a
 * reason; the smallest arena, 1 MB, recording at once, runs a program. */
static void config_limits(void)
{
    char err[200] = "";
    struct vm_config cfg = {.memory_mb = 4, .tcache_mb = VM_TCACHE_MB_MAX + 1};
    struct vax_machine *m = vm_new(&cfg, err, sizeof err);
    CHECK(m == NULL && strstr(err, "trace cache") != NULL,
          "a %u MB trace cache is refused (%s)", cfg.tcache_mb, err);
    vm_free(m);
    cfg.tcache_mb = 1;
    cfg.tcache_after = VM_TCACHE_AFTER_MAX + 1;
    m = vm_new(&cfg, err, sizeof err);
    CHECK(m == NULL && strstr(err, "threshold") != NULL,
          "a recording threshold of %u is refused (%s)", cfg.tcache_after, err);
    vm_free(m);
    cfg.tcache_after = 1;
    m = vm_new(&cfg, err, sizeof err);
    CHECK(m != NULL, "a 1 MB trace cache is taken (%s)", err);
    if (!m)
        return;
    load(m, "    movl $3, r0\n1:  sobgtr r0, 1b\n    halt\n");
    run(m, 100000);
    CHECK(vm_reg(m, 0) == 0, "the program ran: R0 %u", vm_reg(m, 0));
    vm_free(m);
}

/* SCB at 0x2000; handlers on the interrupt stack (vector | 1). */
#define PROLOGUE "    mtpr $0x2000, $0x11\n"

static void references(void)
{
    struct vax_machine *m = machine();
    load(m, PROLOGUE
            "    moval mchk, r0\n"
            "    bisl3 $1, r0, *$0x2004\n"
            "    mtpr $0x1234, $0x47\n"          /* MERG */
            "    movl *$0x20080000, r0\n"        /* SBIA CNF */
            "    movl *$0x20006000, r1\n"        /* UBA CNF */
            "    clrl r2\n"
            "    movab 1f, r9\n"
            "    movl *$0x2000a000, r3\n"        /* TR5: nobody */
            "    halt\n"
            "1:  movl r5, r11\n"
            "    movl *$0x20080034, r7\n"        /* SBIER */
            "    movab 2f, r9\n"
            "    movl *$0x22080000, r3\n"        /* A-bus slot 1: empty */
            "    halt\n"
            "2:  movzwl *$0x2013ff20, r8\n"      /* UNIBUS 0777440: nobody, no mchk */
            "    movl *$0x20006008, r10\n"       /* UBASR */
            "    halt\n"
            ".align 2\nmchk: movl 76(sp), r5\n"             /* MEAR */
            "    movl 68(sp), r6\n"              /* MERG */
            "    movl (sp), r12\n"               /* byte count */
            "    incl r2\n"
            "    mtpr $0, $0x4a\n"               /* EHSR, as 4.3BSD */
            "    addl2 (sp)+, sp\n"
            "    movl r9, (sp)\n"
            "    rei\n");
    run(m, 100000);
    CHECK(vm_reg(m, 0) == 0x00400010, "SBIA CNF %08X", vm_reg(m, 0));
    CHECK((vm_reg(m, 1) & 0xFF) == 0x28, "UBA CNF %08X", vm_reg(m, 1));
    CHECK(vm_reg(m, 2) == 2, "two machine checks, recovered (%u)", vm_reg(m, 2));
    CHECK(vm_reg(m, 12) == 88, "frame byte count %u", vm_reg(m, 12));
    CHECK(vm_reg(m, 11) == 0x2000A000 && vm_reg(m, 5) == 0x22080000, "MEAR %08X, %08X",
          vm_reg(m, 11), vm_reg(m, 5));
    CHECK(vm_reg(m, 6) == 0x1234, "MERG in the frame: %08X", vm_reg(m, 6));
    CHECK(vm_reg(m, 7) & 0x1000, "SBIER<TMO> after the nexus timeout (%08X)", vm_reg(m, 7));
    CHECK(vm_reg(m, 8) == 0 && (vm_reg(m, 10) & 1), "UNIBUS NXM: UBASR %08X", vm_reg(m, 10));
    struct vm_io_stats st;
    vm_io_get_stats(m, &st);
    CHECK(st.refs == 7 && st.sbi_timeouts == 1 && st.unibus_nxm == 1, "stats: %llu refs",
          (unsigned long long)st.refs);
    vm_free(m);

    /* the write timeout: IPL 0x1D through SCB 0x60 */
    m = machine();
    load(m, PROLOGUE
            "    moval wt, r0\n"
            "    bisl3 $1, r0, *$0x2060\n"
            "    mtpr $0, $0x12\n"
            "    movl $1, *$0x2000a000\n"
            "1:  brb 1b\n"
            ".align 2\nwt: mfpr $0x12, r5\n"
            "    movl $0x77, r3\n"
            "    halt\n");
    run(m, 100000);
    CHECK(vm_reg(m, 3) == 0x77 && vm_reg(m, 5) == 0x1D, "write timeout at IPL %X", vm_reg(m, 5));
    vm_free(m);
}

/* The memory path's memos after TB changes (vm_mem_fast.h): a fill
 * empties the memos of the pages its entry translated and keeps the
 * others, TBIS the same, a write of P0BR the process half's.  S0 page
 * 0x28 (frame 0x28, then 0x2A) and page 0x128 (frame 0x29) share TB
 * entry 0x28, so reading 0x128 replaces 0x28's translation: the next read
 * of 0x28 misses the TB and finds its new PTE, which a memo left behind
 * would hide (the two reads in other memo entries: VA<11:6> 0 and 1).
 * P0 page 0x30 (frame 0x30, then 0x31) goes with P0BR. */
static void memos_and_tb(void)
{
    struct vax_machine *m = machine();
    load(m, "    movl $0x10000, r1\n"             /* SPT: 256 pages 1:1, KW, M */
            "    clrl r2\n"
            "1:  bisl3 $0x94000000, r2, (r1)+\n"
            "    aoblss $256, r2, 1b\n"
            "    movl $0x94000029, *$0x104a0\n"   /* S0 page 0x128 -> frame 0x29 */
            "    movl $0x4400, r1\n"              /* P0: 64 pages 1:1 */
            "    clrl r2\n"
            "1:  bisl3 $0x94000000, r2, (r1)+\n"
            "    aoblss $64, r2, 1b\n"
            "    movl $0x11111111, *$0x5000\n"    /* frame 0x28 */
            "    movl $0x33333333, *$0x5240\n"    /* frame 0x29 */
            "    movl $0x22222222, *$0x5400\n"    /* frame 0x2A */
            "    movl $0x44444444, *$0x6000\n"    /* frame 0x30 */
            "    movl $0x55555555, *$0x6200\n"    /* frame 0x31 */
            "    mtpr $0x10000, $0x0c\n"          /* SBR */
            "    mtpr $0x200, $0x0d\n"            /* SLR */
            "    mtpr $0x80004400, $0x08\n"       /* P0BR */
            "    mtpr $64, $0x09\n"               /* P0LR */
            "    mtpr $1, $0x38\n"                /* MAPEN */
            "    movl *$0x80005000, r3\n"         /* page 0x28 */
            "    movl $0x9400002a, *$0x800100a0\n" /* its PTE -> frame 0x2A */
            "    movl *$0x80005000, r4\n"         /* the TB still translates it */
            "    movl *$0x80025040, r5\n"         /* page 0x128: entry 0x28 */
            "    movl *$0x80005000, r6\n"         /* a TB miss: the new PTE */
            "    movl $0x94000028, *$0x800100a0\n"
            "    mtpr $0x80005000, $0x3a\n"       /* TBIS */
            "    movl *$0x80005000, r7\n"
            "    movl *$0x80025040, r10\n"        /* still in the TB */
            "    movl *$0x6000, r8\n"             /* P0 page 0x30 */
            "    movl $0x94000031, *$0x800044c0\n" /* its PTE -> frame 0x31 */
            "    mtpr $0x80004400, $0x08\n"       /* P0BR: the process half goes */
            "    movl *$0x6000, r9\n"
            "    halt\n");
    run(m, 200000);
    CHECK(vm_reg(m, 3) == 0x11111111 && vm_reg(m, 4) == 0x11111111,
          "page 0x28 before its PTE changed, and while the TB holds it: %08X %08X",
          vm_reg(m, 3), vm_reg(m, 4));
    CHECK(vm_reg(m, 5) == 0x33333333 && vm_reg(m, 10) == 0x33333333, "page 0x128: %08X %08X",
          vm_reg(m, 5), vm_reg(m, 10));
    CHECK(vm_reg(m, 6) == 0x22222222, "page 0x28 after 0x128 took its TB entry: %08X",
          vm_reg(m, 6));
    CHECK(vm_reg(m, 7) == 0x11111111, "page 0x28 after TBIS: %08X", vm_reg(m, 7));
    CHECK(vm_reg(m, 8) == 0x44444444 && vm_reg(m, 9) == 0x55555555,
          "P0 page 0x30 before and after P0BR: %08X %08X", vm_reg(m, 8), vm_reg(m, 9));
    vm_free(m);
}

static char disk_path[64];

static void dma_and_interrupts(void)
{
    static uint8_t img[4 * 512];
    for (unsigned i = 0; i < sizeof img; i++)
        img[i] = (uint8_t)(0xA0 + i);
    rig_tempfile(disk_path, sizeof disk_path, img, sizeof img);
    char err[300];
    struct vax_machine *m = machine();
    CHECK(vm_attach(m, "rp0", disk_path, 0, err, sizeof err) == 0, "attach: %s", err);
    uint32_t old = 0x11111111;
    vm_phys_write(m, 0x10000, &old, 4);
    load(m, "    movl *$0x10000, r0\n"           /* the line is now in the cache */
            "    movl $0x80000080, *$0x20010800\n" /* map 0 -> page 0x80 = 0x10000 */
            "    movl $-1, *$0x20010008\n"
            "    clrl *$0x20010428\n"             /* DC */
            "    clrl *$0x20010414\n"             /* DA */
            "    movl $-512, *$0x20010010\n"      /* BC */
            "    clrl *$0x2001000c\n"             /* VA */
            "    movl $0x39, *$0x20010400\n"      /* READ | GO */
            "1:  movl *$0x20010008, r2\n"
            "    blss 1b\n"                       /* DTBUSY */
            "    movl *$0x10000, r1\n"
            "    halt\n");
    run(m, 20000000);
    CHECK(vm_reg(m, 0) == 0x11111111 && vm_reg(m, 1) == 0xA3A2A1A0,
          "the CPU sees the DMA's data: %08X", vm_reg(m, 1));
    CHECK(vm_reg(m, 2) & 0x2000, "DTCMP (SR %08X)", vm_reg(m, 2));
    struct vm_io_stats st;
    vm_io_get_stats(m, &st);
    CHECK(st.dma_invalidated >= 1 && st.dma_bytes == 512 && st.disk_sectors_read == 1,
          "the DMA invalidated the cached line (%llu)", (unsigned long long)st.dma_invalidated);
    vm_free(m);

    /* an MBA attention interrupt: SCB 0x160 (IPL 0x15, TR8) */
    m = machine();
    CHECK(vm_attach(m, "rp0", disk_path, 0, err, sizeof err) == 0, "attach: %s", err);
    load(m, PROLOGUE
            "    moval att, r0\n"
            "    bisl3 $1, r0, *$0x2160\n"
            "    movl $4, *$0x20010004\n"         /* CR<IE> */
            "    movl $100, *$0x20010428\n"       /* DC */
            "    movl $5, *$0x20010400\n"         /* SEEK | GO */
            "    mtpr $0, $0x12\n"
            "1:  tstl r3\n"
            "    beql 1b\n"
            "    halt\n"
            ".align 2\natt: mfpr $0x12, r5\n"
            "    movl *$0x20010410, r4\n"         /* AS */
            "    movl r4, *$0x20010410\n"
            "    movl $1, r3\n"
            "    rei\n");
    run(m, 20000000);
    CHECK(vm_reg(m, 3) == 1 && (vm_reg(m, 4) & 1) && vm_reg(m, 5) == 0x15,
          "attention at IPL %X, AS %X", vm_reg(m, 5), vm_reg(m, 4));
    uint64_t ev[128];
    vm_scb_counts(m, ev);
    CHECK(ev[0x160 / 4] == 1, "one event through 0x160");
    vm_free(m);
    unlink(disk_path);

    /* a DZ11 transmitter interrupt through the UBA: SCB 0x14C, BRRVR */
    m = machine();
    load(m, PROLOGUE
            "    moval dz, r0\n"
            "    bisl3 $1, r0, *$0x214c\n"
            "    movl $0x60, *$0x20006004\n"      /* UBA CR: IFS, BRIE */
            "    movw $0x4020, *$0x2013e040\n"    /* DZ CSR: TIE, MSE */
            "    movb $1, *$0x2013e044\n"         /* TCR: line 0 */
            "    mtpr $0, $0x12\n"
            "1:  tstl r3\n"
            "    beql 1b\n"
            "    halt\n"
            ".align 2\ndz: mfpr $0x12, r5\n"
            "    movl *$0x20006034, r4\n"         /* BRRVR for BR5 */
            "    movw $0x10, *$0x2013e040\n"      /* CLR */
            "    movl $1, r3\n"
            "    rei\n");
    run(m, 1000000);
    CHECK(vm_reg(m, 3) == 1 && vm_reg(m, 4) == 0304 && vm_reg(m, 5) == 0x15,
          "vector %o at IPL %X", vm_reg(m, 4), vm_reg(m, 5));
    vm_free(m);
}

/* ---- the console's boot ---- */

static size_t rec(uint8_t *p, const uint8_t *d, uint32_t n)
{
    le_put32(p, n);
    memcpy(p + 4, d, n);
    le_put32(p + 4 + n, n);
    return n + 8;
}

static void boot_tape(void)
{
    /* a tp archive after 7 boot blocks; "boot" at archive block 63 */
    static uint8_t file[71 * 512], tap[80 * 520];
    memset(file, 0, sizeof file);
    uint8_t *e = file + 8 * 512;
    strcpy((char *)e, "boot");
    const char *src = ".word 0\nmovl r10, r0\nmovl r11, r1\nmovpsl r2\nmfpr $0x38, r3\nhalt\n";
    struct vasm_source s = {.name = "boot.s", .text = src, .len = strlen(src)};
    struct vasm_options o = {.base = 0, .entry_symbol = NULL};
    struct vasm_image img;
    struct vasm_diag d;
    if (vasm_assemble(&s, 1, &o, &img, &d) < 0) {
        printf("vasm: %s\n", d.text);
        exit(1);
    }
    memcpy(file + 70 * 512, img.bytes, img.size);
    e[38] = (uint8_t)img.size;
    le_put16(e + 44, 63);
    uint16_t sum = 0;
    for (unsigned i = 0; i < 62; i += 2)
        sum = (uint16_t)(sum + le_get16(e + i));
    le_put16(e + 62, (uint16_t)-sum);
    vasm_image_free(&img);
    size_t n = 0;
    for (unsigned b = 0; b < 71; b++)
        n += rec(tap + n, file + b * 512, 512);
    le_put32(tap + n, 0);
    n += 4;
    char path[64], err[300];
    rig_tempfile(path, sizeof path, tap, n);
    struct vax_machine *m = machine();
    CHECK(vm_console_boot(m, "tu0", 0, err, sizeof err) < 0 && strstr(err, "no medium"),
          "nothing attached: %s", err);
    CHECK(vm_attach(m, "tu0", path, 1, err, sizeof err) == 0, "attach %s", err);
    CHECK(vm_console_boot(m, "tu0:copy", 0, err, sizeof err) < 0 && strstr(err, "no file 'copy'"),
          "no copy on this tape: %s", err);
    CHECK(vm_console_boot(m, "tu0", 3, err, sizeof err) == 0, "boot: %s", err);
    CHECK(vm_reg(m, 15) == 2 && vm_psl(m) == 0x041F0000, "PC 2, PSL 041F0000");
    vm_run(m, 10000);
    CHECK(!strcmp(vm_stop_reason(m), "HALT instruction") && vm_reg(m, 0) == 1 && vm_reg(m, 1) == 3,
          "R10 = 1 (ht), R11 = 3: %s %X %X", vm_stop_reason(m), vm_reg(m, 0), vm_reg(m, 1));
    CHECK((vm_reg(m, 2) & 0xFFFF0000) == 0x041F0000 && vm_reg(m, 3) == 0, "IPL 31, MAPEN 0");
    struct io_system *sys = vm_io_system(m);
    CHECK(sys && io_tape_bot(io_system_tape(sys, "tu0")), "the tape is back at its load point");
    vm_free(m);
    unlink(path);
}

static void boot_disk(const char *dir)
{
    char p[512], err[300];
    snprintf(p, sizeof p, "%s/miniroot.gz", dir);
    gzFile g = gzopen(p, "rb");
    CHECK(g != NULL, "%s", p);
    if (!g)
        return;
    static uint8_t mr[205 * 10240];
    int n = gzread(g, mr, sizeof mr);
    gzclose(g);
    char path[64];
    rig_tempfile(path, sizeof path, mr, (size_t)n); /* partition a holds the miniroot */
    struct vax_machine *m = machine();
    CHECK(vm_attach(m, "rp1", path, 1, err, sizeof err) == 0, "attach %s", err);
    CHECK(vm_console_boot(m, "rp1", 2, err, sizeof err) == 0, "boot rp1: %s", err);
    /* /boot is an a.out: text at 0, started after its entry mask */
    uint8_t first[4];
    vm_phys_read(m, 0, first, 4);
    CHECK(vm_reg(m, 15) == 2 && vm_reg(m, 10) == (1u << 16) && vm_reg(m, 11) == 2,
          "PC %X, R10 %X (hp unit 1), R11 %X", vm_reg(m, 15), vm_reg(m, 10), vm_reg(m, 11));
    CHECK(mr[0] != 0 || first[0] != 0x07, "the a.out header is not loaded");
    CHECK(vm_console_boot(m, "rp1:nosuch", 0, err, sizeof err) < 0 && strstr(err, "no /nosuch"),
          "missing program: %s", err);
    vm_free(m);
    unlink(path);
}

/* The 8600 console as 4.3BSD's tocons() and cnputc() drive it: a
 * character for the logical console (TXCS<LCONS> with the write mask)
 * is not printed, the mask comes back, the terminal prints again; the
 * logical console's reboot function stops the machine. */
static void console_channels(void)
{
    char path[64];
    rig_tempfile(path, sizeof path, NULL, 0);
    FILE *out = fopen(path, "w");
    struct vax_machine *m = machine();
    vm_console_output(m, out);
    load(m, "    movl $0x41, r0\n"
            "    bsbb put\n"                     /* 'A' on the terminal */
            "    mfpr $0x22, r6\n"              /* oldmask */
            "    mtpr $0x88000, $0x22\n"        /* LCONS | WMASK */
            "    mfpr $0x22, r7\n"              /* ID now 3 */
            "    mtpr $0x03, $0x23\n"           /* clear warm start: absorbed */
            "1:  mfpr $0x22, r1\n"
            "    bbc $7, r1, 1b\n"
            "    bisl3 $0x8000, r6, r1\n"
            "    mtpr r1, $0x22\n"              /* the old mask back */
            "    movl $0x42, r0\n"
            "    bsbb put\n"                     /* 'B' */
            "    mtpr $0x88000, $0x22\n"
            "    mtpr $0x02, $0x23\n"           /* reboot */
            "    halt\n"
            "put: mfpr $0x22, r1\n"
            "    bbc $7, r1, put\n"
            "    mtpr r0, $0x23\n"
            "    rsb\n");
    vm_run(m, 100000);
    fclose(out);
    char got[16] = {0};
    FILE *in = fopen(path, "r");
    size_t n = fread(got, 1, sizeof got - 1, in);
    fclose(in);
    CHECK(n == 2 && !strcmp(got, "AB"), "the terminal printed '%s'", got);
    CHECK(((vm_reg(m, 6) >> 16) & 0xF) == 1 && ((vm_reg(m, 7) >> 8) & 0xF) == 3,
          "mask 0x%X, then ID 3 (TXCS %08X)", vm_reg(m, 6), vm_reg(m, 7));
    CHECK(strstr(vm_stop_reason(m), "reboot requested through the logical console") != NULL,
          "reboot: %s", vm_stop_reason(m));
    vm_free(m);
    unlink(path);
}

int main(int argc, char **argv)
{
    config_limits();
    host_memory();
    console_channels();
    references();
    memos_and_tb();
    dma_and_interrupts();
    boot_tape();
    if (argc > 1)
        boot_disk(argv[1]);
    else
        CHECK(0, "give the bsd43 directory");
    return rig_report("io-machine");
}
