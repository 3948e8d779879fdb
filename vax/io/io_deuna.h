/* A DEUNA, DEC's UNIBUS Ethernet adapter, as 4.3BSD's `de` driver drives
 * it (vaxif/if_de.c, if_dereg.h; facts also from open-simh's
 * PDP11/pdp11_xu.[ch] and the DEUNA/DELUA user's guides they cite).
 *
 * Port registers (four words at the CSR, 0774510 in GENERIC):
 *   PCSR0  <15:8> interrupt bits, write one to clear: SERI (status error),
 *          PCEI (port command error), RXI, TXI, DNI (port command done),
 *          RCBI (receive buffer unavailable), <9>, <8>; <7> INTR (any of
 *          them, read only), <6> INTE, <5> RSET (write: reset), <3:0> the
 *          port command.  Writing the low byte issues the command -- unless
 *          the write changes INTE: then INTE changes, DNI is set and no
 *          command runs (the interlock 4.3BSD's deinit avoids).  A write
 *          of the high byte alone only clears bits.
 *   PCSR1  <3:0> the port state (0 reset, 2 ready, 3 running), <6:4> 0 for
 *          a DEUNA; read only.
 *   PCSR2, PCSR3  the port control block's UNIBUS address (bit 0 reads 0;
 *          PCSR3 holds bits 17:16), taken by GET PCBB.
 *
 * Port commands: NOOP (nothing, no DNI), GET PCBB, GET CMD (execute the
 * function in the port control block), SELF TEST (a reset), START (ready
 * -> running: the rings from their first entries), BOOT (not modelled:
 * PCEI), POLLING DEMAND (running: look at the transmit ring, and resume
 * receiving after RCBI), STOP (running -> ready), the reserved codes
 * (DNI).  A command the state does not allow sets PCEI.  Each takes
 * IO_DEUNA_CMD_CYCLES (GET CMD IO_DEUNA_GETCMD_CYCLES) and then sets DNI
 * (PCEI and DNI on an error, so a driver waiting for DNI -- ULTRIX's --
 * sees the failure); a command written while one runs waits for it (only
 * the last one waits).  RSET and UNIBUS INIT reset the port: state 0 for
 * IO_DEUNA_RESET_CYCLES, then ready with DNI; the station address goes
 * back to the default, the mode, rings, multicast list and counters are
 * cleared, INTE too.
 *
 * Functions (PCB word 0; word 0<15:8> must be zero): read default /
 * read / write physical address (words 1-3; a multicast address is
 * refused), read / write multicast list (word 1, word 2<1:0> the UDB
 * address, word 2<15:8> the count, at most 10), read / write ring format
 * (a six-word UDB: transmit ring address, entry length in words <15:8>,
 * entry count, the same for receive; not while running; entries of at
 * least 4 words, at least 1 transmit and 2 receive entries), read / read
 * and clear counters (a 34-word block, fewer if word 3 asks for fewer),
 * read / write mode (word 1), read / read and clear port status (words
 * 1-3: status, 10, 32), read / write load server address.  Dump and load
 * internal memory, load and start microaddress and the system ID
 * functions are not modelled: PCEI.
 *
 * Descriptor rings in VAX memory through the UNIBUS map: an entry is
 * `telen`/`relen` words of which the DEUNA uses four: the segment length,
 * the segment address <15:0>, word 2 (<1:0> address <17:16>, <15:8>
 * flags: OWN, ERRS, MTCH/FRAM, MORE/OFLO, ONE/CRC, DEF, STP, ENP), word 3
 * (errors: BUFL, UBTO, NCHN; transmit TDR; receive <11:0> the message
 * length including the 4 CRC bytes, in the ENP entry).  A frame may span
 * entries (data chaining) unless the mode's DRDC is set.  The port
 * transmits what it owns, in order, one frame at a time: it fills in its
 * station address, pads a short frame to 60 bytes with TPAD (without it
 * a short frame is a BUFL error, as is one over 1514), puts the frame on
 * the wire (io_ether.h), and when the last bit has left returns the
 * entries with TXI (DEF when it waited for the wire; MTCH in half duplex
 * when the frame matches its own receive filter, so the driver can take
 * its own broadcast; in full duplex it receives such a frame itself;
 * with LOOP the frame loops back inside and never reaches the wire).
 * A received frame that passes the filter (its physical address,
 * broadcast, the multicast list, all multicast with ENAL, anything with
 * PROM) is written with its CRC into the next owned entries, RXI.  With
 * no owned entry the frame is lost: RCBI, the "user buffer unavailable"
 * counter, and reception stops until a POLLING DEMAND or START (every
 * frame meanwhile is lost and counted too).
 *
 * DMA is checked: a segment the map or memory refuses is UBTO in the
 * entry (with ERRS); an entry the DEUNA cannot read or write is a ring
 * error (status ERRS, TMOT and TRNG or RRNG; SERI); a port control block
 * or data block it cannot reach is a port command error (PCEI).  Never a
 * host fault.  Interrupts at BR5 through the UBA: a request whenever an
 * interrupt bit is newly set while INTE is, withdrawn when INTR or INTE
 * goes off. */
