/*
 * analyses.c — the interface's analysis tables, critical-path overlay and
 * range efficiency; see analyses.h. Every number comes from the functions
 * of src/analysis/ that the commands call.
 */
#include "analyses.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critpath.h"
#include "analysis/report.h"
#include "analysis/stats.h"
#include "analysis/syncs.h"
#include "analysis/timecat.h"
#include "analysis/waits.h"
#include "app.h"
#include "base/out.h"
#include "base/timeparse.h"
#include "base/util.h"
#include "cmd/cli.h"
#include "view/table.h"

const char *const AN_TAB_NAMES[AT__N] = {"profile", "time", "waits", "syncs", "critical path"};
static const char *const SAVE_NAMES[AT__N] = {"profile", "time", "waits", "syncs", "critpath"};

typedef struct {
    uint8_t p;
    uint32_t loc;
} WaitRow;

struct Analyses {
    const Store *s;
    AnTab tab;
    /* the results, for [t0, t1) and selection generation gen */
    bool valid;
    int64_t t0, t1;
    uint64_t gen;
    TimeCatRules rules;
    bool have_rules;
    Stats st;
    Waits w;
    Syncs y;
    CritPath cp;
    WaitRow *wrows;
    size_t nwrows;
    Table t[AT__N];
    int sort_col[AT__N], ccol[AT__N];
    bool sort_desc[AT__N], sort_set[AT__N];
    /* the overlay: the path over the whole trace and the filter */
    bool path_on, path_valid;
    uint64_t path_gen;
    CritPath path;
    long path_seg;
    /* the marked range's efficiency */
    bool eff_valid;
    int64_t eff_a, eff_b;
    uint64_t eff_gen;
    Pop eff;
};

Analyses *analyses_new(void) { return xcalloc(1, sizeof(Analyses)); }

static void drop_results(Analyses *an)
{
    if (!an->valid) return;
    for (int k = 0; k < AT__N; k++) table_free(&an->t[k]);
    stats_free(&an->st);
    waits_free(&an->w);
    syncs_free(&an->y);
    critpath_free(&an->cp);
    free(an->wrows);
    an->wrows = NULL;
    an->nwrows = 0;
    an->valid = false;
}

void analyses_free(Analyses *an)
{
    if (!an) return;
    drop_results(an);
    if (an->have_rules) timecat_rules_free(&an->rules);
    if (an->path_valid) critpath_free(&an->path);
    free(an);
}

/* ---- the tables' cells ---------------------------------------------------------------------- */

static char *dur_cell(char *buf, size_t sz, int64_t ns) { return format_dur(buf, sz, ns); }
static void pct_cell(char *buf, size_t sz, double f) { snprintf(buf, sz, "%.1f%%", 100 * f); }

static const TableCol PROF_COLS[] = {{"name", false, 20}, {"calls", true, 9}, {"self", true, 11},
                                     {"share", true, 7},  {"total", true, 11}, {"mean", true, 10},
                                     {"min", true, 10},   {"max", true, 10},  {"stddev", true, 10}};

static double prof_num(void *ctx, size_t r, int c);

static void prof_cell(void *ctx, size_t r, int c, char *b, size_t sz)
{
    Analyses *an = ctx;
    const ProfRow *R = &an->st.prof.rows[r];
    switch (c) {
    case 0: {
        char nb[64];
        snprintf(b, sz, "%s", profile_row_name(an->s, R, nb, sizeof nb));
        break;
    }
    case 1: snprintf(b, sz, "%" PRIu64, R->calls); break;
    case 2: dur_cell(b, sz, R->self); break;
    case 3: pct_cell(b, sz, an->st.prof.total_self ? (double)R->self / (double)an->st.prof.total_self : 0); break;
    case 4: dur_cell(b, sz, R->incl); break;
    default: dur_cell(b, sz, (int64_t)prof_num(ctx, r, c)); break;
    }
}

