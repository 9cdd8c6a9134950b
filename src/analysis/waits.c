/*
 * waits.c — wait states with their culprits; see waits.h and
 * doc/ANALYSES.md (the formulas, after Scalasca's pattern definitions).
 */
#include "waits.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/report.h"
#include "base/out.h"
#include "base/timeparse.h"
#include "base/util.h"

const char *const WAIT_PATTERN_NAMES[W__N] = {"late_sender", "late_receiver", "wait_at_barrier", "barrier_completion",
                                              "wait_at_nxn", "late_broadcast", "early_reduce", "finish_wait"};

static const char *const WAIT_TITLES[W__N] = {
    "late sender (a receive waits for its send)",
    "late receiver (a synchronous send waits for its receive)",
    "wait at barrier (until the last one arrives)",
    "barrier completion (until the last one leaves)",
    "wait at N x N collective (until the last one arrives)",
    "late broadcast (waiting for the root)",
    "early reduce (the root waits for the others)",
    "finish wait (a finish waits for the last activity it governs)",
};

static inline bool selected(const uint64_t *sel, size_t e) { return !sel || ((sel[e >> 6] >> (e & 63)) & 1); }

/* an instance: the wait [a, a + ns) at victim event ev, clipped to the window */
static void add(const Store *s, Waits *w, WaitPattern p, uint32_t ev, int64_t a, int64_t ns, uint32_t cev)
{
    uint32_t culprit = cev != NONE32 ? s->loc[cev] : NONE32;
    if (ns <= 0) return;
    int64_t b = a + ns;
    if (a < w->t0) a = w->t0;
    if (b > w->t1) b = w->t1;
    if (b <= a) return;
    ns = b - a;
    WaitPat *P = &w->p[p];
    uint32_t loc = s->loc[ev];
    P->total = sat_add64(P->total, ns);
    P->count++;
    P->by_loc[loc] = sat_add64(P->by_loc[loc], ns);
    if (culprit != NONE32) P->by_culprit[culprit] = sat_add64(P->by_culprit[culprit], ns);
    /* the worst, longest first (ties: earlier first) */
    WaitInst in = {a, ns, loc, culprit, ev, cev};
    WaitInst *L = &P->worst_by_loc[loc];
    if (ns > L->ns || (ns == L->ns && a < L->ts)) *L = in;
    int k = P->nworst;
    if (k == WAIT_WORST) {
        if (ns <= P->worst[k - 1].ns) return;
        k--;
    } else {
        P->nworst++;
    }
    while (k > 0 && (P->worst[k - 1].ns < ns || (P->worst[k - 1].ns == ns && P->worst[k - 1].ts > a))) {
        P->worst[k] = P->worst[k - 1];
        k--;
    }
    P->worst[k] = in;
}

static int64_t clip(int64_t v, int64_t hi) { return v < 0 ? 0 : v > hi ? hi : v; }

static bool has_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; *p; p++)
        if (!strncasecmp(p, needle, n)) return true;
    return false;
}

/* what kind of synchronisation a group is, from its events' name (or the
 * group's label) */
enum { G_BARRIER, G_NXN, G_BCAST, G_REDUCE };
static int group_kind(const char *name, const char *label)
{
    const char *t = name && *name ? name : label;
    if (has_ci(t, "barrier") || (label && has_ci(label, "barrier"))) return G_BARRIER;
    if (has_ci(t, "reduce_scatter") || has_ci(t, "allreduce") || has_ci(t, "allgather") || has_ci(t, "alltoall") ||
        has_ci(t, "scan"))
        return G_NXN;
    if (has_ci(t, "bcast") || has_ci(t, "broadcast") || has_ci(t, "scatter")) return G_BCAST;
    if (has_ci(t, "reduce") || has_ci(t, "gather")) return G_REDUCE;
    if (has_ci(t, "mpi_")) return G_NXN;
    return G_BARRIER;
}

/* the location a collective event names as its root (the string field
 * root, a location label), NONE32 when it names none */
