/*
 * filter.c — compiling and running filters: the pipeline (parse, check,
 * compile), the filter's own strings, scopes, stages, a run's limits (its
 * time budget, a cancel flag, a regex that failed: the run stops and its
 * half-built tables are dropped), and error messages.
 * See filter.h for the contract and fint.h for the internals.
 */
#include "filter.h"

#include <math.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "fint.h"
#include "base/par.h"
#include "store/store.h"
#include "base/timeparse.h"
#include "base/util.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ---- the unified string space -------------------------------------------- */

const char *fs_str(const Filter *F, uint32_t sid, size_t *len)
{
    if (sid < F->dictn || sid_is_xid(sid)) return store_strn(F->s, sid, len);
    uint32_t l = sid - F->dictn;
    *len = strtab_len(&F->local, l);
    return strtab_str(&F->local, l);
}

uint32_t fs_find(const Filter *F, const char *s, size_t n)
{
    uint32_t id = store_find_str(F->s, s, n);
    if (id != NONE32 && (id < F->dictn || sid_is_xid(id))) return id;
    id = strtab_find(&F->local, s, n);
    return id == NONE32 ? NONE32 : F->dictn + id;
}

uint32_t fs_intern(Filter *F, const char *s, size_t n)
{
    uint32_t id = store_find_str(F->s, s, n);
    if (id != NONE32 && (id < F->dictn || sid_is_xid(id))) return id;
    return F->dictn + strtab_intern(&F->local, s, n);
}

/* ---- compile ------------------------------------------------------------- */

static void line_col(const char *text, int off, int *line, int *col)
{
    int l = 1, c = 1;
    for (int i = 0; i < off && text[i]; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            c++;
        }
    }
    *line = l;
    *col = c;
}

static void set_err(FilterError *e, const char *text, const SrcError *se)
{
    int n = (int)strlen(text);
    e->start = se->start < n ? se->start : n;
    e->end = se->end < n ? se->end : n;
    if (e->end <= e->start) e->end = e->start + 1;
    line_col(text, e->start, &e->line, &e->col);
    snprintf(e->msg, sizeof e->msg, "%s", se->msg);
}

static void filter_labels(Filter *F)
{
    const Store *s = F->s;
    F->loc_t = xcalloc((size_t)s->nloc + 1, 1);
    F->loc_v = xcalloc((size_t)s->nloc + 1, sizeof(int64_t));
    for (uint32_t l = 0; l < s->nloc; l++) {
        F->loc_t[l] = s->locs[l].is_int ? FT_INT : FT_STR;
        F->loc_v[l] = s->locs[l].is_int ? s->locs[l].ival : s->locs[l].label;
    }
    F->nkinds = K_USER + s->nukind;
    F->kind_sid = xmalloc(((size_t)F->nkinds + 1) * sizeof(uint32_t));
    for (uint32_t k = 0; k < F->nkinds; k++) {
        const char *nm = kind_name(s, (uint16_t)k);
        F->kind_sid[k] = fs_intern(F, nm, strlen(nm));
    }
}

/* The activities' labels as values (an integer when the label is one): a
 * pass over every activity's label, so built only for a filter that reads
 * `act` (the checker calls this when it resolves the field; 200,000 task
 * activities cost ~4 ms a compile otherwise). */
void filter_act_labels(Filter *F)
{
    if (F->act_t) return;
    const Store *s = F->s;
    F->act_t = xcalloc((size_t)s->nact + 1, 1);
    F->act_v = xcalloc((size_t)s->nact + 1, sizeof(int64_t));
    for (uint32_t a = 0; a < s->nact; a++) {
        uint32_t lab = s->acts[a].label;
        if (lab == NONE32) continue; /* the default activity of a location has no label */
        size_t len;
        const char *t = store_strn(s, lab, &len);
        int64_t iv;
        if (len <= 20 && parse_int64(t, len, &iv) == TP_OK) {
            F->act_t[a] = FT_INT;
            F->act_v[a] = iv;
        } else {
            F->act_t[a] = FT_STR;
            F->act_v[a] = lab;
        }
    }
}

/* ---- a run's limits: the time budget, cancel, failed regexes ---------- */

