/* spamctl probe: the probe language (vax/probe/LANGUAGE.md) on the
 * guest's names: compile a script to the machine's verified probe
 * routines, list or dump them, and (with the probe unit) run them. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/spamctl_bsd43.h"
#include "cli/spamctl_cmds.h"
#include "cli/spamctl_guest.h"
#include "cli/spamctl_out.h"
#include "cli/spamctl_top.h"
#include "cli/spamctl_trace.h"
#include "microcode/hostfile.h"
#include "vax/probe/probe_asm.h"
#include "vax/probe/probe_lang.h"
#include "vax/probe/probe_verify.h"

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
"                 symbols, /vmunix.  Default: the original 4.3BSD of\n"
"                 spamctl bsd43's cache (installed on first use when its\n"
"                 distribution is found; none without it).\n"
"  --no-names     No guest: numbers only (no kernel symbols, programs,\n"
"                 system call or vector names).\n"
"  --budget N     Each routine's budget in microcycles (default %u, at\n"
"                 most %u): the verifier refuses a routine whose worst\n"
"                 case is larger.\n"
"  --json         Maps and printf output as JSON lines.\n"
"  --svg FILE     The histograms as an SVG plot.\n"
"  --free         Run the routines in the host (zero perturbation).\n"
"  --os 4.3bsd    The machine: the original 4.3BSD (--disk, else the one\n"
"                 spamctl bsd43 installs into the cache, on first use),\n"
"                 copied (into a folder in TMPDIR, else /tmp), booted\n"
"                 multi-user under the demo's network load with routed\n"
"                 and XNSrouted, the benchmark job (a listing, 4.3BSD's\n"
"                 cc) run on the console, then halted.\n"
"  -- RUN OPTIONS The machine as spamctl run describes it (--boot,\n"
"                 --attach, --console-script, -o ...; spamctl run --help).\n"
"\n"
"Output: printf's lines as the probes write them (the records go through\n"
"the SPAM trace buffer: without -o the run traces into /dev/null), at the\n"
"end each map as bpftrace prints it, then what each probe cost the guest\n"
"(microcycles and share of the run).\n"
"\n"
"Examples:\n"
"  spamctl probe --os 4.3bsd 'kretprobe:ipintr { @us = hist(duration); }'\n"
"  spamctl probe --os 4.3bsd 'profile:hz:1000 /mode == kernel/ { @[kfunc(pc)] = count(); }'\n"
"  spamctl probe 'kprobe:Copyin { @[kfunc(caller)] = count(); }'\n"
"  spamctl probe 'spam:syscall:* /comm == \"cc\"/ { @[sysno] = count(); }'\n"
"\n"
"Exit status: 0 success, 1 bad input (a script error: FILE:LINE:COL:\n"
"message; a refused program), 2 usage error.\n",
            PRB_DEFAULT_BUDGET, PRB_MAX_BUDGET);
}

struct popts {
    const char *text, *file, *kernel, *disk, *svg, *list, *os;
    int dump, json, free_mode, listing, no_names;
    uint32_t budget;
    int nrun;                 /* spamctl run's options after "--" */
    char **run;
    int top;                  /* spamctl top */
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

/* --os 4.3bsd's workload on the console: the network up for IP and XNS,
 * routed and XNSrouted, the benchmark user's job of spamctl demo (a long
 * listing, 4.3BSD's cc on a small program, running it), a pause, halt. */
static const char bsd43_script[] =
    "expect login: \n"
    "send root\\r\n"
    "expect \\nmyname# \n"
    "send /etc/ifconfig de0 192.168.1.2 up; /etc/ifconfig de0 ns 42:\\r\n"
    "expect \\nmyname# \n"
    "send /etc/routed; /etc/XNSrouted\\r\n"
    "expect \\nmyname# \n"
    "send cd /tmp; echo 'main() { int i, s = 0; for (i = 0; i < 100; i++) s += i; "
    "exit(s != 4950); }' > j.c\\r\n"
    "expect \\nmyname# \n"
    "send ls -l /bin /etc > /dev/null; cc -O -S j.c; cc -S j.c; cc -o j j.c; ./j\\r\n"
    "expect \\nmyname# \n"
    "send sleep 2\\r\n"
    "expect \\nmyname# \n"
    "send /etc/halt\\r\n"
    "expect halting (in tight loop)\n"
    "halt\n";

