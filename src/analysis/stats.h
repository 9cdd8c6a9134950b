/*
 * stats.h — the trace summary behind `tnav stats` (and later the TUI's
 * statistics table).
 *
 * Owns: per-location and per-kind totals and the source x destination
 * message summary, computed from a store and an optional event selection.
 * Invariants: busy_ns (useful), comm_ns and sync_ns are the summed self
 * times (profile.h: the duration without the intervals directly inside) of
 * a location's intervals of each time category (timecat.h), clipped to the
 * window, so nested regions are not counted twice; wait_ns is the time
 * `tnav waits` finds there, idle_ns the rest of the window;
 * sent_bytes counts the bytes of messages whose sending event (send or msg)
 * is at the location, recv_bytes those whose receiving event (recv or msg) is
 * there; every message with a known source and destination is counted once
 * in the pair summary.
 */
#ifndef TNAV_STATS_H
#define TNAV_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/profile.h"
#include "analysis/timecat.h"
#include "load/load.h"
#include "store/store.h"

typedef struct {
    uint64_t events;
    int64_t busy_ns, sync_ns; /* busy: useful computation (timecat.h) */
    int64_t comm_ns, wait_ns, idle_ns;
    int64_t sent_bytes, recv_bytes;
    uint64_t sent_msgs, recv_msgs;
    uint32_t acts;            /* its activities with a selected event in the window */
    double util;              /* useful / (window x acts): at most 1, whatever the threads */
} LocStats;

typedef struct {
    uint32_t src, dst;
    uint64_t count;
    int64_t bytes;
} PairStats;

typedef struct {
    uint64_t events;
    int64_t t_min, t_max;
    LocStats *loc;     /* nloc */
    uint64_t *kinds;   /* K_USER + nukind */
    PairStats *pairs;
    size_t npairs;
    uint64_t nmsg;
    SyncGroup *groups; /* per sync group, summarised over the selected events */
    uint32_t ngroups;  /* groups with a selected event */
    bool filtered;
    Profile prof;      /* by name (profile.h) */
    TimeCats tc;       /* per location, and the efficiencies (timecat.h) */
    int64_t t0, t1;    /* the window */
    bool windowed;     /* narrower than the trace */
    const char *tc_comm, *tc_sync; /* the category patterns, for the report (not owned) */
    int top;           /* profile rows in the text report (0: all; default 10) */
    int loc_sort;      /* the per-location table's order: -1 location order, else a LocCol */
    int loc_top;       /* its rows in the text report (0: all) */
    /* set by the caller when a filter made the selection (not owned) */
    const char *filter_text;
    const uint64_t *stage_counts;
    int nstages;
} Stats;

/* the per-location table's columns, for --sort (largest first) */
typedef enum { LC_EVENTS, LC_USEFUL, LC_COMM, LC_SYNC, LC_WAIT, LC_IDLE, LC_SENT, LC_RECEIVED, LC__N } LocCol;
/* a column by its name (useful, comm, sync, wait, idle, events, sent, received) */
bool stats_loc_col_by_name(const char *name, int *out);

/* sel: a bitmap of selected events (NULL = all); the events overlapping
 * [t0, t1), their times clipped to it; rules: the time categories (NULL:
 * by kind only) */
void stats_compute(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1, const TimeCatRules *rules, Stats *st);
void stats_free(Stats *st);

void stats_print_json(FILE *f, const Store *s, const Stats *st, const LoadReport *rep);
void stats_print_text(FILE *f, const Store *s, const Stats *st, const LoadReport *rep);
/* the efficiencies alone: a JSON member "efficiency":{...}, and as text */
void stats_print_pop_json(FILE *f, const Stats *st);
void stats_print_pop_text(FILE *f, const Stats *st);

#endif
