/*
 * agg.h — pixel-bounded aggregation: what the views show in each cell.
 *
 * Owns: the *summary* of a store under a selection (built once after load
 * and after every filter change) and the evaluation of a frame from it:
 * row sets (locations, activities, location pairs; ordered, grouped to fit
 * the screen), time grids, metrics and reducers.
 *
 * The summary holds, per row, cumulative functions of time: F(t) = the
 * metric's total over (-inf, t). A cell [a, b) is then F(b) - F(a), exact
 * at every zoom, and a frame costs O(cells * log n), never O(events):
 *  - busy / sync: per *lane* (an activity at one location) the timeline of
 *    its innermost open interval (segments), with prefix sums of the time
 *    spent innermost in a `state` (busy) or a `sync` (waiting), stored every
 *    32 segments; so a region that contains a barrier is not busy while the
 *    barrier runs, and 2 busy threads of a location make 2.0;
 *  - events: the selected events starting in [a, b) (rank of the selection
 *    bitmap + binary search in the per-location / per-activity time order);
 *  - bytes: per row, the sorted times of the messages it sent (or, with
 *    recv, received) with prefix sums of their sizes;
 *  - counter: per row, the step function of the sum of its counter series
 *    (one per activity and name, holding its last `value`), integrated;
 *  - expr:E: the value of E spread evenly over each interval (and at the
 *    time of each instant), integrated.
 * A frame costs what is on screen: a location's busy/sync comes from a
 * per-location index of its lanes (so 200,000 short activities cost no
 * more than 2), a grouped row of many members is computed sparsely (each
 * member only where its lanes or points are), and the communication
 * matrix is grouped to the screen from the location pairs that have
 * messages (never nloc * nloc). The implementation is split by concern:
 * agg.c (building, the selection, per-cell queries), agg_count.c (the
 * status line's count: the selection's times by bucket, the lanes open at
 * a time), agg_lanes.c (lanes,
 * segments; the names' innermost time), agg_lanefind.c (lookups in the
 * lanes), agg_locidx.c (the location index), agg_points.c (point series, steps),
 * agg_instants.c (the Gantt's instants and arrivals per cell),
 * agg_rowpts.c (a display row's series merged; the matrix), agg_rows.c (row sets, labels, names), agg_frame.c (frames,
 * reducers), agg_groups.c (group summaries: a grouped row's busy / sync
 * per cell), agg_dominant.c (the Gantt's dominant interval),
 * agg_lanetime.c (a display row's lanes by time, for the Gantt's cells its
 * samples leave empty); agg_int.h holds the internals.
 *
 * Invariants: a summary only reads its store and selection (both must
 * outlive it); evaluating a frame changes nothing but lazily built parts
 * of the summary (per metric and row kind), so results do not depend on
 * the order of queries; cell values of a time grid refined at its
 * boundaries add up to the coarse cell values exactly (for totals) or
 * time-weighted (for rates).
 */
#ifndef TNAV_AGG_H
#define TNAV_AGG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

typedef enum { M_BUSY, M_SYNC, M_BYTES, M_EVENTS, M_COUNTER, M_EXPR, M__N } Metric;
typedef enum { RED_SUM, RED_MEAN, RED_MAX, RED_MINNZ, RED_MODE, RED__N } Reducer;
typedef enum { ROWS_LOC, ROWS_ACT, ROWS_PAIR } RowKind;

extern const char *const METRIC_NAMES[M__N];
extern const char *const REDUCER_NAMES[RED__N];

typedef struct {
    Metric m;
    bool recv;        /* bytes / events of messages: by arrival at the destination */
    const char *expr; /* M_EXPR: the expression's text */
} MetricSpec;

/* true for metrics whose cell value is a total (bytes, events, expr);
 * false for rates averaged over the cell (busy, sync, counter) */
bool metric_is_total(Metric m);

typedef struct Summary Summary;

/* Build the summary of s under sel (NULL: every event). */
Summary *summary_build(const Store *s, const uint64_t *sel, int threads);
/* The same, freeing old (a summary of s, or NULL) on the way: when old's
 * selected intervals are sel's (a filter that changes only instants,
 * messages or counters), its lanes are kept rather than swept again, and
 * the result is the same as summary_build's. The interface's rebuild
 * after a new filter. */