static double prof_num(void *ctx, size_t r, int c)
{
    Analyses *an = ctx;
    const ProfRow *R = &an->st.prof.rows[r];
    switch (c) {
    case 1: return (double)R->calls;
    case 2: return (double)R->self;
    case 3: return an->st.prof.total_self ? (double)R->self / (double)an->st.prof.total_self : 0;
    case 4: return (double)R->incl;
    case 5: return R->calls ? (double)(R->incl / (int64_t)R->calls) : 0;
    case 6: return (double)R->min;
    case 7: return (double)R->max;
    default: return (double)profile_stddev(R);
    }
}

static const TableCol TIME_COLS[] = {{"location", false, 12}, {"events", true, 9},  {"useful", true, 10},
                                     {"util%", true, 8},    {"comm", true, 10},   {"sync", true, 10},
                                     {"wait", true, 10},      {"idle", true, 10},   {"sent", true, 10},
                                     {"received", true, 10}};

static double time_num(void *ctx, size_t r, int c)
{
    Analyses *an = ctx;
    const LocStats *L = &an->st.loc[r];
    switch (c) {
    case 1: return (double)L->events;
    case 2: return (double)L->busy_ns;
    case 3: return L->util; /* (useful / (window x its activities): stats.h) */
    case 4: return (double)L->comm_ns;
    case 5: return (double)L->sync_ns;
    case 6: return (double)L->wait_ns;
    case 7: return (double)L->idle_ns;
    case 8: return (double)L->sent_bytes;
    default: return (double)L->recv_bytes;
    }
}

static void time_cell(void *ctx, size_t r, int c, char *b, size_t sz)
{
    Analyses *an = ctx;
    double v = c ? time_num(ctx, r, c) : 0;
    if (c == 0) snprintf(b, sz, "%s", loc_label(an->s, (uint32_t)r));
    else if (c == 1) snprintf(b, sz, "%.0f", v);
    else if (c == 3) pct_cell(b, sz, v);
    else if (c >= 8) format_bytes(b, sz, dbl_to_i64(v));
    else dur_cell(b, sz, dbl_to_i64(v));
}

static const TableCol WAIT_COLS[] = {{"pattern", false, 18}, {"victim", false, 10}, {"wait", true, 10},
                                     {"share", true, 7},      {"worst", true, 10},   {"at", true, 12},
                                     {"culprit", false, 10}};

static double wait_num(void *ctx, size_t r, int c)
{
    Analyses *an = ctx;
    const WaitRow *R = &an->wrows[r];
    const WaitPat *P = &an->w.p[R->p];
    const WaitInst *I = &P->worst_by_loc[R->loc];
    switch (c) {
    case 2: return (double)P->by_loc[R->loc];
    case 3: return P->total ? (double)P->by_loc[R->loc] / (double)P->total : 0;
    case 4: return (double)I->ns;
    default: return (double)(I->ts - an->s->t_min);
    }
}

static void wait_cell(void *ctx, size_t r, int c, char *b, size_t sz)
{
    Analyses *an = ctx;
    const WaitRow *R = &an->wrows[r];
    const WaitInst *I = &an->w.p[R->p].worst_by_loc[R->loc];
    switch (c) {
    case 0: snprintf(b, sz, "%s", WAIT_PATTERN_NAMES[R->p]); break;
    case 1: snprintf(b, sz, "%s", loc_label(an->s, R->loc)); break;
    case 3: pct_cell(b, sz, wait_num(ctx, r, c)); break;
    case 6: snprintf(b, sz, "%s", I->culprit != NONE32 ? loc_label(an->s, I->culprit) : "-"); break;
    default: dur_cell(b, sz, dbl_to_i64(wait_num(ctx, r, c))); break;
    }
}

static const TableCol SYNC_COLS[] = {{"group", false, 16}, {"name", false, 14},   {"parts", true, 6},
                                     {"wait", true, 10},   {"last", false, 10},   {"arrived", true, 12},
                                     {"release", true, 12}};

static double sync_num(void *ctx, size_t r, int c)
{
    Analyses *an = ctx;
    const SyncInst *I = &an->y.inst[r];
    switch (c) {
    case 2: return I->n;
    case 3: return (double)I->total_wait;
    case 5: return (double)(an->s->ts[I->last_ev] - an->s->t_min);
    default: return (double)(I->release - an->s->t_min);
    }
}

