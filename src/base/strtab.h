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


#endif
