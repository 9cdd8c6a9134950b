/*
 * commands.c — the command line (`:`) and the commands that take an
 * argument; see commands.h.
 */
#include "commands.h"
#include "evlist.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "actions.h"
#include "analyses.h"
#include "keys.h"
#include "base/out.h"
#include "base/timeparse.h"
#include "base/util.h"
#include "filters/filter.h"

const char *const VIEW_CMD_NAMES[V__N] = {"gantt",  "activities", "density", "comm",     "matrix",
                                          "stats",  "events",     "split",   "analyses", "imbalance"};

/* ---- errors ------------------------------------------------------------------------------- */

/* the column (1-based) of byte offset off of the command line */
static int col_at(const App *A, int off)
{
    int c = 1;
    for (int i = 0; i < off && A->cmd.buf[i]; i++)
        if (((unsigned char)A->cmd.buf[i] & 0xC0) != 0x80) c++;
    return c;
}

static int cmd_error(App *A, int start, int end, const char *fmt, ...) PRINTF_LIKE(4, 5);
static int cmd_error(App *A, int start, int end, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(A->perr.msg, sizeof A->perr.msg, fmt, ap);
    va_end(ap);
    if (end <= start) end = start + 1;
    A->perr.line = 1;
    A->perr.start = start;
    A->perr.end = end;
    A->perr.col = col_at(A, start);
    A->perr_set = true;
    A->cmd_failed = true;
    return AF_REDRAW;
}

/* the words of an argument: up to max, their offsets in it */
static int split_words(const char *arg, char words[][256], int *offs, int max)
{
    int n = 0;
    const char *p = arg;
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        const char *q = p;
        while (*q && *q != ' ') q++;
        if (n < max) {
            size_t l = (size_t)(q - p) < 255 ? (size_t)(q - p) : 255;
            memcpy(words[n], p, l);
            words[n][l] = 0;
            offs[n] = (int)(p - arg);
        }
        n++;
        p = q;
    }
    return n;
}

/* ---- finding a command --------------------------------------------------------------------- */

/* exactly, else by an unambiguous prefix; *nmatch: how many it starts */
static const Action *find_action(const char *w, size_t wl, int *nmatch)
{
    const Action *one = NULL;
    int n = 0;
    for (const Action *a = ACTIONS; a->name; a++) {
        if (strlen(a->name) == wl && !strncmp(a->name, w, wl)) {
            *nmatch = 1;
            return a;
        }
        if (!strncmp(a->name, w, wl)) {
            one = a;
            n++;
        }
    }
    *nmatch = n;
    return n == 1 ? one : NULL;
}

int cmdline_run(App *A, const char *line)
{
    A->cmd_failed = false;
    A->perr_set = false;
    A->cmd_hint[0] = 0;
    const char *p = line;
    while (*p == ' ') p++;
    if (*p == ':') p++;
    while (*p == ' ') p++;
    const char *w = p;
    while (*p && *p != ' ') p++;
    size_t wl = (size_t)(p - w);
    int ws = (int)(w - line);
    if (!wl) {
        /* (nothing typed: as Esc) */
        A->pmode = PM_NONE;
        return AF_REDRAW;
    }
    int nm;
    const Action *a = find_action(w, wl, &nm);
    if (!a) {
        if (nm > 1) {
            char list[200] = "";
            size_t k = 0;
            for (const Action *b = ACTIONS; b->name && k + 40 < sizeof list; b++)
                if (!strncmp(b->name, w, wl)) k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", k ? ", " : "", b->name);
            return cmd_error(A, ws, ws + (int)wl, "ambiguous: %.*s is %s", (int)wl, w, list);
        }
        return cmd_error(A, ws, ws + (int)wl, "unknown command '%.*s' (Tab lists the commands)", (int)wl, w);
    }
    while (*p == ' ') p++;
    int off = (int)(p - line);
    char *arg = xstrdup(p);
    size_t al = strlen(arg);
    while (al && arg[al - 1] == ' ') arg[--al] = 0;
    int f;
    if (!al) {
        if (!a->fn || (a->args && a->args[0] != '[')) {
            f = cmd_error(A, off, off + 1, "%s needs %s", a->name, a->args ? a->args : "an argument");
        } else {
            A->pmode = PM_NONE;
            f = a->fn(A);
        }
    } else if (!a->cmd) {
        f = cmd_error(A, off, off + (int)al, "%s takes no argument", a->name);
    } else {
        PromptMode was = A->pmode;
        A->pmode = PM_NONE;
        f = a->cmd(A, arg, off);
        if (A->cmd_failed) A->pmode = was;
    }
    free(arg);
    return f;
}

