/*
 * strbuf.h — a growable, always NUL-terminated string for the test tools
 * (casetool.c, filter_diff.c). Header-only; allocation through util.h.
 *
 * Owns: nothing beyond the buffer of each Str (free(s.b) when done).
 * Invariant: s.b is NULL until the first put, then b[n] == 0.
 */
#ifndef TNAV_TESTS_STRBUF_H
#define TNAV_TESTS_STRBUF_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

typedef struct {
    char *b;
    size_t n, cap;
} Str;

static inline void s_put(Str *s, const char *p, size_t n)
{
    if (s->n + n + 1 > s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 256;
        while (nc < s->n + n + 1) nc *= 2;
        s->b = xrealloc(s->b, nc);
        s->cap = nc;
    }
    if (n) memcpy(s->b + s->n, p, n);
    s->n += n;
    s->b[s->n] = 0;
}

static inline void s_puts(Str *s, const char *p) { s_put(s, p, strlen(p)); }

static inline void s_printf(Str *s, const char *fmt, ...) PRINTF_LIKE(2, 3);
static inline void s_printf(Str *s, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        s_put(s, small, (size_t)n);
        return;
    }
    char *tmp = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(tmp, (size_t)n + 1, fmt, ap);
    va_end(ap);
    s_put(s, tmp, (size_t)n);
    free(tmp);
}

#endif
