/*
 * batch.h — a batch: the events one loader thread parsed from one chunk of
 * one file, in input order, with thread-local dictionaries.
 *
 * Owns: its columns (ts, dur, akey, name, kind), its field buffers (the
 * values of every optional canonical field and every extra field, with their
 * rows, one buffer per field), its string dictionaries (names, values,
 * labels: a string id in it is an index into the one its field uses), its (location, activity)
 * label-pair table, its extra-field names, its user kinds, its rejections
 * and, per pair, the lanes pass's sweep of its rows as they were committed.
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

/* At most this many distinct extra fields are loaded; values of further ones
 * are counted in dropped_extras. */
#define MAX_EXTRA_FIELDS (1u << 24)

/* value types of sparse values and of extra columns */
enum { VT_NONE = 0, VT_INT = 1, VT_FLT = 2, VT_STR = 3 };
/* Types of a field buffer's values only (the store never holds them):
 * VT_XSTR, a prefix+number id (below), VT_GSTR, a string id already in the
 * store's dictionary (set by the build). */
enum { VT_XSTR = 6, VT_GSTR = 7 };
#define VT_STRMASK ((1u << VT_STR) | (1u << VT_XSTR) | (1u << VT_GSTR))

/* Prefix+number ids. A value of id, tag or group such as "m123", "req-77"
 * or "finish-012" (a non-empty prefix that does not end in a digit, then 1
 * to 15 digits whose number is below 2^36) is not put in a dictionary: it
 * is the 64-bit value  prefix string id << 40 | digits << 36 | number,
 * with the digit count kept so that "m007" and "m7" stay two ids. */
enum { XID_PFX_MAX = 40 };
#define XID_NUM_BITS 36
#define XID_VAL(pfx, ndig, num) ((uint64_t)(pfx) << 40 | (uint64_t)(ndig) << XID_NUM_BITS | (uint64_t)(num))
#define XID_PFX(v) ((uint32_t)((v) >> 40))
#define XID_NDIG(v) ((unsigned)((v) >> XID_NUM_BITS) & 15u)
#define XID_NUM(v) ((v) & ((1ULL << XID_NUM_BITS) - 1))

/* Split s[0..n) into prefix (its length in *plen) and number; false when it
 * is not of that form. */
static inline bool xid_split(const char *s, size_t n, size_t *plen, unsigned *ndig, uint64_t *num)
{
    size_t d = 0;
    while (d < n && d < 16 && (unsigned)(s[n - 1 - d] - '0') <= 9) d++;
    if (d == 0 || d > 15 || d == n || n - d > XID_PFX_MAX) return false;
    uint64_t v = 0;
    for (size_t i = n - d; i < n; i++) v = v * 10 + (uint64_t)(s[i] - '0');
    if (v >> XID_NUM_BITS) return false;
    *plen = n - d;
    *ndig = (unsigned)d;
    *num = v;
    return true;
}

/* The text of a prefix+number id into buf (>= XID_PFX_MAX + 16 bytes). */
static inline size_t xid_format(char *buf, const char *pfx, size_t plen, uint64_t v)
{
    memcpy(buf, pfx, plen);
    unsigned nd = XID_NDIG(v);
    uint64_t x = XID_NUM(v);
    for (unsigned i = 0; i < nd; i++) {
        buf[plen + nd - 1 - i] = (char)('0' + x % 10);
        x /= 10;
    }
    buf[plen + nd] = 0;
    return plen + nd;
}

/* The values one batch holds for one optional or extra field, in row
 * order. A value is 8 bytes: an int64, a double, or a string id (VT_STR).
 * A field given on every row from its first one with one type, integers
 * within 2^31 of the first (a cpu number, a file, a line), is held packed:
 * 4 bytes a value in p32 (the offset from pbase, or the string id), its
 * rows implicit (value k is row prow0 + k), its type ptype; rows, vals and
 * types are then NULL but their len is the number of values. Anything
 * else unpacks it (fb_unpack). Only fields the loader's passes never
 * rewrite are packed (not peer, id, tag, group or parent); read a field's
 * values through fb_row/fb_val/fb_type. */
