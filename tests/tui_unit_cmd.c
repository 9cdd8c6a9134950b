/*
 * tui_unit_cmd.c — the tests of the command line (parsing, dispatch,
 * errors with their caret, completion, history, :save), the saved sessions
 * (save, restore, merge, two writers at once, a corrupt file, an older
 * trace) and the man page checked against the table of actions. Included
 * by tui_unit.c (its helpers: T, open_app, keys, screen...).
 */
#include <fcntl.h>
#include <sys/time.h>

#include "tui/commands.h"
#include "tui/session.h"

/* type a command line after ':' and press Enter; the flags */
static int command(T *t, const char *line)
{
    int f = key(t, ':');
    for (const char *p = line; *p; p++) f |= key(t, (unsigned char)*p);
    return f | key(t, TK_ENTER);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char *b = NULL;
    size_t cap = 0;
    ssize_t n = getdelim(&b, &cap, 0, f);
    fclose(f);
    if (n < 0) {
        free(b);
        return xstrdup("");
    }
    return b;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; s && *s; s++) n += *s == '\n';
    return n;
}

static void t_cmd_dispatch(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 120, 30));
    if (!t.ok) return;
    App *A = &t.A;
    const Store *s = A->s;
    /* : opens the command line; Esc cancels it, nothing run */
    keys(&t, ":");
    CHECK(A->pmode == PM_COMMAND);
    CHECK(screen_has(&t, "a command: Tab completes"));
    keys(&t, "view density");
    CHECK(screen_has(&t, ":view NAME  show a view by name"));
    key(&t, TK_ESC);
    CHECK(A->pmode == PM_NONE && A->view == V_GANTT_LOC);
    /* :goto, as g does */
    CHECK(command(&t, "goto 30ms") & AF_REAGG);
    CHECK(A->pmode == PM_NONE && !A->perr_set);
    CHECK(cursor_cell_holds(A, s->t_min + 30000000));
    /* :zoom FROM TO: exactly that window */
    command(&t, "zoom 10ms 20ms");
    CHECK(A->t0 == s->t_min + 10000000 && A->t1 == s->t_min + 20000000);
    CHECK(screen_has(&t, "10 ms – 20 ms"));
    /* errors: the prompt stays, the message and the caret under the culprit */
    command(&t, "zoom 20ms 10ms");
    CHECK(A->pmode == PM_COMMAND && A->perr_set && A->cmd_failed);
    CHECK(strstr(A->perr.msg, "TO must be after FROM") != NULL);
    CHECK_EQ_I(A->perr.start, 10);
    CHECK(screen_has(&t, "1:11: TO must be after FROM"));
    CHECK(screen_has(&t, "\n           ^~~~")); /* (after the lead ":") */
    CHECK(A->t0 == s->t_min + 10000000); /* (nothing changed) */
    key(&t, TK_ESC);
    CHECK(A->pmode == PM_NONE);
    command(&t, "frobnicate 3");
    CHECK(A->perr_set && strstr(A->perr.msg, "unknown command 'frobnicate'") && A->perr.start == 0 && A->perr.end == 10);
    key(&t, TK_ESC);
    command(&t, "zoom-");
    CHECK(A->perr_set && strstr(A->perr.msg, "ambiguous: zoom- is zoom-in, zoom-out"));
    key(&t, TK_ESC);
    command(&t, "fit 3");
    CHECK(A->perr_set && strstr(A->perr.msg, "fit takes no argument") && A->perr.start == 4);
    key(&t, TK_ESC);
    command(&t, "zoom");
    CHECK(A->perr_set && strstr(A->perr.msg, "zoom needs FROM TO"));
    key(&t, TK_ESC);
    /* an unambiguous prefix is enough; a key's action by its name */
    command(&t, "fi");
    CHECK(A->perr_set); /* (fit, filter) */
    key(&t, TK_ESC);
    CHECK(command(&t, "fit") & AF_REAGG);
    CHECK(A->t0 == s->t_min && A->t1 == s->t_max + 1);
    CHECK(command(&t, "qui") & AF_QUIT);
    /* :view NAME, by name or number, a table of the analyses */
    command(&t, "view density");
    CHECK(A->view == V_DENSITY);
    command(&t, "view 2");
    CHECK(A->view == V_GANTT_ACT);
    command(&t, "view waits");
    CHECK(A->view == V_ANALYSES && screen_has(&t, "wait_at_barrier"));
    command(&t, "view nosuch");
    CHECK(A->perr_set && strstr(A->perr.msg, "no view 'nosuch'") && A->perr.start == 5);
    key(&t, TK_ESC);
    command(&t, "view gantt");
    CHECK(A->view == V_GANTT_LOC);
    /* :filter EXPR, :highlight EXPR; a bad one's caret is in the line */
    CHECK(command(&t, "filter kind == \"send\"") & AF_REFILTER);
    CHECK(A->filter_text && !strcmp(A->filter_text, "kind == \"send\""));
    CHECK(A->ss.nsel == 80);
    command(&t, "filter dur > 10us && bytes > 10us");
    CHECK(A->perr_set && A->perr.start == 7 + 22 && A->perr.col == 30);
    CHECK(screen_has(&t, "1:30: 'bytes' is a size"));
    CHECK(A->ss.nsel == 80); /* (the previous filter stays) */
    key(&t, TK_ESC);
    command(&t, "clear-filter");
    CHECK(!A->filter_text && A->ss.nsel == s->n);
    command(&t, "highlight kind == \"recv\"");
    CHECK(A->hl_text && !strcmp(A->hl_text, "kind == \"recv\""));
    /* :filter without EXPR opens the filter prompt, as / does */
    command(&t, "filter");
    CHECK(A->pmode == PM_FILTER);
    key(&t, TK_ESC);
    /* :metric, :reducer, :sort */
    command(&t, "view density");
    command(&t, "metric events");
    CHECK(A->metric.m == M_EVENTS);
    command(&t, "metric nope");
    CHECK(A->perr_set);
    key(&t, TK_ESC);
    command(&t, "reducer max");
    CHECK(A->reducer == RED_MAX);
    command(&t, "sort name");
    CHECK(app_rows(A)->sort == SORT_NAME);
    command(&t, "sort dur");
    CHECK(A->perr_set && strstr(A->perr.msg, "no column 'dur' here (natural, name, busy, window)"));
    key(&t, TK_ESC);
    command(&t, "view events");
    command(&t, "sort dur");
    CHECK(A->ev_sort == 1);
    command(&t, "view time");
    command(&t, "sort -events");
    CHECK(screen_has(&t, "sorted by events"));
    command(&t, "view stats"); /* (the analyses' time table) */
    command(&t, "sort useful");
    CHECK(!A->perr_set && screen_has(&t, "sorted by useful"));
    command(&t, "view gantt");
    command(&t, "view comm");
    command(&t, "sort busy");
    CHECK(A->perr_set && strstr(A->perr.msg, "has no sort"));
    key(&t, TK_ESC);
    /* :mark NAME, listed by ', :goto NAME goes back to it */
    command(&t, "view gantt");
    command(&t, "goto 12ms");
    int64_t at = app_cursor_time(A);
    command(&t, "mark hot spot");
    CHECK(A->bm_set[0] && !strcmp(A->bm_name[0], "hot spot") && A->bm[0] == at);
    keys(&t, "'");
    CHECK(screen_has(&t, "hot spot"));
    key(&t, TK_ESC);
    command(&t, "fit");
    command(&t, "goto 50ms");
    command(&t, "goto hot spot");
    CHECK(cursor_cell_holds(A, at));
    command(&t, "zoom hot spot 40ms");
    CHECK(A->perr_set); /* (a name with a blank is one argument only to :goto) */
    key(&t, TK_ESC);
    keys(&t, "m");
    CHECK(A->bm_set[1] && !A->bm_name[1][0]);
    /* :set */
    command(&t, "set ascii on");
    CHECK(A->ascii);
    CHECK(screen_has(&t, " | "));
    command(&t, "set ascii");
    CHECK(!A->ascii);
    command(&t, "set marks off");
    CHECK(A->ovl_marks == OVL_OFF && A->ovl_msgs == OVL_OFF);
    command(&t, "set marks on");
    CHECK(A->ovl_marks == OVL_AUTO && A->ovl_msgs == OVL_AUTO);
    command(&t, "set messages all");
    CHECK(A->ovl_msgs == OVL_ALL && A->ovl_marks == OVL_AUTO);
    command(&t, "set instants sometimes");
    CHECK(A->perr_set && strstr(A->perr.msg, "instants is auto, all or off"));
    key(&t, TK_ESC);
    command(&t, "set sub-bins 0x10");
    CHECK(A->perr_set && strstr(A->perr.msg, "sub-bins is 1..64"));
    key(&t, TK_ESC);
    command(&t, "set color maybe");
    CHECK(A->perr_set && A->perr.start == 10 && strstr(A->perr.msg, "on or off"));
    key(&t, TK_ESC);
    command(&t, "set filter-timeout 2.5");
    CHECK(filter_default_budget() == 2.5);
    command(&t, "set filter-timeout x");
    CHECK(A->perr_set);
    key(&t, TK_ESC);
    filter_set_default_budget(FILTER_DEFAULT_BUDGET);
    command(&t, "set metric bytes");
    CHECK(A->metric.m == M_BYTES);
    command(&t, "set reducer mean");
    CHECK(A->reducer == RED_MEAN);
    command(&t, "set sub-bins 16");
    CHECK(A->opt_subbins == 16);
    command(&t, "set sub-bins 65");
    CHECK(A->perr_set && A->opt_subbins == 16);
    key(&t, TK_ESC);
    command(&t, "set nope 1");
    CHECK(A->perr_set && A->perr.start == 4);
    key(&t, TK_ESC);
    /* :help COMMAND: the help open at its entry, its description said */
    command(&t, "help zoom");
    CHECK(A->show_help && A->help_focus >= 0 && !strcmp(ACTIONS[A->help_focus].name, "zoom"));
    CHECK(strstr(A->msg, ":zoom FROM TO: show the range") != NULL);
    CHECK(screen_has(&t, "show the range from FROM to TO"));
    key(&t, TK_ESC);
    command(&t, "help nosuch");
    CHECK(A->perr_set);
    key(&t, TK_ESC);
    /* every action runs by its name (those that need an argument say so) */
    for (const Action *a = ACTIONS; a->name; a++) {
        if (!strcmp(a->name, "quit") || !strcmp(a->name, "save-table")) continue;
        A->cmd_failed = false;
        command(&t, a->name);
        bool needs = !a->fn;
        if (A->cmd_failed != needs || (needs && !strstr(A->perr.msg, "needs"))) {
            printf("    :%s: %s\n", a->name, A->cmd_failed ? A->perr.msg : "ran");
            g_fail_checks++;
        }
        if (A->pmode != PM_NONE) key(&t, TK_ESC);
        if (A->show_help || A->show_bookmarks) key(&t, TK_ESC);
    }
    close_app(&t);
}

