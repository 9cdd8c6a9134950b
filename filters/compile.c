/*
 * compile.c — the code generator of the filter language: checked trees to
 * bytecode.
 *
 * Owns: the programs of a filter (each stage's main program, each scope's
 * inner program, each table's domain program).
 * Invariants: a boolean subtree that depends on one key domain only (loc,
 * peer, act, kind, or one string column such as name) is not evaluated per
 * event: it becomes a table, computed once per key value by a domain
 * program of its own, and a LOOKUP per event; the same for values (len of
 * a name) with LOOKUPV. && and || jump past their right side when a block's
 * left side already decides it (JNONE / JALL). A comparison of a constant
 * with ts, dur or end reads the column itself (CMPK with a column source).
 * Registers are never reused within a program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fint.h"
#include "base/util.h"

/* a field already loaded into a register, and still valid at this point
 * of the program (loaded on every path that reaches it) */
typedef struct {
    const Program *P;
    int field, col, reg;
} Loaded;

typedef struct {
    Filter *F;
    Program *P;
    Stage *st;     /* event programs of a stage: where scopes are registered */
    SrcError *err;
    bool failed;
    Loaded loaded[32];
    int nloaded;
} Cg;

int prog_emit(Program *p, Instr in)
{
    if (p->ncode == p->capcode) {
        p->capcode = p->capcode ? p->capcode * 2 : 16;
        p->code = xrealloc(p->code, (size_t)p->capcode * sizeof(Instr));
    }
    p->code[p->ncode] = in;
    return p->ncode++;
}

void prog_free(Program *p)
{
    if (!p) return;
    free(p->code);
    free(p->vtype);
    free(p);
}

static Program *prog_new(KeyKind domain, int col)
{
    Program *p = xcalloc(1, sizeof *p);
    p->domain = domain;
    p->domain_col = col;
    p->ret_v = -1;
    return p;
}

static int new_v(Cg *g, int type)
{
    Program *p = g->P;
    p->vtype = xrealloc(p->vtype, (size_t)p->nv + 1);
    p->vtype[p->nv] = (uint8_t)type;
    return p->nv++;
}

static int new_m(Cg *g) { return g->P->nm++; }

static Instr ins(int op, const Node *n)
{
    Instr i;
    memset(&i, 0, sizeof i);
    i.op = (uint8_t)op;
    i.start = n ? n->start : 0;
    i.end = n ? n->end : 0;
    i.target = -1;
    return i;
}

static int emit(Cg *g, Instr i) { return prog_emit(g->P, i); }

/* one instruction op(b, c; cmp, k) writing a new value register of type t;
 * returns the register */
static int emit_v(Cg *g, int op, const Node *n, int t, int b, int c, int cmp, int64_t k)
{
    int v = new_v(g, t);
    Instr i = ins(op, n);
    i.a = v;
    i.b = b;
    i.c = c;
    i.cmp = (uint8_t)cmp;
    i.k = k;
    emit(g, i);
    return v;
}

/* one instruction op(b, c; k) writing a new mask register */
static int emit_m(Cg *g, int op, const Node *n, int b, int c, int64_t k)
{
    int m = new_m(g);
    Instr i = ins(op, n);
    i.a = m;
    i.b = b;
    i.c = c;
    i.k = k;
    emit(g, i);
    return m;
}

static int cg_bool(Cg *g, Node *n);
static int cg_chain(Cg *g, Node *n);
static int cg_val(Cg *g, Node *n);

static bool pushable(const Cg *g, const Node *n)
{
    return g->P->domain == KEY_NONE && n->key != KEY_NONE && !n->rowdep;
}

/* a table for n over its key, computed by a domain program */
static int make_table(Cg *g, Node *n, bool value)
{
    Filter *F = g->F;
    Table *t = xcalloc(1, sizeof *t);
    t->key = (KeyKind)n->key;
    t->col = n->keycol;
    t->value = value;
    t->scope_dep = n->scopedep ? 1 : -1;
    t->start = n->start;
    t->end = n->end;
    t->label = n->key == KEY_SID && n->keycol >= 0 && F->s->cols[n->keycol].field == F_PARENT;
    Program *outer = g->P;
    int nloaded = g->nloaded;
    Program *tp = prog_new(t->key, t->col);
    tp->domain_label = t->label;
    g->P = tp;
    if (value) {
        tp->ret_v = cg_val(g, n);
        t->vtype = tp->vtype[tp->ret_v];
    } else {
        int m = cg_bool(g, n);
        Instr r = ins(OPC_RET, n);
        r.a = m;
        emit(g, r);
    }
    if (value) {
        Instr r = ins(OPC_RET, n);
        r.a = -1;
        emit(g, r);
    }
    g->P = outer;
    g->nloaded = nloaded;
    t->prog = tp;
    F->tables = xrealloc(F->tables, ((size_t)F->ntables + 1) * sizeof(Table *));
    F->tables[F->ntables] = t;
    return F->ntables++;
}

