/*
 * critpath.h — the critical path (`tnav critpath`; doc/ANALYSES.md): the
 * chain of dependencies that ends at the trace's last event, what it is
 * made of, and where it ran.
 *
 * Owns: a backward walk over the dependency graph — program order within
 * an activity, a late send → its receive (a waiting call of several
 * receives: its latest send, report.h), a late receive → its
 * synchronous send (each while the waiting call lasts: a send that ended
 * before its receive began waited for nothing), the last arrival at a
 * sync → every participant's
 * release, a governed activity's end (and those spawned inside it: the
 * sync instance as waits.h defines it) → the finish waiting for it, a spawn →
 * the child's first event — from the latest end of a selected event in the
 * window; the path's segments (location, activity, innermost interval's
 * name, start, duration) in time order, and its time per location and per
 * name.
 * Invariants: time never increases along the walk and each activity's
 * events are scanned once, so the walk is linear; segments do not overlap,
 * lie in the window and add up to length ≤ makespan; the sums by location
 * and by name each equal length; only selected events take part (an
 * unselected receive is not a dependency); the same function serves the
 * command line and the interface.
 */
#ifndef TNAV_CRITPATH_H
#define TNAV_CRITPATH_H

#include <stdint.h>
#include <stdio.h>

#include "store/store.h"

typedef struct {
    uint32_t loc, act;
    uint32_t name; /* the innermost interval's name, NONE32 when none covers it */
    uint32_t ev;   /* that interval, NONE32 when none */
    int64_t ts, dur;
} CpSeg;

typedef struct {
    uint32_t key; /* a location; or a name id, nnames + kind for unnamed
                   * intervals of that kind, NONE32 outside every interval */
    int64_t ns;
} CpSum;

typedef struct {
    int64_t length, makespan;
    int64_t t0, t1;     /* the window */
    int64_t start, end; /* the makespan: first selected start, last end (in the window) */
    uint32_t end_ev;    /* where the path ends, NONE32 when nothing is selected */
    CpSeg *seg;         /* in time order */
    size_t nseg;
    uint32_t jumps;     /* dependencies followed to another activity */
    CpSum *by_loc, *by_name; /* largest first (ties: location order, name text) */
    uint32_t nby_loc, nby_name;
} CritPath;

void critpath_compute(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1, CritPath *cp);
void critpath_free(CritPath *cp);
/* the text of a by_name key: the name, "(kind)", "(no interval)" */
const char *critpath_key_name(const Store *s, uint32_t key, char *buf, size_t sz);
/* the segment covering time t (the last one starting at or before t), or -1 */
long critpath_seg_at(const CritPath *cp, int64_t t);
void critpath_print_json(FILE *f, const Store *s, const CritPath *cp);
/* top: rows of each table (0: all) */
void critpath_print_text(FILE *f, const Store *s, const CritPath *cp, int top);

#endif
