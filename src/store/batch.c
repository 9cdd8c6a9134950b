/*
 * batch.c — conversion of parsed records into a batch's columns; the rules
 * that reject a malformed record live here, shared by every input format
 * (how a rejection is counted and kept: batch_reject.c; the field buffers
 * its values go to: batch_fields.c; the labels and pairs its caches miss:
 * batch_pairs.c; the rows' storage: batch_rows.c). See batch.h for
 * what a batch owns and its invariants.
 */
#include "batch.h"

#include <strings.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/timeparse.h"

void batch_init(Batch *b, int unit_exp, bool keep_all_rejects)
{
    memset(b, 0, sizeof *b);
    strtab_init(&b->names);
    strtab_init(&b->strs);
    strtab_init(&b->labels);
    strtab_init(&b->xnames);
    strtab_init(&b->rawpairs);
    strtab_init(&b->pkeys);
    b->pend_key = NONE32;
    b->nx_parsed = UINT32_MAX;
    b->nlab_parsed = UINT32_MAX;
    b->pmask = 63;
    b->pslots = xcalloc(64, sizeof(uint32_t));
    b->unit_exp = unit_exp;
    b->keep_all_rejects = keep_all_rejects;
    b->max_rejects_kept = 20;
}

void rec_add_extra(Rec *r, uint32_t xid, const char *p, size_t n, uint8_t t)
{
    XVal x = {.xid = xid, .v = {p, (uint32_t)n, t}};
    VEC_PUSH(r->x, x);
}

void rec_add_extra_int(Rec *r, uint32_t xid, const char *p, size_t n, int64_t iv)
{
    XVal x = {.xid = xid, .isint = true, .v = {p, (uint32_t)n, V_NUM}, .iv = iv};
    VEC_PUSH(r->x, x);
}

uint32_t batch_extra_id(Batch *b, const char *name, size_t n)
{
    return strtab_intern(&b->xnames, name, n);
}

/* The LocInt entry of location number v (< LOC_INT_MAX), the array grown
 * to hold it */
static inline LocInt *locint_at(Batch *b, uint32_t v)
{
    if (UNLIKELY(v >= b->locint_n)) {
        size_t nn = b->locint_n ? b->locint_n : 64;
        while (nn <= v) nn *= 2;
        b->locint = xrealloc(b->locint, nn * sizeof(LocInt));
        memset(b->locint + b->locint_n, 0, (nn - b->locint_n) * sizeof(LocInt));
        b->locint_n = (uint32_t)nn;
    }
    return &b->locint[v];
}

/* whether p[0..n) is a location number below LOC_INT_MAX in canonical
 * decimal (no sign, no leading zero), and that number in *x */
static inline bool loc_int(const char *p, uint32_t n, uint32_t *x)
{
    if (!n || n > 5) return false;
    uint32_t v = 0;
    bool ok = p[0] != '0' || n == 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t d = (uint32_t)(unsigned char)p[i] - '0';
        ok &= d <= 9;
        v = v * 10 + d;
    }
    *x = v;
    return ok && v < LOC_INT_MAX;
}

/* label_sid of a row's peer or parent while parsing: a location number
 * below LOC_INT_MAX in canonical decimal (a rank) found by its number
 * (LocInt.lsid), not hashed and looked up each time */
static inline uint32_t label_sid_row(Batch *b, const Val *v)
{
    uint32_t x;
    if (v->t != V_TRUE && v->t != V_FALSE && v->t != V_RAW && loc_int(v->p, v->n, &x)) {
        LocInt *li = locint_at(b, x);
        if (UNLIKELY(!li->lsid)) li->lsid = strtab_intern(&b->labels, v->p, v->n) + 1;
        return li->lsid - 1;
    }
    return batch_label(b, v);
}

static void excerpt(char *buf, size_t sz, const Val *v)
{
    if (v->t == V_TRUE) snprintf(buf, sz, "true");
    else if (v->t == V_FALSE) snprintf(buf, sz, "false");
    else if (v->t == V_RAW) quote_excerpt(buf, sz, v->p, v->n, 24);
    else quote_excerpt(buf, sz, v->p, v->n, 40);
}

static bool is_text(const Val *v) { return v->t == V_TEXT || v->t == V_STR || v->t == V_NUM; }

/* batch_push_sparse's common case inline: the next row's value of a packed
 * field of that type (its first value and anything else: batch_push_sparse) */
