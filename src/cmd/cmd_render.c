/*
 * cmd_render.c — `tnav render`: one frame of a view, exactly as the TUI
 * would draw it at that size, printed as text (or with ANSI colours), or
 * the numbers behind it as TSV; and `--bench`, the frame and summary
 * timings behind doc/PERFORMANCE.md.
 *
 * Owns: the options of the views (viewport, rows, metric, reducer,
 * output) and their checking.
 * Invariants: a usage error exits 2 before anything is drawn; the frame is
 * w x h cells whatever the output format.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "agg/agg.h"
#include "view/canvas.h"
#include "cli.h"
#include "filters/filter.h"
#include "store/store.h"
#include "base/timeparse.h"
#include "base/util.h"
#include "view/view.h"

/* a time option: an offset from the start of the trace with an optional
 * unit (1.5s, 200us, 42 = ns), or an RFC 3339 date-time */
static bool parse_metric(const char *v, bool matrix, ViewCtx *ctx)
{
    if (matrix) {
        if (!strcmp(v, "bytes")) ctx->mx = MX_BYTES;
        else if (!strcmp(v, "count") || !strcmp(v, "events")) ctx->mx = MX_COUNT;
        else if (!strcmp(v, "mean")) ctx->mx = MX_MEAN;
        else return false;
        return true;
    }
    if (!strncmp(v, "expr:", 5)) {
        ctx->metric.m = M_EXPR;
        ctx->metric.expr = v + 5;
        ctx->metric_set = true;
        return true;
    }
    for (int m = 0; m < M__N; m++)
        if (m != M_EXPR && !strcmp(v, METRIC_NAMES[m])) {
            ctx->metric.m = (Metric)m;
            ctx->metric_set = true;
            return true;
        }
    return false;
}

/* CPU time of the process (all threads) */
static double proc_cpu_sec(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec * 1e-6;
}


/* whether the comma-separated list has the word w */
static bool list_has(const char *list, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        if (k == n && !memcmp(p, w, n)) return true;
        if (!e) break;
        p = e + 1;
    }
    return false;
}

/* frame timings for make bench: the summary, then frames of 200 x 60 of
 * every view (density, gantt by location and by activity, comm, matrix)
 * at several zooms (best of `runs` each; the first draw of each view too),
 * the summary's bytes per event and the peak resident memory */
