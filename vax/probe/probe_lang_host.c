/* The probe language's host side (probe_lang.h): BEGIN, END and interval
 * blocks run by the host, printf's formatting of the records the
 * machine's probes write, and the text of map keys and values. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "vax/probe/probe_lang_int.h"

const char *prb_lang_unit_name(enum prb_lang_unit u)
{
    switch (u) {
    case PRB_U_US: return "us";
    case PRB_U_CYCLES: return "microcycles";
    case PRB_U_NS: return "ns";
    case PRB_U_BYTES: return "bytes";
    default: return "";
    }
}

static const char *const modes[] = {"kernel", "executive", "supervisor", "user"};

void prb_lang_value_text(enum prb_lang_type t, int64_t v, const struct prb_lang_host *h,
                         char *buf, size_t len)
{
    const char *nm = NULL;
    char nb[160];
    switch (t) {
    case PRB_T_INT: snprintf(buf, len, "%" PRId64, v); return;
    case PRB_T_UINT: snprintf(buf, len, "%" PRIu64, (uint64_t)v & 0xFFFFFFFFu); return;
    case PRB_T_MODE:
        if (v >= 0 && v < 4) {
            snprintf(buf, len, "%s", modes[v]);
            return;
        }
        break;
    default:
        if (h && h->name)
            nm = h->name(h->ctx, t, (uint32_t)v, nb, sizeof nb);
        break;
    }
    if (nm) {
        snprintf(buf, len, "%s", nm);
        return;
    }
    switch (t) {
    case PRB_T_KADDR: case PRB_T_KFUNC: case PRB_T_UADDR:
        snprintf(buf, len, "0x%08" PRIx32, (uint32_t)v);
        return;
    case PRB_T_COMM:
        snprintf(buf, len, "prog 0x%" PRIx32, (uint32_t)v);
        return;
    case PRB_T_COMMKEY:
        snprintf(buf, len, "comm #%" PRIu32, (uint32_t)v);
        return;
    case PRB_T_VECTOR:
        snprintf(buf, len, "0x%" PRIx32, (uint32_t)v);
        return;
    default:
        snprintf(buf, len, "%" PRId64, v);
        return;
    }
}

/* ---- keys ---- */

void prb_lang_key_text(const struct prb_lang *l, unsigned map, uint32_t key,
                       const struct prb_lang_host *h, char *buf, size_t len)
{
    const struct prb_lang_map *m = &l->map[map];
    buf[0] = 0;
    if (!m->nkey)
        return;
    uint32_t keys = l->prog.map[map].keys;
    if (key >= keys) {
        snprintf(buf, len, "%s", m->nkey == 1 && (m->key[0].type == PRB_T_KADDR ||
                                                  m->key[0].type == PRB_T_KFUNC)
                                     ? "outside the kernel's text"
                                     : "beyond the map's keys");
        return;
    }
    uint32_t part[PRB_LANG_MAX_KEYS];
    for (unsigned i = m->nkey; i-- > 0;) {
        part[i] = key % m->key[i].range;
        key /= m->key[i].range;
    }
    size_t n = 0;
    for (unsigned i = 0; i < m->nkey; i++) {
        const struct prb_lang_keypart *k = &m->key[i];
        int64_t v;
        switch (k->type) {
        case PRB_T_KADDR: case PRB_T_KFUNC:
            v = (int64_t)(k->base + (part[i] << k->shift));
            break;
        case PRB_T_COMMKEY: v = part[i]; break;
        default: v = (int64_t)part[i] + k->lo; break;
        }
        char t[160];
        if (k->type == PRB_T_PROBE && v >= 0 && (unsigned)v < l->nsprobe)
            snprintf(t, sizeof t, "%s", l->sprobe[v].text);
        else
            prb_lang_value_text(k->type, v, h, t, sizeof t);
        int w = snprintf(buf + n, len - n, "%s%s", i ? ", " : "", t);
        if (w < 0 || (size_t)w >= len - n)
            return;
        n += (size_t)w;
    }
}

/* ---- printf ---- */

/* Formats fmt with values (their types) into buf; host values are 64
 * bits, a record's 32.  l names the script's probes (%s of `probe`). */
