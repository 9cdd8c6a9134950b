/*
 * tui_unit.c — unit tests of the interactive interface without a terminal:
 * the table of actions and its key bindings, the help generated from it,
 * the prompt's line editing, completion and history file, and an App on
 * the sample traces driven by key codes (zoom, pan, go to, marks, filter
 * and highlight, n/N, bookmarks, rows, details, mouse), with its frames
 * read back as text from the cell canvas.
 *
 * Owns: nothing beyond the tests.
 * Invariants: no curses; $XDG_STATE_HOME points into a temp directory so
 * the user's history is never touched; every test can fail; the run ends
 * with "tui-unit: P passed, F failed".
 */
#include <dirent.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/stats.h"
#include "analysis/syncs.h"
#include "analysis/timecat.h"
#include "base/out.h"
#include "tui/actions.h"
#include "tui/analyses.h"
#include "tui/app.h"
#include "tui/evlist.h"
#include "tui/legend.h"
#include "tui/session.h"
#include "check.h"
#include "tui/keys.h"
#include "tui/prompt.h"
#include "store/store.h"
#include "base/timeparse.h"
#include "base/util.h"
#include "jsondom.h"
#include "tui/analyses.h"

static char g_tmpdir[256];

/* ---- helpers ------------------------------------------------------------ */

/* the code point of the UTF-8 sequence at q (its length in *len, 0 when invalid) */
static int decode(const unsigned char *q, size_t *len)
{
    size_t l = utf8_seq_len(q, strlen((const char *)q));
    *len = l;
    if (l <= 1) return q[0];
    int cp = q[0] & (0x7f >> l);
    for (size_t i = 1; i < l; i++) cp = (cp << 6) | (q[i] & 0x3f);
    return cp;
}

/* the columns of the first n bytes of a line (every character here is one column) */
static int cols_of(const char *s, size_t n)
{
    int c = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) c++;
    return c;
}


typedef struct {
    App A;
    CliArgs args;
    Canvas *c;
    bool ok;
} T;

static void frame(T *t, int flags)
{
    app_draw(&t->A, t->c, flags | AF_REAGG);
}

/* open a trace as the interface does, without drawing (defer: the load
 * leaves the messages and sync groups for after the first frame) */
static bool open_app_defer(T *t, const char *trace, int w, int h, bool defer)
{
    memset(t, 0, sizeof *t);
    char *argv[] = {"tui", (char *)trace, NULL};
    if (cli_parse("tui", 2, argv, 1, &t->args) != 0) return false;
    t->args.load.defer_tail = defer;
    Session ss;
    if (session_open("tui", &t->args, &ss) != 0) {
        cli_free(&t->args);
        return false;
    }
    app_init(&t->A, &ss, &t->args, w, h, false, true);
    t->c = canvas_new(w, h, false, true);
    t->ok = true;
    return true;
}

static bool open_app(T *t, const char *trace, int w, int h)
{
    if (!open_app_defer(t, trace, w, h, false)) return false;
    frame(t, AF_REFILTER);
    return true;
}

static void close_app(T *t)
{
    if (!t->ok) return;
    Session ss = t->A.ss;
    app_free(&t->A);
    session_close(&ss);
    canvas_free(t->c);
    cli_free(&t->args);
    t->ok = false;
}

/* press keys (a string of characters, plus specials in `specials`) and
 * draw a frame after each, as the terminal loop does; the flags of all */
static int keys(T *t, const char *s)
{
    int fl = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t l;
        int k = decode(p, &l);
        p += l ? l : 1;
        int f = app_key(&t->A, k == '\n' ? TK_ENTER : k);
        app_draw(&t->A, t->c, f);
        fl |= f;
    }
    return fl;
}

static int key(T *t, int k)
{
    int f = app_key(&t->A, k);
    app_draw(&t->A, t->c, f);
    return f;
}

/* the frame as text (UTF-8 lines) */
static char *screen(T *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    canvas_write_text(t->c, f);
    fclose(f);
    return buf;
}

/* the length of text's lines but its last (the status line) */
static size_t above_last_line(const char *text)
{
    size_t n = strlen(text);
    if (n && text[n - 1] == '\n') n--;
    while (n && text[n - 1] != '\n') n--;
    return n;
}

static bool screen_has(T *t, const char *needle)
{
    char *s = screen(t);
    bool r = strstr(s, needle) != NULL;
    if (!r) printf("    (screen lacks \"%s\")\n%s", needle, s);
    free(s);
    return r;
}

/* the y-th line of the frame */
static char *screen_line(T *t, int y)
{
    char *s = screen(t), *p = s;
    for (int i = 0; i < y && p; i++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    char *r = xstrdup(p ? p : "");
    char *nl = strchr(r, '\n');
    if (nl) *nl = 0;
    free(s);
    return r;
}

/* a line of the details pane holds needle (the pane wraps long lines on
 * the screen) */
static bool details_has(const App *A, const char *needle)
{
    for (int i = 0; i < A->ndlines; i++)
        if (strstr(A->dlines[i], needle)) return true;
    printf("    (the details lack \"%s\")\n", needle);
    return false;
}

static char *status(T *t)
{
    char b[1024];
    app_status(&t->A, b, sizeof b);
    return xstrdup(b);
}

/* the display row showing location or activity id */
static int row_of(App *A, uint32_t id)
{
    RowModel *M = app_rows(A);
    if (!M) return -1;
    if (M->dirty) app_rows_rebuild(A, M);
    for (uint32_t g = 0; g < M->rs.ng; g++)
        for (uint32_t k = rowset_first(&M->rs, g); k < rowset_end(&M->rs, g); k++)
            if (M->rs.ids[k] == id) return (int)g;
    return -1;
}

/* the first event of a kind at a location (NONE32: none) */
static uint32_t find_event(const Store *s, int kind, uint32_t loc)
{
    for (uint32_t e = 0; e < s->n; e++)
        if (s->kind[e] == kind && (loc == NONE32 || s->loc[e] == loc)) return e;
    return NONE32;
}

static uint32_t loc_id(const Store *s, const char *label)
{
    for (uint32_t l = 0; l < s->nloc; l++)
        if (!strcmp(loc_label(s, l), label)) return l;
    return NONE32;
}

/* put the cursor on event e: zoom in far around it, then its cell and row */
static void cursor_on(T *t, uint32_t e)
{
    App *A = &t->A;
    for (int i = 0; i < 14; i++) app_zoom(A, 0.5);
    app_pan_to(A, A->s->ts[e]);
    A->cur_row = row_of(A, A->s->loc[e]);
    frame(t, AF_REAGG);
}

static bool cursor_cell_holds(const App *A, int64_t t)
{
    return app_cursor_time(A) <= t && t < app_cell_start(A, A->cur_col + 1);
}

/* the events of the selection visible in [a, b), counted one by one: those
 * starting in it, and the intervals open at a - 1 */
static uint64_t brute_visible(const App *A, int64_t a, int64_t b)
{
    const Store *s = A->s;
    uint64_t n = 0;
    for (uint32_t e = 0; e < s->n; e++) {
        if (A->ss.sel && !(A->ss.sel[e / 64] >> (e % 64) & 1)) continue;
        if (s->ts[e] >= a && s->ts[e] < b) n++;
        else if (s->ts[e] < a && (s->flags[e] & EVF_DUR) && s->dur[e] > 0 && s->kind[e] != K_MSG &&
                 s->ts[e] + s->dur[e] >= a)
            n++;
    }
    return n;
}

/* the N of "N of M events" in the status line */
static uint64_t status_visible(T *t)
{
    char *st = status(t), *p = strstr(st, " of ");
    uint64_t v = UINT64_MAX;
    if (p) {
        while (p > st && p[-1] >= '0' && p[-1] <= '9') p--;
        v = strtoull(p, NULL, 10);
    }
    free(st);
    return v;
}

static void t_visible_count(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/x10.csv", 100, 30));
    if (!t.ok) return;
    App *A = &t.A;
    int checked = 0, partial = 0;
    for (int round = 0; round < 2; round++) {
        keys(&t, "0");
        for (int z = 0; z < 9; z++) {
            for (int p = 0; p < 6; p++) {
                uint64_t want = brute_visible(A, A->t0, A->t1), got = status_visible(&t);
                if (want != got) {
                    printf("    window [%" PRId64 ", %" PRId64 "): status says %" PRIu64 ", counted %" PRIu64 "\n", A->t0,
                           A->t1, got, want);
                    g_fail_checks++;
                }
                /* (windows that cut intervals open before them) */
                uint64_t starting = 0;
                for (uint32_t e = 0; e < A->s->n; e++) starting += A->s->ts[e] >= A->t0 && A->s->ts[e] < A->t1;
                if (starting < want) partial++;
                checked++;
                key(&t, TK_PGDN);
            }
            key(&t, TK_HOME);
            keys(&t, "+");
        }
        /* and with a filter */
        keys(&t, "/kind == \"state\" || kind == \"send\"\n");
        CHECK(A->filter_text != NULL);
    }
    CHECK(checked >= 100);
    CHECK(partial >= 20);
    close_app(&t);
}

/* ---- the table of actions ----------------------------------------------- */

static void t_keymap(void)
{
    int n = 0;
    for (const Action *a = ACTIONS; a->name; a++, n++) {
        CHECK(a->name[0] && a->help && a->help[0] && (a->fn || a->cmd));
        /* every action has a key, or is a command with its argument */
        CHECK(a->keys[0] != 0 || (a->cmd && a->args && a->args[0] != '['));
        CHECK(!a->cmd == !a->args); /* (an argument has a synopsis and a function) */
        CHECK(a->fn || (a->args && a->args[0] != '[')); /* (an optional one runs fn without it) */
        for (const Action *b = ACTIONS; b < a; b++) CHECK(strcmp(a->name, b->name) != 0);
        for (int i = 0; i < ACTION_KEYS && a->keys[i]; i++) {
            CHECK(a->fn != NULL);
            /* bound once: the lookup finds this action, no other has it */
            CHECK(action_for_key(a->keys[i]) == a);
            for (const Action *b = ACTIONS; b->name; b++)
                for (int j = 0; j < ACTION_KEYS && b->keys[j]; j++)
                    if (b != a && b->keys[j] == a->keys[i]) {
                        char kn[24];
                        printf("    key %s bound to %s and %s\n", tkey_name(a->keys[i], kn, sizeof kn), a->name, b->name);
                        g_fail_checks++;
                    }
        }
    }
    CHECK(n >= 40);
    /* the keys the interface promises */
    static const struct {
        int key;
        const char *action;
    } WANT[] = {
        {'+', "zoom-in"},     {'z', "zoom-in"},     {'-', "zoom-out"},    {'Z', "zoom-out"},   {TK_LEFT, "left"},
        {'h', "left"},        {TK_RIGHT, "right"},  {'l', "right"},       {'j', "down"},       {'k', "up"},
        {TK_PGUP, "page-left"}, {TK_PGDN, "page-right"}, {TK_HOME, "start"}, {TK_END, "end"}, {'0', "fit"},
        {'g', "goto"},        {'[', "mark-start"},  {']', "mark-end"},    {TK_ENTER, "enter"}, {'/', "filter"},
        {'t', "highlight"},   {'n', "next-match"},  {'N', "prev-match"},  {'m', "bookmark"},   {'\'', "bookmarks"},
        {'?', "help"},        {'q', "quit"},        {TK_TAB, "next-view"}, {'1', "view-gantt-loc"},
        {'2', "view-gantt-act"}, {'3', "view-density"}, {'4', "view-comm"}, {'5', "view-matrix"}, {'6', "view-stats"},
        {'7', "view-events"}, {'8', "view-split"},  {'x', "expand"},      {'H', "hide-row"},   {'s', "sort"},
        {'i', "details"},
    };
    for (size_t i = 0; i < sizeof WANT / sizeof WANT[0]; i++) {
        const Action *a = action_for_key(WANT[i].key);
        char kn[24];
        if (!a || strcmp(a->name, WANT[i].action) != 0) {
            printf("    %s is bound to %s, expected %s\n", tkey_name(WANT[i].key, kn, sizeof kn), a ? a->name : "nothing",
                   WANT[i].action);
            g_fail_checks++;
        }
    }
    char kn[24];
    CHECK_EQ_S(tkey_name(CTRL('w'), kn, sizeof kn), "Ctrl-W");
    CHECK_EQ_S(tkey_name(TK_PGDN, kn, sizeof kn), "PgDn");
    CHECK_EQ_S(tkey_name(' ', kn, sizeof kn), "Space");
    CHECK_EQ_S(tkey_name(0xE9, kn, sizeof kn), "\xc3\xa9");
    CHECK(action_for_key('Q') == NULL);
}

/* the help lists every action (scrolling through it when it does not fit) */
static void t_help(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 80, 24));
    if (!t.ok) return;
    CHECK(keys(&t, "?") == AF_REDRAW);
    CHECK(t.A.show_help);
    CHECK(screen_has(&t, "tnav keys"));
    int n = 0;
    while (ACTIONS[n].name) n++;
    bool *seen = xcalloc((size_t)n, 1);
    for (int page = 0; page < 200; page++) {
        char *s = screen(&t);
        for (int i = 0; i < n; i++) {
            /* the start of the description (the column may cut the end) */
            char head[24];
            snprintf(head, sizeof head, "%s", ACTIONS[i].help);
            if (strstr(s, head)) seen[i] = true;
        }
        free(s);
        key(&t, 'j');
    }
    for (int i = 0; i < n; i++)
        if (!seen[i]) {
            printf("    the help never shows \"%s\" (%s)\n", ACTIONS[i].help, ACTIONS[i].name);
            g_fail_checks++;
        }
    free(seen);
    CHECK(t.A.show_help); /* scrolling keeps it open */
    /* q closes the help, it does not quit */
    CHECK(!(key(&t, 'q') & AF_QUIT));
    CHECK(!t.A.show_help);
    /* a key that does something else closes it and does it */
    keys(&t, "?");
    CHECK(keys(&t, "+") & AF_REAGG);
    CHECK(!t.A.show_help);
    close_app(&t);
}

/* ---- the prompt ---------------------------------------------------------- */

static void type(Prompt *p, const char *s, CompleteFn fn, void *ctx)
{
    for (const unsigned char *q = (const unsigned char *)s; *q;) {
        size_t l;
        int cp = decode(q, &l);
        if (!l) break;
        prompt_key(p, cp, fn, ctx);
        q += l;
    }
}

