/* spamctl run's device options (spamctl_io.h, cli/README.md). */
#include "cli/spamctl_io.h"
#include "cli/spamctl_pcap.h"
#include "vax/io/io_system.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TODRZERO (1u << 28)
#define SCRIPT_MAX (64u << 20) /* a script larger than this is not one */

void spamctl_io_init(struct spamctl_io *o)
{
    memset(o, 0, sizeof *o);
    o->expect_timeout = 120.0;
    o->todr = TODR_RESET;
}

void spamctl_io_usage(FILE *f)
{
    fprintf(f,
"Devices and the console boot (cli/README.md):\n"
"  --attach DEV=FILE    attach a medium: rp0-rp3 (RP06 on MBA 0: a raw image of\n"
"                       512-byte sectors, at most 174,423,040 bytes), tu0-tu1\n"
"                       (TU77 on MBA 1: a SIMH .tap image); DEV:ro=FILE attaches\n"
"                       it write-locked (repeatable)\n"
"  --boot DEV[:PROGRAM] the 8600 console's boot: load `boot` or PROGRAM (tu0: from\n"
"                       the tape's first file, a tp archive; rp0-rp3: /boot of\n"
"                       partition a, raw or a.out) at physical 0, R10 = boot\n"
"                       device, R11 = --boot-flags, start after the entry mask\n"
"                       (PC 2), mapping off, IPL 31 (replaces an image)\n"
"  --boot-flags N       R11 for --boot (RB_ASKNAME 1, RB_SINGLE 2; default 0)\n"
"  --console-script FILE  type and expect on the console terminal: lines\n"
"                       'expect TEXT', 'send TEXT', 'sleep SECONDS', 'halt'\n"
"                       (stop the machine there), '# ...'\n"
"                       (escapes \\r \\n \\t \\\\ \\xHH; bit 7 of the output\n"
"                       stripped; 20 ms of emulated time per typed character)\n"
"                       'think SECONDS' (an exponential wait of that mean,\n"
"                       seeded by --seed), 'loop' and 'repeat [N]' (go back\n"
"                       to the step after loop, for ever or N rounds in all;\n"
"                       one loop and one repeat a script)\n"
"  --dz-script N=FILE   a scripted user on dz0's line N (0-7, 4.3BSD's tty0N),\n"
"                       in the same language; one per line (repeatable); a\n"
"                       user still looping when the run ends is no error\n"
"  --dz-log N=FILE      what dz0's line N prints (bit 7 stripped) into FILE\n"
"  --dz-report FILE     after the run, each scripted user in JSON: its state,\n"
"                       rounds, characters typed, think time, and the\n"
"                       microcycle it first passed 'loop' and each round\n"
"                       reached 'repeat' (exact round times)\n"
"  --dz-br N            dz0's bus request level, 4-7 (default 5, as SIMH's; on\n"
"                       4 its interrupts take another nexus vector than de0's,\n"
"                       0x10C instead of 0x14C, so a trace tells them apart)\n"
"  --expect-timeout S   emulated seconds an expect may wait (default 120); a\n"
"                       failed expect stops the run: exit status 1\n"
"  --todr fixed|host|N  the TODR at power-on: fixed = 12:00 on June 7 (the\n"
"                       default with --boot), host = the host's time of year,\n"
"                       N = that value; without --boot and --todr, 0\n"
"\n"
"The Ethernet outside the VAX (vax/io/io_netsrc.h; the DEUNA is de0 at 0774510):\n"
"  --net-rate R         also the frames per second of emulated time, Poisson,\n"
"                       that hosts send the DEUNA (ARP and echo requests to\n"
"                       192.168.1.2, RIP and XNS routing broadcasts, other\n"
"                       hosts' traffic); they answer the VAX's ARP and echo\n"
"                       requests and count what it sends\n"
"  --net-seed N         the frames' seed (default: --seed's value)\n"
"  --net-mix K=W,...    weights of the kinds arp, echo, rip, xns, other\n"
"                       (default arp=10,echo=30,rip=15,xns=15,other=30)\n"
"  --pcap FILE          every frame on the wire, both ways, with its emulated\n"
"                       time, in pcap format (tcpdump -r FILE)\n"
"                       Any of these connects the network (rate 0: quiet).\n");
}