Summary *summary_build_from(const Store *s, const uint64_t *sel, int threads, Summary *old);
/* whether summary_build_from kept the lanes of the summary it replaced */
bool summary_lanes_kept(const Summary *S);
/* the selection it was built for (NULL: every event) */
const uint64_t *summary_selection(const Summary *S);
void summary_free(Summary *S);
/* Free the group summaries (agg_groups.c: a grouped row's busy / sync
 * functions, kept for the last two groupings); a frame that needs one
 * again builds it again, equal. (The interface leaves such drops to its
 * memory budget, below; the tests call it.) */
void summary_drop_groups(Summary *S);
/* A memory budget over the lazily built parts of summaries (agg_budget.c):
 * when a build would take their total past the limit, the least recently
 * used parts not used by the current frame — those last used by another
 * view first — are dropped, to be built again (bitwise-equal) when asked
 * for. The interface owns one for its summaries; headless commands use
 * none. agg_budget_frame starts a frame (of a view: any small integer);
 * the parts used from then on are kept until the next. */
typedef struct AggBudget AggBudget;
AggBudget *agg_budget_new(size_t limit);
void agg_budget_free(AggBudget *B); /* (after its summaries, or detaching them) */
void agg_budget_set_limit(AggBudget *B, size_t limit);
size_t agg_budget_limit(const AggBudget *B);
void agg_budget_frame(AggBudget *B, int view);
/* the bytes of the parts counted now; how many parts were dropped, their bytes */
size_t agg_budget_bytes(AggBudget *B);
void agg_budget_drops(AggBudget *B, size_t *n, size_t *bytes);
/* S's lazily built parts count against B from now on (NULL: none) */
void summary_set_budget(Summary *S, AggBudget *B);
/* What every frame of the interface reads (the status line's count:
 * summary_events_visible's indexes), marked used by the current frame
 * from its start, so that the frame's other builds do not drop it. */
void summary_hold_count_parts(Summary *S);
/* Let S (filtered) derive its lazily built point series (message ends,
 * instants with glyphs) from base, the unfiltered summary of the same
 * store, which must outlive S: a subset of sorted points is sorted, so each
 * series costs one pass over base's instead of a scan and a sort. */
void summary_set_base(Summary *S, Summary *base);
const Store *summary_store(const Summary *S);
/* Segments of the busy/sync timelines (for measurements). */
size_t summary_nsegments(const Summary *S);
/* The bytes the summary holds now (what it built so far, lazily built
 * parts included), for measurements. */
size_t summary_bytes(const Summary *S);
/* The sizes of the summary's big arrays (at most 8): segment times,
 * events, categories and the two checkpoint arrays. */
int summary_big_sizes(const Summary *S, size_t *sizes, int max);
/* Prepare a metric (compiles expr:E; false with a message on an error). */
bool summary_prepare(Summary *S, const MetricSpec *m, RowKind rk, char *err, size_t errsz);

/* ---- rows ----------------------------------------------------------------- */

typedef struct {
    RowKind kind;
    uint32_t n;      /* base rows: locations, activities or pairs */
    uint32_t *ids;   /* base rows in display order */
    uint16_t *depth; /* per position in ids: depth in the spawn tree (tree order) */
    uint32_t gsize;  /* base rows per display row (1: not grouped); with
                      * gstart, the largest group */
    uint32_t ng;     /* display rows */
    uint32_t *gstart; /* NULL: display row g is ids[g*gsize ..]; else ng + 1
                       * offsets into ids (groups of any size, chosen by the
                       * caller: the TUI's expanded and hidden rows) */
    bool owned;      /* rowset_free frees ids, depth, gstart */
} RowSet;

