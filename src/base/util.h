/*
 * util.h — small shared helpers for the core: checked allocation, growable
 * vectors, fatal errors, monotonic clock, hashing, UTF-8 validation.
 *
 * Invariants: allocation never returns NULL (out of memory is fatal with a
 * message, exit 3); VEC_* macros keep len <= cap and grow geometrically;
 * nothing here touches global state except the program name used in messages.
 */
#ifndef TNAV_UTIL_H
#define TNAV_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#define TNAV_VERSION "0.1.0"

#define NONE32 UINT32_MAX

#if defined(__GNUC__)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define PRINTF_LIKE(a, b) __attribute__((format(printf, a, b)))
#define NORETURN __attribute__((noreturn))
#else
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#define PRINTF_LIKE(a, b)
#define NORETURN
#endif

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* For big arrays (columns, indexes): like xmalloc, but an allocation of at
 * least 4 MiB is 2 MiB-aligned (whole page tables, which page moving
 * moves at once) and made of pages already touched when there are some:
 * while a page pool is served (pages_serve), its pages, else those of the
 * big-block recycler's blocks. No huge-page advice: the system's policy
 * decides. Contents undefined. Freed with free(). */
void *xmalloc_big(size_t n);
void *xcalloc_big(size_t n, size_t sz);
/* Like xmalloc_big, but a reused block keeps all its pages (xmalloc_big
 * gives back what a smaller request does not need): for arrays rebuilt
 * again and again at varying sizes, such as the summaries after each new
 * filter, whose next, larger build then finds its memory already touched. */
void *xmalloc_big_keep(size_t n);
/* Like xmalloc_big, but never a block from the recycler, and NULL when
 * the memory is not there: for memory prepared ahead, on another thread,
 * which is only worth having. */
void *big_alloc_fresh(size_t n);
/* Give back a block of n bytes from xmalloc_big for reuse by a later
 * xmalloc_big in this process (memory already touched is far cheaper than
 * fresh pages); big_cache_trim() frees the blocks still held and gives back
 * the pages a store build kept (pages_keep). Thread-safe. */
void xfree_big(void *p, size_t n);
/* Like xfree_big, for a block of n bytes from xmalloc_big of which only the
 * first warm bytes were touched (prepared ahead for a known use: the
 * recycler prefers, for a request, the block with the most of it touched,
 * and counts a block's waste by its touched part). */
void xfree_big_warm(void *p, size_t n, size_t warm);
void big_cache_trim(void);
/* free blocks of the recycler, the smallest first, until what it holds
 * touched is at most keep bytes */
void big_cache_trim_to(size_t keep);
/* free the blocks of the recycler that requests of sizes[0..n), in that
 * order, would not get, then trim it to keep bytes */
void big_cache_keep_for(const size_t *sizes, int n, size_t keep);
/* The whole 2 MiB pages of a new block p[0..n) never touched take, where
 * pages can be moved (base/pages.h), the touched pages of the blocks the
 * recycler holds, the smallest blocks first (a block left with none is
 * freed): its memory is reused even by a request none of its blocks fits.
 * xmalloc_big does it for every block it takes fresh. Thread-safe. */
void big_cache_donate(void *p, size_t n);
/* the touched bytes of the blocks the recycler holds */
size_t big_cache_bytes(void);
/* Give the whole pages inside p[0..n) back to the system: their contents
 * are lost (they read as zero if touched again). For the read part of a
 * big array that will not be read again. */
void mem_release(void *p, size_t n);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* An argument as an error message quotes it: s itself when it is at most
 * ARG_QUOTE_MAX bytes, else its first and its last ARG_QUOTE_MAX / 2 bytes
 * (whole UTF-8 characters) around "…" (a path keeps its file name); s or
 * buf (ARG_QUOTE_BUF bytes) is returned. Every message that echoes a
 * command-line argument (a value, an unknown option, a file name) goes
 * through it, so that a 100 KB argument gives a line. */
#define ARG_QUOTE_MAX 60
#define ARG_QUOTE_BUF (ARG_QUOTE_MAX + 4)
const char *arg_quote(const char *s, char *buf);
/* Out of memory: "tnav: out of memory while PHASE" on stderr, the fatal
 * hooks run (newest first: the terminal restored, temp files removed),
 * then exit status 3 at once (no half-built state is used). Any thread. */
NORETURN void die_oom(void);
/* the exit status of die_oom in a sanitizer build when LeakSanitizer found
 * a leak at that point (tests/fault_inject.py) */
#define TNAV_EXIT_LEAK 23
/* What the process is doing, for that message ("loading the trace"); a
 * string that lives for the process. Thread-safe. With TNAV_FAULT_OOM set
 * to part of a phase's name, entering that phase runs out of memory (a
 * fault injected for tests). */
void oom_phase(const char *what);
/* A function die_oom runs before exiting (at most 8; async-signal-safe
 * work or close to it: it may run on any thread). */
void fatal_hook_add(void (*fn)(void));
/* Cap the process's address space at `bytes` (--max-memory): past it,
 * allocations fail and die_oom says so. false with errno on failure. */
bool set_max_memory(uint64_t bytes);
/* "512M", "2GiB", "1.5G", "1000000" (bytes): K M G T are powers of 1024,
 * KB MB GB TB of 1000. false when it is not a size. */
