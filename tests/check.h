/*
 * check.h — the checks and the runner shared by the C test programs
 * (unit.c, tui_unit.c).
 *
 * Owns: the failed-check counter and the tally line.
 * Invariants: a failed check prints its file:line and expression and the
 * run goes on; each test prints "ok - name" or "not ok - name"; the run
 * ends with "<suite>: P passed, F failed" and exits 1 when F > 0.
 */
#ifndef TNAV_TEST_CHECK_H
#define TNAV_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_fail_checks;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            printf("    %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
            g_fail_checks++;                                                         \
        }                                                                            \
    } while (0)
#define CHECK_EQ_I(a, b)                                                             \
    do {                                                                             \
        long long a_ = (long long)(a), b_ = (long long)(b);                         \
        if (a_ != b_) {                                                              \
            printf("    %s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, #a, a_, #b, b_); \
            g_fail_checks++;                                                         \
        }                                                                            \
    } while (0)
#define CHECK_EQ_S(a, b)                                                             \
    do {                                                                             \
        const char *a_ = (a), *b_ = (b);                                             \
        if (strcmp(a_, b_)) {                                                        \
            printf("    %s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, a_, b_); \
            g_fail_checks++;                                                         \
        }                                                                            \
    } while (0)

typedef struct {
    const char *name;
    void (*fn)(void);
} Test;

/* run the tests in order; the exit status of the program */
static inline int run_tests(const char *suite, const Test *tests, size_t n)
{
    int pass = 0, fail = 0;
    for (size_t i = 0; i < n; i++) {
        int before = g_fail_checks;
        tests[i].fn();
        fflush(stdout);
        if (g_fail_checks == before) {
            printf("ok - %s\n", tests[i].name);
            pass++;
        } else {
            printf("not ok - %s\n", tests[i].name);
            fail++;
        }
    }
    printf("%s: %d passed, %d failed\n", suite, pass, fail);
    return fail ? 1 : 0;
}

#endif
