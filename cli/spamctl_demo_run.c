/* spamctl demo --os ours's work (spamctl_demo_run.h): no printing.
 * The machine runs through the same code as `spamctl run` (the SPAM
 * console setup and the host drain of cli/spamctl_spam.c); the trace is
 * analysed with libspam's reader, decoder and histogram. */
#include "cli/spamctl_demo_run.h"
#include "microcode/hostfile.h"
#include "cli/spamctl_spam.h"
#include "spam/spam_decode.h"
#include "spam/spam_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SPAMCTL_GUEST_KERNEL
#define SPAMCTL_GUEST_KERNEL "vax/guest/kernel.bin"
#endif

#define DEMO_MEMORY_MB 8
#define CYCLES_PER_TICK 125000u /* 10 ms of 80 ns microcycles */
#define CFG_MAGIC 0x10
#define CFG_TICKS 0x14

static int readable(const char *p)
{
    return access(p, R_OK) == 0;
}

const char *demo_find_image(const char *given, const char *argv0, char *buf, size_t len)
{
    if (given)
        return given;
    /* next to this spamctl: build/cli/spamctl -> build/vax/guest/kernel.bin */
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0 && argv0 && strlen(argv0) < sizeof exe) {
        strcpy(exe, argv0);
        n = (ssize_t)strlen(exe);
    }
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            static const char *rel[] = {"../vax/guest/kernel.bin",
                                        "../share/vax8600-spam/kernel.bin"};
            for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
                snprintf(buf, len, "%s/%s", exe, rel[i]);
                if (readable(buf))
                    return buf;
            }
        }
    }
    if (readable(SPAMCTL_GUEST_KERNEL)) {
        snprintf(buf, len, "%s", SPAMCTL_GUEST_KERNEL);
        return buf;
    }
    return NULL;
}

struct phase_ctx {
    const struct demo_opts *o;
    int phase;
};

static void phase_progress(void *ctx, uint64_t now, uint64_t max)
{
    struct phase_ctx *p = ctx;
    p->o->progress(p->o->progress_ctx, p->phase, now, max);
}

/* One boot of the guest; console output into *console when not NULL. */
static int boot(const struct demo_opts *o, const uint8_t *img, size_t len, int traced,
                struct demo_run_stats *rs, struct vm_net_stats *net, char **console,
                char *err, size_t errlen)
{
    struct vm_config cfg = {.memory_mb = DEMO_MEMORY_MB, .ucode = NULL};
    struct vax_machine *m = vm_new(&cfg, err, errlen);
    if (!m)
        return -1;
    int rc = -1;
    FILE *con = tmpfile();
    if (!con) {
        snprintf(err, errlen, "temporary file: %s", strerror(errno));
        goto out;
    }
    if (vm_phys_write(m, 0, img, len) < 0) {
        snprintf(err, errlen, "the guest image (%zu bytes) does not fit in memory", len);
        goto out;
    }
    vm_console_input(m, "", 0);
    vm_console_output(m, con);
    vm_set_reg(m, 15, 0);
    vm_set_psl(m, 0x041F0000);
    struct spamctl_spam s;
    spamctl_spam_init(&s);
    s.cmd = "demo";
    s.trace = traced ? o->trace : NULL;
    s.tap = 1; /* spamread, the in-guest reader, must not steal the host's records */
    s.seed = o->seed;
    s.net_rate = o->net_rate;
    s.net_min = o->net_min;
    s.net_max = o->net_max;
    struct phase_ctx pc = {o, traced ? 0 : 1};
    if (o->progress) {
        s.progress = phase_progress;
        s.progress_ctx = &pc;
    }
    if (spamctl_spam_setup(&s, m) < 0) {
        snprintf(err, errlen, "machine setup failed");
        goto out;
    }
    /* the kernel halts at its shutdown tick; twice that is a safety net */
    uint64_t max = (uint64_t)o->ticks * CYCLES_PER_TICK * 2 + 50000000u;
    int ran = spamctl_spam_run(&s, m, max, "kernel.bin", NULL);
    if (ran < 0) {
        err[0] = 0; /* spamctl_spam_run said why */
        goto out;
    }
    struct vm_stats st;
    vm_get_stats(m, &st);
    rs->spam_hook_cycles = st.spam_hook_cycles;
    rs->spam_insn_cycles = st.spam_insn_cycles;
    rs->interrupted = ran;
    rs->halted = vm_halted(m);
    snprintf(rs->reason, sizeof rs->reason, "%s", ran ? "interrupted" : vm_stop_reason(m));
    uint64_t scb[128];
    vm_scb_counts(m, scb);
    rs->clock_ticks = scb[0xC0 / 4];
    rs->microcycles = st.microcycles;
    rs->instructions = st.instructions;
    if (net)
        vm_net_get_stats(m, net);
    if (console) {
        long n = ftell(con);
        char *text = malloc(n > 0 ? (size_t)n + 1 : 1);
        if (!text) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
        rewind(con);
        size_t got = n > 0 ? fread(text, 1, (size_t)n, con) : 0;
        text[got] = 0;
        *console = text;
    }
    rc = 0;
out:
    if (con)
        fclose(con);
    vm_free(m);
    return rc;
}

