/*
 * syncs.h — every sync instance with its participants and its straggler
 * (`tnav syncs`; doc/ANALYSES.md).
 *
 * Owns: per sync group (a barrier, a finish, a collective instance, a
 * clock phase): its participants (the group's events: sync events, and a
 * finish's `end` events of the activities it governs), each one's arrival
 * (start) and wait, the release (the latest exit of its sync events), the
 * last to arrive; and per location how often it was last and the wait it
 * caused then.
 * Invariants: what an instance is (its kind, its straggler, a finish's
 * participants, each participant's wait on arrival) is waits.h's
 * definition, shared with `tnav waits` and the critical path: the
 * straggler is decided over all the group's events, the filter and the
 * window only choose which participants are listed (selected, overlapping
 * the window) and whose waits count; a wait counts its part inside the
 * window; a group with no listed participant is left out. So the waits of
 * the instances add up to tnav waits' wait at barrier + at N×N + late
 * broadcast + early reduce + finish wait, for any filter and window.
 */
#ifndef TNAV_SYNCS_H
#define TNAV_SYNCS_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/waits.h"
#include "store/store.h"

typedef struct {
    uint32_t ev;     /* the participant's event */
    int64_t wait_ns;
} SyncPart;

typedef struct {
    uint32_t group;  /* index into the store's groups */
    int64_t release; /* the latest exit of its sync events (its last arrival without one) */
    int64_t total_wait;
    uint32_t last_ev; /* the straggler (waits.h's culprit; may be unselected) */
    uint32_t off, n;  /* its participants: parts[off ..], by arrival */
} SyncInst;

typedef struct {
    SyncInst *inst;   /* in group order (first appearance in time) */
    uint32_t ninst;
    SyncPart *parts;
    size_t nparts;
    uint64_t *last_count;  /* per location: times it was last */
    int64_t *wait_caused;  /* per location: the waits of the instances where it was last */
    uint64_t *act_last_count; /* the same per activity */
    int64_t *act_wait_caused;
    uint64_t *name_last_count; /* per name key: a name id, nnames + kind for an unnamed event */
    int64_t *name_wait_caused;
    size_t nname_keys;
} Syncs;

/* over the events sel selects (NULL: all) that overlap [t0, t1) */
/* One instance over the whole trace, unfiltered: its participants' waits
 * (as syncs_compute sums them) and the one they waited for. */
int64_t syncs_instance_wait(const SyncCtx *c, uint32_t g, uint32_t *last_ev);
void syncs_compute(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1, Syncs *y);
void syncs_free(Syncs *y);
/* the event whose name names an instance: its first listed sync event (else
 * its first participant) */
uint32_t syncs_name_ev(const Store *s, const Syncs *y, const SyncInst *I);
void syncs_print_json(FILE *f, const Store *s, const Syncs *y);
/* top: instances and locations shown (0: all) */
void syncs_print_text(FILE *f, const Store *s, const Syncs *y, int top);

#endif
