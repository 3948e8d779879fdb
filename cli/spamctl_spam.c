/* spamctl run: the SPAM machine options and the host drain.  The drain
 * moves records out of the trace buffer through the memory back door
 * between slices of vm_run (no guest microcycles, no cache effect) and
 * appends them to a trace file (spam/TRACE-FORMAT.md §4), so a trace can
 * be far longer than the buffer.  The slices are fixed microcycle counts,
 * so a run is exactly repeatable. */
#include "cli/spamctl_spam.h"
#include "cli/spamctl_probes.h"
#include "vax/machine/vm_probe.h"
#include "microcode/hostfile.h"
#include "microcode/uasm.h"
#include "spam/spam_writer.h"
#include "vax/machine/vm_net.h"
#include "vax/machine/vm_spam.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/spamctl_signal.h"

#define DRAIN_EVERY 262144u /* < 131072 records can be written in it */
#define DRAIN_CHUNK 4096

void spamctl_spam_init(struct spamctl_spam *s)
{
    memset(s, 0, sizeof *s);
    s->cmd = "run";
    s->drain_every = DRAIN_EVERY;
}

/* --seed N, --net-rate PKTS_PER_SEC, --net-size MIN:MAX */
static int spamctl_net_option(struct spamctl_spam *s, const char *a, const char *v)
{
    int seed = strcmp(a, "--seed") == 0, rate = strcmp(a, "--net-rate") == 0;
    if (!seed && !rate && strcmp(a, "--net-size") != 0)
        return 0;
    if (!v) {
        fprintf(stderr, "spamctl: %s needs a value\n", a);
        return -1;
    }
    char *end;
    errno = 0;
    if (seed) {
        unsigned long long x = strtoull(v, &end, 0);
        if (*end || errno || !*v || *v == '-')
            goto bad;
        s->seed = x;
    } else if (rate) {
        double x = strtod(v, &end);
        if (*end || errno || !*v || !(x >= 0.0) || x > 1e6)
            goto bad;
        s->net_rate = x;
    } else {
        unsigned long lo = strtoul(v, &end, 0), hi = lo;
        if (*end == ':')
            hi = strtoul(end + 1, &end, 0);
        if (*end || errno || !*v || *v == '-' || lo < VM_NET_MIN_PACKET ||
            hi > VM_NET_MAX_PACKET || lo > hi)
            goto bad;
        s->net_min = (uint32_t)lo;
        s->net_max = (uint32_t)hi;
    }
    return 2;
bad:
    fprintf(stderr, "spamctl: bad value for %s: '%s'\n", a, v);
    return -1;
}

int spamctl_spam_option(struct spamctl_spam *s, const char *a, const char *v)
{
    if (strcmp(a, "--no-cache-xlate") == 0) {
        s->no_xlate = 1;
        return 1;
    }
    if (strcmp(a, "--drain-tap") == 0) {
        s->tap = 1;
        return 1;
    }
    if (strcmp(a, "--no-rei-trace") == 0) {
        s->no_rei = 1;
        return 1;
    }
    if (strncmp(a, "--drain=", 8) == 0 || strcmp(a, "--drain") == 0) {
        const char *val = a[7] == '=' ? a + 8 : v;
        if (!val) {
            fprintf(stderr, "spamctl run: --drain needs a value (host|guest)\n");
            return -1;
        }
        if (strcmp(val, "guest") != 0 && strcmp(val, "host") != 0) {
            fprintf(stderr, "spamctl run: bad value for --drain: '%s' (host|guest)\n", val);
            return -1;
        }
        s->guest_drain = strcmp(val, "guest") == 0;
        return a[7] == '=' ? 1 : 2;
    }
    int net = spamctl_net_option(s, a, v);
    if (net)
        return net;
    int is_trace = strcmp(a, "-o") == 0 || strcmp(a, "--trace") == 0;
    int is_every = strcmp(a, "--drain-every") == 0;
    if (!is_trace && !is_every && strcmp(a, "--spam-priv") != 0)
        return 0;
    if (!v) {
        fprintf(stderr, "spamctl run: %s needs a value\n", a);
        return -1;
    }
    if (is_every) {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(v, &end, 0);
        if (*end || errno || !*v || *v == '-' || x == 0) {
            fprintf(stderr, "spamctl run: bad value for --drain-every: '%s'\n", v);
            return -1;
        }
        s->drain_every = x;
    } else if (is_trace) {
        s->trace = v;
    } else if (strcmp(v, "any") == 0 || strcmp(v, "kernel") == 0) {
        s->kernel_only = strcmp(v, "kernel") == 0;
    } else {
        fprintf(stderr, "spamctl run: bad value for --spam-priv: '%s' (any|kernel)\n", v);
        return -1;
    }
    return 2;
}