static void format(const struct prb_lang *l, const char *fmt, const int64_t *v,
                   const enum prb_lang_type *t, unsigned nv, int rec32,
                   const struct prb_lang_host *h, char *buf, size_t len)
{
    size_t n = 0;
    unsigned k = 0;
#define PUT(...)                                                                            \
    do {                                                                                    \
        int w_ = snprintf(buf + n, len - n, __VA_ARGS__);                                   \
        if (w_ < 0 || (size_t)w_ >= len - n) {                                              \
            n = len - 1;                                                                    \
            goto done;                                                                      \
        }                                                                                   \
        n += (size_t)w_;                                                                    \
    } while (0)
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            PUT("%c", *p);
            continue;
        }
        if (p[1] == '%') {
            PUT("%%");
            p++;
            continue;
        }
        char spec[32];
        size_t s = 0;
        spec[s++] = '%';
        p++;
        while (*p && strchr("-+ #0123456789.", *p) && s < 20)
            spec[s++] = *p++;
        while (*p == 'l' || *p == 'h' || *p == 'z')
            p++;
        char conv = *p;
        if (!conv)
            break;
        int64_t x = k < nv ? v[k] : 0;
        enum prb_lang_type ty = k < nv ? t[k] : PRB_T_INT;
        k++;
        switch (conv) {
        case 'd': case 'i':
            if (rec32)
                x = (int32_t)(uint32_t)x;
            memcpy(spec + s, "lld", 4);
            PUT(spec, (long long)x);
            break;
        case 'u': case 'x': case 'X': case 'o':
            if (rec32)
                x = (uint32_t)x;
            spec[s++] = 'l';
            spec[s++] = 'l';
            spec[s++] = conv;
            spec[s] = 0;
            PUT(spec, (unsigned long long)x);
            break;
        case 'p':
            PUT("0x%08" PRIx32, (uint32_t)x);
            break;
        case 'c':
            spec[s++] = 'c';
            spec[s] = 0;
            PUT(spec, (int)(unsigned char)x);
            break;
        case 's': {
            char nb[160];
            if (ty == PRB_T_PROBE && x >= 0 && (uint64_t)x < l->nsprobe)
                snprintf(nb, sizeof nb, "%s", l->sprobe[x].text);
            else
                prb_lang_value_text(ty, x, h, nb, sizeof nb);
            spec[s++] = 's';
            spec[s] = 0;
            PUT(spec, nb);
            break;
        }
        default: PUT("%%%c", conv); break;
        }
    }
done:
    buf[n < len ? n : len - 1] = 0;
#undef PUT
}

int prb_lang_format_record(const struct prb_lang *l, unsigned tag, const uint32_t *vals,
                           unsigned n, const struct prb_lang_host *h, char *buf, size_t len)
{
    if (tag >= l->nfmt)
        return -1;
    const struct prb_lang_fmt *f = &l->fmt[tag];
    int64_t v[PRB_LANG_MAX_ARGS];
    unsigned nv = n < PRB_LANG_MAX_ARGS ? n : PRB_LANG_MAX_ARGS;
    for (unsigned i = 0; i < nv; i++)
        v[i] = vals[i];
    if (f->fmt) {
        format(l, f->fmt, v, f->type, nv, 1, h, buf, len);
        return 0;
    }
    size_t k = 0;
    int w = snprintf(buf, len, "record %u (%s):", tag,
                     f->probe >= 0 && (unsigned)f->probe < l->nsprobe ? l->sprobe[f->probe].text : "?");
    if (w < 0 || (size_t)w >= len)
        return 0;
    k = (size_t)w;
    for (unsigned i = 0; i < nv && k < len; i++) {
        char t[160];
        prb_lang_value_text(i < f->nargs ? f->type[i] : PRB_T_INT, (int32_t)vals[i], h, t,
                            sizeof t);
        w = snprintf(buf + k, len - k, " %s", t);
        if (w < 0 || (size_t)w >= len - k)
            break;
        k += (size_t)w;
    }
    return 0;
}

/* ---- the host's blocks ---- */

struct henv {
    const struct prb_lang *l;
    const struct prb_lang_host *h;
    const char *name[16];
    int64_t val[16];
    unsigned n;
};

static int64_t *hvar(struct henv *e, const char *name)
{
    for (unsigned i = 0; i < e->n; i++)
        if (!strcmp(e->name[i], name))
            return &e->val[i];
    if (e->n == 16)
        return NULL;
    e->name[e->n] = name;
    e->val[e->n] = 0;
    return &e->val[e->n++];
}

static int64_t heval(struct henv *e, const struct node *n);

/* A map's key from its components' values, as the machine makes it. */
static uint32_t hkey(struct henv *e, unsigned map, const struct node *keys)
{
    const struct prb_lang_map *m = &e->l->map[map];
    uint32_t total = e->l->prog.map[map].keys;
    uint64_t acc = 0;
    unsigned i = 0;
    for (const struct node *k = keys; k && i < m->nkey; k = k->next, i++) {
        const struct prb_lang_keypart *kp = &m->key[i];
        uint32_t v = (uint32_t)heval(e, k);
        switch (kp->type) {
        case PRB_T_KADDR: case PRB_T_KFUNC: v = (v - kp->base) >> kp->shift; break;
        case PRB_T_COMMKEY:
            v = ((v & 0xFFFF) + (v >> 16) * e->l->comm_mul) % (e->l->comm_mod ? e->l->comm_mod : 1);
            break;
        default: v -= (uint32_t)kp->lo; break;
        }
        if (v >= kp->range)
            return total;
        acc = acc * kp->range + v;
    }
    return acc < total ? (uint32_t)acc : total;
}

