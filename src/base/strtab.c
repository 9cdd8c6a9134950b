/*
 * strtab.c — string interner; see strtab.h for the invariants.
 * Short strings (<= 16 bytes, most names and labels) are hashed and compared
 * with two 8-byte words; longer ones by 8-byte words too (memcmp only past
 * 64 bytes). The slot array keeps the hash beside the id so that a probe
 * touches one cache line; the probe that finds a string already held is
 * inline (strtab_intern_hashed in strtab.h), the insertion here.
 */
#include "strtab.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define STRTAB_SLACK 64

void strtab_init(StrTab *t)
{
    /* nothing allocated until the first string: a batch holds six tables,
     * most of which stay empty or tiny in a small chunk */
    memset(t, 0, sizeof *t);
}

void strtab_free(StrTab *t)
{
    for (size_t i = 0; i < t->nblocks; i++) free(t->blocks[i].base);
    free(t->blocks);
    free(t->slots);
    free(t->ent);
    memset(t, 0, sizeof *t);
}

static char *arena_alloc(StrTab *t, size_t n)
{
    StrBlock *b = t->nblocks ? &t->blocks[t->nblocks - 1] : NULL;
    if (!b || b->used + n > b->cap) {
        if (t->nblocks == t->capblocks) {
            t->capblocks = t->capblocks ? t->capblocks * 2 : 8;
            t->blocks = xrealloc(t->blocks, t->capblocks * sizeof(StrBlock));
        }
        /* 1, 4, 8, 16, 32, 64 KiB, then 1 MiB blocks: a small dictionary
         * (one of a small chunk's) costs little to create and zero */
        size_t cap = t->nblocks == 0 ? 1024 : t->nblocks > 5 ? (size_t)1 << 20 : (size_t)2048 << t->nblocks;
        if (cap < n) cap = n;
        b = &t->blocks[t->nblocks++];
        /* zeroed, with slack after the end: PCRE2's JIT may read a few
         * bytes past the end of a subject (never changing the result) */
        b->base = xcalloc(cap + STRTAB_SLACK, 1);
        b->used = 0;
        b->cap = cap;
    }
    char *p = b->base + b->used;
    b->used += n;
    return p;
}

/* the slot array rebuilt with ncap slots (a power of two) */
static void rehash(StrTab *t, uint32_t ncap)
{
    uint64_t *ns = xcalloc(ncap, sizeof(uint64_t));
    uint32_t m = ncap - 1;
    for (uint32_t id = 0; id < t->count; id++) {
        uint32_t h = t->ent[id].hash;
        uint32_t i = h & m;
        while (ns[i]) i = (i + 1) & m;
        ns[i] = ((uint64_t)h << 32) | (id + 1);
    }
    free(t->slots);
    t->slots = ns;
    t->mask = m;
}

static void grow_slots(StrTab *t) { rehash(t, t->slots ? (t->mask + 1) * 2 : 16); }

void strtab_reserve(StrTab *t, size_t n)
{
    if (n <= t->count || n > UINT32_MAX / 2) return;
    /* (the load strtab_intern keeps: at most 3/4) */
    uint64_t need = 16;
    while ((uint64_t)n * 4 > need * 3) need *= 2;
    if (!t->slots || need > (uint64_t)t->mask + 1) rehash(t, (uint32_t)need);
    if (n > t->cap_ids) {
        t->cap_ids = (uint32_t)n;
        t->ent = xrealloc(t->ent, t->cap_ids * sizeof(*t->ent));
    }
}

static inline uint32_t str_hash(const char *s, size_t n, uint64_t w[2]) { return strtab_hash(s, n, w); }

static inline bool same(const StrTab *t, uint32_t id, const char *s, size_t n, const uint64_t w[2])
{
    const StrEnt *e = &t->ent[id];
    if (e->len != n || e->pre[0] != w[0] || e->pre[1] != w[1]) return false;
    return n <= 16 || strtab_tail_eq_(e->ptr, s, n);
}

uint32_t strtab_find(const StrTab *t, const char *s, size_t n)
{
    if (!t->slots) return NONE32;
    uint64_t w[2];
    uint32_t h = str_hash(s, n, w);
    uint32_t i = h & t->mask;
    for (;;) {
        uint64_t e = t->slots[i];
        if (!e) return NONE32;
        uint32_t id = (uint32_t)e - 1;
        if ((uint32_t)(e >> 32) == h && same(t, id, s, n, w)) return id;
        i = (i + 1) & t->mask;
    }
}

static uint32_t intern_hashed(StrTab *t, const char *s, size_t n, uint32_t h, const uint64_t w[2])
{
    if (!t->slots) grow_slots(t);
    uint32_t i = h & t->mask;
    for (;;) {
        uint64_t e = t->slots[i];
        if (!e) break;
        uint32_t id = (uint32_t)e - 1;
        if ((uint32_t)(e >> 32) == h && same(t, id, s, n, w)) return id;
        i = (i + 1) & t->mask;
    }
    if (n > UINT32_MAX - 1 || t->count >= UINT32_MAX - 2) die_oom();
    uint32_t id = t->count++;
    if (id >= t->cap_ids) {
        t->cap_ids = t->cap_ids ? t->cap_ids * 2 : 16;
        t->ent = xrealloc(t->ent, t->cap_ids * sizeof(*t->ent));
    }
    char *p = arena_alloc(t, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    t->ent[id] = (StrEnt){p, (uint32_t)n, h, {w[0], w[1]}};
    t->bytes += n + 1;
    t->slots[i] = ((uint64_t)h << 32) | (id + 1);
    if ((uint64_t)t->count * 4 > (uint64_t)(t->mask + 1) * 3) grow_slots(t);
    return id;
}

uint32_t strtab_intern_new_(StrTab *t, const char *s, size_t n, uint32_t h, const uint64_t w[2])
{
    return intern_hashed(t, s, n, h, w);
}

uint32_t strtab_intern(StrTab *t, const char *s, size_t n)
{
    uint64_t w[2];
    uint32_t h = str_hash(s, n, w);
    return intern_hashed(t, s, n, h, w);
}

uint32_t strtab_intern_from(StrTab *t, const StrTab *src, uint32_t id)
{
    const StrEnt *e = &src->ent[id];
    return intern_hashed(t, e->ptr, e->len, e->hash, e->pre);
}

size_t strtab_mem(const StrTab *t)
{
    size_t m = t->slots ? (size_t)(t->mask + 1) * sizeof(uint64_t) : 0;
    m += (size_t)t->cap_ids * sizeof(StrEnt);
    for (size_t i = 0; i < t->nblocks; i++) m += t->blocks[i].cap;
    return m;
}