static void t_prompt_editing(void)
{
    Prompt p;
    prompt_init(&p);
    type(&p, "dur > 10us && name == \"x\"", NULL, NULL);
    CHECK_EQ_S(p.buf, "dur > 10us && name == \"x\"");
    CHECK_EQ_I(p.cur, p.len);
    prompt_key(&p, CTRL('w'), NULL, NULL); /* deletes "x"" (not a word: one character) */
    CHECK_EQ_S(p.buf, "dur > 10us && name == \"x");
    prompt_key(&p, CTRL('w'), NULL, NULL);
    CHECK_EQ_S(p.buf, "dur > 10us && name == \"");
    prompt_key(&p, TK_BS, NULL, NULL);
    prompt_key(&p, CTRL('w'), NULL, NULL); /* the blank, then "==" one character */
    CHECK_EQ_S(p.buf, "dur > 10us && name =");
    prompt_key(&p, CTRL('a'), NULL, NULL);
    CHECK_EQ_I(p.cur, 0);
    prompt_key(&p, TK_DEL, NULL, NULL);
    prompt_key(&p, TK_DEL, NULL, NULL);
    prompt_key(&p, TK_DEL, NULL, NULL);
    type(&p, "bytes", NULL, NULL);
    CHECK_EQ_S(p.buf, "bytes > 10us && name =");
    CHECK_EQ_I(p.cur, 5);
    prompt_key(&p, CTRL('e'), NULL, NULL);
    CHECK_EQ_I(p.cur, p.len);
    prompt_key(&p, TK_HOME, NULL, NULL);
    prompt_key(&p, TK_RIGHT, NULL, NULL);
    prompt_key(&p, CTRL('k'), NULL, NULL);
    CHECK_EQ_S(p.buf, "b");
    prompt_key(&p, TK_END, NULL, NULL);
    /* UTF-8: a character is one step and one deletion */
    type(&p, " =~ /caf\xc3\xa9/", NULL, NULL);
    CHECK_EQ_S(p.buf, "b =~ /caf\xc3\xa9/");
    prompt_key(&p, TK_LEFT, NULL, NULL);
    prompt_key(&p, TK_LEFT, NULL, NULL);
    CHECK_EQ_I(p.cur, p.len - 3);
    prompt_key(&p, TK_DEL, NULL, NULL);
    CHECK_EQ_S(p.buf, "b =~ /caf/");
    prompt_key(&p, TK_LEFT, NULL, NULL);
    prompt_key(&p, TK_BS, NULL, NULL); /* (the 'a' before the cursor) */
    CHECK_EQ_S(p.buf, "b =~ /cf/");
    CHECK(utf8_invalid_at((const unsigned char *)p.buf, p.len) == p.len);
    /* Ctrl-U clears what is before the cursor */
    prompt_key(&p, CTRL('u'), NULL, NULL);
    CHECK_EQ_S(p.buf, "f/");
    CHECK_EQ_I(p.cur, 0);
    prompt_key(&p, CTRL('e'), NULL, NULL);
    prompt_key(&p, CTRL('u'), NULL, NULL);
    CHECK_EQ_S(p.buf, "");
    /* control keys and surrogates never enter the line */
    CHECK(!prompt_key(&p, CTRL('b'), NULL, NULL));
    CHECK(!prompt_key(&p, 0xD800, NULL, NULL));
    CHECK_EQ_I(p.len, 0);
    prompt_free(&p);
}

static void t_prompt_complete(void)
{
    T t;
    const char *csv = "ts,dur,loc,kind,name,stage_id\n0,5,0,state,a,1\n";
    char *path = xasprintf("%s/extra.csv", g_tmpdir);
    FILE *f = fopen(path, "w");
    fputs(csv, f);
    fclose(f);
    CHECK(open_app(&t, path, 80, 24));
    free(path);
    if (!t.ok) return;
    Prompt p;
    prompt_init(&p);
    type(&p, "ki", app_complete, &t.A);
    CHECK(prompt_key(&p, TK_TAB, app_complete, &t.A));
    CHECK_EQ_S(p.buf, "kind");
    prompt_set(&p, "dur > 1 && act_");
    prompt_key(&p, TK_TAB, app_complete, &t.A); /* act_any( and act_all(: their common prefix */
    CHECK_EQ_S(p.buf, "dur > 1 && act_a");
    type(&p, "n", app_complete, &t.A);
    prompt_key(&p, TK_TAB, app_complete, &t.A);
    CHECK_EQ_S(p.buf, "dur > 1 && act_any(");
    prompt_set(&p, "starts");
    prompt_key(&p, TK_TAB, app_complete, &t.A);
    CHECK_EQ_S(p.buf, "starts_with(");
    prompt_set(&p, "stage");
    prompt_key(&p, TK_TAB, app_complete, &t.A); /* an extra field of this trace */
    CHECK_EQ_S(p.buf, "stage_id");
    prompt_set(&p, "zzz");
    CHECK(!prompt_key(&p, TK_TAB, app_complete, &t.A));
    /* in the middle of the line */
    prompt_set(&p, "by > 1");
    prompt_key(&p, TK_HOME, NULL, NULL);
    prompt_key(&p, TK_RIGHT, NULL, NULL);
    prompt_key(&p, TK_RIGHT, NULL, NULL);
    prompt_key(&p, TK_TAB, app_complete, &t.A);
    CHECK_EQ_S(p.buf, "bytes > 1");
    /* every function of the language completes */
    for (int i = 0; filter_function_name(i); i++) {
        char pre[8];
        snprintf(pre, sizeof pre, "%.3s", filter_function_name(i));
        const char *out[64];
        int k = app_complete(&t.A, pre, out, 64), hit = 0;
        for (int j = 0; j < k; j++)
            if (!strncmp(out[j], filter_function_name(i), strlen(filter_function_name(i))) && strchr(out[j], '(')) hit = 1;
        if (!hit) {
            printf("    %s is not completed\n", filter_function_name(i));
            g_fail_checks++;
        }
    }
    prompt_free(&p);
    close_app(&t);
}

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (de->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

static void t_prompt_history(void)
{
    Prompt p;
    prompt_init(&p);
    prompt_history_add(&p, "a == 1");
    prompt_history_add(&p, "a == 1"); /* not twice in a row */
    prompt_history_add(&p, "");
    prompt_history_add(&p, "b == 2");
    CHECK_EQ_I(p.nhist, 2);
    /* walking the history keeps the line being edited */
    type(&p, "draft", NULL, NULL);
    prompt_key(&p, TK_UP, NULL, NULL);
    CHECK_EQ_S(p.buf, "b == 2");
    prompt_key(&p, TK_UP, NULL, NULL);
    CHECK_EQ_S(p.buf, "a == 1");
    prompt_key(&p, TK_UP, NULL, NULL); /* (the oldest stays) */
    CHECK_EQ_S(p.buf, "a == 1");
    prompt_key(&p, TK_DOWN, NULL, NULL);
    prompt_key(&p, TK_DOWN, NULL, NULL);
    CHECK_EQ_S(p.buf, "draft");
    CHECK_EQ_I(p.cur, 5);
    /* the file: under $XDG_STATE_HOME/tnav, written through a temp file */
    char *state = xasprintf("%s/state-h", g_tmpdir);
    setenv("XDG_STATE_HOME", state, 1);
    char *path = history_path();
    char *want = xasprintf("%s/tnav/history", state);
    CHECK(path && !strcmp(path, want));
    struct stat st;
    char *dir = xasprintf("%s/tnav", state);
    CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
    for (int i = 0; i < 30; i++) {
        char b[32];
        snprintf(b, sizeof b, "loc == %d", i);
        prompt_history_add(&p, b);
    }
    CHECK(path && prompt_history_save(&p, path, 10));
    CHECK_EQ_I(count_files(dir), 2); /* the history and its lock: no temp file left behind */
    Prompt q;
    prompt_init(&q);
    CHECK(path && prompt_history_load(&q, path));
    CHECK_EQ_I(q.nhist, 10);
    if (q.nhist == 10) {
        CHECK_EQ_S(q.hist[0], "loc == 20");
        CHECK_EQ_S(q.hist[9], "loc == 29");
    }
    prompt_key(&q, TK_UP, NULL, NULL);
    CHECK_EQ_S(q.buf, "loc == 29");
    /* a history that cannot be written fails without touching the old file */
    char *bad = xasprintf("%s/no-such-dir/history", g_tmpdir);
    CHECK(!prompt_history_save(&q, bad, 10));
    free(bad);
    /* a history file with invalid UTF-8 lines: those are skipped */
    FILE *f = fopen(path, "w");
    fputs("ok == 1\n\xff\xfe bad\nname == \"caf\xc3\xa9\"\n", f);
    fclose(f);
    Prompt r;
    prompt_init(&r);
    prompt_history_load(&r, path);
    CHECK_EQ_I(r.nhist, 2);
    prompt_free(&r);
    /* two sessions: each one's new entries are added to what the other
     * saved meanwhile, and each then walks the merged history */
    Prompt s1, s2;
    prompt_init(&s1);
    prompt_init(&s2);
    prompt_history_load(&s1, path);
    prompt_history_load(&s2, path);
    prompt_history_add(&s1, "a1 == 1");
    CHECK(prompt_history_save(&s1, path, 500));
    prompt_history_add(&s2, "b1 == 1");
    CHECK(prompt_history_save(&s2, path, 500));
    prompt_history_add(&s1, "a2 == 1");
    CHECK(prompt_history_save(&s1, path, 500));
    prompt_init(&r);
    prompt_history_load(&r, path);
    CHECK_EQ_I(r.nhist, 5);
    if (r.nhist == 5) {
        CHECK_EQ_S(r.hist[2], "a1 == 1");
        CHECK_EQ_S(r.hist[3], "b1 == 1");
        CHECK_EQ_S(r.hist[4], "a2 == 1");
    }
    CHECK_EQ_I(s1.nhist, 5);
    CHECK_EQ_I(s2.nhist, 4); /* (it saw a1 when it saved) */
    prompt_free(&r);
    prompt_free(&s1);
    prompt_free(&s2);
    /* four processes saving 25 entries each at the same time: none lost */
    enum { NPROC = 4, NENT = 25 };
    pid_t kids[NPROC];
    for (int k = 0; k < NPROC; k++) {
        kids[k] = fork();
        if (kids[k] == 0) {
            Prompt c;
            prompt_init(&c);
            prompt_history_load(&c, path);
            int bad_saves = 0;
            for (int i = 0; i < NENT; i++) {
                char b[48];
                snprintf(b, sizeof b, "proc == %d && i == %d", k, i);
                prompt_history_add(&c, b);
                if (!prompt_history_save(&c, path, 500)) bad_saves++;
            }
            _exit(bad_saves ? 1 : 0);
        }
    }
    int all_ok = 1;
    for (int k = 0; k < NPROC; k++) {
        int st2 = 0;
        if (kids[k] < 0 || waitpid(kids[k], &st2, 0) != kids[k] || !WIFEXITED(st2) || WEXITSTATUS(st2) != 0) all_ok = 0;
    }
    CHECK(all_ok);
    prompt_init(&r);
    prompt_history_load(&r, path);
    int seen = 0;
    for (int i = 0; i < r.nhist; i++)
        if (!strncmp(r.hist[i], "proc == ", 8)) seen++;
    CHECK_EQ_I(seen, NPROC * NENT);
    prompt_free(&r);
    prompt_free(&q);
    prompt_free(&p);
    free(path);
    free(want);
    free(dir);
    free(state);
    unsetenv("XDG_STATE_HOME");
    setenv("XDG_STATE_HOME", g_tmpdir, 1);
}

/* ---- the viewport ------------------------------------------------------- */

static void t_zoom_pan(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 100, 30));
    if (!t.ok) return;
    App *A = &t.A;
    const Store *s = A->s;
    CHECK_EQ_I(A->t0, s->t_min);
    CHECK_EQ_I(A->t1, s->t_max + 1);
    int n = app_ncells(A);
    CHECK(n > 50 && n < 100);
    /* zoom in around the cursor: the cursor's time stays under it */
    A->cur_col = n / 3;
    int64_t tc = app_cursor_time(A) + (app_cell_start(A, A->cur_col + 1) - app_cursor_time(A)) / 2;
    int64_t span = A->t1 - A->t0;
    int fl = keys(&t, "+");
    CHECK(fl & AF_REAGG);
    CHECK(!(fl & AF_REFILTER)); /* a zoom does not re-filter */
    CHECK(llabs((A->t1 - A->t0) - span / 2) <= 1);
    CHECK(cursor_cell_holds(A, tc));
    keys(&t, "zz");
    CHECK(llabs((A->t1 - A->t0) - span / 8) <= 2);
    CHECK(cursor_cell_holds(A, tc));
    char *st = status(&t);
    CHECK(strstr(st, "x8.00") != NULL);
    free(st);
    keys(&t, "-Z");
    CHECK(llabs((A->t1 - A->t0) - span / 2) <= 8); /* (each step rounds to a ns) */
    /* a cursor move only redraws */
    int c0 = A->cur_col;
    CHECK_EQ_I(keys(&t, "l"), AF_REDRAW);
    CHECK_EQ_I(A->cur_col, c0 + 1);
    CHECK_EQ_I(keys(&t, "h"), AF_REDRAW);
    CHECK_EQ_I(keys(&t, "j"), AF_REDRAW);
    CHECK_EQ_I(A->cur_row, 1);
    CHECK_EQ_I(keys(&t, "k"), AF_REDRAW);
    CHECK_EQ_I(A->cur_row, 0);
    /* pan a screen: the span stays, the window moves by it */
    keys(&t, "+++");
    span = A->t1 - A->t0;
    int64_t t0 = A->t0;
    key(&t, TK_HOME);
    CHECK_EQ_I(A->t0, s->t_min);
    CHECK_EQ_I(A->t1 - A->t0, span);
    key(&t, TK_PGDN);
    CHECK_EQ_I(A->t0, s->t_min + span);
    key(&t, TK_PGUP);
    CHECK_EQ_I(A->t0, s->t_min);
    CHECK(!(key(&t, TK_PGUP) & AF_REFILTER));
    CHECK_EQ_I(A->t0, s->t_min); /* (clamped at the start) */
    key(&t, TK_END);
    CHECK_EQ_I(A->t1, s->t_max + 1);
    CHECK_EQ_I(A->t1 - A->t0, span);
    CHECK_EQ_I(A->cur_col, app_ncells(A) - 1);
    /* at the right edge, the cursor key pans (clamped: nothing to do) */
    CHECK_EQ_I(keys(&t, "l"), 0);
    /* at the left edge, it pans back */
    A->cur_col = 0;
    t0 = A->t0;
    CHECK(keys(&t, "h") & AF_REAGG);
    CHECK(A->t0 < t0);
    /* fit */
    keys(&t, "0");
    CHECK_EQ_I(A->t0, s->t_min);
    CHECK_EQ_I(A->t1, s->t_max + 1);
    /* zooming in as far as it goes stops at 1 ns a cell */
    for (int i = 0; i < 60; i++) keys(&t, "+");
    CHECK_EQ_I(A->t1 - A->t0, app_ncells(A));
    CHECK(A->t0 >= s->t_min && A->t1 <= s->t_max + 1);
    close_app(&t);
}

