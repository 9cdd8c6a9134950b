/*
 * timeparse.h — exact parsing and formatting of times, numbers and sizes.
 *
 * Owns: the conversion of textual times (integers, decimals, exponents, in a
 * unit of ns/us/ms/s, or RFC 3339 date-times) into int64 nanoseconds, and the
 * human formatting of times and durations.
 * Invariants: decimal input is converted with integer arithmetic only, so an
 * input in ns or us with up to 3 fractional digits is exact; finer digits are
 * rounded to the nearest ns (half away from zero); a result outside int64 is
 * an error, never a wrapped value.
 */
#ifndef TNAV_TIMEPARSE_H
#define TNAV_TIMEPARSE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

enum { TP_OK = 0, TP_NOTNUM = 1, TP_RANGE = 2, TP_NEGATIVE = 3 };

/* Every time of the store lies strictly within ±TIME_LIMIT ns (±2^62 ns:
 * the years 1824 to 2116), so a difference of two times, a span, or a time
 * plus a duration of the store never overflows an int64; the loaders
 * reject records outside it. */
#define TIME_LIMIT ((int64_t)1 << 62)

/* unit exponent: 0 = ns, 3 = us, 6 = ms, 9 = s */
int unit_exp_from_name(const char *name);        /* -1 if unknown */
const char *unit_name_from_exp(int e);

/* A decimal number (optional sign, digits, fraction, exponent) scaled by
 * 10^unit_exp, rounded to an integer. */
int parse_decimal_scaled(const char *s, size_t n, int unit_exp, int64_t *out);
/* An RFC 3339 date-time -> ns since the Unix epoch. */
int parse_rfc3339(const char *s, size_t n, int64_t *out);
/* A time field value: a number in the given unit, or an RFC 3339 date-time. */
int parse_time_value(const char *s, size_t n, int unit_exp, int64_t *out);
/* A duration: a number in the given unit (no date-times). */
int parse_dur_value(const char *s, size_t n, int unit_exp, int64_t *out);
/* A time argument with an optional unit suffix (ns, us, ms, s, m, h), e.g.
 * "1.5s", "200us", "42" (= default unit). */
int parse_time_arg(const char *s, int default_unit_exp, int64_t *out);

/* Strict integer (optional sign, digits only). */
int parse_int64(const char *s, size_t n, int64_t *out);
/* The number syntax of every integer field (bytes, line; doc/FORMAT.md): a
 * decimal number (sign, digits, fraction, exponent: the grammar of
 * parse_double) whose value is a whole number, read exactly: `4096`,
 * `+4096`, `4096.0`, `4.096e3`, `1e18`. TP_NOTNUM for anything else (`4k`,
 * `0x10`, `1_000`, `1.5`), TP_RANGE outside the int64 range. */
int parse_int_exact(const char *s, size_t n, int64_t *out);
/* JSON-style number (also "inf"/"nan" are rejected). */
int parse_double(const char *s, size_t n, double *out);
/* true when s is an integer in canonical form or can be made one
 * (leading zeros, '+'); writes the canonical text into buf (>= 24 bytes). */
bool canonical_int_label(const char *s, size_t n, char *buf, size_t *outlen, int64_t *val);

/* Human-readable duration, e.g. "1.250 s", "12.5 ms", "340 us", "12 ns". */
char *format_dur(char *buf, size_t bufsz, int64_t ns);
/* The same, with the decimals it takes to tell apart times res ns apart
 * (never fewer than format_dur's); the extra digits are truncated. */
char *format_dur_res(char *buf, size_t bufsz, int64_t ns, int64_t res);
/* Human-readable point in time: a duration since 0 for small values, an
 * RFC 3339 date-time (UTC) for values that look like epoch times. */
char *format_ts(char *buf, size_t bufsz, int64_t ns);
/* RFC 3339 UTC with nanoseconds. */
char *format_rfc3339(char *buf, size_t bufsz, int64_t ns);

/* days since 1970-01-01 for a proleptic Gregorian date */
int64_t days_from_civil(int64_t y, unsigned m, unsigned d);

#endif
