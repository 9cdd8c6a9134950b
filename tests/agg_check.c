/*
 * agg_check.c — the aggregation checked against a direct computation.
 *
 *   agg_check --gen-tasks N FILE    write a task-runtime-like trace (N activities)
 *   agg_check --gen-locs N M FILE   write a trace of N locations and M messages
 *   agg_check --gen-far FILE        write a trace for the segments' escapes
 *   agg_check FILE...               check every trace
 *
 * Owns: a brute-force reference for the frames of busy, sync, events and
 * bytes (per location and per activity, grouped or not, every reducer,
 * with and without finer bins), for the communication matrix (grouped
 * sparse counts), and for the Gantt's instants and arrivals per cell; the
 * reference is computed from the events alone (the innermost interval of
 * an activity at time t is its open interval that started last), not from
 * the summary.
 * Invariants: no timing is measured or asserted; the run ends with
 * "agg-check: P passed, F failed" (exit 1 when F > 0).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "agg/agg.h"
#include "agg/agg_int.h" /* (the Gantt's lanes by time, checked directly) */
#include "filters/filter.h"
#include "load/load.h"
#include "store/store.h"
#include "base/util.h"

#include "check.h"

/* ---- generators (deterministic) ------------------------------------------------ */

static uint64_t g_rng = 0x9E3779B97F4A7C15ULL;
static uint32_t rnd(uint32_t n)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng % n);
}

static int gen_tasks(long nact, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return 2;
    const int nloc = 16;
    int64_t clock[16];
    for (int l = 0; l < nloc; l++) clock[l] = 1000000 + rnd(1000);
    fprintf(f, "ts,dur,loc,act,kind,name,peer,bytes,id,tag,group,file,line\n");
    long mid = 0;
    for (long a = 0; a < nact; a++) {
        int loc = (int)(a % nloc);
        int64_t t = clock[loc], cur = t + 50;
        int ne = 5 + (int)rnd(30);
        char body[1 << 16];
        size_t bl = 0;
        for (int k = 0; k < ne && bl < sizeof body - 512; k++) {
            uint32_t r = rnd(100);
            if (r < 10) {
                bl += (size_t)snprintf(body + bl, sizeof body - bl, "%" PRId64 ",,%d,t%ld,mark,n%u,,,,,,f.c,%u\n", cur, loc, a,
                                       rnd(50), rnd(100));
                cur += 10;
            } else if (r < 25) {
                int dst = (int)rnd(nloc);
                bl += (size_t)snprintf(body + bl, sizeof body - bl,
                                       "%" PRId64 ",200,%d,t%ld,send,MPI_Send,%d,%u,m%ld,0,,f.c,1\n", cur, loc, a, dst,
                                       64 + rnd(4096), mid);
                /* its receive, in an activity of its own at the destination */
                bl += (size_t)snprintf(body + bl, sizeof body - bl,
                                       "%" PRId64 ",300,%d,r%ld,recv,MPI_Recv,%d,%u,m%ld,0,,f.c,2\n", cur + 500 + rnd(3000),
                                       dst, a % 50, loc, 64u, mid);
                mid++;
                cur += 250;
            } else if (r < 32) {
                int d = 100 + (int)rnd(3000);
                bl += (size_t)snprintf(body + bl, sizeof body - bl, "%" PRId64 ",%d,%d,t%ld,sync,wait,,,,,finish-%ld,f.c,3\n",
                                       cur, d, loc, a, a / 8);
                cur += d + 10;
            } else {
                /* a state, maybe with nested children (some overlapping their parent's end) */
                int64_t d0 = cur, c = cur + 20;
                int nk = (int)rnd(4);
                char inner[2048];
                size_t il = 0;
                for (int j = 0; j < nk; j++) {
                    int d = 100 + (int)rnd(2000);
                    il += (size_t)snprintf(inner + il, sizeof inner - il, "%" PRId64 ",%d,%d,t%ld,state,n%u,,,,,,f.c,%d\n",
                                           c, d, loc, a, rnd(50), j);
                    c += d + 15;
                }
                c += 50 + rnd(500);
                int64_t dur = c - d0 - (rnd(10) == 0 ? 30 : 0); /* (sometimes not properly nested) */
                bl += (size_t)snprintf(body + bl, sizeof body - bl, "%" PRId64 ",%" PRId64 ",%d,t%ld,state,n%u,,,,,,f.c,9\n",
                                       d0, dur, loc, a, rnd(50));
                if (bl + il < sizeof body) {
                    memcpy(body + bl, inner, il);
                    bl += il;
                }
                cur = c + 10;
            }
        }
        fprintf(f, "%" PRId64 ",%" PRId64 ",%d,t%ld,state,task,,,,,,f.c,7\n", t, cur + 50 - t, loc, a);
        fwrite(body, 1, bl, f);
        /* activities at several locations (a move to another, then
         * events there): every 5th a state there too (a lane there; every
         * 10th's is short, so that the filtered summary has no lane
         * there), every 7th a mark (a location without a lane) */
        if (a % 5 == 0 || a % 7 == 0) {
            int l2 = (loc + 1 + (int)rnd(nloc - 1)) % nloc;
            int64_t tm = t + 60;
            fprintf(f, "%" PRId64 ",,%d,t%ld,move,,%d,64,,,,f.c,8\n", tm, loc, a, l2);
            if (a % 5 == 0)
                fprintf(f, "%" PRId64 ",%d,%d,t%ld,state,moved,,,,,,f.c,8\n", tm + 100 + rnd(500), a % 10 ? 100 + (int)rnd(2000) : 500, l2, a);
            else
                fprintf(f, "%" PRId64 ",,%d,t%ld,mark,elsewhere,,,,,,f.c,8\n", tm + 50, l2, a);
        }
        clock[loc] = cur + 50 + rnd(2000);
    }
    return fclose(f) ? 2 : 0;
}

static int gen_locs(long nloc, long nmsg, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return 2;
    fprintf(f, "ts,dur,loc,act,kind,name,peer,bytes,id,tag,group\n");
    for (long l = 0; l < nloc; l++) fprintf(f, "1000,%u,%ld,,state,main,,,,,\n", 5000000 + rnd(5000000), l);
    for (long m = 0; m < nmsg; m++) {
        long s = rnd((uint32_t)nloc), d = rnd((uint32_t)nloc - 1);
        d += d >= s;
        int64_t t = 2000 + rnd(9000000);
        fprintf(f, "%" PRId64 ",100,%ld,,send,MPI_Send,%ld,%u,%ld,0,\n", t, s, d, 8 + rnd(1000), m);
        fprintf(f, "%" PRId64 ",100,%ld,,recv,MPI_Recv,%ld,8,%ld,0,\n", t + 500, d, s, m);
    }
    return fclose(f) ? 2 : 0;
}

/* ---- the reference ---------------------------------------------------------------- */

static bool is_sel(const uint64_t *sel, size_t e) { return !sel || ((sel[e >> 6] >> (e & 63)) & 1); }

static bool cand(const Store *s, const uint64_t *sel, uint32_t e)
{
    return is_sel(sel, e) && (s->flags[e] & EVF_DUR) && s->dur[e] > 0 && s->kind[e] != K_MSG;
}

/* add the time of [x, y) to the finer bins bb[0..nb) of row `row`: acc[row * (nb - 1) + q] */
static void add_overlap(int64_t *acc, uint32_t row, const int64_t *bb, int nb, int64_t x, int64_t y)
{
    if (y <= bb[0] || x >= bb[nb - 1]) return;
    int lo = 0, hi = nb - 1; /* the last q with bb[q] <= x (or 0) */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (bb[mid] <= x) lo = mid;
        else hi = mid;
    }
    for (int q = lo; q < nb - 1 && bb[q] < y; q++) {
        int64_t a = x > bb[q] ? x : bb[q], b = y < bb[q + 1] ? y : bb[q + 1];
        if (b > a) acc[(size_t)row * (size_t)(nb - 1) + (size_t)q] += b - a;
    }
}

/* per base row and finer bin: the time the innermost interval of some
 * activity is a `kind` event (of that row) */
static void ref_busy(const Store *s, const uint64_t *sel, RowKind rk, uint16_t kind, const int64_t *bb, int nb, int64_t *acc)
{
    VEC(uint32_t) ev = {0};
    VEC(int64_t) pts = {0};
    for (uint32_t a = 0; a < s->nact; a++) {
        ev.len = pts.len = 0;
        for (uint32_t p = s->act_off[a]; p < s->act_off[a + 1]; p++) {
            uint32_t e = s->act_ev[p];
            if (!cand(s, sel, e)) continue;
            VEC_PUSH(ev, e);
            VEC_PUSH(pts, s->ts[e]);
            VEC_PUSH(pts, s->ts[e] + s->dur[e]);
        }
        if (!ev.len) continue;
        /* the change points, sorted (insertion sort: small) */
        for (size_t i = 1; i < pts.len; i++)
            for (size_t j = i; j > 0 && pts.v[j - 1] > pts.v[j]; j--) {
                int64_t x = pts.v[j];
                pts.v[j] = pts.v[j - 1];
                pts.v[j - 1] = x;
            }
        for (size_t i = 0; i + 1 < pts.len; i++) {
            int64_t x = pts.v[i], y = pts.v[i + 1];
            if (y <= x) continue;
            /* the innermost: the open interval that started last (the later in act order on ties) */
            uint32_t in = NONE32;
            for (size_t k = 0; k < ev.len; k++) {
                uint32_t e = ev.v[k];
                if (s->ts[e] <= x && s->ts[e] + s->dur[e] > x) in = e;
            }
            /* (busy: state and every user kind's intervals but idle's) */
            if (in == NONE32 || !(s->kind[in] == kind || (kind == K_STATE && s->kind[in] >= K_USER &&
                                                          strcasecmp(kind_name(s, s->kind[in]), "idle") != 0)))
                continue;
            add_overlap(acc, rk == ROWS_LOC ? s->loc[in] : a, bb, nb, x, y);
        }
    }
    VEC_FREE(ev);
    VEC_FREE(pts);
}

