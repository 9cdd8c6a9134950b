/*
 * store_build.c — building the store from the loader's batches.
 *
 * Owns: the merge of batches into one store, in these steps:
 *  1. merge the batches' dictionaries, extra-field names and user kinds;
 *  2. order the locations (every label used as loc or peer);
 *  3. merge the (location, act label) pairs;
 *  4. place every row: event number = start of its (batch, location) run +
 *     rank within it (a counting sort by location that keeps input order),
 *     and scatter the dense columns — in parallel, one batch per worker;
 *  5. sort any location whose events are not already in time order;
 *  6. scatter the field buffers into typed columns (dense, or sparse with
 *     rows found by rank in a presence bitmap) — in parallel by batch;
 *  7. activities: pairs joined by `move`, plus activities made by `spawn`;
 *     the per-activity index (a parallel counting sort), depths, details;
 *  8. messages: sends matched with receives by id, then first-in first-out
 *     per (source, destination, tag);
 *  9. sync groups.
 * Invariants: the result depends only on the batches' contents and order,
 * never on the number of workers; see store.h for what holds afterwards.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "keymap.h"
#include "base/par.h"
#include "store.h"
#include "base/timeparse.h"
#include "base/util.h"


typedef struct {
    uint8_t type;
    bool sparse;
    bool bysort;     /* sparse with few values: written per batch, then sorted */
    size_t m;
    size_t wsz;      /* bytes per value */
    uint64_t *bits;  /* presence (sparse: temporary, for ranks) */
    uint32_t *rank;  /* sparse: set bits before each word */
} ColBuild;

typedef struct {
    uint64_t v;   /* a prefix+number id's value */
    uint32_t sid; /* the string id of the same text in the dictionary */
} XAlias;

static int xalias_cmp(const void *x, const void *y)
{
    uint64_t a = ((const XAlias *)x)->v, b = ((const XAlias *)y)->v;
    return a < b ? -1 : a > b;
}

typedef struct {
    Batch **bs;
    size_t nb;
    size_t n;
    Store *s;
    int threads;
    uint32_t **nremap, **sremap, **lremap; /* per batch: names, values, labels -> store string id */
    uint32_t **xremap, **premap, **ploc;
    uint16_t **kremap;
    uint32_t *loc_of_sid;
    KeyMap pairs;
    uint32_t *gp_loc, *gp_act, *uf;
    uint32_t **start; /* per batch, per location: event number of its first row */
    uint32_t **dest;  /* per batch: row -> event number */
    uint32_t *pair;   /* event -> global pair (later: root pair) */
    StrTab xnames;
    JobQueue q;
    int **colof; /* per batch: field code -> column, or -1 */
    size_t **coloff; /* per batch: field code -> first slot of its values in a bysort column */
    int fields_pass;
    int *colof_n;
    ColBuild *cb;
    uint32_t *newpos; /* for moved positions: where the event went */
    uint64_t *moved;  /* bitmap of the positions whose event moved */
    atomic_bool resorted;
    XAlias *alias; /* the prefix+number ids whose text is in strs, by value */
    size_t nalias;
    /* activities */
    uint32_t *act_tmp_cnt; /* per worker x activity counts */
    size_t nw_cnt;
    atomic_uint max_depth;
} Build;

static double g_tlast;
static void phase(const char *what)
{
    static int on = -1;
    if (on < 0) on = getenv("TNAV_TIMING") != NULL;
    double t = now_sec();
    if (on && what) fprintf(stderr, "tnav: timing:   %-18s %.3f s\n", what, t - g_tlast);
    g_tlast = t;
}

static uint32_t gp_get(Build *B, uint32_t loc, uint32_t act, bool create)
{
    bool created = false;
    uint32_t id = km_get(&B->pairs, loc, act, 0, create, &created);
    if (id == NONE32) return NONE32;
    if (created) {
        uint32_t cap = B->pairs.cap;
        B->gp_loc = xrealloc(B->gp_loc, cap * sizeof(uint32_t));
        B->gp_act = xrealloc(B->gp_act, cap * sizeof(uint32_t));
        B->uf = xrealloc(B->uf, cap * sizeof(uint32_t));
        B->gp_loc[id] = loc;
        B->gp_act[id] = act;
        B->uf[id] = id;
    }
    return id;
}

static uint32_t uf_find(uint32_t *uf, uint32_t x)
{
    while (uf[x] != x) {
        uf[x] = uf[uf[x]];
        x = uf[x];
    }
    return x;
}

static void uf_union(uint32_t *uf, uint32_t a, uint32_t b)
{
    a = uf_find(uf, a);
    b = uf_find(uf, b);
    if (a == b) return;
    if (a < b) uf[b] = a; /* the older pair stays the root */
    else uf[a] = b;
}

static void fmt_double(char *buf, size_t sz, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sz, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) return;
    }
}

static const Store *g_sort_store; /* qsort has no context argument */
static int loc_qsort_cmp(const void *a, const void *b) { return store_loc_cmp(g_sort_store, a, b); }

/* ---- 1. dictionaries ------------------------------------------------------ */

/* Intern a batch's strings into the store's dictionary: the map of its ids. */
static uint32_t *merge_strs(Store *s, const StrTab *t)
{
    uint32_t *rm = xmalloc(((size_t)t->count + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < t->count; i++) rm[i] = strtab_intern(&s->strs, strtab_str(t, i), strtab_len(t, i));
    return rm;
}

/* ---- 1b. prefix+number ids ------------------------------------------------ */

/* LSD radix sort of 64-bit keys, 16 bits a pass; a pass where every key
 * has the same digit is skipped. */
static void sort_u64(uint64_t *v, size_t m)
{
    if (m < 2) return;
    uint64_t *tmp = xmalloc_big(m * sizeof *tmp), *src = v, *dst = tmp;
    size_t *cnt = xmalloc(65537 * sizeof(size_t));
    for (int sh = 0; sh < 64; sh += 16) {
        memset(cnt, 0, 65537 * sizeof(size_t));
        for (size_t i = 0; i < m; i++) cnt[((src[i] >> sh) & 0xFFFF) + 1]++;
        if (cnt[((src[0] >> sh) & 0xFFFF) + 1] == m) continue;
        for (size_t k = 0; k < 65536; k++) cnt[k + 1] += cnt[k];
        for (size_t i = 0; i < m; i++) dst[cnt[(src[i] >> sh) & 0xFFFF]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != v) memcpy(v, src, m * sizeof *v);
    xfree_big(tmp, m * sizeof *tmp);
    free(cnt);
}

/* Give the prefix+number ids of the batches their global values (the
 * prefix remapped to the store's dictionary), collect them distinct and
 * sorted into s->xids, and find those whose text the dictionary also holds
 * (a name "m7" and an id "m7": the id takes the dictionary's string id). */
static void build_xids(Build *B, uint64_t **allp, size_t *mp, size_t *totalp)
{
    Store *s = B->s;
    static const int fields[] = {F_ID, F_TAG, F_GROUP};
    size_t total = 0;
    for (size_t b = 0; b < B->nb; b++)
        for (int k = 0; k < 3; k++)
            if ((size_t)fields[k] < B->bs[b]->nfb && (B->bs[b]->fb[fields[k]].tmask & (1u << VT_XSTR)))
                total += B->bs[b]->fb[fields[k]].rows.len;
    *allp = NULL;
    *mp = 0;
    *totalp = total;
    if (!total) return;
    uint64_t *all = xmalloc_big(total * sizeof(uint64_t));
    size_t m = 0;
    char buf[XID_PFX_MAX + 24];
    for (size_t b = 0; b < B->nb; b++) {
        Batch *bt = B->bs[b];
        for (int k = 0; k < 3; k++) {
            if ((size_t)fields[k] >= bt->nfb) continue;
            FieldBuf *fb = &bt->fb[fields[k]];
            if (!(fb->tmask & (1u << VT_XSTR))) continue;
            for (size_t i = 0; i < fb->rows.len; i++) {
                if (fb->types.v[i] != VT_XSTR) continue;
                uint64_t v = fb->vals.v[i];
                uint32_t gp = B->sremap[b][XID_PFX(v)];
                if (gp >= (1u << 24)) { /* a prefix beyond the encodable ids: the whole text */
                    size_t len = xid_format(buf, strtab_str(&s->strs, gp), strtab_len(&s->strs, gp), v);
                    fb->types.v[i] = VT_GSTR;
                    fb->vals.v[i] = strtab_intern(&s->strs, buf, len);
                    fb->tmask |= 1u << VT_GSTR;
                    continue;
                }
                v = XID_VAL(gp, XID_NDIG(v), XID_NUM(v));
                fb->vals.v[i] = v;
                all[m++] = v;
            }
        }
    }
    *allp = all;
    *mp = m;
}

/* After the labels are merged: the ids distinct and sorted into s->xids,
 * and those whose text is also in the dictionary. */
static void finish_xids(Build *B, uint64_t *all, size_t m, size_t total)
{
    Store *s = B->s;
    if (!all) return;
    sort_u64(all, m);
    size_t u = 0;
    for (size_t i = 0; i < m; i++)
        if (!u || all[i] != all[u - 1]) all[u++] = all[i];
    if (u >= SID_XID - 1) {
        fprintf(stderr, "tnav: too many distinct ids (%zu)\n", u);
        exit(3);
    }
    s->xids = xmalloc((u ? u : 1) * sizeof(uint64_t));
    memcpy(s->xids, all, u * sizeof(uint64_t));
    s->nxid = (uint32_t)u;
    xfree_big(all, total * sizeof(uint64_t));
    /* texts in both: the dictionary's id wins, and the id leaves xids */
    VEC(XAlias) al = {0};
    uint8_t *drop = NULL;
    for (uint32_t i = 0; i < s->strs.count; i++) {
        size_t pl;
        unsigned nd;
        uint64_t num;
        const char *t = strtab_str(&s->strs, i);
        if (!xid_split(t, strtab_len(&s->strs, i), &pl, &nd, &num)) continue;
        uint32_t ps = strtab_find(&s->strs, t, pl);
        if (ps == NONE32 || ps >= (1u << 24)) continue;
        uint64_t v = XID_VAL(ps, nd, num);
        size_t lo = 0, hi = s->nxid;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (s->xids[mid] < v) lo = mid + 1;
            else hi = mid;
        }
        if (lo < s->nxid && s->xids[lo] == v) {
            XAlias x = {v, i};
            VEC_PUSH(al, x);
            if (!drop) drop = xcalloc(s->nxid, 1);
            drop[lo] = 1;
        }
    }
    if (drop) {
        uint32_t o = 0;
        for (uint32_t i = 0; i < s->nxid; i++)
            if (!drop[i]) s->xids[o++] = s->xids[i];
        s->nxid = o;
        free(drop);
        qsort(al.v, al.len, sizeof(XAlias), xalias_cmp);
    }
    B->alias = al.v;
    B->nalias = al.len;
}

/* ---- 4. placing rows ---------------------------------------------------- */

static void place_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    Build *B = ctx;
    Store *s = B->s;
    size_t b;
    while ((b = jobq_next(&B->q)) != (size_t)-1) {
        Batch *bt = B->bs[b];
        size_t m = bt->n;
        uint32_t *cur = xmalloc(((size_t)s->nloc + 1) * sizeof(uint32_t));
        memcpy(cur, B->start[b], (size_t)s->nloc * sizeof(uint32_t));
        uint32_t *d = xmalloc_big((m ? m : 1) * sizeof(uint32_t));
        const uint32_t *pl = B->ploc[b], *pm = B->premap[b], *rm = B->nremap[b];
        const uint16_t *km = B->kremap[b];
        for (size_t r = 0; r < m; r++) {
            uint32_t ak = bt->akey[r];
            uint32_t pos = cur[pl[ak]]++;
            d[r] = pos;
            s->ts[pos] = bt->ts[r];
            int64_t du = bt->dur[r];
            s->dur[pos] = du < 0 ? 0 : du;
            s->flags[pos] = du >= 0 ? EVF_DUR : 0;
            uint32_t nm = bt->name[r];
            s->name[pos] = nm == NONE32 ? NONE32 : rm[nm];
            uint16_t k = bt->kind[r];
            s->kind[pos] = k < K_USER ? k : km[k - K_USER];
            B->pair[pos] = pm[ak];
        }
        B->dest[b] = d;
        free(cur);
        xfree_big(bt->ts, bt->cap * sizeof *bt->ts);
        xfree_big(bt->dur, bt->cap * sizeof *bt->dur);
        xfree_big(bt->name, bt->cap * sizeof *bt->name);
        xfree_big(bt->kind, bt->cap * sizeof *bt->kind);
        xfree_big(bt->akey, bt->cap * sizeof *bt->akey);
        bt->ts = bt->dur = NULL;
        bt->name = bt->akey = NULL;
        bt->kind = NULL;
    }
}

