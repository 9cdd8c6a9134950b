/*
 * store.c — reading the store: column access, labels, lookups, memory
 * accounting and the invariant check (store_check). The build is in
 * store_build.c. See store.h for the invariants.
 */
#include "store.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"

bool events_sorted(const uint32_t *v, size_t m, const int64_t *ts, const int64_t *dur)
{
    for (size_t i = 1; i < m; i++)
        if (ev_before_raw(ts, dur, v[i], v[i - 1])) return false;
    return true;
}

/* stable bottom-up merge sort of event numbers by (ts, -dur, number) */
/* An event's sort key, read once: a merge sort of these reads them in
 * order, where one of event numbers reads ts and dur at random on every
 * comparison (a cache miss each, in a large trace). */
typedef struct {
    int64_t ts, dur;
    uint32_t e, pad;
} EvKey;

static inline bool evkey_before(const EvKey *a, const EvKey *b)
{
    if (a->ts != b->ts) return a->ts < b->ts;
    if (a->dur != b->dur) return a->dur > b->dur;
    return a->e < b->e;
}

/* Sort v[0..m) (m <= SORT_BLOCK) by keys: insertion-sorted runs of 16,
 * then merged. k and kt hold m keys each. */
static void sort_block_keys(uint32_t *v, size_t m, const int64_t *ts, const int64_t *dur, EvKey *k, EvKey *kt)
{
    for (size_t i = 0; i < m; i++) k[i] = (EvKey){ts[v[i]], dur[v[i]], v[i], 0};
    const size_t R = 16;
    for (size_t a = 0; a < m; a += R) {
        size_t b = a + R < m ? a + R : m;
        for (size_t i = a + 1; i < b; i++) {
            EvKey x = k[i];
            size_t j = i;
            while (j > a && evkey_before(&x, &k[j - 1])) {
                k[j] = k[j - 1];
                j--;
            }
            k[j] = x;
        }
    }
    EvKey *src = k, *dst = kt;
    for (size_t w = R; w < m; w *= 2) {
        for (size_t a = 0; a < m; a += 2 * w) {
            size_t mid = a + w < m ? a + w : m, b = a + 2 * w < m ? a + 2 * w : m;
            size_t i = a, j = mid, o = a;
            if (mid >= b || !evkey_before(&src[mid], &src[mid - 1])) {
                memcpy(dst + a, src + a, (b - a) * sizeof(EvKey));
                continue;
            }
            while (i < mid && j < b) dst[o++] = evkey_before(&src[j], &src[i]) ? src[j++] : src[i++];
            while (i < mid) dst[o++] = src[i++];
            while (j < b) dst[o++] = src[j++];
        }
        EvKey *t = src;
        src = dst;
        dst = t;
    }
    for (size_t i = 0; i < m; i++) v[i] = src[i].e;
}

void sort_events(uint32_t *v, uint32_t *tmp, size_t m, const int64_t *ts, const int64_t *dur)
{
    if (m < 2) return;
    /* blocks of up to SORT_BLOCK events sorted by their keys (48 bytes an
     * event of scratch, at most 3 MiB), then the blocks merged through the
     * event numbers; the order is total (ties by event number), so the
     * result is the one sort */
    const size_t SORT_BLOCK = (size_t)1 << 16;
    size_t kb = m < SORT_BLOCK ? m : SORT_BLOCK;
    EvKey *k = xmalloc(2 * kb * sizeof(EvKey));
    for (size_t a = 0; a < m; a += SORT_BLOCK) sort_block_keys(v + a, m - a < SORT_BLOCK ? m - a : SORT_BLOCK, ts, dur, k, k + kb);
    free(k);
    uint32_t *src = v, *dst = tmp;
    for (size_t w = SORT_BLOCK; w < m; w *= 2) {
        for (size_t a = 0; a < m; a += 2 * w) {
            size_t mid = a + w < m ? a + w : m, b = a + 2 * w < m ? a + 2 * w : m;
            size_t i = a, j = mid, o = a;
            if (mid >= b || !ev_before_raw(ts, dur, src[mid], src[mid - 1])) {
                memcpy(dst + a, src + a, (b - a) * sizeof(uint32_t));
                continue;
            }
            while (i < mid && j < b) dst[o++] = ev_before_raw(ts, dur, src[j], src[i]) ? src[j++] : src[i++];
            while (i < mid) dst[o++] = src[i++];
            while (j < b) dst[o++] = src[j++];
        }
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != v) memcpy(v, src, m * sizeof(uint32_t));
}

