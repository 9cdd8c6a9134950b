/*
 * timecat.c — time categories per location and the window's efficiencies;
 * see timecat.h and doc/ANALYSES.md.
 */
#include "timecat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/profile.h"
#include "analysis/report.h"
#include "analysis/waits.h"
#include "base/util.h"
#include "filters/rx.h"

static inline bool selected(const uint64_t *sel, size_t e) { return !sel || ((sel[e >> 6] >> (e & 63)) & 1); }

static double mono_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int timecat_rules(const Store *s, const char *comm_re, const char *sync_re, double budget, TimeCatRules *r, char *err,
                  size_t errsz)
{
    double deadline = budget > 0 ? mono_sec() + budget : 0;
    memset(r, 0, sizeof *r);
    r->comm = xstrdup(comm_re ? comm_re : TIMECAT_COMM_DEFAULT);
    r->sync = xstrdup(sync_re ? sync_re : TIMECAT_SYNC_DEFAULT);
    r->name_cat = xcalloc((size_t)s->nnames + 1, 1);
    const char *pat[2] = {r->sync, r->comm}, *opt[2] = {"--sync-names", "--comm-names"};
    const uint8_t cat[2] = {TC_SYNC, TC_COMM};
    for (int k = 0; k < 2; k++) {
        if (!*pat[k]) continue;
        char msg[256];
        size_t off = 0;
        Regex *rx = rx_compile(pat[k], strlen(pat[k]), 0, msg, sizeof msg, &off);
        if (!rx) {
            snprintf(err, errsz, "%s: not a regular expression: %s at offset %zu of '%.80s%s'", opt[k], msg, off, pat[k],
                     strlen(pat[k]) > 80 ? "…" : "");
            timecat_rules_free(r);
            return TC_RULES_BAD_PATTERN;
        }
        for (uint32_t m = 0; m < s->nnames; m++) {
            /* the budget, checked before every 8th match (a match may take
             * milliseconds; the clock is the coarse one) */
            if (deadline > 0 && (m & 7) == 0 && mono_sec() >= deadline) {
                snprintf(err, errsz, "%s: stopped after %g s (--filter-timeout)", opt[k], budget);
                rx_free(rx);
                timecat_rules_free(r);
                return TC_RULES_FAILED;
            }
            if (r->name_cat[m]) continue; /* (sync first) */
            size_t n;
            const char *t = store_strn(s, m, &n);
            int x = rx_match(rx, t, n);
            if (x < 0) {
                char why[400];
                rx_fail_message(rx, x, t, n, why, sizeof why);
                snprintf(err, errsz, "%s: %s", opt[k], why);
                rx_free(rx);
                timecat_rules_free(r);
                return TC_RULES_FAILED;
            }
            if (x) r->name_cat[m] = cat[k];
        }
        rx_free(rx);
    }
    return TC_RULES_OK;
}

bool timecat_check_patterns(const char *comm_re, const char *sync_re, char *err, size_t errsz)
{
    const char *pat[2] = {sync_re, comm_re}, *opt[2] = {"--sync-names", "--comm-names"};
    for (int k = 0; k < 2; k++) {
        if (!pat[k] || !*pat[k]) continue;
        char msg[256];
        size_t off = 0;
        Regex *rx = rx_compile(pat[k], strlen(pat[k]), 0, msg, sizeof msg, &off);
        if (!rx) {
            snprintf(err, errsz, "%s: not a regular expression: %s at offset %zu of '%s'", opt[k], msg, off, pat[k]);
            return false;
        }
        rx_free(rx);
    }
    return true;
}

void timecat_rules_free(TimeCatRules *r)
{
    free(r->name_cat);
    free(r->comm);
    free(r->sync);
    memset(r, 0, sizeof *r);
}

TimeCat timecat_of(const Store *s, const TimeCatRules *r, uint32_t e)
{
    uint16_t k = s->kind[e];
    if (!(s->flags[e] & EVF_DUR) || k == K_MSG) return TC_NONE;
    if (r && s->name[e] != NONE32 && r->name_cat[s->name[e]]) {
        /* a name decides, but never makes idle time work */
        if (k >= K_USER && s->ukind_idle[k - K_USER]) return TC_NONE;
        return (TimeCat)r->name_cat[s->name[e]];
    }
    if (k == K_SEND || k == K_RECV) return TC_COMM;
    if (k == K_SYNC) return TC_SYNC;
    if (kind_is_busy(s, k)) return TC_USEFUL;
    return TC_NONE;
}

