/* spamctl run's device options (spamctl_io.h, cli/README.md). */
#include "cli/spamctl_io.h"
#include "cli/spamctl_pcap.h"
#include "vax/io/io_system.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TODRZERO (1u << 28)

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
               !strcmp(a, "--pcap");
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
        o->nattach++;
    } else if (!strcmp(a, "--boot")) {
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

static char *slurp_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *p = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
        if (!p) {
            free(buf);
            buf = NULL;
            errno = EFBIG;
            break;
        }
        buf = p;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = n;
    return buf;
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
    if (o->boot && vm_console_boot(m, o->boot, o->boot_flags, err, sizeof err) < 0) {
        fprintf(stderr, "spamctl run: --boot %s\n", err);
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
        if (!sys || io_system_net_start(sys, &nc, o->cap ? spamctl_pcap_frame : NULL, o->cap,
                                        err, sizeof err) < 0) {
            fprintf(stderr, "spamctl run: the network: %s\n", sys ? err : "no I/O system");
            spamctl_io_abort(o);
            return -1;
        }
        o->net_on = 1;
    }
    if (o->script) {
        size_t len;
        char *text = slurp_text(o->script, &len);
        if (!text) {
            fprintf(stderr, "spamctl run: --console-script %s: %s\n", o->script,
                    strerror(errno));
            return -1;
        }
        int rc = vm_console_script(m, text, len, o->script, o->expect_timeout, err, sizeof err);
        free(text);
        if (rc < 0) {
            fprintf(stderr, "spamctl run: --console-script %s\n", err);
            return -1;
        }
    }
    return 0;
}

void spamctl_io_abort(struct spamctl_io *o)
{
    if (o->cap) {
        close(o->cap->fd);
        free(o->cap);
        o->cap = NULL;
    }
}

void spamctl_io_report(const struct spamctl_io *o, struct vax_machine *m, FILE *f)
{
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
    if (!o->script)
        return rc;
    const char *msg;
    unsigned line;
    switch (vm_console_script_state(m, &msg, &line)) {
    case VM_SCRIPT_FAILED:
        fprintf(stderr, "spamctl run: %s\n", msg);
        return 1;
    case VM_SCRIPT_RUNNING:
        fprintf(stderr, "spamctl run: console script %s:%u: the run ended (%s) before the "
                "script did\n", o->script, line, vm_stop_reason(m));
        return 1;
    default:
        return rc;
    }
}
