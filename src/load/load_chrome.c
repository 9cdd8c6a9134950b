/*
 * load_chrome.c — the Chrome Trace Event format (Perfetto, chrome://tracing,
 * clang -ftime-trace, DevTools): its events array read in parallel chunks,
 * each event turned into rows of the model.
 *
 * Owns: finding the events array (a bare array, or the traceEvents value
 * of an object whatever keys come before it), the boundaries between
 * events, and the meaning of each phase:
 *   X           an interval (dur, else tdur);
 *   B / E       begin and end, paired per (pid, tid) by pair.c;
 *   b / e, S / F  async slices, paired by cat + id (+ id2, scope), on a row
 *               of their own ("async NAME") in their process;
 *   n, T, p     async instants and steps, on that row;
 *   i, I, R     instants (mark); O, N, D snapshots as instants without args;
 *   s / t / f   flows: a start, steps and a finish paired by id into
 *               messages (pair.c); bind_id + flow_out / flow_in on an X too;
 *               each end says which slice it binds to (PairCand.bind:
 *               flowbind.c): s and t the enclosing one, f the next to
 *               begin (the enclosing one with "bp":"e"), an X's itself;
 *   C           one counter row per numeric argument;
 *   M           process_name / thread_name rename the rows (pair.c),
 *               process_sort_index orders the locations, thread_sort_index
 *               the activities within one (the store).
 * ts and dur are microseconds (decimals kept to the ns); pid is the
 * location, tid the activity; every other key (args.* flattened) is a
 * field. Any other phase is kept as an instant with its ph as a field.
 * A top-level beginningOfTime (clang -ftime-trace: µs since the epoch,
 * before or after the events) is added to every time (load.c), so files
 * of several compilations line up.
 * A file tnav convert wrote (otherData.producer "tnav") reads back into
 * the events it was written from: kind from cat, args under their own
 * names, flows skipped, times from otherData.tnav_origin_ns.
 * Invariants: an event is parsed only once its whole object is in the
 * reader's window; a malformed event is rejected with its line and the
 * parse goes on after it; the chunk seam is always the '{' of an event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timeparse.h"
#include "load_int.h"

/* ---- structure of the file --------------------------------------------- */

