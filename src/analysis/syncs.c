/*
 * syncs.c — sync instances, their participants and stragglers; see
 * syncs.h and doc/ANALYSES.md.
 */
#include "syncs.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "base/out.h"
#include "base/timeparse.h"
#include "base/util.h"

static inline bool selected(const uint64_t *sel, size_t e) { return !sel || ((sel[e >> 6] >> (e & 63)) & 1); }

#include "analysis/waits.h"

static _Thread_local const Store *tl_s; /* (qsort has no context argument) */
static int part_cmp(const void *a, const void *b)
{
    const SyncPart *x = a, *z = b;
    if (tl_s->ts[x->ev] != tl_s->ts[z->ev]) return tl_s->ts[x->ev] < tl_s->ts[z->ev] ? -1 : 1;
    return x->ev < z->ev ? -1 : x->ev > z->ev;
}

static size_t name_key(const Store *s, uint32_t e)
{
    return s->name[e] != NONE32 ? s->name[e] : (size_t)s->nnames + s->kind[e];
}

int64_t syncs_instance_wait(const SyncCtx *c, uint32_t g, uint32_t *last_ev)
{
    const Store *s = c->s;
    const SyncGroup *G = &s->groups[g];
    SyncDef d;
    syncdef_group(c, g, &d);
    int64_t tot = 0;
    for (uint32_t k = 0; k < G->nev; k++) {
        uint32_t e = s->group_ev[G->ev_off + k];
        WaitPattern p;
        int64_t ns;
        uint32_t cev;
        if (syncdef_arrival_wait(c, &d, e, &p, &ns, &cev) && ns > 0) tot = sat_add64(tot, ns);
    }
    if (last_ev) *last_ev = d.culprit != NONE32 ? d.culprit : G->last_ev;
    return tot;
}

void syncs_compute(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1, Syncs *y)
{
    memset(y, 0, sizeof *y);
    y->last_count = xcalloc((size_t)s->nloc + 1, sizeof(uint64_t));
    y->wait_caused = xcalloc((size_t)s->nloc + 1, sizeof(int64_t));
    y->act_last_count = xcalloc((size_t)s->nact + 1, sizeof(uint64_t));
    y->act_wait_caused = xcalloc((size_t)s->nact + 1, sizeof(int64_t));
    y->nname_keys = (size_t)s->nnames + K_USER + s->nukind + 1;
    y->name_last_count = xcalloc(y->nname_keys, sizeof(uint64_t));
    y->name_wait_caused = xcalloc(y->nname_keys, sizeof(int64_t));
    VEC(SyncInst) inst = {0};
    VEC(SyncPart) parts = {0};
    SyncCtx C;
    syncctx_init(s, &C);
    uint32_t *mark = xmalloc(((size_t)s->nact + 1) * sizeof(uint32_t));
    memset(mark, 0xFF, ((size_t)s->nact + 1) * sizeof(uint32_t));
    U32Vec extra = {0};
    for (uint32_t g = 0; g < s->ngroups; g++) {
        const SyncGroup *G = &s->groups[g];
        const uint32_t *ev = s->group_ev + G->ev_off;
        SyncDef d;
        syncdef_group(&C, g, &d);
        extra.len = 0;
        if (d.kind == SG_FINISH) syncdef_finish_extra(&C, g, mark, g, &extra);
        SyncInst I = {g, INT64_MIN, 0, d.culprit, (uint32_t)parts.len, 0};
        int64_t last_arr = INT64_MIN;
        for (size_t k = 0; k < G->nev + extra.len; k++) {
            uint32_t e = k < G->nev ? ev[k] : extra.v[k - G->nev];
            if (!selected(sel, e) || !ev_in_window(s, e, t0, t1)) continue;
            if (s->ts[e] > last_arr) last_arr = s->ts[e];
            if (s->kind[e] == K_SYNC && ev_end(s, e) > I.release) I.release = ev_end(s, e);
            WaitPattern p;
            int64_t ns = 0;
            uint32_t cev;
            if (syncdef_arrival_wait(&C, &d, e, &p, &ns, &cev) && ns > 0) {
                /* (its part inside the window) */
                int64_t wa = s->ts[e], wb = wa + ns;
                if (wa < t0) wa = t0;
                if (wb > t1) wb = t1;
                ns = wb > wa ? wb - wa : 0;
            }
            SyncPart P = {e, ns};
            VEC_PUSH(parts, P);
            I.n++;
            I.total_wait = sat_add64(I.total_wait, ns);
        }
        if (!I.n) continue;
        if (I.release == INT64_MIN) I.release = last_arr;
        if (I.last_ev == NONE32) I.last_ev = parts.v[I.off].ev;
        if (extra.len) { /* (the spawned activities' ends: by arrival too) */
            tl_s = s;
            qsort(parts.v + I.off, I.n, sizeof(SyncPart), part_cmp);
        }
        uint32_t ll = s->loc[I.last_ev], la = s->act[I.last_ev];
        size_t nk = name_key(s, I.last_ev);
        y->last_count[ll]++;
        y->wait_caused[ll] = sat_add64(y->wait_caused[ll], I.total_wait);
        y->act_last_count[la]++;
        y->act_wait_caused[la] = sat_add64(y->act_wait_caused[la], I.total_wait);
        y->name_last_count[nk]++;
        y->name_wait_caused[nk] = sat_add64(y->name_wait_caused[nk], I.total_wait);
        VEC_PUSH(inst, I);
    }
    VEC_FREE(extra);
    free(mark);
    syncctx_free(&C);
    y->inst = inst.v;
    y->ninst = (uint32_t)inst.len;
    y->parts = parts.v;
    y->nparts = parts.len;
}

