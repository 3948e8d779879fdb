/* The VAX 8600 E-box machine: microsequencer, data path, memory behind the
 * PAMM, the write-back cache, and the IPR port (microcode/MICROARCHITECTURE.md).
 * The behaviour of VAX instructions lives in the microcode, not here.
 * Nothing in this library prints or exits.
 *
 * The library's public header (with vm_spam.h and vm_net.h for SPAM and the
 * network device).  Its calls are defined where their work is: making,
 * freeing and running a machine and every call that changes it between
 * runs in vm_host.c (the lock-step check sees them there); the registers'
 * and counters' views in vm_machine.c; memory's (vm_phys_read,
 * vm_memory_size) in vm_mem.c; the console terminal's and the event counts
 * in vm_dev.c; the I/O's in vm_io.c; the scripted users' states in
 * vm_users.c; the console's boot in vm_boot.c; the trace cache's counters
 * in vm_tcache.c (vax/machine/README.md, "Rooms and layers"). */
#ifndef VAX_MACHINE_VM_H
#define VAX_MACHINE_VM_H

#include "vax/io/io_netsrc.h"
#include <stddef.h>
#include <stdint.h>

#include "microcode/uasm.h"

struct vax_machine;

struct vm_config {
    uint32_t memory_mb;                /* 1..512; default 16 */
    const struct ucode_image *ucode;   /* NULL: the built-in control store */
    /* The microcode trace cache (vax/machine/README.md, Speed): on by
     * default; it changes nothing the machine does, only how fast the
     * host runs it.  no_tcache: the plain microword interpreter.
     * tcache_check: run a second machine with the plain interpreter in
     * lock step and compare the whole state at every instruction; a
     * difference stops the machine with a reason naming it (slow: for
     * tests). */
    int no_tcache;
    int tcache_check;
    /* The trace cache's arena: MB of traces it holds before it empties
     * itself and records again (1..4096; 0 = VM_TCACHE_MB).  Speed and
     * the host's memory only. */
    uint32_t tcache_mb;
    /* How often the interpreter runs an instruction at an address before
     * the trace cache records it: 1..255, 0 = VM_TCACHE_AFTER.  Speed
     * only (1 records code that runs a second time). */
    unsigned tcache_after;
    /* The trace compiler (vax/machine/README.md, "Trace compiler"): hot
     * traces run as host code where the build has it (x86-64), which
     * changes nothing the machine does either.  no_tcache_native: the
     * trace cache's handlers alone. */
    int no_tcache_native;
    /* The bus request level of dz0's interrupts (its priority plug): 4-7;
     * 0 = 5, as DEC shipped the DZ11 and SIMH models it.  On BR4 its
     * interrupts reach the CPU through another nexus vector than the
     * DEUNA's (BR5), so a trace tells the two apart. */
    unsigned dz_br;
};

/* The arena's default, chosen by measurement (vax/machine/README.md,
 * "Trace cache"): 4.3BSD's kernel alone needs about 70 MB of traces, so
 * its boot to login: still empties 48 MB once, but the gain over 24 MB
 * is nearly all there, and the resident set stays within 64 MB. */
#define VM_TCACHE_MB 48
#define VM_TCACHE_MB_MAX 4096
/* Recording's threshold, chosen by measurement (vax/machine/vm_tcache.h,
 * TC_SEEN): a trace costs about 25 runs of its instruction through the
 * interpreter to record and build, and its arena memory, so code that
 * runs only a few times is left to the interpreter. */
#define VM_TCACHE_AFTER 24
#define VM_TCACHE_AFTER_MAX 255

struct vm_stats {
    uint64_t microcycles;   /* microwords executed + stall cycles */
    uint64_t stall_cycles;  /* of which: cache miss / write-back stalls */
    uint64_t instructions;  /* opcodes fetched by IRD */
    uint64_t cache_hits, cache_misses, cache_writebacks;
    uint64_t tb_hits, tb_misses; /* translation buffer (MAPEN = 1 only) */
    /* SPAM's cost in microcycles (stalls included): from a traced flow's
     * hook (the microorder TRACEHK) to its IRD, i.e. the trace microroutine
     * the flow ran instead of doing IRD; and from TRACEWR to IRD in the six
     * SPAM instructions (a guest reader's READ_BUFFERs). */
    uint64_t spam_hook_cycles, spam_insn_cycles;
};

enum vm_stop {
    VM_RUNNING = 0,
    VM_STOPPED,      /* HALT, a trap or fault without its flow, an error */
    VM_CYCLE_LIMIT,
};