static double round3(double v)
{
    if (v == 0 || v != v || isinf(v)) return v;
    double q = pow(10, floor(log10(fabs(v))) - 2);
    return rint(v / q) * q;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double ref_reduce(Reducer r, double *v, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] == v[i]) v[k++] = v[i];
    if (!k) return NAN;
    double acc = 0, m = v[0];
    bool any = false;
    switch (r) {
    case RED_SUM:
    case RED_MEAN:
        for (size_t i = 0; i < k; i++) acc += v[i];
        return r == RED_SUM ? acc : acc / (double)k;
    case RED_MAX:
        for (size_t i = 0; i < k; i++) m = v[i] > m ? v[i] : m;
        return m;
    case RED_MINNZ:
        for (size_t i = 0; i < k; i++)
            if (v[i] != 0 && (!any || v[i] < acc)) acc = v[i], any = true;
        return any ? acc : 0;
    default: {
        for (size_t i = 0; i < k; i++) v[i] = round3(v[i]);
        qsort(v, k, sizeof(double), cmp_d);
        double best = v[0];
        size_t bn = 0;
        for (size_t i = 0; i < k;) {
            size_t j = i;
            while (j < k && v[j] == v[i]) j++;
            if (j - i >= bn) bn = j - i, best = v[i];
            i = j;
        }
        return best;
    }
    }
}

static bool same(double a, double b)
{
    if (a != a || b != b) return a != a && b != b;
    return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b)) + 1e-300;
}

/* ---- the checks ---------------------------------------------------------------------- */

static int g_pass, g_failed;

static void report(const char *what, int bad)
{
    if (bad) {
        printf("not ok - %s (%d cells differ)\n", what, bad);
        g_failed++;
    } else {
        printf("ok - %s\n", what);
        g_pass++;
    }
}

/* the status line's "N of M events" (summary_events_visible): the
 * selected events starting in [a, b), and per activity its intervals open
 * at a - 1 (its selected intervals swept in order with a stack: one ends
 * when it is innermost and its end has come, as the lanes do) */
static uint64_t ref_visible(const Store *s, const uint64_t *sel, int64_t a, int64_t b)
{
    uint64_t n = 0;
    for (size_t e = 0; e < s->n; e++) n += is_sel(sel, e) && s->ts[e] >= a && s->ts[e] < b;
    int64_t x = a - 1;
    uint32_t *stack = xmalloc((s->n + 1) * sizeof(uint32_t));
    for (uint32_t act = 0; act < s->nact; act++) {
        size_t len = 0;
        for (uint32_t p = s->act_off[act]; p <= s->act_off[act + 1]; p++) {
            uint32_t e = p < s->act_off[act + 1] ? s->act_ev[p] : NONE32;
            int64_t t = e == NONE32 || s->ts[e] > x ? x : s->ts[e];
            while (len) {
                int64_t end = ev_end(s, stack[len - 1]);
                if (end > t) break;
                len--;
                while (len && ev_end(s, stack[len - 1]) <= end) len--;
            }
            if (e == NONE32 || s->ts[e] > x) break;
            if (cand(s, sel, e)) stack[len++] = e;
        }
        n += len;
    }
    free(stack);
    return n;
}

/* the selected events starting in [a, b), counted directly */
static uint64_t ref_events_in(const Store *s, const uint64_t *sel, int64_t a, int64_t b)
{
    uint64_t n = 0;
    for (size_t e = 0; e < s->n; e++) n += is_sel(sel, e) && s->ts[e] >= a && s->ts[e] < b;
    return n;
}

/* the status line's count (summary_events_in from the summary's time
 * buckets, summary_events_visible) against the direct count: windows of a
 * twentieth of the trace, windows from one event's time to another's (both
 * ends on events, in crowded and sparse stretches alike), windows of a
 * nanosecond or two at events, and windows before, after and around the
 * whole trace */
static void check_visible(const char *name, const Store *s, const uint64_t *sel, Summary *S)
{
    int64_t span = s->t_max - s->t_min + 1;
    static const int64_t at[][2] = {{0, 1000}, {1, 3}, {1, 2}, {7, 10}, {333, 1000}, {999, 1000}};
    int bad = 0, badin = 0, nwin = 0;
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        int64_t a = s->t_min + (int64_t)((double)span * (double)at[i][0] / (double)at[i][1]);
        int64_t b = a + span / 20 + 1;
        uint64_t got = summary_events_visible(S, a, b), want = ref_visible(s, sel, a, b);
        nwin++;
        if (got != want) {
            printf("    events visible in [%" PRId64 ", %" PRId64 "): %" PRIu64 ", the reference %" PRIu64 "\n", a, b, got, want);
            bad++;
        }
    }
    /* the whole trace and just short of it (a window holding every event
     * is counted without the index: summary_events_in's shortcut) */
    const int64_t whole[][2] = {{s->t_min, s->t_max + 1}, {s->t_min - 5, s->t_max + 5}, {s->t_min, s->t_max},
                                {s->t_min + 1, s->t_max + 1}, {s->t_min - 1, s->t_max}};
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
        int64_t a = whole[i][0], b = whole[i][1];
        uint64_t got = summary_events_visible(S, a, b), want = ref_visible(s, sel, a, b);
        nwin++;
        if (got != want) {
            printf("    events visible in [%" PRId64 ", %" PRId64 "): %" PRIu64 ", the reference %" PRIu64 "\n", a, b, got, want);
            bad++;
        }
    }
    /* windows starting inside the deepest nesting (more open intervals
     * than a segment's byte holds: the depths' escapes) */
    for (size_t e = 0, m = 0; e < s->n && m < 16; e++) {
        if (s->depth[e] < SEG_DEEP || (e + 1 < s->n && s->depth[e + 1] > s->depth[e])) continue;
        int64_t a = s->ts[e] + 1, b = a + span / 20 + 1;
        uint64_t got = summary_events_visible(S, a, b), want = ref_visible(s, sel, a, b);
        nwin++, m++;
        if (got != want) {
            printf("    events visible in [%" PRId64 ", %" PRId64 "): %" PRIu64 ", the reference %" PRIu64 "\n", a, b, got, want);
            bad++;
        }
    }
    for (int k = 0; k < 400 && s->n; k++) {
        int64_t a, b;
        int kind = k % 4;
        if (kind == 0 || kind == 1) {
            a = s->ts[rnd((uint32_t)s->n)];
            b = s->ts[rnd((uint32_t)s->n)];
            if (kind == 1) a -= 1;
            if (b < a) {
                int64_t t = a;
                a = b;
                b = t;
            }
        } else if (kind == 2) {
            a = s->ts[rnd((uint32_t)s->n)] - (int64_t)rnd(2);
            b = a + 1 + (int64_t)rnd(2);
        } else {
            static const int64_t edge[][2] = {{-10, -1}, {-10, 0}, {-10, 1}, {0, 1}, {-1, 1 << 30}, {1 << 30, 1 << 31}};
            int j = (int)rnd(6);
            int64_t base = j < 4 ? s->t_min : s->t_max;
            a = base + edge[j][0];
            b = base + edge[j][1];
            if (j == 4) a = s->t_min - 5, b = s->t_max + 5;
        }
        uint64_t got = summary_events_in(S, a, b), want = ref_events_in(s, sel, a, b);
        nwin++;
        if (got != want) {
            if (badin < 5)
                printf("    events starting in [%" PRId64 ", %" PRId64 "): %" PRIu64 ", directly %" PRIu64 "\n", a, b, got, want);
            badin++;
        }
    }
    char what[300];
    snprintf(what, sizeof what, "%s: events visible (the status line) at 6 windows", name);
    report(what, bad);
    snprintf(what, sizeof what, "%s: events starting in %d windows (the status line's time buckets)", name, nwin);
    report(what, badin);
}

/* the status line's count on traces made for its time buckets: a burst of
 * thousands of events within a few microseconds (a bucket sorted, the
 * others scanned), events at equal times, and a trace spanning most of
 * the int64 range (no buckets: the count goes location by location);
 * unfiltered and filtered */
static void check_count_shapes(const char *how)
{
    for (int shape = 0; shape < 3; shape++) {
        char path[] = "/tmp/agg_check_countXXXXXX";
        int fd = mkstemp(path);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!f) {
            printf("not ok - count shapes: cannot write %s\n", path);
            g_failed++;
            return;
        }
        fprintf(f, "ts,dur,loc,act,kind,name\n");
        for (int l = 0; l < 40; l++) {
            /* a long interval per location, then its events */
            fprintf(f, "%d,%d,%d,,state,main\n", 1000 + l, 90000000, l);
            int n = shape == 2 ? 50 : 600;
            for (int k = 0; k < n; k++) {
                int64_t t;
                if (shape == 0) t = rnd(3) ? 50000000 + (int64_t)rnd(4000) : 2000 + (int64_t)rnd(80000000); /* a burst */
                else if (shape == 1) t = 7000000 + 1000 * (int64_t)rnd(5);                                   /* equal times */
                else t = rnd(2) ? (int64_t)rnd(1000000) * 4000000000000LL : 2000 + (int64_t)rnd(100);        /* centuries */
                fprintf(f, "%" PRId64 ",%d,%d,,%s,f%d\n", t, rnd(2) ? 0 : 1 + (int)rnd(3000), l, rnd(2) ? "state" : "mark", k % 7);
            }
        }
        fclose(f);
        LoadOpts o;
        load_opts_default(&o);
        o.report = NULL;
        Store *s = NULL;
        LoadReport rep;
        char *p = path;
        int r = load_traces(&o, &p, 1, &s, &rep);
        load_report_free(&rep);
        remove(path);
        if (r) {
            printf("not ok - count shape %d: cannot load\n", shape);
            g_failed++;
            continue;
        }
        static const char *const NAMES[] = {"a burst", "equal times", "a span of centuries"};
        char nm[100];
        Summary *S = summary_build(s, NULL, 2);
        snprintf(nm, sizeof nm, "count shape (%s): %s", how, NAMES[shape]);
        check_visible(nm, s, NULL, S);
        FilterError fe;
        Filter *fl = filter_compile(s, "kind != \"mark\"", &fe);
        uint64_t *sel = xcalloc((s->n + 63) / 64 + 1, 8);
        filter_run(fl, sel, NULL);
        filter_free(fl);
        Summary *F = summary_build(s, sel, 2);
        summary_set_base(F, S);
        snprintf(nm, sizeof nm, "count shape (%s): %s | filtered", how, NAMES[shape]);
        check_visible(nm, s, sel, F);
        summary_free(F);
        free(sel);
        summary_free(S);
        store_free(s);
    }
}

