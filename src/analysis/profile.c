/*
 * profile.c — the profile by name; see profile.h and doc/ANALYSES.md.
 */
#include "profile.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/out.h"
#include "base/timeparse.h"
#include "base/util.h"

static inline bool selected(const uint64_t *sel, size_t e) { return !sel || ((sel[e >> 6] >> (e & 63)) & 1); }

static bool is_interval(const Store *s, uint32_t e) { return (s->flags[e] & EVF_DUR) && s->kind[e] != K_MSG; }

/* Identical intervals (same start and end) of one activity nest in an order
 * of their content, not of the input: the more specific kind inside (a state,
 * then user kinds, then communication, then a sync innermost), then by name
 * text; so self times, and busy and sync built from them, do not depend on
 * the order of the input's lines. */
static int kind_rank(unsigned k)
{
    if (k == K_STATE) return 0;
    if (k >= K_USER) return 1;
    if (k == K_SYNC) return 3;
    return 2;
}

static _Thread_local const Store *tie_store; /* qsort has no context argument */

static int tie_cmp(const void *pa, const void *pb)
{
    const Store *s = tie_store;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    int ra = kind_rank(s->kind[a]), rb = kind_rank(s->kind[b]);
    if (ra != rb) return ra - rb;
    if (s->kind[a] != s->kind[b]) return s->kind[a] < s->kind[b] ? -1 : 1;
    if (s->name[a] != s->name[b]) {
        if (s->name[a] == NONE32) return -1;
        if (s->name[b] == NONE32) return 1;
        int c = strcmp(store_str(s, s->name[a]), store_str(s, s->name[b]));
        if (c) return c;
    }
    return a < b ? -1 : a > b;
}

/* the length of [a, b) inside [t0, t1) */
static int64_t inside(int64_t a, int64_t b, int64_t t0, int64_t t1)
{
    if (a < t0) a = t0;
    if (b > t1) b = t1;
    return b > a ? b - a : 0;
}

int64_t *profile_children(const Store *s, int64_t t0, int64_t t1)
{
    /* the children's time of each interval, by a sweep of each activity */
    int64_t *child = xcalloc(s->n + 1, sizeof *child);
    VEC(uint32_t) stack = {0};
    VEC(uint32_t) run = {0};
    for (uint32_t a = 0; a < s->nact; a++) {
        stack.len = 0;
        uint32_t k = s->act_off[a], kend = s->act_off[a + 1];
        while (k < kend) {
            uint32_t e = s->act_ev[k];
            if (!is_interval(s, e)) {
                k++;
                continue;
            }
            /* the run of intervals identical to e (act_ev is sorted by start,
             * longer first, so they follow it, maybe between instants) */
            run.len = 0;
            VEC_PUSH(run, e);
            uint32_t k2 = k + 1;
            for (; k2 < kend; k2++) {
                uint32_t f = s->act_ev[k2];
                if (s->ts[f] != s->ts[e]) break;
                if (!is_interval(s, f)) continue;
                if (s->dur[f] != s->dur[e]) break;
                VEC_PUSH(run, f);
            }
            if (run.len > 1) {
                tie_store = s;
                qsort(run.v, run.len, sizeof *run.v, tie_cmp);
                k = k2;
            } else {
                k++;
            }
            for (size_t r = 0; r < run.len; r++) {
                e = run.v[r];
                while (stack.len && ev_end(s, stack.v[stack.len - 1]) <= s->ts[e]) stack.len--;
                if (stack.len) {
                    /* (clipped to the parent: nesting is proper after lanes,
                     * but an activity that moved between locations may
                     * overlap) */
                    uint32_t par = stack.v[stack.len - 1];
                    int64_t end = ev_end(s, e) < ev_end(s, par) ? ev_end(s, e) : ev_end(s, par);
                    child[par] = sat_add64(child[par], inside(s->ts[e], end, t0, t1));
                }
                VEC_PUSH(stack, e);
            }
        }
    }
    VEC_FREE(stack);
    VEC_FREE(run);
    return child;
}

