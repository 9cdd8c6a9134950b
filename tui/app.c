/*
 * app.c — the interactive session's state and operations; see app.h.
 * Nothing here touches the terminal. A new filter runs on a thread of its
 * own (run_cancellable) while the screen's App.filter_wait hook shows its
 * time and reads Esc; the session's state is only changed on this thread,
 * after the run, and only when it succeeded. One summary exists at a time
 * (with the highlight's): a new filter's takes the memory of the one it
 * replaces through the big-block recycler. After each frame the
 * recycler keeps only the blocks the largest summary seen would take again
 * (app_idle).
 */
#include "app.h"

#include <inttypes.h>
#include <pthread.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include "analyses.h"
#include "cmd/emit.h"
#include "base/out.h"
#include "store/store.h"
#include "base/timeparse.h"
#include "base/util.h"

const char *const VIEW_TITLES[V__N] = {"gantt: locations", "gantt: activities", "density", "comm monitor",
                                       "comm matrix",      "statistics",        "events",  "split: density + gantt",
                                       "analyses", "imbalance: waits at syncs"};
const char *const SORT_NAMES[SORT__N] = {"natural", "name", "busy (whole trace)", "metric (window)"};

/* ---- the window ------------------------------------------------------------------- */

static int64_t trace_t0(const App *A) { return A->s->t_min; }
static int64_t trace_t1(const App *A) { return A->s->t_max + 1 > A->s->t_min ? A->s->t_max + 1 : A->s->t_min + 1; }

int app_ncells(const App *A)
{
    if (A->lay_ncell > 0) return A->lay_ncell;
    int n = A->w - 12;
    return n > 1 ? n : 1;
}

int64_t app_cell_start(const App *A, int col)
{
    int n = app_ncells(A);
    return A->t0 + (int64_t)((__int128)(A->t1 - A->t0) * col / n);
}

int64_t app_cursor_time(const App *A) { return app_cell_start(A, A->cur_col); }

/* keep the window inside the trace (as wide as it allows) */
static void clamp_window(App *A)
{
    int64_t lo = trace_t0(A), hi = trace_t1(A), span = A->t1 - A->t0;
    int n = app_ncells(A);
    if (span < n) span = n; /* at least 1 ns per cell */
    if (span > hi - lo) span = hi - lo;
    if (span < 1) span = 1;
    if (A->t0 < lo) A->t0 = lo;
    if (A->t0 > hi - span) A->t0 = hi - span;
    A->t1 = A->t0 + span;
    if (A->cur_col < 0) A->cur_col = 0;
    if (A->cur_col >= n) A->cur_col = n - 1;
}

/* the column of time t in the current window, or -1 */
static int col_of(const App *A, int64_t t)
{
    if (t < A->t0 || t >= A->t1) return -1;
    int n = app_ncells(A);
    int c = (int)((__int128)(t - A->t0) * n / (A->t1 - A->t0));
    /* the cell whose [start, next start) holds t */
    while (c > 0 && app_cell_start(A, c) > t) c--;
    while (c + 1 < n && app_cell_start(A, c + 1) <= t) c++;
    return c;
}

static bool anchor_valid(const App *A)
{
    const CursorAnchor *a = &A->anchor;
    return a->set && a->col == A->cur_col && a->t0 == A->t0 && a->t1 == A->t1;
}

void app_zoom(App *A, double factor)
{
    int n = app_ncells(A);
    /* around the time the cursor was put on (go to, a match, a message's
     * end), else the middle of its cell */
    bool anch = anchor_valid(A);
    int64_t tc = anch ? A->anchor.t : app_cursor_time(A) + (app_cell_start(A, A->cur_col + 1) - app_cursor_time(A)) / 2;
    double frac = anch ? (double)(tc - A->t0) / (double)(A->t1 - A->t0) : ((double)A->cur_col + 0.5) / n;
    int64_t span = (int64_t)llround((double)(A->t1 - A->t0) * factor);
    if (span < n) span = n;
    if (span > trace_t1(A) - trace_t0(A)) span = trace_t1(A) - trace_t0(A);
    A->t0 = tc - (int64_t)llround(frac * (double)span);
    A->t1 = A->t0 + span;
    clamp_window(A);
    int c = col_of(A, tc);
    if (c >= 0) A->cur_col = c;
    if (anch && c >= 0) A->anchor = (CursorAnchor){tc, c, A->t0, A->t1, true};
}

