/* libFuzzer target: the command-line layer (issue 20).  An input is an
 * argument vector and up to three input files:
 *
 *   TOOL\nARG\nARG...\n\nFILE0[\n--file--\nFILE1[\n--file--\nFILE2]]
 *
 * TOOL is spamctl, vasm, vdis or uasm; the files are written as f0, f1,
 * f2 into a scratch directory, which is the working directory while the
 * tool runs (and is emptied before each input), so arguments name them.
 * The tool's main runs in process (its main renamed at compile time, see
 * meson.build), its stdout and stderr into /dev/null.  A crash, a
 * sanitizer report or a leak is a bug.
 *
 * Kept out, so that every input stays fast and harmless: arguments with a
 * '/' (the tools write where they are told: only the scratch directory),
 * `spamctl demo` and `spamctl bsd43` (a guest boot takes seconds, an
 * install minutes), `spamctl probe` and `top` with --os (a 4.3BSD boot;
 * without it they find no distribution to install), --utrace, and a configuration file (run --config,
 * boot) whose files hold a '/'; `spamctl run` and `boot` get
 * "--max-cycles 300000 --memory 2" appended (the last occurrence wins). */
#define _XOPEN_SOURCE 700 /* nftw */
#define _DEFAULT_SOURCE 1 /* mkdtemp */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int spamctl_main(int argc, char **argv);
int vasm_main(int argc, char **argv);
int vdis_main(int argc, char **argv);
int uasm_main(int argc, char **argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 32
#define MAX_ARG_LEN 256
#define MAX_FILES 3

static char scratch[64]; /* the scratch directory, made once */

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    if (ftw->level > 0)
        remove(path);
    return 0;
}

/* Empties the scratch directory (the tools may have made files and
 * directories in it). */
static void clean(void)
{
    nftw(scratch, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void remove_scratch(void)
{
    clean();
    rmdir(scratch);
}

static int setup(void)
{
    if (scratch[0])
        return 0;
    snprintf(scratch, sizeof scratch, "/tmp/fuzz_cli.XXXXXX");
    if (!mkdtemp(scratch)) {
        scratch[0] = 0;
        return -1;
    }
    atexit(remove_scratch);
    /* stdin reads nothing; stdout (a tool writing to fd 1 directly, as
     * compress to '-' does) goes nowhere; libFuzzer reports on stderr */
    int fd = open("/dev/null", O_RDWR);
    if (fd < 0)
        return -1;
    dup2(fd, 0);
    dup2(fd, 1);
    close(fd);
    return 0;
}

static const uint8_t *find(const uint8_t *p, const uint8_t *end, const char *s)
{
    size_t n = strlen(s);
    for (; p + n <= end; p++)
        if (memcmp(p, s, n) == 0)
            return p;
    return NULL;
}

static int write_file(const char *name, const uint8_t *p, size_t n)
{
    FILE *f = fopen(name, "wb");
    if (!f)
        return -1;
    size_t k = n ? fwrite(p, 1, n, f) : 0;
    return fclose(f) == 0 && k == n ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (setup() != 0)
        return 0;
    const uint8_t *end = data + size, *sep = find(data, end, "\n\n");
    if (!sep)
        return 0;
    /* the argument vector */
    static char words[MAX_ARGS][MAX_ARG_LEN + 1];
    char *argv[MAX_ARGS + 5];
    int argc = 0;
    for (const uint8_t *p = data; p < sep && argc < MAX_ARGS;) {
        const uint8_t *nl = memchr(p, '\n', (size_t)(sep - p));
        size_t n = (size_t)((nl ? nl : sep) - p);
        if (n > MAX_ARG_LEN || memchr(p, '/', n) || memchr(p, 0, n))
            return 0;
        memcpy(words[argc], p, n);
        words[argc][n] = 0;
        argv[argc] = words[argc];
        argc++;
        p += n + 1;
    }
    if (argc == 0)
        return 0;
    int (*tool)(int, char **) = NULL;
    if (strcmp(argv[0], "spamctl") == 0)
        tool = spamctl_main;
    else if (strcmp(argv[0], "vasm") == 0)
        tool = vasm_main;
    else if (strcmp(argv[0], "vdis") == 0)
        tool = vdis_main;
    else if (strcmp(argv[0], "uasm") == 0)
        tool = uasm_main;
    if (!tool)
        return 0;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--utrace") == 0)
            return 0;
    if (tool == spamctl_main && argc > 1 &&
        (strcmp(argv[1], "demo") == 0 || strcmp(argv[1], "bsd43") == 0))
        return 0;
    /* probe and top: no 4.3BSD boot (--os), and no install for the
     * guest's names (no distribution found) */
    if (tool == spamctl_main && argc > 1 &&
        (strcmp(argv[1], "probe") == 0 || strcmp(argv[1], "top") == 0)) {
        for (int i = 2; i < argc; i++)
            if (strncmp(argv[i], "--os", 4) == 0)
                return 0;
        setenv("SPAMCTL_BSD43_DIST", "no-distribution-here", 1);
    }
    /* a configuration file names files too: only the scratch directory's */
    int config = tool == spamctl_main && argc > 1 && strcmp(argv[1], "boot") == 0;
    for (int i = 1; i < argc; i++)
        config |= tool == spamctl_main && strcmp(argv[i], "--config") == 0;
    if (config && memchr(sep, '/', (size_t)(end - sep)))
        return 0;
    if (tool == spamctl_main && argc > 1 &&
        (strcmp(argv[1], "run") == 0 || strcmp(argv[1], "boot") == 0)) {
        static char mc[] = "--max-cycles", mcv[] = "300000", mem[] = "--memory", memv[] = "2";
        argv[argc++] = mc;
        argv[argc++] = mcv;
        argv[argc++] = mem;
        argv[argc++] = memv;
    }
    argv[argc] = NULL;

    int home = open(".", O_RDONLY | O_DIRECTORY);
    if (home < 0 || chdir(scratch) != 0) {
        if (home >= 0)
            close(home);
        return 0;
    }
    clean();
    /* the files */
    const uint8_t *p = sep + 2;
    for (int k = 0; k < MAX_FILES && p <= end; k++) {
        const uint8_t *next = find(p, end, "\n--file--\n");
        char name[4] = {'f', (char)('0' + k), 0, 0};
        write_file(name, p, (size_t)((next ? next : end) - p));
        if (!next)
            break;
        p = next + 10;
    }
    /* the tool, its stdio into /dev/null (spamctl's main closes its
     * stdout: a fresh stream each time) */
    FILE *out = fopen("/dev/null", "w"), *err = fopen("/dev/null", "w");
    if (out && err) {
        FILE *so = stdout, *se = stderr;
        stdout = out;
        stderr = err;
        tool(argc, argv);
        if (tool != spamctl_main)
            fclose(out); /* spamctl's main closes its stdout itself */
        fclose(err);
        stdout = so;
        stderr = se;
    } else {
        if (out)
            fclose(out);
        if (err)
            fclose(err);
    }
    clean();
    if (fchdir(home) != 0)
        abort();
    close(home);
    return 0;
}
