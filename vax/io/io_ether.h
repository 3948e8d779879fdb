/* A 10 Mb/s Ethernet between a station (the DEUNA, io_deuna.h) and the
 * network outside the VAX (io_netsrc.h), in emulated time: the two sides
 * see each other only through these two interfaces, and the wire's
 * timing is computed here once.
 *
 * A frame is its bytes from the destination address to the end of the
 * data, without the frame check sequence (as pcap's LINKTYPE_ETHERNET
 * records it); shorter than 60 bytes it is padded on the wire.  On the
 * wire it takes its preamble (8 bytes), its bytes (at least 60) and its
 * FCS (4 bytes) at 0.1 us a bit (1.25 microcycles), then an interframe
 * gap of 96 bit times before the next frame may start. */
#ifndef VAX_IO_IO_ETHER_H
#define VAX_IO_IO_ETHER_H

#include <stdint.h>

#define IO_ETHER_ADDR 6
#define IO_ETHER_HDR 14
#define IO_ETHER_MIN 60      /* without the FCS */
#define IO_ETHER_MAX 1514
#define IO_ETHER_FCS 4
#define IO_ETHER_GAP_CYCLES 120u   /* 96 bit times */

/* Microcycles from a frame's first preamble bit to its last FCS bit. */
static inline uint64_t io_ether_frame_cycles(uint32_t len)
{
    if (len < IO_ETHER_MIN)
        len = IO_ETHER_MIN;
    uint64_t bits = ((uint64_t)len + 8 + IO_ETHER_FCS) * 8;
    return (bits * 5 + 3) / 4;
}

/* What a station did with a frame the wire brought it. */
enum io_ether_rx {
    IO_ETHER_RX_OK = 0,      /* into the host's buffers */
    IO_ETHER_RX_FILTERED,    /* not addressed to the station */
    IO_ETHER_RX_STOPPED,     /* the station was not receiving */
    IO_ETHER_RX_NOBUF,       /* no host buffer: lost, counted */
    IO_ETHER_RX_ERROR,       /* a DMA error: lost, counted */
};

/* The station as the wire sees it: a frame whose last bit just arrived. */
struct io_ether_station {
    void *ctx;
    enum io_ether_rx (*receive)(void *ctx, const uint8_t *frame, uint32_t len);
};

/* The wire as the station sees it: a frame the station is ready to send
 * at microcycle `ready`; the wire starts it when it is free (at `ready`
 * or later: the station defers) and returns the microcycle its last bit
 * left.  The bytes are copied before the call returns. */
struct io_ether_wire {
    void *ctx;
    uint64_t (*transmit)(void *ctx, const uint8_t *frame, uint32_t len, uint64_t ready);
};

#endif
