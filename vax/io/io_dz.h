/* A DZ11 eight-line terminal multiplexer on the UNIBUS (dzreg.h, SIMH's
 * pdp11_dz.c).  Four word registers: CSR (MAINT, CLR, MSE, RIE, RDONE,
 * TLINE, SAE, SA, TIE, TRDY; bit 0 reads 0, so 4.3BSD sees a DZ11, not a
 * DZ32), RBUF (read: DVAL, overrun, line, character, from a 64-character
 * silo) / LPR (write: line, character length, stop bits, parity, speed,
 * receiver on), TCR (line enables, DTR), MSR (read: ring, carrier) / TDR
 * (write: character, break).
 *
 * With MSE set the scanner offers TRDY for an enabled line whose
 * transmitter is idle (round robin); a character written to TDR occupies
 * its line for one character time at the line's programmed speed
 * (start + data + parity + stop bits, 50-19200 baud), in emulated time,
 * and then goes to the host side.  Characters the host side types arrive
 * in the silo (RDONE; with SAE the silo alarm after 16); a full silo
 * loses them and flags the next one with OVRN.  Interrupts at BR5: the
 * receiver (vector base) while RIE and RDONE (or SA with SAE), the
 * transmitter (base + 4) while TIE and TRDY.
 *
 * The host side: io_dz_receive types a character on a line, the output
 * callback sees what the guest transmits, io_dz_set_carrier sets a line's
 * carrier.  Lines connected to nothing drop their output. */
#ifndef VAX_IO_IO_DZ_H
#define VAX_IO_IO_DZ_H

#include "vax/io/io_unibus.h"

#define IO_DZ_LINES 8
#define IO_DZ_SILO 64
#define IO_DZ_BR 5

/* CSR bits */
#define IO_DZCSR_MAINT 0000010u
#define IO_DZCSR_CLR 0000020u
#define IO_DZCSR_MSE 0000040u
#define IO_DZCSR_RIE 0000100u
#define IO_DZCSR_RDONE 0000200u
#define IO_DZCSR_SAE 0010000u
#define IO_DZCSR_SA 0020000u
#define IO_DZCSR_TIE 0040000u
#define IO_DZCSR_TRDY 0100000u
#define IO_DZRBUF_DVAL 0100000u
#define IO_DZRBUF_OVRN 0040000u
#define IO_DZLPR_RXON 0010000u

typedef void (*io_dz_output_fn)(void *ctx, unsigned line, uint8_t c, uint64_t when);

struct io_dz_line {
    uint16_t lpr;
    int busy;                 /* a character is on the wire */
    uint64_t done_at;
    uint8_t tx;
    int carrier, ring;
};

struct io_dz {
    uint32_t base;            /* UNIBUS address of the CSR */
    uint16_t csr, tcr, brk;
    uint16_t silo[IO_DZ_SILO];
    unsigned silo_head, silo_n, sa_count;
    int overrun;              /* the next character into the silo carries OVRN */
    unsigned scan;            /* the line the scanner offered last */
    struct io_dz_line line[IO_DZ_LINES];
    struct io_timer timer;    /* the next transmitter to finish */
    const struct io_unibus *bus;
    int rx_src, tx_src;
    io_dz_output_fn output;
    void *output_ctx;
    uint64_t chars_out, chars_in, chars_lost;   /* statistics */
};

extern const struct io_unibus_dev_ops io_dz_ops;

/* base: the CSR's UNIBUS address (0760100 + 010 * n); rx_src, tx_src:
 * the adapter's interrupt sources for the receiver (the DZ's vector) and
 * the transmitter (vector + 4), at BR5. */
void io_dz_init(struct io_dz *dz, uint32_t base, const struct io_unibus *bus, int rx_src,
                int tx_src);
void io_dz_free(struct io_dz *dz);
void io_dz_set_output(struct io_dz *dz, io_dz_output_fn fn, void *ctx);
/* A character typed on a line: 0, or -1 if it was lost (scanner off,
 * receiver off, silo full). */
int io_dz_receive(struct io_dz *dz, unsigned line, uint8_t c);
void io_dz_set_carrier(struct io_dz *dz, unsigned line, int on);
int io_dz_dtr(const struct io_dz *dz, unsigned line);
/* Microcycles one character takes on the line at its programmed format. */
uint64_t io_dz_char_cycles(uint16_t lpr);

#endif