uint32_t syncs_name_ev(const Store *s, const Syncs *y, const SyncInst *I)
{
    for (uint32_t k = 0; k < I->n; k++)
        if (s->kind[y->parts[I->off + k].ev] == K_SYNC) return y->parts[I->off + k].ev;
    return y->parts[I->off].ev;
}

void syncs_free(Syncs *y)
{
    free(y->inst);
    free(y->parts);
    free(y->last_count);
    free(y->wait_caused);
    free(y->act_last_count);
    free(y->act_wait_caused);
    free(y->name_last_count);
    free(y->name_wait_caused);
    memset(y, 0, sizeof *y);
}

static _Thread_local const Syncs *tl_y; /* (qsort has no context argument) */
static _Thread_local const uint64_t *tl_cnt;
static _Thread_local const int64_t *tl_caused;
static _Thread_local bool tl_names;

static const char *key_text(const Store *s, size_t k, char *buf, size_t sz)
{
    if (k < s->nnames) return store_str(s, (uint32_t)k);
    snprintf(buf, sz, "(%s)", kind_name(s, (uint16_t)(k - s->nnames)));
    return buf;
}

static int straggler_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, z = *(const uint32_t *)b;
    if (tl_cnt[x] != tl_cnt[z]) return tl_cnt[x] > tl_cnt[z] ? -1 : 1;
    if (tl_caused[x] != tl_caused[z]) return tl_caused[x] > tl_caused[z] ? -1 : 1;
    if (tl_names) {
        char bx[64], bz[64];
        int c = strcmp(key_text(tl_s, x, bx, sizeof bx), key_text(tl_s, z, bz, sizeof bz));
        if (c) return c;
    }
    return x < z ? -1 : x > z;
}

/* the locations (activities, name keys) that were last at least once: most
 * often first (ties: more wait caused, then location or activity order, or
 * the name's text) */
