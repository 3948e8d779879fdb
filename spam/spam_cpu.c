/* Where a trace's time went (spam_cpu.h): the accounting, streaming.
 *
 * A system call or exception at the bottom of the kernel (no interrupt
 * open) may sleep, and whether it did is known only at its REI: did a
 * context switch come first?  Its time waits in a pending entry, keyed by
 * the record index the REI names (open_index), until then. */
#include "spam/spam_cpu.h"

#include <stdlib.h>
#include <string.h>

enum base { BASE_SYS, BASE_USER, BASE_PENDING };

struct pending {
    uint64_t key; /* open_index + 1 (0: empty slot) */
    uint64_t us;
    uint64_t at_switch; /* the context switches counted when it began */
    int32_t pid;
};

struct spam_cpu {
    struct spam_cpu_proc *procs; /* per pid + 1 */
    uint8_t *seen;               /* per pid + 1 */
    struct spam_cpu_proc *list;  /* spam_cpu_procs' answer */
    size_t nlist;
    struct spam_cpu_vec vec[SPAM_CPU_VECTORS];
    uint64_t idle, first_t, last_t;
    int started;
    /* the state the last event left */
    int32_t pid;
    enum base base;
    uint64_t pend_key;
    uint16_t stack[SPAM_MAX_DEPTH];
    unsigned depth, overflow;
    /* pending calls: open addressing, linear probing, a power of two */
    struct pending *tab;
    size_t cap, used;
    uint64_t nswitch; /* context switches so far: a pending entry notes the count */
};

static size_t slot_of(const struct spam_cpu *c, uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 32) & (c->cap - 1);
}

static struct pending *find(struct spam_cpu *c, uint64_t key)
{
    if (!c->cap)
        return NULL;
    for (size_t i = slot_of(c, key);; i = (i + 1) & (c->cap - 1)) {
        if (c->tab[i].key == key)
            return &c->tab[i];
        if (!c->tab[i].key)
            return NULL;
    }
}

static int grow(struct spam_cpu *c)
{
    size_t ncap = c->cap ? c->cap * 2 : 64;
    struct pending *nt = calloc(ncap, sizeof *nt);
    if (!nt)
        return -1;
    struct pending *old = c->tab;
    size_t ocap = c->cap;
    c->tab = nt;
    c->cap = ncap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].key) {
            size_t j = slot_of(c, old[i].key);
            while (nt[j].key)
                j = (j + 1) & (ncap - 1);
            nt[j] = old[i];
        }
    free(old);
    return 0;
}

static struct pending *insert(struct spam_cpu *c, uint64_t key)
{
    if ((c->used + 1) * 2 > c->cap && grow(c) < 0)
        return NULL;
    size_t i = slot_of(c, key);
    while (c->tab[i].key && c->tab[i].key != key)
        i = (i + 1) & (c->cap - 1);
    if (!c->tab[i].key)
        c->used++;
    memset(&c->tab[i], 0, sizeof c->tab[i]);
    c->tab[i].key = key;
    return &c->tab[i];
}

/* Removes an entry, shifting later ones of its probe run back (no
 * tombstones). */
static void erase(struct spam_cpu *c, struct pending *p)
{
    size_t i = (size_t)(p - c->tab), j = i;
    c->tab[i].key = 0;
    c->used--;
    for (;;) {
        j = (j + 1) & (c->cap - 1);
        if (!c->tab[j].key)
            return;
        size_t k = slot_of(c, c->tab[j].key);
        /* j's entry may move to i unless its home k lies cyclically in (i, j] */
        if ((i <= j) ? (i < k && k <= j) : (i < k || k <= j))
            continue;
        c->tab[i] = c->tab[j];
        c->tab[j].key = 0;
        i = j;
    }
}

struct spam_cpu *spam_cpu_new(void)
{
    struct spam_cpu *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->procs = calloc(SPAM_CPU_PIDS, sizeof *c->procs);
    c->seen = calloc(SPAM_CPU_PIDS, 1);
    if (!c->procs || !c->seen) {
        spam_cpu_free(c);
        return NULL;
    }
    c->pid = SPAM_PID_UNKNOWN;
    return c;
}

void spam_cpu_free(struct spam_cpu *c)
{
    if (!c)
        return;
    free(c->procs);
    free(c->seen);
    free(c->list);
    free(c->tab);
    free(c);
}

static struct spam_cpu_proc *proc(struct spam_cpu *c, int32_t pid)
{
    size_t k = pid < 0 || pid >= SPAM_CPU_PIDS - 1 ? 0 : (size_t)pid + 1;
    if (!c->seen[k]) {
        c->seen[k] = 1;
        c->procs[k].pid = k ? pid : SPAM_PID_UNKNOWN;
        c->procs[k].uid = -1;
    }
    return &c->procs[k];
}

