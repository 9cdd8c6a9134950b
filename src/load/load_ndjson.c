/*
 * load_ndjson.c — NDJSON chunk parser: one JSON object per line.
 *
 * Owns: a strict JSON parser (RFC 8259: string escapes including \uXXXX
 * surrogate pairs, number grammar, literals) specialised for flat records:
 * nested objects are flattened to dotted keys ("args.key"), arrays are kept
 * as their raw JSON text, null means absent. A duplicate key in one object is
 * a rejection (its meaning would be ambiguous).
 * What each key means is ndjson_keys.c's (the parser's state: ndjson_int.h).
 * Invariants: a line is parsed only after it has been validated as UTF-8;
 * Val pointers handed to the batch point into the reader window or into the
 * decode buffer, both valid until the record is committed; nesting deeper
 * than MAX_DEPTH is rejected, so recursion is bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_int.h"
#include "ndjson_int.h"

#define MAX_DEPTH 64

static bool fail(Nd *nd, const char *at, const char *msg)
{
    if (!nd->err[0]) snprintf(nd->err, sizeof nd->err, "bad JSON at column %zu: %s", (size_t)(at - nd->line0) + 1, msg);
    return false;
}

static inline const char *skip_ws(const char *p, const char *e)
{
    while (p < e && (unsigned char)*p <= ' ' && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* the first byte in [p, e) that is not an ASCII digit (8 at a time) */
static inline const char *skip_digits(const char *p, const char *e)
{
    while (e - p >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        /* a byte is a digit when its high nibble is 3 and adding 6 keeps it so */
        uint64_t bad = ((v & 0xF0F0F0F0F0F0F0F0ULL) ^ 0x3030303030303030ULL) |
                       (((v + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) ^ 0x3030303030303030ULL);
        if (bad) return p + (__builtin_ctzll(bad) >> 3);
        p += 8;
    }
    while (p < e && *p >= '0' && *p <= '9') p++;
    return p;
}

static bool hex4(const char *p, const char *e, unsigned *out)
{
    if (e - p < 4) return false;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hex_digit(p[i]);
        if (h < 0) return false;
        v = v * 16 + (unsigned)h;
    }
    *out = v;
    return true;
}


/* *pp at the opening quote; on success *pp is after the closing quote and
 * the decoded bytes are [*s, *s + *n). */
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* first byte in [p, e) that is a quote, a backslash or a control character */
static inline const char *scan_str(const char *p, const char *e)
{
#if defined(__SSE2__)
    /* the reader's window has RD_SLACK readable bytes past e */
    const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'), sp = _mm_set1_epi8(0x20);
    while (p < e) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        /* control: unsigned v < 0x20, i.e. max(v, 0x20) != v */
        __m128i ctl = _mm_xor_si128(_mm_cmpeq_epi8(_mm_max_epu8(v, sp), v), _mm_set1_epi8(-1));
        uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, bs)), ctl));
        if (m) {
            const char *r = p + __builtin_ctz(m);
            return r < e ? r : e;
        }
        p += 16;
    }
    return e;
#else
    while (p < e && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20) p++;
    return p;
#endif
}

static bool parse_string_slow(Nd *nd, const char **pp, const char *e, const char *p, const char **s, size_t *n);

/* *pp at the opening quote; on success *pp is after the closing quote and
 * the decoded bytes are [*s, *s + *n). */
static inline bool parse_string(Nd *nd, const char **pp, const char *e, const char **s, size_t *n)
{
    const char *p = *pp + 1, *start = p;
    p = scan_str(p, e);
    if (LIKELY(p < e && *p == '"')) {
        *s = start;
        *n = (size_t)(p - start);
        *pp = p + 1;
        return true;
    }
    return parse_string_slow(nd, pp, e, p, s, n);
}

