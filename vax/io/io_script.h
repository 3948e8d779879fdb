/* A scripted terminal user: the host side of a terminal line (the
 * console or a DZ11 line) following a script, in emulated time, so the
 * same machine, script and seed give the same transcript cycle for cycle.
 * The scripts are after the Multics benchmark scripts: a user logs in,
 * then works through shell commands with think times between them, over
 * and over, so a measurement can be repeated under a defined load.
 *
 * Script lines (one command each; '#' starts a comment line, blank lines
 * are ignored):
 *   expect TEXT   wait until the line has printed TEXT (bit 7 of the
 *                 output stripped; matching starts after the previous match)
 *   send TEXT     type TEXT, one character per type interval
 *   sleep SECONDS wait (emulated seconds, fractions allowed)
 *   think SECONDS wait an exponentially distributed time of that mean
 *                 (the user's seeded stream: the same seed, the same waits)
 *   loop          mark where `repeat` goes back to (one per script)
 *   repeat [N]    go back to the step after `loop`: for ever, or until the
 *                 steps between have run N times in all
 *   halt          stop the machine here (ours: for a guest that would
 *                 otherwise wait for input forever); the script is done
 * TEXT is the rest of the line after one space, with the escapes \r \n
 * \t \\ \xHH.  An expect that is not satisfied within the timeout stops
 * the run with a message naming the script line. */
#ifndef VAX_IO_IO_SCRIPT_H
#define VAX_IO_IO_SCRIPT_H

#include <stddef.h>
#include <stdint.h>

#include "vax/io/io_events.h"

enum io_script_op {
    IO_SCRIPT_EXPECT,
    IO_SCRIPT_SEND,
    IO_SCRIPT_SLEEP,
    IO_SCRIPT_THINK,
    IO_SCRIPT_LOOP,
    IO_SCRIPT_REPEAT,
    IO_SCRIPT_HALT
};

struct io_script_step {
    enum io_script_op op;
    unsigned line;            /* in the script file */
    uint8_t *text;            /* expect / send (unescaped) */
    size_t len;
    uint64_t cycles;          /* sleep; think: the mean */
    uint64_t count;           /* repeat: times in all (0: for ever) */
    size_t target;            /* repeat: the step after `loop` */
};

struct io_script {
    char name[128];           /* the file name, for messages */
    struct io_script_step *step;
    size_t n;
};

/* Parses a script.  0, or -1 with "NAME:LINE: what is wrong" in err. */
int io_script_parse(const char *text, size_t len, const char *name, struct io_script *out,
                    char *err, size_t errlen);
void io_script_free(struct io_script *s);

/* Unescapes \r \n \t \\ \xHH (the console-in and script convention);
 * returns the length, or -1 with the offending offset in *bad. */
long io_unescape(const char *in, size_t len, uint8_t *out, size_t *bad);

typedef void (*io_type_fn)(void *ctx, uint8_t c);
typedef void (*io_stop_fn)(void *ctx, const char *why);

enum io_user_state { IO_USER_RUNNING, IO_USER_DONE, IO_USER_FAILED };

/* How a user types and what it is called in messages. */
struct io_user_cfg {
    uint64_t type_cycles;     /* between two typed characters */
    uint64_t timeout_cycles;  /* an expect's limit */
    io_type_fn type;
    void *type_ctx;
    io_stop_fn stop;          /* a failed expect or `halt` (NULL: none) */
    void *stop_ctx;
    uint64_t seed;            /* the think times' stream */
    const char *who;          /* "console script" (NULL), "dz0 line 2 script" */
};

struct io_term_user {
    const struct io_script *s;
    size_t pc;                /* the current step */
    size_t sent;              /* characters of a send step typed so far */
    uint8_t *seen;            /* output since the last match (bit 7 stripped) */
    size_t seen_len, seen_cap;
    struct io_user_cfg cfg;
    char who[48];
    uint64_t rng;             /* think times */
    uint64_t rounds;          /* times the loop's body has run to its repeat */
    uint64_t loop_at;         /* the microcycle it first passed `loop` */
    uint64_t *round_end;      /* the microcycle each round reached `repeat` */
    size_t nround_end, round_cap; /* (the first IO_USER_ROUNDS_KEPT kept) */
    struct io_timer timer;
    enum io_user_state state;
    char failure[512];
    uint64_t typed, matched;  /* statistics */
    uint64_t thought;         /* microcycles spent in think steps */
};

#define IO_USER_ROUNDS_KEPT 100000

/* Starts the user at the current time; the script must outlive it. */
int io_term_user_start(struct io_term_user *u, struct io_events *ev, const struct io_script *s,
                       const struct io_user_cfg *cfg);
void io_term_user_free(struct io_term_user *u);
/* The guest printed c on the line. */
void io_term_user_output(struct io_term_user *u, uint8_t c);

#endif
