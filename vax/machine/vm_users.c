/* Scripted users (vm.h vm_console_script, vm_dz_script): the host side
 * of the console terminal and of the DZ11's eight lines.  A user follows
 * a script (vax/io/io_script.h), typing into the receiver and watching
 * what the guest transmits, on the machine's event queue; each dz0 line
 * may also have a log that receives its output. */
#include <stdio.h>
#include <string.h>

#include "vax/machine/vm_dev.h"
#include "vax/machine/vm_io.h"
#include "vax/machine/vm_users.h"

/* ---- a scripted user ---- */

/* A scripted user asks the machine to stop (a failed expect, `halt`). */
static void script_stop(void *ctx, const char *why)
{
    struct vax_machine *m = ctx;
    io_system_request_stop(m->io->sys, why);
    m->int_dirty = 1;
}

/* A scripted user, the console's or a DZ11 line's: checks the expect
 * timeout, parses the script into *s and starts *u on the machine's event
 * queue with cfg (its timeout and stop filled in here).  0, or -1 with a
 * message (nothing is left allocated). */
static int user_start(struct vax_machine *m, struct io_script *s, struct io_term_user *u,
                      const char *text, size_t len, const char *name, double timeout_s,
                      struct io_user_cfg *cfg, char *err, size_t errlen)
{
    if (!(timeout_s > 0) || timeout_s > 1e6) {
        snprintf(err, errlen, "expect timeout %g s out of range (0-1e6]", timeout_s);
        return -1;
    }
    if (io_script_parse(text, len, name, s, err, errlen) < 0)
        return -1;
    cfg->type_cycles = VM_SCRIPT_TYPE_CYCLES;
    cfg->timeout_cycles = (uint64_t)(timeout_s * (double)IO_CYCLES_PER_SEC + 0.5);
    cfg->stop = script_stop;
    cfg->stop_ctx = m;
    if (io_term_user_start(u, &m->io->sys->ev, s, cfg) < 0) {
        io_script_free(s);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->int_dirty = 1;
    return 0;
}

/* A started user's state, its failure message and the script line it is at. */
static enum vm_script_state user_state(const struct io_term_user *u, const char **msg,
                                       unsigned *line)
{
    *msg = "";
    *line = u->pc < u->s->n ? u->s->step[u->pc].line : 0;
    switch (u->state) {
    case IO_USER_DONE: return VM_SCRIPT_DONE;
    case IO_USER_FAILED: *msg = u->failure; return VM_SCRIPT_FAILED;
    default: return VM_SCRIPT_RUNNING;
    }
}

/* ---- the console's ---- */

/* The script types into the console receiver (RXDB). */
static void console_type(void *ctx, uint8_t c) { vm_console_receive(ctx, c); }

int vm_users_console_script(struct vax_machine *m, const char *text, size_t len,
                            const char *name, double timeout_s, char *err, size_t errlen)
{
    if (!m->io) {
        snprintf(err, errlen, "the machine has no I/O system");
        return -1;
    }
    if (m->io->con_user_on) {
        snprintf(err, errlen, "a console script is already running");
        return -1;
    }
    struct io_user_cfg cfg = {.type = console_type, .type_ctx = m, .who = "console script"};
    if (user_start(m, &m->io->con_script, &m->io->con_user, text, len, name, timeout_s,
                   &cfg, err, errlen) < 0)
        return -1;
    vm_dev_console_input(m, "", 0); /* the script types; the host's stdin does not */
    m->io->con_user_on = 1;
    return 0;
}

enum vm_script_state vm_console_script_state(const struct vax_machine *m, const char **msg,
                                             unsigned *line)
{
    *msg = "";
    *line = 0;
    if (!m->io || !m->io->con_user_on)
        return VM_SCRIPT_NONE;
    return user_state(&m->io->con_user, msg, line);
}

/* ---- dz0's lines ---- */

static struct io_dz *dz0(const struct vax_machine *m)
{
    return m->io && m->io->sys->ndz ? &m->io->sys->dz[0] : NULL;
}

static void line_output(void *ctx, unsigned line, uint8_t c, uint64_t when)
{
    (void)when;
    struct vax_machine *m = ctx;
    struct vm_io *io = m->io;
    if (line >= IO_DZ_LINES)
        return;
    FILE *log = io->dz_log[line];
    if (log && !io->dz_log_failed[line] && putc(c & 0x7F, log) == EOF)
        io->dz_log_failed[line] = 1; /* the caller reports it */
    if (io->dz_user_on[line])
        io_term_user_output(&io->dz_user[line], c);
}

/* A keystroke into the line's receiver; a character the DZ11 does not
 * take (scanner or receiver off, silo full) is lost, as a real
 * terminal's would be, and counted by the DZ11. */
static void user_type(void *ctx, uint8_t c)
{
    struct vm_dz_port *p = ctx;
    struct io_dz *dz = dz0(p->m);
    if (dz) {
        io_dz_receive(dz, p->line, c);
        p->m->int_dirty = 1;
    }
}

void vm_users_setup(struct vax_machine *m)
{
    if (!m->io)
        return;
    struct io_dz *dz = dz0(m);
    if (dz)
        io_dz_set_output(dz, line_output, m);
    for (unsigned l = 0; l < IO_DZ_LINES; l++)
        m->io->dz_port[l] = (struct vm_dz_port){.m = m, .line = l};
}

void vm_users_free(struct vax_machine *m)
{
    if (!m->io)
        return;
    if (m->io->con_user_on)
        io_term_user_free(&m->io->con_user);
    io_script_free(&m->io->con_script);
    for (unsigned l = 0; l < IO_DZ_LINES; l++) {
        if (m->io->dz_user_on[l])
            io_term_user_free(&m->io->dz_user[l]);
        m->io->dz_user_on[l] = 0;
        io_script_free(&m->io->dz_script[l]);
    }
}

int vm_users_dz_script(struct vax_machine *m, unsigned line, const char *text, size_t len,
                       const char *name, double timeout_s, uint64_t seed, char *err,
                       size_t errlen)
{
    if (!dz0(m)) {
        snprintf(err, errlen, "the machine has no DZ11");
        return -1;
    }
    if (line >= IO_DZ_LINES) {
        snprintf(err, errlen, "no line %u on dz0 (0-%u)", line, IO_DZ_LINES - 1);
        return -1;
    }
    if (m->io->dz_user_on[line]) {
        snprintf(err, errlen, "dz0 line %u already has a script", line);
        return -1;
    }
    char who[32];
    snprintf(who, sizeof who, "dz0 line %u script", line);
    struct io_user_cfg cfg = {.type = user_type, .type_ctx = &m->io->dz_port[line], .seed = seed,
                              .who = who};
    if (user_start(m, &m->io->dz_script[line], &m->io->dz_user[line], text, len, name,
                   timeout_s, &cfg, err, errlen) < 0)
        return -1;
    m->io->dz_user_on[line] = 1;
    return 0;
}

int vm_dz_log(struct vax_machine *m, unsigned line, void *file)
{
    if (!dz0(m) || line >= IO_DZ_LINES)
        return -1;
    m->io->dz_log[line] = file;
    m->io->dz_log_failed[line] = 0;
    return 0;
}

enum vm_script_state vm_dz_script_state(const struct vax_machine *m, unsigned line,
                                        struct vm_user_info *out)
{
    memset(out, 0, sizeof *out);
    out->msg = "";
    if (!dz0(m) || line >= IO_DZ_LINES)
        return out->state = VM_SCRIPT_NONE;
    out->log_failed = m->io->dz_log_failed[line];
    if (!m->io->dz_user_on[line])
        return out->state = VM_SCRIPT_NONE;
    const struct io_term_user *u = &m->io->dz_user[line];
    out->state = user_state(u, &out->msg, &out->line);
    out->rounds = u->rounds;
    out->typed = u->typed;
    out->matched = u->matched;
    out->think_cycles = u->thought;
    out->loop_at = u->loop_at;
    out->round_end = u->round_end;
    out->nround_end = u->nround_end;
    return out->state;
}
