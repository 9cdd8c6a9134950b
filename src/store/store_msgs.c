/*
 * store_msgs.c — steps 8 and 9 of the build: messages and sync groups.
 *
 * Owns: pairing sends with receives (keys hashed, sorted by hash in cache-sized buckets,
 * paired within runs of equal hashes: by (id, destination) first, then first
 * in, first out per (source, destination, tag)), the message table and
 * ev_msg; sync groups (one per distinct group value: its type and payload,
 * a string id being exact since equal texts have equal ids), group_ev and
 * ev_group, each group's summary.
 * Both also after the build (store_finish_tail, when store_build was told
 * to defer them). The keys' bucket sorts and the pairing, and the message
 * table, are shared by two workers over ranges of buckets and of
 * communication events when there is work enough, in the build too, where
 * the activities' workers run beside them (once those are done, the
 * messages' take both cores); the groups' sorts and summaries likewise
 * over ranges of groups, after the build or, in it, from one of the
 * activities' workers.
 * Invariants: a send and a receive are paired only when their keys are
 * equal (never by hash alone); each side in time order; the pairs and the
 * groups do not depend on the number of workers; see store.h.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "store_build_int.h"
#include "base/par.h"
#include "base/timeparse.h"
#include "base/util.h"

/* ---- 8. messages ----------------------------------------------------------- */

/* One communication event waiting for its partner, with its matching key. */
typedef struct {
    uint64_t k1, k2, k3;
    uint32_t h; /* hash of the key */
    uint32_t i; /* index into the communication events */
} CKey;

static uint32_t ckey_hash(uint64_t a, uint64_t b, uint64_t c)
{
    return (uint32_t)(hash_u64(a * 0x9e3779b97f4a7c15ULL ^ hash_u64(b ^ (c * 0xc2b2ae3d27d4eb4fULL))) >> 32);
}

/* A key's hash carries its side in bit 0 (1: a send), so that pairing
 * reads no kind; keys are ordered by the other 31 bits, which equal keys
 * share. */
#define HSIDE(h) ((h) & 1u)

/* One pairing of keys: the keys, their order by hash (hv) in buckets
 * (cnt), and the mates it writes; shared by the workers of its sort and
 * its pairing. */
typedef struct {
    const CKey *keys;
    const Store *s;
    const uint32_t *ce;
    uint32_t *mate;
    uint64_t *hv;
    size_t *cnt;  /* nb + 1: bucket k is hv[cnt[k] .. cnt[k + 1]) */
    size_t nb, m;
    int sh;       /* bucket = (h >> 1) >> sh */
} HashPairs;

/* Where worker w of nw starts among n ranges whose starts are cnt[0..n)
 * (increasing, cnt[n] the total): the first range starting at or after
 * its share of the total; 0 for the first worker, n past the last, so
 * that the workers' [split(w), split(w + 1)) cover the ranges once. */
static size_t share_split(const size_t *cnt, size_t n, int w, int nw)
{
    if (w <= 0) return 0;
    if (w >= nw) return n;
    size_t at = cnt[n] * (size_t)w / (size_t)nw, lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cnt[mid] < at) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static void bucket_range(const HashPairs *P, int w, int nw, size_t *k0, size_t *k1)
{
    *k0 = share_split(P->cnt, P->nb, w, nw);
    *k1 = share_split(P->cnt, P->nb, w + 1, nw);
}

