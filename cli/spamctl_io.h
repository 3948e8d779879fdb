/* spamctl run's device options: media, the console boot, console
 * scripts and the TODR (cli/README.md, "Devices and the console boot"). */
#ifndef SPAMCTL_IO_H
#define SPAMCTL_IO_H

#include <stdint.h>
#include <stdio.h>

#include "cli/spamctl_out.h"
#include "vax/io/io_dz.h"
#include "vax/io/io_netsrc.h"
#include "vax/machine/vm.h"

#define SPAMCTL_IO_ATTACH_MAX 8

enum spamctl_todr { TODR_RESET, TODR_FIXED, TODR_HOST, TODR_VALUE };

struct spamctl_io {
    struct {
        const char *dev;       /* rp0..rp3, tu0, tu1 */
        char name[8];
        char opt[24];          /* "--attach rp0:ro", for messages */
        const char *path;
        int readonly;
    } attach[SPAMCTL_IO_ATTACH_MAX];
    int nattach;
    const char *boot;          /* --boot DEV */
    uint32_t boot_flags;       /* --boot-flags N (R11) */
    const char *script;        /* --console-script FILE */
    double expect_timeout;     /* --expect-timeout S (emulated seconds) */
    enum spamctl_todr todr;
    uint32_t todr_value;
    /* the Ethernet outside the VAX (vax/io/io_netsrc.h): connected to the
     * DEUNA by any of a rate (run's --net-rate, which spamctl_spam
     * parses: the caller copies it here), --net-seed, --net-mix, --pcap */
    double net_rate;
    uint64_t net_seed;         /* --net-seed N (default: --seed's value) */
    int net_seed_set;
    unsigned net_mix[IO_NET_KINDS];
    int net_mix_set;
    const char *pcap;          /* --pcap FILE */
    struct spamctl_pcap *cap;  /* open during the run */
    uint64_t cap_frames;       /* frames it holds, after the run */
    int net_on;
    /* scripted users on dz0's lines (--dz-script N=FILE, --dz-log N=FILE) */
    struct {
        const char *script;
        const char *log;
        char script_opt[24], log_opt[24]; /* "--dz-script 3", for messages */
        struct out_sink sink; /* the log, open during the run */
        int fd;
        int open;
    } dz[IO_DZ_LINES];
    uint64_t seed;             /* the run's --seed: the users' think times */
    unsigned dz_br;            /* --dz-br N (vm_config; 0: 5) */
    const char *dz_report;     /* --dz-report FILE: the users in JSON */
    int media_failed;          /* an image could not be written (reported) */
};

void spamctl_io_init(struct spamctl_io *o);
/* One command-line word: 0 not ours, 2 an option and its value, -1 bad
 * (message printed). */
int spamctl_io_option(struct spamctl_io *o, const char *a, const char *v);
/* The options' usage lines. */
void spamctl_io_usage(FILE *f);
/* After the machine is made and before it runs: media, TODR, the console
 * boot (which replaces loading an image), the script.  0, or -1 after a
 * message (exit status 1: bad input). */
int spamctl_io_setup(struct spamctl_io *o, struct vax_machine *m);
/* After the run (and spamctl_io_media_check): 0, or 1 after a message
 * when the console script failed or did not finish (not said again when
 * a medium's failure stopped the run), or the capture could not be
 * written (it is closed). */
int spamctl_io_finish(struct spamctl_io *o, const struct vax_machine *m);
/* When the run does not happen after spamctl_io_setup: closes what it
 * opened. */
void spamctl_io_abort(struct spamctl_io *o);
/* The network's two summary lines, when it was connected, and a line
 * for each scripted DZ11 user. */
void spamctl_io_report(const struct spamctl_io *o, struct vax_machine *m, FILE *f);
/* Adds the files the options read and write -- media, scripts, the DZ
 * lines' logs and report, the capture -- to the run's same-file check
 * (spamctl_out.h). */
void spamctl_io_files(const struct spamctl_io *o, struct hostfile_set *s);
/* After the run: media the guest wrote are flushed to the host's disk
 * (fsync); a host write that failed during the run (it stopped the
 * machine: "host write error on rp0") or now is one line on stderr naming
 * the image and the cause.  0, or 1 after such a message. */
int spamctl_io_media_check(struct spamctl_io *o, struct vax_machine *m);

/* The TODR of the fixed boot date: 12:00 on June 7 (1986, the day after
 * the GENERIC kernel was built), as hundredths of a second since the
 * start of the year above 2^28 (4.3BSD's TODRZERO). */
#define SPAMCTL_TODR_FIXED 1629235456u

#endif