static void check_frames(const char *name, const Store *s, const uint64_t *sel, Summary *S)
{
    static const int64_t divs[] = {1, 10, 1000, 1000000};
    const int nc = 50;
    int64_t span = s->t_max - s->t_min + 1;
    for (int rki = 0; rki < 3; rki++) {
        RowKind rk = rki == 0 ? ROWS_LOC : rki == 1 ? ROWS_ACT : ROWS_PAIR;
        uint32_t nrows = rk == ROWS_LOC ? s->nloc : rk == ROWS_ACT ? s->nact : summary_npairs(S);
        for (size_t z = 0; z < sizeof divs / sizeof divs[0]; z++) {
            int64_t w = span / divs[z] > 0 ? span / divs[z] : 1;
            int64_t t0 = s->t_min + (span - w) / 2;
            TimeGrid g;
            grid_init(&g, t0, t0 + w, nc);
            for (int sbi = 0; sbi < 2; sbi++) {
                int sb = sbi ? 4 : 1;
                int nb = nc * sb + 1;
                int64_t *bb = xmalloc((size_t)nb * sizeof(int64_t));
                for (int i = 0; i < nc; i++)
                    for (int j = 0; j < sb; j++) bb[i * sb + j] = g.b[i] + (int64_t)((__int128)(g.b[i + 1] - g.b[i]) * j / sb);
                bb[nb - 1] = g.b[nc];
                size_t nbin = (size_t)(nb - 1);
                for (int mi = 0; mi < 4; mi++) {
                    Metric met = mi == 0 ? M_BUSY : mi == 1 ? M_SYNC : mi == 2 ? M_EVENTS : M_BYTES;
                    if (met == M_BYTES && rk == ROWS_ACT) continue;
                    if ((met == M_BUSY || met == M_SYNC) && rk == ROWS_PAIR) continue;
                    /* the per-row, per-finer-bin reference: time (busy, sync) or totals */
                    double *per = xcalloc((size_t)nrows * nbin + 1, sizeof(double));
                    if (met == M_BUSY || met == M_SYNC) {
                        int64_t *acc = xcalloc((size_t)nrows * nbin + 1, sizeof(int64_t));
                        ref_busy(s, sel, rk, met == M_BUSY ? K_STATE : K_SYNC, bb, nb, acc);
                        for (size_t k = 0; k < (size_t)nrows * nbin; k++) {
                            size_t q = k % nbin;
                            per[k] = bb[q + 1] > bb[q] ? (double)acc[k] / (double)(bb[q + 1] - bb[q]) : NAN;
                        }
                        free(acc);
                    } else if (rk == ROWS_PAIR) {
                        /* messages by send time per (src, dst) pair: bytes, or how many */
                        for (uint32_t m = 0; m < s->nmsg; m++) {
                            const Message *M = &s->msgs[m];
                            if (M->send_ev == NONE32 || !is_sel(sel, M->send_ev)) continue;
                            uint32_t src = M->src != NONE32 ? M->src : s->loc[M->send_ev], dst = M->dst;
                            int64_t t = s->ts[M->send_ev];
                            if (src == NONE32 || dst == NONE32 || t < bb[0] || t >= bb[nb - 1]) continue;
                            uint32_t lo = 0, hi = nrows;
                            while (lo < hi) {
                                uint32_t mid = lo + (hi - lo) / 2, a, b;
                                summary_pair(S, mid, &a, &b);
                                if (((uint64_t)a << 32 | b) < ((uint64_t)src << 32 | dst)) lo = mid + 1;
                                else hi = mid;
                            }
                            int q = 0;
                            while (bb[q + 1] <= t) q++;
                            int64_t b = msg_bytes(s, M);
                            per[(size_t)lo * nbin + (size_t)q] += met == M_EVENTS ? 1 : b > 0 ? (double)b : 0;
                        }
                    } else if (met == M_EVENTS) {
                        for (size_t e = 0; e < s->n; e++) {
                            if (!is_sel(sel, e) || s->ts[e] < bb[0] || s->ts[e] >= bb[nb - 1]) continue;
                            int q = 0;
                            while (bb[q + 1] <= s->ts[e]) q++;
                            per[(size_t)(rk == ROWS_LOC ? s->loc[e] : s->act[e]) * nbin + (size_t)q] += 1;
                        }
                    } else {
                        for (uint32_t m = 0; m < s->nmsg; m++) {
                            const Message *M = &s->msgs[m];
                            if (M->send_ev == NONE32 || !is_sel(sel, M->send_ev)) continue;
                            uint32_t src = M->src != NONE32 ? M->src : s->loc[M->send_ev];
                            int64_t t = s->ts[M->send_ev];
                            if (src == NONE32 || t < bb[0] || t >= bb[nb - 1]) continue;
                            int q = 0;
                            while (bb[q + 1] <= t) q++;
                            int64_t b = msg_bytes(s, M);
                            per[(size_t)src * nbin + (size_t)q] += b > 0 ? (double)b : 0;
                        }
                    }
                    if (met == M_EVENTS || met == M_BYTES)
                        for (size_t k = 0; k < (size_t)nrows * nbin; k++) {
                            size_t q = k % nbin;
                            if (sb > 1) per[k] *= sb;
                            if (bb[q + 1] <= bb[q]) per[k] = NAN;
                        }
                    for (int lines = 7; lines <= 100000; lines = lines == 7 ? 100000 : 1000000) {
                        RowSet rs;
                        rowset_init(&rs, S, rk, rk == ROWS_ACT);
                        rowset_fit(&rs, lines);
                        MetricSpec ms = {met, false, NULL};
                        double *vals = xmalloc(((size_t)rs.ng * nc + 1) * sizeof(double));
                        double *parts = xmalloc(((size_t)rs.gsize * (size_t)sb + 1) * sizeof(double));
                        for (int rf = 0; rf < 2 * RED__N; rf++) {
                            /* (rf >= RED__N: busy / sync sums and means again,
                             * from the group summaries of grouped rows) */
                            int r = rf % RED__N;
                            bool forced = rf >= RED__N;
                            if (sb > 1 && (r == RED_SUM || r == RED_MEAN)) continue;
                            if (forced && (sb > 1 || (r != RED_SUM && r != RED_MEAN) || (met != M_BUSY && met != M_SYNC) ||
                                           rk == ROWS_PAIR || rs.gsize < 8))
                                continue;
                            agg_set_group_threshold(forced ? 0 : AGG_GROUP_MIN_SEGMENTS);
                            agg_frame(S, &ms, (Reducer)r, &rs, &g, sb, vals);
                            if (forced) {
                                /* dropped (as the interface does at a view
                                 * change), they give their memory back and
                                 * the next frame builds them again, equal */
                                size_t b1 = summary_bytes(S);
                                summary_drop_groups(S);
                                size_t b2 = summary_bytes(S);
                                double *again = xmalloc(((size_t)rs.ng * nc + 1) * sizeof(double));
                                agg_frame(S, &ms, (Reducer)r, &rs, &g, sb, again);
                                int dbad = b2 < b1 ? 0 : 1;
                                for (size_t k = 0; k < (size_t)rs.ng * nc; k++)
                                    if (memcmp(&again[k], &vals[k], sizeof(double))) dbad++;
                                char dwhat[300];
                                snprintf(dwhat, sizeof dwhat, "%s: %s, zoom %" PRId64 "x, %s: group summaries dropped (%zu -> %zu bytes) and built again", name,
                                         METRIC_NAMES[met], divs[z], REDUCER_NAMES[r], b1, b2);
                                report(dwhat, dbad);
                                free(again);
                            }
                            agg_set_group_threshold(AGG_GROUP_MIN_SEGMENTS);
                            int bad = 0;
                            for (uint32_t gi = 0; gi < rs.ng; gi++)
                                for (int i = 0; i < nc; i++) {
                                    size_t np = 0;
                                    for (uint32_t k = rowset_first(&rs, gi); k < rowset_end(&rs, gi); k++)
                                        for (int j = 0; j < sb; j++) parts[np++] = per[(size_t)rs.ids[k] * nbin + (size_t)(i * sb + j)];
                                    double want = ref_reduce((Reducer)r, parts, np), got = vals[(size_t)gi * nc + (size_t)i];
                                    if (!same(want, got)) {
                                        if (!bad)
                                            printf("    %s rows=%d zoom=%" PRId64 " sb=%d %s %s group %u cell %d: %.17g, want %.17g\n", name,
                                                   rk, divs[z], sb, METRIC_NAMES[met], REDUCER_NAMES[r], gi, i, got, want);
                                        bad++;
                                    }
                                }
                            char what[300];
                            snprintf(what, sizeof what, "%s: %s by %s, zoom %" PRId64 "x, %s, %u rows per line%s", name, METRIC_NAMES[met],
                                     rk == ROWS_LOC ? "location" : rk == ROWS_ACT ? "activity" : "location pair", divs[z], REDUCER_NAMES[r], rs.gsize,
                                     sb > 1 ? ", 4 finer bins" : forced ? ", group summaries" : "");
                            report(what, bad);
                        }
                        free(vals);
                        free(parts);
                        rowset_free(&rs);
                    }
                    free(per);
                }
                free(bb);
            }
            /* the Gantt's instants and arrivals per cell, against the per-cell queries */
            if (rk != ROWS_PAIR) {
                RowSet rs;
                rowset_init(&rs, S, rk, false);
                rowset_fit(&rs, 7);
                int bad = 0;
                uint32_t *ge = xmalloc(((size_t)nc + 1) * sizeof(uint32_t)), *gc = xmalloc(((size_t)nc + 1) * sizeof(uint32_t));
                uint32_t *an = xmalloc(((size_t)nc + 1) * sizeof(uint32_t)), *af = xmalloc(((size_t)nc + 1) * sizeof(uint32_t));
                int *cg = xmalloc(((size_t)nc + 1) * sizeof(int)), *ca = xmalloc(((size_t)nc + 1) * sizeof(int));
                for (uint32_t k = 0; k < rs.n; k++) {
                    uint32_t row = rs.ids[k];
                    int ng = summary_glyph_cells(S, rk, row, &g, 0, 0, cg, ge, gc);
                    int na = summary_arrival_cells(S, rk, row, &g, 0, 0, ca, an, af);
                    /* the same cells in pieces, as the Gantt's auto overlays
                     * walk them (from a cell on, stopping at the 2nd cell
                     * with a glyph / with arrivals), and from the middle */
                    for (int pass = 0; pass < 2; pass++) {
                        int pc[64];
                        uint32_t pe[64], pn[64]; /* (nc = 50) */
                        int done = 0, full = pass ? na : ng;
                        for (int from = 0;;) {
                            int n = pass ? summary_arrival_cells(S, rk, row, &g, from, 2, pc, pn, pe)
                                         : summary_glyph_cells(S, rk, row, &g, from, 2, pc, pe, pn);
                            int found = 0;
                            for (int q = 0; q < n; q++) {
                                bool same = done < full && pc[q] == (pass ? ca : cg)[done] && pe[q] == (pass ? af : ge)[done] &&
                                            pn[q] == (pass ? an : gc)[done];
                                if (!same) bad++;
                                found += pass || pe[q] != NONE32;
                                done++;
                            }
                            if (found > 2 || (found == 2 && pass == 0 && pe[n - 1] == NONE32)) bad++; /* (ends at its 2nd) */
                            if (found < 2) break;
                            from = pc[n - 1] + 1;
                        }
                        if (done != full) bad++;
                        int mid = nc / 2, k0 = 0;
                        while (k0 < full && (pass ? ca : cg)[k0] < mid) k0++;
                        int n = pass ? summary_arrival_cells(S, rk, row, &g, mid, 0, pc, pn, pe)
                                     : summary_glyph_cells(S, rk, row, &g, mid, 0, pc, pe, pn);
                        if (n != full - k0 || (n && memcmp(pc, (pass ? ca : cg) + k0, (size_t)n * sizeof(int)))) bad++;
                    }
                    int xg = 0, xa = 0;
                    for (int i = 0; i < nc; i++) {
                        uint32_t cnt, f;
                        uint32_t e = summary_glyph_in(S, rk, row, g.b[i], g.b[i + 1], &cnt);
                        uint32_t n = summary_arrivals(S, rk, row, g.b[i], g.b[i + 1], &f);
                        if (xg < ng && cg[xg] == i) {
                            if (e != ge[xg] || cnt != gc[xg]) bad++;
                            xg++;
                        } else if (cnt) bad++;
                        if (xa < na && ca[xa] == i) {
                            if (n != an[xa] || f != af[xa]) bad++;
                            xa++;
                        } else if (n) bad++;
                    }
                    if (xg != ng || xa != na) bad++;
                }
                /* a display row's arrivals merged (the Gantt's rows of many
                 * members): per cell the members' total, and the arrival
                 * when it is the only one */
                const RowArrivals *RA = summary_row_arrivals(S, &rs);
                for (uint32_t gi = 0; gi < rs.ng; gi++) {
                    int na = summary_row_arrival_cells(S, &rs, gi, &g, ca, an, af), xa = 0;
                    {
                        /* (the same from the row set's series fetched once) */
                        int ca2[64];
                        uint32_t an2[64], af2[64]; /* (nc = 50) */
                        int nb = summary_row_arrivals_cells(RA, gi, &g, 0, 0, ca2, an2, af2);
                        if (nb != na || memcmp(ca2, ca, (size_t)na * sizeof(int)) || memcmp(an2, an, (size_t)na * sizeof(uint32_t)) ||
                            memcmp(af2, af, (size_t)na * sizeof(uint32_t)))
                            bad++;
                    }
                    for (int i = 0; i < nc; i++) {
                        uint32_t tot = 0, one = NONE32;
                        for (uint32_t k = rowset_first(&rs, gi); k < rowset_end(&rs, gi); k++) {
                            uint32_t f, n = summary_arrivals(S, rk, rs.ids[k], g.b[i], g.b[i + 1], &f);
                            if (n) one = f;
                            tot += n;
                        }
                        if (xa < na && ca[xa] == i) {
                            if (an[xa] != tot || (tot == 1 && af[xa] != one)) bad++;
                            xa++;
                        } else if (tot) bad++;
                    }
                    if (xa != na) bad++;
                }
                free(cg);
                free(ca);
                free(ge);
                free(gc);
                free(an);
                free(af);
                char what[200];
                snprintf(what, sizeof what, "%s: instants and arrivals per cell (and per row, merged) by %s, zoom %" PRId64 "x", name,
                         rk == ROWS_LOC ? "location" : "activity", divs[z]);
                report(what, bad);
                rowset_free(&rs);
            }
            grid_free(&g);
        }
    }
}

