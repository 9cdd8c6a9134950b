/*
 * strtab.h — the string dictionary (interner).
 *
 * Owns: one copy of every distinct string it was given, NUL-terminated, in an
 * append-only arena, and an open-addressing hash index over them.
 * Invariants: ids are dense (0 .. count-1) in order of first insertion; an id
 * never changes and its bytes never move once returned (pointers from
 * strtab_str stay valid until strtab_free, because the arena grows in
 * separate blocks); equal byte strings always get the same id. A table is
 * used by one thread at a time (loaders keep one per thread and merge).
 */
#ifndef TNAV_STRTAB_H
#define TNAV_STRTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    char *base;
    size_t used, cap;
} StrBlock;

/* per id: its bytes, length, the low 32 bits of its hash and its first 16
 * bytes zero padded (a short string compares without touching the arena);
 * one array, so that a new id grows one allocation, not four */
typedef struct {
    const char *ptr;
    uint32_t len, hash;
    uint64_t pre[2];
} StrEnt;

typedef struct StrTab {
    uint64_t *slots;   /* (hash32 << 32) | (id+1), 0 = empty; mask+1 slots, a power of two; NULL until the first string */
    uint32_t mask;
    uint32_t count;
    StrEnt *ent;       /* per id */
    uint32_t cap_ids;
    StrBlock *blocks;
    size_t nblocks, capblocks;
    size_t bytes;      /* total string bytes held */
} StrTab;

void strtab_init(StrTab *t);
void strtab_free(StrTab *t);
/* Intern s[0..n); returns its id. */
uint32_t strtab_intern(StrTab *t, const char *s, size_t n);
/* Intern string id of another table (its hash and prefix words reused:
 * merging tables hashes nothing again). */
uint32_t strtab_intern_from(StrTab *t, const StrTab *src, uint32_t id);
/* Make room for n strings in all (its index sized for them, so that
 * interning up to n grows nothing): for a caller that knows or can
 * estimate how many it will hold. */
void strtab_reserve(StrTab *t, size_t n);
/* Look up without inserting; NONE32 when absent. */
uint32_t strtab_find(const StrTab *t, const char *s, size_t n);
static inline const char *strtab_str(const StrTab *t, uint32_t id) { return t->ent[id].ptr; }
static inline uint32_t strtab_len(const StrTab *t, uint32_t id) { return t->ent[id].len; }
/* Resident bytes used by the table (arena + index). */
size_t strtab_mem(const StrTab *t);
static inline uint64_t ld8(const char *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}
static inline uint64_t ld4(const char *p)
{
    uint32_t x;
    memcpy(&x, p, 4);
    return x;
}

/* Two words that identify a string of length n <= 16 among strings of the
 * same length (overlapping loads cover every byte); for longer strings the
 * first 16 bytes. Only fixed-size loads: no library call per string. */
