/* vasm output writers: ELF32 EM_VAX executable (via libelf) and flat raw
 * image.  See vasm.h.                                                    */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vasm.h"
#include "vasm_int.h"

#ifndef EM_VAX
#define EM_VAX 75
#endif

int vasm_write_raw(const struct vasm_image *img, const char *path,
                   struct vasm_diag *diag)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        vasm_diag_add(diag, path, 0, "cannot open for writing: %s", strerror(errno));
        return -1;
    }
    errno = 0;
    size_t n = img->size ? fwrite(img->bytes, 1, img->size, f) : 0;
    int bad = n != img->size ? (errno ? errno : EIO) : 0;
    errno = 0;
    if (fclose(f) != 0 && !bad)
        bad = errno ? errno : EIO;
    if (bad) {
        vasm_diag_add(diag, path, 0, "write error: %s", strerror(bad));
        return -1;
    }
    return 0;
}

struct strtab {
    char *b;
    size_t n, cap;
};
static size_t st_add(struct strtab *t, const char *s)
{
    size_t l = strlen(s) + 1;
    if (t->n + l > t->cap) {
        while (t->n + l > t->cap)
            t->cap = t->cap ? t->cap * 2 : 256;
        char *nb = realloc(t->b, t->cap);
        if (!nb)
            abort();
        t->b = nb;
    }
    memcpy(t->b + t->n, s, l);
    size_t off = t->n;
    t->n += l;
    return off;
}

static int elf_fail(struct vasm_diag *diag, const char *path, int fd, Elf *e)
{
    if (errno) /* libelf's message hides the cause (a full disk) */
        vasm_diag_add(diag, path, 0, "write error: %s", strerror(errno));
    else
        vasm_diag_add(diag, path, 0, "cannot write ELF: %s", elf_errmsg(-1));
    if (e)
        elf_end(e);
    if (fd >= 0)
        close(fd);
    return -1;
}

int vasm_write_elf(const struct vasm_image *img, const char *path,
                   struct vasm_diag *diag)
{
    errno = 0;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return elf_fail(diag, path, -1, NULL);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
    if (fd < 0) {
        vasm_diag_add(diag, path, 0, "cannot open for writing: %s", strerror(errno));
        return -1;
    }
    Elf *e = elf_begin(fd, ELF_C_WRITE, NULL);
    if (!e)
        return elf_fail(diag, path, fd, NULL);
    elf_flagelf(e, ELF_C_SET, ELF_F_LAYOUT);
    Elf32_Ehdr *eh = elf32_newehdr(e);
    if (!eh)
        return elf_fail(diag, path, fd, e);
    eh->e_ident[EI_DATA] = ELFDATA2LSB;
    eh->e_ident[EI_CLASS] = ELFCLASS32;
    eh->e_machine = EM_VAX;
    eh->e_type = ET_EXEC;
    eh->e_version = EV_CURRENT;
    eh->e_entry = img->entry;
    Elf32_Phdr *ph = elf32_newphdr(e, 1);
    if (!ph)
        return elf_fail(diag, path, fd, e);

    /* file layout: headers, then the image at an offset congruent to its
       address modulo 16, then the symbol and string tables */
    uint32_t off = sizeof(Elf32_Ehdr) + sizeof(Elf32_Phdr);
    uint32_t imgoff = ((off + 15) & ~15u) + (img->base & 15);
    if (imgoff < off)
        imgoff += 16;

