/* Printing where a trace's time went (spamctl_cpu.h). */
#include "cli/spamctl_cpu.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "spam/spam_names.h"

const char *cpu_program(const struct spam_cpu_proc *p, const struct spam_gnames *g)
{
    return p->have_prog ? spam_gnames_path(g, p->major, p->minor, p->inode) : NULL;
}

static double share(uint64_t x, uint64_t span)
{
    return span ? 100.0 * (double)x / (double)span : 0.0;
}

/* by time, most first; ties by pid */
static int by_time(const void *x, const void *y)
{
    const struct spam_cpu_proc *a = *(const struct spam_cpu_proc *const *)x;
    const struct spam_cpu_proc *b = *(const struct spam_cpu_proc *const *)y;
    uint64_t ta = a->user_us + a->sys_us, tb = b->user_us + b->sys_us;
    if (ta != tb)
        return ta > tb ? -1 : 1;
    return a->pid < b->pid ? -1 : a->pid > b->pid;
}

static const struct spam_cpu_proc **procs_by_time(const struct spam_cpu *c, size_t *n)
{
    const struct spam_cpu_proc *p = spam_cpu_procs(c, n);
    const struct spam_cpu_proc **v = malloc((*n ? *n : 1) * sizeof *v);
    if (!v) {
        *n = 0;
        return NULL;
    }
    for (size_t i = 0; i < *n; i++)
        v[i] = &p[i];
    qsort(v, *n, sizeof *v, by_time);
    return v;
}

static size_t vectors_by_time(const struct spam_cpu *c, unsigned *out)
{
    size_t n = 0;
    for (unsigned v = 0; v < SPAM_CPU_VECTORS; v++) {
        const struct spam_cpu_vec *x = spam_cpu_vector(c, v);
        if (!x->count && !x->us)
            continue;
        size_t j = n++;
        while (j > 0 && spam_cpu_vector(c, out[j - 1])->us < x->us) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = v;
    }
    return n;
}

void cpu_print_text(FILE *f, const struct spam_cpu *c, const struct spam_gnames *g,
                    const char *indent, size_t max_vec, size_t max_proc)
{
    uint64_t span = spam_cpu_span(c);
    char nm[160];
    fprintf(f, "%s%-44s %11s %7s %9s\n", indent, "", "us", "share", "count");
    fprintf(f, "%s%-44s %11" PRIu64 " %6.2f%%\n", indent, "idle", spam_cpu_idle(c),
            share(spam_cpu_idle(c), span));
    unsigned vec[SPAM_CPU_VECTORS];
    size_t nv = vectors_by_time(c, vec);
    for (size_t i = 0; i < nv && (!max_vec || i < max_vec); i++) {
        const struct spam_cpu_vec *x = spam_cpu_vector(c, vec[i]);
        spam_event_describe_g(SPAM_EVENT(SPAM_CLASS_INTERRUPT, vec[i] * 4), g, nm, sizeof nm);
        fprintf(f, "%s%-44.44s %11" PRIu64 " %6.2f%% %9" PRIu64 "\n", indent, nm, x->us,
                share(x->us, span), x->count);
    }
    size_t np;
    const struct spam_cpu_proc **p = procs_by_time(c, &np);
    fprintf(f, "%s%-8s %-35s %11s %7s %9s %11s %11s\n", indent, "pid", "program", "us", "share",
            "switches", "user us", "kernel us");
    for (size_t i = 0; i < np && (!max_proc || i < max_proc); i++) {
        const char *prog = cpu_program(p[i], g);
        char pid[16];
        snprintf(pid, sizeof pid, p[i]->pid < 0 ? "unknown" : "%d", (int)p[i]->pid);
        uint64_t t = p[i]->user_us + p[i]->sys_us;
        fprintf(f, "%s%-8s %-35.35s %11" PRIu64 " %6.2f%% %9" PRIu64 " %11" PRIu64 " %11" PRIu64
                   "\n",
                indent, pid, prog ? prog : "-", t, share(t, span), p[i]->switches, p[i]->user_us,
                p[i]->sys_us);
    }
    fprintf(f, "%s(%" PRIu64 " us from the first event to the last)\n", indent, span);
    free(p);
}

static void csv_text(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++)
        fprintf(f, *s == '"' ? "\"\"" : "%c", *s);
    fputc('"', f);
}

