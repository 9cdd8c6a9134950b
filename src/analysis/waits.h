/*
 * waits.h — wait states, as Scalasca defines them: who waited, where, and
 * whose fault it was (`tnav waits`; doc/ANALYSES.md has every formula).
 *
 * Owns: the patterns late sender, late receiver, wait at barrier, wait at
 * N×N collective, barrier completion, late broadcast, early reduce and
 * finish wait, computed over a store, an event selection and a window;
 * per pattern the total, the wait per location where it happened (the
 * victim), per location that caused it (the culprit), and the worst
 * instances.
 * Invariants: an instance counts when its victim event is selected; its
 * wait is the part of [start, start + wait) inside the window; every sum
 * is over instances, so total = sum of by_loc = sum of by_culprit; the
 * same function serves the command line and the interface.
 */
#ifndef TNAV_WAITS_H
#define TNAV_WAITS_H

#include <stdint.h>
#include <stdio.h>

#include "store/store.h"

typedef enum {
    W_LATE_SENDER,
    W_LATE_RECEIVER,
    W_BARRIER,
    W_BARRIER_COMPLETION,
    W_NXN,
    W_LATE_BCAST,
    W_EARLY_REDUCE,
    W_FINISH,
    W__N
} WaitPattern;

extern const char *const WAIT_PATTERN_NAMES[W__N];

#define WAIT_WORST 10 /* instances kept per pattern */

typedef struct {
    int64_t ts, ns;    /* where the wait starts, how long */
    uint32_t loc, culprit; /* locations; culprit NONE32 when unknown */
    uint32_t ev;       /* the victim event */
    uint32_t cev;      /* the culprit's event (the late send, the last arrival...), or NONE32 */
} WaitInst;

typedef struct {
    int64_t total;
    uint64_t count;    /* instances with a wait > 0 */
    int64_t *by_loc;   /* nloc */
    int64_t *by_culprit; /* nloc */
    WaitInst worst[WAIT_WORST]; /* longest first */
    WaitInst *worst_by_loc;     /* nloc: the longest at each victim location (ns 0: none) */
    int nworst;
} WaitPat;

typedef struct {
    WaitPat p[W__N];
    int64_t t0, t1; /* the window */
} Waits;

/* Compute over the events sel selects (NULL: all) in [t0, t1). */
void waits_compute(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1, Waits *w);
void waits_free(Waits *w);
/* top: rows per list (0: all) */
void waits_print_text(FILE *f, const Store *s, const Waits *w, int top);
void waits_print_json(FILE *f, const Store *s, const Waits *w);

#endif