static bool parse_string_slow(Nd *nd, const char **pp, const char *e, const char *p, const char **s, size_t *n)
{
    const char *start = *pp + 1;
    /* escapes: the decoded form is never longer than the input */
    char *o = nd->sbuf + nd->slen;
    char *o0 = o;
    memcpy(o, start, (size_t)(p - start));
    o += p - start;
    while (p < e) {
        unsigned char c = (unsigned char)*p;
        if (c == '"') {
            *s = o0;
            *n = (size_t)(o - o0);
            nd->slen += (size_t)(o - o0);
            *pp = p + 1;
            return true;
        }
        if (c < 0x20) return fail(nd, p, "control character in string");
        if (c != '\\') {
            *o++ = (char)c;
            p++;
            continue;
        }
        p++;
        if (p >= e) break;
        char x = *p++;
        switch (x) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned cp;
            if (!hex4(p, e, &cp)) return fail(nd, p - 2, "bad \\u escape");
            p += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                unsigned lo;
                if (e - p < 6 || p[0] != '\\' || p[1] != 'u' || !hex4(p + 2, e, &lo) || lo < 0xDC00 || lo > 0xDFFF)
                    return fail(nd, p - 6, "unpaired surrogate in \\u escape");
                p += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                return fail(nd, p - 6, "unpaired surrogate in \\u escape");
            }
            o += utf8_put(o, cp);
            break;
        }
        default: return fail(nd, p - 2, "bad escape in string");
        }
    }
    return fail(nd, *pp, "unterminated string");
}

static bool parse_number(Nd *nd, const char **pp, const char *e)
{
    const char *p = *pp;
    if (p < e && *p == '-') p++;
    if (p >= e) return fail(nd, *pp, "bad number");
    if (*p == '0') {
        p++;
    } else if (*p >= '1' && *p <= '9') {
        p = skip_digits(p, e);
    } else {
        return fail(nd, *pp, "bad number");
    }
    if (p < e && *p == '.') {
        p++;
        const char *d = p;
        p = skip_digits(p, e);
        if (p == d) return fail(nd, *pp, "bad number");
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < e && (*p == '+' || *p == '-')) p++;
        const char *d = p;
        while (p < e && *p >= '0' && *p <= '9') p++;
        if (p == d) return fail(nd, *pp, "bad number");
    }
    *pp = p;
    return true;
}

static bool skip_value(Nd *nd, const char **pp, const char *e, int depth);