/* ---- the commands ---------------------------------------------------------------------------- */

/* a bookmark by name, or -1 */
static int bookmark_named(const App *A, const char *name)
{
    for (int k = 0; k < 26; k++)
        if (A->bm_set[k] && A->bm_name[k][0] && !strcmp(A->bm_name[k], name)) return k;
    return -1;
}

int bookmark_set(App *A, const char *name)
{
    int k = name && *name ? bookmark_named(A, name) : -1;
    if (k < 0) {
        k = 0;
        while (k < 26 && A->bm_set[k]) k++;
        if (k == 26) {
            /* all taken: the oldest one goes */
            memmove(A->bm, A->bm + 1, 25 * sizeof(int64_t));
            memmove(A->bm_name, A->bm_name + 1, 25 * sizeof A->bm_name[0]);
            k = 25;
        }
    }
    A->bm_set[k] = true;
    A->bm[k] = app_cursor_time(A);
    snprintf(A->bm_name[k], sizeof A->bm_name[k], "%s", name ? name : "");
    return k;
}

/* a time: a bookmark's name, an offset from the start (1.5ms, 42 = ns) or
 * a date-time */
static bool parse_time(const App *A, const char *text, int64_t *t)
{
    int k = bookmark_named(A, text);
    if (k >= 0) {
        *t = A->bm[k];
        return true;
    }
    if (parse_rfc3339(text, strlen(text), t) == TP_OK) return true;
    if (parse_time_arg(text, 0, t) != TP_OK) return false;
    *t += A->s->t_min;
    return true;
}

int c_help(App *A, const char *arg, int off)
{
    int nm;
    const Action *a = find_action(arg, strlen(arg), &nm);
    if (!a) return cmd_error(A, off, off + (int)strlen(arg), "%s '%s'", nm > 1 ? "ambiguous:" : "no command", arg);
    /* the help, this command's entry at the top and marked */
    A->show_help = true;
    A->help_focus = (int)(a - ACTIONS);
    A->help_off = -1;
    snprintf(A->msg, sizeof A->msg, ":%s%s%s: %s", a->name, a->args ? " " : "", a->args ? a->args : "", a->help);
    return AF_REDRAW;
}

int c_goto(App *A, const char *arg, int off)
{
    int k = bookmark_named(A, arg);
    if (k >= 0) {
        app_pan_to(A, A->bm[k]);
        snprintf(A->msg, sizeof A->msg, "bookmark %c (%s)", 'a' + k, A->bm_name[k]);
        return AF_REAGG;
    }
    if (!app_goto(A, arg))
        return cmd_error(A, off, off + (int)strlen(arg),
                         "not a time in the trace (1.25s, 200us, a date-time) nor a bookmark's name");
    return AF_REAGG;
}

int c_zoom(App *A, const char *arg, int off)
{
    char w[3][256];
    int o[3];
    int n = split_words(arg, w, o, 3);
    if (n != 2)
        return cmd_error(A, off + (n > 2 ? o[2] : 0), off + (int)strlen(arg), "zoom needs FROM TO (two times)");
    int64_t t[2];
    for (int i = 0; i < 2; i++)
        if (!parse_time(A, w[i], &t[i]))
            return cmd_error(A, off + o[i], off + o[i] + (int)strlen(w[i]), "not a time (1.25s, 200us, a date-time) nor a bookmark");
    if (t[1] <= t[0]) return cmd_error(A, off + o[1], off + o[1] + (int)strlen(w[1]), "TO must be after FROM");
    app_show(A, t[0], t[1], t[0]);
    A->have_a = A->have_b = false;
    return AF_REAGG;
}

