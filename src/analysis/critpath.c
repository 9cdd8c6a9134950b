/*
 * critpath.c — the critical path; see critpath.h and doc/ANALYSES.md.
 */
#include "critpath.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/waits.h"
#include "base/out.h"
#include "base/timeparse.h"
#include "base/util.h"

static inline bool selected(const uint64_t *sel, size_t e) { return !sel || ((sel[e >> 6] >> (e & 63)) & 1); }

static bool is_interval(const Store *s, uint32_t e) { return (s->flags[e] & EVF_DUR) && s->kind[e] != K_MSG; }

typedef struct {
    uint32_t act;
    int64_t a, b;
} Span;

/* the innermost selected interval of each visited activity, as change
 * points (time, event or NONE32, location) */
typedef struct {
    uint32_t *off, *len; /* per activity; off NONE32: not built */
    VEC(int64_t) t;
    VEC(uint32_t) ev;
    VEC(uint32_t) loc;
} Timelines;

typedef struct {
    const Store *s;
    const uint64_t *sel;
    int64_t t0, t1;
    SyncCtx sc;
    SyncDef *gdef;   /* per group: what a sync instance is (waits.h), computed when first needed */
    uint8_t *gdone;
    /* the last waiting call looked at (its receives are met one by one) */
    uint32_t call_act, call_loc;
    int64_t call_ts, call_t;
    uint32_t call_dep;
} Walk;

static void tl_emit(Timelines *T, size_t base, int64_t t, uint32_t ev, uint32_t loc)
{
    size_t n = T->t.len;
    if (n > base && T->t.v[n - 1] == t) {
        T->ev.v[n - 1] = ev;
        T->loc.v[n - 1] = loc;
        return;
    }
    if (n > base && T->ev.v[n - 1] == ev && T->loc.v[n - 1] == loc) return;
    VEC_PUSH(T->t, t);
    VEC_PUSH(T->ev, ev);
    VEC_PUSH(T->loc, loc);
}

static void tl_build(const Walk *W, Timelines *T, uint32_t A)
{
    const Store *s = W->s;
    size_t base = T->t.len;
    VEC(uint32_t) st = {0};
    for (uint32_t k = s->act_off[A]; k < s->act_off[A + 1]; k++) {
        uint32_t e = s->act_ev[k];
        if (!is_interval(s, e) || !selected(W->sel, e)) continue;
        while (st.len && ev_end(s, st.v[st.len - 1]) <= s->ts[e]) {
            uint32_t x = st.v[--st.len];
            int64_t tt = ev_end(s, x);
            while (st.len && ev_end(s, st.v[st.len - 1]) <= tt) st.len--; /* (improper nesting) */
            tl_emit(T, base, tt, st.len ? st.v[st.len - 1] : NONE32, st.len ? s->loc[st.v[st.len - 1]] : s->loc[x]);
        }
        VEC_PUSH(st, e);
        tl_emit(T, base, s->ts[e], e, s->loc[e]);
    }
    while (st.len) {
        uint32_t x = st.v[--st.len];
        int64_t tt = ev_end(s, x);
        while (st.len && ev_end(s, st.v[st.len - 1]) <= tt) st.len--;
        tl_emit(T, base, tt, st.len ? st.v[st.len - 1] : NONE32, st.len ? s->loc[st.v[st.len - 1]] : s->loc[x]);
    }
    VEC_FREE(st);
    T->off[A] = (uint32_t)base;
    T->len[A] = (uint32_t)(T->t.len - base);
}

/* The dependency of the event at position k of activity A (e), reached at
 * time t: the remote event it waited for (its time is later than e's start
 * and earlier than t), or NONE32. A receive: the latest selected send of
 * its waiting call (report.h: a wait-all waits for its latest send) that
 * came while the call lasted; a synchronous send: its receive, likewise; a
 * sync: what it waited for on arrival (waits.h: the last to arrive, the
 * root, a finish's last participant end), when selected. */