/* register a scope: its inner condition becomes an event program */
static int make_scope(Cg *g, Node *n)
{
    Filter *F = g->F;
    Scope *sc = xcalloc(1, sizeof *sc);
    sc->kind = n->func - FN_ACT_ANY;
    sc->start = n->start;
    sc->end = n->end;
    Program *outer = g->P;
    int nloaded = g->nloaded;
    Program *ip = prog_new(KEY_NONE, -1);
    g->P = ip;
    int m = cg_bool(g, n->kids[0]);
    Instr r = ins(OPC_RET, n->kids[0]);
    r.a = m;
    emit(g, r);
    g->P = outer;
    g->nloaded = nloaded;
    sc->inner = ip;
    F->scopes = xrealloc(F->scopes, ((size_t)F->nscopes + 1) * sizeof(Scope *));
    int id = F->nscopes++;
    F->scopes[id] = sc;
    /* the stage computes it after the scopes it contains (added before) */
    if (g->st) {
        g->st->scopes = xrealloc(g->st->scopes, ((size_t)g->st->nscopes + 1) * sizeof(int));
        g->st->scopes[g->st->nscopes++] = id;
    }
    n->scope = id;
    return id;
}

static int cg_field_load(Cg *g, Node *n);

/* a field's value; each field is loaded once where it stays valid */
static int cg_field(Cg *g, Node *n)
{
    for (int i = g->nloaded - 1; i >= 0; i--) {
        const Loaded *l = &g->loaded[i];
        if (l->P == g->P && l->field == n->field && l->col == n->col) return l->reg;
    }
    int r = cg_field_load(g, n);
    if (g->nloaded < (int)(sizeof g->loaded / sizeof g->loaded[0]))
        g->loaded[g->nloaded++] = (Loaded){g->P, n->field, n->col, r};
    return r;
}

static int cg_field_load(Cg *g, Node *n)
{
    Program *P = g->P;
    if (P->domain != KEY_NONE && n->key == (int)P->domain && n->keycol == P->domain_col && n->field != FK_NULL) {
        int v = new_v(g, n->type);
        Instr i = ins(OPC_LD_KEY, n);
        i.a = v;
        i.ta = (uint8_t)n->type;
        emit(g, i);
        return v;
    }
    int v = new_v(g, n->type == FT_NULL ? FT_INT : n->type);
    Instr i = ins(OPC_LD_TS, n);
    i.a = v;
    i.ta = (uint8_t)P->vtype[v];
    switch (n->field) {
    case FK_TS: i.op = OPC_LD_TS; break;
    case FK_END: i.op = OPC_LD_END; break;
    case FK_DUR: i.op = OPC_LD_DUR; break;
    case FK_NAME: i.op = OPC_LD_NAME; break;
    case FK_KIND: i.op = OPC_LD_KIND; break;
    case FK_LOC: i.op = OPC_LD_LOC; break;
    case FK_ACT: i.op = OPC_LD_ACT; break;
    case FK_PEER: i.op = OPC_LD_PEER; break;
    case FK_COL:
        i.op = OPC_LD_COL;
        i.b = n->col;
        break;
    default: /* a field this trace lacks: always absent */
        i.op = OPC_CONST;
        i.ta = 0;
        break;
    }
    emit(g, i);
    return v;
}

static int cg_const(Cg *g, Node *n)
{
    int t = n->k == N_INT ? FT_INT : n->k == N_FLT ? FT_FLT : n->k == N_STR ? FT_STR : FT_INT;
    int v = new_v(g, t);
    Instr i = ins(OPC_CONST, n);
    i.a = v;
    i.ta = (uint8_t)(n->k == N_NULL ? 0 : t);
    if (n->k == N_INT) i.k = n->ival;
    else if (n->k == N_FLT) memcpy(&i.k, &n->fval, 8);
    else if (n->k == N_STR) i.k = n->sid;
    emit(g, i);
    return v;
}