static int filter_cmd(App *A, const char *arg, int off, bool hl)
{
    if (!app_apply_filter(A, arg, hl)) {
        /* the error's place in the line */
        A->perr.start += off;
        A->perr.end += off;
        A->perr.col = col_at(A, A->perr.start);
        A->perr.line = 1;
        A->cmd_failed = true;
        return AF_REDRAW;
    }
    return hl ? AF_REAGG : AF_REFILTER;
}
int c_filter(App *A, const char *arg, int off) { return filter_cmd(A, arg, off, false); }
int c_highlight(App *A, const char *arg, int off) { return filter_cmd(A, arg, off, true); }

int c_view(App *A, const char *arg, int off)
{
    int v = -1;
    for (int i = 0; i < V__N; i++)
        if (!strcmp(arg, VIEW_CMD_NAMES[i])) v = i;
    if (!strcmp(arg, "gantt-loc")) v = V_GANTT_LOC;
    if (!strcmp(arg, "gantt-act")) v = V_GANTT_ACT;
    if (arg[0] >= '1' && arg[0] <= '9' && !arg[1]) v = arg[0] - '1';
    int tab = -1;
    for (int i = 0; i < AT__N; i++) {
        char b[32];
        snprintf(b, sizeof b, "%s", AN_TAB_NAMES[i]);
        for (char *q = b; *q; q++)
            if (*q == ' ') *q = '-';
        if (!strcmp(arg, b)) tab = i;
    }
    if (tab >= 0) v = V_ANALYSES;
    if (v < 0) return cmd_error(A, off, off + (int)strlen(arg), "no view '%s' (Tab lists them)", arg);
    if (A->view != (ViewId)v) {
        app_set_view(A, (ViewId)v);
        A->participants_of = NONE32;
    }
    if (tab >= 0) analyses_set_tab(A, (AnTab)tab);
    return AF_REAGG;
}

int c_metric(App *A, const char *arg, int off)
{
    if (A->view == V_COMM) {
        if (strcmp(arg, "bytes") != 0 && strcmp(arg, "events") != 0)
            return cmd_error(A, off, off + (int)strlen(arg), "the comm view shows bytes or events, not '%s'", arg);
        A->comm_metric = arg[0] == 'b' ? M_BYTES : M_EVENTS;
        snprintf(A->msg, sizeof A->msg, "comm metric: %s", arg);
        return AF_REAGG;
    }
    for (int m = 0; m < M__N; m++)
        if (m != M_EXPR && !strcmp(arg, METRIC_NAMES[m])) {
            A->metric.m = (Metric)m;
            A->metric.expr = NULL;
            snprintf(A->msg, sizeof A->msg, "metric: %s", METRIC_NAMES[m]);
            return AF_REAGG;
        }
    return cmd_error(A, off, off + (int)strlen(arg), "no metric '%s' (busy, sync, bytes, events, counter)", arg);
}

int c_reducer(App *A, const char *arg, int off)
{
    for (int r = 0; r < RED__N; r++)
        if (!strcmp(arg, REDUCER_NAMES[r])) {
            A->reducer = (Reducer)r;
            snprintf(A->msg, sizeof A->msg, "reducer: %s", REDUCER_NAMES[r]);
            return AF_REAGG;
        }
    return cmd_error(A, off, off + (int)strlen(arg), "no reducer '%s' (sum, mean, max, min-nonzero, mode)", arg);
}

static const char *const EV_COLS[] = {"time", "dur", "loc", "act", "kind", "name"};
static const char *const ROW_SORTS[SORT__N] = {"natural", "name", "busy", "window"};