/* All rows of a kind; activities in time order or in spawn-tree order. */
void rowset_init(RowSet *rs, Summary *S, RowKind kind, bool tree);
/* Group rows so that they fit in `lines` display rows. */
void rowset_fit(RowSet *rs, int lines);
void rowset_free(RowSet *rs);
static inline uint32_t rowset_first(const RowSet *rs, uint32_t g) { return rs->gstart ? rs->gstart[g] : g * rs->gsize; }
static inline uint32_t rowset_end(const RowSet *rs, uint32_t g)
{
    if (rs->gstart) return rs->gstart[g + 1];
    uint32_t e = (g + 1) * rs->gsize;
    return e < rs->n ? e : rs->n;
}
/* A view of display rows [off, off + count) of rs, sharing its arrays (not
 * to be freed). */
void rowset_window(const RowSet *rs, uint32_t off, uint32_t count, RowSet *out);
/* The label of base row id of a kind. */
void row_label(Summary *S, RowKind kind, uint32_t id, char *buf, size_t sz);
/* The label of display row g: the row's; a group's "first..last" when its rows are
 * consecutive, else "first +N" (N more rows, e.g. after a sort). */
void rowset_label(const RowSet *rs, Summary *S, uint32_t g, char *buf, size_t sz);
/* Location pairs (ROWS_PAIR): source and destination of pair p. */
uint32_t summary_npairs(Summary *S);
/* The widest location label as `width` measures it (the views' display
 * width), measured at the summary's first ask: the labels do not change,
 * and a frame of the matrix would otherwise read every one of them
 * (10,000 ranks: about a millisecond of cache misses). */
int summary_loc_label_width(Summary *S, int (*width)(const char *));
void summary_pair(Summary *S, uint32_t p, uint32_t *src, uint32_t *dst);

/* ---- time grids and frames -------------------------------------------------- */

typedef struct {
    int64_t t0, t1;
    int ncell;
    int64_t *b; /* ncell + 1 boundaries: b[i] = t0 + floor((t1 - t0) * i / ncell) */
} TimeGrid;

void grid_init(TimeGrid *g, int64_t t0, int64_t t1, int ncell);
void grid_free(TimeGrid *g);
/* the cell of time t, or -1 outside the grid */
int grid_cell(const TimeGrid *g, int64_t t);

/* Cumulative values of base row `row` at the increasing times t[0..nt):
 * cum = the metric's total over (-inf, t[i]) (ns covered for busy/sync,
 * bytes, events, value*ns for counter and expr intervals); def (may be
 * NULL) = the time over which the metric has a value (counter). */
void summary_cum(Summary *S, const MetricSpec *m, RowKind rk, uint32_t row, const int64_t *t, int nt, double *cum,
                 double *def);

/* The natural value of a window from two cumulative samples: a rate for
 * busy/sync/counter, a total otherwise. NaN when it has no value. */
double metric_value(Metric m, double c0, double c1, double d0, double d1, int64_t a, int64_t b);

/* A frame: values[g * ncell + i] for display row g and cell i (NaN: no
 * value). The reducer combines the members of a grouped row; max,
 * min-nonzero and mode also look at each cell's `subbins` finer bins (rates
 * of the finer bins, totals scaled to the cell), so a short burst or a
 * rare event is not averaged away. */
/* Rows that group at least 8 members each, whose members hold at least
 * min_segments segments in all (default 1M), have their busy / sync sums
 * and means from per-row group summaries; tests lower it to check those
 * against the member-by-member computation. */
#define AGG_GROUP_MIN_SEGMENTS ((size_t)1 << 20)
void agg_set_group_threshold(size_t min_segments);
void agg_frame(Summary *S, const MetricSpec *m, Reducer r, const RowSet *rs, const TimeGrid *g, int subbins,
               double *values);

/* ---- timelines (Gantt) -------------------------------------------------------- */

/* The event that occupies most of each cell of each display row (the
 * innermost interval, sampled at up to `samples` points per cell — fewer,
 * down to 2, when the frame holds so many lanes that the lookups would
 * exceed about 120,000 — its name deciding; an interval shorter than the
 * sampling still shows), or NONE32 for an idle cell: out[g * ncell + i];
 * nk (NULL: not wanted) gets its name and kind, name << 16 | kind
 * (UINT64_MAX: none), read by the workers. */
void agg_dominant(Summary *S, const RowSet *rs, const TimeGrid *g, int samples, uint32_t *out, uint64_t *nk);

/* A stable colour index (0..ncolors-1) and legend rank (-1: not among the
 * top names) of the name of event e: names ranked by their innermost time
 * over the whole selection. */
