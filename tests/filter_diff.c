/*
 * filter_diff.c — differential test of the filter VM (filters/) against a
 * small reference tree-walker written from doc/FILTER.md.
 *
 * Random traces (deterministic from --seed; 0 to ~5000 events, plus one of
 * 270000 events with as many distinct names, so that the string tables are
 * filled lazily) are generated as C structs of this file's own model,
 * written as CSV to a temporary file (columns in a random order) and loaded
 * with load_traces(); every event carries an extra integer column `seq`
 * that maps the store's events back to the model. Random typed expressions
 * (every operator, unit, function, scope, 1 to 3 stages) are printed as
 * filter text (fully parenthesised, with minimal parentheses relying on the
 * documented precedence, or in between), compiled and run by the VM, and
 * evaluated by the reference over the model: the selections (bits < n) and
 * the per-stage counts must agree; every few filters are run twice (cached
 * tables). Per trace, hand-built filters probe the edges (instants against
 * negative constants, INT64_MIN, % -1, division by zero, empty strings,
 * labels, scopes over the survivors of earlier stages, one event at the
 * edges of the blocks of 1024 events, trees 300 levels deep). A batch of
 * deliberately invalid filters checks that compilation fails with the right
 * 1-based line and column, and truncated filters must fail inside the text.
 *
 *   make && cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow \
 *      -Wno-unused-parameter -pthread -Isrc -Ifilters -O1 -g \
 *      -o /tmp/filter_diff tests/filter_diff.c build/libtnav.a \
 *      -lcsv -lpcre2-8 -lm -pthread
 *   sanitizers: the same with -fsanitize=address,undefined
 *      -fno-omit-frame-pointer -fno-sanitize-recover=all and the library
 *      sources (every .c file of src/ and filters/ but src/main.c) instead of
 *      build/libtnav.a
 *   /tmp/filter_diff [--seed N] [--traces N] [--exprs N] [--trace T]
 *                    [--no-big] [--verbose]
 *      defaults: --seed 1 --traces 40 --exprs 120, and the big trace
 *      (number N of --traces N; --no-big leaves it out); --trace T runs only
 *      trace T of the seed (to reproduce a failure); --verbose prints every
 *      filter.
 *
 * Output: "not ok - seed S trace T expr: TEXT" per mismatch (with the
 * differing events and a ./tnav command line that reproduces it on a kept
 * copy of the trace, /tmp/filter_diff_fail_S.csv), one "ok - ..." line per
 * trace, and finally exactly one line "filter-diff: P passed, F failed";
 * exit status 1 when F > 0.
 *
 * The reference's regexes are POSIX EREs (<regex.h>); the generator only
 * uses patterns whose meaning is the same in PCRE2 and in an ERE on the
 * subjects it can produce (no newlines or NULs in regex subjects).
 */
#include <inttypes.h>
#include <math.h>
#include <regex.h> /* POSIX, for the reference (tnav's PCRE2 wrapper is rx.h) */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "filters/filter.h"
#include "load/load.h"
#include "store/store.h"
#include "strbuf.h"
#include "base/util.h"

/* ---- utilities ----------------------------------------------------------- */

/* splitmix64 */
typedef struct {
    uint64_t s;
} Rng;

static uint64_t rnext(Rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int rn(Rng *r, int n) { return n > 0 ? (int)(rnext(r) % (uint64_t)n) : 0; }
static bool chance(Rng *r, double p) { return (double)(rnext(r) >> 11) * 0x1p-53 < p; }
static int64_t rrange(Rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rnext(r) % ((uint64_t)(hi - lo) + 1));
}

/* ---- labels --------------------------------------------------------------- */

typedef struct {
    char text[24];
    bool isint;
    int64_t iv;
} Label;

/* canonical integer text: optional '-', digits, no leading zero, not "-0" */
static bool canon_int(const char *s, int64_t *v)
{
    const char *p = s;
    if (*p == '-') p++;
    if (!*p || strlen(p) > 18) return false;
    for (const char *q = p; *q; q++)
        if (*q < '0' || *q > '9') return false;
    if (p[0] == '0' && (p[1] || p != s)) return false;
    *v = strtoll(s, NULL, 10);
    return true;
}

static void label_set(Label *l, const char *text)
{
    snprintf(l->text, sizeof l->text, "%s", text);
    l->isint = canon_int(text, &l->iv);
}

/* ---- the trace model ------------------------------------------------------ */

enum { KI_STATE, KI_SEND, KI_RECV, KI_MSG, KI_SYNC, KI_MARK, KI_COUNTER, KI_IO, KI_ENTER, NKINDS };
static const char *const KINDS[NKINDS] = {"state", "send", "recv", "msg", "sync", "mark", "counter", "io", "Compute"};

static const char *const NAMES[] = {"MPI_Send", "MPI_Recv", "MPI_Barrier", "compute", "x",     "é∂",
                                    "mpi_send", "c7",       "Send",        "io/read", "42",    "do work",
                                    "n17",      "a,\"b",    "MPI_Wait",    "cx",      "MPI_A", "it's",
                                    "a\tb",    "back\\slash"};
#define NNAMES ((int)(sizeof NAMES / sizeof NAMES[0]))

static const char *const ACT_TEXT[] = {"a1", "a2", "a3", "7", "12", "-3", "main"};
#define NACT ((int)(sizeof ACT_TEXT / sizeof ACT_TEXT[0]))
static const char *const PAR_TEXT[] = {"a1", "a2", "7", "12", "-3", "main", "a9", "0"};
#define NPAR ((int)(sizeof PAR_TEXT / sizeof PAR_TEXT[0]))
static const char *const GRP_TEXT[] = {"g1", "g2", "g3", "g4", "3", "4"};
#define NGRP ((int)(sizeof GRP_TEXT / sizeof GRP_TEXT[0]))
static const char *const SX_TEXT[] = {"alpha", "MPI_Wait", "x", "é∂", "Send", "a,\"b", "zz top", "beta7"};
#define NSX ((int)(sizeof SX_TEXT / sizeof SX_TEXT[0]))

enum { VA = 0, VI = 1, VF = 2, VS = 3 }; /* absent, int, float, string */

static const struct {
    const char *text;
    int t;
    int64_t i;
    double f;
} MV[] = {{"12", VI, 12, 0},       {"-4", VI, -4, 0},     {"0", VI, 0, 0},        {"7", VI, 7, 0},
          {"2.5", VF, 0, 2.5},     {"-0.25", VF, 0, -.25}, {"3.0", VF, 0, 3.0},    {"1024.75", VF, 0, 1024.75},
          {"abc", VS, 0, 0},       {"x", VS, 0, 0},       {"7a", VS, 0, 0},       {"é∂", VS, 0, 0},
          {"MPI_Send", VS, 0, 0},  {"Send", VS, 0, 0}};
#define NMV ((int)(sizeof MV / sizeof MV[0]))
enum { MV_FIRST_INT = 0, MV_FIRST_FLT = 4, MV_FIRST_STR = 8 };

static Label ACT_L[NACT], PAR_L[NPAR], GRP_L[NGRP];

/* CSV columns */
enum { C_TS, C_DUR, C_LOC, C_ACT, C_KIND, C_NAME, C_PEER, C_BYTES, C_ID, C_TAG, C_GROUP, C_PARENT, C_SEQ, C_F, C_SX, C_M, NCOL };
static const char *const COL_NAME[NCOL] = {"ts",  "dur", "loc",   "act",    "kind", "name", "peer", "bytes",
                                           "id",  "tag", "group", "parent", "seq",  "f",    "sx",   "m"};

/* filter fields */
enum { FD_TS, FD_DUR, FD_END, FD_LOC, FD_ACT, FD_KIND, FD_NAME, FD_PEER, FD_BYTES, FD_ID, FD_TAG, FD_GROUP, FD_PARENT, FD_SEQ, FD_F, FD_SX, FD_M, NFD };
static const char *const FD_NAME_S[NFD] = {"ts",  "dur", "end",   "loc",    "act", "kind", "name", "peer", "bytes",
                                           "id",  "tag", "group", "parent", "seq", "f",    "sx",   "m"};

/* static types of the fields in one trace */
enum { ST_UNK, ST_NULL, ST_INT, ST_FLT, ST_STR, ST_DYN };

typedef struct {
    int64_t ts, dur, bytes, id, tag;
    double f;
    int32_t mate; /* the matched partner (send <-> recv), or -1 */
    int32_t msg;  /* message, or -1 */
    int32_t actid;
    const char *name; /* NULL: absent */
    int16_t loc, peer, act, parent, group, sx, m; /* -1: absent */
    uint8_t kind, kind_w; /* effective kind; written: 0 as is, 1 empty, 2 upper case */
    bool has_dur, has_bytes, has_id, has_tag, has_f;
} Ev;

typedef struct {
    int n;
    Ev *ev;
    Label loc[16];
    int nloc, nreal; /* locations [0, nreal) have events; the rest are only peers */
    int nmsg;
    int32_t (*msg)[2]; /* send, recv event (-1: none) */
    bool col[NCOL];
    int st[NFD];
    int nactid;
    char *namebuf;
} Trace;

static void trace_free(Trace *T)
{
    free(T->ev);
    free(T->msg);
    free(T->namebuf);
    memset(T, 0, sizeof *T);
}

typedef struct {
    int tsmode, gmode;
    double p_act_absent, p_dur;
    int64_t id_next;
} TGen;

static int64_t gen_ts(Rng *r, int mode)
{
    switch (mode) {
    case 0: return rrange(r, 0, 10000000);
    case 1: return rrange(r, 4600000000000000000LL, 4600001000000000000LL); /* ts + ts overflows */
    case 2: return rrange(r, -1000000000, 1000000000);
    default: return rrange(r, 1700000000000000000LL, 1700000100000000000LL);
    }
}

static void fill_common(Trace *T, TGen *tg, Rng *r, Ev *v)
{
    memset(v, 0, sizeof *v);
    v->mate = v->msg = -1;
    v->peer = v->act = v->parent = v->group = v->sx = v->m = -1;
    v->loc = (int16_t)rn(r, T->nreal);
    if (T->col[C_ACT] && !chance(r, tg->p_act_absent)) v->act = (int16_t)rn(r, NACT);
    v->ts = gen_ts(r, tg->tsmode);
    if (T->col[C_DUR] && chance(r, tg->p_dur)) {
        v->has_dur = true;
        int k = rn(r, 20);
        v->dur = k == 0 ? 0 : k < 9 ? rrange(r, 1, 1000) : k < 17 ? rrange(r, 1, 1000000) : rrange(r, 1000000, 1000000000);
    }
    if (T->col[C_NAME] && !chance(r, 0.15)) v->name = NAMES[rn(r, NNAMES)];
    if (T->col[C_BYTES] && chance(r, 0.4)) {
        static const int64_t B[] = {0, 1, 4096, 1048576, 1000, 1073741824, 512, 65536};
        v->has_bytes = true;
        v->bytes = chance(r, 0.5) ? B[rn(r, 8)] : rrange(r, 0, 10000000);
    }
    if (T->col[C_TAG] && chance(r, 0.4)) {
        v->has_tag = true;
        v->tag = rrange(r, -3, 5);
    }
    if (T->col[C_GROUP] && chance(r, 0.2)) v->group = (int16_t)(tg->gmode == 0 ? rn(r, 4) : tg->gmode == 1 ? rn(r, NGRP) : 4 + rn(r, 2));
    if (T->col[C_PARENT] && chance(r, 0.25)) v->parent = (int16_t)rn(r, NPAR);
    if (chance(r, 0.7)) {
        v->has_f = true;
        v->f = (double)rrange(r, -400, 400) / 4.0;
    }
    if (chance(r, 0.6)) v->sx = (int16_t)rn(r, NSX);
    if (chance(r, 0.75)) v->m = (int16_t)rn(r, NMV);
}

static int ghost(const Trace *T, Rng *r) { return T->nreal + rn(r, T->nloc - T->nreal); }

/* flavor: 0 random, 1 every column (the invalid-filter batch runs on it),
 * 2 the big trace (unique names) */
