/*
 * view_int.h — what the views' files share: glyphs, the layout of a rows x
 * time frame (label column, rows, legend lines, axis, status line), and
 * the helpers that draw them. Internal to src/view/.
 *
 * Owns: nothing; declarations only.
 * Invariants: a rows x time view lays its frame out with rows_frame and
 * frees it with rows_frame_free; the helpers clip to the canvas.
 */
#ifndef TNAV_VIEW_INT_H
#define TNAV_VIEW_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "view.h"

/* glyphs */
#define G_HLINE 0x2500u
#define G_VLINE 0x2502u
#define G_TICK 0x252Cu
#define G_TEE_DOWN 0x252Cu
#define G_TEE_UP 0x2534u
#define G_ARROW_DOWN 0x25BCu
#define G_ARROW_UP 0x25B2u
#define G_FULL 0x2588u

typedef struct {
    int lw, x0, ncell;
    int nlines;
    int y_legend, y_axis;
    int y_legend2; /* a second legend line (the Gantt's glyphs), or -1 */
    bool legend;
} Layout;

/* the frame of a rows x time view: layout, rows (the caller's, or all
 * rows fitted to the lines), the rows shown (all of them for TSV), labels,
 * grid */
typedef struct {
    Layout L;
    RowSet all, rs;
    char **lab;
    TimeGrid g;
} RowsFrame;

void rows_frame(ViewCtx *ctx, RowKind rk, bool all_rows, bool legend2, RowsFrame *f);
void rows_frame_free(RowsFrame *f);
/* the row labels and the rule after them (dashed, and the label dimmed,
 * for a group of rows) */
void draw_labels(Canvas *c, char **lab, const RowSet *rs, const Layout *L);
/* underline the cells of rows x grid that hold highlighted events */
void draw_highlight(ViewCtx *ctx, Canvas *c, const RowSet *rs, const TimeGrid *g, int x0, int nlines);
/* the time axis (a rule with ticks, then their labels) from line y */
void draw_axis(Canvas *c, const TimeGrid *g, int x0, int y, int64_t origin);
/* the status line: view, what its rows are, the range, the events in it, the filter */
void draw_status(Canvas *c, const ViewCtx *ctx, const char *view, const char *what, int64_t a, int64_t b);
/* TSV: the header of cell boundaries; a row's label without tabs or newlines */
void tsv_header(FILE *f, const TimeGrid *g);
void tsv_label(FILE *f, const char *s);

/* numbers: a value of metric m in a cell (short, with its unit); TSV's */
void view_fmt_value(char *buf, size_t sz, Metric m, double v);
void view_tsv_num(FILE *f, double v);
/* shading: a value against the frame's scale (the --scale, else the
 * largest of v[0..n)) as one of the ramp's glyphs and roles; the ramp's
 * legend on line y */
void view_shade(double v, double scale, uint32_t *glyph, uint8_t *role);
double view_frame_scale(const ViewCtx *ctx, const double *v, size_t n);
void view_ramp_legend(Canvas *c, int y, Metric m, double scale, const char *what);
/* the metric a view shows (the context's, else dflt) */
MetricSpec view_metric_spec(const ViewCtx *ctx, Metric dflt);
/* the label column from the rows' labels (L's widths set); freed with
 * view_free_labels */
char **view_layout_labels(ViewCtx *ctx, const RowSet *rs, Layout *L);
void view_free_labels(char **lab, uint32_t n);

/* gantt.c */
extern const ViewOps VIEW_GANTT;
/* charts.c */
extern const ViewOps VIEW_MATRIX, VIEW_LINE, VIEW_BARS;

#endif
