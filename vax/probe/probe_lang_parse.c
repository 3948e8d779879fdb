/* The probe language's lexer and parser (LANGUAGE.md, "Syntax"): text
 * to the syntax tree of probe_lang_int.h, every node with its line and
 * column; errors unwind through lang_fail. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vax/probe/probe_lang_int.h"

/* ---- the arena ---- */

struct lang_arena {
    struct lang_arena *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

void *lang_alloc(struct lang_arena **a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!*a || (*a)->cap - (*a)->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        struct lang_arena *b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->next = *a;
        b->used = 0;
        b->cap = cap;
        *a = b;
    }
    void *p = (*a)->data + (*a)->used;
    (*a)->used += n;
    memset(p, 0, n);
    return p;
}

char *lang_strdup(struct lang_arena **a, const char *s, size_t n)
{
    char *d = lang_alloc(a, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

void lang_arena_free(struct lang_arena *a)
{
    while (a) {
        struct lang_arena *n = a->next;
        free(a);
        a = n;
    }
}

void lang_fail(struct lang_ctx *c, unsigned line, unsigned col, const char *fmt, ...)
{
    c->err->line = line;
    c->err->col = col;
    int n = line ? snprintf(c->err->msg, sizeof c->err->msg, "%s:%u:%u: ", c->name, line, col)
                 : snprintf(c->err->msg, sizeof c->err->msg, "%s: ", c->name);
    if (n > 0 && (size_t)n < sizeof c->err->msg) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err->msg + n, sizeof c->err->msg - (size_t)n, fmt, ap);
        va_end(ap);
    }
    longjmp(c->fail, 1);
}

void *lang_new(struct lang_ctx *c, size_t n)
{
    void *p = lang_alloc(&c->arena, n);
    if (!p)
        lang_fail(c, 0, 0, "out of memory");
    return p;
}

/* ---- the lexer ---- */

enum tkind { T_EOF, T_INT, T_STR, T_IDENT, T_SVAR, T_MAP, T_OP };

struct tok {
    enum tkind k;
    const char *s;      /* its text in the source */
    size_t n;
    int op;             /* T_OP: a character or OP_* */
    int64_t ival;
    char *str;          /* T_STR: the unescaped string */
    unsigned line, col;
};

struct lex {
    struct lang_ctx *c;
    size_t pos;
    unsigned line, col;
    struct tok t;       /* the current token */
    int in_pred;        /* inside /.../: a '/' before '{' ends it */
};

static int at(const struct lex *x, size_t off)
{
    return x->pos + off < x->c->len ? (unsigned char)x->c->text[x->pos + off] : -1;
}

static void adv(struct lex *x, size_t n)
{
    while (n-- && x->pos < x->c->len) {
        if (x->c->text[x->pos++] == '\n') {
            x->line++;
            x->col = 1;
        } else {
            x->col++;
        }
    }
}

/* Skips blanks and comments (//, / * * /, a #! first line). */
static void skip(struct lex *x)
{
    for (;;) {
        int ch = at(x, 0);
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v') {
            adv(x, 1);
        } else if (ch == '/' && at(x, 1) == '/') {
            while (at(x, 0) >= 0 && at(x, 0) != '\n')
                adv(x, 1);
        } else if (ch == '/' && at(x, 1) == '*') {
            unsigned l = x->line, cl = x->col;
            adv(x, 2);
            while (at(x, 0) >= 0 && !(at(x, 0) == '*' && at(x, 1) == '/'))
                adv(x, 1);
            if (at(x, 0) < 0)
                lang_fail(x->c, l, cl, "a comment that never ends (no */)");
            adv(x, 2);
        } else if (ch == '#' && x->pos == 0 && at(x, 1) == '!') {
            while (at(x, 0) >= 0 && at(x, 0) != '\n')
                adv(x, 1);
        } else if (ch == 0) {
            lang_fail(x->c, x->line, x->col, "a NUL byte: not a text file");
        } else {
            return;
        }
    }
}

static int ident_start(int ch)
{
    return isalpha(ch) || ch == '_';
}

static int ident_char(int ch)
{
    return isalnum(ch) || ch == '_';
}

