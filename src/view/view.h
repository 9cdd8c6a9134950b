/*
 * view.h — the views: each one lays out a frame of a given size over the
 * shared viewport (time window, rows), computes its cells from the
 * summary (agg.h), and draws them into a cell canvas (canvas.h), or writes
 * the numbers behind them as TSV. The TUI and `tnav render` both use them.
 *
 * Owns: the layout of every view (label column, rows area, legend, time
 * axis, status line) and its glyphs and colour roles.
 * Invariants: a view's TSV holds exactly the values its drawing shades, for
 * the same size and options; drawing never reads outside the canvas; the
 * time axis, labels and status line are shared by all time-based views.
 */
#ifndef TNAV_VIEW_H
#define TNAV_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "agg/agg.h"
#include "canvas.h"

typedef enum { MX_BYTES, MX_COUNT, MX_MEAN } MatrixValue;

/* how the Gantt draws an overlay (message arrivals, instants' glyphs):
 * auto gives way where it would cover more than 1/OVL_DENSE of a row's
 * cells (and at least OVL_MIN of them: a few marks are never a wall), all
 * draws every one, off none */
typedef enum { OVL_AUTO, OVL_ALL, OVL_OFF, OVL__N } OverlayMode;
#define OVL_DENSE 6
#define OVL_MIN 4
extern const char *const OVL_NAMES[OVL__N];

typedef struct {
    Summary *S;
    const Store *s;
    int w, h;               /* frame size in cells */
    RowKind rows;           /* loc or act (pairs for the comm view) */
    bool tree;              /* activities in spawn-tree order */
    MetricSpec metric;
    bool metric_set;        /* else the view's default metric */
    Reducer reducer;
    int subbins;            /* finer bins per cell for max / min-nonzero / mode */
    int64_t t0, t1;         /* the time window [t0, t1) */
    double scale;           /* the value of the darkest shade; 0: the frame's maximum */
    MatrixValue mx;         /* matrix: what shades the cells */
    const char *row_sel;    /* line view: the row's label; NULL: all rows */
    const uint32_t *chart_ids; /* line view, from the interface: these base rows combined (else row_sel) */
    uint32_t chart_nids;
    const char *chart_title;
    bool have_partner;      /* comm view: only the pairs this location is part of */
    uint32_t partner;
    bool have_at;           /* bars: at one time rather than over the window */
    int64_t at;
    const char *filter_text;/* for the status line */
    /* from an interactive caller (the TUI) */
    const RowSet *rowset;   /* its rows (order, groups, hidden rows); NULL: all rows, grouped to fit */
    uint32_t row_off;       /* the first display row drawn */
    bool no_status;         /* it draws its own status line: the view gets that line too */
    int label_w;            /* the label column's width (0: from the labels) */
    Summary *hl;            /* highlight cells holding events of this selection (NULL: none) */
    bool no_marks;          /* gantt: no instants and no message arrivals (the interface's first
                               frame, drawn before the series they need are built) */
    OverlayMode msgs;       /* gantt: message arrivals and connectors */
    OverlayMode marks;      /* gantt: instants' glyphs */
    /* set by a rows x time view's run: where its cells are */
    int out_x0, out_ncell, out_nlines;
    uint32_t out_ng;        /* display rows in all */
    uint32_t out_dense_msgs, out_dense_marks; /* gantt, auto: rows whose overlays gave way */
} ViewCtx;

typedef struct {
    const char *name;
    const char *what; /* one line for --help */
    /* draw into c (its size is ctx->w x ctx->h) and/or write TSV to tsv;
     * returns false with a message in err (e.g. an unknown --row) */
    bool (*run)(ViewCtx *ctx, Canvas *c, FILE *tsv, char *err, size_t errsz);
} ViewOps;

/* the Gantt's glyphs of instants, what each stands for (the legends) */
typedef enum { GL_SPAWN, GL_END, GL_MARK, GL_ATOMIC, GL_DMOVE, GL_MOVE, GL_FINISH, GL_USER, GL_CLOCK, GL__N } GlyphClass;
extern const char *const GANTT_GLYPH_TEXT[GL__N];
extern const uint32_t GANTT_GLYPH[GL__N];
/* the glyph and the colour role the Gantt draws interval e's cells with */
uint32_t gantt_interval_glyph(Summary *S, const Canvas *c, uint32_t e);
uint8_t gantt_name_role(Summary *S, uint32_t e);

extern const ViewOps *const VIEWS[];
/* the lines of rows a rows x time view draws in a frame of ctx's size */
int view_row_lines(const ViewCtx *ctx, const char *view);
const ViewOps *view_by_name(const char *name);

/* "12.5 ms"-style label of time t for an axis with tick step `step` */
void axis_time_label(char *buf, size_t sz, int64_t t, int64_t step);
/* a nice tick step (1, 2 or 5 times a power of ten, in ns) for a span
 * drawn over `cells` columns */
int64_t axis_step(int64_t span, int cells);

#endif
