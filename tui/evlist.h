/*
 * evlist.h — the selected events in time order across every location,
 * walked from any event: the interface's event list (view 7), which
 * reaches every event of a trace of any size without listing them.
 *
 * Owns: the order, its walk forwards and backwards, the rank of an event
 * in it; nothing is allocated per event.
 * Invariants: the order is by (ts, event number) — time, then location
 * (events are numbered by location, then time), then the store's order
 * within a location; an event is in the list iff it is selected (sel NULL:
 * every event); a walk of k steps costs O(nloc log nloc + k log nloc) and
 * the bitmap words it skips, a rank O(nloc + n/64).
 */
#ifndef TNAV_EVLIST_H
#define TNAV_EVLIST_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* the first / last selected event in the order (NONE32: none) */
uint32_t evorder_first(const Store *s, const uint64_t *sel);
uint32_t evorder_last(const Store *s, const uint64_t *sel);
/* the first selected event starting at or after t, else the last one */
uint32_t evorder_at(const Store *s, const uint64_t *sel, int64_t t);
/* up to n selected events after e (dir > 0) or before it (dir < 0), nearest
 * first, into out; returns how many */
size_t evorder_walk(const Store *s, const uint64_t *sel, uint32_t e, int dir, uint32_t *out, size_t n);
/* how many selected events come before e in the order */
uint64_t evorder_rank(const Store *s, const uint64_t *sel, uint32_t e);

#endif
