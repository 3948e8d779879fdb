/* spamctl run: runs a VAX image on the emulated 8600 and reports the final
 * state.  The run contract (options, JSON) is documented in cli/README.md;
 * tests and the differential tester depend on it, so keep it exact. */
#include "cli/spamctl_cmds.h"
#include "cli/spamctl_config.h"
#include "cli/spamctl_console.h"
#include "cli/spamctl_io.h"
#include "cli/spamctl_progress.h"
#include "cli/spamctl_out.h"
#include "cli/spamctl_probes.h"
#include "cli/spamctl_signal.h"
#include "cli/spamctl_spam.h"
#include "microcode/uasm.h"
#include "vax/io/io_script.h"
#include "vax/loader/vax_elf.h"
#include "vax/machine/vm.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DUMPS 64
#define RUN_INPUT_MAX (1024u << 20) /* an image, microcode or console input */
#define MAX_SETS 16

static void usage(FILE *f)
{
    fprintf(f,
"Usage: spamctl run --raw FILE --load-at ADDR [OPTIONS]\n"
"       spamctl run IMAGE.elf [OPTIONS]\n"
"       spamctl run --boot DEV --attach DEV=FILE... [OPTIONS]\n"
"       spamctl run --config FILE [OPTIONS]    (or: spamctl boot FILE [OPTIONS])\n"
"\n"
"Runs a VAX program on the microcoded 8600 until HALT (or another stop)\n"
"or the cycle limit, then reports the machine state.\n"
"\n"
"Options:\n"
"  --config FILE        the machine described in a configuration file, one\n"
"                       command a line (cli/README.md): memory MB, load ELF,\n"
"                       attach [-r] DEV FILE, boot DEV, todr fixed|host|N, net rate=R\n"
"                       seed=N mix=.. size=.. pcap=FILE, dz N script=FILE\n"
"                       log=FILE, dz br=N report=FILE, set OPTION [VALUE] (any\n"
"                       option below without its dashes); '#' or ';' comments.\n"
"                       Options on the command line come after the file's\n"
"  --progress LABEL     on a terminal, a progress line on stderr: LABEL, the\n"
"                       emulated seconds, instructions per second\n"
"  --raw FILE           load FILE as raw bytes (needs --load-at)\n"
"  --load-at ADDR       physical load address of the raw file\n"
"  --start ADDR         start PC (default: the load address / ELF entry)\n"
"  --psl HEX            initial PSL (default 041F0000: kernel, IPL 31, IS)\n"
"  --set rN=HEX         initial register (N = 0..15; repeatable)\n"
"  --max-cycles N|unlimited\n"
"                       stop after N microcycles (N >= 1; default 100000000),\n"
"                       or run until the machine stops (SIGINT/SIGTERM end\n"
"                       any run cleanly)\n"
"  --dump-mem ADDR:LEN  include LEN bytes at physical ADDR (repeatable)\n"
"  --dump-state PATH|-  write the final state as JSON (see cli/README.md)\n"
"  --microcode FILE     use this control-store image or .mic source\n"
"  --memory MB          physical memory size in MB, decimal (1..512;\n"
"                       default 16)\n"
"  --utrace             print every microcycle on stderr (slow)\n"
"  --no-tcache          run the plain microword interpreter, without the\n"
"                       microcode trace cache (same results, slower)\n"
"  --no-tcache-native   keep the trace cache but compile no trace to host\n"
"                       code (same results; the compiler is built on\n"
"                       x86-64 Linux only)\n"
"  --tcache-check       run a second machine with the plain interpreter in\n"
"                       lock step and compare the whole state at every\n"
"                       instruction (slow; needs --console-in or\n"
"                       --console-script; a writable medium's second copy\n"
"                       is made in TMPDIR and compared at the end)\n"
"  --tcache-stats       print the trace cache's counters on stderr\n"
"  --tcache-mb MB       the trace cache's arena: MB of traces held before it\n"
"                       is emptied and recorded again (1..4096; default 48;\n"
"                       speed and host memory only)\n"
"  --tcache-after N     record an instruction's trace after N runs through\n"
"                       the interpreter at its address (1..255; default 24;\n"
"                       speed only)\n"
"  --console-in STRING|@FILE\n"
"                       console terminal input (escapes \\r \\n \\t \\\\ \\xHH;\n"
"                       default: the host's stdin)\n"
"  --console-out FILE   console terminal output (default: stdout, or\n"
"                       stderr with --dump-state -)\n"
"  -o, --trace FILE     SPAM: trace from power-on, drain into FILE\n"
"  --drain=guest        SPAM: trace from power-on, no host drain: the guest\n"
"                       reads the buffer with READ_BUFFER (FD04); not with -o\n"
"  --spam-priv any|kernel  SPAM instructions in any mode (default) or kernel only\n"
"  --no-cache-xlate     SPAM: cache-set address translation off\n"
"  --no-rei-trace       SPAM: do not trace REI (the paper's event set)\n"
"  --drain-every N      SPAM: drain the trace buffer every N microcycles\n"
"  --drain-tap          SPAM: the drain copies every record without consuming\n"
"                       it (until the buffer is a quarter full), so an in-guest\n"
"                       READ_BUFFER reader sees the records too\n"
"  --net-rate R         R packets per second of VAX time, Poisson, on both\n"
"                       networks: the bundled guest's interface (IPRs 0x70-0x74,\n"
"                       vax/guest/NETDEV.md) and the Ethernet outside the\n"
"                       DEUNA (below) (default 0: no IPR device, MFPR #0x70\n"
"                       takes a reserved operand; no Ethernet traffic)\n"
"  --net-size MIN:MAX   packet sizes, uniform (default 64:1500 bytes)\n"
"  --seed N             seed of the packet arrivals and contents (default 0;\n"
"                       also written into the trace header)\n"
"\n");
    spamctl_io_usage(f);
    fprintf(f, "\n%s", PROBES_USAGE);
    fprintf(f, "\n");
    spamctl_console_usage(f);
    fprintf(f,
"\n"
"Exit status: 0 the machine ran (whatever stopped it), 1 bad input, a\n"
"console script that failed, or an output that could not be written (the\n"
"trace, the console, the state, the pcap), 2 usage error, 130/143/129 stopped\n"
"by SIGINT/SIGTERM/SIGHUP (the trace is drained and complete, the summary\n"
"says \"stopped: interrupted\"; the console's escape ends a run with 0).\n");
}

