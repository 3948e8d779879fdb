/* The default control store, assembled from the .mic sources at build time
 * (see microcode/meson.build) and linked into the library.  It is parsed
 * like any image, so its CRC-32 is checked too (MICROARCHITECTURE.md §6). */
#include <stddef.h>

#include "microcode/uasm.h"

extern const unsigned char ucode_default_bytes[];
extern const size_t ucode_default_bytes_len;

int ucode_default_image(struct ucode_image *out, char *err, size_t errlen)
{
    return ucode_image_parse(ucode_default_bytes, ucode_default_bytes_len, out,
                             err, errlen);
}