static void t_cmd_complete(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 120, 30));
    if (!t.ok) return;
    App *A = &t.A;
    keys(&t, ":go\t");
    CHECK_EQ_S(A->cmd.buf, "goto ");
    prompt_clear(&A->cmd);
    keys(&t, "zo\t");
    CHECK_EQ_S(A->cmd.buf, "zoom"); /* (zoom, zoom-in, zoom-out) */
    CHECK(strstr(A->cmd_hint, "zoom  zoom-in  zoom-out") != NULL);
    CHECK(screen_has(&t, "zoom  zoom-in  zoom-out"));
    prompt_clear(&A->cmd);
    keys(&t, "view de\t");
    CHECK_EQ_S(A->cmd.buf, "view density ");
    prompt_clear(&A->cmd);
    keys(&t, "metric ev\t");
    CHECK_EQ_S(A->cmd.buf, "metric events ");
    prompt_clear(&A->cmd);
    keys(&t, "set as\t");
    CHECK_EQ_S(A->cmd.buf, "set ascii ");
    keys(&t, "o\t");
    CHECK_EQ_S(A->cmd.buf, "set ascii o");
    CHECK(strstr(A->cmd_hint, "on  off") != NULL);
    keys(&t, "f\t");
    CHECK_EQ_S(A->cmd.buf, "set ascii off ");
    prompt_clear(&A->cmd);
    keys(&t, "set reducer mi\t");
    CHECK_EQ_S(A->cmd.buf, "set reducer min-nonzero ");
    prompt_clear(&A->cmd);
    keys(&t, "help mar\t");
    CHECK_EQ_S(A->cmd.buf, "help mark"); /* (mark, mark-start, mark-end) */
    prompt_clear(&A->cmd);
    keys(&t, "filter ki\t");
    CHECK_EQ_S(A->cmd.buf, "filter kind");
    prompt_clear(&A->cmd);
    keys(&t, "sort na\t");
    CHECK_EQ_S(A->cmd.buf, "sort na");
    CHECK(strstr(A->cmd_hint, "natural  name") != NULL);
    /* file paths: entries of the directory, directories with a / */
    char *dir = xasprintf("%s/compl", g_tmpdir);
    mkdir(dir, 0700);
    char *sub = xasprintf("%s/subdir", dir), *f1 = xasprintf("%s/alpha.csv", dir), *f2 = xasprintf("%s/alpine.txt", dir);
    mkdir(sub, 0700);
    fclose(fopen(f1, "w"));
    fclose(fopen(f2, "w"));
    prompt_clear(&A->cmd);
    keys(&t, "save ");
    keys(&t, dir);
    keys(&t, "/al\t");
    char *want = xasprintf("save %s/alp", dir);
    CHECK_EQ_S(A->cmd.buf, want);
    CHECK(strstr(A->cmd_hint, "alpha.csv") && strstr(A->cmd_hint, "alpine.txt"));
    keys(&t, "h\t");
    free(want);
    want = xasprintf("save %s/alpha.csv ", dir);
    CHECK_EQ_S(A->cmd.buf, want);
    prompt_clear(&A->cmd);
    keys(&t, "save ");
    keys(&t, dir);
    keys(&t, "/su\t");
    free(want);
    want = xasprintf("save %s/subdir/", dir);
    CHECK_EQ_S(A->cmd.buf, want);
    /* goto: the bookmarks' names */
    key(&t, TK_ESC);
    command(&t, "mark peak");
    keys(&t, ":goto p\t");
    CHECK_EQ_S(A->cmd.buf, "goto peak ");
    key(&t, TK_ESC);
    free(want);
    free(f1);
    free(f2);
    free(sub);
    free(dir);
    close_app(&t);
}