static int bad(const char *a, const char *v, const char *why)
{
    fprintf(stderr, "spamctl run: bad value for %s: '%s'%s%s\n", a, v, why ? ": " : "",
            why ? why : "");
    return -1;
}

int spamctl_io_option(struct spamctl_io *o, const char *a, const char *v)
{
    int ours = !strcmp(a, "--attach") || !strcmp(a, "--boot") || !strcmp(a, "--boot-flags") ||
               !strcmp(a, "--console-script") || !strcmp(a, "--expect-timeout") ||
               !strcmp(a, "--todr") || !strcmp(a, "--net-seed") || !strcmp(a, "--net-mix") ||
               !strcmp(a, "--pcap") || !strcmp(a, "--dz-script") || !strcmp(a, "--dz-log") ||
               !strcmp(a, "--dz-br") || !strcmp(a, "--dz-report");
    if (!ours)
        return 0;
    if (!v) {
        fprintf(stderr, "spamctl run: %s needs a value\n", a);
        return -1;
    }
    if (!strcmp(a, "--attach")) {
        const char *eq = strchr(v, '=');
        if (!eq || eq == v || !eq[1])
            return bad(a, v, "give DEV=FILE or DEV:ro=FILE");
        if (o->nattach == SPAMCTL_IO_ATTACH_MAX)
            return bad(a, v, "too many --attach options");
        size_t dl = (size_t)(eq - v);
        int ro = 0;
        if (dl > 3 && !memcmp(eq - 3, ":ro", 3)) {
            ro = 1;
            dl -= 3;
        }
        if (dl >= sizeof o->attach[0].name)
            return bad(a, v, "no such device (rp0-rp3, tu0, tu1)");
        for (int i = 0; i < o->nattach; i++)
            if (strlen(o->attach[i].name) == dl && !memcmp(o->attach[i].name, v, dl))
                return bad(a, v, "that device is attached twice");
        memcpy(o->attach[o->nattach].name, v, dl);
        o->attach[o->nattach].name[dl] = 0;
        o->attach[o->nattach].dev = o->attach[o->nattach].name;
        o->attach[o->nattach].path = eq + 1;
        o->attach[o->nattach].readonly = ro;
        snprintf(o->attach[o->nattach].opt, sizeof o->attach[o->nattach].opt, "--attach %.*s%s",
                 (int)dl, v, ro ? ":ro" : "");
        o->nattach++;
    } else if (!strcmp(a, "--boot")) {
        static const char *const units[] = {"tu0", "tu1", "rp0", "rp1", "rp2", "rp3"};
        size_t dl = strcspn(v, ":");
        int known = 0;
        for (size_t k = 0; k < sizeof units / sizeof units[0]; k++)
            known |= dl == 3 && !memcmp(v, units[k], 3);
        if (!known)
            return bad(a, v, "no such unit (boot devices: tu0, tu1, rp0-rp3)");
        o->boot = v;
    } else if (!strcmp(a, "--boot-flags")) {
        char *end;
        errno = 0;
        unsigned long x = strtoul(v, &end, 0);
        if (!*v || *v == '-' || *end || errno || x > 0xFFFFFFFFul)
            return bad(a, v, NULL);
        o->boot_flags = (uint32_t)x;
    } else if (!strcmp(a, "--console-script")) {
        o->script = v;
    } else if (!strcmp(a, "--dz-report")) {
        if (!*v)
            return bad(a, v, "give a file");
        o->dz_report = v;
    } else if (!strcmp(a, "--dz-br")) {
        if (v[0] < '4' || v[0] > '7' || v[1])
            return bad(a, v, "a bus request level, 4-7");
        o->dz_br = (unsigned)(v[0] - '0');
    } else if (!strcmp(a, "--dz-script") || !strcmp(a, "--dz-log")) {
        if (v[0] < '0' || v[0] >= '0' + IO_DZ_LINES || v[1] != '=' || !v[2])
            return bad(a, v, "give N=FILE, N a line of dz0 (0-7)");
        unsigned l = (unsigned)(v[0] - '0');
        const char **slot = a[5] == 's' ? &o->dz[l].script : &o->dz[l].log;
        if (*slot)
            return bad(a, v, "that line has one already");
        *slot = v + 2;
        snprintf(a[5] == 's' ? o->dz[l].script_opt : o->dz[l].log_opt, sizeof o->dz[l].log_opt,
                 "%s %u", a, l);
    } else if (!strcmp(a, "--net-seed")) {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(v, &end, 0);
        if (!*v || *v == '-' || *end || errno)
            return bad(a, v, NULL);
        o->net_seed = x;
        o->net_seed_set = 1;
    } else if (!strcmp(a, "--net-mix")) {
        char err[200];
        if (io_netsrc_parse_mix(v, o->net_mix, err, sizeof err) < 0)
            return bad(a, v, err);
        o->net_mix_set = 1;
    } else if (!strcmp(a, "--pcap")) {
        if (!*v)
            return bad(a, v, "give a file");
        o->pcap = v;
    } else if (!strcmp(a, "--expect-timeout")) {
        char *end;
        double s = strtod(v, &end);
        if (!*v || *end || !(s > 0) || s > 1e6)
            return bad(a, v, "seconds, more than 0");
        o->expect_timeout = s;
    } else {
        if (!strcmp(v, "fixed")) {
            o->todr = TODR_FIXED;
        } else if (!strcmp(v, "host")) {
            o->todr = TODR_HOST;
        } else {
            char *end;
            errno = 0;
            unsigned long x = strtoul(v, &end, 0);
            if (!*v || *v == '-' || *end || errno || x > 0xFFFFFFFFul)
                return bad(a, v, "fixed, host or a number");
            o->todr = TODR_VALUE;
            o->todr_value = (uint32_t)x;
        }
    }
    return 2;
}

