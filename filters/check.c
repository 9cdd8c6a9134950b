/*
 * check.c — the checker of the filter language: resolves names (fields,
 * functions), gives every node a type, rejects what cannot be evaluated
 * (with the span of the culprit), compiles regex literals with PCRE2,
 * interns string literals, marks what each node depends on (one key
 * domain, per-row data, scopes) and folds constant subtrees.
 *
 * Invariants: after check_stage succeeds, every node has a type; every
 * N_FIELD has a field (FK_*); every N_REGEX has a compiled regex; every
 * N_STR has a string id; a subtree that depends on nothing is a literal
 * (N_INT, N_FLT, N_STR, N_BOOL or N_NULL); folding uses the VM itself, so
 * a folded constant has exactly the value the VM would compute.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fint.h"
#include "base/timeparse.h"
#include "base/util.h"

static const struct {
    const char *name;
    int fn, min, max; /* max -1: any */
} FUNCS[] = {
    {"len", FN_LEN, 1, 1},           {"lower", FN_LOWER, 1, 1},         {"upper", FN_UPPER, 1, 1},
    {"starts_with", FN_STARTS, 2, 2}, {"ends_with", FN_ENDS, 2, 2},     {"contains", FN_CONTAINS, 2, 2},
    {"abs", FN_ABS, 1, 1},           {"min", FN_MIN, 2, -1},            {"max", FN_MAX, 2, -1},
    {"has", FN_HAS, 1, 1},           {"field", FN_FIELD, 1, 1},         {"act_any", FN_ACT_ANY, 1, 1},
    {"act_all", FN_ACT_ALL, 1, 1},   {"loc_any", FN_LOC_ANY, 1, 1},     {"loc_all", FN_LOC_ALL, 1, 1},
    {"group_any", FN_GROUP_ANY, 1, 1}, {"msg_any", FN_MSG_ANY, 1, 1},
};
#define NFUNCS (sizeof FUNCS / sizeof FUNCS[0])

const char *filter_function_name(int i) { return i >= 0 && (size_t)i < NFUNCS ? FUNCS[i].name : NULL; }

static const char *const TYPE_NAMES[] = {"nothing (a missing value)", "a number", "a number",
                                         "a string", "a value", "true/false", "a regex", "a list", "a range"};

static const char *type_name(int t) { return t >= 0 && t <= FT_RANGE ? TYPE_NAMES[t] : "?"; }

static bool cerr(SrcError *e, int start, int end, const char *fmt, ...) PRINTF_LIKE(4, 5);
static bool cerr(SrcError *e, int start, int end, const char *fmt, ...)
{
    e->start = start;
    e->end = end > start ? end : start + 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return false;
}

/* Damerau-Levenshtein distance (optimal string alignment), small strings */
static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40) return 99;
    int d[42][42];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int c = a[i - 1] == b[j - 1] ? 0 : 1;
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + c < v) v = d[i - 1][j - 1] + c;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[la][lb];
}

/* the closest known name within a small distance, or NULL */
static const char *suggest_field(const Filter *F, const char *name)
{
    const char *best = NULL;
    int bd = 99;
    size_t nl = strlen(name);
    int limit = nl <= 3 ? 1 : nl <= 6 ? 2 : 3;
    for (int f = 0; f < F__N; f++) {
        int d = edit_distance(name, FIELD_NAMES[f]);
        if (d < bd) bd = d, best = FIELD_NAMES[f];
    }
    for (uint32_t c = 0; c < F->s->ncols; c++) {
        if (F->s->cols[c].field != F_EXTRA) continue;
        int d = edit_distance(name, F->s->cols[c].name);
        if (d < bd) bd = d, best = F->s->cols[c].name;
    }
    return bd <= limit ? best : NULL;
}

static const char *suggest_func(const char *name)
{
    const char *best = NULL;
    int bd = 99;
    for (size_t i = 0; i < NFUNCS; i++) {
        int d = edit_distance(name, FUNCS[i].name);
        if (d < bd) bd = d, best = FUNCS[i].name;
    }
    return bd <= 2 ? best : NULL;
}

