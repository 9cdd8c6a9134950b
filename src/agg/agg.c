/*
 * agg.c — the summary of a store under a selection: building it (the
 * selection's rank, the lanes), freeing it, and the queries about the
 * selection's events that the views and the interface ask per cell
 * (active, events in a cell, next event; the visible counts are
 * agg_count.c's); see agg.h for
 * the model and its invariants.
 *
 * Owns: summary_build / summary_build_from / summary_free, the rank of
 * the selection bitmap, summary_loc_label_width's memo.
 * Invariants: a summary only reads its store and selection (and, in
 * summary_build_from, takes the lanes of the summary it replaces when
 * their candidates are the same, which lanes_take checks); everything
 * built after summary_build is built lazily, once, by the file that owns
 * it (agg_lanes.c, agg_points.c, agg_instants.c, agg_rows.c, agg_frame.c, agg_count.c; the names' ranking
 * is made by the lanes' sweep, unless a trace has too many names), except the parts
 * kept for a row set (agg_groups.c, agg_dominant.c with agg_lanetime.c),
 * built again for another row set, and the parts a memory budget drops
 * (agg_budget.c), built again, equal, when next asked for.
 */
#include "agg_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const METRIC_NAMES[M__N] = {"busy", "sync", "bytes", "events", "counter", "expr"};
const char *const REDUCER_NAMES[RED__N] = {"sum", "mean", "max", "min-nonzero", "mode"};

bool metric_is_total(Metric m) { return m == M_BYTES || m == M_EVENTS || m == M_EXPR; }

const Store *summary_store(const Summary *S) { return S->s; }
uint64_t summary_selected(const Summary *S) { return S->nsel; }

bool summary_msgs_sized(Summary *S)
{
    if (S->msgs_sized < 0) {
        const Store *s = S->s;
        S->msgs_sized = 0;
        if (store_canon_col(s, F_BYTES))
            for (uint32_t i = 0; i < s->nmsg && !S->msgs_sized; i++) S->msgs_sized = msg_bytes(s, &s->msgs[i]) >= 0;
    }
    return S->msgs_sized;
}
size_t summary_nsegments(const Summary *S) { return S->nseg; }

size_t points_bytes(const Points *P)
{
    return P->built ? ((size_t)P->nrows + 2) * 4 + points_block_bytes(P) : 0;
}

static size_t steps_bytes(const Steps *P)
{
    return P->built ? ((size_t)P->nrows + 2) * 4 + ((size_t)P->off[P->nrows] + P->nrows + 1) * (8 * 4 + 1) : 0;
}

size_t summary_bytes(const Summary *S)
{
    const Store *s = S->s;
    size_t b = sizeof *S + ((size_t)S->nlanes + 1) * sizeof(Lane);
    for (uint32_t i = 0; i < S->nlanes; i++) b += ((size_t)S->lanes[i].nbins + 1) * sizeof(uint32_t);
    /* (the arenas' unused tails are not counted) */
    b += seg_blocks(S->seg_cap) * sizeof(SegBlk) + S->seg_cap * (sizeof(uint32_t) + 1) + (S->nfar_t + S->nfar_d) * sizeof(SegFar);
    b += 2 * ((S->seg_cap >> CP_SHIFT) + 1) * sizeof(int64_t);
    b += ((size_t)s->nloc + 2 + (size_t)s->nact + 1 + 2 * ((size_t)S->nlanes + 1)) * sizeof(uint32_t);
    if (S->rank) b += ((s->n + 63) / 64 + 1) * sizeof(uint32_t);
    if (S->cand) b += ((s->n + 63) / 64 + 1) * sizeof(uint64_t);
    if (S->ivl) b += ((s->n + 63) / 64 + 1) * sizeof(uint64_t);
    if (S->act_rank) b += (s->n + 1) * sizeof(uint32_t);
    if (S->pairs_built) b += 2 * ((size_t)S->npairs + 1) * sizeof(uint32_t);
    if (S->msg_pair) b += ((size_t)s->nmsg + 1) * sizeof(uint32_t);
    for (int d = 0; d < 2; d++)
        for (int r = 0; r < 3; r++) b += points_bytes(&S->msg[d][r]);
    for (int r = 0; r < 2; r++)
        b += steps_bytes(&S->counter[r]) + steps_bytes(&S->xsteps[r]) + points_bytes(&S->xpts[r]) +
             points_bytes(&S->glyphs[r]);
    if (S->xval) b += (s->n + 1) * sizeof(double);
    b += locidx_bytes(&S->locidx, s->nloc);
    b += grpsum_bytes(S->grp[0]) + grpsum_bytes(S->grp[1]);
    b += rowlanes_bytes(&S->rowlanes);
    b += rowarr_bytes(S) + mxcells_bytes(S) + rowkey_bytes(&S->dense[0].key) + rowkey_bytes(&S->dense[1].key);
    b += open_bytes(S);
    b += tord_bytes(S);
    if (S->names_built) b += name_nkeys(s) + 1 + (size_t)S->ntop * 12;
    return b;
}