/* 4.3BSD's TODR at boot, as the installer's runs have it
 * (vax/guest/bsd43/install.py BOOT_TODR): noon, June 8 (1986). */
#define BSD43_TODR ((1u << 28) + ((151u + 7) * 86400u + 12 * 3600u) * 100u)

/* Copies a file: 0, or -1 with the message printed. */
static int copy_file(const char *from, const char *to)
{
    int in = open(from, O_RDONLY), out = in < 0 ? -1 : open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    static char buf[1 << 16];
    ssize_t n = 0;
    while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n) {
            n = -1;
            break;
        }
    int bad = in < 0 || out < 0 || n < 0;
    if (bad)
        fprintf(stderr, "spamctl probe: %s -> %s: %s\n", from, to, strerror(errno));
    if (in >= 0)
        close(in);
    if (out >= 0 && close(out) != 0 && !bad) {
        fprintf(stderr, "spamctl probe: %s: %s\n", to, strerror(errno));
        bad = 1;
    }
    return bad ? -1 : 0;
}

/* The installed 4.3BSD of spamctl bsd43's cache (installed now on first
 * use) when its distribution is found: 1 (disk gets the path), 0 no
 * distribution, -1 the install failed (message printed). */
static int cached_bsd43(const char *cmd, char *disk, size_t len)
{
    struct bsd43_dist d;
    int found = bsd43_find_dist(cmd, NULL, &d);
    if (found <= 0)
        return found;
    return bsd43_installed(cmd, &d, disk, len) == 0 ? 1 : -1;
}

/* Runs the program: spamctl run with its options, or (--os 4.3bsd) on a
 * copy of the installed 4.3BSD under the demo's workload. */
static int run_program(const struct popts *o, const char *text, int needs_trace)
{
    char *av[128];
    int ac = 0;
    char d[PATH_MAX], disk[PATH_MAX + 16] = "", script[PATH_MAX + 16] = "",
         log[PATH_MAX + 16] = "", todr[16];
    int made = 0, rc;
    av[ac++] = "run";
    if (o->os) {
        const char *src = o->disk;
        static char cached[PATH_MAX];
        if (!src) {
            int found = cached_bsd43(o->top ? "top" : "probe", cached, sizeof cached);
            if (found == 0)
                fprintf(stderr, "spamctl %s: --os 4.3bsd needs the original 4.3BSD: --disk "
                                "FILE, or its distribution to install (%s)\n",
                        o->top ? "top" : "probe", BSD43_WHERE_TO_GET);
            if (found <= 0)
                return SPAMCTL_EXIT_BAD_INPUT;
            src = cached;
        }
        if (out_mkdtemp("spamctl-probe", d, sizeof d) != 0) {
            fprintf(stderr, "spamctl probe: a working directory in %s: %s\n", out_tmpdir(),
                    strerror(errno));
            return SPAMCTL_EXIT_BAD_INPUT;
        }
        made = 1;
        snprintf(disk, sizeof disk, "%s/rp06.dsk", d);
        snprintf(script, sizeof script, "%s/console.script", d);
        snprintf(log, sizeof log, "%s/console.log", d);
        snprintf(todr, sizeof todr, "%u", BSD43_TODR);
        FILE *sf = fopen(script, "w");
        int bad = !sf || fputs(bsd43_script, sf) < 0;
        if (sf && fclose(sf) != 0)
            bad = 1;
        if (bad || copy_file(src, disk) != 0) {
            if (bad)
                fprintf(stderr, "spamctl probe: %s: %s\n", script, strerror(errno));
            rc = SPAMCTL_EXIT_BAD_INPUT;
            goto out;
        }
        fprintf(stderr, "spamctl probe: 4.3BSD multi-user from %s (a copy in %s): the network "
                        "at 200 frames/s, routed, XNSrouted, a listing and 4.3BSD's cc; the "
                        "console in %s\n", src, d, log);
        const char *fixed[] = {"--boot", "rp0", "--attach", NULL, "--memory", "8", "--todr", todr,
                               "--max-cycles", "unlimited", "--expect-timeout", "120",
                               "--console-script", script, "--console-out", log, "--net-rate",
                               "200", "--seed", "1"};
        static char att[PATH_MAX + 32];
        snprintf(att, sizeof att, "rp0=%s", disk);
        for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
            av[ac++] = (char *)(fixed[i] ? fixed[i] : att);
    }
    for (int i = 0; i < o->nrun && ac < 100; i++)
        av[ac++] = o->run[i];
    av[ac++] = o->top ? "--probe-top" : "--probe";
    av[ac++] = (char *)text;
    if (o->kernel) {
        av[ac++] = "--probe-kernel";
        av[ac++] = (char *)o->kernel;
    }
    if (o->budget) {
        static char b[16];
        snprintf(b, sizeof b, "%u", o->budget);
        av[ac++] = "--probe-budget";
        av[ac++] = b;
    }
    if (o->free_mode)
        av[ac++] = "--probes-free";
    if (o->svg) {
        av[ac++] = "--probe-svg";
        av[ac++] = (char *)o->svg;
    }
    if (o->json) { /* JSON lines on stdout, the run's summary elsewhere */
        av[ac++] = "--probe-json";
        av[ac++] = "-";
        av[ac++] = "--dump-state";
        av[ac++] = "/dev/null";
    }
    int traced = 0;
    for (int i = 0; i < o->nrun; i++)
        traced |= !strcmp(o->run[i], "-o") || !strcmp(o->run[i], "--trace") ||
                  !strncmp(o->run[i], "--drain", 7);
    if (needs_trace && !traced) { /* printf's records travel through the trace buffer */
        av[ac++] = "-o";
        av[ac++] = "/dev/null";
    }
    av[ac] = NULL;
    rc = spamctl_cmd_run(ac, av);
out:
    if (made) {
        unlink(disk);
        unlink(script);
        if (rc == SPAMCTL_EXIT_OK)
            unlink(log);
        else
            fprintf(stderr, "spamctl probe: the console's output is kept in %s\n", log);
        char *slash = strrchr(disk, '/');
        if (slash)
            *slash = 0;
        rmdir(disk);
    }
    return rc;
}