/* the columns :sort takes in the view shown */
static int sort_columns(App *A, const char **out, int max)
{
    int n = 0;
    if (A->view == V_ANALYSES) return analyses_columns(A, out, max);
    if (A->view == V_EVENTS)
        for (int i = 0; i < 6 && n < max; i++) out[n++] = EV_COLS[i];
    else if (app_rows(A))
        for (int i = 0; i < SORT__N && n < max; i++) out[n++] = ROW_SORTS[i];
    return n;
}

int c_sort(App *A, const char *arg, int off)
{
    /* (a leading - sorts the other way, in the analyses' tables) */
    bool rev = arg[0] == '-';
    const char *col = arg + rev;
    const char *cols[32];
    int n = sort_columns(A, cols, 32), k = -1;
    for (int i = 0; i < n; i++)
        if (!strcmp(cols[i], col)) k = i;
    if (!n) return cmd_error(A, off, off + (int)strlen(arg), "the %s view has no sort", VIEW_TITLES[A->view]);
    if (k < 0) {
        char list[200] = "";
        size_t l = 0;
        for (int i = 0; i < n && l + 30 < sizeof list; i++) l += (size_t)snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", cols[i]);
        return cmd_error(A, off, off + (int)strlen(arg), "no column '%s' here (%s)", col, list);
    }
    if (A->view == V_ANALYSES) {
        analyses_sort_by(A, col, rev);
        return AF_REDRAW;
    }
    if (rev) return cmd_error(A, off, off + 1, "only the analyses' tables sort the other way");
    if (A->view == V_EVENTS) {
        A->ev_sort = k;
        A->evlist_dirty = true;
        snprintf(A->msg, sizeof A->msg, "events sorted by %s", col);
        return AF_REAGG;
    }
    RowModel *M = app_rows(A);
    M->sort = (RowSort)k;
    M->dirty = true;
    A->cur_row = 0;
    A->row_off = 0;
    snprintf(A->msg, sizeof A->msg, "rows sorted by %s", SORT_NAMES[k]);
    return AF_REAGG;
}

int c_mark(App *A, const char *arg, int off)
{
    if (strlen(arg) >= sizeof A->bm_name[0])
        return cmd_error(A, off, off + (int)strlen(arg), "a bookmark's name is at most %zu bytes", sizeof A->bm_name[0] - 1);
    for (const char *q = arg; *q; q++)
        if ((unsigned char)*q < 0x20) return cmd_error(A, off + (int)(q - arg), off + (int)(q - arg) + 1, "a control character");
    int k = bookmark_set(A, arg);
    snprintf(A->msg, sizeof A->msg, "bookmark %c '%s' set; ' lists them, :goto %s goes there", 'a' + k, arg, arg);
    return AF_REDRAW;
}

/* ---- :save ---------------------------------------------------------------------------------- */

static void csv_text(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    putc('"', f);
    for (; *s; s++) {
        if (*s == '"') putc('"', f);
        putc(*s, f);
    }
    putc('"', f);
}

/* one event as a CSV row, its time in ns from the start */
static void save_event(const Store *s, FILE *f, uint32_t e)
{
    char ab[160];
    fprintf(f, "%" PRId64 ",", s->ts[e] - s->t_min);
    if (s->flags[e] & EVF_DUR) fprintf(f, "%" PRId64, s->dur[e]);
    putc(',', f);
    csv_text(f, loc_label(s, s->loc[e]));
    putc(',', f);
    csv_text(f, act_label(s, s->act[e], ab, sizeof ab));
    putc(',', f);
    csv_text(f, kind_name(s, s->kind[e]));
    putc(',', f);
    csv_text(f, s->name[e] != NONE32 ? store_str(s, s->name[e]) : "");
    putc('\n', f);
}

/* the event list: the events (of the filter) starting in the window, in
 * the order shown: time order across locations (evlist.h), or the
 * column's order of the window's list */