static void t_goto_and_range(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 100, 30));
    if (!t.ok) return;
    App *A = &t.A;
    const Store *s = A->s;
    keys(&t, "++++");
    CHECK_EQ_I(keys(&t, "g"), AF_REDRAW);
    CHECK(A->pmode == PM_GOTO);
    CHECK(screen_has(&t, "go to:"));
    keys(&t, "12.5ms\n");
    CHECK(A->pmode == PM_NONE);
    CHECK(cursor_cell_holds(A, s->t_min + 12500000));
    /* zooming in from there keeps that very time under the cursor (also
     * when it was in the window already) */
    keys(&t, "g12.6ms\n");
    CHECK(cursor_cell_holds(A, s->t_min + 12600000));
    for (int i = 0; i < 16; i++) keys(&t, "+");
    CHECK(cursor_cell_holds(A, s->t_min + 12600000));
    keys(&t, "g12.5ms\n");
    for (int i = 0; i < 16; i++) keys(&t, "+");
    CHECK(cursor_cell_holds(A, s->t_min + 12500000));
    CHECK(A->t1 - A->t0 < 2000);
    keys(&t, "0");
    /* a time outside the trace: a message, the prompt stays, nothing moves */
    int64_t t0 = A->t0;
    keys(&t, "g1h\n");
    CHECK(A->pmode == PM_GOTO);
    CHECK(screen_has(&t, "not a time in the trace: 1h"));
    CHECK_EQ_I(A->t0, t0);
    key(&t, TK_ESC);
    CHECK(A->pmode == PM_NONE);
    /* the go-to prompt does not walk the filters' history */
    prompt_history_add(&A->prompt, "kind == \"send\"");
    keys(&t, "g");
    key(&t, TK_UP);
    CHECK_EQ_S(A->prompt.buf, "");
    key(&t, TK_ESC);
    /* [ and ] mark a range, Enter zooms to it */
    keys(&t, "0");
    A->cur_col = 10;
    int64_t a = app_cursor_time(A);
    keys(&t, "[");
    CHECK(A->have_a);
    for (int i = 0; i < 20; i++) keys(&t, "l");
    int64_t b = app_cell_start(A, A->cur_col + 1);
    keys(&t, "]");
    CHECK(A->have_b);
    CHECK(keys(&t, "\n") & AF_REAGG);
    CHECK_EQ_I(A->t0, a);
    CHECK_EQ_I(A->t1, b);
    CHECK(!A->have_a && !A->have_b);
    /* the status line shows the range from the start of the trace */
    char *st = status(&t), want[128], fa[48], fb[48];
    format_dur(fa, sizeof fa, a - s->t_min);
    format_dur(fb, sizeof fb, b - s->t_min);
    snprintf(want, sizeof want, "%s \xe2\x80\x93 %s", fa, fb);
    CHECK(strstr(st, want) != NULL);
    if (!strstr(st, want)) printf("    status: %s\n    wanted: %s\n", st, want);
    free(st);
    /* Esc drops a half-marked range */
    keys(&t, "[");
    key(&t, TK_ESC);
    CHECK(!A->have_a);
    close_app(&t);
}

static void t_mouse(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 100, 30));
    if (!t.ok) return;
    App *A = &t.A;
    int x0 = A->lay_x0;
    CHECK(x0 > 0);
    /* a click selects the cell and row */
    CHECK_EQ_I(app_mouse(A, x0 + 7, 3, MOUSE_CLICK), AF_REDRAW);
    app_mouse(A, x0 + 7, 3, MOUSE_RELEASE);
    CHECK_EQ_I(A->cur_col, 7);
    CHECK_EQ_I(A->cur_row, 3);
    CHECK(!A->have_a); /* (a plain click marks nothing) */
    /* outside the cells: nothing */
    CHECK_EQ_I(app_mouse(A, 0, 3, MOUSE_CLICK), 0);
    CHECK_EQ_I(A->cur_col, 7);
    /* a drag selects a range; Enter zooms to it */
    int64_t a = app_cell_start(A, 5), b = app_cell_start(A, 31);
    app_mouse(A, x0 + 5, 2, MOUSE_CLICK);
    app_mouse(A, x0 + 20, 2, MOUSE_DRAG);
    app_mouse(A, x0 + 30, 2, MOUSE_RELEASE);
    CHECK(A->have_a && A->have_b);
    keys(&t, "\n");
    CHECK_EQ_I(A->t0, a);
    CHECK_EQ_I(A->t1, b);
    /* the wheel zooms around the pointer */
    int64_t span = A->t1 - A->t0;
    int64_t tp = app_cell_start(A, 10) + (app_cell_start(A, 11) - app_cell_start(A, 10)) / 2;
    CHECK(app_mouse(A, x0 + 10, 2, MOUSE_WHEEL_UP) & AF_REAGG);
    CHECK(llabs((A->t1 - A->t0) - span / 2) <= 1);
    CHECK(cursor_cell_holds(A, tp)); /* the time under the pointer stays under the cursor */
    CHECK(abs(A->cur_col - 10) <= 1);
    app_mouse(A, x0 + 10, 2, MOUSE_WHEEL_DOWN);
    CHECK(llabs((A->t1 - A->t0) - span) <= 2);
    close_app(&t);
}

/* ---- filters and highlights ------------------------------------------------ */

static void t_filter(void)
{
    T t;
    setenv("XDG_STATE_HOME", g_tmpdir, 1);
    CHECK(open_app(&t, "sample-logs/ring.csv", 100, 30));
    if (!t.ok) return;
    App *A = &t.A;
    char *st = status(&t);
    CHECK(strstr(st, "328 of 328 events") && strstr(st, "no filter") && strstr(st, "? help"));
    free(st);
    /* one summary at a time: the unfiltered one is S until a filter
     * replaces it, and is built again when the filter is cleared */
    CHECK(A->S && A->S == A->S_all);
    char *s0 = screen(&t);
    CHECK_EQ_I(keys(&t, "/"), AF_REDRAW);
    CHECK(A->pmode == PM_FILTER);
    /* as it is typed, the count of matches */
    keys(&t, "kind == \"send\"");
    CHECK(A->plive_ok);
    CHECK_EQ_I(A->plive_count, 80);
    CHECK(screen_has(&t, "80 of 328 events match"));
    /* (nothing is applied before Enter) */
    CHECK(A->filter_text == NULL);
    int fl = keys(&t, "\n");
    CHECK(fl & AF_REFILTER);
    CHECK(A->pmode == PM_NONE);
    CHECK(A->filter_text && !strcmp(A->filter_text, "kind == \"send\""));
    CHECK_EQ_I(A->ss.nsel, 80);
    CHECK(A->S && A->S_all == NULL);
    st = status(&t);
    CHECK(strstr(st, "80 of 328 events") && strstr(st, "filter: kind == \"send\""));
    free(st);
    /* a bad filter: the error with a caret under the culprit, the previous
     * result stays */
    keys(&t, "/");
    CHECK_EQ_S(A->prompt.buf, "kind == \"send\""); /* (the prompt starts from the applied filter) */
    key(&t, CTRL('u'));
    keys(&t, "dur > 10us &&  bytes > 10us");
    CHECK(A->perr_set);
    keys(&t, "\n");
    CHECK(A->pmode == PM_FILTER); /* still open, with the error */
    CHECK(A->filter_text && !strcmp(A->filter_text, "kind == \"send\""));
    CHECK_EQ_I(A->ss.nsel, 80);
    {
        /* the prompt's line, the caret under it, the message under that */
        int py = t.c->h - 4, ey = py + 1;
        char *pl = screen_line(&t, py), *el = screen_line(&t, ey), *ml = screen_line(&t, py + 2);
        /* the caret sits under the start of the culprit (the second
         * 10us, column 23 of the text after the 2-column lead "/ ") */
        CHECK(!strncmp(pl, "/ dur > 10us &&  bytes > 10us", 29));
        char *caret = strchr(el, '^');
        CHECK(caret != NULL);
        CHECK_EQ_I(A->perr.start, 23);
        if (caret) CHECK_EQ_I(cols_of(el, (size_t)(caret - el)), 2 + 23);
        CHECK(caret && !strncmp(caret, "^~~~", 4));
        CHECK(strstr(ml, "1:24: ") && strstr(ml, "size"));
        free(pl);
        free(el);
        free(ml);
    }
    /* Esc cancels: the filter stays as it was */
    key(&t, TK_ESC);
    CHECK(A->pmode == PM_NONE);
    CHECK(!A->perr_set);
    CHECK_EQ_I(A->ss.nsel, 80);
    /* the history has the applied filter (and not the bad one) */
    CHECK(A->prompt.nhist >= 1 && !strcmp(A->prompt.hist[A->prompt.nhist - 1], "kind == \"send\""));
    /* an empty filter clears it; so does C */
    keys(&t, "/");
    key(&t, CTRL('u'));
    CHECK(keys(&t, "\n") & AF_REFILTER);
    CHECK(A->filter_text == NULL);
    CHECK_EQ_I(A->ss.nsel, 328);
    keys(&t, "/loc in 0..3\n");
    CHECK_EQ_I(A->ss.nsel, 164);
    CHECK(keys(&t, "C") & AF_REFILTER);
    CHECK(A->filter_text == NULL);
    CHECK(A->S && A->S == A->S_all);
    st = status(&t);
    CHECK(strstr(st, "328 of 328 events") && strstr(st, "no filter"));
    free(st);
    {
        /* (the rebuilt unfiltered summary draws the first frame again;
         * only the status line's message differs) */
        char *s1 = screen(&t);
        size_t n0 = above_last_line(s0), n1 = above_last_line(s1);
        CHECK(n0 == n1 && n0 > 1000);
        CHECK(n0 == n1 && !memcmp(s0, s1, n0));
        free(s1);
    }
    free(s0);
    /* Up walks the history in the prompt */
    keys(&t, "/");
    key(&t, CTRL('u'));
    key(&t, TK_UP);
    CHECK_EQ_S(A->prompt.buf, "loc in 0..3");
    key(&t, TK_UP);
    CHECK_EQ_S(A->prompt.buf, "kind == \"send\"");
    key(&t, TK_ESC);
    /* keys typed in the prompt are text, not actions */
    keys(&t, "/");
    key(&t, CTRL('u'));
    CHECK(!(keys(&t, "q0+") & (AF_QUIT | AF_REAGG)));
    CHECK_EQ_S(A->prompt.buf, "q0+");
    key(&t, TK_ESC);
    close_app(&t);
    /* the history persisted: a new session finds it */
    CHECK(open_app(&t, "sample-logs/ring.csv", 100, 30));
    if (!t.ok) return;
    CHECK(t.A.prompt.nhist >= 2 && !strcmp(t.A.prompt.hist[t.A.prompt.nhist - 1], "loc in 0..3"));
    close_app(&t);
    /* a history that cannot be written ($XDG_STATE_HOME/tnav/history is a
     * directory): the filter applies, the status line says so once */
    char *st2 = xasprintf("%s/state-dir", g_tmpdir), *hd = xasprintf("%s/tnav/history", st2);
    char *mk = xasprintf("mkdir -p '%s'", hd);
    CHECK(system(mk) == 0);
    setenv("XDG_STATE_HOME", st2, 1);
    CHECK(open_app(&t, "sample-logs/ring.csv", 100, 30));
    if (t.ok) {
        keys(&t, "/kind == \"send\"\n");
        CHECK_EQ_I(t.A.ss.nsel, 80);
        char *want = xasprintf("filter history not saved (Is a directory): %s", hd);
        CHECK_EQ_S(t.A.msg, want);
        CHECK(screen_has(&t, "filter history not saved (Is a directory): /"));
        free(want);
        /* the next filter works, without the message again */
        keys(&t, "/");
        key(&t, CTRL('u'));
        keys(&t, "loc in 0..3\n");
        CHECK_EQ_I(t.A.ss.nsel, 164);
        char *s = screen(&t);
        CHECK(!strstr(s, "history not saved"));
        free(s);
        /* (the prompt still walks this session's history) */
        keys(&t, "/");
        key(&t, CTRL('u'));
        key(&t, TK_UP);
        CHECK_EQ_S(t.A.prompt.buf, "loc in 0..3");
        key(&t, TK_ESC);
        close_app(&t);
    }
    setenv("XDG_STATE_HOME", g_tmpdir, 1);
    free(mk);
    free(hd);
    free(st2);
}

static void t_highlight_and_matches(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 100, 30));
    if (!t.ok) return;
    App *A = &t.A;
    const Store *s = A->s;
    uint32_t l5 = loc_id(s, "5");
    keys(&t, "t");
    CHECK(A->pmode == PM_HIGHLIGHT);
    CHECK(keys(&t, "loc == 5 && kind == \"sync\"\n") & AF_REAGG);
    CHECK(A->hl_text != NULL);
    CHECK_EQ_I(A->ss.nsel, 328); /* a highlight hides nothing */
    char *st = status(&t);
    CHECK(strstr(st, "328 of 328 events") && strstr(st, "highlight: loc == 5"));
    free(st);
    /* n walks the matches forward in time, N back */
    keys(&t, "++++++");
    key(&t, TK_HOME);
    A->cur_col = 0;
    int64_t last = INT64_MIN;
    int found = 0;
    for (int i = 0; i < 12; i++) {
        if (!(keys(&t, "n") & AF_REAGG) && A->msg[0] && strstr(A->msg, "no later")) break;
        int64_t tc = app_cursor_time(A);
        CHECK(tc >= last);
        last = tc;
        /* the cursor's cell holds a sync of rank 5, on the row of rank 5 */
        CHECK_EQ_I(A->cur_row, row_of(A, l5));
        bool ok = false;
        for (uint32_t e = 0; e < s->n; e++)
            if (s->loc[e] == l5 && s->kind[e] == K_SYNC && cursor_cell_holds(A, s->ts[e])) ok = true;
        CHECK(ok);
        found++;
    }
    CHECK_EQ_I(found, 10); /* the ten barriers */
    CHECK(strstr(A->msg, "no later") != NULL);
    keys(&t, "N");
    CHECK(app_cursor_time(A) < last);
    /* the highlight is taken among what the filter shows */
    keys(&t, "/kind == \"send\"\n");
    CHECK(A->Shl != NULL);
    {
        uint64_t both = 0;
        for (size_t w = 0; w < (s->n + 63) / 64; w++) both += popcount64(A->hl_sel[w]);
        CHECK_EQ_I(both, 0); /* (no sync is a send) */
    }
    keys(&t, "C");
    {
        uint64_t n10 = 0;
        for (size_t w = 0; w < (s->n + 63) / 64; w++) n10 += popcount64(A->hl_sel[w]);
        CHECK_EQ_I(n10, 10); /* (clearing the filter brings them back) */
    }
    CHECK(keys(&t, "T") & AF_REAGG);
    CHECK(A->hl_text == NULL);
    /* with a filter and no highlight, n follows the filter */
    keys(&t, "/kind == \"recv\" && loc == 2\n");
    key(&t, TK_HOME);
    A->cur_col = 0;
    keys(&t, "n");
    uint32_t first = NONE32;
    for (uint32_t e = 0; e < s->n; e++)
        if (s->kind[e] == K_RECV && s->loc[e] == loc_id(s, "2") && (first == NONE32 || s->ts[e] < s->ts[first])) first = e;
    CHECK(first != NONE32 && cursor_cell_holds(A, s->ts[first]));
    close_app(&t);
}

/* ---- bookmarks and rows ----------------------------------------------------- */

