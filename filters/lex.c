/*
 * lex.c — the filter language's lexer; see lex.h.
 *
 * Owns: the token names, the scanning of numbers with their units (exact
 * for integers and decimals), strings with their escapes, regexes with
 * their flags, names and operators. Invariants: a token's span is in the
 * text's bytes; '/' starts a regex where a value is expected (after an
 * operator, at the start) and divides after a value; the first error
 * stops the scan and is the one reported.
 */
#include "lex.h"

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


bool lex_error(Lexer *p, int start, int end, const char *fmt, ...)
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
static bool lex_number(Lexer *p, Token *t)
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
    if (overflow) return lex_error(p, p->pos, i, "number too large");
    /* unit suffix */
    int ustart = i;
    while (i < p->n && isalpha((unsigned char)s[i])) i++;
    int64_t iscale = 1;
    int unit = 0;
    if (i > ustart) {
        char u[8];
        int ul = i - ustart;
        if (ul >= (int)sizeof u) return lex_error(p, ustart, i, "unknown unit '%.*s'", ul, s + ustart);
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
            return lex_error(p, ustart, i, "unknown unit '%s' (time: ns us ms s; size: B KB MB GB KiB MiB GiB)", u);
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
        if (v > (i128)INT64_MAX) return lex_error(p, t->start, i, "number too large");
    }
    if (e < 0) {
        i128 d = 1;
        for (; e < 0 && d < (i128)1000000000000000000LL * 1000; e++) d *= 10;
        i128 q = v / d, r = v % d;
        if (r * 2 >= d) q++;
        v = q;
    }
    if (v > (i128)INT64_MAX) return lex_error(p, t->start, i, "number too large");
    t->k = T_INT;
    t->ival = (int64_t)v;
    p->pos = i;
    return true;
}

static bool lex_string(Lexer *p, Token *t)
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
            return lex_error(p, p->pos, p->pos + 1, "unterminated string (no closing %c)", q);
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
            return lex_error(p, p->pos, p->pos + 1, "unterminated string (no closing %c)", q);
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
                return lex_error(p, esc, i, "bad \\x escape (two hex digits expected)");
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
                    return lex_error(p, esc, i + k, "bad \\u escape (four hex digits expected)");
                }
                cp = cp * 16 + (unsigned)h;
            }
            i += 4;
            if (cp >= 0xD800 && cp <= 0xDFFF) {
                free(o);
                return lex_error(p, esc, i, "\\u escape of a surrogate");
            }
            on += utf8_put(o + on, cp);
            break;
        }
        default: free(o); return lex_error(p, esc, i, "unknown escape '\\%c'", x);
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
        return lex_error(p, t->start, t->end, "string is not valid UTF-8");
    }
    p->pos = i + 1;
    return true;
}

static bool lex_regex(Lexer *p, Token *t)
{
    const char *s = p->s;
    int i = p->pos + 1;
    while (i < p->n && s[i] != '/') {
        if (s[i] == '\\' && i + 1 < p->n) i++;
        i++;
    }
    if (i >= p->n) return lex_error(p, p->pos, p->pos + 1, "unterminated regex (no closing /)");
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
            return lex_error(p, i, i + 1, "unknown regex flag '%c' (i, x, s, m)", s[i]);
        }
        i++;
    }
    t->ival = flags;
    t->end = i;
    p->pos = i;
    return true;
}

bool lex_next(Lexer *p)
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
        if (d != '.') return lex_error(p, p->pos, p->pos + 1, "unexpected '.'");
        k = T_DOTDOT;
        len = 2;
        break;
    case '|':
        if (d == '|') k = T_OR, len = 2;
        else k = T_PIPE;
        break;
    case '&':
        if (d != '&') return lex_error(p, p->pos, p->pos + 1, "unexpected '&' (use && or and)");
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
        else return lex_error(p, p->pos, p->pos + 1, "unexpected '=' (use == to compare)");
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
            return lex_error(p, p->pos, p->pos + (int)(l ? l : 1), "unexpected character '%.*s'", (int)(l ? l : 1),
                        s + p->pos);
        }
        if ((unsigned char)c < 0x20 || c == 0x7F)
            return lex_error(p, p->pos, p->pos + 1, "unexpected control character (byte 0x%02X)", (unsigned char)c);
        return lex_error(p, p->pos, p->pos + 1, "unexpected character '%c'", c);
    }
    t->k = k;
    t->start = p->pos;
    t->end = p->pos + len;
    p->pos += len;
    return true;
}