static int cg_val(Cg *g, Node *n)
{
    if (g->failed) return 0;
    switch (n->k) {
    case N_INT:
    case N_FLT:
    case N_STR:
    case N_NULL: return cg_const(g, n);
    case N_FIELD: return cg_field(g, n);
    default: break;
    }
    if (pushable(g, n)) {
        int t = make_table(g, n, true);
        return emit_v(g, OPC_LOOKUPV, n, g->F->tables[t]->vtype, t, 0, 0, 0);
    }
    if (n->k == N_UNARY && n->op == T_MINUS) return emit_v(g, OPC_NEG, n, n->type, cg_val(g, n->kids[0]), 0, 0, 0);
    if (n->k == N_BINARY) {
        int a = cg_val(g, n->kids[0]), b = cg_val(g, n->kids[1]);
        return emit_v(g, OPC_ARITH, n, n->type, a, b, n->op, 0);
    }
    if (n->k == N_CALL) {
        switch (n->func) {
        case FN_LEN:
        case FN_ABS:
        case FN_LOWER:
        case FN_UPPER: {
            int op = n->func == FN_LEN ? OPC_LEN : n->func == FN_ABS ? OPC_ABS : OPC_CASE;
            return emit_v(g, op, n, n->type, cg_val(g, n->kids[0]), 0, 0, n->func == FN_UPPER);
        }
        case FN_MIN:
        case FN_MAX: {
            int acc = cg_val(g, n->kids[0]);
            for (int k = 1; k < n->nkids; k++) {
                int b = cg_val(g, n->kids[k]);
                acc = emit_v(g, OPC_MINMAX, n, n->type, acc, b, n->func == FN_MAX, 0);
            }
            return acc;
        }
        default: break;
        }
    }
    g->failed = true;
    g->err->start = n->start;
    g->err->end = n->end;
    snprintf(g->err->msg, sizeof g->err->msg, "internal error: cannot compile this value");
    return 0;
}

/* a comparison of ts, dur or end with an integer constant reads the column
 * in place */
static bool fusable(const Cg *g, const Node *lhs, const Node *rhs)
{
    return lhs->k == N_FIELD && g->P->domain == KEY_NONE && rhs->k == N_INT &&
           (lhs->field == FK_TS || lhs->field == FK_DUR || lhs->field == FK_END);
}

/* M[a] = lhs op rhs; lreg >= 0: lhs is already in that register (the left
 * side of 'in', computed once for all its comparisons) */
static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* The list of an `in` as a set (an index into F->sets) when it has 8 or
 * more literals, all integers or all strings; else -1 (a chain of ==). */
static int in_set(Cg *g, const Node *list)
{
    enum { MIN_SET = 8 };
    if (list->nkids < MIN_SET) return -1;
    NodeKind k0 = list->kids[0]->k;
    if (k0 != N_INT && k0 != N_STR) return -1;
    for (int k = 1; k < list->nkids; k++)
        if (list->kids[k]->k != k0) return -1;
    Filter *F = g->F;
    int64_t *v = xmalloc((size_t)list->nkids * sizeof(int64_t));
    for (int k = 0; k < list->nkids; k++) v[k] = k0 == N_INT ? list->kids[k]->ival : (int64_t)list->kids[k]->sid;
    qsort(v, (size_t)list->nkids, sizeof(int64_t), cmp_i64);
    uint32_t n = 0;
    for (int k = 0; k < list->nkids; k++)
        if (n == 0 || v[k] != v[n - 1]) v[n++] = v[k];
    F->sets = xrealloc(F->sets, ((size_t)F->nsets + 1) * sizeof(int64_t *));
    F->setn = xrealloc(F->setn, ((size_t)F->nsets + 1) * sizeof(uint32_t));
    F->sets[F->nsets] = v;
    F->setn[F->nsets] = n;
    return F->nsets++;
}

