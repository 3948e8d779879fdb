/* The decode ROMs (vm_drom.h; MICROARCHITECTURE.md §4), built when the
 * control store is loaded: for each opcode its execute entry, operand
 * descriptors and forks, and the specifier-mode ROM, from vax/isa's
 * operand table and the microcode's exported labels.  This file knows the
 * decode ROMs' shapes and the labels' spelling; it knows no VAX
 * instruction. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vax/isa/vax_opcodes.h"
#include "vax/machine/vm_datapath.h"
#include "vax/machine/vm_drom.h"
#include "vax/machine/vm_internal.h"

static const char *const mode_names[16] = {
    "LIT", "LIT", "LIT", "LIT", "IDX", "REG", "REGDEF", "AUTODEC",
    "AUTOINC", "AUTOINCDEF", "DISPB", "DISPBDEF", "DISPW", "DISPWDEF",
    "DISPL", "DISPLDEF"};
static const char *const pc_mode_names[16] = {
    [8] = "IMMED", [9] = "ABS", [10] = "PCDISPB", [11] = "PCDISPBDEF",
    [12] = "PCDISPW", [13] = "PCDISPWDEF", [14] = "PCDISPL", [15] = "PCDISPLDEF"};
static const char acc_letters[5] = {'R', 'M', 'W', 'A', 'V'};

/* The decode ROMs look up some thousands of label names: build_roms
 * works on a copy of the image whose labels are sorted by name. */
static int label_cmp(const void *x, const void *y)
{
    return strcmp(((const struct ulabel *)x)->name, ((const struct ulabel *)y)->name);
}

static int label(const struct ucode_image *img, const char *name)
{
    struct ulabel key = {.name = (char *)(uintptr_t)name};
    const struct ulabel *l = bsearch(&key, img->labels, img->nlabels, sizeof key, label_cmp);
    return l ? l->addr : -1;
}

static int find(const struct ucode_image *img, const char *fmt, const char *a,
                const char *b)
{
    char name[96];
    snprintf(name, sizeof name, fmt, a, b);
    return label(img, name);
}

/* The label suffix of each operand variant (vm_drom.h), and the
 * variant a label search falls back to: H -> O -> integer, F, G ->
 * integer. */
static const char *const var_suffix[VAR_N] = {"", "F", "G", "O", "H"};
static const int var_fallback[VAR_N] = {-1, VAR_INT, VAR_INT, VAR_INT, VAR_O};

/* An operand's data type letter (vax/isa) as width and variant. */
static void dtype_class(char t, uint8_t *width, int *var)
{
    switch (t) {
    case 'b': *width = 0; *var = VAR_INT; break;
    case 'w': *width = 1; *var = VAR_INT; break;
    case 'f': *width = 2; *var = VAR_F; break;
    case 'd': *width = 3; *var = VAR_F; break;
    case 'g': *width = 3; *var = VAR_G; break;
    case 'q': *width = 3; *var = VAR_INT; break;
    case 'h': *width = 4; *var = VAR_H; break;
    case 'o': *width = 4; *var = VAR_O; break;
    default: *width = 2; *var = VAR_INT; break; /* 'l' */
    }
}

/* The access-specific specifier flow SPEC.<acc><variant>.<mode> for
 * access class acc (0-4) and variant var, trying the variant's
 * fallbacks; -1 if none. */
static int spec_label(const struct ucode_image *img, int acc, int var, const char *mode)
{
    char a[4];
    for (int v = var; v >= 0; v = var_fallback[v]) {
        snprintf(a, sizeof a, "%c%s", acc_letters[acc], var_suffix[v]);
        int t = find(img, "SPEC.%s.%s", a, mode);
        if (t >= 0)
            return t;
    }
    return -1;
}

/* Builds the opcode and specifier-mode decode ROMs from the opcode table
 * and the microcode's labels (§4). */