static bool save_events(App *A, FILE *f, size_t *rows)
{
    const Store *s = A->s;
    fprintf(f, "time,dur,loc,act,kind,name\n");
    *rows = 0;
    if (A->ev_sort) {
        for (size_t i = 0; i < A->nevlist; i++) save_event(s, f, A->evlist[i]);
        *rows = A->nevlist;
        return true;
    }
    uint32_t e = evorder_at(s, A->ss.sel, A->t0), buf[4096];
    if (e == NONE32 || s->ts[e] < A->t0 || s->ts[e] >= A->t1) return true;
    save_event(s, f, e);
    (*rows)++;
    for (;;) {
        size_t n = evorder_walk(s, A->ss.sel, e, +1, buf, sizeof buf / sizeof buf[0]);
        for (size_t i = 0; i < n; i++) {
            if (s->ts[buf[i]] >= A->t1) return true;
            save_event(s, f, buf[i]);
            (*rows)++;
        }
        if (n < sizeof buf / sizeof buf[0]) return true;
        e = buf[n - 1];
    }
}

int c_save(App *A, const char *arg, int off)
{
    char path[4096];
    const char *home = getenv("HOME");
    if (arg[0] == '~' && arg[1] == '/' && home) snprintf(path, sizeof path, "%s%s", home, arg + 1);
    else snprintf(path, sizeof path, "%s", arg);
    size_t pl = strlen(path);
    bool as_text = pl > 4 && !strcmp(path + pl - 4, ".txt");
    if (A->view == V_ANALYSES && !as_text) return analyses_save_to(A, path);
    bool table = A->view == V_EVENTS && !as_text;
    Canvas *v = NULL;
    if (A->view == V_EVENTS && A->ev_sort && (A->evlist_dirty || A->ev_t0 != A->t0 || A->ev_t1 != A->t1)) {
        /* (not drawn yet for this window: keys that came together) */
        v = canvas_new(A->w, A->h - 1 > 6 ? A->h - 1 : 6, A->ascii, A->color);
        app_draw_views(A, v);
        canvas_free(v);
        v = NULL;
    }
    /* a view: drawn again at the size of the screen's view area without
     * the prompt (as tnav render draws it at that size) */
    if (!table) {
        v = canvas_new(A->w, A->h - 1 > 6 ? A->h - 1 : 6, A->ascii, A->color);
        app_draw_views(A, v);
    }
    AtomicFile af;
    if (!atomic_open(&af, path, false)) {
        snprintf(A->msg, sizeof A->msg, "could not write %.200s: %s", path, strerror(errno));
        canvas_free(v);
        return AF_REDRAW;
    }
    size_t rows = 0;
    if (table) save_events(A, af.f, &rows);
    else canvas_write_text(v, af.f);
    bool ok = atomic_commit(&af, !ferror(af.f));
    if (!ok) snprintf(A->msg, sizeof A->msg, "could not write %.200s: %s", path, strerror(errno));
    else if (table) snprintf(A->msg, sizeof A->msg, "wrote %zu rows to %.200s", rows, path);
    else snprintf(A->msg, sizeof A->msg, "wrote the %s view (%dx%d) to %.200s", VIEW_TITLES[A->view], v->w, v->h, path);
    canvas_free(v);
    return AF_REAGG; /* (the views are laid out for the screen again) */
}

/* ---- :set ----------------------------------------------------------------------------------- */

static const char *const OPTS[] = {"ascii",          "color",  "details", "marks",   "messages", "instants",
                                   "filter-timeout", "metric", "reducer", "sub-bins", NULL};
static const char *const BOOL_VALUES[] = {"on", "off", NULL};

