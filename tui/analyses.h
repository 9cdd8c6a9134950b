/*
 * analyses.h — the interface's analyses: the tables of view 9 (profile,
 * time categories with the POP efficiencies, wait states, sync instances,
 * critical path), the critical-path overlay on the Gantt and its walk, and
 * the efficiency of the marked range on the status line.
 *
 * Owns: the results of src/analysis/ for one window and selection (the
 * same functions `tnav stats`, `waits`, `syncs` and `critpath` call, so the
 * numbers are the command line's), the tables over them (src/view/table.h),
 * the overlay's path (over the whole trace and the current filter) and
 * the range's efficiency.
 * Invariants: results are recomputed only when the window (the marked
 * range, else the visible one) or the selection changed since they were
 * computed (sel_gen counts selections); a table's rows index the results
 * it was built from and are rebuilt with them; saving writes the table
 * shown, in the order shown, through atomic_open.
 */
#ifndef TNAV_ANALYSES_H
#define TNAV_ANALYSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "view/canvas.h"

struct App;
typedef struct Analyses Analyses;

typedef enum { AT_PROFILE, AT_TIME, AT_WAITS, AT_SYNCS, AT_CRIT, AT__N } AnTab;
extern const char *const AN_TAB_NAMES[AT__N];

Analyses *analyses_new(void);
void analyses_free(Analyses *an);

/* view 9: draw the current tab (computing what is stale) */
void analyses_draw(struct App *A, Canvas *c, int w, int h);
void analyses_tab(struct App *A, int dir);   /* the next (+1) / previous (-1) tab */
void analyses_set_tab(struct App *A, AnTab t);
AnTab analyses_tab_of(const struct App *A);
void analyses_move(struct App *A, long delta); /* the cursor row */
void analyses_sort(struct App *A);           /* sort by the column under the cursor (again: the other way) */
void analyses_col(struct App *A, int d);     /* the column cursor (< and >) */
void analyses_reverse(struct App *A);        /* the sort the other way */
/* Enter on the row under the cursor: go to it (the worst instance, the
 * sync, the segment...) in the Gantt, highlighting what it involves;
 * AF_* flags */
int analyses_enter(struct App *A);
/* save the table shown as CSV (tnav-TAB.csv in the current directory, or
 * $TNAV_SAVE_DIR); says so in A->msg */
int analyses_save(struct App *A);
/* the same to path (the :save command) */
int analyses_save_to(struct App *A, const char *path);
/* the titles of the columns of the table shown (:sort completes them);
 * sort by the column titled col (numbers largest first, text A..Z; reverse:
 * the other way), false when there is none */
int analyses_columns(struct App *A, const char **out, int max);
bool analyses_sort_by(struct App *A, const char *col, bool reverse);

/* the critical-path overlay: on/off, the next / previous segment */
int analyses_path_toggle(struct App *A);
int analyses_path_step(struct App *A, int dir);
/* mark the path's cells on the Gantt just drawn into c (when on) */
void analyses_overlay(struct App *A, Canvas *c);

/* before the status line: compute the marked range's efficiency if stale;
 * then its text (empty without a range) */
void analyses_prepare_status(struct App *A);
void analyses_status(const struct App *A, char *buf, size_t sz);

#endif
