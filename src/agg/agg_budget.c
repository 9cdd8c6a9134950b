/*
 * agg_budget.c — a memory budget over the summaries' lazily built parts
 * (the group summaries, the message and glyph points, the merged row
 * series, the matrix's cells, the count index, the open-lanes index, the
 * location index, the Gantt's lanes per display row), shared by the
 * summaries of one session (the interface's: filtered, highlight,
 * unfiltered).
 *
 * Owns: AggBudget (its limit, the frame counter, the summaries attached)
 * and each summary's part records (Summary.part: bytes, last use).
 * Invariants: the bytes counted are the parts' own (summary_bytes's
 * accounting of them); a part used during the current frame (since the
 * last agg_budget_frame) is never dropped, so whatever a frame holds a
 * pointer into stays valid until the next frame; every other part may be
 * dropped by any build that would take the total past the limit — the
 * least recently used first, the parts last used by another view before
 * the current view's — and is built again, bitwise-equal (a lazily built
 * part depends only on the store, the selection and its key), when next
 * asked for. Without a budget (headless commands) nothing is ever
 * dropped. Parts are used and built on frame workers too: a use marks the
 * part under the budget's lock unless it already carries this frame's
 * mark (which no one can remove before the next frame), and a drop
 * happens under the same lock.
 */
#include "agg_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUDGET_SUMS 8

struct AggBudget {
    pthread_mutex_t lock;
    size_t limit, total, dropped, ndrops;
    _Atomic uint64_t epoch; /* the current frame (changed between frames only) */
    int view;
    Summary *sums[BUDGET_SUMS];
};

AggBudget *agg_budget_new(size_t limit)
{
    AggBudget *B = xcalloc(1, sizeof *B);
    pthread_mutex_init(&B->lock, NULL);
    B->limit = limit;
    B->epoch = 1;
    return B;
}

void agg_budget_free(AggBudget *B)
{
    if (!B) return;
    for (int i = 0; i < BUDGET_SUMS; i++)
        if (B->sums[i]) B->sums[i]->budget = NULL, B->sums[i]->budget_epoch = NULL;
    pthread_mutex_destroy(&B->lock);
    free(B);
}

void agg_budget_set_limit(AggBudget *B, size_t limit) { B->limit = limit; }
size_t agg_budget_limit(const AggBudget *B) { return B->limit; }

size_t agg_budget_bytes(AggBudget *B)
{
    pthread_mutex_lock(&B->lock);
    size_t t = B->total;
    pthread_mutex_unlock(&B->lock);
    return t;
}

void agg_budget_drops(AggBudget *B, size_t *n, size_t *bytes)
{
    pthread_mutex_lock(&B->lock);
    *n = B->ndrops;
    *bytes = B->dropped;
    pthread_mutex_unlock(&B->lock);
}

void agg_budget_frame(AggBudget *B, int view)
{
    pthread_mutex_lock(&B->lock);
    B->epoch++;
    B->view = view;
    pthread_mutex_unlock(&B->lock);
}

static uint32_t view_bit(int v) { return (uint32_t)1 << ((unsigned)v & 31); }

/* (the part's bytes now, as summary_bytes counts them) */
static size_t part_bytes_now(const Summary *S, int p)
{
    if (p == PART_GRP) return grpsum_bytes(S->grp[0]) + grpsum_bytes(S->grp[1]);
    if (p >= PART_MSG && p < PART_MSG + 6) return points_bytes(&S->msg[(p - PART_MSG) / 3][(p - PART_MSG) % 3]);
    if (p >= PART_GLYPH && p < PART_GLYPH + 2) return points_bytes(&S->glyphs[p - PART_GLYPH]);
    switch (p) {
    case PART_ROWARR: return rowarr_bytes(S);
    case PART_MXCELLS: return mxcells_bytes(S);
    case PART_TORD: return tord_bytes(S);
    case PART_OPEN: return open_bytes(S);
    case PART_LOCIDX: return locidx_bytes(&S->locidx, S->s->nloc);
    case PART_ROWLANES: return rowlanes_bytes(&S->rowlanes);
    default: return 0;
    }
}

/* free part p of S (its owner's free, leaving it unbuilt) */
void summary_part_free(Summary *S, int p)
{
    if (p == PART_GRP) {
        for (int i = 0; i < 2; i++) {
            grpsum_free(S->grp[i]);
            S->grp[i] = NULL;
        }
    } else if (p >= PART_MSG && p < PART_MSG + 6) {
        points_free(&S->msg[(p - PART_MSG) / 3][(p - PART_MSG) % 3]);
    } else if (p >= PART_GLYPH && p < PART_GLYPH + 2) {
        points_free(&S->glyphs[p - PART_GLYPH]);
    } else {
        switch (p) {
        case PART_ROWARR: rowarr_only_free(S); break;
        case PART_MXCELLS: mxcells_free(S); break;
        case PART_TORD: tord_free(S); break;
        case PART_OPEN: open_free(S); break;
        case PART_LOCIDX: locidx_free(&S->locidx); break;
        case PART_ROWLANES: rowlanes_free(&S->rowlanes); break;
        default: break;
        }
    }
}

/* (lock held) drop the least recently used parts not of this frame, other
 * views' first, until total + need <= limit or none is left; keep: a part
 * never dropped (the one being built) */