static bool skip_container(Nd *nd, const char **pp, const char *e, int depth)
{
    const char *p = *pp;
    char open = *p, close = open == '{' ? '}' : ']';
    if (depth > MAX_DEPTH) return fail(nd, p, "nesting too deep");
    p = skip_ws(p + 1, e);
    if (p < e && *p == close) {
        *pp = p + 1;
        return true;
    }
    for (;;) {
        if (open == '{') {
            if (p >= e || *p != '"') return fail(nd, p, "expected a key string");
            const char *s;
            size_t n;
            size_t save = nd->slen;
            if (!parse_string(nd, &p, e, &s, &n)) return false;
            nd->slen = save;
            p = skip_ws(p, e);
            if (p >= e || *p != ':') return fail(nd, p, "expected ':' after key");
            p = skip_ws(p + 1, e);
        }
        if (!skip_value(nd, &p, e, depth + 1)) return false;
        p = skip_ws(p, e);
        if (p < e && *p == ',') {
            p = skip_ws(p + 1, e);
            continue;
        }
        if (p < e && *p == close) {
            *pp = p + 1;
            return true;
        }
        return fail(nd, p, open == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static bool literal(Nd *nd, const char **pp, const char *e, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(e - *pp) < n || memcmp(*pp, word, n) != 0) return fail(nd, *pp, "unexpected character");
    *pp += n;
    return true;
}

static bool skip_value(Nd *nd, const char **pp, const char *e, int depth)
{
    const char *p = *pp;
    if (p >= e) return fail(nd, p, "expected a value");
    switch (*p) {
    case '{':
    case '[': return skip_container(nd, pp, e, depth);
    case '"': {
        const char *s;
        size_t n;
        size_t save = nd->slen;
        bool ok = parse_string(nd, pp, e, &s, &n);
        nd->slen = save;
        return ok;
    }
    case 't': return literal(nd, pp, e, "true");
    case 'f': return literal(nd, pp, e, "false");
    case 'n': return literal(nd, pp, e, "null");
    default: return parse_number(nd, pp, e);
    }
}


/* assign, for the common case inline: a canonical field (KeyInfo.fast)
 * not yet set in this record, by a key not yet seen in it; isint: the
 * value is 1 to 18 digits whose value is iv (see Rec.ivh) */
static inline __attribute__((always_inline)) bool put(Nd *nd, uint32_t kid, const char *vp, size_t vn, uint8_t vt, bool isint,
                                                      int64_t iv, const char *at)
{
    KeyInfo *k = &nd->ki[kid];
    int f = k->field;
    if (LIKELY(k->fast && k->seen != nd->recno && !(nd->rec.has & (1u << f)))) {
        k->seen = nd->recno;
        if (isint) rec_set_int(&nd->rec, f, vp, vn, iv);
        else rec_set_new(&nd->rec, f, vp, vn, vt);
        nd->holder[f] = kid;
        return true;
    }
    return nd_put_other(nd, kid, vp, vn, vt, isint, iv, at);
}


/* The common number, read in one pass: p (< e) at a digit 1-9 that
 * begins 1 to 15 digits, not followed by '.', 'e' or 'E'. Returns its
 * end with its value in *val, or NULL for any other number (the general
 * parse_number). Reads 16 bytes from p: the reader's window has slack. */
static inline const char *int_fast(const char *p, const char *e, int64_t *val)
{
    size_t room = (size_t)(e - p);
    uint64_t a = ld8(p), ma = nondigits(a);
    size_t d;
    unsigned c; /* the byte after the digits, read from the words loaded */
    uint64_t v;
    if (ma) {
        d = (size_t)__builtin_ctzll(ma) >> 3;
        c = (unsigned)(a >> (8 * d)) & 0xFF;
        v = swar8((a & 0x0F0F0F0F0F0F0F0FULL) << (8 * (8 - d)));
    } else {
        uint64_t b = ld8(p + 8), mb = nondigits(b);
        if (!mb) return NULL; /* (16 digits or more) */
        size_t d2 = (size_t)__builtin_ctzll(mb) >> 3;
        c = (unsigned)(b >> (8 * d2)) & 0xFF;
        v = swar8(a & 0x0F0F0F0F0F0F0F0FULL) * POW10_8[d2];
        if (d2) v += swar8((b & 0x0F0F0F0F0F0F0F0FULL) << (8 * (8 - d2)));
        d = 8 + d2;
    }
    /* (digits up to e or past it, a fraction or an exponent: the general
     * parse, which also answers for a number that ends the input) */
    if (d >= room || c == '.' || (c | 0x20) == 'e') return NULL;
    *val = (int64_t)v;
    return p + d;
}

/* the prefix of key kid's children in nd->kbuf: its flattened name and a
 * dot; returns its length */
static size_t child_prefix(Nd *nd, uint32_t kid)
{
    size_t nl = strtab_len(&nd->keys, kid);
    if (nl + 2 > nd->kcap) {
        size_t nc = nd->kcap ? nd->kcap : 256;
        while (nc < nl + 2) nc *= 2;
        nd->kbuf = xrealloc(nd->kbuf, nc);
        nd->kcap = nc;
    }
    memcpy(nd->kbuf, strtab_str(&nd->keys, kid), nl);
    nd->kbuf[nl] = '.';
    return nl + 1;
}

/* *pp at '{'; the flattened name of this object's key is kbuf[0..plen)
 * (with its trailing dot), its key id parent */
static bool parse_object(Nd *nd, const char **pp, const char *e, size_t plen, uint32_t parent, int depth)
{
    const char *p = *pp;
    if (depth > MAX_DEPTH) return fail(nd, p, "nesting too deep");
    p++;
    uint32_t prev = NONE32;
    KeyPred *kp = preds_after(nd, prev, parent);
    for (;;) {
        /* p is after the '{' or after the value of the key prev: the next
         * key's token, predicted (see pred_match) by kp, or parsed */
        const char *t = p, *keyat;
        uint32_t kid;
        if (LIKELY(pred_match(&kp[0], parent, t, e))) {
            kid = kp[0].kid;
            keyat = t + kp[0].q;
            p = t + kp[0].n;
        } else if (prev != NONE32 && pred_match(&kp[1], parent, t, e)) {
            kid = kp[1].kid;
            keyat = t + kp[1].q;
            p = t + kp[1].n;
            KeyPred tk = kp[0]; /* (the latest first) */
            kp[0] = kp[1];
            kp[1] = tk;
        } else {
            if (prev == NONE32) {
                p = skip_ws(p, e);
                if (p < e && *p == '}') {
                    *pp = p + 1;
                    return true;
                }
            } else {
                p = skip_ws(p, e);
                if (p < e && *p == ',') {
                    p = skip_ws(p + 1, e);
                } else if (p < e && *p == '}') {
                    *pp = p + 1;
                    return true;
                } else {
                    return fail(nd, p, "expected ',' or '}'");
                }
            }
            if (p >= e || *p != '"') return fail(nd, p, "expected a key string");
            keyat = p;
            const char *ks;
            size_t kn;
            size_t save = nd->slen;
            if (!parse_string(nd, &p, e, &ks, &kn)) return false;
            bool raw = ks == keyat + 1; /* (no escape: the input's bytes) */
            kid = nd_key_id(nd, parent, plen, ks, kn);
            nd->slen = save; /* a decoded key is not needed any more */
            p = skip_ws(p, e);
            if (p >= e || *p != ':') return fail(nd, p, "expected ':' after key");
            p = skip_ws(p + 1, e);
            /* (key_id may have moved nd->ki) */
            kp = preds_after(nd, prev, parent);
            if (prev != NONE32) kp[1] = kp[0];
            if (raw) nd_pred_set(&kp[0], parent, t, (size_t)(p - t), (size_t)(keyat - t), kid);
            else kp[0].n = 0;
        }
        prev = kid;
        if (UNLIKELY((unsigned char)*p <= ' ')) p = skip_ws(p, e); /* (*e is readable: the window's slack) */
        if (p >= e) return fail(nd, p, "expected a value");
        const char *v0 = p;
        switch (*p) {
        case '{': {
            if (!parse_object(nd, &p, e, child_prefix(nd, kid), kid, depth + 1)) return false;
            break;
        }
        case '[':
            if (!skip_container(nd, &p, e, depth + 1)) return false;
            if (!nd_assign(nd, kid, v0, (size_t)(p - v0), V_RAW, keyat)) return false;
            break;
        case '"': {
            const char *s;
            size_t n;
            if (!parse_string(nd, &p, e, &s, &n)) return false;
            if (!put(nd, kid, s, n, V_STR, false, 0, keyat)) return false;
            break;
        }
        case 't':
            if (!literal(nd, &p, e, "true")) return false;
            if (!nd_assign(nd, kid, v0, 4, V_TRUE, keyat)) return false;
            break;
        case 'f':
            if (!literal(nd, &p, e, "false")) return false;
            if (!nd_assign(nd, kid, v0, 5, V_FALSE, keyat)) return false;
            break;
        case 'n':
            if (!literal(nd, &p, e, "null")) return false;
            /* null = absent, but the key still counts for duplicates */
            if (nd->ki[kid].seen == nd->recno) return nd_dup_key(nd, kid, keyat);
            nd->ki[kid].seen = nd->recno;
            break;
        default: {
            /* the common number, a positive integer of at most 18 digits:
             * its value read once, here */
            if (LIKELY((unsigned)(*p - '1') < 9)) {
                int64_t iv;
                const char *q = int_fast(p, e, &iv);
                if (LIKELY(q != NULL)) {
                    p = q;
                    if (!put(nd, kid, v0, (size_t)(q - v0), V_NUM, true, iv, keyat)) return false;
                    break;
                }
            }
            if (!parse_number(nd, &p, e)) return false;
            if (!put(nd, kid, v0, (size_t)(p - v0), V_NUM, false, 0, keyat)) return false;
        }
        }
        if (*p == '}') { /* (the common end; *p is readable: the window's slack) */
            if (LIKELY(p < e)) {
                *pp = p + 1;
                return true;
            }
        }
        kp = nd->ki[kid].next; /* (after the value: a nested object may have moved nd->ki) */
    }
}

/* The first LF in [p, lim), or lim; *high is set when a byte >= 0x80 comes
 * before it. Reads in 64-byte steps, then 32-byte blocks (the reader's
 * window has slack). */
static inline const char *find_lf(const char *p, const char *lim, bool *high)
{
#if defined(__SSE2__)
    const __m128i nl = _mm_set1_epi8('\n');
    __m128i hi = _mm_setzero_si128(); /* the high bits of the blocks before */
    /* 64 bytes a step while they are the line's: one test for the four
     * blocks, the LF's place and the high bits before it found once */
    while (lim - p >= 64) {
        __m128i a0 = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i a1 = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
        __m128i a2 = _mm_loadu_si128((const __m128i *)(const void *)(p + 32));
        __m128i a3 = _mm_loadu_si128((const __m128i *)(const void *)(p + 48));
        __m128i e0 = _mm_cmpeq_epi8(a0, nl), e1 = _mm_cmpeq_epi8(a1, nl), e2 = _mm_cmpeq_epi8(a2, nl),
                e3 = _mm_cmpeq_epi8(a3, nl);
        if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(e0, e1), _mm_or_si128(e2, e3)))) {
            uint64_t m = (uint64_t)(uint32_t)_mm_movemask_epi8(e0) | (uint64_t)(uint32_t)_mm_movemask_epi8(e1) << 16 |
                         (uint64_t)(uint32_t)_mm_movemask_epi8(e2) << 32 | (uint64_t)(uint32_t)_mm_movemask_epi8(e3) << 48;
            uint64_t h = (uint64_t)(uint32_t)_mm_movemask_epi8(a0) | (uint64_t)(uint32_t)_mm_movemask_epi8(a1) << 16 |
                         (uint64_t)(uint32_t)_mm_movemask_epi8(a2) << 32 | (uint64_t)(uint32_t)_mm_movemask_epi8(a3) << 48;
            unsigned i = (unsigned)__builtin_ctzll(m);
            *high = (h & ((1ULL << i) - 1)) != 0 || _mm_movemask_epi8(hi) != 0;
            return p + i;
        }
        hi = _mm_or_si128(hi, _mm_or_si128(_mm_or_si128(a0, a1), _mm_or_si128(a2, a3)));
        p += 64;
    }
    while (p < lim) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
        uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, nl)) |
                     (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, nl)) << 16;
        if (UNLIKELY(lim - p < 32)) {
            /* the window's last block: its bytes past lim are not the line's */
            uint32_t valid = (1u << (lim - p)) - 1;
            uint32_t h = ((uint32_t)_mm_movemask_epi8(a) | (uint32_t)_mm_movemask_epi8(b) << 16) & valid;
            m &= valid;
            const char *q = m ? p + __builtin_ctz(m) : lim;
            if (m) h &= (1u << __builtin_ctz(m)) - 1;
            *high = h != 0 || _mm_movemask_epi8(hi) != 0;
            return q;
        }
        if (m) {
            unsigned i = (unsigned)__builtin_ctz(m);
            uint32_t h = (uint32_t)_mm_movemask_epi8(a) | (uint32_t)_mm_movemask_epi8(b) << 16;
            *high = (h & ((1u << i) - 1)) != 0 || _mm_movemask_epi8(hi) != 0;
            return p + i;
        }
        hi = _mm_or_si128(hi, _mm_or_si128(a, b));
        p += 32;
    }
    *high = _mm_movemask_epi8(hi) != 0;
    return lim;