static void t_cmd_history(void)
{
    char *state = xasprintf("%s/state-cmd", g_tmpdir);
    setenv("XDG_STATE_HOME", state, 1);
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 120, 30));
    if (!t.ok) return;
    command(&t, "view density");
    command(&t, "goto 5ms");
    command(&t, "nosuch"); /* (a failed one is not kept) */
    key(&t, TK_ESC);
    close_app(&t);
    char *path = xasprintf("%s/tnav/commands", state);
    char *text = read_all(path);
    CHECK(text && !strcmp(text, "view density\ngoto 5ms\n"));
    free(text);
    /* the next session walks it with Up; the filter prompt has its own */
    CHECK(open_app(&t, "sample-logs/ring.csv", 120, 30));
    if (t.ok) {
        keys(&t, ":");
        key(&t, TK_UP);
        CHECK_EQ_S(t.A.cmd.buf, "goto 5ms");
        key(&t, TK_UP);
        CHECK_EQ_S(t.A.cmd.buf, "view density");
        key(&t, TK_ESC);
        keys(&t, "/");
        key(&t, TK_UP);
        CHECK(strcmp(t.A.prompt.buf, "goto 5ms") != 0);
        key(&t, TK_ESC);
        close_app(&t);
    }
    free(path);
    free(state);
}

