/*
 * batch_rows.c — a batch's rows: their columns' storage (grown as records
 * are committed, batch_grow_rows, or reserved, batch_reserve), and once
 * they are committed: the storage of its lanes sweep (lsw_grow: blocks
 * given back whole), the rows a pass drops taken out (batch_compact),
 * a packed field unpacked
 * (fb_unpack), and freeing. See
 * batch.h for what a batch owns and its invariants; batch.c turns records
 * into its rows.
 */
#include "batch.h"

#include <stdlib.h>
#include <string.h>

/* ---- storage ------------------------------------------------------------ */

static void resize_rows(Batch *b, size_t nc)
{
    if (b->cap == 0 && nc >= ((size_t)1 << 20)) {
        /* the first, estimated size: big blocks (xmalloc_big) */
        b->ts = xmalloc_big(nc * sizeof *b->ts);
        b->dur = xmalloc_big(nc * sizeof *b->dur);
        b->akey = xmalloc_big(nc * sizeof *b->akey);
        b->name = xmalloc_big(nc * sizeof *b->name);
        b->kind = xmalloc_big(nc * sizeof *b->kind);
        b->cap = nc;
        return;
    }
    b->ts = xrealloc(b->ts, nc * sizeof *b->ts);
    b->dur = xrealloc(b->dur, nc * sizeof *b->dur);
    b->akey = xrealloc(b->akey, nc * sizeof *b->akey);
    b->name = xrealloc(b->name, nc * sizeof *b->name);
    b->kind = xrealloc(b->kind, nc * sizeof *b->kind);
    b->cap = nc;
}

void batch_grow_rows(Batch *b) { resize_rows(b, b->cap ? b->cap + b->cap / 2 : 4096); }

void batch_reserve(Batch *b, size_t n)
{
    if (b->n + n > b->cap) resize_rows(b, b->n + n);
}

void lsw_grow(Batch *b, LaneOpenVec *o)
{
    size_t nc = o->cap ? o->cap * 2 : 4;
    if (b->lsw_left < nc) {
        size_t bs = nc > ((size_t)1 << 16) ? nc : (size_t)1 << 16;
        LaneOpen *blk = xmalloc(bs * sizeof *blk);
        VEC_PUSH(b->lsw_blocks, blk);
        b->lsw_next = blk;
        b->lsw_left = bs;
    }
    LaneOpen *nv = b->lsw_next;
    b->lsw_next += nc;
    b->lsw_left -= nc;
    if (o->len) memcpy(nv, o->v, o->len * sizeof *nv);
    o->v = nv;
    o->cap = nc;
}

void batch_free_sweep(Batch *b)
{
    for (size_t i = 0; i < b->lsw_blocks.len; i++) free(b->lsw_blocks.v[i]);
    VEC_FREE(b->lsw_blocks);
    b->lsw_next = NULL;
    b->lsw_left = 0;
    free(b->lsw);
    b->lsw = NULL;
    b->lsw_cap = 0;
}

void batch_parse_done(Batch *b)
{
    free(b->locint);
    b->locint = NULL;
    b->locint_n = 0;
    free(b->xpfx);
    b->xpfx = NULL;
}

void batch_free(Batch *b)
{
    batch_parse_done(b);
    batch_free_sweep(b);
    free(b->ts);
    free(b->dur);
    free(b->akey);
    free(b->name);
    free(b->kind);
    batch_free_fields(b);
    free(b->pair_count);
    strtab_free(&b->names);
    strtab_free(&b->strs);
    strtab_free(&b->labels);
    strtab_free(&b->xnames);
    strtab_free(&b->rawpairs);
    free(b->rawpair_akey);
    free(b->loc_cache);
    free(b->pkbuf);
    free(b->pairs);
    free(b->pslots);
    free(b->uk_of_sid);
    free(b->file_of_name);
    VEC_FREE(b->ukinds);
    VEC_FREE(b->cands);
    strtab_free(&b->pkeys);
    free(b->role_of_uk);
    free(b->pair_group_of_uk);
    VEC_FREE(b->renames);
    VEC_FREE(b->loc_orders);
    VEC_FREE(b->act_orders);
    VEC_FREE(b->unfin_rows);
    for (size_t i = 0; i < b->loose.len; i++) free(b->loose.v[i].reason);
    VEC_FREE(b->loose);
    for (size_t i = 0; i < b->rej.len; i++) free(b->rej.v[i].reason);
    VEC_FREE(b->rej);
    for (int i = 0; i < b->nprobs; i++) {
        free(b->probs[i].key);
        for (int j = 0; j < b->probs[i].nfirst; j++) free(b->probs[i].first[j].reason);
    }
    free(b->probs);
    memset(b, 0, sizeof *b);
}

