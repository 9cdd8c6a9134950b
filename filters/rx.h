/*
 * rx.h — the PCRE2 wrapper of the filter language.
 *
 * Owns: compiled patterns (PCRE2, UTF mode, JIT when available), their
 * match data, match context (limits) and JIT stack.
 * Invariants: a Regex is compiled once and matched many times from one
 * thread; rx_compile reports an error with the offset inside the pattern
 * where PCRE2 stopped; every match is bounded (RX_MATCH_LIMIT steps of
 * backtracking, RX_DEPTH_LIMIT of nesting, a JIT stack of at most
 * RX_JIT_STACK bytes); a match that hits a limit or fails otherwise is an
 * error (a negative result), never a silent "no match".
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
/* backtracking steps, nesting depth and JIT stack bytes one match may use
 * (the depth limit is the interpreter's: it applies when JIT compilation
 * is not available or TNAV_NO_JIT=1 is set) */
#define RX_MATCH_LIMIT 1000000u
#define RX_DEPTH_LIMIT 10000u
#define RX_JIT_STACK (1u << 20)
/* 1: s[0..n) matches, 0: it does not, < 0: the match failed (a PCRE2 error
 * code: a limit was hit); rx_error says why. */
int rx_match(Regex *rx, const char *s, size_t n);
/* the reason of a failed match, "match limit exceeded" */
void rx_error(int code, char *buf, size_t sz);
/* the message of a match of rx that failed with code on s[0..n): "regex
 * /PATTERN/ failed on 'SUBJECT…': REASON", the pattern cut at 80 bytes and
 * the subject at 40 (whole characters); one wording for filters and for
 * the name patterns of tnav stats */
void rx_fail_message(const Regex *rx, int code, const char *s, size_t n, char *buf, size_t sz);
bool rx_jit(const Regex *rx); /* whether JIT compilation succeeded */
/* the pattern and flags it was compiled from */
const char *rx_pattern(const Regex *rx, size_t *n, int *flags);
void rx_free(Regex *rx);

#endif