static void t_bookmarks(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 100, 30));
    if (!t.ok) return;
    App *A = &t.A;
    keys(&t, "+++");
    A->cur_col = 12;
    int64_t tm = app_cursor_time(A);
    keys(&t, "m");
    CHECK(A->bm_set[0] && A->bm[0] == tm);
    CHECK(strstr(A->msg, "bookmark a") != NULL);
    key(&t, TK_END);
    keys(&t, "'");
    CHECK(A->show_bookmarks);
    CHECK(screen_has(&t, "bookmarks"));
    CHECK(keys(&t, "a") & AF_REAGG);
    CHECK(!A->show_bookmarks);
    CHECK(cursor_cell_holds(A, tm));
    /* the mark shows on the time axis: its letter under the window */
    CHECK(screen_has(&t, "a"));
    {
        int found = 0;
        for (int y = 0; y < t.c->h - 1; y++) {
            Cell *c = canvas_at(t.c, A->lay_x0 + A->cur_col, y);
            if (c && c->ch == 'a') found = 1;
        }
        CHECK(found);
    }
    /* in the list, a letter with no bookmark only closes it */
    keys(&t, "'");
    CHECK(!(keys(&t, "q") & AF_QUIT));
    CHECK(!A->show_bookmarks);
    CHECK(strstr(A->msg, "no bookmark q") != NULL);
    /* the list with none set says how to set one */
    T u;
    CHECK(open_app(&u, "sample-logs/ring.csv", 100, 30));
    if (u.ok) {
        keys(&u, "'");
        CHECK(screen_has(&u, "m marks"));
        close_app(&u);
    }
    close_app(&t);
}

static char *gen_many_locs(int nloc)
{
    char *path = xasprintf("%s/many%d.csv", g_tmpdir, nloc);
    FILE *f = fopen(path, "w");
    fprintf(f, "ts,dur,loc,kind,name\n");
    for (int l = 0; l < nloc; l++) fprintf(f, "%d,%d,%d,state,w\n", 1000 + l, 100 + 10 * l, l);
    fclose(f);
    return path;
}

static void t_rows(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 100, 30));
    if (!t.ok) return;
    App *A = &t.A;
    const Store *s = A->s;
    RowModel *M = app_rows(A);
    CHECK(M && M->rs.ng == 8);
    /* hide the row under the cursor, then show them all again */
    A->cur_row = 2;
    uint32_t hid = M->rs.ids[rowset_first(&M->rs, 2)];
    CHECK(keys(&t, "H") & AF_REAGG);
    CHECK_EQ_I(M->rs.ng, 7);
    CHECK_EQ_I(row_of(A, hid), -1);
    keys(&t, "U");
    frame(&t, 0);
    CHECK_EQ_I(M->rs.ng, 8);
    /* sort: natural, name, busy (the straggler first), metric */
    keys(&t, "s");
    CHECK(M->sort == SORT_NAME);
    keys(&t, "s");
    CHECK(M->sort == SORT_BUSY);
    frame(&t, 0);
    CHECK_EQ_I(M->rs.ids[rowset_first(&M->rs, 0)], loc_id(s, "5"));
    char *l0 = screen_line(&t, 0);
    CHECK(l0[0] == '5');
    free(l0);
    keys(&t, "s");
    CHECK(M->sort == SORT_WINDOW);
    keys(&t, "s");
    CHECK(M->sort == SORT_NATURAL);
    frame(&t, 0);
    CHECK_EQ_I(M->rs.ids[rowset_first(&M->rs, 0)], loc_id(s, "0"));
    close_app(&t);

    /* more locations than lines: groups, expanded and collapsed */
    char *p = gen_many_locs(200);
    CHECK(open_app(&t, p, 100, 30));
    free(p);
    if (!t.ok) return;
    A = &t.A;
    M = app_rows(A);
    uint32_t ng = M->rs.ng;
    CHECK(ng < 30 && M->gsize > 1);
    A->cur_row = 1;
    uint32_t g1 = rowset_end(&M->rs, 1) - rowset_first(&M->rs, 1);
    CHECK(g1 > 1);
    CHECK(keys(&t, "x") & AF_REAGG);
    CHECK_EQ_I(M->rs.ng, ng + g1 - 1);
    CHECK_EQ_I(rowset_end(&M->rs, A->cur_row) - rowset_first(&M->rs, A->cur_row), 1);
    /* on a member of the expanded group, x collapses it */
    keys(&t, "jx");
    CHECK_EQ_I(M->rs.ng, ng);
    CHECK_EQ_I(A->cur_row, 1);
    /* scrolling rows: the cursor row stays on screen */
    for (int i = 0; i < 40; i++) keys(&t, "j");
    CHECK_EQ_I(A->cur_row, (int)M->rs.ng - 1);
    close_app(&t);
}

/* ---- details ---------------------------------------------------------------- */

static void t_details_message(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 100, 30));
    if (!t.ok) return;
    App *A = &t.A;
    const Store *s = A->s;
    uint32_t e = find_event(s, K_SEND, loc_id(s, "0"));
    CHECK(e != NONE32);
    if (e == NONE32) return close_app(&t);
    cursor_on(&t, e);
    CHECK(cursor_cell_holds(A, s->ts[e]));
    CHECK(keys(&t, "i") & AF_REAGG);
    CHECK(A->details);
    /* focus the send among the events under the cursor */
    for (int i = 0; i < 8 && A->dfocus < A->ndev && A->dev[A->dfocus].ev != e; i++) keys(&t, ">");
    CHECK(A->dfocus < A->ndev && A->dev[A->dfocus].ev == e);
    /* every field, its activity, the other end */
    CHECK(details_has(A, "(send)"));
    CHECK(details_has(A, "bytes   4096"));
    CHECK(details_has(A, "peer    1"));
    CHECK(details_has(A, "activity 0"));
    CHECK(details_has(A, "message: the receive is at 1"));
    CHECK(screen_has(&t, "the receive is at")); /* (shown, wrapped) */
    CHECK(screen_has(&t, "bytes   4096"));
    /* Enter goes to the receive, on rank 1's row */
    uint32_t mi = store_msg_of(s, e);
    CHECK(mi != NONE32);
    if (mi == NONE32) return close_app(&t);
    uint32_t r = s->msgs[mi].recv_ev;
    CHECK(keys(&t, "\n") & AF_REAGG);
    CHECK(cursor_cell_holds(A, s->ts[r]));
    CHECK_EQ_I(A->cur_row, row_of(A, loc_id(s, "1")));
    CHECK(screen_has(&t, "the receive of the message"));
    /* the focus is on the receive jumped to, not on a neighbour in its cell */
    CHECK(A->ndev > 1);
    CHECK(A->dfocus < A->ndev && A->dev[A->dfocus].ev == r);
    /* and from the receive back to the send, focused */
    CHECK(details_has(A, "message: the send is at 0"));
    keys(&t, "\n");
    CHECK(cursor_cell_holds(A, s->ts[e]));
    CHECK_EQ_I(A->cur_row, row_of(A, loc_id(s, "0")));
    CHECK(A->dfocus < A->ndev && A->dev[A->dfocus].ev == e);
    /* i hides the pane again */
    keys(&t, "i");
    CHECK(!A->details);
    close_app(&t);
}

static void t_details_sync(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 120, 40));
    if (!t.ok) return;
    App *A = &t.A;
    const Store *s = A->s;
    /* the first barrier, at rank 0 */
    uint32_t e = find_event(s, K_SYNC, loc_id(s, "0"));
    CHECK(e != NONE32);
    if (e == NONE32) return close_app(&t);
    uint32_t gi = store_group_of(s, e);
    CHECK(gi != NONE32);
    if (gi == NONE32) return close_app(&t);
    const SyncGroup *G = &s->groups[gi];
    cursor_on(&t, e);
    keys(&t, "i");
    for (int i = 0; i < 8 && A->dfocus < A->ndev && A->dev[A->dfocus].ev != e; i++) keys(&t, ">");
    CHECK(A->dfocus < A->ndev && A->dev[A->dfocus].ev == e);
    CHECK(details_has(A, "sync group: 8 participants"));
    CHECK(details_has(A, "last: 5"));
    /* its wait is the instance's wait as tnav syncs computes it */
    Syncs y;
    syncs_compute(s, NULL, s->t_min, s->t_max + 1, &y);
    char want[96], wb[48];
    want[0] = 0;
    for (uint32_t i = 0; i < y.ninst; i++)
        if (y.inst[i].group == gi) snprintf(want, sizeof want, "%s waited", format_dur(wb, sizeof wb, y.inst[i].total_wait));
    syncs_free(&y);
    CHECK(want[0] && details_has(A, want));
    CHECK(keys(&t, "\n") & AF_REAGG);
    CHECK_EQ_I(A->participants_of, gi);
    /* the participants, the last to arrive (the straggler) marked */
    CHECK(details_has(A, "8 participants"));
    CHECK(details_has(A, "<- last to arrive"));
    CHECK(screen_has(&t, "last to arrive"));
    CHECK_EQ_I(s->loc[G->last_ev], loc_id(s, "5"));
    int last_line = -1;
    for (int i = 0; i < A->ndlines; i++)
        if (strstr(A->dlines[i], "last to arrive")) last_line = i;
    CHECK(last_line >= 0 && A->dattr[last_line] == 2 && strstr(A->dlines[last_line], "  5 ") != NULL);
    CHECK_EQ_I(A->ndev, (int)G->nev);
    /* > marks the focused participant; Enter goes to it, time and row */
    CHECK(A->ndev > 0 && !strncmp(A->dlines[A->dev[0].line], "  > ", 4));
    while (A->dfocus < A->ndev && A->dev[A->dfocus].ev != G->last_ev) keys(&t, ">");
    CHECK(A->dfocus < A->ndev && !strncmp(A->dlines[A->dev[A->dfocus].line], "  > 5", 5));
    keys(&t, "\n");
    CHECK_EQ_I(A->participants_of, NONE32);
    CHECK(cursor_cell_holds(A, s->ts[G->last_ev]));
    CHECK_EQ_I(A->cur_row, row_of(A, loc_id(s, "5")));
    /* Esc returns to the events under the cursor */
    key(&t, TK_ESC);
    CHECK_EQ_I(A->participants_of, NONE32);
    close_app(&t);
}

/* ---- views and layout --------------------------------------------------------- */

/* sums near the int64 limit in the statistics view (the analyses' time
 * table): held at the limit (8 EiB), never the undefined cast of 2^63 (it
 * printed a negative size) */
static void t_stats_saturated(void)
{
    char *path = xasprintf("%s/sat.csv", g_tmpdir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) {
        free(path);
        return;
    }
    fputs("ts,dur,loc,kind,name,peer,bytes,id\n", f);
    for (int i = 0; i < 4; i++) fprintf(f, "%d,1,%d,send,s,%d,9223372036854775807,%d\n", i * 10, i % 2, 1 - i % 2, i);
    for (int i = 0; i < 4; i++) fprintf(f, "%d,1,%d,recv,r,%d,9223372036854775807,%d\n", i * 10 + 5, 1 - i % 2, i % 2, i);
    fclose(f);
    T t;
    CHECK(open_app(&t, path, 120, 20));
    if (t.ok) {
        keys(&t, "6"); /* (the analyses' time table) */
        CHECK_EQ_I(t.A.view, V_ANALYSES);
        bool found = false;
        for (int y = 0; y < t.c->h; y++) {
            char *l = screen_line(&t, y);
            if (!strncmp(l, "0 ", 2) || !strncmp(l, "1 ", 2)) {
                found = true;
                /* (each location sent and received 2 x INT64_MAX bytes) */
                bool good = strstr(l, "8 EiB") != NULL && strchr(l, '-') == NULL;
                CHECK(good);
                if (!good) printf("    (location line: %s)\n", l);
            }
            free(l);
        }
        CHECK(found);
        close_app(&t);
    }
    free(path);
}

static void t_views_draw(void)
{
    static const int SIZES[][2] = {{100, 30}, {20, 10}, {208, 66}, {41, 12}};
    static const char *const TRACES[] = {"sample-logs/ring.csv", "sample-logs/x10.csv", "sample-logs/mw.ndjson"};
    for (size_t ti = 0; ti < 3; ti++)
        for (size_t si = 0; si < 4; si++) {
            T t;
            CHECK(open_app(&t, TRACES[ti], SIZES[si][0], SIZES[si][1]));
            if (!t.ok) continue;
            App *A = &t.A;
            A->ascii = si == 1;
            A->color = si != 3;
            for (int v = 0; v < V__N; v++) {
                char k = v == V_IMBALANCE ? 'I' : (char)('1' + v), ks[2] = {k, 0};
                keys(&t, ks);
                /* (6: the analyses' time table) */
                int shown = v == V_STATS ? V_ANALYSES : v;
                CHECK_EQ_I(A->view, shown);
                CHECK(v != V_STATS || analyses_tab_of(A) == AT_TIME);
                keys(&t, "+jl");
                keys(&t, "i");
                keys(&t, "i-s");
                /* the status line is the last line and names the view */
                char *last = screen_line(&t, t.c->h - 1);
                if (SIZES[si][0] >= 100 && !strstr(last, VIEW_TITLES[shown])) {
                    printf("    status of view %d at %dx%d: %s\n", v + 1, SIZES[si][0], SIZES[si][1], last);
                    g_fail_checks++;
                }
                if (A->ascii) {
                    char *sc = screen(&t);
                    for (const unsigned char *q = (const unsigned char *)sc; *q; q++)
                        if (*q >= 0x80) {
                            printf("    --ascii frame of view %d has a non-ASCII byte\n", v + 1);
                            g_fail_checks++;
                            break;
                        }
                    free(sc);
                }
                free(last);
            }
            /* Tab and Shift-Tab cycle */
            keys(&t, "1");
            key(&t, TK_TAB);
            CHECK_EQ_I(A->view, V_GANTT_ACT);
            key(&t, TK_BTAB);
            key(&t, TK_BTAB);
            CHECK_EQ_I(A->view, V__N - 1);
            close_app(&t);
        }
}

