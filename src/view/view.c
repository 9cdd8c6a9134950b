/*
 * view.c — the rows x time views (density, comm, imbalance), the table of
 * every view, and what the views share (layout, labels, time axis, the
 * ramp's shading and legend, numbers, status line); see view.h. The Gantt
 * is gantt.c's, the matrix and the profile charts charts.c's.
 *
 * Layout of the time-based views (h lines):
 *   0 .. h-5   rows: a label column, a rule, then one cell per time slice
 *   h-4        legend (value scale, or the names of a Gantt)
 *   h-3, h-2   time axis: a rule with ticks, then tick labels
 *   h-1        status line: view, metric, visible range, events, filter
 * Times on the axis and in the status line are relative to the start of
 * the trace.
 */
#include "view.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/out.h"
#include "base/timeparse.h"
#include "base/util.h"
#include "imbalance.h"
#include "view_int.h"

static const uint32_t RAMP_GLYPH[5] = {' ', 0x2591, 0x2592, 0x2593, 0x2588};

/* ---- numbers ---------------------------------------------------------------------- */

/* a short number: 3 significant digits, with k M G T P E above 10000, and
 * past 10^21 a power of ten (1.5e307); a sum that overflowed to infinity is
 * shown as the largest double, never "inf" */
static void fmt_num(char *buf, size_t sz, double v)
{
    static const char SI[] = "kMGTPE";
    if (v != v) {
        snprintf(buf, sz, "-");
        return;
    }
    if (v > DBL_MAX) v = DBL_MAX;
    if (v < -DBL_MAX) v = -DBL_MAX;
    double a = fabs(v);
    if (a >= 999.5e18) {
        char t[32];
        snprintf(t, sizeof t, "%.2g", v); /* 1.8e+308 -> 1.8e308 */
        char *e = strchr(t, 'e');
        if (e && e[1] == '+') memmove(e + 1, e + 2, strlen(e + 2) + 1);
        snprintf(buf, sz, "%s", t);
        return;
    }
    if (a < 1e4) {
        if (v == floor(v)) snprintf(buf, sz, "%.0f", v);
        else snprintf(buf, sz, "%.3g", v);
        return;
    }
    int k = -1;
    while (a >= 1000 && k < 5) {
        a /= 1000;
        v /= 1000;
        k++;
    }
    snprintf(buf, sz, "%.3g%c", v, SI[k]);
}

/* a value in the metric's unit, for legends and bars */
void view_fmt_value(char *buf, size_t sz, Metric m, double v)
{
    if (v != v) {
        snprintf(buf, sz, "-");
    } else if (m == M_BYTES) {
        /* (sums of cells are doubles: past int64, in EiB directly) */
        if (fabs(v) >= 9.2e18) {
            char n[40];
            fmt_num(n, sizeof n, v / 1152921504606846976.0);
            snprintf(buf, sz, "%s EiB", n);
        } else {
            format_bytes(buf, sz, (int64_t)llround(v));
        }
    } else {
        fmt_num(buf, sz, v);
    }
}

/* exact numbers for TSV: integers as integers, else 10 significant digits */
void view_tsv_num(FILE *f, double v)
{
    if (v != v) return;
    if (v > DBL_MAX) v = DBL_MAX; /* (a sum that overflowed: never "inf") */
    if (v < -DBL_MAX) v = -DBL_MAX;
    if (v == floor(v) && fabs(v) < 1e15) fprintf(f, "%.0f", v);
    else fprintf(f, "%.10g", v);
}

/* ---- time axis ------------------------------------------------------------------------- */

int64_t axis_step(int64_t span, int cells)
{
    /* at most one tick per 12 columns */
    int64_t want = span / (cells / 12 > 0 ? cells / 12 : 1);
    if (want < 1) want = 1;
    int64_t p = 1;
    while (p <= want / 10) p *= 10;
    for (;;) {
        if (p >= want) return p;
        if (2 * p >= want) return 2 * p;
        if (5 * p >= want) return 5 * p;
        if (p > INT64_MAX / 100) return p * 10;
        p *= 10;
    }
}

