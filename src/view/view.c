/*
 * view.c — the views (density, gantt, comm, matrix, line, bars) and what
 * they share (layout, time axis, legend, status line); see view.h.
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
static void fmt_value(char *buf, size_t sz, Metric m, double v)
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
static void tsv_num(FILE *f, double v)
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
static char **layout_labels(ViewCtx *ctx, const RowSet *rs, Layout *L)
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

static void free_labels(char **lab, uint32_t n)
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
    f->lab = layout_labels(ctx, &f->rs, &f->L);
    grid_init(&f->g, ctx->t0, ctx->t1, f->L.ncell);
    ctx->out_x0 = f->L.x0;
    ctx->out_ncell = f->L.ncell;
    ctx->out_nlines = f->L.nlines;
    ctx->out_ng = f->all.ng;
}

void rows_frame_free(RowsFrame *f)
{
    grid_free(&f->g);
    free_labels(f->lab, f->rs.ng);
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

static void shade(double v, double scale, uint32_t *glyph, uint8_t *role)
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

static double frame_scale(const ViewCtx *ctx, const double *v, size_t n)
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

/* "<glyph> <= value" for each shade, then what the values are */
static void draw_ramp_legend(Canvas *c, int y, Metric m, double scale, const char *what)
{
    int x = 0;
    for (int k = 1; k <= 4; k++) {
        char v[48], item[80];
        fmt_value(v, sizeof v, m, scale / 4 * k /* (exact; scale * k would overflow near DBL_MAX) */);
        uint8_t role = (uint8_t)(ROLE_RAMP0 + (k * ROLE_RAMP_N) / 4 - 1);
        canvas_put(c, x, y, RAMP_GLYPH[k], role, 0, 0);
        snprintf(item, sizeof item, " \xe2\x89\xa4%s  ", v);
        if (c->ascii) snprintf(item, sizeof item, " <=%s  ", v);
        x += 1 + canvas_text(c, x + 1, y, item, c->w - x - 1, ROLE_DIM, 0);
    }
    canvas_text(c, x, y, what, c->w - x, ROLE_DIM, 0);
}

/* ---- density and the communication monitor -------------------------------------------------- */

static MetricSpec view_metric(const ViewCtx *ctx, Metric dflt)
{
    if (ctx->metric_set) return ctx->metric;
    MetricSpec m = {dflt, false, NULL};
    return m;
}

