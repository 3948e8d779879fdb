/* Unit tests of the ELF loader (vax/loader): a correct load (segment bytes,
 * zero fill, entry, touched range) and every rejection with its message.
 * Images are built by hand here, so each defect can be made exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <elf.h>

#include "vax/loader/vax_elf.h"

#define MEMSZ 0x10000u

struct mem {
    uint8_t bytes[MEMSZ];
    int fail_writes; /* make the write callback refuse everything */
};

static int mem_write(void *ctx, uint32_t pa, const void *buf, size_t n)
{
    struct mem *m = ctx;
    if (m->fail_writes || pa >= MEMSZ || n > MEMSZ - pa)
        return -1;
    memcpy(m->bytes + pa, buf, n);
    return 0;
}

struct seg {
    uint32_t type, paddr, vaddr, filesz, memsz;
    uint8_t fill; /* file bytes are fill, fill+1, ... */
};

/* An ELF32 LSB EM_VAX ET_EXEC image with the given segments; the segment
 * contents follow the program headers.  Returns a malloc'ed buffer. */
static uint8_t *build(const struct seg *s, int nseg, uint32_t entry,
                      size_t *len)
{
    size_t off = sizeof(Elf32_Ehdr) + (size_t)nseg * sizeof(Elf32_Phdr);
    size_t total = off;
    for (int i = 0; i < nseg; i++)
        total += s[i].filesz;
    uint8_t *img = calloc(1, total);
    assert_non_null(img);
    Elf32_Ehdr eh = {0};
    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS32;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_EXEC;
    eh.e_machine = EM_VAX;
    eh.e_version = EV_CURRENT;
    eh.e_entry = entry;
    eh.e_phoff = nseg ? sizeof(Elf32_Ehdr) : 0;
    eh.e_ehsize = sizeof(Elf32_Ehdr);
    eh.e_phentsize = sizeof(Elf32_Phdr);
    eh.e_phnum = (Elf32_Half)nseg;
    memcpy(img, &eh, sizeof eh);
    size_t data = off;
    for (int i = 0; i < nseg; i++) {
        Elf32_Phdr ph = {0};
        ph.p_type = s[i].type;
        ph.p_offset = (Elf32_Off)data;
        ph.p_vaddr = s[i].vaddr;
        ph.p_paddr = s[i].paddr;
        ph.p_filesz = s[i].filesz;
        ph.p_memsz = s[i].memsz;
        ph.p_flags = PF_R | PF_W | PF_X;
        ph.p_align = 4;
        memcpy(img + sizeof(Elf32_Ehdr) + (size_t)i * sizeof(Elf32_Phdr),
               &ph, sizeof ph);
        for (uint32_t k = 0; k < s[i].filesz; k++)
            img[data + k] = (uint8_t)(s[i].fill + k);
        data += s[i].filesz;
    }
    *len = total;
    return img;
}

static const struct seg good_segs[] = {
    {PT_LOAD, 0x1000, 0x1000, 16, 32, 0x10},
    {PT_NOTE, 0, 0, 0, 0, 0},
    {PT_LOAD, 0x3000, 0x3000, 8, 8, 0x80},
};

/* Load an image into fresh memory; returns the loader's result and leaves
 * the message in err. */
static int load(const uint8_t *img, size_t len, struct mem *m,
                struct vax_load_result *res, char *err, size_t errlen)
{
    memset(m->bytes, 0xAA, sizeof m->bytes);
    struct vax_load_target t = {mem_write, m, MEMSZ, 0};
    /* exact-size heap copy so ASan sees any over-read */
    uint8_t *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, img, len);
    int rc = vax_elf_load_mem("test.elf", copy, len, &t, res, err, errlen);
    free(copy);
    return rc;
}

static void expect_reject(const uint8_t *img, size_t len, const char *needle)
{
    static struct mem m;
    struct vax_load_result res;
    char err[256];
    int rc = load(img, len, &m, &res, err, sizeof err);
    if (rc != -1 || strstr(err, needle) == NULL)
        fail_msg("expected rejection containing \"%s\", got rc %d \"%s\"",
                 needle, rc, err);
    assert_true(strncmp(err, "test.elf: ", 10) == 0);
    assert_null(strchr(err, '\n'));
    /* nothing was written */
    for (size_t i = 0; i < MEMSZ; i++)
        if (m.bytes[i] != 0xAA)
            fail_msg("rejected image wrote memory at 0x%zx", i);
}

static void test_good_load(void **state)
{
    (void)state;
    size_t len;
    uint8_t *img = build(good_segs, 3, 0x1004, &len);
    static struct mem m;
    struct vax_load_result res;
    char err[256] = "x";
    assert_int_equal(load(img, len, &m, &res, err, sizeof err), 0);
    assert_string_equal(err, "");
    assert_int_equal(res.entry, 0x1004);
    assert_int_equal(res.lowest, 0x1000);
    assert_int_equal(res.highest, 0x3008);
    assert_int_equal(res.nsegments, 2);
    for (int k = 0; k < 16; k++)
        assert_int_equal(m.bytes[0x1000 + k], 0x10 + k);
    for (int k = 16; k < 32; k++)
        assert_int_equal(m.bytes[0x1000 + k], 0); /* zero fill */
    assert_int_equal(m.bytes[0x1000 + 32], 0xAA); /* untouched beyond */
    assert_int_equal(m.bytes[0x0FFF], 0xAA);
    for (int k = 0; k < 8; k++)
        assert_int_equal(m.bytes[0x3000 + k], 0x80 + k);
    assert_int_equal(m.bytes[0x3008], 0xAA);
    free(img);
}

