/* The made-up guest the probe language's tests compile against: kernel
 * symbols ipintr (0x80012344), Copyin (a JSB routine at 0x80001000),
 * time, hz, namei, pagein, syscall, exit, bread, Swtch (JSB); the kernel's text
 * 0x80000000-0x80040000; /bin/ls (prog 0x42, with main at 0x100) and
 * /usr/ucb/vi (prog 0x60123); system call read (3); vector hardclock
 * (0xC0); comm keys (ino + dev * 7) % 1021. */
#ifndef TESTS_PROBE_LANG_GUEST_H
#define TESTS_PROBE_LANG_GUEST_H

#include "vax/probe/probe_lang.h"

extern const struct prb_lang_resolver lang_guest;

#endif
