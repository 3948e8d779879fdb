/* Readable names for classes, vectors and modes, and the parser of event
 * selectors ("int:0xB0", "chm:4", "ldpctx"). */
#ifndef SPAM_NAMES_H
#define SPAM_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* "interrupt", "exception", "chm", "ldpctx", "rei", "marker", "invalid",
 * "reserved". */
const char *spam_class_name(unsigned cls);
/* Short names used in selectors: int, exc, chm, ldpctx, rei, marker. */
const char *spam_class_short(unsigned cls);
/* Parses a class name (long or short); -1 if unknown. */
int spam_class_parse(const char *s);
/* "kernel", "executive", "supervisor", "user". */
const char *spam_mode_name(unsigned mode);
/* A readable name of an SCB vector ("interval timer", "software 12",
 * "device 0x120", "arithmetic"); buf holds at least 32 bytes. */
const char *spam_vector_name(unsigned vec, char *buf, size_t len);
/* Readable description of an event id: "interrupt 0xC0 (interval timer)",
 * "chmk 4", "rei ipl 0 user". */
const char *spam_event_describe(uint16_t ev, char *buf, size_t len);
/* Parses "CLASS" or "CLASS:DETAIL" (detail in C notation); returns 0 and
 * sets *cls and *detail (-1 = any), or -1. */
int spam_event_spec_parse(const char *s, int *cls, int *detail);

#endif
