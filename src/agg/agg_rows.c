/*
 * agg_rows.c — row sets (all rows of a kind, spawn-tree order, grouping to
 * fit the screen, windows, labels) and the ranking of names by innermost
 * time (colours and the legend).
 *
 * Owns: Summary.name_rank, top, top_ns: ranked from the per-key tables
 * that build_lanes' sweep fills (names_sweep_keys), or, when a trace has
 * too many names for them, lazily from a walk over the lanes.
 * Invariants: a row set's ids are a permutation of the base rows; groups
 * are contiguous runs of ids; name ranks do not depend on the frame, nor
 * on which of the two made them (integer sums and minimums per key, the
 * same segments).
 */
#include "agg_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- rows ------------------------------------------------------------------------------ */

void rowset_init(RowSet *rs, Summary *S, RowKind kind, bool tree)
{
    const Store *s = S->s;
    memset(rs, 0, sizeof *rs);
    rs->kind = kind;
    rs->n = kind == ROWS_LOC ? s->nloc : kind == ROWS_ACT ? s->nact : summary_npairs(S);
    rs->ids = xmalloc(((size_t)rs->n + 1) * sizeof(uint32_t));
    rs->depth = xcalloc((size_t)rs->n + 1, sizeof(uint16_t));
    rs->owned = true;
    for (uint32_t i = 0; i < rs->n; i++) rs->ids[i] = i;
    if (kind == ROWS_ACT && tree && s->nact) {
        /* depth-first over the spawn tree; children in activity order */
        uint32_t n = s->nact;
        uint32_t *coff = xcalloc((size_t)n + 2, sizeof(uint32_t)), *kids = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
        for (uint32_t a = 0; a < n; a++)
            if (s->acts[a].parent != NONE32 && s->acts[a].parent != a) coff[s->acts[a].parent + 1]++;
        for (uint32_t a = 0; a < n; a++) coff[a + 1] += coff[a];
        uint32_t *pos = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
        memcpy(pos, coff, (size_t)n * sizeof(uint32_t));
        for (uint32_t a = 0; a < n; a++)
            if (s->acts[a].parent != NONE32 && s->acts[a].parent != a) kids[pos[s->acts[a].parent]++] = a;
        uint8_t *seen = xcalloc((size_t)n + 1, 1);
        uint32_t *stk = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
        uint16_t *sd = xmalloc(((size_t)n + 1) * sizeof(uint16_t));
        uint32_t k = 0;
        for (int pass = 0; pass < 2; pass++)
            for (uint32_t root = 0; root < n; root++) {
                /* roots first; then anything a cycle left unvisited */
                bool is_root = s->acts[root].parent == NONE32 || s->acts[root].parent == root;
                if (seen[root] || (pass == 0 && !is_root)) continue;
                size_t sp = 0;
                stk[sp] = root;
                sd[sp++] = 0;
                seen[root] = 1;
                while (sp) {
                    uint32_t a = stk[--sp];
                    uint16_t d = sd[sp];
                    rs->ids[k] = a;
                    rs->depth[k++] = d;
                    for (uint32_t c = coff[a + 1]; c > coff[a]; c--) { /* pushed in reverse: popped in order */
                        uint32_t kid = kids[c - 1];
                        if (seen[kid]) continue;
                        seen[kid] = 1;
                        stk[sp] = kid;
                        sd[sp++] = d < 60000 ? (uint16_t)(d + 1) : d;
                    }
                }
            }
        free(coff);
        free(kids);
        free(pos);
        free(seen);
        free(stk);
        free(sd);
    }
    rs->gsize = 1;
    rs->ng = rs->n;
}

void rowset_fit(RowSet *rs, int lines)
{
    if (rs->owned) free(rs->gstart);
    rs->gstart = NULL;
    if (lines < 1) lines = 1;
    rs->gsize = rs->n > (uint32_t)lines ? (rs->n + (uint32_t)lines - 1) / (uint32_t)lines : 1;
    rs->ng = rs->gsize ? (rs->n + rs->gsize - 1) / rs->gsize : 0;
}

void rowset_free(RowSet *rs)
{
    if (rs->owned) {
        free(rs->ids);
        free(rs->depth);
        free(rs->gstart);
    }
    memset(rs, 0, sizeof *rs);
}

void rowset_window(const RowSet *rs, uint32_t off, uint32_t count, RowSet *out)
{
    *out = *rs;
    out->owned = false;
    if (off > rs->ng) off = rs->ng;
    if (count > rs->ng - off) count = rs->ng - off;
    out->ng = count;
    if (rs->gstart) {
        out->gstart = rs->gstart + off;
        return;
    }
    uint32_t first = off * rs->gsize;
    out->ids = rs->ids + first;
    out->depth = rs->depth + first;
    out->n = rs->n - first;
}