static bool is_ws(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* The end of the JSON value starting at off (strings and nesting followed,
 * nothing checked), or UINT64_MAX when the file ends first. */
static uint64_t skip_value(Reader *rd, uint64_t off)
{
    int depth = 0;
    bool in_str = false, esc = false, scalar = true;
    size_t want = 4096;
    uint64_t pos = off;
    for (;;) {
        size_t avail;
        const char *w = rd_window(rd, pos, want, &avail);
        if (avail == 0) return UINT64_MAX;
        for (size_t i = 0; i < avail; i++) {
            unsigned char c = (unsigned char)w[i];
            if (in_str) {
                if (esc) esc = false;
                else if (c == '\\') esc = true;
                else if (c == '"') {
                    in_str = false;
                    if (depth == 0) return pos + i + 1;
                }
                continue;
            }
            if (c == '"') {
                in_str = true;
                scalar = false;
            } else if (c == '{' || c == '[') {
                depth++;
                scalar = false;
            } else if (c == '}' || c == ']') {
                if (depth == 0) return pos + i; /* (a scalar ended by its container) */
                if (--depth == 0) return pos + i + 1;
            } else if (depth == 0 && scalar && (c == ',' || is_ws(c)) && pos + i > off) {
                return pos + i;
            }
        }
        pos += avail;
    }
}

/* the first byte at or after off that is not white space */
static uint64_t skip_ws_at(Reader *rd, uint64_t off, int *c)
{
    for (;;) {
        size_t avail;
        const char *w = rd_window(rd, off, 1, &avail);
        if (avail == 0) {
            *c = -1;
            return off;
        }
        for (size_t i = 0; i < avail; i++)
            if (!is_ws((unsigned char)w[i])) {
                *c = (unsigned char)w[i];
                return off + i;
            }
        off += avail;
    }
}

/* the JSON number in [p, e) of the file as microseconds, in ns */
static bool number_at(Reader *rd, uint64_t p, uint64_t e, int64_t *ns)
{
    if (e <= p || e - p > 40) return false;
    size_t avail;
    const char *w = rd_window(rd, p, (size_t)(e - p), &avail);
    if (avail < e - p || w[0] == '"') return false;
    return parse_time_value(w, (size_t)(e - p), 3, ns) == TP_OK;
}

/* The keys of the top-level object after the events array (its ']' at
 * off): clang -ftime-trace writes beginningOfTime there. */
static void tail_keys(Reader *rd, uint64_t off, Batch *b)
{
    int c;
    uint64_t p = skip_ws_at(rd, off + 1, &c);
    for (int guard = 0; guard < 1000; guard++) {
        if (c != ',') return;
        p = skip_ws_at(rd, p + 1, &c);
        if (c != '"') return;
        size_t avail;
        const char *w = rd_window(rd, p, 17, &avail);
        bool bt = avail >= 17 && !memcmp(w, "\"beginningOfTime\"", 17);
        uint64_t k_end = skip_value(rd, p);
        if (k_end == UINT64_MAX) return;
        p = skip_ws_at(rd, k_end, &c);
        if (c != ':') return;
        p = skip_ws_at(rd, p + 1, &c);
        uint64_t v_end = skip_value(rd, p);
        if (v_end == UINT64_MAX) return;
        if (bt) b->has_bot = number_at(rd, p, v_end, &b->bot_ns);
        p = skip_ws_at(rd, v_end, &c);
    }
}

char *chrome_read_header(ChFile *cf, uint64_t bom)
{
    Reader rd;
    rd_init(&rd, cf->fd, cf->mem, cf->size);
    int c;
    uint64_t p = skip_ws_at(&rd, bom, &c);
    char *err = NULL;
    if (c == '[') {
        cf->data_start = p + 1;
        rd_free(&rd);
        return NULL;
    }
    if (c != '{') {
        rd_free(&rd);
        return xstrdup("not a Chrome Trace Event file (it starts with neither '[' nor '{')");
    }
    p++;
    for (;;) {
        p = skip_ws_at(&rd, p, &c);
        if (c == ',') p = skip_ws_at(&rd, p + 1, &c);
        if (c != '"') {
            err = xstrdup("a Chrome Trace Event object without a traceEvents array");
            break;
        }
        size_t avail;
        const char *w = rd_window(&rd, p, 16, &avail);
        bool te = avail >= 13 && !memcmp(w, "\"traceEvents\"", 13);
        bool od = avail >= 11 && !memcmp(w, "\"otherData\"", 11); /* (w is valid until the next read) */
        bool bt = avail >= 17 && !memcmp(w, "\"beginningOfTime\"", 17);
        uint64_t k_end = skip_value(&rd, p);
        if (k_end == UINT64_MAX) {
            err = xstrdup("the file ends inside its top-level object, before traceEvents");
            break;
        }
        p = skip_ws_at(&rd, k_end, &c);
        if (c != ':') {
            err = xasprintf("bad JSON at byte %llu: expected ':' after a key", (unsigned long long)p + 1);
            break;
        }
        p = skip_ws_at(&rd, p + 1, &c);
        if (te) {
            if (c != '[') err = xstrdup("traceEvents is not an array");
            else cf->data_start = p + 1;
            break;
        }
        uint64_t v_end = skip_value(&rd, p);
        if (v_end == UINT64_MAX) {
            err = xstrdup("the file ends inside its top-level object, before traceEvents");
            break;
        }
        if (bt) cf->has_bot = number_at(&rd, p, v_end, &cf->bot_ns);
        if (od && v_end - p < 4096) {
            /* written by tnav convert? (and its time origin) */
            size_t a2;
            const char *v = rd_window(&rd, p, (size_t)(v_end - p), &a2);
            if (a2 >= v_end - p) {
                char buf[4096];
                memcpy(buf, v, (size_t)(v_end - p));
                buf[v_end - p] = 0;
                cf->tnav = strstr(buf, "\"producer\":\"tnav\"") != NULL;
                const char *o = strstr(buf, "\"tnav_origin_ns\":\"");
                if (cf->tnav && o) {
                    int64_t org;
                    const char *d = o + 18, *de = d;
                    while (*de == '-' || (*de >= '0' && *de <= '9')) de++;
                    if (parse_int64(d, (size_t)(de - d), &org) == TP_OK) cf->origin = org;
                }
            }
        }
        p = v_end;
    }
    rd_free(&rd);
    return err;
}

/* "}" ws* "," ws* "{" (after = false: any "," ws* "{"): the '{' */
static uint64_t next_seam(Reader *rd, uint64_t off, bool after_obj)
{
    uint64_t pos = off, limit = rd->limit, scanned = 0;
    int state = after_obj ? 0 : 1; /* 0 nothing, 1 after '}', 2 after "}," */
    while (pos < limit && scanned < ((uint64_t)64 << 20)) {
        size_t avail;
        const char *w = rd_window(rd, pos, 1, &avail);
        if (avail == 0) break;
        for (size_t i = 0; i < avail; i++) {
            unsigned char c = (unsigned char)w[i];
            if (c == '}') state = 1;
            else if (c == ',' && state == 1) state = 2;
            else if (c == '{' && state == 2) return pos + i;
            else if (!is_ws(c)) state = after_obj ? 0 : 1;
        }
        pos += avail;
        scanned += avail;
    }
    return limit;
}

uint64_t chrome_next_seam(Reader *rd, uint64_t off) { return next_seam(rd, off, true); }

/* The end of the object at s (s[0] == '{') within [s, e): the byte after
 * its '}', NULL when it does not end before e. */
static const char *object_end(const char *s, const char *e)
{
    int depth = 0;
    const char *p = s;
    while (p < e) {
        /* jump to the next byte that matters */
        const char *q = p;
        while (q < e && *q != '"' && *q != '{' && *q != '}' && *q != '[' && *q != ']') q++;
        if (q >= e) return NULL;
        char c = *q;
        if (c == '"') {
            q++;
            for (;;) {
                const char *r = memchr(q, '"', (size_t)(e - q));
                if (!r) return NULL;
                /* an escaped quote: an odd number of backslashes before it */
                const char *b = r;
                while (b > q && b[-1] == '\\') b--;
                q = r + 1;
                if (((r - b) & 1) == 0) break;
            }
            p = q;
            continue;
        }
        if (c == '{' || c == '[') depth++;
        else if (--depth == 0) return q + 1;
        else if (depth < 0) return q + 1;
        p = q + 1;
    }
    return NULL;
}

/* ---- events -------------------------------------------------------------- */

typedef struct {
    Batch *b;
    Nd *nd;
    char *kb; /* pairing keys and row labels */
    size_t kcap;
    const ChFile *cf;
    char tsbuf[40];
} Ch;

static const char *vtext(const Val *v, size_t *n)
{
    *n = v->n;
    return v->p;
}

/* append s[0..n) to the key buffer at *len */
static void kput(Ch *c, size_t *len, const char *s, size_t n)
{
    if (*len + n + 1 > c->kcap) {
        c->kcap = (*len + n) * 2 + 128;
        c->kb = xrealloc(c->kb, c->kcap);
    }
    memcpy(c->kb + *len, s, n);
    *len += n;
}

static void kval(Ch *c, size_t *len, const Rec *r, int f)
{
    static const char sep = 0x1F;
    if (r->has & (1u << f)) {
        size_t n;
        const char *t = vtext(&r->f[f], &n);
        kput(c, len, t, n);
    }
    kput(c, len, &sep, 1);
}

static void kck(Ch *c, size_t *len, int ck)
{
    static const char sep = 0x1F;
    Val v;
    if (nd_key(c->nd, ck, &v)) kput(c, len, v.p, v.n);
    kput(c, len, &sep, 1);
}

static bool commit(Ch *c, Rec *r, uint64_t line)
{
    char why[256];
    c->b->cur_line = line;
    if (batch_commit(c->b, r, why, sizeof why)) return true;
    c->b->pend_role = PR_NONE;
    c->b->pend_key = NONE32;
    c->b->pend_bind = BIND_NONE;
    batch_reject(c->b, line, "%s", why);
    return false;
}

static void pend(Ch *c, uint8_t role, size_t klen)
{
    c->b->pend_role = role;
    c->b->pend_key = strtab_intern(&c->b->pkeys, c->kb, klen);
}

/* the row of async slices named like this event, in its process */
static void async_row(Ch *c, Rec *r)
{
    size_t n = 0;
    const char *nm = "";
    if (r->has & (1u << F_NAME)) nm = vtext(&r->f[F_NAME], &n);
    char *buf = nd_scratch(c->nd, n + 6);
    if (!buf) return;
    memcpy(buf, "async ", 6);
    memcpy(buf + 6, nm, n);
    rec_set(r, F_ACT, buf, n + 6, V_STR);
}

/* drop the extra fields whose names begin with pfx */
static void drop_extras(Ch *c, Rec *r, const char *pfx)
{
    size_t pl = strlen(pfx), w = 0;
    for (size_t i = 0; i < r->x.len; i++) {
        const char *nm = strtab_str(&c->b->xnames, r->x.v[i].xid);
        if (strtab_len(&c->b->xnames, r->x.v[i].xid) >= pl && !memcmp(nm, pfx, pl)) continue;
        r->x.v[w++] = r->x.v[i];
    }
    r->x.len = w;
}

static void metadata(Ch *c, Rec *r)
{
    Val nm, an;
    if (!(r->has & (1u << F_NAME))) return;
    nm = r->f[F_NAME];
    if (nm.n == 18 && !memcmp(nm.p, "process_sort_index", 18)) {
        /* the process's place among the rows */
        Val si;
        int64_t o;
        if (nd_key(c->nd, CK_SORTIDX, &si) && si.t == V_NUM && parse_int64(si.p, si.n, &o) == TP_OK) {
            uint32_t loc = batch_label(c->b, &r->f[F_LOC]);
            if (loc != NONE32) {
                LocOrder lo = {loc, o};
                VEC_PUSH(c->b->loc_orders, lo);
            }
        }
        return;
    }
    if (nm.n == 17 && !memcmp(nm.p, "thread_sort_index", 17)) {
        /* the thread's place among its process's rows */
        Val si;
        int64_t o;
        if ((r->has & (1u << F_ACT)) && nd_key(c->nd, CK_SORTIDX, &si) && si.t == V_NUM &&
            parse_int64(si.p, si.n, &o) == TP_OK) {
            uint32_t loc = batch_label(c->b, &r->f[F_LOC]), act = batch_label(c->b, &r->f[F_ACT]);
            if (loc != NONE32 && act != NONE32) {
                ActOrder ao = {loc, act, o};
                VEC_PUSH(c->b->act_orders, ao);
            }
        }
        return;
    }
    if (!nd_key(c->nd, CK_ARGNAME, &an) || an.t != V_STR) return;
    bool proc = nm.n == 12 && !memcmp(nm.p, "process_name", 12);
    bool thr = nm.n == 11 && !memcmp(nm.p, "thread_name", 11);
    if (!proc && !thr) return;
    Batch *b = c->b;
    uint32_t loc = batch_label(b, &r->f[F_LOC]);
    if (loc == NONE32) return;
    uint32_t act = NONE32;
    if (thr) {
        if (!(r->has & (1u << F_ACT))) return;
        act = batch_label(b, &r->f[F_ACT]);
        if (act == NONE32) return;
    }
    /* the name as given: pair.c makes it the label (see rename_labels) */
    LabelRename rn = {loc, act, strtab_intern(&b->labels, an.p, an.n)};
    VEC_PUSH(b->renames, rn);
}

static void counters(Ch *c, Rec *r, uint64_t line)
{
    Batch *b = c->b;
    size_t n = r->x.len, nnum = 0;
    XVal *xs = xmalloc((n + 1) * sizeof *xs);
    if (n) memcpy(xs, r->x.v, n * sizeof *xs);
    for (size_t i = 0; i < n; i++) {
        const char *k = strtab_str(&b->xnames, xs[i].xid);
        if (strtab_len(&b->xnames, xs[i].xid) > 5 && !memcmp(k, "args.", 5) && xs[i].v.t == V_NUM) nnum++;
    }
    size_t bn = 0;
    const char *base = "";
    if (r->has & (1u << F_NAME)) base = vtext(&r->f[F_NAME], &bn);
    r->x.len = 0;
    rec_set(r, F_KIND, "counter", 7, V_STR);
    for (size_t i = 0; i < n; i++) {
        const char *k = strtab_str(&b->xnames, xs[i].xid);
        size_t kn = strtab_len(&b->xnames, xs[i].xid);
        if (kn <= 5 || memcmp(k, "args.", 5) || xs[i].v.t != V_NUM) continue;
        size_t len = 0;
        kput(c, &len, base, bn);
        if (nnum > 1 || !(kn == 10 && !memcmp(k + 5, "value", 5))) {
            if (nnum > 1 || bn == 0) {
                if (bn) kput(c, &len, " ", 1);
                kput(c, &len, k + 5, kn - 5);
            }
        }
        rec_set(r, F_NAME, c->kb, len, V_STR);
        rec_set(r, F_VALUE, xs[i].v.p, xs[i].v.n, V_NUM);
        commit(c, r, line);
    }
    free(xs);
}

/* tnav's own output read back: the events as they were (kind from cat,
 * fields from args), flows skipped (the sends and receives are events of
 * their own), times from the recorded origin */
static void tnav_event(Ch *c, Rec *r, char p, uint64_t line)
{
    Val v;
    if (p == 's' || p == 't' || p == 'f') return;
    if (nd_key(c->nd, CK_NONAME, &v) && v.t == V_TRUE) r->has &= ~(1u << F_NAME);
    /* (tnav writes a location's default activity as the thread tid = pid) */
    if ((r->has & (1u << F_ACT)) && r->f[F_ACT].n == r->f[F_LOC].n && !memcmp(r->f[F_ACT].p, r->f[F_LOC].p, r->f[F_LOC].n))
        r->has &= ~(1u << F_ACT);
    if (c->cf->origin && (r->has & (1u << F_TS))) {
        int64_t ns;
        if (parse_time_value(r->f[F_TS].p, r->f[F_TS].n, 3, &ns) == TP_OK && !__builtin_add_overflow(ns, c->cf->origin, &ns)) {
            uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
            int n = snprintf(c->tsbuf, sizeof c->tsbuf, "%s%llu.%03u", ns < 0 ? "-" : "", (unsigned long long)(a / 1000),
                             (unsigned)(a % 1000));
            rec_set(r, F_TS, c->tsbuf, (size_t)n, V_NUM);
        }
    }
    if (p != 'X') r->has &= ~(1u << F_DUR);
    commit(c, r, line);
}

static void chrome_event(Ch *c, uint64_t line)
{
    Rec *r = nd_rec(c->nd);
    Val ph;
    if (!nd_key(c->nd, CK_PH, &ph) || ph.t != V_STR || ph.n == 0) {
        batch_reject(c->b, line, "event without a phase (ph): a JSON array is read as Chrome Trace Event JSON; tnav's own records are NDJSON, one object per line");
        return;
    }
    if (!(r->has & (1u << F_LOC))) rec_set(r, F_LOC, "0", 1, V_NUM);
    char p = ph.n == 1 ? ph.p[0] : '?';
    if (c->cf->tnav && p != 'M') {
        tnav_event(c, r, p, line);
        return;
    }
    size_t klen = 0;
    Val v;
    switch (p) {
    case 'X':
        rec_set(r, F_KIND, "state", 5, V_STR);
        if (!(r->has & (1u << F_DUR))) {
            if (nd_key(c->nd, CK_TDUR, &v)) rec_set(r, F_DUR, v.p, v.n, v.t);
            else rec_set(r, F_DUR, "0", 1, V_NUM);
        }
        if (!commit(c, r, line)) return;
        {
            /* new-style flows: bind_id (or id) with flow_out / flow_in */
            Val fid, fin, fout;
            bool has_in = nd_key(c->nd, CK_FIN, &fin) && fin.t == V_TRUE;
            bool has_out = nd_key(c->nd, CK_FOUT, &fout) && fout.t == V_TRUE;
            if (!has_in && !has_out) return;
            if (!nd_key(c->nd, CK_BIND, &fid)) {
                if (!(r->has & (1u << F_ID))) return;
                fid = r->f[F_ID];
            }
            r->x.len = 0;
            r->has &= ~(1u << F_DUR);
            rec_set(r, F_ID, fid.p, fid.n, fid.t);
            kput(c, &klen, "F", 1);
            kput(c, &klen, fid.p, fid.n);
            /* (bound to the X itself) */
            if (has_in) {
                rec_set(r, F_KIND, "recv", 4, V_STR);
                pend(c, PR_FLOW_F, klen);
                c->b->pend_bind = BIND_SELF;
                commit(c, r, line);
            }
            if (has_out) {
                rec_set(r, F_KIND, "send", 4, V_STR);
                pend(c, PR_FLOW_S, klen);
                c->b->pend_bind = BIND_SELF;
                commit(c, r, line);
            }
        }
        return;
    case 'B':
    case 'E':
        rec_set(r, F_KIND, "state", 5, V_STR);
        r->has &= ~(1u << F_DUR);
        kput(c, &klen, "T", 1);
        kval(c, &klen, r, F_LOC);
        kval(c, &klen, r, F_ACT);
        pend(c, p == 'B' ? PR_BEGIN : PR_END, klen);
        commit(c, r, line);
        return;
    case 'b':
    case 'e':
    case 'S':
    case 'F':
        rec_set(r, F_KIND, "state", 5, V_STR);
        r->has &= ~(1u << F_DUR);
        /* ids are global unless id2.local says otherwise (then per process) */
        kput(c, &klen, "A", 1);
        {
            Val l2;
            if (nd_key(c->nd, CK_ID2L, &l2)) kval(c, &klen, r, F_LOC);
        }
        kck(c, &klen, CK_CAT);
        kval(c, &klen, r, F_ID);
        kck(c, &klen, CK_ID2L);
        kck(c, &klen, CK_ID2G);
        kck(c, &klen, CK_SCOPE);
        async_row(c, r);
        pend(c, p == 'b' || p == 'S' ? PR_BEGIN : PR_END, klen);
        commit(c, r, line);
        return;
    case 'n':
    case 'T':
    case 'p':
        async_row(c, r);
        /* fall through */
    case 'i':
    case 'I':
    case 'R':
        rec_set(r, F_KIND, "mark", 4, V_STR);
        r->has &= ~(1u << F_DUR);
        commit(c, r, line);
        return;
    case 'O':
    case 'N':
    case 'D':
        /* object snapshots: kept as instants, their (often huge) args not */
        drop_extras(c, r, "args.");
        rec_set(r, F_KIND, "mark", 4, V_STR);
        r->has &= ~(1u << F_DUR);
        commit(c, r, line);
        return;
    case 's':
    case 't':
    case 'f':
        r->has &= ~(1u << F_DUR);
        kput(c, &klen, "F", 1);
        kval(c, &klen, r, F_ID);
        kck(c, &klen, CK_ID2L);
        kck(c, &klen, CK_ID2G);
        {
            /* the slice it binds to: a finish without bp "e" the next one
             * to begin on its thread, the others the enclosing one */
            Val bp;
            uint8_t bind = BIND_ENCL;
            if (p == 'f' && !(nd_key(c->nd, CK_BP, &bp) && bp.t == V_STR && bp.n == 1 && bp.p[0] == 'e')) bind = BIND_NEXT;
            if (p != 's') {
                /* a step ends one hop and starts the next */
                rec_set(r, F_KIND, "recv", 4, V_STR);
                pend(c, PR_FLOW_F, klen);
                c->b->pend_bind = bind;
                if (!commit(c, r, line)) return;
                r->x.len = 0;
            }
            if (p != 'f') {
                rec_set(r, F_KIND, "send", 4, V_STR);
                pend(c, PR_FLOW_S, klen);
                c->b->pend_bind = bind;
                commit(c, r, line);
            }
        }
        return;
    case 'C': counters(c, r, line); return;
    case 'M': metadata(c, r); return;
    default:
        /* (P samples, v memory dumps, ...): an instant that keeps its ph */
        rec_set(r, F_KIND, "mark", 4, V_STR);
        r->has &= ~(1u << F_DUR);
        rec_add_extra(r, batch_extra_id(c->b, "ph", 2), ph.p, ph.n, V_STR);
        commit(c, r, line);
        return;
    }
}

/* the line ends in [s, e): LFs, or CRs in a file whose lines end with them */
static _Thread_local char eol_byte = '\n';

static uint64_t count_lf(const char *s, const char *e)
{
    uint64_t n = 0;
    while (s < e && (s = memchr(s, eol_byte, (size_t)(e - s)))) {
        n++;
        s++;
    }
    return n;
}

/* the LFs in [a, b) of the file */
static uint64_t count_lf_range(Reader *rd, uint64_t a, uint64_t b)
{
    uint64_t n = 0;
    while (a < b) {
        size_t avail;
        const char *w = rd_window(rd, a, 1, &avail);
        if (avail == 0) break;
        size_t k = avail < b - a ? avail : (size_t)(b - a);
        n += count_lf(w, w + k);
        a += k;
    }
    return n;
}

void chrome_parse_chunk(const ChFile *cf, Batch *b, uint64_t start, uint64_t end)
{
    Reader rd;
    rd_init(&rd, cf->fd, cf->mem, cf->size);
    b->unit_exp = 3; /* microseconds */
    eol_byte = cf->cr_lines ? '\r' : '\n';
    b->chunk_start = start;
    batch_presize(b, &rd, start, end);
    Ch c = {b, nd_new(b, cf->opts, cf->tnav ? ND_MODE_CHROME_TNAV : ND_MODE_CHROME), NULL, 0, cf, {0}};
    uint64_t pos = start, line = 1;
    size_t want = 65536;
    bool done = false;
    while (!done) {
        size_t avail;
        const char *w = rd_window(&rd, pos, want, &avail);
        if (avail == 0) break; /* the end, or a read error */
        const char *lim = w + avail, *q = w;
        bool at_eof = pos + avail >= rd.limit;
        want = 65536;
        for (;;) {
            /* between events: white space, one comma */
            const char *s = q;
            while (s < lim && is_ws((unsigned char)*s)) s++;
            if (s < lim && *s == ',') {
                s++;
                while (s < lim && is_ws((unsigned char)*s)) s++;
            }
            if (s >= lim) {
                if (at_eof) done = true;
                line += count_lf(q, s);
                q = s;
                break;
            }
            if (pos + (uint64_t)(s - w) >= end && *s == '{') {
                line += count_lf(q, s);
                q = s;
                done = true;
                break;
            }
            if (*s == ']') {
                /* the end of the events array: what follows is the rest of
                 * the object (metadata), never events */
                line += count_lf(q, s);
                tail_keys(&rd, pos + (uint64_t)(s - w), b);
                q = lim;
                pos = rd.limit;
                done = true;
                goto out;
            }
            line += count_lf(q, s);
            if (*s != '{') {
                batch_reject(b, line, "expected an event object ({...}) in the events array");
                uint64_t at = pos + (uint64_t)(s - w);
                uint64_t nx = next_seam(&rd, at + 1, false);
                line += count_lf_range(&rd, at, nx);
                pos = nx;
                if (nx >= rd.limit || nx >= end) done = true;
                q = NULL;
                break;
            }
            const char *oe;
            if (nd_object_prefix(c.nd, s, lim, &oe)) {
                /* (most events: read at once, without finding the end first) */
                chrome_event(&c, line);
                line += count_lf(s, oe);
                q = oe;
                continue;
            }
            oe = object_end(s, lim);
            if (!oe) {
                if (!at_eof) {
                    /* the event continues past the window: widen it */
                    want = (size_t)(lim - s) * 2 + 65536;
                    q = s;
                    break;
                }
                batch_reject(b, line, "the last event is cut off (the file ends inside it)");
                q = lim;
                done = true;
                break;
            }
            if (!nd_object(c.nd, s, oe, s)) batch_reject(b, line, "%s", nd_error(c.nd));
            else chrome_event(&c, line);
            line += count_lf(s, oe);
            q = oe;
        }
        if (q) pos += (uint64_t)(q - w);
        if (pos >= rd.limit) break;
    }
out:
    b->chunk_stop = pos;
    b->nlf = line - 1;
    nd_free(c.nd);
    free(c.kb);
    rd_finish(&rd, b);
}