static void gen_trace(Trace *T, Rng *r, int n, int flavor)
{
    memset(T, 0, sizeof *T);
    for (int c = 0; c < NCOL; c++) T->col[c] = true;
    if (flavor == 0) {
        static const int opt[] = {C_ACT, C_PEER, C_BYTES, C_TAG, C_GROUP, C_PARENT};
        for (int k = 0; k < 6; k++)
            if (chance(r, 0.12)) T->col[opt[k]] = false;
        if (chance(r, 0.06)) T->col[C_ID] = false;
        if (chance(r, 0.04)) T->col[C_DUR] = false;
        if (chance(r, 0.04)) T->col[C_KIND] = false;
        if (chance(r, 0.04)) T->col[C_NAME] = false;
    }
    /* locations */
    int lmode = flavor == 2 ? 0 : rn(r, 3);
    T->nreal = flavor == 2 ? 6 : 1 + rn(r, 8);
    char tmp[32];
    for (int i = 0; i < T->nreal; i++) {
        if (lmode == 0) {
            if (i == 0 && chance(r, 0.2)) snprintf(tmp, sizeof tmp, "-1");
            else snprintf(tmp, sizeof tmp, "%d", i);
        } else if (lmode == 1) {
            snprintf(tmp, sizeof tmp, "n%d", i + 1);
        } else {
            if (i % 2 == 0) snprintf(tmp, sizeof tmp, "%d", i);
            else snprintf(tmp, sizeof tmp, i % 4 == 1 ? "n%d" : "node%d", i);
        }
        label_set(&T->loc[i], tmp);
    }
    T->nloc = T->nreal;
    if (lmode != 1) label_set(&T->loc[T->nloc++], "99");
    if (lmode != 0) label_set(&T->loc[T->nloc++], "ghost");

    TGen tg;
    tg.tsmode = flavor == 2 ? 0 : rn(r, 4);
    tg.gmode = rn(r, 3);
    static const double PA[] = {0, 0.3, 1.0};
    tg.p_act_absent = PA[rn(r, 3)];
    tg.p_dur = 0.5 + 0.45 * (double)rn(r, 100) / 100.0;
    tg.id_next = 1 + rn(r, 1000);

    T->n = n;
    T->ev = xcalloc((size_t)n + 1, sizeof(Ev));
    if (flavor == 2) T->namebuf = xmalloc((size_t)n * 16 + 1);
    int i = 0;
    while (i < n) {
        Ev *v = &T->ev[i];
        fill_common(T, &tg, r, v);
        int w = T->col[C_KIND] ? rn(r, 89) : 88;
        int k;
        if (w < 25) k = KI_STATE;
        else if (w < 37) k = KI_SEND;
        else if (w < 41) k = KI_RECV;
        else if (w < 49) k = KI_MSG;
        else if (w < 59) k = KI_SYNC;
        else if (w < 67) k = KI_MARK;
        else if (w < 71) k = KI_COUNTER;
        else if (w < 76) k = KI_IO;
        else if (w < 79) k = KI_ENTER;
        else k = -1; /* empty: the default kind */
        if (k < 0) {
            v->kind_w = 1;
            v->kind = v->has_dur ? KI_STATE : KI_MARK;
        } else {
            v->kind = (uint8_t)k;
            v->kind_w = k < KI_IO && chance(r, 0.05) ? 2 : 0;
        }
        if (k == KI_SEND) {
            v->peer = T->col[C_PEER] ? (int16_t)(chance(r, 0.12) ? ghost(T, r) : rn(r, T->nreal)) : -1;
            if (T->col[C_ID]) {
                v->has_id = true;
                v->id = tg.id_next++;
            }
            if (T->col[C_PEER] && T->col[C_ID] && v->peer < T->nreal && i + 1 < n && chance(r, 0.8)) {
                Ev *x = &T->ev[i + 1];
                fill_common(T, &tg, r, x);
                x->kind = KI_RECV;
                x->kind_w = chance(r, 0.05) ? 2 : 0;
                x->loc = v->peer;
                x->peer = v->loc;
                x->has_id = true;
                x->id = v->id;
                x->has_tag = v->has_tag;
                x->tag = v->tag;
                x->has_bytes = v->has_bytes;
                x->bytes = v->bytes;
                x->ts = v->ts + rrange(r, 1, 100000);
                v->mate = i + 1;
                x->mate = i;
                i += 2;
                continue;
            }
        } else if (k == KI_RECV) {
            /* a receive without a send: from a location without events,
             * so that no first-in first-out pairing can claim it */
            v->peer = T->col[C_PEER] && chance(r, 0.7) ? (int16_t)ghost(T, r) : -1;
            if (T->col[C_ID]) {
                v->has_id = true;
                v->id = tg.id_next++;
            }
        } else if (k == KI_MSG) {
            v->peer = T->col[C_PEER] ? (int16_t)(chance(r, 0.15) ? ghost(T, r) : rn(r, T->nreal)) : -1;
            if (T->col[C_ID] && chance(r, 0.5)) {
                v->has_id = true;
                v->id = tg.id_next++;
            }
        } else if (T->col[C_PEER] && chance(r, 0.05)) {
            v->peer = (int16_t)rn(r, T->nloc);
        }
        i++;
    }
    if (n >= 3) {
        T->ev[0].m = MV_FIRST_INT;
        T->ev[1].m = MV_FIRST_FLT;
        T->ev[2].m = MV_FIRST_STR;
    }
    if (flavor == 2)
        for (int e = 0; e < n; e++) {
            snprintf(T->namebuf + (size_t)e * 16, 16, "n%d", e);
            T->ev[e].name = T->namebuf + (size_t)e * 16;
        }
    /* activities and messages */
    T->nactid = T->nloc * (NACT + 1);
    T->msg = xmalloc(((size_t)n + 1) * sizeof *T->msg);
    for (int e = 0; e < n; e++) {
        Ev *v = &T->ev[e];
        v->actid = v->loc * (NACT + 1) + v->act + 1;
        if (v->kind == KI_SEND) {
            T->msg[T->nmsg][0] = e;
            T->msg[T->nmsg][1] = v->mate;
            v->msg = T->nmsg;
            if (v->mate >= 0) T->ev[v->mate].msg = T->nmsg;
            T->nmsg++;
        } else if (v->kind == KI_MSG) {
            T->msg[T->nmsg][0] = T->msg[T->nmsg][1] = e;
            v->msg = T->nmsg++;
        } else if (v->kind == KI_RECV && v->mate < 0 && v->peer >= 0) {
            T->msg[T->nmsg][0] = -1;
            T->msg[T->nmsg][1] = e;
            v->msg = T->nmsg++;
        }
    }
    /* static types */
    int mask[NFD];
    memset(mask, 0, sizeof mask);
    for (int e = 0; e < n; e++) {
        const Ev *v = &T->ev[e];
        if (v->peer >= 0) mask[FD_PEER] |= 1 << VS;
        if (v->has_bytes) mask[FD_BYTES] |= 1 << VI;
        if (v->has_id) mask[FD_ID] |= 1 << VI;
        if (v->has_tag) mask[FD_TAG] |= 1 << VI;
        if (v->group >= 0) mask[FD_GROUP] |= 1 << (GRP_L[v->group].isint ? VI : VS);
        if (v->parent >= 0) mask[FD_PARENT] |= 1 << VS;
        if (v->has_f) mask[FD_F] |= 1 << VF;
        if (v->sx >= 0) mask[FD_SX] |= 1 << VS;
        if (v->m >= 0) mask[FD_M] |= 1 << MV[v->m].t;
    }
    T->st[FD_TS] = T->st[FD_DUR] = T->st[FD_END] = ST_INT;
    T->st[FD_LOC] = T->st[FD_ACT] = ST_DYN;
    T->st[FD_KIND] = T->st[FD_NAME] = ST_STR;
    T->st[FD_SEQ] = n > 0 ? ST_INT : ST_UNK;
    for (int f = FD_PEER; f < NFD; f++) {
        if (f == FD_SEQ) continue;
        int mk = mask[f];
        bool extra = f == FD_F || f == FD_SX || f == FD_M;
        int t;
        if (!mk) t = extra ? ST_UNK : ST_NULL;
        else if ((mk & (1 << VS)) && (mk & ((1 << VI) | (1 << VF)))) t = ST_DYN;
        else if (mk & (1 << VS)) t = ST_STR;
        else if (mk & (1 << VF)) t = ST_FLT;
        else t = ST_INT;
        /* label columns are strings in the store but read as labels */
        if ((f == FD_PEER || f == FD_PARENT) && mk) t = ST_DYN;
        T->st[f] = t;
    }
}

/* ---- values of the model -------------------------------------------------- */

typedef struct {
    uint8_t t;
    int64_t i;
    double f;
    const char *s;
    size_t n;
} RVal;

static RVal v_abs(void)
{
    RVal v;
    memset(&v, 0, sizeof v);
    return v;
}
static RVal v_int(int64_t i)
{
    RVal v = v_abs();
    v.t = VI;
    v.i = i;
    return v;
}
static RVal v_flt(double f)
{
    RVal v = v_abs();
    v.t = VF;
    v.f = f;
    return v;
}
static RVal v_str(const char *s, size_t n)
{
    RVal v = v_abs();
    v.t = VS;
    v.s = s ? s : "";
    v.n = n;
    return v;
}
static RVal v_label(const Label *l) { return l->isint ? v_int(l->iv) : v_str(l->text, strlen(l->text)); }

static RVal fval(const Trace *T, int e, int fd)
{
    const Ev *v = &T->ev[e];
    switch (fd) {
    case FD_TS: return v_int(v->ts);
    case FD_DUR: return v->has_dur ? v_int(v->dur) : v_abs();
    case FD_END: return v->has_dur ? v_int(v->ts + v->dur) : v_abs();
    case FD_LOC: return v_label(&T->loc[v->loc]);
    case FD_ACT: return v->act >= 0 ? v_label(&ACT_L[v->act]) : v_abs();
    case FD_KIND: return v_str(KINDS[v->kind], strlen(KINDS[v->kind]));
    case FD_NAME: return v->name ? v_str(v->name, strlen(v->name)) : v_abs();
    case FD_PEER: return v->peer >= 0 ? v_label(&T->loc[v->peer]) : v_abs();
    case FD_BYTES: return v->has_bytes ? v_int(v->bytes) : v_abs();
    case FD_ID: return v->has_id ? v_int(v->id) : v_abs();
    case FD_TAG: return v->has_tag ? v_int(v->tag) : v_abs();
    case FD_GROUP: return v->group >= 0 ? v_label(&GRP_L[v->group]) : v_abs();
    case FD_PARENT: return v->parent >= 0 ? v_label(&PAR_L[v->parent]) : v_abs();
    case FD_SEQ: return v_int(e);
    case FD_F: return v->has_f ? v_flt(v->f) : v_abs();
    case FD_SX: return v->sx >= 0 ? v_str(SX_TEXT[v->sx], strlen(SX_TEXT[v->sx])) : v_abs();
    case FD_M:
        if (v->m < 0) return v_abs();
        switch (MV[v->m].t) {
        case VI: return T->st[FD_M] == ST_FLT ? v_flt((double)MV[v->m].i) : v_int(MV[v->m].i);
        case VF: return v_flt(MV[v->m].f);
        default: return v_str(MV[v->m].text, strlen(MV[v->m].text));
        }
    }
    return v_abs();
}

static void val_print(Str *b, RVal v)
{
    switch (v.t) {
    case VI: s_printf(b, "%" PRId64, v.i); break;
    case VF: s_printf(b, "%.17g (float)", v.f); break;
    case VS: s_printf(b, "\"%.*s\"", (int)v.n, v.s); break;
    default: s_puts(b, "(absent)"); break;
    }
}

/* ---- CSV ------------------------------------------------------------------ */

static void csv_field(Str *b, const char *s, bool quote)
{
    if (!quote)
        for (const char *p = s; *p; p++)
            if (*p == ',' || *p == '"' || *p == '\n' || *p == '\r' || *p == '\t' || *p == ';') quote = true;
    if (*s == ' ' || *s == '\t' || (*s && (s[strlen(s) - 1] == ' ' || s[strlen(s) - 1] == '\t'))) quote = true;
    if (!quote) {
        s_puts(b, s);
        return;
    }
    s_put(b, "\"", 1);
    for (const char *p = s; *p; p++) {
        if (*p == '"') s_put(b, "\"", 1);
        s_put(b, p, 1);
    }
    s_put(b, "\"", 1);
}

static void cell(const Trace *T, int e, int c, Str *b, Rng *r)
{
    const Ev *v = &T->ev[e];
    char tmp[64];
    tmp[0] = 0;
    switch (c) {
    case C_TS: snprintf(tmp, sizeof tmp, "%" PRId64, v->ts); break;
    case C_DUR:
        if (v->has_dur) snprintf(tmp, sizeof tmp, "%" PRId64, v->dur);
        break;
    case C_LOC: s_puts(b, T->loc[v->loc].text); return;
    case C_ACT:
        if (v->act >= 0) s_puts(b, ACT_TEXT[v->act]);
        return;
    case C_KIND:
        if (v->kind_w == 1) return;
        snprintf(tmp, sizeof tmp, "%s", KINDS[v->kind]);
        if (v->kind_w == 2)
            for (char *p = tmp; *p; p++) *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
        break;
    case C_NAME:
        if (v->name) csv_field(b, v->name, chance(r, 0.03));
        return;
    case C_PEER:
        if (v->peer >= 0) s_puts(b, T->loc[v->peer].text);
        return;
    case C_BYTES:
        if (v->has_bytes) snprintf(tmp, sizeof tmp, "%" PRId64, v->bytes);
        break;
    case C_ID:
        if (v->has_id) snprintf(tmp, sizeof tmp, "%" PRId64, v->id);
        break;
    case C_TAG:
        if (v->has_tag) snprintf(tmp, sizeof tmp, "%" PRId64, v->tag);
        break;
    case C_GROUP:
        if (v->group >= 0) s_puts(b, GRP_TEXT[v->group]);
        return;
    case C_PARENT:
        if (v->parent >= 0) s_puts(b, PAR_TEXT[v->parent]);
        return;
    case C_SEQ: snprintf(tmp, sizeof tmp, "%d", e); break;
    case C_F:
        if (v->has_f) snprintf(tmp, sizeof tmp, "%.2f", v->f);
        break;
    case C_SX:
        if (v->sx >= 0) csv_field(b, SX_TEXT[v->sx], chance(r, 0.03));
        return;
    case C_M:
        if (v->m >= 0) csv_field(b, MV[v->m].text, false);
        return;
    }
    s_puts(b, tmp);
}

/* the temp file being used, removed at exit() too */
static char cur_csv[64];
static void remove_cur_csv(void)
{
    if (cur_csv[0]) unlink(cur_csv);
    cur_csv[0] = 0;
}

