/* libFuzzer target: console and DZ scripts (vax/io/io_script.h).  An
 * input is a script: it is parsed as `spamctl run --console-script` and
 * `--dz-script` parse it, and when it parses, a scripted user follows it
 * on an event queue in emulated time while the "guest" prints the input's
 * own bytes back (so expects can match), until it is done, fails, or a
 * bounded number of events has passed.  A crash, a sanitizer report, a
 * parse error without "NAME:LINE: " or a step out of range is a bug. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vax/io/io_events.h"
#include "vax/io/io_script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct sink {
    uint64_t typed;
    int stopped;
};

static void type_fn(void *ctx, uint8_t c)
{
    (void)c;
    ((struct sink *)ctx)->typed++;
}

static void stop_fn(void *ctx, const char *why)
{
    if (!why || !*why)
        __builtin_trap();
    ((struct sink *)ctx)->stopped = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct io_script s;
    char err[300];
    if (io_script_parse((const char *)data, size, "fuzz.script", &s, err, sizeof err) != 0) {
        if (strncmp(err, "fuzz.script:", 12) != 0 || !memchr(err, 0, sizeof err))
            __builtin_trap();
        return 0;
    }
    for (size_t i = 0; i < s.n; i++) {
        const struct io_script_step *st = &s.step[i];
        if (st->op > IO_SCRIPT_HALT || ((st->op == IO_SCRIPT_EXPECT || st->op == IO_SCRIPT_SEND) &&
                                        (!st->text || !st->len)) ||
            (st->op == IO_SCRIPT_REPEAT && st->target > s.n))
            __builtin_trap();
    }
    uint64_t now = 0;
    struct io_events ev;
    io_events_init(&ev, &now);
    struct sink k = {0, 0};
    struct io_user_cfg cfg = {.type_cycles = 250000, .timeout_cycles = 12500000,
                              .type = type_fn, .type_ctx = &k, .stop = stop_fn, .stop_ctx = &k,
                              .seed = size, .who = "dz0 line 1 script"};
    struct io_term_user u;
    if (io_term_user_start(&u, &ev, &s, &cfg) == 0) {
        size_t echo = 0;
        for (int i = 0; i < 5000 && u.state == IO_USER_RUNNING && !k.stopped; i++) {
            uint64_t next = io_events_next(&ev);
            now = next == UINT64_MAX || next > now + 100000 ? now + 100000 : next;
            io_events_run(&ev);
            if (size) /* the guest prints the input back, a byte a step */
                io_term_user_output(&u, data[echo++ % size]);
        }
        if (u.pc > s.n || u.nround_end > u.rounds)
            __builtin_trap();
        io_term_user_free(&u);
    }
    io_script_free(&s);
    return 0;
}