int store_loc_cmp(const Store *s, const uint32_t *a, const uint32_t *b)
{
    const Location *x = &s->locs[*a], *y = &s->locs[*b];
    if (x->has_order != y->has_order) return x->has_order ? -1 : 1;
    if (x->has_order && x->order != y->order) return x->order < y->order ? -1 : 1;
    if (x->is_int != y->is_int) return x->is_int ? -1 : 1;
    if (x->is_int) return x->ival < y->ival ? -1 : x->ival > y->ival;
    const char *p = strtab_str(&s->strs, x->label), *q = strtab_str(&s->strs, y->label);
    int c = natural_cmp(p, q);
    if (c) return c;
    /* then bytewise, by length: a label may hold a NUL ("a0" < "a0\0") */
    size_t lp = strtab_len(&s->strs, x->label), lq = strtab_len(&s->strs, y->label);
    c = memcmp(p, q, lp < lq ? lp : lq);
    return c ? c : lp < lq ? -1 : lp > lq;
}

/* ------------------------------------------------------------------ */
/* column access                                                      */

bool col_has(const Column *c, size_t e)
{
    if (!c) return false;
    if (!c->sparse) return !c->bits || ((c->bits[e >> 6] >> (e & 63)) & 1);
    size_t lo = 0, hi = c->npresent;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->rows[mid] < e) lo = mid + 1;
        else hi = mid;
    }
    return lo < c->npresent && c->rows[lo] == e;
}

static bool col_slot(const Column *c, size_t e, size_t *slot)
{
    if (!c) return false;
    if (!c->sparse) {
        if (c->bits && !((c->bits[e >> 6] >> (e & 63)) & 1)) return false;
        *slot = e;
        return true;
    }
    size_t lo = 0, hi = c->npresent;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->rows[mid] < e) lo = mid + 1;
        else hi = mid;
    }
    if (lo < c->npresent && c->rows[lo] == e) {
        *slot = lo;
        return true;
    }
    return false;
}

bool col_value(const Column *c, size_t e, uint8_t *type, uint64_t *payload)
{
    size_t k;
    if (!col_slot(c, e, &k)) return false;
    *type = col_slot_value(c, k, payload);
    return true;
}

bool col_get_i(const Column *c, size_t e, int64_t *out)
{
    size_t k;
    if (!c || (c->type != VT_INT && c->type != VT_MIXED) || !col_slot(c, e, &k)) return false;
    if (c->type == VT_MIXED) {
        if (c->vtype[k] != VT_INT) return false;
        *out = c->v.i[k];
        return true;
    }
    *out = col_int_at(c, k);
    return true;
}

bool col_get_f(const Column *c, size_t e, double *out)
{
    size_t k;
    if (!c || (c->type != VT_FLT && c->type != VT_MIXED) || !col_slot(c, e, &k)) return false;
    if (c->type == VT_MIXED && c->vtype[k] != VT_FLT) return false;
    *out = c->v.f[k];
    return true;
}

bool col_get_s(const Column *c, size_t e, uint32_t *out)
{
    size_t k;
    if (!c || (c->type != VT_STR && c->type != VT_LOC && c->type != VT_MIXED) || !col_slot(c, e, &k)) return false;
    if (c->type == VT_MIXED) {
        if (c->vtype[k] != VT_STR) return false;
        *out = (uint32_t)c->v.i[k];
        return true;
    }
    *out = col_sid_at(c, k);
    return true;
}

bool col_get_num(const Column *c, size_t e, double *out)
{
    size_t k;
    if (!c || !col_slot(c, e, &k)) return false;
    uint64_t p;
    uint8_t t = col_slot_value(c, k, &p);
    if (t == VT_INT) *out = (double)(int64_t)p;
    else if (t == VT_FLT) memcpy(out, &p, 8);
    else return false;
    return true;
}

const Column *store_column(const Store *s, const char *name)
{
    for (uint32_t i = 0; i < s->ncols; i++)
        if (!strcmp(s->cols[i].name, name)) return &s->cols[i];
    return NULL;
}

const Column *store_canon_col(const Store *s, int f)
{
    int c = s->col_of_field[f];
    return c >= 0 ? &s->cols[c] : NULL;
}

const char *store_strn(const Store *s, uint32_t sid, size_t *len)
{
    if (sid == NONE32) {
        *len = 0;
        return "";
    }
    if (sid < SID_XID) {
        *len = strtab_len(&s->strs, sid);
        return strtab_str(&s->strs, sid);
    }
    static _Thread_local char ring[16][XID_PFX_MAX + 24];
    static _Thread_local unsigned next;
    char *buf = ring[next++ & 15];
    uint64_t v = s->xids[sid - SID_XID];
    uint32_t p = XID_PFX(v);
    *len = xid_format(buf, strtab_str(&s->strs, p), strtab_len(&s->strs, p), v);
    return buf;
}