/* on/off (yes/no, true/false, 1/0); none: the other way (-1: not one) */
static int parse_bool(const char *v, bool cur)
{
    if (!*v) return !cur;
    if (!strcmp(v, "on") || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1")) return 1;
    if (!strcmp(v, "off") || !strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0")) return 0;
    return -1;
}

int c_set(App *A, const char *arg, int off)
{
    char w[3][256];
    int o[3];
    int n = split_words(arg, w, o, 3);
    if (n > 2) return cmd_error(A, off + o[2], off + (int)strlen(arg), "set takes OPTION and one VALUE");
    const char *v = n > 1 ? w[1] : "";
    int vs = off + (n > 1 ? o[1] : (int)strlen(arg)), ve = vs + (int)strlen(v);
    bool *flag = NULL, invert = false;
    if (!strcmp(w[0], "ascii")) flag = &A->ascii;
    else if (!strcmp(w[0], "color") || !strcmp(w[0], "colour")) flag = &A->color;
    else if (!strcmp(w[0], "details")) flag = &A->details;
    if (!strcmp(w[0], "marks")) {
        /* the Gantt's instants and message arrivals together: on (auto) or off */
        int b = parse_bool(v, A->ovl_marks == OVL_OFF && A->ovl_msgs == OVL_OFF);
        if (b < 0) return cmd_error(A, vs, ve, "marks is on or off, not '%s'", v);
        A->ovl_marks = A->ovl_msgs = b ? OVL_AUTO : OVL_OFF;
        snprintf(A->msg, sizeof A->msg, "marks: %s", b ? "on (auto)" : "off");
        return AF_REAGG;
    }
    if (!strcmp(w[0], "messages") || !strcmp(w[0], "instants")) {
        OverlayMode *m = w[0][0] == 'm' ? &A->ovl_msgs : &A->ovl_marks;
        int k = -1;
        for (int i = 0; i < OVL__N; i++)
            if (!strcmp(v, OVL_NAMES[i])) k = i;
        if (k < 0) return cmd_error(A, vs, ve, "%s is auto, all or off, not '%s'", w[0], v);
        *m = (OverlayMode)k;
        snprintf(A->msg, sizeof A->msg, "%.40s on the Gantt: %s", w[0], OVL_NAMES[k]);
        return AF_REAGG;
    }
    if (flag) {
        int b = parse_bool(v, invert ? !*flag : *flag);
        if (b < 0) return cmd_error(A, vs, ve, "%s is on or off, not '%s'", w[0], v);
        *flag = invert ? !b : b;
        A->vcache_ok = false;
        snprintf(A->msg, sizeof A->msg, "%.40s: %s", w[0], b ? "on" : "off");
        return AF_REAGG;
    }
    if (!strcmp(w[0], "filter-timeout")) {
        double t;
        if (!parse_real_arg(v, &t) || !(t >= 0) || t > 1e6)
            return cmd_error(A, vs, ve, "filter-timeout is a number of seconds (0: no limit)");
        filter_set_default_budget(t);
        snprintf(A->msg, sizeof A->msg, "filter-timeout: %g s%s", t, t > 0 ? "" : " (no limit)");
        return AF_REDRAW;
    }
    if (!strcmp(w[0], "sub-bins")) {
        int64_t b;
        if (!parse_int_arg(v, 1, 64, &b)) return cmd_error(A, vs, ve, "sub-bins is 1..64 (as tnav render --sub-bins)");
        A->opt_subbins = (int)b;
        snprintf(A->msg, sizeof A->msg, "sub-bins: %" PRId64 " (max, min-nonzero and mode look at %" PRId64 " bins a cell)", b,
                 b);
        return AF_REAGG;
    }
    if (!strcmp(w[0], "metric") || !strcmp(w[0], "reducer")) {
        if (!*v) return cmd_error(A, vs, ve, "%s needs a VALUE", w[0]);
        return w[0][0] == 'm' ? c_metric(A, v, vs) : c_reducer(A, v, vs);
    }
    return cmd_error(A, off + o[0], off + o[0] + (int)strlen(w[0]),
                     "no option '%s' (ascii, color, details, marks, messages, instants, filter-timeout, metric, reducer, "
                     "sub-bins)",
                     w[0]);
}

/* ---- completion ------------------------------------------------------------------------------- */

static char g_cand[128][256];

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* the entries of the directory of prefix that start with its last part;
 * directories end with / */
static int file_candidates(const char *prefix, const char **out, int max)
{
    const char *slash = strrchr(prefix, '/');
    char dir[4096];
    const char *base = slash ? slash + 1 : prefix;
    const char *home = getenv("HOME");
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (prefix[0] == '~' && prefix[1] == '/' && home)
        snprintf(dir, sizeof dir, "%s%.*s", home, (int)(slash - prefix - 1) + 1, prefix + 1);
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - prefix) + 1, prefix);
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    size_t bl = strlen(base);
    struct dirent *de;
    while ((de = readdir(d)) && n < max && n < 128) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        if (de->d_name[0] == '.' && base[0] != '.') continue;
        if (strncmp(de->d_name, base, bl) != 0) continue;
        char full[8192];
        snprintf(full, sizeof full, "%s/%s", dir, de->d_name);
        struct stat st;
        bool isdir = stat(full, &st) == 0 && S_ISDIR(st.st_mode);
        int w = snprintf(g_cand[n], sizeof g_cand[n], "%.*s%s%s", (int)(base - prefix), prefix, de->d_name, isdir ? "/" : "");
        if (w >= (int)sizeof g_cand[n]) continue;
        out[n] = g_cand[n];
        n++;
    }
    closedir(d);
    qsort(out, (size_t)n, sizeof *out, cmp_str);
    return n;
}

