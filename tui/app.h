/*
 * app.h — the state of an interactive session and every change a key can
 * make to it, without curses: the trace and its filter, the shared
 * viewport (time window, cursor, rows), the views, the details pane, the
 * prompt, marks and bookmarks.
 *
 * Owns: the session (store, selection, summaries), the row models, the
 * prompt and its history, the lists shown (events, details).
 * Invariants: t0 < t1 and the window lies within the trace's span widened
 * to at least 1 ns; the cursor is a cell of the current grid and a display
 * row that exists (or 0); the summary always matches the current
 * selection; an action reports what it invalidated (AF_* flags) and the
 * caller recomputes only that: a cursor move redraws, a zoom re-aggregates,
 * a new filter re-filters.
 */
#ifndef TNAV_APP_H
#define TNAV_APP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "agg/agg.h"
#include "analysis/waits.h"
#include "view/canvas.h"
#include "cmd/cli.h"
#include "filters/filter.h"
#include "prompt.h"
#include "view/view.h"

typedef enum { V_GANTT_LOC, V_GANTT_ACT, V_DENSITY, V_COMM, V_MATRIX, V_STATS, V_EVENTS, V_SPLIT, V_ANALYSES, V_IMBALANCE, V__N } ViewId;
extern const char *const VIEW_TITLES[V__N];

/* what an action invalidated */
enum { AF_REDRAW = 1, AF_REAGG = 2, AF_REFILTER = 4, AF_QUIT = 8 };

typedef enum { PM_NONE, PM_FILTER, PM_HIGHLIGHT, PM_GOTO, PM_COMMAND } PromptMode;
typedef enum { SORT_NATURAL, SORT_NAME, SORT_BUSY, SORT_WINDOW, SORT__N } RowSort;
extern const char *const SORT_NAMES[SORT__N];

/* the rows of one kind as the user arranged them */
typedef struct {
    RowKind kind;
    uint32_t n;         /* base rows */
    RowSort sort;
    uint8_t *hidden;    /* per base row */
    uint8_t *expanded;  /* per base row: the group starting at it is expanded */
    uint32_t gsize;     /* automatic group size (to fit the lines) */
    RowSet rs;          /* built from the above */
    bool dirty;
} RowModel;

/* an event listed in the details pane */
typedef struct {
    uint32_t ev;
    int line; /* its first line in the pane */
} DetailEv;

/* a time the cursor was put on, valid while the column and window stay */
typedef struct {
    int64_t t;
    int col;
    int64_t t0, t1;
    bool set;
} CursorAnchor;

struct Analyses;

