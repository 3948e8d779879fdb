/* spamctl export: CTF 1.8 (plain or LTTng-shaped) and Chrome/Perfetto JSON. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/spamctl_cmds.h"
#include "cli/spamctl_out.h"
#include "cli/spamctl_signal.h"
#include "cli/spamctl_trace.h"
#include "spam/spam_export.h"
#include "spam/spam_gnames.h"

static void usage(FILE *f)
{
    fprintf(f,
"Usage: spamctl export (--ctf DIR [--lttng] | --chrome FILE) [OPTIONS] TRACE\n"
"\n"
"Export a SPAM trace (raw or compressed; '-' reads stdin) for standard viewers.\n"
"\n"
"  --ctf DIR      CTF 1.8 in DIR (created; existing files overwritten): a\n"
"                 'metadata' file and 'stream_0', every event as spam:<class>\n"
"                 (spam:interrupt, spam:exception, spam:chm, spam:ldpctx,\n"
"                 spam:rei, spam:marker, spam:unknown) with the reconstructed\n"
"                 time as a 64-bit microsecond clock, the instruction count,\n"
"                 the PSL, the process and, on REIs, the service time.  Read\n"
"                 it with 'babeltrace2 DIR'; packets carry timestamp_begin/end\n"
"                 (so --begin/--end work) and events_discarded (the drops).\n"
"  --lttng        With --ctf: LTTng kernel event names instead, so LTTng tools\n"
"                 understand the trace: each hardware interrupt whose REI was\n"
"                 traced becomes irq_handler_entry/irq_handler_exit (irq = the\n"
"                 SCB vector, name = the device), one stream per IPL with\n"
"                 cpu_id = IPL, so nested interrupts never overlap on a 'cpu'.\n"
"                 Try: lttng-irqstats --skip-validation --stats DIR\n"
"  --chrome FILE  Chrome/Perfetto trace-event JSON ('-' = stdout): complete\n"
"                 slices (ph X) for every event whose REI was traced, on one\n"
"                 track per IPL (hardware interrupts) or per process (what\n"
"                 runs on its kernel stack: system calls, exceptions,\n"
"                 software interrupts), context switches as instants.  Open it in\n"
"                 ui.perfetto.dev or chrome://tracing.  FILE is written under a\n"
"                 temporary name and renamed when complete.\n"
"\n"
"Options:\n"
"  --correct, --gap-us N   As for 'spamctl decode'.\n"
TRACE_PARTIAL_USAGE
TRACE_NAMES_USAGE
"                 CTF: a string field name on spam:interrupt, spam:exception\n"
"                 and spam:chm, path on spam:ldpctx; --lttng: the irq's name;\n"
"                 Chrome: the slices' and context switches' names.\n"
"  -h, --help     This text.\n"
"\n"
"Exit status: 0 success, 1 bad or damaged input or an unwritable output,\n"
"2 usage error, 130/143 stopped by SIGINT/SIGTERM.\n");
}

static int export_cmd(int argc, char **argv, struct spam_gnames **gp);

int spamctl_cmd_export(int argc, char **argv)
{
    struct spam_gnames *g = NULL;
    int rc0 = export_cmd(argc, argv, &g);
    spam_gnames_free(g);
    return rc0;
}

static int export_cmd(int argc, char **argv, struct spam_gnames **gp)
{
    const char *path = NULL, *ctf = NULL, *chrome = NULL;
    int lttng = 0, partial = 0;
    struct spam_decode_opts o = {0};
    for (int i = 1; i < argc; i++) {
        const char *v;
        int rc;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return SPAMCTL_EXIT_OK;
        } else if ((rc = names_option("export", argc, argv, &i, gp)) != 0) {
            if (rc < 0)
                return rc == -2 ? SPAMCTL_EXIT_BAD_INPUT : SPAMCTL_EXIT_USAGE;
        } else if (strcmp(argv[i], "--lttng") == 0) {
            lttng = 1;
        } else if (strcmp(argv[i], "--partial") == 0) {
            partial = 1;
        } else if ((rc = opt_value(argc, argv, &i, "--ctf", &v)) != 0) {
            if (rc < 0) {
                fprintf(stderr, "spamctl export: --ctf needs a directory\n");
                return SPAMCTL_EXIT_USAGE;
            }
            ctf = v;
        } else if ((rc = opt_value(argc, argv, &i, "--chrome", &v)) != 0) {
            if (rc < 0) {
                fprintf(stderr, "spamctl export: --chrome needs a file\n");
                return SPAMCTL_EXIT_USAGE;
            }
            chrome = v;
        } else if ((rc = decode_option(&o, "export", argc, argv, &i)) != 0) {
            if (rc < 0)
                return SPAMCTL_EXIT_USAGE;
        } else if (trace_path_arg("export", argv[i], &path) != 0) {
            return SPAMCTL_EXIT_USAGE;
        }
    }
    if (!path || (!ctf && !chrome) || (lttng && !ctf)) {
        if (path && lttng && !ctf)
            fprintf(stderr, "spamctl export: --lttng needs --ctf DIR\n");
        else
            usage(stderr);
        return SPAMCTL_EXIT_USAGE;
    }
    /* the CTF directory's files: metadata, stream_0 or LTTng's channels */
    char ctf_files[34][4200];
    const char *outs[2 * 36];
    int no = 0;
    outs[no++] = "--chrome";
    outs[no++] = chrome;
    for (int k = 0; ctf && k < 34; k++) {
        if (k < 2)
            snprintf(ctf_files[k], sizeof ctf_files[k], "%s/%s", ctf, k ? "stream_0" : "metadata");
        else
            snprintf(ctf_files[k], sizeof ctf_files[k], "%s/channel0_%d", ctf, k - 2);
        outs[no++] = "--ctf";
        outs[no++] = ctf_files[k];
    }
    if (trace_files_check("export", argc, argv, path, HOSTFILE_OUT, outs, no / 2) != 0)
        return SPAMCTL_EXIT_USAGE;
    struct trace_in t;
    if (trace_open(&t, "export", path, partial) != 0)
        return SPAMCTL_EXIT_BAD_INPUT;
    const struct spam_header *h = spam_reader_header(t.r);
    struct spam_decoder *d = spam_decoder_new(h, &o);
    struct spam_err err;
    struct spam_ctf *cx = NULL;
    struct spam_chrome *cj = NULL;
    struct out_file jo = {0};
    int rc = SPAMCTL_EXIT_OK;
    if (!d) {
        fprintf(stderr, "spamctl export: out of memory\n");
        rc = SPAMCTL_EXIT_BAD_INPUT;
    }
    if (rc == SPAMCTL_EXIT_OK && ctf && !(cx = spam_ctf_open_named(ctf, lttng, h, *gp, &err))) {
        fprintf(stderr, "spamctl export: %s\n", err.msg);
        rc = SPAMCTL_EXIT_BAD_INPUT;
    }
    if (rc == SPAMCTL_EXIT_OK && chrome) {
        if (out_open_stream(&jo, "export", chrome) != 0) {
            rc = SPAMCTL_EXIT_BAD_INPUT;
        } else if (!(cj = spam_chrome_open(jo.f, h))) {
            fprintf(stderr, "spamctl export: out of memory\n");
            out_abort(&jo);
            rc = SPAMCTL_EXIT_BAD_INPUT;
        } else {
            spam_chrome_set_names(cj, *gp);
        }
    }
    spamctl_signals_catch(); /* stop cleanly: the temporary file removed */
    const struct spam_record *recs;
    size_t n;
    struct spam_event e;
    int bad = 0;
    while (rc == SPAMCTL_EXIT_OK && (n = trace_next(&t, &recs)) != 0)
        for (size_t i = 0; i < n; i++)
            if (spam_decode_step(d, recs[i], &e)) {
                if (cx)
                    bad |= spam_ctf_event(cx, &e) != 0;
                if (cj)
                    spam_chrome_event(cj, &e);
            }
    if (rc == SPAMCTL_EXIT_OK && spam_decoder_finish(d, &e)) {
        if (cx)
            bad |= spam_ctf_event(cx, &e) != 0;
        if (cj)
            spam_chrome_event(cj, &e);
    }
    if (cx) {
        uint64_t count = spam_ctf_count(cx);
        if (spam_ctf_close(cx, &err) != 0 || bad) {
            fprintf(stderr, "spamctl export: %s\n", err.msg); /* a failed event write fails the close */
            rc = SPAMCTL_EXIT_BAD_INPUT;
        } else {
            fprintf(stderr, "spamctl export: %" PRIu64 " events to %s\n", count, ctf);
        }
    }
    if (cj) {
        spam_chrome_close(cj); /* its stream is checked by out_close */
        if (t.interrupted)
            out_abort(&jo);
        else if (out_close(&jo) != 0)
            rc = SPAMCTL_EXIT_BAD_INPUT;
    }
    if (t.interrupted)
        rc = spamctl_signal_status(t.interrupted);
    if (rc == SPAMCTL_EXIT_OK)
        rc = trace_finish(&t, "export");
    spam_decoder_free(d);
    trace_close(&t);
    return rc;
}
