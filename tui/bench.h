/*
 * bench.h — the interface's benchmarks (`--bench-keys`, `--bench-open`),
 * run on an App already loaded, without a terminal. No curses.
 */
#ifndef TNAV_TUI_BENCH_H
#define TNAV_TUI_BENCH_H

#include "app.h"

/* a script: space-separated keys (a character, or Left Right Up Down PgUp
 * PgDn Home End Enter Esc Tab), and /TEXT or tTEXT for typing a filter (or
 * a highlight, '_' for a space) and pressing Enter; prints one line of
 * timings and the peak. Returns the exit status. */
int tui_bench_keys(App *A, const char *script);

/* the first frame after a load that started at t0 and ended at t_end
 * (now_sec), timed from t0; prints one line. Returns the exit status. */
int tui_bench_open(App *A, double t0, double t_end);

#endif
