/*
 * store.h — the columnar trace store: what every view, filter and analysis
 * reads. Built once from the loader's batches, then read-only.
 *
 * Owns: the event columns (struct of arrays), the string dictionary, the
 * location, activity, message and sync-group tables, the optional and extra
 * field columns, and the indexes over them.
 *
 * Invariants (checked by store_check(), which the tests run):
 *  - Events are numbered 0..n-1 in (location, ts, longer dur first, input
 *    order) order: the events of location l are exactly
 *    [locs[l].first, locs[l].first + locs[l].count), sorted by start time.
 *    This order does not depend on the number of loader threads.
 *  - ts/dur are int64 ns; dur >= 0; dur is 0 and EVF_DUR clear for an event
 *    without a duration (instant); end = ts + dur never overflows.
 *  - loc[e] < nloc; act[e] < nact; kind[e] < K_USER + nukind; name[e] is a
 *    string id below nnames or NONE32.
 *  - Locations are ordered: those given an order (Chrome's sort indices) by
 *    it, then integer labels numerically, then other labels in natural
 *    order. A location may have no events (only named as a peer).
 *  - An activity is an act label at a location; a move of activity A from L
 *    to P makes "A at P" the same activity (so an activity can visit several
 *    locations); events without act form one activity per location. Its
 *    events are act_ev[act_off[a] .. act_off[a+1]), sorted by (ts, longer
 *    dur first, event number).
 *  - depth[e] is the number of intervals of the same activity (msg records
 *    excluded) that contain e's start, i.e. the nesting level.
 *  - A column's values are of its type (a VT_MIXED column's values each of
 *    VT_INT, VT_FLT or VT_STR); a sparse column's rows are strictly
 *    increasing.
 *  - Messages: one per send (matched or not), per msg record, and per
 *    unmatched recv that names its source. ev_msg maps a send/recv/msg event
 *    to its message and is sorted by event.
 *  - Sync groups: one per distinct group value; its events (group_ev) are
 *    sorted by ts; last_ev is the participant that arrived last.
 *  - Messages and sync groups may be left for later (store_build's
 *    defer_tail): while tail_pending, there are none (nmsg, nev_msg,
 *    ngroups and nev_group are 0) and everything else holds;
 *    store_finish_tail builds them, as store_build would have.
 *  - Equal texts have equal string ids (a prefix+number id is never also in
 *    strs); xids is sorted and distinct.
 *
 * Layout: flat arrays addressed by indexes (events, locations, activities,
 * messages, groups, string ids, offsets into act_ev / moves / group_ev);
 * no record points at another record. What is still a pointer, for a later
 * cache file to replace by offsets: each array's base in Store, a Column's
 * name, rows, v, bits and vtype, and the StrTab's own arrays and blocks.
 */
#ifndef TNAV_STORE_H
#define TNAV_STORE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "batch.h"
#include "base/model.h"
#include "base/strtab.h"

enum { EVF_DUR = 1 };
enum { VT_LOC = 4, VT_MIXED = 5 }; /* columns of location indexes (peer); of mixed values */

typedef struct {
    uint32_t label; /* string id */
    bool is_int;
    int64_t ival;
    bool has_order; /* an explicit place (Chrome's process_sort_index): such
                     * locations come first, by order, then the rest */
    int64_t order;
    uint32_t first, count; /* its events */
} Location;

typedef struct {
    uint32_t label;  /* act label string id, NONE32 = the location's default activity */
    uint32_t home;   /* location of its first event */
    int64_t first_ts, last_end;
    uint32_t nev;
    uint32_t parent;   /* activity, or NONE32 */
    uint32_t spawn_ev; /* the spawn event that created it, or NONE32 */
    uint32_t end_ev;   /* its last `end` event, or NONE32 */
    uint32_t moves_off, nmoves; /* its move events: moves[moves_off ..] by ts */
    uint32_t nlocs;    /* distinct locations it has events at */
    uint32_t parent_label; /* raw parent label when unresolved, else NONE32 */
} Activity;