#else
    bool hi = false;
    while (p < lim && *p != '\n') hi |= (unsigned char)*p++ >= 0x80;
    *high = hi;
    return p;
#endif
}


/* The leaf keys of a record parsed whole, in its order (the first 64, for
 * nd_missing_hint): walked again only for a rejection whose reason is
 * shown, so that the parse need not note each key. *pp at its '{'. */
static void walk_keys(Nd *nd, const char **pp, const char *e, size_t plen, uint32_t parent)
{
    const char *p = skip_ws(*pp + 1, e);
    if (p < e && *p == '}') {
        *pp = p + 1;
        return;
    }
    while (p < e && *p == '"') {
        const char *ks;
        size_t kn;
        size_t save = nd->slen;
        if (!parse_string(nd, &p, e, &ks, &kn)) return;
        uint32_t kid = nd_key_id(nd, parent, plen, ks, kn);
        nd->slen = save;
        p = skip_ws(skip_ws(p, e) + 1, e); /* (the colon) */
        if (p < e && *p == '{') {
            walk_keys(nd, &p, e, child_prefix(nd, kid), kid);
        } else {
            if (!skip_value(nd, &p, e, 1)) return;
            if (nd->nrkeys < 64) nd->rkeys[nd->nrkeys++] = kid;
        }
        p = skip_ws(p, e);
        if (p < e && *p == ',') p = skip_ws(p + 1, e);
        else break;
    }
    *pp = p + 1;
}

