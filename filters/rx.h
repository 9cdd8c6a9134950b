/*
 * rx.h — the PCRE2 wrapper of the filter language.
 *
 * Owns: compiled patterns (PCRE2, UTF mode, JIT when available) and their
 * match data.
 * Invariants: a Regex is compiled once and matched many times from one
 * thread; rx_compile reports an error with the offset inside the pattern
 * where PCRE2 stopped; matching never fails for valid UTF-8 subjects (the
 * loaders guarantee them).
 */
#ifndef TNAV_RX_H
#define TNAV_RX_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Regex Regex;

enum { RX_I = 1, RX_X = 2, RX_S = 4, RX_M = 8 }; /* flags i x s m */

/* Compile pattern[0..n). On error returns NULL, writes the message into err
 * and the byte offset in the pattern into *erroff. */
Regex *rx_compile(const char *pattern, size_t n, int flags, char *err, size_t errsz, size_t *erroff);
bool rx_match(Regex *rx, const char *s, size_t n);
bool rx_jit(const Regex *rx); /* whether JIT compilation succeeded */
/* the pattern and flags it was compiled from */
const char *rx_pattern(const Regex *rx, size_t *n, int *flags);
void rx_free(Regex *rx);

#endif
