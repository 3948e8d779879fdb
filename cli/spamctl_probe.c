/* spamctl probe: the probe language (vax/probe/LANGUAGE.md) on the
 * guest's names: compile a script to the machine's verified probe
 * routines, list or dump them, and (with the probe unit) run them. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/spamctl_cmds.h"
#include "cli/spamctl_guest.h"
#include "cli/spamctl_out.h"
#include "cli/spamctl_trace.h"
#include "microcode/hostfile.h"
#include "vax/probe/probe_asm.h"
#include "vax/probe/probe_lang.h"
#include "vax/probe/probe_verify.h"

#ifndef SPAMCTL_BSD43_DISK
#define SPAMCTL_BSD43_DISK "tests/bsd43/bsd43-work/rp06.dsk"
#endif

static void usage(FILE *f)
{
    fprintf(f,
"Usage: spamctl probe [OPTIONS] 'PROGRAM'\n"
"       spamctl probe [OPTIONS] -e 'PROGRAM' | -f FILE\n"
"       spamctl probe -l [PATTERN] [--kernel FILE | --disk FILE]\n"
"\n"
"Measure the guest with a bpftrace-like PROGRAM compiled to the machine's\n"
"probe routines (vax/probe/PROBES.md): the 8600's microcode runs them at\n"
"their checkpoints, verified before they run, below an unmodified 4.3BSD.\n"
"The full reference is vax/probe/LANGUAGE.md.\n"
"\n"
"A program is a list of probes:  ATTACH[, ATTACH...] [/PREDICATE/] { ACTIONS }\n"
"\n"
"Attach points:\n"
"  kprobe:FUNC[+OFF]       a kernel function (the a.out's symbol, with or\n"
"                          without its '_'): its first instruction after the\n"
"                          entry mask, or FUNC+OFF; a JSB routine at FUNC\n"
"  kretprobe:FUNC          the return of a CALLS procedure (duration, retval)\n"
"  uprobe:PATH:FUNC[+OFF]  a function of a program on the guest's disk, by\n"
"  uretprobe:PATH:FUNC     its own symbol table, in every process running it\n"
"  spam:interrupt:V|NAME   an interrupt by SCB vector or handler/device name\n"
"  spam:exception:V|NAME   an exception (tnv, acv, arith, bpt, ... or vector)\n"
"  spam:syscall:N|NAME     a CHMK system call; spam:syscall:* every one\n"
"  spam:ldpctx  spam:rei   context switches, REIs\n"
"  profile:hz:N            sampling (also profile:ms:N, profile:us:N)\n"
"  interval:s:N            in the host every N emulated seconds (ms, us)\n"
"  BEGIN  END              in the host, before and after the run\n"
"\n"
"Predicates and expressions: C's operators on 32-bit values; pid, uid,\n"
"comm (== \"/bin/ls\" or \"ls\"), mode (kernel, executive, supervisor, user),\n"
"ipl.  pid, comm and mode tests joined by && go to the probe unit's\n"
"hardware filters, free.\n"
"\n"
"Builtins: pid tid uid comm mode ipl psl pc sp fp ap cpu probe func\n"
"  arg0-arg5 nargs (CALLS arguments)  caller (the return PC)  retval\n"
"  duration duration_excl duration_self (us; _cyc: microcycles)\n"
"  nsecs usecs cycles cachemiss tbmiss  event vector sysno vaddr\n"
"Functions: kvar(\"name\"[, off[, size]]) kaddr(\"name\") mem(addr[, size])\n"
"  kfunc(addr) ksym(addr) sysname(n) reg(\"r5\")\n"
"Maps: @name[key, ...] = count() sum(v) min(v) max(v) avg(v) stats(v)\n"
"  hist(v) lhist(v, min, max, step), or a value (=, +=, -=, ++, --)\n"
"Actions: printf(\"fmt\", ...) record(v, ...) print(@m[, top[, div]])\n"
"  clear(@m) zero(@m) delete(@m[k]) exit() enable() disable() (tracing)\n"
"  enable(\"ATTACH\") disable(\"ATTACH\") (another probe: a trigger)\n"
"  if (...) { } else { }   unroll(N) { }   $var = ...\n"
"\n"
"Options:\n"
"  -e PROGRAM     The program (instead of the first argument).\n"
"  -f FILE        Read the program from FILE ('-': stdin).\n"
"  -d, --dump     Compile only and print the machine's routines in the\n"
"                 probe text form (spamctl run --probes reads it back),\n"
"                 with each probe's verified worst case.\n"
"  -l, --list [PATTERN]  The kernel's functions matching the glob PATTERN\n"
"                 (default *), as kprobe attach points.\n"
"  --kernel FILE  The guest kernel's a.out (symbols); default /vmunix of\n"
"                 the disk.\n"
"  --disk FILE    The guest's disk (SIMH RP06 image): programs' paths and\n"
"                 symbols, /vmunix.  Default: the 4.3BSD the tests\n"
"                 install, %s.\n"
"  --no-names     No guest: numbers only (no kernel symbols, programs,\n"
"                 system call or vector names).\n"
"  --budget N     Each routine's budget in microcycles (default %u, at\n"
"                 most %u): the verifier refuses a routine whose worst\n"
"                 case is larger.\n"
"  --json         Maps and printf output as JSON lines.\n"
"  --svg FILE     The histograms as an SVG plot.\n"
"  --free         Run the routines in the host (zero perturbation).\n"
"\n"
"Output: at the end (and at print()), each map as bpftrace prints it;\n"
"printf's lines as the probes write them (the records go through the\n"
"SPAM trace buffer).\n"
"\n"
"Examples:\n"
"  spamctl probe 'kretprobe:ipintr { @us = hist(duration); }'\n"
"  spamctl probe 'profile:hz:1000 /mode == kernel/ { @[kfunc(pc)] = count(); }'\n"
"  spamctl probe 'kprobe:Copyin { @[kfunc(caller)] = count(); }'\n"
"  spamctl probe 'spam:syscall:* /comm == \"cc\"/ { @[sysno] = count(); }'\n"
"\n"
"Exit status: 0 success, 1 bad input (a script error: FILE:LINE:COL:\n"
"message), 2 usage error, 3 not implemented yet.\n",
            SPAMCTL_BSD43_DISK, PRB_DEFAULT_BUDGET, PRB_MAX_BUDGET);
}

struct popts {
    const char *text, *file, *kernel, *disk, *svg, *list;
    int dump, json, free_mode, listing, no_names;
    uint32_t budget;
};

/* The program's text: -e, the argument, or -f FILE ('-': stdin); NULL
 * with the cause in *why. */