static void check_matrix(const char *name, const Store *s, const uint64_t *sel, Summary *S)
{
    int64_t span = s->t_max - s->t_min + 1;
    uint32_t n = s->nloc;
    for (uint32_t gsz = 1; gsz <= 64; gsz *= 8) {
        if (gsz > 1 && gsz >= n) break;
        if ((size_t)((n + gsz - 1) / gsz) * ((n + gsz - 1) / gsz) > 4000000) continue;
        uint32_t ng = (n + gsz - 1) / gsz;
        for (int64_t div = 1; div <= 1000; div *= 10) {
            int64_t w = span / div > 0 ? span / div : 1, a = s->t_min + (span - w) / 2, b = a + w;
            double *by = xcalloc((size_t)ng * ng + 1, sizeof(double)), *ct = xcalloc((size_t)ng * ng + 1, sizeof(double));
            double *wb = xcalloc((size_t)ng * ng + 1, sizeof(double)), *wc = xcalloc((size_t)ng * ng + 1, sizeof(double));
            summary_matrix(S, a, b, gsz, gsz, by, ct);
            for (uint32_t m = 0; m < s->nmsg; m++) {
                const Message *M = &s->msgs[m];
                if (M->send_ev == NONE32 || !is_sel(sel, M->send_ev)) continue;
                uint32_t src = M->src != NONE32 ? M->src : s->loc[M->send_ev], dst = M->dst;
                int64_t t = s->ts[M->send_ev];
                if (src == NONE32 || dst == NONE32 || t < a || t >= b) continue;
                size_t cell = (size_t)(src / gsz) * ng + dst / gsz;
                int64_t x = msg_bytes(s, M);
                wb[cell] += x > 0 ? (double)x : 0;
                wc[cell] += 1;
            }
            int bad = 0;
            for (size_t k = 0; k < (size_t)ng * ng; k++) bad += !same(by[k], wb[k]) || !same(ct[k], wc[k]);
            char what[200];
            snprintf(what, sizeof what, "%s: matrix, %u locations per row and column, zoom %" PRId64 "x", name, gsz, div);
            report(what, bad);
            free(by);
            free(ct);
            free(wb);
            free(wc);
        }
    }
}

/* ---- the Gantt's lanes by time (LaneTime) against every lane ------------------ */

/* the first q of spans sp[0..n) with t0 < b and t1 > a (NONE32: none) */
static uint32_t ref_first_lane(const int64_t *sp, size_t n, int64_t a, int64_t b)
{
    for (size_t q = 0; q < n; q++) {
        int64_t t0 = sp[2 * q], t1 = sp[2 * q + 1];
        if (t0 == INT64_MAX && t1 == INT64_MIN) continue;
        if (t0 < b && t1 > a) return (uint32_t)q;
    }
    return NONE32;
}

/* every cell [b[i], b[i + 1]) of nc cells over [w0, w1): the index's first
 * lane against the direct one; returns the cells that differ */
static int lanetime_cells(const int64_t *sp, size_t n, int64_t w0, int64_t w1, int nc, int *usable)
{
    LaneTime *T = lanetime_build(sp, n);
    *usable = T->usable;
    TimeGrid g;
    grid_init(&g, w0, w1, nc);
    size_t cur = 0;
    int bad = 0;
    for (int i = 0; i < nc && T->usable; i++) {
        int64_t a = g.b[i], b = g.b[i + 1];
        if (a >= b) continue; /* (zero-width cells: the Gantt asks every lane's cells) */
        uint32_t x = lanetime_first(T, a, b, &cur), y = ref_first_lane(sp, n, a, b);
        if (x != y) {
            if (bad < 3) printf("    cell [%" PRId64 ", %" PRId64 "): index %u, direct %u\n", a, b, x, y);
            bad++;
        }
    }
    grid_free(&g);
    lanetime_free(T);
    return bad;
}

