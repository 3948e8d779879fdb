/* Exporters of decoded events: CTF 1.8 (readable by babeltrace2; an
 * LTTng-shaped variant that lttng-analyses understands) and Chrome/Perfetto
 * trace-event JSON.  Feed every event from the decoder, then close. */
#ifndef SPAM_EXPORT_H
#define SPAM_EXPORT_H

#include <stdio.h>

#include "spam/spam_decode.h"
#include "spam/spam_err.h"
#include "spam/spam_header.h"

struct spam_ctf;
struct spam_gnames;

/* Creates DIR (it may exist; files of the same names are overwritten) and
 * writes its metadata.  lttng = 0: every event as spam:<class>, one stream, full
 * 64-bit microsecond timestamps, packets with timestamp_begin/end and
 * events_discarded (the header's drop count).  lttng = 1: each hardware
 * interrupt whose REI was seen as irq_handler_entry/irq_handler_exit (irq =
 * SCB vector), one stream per IPL with cpu_id = IPL, so nested interrupts
 * never overlap within a stream. */
struct spam_ctf *spam_ctf_open(const char *dir, int lttng, const struct spam_header *h, struct spam_err *err);
/* With the guest's names (spam_gnames.h; before the first event, g must
 * outlive c): plain CTF gains a string field `name` on interrupt, exception
 * and chm events (the handler, the system call; "" when unknown) and `path`
 * on ldpctx (the program); LTTng's irq name is the handler or device. */
struct spam_ctf *spam_ctf_open_named(const char *dir, int lttng, const struct spam_header *h,
                                     const struct spam_gnames *g, struct spam_err *err);
int spam_ctf_event(struct spam_ctf *c, const struct spam_event *e);
/* Writes the last packets, closes.  0 or -1 with err. */
int spam_ctf_close(struct spam_ctf *c, struct spam_err *err);
/* Events written so far. */
uint64_t spam_ctf_count(const struct spam_ctf *c);

struct spam_chrome;
/* Writes to f (not closed): X slices for completed events (hardware
 * interrupts on one track per IPL; everything on a process's kernel stack
 * -- system calls, exceptions, software interrupts, context switches -- on
 * one track per process, where they nest strictly), instants for context
 * switches and markers. */
struct spam_chrome *spam_chrome_open(FILE *f, const struct spam_header *h);
/* Slices named with the guest's names (g may be NULL; it must outlive c):
 * "chmk 3 (read)", "interrupt 0xC0 (Xhardclock)"; context switches carry
 * the program's path. */
void spam_chrome_set_names(struct spam_chrome *c, const struct spam_gnames *g);
void spam_chrome_event(struct spam_chrome *c, const struct spam_event *e);
int spam_chrome_close(struct spam_chrome *c);

#endif
