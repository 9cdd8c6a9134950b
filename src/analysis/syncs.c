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

static int64_t clip(int64_t v, int64_t hi) { return v < 0 ? 0 : v > hi ? hi : v; }

void syncs_compute(const Store *s, const uint64_t *sel, Syncs *y)
{
    memset(y, 0, sizeof *y);
    y->last_count = xcalloc((size_t)s->nloc + 1, sizeof(uint64_t));
    y->wait_caused = xcalloc((size_t)s->nloc + 1, sizeof(int64_t));
    VEC(SyncInst) inst = {0};
    VEC(SyncPart) parts = {0};
    for (uint32_t g = 0; g < s->ngroups; g++) {
        const SyncGroup *G = &s->groups[g];
        const uint32_t *ev = s->group_ev + G->ev_off;
        /* the last arrival and the last end (a finish's), over the selected */
        int64_t last_arr = INT64_MIN, release = INT64_MIN;
        uint32_t last_ev = NONE32, last_end = NONE32, n = 0;
        for (uint32_t k = 0; k < G->nev; k++) {
            uint32_t e = ev[k];
            if (!selected(sel, e)) continue;
            n++;
            if (s->ts[e] >= last_arr) {
                last_arr = s->ts[e];
                last_ev = e;
            }
            if (s->kind[e] == K_END && (last_end == NONE32 || s->ts[e] >= s->ts[last_end])) last_end = e;
            if (s->kind[e] == K_SYNC && ev_end(s, e) > release) release = ev_end(s, e);
        }
        if (!n) continue;
        if (release == INT64_MIN) release = last_arr;
        SyncInst I = {g, release, 0, last_end != NONE32 ? last_end : last_ev, (uint32_t)parts.len, n};
        for (uint32_t k = 0; k < G->nev; k++) {
            uint32_t e = ev[k];
            if (!selected(sel, e)) continue;
            int64_t w = 0;
            if (s->kind[e] == K_SYNC)
                w = clip((last_end != NONE32 ? s->ts[last_end] : last_arr) - s->ts[e], s->dur[e]);
            SyncPart P = {e, w};
            VEC_PUSH(parts, P);
            I.total_wait = sat_add64(I.total_wait, w);
        }
        uint32_t ll = s->loc[I.last_ev];
        y->last_count[ll]++;
        y->wait_caused[ll] = sat_add64(y->wait_caused[ll], I.total_wait);
        VEC_PUSH(inst, I);
    }
    y->inst = inst.v;
    y->ninst = (uint32_t)inst.len;
    y->parts = parts.v;
    y->nparts = parts.len;
}

void syncs_free(Syncs *y)
{
    free(y->inst);
    free(y->parts);
    free(y->last_count);
    free(y->wait_caused);
    memset(y, 0, sizeof *y);
}

static _Thread_local const Syncs *tl_y; /* (qsort has no context argument) */

static int straggler_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, z = *(const uint32_t *)b;
    if (tl_y->last_count[x] != tl_y->last_count[z]) return tl_y->last_count[x] > tl_y->last_count[z] ? -1 : 1;
    if (tl_y->wait_caused[x] != tl_y->wait_caused[z]) return tl_y->wait_caused[x] > tl_y->wait_caused[z] ? -1 : 1;
    return x < z ? -1 : x > z;
}

/* locations that were last at least once: most often first (ties: more
 * wait caused, then location order) */
static uint32_t *stragglers(const Store *s, const Syncs *y, uint32_t *n)
{
    uint32_t *o = xmalloc(((size_t)s->nloc + 1) * sizeof *o), m = 0;
    for (uint32_t l = 0; l < s->nloc; l++)
        if (y->last_count[l]) o[m++] = l;
    tl_y = y;
    if (m > 1) qsort(o, m, sizeof *o, straggler_cmp);
    *n = m;
    return o;
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
        /* the name: of its first sync event (else its first event) */
        uint32_t ne = NONE32;
        for (uint32_t k = 0; k < I->n && ne == NONE32; k++)
            if (s->kind[y->parts[I->off + k].ev] == K_SYNC) ne = y->parts[I->off + k].ev;
        if (ne == NONE32) ne = y->parts[I->off].ev;
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
    fputs("]}\n", f);
}

void syncs_print_text(FILE *f, const Store *s, const Syncs *y, int top)
{
    char a[32], b[32], c[32], gb[48], ab[256];
    if (!y->ninst) {
        fputs("no sync instances (no events with a group, in the selection)\n", f);
        return;
    }
    uint32_t n, *o = stragglers(s, y, &n);
    fprintf(f, "%u sync instance%s; the last to arrive, most often first:\n", y->ninst, y->ninst == 1 ? "" : "s");
    fprintf(f, "  %-20s %8s %14s\n", "loc", "last", "wait caused");
    for (uint32_t i = 0; i < n && (top <= 0 || i < (uint32_t)top); i++)
        fprintf(f, "  %-20s %8" PRIu64 " %14s\n", loc_label(s, o[i]), y->last_count[o[i]],
                format_dur(a, sizeof a, y->wait_caused[o[i]]));
    if (top > 0 && n > (uint32_t)top) fprintf(f, "  (%u more)\n", n - (uint32_t)top);
    free(o);
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