static void sort_buckets_worker(void *ctx, int w, int nw)
{
    HashPairs *P = ctx;
    size_t k0, k1;
    bucket_range(P, w, nw, &k0, &k1);
    size_t tcap = 0;
    uint64_t *tmp = NULL;
    size_t c8[257];
    for (size_t k = k0; k < k1; k++) {
        uint64_t *v = P->hv + P->cnt[k];
        size_t len = P->cnt[k + 1] - P->cnt[k];
        if (len < 2) continue;
        if (len <= 16) { /* insertion sort: values are distinct */
            for (size_t i = 1; i < len; i++) {
                uint64_t x = v[i];
                size_t j = i;
                while (j > 0 && v[j - 1] > x) {
                    v[j] = v[j - 1];
                    j--;
                }
                v[j] = x;
            }
            continue;
        }
        if (len > tcap) {
            tcap = len * 2;
            free(tmp);
            tmp = xmalloc(tcap * sizeof *tmp);
        }
        uint64_t *src = v, *dst = tmp;
        for (int lo = 32; lo < 32 + P->sh; lo += 8) {
            memset(c8, 0, sizeof c8);
            for (size_t i = 0; i < len; i++) c8[((src[i] >> lo) & 255) + 1]++;
            if (c8[((src[0] >> lo) & 255) + 1] == len) continue;
            for (int d = 0; d < 256; d++) c8[d + 1] += c8[d];
            /* (bits past the hash's rest are the bucket's: equal, no harm) */
            for (size_t i = 0; i < len; i++) dst[c8[(src[i] >> lo) & 255]++] = src[i];
            uint64_t *t = src;
            src = dst;
            dst = t;
        }
        if (src != v) memcpy(v, src, len * sizeof *v);
    }
    free(tmp);
}

/* The keys' order by hash, as hv[x] = (h >> 1) << 32 | j for key j (the
 * index breaks ties: keys of one hash stay in their order): one stable
 * scatter into buckets by the hash's top bits (a few thousand, whose write
 * positions stay in cache), then each bucket — about a thousand keys, in
 * cache — sorted by the rest of the bits (LSD radix, 8 bits a pass), the
 * buckets shared among nw workers. This moves the 8-byte entries instead
 * of the 32-byte keys, and less often than a sort of the whole array by
 * 16-bit digits, whose 65,536 write positions miss the cache. hv_bytes:
 * the size of hv's block (at least m entries). Fills P's hv, cnt, nb, sh. */
static void sort_by_hash(HashPairs *P, size_t hv_bytes, int nw)
{
    const CKey *keys = P->keys;
    size_t m = P->m;
    int bb = 0;
    while (bb < 16 && (m >> bb) > 1024) bb++;
    size_t nb = (size_t)1 << bb;
    int sh = 31 - bb; /* bucket = (h >> 1) >> sh */
    size_t *cnt = xcalloc(nb + 1, sizeof *cnt);
    for (size_t j = 0; j < m; j++) cnt[((keys[j].h >> 1) >> sh) + 1]++;
    for (size_t k = 0; k < nb; k++) cnt[k + 1] += cnt[k];
    uint64_t *hv = xmalloc_big(hv_bytes);
    size_t *pos = xmalloc((nb + 1) * sizeof *pos);
    memcpy(pos, cnt, (nb + 1) * sizeof *pos);
    for (size_t j = 0; j < m; j++) {
        uint32_t h = keys[j].h >> 1;
        hv[pos[h >> sh]++] = (uint64_t)h << 32 | j;
    }
    free(pos);
    P->hv = hv;
    P->cnt = cnt;
    P->nb = nb;
    P->sh = sh;
    par_run(nw, sort_buckets_worker, P);
}

/* The runs of equal hashes in worker w's buckets (a run never crosses a
 * bucket: its keys share every bit of the hash): each split into its
 * groups of equal keys, whose sends and receives are paired in time order.
 * Each key is in one run, so the workers write disjoint parts of mate. */