typedef struct {
    VEC(uint32_t) rows;
    VEC(uint64_t) vals;
    VEC(uint8_t) types;
    uint8_t tmask; /* 1 << VT_* of the types seen */
    int64_t imin, imax; /* range of the VT_INT values */
    bool packed;
    uint8_t ptype;
    uint32_t prow0;
    int64_t pbase;
    VEC(uint32_t) p32;
} FieldBuf;

static inline uint32_t fb_row(const FieldBuf *fb, size_t i)
{
    return fb->packed ? fb->prow0 + (uint32_t)i : fb->rows.v[i];
}
static inline uint64_t fb_val(const FieldBuf *fb, size_t i)
{
    if (!fb->packed) return fb->vals.v[i];
    return fb->ptype == VT_INT ? (uint64_t)(fb->pbase + (int32_t)fb->p32.v[i]) : fb->p32.v[i];
}
static inline uint8_t fb_type(const FieldBuf *fb, size_t i) { return fb->packed ? fb->ptype : fb->types.v[i]; }

typedef struct {
    uint32_t loc; /* label string id */
    uint32_t act; /* label string id or NONE32 (one activity per location) */
} LabelPair;

typedef struct {
    uint64_t line; /* line number relative to the chunk start (1-based) */
    char *reason;
} BatchReject;

/* Rejections grouped by problem: the reason without its particulars (up to
 * its first ": " or " ("): "ts is not a number or date-time", "wrong field
 * count", "missing ts". Every rejection is counted under its problem; the
 * first PROBLEM_FIRST of each keep their line and whole reason. Past
 * BATCH_PROBLEMS distinct problems, the rest count under the last one,
 * "other problems". */
#define BATCH_PROBLEMS 32
#define PROBLEM_FIRST 3
typedef struct {
    char *key;
    uint64_t count;
    int nfirst;
    BatchReject first[PROBLEM_FIRST];
} Problem;
/* the length of the problem part of a reason */
size_t problem_len(const char *reason);

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
    bool isint;   /* v is 1 to 18 decimal digits whose value is iv (see Rec.ivh) */
    Val v;
    int64_t iv;
} XVal;

/* A CSV record's canonical fields read in place: field f is
 * fp[col_of[f]] with length fl[col_of[f]] (also *fpf[f], *flf[f]); a
 * field without a column points at an entry of length 0 past the record's
 * (no test for it per field). */
typedef struct {
    const char *const *fp;
    const size_t *fl;
    int col_of[F__N];
    /* &fp[col_of[f]], &fl[col_of[f]] (csv_view_bind) */
    const char *const *fpf[F__N];
    const size_t *flf[F__N];
} CsvView;

/* Point a view at a record's fields fp/fl (col_of already set) */
static inline void csv_view_bind(CsvView *v, const char *const *fp, const size_t *fl)
{
    v->fp = fp;
    v->fl = fl;
    for (int f = 0; f < F__N; f++) {
        v->fpf[f] = &fp[v->col_of[f]];
        v->flf[f] = &fl[v->col_of[f]];
    }
}

/* One record as assembled by a parser, before conversion: the canonical
 * fields in f/has, or (CSV) through csv; the extra fields in x. A parser
 * that already read a field's number may say so in iv/ivh: bit f of ivh
 * means f[f] is 1 to 18 decimal digits and nothing else, whose value is
 * iv[f] (batch_commit then reads no digit again); rec_set clears it. */
typedef struct {
    Val f[F__N];
    uint32_t has; /* bit per canonical field */
    uint32_t emp; /* bit per canonical field whose value (in f) is empty */
    uint32_t ivh;
    int64_t iv[F__N];
    const CsvView *csv;
    VEC(XVal) x;  /* extra fields */
} Rec;

/* The last activity seen at a location (by the location's text): most
 * rows continue the activity their location ran before (a thread's
 * events, a task's on its worker), so their pair is found without a
 * lookup in rawpairs, whose table is big when activities are many. */ 
enum { LOC_CACHE = 1024, LOC_CACHE_LOC = 16, LOC_CACHE_ACT = 24, LOC_CACHE_TRIAL = 1 << 16 };
typedef struct {
    uint8_t ln, an; /* text lengths; ln 0: empty entry */
    bool has_act;
    uint32_t akey;
    uint64_t lw0, aw0; /* the first prefix words (strtab_prefix_words) of
                          loc and act (0 without one): labels of at most 8
                          bytes are compared by them alone */
    char loc[LOC_CACHE_LOC];
    char act[LOC_CACHE_ACT];
} LocCache;
_Static_assert(sizeof(LocCache) == 64, "a LocCache entry is one cache line");

