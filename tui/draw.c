/*
 * draw.c — the interactive screen as a cell canvas: the current view (or
 * the split of density and Gantt), the statistics table and the event list,
 * the cursor, range marks and bookmarks on the time axis, the details
 * pane, the prompt with its error caret or live count, the help and
 * bookmark overlays, and the status line. No curses: screen.c blits the
 * canvas, and the tests and the latency benchmark draw it headless.
 *
 * Screen (h lines): the view area, then (while the prompt is open) a line
 * for the error or the count, a caret line and the prompt, then the status
 * line. The details pane takes the right third (or the bottom lines of a
 * narrow screen).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "analyses.h"
#include "app.h"
#include "evlist.h"
#include "commands.h"
#include "keys.h"
#include "legend.h"
#include "popup.h"
#include "base/out.h"
#include "base/timeparse.h"
#include "base/util.h"

/* copy canvas src into dst at (x, y) */
static void blit(Canvas *dst, const Canvas *src, int x, int y)
{
    for (int r = 0; r < src->h; r++)
        for (int q = 0; q < src->w; q++) {
            Cell *d = canvas_at(dst, x + q, y + r);
            if (d) *d = src->cells[(size_t)r * (size_t)src->w + (size_t)q];
        }
}

static void fill(Canvas *c, int x0, int y0, int w, int h, uint8_t role)
{
    for (int y = y0; y < y0 + h; y++) canvas_hline(c, x0, x0 + w, y, ' ', role, 0, 0);
}

/* ---- the areas ------------------------------------------------------------------------- */

typedef struct {
    int vw, vh;          /* the view area (at 0, 0) */
    int dx, dy, dw, dh;  /* the details pane (dw = 0: none) */
    int prompt_y;        /* the prompt's line, or -1 */
    int status_y;
} Areas;

static void areas(const App *A, Areas *r)
{
    memset(r, 0, sizeof *r);
    r->status_y = A->h - 1;
    int bottom = A->h - 1;
    r->prompt_y = -1;
    if (A->pmode != PM_NONE) {
        r->prompt_y = A->h - 4; /* then the caret line, the message line */
        bottom = A->h - 4;
    }
    r->vw = A->w;
    r->vh = bottom;
    if (A->details) {
        if (A->w >= 90) {
            r->dw = A->w / 3 < 60 ? A->w / 3 : 60;
            r->dx = A->w - r->dw;
            r->dy = 0;
            r->dh = bottom;
            r->vw = A->w - r->dw;
        } else {
            r->dh = bottom / 3;
            r->dw = A->w;
            r->dx = 0;
            r->dy = bottom - r->dh;
            r->vh = bottom - r->dh;
        }
    }
    if (r->vh < 6) r->vh = 6;
}

/* ---- the time views -------------------------------------------------------------------------- */

static void view_ctx(App *A, ViewCtx *ctx, int w, int h)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->S = A->S;
    ctx->s = A->s;
    ctx->w = w;
    ctx->h = h;
    ctx->reducer = A->reducer;
    ctx->subbins = A->opt_subbins > 0 ? A->opt_subbins : 8;
    ctx->t0 = A->t0;
    ctx->t1 = A->t1;
    ctx->mx = MX_BYTES;
    ctx->no_status = true;
    ctx->hl = A->Shl;
    ctx->filter_text = A->filter_text;
    ctx->no_marks = A->first_lite;
    ctx->msgs = A->ovl_msgs;
    ctx->marks = A->ovl_marks;
}

static void run_rows_view(App *A, const char *name, RowModel *M, MetricSpec *m, Canvas *c, int w, int h, int label_w,
                          bool cursor_rows)
{
    ViewCtx ctx;
    view_ctx(A, &ctx, w, h);
    ctx.label_w = label_w;
    if (m) {
        ctx.metric = *m;
        ctx.metric_set = true;
    }
    if (M) {
        if (M->dirty) app_rows_rebuild(A, M);
        ctx.rowset = &M->rs;
        ctx.rows = M->kind;
        if (cursor_rows) {
            /* keep the cursor row on the screen */
            int nl = view_row_lines(&ctx, name);
            if ((uint32_t)A->cur_row < A->row_off) A->row_off = (uint32_t)A->cur_row;
            if ((uint32_t)A->cur_row >= A->row_off + (uint32_t)nl) A->row_off = (uint32_t)A->cur_row - (uint32_t)nl + 1;
            ctx.row_off = A->row_off;
        }
    }
    char err[300];
    const ViewOps *v = view_by_name(name);
    if (!v->run(&ctx, c, NULL, err, sizeof err)) canvas_text(c, 0, 0, err, c->w, ROLE_WARN, 0);
    if (cursor_rows || !M) {
        A->lay_y0 = 0;
        A->lay_x0 = ctx.out_x0;
        A->lay_ncell = ctx.out_ncell;
        A->lay_nlines = ctx.out_nlines;
        A->lay_ng = ctx.out_ng;
    }
}

