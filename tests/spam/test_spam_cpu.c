/* libspam's CPU accounting (spam/spam_cpu.h) on hand-made event
 * sequences whose time is counted by hand: user and kernel time, an
 * interrupt's exclusive time, a system call that sleeps (idle until the
 * switch), one that does not, a process preempted in an interrupt that
 * returns to user mode through its REI, a call that never returns, and
 * the sum of everything equal to the span. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "spam/spam_cpu.h"

#define USER_PSL 0x0300u /* PSL<25:24> = 3 */
#define KERN_PSL 0x0000u

static struct spam_event ev(uint64_t index, uint64_t t, unsigned cls, unsigned detail, int32_t pid)
{
    struct spam_event e;
    memset(&e, 0, sizeof e);
    e.index = index;
    e.t_us = t;
    e.cls = (uint8_t)cls;
    e.ev = SPAM_EVENT(cls, detail);
    e.pid = pid;
    e.uid = pid * 10;
    e.psl_hi = KERN_PSL;
    if (cls == SPAM_CLASS_LDPCTX) {
        e.major = 0;
        e.minor = 0;
        e.inode = (uint16_t)(100 + pid);
    }
    return e;
}

/* An REI returning to `psl`, matched with the event at open_index (or
 * unmatched when open_ev is 0). */
static struct spam_event rei(uint64_t index, uint64_t t, int32_t pid, uint16_t psl,
                             uint64_t open_index, uint16_t open_ev)
{
    struct spam_event e = ev(index, t, SPAM_CLASS_REI, 0, pid);
    e.psl_hi = psl;
    if (open_ev) {
        e.open_index = open_index;
        e.open_ev = open_ev;
    } else {
        e.flags = SPAM_EVF_UNMATCHED;
    }
    return e;
}

static const struct spam_cpu_proc *find(const struct spam_cpu *c, int32_t pid)
{
    size_t n;
    const struct spam_cpu_proc *p = spam_cpu_procs(c, &n);
    for (size_t i = 0; i < n; i++)
        if (p[i].pid == pid)
            return &p[i];
    return NULL;
}

static uint64_t total(const struct spam_cpu *c)
{
    size_t n;
    const struct spam_cpu_proc *p = spam_cpu_procs(c, &n);
    uint64_t t = spam_cpu_idle(c);
    for (size_t i = 0; i < n; i++)
        t += p[i].user_us + p[i].sys_us;
    for (unsigned v = 0; v < SPAM_CPU_VECTORS; v++)
        t += spam_cpu_vector(c, v)->us;
    return t;
}

static void feed(struct spam_cpu *c, const struct spam_event *e, size_t n)
{
    for (size_t i = 0; i < n; i++)
        assert_int_equal(spam_cpu_event(c, &e[i]), 0);
    spam_cpu_finish(c);
}

static void test_sleep_and_interrupt(void **state)
{
    (void)state;
    const uint16_t chm = SPAM_EVENT(SPAM_CLASS_CHM, 3), clk = SPAM_EVENT(SPAM_CLASS_INTERRUPT, 0xC0);
    struct spam_event e[] = {
        ev(0, 0, SPAM_CLASS_LDPCTX, 0, 10),
        rei(1, 10, 10, USER_PSL, 0, 0),                 /* 10 us kernel after the switch */
        ev(2, 110, SPAM_CLASS_INTERRUPT, 0xC0, 10),     /* 100 us user */
        rei(3, 130, 10, USER_PSL, 2, clk),              /* 20 us in the clock */
        ev(5, 200, SPAM_CLASS_CHM, 3, 10),              /* 70 us user */
        ev(6, 250, SPAM_CLASS_LDPCTX, 0, 11),           /* 50 us: the call sleeps: idle */
        rei(8, 300, 11, USER_PSL, 0, 0),                /* 50 us kernel of 11 */
        ev(9, 400, SPAM_CLASS_LDPCTX, 0, 10),           /* 100 us user of 11 */
        rei(11, 420, 10, USER_PSL, 5, chm),             /* 20 us kernel of 10 */
        ev(12, 500, SPAM_CLASS_CHM, 3, 10),             /* 80 us user */
        rei(13, 530, 10, USER_PSL, 12, chm),            /* 30 us: no switch: kernel */
        ev(14, 600, SPAM_CLASS_MARKER, 1, 10),          /* 70 us user */
    };
    struct spam_cpu *c = spam_cpu_new();
    assert_non_null(c);
    feed(c, e, sizeof e / sizeof e[0]);
    const struct spam_cpu_proc *p10 = find(c, 10), *p11 = find(c, 11);
    assert_non_null(p10);
    assert_non_null(p11);
    assert_int_equal(p10->user_us, 100 + 70 + 80 + 70);
    assert_int_equal(p10->sys_us, 10 + 20 + 30);
    assert_int_equal(p10->switches, 2);
    assert_int_equal(p10->inode, 110);
    assert_int_equal(p10->uid, 100);
    assert_int_equal(p11->user_us, 100);
    assert_int_equal(p11->sys_us, 50);
    assert_int_equal(spam_cpu_idle(c), 50);
    assert_int_equal(spam_cpu_vector(c, 0xC0 / 4)->us, 20);
    assert_int_equal(spam_cpu_vector(c, 0xC0 / 4)->count, 1);
    assert_int_equal(spam_cpu_span(c), 600);
    assert_int_equal(total(c), 600);
    spam_cpu_free(c);
}

