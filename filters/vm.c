/*
 * vm.c — the filter VM: runs a program over one block of rows.
 *
 * Owns: the semantics of every opcode in ops.def over a block's registers
 * (values: an int64 payload and a type byte per row, 0 = absent; masks: a
 * byte 0/1 per row). What the loads read, and the per-key tables, are
 * vm_load.c's.
 * Invariants: an opcode touches only rows [0, n) of its registers; a row
 * that is not live may hold anything, and RET clears it; values keep the
 * type they have (a comparison of a string with a number is false, except
 * != which is true when both exist); any comparison with an absent value is
 * false; arithmetic that overflows or divides by zero is absent.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fint.h"
#include "base/timeparse.h"
#include "base/util.h"

const char *const OP_MNEMONIC[OPC__N] = {
#define OP(name, mn, operands, doc) mn,
#include "ops.def"
#undef OP
};
const char *const OP_OPERANDS[OPC__N] = {
#define OP(name, mn, operands, doc) operands,
#include "ops.def"
#undef OP
};


static int str_cmp(const Filter *F, int64_t a, int64_t b)
{
    size_t la, lb;
    const char *x = fs_str(F, (uint32_t)a, &la), *y = fs_str(F, (uint32_t)b, &lb);
    int c = memcmp(x, y, la < lb ? la : lb);
    if (c) return c;
    return la < lb ? -1 : la > lb;
}

static inline bool cmp_res(int op, int c)
{
    switch (op) {
    case T_EQ: return c == 0;
    case T_NE: return c != 0;
    case T_LT: return c < 0;
    case T_LE: return c <= 0;
    case T_GT: return c > 0;
    default: return c >= 0;
    }
}

static inline bool cmp_vals(const Filter *F, int op, uint8_t ta, int64_t a, uint8_t tb, int64_t b)
{
    if (!ta || !tb) return false;
    if (ta == FT_STR || tb == FT_STR) {
        if (ta != tb) return op == T_NE; /* a string is never equal to a number */
        if (op == T_EQ) return a == b;
        if (op == T_NE) return a != b;
        return cmp_res(op, str_cmp(F, a, b));
    }
    if (ta == FT_INT && tb == FT_INT) return cmp_res(op, a < b ? -1 : a > b);
    double x, y;
    if (ta == FT_INT) x = (double)a;
    else memcpy(&x, &a, 8);
    if (tb == FT_INT) y = (double)b;
    else memcpy(&y, &b, 8);
    if (x != x || y != y) return op == T_NE;
    return cmp_res(op, x < y ? -1 : x > y);
}

/* M = column op k, read in place */
static void cmpk_src(Blk *b, const Instr *in, uint8_t *m)
{
    const Store *s = b->s;
    const int64_t *ts = s->ts + b->base, *dur = s->dur + b->base;
    const uint8_t *fl = s->flags + b->base;
    const int64_t k = in->k;
    const size_t n = b->n;
#define LOOP(expr)                                                             \
    switch (in->cmp) {                                                         \
    case T_EQ: for (size_t i = 0; i < n; i++) m[i] = (expr) == k; break;       \
    case T_NE: for (size_t i = 0; i < n; i++) m[i] = (expr) != k; break;       \
    case T_LT: for (size_t i = 0; i < n; i++) m[i] = (expr) < k; break;        \
    case T_LE: for (size_t i = 0; i < n; i++) m[i] = (expr) <= k; break;       \
    case T_GT: for (size_t i = 0; i < n; i++) m[i] = (expr) > k; break;        \
    default: for (size_t i = 0; i < n; i++) m[i] = (expr) >= k; break;         \
    }
    switch (in->c) {
    case SRC_TS: LOOP(ts[i]); break;
    case SRC_DUR_NOFLAG: LOOP(dur[i]); break;
    case SRC_DUR:
        LOOP(dur[i]);
        for (size_t i = 0; i < n; i++) m[i] &= fl[i] & EVF_DUR;
        break;
    default: /* end */
        LOOP(ts[i] + dur[i]);
        for (size_t i = 0; i < n; i++) m[i] &= fl[i] & EVF_DUR;
        break;
    }
#undef LOOP
}