/* Resolve a field name; false (with the error) when unknown. */
static bool resolve_field(Filter *F, Node *n, const char *name, int start, int end, SrcError *err)
{
    const Store *s = F->s;
    static const struct {
        const char *name;
        int fk;
    } FIX[] = {{"ts", FK_TS},     {"end", FK_END},   {"dur", FK_DUR},   {"loc", FK_LOC},
               {"act", FK_ACT},   {"kind", FK_KIND}, {"name", FK_NAME}, {"peer", FK_PEER}};
    n->k = N_FIELD;
    for (size_t i = 0; i < sizeof FIX / sizeof FIX[0]; i++)
        if (!strcmp(name, FIX[i].name)) {
            n->field = FIX[i].fk;
            switch (n->field) {
            case FK_TS:
            case FK_END:
            case FK_DUR: n->type = FT_INT; n->rowdep = true; break;
            case FK_LOC: n->type = FT_DYN; n->key = KEY_LOC; break;
            case FK_PEER:
                n->type = FT_DYN;
                n->key = KEY_PEER;
                if (s->col_of_field[F_PEER] < 0) {
                    n->field = FK_NULL;
                    n->type = FT_NULL;
                    n->key = KEY_NONE;
                }
                break;
            case FK_ACT:
                n->type = FT_DYN;
                n->key = KEY_ACT;
                filter_act_labels(F);
                break;
            case FK_KIND: n->type = FT_STR; n->key = KEY_KIND; break;
            case FK_NAME: n->type = FT_STR; n->key = KEY_SID; n->keycol = -1; break;
            }
            return true;
        }
    const Column *c = NULL;
    int fid = field_by_name(name);
    if (fid >= 0) {
        c = store_canon_col(s, fid);
        if (!c) {
            n->field = FK_NULL;
            n->type = FT_NULL;
            return true;
        }
    } else {
        for (uint32_t i = 0; i < s->ncols; i++)
            if (s->cols[i].field == F_EXTRA && !strcmp(s->cols[i].name, name)) c = &s->cols[i];
        if (!c) {
            const char *sug = suggest_field(F, name);
            if (sug) return cerr(err, start, end, "unknown field '%s' (did you mean '%s'?)", name, sug);
            return cerr(err, start, end, "unknown field '%s'", name);
        }
    }
    n->field = FK_COL;
    n->col = (int)(c - s->cols);
    switch (c->type) {
    case VT_INT: n->type = FT_INT; n->rowdep = true; break;
    case VT_FLT: n->type = FT_FLT; n->rowdep = true; break;
    case VT_STR:
        /* (a column with prefix+number ids has a table over the dictionary
         * and its ids: vm.c, sid_domain) */
        /* parent holds activity labels: integers among them compare as numbers */
        n->type = c->field == F_PARENT ? FT_DYN : FT_STR;
        n->key = KEY_SID;
        n->keycol = n->col;
        break;
    default: n->type = FT_DYN; n->rowdep = true; break;
    }
    return true;
}

static bool numeric(int t) { return t == FT_INT || t == FT_FLT || t == FT_DYN; }
static bool stringy(int t) { return t == FT_STR || t == FT_DYN; }

/* dependencies: a node depends on one key, or on per-row data */
static void merge_deps(Node *n, const Node *k)
{
    n->scopedep |= k->scopedep;
    if (n->rowdep) return;
    if (k->rowdep) {
        n->rowdep = true;
        n->key = KEY_NONE;
        return;
    }
    if (k->key == KEY_NONE) return;
    if (n->key == KEY_NONE) {
        n->key = k->key;
        n->keycol = k->keycol;
        return;
    }
    if (n->key != k->key || n->keycol != k->keycol) {
        n->rowdep = true;
        n->key = KEY_NONE;
    }
}