static void t_cmd_save(void)
{
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 120, 30));
    if (!t.ok) return;
    App *A = &t.A;
    /* a view: the text drawn, as tnav render prints it */
    char *p = xasprintf("%s/gantt.txt", g_tmpdir);
    char *line = xasprintf("save %s", p);
    command(&t, line);
    CHECK(strstr(A->msg, "wrote the gantt: locations view (120x29)") != NULL);
    frame(&t, 0); /* (the views at the screen's size again) */
    char *got = read_all(p), *want = NULL;
    size_t wl = 0;
    FILE *mf = open_memstream(&want, &wl);
    canvas_write_text(A->vcache, mf);
    fclose(mf);
    CHECK(got && !strcmp(got, want));
    CHECK(got && strstr(got, "0│") && count_lines(got) == 29);
    free(got);
    free(want);
    free(line);
    free(p);
    /* the event list as CSV: a row per event listed (also when the keys
     * came together, before the list was drawn) */
    app_key(A, ':');
    for (const char *c = "view events"; *c; c++) app_key(A, *c);
    app_key(A, TK_ENTER);
    CHECK(A->view == V_EVENTS);
    p = xasprintf("%s/ev.csv", g_tmpdir);
    line = xasprintf("save %s", p);
    app_key(A, ':');
    for (const char *c = line; *c; c++) app_key(A, *c);
    app_key(A, TK_ENTER);
    frame(&t, AF_REAGG);
    got = read_all(p);
    /* (every event of the window, in time order) */
    CHECK(got && !strncmp(got, "time,dur,loc,act,kind,name\n", 27) && count_lines(got) == 1 + 328);
    free(got);
    free(line);
    free(p);
    /* the statistics: a row per location */
    command(&t, "view stats");
    p = xasprintf("%s/st.csv", g_tmpdir);
    line = xasprintf("save %s", p);
    command(&t, line);
    got = read_all(p);
    CHECK(got && !strncmp(got, "location,events,useful,util%,comm,sync,wait,idle,sent,received\n", 63) &&
          count_lines(got) == 9);
    free(got);
    free(line);
    free(p);
    /* an analyses table as CSV */
    command(&t, "view time");
    p = xasprintf("%s/time.csv", g_tmpdir);
    line = xasprintf("save %s", p);
    command(&t, line);
    got = read_all(p);
    CHECK(got && !strncmp(got, "location,events,useful", 22) && count_lines(got) == 9);
    free(got);
    free(line);
    free(p);
    /* a file that cannot be written: said on the status line */
    command(&t, "save /nonexistent-dir/x.csv");
    CHECK(strstr(A->msg, "could not write /nonexistent-dir/x.csv") != NULL);
    CHECK(A->pmode == PM_NONE);
    close_app(&t);
}

