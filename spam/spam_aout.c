#include "spam/spam_aout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microcode/le.h"


static int by_value_cmp(const void *x, const void *y)
{
    const struct spam_aout_sym *a = *(const struct spam_aout_sym *const *)x,
                               *b = *(const struct spam_aout_sym *const *)y;
    if (a->value != b->value)
        return a->value < b->value ? -1 : 1;
    /* externals first: the name a C programmer knows */
    int ea = a->type & SPAM_AOUT_N_EXT, eb = b->type & SPAM_AOUT_N_EXT;
    if (ea != eb)
        return ea ? -1 : 1;
    return strcmp(a->name, b->name);
}

int spam_aout_parse(struct spam_aout *a, const uint8_t *image, size_t len, struct spam_err *err)
{
    memset(a, 0, sizeof *a);
    if (len < 32) {
        spam_err_set(err, 0, "not an a.out image: %zu bytes, shorter than its header", len);
        return -1;
    }
    a->image = image;
    a->len = len;
    a->magic = le_get32(image);
    a->text = le_get32(image + 4);
    a->data = le_get32(image + 8);
    a->bss = le_get32(image + 12);
    a->syms = le_get32(image + 16);
    a->entry = le_get32(image + 20);
    uint32_t trsize = le_get32(image + 24), drsize = le_get32(image + 28);
    if (a->magic != 0407 && a->magic != 0410 && a->magic != 0413) {
        spam_err_set(err, 0, "not a VAX a.out image (magic 0%o; 0407, 0410 or 0413 expected)", a->magic);
        return -1;
    }
    a->text_off = a->magic == 0413 ? 1024 : 32;
    uint64_t data_off = (uint64_t)a->text_off + a->text, sym_off = data_off + a->data + trsize + drsize,
             str_off = sym_off + a->syms;
    if (str_off > len || a->syms % 12) {
        spam_err_set(err, 0, "a.out header: text %u, data %u, symbols %u bytes do not fit in %zu", a->text,
                     a->data, a->syms, len);
        return -1;
    }
    a->data_off = (size_t)data_off;
    uint32_t strsize = str_off + 4 <= len ? le_get32(image + str_off) : 0;
    if (strsize > len - str_off) {
        spam_err_set(err, str_off, "a.out string table: %u bytes do not fit", strsize);
        return -1;
    }
    a->nsym = a->syms / 12;
    a->sym = calloc(a->nsym ? a->nsym : 1, sizeof *a->sym);
    a->by_value = calloc(a->nsym ? a->nsym : 1, sizeof *a->by_value);
    if (!a->sym || !a->by_value) {
        spam_aout_free(a);
        spam_err_set(err, 0, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < a->nsym; i++) {
        const uint8_t *e = image + sym_off + 12 * i;
        uint32_t strx = le_get32(e);
        struct spam_aout_sym *s = &a->sym[i];
        s->type = e[4];
        s->value = le_get32(e + 8);
        s->name = "";
        if (strx >= 4 && strx < strsize) {
            const char *p = (const char *)image + str_off + strx;
            if (memchr(p, 0, strsize - strx))
                s->name = p;
        }
        unsigned t = s->type & SPAM_AOUT_N_TYPE;
        if (!(s->type & SPAM_AOUT_N_STAB) && *s->name && (t == SPAM_AOUT_N_TEXT || t == SPAM_AOUT_N_DATA))
            a->by_value[a->nby_value++] = s;
    }
    qsort(a->by_value, a->nby_value, sizeof *a->by_value, by_value_cmp);
    /* Where text and data sit: a kernel is linked at 0x80000000 (-T), which
     * the header does not say; _etext and _edata do. */
    const struct spam_aout_sym *et = spam_aout_lookup(a, "_etext"), *ed = spam_aout_lookup(a, "_edata");
    a->text_va = et && et->value >= a->text ? et->value - a->text
                 : a->magic == 0413 ? 0 : (a->entry & 0xC0000000u);
    if (ed && ed->value >= a->data)
        a->data_va = ed->value - a->data;
    else if (a->magic == 0407)
        a->data_va = a->text_va + a->text;
    else
        a->data_va = (a->text_va + a->text + 1023) & ~1023u; /* the next 1 KB page */
    return 0;
}

void spam_aout_free(struct spam_aout *a)
{
    free(a->sym);
    free(a->by_value);
    a->sym = NULL;
    a->by_value = NULL;
    a->nsym = a->nby_value = 0;
}

const struct spam_aout_sym *spam_aout_lookup(const struct spam_aout *a, const char *name)
{
    const struct spam_aout_sym *found = NULL;
    for (size_t i = 0; i < a->nsym; i++)
        if (!(a->sym[i].type & SPAM_AOUT_N_STAB) && strcmp(a->sym[i].name, name) == 0) {
            if (a->sym[i].type & SPAM_AOUT_N_EXT)
                return &a->sym[i];
            if (!found)
                found = &a->sym[i];
        }
    return found;
}

static size_t first_at(const struct spam_aout *a, uint32_t va)
{
    size_t lo = 0, hi = a->nby_value;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->by_value[mid]->value < va)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const char *spam_aout_name_at(const struct spam_aout *a, uint32_t va)
{
    size_t lo = first_at(a, va);
    return lo < a->nby_value && a->by_value[lo]->value == va ? a->by_value[lo]->name : NULL;
}

const char *spam_aout_names_at(const struct spam_aout *a, uint32_t va, char *buf, size_t len)
{
    size_t i = first_at(a, va), k = 0;
    if (!len || i >= a->nby_value || a->by_value[i]->value != va)
        return NULL;
    buf[0] = 0;
    int ext = a->by_value[i]->type & SPAM_AOUT_N_EXT; /* externals sort first */
    for (; i < a->nby_value && a->by_value[i]->value == va; i++) {
        const struct spam_aout_sym *s = a->by_value[i];
        if (ext && !(s->type & SPAM_AOUT_N_EXT))
            break;
        const char *n = s->name[0] == '_' ? s->name + 1 : s->name;
        int w = snprintf(buf + k, len - k, "%s%s", k ? "/" : "", n);
        if (w < 0 || (size_t)w >= len - k)
            break;
        k += (size_t)w;
        if (!ext)
            break; /* one local name is enough */
    }
    return buf;
}

int spam_aout_read32(const struct spam_aout *a, uint32_t va, uint32_t *v)
{
    uint64_t off;
    if (va >= a->text_va && (uint64_t)va + 4 <= (uint64_t)a->text_va + a->text)
        off = a->text_off + (va - a->text_va);
    else if (va >= a->data_va && (uint64_t)va + 4 <= (uint64_t)a->data_va + a->data)
        off = a->data_off + (va - a->data_va);
    else
        return -1;
    if (off + 4 > a->len)
        return -1;
    *v = le_get32(a->image + off);
    return 0;
}
