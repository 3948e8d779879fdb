/* Scripted terminal users (io_script.h). */
#include "vax/io/io_script.h"

#include "vax/io/io_random.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEEN_MAX (1u << 20)     /* output kept for matching ... */
#define SEEN_KEEP (64u << 10)   /* ... and what survives a trim */
#define SLEEP_MAX 1e6           /* seconds */
#define REPEAT_MAX 1000000000ull
#define THINK_CAP (3600ull * IO_CYCLES_PER_SEC) /* no single think over an hour */

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c |= 32;
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

long io_unescape(const char *in, size_t len, uint8_t *out, size_t *bad)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (in[i] != '\\') {
            out[n++] = (uint8_t)in[i];
            continue;
        }
        if (i + 1 >= len) {
            *bad = i;
            return -1;
        }
        char e = in[++i];
        switch (e) {
        case 'r': out[n++] = '\r'; break;
        case 'n': out[n++] = '\n'; break;
        case 't': out[n++] = '\t'; break;
        case '\\': out[n++] = '\\'; break;
        case 'x': {
            int v = 0, k = 0, h;
            while (k < 2 && i + 1 < len && (h = hexval((unsigned char)in[i + 1])) >= 0) {
                v = v * 16 + h;
                i++;
                k++;
            }
            if (k != 2) { /* \xHH: two digits, as documented */
                *bad = i - 1 - (size_t)k;
                return -1;
            }
            out[n++] = (uint8_t)v;
            break;
        }
        default:
            *bad = i - 1;
            return -1;
        }
    }
    return (long)n;
}

/* Shows a text with its control characters escaped, for messages; `raw`:
 * a line of the script as written (its backslashes shown as they are). */
static void show(char *out, size_t cap, const uint8_t *t, size_t n, int raw)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 5 < cap; i++) {
        uint8_t c = t[i];
        if (c == '\r') o += (size_t)snprintf(out + o, cap - o, "\\r");
        else if (c == '\n') o += (size_t)snprintf(out + o, cap - o, "\\n");
        else if (c == '\t') o += (size_t)snprintf(out + o, cap - o, "\\t");
        else if (c == '\\' && !raw) o += (size_t)snprintf(out + o, cap - o, "\\\\");
        else if (c < 32 || c >= 127) o += (size_t)snprintf(out + o, cap - o, "\\x%02X", c);
        else out[o++] = (char)c;
    }
    out[o < cap ? o : cap - 1] = 0;
}

static int blank(const char *t, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (t[k] != ' ' && t[k] != '\t')
            return 0;
    return 1;
}

/* A number of seconds, 0 to SLEEP_MAX, trailing blanks allowed. */
static int seconds(const char *arg, size_t al, double *sec)
{
    char num[64];
    char *end;
    if (al >= sizeof num)
        return -1;
    memcpy(num, arg, al);
    num[al] = 0;
    *sec = strtod(num, &end);
    while (*end == ' ' || *end == '\t')
        end++;
    return end == num || *end || !isfinite(*sec) || *sec < 0 || *sec > SLEEP_MAX ? -1 : 0;
}

/* A decimal count, 1 to REPEAT_MAX, trailing blanks allowed. */
static int count(const char *arg, size_t al, uint64_t *n)
{
    size_t k = 0;
    *n = 0;
    while (k < al && arg[k] >= '0' && arg[k] <= '9') {
        *n = *n * 10 + (uint64_t)(arg[k++] - '0');
        if (*n > REPEAT_MAX)
            return -1;
    }
    return k && *n && blank(arg + k, al - k) ? 0 : -1;
}

static int add_step(struct io_script *s, size_t *cap, struct io_script_step st)
{
    if (s->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        struct io_script_step *p = realloc(s->step, nc * sizeof *p);
        if (!p)
            return -1;
        s->step = p;
        *cap = nc;
    }
    s->step[s->n++] = st;
    return 0;
}

