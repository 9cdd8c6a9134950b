/*
 * vm_load.c — the operands of the filter VM: what a block reads.
 *
 * Owns: a block's register files (blk_init/blk_free), loading a column or a
 * key of each row into a value register, the key of each event for a table
 * lookup, and the per-key tables (a program evaluated once per location,
 * activity, kind or string rather than per event: built whole, or entry by
 * entry as blocks need them when the string domain is large).
 * Invariants: a load writes rows [0, n) of its register and marks the rows
 * whose value is absent with type 0; a table's entry for an absent key is the
 * last one of its domain; a lazy table's `done` byte is 1 only once the entry
 * holds the program's result.
 */
#include <stdlib.h>
#include <string.h>

#include "fint.h"
#include "base/timeparse.h"
#include "base/util.h"

void blk_init(Blk *b, Filter *F, const Program *P)
{
    memset(b, 0, sizeof *b);
    b->F = F;
    b->s = F->s;
    b->P = P;
    b->nv = P->nv;
    b->nm = P->nm;
    b->vi = xmalloc(((size_t)P->nv + 1) * sizeof *b->vi);
    b->vt = xmalloc(((size_t)P->nv + 1) * sizeof *b->vt);
    b->m = xmalloc(((size_t)P->nm + 1) * sizeof *b->m);
}

void blk_free(Blk *b)
{
    free(b->vi);
    free(b->vt);
    free(b->m);
}

/* ---- values ------------------------------------------------------------- */


/* The domain of a table over the strings of a field: the names for name
 * (col < 0), names and values for a column (the store orders its
 * dictionary so), the whole dictionary for parent's labels, the dictionary
 * then the prefix+number ids for a column that has such ids (a key is then
 * dictn + the id's index); then one entry for an absent value. */
static inline size_t sid_domain(const Filter *F, int col)
{
    const Store *s = F->s;
    if (col < 0) return (size_t)s->nnames + 1;
    if (s->cols[col].xids) return (size_t)F->dictn + s->nxid + 1;
    if (s->cols[col].field == F_PARENT) return (size_t)F->dictn + 1;
    return (size_t)s->nvals + 1;
}

/* The string id of a key of such a table (block_keys maps the other way). */
static inline uint32_t key_sid(const Filter *F, size_t d) { return d < F->dictn ? (uint32_t)d : SID_XID + (uint32_t)(d - F->dictn); }

/* a label string as a value: an integer when it is one */
static inline void label_value(const Filter *F, uint32_t sid, uint8_t *t, int64_t *v)
{
    size_t len;
    const char *s = fs_str(F, sid, &len);
    int64_t iv;
    if (len && len <= 20 && parse_int64(s, len, &iv) == TP_OK) {
        *t = FT_INT;
        *v = iv;
    } else {
        *t = FT_STR;
        *v = sid;
    }
}

void vm_load_col(Blk *b, int a, int col, bool label)
{
    const Store *s = b->s;
    const Column *c = &s->cols[col];
    uint8_t *vt = b->vt[a];
    int64_t *vi = b->vi[a];
    memset(vt, 0, b->n);
    size_t k0 = 0, k1 = b->n;
    if (c->sparse) {
        size_t lo = 0, hi = c->npresent;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (c->rows[mid] < b->base) lo = mid + 1;
            else hi = mid;
        }
        k0 = lo;
        k1 = lo;
        while (k1 < c->npresent && c->rows[k1] < b->base + b->n) k1++;
    }
    for (size_t k = k0; k < k1; k++) {
        size_t i, slot;
        if (c->sparse) {
            i = c->rows[k] - b->base;
            slot = k;
        } else {
            i = k;
            slot = b->base + k;
            if (c->bits && !((c->bits[slot >> 6] >> (slot & 63)) & 1)) continue;
        }
        uint64_t p;
        uint8_t t = col_slot_value(c, slot, &p);
        if (t == VT_LOC) {
            vt[i] = b->F->loc_t[p];
            vi[i] = b->F->loc_v[p];
        } else if (t == VT_STR && label) {
            label_value(b->F, (uint32_t)p, &vt[i], &vi[i]);
        } else {
            vt[i] = t; /* VT_INT, VT_FLT, VT_STR are FT_INT, FT_FLT, FT_STR */
            vi[i] = (int64_t)p;
        }
    }
}

void vm_load_key(Blk *b, int a)
{
    const Filter *F = b->F;
    const Program *P = b->P;
    uint8_t *vt = b->vt[a];
    int64_t *vi = b->vi[a];
    uint32_t nloc = F->s->nloc;
    for (size_t i = 0; i < b->n; i++) {
        size_t d = row_dom(b, i);
        switch (P->domain) {
        case KEY_LOC:
            vt[i] = F->loc_t[d];
            vi[i] = F->loc_v[d];
            break;
        case KEY_PEER:
            if (d < nloc) {
                vt[i] = F->loc_t[d];
                vi[i] = F->loc_v[d];
            } else {
                vt[i] = 0;
            }
            break;
        case KEY_ACT:
            vt[i] = F->act_t[d];
            vi[i] = F->act_v[d];
            break;
        case KEY_KIND:
            vt[i] = FT_STR;
            vi[i] = F->kind_sid[d];
            break;
        case KEY_SID:
            if (d < sid_domain(F, P->domain_col) - 1) {
                if (P->domain_label) label_value(F, key_sid(F, d), &vt[i], &vi[i]);
                else vt[i] = FT_STR, vi[i] = (int64_t)key_sid(F, d);
            } else {
                vt[i] = 0;
            }
            break;
        default: vt[i] = 0; break;
        }
    }
}