/* Cache geometry and penalties (documented in MICROARCHITECTURE.md §7). */
#define VM_CACHE_LINE 64
#define VM_CACHE_SETS 128
#define VM_CACHE_WAYS 2
#define VM_MISS_PENALTY 6
#define VM_WRITEBACK_PENALTY 6
/* Translation buffer: two halves (process, system) of VM_TB_SETS
 * direct-mapped entries indexed by VPN<7:0> (MICROARCHITECTURE.md §11). */
#define VM_TB_SETS 256

struct vax_machine *vm_new(const struct vm_config *cfg, char *err,
                           size_t errlen);
void vm_free(struct vax_machine *m);

/* Physical memory back door (loader, dumps): no cache effects.  Return 0,
 * or -1 if the range is not inside the memory array. */
int vm_phys_write(struct vax_machine *m, uint32_t pa, const void *buf,
                  size_t n);
int vm_phys_read(struct vax_machine *m, uint32_t pa, void *buf, size_t n);
uint32_t vm_memory_size(const struct vax_machine *m);

uint32_t vm_reg(const struct vax_machine *m, int n);
void vm_set_reg(struct vax_machine *m, int n, uint32_t v);
uint32_t vm_psl(const struct vax_machine *m);
void vm_set_psl(struct vax_machine *m, uint32_t v);
uint32_t vm_ipr(struct vax_machine *m, int n);
void vm_set_ipr(struct vax_machine *m, int n, uint32_t v);

/* Start executing at R15 (the console's START: an IRD with no instruction
 * counted) and run until the machine stops or `max_cycles` microcycles
 * have passed in total (0 = no limit).  May be called again to continue. */
enum vm_stop vm_run(struct vax_machine *m, uint64_t max_cycles);

/* Why the machine stopped ("HALT instruction", "cycle limit", ...). */
const char *vm_stop_reason(const struct vax_machine *m);
/* 1 if the machine stopped by itself (anything but the cycle limit). */
int vm_halted(const struct vax_machine *m);
void vm_get_stats(const struct vax_machine *m, struct vm_stats *s);

/* The trace cache's counters (all zero when it is off). */
struct vm_tcache_stats {
    uint64_t lookups;       /* instructions fetched at an IRD point with the cache on */
    uint64_t hits;          /* ... that entered a recorded trace */
    uint64_t recorded;      /* traces recorded: roots (per instruction) and side traces */
    uint64_t side_recorded;
    uint64_t words;         /* microwords run by the trace's specialised handlers */
    uint64_t generic;       /* microwords run inside traces by the interpreter's logic */
    uint64_t side_entries;  /* guards that failed into a side trace */
    uint64_t exits;         /* traces left for the interpreter inside an instruction */
    uint64_t flushes;       /* the whole cache emptied (memory budget) */
    uint64_t traces;        /* segments held now */
    uint64_t bytes;         /* memory they hold */
    /* the trace compiler (0 where it is not built or off): segments
     * compiled in the whole run, the bytes its code memory holds now,
     * host nanoseconds spent compiling */
    uint64_t compiled, code_bytes, compile_ns;
    uint64_t loop_entries;  /* loops the handlers took round again in their code */
};
void vm_tcache_stats(const struct vax_machine *m, struct vm_tcache_stats *s);

/* Runs until the next instruction boundary (the IRD point of the word
 * that ends an instruction, before its interrupt check and fetch), then
 * stops as vm_run does at a cycle limit (reason "instruction step");
 * max_cycles as for vm_run.  For lock-step comparisons. */
enum vm_stop vm_step_instruction(struct vax_machine *m, uint64_t max_cycles);

/* Microcycle hook for debugging tools: called before each microword with
 * its micro-address (NULL to turn off).  Slows the machine down. */
typedef void (*vm_utrace_fn)(void *ctx, const struct vax_machine *m,
                             uint16_t upc);
void vm_set_utrace(struct vax_machine *m, vm_utrace_fn fn, void *ctx);

/* Console terminal: scripted input (the buffer must outlive the run; by
 * default the host's stdin) and output (a FILE *; default stdout). */
void vm_console_input(struct vax_machine *m, const void *buf, size_t n);
void vm_console_output(struct vax_machine *m, void *file);
/* A character typed on the console terminal by the host between runs (an
 * interactive console; give vm_console_input an empty buffer so that the
 * machine never reads stdin itself): 0 when the receiver took it, -1
 * while it still holds the last one (type it again later). */
int vm_console_type(struct vax_machine *m, uint8_t c);
/* Exceptions and interrupts taken, per SCB vector (index = offset / 4). */
void vm_scb_counts(const struct vax_machine *m, uint64_t out[128]);