/* an absent literal, or a field this trace does not have */
static bool is_absent(const Node *n) { return n->k == N_NULL || (n->k == N_FIELD && n->field == FK_NULL); }

static bool is_literal(const Node *n)
{
    return n->k == N_INT || n->k == N_FLT || n->k == N_STR || n->k == N_BOOL || n->k == N_NULL || n->k == N_REGEX;
}

/* a unit on a literal and the kind of value it is compared with: a size
 * literal against a time field, or a time literal against bytes, is a
 * mistake worth reporting */
static bool unit_clash(const Filter *F, const Node *a, const Node *b, SrcError *err)
{
    const Node *lit = NULL, *fld = NULL;
    if ((a->k == N_INT || a->k == N_FLT) && a->op) lit = a, fld = b;
    else if ((b->k == N_INT || b->k == N_FLT) && b->op) lit = b, fld = a;
    if (!lit || fld->k != N_FIELD) return true;
    /* by name: the canonical field, whether or not this trace has it */
    const char *nm = fld->str ? fld->str : "";
    bool timef = fld->field == FK_TS || fld->field == FK_END || fld->field == FK_DUR;
    bool bytesf = !strcmp(nm, "bytes") || (fld->field == FK_COL && F->s->cols[fld->col].field == F_BYTES);
    if (timef && lit->op == UNIT_SIZE)
        return cerr(err, lit->start, lit->end, "'%s' is a time; this literal is a size",
                    FIELD_NAMES[fld->field == FK_TS ? F_TS : fld->field == FK_END ? F_END : F_DUR]);
    if (bytesf && lit->op == UNIT_TIME)
        return cerr(err, lit->start, lit->end, "'bytes' is a size; this literal is a time");
    return true;
}

Program *compile_const(Filter *F, Node *n, SrcError *err);
bool run_const(Filter *F, Program *P, uint8_t *type, int64_t *val);

/* A node with an absent operand whose value is then known whatever the
 * other operands are: arithmetic and string functions of an absent value
 * are absent; a comparison, a match or a string test with one is false.
 * Returns the literal to replace n with, or NULL. */
static Node *fold_absent(const Node *n)
{
    bool absent_kid = false;
    for (int i = 0; i < n->nkids; i++) absent_kid |= is_absent(n->kids[i]);
    if (!absent_kid) return NULL;
    bool to_null = false, to_false = false;
    switch (n->k) {
    case N_UNARY: to_null = n->op == T_MINUS; break; /* (! of absent is folded as a constant) */
    case N_BINARY:
        if (n->op == T_AND || n->op == T_OR) break;
        if (n->op >= T_EQ && n->op <= T_IN) {
            /* an absent left side, or an absent operand of ==, <, ... (a
             * list or range may hold an absent element and other ones) */
            to_false = is_absent(n->kids[0]) || n->op != T_IN;
        } else {
            to_null = true; /* + - * / % */
        }
        break;
    case N_CALL:
        switch (n->func) {
        case FN_LEN:
        case FN_LOWER:
        case FN_UPPER:
        case FN_ABS: to_null = true; break;
        case FN_STARTS:
        case FN_ENDS:
        case FN_CONTAINS: to_false = true; break;
        default: break; /* min/max skip absent arguments; has() is folded as a constant */
        }
        break;
    default: break;
    }
    if (!to_null && !to_false) return NULL;
    Node *lit = node_new(to_null ? N_NULL : N_BOOL, n->start, n->end);
    lit->type = to_null ? FT_NULL : FT_BOOL;
    lit->ival = 0;
    return lit;
}

/* name == "x" (or a string column == "x") where the trace has no string
 * "x" at all: no event can be equal, so it is false. (Not for kind, whose
 * names are not all in the trace's dictionary, nor for labels.) */