static void pair_worker(void *ctx, int w, int nw)
{
    HashPairs *P = ctx;
    const Store *s = P->s;
    const CKey *keys = P->keys;
    const uint64_t *hv = P->hv;
    const uint32_t *ce = P->ce;
    uint32_t *mate = P->mate;
    size_t k0, k1;
    bucket_range(P, w, nw, &k0, &k1);
    size_t m = P->cnt[k1];
#define KEY(x) (&keys[(uint32_t)hv[x]])
    VEC(uint32_t) S = {0}, R = {0};
    uint8_t *done = NULL;
    size_t dcap = 0;
    const size_t PF = 12; /* keys read ahead */
    for (size_t a = P->cnt[k0]; a < m;) {
        if (a + PF < m) __builtin_prefetch(KEY(a + PF));
        size_t b = a + 1;
        uint32_t ha = (uint32_t)(hv[a] >> 32);
        while (b < m && (uint32_t)(hv[b] >> 32) == ha) b++;
        const CKey *ka = KEY(a);
        if (b - a == 2) {
            const CKey *kb = KEY(a + 1);
            if (ka->k1 == kb->k1 && ka->k2 == kb->k2 && ka->k3 == kb->k3) {
                /* the common case: one send and its receive */
                uint32_t x = ka->i, y = kb->i;
                if (HSIDE(ka->h) != HSIDE(kb->h)) {
                    mate[x] = y;
                    mate[y] = x;
                }
                a = b;
                continue;
            }
        }
        /* a run of equal hashes: split it into groups of equal keys */
        if (b - a > dcap) {
            dcap = b - a;
            done = xrealloc(done, dcap);
        }
        memset(done, 0, b - a);
        for (size_t g = a; g < b; g++) {
            if (done[g - a]) continue;
            const CKey *kg = KEY(g);
            S.len = R.len = 0;
            for (size_t j = g; j < b; j++) {
                const CKey *kj = KEY(j);
                if (done[j - a] || kj->k1 != kg->k1 || kj->k2 != kg->k2 || kj->k3 != kg->k3) continue;
                done[j - a] = 1;
                uint32_t c = kj->i;
                if (HSIDE(kj->h)) VEC_PUSH(S, c);
                else VEC_PUSH(R, c);
            }
            /* each side in time order (communication indices follow event
             * numbers, which are in time order within one location) */
            for (int side = 0; side < 2; side++) {
                uint32_t *v = side ? R.v : S.v;
                size_t len = side ? R.len : S.len;
                for (size_t i = 1; i < len; i++) {
                    uint32_t x = v[i];
                    size_t j = i;
                    while (j > 0 && ev_before_raw(s->ts, s->dur, ce[x], ce[v[j - 1]])) {
                        v[j] = v[j - 1];
                        j--;
                    }
                    v[j] = x;
                }
            }
            size_t np = S.len < R.len ? S.len : R.len;
            for (size_t i = 0; i < np; i++) {
                mate[S.v[i]] = R.v[i];
                mate[R.v[i]] = S.v[i];
            }
        }
        a = b;
    }
#undef KEY
    VEC_FREE(S);
    VEC_FREE(R);
    free(done);
}

/* Pair the sends and receives that share a key, each side in time order,
 * on nw workers when there are keys enough (the pairs do not depend on
 * nw). ce maps a communication index to its event. */
static void pair_by_key(const Store *s, const uint32_t *ce, const CKey *keys, size_t m, size_t nc, uint32_t *mate, int nw)
{
    /* (sized as ev_msg will be when most events have keys: ev_msg takes
     * the block back from the recycler, its pages touched already) */
    size_t hv_bytes = (2 * m >= nc + 1 ? nc + 1 : (m ? m : 1)) * sizeof(uint64_t);
    if (m < 16384) nw = 1; /* (a thread costs more than a small sort) */
    HashPairs P = {.keys = keys, .s = s, .ce = ce, .mate = mate, .m = m};
    sort_by_hash(&P, hv_bytes, nw);
    par_run(nw, pair_worker, &P);
    xfree_big(P.hv, hv_bytes);
    free(P.cnt);
}

_Static_assert(K_SEND == 1 && K_RECV == 2 && K_MSG == 3, "count_comm counts kinds 1 to 3");

/* Kinds 1 to 3 (send, recv, msg) among four 16-bit kinds in a 64-bit
 * word, tested without a branch: the high bit of each such lane (they have
 * no bit above the lowest two set, and one of those two set). */
