/*
 * screen.c — the terminal: ncursesw set-up (colours: 256, 8 or none;
 * mouse; the alternate screen), blitting the cell canvas, reading keys and
 * the mouse without blocking, signals and resizes, and the main loop. Also
 * `--bench-keys`: the same loop driven by a key script without a terminal,
 * timing each key from its arrival to a finished frame.
 *
 * Owns: the curses state (only this file includes curses).
 * Invariants: the terminal is restored on every way out (q, Ctrl-C,
 * SIGINT, SIGTERM, SIGHUP); keys that arrive together are all handled
 * before one redraw; a frame recomputes the views only when a key asked
 * for it (app_draw's flags).
 */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "cmd/cli.h"
#include "keys.h"
#include "tui.h"
#include "base/util.h"

static volatile sig_atomic_t g_quit;

static void on_signal(int sig)
{
    (void)sig;
    g_quit = 1;
}

/* ---- colours ------------------------------------------------------------------------ */

typedef enum { COL_NONE, COL_8, COL_256 } ColorMode;

static ColorMode g_cmode;
static short g_pair[ROLE__N][ROLE__N];
static short g_npairs = 1;

/* a role in the 8 basic colours */
static short role_color8(int role, bool bg)
{
    if (role >= ROLE_RAMP0 && role <= ROLE_RAMP_LAST) {
        static const short R[ROLE_RAMP_N] = {COLOR_BLUE, COLOR_BLUE, COLOR_CYAN, COLOR_CYAN,
                                             COLOR_GREEN, COLOR_GREEN, COLOR_YELLOW, COLOR_RED};
        return R[role - ROLE_RAMP0];
    }
    if (role >= ROLE_CAT0 && role <= ROLE_CAT_LAST) {
        static const short C[6] = {COLOR_BLUE, COLOR_YELLOW, COLOR_GREEN, COLOR_RED, COLOR_MAGENTA, COLOR_CYAN};
        return C[(role - ROLE_CAT0) % 6];
    }
    if (bg) return -1;
    switch (role) {
    case ROLE_SYNC:
    case ROLE_WARN: return COLOR_RED;
    case ROLE_MSG: return COLOR_YELLOW;
    case ROLE_TITLE: return COLOR_CYAN;
    default: return -1;
    }
}

static int cell_attrs(const Cell *cell)
{
    int a = 0;
    if (cell->attr & ATTR_BOLD) a |= A_BOLD;
    if (cell->attr & ATTR_UNDERLINE) a |= A_UNDERLINE;
    if (cell->attr & ATTR_REVERSE) a |= A_REVERSE;
    if (cell->fg == ROLE_STATUS) a ^= A_REVERSE;
    if (g_cmode == COL_NONE && (cell->fg == ROLE_TITLE || cell->fg == ROLE_GLYPH || cell->fg == ROLE_MSG)) a |= A_BOLD;
    if (cell->fg == ROLE_DIM || cell->fg == ROLE_IDLE) a |= A_DIM;
    return a;
}

static short cell_pair(const Cell *cell)
{
    if (g_cmode == COL_NONE) return 0;
    short *p = &g_pair[cell->fg][cell->bg];
    if (*p) return *p;
    short fg = g_cmode == COL_256 ? (short)role_color256(cell->fg, false) : role_color8(cell->fg, false);
    short bg = cell->bg ? (g_cmode == COL_256 ? (short)role_color256(cell->bg, true) : role_color8(cell->bg, true)) : -1;
    if (fg < 0 && bg < 0) return 0;
    if (g_npairs >= COLOR_PAIRS - 1) return 0;
    init_pair(g_npairs, fg, bg);
    *p = g_npairs++;
    return *p;
}

static void blit(const Canvas *c)
{
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            const Cell *cell = &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
            if (cell->ch == CANVAS_CONT) continue;
            wchar_t wc[2] = {(wchar_t)cell->ch, 0};
            cchar_t cc;
            setcchar(&cc, wc, (attr_t)cell_attrs(cell), cell_pair(cell), NULL);
            mvadd_wch(y, x, &cc);
        }
}

/* ---- keys --------------------------------------------------------------------------------- */

static int translate(int r, wint_t ch)
{
    if (r == OK) {
        if (ch == '\n' || ch == '\r') return TK_ENTER;
        if (ch == 127 || ch == 8) return TK_BS;
        return (int)ch;
    }
    switch (ch) {
    case KEY_UP: return TK_UP;
    case KEY_DOWN: return TK_DOWN;
    case KEY_LEFT: return TK_LEFT;
    case KEY_RIGHT: return TK_RIGHT;
    case KEY_PPAGE: return TK_PGUP;
    case KEY_NPAGE: return TK_PGDN;
    case KEY_HOME: return TK_HOME;
    case KEY_END: return TK_END;
    case KEY_BACKSPACE: return TK_BS;
    case KEY_DC: return TK_DEL;
    case KEY_BTAB: return TK_BTAB;
    case KEY_ENTER: return TK_ENTER;
    case KEY_RESIZE: return TK_RESIZE;
    default: return -1;
    }
}

