/*
 * parse.c — lexer and Pratt parser of the filter language; see ast.h.
 *
 * Grammar (lowest to highest binding):
 *   filter  := expr ('|' expr)*                    stages
 *   expr    := expr ('||' | 'or') expr
 *            | expr ('&&' | 'and') expr
 *            | ('!' | 'not') expr                  looser than comparisons
 *            | sum cmp sum                         == != < <= > >= =~ !~
 *            | sum 'in' ('[' expr, ... ']' | sum '..' sum)
 *            | sum
 *   sum     := sum ('+' | '-') product | product
 *   product := product ('*' | '/' | '%') unary | unary
 *   unary   := '-' unary | primary
 *   primary := number[unit] | string | /regex/flags | true | false
 *            | ident | ident '(' args ')' | '(' expr ')' | '[' list ']'
 * A '/' starts a regex where a value is expected, and divides after one.
 */
#include "ast.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const char *const TOK_NAMES[T__N] = {
    "end of filter", "number", "number", "string", "regex", "name", "'('", "')'", "'['", "']'", "','", "'..'",
    "'|'", "'||'", "'&&'", "'!'", "'=='", "'!='", "'<'", "'<='", "'>'", "'>='", "'=~'", "'!~'", "'in'", "'+'",
    "'-'", "'*'", "'/'", "'%'", "'true'", "'false'",
};

const char *tok_name(int k) { return k >= 0 && k < T__N ? TOK_NAMES[k] : "?"; }

typedef struct {
    const char *s;
    int n, pos;
    Token tok;  /* the current token */
    int prev_k; /* kind of the previous token, for '/' */
    int depth;  /* of parse_expr calls */
    SrcError *err;
    bool failed;
} P;

static bool perr(P *p, int start, int end, const char *fmt, ...) PRINTF_LIKE(4, 5);
static bool perr(P *p, int start, int end, const char *fmt, ...)
{
    if (p->failed) return false;
    p->failed = true;
    p->err->start = start;
    p->err->end = end > start ? end : start + 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
    va_end(ap);
    return false;
}

static bool value_ends(int k)
{
    return k == T_INT || k == T_FLT || k == T_STR || k == T_REGEX || k == T_IDENT || k == T_RPAREN ||
           k == T_RBRACK || k == T_TRUE || k == T_FALSE;
}

static bool ident_start(int c) { return isalpha(c) || c == '_'; }
static bool ident_char(int c) { return isalnum(c) || c == '_'; }

