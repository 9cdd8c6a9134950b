/*
 * ndjson_int.h — the NDJSON object parser's state (Nd), shared by
 * load_ndjson.c (the parser) and ndjson_keys.c (what a key means).
 */
#ifndef TNAV_NDJSON_INT_H
#define TNAV_NDJSON_INT_H

#include "load_int.h"

/* A key predicted to come next in an object (see parse_object): the bytes
 * from the end of the value before it (or from the object's '{') to the
 * start of its own value -- separator, key, colon and the spaces between,
 * such as `,"dur":` -- (n of them, 1..16) as two words under masks; its
 * opening quote at offset q; its key id, and the key id of the object
 * (parent) for which it was learned. n == 0: no prediction. */
typedef struct {
    uint64_t w0, w1, m0, m1;
    uint32_t kid, parent;
    uint32_t n, q;
} KeyPred;

typedef struct {
    int field; /* canonical field or -1 */
    uint32_t also; /* further canonical fields --map takes from this key */
    int prio;
    uint32_t xid;
    bool has_xid;
    uint64_t seen; /* record number that last used this key */
    bool fast; /* NDJSON, a canonical field and no --map also: assigned by parse_object itself */
    bool xfast; /* NDJSON, an extra field: likewise */
    KeyPred next[2]; /* the keys that followed it in its object, latest first */
    KeyPred first;   /* the first key of an object that is its value */
} KeyInfo;

/* Records repeat the same keys: a direct-mapped cache from (enclosing key,
 * key bytes) to key id answers most lookups without interning. */
#define KCACHE 512
typedef struct {
    uint64_t w0, w1;  /* the key's bytes (up to 16) as two words */
    uint32_t parent;  /* key id of the enclosing object's key, NONE32 at the top */
    uint32_t kid;
    uint32_t kn;      /* 0 = empty slot */
} KeySlot;

struct Nd {
    Batch *b;
    const LoadOpts *o;
    StrTab keys;
    KeySlot slots[KCACHE];
    KeyInfo *ki;
    size_t kicap;
    char *sbuf;
    size_t scap, slen;
    char *kbuf;
    size_t kcap;
    Rec rec;
    uint32_t holder[F__N]; /* key id holding each canonical field (in Rec.has) */
    uint32_t also_held; /* fields held through --map's "also" (their priority
                           is then -1, else their holder's KeyInfo.prio);
                           cleared per record */
    uint64_t recno;
    uint32_t rkeys[64]; /* the record's first 64 leaf keys, in its order (for missing_hint; walk_keys) */
    uint32_t nrkeys;
    const char *line0;
    char err[160];
    int mode; /* ND_MODE_* */
    Val cx[CK__N]; /* Chrome's own keys (mode chrome) */
    uint32_t cxhas;
    KeyPred top_first; /* the first key of a record */
};

/* The key id of the flattened key name[0..n), with what it means
 * (canonical field, Chrome key, --map) resolved at its first use. */
KeyInfo *nd_key_info(Nd *nd, const char *name, size_t n, uint32_t *kid_out);
/* A key's local extra-field id (created at its first use as an extra). */
uint32_t nd_key_xid(Nd *nd, uint32_t kid);
/* For a record rejected for a missing ts or loc (the reason in why): the
 * reason with what the record has instead; false when no hint applies. */
bool nd_missing_hint(Nd *nd, char *why, size_t cap);

/* The key id of a key read (see load_ndjson.c's parse_object) */
uint32_t nd_key_id(Nd *nd, uint32_t parent, size_t plen, const char *ks, size_t kn);
/* Learn kid (a key of an object whose key is parent) as the prediction kp
 * from its token t[0..n), its opening quote at t[q] (none when the key's
 * text is not its input bytes or the token is longer than 16 bytes) */
void nd_pred_set(KeyPred *kp, uint32_t parent, const char *t, size_t n, size_t q, uint32_t kid);
/* A value of key kid: into the record (false: the reason in nd->err) */
bool nd_assign(Nd *nd, uint32_t kid, const char *vp, size_t vn, uint8_t vt, const char *at);
/* nd_assign of an extra field (NDJSON) inline, or nd_assign; isint: the
 * value is 1 to 15 digits of value iv */
bool nd_put_other(Nd *nd, uint32_t kid, const char *vp, size_t vn, uint8_t vt, bool isint, int64_t iv, const char *at);
/* The duplicate-key rejection of kid (false) */
bool nd_dup_key(Nd *nd, uint32_t kid, const char *at);

/* Key prediction. The records of a file repeat their keys in one order
 * (with a few optional ones), so the key after key K (or the first key of
 * an object) is most often one of the two that followed it before: the
 * bytes of its token (`,"dur":`, `, "dur": ` -- the separator, the key
 * and the colon as they were written) are compared with the input's in
 * two word loads, which stands for scanning the separator and colon,
 * parsing the key string and looking it up (nd_key_id). Only a key whose
 * bytes hold no quote, backslash or control character is predicted (its
 * text in the input is then its decoded text), with a token of at most 16
 * bytes. A prediction is also keyed by the object it was learned in
 * (parent): a key id names a flattened name, which a nested key "b" of
 * "a" and a top-level key "a.b" share. */
static inline bool pred_match(const KeyPred *kp, uint32_t parent, const char *t, const char *e)
{
    /* (t + 16 is readable: the reader's window has slack past e) */
    /* (n - 1 < e - t: n is not 0, and n bytes are left before e) */
    return (uint64_t)kp->n - 1 < (uint64_t)(e - t) && kp->parent == parent && (ld8(t) & kp->m0) == kp->w0 &&
           (ld8(t + 8) & kp->m1) == kp->w1;
}

/* the predictions for the key after prev (NONE32: the object's first key) */
static inline KeyPred *preds_after(Nd *nd, uint32_t prev, uint32_t parent)
{
    if (prev != NONE32) return nd->ki[prev].next;
    return parent == NONE32 ? &nd->top_first : &nd->ki[parent].first;
}

#endif
