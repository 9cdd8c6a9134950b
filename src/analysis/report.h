/*
 * report.h — what the analyses' reports share: a location as JSON (its
 * number when its label is an integer, else its label as a string; null
 * for none).
 *
 * And the selection of a window: the selected events that overlap it.
 *
 * Owns: nothing but these helpers. Invariants: every analysis names a
 * location the same way in JSON, so reports can be joined by `loc`.
 */
#ifndef TNAV_REPORT_H
#define TNAV_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "store/store.h"

void report_json_loc(FILE *f, const Store *s, uint32_t loc);
/* a sync group's label: its string, or its number */
const char *report_group_label(const Store *s, const SyncGroup *G, char *buf, size_t sz);
/* whether event e overlaps [t0, t1) (an instant: lies in it) */
static inline bool ev_in_window(const Store *s, size_t e, int64_t t0, int64_t t1)
{
    int64_t a = s->ts[e], b = ev_end(s, e);
    return a < t1 && (b > t0 || (a == b && a >= t0));
}
/* A new bitmap of the events sel selects (NULL: all) that overlap [t0,
 * t1); NULL when that is every one sel selects and sel is NULL. */
uint64_t *report_window_sel(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1);

#endif
