/* The I/O tests' check counter: CHECK(cond, printf-style message) counts
 * a check and prints a failure with its place; main returns fails != 0. */
#ifndef TESTS_IO_IO_CHECK_H
#define TESTS_IO_IO_CHECK_H

#include <stdio.h>

static int fails, checks;
#define CHECK(c, ...)                                                  \
    do {                                                               \
        checks++;                                                      \
        if (!(c)) {                                                    \
            fails++;                                                   \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                \
            printf(__VA_ARGS__);                                       \
            printf("\n");                                              \
        }                                                              \
    } while (0)

#endif
