/*
 * actions.h — the table of actions: each has a name, its keys, what it
 * does, and how it is typed on the command line (:name ARGS); the key
 * bindings, the commands, their completion and the help all come from it.
 */
#ifndef TNAV_ACTIONS_H
#define TNAV_ACTIONS_H

#include "app.h"

#define ACTION_KEYS 4

/* what a command's argument completes to */
typedef enum {
    ARG_NONE,
    ARG_TIME,    /* a time, or a bookmark's name */
    ARG_EXPR,    /* a filter expression */
    ARG_VIEW,
    ARG_METRIC,
    ARG_REDUCER,
    ARG_COLUMN,  /* a sort column of the view shown */
    ARG_NAME,
    ARG_FILE,
    ARG_OPTION,  /* an option of :set, then its value */
    ARG_COMMAND,
} ArgKind;

typedef struct {
    const char *name;      /* also the command's name */
    int keys[ACTION_KEYS]; /* keys.h codes; 0 ends the list (none: a command only) */
    const char *help;
    int (*fn)(App *A);     /* AF_* flags; NULL: the command needs its argument */
    /* as a command: the arguments' synopsis ("TIME", "FROM TO"; in [ ]:
     * optional, without one fn runs), what they complete to, and what
     * runs with them (arg: the text after the name, trimmed; off: its
     * byte offset in the line, for the error caret) */
    const char *args;
    ArgKind arg;
    int (*cmd)(App *A, const char *arg, int off);
} Action;

extern const Action ACTIONS[]; /* ends with a NULL name */
const Action *action_for_key(int key);
const Action *action_by_name(const char *name);

/* keys the help lists beyond the table: Esc, the mouse, the prompt's
 * editing keys ({keys, what}; ends with NULL) */
extern const char *const HELP_EXTRA[][2];

#endif