static void t_shared_viewport_and_resize(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/mw.csv", 100, 30));
    if (!t.ok) return;
    App *A = &t.A;
    keys(&t, "3+++ll");
    int64_t t0 = A->t0, t1 = A->t1;
    /* every view shares the window */
    for (const char *v = "1284"; *v; v++) {
        char ks[2] = {*v, 0};
        CHECK(keys(&t, ks) & AF_REAGG);
        CHECK_EQ_I(A->t0, t0);
        CHECK_EQ_I(A->t1, t1);
    }
    /* the split shows the density above the gantt, sharing the columns */
    keys(&t, "8");
    CHECK(screen_has(&t, "split: density + gantt"));
    CHECK(screen_has(&t, "busy (sum)")); /* (the density's metric and reducer) */
    keys(&t, "M");
    CHECK(screen_has(&t, "sync (sum)"));
    keys(&t, "M");
    keys(&t, "M");
    keys(&t, "M");
    keys(&t, "M");
    CHECK(screen_has(&t, "busy (sum)"));
    /* a click on the gantt half selects that gantt row */
    CHECK(A->lay_y0 > 0);
    app_mouse(A, A->lay_x0 + 3, A->lay_y0 + 2, MOUSE_CLICK);
    app_mouse(A, A->lay_x0 + 3, A->lay_y0 + 2, MOUSE_RELEASE);
    CHECK_EQ_I(A->cur_row, (int)A->row_off + 2);
    CHECK_EQ_I(A->cur_col, 3);
    /* a resize re-lays out: the status line moves to the new last line */
    app_resize(A, 140, 44);
    canvas_free(t.c);
    t.c = canvas_new(140, 44, false, true);
    CHECK(key(&t, TK_RESIZE) & AF_REAGG);
    char *last = screen_line(&t, 43);
    CHECK(strstr(last, "split: density + gantt") != NULL);
    free(last);
    CHECK(app_ncells(A) > 100);
    CHECK_EQ_I(A->t0, t0);
    /* q and Ctrl-C quit */
    CHECK(key(&t, 'q') & AF_QUIT);
    CHECK(key(&t, CTRL('c')) & AF_QUIT);
    /* an unbound key says so */
    CHECK_EQ_I(key(&t, 'Q'), AF_REDRAW);
    CHECK(strstr(A->msg, "not bound") != NULL);
    close_app(&t);
}

/* the reference order of the event list: (ts, event number) */
static const Store *g_ref_s;
static int ref_cmp(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    const Store *s = g_ref_s;
    if (s->ts[a] != s->ts[b]) return s->ts[a] < s->ts[b] ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* evorder_* against a sort of the selected events, walked one step and n
 * steps at a time both ways, ranks, and the first event at a time */
static void check_evorder(const Store *s, const uint64_t *sel)
{
    uint32_t *ref = xmalloc((s->n + 1) * sizeof *ref), *buf = xmalloc((s->n + 1) * sizeof *buf);
    size_t n = 0;
    for (uint32_t e = 0; e < s->n; e++)
        if (!sel || ((sel[e >> 6] >> (e & 63)) & 1)) ref[n++] = e;
    g_ref_s = s;
    qsort(ref, n, sizeof *ref, ref_cmp);
    if (!n) {
        CHECK_EQ_I(evorder_first(s, sel), NONE32);
        goto out;
    }
    CHECK_EQ_I(evorder_first(s, sel), ref[0]);
    CHECK_EQ_I(evorder_last(s, sel), ref[n - 1]);
    size_t bad = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        uint32_t nx = NONE32;
        if (evorder_walk(s, sel, ref[i], +1, &nx, 1) != 1 || nx != ref[i + 1]) bad++;
        if (evorder_rank(s, sel, ref[i]) != i) bad++;
    }
    CHECK_EQ_I(bad, 0);
    CHECK_EQ_I(evorder_walk(s, sel, ref[n - 1], +1, buf, 5), 0);
    CHECK_EQ_I(evorder_walk(s, sel, ref[0], -1, buf, 5), 0);
    /* the whole list in one walk, forwards from the first and backwards from the last */
    CHECK_EQ_I(evorder_walk(s, sel, ref[0], +1, buf, n), n - 1);
    bad = 0;
    for (size_t i = 0; i + 1 < n; i++) bad += buf[i] != ref[i + 1];
    CHECK_EQ_I(evorder_walk(s, sel, ref[n - 1], -1, buf, n), n - 1);
    for (size_t i = 0; i + 1 < n; i++) bad += buf[i] != ref[n - 2 - i];
    CHECK_EQ_I(bad, 0);
    /* at a time: the first event starting then or later, else the last */
    for (size_t i = 0; i < n; i += n / 7 + 1) {
        size_t j = i;
        while (j > 0 && s->ts[ref[j - 1]] == s->ts[ref[i]]) j--;
        CHECK_EQ_I(evorder_at(s, sel, s->ts[ref[i]]), ref[j]);
    }
    CHECK_EQ_I(evorder_at(s, sel, s->ts[ref[n - 1]] + 1), ref[n - 1]);
out:
    free(ref);
    free(buf);
}

/* the event list: every selected event in time order, across locations;
 * a column sort lists the window's events; Enter goes to one */
static void t_event_list(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 100, 30));
    if (!t.ok) return;
    App *A = &t.A;
    const Store *s = A->s;
    check_evorder(s, NULL);
    uint64_t *sel = xcalloc(s->n / 64 + 2, sizeof *sel);
    for (uint32_t e = 0; e < s->n; e += 3) sel[e >> 6] |= (uint64_t)1 << (e & 63);
    check_evorder(s, sel);
    memset(sel, 0, (s->n / 64 + 2) * sizeof *sel);
    check_evorder(s, sel);
    free(sel);
    /* the list opens at the cursor's time, reaches the first and the last
     * event, and the other views' cursor follows it */
    uint32_t *ref = xmalloc(s->n * sizeof *ref);
    for (uint32_t e = 0; e < s->n; e++) ref[e] = e;
    g_ref_s = s;
    qsort(ref, s->n, sizeof *ref, ref_cmp);
    keys(&t, "7");
    CHECK_EQ_I(A->ev_at, evorder_at(s, NULL, app_cursor_time(A)));
    key(&t, TK_END);
    CHECK_EQ_I(A->ev_at, ref[s->n - 1]);
    key(&t, TK_HOME);
    CHECK_EQ_I(A->ev_at, ref[0]);
    keys(&t, "jjj");
    CHECK_EQ_I(A->ev_at, ref[3]);
    CHECK(cursor_cell_holds(A, s->ts[ref[3]]));
    key(&t, TK_PGDN);
    CHECK(A->ev_at != ref[3] && evorder_rank(s, NULL, A->ev_at) > 3);
    key(&t, TK_PGUP);
    CHECK_EQ_I(A->ev_at, ref[3]);
    uint32_t e = A->ev_at;
    keys(&t, "\n");
    CHECK_EQ_I(A->view, V_GANTT_LOC);
    CHECK(cursor_cell_holds(A, s->ts[e]));
    CHECK_EQ_I(A->cur_row, row_of(A, s->loc[e]));
    /* with a filter: only what it selects, the last one at End */
    CHECK(app_apply_filter(A, "kind == \"send\"", false));
    frame(&t, AF_REFILTER);
    keys(&t, "7");
    CHECK(A->ev_at != NONE32 && s->kind[A->ev_at] == K_SEND);
    key(&t, TK_END);
    uint32_t last_send = NONE32;
    for (size_t i = 0; i < s->n; i++)
        if (s->kind[ref[i]] == K_SEND) last_send = ref[i];
    CHECK_EQ_I(A->ev_at, last_send);
    app_clear_filter(A, false);
    frame(&t, AF_REFILTER);
    free(ref);
    /* sorted by a column: the events of the visible range */
    keys(&t, "0+++");
    keys(&t, "s");
    CHECK(A->ev_sort == 1);
    size_t vis = 0;
    for (uint32_t k = 0; k < s->n; k++) {
        int64_t end = (s->flags[k] & EVF_DUR) ? s->ts[k] + s->dur[k] : s->ts[k];
        if (s->ts[k] < A->t1 && (end > A->t0 || s->ts[k] >= A->t0)) vis++;
    }
    CHECK(A->nevlist > 0 && A->nevlist < 328);
    CHECK(A->nevlist <= vis);
    for (size_t i = 0; i + 1 < A->nevlist; i++) CHECK(s->dur[A->evlist[i]] >= s->dur[A->evlist[i + 1]]);
    keys(&t, "jjj");
    CHECK_EQ_I(A->ev_cur, 3);
    e = A->evlist[3];
    keys(&t, "\n");
    CHECK_EQ_I(A->view, V_GANTT_LOC);
    CHECK(cursor_cell_holds(A, s->ts[e]));
    CHECK_EQ_I(A->cur_row, row_of(A, s->loc[e]));
    close_app(&t);
}

/* the drill-down panes: the cursor row's metric over time (its time
 * columns under the main view's), every row at the cursor's time, the
 * cursor location's traffic by partner; the same key closes */
static void t_drill(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 110, 36));
    if (!t.ok) return;
    App *A = &t.A;
    keys(&t, "jjjjj");
    CHECK(keys(&t, "L") & AF_REAGG);
    CHECK(A->drill == DR_LINE);
    CHECK(screen_has(&t, "line: busy of 5 over time"));
    /* the pane's plot starts in the main view's first time column; rank 5
     * computes throughout: its line is at the top, the y axis says 1 */
    int top = -1;
    for (int y = 0; y < t.c->h && top < 0; y++) {
        char *l = screen_line(&t, y);
        if (strstr(l, "line: busy of 5")) top = y;
        free(l);
    }
    CHECK(top > 0);
    char *l1 = screen_line(&t, top + 1);
    CHECK(strstr(l1, "1│") != NULL);
    Cell *axis = canvas_at(t.c, A->lay_x0 - 1, top + 1);
    CHECK(axis && axis->ch == 0x2502);
    Cell *dot = canvas_at(t.c, A->lay_x0, top + 1);
    CHECK(dot && dot->ch >= 0x2800 && dot->ch <= 0x28FF);
    free(l1);
    /* it follows the cursor's row */
    keys(&t, "k");
    CHECK(screen_has(&t, "line: busy of 4 over time"));
    CHECK(keys(&t, "B") & AF_REAGG);
    CHECK(A->drill == DR_BARS);
    CHECK(screen_has(&t, "bars: busy of every location at"));
    CHECK(keys(&t, "P") & AF_REAGG);
    CHECK(screen_has(&t, "partners of 4: bytes per pair over time (2 pairs)"));
    CHECK(screen_has(&t, "3->4") && screen_has(&t, "4->5"));
    CHECK(keys(&t, "P") & AF_REAGG);
    CHECK(A->drill == DR_NONE);
    CHECK(!screen_has(&t, "partners of"));
    /* the matrix of a marked range: the messages of the first iteration only */
    keys(&t, "0");
    A->have_a = A->have_b = true;
    A->mark_a = A->s->t_min;
    A->mark_b = A->s->t_min + 6062000; /* (6.062 ms: the first iteration, 7 messages sent) */
    keys(&t, "5");
    CHECK(screen_has(&t, "28 KiB"));
    A->have_a = A->have_b = false;
    frame(&t, AF_REAGG);
    CHECK(screen_has(&t, "320 KiB") && !screen_has(&t, "28 KiB"));
    /* not in the list views */
    keys(&t, "7");
    keys(&t, "L");
    CHECK(A->drill == DR_NONE && strstr(A->msg, "in the Gantt, density and imbalance views"));
    close_app(&t);
}

/* the full legend (K): the names in the Gantt's colours with their times,
 * every glyph, scrolling, closing */
static void t_legend(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/x10.csv", 100, 30));
    if (!t.ok) return;
    App *A = &t.A;
    CHECK(keys(&t, "K") & AF_REDRAW);
    CHECK(A->show_legend);
    CHECK(screen_has(&t, "legend, lines 1-"));
    CHECK(screen_has(&t, "work  (state, 22.2 ms)"));
    CHECK(screen_has(&t, "finish  (sync, 12.72 ms)"));
    /* the glyph of a name is the Gantt's: work's cells are drawn with it */
    uint32_t top[26];
    int nt = summary_top_names(A->S, top, NULL, 26);
    CHECK(nt > 0 && !strcmp(event_name(A->s, top[0]), "work"));
    int n = legend_lines(A, t.c);
    CHECK(n > 30);
    for (int i = 0; i < 60; i++) keys(&t, "j");
    CHECK(A->legend_off > 0 && A->show_legend);
    CHECK(screen_has(&t, "critical path"));
    CHECK(screen_has(&t, "of " ) && !screen_has(&t, "Names: what runs"));
    keys(&t, "K");
    CHECK(!A->show_legend);
    CHECK(!screen_has(&t, "legend"));
    /* any other key closes it and does what it does */
    keys(&t, "K");
    keys(&t, "3");
    CHECK(!A->show_legend && A->view == V_DENSITY);
    close_app(&t);
}

/* the status line at 80 columns: the filter and the highlight stay, the
 * least important parts go first; at any width it fits */
static void t_status_fit(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 80, 24));
    if (!t.ok) return;
    App *A = &t.A;
    char b[2048], full[2048];
    app_status(A, full, sizeof full);
    app_status_fit(A, b, sizeof b, 100);
    CHECK(!strcmp(b, full)); /* (it fits: nothing changes) */
    const char *F = "name =~ /^MPI_Barrier$/ || (kind == \"send\" && bytes >= 4KiB && loc in 0..7)";
    CHECK(app_apply_filter(A, F, false));
    frame(&t, AF_REFILTER);
    CHECK(app_apply_filter(A, "kind == \"recv\" && dur > 1us", true));
    frame(&t, AF_REFILTER);
    for (int w = 40; w <= 200; w += 8) {
        app_status_fit(A, b, sizeof b, w);
        int bw = text_width(b);
        if (bw > w) printf("    (width %d: %d columns: %s)\n", w, bw, b);
        CHECK(bw <= w || w < 50);
        CHECK(strstr(b, "filter: name") != NULL);
        CHECK(strstr(b, "highlight: kin") != NULL);
        if (w >= 80 && !(strstr(b, "filter: name =~") && strstr(b, "highlight: kind =="))) {
            printf("    (width %d: %s)\n", w, b);
            CHECK(false);
        }
    }
    app_status_fit(A, b, sizeof b, 80);
    /* the filter's two ends show; the help and the zoom went first */
    CHECK(strstr(b, "loc in 0..7)") != NULL);
    CHECK(strstr(b, "? help") == NULL && strstr(b, "x1.00") == NULL);
    app_status_fit(A, b, sizeof b, 1000);
    CHECK(strstr(b, F) != NULL && strstr(b, "? help") != NULL && strstr(b, "x1.00") != NULL);
    close_app(&t);
}

/* the time order on a trace of many short activities over 64 workers
 * (the generator's tasks shape): every event reached, both ways */
static void t_event_order_tasks(void)
{
    char path[300], *cmd;
    snprintf(path, sizeof path, "%s/tasks.csv", g_tmpdir);
    cmd = xasprintf("sample-logs/gen --shape tasks --events 20000 -o '%s'", path);
    int rc = system(cmd);
    free(cmd);
    CHECK_EQ_I(rc, 0);
    if (rc) return;
    T t;
    CHECK(open_app(&t, path, 100, 30));
    if (!t.ok) return;
    const Store *s = t.A.s;
    check_evorder(s, NULL);
    uint64_t *sel = xcalloc(s->n / 64 + 2, sizeof *sel);
    for (uint32_t e = 0; e < s->n; e++)
        if (s->kind[e] != K_STATE) sel[e >> 6] |= (uint64_t)1 << (e & 63);
    check_evorder(s, sel);
    free(sel);
    close_app(&t);
}

/* a new filter that keeps the same intervals (one on instants) keeps the
 * lanes of the summary it replaces (summary_build_from), also when the
 * filter is cleared; one on intervals sweeps them again; the views drawn
 * from kept lanes are those of an interface that swept its lanes for
 * the same filter */
