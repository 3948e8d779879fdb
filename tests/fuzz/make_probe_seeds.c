/* Makes the seeds of fuzz_probe_loader (corpus/probe_loader): the images
 * of a few probe programs in the text form, one per kind of checkpoint
 * and map, and byte strings for the target's field-by-field builder.
 * usage: make_probe_seeds DIR (run by hand; the seeds are committed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vax/probe/probe_asm.h"
#include "vax/probe/probe_image.h"

/* PC addresses are the target's guest's: it moves any other to one of
 * its instructions. */
static const char *const programs[] = {
    "map n count keys 8\n"
    "map d stats keys 8\n"
    "probe fin pc 1\n"
    "    ctx p0, ap\n"
    "    ldv p1, [p0 + 4], 4\n"
    "    watch fret, p1\n"
    "    exit\n"
    "probe fret ret\n"
    "    ctx p0, cookie\n"
    "    ctx p1, dur\n"
    "    ctx p2, durx\n"
    "    agg n, p0, p0\n"
    "    agg d, p0, p1\n"
    "    rec 5, p0, 3\n"
    "    exit\n",

    "map h hist\n"
    "map l lhist 0 4 16\n"
    "probe c event 0x3000 mask 0xF000\n"
    "    ctx p0, event\n"
    "    ctx p1, r11\n"
    "    agg h, p0, p1\n"
    "    agg l, p0, p1\n"
    "    tron\n"
    "    exit\n"
    "probe s sample 1500\n"
    "    ctx p0, pc\n"
    "    ldv p1, [p0 + 0], 1\n"
    "    ldp p2, [p0 - 8], 2\n"
    "    ldva p3, [0x1000], 4\n"
    "    rec 1, p0, 4\n"
    "    troff\n"
    "    exit\n",

    "map m count keys 4\n"
    "map x max\n"
    "map y min\n"
    "probe a pc 3\n"
    "    ldi p0, 7\n"
    "    loop 4\n"
    "    addi p0, 3\n"
    "    muli p0, 5\n"
    "    endloop\n"
    "    divi p0, 3\n"
    "    modi p0, 4\n"
    "    bltu p0, p0, skip\n"
    "    ldm p1, m, p0\n"
    "    addi p1, 1\n"
    "    stm m, p0, p1\n"
    "skip:\n"
    "    agg x, p0, p0\n"
    "    agg y, p0, p0\n"
    "    disarm b\n"
    "    note 9\n"
    "    exit\n"
    "probe b pc 1 disarmed\n"
    "    ctx p0, cycles\n"
    "    ctx p1, usecs\n"
    "    ctx p2, cachemiss\n"
    "    ctx p3, tbmiss\n"
    "    sub p0, p1\n"
    "    rec 2, p0, 4\n"
    "    arm a\n"
    "    exit\n",
};

static int write_seed(const char *dir, const char *name, const void *b, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b, 1, n, f) != n || fclose(f) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_probe_seeds DIR\n");
        return 2;
    }
    static struct prb_program p;
    char err[300], name[64];
    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++) {
        if (prb_asm(programs[i], strlen(programs[i]), "seed", &p, err, sizeof err)) {
            fprintf(stderr, "seed %zu: %s\n", i, err);
            return 1;
        }
        size_t n = prb_image_size(&p);
        unsigned char *img = malloc(n);
        if (!img)
            return 1;
        prb_image_encode(&p, img);
        snprintf(name, sizeof name, "image-%zu", i);
        if (write_seed(argv[1], name, img, n))
            return 1;
        free(img);
    }
    /* the builder's: a fixed pseudo-random sequence (xorshift) */
    unsigned x = 12345;
    for (int i = 0; i < 8; i++) {
        unsigned char b[96];
        for (size_t k = 0; k < sizeof b; k++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            b[k] = (unsigned char)x;
        }
        snprintf(name, sizeof name, "fields-%d", i);
        if (write_seed(argv[1], name, b, sizeof b))
            return 1;
    }
    return 0;
}