#ifndef VAX_IO_IO_DEUNA_H
#define VAX_IO_IO_DEUNA_H

#include "vax/io/io_ether.h"
#include "vax/io/io_unibus.h"

#define IO_DEUNA_BR 5
#define IO_DEUNA_MCAST 10
#define IO_DEUNA_COUNTERS 34                     /* words */
#define IO_DEUNA_CMD_CYCLES IO_US(20)
#define IO_DEUNA_GETCMD_CYCLES IO_US(100)
#define IO_DEUNA_RESET_CYCLES IO_MS(10)

/* PCSR0 */
#define IO_DE_SERI 0x8000u
#define IO_DE_PCEI 0x4000u
#define IO_DE_RXI 0x2000u
#define IO_DE_TXI 0x1000u
#define IO_DE_DNI 0x0800u
#define IO_DE_RCBI 0x0400u
#define IO_DE_INTR 0x0080u
#define IO_DE_INTE 0x0040u
#define IO_DE_RSET 0x0020u
/* port commands */
#define IO_DE_CMD_NOOP 0x0u
#define IO_DE_CMD_GETPCBB 0x1u
#define IO_DE_CMD_GETCMD 0x2u
#define IO_DE_CMD_STEST 0x3u
#define IO_DE_CMD_START 0x4u
#define IO_DE_CMD_BOOT 0x5u
#define IO_DE_CMD_PDMD 0x8u
#define IO_DE_CMD_STOP 0xFu
/* PCSR1 states */
#define IO_DE_STATE_RESET 0u
#define IO_DE_STATE_READY 2u
#define IO_DE_STATE_RUNNING 3u
/* functions */
#define IO_DE_FC_NOOP 0x00u
#define IO_DE_FC_RDDEFAULT 0x02u
#define IO_DE_FC_RDPHYAD 0x04u
#define IO_DE_FC_WTPHYAD 0x05u
#define IO_DE_FC_RDMULTI 0x06u
#define IO_DE_FC_WTMULTI 0x07u
#define IO_DE_FC_RDRING 0x08u
#define IO_DE_FC_WTRING 0x09u
#define IO_DE_FC_RDCNTS 0x0Au
#define IO_DE_FC_RCCNTS 0x0Bu
#define IO_DE_FC_RDMODE 0x0Cu
#define IO_DE_FC_WTMODE 0x0Du
#define IO_DE_FC_RDSTATUS 0x0Eu
#define IO_DE_FC_RCSTATUS 0x0Fu
#define IO_DE_FC_RDSERAD 0x14u
#define IO_DE_FC_WTSERAD 0x15u
/* mode */
#define IO_DE_MOD_HDX 0x0001u
#define IO_DE_MOD_LOOP 0x0004u
#define IO_DE_MOD_TPAD 0x1000u
#define IO_DE_MOD_DRDC 0x2000u
#define IO_DE_MOD_ENAL 0x4000u
#define IO_DE_MOD_PROM 0x8000u
/* descriptor word 2 flags (high byte) */
#define IO_DE_OWN 0x8000u
#define IO_DE_ERRS 0x4000u
#define IO_DE_MTCH 0x2000u       /* transmit */
#define IO_DE_OFLO 0x1000u       /* receive */
#define IO_DE_DEF 0x0400u        /* transmit */
#define IO_DE_STP 0x0200u
#define IO_DE_ENP 0x0100u
/* descriptor word 3 */
#define IO_DE_BUFL 0x8000u
#define IO_DE_UBTO 0x4000u
#define IO_DE_NCHN 0x2000u
#define IO_DE_MLEN 0x0FFFu
/* port status */
#define IO_DE_ST_ERRS 0x8000u
#define IO_DE_ST_MERR 0x4000u
#define IO_DE_ST_TMOT 0x0800u
#define IO_DE_ST_RRNG 0x0200u
#define IO_DE_ST_TRNG 0x0100u

