/*
 * filter.h — the scoping filter language: compile a filter text against a
 * store, run it to a selection of events, list its bytecode.
 *
 * Owns: compiled filters (programs, tables, scopes, regexes).
 * Invariants: a filter is compiled once per text and store and may be run
 * many times, from one thread at a time; nothing is evaluated when
 * compilation fails; a run stops at its time budget, a cancel or a regex
 * that fails, and then returns no selection; a run's
 * selection is a bitmap of the store's events (bit e = event e) and
 * contains only events that passed every stage; the result of a run does
 * not depend on how the events are split into blocks. See doc/FILTER.md.
 */
#ifndef TNAV_FILTER_H
#define TNAV_FILTER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct Store;
typedef struct Filter Filter;

typedef struct {
    int line, col;   /* 1-based, of the start of the span */
    int start, end;  /* byte offsets of the span in the text */
    char msg[256];
} FilterError;

/* Compile text against the store s. On error returns NULL and fills err. */
Filter *filter_compile(const struct Store *s, const char *text, FilterError *err);
void filter_free(Filter *f);
/* Only the syntax (no store needed): false with err filled on an error. */
bool filter_syntax_ok(const char *text, FilterError *err);

/* Run the filter: sel receives (n + 63) / 64 words. stage_counts (may be
 * NULL) receives, per stage, the events left after it. Returns FILTER_OK,
 * or why the run stopped — a regex failed (a PCRE2 limit: never a silent
 * "no match"), the time budget ran out, or it was cancelled — and then
 * sel holds nothing usable and filter_run_error says what happened. */
enum { FILTER_OK = 0, FILTER_FAILED = 1, FILTER_TIMEOUT = 2, FILTER_CANCELLED = 3 };
int filter_run(Filter *f, uint64_t *sel, uint64_t *stage_counts);
const char *filter_run_error(const Filter *f);
/* The time budget of every run of every filter compiled from now on, in
 * seconds (0 = none; the default is FILTER_DEFAULT_BUDGET): --filter-timeout. */
#define FILTER_DEFAULT_BUDGET 5.0
void filter_set_default_budget(double seconds);
double filter_default_budget(void);
/* This filter's own budget (seconds, 0 = none). */
void filter_set_budget(Filter *f, double seconds);
/* A flag another thread sets to cancel this filter's runs (NULL: none). */
void filter_set_cancel(Filter *f, const _Atomic bool *cancel);
int filter_nstages(const Filter *f);

/* A value expression (a number per event, e.g. "bytes / 1KiB" or
 * "dur * 2"), for metrics: one stage, no scopes; a condition or a string
 * is an error. */
Filter *filter_compile_value(const struct Store *s, const char *text, FilterError *err);
/* Its value for every event (NaN where it is absent or not a number);
 * out holds the store's n values. Returns FILTER_OK or why it stopped (as
 * filter_run). */
int filter_values(Filter *f, double *out);

/* The bytecode listing, with the source span of each instruction. */
void filter_disasm(const Filter *f, FILE *out);

/* "tnav: filter:L:C: message", then the filter's line and a caret under
 * the span. */
void filter_print_error(FILE *out, const char *text, const FilterError *e);

/* The names of the language's functions, for completion: the i-th, or
 * NULL past the last. */
const char *filter_function_name(int i);

#endif