void app_pan_cells(App *A, int cells)
{
    if (!cells) {
        clamp_window(A);
        return;
    }
    int n = app_ncells(A);
    int64_t d = (int64_t)((__int128)(A->t1 - A->t0) * cells / n);
    if (d == 0) d = cells > 0 ? 1 : -1;
    A->t0 += d;
    A->t1 += d;
    clamp_window(A);
}

/* the cursor on the cell of t, remembering t: a zoom stays around it and
 * a new grid (another view's label width) puts the cursor on its cell */
static void cursor_at(App *A, int64_t t)
{
    int c = col_of(A, t);
    if (c < 0) return;
    A->cur_col = c;
    A->anchor = (CursorAnchor){t, c, A->t0, A->t1, true};
}

void app_pan_to(App *A, int64_t t)
{
    int64_t span = A->t1 - A->t0;
    A->t0 = t - span / 2;
    A->t1 = A->t0 + span;
    clamp_window(A);
    cursor_at(A, t);
}

void app_regrid(App *A, int old_ncells)
{
    if (old_ncells == app_ncells(A)) return;
    int64_t t;
    if (anchor_valid(A)) {
        t = A->anchor.t;
    } else {
        /* the middle of the cursor's cell in the old grid */
        int64_t span = A->t1 - A->t0;
        t = A->t0 + (int64_t)(((__int128)span * (2 * A->cur_col + 1)) / (2 * old_ncells));
    }
    int c = col_of(A, t);
    A->cur_col = c >= 0 ? c : A->cur_col < app_ncells(A) ? A->cur_col : app_ncells(A) - 1;
    A->anchor.col = A->cur_col;
}

void app_fit(App *A)
{
    A->t0 = trace_t0(A);
    A->t1 = trace_t1(A);
    clamp_window(A);
}

double app_zoom_factor(const App *A) { return (double)(trace_t1(A) - trace_t0(A)) / (double)(A->t1 - A->t0); }

bool app_goto(App *A, const char *text)
{
    int64_t t;
    if (parse_rfc3339(text, strlen(text), &t) != TP_OK) {
        if (parse_time_arg(text, 0, &t) != TP_OK) return false;
        t += trace_t0(A);
    }
    if (t < trace_t0(A) || t >= trace_t1(A)) return false;
    if (t < A->t0 || t >= A->t1) app_pan_to(A, t);
    cursor_at(A, t);
    return true;
}

/* ---- rows ------------------------------------------------------------------------------ */

static void rows_init(App *A, RowModel *M, RowKind kind)
{
    memset(M, 0, sizeof *M);
    M->kind = kind;
    M->n = kind == ROWS_LOC ? A->s->nloc : A->s->nact;
    M->hidden = xcalloc((size_t)M->n + 1, 1);
    M->expanded = xcalloc((size_t)M->n + 1, 1);
    M->dirty = true;
}

static void rows_free(RowModel *M)
{
    free(M->hidden);
    free(M->expanded);
    rowset_free(&M->rs);
}

typedef struct {
    const App *A;
    RowKind kind;
    double *key;
    char **name;
} SortCtx;

static SortCtx *g_sort; /* (qsort has no context argument) */

static int cmp_rows(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const SortCtx *c = g_sort;
    if (c->name) {
        int r = strcmp(c->name[x], c->name[y]);
        if (r) return r;
    } else if (c->key) {
        if (c->key[x] != c->key[y]) return c->key[x] > c->key[y] ? -1 : 1;
    }
    return x < y ? -1 : x > y;
}

/* the rows in the chosen order, hidden ones left out, grouped to fit the
 * lines except the groups the user expanded */