static Node *fold_absent_string(const Filter *F, const Node *n)
{
    if (n->k != N_BINARY || n->op != T_EQ) return NULL;
    const Node *f = n->kids[0], *lit = n->kids[1];
    if (f->k == N_STR) {
        const Node *t = f;
        f = lit;
        lit = t;
    }
    if (f->k != N_FIELD || lit->k != N_STR || (uint32_t)lit->sid < F->dictn || sid_is_xid((uint32_t)lit->sid))
        return NULL;
    bool dict_field = f->field == FK_NAME ||
                      (f->field == FK_COL && F->s->cols[f->col].type == VT_STR && f->type == FT_STR);
    if (!dict_field) return NULL;
    Node *lit_false = node_new(N_BOOL, n->start, n->end);
    lit_false->type = FT_BOOL;
    return lit_false;
}

/* Replace a constant subtree by its value. */
static bool fold(Filter *F, Node **np, SrcError *err)
{
    Node *n = *np;
    Node *known = fold_absent(n);
    if (!known) known = fold_absent_string(F, n);
    if (known) {
        node_free(n);
        *np = known;
        return true;
    }
    if (is_literal(n) || n->k == N_LIST || n->k == N_RANGE) return true;
    if (n->rowdep || n->key != KEY_NONE || n->scopedep) return true;
    if (n->type == FT_REGEX || n->type == FT_LIST || n->type == FT_RANGE) return true;
    Program *P = compile_const(F, n, err);
    if (!P) return false;
    uint8_t t;
    int64_t v;
    bool isbool = run_const(F, P, &t, &v);
    prog_free(P);
    Node *lit;
    if (isbool) {
        lit = node_new(N_BOOL, n->start, n->end);
        lit->ival = v;
        lit->type = FT_BOOL;
    } else if (t == 0) {
        lit = node_new(N_NULL, n->start, n->end);
        lit->type = FT_NULL;
    } else if (t == FT_INT) {
        lit = node_new(N_INT, n->start, n->end);
        lit->ival = v;
        lit->type = FT_INT;
    } else if (t == FT_FLT) {
        lit = node_new(N_FLT, n->start, n->end);
        memcpy(&lit->fval, &v, 8);
        lit->type = FT_FLT;
    } else {
        lit = node_new(N_STR, n->start, n->end);
        lit->sid = (int)v;
        size_t len;
        const char *str = fs_str(F, (uint32_t)v, &len);
        lit->str = xstrndup(str, len);
        lit->slen = len;
        lit->type = FT_STR;
    }
    node_free(n);
    *np = lit;
    return true;
}

static bool check_node(Filter *F, Node **np, SrcError *err);

static bool check_kids(Filter *F, Node *n, SrcError *err)
{
    for (int i = 0; i < n->nkids; i++) {
        if (!check_node(F, &n->kids[i], err)) return false;
        merge_deps(n, n->kids[i]);
    }
    return true;
}

static bool compile_regex(Filter *F, Node *n, SrcError *err)
{
    char msg[200];
    size_t off = 0;
    Regex *rx = rx_compile(n->str, n->slen, (int)n->ival, msg, sizeof msg, &off);
    if (!rx) {
        int at = n->k == N_REGEX ? n->regex_at + (int)off : n->start + 1 + (int)off;
        if (at >= n->end) at = n->end - 1;
        return cerr(err, at, at + 1, "bad regex: %s", msg);
    }
    F->rx = xrealloc(F->rx, ((size_t)F->nrx + 1) * sizeof(Regex *));
    F->rx[F->nrx] = rx;
    n->rx = F->nrx++;
    n->k = N_REGEX;
    n->type = FT_REGEX;
    return true;
}