static void sync_cell(void *ctx, size_t r, int c, char *b, size_t sz)
{
    Analyses *an = ctx;
    const Store *s = an->s;
    const SyncInst *I = &an->y.inst[r];
    switch (c) {
    case 0: {
        char gb[64];
        snprintf(b, sz, "%s", report_group_label(s, &s->groups[I->group], gb, sizeof gb));
        break;
    }
    case 1: {
        uint32_t ne = syncs_name_ev(s, &an->y, I); /* (the name tnav syncs gives it) */
        snprintf(b, sz, "%s", s->name[ne] != NONE32 ? store_str(s, s->name[ne]) : "-");
        break;
    }
    case 2: snprintf(b, sz, "%u", I->n); break;
    case 4: snprintf(b, sz, "%s", loc_label(s, s->loc[I->last_ev])); break;
    default: dur_cell(b, sz, dbl_to_i64(sync_num(ctx, r, c))); break;
    }
}

static const TableCol CRIT_COLS[] = {{"at", true, 12}, {"loc", false, 10}, {"activity", false, 14},
                                     {"name", false, 20}, {"time", true, 10}, {"share", true, 7}};

static double crit_num(void *ctx, size_t r, int c)
{
    Analyses *an = ctx;
    const CpSeg *g = &an->cp.seg[r];
    if (c == 0) return (double)(g->ts - an->s->t_min);
    if (c == 4) return (double)g->dur;
    return an->cp.length ? (double)g->dur / (double)an->cp.length : 0;
}

static void crit_cell(void *ctx, size_t r, int c, char *b, size_t sz)
{
    Analyses *an = ctx;
    const Store *s = an->s;
    const CpSeg *g = &an->cp.seg[r];
    char ab[160];
    switch (c) {
    case 1: snprintf(b, sz, "%s", loc_label(s, g->loc)); break;
    case 2: snprintf(b, sz, "%s", act_label(s, g->act, ab, sizeof ab)); break;
    case 3:
        snprintf(b, sz, "%s",
                 critpath_key_name(s, g->name != NONE32 || g->ev == NONE32 ? g->name : s->nnames + s->kind[g->ev], ab,
                                   sizeof ab));
        break;
    case 5: pct_cell(b, sz, crit_num(ctx, r, c)); break;
    default: dur_cell(b, sz, dbl_to_i64(crit_num(ctx, r, c))); break;
    }
}

#define NCOLS(a) ((int)(sizeof a / sizeof *a))

/* ---- computing --------------------------------------------------------------------------------- */

static void window_of(const App *A, int64_t *a, int64_t *b)
{
    if (A->have_a && A->have_b) {
        *a = A->mark_a < A->mark_b ? A->mark_a : A->mark_b;
        *b = A->mark_a < A->mark_b ? A->mark_b : A->mark_a;
        if (*b <= *a) *b = *a + 1;
    } else {
        *a = A->t0;
        *b = A->t1;
    }
}

/* the time categories' name patterns: --comm-names and --sync-names, as
 * tnav stats takes them (checked when the interface starts) */
static void ensure_rules(App *A, Analyses *an)
{
    if (an->have_rules) return;
    char err[400];
    const char *comm = A->args ? cli_extra(A->args, "--comm-names") : NULL;
    const char *sync = A->args ? cli_extra(A->args, "--sync-names") : NULL;
    an->have_rules = timecat_rules(A->s, comm, sync, filter_default_budget(), &an->rules, err, sizeof err) ==
                     TC_RULES_OK;
    if (!an->have_rules) snprintf(A->msg, sizeof A->msg, "%.200s", err);
}