void cpu_print_csv(FILE *f, const struct spam_cpu *c, const struct spam_gnames *g)
{
    uint64_t span = spam_cpu_span(c);
    char nm[160];
    fprintf(f, "kind,id,name,user_us,kernel_us,us,share,count\n");
    fprintf(f, "idle,,,,,%" PRIu64 ",%.3f,\n", spam_cpu_idle(c), share(spam_cpu_idle(c), span));
    unsigned vec[SPAM_CPU_VECTORS];
    size_t nv = vectors_by_time(c, vec);
    for (size_t i = 0; i < nv; i++) {
        const struct spam_cpu_vec *x = spam_cpu_vector(c, vec[i]);
        spam_event_describe_g(SPAM_EVENT(SPAM_CLASS_INTERRUPT, vec[i] * 4), g, nm, sizeof nm);
        fprintf(f, "interrupt,0x%X,", vec[i] * 4);
        csv_text(f, nm);
        fprintf(f, ",,,%" PRIu64 ",%.3f,%" PRIu64 "\n", x->us, share(x->us, span), x->count);
    }
    size_t np;
    const struct spam_cpu_proc **p = procs_by_time(c, &np);
    for (size_t i = 0; i < np; i++) {
        uint64_t t = p[i]->user_us + p[i]->sys_us;
        fprintf(f, "process,%d,", (int)p[i]->pid);
        const char *prog = cpu_program(p[i], g);
        if (prog)
            csv_text(f, prog);
        fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.3f,%" PRIu64 "\n", p[i]->user_us,
                p[i]->sys_us, t, share(t, span), p[i]->switches);
    }
    free(p);
}

json_t *cpu_json(const struct spam_cpu *c, const struct spam_gnames *g)
{
    uint64_t span = spam_cpu_span(c);
    char nm[160];
    json_t *o = json_object(), *iv = json_array(), *pv = json_array();
    if (!o || !iv || !pv) {
        json_decref(o);
        json_decref(iv);
        json_decref(pv);
        return NULL;
    }
    json_object_set_new(o, "unit", json_string("us"));
    json_object_set_new(o, "span_us", json_integer((json_int_t)span));
    json_object_set_new(o, "idle_us", json_integer((json_int_t)spam_cpu_idle(c)));
    json_object_set_new(o, "idle_share", json_real(share(spam_cpu_idle(c), span)));
    unsigned vec[SPAM_CPU_VECTORS];
    size_t nv = vectors_by_time(c, vec);
    for (size_t i = 0; i < nv; i++) {
        const struct spam_cpu_vec *x = spam_cpu_vector(c, vec[i]);
        spam_event_describe_g(SPAM_EVENT(SPAM_CLASS_INTERRUPT, vec[i] * 4), g, nm, sizeof nm);
        json_array_append_new(iv, json_pack("{s:i, s:s, s:I, s:f, s:I}", "vector", vec[i] * 4,
                                            "name", nm, "us", (json_int_t)x->us, "share",
                                            share(x->us, span), "count", (json_int_t)x->count));
    }
    size_t np;
    const struct spam_cpu_proc **p = procs_by_time(c, &np);
    for (size_t i = 0; i < np; i++) {
        uint64_t t = p[i]->user_us + p[i]->sys_us;
        json_t *e = json_pack("{s:i, s:i, s:I, s:I, s:I, s:f, s:I}", "pid", (int)p[i]->pid, "uid",
                              (int)p[i]->uid, "user_us", (json_int_t)p[i]->user_us, "kernel_us",
                              (json_int_t)p[i]->sys_us, "us", (json_int_t)t, "share",
                              share(t, span), "switches", (json_int_t)p[i]->switches);
        const char *prog = cpu_program(p[i], g);
        if (e && p[i]->have_prog) {
            json_object_set_new(e, "major", json_integer(p[i]->major));
            json_object_set_new(e, "minor", json_integer(p[i]->minor));
            json_object_set_new(e, "inode", json_integer(p[i]->inode));
        }
        if (e && prog)
            json_object_set_new(e, "program", json_string(prog));
        json_array_append_new(pv, e);
    }
    free(p);
    json_object_set_new(o, "interrupts", iv);
    json_object_set_new(o, "processes", pv);
    return o;
}
