/*
 * agg_instants.c — the Gantt's instants and arrivals: the instants with a
 * glyph per row (their series, built by row kind, regrouped from the other
 * kind's or derived from a base summary's), and the sparse per-cell walks
 * over point series (the instants' most important glyph, the arrivals'
 * counts), the members of a display row that have any, and the series a
 * first frame builds while its intervals are computed, on two workers
 * (summary_gantt_points; arrivals of grouped rows by activity perhaps
 * merged straight from the series by location: agg_rowpts.c), and whether
 * a frame's rows by activity are too dense for an overlay, read from the
 * series by location (summary_rows_dense).
 *
 * Owns: Summary.glyphs, Summary.dense (summary_rows_dense's last yes per
 * overlay).
 * Invariants: an instant's point weighs its glyph's importance
 * (glyph_prio, in Points.prio), so a frame picks a cell's glyph from the
 * points alone; a cell walk visits only the cells holding points, at most
 * 64 points each, and walked in pieces (from a cell, up to a count) it
 * gives the cells of one walk; summary_gantt_points builds nothing
 * agg_dominant reads or builds; summary_rows_dense builds nothing, reads
 * a bounded number of points, and says yes only when each row has points
 * in that many cells (a yes kept is the answer to the same question).
 */
#include "agg_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- glyphs, arrivals, counts -------------------------------------------------------------- */

/* importance of an instant's glyph (0: none) */
static int glyph_prio(const Store *s, uint32_t e)
{
    switch (s->kind[e]) {
    case K_END: return 6;
    case K_SPAWN: return 5;
    case K_MOVE: return 4;
    case K_SYNC: return (s->flags[e] & EVF_DUR) && s->dur[e] > 0 ? 0 : 3;
    case K_ATOMIC: return 2;
    default: break;
    }
    /* marks and user kinds: their instants, least important */
    if ((s->kind[e] == K_MARK || s->kind[e] >= K_USER) && !(s->flags[e] & EVF_DUR)) return 1;
    return 0;
}

/* The instants with a glyph, per row; a point's weight is its glyph's
 * importance (glyph_prio), so that a frame picks a cell's glyph from the
 * points alone, without reading the events' columns; kept in a byte (prio,
 * no prefix sums: no frame adds them up), the point's id being its event:
 * 13 bytes a point, which the first Gantt by activity writes for every
 * instant of the trace (regrouped from the locations' series) */
static Points *glyph_points_build(Summary *S, RowKind rk);

static Points *glyph_points(Summary *S, RowKind rk)
{
    part_use(S, PART_GLYPH + (int)rk);
    part_use(S, PART_GLYPH + (rk == ROWS_LOC ? ROWS_ACT : ROWS_LOC)); /* (it may be regrouped from it) */
    Points *P = &S->glyphs[rk];
    if (P->built) return P;
    part_reserve(S, PART_GLYPH + (int)rk, 0);
    glyph_points_build(S, rk);
    part_built(S, PART_GLYPH + (int)rk);
    return P;
}

