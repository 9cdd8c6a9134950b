/*
 * disasm.c — the bytecode listing of a compiled filter (tnav filter
 * --disasm): every program (stages, the tables pushed down to key domains,
 * the inner conditions of scopes), one instruction per line with its
 * operands and the source span it was compiled from.
 *
 * Owns: nothing; reads a Filter.
 * Invariants: the listing is a pure function of the filter text and the
 * store's schema and dictionary (no addresses, no timings), so tests can
 * compare it with goldens; operands are printed in the order the opcode's
 * entry in ops.def names them, an operator (P) between the two it joins.
 */
#include <stdio.h>
#include <string.h>

#include "fint.h"
#include "store/store.h"
#include "base/util.h"

/* "L:C" of a byte offset; columns count characters */
static void pos_of(const char *text, int off, int *line, int *col)
{
    int l = 1, c = 1;
    for (int i = 0; i < off && text[i]; i++) {
        if (text[i] == '\n') l++, c = 1;
        else if (((unsigned char)text[i] & 0xC0) != 0x80) c++;
    }
    *line = l;
    *col = c;
}

static void put_span(FILE *out, const char *text, int start, int end)
{
    int l, c0, l1, c1;
    pos_of(text, start, &l, &c0);
    pos_of(text, end > start ? end - 1 : start, &l1, &c1);
    char span[48];
    if (l1 != l) snprintf(span, sizeof span, "%d:%d-%d:%d", l, c0, l1, c1);
    else if (c1 != c0) snprintf(span, sizeof span, "%d:%d-%d", l, c0, c1);
    else snprintf(span, sizeof span, "%d:%d", l, c0);
    fprintf(out, "%-9s ", span);
    /* the source text of the span, on one line, shortened */
    int shown = 0;
    for (int i = start; i < end && text[i]; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (shown >= 48 && (ch & 0xC0) != 0x80) {
            fputs("...", out);
            break;
        }
        putc(ch == '\n' || ch == '\t' ? ' ' : ch, out);
        if ((ch & 0xC0) != 0x80) shown++;
    }
}

/* a string constant, quoted and escaped */
static void put_str(FILE *out, const char *s, size_t n)
{
    putc('"', out);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c == '\n') fputs("\\n", out);
        else if (c == '\t') fputs("\\t", out);
        else if (c < 0x20 || c == 0x7F) fprintf(out, "\\u%04x", c);
        else putc(c, out);
    }
    putc('"', out);
}

static void put_const(FILE *out, const Filter *F, int type, int64_t k)
{
    switch (type) {
    case 0: fputs("absent", out); break;
    case FT_INT: fprintf(out, "%lld", (long long)k); break;
    case FT_FLT: {
        double d;
        memcpy(&d, &k, 8);
        fprintf(out, "%.17g", d);
        break;
    }
    case FT_STR: {
        size_t len;
        const char *s = fs_str(F, (uint32_t)k, &len);
        put_str(out, s, len);
        break;
    }
    default: fprintf(out, "%lld", (long long)k);
    }
}

static const char *const KEY_NAMES[] = {"event", "location", "peer", "activity", "kind", "string", "constant"};
static const char *const SCOPE_NAMES[] = {"act_any", "act_all", "loc_any", "loc_all", "group_any", "msg_any"};
static const char *const STRFN_NAMES[] = {"starts_with", "ends_with", "contains"};
static const char *const SRC_NAMES[] = {"", "ts", "dur", "end", "dur"};
static const char *const OP_TEXT[T__N] = {[T_EQ] = "==", [T_NE] = "!=", [T_LT] = "<",  [T_LE] = "<=",
                                          [T_GT] = ">",  [T_GE] = ">=", [T_PLUS] = "+", [T_MINUS] = "-",
                                          [T_STAR] = "*", [T_SLASH] = "/", [T_PERCENT] = "%"};

static const char *col_label(const Filter *F, int col)
{
    return col >= 0 && (uint32_t)col < F->s->ncols ? F->s->cols[col].name : "?";
}

static void put_regex(FILE *out, const Filter *F, int rx)
{
    size_t n;
    int fl;
    const char *p = rx_pattern(F->rx[rx], &n, &fl);
    putc('/', out);
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '/') putc('\\', out);
        putc(p[i], out);
    }
    putc('/', out);
    if (fl & RX_I) putc('i', out);
    if (fl & RX_X) putc('x', out);
    if (fl & RX_S) putc('s', out);
    if (fl & RX_M) putc('m', out);
}