/* ---- 5. time order inside locations ------------------------------------ */

/* Put the events of a location in time order when they are not. Input in
 * time order leaves only ties out of place (an inner interval written before
 * the outer one that starts with it), so a bounded insertion sort on the
 * arrays themselves usually finishes in one pass; when it does not, the
 * segment is merge-sorted. Moved positions are recorded in newpos and
 * marked in the moved bitmap. */
static void locsort_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    Build *B = ctx;
    Store *s = B->s;
    uint32_t *idx = NULL, *tmp = NULL;
    void *buf = NULL;
    size_t cap = 0;
    size_t l;
    while ((l = jobq_next(&B->q)) != (size_t)-1) {
        size_t a = s->locs[l].first, m = s->locs[l].count;
        size_t i0 = a + 1;
        while (i0 < a + m && !ev_before_raw(s->ts, s->dur, (uint32_t)i0, (uint32_t)(i0 - 1))) i0++;
        if (i0 >= a + m) continue; /* already in order */
        if (m > cap) {
            cap = m;
            idx = xrealloc(idx, cap * sizeof *idx);
            tmp = xrealloc(tmp, cap * sizeof *tmp);
            buf = xrealloc(buf, cap * 8);
        }
        for (size_t i = 0; i < m; i++) idx[i] = (uint32_t)i; /* segment offsets of the original events */
        /* bounded insertion sort on the arrays (a moving element keeps its
         * original offset in idx; ties are broken by the original order) */
        size_t moves = 0, budget = 8 * m + 1024;
        bool ok = true;
        for (size_t i = i0 - a; i < m && ok; i++) {
            size_t j = i;
            int64_t t = s->ts[a + i], d = s->dur[a + i];
            uint32_t o = idx[i];
            while (j > 0) {
                int64_t tj = s->ts[a + j - 1], dj = s->dur[a + j - 1];
                bool before = t != tj ? t < tj : d != dj ? d > dj : o < idx[j - 1];
                if (!before) break;
                j--;
            }
            if (j == i) continue;
            moves += i - j;
            if (moves > budget) {
                ok = false;
                break;
            }
            uint32_t nm = s->name[a + i], pr = B->pair[a + i];
            uint16_t kd = s->kind[a + i];
            uint8_t fl = s->flags[a + i];
            size_t cnt = i - j;
            memmove(&s->ts[a + j + 1], &s->ts[a + j], cnt * sizeof(int64_t));
            memmove(&s->dur[a + j + 1], &s->dur[a + j], cnt * sizeof(int64_t));
            memmove(&s->name[a + j + 1], &s->name[a + j], cnt * sizeof(uint32_t));
            memmove(&B->pair[a + j + 1], &B->pair[a + j], cnt * sizeof(uint32_t));
            memmove(&s->kind[a + j + 1], &s->kind[a + j], cnt * sizeof(uint16_t));
            memmove(&s->flags[a + j + 1], &s->flags[a + j], cnt);
            memmove(&idx[j + 1], &idx[j], cnt * sizeof(uint32_t));
            s->ts[a + j] = t;
            s->dur[a + j] = d;
            s->name[a + j] = nm;
            B->pair[a + j] = pr;
            s->kind[a + j] = kd;
            s->flags[a + j] = fl;
            idx[j] = o;
        }
        if (!ok) {
            /* far from sorted: restore the original order, then merge sort
             * (sort_events breaks ties by event number, i.e. original order) */
#define UNDO(arr, T)                                                           \
    do {                                                                       \
        T *t_ = buf;                                                           \
        for (size_t i = 0; i < m; i++) t_[idx[i]] = (arr)[a + i];              \
        memcpy((arr) + a, t_, m * sizeof(T));                                  \
    } while (0)
            UNDO(s->ts, int64_t);
            UNDO(s->dur, int64_t);
            UNDO(s->name, uint32_t);
            UNDO(s->kind, uint16_t);
            UNDO(s->flags, uint8_t);
            UNDO(B->pair, uint32_t);
#undef UNDO
            uint32_t *ord = tmp; /* ord[k] = position of the k-th element in time order */
            for (size_t i = 0; i < m; i++) ord[i] = (uint32_t)(a + i);
            uint32_t *t2 = xmalloc(m * sizeof(uint32_t));
            sort_events(ord, t2, m, s->ts, s->dur);
            free(t2);
#define PERMUTE(arr, T)                                                        \
    do {                                                                       \
        T *t_ = buf;                                                           \
        for (size_t i = 0; i < m; i++) t_[i] = (arr)[ord[i]];                  \
        memcpy((arr) + a, t_, m * sizeof(T));                                  \
    } while (0)
            PERMUTE(s->ts, int64_t);
            PERMUTE(s->dur, int64_t);
            PERMUTE(s->name, uint32_t);
            PERMUTE(s->kind, uint16_t);
            PERMUTE(s->flags, uint8_t);
            PERMUTE(B->pair, uint32_t);
#undef PERMUTE
            for (size_t i = 0; i < m; i++) idx[i] = ord[i] - (uint32_t)a;
        }
        for (size_t i = 0; i < m; i++) {
            if (idx[i] == i) continue;
            size_t from = a + idx[i];
            B->newpos[from] = (uint32_t)(a + i);
            __atomic_fetch_or(&B->moved[from >> 6], 1ULL << (from & 63), __ATOMIC_RELAXED);
        }
        atomic_store(&B->resorted, true);
    }
    free(idx);
    free(tmp);
    free(buf);
}

