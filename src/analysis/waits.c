/*
 * waits.c — wait states with their culprits; see waits.h and
 * doc/ANALYSES.md (the formulas, after Scalasca's pattern definitions).
 */
#include "waits.h"

#include <inttypes.h>
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
    /* point to point: per receive (a wait-all over several: the latest
     * send), per synchronous send */
    for (uint32_t i = 0; i < s->nev_msg;) {
        uint32_t e = s->ev_msg[i].ev, j = i;
        int64_t latest = INT64_MIN;
        uint32_t culprit = NONE32;
        bool recv = s->kind[e] == K_RECV && s->dur[e] > 0 && selected(sel, e);
        bool ssend = s->kind[e] == K_SEND && s->dur[e] > 0 && selected(sel, e);
        for (; j < s->nev_msg && s->ev_msg[j].ev == e; j++) {
            const Message *M = &s->msgs[s->ev_msg[j].idx];
            if (M->send_ev == NONE32 || M->recv_ev == NONE32 || M->send_ev == M->recv_ev) continue;
            if (recv && M->recv_ev == e && s->ts[M->send_ev] > latest) {
                latest = s->ts[M->send_ev];
                culprit = M->send_ev; /* (the culprit's event) */
            }
            if (ssend && M->send_ev == e)
                add(s, w, W_LATE_RECEIVER, e, s->ts[e], clip(s->ts[M->recv_ev] - s->ts[e], s->dur[e]), M->recv_ev);
        }
        if (recv && culprit != NONE32) add(s, w, W_LATE_SENDER, e, s->ts[e], clip(latest - s->ts[e], s->dur[e]), culprit);
        i = j;
    }
    /* groups */
    const Column *rc = store_column(s, "root");
    for (uint32_t g = 0; g < s->ngroups; g++) {
        const SyncGroup *G = &s->groups[g];
        const uint32_t *ev = s->group_ev + G->ev_off;
        uint32_t nsync = 0, last_end_ev = NONE32, first_sync = NONE32;
        int64_t last_arr = INT64_MIN, first_exit = INT64_MAX;
        uint32_t last_arr_ev = NONE32;
        for (uint32_t k = 0; k < G->nev; k++) {
            uint32_t e = ev[k];
            if (s->kind[e] == K_END && (last_end_ev == NONE32 || s->ts[e] >= s->ts[last_end_ev])) last_end_ev = e;
            if (s->kind[e] != K_SYNC) continue;
            nsync++;
            if (first_sync == NONE32) first_sync = e;
            if (s->ts[e] >= last_arr) {
                last_arr = s->ts[e];
                last_arr_ev = e;
            }
            if (ev_end(s, e) < first_exit) first_exit = ev_end(s, e);
        }
        if (last_end_ev != NONE32) {
            /* a finish: its sync waits for the last activity's end */
            for (uint32_t k = 0; k < G->nev; k++) {
                uint32_t e = ev[k];
                if (s->kind[e] != K_SYNC || !selected(sel, e)) continue;
                add(s, w, W_FINISH, e, s->ts[e], clip(s->ts[last_end_ev] - s->ts[e], s->dur[e]), last_end_ev);
            }
            continue;
        }
        if (nsync < 2) continue;
        char gb[48];
        const char *label = NULL;
        if (G->type == VT_STR) label = store_str(s, G->sid);
        else {
            snprintf(gb, sizeof gb, "%" PRId64, G->ival);
            label = gb;
        }
        const char *name = s->name[first_sync] != NONE32 ? store_str(s, s->name[first_sync]) : NULL;
        int gk = group_kind(name, label);
        if (gk == G_BCAST || gk == G_REDUCE) {
            uint32_t root = root_of(s, rc, first_sync), root_ev = NONE32;
            for (uint32_t k = 0; k < G->nev && root != NONE32; k++)
                if (s->kind[ev[k]] == K_SYNC && s->loc[ev[k]] == root) root_ev = ev[k];
            if (root_ev == NONE32) {
                gk = G_NXN; /* (without a root: every one waits for the last) */
            } else if (gk == G_BCAST) {
                for (uint32_t k = 0; k < G->nev; k++) {
                    uint32_t e = ev[k];
                    if (s->kind[e] != K_SYNC || e == root_ev || !selected(sel, e)) continue;
                    add(s, w, W_LATE_BCAST, e, s->ts[e], clip(s->ts[root_ev] - s->ts[e], s->dur[e]), root_ev);
                }
                continue;
            } else {
                int64_t last = INT64_MIN;
                uint32_t last_ev = NONE32;
                for (uint32_t k = 0; k < G->nev; k++) {
                    uint32_t e = ev[k];
                    if (s->kind[e] != K_SYNC || e == root_ev) continue;
                    if (s->ts[e] >= last) {
                        last = s->ts[e];
                        last_ev = e;
                    }
                }
                if (last_ev != NONE32 && selected(sel, root_ev))
                    add(s, w, W_EARLY_REDUCE, root_ev, s->ts[root_ev], clip(last - s->ts[root_ev], s->dur[root_ev]),
                        last_ev);
                continue;
            }
        }
        WaitPattern arrive = gk == G_BARRIER ? W_BARRIER : W_NXN;
        for (uint32_t k = 0; k < G->nev; k++) {
            uint32_t e = ev[k];
            if (s->kind[e] != K_SYNC || !selected(sel, e)) continue;
            if (e != last_arr_ev) add(s, w, arrive, e, s->ts[e], clip(last_arr - s->ts[e], s->dur[e]), last_arr_ev);
            /* completion: from the first exit to its own (the first to leave
             * is the culprit of nothing: NONE32) */
            int64_t ex = ev_end(s, e);
            if (ex > first_exit) add(s, w, W_BARRIER_COMPLETION, e, first_exit, ex - first_exit, NONE32);
        }
    }
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