/* Parse and commit one line [s, e) (without its LF). */
static void ndjson_line(Nd *nd, const char *s, const char *e, uint64_t line, bool last, bool high)
{
    Batch *b = nd->b;
    const char *p = skip_ws(s, e);
    if (p == e) {
        /* like CSV: a line of spaces or tabs counts as blank, an empty one not */
        for (const char *q = s; q < e; q++)
            if (*q == ' ' || *q == '\t') {
                b->nblank++;
                break;
            }
        return;
    }
    nd->line0 = s;
    nd->err[0] = 0;
    size_t bad = high ? utf8_invalid_at((const unsigned char *)s, (size_t)(e - s)) : (size_t)(e - s);
    if (bad != (size_t)(e - s)) {
        if (last) b->tail_incomplete = true;
        else batch_reject(b, line, "invalid UTF-8 at column %zu", bad + 1);
        return;
    }
    if (*p != '{') {
        if (last) b->tail_incomplete = true;
        else batch_reject(b, line, "not a JSON object (a line must hold one {...} record)");
        return;
    }
    if ((size_t)(e - s) + 16 > nd->scap) {
        nd->scap = (size_t)(e - s) * 2 + 64;
        nd->sbuf = xrealloc(nd->sbuf, nd->scap);
    }
    nd->slen = 0;
    nd->recno++;
    rec_reset(&nd->rec);
    nd->also_held = 0;
    bool ok = parse_object(nd, &p, e, 0, NONE32, 0);
    if (ok) {
        p = skip_ws(p, e);
        if (p != e) ok = fail(nd, p, "unexpected data after the object");
    }
    if (!ok) {
        if (last) b->tail_incomplete = true;
        else batch_reject(b, line, "%s", nd->err);
        return;
    }
    char why[800];
    b->cur_line = line;
    if (!batch_commit(b, &nd->rec, why, sizeof why)) {
        if (last) b->tail_incomplete = true;
        else {
            if (batch_reject_shown(b, why)) {
                const char *o = skip_ws(s, e);
                nd->nrkeys = 0;
                nd->slen = 0;
                walk_keys(nd, &o, e, 0, NONE32);
                nd_missing_hint(nd, why, sizeof why);
            }
            batch_reject(b, line, "%s", why);
        }
    }
}

