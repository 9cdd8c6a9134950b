/*
 * prompt.h — the line editor of the prompts (filter, highlight, go to, the
 * command line): editing like a shell
 * line, a history walked with Up/Down, and Tab completion of field and
 * function names.
 *
 * Owns: the line (UTF-8), the cursor, the history entries.
 * Invariants: the line is always valid UTF-8 and the cursor sits on a
 * character boundary; walking the history never loses the line being
 * edited (it comes back below the newest entry); no curses here.
 */
#ifndef TNAV_PROMPT_H
#define TNAV_PROMPT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *buf;
    size_t len, cap;
    size_t cur;        /* byte offset of the cursor */
    /* history, oldest first */
    char **hist;
    int nhist, caphist;
    int hpos;          /* nhist: the line being edited */
    int nsynced;       /* hist[0 .. nsynced) are in the history file (loaded or saved) */
    char *saved;       /* the line being edited while walking the history */
} Prompt;

void prompt_init(Prompt *p);
void prompt_free(Prompt *p);
void prompt_set(Prompt *p, const char *text);
void prompt_clear(Prompt *p);
/* Edit with a key (keys.h). Returns true when the line or cursor changed.
 * Tab asks complete() for the candidates of the word before the cursor
 * (may be NULL). */
typedef int (*CompleteFn)(void *ctx, const char *prefix, const char **out, int max);
bool prompt_key(Prompt *p, int key, CompleteFn complete, void *ctx);
/* Complete the word that starts at byte a and ends at the cursor from the
 * k candidates (each starting with that word): up to their longest common
 * prefix; space: after a single candidate, a blank (not after a '/' or a
 * '('). Returns the bytes inserted. */
size_t prompt_complete_with(Prompt *p, size_t a, const char *const *cand, int k, bool space);
/* where the identifier before the cursor starts (letters, digits, _ .) */
size_t prompt_word_start(const Prompt *p);
/* Add a line to the history (not twice in a row, not empty). */
void prompt_history_add(Prompt *p, const char *line);
/* The history file: load (one entry per line); save: under a lock on
 * PATH.lock, the file read again, this prompt's entries added since it
 * last loaded or saved appended to what other sessions saved meanwhile,
 * the last `keep` entries written atomically (a temp file renamed into
 * place), and the prompt's history becomes that merged list. Return false
 * with errno on failure. */
bool prompt_history_load(Prompt *p, const char *path);
bool prompt_history_save(Prompt *p, const char *path, int keep);
/* $XDG_STATE_HOME/tnav/history, or ~/.local/state/tnav/history; the
 * directory is created. NULL when there is no home. */
char *history_path(void);
/* $XDG_STATE_HOME/tnav/NAME (the command history, the sessions) */
char *state_path(const char *name);

#endif