static uint32_t root_of(const Store *s, const Column *rc, uint32_t ev)
{
    uint32_t sid;
    int64_t iv;
    char buf[32];
    const char *t;
    if (!rc) return NONE32;
    if (col_get_s(rc, ev, &sid)) t = store_str(s, sid);
    else if (col_get_i(rc, ev, &iv)) {
        snprintf(buf, sizeof buf, "%" PRId64, iv);
        t = buf;
    } else {
        return NONE32;
    }
    for (uint32_t l = 0; l < s->nloc; l++)
        if (!strcmp(loc_label(s, l), t)) return l;
    return NONE32;
}

/* the later of two events (NONE32: none): later start, then later number */
static uint32_t later(const Store *s, uint32_t a, uint32_t b)
{
    if (a == NONE32) return b;
    if (b == NONE32) return a;
    if (s->ts[a] != s->ts[b]) return s->ts[a] > s->ts[b] ? a : b;
    return a > b ? a : b;
}

void syncctx_init(const Store *s, SyncCtx *c)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->root = store_column(s, "root");
    uint32_t na = s->nact;
    c->last_sub = xmalloc(((size_t)na + 1) * sizeof(uint32_t));
    c->child_off = xcalloc((size_t)na + 2, sizeof(uint32_t));
    c->child = xmalloc(((size_t)na + 1) * sizeof(uint32_t));
    uint32_t *left = xcalloc((size_t)na + 1, sizeof(uint32_t)); /* children not yet done */
    for (uint32_t a = 0; a < na; a++) {
        c->last_sub[a] = s->acts[a].end_ev;
        uint32_t p = s->acts[a].parent;
        if (p != NONE32 && p < na && p != a) {
            c->child_off[p + 1]++;
            left[p]++;
        }
    }
    for (uint32_t a = 0; a < na; a++) c->child_off[a + 1] += c->child_off[a];
    uint32_t *fill = xmalloc(((size_t)na + 1) * sizeof(uint32_t));
    memcpy(fill, c->child_off, (size_t)na * sizeof(uint32_t));
    for (uint32_t a = 0; a < na; a++) {
        uint32_t p = s->acts[a].parent;
        if (p != NONE32 && p < na && p != a) c->child[fill[p]++] = a;
    }
    /* the latest end below each activity: leaves first, each activity once
     * all its children are done (an activity on a cycle of parents, which
     * bad input may make, keeps what it has) */
    uint32_t *queue = fill, qh = 0, qt = 0;
    for (uint32_t a = 0; a < na; a++)
        if (!left[a]) queue[qt++] = a;
    while (qh < qt) {
        uint32_t a = queue[qh++], p = s->acts[a].parent;
        if (p == NONE32 || p >= na || p == a) continue;
        c->last_sub[p] = later(s, c->last_sub[p], c->last_sub[a]);
        if (!--left[p]) queue[qt++] = p;
    }
    free(queue);
    free(left);
}

void syncctx_free(SyncCtx *c)
{
    free(c->last_sub);
    free(c->child_off);
    free(c->child);
    memset(c, 0, sizeof *c);
}

void syncdef_group(const SyncCtx *c, uint32_t g, SyncDef *d)
{
    const Store *s = c->s;
    const SyncGroup *G = &s->groups[g];
    const uint32_t *ev = s->group_ev + G->ev_off;
    memset(d, 0, sizeof *d);
    d->culprit = d->root_ev = NONE32;
    d->last_arr = INT64_MIN;
    d->first_exit = INT64_MAX;
    uint32_t first_sync = NONE32, last_sync = NONE32, last_any = NONE32, last_end = NONE32;
    for (uint32_t k = 0; k < G->nev; k++) {
        uint32_t e = ev[k];
        last_any = later(s, last_any, e);
        if (s->kind[e] == K_END) last_end = later(s, later(s, last_end, e), c->last_sub[s->act[e]]);
        if (s->kind[e] != K_SYNC) continue;
        d->nsync++;
        if (first_sync == NONE32) first_sync = e;
        last_sync = later(s, last_sync, e);
        if (ev_end(s, e) < d->first_exit) d->first_exit = ev_end(s, e);
    }
    if (last_sync != NONE32) d->last_arr = s->ts[last_sync];
    if (last_end != NONE32) {
        d->kind = SG_FINISH;
        d->culprit = last_end;
        return;
    }
    d->culprit = last_sync != NONE32 ? last_sync : last_any;
    if (first_sync == NONE32) return;
    char gb[48];
    const char *label = report_group_label(s, G, gb, sizeof gb);
    const char *name = s->name[first_sync] != NONE32 ? store_str(s, s->name[first_sync]) : NULL;
    int gk = group_kind(name, label);
    d->kind = gk == G_BARRIER ? SG_BARRIER : SG_NXN;
    if (gk != G_BCAST && gk != G_REDUCE) return;
    uint32_t root = root_of(s, c->root, first_sync);
    for (uint32_t k = 0; k < G->nev && root != NONE32; k++)
        if (s->kind[ev[k]] == K_SYNC && s->loc[ev[k]] == root) d->root_ev = ev[k];
    if (d->root_ev == NONE32) return; /* (without a root: every one waits for the last, N×N) */
    if (gk == G_BCAST) {
        d->kind = SG_BCAST;
        d->culprit = d->root_ev;
        return;
    }
    d->kind = SG_REDUCE;
    d->culprit = NONE32;
    for (uint32_t k = 0; k < G->nev; k++)
        if (s->kind[ev[k]] == K_SYNC && ev[k] != d->root_ev) d->culprit = later(s, d->culprit, ev[k]);
    if (d->culprit == NONE32) d->culprit = d->root_ev;
}

