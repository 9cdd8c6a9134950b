/*
 * store_cols.c — step 6 of the build: the batches' field buffers scattered
 * into typed columns.
 *
 * Owns: each column's type (int, float, string, location, mixed), its
 * layout (dense with a presence bitmap, or sparse: sorted event numbers and
 * values, whichever is smaller), integer narrowing (frame of reference),
 * and the conversion of batch values to store values (string ids remapped,
 * prefix+number ids to their string ids).
 * A group's field buffers, once scattered, go to the build's page pool
 * (when pages can be moved: the next groups' arrays and the later steps'
 * take their pages) or are given back.
 * Invariants: a sparse column's rows are strictly increasing (a later value
 * of the same event replaces an earlier one); the work and memory of a
 * column are in proportion to its values, plus n bits for a sparse column
 * with at least one value per 16 events; the result does not depend on the
 * number of workers.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "store_build_int.h"
#include "base/par.h"
#include "base/timeparse.h"
#include "base/util.h"

/* ---- 6. typed columns ---------------------------------------------------- */

/* One field buffer's values into its column, in one of three ways:
 * bysort (at the buffer's slots in the column, with their event numbers),
 * dense (at the event number, and its presence bit) or by rank (at the
 * rank of the event's bit among the set ones). Written for each way,
 * column type and width and buffer layout (the compiler makes a loop of
 * each, with nothing but the value's own work in it). */
enum { SC_SORT, SC_DENSE, SC_RANK };
/* the column's type and width, as one */
enum { CS_S2, CS_S4, CS_L2, CS_L4, CS_FLT, CS_I1, CS_I2, CS_I4, CS_I8, CS_MIXED };

typedef struct {
    const Build *B;
    const FieldBuf *fb;
    const uint32_t *d;  /* the batch's row -> event number */
    const uint32_t *rm; /* the batch's string ids of the field -> store string ids */
    Column *c;
    uint64_t *bits;     /* presence bits (dense, when not every event has a value; rank) */
    const uint32_t *rank;
    size_t off;         /* bysort: the buffer's first slot */
} Scatter;

static inline __attribute__((always_inline)) void scatter_field(const Scatter *a, const int mode, const int cs,
                                                                const bool packed)
{
    const FieldBuf *fb = a->fb;
    const size_t nv = fb->rows.len;
    const uint32_t *d = a->d, *rm = a->rm, *los = a->B->loc_of_sid;
    const uint32_t *rows = fb->rows.v, *p32 = fb->p32.v;
    const uint64_t *vals = fb->vals.v;
    const uint8_t *types = fb->types.v;
    const uint32_t prow0 = fb->prow0;
    const int64_t pbase = fb->pbase;
    const uint8_t ptype = fb->ptype;
    uint64_t *bits = a->bits;
    const uint32_t *rank = a->rank;
    uint32_t *crows = a->c->rows;
    uint8_t *cvt = a->c->vtype;
    void *vp = a->c->v.p;
    const uint64_t base = (uint64_t)a->c->base;
    const size_t off = a->off;
    for (size_t i = 0; i < nv; i++) {
        uint32_t pos = d[packed ? prow0 + (uint32_t)i : rows[i]];
        uint8_t vt = packed ? ptype : types[i];
        uint64_t p = packed ? (ptype == VT_INT ? (uint64_t)(pbase + (int32_t)p32[i]) : p32[i]) : vals[i];
        uint64_t v;
        if (cs == CS_L2 || cs == CS_L4) v = los[rm[(uint32_t)p]];
        else if (cs == CS_S2 || cs == CS_S4) v = vt == VT_GSTR ? p : rm[(uint32_t)p];
        else if (cs == CS_MIXED) v = (VT_STRMASK >> vt) & 1 ? (vt == VT_GSTR ? p : rm[(uint32_t)p]) : p;
        else if (cs == CS_FLT && vt == VT_INT) {
            double dv = (double)(int64_t)p;
            memcpy(&v, &dv, 8);
        } else v = p;
        size_t slot;
        if (mode == SC_SORT) {
            slot = off + i;
            crows[slot] = pos;
        } else if (mode == SC_DENSE) {
            slot = pos;
            if (bits) __atomic_fetch_or(&bits[pos >> 6], 1ULL << (pos & 63), __ATOMIC_RELAXED);
        } else {
            uint64_t word = bits[pos >> 6] & ((1ULL << (pos & 63)) - 1);
            slot = rank[pos >> 6] + popcount64(word);
            crows[slot] = pos;
        }
        switch (cs) {
        case CS_S2:
        case CS_L2: ((uint16_t *)vp)[slot] = (uint16_t)v; break;
        case CS_S4:
        case CS_L4: ((uint32_t *)vp)[slot] = (uint32_t)v; break;
        case CS_I1: ((uint8_t *)vp)[slot] = (uint8_t)(v - base); break;
        case CS_I2: ((uint16_t *)vp)[slot] = (uint16_t)(v - base); break;
        case CS_I4: ((uint32_t *)vp)[slot] = (uint32_t)(v - base); break;
        case CS_MIXED: cvt[slot] = vt >= VT_XSTR ? VT_STR : vt; /* fall through */
        default: ((int64_t *)vp)[slot] = (int64_t)v;
        }
    }
}