static void lex_string(struct lex *x)
{
    struct tok *t = &x->t;
    size_t cap = 64, n = 0;
    char *b = lang_new(x->c, cap);
    adv(x, 1);
    for (;;) {
        int ch = at(x, 0);
        if (ch < 0 || ch == '\n')
            lang_fail(x->c, t->line, t->col, "a string that never ends (no closing \")");
        if (ch == '"') {
            adv(x, 1);
            break;
        }
        if (ch == '\\') {
            unsigned l = x->line, cl = x->col;
            int e = at(x, 1);
            adv(x, 2);
            switch (e) {
            case 'n': ch = '\n'; break;
            case 't': ch = '\t'; break;
            case 'r': ch = '\r'; break;
            case '\\': ch = '\\'; break;
            case '"': ch = '"'; break;
            case '0': ch = 0; break;
            case 'x': {
                int v = 0, k = 0;
                while (k < 2 && isxdigit(at(x, 0))) {
                    int d = at(x, 0);
                    v = v * 16 + (isdigit(d) ? d - '0' : tolower(d) - 'a' + 10);
                    adv(x, 1);
                    k++;
                }
                if (!k)
                    lang_fail(x->c, l, cl, "\\x needs hex digits");
                ch = v;
                break;
            }
            default:
                lang_fail(x->c, l, cl, "unknown escape '\\%c' (\\n \\t \\r \\\\ \\\" \\0 \\xHH)",
                          e > 32 && e < 127 ? e : '?');
            }
            if (ch == 0)
                lang_fail(x->c, l, cl, "a NUL character in a string");
        } else {
            adv(x, 1);
        }
        if (n + 2 > cap) {
            char *nb = lang_new(x->c, cap * 2);
            memcpy(nb, b, n);
            b = nb;
            cap *= 2;
        }
        b[n++] = (char)ch;
    }
    b[n] = 0;
    t->k = T_STR;
    t->str = b;
}

static const struct { const char *s; int op; } ops2[] = {
    {"==", OP_EQ}, {"!=", OP_NE}, {"<=", OP_LE}, {">=", OP_GE}, {"<<", OP_SHL}, {">>", OP_SHR},
    {"&&", OP_AND}, {"||", OP_OR}, {"++", 'i'}, {"--", 'd'}, {"+=", 'P'}, {"-=", 'M'},
};

static void next(struct lex *x)
{
    skip(x);
    struct tok *t = &x->t;
    memset(t, 0, sizeof *t);
    t->line = x->line;
    t->col = x->col;
    t->s = x->c->text + x->pos;
    size_t start = x->pos;
    int ch = at(x, 0);
    if (ch < 0) {
        t->k = T_EOF;
        return;
    }
    if (isdigit(ch)) {
        size_t k = 0;
        while (isalnum(at(x, k)) || at(x, k) == '_')
            k++;
        char buf[40];
        if (k >= sizeof buf)
            lang_fail(x->c, t->line, t->col, "a number of more than %zu characters",
                      sizeof buf - 1);
        memcpy(buf, t->s, k);
        buf[k] = 0;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(buf, &end, 0);
        if (*end || errno)
            lang_fail(x->c, t->line, t->col, "'%s' is not a number", buf);
        if (v > 0xFFFFFFFFull)
            lang_fail(x->c, t->line, t->col, "%s does not fit 32 bits", buf);
        t->k = T_INT;
        t->ival = (int64_t)v;
        adv(x, k);
    } else if (ident_start(ch) || ((ch == '$' || ch == '@') && ident_start(at(x, 1)))) {
        size_t k = 1;
        while (ident_char(at(x, k)))
            k++;
        t->k = ch == '$' ? T_SVAR : ch == '@' ? T_MAP : T_IDENT;
        adv(x, k);
    } else if (ch == '@') {
        t->k = T_MAP; /* the anonymous map */
        adv(x, 1);
    } else if (ch == '$') {
        lang_fail(x->c, t->line, t->col, "'$' must start a variable's name ($name)");
    } else if (ch == '"') {
        lex_string(x);
    } else {
        t->k = T_OP;
        for (size_t i = 0; i < sizeof ops2 / sizeof ops2[0]; i++)
            if (ch == ops2[i].s[0] && at(x, 1) == ops2[i].s[1]) {
                t->op = ops2[i].op;
                adv(x, 2);
                t->n = 2;
                return;
            }
        if (!strchr("+-*/%&|^!~<>=(){}[],;:?", ch))
            lang_fail(x->c, t->line, t->col, "unexpected character '%c'",
                      isprint(ch) ? ch : '?');
        t->op = ch;
        adv(x, 1);
    }
    t->n = x->pos - start;
}

static int is_op(const struct lex *x, int op)
{
    return x->t.k == T_OP && x->t.op == op;
}

static const char *tok_desc(const struct tok *t, char *buf, size_t len)
{
    switch (t->k) {
    case T_EOF: return "the end of the program";
    case T_STR: return "a string";
    default: snprintf(buf, len, "'%.*s'", (int)(t->n > 40 ? 40 : t->n), t->s); return buf;
    }
}

