/* Scripted users on dz0's lines (vm.h vm_dz_script): the host side of
 * the DZ11's eight terminals.  Each line may have a user following a
 * script (vax/io/io_script.h) who types into the line's receiver and
 * watches what the guest transmits, on the machine's event queue, and a
 * log that receives the line's output. */
#include <stdio.h>
#include <string.h>

#include "vax/machine/vm_io.h"

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

void vm_dz_users_setup(struct vax_machine *m)
{
    struct io_dz *dz = dz0(m);
    if (dz)
        io_dz_set_output(dz, line_output, m);
    for (unsigned l = 0; l < IO_DZ_LINES; l++)
        m->io->dz_port[l] = (struct vm_dz_port){.m = m, .line = l};
}

void vm_dz_users_free(struct vax_machine *m)
{
    for (unsigned l = 0; l < IO_DZ_LINES; l++) {
        if (m->io->dz_user_on[l])
            io_term_user_free(&m->io->dz_user[l]);
        m->io->dz_user_on[l] = 0;
        io_script_free(&m->io->dz_script[l]);
    }
}

int vm_dz_script(struct vax_machine *m, unsigned line, const char *text, size_t len,
                 const char *name, double timeout_s, uint64_t seed, char *err, size_t errlen)
{
    if (m->shadow) /* the lock-step check's second machine: the same user */
        vm_dz_script(m->shadow, line, text, len, name, timeout_s, seed, err, errlen);
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
    if (vm_io_user_start(m, &m->io->dz_script[line], &m->io->dz_user[line], text, len, name,
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
    out->state = vm_io_user_state(u, &out->msg, &out->line);
    out->rounds = u->rounds;
    out->typed = u->typed;
    out->matched = u->matched;
    out->think_cycles = u->thought;
    out->loop_at = u->loop_at;
    out->round_end = u->round_end;
    out->nround_end = u->nround_end;
    return out->state;
}
