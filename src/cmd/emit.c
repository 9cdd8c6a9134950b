/*
 * emit.c — canonical CSV / NDJSON output of events; see emit.h.
 */
#include "emit.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/out.h"
#include "base/util.h"


char *fmt_double(char *buf, size_t sz, double d)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sz, "%.*g", prec, d);
        if (strtod(buf, NULL) == d) break;
    }
    if (isfinite(d) && !strpbrk(buf, ".eE")) {
        size_t n = strlen(buf);
        if (n + 2 < sz) memcpy(buf + n, ".0", 3);
    }
    return buf;
}

static void add_col(Emitter *em, int what, int col, const char *name)
{
    em->cols = xrealloc(em->cols, ((size_t)em->ncols + 1) * sizeof(EmitCol));
    em->cols[em->ncols++] = (EmitCol){what, col, name};
}

static const char *const FIXED[] = {"ts", "dur", "end", "loc", "act", "kind", "name"};

bool emitter_init(Emitter *em, const Store *s, EmitFormat fmt, const char *fields, char *err, size_t errsz)
{
    memset(em, 0, sizeof *em);
    em->s = s;
    em->fmt = fmt;
    if (!fields) {
        for (int w = EC_TS; w <= EC_NAME; w++)
            if (w != EC_END) add_col(em, w, -1, FIXED[w]);
        /* canonical optional fields, then extras */
        for (int pass = 0; pass < 2; pass++)
            for (uint32_t c = 0; c < s->ncols; c++)
                if ((s->cols[c].field == F_EXTRA) == (pass == 1)) add_col(em, EC_COL, (int)c, s->cols[c].name);
        return true;
    }
    const char *p = fields;
    for (;;) {
        const char *q = strchr(p, ',');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        char name[256];
        if (len == 0 || len >= sizeof name) {
            snprintf(err, errsz, "--fields: empty or too long field name in '%s'", fields);
            emitter_free(em);
            return false;
        }
        memcpy(name, p, len);
        name[len] = 0;
        bool found = false;
        for (int w = EC_TS; w <= EC_NAME && !found; w++)
            if (!strcmp(name, FIXED[w])) {
                add_col(em, w, -1, FIXED[w]);
                found = true;
            }
        if (!found) {
            const Column *c = store_column(s, name);
            int fid = field_by_name(name);
            if (!c && fid >= 0) c = store_canon_col(s, fid);
            if (c) add_col(em, EC_COL, (int)(c - s->cols), c->name);
            else if (fid >= 0) add_col(em, EC_COL, -1, FIELD_NAMES[fid]); /* canonical, absent from this trace */
            else {
                snprintf(err, errsz, "--fields: the trace has no field '%s'", name);
                emitter_free(em);
                return false;
            }
        }
        if (!q) break;
        p = q + 1;
    }
    return true;
}

void emitter_free(Emitter *em)
{
    free(em->cols);
    em->cols = NULL;
    em->ncols = 0;
}

void emit_header(FILE *f, const Emitter *em)
{
    if (em->fmt != EMIT_CSV) return;
    for (int i = 0; i < em->ncols; i++) {
        if (i) putc(',', f);
        csv_field(f, em->cols[i].name, strlen(em->cols[i].name));
    }
    putc('\n', f);
}

/* a string value, or a label that is an integer (written as a number) */
static void put_str(FILE *f, const Store *s, uint32_t sid, EmitFormat fmt, bool as_number)
{
    size_t len;
    const char *str = store_strn(s, sid, &len);
    if (fmt == EMIT_CSV) csv_field(f, str, len);
    else if (as_number) fwrite(str, 1, len, f);
    else json_str(f, str, len);
}

static void put_loc(FILE *f, const Store *s, uint32_t l, EmitFormat fmt)
{
    if (s->locs[l].is_int) fprintf(f, "%" PRId64, s->locs[l].ival);
    else put_str(f, s, s->locs[l].label, fmt, false);
}

/* canonical integer text (no sign but '-', no leading zero): safe as a
 * JSON number and read back as the same integer */
static bool is_int_text(const char *t, size_t n)
{
    size_t i = t[0] == '-' ? 1 : 0;
    if (i >= n || n - i > 18) return false;
    if (t[i] == '0' && n - i > 1) return false;
    for (; i < n; i++)
        if (t[i] < '0' || t[i] > '9') return false;
    return true;
}