/* The time from the last event to this one, to the state it left. */
static void charge(struct spam_cpu *c, uint64_t dt)
{
    if (c->depth) {
        c->vec[(c->stack[c->depth - 1] & 0xFFF) / 4 % SPAM_CPU_VECTORS].us += dt;
        return;
    }
    if (c->base == BASE_PENDING) {
        struct pending *p = find(c, c->pend_key);
        if (p) {
            p->us += dt;
            return;
        }
    }
    struct spam_cpu_proc *p = proc(c, c->pid);
    if (c->base == BASE_USER)
        p->user_us += dt;
    else
        p->sys_us += dt;
}

int spam_cpu_event(struct spam_cpu *c, const struct spam_event *e)
{
    if (c->started && e->t_us > c->last_t)
        charge(c, e->t_us - c->last_t);
    if (!c->started)
        c->first_t = e->t_us;
    c->started = 1;
    if (e->t_us > c->last_t)
        c->last_t = e->t_us;
    c->pid = e->pid;
    switch (e->cls) {
    case SPAM_CLASS_LDPCTX: {
        struct spam_cpu_proc *p = proc(c, e->pid);
        p->switches++;
        if (!(e->flags & SPAM_EVF_CUTOFF)) {
            p->uid = e->uid;
            p->have_prog = 1;
            p->major = e->major;
            p->minor = e->minor;
            p->inode = e->inode;
        }
        c->depth = c->overflow = 0;
        c->base = BASE_SYS;
        c->nswitch++;
        break;
    }
    case SPAM_CLASS_INTERRUPT:
        c->vec[(e->ev & 0xFFF) / 4 % SPAM_CPU_VECTORS].count++;
        if (c->depth < SPAM_MAX_DEPTH)
            c->stack[c->depth++] = e->ev;
        else
            c->overflow++;
        break;
    case SPAM_CLASS_REI: {
        int matched = !(e->flags & SPAM_EVF_UNMATCHED);
        unsigned oc = matched ? (unsigned)e->open_ev >> 12 : 0;
        int user = spam_psl_cur_mode(e->psl_hi) == 3;
        if (oc == SPAM_CLASS_INTERRUPT) {
            if (c->overflow)
                c->overflow--;
            else if (c->depth)
                c->depth--;
            /* back to user mode: also after an interrupt whose stack a
             * context switch forgot (a process preempted in an AST or
             * clock interrupt and resumed) */
            if (!c->depth && !c->overflow && user)
                c->base = BASE_USER;
        } else if (!c->depth) {
            c->base = user ? BASE_USER : BASE_SYS;
        }
        if (matched && (oc == SPAM_CLASS_EXCEPTION || oc == SPAM_CLASS_CHM)) {
            struct pending *p = find(c, e->open_index + 1);
            if (p) {
                /* it slept if a context switch came between it and now */
                if (p->at_switch != c->nswitch)
                    c->idle += p->us;
                else
                    proc(c, p->pid)->sys_us += p->us;
                erase(c, p);
            }
        }
        break;
    }
    case SPAM_CLASS_EXCEPTION:
    case SPAM_CLASS_CHM:
        if (!c->depth) {
            struct pending *p = insert(c, e->index + 1);
            if (!p) {
                c->base = BASE_SYS;
                return -1;
            }
            p->pid = e->pid;
            p->at_switch = c->nswitch;
            c->base = BASE_PENDING;
            c->pend_key = e->index + 1;
        }
        break;
    default:
        break;
    }
    return 0;
}

static int by_pid(const void *x, const void *y)
{
    const struct spam_cpu_proc *a = x, *b = y;
    return a->pid < b->pid ? -1 : a->pid > b->pid;
}

void spam_cpu_finish(struct spam_cpu *c)
{
    /* calls that never returned: kernel time */
    for (size_t i = 0; i < c->cap; i++)
        if (c->tab[i].key) {
            proc(c, c->tab[i].pid)->sys_us += c->tab[i].us;
            c->tab[i].key = 0;
        }
    c->used = 0;
    c->base = BASE_SYS;
    free(c->list);
    c->list = NULL;
    c->nlist = 0;
    size_t n = 0;
    for (size_t k = 0; k < SPAM_CPU_PIDS; k++)
        n += c->seen[k];
    if (!n || !(c->list = malloc(n * sizeof *c->list)))
        return;
    for (size_t k = 0; k < SPAM_CPU_PIDS; k++)
        if (c->seen[k])
            c->list[c->nlist++] = c->procs[k];
    qsort(c->list, c->nlist, sizeof *c->list, by_pid);
}

uint64_t spam_cpu_span(const struct spam_cpu *c) { return c->started ? c->last_t - c->first_t : 0; }

uint64_t spam_cpu_idle(const struct spam_cpu *c) { return c->idle; }

const struct spam_cpu_vec *spam_cpu_vector(const struct spam_cpu *c, unsigned vec)
{
    return vec < SPAM_CPU_VECTORS ? &c->vec[vec] : NULL;
}

const struct spam_cpu_proc *spam_cpu_procs(const struct spam_cpu *c, size_t *n)
{
    *n = c->nlist;
    return c->list;
}
