/* ELF loader: puts the PT_LOAD segments of an ELF32 EM_VAX executable into
 * emulated physical memory through a write callback, and returns the entry
 * point.  Nothing here prints or exits.                                  */
#ifndef VAX_ELF_H
#define VAX_ELF_H

#include <stddef.h>
#include <stdint.h>

/* Writes n bytes at physical address pa; returns 0, or -1 if the range is
 * not memory (the loader then reports the segment as out of range). */
typedef int (*vax_phys_write_fn)(void *ctx, uint32_t pa, const void *buf,
                                 size_t n);

struct vax_load_target {
    vax_phys_write_fn write;
    void *ctx;
    uint32_t mem_size; /* segments must lie in [0, mem_size) */
    int no_zero_fill;  /* 1: write only the file bytes, not the zeros of
                          memsz beyond filesz (for tools that inspect an
                          image, such as vdis) */
};

struct vax_load_result {
    uint32_t entry;
    uint32_t lowest, highest; /* physical range touched: [lowest, highest) */
    int nsegments;
};

/* Load from a file or from memory.  Returns 0, or -1 with a one-line
 * message in err ("FILE: what is wrong"). */
int vax_elf_load_file(const char *path, const struct vax_load_target *t,
                      struct vax_load_result *res, char *err, size_t errlen);
int vax_elf_load_mem(const char *name, const void *data, size_t len,
                     const struct vax_load_target *t,
                     struct vax_load_result *res, char *err, size_t errlen);

#endif
