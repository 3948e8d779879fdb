/* Files on a SIMH .tap tape as a tar archive, for handing them to 4.3BSD
 * (`tar xf /dev/rmt8` on the TU77, tu0/ht0): each file under its base
 * name, in the ustar layout 4.3BSD's tar reads as its own (it ignores the
 * magic), in 10240-byte tape records (tar's blocking factor 20), then two
 * tape marks. */
#ifndef SPAMCTL_TARTAPE_H
#define SPAMCTL_TARTAPE_H

#include <stddef.h>

/* 0, or -1 with a message in err. */
int tartape_write(const char *tape, const char *const *files, size_t n, char *err, size_t errlen);

#endif