void app_rows_rebuild(App *A, RowModel *M)
{
    rowset_free(&M->rs);
    RowSet base;
    rowset_init(&base, A->S, M->kind, M->kind == ROWS_ACT);
    uint32_t n = base.n;
    uint32_t *ord = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
    uint16_t *dep = xmalloc(((size_t)n + 1) * sizeof(uint16_t));
    /* the natural order: locations as in the store, activities in spawn-tree order */
    uint16_t *depth_of = xcalloc((size_t)n + 1, sizeof(uint16_t));
    for (uint32_t i = 0; i < n; i++) depth_of[base.ids[i]] = base.depth[i];
    if (M->sort == SORT_NATURAL) {
        memcpy(ord, base.ids, (size_t)n * sizeof(uint32_t));
    } else {
        for (uint32_t i = 0; i < n; i++) ord[i] = i;
        SortCtx c = {A, M->kind, NULL, NULL};
        if (M->sort == SORT_NAME) {
            c.name = xmalloc(((size_t)n + 1) * sizeof(char *));
            for (uint32_t i = 0; i < n; i++) {
                char b[300];
                row_label(A->S, M->kind, i, b, sizeof b);
                c.name[i] = xstrdup(b);
            }
        } else {
            c.key = xmalloc(((size_t)n + 1) * sizeof(double));
            MetricSpec m = M->sort == SORT_BUSY ? (MetricSpec){M_BUSY, false, NULL} : A->metric;
            int64_t t[2] = {M->sort == SORT_BUSY ? trace_t0(A) : A->t0, M->sort == SORT_BUSY ? trace_t1(A) : A->t1};
            char err[200];
            summary_prepare(A->S, &m, M->kind, err, sizeof err);
            for (uint32_t i = 0; i < n; i++) {
                double cum[2], def[2];
                summary_cum(A->S, &m, M->kind, i, t, 2, cum, def);
                double v = metric_value(m.m, cum[0], cum[1], def[0], def[1], t[0], t[1]);
                c.key[i] = v == v ? v : -1;
            }
        }
        g_sort = &c;
        qsort(ord, n, sizeof(uint32_t), cmp_rows);
        g_sort = NULL;
        if (c.name)
            for (uint32_t i = 0; i < n; i++) free(c.name[i]);
        free(c.name);
        free(c.key);
    }
    /* drop the hidden rows */
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!M->hidden[ord[i]]) {
            dep[k] = M->sort == SORT_NATURAL ? depth_of[ord[i]] : 0;
            ord[k++] = ord[i];
        }
    /* groups of gsize, or single rows where expanded */
    int lines = A->h - 5 > 1 ? A->h - 5 : 1;
    uint32_t g = k > (uint32_t)lines ? (k + (uint32_t)lines - 1) / (uint32_t)lines : 1;
    M->gsize = g;
    uint32_t *gs = xmalloc(((size_t)k + 2) * sizeof(uint32_t));
    uint32_t ng = 0, maxg = 1;
    for (uint32_t i = 0; i < k;) {
        uint32_t end = i + g < k ? i + g : k;
        if (g > 1 && M->expanded[ord[i]]) {
            for (uint32_t j = i; j < end; j++) gs[ng++] = j;
        } else {
            gs[ng++] = i;
            if (end - i > maxg) maxg = end - i;
        }
        i = end;
    }
    gs[ng] = k;
    M->rs = (RowSet){M->kind, k, ord, dep, maxg, ng, gs, true};
    rowset_free(&base);
    free(depth_of);
    M->dirty = false;
}

RowModel *app_rows(App *A)
{
    switch (A->view) {
    case V_GANTT_LOC:
    case V_DENSITY:
    case V_IMBALANCE:
    case V_SPLIT: return &A->rows[ROWS_LOC];
    case V_GANTT_ACT: return &A->rows[ROWS_ACT];
    default: return NULL;
    }
}

/* ---- the session ------------------------------------------------------------------------- */

/* a filter run on a thread of its own, so that the screen answers Esc */
typedef struct {
    Filter *f;
    uint64_t *sel;
    int rc;
} FilterJob;

static void *filter_job(void *p)
{
    FilterJob *j = p;
    j->rc = filter_run(j->f, j->sel, NULL);
    return NULL;
}

