/*
 * util.c — implementation of the helpers declared in util.h.
 * Owns: the big-block recycler (blocks of 4 MiB and more given back for
 * reuse, each with how much of it is touched; the blocks handed out whole,
 * with their real size), behind one lock; a fresh big block takes the
 * pages of a served page pool (pages.c) and of the blocks the recycler
 * holds (big_cache_donate). Out-of-memory is the only fatal condition
 * here.
 */
#include "util.h"
#include "pages.h"

#include <ctype.h>
#include <errno.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* under AddressSanitizer: LeakSanitizer's interface, for die_oom */
#if defined(__SANITIZE_ADDRESS__)
#define TNAV_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TNAV_ASAN 1
#endif
#endif
#ifdef TNAV_ASAN
#include <sanitizer/lsan_interface.h>
#endif

static _Atomic(const char *) g_phase;
static void (*g_hooks[8])(void);
static _Atomic int g_nhooks;
static _Atomic int g_dying;
static uint64_t g_max_memory;

/* TNAV_FAULT_OOM=WORDS (fault injection, for tests): the process runs
 * out of memory on entering the first phase whose name contains WORDS */
void oom_phase(const char *what)
{
    atomic_store(&g_phase, what);
    static const char *inject;
    static atomic_int inject_read;
    if (!atomic_load(&inject_read)) {
        inject = getenv("TNAV_FAULT_OOM");
        atomic_store(&inject_read, 1);
    }
    if (inject && *inject && what && strstr(what, inject)) die_oom();
}

void fatal_hook_add(void (*fn)(void))
{
    int i = atomic_fetch_add(&g_nhooks, 1);
    if (i < 8) g_hooks[i] = fn;
    else atomic_fetch_sub(&g_nhooks, 1);
}

NORETURN void die_oom(void)
{
    /* one thread says it and cleans up; any other one failing meanwhile waits */
    if (atomic_fetch_add(&g_dying, 1) != 0)
        for (;;) pause();
    int n = atomic_load(&g_nhooks);
    for (int i = (n < 8 ? n : 8) - 1; i >= 0; i--)
        if (g_hooks[i]) g_hooks[i]();
    const char *what = atomic_load(&g_phase);
    char msg[300];
    int len;
    if (g_max_memory)
        len = snprintf(msg, sizeof msg, "tnav: out of memory while %s (--max-memory %.0f MiB)\n",
                       what ? what : "starting", (double)g_max_memory / 1048576.0);
    else
        len = snprintf(msg, sizeof msg, "tnav: out of memory while %s\n", what ? what : "starting");
    if (len > 0) {
        ssize_t w = write(STDERR_FILENO, msg, (size_t)len < sizeof msg ? (size_t)len : sizeof msg - 1);
        (void)w;
    }
#ifdef TNAV_ASAN
    /* _exit skips LeakSanitizer's check at exit: run it here, so that the
     * fault injection sees a leak at every N (what is still in use is
     * reachable from the stacks and is not a leak); a leak is its own exit
     * status, after the report */
    if (__lsan_do_recoverable_leak_check()) _exit(TNAV_EXIT_LEAK);
#endif
    _exit(3);
}

bool set_max_memory(uint64_t bytes)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) != 0) return false;
    rlim_t v = bytes > (uint64_t)RLIM_INFINITY ? RLIM_INFINITY : (rlim_t)bytes;
    if (rl.rlim_max != RLIM_INFINITY && v > rl.rlim_max) v = rl.rlim_max;
    rl.rlim_cur = v;
    if (setrlimit(RLIMIT_AS, &rl) != 0) return false;
    g_max_memory = bytes;
    return true;
}

/* the length of the number at the start of s in the one syntax, 0 if none */
static size_t num_span(const char *s)
{
    size_t i = 0, d = 0;
    if (s[i] == '+' || s[i] == '-') i++;
    while (s[i] >= '0' && s[i] <= '9') i++, d++;
    if (s[i] == '.') {
        i++;
        while (s[i] >= '0' && s[i] <= '9') i++, d++;
    }
    if (!d) return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-') j++;
        if (s[j] >= '0' && s[j] <= '9') {
            while (s[j] >= '0' && s[j] <= '9') j++;
            i = j;
        }
    }
    return i;
}

bool parse_real_arg(const char *s, double *out)
{
    size_t n = num_span(s);
    if (!n || s[n]) return false;
    double v = strtod(s, NULL); /* (the C locale's decimal point: the program never sets another) */
    if (!isfinite(v)) return false;
    *out = v;
    return true;
}

