/*
 * session.h — the saved sessions: per trace, where the user was (the view,
 * the window, the cursor, the filter, the highlight, the bookmarks and
 * their names, the range marks), saved when the interface quits and
 * restored when the same trace is opened again (unless --no-session).
 *
 * A trace is known by the canonical paths of its files; the sizes and
 * modification times of the files tell whether it is the same version.
 * The file, $XDG_STATE_HOME/tnav/sessions (~/.local/state/tnav/sessions),
 * holds an entry per trace:
 *
 *   tnav-sessions 1
 *   trace<TAB>PATH[<TAB>PATH...]
 *   stamp SIZE:MTIME_NS [SIZE:MTIME_NS...]
 *   saved UNIX_SECONDS
 *   view NAME | window T0 T1 | cursor T ROW | filter TEXT | highlight TEXT
 *   bookmark LETTER T [NAME] | range a|b T        (times in ns, absolute)
 *   end
 *
 * Owns: the file's format, its reading, and its writing under a lock.
 * Invariants: the file is written whole through a temp file renamed into
 * place, under PATH.lock, after reading it again, so that sessions of other
 * traces saved meanwhile are kept (only this trace's entry is replaced;
 * the newest SESSIONS_KEEP entries are kept); a corrupt file or entry, or
 * an entry of an older version of the trace, is ignored with a one-line
 * note and never restored in part.
 */
#ifndef TNAV_SESSION_H
#define TNAV_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app.h"

#define SESSIONS_KEEP 200

typedef struct {
    char *paths, *stamp; /* the key: the paths' line, and their sizes and times */
    int64_t saved;
    char *body;          /* the lines between stamp/saved and end */
    int order;           /* (its place in the file: equal times keep it) */
} SessEntry;

typedef struct {
    SessEntry *e;
    int n, cap;
} SessFile;

/* Read the file (a missing one is empty). False when it is corrupt, with
 * the note saying where; F then holds the entries read before that. */
bool sessfile_read(const char *path, SessFile *F, char *note, size_t nsz);
void sessfile_free(SessFile *F);
/* Put one trace's entry into the file: lock, read again, replace or add,
 * keep the newest SESSIONS_KEEP, write atomically. False with errno. */
bool sessfile_put(const char *path, const char *paths, const char *stamp, const char *body);

/* The key of a trace's files (tab-separated canonical paths; their sizes
 * and times); false when they have none (standard input, a path with a
 * tab or newline, a file that cannot be read). */
bool session_key(char **files, int nfiles, char **paths, char **stamp);

/* The interface's state as an entry's body, and back: false (and nothing
 * changed) when a line is not valid, with the note saying which. keep_view:
 * the view was chosen on the command line (--view); a filter given with
 * -f is kept too. */
char *session_body(const App *A);
bool session_apply(App *A, const char *body, bool keep_view, char *note, size_t nsz);

/* At start: the trace's key (A->sess_*), and its saved state restored
 * when there is one (restore false: --no-session, nothing read nor saved).
 * A note for the status line in A->msg. */
void session_restore(App *A, bool restore, bool keep_view);
/* At quit: this trace's entry written (when it has a key). False with
 * errno; *file: the sessions file (for the message). */
bool session_save(App *A, char **file);

#endif