/* A number with an optional unit: exact for integers and decimals. */
static bool lex_number(P *p, Token *t)
{
    const char *s = p->s;
    int i = p->pos;
    int64_t mant = 0;
    int frac = 0;
    bool isflt = false, overflow = false;
    while (i < p->n && isdigit((unsigned char)s[i])) {
        int d = s[i] - '0';
        if (mant > (INT64_MAX - d) / 10) overflow = true;
        else mant = mant * 10 + d;
        i++;
    }
    if (i + 1 < p->n && s[i] == '.' && isdigit((unsigned char)s[i + 1])) {
        isflt = true;
        i++;
        while (i < p->n && isdigit((unsigned char)s[i])) {
            int d = s[i] - '0';
            if (mant <= (INT64_MAX - d) / 10) {
                mant = mant * 10 + d;
                frac++;
            }
            i++;
        }
    }
    int exp10 = 0;
    if (i < p->n && (s[i] == 'e' || s[i] == 'E') && i + 1 < p->n &&
        (isdigit((unsigned char)s[i + 1]) ||
         ((s[i + 1] == '-' || s[i + 1] == '+') && i + 2 < p->n && isdigit((unsigned char)s[i + 2])))) {
        isflt = true;
        i++;
        int sign = 1;
        if (s[i] == '-' || s[i] == '+') sign = s[i++] == '-' ? -1 : 1;
        int e = 0;
        while (i < p->n && isdigit((unsigned char)s[i])) {
            if (e < 10000) e = e * 10 + (s[i] - '0');
            i++;
        }
        exp10 = sign * e;
    }
    if (overflow) return perr(p, p->pos, i, "number too large");
    /* unit suffix */
    int ustart = i;
    while (i < p->n && isalpha((unsigned char)s[i])) i++;
    int64_t iscale = 1;
    int unit = 0;
    if (i > ustart) {
        char u[8];
        int ul = i - ustart;
        if (ul >= (int)sizeof u) return perr(p, ustart, i, "unknown unit '%.*s'", ul, s + ustart);
        memcpy(u, s + ustart, (size_t)ul);
        u[ul] = 0;
        static const struct {
            const char *name;
            int64_t mul;
            int unit;
        } U[] = {{"ns", 1, UNIT_TIME},
                 {"us", 1000, UNIT_TIME},
                 {"ms", 1000000, UNIT_TIME},
                 {"s", 1000000000, UNIT_TIME},
                 {"B", 1, UNIT_SIZE},
                 {"KB", 1000, UNIT_SIZE},
                 {"MB", 1000000, UNIT_SIZE},
                 {"GB", 1000000000, UNIT_SIZE},
                 {"KiB", 1024, UNIT_SIZE},
                 {"MiB", 1048576, UNIT_SIZE},
                 {"GiB", 1073741824, UNIT_SIZE}};
        bool found = false;
        for (size_t k = 0; k < sizeof U / sizeof U[0]; k++)
            if (!strcmp(u, U[k].name)) {
                iscale = U[k].mul;
                unit = U[k].unit;
                found = true;
            }
        if (!found)
            return perr(p, ustart, i, "unknown unit '%s' (time: ns us ms s; size: B KB MB GB KiB MiB GiB)", u);
    }
    t->start = p->pos;
    t->end = i;
    t->unit = unit;
    if (!unit && isflt) {
        /* a plain decimal is a float */
        char buf[128];
        int nl = ustart - p->pos < 127 ? ustart - p->pos : 127;
        memcpy(buf, s + p->pos, (size_t)nl);
        buf[nl] = 0;
        t->k = T_FLT;
        t->fval = strtod(buf, NULL);
        p->pos = i;
        return true;
    }
    /* an integer, or a number with a unit: exactly mant * 10^(exp10 - frac)
     * * unit, rounded to the nearest integer (1.5us = 1500) */
    typedef __int128 i128;
    i128 v = (i128)mant * iscale;
    int e = exp10 - frac;
    for (; e > 0; e--) {
        v *= 10;
        if (v > (i128)INT64_MAX) return perr(p, t->start, i, "number too large");
    }
    if (e < 0) {
        i128 d = 1;
        for (; e < 0 && d < (i128)1000000000000000000LL * 1000; e++) d *= 10;
        i128 q = v / d, r = v % d;
        if (r * 2 >= d) q++;
        v = q;
    }
    if (v > (i128)INT64_MAX) return perr(p, t->start, i, "number too large");
    t->k = T_INT;
    t->ival = (int64_t)v;
    p->pos = i;
    return true;
}