/* The last two activities seen at a location whose label is a number
 * below LOC_INT_MAX in canonical decimal (a rank), by that number: when
 * rows hop between thousands of locations (LocCache's 1024 entries then
 * miss), their pair is found in this compact array, one line a row,
 * rather than in rawpairs' table (its slot and its entry, two lines that
 * miss the CPU's caches). An activity of at most 8 bytes: its bytes as
 * one word (strtab_prefix_words) and its length in an (0: empty, 0xFF:
 * no activity). The same entry keeps the number's label, for a peer. */
enum { LOC_INT_MAX = 1 << 16 };
/* The string id in strs of a prefix+number id's prefix of at most 16 bytes
 * (its prefix words and length), direct-mapped: ids and groups such as
 * "m9", "t14", "finish-10" repeat a few prefixes, which are then found
 * without hashing and looking them up in strs. */
enum { XPFX_CACHE = 64 };
typedef struct XPfx {
    uint64_t w[2];
    uint32_t n; /* 0: empty */
    uint32_t sid;
} XPfx;
typedef struct {
    uint64_t act[2];
    uint32_t akey[2];
    uint8_t an[2];
    uint32_t lsid; /* the number's label: its string id in labels + 1 (0: not yet) */
} LocInt;

/* Rows that pair up after parsing (src/load/pair.c): a begin and its end
 * become one interval, a flow's start and finish one message. A parser sets
 * Batch.cur_line before batch_commit; a row whose kind is a begin or end
 * word (Enter/Leave, begin/end, start/stop, entry/exit, B/E) becomes a
 * candidate keyed by its (loc, act, name); a parser that knows better sets
 * Batch.pend_role/pend_key for the next commit (key: a string id in pkeys). */
enum { PR_NONE, PR_BEGIN, PR_END, PR_SOFTEND /* `end`: pairs when a begin is open */, PR_FLOW_S, PR_FLOW_F,
       PR_END_KEEP /* an end of --pair: its kind is kept on the interval as outcome */ };
/* the location label of rows without loc when --lanes packs them */
#define LANES_LOC "\x01lanes"
typedef struct {
    uint32_t row;
    uint8_t role;
    uint8_t bind; /* a flow end's slice (BIND_*, src/load/flowbind.c) */
    uint32_t key; /* string id in pkeys, or NONE32: the row's (loc, act, name) */
    uint64_t line;
} PairCand;
/* the slice a flow end binds to (Chrome): none, the innermost slice of its
 * thread enclosing its time, the first slice of its thread that begins at
 * or after it, or the row's own slice (an X with flow_in / flow_out) */
enum { BIND_NONE, BIND_ENCL, BIND_NEXT, BIND_SELF };

/* A name given to a location label loc, or to activity label act at loc
 * (Chrome's process_name / thread_name metadata): text, a string id in
 * labels. The label becomes the name (src/load/pair.c, rename_labels). */
typedef struct {
    uint32_t loc, act, text;
} LabelRename;

/* A location's explicit place in the order of locations (Chrome's
 * process_sort_index): loc is a label string id. */
typedef struct {
    uint32_t loc;
    int64_t order;
} LocOrder;

/* An activity's explicit place among its location's activities (Chrome's
 * thread_sort_index): loc and act are label string ids. */
typedef struct {
    uint32_t loc, act;
    int64_t order;
} ActOrder;

/* The lanes pass's sweep (src/load/lanes.c) of one (location, activity)
 * pair's rows of this batch, done as they are committed (the rows are in
 * the cache then): the open intervals of the pair as a stack, the first
 * and last time, and whether an interval overlapped an open one without
 * nesting or a time went back (the sweep stops there). Rows of kind K_MSG
 * are not swept. When rows go from pair to pair among thousands (10,000
 * ranks in time order), each row's state misses the cache: a batch whose
 * location cache (LocCache) missed on more than half of its first
 * LOC_CACHE_TRIAL rows stops sweeping, and the lanes pass sweeps it. */
