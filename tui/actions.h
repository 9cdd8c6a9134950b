/*
 * actions.h — the table of actions: each has a name, its keys and what it
 * does; the key bindings and the help screen both come from it.
 */
#ifndef TNAV_ACTIONS_H
#define TNAV_ACTIONS_H

#include "app.h"

#define ACTION_KEYS 4

typedef struct {
    const char *name;
    int keys[ACTION_KEYS]; /* keys.h codes; 0 ends the list */
    const char *help;
    int (*fn)(App *A);     /* AF_* flags */
} Action;

extern const Action ACTIONS[]; /* ends with a NULL name */
const Action *action_for_key(int key);

#endif