static uint32_t class_mask(const struct spamctl_spam *s)
{
    return VM_SPAM_DEFAULT_MASK & ~(s->no_rei ? 1u << 5 : 0);
}

int spamctl_spam_setup(const struct spamctl_spam *s, struct vax_machine *m)
{
    vm_spam_set_options(m, (s->kernel_only ? VM_SPAM_ST_KONLY : 0) |
                           (s->no_xlate ? VM_SPAM_ST_NOXLATE : 0),
                        class_mask(s));
    char err[200];
    struct vm_net_config nc = {.rate = s->net_rate, .size_min = s->net_min,
                               .size_max = s->net_max, .seed = s->seed};
    if (vm_net_configure(m, &nc, err, sizeof err) < 0) {
        fprintf(stderr, "spamctl: %s\n", err);
        return -1;
    }
    if (s->trace && s->guest_drain) {
        fprintf(stderr, "spamctl run: -o drains into a file; --drain=guest leaves the "
                        "buffer to the guest: give one of them\n");
        return -1;
    }
    if (!s->trace && !s->guest_drain)
        return 0;
    struct vm_spam_state st;
    vm_spam_get(m, &st);
    /* the megabyte's array slot: the board after the last memory board */
    if (vm_spam_console_enable(m, st.mb / (st.mb <= 128 ? 16 : 64) & 7, 0, 0,
                               err, sizeof err) < 0) {
        fprintf(stderr, "spamctl run: %s\n", err);
        return -1;
    }
    return 0;
}

/* CRC-32 and length of the control-store image the machine runs. */
static void ucode_digest(const char *path, uint32_t *crc, uint32_t *len)
{
    struct ucode_image img;
    char err[200];
    *crc = 0;
    *len = 0;
    int rc;
    if (path) {
        uint8_t *b;
        size_t n;
        const char *why;
        if (hostfile_read(path, 1024u << 20, 0, &b, &n, &why) != 0)
            return;
        char *buf = (char *)b;
        if (ucode_is_image((const uint8_t *)buf, n)) {
            rc = ucode_image_parse((const uint8_t *)buf, n, &img, err, sizeof err);
        } else {
            char *errs = NULL;
            rc = uasm_assemble_text(path, buf, &img, &errs);
            free(errs);
        }
        free(buf);
    } else {
        rc = ucode_default_image(&img, err, sizeof err);
    }
    if (rc < 0)
        return;
    size_t n = 0;
    uint8_t *bytes = ucode_image_serialize(&img, &n);
    if (bytes) {
        *crc = ucode_image_crc(bytes, n); /* the CRC the image ends with */
        *len = (uint32_t)n;
        free(bytes);
    }
    ucode_image_free(&img);
}

static int drain(struct vax_machine *m, struct spam_writer *w, uint32_t *buf,
                 struct probes_opts *p)
{
    size_t n;
    while ((n = vm_spam_drain(m, buf, DRAIN_CHUNK)) > 0) {
        struct spam_record r[DRAIN_CHUNK];
        for (size_t i = 0; i < n; i++) {
            r[i].w0 = buf[2 * i];
            r[i].w1 = buf[2 * i + 1];
        }
        if (p) /* the probe language's printf */
            probes_records(p, r, n);
        if (spam_writer_append(w, r, n) < 0)
            return -1;
    }
    return spam_writer_flush(w);
}

/* The tap (struct spamctl_spam.tap): the records written since the last
 * tap, from *at on, through the back door, whether or not the guest has
 * read them.  WR = *at means no new record, or a whole buffer of them:
 * after a tap at most a quarter of the buffer is left in it, so a full
 * buffer (COUNT = SIZE) holds new records.  A guest reader that frees
 * slots lets the machine go round more than once between taps, and the
 * records it overwrites are lost to the file: keep --drain-every short
 * enough for the buffer then (the default is). */
