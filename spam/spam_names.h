/* Readable names for classes, vectors and modes, and the parser of event
 * selectors ("int:0xB0", "chm:4", "ldpctx"). */
#ifndef SPAM_NAMES_H
#define SPAM_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* "interrupt", "exception", "chm", "ldpctx", "rei", "marker", "probe",
 * "invalid", "reserved". */
const char *spam_class_name(unsigned cls);
/* Short names used in selectors: int, exc, chm, ldpctx, rei, marker, probe. */
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
struct spam_gnames;
/* The same with the guest's names (spam_gnames.h; g may be NULL): the
 * vector's handler or device ("interrupt 0xC0 (Xhardclock)"), CHMK's
 * system call ("chmk 3 (read)"); numbers where the names say nothing. */
const char *spam_event_describe_g(uint16_t ev, const struct spam_gnames *g, char *buf, size_t len);
/* The guest's name of an SCB vector, else spam_vector_name()'s. */
const char *spam_guest_vector_name(const struct spam_gnames *g, unsigned vec, char *buf, size_t len);
/* Parses "CLASS" or "CLASS:DETAIL" (detail in C notation; for probe
 * records the tag, 0-255); returns 0 and sets *cls and *detail (-1 =
 * any), or -1.  spam_event_select_detail() gives an event's. */
int spam_event_spec_parse(const char *s, int *cls, int *detail);

#endif