    struct strtab shs = {0}, strs = {0};
    st_add(&shs, "");
    st_add(&strs, "");
    struct {
        const char *name;
        uint32_t type, flags, addr, size;
    } secs[3] = {
        {".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, img->text_addr, img->text_size},
        {".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, img->data_addr, img->data_size},
        {".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, img->bss_addr, img->bss_size},
    };
    size_t idx[3];
    for (int i = 0; i < 3; i++) {
        Elf_Scn *scn = elf_newscn(e);
        if (!scn)
            goto fail;
        idx[i] = elf_ndxscn(scn);
        Elf_Data *d = elf_newdata(scn);
        if (!d)
            goto fail;
        uint32_t rel = secs[i].addr - img->base;
        d->d_align = 1;
        d->d_off = 0;
        d->d_size = secs[i].size;
        d->d_type = ELF_T_BYTE;
        d->d_version = EV_CURRENT;
        d->d_buf = (secs[i].type == SHT_NOBITS || !secs[i].size) ? NULL : img->bytes + rel;
        Elf32_Shdr *sh = elf32_getshdr(scn);
        sh->sh_name = (Elf32_Word)st_add(&shs, secs[i].name);
        sh->sh_type = secs[i].type;
        sh->sh_flags = secs[i].flags;
        sh->sh_addr = secs[i].addr;
        sh->sh_offset = imgoff + rel;
        sh->sh_size = secs[i].size;
        sh->sh_addralign = 1;
    }
    /* symbols: locals first */
    size_t nsym = img->nsyms + 1;
    Elf32_Sym *syms = calloc(nsym, sizeof *syms);
    if (!syms)
        abort();
    size_t k = 1;
    uint32_t firstglobal = 1;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < img->nsyms; i++) {
            const struct vasm_symbol *s = &img->syms[i];
            if ((s->global != 0) != pass)
                continue;
            Elf32_Sym *y = &syms[k++];
            y->st_name = (Elf32_Word)st_add(&strs, s->name);
            y->st_value = s->value;
            y->st_info = ELF32_ST_INFO(s->global ? STB_GLOBAL : STB_LOCAL, STT_NOTYPE);
            y->st_shndx = SHN_ABS;
            for (int j = 2; j >= 0; j--)
                if (s->value >= secs[j].addr && s->value <= secs[j].addr + secs[j].size &&
                    (secs[j].size || s->value == secs[j].addr)) {
                    y->st_shndx = (Elf32_Half)idx[j];
                    break;
                }
        }
        if (pass == 0)
            firstglobal = (uint32_t)k;
    }
    uint32_t pos = imgoff + img->size;
    pos = (pos + 3) & ~3u;
    Elf_Scn *symscn = elf_newscn(e);
    Elf_Scn *strscn = elf_newscn(e);
    Elf_Scn *shscn = elf_newscn(e);
    if (!symscn || !strscn || !shscn) {
        free(syms);
        goto fail;
    }
    {
        Elf_Data *d = elf_newdata(symscn);
        d->d_align = 4;
        d->d_buf = syms;
        d->d_size = nsym * sizeof *syms;
        d->d_type = ELF_T_SYM;
        d->d_version = EV_CURRENT;
        Elf32_Shdr *sh = elf32_getshdr(symscn);
        sh->sh_name = (Elf32_Word)st_add(&shs, ".symtab");
        sh->sh_type = SHT_SYMTAB;
        sh->sh_link = (Elf32_Word)elf_ndxscn(strscn);
        sh->sh_info = firstglobal;
        sh->sh_entsize = sizeof(Elf32_Sym);
        sh->sh_addralign = 4;
        sh->sh_offset = pos;
        sh->sh_size = (Elf32_Word)d->d_size;
        pos += (uint32_t)d->d_size;
    }
    size_t shname_strtab = st_add(&shs, ".strtab");
    size_t shname_shstrtab = st_add(&shs, ".shstrtab");
    {
        Elf_Data *d = elf_newdata(strscn);
        d->d_align = 1;
        d->d_buf = strs.b;
        d->d_size = strs.n;
        d->d_type = ELF_T_BYTE;
        d->d_version = EV_CURRENT;
        Elf32_Shdr *sh = elf32_getshdr(strscn);
        sh->sh_name = (Elf32_Word)shname_strtab;
        sh->sh_type = SHT_STRTAB;
        sh->sh_addralign = 1;
        sh->sh_offset = pos;
        sh->sh_size = (Elf32_Word)strs.n;
        pos += (uint32_t)strs.n;
    }
    {
        Elf_Data *d = elf_newdata(shscn);
        d->d_align = 1;
        d->d_buf = shs.b;
        d->d_size = shs.n;
        d->d_type = ELF_T_BYTE;
        d->d_version = EV_CURRENT;
        Elf32_Shdr *sh = elf32_getshdr(shscn);
        sh->sh_name = (Elf32_Word)shname_shstrtab;
        sh->sh_type = SHT_STRTAB;
        sh->sh_addralign = 1;
        sh->sh_offset = pos;
        sh->sh_size = (Elf32_Word)shs.n;
        pos += (uint32_t)shs.n;
    }
    eh->e_shstrndx = (Elf32_Half)elf_ndxscn(shscn);
    pos = (pos + 3) & ~3u;
    eh->e_shoff = pos;
    eh->e_phoff = sizeof(Elf32_Ehdr);

    ph->p_type = PT_LOAD;
    ph->p_offset = imgoff;
    ph->p_vaddr = img->base;
    ph->p_paddr = img->base;
    ph->p_filesz = img->size;
    ph->p_memsz = img->memsize;
    ph->p_flags = PF_R | PF_W | PF_X;
    ph->p_align = 16;
    elf_flagphdr(e, ELF_C_SET, ELF_F_DIRTY);

    errno = 0;
    if (elf_update(e, ELF_C_WRITE) < 0) {
        free(syms);
        goto fail;
    }
    elf_end(e);
    free(syms);
    free(shs.b);
    free(strs.b);
    if (close(fd) != 0) {
        vasm_diag_add(diag, path, 0, "write error: %s", strerror(errno));
        return -1;
    }
    return 0;
fail:
    free(shs.b);
    free(strs.b);
    return elf_fail(diag, path, fd, e);
}