static int run_cancellable(App *A, Filter *f, uint64_t *sel)
{
    if (!A->filter_wait) return filter_run(f, sel, NULL);
    atomic_bool cancel = false;
    filter_set_cancel(f, &cancel);
    FilterJob j = {f, sel, 0};
    pthread_t th;
    if (pthread_create(&th, NULL, filter_job, &j) != 0) {
        filter_set_cancel(f, NULL);
        return filter_run(f, sel, NULL);
    }
    /* a quick filter ends without a word; a slow one shows its time and
     * takes Esc */
    double t0 = now_sec();
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 150 * 1000000L;
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    if (pthread_timedjoin_np(th, NULL, &until) != 0) {
        while (pthread_tryjoin_np(th, NULL) != 0)
            if (A->filter_wait(A->filter_wait_ctx, now_sec() - t0)) atomic_store(&cancel, true);
    }
    filter_set_cancel(f, NULL);
    return j.rc;
}

uint64_t *app_run_filter(App *A, Filter *f, uint64_t *count)
{
    size_t nw = (A->s->n + 63) / 64;
    uint64_t *sel = xcalloc(nw + 1, 8);
    if (run_cancellable(A, f, sel) != FILTER_OK) {
        /* (the caller keeps what it had; the status line says why) */
        snprintf(A->msg, sizeof A->msg, "%s: previous selection kept", filter_run_error(f));
        free(sel);
        return NULL;
    }
    if (count) *count = bitmap_count(sel, nw);
    return sel;
}

static void hl_drop(App *A);

/* the highlight: what its filter selected (hl_sel) among what the filter
 * shows; rerun: run its filter again first (the selection changed) */
static void hl_rebuild(App *A, bool rerun)
{
    if (!A->hl_filter && !A->hl_sel) return;
    size_t nw = (A->s->n + 63) / 64 + 1;
    if (rerun && A->hl_filter) {
        free(A->hl_sel);
        A->hl_sel = app_run_filter(A, A->hl_filter, NULL);
        if (!A->hl_sel) {
            /* (its run failed: no highlight rather than a wrong one) */
            char m[sizeof A->msg];
            snprintf(m, sizeof m, "%s", A->msg);
            hl_drop(A);
            snprintf(A->msg, sizeof A->msg, "highlight dropped: %.200s", m);
            return;
        }
    }
    if (A->ss.sel)
        for (size_t w = 0; w < nw; w++) A->hl_sel[w] &= A->ss.sel[w];
    summary_free(A->Shl);
    A->Shl = summary_build(A->s, A->hl_sel, A->args ? A->args->load.threads : 0);
    summary_set_base(A->Shl, A->S_all);
    summary_set_budget(A->Shl, A->budget);
}

static void rebuild_summaries(App *A)
{
    /* one summary at a time: the old ones go first, so that the new one
     * takes their memory, already touched, from the big-block recycler
     * (two summaries of 10M events would be ~70 B/event on top of the
     * store); the one shown is freed by the new one's build, which keeps
     * its lanes when the new filter keeps the same intervals
     * (summary_build_from); clearing a filter builds the unfiltered one
     * again */
    summary_free(A->Shl);
    A->Shl = NULL;
    Summary *old = A->S;
    A->S = NULL;
    if (!A->ss.sel && A->S_all) {
        /* (the unfiltered one is still there: shown again) */
        if (old != A->S_all) summary_free(old);
        A->S = A->S_all;
    } else {
        if (old != A->S_all) summary_free(A->S_all);
        A->S_all = NULL;
        A->S = summary_build_from(A->s, A->ss.sel, A->args ? A->args->load.threads : 0, old);
        if (!A->ss.sel) A->S_all = A->S;
    }
    summary_set_budget(A->S, A->budget);
    for (int k = 0; k < 2; k++) A->rows[k].dirty = true;
    A->evlist_dirty = true;
    hl_rebuild(A, true);
}