static int bench_render(Session *ss, ViewCtx *ctx, const char *filter_text, int runs)
{
    double t0 = now_sec();
    Summary *S = summary_build(ss->s, ss->sel, 0);
    double t1 = now_sec();
    /* a filter change: run the filter, rebuild the summary */
    double fms = 0;
    uint64_t *sel = NULL;
    if (filter_text) {
        FilterError fe;
        Filter *f = filter_compile(ss->s, filter_text, &fe);
        if (!f) {
            filter_print_error(stderr, filter_text, &fe);
            return 2;
        }
        sel = xcalloc((ss->s->n + 63) / 64 + 1, 8);
        double a = now_sec();
        if (filter_run(f, sel, NULL) != FILTER_OK) {
            fprintf(stderr, "tnav: %s\n", filter_run_error(f));
            free(sel);
            filter_free(f);
            return 2;
        }
        fms = (now_sec() - a) * 1e3;
        filter_free(f);
    }
    /* as in the interface: one summary at a time, the new filter's built
     * from the one shown before, which it frees (its memory, warm, is
     * reused; its lanes too when the filter keeps the same intervals):
     * each time from the summary the trace opened with, built again
     * (untimed) after the first */
    double best_sum = 1e30, best_cpu = 1e30;
    /* (best of 5: each takes a fifth of a second, so a handful fall
     * within one spell of a shared machine's slowness) */
    int nreb = runs < 5 ? runs : 5;
    for (int r = 0; r < nreb; r++) {
        /* (no filter given: a build from nothing) */
        Summary *old = !sel ? NULL : r ? summary_build(ss->s, ss->sel, 0) : S;
        if (!sel && !r) summary_free(S);
        S = NULL;
        double a = now_sec(), ca = proc_cpu_sec();
        Summary *S2 = summary_build_from(ss->s, sel ? sel : ss->sel, 0, old);
        double d = (now_sec() - a) * 1e3, dc = (proc_cpu_sec() - ca) * 1e3;
        if (d < best_sum) best_sum = d;
        if (dc < best_cpu) best_cpu = dc;
        if (r + 1 < nreb) summary_free(S2);
        else S = S2;
    }
    ctx->S = S;
    ctx->w = 200 + 8;
    ctx->h = 60 + 4;
    int64_t span = ss->s->t_max - ss->s->t_min + 1;
    static const struct {
        const char *name;
        int64_t div;
    } Z[] = {{"full", 1}, {"z10", 10}, {"z1000", 1000}, {"z1e6", 1000000}};
    /* the views: density (busy by location), gantt by location and by
     * activity, comm (bytes per location pair), matrix */
    static const struct {
        const char *name, *view;
        RowKind rows;
    } V[] = {{"density", "density", ROWS_LOC}, {"gantt_loc", "gantt", ROWS_LOC}, {"gantt_act", "gantt", ROWS_ACT},
             {"comm", "comm", ROWS_PAIR}, {"matrix", "matrix", ROWS_LOC}};
    printf("bench render events=%zu summary_ms=%.1f filter_ms=%.1f summary_after_filter_ms=%.1f summary_after_filter_cpu_ms=%.1f",
           ss->s->n, (t1 - t0) * 1e3, fms, best_sum, best_cpu);
    char err[200];
    /* TNAV_BENCH_CPU=1: frames timed in the process's CPU time (the
     * work of all its threads, an upper bound of a frame's latency on an
     * idle machine), for a machine busy with other work */
    bool cpu = getenv("TNAV_BENCH_CPU") != NULL;
    if (cpu) printf(" frame_clock=process_cpu");
    /* TNAV_BENCH_VIEWS=gantt_act,...: only those views (to profile one) */
    const char *only = getenv("TNAV_BENCH_VIEWS");
    /* the slowest first frame at a zoom other than the whole trace: what a
     * view builds lazily for what that zoom shows first (the series of
     * instants and arrivals that a zoomed-out Gantt by activity, too dense
     * for them, does not build) */
    double zfirst = 0;
    const char *zfirst_at = "none";
    char zat[64];
    bool prepared = false;
    for (size_t v = 0; v < sizeof V / sizeof V[0]; v++) {
        if (only && !list_has(only, V[v].name)) continue;
        ctx->rows = V[v].rows;
        for (size_t z = 0; z < sizeof Z / sizeof Z[0]; z++) {
            int64_t w = span / Z[z].div > 0 ? span / Z[z].div : 1;
            ctx->t0 = ss->s->t_min + (span - w) / 2;
            ctx->t1 = ctx->t0 + w;
            double best = 1e30, first = 0;
            for (int r = 0; r < runs; r++) {
                Canvas *c = canvas_new(ctx->w, ctx->h, false, true);
                double a = cpu ? proc_cpu_sec() : now_sec();
                if (!view_by_name(V[v].view)->run(ctx, c, NULL, err, sizeof err)) {
                    canvas_free(c);
                    fprintf(stderr, "tnav render: %s\n", err);
                    return 2;
                }
                double d = ((cpu ? proc_cpu_sec() : now_sec()) - a) * 1e3;
                if (!r) first = d;
                if (d < best) best = d;
                canvas_free(c);
            }
            /* (the first draw of a view builds what it needs lazily) */
            if (!z) printf(" first_%s_ms=%.2f", V[v].name, first);
            /* (after the first frame, what the interface prepares before
             * any key: the status line's count index, which a frame of
             * the whole trace does without) */
            if (!z && !prepared) {
                summary_count_prepare(S);
                prepared = true;
            }
            if (z && first > zfirst) {
                zfirst = first;
                snprintf(zat, sizeof zat, "%s_%s", V[v].name, Z[z].name);
                zfirst_at = zat;
            }
            if (!strcmp(V[v].name, "density")) printf(" frame_%s_ms=%.2f", Z[z].name, best);
            else printf(" %s_%s_ms=%.2f", V[v].name, Z[z].name, best);
        }
    }
    ctx->rows = ROWS_LOC;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    size_t sb = summary_bytes(S);
    printf(" first_zoom_max_ms=%.2f first_zoom_max_at=%s", zfirst, zfirst_at);
    printf(" cells=200x60 segments=%zu summary_bytes=%zu summary_B_per_event=%.1f peak_rss_B_per_event=%.1f\n",
           summary_nsegments(S), sb, ss->s->n ? (double)sb / (double)ss->s->n : 0.0,
           ss->s->n ? (double)ru.ru_maxrss * 1024.0 / (double)ss->s->n : 0.0);
    summary_free(S);
    free(sel);
    return 0;
}