bool parse_int_arg(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    double v;
    if (!parse_real_arg(s, &v) || v != floor(v) || v < (double)lo || v > (double)hi) return false;
    *out = (int64_t)v;
    return true;
}

bool parse_size_arg(const char *s, uint64_t *out)
{
    size_t n = num_span(s);
    if (!n) return false;
    char num[64];
    if (n >= sizeof num) return false;
    memcpy(num, s, n);
    num[n] = 0;
    double v;
    if (!parse_real_arg(num, &v) || !(v >= 0) || v > 1e18) return false;
    const char *end = s + n;
    double mul = 1;
    static const struct {
        const char *u;
        double m;
    } U[] = {{"", 1},          {"B", 1},          {"K", 1024.0},   {"KiB", 1024.0},     {"KB", 1e3},
             {"M", 1048576.0}, {"MiB", 1048576.0}, {"MB", 1e6},    {"G", 1073741824.0}, {"GiB", 1073741824.0},
             {"GB", 1e9},      {"T", 1099511627776.0}, {"TiB", 1099511627776.0}, {"TB", 1e12}};
    bool found = false;
    for (size_t i = 0; i < sizeof U / sizeof U[0] && !found; i++)
        if (!strcmp(end, U[i].u)) {
            mul = U[i].m;
            found = true;
        }
    if (!found || v * mul > 9.2e18) return false;
    *out = (uint64_t)(v * mul);
    return true;
}

/* TNAV_FAULT_ALLOC=N (fault injection, for tests): the Nth checked
 * allocation of the process (any thread) fails. Read once; costs one
 * well-predicted branch per allocation when unset. */
static atomic_int g_fault_state; /* 0 unread, 1 off, 2 on */
static _Atomic uint64_t g_fault_left;

static bool alloc_fault(void)
{
    int st = atomic_load_explicit(&g_fault_state, memory_order_relaxed);
    if (LIKELY(st == 1)) return false;
    if (st == 0) {
        const char *v = getenv("TNAV_FAULT_ALLOC");
        char *end;
        unsigned long long n = v && *v ? strtoull(v, &end, 10) : 0;
        if (n && !*end) atomic_store(&g_fault_left, (uint64_t)n);
        int want = 0;
        atomic_compare_exchange_strong(&g_fault_state, &want, n && !*end ? 2 : 1);
        if (atomic_load(&g_fault_state) == 1) return false;
    }
    return atomic_fetch_sub(&g_fault_left, 1) == 1;
}

void *xmalloc(size_t n)
{
    void *p = UNLIKELY(alloc_fault()) ? NULL : malloc(n ? n : 1);
    if (!p) die_oom();
    return p;
}

void *xcalloc(size_t n, size_t sz)
{
    void *p = UNLIKELY(alloc_fault()) ? NULL : calloc(n ? n : 1, sz ? sz : 1);
    if (!p) die_oom();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = UNLIKELY(alloc_fault()) ? NULL : realloc(p, n ? n : 1);
    if (!q) die_oom();
    return q;
}

#include <pthread.h>

/* blocks of at least BIG_MIN bytes given back by xfree_big, for reuse;
 * warm: how many of its first bytes have been touched (the rest never was) */
#define BIG_MIN ((size_t)4 << 20)
#define BIG_SLOTS 64
static struct {
    void *p;
    size_t n, warm;
} big_cache[BIG_SLOTS];
/* blocks handed out whole by xmalloc_big_keep, with their real size and
 * what of it is touched once its user has touched what it asked for, so
 * that xfree_big caches all of it */
static struct {
    void *p;
    size_t n, warm;
} big_kept[BIG_SLOTS];
static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;

static void big_give_back(void *p, size_t n, size_t warm, bool kept)
{
    if (!p) return;
    pthread_mutex_lock(&big_lock);
    for (int i = 0; kept && i < BIG_SLOTS; i++)
        if (big_kept[i].p == p) {
            n = big_kept[i].n;
            warm = big_kept[i].warm;
            big_kept[i].p = NULL;
            break;
        }
    if (n >= BIG_MIN)
        for (int i = 0; i < BIG_SLOTS; i++)
            if (!big_cache[i].p) {
                big_cache[i].p = p;
                big_cache[i].n = n;
                big_cache[i].warm = warm < n ? warm : n;
                pthread_mutex_unlock(&big_lock);
                return;
            }
    pthread_mutex_unlock(&big_lock);
    free(p);
}

