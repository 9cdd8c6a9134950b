/*
 * gantt.c — the Gantt view: a line per row (a location, an activity, or a
 * group of them) holding the interval that occupies most of each cell,
 * coloured or lettered by its name, with the instants' glyphs and the
 * message arrivals and connectors drawn over it; its legend lines (names,
 * then the glyphs drawn and what was too dense to mark).
 *
 * Owns: the glyphs of instants and what they mean, the overlay modes
 * (auto, all, off) and the rule that an overlay covering more than
 * 1/OVL_DENSE of a row's cells gives way in auto (a frame whose rows on
 * screen are all shown to, summary_rows_dense, skips that overlay's
 * series and walks: the same frame).
 * Invariants: overlays never hide an interval's colour (on a colour
 * canvas it becomes the cell's background); the highlight is drawn last,
 * over everything; the TSV holds the dominant interval's name per cell.
 */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/par.h"
#include "base/util.h"
#include "view_int.h"

/* ---- Gantt ------------------------------------------------------------------------------------ */

/* the glyph and colour of the cells of a name and kind (name << 16 |
 * kind), kept for a frame's cells in a table of 1 << MEMO_BITS */
typedef struct {
    uint64_t key;
    uint32_t glyph;
    uint8_t role;
} CellMemo;
#define MEMO_BITS 10

/* the colour role and glyph of an interval of name `name` (NONE32:
 * none) and kind `kind`: what an interval's cells depend on */
static uint8_t name_role_nk(Summary *S, uint32_t name, uint16_t kind)
{
    int r = summary_name_rank_nk(S, name, kind);
    if (r >= 0 && r < ROLE_CAT_N) return (uint8_t)(ROLE_CAT0 + r);
    const char *nm = name_kind_str(summary_store(S), name, kind);
    return (uint8_t)(ROLE_CAT0 + (hash_bytes(nm, strlen(nm)) % ROLE_CAT_N));
}

static uint32_t interval_glyph_nk(Summary *S, const Canvas *c, uint32_t name, uint16_t kind)
{
    if (!c->color || c->ascii) {
        int r = summary_name_rank_nk(S, name, kind);
        return r >= 0 && r < 26 ? (uint32_t)('a' + r) : '#';
    }
    return kind == K_STATE ? G_FULL : kind == K_SYNC ? 0x2591 : 0x2592;
}

uint8_t gantt_name_role(Summary *S, uint32_t e)
{
    const Store *s = summary_store(S);
    return name_role_nk(S, s->name[e], s->kind[e]);
}

/* the glyph of an interval occupying a cell */
uint32_t gantt_interval_glyph(Summary *S, const Canvas *c, uint32_t e)
{
    const Store *s = summary_store(S);
    return interval_glyph_nk(S, c, s->name[e], s->kind[e]);
}

/* what an instant's glyph stands for (the glyph legend) */
const char *const GANTT_GLYPH_TEXT[GL__N] = {"spawn", "end", "mark", "atomic", "move with data", "move",
                                             "sync instant", "user kind (its first letter)", "clock op (\u2190 drop, \u21C9 resume, \u21C7 wait)"};
const uint32_t GANTT_GLYPH[GL__N] = {0x25B8, 0x25CF, 0x2022, 'A', 'D', 'M', 'F', 'x', 0x2192};

static GlyphClass glyph_class(const Store *s, uint32_t e)
{
    switch (s->kind[e]) {
    case K_SPAWN: return GL_SPAWN;
    case K_END: return GL_END;
    case K_MARK: return GL_MARK;
    case K_ATOMIC: return GL_ATOMIC;
    case K_SYNC: return GL_FINISH;
    case K_MOVE: return GL_MOVE; /* (GL_DMOVE: decided with the glyph) */
    default: break;
    }
    if (s->kind[e] >= K_USER && strcmp(kind_name(s, s->kind[e]), "clock") != 0) return GL_USER;
    return GL_CLOCK;
}

