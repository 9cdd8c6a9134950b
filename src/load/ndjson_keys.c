/*
 * ndjson_keys.c — what an NDJSON (or Chrome) key means: its canonical
 * field, Chrome code or extra-field id, resolved once per distinct key
 * (nd_key_info, nd_key_xid), the key id of a key read (nd_key_id) and the
 * prediction of the next key (nd_pred_set), what a value does to the
 * record by its key (nd_assign, nd_put_other: the cases parse_object's
 * inline put leaves), and the hint a record missing ts or loc gets from
 * the keys it has (nd_missing_hint).
 * Invariants: a key id's meaning never changes within a parse; an extra
 * field never takes a canonical field's name (it gets a #2 suffix).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ndjson_int.h"

/* Chrome Trace Event keys: a canonical field, a CK_* code (as -10 - code)
 * or -1 (an extra field, "args.x" and the rest) */
static int chrome_key(const char *k, size_t n, uint32_t *also_extra)
{
    static const struct { const char *k; int f; bool extra; } T[] = {
        {"ts", F_TS, 0},         {"dur", F_DUR, 0},           {"pid", F_LOC, 0},          {"tid", F_ACT, 0},
        {"name", F_NAME, 0},     {"id", F_ID, 0},             {"ph", -10 - CK_PH, 0},     {"cat", -10 - CK_CAT, 1},
        {"s", -10 - CK_S, 0},    {"bp", -10 - CK_BP, 0},      {"id2.local", -10 - CK_ID2L, 0},
        {"id2.global", -10 - CK_ID2G, 0}, {"scope", -10 - CK_SCOPE, 0}, {"tdur", -10 - CK_TDUR, 1},
        {"bind_id", -10 - CK_BIND, 0}, {"flow_in", -10 - CK_FIN, 0}, {"flow_out", -10 - CK_FOUT, 0},
        {"args.name", -10 - CK_ARGNAME, 1},   {"args.sort_index", -10 - CK_SORTIDX, 1},
    };
    *also_extra = 0;
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        if (strlen(T[i].k) == n && !memcmp(T[i].k, k, n)) {
            *also_extra = T[i].extra;
            return T[i].f;
        }
    return -1;
}

KeyInfo *nd_key_info(Nd *nd, const char *name, size_t n, uint32_t *kid_out)
{
    uint32_t kid = strtab_intern(&nd->keys, name, n);
    if (kid >= nd->kicap) {
        size_t nc = nd->kicap ? nd->kicap * 2 : 64;
        while (nc <= kid) nc *= 2;
        nd->ki = xrealloc(nd->ki, nc * sizeof(KeyInfo));
        memset(nd->ki + nd->kicap, 0, (nc - nd->kicap) * sizeof(KeyInfo));
        for (size_t i = nd->kicap; i < nc; i++) nd->ki[i].field = -2;
        nd->kicap = nc;
    }
    KeyInfo *k = &nd->ki[kid];
    if (k->field == -2 && nd->mode == ND_MODE_CHROME_TNAV) {
        /* tnav's own Chrome output: cat is the kind, args.F the field F */
        k->also = 0;
        k->prio = 0;
        k->has_xid = false;
        k->seen = 0;
        if (n == 3 && !memcmp(name, "cat", 3)) k->field = F_KIND;
        else if (n == 11 && !memcmp(name, "tnav_noname", 11)) k->field = -10 - CK_NONAME;
        else if (n == 9 && !memcmp(name, "args.name", 9)) k->field = -10 - CK_ARGNAME; /* (metadata's) */
        else if (n == 15 && !memcmp(name, "args.sort_index", 15)) k->field = -10 - CK_SORTIDX;
        else if ((n > 5 && !memcmp(name, "args.", 5)) || (n > 10 && !memcmp(name, "tnav_args.", 10))) {
            size_t pl = name[0] == 'a' ? 5 : 10;
            char tmp[64];
            int f = -1;
            if (n - pl < sizeof tmp) {
                memcpy(tmp, name + pl, n - pl);
                tmp[n - pl] = 0;
                f = field_by_name(tmp);
            }
            k->field = f >= F_FIRST_OPT ? f : -1;
        } else {
            uint32_t ax;
            k->field = chrome_key(name, n, &ax);
            if (k->field == -10 - CK_CAT) k->field = F_KIND;
        }
    } else if (k->field == -2 && nd->mode == ND_MODE_CHROME) {
        uint32_t ax;
        k->field = chrome_key(name, n, &ax);
        k->also = ax; /* (for a Chrome key: also kept as an extra field) */
        k->prio = 0;
        k->has_xid = false;
        k->seen = 0;
    } else if (k->field == -2) {
        int prio = 0;
        k->field = resolve_column(nd->o, name, n, &prio);
        k->also = k->field >= 0 ? map_also(nd->o, name, n, k->field) : 0;
        k->prio = prio;
        k->has_xid = false;
        k->seen = 0;
    }
    k->fast = nd->mode == ND_MODE_NDJSON && k->field >= 0 && !k->also;
    k->xfast = nd->mode == ND_MODE_NDJSON && k->field == -1;
    *kid_out = kid;
    return k;
}