static void t_filter_keeps_lanes(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/tasks-lanes.csv", g_tmpdir);
    char *cmd = xasprintf("sample-logs/gen --shape tasks --events 20000 --seed 3 -o '%s'", path);
    int rc = system(cmd);
    free(cmd);
    CHECK_EQ_I(rc, 0);
    if (rc) return;
    T t, u;
    CHECK(open_app(&t, path, 120, 40));
    if (!t.ok) return;
    CHECK(open_app(&u, path, 120, 40));
    if (!u.ok) {
        close_app(&t);
        return;
    }
    uint32_t nmark = 0, nmark_dur = 0;
    for (uint32_t e = 0; e < t.A.s->n; e++)
        if (t.A.s->kind[e] == K_MARK) {
            nmark++;
            nmark_dur += (t.A.s->flags[e] & EVF_DUR) && t.A.s->dur[e] > 0;
        }
    CHECK(nmark > 0 && nmark_dur == 0); /* (the shape has marks, all of them instants) */
    keys(&t, "/kind != \"mark\"\n");
    CHECK_EQ_I(t.A.ss.nsel, t.A.s->n - nmark);
    CHECK(summary_lanes_kept(t.A.S));
    /* the other interface: through a filter on intervals first */
    keys(&u, "/dur > 1us\n");
    CHECK(!summary_lanes_kept(u.A.S));
    keys(&u, "/");
    key(&u, CTRL('u'));
    keys(&u, "kind != \"mark\"\n");
    CHECK(!summary_lanes_kept(u.A.S));
    CHECK_EQ_I(u.A.ss.nsel, t.A.ss.nsel);
    static const char *const VKEYS[] = {"1", "2", "3", "4", "5"};
    for (int pass = 0; pass < 2; pass++) {
        for (size_t v = 0; v < sizeof VKEYS / sizeof VKEYS[0]; v++) {
            keys(&t, VKEYS[v]);
            keys(&u, VKEYS[v]);
            char *a = screen(&t), *b = screen(&u);
            size_t na = above_last_line(a), nb = above_last_line(b);
            CHECK(na == nb && na > 1000 && !memcmp(a, b, na));
            free(a);
            free(b);
        }
        if (pass) break;
        /* cleared: the unfiltered lanes are the same ones again */
        keys(&t, "C");
        CHECK(t.A.S && t.A.S == t.A.S_all && summary_lanes_kept(t.A.S));
        keys(&u, "C");
        CHECK(u.A.S && u.A.S == u.A.S_all && summary_lanes_kept(u.A.S));
        CHECK_EQ_I(t.A.ss.nsel, t.A.s->n);
    }
    close_app(&t);
    close_app(&u);
}

/* ---- opening: the progress of a load ----------------------------------------- */

static void t_load_progress(void)
{
    /* the percentage: truncated, 100 only when every byte is done */
    CHECK_EQ_I(load_progress_percent(0, 1000), 0);
    CHECK_EQ_I(load_progress_percent(375, 1000), 37);
    CHECK_EQ_I(load_progress_percent(999, 1000), 99);
    CHECK_EQ_I(load_progress_percent(999999999999ull, 1000000000000ull), 99);
    CHECK_EQ_I(load_progress_percent(1000, 1000), 100);
    CHECK_EQ_I(load_progress_percent(0, 0), 100); /* (an empty file) */
    CHECK_EQ_I(load_progress_percent(500000000000000000ull, 1000000000000000000ull), 50); /* no overflow */
    CHECK_EQ_I(load_progress_percent(UINT64_MAX - 1, UINT64_MAX), 99);
    char b[128];
    load_progress_text(260000000, 702000000, LOAD_PH_PARSE, 0.5, b, sizeof b);
    CHECK_EQ_S(b, "37%  260 of 702 MB  520 MB/s");
    load_progress_text(0, 702000000, LOAD_PH_PARSE, 0, b, sizeof b);
    CHECK_EQ_S(b, "0%  0 of 702 MB  0 MB/s");
    load_progress_text(702000000, 702000000, LOAD_PH_BUILD, 2, b, sizeof b);
    CHECK_EQ_S(b, "100%  702 MB  indexing");
    load_progress_text(8000, 16000, LOAD_PH_PARSE, 2, b, sizeof b);
    CHECK_EQ_S(b, "50%  8 of 16 kB  4 kB/s");

    /* the box, in the middle of the screen, and its bar */
    T t;
    memset(&t, 0, sizeof t);
    t.c = canvas_new(80, 24, false, true);
    draw_loading(t.c, "trace.csv", 500, 1000, LOAD_PH_PARSE, 1, false);
    CHECK(screen_has(&t, "tnav: loading"));
    CHECK(screen_has(&t, "trace.csv"));
    CHECK(screen_has(&t, "50%  0 of 1 kB"));
    CHECK(screen_has(&t, "Esc: cancel"));
    char *bar = screen_line(&t, 11);
    CHECK(strstr(bar, "█░") != NULL);
    free(bar);
    draw_loading(t.c, "trace.csv", 500, 1000, LOAD_PH_PARSE, 1, true);
    CHECK(screen_has(&t, "cancelling..."));
    canvas_free(t.c);
    /* ASCII, and a terminal too small for the box: clipped, no harm */
    t.c = canvas_new(12, 3, true, false);
    draw_loading(t.c, "trace.csv", 1, 2, LOAD_PH_PARSE, 1, false);
    char *s = screen(&t);
    for (const char *q = s; *q; q++) CHECK((unsigned char)*q < 128);
    free(s);
    canvas_free(t.c);
}

/* the interface's first frame leaves out the Gantt's instants and message
 * arrivals; the next one has them, and is otherwise the same */
static int msg_cells(const Canvas *c)
{
    int n = 0;
    for (int i = 0; i < c->w * c->h; i++) n += c->cells[i].fg == ROLE_MSG || c->cells[i].fg == ROLE_GLYPH;
    return n;
}

static void t_first_frame_lite(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 100, 30));
    t.A.first_lite = true;
    frame(&t, AF_REAGG);
    char *lite = screen_line(&t, 29);
    int n0 = msg_cells(t.c);
    t.A.first_lite = false;
    frame(&t, AF_REAGG);
    int n1 = msg_cells(t.c);
    if (n1 < n0 + 10) printf("    (marks: %d in the first frame, %d in the next)\n", n0, n1);
    CHECK(n1 >= n0 + 10);
    char *full = screen_line(&t, 29);
    CHECK_EQ_S(lite, full); /* (the same status line: window, counts) */
    free(lite);
    free(full);
    close_app(&t);
}

/* two canvases the same, cell by cell */
static bool same_canvas(const Canvas *a, const Canvas *b)
{
    if (a->w != b->w || a->h != b->h) return false;
    for (int i = 0; i < a->w * a->h; i++)
        if (a->cells[i].ch != b->cells[i].ch || a->cells[i].fg != b->cells[i].fg || a->cells[i].bg != b->cells[i].bg ||
            a->cells[i].attr != b->cells[i].attr)
            return false;
    return true;
}

/* As the interface opens a trace (LoadOpts.defer_tail): the first lite
 * Gantt is drawn before the messages and sync groups exist, and is the
 * one drawn with them; the next frame builds them first, and is the one
 * drawn without deferring; a first frame of another view builds them
 * before it is drawn. */
static void t_first_frame_deferred(void)
{
    char *gen = xasprintf("/tmp/tnav-tui-defer-%d.csv", (int)getpid());
    char *cmd = xasprintf("sample-logs/gen --shape mpi --events 40000 --format csv -o '%s'", gen);
    CHECK(system(cmd) == 0);
    free(cmd);
    /* (and, where ../shared is beside the checkout, traces written by real
     * tools with messages and sync groups: Score-P OTF2, Extrae Paraver,
     * Chrome flows) */
    const char *const FILES[] = {"sample-logs/ring.csv", "sample-logs/mw.csv", "sample-logs/x10.csv", gen,
                                 "../shared/traces/otf2/scorep_stencil4d_64ranks",
                                 "../shared/traces/paraver/extrae_lulesh_mpi",
                                 "../shared/traces/chrome_json/catapult_flow.json"};
    static const ViewId FIRST[] = {V_GANTT_LOC, V_GANTT_ACT, V_DENSITY, V_COMM, V_MATRIX};
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++)
        for (size_t v = 0; v < sizeof FIRST / sizeof FIRST[0]; v++) {
            if (i > 3 && access(FILES[i], R_OK) != 0) break;
            T a, b;
            CHECK(open_app_defer(&a, FILES[i], 120, 40, false));
            CHECK(open_app_defer(&b, FILES[i], 120, 40, true));
            if (!a.ok || !b.ok) {
                close_app(&a);
                close_app(&b);
                continue;
            }
            CHECK(b.A.s->tail_pending && !a.A.s->tail_pending);
            app_set_view(&a.A, FIRST[v]);
            app_set_view(&b.A, FIRST[v]);
            a.A.first_lite = b.A.first_lite = true;
            frame(&a, AF_REAGG);
            frame(&b, AF_REAGG);
            bool gantt = FIRST[v] == V_GANTT_LOC || FIRST[v] == V_GANTT_ACT;
            /* (a lite Gantt without them; any other view built them first) */
            CHECK(b.A.s->tail_pending == gantt);
            CHECK(same_canvas(a.c, b.c));
            app_finish_tail(&b.A); /* (as the interface does after its first frame) */
            CHECK(!b.A.s->tail_pending);
            CHECK(a.A.comm_metric == b.A.comm_metric);
            a.A.first_lite = b.A.first_lite = false;
            frame(&a, AF_REAGG);
            frame(&b, AF_REAGG);
            CHECK(same_canvas(a.c, b.c));
            if (!same_canvas(a.c, b.c)) printf("    (%s, view %d)\n", FILES[i], (int)FIRST[v]);
            close_app(&a);
            close_app(&b);
        }
    /* a restored session: a view, a window and a cursor leave them for
     * after the first frame (which is then the same); a filter, a
     * highlight or a range builds them first */
    static const struct {
        const char *body;
        bool builds;
    } SESS[] = {{"view gantt\nwindow 1000000 2000000\ncursor 1500000 1\nbookmark a 1200000 here\n", false},
                {"view gantt\nfilter kind == \"send\"\n", true},
                {"view gantt\nhighlight dur > 1us\n", true},
                {"view gantt\nrange a 1000000\n", true}};
    for (size_t k = 0; k < sizeof SESS / sizeof SESS[0]; k++) {
        T a, b;
        CHECK(open_app_defer(&a, "sample-logs/ring.csv", 100, 30, false));
        CHECK(open_app_defer(&b, "sample-logs/ring.csv", 100, 30, true));
        if (!a.ok || !b.ok) {
            close_app(&a);
            close_app(&b);
            continue;
        }
        char note[300];
        CHECK(session_apply(&a.A, SESS[k].body, false, note, sizeof note));
        CHECK(session_apply(&b.A, SESS[k].body, false, note, sizeof note));
        CHECK(b.A.s->tail_pending == !SESS[k].builds);
        a.A.first_lite = b.A.first_lite = true;
        frame(&a, AF_REAGG);
        frame(&b, AF_REAGG);
        CHECK(same_canvas(a.c, b.c));
        app_finish_tail(&b.A);
        a.A.first_lite = b.A.first_lite = false;
        frame(&a, AF_REAGG);
        frame(&b, AF_REAGG);
        CHECK(same_canvas(a.c, b.c));
        if (!same_canvas(a.c, b.c)) printf("    (session %zu)\n", k);
        close_app(&a);
        close_app(&b);
    }
    /* a frame drawn without the interface's explicit call builds them too */
    T c;
    CHECK(open_app_defer(&c, "sample-logs/ring.csv", 100, 30, true));
    if (c.ok) {
        c.A.first_lite = false;
        frame(&c, AF_REAGG);
        CHECK(!c.A.s->tail_pending && c.A.s->nmsg == 80);
        close_app(&c);
    }
    unlink(gen);
    free(gen);
}

/* cancel as soon as the parser threads are past a tenth of the bytes */
static void *cancel_soon(void *arg)
{
    LoadProgress *lp = arg;
    while ((atomic_load(&lp->total) == 0 || atomic_load(&lp->done) < atomic_load(&lp->total) / 10) &&
           atomic_load(&lp->phase) < LOAD_PH_BUILD)
        usleep(50);
    atomic_store(&lp->cancel, true);
    return NULL;
}

/* a cancel that arrives inside a chunk, in the quoted-record path (libcsv)
 * and in the fast path: the parsers stop (no hang: alarm) and the load
 * returns LOAD_CANCELLED with nothing left allocated */
static void t_load_cancel_mid_chunk(void)
{
    char *path = xasprintf("%s/quoted.csv", g_tmpdir);
    for (int quoted = 0; quoted < 3; quoted++) { /* plain CSV, quoted CSV, NDJSON */
        FILE *f = fopen(path, "w");
        if (quoted < 2) fprintf(f, "ts,dur,loc,act,kind,name\n");
        for (int i = 0; i < 300000; i++)
            fprintf(f,
                    quoted == 2   ? "{\"ts\":%d,\"dur\":5,\"loc\":%d,\"act\":\"a\",\"kind\":\"state\",\"name\":\"n%d\"}\n"
                    : quoted == 1 ? "%d,5,%d,a,state,\"name, %d\"\n"
                                  : "%d,5,%d,a,state,name%d\n",
                    i * 10, i % 7, i % 13);
        fclose(f);
        LoadOpts o;
        load_opts_default(&o);
        LoadProgress lp;
        memset(&lp, 0, sizeof lp);
        o.progress = &lp;
        o.threads = 2;
        pthread_t th;
        pthread_create(&th, NULL, cancel_soon, &lp);
        alarm(120);
        Store *s = NULL;
        LoadReport rep;
        int r = load_traces(&o, &path, 1, &s, &rep);
        alarm(0);
        pthread_join(th, NULL);
        if (r == 0) { /* (the machine was faster than the cancel: allowed, but say so) */
            printf("    (the load of variant %d ended before the cancel)\n", quoted);
            store_free(s);
            load_report_free(&rep);
        } else {
            CHECK_EQ_I(r, LOAD_CANCELLED);
            CHECK(s == NULL);
        }
    }
    unlink(path);
    free(path);
}

/* the loader's counters reach the total; a cancelled load frees everything
 * and says so */
static void t_load_cancel(void)
{
    LoadOpts o;
    load_opts_default(&o);
    LoadProgress lp;
    memset(&lp, 0, sizeof lp);
    o.progress = &lp;
    setenv("TNAV_CHUNK_BYTES", "700", 1);
    char *paths[] = {"sample-logs/ring.csv", "sample-logs/x10.csv"};
    Store *s;
    LoadReport rep;
    CHECK_EQ_I(load_traces(&o, paths, 2, &s, &rep), 0);
    struct stat a, b;
    stat(paths[0], &a);
    stat(paths[1], &b);
    CHECK(atomic_load(&lp.total) == (uint64_t)(a.st_size + b.st_size));
    CHECK(atomic_load(&lp.done) == atomic_load(&lp.total));
    CHECK_EQ_I(atomic_load(&lp.phase), LOAD_PH_DONE);
    CHECK(s && s->n == 328 + 39);
    store_free(s);
    load_report_free(&rep);
    /* cancelled before it starts: nothing loaded */
    memset(&lp, 0, sizeof lp);
    atomic_store(&lp.cancel, true);
    CHECK_EQ_I(load_traces(&o, paths, 2, &s, &rep), LOAD_CANCELLED);
    CHECK(s == NULL);
    CHECK(atomic_load(&lp.done) < atomic_load(&lp.total));
    unsetenv("TNAV_CHUNK_BYTES");
}

