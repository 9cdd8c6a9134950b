/*
 * lanes.c — intervals that overlap without nesting on one location, packed
 * into lanes; and rows without a location (--lanes) packed into lanes that
 * are locations. A pass over one file's batches, after pairing.
 *
 * Owns: the detection and the packing. The intervals of one (location,
 * activity) are swept in time order (longer first on equal starts, then
 * file order): when one starts inside another and ends after it, they
 * overlap without nesting (parallel build jobs, thread-pool tasks), which
 * the model's nesting cannot show; the activity's intervals are then
 * packed greedily into lanes — each goes into the first lane where it is
 * free or nests inside the lane's open interval — and lane k > 0 becomes
 * the activity "ACT lane k" ("lane k" for a location's default activity).
 * Its instants stay in lane 0. Rows without a location (--lanes: loaded
 * with loc LANES_LOC) are packed into lanes that hold one interval at a
 * time (a build's job slots), lane k becoming the location "lane k".
 * Messages (msg records) are never moved.
 * Invariants: the result does not depend on how the file was cut into
 * batches (keys compared as text, order (time, longer first, file
 * order)); only akey (and pair counts) change.
 */
#include <stdlib.h>
#include <string.h>

#include "load_int.h"

typedef struct {
    int64_t last_ts;
    VEC(int64_t) ends; /* open intervals' ends (a stack); starts beside */
    VEC(int64_t) starts;
    bool unordered, overlap, lanes_loc;
} Group;

typedef struct {
    uint32_t batch, row;
    int64_t ts, dur;
} LRow;