static uint32_t dependency(Walk *W, uint32_t A, size_t k, int64_t t)
{
    const Store *s = W->s;
    uint32_t e = s->act_ev[k];
    uint16_t kind = s->kind[e];
    if (kind == K_RECV) {
        if (s->dur[e] <= 0) return NONE32;
        if (W->call_act == A && W->call_loc == s->loc[e] && W->call_ts == s->ts[e] && W->call_t == t)
            return W->call_dep;
        RecvCall rc;
        report_recv_call(s, A, k, NULL, W->sel, t, true, &rc);
        W->call_act = A;
        W->call_loc = s->loc[e];
        W->call_ts = s->ts[e];
        W->call_t = t;
        W->call_dep = rc.send_ev;
        return rc.send_ev;
    }
    if (kind == K_SEND && s->dur[e] > 0) {
        uint32_t best = NONE32;
        size_t lo = 0, hi = s->nev_msg;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (s->ev_msg[mid].ev < e) lo = mid + 1;
            else hi = mid;
        }
        for (size_t j = lo; j < s->nev_msg && s->ev_msg[j].ev == e; j++) {
            const Message *M = &s->msgs[s->ev_msg[j].idx];
            uint32_t o = M->recv_ev;
            if (M->send_ev != e || o == NONE32 || o == e) continue;
            /* (the remote event came during the blocking call: a send
             * that ended before its receive began did not wait for it) */
            if (!selected(W->sel, o) || s->ts[o] <= s->ts[e] || s->ts[o] >= t || s->ts[o] > ev_end(s, e)) continue;
            if (best == NONE32 || s->ts[o] > s->ts[best]) best = o;
        }
        return best;
    }
    if (kind == K_SYNC) {
        uint32_t g = store_group_of(s, e);
        if (g == NONE32) return NONE32;
        if (!W->gdone[g]) {
            syncdef_group(&W->sc, g, &W->gdef[g]);
            W->gdone[g] = 1;
        }
        WaitPattern p;
        int64_t ns;
        uint32_t o;
        if (!syncdef_arrival_wait(&W->sc, &W->gdef[g], e, &p, &ns, &o) || ns <= 0 || o == NONE32) return NONE32;
        if (!selected(W->sel, o) || s->ts[o] <= s->ts[e] || s->ts[o] >= t || s->ts[o] > ev_end(s, e)) return NONE32;
        return o;
    }
    return NONE32;
}

/* a segment's key in by_name: its name, else (an unnamed interval) nnames
 * + its kind, else (outside every interval) the last key */
static size_t cp_key(const Store *s, const CpSeg *g)
{
    if (g->name != NONE32) return g->name;
    if (g->ev != NONE32) return (size_t)s->nnames + s->kind[g->ev];
    return (size_t)s->nnames + K_USER + s->nukind;
}

const char *critpath_key_name(const Store *s, uint32_t key, char *buf, size_t sz)
{
    if (key == NONE32) return "(no interval)";
    if (key < s->nnames) return store_str(s, key);
    snprintf(buf, sz, "(%s)", kind_name(s, (uint16_t)(key - s->nnames)));
    return buf;
}

static int sum_cmp_ns(const CpSum *x, const CpSum *y) { return x->ns != y->ns ? (x->ns > y->ns ? -1 : 1) : 0; }

static _Thread_local const Store *tl_s; /* (qsort has no context argument) */
static int loc_sum_cmp(const void *a, const void *b)
{
    const CpSum *x = a, *y = b;
    int c = sum_cmp_ns(x, y);
    return c ? c : (x->key < y->key ? -1 : x->key > y->key);
}
static int name_sum_cmp(const void *a, const void *b)
{
    const CpSum *x = a, *y = b;
    int c = sum_cmp_ns(x, y);
    if (c) return c;
    if (x->key == y->key) return 0;
    if (x->key == NONE32) return 1;
    if (y->key == NONE32) return -1;
    char bx[64], by[64];
    return strcmp(critpath_key_name(tl_s, x->key, bx, sizeof bx), critpath_key_name(tl_s, y->key, by, sizeof by));
}