static bool check_call(Filter *F, Node *n, SrcError *err)
{
    int fn = -1, min = 0, max = 0;
    for (size_t i = 0; i < NFUNCS; i++)
        if (!strcmp(n->str, FUNCS[i].name)) {
            fn = FUNCS[i].fn;
            min = FUNCS[i].min;
            max = FUNCS[i].max;
        }
    if (fn < 0) {
        /* maybe a field used like a function */
        const char *sug = suggest_func(n->str);
        if (sug) return cerr(err, n->start, n->start + (int)n->slen, "unknown function '%s' (did you mean '%s'?)", n->str, sug);
        return cerr(err, n->start, n->start + (int)n->slen, "unknown function '%s'", n->str);
    }
    n->func = fn;
    if (n->nkids < min || (max >= 0 && n->nkids > max)) {
        if (min == max)
            return cerr(err, n->start, n->end, "%s() takes %d argument%s, not %d", n->str, min, min == 1 ? "" : "s", n->nkids);
        return cerr(err, n->start, n->end, "%s() takes at least %d arguments", n->str, min);
    }
    if (fn == FN_FIELD) {
        Node *a = n->kids[0];
        if (a->k != N_STR) return cerr(err, a->start, a->end, "field() takes the field's name as a string, e.g. field(\"Task Info.Host\")");
        char *name = xstrndup(a->str, a->slen);
        int start = n->start, end = n->end;
        node_free(a);
        free(n->kids);
        n->kids = NULL;
        n->nkids = 0;
        free(n->str);
        n->str = name;
        n->slen = strlen(name);
        return resolve_field(F, n, name, start, end, err);
    }
    if (fn == FN_HAS) {
        Node *a = n->kids[0];
        if (a->k == N_CALL && a->str && !strcmp(a->str, "field")) {
            if (!check_node(F, &n->kids[0], err)) return false;
            a = n->kids[0];
        } else if (a->k == N_FIELD) {
            if (!resolve_field(F, a, a->str, a->start, a->end, err)) return false;
        } else {
            return cerr(err, a->start, a->end, "has() takes a field, e.g. has(peer) or has(field(\"args.n\"))");
        }
        merge_deps(n, a);
        n->type = FT_BOOL;
        return true;
    }
    bool scope = fn >= FN_ACT_ANY;
    if (scope) {
        /* the inner expression is checked like a stage of its own */
        if (!check_node(F, &n->kids[0], err)) return false;
        Node *a = n->kids[0];
        if (a->type != FT_BOOL)
            return cerr(err, a->start, a->end, "%s() takes a condition (true/false), not %s", n->str, type_name(a->type));
        n->type = FT_BOOL;
        n->scopedep = true;
        if (fn == FN_ACT_ANY || fn == FN_ACT_ALL) n->key = KEY_ACT;
        else if (fn == FN_LOC_ANY || fn == FN_LOC_ALL) n->key = KEY_LOC;
        else n->rowdep = true;
        return true;
    }
    if (!check_kids(F, n, err)) return false;
    for (int i = 0; i < n->nkids; i++) {
        Node *a = n->kids[i];
        int t = a->type;
        bool ok;
        switch (fn) {
        case FN_LEN:
        case FN_LOWER:
        case FN_UPPER:
        case FN_STARTS:
        case FN_ENDS:
        case FN_CONTAINS: ok = stringy(t) || t == FT_NULL; break;
        default: ok = numeric(t) || t == FT_NULL; break;
        }
        if (!ok)
            return cerr(err, a->start, a->end, "%s() takes %s, not %s", n->str,
                        (fn >= FN_ABS ? "numbers" : "strings"), type_name(t));
    }
    switch (fn) {
    case FN_LEN: n->type = FT_INT; break;
    case FN_LOWER:
    case FN_UPPER: n->type = FT_STR; break;
    case FN_STARTS:
    case FN_ENDS:
    case FN_CONTAINS: n->type = FT_BOOL; break;
    case FN_ABS: n->type = n->kids[0]->type == FT_NULL ? FT_INT : n->kids[0]->type; break;
    default: {
        int t = FT_INT;
        for (int i = 0; i < n->nkids; i++) {
            int kt = n->kids[i]->type;
            if (kt == FT_DYN) t = FT_DYN;
            else if (kt == FT_FLT && t != FT_DYN) t = FT_FLT;
        }
        n->type = t;
    }
    }
    return true;
}