static int tap(struct vax_machine *m, struct spam_writer *w, uint32_t *buf, uint32_t *at,
               struct probes_opts *p)
{
    uint32_t start = vm_ipr(m, VM_SPAM_START), end = vm_ipr(m, VM_SPAM_END);
    uint32_t wr = vm_ipr(m, VM_SPAM_WR), noxl = vm_ipr(m, VM_SPAM_STAT) & VM_SPAM_ST_NOXLATE;
    uint32_t size = vm_ipr(m, VM_SPAM_SIZE);
    struct spam_record r[DRAIN_CHUNK];
    size_t n = 0;
    if (*at < start || *at >= end)
        *at = start;
    if (end <= start || wr < start || wr >= end)
        return 0; /* no buffer (SET_PTRS not done): nothing to tap */
    uint32_t fresh = (wr - *at + (end - start)) % (end - start) / 8;
    if (fresh == 0 && vm_ipr(m, VM_SPAM_COUNT) == size)
        fresh = size;
    for (; fresh; fresh--) {
        uint8_t b[8];
        if (vm_phys_read(m, noxl ? *at : vm_spam_xlate(*at), b, sizeof b) < 0)
            return -1;
        r[n].w0 = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        r[n].w1 = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
        *at += 8;
        if (*at == end)
            *at = start;
        if (++n == DRAIN_CHUNK) {
            if (p)
                probes_records(p, r, n);
            if (spam_writer_append(w, r, n) < 0)
                return -1;
            n = 0;
        }
    }
    if (n && p)
        probes_records(p, r, n);
    if (n && spam_writer_append(w, r, n) < 0)
        return -1;
    if (vm_ipr(m, VM_SPAM_COUNT) > size / 4) /* nobody reads: make room */
        while (vm_spam_drain(m, buf, DRAIN_CHUNK) > 0)
            ;
    return spam_writer_flush(w);
}

/* The free mode's probe records (vm_probe.h's sink): the buffer's
 * records written before them first, then theirs, so the file keeps the
 * machine's order. */
struct sink_ctx {
    const struct spamctl_spam *s;
    struct spam_writer *w;
    uint32_t *buf;
    uint32_t *tap_at;
    int failed;
};

static void probe_sink(void *ctx, struct vax_machine *m, const uint32_t *recs, unsigned n)
{
    struct sink_ctx *k = ctx;
    if (!k->w || k->failed)
        return;
    int rc = k->s->tap ? tap(m, k->w, k->buf, k->tap_at, k->s->probes)
                       : drain(m, k->w, k->buf, k->s->probes);
    struct spam_record r[16];
    for (unsigned i = 0; i < n && i < 16; i++) {
        r[i].w0 = recs[2 * i];
        r[i].w1 = recs[2 * i + 1];
    }
    probes_records(k->s->probes, r, n < 16 ? n : 16);
    if (rc < 0 || spam_writer_append(k->w, r, n < 16 ? n : 16) < 0)
        k->failed = 1;
}

/* Steps the machine to the next instruction boundary (the instruction
 * count moves at IRD) and out of any SPAM flow, one microcycle at a time;
 * gives up after BOUNDARY_MAX microcycles (a very long instruction). */
#define BOUNDARY_MAX 1000000u
static void to_boundary(struct vax_machine *m, uint64_t max_cycles)
{
    struct vm_stats vs;
    vm_get_stats(m, &vs);
    uint64_t ins = vs.instructions, give_up = vs.microcycles + BOUNDARY_MAX;
    while ((vs.instructions == ins || vm_spam_busy(m)) && vs.microcycles < give_up &&
           !(max_cycles && vs.microcycles >= max_cycles)) {
        if (vm_run(m, vs.microcycles + 1) != VM_CYCLE_LIMIT)
            return;
        vm_get_stats(m, &vs);
    }
}

