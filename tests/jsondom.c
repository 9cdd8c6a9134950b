/*
 * jsondom.c — a small JSON DOM for tests; see jsondom.h.
 */
#include "jsondom.h"
#include "base/util.h" /* UTF-8 helpers shared with the loader */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- memory ---------------------------------------------------------- */

/* allocation: util.h (out of memory is fatal) */
static void *jd_alloc(size_t n) { return xcalloc(1, n); }
#define jd_realloc xrealloc
#define jd_strndup xstrndup

static jd_node *node_new(jd_type t)
{
    jd_node *v = jd_alloc(sizeof *v);
    v->type = t;
    return v;
}

void jd_free(jd_node *v)
{
    if (!v) return;
    for (size_t i = 0; i < v->n; i++) {
        jd_free(v->kids[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->kids);
    free(v->keys);
    free(v->keylens);
    free(v->text);
    free(v);
}

static void add_kid(jd_node *v, const char *key, size_t keylen, jd_node *kid)
{
    if ((v->n & (v->n - 1)) == 0) { /* grow at powers of two */
        size_t nc = v->n ? v->n * 2 : 4;
        v->kids = jd_realloc(v->kids, nc * sizeof *v->kids);
        if (v->type == JD_OBJECT) {
            v->keys = jd_realloc(v->keys, nc * sizeof *v->keys);
            v->keylens = jd_realloc(v->keylens, nc * sizeof *v->keylens);
        }
    }
    v->kids[v->n] = kid;
    if (v->type == JD_OBJECT) {
        v->keys[v->n] = jd_strndup(key, keylen);
        v->keylens[v->n] = keylen;
    }
    v->n++;
}

jd_node *jd_clone(const jd_node *v)
{
    if (!v) return NULL;
    jd_node *c = node_new(v->type);
    c->is_int = v->is_int;
    c->ival = v->ival;
    c->num = v->num;
    c->len = v->len;
    if (v->text) c->text = jd_strndup(v->text, v->len);
    for (size_t i = 0; i < v->n; i++)
        add_kid(c, v->keys ? v->keys[i] : NULL, v->keylens ? v->keylens[i] : 0, jd_clone(v->kids[i]));
    return c;
}

/* ---- parser ---------------------------------------------------------- */

typedef struct {
    const char *s, *p, *e;
    char *err;
    size_t errsz;
    bool failed;
} Parser;

static bool perr(Parser *P, const char *fmt, ...)
{
    if (P->failed) return false;
    P->failed = true;
    if (P->err && P->errsz) {
        char msg[200];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        snprintf(P->err, P->errsz, "invalid JSON at byte %zu: %s", (size_t)(P->p - P->s), msg);
    }
    return false;
}

static void ws(Parser *P)
{
    while (P->p < P->e && (*P->p == ' ' || *P->p == '\t' || *P->p == '\n' || *P->p == '\r')) P->p++;
}

static bool hex4(Parser *P, unsigned *out)
{
    if (P->e - P->p < 4) return perr(P, "short \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hex_digit(P->p[i]);
        if (h < 0) return perr(P, "bad hex digit in \\u escape");
        v = v * 16 + (unsigned)h;
    }
    P->p += 4;
    *out = v;
    return true;
}

/* at the opening quote; returns the decoded bytes (allocated) */
static char *parse_str(Parser *P, size_t *outlen)
{
    P->p++;
    size_t cap = 32, n = 0;
    char *o = jd_alloc(cap);
    for (;;) {
        if (P->p >= P->e) {
            perr(P, "unterminated string");
            free(o);
            return NULL;
        }
        if (n + 8 > cap) {
            cap *= 2;
            o = jd_realloc(o, cap);
        }
        unsigned char c = (unsigned char)*P->p;
        if (c == '"') {
            P->p++;
            o[n] = 0;
            *outlen = n;
            return o;
        }
        if (c < 0x20) {
            perr(P, "control character 0x%02x in string", c);
            free(o);
            return NULL;
        }
        if (c != '\\') {
            size_t l = utf8_seq_len((const unsigned char *)P->p, (size_t)(P->e - P->p));
            if (!l) {
                perr(P, "invalid UTF-8 in string");
                free(o);
                return NULL;
            }
            memcpy(o + n, P->p, l);
            n += l;
            P->p += l;
            continue;
        }
        P->p++;
        if (P->p >= P->e) {
            perr(P, "unterminated string");
            free(o);
            return NULL;
        }
        char x = *P->p++;
        unsigned cp;
        switch (x) {
        case '"': o[n++] = '"'; break;
        case '\\': o[n++] = '\\'; break;
        case '/': o[n++] = '/'; break;
        case 'b': o[n++] = '\b'; break;
        case 'f': o[n++] = '\f'; break;
        case 'n': o[n++] = '\n'; break;
        case 'r': o[n++] = '\r'; break;
        case 't': o[n++] = '\t'; break;
        case 'u':
            if (!hex4(P, &cp)) {
                free(o);
                return NULL;
            }
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                unsigned lo;
                if (P->e - P->p < 2 || P->p[0] != '\\' || P->p[1] != 'u') {
                    perr(P, "unpaired high surrogate");
                    free(o);
                    return NULL;
                }
                P->p += 2;
                if (!hex4(P, &lo)) {
                    free(o);
                    return NULL;
                }
                if (lo < 0xDC00 || lo > 0xDFFF) {
                    perr(P, "high surrogate not followed by a low one");
                    free(o);
                    return NULL;
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                perr(P, "unpaired low surrogate");
                free(o);
                return NULL;
            }
            n += utf8_put(o + n, cp);
            break;
        default:
            P->p--;
            perr(P, "bad escape \\%c", x);
            free(o);
            return NULL;
        }
    }
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static jd_node *parse_num(Parser *P)
{
    const char *s = P->p;
    bool integral = true;
    if (P->p < P->e && *P->p == '-') P->p++;
    if (P->p >= P->e) return perr(P, "bad number"), NULL;
    if (*P->p == '0') {
        P->p++;
    } else if (*P->p >= '1' && *P->p <= '9') {
        while (P->p < P->e && is_digit(*P->p)) P->p++;
    } else {
        return perr(P, "unexpected character '%c'", *P->p), NULL;
    }
    if (P->p < P->e && *P->p == '.') {
        integral = false;
        P->p++;
        if (P->p >= P->e || !is_digit(*P->p)) return perr(P, "bad number: digits must follow '.'"), NULL;
        while (P->p < P->e && is_digit(*P->p)) P->p++;
    }
    if (P->p < P->e && (*P->p == 'e' || *P->p == 'E')) {
        integral = false;
        P->p++;
        if (P->p < P->e && (*P->p == '+' || *P->p == '-')) P->p++;
        if (P->p >= P->e || !is_digit(*P->p)) return perr(P, "bad number: digits must follow the exponent"), NULL;
        while (P->p < P->e && is_digit(*P->p)) P->p++;
    }
    jd_node *v = node_new(JD_NUMBER);
    v->len = (size_t)(P->p - s);
    v->text = jd_strndup(s, v->len);
    v->num = strtod(v->text, NULL);
    if (integral) {
        errno = 0;
        char *end;
        long long ll = strtoll(v->text, &end, 10);
        if (errno == 0 && *end == 0) {
            v->is_int = true;
            v->ival = (int64_t)ll;
        }
    }
    return v;
}

static jd_node *parse_value(Parser *P, int depth);

static jd_node *parse_container(Parser *P, int depth)
{
    bool obj = *P->p == '{';
    char close = obj ? '}' : ']';
    jd_node *v = node_new(obj ? JD_OBJECT : JD_ARRAY);
    P->p++;
    ws(P);
    if (P->p < P->e && *P->p == close) {
        P->p++;
        return v;
    }
    for (;;) {
        char *key = NULL;
        size_t keylen = 0;
        if (obj) {
            if (P->p >= P->e || *P->p != '"') {
                perr(P, "expected a member name string");
                jd_free(v);
                return NULL;
            }
            key = parse_str(P, &keylen);
            if (!key) {
                jd_free(v);
                return NULL;
            }
            ws(P);
            if (P->p >= P->e || *P->p != ':') {
                free(key);
                perr(P, "expected ':'");
                jd_free(v);
                return NULL;
            }
            P->p++;
        }
        jd_node *kid = parse_value(P, depth + 1);
        if (!kid) {
            free(key);
            jd_free(v);
            return NULL;
        }
        add_kid(v, key, keylen, kid);
        free(key);
        ws(P);
        if (P->p < P->e && *P->p == ',') {
            P->p++;
            ws(P);
            continue;
        }
        if (P->p < P->e && *P->p == close) {
            P->p++;
            return v;
        }
        perr(P, obj ? "expected ',' or '}'" : "expected ',' or ']'");
        jd_free(v);
        return NULL;
    }
}

static jd_node *parse_value(Parser *P, int depth)
{
    ws(P);
    if (depth > 200) return perr(P, "nesting too deep"), NULL;
    if (P->p >= P->e) return perr(P, "expected a value, found the end"), NULL;
    switch (*P->p) {
    case '{':
    case '[': return parse_container(P, depth);
    case '"': {
        size_t n;
        char *s = parse_str(P, &n);
        if (!s) return NULL;
        jd_node *v = node_new(JD_STRING);
        v->text = s;
        v->len = n;
        return v;
    }
    case 't':
        if (P->e - P->p >= 4 && !memcmp(P->p, "true", 4)) {
            P->p += 4;
            return node_new(JD_TRUE);
        }
        break;
    case 'f':
        if (P->e - P->p >= 5 && !memcmp(P->p, "false", 5)) {
            P->p += 5;
            return node_new(JD_FALSE);
        }
        break;
    case 'n':
        if (P->e - P->p >= 4 && !memcmp(P->p, "null", 4)) {
            P->p += 4;
            return node_new(JD_NULL);
        }
        break;
    default: return parse_num(P);
    }
    return perr(P, "unexpected character '%c'", *P->p), NULL;
}

jd_node *jd_parse(const char *s, size_t n, char *err, size_t errsz)
{
    Parser P = {s, s, s + n, err, errsz, false};
    if (err && errsz) err[0] = 0;
    jd_node *v = parse_value(&P, 0);
    if (!v) return NULL;
    ws(&P);
    if (P.p != P.e) {
        perr(&P, "unexpected data after the value");
        jd_free(v);
        return NULL;
    }
    return v;
}

/* ---- comparison ------------------------------------------------------ */

const jd_node *jd_get(const jd_node *obj, const char *key)
{
    if (!obj || obj->type != JD_OBJECT) return NULL;
    size_t kl = strlen(key);
    for (size_t i = 0; i < obj->n; i++)
        if (obj->keylens[i] == kl && !memcmp(obj->keys[i], key, kl)) return obj->kids[i];
    return NULL;
}

static const jd_node *get_n(const jd_node *obj, const char *key, size_t kl)
{
    for (size_t i = 0; i < obj->n; i++)
        if (obj->keylens[i] == kl && !memcmp(obj->keys[i], key, kl)) return obj->kids[i];
    return NULL;
}

bool jd_num_cmp(const jd_node *a, const jd_node *b, int *res)
{
    if (!a || !b || a->type != JD_NUMBER || b->type != JD_NUMBER) return false;
    if (a->is_int && b->is_int) {
        *res = a->ival < b->ival ? -1 : a->ival > b->ival;
        return true;
    }
    long double x = a->is_int ? (long double)a->ival : (long double)a->num;
    long double y = b->is_int ? (long double)b->ival : (long double)b->num;
    *res = x < y ? -1 : x > y;
    return true;
}

bool jd_equal(const jd_node *a, const jd_node *b)
{
    if (!a || !b) return a == b;
    if (a->type != b->type) return false;
    switch (a->type) {
    case JD_NULL:
    case JD_TRUE:
    case JD_FALSE: return true;
    case JD_NUMBER: {
        int r;
        return jd_num_cmp(a, b, &r) && r == 0;
    }
    case JD_STRING: return a->len == b->len && !memcmp(a->text, b->text, a->len);
    case JD_ARRAY:
        if (a->n != b->n) return false;
        for (size_t i = 0; i < a->n; i++)
            if (!jd_equal(a->kids[i], b->kids[i])) return false;
        return true;
    case JD_OBJECT:
        if (a->n != b->n) return false;
        for (size_t i = 0; i < a->n; i++) {
            const jd_node *o = get_n(b, a->keys[i], a->keylens[i]);
            if (!o || !jd_equal(a->kids[i], o)) return false;
        }
        return true;
    }
    return false;
}

const char *jd_type_name(jd_type t)
{
    switch (t) {
    case JD_NULL: return "null";
    case JD_FALSE:
    case JD_TRUE: return "boolean";
    case JD_NUMBER: return "number";
    case JD_STRING: return "string";
    case JD_ARRAY: return "array";
    case JD_OBJECT: return "object";
    }
    return "?";
}

/* ---- printing -------------------------------------------------------- */

typedef struct {
    char *b;
    size_t n, cap;
} Buf;

static void bput(Buf *B, const char *s, size_t n)
{
    if (B->n + n + 1 > B->cap) {
        size_t nc = B->cap ? B->cap * 2 : 128;
        while (nc < B->n + n + 1) nc *= 2;
        B->b = jd_realloc(B->b, nc);
        B->cap = nc;
    }
    memcpy(B->b + B->n, s, n);
    B->n += n;
    B->b[B->n] = 0;
}

static void bputs(Buf *B, const char *s) { bput(B, s, strlen(s)); }

static void dump_str(Buf *B, const char *s, size_t n)
{
    bputs(B, "\"");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        if (c == '"') bputs(B, "\\\"");
        else if (c == '\\') bputs(B, "\\\\");
        else if (c == '\n') bputs(B, "\\n");
        else if (c == '\r') bputs(B, "\\r");
        else if (c == '\t') bputs(B, "\\t");
        else if (c < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            bputs(B, esc);
        } else bput(B, (const char *)&c, 1);
    }
    bputs(B, "\"");
}

static void dump(Buf *B, const jd_node *v)
{
    switch (v->type) {
    case JD_NULL: bputs(B, "null"); break;
    case JD_TRUE: bputs(B, "true"); break;
    case JD_FALSE: bputs(B, "false"); break;
    case JD_NUMBER: bput(B, v->text, v->len); break;
    case JD_STRING: dump_str(B, v->text, v->len); break;
    case JD_ARRAY:
        bputs(B, "[");
        for (size_t i = 0; i < v->n; i++) {
            if (i) bputs(B, ",");
            dump(B, v->kids[i]);
        }
        bputs(B, "]");
        break;
    case JD_OBJECT:
        bputs(B, "{");
        for (size_t i = 0; i < v->n; i++) {
            if (i) bputs(B, ",");
            dump_str(B, v->keys[i], v->keylens[i]);
            bputs(B, ":");
            dump(B, v->kids[i]);
        }
        bputs(B, "}");
        break;
    }
}

char *jd_dump(const jd_node *v, size_t max)
{
    Buf B = {0};
    if (!v) bputs(&B, "(nothing)");
    else dump(&B, v);
    if (max && B.n > max) {
        B.n = max;
        B.b[B.n] = 0;
        bputs(&B, "...");
    }
    if (!B.b) bputs(&B, "");
    return B.b;
}

/* ---- paths ----------------------------------------------------------- */

static bool qerr(char *err, size_t errsz, const char *fmt, ...)
{
    if (err && errsz) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errsz, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* a JSON string literal at *pp (the opening quote); decoded into a new
 * buffer */
static char *path_qstr(const char **pp, size_t *len, char *err, size_t errsz)
{
    const char *p = *pp + 1;
    bool esc = false;
    while (*p && (esc || *p != '"')) {
        esc = !esc && *p == '\\';
        p++;
    }
    if (!*p) {
        qerr(err, errsz, "unterminated string in path");
        return NULL;
    }
    char perrbuf[200];
    jd_node *v = jd_parse(*pp, (size_t)(p + 1 - *pp), perrbuf, sizeof perrbuf);
    if (!v) {
        qerr(err, errsz, "bad string in path: %s", perrbuf);
        return NULL;
    }
    char *s = v->text;
    *len = v->len;
    v->text = NULL;
    jd_free(v);
    *pp = p + 1;
    return s;
}

static bool name_char(char c) { return c && c != '.' && c != '[' && c != ']' && c != '(' && c != ')' && c != ' '; }

/* a filter value: a JSON literal, or else the bare text as a string */
static jd_node *filter_value(const char *s, size_t n)
{
    jd_node *v = jd_parse(s, n, NULL, 0);
    if (v) return v;
    v = node_new(JD_STRING);
    v->text = jd_strndup(s, n);
    v->len = n;
    return v;
}

/* [cond,cond...] at p (after '['): does element el match? Sets *end past
 * the ']'. */
static int filter_match(const char *p, const jd_node *el, const char **end, char *err, size_t errsz)
{
    bool all = true;
    for (;;) {
        const char *k0 = p;
        while (*p && *p != '=' && *p != ']') p++;
        if (*p != '=') return qerr(err, errsz, "expected key=value in [...]"), -1;
        size_t kl = (size_t)(p - k0);
        p++;
        const char *v0 = p;
        bool inq = false, esc = false;
        int depth = 0;
        while (*p) {
            if (inq) {
                if (esc) esc = false;
                else if (*p == '\\') esc = true;
                else if (*p == '"') inq = false;
            } else if (*p == '"') {
                inq = true;
            } else if (*p == '[' || *p == '{') {
                depth++;
            } else if (*p == '}' || (*p == ']' && depth > 0)) {
                depth--;
            } else if (depth == 0 && (*p == ',' || *p == ']')) {
                break;
            }
            p++;
        }
        if (!*p) return qerr(err, errsz, "unterminated [...] in path"), -1;
        jd_node *want = filter_value(v0, (size_t)(p - v0));
        const jd_node *have = el && el->type == JD_OBJECT ? get_n(el, k0, kl) : NULL;
        if (!have || !jd_equal(have, want)) all = false;
        jd_free(want);
        if (*p == ']') {
            *end = p + 1;
            return all;
        }
        p++;
    }
}

const jd_node *jd_path(const jd_node *root, const char *path, char *err, size_t errsz)
{
    const char *p = path;
    const jd_node *v = root;
    if (*p != '.') return qerr(err, errsz, "a path starts with '.': %s", path), NULL;
    /* "." alone, or ".name", ".[...]", ."quoted" */
    bool first = true;
    while (*p) {
        const char *step = p;
        if (*p == '.') {
            p++;
            if (!*p && first) return v;
            if (*p == '[') continue; /* .[0] */
            char *key;
            size_t kl;
            if (*p == '"') {
                key = path_qstr(&p, &kl, err, errsz);
                if (!key) return NULL;
            } else {
                const char *k0 = p;
                while (name_char(*p)) p++;
                if (p == k0) return qerr(err, errsz, "empty name in path at '%s'", step), NULL;
                kl = (size_t)(p - k0);
                key = jd_strndup(k0, kl);
            }
            if (v->type != JD_OBJECT) {
                qerr(err, errsz, "%.*s: not an object (%s)", (int)(p - path), path, jd_type_name(v->type));
                free(key);
                return NULL;
            }
            const jd_node *nx = get_n(v, key, kl);
            free(key);
            if (!nx) return qerr(err, errsz, "%.*s: no such member", (int)(p - path), path), NULL;
            v = nx;
        } else if (*p == '[') {
            p++;
            const char *q = p;
            if (*q == '-') q++;
            bool numeric = *q >= '0' && *q <= '9';
            while (*q >= '0' && *q <= '9') q++;
            if (numeric && *q == ']') {
                long long i = strtoll(p, NULL, 10);
                p = q + 1;
                if (v->type != JD_ARRAY)
                    return qerr(err, errsz, "%.*s: not an array (%s)", (int)(p - path), path, jd_type_name(v->type)),
                           NULL;
                if (i < 0) i += (long long)v->n;
                if (i < 0 || (size_t)i >= v->n)
                    return qerr(err, errsz, "%.*s: index out of range (length %zu)", (int)(p - path), path, v->n), NULL;
                v = v->kids[i];
            } else if (*p == '"') {
                size_t kl;
                char *key = path_qstr(&p, &kl, err, errsz);
                if (!key) return NULL;
                if (*p != ']') {
                    free(key);
                    return qerr(err, errsz, "expected ']' in path"), NULL;
                }
                p++;
                if (v->type != JD_OBJECT) {
                    free(key);
                    return qerr(err, errsz, "%.*s: not an object (%s)", (int)(p - path), path, jd_type_name(v->type)),
                           NULL;
                }
                const jd_node *nx = get_n(v, key, kl);
                free(key);
                if (!nx) return qerr(err, errsz, "%.*s: no such member", (int)(p - path), path), NULL;
                v = nx;
            } else {
                /* a filter: the first element that matches */
                if (v->type != JD_ARRAY)
                    return qerr(err, errsz, "%s: filter on a %s, not an array", path, jd_type_name(v->type)), NULL;
                const jd_node *found = NULL;
                const char *end = NULL;
                if (v->n == 0) {
                    if (filter_match(p, NULL, &end, err, errsz) < 0) return NULL;
                }
                for (size_t i = 0; i < v->n && !found; i++) {
                    int m = filter_match(p, v->kids[i], &end, err, errsz);
                    if (m < 0) return NULL;
                    if (m) found = v->kids[i];
                }
                p = end;
                if (!found) return qerr(err, errsz, "%.*s: no element matches", (int)(p - path), path), NULL;
                v = found;
            }
        } else {
            return qerr(err, errsz, "unexpected '%c' in path %s", *p, path), NULL;
        }
        first = false;
    }
    return v;
}

jd_node *jd_query(const jd_node *root, const char *expr, char *err, size_t errsz)
{
    static const char *const fns[] = {"len(", "has(", "type(", NULL};
    for (int f = 0; fns[f]; f++) {
        size_t fl = strlen(fns[f]);
        if (strncmp(expr, fns[f], fl)) continue;
        size_t el = strlen(expr);
        if (el < fl + 1 || expr[el - 1] != ')') return qerr(err, errsz, "missing ')' in %s", expr), NULL;
        char *inner = jd_strndup(expr + fl, el - fl - 1);
        const jd_node *v = jd_path(root, inner, err, errsz);
        free(inner);
        jd_node *r;
        if (f == 1) return node_new(v ? JD_TRUE : JD_FALSE);
        if (!v) return NULL;
        if (f == 2) {
            r = node_new(JD_STRING);
            r->text = jd_strndup(jd_type_name(v->type), strlen(jd_type_name(v->type)));
            r->len = strlen(r->text);
            return r;
        }
        size_t len;
        if (v->type == JD_ARRAY || v->type == JD_OBJECT) len = v->n;
        else if (v->type == JD_STRING) len = v->len;
        else return qerr(err, errsz, "len() of a %s", jd_type_name(v->type)), NULL;
        r = node_new(JD_NUMBER);
        char num[32];
        snprintf(num, sizeof num, "%zu", len);
        r->text = jd_strndup(num, strlen(num));
        r->len = strlen(num);
        r->is_int = true;
        r->ival = (int64_t)len;
        r->num = (double)len;
        return r;
    }
    const jd_node *v = jd_path(root, expr, err, errsz);
    return v ? jd_clone(v) : NULL;
}
