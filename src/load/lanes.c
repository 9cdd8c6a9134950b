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
 * The sweep in file order is done per batch, mostly by the batch itself as
 * its rows are committed (Batch.lsw), and the batches' sweeps are joined
 * at their seams (sweep_file).
 * Invariants: the result does not depend on how the file was cut into
 * batches (keys compared as text, order (time, longer first, file
 * order)); only akey (and pair counts) change.
 */
#include <stdlib.h>
#include <string.h>

#include "load_int.h"
#include "base/par.h"

typedef struct {
    int64_t last_ts;
    LaneOpenVec open; /* the open intervals (a stack) */
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
static inline void sweep(Group *G, int64_t ts, int64_t dur)
{
    lane_sweep_close(&G->open, ts, dur, &G->unordered, &G->overlap);
    if (dur <= 0) return;
    LaneOpen o = {ts + dur, ts};
    VEC_PUSH(G->open, o);
}

static bool is_interval(const Batch *b, uint32_t r) { return b->dur[r] > 0 && b->kind[r] != K_MSG; }

/* One batch's rows of each group swept from a fresh state, as the whole
 * file's sweep would sweep them (LaneSweep: first_ts is the time of its
 * first row, any whether it has one); stops at a group's first row out of
 * order, as that one does. Taken from the sweep the batch did as its rows
 * were committed, unless a pass changed its rows since or two of its
 * pairs are one group now (labels renamed): then done here. */
typedef struct {
    Batch **bs;
    uint32_t **gid;
    const Group *groups;
    LaneSweep **st; /* per batch, per group */
    size_t ng;
    JobQueue q;
} SweepRun;

static bool sweep_taken(Batch *b, const uint32_t *gid, LaneSweep *st)
{
    if (b->lsw_stale) return false;
    size_t np = b->npairs < b->lsw_cap ? b->npairs : b->lsw_cap;
    for (size_t p = 0; p < np; p++)
        if (b->lsw[p].any && st[gid[p]].any) return false;
        else if (b->lsw[p].any) st[gid[p]].any = true;
    for (size_t p = 0; p < np; p++)
        if (b->lsw[p].any) st[gid[p]] = b->lsw[p]; /* (its stack stays in the batch's pool) */
    return true;
}

static void sweep_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    SweepRun *R = ctx;
    size_t i;
    while ((i = jobq_next(&R->q)) != (size_t)-1) {
        Batch *b = R->bs[i];
        const uint32_t *gid = R->gid[i];
        LaneSweep *st = xcalloc(R->ng + 1, sizeof *st);
        if (!sweep_taken(b, gid, st)) {
            memset(st, 0, (R->ng + 1) * sizeof *st);
            /* (rows going from group to group among thousands (10,000
             * ranks in time order) find each group's state, and then its
             * innermost open interval, out of cache: both are read ahead,
             * the state SWEEP_AHEAD rows before, the interval half as
             * many; a group of rows without location is marked in sg) */
            enum { SWEEP_AHEAD = 16 };
            uint32_t *sg = xmalloc(((size_t)b->npairs + 1) * sizeof *sg);
            for (uint32_t p = 0; p < b->npairs; p++) sg[p] = R->groups[gid[p]].lanes_loc ? NONE32 : gid[p];
            const uint32_t *ak = b->akey;
            const uint16_t *kd = b->kind;
            size_t n = b->n;
            for (size_t r = 0; r < n; r++) {
                if (r + SWEEP_AHEAD < n) {
                    uint32_t ga = sg[ak[r + SWEEP_AHEAD]];
                    if (ga != NONE32) {
                        __builtin_prefetch(&st[ga], 1);
                        __builtin_prefetch((const char *)&st[ga] + sizeof *st - 1, 1);
                    }
                    uint32_t gb = sg[ak[r + SWEEP_AHEAD / 2]];
                    if (gb != NONE32 && st[gb].open.len) __builtin_prefetch(&st[gb].open.v[st[gb].open.len - 1], 1);
                }
                uint32_t g = sg[ak[r]];
                if (g == NONE32 || kd[r] == K_MSG) continue;
                lane_sweep_row(b, &st[g], b->ts[r], b->dur[r]);
            }
            free(sg);
        }
        R->st[i] = st;
    }
}