static int handle_mouse(App *A)
{
    MEVENT ev;
    if (getmouse(&ev) != OK) return 0;
    if (ev.bstate & BUTTON4_PRESSED) return app_mouse(A, ev.x, ev.y, MOUSE_WHEEL_UP);
#ifdef BUTTON5_PRESSED
    if (ev.bstate & BUTTON5_PRESSED) return app_mouse(A, ev.x, ev.y, MOUSE_WHEEL_DOWN);
#endif
    if (ev.bstate & BUTTON1_PRESSED) return app_mouse(A, ev.x, ev.y, MOUSE_CLICK);
    if (ev.bstate & BUTTON1_RELEASED) return app_mouse(A, ev.x, ev.y, MOUSE_RELEASE);
    if (ev.bstate & REPORT_MOUSE_POSITION) return app_mouse(A, ev.x, ev.y, MOUSE_DRAG);
    if (ev.bstate & BUTTON1_CLICKED) {
        app_mouse(A, ev.x, ev.y, MOUSE_CLICK);
        return app_mouse(A, ev.x, ev.y, MOUSE_RELEASE);
    }
    return 0;
}

/* ---- the loop ----------------------------------------------------------------------------- */

static int run_terminal(App *A)
{
    setlocale(LC_ALL, "");
    /* keys as soon as they come; Esc alone after 25 ms */
    set_escdelay(25);
    if (!initscr()) return 2;
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    mousemask(ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION, NULL);
    mouseinterval(0);
    if (A->color && has_colors()) {
        start_color();
        use_default_colors();
        g_cmode = COLORS >= 256 ? COL_256 : COL_8;
    } else {
        g_cmode = COL_NONE;
        A->color = false;
    }
    int h, w;
    getmaxyx(stdscr, h, w);
    app_resize(A, w, h);
    Canvas *c = canvas_new(w, h, A->ascii, A->color);
    int flags = AF_REAGG;
    int rc = 0;
    while (!g_quit) {
        if (flags) {
            if (c->w != A->w || c->h != A->h) {
                canvas_free(c);
                c = canvas_new(A->w, A->h, A->ascii, A->color);
                erase();
            }
            app_draw(A, c, flags);
            blit(c);
            refresh();
            flags = 0;
        }
        /* wait for a key (waking up to see signals), then take every key
         * that is already there before drawing again */
        timeout(200);
        wint_t ch;
        int r = get_wch(&ch);
        if (r == ERR) continue;
        for (;;) {
            int key = r == KEY_CODE_YES && ch == KEY_MOUSE ? -2 : translate(r, ch);
            int f = 0;
            if (key == TK_RESIZE) {
                getmaxyx(stdscr, h, w);
                app_resize(A, w, h);
                f = AF_REAGG;
            } else if (key == -2) {
                f = handle_mouse(A);
            } else if (key >= 0) {
                f = app_key(A, key);
            }
            flags |= f;
            if (flags & AF_QUIT) {
                g_quit = 1;
                break;
            }
            timeout(0);
            r = get_wch(&ch);
            if (r == ERR) break;
        }
    }
    canvas_free(c);
    endwin();
    return rc;
}

/* ---- the key-script benchmark -------------------------------------------------------------- */

/* a script: space-separated keys (a character, or Left Right Up Down PgUp
 * PgDn Home End Enter Esc Tab), and /TEXT or tTEXT for typing a filter
 * (or a highlight) and pressing Enter */