void app_init(App *A, Session *ss, CliArgs *args, int w, int h, bool ascii, bool color)
{
    memset(A, 0, sizeof *A);
    A->ss = *ss;
    A->args = args;
    A->s = ss->s;
    A->an = analyses_new();
    A->w = w;
    A->h = h;
    A->ascii = ascii;
    A->color = color;
    A->view = V_GANTT_LOC;
    A->metric = (MetricSpec){M_BUSY, false, NULL};
    A->reducer = RED_SUM;
    A->participants_of = NONE32;
    A->ev_at = NONE32;
    A->focus_ev = NONE32;
    A->filter_text = args && args->filter ? xstrdup(args->filter) : NULL;
    double t0 = now_sec();
    A->S = summary_build(A->s, A->ss.sel, args ? args->load.threads : 0);
    if (!A->ss.sel) A->S_all = A->S;
    A->budget = agg_budget_new(SIZE_MAX);
    summary_set_budget(A->S, A->budget);
    app_budget_update(A);
    /* (bytes when messages have sizes, else their counts: a trace of
     * Chrome flows has none, and a frame of bytes would stay empty) */
    if (!A->s->tail_pending) A->comm_metric = summary_msgs_sized(A->S) ? M_BYTES : M_EVENTS;
    double t1 = now_sec();
    rows_init(A, &A->rows[ROWS_LOC], ROWS_LOC);
    rows_init(A, &A->rows[ROWS_ACT], ROWS_ACT);
    prompt_init(&A->prompt);
    A->hist_path = history_path();
    if (A->hist_path) prompt_history_load(&A->prompt, A->hist_path);
    prompt_init(&A->cmd);
    A->cmd_hist_path = state_path("commands");
    if (A->cmd_hist_path) prompt_history_load(&A->cmd, A->cmd_hist_path);
    A->help_focus = -1;
    A->evlist_dirty = true;
    app_fit(A);
    timing_note("app_init: summary %.3f s, rows + history %.3f s", t1 - t0, now_sec() - t1);
}

void app_finish_tail(App *A)
{
    if (!A->s->tail_pending) return;
    oom_phase("matching messages and building the sync groups");
    store_finish_tail(A->ss.s, A->args ? A->args->load.threads : 0);
    A->comm_metric = summary_msgs_sized(A->S) ? M_BYTES : M_EVENTS;
}

static size_t big_of(const Summary *S)
{
    if (!S) return 0;
    size_t v[8], b = 0;
    int n = summary_big_sizes(S, v, 8);
    for (int i = 0; i < n; i++) b += v[i];
    return b;
}

void app_budget_update(App *A)
{
    /* The whole process should stay under APP_PEAK_GOAL bytes an event of
     * the store. What the budget does not hold (the store, the summaries'
     * own arrays, the rows, the big-block recycler, the process) is what
     * is resident besides the parts; the parts get what is left of the
     * goal, less APP_BUDGET_HEADROOM bytes an event for the transients of
     * a frame and of the builds the estimates miss, and at least
     * APP_BUDGET_MIN (a small trace drops nothing). */
    size_t n = A->s->n, parts = agg_budget_bytes(A->budget), rss = 0, hwm = 0;
    proc_mem(&rss, &hwm);
    size_t rest = rss > parts ? rss - parts : 0;
    const char *env = getenv("TNAV_BUDGET_HEADROOM");
    double head = env && *env ? atof(env) : APP_BUDGET_HEADROOM;
    double room = (APP_PEAK_GOAL - head) * (double)n - (double)rest;
    size_t lim = room > (double)APP_BUDGET_MIN ? (size_t)room : APP_BUDGET_MIN;
    if (A->budget_cap && lim > A->budget_cap) lim = A->budget_cap;
    agg_budget_set_limit(A->budget, lim);
    agg_budget_frame(A->budget, (int)A->view);
    summary_hold_count_parts(A->S); /* (the status line's count, every frame) */
    if (getenv("TNAV_BUDGET_DEBUG"))
        fprintf(stderr, "budget: rss %zu MiB, parts %zu KiB, limit %zu MiB\n", rss >> 20, parts >> 10, lim >> 20);
}

void app_idle(App *A)
{
    if (A->S) summary_count_prepare(A->S); /* (once a summary's frame is up) */
    const Summary *live[3] = {A->S, A->Shl, A->S_all != A->S ? A->S_all : NULL};
    size_t cur = 0;
    for (int i = 0; i < 3; i++) {
        size_t b = big_of(live[i]);
        cur += b;
        if (b > A->big_one) {
            A->big_one = b;
            A->nbig = summary_big_sizes(live[i], A->big_sizes, 8);
        }
    }
    if (cur > A->big_most) A->big_most = cur;
    big_cache_keep_for(A->big_sizes, A->nbig, A->big_most - cur);
}