static void evict(AggBudget *B, size_t need, const Summary *kS, int kp)
{
    while (B->total + need > B->limit) {
        Summary *bs = NULL;
        int bp = -1, bc = 0;
        uint64_t be = 0;
        for (int i = 0; i < BUDGET_SUMS; i++) {
            Summary *S = B->sums[i];
            if (!S) continue;
            for (int p = 0; p < PART__N; p++) {
                PartRec *R = &S->part[p];
                uint64_t e = atomic_load_explicit(&R->epoch, memory_order_relaxed);
                if (!R->bytes || e == B->epoch || (S == kS && p == kp)) continue;
                /* first another view's part that only it used, then one
                 * several views used (the status line's count index is
                 * every view's), then the current view's; the least
                 * recently used first, the larger of two */
                int c = R->view == B->view ? 2 : (R->views & (R->views - 1)) ? 1 : 0;
                if (bp < 0 || c < bc || (c == bc && (e < be || (e == be && R->bytes > bs->part[bp].bytes)))) {
                    bs = S;
                    bp = p;
                    bc = c;
                    be = e;
                }
            }
        }
        if (bp < 0) return;
        PartRec *R = &bs->part[bp];
        if (getenv("TNAV_BUDGET_DEBUG"))
            fprintf(stderr, "budget: drop %p part %d (%zu KiB, view %d, frame %llu; now view %d frame %llu)\n", (void *)bs, bp,
                    R->bytes >> 10, R->view, (unsigned long long)be, B->view, (unsigned long long)B->epoch);
        summary_part_free(bs, bp);
        B->total -= R->bytes;
        B->dropped += R->bytes;
        B->ndrops++;
        R->bytes = 0;
    }
}

void summary_set_budget(Summary *S, AggBudget *B)
{
    if (S->budget == B) return;
    if (S->budget) summary_leave_budget(S);
    if (!B) return;
    pthread_mutex_lock(&B->lock);
    for (int i = 0; i < BUDGET_SUMS; i++)
        if (!B->sums[i]) {
            B->sums[i] = S;
            S->budget = B;
            S->budget_epoch = &B->epoch;
            break;
        }
    /* (what is built already counts from now on) */
    for (int p = 0; S->budget && p < PART__N; p++) {
        S->part[p].bytes = S->part[p].at_reserve = part_bytes_now(S, p);
        if (S->part[p].bytes) S->part[p].last = S->part[p].bytes;
        B->total += S->part[p].bytes;
        atomic_store_explicit(&S->part[p].epoch, B->epoch, memory_order_relaxed);
        S->part[p].view = B->view;
        S->part[p].views |= view_bit(B->view);
    }
    pthread_mutex_unlock(&B->lock);
}

void summary_leave_budget(Summary *S)
{
    AggBudget *B = S->budget;
    if (!B) return;
    pthread_mutex_lock(&B->lock);
    for (int i = 0; i < BUDGET_SUMS; i++)
        if (B->sums[i] == S) B->sums[i] = NULL;
    for (int p = 0; p < PART__N; p++) {
        B->total -= S->part[p].bytes;
        S->part[p].bytes = 0;
    }
    S->budget = NULL;
    S->budget_epoch = NULL;
    pthread_mutex_unlock(&B->lock);
}

void part_use_slow(Summary *S, int p)
{
    AggBudget *B = S->budget;
    pthread_mutex_lock(&B->lock);
    atomic_store_explicit(&S->part[p].epoch, B->epoch, memory_order_relaxed);
    S->part[p].view = B->view;
    S->part[p].views |= view_bit(B->view);
    pthread_mutex_unlock(&B->lock);
}

void part_reserve(Summary *S, int p, size_t est)
{
    AggBudget *B = S->budget;
    if (!B) return;
    size_t before = big_cache_bytes();
    pthread_mutex_lock(&B->lock);
    atomic_store_explicit(&S->part[p].epoch, B->epoch, memory_order_relaxed);
    S->part[p].view = B->view;
    S->part[p].views |= view_bit(B->view);
    size_t now = part_bytes_now(S, p);
    B->total = B->total - S->part[p].bytes + now;
    S->part[p].bytes = S->part[p].at_reserve = now;
    if (!est) est = S->part[p].last;
    size_t nd = B->ndrops;
    evict(B, est, S, p);
    bool dropped = B->ndrops != nd;
    pthread_mutex_unlock(&B->lock);
    /* what was dropped into the big-block recycler goes back to the
     * system, so that the build's fresh memory takes its place instead of
     * adding to it (app_idle keeps what the summaries will take again) */
    if (dropped) big_cache_trim_to(before);
}

void part_built(Summary *S, int p)
{
    AggBudget *B = S->budget;
    if (!B) return;
    size_t b = part_bytes_now(S, p), before = big_cache_bytes();
    pthread_mutex_lock(&B->lock);
    atomic_store_explicit(&S->part[p].epoch, B->epoch, memory_order_relaxed);
    S->part[p].view = B->view;
    S->part[p].views |= view_bit(B->view);
    B->total = B->total - S->part[p].bytes + b;
    if (b > S->part[p].at_reserve) S->part[p].last = b - S->part[p].at_reserve;
    S->part[p].bytes = S->part[p].at_reserve = b;
    size_t nd = B->ndrops;
    evict(B, 0, S, p);
    bool dropped = B->ndrops != nd;
    pthread_mutex_unlock(&B->lock);
    if (dropped) big_cache_trim_to(before);
}

void summary_hold_count_parts(Summary *S)
{
    if (!S || !S->budget) return;
    part_use(S, PART_TORD);
    part_use(S, PART_OPEN);
}