int cmd_render(int argc, char **argv, int first)
{
    CliArgs a;
    memset(&a, 0, sizeof a);
    static const char *const opts[] = {"--view", "--rows",  "--metric", "--dir",   "--reduce", "--sub-bins",
                                       "--from", "--to",    "--width",  "--height", "--color", "--format",
                                       "--scale", "--row",  "--at",     "--runs",  "--messages", "--instants", "--partner", NULL};
    static const char *const flags[] = {"--ascii", "--tree", "--bench", NULL};
    a.extra_opts = opts;
    a.extra_flags = flags;
    int r = cli_begin("render", argc, argv, first, &a);
    if (r >= 0) return r;
    ViewCtx ctx;
    memset(&ctx, 0, sizeof ctx);
    const char *vn = cli_extra(&a, "--view");
    const ViewOps *view = view_by_name(vn ? vn : "density");
    if (!view) {
        cli_free(&a);
        return cli_usage_error("render", "--view must be density, gantt, comm, matrix, line, bars or imbalance, not '%s'", vn);
    }
    const char *v;
#define BAD(...)                                                                                                     \
    do {                                                                                                             \
        cli_free(&a);                                                                                                \
        return cli_usage_error("render", __VA_ARGS__);                                                               \
    } while (0)
    ctx.rows = ROWS_LOC;
    if ((v = cli_extra(&a, "--rows"))) {
        if (!strcmp(v, "act")) ctx.rows = ROWS_ACT;
        else if (strcmp(v, "loc") != 0) BAD("--rows must be loc or act, not '%s'", v);
    }
    ctx.tree = cli_flag(&a, "--tree");
    bool matrix = !strcmp(view->name, "matrix");
    if ((v = cli_extra(&a, "--metric")) && !parse_metric(v, matrix, &ctx))
        BAD(matrix ? "--metric of the matrix must be bytes, count or mean, not '%s'"
                   : "--metric must be busy, sync, bytes, events, counter or expr:E, not '%s'",
            v);
    if ((v = cli_extra(&a, "--dir"))) {
        if (!strcmp(v, "recv")) ctx.metric.recv = true;
        else if (strcmp(v, "send") != 0) BAD("--dir must be send or recv, not '%s'", v);
    }
    ctx.reducer = RED_SUM;
    if ((v = cli_extra(&a, "--reduce"))) {
        int k = -1;
        for (int i = 0; i < RED__N; i++)
            if (!strcmp(v, REDUCER_NAMES[i])) k = i;
        if (k < 0) BAD("--reduce must be sum, mean, max, min-nonzero or mode, not '%s'", v);
        ctx.reducer = (Reducer)k;
    }
    ctx.subbins = 8;
    if ((v = cli_extra(&a, "--sub-bins"))) {
        int64_t n;
        if (!parse_int_arg(v, 1, 64, &n)) BAD("--sub-bins must be a whole number 1..64, not '%s'", v);
        ctx.subbins = (int)n;
    }
    int w = 100, h = 30;
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
        w = ws.ws_col;
        h = ws.ws_row - 1;
    }
    if ((v = cli_extra(&a, "--width"))) {
        int64_t n;
        if (!parse_int_arg(v, 10, 10000, &n)) BAD("--width must be a whole number 10..10000, not '%s'", v);
        w = (int)n;
    }
    if ((v = cli_extra(&a, "--height"))) {
        int64_t n;
        if (!parse_int_arg(v, 5, 10000, &n)) BAD("--height must be a whole number 5..10000, not '%s'", v);
        h = (int)n;
    }
    ctx.w = w;
    ctx.h = h;
    bool tsv = false, ansi = false;
    if ((v = cli_extra(&a, "--format"))) {
        if (!strcmp(v, "tsv")) tsv = true;
        else if (!strcmp(v, "ansi")) ansi = true;
        else if (strcmp(v, "text") != 0) BAD("--format must be text, ansi or tsv, not '%s'", v);
    }
    bool color = ansi;
    const char *cv = cli_extra(&a, "--color");
    if (cv && !strcmp(cv, "always")) color = true;
    else if (cv && !strcmp(cv, "never")) color = false;
    else if (cv && strcmp(cv, "auto") != 0) BAD("--color must be auto, always or never, not '%s'", cv);
    else if (!ansi) {
        const char *term = getenv("TERM");
        color = isatty(STDOUT_FILENO) && !(getenv("NO_COLOR") && *getenv("NO_COLOR")) && term && strcmp(term, "dumb") != 0;
    }
    if (ansi && cv && !strcmp(cv, "never")) color = false;
    bool ascii = cli_flag(&a, "--ascii");
    if ((v = cli_extra(&a, "--scale"))) {
        /* (a value of the view: a time, a byte or event count, at most an int64) */
        if (!parse_real_arg(v, &ctx.scale) || !(ctx.scale > 0) || !(ctx.scale <= 9.2e18))
            BAD("--scale must be a finite number above 0 and at most 9.2e18, not '%s'", v);
    }
    /* the Gantt's overlays: auto (default), all, off */
    static const char *const OVL_OPTS[2] = {"--messages", "--instants"};
    for (int k = 0; k < 2; k++) {
        if (!(v = cli_extra(&a, OVL_OPTS[k]))) continue;
        int m = -1;
        for (int i = 0; i < OVL__N; i++)
            if (!strcmp(v, OVL_NAMES[i])) m = i;
        if (m < 0) BAD(k ? "--instants must be auto, all or off, not '%s'" : "--messages must be auto, all or off, not '%s'", v);
        if (k) ctx.marks = (OverlayMode)m;
        else ctx.msgs = (OverlayMode)m;
    }
    ctx.row_sel = cli_extra(&a, "--row");
    const char *partner = cli_extra(&a, "--partner");
    const char *from = cli_extra(&a, "--from"), *to = cli_extra(&a, "--to"), *at = cli_extra(&a, "--at");
    const char *runs_s = cli_extra(&a, "--runs");
    int64_t runs = 10;
    if (runs_s && !parse_int_arg(runs_s, 1, 100000, &runs)) BAD("--runs must be a whole number 1..100000, not '%s'", runs_s);
    bool bench = cli_flag(&a, "--bench");