/* ---- sessions --------------------------------------------------------------------------------- */

static void t_session_restore(void)
{
    char *state = xasprintf("%s/state-sess", g_tmpdir);
    setenv("XDG_STATE_HOME", state, 1);
    /* a copy of a sample (its time changes below) */
    char *trace = xasprintf("%s/ring-copy.csv", g_tmpdir), *cp = xasprintf("cp sample-logs/ring.csv '%s'", trace);
    CHECK(system(cp) == 0);
    T t;
    CHECK(open_app(&t, trace, 120, 30));
    if (!t.ok) return;
    App *A = &t.A;
    session_restore(A, true, false);
    CHECK(A->sess_on && !A->msg[0]); /* (nothing saved yet) */
    command(&t, "view density");
    command(&t, "zoom 10ms 30ms");
    command(&t, "goto 20ms");
    keys(&t, "jj");
    command(&t, "filter kind != \"recv\"");
    command(&t, "highlight kind == \"send\"");
    command(&t, "mark middle");
    keys(&t, "[ll");
    int64_t t0 = A->t0, t1 = A->t1, tc = app_cursor_time(A), ma = A->mark_a, bm = A->bm[0];
    int row = A->cur_row;
    char *file = NULL;
    CHECK(session_save(A, &file));
    close_app(&t);
    /* another run on the same trace: all of it back */
    CHECK(open_app(&t, trace, 120, 30));
    if (!t.ok) return;
    session_restore(A, true, false);
    frame(&t, AF_REFILTER);
    CHECK(strstr(A->msg, "session restored") != NULL);
    CHECK(A->view == V_DENSITY && A->t0 == t0 && A->t1 == t1 && app_cursor_time(A) == tc && A->cur_row == row);
    CHECK(A->filter_text && !strcmp(A->filter_text, "kind != \"recv\""));
    CHECK(A->hl_text && !strcmp(A->hl_text, "kind == \"send\""));
    CHECK(A->bm_set[0] && A->bm[0] == bm && !strcmp(A->bm_name[0], "middle"));
    CHECK(A->have_a && A->mark_a == ma && !A->have_b);
    close_app(&t);
    /* --view chosen on the command line wins; --no-session restores nothing */
    CHECK(open_app(&t, trace, 120, 30));
    session_restore(A, true, true);
    CHECK(A->view == V_GANTT_LOC && A->t0 == t0);
    close_app(&t);
    CHECK(open_app(&t, trace, 120, 30));
    session_restore(A, false, false);
    CHECK(!A->sess_on && !A->filter_text && A->t0 == A->s->t_min && !A->bm_set[0]);
    close_app(&t);
    /* the trace changed since: not restored, said */
    struct timeval tv[2] = {{1000000, 0}, {1000000, 0}};
    CHECK(utimes(trace, tv) == 0);
    CHECK(open_app(&t, trace, 120, 30));
    session_restore(A, true, false);
    CHECK(strstr(A->msg, "the trace changed since it was saved") != NULL);
    CHECK(!A->filter_text && A->view == V_GANTT_LOC);
    close_app(&t);
    /* a corrupt entry: a one-line note, nothing restored in part */
    SessFile F;
    char note[300];
    CHECK(sessfile_read(file, &F, note, sizeof note) && F.n == 1);
    char *paths = F.n ? xstrdup(F.e[0].paths) : xstrdup("");
    sessfile_free(&F);
    char *stamp, *p2;
    CHECK(session_key(&trace, 1, &p2, &stamp));
    CHECK(sessfile_put(file, paths, stamp, "view density\nwindow 10 x\nfilter kind == \"send\"\n"));
    CHECK(open_app(&t, trace, 120, 30));
    session_restore(A, true, false);
    CHECK(strstr(A->msg, "the saved session of this trace is corrupt (line 2 of its entry): not restored") != NULL);
    CHECK(A->view == V_GANTT_LOC && !A->filter_text);
    close_app(&t);
    /* a corrupt file: a note, no crash; the next save makes it whole */
    FILE *f = fopen(file, "w");
    fputs("tnav-sessions 1\ntrace\t/x\nstamp 1:2\nview gantt\n", f); /* (cut short) */
    fclose(f);
    CHECK(open_app(&t, trace, 120, 30));
    session_restore(A, true, false);
    CHECK(strstr(A->msg, "session not restored: ") && strstr(A->msg, "is corrupt (line 4)"));
    command(&t, "view stats");
    char *file2;
    CHECK(session_save(A, &file2));
    free(file2);
    close_app(&t);
    CHECK(sessfile_read(file, &F, note, sizeof note) && F.n == 1 && strstr(F.e[0].body, "view analyses"));
    sessfile_free(&F);
    f = fopen(file, "w");
    fputs("\x01garbage\xff\n", f);
    fclose(f);
    CHECK(open_app(&t, trace, 120, 30));
    session_restore(A, true, false);
    CHECK(strstr(A->msg, "is corrupt (line 1)") != NULL);
    close_app(&t);
    free(paths);
    free(p2);
    free(stamp);
    free(file);
    free(cp);
    free(trace);
    free(state);
}

