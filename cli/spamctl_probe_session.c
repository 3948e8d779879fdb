/* A probe-language program in a run (spamctl_probe_session.h). */
#include "cli/spamctl_probe_session.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/spamctl_out.h"
#include "cli/spamctl_probe_out.h"
#include "cli/spamctl_top.h"
#include "vax/machine/vm.h"
#include "vax/machine/vm_probe.h"
#include "vax/probe/probe_install.h"

#define CYCLES_PER_US 12.5

/* ---- the host's side, through the machine ---- */

static uint64_t now_us(void *ctx)
{
    struct probe_session *s = ctx;
    struct vm_stats st;
    vm_get_stats(s->m, &st);
    return (uint64_t)((double)st.microcycles / CYCLES_PER_US);
}

static int64_t map_value(void *ctx, unsigned map, uint32_t key)
{
    struct probe_session *s = ctx;
    const struct prb_map_desc *d;
    const uint8_t *slots;
    if (vm_probe_map(s->m, s->handle, map, &d, &slots))
        return 0;
    struct prb_slot v;
    prb_map_slot(d, slots, key, &v);
    return s->l->map[map].agg == PRB_A_COUNT ? (int64_t)v.count : v.sum;
}

static void print_map(void *ctx, unsigned map, unsigned top, unsigned div);

static void clear_map(void *ctx, unsigned map)
{
    struct probe_session *s = ctx;
    vm_probe_map_clear(s->m, s->handle, map);
}

static void out_text(void *ctx, const char *t)
{
    struct probe_session *s = ctx;
    if (s->json) {
        fputs("{\"type\": \"printf\", \"data\": ", s->out);
        probe_json_str(s->out, t);
        fputs("}\n", s->out);
    } else {
        fputs(t, s->out);
    }
}

static const char *names(void *ctx, enum prb_lang_type t, uint32_t v, char *buf, size_t len);

static void host(struct probe_session *s, struct prb_lang_host *h)
{
    memset(h, 0, sizeof *h);
    h->ctx = s;
    h->map_value = map_value;
    h->now_us = now_us;
    h->print_map = print_map;
    h->clear_map = clear_map;
    h->out = out_text;
    h->name = names;
}

/* prb_lang_host's name with the guest as its context */
static const char *names(void *ctx, enum prb_lang_type t, uint32_t v, char *buf, size_t len)
{
    struct probe_session *s = ctx;
    return guest_name(&s->g, t, v, buf, len);
}

static void print_map(void *ctx, unsigned map, unsigned top, unsigned div)
{
    struct probe_session *s = ctx;
    const struct prb_map_desc *d;
    const uint8_t *slots;
    struct prb_lang_host h;
    host(s, &h);
    if (vm_probe_map(s->m, s->handle, map, &d, &slots))
        return;
    if (s->json)
        probe_json_map(s->out, s->l, map, slots, &h);
    else
        probe_print_map(s->out, s->l, map, slots, &h, top, div);
}

/* ---- the session ---- */

int probe_session_prepare(struct probe_session *s)
{
    s->handle = -1;
    if (!s->out)
        s->out = stdout;
    memset(&s->g, 0, sizeof s->g);
    if ((s->kernel || s->disk) && guest_open(&s->g, s->cmd, s->kernel, s->disk) != 0)
        return -1;
    s->l = malloc(sizeof *s->l);
    if (!s->l) {
        fprintf(stderr, "spamctl %s: out of memory\n", s->cmd);
        return -1;
    }
    struct prb_lang_resolver r;
    guest_resolver(&s->g, &r);
    struct prb_lang_opts o = {.name = s->name, .budget = s->budget, .resolve = &r};
    struct prb_lang_error e;
    if (prb_lang_compile(s->text, s->len, &o, s->l, &e) != 0) {
        fprintf(stderr, "spamctl %s: %s\n", s->cmd, e.msg);
        free(s->l);
        s->l = NULL;
        return -1;
    }
    return 0;
}