/* a sparse column's first pass: presence bits only */
static inline __attribute__((always_inline)) void scatter_bits(const Scatter *a, const bool packed)
{
    const FieldBuf *fb = a->fb;
    const size_t nv = fb->rows.len;
    const uint32_t *d = a->d, *rows = fb->rows.v;
    const uint32_t prow0 = fb->prow0;
    uint64_t *bits = a->bits;
    for (size_t i = 0; i < nv; i++) {
        uint32_t pos = d[packed ? prow0 + (uint32_t)i : rows[i]];
        __atomic_fetch_or(&bits[pos >> 6], 1ULL << (pos & 63), __ATOMIC_RELAXED);
    }
}

#define SC_BY_CS(mode, packed)                                                                                 \
    switch (cs) {                                                                                              \
    case CS_S2: scatter_field(&a, mode, CS_S2, packed); break;                                                 \
    case CS_S4: scatter_field(&a, mode, CS_S4, packed); break;                                                 \
    case CS_L2: scatter_field(&a, mode, CS_L2, packed); break;                                                 \
    case CS_L4: scatter_field(&a, mode, CS_L4, packed); break;                                                 \
    case CS_FLT: scatter_field(&a, mode, CS_FLT, packed); break;                                               \
    case CS_I1: scatter_field(&a, mode, CS_I1, packed); break;                                                 \
    case CS_I2: scatter_field(&a, mode, CS_I2, packed); break;                                                 \
    case CS_I4: scatter_field(&a, mode, CS_I4, packed); break;                                                 \
    case CS_I8: scatter_field(&a, mode, CS_I8, packed); break;                                                 \
    default: scatter_field(&a, mode, CS_MIXED, packed); break;                                                 \
    }

/* A bysort column holds its values in batch order: sort them by event
 * (a later value of the same event replaces an earlier one). A worker's
 * scratch arrays serve each column it sorts (grown when one is larger, and
 * given to the recycler at its end): one set of pages touched per worker,
 * not one per column. */
typedef struct {
    uint64_t *key, *tmp;
    uint8_t *vt;
    size_t kcap, tcap;
} SortScratch;

