/*
 * batch_fields.c — a batch's field buffers as its records are committed:
 * a value appended (batch_push_sparse: packed while the field is on every
 * row with one type, grown towards the rows the batch expects) and a
 * pass's values merged in by row (batch_field_merge). See batch.h for the
 * FieldBuf invariants; batch.c converts the records.
 */
#include "batch.h"

#include <stdlib.h>
#include <string.h>

/* A field buffer's array grown from used (of its bytes in use) to n bytes:
 * past 4 MiB a new big block (xmalloc_big: recycled pages when there are)
 * and a copy, instead of realloc's fresh pages. */
static void *fb_grow(void *p, size_t used, size_t n)
{
    if (n < ((size_t)4 << 20)) return xrealloc(p, n);
    void *q = xmalloc_big(n);
    if (used) memcpy(q, p, used);
    /* (used: the whole old block; one of 4 MiB and more came from
     * xmalloc_big and goes to the recycler, whose pages the next big
     * block takes) */
    xfree_big(p, used);
    return q;
}

/* The next capacity of a field buffer holding len values: twice it, the
 * batch's capacity once the field is on most rows, or, once it is big,
 * what the batch's capacity (its estimated rows) would need at the
 * density so far, so that it grows once more at most. */
static size_t fb_next_cap(const Batch *b, size_t cap, size_t len)
{
    size_t nc = cap ? cap * 2 : 8;
    if (b->cap > nc && len * 4 > b->n * 3) return b->cap;
    if (nc >= ((size_t)1 << 19) && b->n && b->cap > b->n) {
        size_t est = (size_t)((double)len * (double)b->cap / (double)b->n) + len / 16;
        if (est > nc) nc = est;
    }
    return nc;
}

void batch_push_sparse(Batch *b, uint32_t row, uint32_t field, uint8_t type, int64_t i, double f, uint32_t s)
{
    if (UNLIKELY(field >= b->nfb)) {
        size_t nn = b->nfb ? b->nfb : 32;
        while (nn <= field) nn *= 2;
        b->fb = xrealloc(b->fb, nn * sizeof(FieldBuf));
        memset(b->fb + b->nfb, 0, (nn - b->nfb) * sizeof(FieldBuf));
        b->nfb = nn;
    }
    FieldBuf *fbuf = &b->fb[field];
    if (fbuf->packed || (!fbuf->rows.len && !fbuf->rows.v && (type == VT_INT || type == VT_STR) && field != F_PEER &&
                         field != F_ID && field != F_TAG && field != F_GROUP && field != F_PARENT)) {
        if (!fbuf->packed) { /* a field's first value: packed until it cannot be */
            fbuf->packed = true;
            fbuf->ptype = type;
            fbuf->prow0 = row;
            fbuf->pbase = type == VT_INT ? i : 0;
        }
        size_t len = fbuf->rows.len;
        int64_t off = 0;
        bool fits = type == fbuf->ptype &&
                    (type == VT_STR || (!__builtin_sub_overflow(i, fbuf->pbase, &off) && off >= INT32_MIN && off <= INT32_MAX));
        uint32_t pv = type == VT_STR ? s : (uint32_t)(int32_t)off;
        bool dup = len && row == fbuf->prow0 + (uint32_t)(len - 1);
        if (fits && (dup || row == fbuf->prow0 + (uint32_t)len)) {
            if (type == VT_INT) {
                if (!(fbuf->tmask & (1u << VT_INT)) || i < fbuf->imin) fbuf->imin = i;
                if (!(fbuf->tmask & (1u << VT_INT)) || i > fbuf->imax) fbuf->imax = i;
            }
            fbuf->tmask |= (uint8_t)(1u << type);
            if (dup) { /* one value per row and field: a later duplicate replaces it */
                fbuf->p32.v[len - 1] = pv;
                return;
            }
            if (UNLIKELY(len == fbuf->p32.cap)) {
                size_t nc = fb_next_cap(b, fbuf->p32.cap, len);
                fbuf->p32.v = fb_grow(fbuf->p32.v, len * sizeof(uint32_t), nc * sizeof(uint32_t));
                fbuf->p32.cap = nc;
            }
            fbuf->p32.v[len] = pv;
            fbuf->p32.len = fbuf->rows.len = fbuf->vals.len = fbuf->types.len = len + 1;
            return;
        }
        fb_unpack(fbuf);
    }
    uint64_t v;
    if (type == VT_INT || type == VT_XSTR) v = (uint64_t)i;
    else if (type == VT_FLT) memcpy(&v, &f, 8);
    else v = s;
    if (UNLIKELY(fbuf->rows.len && fbuf->rows.v[fbuf->rows.len - 1] == row)) {
        /* one value per row and field: a later duplicate replaces it */
        if (type == VT_INT) {
            if (!(fbuf->tmask & (1u << VT_INT)) || i < fbuf->imin) fbuf->imin = i;
            if (!(fbuf->tmask & (1u << VT_INT)) || i > fbuf->imax) fbuf->imax = i;
        }
        fbuf->vals.v[fbuf->rows.len - 1] = v;
        fbuf->types.v[fbuf->rows.len - 1] = type;
        fbuf->tmask |= (uint8_t)(1u << type);
        return;
    }
    if (UNLIKELY(fbuf->rows.len == fbuf->rows.cap)) {
        /* grow all three together, towards the expected number of rows; a
         * field starts small, so that many rarely used fields (thousands of
         * extra keys) cost in proportion to their values */
        size_t nc = fb_next_cap(b, fbuf->rows.cap, fbuf->rows.len), len = fbuf->rows.len;
        fbuf->rows.v = fb_grow(fbuf->rows.v, len * sizeof(uint32_t), nc * sizeof(uint32_t));
        fbuf->vals.v = fb_grow(fbuf->vals.v, len * sizeof(uint64_t), nc * sizeof(uint64_t));
        fbuf->types.v = fb_grow(fbuf->types.v, len, nc);
        fbuf->rows.cap = fbuf->vals.cap = fbuf->types.cap = nc;
    }
    if (type == VT_INT) {
        if (!(fbuf->tmask & (1u << VT_INT)) || i < fbuf->imin) fbuf->imin = i;
        if (!(fbuf->tmask & (1u << VT_INT)) || i > fbuf->imax) fbuf->imax = i;
    }
    size_t k = fbuf->rows.len++;
    fbuf->vals.len++;
    fbuf->types.len++;
    fbuf->rows.v[k] = row;
    fbuf->vals.v[k] = v;
    fbuf->types.v[k] = type;
    fbuf->tmask |= (uint8_t)(1u << type);
}