/* the key of each event of the block, as an index into a table */
void vm_block_keys(Blk *b, const Table *t, uint32_t *key)
{
    const Store *s = b->s;
    size_t base = b->base, n = b->n;
    switch (t->key) {
    case KEY_LOC:
        for (size_t i = 0; i < n; i++) key[i] = s->loc[base + i];
        break;
    case KEY_ACT:
        for (size_t i = 0; i < n; i++) key[i] = s->act[base + i];
        break;
    case KEY_KIND:
        for (size_t i = 0; i < n; i++) key[i] = s->kind[base + i];
        break;
    case KEY_PEER:
    case KEY_SID: {
        uint32_t absent = t->key == KEY_PEER ? s->nloc : (uint32_t)sid_domain(b->F, t->col) - 1;
        if (t->key == KEY_SID && t->col < 0) {
            for (size_t i = 0; i < n; i++) {
                uint32_t v = s->name[base + i];
                key[i] = v == NONE32 ? absent : v;
            }
            break;
        }
        const Column *c = t->key == KEY_PEER ? store_canon_col(s, F_PEER) : &s->cols[t->col];
        for (size_t i = 0; i < n; i++) key[i] = absent;
        if (!c) break;
        if (c->sparse) {
            size_t lo = 0, hi = c->npresent;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (c->rows[mid] < base) lo = mid + 1;
                else hi = mid;
            }
            for (size_t k = lo; k < c->npresent && c->rows[k] < base + n; k++) key[c->rows[k] - base] = col_sid_at(c, k);
        } else {
            for (size_t i = 0; i < n; i++) {
                size_t e = base + i;
                if (!c->bits || ((c->bits[e >> 6] >> (e & 63)) & 1)) key[i] = col_sid_at(c, e);
            }
        }
        if (t->key == KEY_SID && c->xids) {
            const uint32_t dn = b->F->dictn; /* (absent is below SID_XID) */
            for (size_t i = 0; i < n; i++) {
                uint32_t k = key[i];
                key[i] = k >= SID_XID ? dn + (k - SID_XID) : k;
            }
        }
        break;
    }
    default:
        for (size_t i = 0; i < n; i++) key[i] = 0;
    }
}

/* compute the entries of a lazy table that this block needs */
void vm_table_fill(Filter *F, Table *t, const uint32_t *key, size_t n)
{
    uint32_t todo[BLK];
    size_t nt = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t k = key[i];
        if (!t->done[k]) {
            t->done[k] = 2; /* queued */
            todo[nt++] = k;
        }
    }
    if (!nt) return;
    Blk d;
    blk_init(&d, F, t->prog);
    uint8_t live[BLK], out[BLK];
    memset(live, 1, nt);
    d.idx = todo;
    d.n = nt;
    d.live = live;
    vm_run(&d, out);
    for (size_t i = 0; i < nt; i++) {
        uint32_t k = todo[i];
        if (t->value) {
            t->vals[k] = d.vi[t->prog->ret_v][i];
            t->vt[k] = d.vt[t->prog->ret_v][i];
        } else {
            t->bits[k] = out[i];
        }
        t->done[k] = 1;
    }
    blk_free(&d);
}

/* ---- comparisons -------------------------------------------------------- */
/* ---- tables ---------------------------------------------------------------- */

size_t domain_size(const Filter *F, KeyKind k, int col)
{
    const Store *s = F->s;
    switch (k) {
    case KEY_LOC: return s->nloc;
    case KEY_PEER: return (size_t)s->nloc + 1;
    case KEY_ACT: return s->nact;
    case KEY_KIND: return F->nkinds;
    case KEY_SID: return sid_domain(F, col);
    default: return 1;
    }
}

/* a dictionary this big is not evaluated whole: entries are computed when
 * a block first needs them */
#define LAZY_DICT (1u << 18)

void table_build(Filter *F, Table *t)
{
    if (t->built && (t->scope_dep < 0 || t->epoch == F->epoch)) return;
    t->epoch = F->epoch;
    size_t size = domain_size(F, t->key, t->col);
    if (!t->built) {
        t->size = size;
        if (t->value) {
            t->vals = xcalloc(size + 1, sizeof(int64_t));
            t->vt = xcalloc(size + 1, 1);
        } else {
            t->bits = xcalloc(size + 1, 1);
        }
        if (t->key == KEY_SID && size > LAZY_DICT && t->scope_dep < 0) {
            t->done = xcalloc(size + 1, 1);
            t->built = true;
            t->uniform = -1;
            return;
        }
    }
    Blk b;
    blk_init(&b, F, t->prog);
    uint8_t live[BLK], out[BLK];
    memset(live, 1, sizeof live);
    for (size_t base = 0; base < size && !filter_poll(F); base += BLK) {
        b.base = base;
        b.n = size - base < BLK ? size - base : BLK;
        b.live = live;
        vm_run(&b, out);
        if (t->value) {
            memcpy(t->vals + base, b.vi[t->prog->ret_v], b.n * 8);
            memcpy(t->vt + base, b.vt[t->prog->ret_v], b.n);
        } else {
            memcpy(t->bits + base, out, b.n);
        }
    }
    blk_free(&b);
    t->built = true;
    t->uniform = -1;
    if (!t->value) {
        /* (the domain includes the entry for an absent key) */
        uint8_t u = t->bits[0];
        size_t i = 1;
        while (i < size && t->bits[i] == u) i++;
        if (i >= size) t->uniform = (int8_t)u;
    }
}