static void colsort_one(Build *B, size_t ci, SortScratch *sc)
{
    Store *s = B->s;
    ColBuild *cb = &B->cb[ci];
    Column *c = &s->cols[ci];
    size_t m = cb->m, wsz = cb->wsz;
    bool sorted = true;
    for (size_t i = 1; i < m && sorted; i++)
        if (c->rows[i] <= c->rows[i - 1]) sorted = false;
    if (sorted) return;
    /* (grown to the largest column this worker sorts; from the
     * recycler and back to it: the next group's, or any later big
     * array's, pages) */
    if (m > sc->kcap) {
        xfree_big(sc->key, sc->kcap * sizeof(uint64_t));
        xfree_big(sc->tmp, sc->kcap * sizeof(uint64_t));
        sc->key = xmalloc_big(m * sizeof(uint64_t));
        sc->tmp = xmalloc_big(m * sizeof(uint64_t));
        sc->kcap = m;
    }
    if (c->vtype && m > sc->tcap) {
        xfree_big(sc->vt, sc->tcap);
        sc->vt = xmalloc_big(m);
        sc->tcap = m;
    }
    uint64_t *key = sc->key, *tmp = sc->tmp;
    uint8_t *vt = sc->vt;
    for (size_t i = 0; i < m; i++) key[i] = (uint64_t)c->rows[i] << 32 | i;
    /* by row, stably (the low half, the value's index, is in order
     * already): half the passes of a sort of all 64 bits */
    sort_u64_buf(key, m, 32, tmp);
    /* the kept values into tmp (wsz <= 8 bytes each), their rows over
     * key itself: rows[o] (bytes 4o..4o+3, o <= i) never reaches
     * key[i + 1], the next one read */
    uint8_t *val = (uint8_t *)tmp;
    uint32_t *rows = (uint32_t *)key;
    size_t o = 0;
    for (size_t i = 0; i < m; i++) {
        uint64_t ki = key[i];
        if (i + 1 < m && key[i + 1] >> 32 == ki >> 32) continue; /* keep the last value */
        size_t k = (uint32_t)ki;
        memcpy(val + o * wsz, (uint8_t *)c->v.p + k * wsz, wsz);
        if (c->vtype) vt[o] = c->vtype[k];
        rows[o] = (uint32_t)(ki >> 32);
        o++;
    }
    memcpy(c->rows, rows, o * sizeof(uint32_t));
    memcpy(c->v.p, val, o * wsz);
    if (c->vtype) memcpy(c->vtype, vt, o);
    c->npresent = o;
}

static void scratch_free(SortScratch *sc)
{
    xfree_big(sc->key, sc->kcap * sizeof(uint64_t));
    xfree_big(sc->tmp, sc->kcap * sizeof(uint64_t));
    xfree_big(sc->vt, sc->tcap);
}

/* Pass 1 writes the values of dense columns and sets presence bits (a
 * bysort column's values go in batch order, then the worker that ends its
 * last job sorts it); pass 2 (sparse columns only) writes each value at
 * its rank among the set bits, then frees the field buffers. A job is one
 * field buffer of one batch (B->fjobs: see group_fjobs). Any two jobs can
 * run at once: the batches write disjoint events of a column (presence
 * bits atomically) and a batch's fields write different columns. (With a
 * job per batch, two workers on two batches of unequal work left one
 * waiting for the other, and a column's sort ran alone after the pass.) */
static void fields_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    Build *B = ctx;
    Store *s = B->s;
    const int pass = B->fields_pass;
    SortScratch sc = {0};
    size_t j;
    while ((j = jobq_next(&B->q)) != (size_t)-1) {
        size_t b = B->fjobs[j].b, f = B->fjobs[j].f;
        Batch *bt = B->bs[b];
        FieldBuf *fb = &bt->fb[f];
        int ci = B->colof[b][f];
        Column *c = &s->cols[ci];
        ColBuild *cb = &B->cb[ci];
        if (pass == 1 || (c->sparse && !cb->bysort)) {
            Scatter a = {B, fb, B->dest[b], f == F_PEER || f == F_PARENT ? B->lremap[b] : B->sremap[b], c, cb->bits,
                         cb->rank, cb->bysort ? B->coloff[b][f] : 0};
            bool packed = fb->packed;
            if (pass == 1 && c->sparse && !cb->bysort) {
                if (packed) scatter_bits(&a, true);
                else scatter_bits(&a, false);
                continue;
            }
            int cs = c->type == VT_MIXED ? CS_MIXED
                     : c->type == VT_STR ? (c->width == 2 ? CS_S2 : CS_S4)
                     : c->type == VT_LOC ? (c->width == 2 ? CS_L2 : CS_L4)
                     : c->type == VT_FLT ? CS_FLT
                     : c->width == 1     ? CS_I1
                     : c->width == 2     ? CS_I2
                     : c->width == 4     ? CS_I4
                                         : CS_I8;
            int mode = cb->bysort ? SC_SORT : pass == 1 ? SC_DENSE : SC_RANK;
            if (packed) {
                if (mode == SC_SORT) SC_BY_CS(SC_SORT, true)
                else if (mode == SC_DENSE) SC_BY_CS(SC_DENSE, true)
                else SC_BY_CS(SC_RANK, true)
            } else {
                if (mode == SC_SORT) SC_BY_CS(SC_SORT, false)
                else if (mode == SC_DENSE) SC_BY_CS(SC_DENSE, false)
                else SC_BY_CS(SC_RANK, false)
            }
            /* (a bysort column's last job sorts it: its batches' values
             * are all in) */
            if (mode == SC_SORT && atomic_fetch_sub(&cb->pending, 1) == 1) colsort_one(B, (size_t)ci, &sc);
        }
        if (pass == 1) continue;
        /* pass 2: this field buffer is read, give it back */
        if (B->move) { /* (to the page pool: the next groups' arrays take their pages) */
#define GIVE(vec)                                                                                  \
    do {                                                                                           \
        pages_give(&B->pool, (vec).v, (vec).cap * sizeof *(vec).v, (vec).len * sizeof *(vec).v); \
        (vec).v = NULL;                                                                            \
        (vec).len = (vec).cap = 0;                                                                 \
    } while (0)
            GIVE(fb->p32);
            GIVE(fb->rows);
            GIVE(fb->vals);
            GIVE(fb->types);
#undef GIVE
            continue;
        }
        mem_release(fb->p32.v, fb->p32.cap * sizeof *fb->p32.v);
        VEC_FREE(fb->p32);
        mem_release(fb->rows.v, fb->rows.cap * sizeof *fb->rows.v);
        mem_release(fb->vals.v, fb->vals.cap * sizeof *fb->vals.v);
        mem_release(fb->types.v, fb->types.cap);
        VEC_FREE(fb->rows);
        VEC_FREE(fb->vals);
        VEC_FREE(fb->types);
    }
    scratch_free(&sc);
}