/* The guest's shutdown report: " pid ppid  uid  command  state ..." */
static void names_from_console(struct demo_result *r, const char *con)
{
    const char *p = con ? strstr(con, "shutdown at tick") : NULL;
    while (p && (p = strchr(p, '\n')) != NULL) {
        p++;
        int pid, ppid, uid;
        long ticks, user, runs, calls;
        char cmd[16], state[16];
        int got = sscanf(p, "%d %d %d %15s %15s %ld %ld %ld %ld", &pid, &ppid, &uid, cmd,
                         state, &ticks, &user, &runs, &calls);
        if (got < 4)
            continue;
        for (int i = 0; i < r->nprocs; i++)
            if (r->procs[i].pid == pid) {
                snprintf(r->procs[i].cmd, sizeof r->procs[i].cmd, "%s", cmd);
                if (got == 9) {
                    r->procs[i].ticks = ticks;
                    r->procs[i].user = user;
                    r->procs[i].syscalls = calls;
                }
            }
    }
}

static struct demo_proc *proc_of(struct demo_result *r, const struct spam_event *e)
{
    for (int i = 0; i < r->nprocs; i++)
        if (r->procs[i].pid == e->pid)
            return &r->procs[i];
    if (r->nprocs == DEMO_MAX_PROCS)
        return NULL;
    struct demo_proc *p = &r->procs[r->nprocs++];
    memset(p, 0, sizeof *p);
    p->pid = e->pid;
    p->uid = e->uid;
    p->major = e->major;
    p->minor = e->minor;
    p->inode = e->inode;
    strcpy(p->cmd, "?");
    p->ticks = p->user = p->syscalls = -1;
    return p;
}