static bool lex_string(P *p, Token *t)
{
    const char *s = p->s;
    char q = s[p->pos];
    int i = p->pos + 1;
    /* The decoded string is never longer than its source text (an escape
     * of 2, 4 or 6 characters gives 1 to 3 bytes), so the buffer is the
     * span up to the closing quote, found the way the loop below walks:
     * linear in the literal, not in the rest of the filter (a list of
     * 12,000 strings used to allocate 4x the filter text for each). */
    int close = i;
    while (close < p->n && s[close] != q) close += s[close] == '\\' ? 2 : 1;
    if (close > p->n) close = p->n;
    char *o = xmalloc((size_t)(close - i) + 1);
    size_t on = 0;
    for (;;) {
        if (i >= p->n) {
            free(o);
            return perr(p, p->pos, p->pos + 1, "unterminated string (no closing %c)", q);
        }
        char c = s[i];
        if (c == q) break;
        if (c != '\\') {
            o[on++] = c;
            i++;
            continue;
        }
        if (i + 1 >= p->n) {
            free(o);
            return perr(p, p->pos, p->pos + 1, "unterminated string (no closing %c)", q);
        }
        char x = s[i + 1];
        int esc = i;
        i += 2;
        switch (x) {
        case 'n': o[on++] = '\n'; break;
        case 't': o[on++] = '\t'; break;
        case 'r': o[on++] = '\r'; break;
        case '0': o[on++] = '\0'; break;
        case '\\': o[on++] = '\\'; break;
        case '"': o[on++] = '"'; break;
        case '\'': o[on++] = '\''; break;
        case 'x': {
            int h1 = i < p->n ? hex_digit(s[i]) : -1, h2 = i + 1 < p->n ? hex_digit(s[i + 1]) : -1;
            if (h1 < 0 || h2 < 0) {
                free(o);
                return perr(p, esc, i, "bad \\x escape (two hex digits expected)");
            }
            o[on++] = (char)(h1 * 16 + h2);
            i += 2;
            break;
        }
        case 'u': {
            unsigned cp = 0;
            for (int k = 0; k < 4; k++) {
                int h = i + k < p->n ? hex_digit(s[i + k]) : -1;
                if (h < 0) {
                    free(o);
                    return perr(p, esc, i + k, "bad \\u escape (four hex digits expected)");
                }
                cp = cp * 16 + (unsigned)h;
            }
            i += 4;
            if (cp >= 0xD800 && cp <= 0xDFFF) {
                free(o);
                return perr(p, esc, i, "\\u escape of a surrogate");
            }
            on += utf8_put(o + on, cp);
            break;
        }
        default: free(o); return perr(p, esc, i, "unknown escape '\\%c'", x);
        }
    }
    t->k = T_STR;
    t->str = o;
    t->slen = on;
    o[on] = 0;
    t->start = p->pos;
    t->end = i + 1;
    if (utf8_invalid_at((const unsigned char *)o, on) != on) {
        free(o);
        t->str = NULL;
        return perr(p, t->start, t->end, "string is not valid UTF-8");
    }
    p->pos = i + 1;
    return true;
}

static bool lex_regex(P *p, Token *t)
{
    const char *s = p->s;
    int i = p->pos + 1;
    while (i < p->n && s[i] != '/') {
        if (s[i] == '\\' && i + 1 < p->n) i++;
        i++;
    }
    if (i >= p->n) return perr(p, p->pos, p->pos + 1, "unterminated regex (no closing /)");
    t->k = T_REGEX;
    t->start = p->pos;
    t->regex_at = p->pos + 1;
    t->str = xstrndup(s + p->pos + 1, (size_t)(i - p->pos - 1));
    t->slen = (size_t)(i - p->pos - 1);
    i++;
    int flags = 0;
    while (i < p->n && isalpha((unsigned char)s[i])) {
        switch (s[i]) {
        case 'i': flags |= 1; break;
        case 'x': flags |= 2; break;
        case 's': flags |= 4; break;
        case 'm': flags |= 8; break;
        default:
            free(t->str);
            t->str = NULL;
            return perr(p, i, i + 1, "unknown regex flag '%c' (i, x, s, m)", s[i]);
        }
        i++;
    }
    t->ival = flags;
    t->end = i;
    p->pos = i;
    return true;
}