void axis_time_label(char *buf, size_t sz, int64_t t, int64_t step)
{
    /* the largest unit not above ten steps, with the decimals a step needs */
    static const struct {
        int64_t div;
        const char *u;
    } U[] = {{1000000000LL, "s"}, {1000000LL, "ms"}, {1000LL, "us"}, {1, "ns"}};
    int ui = 3;
    for (int i = 0; i < 3; i++)
        if (step >= U[i].div / 10) {
            ui = i;
            break;
        }
    int dec = 0;
    for (int64_t d = U[ui].div; d > step && dec < 9; d /= 10) dec++;
    snprintf(buf, sz, "%.*f %s", t == 0 ? 0 : dec, (double)t / (double)U[ui].div, U[ui].u);
}

/* the rule with ticks on line y, labels on line y + 1, for the grid drawn
 * from column x0 */
void draw_axis(Canvas *c, const TimeGrid *g, int x0, int y, int64_t origin)
{
    canvas_hline(c, x0, x0 + g->ncell, y, G_HLINE, ROLE_AXIS, 0, 0);
    int64_t span;
    if (g->t1 <= g->t0 || __builtin_sub_overflow(g->t1, g->t0, &span)) return;
    int64_t step = axis_step(span, g->ncell);
    if (step <= 0) return;
    /* the first tick at or after t0, on a multiple of step from the origin */
    int64_t rel;
    if (__builtin_sub_overflow(g->t0, origin, &rel)) return;
    int64_t k0 = rel >= 0 ? rel / step + (rel % step != 0) : -((-rel) / step);
    int next_free = x0;
    /* (never more ticks than cells: a bound if the step were off) */
    for (int64_t k = k0; k - k0 <= (int64_t)g->ncell + 1; k++) {
        __int128 tt = (__int128)origin + (__int128)k * step;
        if (tt >= g->t1 || tt > INT64_MAX) break;
        int col = grid_cell(g, (int64_t)tt);
        if (col < 0) continue;
        canvas_put(c, x0 + col, y, G_TICK, ROLE_AXIS, 0, 0);
        char lab[48];
        axis_time_label(lab, sizeof lab, (int64_t)tt - origin, step);
        int lw = text_width(lab);
        if (x0 + col >= next_free && x0 + col + lw <= c->w) {
            canvas_text(c, x0 + col, y + 1, lab, lw, ROLE_AXIS, 0);
            next_free = x0 + col + lw + 2;
        }
    }
}

void draw_status(Canvas *c, const ViewCtx *ctx, const char *view, const char *what, int64_t a, int64_t b)
{
    int y = c->h - 1;
    canvas_hline(c, 0, c->w, y, ' ', ROLE_STATUS, 0, 0);
    char ra[48], rb[48], buf[1024];
    int64_t org = ctx->s->t_min;
    format_dur(ra, sizeof ra, a - org);
    format_dur(rb, sizeof rb, b - org);
    uint64_t vis = summary_events_visible(ctx->S, a, b);
    const char *sep = c->ascii ? " | " : " \xe2\x94\x82 ";
    snprintf(buf, sizeof buf, " %s%s%s%s%s \xe2\x80\x93 %s%s%" PRIu64 " of %zu events", view, what[0] ? sep : "", what, sep, ra,
             rb, sep, vis, ctx->s->n);
    size_t n = strlen(buf);
    if (ctx->filter_text && n + 16 < sizeof buf) {
        snprintf(buf + n, sizeof buf - n, "%sfilter: ", sep);
        n = strlen(buf);
        for (const char *p = ctx->filter_text; *p && n + 1 < sizeof buf; p++) buf[n++] = *p == '\n' ? ' ' : *p;
        buf[n] = 0;
    }
    canvas_text(c, 0, y, buf, c->w, ROLE_STATUS, 0);
}

/* ---- the rows layout ---------------------------------------------------------------------- */

/* legend2: a second legend line when the frame has room for it (the rows
 * keep at least 4 lines) */