uint32_t nd_key_xid(Nd *nd, uint32_t kid)
{
    KeyInfo *k = &nd->ki[kid];
    if (!k->has_xid) {
        const char *nm = strtab_str(&nd->keys, kid);
        size_t n = strtab_len(&nd->keys, kid);
        if (nd->mode == ND_MODE_CHROME_TNAV && n > 5 && !memcmp(nm, "args.", 5)) {
            /* (tnav's own output: an extra field under its own name) */
            nm += 5;
            n -= 5;
        } else if (nd->mode == ND_MODE_CHROME_TNAV && n > 10 && !memcmp(nm, "tnav_args.", 10)) {
            nm += 10;
            n -= 10;
        }
        /* an extra field may not take a canonical name: give it a suffix */
        if (field_by_name(nm) >= 0) {
            char *alt = xasprintf("%s#2", nm);
            k->xid = batch_extra_id(nd->b, alt, strlen(alt));
            free(alt);
        } else {
            k->xid = batch_extra_id(nd->b, nm, n);
        }
        k->has_xid = true;
    }
    return k->xid;
}

/* A record without ts or loc: what it has instead, as CSV says of its
 * header ("missing ts (--map ts=Time names no key of it; its keys are
 * 'timestmp', 'loc'; did you mean 'timestmp'?)"), into why. The keys are
 * this record assigned, in its order (rkeys, which load_ndjson.c's
 * walk_keys fills), nested ones flattened. Built only for a rejection
 * whose reason is kept (batch_reject_shown). */
bool nd_missing_hint(Nd *nd, char *why, size_t cap)
{
    int f = !strcmp(why, "missing ts") ? F_TS : !strcmp(why, "missing loc") ? F_LOC : -1;
    if (f < 0) return false;
    /* (a key for it that is null or empty: the plain reason says it) */
    for (size_t i = 0; i < nd->nrkeys; i++) {
        const KeyInfo *k = &nd->ki[nd->rkeys[i]];
        if (k->field == f || (k->also >> f & 1)) return false;
    }
    VEC(char *) names = {0};
    for (size_t i = 0; i < nd->nrkeys; i++) {
        uint32_t kid = nd->rkeys[i];
        char *n = xmalloc(strtab_len(&nd->keys, kid) + 1);
        memcpy(n, strtab_str(&nd->keys, kid), strtab_len(&nd->keys, kid));
        n[strtab_len(&nd->keys, kid)] = 0;
        VEC_PUSH(names, n);
    }
    const char *m = nd->o->map[f];
    char *hint = columns_hint(names.v, (int)names.len, m ? (const char *const[]){m, NULL} : f == F_TS ? TS_ALIASES : LOC_ALIASES,
                              "keys");
    if (m) snprintf(why, cap, "missing %s (--map %s=%s names no key of it; %s)", FIELD_NAMES[f], FIELD_NAMES[f], m, hint);
    else snprintf(why, cap, "missing %s (no key '%s' nor an alias, --map %s=KEY names one; %s)", FIELD_NAMES[f], FIELD_NAMES[f],
                  FIELD_NAMES[f], hint);
    free(hint);
    for (size_t i = 0; i < names.len; i++) free(names.v[i]);
    VEC_FREE(names);
    return true;
}

/* The key id of the key [ks, ks+kn) of an object whose own key is parent
 * (its flattened prefix is kbuf[0..plen)). */
uint32_t nd_key_id(Nd *nd, uint32_t parent, size_t plen, const char *ks, size_t kn)
{
    KeySlot *sl = NULL;
    uint64_t w[2];
    if (kn > 0 && kn <= 16) {
        strtab_prefix_words(ks, kn, w);
        uint64_t h = (w[0] * 0x9e3779b97f4a7c15ULL) ^ (w[1] * 0xc2b2ae3d27d4eb4fULL) ^ ((uint64_t)parent << 20) ^ kn;
        h ^= h >> 29;
        sl = &nd->slots[(h * 0xbf58476d1ce4e5b9ULL) >> (64 - 9)];
        if (sl->kn == kn && sl->w0 == w[0] && sl->w1 == w[1] && sl->parent == parent) return sl->kid;
    }
    if (plen + kn + 2 > nd->kcap) {
        size_t nc = nd->kcap ? nd->kcap : 256;
        while (nc < plen + kn + 2) nc *= 2;
        nd->kbuf = xrealloc(nd->kbuf, nc);
        nd->kcap = nc;
    }
    memcpy(nd->kbuf + plen, ks, kn);
    uint32_t kid;
    nd_key_info(nd, nd->kbuf, plen + kn, &kid);
    if (sl) {
        sl->w0 = w[0];
        sl->w1 = w[1];
        sl->parent = parent;
        sl->kid = kid;
        sl->kn = (uint32_t)kn;
    }
    return kid;
}