static int build_roms(struct vax_machine *m, const struct ucode_image *img,
                      char *err, size_t errlen)
{
    int rsvinsn = label(img, "RESERVED_INSTRUCTION");
    int rsvaddr = label(img, "RESERVED_ADDRESSING_MODE");
    int unimpl = label(img, "UNIMPLEMENTED");
    int specb = label(img, "SPEC.B");
    if (rsvinsn < 0 || rsvaddr < 0 || specb < 0) {
        snprintf(err, errlen, "microcode lacks RESERVED_INSTRUCTION, "
                              "RESERVED_ADDRESSING_MODE or SPEC.B");
        return -1;
    }
    if (unimpl < 0)
        unimpl = rsvinsn;
    m->l_rsvinsn = (uint16_t)rsvinsn;
    int mchk = label(img, "MACHINE_CHECK");
    int intr = label(img, "INTERRUPT");
    m->l_mchk = (uint16_t)(mchk > 0 ? mchk : 0);
    m->l_intr = (uint16_t)(intr > 0 ? intr : 0);
    int tbmiss = label(img, "TB_MISS");
    m->l_tbmiss = (uint16_t)(tbmiss > 0 ? tbmiss : 0);
    int trace = label(img, "TRACE_PENDING");
    m->l_trace = (uint16_t)(trace > 0 ? trace : 0);
    /* the probe unit's flow, and the SPAM hooks it recognises by their
     * first words (MICROARCHITECTURE.md §15) */
    static const char *const hooks[] = {"PRB.REQ", "TRACE.EXCINT", "TRACE.CHM", "TRACE.REI",
                                        "TRACE.LDPCTX", "TRACE.EVENT"};
    uint16_t *const lab[] = {&m->l_prbreq, &m->l_hook_excint, &m->l_hook_chm, &m->l_hook_rei,
                             &m->l_hook_ldp, &m->l_hook_event};
    for (unsigned i = 0; i < sizeof hooks / sizeof hooks[0]; i++) {
        int at = label(img, hooks[i]);
        *lab[i] = (uint16_t)(at > 0 ? at : 0);
    }
    m->spec_b = (uint16_t)specb;
    for (int i = 0; i < 512; i++) {
        m->drom[i].entry = (uint16_t)rsvinsn;
        m->drom[i].defined = 0;
        m->drom[i].fork = 0xFF;
        m->drom[i].mfork = 0xFF;
    }
    for (size_t i = 0; i < vax_opcode_count; i++) {
        const struct vax_opcode *op = &vax_opcodes[i];
        int idx = op->code > 0xFF ? 0x100 | (op->code & 0xFF) : op->code;
        struct drom_entry *e = &m->drom[idx];
        if (e->defined)
            continue; /* alias */
        char name[32];
        size_t k;
        for (k = 0; op->name[k] && k < sizeof name - 1; k++)
            name[k] = (char)toupper((unsigned char)op->name[k]);
        name[k] = 0;
        int entry = label(img, name);
        e->defined = 1;
        e->entry = (uint16_t)(entry >= 0 ? entry : unimpl);
        e->n = (uint8_t)vax_opcode_noperands(op);
        for (int j = 0; j < e->n; j++) {
            struct vax_operand_desc d = vax_opcode_operand(op, j);
            const char *acc = "rmwavb";
            int var;
            e->acc[j] = (uint8_t)(strchr(acc, d.access) - acc);
            dtype_class(d.dtype, &e->dt[j], &var);
            e->sc[j] = (uint8_t)(e->acc[j] < ACC_B ? e->acc[j] * VAR_N + var : 0);
        }
        if (entry < 0)
            e->n = 0; /* go straight to UNIMPLEMENTED */
        /* the register fork: on the last operand that is not a branch
         * displacement, if it is read, modify or write (fork and mfork
         * start as 0xFF, none, above) */
        int f = e->n - 1;
        while (f >= 0 && e->acc[f] == ACC_B)
            f--;
        if (f >= 0 && e->acc[f] <= ACC_W) {
            int r = find(img, "%s%s", name, ".REG");
            if (r >= 0) {
                e->fork = (uint8_t)f;
                e->reg_entry = (uint16_t)r;
            }
            /* the memory fork: modify and write operands always set or
             * clear OPREG in their specifier flows */
            r = find(img, "%s%s", name, ".MEM");
            if (r >= 0 && (e->acc[f] == ACC_M || e->acc[f] == ACC_W)) {
                e->mfork = (uint8_t)f;
                e->mem_entry = (uint16_t)r;
            }
        }
    }
    for (int i = 0; i < 512; i++) {
        struct drom_entry *e = &m->drom[i];
        e->last = (uint8_t)(e->n ? e->n - 1 : 0);
        for (int j = e->n; j < 8; j++)
            e->dt[j] = 2; /* what SPEC and OPK name beyond the operands */
        for (int j = 0; j < 8; j++)
            e->size[j] = (uint8_t)width_size[e->dt[j]];
        e->wd0 = e->dt[0];
    }
    for (int ix = 0; ix < 2; ix++)
        for (int sc = 0; sc < SPEC_CLASSES; sc++)
            for (int mode = 0; mode < 16; mode++)
                for (int pc = 0; pc < 2; pc++) {
                    int acc = sc / VAR_N, var = sc % VAR_N;
                    int t = -1;
                    if (ix && mode < 6) {
                        t = rsvaddr;
                    } else {
                        /* after an index prefix only the general flows:
                         * their access tails add RX*size */
                        if (pc && pc_mode_names[mode]) {
                            if (!ix)
                                t = spec_label(img, acc, var, pc_mode_names[mode]);
                            if (t < 0)
                                t = find(img, "SPEC.%s%s", pc_mode_names[mode], "");
                        }
                        if (t < 0 && !ix)
                            t = spec_label(img, acc, var, mode_names[mode]);
                        if (t < 0)
                            t = find(img, "SPEC.%s%s", mode_names[mode], "");
                        if (t < 0)
                            t = rsvaddr;
                    }
                    for (int rn = 0; rn < 16; rn++)
                        if ((rn == 15) == pc)
                            m->spec_tab[ix][sc][mode << 4 | rn] = (uint16_t)t;
                }
    return 0;
}

int vm_drom_build(struct vax_machine *m, const struct ucode_image *img, char *err,
                  size_t errlen)
{
    struct ucode_image sorted = *img;
    sorted.labels = malloc((img->nlabels ? img->nlabels : 1) * sizeof *sorted.labels);
    if (!sorted.labels) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* a source without labels has a null table: memcpy and qsort must not
     * be handed it */
    if (img->nlabels) {
        memcpy(sorted.labels, img->labels, img->nlabels * sizeof *sorted.labels);
        qsort(sorted.labels, img->nlabels, sizeof *sorted.labels, label_cmp);
    }
    int rc = build_roms(m, &sorted, err, errlen);
    free(sorted.labels);
    return rc;
}
