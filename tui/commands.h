/*
 * commands.h — the command line (`:`): a line parsed into a command of the
 * table of actions (actions.h) and its argument, run as the key would run
 * it; Tab completion of the command names and then of their arguments
 * (views, metrics, reducers, sort columns, options of :set and their
 * values, file paths, bookmark names, filter words); the hint under the
 * line; and the commands that only exist there (:view, :zoom, :mark,
 * :save, :set) or take an argument (:goto, :filter, :sort...).
 *
 * Owns: the parsing of a command line, its errors (A->perr, a caret under
 * the culprit, as a filter's), the candidates shown by Tab.
 * Invariants: a command runs the same code as its key; a failed command
 * leaves the state as it was and the line open with the error; names are
 * matched exactly, else by an unambiguous prefix; no curses here.
 */
#ifndef TNAV_COMMANDS_H
#define TNAV_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>

#include "app.h"

/* run a command line ("goto 1.5ms", ":view density"): AF_* flags; on an
 * error A->cmd_failed is set and A->perr says why, where (byte offsets of
 * line) */
int cmdline_run(App *A, const char *line);
/* Tab on the command line: completes the word before the cursor; several
 * candidates are listed in A->cmd_hint. True when the line changed. */
bool cmdline_complete(App *A);
/* the line under the command line: the synopsis and description of the
 * command typed, or how to use the line */
void cmdline_hint(App *A, char *buf, size_t sz);
/* the candidates of an argument kind (actions.h ArgKind) for arg number
 * argi of command a that start with prefix; they stay valid until the next
 * call */
int cmdline_candidates(App *A, int kind, int argi, const char *opt, const char *prefix, const char **out, int max);

/* bookmark the cursor's time: under name (NULL or "": the next free
 * letter, unnamed); a name already used moves that bookmark. The letter. */
int bookmark_set(App *A, const char *name);

/* the commands with an argument (the table's cmd) */
int c_help(App *A, const char *arg, int off);
int c_goto(App *A, const char *arg, int off);
int c_zoom(App *A, const char *arg, int off);
int c_filter(App *A, const char *arg, int off);
int c_highlight(App *A, const char *arg, int off);
int c_view(App *A, const char *arg, int off);
int c_metric(App *A, const char *arg, int off);
int c_reducer(App *A, const char *arg, int off);
int c_sort(App *A, const char *arg, int off);
int c_mark(App *A, const char *arg, int off);
int c_save(App *A, const char *arg, int off);
int c_set(App *A, const char *arg, int off);

/* the names :view takes, by ViewId */
extern const char *const VIEW_CMD_NAMES[V__N];

#endif
