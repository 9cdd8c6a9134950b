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
 * Invariants: only selected participants count; a group none of whose
 * participants is selected is left out; a participant's wait is latest
 * arrival − own arrival, clipped to its duration (a finish's sync: until
 * the last end), the wait `tnav waits` reports for barriers, N×N
 * collectives and finishes, so that there the two commands agree.
 */
#ifndef TNAV_SYNCS_H
#define TNAV_SYNCS_H

#include <stdint.h>
#include <stdio.h>

#include "store/store.h"

typedef struct {
    uint32_t ev;     /* the participant's event */
    int64_t wait_ns;
} SyncPart;

typedef struct {
    uint32_t group;  /* index into the store's groups */
    int64_t release; /* the latest exit of its sync events (its last arrival without one) */
    int64_t total_wait;
    uint32_t last_ev; /* the last to arrive */
    uint32_t off, n;  /* its participants: parts[off ..], by arrival */
} SyncInst;

typedef struct {
    SyncInst *inst;   /* by total wait, longest first (ties: earlier first) */
    uint32_t ninst;
    SyncPart *parts;
    size_t nparts;
    uint64_t *last_count;  /* per location: times it was last */
    int64_t *wait_caused;  /* per location: the waits of the instances where it was last */
} Syncs;

void syncs_compute(const Store *s, const uint64_t *sel, Syncs *y);
void syncs_free(Syncs *y);
void syncs_print_json(FILE *f, const Store *s, const Syncs *y);
/* top: instances and locations shown (0: all) */
void syncs_print_text(FILE *f, const Store *s, const Syncs *y, int top);

#endif