static uint32_t host_todr(void)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    uint32_t sec = (uint32_t)tm.tm_yday * 86400u + (uint32_t)tm.tm_hour * 3600u +
                   (uint32_t)tm.tm_min * 60u + (uint32_t)tm.tm_sec;
    return TODRZERO + sec * 100u;
}

/* A script: all of it, at most SCRIPT_MAX bytes.  0, or -1 with the
 * message printed. */
static int read_script(const char *opt, const char *path, char **text, size_t *len)
{
    const char *why;
    uint8_t *t;
    if (hostfile_read(path, SCRIPT_MAX, 0, &t, len, &why) != 0) {
        fprintf(stderr, "spamctl run: %s%s: %s\n", opt, path, why);
        return -1;
    }
    *text = (char *)t;
    return 0;
}

int spamctl_io_setup(struct spamctl_io *o, struct vax_machine *m)
{
    char err[400];
    for (int i = 0; i < o->nattach; i++)
        if (vm_attach(m, o->attach[i].dev, o->attach[i].path, o->attach[i].readonly, err,
                      sizeof err) < 0) {
            fprintf(stderr, "spamctl run: --attach %s: %s\n", o->attach[i].dev, err);
            return -1;
        }
    enum spamctl_todr todr = o->todr == TODR_RESET && o->boot ? TODR_FIXED : o->todr;
    if (todr != TODR_RESET)
        vm_set_ipr(m, 0x1B, todr == TODR_FIXED ? SPAMCTL_TODR_FIXED
                            : todr == TODR_HOST ? host_todr() : o->todr_value);
    if (o->boot) { /* a unit (checked at the option) with nothing on it */
        int on = 0;
        for (int i = 0; i < o->nattach; i++)
            on |= !strncmp(o->boot, o->attach[i].name, 3);
        if (!on) {
            fprintf(stderr, "spamctl run: --boot %s: nothing is attached to %.3s (--attach "
                    "%.3s=FILE)\n", o->boot, o->boot, o->boot);
            return -1;
        }
    }
    if (o->boot && vm_console_boot(m, o->boot, o->boot_flags, err, sizeof err) < 0) {
        /* the machine's messages name the unit: "boot rp0: ..." */
        if (!strncmp(err, "boot ", 5))
            fprintf(stderr, "spamctl run: --%s\n", err);
        else
            fprintf(stderr, "spamctl run: --boot %s: %s\n", o->boot, err);
        return -1;
    }
    if (o->net_rate > 0 || o->net_seed_set || o->net_mix_set || o->pcap) {
        struct io_system *sys = vm_io_system(m);
        struct io_netsrc_config nc = {.rate = o->net_rate, .seed = o->net_seed};
        memcpy(nc.mix, o->net_mix, sizeof nc.mix);
        if (o->pcap) {
            o->cap = malloc(sizeof *o->cap);
            if (!o->cap) {
                fprintf(stderr, "spamctl run: out of memory\n");
                return -1;
            }
            if (spamctl_pcap_open(o->cap, o->pcap) < 0) {
                free(o->cap);
                o->cap = NULL;
                return -1;
            }
            o->cap->sys = sys;
        }
        if (!sys || vm_ether_start(m, &nc, o->cap ? spamctl_pcap_frame : NULL, o->cap, err,
                                   sizeof err) < 0) {
            fprintf(stderr, "spamctl run: the network: %s\n", sys ? err : "no I/O system");
            spamctl_io_abort(o);
            return -1;
        }
        o->net_on = 1;
    }
    if (o->script) {
        size_t len;
        char *text;
        if (read_script("--console-script ", o->script, &text, &len) != 0)
            return -1;
        int rc = vm_console_script(m, text, len, o->script, o->expect_timeout, err, sizeof err);
        free(text);
        if (rc < 0) {
            fprintf(stderr, "spamctl run: --console-script %s\n", err);
            return -1;
        }
    }
    for (unsigned l = 0; l < IO_DZ_LINES; l++) {
        if (o->dz[l].script) {
            size_t len;
            char *text;
            char opt[24];
            snprintf(opt, sizeof opt, "--dz-script %u=", l);
            if (read_script(opt, o->dz[l].script, &text, &len) != 0) {
                spamctl_io_abort(o);
                return -1;
            }
            /* each user its own stream of think times */
            uint64_t seed = o->seed ^ (0x9E3779B97F4A7C15ull * (l + 1));
            int rc = vm_dz_script(m, l, text, len, o->dz[l].script, o->expect_timeout, seed,
                                  err, sizeof err);
            free(text);
            if (rc < 0) {
                fprintf(stderr, "spamctl run: --dz-script %u=%s\n", l, err);
                spamctl_io_abort(o);
                return -1;
            }
        }
        if (o->dz[l].log) {
            int fd = open(o->dz[l].log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
            FILE *f = fd < 0 ? NULL : sink_open(&o->dz[l].sink, fd);
            if (!f) {
                fprintf(stderr, "spamctl run: --dz-log %u=%s: %s\n", l, o->dz[l].log,
                        strerror(errno));
                if (fd >= 0)
                    close(fd);
                spamctl_io_abort(o);
                return -1;
            }
            o->dz[l].fd = fd;
            o->dz[l].open = 1;
            vm_dz_log(m, l, f);
        }
    }
    return 0;
}

/* Closes the DZ lines' logs: 0, or -1 after a message for each that
 * could not be written. */
static int close_logs(struct spamctl_io *o, const struct vax_machine *m)
{
    int rc = 0;
    for (unsigned l = 0; l < IO_DZ_LINES; l++) {
        if (!o->dz[l].open)
            continue;
        struct vm_user_info ui;
        vm_dz_script_state(m, l, &ui);
        int e = sink_close(&o->dz[l].sink);
        errno = 0;
        if (close(o->dz[l].fd) != 0 && !e)
            e = errno ? errno : EIO;
        if (!e && ui.log_failed)
            e = EIO;
        o->dz[l].open = 0;
        if (e) {
            out_error("run", o->dz[l].log, e);
            rc = -1;
        }
    }
    return rc;
}

/* --dz-report: 0, or -1 after a message. */
static int write_report(const struct spamctl_io *o, const struct vax_machine *m)
{
    struct out_file out;
    if (out_open_stream(&out, "run", o->dz_report) != 0)
        return -1;
    FILE *f = out.f;
    fprintf(f, "{\"cycles_per_second\": %llu, \"users\": [",
            (unsigned long long)IO_CYCLES_PER_SEC);
    int first = 1;
    for (unsigned l = 0; l < IO_DZ_LINES; l++) {
        struct vm_user_info ui;
        if (!o->dz[l].script || vm_dz_script_state(m, l, &ui) == VM_SCRIPT_NONE)
            continue;
        fprintf(f, "%s\n {\"line\": %u, \"script\": \"", first ? "" : ",", l);
        for (const char *p = o->dz[l].script; *p; p++) {
            if (*p == '"' || *p == '\\')
                fputc('\\', f);
            if ((unsigned char)*p < 32)
                fprintf(f, "\\u%04x", (unsigned char)*p);
            else
                fputc(*p, f);
        }
        fprintf(f, "\", \"state\": \"%s\", \"at_line\": %u, \"rounds\": %" PRIu64
                   ", \"typed\": %" PRIu64 ", \"expects_met\": %" PRIu64
                   ", \"think_cycles\": %" PRIu64 ", \"loop_at\": %" PRIu64 ", \"round_end\": [",
                ui.state == VM_SCRIPT_DONE ? "done" : ui.state == VM_SCRIPT_FAILED ? "failed"
                                                                                   : "running",
                ui.line, ui.rounds, ui.typed, ui.matched, ui.think_cycles, ui.loop_at);
        for (size_t k = 0; k < ui.nround_end; k++)
            fprintf(f, "%s%" PRIu64, k ? ", " : "", ui.round_end[k]);
        fprintf(f, "]}");
        first = 0;
    }
    fprintf(f, "\n]}\n");
    return out_close(&out) != 0 ? -1 : 0;
}

void spamctl_io_files(const struct spamctl_io *o, struct hostfile_set *s)
{
    for (int i = 0; i < o->nattach; i++)
        hostfile_set_add(s, o->attach[i].readonly ? HOSTFILE_MEDIUM_RO : HOSTFILE_MEDIUM_RW,
                         o->attach[i].opt, o->attach[i].path);
    hostfile_set_add(s, HOSTFILE_IN, "--console-script", o->script);
    for (unsigned l = 0; l < IO_DZ_LINES; l++) {
        hostfile_set_add(s, HOSTFILE_IN, o->dz[l].script_opt, o->dz[l].script);
        hostfile_set_add(s, HOSTFILE_OUT, o->dz[l].log_opt, o->dz[l].log);
    }
    hostfile_set_add(s, HOSTFILE_OUT, "--dz-report", o->dz_report);
    hostfile_set_add(s, HOSTFILE_OUT, "--pcap", o->pcap);
}

int spamctl_io_media_check(struct spamctl_io *o, struct vax_machine *m)
{
    struct io_system *sys = vm_io_system(m);
    if (!sys)
        return 0;
    io_system_media_sync(sys); /* what the guest wrote, onto the host's disk */
    const char *unit, *path;
    int e = io_system_media_error(sys, &unit, &path);
    if (!e)
        return 0;
    fprintf(stderr, "spamctl run: %s: %s (%s's image could not be written; the run was stopped)\n",
            path, strerror(e), unit);
    o->media_failed = 1;
    return 1;
}

void spamctl_io_abort(struct spamctl_io *o)
{
    if (o->cap) {
        close(o->cap->fd);
        free(o->cap);
        o->cap = NULL;
    }
    for (unsigned l = 0; l < IO_DZ_LINES; l++)
        if (o->dz[l].open) {
            sink_close(&o->dz[l].sink);
            close(o->dz[l].fd);
            o->dz[l].open = 0;
        }
}

void spamctl_io_report(const struct spamctl_io *o, struct vax_machine *m, FILE *f)
{
    for (unsigned l = 0; l < IO_DZ_LINES; l++) {
        struct vm_user_info ui;
        if (!o->dz[l].script || vm_dz_script_state(m, l, &ui) == VM_SCRIPT_NONE)
            continue;
        fprintf(f, "dz0 line %u user (%s): %s at line %u, %" PRIu64 " rounds, %" PRIu64
                   " characters typed, %" PRIu64 " expects met, %.3f s thinking\n",
                l, o->dz[l].script,
                ui.state == VM_SCRIPT_DONE ? "done" : ui.state == VM_SCRIPT_FAILED ? "failed"
                                                                                   : "running",
                ui.line, ui.rounds, ui.typed, ui.matched,
                (double)ui.think_cycles / (double)IO_CYCLES_PER_SEC);
    }
    struct io_system *sys = vm_io_system(m);
    if (!o->net_on || !sys || !sys->net)
        return;
    const struct io_netsrc_stats *s = &sys->net->st;
    uint64_t sent = s->answers;
    for (int k = 0; k < IO_NET_KINDS; k++)
        sent += s->sent[k];
    fprintf(f, "ethernet to the VAX: %" PRIu64 " frames (arp %" PRIu64 ", echo %" PRIu64
               ", rip %" PRIu64 ", xns %" PRIu64 ", other %" PRIu64 ", answers %" PRIu64
               "): %" PRIu64 " received by de0, %" PRIu64 " filtered, %" PRIu64
               " while not receiving, %" PRIu64 " lost for buffers, %" PRIu64 " errors; %"
               PRIu64 " arrivals lost (wire saturated)\n",
            sent, s->sent[IO_NET_ARP], s->sent[IO_NET_ECHO], s->sent[IO_NET_RIP],
            s->sent[IO_NET_XNS], s->sent[IO_NET_OTHER], s->answers, s->delivered, s->filtered,
            s->stopped, s->nobuf, s->errors, s->overrun);
    fprintf(f, "ethernet from the VAX: %" PRIu64 " frames (arp requests %" PRIu64
               ", arp replies %" PRIu64 ", echo replies %" PRIu64 " (%" PRIu64
               " matching), echo requests %" PRIu64 ", rip %" PRIu64 ", xns %" PRIu64
               ", other %" PRIu64 "); %" PRIu64 " frames waited for the wire",
            s->from_vax, s->vax_arp_requests, s->vax_arp_replies, s->vax_echo_replies,
            s->vax_echo_matched, s->vax_echo_requests, s->vax_rip, s->vax_xns, s->vax_other,
            s->deferred);
    if (o->pcap)
        fprintf(f, "; %" PRIu64 " frames in %s", o->cap_frames, o->pcap);
    fputc('\n', f);
}

int spamctl_io_finish(struct spamctl_io *o, const struct vax_machine *m)
{
    int rc = 0;
    if (o->cap) {
        o->cap_frames = o->cap->frames;
        if (spamctl_pcap_close(o->cap) < 0)
            rc = 1;
        free(o->cap);
        o->cap = NULL;
    }
    if (close_logs(o, m) < 0)
        rc = 1;
    if (o->dz_report && write_report(o, m) < 0)
        rc = 1;
    for (unsigned l = 0; l < IO_DZ_LINES; l++) {
        struct vm_user_info ui;
        if (o->dz[l].script && vm_dz_script_state(m, l, &ui) == VM_SCRIPT_FAILED) {
            fprintf(stderr, "spamctl run: %s\n", ui.msg);
            rc = 1;
        }
    }
    if (!o->script)
        return rc;
    const char *msg;
    unsigned line;
    switch (vm_console_script_state(m, &msg, &line)) {
    case VM_SCRIPT_FAILED:
        fprintf(stderr, "spamctl run: %s\n", msg);
        return 1;
    case VM_SCRIPT_RUNNING:
        if (o->media_failed) /* that stopped it, and was said */
            return 1;
        fprintf(stderr, "spamctl run: console script %s:%u: the run ended (%s) before the "
                "script did\n", o->script, line, vm_stop_reason(m));
        return 1;
    default:
        return rc;
    }
}