static void expect(struct lex *x, int op, const char *what)
{
    if (!is_op(x, op)) {
        char b[64];
        lang_fail(x->c, x->t.line, x->t.col, "%s expected, not %s", what,
                  tok_desc(&x->t, b, sizeof b));
    }
    next(x);
}

/* ---- expressions ---- */

static struct node *mk(struct lex *x, enum nkind k, const struct tok *at_)
{
    struct node *n = lang_new(x->c, sizeof *n);
    n->k = k;
    n->line = at_->line;
    n->col = at_->col;
    return n;
}

static struct node *expr(struct lex *x);

/* Sets where a node's text ends (on its first line) from the lexer's
 * position before the current token. */
static void close_node(struct lex *x, struct node *n, const struct tok *last)
{
    (void)x;
    if (last->line == n->line)
        n->end_col = last->col + (unsigned)last->n;
    else
        n->end_col = n->col + 1;
}

/* A comma-separated list up to the closing character; returns its
 * first element, the count in *cnt. */
static struct node *list(struct lex *x, int close, unsigned *cnt, const char *what)
{
    struct node *first = NULL, **tail = &first;
    *cnt = 0;
    if (is_op(x, close)) {
        next(x);
        return NULL;
    }
    for (;;) {
        struct node *e = expr(x);
        *tail = e;
        tail = &e->next;
        (*cnt)++;
        if (is_op(x, ',')) {
            next(x);
            continue;
        }
        char b[32];
        snprintf(b, sizeof b, "',' or '%c'", close);
        (void)what;
        expect(x, close, b);
        return first;
    }
}

static struct node *primary(struct lex *x)
{
    struct tok t = x->t;
    struct node *n;
    switch (t.k) {
    case T_INT:
        n = mk(x, E_INT, &t);
        n->ival = t.ival;
        next(x);
        close_node(x, n, &t);
        return n;
    case T_STR:
        n = mk(x, E_STR, &t);
        n->s = t.str;
        next(x);
        return n;
    case T_SVAR:
        n = mk(x, E_SVAR, &t);
        n->s = lang_strdup(&x->c->arena, t.s, t.n);
        next(x);
        close_node(x, n, &t);
        return n;
    case T_MAP: {
        n = mk(x, E_MAP, &t);
        n->s = lang_strdup(&x->c->arena, t.s, t.n);
        if (strlen(n->s) >= PRB_NAME)
            lang_fail(x->c, t.line, t.col, "the map name %s is longer than %d characters",
                      n->s, PRB_NAME - 1);
        next(x);
        struct tok last = t;
        if (is_op(x, '[')) {
            struct tok open = x->t;
            next(x);
            n->a = list(x, ']', &n->n, "key");
            if (!n->n)
                lang_fail(x->c, open.line, open.col, "a map key expected between [ and ]");
            last = open;
            last.n = 1;
            n->end_col = 0;
        }
        close_node(x, n, &last);
        return n;
    }
    case T_IDENT: {
        n = mk(x, E_IDENT, &t);
        n->s = lang_strdup(&x->c->arena, t.s, t.n);
        next(x);
        if (is_op(x, '(')) {
            n->k = E_CALL;
            next(x);
            n->a = list(x, ')', &n->n, "argument");
        }
        close_node(x, n, &t);
        return n;
    }
    case T_OP:
        if (t.op == '(') {
            next(x);
            int saved = x->in_pred;
            x->in_pred = 0;
            n = expr(x);
            x->in_pred = saved;
            expect(x, ')', "')'");
            return n;
        }
        break;
    default:
        break;
    }
    char b[64];
    lang_fail(x->c, t.line, t.col, "an expression expected, not %s", tok_desc(&t, b, sizeof b));
}

static struct node *unary(struct lex *x)
{
    if (x->t.k == T_OP && (x->t.op == '-' || x->t.op == '!' || x->t.op == '~' || x->t.op == '+')) {
        struct tok t = x->t;
        next(x);
        struct node *a = unary(x);
        if (t.op == '+')
            return a;
        struct node *n = mk(x, E_UN, &t);
        n->op = t.op;
        n->a = a;
        return n;
    }
    if (is_op(x, 'i') || is_op(x, 'd'))
        lang_fail(x->c, x->t.line, x->t.col, "++ and -- go after a variable, as statements");
    return primary(x);
}

