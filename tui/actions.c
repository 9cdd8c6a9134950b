/*
 * actions.c — what the keys do: one table of actions (name, keys, what it
 * does) from which both the key bindings and the help screen come, and the
 * actions themselves (the dispatch of a key to them is in dispatch.c).
 *
 * Owns: the table; nothing else.
 * Invariants: every key is bound to at most one action (checked by the
 * unit tests); an action returns the AF_* flags of what it changed; no
 * curses here.
 */
#include "actions.h"
#include "analyses.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evlist.h"
#include "keys.h"
#include "base/util.h"

const char *tkey_name(int key, char *buf, int sz)
{
    static const char *const SPECIAL[] = {"Up",   "Down", "Left", "Right", "PgUp",      "PgDn",
                                          "Home", "End",  "Bksp", "Del",   "Shift-Tab", "Resize"};
    if (key >= TK_F1 && key < TK__END) snprintf(buf, (size_t)sz, "F%d", key - TK_F1 + 1);
    else if (key > TK_SPECIAL && key < TK_F1) snprintf(buf, (size_t)sz, "%s", SPECIAL[key - TK_SPECIAL - 1]);
    else if (key == TK_ENTER) snprintf(buf, (size_t)sz, "Enter");
    else if (key == TK_TAB) snprintf(buf, (size_t)sz, "Tab");
    else if (key == TK_ESC) snprintf(buf, (size_t)sz, "Esc");
    else if (key == ' ') snprintf(buf, (size_t)sz, "Space");
    else if (key > 0 && key < 0x20) snprintf(buf, (size_t)sz, "Ctrl-%c", 'A' + key - 1);
    else {
        char u[5] = {0};
        utf8_put(u, (uint32_t)key);
        snprintf(buf, (size_t)sz, "%s", u);
    }
    return buf;
}

/* ---- the actions ------------------------------------------------------------------------- */

static int a_quit(App *A)
{
    (void)A;
    return AF_QUIT;
}

static int a_help(App *A)
{
    A->show_help = !A->show_help;
    A->help_off = 0;
    A->help_focus = -1;
    return AF_REDRAW;
}

static int a_legend(App *A)
{
    A->show_legend = !A->show_legend;
    A->legend_off = 0;
    return AF_REDRAW;
}

static int a_view(App *A, ViewId v)
{
    if (A->view == v) return 0;
    app_set_view(A, v);
    A->participants_of = NONE32;
    return AF_REAGG;
}
static int a_view1(App *A) { return a_view(A, V_GANTT_LOC); }
static int a_view2(App *A) { return a_view(A, V_GANTT_ACT); }
static int a_view3(App *A) { return a_view(A, V_DENSITY); }
static int a_view4(App *A) { return a_view(A, V_COMM); }
static int a_view5(App *A) { return a_view(A, V_MATRIX); }
static int a_view6(App *A)
{
    int f = a_view(A, V_STATS);
    return f ? f : AF_REDRAW; /* (from view 9: its time table) */
}
static int a_view7(App *A) { return a_view(A, V_EVENTS); }
static int a_view8(App *A) { return a_view(A, V_SPLIT); }
static int a_view9(App *A) { return a_view(A, V_ANALYSES); }
static int a_view_imbalance(App *A) { return a_view(A, V_IMBALANCE); }
/* (6 is the analyses' time table: Tab passes over it) */
static int a_next_view(App *A)
{
    ViewId v = (ViewId)((A->view + 1) % V__N);
    return a_view(A, v == V_STATS ? (ViewId)(v + 1) : v);
}
static int a_prev_view(App *A)
{
    ViewId v = (ViewId)((A->view + V__N - 1) % V__N);
    return a_view(A, v == V_STATS ? (ViewId)(v - 1) : v);
}

static int a_zoom_in(App *A)
{
    app_zoom(A, 0.5);
    return AF_REAGG;
}