bool syncdef_arrival_wait(const SyncCtx *c, const SyncDef *d, uint32_t e, WaitPattern *p, int64_t *ns, uint32_t *cev)
{
    const Store *s = c->s;
    *ns = 0;
    *cev = d->culprit;
    if (s->kind[e] != K_SYNC || d->culprit == NONE32) return false;
    switch (d->kind) {
    case SG_FINISH:
        *p = W_FINISH;
        *ns = clip(s->ts[d->culprit] - s->ts[e], s->dur[e]);
        return true;
    case SG_BCAST:
        if (e == d->root_ev) return false;
        *p = W_LATE_BCAST;
        *ns = clip(s->ts[d->root_ev] - s->ts[e], s->dur[e]);
        return true;
    case SG_REDUCE:
        if (e != d->root_ev || d->culprit == e) return false;
        *p = W_EARLY_REDUCE;
        *ns = clip(s->ts[d->culprit] - s->ts[e], s->dur[e]);
        return true;
    default:
        if (d->nsync < 2 || e == d->culprit) return false;
        *p = d->kind == SG_BARRIER ? W_BARRIER : W_NXN;
        *ns = clip(d->last_arr - s->ts[e], s->dur[e]);
        return true;
    }
}

int64_t syncdef_completion(const SyncCtx *c, const SyncDef *d, uint32_t e, int64_t *ns)
{
    const Store *s = c->s;
    *ns = 0;
    if (s->kind[e] != K_SYNC || d->nsync < 2 || (d->kind != SG_BARRIER && d->kind != SG_NXN)) return s->ts[e];
    int64_t a = s->ts[e];
    if (d->last_arr > a) a = d->last_arr;
    if (d->first_exit > a) a = d->first_exit;
    int64_t x = ev_end(s, e);
    if (x > a) *ns = x - a;
    return a;
}

void syncdef_finish_extra(const SyncCtx *c, uint32_t g, uint32_t *mark, uint32_t stamp, U32Vec *out)
{
    const Store *s = c->s;
    const SyncGroup *G = &s->groups[g];
    const uint32_t *ev = s->group_ev + G->ev_off;
    U32Vec st = {0};
    /* the governed activities are marked first: their ends are in the group */
    for (uint32_t k = 0; k < G->nev; k++) {
        uint32_t e = ev[k];
        if (s->kind[e] != K_END || mark[s->act[e]] == stamp) continue;
        mark[s->act[e]] = stamp;
        VEC_PUSH(st, s->act[e]);
    }
    while (st.len) {
        uint32_t a = st.v[--st.len];
        for (uint32_t i = c->child_off[a]; i < c->child_off[a + 1]; i++) {
            uint32_t ch = c->child[i];
            if (mark[ch] == stamp) continue;
            mark[ch] = stamp;
            VEC_PUSH(st, ch);
            if (s->acts[ch].end_ev != NONE32) VEC_PUSH(*out, s->acts[ch].end_ev);
        }
    }
    VEC_FREE(st);
}