static Points *glyph_points_build(Summary *S, RowKind rk)
{
    Points *P = &S->glyphs[rk];
    const Store *s = S->s;
    const Points *O = &S->glyphs[rk == ROWS_LOC ? ROWS_ACT : ROWS_LOC];
    if (O->built) {
        /* the same events as the other row kind's: its points, by row */
        points_regroup(P, O, rk == ROWS_LOC ? s->loc : s->act, nrows_of(S, rk));
        return P;
    }
    if (S->base && S->sel) {
        points_derive(S, P, glyph_points(S->base, rk), NULL, nrows_of(S, rk));
        return P;
    }
    /* the events with a glyph first (4 bytes each, in event order), their
     * rows counted; then their points straight into their rows' places,
     * as points_from_raw would put them, without its raw copy (32 bytes a
     * point) */
    VEC(uint32_t) evs = {0};
    uint32_t nrows = nrows_of(S, rk);
    const uint32_t *row_of = rk == ROWS_LOC ? s->loc : s->act;
    P->nrows = nrows;
    P->off = xcalloc((size_t)nrows + 2, sizeof(uint32_t));
    {
        /* the kinds that can have a glyph (spawn, end, move, sync, atomic,
         * mark, user kinds) as a bit mask, tested for 64 events at once
         * (and'ed with the selection's word): the scan reads the kind
         * column, and flags / dur for the candidates only */
        static const uint32_t GK = 1u << K_SPAWN | 1u << K_END | 1u << K_MOVE | 1u << K_SYNC | 1u << K_ATOMIC | 1u << K_MARK |
                                   ~((1u << K_USER) - 1);
        const uint16_t *kind = s->kind;
        for (size_t b0 = 0; b0 < s->n; b0 += 64) {
            size_t nb = s->n - b0 < 64 ? s->n - b0 : 64;
            uint64_t m = 0;
            for (size_t j = 0; j < nb; j++) {
                uint32_t k = kind[b0 + j];
                m |= (uint64_t)(k >= 32 || ((GK >> (k & 31)) & 1)) << j;
            }
            if (S->sel) m &= S->sel[b0 >> 6];
            while (m) {
                size_t e = b0 + (size_t)__builtin_ctzll(m);
                m &= m - 1;
                if (!glyph_prio(s, (uint32_t)e)) continue;
                VEC_PUSH(evs, (uint32_t)e);
                P->off[row_of[e] + 1]++;
            }
        }
    }
    for (uint32_t r = 0; r < nrows; r++) P->off[r + 1] += P->off[r];
    points_alloc(P, evs.len, true);
    uint32_t *pos = xmalloc(((size_t)nrows + 1) * sizeof(uint32_t));
    memcpy(pos, P->off, (size_t)nrows * sizeof(uint32_t));
    for (size_t i = 0; i < evs.len; i++) {
        uint32_t e = evs.v[i];
        size_t k = pos[row_of[e]]++;
        P->t[k] = s->ts[e];
        P->prio[k] = (uint8_t)glyph_prio(s, e);
        P->id[k] = e; /* (the same array as ev) */
    }
    free(pos);
    size_t n = evs.len;
    VEC_FREE(evs);
    points_finish(P, n);
    return P;
}

uint32_t summary_glyph_in(Summary *S, RowKind rk, uint32_t row, int64_t a, int64_t b, uint32_t *count)
{
    *count = 0;
    if (rk == ROWS_PAIR) return NONE32;
    Points *P = glyph_points(S, rk);
    size_t i = pts_lower(P, row, a), j = pts_lower(P, row, b);
    *count = (uint32_t)(j - i);
    uint32_t best = NONE32;
    int bp = 0;
    for (size_t k = i; k < j && k < i + 64; k++) {
        int p = P->prio[k];
        if (p > bp) bp = p, best = P->id[k];
    }
    return best;
}

uint32_t summary_arrivals(Summary *S, RowKind rk, uint32_t row, int64_t a, int64_t b, uint32_t *first)
{
    Points *P = msg_points(S, true, rk);
    size_t i = pts_lower(P, row, a), j = pts_lower(P, row, b);
    if (first) *first = i < j ? P->id[i] : NONE32;
    return (uint32_t)(j - i);
}

/* the nonempty cells of g for row r of P: for each, the range [i, j) of its points */
typedef struct {
    const Points *P;
    uint32_t r;
    const TimeGrid *g;
    size_t i, end;
} CellWalk;

static bool cellwalk_next(CellWalk *w, int *cell, size_t *i, size_t *j)
{
    if (w->i >= w->end) return false;
    int c = grid_cell(w->g, w->P->t[w->i]);
    if (c < 0) return false;
    /* the first point from the cell's end on: a few steps forward (a
     * member's points are mostly one to a cell), else a search forward */
    int64_t x = w->g->b[c + 1];
    size_t k = w->i + 1;
    while (k < w->end && k < w->i + 8 && w->P->t[k] < x) k++;
    if (k < w->end && w->P->t[k] < x) k = gallop_lower(w->P->t, k, w->end, x); /* (from here: the cell's points are near) */
    *cell = c;
    *i = w->i;
    *j = k;
    w->i = k;
    return true;
}

/* (the cells from `from` on: a point before b[from] is in an earlier cell) */
static void cellwalk_init(CellWalk *w, const Points *P, uint32_t r, const TimeGrid *g, int from)
{
    w->P = P;
    w->r = r;
    w->g = g;
    if (from < 0) from = 0;
    w->end = pts_lower(P, r, g->b[g->ncell]);
    w->i = from >= g->ncell ? w->end : pts_lower(P, r, g->b[from]);
}

/* (the Gantt asks per member of its rows, 200,000 times a frame on a
 * trace of many activities: the points once built, without a call) */
static inline Points *glyph_points_built(Summary *S, RowKind rk)
{
    part_use(S, PART_GLYPH + (int)rk);
    return S->glyphs[rk].built ? &S->glyphs[rk] : glyph_points(S, rk);
}
static inline Points *arrival_points_built(Summary *S, RowKind rk)
{
    part_use(S, PART_MSG + 3 + (int)rk);
    return S->msg[1][rk].built ? &S->msg[1][rk] : msg_points(S, true, rk);
}