/* The group's jobs for fields_worker: every field buffer of a batch whose
 * column is among the group's, those of bysort columns first (the worker
 * that ends a column's last one sorts it, while the others go on with the
 * rest), then largest first (so that the last jobs are short); ties in
 * batch and field order. Sets the bysort columns' pending counts. */
static int fjob_cmp(const void *x, const void *y)
{
    const FieldJob *a = x, *b = y;
    if (a->first != b->first) return a->first ? -1 : 1;
    if (a->n != b->n) return a->n > b->n ? -1 : 1;
    if (a->b != b->b) return a->b < b->b ? -1 : 1;
    return a->f < b->f ? -1 : a->f > b->f;
}

static size_t group_fjobs(Build *B, int lo, int hi)
{
    size_t k = 0;
    for (int ci = lo; ci < hi; ci++) atomic_store(&B->cb[ci].pending, 0);
    for (size_t b = 0; b < B->nb; b++) {
        Batch *bt = B->bs[b];
        for (size_t f = 0; f < bt->nfb && f < (size_t)B->colof_n[b]; f++) {
            int ci = B->colof[b][f];
            if (ci < lo || ci >= hi) continue;
            bool bysort = B->cb[ci].bysort;
            B->fjobs[k++] = (FieldJob){b, f, bt->fb[f].rows.len, bysort};
            if (bysort) atomic_fetch_add(&B->cb[ci].pending, 1);
        }
    }
    qsort(B->fjobs, k, sizeof *B->fjobs, fjob_cmp);
    return k;
}

typedef struct {
    size_t m;
    uint64_t h;
    uint32_t c;
} RowsKey;

static int rowskey_cmp(const void *x, const void *y)
{
    const RowsKey *a = x, *b = y;
    if (a->m != b->m) return a->m < b->m ? -1 : 1;
    if (a->h != b->h) return a->h < b->h ? -1 : 1;
    return a->c < b->c ? -1 : a->c > b->c;
}

/* A hash of 64 rows spread over a column's rows (and its last): equal
 * arrays have equal ones; hashing every row cost ~20 ms on one thread
 * (mpi 10M: 30 MB of rows), and the arrays it cannot tell apart are told
 * apart by memcmp below. */
static uint64_t rows_sample_hash(const uint32_t *r, size_t m)
{
    uint32_t v[65];
    for (int i = 0; i < 64; i++) v[i] = r[(size_t)((uint64_t)m * (uint64_t)i / 64)];
    v[64] = r[m - 1];
    return hash_bytes(v, sizeof v);
}

/* Sparse columns present on the same events (the fields of a message:
 * peer, bytes, id, tag) keep one array of rows: the column of the lowest
 * index among those with equal rows owns it. The arrays no longer used go
 * to the page pool (served: the next arrays take their pages), where pages
 * can be moved. */