static int a_zoom_out(App *A)
{
    app_zoom(A, 2.0);
    return AF_REAGG;
}

static int a_fit(App *A)
{
    app_fit(A);
    return AF_REAGG;
}

/* the event list and the statistics table move their own cursor */

/* the time-ordered event list: the cursor's event moves d events; the
 * time cursor of the other views follows it */
static int evlist_follow(App *A)
{
    if (A->ev_at == NONE32) return AF_REDRAW;
    int64_t t = A->s->ts[A->ev_at];
    if (t >= A->t0 && t < A->t1) {
        int n = app_ncells(A);
        for (int i = 0; i < n; i++)
            if (app_cell_start(A, i + 1) > t) {
                A->cur_col = i;
                break;
            }
        return AF_REDRAW;
    }
    app_pan_to(A, t);
    return AF_REAGG;
}

static int evlist_move(App *A, long d)
{
    if (A->ev_at == NONE32 || !d) return AF_REDRAW;
    size_t n = (size_t)(d < 0 ? -d : d);
    if (n > 1000000) n = 1000000;
    uint32_t *buf = xmalloc(n * sizeof *buf);
    size_t got = evorder_walk(A->s, A->ss.sel, A->ev_at, d < 0 ? -1 : +1, buf, n);
    if (got) A->ev_at = buf[got - 1];
    free(buf);
    long row = A->ev_row + (d < 0 ? -(long)got : (long)got);
    A->ev_row = (int)(row < 0 ? 0 : row > A->h ? A->h : row); /* (the drawing clamps it to its lines) */
    return evlist_follow(A);
}

static int evlist_end(App *A, int dir)
{
    A->ev_at = dir < 0 ? evorder_first(A->s, A->ss.sel) : evorder_last(A->s, A->ss.sel);
    A->ev_row = dir < 0 ? 0 : A->h;
    return evlist_follow(A);
}

static int list_move(App *A, long d)
{
    if (A->view == V_ANALYSES) {
        analyses_move(A, d);
    } else if (A->view == V_EVENTS && A->ev_sort == 0) {
        return evlist_move(A, d);
    } else {
        long c = (long)A->ev_cur + d;
        if (c < 0) c = 0;
        if (A->nevlist && c >= (long)A->nevlist) c = (long)A->nevlist - 1;
        A->ev_cur = (size_t)(c < 0 ? 0 : c);
    }
    return AF_REDRAW;
}

static int a_left(App *A)
{
    if (A->view == V_ANALYSES) {
        analyses_tab(A, -1);
        return AF_REDRAW;
    }
    if (A->cur_col > 0) {
        A->cur_col--;
        return AF_REDRAW;
    }
    int64_t t0 = A->t0;
    app_pan_cells(A, -app_ncells(A) / 8 - 1);
    return t0 != A->t0 ? AF_REAGG : 0;
}

static int a_right(App *A)
{
    if (A->view == V_ANALYSES) {
        analyses_tab(A, +1);
        return AF_REDRAW;
    }
    if (A->cur_col + 1 < app_ncells(A)) {
        A->cur_col++;
        return AF_REDRAW;
    }
    int64_t t0 = A->t0;
    app_pan_cells(A, app_ncells(A) / 8 + 1);
    return t0 != A->t0 ? AF_REAGG : 0;
}

static int a_up(App *A)
{
    if (app_list_view(A)) return list_move(A, -1);
    if (A->cur_row > 0) A->cur_row--;
    if ((uint32_t)A->cur_row < A->row_off) A->row_off = (uint32_t)A->cur_row;
    return AF_REDRAW;
}

static int a_down(App *A)
{
    if (app_list_view(A)) return list_move(A, +1);
    RowModel *M = app_rows(A);
    if (M && M->dirty) app_rows_rebuild(A, M);
    uint32_t ng = M ? M->rs.ng : 0;
    if ((uint32_t)A->cur_row + 1 < ng) A->cur_row++;
    if (A->lay_nlines > 0 && (uint32_t)A->cur_row >= A->row_off + (uint32_t)A->lay_nlines)
        A->row_off = (uint32_t)A->cur_row - (uint32_t)A->lay_nlines + 1;
    return AF_REDRAW;
}