void nd_pred_set(KeyPred *kp, uint32_t parent, const char *t, size_t n, size_t q, uint32_t kid)
{
    kp->n = 0;
    if (n > 16 || q >= n) return;
    /* the key's bytes, between its quotes: none may need decoding */
    for (size_t i = q + 1; i < n && t[i] != '"'; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == '\\' || c < 0x20) return;
    }
    char b[16] = {0}, m[16] = {0};
    memcpy(b, t, n);
    memset(m, 0xFF, n);
    kp->w0 = ld8(b);
    kp->w1 = ld8(b + 8);
    kp->m0 = ld8(m);
    kp->m1 = ld8(m + 8);
    kp->kid = kid;
    kp->parent = parent;
    kp->n = (uint32_t)n;
    kp->q = (uint32_t)q;
}

bool nd_dup_key(Nd *nd, uint32_t kid, const char *at)
{
    char ex[80];
    quote_excerpt(ex, sizeof ex, strtab_str(&nd->keys, kid), strtab_len(&nd->keys, kid), 40);
    snprintf(nd->err, sizeof nd->err, "duplicate key %s at column %zu", ex, (size_t)(at - nd->line0) + 1);
    return false;
}

bool nd_assign(Nd *nd, uint32_t kid, const char *vp, size_t vn, uint8_t vt, const char *at)
{
    KeyInfo *k = &nd->ki[kid];
    if (k->seen == nd->recno) {
        char ex[80];
        quote_excerpt(ex, sizeof ex, strtab_str(&nd->keys, kid), strtab_len(&nd->keys, kid), 40);
        snprintf(nd->err, sizeof nd->err, "duplicate key %s at column %zu", ex, (size_t)(at - nd->line0) + 1);
        return false;
    }
    k->seen = nd->recno;
    Rec *r = &nd->rec;
    int f = k->field;
    if (f <= -10) {
        int c = -10 - f;
        nd->cx[c].p = vp;
        nd->cx[c].n = (uint32_t)vn;
        nd->cx[c].t = vt;
        nd->cxhas |= 1u << c;
        if (k->also) rec_add_extra(r, nd_key_xid(nd, kid), vp, vn, vt);
        return true;
    }
    if (f >= 0 && nd->mode != ND_MODE_NDJSON) {
        rec_set(r, f, vp, vn, vt);
        return true;
    }
    if (f >= 0) {
        if (r->has & (1u << f)) {
            int held = nd->also_held & (1u << f) ? -1 : nd->ki[nd->holder[f]].prio;
            if (k->prio < held) {
                /* the stronger name takes the field; the weaker becomes an extra */
                uint32_t old = nd->holder[f];
                rec_add_extra(r, nd_key_xid(nd, old), r->f[f].p, r->f[f].n, r->f[f].t);
                rec_set(r, f, vp, vn, vt);
                nd->also_held &= ~(1u << f);
                nd->holder[f] = kid;
            } else {
                rec_add_extra(r, nd_key_xid(nd, kid), vp, vn, vt);
            }
        } else {
            rec_set(r, f, vp, vn, vt);
            nd->also_held &= ~(1u << f);
            nd->holder[f] = kid;
        }
    } else {
        rec_add_extra(r, nd_key_xid(nd, kid), vp, vn, vt);
    }
    for (uint32_t m = k->also; m; m &= m - 1) {
        /* (--map names this key for other fields too) */
        int f2 = __builtin_ctz(m);
        rec_set(r, f2, vp, vn, vt);
        nd->also_held |= 1u << f2;
        nd->holder[f2] = kid;
    }
    return true;
}

bool nd_put_other(Nd *nd, uint32_t kid, const char *vp, size_t vn, uint8_t vt, bool isint, int64_t iv, const char *at)
{
    KeyInfo *k = &nd->ki[kid];
    if (k->xfast && k->seen != nd->recno) {
        k->seen = nd->recno;
        if (isint) rec_add_extra_int(&nd->rec, nd_key_xid(nd, kid), vp, vn, iv);
        else rec_add_extra(&nd->rec, nd_key_xid(nd, kid), vp, vn, vt);
        return true;
    }
    return nd_assign(nd, kid, vp, vn, vt, at);
}