static double g_budget = FILTER_DEFAULT_BUDGET;
void filter_set_default_budget(double seconds) { g_budget = seconds > 0 ? seconds : 0; }
double filter_default_budget(void) { return g_budget; }
void filter_set_cancel(Filter *F, const atomic_bool *cancel) { F->cancel = cancel; }
void filter_set_budget(Filter *F, double seconds) { F->budget = seconds > 0 ? seconds : 0; }
const char *filter_run_error(const Filter *F) { return F->errmsg; }

static double mono_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool filter_poll(Filter *F)
{
    if (F->status) return true;
    if (F->cancel && atomic_load_explicit(F->cancel, memory_order_relaxed)) {
        F->status = FILTER_CANCELLED;
        snprintf(F->errmsg, sizeof F->errmsg, "filter cancelled");
    } else if (F->deadline > 0 && mono_sec() >= F->deadline) {
        F->status = FILTER_TIMEOUT;
        char b[32];
        snprintf(b, sizeof b, "%g", F->budget);
        snprintf(F->errmsg, sizeof F->errmsg, "filter stopped after %s s (--filter-timeout)", b);
    }
    return F->status != 0;
}

void filter_fail_regex(Filter *F, int rx, int code, const char *str, size_t n)
{
    if (F->status) return;
    F->status = FILTER_FAILED;
    rx_fail_message(F->rx[rx], code, str, n, F->errmsg, sizeof F->errmsg);
}

/* before a run: no stop yet, the deadline set */
static void run_begin(Filter *F)
{
    F->status = FILTER_OK;
    F->errmsg[0] = 0;
    F->deadline = F->budget > 0 ? mono_sec() + F->budget : 0;
}

/* after a run that stopped: tables and scopes it left half-built are
 * dropped (the next run builds them again) */
static void run_abandon(Filter *F)
{
    for (int i = 0; i < F->ntables; i++) {
        Table *t = F->tables[i];
        free(t->bits);
        free(t->vals);
        free(t->vt);
        free(t->done);
        t->bits = NULL;
        t->vals = NULL;
        t->vt = NULL;
        t->done = NULL;
        t->built = false;
    }
    F->epoch++;
}

/* A filter parsed from text, before checking: NULL (err filled) on a
 * syntax error. */
static Filter *filter_parse(const Store *s, const char *text, FilterError *err, Ast *ast, SrcError *se)
{
    memset(err, 0, sizeof *err);
    memset(se, 0, sizeof *se);
    Filter *F = xcalloc(1, sizeof *F);
    F->s = s;
    F->budget = g_budget;
    F->text = xstrdup(text);
    F->dictn = s->strs.count;
    strtab_init(&F->local);
    filter_labels(F);
    if (!ast_parse(text, ast, se)) {
        set_err(err, text, se);
        filter_free(F);
        return NULL;
    }
    return F;
}

/* the end of a compile: on an error, err filled and the filter freed */
static Filter *filter_done(Filter *F, bool ok, const char *text, FilterError *err, Ast *ast, const SrcError *se)
{
    ast_free(ast);
    if (ok) return F;
    set_err(err, text, se);
    filter_free(F);
    return NULL;
}

Filter *filter_compile(const Store *s, const char *text, FilterError *err)
{
    Ast ast;
    SrcError se;
    Filter *F = filter_parse(s, text, err, &ast, &se);
    if (!F) return NULL;
    F->nstages = ast.nstages;
    F->stages = xcalloc((size_t)ast.nstages + 1, sizeof(Stage));
    F->stage_counts = xcalloc((size_t)ast.nstages + 1, sizeof(uint64_t));
    bool ok = true;
    for (int i = 0; i < ast.nstages && ok; i++) {
        Stage *st = &F->stages[i];
        st->start = ast.stages[i]->start;
        st->end = ast.stages[i]->end;
        ok = check_stage(F, &ast.stages[i], &se) && (st->main = compile_stage(F, ast.stages[i], st, &se)) != NULL;
    }
    return filter_done(F, ok, text, err, &ast, &se);
}