void summary_glyph_ahead(Summary *S, RowKind rk, uint32_t row)
{
    if (rk == ROWS_PAIR) return;
    part_use(S, PART_GLYPH + (int)rk);
    const Points *P = &S->glyphs[rk];
    if (rk == ROWS_PAIR || !P->built) return;
    size_t k = P->off[row];
    __builtin_prefetch(&P->t[k]);
    __builtin_prefetch(&P->id[k]);
    __builtin_prefetch(&P->prio[k]);
}

int summary_glyph_cells(Summary *S, RowKind rk, uint32_t row, const TimeGrid *g, int from, int stop, int *cell,
                        uint32_t *ev, uint32_t *count)
{
    if (rk == ROWS_PAIR) return 0;
    Points *P = glyph_points_built(S, rk);
    CellWalk w;
    cellwalk_init(&w, P, row, g, from);
    int n = 0, c, found = 0;
    size_t i, j;
    while ((stop <= 0 || found < stop) && cellwalk_next(&w, &c, &i, &j)) {
        uint32_t best = NONE32;
        int bp = 0;
        for (size_t k = i; k < j && k < i + 64; k++) {
            int p = P->prio[k]; /* (its glyph_prio) */
            if (p > bp) bp = p, best = P->id[k];
        }
        cell[n] = c;
        ev[n] = best;
        count[n] = (uint32_t)(j - i);
        n++;
        found += best != NONE32;
    }
    return n;
}

int summary_arrival_cells(Summary *S, RowKind rk, uint32_t row, const TimeGrid *g, int from, int stop, int *cell,
                          uint32_t *n, uint32_t *first)
{
    return points_cells(arrival_points_built(S, rk), row, g, from, stop, cell, n, first);
}

int points_cells(const Points *P, uint32_t row, const TimeGrid *g, int from, int stop, int *cell, uint32_t *n,
                 uint32_t *first)
{
    CellWalk w;
    cellwalk_init(&w, P, row, g, from);
    int k = 0, c;
    size_t i, j;
    while ((stop <= 0 || k < stop) && cellwalk_next(&w, &c, &i, &j)) {
        cell[k] = c;
        n[k] = (uint32_t)(j - i);
        if (first) first[k] = P->id[i];
        k++;
    }
    return k;
}

uint32_t summary_point_members(Summary *S, const RowSet *rs, uint32_t r, bool arrivals, uint32_t *k)
{
    if (!arrivals && rs->kind == ROWS_PAIR) return 0;
    const Points *P = arrivals ? arrival_points_built(S, rs->kind) : glyph_points_built(S, rs->kind);
    const uint32_t *off = P->off, *ids = rs->ids;
    uint32_t n = 0;
    for (uint32_t q = rowset_first(rs, r), e = rowset_end(rs, r); q < e; q++) {
        if (q + 16 < e) __builtin_prefetch(&off[ids[q + 16]]); /* (members in spawn-tree order are far apart) */
        k[n] = q;
        n += off[ids[q]] != off[ids[q] + 1];
    }
    return n;
}

void summary_gantt_points(Summary *S, const RowSet *rs, bool glyphs, bool arrivals, bool merged)
{
    if (glyphs && rs->kind != ROWS_PAIR) glyph_points_built(S, rs->kind);
    if (!arrivals) return;
    if (merged) summary_row_arrivals(S, rs); /* (perhaps without the rows' own series) */
    else arrival_points_built(S, rs->kind);
}

bool summary_gantt_points_ready(Summary *S, const RowSet *rs, bool glyphs, bool arrivals, bool merged)
{
    if (glyphs && rs->kind != ROWS_PAIR && !S->glyphs[rs->kind].built) return false;
    if (!arrivals) return true;
    const Points *A = &S->msg[1][rs->kind];
    return merged ? rowpts_ready(S, rs, A) : A->built;
}

/* (summary_rows_dense) the points read in a cell of a location's series,
 * and the reads and searches a call may make in all */
#define DENSE_READS 8
#define DENSE_OPS 65536

