/* The A-bus (io_abus.h). */
#include "vax/io/io_abus.h"

#include <string.h>

void io_abus_init(struct io_abus *a) { memset(a, 0, sizeof *a); }

enum io_status io_abus_read(struct io_abus *a, unsigned slot, uint32_t pa, int width,
                            uint32_t *val)
{
    *val = 0;
    if (slot >= IO_ABUS_SLOTS || !a->slot[slot])
        return IO_TIMEOUT;
    return io_sbia_read(a->slot[slot], pa % IO_ABUS_WINDOW, width, val);
}

enum io_status io_abus_write(struct io_abus *a, unsigned slot, uint32_t pa, int width,
                             uint32_t val)
{
    enum io_status st = IO_TIMEOUT;
    if (slot < IO_ABUS_SLOTS && a->slot[slot])
        st = io_sbia_write(a->slot[slot], pa % IO_ABUS_WINDOW, width, val);
    if (st == IO_TIMEOUT && !a->wtmo) {
        a->wtmo = 1;
        a->wtmo_pa = pa;
        if (a->wake)
            *a->wake = 1;
    }
    return st;
}

int io_abus_int_eval(const struct io_abus *a, uint32_t *vec)
{
    if (a->wtmo) {
        *vec = IO_WTMO_VECTOR;
        return IO_WTMO_IPL;
    }
    int best = 0;
    uint32_t bv = 0;
    for (unsigned i = 0; i < IO_ABUS_SLOTS; i++) {
        uint32_t v;
        int l = a->slot[i] ? io_sbia_int_eval(a->slot[i], &v) : 0;
        if (l > best) {
            best = l;
            bv = v;
        }
    }
    *vec = bv;
    return best;
}

void io_abus_int_ack(struct io_abus *a, int ipl)
{
    if (ipl == IO_WTMO_IPL && a->wtmo) {
        a->wtmo = 0;
        return;
    }
    for (unsigned i = 0; i < IO_ABUS_SLOTS; i++) {
        uint32_t v;
        if (a->slot[i] && io_sbia_int_eval(a->slot[i], &v) == ipl) {
            io_sbia_int_ack(a->slot[i], ipl);
            return;
        }
    }
}