/* files and entries of random lines (pieces of valid ones, random bytes):
 * read and applied without a crash, a corrupt one never applied in part */
static void t_session_garbage(void)
{
    char *state = xasprintf("%s/state-garbage", g_tmpdir);
    setenv("XDG_STATE_HOME", state, 1);
    T t;
    CHECK(open_app(&t, "sample-logs/ring.csv", 100, 30));
    if (!t.ok) return;
    App *A = &t.A;
    char *file = state_path("sessions");
    static const char *const PIECES[] = {"tnav-sessions 1", "trace\t", "stamp 1:2", "saved 12", "end", "view density",
                                         "view nosuch", "window 5 4", "window 1 99999999999", "cursor 3 -1",
                                         "cursor 10 2", "filter kind ==", "filter kind == \"send\"", "highlight (",
                                         "bookmark z 5 name", "bookmark { 5", "range a x", "range b 7", "", "saved x"};
    unsigned seed = 12345;
    int applied = 0, refused = 0;
    char *kp = NULL, *ks = NULL;
    CHECK(session_key(t.args.files, t.args.nfiles, &kp, &ks));
    for (int round = 0; round < 300; round++) {
        FILE *f = fopen(file, "w");
        if (!f) break;
        int nl = (int)((seed = seed * 1103515245 + 12345) >> 16) % 12;
        if (round % 3) fprintf(f, "tnav-sessions 1\ntrace\t%s\nstamp %s\n", kp ? kp : "", ks ? ks : "");
        for (int i = 0; i < nl; i++) {
            seed = seed * 1103515245 + 12345;
            if ((seed >> 16) % 7 == 0) {
                for (int k = 0; k < 20; k++) fputc((int)((seed = seed * 1103515245 + 12345) >> 16) & 0xff, f);
                fputc('\n', f);
            } else {
                fprintf(f, "%s\n", PIECES[(seed >> 16) % (sizeof PIECES / sizeof PIECES[0])]);
            }
        }
        if (round % 2) fputs("end\n", f);
        fclose(f);
        SessFile F;
        char note[300];
        sessfile_read(file, &F, note, sizeof note);
        sessfile_free(&F);
        ViewId v0 = A->view;
        A->msg[0] = 0;
        session_restore(A, true, false);
        if (strstr(A->msg, "session restored")) applied++;
        else if (A->msg[0]) {
            refused++;
            CHECK(A->view == v0 || strstr(A->msg, "no longer compiles"));
        }
        frame(&t, AF_REFILTER);
        free(A->sess_paths);
        free(A->sess_stamp);
        A->sess_paths = A->sess_stamp = NULL;
    }
    CHECK(applied > 10 && refused > 10);
    if (!(applied > 10 && refused > 10)) printf("    # applied %d, refused %d\n", applied, refused);
    free(kp);
    free(ks);
    free(file);
    close_app(&t);
    free(state);
}