/* write the trace as CSV (columns in a random order) to a new temp file */
static bool write_csv(const Trace *T, Rng *r, char *path, size_t pathsz)
{
    snprintf(path, pathsz, "/tmp/filter_diff_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("filter_diff: mkstemp");
        return false;
    }
    snprintf(cur_csv, sizeof cur_csv, "%s", path);
    FILE *fp = fdopen(fd, "w");
    if (!fp) {
        close(fd);
        return false;
    }
    int order[NCOL], no = 0;
    for (int c = 0; c < NCOL; c++)
        if (T->col[c]) order[no++] = c;
    for (int k = no - 1; k > 0; k--) {
        int j = rn(r, k + 1);
        int t = order[k];
        order[k] = order[j];
        order[j] = t;
    }
    Str b = {0};
    for (int k = 0; k < no; k++) {
        if (k) s_put(&b, ",", 1);
        s_puts(&b, COL_NAME[order[k]]);
    }
    s_put(&b, "\n", 1);
    for (int e = 0; e < T->n; e++) {
        for (int k = 0; k < no; k++) {
            if (k) s_put(&b, ",", 1);
            cell(T, e, order[k], &b, r);
        }
        s_put(&b, "\n", 1);
        if (b.n > (1 << 20)) {
            fwrite(b.b, 1, b.n, fp);
            b.n = 0;
        }
    }
    if (b.n) fwrite(b.b, 1, b.n, fp);
    free(b.b);
    if (fclose(fp) != 0) {
        perror("filter_diff: write");
        return false;
    }
    return true;
}

static bool copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb");
    if (!a) return false;
    FILE *b = fopen(to, "wb");
    if (!b) {
        fclose(a);
        return false;
    }
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, a)) > 0) fwrite(buf, 1, k, b);
    fclose(a);
    return fclose(b) == 0;
}

/* ---- expressions ------------------------------------------------------------ */

enum {
    X_INT, X_FLT, X_STR, X_BOOL, X_FIELD, /* leaves */
    X_ARITH, X_NEG, X_ABS, X_MINMAX, X_LEN, X_CASE, /* values */
    X_CMP, X_BCMP, X_AND, X_OR, X_NOT, X_STRFN, X_MATCH, X_INLIST, X_INRANGE, X_HAS, X_SCOPE /* conditions */
};
enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };
static const char *const CMP_S[] = {"==", "!=", "<", "<=", ">", ">="};
enum { SC_ACT_ANY, SC_ACT_ALL, SC_LOC_ANY, SC_LOC_ALL, SC_GROUP_ANY, SC_MSG_ANY };
static const char *const SCOPE_S[] = {"act_any", "act_all", "loc_any", "loc_all", "group_any", "msg_any"};
static const char *const STRFN_S[] = {"starts_with", "ends_with", "contains"};
enum { U_TIME = 1, U_SIZE = 2 };
enum { UC_ANY, UC_TIME, UC_SIZE };

typedef struct Node Node;
struct Node {
    int k, op;
    Node *kid[72];
    int nkid;
    int64_t iv;
    double fv;
    char *sv; /* string value (X_STR), owned */
    size_t sn;
    char *text; /* source text of a literal / regex right side, owned */
    int fd;
    bool fcall; /* a field written as field("...") */
    int units;  /* unit classes of the literals in the subtree */
    regex_t rx;
    bool has_rx;
    uint8_t *cache; /* scopes: per event, for the current stage */
};

static Node *nnew(int k)
{
    Node *x = xcalloc(1, sizeof *x);
    x->k = k;
    return x;
}

static void nadd(Node *x, Node *kid)
{
    if (x->nkid >= 72) {
        fprintf(stderr, "filter_diff: too many kids\n");
        exit(3);
    }
    x->kid[x->nkid++] = kid;
    x->units |= kid->units;
}

static void nfree(Node *x)
{
    if (!x) return;
    for (int i = 0; i < x->nkid; i++) nfree(x->kid[i]);
    free(x->sv);
    free(x->text);
    free(x->cache);
    if (x->has_rx) regfree(&x->rx);
    free(x);
}

static Node *mk_int_text(int64_t v, const char *text, int units)
{
    Node *x = nnew(X_INT);
    x->iv = v;
    x->text = xstrdup(text);
    x->units = units;
    return x;
}

static Node *mk_neg(Node *a)
{
    Node *x = nnew(X_NEG);
    nadd(x, a);
    return x;
}

static Node *mk_int(int64_t v)
{
    char t[32];
    if (v < 0) {
        if (v == INT64_MIN) {
            Node *s = nnew(X_ARITH);
            s->op = '-';
            nadd(s, mk_neg(mk_int(INT64_MAX)));
            nadd(s, mk_int(1));
            return s;
        }
        return mk_neg(mk_int(-v));
    }
    snprintf(t, sizeof t, "%" PRId64, v);
    return mk_int_text(v, t, 0);
}

static Node *mk_flt_text(const char *text)
{
    Node *x = nnew(X_FLT);
    x->fv = strtod(text, NULL);
    x->text = xstrdup(text);
    return x;
}

static Node *mk_flt(double f)
{
    if (f < 0 || (f == 0 && signbit(f))) return mk_neg(mk_flt(-f));
    char t[48];
    snprintf(t, sizeof t, "%.17g", f);
    if (!strpbrk(t, ".e")) strcat(t, ".0");
    return mk_flt_text(t);
}

/* a string literal with random quoting and escapes */
static Node *mk_str(Rng *r, const char *s, size_t n)
{
    Node *x = nnew(X_STR);
    x->sv = xmalloc(n + 1);
    memcpy(x->sv, s, n);
    x->sv[n] = 0;
    x->sn = n;
    Str b = {0};
    char q = chance(r, 0.5) ? '"' : '\'';
    s_put(&b, &q, 1);
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        char t[16];
        if (c >= 0x80) {
            size_t l = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
            if (l <= 3 && chance(r, 0.3)) {
                unsigned cp = l == 2 ? ((c & 0x1Fu) << 6) | ((unsigned char)s[i + 1] & 0x3Fu)
                                     : ((c & 0x0Fu) << 12) | (((unsigned char)s[i + 1] & 0x3Fu) << 6) |
                                           ((unsigned char)s[i + 2] & 0x3Fu);
                snprintf(t, sizeof t, chance(r, 0.5) ? "\\u%04x" : "\\u%04X", cp);
                s_puts(&b, t);
            } else if (chance(r, 0.2)) {
                for (size_t k = 0; k < l; k++) {
                    snprintf(t, sizeof t, "\\x%02x", (unsigned char)s[i + k]);
                    s_puts(&b, t);
                }
            } else {
                s_put(&b, s + i, l);
            }
            i += l;
            continue;
        }
        if (c == (unsigned char)q || c == '\\') {
            s_put(&b, "\\", 1);
            s_put(&b, s + i, 1);
        } else if (c == '\n') s_puts(&b, "\\n");
        else if (c == '\t') s_puts(&b, chance(r, 0.5) ? "\\t" : "\\x09");
        else if (c == '\r') s_puts(&b, "\\r");
        else if (c == 0) s_puts(&b, "\\0");
        else if ((c == '"' || c == '\'') && chance(r, 0.4)) {
            s_put(&b, "\\", 1);
            s_put(&b, s + i, 1);
        } else if (c < 0x20 || chance(r, 0.06)) {
            snprintf(t, sizeof t, chance(r, 0.5) ? "\\x%02x" : "\\x%02X", c);
            s_puts(&b, t);
        } else {
            s_put(&b, s + i, 1);
        }
        i++;
    }
    s_put(&b, &q, 1);
    x->text = b.b;
    return x;
}

static Node *mk_field(int fd, bool fcall)
{
    Node *x = nnew(X_FIELD);
    x->fd = fd;
    x->fcall = fcall;
    return x;
}

static Node *mk2(int k, int op, Node *a, Node *b)
{
    Node *x = nnew(k);
    x->op = op;
    nadd(x, a);
    if (b) nadd(x, b);
    return x;
}

/* a regex match node: pcre is the pattern as written between slashes, ere
 * the same pattern as a POSIX ERE; flags "i", "x", ... ; form 1 writes the
 * pattern as a string literal (no flags) */
static Node *mk_match(Rng *r, Node *subj, bool neg, const char *pcre_text, const char *pcre_value, const char *ere,
                      bool icase, const char *flags, bool as_string)
{
    Node *x = nnew(X_MATCH);
    x->op = neg;
    nadd(x, subj);
    Str b = {0};
    if (as_string) {
        Node *s = mk_str(r, pcre_value, strlen(pcre_value));
        s_puts(&b, s->text);
        nfree(s);
    } else {
        s_printf(&b, "/%s/%s", pcre_text, flags);
    }
    x->text = b.b;
    int rc = regcomp(&x->rx, ere, REG_EXTENDED | REG_NOSUB | (icase ? REG_ICASE : 0));
    if (rc) {
        fprintf(stderr, "filter_diff: reference regcomp failed for '%s'\n", ere);
        exit(3);
    }
    x->has_rx = true;
    return x;
}

/* ---- the generator ------------------------------------------------------------ */

typedef struct {
    Rng *r;
    const Trace *T;
    int scopes;
    bool name_bias;
} Gen;

enum { CLS_NUM, CLS_STR };

static bool num_ok(int st) { return st == ST_INT || st == ST_FLT || st == ST_DYN || st == ST_NULL; }
static bool str_ok(int st) { return st == ST_STR || st == ST_DYN || st == ST_NULL; }
static bool is_time_fd(int fd) { return fd == FD_TS || fd == FD_DUR || fd == FD_END; }
static bool bare_time(const Node *x) { return x->k == X_FIELD && is_time_fd(x->fd); }
static bool bare_bytes(const Node *x) { return x->k == X_FIELD && x->fd == FD_BYTES; }

static Node *gen_field(Gen *g, int cls)
{
    static const int NUMF[] = {FD_TS,  FD_DUR, FD_END,  FD_BYTES, FD_ID,     FD_TAG, FD_SEQ,
                               FD_F,   FD_LOC, FD_ACT,  FD_PEER,  FD_PARENT, FD_M,   FD_GROUP};
    static const int STRF[] = {FD_KIND, FD_NAME, FD_GROUP, FD_SX, FD_LOC, FD_ACT, FD_PEER, FD_PARENT, FD_M, FD_NAME, FD_KIND};
    if (cls == CLS_STR && g->name_bias && chance(g->r, 0.6)) return mk_field(FD_NAME, chance(g->r, 0.05));
    for (int tries = 0; tries < 30; tries++) {
        int fd = cls == CLS_NUM ? NUMF[rn(g->r, (int)(sizeof NUMF / sizeof NUMF[0]))]
                                : STRF[rn(g->r, (int)(sizeof STRF / sizeof STRF[0]))];
        int st = g->T->st[fd];
        if (st == ST_UNK) continue;
        if (cls == CLS_NUM ? !num_ok(st) : !str_ok(st)) continue;
        return mk_field(fd, chance(g->r, 0.08));
    }
    return NULL;
}

static const int64_t INTS[] = {0,       1,        2,       3,          5,         7,
                               10,      12,       42,      100,        1000,      4096,
                               65536,   1048576,  1000000, 3037000500LL, 1000000000000LL, 4611686018427387904LL,
                               INT64_MAX, 4600000500000000000LL, 1700000050000000000LL};
static const char *const FLTS[] = {"0.5",  "2.25",  "0.1",  "1e3",   "2.5e-1", "1e308", "3.0",
                                   "1.0e1", "0.001", "1e400", "7.75", "100.5",  "1e-5",  "4.6e18"};
static const struct {
    const char *t;
    int64_t v;
    int u;
} UNITS[] = {{"10ns", 10, U_TIME},          {"1us", 1000, U_TIME},        {"2.5us", 2500, U_TIME},
             {"1.5ms", 1500000, U_TIME},    {"2s", 2000000000, U_TIME},   {"0.25s", 250000000, U_TIME},
             {"1e3ns", 1000, U_TIME},       {"5us", 5000, U_TIME},        {"100us", 100000, U_TIME},
             {"1ms", 1000000, U_TIME},      {"10ms", 10000000, U_TIME},   {"250ns", 250, U_TIME},
             {"2.5e2us", 250000, U_TIME},   {"512B", 512, U_SIZE},        {"4KB", 4000, U_SIZE},
             {"4KiB", 4096, U_SIZE},        {"1MB", 1000000, U_SIZE},     {"1MiB", 1048576, U_SIZE},
             {"1GB", 1000000000, U_SIZE},   {"1GiB", 1073741824, U_SIZE}, {"0.5KiB", 512, U_SIZE},
             {"1.5MB", 1500000, U_SIZE},    {"2e1B", 20, U_SIZE},         {"64KiB", 65536, U_SIZE},
             {"0B", 0, U_SIZE},             {"3GiB", 3221225472LL, U_SIZE},
             /* rounded to the nearest integer (no halves) */
             {"1.0004us", 1000, U_TIME},    {"1.0006us", 1001, U_TIME},   {"0.6ns", 1, U_TIME},
             {"0.4ns", 0, U_TIME},          {"2.5e-1us", 250, U_TIME},    {"1e-9s", 1, U_TIME},
             {"0.0009KB", 1, U_SIZE},       {"0.0001KB", 0, U_SIZE},      {"1.7B", 2, U_SIZE},
             {"0.999KiB", 1023, U_SIZE}};
#define NUNITS ((int)(sizeof UNITS / sizeof UNITS[0]))

static const struct {
    const char *s;
    size_t n;
    bool special; /* a NUL or a newline: never a regex subject */
} STRS[] = {{"MPI_Send", 8, 0}, {"MPI_Recv", 8, 0}, {"compute", 7, 0}, {"x", 1, 0},      {"é∂", 5, 0},
            {"", 0, 0},         {"send", 4, 0},     {"recv", 4, 0},    {"state", 5, 0},  {"sync", 4, 0},
            {"mark", 4, 0},     {"io", 2, 0},       {"Compute", 7, 0},   {"g1", 2, 0},     {"g3", 2, 0},
            {"n1", 2, 0},       {"a1", 2, 0},       {"7", 1, 0},       {"abc", 3, 0},    {"MPI_A", 5, 0},
            {"MPI_Z", 5, 0},    {"MPI", 3, 0},      {"Send", 4, 0},    {"a,\"b", 4, 0},  {"io/read", 7, 0},
            {"it's", 4, 0},     {"main", 4, 0},     {"-3", 2, 0},      {"é", 2, 0},      {"a\tb", 3, 0},
            {"back\\slash", 10, 0}, {"a\0b", 3, 1}, {"line\nbreak", 10, 1}, {"ghost", 5, 0}, {"node3", 5, 0}};