/* The options spamctl probe and spamctl top share: --kernel, --disk, --os
 * and the string ones; 1 taken (its value in the option), 0 not one of
 * them, -1 its value missing. */
static int value_option(int argc, char **argv, int *i, struct popts *o, const char **hist)
{
    static const char *const names[] = {"--kernel", "--disk", "--os", "--svg", "--hist"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const char *v;
        int rc = opt_value(argc, argv, i, names[k], &v);
        if (rc <= 0) {
            if (rc < 0)
                return -1;
            continue;
        }
        const char **dst[] = {&o->kernel, &o->disk, &o->os, &o->svg, hist};
        if (!dst[k])
            return 0;
        *dst[k] = v;
        return 1;
    }
    return 0;
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
        } else if ((rc = value_option(argc, argv, &i, &o, NULL)) != 0) {
            if (rc < 0)
                goto needs_value;
        } else if ((rc = opt_value(argc, argv, &i, "--budget", &v)) != 0) {
            uint64_t b;
            if (rc < 0 || parse_u64(v, &b) || b < 1 || b > PRB_MAX_BUDGET) {
                fprintf(stderr, "spamctl probe: --budget needs microcycles, 1 to %u\n",
                        PRB_MAX_BUDGET);
                return SPAMCTL_EXIT_USAGE;
            }
            o.budget = (uint32_t)b;
        } else if (!strcmp(a, "--")) {
            o.nrun = argc - i - 1;
            o.run = argv + i + 1;
            break;
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
    if (o.os && strcmp(o.os, "4.3bsd")) {
        fprintf(stderr, "spamctl probe: --os takes 4.3bsd\n");
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
    if (o.no_names && (o.disk || o.kernel)) {
        fprintf(stderr, "spamctl probe: --no-names excludes --kernel and --disk\n");
        return SPAMCTL_EXIT_USAGE;
    }
    /* the program first: an unreadable one costs no install */
    size_t len = 0;
    const char *why = NULL;
    char *text = NULL;
    if (!o.listing && !(text = program_text(&o, &len, &why))) {
        fprintf(stderr, "spamctl probe: %s: %s\n", o.file ? o.file : "-e", why);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    /* the guest's names: the cached 4.3BSD (spamctl bsd43, installed on
     * first use) unless told otherwise; none without its distribution.
     * Found, it is the disk --os 4.3bsd runs too (looked up once). */
    static char cached[PATH_MAX];
    if (!o.disk && !o.kernel && !o.no_names) {
        int found = cached_bsd43("probe", cached, sizeof cached);
        if (found < 0) {
            free(text);
            return SPAMCTL_EXIT_BAD_INPUT;
        }
        if (found)
            o.disk = cached;
    }
    const char *disk = o.disk;
    struct guest g;
    if ((disk || o.kernel) && guest_open(&g, "probe", o.kernel, disk) != 0) {
        free(text);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
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
        int needs_trace = l->uses_records || l->uses_tracing;
        if (o.dump) {
            rc = dump(l);
        } else if (!o.os && !o.nrun) {
            fprintf(stderr, "spamctl probe: no machine: --os 4.3bsd, or spamctl run's options "
                            "after -- (spamctl probe 'PROGRAM' -- --boot rp0 --attach rp0=DISK "
                            "...)\n");
            rc = SPAMCTL_EXIT_USAGE;
        } else {
            prb_lang_free(l);
            free(l);
            l = NULL;
            guest_close(&g); /* (the run opens the guest's names itself) */
            rc = run_program(&o, text, needs_trace);
        }
        if (l)
            prb_lang_free(l);
    }
    free(l);
    free(text);
    guest_close(&g);
    return rc;
}

static void top_usage(FILE *f)
{
    fprintf(f,
"Usage: spamctl top [--hist 'kretprobe:FUNC'] [--kernel FILE] [--disk FILE]\n"
"                   --os 4.3bsd | -- RUN OPTIONS\n"
"\n"
"A live view of the running guest (Multics' graphical display monitor, the\n"
"hybrid analyser's real-time display), refreshed every emulated second:\n"
"CPU by process, interrupts and system calls per second, the hottest\n"
"kernel functions (sampled at 1 kHz) and one histogram.  Its probes run in\n"
"the zero-perturbation mode (the host runs them between microcycles): the\n"
"guest pays nothing for the view.  On a terminal the screen is redrawn in\n"
"place; otherwise each second's screen follows the last.\n"
"\n"
"  --hist 'kretprobe:FUNC'  The procedure whose durations the histogram\n"
"                 shows (default kretprobe:ipintr).\n"
"  --os 4.3bsd    The machine of spamctl probe --os 4.3bsd.\n"
"  -- RUN OPTIONS The machine as spamctl run describes it.\n"
"  --kernel FILE, --disk FILE  The guest's names, as for spamctl probe.\n"
"\n"
"The program it runs: spamctl probe --dump shows it (cli/spamctl_top.c).\n"
"Exit status: 0 success, 1 bad input, 2 usage error.\n");
}

int spamctl_cmd_top(int argc, char **argv)
{
    struct popts o = {0};
    const char *hist = NULL;
    for (int i = 1; i < argc; i++) {
        int rc;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            top_usage(stdout);
            return SPAMCTL_EXIT_OK;
        } else if (!strcmp(argv[i], "--")) {
            o.nrun = argc - i - 1;
            o.run = argv + i + 1;
            break;
        } else if ((rc = value_option(argc, argv, &i, &o, &hist)) != 0) {
            if (rc < 0)
                goto needs_value;
        } else {
            fprintf(stderr, "spamctl top: unknown argument '%s' (try 'spamctl top --help')\n",
                    argv[i]);
            return SPAMCTL_EXIT_USAGE;
        }
        continue;
    needs_value:
        fprintf(stderr, "spamctl top: %s needs a value\n", argv[i]);
        return SPAMCTL_EXIT_USAGE;
    }
    if (o.os && strcmp(o.os, "4.3bsd")) {
        fprintf(stderr, "spamctl top: --os takes 4.3bsd\n");
        return SPAMCTL_EXIT_USAGE;
    }
    if (!o.os && !o.nrun) {
        top_usage(stderr);
        return SPAMCTL_EXIT_USAGE;
    }
    if (hist && (strncmp(hist, "kretprobe:", 10) && strncmp(hist, "uretprobe:", 10))) {
        fprintf(stderr, "spamctl top: --hist takes a kretprobe or a uretprobe\n");
        return SPAMCTL_EXIT_USAGE;
    }
    char text[2048];
    top_program(hist, text, sizeof text);
    o.top = 1;
    return run_program(&o, text, 0);
}
