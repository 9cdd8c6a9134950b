/*
 * keymap.h — a hash map from a key of three 64-bit words to a dense id.
 *
 * Owns: copies of its keys and an open-addressing index over them.
 * Invariants: ids are dense (0 .. n-1) in order of first insertion; the key
 * of id i is k[3i .. 3i+2]; used by one thread at a time.
 */
#ifndef TNAV_KEYMAP_H
#define TNAV_KEYMAP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint64_t *k; /* 3 per id */
    uint32_t *slots;
    uint32_t mask, n, cap;
} KeyMap;

void km_init(KeyMap *m);
/* Room for n keys (an empty map), as growing to them would make it: no
 * growth until there are more. */
void km_reserve(KeyMap *m, uint32_t n);
void km_free(KeyMap *m);
/* id of the key; created when absent and create is set (then *created is
 * true), else NONE32 */
uint32_t km_get(KeyMap *m, uint64_t a, uint64_t b, uint64_t c, bool create, bool *created);

#endif