typedef struct App {
    Session ss;
    uint64_t sel_gen;    /* counts the selections (a new filter, a cleared one) */
    struct Analyses *an; /* view 9's tables, the critical-path overlay (analyses.h) */
    SyncCtx *sctx;       /* the sync instances' definition, for the details pane (built when first needed) */
    CliArgs *args;
    const Store *s;
    Summary *S;          /* of the current selection */
    Summary *S_all;      /* of every event while no filter is applied (then S), else NULL: one summary at a time */
    uint64_t *all_sel;   /* NULL: every event */
    char *filter_text;   /* the applied filter, or NULL */
    Filter *hl_filter;   /* highlight mode: what is highlighted */
    char *hl_text;
    uint64_t *hl_sel;
    Summary *Shl;
    AggBudget *budget;   /* over the lazily built parts of S, S_all and Shl (app_budget_update) */
    size_t budget_cap;   /* (tests) the budget's limit at most this (0: none) */
    /* the screen */
    int w, h;
    bool ascii, color;
    ViewId view;
    /* the viewport */
    int64_t t0, t1;
    int cur_col;         /* cursor cell of the time grid */
    int cur_row;         /* cursor display row */
    CursorAnchor anchor;
    uint32_t row_off;    /* first display row shown */
    /* layout of the last drawn time view */
    int lay_x0, lay_y0, lay_ncell, lay_nlines; /* (y0: the first row's line) */
    uint32_t lay_ng;
    RowModel rows[2];    /* ROWS_LOC, ROWS_ACT */
    MetricSpec metric;   /* density and split */
    Metric comm_metric;  /* the comm view and the partners drill-down: bytes or events */
    Reducer reducer;
    /* range marks and bookmarks */
    bool have_a, have_b;
    int64_t mark_a, mark_b;
    bool bm_set[26];
    int64_t bm[26];
    char bm_name[26][40]; /* :mark NAME ("" : unnamed) */
    bool show_bookmarks, show_help, show_legend;
    int help_off;        /* the first line of the help shown (-1: help_focus's) */
    int help_focus;      /* an action the help marks (:help NAME), or -1 */
    int legend_off;      /* the first line of the full legend shown (K) */
    /* details pane */
    bool details;
    DetailEv *dev;
    int ndev;
    int dfocus;          /* the event Enter acts on */
    uint32_t focus_ev;   /* the event a jump went to: the pane focuses it when it lists it (else NONE32) */
    char **dlines;       /* the pane's text */
    uint8_t *dattr;      /* per line: 0 normal, 1 heading, 2 emphasised */
    int ndlines, dscroll;
    uint32_t participants_of; /* a sync group whose participants are listed, or NONE32 */
    /* event list */
    uint32_t *evlist;
    size_t nevlist;
    bool evlist_dirty, evlist_capped;
    int ev_sort;         /* 0: every selected event in time order (evlist.h); else a column of the window's list */
    size_t ev_cur, ev_off;
    uint32_t ev_at;      /* time order: the event under the list's cursor (NONE32: at the cursor's time) */
    int ev_row;          /* time order: its line among the list's lines */
    /* the prompt */
    PromptMode pmode;
    Prompt prompt;
    char *hist_path;
    bool hist_warned;    /* a failed history write was shown on the status line (once a session) */
    bool perr_set;
    FilterError perr;    /* the last compile error of the prompt's text */
    bool plive_ok, plive_dirty; /* (dirty: the line changed since the count) */
    uint64_t plive_count;
    /* the command line (:): its own line and history (commands.h) */
    Prompt cmd;
    char *cmd_hist_path;
    bool cmd_failed;     /* the command just run failed (perr says why) */
    char cmd_hint[256];  /* Tab's candidates when there are several */
    /* options of :set beyond ascii and color */
    int opt_subbins;     /* finer bins per cell of max, min-nonzero, mode (0: 8) */
    /* the saved session of this trace (session.h): its key, and whether
     * it is saved on quit */
    char *sess_paths, *sess_stamp;
    bool sess_on;
    char msg[256];       /* a transient message on the status line */
    /* the views' drawing, kept while only the cursor or the overlays change */
    Canvas *vcache;
    bool vcache_ok;
    int64_t ev_t0, ev_t1; /* the window the event list was built for */
    /* the first frame: the Gantt without its instants and message arrivals
     * (building their series costs as much as the frame; the next frame,
     * drawn right after it, has them) */
    bool first_lite;
    size_t big_most; /* the most bytes of summaries' big arrays held at once (app_idle) */
    size_t big_one, big_sizes[8]; /* the largest summary's big arrays: bytes, sizes */
    int nbig;
    OverlayMode ovl_msgs, ovl_marks; /* the Gantt's message arrivals and instants (auto, all, off) */
    /* a drill-down pane under the rows views (the KL1 monitors): the cursor
     * row's metric over time, every row's at the cursor's time, the cursor
     * location's traffic by partner over time */
    enum { DR_NONE, DR_LINE, DR_BARS, DR_PARTNERS } drill;
    int lay_axis_y;      /* the line of the time axis the cursor is marked on (-1: the view's last but one) */
    /* set by the screen: while a filter runs on a thread of its own, called
     * about every 50 ms with the seconds it has taken; draws that and
     * returns true when the user cancels (Esc). NULL: filters run on the
     * calling thread (headless, the tests). */
    bool (*filter_wait)(void *ctx, double elapsed);
    void *filter_wait_ctx;
} App;

/* Open a session on the traces of args (loaded by the caller's Session).
 * w, h: the screen size. */
void app_init(App *A, Session *ss, CliArgs *args, int w, int h, bool ascii, bool color);
/* The store's messages and sync groups, when the load left them for after
 * the first frame (LoadOpts.defer_tail): built now (nothing if they are);
 * app_draw calls it for any frame but a first lite Gantt. */
void app_finish_tail(App *A);
void app_free(App *A);
void app_resize(App *A, int w, int h);