#undef BAD
    /* the trace, with the filter */
    const char *filter_text = a.filter;
    if (bench) a.filter = NULL; /* timed below */
    Session ss;
    r = session_open("render", &a, &ss);
    if (r) {
        cli_free(&a);
        return r;
    }
    const Store *s = ss.s;
    ctx.s = s;
    ctx.filter_text = filter_text;
    if (bench) {
        r = bench_render(&ss, &ctx, filter_text, (int)runs);
        session_close(&ss);
        cli_free(&a);
        return r;
    }
    int64_t origin = s->t_min;
    r = cli_window_of("render", from, to, s, &ctx.t0, &ctx.t1);
    if (!r && at && !cli_time_arg(at, origin, &ctx.at)) r = cli_usage_error("render", "--at: not a time: '%s'", at);
    if (r) {
        session_close(&ss);
        cli_free(&a);
        return r;
    }
    ctx.have_at = at != NULL;
    if (partner) {
        /* the comm view of one location's pairs (the interface's P pane) */
        for (uint32_t l = 0; l < s->nloc && !ctx.have_partner; l++)
            if (!strcmp(loc_label(s, l), partner)) ctx.have_partner = true, ctx.partner = l;
        if (!ctx.have_partner || strcmp(view->name, "comm") != 0) {
            r = cli_usage_error("render", strcmp(view->name, "comm") ? "--partner goes with --view comm ('%s')"
                                                                       : "--partner: no location is labelled '%s'",
                                partner);
            session_close(&ss);
            cli_free(&a);
            return r;
        }
    }
    ctx.S = summary_build(s, ss.sel, a.load.threads);
    Canvas *c = tsv ? NULL : canvas_new(w, h, ascii, color);
    char err[300];
    static char buf[1 << 16];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    if (!view->run(&ctx, c, tsv ? stdout : NULL, err, sizeof err)) {
        fprintf(stderr, "tnav render: %s\n", err);
        r = 2;
    } else if (c) {
        if (color) canvas_write_ansi(c, stdout);
        else canvas_write_text(c, stdout);
    }
    canvas_free(c);
    summary_free(ctx.S);
    session_close(&ss);
    cli_free(&a);
    if (fflush(stdout) != 0) r = 2;
    return r;
}