/* the highlight's filter, selection and summary, gone */
static void hl_drop(App *A)
{
    filter_free(A->hl_filter);
    free(A->hl_sel);
    free(A->hl_text);
    summary_free(A->Shl);
    A->hl_filter = NULL;
    A->hl_sel = NULL;
    A->hl_text = NULL;
    A->Shl = NULL;
}

void app_free(App *A)
{
    if (A->sctx) syncctx_free(A->sctx);
    free(A->sctx);
    analyses_free(A->an);
    if (A->S != A->S_all) summary_free(A->S);
    summary_free(A->S_all);
    hl_drop(A);
    agg_budget_free(A->budget);
    free(A->filter_text);
    for (int k = 0; k < 2; k++) rows_free(&A->rows[k]);
    for (int i = 0; i < A->ndlines; i++) free(A->dlines[i]);
    free(A->dlines);
    free(A->dattr);
    free(A->dev);
    free(A->evlist);
    canvas_free(A->vcache);
    prompt_free(&A->prompt);
    free(A->hist_path);
    prompt_free(&A->cmd);
    free(A->cmd_hist_path);
    free(A->sess_paths);
    free(A->sess_stamp);
    /* (the session's store and selection belong to the caller) */
}

void app_resize(App *A, int w, int h)
{
    /* keep the cursor's time where it was */
    int64_t tc = app_cursor_time(A);
    A->w = w;
    A->h = h;
    A->lay_ncell = 0;
    for (int k = 0; k < 2; k++) A->rows[k].dirty = true;
    clamp_window(A);
    int c = col_of(A, tc);
    if (c >= 0) A->cur_col = c;
}

/* ---- filters ---------------------------------------------------------------------------------- */

bool app_apply_filter(App *A, const char *text, bool highlight)
{
    FilterError fe;
    Filter *f = filter_compile(A->s, text, &fe);
    if (!f) {
        A->perr = fe;
        A->perr_set = true;
        return false;
    }
    double t0 = now_sec();
    uint64_t nsel;
    uint64_t *sel = app_run_filter(A, f, &nsel);
    double t1 = now_sec();
    if (!sel) {
        /* failed or out of time: the previous selection stays (A->msg says so) */
        filter_free(f);
        prompt_history_add(&A->prompt, text);
        return true;
    }
    if (highlight) {
        hl_drop(A);
        A->hl_filter = f;
        A->hl_sel = sel;
        A->hl_text = xstrdup(text);
        hl_rebuild(A, false);
    } else {
        filter_free(A->ss.f);
        free(A->ss.sel);
        A->ss.f = f;
        A->ss.sel = sel;
        A->ss.nsel = nsel;
        A->sel_gen++;
        free(A->filter_text);
        A->filter_text = xstrdup(text);
        rebuild_summaries(A);
    }
    if (getenv("TNAV_TIMING"))
        fprintf(stderr, "tnav: filter %.1f ms, summaries %.1f ms\n", (t1 - t0) * 1e3, (now_sec() - t1) * 1e3);
    prompt_history_add(&A->prompt, text);
    if (A->hist_path && !prompt_history_save(&A->prompt, A->hist_path, 500) && !A->hist_warned) {
        /* the filter is applied all the same; said once, not at every Enter */
        snprintf(A->msg, sizeof A->msg, "filter history not saved (%s): %.150s", strerror(errno), A->hist_path);
        A->hist_warned = true;
    }
    A->perr_set = false;
    return true;
}

void app_highlight_sel(App *A, uint64_t *sel, const char *text)
{
    hl_drop(A);
    A->hl_sel = sel;
    A->hl_text = xstrdup(text);
    hl_rebuild(A, false);
}

void app_show(App *A, int64_t a, int64_t b, int64_t t)
{
    if (b <= a) b = a + 1;
    A->t0 = a;
    A->t1 = b;
    clamp_window(A);
    cursor_at(A, t);
}