static int bench_keys(App *A, const char *script)
{
    Canvas *c = canvas_new(A->w, A->h, A->ascii, A->color);
    app_draw(A, c, AF_REAGG);
    const char *p = script;
    double worst[3] = {0}, sum[3] = {0};
    int n[3] = {0};
    static const char *const CLS[3] = {"zoom_pan", "filter", "other"};
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        const char *q = p;
        while (*q && *q != ' ') q++;
        char tok[512];
        size_t l = (size_t)(q - p) < sizeof tok - 1 ? (size_t)(q - p) : sizeof tok - 1;
        memcpy(tok, p, l);
        tok[l] = 0;
        p = q;
        int keys[600], nk = 0, cls = 2;
        static const struct {
            const char *name;
            int key;
        } NAMES[] = {{"Left", TK_LEFT}, {"Right", TK_RIGHT}, {"Up", TK_UP},     {"Down", TK_DOWN},
                     {"PgUp", TK_PGUP}, {"PgDn", TK_PGDN},   {"Home", TK_HOME}, {"End", TK_END},
                     {"Enter", TK_ENTER}, {"Esc", TK_ESC},   {"Tab", TK_TAB}};
        bool named = false;
        for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
            if (!strcmp(tok, NAMES[i].name)) {
                keys[nk++] = NAMES[i].key;
                named = true;
            }
        if (!named && (tok[0] == '/' || tok[0] == 't') && l > 1) {
            /* type the filter (not timed), then time Enter */
            app_key(A, tok[0]);
            app_key(A, CTRL('u'));
            for (size_t i = 1; i < l; i++) app_key(A, tok[i] == '_' ? ' ' : tok[i]);
            keys[nk++] = TK_ENTER;
            cls = 1;
        } else if (!named) {
            keys[nk++] = tok[0];
        }
        if (cls == 2 && (keys[0] == '+' || keys[0] == '-' || keys[0] == 'z' || keys[0] == 'Z' || keys[0] == 'h' ||
                         keys[0] == 'l' || keys[0] == TK_PGUP || keys[0] == TK_PGDN || keys[0] == TK_LEFT ||
                         keys[0] == TK_RIGHT || keys[0] == '0'))
            cls = 0;
        double t0 = now_sec();
        int flags = 0;
        for (int i = 0; i < nk; i++) flags |= app_key(A, keys[i]);
        app_draw(A, c, flags);
        double ms = (now_sec() - t0) * 1e3;
        if (getenv("TNAV_BENCH_VERBOSE")) fprintf(stderr, "%-24s %8.1f ms\n", tok, ms);
        if (ms > worst[cls]) worst[cls] = ms;
        sum[cls] += ms;
        n[cls]++;
    }
    printf("bench tui events=%zu size=%dx%d", A->s->n, A->w, A->h);
    for (int k = 0; k < 3; k++)
        if (n[k]) printf(" %s_keys=%d %s_mean_ms=%.1f %s_max_ms=%.1f", CLS[k], n[k], CLS[k], sum[k] / n[k], CLS[k], worst[k]);
    printf("\n");
    canvas_free(c);
    return 0;
}

/* ---- the entry point -------------------------------------------------------------------------- */

int tui_main(int argc, char **argv, int first)
{
    CliArgs a;
    memset(&a, 0, sizeof a);
    static const char *const opts[] = {"--color", "--view", "--bench-keys", "--bench-size", NULL};
    static const char *const flags[] = {"--ascii", NULL};
    a.extra_opts = opts;
    a.extra_flags = flags;
    int r = cli_begin("tui", argc, argv, first, &a);
    if (r >= 0) return r;
    const char *cv = cli_extra(&a, "--color"), *bk = cli_extra(&a, "--bench-keys");
    bool color = true;
    if (cv && !strcmp(cv, "never")) color = false;
    else if (cv && strcmp(cv, "always") != 0 && strcmp(cv, "auto") != 0) {
        cli_free(&a);
        return cli_usage_error("tui", "--color must be auto, always or never, not '%s'", cv);
    }
    const char *nc = getenv("NO_COLOR"); /* (set and not empty, as no-color.org says) */
    if (nc && *nc && !(cv && !strcmp(cv, "always"))) color = false;
    const char *term = getenv("TERM");
    if (!bk && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) || !term || !strcmp(term, "dumb"))) {
        cli_free(&a);
        fprintf(stderr, "tnav: the full-screen interface needs a terminal; use tnav stats, filter or render\n");
        return 2;
    }
    const char *vs = cli_extra(&a, "--view");
    int view = vs ? atoi(vs) : 1;
    if (view < 1 || view > V__N) {
        cli_free(&a);
        return cli_usage_error("tui", "--view must be 1..8, not '%s'", vs);
    }
    bool note = !bk && isatty(STDERR_FILENO);
    if (note) fprintf(stderr, "tnav: loading %s%s...", a.files[0], a.nfiles > 1 ? " and more" : "");
    Session ss;
    r = session_open("tui", &a, &ss);
    if (note) fputs("\r\x1b[2K", stderr); /* (nothing of it stays on the terminal) */
    if (r) {
        cli_free(&a);
        return r;
    }
    App A;
    int w = 100, h = 30;
    if (bk) {
        const char *sz = cli_extra(&a, "--bench-size");
        if (sz && (sscanf(sz, "%dx%d", &w, &h) != 2 || w < 20 || h < 10 || w > 1000 || h > 1000)) {
            session_close(&ss);
            cli_free(&a);
            return cli_usage_error("tui", "--bench-size must be WxH (20x10 to 1000x1000), not '%s'", sz);
        }
        if (!sz) w = 208, h = 66;
    }
    app_init(&A, &ss, &a, w, h, cli_flag(&a, "--ascii"), color);
    app_set_view(&A, (ViewId)(view - 1));
    app_prewarm(&A);
    if (bk) {
        app_prewarm_wait(&A); /* (as a user's think time allows) */
        r = bench_keys(&A, bk);
    } else {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGHUP, &sa, NULL);
        r = run_terminal(&A);
    }
    ss = A.ss; /* (the filter may have changed the selection) */
    app_free(&A);
    session_close(&ss);
    big_cache_trim();
    cli_free(&a);
    return r;
}
