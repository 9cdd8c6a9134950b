/*
 * screen.c — the terminal: ncursesw set-up (colours: 256, 8 or none;
 * mouse; the alternate screen), blitting the cell canvas, reading keys and
 * the mouse without blocking, signals and resizes, and and the main loop
 * (`--bench-keys` and `--bench-open` are in bench.c).
 *
 * While the trace loads (on a thread of its own, see Loader), the screen
 * shows its progress and Esc, q or Ctrl-C cancel it.
 *
 * Owns: the curses state (only this file includes curses), the loading
 * thread.
 * Invariants: the terminal is restored on every way out (q, Ctrl-C,
 * SIGINT, SIGTERM, SIGHUP, and a load cancelled or failed); keys that
 * arrive together are all handled before one redraw; a frame recomputes the
 * views only when a key asked for it (app_draw's flags); the interface's
 * thread never does the loader's work while it loads (it waits in poll for
 * a key, the loader's end or 150 ms, and redraws the progress).
 */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/timecat.h"
#include "actions.h"
#include "app.h"
#include "bench.h"
#include "cmd/cli.h"
#include "session.h"
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

static int cell_attrs(const Cell *cell, bool nocol)
{
    int a = 0;
    if (cell->attr & ATTR_BOLD) a |= A_BOLD;
    if (cell->attr & ATTR_UNDERLINE) a |= A_UNDERLINE;
    if (cell->attr & ATTR_REVERSE) a |= A_REVERSE;
    if (cell->fg == ROLE_STATUS) a ^= A_REVERSE;
    if (nocol && (cell->fg == ROLE_TITLE || cell->fg == ROLE_GLYPH || cell->fg == ROLE_MSG)) a |= A_BOLD;
    if (cell->fg == ROLE_DIM || cell->fg == ROLE_IDLE) a |= A_DIM;
    return a;
}

static short cell_pair(const Cell *cell, bool nocol)
{
    if (nocol) return 0;
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
    bool nocol = g_cmode == COL_NONE || !c->color; /* (:set color off) */
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            const Cell *cell = &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
            if (cell->ch == CANVAS_CONT) continue;
            wchar_t wc[2] = {(wchar_t)cell->ch, 0};
            cchar_t cc;
            setcchar(&cc, wc, (attr_t)cell_attrs(cell, nocol), cell_pair(cell, nocol), NULL);
            mvadd_wch(y, x, &cc);
        }
}

/* ---- keys --------------------------------------------------------------------------------- */

/* The escape sequences terminals send for the special keys, whatever TERM
 * says: a TERM that does not match the terminal (xterm-256color inside
 * tmux or screen, a vt100 description over ssh) would otherwise turn
 * Home into Esc [ 1 ~ — and the '1' into a view switch. */
static void define_common_keys(void)
{
    static const struct {
        const char *seq;
        int key;
    } K[] = {
        {"\033[A", KEY_UP},     {"\033[B", KEY_DOWN},    {"\033[C", KEY_RIGHT},  {"\033[D", KEY_LEFT},
        {"\033OA", KEY_UP},     {"\033OB", KEY_DOWN},    {"\033OC", KEY_RIGHT},  {"\033OD", KEY_LEFT},
        {"\033[H", KEY_HOME},   {"\033OH", KEY_HOME},    {"\033[1~", KEY_HOME},  {"\033[7~", KEY_HOME},
        {"\033[F", KEY_END},    {"\033OF", KEY_END},     {"\033[4~", KEY_END},   {"\033[8~", KEY_END},
        {"\033[5~", KEY_PPAGE}, {"\033[6~", KEY_NPAGE},  {"\033[3~", KEY_DC},    {"\033[Z", KEY_BTAB},
        {"\033OP", KEY_F(1)},   {"\033OQ", KEY_F(2)},    {"\033OR", KEY_F(3)},   {"\033OS", KEY_F(4)},
        {"\033[11~", KEY_F(1)}, {"\033[12~", KEY_F(2)},  {"\033[13~", KEY_F(3)}, {"\033[14~", KEY_F(4)},
        {"\033[[A", KEY_F(1)},  {"\033[[B", KEY_F(2)},   {"\033[[C", KEY_F(3)},  {"\033[[D", KEY_F(4)},
        {"\033[15~", KEY_F(5)}, {"\033[17~", KEY_F(6)},  {"\033[18~", KEY_F(7)}, {"\033[19~", KEY_F(8)},
        {"\033[20~", KEY_F(9)}, {"\033[21~", KEY_F(10)}, {"\033[23~", KEY_F(11)}, {"\033[24~", KEY_F(12)},
    };
    for (size_t i = 0; i < sizeof K / sizeof K[0]; i++) define_key(K[i].seq, K[i].key);
}

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
    default:
        if (ch >= KEY_F(1) && ch <= KEY_F(12)) return TK_F1 + (int)(ch - KEY_F(1));
        return -1;
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