static void compute(App *A)
{
    Analyses *an = A->an;
    int64_t a, b;
    window_of(A, &a, &b);
    if (an->valid && an->t0 == a && an->t1 == b && an->gen == A->sel_gen) return;
    drop_results(an);
    const Store *s = A->s;
    const uint64_t *sel = A->ss.sel;
    an->s = s;
    ensure_rules(A, an);
    double t = now_sec();
    stats_compute(s, sel, a, b, an->have_rules ? &an->rules : NULL, &an->st);
    waits_compute(s, sel, a, b, &an->w);
    syncs_compute(s, sel, a, b, &an->y);
    critpath_compute(s, sel, a, b, &an->cp);
    if (getenv("TNAV_TIMING")) fprintf(stderr, "tnav: analyses %.1f ms\n", (now_sec() - t) * 1e3);
    /* the waits' rows: (pattern, victim) */
    size_t n = 0;
    for (int p = 0; p < W__N; p++)
        for (uint32_t l = 0; l < s->nloc; l++) n += an->w.p[p].by_loc[l] > 0;
    an->wrows = xmalloc((n + 1) * sizeof *an->wrows);
    for (int p = 0; p < W__N; p++)
        for (uint32_t l = 0; l < s->nloc; l++)
            if (an->w.p[p].by_loc[l] > 0) an->wrows[an->nwrows++] = (WaitRow){(uint8_t)p, l};
    TableSrc src[AT__N] = {
        {NCOLS(PROF_COLS), PROF_COLS, an->st.prof.n, an, prof_cell, prof_num},
        {NCOLS(TIME_COLS), TIME_COLS, s->nloc, an, time_cell, time_num},
        {NCOLS(WAIT_COLS), WAIT_COLS, an->nwrows, an, wait_cell, wait_num},
        {NCOLS(SYNC_COLS), SYNC_COLS, an->y.ninst, an, sync_cell, sync_num},
        {NCOLS(CRIT_COLS), CRIT_COLS, an->cp.nseg, an, crit_cell, crit_num},
    };
    for (int k = 0; k < AT__N; k++) {
        table_init(&an->t[k], &src[k]);
        if (!an->sort_set[k] && k == AT_WAITS) table_sort(&an->t[k], 2, true); /* (the longest waits first) */
        else if (an->sort_set[k]) table_sort(&an->t[k], an->sort_col[k], an->sort_desc[k]);
        an->t[k].ccol = an->ccol[k] < an->t[k].src.ncol ? an->ccol[k] : 0;
        an->t[k].cur = an->t[k].off = 0; /* (new rows: from the top) */
    }
    an->t0 = a;
    an->t1 = b;
    an->gen = A->sel_gen;
    an->valid = true;
}

/* ---- drawing ------------------------------------------------------------------------------------- */

static void summary_line(App *A, char *b, size_t sz)
{
    Analyses *an = A->an;
    char x[48], y[48], z[48];
    int n = snprintf(b, sz, "%s %s .. %s: ", A->have_a && A->have_b ? "marked range" : "window",
                     format_dur(x, sizeof x, an->t0 - A->s->t_min), format_dur(y, sizeof y, an->t1 - A->s->t_min));
    if (n < 0 || (size_t)n >= sz) return;
    b += n;
    sz -= (size_t)n;
    const Pop *P = &an->st.tc.pop;
    switch (an->tab) {
    case AT_PROFILE:
        snprintf(b, sz, "%u names, %s of self time", an->st.prof.n, format_dur(x, sizeof x, an->st.prof.total_self));
        break;
    case AT_TIME:
        if (P->valid)
            snprintf(b, sz, "parallel efficiency %.1f%% = load balance %.1f%% x communication %.1f%% (serialisation %.1f%%, transfer %.1f%%)",
                     100 * P->par_eff, 100 * P->load_balance, 100 * P->comm_eff, 100 * P->ser_eff, 100 * P->transfer_eff);
        else
            snprintf(b, sz, "no useful time: no efficiency");
        break;
    case AT_WAITS: {
        int64_t tot = 0;
        for (int p = 0; p < W__N; p++) tot = sat_add64(tot, an->w.p[p].total);
        snprintf(b, sz, "%s waited in all; Enter: the worst instance of a row", format_dur(x, sizeof x, tot));
        break;
    }
    case AT_SYNCS: snprintf(b, sz, "%u sync instances; Enter: its participants and straggler", an->y.ninst); break;
    case AT_CRIT:
        if (an->cp.nseg)
            snprintf(b, sz, "path %s of %s (%.1f%%); most on %s (%s); c: overlay, { }: walk it",
                     format_dur(x, sizeof x, an->cp.length), format_dur(y, sizeof y, an->cp.makespan),
                     an->cp.makespan ? 100.0 * (double)an->cp.length / (double)an->cp.makespan : 0,
                     loc_label(A->s, an->cp.by_loc[0].key), format_dur(z, sizeof z, an->cp.by_loc[0].ns));
        else
            snprintf(b, sz, "no critical path in this window");
        break;
    default: break;
    }
}