void row_label(Summary *S, RowKind kind, uint32_t id, char *buf, size_t sz)
{
    const Store *s = S->s;
    if (kind == ROWS_LOC) {
        snprintf(buf, sz, "%s", loc_label(s, id));
    } else if (kind == ROWS_ACT) {
        /* act_label's text, with whether a label is shared by several
         * activities looked up in a table built once (act_label scans
         * every activity: a frame of 60 labels over 200,000 activities
         * cost 24M comparisons) */
        if (id >= s->nact) {
            snprintf(buf, sz, "?");
            return;
        }
        const Activity *A = &s->acts[id];
        if (A->label == NONE32) {
            snprintf(buf, sz, "@%s", loc_label(s, A->home));
            return;
        }
        /* a label's slot: its dictionary id, or past the dictionary its
         * prefix+number id's index */
        const size_t nd = s->strs.count, nslot = nd + s->nxid;
#define LABEL_SLOT(l) ((l) < nd ? (size_t)(l) : sid_is_xid(l) && (l) - SID_XID < s->nxid ? nd + ((l) - SID_XID) : nslot)
        if (!S->label_shared) {
            uint8_t *n = xcalloc(nslot + 1, 1);
            for (uint32_t a = 0; a < s->nact; a++) {
                uint32_t l = s->acts[a].label;
                if (l != NONE32 && n[LABEL_SLOT(l)] < 2) n[LABEL_SLOT(l)]++;
            }
            S->label_shared = n;
        }
        size_t slot = LABEL_SLOT(A->label);
#undef LABEL_SLOT
        if (slot < nslot && S->label_shared[slot] >= 2)
            snprintf(buf, sz, "%s@%s", store_str(s, A->label), loc_label(s, A->home));
        else snprintf(buf, sz, "%s", store_str(s, A->label));
    } else {
        uint32_t a, b;
        summary_pair(S, id, &a, &b);
        snprintf(buf, sz, "%s->%s", loc_label(s, a), loc_label(s, b));
    }
}

void rowset_label(const RowSet *rs, Summary *S, uint32_t g, char *buf, size_t sz)
{
    uint32_t m0 = rowset_first(rs, g), m1 = rowset_end(rs, g);
    if (m1 - m0 <= 1) {
        row_label(S, rs->kind, rs->ids[m0], buf, sz);
        return;
    }
    char a[128], b[128];
    row_label(S, rs->kind, rs->ids[m0], a, sizeof a);
    /* "first..last" only for a run of consecutive rows (the natural order);
     * after a sort a group is its first row and how many more */
    bool run = true;
    for (uint32_t k = m0 + 1; k < m1 && run; k++) run = rs->ids[k] == rs->ids[k - 1] + 1;
    if (!run) {
        snprintf(buf, sz, "%s +%u", a, m1 - m0 - 1);
        return;
    }
    row_label(S, rs->kind, rs->ids[m1 - 1], b, sizeof b);
    snprintf(buf, sz, "%s..%s", a, b);
}

/* ---- names ------------------------------------------------------------------------------- */

const char *name_kind_str(const Store *s, uint32_t name, uint16_t kind)
{
    return name != NONE32 ? store_str(s, name) : kind_name(s, kind);
}

const char *event_name(const Store *s, uint32_t e) { return name_kind_str(s, s->name[e], s->kind[e]); }

#define TOP_NAMES 26

#define NAMES_WORKERS 8

static bool g_names_fused = true;

void agg_set_names_fused(bool on) { g_names_fused = on; }

/* the keys the sweep accumulates for: all of them, unless its per-worker
 * tables (12 bytes a key) would weigh more than 1 MiB or 1/16 byte per
 * event (a trace whose every event has its own name: the lanes are walked
 * again when the names are first asked for, as names_worker does) */
size_t names_sweep_keys(const Summary *S)
{
    const Store *s = S->s;
    size_t nkeys = name_nkeys(s), room = s->n / 16 > ((size_t)1 << 20) ? s->n / 16 : (size_t)1 << 20;
    return g_names_fused && nkeys * (sizeof(int64_t) + sizeof(uint32_t)) <= room ? nkeys : 0;
}

void names_table_init(size_t nkeys, int64_t **ns, uint32_t **ev)
{
    *ns = xcalloc(nkeys + 1, sizeof(int64_t));
    *ev = xmalloc((nkeys + 1) * sizeof(uint32_t));
    memset(*ev, 0xff, (nkeys + 1) * sizeof(uint32_t));
}

/* the top names by time, then by key, from the merged tables (ns[k]:
 * innermost time of key k; ev[k]: its smallest event, NONE32 when it has
 * none); frees them */