static inline void push_next(Batch *b, uint32_t row, uint32_t field, uint8_t type, int64_t i, uint32_t s)
{
    if (LIKELY(field < b->nfb)) {
        FieldBuf *fbuf = &b->fb[field];
        size_t len = fbuf->rows.len;
        int64_t off = 0;
        if (fbuf->packed && fbuf->ptype == type && row == fbuf->prow0 + (uint32_t)len && len < fbuf->p32.cap &&
            (type == VT_STR || (!__builtin_sub_overflow(i, fbuf->pbase, &off) && off >= INT32_MIN && off <= INT32_MAX))) {
            if (type == VT_INT) {
                /* (tmask has VT_INT: the field's first value was one) */
                if (i < fbuf->imin) fbuf->imin = i;
                if (i > fbuf->imax) fbuf->imax = i;
            }
            fbuf->p32.v[len] = type == VT_STR ? s : (uint32_t)(int32_t)off;
            fbuf->p32.len = fbuf->rows.len = fbuf->vals.len = fbuf->types.len = len + 1;
            return;
        }
    }
    batch_push_sparse(b, row, field, type, i, 0, s);
}

/* batch_push_sparse's common case for an unpacked field inline: a value
 * (an integer, a string id or a prefix+number id, as v's bits) of a later
 * row than the field's last, with room for it (anything else:
 * batch_push_sparse, which also decides whether a field starts packed) */
static inline void push_sparse_next(Batch *b, uint32_t row, uint32_t field, uint8_t type, int64_t i, uint32_t s)
{
    if (LIKELY(field < b->nfb)) {
        FieldBuf *fbuf = &b->fb[field];
        size_t len = fbuf->rows.len;
        if (!fbuf->packed && len && len < fbuf->rows.cap && fbuf->rows.v[len - 1] != row) {
            if (type == VT_INT) {
                if (!(fbuf->tmask & (1u << VT_INT)) || i < fbuf->imin) fbuf->imin = i;
                if (!(fbuf->tmask & (1u << VT_INT)) || i > fbuf->imax) fbuf->imax = i;
            }
            fbuf->rows.v[len] = row;
            fbuf->vals.v[len] = type == VT_STR ? s : (uint64_t)i;
            fbuf->types.v[len] = type;
            fbuf->rows.len = fbuf->vals.len = fbuf->types.len = len + 1;
            fbuf->tmask |= (uint8_t)(1u << type);
            return;
        }
    }
    batch_push_sparse(b, row, field, type, i, 0, s);
}

/* The string id in strs of a row's file, whose name has string id name */
static inline __attribute__((always_inline)) uint32_t file_sid(Batch *b, uint32_t name, const Val *v)
{
    if (name == NONE32) return strtab_intern(&b->strs, v->p, v->n);
    if (UNLIKELY(name >= b->fon_cap)) {
        size_t nc = b->fon_cap ? b->fon_cap * 2 : 1024;
        while (nc <= name) nc *= 2;
        b->file_of_name = xrealloc(b->file_of_name, nc * sizeof(uint32_t));
        memset(b->file_of_name + b->fon_cap, 0, (nc - b->fon_cap) * sizeof(uint32_t));
        b->fon_cap = nc;
    }
    uint32_t c = b->file_of_name[name];
    if (c && strtab_equals(&b->strs, c - 1, v->p, v->n)) return c - 1;
    uint32_t sid = strtab_intern(&b->strs, v->p, v->n);
    b->file_of_name[name] = sid + 1;
    return sid;
}

/* int if it is an integer (also a JSON string holding one, so that the id
 * "5" pairs with the id 5), else a string (ids, tags, groups) */
static void push_int_or_str(Batch *b, uint32_t row, uint32_t field, const Val *v)
{
    int64_t iv;
    if (parse_int64(v->p, v->n, &iv) == TP_OK) {
        push_sparse_next(b, row, field, VT_INT, iv, 0);
        return;
    }
    if (v->t == V_TRUE || v->t == V_FALSE) {
        push_sparse_next(b, row, field, VT_INT, v->t == V_TRUE, 0);
        return;
    }
    /* a prefix+number id: the prefix in the dictionary, the rest a number
     * (ids unique per message or per instance never fill the dictionary) */
    size_t pl;
    unsigned nd;
    uint64_t num;
    if (v->t != V_RAW && xid_split(v->p, v->n, &pl, &nd, &num)) {
        uint32_t ps;
        if (pl <= 16) {
            uint64_t w[2];
            strtab_prefix_words(v->p, pl, w);
            if (UNLIKELY(!b->xpfx)) b->xpfx = xcalloc(XPFX_CACHE, sizeof(XPfx));
            _Static_assert(XPFX_CACHE == 1 << 6, "the index below takes 6 bits");
            XPfx *x = &b->xpfx[((w[0] ^ w[1] ^ (uint64_t)pl << 56) * 0x9e3779b97f4a7c15ULL) >> 58];
            if (x->n == pl && x->w[0] == w[0] && x->w[1] == w[1]) {
                ps = x->sid;
            } else {
                ps = strtab_intern(&b->strs, v->p, pl);
                *x = (XPfx){{w[0], w[1]}, (uint32_t)pl, ps};
            }
        } else {
            ps = strtab_intern(&b->strs, v->p, pl);
        }
        if (ps < (1u << 24)) {
            push_sparse_next(b, row, field, VT_XSTR, (int64_t)XID_VAL(ps, nd, num), 0);
            return;
        }
    }
    push_sparse_next(b, row, field, VT_STR, 0, strtab_intern(&b->strs, v->p, v->n));
}

