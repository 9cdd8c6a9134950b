/*
 * parse.c — the Pratt parser of the filter language; see ast.h.
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
 * A '/' starts a regex where a value is expected, and divides after one
 * (the lexer: lex.c).
 */
#include "lex.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

typedef Lexer P;

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
        if (p->tok.k == T_EOF) return lex_error(p, p->tok.start, p->tok.start + 1, "expected %s before the end of the filter", what);
        return lex_error(p, p->tok.start, p->tok.end, "expected %s, found %s", what, tok_name(p->tok.k));
    }
    return lex_next(p);
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
            if (!lex_next(p)) return;
        }
    }
    n->end = p->tok.end;
    expect(p, close, what);
}

static Node *parse_list(P *p)
{
    Node *n = node_new(N_LIST, p->tok.start, p->tok.end);
    if (lex_next(p)) parse_items(p, n, T_RBRACK, "',' or ']'");
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
        lex_next(p);
        return n;
    case T_STR:
        n = node_new(N_STR, t.start, t.end);
        n->slen = t.slen;
        n->str = take_str(p);
        lex_next(p);
        return n;
    case T_REGEX:
        n = node_new(N_REGEX, t.start, t.end);
        n->slen = t.slen;
        n->ival = t.ival;
        n->regex_at = t.regex_at;
        n->str = take_str(p);
        lex_next(p);
        return n;
    case T_TRUE:
    case T_FALSE:
        n = node_new(N_BOOL, t.start, t.end);
        n->ival = t.k == T_TRUE;
        lex_next(p);
        return n;
    case T_IDENT: {
        char *name = take_str(p);
        lex_next(p);
        if (p->tok.k == T_LPAREN) {
            n = node_new(N_CALL, t.start, t.end);
            n->str = name;
            n->slen = strlen(name);
            if (lex_next(p)) parse_items(p, n, T_RPAREN, "',' or ')'");
            return n;
        }
        n = node_new(N_FIELD, t.start, t.end);
        n->str = name;
        n->slen = strlen(name);
        return n;
    }
    case T_LPAREN: {
        if (!lex_next(p)) return NULL;
        Node *e = parse_expr(p, 0);
        if (!e) return NULL;
        if (p->tok.k != T_RPAREN) {
            node_free(e);
            if (p->tok.k == T_EOF)
                lex_error(p, t.start, t.end, "unclosed '(' (no matching ')')");
            else
                lex_error(p, p->tok.start, p->tok.end, "expected ')', found %s", tok_name(p->tok.k));
            return NULL;
        }
        /* the span includes the parentheses */
        e->start = t.start;
        e->end = p->tok.end;
        lex_next(p);
        return e;
    }
    case T_LBRACK: return parse_list(p);
    case T_EOF: lex_error(p, t.start, t.start + 1, "expected a value before the end of the filter"); return NULL;
    default: lex_error(p, t.start, t.end, "expected a value, found %s", tok_name(t.k)); return NULL;
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
        lex_error(p, p->tok.start, p->tok.end, "filter nested too deeply (more than %d levels)", AST_MAX_HEIGHT);
        p->depth--;
        return NULL;
    }
    Node *n = parse_expr_inner(p, minbp);
    p->depth--;
    if (n && n->height > AST_MAX_HEIGHT) {
        lex_error(p, n->start, n->end, "filter nested too deeply (more than %d levels)", AST_MAX_HEIGHT);
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
        if (!lex_next(p)) {
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
        if (!lex_next(p)) return NULL;
        Node *e = parse_expr(p, 5); /* looser than comparisons */
        if (!e) return NULL;
        lhs = node_new(N_UNARY, t.start, e->end);
        lhs->op = T_NOT;
        node_add(lhs, e);
    } else if (t.k == T_MINUS) {
        if (!lex_next(p)) return NULL;
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
        if (!lex_next(p)) break;
        Node *rhs;
        if (k == T_IN) {
            if (p->tok.k == T_LBRACK) {
                rhs = parse_list(p);
            } else {
                Node *lo = parse_expr(p, 9);
                if (!lo) break;
                if (p->tok.k != T_DOTDOT) {
                    lex_error(p, p->tok.start, p->tok.end, "expected '..' or a list after 'in' (x in lo..hi, x in [a, b])");
                    node_free(lo);
                    break;
                }
                if (!lex_next(p)) {
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
            lex_error(p, op.start, op.end,
                 "filter too deep: more than %d levels of operators, parentheses and calls (in a chain of "
                 "arithmetic each %s is one; chains of && and || have no limit)",
                 AST_MAX_HEIGHT, tok_name(k));
            break;
        }
        if (is_cmp(k) && is_cmp(p->tok.k)) {
            lex_error(p, p->tok.start, p->tok.end, "comparisons do not chain: write a < b && b < c");
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
        return lex_error(&p, (int)bad, (int)bad + 1, "the filter is not valid UTF-8 (byte 0x%02X)", (unsigned char)text[bad]);
    if (!lex_next(&p)) return false;
    if (p.tok.k == T_EOF) return lex_error(&p, 0, 1, "empty filter");
    for (;;) {
        Node *e = parse_expr(&p, 0);
        if (!e) break;
        out->stages = xrealloc(out->stages, ((size_t)out->nstages + 1) * sizeof(Node *));
        out->stages[out->nstages++] = e;
        if (p.tok.k == T_PIPE) {
            int at = p.tok.start;
            if (!lex_next(&p)) break;
            if (p.tok.k == T_EOF) {
                lex_error(&p, at, at + 1, "empty stage after '|'");
                break;
            }
            continue;
        }
        if (p.tok.k != T_EOF) {
            if (p.tok.k == T_RPAREN)
                lex_error(&p, p.tok.start, p.tok.end, "unmatched ')'");
            else
                lex_error(&p, p.tok.start, p.tok.end, "expected an operator or the end of the filter, found %s",
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