#define LO15 0x7FFF7FFF7FFF7FFFULL
#define HI16 0x8000800080008000ULL
#define ZERO_LANES(x) (~((((x) & LO15) + LO15) | (x)) & HI16)
static inline uint64_t comm_lanes(const uint16_t *k)
{
    uint64_t w;
    memcpy(&w, k, 8);
    return ZERO_LANES(w & 0xFFFCFFFCFFFCFFFCULL) & ~ZERO_LANES(w & 0x0003000300030003ULL);
}
#undef ZERO_LANES
#undef HI16
#undef LO15

/* The number of send, recv and msg kinds in k[0..n). */
static size_t count_comm(const uint16_t *k, size_t n)
{
    size_t c = 0, e = 0;
    for (; e + 4 <= n; e += 4) c += popcount64(comm_lanes(k + e));
    for (; e < n; e++) c += (uint16_t)(k[e] - K_SEND) <= K_MSG - K_SEND;
    return c;
}

/* Their event numbers, in order, into v (nc of them: count_comm's). */
static void list_comm(const uint16_t *k, size_t n, uint32_t *v, size_t nc)
{
    size_t o = 0, e = 0;
    for (; e + 4 <= n && o < nc; e += 4)
        for (uint64_t h = comm_lanes(k + e); h; h &= h - 1) v[o++] = (uint32_t)(e + ((unsigned)__builtin_ctzll(h) >> 4));
    for (; e < n && o < nc; e++)
        if ((uint16_t)(k[e] - K_SEND) <= K_MSG - K_SEND) v[o++] = (uint32_t)e;
}

static bool cur_key(ColCur *cc, size_t e, uint64_t *type, uint64_t *payload)
{
    size_t k;
    if (!colcur_slot(cc, e, &k)) return false;
    const Column *c = cc->c;
    *type = col_slot_value(c, k, payload);
    return true;
}

static bool cur_loc(ColCur *cc, size_t e, uint32_t *out)
{
    size_t k;
    if (!colcur_slot(cc, e, &k)) return false;
    *out = col_sid_at(cc->c, k);
    return true;
}

/* The message table's passes over worker w's range [cut[w], cut[w + 1]) of
 * the communication events: 0 counts the messages it makes (nm: a send,
 * a msg, an unmatched receive that names its source) and its ev_msg
 * entries (ne: those and the matched receives, whose message comes with
 * their send); 1 writes its messages from mbase[w] and msg_of (a matched
 * receive's by its send, in whichever range: each is written once); 2
 * writes its ev_msg entries from ebase[w]. */
typedef struct {
    const Store *s;
    const uint32_t *ce, *mate, *peer_of;
    uint32_t *msg_of;
    Message *msgs;
    EvIdx *em;
    size_t cut[3], nm[2], ne[2], mbase[2], ebase[2];
    uint64_t us[2], ur[2];
    int pass;
} MsgTable;

