/* spamctl compress / decompress. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/spamctl_cmds.h"
#include "cli/spamctl_out.h"
#include "cli/spamctl_signal.h"
#include "cli/spamctl_trace.h"
#include "spam/spam_compress.h"
#include "spam/spam_writer.h"

static void usage(FILE *f, int compress)
{
    if (compress)
        fprintf(f,
"Usage: spamctl compress [OPTIONS] TRACE [OUT]\n"
"\n"
"Compress a SPAM trace losslessly into the block format of TRACE-FORMAT.md\n"
"section 5: blocks of 65536 records, each independently decodable and\n"
"protected by a CRC-32, the fields split into columns and delta-coded before\n"
"zlib.  'spamctl decompress' restores the original byte for byte (header,\n"
"records and any torn last record).  Every spamctl command reads compressed\n"
"traces directly.  TRACE and OUT may be '-' (stdin, stdout); OUT defaults to\n"
"stdout.  OUT is written under a temporary name and renamed when complete,\n"
"so OUT may be TRACE itself, and a failed run leaves an existing OUT as it\n"
"was.\n"
"\n"
"Options:\n"
"  -1 .. -9       zlib level of the event column (default 3; the numeric\n"
"                 columns are always Huffman-coded only).\n"
"  -v, --verbose  Print sizes and the ratio on stderr.\n"
TRACE_PARTIAL_USAGE
"  -h, --help     This text.\n"
"\n"
"Exit status: 0 success, 1 bad or damaged input (the output then holds what\n"
"could be read) or an unwritable output, 2 usage error, 130/143 stopped by\n"
"SIGINT/SIGTERM (OUT not written).\n");
    else
        fprintf(f,
"Usage: spamctl decompress [OPTIONS] TRACE [OUT]\n"
"\n"
"Restore a compressed SPAM trace to the raw format, byte for byte.  A raw\n"
"input is copied through.  A corrupt block (CRC mismatch) is reported as\n"
"'FILE: offset N: message' and skipped; the output then lacks its records\n"
"and the exit status is 1.  TRACE and OUT may be '-'; OUT defaults to stdout.\n"
"OUT is written under a temporary name and renamed when complete.\n"
"\n"
"Options:\n"
TRACE_PARTIAL_USAGE
"  -h, --help     This text.\n"
"\n"
"Exit status: 0 success, 1 bad or damaged input or an unwritable output,\n"
"2 usage error, 130/143 stopped by SIGINT/SIGTERM (OUT not written).\n");
}

static int run(int argc, char **argv, int compress)
{
    const char *cmd = compress ? "compress" : "decompress";
    const char *in = NULL, *out = NULL;
    int level = 3, verbose = 0, partial = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout, compress);
            return SPAMCTL_EXIT_OK;
        } else if (compress && a[0] == '-' && a[1] >= '1' && a[1] <= '9' && !a[2]) {
            level = a[1] - '0';
        } else if (compress && (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0)) {
            verbose = 1;
        } else if (strcmp(a, "--partial") == 0) {
            partial = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "spamctl %s: unknown option '%s'\n", cmd, a);
            return SPAMCTL_EXIT_USAGE;
        } else if (!in) {
            in = a;
        } else if (!out) {
            out = a;
        } else {
            fprintf(stderr, "spamctl %s: too many arguments\n", cmd);
            return SPAMCTL_EXIT_USAGE;
        }
    }
    if (!in) {
        usage(stderr, compress);
        return SPAMCTL_EXIT_USAGE;
    }
    /* written under a temporary name and renamed: it may replace the trace */
    if (trace_files_check(cmd, argc, argv, in, HOSTFILE_OUT_INPLACE,
                          (const char *const[]){"", out}, 1) != 0)
        return SPAMCTL_EXIT_USAGE;
    struct trace_in t;
    if (trace_open(&t, cmd, in, partial) != 0)
        return SPAMCTL_EXIT_BAD_INPUT;
    struct out_file of;
    if (out_open(&of, cmd, out ? out : "-") != 0) {
        trace_close(&t);
        return SPAMCTL_EXIT_BAD_INPUT;
    }
    const char *opath = out && strcmp(out, "-") != 0 ? out : "<stdout>";
    int fd = of.fd;
    spamctl_signals_catch(); /* stop cleanly: the temporary file removed */
    int rc = SPAMCTL_EXIT_OK;
    struct spam_err err;
    size_t hl;
    const uint8_t *hb = spam_reader_header_bytes(t.r, &hl);
    const struct spam_record *recs;
    size_t n;
    uint64_t raw_bytes = hl, out_bytes = 0;
    if (compress) {
        struct spam_compressor *c = spam_compressor_new(fd, hb, hl, level, &err);
        if (!c) {
            fprintf(stderr, "spamctl compress: %s: %s\n", opath, err.msg);
            rc = SPAMCTL_EXIT_BAD_INPUT;
        } else {
            while (rc == SPAMCTL_EXIT_OK && (n = trace_next(&t, &recs)) != 0) {
                raw_bytes += n * SPAM_RECORD_BYTES;
                if (spam_compressor_add(c, recs, n, &err) != 0) {
                    fprintf(stderr, "spamctl compress: %s: %s\n", opath, err.msg);
                    rc = SPAMCTL_EXIT_BAD_INPUT;
                }
            }
            size_t tl;
            const uint8_t *tail = spam_reader_tail(t.r, &tl);
            raw_bytes += tl;
            if (spam_compressor_finish(c, tail, tl, &out_bytes, &err) != 0 && rc == SPAMCTL_EXIT_OK) {
                fprintf(stderr, "spamctl compress: %s: %s\n", opath, err.msg);
                rc = SPAMCTL_EXIT_BAD_INPUT;
            }
        }
    } else {
        uint8_t *buf = malloc(1 << 20);
        size_t nb = 0;
        int werr = !buf || spam_write_all(fd, hb, hl) != 0;
        while (!werr && (n = trace_next(&t, &recs)) != 0) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            /* records in memory are the file's bytes */
            if (spam_write_all(fd, recs, n * SPAM_RECORD_BYTES) != 0)
                werr = 1;
            continue;
#endif
            for (size_t i = 0; i < n && !werr; i++) {
                for (int k = 0; k < 4; k++) {
                    buf[nb + k] = (uint8_t)(recs[i].w0 >> (8 * k));
                    buf[nb + 4 + k] = (uint8_t)(recs[i].w1 >> (8 * k));
                }
                nb += 8;
                if (nb == 1 << 20) {
                    werr = spam_write_all(fd, buf, nb) != 0;
                    nb = 0;
                }
            }
        }
        size_t tl;
        const uint8_t *tail = spam_reader_tail(t.r, &tl);
        if (!werr && (spam_write_all(fd, buf, nb) != 0 || spam_write_all(fd, tail, tl) != 0))
            werr = 1;
        if (werr) {
            out_error(cmd, opath, buf ? errno : ENOMEM);
            rc = SPAMCTL_EXIT_BAD_INPUT;
        }
        free(buf);
    }
    if (t.interrupted) {
        out_abort(&of);
        trace_close(&t);
        return spamctl_signal_status(t.interrupted);
    }
    /* the output is kept even when the input was damaged: it holds what
     * could be read (the exit status says so) */
    if (rc == SPAMCTL_EXIT_OK ? out_close(&of) != 0 : (out_abort(&of), 1))
        rc = SPAMCTL_EXIT_BAD_INPUT;
    if (verbose && out_bytes)
        fprintf(stderr, "spamctl compress: %" PRIu64 " -> %" PRIu64 " bytes (%.2fx)\n", raw_bytes, out_bytes,
                (double)raw_bytes / (double)out_bytes);
    int rc2 = trace_finish(&t, cmd);
    trace_close(&t);
    return rc != SPAMCTL_EXIT_OK ? rc : rc2;
}

int spamctl_cmd_compress(int argc, char **argv) { return run(argc, argv, 1); }
int spamctl_cmd_decompress(int argc, char **argv) { return run(argc, argv, 0); }