static bool g_screen;      /* curses is set up */

/* out of memory with the screen up: the terminal is given back first */
/* The terminal is written by the interface's thread only, under this lock
 * (recursive: a fatal error while drawing takes it again). A fatal error on
 * another thread (the loader's, a filter's, out of memory) takes it and
 * never gives it back, so that nothing is drawn after the terminal is
 * restored and before the process ends. */
static pthread_mutex_t g_term_lock;
static pthread_once_t g_term_once = PTHREAD_ONCE_INIT;
static void term_lock_init(void)
{
    pthread_mutexattr_t at;
    pthread_mutexattr_init(&at);
    pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&g_term_lock, &at);
    pthread_mutexattr_destroy(&at);
}
static void term_lock(void)
{
    pthread_once(&g_term_once, term_lock_init);
    pthread_mutex_lock(&g_term_lock);
}
static void term_unlock(void) { pthread_mutex_unlock(&g_term_lock); }

static void screen_fatal(void)
{
    term_lock(); /* (kept until the process ends) */
    if (g_screen) endwin();
}
static SCREEN *g_scr;      /* ... on this screen */
static const char *g_term; /* the terminal type it was set up for */
static const char *g_term_asked; /* TERM, when it had no description here and g_term stands in */
static FILE *g_keys; /* /dev/tty when standard input is not the terminal (the trace comes on it) */

/* from <term.h>, which cannot be included beside keys.h's CTRL and the
 * names its macros take (cur_term, lines, columns...) */
struct term;
extern int setupterm(const char *, int, int *);
extern struct term *set_curterm(struct term *);
extern int del_curterm(struct term *);

/* whether this machine has a description of terminal type t */
static bool term_known(const char *t, int *err)
{
    if (setupterm(t, STDOUT_FILENO, err) != 0) return false;
    del_curterm(set_curterm(NULL));
    return true;
}

/* The terminal's description, checked before anything is loaded (initscr
 * would exit the process on an unknown TERM, after the load): TERM's, or
 * when this machine has none for it (a new terminal's name over SSH), the
 * first of xterm-256color, xterm and vt100 it has, said at exit; false
 * after a message naming the problem. */
static bool term_check(void)
{
    const char *t = getenv("TERM");
    int err = 0;
    if (term_known(t, &err)) {
        g_term = t;
        return true;
    }
    if (err < 0 || (t && strchr(t, '/'))) {
        fprintf(stderr, "tnav: cannot read the terminfo database for TERM '%s'\n", t ? t : "");
        return false;
    }
    static const char *const FALLBACK[] = {"xterm-256color", "xterm", "vt100"};
    for (size_t i = 0; i < sizeof FALLBACK / sizeof FALLBACK[0]; i++)
        if (term_known(FALLBACK[i], &err)) {
            g_term = FALLBACK[i];
            g_term_asked = t;
            return true;
        }
    fprintf(stderr,
            "tnav: the terminal type '%s' (TERM) has no terminfo description on this machine, nor have xterm-256color, "
            "xterm or vt100: install ncurses-term or set TERM to a known type; tnav stats, filter and render need no "
            "terminal\n",
            t ? t : "");
    return false;
}