/* Binary operators by precedence, lowest first. */
static const int prec[][5] = {
    {OP_OR}, {OP_AND}, {'|'}, {'^'}, {'&'}, {OP_EQ, OP_NE}, {'<', '>', OP_LE, OP_GE},
    {OP_SHL, OP_SHR}, {'+', '-'}, {'*', '/', '%'},
};
#define NPREC (sizeof prec / sizeof prec[0])

/* Inside a predicate, a '/' followed by '{' closes it. */
static int pred_end(struct lex *x)
{
    if (!x->in_pred || !is_op(x, '/'))
        return 0;
    struct lex save = *x;
    next(x);
    int end = is_op(x, '{');
    *x = save;
    return end;
}

static struct node *binary(struct lex *x, unsigned level)
{
    if (level == NPREC)
        return unary(x);
    struct node *l = binary(x, level + 1);
    for (;;) {
        int hit = 0;
        for (unsigned i = 0; i < 5 && prec[level][i]; i++)
            if (is_op(x, prec[level][i]))
                hit = 1;
        if (!hit || pred_end(x))
            return l;
        struct tok t = x->t;
        next(x);
        struct node *n = mk(x, E_BIN, &t);
        n->op = t.op;
        n->a = l;
        n->b = binary(x, level + 1);
        n->line = l->line;
        n->col = l->col;
        n->end_col = n->b->line == n->line ? n->b->end_col : 0;
        l = n;
    }
}

static struct node *expr(struct lex *x)
{
    struct node *c = binary(x, 0);
    if (!is_op(x, '?'))
        return c;
    struct tok t = x->t;
    next(x);
    struct node *n = mk(x, E_TERN, &t);
    n->a = c;
    n->line = c->line;
    n->col = c->col;
    n->b = expr(x);
    expect(x, ':', "':' of ?:");
    n->c = expr(x);
    return n;
}

/* ---- statements ---- */

static struct node *block(struct lex *x);

static struct node *statement(struct lex *x)
{
    struct tok t = x->t;
    if (t.k == T_IDENT && t.n == 2 && !memcmp(t.s, "if", 2)) {
        next(x);
        struct node *n = mk(x, S_IF, &t);
        expect(x, '(', "'(' after if");
        n->a = expr(x);
        expect(x, ')', "')'");
        n->b = block(x);
        if (x->t.k == T_IDENT && x->t.n == 4 && !memcmp(x->t.s, "else", 4)) {
            next(x);
            if (x->t.k == T_IDENT && x->t.n == 2 && !memcmp(x->t.s, "if", 2))
                n->c = statement(x);
            else
                n->c = block(x);
        }
        return n;
    }
    if (t.k == T_IDENT && t.n == 6 && !memcmp(t.s, "unroll", 6)) {
        next(x);
        struct node *n = mk(x, S_UNROLL, &t);
        expect(x, '(', "'(' after unroll");
        if (x->t.k != T_INT)
            lang_fail(x->c, x->t.line, x->t.col, "unroll needs a constant count (1-%d)",
                      PRB_MAX_LOOP);
        n->ival = x->t.ival;
        if (n->ival < 1 || n->ival > PRB_MAX_LOOP)
            lang_fail(x->c, x->t.line, x->t.col, "unroll count %lld: 1 to %d",
                      (long long)n->ival, PRB_MAX_LOOP);
        next(x);
        expect(x, ')', "')'");
        n->b = block(x);
        return n;
    }
    if (t.k == T_IDENT && t.n == 4 && !memcmp(t.s, "else", 4))
        lang_fail(x->c, t.line, t.col, "else without if");
    struct node *lhs = expr(x);
    int op = 0;
    if (x->t.k == T_OP) {
        switch (x->t.op) {
        case '=': op = '='; break;
        case 'P': op = '+'; break;
        case 'M': op = '-'; break;
        case 'i': op = 'i'; break;
        case 'd': op = 'd'; break;
        default: break;
        }
    }
    if (!op) {
        if (lhs->k != E_CALL)
            lang_fail(x->c, lhs->line, lhs->col,
                      "a statement is an assignment or a call (printf, exit, ...)");
        struct node *n = mk(x, S_EXPR, &t);
        n->a = lhs;
        return n;
    }
    struct tok opt = x->t;
    if (lhs->k != E_SVAR && lhs->k != E_MAP)
        lang_fail(x->c, opt.line, opt.col, "only a $variable or an @map can be assigned");
    next(x);
    struct node *n = mk(x, lhs->k == E_SVAR ? S_SVAR : S_MAP, &t);
    n->op = op;
    n->a = lhs;
    if (op != 'i' && op != 'd')
        n->b = expr(x);
    return n;
}