int summary_name_rank(Summary *S, uint32_t e);
/* The same for an event of name `name` (NONE32: none) and kind `kind`, as
 * agg_dominant's nk gives them (the event is not read). */
int summary_name_rank_nk(Summary *S, uint32_t name, uint16_t kind);
/* The top names: their event representatives, by innermost time; returns
 * the number written (<= max). */
int summary_top_names(Summary *S, uint32_t *ev, int64_t *ns, int max);
/* The ranking is made by summary_build's sweep of the lanes (on by
 * default); off, summaries built from then on walk their lanes again when
 * the names are first asked for, as they do when a trace has too many
 * names for the sweep's tables: tests compare the two. */
void agg_set_names_fused(bool on);
/* The name of an interval for display: its name, or its kind. */
const char *event_name(const Store *s, uint32_t e);
/* the same for a name (NONE32: none, the kind's name) and kind */
const char *name_kind_str(const Store *s, uint32_t name, uint16_t kind);

/* Instant events with a glyph (spawn, end, move, atomic, sync, clock) of
 * base row `row` in [a, b): the most important one's event, and how many
 * there are (0: none). */
uint32_t summary_glyph_in(Summary *S, RowKind rk, uint32_t row, int64_t a, int64_t b, uint32_t *count);

/* summary_glyph_in for every cell of g at once, sparsely: the cells
 * (increasing) where base row `row` has instants, with the most important
 * one's event (NONE32: none with a glyph) and their count; returns how
 * many cells (<= g->ncell). Only cells from `from` on; stop > 0: the walk
 * ends at the stop-th cell with a glyph (a caller that only needs to know
 * whether a row holds that many resumes after the last cell returned).
 * Costs a search per such cell (and at most 64 points), nothing per
 * empty cell. */
int summary_glyph_cells(Summary *S, RowKind rk, uint32_t row, const TimeGrid *g, int from, int stop, int *cell,
                        uint32_t *ev, uint32_t *count);
/* What summary_glyph_cells(S, rk, row, ...) will read first, read ahead
 * (a frame's rows in spawn-tree order visit their members far apart). */
void summary_glyph_ahead(Summary *S, RowKind rk, uint32_t row);
/* summary_arrivals for every cell of g at once, sparsely (as above; stop
 * > 0: at most that many cells, every one holding arrivals). */
int summary_arrival_cells(Summary *S, RowKind rk, uint32_t row, const TimeGrid *g, int from, int stop, int *cell,
                          uint32_t *n, uint32_t *first);
/* summary_arrival_cells for display row r of rs, its members at once:
 * the cells where any of them has arrivals, how many in all, and the
 * first one's message index when the cell has exactly one (else any
 * arrival's). The rows' arrivals are merged by time once per row set (the
 * last one kept), so that a row of 170 locations costs per cell, not per
 * member; a frame should use it when its rows group many members. */
int summary_row_arrival_cells(Summary *S, const RowSet *rs, uint32_t r, const TimeGrid *g, int *cell, uint32_t *n,
                              uint32_t *one);
/* The same for every display row of rs, the row set recognised once (it
 * is compared with the one the merged series was built for, an O(members)
 * test, which per row would cost more than the row): the merged series of
 * rs, built if needed, valid until the summary is asked for another row
 * set's; then the cells of display row r from it. */
typedef struct RowArrivals RowArrivals;
const RowArrivals *summary_row_arrivals(Summary *S, const RowSet *rs);
int summary_row_arrivals_cells(const RowArrivals *A, uint32_t r, const TimeGrid *g, int from, int stop, int *cell,
                               uint32_t *n, uint32_t *one);
/* The members of display row r of rs (their positions k, rowset_first
 * .. rowset_end, in order) whose base rows have instants with a glyph
 * (arrivals: message arrivals) at all, into k[] (room for the row's
 * members); how many. A row of 3,500 members (a task runtime's
 * activities) then costs a call per member with something to draw. */