int io_script_parse(const char *text, size_t len, const char *name, struct io_script *out,
                    char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name ? name : "script");
    size_t cap = 0, loop_at = 0;
    unsigned lineno = 0, loop_line = 0, repeat_line = 0;
    for (size_t pos = 0; pos < len;) {
        const char *l = text + pos;
        const char *nl = memchr(l, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - l) : len - pos;
        pos += ll + (nl ? 1 : 0);
        lineno++;
        if (ll && l[ll - 1] == '\r')
            ll--;
        size_t i = 0;
        while (i < ll && (l[i] == ' ' || l[i] == '\t'))
            i++;
        if (i == ll || l[i] == '#')
            continue;
        size_t w = i;
        while (w < ll && l[w] != ' ' && l[w] != '\t')
            w++;
        const char *cmd = l + i;
        size_t cl = w - i;
        const char *arg = w < ll ? l + w + 1 : l + ll;
        size_t al = w < ll ? ll - w - 1 : 0;
        struct io_script_step st = {.line = lineno};
        if ((cl == 6 && !memcmp(cmd, "expect", 6)) || (cl == 4 && !memcmp(cmd, "send", 4))) {
            st.op = cl == 6 ? IO_SCRIPT_EXPECT : IO_SCRIPT_SEND;
            st.text = malloc(al + 1);
            size_t bad = 0;
            long n = st.text ? io_unescape(arg, al, st.text, &bad) : -1;
            if (n <= 0) {
                if (!st.text)
                    snprintf(err, errlen, "%s:%u: out of memory", out->name, lineno);
                else if (n == 0)
                    snprintf(err, errlen, "%s:%u: %.*s needs a text", out->name, lineno,
                             (int)cl, cmd);
                else {
                    char t[48];
                    show(t, sizeof t, (const uint8_t *)arg + bad, al - bad < 8 ? al - bad : 8, 1);
                    snprintf(err, errlen, "%s:%u: bad escape at \"%s\" (use \\r \\n \\t \\\\ "
                             "\\xHH)", out->name, lineno, t);
                }
                free(st.text);
                io_script_free(out);
                return -1;
            }
            st.len = (size_t)n;
        } else if ((cl == 5 && !memcmp(cmd, "sleep", 5)) || (cl == 5 && !memcmp(cmd, "think", 5))) {
            int think = cmd[0] == 't';
            double sec;
            if (seconds(arg, al, &sec) < 0 || (think && sec <= 0)) {
                char t[180];
                show(t, sizeof t, (const uint8_t *)arg, al < 40 ? al : 40, 1);
                snprintf(err, errlen, "%s:%u: %s needs a number of seconds (%s-%g), not "
                         "\"%s\"", out->name, lineno, think ? "think" : "sleep",
                         think ? "above 0" : "0", SLEEP_MAX, t);
                io_script_free(out);
                return -1;
            }
            st.op = think ? IO_SCRIPT_THINK : IO_SCRIPT_SLEEP;
            st.cycles = (uint64_t)(sec * (double)IO_CYCLES_PER_SEC + 0.5);
            if (think && !st.cycles)
                st.cycles = 1;
        } else if (cl == 4 && !memcmp(cmd, "loop", 4)) {
            if (!blank(arg, al)) {
                snprintf(err, errlen, "%s:%u: loop takes nothing after it", out->name, lineno);
                io_script_free(out);
                return -1;
            }
            if (loop_at) {
                snprintf(err, errlen, "%s:%u: a second loop (the first is at line %u)",
                         out->name, lineno, loop_line);
                io_script_free(out);
                return -1;
            }
            st.op = IO_SCRIPT_LOOP;
            loop_at = out->n + 1;
            loop_line = lineno;
        } else if (cl == 6 && !memcmp(cmd, "repeat", 6)) {
            st.op = IO_SCRIPT_REPEAT;
            if (!loop_at) {
                snprintf(err, errlen, "%s:%u: repeat without a loop line before it", out->name,
                         lineno);
                io_script_free(out);
                return -1;
            }
            if (repeat_line) { /* the round counter is one: so is its repeat */
                snprintf(err, errlen, "%s:%u: a second repeat (the first is at line %u)",
                         out->name, lineno, repeat_line);
                io_script_free(out);
                return -1;
            }
            repeat_line = lineno;
            if (!blank(arg, al) && count(arg, al, &st.count) < 0) {
                char t[180];
                show(t, sizeof t, (const uint8_t *)arg, al < 40 ? al : 40, 1);
                snprintf(err, errlen, "%s:%u: repeat takes nothing or a count (1-%llu), not "
                         "\"%s\"", out->name, lineno, (unsigned long long)REPEAT_MAX, t);
                io_script_free(out);
                return -1;
            }
            st.target = loop_at;
            int waits = 0; /* a body that never waits would spin in no time */
            for (size_t k = loop_at; k < out->n; k++)
                waits |= out->step[k].op == IO_SCRIPT_EXPECT || out->step[k].op == IO_SCRIPT_SEND ||
                         out->step[k].op == IO_SCRIPT_THINK || out->step[k].cycles;
            if (!waits) {
                snprintf(err, errlen, "%s:%u: the steps from loop (line %u) to repeat never wait "
                         "(expect, send, sleep or think)", out->name, lineno, loop_line);
                io_script_free(out);
                return -1;
            }
        } else if (cl == 4 && !memcmp(cmd, "halt", 4)) {
            st.op = IO_SCRIPT_HALT;
            if (!blank(arg, al)) {
                snprintf(err, errlen, "%s:%u: halt takes nothing after it", out->name, lineno);
                io_script_free(out);
                return -1;
            }
        } else {
            char t[100];
            show(t, sizeof t, (const uint8_t *)cmd, cl < 20 ? cl : 20, 1);
            snprintf(err, errlen, "%s:%u: unknown command \"%s\" (expect, send, sleep, think, loop, "
                     "repeat, halt, #)", out->name, lineno, t);
            io_script_free(out);
            return -1;
        }
        if (add_step(out, &cap, st) < 0) {
            free(st.text);
            snprintf(err, errlen, "%s:%u: out of memory", out->name, lineno);
            io_script_free(out);
            return -1;
        }
    }
    return 0;
}

