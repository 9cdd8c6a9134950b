/*
 * report.h — what the analyses' reports share: a location as JSON (its
 * number when its label is an integer, else its label as a string; null
 * for none).
 *
 * And the selection of a window: the selected events that overlap it.
 *
 * And what a waiting call is: the receive events of one activity at one
 * location that start at the same time are the completions of one call (an
 * MPI_Waitall over several requests: the OTF2 loader makes each receive
 * completed in it last from the call's start, load_otf2.c). Such a call
 * waits once, for its latest send: the late-sender pattern (waits.c) and
 * the critical path (critpath.c) both take the call from here.
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

/* A waiting call that completes receives (above). */
typedef struct {
    size_t first;       /* the position (in its activity's act_ev) of its first receive: count the call there */
    uint32_t nrecv;     /* its receives */
    bool selected;      /* one of them is selected (by the sel given) */
    int64_t start, dur; /* its start, its longest receive's duration */
    uint32_t send_ev;   /* the latest send among its messages that qualifies (below), NONE32 when none */
    uint32_t recv_ev;   /* the receive that send's message completes */
} RecvCall;

/* The call of the receive at position k of activity A's events (act_ev):
 * the receives with a duration of A at that event's location that start
 * when it does (they are adjacent in act_ev). A send qualifies when
 * send_sel selects it (NULL: any), it starts before `before`, and, when
 * `within`, after the call's start and no later than its end (it came
 * while the call waited). false when the event is not a receive with a
 * duration. O(the events of A starting at that time). */
bool report_recv_call(const Store *s, uint32_t A, size_t k, const uint64_t *sel, const uint64_t *send_sel,
                      int64_t before, bool within, RecvCall *c);

#endif
