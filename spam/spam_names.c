#include "spam/spam_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spam/spam_format.h"
#include "spam/spam_gnames.h"

static const char *const long_names[16] = {"invalid", "interrupt", "exception", "chm", "ldpctx",
                                           "rei",     "marker",    "probe"};
static const char *const short_names[16] = {"invalid", "int", "exc",   "chm",
                                            "ldpctx",  "rei", "marker", "probe"};

const char *spam_class_name(unsigned cls) { return cls < 16 && long_names[cls] ? long_names[cls] : "reserved"; }
const char *spam_class_short(unsigned cls) { return cls < 16 && short_names[cls] ? short_names[cls] : "reserved"; }

int spam_class_parse(const char *s)
{
    for (int i = 1; i <= SPAM_CLASS_PROBE; i++)
        if (strcmp(s, long_names[i]) == 0 || strcmp(s, short_names[i]) == 0)
            return i;
    if (strcmp(s, "chmk") == 0 || strcmp(s, "syscall") == 0)
        return SPAM_CLASS_CHM;
    return -1;
}

const char *spam_mode_name(unsigned mode)
{
    static const char *const m[4] = {"kernel", "executive", "supervisor", "user"};
    return m[mode & 3];
}

const char *spam_vector_name(unsigned vec, char *buf, size_t len)
{
    static const char *const exc[] = {
        [0x04 / 4] = "machine check", [0x08 / 4] = "kernel stack not valid",
        [0x0C / 4] = "power fail", [0x10 / 4] = "reserved instruction",
        [0x14 / 4] = "customer reserved instruction", [0x18 / 4] = "reserved operand",
        [0x1C / 4] = "reserved addressing mode", [0x20 / 4] = "access violation",
        [0x24 / 4] = "translation not valid", [0x28 / 4] = "trace pending",
        [0x2C / 4] = "breakpoint", [0x30 / 4] = "compatibility", [0x34 / 4] = "arithmetic",
        [0x40 / 4] = "chmk", [0x44 / 4] = "chme", [0x48 / 4] = "chms", [0x4C / 4] = "chmu",
    };
    if (vec < 0x50 && vec % 4 == 0 && exc[vec / 4])
        snprintf(buf, len, "%s", exc[vec / 4]);
    else if (vec >= 0x84 && vec <= 0xBC && vec % 4 == 0)
        snprintf(buf, len, "software %u", (vec - 0x80) / 4);
    else if (vec == 0xC0)
        snprintf(buf, len, "interval timer");
    else if (vec == 0xF8)
        snprintf(buf, len, "console receive");
    else if (vec == 0xFC)
        snprintf(buf, len, "console transmit");
    else if (vec >= 0x100)
        snprintf(buf, len, "device 0x%X", vec);
    else
        snprintf(buf, len, "vector 0x%X", vec);
    return buf;
}

const char *spam_guest_vector_name(const struct spam_gnames *g, unsigned vec, char *buf, size_t len)
{
    const char *n = spam_gnames_vector(g, vec);
    if (!n)
        return spam_vector_name(vec, buf, len);
    snprintf(buf, len, "%s", n);
    return buf;
}

const char *spam_event_describe(uint16_t ev, char *buf, size_t len)
{
    return spam_event_describe_g(ev, NULL, buf, len);
}

const char *spam_event_describe_g(uint16_t ev, const struct spam_gnames *g, char *buf, size_t len)
{
    static const char *const chm[4] = {"chmk", "chme", "chms", "chmu"};
    unsigned cls = spam_event_class(ev), det = spam_event_detail(ev);
    char vb[96];
    switch (cls) {
    case SPAM_CLASS_INTERRUPT:
    case SPAM_CLASS_EXCEPTION:
        snprintf(buf, len, "%s 0x%X (%s)", long_names[cls], det, spam_guest_vector_name(g, det, vb, sizeof vb));
        break;
    case SPAM_CLASS_CHM: {
        const char *sc = spam_chm_mode(ev) == 0 ? spam_gnames_syscall(g, spam_chm_code(ev)) : NULL;
        if (sc)
            snprintf(buf, len, "%s %u (%s)", chm[spam_chm_mode(ev)], spam_chm_code(ev), sc);
        else
            snprintf(buf, len, "%s %u", chm[spam_chm_mode(ev)], spam_chm_code(ev));
        break;
    }
    case SPAM_CLASS_LDPCTX:
        snprintf(buf, len, "ldpctx");
        break;
    case SPAM_CLASS_REI:
        snprintf(buf, len, "rei ipl %u %s%s", spam_rei_ipl(ev), spam_mode_name(spam_rei_mode(ev)),
                 spam_rei_is(ev) ? " is" : "");
        break;
    case SPAM_CLASS_MARKER:
        snprintf(buf, len, "marker %u (%s)", det,
                 det == SPAM_MARKER_ENABLED ? "tracing enabled"
                 : det == SPAM_MARKER_DISABLED ? "tracing disabled" : "reserved");
        break;
    case SPAM_CLASS_PROBE:
        snprintf(buf, len, "probe tag %u (%u value%s)", spam_probe_tag(ev), spam_probe_nvals(ev),
                 spam_probe_nvals(ev) == 1 ? "" : "s");
        break;
    default:
        snprintf(buf, len, "%s 0x%04X", cls ? "reserved" : "invalid", ev);
    }
    return buf;
}

int spam_event_spec_parse(const char *s, int *cls, int *detail)
{
    char name[32];
    const char *colon = strchr(s, ':');
    size_t n = colon ? (size_t)(colon - s) : strlen(s);
    if (n == 0 || n >= sizeof name)
        return -1;
    memcpy(name, s, n);
    name[n] = 0;
    int c = spam_class_parse(name);
    if (c < 0)
        return -1;
    *cls = c;
    *detail = -1;
    if (colon) {
        char *end;
        unsigned long v = strtoul(colon + 1, &end, 0);
        if (*end || end == colon + 1 || v > (c == SPAM_CLASS_PROBE ? 0xFFu : 0xFFFu))
            return -1;
        *detail = (int)v;
    }
    return 0;
}