int summary_big_sizes(const Summary *S, size_t *sizes, int max)
{
    size_t v[5] = {seg_blocks(S->seg_cap) * sizeof(SegBlk), S->seg_cap * sizeof(uint32_t), S->seg_cap,
                   ((S->seg_cap >> CP_SHIFT) + 1) * sizeof(int64_t), ((S->seg_cap >> CP_SHIFT) + 1) * sizeof(int64_t)};
    int n = max < 5 ? max : 5;
    for (int i = 0; i < n; i++) sizes[i] = v[i];
    return n;
}

/* ---- the selection ------------------------------------------------------------- */

static void build_rank(Summary *S)
{
    size_t n = S->s->n, nw = (n + 63) / 64;
    if (!S->sel) {
        S->nsel = n;
        return;
    }
    S->rank = xmalloc((nw + 1) * sizeof(uint32_t));
    uint32_t acc = 0;
    for (size_t w = 0; w < nw; w++) {
        S->rank[w] = acc;
        acc += (uint32_t)popcount64(S->sel[w]);
    }
    S->rank[nw] = acc;
    S->nsel = acc;
}

/* selected events among 0..x-1 */

const uint64_t *summary_selection(const Summary *S) { return S->sel; }

Summary *summary_build(const Store *s, const uint64_t *sel, int threads) { return summary_build_from(s, sel, threads, NULL); }

Summary *summary_build_from(const Store *s, const uint64_t *sel, int threads, Summary *old)
{
    oom_phase("building the summaries of rows");
    Summary *S = xcalloc(1, sizeof *S);
    S->s = s;
    S->sel = sel;
    S->threads = threads > 0 ? threads : cpu_count();
    S->msgs_sized = -1;
    S->loc_label_w = -1;
    build_rank(S);
    S->cand = lanes_candidates(S, old);
    /* the lanes depend on the selected intervals only: a filter that keeps
     * the same ones (on instants, messages, counters) keeps them */
    S->lanes_kept = lanes_take(S, old);
    summary_free(old); /* (before the sweep: its memory, warm, goes to the new lanes) */
    if (!S->lanes_kept) build_lanes(S);
    return S;
}

bool summary_lanes_kept(const Summary *S) { return S->lanes_kept; }

int summary_loc_label_width(Summary *S, int (*width)(const char *))
{
    if (S->loc_label_w < 0) {
        int w = 0;
        for (uint32_t l = 0; l < S->s->nloc; l++) {
            int x = width(loc_label(S->s, l));
            if (x > w) w = x;
        }
        S->loc_label_w = w;
    }
    return S->loc_label_w;
}

void summary_set_base(Summary *S, Summary *base)
{
    if (base && (base->sel || base->s != S->s)) base = NULL;
    S->base = base;
}

void summary_free(Summary *S)
{
    if (!S) return;
    summary_leave_budget(S);
    for (int k = 0; k < SWEEP_WORKERS; k++) arena_free(&S->bins_arena[k]);
    xfree_big(S->lanes, S->lanes_bytes);
    free(S->loc_off);
    free(S->loc_lanes);
    free(S->act_off);
    free(S->act_lanes);
    locidx_free(&S->locidx);
    grpsum_free(S->grp[0]);
    grpsum_free(S->grp[1]);
    rowlanes_free(&S->rowlanes);
    rowarr_free(S);
    for (int k = 0; k < 2; k++) rowkey_free(&S->dense[k].key);
    open_free(S);
    tord_free(S);
    free(S->label_shared);
    xfree_big(S->seg_tb, seg_blocks(S->seg_cap) * sizeof(SegBlk));
    xfree_big(S->seg_ev, S->seg_cap * sizeof(uint32_t));
    xfree_big(S->seg_cd, S->seg_cap);
    free(S->far_t);
    free(S->far_d);
    for (int k = 0; k < 2; k++) xfree_big(S->cp[k], ((S->seg_cap >> CP_SHIFT) + 1) * sizeof(int64_t));
    free(S->rank);
    free(S->cand);
    free(S->ivl);
    xfree_big(S->act_rank, 0);
    free(S->pair_src);
    free(S->pair_dst);
    xfree_big(S->msg_pair, ((size_t)S->s->nmsg + 1) * sizeof(uint32_t));
    for (int d = 0; d < 2; d++)
        for (int r = 0; r < 3; r++) points_free(&S->msg[d][r]);
    for (int r = 0; r < 2; r++) {
        steps_free(&S->counter[r]);
        steps_free(&S->xsteps[r]);
        points_free(&S->xpts[r]);
        points_free(&S->glyphs[r]);
    }
    xfree_big(S->xval, 0);
    free(S->xtext);
    free(S->name_rank);
    free(S->top);
    free(S->top_ns);
    free(S);
}