void batch_field_merge(Batch *b, uint32_t field, const uint32_t *rows, const uint8_t *types, const uint64_t *vals, size_t n)
{
    if (!n) return;
    if (field >= b->nfb || b->fb[field].rows.len == 0 || fb_row(&b->fb[field], b->fb[field].rows.len - 1) < rows[0]) {
        /* after every row it has: appended */
        for (size_t i = 0; i < n; i++) {
            int64_t iv = (int64_t)vals[i];
            double f;
            memcpy(&f, &vals[i], 8);
            batch_push_sparse(b, rows[i], field, types[i], iv, f, (uint32_t)vals[i]);
        }
        return;
    }
    FieldBuf *fb = &b->fb[field];
    fb_unpack(fb);
    size_t m = fb->rows.len, tot = m + n;
    uint32_t *nr = xmalloc(tot * sizeof *nr);
    uint64_t *nv = xmalloc(tot * sizeof *nv);
    uint8_t *nt = xmalloc(tot);
    size_t i = 0, j = 0, k = 0;
    while (i < m || j < n) {
        if (j >= n || (i < m && fb->rows.v[i] < rows[j])) {
            nr[k] = fb->rows.v[i];
            nv[k] = fb->vals.v[i];
            nt[k++] = fb->types.v[i++];
        } else if (i < m && fb->rows.v[i] == rows[j]) {
            i++; /* (the row's own value gives way) */
        } else {
            nr[k] = rows[j];
            nv[k] = vals[j];
            nt[k] = types[j];
            if (types[j] == VT_INT) {
                int64_t iv = (int64_t)vals[j];
                if (!(fb->tmask & (1u << VT_INT)) || iv < fb->imin) fb->imin = iv;
                if (!(fb->tmask & (1u << VT_INT)) || iv > fb->imax) fb->imax = iv;
            }
            fb->tmask |= (uint8_t)(1u << types[j]);
            k++;
            j++;
        }
    }
    free(fb->rows.v);
    free(fb->vals.v);
    free(fb->types.v);
    fb->rows.v = nr;
    fb->vals.v = nv;
    fb->types.v = nt;
    fb->rows.len = fb->vals.len = fb->types.len = k;
    fb->rows.cap = fb->vals.cap = fb->types.cap = tot;
}