int probe_session_needs_trace(const struct probe_session *s)
{
    return s->l && (s->l->uses_records || s->l->uses_tracing);
}

static int run_blocks(struct probe_session *s, enum prb_lang_block kind)
{
    struct prb_lang_host h;
    host(s, &h);
    for (unsigned b = 0; b < s->l->nblock; b++)
        if (s->l->block[b].kind == kind && prb_lang_host_run(s->l, b, &h))
            s->exited = 1;
    return s->exited;
}

int probe_session_load(struct probe_session *s, struct vax_machine *m)
{
    char err[300];
    s->m = m;
    if (s->free_mode)
        vm_probe_set_free(m, 1);
    if (s->l->prog.nprobes) {
        s->handle = vm_probe_load(m, &s->l->prog, err, sizeof err);
        if (s->handle < 0) {
            fprintf(stderr, "spamctl %s: %s: the machine refuses the program: %s\n", s->cmd,
                    s->name, err);
            return -1;
        }
    }
    uint64_t now = now_us(s);
    for (unsigned b = 0; b < s->l->nblock; b++)
        s->next_us[b] = now + s->l->block[b].period_us;
    run_blocks(s, PRB_B_BEGIN);
    return 0;
}

/* spamctl top: a screen from the maps now and a second ago. */
static void top_screen(struct probe_session *s, uint64_t now)
{
    struct top_snap *prev = s->top_prev;
    if (!prev && !(prev = s->top_prev = calloc(1, sizeof *prev)))
        return;
    const uint8_t *slots[PRB_MAX_MAPS] = {0};
    for (unsigned i = 0; i < s->l->prog.nmaps; i++) {
        const struct prb_map_desc *d;
        if (vm_probe_map(s->m, s->handle, i, &d, &slots[i]))
            slots[i] = NULL;
    }
    struct top_snap cur = {0};
    if (top_snap_take(&cur, s->l, slots, now) != 0) {
        top_snap_free(&cur);
        return;
    }
    struct prb_lang_host h;
    host(s, &h);
    top_render(s->out, s->l, prev, &cur, &h, s->tty, 8,
               "spamctl top (probes free: no cost to the guest)");
    top_snap_free(prev);
    *prev = cur;
}

int probe_session_slice(struct probe_session *s, struct vax_machine *m)
{
    s->m = m;
    uint64_t now = now_us(s);
    struct prb_lang_host h;
    host(s, &h);
    if (s->top && s->handle >= 0 && now >= s->top_next_us) {
        if (s->top_next_us)
            top_screen(s, now);
        else if ((s->top_prev = calloc(1, sizeof(struct top_snap))))
            ((struct top_snap *)s->top_prev)->us = now; /* (the first second: from zero) */
        s->top_next_us = now + 1000000;
    }
    for (unsigned b = 0; b < s->l->nblock && !s->exited; b++) {
        if (s->l->block[b].kind != PRB_B_INTERVAL || now < s->next_us[b])
            continue;
        while (s->next_us[b] <= now)
            s->next_us[b] += s->l->block[b].period_us;
        if (prb_lang_host_run(s->l, b, &h))
            s->exited = 1;
    }
    fflush(s->out);
    return s->exited;
}

static void print_record(struct probe_session *s)
{
    struct prb_lang_host h;
    host(s, &h);
    char buf[1024];
    unsigned tag = s->rec.detail >> 4 & 0xFF;
    if (prb_lang_format_record(s->l, tag, s->rec.vals, s->rec.have, &h, buf, sizeof buf) == 0) {
        if (!s->l->fmt[tag].fmt) /* record(): a line of its own */
            strncat(buf, "\n", sizeof buf - strlen(buf) - 1);
        out_text(s, buf);
        s->printed++;
    }
}