/* the X-Eye glyph of an instant event */
static uint32_t instant_glyph(const Store *s, uint32_t e)
{
    switch (s->kind[e]) {
    case K_SPAWN: return 0x25B8; /* ▸ */
    case K_END: return 0x25CF;   /* ● */
    case K_MOVE: {
        const Column *bc = store_canon_col(s, F_BYTES);
        int64_t b = 0;
        double d;
        if (bc && col_get_num(bc, e, &d)) b = (int64_t)d;
        return b > 0 ? 'D' : 'M';
    }
    case K_SYNC: return 'F';
    case K_ATOMIC: return 'A';
    case K_MARK: return 0x2022; /* • */
    default: break;
    }
    if (s->kind[e] >= K_USER && strcmp(kind_name(s, s->kind[e]), "clock") != 0) {
        /* a user kind: its first letter (pass, fail, note), else • */
        unsigned char k0 = (unsigned char)kind_name(s, s->kind[e])[0];
        return (k0 >= 'a' && k0 <= 'z') || (k0 >= 'A' && k0 <= 'Z') || (k0 >= '0' && k0 <= '9') ? k0 : 0x2022;
    }
    /* X10 clock operations, by name */
    const char *nm = s->name[e] != NONE32 ? store_str(s, s->name[e]) : "";
    if (strstr(nm, "drop")) return 0x2190;   /* ← */
    if (strstr(nm, "resume")) return 0x21C9; /* ⇉ */
    if (strstr(nm, "wait") || strstr(nm, "block")) return 0x21C7; /* ⇇ */
    return 0x2192;                           /* → advance */
}

/* the instants of a frame's rows: per row and cell, the event of its first
 * member's most important instant there, a later member's ● replacing it
 * (what the row shows); rows handed out to the workers */
typedef struct {
    Summary *S;
    const Store *s;
    const RowSet *rs;
    const TimeGrid *g;
    size_t ncz;
    uint32_t maxm;
    uint32_t need;  /* auto: the cells with a glyph that make a row give way (0: all drawn) */
    uint32_t *best; /* nrows x ncz */
    bool *dense;    /* per row: it holds `need` such cells (its cells then left unfinished) */
    JobQueue q;
} GlyphRows;

static void glyph_rows_worker(void *ctx, int wk, int nw)
{
    (void)wk;
    (void)nw;
    GlyphRows *G = ctx;
    int *cells = xmalloc((G->ncz + 1) * sizeof(int));
    uint32_t *cev = xmalloc((G->ncz + 1) * sizeof(uint32_t)), *ccnt = xmalloc((G->ncz + 1) * sizeof(uint32_t));
    uint32_t *memb = xmalloc(((size_t)G->maxm + 1) * sizeof(uint32_t));
    size_t r;
    while ((r = jobq_next(&G->q)) != (size_t)-1) {
        uint32_t *bestc = G->best + r * G->ncz;
        for (size_t i = 0; i < G->ncz; i++) bestc[i] = NONE32;
        uint32_t nm = summary_point_members(G->S, G->rs, (uint32_t)r, false, memb);
        uint32_t used = 0; /* (the row's cells with a glyph so far) */
        G->dense[r] = false;
        for (uint32_t m = 0; m < nm && !G->dense[r]; m++) {
            uint32_t k = memb[m];
            if (m + 4 < nm) summary_glyph_ahead(G->S, G->rs->kind, G->rs->ids[memb[m + 4]]);
            /* (auto: the member's cells walked only until the row has
             * `need` cells with a glyph, in pieces that each may complete
             * it: a row that gives way is not walked to its end) */
            for (int from = 0;;) {
                int stop = G->need ? (int)(G->need - used) : 0, found = 0;
                int nk = summary_glyph_cells(G->S, G->rs->kind, G->rs->ids[k], G->g, from, stop, cells, cev, ccnt);
                for (int q = 0; q < nk; q++) {
                    uint32_t e = cev[q], *best = &bestc[cells[q]];
                    if (e == NONE32) continue;
                    found++;
                    /* (an end's glyph, ●, is the only one a later member's
                     * replaces the row's with: its kind, not its glyph, read) */
                    if (*best == NONE32) used++, *best = e;
                    else if (G->s->kind[e] == K_END) *best = e;
                }
                if (G->need && used >= G->need) G->dense[r] = true;
                if (!stop || G->dense[r] || found < stop || !nk) break; /* (the member walked to its end) */
                from = cells[nk - 1] + 1;
            }
        }
    }
    free(cells);
    free(cev);
    free(ccnt);
    free(memb);
}