void critpath_compute(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1, CritPath *cp)
{
    memset(cp, 0, sizeof *cp);
    cp->t0 = t0;
    cp->t1 = t1;
    cp->end_ev = NONE32;
    /* the makespan and the last event, in the window */
    int64_t start = INT64_MAX, end = INT64_MIN;
    for (size_t e = 0; e < s->n; e++) {
        if (!selected(sel, e)) continue;
        if (!ev_in_window(s, e, t0, t1)) continue;
        int64_t a = s->ts[e], b = ev_end(s, e);
        if (a < t0) a = t0;
        if (b > t1) b = t1;
        if (a < start) start = a;
        if (b > end) {
            end = b;
            cp->end_ev = (uint32_t)e;
        }
    }
    if (cp->end_ev == NONE32) return;
    cp->start = start;
    cp->end = end;
    cp->makespan = end - start;

    Walk W = {.s = s, .sel = sel, .t0 = t0, .t1 = t1, .call_act = NONE32};
    syncctx_init(s, &W.sc);
    W.gdef = xmalloc(((size_t)s->ngroups + 1) * sizeof(SyncDef));
    W.gdone = xcalloc((size_t)s->ngroups + 1, 1);
    uint32_t *pos = xmalloc(((size_t)s->nact + 1) * sizeof *pos);
    for (uint32_t a = 0; a < s->nact; a++) pos[a] = s->act_off[a + 1];
    VEC(Span) spans = {0};
    uint32_t A = s->act[cp->end_ev];
    int64_t t = end;
    while (A != NONE32 && t > start) {
        uint32_t k = pos[A], dep = NONE32;
        while (k > s->act_off[A]) {
            uint32_t e = s->act_ev[--k];
            if (s->ts[e] >= t || !selected(sel, e)) continue;
            dep = dependency(&W, A, k, t);
            if (dep != NONE32) break;
        }
        pos[A] = k;
        if (dep != NONE32) {
            int64_t tb = s->ts[dep] > start ? s->ts[dep] : start;
            Span sp = {A, tb, t};
            if (tb < t) VEC_PUSH(spans, sp);
            A = s->act[dep];
            t = tb;
            cp->jumps++;
            continue;
        }
        /* the activity's beginning: its first event, or its spawn */
        const Activity *Ac = &s->acts[A];
        int64_t fa = s->act_off[A] < s->act_off[A + 1] ? s->ts[s->act_ev[s->act_off[A]]] : t;
        uint32_t sp_ev = Ac->spawn_ev;
        bool spawned = sp_ev != NONE32 && selected(sel, sp_ev) && s->act[sp_ev] != A && s->ts[sp_ev] < t;
        if (spawned && s->ts[sp_ev] < fa) fa = s->ts[sp_ev];
        if (fa < start) fa = start;
        if (fa < t) {
            Span sp = {A, fa, t};
            VEC_PUSH(spans, sp);
            t = fa;
        }
        if (!spawned || t <= start) break;
        A = s->act[sp_ev];
        cp->jumps++;
    }
    free(pos);
    free(W.gdef);
    free(W.gdone);
    syncctx_free(&W.sc);

    /* segments in time order: each span cut at its activity's innermost
     * intervals */
    Timelines T = {0};
    T.off = xmalloc(((size_t)s->nact + 1) * sizeof(uint32_t));
    T.len = xcalloc((size_t)s->nact + 1, sizeof(uint32_t));
    memset(T.off, 0xFF, ((size_t)s->nact + 1) * sizeof(uint32_t));
    VEC(CpSeg) segs = {0};
    for (size_t i = spans.len; i-- > 0;) {
        const Span *S = &spans.v[i];
        if (T.off[S->act] == NONE32) tl_build(&W, &T, S->act);
        const int64_t *pt = T.t.v + T.off[S->act];
        const uint32_t *pe = T.ev.v + T.off[S->act], *pl = T.loc.v + T.off[S->act];
        size_t n = T.len[S->act], lo = 0, hi = n;
        while (lo < hi) { /* the first point after a */
            size_t mid = (lo + hi) / 2;
            if (pt[mid] <= S->a) lo = mid + 1;
            else hi = mid;
        }
        int64_t a = S->a;
        uint32_t ev = lo ? pe[lo - 1] : NONE32, loc = lo ? pl[lo - 1] : s->acts[S->act].home;
        for (size_t j = lo; a < S->b; j++) {
            int64_t b = j < n && pt[j] < S->b ? pt[j] : S->b;
            if (b > a) {
                CpSeg *L = segs.len ? &segs.v[segs.len - 1] : NULL;
                if (L && L->act == S->act && L->ev == ev && L->loc == loc && L->ts + L->dur == a) {
                    L->dur += b - a;
                } else {
                    CpSeg g = {loc, S->act, ev != NONE32 ? s->name[ev] : NONE32, ev, a, b - a};
                    VEC_PUSH(segs, g);
                }
            }
            a = b;
            if (j < n) {
                ev = pe[j];
                loc = pl[j];
            }
        }
    }
    VEC_FREE(spans);
    free(T.off);
    free(T.len);
    VEC_FREE(T.t);
    VEC_FREE(T.ev);
    VEC_FREE(T.loc);
    cp->seg = segs.v;
    cp->nseg = segs.len;

    /* its composition */
    size_t nkeys = (size_t)s->nnames + K_USER + s->nukind + 1; /* names, unnamed by kind, outside */
    int64_t *bl = xcalloc((size_t)s->nloc + 1, sizeof *bl), *bn = xcalloc(nkeys, sizeof *bn);
    for (size_t i = 0; i < cp->nseg; i++) {
        const CpSeg *g = &cp->seg[i];
        cp->length += g->dur;
        bl[g->loc] += g->dur;
        bn[cp_key(s, g)] += g->dur;
    }
    cp->by_loc = xmalloc(((size_t)s->nloc + 1) * sizeof(CpSum));
    cp->by_name = xmalloc(nkeys * sizeof(CpSum));
    for (uint32_t l = 0; l < s->nloc; l++)
        if (bl[l]) cp->by_loc[cp->nby_loc++] = (CpSum){l, bl[l]};
    for (size_t m = 0; m < nkeys; m++)
        if (bn[m]) cp->by_name[cp->nby_name++] = (CpSum){m + 1 < nkeys ? (uint32_t)m : NONE32, bn[m]};
    free(bl);
    free(bn);
    tl_s = s;
    qsort(cp->by_loc, cp->nby_loc, sizeof(CpSum), loc_sum_cmp);
    qsort(cp->by_name, cp->nby_name, sizeof(CpSum), name_sum_cmp);
}