const char *store_str(const Store *s, uint32_t sid)
{
    size_t len;
    return store_strn(s, sid, &len);
}

uint32_t store_find_str(const Store *s, const char *p, size_t n)
{
    uint32_t id = strtab_find(&s->strs, p, n);
    if (id != NONE32 || !s->nxid) return id;
    size_t pl;
    unsigned nd;
    uint64_t num;
    if (!xid_split(p, n, &pl, &nd, &num)) return NONE32;
    uint32_t ps = strtab_find(&s->strs, p, pl);
    if (ps == NONE32 || ps >= (1u << 24)) return NONE32;
    uint64_t v = XID_VAL(ps, nd, num);
    size_t lo = 0, hi = s->nxid;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->xids[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->nxid && s->xids[lo] == v ? SID_XID + (uint32_t)lo : NONE32;
}

const char *kind_name(const Store *s, uint16_t kind)
{
    if (kind < K_USER) return KIND_NAMES[kind];
    uint32_t k = (uint32_t)kind - K_USER;
    return k < s->nukind ? strtab_str(&s->strs, s->ukind[k]) : "?";
}

const char *loc_label(const Store *s, uint32_t loc)
{
    return loc < s->nloc ? strtab_str(&s->strs, s->locs[loc].label) : "?";
}

const char *act_label(const Store *s, uint32_t a, char *buf, size_t bufsz)
{
    if (a >= s->nact) return "?";
    const Activity *A = &s->acts[a];
    if (A->label == NONE32) {
        snprintf(buf, bufsz, "@%s", loc_label(s, A->home));
        return buf;
    }
    /* unique among activities? (labels of one class are shared only when an
     * equal label lives, unconnected, at another location) */
    bool dup = (a > 0 && s->acts[a - 1].label == A->label) || (a + 1 < s->nact && s->acts[a + 1].label == A->label);
    if (!dup) {
        for (uint32_t b = 0; b < s->nact && !dup; b++)
            if (b != a && s->acts[b].label == A->label) dup = true;
    }
    if (dup) snprintf(buf, bufsz, "%s@%s", store_str(s, A->label), loc_label(s, A->home));
    else snprintf(buf, bufsz, "%s", store_str(s, A->label));
    return buf;
}

static uint32_t evidx_find(const EvIdx *v, uint32_t n, uint32_t ev)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (v[mid].ev < ev) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && v[lo].ev == ev ? v[lo].idx : NONE32;
}

int64_t msg_t_send(const Store *s, const Message *m) { return m->send_ev != NONE32 ? s->ts[m->send_ev] : INT64_MIN; }

int64_t msg_t_recv(const Store *s, const Message *m)
{
    uint32_t r = m->recv_ev;
    if (r == NONE32) return INT64_MIN;
    if (s->kind[r] == K_MSG && !(s->flags[r] & EVF_DUR)) return INT64_MIN;
    return ev_end(s, r);
}

int64_t msg_bytes(const Store *s, const Message *m)
{
    const Column *c = store_canon_col(s, F_BYTES);
    int64_t b;
    if (m->send_ev != NONE32 && col_get_i(c, m->send_ev, &b)) return b;
    if (m->recv_ev != NONE32 && col_get_i(c, m->recv_ev, &b)) return b;
    return -1;
}

uint32_t store_msg_of(const Store *s, uint32_t ev) { return evidx_find(s->ev_msg, s->nev_msg, ev); }
uint32_t store_group_of(const Store *s, uint32_t ev) { return evidx_find(s->ev_group, s->nev_group, ev); }

Store *store_empty(void)
{
    Store *s = xcalloc(1, sizeof *s);
    strtab_init(&s->strs);
    for (int f = 0; f < F__N; f++) s->col_of_field[f] = -1;
    s->act_off = xcalloc(1, sizeof(uint32_t));
    return s;
}