void app_clear_filter(App *A, bool highlight)
{
    if (highlight) {
        hl_drop(A);
        return;
    }
    if (!A->ss.f && !A->ss.sel) return;
    filter_free(A->ss.f);
    free(A->ss.sel);
    A->ss.f = NULL;
    A->ss.sel = NULL;
    A->ss.nsel = A->s->n;
    A->sel_gen++;
    free(A->filter_text);
    A->filter_text = NULL;
    rebuild_summaries(A);
}

/* the next event that matches (the highlight, else the filter) after the cursor */
bool app_next_match(App *A, int dir)
{
    Summary *S = A->Shl ? A->Shl : A->S;
    int64_t from = dir > 0 ? app_cell_start(A, A->cur_col + 1) - 1 : app_cursor_time(A);
    uint32_t e = summary_next_event(S, from, dir);
    if (e == NONE32) {
        snprintf(A->msg, sizeof A->msg, "no %s matching event", dir > 0 ? "later" : "earlier");
        return false;
    }
    int64_t t = A->s->ts[e];
    if (t < A->t0 || t >= A->t1) app_pan_to(A, t);
    cursor_at(A, t);
    app_cursor_row_to(A, e);
    snprintf(A->msg, sizeof A->msg, "%s at %s", event_name(A->s, e), loc_label(A->s, A->s->loc[e]));
    return true;
}

void app_cursor_row_to(App *A, uint32_t e)
{
    RowModel *M = app_rows(A);
    if (!M) return;
    if (M->dirty) app_rows_rebuild(A, M);
    uint32_t id = M->kind == ROWS_LOC ? A->s->loc[e] : A->s->act[e];
    A->focus_ev = e; /* (the details pane focuses it: app_details_refresh) */
    for (uint32_t g = 0; g < M->rs.ng; g++)
        for (uint32_t k = rowset_first(&M->rs, g); k < rowset_end(&M->rs, g); k++)
            if (M->rs.ids[k] == id) {
                A->cur_row = (int)g;
                return;
            }
}

void app_set_view(App *A, ViewId v)
{
    if (v == V_STATS) {
        /* the statistics per location are the analyses' time table: the
         * numbers of tnav stats, sortable, saved with w */
        v = V_ANALYSES;
        analyses_set_tab(A, AT_TIME);
    }
    if (v == V_EVENTS && A->view != V_EVENTS) A->ev_at = NONE32; /* (the list opens at the cursor's time) */
    /* (what the views built stays until the memory budget needs it for
     * another's: app_budget_update) */
    A->view = v;
    A->cur_row = 0;
    A->row_off = 0;
    /* (the grid stays until the new view is laid out: app_regrid maps
     * the cursor from it) */
}

/* ---- completion ---------------------------------------------------------------------------------- */

int app_complete(void *ctx, const char *prefix, const char **out, int max)
{
    /* the names come from the model and the language, so a new field or
     * function completes without touching this */
    App *A = ctx;
    static char fn_words[64][24];
    static int nfn = -1;
    if (nfn < 0) {
        const char *f;
        for (nfn = 0; nfn < 64 && (f = filter_function_name(nfn)); nfn++)
            snprintf(fn_words[nfn], sizeof fn_words[nfn], "%s(", f);
    }
    size_t pl = strlen(prefix);
    int n = 0;
    if (!pl) return 0;
    for (int i = 0; i < F__N && n < max; i++)
        if (!strncmp(FIELD_NAMES[i], prefix, pl)) out[n++] = FIELD_NAMES[i];
    for (int i = 0; i < nfn && n < max; i++)
        if (!strncmp(fn_words[i], prefix, pl)) out[n++] = fn_words[i];
    static const char *const LIT[] = {"true", "false", "in", NULL};
    for (int i = 0; LIT[i] && n < max; i++)
        if (!strncmp(LIT[i], prefix, pl)) out[n++] = LIT[i];
    for (uint32_t c = 0; c < A->s->ncols && n < max; c++)
        if (A->s->cols[c].field == F_EXTRA && !strncmp(A->s->cols[c].name, prefix, pl)) out[n++] = A->s->cols[c].name;
    return n;
}