/* After group G's state at some row equals that of the batch's own sweep
 * F at that row (their stacks hold the same intervals), G's state at the
 * batch's end is F's, with what G had found before. */
static void adopt(Group *G, const LaneSweep *F)
{
    G->overlap |= F->overlap;
    G->unordered |= F->unordered;
    G->last_ts = F->last_ts;
    G->open.len = 0;
    if (F->open.len) {
        VEC_RESERVE(G->open, F->open.len);
        memcpy(G->open.v, F->open.v, F->open.len * sizeof *F->open.v);
        G->open.len = F->open.len;
    }
}

/* The sweep of every group over the file's rows in file order, the batches
 * swept apart in parallel, then joined in file order: a group whose state
 * at a batch's start is empty (no interval open) and whose time does not
 * go back at the seam continues as the batch's own sweep found; one with
 * intervals open at the seam is swept again from the batch's start until
 * those have all ended (from then on its stack is the batch's own sweep's),
 * usually a few rows. The result is that of one sweep in file order. */
static void sweep_file(Batch **bs, size_t nb, uint32_t **gid, void *groupsv, int nthreads)
{
    VEC(Group) *groups = groupsv;
    size_t ng = groups->len;
    SweepRun R = {bs, gid, groups->v, xcalloc(nb + 1, sizeof(LaneSweep *)), ng, {0}};
    jobq_init(&R.q, nb);
    size_t rows = 0;
    for (size_t i = 0; i < nb; i++) rows += bs[i]->n;
    int nw = nthreads < (int)nb ? nthreads : (int)nb;
    par_run(rows < 100000 || nw < 1 ? 1 : nw, sweep_worker, &R);
    uint8_t *pend = xcalloc(ng + 1, 1);
    size_t *carried = xmalloc((ng + 1) * sizeof *carried);
    for (size_t i = 0; i < nb; i++) {
        LaneSweep *st = R.st[i];
        size_t npend = 0;
        for (size_t g = 0; g < ng; g++) {
            Group *G = &groups->v[g];
            LaneSweep *F = &st[g];
            if (!F->any || G->unordered || G->lanes_loc) continue;
            if (F->first_ts < G->last_ts) {
                G->unordered = true;
                continue;
            }
            if (!G->open.len) {
                adopt(G, F);
                continue;
            }
            pend[g] = 1;
            carried[g] = G->open.len;
            npend++;
        }
        const Batch *b = bs[i];
        for (size_t r = 0; r < b->n && npend; r++) {
            uint32_t g = gid[i][b->akey[r]];
            if (!pend[g] || b->kind[r] == K_MSG) continue;
            Group *G = &groups->v[g];
            int64_t ts = b->ts[r];
            if (ts < G->last_ts) {
                G->unordered = true;
                pend[g] = 0;
                npend--;
                continue;
            }
            G->last_ts = ts;
            /* (the intervals this row ends: those open at the seam are
             * all ended when the stack is empty before its own push) */
            size_t k = G->open.len;
            while (k && G->open.v[k - 1].end <= ts) k--;
            if (k < carried[g]) carried[g] = k;
            sweep(G, ts, b->dur[r]);
            if (!carried[g]) {
                adopt(G, &st[g]);
                pend[g] = 0;
                npend--;
            }
        }
        for (size_t g = 0; g < ng; g++) pend[g] = 0; /* (still open at the batch's end: G is its state) */
        free(st);
        batch_free_sweep(bs[i]);
    }
    free(pend);
    free(carried);
    free(R.st);
}

void lanes_file(Batch **bs, size_t nb, bool only_lanes_loc, int nthreads)
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
    if (!only_lanes_loc) sweep_file(bs, nb, gid, &groups, nthreads);
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
            G->open.len = 0;
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
        VEC_FREE(groups.v[g].open);
    }
    VEC_FREE(groups);
    for (size_t i = 0; i < nb; i++) free(gid[i]);
    free(gid);
    free(kb);
    strtab_free(&keys);
}
