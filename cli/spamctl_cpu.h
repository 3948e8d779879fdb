/* Printing where a trace's time went (spam/spam_cpu.h) for `spamctl hist
 * --cpu` and the demos: a table, CSV, or a JSON value. */
#ifndef SPAMCTL_CPU_H
#define SPAMCTL_CPU_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "spam/spam_cpu.h"
#include "spam/spam_gnames.h"

/* A process's program ("/etc/init", from the names), or NULL. */
const char *cpu_program(const struct spam_cpu_proc *p, const struct spam_gnames *g);
/* The table: the span, idle, the interrupt vectors and the processes by
 * time (at most max_vec and max_proc rows of them; 0: all), each with its
 * share of the span; lines start with `indent`. */
void cpu_print_text(FILE *f, const struct spam_cpu *c, const struct spam_gnames *g,
                    const char *indent, size_t max_vec, size_t max_proc);
/* kind,id,name,user_us,kernel_us,us,share,count: one line for idle, each
 * vector and each process. */
void cpu_print_csv(FILE *f, const struct spam_cpu *c, const struct spam_gnames *g);
/* {"unit": "us", "span_us", "idle_us", "interrupts": [...], "processes":
 * [...]}; NULL when out of memory. */
json_t *cpu_json(const struct spam_cpu *c, const struct spam_gnames *g);

#endif