static char *program_text(const struct popts *o, size_t *len, const char **why)
{
    if (o->text) {
        *len = strlen(o->text);
        char *t = strdup(o->text);
        *why = "out of memory";
        return t;
    }
    uint8_t *d;
    if (hostfile_read(o->file, (size_t)16 << 20, HOSTFILE_STDIN, &d, len, why) != 0)
        return NULL;
    return (char *)d;
}

/* The script's line and a caret under the column (bpftrace shows it). */
static void show_error(const char *text, size_t len, const struct prb_lang_error *e)
{
    fprintf(stderr, "spamctl probe: %s\n", e->msg);
    if (!e->line)
        return;
    size_t p = 0;
    for (unsigned l = 1; l < e->line && p < len; p++)
        if (text[p] == '\n')
            l++;
    size_t q = p;
    while (q < len && text[q] != '\n')
        q++;
    if (q - p > 200)
        return;
    fprintf(stderr, "    %.*s\n    ", (int)(q - p), text + p);
    for (unsigned c = 1; c < e->col && p + c - 1 < q; c++)
        fputc(text[p + c - 1] == '\t' ? '\t' : ' ', stderr);
    fprintf(stderr, "^\n");
}

/* --dump: the routines in the text form, with what each probe is. */
static int dump(const struct prb_lang *l)
{
    struct prb_checked ck;
    struct prb_reject why;
    if (prb_verify(&l->prog, &ck, &why)) { /* (the compiler checked it already) */
        fprintf(stderr, "spamctl probe: %s\n", why.msg);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    printf("# spamctl probe --dump: %u machine probes, %u maps, %u instructions (%u unrolled);\n"
           "# %" PRIu32 " bytes of the probe megabyte\n",
           l->prog.nprobes, l->prog.nmaps, l->prog.ncode, ck.ncode, l->bytes);
    for (unsigned i = 0; i < l->prog.nmaps; i++) {
        const struct prb_lang_map *m = &l->map[i];
        static const char *const agg[] = {"count", "sum", "min", "max", "avg", "stats", "hist",
                                          "lhist", "value"};
        printf("# m%u = %s: %s%s%s%s%s, %u keys%s%s\n", i, m->name, agg[m->agg],
               m->agg == PRB_A_COUNT ? "" : " of ", m->agg == PRB_A_COUNT ? "" : m->what,
               *prb_lang_unit_name(m->unit) ? " in " : "", prb_lang_unit_name(m->unit),
               l->prog.map[i].keys, m->where[0] ? ", at " : "", m->where);
    }
    for (unsigned i = 0; i < l->prog.nprobes; i++)
        printf("# q%u = %s: worst case %" PRIu32 " of a budget of %" PRIu32 " microcycles\n", i,
               l->prog.probe_name[i], ck.cost[i], ck.budget[i]);
    for (unsigned i = 0; i < l->nblock; i++)
        printf("# in the host: %s at line %u\n",
               l->block[i].kind == PRB_B_BEGIN ? "BEGIN"
               : l->block[i].kind == PRB_B_END ? "END" : "interval", l->block[i].line);
    prb_checked_free(&ck);
    if (l->prog.nprobes && prb_disasm(&l->prog, stdout) != 0)
        return SPAMCTL_EXIT_BAD_INPUT;
    return SPAMCTL_EXIT_OK;
}

static void list_one(void *ctx, const char *name, uint32_t value, uint32_t entry)
{
    (void)ctx;
    printf("kprobe:%-24s 0x%08" PRIx32 "%s\n", name, value, entry ? "" : "  (JSB routine or label)");
}

int spamctl_cmd_probe(int argc, char **argv)
{
    struct popts o = {0};
    for (int i = 1; i < argc; i++) {
        const char *v;
        int rc;
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return SPAMCTL_EXIT_OK;
        } else if ((rc = opt_value(argc, argv, &i, "-e", &v)) != 0) {
            if (rc < 0 || o.text || o.file)
                goto one_program;
            o.text = v;
        } else if ((rc = opt_value(argc, argv, &i, "-f", &v)) != 0) {
            if (rc < 0 || o.text || o.file)
                goto one_program;
            o.file = v;
        } else if (!strcmp(a, "-d") || !strcmp(a, "--dump")) {
            o.dump = 1;
        } else if (!strcmp(a, "-l") || !strcmp(a, "--list")) {
            o.listing = 1;
            if (i + 1 < argc && argv[i + 1][0] != '-')
                o.list = argv[++i];
        } else if ((rc = opt_value(argc, argv, &i, "--kernel", &v)) != 0) {
            if (rc < 0)
                goto needs_value;
            o.kernel = v;
        } else if ((rc = opt_value(argc, argv, &i, "--disk", &v)) != 0) {
            if (rc < 0)
                goto needs_value;
            o.disk = v;
        } else if ((rc = opt_value(argc, argv, &i, "--svg", &v)) != 0) {
            if (rc < 0)
                goto needs_value;
            o.svg = v;
        } else if ((rc = opt_value(argc, argv, &i, "--budget", &v)) != 0) {
            uint64_t b;
            if (rc < 0 || parse_u64(v, &b) || b < 1 || b > PRB_MAX_BUDGET) {
                fprintf(stderr, "spamctl probe: --budget needs microcycles, 1 to %u\n",
                        PRB_MAX_BUDGET);
                return SPAMCTL_EXIT_USAGE;
            }
            o.budget = (uint32_t)b;
        } else if (!strcmp(a, "--no-names")) {
            o.no_names = 1;
        } else if (!strcmp(a, "--json")) {
            o.json = 1;
        } else if (!strcmp(a, "--free")) {
            o.free_mode = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "spamctl probe: unknown option '%s' (try 'spamctl probe --help')\n", a);
            return SPAMCTL_EXIT_USAGE;
        } else if (!o.text && !o.file) {
            o.text = a;
        } else {
            goto one_program;
        }
        continue;
    needs_value:
        fprintf(stderr, "spamctl probe: %s needs a value\n", a);
        return SPAMCTL_EXIT_USAGE;
    one_program:
        fprintf(stderr, "spamctl probe: one program: an argument, -e PROGRAM or -f FILE\n");
        return SPAMCTL_EXIT_USAGE;
    }
    if (!o.listing && !o.text && !o.file) {
        usage(stderr);
        return SPAMCTL_EXIT_USAGE;
    }
    if (o.listing && (o.text || o.file)) {
        fprintf(stderr, "spamctl probe: -l lists attach points; it takes no program\n");
        return SPAMCTL_EXIT_USAGE;
    }
    /* the guest's names: the disk the tests install unless told otherwise */
    const char *disk = o.disk;
    struct stat st;
    if (!disk && !o.kernel && !o.no_names && stat(SPAMCTL_BSD43_DISK, &st) == 0)
        disk = SPAMCTL_BSD43_DISK;
    if (o.no_names && (disk || o.kernel)) {
        fprintf(stderr, "spamctl probe: --no-names excludes --kernel and --disk\n");
        return SPAMCTL_EXIT_USAGE;
    }
    struct guest g;
    if ((disk || o.kernel) && guest_open(&g, "probe", o.kernel, disk) != 0)
        return SPAMCTL_EXIT_BAD_INPUT;
    if (!disk && !o.kernel)
        memset(&g, 0, sizeof g);
    int rc = SPAMCTL_EXIT_OK;
    if (o.listing) {
        if (!g.kok) {
            fprintf(stderr, "spamctl probe: -l needs the guest's kernel (--kernel or --disk)\n");
            rc = SPAMCTL_EXIT_BAD_INPUT;
        } else {
            guest_list(&g, o.list ? o.list : "*", list_one, NULL);
        }
        guest_close(&g);
        return rc;
    }
    size_t len;
    const char *why = NULL;
    char *text = program_text(&o, &len, &why);
    if (!text) {
        fprintf(stderr, "spamctl probe: %s: %s\n", o.file ? o.file : "-e", why);
        guest_close(&g);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    struct prb_lang_resolver r;
    guest_resolver(&g, &r);
    struct prb_lang_opts co = {.name = o.file ? o.file : "-e", .budget = o.budget, .resolve = &r};
    struct prb_lang *l = malloc(sizeof *l);
    struct prb_lang_error e;
    if (!l) {
        fprintf(stderr, "spamctl probe: out of memory\n");
        rc = SPAMCTL_EXIT_BAD_INPUT;
    } else if (prb_lang_compile(text, len, &co, l, &e) != 0) {
        show_error(text, len, &e);
        rc = SPAMCTL_EXIT_BAD_INPUT;
    } else {
        if (o.dump)
            rc = dump(l);
        else
            rc = spamctl_not_yet("probe", "running probes needs the machine's probe unit "
                                          "(issue 30), which is not wired into the sequencer "
                                          "yet; --dump compiles and shows the routines");
        prb_lang_free(l);
    }
    free(l);
    free(text);
    guest_close(&g);
    return rc;
}