void critpath_free(CritPath *cp)
{
    free(cp->seg);
    free(cp->by_loc);
    free(cp->by_name);
    memset(cp, 0, sizeof *cp);
}

long critpath_seg_at(const CritPath *cp, int64_t t)
{
    size_t lo = 0, hi = cp->nseg;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cp->seg[mid].ts <= t) lo = mid + 1;
        else hi = mid;
    }
    return (long)lo - 1;
}

static const char *seg_name(const Store *s, const CpSeg *g, char *buf, size_t sz)
{
    return critpath_key_name(s, g->name != NONE32 || g->ev == NONE32 ? g->name : s->nnames + s->kind[g->ev], buf, sz);
}

static void json_key(FILE *f, const Store *s, uint32_t key)
{
    fputs("\"name\":", f);
    if (key != NONE32 && key < s->nnames) json_cstr(f, store_str(s, key));
    else fputs("null", f);
    fputs(",\"kind\":", f);
    if (key != NONE32 && key >= s->nnames) json_cstr(f, kind_name(s, (uint16_t)(key - s->nnames)));
    else fputs("null", f);
}

void critpath_print_json(FILE *f, const Store *s, const CritPath *cp)
{
    char ab[160];
    fprintf(f, "{\"length_ns\":%" PRId64 ",\"makespan_ns\":%" PRId64 ",\"start\":%" PRId64 ",\"end\":%" PRId64
               ",\"jumps\":%u,\"segments\":[",
            cp->length, cp->makespan, cp->start, cp->end, cp->jumps);
    for (size_t i = 0; i < cp->nseg; i++) {
        const CpSeg *g = &cp->seg[i];
        fputs(i ? ",{\"loc\":" : "{\"loc\":", f);
        report_json_loc(f, s, g->loc);
        fputs(",\"act\":", f);
        json_cstr(f, act_label(s, g->act, ab, sizeof ab));
        fputs(",\"name\":", f);
        if (g->name != NONE32) json_cstr(f, store_str(s, g->name));
        else fputs("null", f);
        fputs(",\"kind\":", f); /* the interval's kind (null: outside every interval) */
        if (g->ev != NONE32) json_cstr(f, kind_name(s, s->kind[g->ev]));
        else fputs("null", f);
        fprintf(f, ",\"ts\":%" PRId64 ",\"dur\":%" PRId64 "}", g->ts, g->dur);
    }
    fputs("],\"by_loc\":[", f);
    for (uint32_t i = 0; i < cp->nby_loc; i++) {
        fputs(i ? ",{\"loc\":" : "{\"loc\":", f);
        report_json_loc(f, s, cp->by_loc[i].key);
        fprintf(f, ",\"ns\":%" PRId64 "}", cp->by_loc[i].ns);
    }
    fputs("],\"by_name\":[", f);
    for (uint32_t i = 0; i < cp->nby_name; i++) {
        fputs(i ? ",{" : "{", f);
        json_key(f, s, cp->by_name[i].key);
        fprintf(f, ",\"ns\":%" PRId64 "}", cp->by_name[i].ns);
    }
    fputs("]}\n", f);
}