/* ---- view 9: the analyses ---------------------------------------------------- */

/* the line of the screen that starts with prefix (a new string), or NULL */
static char *line_starting(T *t, const char *prefix)
{
    char *s = screen(t), *r = NULL;
    for (char *l = s; l && *l;) {
        char *nl = strchr(l, '\n');
        if (nl) *nl = 0;
        if (!strncmp(l, prefix, strlen(prefix))) {
            r = xstrdup(l);
            break;
        }
        l = nl ? nl + 1 : NULL;
    }
    free(s);
    return r;
}

static void t_analyses(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 120, 30));
    if (!t.ok) return;
    App *A = &t.A;
    const Store *s = A->s;
    /* the numbers are the command line's: stats_compute over the window */
    Stats st;
    TimeCatRules rules;
    char err[200];
    CHECK(timecat_rules(s, NULL, NULL, 0, &rules, err, sizeof err) == TC_RULES_OK);
    stats_compute(s, NULL, A->t0, A->t1, &rules, &st);
    keys(&t, "9");
    CHECK_EQ_I(A->view, V_ANALYSES);
    CHECK(screen_has(&t, "profile") && screen_has(&t, "critical path"));
    CHECK(screen_has(&t, "MPI_Barrier") && screen_has(&t, "280.5 ms"));
    key(&t, TK_RIGHT); /* time */
    char want[64], *l = line_starting(&t, "5 ");
    format_dur(want, sizeof want, st.loc[5].busy_ns);
    CHECK(l && strstr(l, want));
    if (l) printf("    # %s\n", l);
    free(l);
    char eff[64];
    snprintf(eff, sizeof eff, "parallel efficiency %.1f%%", 100 * st.tc.pop.par_eff);
    CHECK(screen_has(&t, eff));
    /* sorting by the column under the cursor (> moves it), the other way, saving as CSV */
    keys(&t, ">>>"); /* location -> events -> useful -> util% */
    CHECK(strstr(A->msg, "column util%") != NULL);
    keys(&t, "s");
    CHECK(strstr(A->msg, "sorted by util%") != NULL);
    keys(&t, "S");
    char *first = line_starting(&t, "location");
    CHECK(first != NULL);
    free(first);
    setenv("TNAV_SAVE_DIR", g_tmpdir, 1);
    keys(&t, "w");
    char *path = xasprintf("%s/tnav-time.csv", g_tmpdir);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    int lines = 0;
    char buf[512], hdr[512] = "";
    while (f && fgets(buf, sizeof buf, f)) {
        if (!lines) snprintf(hdr, sizeof hdr, "%s", buf);
        lines++;
    }
    if (f) fclose(f);
    CHECK_EQ_I(lines, 1 + (int)s->nloc);
    CHECK(!strcmp(hdr, "location,events,useful,util%,comm,sync,wait,idle,sent,received\n"));
    CHECK(strstr(A->msg, "wrote 8 rows") != NULL);
    /* sorted by util%, ascending after S: rank 5 (the most useful) last */
    f = fopen(path, "r");
    char last[512] = "";
    while (f && fgets(buf, sizeof buf, f)) snprintf(last, sizeof last, "%s", buf);
    if (f) fclose(f);
    CHECK(!strncmp(last, "5,", 2));
    char *u5 = xasprintf(",%" PRId64 ",", st.loc[5].busy_ns);
    CHECK(strstr(last, u5) != NULL); /* the CSV has the nanoseconds */
    free(u5);
    free(path);
    /* waits: Enter on the longest goes to it, victim and culprit highlighted */
    key(&t, TK_RIGHT);
    CHECK(screen_has(&t, "wait_at_barrier"));
    keys(&t, "\n");
    CHECK_EQ_I(A->view, V_GANTT_LOC);
    CHECK(A->hl_sel != NULL && A->hl_text && strstr(A->hl_text, "wait_at_barrier"));
    uint64_t nh = bitmap_count(A->hl_sel, (s->n + 63) / 64);
    CHECK_EQ_I(nh, 2);
    uint32_t victim = NONE32;
    for (uint32_t e = 0; e < s->n; e++)
        if (((A->hl_sel[e >> 6] >> (e & 63)) & 1) && s->loc[e] != 5) victim = e;
    CHECK(victim != NONE32 && A->cur_row == row_of(A, s->loc[victim]));
    CHECK(victim != NONE32 && cursor_cell_holds(A, s->ts[victim]));
    /* syncs: Enter highlights the 8 participants, the cursor on the straggler */
    keys(&t, "09"); /* (the whole trace again; the tab stays) */
    key(&t, TK_RIGHT);
    CHECK(screen_has(&t, "barrier:0"));
    keys(&t, "\n");
    CHECK_EQ_I(bitmap_count(A->hl_sel, (s->n + 63) / 64), 8);
    CHECK_EQ_I(A->cur_row, row_of(A, 5));
    /* the critical path: the overlay marks rank 5's row, } walks along it */
    keys(&t, "0c");
    int under5 = 0, under_other = 0;
    for (int x = 0; x < t.c->w; x++)
        for (uint32_t r = 0; r < 8; r++) {
            Cell *cl = canvas_at(t.c, x, A->lay_y0 + row_of(A, r) - (int)A->row_off);
            if (cl && cl->fg == ROLE_WARN && (cl->attr & ATTR_BOLD)) {
                if (r == 5) under5++;
                else under_other++;
            }
        }
    CHECK(under5 > 3 * (under_other + 1));
    if (!(under5 > 3 * (under_other + 1))) printf("    # underlined: rank 5 %d, others %d\n", under5, under_other);
    keys(&t, "}");
    long k1 = strstr(A->msg, "path ") ? strtol(strstr(A->msg, "path ") + 5, NULL, 10) : -1;
    keys(&t, "}");
    long k2 = strstr(A->msg, "path ") ? strtol(strstr(A->msg, "path ") + 5, NULL, 10) : -1;
    CHECK(k1 >= 1 && k2 == k1 + 1);
    keys(&t, "{");
    CHECK(strstr(A->msg, "path ") && strtol(strstr(A->msg, "path ") + 5, NULL, 10) == k1);
    /* the marked range's efficiency on the status line, as stats gives it */
    keys(&t, "0");
    A->have_a = A->have_b = true;
    A->mark_a = s->t_min;
    A->mark_b = s->t_min + (s->t_max - s->t_min) / 2;
    frame(&t, 0);
    Stats st2;
    stats_compute(s, NULL, A->mark_a, A->mark_b, &rules, &st2);
    char st_line[1024], pe[64];
    app_status(A, st_line, sizeof st_line);
    snprintf(pe, sizeof pe, "range: efficiency %.1f%%", 100 * st2.tc.pop.par_eff);
    CHECK(strstr(st_line, pe) != NULL);
    if (!strstr(st_line, pe)) printf("    # %s / %s\n", st_line, pe);
    stats_free(&st2);
    stats_free(&st);
    timecat_rules_free(&rules);
    close_app(&t);
}

/* ---- view 9 equals the command line ------------------------------------------ */

/* the fields of one CSV line (quotes as csv_field writes them), in place */
static int csv_split(char *l, char **f, int max)
{
    int n = 0;
    char *w = l, *r = l;
    l[strcspn(l, "\n")] = 0;
    while (n < max) {
        f[n++] = w;
        if (*r == '"') {
            r++;
            for (;;) {
                if (!*r) break;
                if (*r == '"' && r[1] == '"') {
                    *w++ = '"';
                    r += 2;
                } else if (*r == '"') {
                    r++;
                    break;
                } else {
                    *w++ = *r++;
                }
            }
        } else {
            while (*r && *r != ',') *w++ = *r++;
        }
        bool more = *r == ',';
        *w++ = 0;
        if (!more) break;
        r++;
        w = r > w ? w : w; /* (writes never pass reads) */
    }
    return n;
}

/* the table of the analyses' tab saved as CSV: rows of fields (a new
 * array of new strings; the header skipped) */
typedef struct {
    char *line[8192];
    char *f[8192][12];
    int nf[8192];
    int n;
} Csv;

static bool save_tab(T *t, int tab, Csv *c)
{
    memset(c, 0, sizeof *c);
    analyses_set_tab(&t->A, (AnTab)tab);
    setenv("TNAV_SAVE_DIR", g_tmpdir, 1);
    analyses_save(&t->A);
    static const char *const names[] = {"profile", "time", "waits", "syncs", "critpath"};
    char *path = xasprintf("%s/tnav-%s.csv", g_tmpdir, names[tab]);
    FILE *f = fopen(path, "r");
    free(path);
    if (!f) return false;
    char buf[4096];
    bool hdr = true;
    while (fgets(buf, sizeof buf, f) && c->n < 8192) {
        if (hdr) {
            hdr = false;
            continue;
        }
        c->line[c->n] = xstrdup(buf);
        c->nf[c->n] = csv_split(c->line[c->n], c->f[c->n], 12);
        c->n++;
    }
    fclose(f);
    return true;
}

static void csv_free(Csv *c)
{
    for (int i = 0; i < c->n; i++) free(c->line[i]);
}

/* `tnav ARGS --json TRACE` parsed (NULL on failure) */
static jd_node *tnav_json(const char *args, const char *trace)
{
    const char *tnav = getenv("TNAV") ? getenv("TNAV") : "./tnav";
    char *cmd = xasprintf("%s %s --json '%s'", tnav, args, trace);
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (!p) return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, k;
    char tmp[65536];
    while ((k = fread(tmp, 1, sizeof tmp, p)) > 0) {
        if (len + k + 1 > cap) {
            cap = (len + k + 1) * 2;
            buf = xrealloc(buf, cap);
        }
        memcpy(buf + len, tmp, k);
        len += k;
    }
    pclose(p);
    char err[200];
    jd_node *j = buf ? jd_parse(buf, len, err, sizeof err) : NULL;
    if (!j) printf("    # tnav %s: %s\n", args, buf ? err : "no output");
    free(buf);
    return j;
}

static int64_t jint(const jd_node *o, const char *key)
{
    const jd_node *v = o ? jd_get(o, key) : NULL;
    return v && v->type == JD_NUMBER ? v->ival : INT64_MIN;
}

/* a JSON location (a number, or a label) as its label text */
static const char *jloc(const jd_node *v, char *buf, size_t sz)
{
    if (!v || v->type == JD_NULL) return "-";
    if (v->type == JD_NUMBER) return v->text;
    snprintf(buf, sz, "%s", v->text);
    return buf;
}

static int64_t fint(const char *s) { return *s ? (int64_t)strtod(s, NULL) : INT64_MIN; }

/* every table of view 9, over the window tnav's commands take by default
 * (the whole trace), against their --json output */
static void match_cli(const char *trace)
{
    T t;
    CHECK(open_app(&t, trace, 160, 40));
    if (!t.ok) return;
    printf("    # %s\n", trace);
    App *A = &t.A;
    const Store *s = A->s;
    keys(&t, "9");
    A->have_a = A->have_b = true;
    A->mark_a = s->t_min;
    A->mark_b = s->t_max + 1;
    frame(&t, 0);
    int64_t t0 = s->t_min;
    char lb[256];
    Csv *c = xmalloc(sizeof *c);
    /* profile: every row, every column */
    jd_node *j = tnav_json("stats", trace);
    const jd_node *prof = j ? jd_get(j, "profile") : NULL;
    CHECK(save_tab(&t, AT_PROFILE, c));
    CHECK(prof && (int)prof->n == c->n && c->n > 0);
    int bad = 0;
    for (int i = 0; prof && i < c->n; i++) {
        const jd_node *r = NULL;
        for (size_t k = 0; k < prof->n && !r; k++)
            if (!strcmp(jd_get(prof->kids[k], "name")->text, c->f[i][0])) r = prof->kids[k];
        if (!r || c->nf[i] != 9 || fint(c->f[i][1]) != jint(r, "calls") || fint(c->f[i][2]) != jint(r, "self_ns") ||
            fint(c->f[i][4]) != jint(r, "total_ns") || fint(c->f[i][5]) != jint(r, "mean_ns") ||
            fint(c->f[i][6]) != jint(r, "min_ns") || fint(c->f[i][7]) != jint(r, "max_ns") ||
            fint(c->f[i][8]) != jint(r, "stddev_ns")) {
            if (!bad++) printf("    # profile row differs: %s", c->line[i]);
        }
    }
    CHECK_EQ_I(bad, 0);
    csv_free(c);
    /* time per location */
    const jd_node *pl = j ? jd_get(j, "per_loc") : NULL;
    CHECK(save_tab(&t, AT_TIME, c));
    CHECK(pl && (int)pl->n == c->n);
    bad = 0;
    for (int i = 0; pl && i < c->n && i < (int)pl->n; i++) {
        const jd_node *r = pl->kids[i];
        if (strcmp(jloc(jd_get(r, "loc"), lb, sizeof lb), c->f[i][0]) || fint(c->f[i][1]) != jint(r, "events") ||
            fint(c->f[i][2]) != jint(r, "useful_ns") || fint(c->f[i][4]) != jint(r, "comm_ns") ||
            fint(c->f[i][5]) != jint(r, "sync_ns") || fint(c->f[i][6]) != jint(r, "wait_ns") ||
            fint(c->f[i][7]) != jint(r, "idle_ns") || fint(c->f[i][8]) != jint(r, "sent_bytes") ||
            fint(c->f[i][9]) != jint(r, "recv_bytes")) {
            if (!bad++) printf("    # time row differs: %s", c->line[i]);
        }
    }
    CHECK_EQ_I(bad, 0);
    csv_free(c);
    jd_free(j);
    /* waits: each (pattern, victim) row is by_loc; the rows of a pattern add up to its total */
    j = tnav_json("waits", trace);
    const jd_node *pats = j ? jd_get(j, "patterns") : NULL;
    CHECK(save_tab(&t, AT_WAITS, c));
    bad = 0;
    int nrows = 0;
    for (size_t p = 0; pats && p < pats->n; p++) {
        const jd_node *P = pats->kids[p], *bl = jd_get(P, "by_loc");
        int64_t sum = 0;
        for (int i = 0; i < c->n; i++) {
            if (strcmp(c->f[i][0], jd_get(P, "pattern")->text)) continue;
            sum += fint(c->f[i][2]);
            const jd_node *r = NULL;
            for (size_t k = 0; k < bl->n && !r; k++)
                if (!strcmp(jloc(jd_get(bl->kids[k], "loc"), lb, sizeof lb), c->f[i][1])) r = bl->kids[k];
            if (!r || fint(c->f[i][2]) != jint(r, "ns")) {
                if (!bad++) printf("    # waits row differs: %s", c->line[i]);
            }
            /* its worst instance, when among the pattern's 10 worst */
            const jd_node *wo = jd_get(P, "worst");
            for (size_t k = 0; k < wo->n; k++) {
                const jd_node *W = wo->kids[k];
                char cb[256];
                if (strcmp(jloc(jd_get(W, "loc"), lb, sizeof lb), c->f[i][1])) continue;
                if (fint(c->f[i][4]) != jint(W, "ns") || fint(c->f[i][5]) != jint(W, "ts") - t0 ||
                    strcmp(jloc(jd_get(W, "culprit"), cb, sizeof cb), c->f[i][6])) {
                    if (!bad++) printf("    # waits worst differs: %s", c->line[i]);
                }
                break;
            }
            nrows++;
        }
        if (sum != jint(P, "total_ns")) {
            if (!bad++) printf("    # waits %s: rows %" PRId64 ", total %" PRId64 "\n", jd_get(P, "pattern")->text, sum, jint(P, "total_ns"));
        }
    }
    CHECK_EQ_I(nrows, c->n);
    CHECK_EQ_I(bad, 0);
    csv_free(c);
    jd_free(j);
    /* syncs: in group order, each row's parts, wait, last and release */
    j = tnav_json("syncs", trace);
    const jd_node *sy = j ? jd_get(j, "syncs") : NULL;
    CHECK(save_tab(&t, AT_SYNCS, c));
    CHECK(sy && (int)sy->n == c->n);
    bad = 0;
    for (int i = 0; sy && i < c->n && i < (int)sy->n; i++) {
        const jd_node *r = sy->kids[i], *g = jd_get(r, "group"), *nm = jd_get(r, "name");
        const jd_node *last = jd_get(r, "last");
        char gb[256], nb[256];
        snprintf(gb, sizeof gb, "%s", g->text);
        snprintf(nb, sizeof nb, "%s", nm->type == JD_STRING ? nm->text : "-");
        if (strcmp(gb, c->f[i][0]) || strcmp(nb, c->f[i][1]) ||
            fint(c->f[i][2]) != (int64_t)jd_get(r, "participants")->n || fint(c->f[i][3]) != jint(r, "wait_ns") ||
            strcmp(jloc(jd_get(last, "loc"), lb, sizeof lb), c->f[i][4]) ||
            fint(c->f[i][6]) != jint(r, "release") - t0) {
            if (!bad++) printf("    # syncs row differs: %s", c->line[i]);
        }
    }
    CHECK_EQ_I(bad, 0);
    csv_free(c);
    jd_free(j);
    /* the critical path: segment by segment */
    j = tnav_json("critpath", trace);
    const jd_node *seg = j ? jd_get(j, "segments") : NULL;
    CHECK(save_tab(&t, AT_CRIT, c));
    CHECK(seg && (int)seg->n == c->n && c->n > 0);
    bad = 0;
    for (int i = 0; seg && i < c->n && i < (int)seg->n; i++) {
        const jd_node *r = seg->kids[i], *nm = jd_get(r, "name"), *kd = jd_get(r, "kind");
        char nb[256];
        if (nm->type == JD_STRING) snprintf(nb, sizeof nb, "%s", nm->text);
        else if (kd->type == JD_STRING) snprintf(nb, sizeof nb, "(%s)", kd->text);
        else snprintf(nb, sizeof nb, "(no interval)");
        if (fint(c->f[i][0]) != jint(r, "ts") - t0 || strcmp(jloc(jd_get(r, "loc"), lb, sizeof lb), c->f[i][1]) ||
            strcmp(jd_get(r, "act")->text, c->f[i][2]) || strcmp(nb, c->f[i][3]) || fint(c->f[i][4]) != jint(r, "dur")) {
            if (!bad++) printf("    # critpath row differs: %s", c->line[i]);
        }
    }
    CHECK_EQ_I(bad, 0);
    csv_free(c);
    jd_free(j);
    free(c);
    close_app(&t);
}