int64_t profile_self(const Store *s, const int64_t *child, uint32_t e, int64_t t0, int64_t t1)
{
    if (!is_interval(s, e)) return 0;
    int64_t d = inside(s->ts[e], ev_end(s, e), t0, t1) - child[e];
    return d > 0 ? d : 0;
}

void profile_compute_with(const Store *s, const uint64_t *sel, const int64_t *child, int64_t t0, int64_t t1, Profile *p)
{
    memset(p, 0, sizeof *p);
    /* rows: one per name (unnamed: one per kind) */
    uint32_t nkinds = K_USER + s->nukind;
    uint32_t *row_of = xmalloc(((size_t)s->nnames + nkinds + 1) * sizeof *row_of);
    for (uint32_t i = 0; i < s->nnames + nkinds; i++) row_of[i] = NONE32;
    VEC(ProfRow) rows = {0};
    for (size_t e = 0; e < s->n; e++) {
        if (!is_interval(s, (uint32_t)e) || !selected(sel, e)) continue;
        if (s->ts[e] >= t1 || ev_end(s, e) <= t0) continue;
        uint32_t key = s->name[e] != NONE32 ? s->name[e] : s->nnames + s->kind[e];
        if (row_of[key] == NONE32) {
            ProfRow z = {s->name[e], s->kind[e], 0, 0, 0, INT64_MAX, 0, 0};
            row_of[key] = (uint32_t)rows.len;
            VEC_PUSH(rows, z);
        }
        ProfRow *R = &rows.v[row_of[key]];
        /* (clipped to the window) */
        int64_t d = inside(s->ts[e], ev_end(s, e), t0, t1), self = d - child[e] > 0 ? d - child[e] : 0;
        R->calls++;
        R->incl = sat_add64(R->incl, d);
        R->self = sat_add64(R->self, self);
        if (d < R->min) R->min = d;
        if (d > R->max) R->max = d;
        R->sumsq += (double)d * (double)d;
        p->total_self = sat_add64(p->total_self, self);
    }
    free(row_of);
    p->rows = rows.v;
    p->n = (uint32_t)rows.len;
    profile_sort(s, p, PS_SELF);
}

void profile_compute(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1, Profile *p)
{
    int64_t *child = profile_children(s, t0, t1);
    profile_compute_with(s, sel, child, t0, t1, p);
    free(child);
}

const char *profile_row_name(const Store *s, const ProfRow *r, char *buf, size_t sz)
{
    if (r->name != NONE32) return store_str(s, r->name);
    snprintf(buf, sz, "(%s)", kind_name(s, r->kind));
    return buf;
}

static _Thread_local const Store *tl_s;
static _Thread_local ProfSort tl_by;

static int row_cmp(const void *a, const void *b)
{
    const ProfRow *x = a, *y = b;
    char bx[64], by[64];
    const char *nx = profile_row_name(tl_s, x, bx, sizeof bx), *ny = profile_row_name(tl_s, y, by, sizeof by);
    double vx = 0, vy = 0;
    switch (tl_by) {
    case PS_SELF: vx = (double)x->self, vy = (double)y->self; break;
    case PS_INCL: vx = (double)x->incl, vy = (double)y->incl; break;
    case PS_CALLS: vx = (double)x->calls, vy = (double)y->calls; break;
    case PS_MEAN: vx = (double)x->incl / (double)x->calls, vy = (double)y->incl / (double)y->calls; break;
    case PS_MIN: vx = (double)x->min, vy = (double)y->min; break;
    case PS_MAX: vx = (double)x->max, vy = (double)y->max; break;
    case PS_STDDEV: vx = (double)profile_stddev(x), vy = (double)profile_stddev(y); break;
    case PS_NAME: break;
    }
    if (vx != vy) return vx > vy ? -1 : 1;
    int c = strcmp(nx, ny);
    return c ? c : (x->kind > y->kind) - (x->kind < y->kind);
}

