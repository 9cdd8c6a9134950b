/*
 * charts.c — the views that are not rows x time: the communication matrix
 * (source x destination over the window, with totals) and the profile
 * charts (one row's metric over time as a line; every row's metric over
 * the window, or at one time, as bars); see view.h.
 *
 * Owns: run_matrix, run_line, run_bars and their ViewOps (VIEW_MATRIX,
 * VIEW_LINE, VIEW_BARS, listed in view.c's table of views).
 * Invariants: as every view: it only reads the summary and the store, draws
 * into the canvas (clipped) or writes TSV, and computes its numbers with
 * the aggregation's functions, as the interface does.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/out.h"
#include "base/timeparse.h"
#include "base/util.h"
#include "view_int.h"

/* ---- the communication matrix ------------------------------------------------------------------- */

static bool run_matrix(ViewCtx *ctx, Canvas *c, FILE *tsv, char *err, size_t errsz)
{
    Summary *S = ctx->S;
    const Store *s = ctx->s;
    uint32_t n = s->nloc;
    /* fit: rows into the lines, columns into the width (3 columns at least) */
    int nlines = ctx->h - 5 > 1 ? ctx->h - 5 : 1;
    uint32_t rg = n > (uint32_t)nlines ? (n + (uint32_t)nlines - 1) / (uint32_t)nlines : 1;
    int lw = summary_loc_label_width(S, text_width);
    if (lw < 1) lw = 1;
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
                view_tsv_num(tsv, val[(size_t)r * ncg + q]);
            }
            putc('\t', tsv);
            view_tsv_num(tsv, MXV(rt[r], rtc[r]));
            putc('\n', tsv);
        }
        fputs("total", tsv);
        for (uint32_t q = 0; q < ncg; q++) {
            putc('\t', tsv);
            view_tsv_num(tsv, MXV(ct[q], ctc[q]));
        }
        putc('\t', tsv);
        view_tsv_num(tsv, MXV(all, allc));
        putc('\n', tsv);
    }
    if (c) {
        double scale = view_frame_scale(ctx, val, nv);
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
                view_shade(val[(size_t)r * ncg + q], scale, &gl, &role);
                for (int k = 0; k < (cw > 1 ? cw - 1 : 1); k++) canvas_put(c, x0 + (int)q * cw + k, y, gl, role, 0, 0);
            }
            char num[48];
            view_fmt_value(num, sizeof num, fm, MXV(rt[r], rtc[r]));
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
                view_shade(tv, view_frame_scale(ctx, &tv, 1) > 0 ? (ctx->scale > 0 ? ctx->scale : tv) : 0, &gl, &role);
                char num[48];
                view_fmt_value(num, sizeof num, fm, tv);
                if (text_width(num) <= cw - 1) canvas_text(c, x0 + (int)q * cw, yt, num, cw - 1, ROLE_DEFAULT, 0);
                else canvas_put(c, x0 + (int)q * cw, yt, tv > 0 ? 0x2022 : ' ', ROLE_DIM, 0, 0);
            }
            char num[48];
            view_fmt_value(num, sizeof num, fm, MXV(all, allc));
            canvas_put(c, xt - 1, yt, G_VLINE, ROLE_AXIS, 0, 0);
            canvas_text_right(c, xt + totw, yt, num, totw, ROLE_DEFAULT, ATTR_BOLD);
        }
        const char *what = ctx->mx == MX_BYTES ? "bytes sent" : ctx->mx == MX_COUNT ? "messages" : "mean message size";
        char w2[200];
        if (rg > 1) snprintf(w2, sizeof w2, "%s, %u locations per row and column", what, rg);
        else snprintf(w2, sizeof w2, "%s", what);
        view_ramp_legend(c, ctx->h - 2, ctx->mx == MX_COUNT ? M_EVENTS : M_BYTES, scale, w2);
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
    MetricSpec m = view_metric_spec(ctx, M_BUSY);
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
            view_tsv_num(tsv, v[i]);
        }
        putc('\n', tsv);
    }
    if (c) {
        double scale = view_frame_scale(ctx, v, (size_t)g.ncell);
        int x0 = yw + 1;
        for (int y = 0; y < ph; y++) canvas_put(c, yw, y, G_VLINE, ROLE_AXIS, 0, 0);
        char num[48];
        view_fmt_value(num, sizeof num, m.m, scale);
        canvas_text_right(c, yw, 0, num, yw, ROLE_AXIS, 0);
        view_fmt_value(num, sizeof num, m.m, scale / 2);
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
    MetricSpec m = view_metric_spec(ctx, M_BUSY);
    if (!summary_prepare(ctx->S, &m, ctx->rows, err, errsz)) return false;
    int nlines = ctx->h - 2 > 1 ? ctx->h - 2 : 1;
    RowSet rs;
    rowset_init(&rs, ctx->S, ctx->rows, ctx->tree);
    rowset_fit(&rs, nlines);
    Layout L;
    memset(&L, 0, sizeof L);
    char **lab = view_layout_labels(ctx, &rs, &L);
    /* the window, or the cell of the density grid at this width holding `at` */
    int64_t a = ctx->t0, b = ctx->t1;
    if (ctx->have_at) {
        TimeGrid dg;
        grid_init(&dg, ctx->t0, ctx->t1, L.ncell);
        int i = grid_cell(&dg, ctx->at);
        if (i < 0) {
            snprintf(err, errsz, "--at is outside the window");
            grid_free(&dg);
            view_free_labels(lab, rs.ng);
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
            view_tsv_num(tsv, v[r]);
            putc('\n', tsv);
        }
    }
    if (c) {
        double scale = view_frame_scale(ctx, v, rs.ng);
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
            view_shade(v[r], scale, &gl, &role);
            int x = 0;
            for (; x < eighths / 8; x++) canvas_put(c, x0 + x, (int)r, G_FULL, role, 0, 0);
            if (eighths % 8) canvas_put(c, x0 + x, (int)r, EIGHTHS[eighths % 8 - 1], role, 0, 0);
            char num[48];
            view_fmt_value(num, sizeof num, m.m, v[r]);
            canvas_text_right(c, ctx->w, (int)r, num, vw, ROLE_DEFAULT, 0);
        }
        char what[200];
        snprintf(what, sizeof what, "%s (%s)%s", m.m == M_EXPR && m.expr ? m.expr : METRIC_NAMES[m.m],
                 REDUCER_NAMES[ctx->reducer], ctx->have_at ? " at one cell" : " over the window");
        draw_status(c, ctx, "bars", what, a, b);
    }
    free(v);
    grid_free(&g);
    view_free_labels(lab, rs.ng);
    rowset_free(&rs);
    return true;
}

const ViewOps VIEW_MATRIX = {"matrix", "source x destination for the window, with totals", run_matrix};
const ViewOps VIEW_LINE = {"line", "one row's metric over time", run_line};
const ViewOps VIEW_BARS = {"bars", "every row's metric over the window, or at one time", run_bars};