static void redest_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    Build *B = ctx;
    size_t b;
    while ((b = jobq_next(&B->q)) != (size_t)-1) {
        uint32_t *d = B->dest[b];
        const uint64_t *mv = B->moved;
        for (size_t r = 0; r < B->bs[b]->n; r++) {
            uint32_t x = d[r];
            if ((mv[x >> 6] >> (x & 63)) & 1) d[r] = B->newpos[x];
        }
    }
}

/* ---- 6. typed columns ---------------------------------------------------- */

/* The string id of a prefix+number id (its value already global). */
static uint32_t xid_sid(const Build *B, uint64_t v)
{
    const Store *s = B->s;
    size_t lo = 0, hi = s->nxid;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->xids[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    if (lo < s->nxid && s->xids[lo] == v) return SID_XID + (uint32_t)lo;
    /* its text is in the dictionary: that string id */
    lo = 0;
    hi = B->nalias;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (B->alias[mid].v < v) lo = mid + 1;
        else hi = mid;
    }
    return lo < B->nalias && B->alias[lo].v == v ? B->alias[lo].sid : NONE32;
}

static inline uint64_t str_value(const Build *B, const uint32_t *rm, uint8_t vtype, uint64_t p)
{
    if (vtype == VT_XSTR) return xid_sid(B, p);
    if (vtype == VT_GSTR) return p;
    return rm[(uint32_t)p];
}

/* A field buffer's value as the column stores it; rm remaps the batch's
 * string ids of that field (labels for peer and parent, else values). */
static inline uint64_t conv_value(const Build *B, const uint32_t *rm, uint8_t ctype, uint8_t vtype, uint64_t p)
{
    switch (ctype) {
    case VT_LOC: return B->loc_of_sid[rm[(uint32_t)p]];
    case VT_STR: return str_value(B, rm, vtype, p);
    case VT_MIXED: return (VT_STRMASK >> vtype) & 1 ? str_value(B, rm, vtype, p) : p;
    case VT_FLT:
        if (vtype == VT_INT) {
            double d = (double)(int64_t)p;
            uint64_t x;
            memcpy(&x, &d, 8);
            return x;
        }
        return p;
    default: return p;
    }
}

static inline void put_value(Column *c, size_t slot, uint64_t v, uint8_t vtype)
{
    if (c->type == VT_MIXED) {
        c->v.i[slot] = (int64_t)v;
        c->vtype[slot] = vtype;
    } else if (c->type == VT_STR || c->type == VT_LOC) {
        c->v.s[slot] = (uint32_t)v;
    } else if (c->type == VT_FLT) {
        c->v.i[slot] = (int64_t)v;
    } else {
        uint64_t d = v - (uint64_t)c->base;
        switch (c->width) {
        case 1: c->v.u8[slot] = (uint8_t)d; break;
        case 2: c->v.u16[slot] = (uint16_t)d; break;
        case 4: c->v.u32[slot] = (uint32_t)d; break;
        default: c->v.i[slot] = (int64_t)v;
        }
    }
}

/* Pass 1 writes the values of dense columns and sets presence bits; pass 2
 * (sparse columns only) writes each value at its rank among the set bits,
 * then frees the batch's field buffers. One worker per batch. */
static void fields_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    Build *B = ctx;
    Store *s = B->s;
    const int pass = B->fields_pass;
    size_t b;
    while ((b = jobq_next(&B->q)) != (size_t)-1) {
        Batch *bt = B->bs[b];
        const uint32_t *d = B->dest[b];
        for (size_t f = 0; f < bt->nfb && f < (size_t)B->colof_n[b]; f++) {
            int ci = B->colof[b][f];
            if (ci < 0 || (pass == 2 && (!s->cols[ci].sparse || B->cb[ci].bysort))) continue;
            FieldBuf *fb = &bt->fb[f];
            Column *c = &s->cols[ci];
            ColBuild *cb = &B->cb[ci];
            const uint32_t *rm = f == F_PEER || f == F_PARENT ? B->lremap[b] : B->sremap[b];
            for (size_t i = 0; i < fb->rows.len; i++) {
                uint32_t pos = d[fb->rows.v[i]];
                uint8_t vt = fb->types.v[i];
                uint64_t v = conv_value(B, rm, c->type, vt, fb->vals.v[i]);
                if (vt >= VT_XSTR) vt = VT_STR;
                if (cb->bysort) {
                    size_t slot = B->coloff[b][f] + i;
                    c->rows[slot] = pos;
                    put_value(c, slot, v, vt);
                } else if (pass == 1) {
                    if (!c->sparse) put_value(c, pos, v, vt);
                    if (cb->bits) __atomic_fetch_or(&cb->bits[pos >> 6], 1ULL << (pos & 63), __ATOMIC_RELAXED);
                } else {
                    uint64_t word = cb->bits[pos >> 6] & ((1ULL << (pos & 63)) - 1);
                    size_t slot = cb->rank[pos >> 6] + popcount64(word);
                    c->rows[slot] = pos;
                    put_value(c, slot, v, vt);
                }
            }
        }
        if (pass == 2) {
            batch_free_fields(bt);
            xfree_big(B->dest[b], bt->n * sizeof(uint32_t));
            B->dest[b] = NULL;
        }
    }
}

static int u64_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* A bysort column holds its values in batch order: sort them by event
 * (a later value of the same event replaces an earlier one). */
static void colsort_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    Build *B = ctx;
    Store *s = B->s;
    size_t ci;
    while ((ci = jobq_next(&B->q)) != (size_t)-1) {
        ColBuild *cb = &B->cb[ci];
        Column *c = &s->cols[ci];
        if (!cb->bysort) continue;
        size_t m = cb->m, wsz = cb->wsz;
        bool sorted = true;
        for (size_t i = 1; i < m && sorted; i++)
            if (c->rows[i] <= c->rows[i - 1]) sorted = false;
        if (sorted) continue;
        uint64_t *key = xmalloc(m * sizeof(uint64_t));
        for (size_t i = 0; i < m; i++) key[i] = (uint64_t)c->rows[i] << 32 | i;
        qsort(key, m, sizeof(uint64_t), u64_cmp);
        uint8_t *val = xmalloc(m * wsz), *vt = c->vtype ? xmalloc(m) : NULL;
        uint32_t *rows = xmalloc(m * sizeof(uint32_t));
        size_t o = 0;
        for (size_t i = 0; i < m; i++) {
            if (i + 1 < m && key[i + 1] >> 32 == key[i] >> 32) continue; /* keep the last value */
            size_t k = (uint32_t)key[i];
            rows[o] = (uint32_t)(key[i] >> 32);
            memcpy(val + o * wsz, (uint8_t *)c->v.p + k * wsz, wsz);
            if (vt) vt[o] = c->vtype[k];
            o++;
        }
        memcpy(c->rows, rows, o * sizeof(uint32_t));
        memcpy(c->v.p, val, o * wsz);
        if (vt) memcpy(c->vtype, vt, o);
        c->npresent = o;
        free(key);
        free(val);
        free(vt);
        free(rows);
    }
}