int spamctl_spam_run(const struct spamctl_spam *s, struct vax_machine *m,
                     uint64_t max_cycles, const char *guest,
                     const char *ucode_path)
{
    struct spam_writer *w = NULL;
    struct vm_spam_state st;
    struct spam_err e;
    vm_spam_get(m, &st);
    if (s->trace) {
        struct spam_header h;
        spam_header_init(&h);
        h.flags = (s->no_rei ? 0 : SPAM_FILE_FLAG_REI) |
                  (s->no_xlate ? 0 : SPAM_FILE_FLAG_CACHE_XLATE);
        h.buffer_records = st.size;
        h.class_mask = st.mask;
        h.seed = s->seed; /* the network's arrivals (--seed) */
        ucode_digest(ucode_path, &h.ucode_crc, &h.ucode_len);
        const char *base = guest ? strrchr(guest, '/') : NULL;
        snprintf(h.guest, sizeof h.guest, "%s", base ? base + 1 : guest ? guest : "");
        int fd = open(s->trace, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) {
            fprintf(stderr, "spamctl %s: %s: %s\n", s->cmd, s->trace, strerror(errno));
            return SPAMCTL_RUN_NOT_STARTED;
        }
        w = spam_writer_open_fd(fd, &h, &e);
        if (!w) {
            fprintf(stderr, "spamctl %s: %s: %s\n", s->cmd, s->trace, e.msg);
            close(fd);
            return SPAMCTL_RUN_NOT_STARTED;
        }
    }
    uint32_t *buf = malloc(2 * DRAIN_CHUNK * sizeof *buf);
    if (!buf) {
        fprintf(stderr, "spamctl %s: out of memory\n", s->cmd);
        if (w)
            spam_writer_abandon(w);
        return SPAMCTL_RUN_NOT_STARTED;
    }
    /* in slices of drain_every microcycles, with or without a trace: the
     * slice boundaries are where the drain, the progress report and a
     * caught SIGINT/SIGTERM act; their positions are fixed microcycle
     * counts, so a run is exactly repeatable */
    int rc = 0, sig = 0, prb = 0;
    uint32_t tap_at = st.start;
    struct vm_stats vs;
    struct sink_ctx sink = {.s = s, .w = w, .buf = buf, .tap_at = &tap_at};
    if (s->probes) {
        if (probes_load_due(s->probes, m) < 0) {
            free(buf);
            if (w)
                spam_writer_abandon(w);
            return SPAMCTL_RUN_NOT_STARTED;
        }
        vm_probe_set_sink(m, probe_sink, &sink);
    }
    for (;;) {
        vm_get_stats(m, &vs);
        uint64_t until = vs.microcycles + s->drain_every;
        if (until < vs.microcycles) /* --drain-every near 2^64 */
            until = UINT64_MAX;
        if (max_cycles && until > max_cycles)
            until = max_cycles;
        if (s->probes && probes_next_at(s->probes) < until) /* a program is due */
            until = probes_next_at(s->probes);
        int last = max_cycles && until >= max_cycles;
        enum vm_stop why = vm_run(m, until);
        sig = spamctl_signal();
        int stop = sig || (s->slice && why == VM_CYCLE_LIMIT && s->slice(s->slice_ctx, m));
        if (stop && why == VM_CYCLE_LIMIT) {
            to_boundary(m, max_cycles);
        } else {
            /* never drain in the middle of a SPAM flow: finish it first
             * (at the very end it is harmless: a record counts once
             * written) */
            while (w && !last && why == VM_CYCLE_LIMIT && vm_spam_busy(m)) {
                vm_get_stats(m, &vs);
                why = vm_run(m, vs.microcycles + 1);
            }
        }
        if (w)
            rc = s->tap ? tap(m, w, buf, &tap_at, s->probes) : drain(m, w, buf, s->probes);
        if (sink.failed)
            rc = -1;
        vm_get_stats(m, &vs);
        if (s->progress)
            s->progress(s->progress_ctx, vs.microcycles, max_cycles);
        if (s->probes && why == VM_CYCLE_LIMIT) {
            uint32_t code = 0;
            unsigned notes = vm_probe_notes(m, &code);
            if (notes && code == 1) { /* exit() */
                prb = SPAMCTL_RUN_PROBE_EXIT;
                break;
            }
            if (probes_load_due(s->probes, m) < 0) {
                prb = SPAMCTL_RUN_PROBE_REFUSED;
                break;
            }
            if (probes_slice(s->probes, m)) { /* an interval's exit() */
                prb = SPAMCTL_RUN_PROBE_EXIT;
                break;
            }
        }
        if (stop || rc < 0 || why != VM_CYCLE_LIMIT || (max_cycles && vs.microcycles >= max_cycles))
            break;
    }
    if (s->probes)
        vm_probe_set_sink(m, NULL, NULL);
    free(buf);
    if (!w)
        return sig ? sig : prb ? prb : SPAMCTL_RUN_OK;
    vm_spam_get(m, &st);
    spam_writer_add_dropped(w, st.drops);
    const char *why = spam_writer_error(w);
    if (spam_writer_close(w, &e) < 0 || rc < 0) {
        /* the header stays incomplete: the file is what was written */
        fprintf(stderr, "spamctl %s: %s: %s\n", s->cmd, s->trace,
                why ? why : rc < 0 ? "cannot read the trace buffer" : e.msg);
        return SPAMCTL_RUN_FAILED;
    }
    return sig ? sig : prb ? prb : SPAMCTL_RUN_OK;
}