static int parse_u32(const char *s, int base, uint32_t *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, base);
    if (*end || errno || v > 0xFFFFFFFFull)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static int parse_hex(const char *s, uint32_t *out)
{
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    return parse_u32(s, 16, out);
}

static int vm_write_cb(void *ctx, uint32_t pa, const void *buf, size_t n)
{
    return vm_phys_write(ctx, pa, buf, n);
}

/* --microcode FILE: an image (by its magic) or microcode source. */
static int load_microcode(const char *path, struct ucode_image *img)
{
    size_t len;
    uint8_t *buf;
    const char *why;
    if (hostfile_read(path, RUN_INPUT_MAX, 0, &buf, &len, &why) != 0) {
        fprintf(stderr, "spamctl run: %s: %s\n", path, why);
        return -1;
    }
    int rc;
    if (len == 0) {
        fprintf(stderr, "spamctl run: %s: empty file (neither a control-store image nor microcode)\n",
                path);
        rc = -1;
    } else if (ucode_is_image(buf, len)) {
        char err[200];
        rc = ucode_image_parse(buf, len, img, err, sizeof err);
        if (rc < 0)
            fprintf(stderr, "spamctl run: %s: %s\n", path, err);
    } else {
        char *errs = NULL;
        rc = uasm_assemble_text(path, (const char *)buf, img, &errs);
        if (rc < 0)
            fputs(errs ? errs : "microcode assembly failed\n", stderr);
        free(errs);
    }
    free(buf);
    return rc;
}

/* --utrace: one line per microcycle on stderr, for microprogrammers. */
struct utrace_ctx {
    struct ucode_image img;
};

static void utrace_line(void *ctx, const struct vax_machine *m, uint16_t upc)
{
    const struct ucode_image *img = &((struct utrace_ctx *)ctx)->img;
    const char *best = "?";
    int bestaddr = -1;
    for (size_t i = 0; i < img->nlabels; i++)
        if (img->labels[i].addr <= upc && (int)img->labels[i].addr > bestaddr) {
            bestaddr = img->labels[i].addr;
            best = img->labels[i].name;
        }
    char desc[600];
    uword_describe(&img->words[upc], desc, sizeof desc);
    fprintf(stderr, "%04X %s+%d  PC=%08" PRIx32 " PSL=%08" PRIx32 "  %s\n", upc,
            best, upc - bestaddr, vm_reg(m, 15), vm_psl(m), desc);
}