void io_script_free(struct io_script *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->step[i].text);
    free(s->step);
    s->step = NULL;
    s->n = 0;
}

/* ---- the running user ---- */

static void advance(struct io_term_user *u, uint64_t now);

/* Remembers when a round ended (the first IO_USER_ROUNDS_KEPT; a failed
 * allocation only loses the times, never the count). */
static void note_round(struct io_term_user *u, uint64_t now)
{
    if (u->nround_end == u->round_cap) {
        if (u->round_cap >= IO_USER_ROUNDS_KEPT)
            return;
        size_t nc = u->round_cap ? u->round_cap * 2 : 64;
        uint64_t *p = realloc(u->round_end, nc * sizeof *p);
        if (!p)
            return;
        u->round_end = p;
        u->round_cap = nc;
    }
    u->round_end[u->nround_end++] = now;
}

/* Drops the matched output and everything before it. */
static void consume(struct io_term_user *u, size_t upto)
{
    memmove(u->seen, u->seen + upto, u->seen_len - upto);
    u->seen_len -= upto;
}

static int search(struct io_term_user *u, const struct io_script_step *st)
{
    if (u->seen_len < st->len)
        return 0;
    for (size_t i = 0; i + st->len <= u->seen_len; i++)
        if (!memcmp(u->seen + i, st->text, st->len)) {
            consume(u, i + st->len);
            return 1;
        }
    return 0;
}

static void finish(struct io_term_user *u)
{
    u->state = IO_USER_DONE;
    io_timer_cancel(&u->timer);
}

static void advance(struct io_term_user *u, uint64_t now)
{
    while (u->pc < u->s->n) {
        const struct io_script_step *st = &u->s->step[u->pc];
        switch (st->op) {
        case IO_SCRIPT_EXPECT:
            if (search(u, st)) {
                u->matched++;
                u->pc++;
                continue;
            }
            io_timer_at(&u->timer, now + u->cfg.timeout_cycles);
            return;
        case IO_SCRIPT_SEND:
            u->sent = 0;
            io_timer_at(&u->timer, now + u->cfg.type_cycles);
            return;
        case IO_SCRIPT_SLEEP:
            if (!st->cycles) {
                u->pc++;
                continue;
            }
            io_timer_at(&u->timer, now + st->cycles);
            return;
        case IO_SCRIPT_THINK: {
            uint64_t t = io_rand_interarrival(&u->rng, (double)st->cycles, THINK_CAP);
            u->thought += t;
            io_timer_at(&u->timer, now + t);
            return;
        }
        case IO_SCRIPT_LOOP:
            if (!u->rounds)
                u->loop_at = now;
            u->pc++;
            continue;
        case IO_SCRIPT_REPEAT:
            u->rounds++;
            note_round(u, now);
            if (st->count && u->rounds >= st->count) {
                u->pc++;
                continue;
            }
            u->pc = st->target;
            continue;
        case IO_SCRIPT_HALT:
            u->pc++;
            finish(u);
            snprintf(u->failure, sizeof u->failure, "%s %.100s:%u: halt", u->who,
                     u->s->name, st->line);
            if (u->cfg.stop)
                u->cfg.stop(u->cfg.stop_ctx, u->failure);
            return;
        }
    }
    finish(u);
}