static int a_page_left(App *A)
{
    if (app_list_view(A)) return list_move(A, -(A->h - 4));
    app_pan_cells(A, -app_ncells(A));
    return AF_REAGG;
}

static int a_page_right(App *A)
{
    if (app_list_view(A)) return list_move(A, A->h - 4);
    app_pan_cells(A, app_ncells(A));
    return AF_REAGG;
}

static int a_start(App *A)
{
    if (A->view == V_EVENTS && A->ev_sort == 0) return evlist_end(A, -1);
    if (app_list_view(A)) return list_move(A, -(long)1e12);
    int64_t span = A->t1 - A->t0;
    A->t0 = A->s->t_min;
    A->t1 = A->t0 + span;
    A->cur_col = 0;
    app_pan_cells(A, 0);
    return AF_REAGG;
}

static int a_end(App *A)
{
    if (A->view == V_EVENTS && A->ev_sort == 0) return evlist_end(A, +1);
    if (app_list_view(A)) return list_move(A, (long)1e12);
    int64_t span = A->t1 - A->t0;
    A->t1 = A->s->t_max + 1;
    A->t0 = A->t1 - span;
    A->cur_col = app_ncells(A) - 1;
    app_pan_cells(A, 0);
    return AF_REAGG;
}

static int open_prompt(App *A, PromptMode m, const char *init)
{
    A->pmode = m;
    Prompt *P = app_prompt(A);
    prompt_clear(P);
    if (init) prompt_set(P, init);
    A->cmd_hint[0] = 0;
    A->perr_set = false;
    A->plive_ok = false;
    A->plive_dirty = true; /* (the count of the text it starts with) */
    return AF_REDRAW;
}

static int a_goto(App *A) { return open_prompt(A, PM_GOTO, NULL); }
static int a_command(App *A) { return open_prompt(A, PM_COMMAND, NULL); }
static int a_filter(App *A) { return open_prompt(A, PM_FILTER, A->filter_text); }
static int a_highlight(App *A) { return open_prompt(A, PM_HIGHLIGHT, A->hl_text); }

static int a_clear_filter(App *A)
{
    if (!A->filter_text) return 0;
    app_clear_filter(A, false);
    snprintf(A->msg, sizeof A->msg, "filter cleared");
    return AF_REFILTER;
}

static int a_clear_highlight(App *A)
{
    if (!A->hl_text) return 0;
    app_clear_filter(A, true);
    return AF_REAGG;
}

static int a_mark_a(App *A)
{
    A->have_a = true;
    A->mark_a = app_cursor_time(A);
    snprintf(A->msg, sizeof A->msg, "range start marked; ] marks its end, Enter zooms to it");
    return AF_REDRAW;
}

static int a_mark_b(App *A)
{
    A->have_b = true;
    A->mark_b = app_cell_start(A, A->cur_col + 1);
    return AF_REDRAW;
}

static int a_enter(App *A)
{
    if (A->view == V_ANALYSES) return analyses_enter(A);
    if (A->have_a && A->have_b) {
        int64_t a = A->mark_a < A->mark_b ? A->mark_a : A->mark_b, b = A->mark_a < A->mark_b ? A->mark_b : A->mark_a;
        if (b - a < 1) b = a + 1;
        A->t0 = a;
        A->t1 = b;
        A->have_a = A->have_b = false;
        app_pan_cells(A, 0); /* (clamps) */
        A->cur_col = 0;
        return AF_REAGG;
    }
    if (A->view == V_EVENTS && (A->ev_sort ? A->ev_cur < A->nevlist : A->ev_at != NONE32)) {
        uint32_t e = A->ev_sort ? A->evlist[A->ev_cur] : A->ev_at;
        app_set_view(A, V_GANTT_LOC);
        app_pan_to(A, A->s->ts[e]);
        app_cursor_row_to(A, e);
        return AF_REAGG;
    }
    if (!A->details) {
        A->details = true;
        return AF_REAGG;
    }
    return app_details_enter(A) ? AF_REAGG : AF_REDRAW;
}