static void build_columns(Build *B)
{
    Store *s = B->s;
    size_t n = B->n;
    uint32_t nx = B->xnames.count;
    size_t nkeys = (size_t)F__N + nx;
    int *cid = xmalloc(nkeys * sizeof(int));
    size_t *cnt = xcalloc(nkeys, sizeof(size_t));
    uint8_t *tmask = xcalloc(nkeys, 1);
    int64_t *imin = xcalloc(nkeys, sizeof(int64_t)), *imax = xcalloc(nkeys, sizeof(int64_t));
    for (size_t k = 0; k < nkeys; k++) cid[k] = -1;
    for (size_t b = 0; b < B->nb; b++) {
        Batch *bt = B->bs[b];
        for (size_t f = 0; f < bt->nfb; f++) {
            if (!bt->fb[f].rows.len) continue;
            size_t key = f < F_EXTRA ? f : (size_t)F__N + B->xremap[b][f - F_EXTRA];
            cnt[key] += bt->fb[f].rows.len;
            if (bt->fb[f].tmask & (1u << VT_INT)) {
                bool first = !(tmask[key] & (1u << VT_INT));
                if (first || bt->fb[f].imin < imin[key]) imin[key] = bt->fb[f].imin;
                if (first || bt->fb[f].imax > imax[key]) imax[key] = bt->fb[f].imax;
            }
            tmask[key] |= bt->fb[f].tmask;
        }
    }
    int ncol = 0;
    for (size_t k = 0; k < nkeys; k++)
        if (cnt[k]) cid[k] = ncol++;
    s->cols = xcalloc((size_t)ncol + 1, sizeof(Column));
    s->ncols = (uint32_t)ncol;
    B->cb = xcalloc((size_t)ncol + 1, sizeof(ColBuild));
    for (int f = 0; f < F__N; f++) s->col_of_field[f] = -1;
    for (size_t key = 0; key < nkeys; key++) {
        int ci = cid[key];
        if (ci < 0) continue;
        Column *c = &s->cols[ci];
        if (key < F__N) {
            c->field = (int)key;
            c->name = xstrdup(FIELD_NAMES[key]);
            s->col_of_field[key] = ci;
        } else {
            c->field = F_EXTRA;
            c->name = xstrdup(strtab_str(&B->xnames, (uint32_t)(key - F__N)));
        }
        uint8_t mk = tmask[key];
        c->xids = (mk & (1u << VT_XSTR)) != 0;
        if (key == F_PEER) c->type = VT_LOC;
        else if ((mk & VT_STRMASK) && (mk & ((1u << VT_INT) | (1u << VT_FLT)))) c->type = VT_MIXED;
        else if (mk & VT_STRMASK) c->type = VT_STR;
        else if (mk & (1u << VT_FLT)) c->type = VT_FLT;
        else c->type = VT_INT;
        size_t m = cnt[key];
        c->npresent = m;
        size_t wsz;
        if (c->type == VT_INT) {
            /* frame of reference: the narrowest width that holds max - min */
            uint64_t range = (uint64_t)imax[key] - (uint64_t)imin[key];
            c->width = range <= 0xFF ? 1 : range <= 0xFFFF ? 2 : range <= 0xFFFFFFFFULL ? 4 : 8;
            c->base = c->width == 8 ? 0 : imin[key];
            wsz = c->width;
        } else {
            wsz = c->type == VT_FLT || c->type == VT_MIXED ? 8 : 4;
        }
        size_t words = (n + 63) / 64 + 1;
        size_t tb = c->type == VT_MIXED ? 1 : 0; /* a type byte per value */
        size_t dense_bytes = n * (wsz + tb) + (m < n ? words * 8 : 0), sparse_bytes = m * (4 + wsz + tb);
        c->sparse = sparse_bytes < dense_bytes;
        ColBuild *cb = &B->cb[ci];
        cb->m = m;
        cb->wsz = wsz;
        /* few values: a presence bitmap over all events would cost more than
         * sorting them (and n bits per column, for thousands of columns) */
        cb->bysort = c->sparse && m < n / 16;
        if (tb) c->vtype = xcalloc_big(c->sparse ? m : (n ? n : 1), 1);
        if (c->sparse) {
            c->rows = xmalloc_big(m * sizeof(uint32_t));
            c->v.p = xmalloc_big(m * wsz);
            if (!cb->bysort) cb->bits = xcalloc_big(words, sizeof(uint64_t));
        } else {
            c->v.p = xcalloc_big(n ? n : 1, wsz);
            if (m < n) {
                c->bits = xcalloc_big(words, sizeof(uint64_t));
                cb->bits = c->bits;
            }
        }
    }
    B->colof = xcalloc(B->nb + 1, sizeof(int *));
    B->coloff = xcalloc(B->nb + 1, sizeof(size_t *));
    B->colof_n = xcalloc(B->nb + 1, sizeof(int));
    size_t *fill = xcalloc((size_t)ncol + 1, sizeof(size_t)); /* bysort: values placed so far */
    for (size_t b = 0; b < B->nb; b++) {
        Batch *bt = B->bs[b];
        B->colof[b] = xmalloc((bt->nfb + 1) * sizeof(int));
        B->coloff[b] = xmalloc((bt->nfb + 1) * sizeof(size_t));
        B->colof_n[b] = (int)bt->nfb;
        for (size_t f = 0; f < bt->nfb; f++) {
            if (!bt->fb[f].rows.len) {
                B->colof[b][f] = -1;
                continue;
            }
            size_t key = f < F_EXTRA ? f : (size_t)F__N + B->xremap[b][f - F_EXTRA];
            int ci = cid[key];
            B->colof[b][f] = ci;
            B->coloff[b][f] = fill[ci];
            fill[ci] += bt->fb[f].rows.len;
        }
    }
    free(fill);
    int nw = B->threads;
    jobq_init(&B->q, B->nb);
    B->fields_pass = 1;
    par_run(nw < (int)B->nb ? nw : (int)B->nb, fields_worker, B);
    jobq_init(&B->q, (size_t)ncol);
    par_run(nw, colsort_worker, B);
    for (int ci = 0; ci < ncol; ci++) {
        Column *c = &s->cols[ci];
        ColBuild *cb = &B->cb[ci];
        if (!c->sparse || cb->bysort) continue;
        size_t words = (n + 63) / 64 + 1;
        cb->rank = xmalloc(words * sizeof(uint32_t));
        uint32_t acc = 0;
        for (size_t wd = 0; wd < words; wd++) {
            cb->rank[wd] = acc;
            acc += popcount64(cb->bits[wd]);
        }
        c->npresent = acc; /* equal to m unless a row had two values */
    }
    jobq_init(&B->q, B->nb);
    B->fields_pass = 2;
    par_run(nw < (int)B->nb ? nw : (int)B->nb, fields_worker, B);
    for (int ci = 0; ci < ncol; ci++) {
        if (s->cols[ci].sparse) {
            free(B->cb[ci].bits);
            free(B->cb[ci].rank);
        }
    }
    for (size_t b = 0; b < B->nb; b++) {
        free(B->colof[b]);
        free(B->coloff[b]);
    }
    free(B->colof);
    free(B->coloff);
    free(B->colof_n);
    free(B->cb);
    free(cid);
    free(cnt);
    free(tmask);
    free(imin);
    free(imax);
}

/* ---- 7. activities ------------------------------------------------------- */

/* The label string id a spawn's `id` names. */
static uint32_t id_label_sid(Store *s, const Column *c, size_t e)
{
    int64_t iv;
    double dv;
    uint32_t sv;
    char buf[64];
    if (col_get_i(c, e, &iv)) {
        size_t bl = fmt_i64(buf, iv);
        return strtab_intern(&s->strs, buf, bl);
    }
    if (col_get_f(c, e, &dv)) {
        fmt_double(buf, sizeof buf, dv);
        return strtab_intern(&s->strs, buf, strlen(buf));
    }
    if (col_get_s(c, e, &sv)) return sv;
    return NONE32;
}

typedef struct {
    Build *B;
    uint32_t *act_of_root;
    uint32_t **cnt; /* per worker: per activity count, then start */
    int nw;
} ActCtx;

static void act_assign_worker(void *ctx, int w, int nw)
{
    ActCtx *A = ctx;
    Store *s = A->B->s;
    size_t n = s->n, a0 = n * (size_t)w / (size_t)nw, a1 = n * (size_t)(w + 1) / (size_t)nw;
    uint32_t *cnt = A->cnt[w];
    for (size_t e = a0; e < a1; e++) {
        uint32_t a = A->act_of_root[A->B->pair[e]];
        s->act[e] = a;
        cnt[a]++;
    }
}

static void act_scatter_worker(void *ctx, int w, int nw)
{
    ActCtx *A = ctx;
    Store *s = A->B->s;
    size_t n = s->n, a0 = n * (size_t)w / (size_t)nw, a1 = n * (size_t)(w + 1) / (size_t)nw;
    uint32_t *cur = A->cnt[w];
    for (size_t e = a0; e < a1; e++) s->act_ev[cur[s->act[e]]++] = (uint32_t)e;
}

static void act_detail_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    ActCtx *A = ctx;
    Build *B = A->B;
    Store *s = B->s;
    uint32_t *seen_loc = xmalloc(((size_t)s->nloc + 1) * sizeof(uint32_t));
    for (uint32_t l = 0; l < s->nloc; l++) seen_loc[l] = NONE32;
    int64_t *heap = NULL;
    size_t hcap = 0;
    uint32_t *tmp = NULL;
    size_t tcap = 0;
    unsigned maxd = 0;
    size_t a;
    while ((a = jobq_next(&B->q)) != (size_t)-1) {
        Activity *Ac = &s->acts[a];
        uint32_t *v = s->act_ev + s->act_off[a];
        size_t m = s->act_off[a + 1] - s->act_off[a];
        if (!events_sorted(v, m, s->ts, s->dur)) {
            if (m > tcap) {
                tcap = m;
                tmp = xrealloc(tmp, tcap * sizeof *tmp);
            }
            sort_events(v, tmp, m, s->ts, s->dur);
        }
        Ac->nev = (uint32_t)m;
        size_t hn = 0;
        for (size_t i = 0; i < m; i++) {
            uint32_t e = v[i];
            int64_t t = s->ts[e];
            /* pop the intervals that ended at or before t (a min-heap of ends) */
            while (hn && heap[0] <= t) {
                heap[0] = heap[--hn];
                size_t j = 0;
                for (;;) {
                    size_t l = 2 * j + 1, r = l + 1, sm = j;
                    if (l < hn && heap[l] < heap[sm]) sm = l;
                    if (r < hn && heap[r] < heap[sm]) sm = r;
                    if (sm == j) break;
                    int64_t x = heap[j];
                    heap[j] = heap[sm];
                    heap[sm] = x;
                    j = sm;
                }
            }
            uint16_t d = hn > 65535 ? 65535 : (uint16_t)hn;
            s->depth[e] = d;
            if (d > maxd) maxd = d;
            if ((s->flags[e] & EVF_DUR) && s->kind[e] != K_MSG) {
                if (hn == hcap) {
                    hcap = hcap ? hcap * 2 : 64;
                    heap = xrealloc(heap, hcap * sizeof *heap);
                }
                size_t j = hn++;
                heap[j] = t + s->dur[e];
                while (j > 0 && heap[(j - 1) / 2] > heap[j]) {
                    int64_t x = heap[j];
                    heap[j] = heap[(j - 1) / 2];
                    heap[(j - 1) / 2] = x;
                    j = (j - 1) / 2;
                }
            }
            int64_t en = t + s->dur[e];
            if (en > Ac->last_end) Ac->last_end = en;
            if (s->kind[e] == K_END) Ac->end_ev = e;
            if (seen_loc[s->loc[e]] != a) {
                seen_loc[s->loc[e]] = (uint32_t)a;
                Ac->nlocs++;
            }
        }
        if (m) Ac->first_ts = s->ts[v[0]];
    }
    unsigned cur = atomic_load(&B->max_depth);
    while (maxd > cur && !atomic_compare_exchange_weak(&B->max_depth, &cur, maxd)) {
    }
    free(seen_loc);
    free(heap);
    free(tmp);
}