#define NSTRS ((int)(sizeof STRS / sizeof STRS[0]))

static Node *gen_num_lit(Gen *g, int uc)
{
    Rng *r = g->r;
    if (chance(r, 0.04)) {
        /* edges: the smallest integer (and its negation), -1, -0.0 */
        switch (rn(r, 4)) {
        case 0: return mk_int(INT64_MIN);
        case 1: return mk_neg(mk_int(INT64_MIN));
        case 2: return mk_int(-1);
        default: return mk_neg(mk_flt_text("0.0"));
        }
    }
    int k = rn(r, 10);
    if (k < 4) return chance(r, 0.5) ? mk_int(INTS[rn(r, (int)(sizeof INTS / sizeof INTS[0]))]) : mk_int(rrange(r, 0, 1000));
    if (k < 6) return mk_flt_text(FLTS[rn(r, (int)(sizeof FLTS / sizeof FLTS[0]))]);
    if (k < 9) {
        for (;;) {
            int u = rn(r, NUNITS);
            if (uc == UC_TIME && UNITS[u].u != U_TIME) continue;
            if (uc == UC_SIZE && UNITS[u].u != U_SIZE) continue;
            return mk_int_text(UNITS[u].v, UNITS[u].t, UNITS[u].u);
        }
    }
    return mk_neg(gen_num_lit(g, uc));
}

static Node *gen_str_lit(Gen *g, bool subj)
{
    for (;;) {
        int k = rn(g->r, NSTRS);
        if (subj && STRS[k].special) continue;
        return mk_str(g->r, STRS[k].s, STRS[k].n);
    }
}

/* a literal holding the value of field fd in a random event (NULL when
 * absent) */
static Node *lit_from_data(Gen *g, int fd)
{
    const Trace *T = g->T;
    if (T->n == 0 || T->st[fd] == ST_UNK) return NULL;
    int e = rn(g->r, T->n);
    RVal v = fval(T, e, fd);
    char t[48];
    switch (v.t) {
    case VI:
        if ((is_time_fd(fd) || fd == FD_BYTES) && v.i >= 0 && chance(g->r, 0.4)) {
            /* the value with a unit: the largest that divides it, or a
             * decimal of one */
            static const struct {
                const char *u;
                int64_t mul;
                bool time;
            } US[] = {{"s", 1000000000, 1}, {"ms", 1000000, 1}, {"us", 1000, 1},     {"ns", 1, 1},
                      {"GiB", 1073741824, 0}, {"MiB", 1048576, 0}, {"KiB", 1024, 0}, {"GB", 1000000000, 0},
                      {"MB", 1000000, 0},   {"KB", 1000, 0},     {"B", 1, 0}};
            bool time = is_time_fd(fd);
            for (int k = 0; k < (int)(sizeof US / sizeof US[0]); k++) {
                if (US[k].time != time) continue;
                if (v.i % US[k].mul == 0) {
                    snprintf(t, sizeof t, "%" PRId64 "%s", v.i / US[k].mul, US[k].u);
                    return mk_int_text(v.i, t, time ? U_TIME : U_SIZE);
                }
                if (US[k].mul <= 1000000000 && v.i % (US[k].mul / 1000 ? US[k].mul / 1000 : 1) == 0 &&
                    v.i > US[k].mul && chance(g->r, 0.5) && (US[k].mul == 1000 || US[k].mul == 1000000 || US[k].mul == 1000000000)) {
                    int64_t w = v.i / US[k].mul, f = (v.i % US[k].mul) / (US[k].mul / 1000);
                    snprintf(t, sizeof t, "%" PRId64 ".%03" PRId64 "%s", w, f, US[k].u);
                    return mk_int_text(v.i, t, time ? U_TIME : U_SIZE);
                }
            }
        }
        return mk_int(v.i);
    case VF: return mk_flt(v.f);
    case VS: {
        /* sometimes a prefix, suffix or piece of it */
        size_t a = 0, b = v.n;
        if (v.n > 1 && chance(g->r, 0.2)) {
            a = (size_t)rn(g->r, (int)v.n);
            b = a + (size_t)rn(g->r, (int)(v.n - a) + 1);
            while (a > 0 && ((unsigned char)v.s[a] & 0xC0) == 0x80) a--;
            while (b < v.n && ((unsigned char)v.s[b] & 0xC0) == 0x80) b++;
        }
        return mk_str(g->r, v.s + a, b - a);
    }
    default: return NULL;
    }
}

static Node *gen_num(Gen *g, int d, int uc);
static Node *gen_str(Gen *g, int d, bool subj);
static Node *gen_bool(Gen *g, int d);

static Node *gen_val(Gen *g, int d, int cls, int uc, bool subj)
{
    return cls == CLS_NUM ? gen_num(g, d, uc) : gen_str(g, d, subj);
}

static Node *gen_num(Gen *g, int d, int uc)
{
    Rng *r = g->r;
    if (d <= 0 || chance(r, 0.4)) {
        if (chance(r, 0.7)) {
            Node *f = gen_field(g, CLS_NUM);
            if (f) return f;
        }
        return gen_num_lit(g, uc);
    }
    int k = rn(r, 10);
    if (k < 4) {
        static const char OPS[] = "+-*/%";
        Node *x = nnew(X_ARITH);
        x->op = OPS[rn(r, 5)];
        nadd(x, gen_num(g, d - 1, uc));
        if (chance(r, 0.25)) {
            /* a right side at an edge of the operator */
            switch (rn(r, 6)) {
            case 0: nadd(x, mk_int(0)); break;
            case 1: nadd(x, mk_int(-1)); break;
            case 2: nadd(x, mk_int(INT64_MAX)); break;
            case 3: nadd(x, mk_flt_text("0.0")); break;
            case 4: nadd(x, mk_int(2)); break;
            default: nadd(x, mk_int(INT64_MIN)); break;
            }
        } else {
            nadd(x, gen_num(g, d - 1, uc));
        }
        return x;
    }
    if (k == 4) return mk_neg(gen_num(g, d - 1, uc));
    if (k == 5) return mk2(X_ABS, 0, gen_num(g, d - 1, uc), NULL);
    if (k == 6) {
        Node *x = nnew(X_MINMAX);
        x->op = rn(r, 2);
        int na = chance(r, 0.1) ? 5 + rn(r, 10) : 2 + rn(r, 3);
        for (int i = 0; i < na; i++) nadd(x, gen_num(g, d - 1, uc));
        return x;
    }
    if (k == 7) return mk2(X_LEN, 0, gen_str(g, d - 1, false), NULL);
    Node *f = gen_field(g, CLS_NUM);
    return f ? f : gen_num_lit(g, uc);
}

static Node *gen_str(Gen *g, int d, bool subj)
{
    Rng *r = g->r;
    if (d <= 0 || chance(r, 0.5)) {
        if (chance(r, 0.65)) {
            Node *f = gen_field(g, CLS_STR);
            if (f) return f;
        }
        if (chance(r, 0.5)) {
            Node *f = gen_field(g, CLS_STR);
            if (f) {
                Node *l = lit_from_data(g, f->fd);
                nfree(f);
                if (l && l->k == X_STR && (!subj || (!memchr(l->sv, 0, l->sn) && !memchr(l->sv, '\n', l->sn))))
                    return l;
                nfree(l);
            }
        }
        return gen_str_lit(g, subj);
    }
    return mk2(X_CASE, rn(r, 2), gen_str(g, d - 1, subj), NULL);
}

/* the unit context a side imposes on the other side of a comparison */
static int ctx_of(const Node *a) { return bare_time(a) ? UC_TIME : bare_bytes(a) ? UC_SIZE : UC_ANY; }

static bool clash(const Node *a, const Node *b)
{
    return (bare_time(b) && (a->units & U_SIZE)) || (bare_bytes(b) && (a->units & U_TIME)) ||
           (bare_time(a) && (b->units & U_SIZE)) || (bare_bytes(a) && (b->units & U_TIME));
}

/* the other side of a comparison with a */
static Node *gen_other(Gen *g, int d, int cls, const Node *a, bool data_ok)
{
    int uc = ctx_of(a);
    if (bare_time(a) && chance(g->r, 0.15)) {
        static const int64_t K[] = {-1, 0, 1, -5, 2};
        return mk_int(K[rn(g->r, 5)]);
    }
    for (int tries = 0; tries < 10; tries++) {
        Node *b = NULL;
        if (data_ok && a->k == X_FIELD && chance(g->r, 0.6)) b = lit_from_data(g, a->fd);
        if (!b) b = gen_val(g, d, cls, uc, false);
        if (!clash(a, b)) return b;
        nfree(b);
    }
    return cls == CLS_NUM ? mk_int(rrange(g->r, 0, 10)) : gen_str_lit(g, false);
}

static Node *gen_side(Gen *g, int d, int cls, bool subj)
{
    if (d <= 1 || chance(g->r, 0.6)) {
        Node *f = gen_field(g, cls);
        if (f) return f;
    }
    return gen_val(g, d - 1, cls, UC_ANY, subj);
}

static Node *gen_cmp(Gen *g, int d)
{
    int cls = chance(g->r, 0.6) ? CLS_NUM : CLS_STR;
    Node *a = gen_side(g, d, cls, false);
    Node *b = gen_other(g, d - 1, cls, a, true);
    if (chance(g->r, 0.4)) {
        Node *t = a;
        a = b;
        b = t;
    }
    return mk2(X_CMP, rn(g->r, 6), a, b);
}

static const struct {
    const char *pcre; /* as written between slashes */
    const char *value; /* as a string literal's value */
    const char *ere;
} RX[] = {{"^MPI_", "^MPI_", "^MPI_"},
          {"Send$", "Send$", "Send$"},
          {"S.nd", "S.nd", "S.nd"},
          {"[0-9]+", "[0-9]+", "[0-9]+"},
          {"^(x|c)", "^(x|c)", "^(x|c)"},
          {"MPI", "MPI", "MPI"},
          {"e", "e", "e"},
          {"^n[0-9]*7$", "^n[0-9]*7$", "^n[0-9]*7$"},
          {"_R", "_R", "_R"},
          {"^[a-z]+$", "^[a-z]+$", "^[a-z]+$"},
          {"é", "é", "é"},
          {"∂$", "∂$", "∂$"},
          {"o\\/r", "o\\/r", "o/r"},
          {"^$", "^$", "^$"},
          {"1$", "1$", "1$"},
          {"7$", "7$", "7$"},
          {"^a", "^a", "^a"},
          {"c|x", "c|x", "c|x"},
          {"^MPI_(Send|Recv)$", "^MPI_(Send|Recv)$", "^MPI_(Send|Recv)$"},
          {"[[:digit:]]", "[[:digit:]]", "[[:digit:]]"},
          {"s{1,2}", "s{1,2}", "s{1,2}"},
          {"^n1", "^n1", "^n1"},
          {"^(g|n)[0-9]", "^(g|n)[0-9]", "^(g|n)[0-9]"},
          {"a,", "a,", "a,"},
          {"'", "'", "'"},
          {"^-?[0-9]+$", "^-?[0-9]+$", "^-?[0-9]+$"}};
#define NRX ((int)(sizeof RX / sizeof RX[0]))