static int a_details(App *A)
{
    A->details = !A->details;
    A->participants_of = NONE32;
    A->dfocus = 0;
    return AF_REAGG; /* (the views get narrower or wider) */
}

static int a_details_next(App *A)
{
    if (A->view == V_ANALYSES) {
        analyses_col(A, +1);
        return AF_REDRAW;
    }
    if (A->dfocus + 1 < A->ndev) A->dfocus++;
    return AF_REDRAW;
}

static int a_details_prev(App *A)
{
    if (A->view == V_ANALYSES) {
        analyses_col(A, -1);
        return AF_REDRAW;
    }
    if (A->dfocus > 0) A->dfocus--;
    return AF_REDRAW;
}

static int a_next_match(App *A) { return app_next_match(A, +1) ? AF_REAGG : AF_REDRAW; }
static int a_prev_match(App *A) { return app_next_match(A, -1) ? AF_REAGG : AF_REDRAW; }

static int a_bookmark(App *A)
{
    int k = bookmark_set(A, NULL);
    snprintf(A->msg, sizeof A->msg, "bookmark %c set; ' lists the bookmarks", 'a' + k);
    return AF_REDRAW;
}

static int a_bookmarks(App *A)
{
    A->show_bookmarks = !A->show_bookmarks;
    return AF_REDRAW;
}

static int a_expand(App *A)
{
    RowModel *M = app_rows(A);
    if (!M) return 0;
    if (M->dirty) app_rows_rebuild(A, M);
    if ((uint32_t)A->cur_row >= M->rs.ng) return 0;
    uint32_t first = rowset_first(&M->rs, (uint32_t)A->cur_row), end = rowset_end(&M->rs, (uint32_t)A->cur_row);
    if (end - first > 1) {
        M->expanded[M->rs.ids[first]] = 1;
    } else if (M->gsize > 1) {
        /* collapse the expanded group this row belongs to */
        uint32_t pos = first - first % M->gsize;
        M->expanded[M->rs.ids[pos]] = 0;
        for (uint32_t g = 0; g < M->rs.ng; g++)
            if (rowset_first(&M->rs, g) == pos) A->cur_row = (int)g;
    } else {
        snprintf(A->msg, sizeof A->msg, "every row is shown; nothing to expand");
        return AF_REDRAW;
    }
    uint32_t keep = M->rs.ids[first];
    app_rows_rebuild(A, M);
    for (uint32_t g = 0; g < M->rs.ng; g++)
        if (M->rs.ids[rowset_first(&M->rs, g)] == keep) A->cur_row = (int)g;
    return AF_REAGG;
}

static int a_hide(App *A)
{
    RowModel *M = app_rows(A);
    if (!M) return 0;
    if (M->dirty) app_rows_rebuild(A, M);
    if ((uint32_t)A->cur_row >= M->rs.ng || M->rs.ng <= 1) return 0;
    for (uint32_t k = rowset_first(&M->rs, (uint32_t)A->cur_row); k < rowset_end(&M->rs, (uint32_t)A->cur_row); k++)
        M->hidden[M->rs.ids[k]] = 1;
    app_rows_rebuild(A, M);
    if ((uint32_t)A->cur_row >= M->rs.ng) A->cur_row = (int)M->rs.ng - 1;
    snprintf(A->msg, sizeof A->msg, "row hidden; U shows every row again");
    return AF_REAGG;
}

static int a_unhide(App *A)
{
    RowModel *M = app_rows(A);
    if (!M) return 0;
    memset(M->hidden, 0, M->n);
    M->dirty = true;
    return AF_REAGG;
}