static void t_session_merge(void)
{
    char *file = xasprintf("%s/sessions-merge", g_tmpdir);
    /* an entry of another trace stays when this one is saved, and this
     * one is replaced, not added twice */
    CHECK(sessfile_put(file, "/other/trace.csv", "1:1", "view stats\n"));
    CHECK(sessfile_put(file, "/this/trace.csv", "2:2", "view gantt\n"));
    CHECK(sessfile_put(file, "/this/trace.csv", "2:3", "view density\n"));
    SessFile F;
    char note[300];
    CHECK(sessfile_read(file, &F, note, sizeof note));
    CHECK_EQ_I(F.n, 2);
    if (F.n == 2) {
        CHECK(!strcmp(F.e[0].paths, "/other/trace.csv") && !strcmp(F.e[0].body, "view stats\n"));
        CHECK(!strcmp(F.e[1].paths, "/this/trace.csv") && !strcmp(F.e[1].stamp, "2:3") &&
              !strcmp(F.e[1].body, "view density\n"));
    }
    sessfile_free(&F);
    /* two writers at once, each saving its own traces: none lost */
    pid_t kids[2];
    for (int k = 0; k < 2; k++) {
        kids[k] = fork();
        if (kids[k] == 0) {
            for (int i = 0; i < 40; i++) {
                char p[64], b[64];
                snprintf(p, sizeof p, "/writer%d/trace%d.csv", k, i);
                snprintf(b, sizeof b, "cursor %d 0\n", i);
                if (!sessfile_put(file, p, "1:1", b)) _exit(1);
            }
            _exit(0);
        }
    }
    int ok = 0;
    for (int k = 0; k < 2; k++) {
        int st;
        if (kids[k] > 0 && waitpid(kids[k], &st, 0) == kids[k] && WIFEXITED(st) && WEXITSTATUS(st) == 0) ok++;
    }
    CHECK_EQ_I(ok, 2);
    CHECK(sessfile_read(file, &F, note, sizeof note));
    CHECK_EQ_I(F.n, 82);
    int seen = 0;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 40; i++) {
            char p[64], b[64];
            snprintf(p, sizeof p, "/writer%d/trace%d.csv", k, i);
            snprintf(b, sizeof b, "cursor %d 0\n", i);
            for (int j = 0; j < F.n; j++)
                if (!strcmp(F.e[j].paths, p) && !strcmp(F.e[j].body, b)) seen++;
        }
    CHECK_EQ_I(seen, 80);
    sessfile_free(&F);
    /* no temp file left beside it */
    int extra = 0;
    DIR *d = opendir(g_tmpdir);
    struct dirent *de;
    while (d && (de = readdir(d)))
        if (!strncmp(de->d_name, "sessions-merge", 14) && strcmp(de->d_name, "sessions-merge") != 0 &&
            strcmp(de->d_name, "sessions-merge.lock") != 0)
            extra++;
    if (d) closedir(d);
    CHECK_EQ_I(extra, 0);
    /* only the newest SESSIONS_KEEP are kept */
    for (int i = 0; i < SESSIONS_KEEP; i++) {
        char p[64];
        snprintf(p, sizeof p, "/many/trace%d.csv", i);
        sessfile_put(file, p, "1:1", "");
    }
    CHECK(sessfile_read(file, &F, note, sizeof note));
    CHECK_EQ_I(F.n, SESSIONS_KEEP);
    CHECK(F.n && !strcmp(F.e[F.n - 1].paths, "/many/trace199.csv"));
    sessfile_free(&F);
    /* no key for standard input */
    char *dash = "-", *kp, *ks;
    CHECK(!session_key(&dash, 1, &kp, &ks));
    free(file);
}

/* ---- the man page lists every key and command of the table --------------------------------------- */

/* the words set in bold or italic on the .B/.BR/.RB/.BI/.IR lines of the
 * section named sec (quoted pieces are separators), unescaped */
static int man_words(const char *man, const char *sec, char words[][64], int max)
{
    char head[80];
    snprintf(head, sizeof head, "\n.SH %s\n", sec);
    const char *p = strstr(man, head);
    if (!p) return 0;
    p += strlen(head);
    const char *end = strstr(p, "\n.SH ");
    if (!end) end = p + strlen(p);
    int n = 0;
    while (p < end) {
        const char *nl = strchr(p, '\n');
        if (!nl || nl > end) nl = end;
        if (!strncmp(p, ".B ", 3) || !strncmp(p, ".BR ", 4) || !strncmp(p, ".RB ", 4) || !strncmp(p, ".BI ", 4) ||
            !strncmp(p, ".IR ", 4)) {
            const char *q = strchr(p, ' ');
            while (q && q < nl) {
                while (q < nl && *q == ' ') q++;
                if (q >= nl) break;
                if (*q == '"') {
                    const char *e = memchr(q + 1, '"', (size_t)(nl - q - 1));
                    q = e ? e + 1 : nl;
                    continue;
                }
                const char *e = q;
                while (e < nl && *e != ' ') e++;
                char w[64];
                size_t k = 0;
                for (const char *c = q; c < e && k + 1 < sizeof w; c++) {
                    if (*c == '\\' && c + 1 < e && c[1] == '-') {
                        w[k++] = '-';
                        c++;
                    } else if (*c == '\\' && c + 3 < e && !strncmp(c, "\\(aq", 4)) {
                        w[k++] = '\'';
                        c += 3;
                    } else if (*c == '\\' && c + 1 < e && c[1] == '&') {
                        c++;
                    } else if (*c == '\\' && c + 1 < e && c[1] == 'e') {
                        w[k++] = '\\';
                        c++;
                    } else {
                        w[k++] = *c;
                    }
                }
                w[k] = 0;
                if (n < max) snprintf(words[n++], 64, "%s", w);
                q = e;
            }
        }
        p = nl + 1;
    }
    return n;
}