/* set up the terminal; *color: colours wanted, then whether there are */
static bool screen_open(bool *color)
{
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* (numbers are read and written with '.' everywhere) */
    /* keys as soon as they come; Esc alone after 25 ms */
    set_escdelay(25);
    g_scr = newterm(g_term, stdout, g_keys ? g_keys : stdin);
    if (!g_scr) return false;
    set_term(g_scr);
    g_screen = true;
    static bool hooked;
    if (!hooked) fatal_hook_add(screen_fatal);
    hooked = true;
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    define_common_keys();
    curs_set(0);
    mousemask(ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION, NULL);
    mouseinterval(0);
    if (*color && has_colors()) {
        start_color();
        use_default_colors();
        g_cmode = COLORS >= 256 ? COL_256 : COL_8;
    } else {
        g_cmode = COL_NONE;
        *color = false;
    }
    return true;
}

static void screen_close(void)
{
    if (!g_screen) return;
    endwin();
    g_screen = false;
    if (g_term_asked)
        fprintf(stderr, "tnav: TERM '%s' has no terminfo entry here: drawn as %s\n", g_term_asked,
                g_term);
    g_term_asked = NULL;
}

/* the interface's loop on the terminal set up by screen_open; the caller
 * closes it */
/* While a filter runs (App.filter_wait): its time on the last line, Esc or
 * Ctrl-C cancels it, a resize is redrawn after it; other keys are dropped
 * (they would act on a selection about to change). */
static bool g_resized;
static bool filter_wait(void *ctx, double elapsed)
{
    App *A = ctx;
    char line[160];
    snprintf(line, sizeof line, " filtering… %.1f s  (Esc cancels; the previous selection stays)", elapsed);
    int h, w;
    term_lock();
    getmaxyx(stdscr, h, w);
    (void)w;
    move(h - 1, 0);
    clrtoeol();
    attron(A_REVERSE);
    addstr(line);
    attroff(A_REVERSE);
    refresh();
    timeout(50);
    wint_t ch;
    int r = get_wch(&ch);
    term_unlock();
    if (g_quit) return true;
    if (r == ERR) return false;
    int key = r == KEY_CODE_YES && ch == KEY_MOUSE ? -2 : translate(r, ch);
    if (key == TK_RESIZE) g_resized = true;
    (void)A;
    return key == TK_ESC || key == CTRL('c');
}

static int run_terminal(App *A)
{
    A->filter_wait = filter_wait;
    A->filter_wait_ctx = A;
    int h, w;
    getmaxyx(stdscr, h, w);
    app_resize(A, w, h);
    Canvas *c = canvas_new(w, h, A->ascii, A->color);
    int flags = AF_REAGG;
    int rc = 0;
    bool first = true;
    A->first_lite = true;
    while (!g_quit) {
        if (flags) {
            if (c->w != A->w || c->h != A->h) {
                canvas_free(c);
                c = canvas_new(A->w, A->h, A->ascii, A->color);
                erase();
            }
            oom_phase("drawing the interface");
            app_draw(A, c, flags);
            term_lock();
            blit(c);
            refresh();
            term_unlock();
            flags = 0;
            if (!first) app_idle(A);
        }
        if (first) {
            /* after the first frame: the messages and sync groups the load
             * left for now (on the loader's memory that the first frame
             * did not reuse), then the rest of that memory goes back, and
             * the full frame is drawn at once (before any key) */
            app_finish_tail(A);
            big_cache_trim();
            A->first_lite = false;
            flags = AF_REAGG;
            first = false;
            continue;
        }
        /* wait for a key (waking up to see signals), then take every key
         * that is already there before drawing again */
        timeout(200);
        wint_t ch;
        term_lock();
        int r = get_wch(&ch);
        term_unlock();
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
            if (g_resized) {
                /* (the terminal changed size while a filter ran) */
                g_resized = false;
                getmaxyx(stdscr, h, w);
                app_resize(A, w, h);
                flags |= AF_REAGG;
            }
            if (flags & AF_QUIT) {
                g_quit = 1;
                break;
            }
            timeout(0);
            term_lock();
            r = get_wch(&ch);
            term_unlock();
            if (r == ERR) break;
        }
    }
    canvas_free(c);
    return rc;
}

