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
 * recv), handed to pair.c, which merges it into the batch; no slice, or a
 * slice without a name: no field.
 * How: only the threads that have ends to look up are looked at; each
 * one's slices are swept in time order as they come in the file when
 * they come in that order (most files), so they are not kept; a thread
 * whose slices do not is collected and sorted alone.
 * Invariants: the result does not depend on how the file was cut into
 * batches (threads are compared as text, slices and ends ordered by time,
 * then file order); the batches' rows are not changed here.
 */
#include <stdlib.h>
#include <string.h>

#include "load_int.h"

/* a slice: its times and its row */
typedef struct {
    int64_t t, end;
    uint32_t batch, row;
} Sl;

/* an end to look up: its time and its index in fe */
typedef struct {
    int64_t t;
    uint32_t fe;
} Q;

/* (time, the outer first, file order): the order slices are swept in */
static int sl_cmp(const void *a, const void *b)
{
    const Sl *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    if (x->end != y->end) return x->end > y->end ? -1 : 1;
    if (x->batch != y->batch) return x->batch < y->batch ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* v[0..n) stably by time (tmp: room for n) */
static void q_sort(Q *v, size_t n, Q *tmp)
{
    if (n < 2) return;
    if (n <= 16) {
        for (size_t i = 1; i < n; i++) {
            Q x = v[i];
            size_t j = i;
            for (; j > 0 && v[j - 1].t > x.t; j--) v[j] = v[j - 1];
            v[j] = x;
        }
        return;
    }
    size_t h = n / 2;
    q_sort(v, h, tmp);
    q_sort(v + h, n - h, tmp);
    if (v[h - 1].t <= v[h].t) return; /* (the halves in order already) */
    memcpy(tmp, v, h * sizeof *v);
    size_t i = 0, j = h, o = 0;
    while (i < h && j < n) v[o++] = v[j].t < tmp[i].t ? v[j++] : tmp[i++];
    while (i < h) v[o++] = tmp[i++];
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

/* One thread's sweep. Its slices come in their order (sl_cmp); its ends
 * to look up in theirs (time, then fe), the enclosing kind (enc) and the
 * next kind (nxt) apart. Before a slice is taken, the next-kind ends at or
 * before its start bind to it (it is the first to begin at or after
 * them), and the enclosing-kind ends before its start are answered from
 * the stack of the slices begun (the innermost on top; a slice ended
 * before the time is popped): every slice beginning at or before their
 * time is on it by then. */
typedef struct {
    Q *enc, *nxt;
    uint32_t nenc, nnxt, ie, in; /* (ie, in: the next to answer) */
    VEC(Sl) stack;
    VEC(Sl) rows; /* an unordered thread's slices, sorted at the end */
    int64_t last_t, last_end;
    uint32_t nslices;
    bool unordered, seen;
} Thr;

static void answer_encl(Thr *T, uint32_t *hit_b, uint32_t *hit_r, int64_t before, bool all)
{
    while (T->ie < T->nenc && (all || T->enc[T->ie].t < before)) {
        const Q *q = &T->enc[T->ie++];
        while (T->stack.len && T->stack.v[T->stack.len - 1].end < q->t) T->stack.len--;
        if (T->stack.len) {
            hit_b[q->fe] = T->stack.v[T->stack.len - 1].batch;
            hit_r[q->fe] = T->stack.v[T->stack.len - 1].row;
        }
    }
}

static void take_slice(Thr *T, const Sl *s, uint32_t *hit_b, uint32_t *hit_r)
{
    for (; T->in < T->nnxt && T->nxt[T->in].t <= s->t; T->in++) {
        hit_b[T->nxt[T->in].fe] = s->batch;
        hit_r[T->nxt[T->in].fe] = s->row;
    }
    answer_encl(T, hit_b, hit_r, s->t, false);
    while (T->stack.len && T->stack.v[T->stack.len - 1].end < s->t) T->stack.len--;
    VEC_PUSH(T->stack, *s);
}

void bind_flows(Batch **bs, size_t nb, uint8_t *const *drop, const FlowEnd *fe, size_t n, RowVals *add)
{
    if (!n) return;
    StrTab thr;
    strtab_init(&thr);
    char *kb = NULL;
    size_t kcap = 0;
    /* the bound slice of each end: batch and row (NONE32: none) */
    uint32_t *hit_b = xmalloc(n * sizeof *hit_b), *hit_r = xmalloc(n * sizeof *hit_r);
    /* the ends to look up: their threads (as 2 * thread + 1 when the
     * next slice is looked for), grouped by a counting sort */
    uint32_t *qk = xmalloc(n * sizeof *qk);
    size_t nq = 0;
    for (size_t k = 0; k < n; k++) {
        const Batch *b = bs[fe[k].batch];
        const PairCand *c = &b->cands.v[fe[k].ci];
        hit_b[k] = hit_r[k] = NONE32;
        qk[k] = NONE32;
        if (c->bind == BIND_SELF) {
            hit_b[k] = fe[k].batch;
            hit_r[k] = c->row;
        } else if (c->bind == BIND_ENCL || c->bind == BIND_NEXT) {
            size_t kn = thr_key(b, c->row, &kb, &kcap);
            qk[k] = strtab_intern(&thr, kb, kn) * 2 + (c->bind == BIND_NEXT);
            nq++;
        }
    }
    Thr *T = NULL;
    Q *qs = NULL;
    uint32_t nthr = thr.count;
    if (nq) {
        size_t *at = xcalloc((size_t)nthr * 2 + 1, sizeof *at);
        for (size_t k = 0; k < n; k++)
            if (qk[k] != NONE32) at[qk[k] + 1]++;
        for (size_t g = 0; g < (size_t)nthr * 2; g++) at[g + 1] += at[g];
        qs = xmalloc(nq * sizeof *qs);
        T = xcalloc(nthr, sizeof *T);
        for (uint32_t h = 0; h < nthr; h++) {
            T[h].enc = qs + at[2 * h];
            T[h].nenc = (uint32_t)(at[2 * h + 1] - at[2 * h]);
            T[h].nxt = qs + at[2 * h + 1];
            T[h].nnxt = (uint32_t)(at[2 * h + 2] - at[2 * h + 1]);
        }
        for (size_t k = 0; k < n; k++) {
            if (qk[k] == NONE32) continue;
            Q q = {bs[fe[k].batch]->ts[bs[fe[k].batch]->cands.v[fe[k].ci].row], (uint32_t)k};
            qs[at[qk[k]]++] = q;
        }
        free(at);
        /* each list in order: it is in fe order, so a stable sort by time
         * (a merge sort, which takes the runs already in order as they
         * are: ends come mostly in time order) */
        Q *tmp = xmalloc((nq + 1) * sizeof *tmp);
        for (uint32_t h = 0; h < nthr * 2; h++) {
            Q *v = h & 1 ? T[h / 2].nxt : T[h / 2].enc;
            size_t m = h & 1 ? T[h / 2].nnxt : T[h / 2].nenc;
            q_sort(v, m, tmp);
        }
        free(tmp);
    }
    free(qk);
    /* each batch: the thread of each label pair (NONE32: none with ends),
     * and the rows that are async slices (not thread slices) */
    uint32_t **thr_of = xcalloc(nb + 1, sizeof *thr_of);
    uint8_t **async = xcalloc(nb + 1, sizeof *async);
    for (size_t i = 0; nq && i < nb; i++) {
        Batch *b = bs[i];
        for (size_t c = 0; c < b->cands.len; c++) {
            uint32_t key = b->cands.v[c].key;
            if (key == NONE32 || strtab_str(&b->pkeys, key)[0] != 'A') continue;
            if (!async[i]) async[i] = xcalloc(b->n ? b->n : 1, 1);
            async[i][b->cands.v[c].row] = 1;
        }
        thr_of[i] = xmalloc((b->npairs + 1) * sizeof **thr_of);
        for (uint32_t p = 0; p < b->npairs; p++) thr_of[i][p] = NONE32 - 1; /* not looked up yet */
    }
    /* The thread slices in file order, each swept on its thread as it
     * comes while the thread's come in sweep order (most files: then no
     * slice is kept). A thread found out of order is swept again: its
     * slices collected by a second pass, sorted, then swept. */
    bool any_unordered = false;
    for (int pass = 0; nq && pass < 2; pass++) {
        if (pass == 1 && !any_unordered) break;
        for (size_t i = 0; i < nb; i++) {
            Batch *b = bs[i];
            const uint8_t *dr = drop[i], *as = async[i];
            const uint16_t *kind = b->kind;
            const uint32_t *akey = b->akey;
            const int64_t *ts = b->ts, *dur = b->dur;
            uint32_t *to = thr_of[i];
            for (uint32_t r = 0; r < b->n; r++) {
                if (kind[r] != K_STATE || (dr && dr[r]) || (as && as[r])) continue;
                uint32_t a = akey[r];
                if (to[a] == NONE32 - 1) {
                    size_t kn = thr_key(b, r, &kb, &kcap);
                    to[a] = strtab_find(&thr, kb, kn);
                }
                if (to[a] == NONE32) continue;
                Thr *H = &T[to[a]];
                Sl s = {ts[r], ts[r] + (dur[r] > 0 ? dur[r] : 0), (uint32_t)i, r};
                if (pass == 1) {
                    if (H->unordered) H->rows.v[H->rows.len++] = s;
                    continue;
                }
                H->nslices++;
                if (H->unordered) continue;
                /* (equal starts: the outer first; equal slices: file order) */
                if (H->seen && (s.t < H->last_t || (s.t == H->last_t && s.end > H->last_end))) {
                    H->unordered = any_unordered = true;
                    continue;
                }
                H->seen = true;
                H->last_t = s.t;
                H->last_end = s.end;
                take_slice(H, &s, hit_b, hit_r);
            }
        }
        for (uint32_t h = 0; pass == 0 && h < nthr; h++) {
            Thr *H = &T[h];
            if (!H->unordered) continue;
            /* (what the sweep in file order answered is undone) */
            for (uint32_t k = 0; k < H->nenc; k++) hit_b[H->enc[k].fe] = hit_r[H->enc[k].fe] = NONE32;
            for (uint32_t k = 0; k < H->nnxt; k++) hit_b[H->nxt[k].fe] = hit_r[H->nxt[k].fe] = NONE32;
            H->ie = H->in = 0;
            H->stack.len = 0;
            H->rows.v = xmalloc(((size_t)H->nslices + 1) * sizeof(Sl));
            H->rows.cap = H->nslices;
        }
    }
    for (uint32_t h = 0; nq && h < nthr; h++) {
        Thr *H = &T[h];
        if (H->unordered) {
            qsort(H->rows.v, H->rows.len, sizeof(Sl), sl_cmp);
            for (size_t k = 0; k < H->rows.len; k++) take_slice(H, &H->rows.v[k], hit_b, hit_r);
            VEC_FREE(H->rows);
        }
        answer_encl(H, hit_b, hit_r, 0, true);
        VEC_FREE(H->stack);
    }
    for (size_t i = 0; i < nb; i++) {
        free(thr_of[i]);
        free(async[i]);
    }
    free(thr_of);
    free(async);
    free(T);
    /* the names, as fields of the messages (or lone ends) */
    /* (a cache of (slice's batch, its name, the destination batch) -> the
     * name's id in the destination: slices' names repeat) */
    enum { NCACHE = 4096 };
    struct { uint32_t sb, nm, db, id; } *cache = xmalloc(NCACHE * sizeof *cache);
    for (size_t c = 0; c < NCACHE; c++) cache[c].nm = NONE32;
    for (size_t k = 0; k < n; k++) {
        if (hit_b[k] == NONE32) continue;
        Batch *sb = bs[hit_b[k]], *db = bs[fe[k].dst_batch];
        uint32_t nm = sb->name[hit_r[k]];
        if (nm == NONE32) continue;
        size_t slot = (size_t)(hash_u64(((uint64_t)hit_b[k] << 40) ^ ((uint64_t)fe[k].dst_batch << 20) ^ nm) & (NCACHE - 1));
        if (cache[slot].nm != nm || cache[slot].sb != hit_b[k] || cache[slot].db != fe[k].dst_batch) {
            cache[slot].sb = hit_b[k];
            cache[slot].nm = nm;
            cache[slot].db = fe[k].dst_batch;
            cache[slot].id = strtab_intern(&db->strs, strtab_str(&sb->names, nm), strtab_len(&sb->names, nm));
        }
        RowVal v = {fe[k].dst_row, cache[slot].id};
        VEC_PUSH(add[fe[k].dst_batch * 2 + fe[k].to], v);
    }
    free(cache);
    free(qs);
    free(hit_b);
    free(hit_r);
    free(kb);
    strtab_free(&thr);
}