static int64_t heval(struct henv *e, const struct node *n)
{
    const struct prb_lang_host *h = e->h;
    switch (n->k) {
    case E_INT: return n->ival;
    case E_IDENT:
        if (!strcmp(n->s, "usecs"))
            return h->now_us ? (int64_t)h->now_us(h->ctx) : 0;
        if (!strcmp(n->s, "nsecs"))
            return h->now_us ? (int64_t)h->now_us(h->ctx) * 1000 : 0;
        if (!strcmp(n->s, "kernel") || !strcmp(n->s, "cpu"))
            return 0;
        if (!strcmp(n->s, "executive"))
            return 1;
        if (!strcmp(n->s, "supervisor"))
            return 2;
        if (!strcmp(n->s, "user"))
            return 3;
        return 0;
    case E_SVAR: {
        int64_t *v = hvar(e, n->s);
        return v ? *v : 0;
    }
    case E_MAP: {
        for (unsigned i = 0; i < e->l->prog.nmaps; i++)
            if (!strcmp(e->l->map[i].name, n->s))
                return h->map_value ? h->map_value(h->ctx, i, hkey(e, i, n->a)) : 0;
        return 0;
    }
    case E_CALL:
        if (!strcmp(n->s, "kaddr"))
            return n->ival;
        return n->a ? heval(e, n->a) : 0;
    case E_UN: {
        int64_t a = heval(e, n->a);
        return n->op == '-' ? -a : n->op == '~' ? ~a : !a;
    }
    case E_TERN: return heval(e, n->a) ? heval(e, n->b) : heval(e, n->c);
    case E_BIN: {
        if (n->op == OP_AND)
            return heval(e, n->a) && heval(e, n->b);
        if (n->op == OP_OR)
            return heval(e, n->a) || heval(e, n->b);
        int64_t a = heval(e, n->a), b = heval(e, n->b);
        switch (n->op) {
        case '+': return a + b;
        case '-': return a - b;
        case '*': return a * b;
        case '/': return b ? a / b : 0;
        case '%': return b ? a % b : 0;
        case '&': return a & b;
        case '|': return a | b;
        case '^': return a ^ b;
        case OP_SHL: return b >= 0 && b < 64 ? (int64_t)((uint64_t)a << b) : 0;
        case OP_SHR: return b >= 0 && b < 64 ? a >> b : 0;
        case OP_EQ: return a == b;
        case OP_NE: return a != b;
        case '<': return a < b;
        case '>': return a > b;
        case OP_LE: return a <= b;
        case OP_GE: return a >= b;
        default: return 0;
        }
    }
    default: return 0;
    }
}

static int hrun(struct henv *e, const struct node *s)
{
    const struct prb_lang_host *h = e->h;
    for (; s; s = s->next) {
        switch (s->k) {
        case S_EXPR: {
            const struct node *c = s->a;
            if (!strcmp(c->s, "exit"))
                return 1;
            if (!strcmp(c->s, "printf")) {
                const struct prb_lang_fmt *f = &e->l->fmt[c->ival];
                int64_t v[PRB_LANG_MAX_ARGS];
                unsigned k = 0;
                for (const struct node *x = c->a->next; x && k < PRB_LANG_MAX_ARGS; x = x->next)
                    v[k++] = heval(e, x);
                char buf[1024];
                format(e->l, f->fmt, v, f->type, k, 0, h, buf, sizeof buf);
                if (h->out)
                    h->out(h->ctx, buf);
            } else if (!strcmp(c->s, "print")) {
                const struct node *a2 = c->a->next, *a3 = a2 ? a2->next : NULL;
                if (h->print_map)
                    h->print_map(h->ctx, (unsigned)c->ival, a2 ? (unsigned)a2->ival : 0,
                                 a3 ? (unsigned)a3->ival : 1);
            } else if (!strcmp(c->s, "clear") || !strcmp(c->s, "zero")) {
                if (h->clear_map)
                    h->clear_map(h->ctx, (unsigned)c->ival);
            }
            break;
        }
        case S_SVAR: {
            int64_t *v = hvar(e, s->a->s);
            if (!v)
                break;
            switch (s->op) {
            case '=': *v = heval(e, s->b); break;
            case '+': *v += heval(e, s->b); break;
            case '-': *v -= heval(e, s->b); break;
            case 'i': (*v)++; break;
            default: (*v)--; break;
            }
            break;
        }
        case S_IF:
            if (heval(e, s->a) ? hrun(e, s->b) : s->c && hrun(e, s->c))
                return 1;
            break;
        case S_UNROLL:
            for (int64_t i = 0; i < s->ival; i++)
                if (hrun(e, s->b))
                    return 1;
            break;
        default: break;
        }
    }
    return 0;
}

int prb_lang_host_run(const struct prb_lang *l, unsigned block, const struct prb_lang_host *h)
{
    if (block >= l->nblock)
        return 0;
    struct henv e = {.l = l, .h = h};
    return hrun(&e, (const struct node *)l->block[block].body);
}