/* ---- loading ----------------------------------------------------------------------------------- */

/* The session loads on a thread of its own while the interface's thread
 * shows the progress counters and reads the keys; the loader's messages
 * (rejections, a filter error) are kept and printed when the terminal is
 * restored. */
typedef struct {
    CliArgs *a;
    Session ss;
    int rc;
    LoadProgress lp;
    atomic_bool done;
    int wake[2];          /* the loader writes a byte when it is done */
    pthread_t th;
    double t0, t_end;     /* started, done */
    FILE *rep;            /* the loader's messages */
    char *rep_buf;
    size_t rep_len;
} Loader;

static void *loader_main(void *arg)
{
    Loader *L = arg;
    L->rc = session_open("tui", L->a, &L->ss);
    L->t_end = now_sec();
    atomic_store(&L->done, true);
    ssize_t k = write(L->wake[1], "x", 1);
    (void)k;
    return NULL;
}

static bool loader_start(Loader *L, CliArgs *a)
{
    memset(L, 0, sizeof *L);
    L->a = a;
    if (pipe(L->wake) != 0) return false;
    fcntl(L->wake[0], F_SETFD, FD_CLOEXEC);
    fcntl(L->wake[1], F_SETFD, FD_CLOEXEC);
    L->rep = open_memstream(&L->rep_buf, &L->rep_len);
    if (L->rep) a->load.report = L->rep;
    a->load.progress = &L->lp;
    L->t0 = now_sec();
    /* the loader and its parser threads (which inherit its mask) leave the
     * signals to this thread, whose wait they then interrupt at once */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGWINCH);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int e = pthread_create(&L->th, NULL, loader_main, L);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (e != 0) {
        a->load.progress = NULL;
        a->load.report = stderr;
        if (L->rep) fclose(L->rep);
        free(L->rep_buf);
        close(L->wake[0]);
        close(L->wake[1]);
        return false;
    }
    return true;
}

/* wait for the loader (up to ms milliseconds, -1: no limit), for a key on
 * stdin (keys) or a signal; true when it is done */
static bool loader_wait(Loader *L, int ms, bool keys)
{
    if (atomic_load(&L->done)) return true;
    struct pollfd pf[2] = {{L->wake[0], POLLIN, 0}, {g_keys ? fileno(g_keys) : STDIN_FILENO, POLLIN, 0}};
    poll(pf, keys ? 2 : 1, ms);
    return atomic_load(&L->done);
}

/* join the loader; its status (LOAD_CANCELLED when it was cancelled, even
 * if it had just finished) */
static int loader_join(Loader *L)
{
    pthread_join(L->th, NULL);
    close(L->wake[0]);
    close(L->wake[1]);
    L->a->load.progress = NULL;
    L->a->load.report = stderr;
    if (L->rep) fclose(L->rep);
    L->rep = NULL;
    if (L->rc == 0 && atomic_load(&L->lp.cancel)) {
        session_close(&L->ss);
        L->rc = LOAD_CANCELLED;
    }
    return L->rc;
}

/* print the loader's messages (after the terminal is restored) */
static void loader_messages(Loader *L)
{
    if (L->rep_buf && L->rep_len) fwrite(L->rep_buf, 1, L->rep_len, stderr);
    free(L->rep_buf);
    L->rep_buf = NULL;
    L->rep_len = 0;
}

/* The progress on the screen until the loader is done: curses is set up
 * only when the load takes more than 100 ms (a small trace opens without
 * it). Esc, q, Ctrl-C and the signals cancel. *color: as for screen_open. */