static int analyse(const char *path, struct demo_result *r, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct spam_err e;
    struct spam_reader *rd = spam_reader_open_fd(fd, &e);
    if (!rd) {
        snprintf(err, errlen, "%s: %s", path, e.msg);
        close(fd);
        return -1;
    }
    struct spam_decode_opts o = {0};
    struct spam_decoder *d = spam_decoder_new(spam_reader_header(rd), &o);
    if (!d) {
        snprintf(err, errlen, "out of memory");
        spam_reader_close(rd);
        close(fd);
        return -1;
    }
    r->dropped = spam_reader_header(rd)->dropped;
    spam_hist_init(&r->isr_incl);
    spam_hist_init(&r->isr_excl);
    const uint16_t isr = SPAM_EVENT(SPAM_CLASS_INTERRUPT, 0xB0);
    uint64_t first = 0, last = 0;
    int any = 0, rc = 0;
    const struct spam_record *recs;
    size_t n;
    int st;
    if (!(r->cpu = spam_cpu_new())) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    while (rc == 0 && (st = spam_reader_next(rd, &recs, &n)) != SPAM_READ_END) {
        if (st == SPAM_READ_DAMAGE) {
            snprintf(err, errlen, "%s: %s", path, spam_reader_err(rd)->msg);
            rc = -1;
            break;
        }
        for (size_t i = 0; i < n; i++) {
            struct spam_event ev;
            memset(&ev, 0, sizeof ev);
            if (!spam_decode_step(d, recs[i], &ev))
                continue;
            if (!any)
                first = ev.t_us;
            any = 1;
            last = ev.t_us;
            r->by_class[ev.cls & 15]++;
            if (spam_cpu_event(r->cpu, &ev) != 0) {
                snprintf(err, errlen, "out of memory");
                rc = -1;
            }
            if (ev.cls == SPAM_CLASS_REI) {
                if (ev.flags & SPAM_EVF_UNMATCHED) {
                    r->unmatched++;
                } else if (ev.open_ev == isr) {
                    spam_hist_record(&r->isr_incl, ev.incl_us);
                    spam_hist_record(&r->isr_excl, ev.excl_us);
                    uint64_t b = ev.incl_us / 100;
                    r->isr_lin[b < 50 ? b : 50]++;
                }
            } else if (ev.cls == SPAM_CLASS_LDPCTX && !(ev.flags & SPAM_EVF_CUTOFF)) {
                struct demo_proc *p = proc_of(r, &ev);
                if (p)
                    p->switches++;
            }
        }
    }
    struct spam_event ev;
    memset(&ev, 0, sizeof ev);
    if (rc == 0 && spam_decoder_finish(d, &ev)) {
        r->by_class[ev.cls & 15]++;
        spam_cpu_event(r->cpu, &ev);
    }
    if (r->cpu) {
        spam_cpu_finish(r->cpu);
        size_t np;
        const struct spam_cpu_proc *cp = spam_cpu_procs(r->cpu, &np);
        for (size_t k = 0; k < np; k++)
            for (int i = 0; i < r->nprocs; i++)
                if (r->procs[i].pid == cp[k].pid) {
                    r->procs[i].user_us = cp[k].user_us;
                    r->procs[i].sys_us = cp[k].sys_us;
                }
    }
    r->records = spam_reader_records(rd);
    r->trace_us = any ? last - first : 0;
    spam_decoder_free(d);
    spam_reader_close(rd);
    close(fd);
    return rc;
}

int demo_run(const struct demo_opts *o, struct demo_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    size_t len;
    uint8_t *img;
    const char *why;
    if (hostfile_read(o->image, 64u << 20, 0, &img, &len, &why) != 0) {
        snprintf(err, errlen, "%s: %s", o->image, why);
        return -1;
    }
    if (len < 0x20 || memcmp(img + CFG_MAGIC, "VGCF", 4) != 0) {
        snprintf(err, errlen, "%s: not the bundled guest kernel (no VGCF configuration block)",
                 o->image);
        free(img);
        return -1;
    }
    img[CFG_TICKS] = (uint8_t)o->ticks; /* the shutdown tick, little endian */
    img[CFG_TICKS + 1] = (uint8_t)(o->ticks >> 8);
    img[CFG_TICKS + 2] = (uint8_t)(o->ticks >> 16);
    img[CFG_TICKS + 3] = (uint8_t)(o->ticks >> 24);
    int rc = boot(o, img, len, 1, &r->traced, &r->net, &r->console, err, errlen);
    if (rc == 0 && !r->traced.interrupted && r->traced.clock_ticks == 0) {
        snprintf(err, errlen,
                 "%s: the guest never reached its first clock tick (%s after %llu instructions): "
                 "not a working guest kernel",
                 o->image, r->traced.reason, (unsigned long long)r->traced.instructions);
        rc = -1;
    }
    free(img);
    if (rc < 0)
        return -1;
    if (o->progress)
        o->progress(o->progress_ctx, 2, 0, 0);
    if (analyse(o->trace, r, err, errlen) < 0)
        return -1;
    names_from_console(r, r->console);
    return 0;
}

void demo_result_free(struct demo_result *r)
{
    free(r->console);
    r->console = NULL;
    spam_cpu_free(r->cpu);
    r->cpu = NULL;
}