static bool next(P *p)
{
    Token *t = &p->tok;
    if (t->k != T_EOF || t->str) p->prev_k = t->k;
    memset(t, 0, sizeof *t);
    const char *s = p->s;
    while (p->pos < p->n && isspace((unsigned char)s[p->pos])) p->pos++;
    t->start = t->end = p->pos;
    if (p->pos >= p->n) {
        t->k = T_EOF;
        return true;
    }
    char c = s[p->pos], d = p->pos + 1 < p->n ? s[p->pos + 1] : 0;
    if (isdigit((unsigned char)c)) return lex_number(p, t);
    if (c == '"' || c == '\'') return lex_string(p, t);
    if (c == '/' && !value_ends(p->prev_k)) return lex_regex(p, t);
    if (ident_start((unsigned char)c)) {
        int i = p->pos;
        while (i < p->n && (ident_char((unsigned char)s[i]) ||
                            (s[i] == '.' && i + 1 < p->n && ident_char((unsigned char)s[i + 1]) && s[i - 1] != '.')))
            i++;
        size_t len = (size_t)(i - p->pos);
        t->start = p->pos;
        t->end = i;
        p->pos = i;
        static const struct {
            const char *w;
            TokKind k;
        } KW[] = {{"and", T_AND}, {"or", T_OR}, {"not", T_NOT}, {"in", T_IN}, {"true", T_TRUE}, {"false", T_FALSE}};
        for (size_t k = 0; k < sizeof KW / sizeof KW[0]; k++)
            if (strlen(KW[k].w) == len && !memcmp(KW[k].w, s + t->start, len)) {
                t->k = KW[k].k;
                return true;
            }
        t->k = T_IDENT;
        t->str = xstrndup(s + t->start, len);
        t->slen = len;
        return true;
    }
    int len = 1;
    TokKind k;
    switch (c) {
    case '(': k = T_LPAREN; break;
    case ')': k = T_RPAREN; break;
    case '[': k = T_LBRACK; break;
    case ']': k = T_RBRACK; break;
    case ',': k = T_COMMA; break;
    case '+': k = T_PLUS; break;
    case '-': k = T_MINUS; break;
    case '*': k = T_STAR; break;
    case '/': k = T_SLASH; break;
    case '%': k = T_PERCENT; break;
    case '.':
        if (d != '.') return perr(p, p->pos, p->pos + 1, "unexpected '.'");
        k = T_DOTDOT;
        len = 2;
        break;
    case '|':
        if (d == '|') k = T_OR, len = 2;
        else k = T_PIPE;
        break;
    case '&':
        if (d != '&') return perr(p, p->pos, p->pos + 1, "unexpected '&' (use && or and)");
        k = T_AND;
        len = 2;
        break;
    case '!':
        if (d == '=') k = T_NE, len = 2;
        else if (d == '~') k = T_NMATCH, len = 2;
        else k = T_NOT;
        break;
    case '=':
        if (d == '=') k = T_EQ, len = 2;
        else if (d == '~') k = T_MATCH, len = 2;
        else return perr(p, p->pos, p->pos + 1, "unexpected '=' (use == to compare)");
        break;
    case '<':
        if (d == '=') k = T_LE, len = 2;
        else k = T_LT;
        break;
    case '>':
        if (d == '=') k = T_GE, len = 2;
        else k = T_GT;
        break;
    default:
        if ((unsigned char)c >= 0x80) {
            size_t l = utf8_seq_len((const unsigned char *)s + p->pos, (size_t)(p->n - p->pos));
            return perr(p, p->pos, p->pos + (int)(l ? l : 1), "unexpected character '%.*s'", (int)(l ? l : 1),
                        s + p->pos);
        }
        if ((unsigned char)c < 0x20 || c == 0x7F)
            return perr(p, p->pos, p->pos + 1, "unexpected control character (byte 0x%02X)", (unsigned char)c);
        return perr(p, p->pos, p->pos + 1, "unexpected character '%c'", c);
    }
    t->k = k;
    t->start = p->pos;
    t->end = p->pos + len;
    p->pos += len;
    return true;
}

Node *node_new(NodeKind k, int start, int end)
{
    Node *n = xcalloc(1, sizeof *n);
    n->k = k;
    n->start = start;
    n->end = end;
    n->field = -1;
    n->col = -1;
    n->func = -1;
    n->rx = -1;
    n->scope = -1;
    n->keycol = -1;
    n->height = 1;
    return n;
}

void node_add(Node *parent, Node *kid)
{
    parent->kids = xrealloc(parent->kids, ((size_t)parent->nkids + 1) * sizeof(Node *));
    parent->kids[parent->nkids++] = kid;
    if (kid->height + 1 > parent->height) parent->height = kid->height + 1;
}

void node_free(Node *n)
{
    if (!n) return;
    for (int i = 0; i < n->nkids; i++) node_free(n->kids[i]);
    free(n->kids);
    free(n->str);
    free(n);
}

/* take the current token's string */
static char *take_str(P *p)
{
    char *s = p->tok.str;
    p->tok.str = NULL;
    return s;
}