static void msg_table_worker(void *ctx, int w, int nw)
{
    (void)nw;
    MsgTable *T = ctx;
    const Store *s = T->s;
    const uint32_t *ce = T->ce, *mate = T->mate, *peer_of = T->peer_of;
    uint32_t *msg_of = T->msg_of;
    size_t i0 = T->cut[w], i1 = T->cut[w + 1];
    if (T->pass == 0) {
        size_t nm = 0, nrm = 0;
        for (size_t i = i0; i < i1; i++) {
            uint16_t k = s->kind[ce[i]];
            bool recv = k == K_RECV;
            nm += !recv || (mate[i] == NONE32 && peer_of[i] != NONE32);
            nrm += recv && mate[i] != NONE32;
        }
        T->nm[w] = nm;
        T->ne[w] = nm + nrm;
        return;
    }
    if (T->pass == 2) {
        EvIdx *em = T->em + T->ebase[w];
        for (size_t i = i0; i < i1; i++)
            if (msg_of[i] != NONE32) *em++ = (EvIdx){ce[i], msg_of[i]};
        return;
    }
    Message *msgs = T->msgs;
    uint32_t at = (uint32_t)T->mbase[w];
    uint64_t us = 0, ur = 0;
    const size_t PF = 16; /* (a send's receive: read and written ahead) */
    for (size_t i = i0; i < i1; i++) {
        if (i + PF < i1 && mate[i + PF] != NONE32) {
            __builtin_prefetch(&ce[mate[i + PF]]);
            __builtin_prefetch(&msg_of[mate[i + PF]], 1);
        }
        uint32_t e = ce[i];
        uint16_t k = s->kind[e];
        Message m;
        if (k == K_SEND) {
            uint32_t r = mate[i];
            uint32_t re = r != NONE32 ? ce[r] : NONE32;
            m.send_ev = e;
            m.recv_ev = re;
            m.src = s->loc[e];
            m.dst = peer_of[i] != NONE32 ? peer_of[i] : (re != NONE32 ? s->loc[re] : NONE32);
            if (r == NONE32) us++;
            else msg_of[r] = at;
        } else if (k == K_MSG) {
            m.send_ev = m.recv_ev = e;
            m.src = s->loc[e];
            m.dst = peer_of[i];
        } else if (mate[i] == NONE32) {
            ur++;
            if (peer_of[i] == NONE32) {
                msg_of[i] = NONE32;
                continue;
            }
            m.send_ev = NONE32;
            m.recv_ev = e;
            m.src = peer_of[i];
            m.dst = s->loc[e];
        } else {
            continue; /* a matched receive: its message comes with the send */
        }
        msg_of[i] = at;
        msgs[at++] = m;
    }
    T->us[w] = us;
    T->ur[w] = ur;
}