Filter *filter_compile_value(const Store *s, const char *text, FilterError *err)
{
    Ast ast;
    SrcError se;
    Filter *F = filter_parse(s, text, err, &ast, &se);
    if (!F) return NULL;
    if (ast.nstages != 1) {
        se.start = ast.stages[1]->start;
        se.end = ast.stages[1]->end;
        snprintf(se.msg, sizeof se.msg, "a metric expression has one stage");
    } else if (check_value(F, &ast.stages[0], &se)) {
        F->value = compile_value(F, ast.stages[0], &se);
    }
    return filter_done(F, F->value != NULL, text, err, &ast, &se);
}

int filter_values(Filter *F, double *out)
{
    const Store *s = F->s;
    run_begin(F);
    Blk b;
    blk_init(&b, F, F->value);
    uint8_t live[BLK], res[BLK];
    memset(live, 1, sizeof live);
    F->epoch++;
    int r = F->value->ret_v;
    for (size_t base = 0; base < s->n && !filter_poll(F); base += BLK) {
        b.base = base;
        b.n = s->n - base < BLK ? s->n - base : BLK;
        b.live = live;
        vm_run(&b, res);
        for (size_t i = 0; i < b.n; i++) {
            int64_t v = b.vi[r][i];
            double d = NAN;
            if (b.vt[r][i] == FT_INT) d = (double)v;
            else if (b.vt[r][i] == FT_FLT) memcpy(&d, &v, 8);
            out[base + i] = d;
        }
    }
    blk_free(&b);
    if (F->status) run_abandon(F);
    return F->status;
}

bool filter_syntax_ok(const char *text, FilterError *err)
{
    memset(err, 0, sizeof *err);
    Ast ast;
    SrcError se;
    memset(&se, 0, sizeof se);
    if (!ast_parse(text, &ast, &se)) {
        set_err(err, text, &se);
        return false;
    }
    ast_free(&ast);
    return true;
}

void filter_free(Filter *F)
{
    if (!F) return;
    for (int i = 0; i < F->nstages; i++) {
        prog_free(F->stages[i].main);
        free(F->stages[i].scopes);
    }
    free(F->stages);
    prog_free(F->value);
    for (int i = 0; i < F->ntables; i++) {
        Table *t = F->tables[i];
        prog_free(t->prog);
        free(t->bits);
        free(t->vals);
        free(t->vt);
        free(t->done);
        free(t);
    }
    free(F->tables);
    for (int i = 0; i < F->nscopes; i++) {
        prog_free(F->scopes[i]->inner);
        free(F->scopes[i]->table);
        free(F->scopes[i]->evbits);
        free(F->scopes[i]);
    }
    free(F->scopes);
    for (int i = 0; i < F->nrx; i++) rx_free(F->rx[i]);
    free(F->rx);
    for (int i = 0; i < F->nsets; i++) free(F->sets[i]);
    free(F->sets);
    free(F->setn);
    strtab_free(&F->local);
    free(F->loc_t);
    free(F->loc_v);
    free(F->act_t);
    free(F->act_v);
    free(F->kind_sid);
    free(F->stage_counts);
    free(F->text);
    free(F);
}

int filter_nstages(const Filter *f) { return f->nstages; }

/* ---- run ----------------------------------------------------------------- */

static inline void unpack_live(const uint64_t *sel, size_t base, size_t n, uint8_t *live)
{
    /* base is a multiple of 64 */
    for (size_t i = 0; i < n; i += 64) {
        uint64_t w = sel[(base + i) >> 6];
        size_t m = n - i < 64 ? n - i : 64;
        if (w == ~0ULL || w == 0) {
            memset(live + i, w ? 1 : 0, m);
            continue;
        }
        for (size_t j = 0; j < m; j++) live[i + j] = (w >> j) & 1;
    }
}

static inline void pack_out(const uint8_t *out, size_t base, size_t n, uint64_t *sel)
{
    /* base is a multiple of BLK, hence of 64 */
    size_t w0 = base >> 6;
    size_t i = 0;
#if defined(__SSE2__)
    for (; i + 64 <= n; i += 64) {
        uint64_t w = 0;
        for (int q = 0; q < 4; q++) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(out + i + 16 * q));
            w |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_slli_epi16(v, 7)) << (16 * q);
        }
        sel[w0 + i / 64] = w;
    }