/* random spans: short and long, shared ends, lanes without segments, open
 * ends (t1 = INT64_MAX), in random order or by start */
static void check_lanetime_random(void)
{
    static const int64_t divs[] = {1, 10, 1000, 1000000};
    int bad = 0, cells = 0;
    for (int round = 0; round < 40; round++) {
        size_t n = 1 + rnd(round < 20 ? 40 : 3000);
        int64_t *sp = xmalloc((2 * n + 1) * sizeof(int64_t));
        int64_t t = 0;
        for (size_t q = 0; q < n; q++) {
            if (rnd(20) == 0) {
                sp[2 * q] = INT64_MAX, sp[2 * q + 1] = INT64_MIN;
                continue;
            }
            int64_t t0 = round & 1 ? (t += rnd(50)) : (int64_t)rnd(1000000), len = rnd(8) == 0 ? rnd(500000) : 1 + rnd(2000);
            if (rnd(4) == 0) t0 -= t0 % 1000; /* (shared ends, and on cell boundaries below) */
            int64_t t1 = t0 + (len ? len : 1);
            if (rnd(4) == 0 && t1 % 1000 && t1 - t1 % 1000 > t0) t1 -= t1 % 1000;
            sp[2 * q] = t0;
            sp[2 * q + 1] = rnd(30) == 0 ? INT64_MAX : t1;
        }
        /* cells of 1,000 or 2,000 from a multiple of 1,000: boundaries on
         * the ends */
        for (int nc = 10; nc <= 1000; nc *= 10) {
            int usable;
            int64_t w0 = 1000 * (int64_t)rnd(1000) - 100000;
            bad += lanetime_cells(sp, n, w0, w0 + (int64_t)nc * 1000 * (1 + rnd(2)), nc, &usable);
            cells += nc;
        }
        for (size_t z = 0; z < sizeof divs / sizeof divs[0]; z++) {
            int64_t w = 1100000 / divs[z] > 0 ? 1100000 / divs[z] : 1, w0 = -50000 + (int64_t)rnd(1100000) - w / 2;
            int usable;
            for (int nc = 7; nc <= 200; nc *= 5) {
                bad += lanetime_cells(sp, n, w0, w0 + w, nc, &usable);
                cells += nc;
                CHECK(usable);
            }
        }
        free(sp);
    }
    /* a span it cannot hold (t0 >= t1): not usable, so the Gantt asks every lane */
    int64_t deg[4] = {10, 20, 30, 30};
    LaneTime *T = lanetime_build(deg, 2);
    CHECK(!T->usable);
    lanetime_free(T);
    char what[120];
    snprintf(what, sizeof what, "lanes by time: random spans, %d cells, the first lane meeting each", cells);
    report(what, bad);
}

/* each display row's lanes (in row_lanes order, as the Gantt gathers
 * them) of a few groupings, at four zooms; and the members with instants
 * or arrivals */
static void check_lanetime(const char *name, const Store *s, Summary *S)
{
    static const int64_t divs[] = {1, 10, 1000, 1000000};
    int64_t span = s->t_max - s->t_min + 1;
    for (int rki = 0; rki < 2; rki++) {
        RowKind rk = rki ? ROWS_ACT : ROWS_LOC;
        for (int lines = 3; lines <= 300; lines *= 10) {
            RowSet rs;
            rowset_init(&rs, S, rk, false);
            rowset_fit(&rs, lines);
            int bad = 0, badm = 0;
            uint32_t *memb = xmalloc(((size_t)rs.n + 1) * sizeof(uint32_t));
            for (uint32_t gi = 0; gi < rs.ng; gi++) {
                VEC(int64_t) sp = {0};
                for (uint32_t k = rowset_first(&rs, gi); k < rowset_end(&rs, gi); k++) {
                    uint32_t nl;
                    const uint32_t *ls = row_lanes(S, rk, rs.ids[k], &nl);
                    for (uint32_t q = 0; q < nl; q++) {
                        const Lane *L = &S->lanes[ls[q]];
                        VEC_PUSH(sp, L->n ? L->t0 : INT64_MAX);
                        VEC_PUSH(sp, L->n ? L->t1 : INT64_MIN);
                    }
                }
                for (size_t z = 0; z < sizeof divs / sizeof divs[0]; z++) {
                    int64_t w = span / divs[z] > 0 ? span / divs[z] : 1, t0 = s->t_min + (span - w) / 2;
                    int usable;
                    bad += lanetime_cells(sp.v, sp.len / 2, t0, t0 + w, 50, &usable);
                    bad += lanetime_cells(sp.v, sp.len / 2, t0, t0 + w, 200, &usable);
                }
                VEC_FREE(sp);
                for (int arr = 0; arr < 2; arr++) {
                    uint32_t nm = summary_point_members(S, &rs, gi, arr, memb), m = 0;
                    for (uint32_t k = rowset_first(&rs, gi); k < rowset_end(&rs, gi); k++) {
                        uint32_t cnt = 0;
                        if (arr) cnt = summary_arrivals(S, rk, rs.ids[k], INT64_MIN, INT64_MAX, NULL);
                        else summary_glyph_in(S, rk, rs.ids[k], INT64_MIN, INT64_MAX, &cnt);
                        bool listed = m < nm && memb[m] == k;
                        m += listed;
                        badm += listed != (cnt > 0);
                    }
                    badm += m != nm;
                }
            }
            char what[200];
            snprintf(what, sizeof what, "%s: lanes by time, by %s in %u rows, 4 zooms", name, rki ? "activity" : "location", rs.ng);
            report(what, bad);
            snprintf(what, sizeof what, "%s: members with instants / arrivals, by %s in %u rows", name, rki ? "activity" : "location", rs.ng);
            report(what, badm);
            free(memb);
            rowset_free(&rs);
        }
    }
}

/* The ranking of names (the Gantt's colours, the legend) against a direct
 * walk over the summary's lanes: per name key the innermost time (each
 * segment's duration within its lane, the last one's none) and the
 * smallest event; the top 26 by time, then by key. The summary's own, as
 * its sweep made it, then the same from summaries built with 1 and 2
 * workers with the lanes walked again instead (agg_set_names_fused). */
typedef struct {
    int64_t ns;
    size_t key;
} NameRef;

static int cmp_nameref(const void *a, const void *b)
{
    const NameRef *x = a, *y = b;
    if (x->ns != y->ns) return x->ns > y->ns ? -1 : 1;
    return x->key < y->key ? -1 : x->key > y->key;
}

static int names_differ(const Summary *S, const int8_t *rank, const uint32_t *top, const int64_t *top_ns, int ntop)
{
    size_t nkeys = name_nkeys(S->s);
    int bad = S->ntop != ntop;
    for (int i = 0; i < ntop && !bad; i++) bad += S->top[i] != top[i] || S->top_ns[i] != top_ns[i];
    for (size_t k = 0; k < nkeys; k++) bad += S->name_rank[k] != rank[k];
    return bad;
}

static void check_names(const char *name, const Store *s, const uint64_t *sel, Summary *S)
{
    size_t nkeys = name_nkeys(s);
    int64_t *ns = xcalloc(nkeys + 1, sizeof(int64_t));
    uint32_t *ev = xmalloc((nkeys + 1) * sizeof(uint32_t));
    for (size_t k = 0; k < nkeys; k++) ev[k] = NONE32;
    for (uint32_t li = 0; li < S->nlanes; li++) {
        const Lane *L = &S->lanes[li];
        for (size_t z = L->off; z + 1 < (size_t)L->off + L->n; z++) {
            uint32_t e = S->seg_ev[z];
            if (e == NONE32) continue;
            size_t k = s->name[e] != NONE32 ? s->name[e] : s->nnames + s->kind[e];
            ns[k] += seg_time(S, z + 1) - seg_time(S, z);
            if (e < ev[k]) ev[k] = e;
        }
    }
    NameRef *r = xmalloc((nkeys + 1) * sizeof(NameRef));
    size_t nr = 0;
    for (size_t k = 0; k < nkeys; k++)
        if (ev[k] != NONE32) r[nr++] = (NameRef){ns[k], k};
    qsort(r, nr, sizeof(NameRef), cmp_nameref);
    int ntop = nr < 26 ? (int)nr : 26;
    uint32_t top[26];
    int64_t top_ns[26];
    int8_t *rank = xmalloc(nkeys + 1);
    memset(rank, -1, nkeys + 1);
    for (int i = 0; i < ntop; i++) {
        top[i] = ev[r[i].key];
        top_ns[i] = r[i].ns;
        rank[r[i].key] = (int8_t)i;
    }
    /* through the queries too: every event's rank, the top list */
    int bad = 0;
    uint32_t got[26];
    int64_t got_ns[26];
    int ng = summary_top_names(S, got, got_ns, 26);
    bad += ng != ntop;
    for (int i = 0; i < ng && i < ntop; i++) bad += got[i] != top[i] || got_ns[i] != top_ns[i];
    for (size_t e = 0; e < s->n; e++) {
        size_t k = s->name[e] != NONE32 ? s->name[e] : s->nnames + s->kind[e];
        bad += summary_name_rank(S, (uint32_t)e) != rank[k];
    }
    bad += names_differ(S, rank, top, top_ns, ntop);
    char what[300];
    snprintf(what, sizeof what, "%s: names by innermost time, from the sweep (%d top of %zu, %zu keys), as a walk over the lanes gives them", name,
             ntop, nr, nkeys);
    report(what, bad);
    agg_set_names_fused(false);
    for (int th = 1; th <= 2; th++) {
        Summary *W = summary_build(s, sel, th);
        int wbad = W->names_built; /* (not before they are asked for) */
        if (s->n) summary_name_rank(W, 0);
        wbad += names_differ(W, rank, top, top_ns, ntop);
        snprintf(what, sizeof what, "%s: names by innermost time, the lanes walked again (%d workers)", name, th);
        report(what, wbad);
        summary_free(W);
    }
    agg_set_names_fused(true);
    Summary *F = summary_build(s, sel, 1);
    snprintf(what, sizeof what, "%s: names by innermost time, from the sweep of 1 worker", name);
    report(what, !F->names_built + names_differ(F, rank, top, top_ns, ntop));
    summary_free(F);
    free(ns);
    free(ev);
    free(r);
    free(rank);
}

