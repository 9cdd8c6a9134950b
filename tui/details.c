/*
 * details.c — the details pane: the events under the cursor with every
 * field, their activity, a message's other end and a sync group's
 * instance (its participants' waits and the last to arrive, as tnav syncs
 * computes them); Enter follows a message or lists the participants.
 *
 * Owns: the pane's lines (App.dlines, dattr) and listed events (App.dev),
 * the focus, and the sync definition it reads (App.sctx, built once).
 * Invariants: the pane is rebuilt from the state by app_details_refresh
 * (nothing else writes its lines); a jump's event (App.focus_ev) is
 * focused when listed; no curses here.
 */
#include "app.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/syncs.h"
#include "cmd/emit.h"
#include "base/out.h"
#include "base/timeparse.h"
#include "base/util.h"

/* ---- the details pane ----------------------------------------------------------------------- */

static void dline(App *A, int attr, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void dline(App *A, int attr, const char *fmt, ...)
{
    char b[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    A->dlines = xrealloc(A->dlines, ((size_t)A->ndlines + 1) * sizeof(char *));
    A->dattr = xrealloc(A->dattr, (size_t)A->ndlines + 1);
    A->dlines[A->ndlines] = xstrdup(b);
    A->dattr[A->ndlines++] = (uint8_t)attr;
}

static void details_clear(App *A)
{
    for (int i = 0; i < A->ndlines; i++) free(A->dlines[i]);
    A->ndlines = 0;
    A->ndev = 0;
}

static void rel_time(const App *A, int64_t t, char *b, size_t sz)
{
    if (sz < 2) return;
    b[0] = '+';
    format_dur(b + 1, sz - 1, t - A->s->t_min);
}

/* a field's value as text */
static bool field_text(const Store *s, const Column *c, size_t e, char *b, size_t sz)
{
    uint8_t t;
    uint64_t p;
    if (!col_value(c, e, &t, &p)) return false;
    switch (t) {
    case VT_INT: snprintf(b, sz, "%" PRId64, (int64_t)p); break;
    case VT_FLT: {
        double d;
        memcpy(&d, &p, 8);
        fmt_double(b, sz, d);
        break;
    }
    case VT_LOC: snprintf(b, sz, "%s", loc_label(s, (uint32_t)p)); break;
    default: snprintf(b, sz, "%s", store_str(s, (uint32_t)p)); break;
    }
    return true;
}

/* the sync instances' shared definition (analysis/waits.h), built once */
static const SyncCtx *app_syncctx(App *A)
{
    if (!A->sctx) {
        A->sctx = xmalloc(sizeof *A->sctx);
        syncctx_init(A->s, A->sctx);
    }
    return A->sctx;
}

static void details_event(App *A, uint32_t e, bool focus)
{
    const Store *s = A->s;
    char b1[64], b2[64], ab[160];
    A->dev = xrealloc(A->dev, ((size_t)A->ndev + 1) * sizeof(DetailEv));
    A->dev[A->ndev++] = (DetailEv){e, A->ndlines};
    dline(A, 1, "%s %s  (%s)", focus ? ">" : " ", event_name(s, e), kind_name(s, s->kind[e]));
    rel_time(A, s->ts[e], b1, sizeof b1);
    dline(A, 0, "  ts      %s  (%" PRId64 ")", b1, s->ts[e]);
    if (s->flags[e] & EVF_DUR) {
        format_dur(b2, sizeof b2, s->dur[e]);
        rel_time(A, ev_end(s, e), b1, sizeof b1);
        dline(A, 0, "  dur     %s, end %s", b2, b1);
    }
    dline(A, 0, "  loc     %s   act %s", loc_label(s, s->loc[e]), act_label(s, s->act[e], ab, sizeof ab));
    for (uint32_t c = 0; c < s->ncols; c++) {
        char v[256];
        if (field_text(s, &s->cols[c], e, v, sizeof v)) dline(A, 0, "  %-7s %s", s->cols[c].name, v);
    }
    /* its activity */
    const Activity *Ac = &s->acts[s->act[e]];
    char pb[160] = "-", sb[64] = "-", eb[64] = "-";
    if (Ac->parent != NONE32) act_label(s, Ac->parent, pb, sizeof pb);
    if (Ac->spawn_ev != NONE32) rel_time(A, s->ts[Ac->spawn_ev], sb, sizeof sb);
    if (Ac->end_ev != NONE32) rel_time(A, s->ts[Ac->end_ev], eb, sizeof eb);
    dline(A, 0, "  activity %s: parent %s, spawned %s, ends %s", act_label(s, s->act[e], ab, sizeof ab), pb, sb, eb);
    if (Ac->nmoves) {
        char mv[256] = "";
        size_t k = 0;
        for (uint32_t i = 0; i < Ac->nmoves && k + 20 < sizeof mv; i++) {
            uint32_t me = s->moves[Ac->moves_off + i];
            const Column *pc = store_canon_col(s, F_PEER);
            char to[64] = "?";
            if (pc) field_text(s, pc, me, to, sizeof to);
            k += (size_t)snprintf(mv + k, sizeof mv - k, "%s%s->%s", i ? ", " : "", loc_label(s, s->loc[me]), to);
        }
        dline(A, 0, "  moves   %s", mv);
    }
    /* its message */
    uint32_t mi = store_msg_of(s, e);
    if (mi != NONE32) {
        const Message *M = &s->msgs[mi];
        uint32_t other = M->send_ev == e ? M->recv_ev : M->send_ev;
        if (M->send_ev == e && M->recv_ev == e) {
            rel_time(A, msg_t_recv(s, M), b1, sizeof b1);
            dline(A, 2, "  message to %s, arrives %s", M->dst != NONE32 ? loc_label(s, M->dst) : "?", b1);
        } else if (other != NONE32) {
            rel_time(A, s->ts[other], b1, sizeof b1);
            dline(A, 2, "  message: the %s is at %s, %s (Enter: go there)", M->send_ev == e ? "receive" : "send",
                  loc_label(s, s->loc[other]), b1);
        } else {
            dline(A, 2, "  message: the other end is not in the trace");
        }
    }
    /* its sync group */
    uint32_t gi = store_group_of(s, e);
    if (gi != NONE32) {
        const SyncGroup *G = &s->groups[gi];
        uint32_t last;
        format_dur(b2, sizeof b2, syncs_instance_wait(app_syncctx(A), gi, &last));
        dline(A, 2, "  sync group: %u participants, %s waited, last: %s (Enter: list them)", G->nparts, b2,
              loc_label(s, s->loc[last]));
    }
}

static void details_participants(App *A, uint32_t gi)
{
    const Store *s = A->s;
    const SyncGroup *G = &s->groups[gi];
    char b1[64], b2[64], ab[160];
    uint32_t e0 = s->group_ev[G->ev_off];
    const Column *gc = store_canon_col(s, F_GROUP);
    char gname[128] = "?";
    if (gc) field_text(s, gc, e0, gname, sizeof gname);
    format_dur(b2, sizeof b2, syncs_instance_wait(app_syncctx(A), gi, NULL));
    dline(A, 1, "sync group %s: %u events, %u participants, %s waited", gname, G->nev, G->nparts, b2);
    for (uint32_t i = 0; i < G->nev; i++) {
        uint32_t e = s->group_ev[G->ev_off + i];
        rel_time(A, s->ts[e], b1, sizeof b1);
        format_dur(b2, sizeof b2, (s->flags[e] & EVF_DUR) ? s->dur[e] : 0);
        bool last = e == G->last_ev, focus = (int)i == A->dfocus;
        A->dev = xrealloc(A->dev, ((size_t)A->ndev + 1) * sizeof(DetailEv));
        A->dev[A->ndev++] = (DetailEv){e, A->ndlines};
        dline(A, last ? 2 : 0, "  %s%-6s %-10s arrives %s, waits %s%s", focus ? "> " : "  ", loc_label(s, s->loc[e]),
              act_label(s, s->act[e], ab, sizeof ab), b1, b2, last ? "   <- last to arrive" : "");
    }
}

void app_details_refresh(App *A)
{
    details_clear(A);
    if (A->participants_of != NONE32) {
        details_participants(A, A->participants_of);
        return;
    }
    RowModel *M = app_rows(A);
    if (!M) {
        dline(A, 0, "(details: in the gantt and density views)");
        return;
    }
    if (M->dirty) app_rows_rebuild(A, M);
    if (A->cur_row < 0 || (uint32_t)A->cur_row >= M->rs.ng) return;
    int64_t a = app_cursor_time(A), b = app_cell_start(A, A->cur_col + 1);
    if (b <= a) b = a + 1;
    char ra[48] = "+", rb[48] = "+", lab[300];
    format_dur_res(ra + 1, sizeof ra - 1, a - A->s->t_min, b - a);
    format_dur_res(rb + 1, sizeof rb - 1, b - A->s->t_min, b - a);
    rowset_label(&M->rs, A->S, (uint32_t)A->cur_row, lab, sizeof lab);
    dline(A, 1, "%s  [%s, %s)", lab, ra, rb);
    uint32_t evs[32];
    int n = 0;
    for (uint32_t k = rowset_first(&M->rs, (uint32_t)A->cur_row); k < rowset_end(&M->rs, (uint32_t)A->cur_row) && n < 32;
         k++)
        n += summary_events_in_cell(A->S, M->kind, M->rs.ids[k], a, b, evs + n, 32 - n);
    if (!n) {
        dline(A, 0, "  nothing here");
        return;
    }
    /* after a jump to an event (a message's other end, n, a participant...),
     * the focus is on that event, not on the first one under the cursor */
    if (A->focus_ev != NONE32) {
        for (int i = 0; i < n; i++)
            if (evs[i] == A->focus_ev) A->dfocus = i;
        A->focus_ev = NONE32;
    }
    if (A->dfocus >= n) A->dfocus = n - 1;
    for (int i = 0; i < n; i++) details_event(A, evs[i], i == A->dfocus);
    if (n == 32) dline(A, 0, "  (the first 32 events)");
}

/* Enter in the details: a message's other end, a sync group's participants */
bool app_details_enter(App *A)
{
    const Store *s = A->s;
    if (A->dfocus < 0 || A->dfocus >= A->ndev) return false;
    uint32_t e = A->dev[A->dfocus].ev;
    uint32_t mi = store_msg_of(s, e);
    if (A->participants_of == NONE32 && mi != NONE32) {
        const Message *M = &s->msgs[mi];
        uint32_t other = M->send_ev == e ? M->recv_ev : M->send_ev;
        if (other == NONE32 || other == e) {
            snprintf(A->msg, sizeof A->msg, "the other end of this message is not in the trace");
            return false;
        }
        app_pan_to(A, s->ts[other]);
        A->dfocus = 0;
        app_cursor_row_to(A, other);
        snprintf(A->msg, sizeof A->msg, "the %s of the message", M->send_ev == e ? "receive" : "send");
        return true;
    }
    uint32_t gi = store_group_of(s, e);
    if (A->participants_of == NONE32 && gi != NONE32) {
        A->participants_of = gi;
        A->dfocus = 0;
        return true;
    }
    if (A->participants_of != NONE32) {
        /* on a participant: go to it */
        A->participants_of = NONE32;
        app_pan_to(A, s->ts[e]);
        app_cursor_row_to(A, e);
        return true;
    }
    return false;
}

