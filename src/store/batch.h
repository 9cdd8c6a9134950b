/*
 * batch.h — a batch: the events one loader thread parsed from one chunk of
 * one file, in input order, with thread-local dictionaries.
 *
 * Owns: its columns (ts, dur, akey, name, kind), its field buffers (the
 * values of every optional canonical field and every extra field, with their
 * rows, one buffer per field), its string dictionary, its (location, activity)
 * label-pair table, its extra-field names, its user kinds and its rejections.
 * Invariants: rows are numbered 0..n-1 in input order; every id in a column
 * refers to this batch's own tables (the store remaps them when it merges
 * batches); a field buffer's rows are strictly increasing; pair_count[p] is
 * the number of rows of pair p; dur is -1 for an event without a duration; a batch is written by
 * exactly one thread.
 */
#ifndef TNAV_BATCH_H
#define TNAV_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/model.h"
#include "base/strtab.h"
#include "base/util.h"

/* value types of sparse values and of extra columns */
enum { VT_NONE = 0, VT_INT = 1, VT_FLT = 2, VT_STR = 3 };

/* The values one batch holds for one optional or extra field, in row
 * order. A value is 8 bytes: an int64, a double, or a string id (VT_STR). */
typedef struct {
    VEC(uint32_t) rows;
    VEC(uint64_t) vals;
    VEC(uint8_t) types;
    uint8_t tmask; /* 1 << VT_* of the types seen */
    int64_t imin, imax; /* range of the VT_INT values */
} FieldBuf;

typedef struct {
    uint32_t loc; /* label string id */
    uint32_t act; /* label string id or NONE32 (one activity per location) */
} LabelPair;

typedef struct {
    uint64_t line; /* line number relative to the chunk start (1-based) */
    char *reason;
} BatchReject;

/* Kinds of a value as the parsers hand it over. */
enum {
    V_TEXT,  /* CSV field: untyped text */
    V_STR,   /* JSON string (already unescaped) */
    V_NUM,   /* JSON number (its text) */
    V_TRUE,
    V_FALSE,
    V_RAW    /* JSON array: its raw text */
};

typedef struct {
    const char *p;
    uint32_t n;
    uint8_t t;
} Val;

typedef struct {
    uint32_t xid; /* local extra id */
    Val v;
} XVal;

/* A CSV record's canonical fields read in place: field f is
 * fp[col_of[f]] with length fl[col_of[f]] (col_of[f] < 0: no such column). */
typedef struct {
    const char *const *fp;
    const size_t *fl;
    int col_of[F__N];
} CsvView;

/* One record as assembled by a parser, before conversion: the canonical
 * fields in f/has, or (CSV) through csv; the extra fields in x. */
typedef struct {
    Val f[F__N];
    uint32_t has; /* bit per canonical field */
    const CsvView *csv;
    VEC(XVal) x;  /* extra fields */
} Rec;

typedef struct {
    char buf[48];
    uint32_t n;
    uint32_t sid;
    bool valid;
} LabelCache;

typedef struct Batch {
    size_t n, cap;
    int64_t *ts, *dur;
    uint32_t *akey, *name;
    uint16_t *kind;
    uint32_t *pair_count; /* rows per pair */
    FieldBuf *fb;         /* by field code: F_PEER..F_VALUE, then F_EXTRA + extra id */
    size_t nfb;

    StrTab strs;
    StrTab xnames; /* extra field names; local extra id = string id here */

    LabelPair *pairs;
    uint32_t npairs, cappairs;
    uint32_t *pslots, pmask;

    uint16_t *uk_of_sid; /* string id -> user kind number + 1 (0 = none) */
    size_t uk_cap;
    VEC(uint32_t) ukinds; /* user kind number -> string id */

    VEC(BatchReject) rej;
    uint64_t nrej;
    uint64_t nblank; /* records skipped because blank */
    uint64_t dropped_extras; /* extra values past the extra-field limit */

    /* caches for the hot path: raw "loc\x1Fact" bytes -> pair, so that a
     * record costs one lookup for its location and activity */
    StrTab rawpairs;
    uint32_t *rawpair_akey;
    size_t rawpair_cap;
    char *pkbuf;
    size_t pkcap;

    /* conversion options (copied from the load options) */
    int unit_exp;
    bool keep_all_rejects;
    size_t max_rejects_kept;

    /* chunk bookkeeping, filled by the loader */
    uint64_t chunk_start, chunk_stop, nlf;
    bool tail_incomplete;
    int file_index;
} Batch;

void batch_init(Batch *b, int unit_exp, bool keep_all_rejects);
void batch_free(Batch *b);
void batch_free_fields(Batch *b);
/* Make room for n more rows (an estimate; rows still grow past it). */
void batch_reserve(Batch *b, size_t n);
void batch_reject(Batch *b, uint64_t line, const char *fmt, ...) PRINTF_LIKE(3, 4);

static inline void rec_reset(Rec *r)
{
    r->has = 0;
    r->x.len = 0;
}
static inline void rec_set(Rec *r, int field, const char *p, size_t n, uint8_t t)
{
    r->f[field].p = p;
    r->f[field].n = (uint32_t)n;
    r->f[field].t = t;
    r->has |= 1u << field;
}
void rec_add_extra(Rec *r, uint32_t xid, const char *p, size_t n, uint8_t t);

/* Convert and append a record. Returns true when appended; otherwise writes
 * the rejection reason into why (a short human sentence). */
bool batch_commit(Batch *b, Rec *r, char *why, size_t whysz);

/* Local extra-field id for a name (created on first use). */
uint32_t batch_extra_id(Batch *b, const char *name, size_t n);

#endif