static void show_loading(Loader *L, const char *what, bool ascii, bool *color)
{
    if (loader_wait(L, 100, false)) return;
    if (g_quit) {
        /* (a signal before the screen was set up: no screen at all) */
        atomic_store(&L->lp.cancel, true);
        while (!loader_wait(L, -1, false)) {}
        return;
    }
    term_lock();
    bool opened = screen_open(color);
    term_unlock();
    if (!opened) return;
    int h, w;
    getmaxyx(stdscr, h, w);
    Canvas *c = canvas_new(w, h, ascii, *color);
    while (!atomic_load(&L->done)) {
        if (g_quit) atomic_store(&L->lp.cancel, true);
        draw_loading(c, what, atomic_load(&L->lp.done), atomic_load(&L->lp.total), atomic_load(&L->lp.phase),
                     now_sec() - L->t0, atomic_load(&L->lp.cancel));
        term_lock();
        blit(c);
        refresh();
        term_unlock();
        if (loader_wait(L, 150, true)) break;
        term_lock();
        timeout(0);
        wint_t ch;
        int r;
        while ((r = get_wch(&ch)) != ERR) {
            if (r == KEY_CODE_YES && ch == KEY_RESIZE) {
                getmaxyx(stdscr, h, w);
                canvas_free(c);
                c = canvas_new(w, h, ascii, *color);
                erase();
            } else if (r == OK && (ch == TK_ESC || ch == 'q' || ch == CTRL('c'))) {
                atomic_store(&L->lp.cancel, true);
            }
        }
        term_unlock();
    }
    canvas_free(c);
}

/* ---- the entry point -------------------------------------------------------------------------- */

/* tnav tui --list-actions: the table of actions, a line each: the keys
 * (space-separated names, "-" for none), the command and its arguments,
 * the description, separated by tabs (the man page is checked against it) */
static int list_actions(void)
{
    for (const Action *x = ACTIONS; x->name; x++) {
        char keys[96] = "", kn[24];
        for (int k = 0; k < ACTION_KEYS && x->keys[k]; k++) {
            size_t l = strlen(keys);
            snprintf(keys + l, sizeof keys - l, "%s%s", k ? " " : "", tkey_name(x->keys[k], kn, sizeof kn));
        }
        printf("%s\t:%s%s%s\t%s\n", keys[0] ? keys : "-", x->name, x->args ? " " : "", x->args ? x->args : "", x->help);
    }
    return 0;
}

