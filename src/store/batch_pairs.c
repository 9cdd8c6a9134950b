/*
 * batch_pairs.c — a batch's labels and (location, activity) pairs: a label
 * interned in canonical decimal when it is an integer (batch_label), a
 * pair found or added in the pairs' hash slots (batch_pair), and the pair
 * tables sized ahead for activities that keep coming (batch_presize_pairs).
 * See batch.h for what a batch owns and its invariants; batch.c turns
 * records into rows and calls these when its caches miss.
 * Invariants: pslots holds npairs entries (k + 1 for pair k, 0 empty) in
 * pmask + 1 slots, never more than half full; a label's id is its index in
 * labels.
 */
#include "batch.h"

#include <stdlib.h>
#include <string.h>

#include "base/timeparse.h"

/* The pairs' slots rebuilt with ncap (a power of two) of them. */
static void pslots_rehash(Batch *b, uint32_t ncap)
{
    uint32_t m = ncap - 1;
    uint32_t *ns = xcalloc(ncap, sizeof(uint32_t));
    for (uint32_t k = 0; k < b->npairs; k++) {
        uint32_t j = (uint32_t)hash_u64(((uint64_t)b->pairs[k].loc << 32) | b->pairs[k].act) & m;
        while (ns[j]) j = (j + 1) & m;
        ns[j] = k + 1;
    }
    free(b->pslots);
    b->pslots = ns;
    b->pmask = m;
}

uint32_t batch_pair(Batch *b, uint32_t loc, uint32_t act)
{
    uint64_t h = hash_u64(((uint64_t)loc << 32) | act);
    uint32_t i = (uint32_t)h & b->pmask;
    for (;;) {
        uint32_t e = b->pslots[i];
        if (!e) break;
        LabelPair *p = &b->pairs[e - 1];
        if (p->loc == loc && p->act == act) return e - 1;
        i = (i + 1) & b->pmask;
    }
    if (b->npairs == b->cappairs) {
        b->cappairs = b->cappairs ? b->cappairs * 2 : 64;
        b->pairs = xrealloc(b->pairs, b->cappairs * sizeof(LabelPair));
        b->pair_count = xrealloc(b->pair_count, b->cappairs * sizeof(uint32_t));
    }
    b->pair_count[b->npairs] = 0;
    uint32_t id = b->npairs++;
    b->pairs[id].loc = loc;
    b->pairs[id].act = act;
    b->pslots[i] = id + 1;
    if ((uint64_t)b->npairs * 2 > (uint64_t)b->pmask + 1) {
        pslots_rehash(b, (b->pmask + 1) * 2);
    }
    return id;
}

uint32_t batch_label(Batch *b, const Val *v)
{
    if (v->t == V_TRUE || v->t == V_FALSE || v->t == V_RAW) return NONE32;
    char tmp[24];
    size_t tl;
    int64_t iv;
    /* integers are labelled in canonical decimal ("007" and 7 are location 7);
     * text already in that form is interned as it is */
    bool canonical = v->n > 0 && v->n <= 18 && (v->p[0] != '0' || v->n == 1);
    for (uint32_t i = 0; canonical && i < v->n; i++)
        if ((unsigned)(v->p[i] - '0') > 9) canonical = false;
    if (canonical) return strtab_intern(&b->labels, v->p, v->n);
    if (canonical_int_label(v->p, v->n, tmp, &tl, &iv)) return strtab_intern(&b->labels, tmp, tl);
    return strtab_intern(&b->labels, v->p, v->n);
}

/* Activities that keep coming (tasks, each a few dozen rows): the pair
 * tables (rawpairs, labels, pairs) would double and rehash a dozen times
 * and touch fresh memory at each. Once PAIRS_SIZE_AT pairs are known, if
 * they came at most one in PAIRS_SIZE_SPAN rows (a steady trickle, not
 * locations seen once each at the start), they are sized for the rate so
 * far over the rows the batch expects (its capacity, from samples of its
 * chunk), at most one pair per PAIRS_SIZE_SPAN rows of it. */
void batch_presize_pairs(Batch *b)
{
    b->pairs_sized = true;
    size_t have = b->rawpairs.count;
    if (b->n < have * PAIRS_SIZE_SPAN || b->cap <= b->n * 2) return;
    size_t est = (size_t)((double)have * (double)b->cap / (double)b->n * 1.05);
    if (est > b->cap / PAIRS_SIZE_SPAN) est = b->cap / PAIRS_SIZE_SPAN;
    if (est <= have * 2) return;
    strtab_reserve(&b->rawpairs, est);
    strtab_reserve(&b->labels, b->labels.count + (est - have)); /* (est > 2 * have) */
    if (est > b->rawpair_cap) {
        b->rawpair_cap = est;
        b->rawpair_akey = xrealloc(b->rawpair_akey, b->rawpair_cap * sizeof(uint32_t));
    }
    if (est > b->cappairs) {
        b->cappairs = (uint32_t)est;
        b->pairs = xrealloc(b->pairs, b->cappairs * sizeof(LabelPair));
        b->pair_count = xrealloc(b->pair_count, b->cappairs * sizeof(uint32_t));
    }
    uint32_t ncap = b->pmask + 1;
    while ((uint64_t)est * 2 > ncap) ncap *= 2;
    if (ncap > b->pmask + 1) pslots_rehash(b, ncap);
}