void analyses_draw(App *A, Canvas *c, int w, int h)
{
    compute(A);
    Analyses *an = A->an;
    /* the tabs */
    int x = 0;
    for (int k = 0; k < AT__N; k++) {
        char t[48];
        snprintf(t, sizeof t, " %s ", AN_TAB_NAMES[k]);
        x += canvas_text(c, x, 0, t, w - x, k == (int)an->tab ? ROLE_TITLE : ROLE_DIM,
                         k == (int)an->tab ? ATTR_REVERSE | ATTR_BOLD : 0);
        if (x < w) x += canvas_text(c, x, 0, " ", 1, ROLE_DIM, 0);
    }
    canvas_text(c, x, 0, " Left/Right: tab  s/S: sort  w: save CSV", w - x, ROLE_DIM, 0);
    char line[400];
    summary_line(A, line, sizeof line);
    canvas_text(c, 0, 1, line, w, ROLE_DEFAULT, 0);
    Table *t = &an->t[an->tab];
    if (!t->src.nrow) {
        static const char *const EMPTY[AT__N] = {"no interval in this window", "no location",
                                                 "no wait states: nobody waited in this window",
                                                 "no sync instance in this window", "no critical path in this window"};
        canvas_text(c, 0, 3, EMPTY[an->tab], w, ROLE_DIM, 0);
        return;
    }
    table_draw(t, c, 0, 2, w, h - 2);
}

void analyses_tab(App *A, int dir) { analyses_set_tab(A, (AnTab)((A->an->tab + AT__N + dir) % AT__N)); }
void analyses_set_tab(App *A, AnTab t) { A->an->tab = t; }
AnTab analyses_tab_of(const App *A) { return A->an->tab; }

void analyses_move(App *A, long d)
{
    compute(A);
    table_move(&A->an->t[A->an->tab], d);
}

static void remember_sort(Analyses *an)
{
    const Table *t = &an->t[an->tab];
    an->sort_col[an->tab] = t->sort_col;
    an->sort_desc[an->tab] = t->desc;
    an->sort_set[an->tab] = true;
}

void analyses_col(App *A, int d)
{
    compute(A);
    Table *t = &A->an->t[A->an->tab];
    table_col_move(t, d);
    A->an->ccol[A->an->tab] = t->ccol;
    snprintf(A->msg, sizeof A->msg, "column %s: s sorts by it", t->src.cols[t->ccol].title);
}

void analyses_sort(App *A)
{
    compute(A);
    Table *t = &A->an->t[A->an->tab];
    table_sort_cursor(t);
    remember_sort(A->an);
    snprintf(A->msg, sizeof A->msg, "sorted by %s", t->sort_col >= 0 ? t->src.cols[t->sort_col].title : "(none)");
}

int analyses_columns(App *A, const char **out, int max)
{
    compute(A);
    const Table *t = &A->an->t[A->an->tab];
    int n = 0;
    for (int k = 0; k < t->src.ncol && n < max; k++) out[n++] = t->src.cols[k].title;
    return n;
}

bool analyses_sort_by(App *A, const char *col, bool reverse)
{
    compute(A);
    Table *t = &A->an->t[A->an->tab];
    for (int k = 0; k < t->src.ncol; k++)
        if (!strcmp(t->src.cols[k].title, col)) {
            /* (numbers largest first, text A..Z, as s sorts them) */
            table_sort(t, k, t->src.cols[k].num != reverse);
            remember_sort(A->an);
            snprintf(A->msg, sizeof A->msg, "sorted by %s", col);
            return true;
        }
    return false;
}

void analyses_reverse(App *A)
{
    compute(A);
    Table *t = &A->an->t[A->an->tab];
    table_sort(t, t->sort_col, !t->desc);
    remember_sort(A->an);
}

/* ---- going to a row ---------------------------------------------------------------------------- */

static uint64_t *bitmap_new(const Store *s) { return xcalloc((s->n + 63) / 64 + 1, sizeof(uint64_t)); }
static void bit_set(uint64_t *b, uint32_t e)
{
    if (e != NONE32) b[e >> 6] |= 1ULL << (e & 63);
}