void profile_sort(const Store *s, Profile *p, ProfSort by)
{
    tl_s = s;
    tl_by = by;
    if (p->n > 1) qsort(p->rows, p->n, sizeof *p->rows, row_cmp);
}

bool profile_sort_by_name(const char *col, ProfSort *out)
{
    static const struct { const char *n; ProfSort v; } T[] = {
        {"self", PS_SELF}, {"total", PS_INCL}, {"incl", PS_INCL}, {"calls", PS_CALLS},
        {"mean", PS_MEAN}, {"min", PS_MIN},    {"max", PS_MAX},     {"stddev", PS_STDDEV},
        {"share", PS_SELF}, {"name", PS_NAME},
    };
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        if (!strcmp(col, T[i].n)) {
            *out = T[i].v;
            return true;
        }
    return false;
}

void profile_free(Profile *p)
{
    free(p->rows);
    memset(p, 0, sizeof *p);
}

int64_t profile_stddev(const ProfRow *r)
{
    if (!r->calls) return 0;
    double m = (double)r->incl / (double)r->calls;
    double v = r->sumsq / (double)r->calls - m * m;
    return v > 0 ? (int64_t)llround(sqrt(v)) : 0;
}

void profile_print_json(FILE *f, const Store *s, const Profile *p)
{
    char b[64];
    fputs("[", f);
    for (uint32_t i = 0; i < p->n; i++) {
        const ProfRow *r = &p->rows[i];
        fputs(i ? ",{\"name\":" : "{\"name\":", f);
        json_cstr(f, profile_row_name(s, r, b, sizeof b));
        fprintf(f,
                ",\"calls\":%" PRIu64 ",\"total_ns\":%" PRId64 ",\"self_ns\":%" PRId64 ",\"mean_ns\":%" PRId64
                ",\"min_ns\":%" PRId64 ",\"max_ns\":%" PRId64 ",\"stddev_ns\":%" PRId64 ",\"share\":%.4f}",
                r->calls, r->incl, r->self, r->incl / (int64_t)r->calls, r->min, r->max, profile_stddev(r),
                p->total_self ? (double)r->self / (double)p->total_self : 0.0);
    }
    fputs("]", f);
}

void profile_print_text(FILE *f, const Store *s, const Profile *p, int top)
{
    char b[64], c1[32], c2[32], c3[32], c4[32], c5[32], c6[32];
    if (!p->n) return;
    fprintf(f, "\nprofile by name (intervals; self = without the intervals inside)\n");
    /* the name column as wide as the names shown (28 to 48) */
    int nw = 28;
    for (uint32_t i = 0; i < p->n && (top <= 0 || i < (uint32_t)top); i++) {
        int w = text_cols(profile_row_name(s, &p->rows[i], b, sizeof b));
        if (w > nw) nw = w < 48 ? w : 48;
    }
    fput_col(f, "name", nw);
    fprintf(f, " %8s %12s %12s %7s %12s %12s %12s %12s\n", "calls", "self", "total", "share", "mean", "min", "max", "stddev");
    for (uint32_t i = 0; i < p->n && (top <= 0 || i < (uint32_t)top); i++) {
        const ProfRow *r = &p->rows[i];
        fput_col(f, profile_row_name(s, r, b, sizeof b), nw);
        fprintf(f, " %8" PRIu64 " %12s %12s %6.1f%% %12s %12s %12s %12s\n",
                r->calls, format_dur(c1, sizeof c1, r->self), format_dur(c2, sizeof c2, r->incl),
                p->total_self ? 100.0 * (double)r->self / (double)p->total_self : 0.0,
                format_dur(c3, sizeof c3, r->incl / (int64_t)r->calls), format_dur(c6, sizeof c6, r->min),
                format_dur(c4, sizeof c4, r->max), format_dur(c5, sizeof c5, profile_stddev(r)));
    }
    if (top > 0 && p->n > (uint32_t)top) fprintf(f, "(%u more names; --top 0 shows all)\n", p->n - (uint32_t)top);
}