#endif
    for (; i < n; i += 64) {
        uint64_t w = 0;
        for (size_t j = 0; j < 64 && i + j < n; j++) w |= (uint64_t)(out[i + j] & 1) << j;
        sel[w0 + i / 64] = w;
    }
}

/* run an event program over the events selected in in; its rows in out */
static void run_events(Filter *F, const Program *P, const uint64_t *in, uint64_t *out)
{
    const Store *s = F->s;
    size_t n = s->n;
    size_t nw = (n + 63) / 64;
    memset(out, 0, nw * 8);
    Blk b;
    blk_init(&b, F, P);
    uint8_t live[BLK], res[BLK];
    for (size_t base = 0; base < n && !filter_poll(F); base += BLK) {
        size_t m = n - base < BLK ? n - base : BLK;
        bool any = false;
        for (size_t w = base >> 6; w < (base + m + 63) >> 6; w++)
            if (in[w]) {
                any = true;
                break;
            }
        if (!any) continue;
        unpack_live(in, base, m, live);
        b.base = base;
        b.n = m;
        b.live = live;
        vm_run(&b, res);
        pack_out(res, base, m, out);
    }
    blk_free(&b);
}

/* a bitmap of the events map[] assigns to a chosen index */
static uint64_t *events_of(const EvIdx *map, uint32_t n, const uint8_t *chosen, size_t nw)
{
    uint64_t *bits = xcalloc(nw + 1, 8);
    for (uint32_t i = 0; i < n; i++)
        if (chosen[map[i].idx]) bits[map[i].ev >> 6] |= 1ULL << (map[i].ev & 63);
    return bits;
}

/* A scope's result over the events in `in` (those alive in the stage): its
 * inner condition runs on them (so `ev` holds only live events), then the
 * result is gathered per key or per event. */
static void compute_scope(Filter *F, Scope *sc, const uint64_t *in)
{
    const Store *s = F->s;
    size_t n = s->n, nw = (n + 63) / 64;
    uint64_t *ev = xmalloc_big((nw + 1) * 8);
    run_events(F, sc->inner, in, ev);
#define BIT(v, e) (((v)[(e) >> 6] >> ((e) & 63)) & 1)
    switch (sc->kind) {
    case SC_ACT_ANY:
    case SC_ACT_ALL:
    case SC_LOC_ANY:
    case SC_LOC_ALL: {
        /* any: a key (activity, location) with a live event that passes;
         * all: none with a live event that fails. Only the deciding events
         * are visited. */
        bool all = sc->kind == SC_ACT_ALL || sc->kind == SC_LOC_ALL;
        bool act = sc->kind == SC_ACT_ANY || sc->kind == SC_ACT_ALL;
        const uint32_t *key = act ? s->act : s->loc;
        size_t nk = act ? s->nact : s->nloc;
        free(sc->table);
        sc->table = xmalloc(nk + 1);
        memset(sc->table, all ? 1 : 0, nk + 1);
        for (size_t w = 0; w < nw; w++) {
            uint64_t x = all ? in[w] & ~ev[w] : in[w] & ev[w];
            while (x) {
                sc->table[key[w * 64 + (size_t)__builtin_ctzll(x)]] = all ? 0 : 1;
                x &= x - 1;
            }
        }
        break;
    }
    case SC_GROUP_ANY: {
        /* the groups with a passing event, then all their events */
        uint8_t *g = xcalloc((size_t)s->ngroups + 1, 1);
        for (uint32_t i = 0; i < s->nev_group; i++)
            if (BIT(ev, s->ev_group[i].ev)) g[s->ev_group[i].idx] = 1;
        free(sc->evbits);
        sc->evbits = events_of(s->ev_group, s->nev_group, g, nw);
        free(g);
        break;
    }
    default: { /* SC_MSG_ANY: the messages with a passing end, then their events */
        uint8_t *mm = xcalloc((size_t)s->nmsg + 1, 1);
        for (uint32_t i = 0; i < s->nmsg; i++) {
            const Message *M = &s->msgs[i];
            uint32_t x = M->send_ev, y = M->recv_ev;
            if ((x != NONE32 && BIT(ev, x)) || (y != NONE32 && BIT(ev, y))) mm[i] = 1;
        }
        free(sc->evbits);
        sc->evbits = events_of(s->ev_msg, s->nev_msg, mm, nw);
        free(mm);
        break;
    }
    }
#undef BIT
    xfree_big(ev, (nw + 1) * 8);
}