static Node *parse_expr(P *p, int minbp);

static bool expect(P *p, TokKind k, const char *what)
{
    if (p->tok.k != k) {
        if (p->tok.k == T_EOF) return perr(p, p->tok.start, p->tok.start + 1, "expected %s before the end of the filter", what);
        return perr(p, p->tok.start, p->tok.end, "expected %s, found %s", what, tok_name(p->tok.k));
    }
    return next(p);
}

/* the items of a list or the arguments of a call, from the token after the
 * opening bracket up to and including the closing one */
static void parse_items(P *p, Node *n, TokKind close, const char *what)
{
    if (p->tok.k != close) {
        for (;;) {
            Node *e = parse_expr(p, 0);
            if (!e) return;
            node_add(n, e);
            if (p->tok.k != T_COMMA) break;
            if (!next(p)) return;
        }
    }
    n->end = p->tok.end;
    expect(p, close, what);
}

static Node *parse_list(P *p)
{
    Node *n = node_new(N_LIST, p->tok.start, p->tok.end);
    if (next(p)) parse_items(p, n, T_RBRACK, "',' or ']'");
    return n;
}

static Node *parse_primary(P *p)
{
    Token t = p->tok;
    Node *n;
    switch (t.k) {
    case T_INT:
    case T_FLT:
        n = node_new(t.k == T_INT ? N_INT : N_FLT, t.start, t.end);
        n->ival = t.ival;
        n->fval = t.fval;
        n->op = t.unit; /* the unit it was written with, for the checker */
        next(p);
        return n;
    case T_STR:
        n = node_new(N_STR, t.start, t.end);
        n->slen = t.slen;
        n->str = take_str(p);
        next(p);
        return n;
    case T_REGEX:
        n = node_new(N_REGEX, t.start, t.end);
        n->slen = t.slen;
        n->ival = t.ival;
        n->regex_at = t.regex_at;
        n->str = take_str(p);
        next(p);
        return n;
    case T_TRUE:
    case T_FALSE:
        n = node_new(N_BOOL, t.start, t.end);
        n->ival = t.k == T_TRUE;
        next(p);
        return n;
    case T_IDENT: {
        char *name = take_str(p);
        next(p);
        if (p->tok.k == T_LPAREN) {
            n = node_new(N_CALL, t.start, t.end);
            n->str = name;
            n->slen = strlen(name);
            if (next(p)) parse_items(p, n, T_RPAREN, "',' or ')'");
            return n;
        }
        n = node_new(N_FIELD, t.start, t.end);
        n->str = name;
        n->slen = strlen(name);
        return n;
    }
    case T_LPAREN: {
        if (!next(p)) return NULL;
        Node *e = parse_expr(p, 0);
        if (!e) return NULL;
        if (p->tok.k != T_RPAREN) {
            node_free(e);
            if (p->tok.k == T_EOF)
                perr(p, t.start, t.end, "unclosed '(' (no matching ')')");
            else
                perr(p, p->tok.start, p->tok.end, "expected ')', found %s", tok_name(p->tok.k));
            return NULL;
        }
        /* the span includes the parentheses */
        e->start = t.start;
        e->end = p->tok.end;
        next(p);
        return e;
    }
    case T_LBRACK: return parse_list(p);
    case T_EOF: perr(p, t.start, t.start + 1, "expected a value before the end of the filter"); return NULL;
    default: perr(p, t.start, t.end, "expected a value, found %s", tok_name(t.k)); return NULL;
    }
}

static void infix_bp(int k, int *l, int *r)
{
    *l = *r = -1;
    switch (k) {
    case T_OR: *l = 1, *r = 2; break;
    case T_AND: *l = 3, *r = 4; break;
    case T_EQ:
    case T_NE:
    case T_LT:
    case T_LE:
    case T_GT:
    case T_GE:
    case T_MATCH:
    case T_NMATCH:
    case T_IN: *l = 7, *r = 8; break;
    case T_PLUS:
    case T_MINUS: *l = 9, *r = 10; break;
    case T_STAR:
    case T_SLASH:
    case T_PERCENT: *l = 11, *r = 12; break;
    default: break;
    }
}

