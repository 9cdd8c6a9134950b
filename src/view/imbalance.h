/*
 * imbalance.h — the values of the imbalance view: location rows x time
 * cells, each the time locations spent waiting at sync instances (`tnav
 * syncs`: latest arrival − own arrival, clipped to the participant's
 * duration) in the cell, per cell width; and the cells where an
 * instance's last participant arrived (the straggler).
 *
 * Owns: nothing beyond the call. Invariants: the waits are those of
 * syncs_compute over the selection, so the view and `tnav syncs` agree; a
 * grouped row sums its locations; a wait is spread over the cells it
 * overlaps, so the values of a row add up (times the cell widths) to the
 * waits inside the window.
 */
#ifndef TNAV_IMBALANCE_H
#define TNAV_IMBALANCE_H

#include <stdint.h>

#include "agg/agg.h"

/* v and last: rs->ng x g->ncell, zeroed by the caller; last[r * ncell + i]
 * is set when a straggler arrived in that cell of that row */
void imbalance_values(const Store *s, const uint64_t *sel, const RowSet *rs, const TimeGrid *g, double *v,
                      uint8_t *last);

#endif
