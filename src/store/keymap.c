/*
 * keymap.c — 3 x u64 -> dense id hash map; see keymap.h.
 */
#include "keymap.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void km_init(KeyMap *m)
{
    memset(m, 0, sizeof *m);
    m->mask = 255;
    m->slots = xcalloc(256, sizeof(uint32_t));
}

void km_reserve(KeyMap *m, uint32_t n)
{
    if (m->n || n <= 256 || n > (1u << 29)) return;
    /* (the sizes growth gives for n keys: powers of two) */
    uint32_t cap = 256;
    while (cap < n) cap *= 2;
    free(m->slots);
    m->slots = xcalloc((size_t)cap * 2, sizeof(uint32_t));
    m->mask = cap * 2 - 1;
    m->k = xrealloc(m->k, (size_t)cap * 3 * sizeof(uint64_t));
    m->cap = cap;
}

void km_free(KeyMap *m)
{
    free(m->k);
    free(m->slots);
    memset(m, 0, sizeof *m);
}

static inline uint64_t km_hash(uint64_t a, uint64_t b, uint64_t c)
{
    return hash_u64(a * 0x9e3779b97f4a7c15ULL ^ hash_u64(b ^ (c * 0xc2b2ae3d27d4eb4fULL)));
}

uint32_t km_get(KeyMap *m, uint64_t a, uint64_t b, uint64_t c, bool create, bool *created)
{
    uint32_t i = (uint32_t)km_hash(a, b, c) & m->mask;
    for (;;) {
        uint32_t e = m->slots[i];
        if (!e) break;
        const uint64_t *k = &m->k[(size_t)(e - 1) * 3];
        if (k[0] == a && k[1] == b && k[2] == c) {
            if (created) *created = false;
            return e - 1;
        }
        i = (i + 1) & m->mask;
    }
    if (!create) return NONE32;
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 256;
        m->k = xrealloc(m->k, (size_t)m->cap * 3 * sizeof(uint64_t));
    }
    uint32_t id = m->n++;
    m->k[(size_t)id * 3] = a;
    m->k[(size_t)id * 3 + 1] = b;
    m->k[(size_t)id * 3 + 2] = c;
    m->slots[i] = id + 1;
    if ((uint64_t)m->n * 2 > (uint64_t)m->mask + 1) {
        uint32_t ncap = (m->mask + 1) * 2, nm = ncap - 1;
        uint32_t *ns = xcalloc(ncap, sizeof(uint32_t));
        for (uint32_t j = 0; j < m->n; j++) {
            const uint64_t *k = &m->k[(size_t)j * 3];
            uint32_t x = (uint32_t)km_hash(k[0], k[1], k[2]) & nm;
            while (ns[x]) x = (x + 1) & nm;
            ns[x] = j + 1;
        }
        free(m->slots);
        m->slots = ns;
        m->mask = nm;
    }
    if (created) *created = true;
    return id;
}
