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
 * And what a sync instance is, for every analysis (waits, syncs, critpath,
 * the sync groups of stats): its kind (barrier, N×N, broadcast, reduction,
 * finish), the event that made its participants wait (decided over ALL its
 * events: a filter chooses whose waits are reported, not who caused
 * them), a finish's participants (the ends of the activities it governs,
 * and of every activity they spawned, transitively), and each
 * participant's wait on arrival.
 * Invariants: an instance counts when its victim event is selected; its
 * wait is the part of [start, start + wait) inside the window; every sum
 * is over instances, so total = sum of by_loc = sum of by_culprit; the
 * same function serves the command line and the interface.
 */
#ifndef TNAV_WAITS_H
#define TNAV_WAITS_H

#include <stdint.h>
#include <stdio.h>

#include "base/util.h"
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

/* ---- sync instances ---- */
typedef enum { SG_BARRIER, SG_NXN, SG_BCAST, SG_REDUCE, SG_FINISH } SyncKind;

typedef struct {
    const Store *s;
    uint32_t *last_sub;  /* per activity: the latest end of it and of the activities it spawned, transitively */
    uint32_t *child_off, *child; /* per activity: the activities whose parent it is */
    const Column *root;  /* the field root, or NULL */
} SyncCtx;

typedef struct {
    SyncKind kind;
    uint32_t nsync;    /* its sync events */
    uint32_t culprit;  /* what its participants wait for: the last sync event to
                        * arrive (none: the last event), a broadcast's root, a
                        * reduction's last non-root, a finish's last participant
                        * end; NONE32 for an empty group */
    uint32_t root_ev;  /* a broadcast's or reduction's root's sync event, else NONE32 */
    int64_t last_arr;  /* the latest arrival of its sync events */
    int64_t first_exit; /* the earliest exit of its sync events */
} SyncDef;

typedef VEC(uint32_t) U32Vec;

void syncctx_init(const Store *s, SyncCtx *c);
void syncctx_free(SyncCtx *c);
void syncdef_group(const SyncCtx *c, uint32_t g, SyncDef *d);
/* The wait of the group's sync event e on arrival: [ts(e), ts(e) + *ns),
 * its pattern (W_BARRIER, W_NXN, W_LATE_BCAST, W_EARLY_REDUCE, W_FINISH)
 * and the event waited for; false when the pattern gives e none. */
bool syncdef_arrival_wait(const SyncCtx *c, const SyncDef *d, uint32_t e, WaitPattern *p, int64_t *ns, uint32_t *cev);
/* The barrier completion of e (a barrier's or N×N collective's): from
 * the latest of its arrival, the last arrival and the first exit, to its
 * exit — never overlapping its wait on arrival, so the two stay within
 * its interval. Returns its start; *ns 0 when none. */
int64_t syncdef_completion(const SyncCtx *c, const SyncDef *d, uint32_t e, int64_t *ns);
/* A finish's participant ends that are not the group's own events: the
 * ends of the activities spawned, transitively, by the activities whose
 * end is in the group; appended to out. mark: nact entries, stamp unique
 * per call. */
void syncdef_finish_extra(const SyncCtx *c, uint32_t g, uint32_t *mark, uint32_t stamp, U32Vec *out);

/* Compute over the events sel selects (NULL: all) in [t0, t1). */
void waits_compute(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1, Waits *w);
void waits_free(Waits *w);
/* top: rows per list (0: all) */
void waits_print_text(FILE *f, const Store *s, const Waits *w, int top);
void waits_print_json(FILE *f, const Store *s, const Waits *w);

#endif