bool parse_size_arg(const char *s, uint64_t *out);
/* The one syntax of a number on the command line (every numeric option and
 * the number of a size): decimal digits with an optional fraction and
 * exponent — 16, 0.5, .5, 1e2, 2.5E-3, an optional sign — and nothing else:
 * no hexadecimal, digit separators, inf, nan, spaces or trailing text.
 * parse_real_arg: such a number, finite. parse_int_arg: such a number whose
 * value is a whole number within [lo, hi] (16, 16.0 and 1.6e1 are 16). */
bool parse_real_arg(const char *s, double *out);
bool parse_int_arg(const char *s, int64_t lo, int64_t hi, int64_t *out);

/* a + b, held at INT64_MAX / INT64_MIN instead of wrapping (sums that are
 * shown: busy time, bytes, waits) */
static inline int64_t sat_add64(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

/* a - b, held likewise */
static inline int64_t sat_sub64(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? INT64_MAX : INT64_MIN;
    return r;
}

/* x rounded to the nearest integer and held within [lo, hi]; NaN gives lo.
 * Every float-to-int conversion of a computed value goes through this (a
 * cast of a double out of int's range is undefined, and in practice
 * INT_MIN: the lightest shade where the darkest was meant). */
static inline int dbl_to_int(double x, int lo, int hi)
{
    if (!(x >= lo)) return lo; /* (and NaN) */
    if (x >= hi) return hi;
    return (int)__builtin_lround(x);
}

/* v as an int64, held within [INT64_MIN, INT64_MAX] (a double of a
 * saturated sum is 2^63, one past INT64_MAX: the cast would be undefined);
 * NaN gives 0 */
static inline int64_t dbl_to_i64(double v)
{
    if (!(v == v)) return 0;
    if (v >= 9223372036854775807.0) return INT64_MAX;
    if (v <= -9223372036854775808.0) return INT64_MIN;
    return (int64_t)v;
}

/* v held within +-DBL_MAX (a sum or mean of huge values that overflowed to
 * infinity saturates, as integer sums do); NaN stays NaN (undefined) */
static inline double sat_dbl(double v)
{
    if (v > 1.7976931348623157e308) return 1.7976931348623157e308;
    if (v < -1.7976931348623157e308) return -1.7976931348623157e308;
    return v;
}

/* Growable vector of T: struct { T *v; size_t len, cap; } */
#define VEC(T) struct { T *v; size_t len, cap; }
#define VEC_RESERVE(vec, n)                                                   \
    do {                                                                      \
        size_t need_ = (vec).len + (n);                                       \
        if (need_ > (vec).cap) {                                              \
            size_t nc_ = (vec).cap ? (vec).cap * 2 : 16;                      \
            while (nc_ < need_) nc_ *= 2;                                     \
            (vec).v = xrealloc((vec).v, nc_ * sizeof(*(vec).v));              \
            (vec).cap = nc_;                                                  \
        }                                                                     \
    } while (0)
#define VEC_PUSH(vec, x)                                                      \
    do {                                                                      \
        if (UNLIKELY((vec).len == (vec).cap)) VEC_RESERVE(vec, 1);            \
        (vec).v[(vec).len++] = (x);                                           \
    } while (0)
#define VEC_FREE(vec)                                                         \
    do {                                                                      \
        free((vec).v);                                                        \
        (vec).v = NULL;                                                       \
        (vec).len = (vec).cap = 0;                                            \
    } while (0)

double now_sec(void);
/* VmRSS / VmHWM of this process in bytes (0 when unknown) */
void proc_mem(size_t *rss, size_t *hwm);
/* With TNAV_TIMING set: "tnav: timing: MESSAGE  rss R MiB, peak P MiB" on
 * stderr (for the benchmark and for finding where memory goes). */
void timing_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* 64-bit hash of a byte string (not cryptographic). */
uint64_t hash_bytes(const void *p, size_t n);
static inline uint64_t hash_u64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* Length of the valid UTF-8 sequence at p (at most avail bytes), 0 when
 * invalid (overlong, surrogate, beyond U+10FFFF, truncated). */
size_t utf8_seq_len(const unsigned char *p, size_t avail);

/* The value of a hexadecimal digit, or -1. */
static inline int hex_digit(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}
/* Write code point cp as UTF-8 at o (room for 4 bytes); returns its length. */
size_t utf8_put(char *o, unsigned cp);

/* Returns the offset of the first invalid byte, or n when s[0..n) is valid
 * UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF). */
size_t utf8_invalid_at(const unsigned char *s, size_t n);

/* Decimal text of v into buf (>= 21 bytes), NUL-terminated; returns the
 * length. */
size_t fmt_i64(char *buf, int64_t v);

static inline unsigned popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (unsigned)((x * 0x0101010101010101ULL) >> 56);
}

/* the set bits of a bitmap of nwords 64-bit words */
static inline uint64_t bitmap_count(const uint64_t *b, size_t nwords)
{
    uint64_t c = 0;
    for (size_t w = 0; w < nwords; w++) c += popcount64(b[w]);
    return c;
}

/* Natural order of labels: numbers inside strings compare numerically. */
int natural_cmp(const char *a, const char *b);

/* Number of online CPUs (>= 1), overridable with TNAV_THREADS. */
int cpu_count(void);

/* Append a C-escaped, double-quoted excerpt of s (at most max bytes of input)
 * to buf (size bufsz); used for rejection reasons. */
void quote_excerpt(char *buf, size_t bufsz, const char *s, size_t n, size_t max);

#endif