static void layout_lines(const ViewCtx *ctx, bool legend, bool legend2, Layout *L)
{
    memset(L, 0, sizeof *L);
    int h = ctx->h + (ctx->no_status ? 1 : 0); /* (as if the status line were there) */
    L->legend = legend && h >= 7;
    L->y_axis = h - 3;
    L->y_legend = L->legend ? h - 4 : -1;
    L->y_legend2 = L->legend && legend2 && h >= 12 ? h - 5 : -1;
    L->nlines = h - 3 - (L->legend ? 1 : 0) - (L->y_legend2 >= 0 ? 1 : 0);
    if (L->nlines < 1) L->nlines = 1;
}

int view_row_lines(const ViewCtx *ctx, const char *view)
{
    Layout L;
    layout_lines(ctx, true, !strcmp(view, "gantt"), &L);
    return L.nlines;
}

/* the label column from the rows' labels; the cells take the rest */
char **view_layout_labels(ViewCtx *ctx, const RowSet *rs, Layout *L)
{
    char **lab = xcalloc((size_t)rs->ng + 1, sizeof(char *));
    int maxw = 0;
    for (uint32_t g = 0; g < rs->ng; g++) {
        char b[300];
        rowset_label(rs, ctx->S, g, b, sizeof b);
        char ind[320];
        uint32_t m0 = rowset_first(rs, g);
        int d = rs->kind == ROWS_ACT && rowset_end(rs, g) - m0 == 1 ? rs->depth[m0] : 0;
        if (d > 8) d = 8;
        snprintf(ind, sizeof ind, "%*s%s", d, "", b);
        lab[g] = xstrdup(ind);
        int w = text_width(ind);
        if (w > maxw) maxw = w;
    }
    int cap = ctx->w / 4 > 6 ? ctx->w / 4 : 6;
    if (cap > 24) cap = 24;
    L->lw = maxw < 1 ? 1 : maxw > cap ? cap : maxw;
    if (ctx->label_w > 0) L->lw = ctx->label_w;
    L->x0 = L->lw + 1;
    L->ncell = ctx->w - L->x0;
    if (L->ncell < 1) L->ncell = 1;
    return lab;
}

void view_free_labels(char **lab, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) free(lab[i]);
    free(lab);
}

void rows_frame(ViewCtx *ctx, RowKind rk, bool all_rows, bool legend2, RowsFrame *f)
{
    layout_lines(ctx, true, legend2, &f->L);
    if (ctx->rowset && ctx->rowset->kind == rk) {
        f->all = *ctx->rowset;
        f->all.owned = false;
    } else {
        rowset_init(&f->all, ctx->S, rk, ctx->tree);
        if (rk == ROWS_PAIR && ctx->have_partner) {
            /* one location's traffic: the pairs it is part of */
            uint32_t n = 0;
            for (uint32_t k = 0; k < f->all.n; k++) {
                uint32_t src, dst;
                summary_pair(ctx->S, f->all.ids[k], &src, &dst);
                if (src == ctx->partner || dst == ctx->partner) f->all.ids[n++] = f->all.ids[k];
            }
            f->all.n = n;
            f->all.ng = n;
            f->all.gsize = 1;
        }
        rowset_fit(&f->all, f->L.nlines);
    }
    uint32_t off = all_rows ? 0 : ctx->row_off, cnt = all_rows ? f->all.ng : (uint32_t)f->L.nlines;
    rowset_window(&f->all, off, cnt, &f->rs);
    f->lab = view_layout_labels(ctx, &f->rs, &f->L);
    grid_init(&f->g, ctx->t0, ctx->t1, f->L.ncell);
    ctx->out_x0 = f->L.x0;
    ctx->out_ncell = f->L.ncell;
    ctx->out_nlines = f->L.nlines;
    ctx->out_ng = f->all.ng;
}

void rows_frame_free(RowsFrame *f)
{
    grid_free(&f->g);
    view_free_labels(f->lab, f->rs.ng);
    rowset_free(&f->all);
}