void store_free(Store *s)
{
    if (!s) return;
    free(s->ts);
    free(s->dur);
    free(s->loc);
    free(s->act);
    free(s->name);
    free(s->kind);
    free(s->depth);
    free(s->flags);
    strtab_free(&s->strs);
    free(s->xids);
    free(s->locs);
    free(s->acts);
    free(s->act_off);
    free(s->act_ev);
    free(s->moves);
    free(s->ukind);
    free(s->ukind_idle);
    for (uint32_t c = 0; c < s->ncols; c++) {
        free(s->cols[c].name);
        if (s->cols[c].rows_of == c) free(s->cols[c].rows);
        free(s->cols[c].v.p);
        free(s->cols[c].bits);
        free(s->cols[c].vtype);
    }
    free(s->cols);
    free(s->msgs);
    free(s->ev_msg);
    free(s->groups);
    free(s->group_ev);
    free(s->ev_group);
    free(s);
}

void store_mem(const Store *s, size_t *per_event, size_t *dict)
{
    size_t n = s->n;
    size_t m = n * (8 + 8 + 4 + 4 + 4 + 2 + 2 + 1) + n * 4 /* act_ev */;
    m += (size_t)s->nloc * sizeof(Location) + (size_t)s->nact * (sizeof(Activity) + 4);
    m += (size_t)s->nmoves * 4 + (size_t)s->nmsg * sizeof(Message) + (size_t)s->nev_msg * sizeof(EvIdx);
    m += (size_t)s->ngroups * sizeof(SyncGroup) + (size_t)s->nev_group * (sizeof(EvIdx) + 4);
    m += (size_t)s->nukind * 4 + (size_t)s->ncols * sizeof(Column);
    for (uint32_t c = 0; c < s->ncols; c++) {
        const Column *col = &s->cols[c];
        m += strlen(col->name) + 1;
        size_t w = col->type == VT_INT ? col->width : col->type == VT_MIXED ? 9 : col->type == VT_FLT ? 8 : col->width == 2 ? 2 : 4;
        if (col->sparse) m += col->npresent * (w + (col->rows_of == c ? 4 : 0));
        else m += n * w + (col->bits ? (n + 63) / 64 * 8 : 0);
    }
    *per_event = m;
    *dict = strtab_mem(&s->strs) + (size_t)s->nxid * sizeof(uint64_t);
}

const char *store_check(const Store *s)
{
    static char msg[256];
#define BAD(...) return (snprintf(msg, sizeof msg, __VA_ARGS__), msg)
    size_t n = s->n;
    size_t covered = 0;
    for (uint32_t l = 0; l < s->nloc; l++) {
        const Location *L = &s->locs[l];
        if (L->first != covered) BAD("location %u starts at %u, expected %zu", l, L->first, covered);
        covered += L->count;
        for (size_t i = L->first; i < (size_t)L->first + L->count; i++) {
            if (s->loc[i] != l) BAD("event %zu has loc %u inside location %u", i, s->loc[i], l);
            if (i > L->first && ev_before_raw(s->ts, s->dur, (uint32_t)i, (uint32_t)(i - 1)))
                BAD("event %zu out of time order in location %u", i, l);
        }
        if (l > 0 && store_loc_cmp(s, &(uint32_t){l - 1}, &(uint32_t){l}) >= 0)
            BAD("locations %u and %u out of order", l - 1, l);
    }
    if (covered != n) BAD("locations cover %zu of %zu events", covered, n);
    for (size_t e = 0; e < n; e++) {
        if (s->dur[e] < 0) BAD("event %zu has negative dur", e);
        if (!(s->flags[e] & EVF_DUR) && s->dur[e] != 0) BAD("instant event %zu has dur", e);
        if (s->act[e] >= s->nact) BAD("event %zu has act %u of %u", e, s->act[e], s->nact);
        if (s->kind[e] >= K_USER + s->nukind) BAD("event %zu has kind %u", e, s->kind[e]);
        if (s->name[e] != NONE32 && s->name[e] >= s->nnames) BAD("event %zu has bad name", e);
    }
    if (s->act_off[s->nact] != n) BAD("activity index covers %u of %zu", s->act_off[s->nact], n);
    for (uint32_t a = 0; a < s->nact; a++) {
        for (uint32_t i = s->act_off[a]; i < s->act_off[a + 1]; i++) {
            uint32_t e = s->act_ev[i];
            if (s->act[e] != a) BAD("act_ev of %u lists event %u of activity %u", a, e, s->act[e]);
            if (i > s->act_off[a] && ev_before_raw(s->ts, s->dur, e, s->act_ev[i - 1]))
                BAD("activity %u events out of order", a);
        }
    }
    for (uint32_t c = 0; c < s->ncols; c++) {
        const Column *col = &s->cols[c];
        if (col->sparse)
            for (size_t i = 1; i < col->npresent; i++)
                if (col->rows[i] <= col->rows[i - 1]) BAD("column %s rows not increasing", col->name);
        if (col->sparse && col->rows_of != c &&
            (col->rows_of >= s->ncols || s->cols[col->rows_of].rows_of != col->rows_of ||
             s->cols[col->rows_of].rows != col->rows || s->cols[col->rows_of].npresent != col->npresent))
            BAD("column %s shares the rows of a column that does not own the same", col->name);
        if ((col->type == VT_STR || col->type == VT_MIXED) && col->field != F_PARENT) {
            size_t m = col->sparse ? col->npresent : n;
            for (size_t k = 0; k < m; k++) {
                if (!col->sparse && col->bits && !((col->bits[k >> 6] >> (k & 63)) & 1)) continue;
                uint64_t p;
                if (col_slot_value(col, k, &p) != VT_STR) continue;
                uint32_t sid = (uint32_t)p;
                /* (a column with prefix+number ids may also hold the label
                 * of the same text: the id "t5" of a spawn, an act label) */
                if (sid_is_xid(sid) ? sid - SID_XID >= s->nxid : sid >= (col->xids ? s->strs.count : s->nvals))
                    BAD("column %s holds string id %u out of its range", col->name, sid);
                if (sid_is_xid(sid) && !col->xids) BAD("column %s holds prefix+number ids unflagged", col->name);
            }
        }
    }
    if (s->tail_pending && (s->nmsg || s->nev_msg || s->ngroups || s->nev_group))
        BAD("messages or sync groups while they are left for later");
    for (uint32_t i = 1; i < s->nev_msg; i++)
        if (s->ev_msg[i].ev <= s->ev_msg[i - 1].ev) BAD("ev_msg not sorted");
    for (uint32_t i = 1; i < s->nxid; i++)
        if (s->xids[i] <= s->xids[i - 1]) BAD("prefix+number ids not sorted and distinct");
    for (uint32_t i = 0; i < s->nxid; i++) {
        size_t len; /* (by length: an id may hold a NUL) */
        const char *x = store_strn(s, SID_XID + i, &len);
        if (strtab_find(&s->strs, x, len) != NONE32) BAD("prefix+number id %s is also in the dictionary", x);
    }
    for (uint32_t i = 1; i < s->nev_group; i++)
        if (s->ev_group[i].ev <= s->ev_group[i - 1].ev) BAD("ev_group not sorted");
    for (uint32_t g = 0; g < s->ngroups; g++) {
        const SyncGroup *G = &s->groups[g];
        for (uint32_t i = 1; i < G->nev; i++)
            if (s->ts[s->group_ev[G->ev_off + i]] < s->ts[s->group_ev[G->ev_off + i - 1]])
                BAD("group %u events out of order", g);
    }
    return NULL;
#undef BAD
}