/* The counter block's words (the block's layout, EK-DEUNA-UG). */
enum {
    IO_DE_C_LENGTH = 0, IO_DE_C_SECONDS = 1, IO_DE_C_RX_FRAMES = 2, IO_DE_C_RX_MFRAMES = 4,
    IO_DE_C_RX_ERRBITS = 6, IO_DE_C_RX_ERRORS = 7, IO_DE_C_RX_BYTES = 8, IO_DE_C_RX_MBYTES = 10,
    IO_DE_C_LOST_SYSBUF = 12, IO_DE_C_LOST_USERBUF = 13, IO_DE_C_TX_FRAMES = 14,
    IO_DE_C_TX_MFRAMES = 16, IO_DE_C_TX_MULTICOLL = 18, IO_DE_C_TX_ONECOLL = 20,
    IO_DE_C_TX_DEFERRED = 22, IO_DE_C_TX_BYTES = 24, IO_DE_C_TX_MBYTES = 26,
    IO_DE_C_TX_ERRBITS = 28, IO_DE_C_TX_ABORTED = 29, IO_DE_C_COLLTEST = 30,
    IO_DE_C_PORT_ERRORS = 32, IO_DE_C_BABBLE = 33,
};

struct io_deuna {
    uint32_t base;                   /* UNIBUS address of PCSR0 */
    const struct io_unibus *bus;
    int src;                         /* the adapter's interrupt source */
    int irq;                         /* the request as last told the adapter */
    uint16_t pcsr0, pcsr2, pcsr3;
    unsigned state;
    uint8_t rom_addr[IO_ETHER_ADDR], addr[IO_ETHER_ADDR], load_server[IO_ETHER_ADDR];
    uint8_t mcast[IO_DEUNA_MCAST][IO_ETHER_ADDR];
    unsigned nmcast;
    uint16_t mode, status;
    uint32_t pcbb;
    uint32_t tdrb, rdrb;             /* ring base UNIBUS addresses */
    unsigned telen, relen, trlen, rrlen, txnext, rxnext;
    int rx_suspended;                /* after RCBI, until POLLING DEMAND / START */
    /* the port command in progress (-1 none) and one waiting; the PCB
     * address GET PCBB takes, as PCSR2/3 were when it was written */
    struct io_timer cmd_timer;
    int cmd, cmd_next;
    uint32_t cmd_operand, cmd_next_operand;
    int resetting;
    /* the transmitter: the frame on the wire, its entries */
    struct io_timer tx_timer;
    int tx_busy, tx_self;            /* tx_self: the frame comes back to our receiver */
    unsigned tx_first, tx_count;
    uint16_t tx_flags, tx_err;
    uint32_t tx_len;
    uint8_t tx_frame[IO_ETHER_MAX + 2];
    struct io_ether_wire wire;       /* transmit NULL: an empty wire */
    /* the counters (saturating, as the hardware's), zeroed at a microcycle */
    uint32_t c32[IO_DEUNA_COUNTERS];
    uint64_t zeroed_at;
    uint8_t rx_buf[IO_ETHER_MAX + IO_ETHER_FCS];
    /* statistics for the host (never cleared by the guest) */
    uint64_t frames_out, frames_in, rx_filtered, rx_stopped, rx_nobuf, rx_errors;
    uint64_t commands, cmd_errors, ring_errors;
};

extern const struct io_unibus_dev_ops io_deuna_ops;

/* base: PCSR0's UNIBUS address; src: the adapter's interrupt source (the
 * DEUNA's vector, BR5); addr: the default station address (ROM). */
void io_deuna_init(struct io_deuna *d, uint32_t base, const struct io_unibus *bus, int src,
                   const uint8_t addr[IO_ETHER_ADDR]);
void io_deuna_free(struct io_deuna *d);
void io_deuna_set_wire(struct io_deuna *d, const struct io_ether_wire *w);
/* The station side for the wire (io_ether.h): a frame has arrived. */
enum io_ether_rx io_deuna_receive(struct io_deuna *d, const uint8_t *frame, uint32_t len);
struct io_ether_station io_deuna_station(struct io_deuna *d);
/* The counter block as READ COUNTERS would write it now. */
void io_deuna_counters(const struct io_deuna *d, uint16_t out[IO_DEUNA_COUNTERS]);
/* The CRC-32 of IEEE 802.3 over n bytes (the FCS, stored low byte first). */
uint32_t io_ether_crc(const uint8_t *p, uint32_t n);

#endif