typedef struct {
    uint32_t send_ev, recv_ev; /* NONE32 when unknown; both = the event for msg */
    uint32_t src, dst;         /* locations; NONE32 when unknown */
} Message; /* times and size are read from its events: msg_t_send() etc. */

typedef struct {
    uint8_t type;   /* VT_INT, VT_FLT (ival holds the double's bits) or VT_STR */
    int64_t ival;
    uint32_t sid;
    uint32_t ev_off, nev; /* group_ev[ev_off ..]: its events by ts */
    uint32_t nparts;      /* distinct activities among them */
    uint32_t nlocs;       /* distinct locations among them */
    uint32_t last_ev;     /* the last to arrive (latest start) */
    int64_t first_ts, last_arrival, end;
    int64_t wait_ns;      /* summed duration of its sync events */
} SyncGroup;

typedef struct {
    char *name;
    int field;    /* F_PEER..F_VALUE, or F_EXTRA for an extra field */
    uint8_t type; /* VT_INT, VT_FLT, VT_STR, VT_LOC, or VT_MIXED (strings and
                   * numbers: each value keeps its own type, in vtype) */
    uint8_t width; /* VT_INT: bytes per value (1, 2, 4 or 8); value = base + stored;
                    * VT_STR, VT_LOC: 2 (v.u16) or 4 (v.s) */
    int64_t base;
    bool sparse;
    size_t npresent;
    uint32_t *rows; /* sparse: event numbers, increasing */
    union {
        int64_t *i;
        double *f;
        uint32_t *s; /* VT_STR: string id; VT_LOC: location (width 4; else u16) */
        uint8_t *u8;
        uint16_t *u16;
        uint32_t *u32;
        void *p;
    } v;            /* dense: n values; sparse: npresent values */
    uint64_t *bits; /* dense: presence bitmap; NULL when every event has a value */
    uint8_t *vtype; /* VT_MIXED: the type of each slot (VT_INT, VT_FLT or VT_STR) */
    bool xids;      /* some of its string ids are prefix+number ids (>= SID_XID) */
    uint32_t rows_of; /* sparse: the column that owns rows (the same events:
                       * peer, bytes, id, tag of messages), itself when it does */
} Column;

typedef struct {
    uint32_t ev, idx;
} EvIdx;

typedef struct Store {
    size_t n;
    int64_t *ts, *dur;
    uint32_t *loc, *act, *name;
    uint16_t *kind, *depth;
    uint8_t *flags;

    StrTab strs;
    /* strs holds the names first, then the other strings of values, then
     * the labels of locations and activities: every name[] is below nnames,
     * every string id of a column other than parent is below nvals (in a
     * column with prefix+number ids: such an id, or any string id) — a
     * table over the names covers names only */
    uint32_t nnames, nvals;
    /* prefix+number ids (XID_VAL in batch.h) of id, tag and group values,
     * sorted and distinct: string id SID_XID + i is xids[i] (its text is
     * the prefix's string followed by the number). A text held in strs is
     * never also here, so equal texts always have equal string ids. */
    uint64_t *xids;
    uint32_t nxid;

    Location *locs;
    uint32_t nloc;

    Activity *acts;
    uint32_t nact;
    uint32_t *act_off; /* nact + 1 */
    uint32_t *act_ev;  /* n */
    uint32_t *moves;
    uint32_t nmoves;

    uint32_t *ukind; /* user kind k (K_USER + k) -> string id */
    uint32_t nukind;
    uint8_t *ukind_idle; /* user kind k is named "idle" (any case) or by
                          * --not-busy: its intervals are not busy */
    bool state_not_busy; /* --not-busy state: state intervals are not busy */

    Column *cols;
    uint32_t ncols;
    int col_of_field[F__N]; /* column index of a canonical optional field, or -1 */

    Message *msgs;
    uint32_t nmsg;
    EvIdx *ev_msg;
    uint32_t nev_msg;
    uint64_t unmatched_send, unmatched_recv;

    SyncGroup *groups;
    uint32_t ngroups;
    uint32_t *group_ev;
    EvIdx *ev_group; /* sorted by event */
    uint32_t nev_group;

    int64_t t_min, t_max; /* earliest start, latest end; 0/0 when empty */
    uint16_t max_depth;
    double t_build;
    bool tail_pending; /* messages and sync groups not built yet (store_finish_tail) */
} Store;