void timecat_compute(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1, const TimeCatRules *r,
                     const int64_t *child, TimeCats *tc)
{
    memset(tc, 0, sizeof *tc);
    tc->t0 = t0;
    tc->t1 = t1;
    tc->loc = xcalloc((size_t)s->nloc + 1, sizeof(LocTime));
    int64_t *own = NULL;
    if (!child) child = own = profile_children(s, t0, t1);
    bool *seen = xcalloc((size_t)s->nloc + 1, sizeof(bool));
    for (size_t e = 0; e < s->n; e++) {
        if (!selected(sel, e)) continue;
        if (!ev_in_window(s, e, t0, t1)) continue;
        LocTime *L = &tc->loc[s->loc[e]];
        seen[s->loc[e]] = true;
        L->events++;
        TimeCat c = timecat_of(s, r, (uint32_t)e);
        if (c == TC_NONE) continue;
        int64_t self = profile_self(s, child, (uint32_t)e, t0, t1);
        int64_t *slot = c == TC_USEFUL ? &L->useful : c == TC_COMM ? &L->comm : &L->sync;
        *slot = sat_add64(*slot, self);
    }
    free(own);
    /* messages whose sending (receiving) event is selected and starts in the window */
    for (uint32_t m = 0; m < s->nmsg; m++) {
        const Message *M = &s->msgs[m];
        int64_t by = msg_bytes(s, M);
        if (by < 0) by = 0;
        if (M->send_ev != NONE32 && M->src != NONE32 && selected(sel, M->send_ev) && s->ts[M->send_ev] >= t0 &&
            s->ts[M->send_ev] < t1) {
            tc->loc[M->src].sent_bytes = sat_add64(tc->loc[M->src].sent_bytes, by);
            tc->loc[M->src].sent_msgs++;
        }
        if (M->recv_ev != NONE32 && M->dst != NONE32 && selected(sel, M->recv_ev) && s->ts[M->recv_ev] >= t0 &&
            s->ts[M->recv_ev] < t1) {
            tc->loc[M->dst].recv_bytes = sat_add64(tc->loc[M->dst].recv_bytes, by);
            tc->loc[M->dst].recv_msgs++;
        }
    }
    /* waiting: every wait state at the location (its victim) */
    Waits w;
    waits_compute(s, sel, t0, t1, &w);
    for (int p = 0; p < W__N; p++)
        for (uint32_t l = 0; l < s->nloc; l++) tc->loc[l].wait = sat_add64(tc->loc[l].wait, w.p[p].by_loc[l]);
    waits_free(&w);
    /* idle and the efficiencies */
    /* the window, clipped to the trace's span (a default window ends 1 ns
     * past the last end, to hold an instant there) */
    int64_t wa = t0 > s->t_min ? t0 : s->t_min, wb = t1 < s->t_max ? t1 : s->t_max;
    int64_t W = wb > wa ? sat_sub64(wb, wa) : 0;
    Pop *P = &tc->pop;
    P->window = W;
    int64_t min_wait = INT64_MAX;
    for (uint32_t l = 0; l < s->nloc; l++) {
        LocTime *L = &tc->loc[l];
        int64_t used = sat_add64(sat_add64(L->useful, L->comm), L->sync);
        L->idle = used < W ? W - used : 0;
        if (!seen[l]) continue;
        P->nloc++;
        P->sum_useful = sat_add64(P->sum_useful, L->useful);
        if (L->useful > P->max_useful) P->max_useful = L->useful;
        if (L->wait < min_wait) min_wait = L->wait;
    }
    free(seen);
    P->sum_window = (int64_t)((double)W * P->nloc < 9.2e18 ? W * (int64_t)P->nloc : INT64_MAX);
    P->valid = P->nloc > 0 && W > 0 && P->max_useful > 0;
    if (P->valid) {
        double mean = (double)P->sum_useful / P->nloc, win = (double)W;
        P->load_balance = mean / (double)P->max_useful;
        P->comm_eff = (double)P->max_useful / win;
        /* the location that waited least: max over locations of (W - wait) / W */
        int64_t mw = min_wait < W ? min_wait : W;
        P->ser_eff = (win - (double)mw) / win;
        P->transfer_eff = P->ser_eff > 0 ? P->comm_eff / P->ser_eff : 0;
        P->par_eff = P->load_balance * P->comm_eff;
    }
}

void timecat_free(TimeCats *tc)
{
    free(tc->loc);
    memset(tc, 0, sizeof *tc);
}