/* underline the cells of rows x grid that hold highlighted events */
void draw_highlight(ViewCtx *ctx, Canvas *c, const RowSet *rs, const TimeGrid *g, int x0, int nlines)
{
    if (!ctx->hl) return;
    for (uint32_t r = 0; r < rs->ng && (int)r < nlines; r++)
        for (int i = 0; i < g->ncell; i++) {
            bool on = false;
            for (uint32_t k = rowset_first(rs, r); k < rowset_end(rs, r) && !on; k++)
                on = summary_active_in(ctx->hl, rs->kind, rs->ids[k], g->b[i], g->b[i + 1]);
            Cell *cell = on ? canvas_at(c, x0 + i, (int)r) : NULL;
            if (cell) {
                cell->attr |= ATTR_UNDERLINE | ATTR_BOLD;
                if (cell->ch == ' ') cell->ch = c->ascii ? '_' : 0x2581; /* ▁: something is there */
            }
        }
}

void draw_labels(Canvas *c, char **lab, const RowSet *rs, const Layout *L)
{
    for (uint32_t g = 0; g < rs->ng && (int)g < L->nlines; g++) {
        /* a group of rows: its label dimmed, a dashed rule (':' in ASCII) */
        bool grp = rowset_end(rs, g) - rowset_first(rs, g) > 1;
        canvas_text(c, 0, (int)g, lab[g], L->lw, grp ? ROLE_DIM : ROLE_LABEL, 0);
        canvas_put(c, L->lw, (int)g, grp ? (c->ascii ? ':' : 0x2506) : G_VLINE, ROLE_AXIS, 0, 0);
    }
}

void tsv_header(FILE *f, const TimeGrid *g)
{
    fputs("row", f);
    for (int i = 0; i < g->ncell; i++) fprintf(f, "\t%" PRId64, g->b[i]);
    putc('\n', f);
}

/* the label of a TSV row: tabs and newlines replaced */
void tsv_label(FILE *f, const char *s)
{
    for (; *s; s++) putc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

/* ---- shading ------------------------------------------------------------------------------ */

void view_shade(double v, double scale, uint32_t *glyph, uint8_t *role)
{
    if (v != v || v <= 0 || scale <= 0) {
        *glyph = ' ';
        *role = ROLE_DEFAULT;
        return;
    }
    double f = v / scale; /* (can be +inf: a tiny --scale) */
    int k = dbl_to_int(ceil(f * 4 - 1e-9), 1, 4), q = dbl_to_int(ceil(f * ROLE_RAMP_N - 1e-9), 1, ROLE_RAMP_N);
    *glyph = RAMP_GLYPH[k];
    *role = (uint8_t)(ROLE_RAMP0 + q - 1);
}

double view_frame_scale(const ViewCtx *ctx, const double *v, size_t n)
{
    if (ctx->scale > 0) return ctx->scale;
    double m = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] == v[i] && v[i] > m) m = v[i];
    return m;
}

static const char *metric_unit(Metric m)
{
    switch (m) {
    case M_BUSY: return "busy activities";
    case M_SYNC: return "waiting activities";
    case M_BYTES: return "bytes per cell";
    case M_EVENTS: return "events per cell";
    case M_COUNTER: return "counter";
    default: return "per cell";
    }
}

/* "<glyph> <= value" for each view_shade, then what the values are */
void view_ramp_legend(Canvas *c, int y, Metric m, double scale, const char *what)
{
    int x = 0;
    for (int k = 1; k <= 4; k++) {
        char v[48], item[80];
        view_fmt_value(v, sizeof v, m, scale / 4 * k /* (exact; scale * k would overflow near DBL_MAX) */);
        uint8_t role = (uint8_t)(ROLE_RAMP0 + (k * ROLE_RAMP_N) / 4 - 1);
        canvas_put(c, x, y, RAMP_GLYPH[k], role, 0, 0);
        snprintf(item, sizeof item, " \xe2\x89\xa4%s  ", v);
        if (c->ascii) snprintf(item, sizeof item, " <=%s  ", v);
        x += 1 + canvas_text(c, x + 1, y, item, c->w - x - 1, ROLE_DIM, 0);
    }
    canvas_text(c, x, y, what, c->w - x, ROLE_DIM, 0);
}

/* ---- density and the communication monitor -------------------------------------------------- */

MetricSpec view_metric_spec(const ViewCtx *ctx, Metric dflt)
{
    if (ctx->metric_set) return ctx->metric;
    MetricSpec m = {dflt, false, NULL};
    return m;
}