void build_messages(Store *s, int threads)
{
    int nw = threads > 1 ? 2 : 1;
    size_t n = s->n;
    const Column *peer = store_canon_col(s, F_PEER), *idc = store_canon_col(s, F_ID),
                 *tagc = store_canon_col(s, F_TAG);
    /* the communication events, in event order (counted first: every
     * array below is sized once, a big block when big) */
    size_t nc = count_comm(s->kind, n);
    VEC(uint32_t) ce = {xmalloc_big((nc + 1) * sizeof(uint32_t)), 0, nc + 1};
    list_comm(s->kind, n, ce.v, nc);
    ce.len = nc;
    uint32_t *mate = xmalloc_big((nc + 1) * sizeof(uint32_t));
    uint32_t *peer_of = xmalloc_big((nc + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < nc; i++) mate[i] = NONE32;
    VEC(CKey) ks = {xmalloc_big((nc + 1) * sizeof(CKey)), 0, nc + 1};
    /* 1. by id: key (id, destination) */
    {
        ColCur cp = {peer, 0}, ci = {idc, 0};
        for (size_t i = 0; i < nc; i++) {
            uint32_t e = ce.v[i];
            uint16_t k = s->kind[e];
            uint32_t p;
            peer_of[i] = cur_loc(&cp, e, &p) ? p : NONE32;
            if (k == K_MSG) continue;
            uint64_t t, v;
            if (!cur_key(&ci, e, &t, &v)) continue;
            uint32_t dst = k == K_SEND ? peer_of[i] : s->loc[e];
            if (dst == NONE32) continue;
            CKey x = {t, v, dst, (ckey_hash(t, v, dst) & ~1u) | (k == K_SEND), (uint32_t)i};
            VEC_PUSH(ks, x);
        }
    }
    pair_by_key(s, ce.v, ks.v, ks.len, nc, mate, nw);
    /* 2. the rest: first in, first out per (source, destination, tag) */
    ks.len = 0;
    {
        ColCur ct = {tagc, 0};
        for (size_t i = 0; i < nc; i++) {
            uint32_t e = ce.v[i];
            uint16_t k = s->kind[e];
            if (k == K_MSG || mate[i] != NONE32 || peer_of[i] == NONE32) continue;
            uint32_t src = k == K_SEND ? s->loc[e] : peer_of[i], dst = k == K_SEND ? peer_of[i] : s->loc[e];
            uint64_t t = 0, v = 0;
            cur_key(&ct, e, &t, &v);
            uint64_t sd = ((uint64_t)src << 32) | dst;
            CKey x = {sd, t, v, (ckey_hash(sd, t, v) & ~1u) | (k == K_SEND), (uint32_t)i};
            VEC_PUSH(ks, x);
        }
    }
    pair_by_key(s, ce.v, ks.v, ks.len, nc, mate, nw);
    /* (back to the recycler: the messages take its pages, touched already) */
    xfree_big(ks.v, (nc + 1) * sizeof(CKey));
    /* 3. messages, in the order of the event that makes them, and ev_msg
     * (on two workers over halves of the communication events when there
     * are enough: each half's messages and entries counted first) */
    Message *msgs = xmalloc_big((nc + 1) * sizeof(Message));
    uint32_t *msg_of = xmalloc_big((nc + 1) * sizeof(uint32_t));
    EvIdx *em = xmalloc_big((nc + 1) * sizeof(EvIdx));
    MsgTable T = {.s = s, .ce = ce.v, .mate = mate, .peer_of = peer_of, .msg_of = msg_of, .msgs = msgs, .em = em};
    int tw = nw > 1 && nc >= 65536 ? 2 : 1;
    for (int w = 0; w <= tw; w++) T.cut[w] = nc * (size_t)w / (size_t)tw;
    T.pass = 0;
    par_run(tw, msg_table_worker, &T);
    size_t nm = 0, ne = 0;
    for (int w = 0; w < tw; w++) {
        T.mbase[w] = nm;
        T.ebase[w] = ne;
        nm += T.nm[w];
        ne += T.ne[w];
    }
    T.pass = 1;
    par_run(tw, msg_table_worker, &T);
    T.pass = 2; /* (every msg_of written: a matched receive's by its send) */
    par_run(tw, msg_table_worker, &T);
    for (int w = 0; w < tw; w++) {
        s->unmatched_send += T.us[w];
        s->unmatched_recv += T.ur[w];
    }
    /* (sized for every communication event: the pages past the messages,
     * which a recycled block may hold, go back) */
    mem_release(msgs + nm, (nc + 1 - nm) * sizeof(Message));
    s->msgs = msgs;
    s->nmsg = (uint32_t)nm;
    mem_release(em + ne, (nc + 1 - ne) * sizeof(EvIdx));
    s->ev_msg = em;
    s->nev_msg = (uint32_t)ne;
    free(msg_of);
    free(mate);
    free(peer_of);
    VEC_FREE(ce);
}

/* ---- 9. sync groups ---------------------------------------------------- */

typedef struct {
    Store *s;
    const KeyMap *km;
    const size_t *cnt; /* ng + 1: group g's events group_ev[cnt[g] .. cnt[g + 1]) */
    uint32_t ng;
} GroupCtx;

/* each group of worker w's range: its key, its events sorted by time, its
 * summary (a worker's own marks: groups write only their own record) */
static void group_worker(void *ctx, int w, int nw)
{
    GroupCtx *c = ctx;
    Store *s = c->s;
    size_t g0 = share_split(c->cnt, c->ng, w, nw), g1 = share_split(c->cnt, c->ng, w + 1, nw);
    if (g0 >= g1) return;
    uint32_t *mark_act = xmalloc(((size_t)s->nact + 1) * sizeof(uint32_t));
    uint32_t *mark_loc = xmalloc(((size_t)s->nloc + 1) * sizeof(uint32_t));
    for (uint32_t a = 0; a < s->nact; a++) mark_act[a] = NONE32;
    for (uint32_t l = 0; l < s->nloc; l++) mark_loc[l] = NONE32;
    uint32_t *tmp = NULL;
    size_t tcap = 0;
    for (size_t g = g0; g < g1; g++) {
        SyncGroup *G = &s->groups[g];
        const uint64_t *k = &c->km->k[(size_t)g * 3];
        G->type = (uint8_t)k[0];
        if (G->type == VT_STR) G->sid = (uint32_t)k[1];
        else G->ival = (int64_t)k[1];
        G->ev_off = (uint32_t)c->cnt[g];
        G->nev = (uint32_t)(c->cnt[g + 1] - c->cnt[g]);
        uint32_t *v = s->group_ev + G->ev_off;
        if (!events_sorted(v, G->nev, s->ts, s->dur)) {
            if (G->nev > tcap) {
                tcap = G->nev;
                tmp = xrealloc(tmp, tcap * sizeof *tmp);
            }
            sort_events(v, tmp, G->nev, s->ts, s->dur);
        }
        group_summarize(s, G, NULL, (uint32_t)g, mark_act, mark_loc, G);
    }
    free(tmp);
    free(mark_act);
    free(mark_loc);
}

void build_groups(Store *s, int threads)
{
    const Column *gc = store_canon_col(s, F_GROUP);
    if (!gc) return;
    KeyMap km;
    km_init(&km);
    VEC(EvIdx) eg = {0};
    size_t total = gc->sparse ? gc->npresent : s->n;
    for (size_t i = 0; i < total; i++) {
        size_t e = gc->sparse ? gc->rows[i] : i;
        if (!gc->sparse && gc->bits && !((gc->bits[e >> 6] >> (e & 63)) & 1)) continue;
        uint64_t p;
        uint64_t t = col_slot_value(gc, i, &p);
        EvIdx x = {(uint32_t)e, km_get(&km, t, p, 0, true, NULL)};
        VEC_PUSH(eg, x);
    }
    uint32_t ng = km.n;
    s->ngroups = ng;
    s->groups = xcalloc((size_t)ng + 1, sizeof(SyncGroup));
    s->ev_group = eg.v;
    s->nev_group = (uint32_t)eg.len;
    size_t *cnt = xcalloc((size_t)ng + 2, sizeof(size_t));
    for (size_t i = 0; i < eg.len; i++) cnt[eg.v[i].idx + 1]++;
    for (uint32_t g = 0; g < ng; g++) cnt[g + 1] += cnt[g];
    s->group_ev = xmalloc((eg.len ? eg.len : 1) * sizeof(uint32_t));
    size_t *pos = xmalloc(((size_t)ng + 1) * sizeof(size_t));
    memcpy(pos, cnt, ((size_t)ng + 1) * sizeof(size_t));
    for (size_t i = 0; i < eg.len; i++) s->group_ev[pos[eg.v[i].idx]++] = eg.v[i].ev;
    free(pos);
    /* (the groups' sorts and summaries on two workers when there are
     * events enough: a thread costs more than a few thousand) */
    GroupCtx c = {s, &km, cnt, ng};
    par_run(threads > 1 && eg.len >= 4096 && ng > 1 ? 2 : 1, group_worker, &c);
    free(cnt);
    km_free(&km);
}

/* ---- 8 and 9 after the build (store_build's defer_tail) ---------------- */

static void finish_tail_worker(void *ctx, int w, int nw)
{
    Store *s = ctx;
    if (w == 0) build_messages(s, nw);
    if (w == 1 || nw < 2) build_groups(s, nw);
}

void store_finish_tail(Store *s, int threads)
{
    if (!s || !s->tail_pending) return;
    double t0 = now_sec();
    /* (messages and groups read the columns only, and write their own
     * tables: one on each thread, as in the build) */
    if (threads <= 0) threads = cpu_count();
    par_run(threads > 1 ? 2 : 1, finish_tail_worker, s);
    s->tail_pending = false;
    timing_note("messages and sync groups (deferred) %.3f s", now_sec() - t0);
}