void ndjson_parse_chunk(const NdFile *nf, Batch *b, uint64_t start, uint64_t end)
{
    Reader rd;
    rd_init(&rd, nf->fd, nf->mem, nf->size);
    Nd nd;
    memset(&nd, 0, sizeof nd);
    nd.b = b;
    nd.o = nf->opts;
    strtab_init(&nd.keys);
    uint64_t pos = start, line = 1;
    b->chunk_start = start;
    batch_presize(b, &rd, start, end);
    size_t want = 1;
    while (pos < end && pos < rd.limit) {
        size_t avail;
        const char *w = rd_window(&rd, pos, want, &avail);
        if (avail == 0) break; /* read error */
        want = 1;
        const char *lim = w + avail, *ls = w;
        bool at_eof = pos + avail >= rd.limit;
        for (;;) {
            uint64_t ls_off = pos + (uint64_t)(ls - w);
            if (ls_off >= end || ls >= lim) {
                pos = ls_off;
                break;
            }
            /* one pass finds the line's end and whether it has non-ASCII bytes */
            bool high = false;
            const char *q;
            if (!nf->cr_lines) {
                q = find_lf(ls, lim, &high);
            } else {
                /* (lines end with lone CRs) */
                q = memchr(ls, '\r', (size_t)(lim - ls));
                if (!q) q = lim;
                for (const char *h = ls; h < q && !high; h++) high = (unsigned char)*h >= 0x80;
            }
            if (q == lim && !at_eof) {
                pos = ls_off; /* the line continues past the window: widen it */
                want = (size_t)(lim - ls) * 2 + 4096;
                break;
            }
            bool last = q == lim;
            ndjson_line(&nd, ls, q, line, last, high);
            if (last) {
                pos = rd.limit;
                break;
            }
            line++;
            ls = q + 1;
        }
    }
    b->chunk_stop = pos;
    b->nlf = line - 1;
    strtab_free(&nd.keys);
    free(nd.ki);
    free(nd.sbuf);
    free(nd.kbuf);
    VEC_FREE(nd.rec.x);
    rd_finish(&rd, b);
}