static bool density_like(ViewCtx *ctx, Canvas *c, FILE *tsv, RowKind rk, Metric dflt, const char *vname, char *err,
                         size_t errsz)
{
    MetricSpec m = view_metric_spec(ctx, dflt);
    if (rk == ROWS_PAIR && (m.m != M_BYTES && m.m != M_EVENTS)) {
        snprintf(err, errsz, "the comm view shows bytes or events (messages), not %s", METRIC_NAMES[m.m]);
        return false;
    }
    if (!summary_prepare(ctx->S, &m, rk, err, errsz)) return false;
    RowsFrame F;
    rows_frame(ctx, rk, tsv != NULL, false, &F);
    const Layout L = F.L;
    const RowSet rs = F.rs;
    char **lab = F.lab;
    const TimeGrid g = F.g;
    size_t nv = (size_t)rs.ng * (size_t)g.ncell;
    double *v = xmalloc((nv + 1) * sizeof(double));
    agg_frame(ctx->S, &m, ctx->reducer, &rs, &g, ctx->subbins, v);
    if (tsv) {
        tsv_header(tsv, &g);
        for (uint32_t r = 0; r < rs.ng; r++) {
            tsv_label(tsv, lab[r]);
            for (int i = 0; i < g.ncell; i++) {
                putc('\t', tsv);
                view_tsv_num(tsv, v[(size_t)r * (size_t)g.ncell + (size_t)i]);
            }
            putc('\n', tsv);
        }
    }
    if (c) {
        double scale = view_frame_scale(ctx, v, nv);
        draw_labels(c, lab, &rs, &L);
        for (uint32_t r = 0; r < rs.ng && (int)r < L.nlines; r++)
            for (int i = 0; i < g.ncell; i++) {
                uint32_t gl;
                uint8_t role;
                view_shade(v[(size_t)r * (size_t)g.ncell + (size_t)i], scale, &gl, &role);
                canvas_put(c, L.x0 + i, (int)r, gl, role, 0, 0);
            }
        draw_highlight(ctx, c, &rs, &g, L.x0, L.nlines);
        /* a frame with nothing to draw says why, rather than stay blank */
        bool none = true;
        for (size_t k = 0; k < nv && none; k++) none = !(v[k] > 0);
        if (rs.ng == 0 || (rk == ROWS_PAIR && none)) {
            char note[300], who[200] = "";
            if (ctx->have_partner) snprintf(who, sizeof who, " to or from %s", loc_label(ctx->s, ctx->partner));
            if (rk != ROWS_PAIR)
                snprintf(note, sizeof note, "no rows to show");
            else if (!rs.ng)
                snprintf(note, sizeof note, "no messages%s in the selection", who);
            else if (m.m == M_BYTES)
                /* (messages without a size, as Chrome's flows, weigh 0 bytes) */
                snprintf(note, sizeof note, "no bytes sent%s in this window (messages without a size: metric events)", who);
            else
                snprintf(note, sizeof note, "no messages%s in this window", who);
            int nw = text_width(note), y = L.nlines / 2, x = L.x0 + (L.ncell - nw) / 2;
            if (x < L.x0) x = L.x0;
            canvas_text(c, x, y, note, L.ncell, ROLE_DIM, 0);
        }
        if (L.legend) {
            char what[160];
            const char *unit = m.m == M_EXPR && m.expr ? m.expr : metric_unit(m.m);
            if (F.all.gsize > 1)
                snprintf(what, sizeof what, "%s, %s of up to %u rows per line", unit, REDUCER_NAMES[ctx->reducer], F.all.gsize);
            else
                snprintf(what, sizeof what, "%s%s%s", unit, ctx->reducer == RED_SUM ? "" : ", ",
                         ctx->reducer == RED_SUM ? "" : REDUCER_NAMES[ctx->reducer]);
            view_ramp_legend(c, L.y_legend, m.m, scale, what);
        }
        draw_axis(c, &g, L.x0, L.y_axis, ctx->s->t_min);
        char what[200];
        snprintf(what, sizeof what, "%s%s%s (%s)", m.m == M_EXPR ? "expr:" : METRIC_NAMES[m.m],
                 m.m == M_EXPR && m.expr ? m.expr : "", (m.m == M_BYTES || (rk == ROWS_PAIR && m.m == M_EVENTS)) && m.recv ? " recv" : "",
                 REDUCER_NAMES[ctx->reducer]);
        if (!ctx->no_status) draw_status(c, ctx, vname, what, g.t0, g.t1);
    }
    free(v);
    rows_frame_free(&F);
    return true;
}