bool summary_rows_dense(Summary *S, const RowSet *rs, uint32_t nr, bool arrivals, const TimeGrid *g, uint32_t need)
{
    const Store *s = S->s;
    size_t nc = g->ncell > 0 ? (size_t)g->ncell : 0;
    if (rs->kind != ROWS_ACT || !nr || nr > rs->ng || nr >= UINT16_MAX || !need || need > nc) return false;
    /* (a frame that gave way asks again at every redraw while the view
     * stays there: the answer kept for the same rows, window and cells,
     * only when yes — a no builds the series, and the question is not
     * asked again) */
    int64_t w0 = g->b[0], w1 = g->b[nc];
    DenseMemo *M = &S->dense[arrivals];
    if (M->key.ids && M->w0 == w0 && M->w1 == w1 && M->nc == nc && M->nr == nr && M->need == need && rowkey_matches(&M->key, rs))
        return true;
    /* (the series by activity regroups this one by s->act[ev], the
     * arrivals merged per row too: rowpts_get_via) */
    part_use(S, arrivals ? PART_MSG + 3 + ROWS_LOC : PART_GLYPH + ROWS_LOC);
    const Points *O = arrivals ? &S->msg[1][ROWS_LOC] : &S->glyphs[ROWS_LOC];
    if (!O->built || O->nrows != s->nloc) return false;
    /* each activity's display row on screen (UINT16_MAX: none; an
     * activity in two rows counts for the first, which only makes the
     * other's answer harder to show) */
    uint16_t *row = xmalloc(((size_t)s->nact + 1) * sizeof(uint16_t));
    memset(row, 0xff, ((size_t)s->nact + 1) * sizeof(uint16_t));
    for (uint32_t r = 0; r < nr; r++)
        for (uint32_t k = rowset_first(rs, r), e = rowset_end(rs, r); k < e; k++)
            if (rs->ids[k] < s->nact && row[rs->ids[k]] == UINT16_MAX) row[rs->ids[k]] = (uint16_t)r;
    /* per row and cell, whether a point of its members is seen there
     * (each point read marks its own row's cell, whichever row is looked
     * for), and per row how many cells */
    uint8_t *seen = xcalloc((size_t)nr * nc + 1, 1);
    uint32_t *cnt = xcalloc((size_t)nr + 1, sizeof(uint32_t));
    /* a row's members' home locations, each once (stamp: the row + 1
     * that listed it) */
    uint32_t *stamp = xcalloc((size_t)s->nloc + 1, sizeof(uint32_t));
    VEC(uint32_t) locs = {0};
    size_t ops = 0;
    bool ok = true;
    for (uint32_t r = 0; r < nr && ok; r++) {
        if (cnt[r] >= need) continue;
        locs.len = 0;
        for (uint32_t k = rowset_first(rs, r), e = rowset_end(rs, r); k < e; k++) {
            uint32_t a = rs->ids[k];
            if (a >= s->nact) continue;
            uint32_t h = s->acts[a].home;
            if (h < s->nloc && stamp[h] != r + 1) {
                stamp[h] = r + 1;
                VEC_PUSH(locs, h);
            }
        }
        /* each home location's points in the window, cell after cell
         * (the empty cells skipped), the first few of a cell read, until
         * the row has `need` cells: a point at t is in cell grid_cell(t) */
        for (size_t q = 0; q < locs.len && cnt[r] < need && ops <= DENSE_OPS; q++) {
            uint32_t l = locs.v[q];
            size_t k = pts_lower(O, l, w0), end = pts_lower(O, l, w1);
            ops += 2;
            while (k < end && cnt[r] < need && ops <= DENSE_OPS) {
                int c = grid_cell(g, O->t[k]);
                int64_t b = g->b[c + 1];
                if (!seen[(size_t)r * nc + (size_t)c])
                    for (int n = 0; k < end && O->t[k] < b && n < DENSE_READS; k++, n++) {
                        ops++;
                        uint32_t act = s->act[O->ev[k]];
                        uint16_t r2 = act < s->nact ? row[act] : UINT16_MAX;
                        if (r2 == UINT16_MAX) continue;
                        uint8_t *m = &seen[(size_t)r2 * nc + (size_t)c];
                        if (!*m) *m = 1, cnt[r2]++;
                        if (r2 == r) break;
                    }
                k = gallop_lower(O->t, k, end, b);
                ops++;
            }
        }
        ok = cnt[r] >= need;
    }
    VEC_FREE(locs);
    free(stamp);
    free(cnt);
    free(seen);
    free(row);
    if (ok) {
        rowkey_free(&M->key);
        rowkey_set(&M->key, rs);
        M->w0 = w0, M->w1 = w1, M->nc = (uint32_t)nc, M->nr = nr, M->need = need;
    }
    return ok;
}