static uint32_t *ranked_last(const Store *s, const uint64_t *cnt, const int64_t *caused, size_t n, bool names,
                             uint32_t *m)
{
    uint32_t *o = xmalloc((n + 1) * sizeof *o), k = 0;
    for (size_t i = 0; i < n; i++)
        if (cnt[i]) o[k++] = (uint32_t)i;
    tl_s = s;
    tl_cnt = cnt;
    tl_caused = caused;
    tl_names = names;
    if (k > 1) qsort(o, k, sizeof *o, straggler_cmp);
    *m = k;
    return o;
}

static uint32_t *stragglers(const Store *s, const Syncs *y, uint32_t *n)
{
    return ranked_last(s, y->last_count, y->wait_caused, s->nloc, false, n);
}

static int inst_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, z = *(const uint32_t *)b;
    const SyncInst *X = &tl_y->inst[x], *Z = &tl_y->inst[z];
    if (X->total_wait != Z->total_wait) return X->total_wait > Z->total_wait ? -1 : 1;
    return x < z ? -1 : x > z;
}

void syncs_print_json(FILE *f, const Store *s, const Syncs *y)
{
    char gb[48], ab[256];
    fputs("{\"syncs\":[", f);
    for (uint32_t i = 0; i < y->ninst; i++) {
        const SyncInst *I = &y->inst[i];
        const SyncGroup *G = &s->groups[I->group];
        fputs(i ? ",{\"group\":" : "{\"group\":", f);
        if (G->type == VT_STR) json_cstr(f, report_group_label(s, G, gb, sizeof gb));
        else fputs(report_group_label(s, G, gb, sizeof gb), f);
        uint32_t ne = syncs_name_ev(s, y, I);
        fputs(",\"name\":", f);
        if (s->name[ne] != NONE32) json_cstr(f, store_str(s, s->name[ne]));
        else fputs("null", f);
        fprintf(f, ",\"release\":%" PRId64 ",\"wait_ns\":%" PRId64 ",\"participants\":[", I->release, I->total_wait);
        for (uint32_t k = 0; k < I->n; k++) {
            const SyncPart *P = &y->parts[I->off + k];
            fputs(k ? ",{\"act\":" : "{\"act\":", f);
            json_cstr(f, act_label(s, s->act[P->ev], ab, sizeof ab));
            fputs(",\"loc\":", f);
            report_json_loc(f, s, s->loc[P->ev]);
            fprintf(f, ",\"kind\":\"%s\",\"arrive\":%" PRId64 ",\"wait_ns\":%" PRId64 "}", kind_name(s, s->kind[P->ev]),
                    s->ts[P->ev], P->wait_ns);
        }
        fputs("],\"last\":{\"act\":", f);
        json_cstr(f, act_label(s, s->act[I->last_ev], ab, sizeof ab));
        fputs(",\"loc\":", f);
        report_json_loc(f, s, s->loc[I->last_ev]);
        fputs("}}", f);
    }
    fputs("],\"last_counts\":[", f);
    uint32_t n, *o = stragglers(s, y, &n);
    for (uint32_t i = 0; i < n; i++) {
        fputs(i ? ",{\"loc\":" : "{\"loc\":", f);
        report_json_loc(f, s, o[i]);
        fprintf(f, ",\"count\":%" PRIu64 ",\"wait_caused_ns\":%" PRId64 "}", y->last_count[o[i]], y->wait_caused[o[i]]);
    }
    free(o);
    fputs("],\"last_by_act\":[", f);
    o = ranked_last(s, y->act_last_count, y->act_wait_caused, s->nact, false, &n);
    for (uint32_t i = 0; i < n; i++) {
        fputs(i ? ",{\"act\":" : "{\"act\":", f);
        json_cstr(f, act_label(s, o[i], ab, sizeof ab));
        fputs(",\"loc\":", f);
        report_json_loc(f, s, s->acts[o[i]].home);
        fprintf(f, ",\"count\":%" PRIu64 ",\"wait_caused_ns\":%" PRId64 "}", y->act_last_count[o[i]],
                y->act_wait_caused[o[i]]);
    }
    free(o);
    fputs("],\"last_by_name\":[", f);
    o = ranked_last(s, y->name_last_count, y->name_wait_caused, y->nname_keys, true, &n);
    for (uint32_t i = 0; i < n; i++) {
        fputs(i ? ",{\"name\":" : "{\"name\":", f);
        if (o[i] < s->nnames) json_cstr(f, store_str(s, o[i]));
        else fputs("null", f);
        fputs(",\"kind\":", f);
        if (o[i] >= s->nnames) json_cstr(f, kind_name(s, (uint16_t)(o[i] - s->nnames)));
        else fputs("null", f);
        fprintf(f, ",\"count\":%" PRIu64 ",\"wait_caused_ns\":%" PRId64 "}", y->name_last_count[o[i]],
                y->name_wait_caused[o[i]]);
    }
    free(o);
    fputs("]}\n", f);
}