void group_summarize(const Store *s, const SyncGroup *G, const uint64_t *sel, uint32_t stamp, uint32_t *mark_act,
                     uint32_t *mark_loc, SyncGroup *out)
{
    const uint32_t *v = s->group_ev + G->ev_off;
    uint32_t nev = G->nev;
    SyncGroup r = *G;
    r.first_ts = r.last_arrival = r.end = 0;
    r.last_ev = NONE32;
    r.wait_ns = 0;
    r.nparts = r.nlocs = 0;
    r.nev = 0;
    /* (the events of a group are at as many places as it has locations:
     * their kinds, activities and locations are asked for PF ahead) */
    const uint32_t PF = 8;
    for (uint32_t i = 0; i < nev; i++) {
        uint32_t e = v[i];
        if (i + PF < nev) {
            uint32_t f = v[i + PF];
            __builtin_prefetch(&s->kind[f]);
            __builtin_prefetch(&s->act[f]);
            __builtin_prefetch(&s->loc[f]);
        }
        if (sel && !((sel[e >> 6] >> (e & 63)) & 1)) continue;
        if (!r.nev++) {
            /* events are sorted by start: the first one opens the group */
            r.first_ts = r.last_arrival = r.end = s->ts[e];
            r.last_ev = e;
        }
        if (s->ts[e] >= r.last_arrival) {
            r.last_arrival = s->ts[e];
            r.last_ev = e;
        }
        if (ev_end(s, e) > r.end) r.end = ev_end(s, e);
        if (s->kind[e] == K_SYNC) r.wait_ns = sat_add64(r.wait_ns, s->dur[e]);
        if (mark_act[s->act[e]] != stamp) {
            mark_act[s->act[e]] = stamp;
            r.nparts++;
        }
        if (mark_loc[s->loc[e]] != stamp) {
            mark_loc[s->loc[e]] = stamp;
            r.nlocs++;
        }
    }
    *out = r;
}