static bool density_like(ViewCtx *ctx, Canvas *c, FILE *tsv, RowKind rk, Metric dflt, const char *vname, char *err,
                         size_t errsz)
{
    MetricSpec m = view_metric(ctx, dflt);
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
                tsv_num(tsv, v[(size_t)r * (size_t)g.ncell + (size_t)i]);
            }
            putc('\n', tsv);
        }
    }
    if (c) {
        double scale = frame_scale(ctx, v, nv);
        draw_labels(c, lab, &rs, &L);
        for (uint32_t r = 0; r < rs.ng && (int)r < L.nlines; r++)
            for (int i = 0; i < g.ncell; i++) {
                uint32_t gl;
                uint8_t role;
                shade(v[(size_t)r * (size_t)g.ncell + (size_t)i], scale, &gl, &role);
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
            draw_ramp_legend(c, L.y_legend, m.m, scale, what);
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

/* ---- the communication matrix ------------------------------------------------------------------- */

static bool run_matrix(ViewCtx *ctx, Canvas *c, FILE *tsv, char *err, size_t errsz)
{
    Summary *S = ctx->S;
    const Store *s = ctx->s;
    uint32_t n = s->nloc;
    /* fit: rows into the lines, columns into the width (3 columns at least) */
    int nlines = ctx->h - 5 > 1 ? ctx->h - 5 : 1;
    uint32_t rg = n > (uint32_t)nlines ? (n + (uint32_t)nlines - 1) / (uint32_t)nlines : 1;
    int lw = 1;
    for (uint32_t l = 0; l < n; l++) {
        int w = text_width(loc_label(s, l));
        if (w > lw) lw = w;
    }
    if (rg > 1) lw = lw * 2 + 2;
    if (lw < 5) lw = 5; /* "total" */
    if (lw > 16) lw = 16;
    const int totw = 10;
    int avail = ctx->w - lw - 1 - totw - 1;
    if (avail < 3) avail = 3;
    uint32_t cg = n > (uint32_t)avail / 3 ? (n + (uint32_t)avail / 3 - 1) / ((uint32_t)avail / 3 > 0 ? (uint32_t)avail / 3 : 1) : 1;
    if (cg < rg) cg = rg; /* the same grouping both ways keeps the diagonal */
    if (rg < cg) rg = cg;
    uint32_t nr = (n + rg - 1) / rg, ncg = (n + cg - 1) / cg;
    int cw = ncg ? avail / (int)ncg : 1;
    if (cw > 10) cw = 10;
    if (cw < 1) cw = 1;
    /* values per group cell, from the location pairs that have messages
     * (never n * n: 20,000 locations would be 3.2 GB) */
    size_t nv = (size_t)nr * ncg;
    double *vb = xcalloc(nv + 1, sizeof(double)), *vc = xcalloc(nv + 1, sizeof(double));
    summary_matrix(S, ctx->t0, ctx->t1, rg, cg, vb, vc);
    double *val = xmalloc((nv + 1) * sizeof(double));
    for (size_t i = 0; i < nv; i++)
        val[i] = ctx->mx == MX_BYTES ? vb[i] : ctx->mx == MX_COUNT ? vc[i] : (vc[i] > 0 ? vb[i] / vc[i] : NAN);
    /* totals */
    double *rt = xcalloc((size_t)nr + 1, sizeof(double)), *ct = xcalloc((size_t)ncg + 1, sizeof(double));
    double *rtc = xcalloc((size_t)nr + 1, sizeof(double)), *ctc = xcalloc((size_t)ncg + 1, sizeof(double));
    double all = 0, allc = 0;
    for (uint32_t r = 0; r < nr; r++)
        for (uint32_t q = 0; q < ncg; q++) {
            rt[r] += vb[(size_t)r * ncg + q];
            rtc[r] += vc[(size_t)r * ncg + q];
            ct[q] += vb[(size_t)r * ncg + q];
            ctc[q] += vc[(size_t)r * ncg + q];
        }
    for (uint32_t r = 0; r < nr; r++) all += rt[r], allc += rtc[r];
#define MXV(b, k) (ctx->mx == MX_BYTES ? (b) : ctx->mx == MX_COUNT ? (k) : ((k) > 0 ? (b) / (k) : NAN))
    char la[128], lb[128], lab[300];
#define GROUP_LABEL(buf, sz, g, gs)                                                                   \
    do {                                                                                              \
        uint32_t f_ = (g) * (gs), l_ = f_ + (gs) - 1 < n ? f_ + (gs) - 1 : n - 1;                     \
        snprintf(la, sizeof la, "%s", loc_label(s, f_));                                              \
        snprintf(lb, sizeof lb, "%s", loc_label(s, l_));                                              \
        if (f_ == l_) snprintf(buf, sz, "%s", la);                                                    \
        else snprintf(buf, sz, "%s..%s", la, lb);                                                     \
    } while (0)
    if (tsv) {
        fputs("row", tsv);
        for (uint32_t q = 0; q < ncg; q++) {
            GROUP_LABEL(lab, sizeof lab, q, cg);
            putc('\t', tsv);
            tsv_label(tsv, lab);
        }
        fputs("\ttotal\n", tsv);
        for (uint32_t r = 0; r < nr; r++) {
            GROUP_LABEL(lab, sizeof lab, r, rg);
            tsv_label(tsv, lab);
            for (uint32_t q = 0; q < ncg; q++) {
                putc('\t', tsv);
                tsv_num(tsv, val[(size_t)r * ncg + q]);
            }
            putc('\t', tsv);
            tsv_num(tsv, MXV(rt[r], rtc[r]));
            putc('\n', tsv);
        }
        fputs("total", tsv);
        for (uint32_t q = 0; q < ncg; q++) {
            putc('\t', tsv);
            tsv_num(tsv, MXV(ct[q], ctc[q]));
        }
        putc('\t', tsv);
        tsv_num(tsv, MXV(all, allc));
        putc('\n', tsv);
    }
    if (c) {
        double scale = frame_scale(ctx, val, nv);
        int x0 = lw + 1;
        /* header: destination labels */
        const char *corner = c->ascii ? "src\\dst" : "src\xe2\x86\x93" "dst\xe2\x86\x92";
        if (text_width(corner) <= lw) canvas_text(c, 0, 0, corner, lw, ROLE_DIM, 0);
        for (uint32_t q = 0; q < ncg; q++) {
            GROUP_LABEL(lab, sizeof lab, q, cg);
            canvas_text(c, x0 + (int)q * cw, 0, lab, cw > 1 ? cw - 1 : 1, ROLE_LABEL, 0);
        }
        int xt = x0 + (int)ncg * cw + 1;
        canvas_text_right(c, xt + totw, 0, "total", totw, ROLE_LABEL, ATTR_BOLD);
        Metric fm = ctx->mx == MX_COUNT ? M_EVENTS : M_BYTES;
        uint32_t shown = nr < (uint32_t)(ctx->h - 4) ? nr : (uint32_t)(ctx->h - 4 > 0 ? ctx->h - 4 : 0);
        for (uint32_t r = 0; r < shown; r++) {
            int y = 1 + (int)r;
            GROUP_LABEL(lab, sizeof lab, r, rg);
            canvas_text(c, 0, y, lab, lw, ROLE_LABEL, 0);
            canvas_put(c, lw, y, G_VLINE, ROLE_AXIS, 0, 0);
            for (uint32_t q = 0; q < ncg; q++) {
                uint32_t gl;
                uint8_t role;
                shade(val[(size_t)r * ncg + q], scale, &gl, &role);
                for (int k = 0; k < (cw > 1 ? cw - 1 : 1); k++) canvas_put(c, x0 + (int)q * cw + k, y, gl, role, 0, 0);
            }
            char num[48];
            fmt_value(num, sizeof num, fm, MXV(rt[r], rtc[r]));
            canvas_put(c, xt - 1, y, G_VLINE, ROLE_AXIS, 0, 0);
            canvas_text_right(c, xt + totw, y, num, totw, ROLE_DEFAULT, 0);
        }
        int yt = 1 + (int)shown;
        if (yt < ctx->h - 2) {
            canvas_text(c, 0, yt, "total", lw, ROLE_LABEL, ATTR_BOLD);
            canvas_put(c, lw, yt, G_VLINE, ROLE_AXIS, 0, 0);
            for (uint32_t q = 0; q < ncg; q++) {
                uint32_t gl;
                uint8_t role;
                double tv = MXV(ct[q], ctc[q]);
                shade(tv, frame_scale(ctx, &tv, 1) > 0 ? (ctx->scale > 0 ? ctx->scale : tv) : 0, &gl, &role);
                char num[48];
                fmt_value(num, sizeof num, fm, tv);
                if (text_width(num) <= cw - 1) canvas_text(c, x0 + (int)q * cw, yt, num, cw - 1, ROLE_DEFAULT, 0);
                else canvas_put(c, x0 + (int)q * cw, yt, tv > 0 ? 0x2022 : ' ', ROLE_DIM, 0, 0);
            }
            char num[48];
            fmt_value(num, sizeof num, fm, MXV(all, allc));
            canvas_put(c, xt - 1, yt, G_VLINE, ROLE_AXIS, 0, 0);
            canvas_text_right(c, xt + totw, yt, num, totw, ROLE_DEFAULT, ATTR_BOLD);
        }
        const char *what = ctx->mx == MX_BYTES ? "bytes sent" : ctx->mx == MX_COUNT ? "messages" : "mean message size";
        char w2[200];
        if (rg > 1) snprintf(w2, sizeof w2, "%s, %u locations per row and column", what, rg);
        else snprintf(w2, sizeof w2, "%s", what);
        draw_ramp_legend(c, ctx->h - 2, ctx->mx == MX_COUNT ? M_EVENTS : M_BYTES, scale, w2);
        if (!ctx->no_status) draw_status(c, ctx, "matrix", what, ctx->t0, ctx->t1);
    }
#undef GROUP_LABEL
#undef MXV
    free(vb);
    free(vc);
    free(val);
    free(rt);
    free(ct);
    free(rtc);
    free(ctc);
    (void)err;
    (void)errsz;
    return true;
}

/* ---- profile charts ----------------------------------------------------------------------------- */

/* the rows of a chart: one base row by its label, or all rows as one */
static bool chart_rows(ViewCtx *ctx, RowSet *rs, char *title, size_t tsz, char *err, size_t errsz)
{
    rowset_init(rs, ctx->S, ctx->rows, false);
    if (ctx->chart_ids) {
        /* the interface's row under the cursor: its members, combined */
        uint32_t n = ctx->chart_nids < rs->n ? ctx->chart_nids : rs->n;
        memcpy(rs->ids, ctx->chart_ids, (size_t)n * sizeof *rs->ids);
        rs->n = n;
        rs->gsize = n ? n : 1;
        rs->ng = n ? 1 : 0;
        snprintf(title, tsz, "%s", ctx->chart_title ? ctx->chart_title : "");
        return true;
    }
    if (!ctx->row_sel) {
        rs->gsize = rs->n ? rs->n : 1;
        rs->ng = rs->n ? 1 : 0;
        snprintf(title, tsz, "all %s (%s)", ctx->rows == ROWS_LOC ? "locations" : "activities", REDUCER_NAMES[ctx->reducer]);
        return true;
    }
    for (uint32_t i = 0; i < rs->n; i++) {
        char b[300];
        row_label(ctx->S, ctx->rows, i, b, sizeof b);
        if (!strcmp(b, ctx->row_sel)) {
            rs->ids[0] = i;
            rs->n = 1;
            rs->gsize = 1;
            rs->ng = 1;
            snprintf(title, tsz, "%s", b);
            return true;
        }
    }
    snprintf(err, errsz, "--row: no %s is labelled '%s'", ctx->rows == ROWS_LOC ? "location" : "activity", ctx->row_sel);
    rowset_free(rs);
    return false;
}

static bool run_line(ViewCtx *ctx, Canvas *c, FILE *tsv, char *err, size_t errsz)
{
    MetricSpec m = view_metric(ctx, M_BUSY);
    if (!summary_prepare(ctx->S, &m, ctx->rows, err, errsz)) return false;
    RowSet rs;
    char title[320];
    if (!chart_rows(ctx, &rs, title, sizeof title, err, errsz)) return false;
    /* y labels (the caller's label column: the cells then line up with its
     * rows view's); without a status line, its line is the chart's */
    const int yw = ctx->label_w > 0 ? ctx->label_w : 9, hh = ctx->h + (ctx->no_status ? 1 : 0);
    int pw = ctx->w - yw - 1, ph = hh - 4;
    if (pw < 1) pw = 1;
    if (ph < 1) ph = 1;
    TimeGrid g;
    grid_init(&g, ctx->t0, ctx->t1, 2 * pw);
    double *v = xmalloc(((size_t)g.ncell + 1) * sizeof(double));
    if (rs.ng) agg_frame(ctx->S, &m, ctx->reducer, &rs, &g, ctx->subbins, v);
    else
        for (int i = 0; i < g.ncell; i++) v[i] = NAN;
    if (tsv) {
        tsv_header(tsv, &g);
        tsv_label(tsv, title);
        for (int i = 0; i < g.ncell; i++) {
            putc('\t', tsv);
            tsv_num(tsv, v[i]);
        }
        putc('\n', tsv);
    }
    if (c) {
        double scale = frame_scale(ctx, v, (size_t)g.ncell);
        int x0 = yw + 1;
        for (int y = 0; y < ph; y++) canvas_put(c, yw, y, G_VLINE, ROLE_AXIS, 0, 0);
        char num[48];
        fmt_value(num, sizeof num, m.m, scale);
        canvas_text_right(c, yw, 0, num, yw, ROLE_AXIS, 0);
        fmt_value(num, sizeof num, m.m, scale / 2);
        if (ph > 4) canvas_text_right(c, yw, ph / 2, num, yw, ROLE_AXIS, 0);
        canvas_text_right(c, yw, ph - 1, "0", yw, ROLE_AXIS, 0);
        /* braille: 2 x 4 dots per cell; each sample a column of dots
         * joined to the previous one */
        static const uint8_t BIT[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};
        uint8_t *dots = xcalloc((size_t)pw * (size_t)ph + 1, 1);
        int levels = 4 * ph, prev = -1;
        for (int x = 0; x < g.ncell; x++) {
            if (v[x] != v[x]) {
                prev = -1;
                continue;
            }
            int lv = scale > 0 ? dbl_to_int(v[x] / scale * (levels - 1), 0, levels - 1) : 0;
            int lo = lv, hi = lv;
            if (prev >= 0) {
                if (prev < lo) lo = prev + 1 <= lv ? prev + 1 : lv;
                if (prev > hi) hi = prev - 1 >= lv ? prev - 1 : lv;
            }
            for (int l = lo; l <= hi; l++) {
                int row = levels - 1 - l; /* dot row from the top */
                int cy = row / 4, dy = row % 4, cx = x / 2, dx = x % 2;
                dots[(size_t)cy * (size_t)pw + (size_t)cx] |= BIT[dx][dy];
            }
            prev = lv;
        }
        for (int y = 0; y < ph; y++)
            for (int x = 0; x < pw; x++) {
                uint8_t d = dots[(size_t)y * (size_t)pw + (size_t)x];
                if (d) canvas_put(c, x0 + x, y, 0x2800u + d, ROLE_RAMP0 + 5, 0, 0);
            }
        free(dots);
        TimeGrid ag;
        grid_init(&ag, ctx->t0, ctx->t1, pw);
        draw_axis(c, &ag, x0, hh - 3, ctx->s->t_min);
        grid_free(&ag);
        char what[400];
        snprintf(what, sizeof what, "%s of %s", m.m == M_EXPR && m.expr ? m.expr : METRIC_NAMES[m.m], title);
        if (!ctx->no_status) draw_status(c, ctx, "line", what, g.t0, g.t1);
    }
    free(v);
    grid_free(&g);
    rowset_free(&rs);
    return true;
}

static bool run_bars(ViewCtx *ctx, Canvas *c, FILE *tsv, char *err, size_t errsz)
{
    MetricSpec m = view_metric(ctx, M_BUSY);
    if (!summary_prepare(ctx->S, &m, ctx->rows, err, errsz)) return false;
    int nlines = ctx->h - 2 > 1 ? ctx->h - 2 : 1;
    RowSet rs;
    rowset_init(&rs, ctx->S, ctx->rows, ctx->tree);
    rowset_fit(&rs, nlines);
    Layout L;
    memset(&L, 0, sizeof L);
    char **lab = layout_labels(ctx, &rs, &L);
    /* the window, or the cell of the density grid at this width holding `at` */
    int64_t a = ctx->t0, b = ctx->t1;
    if (ctx->have_at) {
        TimeGrid dg;
        grid_init(&dg, ctx->t0, ctx->t1, L.ncell);
        int i = grid_cell(&dg, ctx->at);
        if (i < 0) {
            snprintf(err, errsz, "--at is outside the window");
            grid_free(&dg);
            free_labels(lab, rs.ng);
            rowset_free(&rs);
            return false;
        }
        a = dg.b[i];
        b = dg.b[i + 1];
        grid_free(&dg);
    }
    TimeGrid g;
    grid_init(&g, a, b, 1);
    double *v = xmalloc(((size_t)rs.ng + 1) * sizeof(double));
    agg_frame(ctx->S, &m, ctx->reducer, &rs, &g, ctx->subbins, v);
    if (tsv) {
        tsv_header(tsv, &g);
        for (uint32_t r = 0; r < rs.ng; r++) {
            tsv_label(tsv, lab[r]);
            putc('\t', tsv);
            tsv_num(tsv, v[r]);
            putc('\n', tsv);
        }
    }
    if (c) {
        double scale = frame_scale(ctx, v, rs.ng);
        const int vw = 10;
        int x0 = L.lw + 1, bw = ctx->w - x0 - vw - 1;
        if (bw < 1) bw = 1;
        static const uint32_t EIGHTHS[8] = {0x258F, 0x258E, 0x258D, 0x258C, 0x258B, 0x258A, 0x2589, 0x2588};
        for (uint32_t r = 0; r < rs.ng && (int)r < nlines; r++) {
            canvas_text(c, 0, (int)r, lab[r], L.lw, ROLE_LABEL, 0);
            canvas_put(c, L.lw, (int)r, G_VLINE, ROLE_AXIS, 0, 0);
            double f = scale > 0 && v[r] == v[r] ? v[r] / scale : 0;
            if (!(f > 0)) f = 0; /* (a negative value: no bar) */
            if (f > 1) f = 1;
            int eighths = dbl_to_int(f * bw * 8, 0, bw * 8);
            if (f > 0 && eighths == 0) eighths = 1;
            uint8_t role;
            uint32_t gl;
            shade(v[r], scale, &gl, &role);
            int x = 0;
            for (; x < eighths / 8; x++) canvas_put(c, x0 + x, (int)r, G_FULL, role, 0, 0);
            if (eighths % 8) canvas_put(c, x0 + x, (int)r, EIGHTHS[eighths % 8 - 1], role, 0, 0);
            char num[48];
            fmt_value(num, sizeof num, m.m, v[r]);
            canvas_text_right(c, ctx->w, (int)r, num, vw, ROLE_DEFAULT, 0);
        }
        char what[200];
        snprintf(what, sizeof what, "%s (%s)%s", m.m == M_EXPR && m.expr ? m.expr : METRIC_NAMES[m.m],
                 REDUCER_NAMES[ctx->reducer], ctx->have_at ? " at one cell" : " over the window");
        draw_status(c, ctx, "bars", what, a, b);
    }
    free(v);
    grid_free(&g);
    free_labels(lab, rs.ng);
    rowset_free(&rs);
    return true;
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
                tsv_num(tsv, v[(size_t)r * (size_t)g.ncell + (size_t)i]);
            }
            putc('\n', tsv);
        }
    }
    if (c) {
        double scale = frame_scale(ctx, v, nv);
        draw_labels(c, F.lab, &rs, &L);
        for (uint32_t r = 0; r < rs.ng && (int)r < L.nlines; r++)
            for (int i = 0; i < g.ncell; i++) {
                size_t k = (size_t)r * (size_t)g.ncell + (size_t)i;
                uint32_t gl;
                uint8_t role;
                shade(v[k], scale, &gl, &role);
                if (last[k]) canvas_put(c, L.x0 + i, (int)r, '!', ROLE_WARN, 0, ATTR_BOLD);
                else canvas_put(c, L.x0 + i, (int)r, gl, role, 0, 0);
            }
        draw_highlight(ctx, c, &rs, &g, L.x0, L.nlines);
        if (L.legend) draw_ramp_legend(c, L.y_legend, M_SYNC, scale, "waiting at syncs (! the last to arrive)");
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
static const ViewOps V_MATRIX = {"matrix", "source x destination for the window, with totals", run_matrix};
static const ViewOps V_LINE = {"line", "one row's metric over time", run_line};
static const ViewOps V_BARS = {"bars", "every row's metric over the window, or at one time", run_bars};
static const ViewOps V_IMBALANCE = {"imbalance", "locations x time shaded by their waits at syncs; ! the last to arrive",
                                    run_imbalance};

const ViewOps *const VIEWS[] = {&V_DENSITY, &VIEW_GANTT, &V_COMM, &V_MATRIX, &V_LINE, &V_BARS, &V_IMBALANCE, NULL};

const ViewOps *view_by_name(const char *name)
{
    for (int i = 0; VIEWS[i]; i++)
        if (!strcmp(VIEWS[i]->name, name)) return VIEWS[i];
    return NULL;
}