static bool has_word(char words[][64], int n, const char *w)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(words[i], w)) return true;
    return false;
}

static void t_man_lists_actions(void)
{
    char *man = read_all("doc/tnav.1");
    CHECK(man != NULL);
    if (!man) return;
    static char kw[4000][64], cw[1000][64];
    int nk = man_words(man, "KEYS", kw, 4000), nc = man_words(man, "\"INTERFACE COMMANDS\"", cw, 1000);
    CHECK(nk > 100 && nc > 20);
    int nkeys = 0, ncmds = 0;
    for (const Action *a = ACTIONS; a->name; a++) {
        for (int i = 0; i < ACTION_KEYS && a->keys[i]; i++) {
            char kn[24];
            tkey_name(a->keys[i], kn, sizeof kn);
            nkeys++;
            if (!has_word(kw, nk, kn)) {
                printf("    the key %s (%s) is not under KEYS in doc/tnav.1\n", kn, a->name);
                g_fail_checks++;
            }
        }
        char c[64];
        snprintf(c, sizeof c, ":%s", a->name);
        ncmds++;
        if (!has_word(cw, nc, c)) {
            printf("    the command %s is not under INTERFACE COMMANDS in doc/tnav.1\n", c);
            g_fail_checks++;
        }
    }
    /* and the keys beyond the table */
    for (int i = 0; HELP_EXTRA[i][0]; i++)
        if (!strcmp(HELP_EXTRA[i][0], "Esc") || !strcmp(HELP_EXTRA[i][0], "Ctrl-C")) CHECK(has_word(kw, nk, HELP_EXTRA[i][0]));
    CHECK(nkeys >= 60 && ncmds >= 58); /* (the table as it is: a check that cannot pass on an empty one) */
    free(man);
}

/* the help: every description whole (wrapped, never cut with …), Esc, the
 * mouse and the prompt's keys, a title saying how it closes */
static void t_help_wraps(void)
{
    static const int SIZES[][2] = {{80, 24}, {120, 40}, {200, 60}};
    for (int z = 0; z < 3; z++) {
        T t;
        CHECK(open_app(&t, "sample-logs/ring.csv", SIZES[z][0], SIZES[z][1]));
        if (!t.ok) return;
        keys(&t, "?");
        CHECK(screen_has(&t, "? Esc q close"));
        /* the help's text over every page, joined */
        char *all = xstrdup("");
        for (int page = 0; page < 40; page++) {
            for (int y = 1; y < SIZES[z][1] - 2; y++) {
                char *l = screen_line(&t, y);
                CHECK(strstr(l, "\xe2\x80\xa6") == NULL);
                char *n = xasprintf("%s %s", all, l);
                free(all);
                all = n;
                free(l);
            }
            key(&t, TK_PGDN);
        }
        /* every word of every description shows */
        for (const Action *a = ACTIONS; a->name; a++) {
            const char *h = a->help;
            char w[64];
            while (*h) {
                size_t l = strcspn(h, " ");
                if (l && l < sizeof w) {
                    memcpy(w, h, l);
                    w[l] = 0;
                    if (!strstr(all, w)) {
                        printf("    %dx%d: the help lacks \"%s\" of %s\n", SIZES[z][0], SIZES[z][1], w, a->name);
                        g_fail_checks++;
                        break;
                    }
                }
                h += l;
                while (*h == ' ') h++;
            }
        }
        CHECK(strstr(all, "Esc") && strstr(all, "mouse") && strstr(all, "Ctrl-W") && strstr(all, "wheel"));
        free(all);
        close_app(&t);
    }
}