/* ---- the event list ------------------------------------------------------------------------------- */

#define EVLIST_CAP 1000000

static const App *g_evs_app;

static int cmp_ev(const void *a, const void *b)
{
    const App *A = g_evs_app;
    const Store *s = A->s;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int r = 0;
    switch (A->ev_sort) {
    case 1: r = s->dur[x] > s->dur[y] ? -1 : s->dur[x] < s->dur[y]; break;
    case 2: r = s->loc[x] < s->loc[y] ? -1 : s->loc[x] > s->loc[y]; break;
    case 3: r = s->act[x] < s->act[y] ? -1 : s->act[x] > s->act[y]; break;
    case 4: r = strcmp(kind_name(s, s->kind[x]), kind_name(s, s->kind[y])); break;
    case 5: r = strcmp(event_name(s, x), event_name(s, y)); break;
    default: break;
    }
    if (r) return r;
    if (s->ts[x] != s->ts[y]) return s->ts[x] < s->ts[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void build_evlist(App *A)
{
    const Store *s = A->s;
    free(A->evlist);
    size_t cap = 1024, n = 0;
    A->evlist = xmalloc(cap * sizeof(uint32_t));
    A->evlist_capped = false;
    const uint64_t *sel = A->ss.sel;
    for (uint32_t l = 0; l < s->nloc && !A->evlist_capped; l++) {
        size_t lo = s->locs[l].first, end = lo + s->locs[l].count, hi = end;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (s->ts[mid] < A->t0) lo = mid + 1;
            else hi = mid;
        }
        for (size_t e = lo; e < end && s->ts[e] < A->t1; e++) {
            if (sel && !((sel[e >> 6] >> (e & 63)) & 1)) continue;
            if (n == EVLIST_CAP) {
                A->evlist_capped = true;
                break;
            }
            if (n == cap) A->evlist = xrealloc(A->evlist, (cap *= 2) * sizeof(uint32_t));
            A->evlist[n++] = (uint32_t)e;
        }
    }
    A->nevlist = n;
    g_evs_app = A;
    qsort(A->evlist, n, sizeof(uint32_t), cmp_ev);
    g_evs_app = NULL;
    A->ev_t0 = A->t0;
    A->ev_t1 = A->t1;
    A->evlist_dirty = false;
    if (A->ev_cur >= n) A->ev_cur = n ? n - 1 : 0;
}

/* every selected event in time order, from the one under the list's
 * cursor (evlist.h): nothing is listed but the lines shown */
static void draw_events_time(App *A, Canvas *c, int w, int h)
{
    const Store *s = A->s;
    const uint64_t *sel = A->ss.sel;
    int rows = h - 2 < 1 ? 1 : h - 2;
    if (A->ev_at != NONE32 && (A->ev_at >= s->n || (sel && !((sel[A->ev_at >> 6] >> (A->ev_at & 63)) & 1))))
        A->ev_at = evorder_at(s, sel, A->ev_at < s->n ? s->ts[A->ev_at] : app_cursor_time(A)); /* (a new filter) */
    if (A->ev_at == NONE32) A->ev_at = evorder_at(s, sel, app_cursor_time(A));
    char hdr[200];
    snprintf(hdr, sizeof hdr, "%-14s %-10s %-8s %-10s %-8s %s", "time", "dur", "loc", "act", "kind", "name");
    canvas_text(c, 0, 0, hdr, w, ROLE_TITLE, ATTR_BOLD);
    canvas_put(c, 4, 0, c->ascii ? 'v' : 0x25BC, ROLE_TITLE, 0, ATTR_BOLD);
    if (A->ev_at == NONE32) {
        canvas_text(c, 0, 1, "no event is selected", w, ROLE_DIM, 0);
        return;
    }
    if (A->ev_row >= rows) A->ev_row = rows - 1;
    if (A->ev_row < 0) A->ev_row = 0;
    uint32_t *above = xmalloc((size_t)rows * sizeof *above), *below = xmalloc((size_t)rows * sizeof *below);
    size_t na = evorder_walk(s, sel, A->ev_at, -1, above, (size_t)A->ev_row);
    size_t nb = evorder_walk(s, sel, A->ev_at, +1, below, (size_t)rows - 1 - na);
    if (na + 1 + nb < (size_t)rows && na == (size_t)A->ev_row) /* (near the end: fill the lines from above) */
        na = evorder_walk(s, sel, A->ev_at, -1, above, (size_t)rows - 1 - nb);
    A->ev_row = (int)na;
    for (size_t r = 0; r < na + 1 + nb; r++) {
        uint32_t e = r < na ? above[na - 1 - r] : r == na ? A->ev_at : below[r - na - 1];
        char tb[48], db[48] = "", ab[160], line[400];
        format_dur(tb, sizeof tb, s->ts[e] - s->t_min);
        if (s->flags[e] & EVF_DUR) format_dur(db, sizeof db, s->dur[e]);
        snprintf(line, sizeof line, "%-14s %-10s %-8.8s %-10.10s %-8.8s %s", tb, db, loc_label(s, s->loc[e]),
                 act_label(s, s->act[e], ab, sizeof ab), kind_name(s, s->kind[e]), event_name(s, e));
        canvas_text(c, 0, 1 + (int)r, line, w, ROLE_DEFAULT, r == na ? ATTR_REVERSE : 0);
    }
    free(above);
    free(below);
    char foot[240];
    snprintf(foot, sizeof foot, "event %" PRIu64 " of %" PRIu64 " %s, in time order; Home/End: first/last; s: sort the "
             "window's events by a column; Enter: show in the Gantt",
             evorder_rank(s, sel, A->ev_at) + 1, A->ss.nsel, sel ? "selected" : "in the trace");
    canvas_text(c, 0, h - 1, foot, w, ROLE_DIM, 0);
}

static void draw_events(App *A, Canvas *c, int w, int h)
{
    if (A->ev_sort == 0) {
        draw_events_time(A, c, w, h);
        return;
    }
    const Store *s = A->s;
    if (A->evlist_dirty || A->ev_t0 != A->t0 || A->ev_t1 != A->t1) build_evlist(A);
    static const char *const COLS[6] = {"time", "dur", "loc", "act", "kind", "name"};
    char hdr[200];
    snprintf(hdr, sizeof hdr, "%-14s %-10s %-8s %-10s %-8s %s", COLS[0], COLS[1], COLS[2], COLS[3], COLS[4], COLS[5]);
    canvas_text(c, 0, 0, hdr, w, ROLE_TITLE, ATTR_BOLD);
    /* the sort column */
    static const int COLX[6] = {0, 15, 26, 35, 46, 55};
    canvas_put(c, COLX[A->ev_sort] + (int)strlen(COLS[A->ev_sort]), 0, c->ascii ? 'v' : 0x25BC, ROLE_TITLE, 0, ATTR_BOLD);
    int rows = h - 2;
    if (A->ev_cur < A->ev_off) A->ev_off = A->ev_cur;
    if (A->ev_cur >= A->ev_off + (size_t)rows) A->ev_off = A->ev_cur - (size_t)rows + 1;
    for (int r = 0; r < rows && A->ev_off + (size_t)r < A->nevlist; r++) {
        size_t i = A->ev_off + (size_t)r;
        uint32_t e = A->evlist[i];
        char tb[48], db[48] = "", ab[160], line[400];
        format_dur(tb, sizeof tb, s->ts[e] - s->t_min);
        if (s->flags[e] & EVF_DUR) format_dur(db, sizeof db, s->dur[e]);
        snprintf(line, sizeof line, "%-14s %-10s %-8.8s %-10.10s %-8.8s %s", tb, db, loc_label(s, s->loc[e]),
                 act_label(s, s->act[e], ab, sizeof ab), kind_name(s, s->kind[e]),
                 s->name[e] != NONE32 ? store_str(s, s->name[e]) : "");
        canvas_text(c, 0, 1 + r, line, w, ROLE_DEFAULT, i == A->ev_cur ? ATTR_REVERSE : 0);
    }
    char foot[200];
    snprintf(foot, sizeof foot, "%zu events start in the visible range%s; s: sort by the next column, Enter: show in the Gantt",
             A->nevlist, A->evlist_capped ? " (the first 1,000,000; zoom in for the rest)" : "");
    canvas_text(c, 0, h - 1, foot, w, ROLE_DIM, 0);
}

/* ---- overlays ----------------------------------------------------------------------------------- */

static void draw_cursor_and_marks(App *A, Canvas *c, int vh, int gantt_y)
{
    int x = A->lay_x0 + A->cur_col;
    int y = gantt_y + A->cur_row - (int)A->row_off;
    Cell *cell = canvas_at(c, x, y);
    if (cell && y >= gantt_y && y < gantt_y + A->lay_nlines) cell->attr ^= ATTR_REVERSE;
    /* the axis line of the (lower) view: cursor, range, bookmarks */
    int ya = A->lay_axis_y >= 0 ? A->lay_axis_y : vh - 2;
    if (ya < 0) return;
    Cell *ac = canvas_at(c, x, ya);
    if (ac) {
        ac->ch = c->ascii ? '^' : 0x25B2;
        ac->fg = ROLE_GLYPH;
        ac->attr |= ATTR_BOLD;
    }
    if (A->have_a) {
        int64_t a = A->mark_a, b = A->have_b ? A->mark_b : app_cell_start(A, A->cur_col + 1);
        if (b < a) {
            int64_t t = a;
            a = b;
            b = t;
        }
        for (int i = 0; i < A->lay_ncell; i++) {
            int64_t cs = app_cell_start(A, i), ce = app_cell_start(A, i + 1);
            if (ce > a && cs < b) {
                Cell *m = canvas_at(c, A->lay_x0 + i, ya);
                if (m && m != ac) {
                    m->ch = c->ascii ? '=' : 0x2550;
                    m->fg = ROLE_MSG;
                }
            }
        }
    }
    for (int k = 0; k < 26; k++) {
        if (!A->bm_set[k] || A->bm[k] < A->t0 || A->bm[k] >= A->t1) continue;
        for (int i = 0; i < A->lay_ncell; i++)
            if (app_cell_start(A, i) <= A->bm[k] && A->bm[k] < app_cell_start(A, i + 1)) {
                Cell *m = canvas_at(c, A->lay_x0 + i, ya);
                if (m) {
                    m->ch = (uint32_t)('a' + k);
                    m->fg = ROLE_GLYPH;
                    m->attr |= ATTR_BOLD;
                }
            }
    }
}

static void draw_details(App *A, Canvas *c, const Areas *r)
{
    fill(c, r->dx, r->dy, r->dw, r->dh, ROLE_DEFAULT);
    /* a rule on its left (or top) */
    if (r->dx > 0)
        for (int y = r->dy; y < r->dy + r->dh; y++) canvas_put(c, r->dx, y, 0x2502, ROLE_AXIS, 0, 0);
    else
        canvas_hline(c, 0, r->dw, r->dy, 0x2500, ROLE_AXIS, 0, 0);
    int x0 = r->dx > 0 ? r->dx + 1 : 0, y0 = r->dx > 0 ? r->dy : r->dy + 1;
    int w = r->dx > 0 ? r->dw - 1 : r->dw, h = r->dx > 0 ? r->dh : r->dh - 1;
    app_details_refresh(A);
    /* long lines wrap (continued lines indented): nothing is cut off */
    int tw = w - 1, ind = tw > 24 ? 4 : 0;
    if (tw < 2) return;
    int *row0 = xmalloc(((size_t)A->ndlines + 1) * sizeof(int));
    row0[0] = 0;
    for (int i = 0; i < A->ndlines; i++) {
        int rows = 0;
        for (const char *p = A->dlines[i]; *p || !rows; rows++) {
            size_t n = text_wrap(p, rows ? tw - ind : tw);
            p += n;
            if (!n) break;
        }
        row0[i + 1] = row0[i] + (rows ? rows : 1);
    }
    /* keep the focused event in sight */
    int fl = A->dfocus < A->ndev ? row0[A->dev[A->dfocus].line] : 0;
    if (fl < A->dscroll) A->dscroll = fl;
    if (fl >= A->dscroll + h - 2) A->dscroll = fl - h / 2;
    if (A->dscroll > row0[A->ndlines] - h) A->dscroll = row0[A->ndlines] - h;
    if (A->dscroll < 0) A->dscroll = 0;
    char piece[512];
    for (int i = 0; i < A->ndlines; i++) {
        if (row0[i + 1] <= A->dscroll) continue;
        if (row0[i] >= A->dscroll + h) break;
        uint8_t at = A->dattr[i] == 1 ? ATTR_BOLD : 0;
        uint8_t role = A->dattr[i] == 2 ? ROLE_MSG : A->dattr[i] == 1 ? ROLE_TITLE : ROLE_DEFAULT;
        const char *p = A->dlines[i];
        for (int ro = row0[i]; ro < row0[i + 1]; ro++) {
            int x = ro > row0[i] ? ind : 0;
            size_t n = text_wrap(p, tw - x);
            if (n >= sizeof piece) n = sizeof piece - 1;
            memcpy(piece, p, n);
            piece[n] = 0;
            p += n;
            int y = ro - A->dscroll;
            if (y >= 0 && y < h) canvas_text(c, x0 + 1 + x, y0 + y, piece, tw - x, role, at);
        }
    }
    free(row0);
}

static void draw_box(Canvas *c, int x, int y, int w, int h, const char *title) { canvas_box(c, x, y, w, h, title); }

/* the progress of the load, before there is an App: a box in the middle of
 * the screen (see app.h) */
void draw_loading(Canvas *c, const char *what, uint64_t done, uint64_t total, int phase, double elapsed_s,
                  bool cancelling)
{
    canvas_clear(c);
    int w = c->w - 4 < 64 ? c->w - 4 : 64, h = 6;
    if (w < 20) w = c->w;
    int x = (c->w - w) / 2, y = (c->h - h) / 2;
    if (y < 0) y = 0;
    draw_box(c, x, y, w, h, " tnav: loading ");
    canvas_text(c, x + 2, y + 1, what, w - 4, ROLE_LABEL, 0);
    int bw = w - 4, full = (int)((double)bw * load_progress_percent(done, total) / 100.0);
    for (int i = 0; i < bw; i++)
        canvas_put(c, x + 2 + i, y + 2, i < full ? 0x2588 : 0x2591, i < full ? ROLE_TITLE : ROLE_DIM, 0, 0);
    char t[160];
    load_progress_text(done, total, phase, elapsed_s, t, sizeof t);
    canvas_text(c, x + 2, y + 3, t, w - 4, ROLE_DEFAULT, ATTR_BOLD);
    canvas_text(c, x + 2, y + 4, cancelling ? "cancelling..." : "Esc: cancel", w - 4, ROLE_DIM, 0);
}

/* the help: generated from the table of actions (then the keys beyond it:
 * Esc, the mouse, the prompt), an entry's description wrapped under it; in
 * one or two columns, scrolled by A->help_off when it does not fit */
typedef struct {
    char keys[64];
    const char *text;
    char buf[512];
    int nl;   /* its lines */
    bool focus;
} HelpEnt;

static int help_lines(const char *text, int w)
{
    int n = 0;
    for (const char *p = text; *p; n++) {
        size_t l = text_wrap(p, w);
        if (!l) break;
        p += l;
        while (*p == ' ') p++;
    }
    return n ? n : 1;
}

static void draw_help(App *A, Canvas *c)
{
    int na = 0, nx = 0;
    while (ACTIONS[na].name) na++;
    while (HELP_EXTRA[nx][0]) nx++;
    int n = na + nx;
    int w = popup_width(c, 140);
    if (!w) return;
    int cols = w >= 112 ? 2 : 1, cw = (w - 2) / cols;
    int kw = cw >= 60 ? 16 : 12, tw = cw - kw - 3;
    if (tw < 8) tw = 8;
    HelpEnt *E = xcalloc((size_t)n, sizeof *E);
    int total = 0;
    for (int i = 0; i < n; i++) {
        HelpEnt *e = &E[i];
        if (i < na) {
            const Action *a = &ACTIONS[i];
            char kn[24];
            for (int k = 0; k < ACTION_KEYS && a->keys[k]; k++) {
                if (k) strcat(e->keys, " ");
                strcat(e->keys, tkey_name(a->keys[k], kn, sizeof kn));
            }
            if (!a->keys[0]) snprintf(e->keys, sizeof e->keys, ":%s", a->name);
            /* what it is as a command */
            snprintf(e->buf, sizeof e->buf, "%s  [:%s%s%s]", a->help, a->name, a->args ? " " : "", a->args ? a->args : "");
            e->text = e->buf;
            e->focus = i == A->help_focus;
        } else {
            snprintf(e->keys, sizeof e->keys, "%s", HELP_EXTRA[i - na][0]);
            e->text = HELP_EXTRA[i - na][1];
        }
        e->nl = help_lines(e->text, tw);
        total += e->nl;
    }
    /* the entries of each column, the first up to half the lines */
    int split = n, acc = 0;
    if (cols == 2)
        for (int i = 0; i < n; i++) {
            if (acc >= (total + 1) / 2) {
                split = i;
                break;
            }
            acc += E[i].nl;
        }
    int l1 = 0;
    for (int i = 0; i < split; i++) l1 += E[i].nl;
    int per = l1 > total - l1 ? l1 : total - l1;
    if (A->help_off < 0) {
        /* (:help NAME) its entry at the top */
        int y = 0;
        if (A->help_focus >= 0 && A->help_focus < n)
            for (int i = A->help_focus >= split ? split : 0; i < A->help_focus; i++) y += E[i].nl;
        A->help_off = y;
    }
    Popup P;
    popup_place(c, w, per, &A->help_off, &P);
    popup_frame(c, &P, A->help_off, per, "tnav keys", "? Esc q", "(another key closes it and acts)");
    int x = P.x, y = P.y, rows = P.rows;
    int line[2] = {0, 0};
    char piece[512];
    for (int i = 0; i < n; i++) {
        int col = i < split ? 0 : 1;
        int xx = x + 2 + col * cw;
        const char *p = E[i].text;
        for (int l = 0; l < E[i].nl; l++) {
            int row = line[col]++ - A->help_off;
            size_t len = text_wrap(p, tw);
            if (len >= sizeof piece) len = sizeof piece - 1;
            memcpy(piece, p, len);
            piece[len] = 0;
            p += len;
            while (*p == ' ') p++;
            if (row < 0 || row >= rows) continue;
            if (!l) canvas_text(c, xx, y + 1 + row, E[i].keys, kw, ROLE_GLYPH, ATTR_BOLD);
            canvas_text(c, xx + kw + 1, y + 1 + row, piece, tw, ROLE_DEFAULT, E[i].focus ? ATTR_REVERSE : 0);
        }
    }
    free(E);
}

static void draw_bookmarks(App *A, Canvas *c)
{
    int n = 0;
    for (int k = 0; k < 26; k++) n += A->bm_set[k];
    int w = c->w - 4 < 64 ? c->w - 4 : 64, h = (n ? n : 1) + 2;
    int x = (c->w - w) / 2, y = (c->h - h) / 2;
    draw_box(c, x, y, w, h, " bookmarks: a letter jumps, Esc closes ");
    if (!n) canvas_text(c, x + 2, y + 1, "none yet: m marks the cursor's time", w - 4, ROLE_DIM, 0);
    int row = 0;
    for (int k = 0; k < 26; k++) {
        if (!A->bm_set[k]) continue;
        char tb[48], line[120];
        format_dur(tb, sizeof tb, A->bm[k] - A->s->t_min);
        snprintf(line, sizeof line, "%c   +%-14s %s", 'a' + k, tb, A->bm_name[k]);
        canvas_text(c, x + 2, y + 1 + row++, line, w - 4, ROLE_DEFAULT, 0);
    }
}

static void draw_prompt(App *A, Canvas *c, const Areas *r)
{
    int y = r->prompt_y;
    const char *lead = A->pmode == PM_FILTER ? "/ " : A->pmode == PM_HIGHLIGHT ? "highlight: " : A->pmode == PM_COMMAND ? ":" : "go to: ";
    Prompt *P = app_prompt(A);
    /* the line, under it the caret, under that the message */
    fill(c, 0, y, c->w, 3, ROLE_DEFAULT);
    int lw = canvas_text(c, 0, y, lead, c->w, ROLE_TITLE, ATTR_BOLD);
    /* the line, scrolled so that the cursor shows */
    int avail = c->w - lw - 1;
    int cw = 0;
    {
        /* columns before the cursor */
        char save = P->buf[P->cur];
        P->buf[P->cur] = 0;
        cw = text_width(P->buf);
        P->buf[P->cur] = save;
    }
    int skip = cw >= avail ? cw - avail + 1 : 0;
    const char *p = P->buf;
    for (int k = 0; k < skip && *p;) {
        size_t l = utf8_seq_len((const unsigned char *)p, strlen(p));
        p += l ? l : 1;
        k++;
    }
    canvas_text(c, lw, y, p, avail, ROLE_DEFAULT, 0);
    Cell *cur = canvas_at(c, lw + cw - skip, y);
    if (cur) cur->attr |= ATTR_REVERSE;
    if (A->pmode == PM_GOTO) {
        canvas_text(c, 0, y + 2, "a time from the start of the trace (1.25s, 200us, 42 = ns) or a date-time", c->w, ROLE_DIM,
                    0);
    } else if (A->perr_set) {
        /* the message, and a caret under the culprit */
        char msg[320];
        snprintf(msg, sizeof msg, "%d:%d: %s", A->perr.line, A->perr.col, A->perr.msg);
        canvas_text(c, 0, y + 2, msg, c->w, ROLE_WARN, ATTR_BOLD);
        int col = lw + (A->perr.col - 1) - skip;
        int len = 0;
        {
            int s0 = A->perr.start, e0 = A->perr.end;
            for (int i = s0; i < e0 && P->buf[i]; i++)
                if (((unsigned char)P->buf[i] & 0xC0) != 0x80) len++;
        }
        if (len < 1) len = 1;
        for (int i = 0; i < len; i++) canvas_put(c, col + i, y + 1, i ? '~' : '^', ROLE_WARN, 0, ATTR_BOLD);
    } else if (A->pmode == PM_COMMAND) {
        char hint[400];
        cmdline_hint(A, hint, sizeof hint);
        canvas_text(c, 0, y + 2, hint, c->w, ROLE_DIM, 0);
    } else if (A->plive_ok) {
        char msg[160];
        snprintf(msg, sizeof msg, "%" PRIu64 " of %zu events match; Enter applies, Esc cancels, Tab completes", A->plive_count,
                 A->s->n);
        canvas_text(c, 0, y + 2, msg, c->w, ROLE_DIM, 0);
    } else if (A->msg[0] && P->len) {
        /* (the live count's note: too slow to count as one types, a regex that failed) */
        canvas_text(c, 0, y + 2, A->msg, c->w, ROLE_WARN, 0);
    } else {
        canvas_text(c, 0, y + 2, "type a filter (Up/Down: history, Tab: completion); an empty one clears it", c->w, ROLE_DIM,
                    0);
    }
}

/* ---- the frame -------------------------------------------------------------------------------------- */

/* ---- drill-down panes -------------------------------------------------------------------------- */

/* the lines of the main view when a drill-down pane is open under it (0:
 * no pane: none open, or the screen is too low for both) */
static int drill_top(const App *A, int h)
{
    if (A->drill == DR_NONE || h < 18) return 0;
    int ph = h / 3 < 8 ? 8 : h / 3;
    return h - ph;
}

/* the pane: a title line at v's line `top`, the chart under it, with the
 * same label column (12) as the main view so that time columns line up */
static void draw_drill(App *A, Canvas *v, int w, int top)
{
    const Store *s = A->s;
    int ph = v->h - top - 1;
    RowModel *M = app_rows(A);
    if (!M || ph < 4) return;
    if (M->dirty) app_rows_rebuild(A, M);
    if (A->cur_row < 0 || (uint32_t)A->cur_row >= M->rs.ng) return;
    uint32_t g = (uint32_t)A->cur_row, m0 = rowset_first(&M->rs, g), m1 = rowset_end(&M->rs, g);
    char lab[300], title[600], tb[48];
    rowset_label(&M->rs, A->S, g, lab, sizeof lab);
    MetricSpec busy = {M_BUSY, false, NULL}, comm = {A->comm_metric, false, NULL};
    MetricSpec m = A->view == V_DENSITY ? A->metric : busy;
    Canvas *b = canvas_new(w, ph, v->ascii, v->color);
    ViewCtx ctx;
    view_ctx(A, &ctx, w, ph);
    ctx.label_w = 12;
    ctx.metric = m;
    ctx.metric_set = true;
    ctx.rows = M->kind;
    char err[300] = "";
    bool ok = true;
    if (A->drill == DR_LINE) {
        ctx.chart_ids = M->rs.ids + m0;
        ctx.chart_nids = m1 - m0;
        ctx.chart_title = lab;
        snprintf(title, sizeof title, "line: %s of %s over time (the row under the cursor%s); L closes",
                 METRIC_NAMES[m.m], lab, m1 - m0 > 1 ? ", its rows combined" : "");
        ok = view_by_name("line")->run(&ctx, b, NULL, err, sizeof err);
    } else if (A->drill == DR_BARS) {
        ctx.have_at = true;
        ctx.at = app_cursor_time(A);
        ctx.t0 = A->t0;
        ctx.t1 = A->t1;
        format_dur(tb, sizeof tb, ctx.at - s->t_min);
        snprintf(title, sizeof title, "bars: %s of every %s at %s (the cursor's time); B closes", METRIC_NAMES[m.m],
                 M->kind == ROWS_LOC ? "location" : "activity", tb);
        ok = view_by_name("bars")->run(&ctx, b, NULL, err, sizeof err);
    } else {
        /* the location of the row (an activity's home), its pairs with messages */
        uint32_t loc = M->kind == ROWS_LOC ? M->rs.ids[m0] : s->acts[M->rs.ids[m0]].home;
        uint32_t n = 0;
        for (uint32_t p = 0; p < summary_npairs(A->S); p++) {
            uint32_t src, dst;
            summary_pair(A->S, p, &src, &dst);
            n += src == loc || dst == loc;
        }
        ctx.have_partner = true;
        ctx.partner = loc;
        ctx.rows = ROWS_PAIR;
        ctx.metric = comm;
        snprintf(title, sizeof title, "partners of %s: %s per pair over time (%u pairs)%s; P closes", loc_label(s, loc),
                 A->comm_metric == M_BYTES ? "bytes" : "messages", n,
                 M->kind == ROWS_LOC && m1 - m0 > 1 ? " (the group's first location)" : "");
        if (n) ok = view_by_name("comm")->run(&ctx, b, NULL, err, sizeof err);
        else canvas_text(b, 0, 0, "no message to or from this location", w, ROLE_DIM, 0);
    }
    if (!ok) canvas_text(b, 0, 0, err, w, ROLE_WARN, 0);
    canvas_hline(v, 0, w, top, ' ', ROLE_DEFAULT, 0, 0);
    canvas_text(v, 0, top, title, w, ROLE_TITLE, ATTR_BOLD);
    blit(v, b, 0, top + 1);
    canvas_free(b);
    A->lay_axis_y = A->drill == DR_BARS ? top - 2 : v->h - 2;
}

static void draw_views(App *A, Canvas *v)
{
    canvas_clear(v);
    int w = v->w, h = v->h;
    A->lay_axis_y = -1;
    int top = drill_top(A, h);
    bool rows_view = A->view == V_GANTT_LOC || A->view == V_GANTT_ACT || A->view == V_DENSITY || A->view == V_IMBALANCE;
    if (top && rows_view) {
        Canvas *a = canvas_new(w, top, v->ascii, v->color);
        const char *name = A->view == V_DENSITY ? "density" : A->view == V_IMBALANCE ? "imbalance" : "gantt";
        run_rows_view(A, name, app_rows(A), A->view == V_DENSITY ? &A->metric : NULL, a, w, top, 12, true);
        blit(v, a, 0, 0);
        canvas_free(a);
        draw_drill(A, v, w, top);
        return;
    }
    switch (A->view) {
    case V_GANTT_LOC:
    case V_GANTT_ACT: run_rows_view(A, "gantt", app_rows(A), NULL, v, w, h, 0, true); break;
    case V_DENSITY: run_rows_view(A, "density", app_rows(A), &A->metric, v, w, h, 0, true); break;
    case V_COMM: {
        MetricSpec m = {A->comm_metric, false, NULL};
        run_rows_view(A, "comm", NULL, &m, v, w, h, 0, false);
        A->lay_nlines = 0; /* (no row cursor) */
        break;
    }
    case V_MATRIX: {
        ViewCtx ctx;
        view_ctx(A, &ctx, w, h);
        if (A->have_a && A->have_b) {
            /* the matrix of the marked range ([ and ]) */
            ctx.t0 = A->mark_a < A->mark_b ? A->mark_a : A->mark_b;
            ctx.t1 = A->mark_a < A->mark_b ? A->mark_b : A->mark_a;
            if (ctx.t1 <= ctx.t0) ctx.t1 = ctx.t0 + 1;
        }
        char err[200];
        view_by_name("matrix")->run(&ctx, v, NULL, err, sizeof err);
        break;
    }
    case V_EVENTS: draw_events(A, v, w, h); break;
    case V_ANALYSES: analyses_draw(A, v, w, h); break;
    case V_IMBALANCE: run_rows_view(A, "imbalance", app_rows(A), NULL, v, w, h, 0, true); break;
    case V_SPLIT: {
        /* the density of every location (grouped to fit) over the Gantt,
         * the same columns for both */
        int st = h / 2 - 1 > 6 ? h / 2 - 1 : 6;
        if (st > h - 6) st = h - 6 > 3 ? h - 6 : 3;
        Canvas *a = canvas_new(w, st, v->ascii, v->color), *b = canvas_new(w, h - st, v->ascii, v->color);
        run_rows_view(A, "density", NULL, &A->metric, a, w, st, 12, false);
        run_rows_view(A, "gantt", app_rows(A), NULL, b, w, h - st, 12, true);
        A->lay_y0 = st; /* (the rows the cursor and the mouse work on) */
        blit(v, a, 0, 0);
        blit(v, b, 0, st);
        canvas_free(a);
        canvas_free(b);
        break;
    }
    default: break;
    }
}

void app_draw_views(App *A, Canvas *v) { draw_views(A, v); }

void app_draw(App *A, Canvas *c, int flags)
{
    /* (a first lite Gantt reads no message and no sync group: any other
     * frame has them built first) */
    if (A->s->tail_pending &&
        !(A->first_lite && (A->view == V_GANTT_LOC || A->view == V_GANTT_ACT) && A->drill == DR_NONE))
        app_finish_tail(A);
    app_budget_update(A);
    app_prompt_live(A);
    Areas r;
    areas(A, &r);
    canvas_clear(c);
    c->ascii = A->ascii;
    c->color = A->color;
    bool fresh = !A->vcache || A->vcache->w != r.vw || A->vcache->h != r.vh || !A->vcache_ok ||
                 (flags & (AF_REAGG | AF_REFILTER)) || A->view == V_EVENTS || A->drill != DR_NONE ||
                 A->view == V_ANALYSES;
    if (fresh) {
        if (!A->vcache || A->vcache->w != r.vw || A->vcache->h != r.vh) {
            canvas_free(A->vcache);
            A->vcache = canvas_new(r.vw, r.vh, A->ascii, A->color);
        }
        A->vcache->ascii = A->ascii;
        A->vcache->color = A->color;
        double tv = now_sec();
        int ncells = app_ncells(A);
        draw_views(A, A->vcache);
        app_regrid(A, ncells);
        if (getenv("TNAV_TIMING")) fprintf(stderr, "tnav: views %.1f ms\n", (now_sec() - tv) * 1e3);
        A->vcache_ok = true;
    }
    blit(c, A->vcache, 0, 0);
    analyses_overlay(A, c);
    bool time_view = A->view != V_MATRIX && A->view != V_EVENTS && A->view != V_COMM &&
                     A->view != V_ANALYSES;
    if (time_view) {
        int gy = A->view == V_SPLIT ? (r.vh / 2 - 1 > 6 ? r.vh / 2 - 1 : 6) : 0;
        if (A->view == V_SPLIT && gy > r.vh - 6) gy = r.vh - 6 > 3 ? r.vh - 6 : 3;
        draw_cursor_and_marks(A, c, r.vh, gy);
    }
    if (r.dw) draw_details(A, c, &r);
    if (A->pmode != PM_NONE) draw_prompt(A, c, &r);
    /* the status line */
    analyses_prepare_status(A);
    char st[4096];
    canvas_hline(c, 0, c->w, r.status_y, ' ', ROLE_STATUS, 0, 0);
    /* a transient message goes at the right end; the status is fitted
     * before it (its least important parts dropped first) */
    int mw = 0;
    if (A->msg[0]) {
        char m[300];
        snprintf(m, sizeof m, " %s ", A->msg);
        mw = text_width(m);
        if (mw > c->w * 2 / 3) mw = c->w * 2 / 3;
        canvas_text(c, c->w - mw, r.status_y, m, mw, ROLE_WARN, ATTR_BOLD | ATTR_REVERSE);
    }
    app_status_fit(A, st, sizeof st, c->w - mw - (mw ? 1 : 0));
    canvas_text(c, 0, r.status_y, st, c->w - mw - (mw ? 1 : 0), ROLE_STATUS, 0);
    if (A->show_legend) legend_draw(A, c);
    if (A->show_help) draw_help(A, c);
    if (A->show_bookmarks) draw_bookmarks(A, c);
}