int cmdline_candidates(App *A, int kind, int argi, const char *opt, const char *prefix, const char **out, int max)
{
    const char *all[128];
    int n = 0, k = 0;
    switch (kind) {
    case ARG_COMMAND:
        for (const Action *a = ACTIONS; a->name && n < 128; a++) all[n++] = a->name;
        qsort(all, (size_t)n, sizeof *all, cmp_str);
        break;
    case ARG_VIEW:
        if (argi) break;
        for (int i = 0; i < V__N; i++) all[n++] = VIEW_CMD_NAMES[i];
        for (int i = 0; i < AT__N; i++) {
            snprintf(g_cand[i], sizeof g_cand[i], "%s", AN_TAB_NAMES[i]);
            for (char *q = g_cand[i]; *q; q++)
                if (*q == ' ') *q = '-';
            all[n++] = g_cand[i];
        }
        break;
    case ARG_METRIC:
        if (argi) break;
        for (int m = 0; m < M__N; m++)
            if (m != M_EXPR) all[n++] = METRIC_NAMES[m];
        break;
    case ARG_REDUCER:
        if (argi) break;
        for (int r = 0; r < RED__N; r++) all[n++] = REDUCER_NAMES[r];
        break;
    case ARG_COLUMN:
        if (!argi) n = sort_columns(A, all, 64);
        break;
    case ARG_TIME:
        for (int b = 0; b < 26; b++)
            if (A->bm_set[b] && A->bm_name[b][0] && !strchr(A->bm_name[b], ' ')) all[n++] = A->bm_name[b];
        break;
    case ARG_OPTION:
        if (argi == 0)
            for (int i = 0; OPTS[i]; i++) all[n++] = OPTS[i];
        else if (argi == 1 && opt && !strcmp(opt, "metric"))
            return cmdline_candidates(A, ARG_METRIC, 0, NULL, prefix, out, max);
        else if (argi == 1 && opt && !strcmp(opt, "reducer"))
            return cmdline_candidates(A, ARG_REDUCER, 0, NULL, prefix, out, max);
        else if (argi == 1 && opt && strcmp(opt, "filter-timeout") != 0 && strcmp(opt, "sub-bins") != 0)
            for (int i = 0; BOOL_VALUES[i]; i++) all[n++] = BOOL_VALUES[i];
        break;
    case ARG_FILE: return argi ? 0 : file_candidates(prefix, out, max);
    default: break;
    }
    size_t pl = strlen(prefix);
    for (int i = 0; i < n && k < max; i++)
        if (!strncmp(all[i], prefix, pl)) out[k++] = all[i];
    return k;
}

/* the command word of the line and where its argument starts */
typedef struct {
    const Action *a;
    int nmatch;
    size_t ws, we; /* the command word */
} Parsed;

