/* The probe language (issue 31; vax/probe/LANGUAGE.md): a subset of
 * bpftrace's language compiled to the probe instruction set
 * (probe_isa.h), with the guest's own names (kernel symbols, program
 * paths, system calls, SCB vectors) resolved through a resolver the
 * caller supplies.  The result is a struct prb_program the machine's
 * verifier checks (probe_verify.h), plus what the host needs to run the
 * parts that are not the machine's (BEGIN, END, interval, the printf
 * formats) and to print the maps as bpftrace does.  Nothing here prints:
 * formatting goes into the caller's buffers. */
#ifndef VAX_PROBE_PROBE_LANG_H
#define VAX_PROBE_PROBE_LANG_H

#include <stddef.h>
#include <stdint.h>

#include "vax/probe/probe_isa.h"

/* What the compiler asks of the guest.  Every function may be NULL (the
 * names it would give are then an error saying what is missing); each
 * returns 0 with its result, or -1 with a message in err. */
struct prb_lang_resolver {
    void *ctx;
    /* A kernel symbol (as written: "ipintr" or "_ipintr"): its value,
     * and where a probe at its entry goes: 2 for a CALLS procedure
     * (after the entry mask), 0 for a JSB routine or a label. */
    int (*ksym)(void *ctx, const char *name, uint32_t *value, uint32_t *entry, char *err,
                size_t errlen);
    /* The kernel's text, [start, end): kfunc() keys cover it. */
    int (*ktext)(void *ctx, uint32_t *start, uint32_t *end, char *err, size_t errlen);
    /* A program ("/bin/ls", or a bare name searched as the shell would):
     * its prog value (i_dev << 16 | i_number, as the probe unit has it). */
    int (*prog)(void *ctx, const char *path, uint32_t *prog, char *err, size_t errlen);
    /* A program's own symbol (uprobe): value and entry as for ksym. */
    int (*usym)(void *ctx, const char *path, const char *name, uint32_t *value,
                uint32_t *entry, char *err, size_t errlen);
    /* A system call's number, an SCB vector's offset by name. */
    int (*syscall)(void *ctx, const char *name, uint32_t *code, char *err, size_t errlen);
    int (*vector)(void *ctx, const char *name, uint32_t *vec, char *err, size_t errlen);
    /* comm as a map key: key = (ino + dev * comm_mul) % comm_mod, where
     * prog = dev << 16 | ino; the caller chooses the two so that the
     * guest's executables do not collide (0: 1 and 4093). */
    uint32_t comm_mul, comm_mod;
};

/* The probe megabyte less the unit's map table and PRBLOAD's staging
 * area (vax/machine/vm_probe.c): what one program's code and maps may
 * use. */
#define PRB_LANG_SPACE ((1u << 20) - 0x10000u - PRB_MAX_MAPS * 32u)
#define PRB_LANG_MAX_HOST 256     /* host statements, all blocks together */
#define PRB_LANG_MAX_ARGS 14      /* printf's values: a record's */
#define PRB_LANG_MAX_KEYS 4       /* components of a map key */

/* What a value is, for printing it. */
enum prb_lang_type {
    PRB_T_INT,       /* a signed number */
    PRB_T_UINT,      /* unsigned */
    PRB_T_KADDR,     /* a kernel address: function+offset */
    PRB_T_KFUNC,     /* a kernel address grouped by function */
    PRB_T_UADDR,     /* a process address */
    PRB_T_COMM,      /* a prog value (dev << 16 | ino): a path */
    PRB_T_COMMKEY,   /* comm as a map key (the resolver's comm_mul, comm_mod): a path */
    PRB_T_SYSCALL,   /* a system call number: its name */
    PRB_T_VECTOR,    /* an SCB vector offset: its handler */
    PRB_T_PROBE,     /* the index of a probe in the script: its text */
    PRB_T_MODE,      /* 0-3: kernel, executive, supervisor, user */
};

/* The units of a value (histograms' axes). */
enum prb_lang_unit { PRB_U_NONE, PRB_U_US, PRB_U_CYCLES, PRB_U_NS, PRB_U_BYTES };

/* One component of a map's key: the value is (key / div) % range + lo
 * for components after the first... precisely: a key of components
 * c0..cn-1 is c0 * range1 * ... + ... + cn-1 (each ci < range_i, less
 * lo), and a component's type says how to print it. */
struct prb_lang_keypart {
    enum prb_lang_type type;
    uint32_t range;          /* values 0..range-1 after lo is taken off */
    int32_t lo;              /* the smallest value (keys hold value - lo) */
    uint32_t base, shift;    /* KADDR/KFUNC: address = base + (k << shift) */
};

/* The aggregation a map does, for printing it as bpftrace does. */
enum prb_lang_agg {
    PRB_A_COUNT, PRB_A_SUM, PRB_A_MIN, PRB_A_MAX, PRB_A_AVG, PRB_A_STATS, PRB_A_HIST,
    PRB_A_LHIST, PRB_A_VAR, /* a value assigned (@x[k] = v, +=, ++): a sum map's slots */
};

struct prb_lang_map {
    char name[PRB_NAME];     /* "@lat", "@" */
    enum prb_lang_agg agg;
    unsigned nkey;           /* 0: no key (one slot) */
    struct prb_lang_keypart key[PRB_LANG_MAX_KEYS];
    enum prb_lang_type vtype;/* the values' type */
    enum prb_lang_unit unit; /* the values' unit */
    char what[96];           /* the value's source text ("duration") */
    char where[96];          /* the probes that update it ("kretprobe:ipintr") */
    int hidden;              /* the compiler's own (duration_self's sums) */
    int32_t lmin, lmax, lstep;/* lhist's arguments */
};