static _Thread_local const CpSeg *tl_seg;
static int seg_len_cmp(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (tl_seg[x].dur != tl_seg[y].dur) return tl_seg[x].dur > tl_seg[y].dur ? -1 : 1;
    return x < y ? -1 : x > y;
}
static int size_cmp(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

static double pct(int64_t a, int64_t b) { return b > 0 ? 100.0 * (double)a / (double)b : 0.0; }

void critpath_print_text(FILE *f, const Store *s, const CritPath *cp, int top)
{
    char a[32], b[32], ab[160], nb[80];
    if (cp->end_ev == NONE32 || !cp->makespan) {
        fputs(cp->end_ev == NONE32 ? "no critical path: no event in the selection and window\n"
                                   : "no critical path: the events in the selection and window take no time\n",
              f);
        return;
    }
    fprintf(f, "critical path  %s of a %s makespan (%.1f%%), %zu segment%s, %u dependenc%s followed\n",
            format_dur(a, sizeof a, cp->length), format_dur(b, sizeof b, cp->makespan), pct(cp->length, cp->makespan),
            cp->nseg, cp->nseg == 1 ? "" : "s", cp->jumps, cp->jumps == 1 ? "y" : "ies");
    fprintf(f, "ends at        %s on %s\n", format_dur(a, sizeof a, cp->end - s->t_min), loc_label(s, s->loc[cp->end_ev]));
    uint32_t n = top > 0 && (uint32_t)top < cp->nby_loc ? (uint32_t)top : cp->nby_loc;
    fprintf(f, "\n%-24s %12s %7s\n", "by location", "time", "share");
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, "%-24s %12s %6.1f%%\n", loc_label(s, cp->by_loc[i].key), format_dur(a, sizeof a, cp->by_loc[i].ns),
                pct(cp->by_loc[i].ns, cp->length));
    if (n < cp->nby_loc) fprintf(f, "(%u more)\n", cp->nby_loc - n);
    n = top > 0 && (uint32_t)top < cp->nby_name ? (uint32_t)top : cp->nby_name;
    fprintf(f, "\n%-24s %12s %7s\n", "by name (speed up first)", "time", "share");
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, "%-24s %12s %6.1f%%\n", critpath_key_name(s, cp->by_name[i].key, nb, sizeof nb), format_dur(a, sizeof a, cp->by_name[i].ns),
                pct(cp->by_name[i].ns, cp->length));
    if (n < cp->nby_name) fprintf(f, "(%u more)\n", cp->nby_name - n);
    /* the path: the longest segments, in time order */
    size_t m = top > 0 && (size_t)top < cp->nseg ? (size_t)top : cp->nseg;
    size_t *idx = xmalloc((cp->nseg + 1) * sizeof *idx);
    for (size_t i = 0; i < cp->nseg; i++) idx[i] = i;
    if (m < cp->nseg) {
        /* the m longest (ties: earlier), then in time order */
        tl_seg = cp->seg;
        qsort(idx, cp->nseg, sizeof *idx, seg_len_cmp);
        qsort(idx, m, sizeof *idx, size_cmp);
    }
    fprintf(f, "\n%s\n%-14s %-12s %-16s %-24s %12s\n",
            m < cp->nseg ? "the path's longest segments, in time order" : "the path, in time order", "at", "loc",
            "activity", "name", "time");
    for (size_t i = 0; i < m; i++) {
        const CpSeg *g = &cp->seg[idx[i]];
        fprintf(f, "%-14s %-12s %-16s %-24s %12s\n", format_dur(a, sizeof a, g->ts - s->t_min), loc_label(s, g->loc),
                act_label(s, g->act, ab, sizeof ab), seg_name(s, g, nb, sizeof nb), format_dur(b, sizeof b, g->dur));
    }
    if (m < cp->nseg) fprintf(f, "(%zu more segments: --top 0 lists them all)\n", cp->nseg - m);
    free(idx);
}
