/* A scripted terminal user: the host side of a terminal line (the
 * console, or later a DZ11 line) following a script, in emulated time, so
 * the same machine and script give the same transcript cycle for cycle.
 *
 * Script lines (one command each; '#' starts a comment line, blank lines
 * are ignored):
 *   expect TEXT   wait until the line has printed TEXT (bit 7 of the
 *                 output stripped; matching starts after the previous match)
 *   send TEXT     type TEXT, one character per type interval
 *   sleep SECONDS wait (emulated seconds, fractions allowed)
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

enum io_script_op { IO_SCRIPT_EXPECT, IO_SCRIPT_SEND, IO_SCRIPT_SLEEP, IO_SCRIPT_HALT };

struct io_script_step {
    enum io_script_op op;
    unsigned line;            /* in the script file */
    uint8_t *text;            /* expect / send (unescaped) */
    size_t len;
    uint64_t cycles;          /* sleep */
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

struct io_term_user {
    const struct io_script *s;
    size_t pc;                /* the current step */
    size_t sent;              /* characters of a send step typed so far */
    uint8_t *seen;            /* output since the last match (bit 7 stripped) */
    size_t seen_len, seen_cap;
    uint64_t type_cycles, timeout_cycles;
    struct io_timer timer;
    io_type_fn type;
    void *type_ctx;
    io_stop_fn stop;
    void *stop_ctx;
    enum io_user_state state;
    char failure[512];
    uint64_t typed, matched;  /* statistics */
};

/* Starts the user at the current time; the script must outlive it. */
int io_term_user_start(struct io_term_user *u, struct io_events *ev, const struct io_script *s,
                       uint64_t type_cycles, uint64_t timeout_cycles, io_type_fn type,
                       void *type_ctx, io_stop_fn stop, void *stop_ctx);
void io_term_user_free(struct io_term_user *u);
/* The guest printed c on the line. */
void io_term_user_output(struct io_term_user *u, uint8_t c);

#endif