void xfree_big(void *p, size_t n) { big_give_back(p, n, n, true); }

void xfree_big_warm(void *p, size_t n, size_t warm) { big_give_back(p, n, warm, false); }

size_t big_cache_bytes(void)
{
    size_t b = 0;
    pthread_mutex_lock(&big_lock);
    for (int i = 0; i < BIG_SLOTS; i++)
        if (big_cache[i].p) b += big_cache[i].warm;
    pthread_mutex_unlock(&big_lock);
    return b;
}

/* between two cached blocks that would serve a request as well: the one
 * touched further (a block can serve requests down to half of what it has
 * touched: the larger ones are kept for the requests that come first, the
 * larger ones of a summary), then the smaller */
static bool big_better(int i, int j)
{
    return big_cache[i].warm > big_cache[j].warm || (big_cache[i].warm == big_cache[j].warm && big_cache[i].n < big_cache[j].n);
}

void big_cache_keep_for(const size_t *sizes, int n, size_t keep)
{
    pthread_mutex_lock(&big_lock);
    bool mark[BIG_SLOTS] = {false};
    /* the block each request would get (as big_alloc picks), in order */
    for (int k = 0; k < n; k++) {
        int best = -1;
        size_t best_use = 0, x = sizes[k];
        for (int i = 0; i < BIG_SLOTS; i++) {
            if (mark[i] || !big_cache[i].p || big_cache[i].n < x || big_cache[i].warm > 2 * x) continue;
            size_t use = big_cache[i].warm < x ? big_cache[i].warm : x;
            if (best < 0 || use > best_use || (use == best_use && big_better(i, best))) {
                best = i;
                best_use = use;
            }
        }
        if (best >= 0) mark[best] = true;
    }
    for (int i = 0; i < BIG_SLOTS; i++)
        if (big_cache[i].p && !mark[i]) {
            free(big_cache[i].p);
            big_cache[i].p = NULL;
        }
    pthread_mutex_unlock(&big_lock);
    big_cache_trim_to(keep);
}

void big_cache_trim_to(size_t keep)
{
    /* the smallest blocks first: the biggest are the ones a summary's
     * largest arrays (most of its first-touch cost) reuse */
    pthread_mutex_lock(&big_lock);
    for (;;) {
        size_t have = 0;
        int small = -1;
        for (int i = 0; i < BIG_SLOTS; i++)
            if (big_cache[i].p) {
                have += big_cache[i].warm;
                if (small < 0 || big_cache[i].n < big_cache[small].n) small = i;
            }
        if (have <= keep || small < 0) break;
        free(big_cache[small].p);
        big_cache[small].p = NULL;
    }
    pthread_mutex_unlock(&big_lock);
}

void big_cache_trim(void)
{
    pthread_mutex_lock(&big_lock);
    for (int i = 0; i < BIG_SLOTS; i++) {
        free(big_cache[i].p);
        big_cache[i].p = NULL;
    }
    pthread_mutex_unlock(&big_lock);
    pages_kept_drop();
}

void big_cache_donate(void *p, size_t n)
{
    const size_t HUGE = (size_t)2 << 20;
    if (n < HUGE || !pages_can_move()) return;
    pthread_mutex_lock(&big_lock);
    for (;;) {
        /* the smallest block first (as big_cache_trim_to gives them back) */
        int small = -1;
        for (int i = 0; i < BIG_SLOTS; i++)
            if (big_cache[i].p && big_cache[i].warm >= HUGE && !((uintptr_t)big_cache[i].p & (HUGE - 1)) &&
                (small < 0 || big_cache[i].n < big_cache[small].n))
                small = i;
        if (small < 0) break;
        char *src = big_cache[small].p;
        size_t warm = big_cache[small].warm, left = warm & ~(HUGE - 1);
        if (!pages_fill_from(p, n, src, &left)) break; /* (p has no untouched page left) */
        /* (its touched bytes past its whole pages, if any, given back:
         * what is left touched is its first left bytes) */
        mem_release(src + (warm & ~(HUGE - 1)), warm - (warm & ~(HUGE - 1)));
        big_cache[small].warm = left;
        if (left) break; /* (p taken whole) */
        free(src);
        big_cache[small].p = NULL;
    }
    pthread_mutex_unlock(&big_lock);
}