typedef struct {
    int64_t end, start;
} LaneOpen;
typedef VEC(LaneOpen) LaneOpenVec;
typedef struct {
    int64_t first_ts, last_ts;
    LaneOpenVec open;
    bool any, unordered, overlap;
} LaneSweep;

struct Batch;
/* Room for one more open interval in S's stack: its storage comes from
 * the batch's pool (blocks of 1 MiB, given back whole: thousands of
 * activities' small stacks would otherwise stay in malloc's heap). */
void lsw_grow(struct Batch *b, LaneOpenVec *o);

/* The part of a sweep step that this sweep and the lanes pass's share:
 * the intervals of o ended by ts closed; then, for an interval of
 * duration dur > 0 starting at ts (the caller pushes it), whether it
 * fails to nest in the innermost open one: the same start (*unordered:
 * sorted, longer first) or an overlap (*overlap). */
static inline void lane_sweep_close(LaneOpenVec *o, int64_t ts, int64_t dur, bool *unordered, bool *overlap)
{
    size_t k = o->len;
    while (k && o->v[k - 1].end <= ts) k--;
    o->len = k;
    if (dur > 0 && k && ts + dur > o->v[k - 1].end) {
        if (o->v[k - 1].start == ts) *unordered = true;
        else *overlap = true;
    }
}

/* one step of the sweep: the intervals ended by ts closed, then one of
 * duration dur opened (none when dur <= 0) */
static inline void lane_sweep_step(struct Batch *b, LaneSweep *S, int64_t ts, int64_t dur)
{
    lane_sweep_close(&S->open, ts, dur, &S->unordered, &S->overlap);
    if (dur <= 0) return;
    size_t k = S->open.len;
    if (UNLIKELY(k == S->open.cap)) lsw_grow(b, &S->open);
    S->open.v[k] = (LaneOpen){ts + dur, ts};
    S->open.len = k + 1;
}

/* a row (not K_MSG) of the pair swept */
static inline void lane_sweep_row(struct Batch *b, LaneSweep *S, int64_t ts, int64_t dur)
{
    if (S->unordered) return;
    if (!S->any) {
        S->any = true;
        S->first_ts = ts;
    } else if (ts < S->last_ts) {
        S->unordered = true;
        return;
    }
    S->last_ts = ts;
    lane_sweep_step(b, S, ts, dur);
}

