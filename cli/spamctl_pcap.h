/* spamctl run --pcap FILE: every frame on the DEUNA's Ethernet, both
 * directions, in the classic pcap format (tcpdump, Wireshark): the
 * nanosecond variant (magic a1b23c4d, little-endian), link type 1
 * (Ethernet, no FCS), each frame stamped with the emulated time its first
 * bit went on the wire (microcycles x 80 ns since power-on, so the first
 * frames show as 1970-01-01 00:00:00.x).  Written straight to the file
 * while the machine runs, as a trace is (a killed run leaves a readable
 * prefix); every write is checked: the first failure stops the machine
 * ("pcap write error") and is reported at the end with the path and the
 * cause. */
#ifndef SPAMCTL_PCAP_H
#define SPAMCTL_PCAP_H

#include <stddef.h>
#include <stdint.h>

struct io_system;

struct spamctl_pcap {
    const char *path;
    int fd;
    int err;                  /* the first write's errno, 0 */
    uint64_t frames;
    struct io_system *sys;    /* to stop the machine on an error */
    uint32_t n;
    uint8_t buf[1 << 16];
};

/* Creates the file and writes the header: 0, or -1 after the message
 * "spamctl run: PATH: cause". */
int spamctl_pcap_open(struct spamctl_pcap *p, const char *path);
/* The tap (io_netsrc_tap_fn). */
void spamctl_pcap_frame(void *ctx, const uint8_t *frame, uint32_t len, uint64_t when,
                        int from_vax);
/* Flushes and closes: 0, or -1 after the message (also for an earlier
 * write's failure). */
int spamctl_pcap_close(struct spamctl_pcap *p);

/* Reading a capture back (the demo's network cost per frame): the frames
 * whose stamps lie in [t0_us, t1_us) microseconds, those to the VAX (its
 * address or broadcast, not from it) by kind -- arp, echo, rip, xns,
 * other, as io_netsrc.h names the traffic -- and those it sent.  0, or -1
 * with a message in err. */
int spamctl_pcap_count(const char *path, uint64_t t0_us, uint64_t t1_us, uint64_t to_vax[5],
                       uint64_t *from_vax, char *err, size_t errlen);

#endif