static void *big_alloc(size_t n, bool keep, bool fresh)
{
    const size_t HUGE = (size_t)2 << 20;
    if (n < 2 * HUGE && !fresh) return xmalloc(n);
    if (n >= BIG_MIN && !fresh) {
        /* a cached block that fits and whose touched part is at most twice
         * n: the one with the most of n already touched, then big_better */
        pthread_mutex_lock(&big_lock);
        int best = -1;
        size_t best_use = 0;
        for (int i = 0; i < BIG_SLOTS; i++) {
            if (!big_cache[i].p || big_cache[i].n < n || big_cache[i].warm > 2 * n) continue;
            size_t use = big_cache[i].warm < n ? big_cache[i].warm : n;
            if (best < 0 || use > best_use || (use == best_use && big_better(i, best))) {
                best = i;
                best_use = use;
            }
        }
        if (best >= 0) {
            char *p = big_cache[best].p;
            size_t have = big_cache[best].n, warm = big_cache[best].warm;
            big_cache[best].p = NULL;
            if (keep) {
                for (int i = 0; i < BIG_SLOTS; i++)
                    if (!big_kept[i].p) {
                        big_kept[i].p = p;
                        big_kept[i].n = have;
                        big_kept[i].warm = warm > n ? warm : n;
                        break;
                    }
                pthread_mutex_unlock(&big_lock);
                return p;
            }
            pthread_mutex_unlock(&big_lock);
            /* the pages past what is asked for are not needed: let them go */
            size_t used = (n + 4095) & ~(size_t)4095;
            uintptr_t from = ((uintptr_t)p + used + 4095) & ~(uintptr_t)4095;
            uintptr_t to = ((uintptr_t)p + (warm < have ? warm : have)) & ~(uintptr_t)4095;
            if (to > from) madvise((void *)from, to - from, MADV_DONTNEED);
            return p;
        }
        pthread_mutex_unlock(&big_lock);
    }
    void *p = NULL;
    if (alloc_fault() || posix_memalign(&p, HUGE, n ? n : 1) != 0 || !p) {
        if (fresh) return NULL;
        die_oom();
    }
    /* (no MADV_HUGEPAGE: the system's policy decides. On a VM that gives
     * freed memory back to its host, the first touch of a huge page it
     * took back costs about 3 times that of 4 KiB pages: a trace opened
     * once loads up to a third sooner in 4 KiB pages, though loads
     * repeated at once are faster in huge ones; see doc/PERFORMANCE.md,
     * "Transparent huge pages dropped") */
    if (!fresh) {
        pages_fill_served(p, n); /* (pages moved in, when a pool is served) */
        big_cache_donate(p, n);  /* (and the recycler's, none of its blocks fitting) */
    }
    return p;
}

void *xmalloc_big(size_t n) { return big_alloc(n, false, false); }

void *big_alloc_fresh(size_t n) { return big_alloc(n, false, true); }

void mem_release(void *p, size_t n)
{
    if (!p || !n) return;
    uintptr_t from = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
    uintptr_t to = ((uintptr_t)p + n) & ~(uintptr_t)4095;
    if (to > from) madvise((void *)from, to - from, MADV_DONTNEED);
}
void *xmalloc_big_keep(size_t n) { return big_alloc(n, true, false); }

void *xcalloc_big(size_t n, size_t sz)
{
    if (sz && n > SIZE_MAX / sz) die_oom();
    void *p = xmalloc_big(n * sz);
    memset(p, 0, n * sz);
    return p;
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) die_oom();
    char *p = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

const char *arg_quote(const char *s, char *buf)
{
    if (!s) return "";
    size_t n = strnlen(s, ARG_QUOTE_MAX + 1);
    if (n <= ARG_QUOTE_MAX) return s;
    n = strlen(s);
    size_t h = ARG_QUOTE_MAX / 2, t = n - ARG_QUOTE_MAX / 2;
    while (h > 0 && ((unsigned char)s[h] & 0xC0) == 0x80) h--; /* (not inside a character) */
    while (t < n && ((unsigned char)s[t] & 0xC0) == 0x80) t++;
    memcpy(buf, s, h);
    memcpy(buf + h, "\xe2\x80\xa6", 3); /* … */
    memcpy(buf + h + 3, s + t, n - t + 1);
    return buf;
}

double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline uint64_t load64(const unsigned char *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}

