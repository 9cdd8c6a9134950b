/*
 * flowbind.c — the slices Chrome flow ends bind to, as the Trace Event
 * Format defines them: a pass over one file's batches after pair.c has
 * paired them, before they are compacted.
 *
 * Owns: the binding rule. The slices are the thread slices (X, and B/E
 * once paired, an unfinished one as closed at the file's last time; not
 * async slices, not rows pair.c drops), each on its thread (location,
 * activity). A flow end with BIND_ENCL binds to the innermost slice of its
 * thread enclosing its time (start <= t <= end, closed; of several, the
 * one that begins last, then the shorter, then the later in the file);
 * with BIND_NEXT to the first slice of its thread that begins at or after
 * its time (of several beginning together, the longer, then the earlier in
 * the file: the outermost); with BIND_SELF to its own row's slice (an X
 * with flow_in / flow_out: the flow row carries the X's name). The bound
 * slice's name goes to the field from_slice (a start's, on the message or
 * the lone send) or to_slice (a finish's, on the message or the lone
 * recv); no slice, or a slice without a name: no field.
 * Invariants: the result does not depend on how the file was cut into
 * batches (threads are compared as text, slices and ends ordered by time,
 * then file order); rows are only given fields, never dropped.
 */
#include <stdlib.h>
#include <string.h>

#include "load_int.h"

typedef struct {
    uint32_t thr, batch, row;
    int64_t t, end;
} Sl;

typedef struct {
    uint32_t thr, fe;
    int64_t t;
} Q;

