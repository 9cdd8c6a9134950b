/*
 * report.c — see report.h.
 */
#include "report.h"

#include <inttypes.h>
#include <string.h>

#include "base/out.h"
#include "base/util.h"

void report_json_loc(FILE *f, const Store *s, uint32_t loc)
{
    if (loc == NONE32 || loc >= s->nloc) {
        fputs("null", f);
        return;
    }
    const Location *L = &s->locs[loc];
    if (L->is_int) fprintf(f, "%" PRId64, L->ival);
    else json_cstr(f, strtab_str(&s->strs, L->label));
}

uint64_t *report_window_sel(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1)
{
    if (!sel && t0 <= s->t_min && t1 > s->t_max) return NULL;
    size_t nw = (s->n + 63) / 64;
    uint64_t *w = xcalloc(nw + 1, sizeof *w);
    for (size_t e = 0; e < s->n; e++)
        if ((!sel || ((sel[e >> 6] >> (e & 63)) & 1)) && ev_in_window(s, e, t0, t1)) w[e >> 6] |= 1ULL << (e & 63);
    return w;
}

const char *report_group_label(const Store *s, const SyncGroup *G, char *buf, size_t sz)
{
    if (G->type == VT_STR) return store_str(s, G->sid);
    if (G->type == VT_FLT) {
        double d;
        memcpy(&d, &G->ival, 8);
        snprintf(buf, sz, "%.17g", d);
    } else {
        snprintf(buf, sz, "%" PRId64, G->ival);
    }
    return buf;
}

static inline bool rc_sel(const uint64_t *sel, size_t e) { return !sel || ((sel[e >> 6] >> (e & 63)) & 1); }

static inline bool rc_is_recv(const Store *s, uint32_t e) { return s->kind[e] == K_RECV && s->dur[e] > 0; }

bool report_recv_call(const Store *s, uint32_t A, size_t k, const uint64_t *sel, const uint64_t *send_sel,
                      int64_t before, bool within, RecvCall *c)
{
    const uint32_t *v = s->act_ev;
    size_t lo = s->act_off[A], hi = s->act_off[A + 1];
    uint32_t e = v[k];
    memset(c, 0, sizeof *c);
    c->send_ev = c->recv_ev = NONE32;
    if (!rc_is_recv(s, e)) return false;
    int64_t ts = s->ts[e];
    uint32_t loc = s->loc[e];
    size_t a = k, b = k + 1;
    while (a > lo && s->ts[v[a - 1]] == ts) a--;
    while (b < hi && s->ts[v[b]] == ts) b++;
    c->first = k;
    c->start = ts;
    for (size_t i = a; i < b; i++) {
        uint32_t r = v[i];
        if (!rc_is_recv(s, r) || s->loc[r] != loc) continue;
        if (!c->nrecv++) c->first = i;
        if (s->dur[r] > c->dur) c->dur = s->dur[r];
        if (rc_sel(sel, r)) c->selected = true;
    }
    for (size_t i = a; i < b; i++) {
        uint32_t r = v[i];
        if (!rc_is_recv(s, r) || s->loc[r] != loc) continue;
        /* its messages: ev_msg is sorted by event */
        size_t x = 0, y = s->nev_msg;
        while (x < y) {
            size_t mid = (x + y) / 2;
            if (s->ev_msg[mid].ev < r) x = mid + 1;
            else y = mid;
        }
        for (; x < s->nev_msg && s->ev_msg[x].ev == r; x++) {
            const Message *M = &s->msgs[s->ev_msg[x].idx];
            uint32_t o = M->send_ev;
            if (M->recv_ev != r || o == NONE32 || o == r || !rc_sel(send_sel, o) || s->ts[o] >= before) continue;
            if (within && (s->ts[o] <= ts || s->ts[o] > ts + c->dur)) continue;
            if (c->send_ev == NONE32 || s->ts[o] > s->ts[c->send_ev] ||
                (s->ts[o] == s->ts[c->send_ev] && o > c->send_ev)) {
                c->send_ev = o;
                c->recv_ev = r;
            }
        }
    }
    return true;
}