/* one table of who was last (locations, activities or name keys, by the
 * title), most often first */
static void last_table(FILE *f, const Store *s, const char *title, const uint64_t *cnt, const int64_t *caused, size_t nk,
                       int top)
{
    char a[32], lb[256];
    bool loc = !strcmp(title, "loc"), act = !strcmp(title, "activity");
    uint32_t n, *o = ranked_last(s, cnt, caused, nk, !loc && !act, &n);
    fprintf(f, "%s  %-20s %8s %14s\n", loc ? "" : "\n", title, "last", "wait caused");
    for (uint32_t i = 0; i < n && (top <= 0 || i < (uint32_t)top); i++) {
        const char *l = loc ? loc_label(s, o[i]) : act ? act_label(s, o[i], lb, sizeof lb) : key_text(s, o[i], lb, sizeof lb);
        fprintf(f, "  %-20s %8" PRIu64 " %14s\n", l, cnt[o[i]], format_dur(a, sizeof a, caused[o[i]]));
    }
    if (top > 0 && n > (uint32_t)top) fprintf(f, "  (%u more)\n", n - (uint32_t)top);
    free(o);
}

void syncs_print_text(FILE *f, const Store *s, const Syncs *y, int top)
{
    char a[32], b[32], c[32], gb[48], ab[256];
    if (!y->ninst) {
        fputs("no sync instances (no events with a group, in the selection)\n", f);
        return;
    }
    fprintf(f, "%u sync instance%s; the last to arrive, most often first:\n", y->ninst, y->ninst == 1 ? "" : "s");
    last_table(f, s, "loc", y->last_count, y->wait_caused, s->nloc, top);
    last_table(f, s, "activity", y->act_last_count, y->act_wait_caused, s->nact, top);
    last_table(f, s, "name", y->name_last_count, y->name_wait_caused, y->nname_keys, top);
    /* the instances that cost the most waiting */
    uint32_t *ord = xmalloc(((size_t)y->ninst + 1) * sizeof *ord);
    for (uint32_t i = 0; i < y->ninst; i++) ord[i] = i;
    tl_y = y;
    if (y->ninst > 1) qsort(ord, y->ninst, sizeof *ord, inst_cmp);
    fprintf(f, "\n%-22s %6s %12s %12s  %s\n", "instance", "parts", "wait", "release", "last to arrive");
    for (uint32_t i = 0; i < y->ninst && (top <= 0 || i < (uint32_t)top); i++) {
        const SyncInst *I = &y->inst[ord[i]];
        fprintf(f, "%-22s %6u %12s %12s  %s at %s\n", report_group_label(s, &s->groups[I->group], gb, sizeof gb), I->n,
                format_dur(a, sizeof a, I->total_wait), format_dur(b, sizeof b, I->release - s->t_min),
                act_label(s, s->act[I->last_ev], ab, sizeof ab), format_dur(c, sizeof c, s->ts[I->last_ev] - s->t_min));
    }
    if (top > 0 && y->ninst > (uint32_t)top) fprintf(f, "(%u more)\n", y->ninst - (uint32_t)top);
    free(ord);
}