/* { statement; ... } */
static struct node *block(struct lex *x)
{
    expect(x, '{', "'{'");
    struct node *first = NULL, **tail = &first;
    while (!is_op(x, '}')) {
        if (x->t.k == T_EOF)
            lang_fail(x->c, x->t.line, x->t.col, "'}' expected before the end of the program");
        if (is_op(x, ';')) {
            next(x);
            continue;
        }
        struct node *s = statement(x);
        *tail = s;
        tail = &s->next;
        if (is_op(x, '}'))
            break;
        if (s->k == S_IF || s->k == S_UNROLL)
            continue;
        expect(x, ';', "';' or '}'");
    }
    next(x);
    return first;
}

/* ---- probes ---- */

static int attach_char(int ch, int path)
{
    if (path)
        return ch > ' ' && ch != ':' && ch != ',' && ch != '{' && ch < 127;
    return isalnum(ch) || ch == '_' || ch == ':' || ch == '+' || ch == '.' || ch == '*' ||
           ch == '-' || ch == '$' || ch == '?' || ch == '[' || ch == ']';
}

/* An attach point: kind:a:b..., with a path for uprobes. */
static struct attach *attach_point(struct lex *x)
{
    skip(x);
    struct attach *a = lang_new(x->c, sizeof *a);
    a->line = x->line;
    a->col = x->col;
    size_t start = x->pos, k = 0;
    while (ident_char(at(x, k)))
        k++;
    if (!k) {
        char b[64];
        next(x);
        lang_fail(x->c, a->line, a->col, "a probe (kprobe:FUNC, BEGIN, ...) expected, not %s",
                  tok_desc(&x->t, b, sizeof b));
    }
    int up = (k == 6 && !memcmp(x->c->text + start, "uprobe", 6)) ||
             (k == 9 && !memcmp(x->c->text + start, "uretprobe", 9));
    adv(x, k);
    if (up && at(x, 0) == ':') {
        adv(x, 1);
        while (attach_char(at(x, 0), 1))
            adv(x, 1);
    }
    while (attach_char(at(x, 0), 0))
        adv(x, 1);
    a->text = lang_strdup(&x->c->arena, x->c->text + start, x->pos - start);
    return a;
}

void lang_parse(struct lang_ctx *c)
{
    struct lex x = {.c = c, .line = 1, .col = 1};
    struct pblock **tail = &c->blocks;
    for (;;) {
        skip(&x);
        if (x.pos >= c->len)
            break;
        struct pblock *b = lang_new(c, sizeof *b);
        b->line = x.line;
        b->col = x.col;
        struct attach **at_ = &b->ap;
        for (;;) {
            struct attach *a = attach_point(&x);
            *at_ = a;
            at_ = &a->next;
            skip(&x);
            if (at(&x, 0) != ',')
                break;
            adv(&x, 1);
        }
        next(&x);
        if (is_op(&x, '/')) {
            next(&x);
            x.in_pred = 1;
            if (is_op(&x, '/'))
                lang_fail(c, x.t.line, x.t.col, "an empty predicate");
            b->pred = expr(&x);
            x.in_pred = 0;
            expect(&x, '/', "'/' closing the predicate");
        }
        if (!is_op(&x, '{')) {
            char d[64];
            lang_fail(c, x.t.line, x.t.col, "'{' expected after the probe, not %s",
                      tok_desc(&x.t, d, sizeof d));
        }
        b->body = block(&x);
        *tail = b;
        tail = &b->next;
        /* the lexer has read one token ahead: step back to it */
        if (x.t.k != T_EOF) {
            x.pos = (size_t)(x.t.s - c->text);
            x.line = x.t.line;
            x.col = x.t.col;
        }
    }
    if (!c->blocks)
        lang_fail(c, 1, 1, "no probe in the program");
}

void lang_node_text(const struct lang_ctx *c, const struct node *n, char *buf, size_t len)
{
    /* the node's line from its column */
    size_t p = 0;
    for (unsigned l = 1; l < n->line && p < c->len; p++)
        if (c->text[p] == '\n')
            l++;
    p += n->col - 1;
    size_t e = p;
    if (n->end_col > n->col)
        e = p + (n->end_col - n->col);
    else
        while (e < c->len && c->text[e] != '\n' && c->text[e] != ';' && c->text[e] != ')')
            e++;
    if (e > c->len)
        e = c->len;
    size_t k = e > p ? e - p : 0;
    if (k >= len)
        k = len - 1;
    memcpy(buf, c->text + p, k);
    buf[k] = 0;
}