/* keys and mouse: AF_* flags of what changed */
int app_key(App *A, int key);
enum { MOUSE_CLICK, MOUSE_DRAG, MOUSE_RELEASE, MOUSE_WHEEL_UP, MOUSE_WHEEL_DOWN };
int app_mouse(App *A, int x, int y, int what);
/* Draw everything into c (w x h). The views are recomputed only when
 * flags (from the keys since the last frame) hold AF_REAGG or AF_REFILTER,
 * or the size changed; otherwise the last drawing gets new overlays. */
void app_draw(App *A, Canvas *c, int flags);
/* After a frame is shown: the status line's count index of the summary
 * (summary_count_prepare: a frame of the whole trace, the first after a
 * load or a filter, does without it, the next zoom would wait for it);
 * the blocks the big-block recycler holds that
 * the largest summary seen would not take again (clearing a filter
 * rebuilds it from there), or beyond its size, go back to the system;
 * what it kept between frames otherwise added to the interface's peak. */
void app_idle(App *A);
/* Before a frame: the memory budget's limit for the summaries' lazily
 * built parts (from the store's size and the summaries' own), and the
 * frame's start (the parts it uses are kept until the next). */
#define APP_PEAK_GOAL 80.0       /* bytes an event, the whole process (issue 10) */
#define APP_BUDGET_HEADROOM 4.0  /* bytes an event kept for transients */
#define APP_BUDGET_MIN ((size_t)64 << 20)
void app_budget_update(App *A);
/* the current view alone into v (:save); the next frame must recompute
 * the views (AF_REAGG: the layout is v's until then) */
void app_draw_views(App *A, Canvas *v);
/* While the trace loads (there is no App yet): a box in the middle with the
 * file's name, a bar and load_progress_text (percent of bytes, MB/s), and
 * "Esc: cancel" (or "cancelling..." once asked). */
void draw_loading(Canvas *c, const char *what, uint64_t done, uint64_t total, int phase, double elapsed_s,
                  bool cancelling);

/* ---- operations (also used by the actions and the tests) ---- */
void app_zoom(App *A, double factor);     /* < 1 zooms in, around the cursor */
void app_pan_cells(App *A, int cells);
void app_pan_to(App *A, int64_t t);       /* centre the window on t, the cursor on it */
/* after the views were laid out again with another number of cells (was
 * old_ncells): the cursor goes to the cell of the same time */
void app_regrid(App *A, int old_ncells);
void app_fit(App *A);
bool app_goto(App *A, const char *text);  /* a time offset or date-time */
int64_t app_cursor_time(const App *A);    /* the start of the cursor cell */
int64_t app_cell_start(const App *A, int col);
int app_ncells(const App *A);
bool app_apply_filter(App *A, const char *text, bool highlight);
/* highlight the events of sel (taken over), described by text */
void app_highlight_sel(App *A, uint64_t *sel, const char *text);
/* show [a, b) (clamped to the trace), the cursor on the cell of t */
void app_show(App *A, int64_t a, int64_t b, int64_t t);
void app_clear_filter(App *A, bool highlight);
bool app_next_match(App *A, int dir);
void app_set_view(App *A, ViewId v);
void app_cursor_row_to(App *A, uint32_t e); /* the cursor on the row of event e */
RowModel *app_rows(App *A);               /* the row model of the current view (NULL: none) */
void app_rows_rebuild(App *A, RowModel *M);
void app_details_refresh(App *A);
bool app_details_enter(App *A);
double app_zoom_factor(const App *A);
void app_status(const App *A, char *buf, size_t sz);
/* the same, fitted to width columns: the least important parts dropped
 * first, the filter and the highlight kept (elided in their middle) */
void app_status_fit(const App *A, char *buf, size_t sz, int width);
/* compile and count the prompt's text if it changed (app_draw does it) */
void app_prompt_live(App *A);
/* a new selection: the events f selects (their number in *count) */
uint64_t *app_run_filter(App *A, Filter *f, uint64_t *count);
/* the line editor of the prompt that is open (the command line has its own) */
static inline Prompt *app_prompt(App *A) { return A->pmode == PM_COMMAND ? &A->cmd : &A->prompt; }
/* the view is a list (the event list, the analyses' tables): Up, Down and the
 * pages move its cursor, not the rows */
static inline bool app_list_view(const App *A) { return A->view == V_EVENTS || A->view == V_ANALYSES; }
/* the candidates for Tab in the prompt */
int app_complete(void *ctx, const char *prefix, const char **out, int max);

#endif