uint64_t hash_bytes(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)n * 0x100000001b3ULL);
    while (n >= 8) {
        h = (h ^ load64(p)) * 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 31;
        p += 8;
        n -= 8;
    }
    uint64_t t = 0;
    for (size_t i = 0; i < n; i++) t |= (uint64_t)p[i] << (8 * i);
    h = (h ^ t) * 0x94d049bb133111ebULL;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return h;
}

size_t utf8_seq_len(const unsigned char *p, size_t avail)
{
    if (!avail) return 0;
    unsigned c = p[0];
    size_t len;
    uint32_t cp;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (avail < len) return 0;
    for (size_t k = 1; k < len; k++) {
        if ((p[k] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (p[k] & 0x3F);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 0;
    return len;
}

size_t utf8_invalid_at(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        /* ASCII fast path, 8 bytes at a time */
        while (i + 8 <= n && (load64(s + i) & 0x8080808080808080ULL) == 0) i += 8;
        if (i >= n) break;
        size_t l = utf8_seq_len(s + i, n - i);
        if (!l) return i;
        i += l;
    }
    return n;
}

size_t utf8_put(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t fmt_i64(char *buf, int64_t v)
{
    char tmp[24];
    size_t n = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    size_t o = 0;
    if (v < 0) buf[o++] = '-';
    while (n) buf[o++] = tmp[--n];
    buf[o] = 0;
    return o;
}

int natural_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            const char *a0 = a, *b0 = b;
            while (*a0 == '0' && isdigit((unsigned char)a0[1])) a0++;
            while (*b0 == '0' && isdigit((unsigned char)b0[1])) b0++;
            const char *a1 = a0, *b1 = b0;
            while (isdigit((unsigned char)*a1)) a1++;
            while (isdigit((unsigned char)*b1)) b1++;
            size_t la = (size_t)(a1 - a0), lb = (size_t)(b1 - b0);
            if (la != lb) return la < lb ? -1 : 1;
            int c = memcmp(a0, b0, la);
            if (c) return c < 0 ? -1 : 1;
            a = a1;
            b = b1;
            continue;
        }
        if (*a != *b) return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    if (*a) return 1;
    if (*b) return -1;
    return 0;
}

int cpu_count(void)
{
    const char *e = getenv("TNAV_THREADS");
    if (e && *e) {
        int64_t v; /* (the syntax of --threads; anything else: the default) */
        if (parse_int_arg(e, 1, 256, &v)) return (int)v;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    if (n > 256) n = 256;
    return (int)n;
}

void quote_excerpt(char *buf, size_t bufsz, const char *s, size_t n, size_t max)
{
    size_t o = 0;
    if (bufsz < 8) {
        if (bufsz) buf[0] = 0;
        return;
    }
    buf[o++] = '\'';
    size_t lim = n < max ? n : max;
    for (size_t i = 0; i < lim && o + 6 < bufsz; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\'' || c == '\\') {
            buf[o++] = '\\';
            buf[o++] = (char)c;
        } else if (c < 0x20 || c == 0x7f) {
            o += (size_t)snprintf(buf + o, bufsz - o, "\\x%02x", c);
        } else {
            buf[o++] = (char)c;
        }
    }
    if (n > lim && o + 5 < bufsz) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o++] = '\'';
    buf[o] = 0;
}

void proc_mem(size_t *rss, size_t *hwm)
{
    *rss = *hwm = 0;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        unsigned long kb;
        if (sscanf(line, "VmRSS: %lu kB", &kb) == 1) *rss = (size_t)kb * 1024;
        if (sscanf(line, "VmHWM: %lu kB", &kb) == 1) *hwm = (size_t)kb * 1024;
    }
    fclose(f);
}

void timing_note(const char *fmt, ...)
{
    static int on = -1;
    if (on < 0) on = getenv("TNAV_TIMING") != NULL;
    if (!on) return;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t rss, hwm;
    proc_mem(&rss, &hwm);
    /* the process's CPU so far (user + system): on a shared machine the
     * phases' CPU tells more than their wall time */
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    /* (faults: the minor page faults so far, a 4 KiB or a 2 MiB page each:
     * where fresh memory is touched) */
    fprintf(stderr, "tnav: timing: %s  rss %zu MiB, peak %zu MiB, cpu %.3f s, recycler %zu MiB, faults %ld\n", msg, rss >> 20,
            hwm >> 20, cpu, big_cache_bytes() >> 20, ru.ru_minflt);
}