static int a_sort(App *A)
{
    if (A->view == V_ANALYSES) {
        analyses_sort(A);
        return AF_REDRAW;
    }
    if (A->view == V_EVENTS) {
        A->ev_sort = (A->ev_sort + 1) % 6;
        A->evlist_dirty = true;
        return AF_REAGG;
    }
    RowModel *M = app_rows(A);
    if (!M) return 0;
    M->sort = (RowSort)((M->sort + 1) % SORT__N);
    M->dirty = true;
    A->cur_row = 0;
    A->row_off = 0;
    snprintf(A->msg, sizeof A->msg, "rows sorted by %s", SORT_NAMES[M->sort]);
    return AF_REAGG;
}

static int a_sort_reverse(App *A)
{
    if (A->view != V_ANALYSES) {
        snprintf(A->msg, sizeof A->msg, "S reverses the sort of a table of view 9 (analyses)");
        return AF_REDRAW;
    }
    analyses_reverse(A);
    return AF_REDRAW;
}

static int a_save(App *A)
{
    if (A->view != V_ANALYSES) {
        snprintf(A->msg, sizeof A->msg, "w saves the table shown in view 9 (analyses) as CSV");
        return AF_REDRAW;
    }
    return analyses_save(A);
}

static int a_path(App *A) { return analyses_path_toggle(A); }
static int a_path_next(App *A) { return analyses_path_step(A, +1); }
static int a_path_prev(App *A) { return analyses_path_step(A, -1); }

static int a_metric(App *A)
{
    if (A->view == V_COMM) {
        A->comm_metric = A->comm_metric == M_BYTES ? M_EVENTS : M_BYTES;
        snprintf(A->msg, sizeof A->msg, "comm metric: %s", A->comm_metric == M_BYTES ? "bytes sent" : "messages (events)");
        return AF_REAGG;
    }
    static const Metric CYCLE[] = {M_BUSY, M_SYNC, M_EVENTS, M_BYTES, M_COUNTER};
    int i = 0;
    while (i < 5 && CYCLE[i] != A->metric.m) i++;
    A->metric.m = CYCLE[(i + 1) % 5];
    A->metric.expr = NULL;
    snprintf(A->msg, sizeof A->msg, "metric: %s", METRIC_NAMES[A->metric.m]);
    return AF_REAGG;
}

static int a_messages(App *A)
{
    A->ovl_msgs = (OverlayMode)((A->ovl_msgs + 1) % OVL__N);
    snprintf(A->msg, sizeof A->msg, "messages on the Gantt: %s%s", OVL_NAMES[A->ovl_msgs],
             A->ovl_msgs == OVL_AUTO ? " (where they do not cover the rows)" : "");
    return AF_REAGG;
}

static int a_instants(App *A)
{
    A->ovl_marks = (OverlayMode)((A->ovl_marks + 1) % OVL__N);
    snprintf(A->msg, sizeof A->msg, "instants on the Gantt: %s%s", OVL_NAMES[A->ovl_marks],
             A->ovl_marks == OVL_AUTO ? " (where they do not cover the rows)" : "");
    return AF_REAGG;
}

static int a_drill(App *A, int which, const char *what)
{
    if (A->view != V_GANTT_LOC && A->view != V_GANTT_ACT && A->view != V_DENSITY && A->view != V_IMBALANCE) {
        snprintf(A->msg, sizeof A->msg, "%s: in the Gantt, density and imbalance views", what);
        return AF_REDRAW;
    }
    A->drill = (int)A->drill == which ? DR_NONE : which;
    if (A->drill != DR_NONE && A->h < 20) snprintf(A->msg, sizeof A->msg, "%s: the terminal is too low for the pane", what);
    return AF_REAGG;
}
static int a_drill_line(App *A) { return a_drill(A, DR_LINE, "line chart"); }
static int a_drill_bars(App *A) { return a_drill(A, DR_BARS, "bar chart"); }
static int a_drill_partners(App *A) { return a_drill(A, DR_PARTNERS, "partners"); }