static int cg_cmp(Cg *g, Node *n, int op, Node *lhs, Node *rhs, int lreg)
{
    int m = new_m(g);
    bool rconst = rhs->k == N_INT || rhs->k == N_FLT || rhs->k == N_STR || rhs->k == N_NULL;
    bool lconst = lhs->k == N_INT || lhs->k == N_FLT || lhs->k == N_STR || lhs->k == N_NULL;
    if (lconst && !rconst && lreg < 0) {
        /* constant on the left: swap (a < b is b > a) */
        Node *t = lhs;
        lhs = rhs;
        rhs = t;
        static const int SW[T__N] = {[T_LT] = T_GT, [T_GT] = T_LT, [T_LE] = T_GE, [T_GE] = T_LE, [T_EQ] = T_EQ, [T_NE] = T_NE};
        op = SW[op];
        rconst = true;
    }
    if (rconst) {
        Instr i = ins(OPC_CMPK, n);
        i.a = m;
        i.cmp = (uint8_t)op;
        i.ta = (uint8_t)(rhs->k == N_NULL ? 0 : rhs->k == N_INT ? FT_INT : rhs->k == N_FLT ? FT_FLT : FT_STR);
        if (rhs->k == N_INT) i.k = rhs->ival;
        else if (rhs->k == N_FLT) memcpy(&i.k, &rhs->fval, 8);
        else if (rhs->k == N_STR) i.k = rhs->sid;
        if (lreg < 0 && fusable(g, lhs, rhs)) {
            i.c = lhs->field == FK_TS ? SRC_TS : lhs->field == FK_END ? SRC_END : SRC_DUR;
            /* instants have dur 0: "dur > k" (k >= 0) or "dur >= k" (k > 0)
             * is false for them without looking at their flags */
            if (lhs->field == FK_DUR && ((op == T_GT && rhs->ival >= 0) || (op == T_GE && rhs->ival > 0)))
                i.c = SRC_DUR_NOFLAG;
            i.tb = FT_INT;
        } else {
            i.b = lreg >= 0 ? lreg : cg_val(g, lhs);
            i.tb = g->P->vtype[i.b];
            i.c = SRC_REG;
        }
        emit(g, i);
        return m;
    }
    Instr i = ins(OPC_CMP, n);
    i.b = lreg >= 0 ? lreg : cg_val(g, lhs);
    i.c = cg_val(g, rhs);
    i.a = m;
    i.cmp = (uint8_t)op;
    i.tb = g->P->vtype[i.b];
    i.tc = g->P->vtype[i.c];
    emit(g, i);
    return m;
}

static int cg_logic(Cg *g, int op, int a, int b, const Node *n) { return emit_m(g, op, n, a, b, 0); }

/* ---- and / or chains ------------------------------------------------------ */

/* A rough cost per row of evaluating n, to run cheap conditions first. */
static int cost(const Cg *g, const Node *n)
{
    if (n->k == N_BOOL || n->k == N_NULL || n->k == N_INT || n->k == N_FLT || n->k == N_STR) return 0;
    if (pushable(g, n)) return n->key == KEY_LOC ? 1 : 4; /* a per-location table is per block */
    int c = 0;
    for (int i = 0; i < n->nkids; i++) c += cost(g, n->kids[i]);
    switch (n->k) {
    case N_FIELD:
        if (n->field == FK_TS || n->field == FK_DUR || n->field == FK_END) return 1;
        return n->field == FK_COL ? 6 : 3;
    case N_CALL:
        if (n->func >= FN_ACT_ANY) return c + 3;
        if (n->func == FN_LOWER || n->func == FN_UPPER || n->func == FN_LEN || n->func >= FN_STARTS) return c + 10;
        return c + 2;
    case N_BINARY:
        if (n->op == T_MATCH || n->op == T_NMATCH) return c + 40;
        if (n->op == T_IN) return c + 2 * (n->kids[1]->nkids ? n->kids[1]->nkids : 1);
        return c + 1;
    default: return c + 1;
    }
}

/* the operands of a chain of one operator (a && b && c), in source order;
 * a part that becomes one table lookup is kept whole */
static void chain_flatten(const Cg *g, Node *n, int op, Node ***v, int *nv)
{
    if (n->k == N_BINARY && n->op == op && !pushable(g, n)) {
        chain_flatten(g, n->kids[0], op, v, nv);
        chain_flatten(g, n->kids[1], op, v, nv);
        return;
    }
    if ((*nv & (*nv - 1)) == 0) /* (at 0, 1, 2, 4, ...: doubling) */
        *v = xrealloc(*v, ((size_t)*nv * 2 + 1) * sizeof(Node *));
    (*v)[(*nv)++] = n;
}