uint32_t summary_point_members(Summary *S, const RowSet *rs, uint32_t r, bool arrivals, uint32_t *k);
/* The series a Gantt frame of rs reads for its instants (glyphs) and its
 * arrivals (merged: per display row, summary_row_arrival_cells; else per
 * member), built if they are not; _ready: whether they are. They are no
 * part of what agg_dominant reads or builds, so that a first frame may
 * build them on one core while agg_dominant runs on the others. */
void summary_gantt_points(Summary *S, const RowSet *rs, bool glyphs, bool arrivals, bool merged);
bool summary_gantt_points_ready(Summary *S, const RowSet *rs, bool glyphs, bool arrivals, bool merged);
/* Whether each display row 0 .. nr - 1 of rs (by activity) is sure to
 * have instants with a glyph (arrivals: message arrivals) in at least
 * `need` cells of g, without the series by activity: shown from the
 * series by location (the same points, each in its event's activity's
 * row), a few points read per cell and location of a row's members, until
 * every row has `need` cells. False when it cannot tell: rows by location,
 * the series by location not built, a row short of `need` cells among the
 * points read, or its budget (65,536 points read and searches) spent. A
 * Gantt frame whose rows would all give way as too dense then needs
 * neither the series nor its walks. */
bool summary_rows_dense(Summary *S, const RowSet *rs, uint32_t nr, bool arrivals, const TimeGrid *g, uint32_t need);

/* Whether base row `row` has a selected event starting in [a, b) or an
 * interval of the selection open in it. */
bool summary_active_in(Summary *S, RowKind rk, uint32_t row, int64_t a, int64_t b);

/* The selected events of base row `row` in [a, b): the intervals open in
 * it (innermost first, then the ones they are nested in) and the events
 * starting in it, each once, at most max; returns how many. */
int summary_events_in_cell(Summary *S, RowKind rk, uint32_t row, int64_t a, int64_t b, uint32_t *out, int max);
/* The next (dir > 0) or previous selected event of any location after
 * (before) time t, or NONE32. */
uint32_t summary_next_event(Summary *S, int64_t t, int dir);

/* Messages arriving at base row `row` in [a, b): how many, and (when
 * first != NULL) the first one's message index. */
uint32_t summary_arrivals(Summary *S, RowKind rk, uint32_t row, int64_t a, int64_t b, uint32_t *first);

/* Selected events starting in [a, b) over all rows, and in total. */
uint64_t summary_events_in(Summary *S, int64_t a, int64_t b);
/* The count's time index is built for traces of at least n locations
 * (default 2048; fewer are searched location by location): for tests,
 * which set 0 to check the index on small traces. */
void summary_count_index_min_locs(uint32_t n);
/* The intervals open at a window's start are looked up by two workers
 * from n lanes to look at (0: the default, 8,192): for tests, which set 1
 * to check the split on small traces. */
void summary_count_par_min(uint32_t n);
/* Events visible in [a, b): those that start in it and the intervals that
 * started before a and are still open at a - 1 (one that ends exactly at
 * a is counted). */
uint64_t summary_events_visible(Summary *S, int64_t a, int64_t b);
/* Builds now what summary_events_visible needs for a window narrower than
 * the whole trace (its time index and the lanes by start), which a count
 * over the whole trace does without: the interface calls it once a
 * frame is up (app_idle), so that a first frame of the whole trace does
 * not wait for them, nor the zoom after it. */
void summary_count_prepare(Summary *S);
uint64_t summary_selected(const Summary *S);
/* Some message of the trace has a size (its send or receive carries
 * bytes): the comm view then shows bytes by default, else message counts
 * (Chrome's flows, OTF2 without sizes). Of the whole trace, whatever the
 * selection; found once per summary. */
bool summary_msgs_sized(Summary *S);

/* Messages between locations in [a, b) (by send time), with locations
 * grouped rg sources per row and cg destinations per column: per (src /
 * rg, dst / cg) bytes and counts into arrays of ceil(nloc / rg) rows of
 * ceil(nloc / cg) columns (either may be NULL). The summary keeps the
 * location pairs that have messages (sparse): the cost is per pair and the
 * memory per group cell, never nloc * nloc. */
void summary_matrix(Summary *S, int64_t a, int64_t b, uint32_t rg, uint32_t cg, double *bytes, double *count);

#endif