static bool comparable(int a, int b)
{
    if (a == FT_NULL || b == FT_NULL) return true;
    if (a == FT_DYN && b != FT_BOOL && b != FT_REGEX) return true;
    if (b == FT_DYN && a != FT_BOOL && a != FT_REGEX) return true;
    if (numeric(a) && numeric(b)) return true;
    if (a == FT_STR && b == FT_STR) return true;
    return false;
}

static bool check_binary(Filter *F, Node *n, SrcError *err)
{
    int op = n->op;
    int ostart = (int)n->ival, oend = (int)n->fval; /* the operator's span */
    if (op == T_MATCH || op == T_NMATCH) {
        if (!check_node(F, &n->kids[0], err)) return false;
        Node *r = n->kids[1];
        if (r->k != N_REGEX && r->k != N_STR)
            return cerr(err, r->start, r->end, "%s needs a regex literal on its right, e.g. name =~ /^MPI_/", tok_name(op));
        if (!compile_regex(F, r, err)) return false;
        merge_deps(n, n->kids[0]);
        int t = n->kids[0]->type;
        if (!stringy(t) && t != FT_NULL)
            return cerr(err, n->kids[0]->start, n->kids[0]->end, "%s matches strings; this is %s", tok_name(op), type_name(t));
        n->type = FT_BOOL;
        return true;
    }
    if (op == T_IN) {
        if (!check_node(F, &n->kids[0], err)) return false;
        Node *r = n->kids[1];
        if (!check_kids(F, r, err)) return false;
        merge_deps(n, n->kids[0]);
        merge_deps(n, r);
        int lt = n->kids[0]->type;
        for (int i = 0; i < r->nkids; i++) {
            Node *e = r->kids[i];
            if (!comparable(lt, e->type))
                return cerr(err, e->start, e->end, "cannot compare %s with %s", type_name(lt), type_name(e->type));
            if (r->k == N_RANGE && !numeric(e->type) && e->type != FT_STR && e->type != FT_NULL)
                return cerr(err, e->start, e->end, "a range needs numbers or strings");
            if (!unit_clash(F, n->kids[0], e, err)) return false;
        }
        r->type = r->k == N_LIST ? FT_LIST : FT_RANGE;
        n->type = FT_BOOL;
        return true;
    }
    if (!check_kids(F, n, err)) return false;
    Node *a = n->kids[0], *b = n->kids[1];
    switch (op) {
    case T_AND:
    case T_OR:
        for (int i = 0; i < 2; i++) {
            Node *k = n->kids[i];
            if (k->type != FT_BOOL)
                return cerr(err, k->start, k->end, "'%s' needs conditions (true/false) on both sides; this is %s",
                            op == T_AND ? "&&" : "||", type_name(k->type));
        }
        n->type = FT_BOOL;
        return true;
    case T_EQ:
    case T_NE:
        if (a->type == FT_BOOL && b->type == FT_BOOL) {
            n->type = FT_BOOL;
            return true;
        }
        /* fallthrough */
    case T_LT:
    case T_LE:
    case T_GT:
    case T_GE:
        if (a->type == FT_REGEX || b->type == FT_REGEX)
            return cerr(err, ostart, oend, "a regex is used with =~ or !~, not %s", tok_name(op));
        if (!comparable(a->type, b->type))
            return cerr(err, ostart, oend, "cannot compare %s with %s", type_name(a->type), type_name(b->type));
        if (!unit_clash(F, a, b, err)) return false;
        n->type = FT_BOOL;
        return true;
    default: /* arithmetic */
        for (int i = 0; i < 2; i++) {
            Node *k = n->kids[i];
            if (!numeric(k->type) && k->type != FT_NULL)
                return cerr(err, k->start, k->end, "%s needs numbers; this is %s", tok_name(op), type_name(k->type));
        }
        if (op == T_SLASH) n->type = (a->type == FT_DYN || b->type == FT_DYN) ? FT_DYN : FT_FLT;
        else if (a->type == FT_DYN || b->type == FT_DYN) n->type = FT_DYN;
        else if (a->type == FT_FLT || b->type == FT_FLT) n->type = FT_FLT;
        else n->type = FT_INT;
        return true;
    }
}