void waits_compute(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1, Waits *w)
{
    memset(w, 0, sizeof *w);
    w->t0 = t0;
    w->t1 = t1;
    for (int p = 0; p < W__N; p++) {
        w->p[p].by_loc = xcalloc((size_t)s->nloc + 1, sizeof(int64_t));
        w->p[p].by_culprit = xcalloc((size_t)s->nloc + 1, sizeof(int64_t));
        w->p[p].worst_by_loc = xcalloc((size_t)s->nloc + 1, sizeof(WaitInst));
    }
    /* late receiver: per synchronous send */
    for (uint32_t i = 0; i < s->nev_msg; i++) {
        uint32_t e = s->ev_msg[i].ev;
        const Message *M = &s->msgs[s->ev_msg[i].idx];
        if (s->kind[e] != K_SEND || s->dur[e] <= 0 || !selected(sel, e) || M->send_ev != e || M->recv_ev == NONE32 ||
            M->recv_ev == e)
            continue;
        add(s, w, W_LATE_RECEIVER, e, s->ts[e], clip(s->ts[M->recv_ev] - s->ts[e], s->dur[e]), M->recv_ev);
    }
    /* late sender: per waiting call (report.h: the receives of an activity
     * at a location that start together), once, for its latest send */
    for (uint32_t A = 0; A < s->nact; A++) {
        size_t lo = s->act_off[A], hi = s->act_off[A + 1];
        for (size_t i = lo; i < hi;) {
            size_t j = i;
            int64_t ts = s->ts[s->act_ev[i]];
            while (j < hi && s->ts[s->act_ev[j]] == ts) j++;
            size_t first = SIZE_MAX; /* the block's first receive */
            for (size_t k = i; k < j; k++) {
                uint32_t e = s->act_ev[k];
                if (s->kind[e] != K_RECV || s->dur[e] <= 0) continue;
                /* the first receive of its call (at its location) only */
                if (first == SIZE_MAX) {
                    first = k;
                } else {
                    if (s->loc[e] == s->loc[s->act_ev[first]]) continue;
                    size_t f = first; /* (the activity at several locations at once: rare) */
                    while (f < k && !(s->kind[s->act_ev[f]] == K_RECV && s->dur[s->act_ev[f]] > 0 &&
                                      s->loc[s->act_ev[f]] == s->loc[e]))
                        f++;
                    if (f != k) continue;
                }
                RecvCall rc;
                report_recv_call(s, A, k, sel, NULL, INT64_MAX, false, &rc);
                if (!rc.selected || rc.send_ev == NONE32) continue;
                add(s, w, W_LATE_SENDER, rc.recv_ev, rc.start, clip(s->ts[rc.send_ev] - rc.start, rc.dur), rc.send_ev);
            }
            i = j;
        }
    }
    /* groups: the sync instances' waits on arrival, and barrier completion */
    SyncCtx C;
    syncctx_init(s, &C);
    for (uint32_t g = 0; g < s->ngroups; g++) {
        const SyncGroup *G = &s->groups[g];
        const uint32_t *ev = s->group_ev + G->ev_off;
        SyncDef d;
        syncdef_group(&C, g, &d);
        for (uint32_t k = 0; k < G->nev; k++) {
            uint32_t e = ev[k], cev;
            if (s->kind[e] != K_SYNC || !selected(sel, e)) continue;
            WaitPattern p;
            int64_t ns;
            if (syncdef_arrival_wait(&C, &d, e, &p, &ns, &cev)) add(s, w, p, e, s->ts[e], ns, cev);
            /* (the first to leave is the culprit of nothing: NONE32) */
            int64_t a = syncdef_completion(&C, &d, e, &ns);
            if (ns > 0) add(s, w, W_BARRIER_COMPLETION, e, a, ns, NONE32);
        }
    }
    syncctx_free(&C);
}

void waits_free(Waits *w)
{
    for (int p = 0; p < W__N; p++) {
        free(w->p[p].by_loc);
        free(w->p[p].by_culprit);
        free(w->p[p].worst_by_loc);
    }
    memset(w, 0, sizeof *w);
}