static bool is_cmp(int k) { return k >= T_EQ && k <= T_IN; }

static Node *parse_expr_inner(P *p, int minbp);

/* every nesting (parentheses, operators, arguments) passes here */
static Node *parse_expr(P *p, int minbp)
{
    if (p->failed) return NULL;
    if (++p->depth > AST_MAX_HEIGHT) {
        perr(p, p->tok.start, p->tok.end, "filter nested too deeply (more than %d levels)", AST_MAX_HEIGHT);
        p->depth--;
        return NULL;
    }
    Node *n = parse_expr_inner(p, minbp);
    p->depth--;
    if (n && n->height > AST_MAX_HEIGHT) {
        perr(p, n->start, n->end, "filter nested too deeply (more than %d levels)", AST_MAX_HEIGHT);
        node_free(n);
        return NULL;
    }
    return n;
}

/* a && b && c ... (or ||) as a tree: operands v[lo..hi), ops[i] the span
 * of the operator between v[i] and v[i + 1]. Up to CHAIN_FOLD operands fold
 * to the left, as any other operator; a longer chain is split in halves
 * (the operators are associative and pure, and the compiler flattens the
 * chain again), so that a flat chain of thousands of terms is a tree of
 * logarithmic height, not thousands of levels of nesting. */
#define CHAIN_FOLD 32
static Node *chain_tree(Node **v, const int (*ops)[2], int lo, int hi, int op)
{
    if (hi - lo == 1) return v[lo];
    int mid = hi - lo <= CHAIN_FOLD ? hi - 1 : lo + (hi - lo) / 2;
    Node *l = chain_tree(v, ops, lo, mid, op), *r = chain_tree(v, ops, mid, hi, op);
    Node *b = node_new(N_BINARY, l->start, r->end);
    b->op = op;
    b->ival = ops[mid - 1][0]; /* the operator's own span, for messages */
    b->fval = ops[mid - 1][1];
    node_add(b, l);
    node_add(b, r);
    return b;
}

/* after lhs, the operator k (&& or ||, the current token): the rest of the
 * chain of k at this level; NULL (lhs freed) on an error */
static Node *parse_chain(P *p, Node *lhs, int k, int r)
{
    VEC(Node *) v = {0};
    VEC(int) ops = {0};
    VEC_PUSH(v, lhs);
    bool ok = true;
    while ((int)p->tok.k == k) {
        VEC_PUSH(ops, p->tok.start);
        VEC_PUSH(ops, p->tok.end);
        if (!next(p)) {
            ok = false;
            break;
        }
        Node *rhs = parse_expr(p, r);
        if (!rhs) {
            ok = false;
            break;
        }
        VEC_PUSH(v, rhs);
    }
    Node *t = NULL;
    if (ok) {
        t = chain_tree(v.v, (const int (*)[2])ops.v, 0, (int)v.len, k);
    } else {
        for (size_t i = 0; i < v.len; i++) node_free(v.v[i]);
    }
    VEC_FREE(v);
    VEC_FREE(ops);
    return t;
}

