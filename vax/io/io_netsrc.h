/* The network outside the VAX: an Ethernet (io_ether.h) with a few hosts
 * on it, deterministic, in emulated time, seeded.  It sends the VAX's
 * station (the DEUNA) frames by a Poisson process at a given rate, in a
 * given mix:
 *
 *   arp    ARP requests from a host for the VAX's IP address (the kernel
 *          answers with an ARP reply)
 *   echo   ICMP echo requests from a host to the VAX (ping's: 56 data
 *          bytes; the kernel answers with an echo reply)
 *   rip    RIP responses (UDP port 520 to port 520, broadcast) from the
 *          router, four routes: what routed processes
 *   xns    XNS routing information responses (IDP packet type 1, socket
 *          1 to socket 1, broadcast) from the router, three networks:
 *          what XNSrouted processes
 *   other  traffic between other hosts: half ARP requests from one for
 *          another's address (broadcast: the VAX's ARP code drops them),
 *          half UDP datagrams from one to another (60-1514 bytes; the
 *          DEUNA's address filter drops them)
 *
 * and it consumes what the VAX sends, counting it by kind (4.3BSD
 * answers an ARP request twice, the second reply offering trailers, and
 * offers trailers to a host whose reply it gets: all ARP replies); its
 * hosts answer the VAX's ARP requests for their addresses (for IP; they
 * do not use trailers) and its echo requests to them, 200 us after the
 * request's last bit.  The wire is shared: a
 * frame waits until the wire is free (no collisions), so the two
 * directions defer to each other, and the arrivals queue behind busy
 * wire time (64 frames at most: beyond that an arrival is lost, counted
 * as an overrun).  Every frame on the wire, both directions, goes to a
 * tap (a pcap writer) with the microcycle its first bit went out.
 *
 * The addresses (the VAX's own are the guest's choice: `ifconfig de0
 * 192.168.1.2` and XNS network 42 are what this network expects):
 *
 *   the IP subnet        192.168.1.0/24 (class C: 4.3BSD's default
 *                        netmask fits), broadcast 192.168.1.255
 *   the VAX              192.168.1.2, its DEUNA's station address (learnt
 *                        from the frames it sends, 08:00:2b:47:54:49 at
 *                        first), XNS network 42 (0x2A), XNS host = its
 *                        station address
 *   the router           192.168.1.1, 02:00:00:00:01:01: RIP routes to
 *                        10.0.0.0 (metric 2), 172.16.0.0 (3), 192.168.2.0
 *                        (1), 192.168.3.0 (2); XNS routes to networks 43
 *                        (1 hop), 44 (2), 45 (3)
 *   the hosts            192.168.1.10-13, 02:00:00:00:01:0a-0d: ARP and
 *                        echo requests
 *   the other hosts      192.168.1.20-23, 02:00:00:00:01:14-17: traffic
 *                        among themselves
 *
 * Arrival times come from one splitmix64 stream, the kinds from a second,
 * the contents from a third, all from the seed, with exponential
 * interarrival times computed by + - * / only (no libm), so the same seed
 * and options give the same frames at the same microcycles on every
 * host.  Nothing here prints or exits. */
#ifndef VAX_IO_IO_NETSRC_H
#define VAX_IO_IO_NETSRC_H

#include <stddef.h>

#include "vax/io/io_ether.h"
#include "vax/io/io_events.h"

enum io_net_kind { IO_NET_ARP, IO_NET_ECHO, IO_NET_RIP, IO_NET_XNS, IO_NET_OTHER, IO_NET_KINDS };

#define IO_NETSRC_QUEUE 64
#define IO_NETSRC_HOSTS 4
#define IO_NETSRC_ANSWER_CYCLES IO_US(200)
#define IO_NETSRC_XNS_NET 42u

extern const char *const io_net_kind_names[IO_NET_KINDS];   /* "arp", "echo", ... */
extern const unsigned io_netsrc_default_mix[IO_NET_KINDS];   /* 10 30 15 15 30 */
extern const uint8_t io_netsrc_vax_ip[4];                    /* 192.168.1.2 */

struct io_netsrc_config {
    double rate;                  /* frames per second of emulated time (0: none; the
                                   * hosts still answer) */
    uint64_t seed;
    unsigned mix[IO_NET_KINDS];   /* relative weights; all zero: the default mix */
    uint8_t vax_mac[IO_ETHER_ADDR];
};

/* Every frame on the wire: from_vax 1 for the VAX's.  `when`: the
 * microcycle its first bit went out. */
typedef void (*io_netsrc_tap_fn)(void *ctx, const uint8_t *frame, uint32_t len, uint64_t when,
                                 int from_vax);

struct io_netsrc_stats {
    uint64_t sent[IO_NET_KINDS];  /* frames the source put on the wire, by kind */
    uint64_t answers;             /* the hosts' answers to the VAX */
    uint64_t bytes_out;           /* bytes of all those frames */
    uint64_t overrun;             /* arrivals lost: 64 frames were waiting for the wire */
    uint64_t deferred;            /* frames (either side) that waited for the wire */
    /* what the VAX's station did with them (io_ether.h) */
    uint64_t delivered, filtered, stopped, nobuf, errors;
    /* what the VAX sent */
    uint64_t from_vax, bytes_in;
    uint64_t vax_arp_requests, vax_arp_replies, vax_echo_replies, vax_echo_matched;
    uint64_t vax_echo_requests, vax_rip, vax_xns, vax_other;
};

struct io_netsrc_frame {
    uint64_t ready;
    uint32_t len;
    int kind;                     /* enum io_net_kind, or -1 for an answer */
    uint8_t data[IO_ETHER_MAX];
};

struct io_netsrc {
    struct io_events *ev;
    struct io_timer timer;
    struct io_ether_station station;
    io_netsrc_tap_fn tap;
    void *tap_ctx;
    double mean;                  /* mean interarrival, microcycles (0: no arrivals) */
    uint64_t next_arrival;
    uint64_t rng_time, rng_kind, rng_data;
    unsigned mix[IO_NET_KINDS], mix_total;
    uint8_t vax_mac[IO_ETHER_ADDR];
    uint64_t wire_free;           /* the wire is free from this microcycle */
    int inflight;                 /* slot of the frame on the wire toward the VAX, or -1 */
    uint64_t inflight_end;
    uint16_t ip_id, echo_seq[IO_NETSRC_HOSTS];
    /* the frames waiting, by ready time (ties: arrival order) */
    uint8_t order[IO_NETSRC_QUEUE];
    unsigned nq;
    uint8_t used[IO_NETSRC_QUEUE + 1];
    struct io_netsrc_frame slot[IO_NETSRC_QUEUE + 1];   /* + the one on the wire */
    struct io_netsrc_stats st;
};

/* 0, or -1 with a message (a bad rate or mix).  The station is told of
 * each frame when its last bit arrives. */
int io_netsrc_init(struct io_netsrc *n, struct io_events *ev, const struct io_netsrc_config *c,
                   const struct io_ether_station *station, char *err, size_t errlen);
void io_netsrc_free(struct io_netsrc *n);
void io_netsrc_set_tap(struct io_netsrc *n, io_netsrc_tap_fn fn, void *ctx);
/* The wire for the station's transmitter (io_deuna_set_wire). */
struct io_ether_wire io_netsrc_wire(struct io_netsrc *n);
/* Parses "arp=10,echo=30,..." (kinds not named weigh 0): 0, or -1 with a
 * message. */
int io_netsrc_parse_mix(const char *s, unsigned mix[IO_NET_KINDS], char *err, size_t errlen);

#endif