static void cmpk(Blk *b, const Instr *in, uint8_t *m)
{
    const uint8_t *vt = b->vt[in->b];
    const int64_t *vi = b->vi[in->b];
    const size_t n = b->n;
    const int64_t k = in->k;
    if (in->tb == FT_INT && in->ta == FT_INT) {
        /* the common case, in a loop the compiler can vectorise */
        switch (in->cmp) {
        case T_EQ: for (size_t i = 0; i < n; i++) m[i] = vt[i] && vi[i] == k; break;
        case T_NE: for (size_t i = 0; i < n; i++) m[i] = vt[i] && vi[i] != k; break;
        case T_LT: for (size_t i = 0; i < n; i++) m[i] = vt[i] && vi[i] < k; break;
        case T_LE: for (size_t i = 0; i < n; i++) m[i] = vt[i] && vi[i] <= k; break;
        case T_GT: for (size_t i = 0; i < n; i++) m[i] = vt[i] && vi[i] > k; break;
        default: for (size_t i = 0; i < n; i++) m[i] = vt[i] && vi[i] >= k; break;
        }
        return;
    }
    if (in->tb == FT_STR && in->ta == FT_STR && (in->cmp == T_EQ || in->cmp == T_NE)) {
        bool eq = in->cmp == T_EQ;
        for (size_t i = 0; i < n; i++) m[i] = vt[i] && ((vi[i] == k) == eq);
        return;
    }
    for (size_t i = 0; i < n; i++) m[i] = cmp_vals(b->F, in->cmp, vt[i], vi[i], in->ta, k);
}

/* ---- arithmetic --------------------------------------------------------- */

static inline bool as_num(uint8_t t, int64_t v, double *d)
{
    if (t == FT_INT) *d = (double)v;
    else if (t == FT_FLT) memcpy(d, &v, 8);
    else return false;
    return true;
}

static inline void put_flt(uint8_t *t, int64_t *v, double d)
{
    if (d != d) {
        *t = 0;
        return;
    }
    *t = FT_FLT;
    memcpy(v, &d, 8);
}

static void arith(int op, uint8_t ta, int64_t a, uint8_t tb, int64_t b, uint8_t *tr, int64_t *vr)
{
    *tr = 0;
    if ((ta != FT_INT && ta != FT_FLT) || (tb != FT_INT && tb != FT_FLT)) return;
    if (ta == FT_INT && tb == FT_INT && op != T_SLASH) {
        int64_t r;
        bool ovf;
        switch (op) {
        case T_PLUS: ovf = __builtin_add_overflow(a, b, &r); break;
        case T_MINUS: ovf = __builtin_sub_overflow(a, b, &r); break;
        case T_STAR: ovf = __builtin_mul_overflow(a, b, &r); break;
        default: /* % */
            if (b == 0) return;
            r = (b == -1) ? 0 : a % b;
            ovf = false;
        }
        if (ovf) return;
        *tr = FT_INT;
        *vr = r;
        return;
    }
    double x, y;
    as_num(ta, a, &x);
    as_num(tb, b, &y);
    switch (op) {
    case T_PLUS: put_flt(tr, vr, x + y); break;
    case T_MINUS: put_flt(tr, vr, x - y); break;
    case T_STAR: put_flt(tr, vr, x * y); break;
    case T_SLASH:
        if (y == 0) return;
        put_flt(tr, vr, x / y);
        break;
    default:
        if (y == 0) return;
        put_flt(tr, vr, fmod(x, y));
    }
}

/* ---- strings ------------------------------------------------------------ */