/* and/or with a constant side */
static void fold_logic(Node **np)
{
    Node *n = *np;
    if (n->k != N_BINARY || (n->op != T_AND && n->op != T_OR)) return;
    for (int i = 0; i < 2; i++) {
        Node *c = n->kids[i], *o = n->kids[1 - i];
        bool cval;
        if (c->k == N_BOOL) cval = c->ival != 0;
        else if (is_absent(c)) cval = false;
        else continue;
        if ((n->op == T_AND && !cval) || (n->op == T_OR && cval)) {
            /* the constant decides */
            n->kids[i] = NULL;
            c->start = n->start;
            c->end = n->end;
            if (c->k != N_BOOL) {
                free(c->str);
                c->str = NULL;
                c->k = N_BOOL;
                c->ival = 0;
                c->type = FT_BOOL;
            }
            node_free(n);
            *np = c;
            return;
        }
        /* the constant is neutral: the other side decides */
        n->kids[1 - i] = NULL;
        node_free(n);
        *np = o;
        return;
    }
}

static bool check_node(Filter *F, Node **np, SrcError *err)
{
    Node *n = *np;
    switch (n->k) {
    case N_INT: n->type = FT_INT; return true;
    case N_FLT: n->type = FT_FLT; return true;
    case N_BOOL: n->type = FT_BOOL; return true;
    case N_NULL: n->type = FT_NULL; return true;
    case N_STR:
        n->type = FT_STR;
        n->sid = (int)fs_intern(F, n->str, n->slen);
        return true;
    case N_REGEX: return cerr(err, n->start, n->end, "a regex is only used after =~ or !~");
    case N_FIELD:
        /* (a field the trace lacks stays a field until its parent folds,
         * so that the parent's checks still know which field it is) */
        return resolve_field(F, n, n->str, n->start, n->end, err);
    case N_LIST: return cerr(err, n->start, n->end, "a list is only used after 'in'");
    case N_RANGE: return cerr(err, n->start, n->end, "a range is only used after 'in'");
    case N_CALL:
        if (!check_call(F, n, err)) return false;
        break;
    case N_UNARY:
        if (!check_kids(F, n, err)) return false;
        if (n->op == T_NOT) {
            if (n->kids[0]->type != FT_BOOL)
                return cerr(err, n->kids[0]->start, n->kids[0]->end, "'!' needs a condition (true/false); this is %s",
                            type_name(n->kids[0]->type));
            n->type = FT_BOOL;
        } else {
            if (!numeric(n->kids[0]->type) && n->kids[0]->type != FT_NULL)
                return cerr(err, n->kids[0]->start, n->kids[0]->end, "'-' needs a number; this is %s",
                            type_name(n->kids[0]->type));
            n->type = n->kids[0]->type == FT_NULL ? FT_INT : n->kids[0]->type;
        }
        break;
    case N_BINARY:
        if (!check_binary(F, n, err)) return false;
        fold_logic(np);
        n = *np;
        break;
    }
    return fold(F, np, err);
}

bool check_stage(Filter *F, Node **np, SrcError *err)
{
    if (!check_node(F, np, err)) return false;
    Node *n = *np;
    if (n->type != FT_BOOL)
        return cerr(err, n->start, n->end, "a filter must be a condition (true/false); this is %s", type_name(n->type));
    return true;
}

bool check_value(Filter *F, Node **np, SrcError *err)
{
    if (!check_node(F, np, err)) return false;
    Node *n = *np;
    if (n->type != FT_INT && n->type != FT_FLT && n->type != FT_DYN && n->type != FT_NULL)
        return cerr(err, n->start, n->end, "a metric expression must be a number; this is %s", type_name(n->type));
    return true;
}