int tui_main(int argc, char **argv, int first)
{
    for (int i = first; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (!strcmp(argv[i], "--list-actions")) return list_actions();
    CliArgs a;
    memset(&a, 0, sizeof a);
    static const char *const opts[] = {"--color", "--view", "--bench-keys", "--bench-size", "--comm-names", "--sync-names",
                                       NULL};
    static const char *const flags[] = {"--ascii", "--bench-open", "--no-session", NULL};
    a.extra_opts = opts;
    a.extra_flags = flags;
    int r = cli_begin("tui", argc, argv, first, &a);
    if (r >= 0) return r;
    const char *cv = cli_extra(&a, "--color"), *bk = cli_extra(&a, "--bench-keys");
    bool bo = cli_flag(&a, "--bench-open"), bench = bk || bo;
    bool color = true;
    if (cv && !strcmp(cv, "never")) color = false;
    else if (cv && strcmp(cv, "always") != 0 && strcmp(cv, "auto") != 0) {
        cli_free(&a);
        return cli_usage_error("tui", "--color must be auto, always or never, not '%s'", cv);
    }
    {
        char err[400];
        if (!timecat_check_patterns(cli_extra(&a, "--comm-names"), cli_extra(&a, "--sync-names"), err, sizeof err)) {
            cli_free(&a);
            return cli_usage_error("tui", "%s", err);
        }
    }
    const char *nc = getenv("NO_COLOR"); /* (set and not empty, as no-color.org says) */
    if (nc && *nc && !(cv && !strcmp(cv, "always"))) color = false;
    const char *term = getenv("TERM");
    /* the trace may come on standard input (tnav - < trace, a pipe): the
     * keys then come from the controlling terminal */
    if (!bench && !isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
        int tfd = open("/dev/tty", O_RDONLY | O_CLOEXEC);
        if (tfd >= 0 && !(g_keys = fdopen(tfd, "r"))) close(tfd);
    }
    if (!bench && ((!isatty(STDIN_FILENO) && !g_keys) || !isatty(STDOUT_FILENO) || !term || !strcmp(term, "dumb"))) {
        cli_free(&a);
        fprintf(stderr, "tnav: the full-screen interface needs a terminal; use tnav stats, filter or render\n");
        return 2;
    }
    if (!bench && !term_check()) {
        cli_free(&a);
        return 2;
    }
    const char *vs = cli_extra(&a, "--view");
    int64_t view = 1;
    if (vs && !parse_int_arg(vs, 1, V_ANALYSES + 1, &view)) { /* (the views with a number key) */
        cli_free(&a);
        return cli_usage_error("tui", "--view must be 1..9, not '%s'", vs);
    }
    int w = 100, h = 30;
    if (bk || bo) {
        const char *sz = cli_extra(&a, "--bench-size");
        const char *xp = sz ? strchr(sz, 'x') : NULL;
        int64_t bw = 0, bh = 0;
        char wbuf[32];
        if (xp && (size_t)(xp - sz) < sizeof wbuf) {
            memcpy(wbuf, sz, (size_t)(xp - sz));
            wbuf[xp - sz] = 0;
        } else {
            wbuf[0] = 0;
        }
        if (sz && (!xp || !parse_int_arg(wbuf, 20, 1000, &bw) || !parse_int_arg(xp + 1, 10, 1000, &bh))) {
            cli_free(&a);
            return cli_usage_error("tui", "--bench-size must be WxH (20x10 to 1000x1000), not '%s'", sz);
        }
        if (sz) w = (int)bw, h = (int)bh;
        else w = 208, h = 66;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    if (!bench) {
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGHUP, &sa, NULL);
    }
    /* load on a thread of its own; the progress meanwhile. The memory the
     * loader freed (already touched) is kept for the summary and the first
     * frame, and what they leave is returned after it. */
    a.load.keep_big_blocks = true;
    /* (the first frame before the messages and sync groups: the load
     * leaves them for right after it) */
    a.load.defer_tail = true;
    Loader L;
    if (!loader_start(&L, &a)) {
        cli_free(&a);
        fprintf(stderr, "tnav: cannot start the loading thread\n");
        return 2;
    }
    char what[512];
    snprintf(what, sizeof what, "%s%s", a.files[0], a.nfiles > 1 ? " and more" : "");
    bool ascii = cli_flag(&a, "--ascii");
    if (!bench) show_loading(&L, what, ascii, &color);
    else
        while (!loader_wait(&L, -1, false)) {}
    r = loader_join(&L);
    if (r) {
        big_cache_trim();
        screen_close();
        loader_messages(&L);
        if (r == LOAD_CANCELLED) fprintf(stderr, "tnav: load cancelled\n");
        cli_free(&a);
        return r;
    }
    Session ss = L.ss;
    if (!bench && !g_screen && !screen_open(&color)) {
        loader_messages(&L);
        session_close(&ss);
        cli_free(&a);
        fprintf(stderr, "tnav: cannot set up the terminal\n");
        return 2;
    }
    if (g_screen) getmaxyx(stdscr, h, w);
    App A;
    app_init(&A, &ss, &a, w, h, ascii, color);
    app_set_view(&A, (ViewId)(view - 1));
    /* where the user was in this trace last time (not in the benchmarks) */
    session_restore(&A, !bench && !cli_flag(&a, "--no-session"), vs != NULL);
    if (bo) {
        r = tui_bench_open(&A, L.t0, L.t_end);
    } else if (bk) {
        app_finish_tail(&A); /* (as the interface does before its trim) */
        big_cache_trim();
        r = tui_bench_keys(&A, bk);
    } else {
        r = run_terminal(&A);
    }
    screen_close();
    loader_messages(&L);
    char *sfile = NULL; /* (not set in the benchmarks) */
    if (!bench && !session_save(&A, &sfile))
        fprintf(stderr, "tnav: could not save the session in %s: %s\n", sfile ? sfile : "?", strerror(errno));
    free(sfile);
    ss = A.ss; /* (the filter may have changed the selection) */
    app_free(&A);
    session_close(&ss);
    big_cache_trim();
    cli_free(&a);
    return r;
}
