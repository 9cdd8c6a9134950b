/*
 * imbalance.c — see imbalance.h.
 */
#include "imbalance.h"

#include <stdlib.h>

#include "analysis/syncs.h"
#include "base/util.h"

void imbalance_values(const Store *s, const uint64_t *sel, const RowSet *rs, const TimeGrid *g, double *v,
                      uint8_t *last)
{
    if (rs->kind != ROWS_LOC || g->ncell < 1) return;
    int32_t *row = xmalloc(((size_t)s->nloc + 1) * sizeof *row);
    for (uint32_t l = 0; l < s->nloc; l++) row[l] = -1;
    for (uint32_t r = 0; r < rs->ng; r++)
        for (uint32_t k = rowset_first(rs, r); k < rowset_end(rs, r); k++)
            if (rs->ids[k] < s->nloc) row[rs->ids[k]] = (int32_t)r;
    Syncs y;
    syncs_compute(s, sel, INT64_MIN, INT64_MAX, &y);
    size_t nc = (size_t)g->ncell;
    for (uint32_t i = 0; i < y.ninst; i++) {
        const SyncInst *I = &y.inst[i];
        for (uint32_t k = 0; k < I->n; k++) {
            const SyncPart *P = &y.parts[I->off + k];
            int32_t r = row[s->loc[P->ev]];
            if (r < 0 || P->wait_ns <= 0) continue;
            int64_t a = s->ts[P->ev], b = a + P->wait_ns;
            if (a < g->t0) a = g->t0;
            if (b > g->t1) b = g->t1;
            if (b <= a) continue;
            /* spread over the cells it overlaps, per cell width */
            for (int c = grid_cell(g, a); c >= 0 && c < g->ncell && g->b[c] < b; c++) {
                int64_t x = a > g->b[c] ? a : g->b[c], z = b < g->b[c + 1] ? b : g->b[c + 1];
                int64_t w = g->b[c + 1] - g->b[c];
                if (z > x && w > 0) v[(size_t)r * nc + (size_t)c] += (double)(z - x) / (double)w;
            }
        }
        int32_t r = row[s->loc[I->last_ev]];
        int c = grid_cell(g, s->ts[I->last_ev]);
        if (r >= 0 && c >= 0 && I->n > 1) last[(size_t)r * nc + (size_t)c] = 1;
    }
    syncs_free(&y);
    free(row);
}
