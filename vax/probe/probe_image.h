/* The binary form of a probe program (PROBES.md, "Image"): what a guest
 * hands the machine with PRBLOAD (FD06) and the host with
 * vm_probe_load; little-endian, no pointers. */
#ifndef VAX_PROBE_PROBE_IMAGE_H
#define VAX_PROBE_PROBE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "vax/probe/probe_isa.h"

#define PRB_IMAGE_MAGIC "SPAMPRB"
#define PRB_IMAGE_VERSION 1
#define PRB_IMAGE_HEADER 32
#define PRB_IMAGE_PROBE 32
#define PRB_IMAGE_MAP 32
#define PRB_IMAGE_INSN 12
#define PRB_IMAGE_MAX (PRB_IMAGE_HEADER + PRB_MAX_PROBES * PRB_IMAGE_PROBE + \
                       PRB_MAX_MAPS * PRB_IMAGE_MAP + PRB_MAX_CODE * PRB_IMAGE_INSN)

/* The image's length in bytes for program p. */
size_t prb_image_size(const struct prb_program *p);
/* Writes p's image into out (at least prb_image_size bytes). */
void prb_image_encode(const struct prb_program *p, uint8_t *out);
/* Reads an image into *p (names and lines left empty).  0, or -1 with a
 * message: bad magic, another version, truncated, counts beyond the
 * limits, reserved bytes not zero, trailing bytes.  The verifier
 * (probe_verify.h) decides whether the program may run. */
int prb_image_decode(const uint8_t *in, size_t len, struct prb_program *p, char *err,
                     size_t errlen);

#endif
