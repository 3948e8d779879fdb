/* A small made-up guest for the probe language's tests
 * (lang_guest.h): a few kernel symbols, a 256 KB kernel text, two
 * programs, a system call and a vector. */
#include "tests/probe/lang_guest.h"

#include <stdio.h>
#include <string.h>


static const struct { const char *name; uint32_t v, entry; } ksyms[] = {
    {"ipintr", 0x80012344u, 2}, {"Copyin", 0x80001000u, 0}, {"time", 0x80030000u, 2},
    {"hz", 0x80030010u, 2}, {"namei", 0x80014000u, 2}, {"pagein", 0x80015000u, 2},
    {"syscall", 0x80016000u, 2}, {"exit", 0x80017000u, 2}, {"bread", 0x80018000u, 2},
    {"Swtch", 0x80019000u, 0},
};

static int r_ksym(void *ctx, const char *name, uint32_t *v, uint32_t *entry, char *err, size_t n)
{
    (void)ctx;
    if (name[0] == '_')
        name++;
    for (size_t i = 0; i < sizeof ksyms / sizeof ksyms[0]; i++)
        if (!strcmp(ksyms[i].name, name)) {
            *v = ksyms[i].v;
            *entry = ksyms[i].entry;
            return 0;
        }
    snprintf(err, n, "no kernel symbol '%s'", name);
    return -1;
}

static int r_ktext(void *ctx, uint32_t *lo, uint32_t *hi, char *err, size_t n)
{
    (void)ctx, (void)err, (void)n;
    *lo = 0x80000000u;
    *hi = 0x80040000u; /* 256 KB */
    return 0;
}

static int r_prog(void *ctx, const char *path, uint32_t *prog, char *err, size_t n)
{
    (void)ctx;
    if (!strcmp(path, "/bin/ls") || !strcmp(path, "ls")) {
        *prog = 0x42;
        return 0;
    }
    if (!strcmp(path, "/usr/ucb/vi")) {
        *prog = 6u << 16 | 0x123;
        return 0;
    }
    snprintf(err, n, "no program '%s' on the disk", path);
    return -1;
}

static int r_usym(void *ctx, const char *path, const char *name, uint32_t *v, uint32_t *entry,
                  char *err, size_t n)
{
    (void)ctx;
    if (!strcmp(path, "/bin/ls") && !strcmp(name, "main")) {
        *v = 0x100;
        *entry = 2;
        return 0;
    }
    snprintf(err, n, "%s has no symbol '%s'", path, name);
    return -1;
}

static int r_syscall(void *ctx, const char *name, uint32_t *code, char *err, size_t n)
{
    (void)ctx;
    if (!strcmp(name, "read")) {
        *code = 3;
        return 0;
    }
    snprintf(err, n, "no system call '%s'", name);
    return -1;
}

static int r_vector(void *ctx, const char *name, uint32_t *vec, char *err, size_t n)
{
    (void)ctx;
    if (!strcmp(name, "hardclock")) {
        *vec = 0xC0;
        return 0;
    }
    snprintf(err, n, "no vector '%s'", name);
    return -1;
}

const struct prb_lang_resolver lang_guest = {
    .ksym = r_ksym, .ktext = r_ktext, .prog = r_prog, .usym = r_usym, .syscall = r_syscall,
    .vector = r_vector, .comm_mul = 7, .comm_mod = 1021,
};

