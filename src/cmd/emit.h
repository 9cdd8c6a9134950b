/*
 * emit.h — events written back out in canonical form (tnav filter, and
 * later exports): CSV with a header row, or NDJSON.
 *
 * Owns: the list of output fields (all of the trace's, or the ones asked
 * for with --fields).
 * Invariants: with all fields, what is written loads back into the same
 * events (times as integer nanoseconds; every field present in the trace,
 * extras included; an activity without a label and absent values left
 * empty in CSV and out of NDJSON objects); floats are written with the
 * fewest digits that read back exactly and always look like floats (2.0,
 * not 2); output is valid UTF-8 (and valid JSON for NDJSON).
 */
#ifndef TNAV_EMIT_H
#define TNAV_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "store/store.h"

typedef enum { EMIT_CSV, EMIT_NDJSON } EmitFormat;

/* what an output field is: one of the fixed ones, or a column */
enum { EC_TS, EC_DUR, EC_END, EC_LOC, EC_ACT, EC_KIND, EC_NAME, EC_COL };

typedef struct {
    int what; /* EC_* */
    int col;
    const char *name;
} EmitCol;

typedef struct {
    const Store *s;
    EmitFormat fmt;
    EmitCol *cols;
    int ncols;
} Emitter;

/* fields: NULL for every field of the trace, else a comma-separated list of
 * field names (ts dur end loc act kind name, any canonical or extra field).
 * false with a message in err for an unknown name. */
bool emitter_init(Emitter *em, const Store *s, EmitFormat fmt, const char *fields, char *err, size_t errsz);
void emitter_free(Emitter *em);
/* The header row (CSV only). */
void emit_header(FILE *f, const Emitter *em);
/* One event. */
void emit_event(FILE *f, const Emitter *em, size_t e);
/* Whether event e has a value for field c; that value as text (CSV) or a
 * JSON value (NDJSON): false, nothing written, when it has none. */
bool emit_present(const Emitter *em, const EmitCol *c, size_t e);
bool emit_value(FILE *f, const Emitter *em, const EmitCol *c, size_t e);
/* The events selected in sel (NULL: all) in time order (ts, longer first,
 * location order); *n their count. Free with xfree_big(v, (*n + 1) * 4). */
uint32_t *events_in_time_order(const Store *s, const uint64_t *sel, size_t *n);
/* The shortest decimal that reads back as d, with a '.' or exponent. */
char *fmt_double(char *buf, size_t sz, double d);

#endif