int filter_run(Filter *F, uint64_t *sel, uint64_t *stage_counts)
{
    oom_phase("running the filter");
    run_begin(F);
    const Store *s = F->s;
    size_t n = s->n, nw = (n + 63) / 64;
    /* all events to start with */
    uint64_t *cur = xmalloc_big((nw + 1) * 8);
    memset(cur, 0xFF, nw * 8);
    if (n % 64) cur[nw - 1] = (1ULL << (n % 64)) - 1;
    uint64_t *next = sel;
    for (int i = 0; i < F->nstages && !F->status; i++) {
        Stage *st = &F->stages[i];
        /* scopes see the events that survived the stages before; they are
         * computed inner first, and a table is built when a block first
         * looks it up, so after the scopes it reads */
        F->epoch++;
        for (int k = 0; k < st->nscopes; k++) compute_scope(F, F->scopes[st->scopes[k]], cur);
        run_events(F, st->main, cur, next);
        uint64_t c = bitmap_count(next, nw);
        F->stage_counts[i] = c;
        if (stage_counts) stage_counts[i] = c;
        memcpy(cur, next, nw * 8);
    }
    memcpy(sel, cur, nw * 8);
    xfree_big(cur, (nw + 1) * 8);
    if (F->status) {
        /* (nothing of a stopped run is an answer) */
        memset(sel, 0, nw * 8);
        run_abandon(F);
    }
    return F->status;
}

/* ---- messages and listings ------------------------------------------------ */

/* the byte offset n characters (code points) before / after i, within [lo, hi) */
static int chars_back(const char *text, int i, int lo, int n)
{
    while (i > lo && n > 0) {
        i--;
        if (((unsigned char)text[i] & 0xC0) != 0x80) n--;
    }
    return i;
}
static int chars_fwd(const char *text, int i, int hi, int n)
{
    while (i < hi && n > 0) {
        i++;
        while (i < hi && ((unsigned char)text[i] & 0xC0) == 0x80) i++;
        n--;
    }
    return i;
}

void filter_print_error(FILE *out, const char *text, const FilterError *e)
{
    fprintf(out, "tnav: filter:%d:%d: %s\n", e->line, e->col, e->msg);
    /* the line of the error, then a caret under the span; of a long line
     * only ~30 characters either side of the caret, "…" where cut */
    int ls = e->start;
    while (ls > 0 && text[ls - 1] != '\n') ls--;
    int le = e->start;
    while (text[le] && text[le] != '\n') le++;
    enum { SIDE = 30 };
    int ws = chars_back(text, e->start, ls, SIDE);
    int we = chars_fwd(text, e->start, le, SIDE);
    /* the line, with bytes that would upset a terminal shown as '?' */
    fputs(ws > ls ? "  …" : "  ", out);
    for (int i = ws; i < we;) {
        unsigned char c = (unsigned char)text[i];
        size_t l = c < 0x80 ? 1 : utf8_seq_len((const unsigned char *)text + i, (size_t)(we - i));
        if (c < 0x80 && (c >= 0x20 || c == '\t') && c != 0x7F) putc(c, out);
        else if (c >= 0x80 && l) fwrite(text + i, 1, l, out);
        else putc('?', out);
        i += l ? (int)l : 1;
    }
    if (we < le) fputs("…", out);
    fputs(ws > ls ? "\n   " : "\n  ", out);
    for (int i = ws; i < e->start; i++) {
        if (((unsigned char)text[i] & 0xC0) == 0x80) continue;
        putc(text[i] == '\t' ? '\t' : ' ', out);
    }
    putc('^', out);
    int end = e->end < we ? e->end : we;
    bool first = true;
    for (int i = e->start; i < end; i++) {
        if (((unsigned char)text[i] & 0xC0) == 0x80) continue;
        if (first) {
            first = false;
            continue;
        }
        putc('~', out);
    }
    putc('\n', out);
}