/* extras: JSON types are kept; CSV text is inferred (int, float, string) */
static void push_extra(Batch *b, uint32_t row, uint32_t field, const Val *v)
{
    int64_t iv;
    double dv;
    switch (v->t) {
    case V_TRUE:
    case V_FALSE:
        batch_push_sparse(b, row, field, VT_INT, v->t == V_TRUE, 0, 0);
        return;
    case V_STR:
    case V_RAW:
        batch_push_sparse(b, row, field, VT_STR, 0, 0, strtab_intern(&b->strs, v->p, v->n));
        return;
    default:
        if (parse_int64(v->p, v->n, &iv) == TP_OK) {
            batch_push_sparse(b, row, field, VT_INT, iv, 0, 0);
        } else if (parse_double(v->p, v->n, &dv) == TP_OK) {
            batch_push_sparse(b, row, field, VT_FLT, 0, dv, 0);
        } else if (v->t == V_NUM) {
            /* a JSON number out of double range: keep its text */
            batch_push_sparse(b, row, field, VT_STR, 0, 0, strtab_intern(&b->strs, v->p, v->n));
        } else {
            batch_push_sparse(b, row, field, VT_STR, 0, 0, strtab_intern(&b->strs, v->p, v->n));
        }
    }
}

static uint16_t user_kind(Batch *b, const Val *v, bool *overflow)
{
    uint32_t sid = strtab_intern(&b->strs, v->p, v->n);
    if (sid >= b->uk_cap) {
        size_t nc = b->uk_cap ? b->uk_cap : 256;
        while (nc <= sid) nc *= 2;
        b->uk_of_sid = xrealloc(b->uk_of_sid, nc * sizeof(uint16_t));
        memset(b->uk_of_sid + b->uk_cap, 0, (nc - b->uk_cap) * sizeof(uint16_t));
        b->uk_cap = nc;
    }
    if (b->uk_of_sid[sid]) return (uint16_t)(K_USER + b->uk_of_sid[sid] - 1);
    if (b->ukinds.len >= 60000) {
        *overflow = true;
        return 0;
    }
    VEC_PUSH(b->ukinds, sid);
    b->uk_of_sid[sid] = (uint16_t)b->ukinds.len;
    return (uint16_t)(K_USER + b->ukinds.len - 1);
}

/* whether a user kind is a begin or end word: PR_BEGIN, PR_END or PR_NONE */
static uint8_t user_kind_role(Batch *b, uint16_t kind)
{
    size_t u = (size_t)(kind - K_USER);
    if (u >= b->role_cap) {
        size_t nc = b->role_cap ? b->role_cap : 64;
        while (nc <= u) nc *= 2;
        b->role_of_uk = xrealloc(b->role_of_uk, nc);
        memset(b->role_of_uk + b->role_cap, 0, nc - b->role_cap);
        b->pair_group_of_uk = xrealloc(b->pair_group_of_uk, nc * sizeof(uint32_t));
        memset(b->pair_group_of_uk + b->role_cap, 0, (nc - b->role_cap) * sizeof(uint32_t));
        b->role_cap = nc;
    }
    if (!b->role_of_uk[u]) {
        uint32_t sid = b->ukinds.v[u];
        const char *t = strtab_str(&b->strs, sid);
        size_t n = strtab_len(&b->strs, sid);
        static const char *const BEG[] = {"enter", "begin", "start", "entry", "b"};
        static const char *const END[] = {"leave", "stop", "exit", "e"};
        uint8_t r = PR_NONE;
        for (size_t i = 0; i < sizeof BEG / sizeof BEG[0] && !r; i++)
            if (strlen(BEG[i]) == n && !strncasecmp(t, BEG[i], n)) r = PR_BEGIN;
        for (size_t i = 0; i < sizeof END / sizeof END[0] && !r; i++)
            if (strlen(END[i]) == n && !strncasecmp(t, END[i], n)) r = PR_END;
        /* --pair rules: "begin=end,end;begin=end" (exact words) */
        uint32_t rule = 0;
        for (const char *w = b->pair_words; w && *w && !r; rule++) {
            const char *semi = strchr(w, ';');
            const char *rule_end = semi ? semi : w + strlen(w);
            const char *eq = memchr(w, '=', (size_t)(rule_end - w));
            if (eq) {
                if ((size_t)(eq - w) == n && !memcmp(w, t, n)) r = PR_BEGIN;
                for (const char *e = eq + 1; e < rule_end && !r;) {
                    const char *c = memchr(e, ',', (size_t)(rule_end - e));
                    const char *ee = c ? c : rule_end;
                    if ((size_t)(ee - e) == n && !memcmp(e, t, n)) r = PR_END_KEEP;
                    e = c ? c + 1 : rule_end;
                }
            }
            if (r) b->pair_group_of_uk[u] = rule + 1; /* (the rule: its words pair only with each other) */
            w = semi ? semi + 1 : rule_end;
        }
        b->role_of_uk[u] = (uint8_t)(r + 1);
    }
    return (uint8_t)(b->role_of_uk[u] - 1);
}