typedef struct Batch {
    size_t n, cap;
    int64_t *ts, *dur;
    uint32_t *akey, *name;
    uint16_t *kind;
    uint32_t *pair_count; /* rows per pair */
    FieldBuf *fb;         /* by field code: F_PEER..F_VALUE, then F_EXTRA + extra id */
    size_t nfb;

    /* strings by what they are (the store keeps names first, then values,
     * then labels, so that a table over names covers names only) */
    StrTab names;  /* event names: name[] */
    StrTab strs;   /* values: file, user kinds, strings of id/tag/group, extra strings, id prefixes */
    StrTab labels; /* location and activity labels: pairs, peer, parent */
    StrTab xnames; /* extra field names; local extra id = string id here */

    LabelPair *pairs;
    uint32_t npairs, cappairs;
    uint32_t *pslots, pmask;

    /* name string id -> the string id + 1 in strs of the file of the name's
     * last row with a file (0: none): a function's rows mostly give one
     * file, which is then confirmed rather than looked up (while parsing) */
    uint32_t *file_of_name;
    size_t fon_cap;
    uint16_t *uk_of_sid; /* string id -> user kind number + 1 (0 = none) */
    size_t uk_cap;
    VEC(uint32_t) ukinds; /* user kind number -> string id */

    VEC(BatchReject) rej;
    uint64_t nrej;
    Problem *probs; /* BATCH_PROBLEMS, allocated at the first rejection */
    int nprobs;
    uint64_t nblank; /* records skipped because blank */
    uint64_t nskipped; /* records skipped because of their kind (--only-kind) */
    uint64_t ncomment; /* CSV lines skipped because they begin with '#' */
    uint64_t dropped_extras; /* extra values past the extra-field limit */

    /* caches for the hot path: raw "loc\x1Fact" bytes -> pair, so that a
     * record costs one lookup for its location and activity */
    StrTab rawpairs;
    LocCache *loc_cache; /* LOC_CACHE entries, allocated at the first row */
    uint32_t lc_rows, lc_miss; /* rows that looked in it, and missed, until LOC_CACHE_TRIAL */
    bool lc_off; /* it missed too often: not used (nor the lanes' sweep, see lsw) */
    LocInt *locint; /* by location number, locint_n of them (while parsing) */
    struct XPfx *xpfx; /* XPFX_CACHE recent prefixes of prefix+number ids (while parsing) */
    uint32_t locint_n;
    uint32_t *rawpair_akey;
    size_t rawpair_cap;
    bool pairs_sized; /* the pair tables were presized (or judged not worth it) */
    char *pkbuf;
    size_t pkcap;

    /* pairing (src/load/pair.c) */
    VEC(PairCand) cands;
    StrTab pkeys;
    uint64_t cur_line;    /* the line of the record being committed */
    uint8_t pend_role;    /* PR_* for the next commit (then cleared) */
    uint32_t pend_key;
    uint8_t pend_bind;    /* BIND_* for the next commit (then cleared) */
    uint8_t *role_of_uk;  /* user kind number -> PR_* + 1 (0 = not yet looked at) */
    uint32_t *pair_group_of_uk; /* user kind number -> --pair rule (its begin word), for the key */
    size_t role_cap;
    VEC(LabelRename) renames;
    VEC(LocOrder) loc_orders; /* explicit places of locations (sort indices) */
    VEC(ActOrder) act_orders; /* explicit places of activities in their location */
    uint32_t nlab_parsed; /* labels below this id came from parsing; the rest
                             were added by a pass (lanes, metadata names,
                             flows' peers), ordered by the store after every
                             parsed one, by their text (UINT32_MAX: all parsed) */
    uint32_t nx_parsed;   /* extra names below this id came from parsing; the
                             rest were added by a later pass ("unfinished",
                             "from_slice"), and the store orders them after
                             every parsed one, by their text */

    /* conversion options (copied from the load options) */
    int unit_exp;
    bool keep_all_rejects;
    bool lanes;              /* a row without loc goes to LANES_LOC, for the lanes pass */
    bool ts_end;             /* in a row with dur, ts is its end */
    const char *pair_words;  /* "begin=end,end;..." (LoadOpts.pair_words) */
    const char *pair_key;    /* --pair-key FIELD (LoadOpts.pair_key) or NULL */
    const char *only_kinds;  /* --only-kind K,K,... (LoadOpts.only_kinds) or NULL */
    const char *not_busy;    /* --not-busy K,K,... (LoadOpts.not_busy) or NULL: for the store */
    size_t max_rejects_kept;

    /* chunk bookkeeping, filled by the loader */
    uint64_t chunk_start, chunk_stop, nlf;
    bool tail_incomplete;
    VEC(BatchReject) loose; /* --pair ends with no open begin, kept as they are (pair.c): reported, not rejected */
    VEC(uint32_t) unfin_rows; /* rows of begins never ended (pair.c): closed at the trace's end (load.c) */
    bool has_bot;             /* Chrome: a top-level beginningOfTime after the events (clang -ftime-trace) */
    int64_t bot_ns;           /* its value, in ns since the epoch */
    /* the lanes pass's sweep by pair, as committed (see LaneSweep);
     * lsw_stale: a pass changed, removed or shifted rows since, and the
     * lanes pass sweeps the batch again */
    LaneSweep *lsw;
    size_t lsw_cap;
    bool lsw_stale;
    VEC(LaneOpen *) lsw_blocks; /* the stacks' pool */
    LaneOpen *lsw_next;
    size_t lsw_left;
    int read_errno;   /* a read of the chunk failed (errno), else 0 */
    bool file_shrank; /* the file ended before its size at open */
    int file_index;
} Batch;

void batch_init(Batch *b, int unit_exp, bool keep_all_rejects);
void batch_free(Batch *b);
/* The chunk is parsed: what only its parse used is freed. */
void batch_parse_done(Batch *b);
void batch_free_fields(Batch *b);
/* The sweep's state by pair and its stacks' pool freed (the lanes pass
 * has read them). */