/* Build a store from parsed batches (consumed and freed). keep_pages: the
 * touched pages the build no longer needs are not given back to the
 * system on the way, and what is left of them at the end is kept for the
 * process's next big arrays (pages_keep), until taken or dropped
 * (big_cache_trim): fewer fresh pages for the build's last steps and the
 * caller's next arrays (the interface's first summary), for a higher peak
 * in the build's last steps. */
Store *store_build(Batch **batches, size_t nbatches, int threads, bool keep_pages, bool defer_tail);
/* defer_tail: messages (step 8) and sync groups (step 9) are not built;
 * the store says so (tail_pending) until store_finish_tail builds them.
 * The interface draws its first frame, which needs neither, before them.
 * store_finish_tail: nothing if they are built already; else both, on
 * two threads when threads > 1 (0: all cores). Not thread-safe against
 * readers of the store's messages or groups (there are none before it). */
void store_finish_tail(Store *s, int threads);
Store *store_empty(void);
void store_free(Store *s);

/* Verify the invariants above; returns NULL or a description of the first
 * violation (static storage). */
const char *store_check(const Store *s);

static inline int64_t ev_end(const Store *s, size_t e) { return s->ts[e] + s->dur[e]; }

/* The event order within a location or activity: by start, longer first,
 * then by event number. */
static inline bool ev_before_raw(const int64_t *ts, const int64_t *dur, uint32_t a, uint32_t b)
{
    if (ts[a] != ts[b]) return ts[a] < ts[b];
    if (dur[a] != dur[b]) return dur[a] > dur[b];
    return a < b;
}
/* Sort event numbers v[0..m) into that order (stable merge sort; tmp holds m). */
void sort_events(uint32_t *v, uint32_t *tmp, size_t m, const int64_t *ts, const int64_t *dur);
bool events_sorted(const uint32_t *v, size_t m, const int64_t *ts, const int64_t *dur);
/* The order of locations: integer labels numerically, then natural order. */
int store_loc_cmp(const Store *s, const uint32_t *a, const uint32_t *b);

/* The integer at a slot of a VT_INT column. */
static inline int64_t col_int_at(const Column *c, size_t k)
{
    switch (c->width) {
    case 1: return c->base + (int64_t)c->v.u8[k];
    case 2: return c->base + (int64_t)c->v.u16[k];
    case 4: return c->base + (int64_t)c->v.u32[k];
    default: return c->v.i[k];
    }
}

/* The string id or location at a slot of a VT_STR or VT_LOC column. */
static inline uint32_t col_sid_at(const Column *c, size_t k) { return c->width == 2 ? c->v.u16[k] : c->v.s[k]; }

static inline uint8_t col_slot_value(const Column *c, size_t k, uint64_t *payload)
{
    switch (c->type) {
    case VT_STR:
    case VT_LOC: *payload = col_sid_at(c, k); return c->type;
    case VT_INT: *payload = (uint64_t)col_int_at(c, k); return VT_INT;
    case VT_MIXED: *payload = (uint64_t)c->v.i[k]; return c->vtype[k];
    default: *payload = (uint64_t)c->v.i[k]; return c->type;
    }
}

/* A message's send time, arrival (end of its receive or msg record) and
 * size; INT64_MIN / -1 when unknown. */
int64_t msg_t_send(const Store *s, const Message *m);
int64_t msg_t_recv(const Store *s, const Message *m);
int64_t msg_bytes(const Store *s, const Message *m);

/* A cursor over a column for increasing event numbers: amortised O(1) for
 * sparse columns. */