static int lrow_cmp(const void *a, const void *b)
{
    const LRow *x = a, *y = b;
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    if (x->dur != y->dur) return x->dur > y->dur ? -1 : 1;
    if (x->batch != y->batch) return x->batch < y->batch ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* one step of the sweep; false when the interval overlaps an open one
 * without nesting (or, when strict, is not in order) */
static void sweep(Group *G, int64_t ts, int64_t dur)
{
    while (G->ends.len && G->ends.v[G->ends.len - 1] <= ts) {
        G->ends.len--;
        G->starts.len--;
    }
    if (dur <= 0) return;
    int64_t end = ts + dur;
    if (G->ends.len && end > G->ends.v[G->ends.len - 1]) {
        if (G->starts.v[G->starts.len - 1] == ts) G->unordered = true; /* (equal starts: sorted, longer first) */
        else G->overlap = true;
    }
    VEC_PUSH(G->ends, end);
    VEC_PUSH(G->starts, ts);
}

static bool is_interval(const Batch *b, uint32_t r) { return b->dur[r] > 0 && b->kind[r] != K_MSG; }

void lanes_file(Batch **bs, size_t nb, bool only_lanes_loc)
{
    StrTab keys;
    strtab_init(&keys);
    VEC(Group) groups = {0};
    uint32_t **gid = xcalloc(nb + 1, sizeof *gid);
    char *kb = NULL;
    size_t kcap = 0;
    for (size_t i = 0; i < nb; i++) {
        Batch *b = bs[i];
        gid[i] = xmalloc(((size_t)b->npairs + 1) * sizeof(uint32_t));
        for (uint32_t p = 0; p < b->npairs; p++) {
            const LabelPair *lp = &b->pairs[p];
            size_t n1 = strtab_len(&b->labels, lp->loc), n2 = lp->act != NONE32 ? strtab_len(&b->labels, lp->act) : 0;
            if (n1 + n2 + 3 > kcap) {
                kcap = (n1 + n2) * 2 + 64;
                kb = xrealloc(kb, kcap);
            }
            memcpy(kb, strtab_str(&b->labels, lp->loc), n1);
            kb[n1] = 0x1F;
            kb[n1 + 1] = lp->act != NONE32 ? 'a' : '-';
            if (n2) memcpy(kb + n1 + 2, strtab_str(&b->labels, lp->act), n2);
            uint32_t before = keys.count;
            uint32_t g = strtab_intern(&keys, kb, n1 + n2 + 2);
            if (g >= before) {
                Group z;
                memset(&z, 0, sizeof z);
                z.last_ts = INT64_MIN;
                z.lanes_loc = n1 == sizeof LANES_LOC - 1 && !memcmp(kb, LANES_LOC, n1);
                VEC_PUSH(groups, z);
            }
            gid[i][p] = g;
        }
    }
    /* 1. the sweep, in file order (most files are in time order per row) */
    for (size_t i = 0; i < nb; i++) {
        Batch *b = bs[i];
        for (size_t r = 0; r < b->n; r++) {
            Group *G = &groups.v[gid[i][b->akey[r]]];
            /* (messages are never moved: their order does not matter) */
            if (G->unordered || G->lanes_loc || only_lanes_loc || b->kind[r] == K_MSG) continue;
            if (b->ts[r] < G->last_ts) {
                G->unordered = true;
                continue;
            }
            G->last_ts = b->ts[r];
            sweep(G, b->ts[r], b->dur[r]);
        }
    }
    bool any = false;
    for (size_t g = 0; g < groups.len; g++)
        if (groups.v[g].unordered || groups.v[g].overlap || groups.v[g].lanes_loc) any = true;
    if (!any) goto done;
    /* 2. the groups to look at again: their rows in order */
    VEC(LRow) *rows = xcalloc(groups.len + 1, sizeof *rows);
    for (size_t i = 0; i < nb; i++) {
        Batch *b = bs[i];
        for (size_t r = 0; r < b->n; r++) {
            uint32_t g = gid[i][b->akey[r]];
            Group *G = &groups.v[g];
            if (!G->unordered && !G->overlap && !G->lanes_loc) continue;
            if (b->kind[r] == K_MSG && !G->lanes_loc) continue;
            LRow lr = {(uint32_t)i, (uint32_t)r, b->ts[r], b->dur[r] > 0 ? b->dur[r] : 0};
            VEC_PUSH(rows[g], lr);
        }
    }
    VEC(int64_t) *lane_ends = NULL; /* per lane: its open intervals' ends */
    size_t nlanes_cap = 0;
    for (size_t g = 0; g < groups.len; g++) {
        Group *G = &groups.v[g];
        if (!rows[g].len) continue;
        qsort(rows[g].v, rows[g].len, sizeof(LRow), lrow_cmp);
        if (G->unordered && !G->overlap && !G->lanes_loc) {
            G->ends.len = G->starts.len = 0;
            G->unordered = false;
            for (size_t k = 0; k < rows[g].len && !G->overlap; k++) {
                LRow *lr = &rows[g].v[k];
                if (bs[lr->batch]->kind[lr->row] != K_MSG) sweep(G, lr->ts, lr->dur);
            }
        }
        if (!G->overlap && !G->lanes_loc) continue;
        /* pack: the first lane where the interval is free or nests */
        size_t nl = 0;
        const char *key = strtab_str(&keys, (uint32_t)g);
        size_t kn = strtab_len(&keys, (uint32_t)g);
        const char *sep = memchr(key, 0x1F, kn);
        size_t locn = (size_t)(sep - key);
        bool has_act = sep[1] == 'a';
        const char *act = sep + 2;
        size_t actn = kn - locn - 2;
        for (size_t k = 0; k < rows[g].len; k++) {
            LRow *lr = &rows[g].v[k];
            Batch *b = bs[lr->batch];
            size_t lane = 0;
            if (is_interval(b, lr->row)) {
                int64_t end = lr->ts + lr->dur;
                for (lane = 0; lane < nl; lane++) {
                    while (lane_ends[lane].len && lane_ends[lane].v[lane_ends[lane].len - 1] <= lr->ts) lane_ends[lane].len--;
                    /* (--lanes: a lane holds one row at a time, like a build's job slot) */
                    if (!lane_ends[lane].len || (!G->lanes_loc && end <= lane_ends[lane].v[lane_ends[lane].len - 1])) break;
                }
                if (lane == nl) {
                    if (nl == nlanes_cap) {
                        size_t nc = nlanes_cap ? nlanes_cap * 2 : 8;
                        lane_ends = xrealloc(lane_ends, nc * sizeof *lane_ends);
                        memset(lane_ends + nlanes_cap, 0, (nc - nlanes_cap) * sizeof *lane_ends);
                        nlanes_cap = nc;
                    }
                    lane_ends[nl].len = 0;
                    nl++;
                }
                VEC_PUSH(lane_ends[lane], end);
            }
            if (lane == 0 && !G->lanes_loc) continue;
            /* the row's new (location, activity) */
            char lb[32];
            int ln = snprintf(lb, sizeof lb, "lane %zu", lane);
            uint32_t loc_sid, act_sid;
            const LabelPair *old = &b->pairs[b->akey[lr->row]];
            if (G->lanes_loc) {
                loc_sid = strtab_intern(&b->labels, lb, (size_t)ln);
                act_sid = old->act;
            } else {
                loc_sid = old->loc;
                if (has_act) {
                    if (actn + 40 > kcap) {
                        kcap = actn * 2 + 64;
                        kb = xrealloc(kb, kcap);
                    }
                    memcpy(kb, act, actn);
                    int m = snprintf(kb + actn, 40, " %s", lb);
                    act_sid = strtab_intern(&b->labels, kb, actn + (size_t)m);
                } else {
                    act_sid = strtab_intern(&b->labels, lb, (size_t)ln);
                }
            }
            uint32_t na = batch_pair(b, loc_sid, act_sid);
            b->pair_count[b->akey[lr->row]]--;
            b->pair_count[na]++;
            b->akey[lr->row] = na;
        }
        for (size_t l = 0; l < nl; l++) lane_ends[l].len = 0;
    }
    for (size_t l = 0; l < nlanes_cap; l++) VEC_FREE(lane_ends[l]);
    free(lane_ends);
    for (size_t g = 0; g < groups.len; g++) VEC_FREE(rows[g]);
    free(rows);
done:
    for (size_t g = 0; g < groups.len; g++) {
        VEC_FREE(groups.v[g].ends);
        VEC_FREE(groups.v[g].starts);
    }
    VEC_FREE(groups);
    for (size_t i = 0; i < nb; i++) free(gid[i]);
    free(gid);
    free(kb);
    strtab_free(&keys);
}