#define HAS(r, f) ((r)->has & (1u << (f)))
#define WHY(...) (snprintf(why, whysz, __VA_ARGS__), false)

/* Field f of a record, if present (an empty value is an absent value). */
static inline bool rec_get(const Rec *r, int f, Val *v)
{
    if (r->csv) {
        int c = r->csv->col_of[f];
        size_t n = r->csv->fl[c];
        v->p = r->csv->fp[c];
        v->n = (uint32_t)n;
        v->t = V_TEXT;
        return n != 0;
    }
    if (!HAS(r, f) || r->f[f].n == 0) return false;
    *v = r->f[f];
    return true;
}

/* Whether field f of a record is present (rec_get's answer without
 * reading the value); pm: rec_get's answers as a mask, for a record not
 * read in place (r->csv NULL) */
static inline __attribute__((always_inline)) bool rec_has(const Rec *r, bool csv, uint32_t pm, int f)
{
    return csv ? *r->csv->flf[f] != 0 : (pm >> f) & 1u;
}

/* Field f of a record read in place (CSV) */
static inline __attribute__((always_inline)) Val csv_val(const Rec *r, int f)
{
    return (Val){*r->csv->fpf[f], (uint32_t)*r->csv->flf[f], V_TEXT};
}

/* --pair-key FIELD: the pairing key of a begin or end row, "P" rule \x1F
 * value (its --pair rule, 0 for the built-in words, so that rules do not
 * pair with each other), or NONE32 when the row has no such field (then
 * it pairs by location, activity and name) */
static uint32_t pair_key_of(Batch *b, const Rec *r, uint16_t kind)
{
    const char *fname = b->pair_key;
    const Val *v = NULL;
    int f = field_by_name(fname);
    Val cv;
    if (f >= 0 && f < F__N) {
        if (rec_get(r, f, &cv)) v = &cv;
    } else {
        size_t fl = strlen(fname);
        for (size_t i = 0; i < r->x.len && !v; i++)
            if (r->x.v[i].xid < b->xnames.count && strtab_len(&b->xnames, r->x.v[i].xid) == fl &&
                !memcmp(strtab_str(&b->xnames, r->x.v[i].xid), fname, fl))
                v = &r->x.v[i].v;
    }
    if (!v || (v->n == 0 && v->t != V_STR)) return NONE32;
    uint32_t rule = kind >= K_USER && (size_t)(kind - K_USER) < b->role_cap ? b->pair_group_of_uk[kind - K_USER] : 0;
    char head[16];
    int hn = snprintf(head, sizeof head, "P%u\x1F", (unsigned)rule);
    char *k = xmalloc((size_t)hn + v->n + 1);
    memcpy(k, head, (size_t)hn);
    memcpy(k + hn, v->p, v->n);
    uint32_t id = strtab_intern(&b->pkeys, k, (size_t)hn + v->n);
    free(k);
    return id;
}

/* memcmp(a, b, n) == 0 for the few bytes of a label, inline (overlapping
 * loads, none past n) */
static inline __attribute__((always_inline)) bool short_eq(const char *a, const char *b, size_t n)
{
    if (n >= 8) {
        for (size_t i = 0; i + 8 < n; i += 8)
            if (ld8(a + i) != ld8(b + i)) return false;
        return ld8(a + n - 8) == ld8(b + n - 8);
    }
    if (n >= 4) return ld4(a) == ld4(b) && ld4(a + n - 4) == ld4(b + n - 4);
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return false;
    return true;
}

/* batch_commit for a record read in place by the CSV parser (csv) or
 * parsed into r->f: one copy of each, without a test per field */