/* ---- the object parser for other JSON readers (load_chrome.c) ---------- */

Nd *nd_new(Batch *b, const LoadOpts *o, int mode)
{
    Nd *nd = xcalloc(1, sizeof *nd);
    nd->b = b;
    nd->o = o;
    nd->mode = mode;
    strtab_init(&nd->keys);
    return nd;
}

void nd_free(Nd *nd)
{
    if (!nd) return;
    strtab_free(&nd->keys);
    free(nd->ki);
    free(nd->sbuf);
    free(nd->kbuf);
    VEC_FREE(nd->rec.x);
    free(nd);
}

bool nd_object(Nd *nd, const char *s, const char *e, const char *line0)
{
    if ((size_t)(e - s) + 16 > nd->scap) {
        nd->scap = (size_t)(e - s) * 2 + 64;
        nd->sbuf = xrealloc(nd->sbuf, nd->scap);
    }
    nd->slen = 0;
    nd->recno++;
    nd->cxhas = 0;
    nd->line0 = line0;
    nd->err[0] = 0;
    rec_reset(&nd->rec);
    nd->also_held = 0;
    const char *p = s;
    if (!parse_object(nd, &p, e, 0, NONE32, 0)) return false;
    p = skip_ws(p, e);
    if (p != e) return fail(nd, p, "unexpected data after the object");
    return true;
}

bool nd_object_prefix(Nd *nd, const char *s, const char *lim, const char **end)
{
    /* Never past the object's end as the brace count finds it (what
     * load_chrome.c's object_end does): strings are seen alike, and the
     * parser accepts only matched brackets, so it ends on that '}' or
     * fails at or before it. Hence a success is nd_object's on [s, *end),
     * and a failure did a prefix of what nd_object does. */
    const char *e = lim - s > ND_PREFIX_MAX ? s + ND_PREFIX_MAX : lim;
    if (nd->scap < 2 * (size_t)ND_PREFIX_MAX + 64) {
        nd->scap = 2 * (size_t)ND_PREFIX_MAX + 64;
        nd->sbuf = xrealloc(nd->sbuf, nd->scap);
    }
    nd->slen = 0;
    nd->recno++;
    nd->cxhas = 0;
    nd->line0 = s;
    nd->err[0] = 0;
    rec_reset(&nd->rec);
    nd->also_held = 0;
    const char *p = s;
    if (!parse_object(nd, &p, e, 0, NONE32, 0)) return false;
    *end = p;
    return true;
}

Rec *nd_rec(Nd *nd) { return &nd->rec; }
const char *nd_error(const Nd *nd) { return nd->err; }
bool nd_key(const Nd *nd, int ck, Val *v)
{
    if (!(nd->cxhas & (1u << ck))) return false;
    *v = nd->cx[ck];
    return true;
}
/* room for n more bytes that stay valid until the next nd_object */
char *nd_scratch(Nd *nd, size_t n)
{
    if (nd->slen + n > nd->scap) return NULL;
    char *p = nd->sbuf + nd->slen;
    nd->slen += n;
    return p;
}