/* ---- the 8600's I/O (vax/io; cli/README.md "Devices and the console
 * boot") ---- */
struct io_system;

/* Attaches a medium before the run: dev rp0-rp3 (RP06 disks on MBA 0, a
 * raw file of 512-byte sectors), tu0-tu1 (TU77 tapes on MBA 1, SIMH .tap),
 * read-only if asked (the drive shows write lock).  0, or -1 with a
 * message: no such device, missing, unreadable, not writable, wrongly
 * sized or not a tape image. */
int vm_attach(struct vax_machine *m, const char *dev, const char *path, int readonly,
              char *err, size_t errlen);
/* The 8600 console's boot (vm_boot.c): loads the standalone `boot` at
 * physical 0 -- from tu0's first tape file (a tp archive after seven boot
 * blocks), or /boot of partition a of an RP06 -- and sets R10 (the boot
 * device: 0 hp with the unit in <19:16>, 1 ht), R11 (flags), PC 2, PSL
 * 041F0000 (kernel, IPL 31, interrupt stack), MAPEN 0, SCBB 0.  0, or -1
 * with a message. */
int vm_console_boot(struct vax_machine *m, const char *dev, uint32_t flags, char *err,
                    size_t errlen);
/* A console script (vax/io/io_script.h) typed and watched from the
 * start of the run; an expect not met within timeout_s emulated seconds
 * stops the machine with a message naming the script line.  0, or -1 with
 * a message (a parse error names NAME:LINE). */
#define VM_SCRIPT_TYPE_CYCLES 250000u  /* 20 ms between typed characters */
int vm_console_script(struct vax_machine *m, const char *text, size_t len, const char *name,
                      double timeout_s, char *err, size_t errlen);
enum vm_script_state { VM_SCRIPT_NONE, VM_SCRIPT_RUNNING, VM_SCRIPT_DONE, VM_SCRIPT_FAILED };
/* The script's state, its failure message and the line it is at. */
enum vm_script_state vm_console_script_state(const struct vax_machine *m, const char **msg,
                                             unsigned *line);
/* Scripted users on dz0's lines 0-7 (4.3BSD's ttys 00-07; the same
 * script language, typing pace and expect timeout as the console's, and
 * `think` times drawn from a stream seeded by `seed`).  0, or -1 with a
 * message.  A failed expect stops the machine with a message naming the
 * line and the script line; a user who never finishes (a `repeat` for
 * ever) is no error. */
int vm_dz_script(struct vax_machine *m, unsigned line, const char *text, size_t len,
                 const char *name, double timeout_s, uint64_t seed, char *err, size_t errlen);
/* What dz0's line prints also goes to file (a FILE *; NULL: nowhere),
 * bit 7 stripped.  A failed write is remembered (vm_user_info). */
int vm_dz_log(struct vax_machine *m, unsigned line, void *file);
struct vm_user_info {
    enum vm_script_state state;
    const char *msg;                 /* the failure */
    unsigned line;                   /* the script line it is at */
    uint64_t rounds;                 /* times its loop reached `repeat` */
    uint64_t typed, matched;         /* characters typed, expects met */
    uint64_t think_cycles;           /* microcycles its think steps drew */
    uint64_t loop_at;                /* the microcycle it first passed `loop` */
    const uint64_t *round_end;       /* when each round reached `repeat` */
    size_t nround_end;               /* (the first 100,000) */
    int log_failed;                  /* a write to the line's log failed */
};
enum vm_script_state vm_dz_script_state(const struct vax_machine *m, unsigned line,
                                        struct vm_user_info *out);
struct vm_io_stats {
    uint64_t refs;                   /* CPU references to adapter space */
    uint64_t dma_bytes, dma_invalidated; /* DMA, cache lines it invalidated */
    uint64_t events;                 /* device events fired */
    uint64_t disk_sectors_read, disk_sectors_written;
    uint64_t tape_records_read, tape_records_written;
    uint64_t sbi_timeouts, unibus_nxm;
};
void vm_io_get_stats(const struct vax_machine *m, struct vm_io_stats *s);
/* The I/O hardware itself (vax/io/io_system.h), for tools and tests: the
 * DZ11 lines' host side, the adapters' state.  NULL if absent. */
struct io_system *vm_io_system(struct vax_machine *m);
/* Connects the DEUNA to the network outside the VAX (vax/io/io_netsrc.h;
 * io_system_net_start), and the lock-step check's second machine to an
 * identical one (without the tap).  0, or -1 with a message. */
int vm_ether_start(struct vax_machine *m, const struct io_netsrc_config *c,
                   io_netsrc_tap_fn tap, void *tap_ctx, char *err, size_t errlen);

#endif
