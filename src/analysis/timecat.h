/*
 * timecat.h — where each location's time went in a window: useful
 * computation, communication, synchronisation, waiting and idle, and the
 * window's efficiencies (the AP1000's EFFICIENCY, the POP metrics);
 * doc/ANALYSES.md has every formula.
 *
 * Owns: the rules that put an interval in a category (by name, two PCRE2
 * patterns a user may override, else by kind), and per location the self
 * time (profile.h) of its intervals in each category, clipped to the
 * window, the waiting time of the wait states (waits.h) at it, and the
 * messages and bytes it sent and received.
 * Invariants: useful + comm + sync + idle = window for a location whose
 * intervals do not overlap across activities (else idle is 0 and the sum
 * exceeds the window); waiting is part of comm + sync (a wait happens
 * inside a receive, send or sync); the POP metrics are computed over the
 * locations with a selected event in the window; the command line and the
 * interface call the same function.
 */
#ifndef TNAV_TIMECAT_H
#define TNAV_TIMECAT_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

typedef enum { TC_NONE, TC_USEFUL, TC_COMM, TC_SYNC } TimeCat;

/* the default patterns over names: MPI, SHMEM and NCCL calls are
 * communication; barriers and fences are synchronisation (tested first) */
#define TIMECAT_COMM_DEFAULT "^(P?MPI_|shmem_|nccl|cuda[Mm]emcpy)"
#define TIMECAT_SYNC_DEFAULT "(?i)barrier|^P?MPI_Win_fence$"

typedef struct {
    uint8_t *name_cat; /* per name id: TC_NONE (by kind), TC_COMM or TC_SYNC */
    char *comm, *sync; /* the patterns ("" : none) */
} TimeCatRules;

/* Compile the patterns (NULL: the default, "": none) and classify every
 * name, under the limits of filter regexes (rx.h) and a time budget of
 * `budget` seconds for both patterns (0 = none; --filter-timeout).
 * TC_RULES_OK; TC_RULES_BAD_PATTERN (a usage error) or TC_RULES_FAILED (a
 * match that hit a limit, the budget spent) with a message naming the
 * option in err. */
enum { TC_RULES_OK, TC_RULES_BAD_PATTERN, TC_RULES_FAILED };
int timecat_rules(const Store *s, const char *comm_re, const char *sync_re, double budget, TimeCatRules *r, char *err,
                  size_t errsz);
void timecat_rules_free(TimeCatRules *r);
/* Only check that the patterns compile (before a trace is loaded); false
 * with the message timecat_rules would give. */
bool timecat_check_patterns(const char *comm_re, const char *sync_re, char *err, size_t errsz);
/* the category of interval e (TC_NONE: not time of any category, e.g. a
 * user kind named idle) */
TimeCat timecat_of(const Store *s, const TimeCatRules *r, uint32_t e);

typedef struct {
    int64_t useful, comm, sync, wait, idle;
    int64_t sent_bytes, recv_bytes;
    uint64_t sent_msgs, recv_msgs, events;
} LocTime;

typedef struct {
    int64_t window;        /* t1 - t0, the window clipped to the trace's span */
    uint32_t nloc;         /* locations counted: those with a selected event in the window */
    int64_t max_useful, sum_useful, sum_window;
    bool valid;            /* nloc > 0, window > 0 and some useful time */
    double load_balance, comm_eff, ser_eff, transfer_eff, par_eff;
} Pop;

typedef struct {
    LocTime *loc; /* nloc */
    Pop pop;
    int64_t t0, t1;
} TimeCats;

/* child: profile_children(s, t0, t1) (NULL: computed here) */
void timecat_compute(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1, const TimeCatRules *r,
                     const int64_t *child, TimeCats *tc);
void timecat_free(TimeCats *tc);

#endif