/* A printf's or record's values: their types; the format (printf) or
 * NULL (record). */
struct prb_lang_fmt {
    char *fmt;               /* owned; NULL for record() */
    unsigned nargs;
    enum prb_lang_type type[PRB_LANG_MAX_ARGS];
    int probe;               /* the script probe it belongs to */
};

/* Host-side statements (BEGIN, END, interval): a small tree the host
 * evaluates with prb_lang_host_run. */
struct prb_lang_hnode;

enum prb_lang_block { PRB_B_BEGIN, PRB_B_END, PRB_B_INTERVAL };

struct prb_lang_hblock {
    enum prb_lang_block kind;
    uint64_t period_us;       /* interval */
    struct prb_lang_hnode *body;
    unsigned line, col;
};

/* One probe of the script (an attach point, as written) and the machine
 * probes it became. */
struct prb_lang_probe {
    char text[128];           /* "kretprobe:ipintr" */
    unsigned line, col;
    int entry, ret;           /* machine probe indexes (-1: none) */
};

#define PRB_LANG_MAX_SPROBES 64
#define PRB_LANG_MAX_BLOCKS 32

/* A compiled script. */
struct prb_lang {
    struct prb_program prog;                /* for the machine */
    unsigned col[PRB_MAX_CODE];             /* the source column of each instruction */
    unsigned probe_col[PRB_MAX_PROBES];
    struct prb_lang_map map[PRB_MAX_MAPS];  /* prog.nmaps of them */
    struct prb_lang_probe sprobe[PRB_LANG_MAX_SPROBES];
    unsigned nsprobe;
    struct prb_lang_fmt fmt[256];           /* by record tag */
    unsigned nfmt;
    struct prb_lang_hblock block[PRB_LANG_MAX_BLOCKS];
    unsigned nblock;
    uint32_t bytes;                         /* code and maps in the probe megabyte */
    uint32_t comm_mul, comm_mod;            /* comm keys (the resolver's) */
    int uses_records;                       /* printf/record: needs tracing on */
    int uses_tracing;                       /* enable()/disable() of tracing */
    void *arena;                            /* the host blocks' nodes */
};

/* Options of a compilation. */
struct prb_lang_opts {
    const char *name;          /* for messages: "FILE", "-e" */
    uint32_t budget;           /* each machine probe's (0: PRB_DEFAULT_BUDGET) */
    uint32_t space;            /* bytes for code and maps (0: PRB_LANG_SPACE) */
    uint32_t default_keys;     /* keys of a map whose key's range is unknown (0: 1024) */
    const struct prb_lang_resolver *resolve;
};

/* An error: where, and what. */
struct prb_lang_error {
    unsigned line, col;        /* 1-based; 0: no position */
    char msg[400];             /* "NAME:LINE:COL: ..." */
};

/* Compiles text (len bytes) into *out (allocated by the caller, freed
 * with prb_lang_free).  The program is verified (prb_verify) before this
 * returns: a refusal is an error at the script's line and column.  0, or
 * -1 with *err. */
int prb_lang_compile(const char *text, size_t len, const struct prb_lang_opts *o,
                     struct prb_lang *out, struct prb_lang_error *err);
void prb_lang_free(struct prb_lang *l);

/* ---- the host's side ---- */

/* What host statements do, through the caller. */
struct prb_lang_host {
    void *ctx;
    /* a count, sum or variable map's value at key (0 when unset) */
    int64_t (*map_value)(void *ctx, unsigned map, uint32_t key);
    /* the emulated time now, microseconds since power-on */
    uint64_t (*now_us)(void *ctx);
    /* print(@m [, top [, div]]), clear(@m), zero(@m) */
    void (*print_map)(void *ctx, unsigned map, unsigned top, unsigned div);
    void (*clear_map)(void *ctx, unsigned map);
    /* printf's text, formatted */
    void (*out)(void *ctx, const char *text);
    /* the names of values, for %s of comm, ksym... (NULL: numbers) */
    const char *(*name)(void *ctx, enum prb_lang_type t, uint32_t v, char *buf, size_t len);
};

/* Runs one host block: returns 1 when it called exit(), else 0. */
int prb_lang_host_run(const struct prb_lang *l, unsigned block, const struct prb_lang_host *h);

/* Formats a record's values with printf's format for tag (a probe's
 * printf) into buf; 0, or -1 (no such format).  Record() tags and values
 * print as "tag: v1 v2 ...". */
int prb_lang_format_record(const struct prb_lang *l, unsigned tag, const uint32_t *vals,
                           unsigned n, const struct prb_lang_host *h, char *buf, size_t len);

/* The text of a map key's components as bpftrace prints them inside
 * @m[...] (names through h->name): "ipintr", "3, read". */
void prb_lang_key_text(const struct prb_lang *l, unsigned map, uint32_t key,
                       const struct prb_lang_host *h, char *buf, size_t len);
/* A value of the given type, for printing: names through h. */
void prb_lang_value_text(enum prb_lang_type t, int64_t v, const struct prb_lang_host *h,
                         char *buf, size_t len);
/* The name of a unit ("us"), "" for none. */
const char *prb_lang_unit_name(enum prb_lang_unit u);

#endif