/* whether two point series are the same, array by array */
static bool same_points(const Points *A, const Points *B)
{
    if (!A->built || !B->built || A->nrows != B->nrows) return false;
    size_t n = A->off[A->nrows];
    if (!A->prio != !B->prio || !A->cum != !B->cum || !A->prio == !A->cum) return false;
    return !memcmp(A->off, B->off, ((size_t)A->nrows + 1) * sizeof(uint32_t)) && B->off[B->nrows] == n &&
           !memcmp(A->t, B->t, n * sizeof(int64_t)) && (!A->cum || !memcmp(A->cum, B->cum, (n + 1) * sizeof(double))) &&
           (!A->prio || !memcmp(A->prio, B->prio, n)) && !memcmp(A->id, B->id, n * sizeof(uint32_t)) &&
           !memcmp(A->ev, B->ev, n * sizeof(uint32_t));
}

/* the instants' and messages' series by location and by activity are the
 * same whichever row kind a summary built first (the second is then
 * regrouped from the first, or derived from the base's): two summaries,
 * built in both orders, compared array by array */
static void check_series_order(const char *name, const Store *s, const uint64_t *sel, Summary *base)
{
    Summary *A = summary_build(s, sel, 2), *B = summary_build(s, sel, 2);
    if (base) {
        summary_set_base(A, base);
        summary_set_base(B, base);
    }
    for (int pass = 0; pass < 2; pass++) {
        Summary *X = pass ? B : A;
        for (int q = 0; q < 2; q++) {
            RowKind rk = (q == 0) == (pass == 0) ? ROWS_ACT : ROWS_LOC;
            uint32_t cnt;
            summary_glyph_in(X, rk, 0, INT64_MIN, INT64_MAX, &cnt);
            msg_points(X, true, rk);
            msg_points(X, false, rk);
        }
    }
    int bad = 0;
    for (int rk = 0; rk < 2; rk++) {
        bad += !same_points(&A->glyphs[rk], &B->glyphs[rk]);
        bad += !same_points(&A->msg[0][rk], &B->msg[0][rk]);
        bad += !same_points(&A->msg[1][rk], &B->msg[1][rk]);
    }
    char what[300];
    snprintf(what, sizeof what, "%s: instants and message ends by location and activity, in either order", name);
    report(what, bad);
    summary_free(A);
    summary_free(B);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* two merged row series (S->rowarr.P) alike: the same rows, times and
 * prefix sums, and at each time the same points (their order among equal
 * times is left open) */
static bool same_merged(const Points *A, const Points *B)
{
    if (!A->built || !B->built || A->nrows != B->nrows) return false;
    size_t n = A->off[A->nrows];
    if (B->off[B->nrows] != n || memcmp(A->off, B->off, ((size_t)A->nrows + 1) * sizeof(uint32_t)) ||
        memcmp(A->t, B->t, n * sizeof(int64_t)) || A->cum[n] != B->cum[n])
        return false;
    uint32_t *x = xmalloc((n + 1) * sizeof(uint32_t)), *y = xmalloc((n + 1) * sizeof(uint32_t));
    bool ok = true;
    for (uint32_t r = 0; r < A->nrows && ok; r++)
        for (size_t i = A->off[r], j; i < A->off[r + 1] && ok; i = j) {
            j = i + 1;
            while (j < A->off[r + 1] && A->t[j] == A->t[i]) j++;
            /* (a run of equal times: its first prefix sum, its ids as a set) */
            if (A->cum[i] != B->cum[i]) ok = false;
            memcpy(x, A->id + i, (j - i) * sizeof(uint32_t));
            memcpy(y, B->id + i, (j - i) * sizeof(uint32_t));
            qsort(x, j - i, sizeof(uint32_t), cmp_u32);
            qsort(y, j - i, sizeof(uint32_t), cmp_u32);
            if (memcmp(x, y, (j - i) * sizeof(uint32_t))) ok = false;
        }
    free(x);
    free(y);
    return ok;
}

/* the arrivals merged per display row by activity, from the series by
 * location when a summary has it and not the one by activity (a first
 * Gantt by activity after one by location), are those merged from the
 * series by activity: flat rows, groups of rows, the spawn tree */
static void check_rowarr_via(const char *name, const Store *s, const uint64_t *sel, Summary *base)
{
    int bad = 0;
    for (int shape = 0; shape < 3; shape++) {
        Summary *A = summary_build(s, sel, 2), *B = summary_build(s, sel, 2);
        if (base) {
            summary_set_base(A, base);
            summary_set_base(B, base);
        }
        RowSet ra, rb;
        rowset_init(&ra, A, ROWS_ACT, shape == 2);
        rowset_init(&rb, B, ROWS_ACT, shape == 2);
        if (shape == 1) rowset_fit(&ra, 7), rowset_fit(&rb, 7);
        msg_points(A, true, ROWS_LOC);
        summary_row_arrivals(A, &ra);
        bad += A->msg[1][ROWS_ACT].built; /* (built without it) */
        summary_row_arrivals(B, &rb); /* (from the series by activity) */
        bad += !B->msg[1][ROWS_ACT].built;
        bad += !same_merged(&A->rowarr.P, &B->rowarr.P);
        /* and a frame's sums of bytes received per row, read from it */
        double *va = xmalloc(((size_t)ra.ng * 40 + 1) * sizeof(double)), *vb = xmalloc(((size_t)rb.ng * 40 + 1) * sizeof(double));
        TimeGrid g;
        grid_init(&g, s->t_min, s->t_max + 1, 40);
        MetricSpec mb = {M_BYTES, true, NULL};
        agg_frame(A, &mb, RED_SUM, &ra, &g, 1, va);
        agg_frame(B, &mb, RED_SUM, &rb, &g, 1, vb);
        bad += memcmp(va, vb, (size_t)ra.ng * 40 * sizeof(double)) != 0;
        grid_free(&g);
        free(va);
        free(vb);
        rowset_free(&ra);
        rowset_free(&rb);
        summary_free(A);
        summary_free(B);
    }
    char what[300];
    snprintf(what, sizeof what, "%s: arrivals merged per row by activity, from the series by location or by activity", name);
    report(what, bad);
}

/* the Gantt's rows by activity shown too dense for an overlay from the
 * series by location (summary_rows_dense), which it reads without
 * building the series by activity: whenever it says so, every row on
 * screen has points in at least `need` cells, counted from the series by
 * activity (another summary's); flat rows, groups of rows, the spawn tree,
 * the first rows of each, zooms, several `need`; and it says so in some
 * of the cases that are */
static void check_rows_dense(const char *name, const Store *s, const uint64_t *sel, Summary *base)
{
    int bad = 0, proven = 0, dense = 0;
    Summary *B = summary_build(s, sel, 2);
    if (base) summary_set_base(B, base);
    const int nc = 40;
    int *cell = xmalloc(((size_t)nc + 1) * sizeof(int));
    uint32_t *ev = xmalloc(((size_t)nc + 1) * sizeof(uint32_t)), *cnt = xmalloc(((size_t)nc + 1) * sizeof(uint32_t));
    uint8_t *has = xmalloc((size_t)nc + 1);
    static const int64_t divs[] = {1, 10, 1000};
    for (int shape = 0; shape < 3; shape++)
        for (int z = 0; z < 3; z++)
            for (int arr = 0; arr < 2; arr++) {
                Summary *A = summary_build(s, sel, 2);
                if (base) summary_set_base(A, base);
                RowSet rs;
                rowset_init(&rs, A, ROWS_ACT, shape == 2);
                if (shape == 1) rowset_fit(&rs, 7);
                int64_t span = s->t_max - s->t_min + 1, w = span / divs[z] > 0 ? span / divs[z] : 1;
                TimeGrid g;
                grid_init(&g, s->t_min + (span - w) / 2, s->t_min + (span - w) / 2 + w, nc);
                /* (nothing to read yet: no answer) */
                if (summary_rows_dense(A, &rs, rs.ng, arr, &g, 1)) bad++;
                if (arr) msg_points(A, true, ROWS_LOC);
                else summary_glyph_in(A, ROWS_LOC, 0, 0, 0, &cnt[0]);
                for (int nrk = 0; nrk < 2; nrk++) {
                    uint32_t nr = nrk ? (rs.ng < 5 ? rs.ng : 5) : rs.ng;
                    /* each row's cells with points, from B's series by activity */
                    uint32_t least = UINT32_MAX;
                    for (uint32_t r = 0; r < nr; r++) {
                        memset(has, 0, (size_t)nc);
                        for (uint32_t k = rowset_first(&rs, r); k < rowset_end(&rs, r); k++) {
                            int n = arr ? summary_arrival_cells(B, ROWS_ACT, rs.ids[k], &g, 0, 0, cell, cnt, ev)
                                        : summary_glyph_cells(B, ROWS_ACT, rs.ids[k], &g, 0, 0, cell, ev, cnt);
                            for (int q = 0; q < n; q++) has[cell[q]] = 1;
                        }
                        uint32_t u = 0;
                        for (int i = 0; i < nc; i++) u += has[i];
                        if (u < least) least = u;
                    }
                    static const uint32_t needs[] = {1, 4, nc / 6 + 1, nc};
                    bool was[4];
                    for (int q = 0; q < 4; q++) {
                        bool d = was[q] = summary_rows_dense(A, &rs, nr, arr, &g, needs[q]);
                        if (d && least < needs[q]) bad++;
                        proven += d;
                        dense += nr && least >= needs[q];
                    }
                    /* asked again, in turn and each twice (a frame redrawn:
                     * the last yes is kept for the same question only) */
                    for (int q = 3; q >= 0; q--)
                        for (int twice = 0; twice < 2; twice++)
                            if (summary_rows_dense(A, &rs, nr, arr, &g, needs[q]) != was[q]) bad++;
                }
                /* (read without building the series by activity) */
                bad += A->glyphs[ROWS_ACT].built || A->msg[1][ROWS_ACT].built || A->rowarr.P.built;
                grid_free(&g);
                rowset_free(&rs);
                summary_free(A);
            }
    if (dense && !proven) bad++;
    free(cell);
    free(ev);
    free(cnt);
    free(has);
    summary_free(B);
    char what[300];
    snprintf(what, sizeof what, "%s: rows by activity too dense for the Gantt's overlays, from the series by location (%d of %d cases shown)",
             name, proven, dense);
    report(what, bad);
}

/* ---- the memory budget (agg_budget.c) ---------------------------------------------------- */

typedef VEC(uint64_t) Words;
static void put_vals(Words *o, const void *v, size_t bytes)
{
    for (size_t i = 0; i < bytes; i += 8) {
        uint64_t w = 0;
        memcpy(&w, (const char *)v + i, bytes - i < 8 ? bytes - i : 8);
        VEC_PUSH(*o, w);
    }
}

/* one frame of "view" v on X, everything it draws appended to o (the
 * views' parts: group summaries, the Gantt's lanes per row, instants,
 * arrivals merged per row, the count and open-lanes indexes, the matrix,
 * message points by location and activity, the location index) */
static void budget_frame_of(Summary *X, const Store *s, int v, Words *o)
{
    int64_t span = s->t_max - s->t_min + 1;
    TimeGrid g;
    grid_init(&g, s->t_min, s->t_min + span, 40);
    RowSet rs;
    rowset_init(&rs, X, v == 3 ? ROWS_ACT : ROWS_LOC, v == 3);
    rowset_fit(&rs, 7);
    double *vals = xmalloc(((size_t)rs.ng * 40 + 1) * sizeof(double));
    if (v == 0) { /* density: busy, sums of the group summaries; sync by location */
        agg_set_group_threshold(0);
        MetricSpec ms = {M_BUSY, false, NULL};
        agg_frame(X, &ms, RED_SUM, &rs, &g, 1, vals);
        put_vals(o, vals, (size_t)rs.ng * 40 * sizeof(double));
        agg_set_group_threshold(AGG_GROUP_MIN_SEGMENTS);
        MetricSpec sy = {M_SYNC, false, NULL};
        agg_frame(X, &sy, RED_MAX, &rs, &g, 4, vals);
        put_vals(o, vals, (size_t)rs.ng * 40 * sizeof(double));
    } else if (v == 1 || v == 3) { /* Gantt by location / activity */
        uint32_t *dom = xmalloc(((size_t)rs.ng * 40 + 1) * sizeof(uint32_t));
        summary_gantt_points(X, &rs, true, true, true);
        agg_dominant(X, &rs, &g, 8, dom, NULL);
        put_vals(o, dom, (size_t)rs.ng * 40 * sizeof(uint32_t));
        int cell[41];
        uint32_t ev[41], cnt[41];
        const RowArrivals *ra = summary_row_arrivals(X, &rs);
        for (uint32_t r = 0; r < rs.ng; r++) {
            int nk = summary_row_arrivals_cells(ra, r, &g, 0, 0, cell, cnt, ev);
            put_vals(o, cell, (size_t)nk * sizeof(int));
            put_vals(o, cnt, (size_t)nk * sizeof(uint32_t));
            for (uint32_t k = rowset_first(&rs, r); k < rowset_end(&rs, r); k++) {
                nk = summary_glyph_cells(X, rs.kind, rs.ids[k], &g, 0, 0, cell, ev, cnt);
                put_vals(o, cell, (size_t)nk * sizeof(int));
                put_vals(o, ev, (size_t)nk * sizeof(uint32_t));
            }
        }
        free(dom);
    } else { /* comm: bytes by location and activity, the matrix, the status count */
        for (int rk = 0; rk < 2; rk++) {
            RowSet r2;
            rowset_init(&r2, X, (RowKind)rk, false);
            rowset_fit(&r2, 7);
            double *v2 = xmalloc(((size_t)r2.ng * 40 + 1) * sizeof(double));
            MetricSpec mb = {M_BYTES, rk == 1, NULL};
            agg_frame(X, &mb, RED_SUM, &r2, &g, 1, v2);
            put_vals(o, v2, (size_t)r2.ng * 40 * sizeof(double));
            free(v2);
            rowset_free(&r2);
        }
        uint32_t gs = s->nloc > 64 ? 8 : 1, ng = (s->nloc + gs - 1) / gs;
        double *by = xcalloc((size_t)ng * ng + 1, sizeof(double));
        summary_matrix(X, s->t_min, s->t_min + span / 2, gs, gs, by, NULL);
        put_vals(o, by, (size_t)ng * ng * sizeof(double));
        free(by);
    }
    for (int i = 0; i < 4; i++) {
        uint64_t n = summary_events_visible(X, s->t_min + span * i / 4, s->t_min + span * (i + 1) / 4);
        VEC_PUSH(*o, n);
    }
    free(vals);
    rowset_free(&rs);
    grid_free(&g);
}

/* the bytes X's parts hold, counted from the parts themselves */
static size_t parts_real(const Summary *X)
{
    size_t b = grpsum_bytes(X->grp[0]) + grpsum_bytes(X->grp[1]) + rowarr_bytes(X) + mxcells_bytes(X) + tord_bytes(X) +
               open_bytes(X) + locidx_bytes(&X->locidx, X->s->nloc) + rowlanes_bytes(&X->rowlanes);
    for (int d = 0; d < 2; d++)
        for (int r = 0; r < 3; r++) b += points_bytes(&X->msg[d][r]);
    for (int r = 0; r < 2; r++) b += points_bytes(&X->glyphs[r]);
    return b;
}

/* the bytes of X's parts not used by the current frame */
static size_t budget_stale(const Summary *X)
{
    size_t b = 0;
    for (int p = 0; p < PART__N; p++)
        if (atomic_load(&X->part[p].epoch) != atomic_load(X->budget_epoch)) b += X->part[p].bytes;
    return b;
}

/* Views visited in turn on summaries under a small budget (which drops
 * the other views' parts and builds them again) draw the same frames,
 * bitwise, as a summary without a budget; between frames the parts
 * counted stay within the limit, or only the current frame's are left;
 * a budget large enough drops nothing. */
static void check_budget(const char *name, const Store *s, const uint64_t *sel, Summary *base)
{
    static const int order[] = {0, 2, 0, 1, 2, 3, 0, 1, 3, 2, 0};
    size_t nv = sizeof order / sizeof order[0];
    Words want[sizeof order / sizeof order[0]];
    memset(want, 0, sizeof want);
    Summary *R = summary_build(s, sel, 2);
    if (base) summary_set_base(R, base);
    for (size_t i = 0; i < nv; i++) budget_frame_of(R, s, order[i], &want[i]);
    size_t rb = summary_bytes(R);
    summary_free(R);
    for (int tight = 1; tight >= 0; tight--) {
        AggBudget *B = agg_budget_new(tight ? 1 : SIZE_MAX);
        Summary *X = summary_build(s, sel, 2);
        if (base) summary_set_base(X, base);
        summary_set_budget(X, B);
        int bad = 0, over = 0;
        for (size_t i = 0; i < nv; i++) {
            agg_budget_frame(B, order[i]);
            Words got = {0};
            budget_frame_of(X, s, order[i], &got);
            bad += got.len != want[i].len || memcmp(got.v, want[i].v, got.len * sizeof(uint64_t));
            size_t tot = agg_budget_bytes(B);
            over += tot > agg_budget_limit(B) && budget_stale(X) > 0;
            over += tot != parts_real(X); /* (what is dropped is gone) */
            VEC_FREE(got);
        }
        size_t nd, db;
        agg_budget_drops(B, &nd, &db);
        char what[300];
        snprintf(what, sizeof what, "%s: %s budget, views in turn: the same frames, the limit kept (%zu parts dropped, %zu bytes)", name,
                 tight ? "a tight" : "an ample", nd, db);
        report(what, bad + over + (tight ? nd == 0 : nd != 0) + (!tight && summary_bytes(X) != rb));
        summary_free(X);
        agg_budget_free(B);
    }
    for (size_t i = 0; i < nv; i++) VEC_FREE(want[i]);
}

static void check_build_from(const char *name, const Store *s);
static void check_dominant_nk(const char *name, const Store *s, Summary *S);

static int check_file(const char *path)
{
    LoadOpts o;
    load_opts_default(&o);
    o.report = NULL;
    Store *s = NULL;
    LoadReport rep;
    char *p = (char *)path;
    int r = load_traces(&o, &p, 1, &s, &rep);
    load_report_free(&rep);
    if (r) {
        printf("not ok - %s: cannot load\n", path);
        g_failed++;
        return 1;
    }
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    Summary *S = summary_build(s, NULL, 2);
    check_frames(name, s, NULL, S);
    check_matrix(name, s, NULL, S);
    check_visible(name, s, NULL, S);
    {
        /* (the intervals open at the windows' starts looked up by two
         * workers, each half of the lanes: the same counts) */
        char nm2[200];
        snprintf(nm2, sizeof nm2, "%s, two workers", name);
        summary_count_par_min(1);
        check_visible(nm2, s, NULL, S);
        summary_count_par_min(0);
    }
    check_lanetime(name, s, S);
    check_names(name, s, NULL, S);
    check_dominant_nk(name, s, S);
    check_series_order(name, s, NULL, NULL);
    check_rowarr_via(name, s, NULL, NULL);
    check_rows_dense(name, s, NULL, NULL);
    check_budget(name, s, NULL, NULL);
    /* a filtered summary, derived from the unfiltered one */
    static const char *const filt = "dur > 1us || kind == \"send\" || kind == \"recv\" || kind == \"mark\"";
    FilterError fe;
    Filter *f = filter_compile(s, filt, &fe);
    if (f) {
        uint64_t *sel = xcalloc((s->n + 63) / 64 + 1, 8);
        filter_run(f, sel, NULL);
        filter_free(f);
        Summary *F = summary_build(s, sel, 2);
        summary_set_base(F, S);
        char nm[200];
        snprintf(nm, sizeof nm, "%s | filtered", name);
        check_frames(nm, s, sel, F);
        check_matrix(nm, s, sel, F);
        check_visible(nm, s, sel, F);
        summary_count_par_min(1);
        strcat(nm, ", two workers");
        check_visible(nm, s, sel, F);
        summary_count_par_min(0);
        nm[strlen(nm) - strlen(", two workers")] = 0;
        check_lanetime(nm, s, F);
        check_names(nm, s, sel, F);
        check_dominant_nk(nm, s, F);
        check_series_order(nm, s, sel, S);
        check_rowarr_via(nm, s, sel, S);
        check_rows_dense(nm, s, sel, S);
        check_budget(nm, s, sel, S);
        summary_free(F);
        free(sel);
    } else {
        printf("not ok - %s: the filter does not compile\n", name);
        g_failed++;
    }
    summary_free(S);
    check_build_from(name, s);
    store_free(s);
    return 0;
}

/* The Gantt's dominant intervals with their names and kinds (nk, read by
 * agg_dominant's workers, which the view's glyphs and colours come from):
 * the same cells as without, and each one's name << 16 | kind that of its
 * event, by location and by activity, whole trace and zoomed */
static void check_dominant_nk(const char *name, const Store *s, Summary *S)
{
    int64_t span = s->t_max - s->t_min + 1;
    size_t bad = 0, cells = 0, named = 0;
    for (int rk = 0; rk < 2; rk++)
        for (int z = 0; z < 3; z++) {
            int64_t w = z == 0 ? span : z == 1 ? span / 10 + 1 : span / 1000 + 1;
            TimeGrid g;
            grid_init(&g, s->t_min + (span - w) / 2, s->t_min + (span - w) / 2 + w, 40);
            RowSet rs;
            rowset_init(&rs, S, rk ? ROWS_ACT : ROWS_LOC, false);
            rowset_fit(&rs, z == 2 ? 1000000 : 9);
            size_t nv = (size_t)rs.ng * 40;
            uint32_t *a = xmalloc((nv + 1) * sizeof(uint32_t)), *b = xmalloc((nv + 1) * sizeof(uint32_t));
            uint64_t *nk = xmalloc((nv + 1) * sizeof(uint64_t));
            agg_dominant(S, &rs, &g, 8, a, NULL);
            agg_dominant(S, &rs, &g, 8, b, nk);
            for (size_t v = 0; v < nv; v++) {
                uint64_t want = a[v] == NONE32 ? UINT64_MAX : (uint64_t)s->name[a[v]] << 16 | s->kind[a[v]];
                bad += a[v] != b[v] || nk[v] != want;
                named += a[v] != NONE32;
            }
            cells += nv;
            free(a);
            free(b);
            free(nk);
            rowset_free(&rs);
            grid_free(&g);
        }
    if (!bad && named) {
        g_pass++;
        printf("ok - %s: the Gantt's cells' names and kinds as their events' (%zu cells, %zu with an interval)\n", name, cells, named);
    } else {
        g_failed++;
        printf("not ok - %s: %zu of %zu Gantt cells differ with their names and kinds (%zu with an interval)\n", name, bad, cells, named);
    }
}

/* the interface's rebuild (summary_build_from): from the unfiltered
 * summary to a filter on the instants, from there back to none, then to
 * a filter on the intervals; each must keep the lanes it replaces
 * exactly when the selected intervals are the same (counted here), and
 * give what a direct computation gives */
static void check_build_from(const char *name, const Store *s)
{
    static const char *const F[] = {"kind != \"mark\"", NULL, "dur > 1us || kind == \"mark\""};
    Summary *cur = summary_build(s, NULL, 2);
    uint64_t *prev = NULL;
    for (int i = 0; i < 3; i++) {
        uint64_t *sel = NULL;
        if (F[i]) {
            FilterError fe;
            Filter *f = filter_compile(s, F[i], &fe);
            if (!f) {
                printf("not ok - %s: '%s' does not compile\n", name, F[i]);
                g_failed++;
                break;
            }
            sel = xcalloc((s->n + 63) / 64 + 1, 8);
            filter_run(f, sel, NULL);
            filter_free(f);
        }
        bool same = true;
        for (uint32_t e = 0; e < s->n && same; e++) same = cand(s, prev, e) == cand(s, sel, e);
        Summary *next = summary_build_from(s, sel, 2, cur); /* (frees cur) */
        cur = next;
        char nm[200];
        snprintf(nm, sizeof nm, "%s | rebuilt for %s", name, F[i] ? F[i] : "no filter");
        if (summary_lanes_kept(cur) == same) {
            g_pass++;
            printf("ok - %s: the lanes %s (the selected intervals %s)\n", nm, same ? "kept" : "swept again", same ? "the same" : "changed");
        } else {
            g_failed++;
            printf("not ok - %s: the lanes %s, the selected intervals %s\n", nm, same ? "swept again" : "kept", same ? "the same" : "changed");
        }
        /* (a summary swept again takes the store's intervals from the
         * one it replaces, its candidates those and the selection: its
         * frames are drawn again too) */
        check_frames(nm, s, sel, cur);
        check_visible(nm, s, sel, cur);
        check_lanetime(nm, s, cur);
        check_names(nm, s, sel, cur);
        free(prev);
        prev = sel;
    }
    summary_free(cur);
    free(prev);
}

/* A trace whose segments need the summary's escapes (agg_int.h): gaps
 * and intervals longer than 2^32 ns within a lane (a time's offset in its
 * block does not fit in 32 bits), intervals of one activity nested 70 deep
 * (depths past the 6 bits of a segment's byte), and activities at several
 * locations (lanes sharing an activity's region), with syncs and
 * messages. */
static int gen_far(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return 2;
    fprintf(f, "ts,dur,loc,act,kind,name,peer,bytes,id,tag,group,file,line\n");
    long mid = 0;
    for (int loc = 0; loc < 6; loc++) {
        int64_t t = 1000000000 + loc * 1000;
        for (int k = 0; k < 400; k++) {
            uint32_t r = rnd(10);
            int64_t gap = r < 2 ? 5000000000LL + rnd(1000) : r < 3 ? 9000000000LL : 100 + rnd(1000);
            int64_t dur = rnd(8) == 0 ? 6000000000LL + rnd(100) : 50 + rnd(5000);
            bool shared = rnd(4) == 0;
            fprintf(f, "%" PRId64 ",%" PRId64 ",%d,%s%d,%s,n%u,,,,,,f.c,1\n", t, dur, loc, shared ? "m" : "a",
                    shared ? k % 3 : loc, rnd(6) == 0 ? "sync" : "state", rnd(20));
            if (rnd(5) == 0) {
                int dst = (int)rnd(6);
                fprintf(f, "%" PRId64 ",10,%d,a%d,send,MPI_Send,%d,%u,m%ld,0,,f.c,2\n", t + 5, loc, loc, dst, 64 + rnd(99), mid);
                fprintf(f, "%" PRId64 ",10,%d,a%d,recv,MPI_Recv,%d,64,m%ld,0,,f.c,3\n", t + 5 + (int64_t)6000000000LL, dst, dst, loc, mid);
                mid++;
            }
            t += dur + gap;
            if (k % 50 == 7) {
                /* a chain nested 70 deep */
                for (int j = 0; j < 70; j++)
                    fprintf(f, "%" PRId64 ",%d,%d,d%d,%s,deep%d,,,,,,f.c,4\n", t + j * 10, 2400 - j * 20, loc, loc,
                            j % 7 == 3 ? "sync" : "state", j);
                t += 70 * 20 + 1100;
            }
        }
    }
    return fclose(f) ? 2 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--gen-tasks")) return gen_tasks(atol(argv[2]), argv[3]);
    if (argc == 5 && !strcmp(argv[1], "--gen-locs")) return gen_locs(atol(argv[2]), atol(argv[3]), argv[4]);
    if (argc == 3 && !strcmp(argv[1], "--gen-far")) return gen_far(argv[2]);
    check_lanetime_random();
    /* the status count: location by location (these traces have 40
     * locations), then with the time index on every trace checked */
    check_count_shapes("by location");
    summary_count_index_min_locs(0);
    check_count_shapes("time index");
    for (int i = 1; i < argc; i++) check_file(argv[i]);
    printf("agg-check: %d passed, %d failed\n", g_pass, g_failed + g_fail_checks);
    return g_failed || g_fail_checks ? 1 : 0;
}