static inline __attribute__((always_inline)) bool commit_rec(Batch *b, Rec *r, char *why, size_t whysz, const bool csv)
{
    char ex[96];
    int64_t ts, dur = -1;
    /* the fields present (an empty value is an absent value): one mask
     * for a parsed record, whose values are read where used (RP) */
    const uint32_t pm = r->has & ~r->emp;
    Val c_ts, c_dur, c_end, c_loc, c_act, c_kind, c_name, c_peer, c_bytes, c_id, c_tag, c_group, c_parent, c_file, c_line, c_value; /* (CSV: the values read) */
#define RP(x, F) (csv ? (c_##x = csv_val(r, F), &c_##x) : &r->f[F])
    const Val *v_ts, *v_dur = NULL, *v_end, *v_loc = NULL, *v_act = NULL, *v_kind = NULL, *v_name = NULL, *v_peer, *v_bytes, *v_id, *v_tag,
              *v_group, *v_parent, *v_file, *v_line, *v_value;
#define H(f) rec_has(r, csv, pm, f)
    bool h_loc = H(F_LOC);
    const bool h_ts = H(F_TS);
    const bool h_dur = H(F_DUR);
    const bool h_end = H(F_END);
    const bool h_act = H(F_ACT);
    const bool h_kind = H(F_KIND);
    const bool h_name = H(F_NAME);
    const bool h_peer = H(F_PEER);
    const bool h_bytes = H(F_BYTES);
    const bool h_id = H(F_ID);
    const bool h_tag = H(F_TAG);
    const bool h_group = H(F_GROUP);
    const bool h_parent = H(F_PARENT);
    const bool h_file = H(F_FILE);
    const bool h_line = H(F_LINE);
    const bool h_value = H(F_VALUE);
#undef H
    if (h_dur) v_dur = RP(dur, F_DUR);
    if (h_loc) v_loc = RP(loc, F_LOC);
    if (h_act) v_act = RP(act, F_ACT);
    if (h_kind) v_kind = RP(kind, F_KIND);
    if (h_name) v_name = RP(name, F_NAME);
    /* the name's slot asked for now, its entry after the location's pair:
     * the names' table misses the CPU's caches once it holds thousands */
    uint64_t name_w[2];
    uint32_t name_h = 0;
    if (h_name) {
        name_h = strtab_hash(v_name->p, v_name->n, name_w);
        strtab_prefetch(&b->names, name_h, 0);
    }

    /* --- records of other kinds than --only-kind names: skipped, counted --- */
    if (b->only_kinds) {
        bool keep = false;
        if (h_kind && is_text(v_kind))
            for (const char *w = b->only_kinds; *w && !keep;) {
                const char *c = strchr(w, ',');
                size_t n = c ? (size_t)(c - w) : strlen(w);
                keep = n == v_kind->n && !memcmp(w, v_kind->p, n);
                w = c ? c + 1 : w + n;
            }
        if (!keep) {
            b->nskipped++;
            b->pend_role = PR_NONE;
            b->pend_key = NONE32;
            b->pend_bind = BIND_NONE;
            return true;
        }
    }
    /* --- time --- */
    if (!h_ts) return WHY("missing ts");
    {
        v_ts = RP(ts, F_TS);
        const Val *v = v_ts;
        if (!is_text(v)) {
            excerpt(ex, sizeof ex, v);
            return WHY("ts is not a number or date-time: %s", ex);
        }
        int e = b->unit_exp == 0 && (r->ivh & (1u << F_TS)) ? (ts = r->iv[F_TS], TP_OK) : parse_time_value(v->p, v->n, b->unit_exp, &ts);
        if (e) {
            excerpt(ex, sizeof ex, v);
            return WHY(e == TP_RANGE ? "ts out of range: %s" : "ts is not a number or date-time: %s", ex);
        }
        if (ts <= -TIME_LIMIT || ts >= TIME_LIMIT) {
            excerpt(ex, sizeof ex, v);
            return WHY("ts out of range (times are kept within ±2^62 ns of 0, i.e. years 1824 to 2116): %s", ex);
        }
    }
    if (h_dur) {
        const Val *v = v_dur;
        int e = b->unit_exp == 0 && (r->ivh & (1u << F_DUR)) ? (dur = r->iv[F_DUR], TP_OK)
                : is_text(v)                                      ? parse_dur_value(v->p, v->n, b->unit_exp, &dur)
                                                                  : TP_NOTNUM;
        if (e) {
            excerpt(ex, sizeof ex, v);
            return WHY(e == TP_RANGE ? "dur out of range: %s" : "dur is not a number: %s", ex);
        }
        if (dur < 0) {
            excerpt(ex, sizeof ex, v);
            return WHY("negative dur: %s", ex);
        }
        if (dur >= TIME_LIMIT - ts) return WHY("ts + dur out of range (past 2^62 ns, the year 2116)");
    }
    if (h_end) {
        v_end = RP(end, F_END);
        const Val *v = v_end;
        int64_t end;
        int e = is_text(v) ? parse_time_value(v->p, v->n, b->unit_exp, &end) : TP_NOTNUM;
        if (e) {
            excerpt(ex, sizeof ex, v);
            return WHY(e == TP_RANGE ? "end out of range: %s" : "end is not a number or date-time: %s", ex);
        }
        if (end >= TIME_LIMIT) {
            excerpt(ex, sizeof ex, v);
            return WHY("end out of range (past 2^62 ns, the year 2116): %s", ex);
        }
        if (end < ts) return WHY("end before ts");
        if (dur >= 0) {
            if (ts + dur != end) return WHY("dur and end disagree (ts + dur != end)");
        } else {
            dur = end - ts; /* < 2^63: both within ±2^62 */
        }
    }
    if (b->ts_end && dur >= 0 && !h_end) {
        /* (--ts-end: the row is written when it ends, with its duration) */
        if (ts - dur <= -TIME_LIMIT) return WHY("ts - dur out of range (before -2^62 ns)");
        ts -= dur;
    }
    /* --- location and activity --- */
    static const Val lanes_loc = {LANES_LOC, sizeof LANES_LOC - 1, V_STR};
    if (!h_loc && b->lanes) {
        v_loc = &lanes_loc;
        h_loc = true;
    }
    if (!h_loc) return WHY("missing loc");
    const Val *lv = v_loc;
    const Val *av = h_act ? v_act : NULL;
    /* only text and numbers are labels (checked before the label cache, which
     * is keyed by bytes and would take the JSON literal true for "true") */
    if (!is_text(lv)) {
        excerpt(ex, sizeof ex, lv);
        return WHY("loc is not a label: %s", ex);
    }
    if (av && !is_text(av)) {
        excerpt(ex, sizeof ex, av);
        return WHY("act is not a label: %s", ex);
    }
    /* the location's last activity (see LocCache) */
    LocCache *lc = NULL;
    uint32_t akey;
    /* the activity's first prefix word: all of its bytes when it has at
     * most 8 (with its length), for LocCache and LocInt */
    uint64_t aw = 0;
    if (av) {
        uint64_t w[2];
        strtab_prefix_words(av->p, av->n, w);
        aw = w[0];
    }
    uint64_t lw[2];
    if (!b->lc_off && lv->n && lv->n <= LOC_CACHE_LOC && (!av || av->n <= LOC_CACHE_ACT)) {
        if (UNLIKELY(!b->loc_cache)) b->loc_cache = xcalloc(LOC_CACHE, sizeof(LocCache));
        if (UNLIKELY(++b->lc_rows == LOC_CACHE_TRIAL) && b->lc_miss > LOC_CACHE_TRIAL / 2) {
            /* (rows hop between many locations: neither the cache nor
             * the sweep by pair would stay in the CPU's caches) */
            b->lc_off = true;
            b->lsw_stale = true;
            batch_free_sweep(b);
        }
        /* (indexed by the label's first prefix word: fixed-size loads) */
        strtab_prefix_words(lv->p, lv->n, lw);
        uint64_t h = lw[0] ^ ((uint64_t)lv->n << 56);
        _Static_assert(LOC_CACHE == 1 << 10, "the index below takes 10 bits");
        lc = &b->loc_cache[(h * 0x9e3779b97f4a7c15ULL) >> 54];
        /* (labels of at most 8 bytes compared by their words alone) */
        if (lc->ln == lv->n && lc->lw0 == lw[0] && lc->has_act == (av != NULL) &&
            (!av || (lc->an == av->n && lc->aw0 == aw && (av->n <= 8 || short_eq(lc->act, av->p, av->n)))) &&
            (lv->n <= 8 || short_eq(lc->loc, lv->p, lv->n))) {
            akey = lc->akey;
            goto have_akey;
        }
    }
    if (lc) b->lc_miss++;
    /* a location numbered below LOC_INT_MAX with an activity of at most 8
     * bytes: its last two activities, found by the number (see LocInt) */
    LocInt *li = NULL;
    uint8_t acode = 0;
    uint32_t lnum;
    if ((!av || av->n <= 8) && loc_int(lv->p, lv->n, &lnum)) {
        li = locint_at(b, lnum);
        acode = av ? (uint8_t)av->n : 0xFF;
        if (li->an[0] == acode && li->act[0] == aw) {
            akey = li->akey[0];
            goto fill_lc;
        }
        if (li->an[1] == acode && li->act[1] == aw) {
            akey = li->akey[1];
            goto fill_lc;
        }
    }
    size_t klen = (size_t)lv->n + 2 + (av ? av->n : 0);
    if (klen > b->pkcap) {
        b->pkcap = klen * 2 + 64;
        b->pkbuf = xrealloc(b->pkbuf, b->pkcap);
    }
    memcpy(b->pkbuf, lv->p, lv->n);
    b->pkbuf[lv->n] = 0x1F;
    b->pkbuf[lv->n + 1] = av ? 'a' : '-';
    if (av) memcpy(b->pkbuf + lv->n + 2, av->p, av->n);
    uint32_t before = b->rawpairs.count;
    if (UNLIKELY(before >= PAIRS_SIZE_AT) && !b->pairs_sized) batch_presize_pairs(b);
    uint32_t rid = strtab_intern(&b->rawpairs, b->pkbuf, klen);
    if (rid < before) {
        akey = b->rawpair_akey[rid];
    } else {
        uint32_t loc = batch_label(b, lv);
        uint32_t act = av ? batch_label(b, av) : NONE32;
        akey = batch_pair(b, loc, act);
        if (rid >= b->rawpair_cap) {
            b->rawpair_cap = b->rawpair_cap ? b->rawpair_cap * 2 : 256;
            b->rawpair_akey = xrealloc(b->rawpair_akey, b->rawpair_cap * sizeof(uint32_t));
        }
        b->rawpair_akey[rid] = akey;
    }
    if (li) {
        li->act[1] = li->act[0];
        li->akey[1] = li->akey[0];
        li->an[1] = li->an[0];
        li->act[0] = aw;
        li->akey[0] = akey;
        li->an[0] = acode;
    }
fill_lc:
    if (lc) {
        lc->ln = (uint8_t)lv->n;
        lc->lw0 = lw[0];
        lc->aw0 = aw;
        memcpy(lc->loc, lv->p, lv->n);
        lc->has_act = av != NULL;
        lc->an = av ? (uint8_t)av->n : 0;
        if (av) memcpy(lc->act, av->p, av->n);
        lc->akey = akey;
    }
have_akey:;
    if (h_name) strtab_prefetch(&b->names, name_h, 1);
    /* --- kind --- */
    uint16_t kind;
    if (h_kind) {
        const Val *v = v_kind;
        if (!is_text(v)) {
            excerpt(ex, sizeof ex, v);
            return WHY("kind is not a string: %s", ex);
        }
        /* ("state", most rows of most traces, without a call) */
        int k = v->n == 5 && !memcmp(v->p, "state", 5) ? K_STATE : kind_from_string(v->p, v->n);
        if (k >= 0) {
            kind = (uint16_t)k;
        } else {
            bool ovf = false;
            kind = user_kind(b, v, &ovf);
            if (ovf) return WHY("too many distinct kinds (more than 60000)");
        }
    } else {
        /* without a kind: an interval is a state, a value without a
         * duration a counter sample, anything else a mark */
        kind = dur >= 0 ? K_STATE : h_value ? K_COUNTER : K_MARK;
    }
    /* --- validate the optional numeric fields before appending anything --- */
    int64_t bytes = 0, line = 0;
    double value = 0;
    if (h_bytes) {
        v_bytes = RP(bytes, F_BYTES);
        const Val *v = v_bytes;
        int e = r->ivh & (1u << F_BYTES) ? (bytes = r->iv[F_BYTES], TP_OK) : is_text(v) ? parse_int_exact(v->p, v->n, &bytes) : TP_NOTNUM;
        if (e || bytes < 0) {
            excerpt(ex, sizeof ex, v);
            return e == TP_RANGE ? WHY("bytes out of range: %s", ex)
                   : e          ? WHY("bytes is not an integer: %s", ex)
                                : WHY("negative bytes: %s", ex);
        }
    }
    if (h_line) {
        v_line = RP(line, F_LINE);
        const Val *v = v_line;
        int e = r->ivh & (1u << F_LINE) ? (line = r->iv[F_LINE], TP_OK) : is_text(v) ? parse_int_exact(v->p, v->n, &line) : TP_NOTNUM;
        if (e) {
            excerpt(ex, sizeof ex, v);
            return e == TP_RANGE ? WHY("line out of range: %s", ex) : WHY("line is not an integer: %s", ex);
        }
    }
    if (h_value) {
        v_value = RP(value, F_VALUE);
        const Val *v = v_value;
        if (!is_text(v) || parse_double(v->p, v->n, &value) != TP_OK) {
            excerpt(ex, sizeof ex, v);
            return WHY("value is not a number: %s", ex);
        }
    }
    uint32_t peer = NONE32, parent = NONE32;
    if (h_peer) {
        v_peer = RP(peer, F_PEER);
        peer = label_sid_row(b, v_peer);
        if (peer == NONE32) {
            excerpt(ex, sizeof ex, v_peer);
            return WHY("peer is not a label: %s", ex);
        }
    }
    if (h_parent) {
        v_parent = RP(parent, F_PARENT);
        parent = label_sid_row(b, v_parent);
        if (parent == NONE32) {
            excerpt(ex, sizeof ex, v_parent);
            return WHY("parent is not a label: %s", ex);
        }
    }

    /* --- append --- */
    if (UNLIKELY(b->n == b->cap)) batch_grow_rows(b);
    uint32_t row = (uint32_t)b->n;
    if (UNLIKELY(b->n >= UINT32_MAX - 1)) return WHY("too many events in one chunk");
    b->ts[row] = ts;
    b->dur[row] = dur;
    b->akey[row] = akey;
    b->kind[row] = kind;
    uint32_t name_sid = h_name ? strtab_intern_hashed(&b->names, v_name->p, v_name->n, name_h, name_w) : NONE32;
    b->name[row] = name_sid;
    b->pair_count[akey]++;
    b->n++;
    if (kind != K_MSG && !b->lsw_stale) {
        if (UNLIKELY(akey >= b->lsw_cap)) {
            size_t nc = b->lsw_cap ? b->lsw_cap * 2 : 64;
            while (nc <= akey) nc *= 2;
            b->lsw = xrealloc(b->lsw, nc * sizeof *b->lsw);
            memset(b->lsw + b->lsw_cap, 0, (nc - b->lsw_cap) * sizeof *b->lsw);
            b->lsw_cap = nc;
        }
        lane_sweep_row(b, &b->lsw[akey], ts, dur);
    }

    if (peer != NONE32) push_sparse_next(b, row, F_PEER, VT_STR, 0, peer);
    if (h_bytes) push_sparse_next(b, row, F_BYTES, VT_INT, bytes, 0);
    if (h_id) {
        if (r->ivh & (1u << F_ID)) { /* (a number the parser read: what parse_int64 makes of it) */
            push_sparse_next(b, row, F_ID, VT_INT, r->iv[F_ID], 0);
        } else {
            v_id = RP(id, F_ID);
            push_int_or_str(b, row, F_ID, v_id);
        }
    }
    if (h_tag) {
        if (r->ivh & (1u << F_TAG)) { /* (a number the parser read: what parse_int64 makes of it) */
            push_sparse_next(b, row, F_TAG, VT_INT, r->iv[F_TAG], 0);
        } else {
            v_tag = RP(tag, F_TAG);
            push_int_or_str(b, row, F_TAG, v_tag);
        }
    }
    if (h_group) {
        if (r->ivh & (1u << F_GROUP)) { /* (a number the parser read: what parse_int64 makes of it) */
            push_sparse_next(b, row, F_GROUP, VT_INT, r->iv[F_GROUP], 0);
        } else {
            v_group = RP(group, F_GROUP);
            push_int_or_str(b, row, F_GROUP, v_group);
        }
    }
    if (parent != NONE32) push_sparse_next(b, row, F_PARENT, VT_STR, 0, parent);
    if (h_file) {
        v_file = RP(file, F_FILE);
        push_next(b, row, F_FILE, VT_STR, 0, file_sid(b, name_sid, v_file));
    }
    if (h_line) push_next(b, row, F_LINE, VT_INT, line, 0);
    if (h_value) batch_push_sparse(b, row, F_VALUE, VT_FLT, 0, value, 0);
    uint8_t role = b->pend_role;
    if (role) {
        PairCand c = {row, role, b->pend_bind, b->pend_key, b->cur_line};
        VEC_PUSH(b->cands, c);
        b->pend_role = PR_NONE;
        b->pend_key = NONE32;
        b->pend_bind = BIND_NONE;
    } else if (kind >= K_USER || kind == K_END) {
        role = kind == K_END ? PR_SOFTEND : user_kind_role(b, kind);
        if (role) {
            PairCand c = {row, role, BIND_NONE, b->pair_key ? pair_key_of(b, r, kind) : NONE32, b->cur_line};
            VEC_PUSH(b->cands, c);
        }
    }
    for (size_t i = 0; i < r->x.len; i++) {
        const XVal *x = &r->x.v[i];
        if (x->v.n == 0 && x->v.t != V_STR) continue; /* empty CSV field: absent */
        if (x->xid >= MAX_EXTRA_FIELDS) { /* beyond the extra-field limit (the loader warns) */
            b->dropped_extras++;
            continue;
        }
        if (x->isint) push_next(b, row, F_EXTRA + x->xid, VT_INT, x->iv, 0); /* (what push_extra makes of it) */
        else push_extra(b, row, F_EXTRA + x->xid, &x->v);
    }
    return true;
#undef RP
}

bool batch_commit(Batch *b, Rec *r, char *why, size_t whysz)
{
    return r->csv ? commit_rec(b, r, why, whysz, true) : commit_rec(b, r, why, whysz, false);
}