static void names_rank(Summary *S, size_t nkeys, int64_t *ns, uint32_t *ev)
{
    size_t top[TOP_NAMES];
    int ntop = 0;
    for (size_t k = 0; k < nkeys; k++) {
        if (ev[k] == NONE32) continue;
        /* insertion into the sorted top list */
        int at = ntop;
        while (at > 0 && ns[top[at - 1]] < ns[k]) at--;
        if (at >= TOP_NAMES) continue;
        int last = ntop < TOP_NAMES ? ntop : TOP_NAMES - 1;
        for (int i = last; i > at; i--) top[i] = top[i - 1];
        top[at] = k;
        if (ntop < TOP_NAMES) ntop++;
    }
    S->name_rank = xmalloc(nkeys + 1);
    memset(S->name_rank, -1, nkeys + 1);
    S->ntop = ntop;
    S->top = xmalloc(((size_t)ntop + 1) * sizeof(uint32_t));
    S->top_ns = xmalloc(((size_t)ntop + 1) * sizeof(int64_t));
    for (int i = 0; i < ntop; i++) {
        S->name_rank[top[i]] = (int8_t)i;
        S->top[i] = ev[top[i]];
        S->top_ns[i] = ns[top[i]];
    }
    free(ns);
    free(ev);
    S->names_built = true;
}

/* workers' tables of nkeys keys (NULL: a worker that made none) merged
 * into the first one's (sums and minimums: in any order the same), then
 * ranked; frees them */
void names_from_tables(Summary *S, size_t nkeys, int64_t **ns, uint32_t **ev, int nw)
{
    int w0 = 0;
    while (w0 < nw && !ns[w0]) w0++;
    if (w0 == nw) {
        names_table_init(nkeys, &ns[0], &ev[0]);
        w0 = 0;
    }
    for (int w = w0 + 1; w < nw; w++) {
        if (!ns[w]) continue;
        for (size_t k = 0; k < nkeys; k++) {
            if (ev[w][k] == NONE32) continue;
            if (ev[w][k] < ev[w0][k]) ev[w0][k] = ev[w][k];
            ns[w0][k] += ns[w][k];
        }
        free(ns[w]);
        free(ev[w]);
    }
    names_rank(S, nkeys, ns[w0], ev[w0]);
}

/* ---- the fallback: the lanes walked again ---- */

typedef struct {
    Summary *S;
    size_t nkeys;
    int64_t *ns[NAMES_WORKERS];  /* per worker: innermost time per key */
    uint32_t *ev[NAMES_WORKERS]; /* per worker: the first event of each key */
    JobQueue q;
} NamesCtx;

static void names_worker(void *ctx, int wk, int nw)
{
    (void)nw;
    NamesCtx *c = ctx;
    Summary *S = c->S;
    const Store *s = S->s;
    names_table_init(c->nkeys, &c->ns[wk], &c->ev[wk]);
    int64_t *ns = c->ns[wk];
    uint32_t *ev = c->ev[wk];
    size_t li;
    while ((li = jobq_next(&c->q)) != (size_t)-1) {
        const Lane *L = &S->lanes[li];
        int64_t tk = L->n ? seg_time(S, L->off) : 0;
        for (size_t k = L->off; k + 1 < (size_t)L->off + L->n; k++) {
            int64_t tn = seg_time(S, k + 1);
            uint32_t e = S->seg_ev[k];
            int64_t d = tn - tk;
            tk = tn;
            if (e == NONE32) continue;
            size_t key = name_key(s, e);
            if (e < ev[key]) ev[key] = e;
            ns[key] += d;
        }
        /* (a lane ends with an idle segment) */
    }
}

/* (built by build_lanes' sweep unless names_sweep_keys said no) */
static void build_names(Summary *S)
{
    if (S->names_built) return;
    NamesCtx c;
    memset(&c, 0, sizeof c);
    c.S = S;
    c.nkeys = name_nkeys(S->s);
    int nw = S->threads < NAMES_WORKERS ? S->threads : NAMES_WORKERS;
    if (S->nseg < 200000) nw = 1;
    jobq_init(&c.q, S->nlanes);
    par_run(nw, names_worker, &c);
    names_from_tables(S, c.nkeys, c.ns, c.ev, nw);
}

int summary_name_rank(Summary *S, uint32_t e)
{
    build_names(S);
    return S->name_rank[name_key(S->s, e)];
}

int summary_name_rank_nk(Summary *S, uint32_t name, uint16_t kind)
{
    build_names(S);
    return S->name_rank[name != NONE32 ? (size_t)name : (size_t)S->s->nnames + kind];
}

int summary_top_names(Summary *S, uint32_t *ev, int64_t *ns, int max)
{
    build_names(S);
    int k = S->ntop < max ? S->ntop : max;
    for (int i = 0; i < k; i++) {
        ev[i] = S->top[i];
        if (ns) ns[i] = S->top_ns[i];
    }
    return k;
}