/* a first frame's three parts on two workers: the intervals
 * (agg_dominant), the arrivals' series and the instants' (the three touch
 * different parts of the summary), each taken by the first worker free,
 * the intervals and the arrivals first (on wide traces the arrivals take
 * longest, on traces of many activities the instants: the worker done
 * first builds those) */
typedef struct {
    Summary *S;
    const RowSet *rs;
    const TimeGrid *g;
    uint32_t *dom;
    uint64_t *nk;
    bool marks, msgs, merged;
    /* (auto overlays) the rows on screen and the cells that make a row too
     * dense; whether every one of them is shown to be, per overlay */
    uint32_t nr, need;
    bool try_marks, try_msgs, dense_marks, dense_msgs;
    _Atomic int next;
} FirstFrame;

/* an overlay's series for a frame, unless every row on screen is shown
 * to give way as too dense without them (then *dense) */
static void overlay_points(FirstFrame *f, bool arrivals)
{
    bool on = arrivals ? f->msgs : f->marks, ready = summary_gantt_points_ready(f->S, f->rs, !arrivals, arrivals, f->merged);
    if (!on || ready) return;
    bool *dense = arrivals ? &f->dense_msgs : &f->dense_marks;
    if ((arrivals ? f->try_msgs : f->try_marks) && summary_rows_dense(f->S, f->rs, f->nr, arrivals, f->g, f->need)) {
        *dense = true;
        return;
    }
    summary_gantt_points(f->S, f->rs, !arrivals, arrivals, f->merged);
}

static void first_frame_worker(void *ctx, int wk, int nw)
{
    (void)wk;
    (void)nw;
    FirstFrame *f = ctx;
    int j;
    while ((j = atomic_fetch_add(&f->next, 1)) < 3) {
        if (j == 0) agg_dominant(f->S, f->rs, f->g, 8, f->dom, f->nk);
        else overlay_points(f, j == 1);
    }
}

const char *const OVL_NAMES[OVL__N] = {"auto", "all", "off"};

/* an overlay glyph over whatever the cell holds: on a colour canvas an
 * interval's colour stays, as the cell's background */
static void put_overlay(Canvas *c, int x, int y, uint32_t ch, uint8_t fg, uint8_t attr)
{
    Cell *cl = canvas_at(c, x, y);
    if (!cl) return;
    uint8_t bg = cl->bg;
    if (c->color && !c->ascii && cl->ch != ' ' && cl->fg >= ROLE_CAT0 && cl->fg <= ROLE_CAT_LAST) bg = cl->fg;
    canvas_put(c, x, y, ch, fg, bg, attr);
}