typedef struct {
    int cost, at;
    Node *n;
} ChainItem;

static int cmp_chain_item(const void *a, const void *b)
{
    const ChainItem *x = a, *y = b;
    if (x->cost != y->cost) return x->cost < y->cost ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at); /* ties keep source order */
}

/* a && b && c (or ||): the operands cheapest first (they are pure, so
 * the order does not change the result); after each, a block that is
 * already decided (no live row left true for &&, none false for ||) jumps
 * to the end of the chain with the result so far */
static int cg_chain(Cg *g, Node *n)
{
    Node **v = NULL;
    int nv = 0;
    chain_flatten(g, n, n->op, &v, &nv);
    /* (a stable sort in n log n: a chain may have thousands of operands) */
    ChainItem *ci = xmalloc((size_t)nv * sizeof(ChainItem));
    for (int i = 0; i < nv; i++) ci[i] = (ChainItem){cost(g, v[i]), i, v[i]};
    qsort(ci, (size_t)nv, sizeof(ChainItem), cmp_chain_item);
    for (int i = 0; i < nv; i++) v[i] = ci[i].n;
    free(ci);
    int res = new_m(g);
    int *jumps = xmalloc((size_t)nv * sizeof(int));
    int acc = cg_bool(g, v[0]);
    /* loads after the first jump happen only on some paths: they are not
     * reused after the chain */
    int loaded_before = g->nloaded;
    for (int i = 1; i < nv && !g->failed; i++) {
        Instr j = ins(n->op == T_AND ? OPC_JNONE : OPC_JALL, n);
        j.a = acc;
        j.b = res;
        jumps[i] = emit(g, j);
        int b = cg_bool(g, v[i]);
        Instr l = ins(n->op == T_AND ? OPC_AND : OPC_OR, n);
        l.a = i == nv - 1 ? res : new_m(g);
        l.b = acc;
        l.c = b;
        emit(g, l);
        acc = l.a;
    }
    for (int i = 1; i < nv && !g->failed; i++) g->P->code[jumps[i]].target = g->P->ncode;
    g->nloaded = loaded_before;
    free(jumps);
    free(v);
    return acc;
}