static void write_events(FILE *f, const struct vax_machine *m, int json)
{
    uint64_t c[128];
    vm_scb_counts(m, c);
    int first = 1;
    for (int i = 0; i < 128; i++) {
        if (!c[i])
            continue;
        if (json)
            fprintf(f, "%s\"0x%02x\": %" PRIu64, first ? "" : ", ", i * 4, c[i]);
        else
            fprintf(f, "%s0x%02X=%" PRIu64, first ? "events by SCB vector: " : " ", i * 4, c[i]);
        first = 0;
    }
    if (!json && !first)
        fputc('\n', f);
}

static void write_json(FILE *f, struct vax_machine *m, const char *reason,
                       const uint32_t *da, const uint32_t *dl, int nd)
{
    struct vm_stats st;
    vm_get_stats(m, &st);
    fprintf(f, "{\"halted\": %s, \"reason\": \"", vm_halted(m) ? "true" : "false");
    for (const char *p = reason; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', f);
        fputc(*p, f);
    }
    fprintf(f, "\", \"pc\": \"0x%08" PRIx32 "\", \"psl\": \"0x%08" PRIx32 "\", \"r\": [",
            vm_reg(m, 15), vm_psl(m));
    for (int i = 0; i < 16; i++)
        fprintf(f, "%s\"0x%08" PRIx32 "\"", i ? ", " : "", vm_reg(m, i));
    fprintf(f, "], \"microcycles\": %" PRIu64 ", \"instructions\": %" PRIu64
               ", \"cache\": {\"hits\": %" PRIu64 ", \"misses\": %" PRIu64
               ", \"writebacks\": %" PRIu64 "}, \"tb\": {\"hits\": %" PRIu64
               ", \"misses\": %" PRIu64 "}, \"spam_cycles\": {\"hooks\": %" PRIu64
               ", \"instructions\": %" PRIu64 "}, \"mem\": {",
            st.microcycles, st.instructions, st.cache_hits, st.cache_misses,
            st.cache_writebacks, st.tb_hits, st.tb_misses, st.spam_hook_cycles,
            st.spam_insn_cycles);
    for (int i = 0; i < nd; i++) {
        fprintf(f, "%s\"0x%08" PRIx32 "\": \"", i ? ", " : "", da[i]);
        uint8_t b[256];
        for (uint32_t off = 0; off < dl[i]; off += sizeof b) {
            uint32_t n = dl[i] - off < sizeof b ? dl[i] - off : (uint32_t)sizeof b;
            if (vm_phys_read(m, da[i] + off, b, n) < 0)
                break;
            for (uint32_t j = 0; j < n; j++)
                fprintf(f, "%02x", b[j]);
        }
        fputc('"', f);
    }
    fprintf(f, "}, \"events\": {");
    write_events(f, m, 1);
    fprintf(f, "}}\n");
}

/* A usage error in word i: where it came from when a configuration file
 * gave it.  Returns the exit status. */
static int usage_at(const char *const *where, int i)
{
    if (where && where[i])
        fprintf(stderr, "spamctl run: (in %s)\n", where[i]);
    return SPAMCTL_EXIT_USAGE;
}

static int run_main(int argc, char **argv, const char *const *where);

int spamctl_cmd_boot(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
            printf("Usage: spamctl boot FILE [OPTIONS]\n\n"
                   "The same as 'spamctl run --config FILE [OPTIONS]': boots the machine the\n"
                   "configuration file describes (see 'spamctl run --help').\n");
            return SPAMCTL_EXIT_OK;
        }
        fprintf(stderr, "Usage: spamctl boot FILE [OPTIONS] (spamctl run --config FILE)\n");
        return SPAMCTL_EXIT_USAGE;
    }
    char **v = malloc((size_t)(argc + 2) * sizeof *v);
    if (!v) {
        fprintf(stderr, "spamctl boot: out of memory\n");
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    v[0] = (char *)"run";
    v[1] = (char *)"--config";
    for (int i = 1; i < argc; i++)
        v[i + 1] = argv[i];
    v[argc + 1] = NULL;
    int rc = spamctl_cmd_run(argc + 1, v);
    free(v);
    return rc;
}

int spamctl_cmd_run(int argc, char **argv)
{
    struct spamctl_config cf;
    int e = spamctl_config_expand(argc, argv, &cf);
    if (e < 0)
        return e == -2 ? SPAMCTL_EXIT_BAD_INPUT : SPAMCTL_EXIT_USAGE;
    int rc = run_main(cf.argc, cf.argv, cf.where);
    spamctl_config_free(&cf);
    return rc;
}