/* the Gantt by location on [a, b) (widened by a margin), the cursor at t
 * on the row of event e */
static void show(App *A, int64_t a, int64_t b, int64_t t, uint32_t e)
{
    int64_t span = b - a > 0 ? b - a : 1, m = span / 4 + 1;
    app_set_view(A, V_GANTT_LOC);
    app_show(A, a - m, b + m, t);
    if (e != NONE32) app_cursor_row_to(A, e);
}

int analyses_enter(App *A)
{
    compute(A);
    Analyses *an = A->an;
    const Store *s = A->s;
    size_t r = table_current(&an->t[an->tab]);
    if (r == (size_t)-1) return 0;
    char msg[200], b1[48], b2[48];
    switch (an->tab) {
    case AT_PROFILE: {
        const ProfRow *R = &an->st.prof.rows[r];
        uint64_t *sel = bitmap_new(s);
        uint32_t first = NONE32;
        for (size_t e = 0; e < s->n; e++)
            if ((!A->ss.sel || ((A->ss.sel[e >> 6] >> (e & 63)) & 1)) && (s->flags[e] & EVF_DUR) &&
                (R->name != NONE32 ? s->name[e] == R->name : s->name[e] == NONE32 && s->kind[e] == R->kind)) {
                bit_set(sel, (uint32_t)e);
                if (first == NONE32 || s->ts[e] < s->ts[first]) first = (uint32_t)e;
            }
        char nb[64];
        snprintf(msg, sizeof msg, "the intervals %s", profile_row_name(s, R, nb, sizeof nb));
        app_highlight_sel(A, sel, msg);
        app_set_view(A, V_GANTT_LOC);
        if (first != NONE32) app_cursor_row_to(A, first);
        snprintf(A->msg, sizeof A->msg, "%s highlighted (n: the next one, T clears)", msg);
        return AF_REAGG;
    }
    case AT_TIME: {
        uint32_t l = (uint32_t)r;
        app_set_view(A, V_GANTT_LOC);
        if (s->locs[l].count) app_cursor_row_to(A, s->locs[l].first);
        return AF_REAGG;
    }
    case AT_WAITS: {
        const WaitRow *R = &an->wrows[r];
        const WaitInst *I = &an->w.p[R->p].worst_by_loc[R->loc];
        uint64_t *sel = bitmap_new(s);
        bit_set(sel, I->ev);
        bit_set(sel, I->cev);
        snprintf(msg, sizeof msg, "%s: %s waited %s%s%s", WAIT_PATTERN_NAMES[R->p], loc_label(s, I->loc),
                 format_dur(b1, sizeof b1, I->ns), I->culprit != NONE32 ? " for " : "",
                 I->culprit != NONE32 ? loc_label(s, I->culprit) : "");
        app_highlight_sel(A, sel, msg);
        int64_t a = I->ts, b = I->ts + I->ns;
        if (I->cev != NONE32) {
            if (s->ts[I->cev] < a) a = s->ts[I->cev];
            if (ev_end(s, I->cev) > b) b = ev_end(s, I->cev);
        }
        show(A, a, b, I->ts, I->ev);
        snprintf(A->msg, sizeof A->msg, "%s (victim and culprit highlighted)", msg);
        return AF_REAGG;
    }
    case AT_SYNCS: {
        const SyncInst *I = &an->y.inst[r];
        uint64_t *sel = bitmap_new(s);
        int64_t a = INT64_MAX;
        for (uint32_t k = 0; k < I->n; k++) {
            uint32_t e = an->y.parts[I->off + k].ev;
            bit_set(sel, e);
            if (s->ts[e] < a) a = s->ts[e];
        }
        snprintf(msg, sizeof msg, "sync %s: %u participants, last %s",
                 report_group_label(s, &s->groups[I->group], b1, sizeof b1), I->n, loc_label(s, s->loc[I->last_ev]));
        app_highlight_sel(A, sel, msg);
        show(A, a, I->release > a ? I->release : a + 1, s->ts[I->last_ev], I->last_ev);
        snprintf(A->msg, sizeof A->msg, "%s (the cursor is on the straggler)", msg);
        return AF_REAGG;
    }
    case AT_CRIT: {
        const CpSeg *g = &an->cp.seg[r];
        if (g->ev != NONE32) {
            uint64_t *sel = bitmap_new(s);
            bit_set(sel, g->ev);
            snprintf(msg, sizeof msg, "critical path at %s", format_dur(b2, sizeof b2, g->ts - s->t_min));
            app_highlight_sel(A, sel, msg);
        }
        an->path_on = true;
        show(A, g->ts, g->ts + g->dur, g->ts, g->ev != NONE32 ? g->ev : s->locs[g->loc].first);
        return AF_REAGG;
    }
    default: return 0;
    }
}