static void t_analyses_match_cli(void)
{
    match_cli("sample-logs/ring.csv");
    match_cli("sample-logs/mw.csv");
    match_cli("tests/cases/x10u.csv");
    char *tasks = xasprintf("%s/tasks.csv", g_tmpdir);
    char *cmd = xasprintf("sample-logs/gen --shape tasks --events 4000 --ranks 8 --seed 5 -o '%s'", tasks);
    CHECK(system(cmd) == 0);
    match_cli(tasks);
    free(cmd);
    free(tasks);
}

/* the interface takes --comm-names and --sync-names as tnav stats does */
static void t_analyses_names(void)
{
    T t;
    memset(&t, 0, sizeof t);
    static const char *const opts[] = {"--comm-names", "--sync-names", NULL};
    t.args.extra_opts = opts;
    char *argv[] = {"tui", "--sync-names", "^compute$", "--comm-names", "", "sample-logs/ring.csv", NULL};
    CHECK(cli_parse("tui", 6, argv, 1, &t.args) == 0);
    Session ss;
    CHECK(session_open("tui", &t.args, &ss) == 0);
    app_init(&t.A, &ss, &t.args, 120, 30, false, true);
    t.c = canvas_new(120, 30, false, true);
    t.ok = true;
    frame(&t, AF_REFILTER);
    App *A = &t.A;
    const Store *s = A->s;
    keys(&t, "9");
    A->have_a = A->have_b = true;
    A->mark_a = s->t_min;
    A->mark_b = s->t_max + 1;
    frame(&t, 0);
    Csv *c = xmalloc(sizeof *c);
    CHECK(save_tab(&t, AT_TIME, c));
    jd_node *j = tnav_json("stats --sync-names ^compute$ --comm-names ''", "sample-logs/ring.csv");
    const jd_node *pl = j ? jd_get(j, "per_loc") : NULL;
    CHECK(pl && (int)pl->n == c->n);
    /* the compute states are synchronisation now (rank 5's 60 ms), as tnav stats says */
    for (int i = 0; pl && i < c->n && i < (int)pl->n; i++) {
        CHECK_EQ_I(fint(c->f[i][2]), jint(pl->kids[i], "useful_ns"));
        CHECK_EQ_I(fint(c->f[i][4]), jint(pl->kids[i], "comm_ns"));
        CHECK_EQ_I(fint(c->f[i][5]), jint(pl->kids[i], "sync_ns"));
    }
    CHECK(c->n > 5 && fint(c->f[5][5]) > 60000000 && fint(c->f[5][2]) < 1000000);
    jd_free(j);
    csv_free(c);
    free(c);
    close_app(&t);
}

#include "tui_unit_cmd.c"

/* ---- runner ------------------------------------------------------------------ */

/* The memory budget (agg_budget.c, app_budget_update): views visited in
 * turn, highlight and filter included, draw the same screens when a budget
 * of one byte drops every part a frame does not use as when the budget
 * (64 MiB at least) drops nothing; coming back to a view keeps its parts
 * (the group summaries, forced on this small trace, are no longer dropped
 * at a view change). */
static void t_budget_views(void)
{
    /* 96 locations (grouped 8 or more to a row on 14 lines), intervals,
     * syncs, instants and messages to the next location */
    char *path = xasprintf("%s/budget.csv", g_tmpdir);
    FILE *f = fopen(path, "w");
    fputs("ts,dur,loc,act,kind,name,peer,bytes,id,tag,group,parent,value\n", f);
    for (int l = 0; l < 96; l++) {
        fprintf(f, "1000000000,90000000,%d,%d.0,state,main,,,,,,,\n", l, l);
        for (int k = 0; k < 40; k++) {
            long t = 1000000000L + k * 2000000L + l * 1000L;
            fprintf(f, "%ld,%d,%d,%d.0,%s,step%d,,,,,,,\n", t, 500000 + (l * 7 + k * 13) % 900000, l, l, k % 3 ? "state" : "sync", k % 5);
            if (k % 4 == 1) fprintf(f, "%ld,1000,%d,%d.0,send,,%d,%d,m%d_%d,0,,,\n", t + 1600000, l, l, (l + 1) % 96, 64 + k, l, k);
            if (k % 4 == 1)
                fprintf(f, "%ld,1000,%d,%d.0,recv,,%d,%d,m%d_%d,0,,,\n", t + 1700000, (l + 1) % 96, (l + 1) % 96, l, 64 + k, l, k);
            if (k % 9 == 4) fprintf(f, "%ld,,%d,%d.0,mark,m,,,,,,,\n", t + 100, l, l);
        }
    }
    fclose(f);
    T a, b;
    CHECK(open_app(&a, path, 100, 14));
    CHECK(open_app(&b, path, 100, 14));
    free(path);
    if (!a.ok || !b.ok) {
        close_app(&a);
        close_app(&b);
        return;
    }
    agg_set_group_threshold(0);
    b.A.budget_cap = 1;
    static const char *const steps[] = {"3", "4", "3", "4", "5", "1", "2", "3", "+", "4", "1", "0", "3"};
    int differ = 0;
    size_t dens_bytes = 0, both_bytes = 0, back_bytes = 0;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        keys(&a, steps[i]);
        keys(&b, steps[i]);
        char *x = screen(&a), *y = screen(&b);
        if (strcmp(x, y)) {
            if (!differ) fprintf(stderr, "    after key %zu (%s) the screens differ:\n%s\n----\n%s\n", i, steps[i], x, y);
            differ++;
        }
        free(x);
        free(y);
        if (i == 0) dens_bytes = agg_budget_bytes(a.A.budget);
        if (i == 1) both_bytes = agg_budget_bytes(a.A.budget); /* (the density's parts kept beside the comm view's) */
        if (i == 2) back_bytes = agg_budget_bytes(a.A.budget); /* (back to the density: nothing built again) */
    }
    CHECK_EQ_I(differ, 0);
    size_t na, ba, nb, bb;
    agg_budget_drops(a.A.budget, &na, &ba);
    agg_budget_drops(b.A.budget, &nb, &bb);
    CHECK_EQ_I((long long)na, 0);
    CHECK(nb > 0);
    CHECK(agg_budget_bytes(a.A.budget) > agg_budget_bytes(b.A.budget));
    CHECK(dens_bytes > 0);
    CHECK(both_bytes > dens_bytes);
    CHECK_EQ_I(back_bytes, both_bytes);
    /* a filter and a highlight under the tight budget: same screens */
    const char *fl[] = {"/dur > 1us\n", "tkind == \"send\"\n", "3", "4", "1"};
    for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++) {
        keys(&a, fl[i]);
        keys(&b, fl[i]);
        char *x = screen(&a), *y = screen(&b);
        if (strcmp(x, y)) {
            if (!differ) fprintf(stderr, "    after %s the screens differ:\n%s\n----\n%s\n", fl[i], x, y);
            differ++;
        }
        free(x);
        free(y);
    }
    CHECK_EQ_I(differ, 0);
    agg_set_group_threshold(AGG_GROUP_MIN_SEGMENTS);
    close_app(&a);
    close_app(&b);
}

static const Test TESTS[] = {
    {"budget: views in turn under a one-byte budget draw the same screens; an ample one keeps every view's parts", t_budget_views},
    {"keymap: one action per key, every action named, bound and described", t_keymap},
    {"help: generated from the table, every action reachable, scrolls", t_help},
    {"prompt: shell-like editing, UTF-8, Ctrl-W/U/K", t_prompt_editing},
    {"prompt: Tab completes fields, functions, extra fields", t_prompt_complete},
    {"prompt: history walk and an atomic history file", t_prompt_history},
    {"command line: every action by name, arguments, errors with a caret, Esc", t_cmd_dispatch},
    {"command line: Tab completes commands, views, metrics, options, columns, files, bookmarks", t_cmd_complete},
    {"command line: its own history, saved like the filter's", t_cmd_history},
    {"command line: :save writes a view as text, tables as CSV, says why it cannot", t_cmd_save},
    {"sessions: saved and restored, --view and --no-session, a changed trace, corrupt entries and files", t_session_restore},
    {"sessions: other traces' entries kept, two writers at once, the newest kept", t_session_merge},
    {"sessions: random files and entries read and applied without a crash, never in part", t_session_garbage},
    {"doc/tnav.1 lists every key and command of the table", t_man_lists_actions},
    {"help: descriptions wrapped whole, Esc, mouse and prompt keys, how it closes", t_help_wraps},
    {"viewport: zoom around the cursor, pan, fit, flags of each key", t_zoom_pan},
    {"viewport: go to a time, mark a range and zoom to it", t_goto_and_range},
    {"mouse: click, drag a range, wheel", t_mouse},
    {"filter prompt: live count, apply, error caret, cancel, clear, history", t_filter},
    {"highlight and n/N through the matches in time", t_highlight_and_matches},
    {"bookmarks: set, list, jump, shown on the axis", t_bookmarks},
    {"rows: hide, unhide, sort, expand and collapse groups", t_rows},
    {"details: a message's fields and both of its ends", t_details_message},
    {"details: a sync group's participants, the last to arrive", t_details_sync},
    {"every view draws at every size, ASCII and without colour", t_views_draw},
    {"the statistics view: sums past int64 held at 8 EiB", t_stats_saturated},
    {"views share the viewport; resize; quit", t_shared_viewport_and_resize},
    {"event list: every event in time order, Home/End, a filter, a column sort, Enter goes there", t_event_list},
    {"event list: the time order on a task trace, with and without a selection", t_event_order_tasks},
    {"filter: one on instants keeps the lanes, the same frames as lanes swept again", t_filter_keeps_lanes},
    {"status line: fitted to the width, the filter and the highlight kept", t_status_fit},
    {"drill-down panes: line of the cursor row, bars at the cursor's time, partners", t_drill},
    {"the full legend: names with their colours and times, every glyph, scroll, close", t_legend},
    {"status line: N of M counts the events visible in the window", t_visible_count},
    {"analyses: tables as the command line computes them, sort, save, Enter, overlay, range efficiency", t_analyses},
    {"analyses: every table's values equal tnav stats/waits/syncs/critpath --json (samples, a tasks trace)",
     t_analyses_match_cli},
    {"analyses: --comm-names and --sync-names as tnav stats takes them", t_analyses_names},
    {"opening: the progress arithmetic and its box", t_load_progress},
    {"opening: the first frame without instants and arrivals, the next with them", t_first_frame_lite},
    {"opening: the first Gantt before messages and sync groups, the same as after", t_first_frame_deferred},
    {"opening: the loader's counters; a cancelled load", t_load_cancel},
    {"opening: a cancel inside a chunk stops the parsers (CSV plain and quoted, NDJSON)", t_load_cancel_mid_chunk},
};

int main(void)
{
    snprintf(g_tmpdir, sizeof g_tmpdir, "/tmp/tnav-tui-unit-XXXXXX");
    if (!mkdtemp(g_tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    setenv("XDG_STATE_HOME", g_tmpdir, 1);
    setenv("TZ", "UTC", 1);
    int r = run_tests("tui-unit", TESTS, sizeof TESTS / sizeof TESTS[0]);
    char *cmd = xasprintf("rm -rf '%s'", g_tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_tmpdir);
    free(cmd);
    return r;
}