void fb_unpack(FieldBuf *fb)
{
    if (!fb->packed) return;
    size_t len = fb->rows.len, nc = fb->p32.cap > len ? fb->p32.cap : len + 8;
    uint32_t *r = xmalloc(nc * sizeof *r);
    uint64_t *v = xmalloc(nc * sizeof *v);
    uint8_t *t = xmalloc(nc);
    for (size_t i = 0; i < len; i++) {
        r[i] = fb_row(fb, i);
        v[i] = fb_val(fb, i);
        t[i] = fb->ptype;
    }
    VEC_FREE(fb->p32);
    fb->packed = false;
    fb->rows.v = r;
    fb->vals.v = v;
    fb->types.v = t;
    fb->rows.cap = fb->vals.cap = fb->types.cap = nc;
}

void batch_free_fields(Batch *b)
{
    for (size_t i = 0; i < b->nfb; i++) {
        VEC_FREE(b->fb[i].p32);
        VEC_FREE(b->fb[i].rows);
        VEC_FREE(b->fb[i].vals);
        VEC_FREE(b->fb[i].types);
    }
    free(b->fb);
    b->fb = NULL;
    b->nfb = 0;
}

void batch_compact(Batch *b, const uint8_t *drop)
{
    /* the rows before the first dropped one stay where they are: nothing
     * dropped (soft ends that found no begin) costs a scan of drop only */
    const uint8_t *fd = b->n ? memchr(drop, 1, b->n) : NULL;
    b->cands.len = 0;
    if (!fd) return;
    size_t r0 = (size_t)(fd - drop);
    b->lsw_stale = true; /* (rows removed: the lanes pass sweeps them again) */
    /* nidx[r - r0]: the new row of row r >= r0 (a row below r0 keeps its) */
    uint32_t *nidx = xmalloc((b->n - r0 + 1) * sizeof *nidx);
    size_t k = r0;
    for (size_t r = r0; r < b->n; r++) {
        nidx[r - r0] = (uint32_t)k;
        if (drop[r]) {
            b->pair_count[b->akey[r]]--;
            continue;
        }
        b->ts[k] = b->ts[r];
        b->dur[k] = b->dur[r];
        b->akey[k] = b->akey[r];
        b->name[k] = b->name[r];
        b->kind[k] = b->kind[r];
        k++;
    }
    for (size_t f = 0; f < b->nfb; f++) {
        FieldBuf *fb = &b->fb[f];
        size_t w = 0;
        /* (the types and the integer range of what is left) */
        fb->tmask = 0;
        if (fb->packed) { /* rows every one from prow0: still so after the drop */
            uint32_t p0 = fb->prow0;
            for (size_t i = 0; i < fb->rows.len; i++) {
                if (drop[p0 + i]) continue;
                fb->p32.v[w] = fb->p32.v[i];
                if (fb->ptype == VT_INT) {
                    int64_t iv = (int64_t)fb_val(fb, w);
                    if (!(fb->tmask & (1u << VT_INT)) || iv < fb->imin) fb->imin = iv;
                    if (!(fb->tmask & (1u << VT_INT)) || iv > fb->imax) fb->imax = iv;
                }
                fb->tmask |= (uint8_t)(1u << fb->ptype);
                w++;
            }
            fb->prow0 = p0 < r0 ? p0 : p0 < b->n ? nidx[p0 - r0] : (uint32_t)k;
            fb->p32.len = fb->rows.len = fb->vals.len = fb->types.len = w;
            continue;
        }
        for (size_t i = 0; i < fb->rows.len; i++) {
            uint32_t r = fb->rows.v[i];
            if (drop[r]) continue;
            fb->rows.v[w] = r < r0 ? r : nidx[r - r0];
            fb->vals.v[w] = fb->vals.v[i];
            uint8_t t = fb->types.v[i];
            fb->types.v[w] = t;
            if (t == VT_INT) {
                int64_t iv = (int64_t)fb->vals.v[i];
                if (!(fb->tmask & (1u << VT_INT)) || iv < fb->imin) fb->imin = iv;
                if (!(fb->tmask & (1u << VT_INT)) || iv > fb->imax) fb->imax = iv;
            }
            fb->tmask |= (uint8_t)(1u << t);
            w++;
        }
        fb->rows.len = fb->vals.len = fb->types.len = w;
    }
    b->n = k;
    free(nidx);
}