int analyses_save(App *A)
{
    const char *dir = getenv("TNAV_SAVE_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s%stnav-%s.csv", dir && *dir ? dir : "", dir && *dir ? "/" : "",
             SAVE_NAMES[A->an->tab]);
    return analyses_save_to(A, path);
}

int analyses_save_to(App *A, const char *path)
{
    compute(A);
    Analyses *an = A->an;
    const Table *t = &an->t[an->tab];
    if (table_write_csv(t, path)) snprintf(A->msg, sizeof A->msg, "wrote %zu rows to %.200s", t->src.nrow, path);
    else snprintf(A->msg, sizeof A->msg, "could not write %.200s: %s", path, strerror(errno));
    return AF_REDRAW;
}

/* ---- the critical-path overlay -------------------------------------------------------------- */

static void ensure_path(App *A)
{
    Analyses *an = A->an;
    if (an->path_valid && an->path_gen == A->sel_gen) return;
    if (an->path_valid) critpath_free(&an->path);
    const Store *s = A->s;
    critpath_compute(s, A->ss.sel, s->t_min, s->t_max < INT64_MAX ? s->t_max + 1 : INT64_MAX, &an->path);
    an->path_valid = true;
    an->path_gen = A->sel_gen;
    an->path_seg = -1;
}

int analyses_path_toggle(App *A)
{
    Analyses *an = A->an;
    an->path_on = !an->path_on;
    if (an->path_on) {
        ensure_path(A);
        char a[48], b[48];
        snprintf(A->msg, sizeof A->msg, "critical path %s of %s, %zu segments in red; } and { walk along it",
                 format_dur(a, sizeof a, an->path.length), format_dur(b, sizeof b, an->path.makespan), an->path.nseg);
    }
    return AF_REAGG;
}

int analyses_path_step(App *A, int dir)
{
    Analyses *an = A->an;
    ensure_path(A);
    an->path_on = true;
    if (!an->path.nseg) {
        snprintf(A->msg, sizeof A->msg, "no critical path (nothing selected)");
        return AF_REDRAW;
    }
    long k = an->path_seg;
    if (k < 0) {
        /* from the cursor's time */
        k = critpath_seg_at(&an->path, app_cursor_time(A));
        if (dir > 0 && k >= 0 && an->path.seg[k].ts < app_cursor_time(A)) k++;
        if (k < 0) k = 0;
    } else {
        k += dir;
    }
    if (k < 0) k = 0;
    if (k >= (long)an->path.nseg) k = (long)an->path.nseg - 1;
    an->path_seg = k;
    const CpSeg *g = &an->path.seg[k];
    if (A->view != V_GANTT_LOC && A->view != V_GANTT_ACT) app_set_view(A, V_GANTT_LOC);
    int64_t span = A->t1 - A->t0;
    if (g->dur * 2 > span) span = g->dur * 2;
    app_show(A, g->ts + g->dur / 2 - span / 2, g->ts + g->dur / 2 + span / 2, g->ts);
    RowModel *M = app_rows(A);
    if (M) {
        if (M->dirty) app_rows_rebuild(A, M);
        uint32_t id = M->kind == ROWS_LOC ? g->loc : g->act;
        for (uint32_t r = 0; r < M->rs.ng; r++)
            for (uint32_t q = rowset_first(&M->rs, r); q < rowset_end(&M->rs, r); q++)
                if (M->rs.ids[q] == id) A->cur_row = (int)r;
    }
    char a[48], b[48], nb[80], ab[160];
    snprintf(A->msg, sizeof A->msg, "path %ld/%zu: %s on %s (%s), %s", k + 1, an->path.nseg,
             critpath_key_name(A->s, g->name != NONE32 || g->ev == NONE32 ? g->name : A->s->nnames + A->s->kind[g->ev], nb,
                               sizeof nb),
             loc_label(A->s, g->loc), act_label(A->s, g->act, ab, sizeof ab), format_dur(a, sizeof a, g->dur));
    (void)b;
    return AF_REAGG;
}