void probe_session_records(struct probe_session *s, const struct spam_record *r, size_t n)
{
    if (!s->l)
        return;
    for (size_t i = 0; i < n; i++) {
        if (s->rec.open) { /* a value record: two values */
            s->rec.vals[s->rec.have++] = r[i].w0;
            if (s->rec.have < s->rec.want)
                s->rec.vals[s->rec.have++] = r[i].w1;
            if (s->rec.have >= s->rec.want) {
                s->rec.open = 0;
                print_record(s);
            }
            continue;
        }
        uint16_t ev = spam_rec_event(r[i]);
        if (ev >> 12 != SPAM_CLASS_PROBE)
            continue;
        s->rec.detail = ev & 0xFFF;
        s->rec.want = ev & 0xF;
        s->rec.have = 0;
        s->rec.open = s->rec.want > 0;
        if (!s->rec.open)
            print_record(s);
    }
}

/* What each probe cost the guest. */
static void costs(struct probe_session *s, struct vax_machine *m, FILE *f)
{
    struct vm_stats st;
    vm_get_stats(m, &st);
    struct vm_probe_totals t;
    vm_probe_totals(m, &t);
    double all = st.microcycles ? (double)st.microcycles : 1.0;
    fprintf(f, "probes (%s): %" PRIu64 " microcycles of %" PRIu64 " (%.3f%% of the run)\n",
            s->free_mode ? "free: run by the host, no guest cycles" : "charged", t.cycles,
            st.microcycles, 100.0 * (double)t.cycles / all);
    for (unsigned i = 0; i < s->l->prog.nprobes; i++) {
        struct vm_probe_info in;
        if (vm_probe_info(m, s->handle, i, &in))
            continue;
        fprintf(f, "  %-28s %10" PRIu64 " fires %12" PRIu64 " microcycles (%.3f%%), worst %" PRIu32
                   " of %" PRIu32 ", %" PRIu64 " errors%s\n",
                s->l->prog.probe_name[i], in.fires, in.cycles, 100.0 * (double)in.cycles / all,
                in.max_cycles, in.cost, in.errors, in.norec ? ", records not written (tracing off)" : "");
    }
}

int probe_session_end(struct probe_session *s, struct vax_machine *m)
{
    int rc = 0;
    s->m = m;
    if (!s->l)
        return 0;
    if (s->top) { /* the last second's screen, then what it cost */
        if (s->handle >= 0)
            top_screen(s, now_us(s));
        costs(s, m, s->out);
        return 0;
    }
    run_blocks(s, PRB_B_END);
    if (s->rec.open)
        s->cut++;
    struct prb_lang_host h;
    host(s, &h);
    const uint8_t *slots[PRB_MAX_MAPS] = {0};
    for (unsigned i = 0; i < s->l->prog.nmaps; i++) {
        const struct prb_map_desc *d;
        if (s->handle < 0 || vm_probe_map(m, s->handle, i, &d, &slots[i]))
            continue;
        if (s->json)
            probe_json_map(s->out, s->l, i, slots[i], &h);
        else
            probe_print_map(s->out, s->l, i, slots[i], &h, 0, 0);
    }
    if (s->svg) {
        struct out_file o = {0};
        if (out_open_stream(&o, s->cmd, s->svg) != 0)
            return -1;
        probe_svg(o.f, s->l, slots, &h);
        rc = out_close(&o);
    }
    if (s->handle >= 0)
        costs(s, m, s->json ? stderr : s->out);
    if (s->cut)
        fprintf(stderr, "spamctl %s: %" PRIu64 " probe record%s cut off at the end of the trace\n",
                s->cmd, s->cut, s->cut == 1 ? "" : "s");
    return rc;
}

void probe_session_free(struct probe_session *s)
{
    if (s->top_prev) {
        top_snap_free(s->top_prev);
        free(s->top_prev);
        s->top_prev = NULL;
    }
    if (s->l) {
        prb_lang_free(s->l);
        free(s->l);
        s->l = NULL;
    }
    guest_close(&s->g);
    if (s->owned) {
        free((char *)s->text);
        s->text = NULL;
        s->owned = 0;
    }
}