typedef struct {
    const Column *c;
    size_t k;
} ColCur;
static inline bool colcur_slot(ColCur *cc, size_t e, size_t *slot)
{
    const Column *c = cc->c;
    if (!c) return false;
    if (!c->sparse) {
        if (c->bits && !((c->bits[e >> 6] >> (e & 63)) & 1)) return false;
        *slot = e;
        return true;
    }
    while (cc->k < c->npresent && c->rows[cc->k] < e) cc->k++;
    if (cc->k < c->npresent && c->rows[cc->k] == e) {
        *slot = cc->k;
        return true;
    }
    return false;
}
/* String ids: below SID_XID an index into strs; from SID_XID on, a
 * prefix+number id (xids); NONE32 is none. */
#define SID_XID 0x40000000u
static inline bool sid_is_xid(uint32_t sid) { return sid != NONE32 && sid >= SID_XID; }
/* The text of a string id; "" for NONE32. The text of a prefix+number id
 * is formatted into one of 16 per-thread buffers: it stays valid for the
 * next 15 calls of the same thread. */
const char *store_str(const Store *s, uint32_t sid);
const char *store_strn(const Store *s, uint32_t sid, size_t *len);
/* The string id of a text, NONE32 when the store does not hold it. */
uint32_t store_find_str(const Store *s, const char *p, size_t n);
const char *kind_name(const Store *s, uint16_t kind);
const char *loc_label(const Store *s, uint32_t loc);
/* "label" or "label@loc" when the label alone is ambiguous; buf >= 128 */
const char *act_label(const Store *s, uint32_t act, char *buf, size_t bufsz);

/* Column access. */
const Column *store_column(const Store *s, const char *name);
/* The column of a canonical optional field (F_PEER..F_VALUE), or NULL. */
const Column *store_canon_col(const Store *s, int field);
bool col_has(const Column *c, size_t e);
/* The value of column c at event e as col_slot_value gives it; false when
 * absent. */
bool col_value(const Column *c, size_t e, uint8_t *type, uint64_t *payload);
/* Value of column c at event e; false when absent. */
bool col_get_i(const Column *c, size_t e, int64_t *out);
bool col_get_f(const Column *c, size_t e, double *out);
bool col_get_s(const Column *c, size_t e, uint32_t *out);
/* Field value as a number (ints, floats) — false when absent or a string. */
bool col_get_num(const Column *c, size_t e, double *out);
/* The type (VT_INT, VT_FLT, VT_STR, VT_LOC) and raw 8 bytes of the value at
 * a slot: an int64, a double's bits, or a string / location id. */
static inline uint8_t col_slot_value(const Column *c, size_t k, uint64_t *payload);

/* The summary of sync group G (first_ts, last_arrival, end, last_ev,
 * wait_ns, nparts, nlocs; nev counts the events used) over its events, or
 * only those selected in sel (NULL: all). stamp is unique per call on the
 * same mark arrays (nact and nloc entries, initially NONE32). out may be G. */
void group_summarize(const Store *s, const SyncGroup *G, const uint64_t *sel, uint32_t stamp, uint32_t *mark_act,
                     uint32_t *mark_loc, SyncGroup *out);

/* Message of a send/recv/msg event, or NONE32. */
uint32_t store_msg_of(const Store *s, uint32_t ev);
/* Sync group of an event carrying `group`, or NONE32. */
uint32_t store_group_of(const Store *s, uint32_t ev);

/* Resident bytes of the store, split into everything but the dictionary
 * (every column, table and index, the column descriptors included) and the
 * string dictionary (strs and xids). */
void store_mem(const Store *s, size_t *per_event_bytes, size_t *dict_bytes);

/* whether an interval of kind k is work (busy): state, and any user kind
 * but "idle" and those --not-busy names */
static inline bool kind_is_busy(const Store *s, uint16_t k)
{
    return (k == K_STATE && !s->state_not_busy) || (k >= K_USER && !s->ukind_idle[k - K_USER]);
}

#endif