static inline void strtab_prefix_words(const char *s, size_t n, uint64_t w[2])
{
    if (n >= 16) {
        w[0] = ld8(s);
        w[1] = ld8(s + 8);
        return;
    }
    if (n >= 8) {
        w[0] = ld8(s);
        w[1] = ld8(s + n - 8);
    } else if (n >= 4) {
        w[0] = ld4(s) | (ld4(s + n - 4) << 32);
        w[1] = 0;
    } else {
        w[0] = n ? (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[n / 2] << 8 |
                       (uint64_t)(unsigned char)s[n - 1] << 16
                 : 0;
        w[1] = 0;
    }
}

/* The hash strtab_intern uses (strtab_hash), and the string's prefix
 * words into w: short strings by their words, longer ones by their first
 * 16 bytes (already in w) and then 8-byte words to the end (the last one
 * overlapping its predecessor): fixed-size loads, no library call. */
static inline uint32_t strtab_short_hash_(const uint64_t w[2], size_t n)
{
    uint64_t h = (w[0] ^ ((uint64_t)n << 59)) * 0x9e3779b97f4a7c15ULL;
    h ^= w[1] * 0xc2b2ae3d27d4eb4fULL;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return (uint32_t)h;
}

/* past 16 bytes (names such as ns4::Module42::kernel_18, file paths): the
 * first 16 (already in w), then the rest by 8-byte words, the last of which
 * ends at n (17..32 bytes: the last 16, which cover the string) */
static inline uint32_t strtab_long_hash_(const uint64_t w[2], const char *s, size_t n)
{
    uint64_t h = (w[0] ^ ((uint64_t)n << 59)) * 0x9e3779b97f4a7c15ULL;
    h ^= w[1] * 0xc2b2ae3d27d4eb4fULL;
    h ^= h >> 29;
    size_t i = 16;
    if (n > 32) {
        /* the words between the first 16 and the last 16 bytes */
        for (; i + 16 < n; i += 8) {
            h = (h ^ ld8(s + i)) * 0xbf58476d1ce4e5b9ULL;
            h ^= h >> 31;
        }
    }
    h = (h ^ ld8(s + n - 16)) * 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 31;
    h = (h ^ ld8(s + n - 8)) * 0x94d049bb133111ebULL;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return (uint32_t)h;
}

static inline uint32_t strtab_hash(const char *s, size_t n, uint64_t w[2])
{
    strtab_prefix_words(s, n, w);
    if (n <= 16) return strtab_short_hash_(w, n);
    return strtab_long_hash_(w, s, n);
}

/* Whether the bytes past the first 16 of two strings of n > 16 bytes are
 * equal: 8-byte words (the last one ending at n), memcmp past 64 bytes */
static inline bool strtab_tail_eq_(const char *a, const char *b, size_t n)
{
    if (n > 64) return memcmp(a + 16, b + 16, n - 16) == 0;
    for (size_t i = 16; i + 8 < n; i += 8)
        if (ld8(a + i) != ld8(b + i)) return false;
    return ld8(a + n - 8) == ld8(b + n - 8);
}

/* Whether id's string is s[0..n) (without hashing it: to confirm a guess,
 * such as a cache's). */
static inline __attribute__((always_inline)) bool strtab_equals(const StrTab *t, uint32_t id, const char *s, size_t n)
{
    const StrEnt *e = &t->ent[id];
    if (e->len != n) return false;
    uint64_t w[2];
    strtab_prefix_words(s, n, w);
    if (e->pre[0] != w[0] || e->pre[1] != w[1]) return false;
    return n <= 16 || strtab_tail_eq_(e->ptr, s, n);
}

/* strtab_intern of a string whose strtab_hash is h (words w): a string
 * already held is found inline (its slot's hash, then its entry's length,
 * prefix words and the rest of its bytes); a new one is added out of line. */
uint32_t strtab_intern_new_(StrTab *t, const char *s, size_t n, uint32_t h, const uint64_t w[2]);
static inline uint32_t strtab_intern_hashed(StrTab *t, const char *s, size_t n, uint32_t h, const uint64_t w[2])
{
    if (__builtin_expect(t->slots != NULL, 1)) {
        for (uint32_t i = h & t->mask;; i = (i + 1) & t->mask) {
            uint64_t e = t->slots[i];
            if (!e) break;
            if ((uint32_t)(e >> 32) != h) continue;
            const StrEnt *x = &t->ent[(uint32_t)e - 1];
            if (x->len == n && x->pre[0] == w[0] && x->pre[1] == w[1] && (n <= 16 || strtab_tail_eq_(x->ptr, s, n)))
                return (uint32_t)e - 1;
        }
    }
    return strtab_intern_new_(t, s, n, h, w);
}
/* Ask the CPU for the line of the slot where a string of hash h is
 * looked up first; with slot_read, for its entry when that slot holds a
 * string of the same hash (it reads the slot: call it when the first has
 * had time to arrive). A parser calls them some work ahead of
 * strtab_intern_hashed, so that the table's misses overlap that work. */
static inline void strtab_prefetch(const StrTab *t, uint32_t h, int slot_read)
{
    if (!t->slots) return;
    const uint64_t *sl = &t->slots[h & t->mask];
    if (!slot_read) {
        __builtin_prefetch(sl);
        return;
    }
    uint64_t e = *sl;
    if (e && (uint32_t)(e >> 32) == h) __builtin_prefetch(&t->ent[(uint32_t)e - 1]);
}

#endif
