/* A test rig for vax/io without a CPU: the I/O system wired as in the
 * machine, a megabyte of "memory" behind a checked port, a clock the test
 * moves, and register access by physical address as the CPU would make
 * it.  Each test program includes this once. */
#ifndef TESTS_IO_IO_RIG_H
#define TESTS_IO_IO_RIG_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vax/io/io_system.h"

#include "io_check.h"

#define RIG_MEM (1u << 20)

struct rig {
    uint64_t now;
    uint8_t *mem;
    struct io_memory port;
    struct io_system *sys;
    unsigned dma_reads, dma_writes;
};

static inline int rig_mem_read(void *ctx, uint32_t pa, void *buf, uint32_t n)
{
    struct rig *r = ctx;
    if (pa >= RIG_MEM || n > RIG_MEM - pa)
        return -1;
    memcpy(buf, r->mem + pa, n);
    r->dma_reads++;
    return 0;
}

static inline int rig_mem_write(void *ctx, uint32_t pa, const void *buf, uint32_t n)
{
    struct rig *r = ctx;
    if (pa >= RIG_MEM || n > RIG_MEM - pa)
        return -1;
    memcpy(r->mem + pa, buf, n);
    r->dma_writes++;
    return 0;
}

static inline struct rig *rig_new(const struct io_config *cfg)
{
    struct rig *r = calloc(1, sizeof *r);
    r->mem = calloc(1, RIG_MEM);
    r->port = (struct io_memory){.ctx = r, .read = rig_mem_read, .write = rig_mem_write};
    r->sys = io_system_new(&r->now, NULL, &r->port, cfg);
    if (!r->sys) {
        printf("io_system_new failed\n");
        exit(1);
    }
    return r;
}

static inline void rig_free(struct rig *r)
{
    io_system_free(r->sys);
    free(r->mem);
    free(r);
}

/* Moves time to t, running each event at its own due time. */
static inline void rig_run_to(struct rig *r, uint64_t t)
{
    while (io_events_next(&r->sys->ev) <= t) {
        uint64_t n = io_events_next(&r->sys->ev);
        if (n > r->now)
            r->now = n;
        io_events_run(&r->sys->ev);
    }
    if (t > r->now)
        r->now = t;
}

static inline void rig_run(struct rig *r, uint64_t dt) { rig_run_to(r, r->now + dt); }

/* Runs until cond holds or `limit` microcycles pass; 1 if it held. */
#define RIG_WAIT(r, cond, limit)                                             \
    ({                                                                       \
        uint64_t end_ = (r)->now + (limit);                                  \
        while (!(cond) && io_events_next(&(r)->sys->ev) <= end_)             \
            rig_run_to((r), io_events_next(&(r)->sys->ev));                  \
        (cond) ? 1 : 0;                                                      \
    })

static inline unsigned slot_of(uint32_t pa) { return (pa - IO_ABUS_BASE) / IO_ABUS_WINDOW; }

static inline enum io_status rig_rd(struct rig *r, uint32_t pa, int width, uint32_t *v)
{
    return io_abus_read(&r->sys->abus, slot_of(pa), pa, width, v);
}

static inline enum io_status rig_wr(struct rig *r, uint32_t pa, int width, uint32_t v)
{
    return io_abus_write(&r->sys->abus, slot_of(pa), pa, width, v);
}

static inline uint32_t rd32(struct rig *r, uint32_t pa)
{
    uint32_t v = 0xDEADBEEF;
    enum io_status st = rig_rd(r, pa, 4, &v);
    if (st != IO_OK) {
        printf("FAIL read of 0x%08X: status %d\n", pa, st);
        fails++;
    }
    return v;
}

static inline void wr32(struct rig *r, uint32_t pa, uint32_t v)
{
    enum io_status st = rig_wr(r, pa, 4, v);
    if (st != IO_OK) {
        printf("FAIL write of 0x%08X: status %d\n", pa, st);
        fails++;
    }
}

/* Physical addresses of the configuration (io_system.h). */
#define NEXUS(tr) (0x20000000u + 0x2000u * (tr))
#define SBIA_REG(off) (0x20080000u + (off))
#define MBA0 NEXUS(IO_TR_MBA0)
#define MBA1 NEXUS(IO_TR_MBA1)
#define UBA NEXUS(IO_TR_UBA)
#define MBA_CR 0x04u
#define MBA_SR 0x08u
#define MBA_VA 0x0Cu
#define MBA_BC 0x10u
#define MBA_DRV(d, reg) (0x400u + 0x80u * (d) + 4u * (reg))
#define MBA_MAP(i) (0x800u + 4u * (i))
#define UNIBUS(ua) (0x20100000u + (ua))

/* A temporary file with `len` bytes from fill(i); its path in path. */
static inline void rig_tempfile(char *path, size_t cap, const uint8_t *data, size_t len)
{
    snprintf(path, cap, "/tmp/vax-io-test-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0 || (len && write(fd, data, len) != (ssize_t)len)) {
        printf("cannot make a temporary file\n");
        exit(1);
    }
    close(fd);
}

static inline int rig_report(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, checks, fails);
    return fails ? 1 : 0;
}


/* Checked register references of the tests: a bus error is a failed check. */
static inline uint32_t rd16(struct rig *r, uint32_t pa)
{
    uint32_t v = 0xDEAD;
    if (rig_rd(r, pa, 2, &v) != IO_OK)
        CHECK(0, "word read of 0x%08X", pa);
    return v;
}

static inline void wr16(struct rig *r, uint32_t pa, uint32_t v)
{
    if (rig_wr(r, pa, 2, v) != IO_OK)
        CHECK(0, "word write of 0x%08X", pa);
}

static inline void wr8(struct rig *r, uint32_t pa, uint32_t v)
{
    if (rig_wr(r, pa, 1, v) != IO_OK)
        CHECK(0, "byte write of 0x%08X", pa);
}

#endif