static _Thread_local const int64_t *tl_v; /* (qsort has no context argument) */
static int rank_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, z = *(const uint32_t *)b;
    if (tl_v[x] != tl_v[z]) return tl_v[x] > tl_v[z] ? -1 : 1;
    return x < z ? -1 : x > z;
}

/* locations with a non-zero value, largest first (ties: location order) */
static uint32_t *ranked(const Store *s, const int64_t *v, uint32_t *n)
{
    uint32_t *o = xmalloc(((size_t)s->nloc + 1) * sizeof *o), m = 0;
    for (uint32_t l = 0; l < s->nloc; l++)
        if (v[l] > 0) o[m++] = l;
    tl_v = v;
    if (m > 1) qsort(o, m, sizeof *o, rank_cmp);
    *n = m;
    return o;
}

void waits_print_json(FILE *f, const Store *s, const Waits *w)
{
    fputs("{\"patterns\":[", f);
    for (int p = 0; p < W__N; p++) {
        const WaitPat *P = &w->p[p];
        fprintf(f, "%s{\"pattern\":\"%s\",\"total_ns\":%" PRId64 ",\"instances\":%" PRIu64 ",\"by_loc\":[", p ? "," : "",
                WAIT_PATTERN_NAMES[p], P->total, P->count);
        for (int side = 0; side < 2; side++) {
            const int64_t *v = side ? P->by_culprit : P->by_loc;
            uint32_t n, *o = ranked(s, v, &n);
            for (uint32_t i = 0; i < n; i++) {
                fputs(i ? ",{\"loc\":" : "{\"loc\":", f);
                report_json_loc(f, s, o[i]);
                fprintf(f, ",\"ns\":%" PRId64 "}", v[o[i]]);
            }
            free(o);
            fputs(side ? "],\"worst\":[" : "],\"by_culprit\":[", f);
        }
        for (int i = 0; i < P->nworst; i++) {
            const WaitInst *I = &P->worst[i];
            fprintf(f, "%s{\"ts\":%" PRId64 ",\"loc\":", i ? "," : "", I->ts);
            report_json_loc(f, s, I->loc);
            fprintf(f, ",\"ns\":%" PRId64 ",\"culprit\":", I->ns);
            report_json_loc(f, s, I->culprit);
            fputc('}', f);
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
}

void waits_print_text(FILE *f, const Store *s, const Waits *w, int top)
{
    char a[32], b[32];
    bool any = false;
    for (int p = 0; p < W__N; p++) {
        const WaitPat *P = &w->p[p];
        if (!P->total) continue;
        any = true;
        fprintf(f, "%s: %s in %" PRIu64 " instance%s\n", WAIT_TITLES[p], format_dur(a, sizeof a, P->total), P->count,
                P->count == 1 ? "" : "s");
        for (int side = 0; side < 2; side++) {
            const int64_t *v = side ? P->by_culprit : P->by_loc;
            uint32_t n, *o = ranked(s, v, &n);
            if (n) fprintf(f, "  %-28s", side ? "caused by (culprit):" : "waited at (victim):");
            uint32_t shown = top > 0 && (uint32_t)top < n ? (uint32_t)top : n;
            for (uint32_t i = 0; i < shown; i++)
                fprintf(f, "%s%s %s (%.0f%%)", i ? ", " : "", loc_label(s, o[i]), format_dur(a, sizeof a, v[o[i]]),
                        100.0 * (double)v[o[i]] / (double)P->total);
            if (shown < n) fprintf(f, ", %u more", n - shown);
            if (n) fputc('\n', f);
            free(o);
        }
        fprintf(f, "  worst:\n");
        for (int i = 0; i < P->nworst && (top <= 0 || i < top); i++) {
            const WaitInst *I = &P->worst[i];
            fprintf(f, "    at %-14s %-16s waited %s", format_dur(a, sizeof a, I->ts - s->t_min), loc_label(s, I->loc),
                    format_dur(b, sizeof b, I->ns));
            if (I->culprit != NONE32) fprintf(f, " for %s", loc_label(s, I->culprit));
            fputc('\n', f);
        }
    }
    if (!any) fputs("no wait states: nobody waited for anybody (in the selection and window)\n", f);
}