static bool wordc(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* white space for the x flag: outside brackets, between word characters,
 * and at the ends */
static void space_pattern(Rng *r, const char *p, Str *b)
{
    int br = 0;
    if (chance(r, 0.5)) s_puts(b, " ");
    for (size_t i = 0; p[i]; i++) {
        if (p[i] == '[') br++;
        if (p[i] == ']' && br > 0) br--;
        s_put(b, p + i, 1);
        if (!br && p[i + 1] && wordc(p[i]) && wordc(p[i + 1]) && (i == 0 || p[i - 1] != '\\') && chance(r, 0.4))
            s_puts(b, chance(r, 0.5) ? " " : "  ");
    }
    if (chance(r, 0.5)) s_puts(b, " ");
}

static Node *gen_match(Gen *g, Node *subj, int pi)
{
    Rng *r = g->r;
    bool neg = chance(r, 0.3);
    if (pi < 0) pi = rn(r, NRX);
    if (chance(r, 0.15)) return mk_match(r, subj, neg, RX[pi].pcre, RX[pi].value, RX[pi].ere, false, "", true);
    bool fi = chance(r, 0.3), fx = chance(r, 0.15), fs = chance(r, 0.1), fm = chance(r, 0.1);
    char flags[8];
    int nf = 0;
    if (fi) flags[nf++] = 'i';
    if (fx) flags[nf++] = 'x';
    if (fs) flags[nf++] = 's';
    if (fm) flags[nf++] = 'm';
    for (int k = nf - 1; k > 0; k--) {
        int j = rn(r, k + 1);
        char t = flags[k];
        flags[k] = flags[j];
        flags[j] = t;
    }
    flags[nf] = 0;
    Str b = {0};
    if (fx) space_pattern(r, RX[pi].pcre, &b);
    else s_puts(&b, RX[pi].pcre);
    Node *x = mk_match(r, subj, neg, b.b, RX[pi].value, RX[pi].ere, fi, flags, false);
    free(b.b);
    return x;
}

static int known_field(Gen *g)
{
    for (;;) {
        int fd = rn(g->r, NFD);
        if (g->T->st[fd] != ST_UNK) return fd;
    }
}

static Node *gen_bool(Gen *g, int d)
{
    Rng *r = g->r;
    int w = d <= 0 ? rn(r, 40) : rn(r, 100);
    if (w < 22) return gen_cmp(g, d);
    if (w < 27) {
        Node *x = nnew(X_HAS);
        x->fd = known_field(g);
        x->fcall = chance(r, 0.15);
        return x;
    }
    if (w < 30) {
        Node *a = gen_side(g, d, CLS_STR, false);
        Node *b = chance(r, 0.5) && a->k == X_FIELD ? lit_from_data(g, a->fd) : NULL;
        if (!b || b->k != X_STR) {
            nfree(b);
            b = chance(r, 0.15) ? mk_str(r, "", 0) : gen_str(g, d - 1, false);
        }
        return mk2(X_STRFN, rn(r, 3), a, b);
    }
    if (w < 36) return gen_match(g, gen_side(g, d, CLS_STR, true), -1);
    if (w < 37) {
        Node *x = nnew(X_BOOL);
        x->iv = chance(r, 0.5);
        return x;
    }
    if (w < 52) { /* in [..] */
        int cls = chance(r, 0.6) ? CLS_NUM : CLS_STR;
        Node *a = gen_side(g, d, cls, false);
        Node *x = nnew(X_INLIST);
        nadd(x, a);
        int ne = chance(r, 0.1) ? 5 + rn(r, 11) : rn(r, 5);
        if (a->k == X_FIELD && chance(r, 0.25)) {
            /* a long list of values from the data (compiled to a sorted
             * set when its literals are all integers or all strings) */
            ne = 8 + rn(r, 60);
            for (int i = 0; i < ne; i++) {
                Node *v = lit_from_data(g, a->fd);
                nadd(x, v ? v : gen_other(g, d - 1, cls, a, true));
            }
            return x;
        }
        for (int i = 0; i < ne; i++) nadd(x, gen_other(g, d - 1, cls, a, true));
        return x;
    }
    if (w < 58) {
        int cls = chance(r, 0.7) ? CLS_NUM : CLS_STR;
        Node *a = gen_side(g, d, cls, false);
        Node *x = nnew(X_INRANGE);
        nadd(x, a);
        nadd(x, gen_other(g, d - 1, cls, a, true));
        nadd(x, gen_other(g, d - 1, cls, a, true));
        return x;
    }
    if (w < 75) {
        int k = chance(r, 0.5) ? X_AND : X_OR;
        if (chance(r, 0.15)) {
            /* a long chain of one operator, nested either way */
            int len = 3 + rn(r, 10);
            Node *x = gen_bool(g, d - 2);
            for (int i = 1; i < len; i++)
                x = chance(r, 0.8) ? mk2(k, 0, x, gen_bool(g, d - 2)) : mk2(k, 0, gen_bool(g, d - 2), x);
            return x;
        }
        return mk2(k, 0, gen_bool(g, d - 1), gen_bool(g, d - 1));
    }
    if (w < 82) return mk2(X_NOT, 0, gen_bool(g, d - 1), NULL);
    if (w < 85) return mk2(X_BCMP, rn(r, 2), gen_bool(g, d - 1), gen_bool(g, d - 1));
    if (w < 95 && g->scopes < 3) {
        g->scopes++;
        Node *x = mk2(X_SCOPE, rn(r, 6), gen_bool(g, d - 1), NULL);
        g->scopes--;
        return x;
    }
    return gen_cmp(g, d);
}

/* ---- printing ----------------------------------------------------------------- */

enum { STYLE_MIN, STYLE_FULL, STYLE_RANDOM };

typedef struct {
    Str *b;
    Rng *r;
    int style;
} Pr;

static int prec(const Node *x)
{
    switch (x->k) {
    case X_OR: return 1;
    case X_AND: return 2;
    case X_NOT: return 3;
    case X_CMP:
    case X_BCMP:
    case X_MATCH:
    case X_INLIST:
    case X_INRANGE: return 4;
    case X_ARITH: return x->op == '+' || x->op == '-' ? 5 : 6;
    case X_NEG: return 7;
    default: return 8;
    }
}

static void pr_node(Pr *p, const Node *x, int need);

static void pr_field(Pr *p, int fd, bool fcall)
{
    if (fcall) s_printf(p->b, "field(\"%s\")", FD_NAME_S[fd]);
    else s_puts(p->b, FD_NAME_S[fd]);
}

static void pr_args(Pr *p, const Node *x, int from)
{
    for (int i = from; i < x->nkid; i++) {
        if (i > from) s_puts(p->b, ", ");
        pr_node(p, x->kid[i], 0);
    }
}

static void pr_node(Pr *p, const Node *x, int need)
{
    int pr = prec(x);
    bool par = pr < need;
    if (!par && need > 0) {
        if (p->style == STYLE_FULL && pr < 8) par = true;
        else if (p->style == STYLE_RANDOM && chance(p->r, pr < 8 ? 0.25 : 0.03)) par = true;
    }
    Str *b = p->b;
    if (par) s_puts(b, "(");
    switch (x->k) {
    case X_INT:
    case X_FLT:
    case X_STR: s_puts(b, x->text); break;
    case X_BOOL: s_puts(b, x->iv ? "true" : "false"); break;
    case X_FIELD: pr_field(p, x->fd, x->fcall); break;
    case X_ARITH:
        pr_node(p, x->kid[0], pr);
        s_printf(b, " %c ", x->op);
        pr_node(p, x->kid[1], pr + 1);
        break;
    case X_NEG:
        s_puts(b, "-");
        pr_node(p, x->kid[0], 7);
        break;
    case X_ABS:
    case X_MINMAX:
    case X_LEN:
    case X_CASE:
    case X_STRFN: {
        /* a call: the function's name, then its arguments */
        const char *fn = x->k == X_ABS      ? "abs"
                         : x->k == X_LEN    ? "len"
                         : x->k == X_MINMAX ? (x->op ? "max" : "min")
                         : x->k == X_CASE   ? (x->op ? "upper" : "lower")
                                            : STRFN_S[x->op];
        s_printf(b, "%s(", fn);
        pr_args(p, x, 0);
        s_puts(b, ")");
        break;
    }
    case X_CMP:
    case X_BCMP:
        pr_node(p, x->kid[0], 5);
        s_printf(b, " %s ", CMP_S[x->op]);
        pr_node(p, x->kid[1], 5);
        break;
    case X_AND:
    case X_OR: {
        const char *op = x->k == X_AND ? (chance(p->r, 0.7) ? " && " : " and ") : (chance(p->r, 0.7) ? " || " : " or ");
        pr_node(p, x->kid[0], pr);
        s_puts(b, op);
        pr_node(p, x->kid[1], pr + 1);
        break;
    }
    case X_NOT:
        s_puts(b, chance(p->r, 0.7) ? "!" : "not ");
        pr_node(p, x->kid[0], 3);
        break;
    case X_MATCH:
        pr_node(p, x->kid[0], 5);
        s_puts(b, x->op ? " !~ " : " =~ ");
        s_puts(b, x->text);
        break;
    case X_INLIST:
        pr_node(p, x->kid[0], 5);
        s_puts(b, " in [");
        pr_args(p, x, 1);
        s_puts(b, "]");
        break;
    case X_INRANGE:
        pr_node(p, x->kid[0], 5);
        s_puts(b, " in ");
        pr_node(p, x->kid[1], 5);
        s_puts(b, chance(p->r, 0.7) ? ".." : " .. ");
        pr_node(p, x->kid[2], 5);
        break;
    case X_HAS:
        s_puts(b, "has(");
        pr_field(p, x->fd, x->fcall);
        s_puts(b, ")");
        break;
    case X_SCOPE:
        s_printf(b, "%s(", SCOPE_S[x->op]);
        pr_node(p, x->kid[0], 0);
        s_puts(b, ")");
        break;
    }
    if (par) s_puts(b, ")");
}

/* ---- the reference evaluator ----------------------------------------------- */

static const Trace *RT; /* the trace being evaluated */
static char arena[1 << 16];
static size_t apos;

static char *aalloc(size_t n)
{
    if (apos + n > sizeof arena) {
        fprintf(stderr, "filter_diff: reference arena overflow\n");
        exit(3);
    }
    char *p = arena + apos;
    apos += n;
    return p;
}

static bool isnum(RVal v) { return v.t == VI || v.t == VF; }
static double dnum(RVal v) { return v.t == VI ? (double)v.i : v.f; }

static bool cmpv(int op, RVal a, RVal b)
{
    if (a.t == VA || b.t == VA) return false;
    bool as = a.t == VS, bs = b.t == VS;
    if (as != bs) return op == OP_NE;
    int c;
    if (as) {
        size_t m = a.n < b.n ? a.n : b.n;
        c = m ? memcmp(a.s, b.s, m) : 0;
        c = c ? (c < 0 ? -1 : 1) : (a.n > b.n) - (a.n < b.n);
    } else if (a.t == VI && b.t == VI) {
        c = (a.i > b.i) - (a.i < b.i);
    } else {
        double x = dnum(a), y = dnum(b);
        if (isnan(x) || isnan(y)) return op == OP_NE;
        c = (x > y) - (x < y);
    }
    switch (op) {
    case OP_EQ: return c == 0;
    case OP_NE: return c != 0;
    case OP_LT: return c < 0;
    case OP_LE: return c <= 0;
    case OP_GT: return c > 0;
    default: return c >= 0;
    }
}

static RVal fres(double r) { return isnan(r) ? v_abs() : v_flt(r); }

static RVal arith(int op, RVal a, RVal b)
{
    if (!isnum(a) || !isnum(b)) return v_abs();
    if (op == '/') {
        double y = dnum(b);
        if (y == 0) return v_abs();
        return fres(dnum(a) / y);
    }
    if (a.t == VI && b.t == VI) {
        int64_t r;
        switch (op) {
        case '+': return __builtin_add_overflow(a.i, b.i, &r) ? v_abs() : v_int(r);
        case '-': return __builtin_sub_overflow(a.i, b.i, &r) ? v_abs() : v_int(r);
        case '*': return __builtin_mul_overflow(a.i, b.i, &r) ? v_abs() : v_int(r);
        default:
            if (b.i == 0) return v_abs();
            if (b.i == -1) return v_int(0);
            return v_int(a.i % b.i);
        }
    }
    double x = dnum(a), y = dnum(b);
    switch (op) {
    case '+': return fres(x + y);
    case '-': return fres(x - y);
    case '*': return fres(x * y);
    default:
        if (y == 0) return v_abs();
        return fres(fmod(x, y));
    }
}

static bool cond(const Node *x, int e);

static RVal eval(const Node *x, int e)
{
    switch (x->k) {
    case X_INT: return v_int(x->iv);
    case X_FLT: return v_flt(x->fv);
    case X_STR: return v_str(x->sv, x->sn);
    case X_FIELD: return fval(RT, e, x->fd);
    case X_ARITH: return arith(x->op, eval(x->kid[0], e), eval(x->kid[1], e));
    case X_NEG:
    case X_ABS: {
        RVal a = eval(x->kid[0], e);
        bool neg = x->k == X_NEG || (a.t == VI ? a.i < 0 : a.f < 0);
        if (a.t == VI) return a.i == INT64_MIN ? v_abs() : v_int(neg ? -a.i : a.i);
        if (a.t == VF) return v_flt(x->k == X_NEG ? -a.f : fabs(a.f));
        return v_abs();
    }
    case X_MINMAX: {
        RVal acc = v_abs();
        for (int i = 0; i < x->nkid; i++) {
            RVal v = eval(x->kid[i], e);
            if (!isnum(v)) continue;
            if (acc.t == VA) {
                acc = v;
                continue;
            }
            if (acc.t == VI && v.t == VI) {
                if (x->op ? v.i > acc.i : v.i < acc.i) acc = v;
            } else {
                double p = dnum(acc), q = dnum(v);
                acc = v_flt(x->op ? (q > p ? q : p) : (q < p ? q : p));
            }
        }
        return acc;
    }
    case X_LEN: {
        RVal a = eval(x->kid[0], e);
        if (a.t != VS) return v_abs();
        int64_t c = 0;
        for (size_t i = 0; i < a.n; i++)
            if (((unsigned char)a.s[i] & 0xC0) != 0x80) c++;
        return v_int(c);
    }
    case X_CASE: {
        RVal a = eval(x->kid[0], e);
        if (a.t != VS) return v_abs();
        char *p = aalloc(a.n + 1);
        for (size_t i = 0; i < a.n; i++) {
            char c = a.s[i];
            if (x->op && c >= 'a' && c <= 'z') c = (char)(c - 32);
            if (!x->op && c >= 'A' && c <= 'Z') c = (char)(c + 32);
            p[i] = c;
        }
        p[a.n] = 0;
        return v_str(p, a.n);
    }
    default: fprintf(stderr, "filter_diff: eval of a condition\n"); exit(3);
    }
}

static bool cond(const Node *x, int e)
{
    switch (x->k) {
    case X_BOOL: return x->iv != 0;
    case X_CMP: return cmpv(x->op, eval(x->kid[0], e), eval(x->kid[1], e));
    case X_BCMP: {
        bool a = cond(x->kid[0], e), b = cond(x->kid[1], e);
        return x->op == OP_EQ ? a == b : a != b;
    }
    case X_AND: return cond(x->kid[0], e) && cond(x->kid[1], e);
    case X_OR: return cond(x->kid[0], e) || cond(x->kid[1], e);
    case X_NOT: return !cond(x->kid[0], e);
    case X_STRFN: {
        RVal s = eval(x->kid[0], e), p = eval(x->kid[1], e);
        if (s.t != VS || p.t != VS) return false;
        if (p.n > s.n) return false;
        if (x->op == 0) return !p.n || !memcmp(s.s, p.s, p.n);
        if (x->op == 1) return !p.n || !memcmp(s.s + s.n - p.n, p.s, p.n);
        if (!p.n) return true;
        for (size_t i = 0; i + p.n <= s.n; i++)
            if (!memcmp(s.s + i, p.s, p.n)) return true;
        return false;
    }
    case X_MATCH: {
        RVal s = eval(x->kid[0], e);
        if (s.t != VS) return false;
        char *z = aalloc(s.n + 1);
        memcpy(z, s.s, s.n);
        z[s.n] = 0;
        bool m = regexec(&x->rx, z, 0, NULL, 0) == 0;
        return x->op ? !m : m;
    }
    case X_INLIST: {
        RVal a = eval(x->kid[0], e);
        for (int i = 1; i < x->nkid; i++)
            if (cmpv(OP_EQ, a, eval(x->kid[i], e))) return true;
        return false;
    }
    case X_INRANGE: {
        RVal a = eval(x->kid[0], e);
        return cmpv(OP_GE, a, eval(x->kid[1], e)) && cmpv(OP_LE, a, eval(x->kid[2], e));
    }
    case X_HAS: return fval(RT, e, x->fd).t != VA;
    case X_SCOPE: return x->cache[e] != 0;
    default: fprintf(stderr, "filter_diff: cond of a value\n"); exit(3);
    }
}

static bool cond_top(const Node *x, int e)
{
    apos = 0;
    return cond(x, e);
}

/* scopes over the live events, inner ones first */
static void ref_scopes(Node *x, const uint8_t *live)
{
    for (int i = 0; i < x->nkid; i++) ref_scopes(x->kid[i], live);
    if (x->k != X_SCOPE) return;
    const Trace *T = RT;
    int n = T->n;
    uint8_t *in = xcalloc((size_t)n + 1, 1);
    for (int e = 0; e < n; e++) in[e] = live[e] && cond_top(x->kid[0], e);
    free(x->cache);
    x->cache = xcalloc((size_t)n + 1, 1);
    switch (x->op) {
    case SC_ACT_ANY:
    case SC_ACT_ALL:
    case SC_LOC_ANY:
    case SC_LOC_ALL: {
        bool all = x->op == SC_ACT_ALL || x->op == SC_LOC_ALL, act = x->op == SC_ACT_ANY || x->op == SC_ACT_ALL;
        int nk = act ? T->nactid : T->nloc;
        uint8_t *t = xmalloc((size_t)nk + 1);
        memset(t, all ? 1 : 0, (size_t)nk + 1);
        for (int e = 0; e < n; e++) {
            if (!live[e]) continue;
            int key = act ? T->ev[e].actid : T->ev[e].loc;
            if (all && !in[e]) t[key] = 0;
            if (!all && in[e]) t[key] = 1;
        }
        for (int e = 0; e < n; e++) x->cache[e] = t[act ? T->ev[e].actid : T->ev[e].loc];
        free(t);
        break;
    }
    case SC_GROUP_ANY: {
        uint8_t g[NGRP];
        memset(g, 0, sizeof g);
        for (int e = 0; e < n; e++)
            if (live[e] && in[e] && T->ev[e].group >= 0) g[T->ev[e].group] = 1;
        for (int e = 0; e < n; e++) x->cache[e] = T->ev[e].group >= 0 && g[T->ev[e].group];
        break;
    }
    default: {
        uint8_t *mm = xcalloc((size_t)T->nmsg + 1, 1);
        for (int m = 0; m < T->nmsg; m++) {
            int s = T->msg[m][0], r = T->msg[m][1];
            mm[m] = (s >= 0 && live[s] && in[s]) || (r >= 0 && live[r] && in[r]);
        }
        for (int e = 0; e < n; e++) x->cache[e] = T->ev[e].msg >= 0 && mm[T->ev[e].msg];
        free(mm);
        break;
    }
    }
    free(in);
}

static void ref_stage(Node *root, const uint8_t *live, uint8_t *out)
{
    ref_scopes(root, live);
    for (int e = 0; e < RT->n; e++) out[e] = live[e] && cond_top(root, e);
}

/* ---- running and comparing ------------------------------------------------------ */

typedef struct {
    Node *st[4];
    int nst;
    char *text;
} Expr;

static void expr_free(Expr *E)
{
    for (int i = 0; i < E->nst; i++) nfree(E->st[i]);
    free(E->text);
    memset(E, 0, sizeof *E);
}

static void expr_print_style(Expr *E, Rng *r, int style)
{
    Str b = {0};
    Pr p = {&b, r, style};
    for (int i = 0; i < E->nst; i++) {
        if (i) s_puts(&b, chance(r, 0.8) ? " | " : "|");
        pr_node(&p, E->st[i], 0);
    }
    E->text = b.b;
}

static void expr_print(Expr *E, Rng *r) { expr_print_style(E, r, rn(r, 3)); }

static void gen_expr(Gen *g, Expr *E)
{
    memset(E, 0, sizeof *E);
    int k = rn(g->r, 100);
    E->nst = k < 60 ? 1 : k < 88 ? 2 : 3;
    for (int i = 0; i < E->nst; i++) {
        if (i > 0 && chance(g->r, 0.4)) {
            /* a scope over the survivors of the earlier stages */
            g->scopes++;
            E->st[i] = mk2(X_SCOPE, rn(g->r, 6), gen_bool(g, 1 + rn(g->r, 3)), NULL);
            g->scopes--;
        } else {
            E->st[i] = gen_bool(g, 1 + rn(g->r, 4));
        }
    }
    expr_print(E, g->r);
}

typedef struct {
    uint64_t seed;
    int trace;
    const char *csv;      /* the loaded temp file */
    char failpath[256];   /* where a failing trace was kept */
    bool kept;
    int passed, failed;
    bool verbose;
} Run;

static const char *first_fail_path_used;
static long n_empty, n_all, n_partial; /* final selections of the checked filters */

static void keep_trace(Run *R)
{
    if (R->kept) return;
    static char first[256];
    if (!first_fail_path_used) {
        snprintf(first, sizeof first, "/tmp/filter_diff_fail_%" PRIu64 ".csv", R->seed);
        snprintf(R->failpath, sizeof R->failpath, "%s", first);
        first_fail_path_used = first;
    } else {
        snprintf(R->failpath, sizeof R->failpath, "/tmp/filter_diff_fail_%" PRIu64 "_t%d.csv", R->seed, R->trace);
    }
    if (!copy_file(R->csv, R->failpath)) snprintf(R->failpath, sizeof R->failpath, "(could not copy %s)", R->csv);
    R->kept = true;
}

static void shell_quote(Str *b, const char *s)
{
    s_puts(b, "'");
    for (const char *p = s; *p; p++) {
        if (*p == '\'') s_puts(b, "'\\''");
        else s_put(b, p, 1);
    }
    s_puts(b, "'");
}

static void ev_describe(Str *b, const Trace *T, int e)
{
    s_printf(b, "seq=%d", e);
    for (int fd = 0; fd < NFD; fd++) {
        if (fd == FD_SEQ || T->st[fd] == ST_UNK) continue;
        RVal v = fval(T, e, fd);
        if (v.t == VA) continue;
        s_printf(b, " %s=", FD_NAME_S[fd]);
        val_print(b, v);
    }
    const Ev *v = &T->ev[e];
    s_printf(b, " [activity %d, message %d]", v->actid, v->msg);
}

static void fail_header(Run *R, const char *text)
{
    printf("not ok - seed %" PRIu64 " trace %d expr: %s\n", R->seed, R->trace, text);
}

static void repro(Run *R, const char *text)
{
    keep_trace(R);
    Str b = {0};
    s_puts(&b, "  reproduce: ./tnav filter --no-lanes --count --stages ");
    shell_quote(&b, text);
    s_printf(&b, " %s   (or: filter_diff --seed %" PRIu64 " --trace %d)", R->failpath, R->seed, R->trace);
    printf("%s\n", b.b);
    free(b.b);
}

/* run E on the store and the reference; true when they agree */
static bool check_expr(Run *R, const Store *s, const Trace *T, const uint32_t *map, Expr *E, bool twice)
{
    size_t n = s->n, nw = (n + 63) / 64 + 1;
    FilterError err;
    if (R->verbose) printf("# %s\n", E->text);
    Filter *f = filter_compile(s, E->text, &err);
    if (!f) {
        fail_header(R, E->text);
        printf("  compile error (expected it to compile):\n");
        fflush(stdout);
        filter_print_error(stdout, E->text, &err);
        repro(R, E->text);
        return false;
    }
    bool ok = true;
    if (filter_nstages(f) != E->nst) {
        fail_header(R, E->text);
        printf("  %d stages compiled, %d written\n", filter_nstages(f), E->nst);
        filter_free(f);
        return false;
    }
    uint64_t *sel = xcalloc(nw, 8), *sel2 = NULL;
    uint64_t cnt[4] = {0}, cnt2[4] = {0};
    filter_run(f, sel, cnt);
    if (twice) {
        sel2 = xcalloc(nw, 8);
        filter_run(f, sel2, cnt2);
    }
    filter_free(f);

    /* the reference */
    RT = T;
    uint8_t *live = xmalloc(n + 1), *out = xmalloc(n + 1);
    memset(live, 1, n + 1);
    uint64_t rc[4] = {0};
    for (int i = 0; i < E->nst; i++) {
        ref_stage(E->st[i], live, out);
        for (size_t e = 0; e < n; e++) rc[i] += out[e];
        memcpy(live, out, n);
    }
    {
        uint64_t last = E->nst ? rc[E->nst - 1] : 0;
        if (last == 0) n_empty++;
        else if (last == n) n_all++;
        else n_partial++;
    }
    /* compare */
    int ndiff = 0;
    Str d = {0};
    for (size_t e = 0; e < n; e++) {
        bool vm = (sel[e >> 6] >> (e & 63)) & 1;
        bool ref = live[map[e]] != 0;
        if (vm != ref) {
            if (ndiff < 6) {
                s_puts(&d, "  event ");
                ev_describe(&d, T, (int)map[e]);
                s_printf(&d, ": VM %s, reference %s\n", vm ? "selects" : "drops", ref ? "selects" : "drops");
            }
            ndiff++;
        }
    }
    bool counts_ok = true;
    for (int i = 0; i < E->nst; i++)
        if (cnt[i] != rc[i]) counts_ok = false;
    if (ndiff || !counts_ok) {
        ok = false;
        fail_header(R, E->text);
        printf("  stage counts: VM");
        for (int i = 0; i < E->nst; i++) printf(" %" PRIu64, cnt[i]);
        printf(", reference");
        for (int i = 0; i < E->nst; i++) printf(" %" PRIu64, rc[i]);
        printf("; %d events differ\n", ndiff);
        if (d.b) fputs(d.b, stdout);
        repro(R, E->text);
    }
    free(d.b);
    if (twice && ok) {
        bool same = memcmp(sel, sel2, ((n + 63) / 64) * 8) == 0;
        for (int i = 0; i < E->nst; i++)
            if (cnt[i] != cnt2[i]) same = false;
        if (!same) {
            ok = false;
            fail_header(R, E->text);
            printf("  a second run of the same compiled filter gives a different selection\n");
            repro(R, E->text);
        }
    }
    free(sel);
    free(sel2);
    free(live);
    free(out);
    return ok;
}

/* compile a truncated text: it may or may not compile, but an error must
 * point inside the text */
static bool check_truncated(Run *R, const Store *s, const char *text, size_t cut)
{
    char *t = xmalloc(cut + 1);
    memcpy(t, text, cut);
    t[cut] = 0;
    /* do not cut a UTF-8 sequence */
    while (cut > 0 && ((unsigned char)t[cut - 1] & 0xC0) == 0x80) t[--cut] = 0;
    if (cut > 0 && (unsigned char)t[cut - 1] >= 0xC0) t[--cut] = 0;
    FilterError err;
    Filter *f = filter_compile(s, t, &err);
    bool ok = true;
    if (f) {
        uint64_t *sel = xcalloc((s->n + 63) / 64 + 1, 8);
        filter_run(f, sel, NULL);
        free(sel);
        filter_free(f);
    } else {
        int chars = 0;
        for (size_t i = 0; i < cut; i++)
            if (((unsigned char)t[i] & 0xC0) != 0x80) chars++;
        if (err.line != 1 || err.col < 1 || err.col > chars + 1 || !err.msg[0]) {
            ok = false;
            fail_header(R, t);
            printf("  truncated filter: error at %d:%d (%s) is outside the text (%d characters)\n", err.line, err.col,
                   err.msg, chars);
        }
    }
    free(t);
    return ok;
}

/* ---- deliberately invalid filters --------------------------------------------- */

static const struct {
    const char *text;
    int line, col; /* col 0: anywhere in the text */
} BAD[] = {
    {"durr > 10us", 1, 1},
    {"dur > 4KiB", 1, 7},
    {"name =~ /MPI_(Send/", 1, 19},
    {"bytes > 10us", 1, 9},
    {"10us < bytes", 1, 1},
    {"ts in [1, 2KB]", 1, 11},
    {"end in 1MiB..2MiB", 1, 8},
    {"name < 3", 1, 6},
    {"dur < 1 < 2", 1, 9},
    {"len(name, 1) > 0", 1, 1},
    {"dur > 5 &&", 1, 11},
    {"kind == 'x' |", 1, 13},
    {"(dur > 1", 1, 1},
    {"dur > 10xs", 1, 9},
    {"name =~ /x/q", 1, 12},
    {"é∂ > 1", 1, 1},
    {"name == 'é∂' && durr > 1", 1, 17},
    {"dur + 1", 1, 1},
    {"!dur", 1, 2},
    {"name + 1 > 2", 1, 1},
    {"act_any(dur)", 1, 9},
    {"has(1)", 1, 5},
    {"field(1) > 2", 1, 7},
    {"1 = 2", 1, 3},
    {"dur > 1 & dur < 2", 1, 9},
    {"name == \"\\xff\"", 1, 9},
    {"name == '\\q'", 1, 10},
    {"name =~ 3", 1, 9},
    {"min(1) > 0", 1, 1},
    {"ts > \"a\"", 1, 4},
    {"dur > 1 &&\n  durr < 2", 2, 3},
    {"", 1, 1},
    {"dur > 1 |", 1, 9},
    {"dur in 1", 1, 9},
    {"nosuchfn(dur)", 1, 1},
    {"'abc", 1, 1},
    {"name =~ /abc", 1, 9},
    {"dur > 99999999999999999999", 1, 7},
    {"dur > 1 )", 1, 9},
    {"kind == 'a' | 3", 1, 15},
    {"name in [1]", 1, 10},
    {"len(dur) > 1", 1, 5},
    {"abs(name) > 1", 1, 5},
    {"dur =~ /x/", 1, 1},
    {"true && 3", 1, 9},
    {"name =~ /x/ == true", 1, 13},
    {"f =~ /x/", 1, 1},
    {"sx > 1", 1, 4},
    {"seqq == 1", 1, 1},
    {"field('no such') == 1", 1, 1},
    {"/x/", 1, 1},
    {"dur in [1, 2", 1, 13},
    {"name == 'a\\ud800'", 1, 11},
    {"kind == 'é' || dur >< 3", 1, 21},
};
#define NBAD ((int)(sizeof BAD / sizeof BAD[0]))

static void check_invalid(Run *R, const Store *s)
{
    /* one filter nested deeper than 400 levels */
    Str deep = {0};
    for (int i = 0; i < 401; i++) s_puts(&deep, "(");
    s_puts(&deep, "dur > 1");
    for (int i = 0; i < 401; i++) s_puts(&deep, ")");
    for (int k = 0; k <= NBAD; k++) {
        const char *text = k < NBAD ? BAD[k].text : deep.b;
        int line = k < NBAD ? BAD[k].line : 1, col = k < NBAD ? BAD[k].col : 0;
        FilterError err;
        Filter *f = filter_compile(s, text, &err);
        if (f) {
            filter_free(f);
            R->failed++;
            fail_header(R, text);
            printf("  compiled, but it is invalid\n");
            continue;
        }
        int chars = 0;
        for (const char *p = text; *p; p++)
            if (((unsigned char)*p & 0xC0) != 0x80) chars++;
        bool ok = err.msg[0] && err.line == line && (col ? err.col == col : (err.col >= 1 && err.col <= chars + 1));
        /* the printed message carries the position */
        char *mem = NULL;
        size_t memn = 0;
        FILE *ms = open_memstream(&mem, &memn);
        if (ms) {
            filter_print_error(ms, text, &err);
            fclose(ms);
            char want[64];
            snprintf(want, sizeof want, "tnav: filter:%d:%d: ", err.line, err.col);
            if (!mem || strncmp(mem, want, strlen(want)) != 0 || !strchr(mem, '^')) ok = false;
        }
        if (ok) {
            R->passed++;
        } else {
            R->failed++;
            fail_header(R, text);
            printf("  expected an error at %d:%d, got %d:%d: %s\n", line, col, err.line, err.col, err.msg);
            if (mem) fputs(mem, stdout);
        }
        free(mem);
    }
    free(deep.b);
}

/* ---- hand-written expressions ------------------------------------------------ */

typedef struct {
    Expr *v;
    int n, cap;
    Rng *r;
} EList;

static void expr_print_style(Expr *E, Rng *r, int style);

/* style < 0: a random one */
static void el_add_style(EList *L, Node *a, Node *b, Node *c, int style)
{
    if (L->n == L->cap) {
        L->cap = L->cap ? L->cap * 2 : 64;
        L->v = xrealloc(L->v, (size_t)L->cap * sizeof *L->v);
    }
    Expr *E = &L->v[L->n++];
    memset(E, 0, sizeof *E);
    E->st[E->nst++] = a;
    if (b) E->st[E->nst++] = b;
    if (c) E->st[E->nst++] = c;
    if (style < 0) expr_print(E, L->r);
    else expr_print_style(E, L->r, style);
}

static void el_add(EList *L, Node *a, Node *b, Node *c) { el_add_style(L, a, b, c, -1); }

static Node *F_(int fd) { return mk_field(fd, false); }
static Node *I_(int64_t v) { return mk_int(v); }
static Node *S_(Rng *r, const char *s) { return mk_str(r, s, strlen(s)); }
static Node *CMP_(int op, Node *a, Node *b) { return mk2(X_CMP, op, a, b); }
static Node *AR_(int op, Node *a, Node *b) { return mk2(X_ARITH, op, a, b); }
static Node *AND_(Node *a, Node *b) { return mk2(X_AND, 0, a, b); }
static Node *OR_(Node *a, Node *b) { return mk2(X_OR, 0, a, b); }
static Node *NOT_(Node *a) { return mk2(X_NOT, 0, a, NULL); }
static Node *SC_(int k, Node *a) { return mk2(X_SCOPE, k, a, NULL); }
static Node *RXN(Rng *r, Node *subj, const char *pat) { return mk_match(r, subj, false, pat, pat, pat, false, "", false); }
static Node *HAS_(int fd)
{
    Node *x = nnew(X_HAS);
    x->fd = fd;
    return x;
}

/* a condition of the trace to split it with (several kinds) */
static Node *splitter(const Trace *T, Rng *r, int k)
{
    switch (k) {
    case 0: return CMP_(OP_EQ, F_(FD_KIND), S_(r, "sync"));
    case 1: return T->st[FD_SEQ] != ST_UNK ? CMP_(OP_EQ, AR_('%', F_(FD_SEQ), I_(3)), I_(0)) : CMP_(OP_GT, F_(FD_TS), I_(0));
    case 2: return HAS_(FD_GROUP);
    case 3: return CMP_(OP_GT, F_(FD_DUR), I_(1000));
    default: return CMP_(OP_EQ, F_(FD_KIND), S_(r, "send"));
    }
}

/* expressions at the edges of the semantics, for every trace */
static void edge_exprs(EList *L, const Trace *T)
{
    Rng *r = L->r;
    bool seq = T->st[FD_SEQ] != ST_UNK;
    /* instants against constants (dur/end read in place) */
    static const int64_t K[] = {-5, -1, 0, 1};
    for (int i = 0; i < 4; i++) {
        el_add(L, CMP_(OP_GT, F_(FD_DUR), I_(K[i])), NULL, NULL);
        el_add(L, CMP_(OP_GE, F_(FD_DUR), I_(K[i])), NULL, NULL);
        el_add(L, CMP_(OP_NE, F_(FD_DUR), I_(K[i])), NULL, NULL);
        el_add(L, CMP_(OP_LT, I_(K[i]), F_(FD_END)), NULL, NULL);
    }
    el_add(L, CMP_(OP_LE, F_(FD_DUR), I_(0)), NULL, NULL);
    el_add(L, NOT_(CMP_(OP_LT, F_(FD_DUR), I_(5000))), NULL, NULL);
    el_add(L, CMP_(OP_GE, F_(FD_END), F_(FD_TS)), NULL, NULL);
    /* integer edges */
    el_add(L, CMP_(OP_EQ, AR_('%', F_(FD_TS), I_(-1)), I_(0)), NULL, NULL);
    el_add(L, CMP_(OP_EQ, AR_('%', AR_('+', AR_('-', F_(FD_TS), F_(FD_TS)), I_(INT64_MIN)), I_(-1)), I_(0)), NULL, NULL);
    el_add(L, CMP_(OP_LT, mk_neg(AR_('+', AR_('-', F_(FD_TS), F_(FD_TS)), I_(INT64_MIN))), I_(0)), NULL, NULL);
    el_add(L, CMP_(OP_LT, mk2(X_ABS, 0, AR_('+', AR_('*', F_(FD_TS), I_(0)), I_(INT64_MIN)), NULL), I_(0)), NULL, NULL);
    el_add(L, CMP_(OP_LT, mk_neg(I_(INT64_MIN)), I_(0)), NULL, NULL);
    el_add(L, CMP_(OP_GT, AR_('+', AR_('*', F_(FD_TS), I_(0)), I_(INT64_MAX)), AR_('-', F_(FD_TS), F_(FD_TS))), NULL, NULL);
    el_add(L, CMP_(OP_GT, AR_('+', AR_('+', AR_('*', F_(FD_TS), I_(0)), I_(INT64_MAX)), I_(1)), I_(0)), NULL, NULL);
    el_add(L, CMP_(OP_NE, AR_('/', F_(FD_TS), I_(0)), I_(0)), NULL, NULL);
    el_add(L, CMP_(OP_NE, AR_('%', F_(FD_TS), I_(0)), I_(0)), NULL, NULL);
    el_add(L, CMP_(OP_NE, AR_('+', F_(FD_TS), F_(FD_TS)), I_(0)), NULL, NULL);
    el_add(L, CMP_(OP_EQ, AR_('/', F_(FD_TS), I_(2)), AR_('*', F_(FD_TS), mk_flt_text("0.5"))), NULL, NULL);
    el_add(L, CMP_(OP_EQ, mk2(X_MINMAX, 0, F_(FD_DUR), F_(FD_TS)), F_(FD_TS)), NULL, NULL);
    el_add(L, CMP_(OP_GE, mk2(X_MINMAX, 1, F_(FD_DUR), mk_flt_text("0.5")), mk_flt_text("0.5")), NULL, NULL);
    if (T->st[FD_F] != ST_UNK) {
        el_add(L, CMP_(OP_NE, AR_('/', F_(FD_F), mk_flt_text("0.0")), I_(0)), NULL, NULL);
        el_add(L, CMP_(OP_LT, AR_('%', F_(FD_F), mk_flt_text("0.75")), I_(0)), NULL, NULL);
        el_add(L, CMP_(OP_EQ, F_(FD_F), AR_('/', AR_('*', F_(FD_F), I_(4)), I_(4))), NULL, NULL);
    }
    if (seq) el_add(L, CMP_(OP_EQ, AR_('%', F_(FD_SEQ), I_(-1)), I_(0)), NULL, NULL);
    /* strings */
    el_add(L, mk2(X_STRFN, 1, F_(FD_NAME), S_(r, "")), NULL, NULL);
    el_add(L, mk2(X_STRFN, 0, F_(FD_NAME), S_(r, "")), NULL, NULL);
    el_add(L, mk2(X_STRFN, 2, F_(FD_KIND), S_(r, "")), NULL, NULL);
    el_add(L, CMP_(OP_GE, F_(FD_NAME), S_(r, "")), NULL, NULL);
    el_add(L, CMP_(OP_LT, F_(FD_NAME), mk_str(r, "MPI_Send\0", 9)), NULL, NULL);
    el_add(L, CMP_(OP_EQ, mk2(X_CASE, 0, F_(FD_NAME), NULL), F_(FD_NAME)), NULL, NULL);
    el_add(L, CMP_(OP_EQ, mk2(X_CASE, 1, F_(FD_KIND), NULL), S_(r, "SEND")), NULL, NULL);
    el_add(L, CMP_(OP_EQ, mk2(X_LEN, 0, F_(FD_NAME), NULL), I_(2)), NULL, NULL);
    el_add(L, RXN(r, F_(FD_NAME), "^$"), NULL, NULL);
    el_add(L, mk_match(r, F_(FD_LOC), true, "1", "1", "1", false, "", false), NULL, NULL);
    /* labels */
    el_add(L, CMP_(OP_EQ, F_(FD_LOC), I_(-1)), NULL, NULL);
    el_add(L, CMP_(OP_EQ, F_(FD_ACT), I_(-3)), NULL, NULL);
    el_add(L, CMP_(OP_EQ, F_(FD_ACT), S_(r, "7")), NULL, NULL);
    el_add(L, CMP_(OP_GT, F_(FD_ACT), I_(0)), NULL, NULL);
    el_add(L, CMP_(OP_EQ, F_(FD_PARENT), I_(7)), NULL, NULL);
    el_add(L, CMP_(OP_EQ, F_(FD_PARENT), S_(r, "7")), NULL, NULL);
    el_add(L, CMP_(OP_NE, F_(FD_PEER), S_(r, "ghost")), NULL, NULL);
    el_add(L, CMP_(OP_EQ, F_(FD_PEER), I_(99)), NULL, NULL);
    el_add(L, CMP_(OP_NE, F_(FD_LOC), F_(FD_PEER)), NULL, NULL);
    el_add(L, NOT_(HAS_(FD_ACT)), NULL, NULL);
    el_add(L, HAS_(FD_END), NULL, NULL);
    /* deep trees (well below the limit of 400 levels), minimal parentheses */
    {
        Node *x = F_(FD_DUR);
        for (int i = 0; i < 300; i++) x = AR_(i % 7 == 3 ? '-' : '+', x, I_(1 + i % 3));
        el_add_style(L, CMP_(OP_GT, x, I_(1000)), NULL, NULL, STYLE_MIN);
        Node *y = CMP_(OP_EQ, F_(FD_KIND), S_(r, "send"));
        for (int i = 0; i < 301; i++) y = NOT_(y);
        el_add_style(L, y, NULL, NULL, STYLE_MIN);
        Node *z = HAS_(FD_PEER);
        for (int i = 0; i < 200; i++) z = i % 2 ? AND_(z, CMP_(OP_NE, F_(seq ? FD_SEQ : FD_TS), I_(i))) : OR_(z, CMP_(OP_EQ, F_(FD_LOC), I_(i % 9)));
        el_add_style(L, z, NULL, NULL, STYLE_MIN);
        Node *w = CMP_(OP_GT, F_(FD_DUR), I_(100));
        for (int i = 0; i < 12; i++) w = SC_(i % 6, i % 3 ? w : NOT_(w));
        el_add(L, w, NULL, NULL);
    }
    /* scopes see only the survivors of the earlier stages */
    for (int k = 0; k < 5; k++) {
        for (int sc = 0; sc < 6; sc++) {
            bool all = sc == SC_ACT_ALL || sc == SC_LOC_ALL;
            el_add(L, splitter(T, r, k), SC_(sc, all ? splitter(T, r, k) : NOT_(splitter(T, r, k))), NULL);
        }
        el_add(L, NOT_(splitter(T, r, k)), SC_(SC_GROUP_ANY, splitter(T, r, k)), NULL);
        el_add(L, NOT_(splitter(T, r, k)), SC_(SC_MSG_ANY, splitter(T, r, k)), NULL);
        el_add(L, SC_(SC_ACT_ANY, splitter(T, r, k)), SC_(SC_LOC_ALL, SC_(SC_ACT_ANY, NOT_(splitter(T, r, k)))), NULL);
        el_add(L, SC_(SC_MSG_ANY, splitter(T, r, k)), NOT_(splitter(T, r, k)), SC_(SC_GROUP_ANY, splitter(T, r, (k + 1) % 5)));
        /* tables over activities / locations that read a scope (rebuilt
         * for every stage and run) */
        el_add(L, NOT_(splitter(T, r, k)),
               OR_(SC_(SC_ACT_ANY, splitter(T, r, (k + 2) % 5)), CMP_(OP_EQ, F_(FD_ACT), I_(7))), NULL);
        el_add(L, AND_(NOT_(SC_(SC_LOC_ALL, NOT_(splitter(T, r, k)))), CMP_(OP_NE, F_(FD_LOC), I_(2))),
               SC_(SC_LOC_ANY, splitter(T, r, k)), NULL);
    }
}

/* one event at the edges of the blocks of 1024 events: a chain whose first
 * part decides every row of the block but one */
static void block_edge_exprs(EList *L, const Trace *T, const Store *s, const uint32_t *map)
{
    if (T->st[FD_SEQ] != ST_UNK && s->n) {
        size_t at[] = {0, 1023, 1024, s->n - 1, 1, 63, 64, 1022, 1025, 2047, 2048, 3071, 3072, s->n - 2};
        size_t nat = s->n > 100000 ? 4 : sizeof at / sizeof at[0]; /* fewer on the big trace */
        for (size_t i = 0; i < nat; i++) {
            bool dup = false;
            for (size_t j = 0; j < i; j++) dup |= at[j] == at[i];
            if (at[i] >= s->n || dup) continue;
            int64_t q = map[at[i]];
            el_add(L, OR_(CMP_(OP_NE, F_(FD_SEQ), I_(q)), CMP_(OP_EQ, F_(FD_SEQ), I_(q))), NULL, NULL);
            el_add(L, AND_(CMP_(OP_EQ, F_(FD_SEQ), I_(q)), CMP_(OP_EQ, F_(FD_TS), I_(T->ev[q].ts))), NULL, NULL);
            el_add(L, CMP_(OP_NE, F_(FD_SEQ), I_(q)), SC_(SC_ACT_ANY, CMP_(OP_EQ, F_(FD_SEQ), I_(q))), NULL);
        }
    }
}

static void big_exprs(EList *L)
{
    Rng *r = L->r;
    el_add(L, RXN(r, F_(FD_NAME), "7$"), NULL, NULL);
    el_add(L, CMP_(OP_GT, mk2(X_LEN, 0, F_(FD_NAME), NULL), I_(5)), NULL, NULL);
    el_add(L, CMP_(OP_EQ, F_(FD_NAME), S_(r, "n123")), NULL, NULL);
    el_add(L, CMP_(OP_NE, F_(FD_NAME), S_(r, "n123")), NULL, NULL);
    el_add(L, OR_(CMP_(OP_EQ, F_(FD_NAME), S_(r, "n123")), CMP_(OP_EQ, F_(FD_NAME), S_(r, "n269999"))), NULL, NULL);
    el_add(L, CMP_(OP_EQ, mk2(X_CASE, 1, F_(FD_NAME), NULL), S_(r, "N5")), NULL, NULL);
    el_add(L, mk_match(r, mk2(X_CASE, 1, F_(FD_NAME), NULL), false, "^n12", "^n12", "^n12", true, "i", false), NULL, NULL);
    el_add(L, mk2(X_STRFN, 0, F_(FD_NAME), S_(r, "n99")), NULL, NULL);
    el_add(L, mk2(X_STRFN, 2, F_(FD_NAME), S_(r, "777")), NULL, NULL);
    el_add(L, NOT_(RXN(r, F_(FD_NAME), "^n1")), NULL, NULL);
    {
        Node *x = nnew(X_INRANGE);
        nadd(x, F_(FD_NAME));
        nadd(x, S_(r, "n1"));
        nadd(x, S_(r, "n2"));
        el_add(L, x, NULL, NULL);
    }
    {
        Node *x = nnew(X_INLIST);
        nadd(x, F_(FD_NAME));
        nadd(x, S_(r, "n1"));
        nadd(x, S_(r, "n77777"));
        nadd(x, S_(r, "MPI_Send"));
        el_add(L, x, NULL, NULL);
    }
    el_add(L, SC_(SC_ACT_ANY, CMP_(OP_EQ, F_(FD_NAME), S_(r, "n123"))), NULL, NULL);
    el_add(L, SC_(SC_LOC_ALL, RXN(r, F_(FD_NAME), "^n")), NULL, NULL);
    el_add(L, CMP_(OP_EQ, F_(FD_LOC), I_(1)), RXN(r, F_(FD_NAME), "7$"), NULL);
    el_add(L, RXN(r, F_(FD_NAME), "7$"), CMP_(OP_GT, mk2(X_LEN, 0, F_(FD_NAME), NULL), I_(5)), NULL);
    el_add(L, CMP_(OP_LT, F_(FD_SEQ), I_(1000)), CMP_(OP_EQ, mk2(X_LEN, 0, F_(FD_NAME), NULL), I_(4)), NULL);
    el_add(L, CMP_(OP_GT, F_(FD_SEQ), I_(260000)), RXN(r, F_(FD_NAME), "^n26[0-9]+9$"), NULL);
    el_add(L, CMP_(OP_EQ, F_(FD_KIND), S_(r, "send")), CMP_(OP_LT, F_(FD_NAME), S_(r, "n2")),
           SC_(SC_MSG_ANY, RXN(r, F_(FD_NAME), "5$")));
    /* value tables over the names, filled lazily */
    el_add(L, CMP_(OP_EQ, AR_('+', mk2(X_LEN, 0, F_(FD_NAME), NULL), AR_('%', F_(FD_SEQ), I_(3))), I_(6)), NULL, NULL);
    el_add(L, CMP_(OP_EQ, mk2(X_CASE, 0, F_(FD_NAME), NULL), F_(FD_SX)), NULL, NULL);
    el_add(L, CMP_(OP_GT, mk2(X_CASE, 1, F_(FD_NAME), NULL), F_(FD_KIND)), NULL, NULL);
    el_add(L, CMP_(OP_LT, F_(FD_SEQ), I_(5000)), CMP_(OP_EQ, mk2(X_CASE, 1, F_(FD_NAME), NULL), mk2(X_CASE, 1, F_(FD_SX), NULL)), NULL);
    el_add(L, CMP_(OP_GT, mk2(X_MINMAX, 1, mk2(X_LEN, 0, F_(FD_NAME), NULL), F_(FD_TAG)), AR_('%', F_(FD_SEQ), I_(8))), NULL, NULL);
}

/* ---- main ---------------------------------------------------------------------- */

static int pick_size(Rng *r)
{
    int k = rn(r, 100);
    if (k < 2) return 0;
    if (k < 8) return 1 + rn(r, 3);
    if (k < 28) return 4 + rn(r, 97);
    if (k < 48) return 1024 * (1 + rn(r, 4)) + rn(r, 5) - 2;
    return 100 + rn(r, 4901);
}

static void usage(void)
{
    fprintf(stderr, "usage: filter_diff [--seed N] [--traces N] [--exprs N] [--trace T] [--no-big] [--verbose]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    int ntraces = 40, nexprs = 120, only = -1;
    bool big = true, verbose = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--traces") && i + 1 < argc) ntraces = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--exprs") && i + 1 < argc) nexprs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--trace") && i + 1 < argc) only = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-big")) big = false;
        else if (!strcmp(argv[i], "--verbose")) verbose = true;
        else usage();
    }
    atexit(remove_cur_csv);
    for (int i = 0; i < NACT; i++) label_set(&ACT_L[i], ACT_TEXT[i]);
    for (int i = 0; i < NPAR; i++) label_set(&PAR_L[i], PAR_TEXT[i]);
    for (int i = 0; i < NGRP; i++) label_set(&GRP_L[i], GRP_TEXT[i]);

    int passed = 0, failed = 0;
    clock_t t0 = clock();
    /* traces 0 .. ntraces-1, then the big one (number ntraces) */
    for (int t = 0; t <= ntraces; t++) {
        bool isbig = t == ntraces;
        if (isbig && !big) break;
        if (only >= 0 && t != only) continue;
        Rng r = {seed * 0x100000001b3ULL + (uint64_t)t * 0x9E3779B97F4A7C15ULL + 12345};
        Trace T;
        int flavor = isbig ? 2 : t == 0 ? 1 : 0;
        int n = isbig ? 270000 : t == 0 ? 700 : pick_size(&r);
        gen_trace(&T, &r, n, flavor);
        char path[64];
        if (!write_csv(&T, &r, path, sizeof path)) {
            printf("not ok - seed %" PRIu64 " trace %d: cannot write the CSV\n", seed, t);
            failed++;
            remove_cur_csv();
            trace_free(&T);
            continue;
        }
        Run R;
        memset(&R, 0, sizeof R);
        R.seed = seed;
        R.trace = t;
        R.csv = path;
        R.verbose = verbose;

        LoadOpts o;
        load_opts_default(&o);
        o.quiet = true;
        o.no_lanes = true; /* (the generated intervals overlap at random: they stay where they were generated) */
        char *paths[1] = {path};
        Store *s = NULL;
        LoadReport rep;
        memset(&rep, 0, sizeof rep);
        int rc = load_traces(&o, paths, 1, &s, &rep);
        uint32_t *map = NULL;
        bool loaded = rc == 0 && s && rep.rejected == 0 && s->n == (size_t)T.n;
        if (loaded && T.n) {
            const Column *sc = store_column(s, "seq");
            map = xmalloc((size_t)T.n * sizeof *map);
            uint8_t *seen = xcalloc((size_t)T.n, 1);
            for (size_t e = 0; loaded && e < s->n; e++) {
                int64_t v;
                if (!sc || !col_get_i(sc, e, &v) || v < 0 || v >= T.n || seen[v]) loaded = false;
                else {
                    map[e] = (uint32_t)v;
                    seen[v] = 1;
                }
            }
            free(seen);
        }
        const char *why = loaded && s ? store_check(s) : NULL;
        if (!loaded || why) {
            keep_trace(&R);
            printf("not ok - seed %" PRIu64 " trace %d: the generated trace did not load as generated (rc %d, %" PRIu64
                   " rejected, %zu of %d events%s%s); kept at %s\n",
                   seed, t, rc, rep.rejected, s ? s->n : (size_t)0, T.n, why ? ", store_check: " : "", why ? why : "",
                   R.failpath);
            failed++;
        } else {
            Gen g = {&r, &T, 0, isbig};
            int ne = isbig ? (nexprs < 20 ? nexprs : 20) : nexprs;
            EList L = {NULL, 0, 0, &r};
            if (isbig) big_exprs(&L);
            if (!isbig) edge_exprs(&L, &T);
            block_edge_exprs(&L, &T, s, map);
            for (int k = 0; k < L.n; k++) {
                if (check_expr(&R, s, &T, map, &L.v[k], k % 3 == 0)) R.passed++;
                else R.failed++;
                expr_free(&L.v[k]);
            }
            free(L.v);
            if (t == 0) check_invalid(&R, s);
            for (int x = 0; x < ne; x++) {
                Expr E;
                gen_expr(&g, &E);
                if (check_expr(&R, s, &T, map, &E, x % 4 == 0)) R.passed++;
                else R.failed++;
                if (x % 8 == 3) {
                    size_t len = strlen(E.text);
                    if (!check_truncated(&R, s, E.text, (size_t)rn(&r, (int)len + 1))) R.failed++;
                }
                expr_free(&E);
            }
            if (R.failed)
                printf("# seed %" PRIu64 " trace %d: %d events: %d checks passed, %d failed\n", seed, t, T.n, R.passed,
                       R.failed);
            else
                printf("ok - seed %" PRIu64 " trace %d: %d events, %d locations, %d messages: %d checks agree\n", seed,
                       t, T.n, T.nreal, T.nmsg, R.passed);
            passed += R.passed;
            failed += R.failed;
        }
        fflush(stdout);
        free(map);
        if (s) store_free(s);
        load_report_free(&rep);
        remove_cur_csv();
        trace_free(&T);
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("# %.1f s of CPU; selections: %ld empty, %ld whole trace, %ld partial\n", secs, n_empty, n_all,
           n_partial);
    printf("filter-diff: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