/* write the value of one output field; false when the event has none */
bool emit_value(FILE *f, const Emitter *em, const EmitCol *c, size_t e)
{
    const Store *s = em->s;
    EmitFormat fmt = em->fmt;
    char num[48];
    switch (c->what) {
    case EC_TS: fprintf(f, "%" PRId64, s->ts[e]); return true;
    case EC_DUR:
    case EC_END:
        if (!(s->flags[e] & EVF_DUR)) return false;
        fprintf(f, "%" PRId64, c->what == EC_DUR ? s->dur[e] : ev_end(s, e));
        return true;
    case EC_LOC: put_loc(f, s, s->loc[e], fmt); return true;
    case EC_ACT: {
        uint32_t lab = s->acts[s->act[e]].label;
        if (lab == NONE32) return false;
        size_t len;
        const char *t = store_strn(s, lab, &len);
        put_str(f, s, lab, fmt, is_int_text(t, len));
        return true;
    }
    case EC_KIND: {
        const char *k = kind_name(s, s->kind[e]);
        if (fmt == EMIT_CSV) csv_field(f, k, strlen(k));
        else json_cstr(f, k);
        return true;
    }
    case EC_NAME:
        if (s->name[e] == NONE32) return false;
        put_str(f, s, s->name[e], fmt, false);
        return true;
    default: break;
    }
    uint8_t t;
    uint64_t p;
    if (c->col < 0 || !col_value(&s->cols[c->col], e, &t, &p)) return false;
    switch (t) {
    case VT_INT: fprintf(f, "%" PRId64, (int64_t)p); break;
    case VT_FLT: {
        double d;
        memcpy(&d, &p, 8);
        if (!isfinite(d)) return false; /* (the loaders never store one) */
        fputs(fmt_double(num, sizeof num, d), f);
        break;
    }
    case VT_LOC: put_loc(f, s, (uint32_t)p, fmt); break;
    default: put_str(f, s, (uint32_t)p, fmt, false); break;
    }
    return true;
}

/* whether the event has a value for the field */
bool emit_present(const Emitter *em, const EmitCol *c, size_t e)
{
    const Store *s = em->s;
    switch (c->what) {
    case EC_TS:
    case EC_LOC:
    case EC_KIND: return true;
    case EC_DUR:
    case EC_END: return s->flags[e] & EVF_DUR;
    case EC_ACT: return s->acts[s->act[e]].label != NONE32;
    case EC_NAME: return s->name[e] != NONE32;
    default: break;
    }
    uint8_t t;
    uint64_t p;
    if (c->col < 0 || !col_value(&s->cols[c->col], e, &t, &p)) return false;
    if (t == VT_FLT) {
        double d;
        memcpy(&d, &p, 8);
        return isfinite(d);
    }
    return true;
}

void emit_event(FILE *f, const Emitter *em, size_t e)
{
    if (em->fmt == EMIT_CSV) {
        for (int i = 0; i < em->ncols; i++) {
            if (i) putc(',', f);
            emit_value(f, em, &em->cols[i], e);
        }
        putc('\n', f);
        return;
    }
    putc('{', f);
    bool first = true;
    for (int i = 0; i < em->ncols; i++) {
        const EmitCol *c = &em->cols[i];
        if (!emit_present(em, c, e)) continue;
        if (!first) putc(',', f);
        first = false;
        json_cstr(f, c->name);
        putc(':', f);
        emit_value(f, em, c, e);
    }
    fputs("}\n", f);
}

uint32_t *events_in_time_order(const Store *s, const uint64_t *sel, size_t *n)
{
    size_t nw = (s->n + 63) / 64, nsel = sel ? bitmap_count(sel, nw) : s->n;
    uint32_t *v = xmalloc_big((nsel + 1) * sizeof(uint32_t));
    size_t k = 0;
    for (size_t w = 0; w < nw; w++) {
        uint64_t x = sel ? sel[w] : (w + 1 < nw || s->n % 64 == 0 ? ~0ULL : (1ULL << (s->n % 64)) - 1);
        while (x) {
            v[k++] = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(x));
            x &= x - 1;
        }
    }
    if (!events_sorted(v, k, s->ts, s->dur)) {
        uint32_t *tmp = xmalloc_big((k + 1) * sizeof(uint32_t));
        sort_events(v, tmp, k, s->ts, s->dur);
        xfree_big(tmp, (k + 1) * sizeof(uint32_t));
    }
    *n = k;
    return v;
}