static size_t utf8_count(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* the string operand V[b] of row i, or NULL (the result V[a] is then
 * absent) */
static inline const char *str_arg(Blk *b, const Instr *in, size_t i, size_t *len)
{
    if (b->vt[in->b][i] != FT_STR) {
        b->vt[in->a][i] = 0;
        return NULL;
    }
    return fs_str(b->F, (uint32_t)b->vi[in->b][i], len);
}

/* 1 match, 0 no match; a failed match stops the run (filter_fail_regex)
 * and counts as no match meanwhile */
static int regex_test(Filter *F, int rx, uint32_t sid)
{
    size_t len;
    const char *s = fs_str(F, sid, &len);
    int r = rx_match(F->rx[rx], s, len);
    if (r < 0) {
        filter_fail_regex(F, rx, r, s, len);
        return 0;
    }
    return r;
}

/* ---- the interpreter ------------------------------------------------------ */

void vm_run(Blk *b, uint8_t *out)
{
    Filter *F = b->F;
    const Store *s = b->s;
    const Program *P = b->P;
    const size_t n = b->n;
    const uint8_t *live = b->live;
    uint32_t key[BLK];
    for (int pc = 0; pc < P->ncode; pc++) {
        const Instr *in = &P->code[pc];
        switch (in->op) {
        case OPC_LD_TS: {
            int64_t *vi = b->vi[in->a];
            memcpy(vi, s->ts + b->base, n * 8);
            memset(b->vt[in->a], FT_INT, n);
            break;
        }
        case OPC_LD_DUR:
        case OPC_LD_END: {
            int64_t *vi = b->vi[in->a];
            uint8_t *vt = b->vt[in->a];
            const uint8_t *fl = s->flags + b->base;
            const int64_t *dur = s->dur + b->base, *ts = s->ts + b->base;
            for (size_t i = 0; i < n; i++) {
                vi[i] = in->op == OPC_LD_DUR ? dur[i] : ts[i] + dur[i];
                vt[i] = (fl[i] & EVF_DUR) ? FT_INT : 0;
            }
            break;
        }
        case OPC_LD_COL: vm_load_col(b, in->a, in->b, s->cols[in->b].field == F_PARENT); break;
        case OPC_LD_NAME: {
            const uint32_t *nm = s->name + b->base;
            for (size_t i = 0; i < n; i++) {
                b->vi[in->a][i] = nm[i];
                b->vt[in->a][i] = nm[i] == NONE32 ? 0 : FT_STR;
            }
            break;
        }
        case OPC_LD_KIND:
            for (size_t i = 0; i < n; i++) {
                b->vi[in->a][i] = F->kind_sid[s->kind[b->base + i]];
                b->vt[in->a][i] = FT_STR;
            }
            break;
        case OPC_LD_LOC:
        case OPC_LD_ACT: {
            const uint32_t *idx = (in->op == OPC_LD_LOC ? s->loc : s->act) + b->base;
            const uint8_t *tt = in->op == OPC_LD_LOC ? F->loc_t : F->act_t;
            const int64_t *tv = in->op == OPC_LD_LOC ? F->loc_v : F->act_v;
            for (size_t i = 0; i < n; i++) {
                b->vt[in->a][i] = tt[idx[i]];
                b->vi[in->a][i] = tv[idx[i]];
            }
            break;
        }
        case OPC_LD_PEER: {
            const Column *c = store_canon_col(s, F_PEER);
            if (c) vm_load_col(b, in->a, (int)(c - s->cols), false);
            else memset(b->vt[in->a], 0, n);
            break;
        }
        case OPC_LD_KEY: vm_load_key(b, in->a); break;
        case OPC_SKEY: {
            const Scope *sc = F->scopes[in->b];
            for (size_t i = 0; i < n; i++) b->m[in->a][i] = sc->table[row_dom(b, i)];
            break;
        }
        case OPC_CONST:
            for (size_t i = 0; i < n; i++) {
                b->vi[in->a][i] = in->k;
                b->vt[in->a][i] = in->ta;
            }
            break;
        case OPC_CMP: {
            const uint8_t *ta = b->vt[in->b], *tb = b->vt[in->c];
            const int64_t *va = b->vi[in->b], *vb = b->vi[in->c];
            uint8_t *m = b->m[in->a];
            if (in->tb == FT_INT && in->tc == FT_INT) {
                for (size_t i = 0; i < n; i++) m[i] = ta[i] && tb[i] && cmp_res(in->cmp, va[i] < vb[i] ? -1 : va[i] > vb[i]);
            } else {
                for (size_t i = 0; i < n; i++) m[i] = cmp_vals(F, in->cmp, ta[i], va[i], tb[i], vb[i]);
            }
            break;
        }
        case OPC_CMPK:
            if (in->c != SRC_REG) cmpk_src(b, in, b->m[in->a]);
            else cmpk(b, in, b->m[in->a]);
            break;
        case OPC_HAS:
            for (size_t i = 0; i < n; i++) b->m[in->a][i] = b->vt[in->b][i] != 0;
            break;
        case OPC_LOOKUP:
        case OPC_LOOKUPV: {
            Table *t = F->tables[in->b];
            if (!t->built || (t->scope_dep >= 0 && t->epoch != F->epoch)) table_build(F, t);
            if (in->op == OPC_LOOKUP && t->uniform >= 0) {
                /* every key gives the same answer */
                memset(b->m[in->a], t->uniform, n);
                break;
            }
            if (in->op == OPC_LOOKUP && t->key == KEY_LOC && P->domain == KEY_NONE && n) {
                /* events are grouped by location: one answer per run of a
                 * location's events in the block (1,000 events a location
                 * still makes 1 or 2 runs of a block of 1,024) */
                uint8_t *m = b->m[in->a];
                size_t i = 0;
                while (i < n) {
                    uint32_t l = s->loc[b->base + i];
                    size_t end = (size_t)s->locs[l].first + s->locs[l].count - b->base;
                    if (end > n) end = n;
                    memset(m + i, t->bits[l], end - i);
                    i = end;
                }
                break;
            }
            vm_block_keys(b, t, key);
            if (t->done) vm_table_fill(F, t, key, n);
            if (in->op == OPC_LOOKUP) {
                const uint8_t *bits = t->bits;
                uint8_t *m = b->m[in->a];
                for (size_t i = 0; i < n; i++) m[i] = bits[key[i]];
            } else {
                for (size_t i = 0; i < n; i++) {
                    b->vi[in->a][i] = t->vals[key[i]];
                    b->vt[in->a][i] = t->vt[key[i]];
                }
            }
            break;
        }
        case OPC_SCOPE: {
            const uint64_t *ev = F->scopes[in->b]->evbits;
            for (size_t i = 0; i < n; i++) {
                size_t e = b->base + i;
                b->m[in->a][i] = (ev[e >> 6] >> (e & 63)) & 1;
            }
            break;
        }
        case OPC_AND: {
            uint8_t *m = b->m[in->a];
            const uint8_t *x = b->m[in->b], *y = b->m[in->c];
            for (size_t i = 0; i < n; i++) m[i] = x[i] & y[i];
            break;
        }
        case OPC_OR: {
            uint8_t *m = b->m[in->a];
            const uint8_t *x = b->m[in->b], *y = b->m[in->c];
            for (size_t i = 0; i < n; i++) m[i] = x[i] | y[i];
            break;
        }
        case OPC_NOT: {
            uint8_t *m = b->m[in->a];
            const uint8_t *x = b->m[in->b];
            for (size_t i = 0; i < n; i++) m[i] = x[i] ^ 1;
            break;
        }
        case OPC_MSET: memset(b->m[in->a], (int)in->k, n); break;
        case OPC_JNONE:
        case OPC_JALL: {
            const uint8_t *x = b->m[in->a];
            uint8_t acc = 0;
            if (in->op == OPC_JNONE) {
                for (size_t i = 0; i < n; i++) acc |= x[i] & live[i];
            } else {
                for (size_t i = 0; i < n; i++) acc |= (x[i] ^ 1) & live[i];
            }
            if (!acc) {
                /* decided: the result register takes the left side */
                memcpy(b->m[in->b], x, n);
                pc = in->target - 1;
            }
            break;
        }
        case OPC_ARITH:
            for (size_t i = 0; i < n; i++)
                arith(in->cmp, b->vt[in->b][i], b->vi[in->b][i], b->vt[in->c][i], b->vi[in->c][i], &b->vt[in->a][i],
                      &b->vi[in->a][i]);
            break;
        case OPC_NEG:
        case OPC_ABS:
            for (size_t i = 0; i < n; i++) {
                uint8_t t = b->vt[in->b][i];
                int64_t v = b->vi[in->b][i];
                uint8_t *rt = &b->vt[in->a][i];
                int64_t *rv = &b->vi[in->a][i];
                *rt = 0;
                if (t == FT_INT) {
                    if (v == INT64_MIN) continue;
                    *rt = FT_INT;
                    *rv = (in->op == OPC_NEG || v < 0) ? -v : v;
                } else if (t == FT_FLT) {
                    double d;
                    memcpy(&d, &v, 8);
                    put_flt(rt, rv, in->op == OPC_NEG ? -d : fabs(d));
                }
            }
            break;
        case OPC_MINMAX:
            for (size_t i = 0; i < n; i++) {
                uint8_t ta = b->vt[in->b][i], tb = b->vt[in->c][i];
                int64_t va = b->vi[in->b][i], vb = b->vi[in->c][i];
                bool na = ta == FT_INT || ta == FT_FLT, nb = tb == FT_INT || tb == FT_FLT;
                uint8_t *rt = &b->vt[in->a][i];
                int64_t *rv = &b->vi[in->a][i];
                if (!na && !nb) {
                    *rt = 0;
                } else if (!nb) {
                    *rt = ta, *rv = va;
                } else if (!na) {
                    *rt = tb, *rv = vb;
                } else if (ta == FT_INT && tb == FT_INT) {
                    *rt = FT_INT;
                    *rv = in->cmp ? (va > vb ? va : vb) : (va < vb ? va : vb);
                } else {
                    double x, y;
                    as_num(ta, va, &x);
                    as_num(tb, vb, &y);
                    put_flt(rt, rv, in->cmp ? (x > y ? x : y) : (x < y ? x : y));
                }
            }
            break;
        case OPC_LEN:
            for (size_t i = 0; i < n; i++) {
                size_t len;
                const char *str = str_arg(b, in, i, &len);
                if (!str) continue;
                b->vt[in->a][i] = FT_INT;
                b->vi[in->a][i] = (int64_t)utf8_count(str, len);
            }
            break;
        case OPC_CASE:
            for (size_t i = 0; i < n; i++) {
                size_t len;
                const char *str = str_arg(b, in, i, &len);
                if (!str) continue;
                char small[256];
                char *buf = len < sizeof small ? small : xmalloc(len + 1);
                for (size_t k = 0; k < len; k++) {
                    unsigned char c = (unsigned char)str[k];
                    if (in->k) buf[k] = (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
                    else buf[k] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
                }
                uint32_t r = fs_intern(F, buf, len);
                if (buf != small) free(buf);
                b->vt[in->a][i] = FT_STR;
                b->vi[in->a][i] = r;
            }
            break;
        case OPC_STRFN:
            for (size_t i = 0; i < n; i++) {
                uint8_t *m = &b->m[in->a][i];
                *m = 0;
                if (b->vt[in->b][i] != FT_STR || b->vt[in->c][i] != FT_STR) continue;
                size_t la, lb;
                const char *x = fs_str(F, (uint32_t)b->vi[in->b][i], &la);
                const char *y = fs_str(F, (uint32_t)b->vi[in->c][i], &lb);
                if (lb > la) continue;
                if (in->k == 0) *m = memcmp(x, y, lb) == 0;
                else if (in->k == 1) *m = memcmp(x + la - lb, y, lb) == 0;
                else *m = lb == 0 || memmem(x, la, y, lb) != NULL;
            }
            break;
        case OPC_MATCH: {
            size_t i = 0;
            for (; i < n; i++) {
                uint8_t *m = &b->m[in->a][i];
                if (b->vt[in->b][i] != FT_STR) {
                    *m = 0;
                    continue;
                }
                /* (a match may take milliseconds: the budget and a cancel
                 * are checked every 8, and a stopped run matches no more) */
                if (((i & 7) == 7 && filter_poll(F)) || F->status) break;
                int r = regex_test(F, in->c, (uint32_t)b->vi[in->b][i]);
                *m = in->k ? !r : r;
            }
            if (i < n) memset(&b->m[in->a][i], 0, n - i);
            break;
        }
        case OPC_INSET: {
            const int64_t *sv = F->sets[in->c];
            const size_t sn = F->setn[in->c];
            const uint8_t *vt = b->vt[in->b];
            const int64_t *vi = b->vi[in->b];
            uint8_t *m = b->m[in->a];
            for (size_t i = 0; i < n; i++) {
                if (vt[i] == in->ta) {
                    /* the same type: exact equality, by binary search */
                    size_t lo = 0, hi = sn;
                    while (lo < hi) {
                        size_t mid = (lo + hi) / 2;
                        if (sv[mid] < vi[i]) lo = mid + 1;
                        else hi = mid;
                    }
                    m[i] = lo < sn && sv[lo] == vi[i];
                } else if (vt[i] == FT_FLT && in->ta == FT_INT) {
                    /* a float against integers: as == compares them */
                    bool any = false;
                    for (size_t k = 0; k < sn && !any; k++) any = cmp_vals(F, T_EQ, FT_FLT, vi[i], FT_INT, sv[k]);
                    m[i] = any;
                } else {
                    m[i] = 0; /* absent, or a string against numbers (or a number against strings) */
                }
            }
            break;
        }
        case OPC_RET:
            if (in->a >= 0) {
                const uint8_t *x = b->m[in->a];
                for (size_t i = 0; i < n; i++) out[i] = x[i] & live[i];
            }
            return;
        default: break;
        }
    }
}