static Node *parse_expr_inner(P *p, int minbp)
{
    Node *lhs;
    Token t = p->tok;
    if (t.k == T_NOT) {
        if (!next(p)) return NULL;
        Node *e = parse_expr(p, 5); /* looser than comparisons */
        if (!e) return NULL;
        lhs = node_new(N_UNARY, t.start, e->end);
        lhs->op = T_NOT;
        node_add(lhs, e);
    } else if (t.k == T_MINUS) {
        if (!next(p)) return NULL;
        Node *e = parse_expr(p, 13);
        if (!e) return NULL;
        lhs = node_new(N_UNARY, t.start, e->end);
        lhs->op = T_MINUS;
        node_add(lhs, e);
    } else {
        lhs = parse_primary(p);
        if (!lhs) return NULL;
    }
    for (;;) {
        if (p->failed) {
            node_free(lhs);
            return NULL;
        }
        int k = p->tok.k, l, r;
        infix_bp(k, &l, &r);
        if (l < 0 || l < minbp) break;
        if (k == T_AND || k == T_OR) {
            lhs = parse_chain(p, lhs, k, r);
            if (!lhs) return NULL;
            if (lhs->height > AST_MAX_HEIGHT) break; /* reported by parse_expr */
            continue;
        }
        Token op = p->tok;
        if (!next(p)) break;
        Node *rhs;
        if (k == T_IN) {
            if (p->tok.k == T_LBRACK) {
                rhs = parse_list(p);
            } else {
                Node *lo = parse_expr(p, 9);
                if (!lo) break;
                if (p->tok.k != T_DOTDOT) {
                    perr(p, p->tok.start, p->tok.end, "expected '..' or a list after 'in' (x in lo..hi, x in [a, b])");
                    node_free(lo);
                    break;
                }
                if (!next(p)) {
                    node_free(lo);
                    break;
                }
                Node *hi = parse_expr(p, 9);
                if (!hi) {
                    node_free(lo);
                    break;
                }
                rhs = node_new(N_RANGE, lo->start, hi->end);
                node_add(rhs, lo);
                node_add(rhs, hi);
            }
        } else {
            rhs = parse_expr(p, r);
        }
        if (!rhs) break;
        Node *b = node_new(N_BINARY, lhs->start, rhs->end);
        b->op = k;
        b->ival = op.start; /* the operator's own span, for messages */
        b->fval = op.end;
        node_add(b, lhs);
        node_add(b, rhs);
        lhs = b;
        if (b->height > AST_MAX_HEIGHT) {
            /* (a chain of arithmetic folds to the left: each operator is a
             * level, and the order matters where a sum overflows) */
            perr(p, op.start, op.end,
                 "filter too deep: more than %d levels of operators, parentheses and calls (in a chain of "
                 "arithmetic each %s is one; chains of && and || have no limit)",
                 AST_MAX_HEIGHT, tok_name(k));
            break;
        }
        if (is_cmp(k) && is_cmp(p->tok.k)) {
            perr(p, p->tok.start, p->tok.end, "comparisons do not chain: write a < b && b < c");
            break;
        }
    }
    if (p->failed) {
        node_free(lhs);
        return NULL;
    }
    return lhs;
}

bool ast_parse(const char *text, Ast *out, SrcError *err)
{
    memset(out, 0, sizeof *out);
    P p;
    memset(&p, 0, sizeof p);
    p.s = text;
    p.n = (int)strlen(text);
    p.err = err;
    p.prev_k = T_EOF;
    p.tok.k = T_EOF;
    size_t bad = utf8_invalid_at((const unsigned char *)text, (size_t)p.n);
    if (bad != (size_t)p.n)
        return perr(&p, (int)bad, (int)bad + 1, "the filter is not valid UTF-8 (byte 0x%02X)", (unsigned char)text[bad]);
    if (!next(&p)) return false;
    if (p.tok.k == T_EOF) return perr(&p, 0, 1, "empty filter");
    for (;;) {
        Node *e = parse_expr(&p, 0);
        if (!e) break;
        out->stages = xrealloc(out->stages, ((size_t)out->nstages + 1) * sizeof(Node *));
        out->stages[out->nstages++] = e;
        if (p.tok.k == T_PIPE) {
            int at = p.tok.start;
            if (!next(&p)) break;
            if (p.tok.k == T_EOF) {
                perr(&p, at, at + 1, "empty stage after '|'");
                break;
            }
            continue;
        }
        if (p.tok.k != T_EOF) {
            if (p.tok.k == T_RPAREN)
                perr(&p, p.tok.start, p.tok.end, "unmatched ')'");
            else
                perr(&p, p.tok.start, p.tok.end, "expected an operator or the end of the filter, found %s",
                     tok_name(p.tok.k));
        }
        break;
    }
    free(p.tok.str);
    if (p.failed) {
        ast_free(out);
        return false;
    }
    return true;
}

void ast_free(Ast *a)
{
    for (int i = 0; i < a->nstages; i++) node_free(a->stages[i]);
    free(a->stages);
    memset(a, 0, sizeof *a);
}