static void share_rows(Build *B)
{
    Store *s = B->s;
    RowsKey *k = xmalloc(((size_t)s->ncols + 1) * sizeof(RowsKey));
    uint32_t *own = xmalloc(((size_t)s->ncols + 1) * sizeof(uint32_t)); /* a group's distinct arrays so far */
    size_t nk = 0;
    for (uint32_t c = 0; c < s->ncols; c++) {
        Column *col = &s->cols[c];
        col->rows_of = c;
        if (col->sparse && col->npresent) k[nk++] = (RowsKey){col->npresent, rows_sample_hash(col->rows, col->npresent), c};
    }
    qsort(k, nk, sizeof(RowsKey), rowskey_cmp);
    for (size_t a = 0; a < nk;) {
        size_t b = a + 1;
        while (b < nk && k[b].m == k[a].m && k[b].h == k[a].h) b++;
        /* (by column index: each column is compared with the owners of
         * the arrays before it, and shares the first equal one) */
        size_t no = 0;
        for (size_t i = a; i < b; i++) {
            Column *col = &s->cols[k[i].c];
            size_t o = 0;
            while (o < no && memcmp(col->rows, s->cols[own[o]].rows, col->npresent * sizeof(uint32_t))) o++;
            if (o == no) {
                own[no++] = k[i].c;
                continue;
            }
            if (B->move) pages_give(&B->pool, col->rows, B->cb[k[i].c].m * sizeof(uint32_t), col->npresent * sizeof(uint32_t));
            else free(col->rows);
            col->rows = s->cols[own[o]].rows;
            col->rows_of = own[o];
        }
        a = b;
    }
    free(own);
    free(k);
}

/* The group's arrays that start zeroed are zeroed by the workers, a
 * piece each (the first touch of fresh memory is most of the cost: done
 * on one thread it was serial). */
typedef struct {
    char *p;
    size_t n;
} ZPiece;
typedef struct {
    VEC(ZPiece) v;
    JobQueue q;
} Zeroing;

static void *zeroed(Zeroing *Z, size_t bytes)
{
    char *p = xmalloc_big(bytes ? bytes : 1);
    const size_t PIECE = (size_t)2 << 20;
    for (size_t o = 0; o < bytes; o += PIECE) {
        ZPiece z = {p + o, bytes - o < PIECE ? bytes - o : PIECE};
        VEC_PUSH(Z->v, z);
    }
    return p;
}

static void zero_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    Zeroing *Z = ctx;
    size_t j;
    while ((j = jobq_next(&Z->q)) != (size_t)-1) memset(Z->v.v[j].p, 0, Z->v.v[j].n);
}

static void zero_all(Zeroing *Z, int nw)
{
    jobq_init(&Z->q, Z->v.len);
    if (Z->v.len) par_run(Z->v.len < 8 || nw < 1 ? 1 : nw, zero_worker, Z);
    Z->v.len = 0;
}

