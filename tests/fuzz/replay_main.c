/* Runs a fuzz target (linked in) once on each file named on the command
 * line, or on each file of each directory named, so the seed corpus is
 * exercised by the ordinary build without libFuzzer.  Exit 0 if every
 * input ran (the target traps on a bug), 1 if an input could not be read. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            fprintf(stderr, "%s: out of memory\n", path);
            return -1;
        }
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                continue;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    /* exact-size copy so ASan sees over-reads */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

int main(int argc, char **argv)
{
    int bad = 0, ran = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            bad = 1;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            bad |= run_file(argv[i]) != 0;
            ran++;
            continue;
        }
        struct dirent **ents;
        int k = scandir(argv[i], &ents, NULL, alphasort);
        if (k < 0) {
            perror(argv[i]);
            bad = 1;
            continue;
        }
        for (int j = 0; j < k; j++) {
            if (ents[j]->d_name[0] != '.') {
                size_t len = strlen(argv[i]) + strlen(ents[j]->d_name) + 2;
                char *p = malloc(len);
                if (p) {
                    snprintf(p, len, "%s/%s", argv[i], ents[j]->d_name);
                    bad |= run_file(p) != 0;
                    ran++;
                    free(p);
                }
            }
            free(ents[j]);
        }
        free(ents);
    }
    printf("replayed %d input(s)\n", ran);
    return bad;
}