static void put_instr(FILE *out, const Filter *F, const Program *P, int pc)
{
    const Instr *in = &P->code[pc];
    char ops[160];
    FILE *o = fmemopen(ops, sizeof ops, "w");
    if (!o) die_oom();
    const char *spec = OP_OPERANDS[in->op];
    const int32_t regs[3] = {in->a, in->b, in->c};
    /* an operator (P) is printed between the two operands it joins */
    const char *opname = NULL;
    if (strchr(spec, 'P')) opname = in->op == OPC_MINMAX ? (in->cmp ? "max" : "min") : OP_TEXT[in->cmp];
    int r = 0, printed = 0;
    for (const char *c = spec; *c; c++) {
        if (*c == 'P') continue;
        if (printed == 2 && opname) fprintf(o, " %s ", opname);
        else if (printed) fputs(", ", o);
        printed++;
        int32_t x = r < 3 ? regs[r] : 0;
        switch (*c) {
        case 'M':
            if (in->op == OPC_RET && P->ret_v >= 0) fprintf(o, "v%d", P->ret_v);
            else fprintf(o, "m%d", x);
            r++;
            break;
        case 'V':
            if (in->op == OPC_CMPK && in->c != SRC_REG) fputs(SRC_NAMES[in->c], o);
            else fprintf(o, "v%d", x);
            r++;
            break;
        case 'T':
            if (in->op == OPC_MATCH) put_regex(o, F, x);
            else fprintf(o, "t%d", x);
            r++;
            break;
        case 'S': fprintf(o, "s%d", x); r++; break;
        case 'L': fprintf(o, "list%d (%u %s)", x, F->setn[x], in->ta == FT_INT ? "integers" : "strings"); r++; break;
        case 'C': fprintf(o, "col \"%s\"", col_label(F, x)); r++; break;
        case 'J': fprintf(o, "->%d", in->target); r++; break;
        case 'K':
            if (in->op == OPC_CASE) fputs(in->k ? "upper" : "lower", o);
            else if (in->op == OPC_STRFN) fputs(STRFN_NAMES[in->k < 3 ? in->k : 2], o);
            else if (in->op == OPC_MSET) fprintf(o, "%s", in->k ? "true" : "false");
            else put_const(o, F, in->ta, in->k);
            break;
        default: break;
        }
    }
    /* the extras an operand list does not show */
    if (in->op == OPC_JNONE || in->op == OPC_JALL) fprintf(o, " (m%d = m%d)", in->b, in->a);
    if (in->op == OPC_CMPK && in->c == SRC_DUR_NOFLAG) fputs(" (instants fail)", o);
    if (in->op == OPC_MATCH && in->k) fputs(" (negated)", o);
    fclose(o);
    fprintf(out, "  %3d  %-10s %-40s ; ", pc, OP_MNEMONIC[in->op], ops);
    put_span(out, F->text, in->start, in->end);
    putc('\n', out);
}

static void put_prog(FILE *out, const Filter *F, const Program *P)
{
    for (int pc = 0; pc < P->ncode; pc++) put_instr(out, F, P, pc);
}

static void put_header(FILE *out, const Filter *F, const char *what, int start, int end)
{
    fprintf(out, "%s  ", what);
    put_span(out, F->text, start, end);
    putc('\n', out);
}

void filter_disasm(const Filter *F, FILE *out)
{
    char what[160];
    for (int i = 0; i < F->nstages; i++) {
        const Stage *st = &F->stages[i];
        snprintf(what, sizeof what, "stage %d:", i + 1);
        put_header(out, F, what, st->start, st->end);
        if (st->nscopes) {
            fputs("  scopes computed first:", out);
            for (int k = 0; k < st->nscopes; k++) fprintf(out, " s%d", st->scopes[k]);
            putc('\n', out);
        }
        put_prog(out, F, st->main);
    }
    for (int i = 0; i < F->ntables; i++) {
        const Table *t = F->tables[i];
        const char *key = KEY_NAMES[t->key];
        if (t->key == KEY_SID) key = t->col < 0 ? "name" : col_label(F, t->col);
        snprintf(what, sizeof what, "table t%d: %s per %s%s:", i, t->value ? "value" : "condition", key,
                 t->scope_dep >= 0 ? ", recomputed on every run (reads a scope)" : "");
        put_header(out, F, what, t->start, t->end);
        put_prog(out, F, t->prog);
    }
    for (int i = 0; i < F->nscopes; i++) {
        const Scope *sc = F->scopes[i];
        snprintf(what, sizeof what, "scope s%d: %s, inner condition per event:", i, SCOPE_NAMES[sc->kind]);
        put_header(out, F, what, sc->start, sc->end);
        put_prog(out, F, sc->inner);
    }
}