void build_columns(Build *B)
{
    Zeroing Z;
    memset(&Z, 0, sizeof Z);
    Store *s = B->s;
    size_t n = B->n;
    uint32_t nx = B->xnames.count;
    size_t nkeys = (size_t)F__N + nx;
    int *cid = xmalloc(nkeys * sizeof(int));
    size_t *cnt = xcalloc(nkeys, sizeof(size_t));
    uint8_t *tmask = xcalloc(nkeys, 1);
    int64_t *imin = xcalloc(nkeys, sizeof(int64_t)), *imax = xcalloc(nkeys, sizeof(int64_t));
    for (size_t k = 0; k < nkeys; k++) cid[k] = -1;
    for (size_t b = 0; b < B->nb; b++) {
        Batch *bt = B->bs[b];
        for (size_t f = 0; f < bt->nfb; f++) {
            if (!bt->fb[f].rows.len) continue;
            size_t key = f < F_EXTRA ? f : (size_t)F__N + B->xremap[b][f - F_EXTRA];
            cnt[key] += bt->fb[f].rows.len;
            if (bt->fb[f].tmask & (1u << VT_INT)) {
                bool first = !(tmask[key] & (1u << VT_INT));
                if (first || bt->fb[f].imin < imin[key]) imin[key] = bt->fb[f].imin;
                if (first || bt->fb[f].imax > imax[key]) imax[key] = bt->fb[f].imax;
            }
            tmask[key] |= bt->fb[f].tmask;
        }
    }
    int ncol = 0;
    for (size_t k = 0; k < nkeys; k++)
        if (cnt[k]) cid[k] = ncol++;
    s->cols = xcalloc((size_t)ncol + 1, sizeof(Column));
    s->ncols = (uint32_t)ncol;
    B->cb = xcalloc((size_t)ncol + 1, sizeof(ColBuild));
    for (int f = 0; f < F__N; f++) s->col_of_field[f] = -1;
    for (size_t key = 0; key < nkeys; key++) {
        int ci = cid[key];
        if (ci < 0) continue;
        Column *c = &s->cols[ci];
        if (key < F__N) {
            c->field = (int)key;
            c->name = xstrdup(FIELD_NAMES[key]);
            s->col_of_field[key] = ci;
        } else {
            c->field = F_EXTRA;
            c->name = xstrdup(strtab_str(&B->xnames, (uint32_t)(key - F__N)));
        }
        uint8_t mk = tmask[key];
        c->xids = (mk & (1u << VT_XSTR)) != 0;
        if (key == F_PEER) c->type = VT_LOC;
        else if ((mk & VT_STRMASK) && (mk & ((1u << VT_INT) | (1u << VT_FLT)))) c->type = VT_MIXED;
        else if (mk & VT_STRMASK) c->type = VT_STR;
        else if (mk & (1u << VT_FLT)) c->type = VT_FLT;
        else c->type = VT_INT;
        size_t m = cnt[key];
        c->npresent = m;
        size_t wsz;
        if (c->type == VT_INT) {
            /* frame of reference: the narrowest width that holds max - min */
            uint64_t range = (uint64_t)imax[key] - (uint64_t)imin[key];
            c->width = range <= 0xFF ? 1 : range <= 0xFFFF ? 2 : range <= 0xFFFFFFFFULL ? 4 : 8;
            c->base = c->width == 8 ? 0 : imin[key];
            wsz = c->width;
        } else if (c->type == VT_LOC || c->type == VT_STR) {
            /* string ids and locations in 2 bytes when they all fit (a
             * string column's ids are below nvals, parent's below the
             * dictionary's size, unless it holds prefix+number ids) */
            size_t lim = c->type == VT_LOC ? s->nloc : key == F_PARENT ? s->strs.count : s->nvals;
            c->width = !c->xids && lim <= 0xFFFF ? 2 : 4;
            wsz = c->width;
        } else {
            wsz = 8;
        }
        size_t words = (n + 63) / 64 + 1;
        size_t tb = c->type == VT_MIXED ? 1 : 0; /* a type byte per value */
        size_t dense_bytes = n * (wsz + tb) + (m < n ? words * 8 : 0), sparse_bytes = m * (4 + wsz + tb);
        c->sparse = sparse_bytes < dense_bytes;
        ColBuild *cb = &B->cb[ci];
        cb->m = m;
        cb->wsz = wsz;
        /* few values: a presence bitmap over all events would cost more than
         * sorting them (and n bits per column, for thousands of columns) */
        cb->bysort = c->sparse && m < n / 16;
    }
    B->colof = xcalloc(B->nb + 1, sizeof(int *));
    B->coloff = xcalloc(B->nb + 1, sizeof(size_t *));
    B->colof_n = xcalloc(B->nb + 1, sizeof(int));
    size_t *fill = xcalloc((size_t)ncol + 1, sizeof(size_t)); /* bysort: values placed so far */
    size_t nfbs = 0;
    for (size_t b = 0; b < B->nb; b++) nfbs += B->bs[b]->nfb;
    B->fjobs = xmalloc((nfbs + 1) * sizeof *B->fjobs);
    for (size_t b = 0; b < B->nb; b++) {
        Batch *bt = B->bs[b];
        B->colof[b] = xmalloc((bt->nfb + 1) * sizeof(int));
        B->coloff[b] = xmalloc((bt->nfb + 1) * sizeof(size_t));
        B->colof_n[b] = (int)bt->nfb;
        for (size_t f = 0; f < bt->nfb; f++) {
            if (!bt->fb[f].rows.len) {
                B->colof[b][f] = -1;
                continue;
            }
            size_t key = f < F_EXTRA ? f : (size_t)F__N + B->xremap[b][f - F_EXTRA];
            int ci = cid[key];
            B->colof[b][f] = ci;
            B->coloff[b][f] = fill[ci];
            fill[ci] += bt->fb[f].rows.len;
        }
    }
    free(fill);
    /* Columns are built a group at a time (consecutive columns whose field
     * buffers hold about COL_GROUP_BYTES, at least one column), and each
     * group's buffers are given back before the next group's columns are
     * allocated: the build holds one group's values twice, not all. */
    const size_t COL_GROUP_BYTES = (size_t)48 << 20;
    int nw = B->threads;
    for (int lo = 0; lo < ncol;) {
        int hi = lo;
        size_t bytes = 0;
        do {
            bytes += B->cb[hi].m * (sizeof(uint32_t) + sizeof(uint64_t) + 1);
            hi++;
        } while (hi < ncol && bytes + B->cb[hi].m * 13 <= COL_GROUP_BYTES);
        B->col_lo = lo;
        B->col_hi = hi;
        size_t words = (n + 63) / 64 + 1;
        if (B->move) {
            /* the page pool keeps what this group's arrays take, no more:
             * pages held through the group for nothing would raise the peak */
            size_t want = 0;
            for (int ci = lo; ci < hi; ci++) {
                const Column *c = &s->cols[ci];
                size_t m = B->cb[ci].m, wsz = B->cb[ci].wsz, rows = c->sparse ? m : (n ? n : 1);
                want += (c->type == VT_MIXED ? rows : 0) + rows * wsz;
                want += c->sparse ? m * sizeof(uint32_t) + (B->cb[ci].bysort ? 0 : words * 8) : (m < n ? words * 8 : 0);
            }
            pages_trim(&B->pool, want);
        }
        for (int ci = lo; ci < hi; ci++) {
            Column *c = &s->cols[ci];
            ColBuild *cb = &B->cb[ci];
            size_t m = cb->m, wsz = cb->wsz;
            if (c->type == VT_MIXED) c->vtype = zeroed(&Z, c->sparse ? m : (n ? n : 1));
            if (c->sparse) {
                c->rows = xmalloc_big(m * sizeof(uint32_t));
                c->v.p = xmalloc_big(m * wsz);
                if (!cb->bysort) cb->bits = zeroed(&Z, words * sizeof(uint64_t));
            } else {
                c->v.p = zeroed(&Z, (n ? n : 1) * wsz);
                if (m < n) {
                    c->bits = zeroed(&Z, words * sizeof(uint64_t));
                    cb->bits = c->bits;
                }
            }
        }
        zero_all(&Z, nw);
        size_t nj = group_fjobs(B, lo, hi);
        jobq_init(&B->q, nj);
        B->fields_pass = 1;
        par_run(nw < (int)nj ? nw : (int)(nj ? nj : 1), fields_worker, B);
        for (int ci = lo; ci < hi; ci++) {
            Column *c = &s->cols[ci];
            ColBuild *cb = &B->cb[ci];
            if (!c->sparse || cb->bysort) continue;
            cb->rank = xmalloc(words * sizeof(uint32_t));
            uint32_t acc = 0;
            for (size_t wd = 0; wd < words; wd++) {
                cb->rank[wd] = acc;
                acc += popcount64(cb->bits[wd]);
            }
            c->npresent = acc; /* equal to m unless a row had two values */
        }
        jobq_init(&B->q, nj);
        B->fields_pass = 2;
        par_run(nw < (int)nj ? nw : (int)(nj ? nj : 1), fields_worker, B);
        for (int ci = lo; ci < hi; ci++) {
            if (s->cols[ci].sparse) {
                xfree_big(B->cb[ci].bits, words * sizeof(uint64_t));
                free(B->cb[ci].rank);
                B->cb[ci].bits = NULL;
                B->cb[ci].rank = NULL;
            }
        }
        lo = hi;
    }
    for (size_t b = 0; b < B->nb; b++) {
        batch_free_fields(B->bs[b]); /* (dest: see store_build) */
    }
    for (size_t b = 0; b < B->nb; b++) {
        free(B->colof[b]);
        free(B->coloff[b]);
    }
    free(B->colof);
    free(B->coloff);
    free(B->colof_n);
    free(B->fjobs);
    B->fjobs = NULL;
    share_rows(B);
    free(B->cb);
    VEC_FREE(Z.v);
    free(cid);
    free(cnt);
    free(tmask);
    free(imin);
    free(imax);
}