void batch_free_sweep(Batch *b);
/* A packed field buffer in the general form (see FieldBuf). */
void fb_unpack(FieldBuf *fb);
/* Append the value of field at row (a later value of the same row
 * replaces it): an int64 i (VT_INT, VT_XSTR), a double f (VT_FLT) or a
 * string id s (VT_STR, VT_GSTR); rows come in increasing order. */
void batch_push_sparse(Batch *b, uint32_t row, uint32_t field, uint8_t type, int64_t i, double f, uint32_t s);
/* Make room for n more rows (an estimate; rows still grow past it). */
void batch_reserve(Batch *b, size_t n);
void batch_reject(Batch *b, uint64_t line, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* Whether a rejection of this problem rejected now would keep its whole
 * reason (among the kept rejections or its problem's first ones): a parser
 * builds a costly reason only then, so what is shown never depends on how
 * the file was cut into batches. */
bool batch_reject_shown(const Batch *b, const char *problem);

static inline void rec_reset(Rec *r)
{
    r->has = 0;
    r->emp = 0;
    r->ivh = 0;
    r->x.len = 0;
}
static inline void rec_set(Rec *r, int field, const char *p, size_t n, uint8_t t)
{
    r->f[field].p = p;
    r->f[field].n = (uint32_t)n;
    r->f[field].t = t;
    r->has |= 1u << field;
    r->emp = (r->emp & ~(1u << field)) | (uint32_t)(n == 0) << field;
    r->ivh &= ~(1u << field);
}
/* rec_set of a field not set since rec_reset (its bit in has is clear,
 * and was since rec_reset) */
static inline void rec_set_new(Rec *r, int field, const char *p, size_t n, uint8_t t)
{
    r->f[field].p = p;
    r->f[field].n = (uint32_t)n;
    r->f[field].t = t;
    r->has |= 1u << field;
    if (UNLIKELY(n == 0)) r->emp |= 1u << field;
}
/* rec_set_new of a value that is 1 to 18 decimal digits (nothing else)
 * whose value is iv */
static inline void rec_set_int(Rec *r, int field, const char *p, size_t n, int64_t iv)
{
    r->f[field].p = p;
    r->f[field].n = (uint32_t)n;
    r->f[field].t = V_NUM;
    r->has |= 1u << field;
    r->ivh |= 1u << field;
    r->iv[field] = iv;
}
void rec_add_extra(Rec *r, uint32_t xid, const char *p, size_t n, uint8_t t);
/* rec_add_extra of a JSON number that is 1 to 18 decimal digits of value iv */
void rec_add_extra_int(Rec *r, uint32_t xid, const char *p, size_t n, int64_t iv);

/* Convert and append a record. Returns true when appended; otherwise writes
 * the rejection reason into why (a short human sentence). */
bool batch_commit(Batch *b, Rec *r, char *why, size_t whysz);

/* A label's string id in labels (integers in canonical decimal), NONE32
 * when the value cannot be a label. */
uint32_t batch_label(Batch *b, const Val *v);
/* Add values for rows not yet in the field's buffer: rows[0..n) strictly
 * increasing, each with type and 8-byte value (merged into row order). */
void batch_field_merge(Batch *b, uint32_t field, const uint32_t *rows, const uint8_t *types, const uint64_t *vals, size_t n);
/* The pair (location label, activity label or NONE32): its akey. */
uint32_t batch_pair(Batch *b, uint32_t loc, uint32_t act);
/* (batch_rows.c) The rows' columns grown by half (4096 at first). */
void batch_grow_rows(Batch *b);
/* (batch_pairs.c) Once PAIRS_SIZE_AT pairs are known, the pair tables
 * sized for the rows the batch expects when pairs keep coming (at most one
 * in PAIRS_SIZE_SPAN rows so far); called once (sets pairs_sized). */
enum { PAIRS_SIZE_AT = 4096, PAIRS_SIZE_SPAN = 16 };
void batch_presize_pairs(Batch *b);
/* Remove the rows with drop[row] set (columns, field buffers, pair
 * counts); the rest keep their order. Candidates are cleared. */
void batch_compact(Batch *b, const uint8_t *drop);

/* Local extra-field id for a name (created on first use). */
uint32_t batch_extra_id(Batch *b, const char *name, size_t n);

#endif