static bool run_density(ViewCtx *ctx, Canvas *c, FILE *tsv, char *err, size_t errsz)
{
    return density_like(ctx, c, tsv, ctx->rows, M_BUSY, "density", err, errsz);
}

static bool run_comm(ViewCtx *ctx, Canvas *c, FILE *tsv, char *err, size_t errsz)
{
    return density_like(ctx, c, tsv, ROWS_PAIR, summary_msgs_sized(ctx->S) ? M_BYTES : M_EVENTS, "comm", err, errsz);
}

/* ---- imbalance: locations x time shaded by their waits at syncs ------------------------------ */

static bool run_imbalance(ViewCtx *ctx, Canvas *c, FILE *tsv, char *err, size_t errsz)
{
    (void)err;
    (void)errsz;
    RowsFrame F;
    rows_frame(ctx, ROWS_LOC, tsv != NULL, false, &F);
    const Layout L = F.L;
    const RowSet rs = F.rs;
    const TimeGrid g = F.g;
    size_t nv = (size_t)rs.ng * (size_t)g.ncell;
    double *v = xcalloc(nv + 1, sizeof(double));
    uint8_t *last = xcalloc(nv + 1, 1);
    imbalance_values(ctx->s, summary_selection(ctx->S), &rs, &g, v, last);
    if (tsv) {
        tsv_header(tsv, &g);
        for (uint32_t r = 0; r < rs.ng; r++) {
            tsv_label(tsv, F.lab[r]);
            for (int i = 0; i < g.ncell; i++) {
                putc('\t', tsv);
                view_tsv_num(tsv, v[(size_t)r * (size_t)g.ncell + (size_t)i]);
            }
            putc('\n', tsv);
        }
    }
    if (c) {
        double scale = view_frame_scale(ctx, v, nv);
        draw_labels(c, F.lab, &rs, &L);
        for (uint32_t r = 0; r < rs.ng && (int)r < L.nlines; r++)
            for (int i = 0; i < g.ncell; i++) {
                size_t k = (size_t)r * (size_t)g.ncell + (size_t)i;
                uint32_t gl;
                uint8_t role;
                view_shade(v[k], scale, &gl, &role);
                if (last[k]) canvas_put(c, L.x0 + i, (int)r, '!', ROLE_WARN, 0, ATTR_BOLD);
                else canvas_put(c, L.x0 + i, (int)r, gl, role, 0, 0);
            }
        draw_highlight(ctx, c, &rs, &g, L.x0, L.nlines);
        if (L.legend) view_ramp_legend(c, L.y_legend, M_SYNC, scale, "waiting at syncs (! the last to arrive)");
        draw_axis(c, &g, L.x0, L.y_axis, ctx->s->t_min);
        if (!ctx->no_status) draw_status(c, ctx, "imbalance", "waits at syncs", g.t0, g.t1);
    }
    free(v);
    free(last);
    rows_frame_free(&F);
    return true;
}

/* ---- the table of views ------------------------------------------------------------------------------ */

static const ViewOps V_DENSITY = {"density", "rows x time, shaded by a metric (the KL1 process monitor)", run_density};
static const ViewOps V_COMM = {"comm", "location pairs x time, shaded by bytes (or messages) sent", run_comm};
static const ViewOps V_IMBALANCE = {"imbalance", "locations x time shaded by their waits at syncs; ! the last to arrive",
                                    run_imbalance};

const ViewOps *const VIEWS[] = {&V_DENSITY, &VIEW_GANTT, &V_COMM, &VIEW_MATRIX, &VIEW_LINE, &VIEW_BARS, &V_IMBALANCE, NULL};

const ViewOps *view_by_name(const char *name)
{
    for (int i = 0; VIEWS[i]; i++)
        if (!strcmp(VIEWS[i]->name, name)) return VIEWS[i];
    return NULL;
}