/* Large bss (zero fill in several chunks) and entry at a segment's end of
 * file data but inside its memory. */
static void test_big_bss(void **state)
{
    (void)state;
    struct seg s[] = {{PT_LOAD, 0x100, 0x100, 4, 0x9000, 1}};
    size_t len;
    uint8_t *img = build(s, 1, 0x100, &len);
    static struct mem m;
    struct vax_load_result res;
    char err[256];
    assert_int_equal(load(img, len, &m, &res, err, sizeof err), 0);
    assert_int_equal(m.bytes[0x100], 1);
    for (uint32_t a = 0x104; a < 0x9100; a++)
        assert_int_equal(m.bytes[a], 0);
    assert_int_equal(m.bytes[0x9100], 0xAA);
    assert_int_equal(res.highest, 0x9100);
    free(img);
}

/* Segments load at p_paddr; the entry (a virtual address) is translated
 * through the segment that holds it. */
static void test_paddr_and_entry_translation(void **state)
{
    (void)state;
    struct seg s[] = {{PT_LOAD, 0x2000, 0x80002000, 8, 8, 0x40}};
    size_t len;
    uint8_t *img = build(s, 1, 0x80002004, &len);
    static struct mem m;
    struct vax_load_result res;
    char err[256];
    assert_int_equal(load(img, len, &m, &res, err, sizeof err), 0);
    assert_int_equal(res.entry, 0x2004);
    assert_int_equal(m.bytes[0x2000], 0x40);
    free(img);
}

static void test_not_elf(void **state)
{
    (void)state;
    static const uint8_t junk[] = "hello, world\n";
    expect_reject(junk, sizeof junk, "not an ELF file (bad magic number)");
    expect_reject(junk, 0, "not an ELF file");
    expect_reject((const uint8_t *)"\177EL", 3, "not an ELF file");
    expect_reject((const uint8_t *)"\177ELF\001\001", 6,
                  "truncated ELF header");
}

static void test_class64(void **state)
{
    (void)state;
    size_t len;
    uint8_t *img = build(good_segs, 3, 0x1004, &len);
    img[EI_CLASS] = ELFCLASS64;
    expect_reject(img, len, "ELFCLASS64");
    img[EI_CLASS] = 7;
    expect_reject(img, len, "invalid ELF class 7");
    free(img);
}

static void test_big_endian(void **state)
{
    (void)state;
    size_t len;
    uint8_t *img = build(good_segs, 3, 0x1004, &len);
    img[EI_DATA] = ELFDATA2MSB;
    expect_reject(img, len, "big-endian");
    free(img);
}

static void test_machine(void **state)
{
    (void)state;
    size_t len;
    uint8_t *img = build(good_segs, 3, 0x1004, &len);
    Elf32_Ehdr *eh = (Elf32_Ehdr *)img;
    eh->e_machine = EM_X86_64;
    expect_reject(img, len, "machine is x86-64 (e_machine 62), expected VAX");
    eh->e_machine = 999;
    expect_reject(img, len, "e_machine is 999, expected VAX (75)");
    free(img);
}

static void test_type(void **state)
{
    (void)state;
    size_t len;
    uint8_t *img = build(good_segs, 3, 0x1004, &len);
    Elf32_Ehdr *eh = (Elf32_Ehdr *)img;
    eh->e_type = ET_REL;
    expect_reject(img, len, "not an executable: file is a relocatable");
    eh->e_type = ET_DYN;
    expect_reject(img, len, "shared object");
    free(img);
}

static void test_no_load(void **state)
{
    (void)state;
    struct seg s[] = {{PT_NOTE, 0, 0, 4, 4, 0}};
    size_t len;
    uint8_t *img = build(s, 1, 0, &len);
    expect_reject(img, len, "no loadable (PT_LOAD) segments");
    free(img);
    img = build(s, 0, 0, &len);
    expect_reject(img, len, "no loadable (PT_LOAD) segments");
    free(img);
}

static void test_truncated(void **state)
{
    (void)state;
    size_t len;
    uint8_t *img = build(good_segs, 3, 0x1004, &len);
    expect_reject(img, len - 1, "segment 2: file bytes");
    expect_reject(img, len - 1, "truncated?");
    /* cut inside the program headers */
    expect_reject(img, sizeof(Elf32_Ehdr) + 10, "truncated");
    /* cut inside the ELF header */
    expect_reject(img, 30, "truncated ELF header");
    free(img);
}

static void test_filesz_gt_memsz(void **state)
{
    (void)state;
    struct seg s[] = {{PT_LOAD, 0x1000, 0x1000, 16, 8, 0}};
    size_t len;
    uint8_t *img = build(s, 1, 0x1000, &len);
    expect_reject(img, len,
                  "segment 0: file size 0x10 is larger than its memory size "
                  "0x8");
    free(img);
}

