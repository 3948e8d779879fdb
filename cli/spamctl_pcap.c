/* The pcap writer (spamctl_pcap.h). */
#include "cli/spamctl_pcap.h"
#include "cli/spamctl_out.h"
#include "vax/io/io_system.h"

#include <errno.h>
#include <fcntl.h>
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
