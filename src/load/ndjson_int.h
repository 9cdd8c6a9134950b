/*
 * ndjson_int.h — the NDJSON object parser's state (Nd), shared by
 * load_ndjson.c (the parser) and ndjson_keys.c (what a key means).
 */
#ifndef TNAV_NDJSON_INT_H
#define TNAV_NDJSON_INT_H

#include "load_int.h"

/* A key predicted to come next in an object (see parse_object): its bytes
 * in the input and its closing quote (n of them, 1..16) as two words
 * under masks, its key id, and the key id of the object (parent) for
 * which it was learned. n == 0: no prediction. */
typedef struct {
    uint64_t w0, w1, m0, m1;
    uint32_t kid, parent;
    uint32_t n;
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
    int prio[F__N];
    uint32_t holder[F__N]; /* key id holding each canonical field */
    uint64_t recno;
    uint32_t rkeys[64]; /* the record's first 64 keys, in its order (for missing_hint) */
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

#endif