static void test_overlap(void **state)
{
    (void)state;
    struct seg s[] = {{PT_LOAD, 0x2000, 0x2000, 8, 0x100, 0},
                      {PT_LOAD, 0x1000, 0x1000, 8, 0x1001, 0}};
    size_t len;
    uint8_t *img = build(s, 2, 0x1000, &len);
    expect_reject(img, len,
                  "segments 0 and 1 overlap at physical address 0x2000");
    free(img);
    /* adjacent is fine */
    s[1].memsz = 0x1000;
    img = build(s, 2, 0x1000, &len);
    static struct mem m;
    struct vax_load_result res;
    char err[256];
    assert_int_equal(load(img, len, &m, &res, err, sizeof err), 0);
    free(img);
}

static void test_outside_memory(void **state)
{
    (void)state;
    struct seg s[] = {{PT_LOAD, MEMSZ - 4, MEMSZ - 4, 4, 8, 0}};
    size_t len;
    uint8_t *img = build(s, 1, MEMSZ - 4, &len);
    expect_reject(img, len, "segment 0: physical range 0xfffc-0x10004 lies "
                            "outside memory [0, 0x10000)");
    free(img);
}

static void test_wraparound(void **state)
{
    (void)state;
    struct seg s[] = {{PT_LOAD, 0xFFFFFF00, 0xFFFFFF00, 4, 0x200, 0}};
    size_t len;
    uint8_t *img = build(s, 1, 0xFFFFFF00, &len);
    expect_reject(img, len, "wraps around the 32-bit address space");
    free(img);
}

static void test_entry_outside(void **state)
{
    (void)state;
    size_t len;
    uint8_t *img = build(good_segs, 3, 0x2000, &len);
    expect_reject(img, len,
                  "entry point 0x2000 is not inside any loaded segment");
    free(img);
    img = build(good_segs, 3, 0x1020, &len); /* one past the end */
    expect_reject(img, len, "entry point 0x1020");
    free(img);
}

static void test_write_refused(void **state)
{
    (void)state;
    size_t len;
    uint8_t *img = build(good_segs, 3, 0x1004, &len);
    static struct mem m;
    m.fail_writes = 1;
    struct vax_load_target t = {mem_write, &m, MEMSZ, 0};
    char err[256];
    assert_int_equal(vax_elf_load_mem("x.elf", img, len, &t, NULL, err,
                                      sizeof err), -1);
    assert_non_null(strstr(err, "x.elf: segment 0: physical range "
                                "0x1000-0x1020 is not memory"));
    m.fail_writes = 0;
    free(img);
}

static void test_small_err_buffer(void **state)
{
    (void)state;
    static struct mem m;
    struct vax_load_target t = {mem_write, &m, MEMSZ, 0};
    char err[8];
    assert_int_equal(vax_elf_load_mem("name", "junk", 4, &t, NULL, err,
                                      sizeof err), -1);
    assert_int_equal(strlen(err), 7);
    assert_int_equal(vax_elf_load_mem("name", "junk", 4, &t, NULL, NULL, 0),
                     -1);
}

static void test_file_variant(void **state)
{
    (void)state;
    size_t len;
    uint8_t *img = build(good_segs, 3, 0x1004, &len);
    char path[] = "/tmp/vax_loader_testXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, img, len), (ssize_t)len);
    close(fd);
    static struct mem m;
    memset(m.bytes, 0xAA, sizeof m.bytes);
    struct vax_load_target t = {mem_write, &m, MEMSZ, 0};
    struct vax_load_result res;
    char err[256];
    assert_int_equal(vax_elf_load_file(path, &t, &res, err, sizeof err), 0);
    assert_int_equal(res.entry, 0x1004);
    assert_int_equal(m.bytes[0x1001], 0x11);

    /* the same file truncated on disk */
    assert_int_equal(truncate(path, (off_t)len - 3), 0);
    assert_int_equal(vax_elf_load_file(path, &t, &res, err, sizeof err), -1);
    assert_true(strncmp(err, path, strlen(path)) == 0);
    assert_non_null(strstr(err, "truncated?"));
    unlink(path);

    assert_int_equal(vax_elf_load_file(path, &t, &res, err, sizeof err), -1);
    assert_non_null(strstr(err, "No such file or directory"));
    free(img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_load),
        cmocka_unit_test(test_big_bss),
        cmocka_unit_test(test_paddr_and_entry_translation),
        cmocka_unit_test(test_not_elf),
        cmocka_unit_test(test_class64),
        cmocka_unit_test(test_big_endian),
        cmocka_unit_test(test_machine),
        cmocka_unit_test(test_type),
        cmocka_unit_test(test_no_load),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_filesz_gt_memsz),
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_outside_memory),
        cmocka_unit_test(test_wraparound),
        cmocka_unit_test(test_entry_outside),
        cmocka_unit_test(test_write_refused),
        cmocka_unit_test(test_small_err_buffer),
        cmocka_unit_test(test_file_variant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
