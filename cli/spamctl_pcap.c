/* The pcap writer (spamctl_pcap.h). */
#include "cli/spamctl_pcap.h"
#include "cli/spamctl_out.h"
#include "vax/io/io_system.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "microcode/le.h"

#define NS_PER_CYCLE 80u
#define SNAPLEN 65535u
#define LINKTYPE_ETHERNET 1u

/* Writes the buffer out; remembers the first failure. */
static void drain(struct spamctl_pcap *p)
{
    uint32_t off = 0;
    while (!p->err && off < p->n) {
        ssize_t w = write(p->fd, p->buf + off, p->n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            p->err = w < 0 ? errno : EIO;
        else
            off += (uint32_t)w;
    }
    p->n = 0;
}

static void put(struct spamctl_pcap *p, const void *b, uint32_t n)
{
    if (p->n + n > sizeof p->buf)
        drain(p);
    memcpy(p->buf + p->n, b, n);
    p->n += n;
}

int spamctl_pcap_open(struct spamctl_pcap *p, const char *path)
{
    memset(p, 0, sizeof *p);
    p->path = path;
    p->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (p->fd < 0) {
        out_error("run", path, errno);
        return -1;
    }
    uint8_t h[24];
    le_put32(h, 0xA1B23C4Du); /* nanosecond timestamps */
    h[4] = 2, h[5] = 0, h[6] = 4, h[7] = 0; /* version 2.4 */
    le_put32(h + 8, 0);
    le_put32(h + 12, 0);
    le_put32(h + 16, SNAPLEN);
    le_put32(h + 20, LINKTYPE_ETHERNET);
    put(p, h, sizeof h);
    return 0;
}

void spamctl_pcap_frame(void *ctx, const uint8_t *frame, uint32_t len, uint64_t when,
                        int from_vax)
{
    struct spamctl_pcap *p = ctx;
    (void)from_vax;
    if (p->err)
        return;
    uint64_t ns = when * NS_PER_CYCLE;
    uint8_t h[16];
    le_put32(h, (uint32_t)(ns / 1000000000u));
    le_put32(h + 4, (uint32_t)(ns % 1000000000u));
    le_put32(h + 8, len);
    le_put32(h + 12, len);
    put(p, h, sizeof h);
    put(p, frame, len);
    p->frames++;
    if (p->err && p->sys) { /* the capture is incomplete: the run stops */
        io_system_request_stop(p->sys, "pcap write error");
        io_events_wake(&p->sys->ev);
    }
}

int spamctl_pcap_close(struct spamctl_pcap *p)
{
    drain(p);
    if (close(p->fd) < 0 && !p->err)
        p->err = errno;
    p->fd = -1;
    if (p->err) {
        out_error("run", p->path, p->err);
        return -1;
    }
    return 0;
}

/* A frame's kind, as io_netsrc names what it sends: 0 arp, 1 echo (ICMP),
 * 2 rip (UDP to port 520), 3 xns, 4 other. */
static int frame_kind(const uint8_t *f, uint32_t n)
{
    if (n < 14)
        return IO_NET_OTHER;
    unsigned et = (unsigned)f[12] << 8 | f[13];
    if (et == 0x0806)
        return IO_NET_ARP;
    if (et == 0x0600)
        return IO_NET_XNS;
    if (et == 0x0800 && n >= 34) {
        unsigned ihl = (f[14] & 15u) * 4u;
        if (f[23] == 1)
            return IO_NET_ECHO;
        if (f[23] == 17 && n >= 14 + ihl + 4 && ((unsigned)f[14 + ihl + 2] << 8 | f[14 + ihl + 3]) == 520)
            return IO_NET_RIP;
    }
    return IO_NET_OTHER;
}

static uint32_t get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int spamctl_pcap_count(const char *path, uint64_t t0_us, uint64_t t1_us, uint64_t to_vax[5],
                       uint64_t *from_vax, char *err, size_t errlen)
{
    static const uint8_t vax[6] = {0x08, 0x00, 0x2b, 0x47, 0x54, 0x49}; /* the DEUNA's */
    static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    memset(to_vax, 0, IO_NET_KINDS * sizeof *to_vax);
    *from_vax = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    uint8_t h[24], *fr = malloc(1 << 16);
    int rc = 0;
    if (!fr || fread(h, 1, 24, f) != 24 || get_le32(h) != 0xA1B23C4Du) {
        snprintf(err, errlen, "%s: %s", path, fr ? "not a nanosecond pcap capture" : "out of memory");
        rc = -1;
    }
    while (rc == 0) {
        uint8_t r[16];
        size_t got = fread(r, 1, 16, f);
        if (got == 0)
            break;
        uint32_t caplen = get_le32(r + 8);
        if (got != 16 || caplen > (1u << 16) || fread(fr, 1, caplen, f) != caplen) {
            snprintf(err, errlen, "%s: a frame runs past the end", path);
            rc = -1;
            break;
        }
        uint64_t t_ns = (uint64_t)get_le32(r) * 1000000000u + get_le32(r + 4);
        if (t_ns < t0_us * 1000 || t_ns >= t1_us * 1000 || caplen < 14)
            continue;
        if (!memcmp(fr + 6, vax, 6))
            ++*from_vax;
        else if (!memcmp(fr, vax, 6) || !memcmp(fr, bcast, 6))
            to_vax[frame_kind(fr, caplen)]++;
    }
    free(fr);
    fclose(f);
    return rc;
}