bool summary_active_in(Summary *S, RowKind rk, uint32_t row, int64_t a, int64_t b)
{
    if (rk == ROWS_PAIR) return false;
    if (events_before(S, rk, row, b) > events_before(S, rk, row, a)) return true;
    uint32_t nl;
    const uint32_t *ls = row_lanes(S, rk, row, &nl);
    for (uint32_t q = 0; q < nl; q++) {
        const Lane *L = &S->lanes[ls[q]];
        ptrdiff_t k = seg_find(S, L, a, NULL);
        size_t from = k < 0 ? L->off : (size_t)k;
        for (size_t z = from; z < (size_t)L->off + L->n && seg_time(S, z) < b; z++)
            if (S->seg_ev[z] != NONE32 && (z + 1 == (size_t)L->off + L->n || seg_time(S, z + 1) > a)) return true;
    }
    return false;
}

static bool push_unique(uint32_t *out, int *n, int max, uint32_t e)
{
    for (int i = 0; i < *n; i++)
        if (out[i] == e) return true;
    if (*n >= max) return false;
    out[(*n)++] = e;
    return true;
}

int summary_events_in_cell(Summary *S, RowKind rk, uint32_t row, int64_t a, int64_t b, uint32_t *out, int max)
{
    const Store *s = S->s;
    int n = 0;
    if (rk == ROWS_PAIR) return 0;
    /* intervals: what is innermost somewhere in the cell, then the
     * intervals of its activity that contain it */
    uint32_t nl;
    const uint32_t *ls = row_lanes(S, rk, row, &nl);
    for (uint32_t q = 0; q < nl; q++) {
        const Lane *L = &S->lanes[ls[q]];
        ptrdiff_t k = seg_find(S, L, a, NULL);
        size_t from = k < 0 ? L->off : (size_t)k;
        for (size_t z = from; z < (size_t)L->off + L->n && seg_time(S, z) < b; z++) {
            uint32_t e = S->seg_ev[z];
            if (e == NONE32) continue;
            if (!push_unique(out, &n, max, e)) return n;
        }
    }
    int ninner = n;
    for (int i = 0; i < ninner; i++) {
        /* the enclosing intervals: same activity, open at e's start */
        uint32_t e = out[i], act = s->act[e];
        for (uint32_t p = s->act_off[act]; p < s->act_off[act + 1]; p++) {
            uint32_t x = s->act_ev[p];
            if (s->ts[x] > s->ts[e]) break;
            if (x != e && (s->flags[x] & EVF_DUR) && ev_end(s, x) > s->ts[e] && s->kind[x] != K_MSG && selected(S, x) &&
                !push_unique(out, &n, max, x))
                return n;
        }
    }
    /* events starting in the cell */
    if (rk == ROWS_LOC) {
        size_t lo = s->locs[row].first, hi = lo + s->locs[row].count;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (s->ts[mid] < a) lo = mid + 1;
            else hi = mid;
        }
        for (size_t e = lo; e < (size_t)s->locs[row].first + s->locs[row].count && s->ts[e] < b; e++)
            if (selected(S, e) && !push_unique(out, &n, max, (uint32_t)e)) return n;
    } else {
        size_t lo = s->act_off[row], hi = s->act_off[row + 1];
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (s->ts[s->act_ev[mid]] < a) lo = mid + 1;
            else hi = mid;
        }
        for (size_t p = lo; p < s->act_off[row + 1] && s->ts[s->act_ev[p]] < b; p++)
            if (selected(S, s->act_ev[p]) && !push_unique(out, &n, max, s->act_ev[p])) return n;
    }
    return n;
}

uint32_t summary_next_event(Summary *S, int64_t t, int dir)
{
    const Store *s = S->s;
    uint32_t best = NONE32;
    for (uint32_t l = 0; l < s->nloc; l++) {
        size_t first = s->locs[l].first, end = first + s->locs[l].count, lo = first, hi = end;
        /* dir > 0: the first event with ts > t; else the last with ts < t */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (dir > 0 ? s->ts[mid] <= t : s->ts[mid] < t) lo = mid + 1;
            else hi = mid;
        }
        if (dir > 0) {
            for (size_t e = lo; e < end; e++)
                if (selected(S, e)) {
                    if (best == NONE32 || s->ts[e] < s->ts[best]) best = (uint32_t)e;
                    break;
                }
        } else {
            for (size_t e = lo; e-- > first;)
                if (selected(S, e)) {
                    if (best == NONE32 || s->ts[e] > s->ts[best]) best = (uint32_t)e;
                    break;
                }
        }
    }
    return best;
}