void analyses_overlay(App *A, Canvas *c)
{
    Analyses *an = A->an;
    if (!an->path_on || (A->view != V_GANTT_LOC && A->view != V_GANTT_ACT)) return;
    ensure_path(A);
    RowModel *M = app_rows(A);
    if (!M || !A->lay_ncell || A->t1 <= A->t0) return;
    if (M->dirty) app_rows_rebuild(A, M);
    /* display line of each visible base row */
    uint32_t nbase = M->kind == ROWS_LOC ? A->s->nloc : A->s->nact;
    int32_t *line = xmalloc(((size_t)nbase + 1) * sizeof *line);
    for (uint32_t i = 0; i < nbase; i++) line[i] = -1;
    for (uint32_t r = A->row_off; r < M->rs.ng && r < A->row_off + (uint32_t)A->lay_nlines; r++)
        for (uint32_t q = rowset_first(&M->rs, r); q < rowset_end(&M->rs, r); q++)
            if (M->rs.ids[q] < nbase) line[M->rs.ids[q]] = A->lay_y0 + (int)(r - A->row_off);
    int n = A->lay_ncell;
    int64_t span = A->t1 - A->t0;
    long k = critpath_seg_at(&an->path, A->t0);
    if (k < 0) k = 0;
    for (; k < (long)an->path.nseg; k++) {
        const CpSeg *g = &an->path.seg[k];
        if (g->ts >= A->t1) break;
        if (g->ts + g->dur <= A->t0) continue;
        int32_t y = line[M->kind == ROWS_LOC ? g->loc : g->act];
        if (y < 0) continue;
        int64_t a = g->ts > A->t0 ? g->ts : A->t0, b = g->ts + g->dur < A->t1 ? g->ts + g->dur : A->t1;
        int x0 = (int)((__int128)(a - A->t0) * n / span), x1 = (int)((__int128)(b - A->t0 - 1) * n / span);
        for (int x = x0; x <= x1 && x < n; x++) {
            Cell *cl = canvas_at(c, A->lay_x0 + x, y);
            if (!cl) continue;
            /* (in the warning colour, bold; reversed without colours: the
             * highlight has the underline) */
            cl->fg = ROLE_WARN;
            cl->attr |= ATTR_BOLD | (c->color ? 0 : ATTR_REVERSE);
        }
    }
    free(line);
}

/* ---- the marked range's efficiency ------------------------------------------------------------ */

void analyses_prepare_status(App *A)
{
    Analyses *an = A->an;
    if (!(A->have_a && A->have_b)) return;
    int64_t a, b;
    window_of(A, &a, &b);
    if (an->eff_valid && an->eff_a == a && an->eff_b == b && an->eff_gen == A->sel_gen) return;
    ensure_rules(A, an);
    TimeCats tc;
    timecat_compute(A->s, A->ss.sel, a, b, an->have_rules ? &an->rules : NULL, NULL, &tc);
    an->eff = tc.pop;
    timecat_free(&tc);
    an->eff_a = a;
    an->eff_b = b;
    an->eff_gen = A->sel_gen;
    an->eff_valid = true;
}

void analyses_status(const App *A, char *buf, size_t sz)
{
    const Analyses *an = A->an;
    buf[0] = 0;
    if (!(A->have_a && A->have_b) || !an->eff_valid) return;
    if (!an->eff.valid) snprintf(buf, sz, "range: no useful time");
    else
        snprintf(buf, sz, "range: efficiency %.1f%% (LB %.1f%%, comm %.1f%%)", 100 * an->eff.par_eff,
                 100 * an->eff.load_balance, 100 * an->eff.comm_eff);
}