static int a_reducer(App *A)
{
    A->reducer = (Reducer)((A->reducer + 1) % RED__N);
    snprintf(A->msg, sizeof A->msg, "reducer: %s", REDUCER_NAMES[A->reducer]);
    return AF_REAGG;
}

static int a_redraw(App *A)
{
    (void)A;
    return AF_REAGG;
}

const Action ACTIONS[] = {
    {"help", {'?', TK_F1}, "show or hide this help; :help COMMAND shows that command's entry", a_help, "[COMMAND]",
     ARG_COMMAND, c_help},
    {"legend", {'K'}, "show or hide the full legend: every name's colour, every glyph, what the marks mean", a_legend, NULL,
     ARG_NONE, NULL},
    {"command", {':'}, "the command line: any action by its name, with an argument where it takes one", a_command, NULL, ARG_NONE, NULL},
    {"quit", {'q', TK_F1 + 9}, "quit (also Ctrl-C)", a_quit, NULL, ARG_NONE, NULL},
    {"view-gantt-loc", {'1'}, "view: Gantt by location", a_view1, NULL, ARG_NONE, NULL},
    {"view-gantt-act", {'2'}, "view: Gantt by activity (spawn tree)", a_view2, NULL, ARG_NONE, NULL},
    {"view-density", {'3'}, "view: density map", a_view3, NULL, ARG_NONE, NULL},
    {"view-comm", {'4'}, "view: communication monitor", a_view4, NULL, ARG_NONE, NULL},
    {"view-matrix", {'5'}, "view: communication matrix (of the marked range, when one is marked)", a_view5, NULL, ARG_NONE,
     NULL},
    {"view-stats", {'6'}, "view: statistics per location of the visible range (the analyses' time table, as tnav stats)",
     a_view6, NULL, ARG_NONE, NULL},
    {"view-events", {'7'}, "view: every event of the filter in time order (s: the window's events by a column)", a_view7,
     NULL, ARG_NONE, NULL},
    {"view-split", {'8'}, "view: density map above the Gantt", a_view8, NULL, ARG_NONE, NULL},
    {"view-imbalance", {'I'}, "view: imbalance, locations x time shaded by their waits at syncs (! the last to arrive)",
     a_view_imbalance, NULL, ARG_NONE, NULL},
    {"view-analyses", {'9'}, "view: analyses (profile, time and efficiency, waits, syncs, critical path)", a_view9, NULL, ARG_NONE, NULL},
    {"next-view", {TK_TAB}, "next view", a_next_view, NULL, ARG_NONE, NULL},
    {"prev-view", {TK_BTAB}, "previous view", a_prev_view, NULL, ARG_NONE, NULL},
    {"zoom-in", {'+', '=', 'z'}, "zoom in around the cursor", a_zoom_in, NULL, ARG_NONE, NULL},
    {"zoom-out", {'-', 'Z'}, "zoom out around the cursor", a_zoom_out, NULL, ARG_NONE, NULL},
    {"fit", {'0'}, "zoom to fit the whole trace", a_fit, NULL, ARG_NONE, NULL},
    {"left", {TK_LEFT, 'h'}, "cursor left (pans at the edge)", a_left, NULL, ARG_NONE, NULL},
    {"right", {TK_RIGHT, 'l'}, "cursor right (pans at the edge)", a_right, NULL, ARG_NONE, NULL},
    {"up", {TK_UP, 'k'}, "cursor up a row", a_up, NULL, ARG_NONE, NULL},
    {"down", {TK_DOWN, 'j'}, "cursor down a row", a_down, NULL, ARG_NONE, NULL},
    {"page-left", {TK_PGUP}, "pan a screen back in time", a_page_left, NULL, ARG_NONE, NULL},
    {"page-right", {TK_PGDN}, "pan a screen forward in time", a_page_right, NULL, ARG_NONE, NULL},
    {"start", {TK_HOME}, "pan to the start of the trace", a_start, NULL, ARG_NONE, NULL},
    {"end", {TK_END}, "pan to the end of the trace", a_end, NULL, ARG_NONE, NULL},
    {"goto", {'g'}, "go to a time (e.g. 1.25s, 200us, or a date-time), or to a named bookmark", a_goto, "[TIME|NAME]",
     ARG_TIME, c_goto},
    {"zoom", {0}, "show the range from FROM to TO (times as for goto, or bookmarks' names)", NULL, "FROM TO", ARG_TIME,
     c_zoom},
    {"view", {0}, "show a view by name (gantt, activities, density, comm, matrix, stats, events, split, analyses, "
                  "imbalance; or a table of analyses: profile, time, waits, syncs, critical-path)",
     NULL, "NAME", ARG_VIEW, c_view},
    {"mark-start", {'['}, "mark the start of a range at the cursor", a_mark_a, NULL, ARG_NONE, NULL},
    {"mark-end", {']'}, "mark the end of a range at the cursor", a_mark_b, NULL, ARG_NONE, NULL},
    {"enter", {TK_ENTER}, "zoom to the marked range; else open the details, jump to a message's other end, list a "
                          "sync's participants",
     a_enter, NULL, ARG_NONE, NULL},
    {"details", {'i'}, "show or hide the details of the events under the cursor", a_details, NULL, ARG_NONE, NULL},
    {"details-next", {'>'}, "details: the next event; tables (views 6, 9): the column cursor right", a_details_next, NULL,
     ARG_NONE, NULL},
    {"details-prev", {'<'}, "details: the previous event; tables: the column cursor left", a_details_prev, NULL, ARG_NONE,
     NULL},
    {"filter", {'/'}, "filter: show only the events an expression selects", a_filter, "[EXPR]", ARG_EXPR, c_filter},
    {"highlight", {'t'}, "highlight the events an expression selects (the rest stays)", a_highlight, "[EXPR]", ARG_EXPR,
     c_highlight},
    {"clear-filter", {'C'}, "clear the filter", a_clear_filter, NULL, ARG_NONE, NULL},
    {"clear-highlight", {'T'}, "clear the highlight", a_clear_highlight, NULL, ARG_NONE, NULL},
    {"next-match", {'n'}, "the next matching event in time", a_next_match, NULL, ARG_NONE, NULL},
    {"prev-match", {'N'}, "the previous matching event in time", a_prev_match, NULL, ARG_NONE, NULL},
    {"bookmark", {'m'}, "bookmark the cursor's time", a_bookmark, NULL, ARG_NONE, NULL},
    {"mark", {0}, "bookmark the cursor's time under a name (:goto NAME goes back to it)", NULL, "NAME", ARG_NAME, c_mark},
    {"bookmarks", {'\''}, "list the bookmarks; a letter jumps to one", a_bookmarks, NULL, ARG_NONE, NULL},
    {"expand", {'x'}, "expand or collapse the group of rows under the cursor", a_expand, NULL, ARG_NONE, NULL},
    {"hide-row", {'H'}, "hide the row under the cursor", a_hide, NULL, ARG_NONE, NULL},
    {"unhide-rows", {'U'}, "show every row again", a_unhide, NULL, ARG_NONE, NULL},
    {"sort", {'s'}, "sort rows: natural, name, busy, metric of the window; events: the next column; tables: by the column "
                    "under the cursor (< >), again the other way; :sort COLUMN sorts by that one (-COLUMN: the other way, "
                    "in the tables)",
     a_sort, "[COLUMN]", ARG_COLUMN, c_sort},
    {"sort-reverse", {'S'}, "analyses: sort the other way", a_sort_reverse, NULL, ARG_NONE, NULL},
    {"save-table", {'w'}, "analyses: save the table shown as CSV (tnav-TABLE.csv)", a_save, NULL, ARG_NONE, NULL},
    {"save", {0}, "save to FILE: a table (analyses, statistics, events) as CSV, another view as the text drawn (as tnav "
                  "render prints it; FILE.txt: any view as text)",
     NULL, "FILE", ARG_FILE, c_save},
    {"set", {0}, "set an option: ascii, color, details, marks (instants and arrivals on the Gantt) on or off (no VALUE: "
                 "toggle); messages, instants auto, all or off; filter-timeout SECONDS; metric NAME, reducer NAME; "
                 "sub-bins N (1..64)",
     NULL, "OPTION [VALUE]", ARG_OPTION, c_set},
    {"critical-path", {'c'}, "show or hide the critical path on the Gantt (in red, bold)", a_path, NULL, ARG_NONE, NULL},
    {"path-next", {'}'}, "the critical path's next segment", a_path_next, NULL, ARG_NONE, NULL},
    {"path-prev", {'{'}, "the critical path's previous segment", a_path_prev, NULL, ARG_NONE, NULL},
    {"metric", {'M'}, "density: next metric (busy, sync, events, bytes, counter), or the one named; comm: bytes or events", a_metric, "[NAME]",
     ARG_METRIC, c_metric},
    {"messages", {'o'}, "Gantt: message arrivals and connectors: auto (hidden where they would cover a row), all, off",
     a_messages, NULL, ARG_NONE, NULL},
    {"instants", {'O'}, "Gantt: instants' glyphs (spawn, end, marks...): auto, all, off", a_instants, NULL, ARG_NONE, NULL},
    {"drill-line", {'L'}, "drill down: a pane with the metric of the row under the cursor over time (L again closes it)",
     a_drill_line, NULL, ARG_NONE, NULL},
    {"drill-bars", {'B'}, "drill down: a pane with every row's metric at the cursor's time, as bars", a_drill_bars, NULL,
     ARG_NONE, NULL},
    {"drill-partners", {'P'}, "drill down: a pane with the cursor location's traffic by partner over time",
     a_drill_partners, NULL, ARG_NONE, NULL},
    {"reducer", {'R'}, "next reducer for grouped rows (sum, mean, max, min-nonzero, mode), or the one named", a_reducer,
     "[NAME]", ARG_REDUCER, c_reducer},
    {"redraw", {CTRL('l')}, "redraw the screen", a_redraw, NULL, ARG_NONE, NULL},
    {NULL, {0}, NULL, NULL, NULL, ARG_NONE, NULL},
};