/* Process 1 is preempted in an AST interrupt (IPL 2, SCB 0x88): the
 * switch forgets the interrupt; when 1 runs again, that interrupt's REI
 * takes it back to user mode.  A nested interrupt's REI to kernel mode
 * returns to the state before it (here: a pending call). */
static void test_preempted(void **state)
{
    (void)state;
    const uint16_t ast = SPAM_EVENT(SPAM_CLASS_INTERRUPT, 0x88), net = SPAM_EVENT(SPAM_CLASS_INTERRUPT, 0xB0);
    const uint16_t chm = SPAM_EVENT(SPAM_CLASS_CHM, 4);
    struct spam_event e[] = {
        ev(0, 0, SPAM_CLASS_LDPCTX, 0, 1),
        rei(2, 5, 1, USER_PSL, 0, 0),                   /* 5 kernel */
        ev(3, 100, SPAM_CLASS_INTERRUPT, 0x88, 1),      /* 95 user */
        ev(4, 110, SPAM_CLASS_LDPCTX, 0, 2),            /* 10 in 0x88 */
        rei(6, 120, 2, USER_PSL, 0, 0),                 /* 10 kernel of 2 */
        ev(7, 200, SPAM_CLASS_LDPCTX, 0, 1),            /* 80 user of 2 */
        rei(9, 205, 1, USER_PSL, 3, ast),               /* 5 kernel of 1 */
        ev(10, 300, SPAM_CLASS_CHM, 4, 1),              /* 95 user */
        ev(11, 310, SPAM_CLASS_INTERRUPT, 0xB0, 1),     /* 10: the call, pending */
        rei(12, 340, 1, KERN_PSL, 11, net),             /* 30 in 0xB0 */
        rei(13, 350, 1, USER_PSL, 10, chm),             /* 10 more of the call: kernel */
        ev(14, 360, SPAM_CLASS_CHM, 1, 1),              /* 10 user; exit: never returns */
        ev(15, 400, SPAM_CLASS_MARKER, 1, 1),           /* 40: the call's, kernel at the end */
    };
    struct spam_cpu *c = spam_cpu_new();
    assert_non_null(c);
    feed(c, e, sizeof e / sizeof e[0]);
    const struct spam_cpu_proc *p1 = find(c, 1), *p2 = find(c, 2);
    assert_int_equal(p1->user_us, 95 + 95 + 10);
    assert_int_equal(p1->sys_us, 5 + 5 + 10 + 10 + 40);
    assert_int_equal(p2->user_us, 80);
    assert_int_equal(p2->sys_us, 10);
    assert_int_equal(spam_cpu_vector(c, 0x88 / 4)->us, 10);
    assert_int_equal(spam_cpu_vector(c, 0xB0 / 4)->us, 30);
    assert_int_equal(spam_cpu_idle(c), 0);
    assert_int_equal(total(c), 400);
    spam_cpu_free(c);
}

/* Many calls that sleep and never return (processes that exit while
 * asleep would): the table of pending calls grows and shrinks. */
static void test_many_pending(void **state)
{
    (void)state;
    struct spam_cpu *c = spam_cpu_new();
    assert_non_null(c);
    uint64_t t = 0, idx = 0;
    for (int32_t pid = 1; pid <= 5000; pid++) {
        struct spam_event a = ev(idx++, t, SPAM_CLASS_LDPCTX, 0, pid);
        struct spam_event b = ev(idx++, t + 3, SPAM_CLASS_CHM, 2, pid);
        assert_int_equal(spam_cpu_event(c, &a), 0);
        assert_int_equal(spam_cpu_event(c, &b), 0);
        t += 10;
    }
    /* the odd ones return after a switch: their 7 us were idle */
    for (int32_t pid = 1; pid <= 5000; pid += 2) {
        struct spam_event a = ev(idx++, t, SPAM_CLASS_LDPCTX, 0, pid);
        struct spam_event r = rei(idx++, t, pid, USER_PSL, (uint64_t)(pid - 1) * 2 + 1,
                                  SPAM_EVENT(SPAM_CLASS_CHM, 2));
        assert_int_equal(spam_cpu_event(c, &a), 0);
        assert_int_equal(spam_cpu_event(c, &r), 0);
    }
    spam_cpu_finish(c);
    assert_int_equal(spam_cpu_idle(c), 2500 * 7);
    assert_int_equal(find(c, 2)->sys_us, 3 + 7);
    assert_int_equal(total(c), spam_cpu_span(c));
    spam_cpu_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sleep_and_interrupt),
        cmocka_unit_test(test_preempted),
        cmocka_unit_test(test_many_pending),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