static int run_main(int argc, char **argv, const char *const *where)
{
    const char *raw = NULL, *elf = NULL, *dump = NULL, *ucode_path = NULL;
    uint32_t load_at = 0, start = 0, psl = 0x041F0000, mem_mb = 16, tc_mb = 0, tc_after = 0;
    int have_load = 0, have_start = 0;
    uint64_t max_cycles = 100000000;
    uint32_t da[MAX_DUMPS], dl[MAX_DUMPS];
    int nd = 0;
    int set_reg[MAX_SETS];
    uint32_t set_val[MAX_SETS];
    int nset = 0;
    int utrace = 0, no_tcache = 0, no_native = 0, tcache_check = 0, tcache_stats = 0;
    struct spamctl_spam spam;
    spamctl_spam_init(&spam);
    struct spamctl_io io; /* devices, the console boot and script */
    spamctl_io_init(&io);
    const char *con_in = NULL, *con_out = NULL, *progress_label = NULL;
    struct spamctl_console con; /* the host side of the console terminal */
    spamctl_console_init(&con);
    struct probes_opts probes; /* --probes ... (spamctl_probes.h) */
    memset(&probes, 0, sizeof probes);

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return SPAMCTL_EXIT_OK;
        }
        int sp = spamctl_spam_option(&spam, a, v); /* SPAM options */
        if (sp < 0)
            return usage_at(where, i);
        if (sp > 0) {
            i += sp - 1;
            continue;
        }
        int pop = probes_option(&probes, argc, argv, &i); /* probes */
        if (pop < 0)
            return usage_at(where, i);
        if (pop > 0)
            continue;
        int iop = spamctl_io_option(&io, a, v); /* device options */
        if (iop < 0)
            return usage_at(where, i);
        if (iop > 0) {
            i += iop - 1;
            continue;
        }
        int cop = spamctl_console_option(&con, a, v); /* the console */
        if (cop < 0)
            return usage_at(where, i);
        if (cop > 0) {
            i += cop - 1;
            continue;
        }
        if (strcmp(a, "--utrace") == 0) {
            utrace = 1;
            continue;
        }
        if (strcmp(a, "--no-tcache") == 0) {
            no_tcache = 1;
            continue;
        }
        if (strcmp(a, "--no-tcache-native") == 0) {
            no_native = 1;
            continue;
        }
        if (strcmp(a, "--tcache-check") == 0) {
            tcache_check = 1;
            continue;
        }
        if (strcmp(a, "--tcache-stats") == 0) {
            tcache_stats = 1;
            continue;
        }
        int takes = a[0] == '-' && a[1] == '-';
        if (takes && !v) {
            fprintf(stderr, "spamctl run: %s needs a value\n", a);
            return usage_at(where, i);
        }
        if (strcmp(a, "--raw") == 0) {
            raw = v;
        } else if (strcmp(a, "--progress") == 0) {
            progress_label = v;
        } else if (strcmp(a, "--load-at") == 0) {
            if (parse_u32(v, 0, &load_at) < 0)
                goto bad_value;
            have_load = 1;
        } else if (strcmp(a, "--start") == 0) {
            if (parse_u32(v, 0, &start) < 0)
                goto bad_value;
            have_start = 1;
        } else if (strcmp(a, "--psl") == 0) {
            if (parse_hex(v, &psl) < 0)
                goto bad_value;
        } else if (strcmp(a, "--set") == 0) {
            const char *eq = strchr(v, '=');
            uint32_t n, x;
            char num[8];
            if ((v[0] != 'r' && v[0] != 'R') || !eq || eq - v - 1 < 1 ||
                eq - v - 1 > 2)
                goto bad_value;
            memcpy(num, v + 1, (size_t)(eq - v - 1));
            num[eq - v - 1] = 0;
            if (parse_u32(num, 10, &n) < 0 || n > 15 || parse_hex(eq + 1, &x) < 0)
                goto bad_value;
            if (nset == MAX_SETS) {
                fprintf(stderr, "spamctl run: too many --set options\n");
                return usage_at(where, i);
            }
            set_reg[nset] = (int)n;
            set_val[nset++] = x;
        } else if (strcmp(a, "--max-cycles") == 0) {
            char *end;
            errno = 0;
            unsigned long long x = strtoull(v, &end, 0);
            if (strcmp(v, "unlimited") == 0) {
                max_cycles = 0; /* vm_run's "no limit" */
            } else if (*end || errno || !*v || *v == '-') {
                goto bad_value;
            } else if (x == 0) {
                fprintf(stderr, "spamctl run: --max-cycles 0 would not run at all; "
                                "'--max-cycles unlimited' runs until the machine stops\n");
                return usage_at(where, i);
            } else {
                max_cycles = x;
            }
        } else if (strcmp(a, "--dump-mem") == 0) {
            const char *colon = strchr(v, ':');
            char addr[32];
            if (!colon || (size_t)(colon - v) >= sizeof addr || nd == MAX_DUMPS)
                goto bad_value;
            memcpy(addr, v, (size_t)(colon - v));
            addr[colon - v] = 0;
            if (parse_u32(addr, 0, &da[nd]) < 0 || parse_u32(colon + 1, 0, &dl[nd]) < 0)
                goto bad_value;
            nd++;
        } else if (strcmp(a, "--console-in") == 0) {
            con_in = v;
        } else if (strcmp(a, "--console-out") == 0) {
            con_out = v;
        } else if (strcmp(a, "--dump-state") == 0) {
            dump = v;
        } else if (strcmp(a, "--microcode") == 0) {
            ucode_path = v;
        } else if (strcmp(a, "--memory") == 0) {
            if (parse_u32(v, 10, &mem_mb) < 0 || mem_mb == 0 || mem_mb > 512)
                goto bad_value;
        } else if (strcmp(a, "--tcache-mb") == 0) {
            if (parse_u32(v, 10, &tc_mb) < 0 || tc_mb == 0 || tc_mb > VM_TCACHE_MB_MAX)
                goto bad_value;
        } else if (strcmp(a, "--tcache-after") == 0) {
            if (parse_u32(v, 10, &tc_after) < 0 || tc_after == 0 ||
                tc_after > VM_TCACHE_AFTER_MAX)
                goto bad_value;
        } else if (takes || (a[0] == '-' && a[1])) {
            fprintf(stderr, "spamctl run: unknown option '%s'\n", a);
            if (!(where && where[i]))
                usage(stderr);
            return usage_at(where, i);
        } else {
            if (elf) {
                fprintf(stderr, "spamctl run: more than one image given\n");
                return usage_at(where, i);
            }
            elf = a;
            continue;
        }
        i++;
        continue;
    bad_value:
        fprintf(stderr, "spamctl run: bad value for %s: '%s'\n", a, v);
        return usage_at(where, i);
    }
    if (con_in && con_in[0] != '@') { /* the escapes of cli/README.md, no others */
        size_t bad, l = strlen(con_in);
        uint8_t *tmp = malloc(l + 1);
        long k = tmp ? io_unescape(con_in, l, tmp, &bad) : 0;
        free(tmp);
        if (k < 0) {
            fprintf(stderr, "spamctl run: bad value for --console-in: '%s': a bad escape at "
                    "offset %zu (use \\r \\n \\t \\\\ \\xHH, or @FILE)\n", con_in, bad);
            return SPAMCTL_EXIT_USAGE;
        }
    }
    if (io.boot && (raw || elf)) {
        fprintf(stderr, "spamctl run: --boot loads the console's boot program: give no image\n");
        return SPAMCTL_EXIT_USAGE;
    }
    if (io.script && con_in) {
        fprintf(stderr, "spamctl run: --console-script and --console-in exclude each other\n");
        return SPAMCTL_EXIT_USAGE;
    }
    if (!io.boot && ((raw != NULL) == (elf != NULL) || (raw && !have_load))) {
        fprintf(stderr, "spamctl run: give either --raw FILE --load-at ADDR or an ELF image\n");
        usage(stderr);
        return SPAMCTL_EXIT_USAGE;
    }
    if (spam.trace && spam.guest_drain) {
        fprintf(stderr, "spamctl run: -o and --drain=guest exclude each other\n");
        return SPAMCTL_EXIT_USAGE;
    }
    /* the Ethernet's rate and default seed are the run's (spamctl_spam) */
    io.net_rate = spam.net_rate;
    if (!io.net_seed_set)
        io.net_seed = spam.seed;
    io.seed = spam.seed;
    /* no output overwrites an input, an attached medium or another
     * output (spamctl_out.h): checked before anything is opened */
    struct hostfile_set *files = malloc(sizeof *files);
    if (!files) {
        fprintf(stderr, "spamctl run: out of memory\n");
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    hostfile_set_init(files);
    hostfile_set_add(files, HOSTFILE_IN, raw ? "--raw" : "", raw ? raw : elf);
    hostfile_set_add(files, HOSTFILE_IN, "--microcode", ucode_path);
    hostfile_set_add(files, HOSTFILE_IN, "--console-in", con_in && con_in[0] == '@' ? con_in + 1 : NULL);
    hostfile_set_add(files, HOSTFILE_OUT, "-o", spam.trace);
    hostfile_set_add(files, HOSTFILE_OUT, "--console-out", con_out);
    hostfile_set_add(files, HOSTFILE_OUT, "--dump-state", dump);
    for (unsigned k = 0; k < probes.nfile; k++)
        hostfile_set_add(files, HOSTFILE_IN, "--probes", probes.file[k]);
    for (unsigned k = 0; k < probes.nlang; k++)
        hostfile_set_add(files, HOSTFILE_IN, "--probe-file", probes.lang_file[k]);
    hostfile_set_add(files, HOSTFILE_OUT, "--probe-svg", probes.svg);
    hostfile_set_add(files, HOSTFILE_IN, "--probe-kernel", probes.kernel);
    hostfile_set_add(files, HOSTFILE_OUT, "--probe-json", probes.json);
    spamctl_io_files(&io, files);
    int clash = out_check_files("run", files);
    free(files);
    if (clash)
        return SPAMCTL_EXIT_USAGE;

    struct ucode_image img;
    if (tcache_check && (no_tcache || (!con_in && !io.script))) {
        fprintf(stderr, "spamctl run: --tcache-check needs the trace cache and "
                        "--console-in or --console-script (the two machines must see "
                        "the same input)\n");
        return SPAMCTL_EXIT_USAGE;
    }
    struct vm_config cfg = {.memory_mb = mem_mb, .ucode = NULL, .no_tcache = no_tcache,
                            .no_tcache_native = no_native,
                            .tcache_check = tcache_check, .tcache_mb = tc_mb,
                            .tcache_after = tc_after,
                            .dz_br = io.dz_br};
    if (ucode_path) {
        if (load_microcode(ucode_path, &img) < 0)
            return SPAMCTL_EXIT_BAD_INPUT;
        cfg.ucode = &img;
    }
    char err[256];
    struct vax_machine *m = vm_new(&cfg, err, sizeof err);
    if (ucode_path)
        ucode_image_free(&img);
    if (!m) {
        if (ucode_path) /* the microcode is what the machine refused */
            fprintf(stderr, "spamctl run: %s: %s\n", ucode_path, err);
        else
            fprintf(stderr, "spamctl run: %s\n", err);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    int rc = SPAMCTL_EXIT_OK;
    if (io.boot) {
        /* the console's boot loads the program (spamctl_io_setup) */
    } else if (raw) {
        size_t len;
        uint8_t *buf = NULL;
        const char *why;
        if (hostfile_read(raw, RUN_INPUT_MAX, 0, &buf, &len, &why) != 0) {
            fprintf(stderr, "spamctl run: %s: %s\n", raw, why);
            rc = SPAMCTL_EXIT_BAD_INPUT;
        } else if (vm_phys_write(m, load_at, buf, len) < 0) {
            fprintf(stderr, "spamctl run: %s: %zu bytes at 0x%08" PRIx32
                            " do not fit in %" PRIu32 " MB of memory\n",
                    raw, len, load_at, mem_mb);
            rc = SPAMCTL_EXIT_BAD_INPUT;
        }
        free(buf);
        if (!have_start)
            start = load_at;
    } else {
        struct vax_load_target t = {.write = vm_write_cb, .ctx = m,
                                    .mem_size = vm_memory_size(m)};
        struct vax_load_result res;
        if (vax_elf_load_file(elf, &t, &res, err, sizeof err) < 0) {
            fprintf(stderr, "spamctl run: %s\n", err);
            rc = SPAMCTL_EXIT_BAD_INPUT;
        } else if (!have_start) {
            start = res.entry;
        }
    }
    for (int i = 0; i < nd && rc == 0; i++)
        if (da[i] > vm_memory_size(m) || dl[i] > vm_memory_size(m) - da[i]) {
            fprintf(stderr, "spamctl run: --dump-mem 0x%08" PRIx32 ":%" PRIu32
                            " is outside memory\n", da[i], dl[i]);
            rc = SPAMCTL_EXIT_USAGE;
        }
    if (rc) {
        vm_free(m);
        return rc;
    }
    if (!io.boot) {
        for (int i = 0; i < nset; i++)
            vm_set_reg(m, set_reg[i], set_val[i]);
        vm_set_reg(m, 15, start);
        vm_set_psl(m, psl);
    }
    if (spamctl_io_setup(&io, m) < 0) {
        spamctl_io_abort(&io);
        vm_free(m);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    if (spamctl_spam_setup(&spam, m) < 0) {
        spamctl_io_abort(&io);
        vm_free(m);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    if (probes_any(&probes)) { /* assembled now: the kernel's symbols from rp0's /vmunix */
        for (int k = 0; k < io.nattach; k++) /* (the kernel: --probe-kernel first) */
            if (strcmp(io.attach[k].name, "rp0") == 0)
                probes.disk = io.attach[k].path;
        if (probes_prepare(&probes) < 0) {
            probes_free(&probes);
            spamctl_io_abort(&io);
            vm_free(m);
            return SPAMCTL_EXIT_BAD_INPUT;
        }
        spam.probes = &probes;
    }

    struct utrace_ctx ut;
    memset(&ut, 0, sizeof ut);
    if (utrace) {
        int ok = ucode_path ? load_microcode(ucode_path, &ut.img)
                            : ucode_default_image(&ut.img, err, sizeof err);
        if (ok == 0)
            vm_set_utrace(m, utrace_line, &ut);
    }
    uint8_t *con_buf = NULL;
    FILE *con_f = NULL;
    if (con_in) {
        size_t n = 0;
        const char *why = "out of memory";
        if (con_in[0] == '@') {
            if (hostfile_read(con_in + 1, RUN_INPUT_MAX, 0, &con_buf, &n, &why) != 0)
                con_buf = NULL;
        } else if ((con_buf = malloc(strlen(con_in) + 1)) != NULL) {
            size_t bad; /* checked after the options */
            n = (size_t)io_unescape(con_in, strlen(con_in), con_buf, &bad);
        }
        if (!con_buf) {
            fprintf(stderr, "spamctl run: --console-in %s: %s\n", con_in, why);
            spamctl_io_abort(&io);
            vm_free(m);
            return SPAMCTL_EXIT_BAD_INPUT;
        }
        vm_console_input(m, con_buf, n);
    }
    /* the state file is opened (under a temporary name) before the run,
     * so that an unwritable path is known before the machine has run */
    struct out_file dump_out = {0};
    if (dump && out_open_stream(&dump_out, "run", dump) != 0) {
        free(con_buf);
        if (utrace)
            ucode_image_free(&ut.img);
        spamctl_io_abort(&io);
        vm_free(m);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    struct out_sink con_sink;
    if (con_out) {
        int cfd = open(con_out, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        con_f = cfd < 0 ? NULL : sink_open(&con_sink, cfd);
        if (!con_f) {
            if (cfd >= 0)
                close(cfd);
            fprintf(stderr, "spamctl run: %s: %s\n", con_out, strerror(errno));
            if (dump)
                out_abort(&dump_out);
            free(con_buf);
            if (utrace)
                ucode_image_free(&ut.img);
            spamctl_io_abort(&io);
            vm_free(m);
            return SPAMCTL_EXIT_BAD_INPUT;
        }
    }
    /* the guest's output through the host's filter (7-bit unless
     * --console-8bit); on a terminal, an interactive console */
    FILE *con_stream = spamctl_console_output(&con, con_f ? con_f
                                                     : dump && strcmp(dump, "-") == 0 ? stderr
                                                                                      : stdout);
    int ran = SPAMCTL_RUN_NOT_STARTED;
    struct spamctl_progress prog;
    if (!con_stream) {
        fprintf(stderr, "spamctl run: the console: %s\n", strerror(errno));
    } else {
        vm_console_output(m, con_stream);
        if (progress_label) {
            spamctl_progress_start(&prog, progress_label, m);
            spam.progress = spamctl_progress_cb;
            spam.progress_ctx = &prog;
        }
        spamctl_console_start(&con, m, !con_in && !io.script);
        spam.slice = spamctl_console_slice;
        spam.slice_ctx = &con;
        spamctl_signals_catch();
        ran = spamctl_spam_run(&spam, m, max_cycles, elf ? elf : raw ? raw : io.boot, ucode_path);
        spamctl_signals_restore();
        spamctl_console_end(&con); /* the terminal as it was; the filter flushed */
        if (progress_label)
            spamctl_progress_done(&prog);
    }
    if (ran == SPAMCTL_RUN_NOT_STARTED || ran == SPAMCTL_RUN_PROBE_REFUSED) {
        probes_free(&probes);
        if (con_f) {
            sink_close(&con_sink);
            close(con_sink.fd);
        }
        if (dump)
            out_abort(&dump_out);
        free(con_buf);
        if (utrace)
            ucode_image_free(&ut.img);
        spamctl_io_abort(&io);
        vm_free(m);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    /* a medium's image that could not be written (a full disk), then a
     * console script that failed or did not finish */
    if (spamctl_io_media_check(&io, m))
        rc = SPAMCTL_EXIT_BAD_INPUT;
    if (spamctl_io_finish(&io, m) && rc == SPAMCTL_EXIT_OK)
        rc = SPAMCTL_EXIT_BAD_INPUT;
    /* why the run ended when the machine did not stop by itself */
    const char *reason = vm_stop_reason(m);
    if (ran == SPAMCTL_RUN_FAILED) {
        reason = "trace write error";
        rc = SPAMCTL_EXIT_BAD_INPUT;
    } else if (ran > 0) {
        reason = "interrupted";
    } else if (ran == SPAMCTL_RUN_PROBE_EXIT) {
        reason = "a probe's exit()";
    } else if (con.escaped) {
        reason = "console escape";
    }
    if (con_f) {
        int e = sink_close(&con_sink);
        errno = 0;
        if (close(con_sink.fd) != 0 && !e)
            e = errno ? errno : EIO;
        if (e) {
            out_error("run", con_out, e);
            rc = SPAMCTL_EXIT_BAD_INPUT;
        }
    }
    free(con_buf);
    if (utrace)
        ucode_image_free(&ut.img);

    if (tcache_stats) {
        struct vm_tcache_stats ts;
        struct vm_stats st;
        vm_tcache_stats(m, &ts);
        vm_get_stats(m, &st);
        uint64_t words = st.microcycles - st.stall_cycles;
        fprintf(stderr,
                "tcache: %" PRIu64 " lookups, %" PRIu64 " hits (%.2f%%); microwords: %.2f%% "
                "specialised, %.2f%% generic in traces, %.2f%% interpreted; %" PRIu64
                " traces recorded (%" PRIu64 " side), %" PRIu64 " side entries, %" PRIu64
                " exits, %" PRIu64 " flushes; %" PRIu64 " segments, %.1f KB; compiled: %" PRIu64
                " segments, %.1f KB of code, %.3f s, %" PRIu64 " loops back into it\n",
                ts.lookups, ts.hits, ts.lookups ? 100.0 * (double)ts.hits / (double)ts.lookups : 0.0,
                words ? 100.0 * (double)ts.words / (double)words : 0.0,
                words ? 100.0 * (double)ts.generic / (double)words : 0.0,
                words ? 100.0 * (double)(words - ts.words - ts.generic) / (double)words : 0.0,
                ts.recorded, ts.side_recorded, ts.side_entries, ts.exits, ts.flushes,
                ts.traces, (double)ts.bytes / 1024.0, ts.compiled,
                (double)ts.code_bytes / 1024.0, (double)ts.compile_ns / 1e9, ts.loop_entries);
    }
    if (dump) {
        write_json(dump_out.f, m, reason, da, dl, nd);
        if (out_close(&dump_out) != 0)
            rc = SPAMCTL_EXIT_BAD_INPUT;
    } else {
        struct vm_stats st;
        vm_get_stats(m, &st);
        printf("%s: %s at PC 0x%08" PRIx32 ", PSL 0x%08" PRIx32 "; %" PRIu64
               " microcycles, %" PRIu64 " instructions\n",
               vm_halted(m) ? "halted" : "stopped", reason,
               vm_reg(m, 15), vm_psl(m), st.microcycles, st.instructions);
        write_events(stdout, m, 0);
        if (st.spam_hook_cycles || st.spam_insn_cycles)
            printf("SPAM microcode: %" PRIu64 " microcycles in the traced flows' trace "
                   "microroutine (%.3f%% of all), %" PRIu64 " in the SPAM instructions (%.3f%%)\n",
                   st.spam_hook_cycles,
                   st.microcycles ? 100.0 * (double)st.spam_hook_cycles / (double)st.microcycles : 0.0,
                   st.spam_insn_cycles,
                   st.microcycles ? 100.0 * (double)st.spam_insn_cycles / (double)st.microcycles : 0.0);
        spamctl_io_report(&io, m, stdout);
    }
    if (probes_report(&probes, m, dump && strcmp(dump, "-") == 0 ? stderr : stdout) < 0)
        rc = SPAMCTL_EXIT_BAD_INPUT;
    probes_free(&probes);
    vm_free(m);
    if (ran > 0)
        return spamctl_signal_status(ran);
    return rc;
}