static int sl_cmp(const void *a, const void *b)
{
    const Sl *x = a, *y = b;
    if (x->thr != y->thr) return x->thr < y->thr ? -1 : 1;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    if (x->end != y->end) return x->end > y->end ? -1 : 1; /* the outer first */
    if (x->batch != y->batch) return x->batch < y->batch ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

static int q_cmp(const void *a, const void *b)
{
    const Q *x = a, *y = b;
    if (x->thr != y->thr) return x->thr < y->thr ? -1 : 1;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return x->fe < y->fe ? -1 : x->fe > y->fe;
}

/* the thread of a row as text: location \x1F activity */
static size_t thr_key(const Batch *b, uint32_t row, char **buf, size_t *cap)
{
    const LabelPair *p = &b->pairs[b->akey[row]];
    size_t n1 = strtab_len(&b->labels, p->loc), n2 = p->act != NONE32 ? strtab_len(&b->labels, p->act) : 0;
    if (n1 + n2 + 3 > *cap) {
        *cap = (n1 + n2) * 2 + 64;
        *buf = xrealloc(*buf, *cap);
    }
    char *o = *buf;
    memcpy(o, strtab_str(&b->labels, p->loc), n1);
    o[n1] = 0x1F;
    o[n1 + 1] = p->act != NONE32 ? 'a' : '-';
    if (n2) memcpy(o + n1 + 2, strtab_str(&b->labels, p->act), n2);
    return n1 + 2 + n2;
}

void bind_flows(Batch **bs, size_t nb, uint8_t *const *drop, const FlowEnd *fe, size_t n)
{
    if (!n) return;
    StrTab thr;
    strtab_init(&thr);
    char *kb = NULL;
    size_t kcap = 0;
    /* the ends to look up, and their threads */
    Q *qs = xmalloc(n * sizeof *qs);
    size_t nq = 0;
    /* the bound slice of each end: batch and row (NONE32: none) */
    uint32_t *hit_b = xmalloc(n * sizeof *hit_b), *hit_r = xmalloc(n * sizeof *hit_r);
    for (size_t k = 0; k < n; k++) {
        const Batch *b = bs[fe[k].batch];
        const PairCand *c = &b->cands.v[fe[k].ci];
        hit_b[k] = hit_r[k] = NONE32;
        if (c->bind == BIND_SELF) {
            hit_b[k] = fe[k].batch;
            hit_r[k] = c->row;
        } else if (c->bind == BIND_ENCL || c->bind == BIND_NEXT) {
            size_t kn = thr_key(b, c->row, &kb, &kcap);
            Q q = {strtab_intern(&thr, kb, kn), (uint32_t)k, b->ts[c->row]};
            qs[nq++] = q;
        }
    }
    VEC(Sl) sl = {0};
    if (nq) {
        /* the thread slices of those threads */
        for (size_t i = 0; i < nb; i++) {
            Batch *b = bs[i];
            uint8_t *async = b->cands.len ? xcalloc(b->n ? b->n : 1, 1) : NULL;
            for (size_t c = 0; c < b->cands.len; c++) {
                uint32_t key = b->cands.v[c].key;
                if (key != NONE32 && strtab_str(&b->pkeys, key)[0] == 'A') async[b->cands.v[c].row] = 1;
            }
            uint32_t *thr_of = xmalloc((b->npairs + 1) * sizeof *thr_of);
            for (uint32_t p = 0; p < b->npairs; p++) thr_of[p] = NONE32 - 1; /* not looked up yet */
            for (uint32_t r = 0; r < b->n; r++) {
                if (b->kind[r] != K_STATE || (drop[i] && drop[i][r]) || (async && async[r])) continue;
                uint32_t a = b->akey[r];
                if (thr_of[a] == NONE32 - 1) {
                    size_t kn = thr_key(b, r, &kb, &kcap);
                    thr_of[a] = strtab_find(&thr, kb, kn);
                }
                if (thr_of[a] == NONE32) continue;
                Sl s = {thr_of[a], (uint32_t)i, r, b->ts[r], b->ts[r] + (b->dur[r] > 0 ? b->dur[r] : 0)};
                VEC_PUSH(sl, s);
            }
            free(thr_of);
            free(async);
        }
        if (sl.len) qsort(sl.v, sl.len, sizeof(Sl), sl_cmp);
        qsort(qs, nq, sizeof *qs, q_cmp);
        /* per thread: the enclosing slice by a sweep (a stack of the slices
         * begun, the innermost on top), the next one by a binary search */
        VEC(uint32_t) stack = {0};
        size_t si = 0, s0 = 0, s1 = 0;
        uint32_t cur = NONE32;
        for (size_t k = 0; k < nq; k++) {
            Q *q = &qs[k];
            if (q->thr != cur) {
                cur = q->thr;
                stack.len = 0;
                while (si < sl.len && sl.v[si].thr < cur) si++;
                s0 = s1 = si;
                while (s1 < sl.len && sl.v[s1].thr == cur) s1++;
            }
            const PairCand *c = &bs[fe[q->fe].batch]->cands.v[fe[q->fe].ci];
            uint32_t got = NONE32;
            if (c->bind == BIND_ENCL) {
                for (; si < s1 && sl.v[si].t <= q->t; si++) {
                    while (stack.len && sl.v[stack.v[stack.len - 1]].end < sl.v[si].t) stack.len--;
                    VEC_PUSH(stack, (uint32_t)si);
                }
                while (stack.len && sl.v[stack.v[stack.len - 1]].end < q->t) stack.len--;
                if (stack.len) got = stack.v[stack.len - 1];
            } else {
                size_t lo = s0, hi = s1;
                while (lo < hi) {
                    size_t mid = lo + (hi - lo) / 2;
                    if (sl.v[mid].t < q->t) lo = mid + 1;
                    else hi = mid;
                }
                if (lo < s1) got = (uint32_t)lo;
            }
            if (got != NONE32) {
                hit_b[q->fe] = sl.v[got].batch;
                hit_r[q->fe] = sl.v[got].row;
            }
        }
        VEC_FREE(stack);
    }
    /* the names, as fields of the messages (or lone ends) */
    VEC(RowVal) *add = xcalloc(nb * 2, sizeof *add);
    for (size_t k = 0; k < n; k++) {
        if (hit_b[k] == NONE32) continue;
        Batch *sb = bs[hit_b[k]], *db = bs[fe[k].dst_batch];
        uint32_t nm = sb->name[hit_r[k]];
        if (nm == NONE32) continue;
        RowVal v = {fe[k].dst_row, strtab_intern(&db->strs, strtab_str(&sb->names, nm), strtab_len(&sb->names, nm))};
        VEC_PUSH(add[fe[k].dst_batch * 2 + fe[k].to], v);
    }
    for (size_t i = 0; i < nb; i++) {
        if (add[i * 2].len)
            pair_merge_adds(bs[i], F_EXTRA + batch_extra_id(bs[i], "from_slice", 10), add[i * 2].v, add[i * 2].len, VT_STR);
        if (add[i * 2 + 1].len)
            pair_merge_adds(bs[i], F_EXTRA + batch_extra_id(bs[i], "to_slice", 8), add[i * 2 + 1].v, add[i * 2 + 1].len, VT_STR);
        VEC_FREE(add[i * 2]);
        VEC_FREE(add[i * 2 + 1]);
    }
    free(add);
    VEC_FREE(sl);
    free(qs);
    free(hit_b);
    free(hit_r);
    free(kb);
    strtab_free(&thr);
}