static void parse_head(const char *buf, Parsed *P)
{
    size_t i = 0;
    while (buf[i] == ' ') i++;
    if (buf[i] == ':') i++;
    while (buf[i] == ' ') i++;
    P->ws = i;
    while (buf[i] && buf[i] != ' ') i++;
    P->we = i;
    P->a = P->we > P->ws ? find_action(buf + P->ws, P->we - P->ws, &P->nmatch) : NULL;
}

static void list_hint(App *A, const char *const *cand, int k)
{
    A->cmd_hint[0] = 0;
    if (k < 2) return;
    size_t l = 0;
    for (int i = 0; i < k && l + 2 < sizeof A->cmd_hint; i++)
        l += (size_t)snprintf(A->cmd_hint + l, sizeof A->cmd_hint - l, "%s%s", i ? "  " : "", cand[i]);
}

bool cmdline_complete(App *A)
{
    Prompt *p = &A->cmd;
    Parsed P;
    parse_head(p->buf, &P);
    const char *cand[128];
    int k;
    size_t start;
    if (p->cur <= P.we) {
        /* the command's name */
        char pre[128];
        size_t n = p->cur > P.ws ? p->cur - P.ws : 0;
        if (n >= sizeof pre) return false;
        memcpy(pre, p->buf + P.ws, n);
        pre[n] = 0;
        k = cmdline_candidates(A, ARG_COMMAND, 0, NULL, pre, cand, 128);
        start = P.ws;
    } else {
        if (!P.a) {
            A->cmd_hint[0] = 0;
            return false;
        }
        if (P.a->arg == ARG_EXPR) {
            /* a filter's words */
            start = prompt_word_start(p);
            char pre[128];
            size_t n = p->cur - start;
            if (n >= sizeof pre) return false;
            memcpy(pre, p->buf + start, n);
            pre[n] = 0;
            k = app_complete(A, pre, cand, 64);
        } else {
            /* the word before the cursor, which argument it is */
            start = p->cur;
            while (start > P.we && p->buf[start - 1] != ' ') start--;
            int argi = 0;
            char opt[64] = "";
            for (size_t i = P.we; i < start;) {
                while (i < start && p->buf[i] == ' ') i++;
                if (i >= start) break;
                size_t j = i;
                while (j < start && p->buf[j] != ' ') j++;
                if (!argi) snprintf(opt, sizeof opt, "%.*s", (int)(j - i), p->buf + i);
                argi++;
                i = j;
            }
            char pre[256];
            size_t n = p->cur - start;
            if (n >= sizeof pre) return false;
            memcpy(pre, p->buf + start, n);
            pre[n] = 0;
            k = cmdline_candidates(A, P.a->arg, argi, opt, pre, cand, 128);
        }
    }
    list_hint(A, cand, k);
    if (!k) snprintf(A->cmd_hint, sizeof A->cmd_hint, "(nothing to complete)");
    return prompt_complete_with(p, start, cand, k, P.a == NULL || p->cur <= P.we || P.a->arg != ARG_EXPR) > 0;
}

void cmdline_hint(App *A, char *buf, size_t sz)
{
    Parsed P;
    parse_head(A->cmd.buf, &P);
    if (A->cmd_hint[0]) {
        snprintf(buf, sz, "%s", A->cmd_hint);
        return;
    }
    if (P.a && (P.nmatch == 1 || A->cmd.len > P.we)) {
        char kn[24], keys[64] = "";
        for (int i = 0; i < ACTION_KEYS && P.a->keys[i]; i++) {
            size_t l = strlen(keys);
            snprintf(keys + l, sizeof keys - l, "%s%s", i ? " " : "", tkey_name(P.a->keys[i], kn, sizeof kn));
        }
        snprintf(buf, sz, ":%s%s%s  %s%s%s%s", P.a->name, P.a->args ? " " : "", P.a->args ? P.a->args : "", P.a->help,
                 keys[0] ? " (key " : "", keys, keys[0] ? ")" : "");
        return;
    }
    snprintf(buf, sz, "a command: Tab completes, Up/Down: history, Enter runs, Esc cancels; :help NAME describes one");
}