static bool run_gantt(ViewCtx *ctx, Canvas *c, FILE *tsv, char *err, size_t errsz)
{
    Summary *S = ctx->S;
    const Store *s = ctx->s;
    RowsFrame F;
    rows_frame(ctx, ctx->rows, tsv != NULL, true, &F);
    const Layout L = F.L;
    const RowSet rs = F.rs;
    char **lab = F.lab;
    const TimeGrid g = F.g;
    size_t nv = (size_t)rs.ng * (size_t)g.ncell;
    uint32_t *dom = xmalloc((nv + 1) * sizeof(uint32_t));
    /* (and their names and kinds, which the cells' glyphs and colours
     * depend on: read by agg_dominant's workers) */
    uint64_t *cnk = c ? xmalloc((nv + 1) * sizeof(uint64_t)) : NULL;
    uint32_t nr = rs.ng < (uint32_t)L.nlines ? rs.ng : (uint32_t)L.nlines;
    bool marks = c && !ctx->no_marks && ctx->marks != OVL_OFF, msgs = c && !ctx->no_marks && ctx->msgs != OVL_OFF;
    /* (rows grouping many members: their arrivals merged per row, a
     * cost per cell instead of per member; a cell's first arrival
     * only matters when it is the column's only one) */
    uint64_t nmemb = 0;
    for (uint32_t r = 0; r < nr; r++) nmemb += rowset_end(&rs, r) - rowset_first(&rs, r);
    bool merged = nmemb >= 1024 && nmemb >= 4 * (uint64_t)nr;
    /* a first frame builds the series its instants and arrivals read
     * while the intervals are computed, on two workers (FirstFrame);
     * unless, in auto, every row on screen is shown to be too dense for
     * them (a row with marks in more than 1/OVL_DENSE of its cells gives
     * way): the series by activity, regrouped from those by location,
     * cost a pass over every instant and arrival of the trace, and would
     * draw nothing */
    FirstFrame ff = {S, &rs, &g, dom, cnk, marks, msgs, merged, nr, (uint32_t)g.ncell / OVL_DENSE + 1, false, false, false, false, 0};
    if (ff.need < OVL_MIN) ff.need = OVL_MIN;
    ff.try_marks = marks && ctx->marks == OVL_AUTO && rs.kind == ROWS_ACT;
    ff.try_msgs = msgs && ctx->msgs == OVL_AUTO && rs.kind == ROWS_ACT;
    if ((marks || msgs) && nr && !summary_gantt_points_ready(S, &rs, marks, msgs, merged)) {
        if (cpu_count() > 1) {
            par_run(2, first_frame_worker, &ff);
        } else {
            overlay_points(&ff, true);
            overlay_points(&ff, false);
            agg_dominant(S, &rs, &g, 8, dom, cnk);
        }
    } else {
        agg_dominant(S, &rs, &g, 8, dom, cnk);
    }
    if (tsv) {
        tsv_header(tsv, &g);
        for (uint32_t r = 0; r < rs.ng; r++) {
            tsv_label(tsv, lab[r]);
            for (int i = 0; i < g.ncell; i++) {
                putc('\t', tsv);
                uint32_t e = dom[(size_t)r * (size_t)g.ncell + (size_t)i];
                if (e != NONE32) tsv_label(tsv, event_name(s, e));
            }
            putc('\n', tsv);
        }
    }
    if (c) {
        draw_labels(c, lab, &rs, &L);
        /* intervals (a cell's glyph and colour depend on its event's
         * name and kind only, which agg_dominant's workers read: kept
         * per name and kind for the frame) */
        CellMemo *memo = xmalloc(sizeof(CellMemo) << MEMO_BITS);
        for (size_t k = 0; k < (size_t)1 << MEMO_BITS; k++) memo[k].key = UINT64_MAX;
        for (uint32_t r = 0; r < nr; r++)
            for (int i = 0; i < g.ncell; i++) {
                size_t z = (size_t)r * (size_t)g.ncell + (size_t)i;
                if (dom[z] == NONE32) continue;
                uint64_t key = cnk[z];
                size_t h = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> (64 - MEMO_BITS));
                if (memo[h].key != key) {
                    uint32_t nm = (uint32_t)(key >> 16);
                    uint16_t kd = (uint16_t)key;
                    memo[h] = (CellMemo){key, interval_glyph_nk(S, c, nm, kd), name_role_nk(S, nm, kd)};
                }
                canvas_put(c, L.x0 + i, (int)r, memo[h].glyph, memo[h].role, 0, 0);
            }
        free(memo);
        /* instants: per row, the cells where its members have one (a
         * member costs per such cell, not per cell) */
        uint8_t *has_glyph = xcalloc(nv + 1, 1);
        size_t ncz = (size_t)g.ncell;
        int *cells = xmalloc((ncz + 1) * sizeof(int));
        uint32_t *cev = xmalloc((ncz + 1) * sizeof(uint32_t)), *ccnt = xmalloc((ncz + 1) * sizeof(uint32_t));
        /* (the members of a row with instants / arrivals at all) */
        uint32_t maxm = 0;
        for (uint32_t r = 0; r < nr; r++)
            if (rowset_end(&rs, r) - rowset_first(&rs, r) > maxm) maxm = rowset_end(&rs, r) - rowset_first(&rs, r);
        uint32_t *memb = xmalloc(((size_t)maxm + 1) * sizeof(uint32_t));
        bool gl_seen[GL__N] = {0};
        uint32_t user_glyph[6], user_kind[6];
        int nuser = 0;
        ctx->out_dense_marks = ctx->out_dense_msgs = 0;
        /* each row's instant per cell, rows on 2 workers when they hold
         * many members (a row's cells depend on its members only) */
        uint32_t *bestall = NULL;
        bool *dense_row = NULL;
        if (ff.dense_marks) {
            /* (every row on screen too dense: as the walk below would find) */
            ctx->out_dense_marks = nr;
        } else if (marks && nr) {
            bestall = xmalloc(((size_t)nr * ncz + 1) * sizeof(uint32_t));
            dense_row = xcalloc((size_t)nr + 1, sizeof(bool));
            summary_point_members(S, &rs, 0, false, memb); /* (the points built before the workers: they only read) */
            GlyphRows gr = {S, s, &rs, &g, ncz, maxm, ctx->marks == OVL_AUTO ? ff.need : 0, bestall, dense_row, {0}};
            jobq_init(&gr.q, nr);
            par_run(rs.n >= 20000 && nr >= 4 && cpu_count() > 1 ? 2 : 1, glyph_rows_worker, &gr);
        }
        for (uint32_t r = 0; r < nr && marks && !ff.dense_marks; r++) {
            /* (auto: ff.need cells with a glyph, the least that covers
             * more than 1/OVL_DENSE of the row and OVL_MIN, make it give
             * way; the worker stopped there) */
            if (dense_row[r]) {
                ctx->out_dense_marks++;
                continue;
            }
            const uint32_t *bestc = bestall + (size_t)r * ncz;
            for (int i = 0; i < g.ncell; i++) {
                uint32_t best = bestc[i];
                if (best == NONE32) continue;
                uint32_t gl = instant_glyph(s, best);
                GlyphClass gc = glyph_class(s, best);
                if (gc == GL_MOVE && gl == 'D') gc = GL_DMOVE;
                gl_seen[gc] = true;
                if (gc == GL_USER) {
                    int u = 0;
                    while (u < nuser && user_kind[u] != s->kind[best]) u++;
                    if (u == nuser && nuser < 6) user_glyph[nuser] = gl, user_kind[nuser++] = s->kind[best];
                }
                put_overlay(c, L.x0 + i, (int)r, gl, ROLE_GLYPH, ATTR_BOLD);
                has_glyph[(size_t)r * ncz + (size_t)i] = 1;
            }
        }
        /* messages: a connector where one message arrives in the column,
         * else a count at each destination */
        uint32_t nbase = rs.kind == ROWS_LOC ? s->nloc : s->nact;
        int32_t *row_of = NULL; /* (the display row of each base row: made when a connector needs it) */
        /* arrivals per row and cell: how many, and the first member's first */
        uint32_t *arrc = xcalloc((size_t)nr * ncz + 1, sizeof(uint32_t)), *firstc = xmalloc(((size_t)nr * ncz + 1) * sizeof(uint32_t));
        for (size_t z = 0; z < (size_t)nr * ncz; z++) firstc[z] = NONE32;
        /* (every row on screen too dense: as the walk below would find,
         * each row's arrivals then cleared) */
        if (ff.dense_msgs) ctx->out_dense_msgs = nr;
        bool arr_walk = msgs && !ff.dense_msgs;
        const RowArrivals *rowarr = arr_walk && merged && nr ? summary_row_arrivals(S, &rs) : NULL; /* (the rows recognised once) */
        /* (auto: a row whose arrivals would cover its cells gives way,
         * from ff.need cells with arrivals on, as for the instants: each
         * member's cells walked in pieces only until the row has that
         * many, so that such a row is not walked to its end) */
        uint32_t need = ctx->msgs == OVL_AUTO ? ff.need : 0;
        for (uint32_t r = 0; r < nr && arr_walk; r++) {
            uint32_t used = 0, nm = merged ? 1 : summary_point_members(S, &rs, r, true, memb);
            for (uint32_t m = 0; m < nm && (!need || used < need); m++) {
                for (int from = 0;;) {
                    int stop = need ? (int)(need - used) : 0;
                    int nk = merged ? summary_row_arrivals_cells(rowarr, r, &g, from, stop, cells, ccnt, cev)
                                    : summary_arrival_cells(S, rs.kind, rs.ids[memb[m]], &g, from, stop, cells, ccnt, cev);
                    for (int q = 0; q < nk; q++) {
                        size_t z = (size_t)r * ncz + (size_t)cells[q];
                        if (ccnt[q] && firstc[z] == NONE32) firstc[z] = cev[q];
                        used += ccnt[q] && !arrc[z];
                        arrc[z] += ccnt[q];
                    }
                    if (!stop || used >= need || nk < stop) break; /* (the member walked to its end) */
                    from = cells[nk - 1] + 1;
                }
            }
            if (need && used >= need) {
                ctx->out_dense_msgs++;
                memset(arrc + (size_t)r * ncz, 0, ncz * sizeof(uint32_t));
            }
        }
        uint32_t *arr = xmalloc(((size_t)nr + 1) * sizeof(uint32_t)), *first = xmalloc(((size_t)nr + 1) * sizeof(uint32_t));
        bool conn_seen = false, count_seen = false;
        for (int i = 0; i < g.ncell && msgs; i++) {
            uint32_t total = 0, lone = NONE32;
            int lone_row = -1;
            for (uint32_t r = 0; r < nr; r++) {
                arr[r] = arrc[(size_t)r * ncz + (size_t)i];
                first[r] = firstc[(size_t)r * ncz + (size_t)i];
                if (arr[r]) lone = first[r], lone_row = (int)r;
                total += arr[r];
            }
            if (!total) continue;
            int src_row = -1;
            if (total == 1) {
                const Message *M = &s->msgs[lone];
                uint32_t sb = NONE32;
                if (rs.kind == ROWS_LOC) sb = M->src != NONE32 ? M->src : M->send_ev != NONE32 ? s->loc[M->send_ev] : NONE32;
                else if (M->send_ev != NONE32) sb = s->act[M->send_ev];
                if (sb != NONE32 && !row_of) {
                    row_of = xmalloc(((size_t)nbase + 1) * sizeof(int32_t));
                    for (uint32_t b = 0; b < nbase; b++) row_of[b] = -1;
                    for (uint32_t r = 0; r < nr; r++)
                        for (uint32_t k = rowset_first(&rs, r); k < rowset_end(&rs, r); k++) row_of[rs.ids[k]] = (int32_t)r;
                }
                if (sb != NONE32) src_row = row_of[sb];
            }
            if (total == 1 && src_row >= 0 && src_row != lone_row) {
                int a = src_row < lone_row ? src_row : lone_row, b = src_row < lone_row ? lone_row : src_row;
                for (int r = a + 1; r < b; r++)
                    if (!has_glyph[(size_t)r * (size_t)g.ncell + (size_t)i]) put_overlay(c, L.x0 + i, r, G_VLINE, ROLE_MSG, 0);
                put_overlay(c, L.x0 + i, src_row, src_row < lone_row ? G_TEE_DOWN : G_TEE_UP, ROLE_MSG, ATTR_BOLD);
                put_overlay(c, L.x0 + i, lone_row, src_row < lone_row ? G_ARROW_DOWN : G_ARROW_UP, ROLE_MSG, ATTR_BOLD);
                conn_seen = true;
            } else {
                for (uint32_t r = 0; r < nr; r++)
                    if (arr[r]) put_overlay(c, L.x0 + i, (int)r, arr[r] <= 9 ? '0' + arr[r] : '+', ROLE_MSG, ATTR_BOLD);
                count_seen = true;
            }
        }
        free(arr);
        free(first);
        free(arrc);
        free(firstc);
        free(cells);
        free(cev);
        free(ccnt);
        free(bestall);
        free(dense_row);
        free(memb);
        free(row_of);
        free(has_glyph);
        /* the highlight last: over intervals, glyphs and connectors */
        draw_highlight(ctx, c, &rs, &g, L.x0, L.nlines);
        /* legend: the top names, each elided in its middle so that names
         * sharing a prefix stay apart */
        if (L.legend) {
            uint32_t top[26];
            int nt = summary_top_names(S, top, NULL, 26), x = 0;
            for (int k = 0; k < nt && x < c->w - 4; k++) {
                char el[96];
                int room = c->w - x - 2 > 20 ? 20 : c->w - x - 2;
                canvas_put(c, x, L.y_legend, gantt_interval_glyph(S, c, top[k]), gantt_name_role(S, top[k]), 0, 0);
                elide_middle(event_name(s, top[k]), room, el, sizeof el);
                x += 2 + canvas_text(c, x + 2, L.y_legend, el, room, ROLE_DIM, 0);
                x += 1;
            }
        }
        if (L.y_legend2 >= 0) {
            /* the glyphs drawn in this frame, and what gave way */
            int x = 0, y = L.y_legend2;
            for (int k = 0; k < GL__N && x < c->w; k++) {
                if (!gl_seen[k] || k == GL_USER) continue;
                canvas_put(c, x, y, GANTT_GLYPH[k], ROLE_GLYPH, 0, ATTR_BOLD);
                x += 2 + canvas_text(c, x + 2, y, GANTT_GLYPH_TEXT[k], c->w - x - 2, ROLE_DIM, 0) + 2;
            }
            for (int u = 0; u < nuser && x < c->w; u++) {
                canvas_put(c, x, y, user_glyph[u], ROLE_GLYPH, 0, ATTR_BOLD);
                x += 2 + canvas_text(c, x + 2, y, kind_name(s, (uint16_t)user_kind[u]), c->w - x - 2, ROLE_DIM, 0) + 2;
            }
            if (conn_seen && x < c->w) {
                canvas_put(c, x, y, G_TEE_DOWN, ROLE_MSG, 0, ATTR_BOLD);
                canvas_put(c, x + 1, y, G_ARROW_DOWN, ROLE_MSG, 0, ATTR_BOLD);
                x += 3 + canvas_text(c, x + 3, y, "message", c->w - x - 3, ROLE_DIM, 0) + 2;
            }
            if (count_seen && x < c->w) {
                canvas_put(c, x, y, '3', ROLE_MSG, 0, ATTR_BOLD);
                x += 2 + canvas_text(c, x + 2, y, "arrivals (+: >9)", c->w - x - 2, ROLE_DIM, 0) + 2;
            }
            char gave[160];
            gave[0] = 0;
            if (ctx->out_dense_msgs || ctx->out_dense_marks) {
                snprintf(gave, sizeof gave, "too dense to mark: %s%s%s (zoom in)",
                         ctx->out_dense_msgs ? "messages" : "", ctx->out_dense_msgs && ctx->out_dense_marks ? ", " : "",
                         ctx->out_dense_marks ? "instants" : "");
                canvas_text(c, x, y, gave, c->w - x, ROLE_DIM, 0);
            } else if (ctx->no_marks) {
                canvas_text(c, x, y, "(instants and messages: drawing...)", c->w - x, ROLE_DIM, 0);
            } else if (!marks && !msgs) {
                canvas_text(c, x, y, "instants and messages hidden", c->w - x, ROLE_DIM, 0);
            }
        }
        draw_axis(c, &g, L.x0, L.y_axis, s->t_min);
        if (!ctx->no_status) draw_status(c, ctx, "gantt", rs.kind == ROWS_ACT ? "activities" : "locations", g.t0, g.t1);
    }
    (void)err;
    (void)errsz;
    free(dom);
    free(cnk);
    rows_frame_free(&F);
    return true;
}

const ViewOps VIEW_GANTT = {"gantt", "a timeline per row: what runs, instants, messages", run_gantt};
