/*
 * bench.c — the interface's benchmarks, without a terminal: `tnav tui
 * --bench-keys SCRIPT` (the main loop's work driven by a key script, each
 * key timed from its arrival to a finished frame, with the process's peak)
 * and `--bench-open` (the first frame after the load). The lines they
 * print are described in doc/PERFORMANCE.md and read by tests/bench.sh.
 *
 * Owns: nothing past a call: a canvas of the App's size for its frames.
 * Invariants: the keys go through app_key and app_draw, as the terminal's
 * (screen.c) do, so a timing is the interface's own; no curses here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "keys.h"
#include "base/util.h"

/* ---- the key-script benchmark -------------------------------------------------------------- */

/* a script: space-separated keys (a character, or Left Right Up Down PgUp
 * PgDn Home End Enter Esc Tab), and /TEXT or tTEXT for typing a filter
 * (or a highlight) and pressing Enter */
int tui_bench_keys(App *A, const char *script)
{
    Canvas *c = canvas_new(A->w, A->h, A->ascii, A->color);
    app_draw(A, c, AF_REAGG);
    timing_note("bench keys: first frame");
    app_idle(A);
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
        struct rusage r0;
        getrusage(RUSAGE_SELF, &r0);
        double t0 = now_sec();
        int flags = 0;
        for (int i = 0; i < nk; i++) flags |= app_key(A, keys[i]);
        app_draw(A, c, flags);
        double ms = (now_sec() - t0) * 1e3;
        if (getenv("TNAV_BENCH_VERBOSE")) {
            /* (with the process's CPU time, every thread's, which a busy
             * machine does not inflate as it does the wall time) */
            struct rusage vr;
            getrusage(RUSAGE_SELF, &vr);
            double cpu = (double)(vr.ru_utime.tv_sec - r0.ru_utime.tv_sec + vr.ru_stime.tv_sec - r0.ru_stime.tv_sec) * 1e3 +
                         (double)(vr.ru_utime.tv_usec - r0.ru_utime.tv_usec + vr.ru_stime.tv_usec - r0.ru_stime.tv_usec) / 1e3;
            size_t rss, hwm;
            proc_mem(&rss, &hwm);
            size_t nd, db;
            agg_budget_drops(A->budget, &nd, &db);
            fprintf(stderr, "%-24s %8.1f ms  cpu %7.1f ms  peak %ld MiB  rss %zu MiB  parts %zu / %zu MiB (%zu dropped, %zu MiB)\n",
                    tok, ms, cpu, (long)vr.ru_maxrss / 1024, rss >> 20, agg_budget_bytes(A->budget) >> 20,
                    agg_budget_limit(A->budget) >> 20, nd, db >> 20);
        }
        app_idle(A);
        if (ms > worst[cls]) worst[cls] = ms;
        sum[cls] += ms;
        n[cls]++;
    }
    printf("bench tui events=%zu size=%dx%d", A->s->n, A->w, A->h);
    for (int k = 0; k < 3; k++)
        if (n[k]) printf(" %s_keys=%d %s_mean_ms=%.1f %s_max_ms=%.1f", CLS[k], n[k], CLS[k], sum[k] / n[k], CLS[k], worst[k]);
    /* the whole process's peak: load, summaries, every view and filter the keys visited */
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf(" peak_rss_bytes=%ld peak_rss_per_event=%.1f\n", (long)ru.ru_maxrss * 1024,
           (double)ru.ru_maxrss * 1024.0 / (double)(A->s->n ? A->s->n : 1));
    canvas_free(c);
    return 0;
}

/* ---- opening benchmark ------------------------------------------------------------------------ */

/* tnav tui --bench-open: the load (on its thread, as in the interface),
 * then the first frame, timed from the start; one line of key=value pairs
 * (see doc/PERFORMANCE.md) */
int tui_bench_open(App *A, double t0, double t_end)
{
    Canvas *c = canvas_new(A->w, A->h, A->ascii, A->color);
    A->first_lite = true;
    app_draw(A, c, AF_REAGG);
    double t_frame = now_sec();
    timing_note("bench open: first frame");
    app_finish_tail(A); /* (as the interface does after its first frame) */
    A->first_lite = false;
    app_draw(A, c, AF_REAGG); /* (the full frame, as the interface draws it next) */
    double t_full = now_sec();
    timing_note("bench open: full frame");
    canvas_free(c);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double load_s = t_end - t0, frame_s = t_frame - t0;
    size_t n = A->s->n ? A->s->n : 1;
    printf("bench open events=%zu size=%dx%d load_s=%.3f first_frame_s=%.3f after_load_s=%.3f ratio=%.3f "
           "full_frame_s=%.3f peak_rss_bytes=%ld peak_rss_per_event=%.1f\n",
           A->s->n, A->w, A->h, load_s, frame_s, frame_s - load_s, load_s > 0 ? frame_s / load_s : 0, t_full - t0,
           (long)ru.ru_maxrss * 1024, (double)ru.ru_maxrss * 1024.0 / (double)n);
    return 0;
}