typedef struct {
    uint32_t act, ev;
} ActEv;

static const Store *g_mv_store;
static int move_cmp(const void *x, const void *y)
{
    const ActEv *a = x, *b = y;
    if (a->act != b->act) return a->act < b->act ? -1 : 1;
    if (a->ev == b->ev) return 0;
    return ev_before_raw(g_mv_store->ts, g_mv_store->dur, a->ev, b->ev) ? -1 : 1;
}

static void build_activities(Build *B)
{
    Store *s = B->s;
    size_t n = s->n;
    const Column *peer = store_canon_col(s, F_PEER), *idc = store_canon_col(s, F_ID),
                 *parc = store_canon_col(s, F_PARENT);
    /* moves join pairs; spawns create pairs */
    VEC(uint32_t) spawned_pair = {0};
    VEC(uint32_t) spawned_by = {0};
    VEC(ActEv) moves = {0};
    bool unions = false;
    for (size_t e = 0; e < n; e++) {
        uint16_t k = s->kind[e];
        if (LIKELY(k != K_MOVE && k != K_SPAWN)) continue;
        if (k == K_MOVE) {
            uint32_t p, lab = B->gp_act[B->pair[e]];
            ActEv me = {0, (uint32_t)e};
            VEC_PUSH(moves, me);
            if (lab != NONE32 && col_get_s(peer, e, &p)) {
                uint32_t tp = gp_get(B, p, lab, true);
                uf_union(B->uf, B->pair[e], tp);
                unions = true;
            }
        } else {
            uint32_t lab = id_label_sid(s, idc, e);
            if (lab == NONE32) continue;
            uint32_t p;
            if (!col_get_s(peer, e, &p)) p = s->loc[e];
            uint32_t cp = gp_get(B, p, lab, true);
            VEC_PUSH(spawned_pair, cp);
            VEC_PUSH(spawned_by, (uint32_t)e);
        }
    }
    uint32_t np = B->pairs.n;
    if (unions) {
        for (uint32_t p = 0; p < np; p++) B->uf[p] = uf_find(B->uf, p);
        for (size_t e = 0; e < n; e++) B->pair[e] = B->uf[B->pair[e]];
    }
    int64_t *first_ts = xmalloc((size_t)np * sizeof(int64_t));
    uint32_t *home = xmalloc((size_t)np * sizeof(uint32_t));
    uint32_t *spawn_ev = xmalloc((size_t)np * sizeof(uint32_t));
    uint8_t *live = xcalloc(np, 1);
    for (uint32_t p = 0; p < np; p++) {
        first_ts[p] = INT64_MAX;
        home[p] = NONE32;
        spawn_ev[p] = NONE32;
    }
    for (size_t e = 0; e < n; e++) {
        uint32_t r = B->pair[e];
        live[r] = 1;
        if (s->ts[e] < first_ts[r]) {
            first_ts[r] = s->ts[e];
            home[r] = s->loc[e];
        }
    }
    for (size_t i = 0; i < spawned_pair.len; i++) {
        uint32_t r = uf_find(B->uf, spawned_pair.v[i]);
        uint32_t e = spawned_by.v[i];
        if (spawn_ev[r] == NONE32 || ev_before_raw(s->ts, s->dur, e, spawn_ev[r])) spawn_ev[r] = e;
        if (!live[r]) {
            live[r] = 2; /* spawned, no events */
            uint32_t p;
            if (!col_get_s(peer, e, &p)) p = s->loc[e];
            if (s->ts[e] < first_ts[r]) {
                first_ts[r] = s->ts[e];
                home[r] = p;
            }
        }
    }
    /* order activities by (home location, first time, label, pair) */
    uint32_t nr = 0;
    for (uint32_t p = 0; p < np; p++)
        if (live[p] && uf_find(B->uf, p) == p) nr++;
    typedef struct {
        uint32_t home;
        int64_t first;
        uint32_t label, root;
    } RK;
    RK *rk = xmalloc(((size_t)nr + 1) * sizeof(RK));
    nr = 0;
    for (uint32_t p = 0; p < np; p++)
        if (live[p] && uf_find(B->uf, p) == p) rk[nr++] = (RK){home[p], first_ts[p], B->gp_act[p], p};
    uint32_t *ord = xmalloc(((size_t)nr + 1) * sizeof(uint32_t)), *otmp = xmalloc(((size_t)nr + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < nr; i++) ord[i] = i;
    for (uint32_t wdt = 1; wdt < nr; wdt *= 2) {
        for (uint32_t a = 0; a < nr; a += 2 * wdt) {
            uint32_t mid = a + wdt < nr ? a + wdt : nr, b = a + 2 * wdt < nr ? a + 2 * wdt : nr;
            uint32_t i = a, j = mid, o = a;
            while (i < mid && j < b) {
                const RK *x = &rk[ord[i]], *y = &rk[ord[j]];
                bool ylt = y->home != x->home     ? y->home < x->home
                           : y->first != x->first ? y->first < x->first
                           : y->label != x->label ? y->label < x->label
                                                  : y->root < x->root;
                otmp[o++] = ylt ? ord[j++] : ord[i++];
            }
            while (i < mid) otmp[o++] = ord[i++];
            while (j < b) otmp[o++] = ord[j++];
        }
        uint32_t *t = ord;
        ord = otmp;
        otmp = t;
    }
    uint32_t *act_of_root = xmalloc(((size_t)np + 1) * sizeof(uint32_t));
    for (uint32_t p = 0; p < np; p++) act_of_root[p] = NONE32;
    s->nact = nr;
    s->acts = xcalloc((size_t)nr + 1, sizeof(Activity));
    for (uint32_t i = 0; i < nr; i++) {
        uint32_t r = rk[ord[i]].root;
        act_of_root[r] = i;
        Activity *Ac = &s->acts[i];
        Ac->label = B->gp_act[r];
        Ac->home = home[r];
        Ac->first_ts = first_ts[r];
        Ac->last_end = first_ts[r];
        Ac->parent = NONE32;
        Ac->spawn_ev = spawn_ev[r];
        Ac->end_ev = NONE32;
        Ac->parent_label = NONE32;
    }
    free(rk);
    free(ord);
    free(otmp);
    free(first_ts);
    free(home);
    free(spawn_ev);
    free(live);

    /* act column and per-activity index (parallel counting sort) */
    ActCtx ac = {B, act_of_root, NULL, B->threads};
    int nw = B->threads;
    if ((size_t)nw > n / 65536 + 1) nw = (int)(n / 65536 + 1);
    ac.nw = nw;
    ac.cnt = xcalloc((size_t)nw, sizeof(uint32_t *));
    for (int w = 0; w < nw; w++) ac.cnt[w] = xcalloc((size_t)nr + 1, sizeof(uint32_t));
    s->act = xmalloc_big((n ? n : 1) * sizeof(uint32_t));
    par_run(nw, act_assign_worker, &ac);
    s->act_off = xrealloc(s->act_off, ((size_t)nr + 2) * sizeof(uint32_t));
    uint32_t acc = 0;
    for (uint32_t a = 0; a < nr; a++) {
        s->act_off[a] = acc;
        for (int w = 0; w < nw; w++) {
            uint32_t c = ac.cnt[w][a];
            ac.cnt[w][a] = acc;
            acc += c;
        }
    }
    s->act_off[nr] = acc;
    s->act_ev = xmalloc_big((n ? n : 1) * sizeof(uint32_t));
    par_run(nw, act_scatter_worker, &ac);
    for (int w = 0; w < nw; w++) free(ac.cnt[w]);
    free(ac.cnt);

    s->depth = xcalloc_big(n ? n : 1, sizeof(uint16_t));
    atomic_store(&B->max_depth, 0);
    jobq_init(&B->q, nr);
    par_run(B->threads, act_detail_worker, &ac);
    s->max_depth = (uint16_t)atomic_load(&B->max_depth);

    /* moves of each activity, in its time order */
    for (size_t i = 0; i < moves.len; i++) moves.v[i].act = s->act[moves.v[i].ev];
    g_mv_store = s;
    if (moves.len) qsort(moves.v, moves.len, sizeof(ActEv), move_cmp);
    s->moves = xmalloc((moves.len + 1) * sizeof(uint32_t));
    s->nmoves = (uint32_t)moves.len;
    for (size_t i = 0; i < moves.len; i++) {
        s->moves[i] = moves.v[i].ev;
        Activity *Ac = &s->acts[moves.v[i].act];
        if (!Ac->nmoves) Ac->moves_off = (uint32_t)i;
        Ac->nmoves++;
    }
    VEC_FREE(moves);

    /* parents: an explicit `parent` label (the activity with that label at
     * the event's location, else the only activity with that label), else
     * the activity of the spawn event that created it */
    KeyMap bylabel;
    km_init(&bylabel);
    uint32_t *label_act = NULL;
    size_t lcap = 0;
    for (uint32_t a = 0; a < nr; a++) {
        if (s->acts[a].label == NONE32) continue;
        bool created;
        uint32_t id = km_get(&bylabel, s->acts[a].label, 0, 0, true, &created);
        if (id >= lcap) {
            lcap = lcap ? lcap * 2 : 256;
            while (lcap <= id) lcap *= 2;
            label_act = xrealloc(label_act, lcap * sizeof(uint32_t));
        }
        label_act[id] = created ? a : NONE32; /* NONE32 once ambiguous */
    }
    if (parc) {
        /* each activity's first event (in its order) that names a parent */
        uint32_t *pev = xmalloc(((size_t)nr + 1) * sizeof(uint32_t));
        for (uint32_t a = 0; a < nr; a++) pev[a] = NONE32;
        size_t np2 = parc->sparse ? parc->npresent : n;
        for (size_t i = 0; i < np2; i++) {
            uint32_t e = parc->sparse ? parc->rows[i] : (uint32_t)i;
            if (!parc->sparse && parc->bits && !((parc->bits[e >> 6] >> (e & 63)) & 1)) continue;
            uint32_t a = s->act[e];
            if (pev[a] == NONE32 || ev_before_raw(s->ts, s->dur, e, pev[a])) pev[a] = e;
        }
        for (uint32_t a = 0; a < nr; a++) {
            if (pev[a] == NONE32) continue;
            Activity *Ac = &s->acts[a];
            uint32_t lab;
            if (!col_get_s(parc, pev[a], &lab)) continue;
            uint32_t pa = NONE32;
            uint32_t p = gp_get(B, s->loc[pev[a]], lab, false);
            if (p != NONE32) pa = act_of_root[uf_find(B->uf, p)];
            if (pa == NONE32) {
                uint32_t id = km_get(&bylabel, lab, 0, 0, false, NULL);
                if (id != NONE32) pa = label_act[id];
            }
            if (pa == NONE32) Ac->parent_label = lab;
            Ac->parent = pa;
        }
        free(pev);
    }
    for (uint32_t a = 0; a < nr; a++) {
        Activity *Ac = &s->acts[a];
        if (Ac->parent == NONE32 && Ac->parent_label == NONE32 && Ac->spawn_ev != NONE32)
            Ac->parent = s->act[Ac->spawn_ev];
        if (Ac->parent == a) Ac->parent = NONE32;
    }
    km_free(&bylabel);
    free(label_act);
    free(act_of_root);
    VEC_FREE(spawned_pair);
    VEC_FREE(spawned_by);
}

/* ---- 8. messages ----------------------------------------------------------- */

/* One communication event waiting for its partner, with its matching key. */
typedef struct {
    uint64_t k1, k2, k3;
    uint32_t h; /* hash of the key */
    uint32_t i; /* index into the communication events */
} CKey;

static uint32_t ckey_hash(uint64_t a, uint64_t b, uint64_t c)
{
    return (uint32_t)(hash_u64(a * 0x9e3779b97f4a7c15ULL ^ hash_u64(b ^ (c * 0xc2b2ae3d27d4eb4fULL))) >> 32);
}

/* stable LSD radix sort by h (two 16-bit passes) */
static void sort_ckeys(CKey *v, size_t m)
{
    if (m < 2) return;
    CKey *tmp = xmalloc_big(m * sizeof *tmp);
    size_t *cnt = xmalloc(65537 * sizeof(size_t));
    CKey *src = v, *dst = tmp;
    for (int pass = 0; pass < 2; pass++) {
        int sh = pass * 16;
        memset(cnt, 0, 65537 * sizeof(size_t));
        for (size_t i = 0; i < m; i++) cnt[((src[i].h >> sh) & 0xFFFF) + 1]++;
        for (size_t k = 0; k < 65536; k++) cnt[k + 1] += cnt[k];
        for (size_t i = 0; i < m; i++) dst[cnt[(src[i].h >> sh) & 0xFFFF]++] = src[i];
        CKey *t = src;
        src = dst;
        dst = t;
    }
    xfree_big(tmp, m * sizeof *tmp);
    free(cnt);
}

/* Pair the sends and receives that share a key, each side in time order.
 * ce maps a communication index to its event. */
static void pair_by_key(const Store *s, const uint32_t *ce, CKey *keys, size_t m, uint32_t *mate)
{
    sort_ckeys(keys, m);
    VEC(uint32_t) S = {0}, R = {0};
    uint8_t *done = NULL;
    size_t dcap = 0;
    for (size_t a = 0; a < m;) {
        size_t b = a + 1;
        while (b < m && keys[b].h == keys[a].h) b++;
        if (b - a == 2 && keys[a].k1 == keys[a + 1].k1 && keys[a].k2 == keys[a + 1].k2 && keys[a].k3 == keys[a + 1].k3) {
            /* the common case: one send and its receive */
            uint32_t x = keys[a].i, y = keys[a + 1].i;
            if (s->kind[ce[x]] != s->kind[ce[y]]) {
                mate[x] = y;
                mate[y] = x;
            }
            a = b;
            continue;
        }
        /* a run of equal hashes: split it into groups of equal keys */
        if (b - a > dcap) {
            dcap = b - a;
            done = xrealloc(done, dcap);
        }
        memset(done, 0, b - a);
        for (size_t g = a; g < b; g++) {
            if (done[g - a]) continue;
            S.len = R.len = 0;
            for (size_t j = g; j < b; j++) {
                if (done[j - a] || keys[j].k1 != keys[g].k1 || keys[j].k2 != keys[g].k2 || keys[j].k3 != keys[g].k3)
                    continue;
                done[j - a] = 1;
                uint32_t c = keys[j].i;
                if (s->kind[ce[c]] == K_SEND) VEC_PUSH(S, c);
                else VEC_PUSH(R, c);
            }
            /* each side in time order (communication indices follow event
             * numbers, which are in time order within one location) */
            for (int side = 0; side < 2; side++) {
                uint32_t *v = side ? R.v : S.v;
                size_t len = side ? R.len : S.len;
                for (size_t i = 1; i < len; i++) {
                    uint32_t x = v[i];
                    size_t j = i;
                    while (j > 0 && ev_before_raw(s->ts, s->dur, ce[x], ce[v[j - 1]])) {
                        v[j] = v[j - 1];
                        j--;
                    }
                    v[j] = x;
                }
            }
            size_t np = S.len < R.len ? S.len : R.len;
            for (size_t i = 0; i < np; i++) {
                mate[S.v[i]] = R.v[i];
                mate[R.v[i]] = S.v[i];
            }
        }
        a = b;
    }
    VEC_FREE(S);
    VEC_FREE(R);
    free(done);
}

static bool cur_key(ColCur *cc, size_t e, uint64_t *type, uint64_t *payload)
{
    size_t k;
    if (!colcur_slot(cc, e, &k)) return false;
    const Column *c = cc->c;
    *type = col_slot_value(c, k, payload);
    return true;
}

static bool cur_loc(ColCur *cc, size_t e, uint32_t *out)
{
    size_t k;
    if (!colcur_slot(cc, e, &k)) return false;
    *out = cc->c->v.s[k];
    return true;
}

static void build_messages(Store *s)
{
    size_t n = s->n;
    const Column *peer = store_canon_col(s, F_PEER), *idc = store_canon_col(s, F_ID),
                 *tagc = store_canon_col(s, F_TAG);
    /* the communication events, in event order */
    VEC(uint32_t) ce = {0};
    for (size_t e = 0; e < n; e++) {
        uint16_t k = s->kind[e];
        if (k == K_SEND || k == K_RECV || k == K_MSG) VEC_PUSH(ce, (uint32_t)e);
    }
    size_t nc = ce.len;
    uint32_t *mate = xmalloc((nc + 1) * sizeof(uint32_t));
    uint32_t *peer_of = xmalloc((nc + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < nc; i++) mate[i] = NONE32;
    VEC(CKey) ks = {0};
    /* 1. by id: key (id, destination) */
    {
        ColCur cp = {peer, 0}, ci = {idc, 0};
        for (size_t i = 0; i < nc; i++) {
            uint32_t e = ce.v[i];
            uint16_t k = s->kind[e];
            uint32_t p;
            peer_of[i] = cur_loc(&cp, e, &p) ? p : NONE32;
            if (k == K_MSG) continue;
            uint64_t t, v;
            if (!cur_key(&ci, e, &t, &v)) continue;
            uint32_t dst = k == K_SEND ? peer_of[i] : s->loc[e];
            if (dst == NONE32) continue;
            CKey x = {t, v, dst, ckey_hash(t, v, dst), (uint32_t)i};
            VEC_PUSH(ks, x);
        }
    }
    pair_by_key(s, ce.v, ks.v, ks.len, mate);
    /* 2. the rest: first in, first out per (source, destination, tag) */
    ks.len = 0;
    {
        ColCur ct = {tagc, 0};
        for (size_t i = 0; i < nc; i++) {
            uint32_t e = ce.v[i];
            uint16_t k = s->kind[e];
            if (k == K_MSG || mate[i] != NONE32 || peer_of[i] == NONE32) continue;
            uint32_t src = k == K_SEND ? s->loc[e] : peer_of[i], dst = k == K_SEND ? peer_of[i] : s->loc[e];
            uint64_t t = 0, v = 0;
            cur_key(&ct, e, &t, &v);
            uint64_t sd = ((uint64_t)src << 32) | dst;
            CKey x = {sd, t, v, ckey_hash(sd, t, v), (uint32_t)i};
            VEC_PUSH(ks, x);
        }
    }
    pair_by_key(s, ce.v, ks.v, ks.len, mate);
    VEC_FREE(ks);
    /* 3. messages, in the order of the event that makes them */
    VEC(Message) msgs = {0};
    uint32_t *msg_of = xmalloc((nc + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < nc; i++) msg_of[i] = NONE32;
    for (size_t i = 0; i < nc; i++) {
        uint32_t e = ce.v[i];
        uint16_t k = s->kind[e];
        Message m;
        if (k == K_SEND) {
            uint32_t r = mate[i];
            uint32_t re = r != NONE32 ? ce.v[r] : NONE32;
            m.send_ev = e;
            m.recv_ev = re;
            m.src = s->loc[e];
            m.dst = peer_of[i] != NONE32 ? peer_of[i] : (re != NONE32 ? s->loc[re] : NONE32);
            if (r == NONE32) s->unmatched_send++;
            else msg_of[r] = (uint32_t)msgs.len;
        } else if (k == K_MSG) {
            m.send_ev = m.recv_ev = e;
            m.src = s->loc[e];
            m.dst = peer_of[i];
        } else if (mate[i] == NONE32) {
            s->unmatched_recv++;
            if (peer_of[i] == NONE32) continue;
            m.send_ev = NONE32;
            m.recv_ev = e;
            m.src = peer_of[i];
            m.dst = s->loc[e];
        } else {
            continue; /* a matched receive: its message comes with the send */
        }
        msg_of[i] = (uint32_t)msgs.len;
        VEC_PUSH(msgs, m);
    }
    s->msgs = msgs.v;
    s->nmsg = (uint32_t)msgs.len;
    VEC(EvIdx) em = {0};
    for (size_t i = 0; i < nc; i++)
        if (msg_of[i] != NONE32) {
            EvIdx x = {ce.v[i], msg_of[i]};
            VEC_PUSH(em, x);
        }
    s->ev_msg = em.v;
    s->nev_msg = (uint32_t)em.len;
    free(msg_of);
    free(mate);
    free(peer_of);
    VEC_FREE(ce);
}

/* ---- 9. sync groups ---------------------------------------------------- */

static void build_groups(Store *s)
{
    const Column *gc = store_canon_col(s, F_GROUP);
    if (!gc) return;
    KeyMap km;
    km_init(&km);
    VEC(EvIdx) eg = {0};
    size_t total = gc->sparse ? gc->npresent : s->n;
    for (size_t i = 0; i < total; i++) {
        size_t e = gc->sparse ? gc->rows[i] : i;
        if (!gc->sparse && gc->bits && !((gc->bits[e >> 6] >> (e & 63)) & 1)) continue;
        uint64_t p;
        uint64_t t = col_slot_value(gc, i, &p);
        EvIdx x = {(uint32_t)e, km_get(&km, t, p, 0, true, NULL)};
        VEC_PUSH(eg, x);
    }
    uint32_t ng = km.n;
    s->ngroups = ng;
    s->groups = xcalloc((size_t)ng + 1, sizeof(SyncGroup));
    s->ev_group = eg.v;
    s->nev_group = (uint32_t)eg.len;
    uint32_t *cnt = xcalloc((size_t)ng + 2, sizeof(uint32_t));
    for (size_t i = 0; i < eg.len; i++) cnt[eg.v[i].idx + 1]++;
    for (uint32_t g = 0; g < ng; g++) cnt[g + 1] += cnt[g];
    s->group_ev = xmalloc((eg.len ? eg.len : 1) * sizeof(uint32_t));
    uint32_t *pos = xmalloc(((size_t)ng + 1) * sizeof(uint32_t));
    memcpy(pos, cnt, ((size_t)ng + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < eg.len; i++) s->group_ev[pos[eg.v[i].idx]++] = eg.v[i].ev;
    free(pos);
    uint32_t *mark_act = xmalloc(((size_t)s->nact + 1) * sizeof(uint32_t));
    uint32_t *mark_loc = xmalloc(((size_t)s->nloc + 1) * sizeof(uint32_t));
    for (uint32_t a = 0; a < s->nact; a++) mark_act[a] = NONE32;
    for (uint32_t l = 0; l < s->nloc; l++) mark_loc[l] = NONE32;
    uint32_t *tmp = NULL;
    size_t tcap = 0;
    for (uint32_t g = 0; g < ng; g++) {
        SyncGroup *G = &s->groups[g];
        const uint64_t *k = &km.k[(size_t)g * 3];
        G->type = (uint8_t)k[0];
        if (G->type == VT_STR) G->sid = (uint32_t)k[1];
        else G->ival = (int64_t)k[1];
        G->ev_off = cnt[g];
        G->nev = cnt[g + 1] - cnt[g];
        uint32_t *v = s->group_ev + G->ev_off;
        if (!events_sorted(v, G->nev, s->ts, s->dur)) {
            if (G->nev > tcap) {
                tcap = G->nev;
                tmp = xrealloc(tmp, tcap * sizeof *tmp);
            }
            sort_events(v, tmp, G->nev, s->ts, s->dur);
        }
        group_summarize(s, G, NULL, g, mark_act, mark_loc, G);
    }
    free(tmp);
    free(cnt);
    free(mark_act);
    free(mark_loc);
    km_free(&km);
}

static void tail_worker(void *ctx, int w, int nw)
{
    (void)nw;
    Build *B = ctx;
    if (w == 0) {
        build_messages(B->s);
    } else {
        build_activities(B);
        build_groups(B->s);
    }
}

/* ---- the whole build ------------------------------------------------------ */

Store *store_build(Batch **bs, size_t nb, int threads)
{
    double t0 = now_sec();
    phase(NULL);
    Store *s = store_empty();
    Build Bd;
    Build *B = &Bd;
    memset(B, 0, sizeof *B);
    B->bs = bs;
    B->nb = nb;
    B->s = s;
    B->threads = threads < 1 ? 1 : threads;
    size_t n = 0;
    for (size_t b = 0; b < nb; b++) n += bs[b]->n;
    if (n >= UINT32_MAX - 1) {
        fprintf(stderr, "tnav: too many events (%zu); at most %u are supported\n", n, UINT32_MAX - 2);
        exit(3);
    }
    B->n = n;
    s->n = n;

    /* 1. dictionaries */
    strtab_init(&B->xnames);
    B->sremap = xcalloc(nb + 1, sizeof(uint32_t *));
    B->xremap = xcalloc(nb + 1, sizeof(uint32_t *));
    B->kremap = xcalloc(nb + 1, sizeof(uint16_t *));
    B->premap = xcalloc(nb + 1, sizeof(uint32_t *));
    B->ploc = xcalloc(nb + 1, sizeof(uint32_t *));
    B->start = xcalloc(nb + 1, sizeof(uint32_t *));
    B->dest = xcalloc(nb + 1, sizeof(uint32_t *));
    /* names first, then values, then labels: a string used by several of
     * them gets the first one's id, so that every name is below nnames and
     * every value below nvals */
    B->nremap = xcalloc(nb + 1, sizeof(uint32_t *));
    B->lremap = xcalloc(nb + 1, sizeof(uint32_t *));
    for (size_t b = 0; b < nb; b++) B->nremap[b] = merge_strs(s, &bs[b]->names);
    s->nnames = s->strs.count;
    for (size_t b = 0; b < nb; b++) B->sremap[b] = merge_strs(s, &bs[b]->strs);
    uint64_t *xall;
    size_t xm, xtotal;
    build_xids(B, &xall, &xm, &xtotal);
    s->nvals = s->strs.count;
    for (size_t b = 0; b < nb; b++) B->lremap[b] = merge_strs(s, &bs[b]->labels);
    finish_xids(B, xall, xm, xtotal);
    for (size_t b = 0; b < nb; b++) {
        Batch *bt = bs[b];
        B->xremap[b] = xmalloc(((size_t)bt->xnames.count + 1) * sizeof(uint32_t));
        for (uint32_t i = 0; i < bt->xnames.count; i++)
            B->xremap[b][i] = strtab_intern(&B->xnames, strtab_str(&bt->xnames, i), strtab_len(&bt->xnames, i));
    }
    {
        KeyMap uk;
        km_init(&uk);
        for (size_t b = 0; b < nb; b++) {
            Batch *bt = bs[b];
            B->kremap[b] = xmalloc((bt->ukinds.len + 1) * sizeof(uint16_t));
            for (size_t k = 0; k < bt->ukinds.len; k++) {
                uint32_t gs = B->sremap[b][bt->ukinds.v[k]];
                bool created;
                uint32_t id = km_get(&uk, gs, 0, 0, true, &created);
                if (id + K_USER > 65535) {
                    fprintf(stderr, "tnav: too many distinct kinds\n");
                    exit(3);
                }
                if (created) {
                    s->ukind = xrealloc(s->ukind, ((size_t)id + 1) * sizeof(uint32_t));
                    s->ukind[id] = gs;
                    s->nukind = id + 1;
                }
                B->kremap[b][k] = (uint16_t)(K_USER + id);
            }
        }
        km_free(&uk);
    }
    phase("dictionaries");

    /* 2. locations: every label used as loc or as peer */
    uint32_t nstr = s->strs.count;
    uint8_t *isloc = xcalloc((size_t)nstr + 1, 1);
    for (size_t b = 0; b < nb; b++) {
        Batch *bt = bs[b];
        for (uint32_t p = 0; p < bt->npairs; p++) isloc[B->lremap[b][bt->pairs[p].loc]] = 1;
        if (bt->nfb > F_PEER) {
            FieldBuf *fb = &bt->fb[F_PEER];
            for (size_t i = 0; i < fb->rows.len; i++) isloc[B->lremap[b][(uint32_t)fb->vals.v[i]]] = 1;
        }
    }
    uint32_t nl = 0;
    for (uint32_t i = 0; i < nstr; i++) nl += isloc[i];
    s->nloc = nl;
    s->locs = xcalloc((size_t)nl + 1, sizeof(Location));
    nl = 0;
    for (uint32_t i = 0; i < nstr; i++) {
        if (!isloc[i]) continue;
        Location *L = &s->locs[nl++];
        L->label = i;
        const char *t = strtab_str(&s->strs, i);
        int64_t iv;
        L->is_int = parse_int64(t, strlen(t), &iv) == TP_OK;
        L->ival = L->is_int ? iv : 0;
    }
    free(isloc);
    {
        uint32_t *ord = xmalloc(((size_t)s->nloc + 1) * sizeof(uint32_t));
        for (uint32_t l = 0; l < s->nloc; l++) ord[l] = l;
        g_sort_store = s;
        if (s->nloc) qsort(ord, s->nloc, sizeof(uint32_t), loc_qsort_cmp);
        Location *sorted = xcalloc((size_t)s->nloc + 1, sizeof(Location));
        for (uint32_t l = 0; l < s->nloc; l++) sorted[l] = s->locs[ord[l]];
        free(s->locs);
        s->locs = sorted;
        free(ord);
    }
    B->loc_of_sid = xmalloc(((size_t)nstr + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < nstr; i++) B->loc_of_sid[i] = NONE32;
    for (uint32_t l = 0; l < s->nloc; l++) B->loc_of_sid[s->locs[l].label] = l;
    phase("locations");

    /* 3. global pairs; 4. row placement */
    km_init(&B->pairs);
    uint32_t *loc_total = xcalloc((size_t)s->nloc + 1, sizeof(uint32_t));
    for (size_t b = 0; b < nb; b++) {
        Batch *bt = bs[b];
        B->premap[b] = xmalloc(((size_t)bt->npairs + 1) * sizeof(uint32_t));
        B->ploc[b] = xmalloc(((size_t)bt->npairs + 1) * sizeof(uint32_t));
        B->start[b] = xcalloc((size_t)s->nloc + 1, sizeof(uint32_t));
        for (uint32_t p = 0; p < bt->npairs; p++) {
            uint32_t loc = B->loc_of_sid[B->lremap[b][bt->pairs[p].loc]];
            uint32_t act = bt->pairs[p].act == NONE32 ? NONE32 : B->lremap[b][bt->pairs[p].act];
            B->premap[b][p] = gp_get(B, loc, act, true);
            B->ploc[b][p] = loc;
            B->start[b][loc] += bt->pair_count[p]; /* rows of this batch at loc (for now) */
        }
    }
    {
        uint32_t acc = 0;
        for (uint32_t l = 0; l < s->nloc; l++) {
            s->locs[l].first = acc;
            for (size_t b = 0; b < nb; b++) {
                uint32_t c = B->start[b][l];
                B->start[b][l] = acc;
                acc += c;
            }
            s->locs[l].count = acc - s->locs[l].first;
        }
    }
    free(loc_total);
    s->ts = xmalloc_big((n ? n : 1) * sizeof(int64_t));
    s->dur = xmalloc_big((n ? n : 1) * sizeof(int64_t));
    s->name = xmalloc_big((n ? n : 1) * sizeof(uint32_t));
    s->kind = xmalloc_big((n ? n : 1) * sizeof(uint16_t));
    s->flags = xmalloc_big(n ? n : 1);
    B->pair = xmalloc_big((n ? n : 1) * sizeof(uint32_t));
    jobq_init(&B->q, nb);
    par_run(B->threads < (int)nb ? B->threads : (int)nb, place_worker, B);
    s->loc = xmalloc_big((n ? n : 1) * sizeof(uint32_t));
    for (uint32_t l = 0; l < s->nloc; l++)
        for (uint32_t i = s->locs[l].first; i < s->locs[l].first + s->locs[l].count; i++) s->loc[i] = l;
    phase("placement");

    /* 5. time order inside each location */
    {
        B->newpos = NULL;
        bool need = false;
        for (uint32_t l = 0; l < s->nloc && !need; l++) {
            size_t a = s->locs[l].first, m = s->locs[l].count;
            for (size_t i = a + 1; i < a + m; i++)
                if (ev_before_raw(s->ts, s->dur, (uint32_t)i, (uint32_t)(i - 1))) {
                    need = true;
                    break;
                }
        }
        if (need) {
            B->newpos = xmalloc_big((n ? n : 1) * sizeof(uint32_t));
            B->moved = xcalloc_big(n / 64 + 1, sizeof(uint64_t));
            atomic_store(&B->resorted, false);
            jobq_init(&B->q, s->nloc);
            par_run(B->threads, locsort_worker, B);
            if (atomic_load(&B->resorted)) {
                jobq_init(&B->q, nb);
                par_run(B->threads < (int)nb ? B->threads : (int)nb, redest_worker, B);
            }
            xfree_big(B->newpos, (n ? n : 1) * sizeof(uint32_t));
            xfree_big(B->moved, (n / 64 + 1) * sizeof(uint64_t));
            B->newpos = NULL;
            B->moved = NULL;
        }
    }
    phase("time order");

    /* 6. optional and extra fields */
    build_columns(B);
    phase("columns");

    /* 7. activities, 8. messages, 9. sync groups */
    /* messages need no activities: they are matched while the activities
     * and then the sync groups are built */
    par_run(2, tail_worker, B);
    phase("activities, messages, groups");

    if (n) {
        s->t_min = INT64_MAX;
        s->t_max = INT64_MIN;
        for (uint32_t l = 0; l < s->nloc; l++)
            if (s->locs[l].count && s->ts[s->locs[l].first] < s->t_min) s->t_min = s->ts[s->locs[l].first];
        for (uint32_t a = 0; a < s->nact; a++)
            if (s->acts[a].nev && s->acts[a].last_end > s->t_max) s->t_max = s->acts[a].last_end;
    }

    for (size_t b = 0; b < nb; b++) {
        free(B->nremap[b]);
        free(B->lremap[b]);
        free(B->sremap[b]);
        free(B->xremap[b]);
        free(B->kremap[b]);
        free(B->premap[b]);
        free(B->ploc[b]);
        free(B->start[b]);
        free(B->dest[b]);
    }
    free(B->sremap);
    free(B->nremap);
    free(B->lremap);
    free(B->xremap);
    free(B->kremap);
    free(B->premap);
    free(B->ploc);
    free(B->start);
    free(B->dest);
    xfree_big(B->pair, (n ? n : 1) * sizeof(uint32_t));
    free(B->gp_loc);
    free(B->gp_act);
    free(B->uf);
    free(B->loc_of_sid);
    km_free(&B->pairs);
    strtab_free(&B->xnames);
    free(B->alias);
    s->t_build = now_sec() - t0;
    return s;
}
