/* ELF loader for ELF32 EM_VAX executables (see vax_elf.h, README.md).
 * Everything is validated before the first byte is written, so a rejected
 * image leaves the target memory untouched. */
#include "vax/loader/vax_elf.h"
#include "microcode/hostfile.h"

#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EM_VAX
#define EM_VAX 75
#endif
#define VAX_ELF_FILE_MAX (1024u << 20) /* no VAX image is larger */

static int fail(char *err, size_t errlen, const char *name, const char *fmt,
                ...) __attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, const char *name, const char *fmt,
                ...)
{
    if (err && errlen) {
        int n = snprintf(err, errlen, "%s: ", name ? name : "<memory>");
        if (n >= 0 && (size_t)n < errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

static const char *machine_name(unsigned m)
{
    switch (m) {
    case 0: return "no machine (EM_NONE)";
    case 2: return "SPARC";
    case 3: return "Intel 80386";
    case 4: return "Motorola 68000";
    case 8: return "MIPS";
    case 20: return "PowerPC";
    case 21: return "PowerPC64";
    case 22: return "IBM S/390";
    case 40: return "ARM";
    case 42: return "SuperH";
    case 43: return "SPARC V9";
    case 50: return "IA-64";
    case 62: return "x86-64";
    case 183: return "AArch64";
    case 243: return "RISC-V";
    case 258: return "LoongArch";
    default: return NULL;
    }
}

static const char *type_name(unsigned t)
{
    switch (t) {
    case ET_NONE: return "no file type (ET_NONE)";
    case ET_REL: return "a relocatable object (ET_REL)";
    case ET_DYN: return "a shared object (ET_DYN)";
    case ET_CORE: return "a core file (ET_CORE)";
    default: return NULL;
    }
}

struct seg {
    size_t index;       /* program header number */
    uint64_t paddr, vaddr, memsz, filesz, offset;
};

static int cmp_seg(const void *a, const void *b)
{
    const struct seg *x = a, *y = b;
    if (x->paddr != y->paddr)
        return x->paddr < y->paddr ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Validate everything and fill segs (non-empty PT_LOADs, sorted by paddr).
 * Returns 0 or -1 with a message. */
static int check_image(const char *name, const unsigned char *data, size_t len,
                       const struct vax_load_target *t, Elf *e,
                       struct seg **segs_out, size_t *nsegs_out,
                       uint32_t *entry_pa, char *err, size_t errlen)
{
    GElf_Ehdr eh;
    if (gelf_getehdr(e, &eh) == NULL)
        return fail(err, errlen, name, "bad or truncated ELF header (%s)",
                    elf_errmsg(-1));
    if (eh.e_machine != EM_VAX) {
        const char *m = machine_name(eh.e_machine);
        if (m)
            return fail(err, errlen, name,
                        "not a VAX executable: machine is %s (e_machine %u), "
                        "expected VAX (75)", m, (unsigned)eh.e_machine);
        return fail(err, errlen, name,
                    "not a VAX executable: e_machine is %u, expected VAX (75)",
                    (unsigned)eh.e_machine);
    }
    if (eh.e_type != ET_EXEC) {
        const char *tn = type_name(eh.e_type);
        if (tn)
            return fail(err, errlen, name,
                        "not an executable: file is %s; link it first", tn);
        return fail(err, errlen, name,
                    "not an executable: e_type is %u, expected ET_EXEC (2)",
                    (unsigned)eh.e_type);
    }
    if (eh.e_phnum != 0 && eh.e_phentsize != sizeof(Elf32_Phdr))
        return fail(err, errlen, name,
                    "bad program header entry size %u (expected %zu)",
                    (unsigned)eh.e_phentsize, sizeof(Elf32_Phdr));
    /* libelf silently shortens a program header table that the file cuts
     * off, so check the table's extent from the header fields first. */
    if (eh.e_phnum != PN_XNUM && eh.e_phnum != 0 &&
        (eh.e_phoff > len ||
         (uint64_t)eh.e_phnum * eh.e_phentsize > len - eh.e_phoff))
        return fail(err, errlen, name,
                    "program header table at offset 0x%llx is past the end "
                    "of the file (0x%zx bytes): truncated?",
                    (unsigned long long)eh.e_phoff, len);
    /* A section header table cut off by the end of the file means the file
     * was truncated, even if every segment happens to be intact. */
    if (eh.e_shnum != 0 &&
        (eh.e_shoff > len ||
         (uint64_t)eh.e_shnum * eh.e_shentsize > len - eh.e_shoff))
        return fail(err, errlen, name,
                    "section header table at offset 0x%llx is past the end "
                    "of the file (0x%zx bytes): truncated?",
                    (unsigned long long)eh.e_shoff, len);
    size_t phnum;
    if (elf_getphdrnum(e, &phnum) != 0)
        return fail(err, errlen, name, "bad program header table (%s)",
                    elf_errmsg(-1));
    if (phnum == 0)
        return fail(err, errlen, name,
                    "no program headers, so no loadable (PT_LOAD) segments");
    if (eh.e_phoff > len ||
        (uint64_t)phnum * eh.e_phentsize > len - eh.e_phoff)
        return fail(err, errlen, name,
                    "program header table at offset 0x%llx is past the end "
                    "of the file (0x%zx bytes): truncated?",
                    (unsigned long long)eh.e_phoff, len);

    struct seg *segs = calloc(phnum, sizeof *segs);
    if (!segs)
        return fail(err, errlen, name, "out of memory");
    size_t nload = 0, nsegs = 0;
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (gelf_getphdr(e, (int)i, &ph) == NULL) {
            free(segs);
            return fail(err, errlen, name, "bad program header %zu (%s)", i,
                        elf_errmsg(-1));
        }
        if (ph.p_type != PT_LOAD)
            continue;
        nload++;
        if (ph.p_offset > len || ph.p_filesz > len - ph.p_offset) {
            free(segs);
            return fail(err, errlen, name,
                        "segment %zu: file bytes 0x%llx+0x%llx extend past "
                        "the end of the file (0x%zx bytes): truncated?", i,
                        (unsigned long long)ph.p_offset,
                        (unsigned long long)ph.p_filesz, len);
        }
        if (ph.p_filesz > ph.p_memsz) {
            free(segs);
            return fail(err, errlen, name,
                        "segment %zu: file size 0x%llx is larger than its "
                        "memory size 0x%llx", i,
                        (unsigned long long)ph.p_filesz,
                        (unsigned long long)ph.p_memsz);
        }
        if (ph.p_memsz == 0)
            continue; /* occupies nothing */
        if (ph.p_paddr + ph.p_memsz > 0x100000000ull) {
            free(segs);
            return fail(err, errlen, name,
                        "segment %zu: address range 0x%llx+0x%llx wraps "
                        "around the 32-bit address space", i,
                        (unsigned long long)ph.p_paddr,
                        (unsigned long long)ph.p_memsz);
        }
        if (ph.p_paddr + ph.p_memsz > t->mem_size) {
            free(segs);
            return fail(err, errlen, name,
                        "segment %zu: physical range 0x%llx-0x%llx lies "
                        "outside memory [0, 0x%llx)", i,
                        (unsigned long long)ph.p_paddr,
                        (unsigned long long)(ph.p_paddr + ph.p_memsz),
                        (unsigned long long)t->mem_size);
        }
        struct seg *s = &segs[nsegs++];
        s->index = i;
        s->paddr = ph.p_paddr;
        s->vaddr = ph.p_vaddr;
        s->memsz = ph.p_memsz;
        s->filesz = ph.p_filesz;
        s->offset = ph.p_offset;
    }
    if (nload == 0) {
        free(segs);
        return fail(err, errlen, name, "no loadable (PT_LOAD) segments");
    }
    qsort(segs, nsegs, sizeof *segs, cmp_seg);
    for (size_t i = 1; i < nsegs; i++) {
        const struct seg *a = &segs[i - 1], *b = &segs[i];
        if (b->paddr < a->paddr + a->memsz) {
            size_t lo = a->index < b->index ? a->index : b->index;
            size_t hi = a->index < b->index ? b->index : a->index;
            unsigned long long at = b->paddr;
            free(segs);
            return fail(err, errlen, name,
                        "segments %zu and %zu overlap at physical address "
                        "0x%llx", lo, hi, at);
        }
    }
    /* The entry point is a virtual address (e_entry); it must fall inside a
     * loaded segment and is translated to the physical address there. */
    for (size_t i = 0; i < nsegs; i++) {
        const struct seg *s = &segs[i];
        if (eh.e_entry >= s->vaddr && eh.e_entry - s->vaddr < s->memsz) {
            *entry_pa = (uint32_t)(s->paddr + (eh.e_entry - s->vaddr));
            *segs_out = segs;
            *nsegs_out = nsegs;
            (void)data;
            return 0;
        }
    }
    free(segs);
    return fail(err, errlen, name,
                "entry point 0x%llx is not inside any loaded segment",
                (unsigned long long)eh.e_entry);
}

int vax_elf_load_mem(const char *name, const void *data, size_t len,
                     const struct vax_load_target *t,
                     struct vax_load_result *res, char *err, size_t errlen)
{
    const unsigned char *p = data;
    if (!name)
        name = "<memory>";
    if (err && errlen)
        err[0] = '\0';
    if (!t || !t->write)
        return fail(err, errlen, name, "no load target");
    if (!p || len < 4 || memcmp(p, ELFMAG, SELFMAG) != 0)
        return fail(err, errlen, name, "not an ELF file (bad magic number)");
    if (len < EI_NIDENT)
        return fail(err, errlen, name, "truncated ELF header (%zu bytes)",
                    len);
    if (p[EI_CLASS] == ELFCLASS64)
        return fail(err, errlen, name,
                    "64-bit ELF (ELFCLASS64); a VAX executable is ELF32");
    if (p[EI_CLASS] != ELFCLASS32)
        return fail(err, errlen, name, "invalid ELF class %u",
                    (unsigned)p[EI_CLASS]);
    if (p[EI_DATA] == ELFDATA2MSB)
        return fail(err, errlen, name,
                    "big-endian ELF (ELFDATA2MSB); the VAX is little-endian");
    if (p[EI_DATA] != ELFDATA2LSB)
        return fail(err, errlen, name, "invalid ELF data encoding %u",
                    (unsigned)p[EI_DATA]);
    if (len < sizeof(Elf32_Ehdr))
        return fail(err, errlen, name, "truncated ELF header (%zu bytes)",
                    len);
    if (elf_version(EV_CURRENT) == EV_NONE)
        return fail(err, errlen, name, "libelf initialisation failed");

    /* libelf wants a writable image; with a little-endian ELF32 on this
     * host it only reads it (the byte order was checked above). */
    Elf *e = elf_memory((char *)(uintptr_t)p, len);
    if (!e)
        return fail(err, errlen, name, "not a usable ELF file (%s)",
                    elf_errmsg(-1));
    struct seg *segs = NULL;
    size_t nsegs = 0;
    uint32_t entry = 0;
    int rc = check_image(name, p, len, t, e, &segs, &nsegs, &entry, err,
                         errlen);
    elf_end(e);
    if (rc != 0)
        return rc;

    static const unsigned char zeros[4096];
    uint32_t lowest = 0, highest = 0;
    for (size_t i = 0; i < nsegs; i++) {
        const struct seg *s = &segs[i];
        uint32_t pa = (uint32_t)s->paddr;
        if (s->filesz &&
            t->write(t->ctx, pa, p + s->offset, (size_t)s->filesz) != 0)
            goto not_memory;
        for (uint64_t done = s->filesz; !t->no_zero_fill && done < s->memsz;) {
            uint64_t n = s->memsz - done;
            if (n > sizeof zeros)
                n = sizeof zeros;
            if (t->write(t->ctx, (uint32_t)(s->paddr + done), zeros,
                         (size_t)n) != 0)
                goto not_memory;
            done += n;
        }
        if (i == 0 || pa < lowest)
            lowest = pa;
        /* paddr + memsz <= mem_size <= 0xFFFFFFFF: no overflow */
        uint32_t end = (uint32_t)(s->paddr + s->memsz);
        if (i == 0 || end > highest)
            highest = end;
        continue;
    not_memory:
        rc = fail(err, errlen, name,
                  "segment %zu: physical range 0x%llx-0x%llx is not memory",
                  s->index, (unsigned long long)s->paddr,
                  (unsigned long long)(s->paddr + s->memsz));
        free(segs);
        return rc;
    }
    if (res) {
        res->entry = entry;
        res->lowest = lowest;
        res->highest = highest;
        res->nsegments = (int)nsegs;
    }
    free(segs);
    return 0;
}

int vax_elf_load_file(const char *path, const struct vax_load_target *t,
                      struct vax_load_result *res, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    uint8_t *buf;
    size_t n;
    const char *why;
    if (hostfile_read(path, VAX_ELF_FILE_MAX, 0, &buf, &n, &why) != 0)
        return fail(err, errlen, path, "%s", why);
    int rc = vax_elf_load_mem(path, buf, n, t, res, err, errlen);
    free(buf);
    return rc;
}