const Action *action_by_name(const char *name)
{
    for (const Action *a = ACTIONS; a->name; a++)
        if (!strcmp(a->name, name)) return a;
    return NULL;
}

const char *const HELP_EXTRA[][2] = {
    {"Esc", "close the help, a list, a prompt; clear the range marks or the list of a sync's participants"},
    {"Ctrl-C", "quit (in a prompt: cancel it; while a filter runs: cancel the filter)"},
    {"mouse", "click: the cursor to the cell and row; drag: mark a range (Enter zooms to it); wheel: zoom in/out there"},
    {"prompt", "in the prompts (/ t g :) Left Right, Home End (Ctrl-A Ctrl-E), Bksp Del (Ctrl-H Ctrl-D), Ctrl-U Ctrl-K "
               "(delete to the start, the end), Ctrl-W (the word before), Up Down (history), Tab (complete), Enter "
               "(apply), Esc Ctrl-G Ctrl-C (cancel)"},
    {"help", "j k Down Up scroll a line, PgDn Space PgUp ten; ? Esc q close; any other key closes it and does what it "
             "does"},
    {NULL, NULL},
};

const Action *action_for_key(int key)
{
    for (const Action *a = ACTIONS; a->name; a++)
        for (int i = 0; i < ACTION_KEYS && a->keys[i]; i++)
            if (a->keys[i] == key) return a;
    return NULL;
}