static int cg_bool(Cg *g, Node *n)
{
    if (g->failed) return 0;
    if (n->k == N_BOOL || n->k == N_NULL || n->type == FT_NULL) {
        /* (an absent value used as a condition is false) */
        return emit_m(g, OPC_MSET, n, 0, 0, n->k == N_BOOL && n->ival);
    }
    if (pushable(g, n)) return emit_m(g, OPC_LOOKUP, n, make_table(g, n, false), 0, 0);
    if (n->k == N_UNARY) {
        int a = cg_bool(g, n->kids[0]);
        return cg_logic(g, OPC_NOT, a, 0, n);
    }
    if (n->k == N_CALL) {
        switch (n->func) {
        case FN_HAS: return emit_m(g, OPC_HAS, n, cg_val(g, n->kids[0]), 0, 0);
        case FN_STARTS:
        case FN_ENDS:
        case FN_CONTAINS: {
            int a = cg_val(g, n->kids[0]), b = cg_val(g, n->kids[1]);
            return emit_m(g, OPC_STRFN, n, a, b, n->func - FN_STARTS);
        }
        case FN_ACT_ANY:
        case FN_ACT_ALL:
        case FN_LOC_ANY:
        case FN_LOC_ALL:
        case FN_GROUP_ANY:
        case FN_MSG_ANY: {
            /* act/loc scopes are only reached in the domain program of a
             * table over activities / locations: the key's entry; group and
             * message scopes are per event */
            int id = n->scope >= 0 ? n->scope : make_scope(g, n);
            bool keyed = n->func <= FN_LOC_ALL;
            return emit_m(g, keyed ? OPC_SKEY : OPC_SCOPE, n, id, 0, 0);
        }
        default: break;
        }
    }
    if (n->k == N_BINARY) {
        Node *l = n->kids[0], *r = n->kids[1];
        switch (n->op) {
        case T_AND:
        case T_OR: return cg_chain(g, n);
        case T_MATCH:
        case T_NMATCH: return emit_m(g, OPC_MATCH, n, cg_val(g, l), r->rx, n->op == T_NMATCH);
        case T_IN: {
            /* the left side once, unless every comparison reads a column
             * in place */
            bool fused = true;
            for (int k = 0; k < r->nkids; k++) fused &= fusable(g, l, r->kids[k]);
            int lreg = fused ? -1 : cg_val(g, l);
            if (r->k == N_RANGE) {
                int ge = cg_cmp(g, n, T_GE, l, r->kids[0], lreg);
                int le = cg_cmp(g, n, T_LE, l, r->kids[1], lreg);
                return cg_logic(g, OPC_AND, ge, le, n);
            }
            int set = in_set(g, r);
            if (set >= 0) {
                /* a long list of integers or of strings: one lookup in its
                 * sorted values per row, not a comparison per element */
                int m = new_m(g);
                Instr i = ins(OPC_INSET, n);
                i.a = m;
                i.b = lreg >= 0 ? lreg : cg_val(g, l);
                i.c = set;
                i.ta = r->kids[0]->k == N_INT ? FT_INT : FT_STR;
                emit(g, i);
                return m;
            }
            int acc = -1;
            for (int k = 0; k < r->nkids; k++) {
                int e = cg_cmp(g, r->kids[k], T_EQ, l, r->kids[k], lreg);
                acc = acc < 0 ? e : cg_logic(g, OPC_OR, acc, e, n);
            }
            return acc >= 0 ? acc : emit_m(g, OPC_MSET, n, 0, 0, 0); /* an empty list */
        }
        case T_EQ:
        case T_NE:
            if (l->type == FT_BOOL && r->type == FT_BOOL) {
                int a = cg_bool(g, l), b = cg_bool(g, r);
                int both = cg_logic(g, OPC_AND, a, b, n);
                int na = cg_logic(g, OPC_NOT, a, 0, n), nb = cg_logic(g, OPC_NOT, b, 0, n);
                int neither = cg_logic(g, OPC_AND, na, nb, n);
                int eq = cg_logic(g, OPC_OR, both, neither, n);
                return n->op == T_EQ ? eq : cg_logic(g, OPC_NOT, eq, 0, n);
            }
            return cg_cmp(g, n, n->op, l, r, -1);
        default: return cg_cmp(g, n, n->op, l, r, -1);
        }
    }
    g->failed = true;
    g->err->start = n->start;
    g->err->end = n->end;
    snprintf(g->err->msg, sizeof g->err->msg, "internal error: cannot compile this condition");
    return 0;
}

/* the end of a program: RET of mask m (-1: of the value in ret_v); NULL
 * (the program freed) when code generation failed */
static Program *cg_finish(Cg *g, Node *n, int m)
{
    Instr r = ins(OPC_RET, n);
    r.a = m;
    emit(g, r);
    if (!g->failed) return g->P;
    prog_free(g->P);
    return NULL;
}

Program *compile_stage(Filter *F, Node *n, Stage *st, SrcError *err)
{
    Cg g = {.F = F, .P = prog_new(KEY_NONE, -1), .st = st, .err = err};
    int m = cg_bool(&g, n);
    return cg_finish(&g, n, m);
}

/* a value expression over events: the result in ret_v */
Program *compile_value(Filter *F, Node *n, SrcError *err)
{
    Cg g = {.F = F, .P = prog_new(KEY_NONE, -1), .err = err};
    g.P->ret_v = cg_val(&g, n);
    return cg_finish(&g, n, -1);
}

/* a constant subtree, as a one-row program */
Program *compile_const(Filter *F, Node *n, SrcError *err)
{
    Cg g = {.F = F, .P = prog_new(KEY_CONST, -1), .err = err};
    if (n->type == FT_BOOL) return cg_finish(&g, n, cg_bool(&g, n));
    g.P->ret_v = cg_val(&g, n);
    return cg_finish(&g, n, -1);
}

/* run a constant program: true when the result is a condition (its value in
 * *val), false for a value (*type 0 when absent) */
bool run_const(Filter *F, Program *P, uint8_t *type, int64_t *val)
{
    Blk b;
    blk_init(&b, F, P);
    static const uint8_t one = 1;
    b.base = 0;
    b.n = 1;
    b.live = &one;
    uint8_t out[1] = {0};
    vm_run(&b, out);
    bool isbool = P->ret_v < 0;
    if (isbool) {
        *val = out[0];
        *type = FT_BOOL;
    } else {
        *type = b.vt[P->ret_v][0];
        *val = b.vi[P->ret_v][0];
    }
    blk_free(&b);
    return isbool;
}