static void fire(void *ctx, uint64_t due)
{
    struct io_term_user *u = ctx;
    if (u->state != IO_USER_RUNNING || u->pc >= u->s->n)
        return;
    const struct io_script_step *st = &u->s->step[u->pc];
    switch (st->op) {
    case IO_SCRIPT_EXPECT: {
        char t[120];
        show(t, sizeof t, st->text, st->len, 0);
        snprintf(u->failure, sizeof u->failure,
                 "%s %.100s:%u: expect \"%s\" not seen within %.6g s of emulated time", u->who,
                 u->s->name, st->line, t,
                 (double)u->cfg.timeout_cycles / (double)IO_CYCLES_PER_SEC);
        u->state = IO_USER_FAILED;
        if (u->cfg.stop)
            u->cfg.stop(u->cfg.stop_ctx, u->failure);
        return;
    }
    case IO_SCRIPT_SEND:
        u->cfg.type(u->cfg.type_ctx, st->text[u->sent++]);
        u->typed++;
        if (u->sent < st->len) {
            io_timer_at(&u->timer, due + u->cfg.type_cycles);
            return;
        }
        u->pc++;
        advance(u, due);
        return;
    case IO_SCRIPT_SLEEP:
    case IO_SCRIPT_THINK:
        u->pc++;
        advance(u, due);
        return;
    case IO_SCRIPT_LOOP:
    case IO_SCRIPT_REPEAT:
    case IO_SCRIPT_HALT:
        return;
    }
}

int io_term_user_start(struct io_term_user *u, struct io_events *ev, const struct io_script *s,
                       const struct io_user_cfg *cfg)
{
    memset(u, 0, sizeof *u);
    u->s = s;
    u->cfg = *cfg;
    if (!u->cfg.type_cycles)
        u->cfg.type_cycles = 1;
    if (!u->cfg.timeout_cycles)
        u->cfg.timeout_cycles = 1;
    snprintf(u->who, sizeof u->who, "%s", cfg->who ? cfg->who : "console script");
    u->cfg.who = u->who;
    u->rng = cfg->seed;
    u->seen_cap = 4096;
    u->seen = malloc(u->seen_cap);
    if (!u->seen)
        return -1;
    io_timer_init(ev, &u->timer, fire, u);
    u->state = IO_USER_RUNNING;
    advance(u, io_now(ev));
    return 0;
}

void io_term_user_free(struct io_term_user *u)
{
    if (u->timer.q)
        io_timer_remove(&u->timer);
    free(u->seen);
    u->seen = NULL;
    free(u->round_end);
    u->round_end = NULL;
    u->nround_end = u->round_cap = 0;
}

void io_term_user_output(struct io_term_user *u, uint8_t c)
{
    if (u->state != IO_USER_RUNNING)
        return;
    if (u->seen_len == u->seen_cap) {
        if (u->seen_cap >= SEEN_MAX) {
            consume(u, u->seen_len - SEEN_KEEP);
        } else {
            uint8_t *p = realloc(u->seen, u->seen_cap * 2);
            if (!p) {
                consume(u, u->seen_len / 2);
            } else {
                u->seen = p;
                u->seen_cap *= 2;
            }
        }
    }
    u->seen[u->seen_len++] = c & 0x7F;
    if (u->pc >= u->s->n)
        return;
    const struct io_script_step *st = &u->s->step[u->pc];
    if (st->op != IO_SCRIPT_EXPECT || u->seen_len < st->len ||
        memcmp(u->seen + u->seen_len - st->len, st->text, st->len) != 0)
        return;
    u->seen_len = 0;
    u->matched++;
    u->pc++;
    io_timer_cancel(&u->timer);
    advance(u, io_now(u->timer.q));
}
