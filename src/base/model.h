/*
 * model.h — the trace model: canonical fields, event kinds, column aliases.
 *
 * Owns: the names and numbering of canonical fields and built-in kinds, and
 * the alias table that maps common column names onto canonical fields.
 * Invariants: field and kind numbers are stable within a build and index the
 * name tables below; user kinds are numbered from K_USER upward in the store.
 */
#ifndef TNAV_MODEL_H
#define TNAV_MODEL_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    F_TS,
    F_DUR,
    F_END,
    F_LOC,
    F_ACT,
    F_KIND,
    F_NAME,
    F_PEER,
    F_BYTES,
    F_ID,
    F_TAG,
    F_GROUP,
    F_PARENT,
    F_FILE,
    F_LINE,
    F_VALUE,
    F__N
} FieldId;

/* The first optional (sparse-capable) canonical field; fields before it are
 * dense columns of every event (end is derived: ts + dur). */
#define F_FIRST_OPT F_PEER
#define F_EXTRA F__N /* extra fields are numbered F_EXTRA + k */

typedef enum {
    K_STATE,
    K_SEND,
    K_RECV,
    K_MSG,
    K_SPAWN,
    K_END,
    K_MOVE,
    K_SYNC,
    K_ATOMIC,
    K_COUNTER,
    K_MARK,
    K_USER /* first user kind */
} Kind;

extern const char *const FIELD_NAMES[F__N];
extern const char *const KIND_NAMES[K_USER];

/* Canonical field for a column/key name, with its precedence (0 = the
 * canonical name itself, higher = weaker alias), or -1 when it is neither a
 * canonical name nor an alias. Case-insensitive. */
int field_for_column(const char *name, size_t n, int *prio);
/* Exact canonical field name (case-sensitive), -1 if none. */
int field_by_name(const char *name);
/* Built-in kind for a string (case-insensitive), -1 if not built in. */
int kind_from_string(const char *s, size_t n);

/* The alias table, for documentation and --help: NULL-terminated pairs. */
extern const char *const ALIASES[][2];

#endif
